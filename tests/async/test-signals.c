/* test-signals.c: PscCache's signals and counter notifications on lavapipe
 * with the validation layer: pipeline-ready and pipeline-failed for
 * asynchronous compiles (with the key hash of the request), shader-reloaded
 * and evicted queued until the next begin_frame, the bound of a frame's
 * events, handlers that call back into the cache (requests, eviction,
 * close, the last reference, a nested begin_frame), and notify for counter
 * properties from begin_frame only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"
#include "psc-test-hooks.h"

#include <string.h>

typedef struct {
  PscTestHarness *h;
  PscCache *cache;
  PscTestObjects o;
  guint64 frame;
} Fixture;

static PscCache *
make_cache (PscTestHarness *h, guint32 fail_compiles, gboolean owned_by_harness)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  options.workers = 2;
  /* Every finished compile is published by the next frame. */
  options.publish_budget_us = G_MAXUINT;
  PscCoreTestHooks hooks = {
    .fail_compiles = fail_compiles,
    .fail_result = VK_ERROR_OUT_OF_DEVICE_MEMORY,
  };
  PscCache *cache = psc_cache_new_with_hooks (h->psc_device, PSC_BACKEND_AUTO,
                                              PSC_CACHE_FLAGS_NONE, &options, &hooks, &error);
  g_assert_no_error (error);
  if (owned_by_harness)
    g_ptr_array_add (h->caches, cache);
  return cache;
}

static void
fixture_init_failing (Fixture *f, guint32 fail_compiles)
{
  f->h = psc_test_harness_new (TRUE);
  f->cache = make_cache (f->h, fail_compiles, TRUE);
  psc_test_objects_init (&f->o, f->cache);
  f->frame = 1;
  psc_cache_begin_frame (f->cache, f->frame, 0);
}

static void
fixture_init (Fixture *f)
{
  fixture_init_failing (f, 0);
}

static void
fixture_finish (Fixture *f)
{
  psc_test_harness_finish (f->h);
}

/* The GPU is idle in these tests: everything before this frame is done. */
static void
next_frame (Fixture *f)
{
  f->frame++;
  psc_cache_begin_frame (f->cache, f->frame, f->frame - 1);
}

static guint64
async_count (PscCache *cache, PscAsyncCounter counter)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_async (s, counter);
}

static gboolean
async_idle (PscCache *cache)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_async (s, PSC_ASYNC_COUNTER_QUEUED) == 0 &&
         psc_stats_get_async (s, PSC_ASYNC_COUNTER_IN_FLIGHT) == 0 &&
         psc_stats_get_async (s, PSC_ASYNC_COUNTER_UNPUBLISHED) == 0;
}

