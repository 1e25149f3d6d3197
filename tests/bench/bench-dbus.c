/* bench-dbus.c: psc-bench dbus, what a client hammering the D-Bus export
 * costs the application's render (owner) thread.
 *
 *   psc-bench dbus [--pipelines P] [--in-flight K] [--frames F] [--pairs N]
 *                  [--calls C] [--period-us T] [--mix both|stats|list]
 *
 * Needs a session bus (run it under dbus-run-session); without
 * DBUS_SESSION_BUS_ADDRESS it fails with a message saying so.
 *
 * The owner thread (main) exports a cache holding P graphics pipelines
 * (default 256, the async family's of bench-family.c, plus their shaders
 * and layouts) on the session bus
 * (psc_cache_export on the process's g_bus_get_sync connection) and renders
 * paced frames: one frame is psc_cache_begin_frame + one
 * psc_cache_get_graphics_pipeline per pipeline (all hits; the create infos
 * are built up front), and frames start every T us (default 1000; the rest
 * of the period sleeps, so the owner does not hold a core by itself). Each
 * frame's wall time is taken, with begin_frame alone and the thread's CPU
 * time as diagnostics.
 *
 * A client thread with its own GDBusConnection to the same bus
 * (g_dbus_address_get_for_bus_sync + g_dbus_connection_new_for_address_sync,
 * its own GMainContext, asynchronous calls, no polling) keeps K calls in
 * flight (default 16) to the exported object, alternating GetStatistics
 * (answered by the export's bus thread from the atomic counters) and
 * ListEntries (0, 64) (queued, applied by the owner thread at its next
 * begin_frame). Every reply is checked; Busy errors are counted apart, any
 * other error fails the run. --mix stats or list makes the client call one
 * method only (diagnostics: which side of the export costs the owner what).
 *
 * Phases of F measured frames each (default 1000), 2N of them (default
 * N = 4 pairs) in the order I L L I I L L I ... (idle / loaded; the order
 * flips every pair so a linear drift weighs on both sides alike). A loaded
 * phase starts the client, skips 50 frames (the in-flight calls build up),
 * then measures F frames, and runs longer until it has seen its share of C
 * replies (default 10,000 over all loaded phases); then the client stops
 * and the phase drains its in-flight calls (unmeasured frames). An idle
 * phase skips 50 frames too. frame_us_idle and frame_us_loaded are the
 * medians over all measured frames of each kind, overhead their ratio;
 * overhead_min / overhead_max the extremes of the per-pair ratios (the
 * spread); the other members split where the owner's time went: medians of
 * begin_frame alone, of the requests, of the thread's CPU time, the means
 * (a median hides a cost that only some frames pay), ListEntries answered
 * per loaded frame and list_entries_us, the extra mean begin_frame time per
 * ListEntries answered. See docs/benchmarks.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#include "bench.h"
#include "bench-family.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LIST_LIMIT 64
#define SETTLE_FRAMES 50
#define CALL_TIMEOUT_MS 30000

/* What the client calls: both alternately (the benchmark), or one kind
 * only (diagnostics: which side of the export costs the owner what). */
enum { MIX_BOTH, MIX_STATS, MIX_LIST };
static const char *const mix_names[] = { "both", "stats", "list" };

/* ---- the client thread ---- */
typedef struct {
  /* Set before the thread starts. */
  char *bus_name, *object_path;
  uint32_t in_flight_max;
  int mix;                       /* MIX_* */
  atomic_uint total;             /* ListEntries' total (its first reply's) */
  /* Owner -> client. */
  atomic_int load;               /* 1: keep K calls in flight; 0: issue none */
  atomic_int quit;
  /* Client -> owner. */
  atomic_int ready;              /* 1: connected; -1: failed */
  atomic_uint in_flight;
  atomic_ullong stats_replies, list_replies, busy, errors;
  /* Client thread only. */
  GMainContext *context;
  GDBusConnection *connection;
  uint64_t seq;
  char first_error[512];
} Client;

static void issue (Client *c);

static void
count_error (Client *c, GError *error)
{
  g_autofree char *remote = g_dbus_error_get_remote_error (error);
  if (g_strcmp0 (remote, "io.github.psocache.Error.Busy") == 0)
    atomic_fetch_add (&c->busy, 1);
  else
    {
      if (atomic_fetch_add (&c->errors, 1) == 0)
        snprintf (c->first_error, sizeof c->first_error, "%s", error->message);
    }
}

