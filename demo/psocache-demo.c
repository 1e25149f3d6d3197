/* psocache-demo: renders the demo scene offscreen through a PscCache and
 * prints what the cache did. With --async, pipelines compile on the cache's
 * workers while the frame loop draws fallbacks, hot-reloads a shader and
 * evicts idle pipelines (see the top of scene.c). With --keep-running it
 * renders until SIGINT or SIGTERM; its cache is exported on the session bus
 * (--dbus) for busctl, gdbus and psocachectl.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dbus-export.h"
#include "persistence.h"
#include "sanitizer.h"
#include "scene.h"

#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The demo's application id: its cache persists under
 * $XDG_CACHE_HOME/psocache/io.github.psocache.Demo/ unless --no-persist. */
#define PSC_DEMO_APPLICATION_ID "io.github.psocache.Demo"
#define LAVAPIPE_ICD "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


static const char *
backend_name (PscBackend backend)
{
  switch (backend)
    {
    case PSC_BACKEND_DYNAMIC_RENDERING:
      return "dynamic rendering";
    case PSC_BACKEND_LEGACY:
      return "legacy (render passes)";
    case PSC_BACKEND_AUTO:
    default:
      return "auto";
    }
}

static gboolean
parse_backend (const char *name, PscBackend *backend, GError **error)
{
  if (g_strcmp0 (name, "auto") == 0)
    *backend = PSC_BACKEND_AUTO;
  else if (g_strcmp0 (name, "dynamic") == 0)
    *backend = PSC_BACKEND_DYNAMIC_RENDERING;
  else if (g_strcmp0 (name, "legacy") == 0)
    *backend = PSC_BACKEND_LEGACY;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unknown backend '%s' (expected auto, dynamic or legacy)", name);
      return FALSE;
    }
  return TRUE;
}

static double
ms (guint64 ns)
{
  return (double) ns / 1e6;
}

static void
print_async_frame (const PscDemoAsyncFrame *f, const PscDemoAsyncFrame *prev)
{
  g_print ("  %5u%s%s %4u %6u %6u %6u %6u %8" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
           " %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %10.3f %8.1f\n",
           f->frame, f->reload ? "R" : " ", f->far_lods ? "*" : " ",
           f->requested, f->exact, f->fallback, f->stale, f->skipped,
           f->completed - (prev ? prev->completed : 0),
           f->evictions - (prev ? prev->evictions : 0),
           f->retired - (prev ? prev->retired : 0),
           f->retirements_pending,
           ms (f->owner_wait_ns - (prev ? prev->owner_wait_ns : 0)),
           ms (f->ns));
}

