/* test-async.c: the asynchronous state machine on lavapipe with the
 * validation layer: duplicate requests, failures, synchronous requests for a
 * compiling key, hot reload, eviction and timeline retirement, queue
 * overflow, fallbacks, GTask requests with cancellation, shutdown.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"
#include "psc-test-hooks.h"

#include <string.h>

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

typedef struct {
  PscTestHarness *h;
  PscCache *cache;
  PscTestObjects o;
  guint64 frame;
} Fixture;

/* The test's own switches, handed to the core as test hooks: the library
 * reads no environment variable. PSC_TEST_PLANT_RACE=1 (set by
 * tsan-control.sh) plants the worker hand-off race; fail_compiles makes the
 * first compiles fail as the driver would. */
static PscCache *
make_cache_failing (PscTestHarness *h, guint workers, guint jobs, guint waiters,
                    guint32 fail_compiles)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  options.workers = workers;
  options.job_capacity = jobs;
  options.waiter_capacity = waiters;
  PscCoreTestHooks hooks = {
    .fail_compiles = fail_compiles,
    .fail_result = VK_ERROR_OUT_OF_DEVICE_MEMORY,
    .plant_race = g_strcmp0 (g_getenv ("PSC_TEST_PLANT_RACE"), "1") == 0,
  };
  PscCache *cache = psc_cache_new_with_hooks (h->psc_device, PSC_BACKEND_AUTO,
                                              PSC_CACHE_FLAGS_NONE, &options, &hooks, &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

static void
fixture_init_failing (Fixture *f, guint workers, guint jobs, guint waiters,
                      guint32 fail_compiles)
{
  f->h = psc_test_harness_new (TRUE);
  f->cache = make_cache_failing (f->h, workers, jobs, waiters, fail_compiles);
  psc_test_objects_init (&f->o, f->cache);
  f->frame = 1;
  psc_cache_begin_frame (f->cache, f->frame, 0);
}

static void
fixture_init (Fixture *f, guint workers, guint jobs, guint waiters)
{
  fixture_init_failing (f, workers, jobs, waiters, 0);
}

/* Next frame; the GPU is idle in these tests (every submission is waited
 * for), so everything before this frame is complete. */
static void
next_frame (Fixture *f)
{
  f->frame++;
  psc_cache_begin_frame (f->cache, f->frame, f->frame - 1);
}

static PscStats *
stats (PscCache *cache)
{
  return psc_cache_get_stats (cache);
}

/* A new snapshot in *s (the old one dropped). */
static void
restat (PscStats **s, PscCache *cache)
{
  g_clear_pointer (s, psc_stats_unref);
  *s = psc_cache_get_stats (cache);
}

static guint64
async_count (PscCache *cache, PscAsyncCounter counter)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_async (s, counter);
}

static guint64
kind_count (PscCache *cache, PscObjectKind kind, PscCounter counter)
{
  return psc_cache_get_counter (cache, kind, counter);
}

/* No job queued, compiling or waiting to be published. */
static gboolean
async_idle (PscCache *cache)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_async (s, PSC_ASYNC_COUNTER_QUEUED) == 0 &&
         psc_stats_get_async (s, PSC_ASYNC_COUNTER_IN_FLIGHT) == 0 &&
         psc_stats_get_async (s, PSC_ASYNC_COUNTER_UNPUBLISHED) == 0;
}

/* Pumps frames until no job is queued or running and every completion was
 * consumed (at most ~20 s). */
static void
pump_idle (Fixture *f)
{
  for (int i = 0; i < 20000; i++)
    {
      next_frame (f);
      if (async_idle (f->cache))
        {
          /* Waiters of the last publication run in this pump already; one
           * more frame changes nothing but is cheap. */
          next_frame (f);
          return;
        }
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

static void
pump_until_called (Fixture *f, Waiter *w, gint n)
{
  for (int i = 0; i < 20000 && w->calls < n; i++)
    {
      next_frame (f);
      if (w->calls < n)
        g_usleep (1000);
    }
  g_assert_cmpint (w->calls, ==, n);
}

static void
compute_info (Fixture *f, VkComputePipelineCreateInfo *ci, VkSpecializationInfo *spec,
              VkSpecializationMapEntry *entry, float *value, float v)
{
  psc_test_compute_info_init (ci, spec, entry, value, &f->o);
  *value = v;
}

static void
fixture_finish (Fixture *f)
{
  psc_test_harness_finish (f->h);
}

/* ------------------------------------------------------------------------ */

static void
test_duplicates (void)
{
  Fixture f;
  fixture_init (&f, 2, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 1.25f);

  Waiter w[5] = { 0 };
  for (int i = 0; i < 5; i++)
    {
      g_autoptr(GError) error = NULL;
      PscRequestResult result = PSC_REQUEST_RESULT_READY;
      VkPipeline p = psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP,
                                                         PSC_REQUEST_FLAGS_NONE, waiter_cb, &w[i],
                                                         &result, &error);
      g_assert_no_error (error);
      /* Nothing is Ready before a pump publishes it. */
      g_assert_true (p == VK_NULL_HANDLE);
      g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
    }
  g_autoptr(PscStats) s = stats (f.cache);
  /* Five misses (none found a Ready pipeline)... */
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_MISSES), ==, 5);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HITS), ==, 0);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 1);
  /* ...but exactly one job: queued, running or done. */
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_QUEUED) + psc_stats_get_async (s, PSC_ASYNC_COUNTER_IN_FLIGHT) + psc_stats_get_async (s, PSC_ASYNC_COUNTER_COMPLETED), <=, 1);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, 0);

  pump_idle (&f);
  VkPipeline first = w[0].pipeline;
  g_assert_true (first != VK_NULL_HANDLE);
  for (int i = 0; i < 5; i++)
    {
      g_assert_cmpint (w[i].calls, ==, 1);
      g_assert_true (w[i].pipeline == first);
      g_assert_cmpint (w[i].result, ==, VK_SUCCESS);
    }
  restat (&s, f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_COMPLETED), ==, 1);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_WAITERS_SERVED), ==, 5);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, 1);

  /* Now Ready: returned directly, no callback. */
  Waiter late = { 0 };
  PscRequestResult result;
  VkPipeline p = psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &late, &result, NULL);
  g_assert_true (p == first);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_READY);
  next_frame (&f);
  g_assert_cmpint (late.calls, ==, 0);
  /* And it is the same pipeline the synchronous path returns. */
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == first);
  fixture_finish (&f);
}

