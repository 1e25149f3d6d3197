/* test-pass-through: with PSC_CACHE_FLAGS_PASS_THROUGH the cache is off:
 * every request creates a new object (nothing is deduplicated), and the
 * demo scene still renders the same image as with the cache on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
test_pass_through_creates_every_time (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_PASS_THROUGH);
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  PscTestGraphicsInfo g;
  VkSamplerCreateInfo si = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR,
    .minFilter = VK_FILTER_LINEAR,
    .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
  };
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  g_autoptr(PscStats) before = NULL;
  g_autoptr(PscStats) after = NULL;
  const guint n = 3;

  g_assert_true (psc_cache_get_flags (cache) & PSC_CACHE_FLAGS_PASS_THROUGH);
  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);
  psc_test_compute_info_init (&ci, &spec, &entry, &value, &o);

  before = psc_cache_get_stats (cache);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (psc_cache_get_sampler (cache, &si, &error) != VK_NULL_HANDLE);
      g_assert_no_error (error);
      g_assert_true (psc_cache_get_graphics_pipeline (cache, &g.ci, &error) != VK_NULL_HANDLE);
      g_assert_no_error (error);
      g_assert_true (psc_cache_get_compute_pipeline (cache, &ci, &error) != VK_NULL_HANDLE);
      g_assert_no_error (error);
    }
  after = psc_cache_get_stats (cache);

  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_CREATIONS) -
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_CREATIONS), ==, n);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS) -
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS), ==, n);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS) -
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, n);
  g_assert_cmpuint (psc_stats_get_total (after, PSC_COUNTER_HITS), ==, 0);

  psc_test_harness_finish (h);
}

static void
test_pass_through_scene (void)
{
  PscTestSceneRun run;
  PscDemoSceneResult cached = { 0 }, pass_through = { 0 };

  psc_test_render_scene (TRUE, PSC_BACKEND_AUTO, FALSE, &cached);

  psc_test_scene_run_init (&run);
  run.cache_flags = PSC_CACHE_FLAGS_PASS_THROUGH;
  psc_test_render_scene_run (&run, &pass_through);

  /* every frame created every pipeline again */
  g_assert_cmpuint (pass_through.pipeline_hit.calls, ==, 0);
  g_assert_cmpuint (pass_through.pipeline_created.calls, ==, (guint64) pass_through.frames * 107);
  g_assert_cmpuint (pass_through.creations_at_end - pass_through.creations_after_frame_1, >=,
                    (guint64) (pass_through.frames - 1) * 107);

  psc_test_assert_scene_image (&pass_through);
  g_assert_cmpuint (psc_test_compare_images (cached.pixels, pass_through.pixels, cached.width,
                                             cached.height, NULL), ==, 0);
  psc_demo_scene_result_clear (&cached);
  psc_demo_scene_result_clear (&pass_through);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/pass-through/creates-every-time", test_pass_through_creates_every_time);
  g_test_add_func ("/vulkan/pass-through/scene", test_pass_through_scene);
  return g_test_run ();
}