/* Frames until every job is published (at most ~20 s). */
static void
pump_idle (Fixture *f)
{
  for (int i = 0; i < 20000; i++)
    {
      next_frame (f);
      if (async_idle (f->cache))
        {
          next_frame (f);
          return;
        }
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

/* Waits (without a pump) until the workers finished every queued job, so
 * that the next begin_frame publishes them all at once. */
static void
wait_compiled (PscCache *cache, guint64 unpublished)
{
  for (int i = 0; i < 20000 && async_count (cache, PSC_ASYNC_COUNTER_UNPUBLISHED) < unpublished; i++)
    g_usleep (1000);
  g_assert_cmpuint (async_count (cache, PSC_ASYNC_COUNTER_UNPUBLISHED), ==, unpublished);
}

static void
compute_info (Fixture *f, VkComputePipelineCreateInfo *ci, VkSpecializationInfo *spec,
              VkSpecializationMapEntry *entry, float *value, float v)
{
  psc_test_compute_info_init (ci, spec, entry, value, &f->o);
  *value = v;
}

static guint64
compute_hash (PscCache *cache, const VkComputePipelineCreateInfo *ci)
{
  g_autoptr(GError) error = NULL;
  guint64 hash = 0;
  g_assert_true (psc_cache_get_compute_key_hash (cache, ci, &hash, &error));
  g_assert_no_error (error);
  return hash;
}

typedef struct {
  gint calls;
  VkPipeline pipeline;
  VkResult result;
} Waiter;

static void
waiter_cb (void *context, VkPipeline pipeline, VkResult result)
{
  Waiter *w = context;
  w->calls++;
  w->pipeline = pipeline;
  w->result = result;
}

/* What the signal handlers saw. */
#define MAX_SEEN 2048
typedef struct {
  PscCache *cache;
  GThread *thread;            /* where the last handler ran */
  guint ready, failed, reloaded, evicted_calls, evicted_total;
  guint64 ready_pipeline[MAX_SEEN], ready_hash[MAX_SEEN];
  guint64 failed_hash;
  GError *failed_error;
  guint reloaded_id[MAX_SEEN], reloaded_gen[MAX_SEEN];
  Waiter *waiter;             /* a request's callback, checked from pipeline-ready */
  gint waiter_calls_seen;
} Seen;

static void
on_ready (PscCache *cache, guint64 pipeline, guint64 key_hash, Seen *s)
{
  g_assert_true (cache == s->cache);
  s->thread = g_thread_self ();
  g_assert_cmpuint (s->ready, <, MAX_SEEN);
  s->ready_pipeline[s->ready] = pipeline;
  s->ready_hash[s->ready] = key_hash;
  s->ready++;
  if (s->waiter != NULL)
    s->waiter_calls_seen = s->waiter->calls;
}

static void
on_failed (PscCache *cache, guint64 key_hash, const GError *error, Seen *s)
{
  s->thread = g_thread_self ();
  s->failed++;
  s->failed_hash = key_hash;
  g_clear_error (&s->failed_error);
  s->failed_error = g_error_copy (error);
}

static void
on_reloaded (PscCache *cache, guint shader_id, guint generation, Seen *s)
{
  s->thread = g_thread_self ();
  g_assert_cmpuint (s->reloaded, <, MAX_SEEN);
  s->reloaded_id[s->reloaded] = shader_id;
  s->reloaded_gen[s->reloaded] = generation;
  s->reloaded++;
}

static void
on_evicted (PscCache *cache, guint count, Seen *s)
{
  s->thread = g_thread_self ();
  g_assert_cmpuint (count, >, 0);
  s->evicted_calls++;
  s->evicted_total += count;
}

static void
connect_all (PscCache *cache, Seen *s)
{
  s->cache = cache;
  g_signal_connect (cache, "pipeline-ready", G_CALLBACK (on_ready), s);
  g_signal_connect (cache, "pipeline-failed", G_CALLBACK (on_failed), s);
  g_signal_connect (cache, "shader-reloaded", G_CALLBACK (on_reloaded), s);
  g_signal_connect (cache, "evicted", G_CALLBACK (on_evicted), s);
}

static void
seen_clear (Seen *s)
{
  g_clear_error (&s->failed_error);
}

/* ------------------------------------------------------------------------ */

/* Asynchronous compiles announce their pipelines from begin_frame, on the
 * owner thread, after the requests' own callbacks, with the request's key
 * hash; synchronous creations are not announced. */
static void
test_pipeline_ready (void)
{
  Fixture f;
  Seen s = { 0 };
  Waiter w[3] = { { 0 } };
  VkComputePipelineCreateInfo ci[3];
  VkSpecializationInfo spec[3];
  VkSpecializationMapEntry entry[3];
  float value[3];
  guint64 hash[3];

  fixture_init (&f);
  connect_all (f.cache, &s);
  for (int i = 0; i < 3; i++)
    {
      compute_info (&f, &ci[i], &spec[i], &entry[i], &value[i], 10.0f + i);
      hash[i] = compute_hash (f.cache, &ci[i]);
      g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci[i], PSC_MISS_POLICY_SKIP, 0,
                                                         waiter_cb, &w[i], NULL, NULL) == VK_NULL_HANDLE);
    }
  /* Distinct keys, distinct hashes; the same key, the same hash. */
  g_assert_cmpuint (hash[0], !=, hash[1]);
  g_assert_cmpuint (hash[1], !=, hash[2]);
  g_assert_cmpuint (compute_hash (f.cache, &ci[0]), ==, hash[0]);

  /* Compiled, not yet published: nothing is announced outside
   * begin_frame. */
  wait_compiled (f.cache, 3);
  g_assert_cmpuint (s.ready, ==, 0);
  s.waiter = &w[0];
  pump_idle (&f);
  g_assert_cmpuint (s.ready, ==, 3);
  g_assert_true (s.thread == g_thread_self ());
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_COMPLETED), ==, 3);
  for (int i = 0; i < 3; i++)
    {
      guint j;
      for (j = 0; j < 3 && s.ready_hash[j] != hash[i]; j++)
        ;
      g_assert_cmpuint (j, <, 3);
      g_assert_cmpint (w[i].calls, ==, 1);
      g_assert_true ((guint64) w[i].pipeline == s.ready_pipeline[j]);
      /* The announced handle is the cache's pipeline for that request. */
      g_assert_true ((guint64) psc_cache_get_compute_pipeline (f.cache, &ci[i], NULL) ==
                     s.ready_pipeline[j]);
    }
  /* The pump (and its callbacks) had finished when the signal ran. */
  g_assert_cmpint (s.waiter_calls_seen, ==, 1);

  /* A synchronous creation is not announced. */
  VkComputePipelineCreateInfo sync;
  VkSpecializationInfo sync_spec;
  VkSpecializationMapEntry sync_entry;
  float sync_value;
  compute_info (&f, &sync, &sync_spec, &sync_entry, &sync_value, 99.0f);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &sync, NULL) != VK_NULL_HANDLE);
  next_frame (&f);
  next_frame (&f);
  g_assert_cmpuint (s.ready, ==, 3);
  g_assert_cmpuint (s.failed + s.reloaded + s.evicted_calls, ==, 0);
  seen_clear (&s);
  fixture_finish (&f);
}