static void
test_failure (void)
{
  Fixture f;
  fixture_init_failing (&f, 1, 0, 0, 1);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 2.5f);

  Waiter w[3] = { 0 };
  for (int i = 0; i < 3; i++)
    g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                       waiter_cb, &w[i], NULL, NULL) == VK_NULL_HANDLE);
  pump_idle (&f);
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpint (w[i].calls, ==, 1);
      g_assert_true (w[i].pipeline == VK_NULL_HANDLE);
      g_assert_cmpint (w[i].result, ==, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    }
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_FAILED), ==, 1);

  /* Failed: later requests fail at once with the VkResult, no new job. */
  g_autoptr(GError) error = NULL;
  Waiter again = { 0 };
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &again, NULL, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_VULKAN);
  g_assert_nonnull (strstr (error->message, "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  g_clear_error (&error);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_VULKAN);
  g_clear_error (&error);
  next_frame (&f);
  g_assert_cmpint (again.calls, ==, 0);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_FAILED), ==, 1);

  /* The documented retry: clear failures, then it compiles. */
  psc_cache_clear_failures (f.cache);
  VkPipeline p = psc_cache_get_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  fixture_finish (&f);
}

static void
test_wait_on_compiling (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 3.5f);

  Waiter w = { 0 };
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, waiter_cb, &w, NULL, NULL);
  /* A synchronous request creates it now and publishes it. */
  g_autoptr(GError) error = NULL;
  PscRequestResult result = PSC_REQUEST_RESULT_PENDING;
  VkPipeline p = psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_WAIT, 0,
                                                     NULL, NULL, &result, &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_READY);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_OWNER_WAIT_NS), >, 0);
  /* The waiter gets that pipeline at the next pump... */
  next_frame (&f);
  g_assert_cmpint (w.calls, ==, 1);
  g_assert_true (w.pipeline == p);
  /* ...and the worker's result is discarded, never published. */
  pump_idle (&f);
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_STALE_DISCARDS), ==, 1);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_COMPLETED), ==, 0);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p);
  g_assert_cmpint (w.calls, ==, 1);
  fixture_finish (&f);
}

/* Binds a pipeline in a command buffer and submits it without waiting. */
typedef struct {
  VkCommandBuffer cb;
  VkFence fence;
} Submission;

static Submission
submit_bind (PscTestHarness *h, VkPipeline pipeline, VkPipelineBindPoint point)
{
  Submission s;
  VkCommandBufferAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .commandPool = h->command_pool,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
    .commandBufferCount = 1,
  };
  g_assert_cmpint (vkAllocateCommandBuffers (h->device, &ai, &s.cb), ==, VK_SUCCESS);
  VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
  g_assert_cmpint (vkBeginCommandBuffer (s.cb, &bi), ==, VK_SUCCESS);
  vkCmdBindPipeline (s.cb, point, pipeline);
  g_assert_cmpint (vkEndCommandBuffer (s.cb), ==, VK_SUCCESS);
  VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  g_assert_cmpint (vkCreateFence (h->device, &fi, NULL, &s.fence), ==, VK_SUCCESS);
  VkSubmitInfo si = {
    .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
    .commandBufferCount = 1,
    .pCommandBuffers = &s.cb,
  };
  g_assert_cmpint (vkQueueSubmit (h->queue, 1, &si, s.fence), ==, VK_SUCCESS);
  return s;
}

static void
finish_submission (PscTestHarness *h, Submission *s)
{
  g_assert_cmpint (vkWaitForFences (h->device, 1, &s->fence, VK_TRUE, UINT64_MAX), ==, VK_SUCCESS);
  vkDestroyFence (h->device, s->fence, NULL);
  vkFreeCommandBuffers (h->device, h->command_pool, 1, &s->cb);
}

static void
test_hot_reload (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 4.5f);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;

  /* 1. Reload while a compile of the old generation is queued or running:
   *    its waiter is told (VK_INCOMPLETE) and its result never published. */
  Waiter doomed = { 0 };
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, waiter_cb, &doomed,
                                      NULL, NULL);
  VkShaderModule cs1 = psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  g_assert_true (cs1 != VK_NULL_HANDLE);
  next_frame (&f);
  g_assert_cmpint (doomed.calls, ==, 1);
  g_assert_true (doomed.pipeline == VK_NULL_HANDLE);
  g_assert_cmpint (doomed.result, ==, VK_INCOMPLETE);
  pump_idle (&f);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_STALE_DISCARDS), ==, 1);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_COMPLETED), ==, 0);

  /* 2. A Ready generation-1 pipeline, then reload again: until generation 2
   *    is Ready a request gets generation 1, flagged stale, and it stays
   *    valid while a submission uses it. The old handle still names the
   *    shader (now at its new generation). */
  ci.stage.module = cs1;
  VkPipeline p1 = psc_cache_get_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  VkShaderModule cs2 = psc_cache_replace_shader (f.cache, cs1, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  Waiter fresh = { 0 };
  PscRequestResult result = PSC_REQUEST_RESULT_READY;
  VkPipeline got = psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                       waiter_cb, &fresh, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_STALE);
  g_assert_true (got == p1);
  Submission sub = submit_bind (f.h, got, VK_PIPELINE_BIND_POINT_COMPUTE);
  /* The frame that used p1 is not complete while the submission runs. */
  guint64 used_frame = f.frame;
  for (int i = 0; i < 20000 && fresh.calls == 0; i++)
    {
      f.frame++;
      psc_cache_begin_frame (f.cache, f.frame, used_frame - 1);
      g_usleep (1000);
    }
  g_assert_cmpint (fresh.calls, ==, 1);
  VkPipeline p2 = fresh.pipeline;
  g_assert_true (p2 != VK_NULL_HANDLE && p2 != p1);
  /* p1 was retired when p2 was published, but not destroyed: the GPU has not
   * passed its frame. The validation layer would report its destruction
   * while the submission is pending. */
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING), >=, 1);
  finish_submission (f.h, &sub);
  /* Now the GPU passed it (and the borrowed window). */
  f.frame += PSC_BORROW_FRAMES + 1;
  psc_cache_begin_frame (f.cache, f.frame, f.frame - 1);
  restat (&s, f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING), ==, 0);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED), >=, 1);
  /* The replaced module's handle resolved until the next pump; the new one
   * names generation 2. */
  ci.stage.module = cs2;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p2);

  /* 3. The original module was destroyed at the pump after its
   *    replacement (no job used it): its handle is foreign now. */
  ci.stage.module = f.o.cs;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);
  psc_test_harness_assert_clean (f.h);
  fixture_finish (&f);
}

/* Two reloads before the new generation is Ready: requests still get the
 * last published generation (flagged stale), and it is retired once the
 * newest generation is published. */
static void
test_double_reload (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 8.5f);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;

  VkPipeline p0 = psc_cache_get_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  VkShaderModule m1 = psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  ci.stage.module = m1;
  Waiter w1 = { 0 };
  PscRequestResult r = PSC_REQUEST_RESULT_READY;
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &w1, &r, &error) == p0);
  g_assert_cmpint (r, ==, PSC_REQUEST_RESULT_STALE);
  /* Reload again while generation 1 compiles: it is discarded... */
  VkShaderModule m2 = psc_cache_replace_shader (f.cache, m1, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  ci.stage.module = m2;
  Waiter w2 = { 0 };
  /* ...and generation 0, the last one published, is still what a request
   * can draw meanwhile. */
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &w2, &r, &error) == p0);
  g_assert_no_error (error);
  g_assert_cmpint (r, ==, PSC_REQUEST_RESULT_STALE);
  pump_until_called (&f, &w2, 1);
  g_assert_cmpint (w1.calls, ==, 1);
  g_assert_cmpint (w1.result, ==, VK_INCOMPLETE);
  g_assert_true (w2.pipeline != VK_NULL_HANDLE && w2.pipeline != p0);
  /* Generation 0 was retired when generation 2 was published. */
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING) + psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED), >=, 1);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 1);
  fixture_finish (&f);
}

