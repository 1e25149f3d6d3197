/* test-stress.c: a randomized stress test of the asynchronous cache.
 *
 * Thousands of random operations (requests with every miss policy,
 * duplicate requests, prepared-key requests, synchronous requests of compiling keys, hot reloads,
 * evictions, pins, frame advances with real submissions that bind every
 * handle the frame received, injected failures, shutdown and re-creation at
 * random points), on lavapipe with the validation layer. The seed is
 * printed; PSC_STRESS_SEED and PSC_STRESS_STEPS replay or resize a run.
 *
 * Named invariants, checked after every step:
 *   waiter-once        no callback runs twice; at quiescence and at
 *                      shutdown every callback has run exactly once
 *   waiters-counted    waiters_served equals the callbacks observed
 *   queues-bounded     queued + in_flight + unpublished <= the job capacity
 *   counters-monotonic hits, misses, completed, failed, stale discards,
 *                      evictions, retired never decrease
 *   retire-on-timeline retired handles are destroyed only after the
 *                      completed timeline moved (and the validation layer,
 *                      which tracks every submission, reports no handle
 *                      destroyed while in use)
 *   states-consistent  entries <= misses; at quiescence nothing is queued or
 *                      in flight
 *   validation-silent  no validation error after any frame
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"
#include "psc-test-hooks.h"

#include <string.h>

#define MAX_WAITERS 200000
#define COMPUTE_KEYS 24
#define GRAPHICS_KEYS 12
#define IN_FLIGHT 2

typedef struct {
  gint calls;
  VkPipeline pipeline;
  VkResult result;
  guint cache_gen;
} Waiter;

typedef struct {
  VkCommandBuffer cb;
  VkFence fence;
  guint64 frame;
} Frame;

typedef struct {
  PscTestHarness *h;
  PscCache *cache;
  guint cache_gen;
  PscTestObjects o;
  GRand *rand;
  guint job_capacity;

  /* request templates */
  VkComputePipelineCreateInfo cci;
  VkSpecializationInfo cspec;
  VkSpecializationMapEntry centry;
  float cvalue;
  PscTestGraphicsInfo g;

  Waiter *waiters;
  guint n_waiters;
  guint served_base;            /* callbacks observed before this cache */
  guint calls_total;

  /* handles to bind in the current frame */
  GArray *binds_compute, *binds_graphics;
  GArray *pinned;               /* VkPipeline pinned (compute only) */

  Frame inflight[IN_FLIGHT];
  guint n_inflight;
  guint64 frame;
  guint64 completed;

  PscStats *last;                /* NULL until the cache's first check */
  const char *last_op;
} Stress;

static Stress *current;

static void
waiter_cb (void *context, VkPipeline pipeline, VkResult result)
{
  Waiter *w = context;
  w->calls++;
  current->calls_total++;
  g_assert_cmpint (w->calls, ==, 1);             /* waiter-once */
  w->pipeline = pipeline;
  w->result = result;
  if (pipeline != VK_NULL_HANDLE)
    g_assert_cmpint (result, ==, VK_SUCCESS);
  else
    g_assert_cmpint (result, !=, VK_SUCCESS);
}

static PscStats *
get_stats (Stress *s)
{
  return psc_cache_get_stats (s->cache);
}

/* No job queued, compiling or waiting to be published. */
static gboolean
async_idle (Stress *s)
{
  g_autoptr(PscStats) st = get_stats (s);
  return psc_stats_get_async (st, PSC_ASYNC_COUNTER_QUEUED) == 0 &&
         psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT) == 0 &&
         psc_stats_get_async (st, PSC_ASYNC_COUNTER_UNPUBLISHED) == 0;
}