static void
print_async_report (PscCache *cache, const PscDemoSceneResult *r, guint main_frames)
{
  const PscDemoAsyncStats *a = &r->async_stats;
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
  guint n = r->n_async_frames;

  g_print ("\nFrames (R: hot reload before this frame, *: far-LOD pipelines requested; "
           "counters are per frame, except 'pending'):\n");
  g_print ("  %7s %4s %6s %6s %6s %6s %8s %6s %8s %8s %10s %8s\n",
           "frame", "req", "exact", "fallb", "stale", "skip", "compiled", "evict",
           "retired", "pending", "wait ms", "ms");
  for (guint i = 0; i < n; i++)
    {
      /* Long convergence tails: the first and last rows only. */
      if (n > 80 && i == 40)
        g_print ("  ... %u frames ...\n", n - 80);
      if (n > 80 && i >= 40 && i < n - 40)
        continue;
      if (i == main_frames && i < n)
        g_print ("  -- converging: every LOD requested, until every draw is exact --\n");
      print_async_frame (&r->async_frames[i], i > 0 ? &r->async_frames[i - 1] : NULL);
    }

  g_print ("\nAsync summary:\n");
  g_print ("  draws: %" G_GUINT64_FORMAT " exact, %" G_GUINT64_FORMAT " fallback, %"
           G_GUINT64_FORMAT " stale, %" G_GUINT64_FORMAT " skipped (%" G_GUINT64_FORMAT
           " refused: queue full)\n",
           a->exact_draws, a->fallback_draws, a->stale_draws, a->skipped_draws, a->queue_full);
  g_print ("  fallbacks: %u registered (created before the loop with the compute pipeline: "
           "%.3f ms on the owner thread)\n",
           a->fallback_pipelines, ms (a->setup_owner_wait_ns));
  g_print ("  compiles completed on workers: %" G_GUINT64_FORMAT ", failed: %" G_GUINT64_FORMAT
           ", stale results discarded: %" G_GUINT64_FORMAT ", fallbacks returned: %"
           G_GUINT64_FORMAT ", stale returned: %" G_GUINT64_FORMAT "\n",
           psc_stats_get_async (stats, PSC_ASYNC_COUNTER_COMPLETED), psc_stats_get_async (stats, PSC_ASYNC_COUNTER_FAILED), psc_stats_get_async (stats, PSC_ASYNC_COUNTER_STALE_DISCARDS),
           psc_stats_get_async (stats, PSC_ASYNC_COUNTER_FALLBACKS_RETURNED), psc_stats_get_async (stats, PSC_ASYNC_COUNTER_STALE_RETURNED));
  if (a->reload_frame != 0)
    {
      g_print ("  hot reload of %s before frame %u (%u pipelines use it): then %"
               G_GUINT64_FORMAT " stale, %" G_GUINT64_FORMAT " fallback, %" G_GUINT64_FORMAT
               " skipped draws of them;\n",
               psc_demo_shader_name (PSC_DEMO_RELOAD_SHADER), a->reload_frame,
               a->reload_pipelines, a->reload_stale_draws, a->reload_fallback_draws,
               a->reload_skipped_draws);
      if (a->first_new_generation_frame != 0)
        g_print ("    new generation first drawn at frame %u, %" G_GUINT64_FORMAT
                 " exact draws of it\n", a->first_new_generation_frame, a->reload_exact_draws);
      else
        g_print ("    new generation never drawn\n");
    }
  else
    g_print ("  no hot reload\n");
  if (psc_cache_get_eviction_idle_frames (cache) > 0)
    g_print ("  eviction after %u idle frames: %" G_GUINT64_FORMAT " evicted, %" G_GUINT64_FORMAT
             " compiled again when requested (far-LOD set: %u pipelines)\n",
             psc_cache_get_eviction_idle_frames (cache), psc_stats_get_async (stats, PSC_ASYNC_COUNTER_EVICTIONS),
             a->recompiles_after_eviction, a->far_pipelines);
  else
    g_print ("  no eviction (far-LOD set: %u pipelines)\n", a->far_pipelines);
  g_print ("  retired handles (stale generations, evicted pipelines) destroyed after the GPU "
           "timeline passed them: %" G_GUINT64_FORMAT ", still pending: %" G_GUINT64_FORMAT "\n",
           psc_stats_get_async (stats, PSC_ASYNC_COUNTER_RETIRED), psc_stats_get_async (stats, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING));
  g_print ("  owner-thread wait in the frame loop: %.3f ms (the owner thread never compiles)\n",
           ms (a->loop_owner_wait_ns));
  if (a->converged)
    g_print ("  converged: frame %u drew all %u graphics + %u compute pipelines exactly "
             "(first fully exact frame: %u)\n",
             r->frames, r->graphics_pipelines, r->compute_pipelines, a->first_exact_frame);
  else
    g_print ("  NOT converged: some pipelines were still not Ready at frame %u\n", r->frames);
}

static const char *
prewarm_mode_name (PscDemoPrewarmMode mode)
{
  switch (mode)
    {
    case PSC_DEMO_PREWARM_REQUEST:
      return "request";
    case PSC_DEMO_PREWARM_WAIT:
      return "wait";
    case PSC_DEMO_PREWARM_OFF:
    default:
      return "off";
    }
}

static gboolean
parse_prewarm (const char *name, PscDemoPrewarmMode *mode, GError **error)
{
  if (g_strcmp0 (name, "off") == 0)
    *mode = PSC_DEMO_PREWARM_OFF;
  else if (g_strcmp0 (name, "request") == 0)
    *mode = PSC_DEMO_PREWARM_REQUEST;
  else if (g_strcmp0 (name, "wait") == 0)
    *mode = PSC_DEMO_PREWARM_WAIT;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unknown prewarm mode '%s' (expected off, request or wait)", name);
      return FALSE;
    }
  return TRUE;
}