/* A prepared key names shader generations: after a reload it is stale, the
 * request fails (never returns the old pipeline as Ready), and preparing it
 * again gives the new generation. */
static void
test_prepared_after_reload (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 9.5f);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;

  guint32 key = psc_cache_prepare_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  VkPipeline p0 = psc_cache_get_prepared_pipeline (f.cache, key, &error);
  g_assert_no_error (error);
  VkShaderModule m1 = psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  PscRequestResult r;
  g_assert_true (psc_cache_request_prepared_pipeline (f.cache, key, PSC_MISS_POLICY_SKIP, 0, NULL,
                                                      NULL, &r, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (psc_cache_get_prepared_pipeline (f.cache, key, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  ci.stage.module = m1;
  guint32 key1 = psc_cache_prepare_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (key1, !=, key);
  VkPipeline p1 = psc_cache_get_prepared_pipeline (f.cache, key1, &error);
  g_assert_no_error (error);
  g_assert_true (p1 != VK_NULL_HANDLE && p1 != p0);
  fixture_finish (&f);
}

static void
test_eviction (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 5.5f);
  VkPipeline p = psc_cache_get_compute_pipeline (f.cache, &ci, NULL);
  g_assert_true (p != VK_NULL_HANDLE);
  guint64 last_use = f.frame;

  /* A pinned pipeline, idle as long, is never evicted. */
  value = 6.5f;
  VkPipeline pinned = psc_cache_get_compute_pipeline (f.cache, &ci, NULL);
  g_assert_true (psc_cache_pin (f.cache, VK_OBJECT_TYPE_PIPELINE, (guint64) pinned, NULL));

  /* Inside the borrowed-handle window: nothing is evicted. */
  next_frame (&f);
  g_assert_cmpuint (psc_cache_evict (f.cache, 0), ==, 0);
  /* A submission uses p in the current frame; the GPU has not finished it. */
  Submission sub = submit_bind (f.h, p, VK_PIPELINE_BIND_POINT_COMPUTE);
  while (f.frame <= last_use + PSC_BORROW_FRAMES)
    {
      f.frame++;
      psc_cache_begin_frame (f.cache, f.frame, last_use - 1);
    }
  g_assert_cmpuint (psc_cache_evict (f.cache, 0), ==, 1);
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_EVICTIONS), ==, 1);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING), ==, 1);
  /* Evicted: a new request creates a new pipeline... */
  guint64 before = psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS);
  value = 5.5f;
  VkPipeline again = psc_cache_get_compute_pipeline (f.cache, &ci, NULL);
  g_assert_true (again != VK_NULL_HANDLE);
  g_assert_cmpuint (kind_count (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, before + 1);
  /* ...while the old handle lives on until the timeline passes its
   * retirement value: frames go by, the GPU reports nothing new. */
  for (int i = 0; i < 5; i++)
    {
      f.frame++;
      psc_cache_begin_frame (f.cache, f.frame, last_use - 1);
      g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING), ==, 1);
    }
  finish_submission (f.h, &sub);
  f.frame++;
  psc_cache_begin_frame (f.cache, f.frame, f.frame - 1);
  restat (&s, f.cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING), ==, 0);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED), ==, 1);
  /* The pinned one survived all of it. */
  value = 6.5f;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == pinned);
  g_assert_true (psc_cache_unpin (f.cache, VK_OBJECT_TYPE_PIPELINE, (guint64) pinned, NULL));
  psc_test_harness_assert_clean (f.h);
  fixture_finish (&f);
}

static void
test_auto_eviction (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 7.5f);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) != VK_NULL_HANDLE);
  psc_cache_set_eviction_idle_frames (f.cache, 5);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (f.cache), ==, 5);
  for (int i = 0; i < 5; i++)
    next_frame (&f);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_EVICTIONS), ==, 0);
  for (int i = 0; i < 3; i++)
    next_frame (&f);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_EVICTIONS), ==, 1);
  fixture_finish (&f);
}

/* Requests p every frame for 20 frames with eviction after 5 idle frames:
 * nothing is evicted. Then stops: p is evicted once the idle frames and the
 * borrow window have passed, and the next request creates a new pipeline,
 * which is returned. `request` asks for the pipeline the way the test
 * means (NULL error: the caller checks the handle). */
typedef VkPipeline (*RequestFn) (Fixture *f, gconstpointer what, GError **error);

static VkPipeline
keep_alive_then_evict (Fixture *f, RequestFn request, gconstpointer what, VkPipeline p,
                       PscObjectKind kind)
{
  psc_cache_set_eviction_idle_frames (f->cache, 5);
  for (int i = 0; i < 20; i++)
    {
      next_frame (f);
      g_assert_true (request (f, what, NULL) == p);
    }
  g_assert_cmpuint (psc_cache_evict (f->cache, 0), ==, 0);
  g_assert_cmpuint (async_count (f->cache, PSC_ASYNC_COUNTER_EVICTIONS), ==, 0);
  for (int i = 0; i < 5 + PSC_BORROW_FRAMES + 3; i++)
    next_frame (f);
  g_assert_cmpuint (async_count (f->cache, PSC_ASYNC_COUNTER_EVICTIONS), ==, 1);
  guint64 before = kind_count (f->cache, kind, PSC_COUNTER_CREATIONS);
  g_autoptr(GError) error = NULL;
  VkPipeline again = request (f, what, &error);
  g_assert_no_error (error);
  g_assert_true (again != VK_NULL_HANDLE);
  g_assert_cmpuint (kind_count (f->cache, kind, PSC_COUNTER_CREATIONS), ==, before + 1);
  return again;
}

static VkPipeline
request_prepared (Fixture *f, gconstpointer key, GError **error)
{
  return psc_cache_get_prepared_pipeline (f->cache, *(const guint32 *) key, error);
}

static VkPipeline
request_graphics (Fixture *f, gconstpointer ci, GError **error)
{
  return psc_cache_get_graphics_pipeline (f->cache, ci, error);
}

/* A pipeline requested only through its prepared key (whose record answers
 * from a cached handle, without touching the entry) counts as used: eviction
 * leaves it alone. Once those requests stop it is evicted, and the prepared
 * key then gets a new pipeline, never the evicted handle. */
static void
test_prepared_eviction (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 8.5f);
  g_autoptr(GError) error = NULL;
  guint32 key = psc_cache_prepare_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  VkPipeline p = psc_cache_get_prepared_pipeline (f.cache, key, &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  VkPipeline again = keep_alive_then_evict (&f, request_prepared, &key, p,
                                            PSC_OBJECT_KIND_COMPUTE_PIPELINE);
  /* The record answers from the new entry from now on. */
  next_frame (&f);
  g_assert_true (psc_cache_get_prepared_pipeline (f.cache, key, NULL) == again);
  fixture_finish (&f);
}