static void
wait_frame (Stress *s, Frame *f)
{
  g_assert_cmpint (vkWaitForFences (s->h->device, 1, &f->fence, VK_TRUE, UINT64_MAX), ==, VK_SUCCESS);
  vkDestroyFence (s->h->device, f->fence, NULL);
  vkFreeCommandBuffers (s->h->device, s->h->command_pool, 1, &f->cb);
  if (f->frame > s->completed)
    s->completed = f->frame;
}

static void
wait_all (Stress *s)
{
  for (guint i = 0; i < s->n_inflight; i++)
    wait_frame (s, &s->inflight[i]);
  s->n_inflight = 0;
}

/* Submits the current frame: every handle requested in it (and every pinned
 * one) is bound, so the validation layer sees its use. */
static void
submit_frame (Stress *s)
{
  if (s->n_inflight == IN_FLIGHT)
    {
      wait_frame (s, &s->inflight[0]);
      s->inflight[0] = s->inflight[1];
      s->n_inflight--;
    }
  Frame f = { .frame = s->frame };
  VkCommandBufferAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .commandPool = s->h->command_pool,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
    .commandBufferCount = 1,
  };
  g_assert_cmpint (vkAllocateCommandBuffers (s->h->device, &ai, &f.cb), ==, VK_SUCCESS);
  VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
  g_assert_cmpint (vkBeginCommandBuffer (f.cb, &bi), ==, VK_SUCCESS);
  for (guint i = 0; i < s->binds_compute->len; i++)
    vkCmdBindPipeline (f.cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                       g_array_index (s->binds_compute, VkPipeline, i));
  for (guint i = 0; i < s->pinned->len; i++)
    vkCmdBindPipeline (f.cb, VK_PIPELINE_BIND_POINT_COMPUTE, g_array_index (s->pinned, VkPipeline, i));
  for (guint i = 0; i < s->binds_graphics->len; i++)
    vkCmdBindPipeline (f.cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
                       g_array_index (s->binds_graphics, VkPipeline, i));
  g_assert_cmpint (vkEndCommandBuffer (f.cb), ==, VK_SUCCESS);
  VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  g_assert_cmpint (vkCreateFence (s->h->device, &fi, NULL, &f.fence), ==, VK_SUCCESS);
  VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                      .pCommandBuffers = &f.cb };
  g_assert_cmpint (vkQueueSubmit (s->h->queue, 1, &si, f.fence), ==, VK_SUCCESS);
  s->inflight[s->n_inflight++] = f;
  g_array_set_size (s->binds_compute, 0);
  g_array_set_size (s->binds_graphics, 0);
}

static void
advance_frame (Stress *s)
{
  submit_frame (s);
  /* Learn what the GPU finished without blocking. */
  for (guint i = 0; i < s->n_inflight;)
    {
      if (vkGetFenceStatus (s->h->device, s->inflight[i].fence) == VK_SUCCESS)
        {
          wait_frame (s, &s->inflight[i]);
          memmove (&s->inflight[i], &s->inflight[i + 1], (s->n_inflight - i - 1) * sizeof (Frame));
          s->n_inflight--;
        }
      else
        i++;
    }
  s->frame++;
  psc_cache_begin_frame (s->cache, s->frame, s->completed);
  g_assert_cmpuint (psc_test_harness_error_count (s->h), ==, 0);   /* validation-silent */
}

static void
set_compute_key (Stress *s, guint k)
{
  s->cvalue = 0.25f * (float) (k + 1);
}

static void
set_graphics_key (Stress *s, guint k)
{
  s->g.spec_data[0] = (gint32) (1000 + k);
}

static Waiter *
new_waiter (Stress *s)
{
  g_assert_cmpuint (s->n_waiters, <, MAX_WAITERS);
  Waiter *w = &s->waiters[s->n_waiters++];
  w->cache_gen = s->cache_gen;
  return w;
}

