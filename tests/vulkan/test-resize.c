/* test-resize: the demo's full frame path, across a resize of its targets,
 * makes no new creation after frame 1.
 *
 * Every frame requests all 106 graphics pipelines and the compute pipeline;
 * the resize recreates the targets (same formats and samples) and, on the
 * legacy backend, asks for the compatibility passes again. From frame 2 on,
 * every creations counter stays where frame 1 left it, and each frame adds
 * exactly one hit per pipeline.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
run (gboolean dynamic_rendering, PscBackend backend, gboolean prepared)
{
  PscTestHarness *h = psc_test_harness_new (dynamic_rendering);
  PscCache *cache = psc_test_harness_cache (h, backend, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDemoScene) scene = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult result = { 0 };
  g_autoptr(PscStats) after_first = NULL;
  guint frames = 6, resize_at = 4;

  psc_test_scene_options_init (&options);
  options.prepared = prepared;
  scene = psc_demo_scene_new (cache, &options, &error);
  g_assert_no_error (error);

  for (guint f = 1; f <= frames; f++)
    {
      if (f == resize_at)
        {
          g_assert_true (psc_demo_scene_resize (scene, options.width * 3 / 2,
                                                options.height * 3 / 2, &error));
          g_assert_no_error (error);
        }
      g_assert_true (psc_demo_scene_render_frame (scene, f == frames ? PSC_DEMO_FRAME_READ_BACK
                                                                     : PSC_DEMO_FRAME_NONE,
                                                  &error));
      g_assert_no_error (error);

      g_autoptr(PscStats) now = psc_cache_get_stats (cache);
      g_assert_cmpuint (psc_stats_get_frame (now), ==, f);
      if (f == 1)
        {
          after_first = psc_stats_ref (now);
          g_assert_cmpuint (psc_stats_get_counter (now, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES), >=, 100);
          g_assert_cmpuint (psc_stats_get_counter (now, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES), >=, 8);
          continue;
        }
      for (guint k = 0; k < psc_test_n_kinds (); k++)
        {
          g_assert_cmpuint (psc_stats_get_counter (now, k, PSC_COUNTER_CREATIONS), ==, psc_stats_get_counter (after_first, k, PSC_COUNTER_CREATIONS));
          g_assert_cmpuint (psc_stats_get_counter (now, k, PSC_COUNTER_MISSES), ==, psc_stats_get_counter (after_first, k, PSC_COUNTER_MISSES));
          g_assert_cmpuint (psc_stats_get_counter (now, k, PSC_COUNTER_ENTRIES), ==, psc_stats_get_counter (after_first, k, PSC_COUNTER_ENTRIES));
        }
      /* the prepared path counts its hits too */
      g_assert_cmpuint (psc_stats_get_counter (now, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_HITS) -
                        psc_stats_get_counter (after_first, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_HITS),
                        ==, (guint64) (f - 1) * 106);
      g_assert_cmpuint (psc_stats_get_counter (now, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HITS) -
                        psc_stats_get_counter (after_first, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HITS),
                        ==, (guint64) (f - 1));
      psc_test_harness_assert_clean (h);
    }

  psc_demo_scene_get_result (scene, &result);
  g_assert_cmpuint (result.graphics_pipelines, ==, 106);
  g_assert_cmpuint (result.creations_at_end, ==, result.creations_after_frame_1);
  /* Frame 1 creates every pipeline (the prepared path may have created them
   * already when preparing); every later request is a hit. */
  g_assert_cmpuint (result.pipeline_created.calls + result.pipeline_hit.calls, ==, frames * 107);
  g_assert_cmpuint (result.pipeline_created.calls, <=, 107);
  if (!prepared)
    g_assert_cmpuint (result.pipeline_created.calls, ==, 107);
  g_test_message ("pipeline hits: %" G_GUINT64_FORMAT " calls, %.0f ns each; creations: %"
                  G_GUINT64_FORMAT " calls, %.2f ms each",
                  result.pipeline_hit.calls,
                  result.pipeline_hit.calls ? (double) result.pipeline_hit.ns / result.pipeline_hit.calls : 0.0,
                  result.pipeline_created.calls,
                  result.pipeline_created.calls ? (double) result.pipeline_created.ns / result.pipeline_created.calls / 1e6 : 0.0);

  g_assert_nonnull (psc_demo_scene_get_pixels (scene, NULL, NULL));
  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_demo_scene_result_clear (&result);
  psc_test_harness_finish (h);
}

static void
test_resize_dynamic (void)
{
  run (TRUE, PSC_BACKEND_DYNAMIC_RENDERING, FALSE);
}

static void
test_resize_legacy (void)
{
  run (FALSE, PSC_BACKEND_LEGACY, FALSE);
}

static void
test_resize_prepared (void)
{
  run (TRUE, PSC_BACKEND_DYNAMIC_RENDERING, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/resize/dynamic-rendering", test_resize_dynamic);
  g_test_add_func ("/vulkan/resize/legacy", test_resize_legacy);
  g_test_add_func ("/vulkan/resize/prepared", test_resize_prepared);
  return g_test_run ();
}