/* A failed asynchronous compile: the key hash and the error a request for
 * that key gets. */
static void
test_pipeline_failed (void)
{
  Fixture f;
  Seen s = { 0 };
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  g_autoptr(GError) error = NULL;

  fixture_init_failing (&f, 1);
  connect_all (f.cache, &s);
  compute_info (&f, &ci, &spec, &entry, &value, 20.0f);
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     NULL, NULL, NULL, NULL) == VK_NULL_HANDLE);
  wait_compiled (f.cache, 1);
  g_assert_cmpuint (s.failed, ==, 0);
  pump_idle (&f);
  g_assert_cmpuint (s.failed, ==, 1);
  g_assert_cmpuint (s.ready, ==, 0);
  g_assert_true (s.thread == g_thread_self ());
  g_assert_cmpuint (s.failed_hash, ==, compute_hash (f.cache, &ci));
  g_assert_error (s.failed_error, PSC_ERROR, PSC_ERROR_VULKAN);
  g_assert_nonnull (strstr (s.failed_error->message, "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  g_assert_nonnull (strstr (s.failed_error->message, "vkCreateComputePipelines"));
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_FAILED), ==, 1);
  /* The same failure as a request for the key reports. */
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_VULKAN);
  g_assert_nonnull (strstr (error->message, "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  /* Failing synchronously is no signal. */
  next_frame (&f);
  g_assert_cmpuint (s.failed, ==, 1);
  seen_clear (&s);
  fixture_finish (&f);
}

/* Reloads are queued: announced by the next begin_frame, in order, one
 * emission each, with the new generation. */
static void
test_shader_reloaded (void)
{
  Fixture f;
  Seen s = { 0 };
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GBytes) bytes = g_bytes_new_static (code, size);
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  connect_all (f.cache, &s);
  const guint id = psc_cache_get_shader_id (f.cache, f.o.cs);
  g_assert_cmpuint (id, >, 0);
  g_assert_true (psc_cache_replace_shader_bytes (f.cache, id, bytes, &error));
  g_assert_no_error (error);
  VkShaderModule cs = psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  g_assert_true (cs != VK_NULL_HANDLE);
  g_assert_cmpuint (s.reloaded, ==, 0);
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 2);
  g_assert_true (s.thread == g_thread_self ());
  g_assert_cmpuint (s.reloaded_id[0], ==, id);
  g_assert_cmpuint (s.reloaded_gen[0], ==, 1);
  g_assert_cmpuint (s.reloaded_id[1], ==, id);
  g_assert_cmpuint (s.reloaded_gen[1], ==, 2);
  /* Emitted once. */
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 2);
  /* A refused reload is none. */
  g_assert_false (psc_cache_replace_shader_bytes (f.cache, id + 1000, bytes, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 2);
  seen_clear (&s);
  fixture_finish (&f);
}