static void
note_result (Stress *s, gboolean graphics, VkPipeline p, PscRequestResult r, GError *error)
{
  if (error != NULL)
    {
      /* The only errors a valid request may see. */
      g_assert_true (g_error_matches (error, PSC_ERROR, PSC_ERROR_QUEUE_FULL) ||
                     g_error_matches (error, PSC_ERROR, PSC_ERROR_VULKAN));
      g_assert_true (p == VK_NULL_HANDLE);
      return;
    }
  if (r == PSC_REQUEST_RESULT_PENDING)
    g_assert_true (p == VK_NULL_HANDLE);
  else
    g_assert_true (p != VK_NULL_HANDLE);
  if (p != VK_NULL_HANDLE)
    g_array_append_val (graphics ? s->binds_graphics : s->binds_compute, p);
}

static void
op_request (Stress *s, PscMissPolicy policy, gboolean critical)
{
  gboolean graphics = g_rand_int_range (s->rand, 0, 3) == 0;
  g_autoptr(GError) error = NULL;
  PscRequestResult r = PSC_REQUEST_RESULT_PENDING;
  Waiter *w = new_waiter (s);
  PscRequestFlags flags = critical ? PSC_REQUEST_FLAGS_CRITICAL : PSC_REQUEST_FLAGS_NONE;
  VkPipeline p;

  if (graphics)
    {
      set_graphics_key (s, g_rand_int_range (s->rand, 0, GRAPHICS_KEYS));
      p = psc_cache_request_graphics_pipeline (s->cache, &s->g.ci, policy, flags, waiter_cb, w,
                                               &r, &error);
    }
  else
    {
      set_compute_key (s, g_rand_int_range (s->rand, 0, COMPUTE_KEYS));
      p = psc_cache_request_compute_pipeline (s->cache, &s->cci, policy, flags, waiter_cb, w,
                                              &r, &error);
    }
  note_result (s, graphics, p, r, error);
  if (error != NULL || r == PSC_REQUEST_RESULT_READY)
    w->calls = -1000;   /* no callback will come: any call trips waiter-once */
}

/* A prepared key requested again several times, as an engine does every
 * frame (the fast path of prepared requests). */
static void
op_prepared (Stress *s)
{
  set_compute_key (s, g_rand_int_range (s->rand, 0, COMPUTE_KEYS));
  g_autoptr(GError) error = NULL;
  guint32 key = psc_cache_prepare_compute_pipeline (s->cache, &s->cci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (key, !=, 0);
  int repeats = g_rand_int_range (s->rand, 1, 4);
  for (int i = 0; i < repeats; i++)
    {
      Waiter *w = new_waiter (s);
      PscRequestResult r = PSC_REQUEST_RESULT_PENDING;
      VkPipeline p = psc_cache_request_prepared_pipeline (s->cache, key, PSC_MISS_POLICY_SKIP, 0,
                                                          waiter_cb, w, &r, &error);
      note_result (s, FALSE, p, r, error);
      if (error != NULL || r == PSC_REQUEST_RESULT_READY)
        w->calls = -1000;
      g_clear_error (&error);
    }
}

static void
op_reload (Stress *s)
{
  g_autoptr(GError) error = NULL;
  gsize size;
  if (g_rand_boolean (s->rand))
    {
      const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
      VkShaderModule m = psc_cache_replace_shader (s->cache, s->o.cs, code, size, VK_NULL_HANDLE, &error);
      g_assert_no_error (error);
      s->o.cs = m;
      s->cci.stage.module = m;
    }
  else
    {
      const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR, &size);
      VkShaderModule m = psc_cache_replace_shader (s->cache, s->o.fs, code, size, VK_NULL_HANDLE, &error);
      g_assert_no_error (error);
      s->o.fs = m;
      s->g.stages[1].module = m;
    }
}

