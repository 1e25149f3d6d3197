/* test-prepared: the prepared path returns the same handle as the direct
 * path, in either order, for graphics and compute pipelines, and the demo
 * scene renders the same image through either path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
check_graphics (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  PscTestGraphicsInfo g;
  guint32 id, id_again;
  VkPipeline direct, prepared;

  /* direct first, then prepared */
  psc_test_graphics_info_init (&g, o, cache);
  direct = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  id = psc_cache_prepare_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (id, !=, 0);
  prepared = psc_cache_get_prepared_pipeline (cache, id, &error);
  g_assert_no_error (error);
  g_assert_true (prepared == direct);

  /* preparing the same content again gives the same pipeline */
  id_again = psc_cache_prepare_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_get_prepared_pipeline (cache, id_again, &error) == direct);
  g_assert_no_error (error);

  /* prepared first (a key nobody asked for yet), then direct */
  psc_test_graphics_info_init (&g, o, cache);
  g.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  id = psc_cache_prepare_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  prepared = psc_cache_get_prepared_pipeline (cache, id, &error);
  g_assert_no_error (error);
  g_assert_true (prepared != VK_NULL_HANDLE);
  g_assert_true (prepared != direct);
  direct = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_true (prepared == direct);

  /* every frame: the same handle, no creation */
  {
    guint64 creations = psc_test_total_creations (cache);

    for (guint f = 0; f < 10; f++)
      {
        g_assert_true (psc_cache_get_prepared_pipeline (cache, id, &error) == direct);
        g_assert_no_error (error);
      }
    g_assert_cmpuint (psc_test_total_creations (cache), ==, creations);
  }

  /* an id that was never issued */
  g_assert_true (psc_cache_get_prepared_pipeline (cache, 0, &error) == VK_NULL_HANDLE);
  g_assert_nonnull (error);
  g_assert_true (error->domain == PSC_ERROR);
  g_clear_error (&error);
}

static void
check_compute (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  guint32 id;
  VkPipeline direct;

  psc_test_compute_info_init (&ci, &spec, &entry, &value, o);
  id = psc_cache_prepare_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (id, !=, 0);
  direct = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_get_prepared_pipeline (cache, id, &error) == direct);
  g_assert_no_error (error);
}

static void
run (gboolean dynamic_rendering)
{
  PscTestHarness *h = psc_test_harness_new (dynamic_rendering);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;

  psc_test_objects_init (&o, cache);
  check_graphics (cache, &o);
  check_compute (cache, &o);
  psc_test_harness_finish (h);
}

static void
test_prepared_dynamic (void)
{
  run (TRUE);
}

static void
test_prepared_legacy (void)
{
  run (FALSE);
}

static void
test_prepared_scene (void)
{
  PscDemoSceneResult direct = { 0 }, prepared = { 0 };

  psc_test_render_scene (TRUE, PSC_BACKEND_AUTO, FALSE, &direct);
  psc_test_render_scene (TRUE, PSC_BACKEND_AUTO, TRUE, &prepared);
  psc_test_assert_scene_image (&prepared);
  g_assert_cmpuint (psc_test_compare_images (direct.pixels, prepared.pixels, direct.width,
                                             direct.height, NULL), ==, 0);
  g_assert_cmpuint (prepared.creations_at_end, ==, prepared.creations_after_frame_1);
  psc_demo_scene_result_clear (&direct);
  psc_demo_scene_result_clear (&prepared);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/prepared/dynamic-rendering", test_prepared_dynamic);
  g_test_add_func ("/vulkan/prepared/legacy", test_prepared_legacy);
  g_test_add_func ("/vulkan/prepared/scene", test_prepared_scene);
  return g_test_run ();
}