/* Evictions are counted per frame: psc_cache_evict's are announced by the
 * next begin_frame (two passes, one emission), automatic ones by the frame
 * that made them. */
static void
test_evicted (void)
{
  Fixture f;
  Seen s = { 0 };
  VkComputePipelineCreateInfo ci[3];
  VkSpecializationInfo spec[3];
  VkSpecializationMapEntry entry[3];
  float value[3];

  fixture_init (&f);
  connect_all (f.cache, &s);
  for (int i = 0; i < 3; i++)
    compute_info (&f, &ci[i], &spec[i], &entry[i], &value[i], 30.0f + i);
  const guint64 first = f.frame;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci[0], NULL) != VK_NULL_HANDLE);
  for (int i = 0; i < 5; i++)
    next_frame (&f);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci[1], NULL) != VK_NULL_HANDLE);
  while (f.frame < first + 10)
    next_frame (&f);
  /* Nothing idle enough: no eviction, no signal. */
  g_assert_cmpuint (psc_cache_evict (f.cache, 1000), ==, 0);
  next_frame (&f);
  g_assert_cmpuint (s.evicted_calls, ==, 0);

  /* ci[0] idle for 11 frames, ci[1] for 6: two passes, one each. */
  g_assert_cmpuint (psc_cache_evict (f.cache, 8), ==, 1);
  g_assert_cmpuint (psc_cache_evict (f.cache, 4), ==, 1);
  g_assert_cmpuint (s.evicted_calls, ==, 0);
  next_frame (&f);
  g_assert_cmpuint (s.evicted_calls, ==, 1);
  g_assert_cmpuint (s.evicted_total, ==, 2);
  g_assert_true (s.thread == g_thread_self ());
  next_frame (&f);
  g_assert_cmpuint (s.evicted_calls, ==, 1);

  /* Automatic eviction: announced by the frame whose pump evicted. */
  psc_cache_set_eviction_idle_frames (f.cache, 5);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci[2], NULL) != VK_NULL_HANDLE);
  for (int i = 0; i < 20 && s.evicted_calls < 2; i++)
    {
      next_frame (&f);
      g_assert_cmpuint (s.evicted_total, ==, async_count (f.cache, PSC_ASYNC_COUNTER_EVICTIONS));
    }
  g_assert_cmpuint (s.evicted_calls, ==, 2);
  g_assert_cmpuint (s.evicted_total, ==, 3);
  g_assert_cmpuint (s.ready + s.failed + s.reloaded, ==, 0);
  seen_clear (&s);
  fixture_finish (&f);
}

/* Events of a frame nobody listened to are not kept for a later handler. */
static void
test_no_handler_no_backlog (void)
{
  Fixture f;
  Seen s = { 0 };
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GBytes) bytes = g_bytes_new_static (code, size);

  fixture_init (&f);
  const guint id = psc_cache_get_shader_id (f.cache, f.o.cs);
  g_assert_true (psc_cache_replace_shader_bytes (f.cache, id, bytes, NULL));
  next_frame (&f);
  connect_all (f.cache, &s);
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 0);
  g_assert_true (psc_cache_replace_shader_bytes (f.cache, id, bytes, NULL));
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 1);
  g_assert_cmpuint (s.reloaded_gen[0], ==, 2);
  seen_clear (&s);
  fixture_finish (&f);
}