static void
op_pin (Stress *s)
{
  if (s->pinned->len > 0 && g_rand_boolean (s->rand))
    {
      guint i = g_rand_int_range (s->rand, 0, (gint32) s->pinned->len);
      VkPipeline p = g_array_index (s->pinned, VkPipeline, i);
      g_assert_true (psc_cache_unpin (s->cache, VK_OBJECT_TYPE_PIPELINE, (guint64) p, NULL));
      g_array_remove_index_fast (s->pinned, i);
      return;
    }
  set_compute_key (s, g_rand_int_range (s->rand, 0, COMPUTE_KEYS));
  g_autoptr(GError) error = NULL;
  VkPipeline p = psc_cache_get_compute_pipeline (s->cache, &s->cci, &error);
  if (p == VK_NULL_HANDLE)
    {
      g_assert_error (error, PSC_ERROR, PSC_ERROR_VULKAN);   /* an injected failure */
      return;
    }
  g_assert_true (psc_cache_pin (s->cache, VK_OBJECT_TYPE_PIPELINE, (guint64) p, NULL));
  g_array_append_val (s->pinned, p);
}

static void
check_all_called (Stress *s)
{
  for (guint i = 0; i < s->n_waiters; i++)
    if (s->waiters[i].calls >= 0)
      g_assert_cmpint (s->waiters[i].calls, ==, 1);   /* waiter-once */
}

static void
quiesce (Stress *s)
{
  for (int i = 0; i < 30000; i++)
    {
      advance_frame (s);
      if (async_idle (s))
        {
          advance_frame (s);
          if (async_idle (s))
            {
              check_all_called (s);
              return;
            }
        }
      g_usleep (500);
    }
  g_assert_not_reached ();
}

static void
make_cache (Stress *s)
{
  g_autoptr(GError) error = NULL;
  guint workers = (guint) g_rand_int_range (s->rand, 1, 4);
  s->job_capacity = g_rand_boolean (s->rand) ? 4 : 64;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  options.workers = workers;
  options.job_capacity = s->job_capacity;
  options.waiter_capacity = g_rand_boolean (s->rand) ? 8 : 1024;
  /* Some caches fail their first compiles, as a driver might (a core test
   * hook: the shared library has none). */
  PscCoreTestHooks hooks = { .fail_result = VK_ERROR_OUT_OF_DEVICE_MEMORY };
  if (g_rand_int_range (s->rand, 0, 3) == 0)
    hooks.fail_compiles = 3;
  s->cache = psc_cache_new_with_hooks (s->h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                                       &options, &hooks, &error);
  g_assert_no_error (error);
  g_ptr_array_add (s->h->caches, s->cache);
  s->cache_gen++;
  s->served_base = s->calls_total;
  psc_test_objects_init (&s->o, s->cache);
  psc_test_compute_info_init (&s->cci, &s->cspec, &s->centry, &s->cvalue, &s->o);
  psc_test_graphics_info_init (&s->g, &s->o, s->cache);
  g_clear_pointer (&s->last, psc_stats_unref);
  if (g_rand_boolean (s->rand))
    psc_cache_set_eviction_idle_frames (s->cache, (guint) g_rand_int_range (s->rand, 4, 12));
  /* A fallback for the graphics keys' layout and rendering state. */
  VkPipeline fb = psc_cache_get_graphics_pipeline (s->cache, &s->g.ci, NULL);
  if (fb != VK_NULL_HANDLE)
    g_assert_true (psc_cache_set_fallback (s->cache, fb, NULL));
  psc_cache_begin_frame (s->cache, s->frame, s->completed);
}

static void
op_shutdown (Stress *s)
{
  /* The caller's side of shutdown: the GPU is done with every frame. */
  wait_all (s);
  g_array_set_size (s->binds_compute, 0);
  g_array_set_size (s->binds_graphics, 0);
  g_array_set_size (s->pinned, 0);
  psc_test_harness_drop_cache (s->h, s->cache);
  s->cache = NULL;
  check_all_called (s);                                  /* waiter-once */
  make_cache (s);
}