static void
print_prewarm_report (const PscDemoPrewarmStats *p)
{
  g_print ("\nMaterial prewarm before the first frame (%s): %u draws added, %u duplicates "
           "collapsed, %u requested, %u cut by the budget of %u, %u failed (%.1f ms)\n",
           prewarm_mode_name (p->mode), p->added, p->deduplicated, p->requested, p->cut,
           p->budget, p->failed, ms (p->run_ns));
  for (guint k = 0; k < p->n_cut_listed; k++)
    g_print ("  cut: draw %u, %s\n", p->cut_draws[k], p->cut_names[k]);
  if (p->cut > p->n_cut_listed)
    g_print ("  ... and %u more cut (the frame loop requests them when it draws them)\n",
             p->cut - p->n_cut_listed);
  if (p->failed > 0)
    g_print ("  failed: %u, the first: %s\n", p->failed, p->first_failure);
  if (p->mode == PSC_DEMO_PREWARM_WAIT)
    g_print ("  loading screen: %u cache pumps, %.1f ms, until every request was settled\n",
             p->loading_frames, ms (p->loading_ns));
  g_print ("  Ready when frame 1 began: %u of %u; Ready before their first draw: %u of the "
           "%u prewarmed pipelines drawn; Ready at the end: %u\n",
           p->ready_at_first_frame, p->requested, p->ready_before_first_draw, p->drawn,
           p->ready);
}

/* The prewarm's JSON object (or null). */
static char *
prewarm_json (const PscDemoSceneResult *r)
{
  const PscDemoPrewarmStats *p = &r->async_stats.prewarm;

  if (!r->async || p->mode == PSC_DEMO_PREWARM_OFF)
    return g_strdup ("null");
  return g_strdup_printf ("{\"mode\":\"%s\",\"added\":%u,\"deduplicated\":%u,\"requested\":%u,"
                          "\"cut\":%u,\"budget\":%u,\"failed\":%u,\"ready_at_first_frame\":%u,"
                          "\"drawn\":%u,\"ready_before_first_draw\":%u,\"ready\":%u}",
                          prewarm_mode_name (p->mode), p->added, p->deduplicated, p->requested,
                          p->cut, p->budget, p->failed, p->ready_at_first_frame, p->drawn,
                          p->ready_before_first_draw, p->ready);
}

static void
print_report (PscCache *cache, const PscDemoSceneResult *r)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
  /* The kinds of the library we run against, named by their nicks. */
  g_autoptr(GEnumClass) kinds = g_type_class_ref (PSC_TYPE_OBJECT_KIND);

  g_print ("\nScene: %u graphics + %u compute pipelines, %u shader modules, "
           "%u frames, final image %ux%u\n",
           r->graphics_pipelines, r->compute_pipelines, r->shader_modules,
           r->frames, r->width, r->height);
  g_print ("Frame 1: %.1f ms (CPU + GPU; on lavapipe the first draw of each new "
           "pipeline compiles it)\n", ms (r->first_frame_ns));
  if (r->frames > 1)
    g_print ("Later frames: %.1f ms on average\n", ms (r->later_frames_ns) / (r->frames - 1));

  g_print ("\nWhat the cache did for the scene's calls:\n");
  g_print ("  %-28s %8s %12s %14s\n", "", "calls", "total ms", "per call");
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.1f us\n", "created an object",
           r->created.calls, ms (r->created.ns),
           r->created.calls ? (double) r->created.ns / r->created.calls / 1e3 : 0.0);
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.0f ns\n", "answered from the cache",
           r->hit.calls, ms (r->hit.ns),
           r->hit.calls ? (double) r->hit.ns / r->hit.calls : 0.0);
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.0f ns\n", "  of which pipeline hits",
           r->pipeline_hit.calls, ms (r->pipeline_hit.ns),
           r->pipeline_hit.calls ? (double) r->pipeline_hit.ns / r->pipeline_hit.calls : 0.0);
  g_print ("  objects created after frame 1: %" G_GUINT64_FORMAT "\n",
           r->creations_at_end - r->creations_after_frame_1);

  g_print ("\nCache counters per kind:\n");
  g_print ("  %-22s %8s %8s %8s %9s %12s %10s\n",
           "kind", "entries", "created", "hits", "misses", "create ms", "host KiB");
  for (guint i = 0; i < kinds->n_values; i++)
    {
      PscObjectKind k = (PscObjectKind) kinds->values[i].value;

      g_print ("  %-22s %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT
               " %9" G_GUINT64_FORMAT " %12.3f %10.1f\n",
               kinds->values[i].value_nick,
               psc_stats_get_counter (stats, k, PSC_COUNTER_ENTRIES),
               psc_stats_get_counter (stats, k, PSC_COUNTER_CREATIONS),
               psc_stats_get_counter (stats, k, PSC_COUNTER_HITS),
               psc_stats_get_counter (stats, k, PSC_COUNTER_MISSES),
               ms (psc_stats_get_counter (stats, k, PSC_COUNTER_CREATION_NS)),
               (double) psc_stats_get_counter (stats, k, PSC_COUNTER_HOST_BYTES) / 1024.0);
    }
  g_print ("  capacity failures: %" G_GUINT64_FORMAT ", rejected requests: %" G_GUINT64_FORMAT "\n",
           psc_stats_get_capacity_failures (stats), psc_stats_get_rejected_total (stats));

  g_print ("\nMaterials: %u instances of %u templates, one per draw, drawn through 5 pass "
           "contexts; the last frame's draws sorted: %u opaque (pipeline key, material, front "
           "to back), %u translucent (back to front)\n",
           r->materials, r->material_templates, r->opaque_draws, r->transparent_draws);

  if (r->render_pass_begins > 0 || r->rendering_begins > 0)
    g_print ("\nRecorded %u render-pass begins and %u dynamic-rendering begins; "
             "compatibility passes begun: %u\n",
             r->render_pass_begins, r->rendering_begins, r->violations);
}

