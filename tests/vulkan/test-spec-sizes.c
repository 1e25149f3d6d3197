/* test-spec-sizes.c: the cache reads the SPIR-V it is given. A map entry
 * whose size is not the size of the specialization constant the shader
 * declares is refused with its field path before the driver sees it (the
 * validation layer would report VUID-VkSpecializationMapEntry-constantID-
 * 00776, and the harness fails on any validation error); malformed SPIR-V
 * is refused at registration, naming the word, and no module is created.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

static void
test_entry_sizes (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;
  psc_test_objects_init (&o, cache);
  g_autoptr(GError) error = NULL;

  /* Graphics: the fragment shader declares two 4-byte int constants. */
  PscTestGraphicsInfo g;
  psc_test_graphics_info_init (&g, &o, cache);
  guint8 data[16] = { 0 };
  g.spec.pData = data;
  g.spec.dataSize = sizeof data;
  g.spec_entries[1].size = 8;
  g_assert_true (psc_cache_get_graphics_pipeline (cache, &g.ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "pStages[1].pSpecializationInfo->pMapEntries[1].size: 8 "
                                            "does not match the 4-byte specialization constant 1"));
  g_clear_error (&error);
  /* The right size creates it. */
  g.spec_entries[1].size = 4;
  g_assert_true (psc_cache_get_graphics_pipeline (cache, &g.ci, &error) != VK_NULL_HANDLE);
  g_assert_no_error (error);

  /* Compute: the palette shader declares one float. */
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  psc_test_compute_info_init (&ci, &spec, &entry, &value, &o);
  double wide = 0.5;
  spec.pData = &wide;
  spec.dataSize = sizeof wide;
  entry.size = sizeof wide;
  g_assert_true (psc_cache_get_compute_pipeline (cache, &ci, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "stage.pSpecializationInfo->pMapEntries[0].size"));
  g_clear_error (&error);
  /* An id the shader does not declare may have any size (Vulkan ignores
   * it). */
  entry.constantID = 7;
  g_assert_true (psc_cache_get_compute_pipeline (cache, &ci, &error) != VK_NULL_HANDLE);
  g_assert_no_error (error);
  psc_test_harness_finish (h);
}

static void
test_malformed_spirv (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autofree guint32 *bad = g_memdup2 (code, size);
  /* The first instruction after the header gets a word count of 0. */
  bad[5] &= 0x0000ffffu;
  g_autoptr(GError) error = NULL;
  const guint64 created = psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE,
                                                 PSC_COUNTER_CREATIONS);
  g_assert_true (psc_cache_register_shader (cache, bad, size, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "pCode[5]"));
  g_clear_error (&error);
  /* Truncated in the middle of an instruction. */
  g_assert_true (psc_cache_register_shader (cache, code, size - 8, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "runs past the end"));
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE,
                                           PSC_COUNTER_CREATIONS), ==, created);
  /* The cache is unchanged: the real code registers. */
  g_assert_true (psc_cache_register_shader (cache, code, size, &error) != VK_NULL_HANDLE);
  g_assert_no_error (error);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spec-sizes/map-entries", test_entry_sizes);
  g_test_add_func ("/spec-sizes/malformed-spirv", test_malformed_spirv);
  return g_test_run ();
}