/* A reload while a compile job still uses the old module: the old handle
 * keeps resolving (to the shader's new generation) until the job is done.
 * A graphics request naming it right after the reload must key the new
 * generation, exactly as one naming the new module does: nothing the fast
 * path remembered from before the reload may leak into the key. */
static void
test_reload_same_handle (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  PscTestGraphicsInfo g;
  psc_test_graphics_info_init (&g, &f.o, f.cache);
  g_autoptr(GError) error = NULL;
  /* Resolve the fragment module once (the fast path may remember it). */
  g_assert_cmpuint (psc_cache_prepare_graphics_pipeline (f.cache, &g.ci, &error), !=, 0);
  g_assert_no_error (error);
  /* A queued compile pins the modules it names until the pump. */
  Waiter w = { 0 };
  g.spec_data[0] += 3;
  psc_cache_request_graphics_pipeline (f.cache, &g.ci, PSC_MISS_POLICY_SKIP, 0, waiter_cb, &w,
                                       NULL, &error);
  g_assert_no_error (error);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR_ALPHA, &size);
  VkShaderModule old_fs = f.o.fs;
  VkShaderModule new_fs = psc_cache_replace_shader (f.cache, old_fs, code, size, VK_NULL_HANDLE,
                                                    &error);
  g_assert_no_error (error);
  g_assert_true (new_fs != VK_NULL_HANDLE && new_fs != old_fs);
  /* Still pinned: the old handle resolves. Both keys are the same key. */
  guint32 via_old = psc_cache_prepare_graphics_pipeline (f.cache, &g.ci, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g.ci.stageCount; i++)
    if (g.stages[i].module == old_fs)
      g.stages[i].module = new_fs;
  guint32 via_new = psc_cache_prepare_graphics_pipeline (f.cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (via_old, ==, via_new);
  pump_until_called (&f, &w, 1);
  fixture_finish (&f);
}

/* A graphics pipeline requested every frame through its create info (hits
 * answered by the table slot, without touching the entry) counts as used:
 * eviction leaves it alone until the requests stop. */
static void
test_hit_keeps_alive (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  PscTestGraphicsInfo g;
  psc_test_graphics_info_init (&g, &f.o, f.cache);
  g_autoptr(GError) error = NULL;
  VkPipeline p = psc_cache_get_graphics_pipeline (f.cache, &g.ci, &error);
  g_assert_no_error (error);
  /* Once evicted, the slot is gone with it: the next request creates. */
  keep_alive_then_evict (&f, request_graphics, &g.ci, p, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
  fixture_finish (&f);
}

static void
test_overflow (void)
{
  Fixture f;
  /* One worker, two job slots, two waiter nodes. */
  fixture_init (&f, 1, 2, 2);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 10.0f);
  g_autoptr(GError) error = NULL;

  Waiter w[4] = { 0 };
  for (int i = 0; i < 2; i++)
    {
      value = 10.0f + (float) i;
      psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, waiter_cb, &w[i],
                                          NULL, &error);
      g_assert_no_error (error);
    }
  /* Slots are freed only when the pump consumes completions: the queue is
   * full now, whatever the worker did meanwhile. A non-critical request is
   * skipped and counted; the cache is unchanged. */
  value = 12.0f;
  g_autoptr(PscStats) before = stats (f.cache);
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &w[2], NULL, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_QUEUE_FULL);
  g_clear_error (&error);
  g_autoptr(PscStats) after = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_async (after, PSC_ASYNC_COUNTER_OVERFLOW_SKIPS), ==, 1);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==,
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES));
  /* A critical one is created synchronously. */
  PscRequestResult result = PSC_REQUEST_RESULT_PENDING;
  VkPipeline p = psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP,
                                                     PSC_REQUEST_FLAGS_CRITICAL, waiter_cb, &w[3],
                                                     &result, &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_READY);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS), ==, 1);

  /* The waiter pool (2 nodes) is full too: another waiter on a compiling key
   * is refused the same way. */
  value = 10.0f;
  Waiter extra = { 0 };
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     waiter_cb, &extra, NULL, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_QUEUE_FULL);
  g_clear_error (&error);

  pump_idle (&f);
  g_assert_cmpint (w[0].calls, ==, 1);
  g_assert_cmpint (w[1].calls, ==, 1);
  g_assert_cmpint (w[2].calls, ==, 0);   /* skipped: never called */
  g_assert_cmpint (w[3].calls, ==, 0);   /* Ready at once: never called */
  g_assert_cmpint (extra.calls, ==, 0);
  fixture_finish (&f);
}

static void
test_fallback (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  PscTestGraphicsInfo g;
  psc_test_graphics_info_init (&g, &f.o, f.cache);
  g_autoptr(GError) error = NULL;
  VkPipeline fallback = psc_cache_get_graphics_pipeline (f.cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_set_fallback (f.cache, fallback, &error));

  /* A variant with the same layout and rendering state. */
  g.spec_data[0] += 17;
  Waiter w = { 0 };
  PscRequestResult result = PSC_REQUEST_RESULT_READY;
  VkPipeline got = psc_cache_request_graphics_pipeline (f.cache, &g.ci, PSC_MISS_POLICY_FALLBACK, 0,
                                                        waiter_cb, &w, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_FALLBACK);
  g_assert_true (got == fallback);
  /* The skip policy returns nothing for the same request. */
  Waiter w2 = { 0 };
  got = psc_cache_request_graphics_pipeline (f.cache, &g.ci, PSC_MISS_POLICY_SKIP, 0,
                                             waiter_cb, &w2, &result, &error);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
  g_assert_true (got == VK_NULL_HANDLE);
  pump_until_called (&f, &w, 1);
  g_assert_true (w.pipeline != VK_NULL_HANDLE && w.pipeline != fallback);
  g_assert_cmpint (w2.calls, ==, 1);
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_FALLBACKS_RETURNED), ==, 1);

  /* Only a Ready pipeline of this cache can be a fallback. */
  g_assert_false (psc_cache_set_fallback (f.cache, (VkPipeline) (guintptr) 0x1234, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  fixture_finish (&f);
}

typedef struct {
  gint calls;
  VkPipeline pipeline;
  GError *error;
} TaskResult;

static void
task_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  TaskResult *r = data;
  r->calls++;
  r->pipeline = psc_cache_get_compute_pipeline_finish (PSC_CACHE (source), res, &r->error);
}

