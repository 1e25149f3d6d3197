/* test-demo-async.c: the demo scene's asynchronous mode on lavapipe with the
 * validation layer, on both backends: fallbacks drawn while the workers
 * compile, no owner-thread compile in the frame loop, a hot reload drawn
 * stale (or with fallbacks) until the new generation is Ready, far-LOD
 * pipelines evicted, retired and compiled again, and a converged final image
 * identical to a synchronous render with the reloaded shader.
 *
 * The test drives the scene frame by frame (the same calls
 * psc_demo_scene_run makes in async mode), so every phase waits for what it
 * checks instead of assuming how fast the workers are; the last test runs
 * psc_demo_scene_run itself, as psocache-demo --async does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "demo-test.h"

#include <string.h>

#define WIDTH 160
#define HEIGHT 120
/* Fail rather than hang if something never becomes Ready. */
#define PHASE_TIMEOUT_US (90 * G_USEC_PER_SEC)

/* Near pipelines that draw with the reloaded shader: fs_lit tiles of pass C
 * (8, two of them far) and pass A (12, two of them far). */
#define RELOAD_PIPELINES 20
#define RELOAD_NEAR_PIPELINES 16
#define FAR_PIPELINES 14
/* (layout, pass): B, C, PRE, A, A composite. */
#define FALLBACK_PIPELINES 5

static PscStats *
cache_stats (PscCache *cache)
{
  return psc_cache_get_stats (cache);
}

static guint64
cache_async_count (PscCache *cache, PscAsyncCounter counter)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_async (s, counter);
}

static void
save (const char *what, gboolean dynamic, const guint8 *pixels, guint width, guint height)
{
  PscDemoSceneResult r = { .width = width, .height = height, .pixels = (guint8 *) pixels };
  g_autofree char *name = g_strdup_printf ("demo-async-%s-%s.ppm", what,
                                           dynamic ? "dynamic" : "legacy");
  psc_test_save_image (name, &r);
}

/* The synchronous scene (one frame) on a fresh cache of @h's device. */
static void
render_sync (PscTestHarness *h, gboolean reloaded, PscDemoSceneResult *result)
{
  g_autoptr(GError) error = NULL;
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  PscDemoSceneOptions options;

  psc_demo_scene_options_init (&options);
  options.width = WIDTH;
  options.height = HEIGHT;
  options.frames = 1;
  options.reloaded = reloaded;
  g_assert_true (psc_demo_scene_run (cache, &options, result, &error));
  g_assert_no_error (error);
  g_assert_nonnull (result->pixels);
  /* Synchronous: the owner thread compiled everything. */
  g_assert_cmpuint (cache_async_count (cache, PSC_ASYNC_COUNTER_COMPLETED), ==, 0);
  psc_test_harness_drop_cache (h, cache);
}

static void
assert_matches_sync (PscTestHarness *h, const guint8 *pixels, guint width, guint height,
                     gboolean dynamic)
{
  PscDemoSceneResult reloaded = { 0 }, original = { 0 };
  guint max_diff = 0;
  gsize differing;

  g_assert_cmpuint (width, ==, WIDTH);
  g_assert_cmpuint (height, ==, HEIGHT);

  /* Byte-exact: the same create infos on the same driver. */
  render_sync (h, TRUE, &reloaded);
  differing = psc_test_compare_images (pixels, reloaded.pixels, width, height, &max_diff);
  if (differing != 0)
    {
      save ("sync-reference", dynamic, reloaded.pixels, width, height);
      g_test_message ("%" G_GSIZE_FORMAT " pixels differ, by up to %u", differing, max_diff);
    }
  g_assert_cmpuint (differing, ==, 0);

  /* And the reload shows: the tinted tiles and the panel compositing C. */
  render_sync (h, FALSE, &original);
  differing = psc_test_compare_images (pixels, original.pixels, width, height, &max_diff);
  g_test_message ("the tint changes %" G_GSIZE_FORMAT " pixels, by up to %u", differing, max_diff);
  g_assert_cmpuint (differing, >, (gsize) width * height / 20);
  g_assert_cmpuint (max_diff, >, 32);

  psc_demo_scene_result_clear (&reloaded);
  psc_demo_scene_result_clear (&original);
}

