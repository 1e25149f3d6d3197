/* demo-test.h: helpers the tests of the demo scene's asynchronous mode
 * share (test-demo-async.c, test-demo-materials.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "harness.h"

/* A cache of @h's device with two workers whatever the machine, so the
 * runs look alike everywhere; @h closes it. */
static inline PscCache *
demo_test_async_cache (PscTestHarness *h, PscBackend backend)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscCache *cache;

  options.workers = 2;
  cache = psc_cache_new_full (h->psc_device, backend, PSC_CACHE_FLAGS_NONE, &options, &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

static inline void
demo_test_render (PscDemoScene *scene, PscDemoFrameFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_assert_true (psc_demo_scene_render_frame (scene, flags, &error));
  g_assert_no_error (error);
}

static inline const PscDemoAsyncFrame *
demo_test_last_frame (PscDemoScene *scene)
{
  guint n = 0;
  const PscDemoAsyncFrame *frames = psc_demo_scene_get_async_frames (scene, &n);
  g_assert_cmpuint (n, >, 0);
  return &frames[n - 1];
}

static inline PscDemoAsyncStats
demo_test_stats (PscDemoScene *scene)
{
  PscDemoAsyncStats a;
  psc_demo_scene_get_async_stats (scene, &a);
  return a;
}