static gpointer
cancel_thread (gpointer data)
{
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_gtask (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 20.0f);

  TaskResult r = { 0 };
  psc_cache_get_compute_pipeline_async (f.cache, &ci, NULL, task_done_cb, &r);
  for (int i = 0; i < 20000 && r.calls == 0; i++)
    {
      next_frame (&f);
      g_main_context_iteration (NULL, FALSE);
      if (r.calls == 0)
        g_usleep (1000);
    }
  g_assert_cmpint (r.calls, ==, 1);
  g_assert_no_error (r.error);
  g_assert_true (r.pipeline == psc_cache_get_compute_pipeline (f.cache, &ci, NULL));

  /* Cancelled from another thread: completes once, with CANCELLED, at the
   * next pump; the compile's own completion later changes nothing. */
  value = 21.0f;
  TaskResult c = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  psc_cache_get_compute_pipeline_async (f.cache, &ci, cancellable, task_done_cb, &c);
  GThread *t = g_thread_new ("cancel", cancel_thread, cancellable);
  g_thread_join (t);
  next_frame (&f);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (c.calls, ==, 1);
  g_assert_error (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&c.error);
  pump_idle (&f);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (c.calls, ==, 1);
  fixture_finish (&f);
}

static void
test_shutdown (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  Waiter w[8] = { 0 };
  compute_info (&f, &ci, &spec, &entry, &value, 30.0f);
  for (int i = 0; i < 8; i++)
    {
      value = 30.0f + (float) i;
      psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, waiter_cb, &w[i],
                                          NULL, NULL);
    }
  /* Destroying the cache stops the workers, discards what they produced and
   * completes every waiter exactly once. */
  psc_test_harness_drop_cache (f.h, f.cache);
  for (int i = 0; i < 8; i++)
    {
      g_assert_cmpint (w[i].calls, ==, 1);
      g_assert_cmpint (w[i].result, ==, VK_INCOMPLETE);
    }
  fixture_finish (&f);
}

/* A waiter that requests again while the cache is being destroyed: the
 * request fails with PSC_ERROR_CLOSED and starts nothing (it used to restart
 * the workers during shutdown and write past the worker-cache array). */
typedef struct {
  PscCache *cache;
  const VkComputePipelineCreateInfo *ci;
  gint calls;
  VkResult result;
  GError *error;
  VkPipeline pipeline;
} Requester;

static void
request_again_cb (void *context, VkPipeline pipeline, VkResult result)
{
  Requester *r = context;
  PscRequestResult state = PSC_REQUEST_RESULT_READY;
  r->calls++;
  r->result = result;
  r->pipeline = psc_cache_request_compute_pipeline (r->cache, r->ci, PSC_MISS_POLICY_SKIP, 0,
                                                    waiter_cb, NULL, &state, &r->error);
}

static void
test_shutdown_reentrant (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 70.0f);
  Requester r = { .cache = f.cache, .ci = &ci };
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, request_again_cb, &r,
                                      NULL, NULL);
  value = 71.0f;   /* the waiter asks for a key the cache never saw */
  psc_test_harness_drop_cache (f.h, f.cache);
  g_assert_cmpint (r.calls, ==, 1);
  g_assert_cmpint (r.result, ==, VK_INCOMPLETE);
  g_assert_error (r.error, PSC_ERROR, PSC_ERROR_CLOSED);
  g_assert_true (r.pipeline == VK_NULL_HANDLE);
  g_clear_error (&r.error);
  fixture_finish (&f);
}

typedef struct {
  PscCache *cache;
  const VkComputePipelineCreateInfo *ci;
  GError *error;
  VkPipeline pipeline;
} ThreadCall;

static gpointer
request_from_thread (gpointer data)
{
  ThreadCall *c = data;
  c->pipeline = psc_cache_request_compute_pipeline (c->cache, c->ci, PSC_MISS_POLICY_SKIP, 0,
                                                    NULL, NULL, NULL, &c->error);
  return NULL;
}

#define EXPECT_CRITICAL(pattern) \
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, pattern)

/* Every public entry point of the asynchronous API checks its arguments:
 * programming errors are criticals (nothing happens), bad requests are
 * GErrors with a code and leave the cache unchanged. */
static void
test_bad_arguments (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 40.0f);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscStats) before = stats (f.cache);

  EXPECT_CRITICAL ("*PSC_IS_CACHE*");
  g_assert_true (psc_cache_request_compute_pipeline (NULL, &ci, PSC_MISS_POLICY_SKIP, 0, NULL,
                                                     NULL, NULL, NULL) == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*info != NULL*");
  g_assert_true (psc_cache_request_graphics_pipeline (f.cache, NULL, PSC_MISS_POLICY_SKIP, 0, NULL,
                                                      NULL, NULL, NULL) == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*policy*");
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, (PscMissPolicy) 7, 0, NULL,
                                                     NULL, NULL, NULL) == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*flags*");
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP,
                                                     (PscRequestFlags) 0x80, NULL, NULL, NULL,
                                                     NULL) == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*code != NULL*");
  g_assert_true (psc_cache_replace_shader (f.cache, f.o.cs, NULL, 0, VK_NULL_HANDLE, NULL)
                 == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*info != NULL*");
  psc_cache_get_compute_pipeline_async (f.cache, NULL, NULL, NULL, NULL);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_CACHE*");
  g_assert_cmpuint (psc_cache_evict (NULL, 0), ==, 0);
  g_test_assert_expected_messages ();

  /* Bad requests: errors with codes and field paths. */
  g_assert_true (psc_cache_request_prepared_pipeline (f.cache, 12345, PSC_MISS_POLICY_SKIP, 0,
                                                      NULL, NULL, NULL, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "key_id"));
  g_clear_error (&error);
  g_assert_true (psc_cache_replace_shader (f.cache, (VkShaderModule) (guintptr) 0x4242, code, size,
                                           VK_NULL_HANDLE, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_assert_nonnull (strstr (error->message, "module"));
  g_clear_error (&error);
  guint32 bad_spirv[8] = { 0xdeadbeef };
  g_assert_true (psc_cache_replace_shader (f.cache, f.o.cs, bad_spirv, sizeof bad_spirv,
                                           VK_NULL_HANDLE, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "pCode[0]"));
  g_clear_error (&error);
  g_autoptr(GBytes) bytes = g_bytes_new (code, size);
  g_assert_false (psc_cache_replace_shader_bytes (f.cache, 9999, bytes, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);
  /* A failed reload changed nothing: the same request still hits. */
  VkPipeline p = psc_cache_get_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, NULL) == p);

  /* Wrong thread. */
  ThreadCall call = { f.cache, &ci, NULL, VK_NULL_HANDLE };
  GThread *t = g_thread_new ("other", request_from_thread, &call);
  g_thread_join (t);
  g_assert_true (call.pipeline == VK_NULL_HANDLE);
  g_assert_error (call.error, PSC_ERROR, PSC_ERROR_WRONG_THREAD);
  g_clear_error (&call.error);

  g_autoptr(PscStats) after = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_rejected (after, PSC_ERROR_INVALID_ARGUMENT), >,
                    psc_stats_get_rejected (before, PSC_ERROR_INVALID_ARGUMENT));
  g_assert_cmpuint (psc_stats_get_rejected (after, PSC_ERROR_FOREIGN_HANDLE), >,
                    psc_stats_get_rejected (before, PSC_ERROR_FOREIGN_HANDLE));
  g_assert_cmpuint (psc_stats_get_rejected (after, PSC_ERROR_WRONG_THREAD), ==,
                    psc_stats_get_rejected (before, PSC_ERROR_WRONG_THREAD) + 1);
  fixture_finish (&f);
}