static void
test_phases (gconstpointer data)
{
  gboolean dynamic = GPOINTER_TO_INT (data);
  PscTestHarness *h = psc_test_harness_new (dynamic);
  PscCache *cache = demo_test_async_cache (h, PSC_BACKEND_AUTO);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDemoScene) scene = NULL;
  PscDemoSceneOptions options;
  const PscDemoAsyncFrame *f;
  PscDemoAsyncStats a;
  g_autoptr(PscStats) before = NULL;
  g_autoptr(PscStats) s = NULL;
  gint64 deadline;
  const guint8 *pixels;
  g_autofree guint8 *final_pixels = NULL;
  guint width = 0, height = 0;
  guint64 fallback_draws_before_reload;

  psc_demo_scene_options_init (&options);
  options.width = WIDTH;
  options.height = HEIGHT;
  options.async = TRUE;
  /* far_lod_interval 8, eviction_idle_frames 4: the defaults. */
  scene = psc_demo_scene_new (cache, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (scene);
  /* Eviction starts after the first frame's requests. */
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (cache), ==, 0);

  /* Setup: the fallbacks and the compute pipeline, synchronously, and
   * nothing else. */
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.fallback_pipelines, ==, FALLBACK_PIPELINES);
  g_assert_cmpuint (a.far_pipelines, ==, FAR_PIPELINES);
  g_assert_cmpuint (a.reload_pipelines, ==, RELOAD_PIPELINES);
  g_assert_cmpuint (a.setup_owner_wait_ns, >, 0);
  g_clear_pointer (&before, psc_stats_unref);
  g_clear_pointer (&before, psc_stats_unref);
  before = cache_stats (cache);
  g_assert_cmpuint (psc_stats_get_counter (before, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS), ==,
                    FALLBACK_PIPELINES);
  g_assert_cmpuint (psc_stats_get_counter (before, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, 1);
  g_assert_cmpuint (psc_stats_get_async (before, PSC_ASYNC_COUNTER_COMPLETED), ==, 0);

  /* 1. Frame 1: nothing is Ready before a pump publishes it, so every tile
   *    is drawn with its layout and pass's fallback. */
  demo_test_render (scene, PSC_DEMO_FRAME_READ_BACK);
  pixels = psc_demo_scene_get_pixels (scene, &width, &height);
  save ("frame1-fallbacks", dynamic, pixels, width, height);
  g_assert_cmpuint (psc_test_count_colors (pixels, width, height), >=, 16);
  f = demo_test_last_frame (scene);
  g_assert_cmpuint (f->frame, ==, 1);
  g_assert_true (f->far_lods);
  g_assert_cmpuint (f->requested, ==, 106);
  g_assert_cmpuint (f->exact, ==, 0);
  g_assert_cmpuint (f->fallback, ==, 106);
  g_assert_cmpuint (f->stale + f->skipped, ==, 0);
  g_assert_true (f->compute_exact);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (cache), ==, 4);

  /* 2. The workers compile while frames keep drawing fallbacks, until a
   *    frame draws everything it requested exactly. */
  deadline = g_get_monotonic_time () + PHASE_TIMEOUT_US;
  do
    {
      demo_test_render (scene, PSC_DEMO_FRAME_NONE);
      f = demo_test_last_frame (scene);
    }
  while (f->exact != f->requested && g_get_monotonic_time () < deadline);
  g_assert_cmpuint (f->exact, ==, f->requested);
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.fallback_draws, >=, 106);
  g_assert_cmpuint (a.skipped_draws, ==, 0);
  g_assert_cmpuint (cache_async_count (cache, PSC_ASYNC_COUNTER_COMPLETED), >=, 106 - FAR_PIPELINES);
  fallback_draws_before_reload = a.fallback_draws;

  /* 3. Hot reload: the near pipelines using the shader were Ready, so the
   *    next frame draws them with the previous generation, flagged stale,
   *    while the new generation compiles. */
  g_assert_true (psc_demo_scene_reload_shader (scene, &error));
  g_assert_no_error (error);
  demo_test_render (scene, PSC_DEMO_FRAME_NONE);
  f = demo_test_last_frame (scene);
  g_assert_true (f->reload);
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.reload_frame, ==, f->frame);
  g_assert_cmpuint (f->stale, >=, RELOAD_NEAR_PIPELINES);
  g_assert_cmpuint (a.reload_stale_draws, >=, RELOAD_NEAR_PIPELINES);
  g_assert_cmpuint (a.reload_exact_draws, ==, 0);
  g_assert_cmpuint (f->skipped, ==, 0);
  g_test_message ("reload frame %u: %u exact, %u stale, %u fallback", f->frame, f->exact,
                  f->stale, f->fallback);

  /* 4. Frames go on with the far-LOD set every 8th frame only, until the
   *    new generation was drawn, idle far pipelines were evicted and
   *    compiled again when requested, and retired handles were destroyed
   *    once the timeline passed them. */
  deadline = g_get_monotonic_time () + PHASE_TIMEOUT_US;
  for (;;)
    {
      demo_test_render (scene, PSC_DEMO_FRAME_NONE);
      a = demo_test_stats (scene);
      g_clear_pointer (&s, psc_stats_unref);
      g_clear_pointer (&s, psc_stats_unref);
      s = cache_stats (cache);
      if ((a.first_new_generation_frame != 0 && psc_stats_get_async (s, PSC_ASYNC_COUNTER_EVICTIONS) > 0 &&
           a.recompiles_after_eviction > 0 && psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED) > 0) ||
          g_get_monotonic_time () >= deadline)
        break;
    }
  g_test_message ("after %u frames: new generation first drawn at frame %u; %" G_GUINT64_FORMAT
                  " evictions, %" G_GUINT64_FORMAT " recompiles, %" G_GUINT64_FORMAT " retired",
                  demo_test_last_frame (scene)->frame, a.first_new_generation_frame, psc_stats_get_async (s, PSC_ASYNC_COUNTER_EVICTIONS),
                  a.recompiles_after_eviction, psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED));
  g_assert_cmpuint (a.first_new_generation_frame, >, a.reload_frame);
  g_assert_cmpuint (a.reload_exact_draws, >, 0);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_EVICTIONS), >, 0);
  g_assert_cmpuint (a.recompiles_after_eviction, >, 0);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_RETIRED), >, 0);
  /* The reload discarded nothing it should not have: stale results of the
   * old generation were never published. */
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_FAILED), ==, 0);

  /* 5. Converge: every LOD each frame, until one draws every pipeline
   *    exactly (the evicted far ones compile again meanwhile). */
  deadline = g_get_monotonic_time () + PHASE_TIMEOUT_US;
  do
    {
      demo_test_render (scene, PSC_DEMO_FRAME_ALL_LODS | PSC_DEMO_FRAME_READ_BACK);
      a = demo_test_stats (scene);
    }
  while (!a.last_frame_exact && g_get_monotonic_time () < deadline);
  g_assert_true (a.last_frame_exact);
  f = demo_test_last_frame (scene);
  g_assert_cmpuint (f->exact, ==, 106);
  g_assert_true (f->compute_exact);

  /* The owner thread never compiled in the frame loop. */
  g_clear_pointer (&s, psc_stats_unref);
  g_clear_pointer (&s, psc_stats_unref);
  s = cache_stats (cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_OWNER_WAIT_NS), ==, psc_stats_get_async (before, PSC_ASYNC_COUNTER_OWNER_WAIT_NS));
  g_assert_cmpuint (a.loop_owner_wait_ns, ==, 0);
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, 1);
  /* Every compile after the setup ran on a worker. */
  g_assert_cmpuint (psc_stats_get_counter (s, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS), ==,
                    FALLBACK_PIPELINES + psc_stats_get_async (s, PSC_ASYNC_COUNTER_COMPLETED));
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_COMPLETED), >=, 106 + RELOAD_PIPELINES - 4 /* far ones, if idle */);
  /* The scene's counts agree with the cache's. */
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_FALLBACKS_RETURNED), ==, a.fallback_draws);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_STALE_RETURNED), ==, a.stale_draws);
  g_assert_cmpuint (a.fallback_draws, >, fallback_draws_before_reload);
  g_assert_cmpuint (a.skipped_draws + a.queue_full, ==, 0);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_OVERFLOW_SKIPS) + psc_stats_get_async (s, PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS), ==, 0);
  psc_test_harness_assert_clean (h);

  pixels = psc_demo_scene_get_pixels (scene, &width, &height);
  final_pixels = g_memdup2 (pixels, (gsize) width * height * 4);
  save ("final", dynamic, final_pixels, width, height);
  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_test_harness_drop_cache (h, cache);

  /* 6. The converged image is the synchronous render with the reloaded
   *    shader, byte for byte. */
  assert_matches_sync (h, final_pixels, width, height, dynamic);
  psc_test_harness_finish (h);
}