static void
on_reply (GObject *source, GAsyncResult *result, gpointer data)
{
  Client *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                             &error);
  if (reply == NULL)
    count_error (c, error);
  else if (g_variant_is_of_type (reply, G_VARIANT_TYPE ("(a{sv})")))
    {
      g_autoptr(GVariant) dict = g_variant_get_child_value (reply, 0);
      if (g_variant_n_children (dict) == 0)
        {
          if (atomic_fetch_add (&c->errors, 1) == 0)
            snprintf (c->first_error, sizeof c->first_error, "GetStatistics: an empty dictionary");
        }
      else
        atomic_fetch_add (&c->stats_replies, 1);
    }
  else
    {
      g_autoptr(GVariant) entries = g_variant_get_child_value (reply, 0);
      guint32 total = 0;
      g_variant_get_child (reply, 1, "u", &total);
      /* Nothing is created or evicted while the bench runs. */
      guint expected = 0;
      atomic_compare_exchange_strong (&c->total, &expected, total);
      expected = atomic_load (&c->total);
      const size_t want = MIN (LIST_LIMIT, expected);
      if (total == 0 || total != expected || g_variant_n_children (entries) != want)
        {
          if (atomic_fetch_add (&c->errors, 1) == 0)
            snprintf (c->first_error, sizeof c->first_error,
                      "ListEntries: %zu entries of %u (expected %zu of %u)",
                      g_variant_n_children (entries), total, want, expected);
        }
      else
        atomic_fetch_add (&c->list_replies, 1);
    }
  atomic_fetch_sub (&c->in_flight, 1);
  issue (c);
}

/* Tops the calls in flight up to K while the load is on. */
static void
issue (Client *c)
{
  while (atomic_load (&c->load) && !atomic_load (&c->quit) &&
         atomic_load (&c->in_flight) < c->in_flight_max)
    {
      const gboolean list = c->mix == MIX_BOTH ? (c->seq++ & 1) != 0 : c->mix == MIX_LIST;
      atomic_fetch_add (&c->in_flight, 1);
      g_dbus_connection_call (c->connection, c->bus_name, c->object_path, PSC_EXPORT_INTERFACE,
                              list ? "ListEntries" : "GetStatistics",
                              list ? g_variant_new ("(uu)", 0u, (guint32) LIST_LIMIT) : NULL,
                              list ? G_VARIANT_TYPE ("(a(ustsutt)u)") : G_VARIANT_TYPE ("(a{sv})"),
                              G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL, on_reply, c);
    }
}

static gpointer
client_main (gpointer data)
{
  Client *c = data;
  g_autoptr(GError) error = NULL;

  c->context = g_main_context_new ();
  g_main_context_push_thread_default (c->context);
  /* A connection of its own (as a separate client process would have),
   * not the owner's g_bus_get_sync one. */
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (address != NULL)
    c->connection = g_dbus_connection_new_for_address_sync (
      address,
      G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
      NULL, NULL, &error);
  if (c->connection == NULL)
    {
      snprintf (c->first_error, sizeof c->first_error, "client connection: %s", error->message);
      atomic_store (&c->ready, -1);
      g_main_context_pop_thread_default (c->context);
      return NULL;
    }
  g_dbus_connection_set_exit_on_close (c->connection, FALSE);
  atomic_store (&c->ready, 1);
  /* Blocks in poll until a reply or the owner's wake-up. */
  while (!atomic_load (&c->quit) || atomic_load (&c->in_flight) > 0)
    {
      issue (c);
      g_main_context_iteration (c->context, TRUE);
    }
  g_dbus_connection_close_sync (c->connection, NULL, NULL);
  g_clear_object (&c->connection);
  g_main_context_pop_thread_default (c->context);
  return NULL;
}

static void
client_set_load (Client *c, int on)
{
  atomic_store (&c->load, on);
  g_main_context_wakeup (c->context);
}

/* ---- the owner thread's frames ---- */
typedef struct {
  double *frame_us, *pump_us, *req_us, *cpu_us;
  size_t n, cap;
} Samples;