/* ------------------------------------------------------------------------
 * psc_cache_close, shutdown errors, GTask results
 */

/* Waiters that also record the thread they ran on. */
typedef struct {
  gint calls;
  VkResult result;
  GThread *thread;
} ThreadWaiter;

static void
thread_waiter_cb (void *context, VkPipeline pipeline, VkResult result)
{
  ThreadWaiter *w = context;
  w->calls++;
  w->result = result;
  w->thread = g_thread_self ();
}

/* Queues n compute requests that cannot be Ready before the next pump. */
static void
request_pending (Fixture *f, VkComputePipelineCreateInfo *ci, float *value, float base,
                 ThreadWaiter *w, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      PscRequestResult result = PSC_REQUEST_RESULT_READY;

      *value = base + (float) i;
      g_assert_true (psc_cache_request_compute_pipeline (f->cache, ci, PSC_MISS_POLICY_SKIP, 0,
                                                         thread_waiter_cb, &w[i], &result,
                                                         &error) == VK_NULL_HANDLE);
      g_assert_no_error (error);
      g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
    }
}

/* The cache leaves the harness's list: the test drops it itself. */
static PscCache *
take_cache (Fixture *f)
{
  g_assert_true (g_ptr_array_remove (f->h->caches, f->cache));
  return g_steal_pointer (&f->cache);
}

static void
test_close_then_dispose (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  ThreadWaiter w[4] = { 0 };
  compute_info (&f, &ci, &spec, &entry, &value, 100.0f);
  request_pending (&f, &ci, &value, 100.0f, w, G_N_ELEMENTS (w));

  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (f.cache, f.frame);
  /* Every waiter, once, on this (the owner) thread, with VK_INCOMPLETE. */
  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    {
      g_assert_cmpint (w[i].calls, ==, 1);
      g_assert_cmpint (w[i].result, ==, VK_INCOMPLETE);
      g_assert_true (w[i].thread == g_thread_self ());
    }
  /* Counters stay readable; nothing is queued or compiling. */
  g_assert_true (async_idle (f.cache));
  g_assert_cmpuint (async_count (f.cache, PSC_ASYNC_COUNTER_WAITERS_SERVED), ==, G_N_ELEMENTS (w));
  /* The objects are gone already: dropping the cache changes nothing, and
   * the validation layer (which checks leaks at vkDestroyDevice) is
   * satisfied. */
  g_object_unref (take_cache (&f));
  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    g_assert_cmpint (w[i].calls, ==, 1);
  fixture_finish (&f);
}

static void
test_close_twice (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  ThreadWaiter w[2] = { 0 };
  compute_info (&f, &ci, &spec, &entry, &value, 110.0f);
  request_pending (&f, &ci, &value, 110.0f, w, G_N_ELEMENTS (w));

  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (f.cache, f.frame);
  g_autoptr(PscStats) after_first = stats (f.cache);
  psc_cache_close (f.cache, f.frame + 10);
  psc_cache_close (f.cache, 0);
  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    g_assert_cmpint (w[i].calls, ==, 1);
  /* Idempotent: the second and third changed no counter. */
  g_autoptr(PscStats) after_third = stats (f.cache);
  g_autoptr(GVariant) a = psc_stats_to_variant (after_first);
  g_autoptr(GVariant) b = psc_stats_to_variant (after_third);
  g_assert_true (g_variant_equal (a, b));
  fixture_finish (&f);
}

#define ASSERT_CLOSED(expr, null_value) \
  G_STMT_START { \
    g_assert_true ((expr) == (null_value)); \
    g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED); \
    g_clear_error (&error); \
    n++; \
  } G_STMT_END

/* After close, every request (every kind, every path) fails with CLOSED and
 * starts nothing; the methods without a GError do nothing. */