/* psc_demo_scene_run in async mode, as psocache-demo --async runs it:
 * reload at the middle frame, converge, read back. */
static void
test_run (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = demo_test_async_cache (h, PSC_BACKEND_AUTO);
  g_autoptr(GError) error = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult result = { 0 };
  g_autoptr(PscStats) s = NULL;

  psc_demo_scene_options_init (&options);
  options.width = WIDTH;
  options.height = HEIGHT;
  options.async = TRUE;
  options.frames = 12;
  g_assert_true (psc_demo_scene_run (cache, &options, &result, &error));
  g_assert_no_error (error);

  g_assert_true (result.async);
  g_assert_true (result.async_stats.converged);
  g_assert_cmpuint (result.async_stats.reload_frame, ==, 7);
  g_assert_cmpuint (result.async_stats.loop_owner_wait_ns, ==, 0);
  g_assert_cmpuint (result.async_stats.reload_stale_draws + result.async_stats.reload_fallback_draws,
                    >, 0);
  g_assert_cmpuint (result.async_stats.reload_exact_draws, >, 0);
  g_assert_cmpuint (result.n_async_frames, ==, result.frames);
  g_assert_cmpuint (result.n_async_frames, >, 12);
  g_assert_true (result.async_frames[6].reload);
  g_assert_cmpuint (result.async_frames[0].fallback, ==, 106);
  g_assert_cmpuint (result.async_frames[result.n_async_frames - 1].exact, ==, 106);
  g_assert_cmpuint (result.shader_modules, ==, PSC_DEMO_SHADER_COUNT + 1);
  g_assert_nonnull (result.pixels);
  g_clear_pointer (&s, psc_stats_unref);
  g_clear_pointer (&s, psc_stats_unref);
  s = cache_stats (cache);
  g_assert_cmpuint (psc_stats_get_async (s, PSC_ASYNC_COUNTER_FALLBACKS_RETURNED), ==, result.async_stats.fallback_draws);
  psc_test_harness_assert_clean (h);
  psc_test_harness_drop_cache (h, cache);

  assert_matches_sync (h, result.pixels, result.width, result.height, TRUE);
  psc_demo_scene_result_clear (&result);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/demo-async/dynamic-rendering", GINT_TO_POINTER (TRUE), test_phases);
  g_test_add_data_func ("/demo-async/legacy", GINT_TO_POINTER (FALSE), test_phases);
  g_test_add_func ("/demo-async/run", test_run);
  return g_test_run ();
}