static void
samples_add (Samples *s, double frame, double pump, double req, double cpu)
{
  if (s->n == s->cap)
    {
      s->cap = s->cap ? 2 * s->cap : 4096;
      s->frame_us = realloc (s->frame_us, s->cap * sizeof (double));
      s->pump_us = realloc (s->pump_us, s->cap * sizeof (double));
      s->req_us = realloc (s->req_us, s->cap * sizeof (double));
      s->cpu_us = realloc (s->cpu_us, s->cap * sizeof (double));
      if (!s->frame_us || !s->pump_us || !s->req_us || !s->cpu_us)
        die ("out of memory", NULL);
    }
  s->frame_us[s->n] = frame;
  s->pump_us[s->n] = pump;
  s->req_us[s->n] = req;
  s->cpu_us[s->n] = cpu;
  s->n++;
}

static void
samples_clear (Samples *s)
{
  free (s->frame_us);
  free (s->pump_us);
  free (s->req_us);
  free (s->cpu_us);
  memset (s, 0, sizeof *s);
}

static double
mean_of (const double *v, size_t n)
{
  double sum = 0.0;
  for (size_t i = 0; i < n; i++)
    sum += v[i];
  return n ? sum / (double) n : 0.0;
}

/* Medians of a copy (median() sorts). */
static double
median_of (const double *v, size_t n)
{
  double *copy = malloc (n * sizeof *copy);
  if (copy == NULL)
    die ("out of memory", NULL);
  memcpy (copy, v, n * sizeof *copy);
  double m = median (copy, n);
  free (copy);
  return m;
}

static double
p90_of (const double *v, size_t n)
{
  double *copy = malloc (n * sizeof *copy);
  if (copy == NULL)
    die ("out of memory", NULL);
  memcpy (copy, v, n * sizeof *copy);
  double m = percentile (copy, n, 0.90);
  free (copy);
  return m;
}

static uint64_t
thread_cpu_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

typedef struct {
  PscCache *cache;
  const AsyncInfo *infos;
  uint32_t pipelines;
  uint32_t period_us;
  guint64 frame;
  uint64_t next_ns;              /* the next frame's start */
  uint64_t overruns;             /* frames that ran past their period */
  uint64_t misses;               /* requests that returned no pipeline */
} Owner;