static void
on_notify_dropped (GObject *object, GParamSpec *pspec, guint *calls)
{
  (*calls)++;
}

/* More events in one frame than the bound: the first 1,024 are emitted,
 * the rest counted in signals-dropped (notified). */
static void
test_bound (void)
{
  Fixture f;
  Seen s = { 0 };
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GBytes) bytes = g_bytes_new_static (code, size);
  guint64 dropped = 1;
  guint notified = 0;
  const guint n = 1024 + 76;

  fixture_init (&f);
  connect_all (f.cache, &s);
  g_signal_connect (f.cache, "notify::signals-dropped", G_CALLBACK (on_notify_dropped), &notified);
  const guint id = psc_cache_get_shader_id (f.cache, f.o.cs);
  for (guint i = 0; i < n; i++)
    g_assert_true (psc_cache_replace_shader_bytes (f.cache, id, bytes, NULL));
  g_object_get (f.cache, "signals-dropped", &dropped, NULL);
  g_assert_cmpuint (dropped, ==, 76);   /* counted at once, notified by the frame */
  g_assert_cmpuint (notified, ==, 0);
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 1024);
  for (guint i = 0; i < 1024; i++)
    g_assert_cmpuint (s.reloaded_gen[i], ==, i + 1);
  g_assert_cmpuint (notified, ==, 1);
  /* The next frame starts empty. */
  g_assert_true (psc_cache_replace_shader_bytes (f.cache, id, bytes, NULL));
  next_frame (&f);
  g_assert_cmpuint (s.reloaded, ==, 1025);
  g_assert_cmpuint (s.reloaded_gen[1024], ==, n + 1);
  g_object_get (f.cache, "signals-dropped", &dropped, NULL);
  g_assert_cmpuint (dropped, ==, 76);
  g_assert_cmpuint (notified, ==, 1);
  seen_clear (&s);
  fixture_finish (&f);
}

/* Handlers that call back into the cache. */
typedef struct {
  Fixture *f;
  PscCache *cache;
  gint calls;
  gboolean request, evict, close, drop, nested;
  VkComputePipelineCreateInfo *next_ci;
  Waiter next_waiter;
} Reenter;

static void
on_ready_reenter (PscCache *cache, guint64 pipeline, guint64 key_hash, Reenter *r)
{
  g_autoptr(GError) error = NULL;

  r->calls++;
  if (r->request && r->calls == 1)
    {
      /* A new asynchronous request: compiled later, announced by a later
       * frame. */
      g_assert_true (psc_cache_request_compute_pipeline (cache, r->next_ci, PSC_MISS_POLICY_SKIP, 0,
                                                         waiter_cb, &r->next_waiter, NULL,
                                                         &error) == VK_NULL_HANDLE);
      g_assert_no_error (error);
      /* And a synchronous one for the announced key: a hit. */
    }
  if (r->evict)
    psc_cache_evict (cache, 0);
  if (r->nested)
    {
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*callback that psc_cache_begin_frame*");
      psc_cache_begin_frame (cache, 1000000, 0);
      g_test_assert_expected_messages ();
    }
  if (r->close && r->calls == 1)
    psc_cache_close (cache, 0);
  if (r->close && r->calls == 2)
    {
      /* The close waits for begin_frame to return: the second pipeline of
       * the frame is announced alive, and the cache still answers. */
      g_assert_cmpuint (psc_cache_get_shader_id (cache, r->f->o.cs), >, 0);
    }
  if (r->drop && r->calls == 1)
    g_object_unref (cache);
}