static void
test_requests_after_close (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GBytes) bytes = g_bytes_new (code, size);
  g_autoptr(GError) error = NULL;
  PscTestGraphicsInfo g;
  guint n = 0;
  compute_info (&f, &ci, &spec, &entry, &value, 120.0f);
  psc_test_graphics_info_init (&g, &f.o, f.cache);

  /* Things to name after close: a Ready pipeline, a prepared key, an id. */
  VkPipeline ready = psc_cache_get_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  VkPipeline graphics = psc_cache_get_graphics_pipeline (f.cache, &g.ci, &error);
  g_assert_no_error (error);
  guint32 key = psc_cache_prepare_compute_pipeline (f.cache, &ci, &error);
  g_assert_no_error (error);
  guint cs_id = psc_cache_get_shader_id (f.cache, f.o.cs);
  g_assert_cmpuint (cs_id, !=, 0);
  VkSamplerCreateInfo sampler = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .maxLod = 1.0f };
  VkPipelineLayoutCreateInfo layout = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO };
  VkDescriptorSetLayoutCreateInfo set_layout = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
  };

  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (f.cache, f.frame);
  g_autoptr(PscStats) closed = stats (f.cache);

  value = 121.0f;   /* a key the cache never saw */
  ASSERT_CLOSED (psc_cache_register_shader (f.cache, code, size, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_register_shader_bytes (f.cache, bytes, &error), 0);
  ASSERT_CLOSED (psc_cache_release_shader (f.cache, f.o.cs, &error), FALSE);
  ASSERT_CLOSED (psc_cache_release_shader_id (f.cache, cs_id, &error), FALSE);
  ASSERT_CLOSED (psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error),
                 VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_replace_shader_bytes (f.cache, cs_id, bytes, &error), FALSE);
  ASSERT_CLOSED (psc_cache_get_sampler (f.cache, &sampler, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_descriptor_set_layout (f.cache, &set_layout, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_pipeline_layout (f.cache, &layout, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_compat_render_pass (f.cache, &f.o.pass_info, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_graphics_pipeline (f.cache, &g.ci, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_compute_pipeline (f.cache, &ci, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_get_graphics_key_size (f.cache, &g.ci, &error), 0);
  ASSERT_CLOSED (psc_cache_prepare_graphics_pipeline (f.cache, &g.ci, &error), 0);
  ASSERT_CLOSED (psc_cache_prepare_compute_pipeline (f.cache, &ci, &error), 0);
  ASSERT_CLOSED (psc_cache_get_prepared_pipeline (f.cache, key, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_request_graphics_pipeline (f.cache, &g.ci, PSC_MISS_POLICY_SKIP, 0,
                                                      waiter_cb, NULL, NULL, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_WAIT,
                                                     PSC_REQUEST_FLAGS_CRITICAL, waiter_cb, NULL,
                                                     NULL, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_request_prepared_pipeline (f.cache, key, PSC_MISS_POLICY_FALLBACK, 0,
                                                      waiter_cb, NULL, NULL, &error), VK_NULL_HANDLE);
  ASSERT_CLOSED (psc_cache_set_fallback (f.cache, graphics, &error), FALSE);
  ASSERT_CLOSED (psc_cache_pin (f.cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) ready,
                                &error), FALSE);
  ASSERT_CLOSED (psc_cache_unpin (f.cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) ready,
                                  &error), FALSE);
  {
    TaskResult r = { 0 };
    psc_cache_get_compute_pipeline_async (f.cache, &ci, NULL, task_done_cb, &r);
    while (r.calls == 0)
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (r.pipeline == VK_NULL_HANDLE);
    g_assert_error (r.error, PSC_ERROR, PSC_ERROR_CLOSED);
    g_clear_error (&r.error);
  }

  /* Without a GError: nothing happens. */
  psc_cache_begin_frame (f.cache, f.frame + 5, f.frame + 4);
  g_assert_cmpuint (psc_cache_evict (f.cache, 0), ==, 0);
  psc_cache_clear_failures (f.cache);
  psc_cache_set_eviction_idle_frames (f.cache, 7);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (f.cache), ==, 0);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, f.o.cs), ==, 0);
  g_assert_false (psc_cache_is_compat_render_pass (f.cache, f.o.compat_pass));

  /* Nothing was started: no job, no creation, no entry, no frame; only the
   * refusals were counted. */
  g_autoptr(PscStats) now = stats (f.cache);
  g_assert_true (async_idle (f.cache));
  g_assert_cmpuint (psc_stats_get_async (now, PSC_ASYNC_COUNTER_COMPLETED), ==,
                    psc_stats_get_async (closed, PSC_ASYNC_COUNTER_COMPLETED));
  g_assert_cmpuint (psc_stats_get_total (now, PSC_COUNTER_CREATIONS), ==,
                    psc_stats_get_total (closed, PSC_COUNTER_CREATIONS));
  g_assert_cmpuint (psc_stats_get_total (now, PSC_COUNTER_MISSES), ==,
                    psc_stats_get_total (closed, PSC_COUNTER_MISSES));
  g_assert_cmpuint (psc_stats_get_frame (now), ==, f.frame);
  g_assert_cmpuint (psc_stats_get_rejected (now, PSC_ERROR_CLOSED), >=,
                    psc_stats_get_rejected (closed, PSC_ERROR_CLOSED) + n);
  fixture_finish (&f);
}

/* A waiter that requests again while psc_cache_close calls it: CLOSED. */
static void
test_close_waiter_requests (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 130.0f);
  Requester r = { .cache = f.cache, .ci = &ci };
  g_assert_true (psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     request_again_cb, &r, NULL, NULL)
                 == VK_NULL_HANDLE);
  value = 131.0f;
  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (f.cache, f.frame);
  g_assert_cmpint (r.calls, ==, 1);
  g_assert_cmpint (r.result, ==, VK_INCOMPLETE);
  g_assert_error (r.error, PSC_ERROR, PSC_ERROR_CLOSED);
  g_assert_true (r.pipeline == VK_NULL_HANDLE);
  g_clear_error (&r.error);
  g_assert_true (async_idle (f.cache));
  fixture_finish (&f);
}

/* A callback that drops the last reference while close runs: close holds its
 * own, so the cache is freed only when close returns (AddressSanitizer would
 * see a use after free otherwise). */
typedef struct {
  PscCache *cache;
  gint calls;
} Dropper;

static void
drop_cache_cb (void *context, VkPipeline pipeline, VkResult result)
{
  Dropper *d = context;
  d->calls++;
  g_clear_object (&d->cache);
}

static void
weak_notify_cb (gpointer data, GObject *where)
{
  gboolean *finalized = data;
  *finalized = TRUE;
}

static void
test_close_callback_drops_last_ref (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gboolean finalized = FALSE;
  compute_info (&f, &ci, &spec, &entry, &value, 140.0f);
  PscCache *cache = take_cache (&f);
  Dropper d = { .cache = cache };
  g_object_weak_ref (G_OBJECT (cache), weak_notify_cb, &finalized);
  g_assert_true (psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     drop_cache_cb, &d, NULL, NULL) == VK_NULL_HANDLE);
  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (cache, f.frame);
  g_assert_cmpint (d.calls, ==, 1);
  g_assert_null (d.cache);
  g_assert_true (finalized);
  fixture_finish (&f);
}

/* The same from the pump: a callback that begin_frame runs may drop the last
 * reference (the cache then closes when begin_frame returns). */
static void
test_pump_callback_drops_last_ref (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gboolean finalized = FALSE;
  compute_info (&f, &ci, &spec, &entry, &value, 145.0f);
  PscCache *cache = take_cache (&f);
  Dropper d = { .cache = cache };
  g_object_weak_ref (G_OBJECT (cache), weak_notify_cb, &finalized);
  g_assert_true (psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP, 0,
                                                     drop_cache_cb, &d, NULL, NULL) == VK_NULL_HANDLE);
  for (int i = 0; i < 20000 && d.calls == 0; i++)
    {
      f.frame++;
      /* the device is idle: everything before this frame is complete */
      psc_cache_begin_frame (cache, f.frame, f.frame - 1);
      if (d.calls == 0)
        g_usleep (1000);
    }
  g_assert_cmpint (d.calls, ==, 1);
  g_assert_true (finalized);
  fixture_finish (&f);
}

/* Callbacks of the pump that call the pump again (refused) or close the
 * cache (deferred until the pump returns: the other callbacks of that pump
 * still get their pipelines). */
typedef struct {
  PscCache *cache;
  guint64 frame;
  gint calls;
  gboolean close;
  VkPipeline pipeline;
} Reenter;

static void
reenter_cb (void *context, VkPipeline pipeline, VkResult result)
{
  Reenter *r = context;
  r->calls++;
  r->pipeline = pipeline;
  if (r->close)
    psc_cache_close (r->cache, r->frame);
  else
    {
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*callback that psc_cache_begin_frame*");
      psc_cache_begin_frame (r->cache, r->frame + 100, r->frame);
      g_test_assert_expected_messages ();
    }
}

static void
pump_until (Fixture *f, gint *calls)
{
  for (int i = 0; i < 20000 && *calls == 0; i++)
    {
      next_frame (f);
      if (*calls == 0)
        g_usleep (1000);
    }
  g_assert_cmpint (*calls, ==, 1);
}