static void
sleep_until (uint64_t t_ns)
{
  struct timespec ts = { (time_t) (t_ns / 1000000000ull), (long) (t_ns % 1000000000ull) };
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

/* One paced frame; its figures go to *s when s is not NULL. */
static void
owner_frame (Owner *o, Samples *s)
{
  sleep_until (o->next_ns);
  o->frame++;
  const uint64_t c0 = thread_cpu_ns ();
  const uint64_t t0 = now_ns ();
  psc_cache_begin_frame (o->cache, o->frame, o->frame - 1);
  const uint64_t t1 = now_ns ();
  for (uint32_t i = 0; i < o->pipelines; i++)
    if (psc_cache_get_graphics_pipeline (o->cache, &o->infos[i].ci, NULL) == VK_NULL_HANDLE)
      o->misses++;
  const uint64_t t2 = now_ns ();
  const uint64_t c1 = thread_cpu_ns ();
  if (s != NULL)
    samples_add (s, (double) (t2 - t0) / 1e3, (double) (t1 - t0) / 1e3, (double) (t2 - t1) / 1e3,
                 (double) (c1 - c0) / 1e3);
  o->next_ns += (uint64_t) o->period_us * 1000ull;
  const uint64_t now = now_ns ();
  if (now > o->next_ns)
    {
      o->overruns++;
      o->next_ns = now;
    }
}

typedef struct {
  Samples s;
  gboolean loaded;
  uint64_t calls, stats, lists, busy;   /* replies during the measured frames */
  double seconds;                       /* of the measured frames */
} Phase;

static void
run_phase (Owner *o, Client *c, Phase *p, gboolean loaded, uint32_t frames, uint64_t min_calls)
{
  memset (p, 0, sizeof *p);
  p->loaded = loaded;
  if (loaded)
    client_set_load (c, 1);
  for (int i = 0; i < SETTLE_FRAMES; i++)
    owner_frame (o, NULL);
  const uint64_t s0 = atomic_load (&c->stats_replies), l0 = atomic_load (&c->list_replies);
  const uint64_t b0 = atomic_load (&c->busy);
  const uint64_t t0 = now_ns ();
  for (uint32_t f = 0; f < frames || (loaded && atomic_load (&c->stats_replies) - s0 +
                                                  atomic_load (&c->list_replies) - l0 < min_calls);
       f++)
    owner_frame (o, &p->s);
  p->seconds = (double) (now_ns () - t0) / 1e9;
  p->stats = atomic_load (&c->stats_replies) - s0;
  p->lists = atomic_load (&c->list_replies) - l0;
  p->busy = atomic_load (&c->busy) - b0;
  p->calls = p->stats + p->lists;
  if (loaded)
    {
      /* Drain: the queued ListEntries need frames to be answered. */
      client_set_load (c, 0);
      const uint64_t start = now_ns ();
      while (atomic_load (&c->in_flight) > 0)
        {
          owner_frame (o, NULL);
          if (now_ns () - start > 60ull * 1000000000ull)
            die ("the client's calls did not drain within 60 s", NULL);
        }
    }
}

static void
usage_dbus (void)
{
  fprintf (stderr, "usage: psc-bench dbus [--pipelines P] [--in-flight K] [--frames F] "
                   "[--pairs N] [--calls C] [--period-us T]\n"
                   "                      [--mix both|stats|list]\n"
                   "       (needs a session bus: dbus-run-session -- psc-bench dbus)\n");
}

int
bench_dbus (int argc, char **argv)
{
  uint32_t pipelines = 256, in_flight = 16, frames = 1000, pairs = 4, calls = 10000;
  uint32_t period_us = 1000;
  int mix = MIX_BOTH;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = value != NULL;
      if (ok && strcmp (argv[i], "--pipelines") == 0)
        ok = parse_u32 (value, &pipelines) && pipelines >= 1;
      else if (ok && strcmp (argv[i], "--in-flight") == 0)
        ok = parse_u32 (value, &in_flight) && in_flight >= 1 && in_flight <= 4096;
      else if (ok && strcmp (argv[i], "--frames") == 0)
        ok = parse_u32 (value, &frames) && frames >= 1;
      else if (ok && strcmp (argv[i], "--pairs") == 0)
        ok = parse_u32 (value, &pairs) && pairs >= 1;
      else if (ok && strcmp (argv[i], "--calls") == 0)
        ok = parse_u32 (value, &calls);
      else if (ok && strcmp (argv[i], "--period-us") == 0)
        ok = parse_u32 (value, &period_us) && period_us <= 1000000;
      else if (ok && strcmp (argv[i], "--mix") == 0)
        {
          ok = false;
          for (int m = 0; m < 3; m++)
            if (strcmp (value, mix_names[m]) == 0)
              {
                mix = m;
                ok = true;
              }
        }
      else
        ok = false;
      if (!ok)
        {
          usage_dbus ();
          return 2;
        }
      i++;
    }
  const char *address = g_getenv ("DBUS_SESSION_BUS_ADDRESS");
  if (address == NULL || address[0] == '\0')
    {
      fprintf (stderr, "psc-bench dbus: DBUS_SESSION_BUS_ADDRESS is not set: this benchmark "
                       "needs a session bus; run it as `dbus-run-session -- psc-bench dbus`\n");
      return 1;
    }

  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("device", error);
  char driver[1024];
  driver_string (device, driver, sizeof driver);
  PscCacheOptions opts = PSC_CACHE_OPTIONS_INIT;
  opts.workers = 1;   /* every pipeline is created synchronously; no compiles run */
  BenchObjects objects;
  g_autoptr(PscCache) cache = async_cache_new_full (device, &opts, &objects);
  /* The async family's pipelines (bench-family.c), all distinct. */
  AsyncInfo *infos = async_infos_new (PHASE_SERIAL, pipelines, &objects);
  const uint64_t t_create = now_ns ();
  for (uint32_t i = 0; i < pipelines; i++)
    if (psc_cache_get_graphics_pipeline (cache, &infos[i].ci, &error) == VK_NULL_HANDLE)
      die ("create", error);
  const double create_ms = (double) (now_ns () - t_create) / 1e6;
  if (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES) !=
      pipelines)
    die ("distinct pipelines", NULL);

  if (!psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error))
    die ("psc_cache_export", error);

  Owner o = { .cache = cache, .infos = infos, .pipelines = pipelines, .period_us = period_us };
  o.next_ns = now_ns ();
  /* Warm-up frames (every request a hit from now on); the entry count the
   * client checks ListEntries' total against. */
  for (int i = 0; i < 2 * SETTLE_FRAMES; i++)
    owner_frame (&o, NULL);
  Client c = {
    .bus_name = g_strdup (psc_cache_get_export_bus_name (cache)),
    .object_path = g_strdup (psc_cache_get_export_object_path (cache)),
    .in_flight_max = in_flight,
    .mix = mix,
  };
  GThread *thread = g_thread_new ("psc-bench-client", client_main, &c);
  while (atomic_load (&c.ready) == 0)
    owner_frame (&o, NULL);
  if (atomic_load (&c.ready) < 0)
    {
      fprintf (stderr, "psc-bench dbus: %s\n", c.first_error);
      return 1;
    }

  /* I L L I I L L I ...: the order flips every pair. */
  const uint32_t n_phases = 2 * pairs;
  const uint64_t per_phase_calls = (calls + pairs - 1) / pairs;
  Phase *phases = calloc (n_phases, sizeof *phases);
  if (phases == NULL)
    die ("out of memory", NULL);
  const uint64_t frames0 = o.frame, overruns0 = o.overruns;
  for (uint32_t k = 0; k < n_phases; k++)
    {
      const gboolean loaded = (k % 2 == 1) == (k / 2 % 2 == 0);
      run_phase (&o, &c, &phases[k], loaded, frames, per_phase_calls);
      Phase *p = &phases[k];
      fprintf (stderr, "psc-bench dbus: phase %u %-6s %zu frames: frame median %.1f us (p90 %.1f), "
               "begin_frame %.1f us, requests %.1f us, thread CPU %.1f us; %" G_GUINT64_FORMAT
               " replies (%" G_GUINT64_FORMAT " GetStatistics, %" G_GUINT64_FORMAT
               " ListEntries, %.2f per frame) in %.2f s, %" G_GUINT64_FORMAT " busy\n",
               k, loaded ? "loaded" : "idle", p->s.n, median_of (p->s.frame_us, p->s.n),
               p90_of (p->s.frame_us, p->s.n), median_of (p->s.pump_us, p->s.n),
               median_of (p->s.req_us, p->s.n), median_of (p->s.cpu_us, p->s.n), p->calls,
               p->stats, p->lists, (double) p->lists / (double) p->s.n, p->seconds, p->busy);
    }
  const uint64_t frames_run = o.frame - frames0, overruns = o.overruns - overruns0;

  atomic_store (&c.quit, 1);
  g_main_context_wakeup (c.context);
  g_thread_join (thread);

  /* Pool each kind; the per-pair ratios give the spread. */
  Samples idle = { 0 }, load = { 0 };
  double ratio_min = G_MAXDOUBLE, ratio_max = 0.0;
  uint64_t n_calls = 0, n_lists = 0, n_busy = 0;
  double load_seconds = 0.0;
  for (uint32_t k = 0; k < n_phases; k++)
    {
      Phase *p = &phases[k];
      Samples *into = p->loaded ? &load : &idle;
      for (size_t i = 0; i < p->s.n; i++)
        samples_add (into, p->s.frame_us[i], p->s.pump_us[i], p->s.req_us[i], p->s.cpu_us[i]);
      if (p->loaded)
        {
          n_calls += p->calls;
          n_lists += p->lists;
          n_busy += p->busy;
          load_seconds += p->seconds;
        }
      if (k % 2 == 1)
        {
          Phase *a = &phases[k - 1], *b = p;
          Phase *pi = a->loaded ? b : a, *pl = a->loaded ? a : b;
          double r = median_of (pl->s.frame_us, pl->s.n) / median_of (pi->s.frame_us, pi->s.n);
          ratio_min = MIN (ratio_min, r);
          ratio_max = MAX (ratio_max, r);
        }
    }
  const double f0 = median_of (idle.frame_us, idle.n), f1 = median_of (load.frame_us, load.n);
  const double pump0 = median_of (idle.pump_us, idle.n), pump1 = median_of (load.pump_us, load.n);
  const double req0 = median_of (idle.req_us, idle.n), req1 = median_of (load.req_us, load.n);
  const double cpu0 = median_of (idle.cpu_us, idle.n), cpu1 = median_of (load.cpu_us, load.n);
  const double lists_per_frame = (double) n_lists / (double) load.n;
  const double m0 = mean_of (idle.frame_us, idle.n), m1 = mean_of (load.frame_us, load.n);
  const double mp0 = mean_of (idle.pump_us, idle.n), mp1 = mean_of (load.pump_us, load.n);
  /* What one applied ListEntries costs begin_frame, amortized: the extra
   * mean begin_frame time per ListEntries answered. */
  const double list_us = lists_per_frame > 0 ? (mp1 - mp0) / lists_per_frame : 0.0;
  const uint64_t total_replies = atomic_load (&c.stats_replies) + atomic_load (&c.list_replies);
  const uint32_t entries = atomic_load (&c.total);

  fprintf (stderr, "psc-bench dbus: device \"%s\", %u pipelines created in %.1f ms, %u entries "
           "exported as %s %s; %" G_GUINT64_FORMAT " frames run, %" G_GUINT64_FORMAT
           " past their %u us period, %" G_GUINT64_FORMAT " requests without a pipeline\n",
           psc_device_get_name (device), pipelines, create_ms, entries, c.bus_name,
           c.object_path, frames_run, overruns, period_us, o.misses);
  fprintf (stderr, "psc-bench dbus: idle -> loaded medians: frame %.1f -> %.1f us, begin_frame "
           "%.1f -> %.1f us, requests %.1f -> %.1f us, thread CPU %.1f -> %.1f us; "
           "%.2f ListEntries applied per loaded frame; means: frame %.1f -> %.1f us, begin_frame "
           "%.1f -> %.1f us, so %.1f us of begin_frame per ListEntries; "
           "%" G_GUINT64_FORMAT " replies in all (drains included)\n",
           f0, f1, pump0, pump1, req0, req1, cpu0, cpu1, lists_per_frame, m0, m1, mp0, mp1,
           list_us, total_replies);

  int failures = 0;
  if (atomic_load (&c.errors) > 0)
    {
      fprintf (stderr, "psc-bench dbus: %" G_GUINT64_FORMAT " calls failed; the first: %s\n",
               (guint64) atomic_load (&c.errors), c.first_error);
      failures++;
    }
  if (o.misses > 0)
    failures++;
  if (n_calls == 0 || n_calls < calls)
    {
      fprintf (stderr, "psc-bench dbus: %" G_GUINT64_FORMAT " replies in the loaded phases, "
               "fewer than %u\n", n_calls, calls);
      failures++;
    }

  printf ("{\"bench\":\"dbus\",\"calls\":%" G_GUINT64_FORMAT ",\"calls_per_s\":%.0f,"
          "\"frame_us_idle\":%.1f,\"frame_us_loaded\":%.1f,\"overhead\":%.3f,"
          "\"overhead_min\":%.3f,\"overhead_max\":%.3f,"
          "\"frame_us_idle_p90\":%.1f,\"frame_us_loaded_p90\":%.1f,"
          "\"begin_frame_us_idle\":%.1f,\"begin_frame_us_loaded\":%.1f,"
          "\"requests_us_idle\":%.1f,\"requests_us_loaded\":%.1f,"
          "\"cpu_us_idle\":%.1f,\"cpu_us_loaded\":%.1f,"
          "\"frame_us_idle_mean\":%.1f,\"frame_us_loaded_mean\":%.1f,"
          "\"list_entries_per_frame\":%.2f,\"list_entries_us\":%.1f,"
          "\"busy\":%" G_GUINT64_FORMAT ",\"mix\":\"%s\",\"in_flight\":%u,"
          "\"pipelines\":%u,\"entries\":%u,\"frames\":%zu,\"pairs\":%u,\"period_us\":%u,"
          "\"driver\":\"%s\"}\n",
          n_calls, (double) n_calls / load_seconds, f0, f1, f1 / f0, ratio_min, ratio_max,
          p90_of (idle.frame_us, idle.n), p90_of (load.frame_us, load.n), pump0, pump1, req0, req1,
          cpu0, cpu1, m0, m1, lists_per_frame, list_us, n_busy, mix_names[mix], in_flight, pipelines, entries, idle.n + load.n,
          pairs, period_us, driver);
  fflush (stdout);

  for (uint32_t k = 0; k < n_phases; k++)
    samples_clear (&phases[k].s);
  free (phases);
  samples_clear (&idle);
  samples_clear (&load);
  psc_cache_unexport (cache);
  g_main_context_unref (c.context);
  g_free (c.bus_name);
  g_free (c.object_path);
  free (infos);
  if (failures)
    fprintf (stderr, "psc-bench dbus: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
