/* test-lifetime: cache-owned layouts and pipelines outlive the caller's
 * shader disposal.
 *
 * The scene renders a frame, then the caller releases every shader module it
 * registered (as an engine disposing its shaders would). The cache's
 * samplers, set layouts, pipeline layouts and compatibility passes are still
 * there (asking again hits with the same handles), and the pipelines the
 * scene borrowed in that frame still draw, within the borrow window, with
 * the validation layer silent and the same image as before.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
run (gboolean dynamic_rendering)
{
  PscTestHarness *h = psc_test_harness_new (dynamic_rendering);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDemoScene) scene = NULL;
  PscDemoSceneOptions options;
  g_autofree guint8 *before = NULL;
  const guint8 *after;
  guint w, h_px;
  guint64 creations;
  gboolean same = FALSE;

  psc_test_scene_options_init (&options);
  scene = psc_demo_scene_new (cache, &options, &error);
  g_assert_no_error (error);
  g_assert_true (psc_demo_scene_render_frame (scene, PSC_DEMO_FRAME_READ_BACK, &error));
  g_assert_no_error (error);
  after = psc_demo_scene_get_pixels (scene, &w, &h_px);
  before = g_memdup2 (after, (gsize) w * h_px * 4);
  creations = psc_test_total_creations (cache);

  /* the caller disposes of its shaders */
  for (int i = 0; i < PSC_DEMO_SHADER_COUNT; i++)
    {
      g_assert_true (psc_cache_release_shader (cache, psc_demo_scene_get_shader (scene, (PscDemoShader) i),
                                               &error));
      g_assert_no_error (error);
    }
  g_test_message ("shader-module entries after release: %" G_GUINT64_FORMAT,
                  psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES));

  /* layouts, samplers and compatibility passes are unaffected */
  g_assert_true (psc_demo_scene_request_layouts (scene, &same, &error));
  g_assert_no_error (error);
  g_assert_true (same);
  g_assert_cmpuint (psc_test_total_creations (cache), ==, creations);

  /* the borrowed pipelines still draw (frames 2 and 3 are within
   * PSC_BORROW_FRAMES of frame 1, their last request) */
  G_STATIC_ASSERT (PSC_BORROW_FRAMES >= 2);
  g_assert_true (psc_demo_scene_render_frame (scene, PSC_DEMO_FRAME_KEEP_PIPELINES, &error));
  g_assert_no_error (error);
  g_assert_true (psc_demo_scene_render_frame (scene, PSC_DEMO_FRAME_KEEP_PIPELINES |
                                                     PSC_DEMO_FRAME_READ_BACK, &error));
  g_assert_no_error (error);
  psc_test_harness_assert_clean (h);

  after = psc_demo_scene_get_pixels (scene, NULL, NULL);
  g_assert_cmpuint (psc_test_compare_images (before, after, w, h_px, NULL), ==, 0);
  g_assert_cmpuint (psc_test_total_creations (cache), ==, creations);

  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_test_harness_finish (h);
}

static void
test_lifetime_dynamic (void)
{
  run (TRUE);
}

static void
test_lifetime_legacy (void)
{
  run (FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/lifetime/dynamic-rendering", test_lifetime_dynamic);
  g_test_add_func ("/vulkan/lifetime/legacy", test_lifetime_legacy);
  return g_test_run ();
}