static void
test_reentrant_request_and_evict (void)
{
  Fixture f;
  Reenter r = { .f = &f, .request = TRUE, .evict = TRUE, .nested = TRUE };
  VkComputePipelineCreateInfo ci, next;
  VkSpecializationInfo spec, next_spec;
  VkSpecializationMapEntry entry, next_entry;
  float value, next_value;
  Seen s = { 0 };

  fixture_init (&f);
  connect_all (f.cache, &s);
  g_signal_connect (f.cache, "pipeline-ready", G_CALLBACK (on_ready_reenter), &r);
  compute_info (&f, &ci, &spec, &entry, &value, 50.0f);
  compute_info (&f, &next, &next_spec, &next_entry, &next_value, 51.0f);
  r.next_ci = &next;
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, NULL, NULL, NULL, NULL);
  pump_idle (&f);
  /* The request made by the handler compiled and was announced too. */
  g_assert_cmpint (r.calls, ==, 2);
  g_assert_cmpuint (s.ready, ==, 2);
  g_assert_cmpint (r.next_waiter.calls, ==, 1);
  g_assert_cmpuint (s.ready_hash[1], ==, compute_hash (f.cache, &next));
  g_assert_true ((guint64) r.next_waiter.pipeline == s.ready_pipeline[1]);
  /* The nested begin_frame was ignored: the frame is the test's. */
  g_autoptr(PscStats) st = psc_cache_get_stats (f.cache);
  g_assert_cmpuint (psc_stats_get_frame (st), ==, f.frame);
  seen_clear (&s);
  fixture_finish (&f);
}

/* A handler closes the cache while two pipelines are announced in one
 * frame: both are announced, the cache closes when begin_frame returns. */
static void
test_reentrant_close (void)
{
  Fixture f;
  Reenter r = { .f = &f, .close = TRUE };
  VkComputePipelineCreateInfo ci[2];
  VkSpecializationInfo spec[2];
  VkSpecializationMapEntry entry[2];
  float value[2];
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  g_signal_connect (f.cache, "pipeline-ready", G_CALLBACK (on_ready_reenter), &r);
  for (int i = 0; i < 2; i++)
    {
      compute_info (&f, &ci[i], &spec[i], &entry[i], &value[i], 60.0f + i);
      psc_cache_request_compute_pipeline (f.cache, &ci[i], PSC_MISS_POLICY_SKIP, 0, NULL, NULL,
                                          NULL, NULL);
    }
  wait_compiled (f.cache, 2);
  g_assert_cmpint (r.calls, ==, 0);
  next_frame (&f);
  g_assert_cmpint (r.calls, ==, 2);
  /* Closed now. */
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci[0], &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);
  const gint calls = r.calls;
  next_frame (&f);
  g_assert_cmpint (r.calls, ==, calls);
  fixture_finish (&f);
}

static void
weak_notify_cb (gpointer data, GObject *where)
{
  gboolean *finalized = data;
  *finalized = TRUE;
}

/* A handler drops the last reference: begin_frame holds its own until it
 * returns. */
static void
test_reentrant_last_reference (void)
{
  Fixture f;
  Reenter r = { .f = &f, .drop = TRUE };
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gboolean finalized = FALSE;

  f.h = psc_test_harness_new (TRUE);
  PscCache *cache = make_cache (f.h, 0, FALSE);
  f.cache = cache;
  psc_test_objects_init (&f.o, cache);
  f.frame = 1;
  compute_info (&f, &ci, &spec, &entry, &value, 70.0f);
  g_object_weak_ref (G_OBJECT (cache), weak_notify_cb, &finalized);
  g_signal_connect (cache, "pipeline-ready", G_CALLBACK (on_ready_reenter), &r);
  psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP, 0, NULL, NULL, NULL, NULL);
  for (int i = 0; i < 20000 && r.calls == 0; i++)
    {
      f.frame++;
      psc_cache_begin_frame (cache, f.frame, f.frame - 1);
      if (r.calls == 0)
        g_usleep (1000);
    }
  g_assert_cmpint (r.calls, ==, 1);
  g_assert_true (finalized);
  psc_test_harness_finish (f.h);
}

/* Counter properties notify from begin_frame only, once per changed
 * property and frame, on the owner thread, and not when nothing changed. */
typedef struct {
  guint hits, misses, entries, frame, any;
  guint64 hits_value;
  GThread *thread;
  PscCache *cache;
} Notified;