/* Renders the scene synchronously with the hot-reloaded shader registered
 * from the start, on a fresh cache, and compares its image with @r's. */
static gboolean
compare_with_sync_render (PscDevice *device, PscBackend backend,
                          const PscDemoSceneOptions *async_options,
                          const PscDemoSceneResult *r, GError **error)
{
  g_autoptr(PscCache) cache = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult ref = { 0 };
  gsize differing = 0;
  guint max_diff = 0;

  cache = psc_cache_new (device, backend, PSC_CACHE_FLAGS_NONE, error);
  if (cache == NULL)
    return FALSE;
  psc_demo_scene_options_init (&options);
  options.width = async_options->width;
  options.height = async_options->height;
  options.frames = 1;
  /* The reload happened unless it was off or after the last frame. */
  options.reloaded = r->async_stats.reload_frame != 0;
  if (!psc_demo_scene_run (cache, &options, &ref, error))
    return FALSE;
  if (ref.width != r->width || ref.height != r->height)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_FAILED, "reference image is %ux%u, not %ux%u",
                   ref.width, ref.height, r->width, r->height);
      psc_demo_scene_result_clear (&ref);
      return FALSE;
    }
  for (gsize i = 0; i < (gsize) r->width * r->height; i++)
    {
      gboolean differs = FALSE;

      for (int c = 0; c < 4; c++)
        {
          guint d = (guint) ABS ((int) r->pixels[i * 4 + c] - (int) ref.pixels[i * 4 + c]);

          differs |= d > 0;
          max_diff = MAX (max_diff, d);
        }
      differing += differs;
    }
  psc_demo_scene_result_clear (&ref);
  g_print ("\nFinal image vs. a synchronous render with %s: %s (%" G_GSIZE_FORMAT
           " of %u pixels differ, largest channel difference %u)\n",
           options.reloaded ? "the reloaded shader" : "the same shaders",
           differing == 0 ? "identical" : "DIFFERENT", differing, r->width * r->height, max_diff);
  if (differing != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_FAILED,
                   "the converged image differs from the synchronous render");
      return FALSE;
    }
  return TRUE;
}

/* --keep-running: a GMainLoop on the owner thread renders a frame from a
 * timeout source until SIGINT or SIGTERM. */
typedef struct {
  PscDemoScene *scene;
  GMainLoop *loop;
  GError *error;
  guint frames;
  int signal;
} KeepRunning;

static gboolean
keep_running_frame (gpointer data)
{
  KeepRunning *k = data;

  if (!psc_demo_scene_render_frame (k->scene, PSC_DEMO_FRAME_NONE, &k->error))
    {
      g_main_loop_quit (k->loop);
      return G_SOURCE_REMOVE;
    }
  k->frames++;
  return G_SOURCE_CONTINUE;
}