static void
test_pump_reentrant (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 146.0f);

  /* A nested begin_frame: a critical, ignored (the frame is unchanged). */
  Reenter nested = { .cache = f.cache, .frame = 0 };
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, reenter_cb, &nested,
                                      NULL, NULL);
  pump_until (&f, &nested.calls);
  g_assert_true (nested.pipeline != VK_NULL_HANDLE);
  g_autoptr(PscStats) s = stats (f.cache);
  g_assert_cmpuint (psc_stats_get_frame (s), ==, f.frame);

  /* close from a callback: the pump finishes, then the cache closes. Two
   * waiters of one key are served by the same pump; the second, called
   * after the first asked to close, still finds its pipeline alive and the
   * cache open (an immediate close would have destroyed it already). */
  value = 147.0f;
  Reenter closer = { .cache = f.cache, .frame = f.frame, .close = TRUE };
  Requester other = { .cache = f.cache, .ci = &ci };
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, reenter_cb, &closer,
                                      NULL, NULL);
  psc_cache_request_compute_pipeline (f.cache, &ci, PSC_MISS_POLICY_SKIP, 0, request_again_cb,
                                      &other, NULL, NULL);
  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  pump_until (&f, &closer.calls);
  g_assert_true (closer.pipeline != VK_NULL_HANDLE);
  g_assert_cmpint (other.calls, ==, 1);
  g_assert_cmpint (other.result, ==, VK_SUCCESS);
  g_assert_no_error (other.error);
  g_assert_true (other.pipeline == closer.pipeline);
  /* Closed now. */
  g_autoptr(GError) error = NULL;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, &ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);
  fixture_finish (&f);
}

/* A GTask still pending when the cache closes completes with CLOSED. */
static void
test_gtask_closed (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  compute_info (&f, &ci, &spec, &entry, &value, 150.0f);
  TaskResult r = { 0 };
  psc_cache_get_compute_pipeline_async (f.cache, &ci, NULL, task_done_cb, &r);
  g_assert_cmpint (r.calls, ==, 0);
  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  psc_cache_close (f.cache, f.frame);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (r.calls, ==, 1);
  g_assert_true (r.pipeline == VK_NULL_HANDLE);
  g_assert_error (r.error, PSC_ERROR, PSC_ERROR_CLOSED);
  g_clear_error (&r.error);
  fixture_finish (&f);
}

/* A GTask discarded by a hot reload completes with DISCARDED, not a generic
 * failure; a failed compile with VULKAN, naming the VkResult. */
static void
test_gtask_discarded_and_failed (void)
{
  Fixture f;
  fixture_init_failing (&f, 1, 0, 0, 1);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;
  compute_info (&f, &ci, &spec, &entry, &value, 160.0f);

  /* The first compile fails (the hook), as the driver would. */
  TaskResult failed = { 0 };
  psc_cache_get_compute_pipeline_async (f.cache, &ci, NULL, task_done_cb, &failed);
  for (int i = 0; i < 20000 && failed.calls == 0; i++)
    {
      next_frame (&f);
      g_main_context_iteration (NULL, FALSE);
      if (failed.calls == 0)
        g_usleep (1000);
    }
  g_assert_cmpint (failed.calls, ==, 1);
  g_assert_error (failed.error, PSC_ERROR, PSC_ERROR_VULKAN);
  g_assert_nonnull (strstr (failed.error->message, "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  g_clear_error (&failed.error);

  /* Then a request of another key, and a reload of its shader before the
   * pump publishes it. */
  value = 161.0f;
  TaskResult discarded = { 0 };
  psc_cache_get_compute_pipeline_async (f.cache, &ci, NULL, task_done_cb, &discarded);
  g_assert_true (psc_cache_replace_shader (f.cache, f.o.cs, code, size, VK_NULL_HANDLE, &error)
                 != VK_NULL_HANDLE);
  g_assert_no_error (error);
  next_frame (&f);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (discarded.calls, ==, 1);
  g_assert_true (discarded.pipeline == VK_NULL_HANDLE);
  g_assert_error (discarded.error, PSC_ERROR, PSC_ERROR_DISCARDED);
  g_clear_error (&discarded.error);
  pump_idle (&f);
  fixture_finish (&f);
}

/* The last reference dropped on a foreign thread: the documented error path.
 * A critical, the cache is closed there, and no callback runs (on that
 * thread or any other). */
static gpointer
unref_on_thread (gpointer data)
{
  g_object_unref (data);
  return NULL;
}

static void
test_finalize_foreign_thread (void)
{
  Fixture f;
  fixture_init (&f, 1, 0, 0);
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  gboolean finalized = FALSE;
  ThreadWaiter w[3] = { 0 };
  compute_info (&f, &ci, &spec, &entry, &value, 170.0f);
  request_pending (&f, &ci, &value, 170.0f, w, G_N_ELEMENTS (w));
  PscCache *cache = take_cache (&f);
  g_object_weak_ref (G_OBJECT (cache), weak_notify_cb, &finalized);

  g_assert_cmpint (vkDeviceWaitIdle (f.h->device), ==, VK_SUCCESS);
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*not the cache's owner thread*");
  GThread *t = g_thread_new ("last-unref", unref_on_thread, cache);
  g_thread_join (t);
  g_test_assert_expected_messages ();
  g_assert_true (finalized);
  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    {
      g_assert_cmpint (w[i].calls, ==, 0);
      g_assert_null (w[i].thread);
    }
  /* The cache's objects were destroyed (the validation layer checks for
   * leaks when the harness destroys the device). */
  fixture_finish (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/async/duplicates-one-job", test_duplicates);
  g_test_add_func ("/async/failure-reaches-every-waiter", test_failure);
  g_test_add_func ("/async/wait-on-compiling", test_wait_on_compiling);
  g_test_add_func ("/async/hot-reload", test_hot_reload);
  g_test_add_func ("/async/double-reload", test_double_reload);
  g_test_add_func ("/async/prepared-after-reload", test_prepared_after_reload);
  g_test_add_func ("/async/eviction-timeline", test_eviction);
  g_test_add_func ("/async/auto-eviction", test_auto_eviction);
  g_test_add_func ("/async/prepared-eviction", test_prepared_eviction);
  g_test_add_func ("/async/hit-keeps-alive", test_hit_keeps_alive);
  g_test_add_func ("/async/reload-same-handle", test_reload_same_handle);
  g_test_add_func ("/async/overflow", test_overflow);
  g_test_add_func ("/async/fallback", test_fallback);
  g_test_add_func ("/async/gtask-cancel", test_gtask);
  g_test_add_func ("/async/shutdown", test_shutdown);
  g_test_add_func ("/async/shutdown-reentrant", test_shutdown_reentrant);
  g_test_add_func ("/async/bad-arguments", test_bad_arguments);
  g_test_add_func ("/async/close-then-dispose", test_close_then_dispose);
  g_test_add_func ("/async/close-twice", test_close_twice);
  g_test_add_func ("/async/requests-after-close", test_requests_after_close);
  g_test_add_func ("/async/close-waiter-requests", test_close_waiter_requests);
  g_test_add_func ("/async/close-callback-drops-last-ref", test_close_callback_drops_last_ref);
  g_test_add_func ("/async/pump-callback-drops-last-ref", test_pump_callback_drops_last_ref);
  g_test_add_func ("/async/pump-reentrant", test_pump_reentrant);
  g_test_add_func ("/async/gtask-closed", test_gtask_closed);
  g_test_add_func ("/async/gtask-discarded-and-failed", test_gtask_discarded_and_failed);
  g_test_add_func ("/async/finalize-foreign-thread", test_finalize_foreign_thread);
  return g_test_run ();
}