static void
on_notify (GObject *object, GParamSpec *pspec, Notified *n)
{
  const char *name = g_param_spec_get_name (pspec);

  n->thread = g_thread_self ();
  n->any++;
  if (g_str_equal (name, "hits"))
    {
      n->hits++;
      g_object_get (object, "hits", &n->hits_value, NULL);
    }
  else if (g_str_equal (name, "misses"))
    n->misses++;
  else if (g_str_equal (name, "entries"))
    n->entries++;
  else if (g_str_equal (name, "frame"))
    n->frame++;
}

static void
on_notify_hits (GObject *object, GParamSpec *pspec, guint *calls)
{
  g_assert_cmpstr (g_param_spec_get_name (pspec), ==, "hits");
  (*calls)++;
}

static void
test_notify (void)
{
  Fixture f;
  Notified n = { 0 };
  guint hits_only = 0;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;

  fixture_init (&f);
  guint64 hits_before = G_MAXUINT64;
  g_object_get (f.cache, "hits", &hits_before, NULL);
  g_signal_connect (f.cache, "notify", G_CALLBACK (on_notify), &n);
  g_signal_connect (f.cache, "notify::hits", G_CALLBACK (on_notify_hits), &hits_only);
  compute_info (&f, &ci, &spec, &entry, &value, 80.0f);
  VkPipeline p = psc_cache_get_compute_pipeline (f.cache, &ci, NULL);
  g_assert_true (p != VK_NULL_HANDLE);
  for (int i = 0; i < 5; i++)
    g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p);
  /* Nothing before begin_frame. */
  g_assert_cmpuint (n.any, ==, 0);
  g_assert_cmpuint (hits_only, ==, 0);
  next_frame (&f);
  /* Five hits, one notification; a miss and a new entry, one each. */
  g_assert_cmpuint (n.hits, ==, 1);
  g_assert_cmpuint (hits_only, ==, 1);
  g_assert_cmpuint (n.hits_value, ==, hits_before + 5);
  g_assert_cmpuint (n.misses, ==, 1);
  g_assert_cmpuint (n.entries, ==, 1);
  g_assert_cmpuint (n.frame, ==, 1);
  g_assert_true (n.thread == g_thread_self ());
  /* A frame that changes nothing but the frame notifies only that. */
  const guint any = n.any;
  next_frame (&f);
  g_assert_cmpuint (n.hits, ==, 1);
  g_assert_cmpuint (n.frame, ==, 2);
  g_assert_cmpuint (n.any, ==, any + 1);
  /* A hit later: notified again by the next frame. */
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p);
  next_frame (&f);
  g_assert_cmpuint (n.hits, ==, 2);
  g_assert_cmpuint (hits_only, ==, 2);
  g_assert_cmpuint (n.hits_value, ==, hits_before + 6);
  /* Nobody listens any more: nothing is emitted (and nothing breaks). */
  g_signal_handlers_disconnect_by_data (f.cache, &n);
  g_signal_handlers_disconnect_by_data (f.cache, &hits_only);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p);
  next_frame (&f);
  g_assert_cmpuint (n.hits, ==, 2);
  guint64 hits = 0;
  g_object_get (f.cache, "hits", &hits, NULL);
  g_assert_cmpuint (hits, ==, hits_before + 7);
  fixture_finish (&f);
}

/* Every PscCounter total and every persistence counter has a read-only
 * uint64 property that agrees with the snapshot. */
