/* test-identity: the cache never keys on pointers or on reused handle values.
 *
 * 1. One reused buffer, rebuilt before every request: equal content hits,
 *    different content in the same memory misses.
 * 2. A shader module is released and a different SPIR-V registered; the
 *    driver may hand out the same VkShaderModule value again (lavapipe's
 *    handles are heap addresses, and a same-sized allocation right after a
 *    free usually reuses them). A request naming the new module must create
 *    a new pipeline whether or not the value was reused. The test reports
 *    how often the value was actually reused.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

#define SPIRV_OP_CONSTANT 43u

/* A copy of @code (same size) whose first 32-bit OpConstant equal to @from
 * now holds @to: valid SPIR-V with different content. */
static guint32 *
patch_float_constant (const guint32 *code, gsize size, float from, float to)
{
  guint32 *copy = g_memdup2 (code, size);
  gsize n = size / 4;
  guint32 from_bits, to_bits;

  memcpy (&from_bits, &from, 4);
  memcpy (&to_bits, &to, 4);
  for (gsize i = 5; i < n;)
    {
      guint32 count = copy[i] >> 16, op = copy[i] & 0xffff;

      g_assert_cmpuint (count, >, 0);
      if (op == SPIRV_OP_CONSTANT && count == 4 && copy[i + 3] == from_bits)
        {
          copy[i + 3] = to_bits;
          return copy;
        }
      i += count;
    }
  g_error ("no 32-bit OpConstant %g in the shader", from);
  return NULL;
}

static void
check_reused_buffer (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  PscTestGraphicsInfo *buffer = g_new0 (PscTestGraphicsInfo, 1);
  VkPipeline first[2] = { VK_NULL_HANDLE, VK_NULL_HANDLE };
  guint64 before = psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                          PSC_COUNTER_CREATIONS);

  for (guint round = 0; round < 6; round++)
    {
      guint variant = round % 2;
      VkPipeline p;

      /* scribble over the buffer, then rebuild the request in place */
      memset (buffer, 0xa5, sizeof *buffer);
      psc_test_graphics_info_init (buffer, o, cache);
      if (variant == 1)
        buffer->blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
      p = psc_cache_get_graphics_pipeline (cache, &buffer->ci, &error);
      g_assert_no_error (error);
      g_assert_true (p != VK_NULL_HANDLE);
      if (first[variant] == VK_NULL_HANDLE)
        first[variant] = p;
      g_assert_true (p == first[variant]);
    }
  g_assert_true (first[0] != first[1]);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                           PSC_COUNTER_CREATIONS) - before, ==, 2);
  g_free (buffer);
}

static void
check_reused_shader_handle (PscCache *cache, const PscTestObjects *o)
{
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR_ALPHA, &size);
  guint reused = 0;
  const guint rounds = 8;
  VkShaderModule module;
  VkPipeline previous;
  PscTestGraphicsInfo g;
  g_autoptr(GError) error = NULL;

  module = psc_cache_register_shader (cache, code, size, &error);
  g_assert_no_error (error);
  psc_test_graphics_info_init (&g, o, cache);
  g.stages[1].module = module;
  previous = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);

  for (guint round = 0; round < rounds; round++)
    {
      g_autofree guint32 *other = patch_float_constant (code, size, 0.15f, 0.16f + 0.01f * round);
      VkShaderModule old = module;
      guint64 creations;
      VkPipeline p;

      g_assert_true (psc_cache_release_shader (cache, old, &error));
      g_assert_no_error (error);

      module = psc_cache_register_shader (cache, other, size, &error);
      g_assert_no_error (error);
      g_assert_true (module != VK_NULL_HANDLE);
      if (module == old)
        reused++;
      else
        {
          /* the released handle is no longer the cache's */
          psc_test_graphics_info_init (&g, o, cache);
          g.stages[1].module = old;
          g_assert_true (psc_cache_get_graphics_pipeline (cache, &g.ci, &error) == VK_NULL_HANDLE);
          g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
          g_clear_error (&error);
        }

      creations = psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                         PSC_COUNTER_CREATIONS);
      psc_test_graphics_info_init (&g, o, cache);
      g.stages[1].module = module;
      p = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
      g_assert_no_error (error);
      g_assert_true (p != VK_NULL_HANDLE);
      /* a miss: the new module's content is a new key */
      g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                               PSC_COUNTER_CREATIONS), ==, creations + 1);
      g_assert_true (p != previous);
      previous = p;
    }

  g_test_message ("the driver reused the released VkShaderModule value in %u of %u rounds",
                  reused, rounds);
}

static void
run (gboolean dynamic_rendering)
{
  /* the driver's own handle values, so a released module's value can come
   * back for the next one */
  PscTestHarness *h = psc_test_harness_new_full (dynamic_rendering,
                                                 PSC_TEST_HARNESS_DRIVER_HANDLES);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;

  psc_test_objects_init (&o, cache);
  check_reused_buffer (cache, &o);
  check_reused_shader_handle (cache, &o);
  psc_test_harness_finish (h);
}

static void
test_identity_dynamic (void)
{
  run (TRUE);
}

static void
test_identity_legacy (void)
{
  run (FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/identity/dynamic-rendering", test_identity_dynamic);
  g_test_add_func ("/vulkan/identity/legacy", test_identity_legacy);
  return g_test_run ();
}