static void
check_invariants (Stress *s)
{
  g_autoptr(PscStats) st = get_stats (s);
  PscStats *l = s->last;
  g_autoptr(GEnumClass) kinds = g_type_class_ref (PSC_TYPE_OBJECT_KIND);

  /* waiters-counted */
  g_assert_cmpuint (psc_stats_get_async (st, PSC_ASYNC_COUNTER_WAITERS_SERVED), ==,
                    s->calls_total - s->served_base);
  /* queues-bounded */
  g_assert_cmpuint (psc_stats_get_async (st, PSC_ASYNC_COUNTER_QUEUED) +
                    psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT) +
                    psc_stats_get_async (st, PSC_ASYNC_COUNTER_UNPUBLISHED), <=,
                    s->job_capacity);
  /* states-consistent */
  for (int k = PSC_OBJECT_KIND_GRAPHICS_PIPELINE; k <= PSC_OBJECT_KIND_COMPUTE_PIPELINE; k++)
    g_assert_cmpuint (psc_stats_get_counter (st, k, PSC_COUNTER_ENTRIES), <=,
                      psc_stats_get_counter (st, k, PSC_COUNTER_MISSES));
  if (l != NULL)
    {
      static const PscAsyncCounter events[] = {
        PSC_ASYNC_COUNTER_COMPLETED, PSC_ASYNC_COUNTER_FAILED, PSC_ASYNC_COUNTER_STALE_DISCARDS,
        PSC_ASYNC_COUNTER_EVICTIONS, PSC_ASYNC_COUNTER_RETIRED,
      };

      /* counters-monotonic */
      for (guint i = 0; i < kinds->n_values; i++)
        {
          PscObjectKind k = (PscObjectKind) kinds->values[i].value;

          g_assert_cmpuint (psc_stats_get_counter (st, k, PSC_COUNTER_HITS), >=,
                            psc_stats_get_counter (l, k, PSC_COUNTER_HITS));
          g_assert_cmpuint (psc_stats_get_counter (st, k, PSC_COUNTER_MISSES), >=,
                            psc_stats_get_counter (l, k, PSC_COUNTER_MISSES));
        }
      for (guint i = 0; i < G_N_ELEMENTS (events); i++)
        g_assert_cmpuint (psc_stats_get_async (st, events[i]), >=, psc_stats_get_async (l, events[i]));
      /* retire-on-timeline: destruction happens only in a pump that saw the
       * completed value move. */
      if (psc_stats_get_async (st, PSC_ASYNC_COUNTER_RETIRED) >
          psc_stats_get_async (l, PSC_ASYNC_COUNTER_RETIRED))
        g_assert_cmpstr (s->last_op, ==, "frame");
    }
  g_clear_pointer (&s->last, psc_stats_unref);
  s->last = g_steal_pointer (&st);
}

