/* test-backends: the dynamic-rendering and legacy backends render the demo
 * scene to the same image.
 *
 * The comparison is byte-exact: on Mesa lavapipe both backends run the same
 * rasterizer, shaders and resolve, so any difference is a bug (a wrong
 * attachment description, a pipeline built against the wrong state). With
 * PSC_TEST_ANY_DRIVER=1 on other drivers, a tolerance of 2/255 per channel
 * on at most 0.1% of the pixels applies instead, since MSAA resolve may
 * differ between a subpass resolve and a rendering resolve there.
 *
 * The legacy run uses a device created without dynamic rendering, the case
 * the backend exists for.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
test_backends_match (void)
{
  PscDemoSceneResult dynamic = { 0 }, legacy = { 0 };
  gboolean exact = g_strcmp0 (g_getenv ("PSC_TEST_ANY_DRIVER"), "1") != 0;
  gsize differing;
  guint max_diff;

  psc_test_render_scene (TRUE, PSC_BACKEND_AUTO, FALSE, &dynamic);
  psc_test_render_scene (FALSE, PSC_BACKEND_AUTO, FALSE, &legacy);

  g_assert_cmpuint (dynamic.width, ==, legacy.width);
  g_assert_cmpuint (dynamic.height, ==, legacy.height);
  psc_test_assert_scene_image (&dynamic);
  psc_test_assert_scene_image (&legacy);

  differing = psc_test_compare_images (dynamic.pixels, legacy.pixels, dynamic.width,
                                       dynamic.height, &max_diff);
  g_test_message ("%" G_GSIZE_FORMAT " of %u pixels differ, largest channel difference %u",
                  differing, dynamic.width * dynamic.height, max_diff);
  if (differing > 0)
    {
      psc_test_save_image ("backends-dynamic.ppm", &dynamic);
      psc_test_save_image ("backends-legacy.ppm", &legacy);
    }
  if (exact)
    g_assert_cmpuint (differing, ==, 0);
  else
    {
      g_assert_cmpuint (max_diff, <=, 2);
      g_assert_cmpuint (differing * 1000, <=, (gsize) dynamic.width * dynamic.height);
    }

  psc_demo_scene_result_clear (&dynamic);
  psc_demo_scene_result_clear (&legacy);
}

static void
test_backends_forced_legacy (void)
{
  PscDemoSceneResult dynamic = { 0 }, legacy = { 0 };

  /* The legacy backend forced on a device that has dynamic rendering. */
  psc_test_render_scene (TRUE, PSC_BACKEND_DYNAMIC_RENDERING, FALSE, &dynamic);
  psc_test_render_scene (TRUE, PSC_BACKEND_LEGACY, FALSE, &legacy);
  psc_test_assert_scene_image (&legacy);
  if (g_strcmp0 (g_getenv ("PSC_TEST_ANY_DRIVER"), "1") != 0)
    g_assert_cmpuint (psc_test_compare_images (dynamic.pixels, legacy.pixels, dynamic.width,
                                               dynamic.height, NULL), ==, 0);
  psc_demo_scene_result_clear (&dynamic);
  psc_demo_scene_result_clear (&legacy);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/backends/images-match", test_backends_match);
  g_test_add_func ("/vulkan/backends/forced-legacy", test_backends_forced_legacy);
  return g_test_run ();
}