static gboolean
keep_running_sigint (gpointer data)
{
  KeepRunning *k = data;

  k->signal = SIGINT;
  g_main_loop_quit (k->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
keep_running_sigterm (gpointer data)
{
  KeepRunning *k = data;

  k->signal = SIGTERM;
  g_main_loop_quit (k->loop);
  return G_SOURCE_CONTINUE;
}

/* The synchronous scene's frames (resizing as psc_demo_scene_run does),
 * then frames every @interval_ms until a signal, then one read-back frame. */
static gboolean
run_keep_running (PscCache *cache, const PscDemoSceneOptions *options, guint interval_ms,
                  PscDemoSceneResult *result, GError **error)
{
  g_autoptr(PscDemoScene) scene = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  KeepRunning k = { 0 };
  guint sources[3];
  const guint8 *pixels;
  guint w = 0, h = 0;

  scene = psc_demo_scene_new (cache, options, error);
  if (scene == NULL)
    return FALSE;
  for (guint f = 1; f <= options->frames; f++)
    {
      if (options->resize_at_frame != 0 && f == options->resize_at_frame &&
          !psc_demo_scene_resize (scene, options->width * 3 / 2, options->height * 3 / 2, error))
        return FALSE;
      if (!psc_demo_scene_render_frame (scene, PSC_DEMO_FRAME_NONE, error))
        return FALSE;
    }

  loop = g_main_loop_new (NULL, FALSE);
  k.scene = scene;
  k.loop = loop;
  sources[0] = g_unix_signal_add (SIGINT, keep_running_sigint, &k);
  sources[1] = g_unix_signal_add (SIGTERM, keep_running_sigterm, &k);
  sources[2] = g_timeout_add (interval_ms, keep_running_frame, &k);
  g_print ("Rendering a frame every %u ms until SIGINT or SIGTERM (pid %d)\n", interval_ms,
           (int) getpid ());
  fflush (stdout);
  g_main_loop_run (loop);
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);
  if (k.error != NULL)
    {
      g_propagate_error (error, k.error);
      return FALSE;
    }
  g_print ("\n%s: stopping after %u more frames\n", k.signal == SIGINT ? "SIGINT" : "SIGTERM",
           k.frames);

  /* The final image. */
  if (!psc_demo_scene_render_frame (scene, PSC_DEMO_FRAME_READ_BACK, error))
    return FALSE;
  psc_demo_scene_get_result (scene, result);
  pixels = psc_demo_scene_get_pixels (scene, &w, &h);
  result->pixels = g_memdup2 (pixels, (gsize) w * h * 4);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *backend_arg = NULL;
  g_autofree char *output = NULL;
  g_autofree char *dbus_arg = NULL;
  g_autofree char *dbus_json = NULL;
  g_autofree char *prewarm_arg = NULL;
  g_autofree char *material_json = NULL;
  int frames = 0, width = 320, height = 240, interval = 16;
  int workers = 0, reload_at = 0, far_interval = 8, evict_idle = 4, converge_max = 2000;
  int prewarm_budget = 0;
  gboolean validate = FALSE, pass_through = FALSE, prepared = FALSE;
  gboolean async = FALSE, no_fallbacks = FALSE, no_reload = FALSE;
  gboolean no_persist = FALSE, json = FALSE, keep_running = FALSE;
  GOptionEntry entries[] = {
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_arg,
      "Rendering backend: auto, dynamic or legacy (default: auto)", "BACKEND" },
    { "frames", 'n', 0, G_OPTION_ARG_INT, &frames,
      "Frames to render (default: 6, or 24 with --async); without --async the targets "
      "are resized at the middle frame", "N" },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, "Initial target width (default: 320)", "PIXELS" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, "Initial target height (default: 240)", "PIXELS" },
    { "validate", 0, 0, G_OPTION_ARG_NONE, &validate,
      "Enable VK_LAYER_KHRONOS_validation; exit with an error if it reports any", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the final image to FILE (binary PPM)", "FILE" },
    { "pass-through", 0, 0, G_OPTION_ARG_NONE, &pass_through,
      "Cache off: every request creates a new object (for comparison)", NULL },
    { "prepared", 0, 0, G_OPTION_ARG_NONE, &prepared,
      "Request pipelines through prepared key ids instead of create infos", NULL },
    { "async", 'a', 0, G_OPTION_ARG_NONE, &async,
      "Asynchronous mode: compile on worker threads, draw fallbacks meanwhile, "
      "hot-reload a shader, evict idle pipelines (no resize)", NULL },
    { "workers", 'w', 0, G_OPTION_ARG_INT, &workers,
      "--async: compile worker threads (default: 0, the cores minus one)", "N" },
    { "reload-at", 0, 0, G_OPTION_ARG_INT, &reload_at,
      "--async: hot-reload fs_lit before frame N (default: 0, the middle frame)", "N" },
    { "no-reload", 0, 0, G_OPTION_ARG_NONE, &no_reload,
      "--async: no hot reload", NULL },
    { "far-interval", 0, 0, G_OPTION_ARG_INT, &far_interval,
      "--async: request the far-LOD pipelines every Nth frame only (default: 8; 1: every frame)", "N" },
    { "evict-idle", 0, 0, G_OPTION_ARG_INT, &evict_idle,
      "--async: evict pipelines idle for more than N frames (default: 4; 0: no eviction)", "N" },
    { "no-fallbacks", 0, 0, G_OPTION_ARG_NONE, &no_fallbacks,
      "--async: register no fallbacks: draws are skipped until their pipeline is Ready", NULL },
    { "converge-max", 0, 0, G_OPTION_ARG_INT, &converge_max,
      "--async: at most N extra frames waiting for every pipeline to be Ready (default: 2000)", "N" },
    { "prewarm", 0, 0, G_OPTION_ARG_STRING, &prewarm_arg,
      "--async: the material prewarm before the first frame: off, request (request every "
      "draw's pipeline, then render at once) or wait (request, then wait until they are "
      "settled, like a loading screen) (default: request)", "MODE" },
    { "prewarm-budget", 0, 0, G_OPTION_ARG_INT, &prewarm_budget,
      "--async: the most pipelines the material prewarm requests; the rest are cut and "
      "reported (default: 256)", "N" },
    { "no-persist", 0, 0, G_OPTION_ARG_NONE, &no_persist,
      "Persistence off: no application id, nothing read or written under $XDG_CACHE_HOME", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "End the output with one JSON line (persistence, pipelines, time to the first frame, "
      "frames, D-Bus export)", NULL },
    { "keep-running", 'k', 0, G_OPTION_ARG_NONE, &keep_running,
      "After --frames frames, keep rendering until SIGINT or SIGTERM, then close "
      "(saving the cache) and report (not with --async)", NULL },
    { "interval", 0, 0, G_OPTION_ARG_INT, &interval,
      "--keep-running: milliseconds between frames (default: 16; 0: back to back)", "MS" },
    { "dbus", 0, 0, G_OPTION_ARG_STRING, &dbus_arg,
      "Export the cache on the session bus: off, read-only or control (default: control "
      "when a session bus exists, else off)", "MODE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  g_autoptr(PscCache) cache = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult result = { 0 };
  PscBackend backend = PSC_BACKEND_AUTO;
  PscDeviceFlags device_flags = PSC_DEVICE_FLAGS_NONE;
  PscDemoDBusMode dbus_mode = PSC_DEMO_DBUS_DEFAULT;
  PscDemoPrewarmMode prewarm_mode = PSC_DEMO_PREWARM_REQUEST;
  PscDemoExport export = { 0 };
  guint validation_errors = 0;
  guint result_pipelines = 0, result_frames = 0;
  g_autoptr(PscStats) final_stats = NULL;
  double first_frame_ms = 0;
  gboolean failed = FALSE;

  setlocale (LC_ALL, "");
  /* Lines reach a pipe as they are printed (the bus name, for a script). */
  setvbuf (stdout, NULL, _IOLBF, 0);

  context = g_option_context_new ("- render a scene through libpsocache");
  g_option_context_set_summary (context,
    "Brings up a headless Vulkan device (Mesa lavapipe unless VK_DRIVER_FILES or\n"
    "VK_ICD_FILENAMES selects another driver), renders a scene of more than 100\n"
    "pipelines offscreen through a PscCache for several frames, resizing its\n"
    "targets once, and prints what the cache did.\n"
    "\n"
    "With --async, the owner thread never compiles in the frame loop: every\n"
    "pipeline is requested each frame with the fallback policy and compiles on\n"
    "the cache's workers; a draw uses its Ready pipeline, the fallback\n"
    "registered for its layout and pass (5 generic pipelines created before the\n"
    "loop), or, after the hot reload of fs_lit (a tinted variant), the previous\n"
    "generation. A far-LOD set is drawn only every --far-interval frames, so its\n"
    "pipelines are evicted and compile again. After --frames frames every LOD is\n"
    "drawn until all pipelines are Ready; the demo prints a per-frame table and\n"
    "a summary, and checks that the final image equals a synchronous render with\n"
    "the reloaded shader.\n"
    "\n"
    "The cache is exported on the session bus as io.github.psocache.Cache1 (bus\n"
    "name io.github.psocache.Cache1.io.github.psocache.Demo.pid<PID>) unless\n"
    "--dbus=off or there is no session bus; with --keep-running it stays there\n"
    "for busctl --user, gdbus or psocachectl until SIGINT or SIGTERM. Exit\n"
    "status: 0 success, 1 failure, 2 bad usage.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      (backend_arg != NULL && !parse_backend (backend_arg, &backend, &error)) ||
      (dbus_arg != NULL && !psc_demo_dbus_parse_mode (dbus_arg, &dbus_mode, &error)) ||
      (prewarm_arg != NULL && !parse_prewarm (prewarm_arg, &prewarm_mode, &error)))
    {
      g_printerr ("psocache-demo: %s\n", error->message);
      return 2;
    }
  if (frames == 0)
    frames = async ? 24 : 6;
  if (frames < 1 || width < 16 || height < 16 || width > 8192 || height > 8192)
    {
      g_printerr ("psocache-demo: --frames must be at least 1 and the size between 16 and 8192\n");
      return 2;
    }
  if (workers < 0 || reload_at < 0 || far_interval < 0 || evict_idle < 0 || converge_max < 1)
    {
      g_printerr ("psocache-demo: --workers, --reload-at, --far-interval and --evict-idle "
                  "must not be negative, --converge-max must be at least 1\n");
      return 2;
    }
  if ((prewarm_arg != NULL || prewarm_budget != 0) && !async)
    {
      g_printerr ("psocache-demo: --prewarm and --prewarm-budget need --async\n");
      return 2;
    }
  if (prewarm_budget < 0)
    {
      g_printerr ("psocache-demo: --prewarm-budget must not be negative\n");
      return 2;
    }
  if (interval < 0 || interval > 60000)
    {
      g_printerr ("psocache-demo: --interval must be between 0 and 60000\n");
      return 2;
    }
  if (keep_running && async)
    {
      g_printerr ("psocache-demo: --keep-running renders the synchronous scene; it cannot be "
                  "combined with --async\n");
      return 2;
    }
  if (async && pass_through)
    {
      g_printerr ("psocache-demo: --async cannot be combined with --pass-through "
                  "(the cache off creates every pipeline synchronously)\n");
      return 2;
    }

  if (g_getenv ("VK_DRIVER_FILES") == NULL && g_getenv ("VK_ICD_FILENAMES") == NULL &&
      g_file_test (LAVAPIPE_ICD, G_FILE_TEST_EXISTS))
    g_setenv ("VK_DRIVER_FILES", LAVAPIPE_ICD, TRUE);

  psc_demo_keep_driver_resident ();
  if (validate)
    device_flags |= PSC_DEVICE_FLAGS_VALIDATION;
  if (backend == PSC_BACKEND_LEGACY)
    device_flags |= PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING;

  device = psc_device_new_headless (device_flags, &error);
  if (device == NULL)
    {
      g_printerr ("psocache-demo: cannot create a Vulkan device: %s\n", error->message);
      return 1;
    }
  {
    PscCacheOptions cache_options = PSC_CACHE_OPTIONS_INIT;

    cache_options.workers = (guint) workers;
    cache_options.application_id = no_persist ? NULL : PSC_DEMO_APPLICATION_ID;
    cache = psc_cache_new_full (device, backend,
                                pass_through ? PSC_CACHE_FLAGS_PASS_THROUGH : PSC_CACHE_FLAGS_NONE,
                                &cache_options, &error);
  }
  if (cache == NULL)
    {
      g_printerr ("psocache-demo: cannot create the cache: %s\n", error->message);
      return 1;
    }

  psc_demo_scene_options_init (&options);
  options.width = (guint) width;
  options.height = (guint) height;
  options.frames = (guint) frames;
  options.resize_at_frame = frames >= 2 && !async ? (guint) frames / 2 + 1 : 0;
  options.prepared = prepared;
  options.async = async;
  options.no_fallbacks = no_fallbacks;
  options.reload_at_frame = no_reload ? G_MAXUINT
                            : reload_at != 0 ? (guint) reload_at : (guint) frames / 2 + 1;
  options.far_lod_interval = (guint) far_interval;
  options.eviction_idle_frames = (guint) evict_idle;
  options.converge_max_frames = (guint) converge_max;
  options.prewarm = async ? prewarm_mode : PSC_DEMO_PREWARM_OFF;
  options.prewarm_budget = (guint) prewarm_budget;

  g_print ("psocache-demo: %s, %s backend%s%s\n",
           psc_device_get_name (device),
           backend_name (psc_cache_get_backend (cache) == PSC_BACKEND_AUTO
                         ? (psc_device_get_dynamic_rendering (device)
                            ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY)
                         : psc_cache_get_backend (cache)),
           pass_through ? ", pass-through (cache off)" : "",
           validate ? ", validation on" : "");
  if (async)
    {
      g_autofree char *workers_text = workers > 0 ? g_strdup_printf ("%d worker%s", workers,
                                                                     workers == 1 ? "" : "s")
                                                  : g_strdup ("default workers (cores - 1)");
      g_autofree char *reload_text = no_reload || options.reload_at_frame > (guint) frames
        ? g_strdup ("no hot reload")
        : g_strdup_printf ("hot reload of %s before frame %u",
                           psc_demo_shader_name (PSC_DEMO_RELOAD_SHADER), options.reload_at_frame);
      g_autofree char *evict_text = evict_idle > 0
        ? g_strdup_printf ("eviction after %d idle frames", evict_idle)
        : g_strdup ("no eviction");

      g_print ("Async mode: %d frame%s at %dx%d, %s, %s,\n"
               "  far-LOD pipelines every %d frames, %s, %s;\n"
               "  then every LOD until every draw is exact\n",
               frames, frames == 1 ? "" : "s", width, height, workers_text, reload_text,
               MAX (far_interval, 1), evict_text,
               no_fallbacks ? "no fallbacks (pending draws are skipped)" : "fallbacks on");
    }
  else if (options.resize_at_frame != 0)
    g_print ("Rendering %d frames at %dx%d, resizing to %ux%u at frame %u\n",
             frames, width, height, (guint) width * 3 / 2, (guint) height * 3 / 2,
             options.resize_at_frame);
  else
    g_print ("Rendering %d frame at %dx%d\n", frames, width, height);

  if (!psc_demo_export_start (&export, cache, dbus_mode, &error))
    {
      g_printerr ("psocache-demo: %s\n", error->message);
      return 1;
    }
  {
    double prewarm_ms = psc_demo_prewarm (cache);
    if (prewarm_ms > 0)
      g_print ("Prewarm from recipes before the first frame: %.1f ms\n", prewarm_ms);
  }
  if (keep_running ? !run_keep_running (cache, &options, (guint) interval, &result, &error)
                   : !psc_demo_scene_run (cache, &options, &result, &error))
    {
      g_printerr ("psocache-demo: %s\n", error->message);
      psc_demo_export_clear (&export);
      return 1;
    }

  if (async)
    {
      if (options.prewarm != PSC_DEMO_PREWARM_OFF)
        print_prewarm_report (&result.async_stats.prewarm);
      print_async_report (cache, &result, (guint) frames);
    }
  print_report (cache, &result);
  {
    g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
    psc_demo_print_persistence (cache, stats);
  }

  if (async)
    {
      if (!result.async_stats.converged)
        failed = TRUE;
      else if (!compare_with_sync_render (device, backend, &options, &result, &error))
        {
          g_printerr ("psocache-demo: %s\n", error->message);
          g_clear_error (&error);
          failed = TRUE;
        }
    }

  if (output != NULL)
    {
      if (!psc_demo_write_ppm (output, result.pixels, result.width, result.height, &error))
        {
          g_printerr ("psocache-demo: %s\n", error->message);
          psc_demo_scene_result_clear (&result);
          return 1;
        }
      g_print ("\nWrote %s\n", output);
    }
  result_pipelines = result.graphics_pipelines + result.compute_pipelines;
  result_frames = result.frames;
  first_frame_ms = ms (result.first_frame_ns);
  material_json = prewarm_json (&result);
  psc_demo_scene_result_clear (&result);

  /* The export goes first (its bus name is released), then the cache
   * closes (and saves). */
  if (export.mode != PSC_DEMO_DBUS_OFF)
    g_print ("D-Bus: %s released\n", export.bus_name);
  psc_demo_export_stop (&export);
  dbus_json = psc_demo_export_to_json (&export);
  psc_demo_export_clear (&export);
  /* The scene waited for the device before it went away: nothing the cache
   * owns is in use, so the cache may destroy everything. */
  psc_cache_close (cache, 0);
  final_stats = psc_cache_get_stats (cache);
  g_clear_object (&cache);

  validation_errors = psc_device_get_validation_error_count (device);
  if (validate)
    g_print ("Validation errors: %u\n", validation_errors);
  /* The JSON line is the last line of the output. */
  if (json)
    psc_demo_print_json (final_stats, result_pipelines, first_frame_ms, result_frames, dbus_json,
                         material_json);
  if (validate && validation_errors > 0)
    return 1;
  return failed ? 1 : 0;
}