static void
test_counter_properties (void)
{
  Fixture f;
  g_autoptr(GEnumClass) counters = g_type_class_ref (PSC_TYPE_COUNTER);
  g_autoptr(GEnumClass) persist = g_type_class_ref (PSC_TYPE_PERSIST_COUNTER);
  static const char *const total_names[] = {
    "hits", "misses", "creations", "creation-time-ns", "entries", "host-bytes",
  };

  fixture_init (&f);
  g_autoptr(PscStats) s = psc_cache_get_stats (f.cache);
  GObjectClass *klass = G_OBJECT_GET_CLASS (f.cache);
  g_assert_cmpuint (counters->n_values, ==, G_N_ELEMENTS (total_names));
  for (guint i = 0; i < counters->n_values; i++)
    {
      GParamSpec *pspec = g_object_class_find_property (klass, total_names[i]);
      guint64 v = G_MAXUINT64;
      g_assert_nonnull (pspec);
      g_assert_true (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_UINT64);
      g_assert_cmpint (pspec->flags & G_PARAM_WRITABLE, ==, 0);
      g_object_get (f.cache, total_names[i], &v, NULL);
      g_assert_cmpuint (v, ==, psc_stats_get_total (s, counters->values[i].value));
    }
  for (guint i = 0; i < persist->n_values; i++)
    {
      g_autofree char *name = g_strconcat ("persistence-", persist->values[i].value_nick, NULL);
      GParamSpec *pspec = g_object_class_find_property (klass, name);
      guint64 v = G_MAXUINT64;
      g_assert_nonnull (pspec);
      g_assert_true (G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_UINT64);
      g_assert_cmpint (pspec->flags & G_PARAM_WRITABLE, ==, 0);
      g_object_get (f.cache, name, &v, NULL);
      g_assert_cmpuint (v, ==, psc_stats_get_persist (s, persist->values[i].value));
    }
  /* And the asynchronous counters that had none before 0.3. */
  guint64 unpublished = 1, frame = 0;
  g_object_get (f.cache, "jobs-unpublished", &unpublished, "frame", &frame, NULL);
  g_assert_cmpuint (unpublished, ==, 0);
  g_assert_cmpuint (frame, ==, f.frame);
  fixture_finish (&f);
}

/* The key-hash functions check their arguments like a request. */
static void
test_key_hash_arguments (void)
{
  Fixture f;
  guint64 hash = 0;
  g_autoptr(GError) error = NULL;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;

  fixture_init (&f);
  compute_info (&f, &ci, &spec, &entry, &value, 90.0f);
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*info != NULL*");
  g_assert_false (psc_cache_get_compute_key_hash (f.cache, NULL, &hash, &error));
  g_test_assert_expected_messages ();
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*hash != NULL*");
  g_assert_false (psc_cache_get_graphics_key_hash (f.cache, (gpointer) &ci, NULL, &error));
  g_test_assert_expected_messages ();
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*PSC_IS_CACHE*");
  g_assert_false (psc_cache_get_compute_key_hash (NULL, &ci, &hash, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  /* A foreign module: the request's error, counted. */
  ci.stage.module = (VkShaderModule) (uintptr_t) 0x1234;
  g_assert_false (psc_cache_get_compute_key_hash (f.cache, &ci, &hash, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_assert_nonnull (strstr (error->message, "stage.module"));
  g_autoptr(PscStats) s = psc_cache_get_stats (f.cache);
  g_assert_cmpuint (psc_stats_get_rejected (s, PSC_ERROR_FOREIGN_HANDLE), ==, 1);
  fixture_finish (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/signals/pipeline-ready", test_pipeline_ready);
  g_test_add_func ("/signals/pipeline-failed", test_pipeline_failed);
  g_test_add_func ("/signals/shader-reloaded", test_shader_reloaded);
  g_test_add_func ("/signals/evicted", test_evicted);
  g_test_add_func ("/signals/no-handler-no-backlog", test_no_handler_no_backlog);
  g_test_add_func ("/signals/bound", test_bound);
  g_test_add_func ("/signals/reentrant-request-evict-nested", test_reentrant_request_and_evict);
  g_test_add_func ("/signals/reentrant-close", test_reentrant_close);
  g_test_add_func ("/signals/reentrant-last-reference", test_reentrant_last_reference);
  g_test_add_func ("/signals/notify", test_notify);
  g_test_add_func ("/signals/counter-properties", test_counter_properties);
  g_test_add_func ("/signals/key-hash-arguments", test_key_hash_arguments);
  return g_test_run ();
}