static void
test_stress (void)
{
  guint32 seed = g_test_rand_int ();
  guint steps = 3000;
  if (g_getenv ("PSC_STRESS_SEED"))
    seed = (guint32) g_ascii_strtoull (g_getenv ("PSC_STRESS_SEED"), NULL, 10);
  if (g_getenv ("PSC_STRESS_STEPS"))
    steps = (guint) g_ascii_strtoull (g_getenv ("PSC_STRESS_STEPS"), NULL, 10);
  g_test_message ("stress seed %u, %u steps (replay with PSC_STRESS_SEED=%u)", seed, steps, seed);
  g_printerr ("stress seed %u, %u steps\n", seed, steps);

  Stress s = { 0 };
  current = &s;
  s.h = psc_test_harness_new (TRUE);
  s.rand = g_rand_new_with_seed (seed);
  s.waiters = g_new0 (Waiter, MAX_WAITERS);
  s.binds_compute = g_array_new (FALSE, FALSE, sizeof (VkPipeline));
  s.binds_graphics = g_array_new (FALSE, FALSE, sizeof (VkPipeline));
  s.pinned = g_array_new (FALSE, FALSE, sizeof (VkPipeline));
  s.frame = 1;
  make_cache (&s);

  guint shutdown_at = (guint) g_rand_int_range (s.rand, steps / 4, steps);
  for (guint step = 0; step < steps; step++)
    {
      int op = g_rand_int_range (s.rand, 0, 100);
      if (step == shutdown_at)
        {
          s.last_op = "shutdown";
          op_shutdown (&s);
        }
      else if (op < 35)
        {
          s.last_op = "request";
          op_request (&s, g_rand_boolean (s.rand) ? PSC_MISS_POLICY_SKIP : PSC_MISS_POLICY_FALLBACK,
                      g_rand_int_range (s.rand, 0, 8) == 0);
        }
      else if (op < 45)
        {
          s.last_op = "duplicate";
          /* The same key again (the template still holds it). */
          Waiter *w = new_waiter (&s);
          g_autoptr(GError) error = NULL;
          PscRequestResult r = PSC_REQUEST_RESULT_PENDING;
          VkPipeline p = psc_cache_request_compute_pipeline (s.cache, &s.cci, PSC_MISS_POLICY_SKIP, 0,
                                                             waiter_cb, w, &r, &error);
          note_result (&s, FALSE, p, r, error);
          if (error != NULL || r == PSC_REQUEST_RESULT_READY)
            w->calls = -1000;
        }
      else if (op < 48)
        {
          s.last_op = "prepared";
          op_prepared (&s);
        }
      else if (op < 52)
        {
          s.last_op = "wait";
          op_request (&s, PSC_MISS_POLICY_WAIT, FALSE);
        }
      else if (op < 55)
        {
          s.last_op = "reload";
          op_reload (&s);
        }
      else if (op < 58)
        {
          s.last_op = "evict";
          psc_cache_evict (s.cache, (guint) g_rand_int_range (s.rand, 0, 6));
        }
      else if (op < 62)
        {
          s.last_op = "pin";
          op_pin (&s);
        }
      else if (op < 63)
        {
          s.last_op = "clear-failures";
          psc_cache_clear_failures (s.cache);
        }
      else if (op < 64)
        {
          s.last_op = "quiesce";
          quiesce (&s);
          s.last_op = "frame";
        }
      else
        {
          s.last_op = "frame";
          advance_frame (&s);
          if (g_rand_int_range (s.rand, 0, 4) == 0)
            g_usleep (300);
        }
      check_invariants (&s);
    }

  s.last_op = "frame";
  quiesce (&s);
  check_invariants (&s);
  g_autoptr(PscStats) st = get_stats (&s);
  g_test_message ("final: %" G_GUINT64_FORMAT " completed, %" G_GUINT64_FORMAT " failed, %"
                  G_GUINT64_FORMAT " stale discards, %" G_GUINT64_FORMAT " evictions, %"
                  G_GUINT64_FORMAT " retired, %u waiters",
                  psc_stats_get_async (st, PSC_ASYNC_COUNTER_COMPLETED),
                  psc_stats_get_async (st, PSC_ASYNC_COUNTER_FAILED),
                  psc_stats_get_async (st, PSC_ASYNC_COUNTER_STALE_DISCARDS),
                  psc_stats_get_async (st, PSC_ASYNC_COUNTER_EVICTIONS),
                  psc_stats_get_async (st, PSC_ASYNC_COUNTER_RETIRED), s.n_waiters);
  wait_all (&s);
  g_array_set_size (s.pinned, 0);
  psc_test_harness_drop_cache (s.h, s.cache);
  check_all_called (&s);
  psc_test_harness_finish (s.h);
  g_array_unref (s.binds_compute);
  g_array_unref (s.binds_graphics);
  g_array_unref (s.pinned);
  g_free (s.waiters);
  g_rand_free (s.rand);
  g_clear_pointer (&s.last, psc_stats_unref);
  current = NULL;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/async/stress", test_stress);
  return g_test_run ();
}
