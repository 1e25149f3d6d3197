/* test-dedup: identical requests return one handle and make one driver call,
 * for every kind the cache owns.
 *
 * "One driver call" is read from the kind's creations counter, which the
 * cache increments around each vkCreate* it makes. Every second request is
 * built in separate memory from the first, so equal content (not an equal
 * pointer) is what must hit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

typedef struct {
  guint64 creations, hits;
} Counts;

static Counts
counts (PscCache *cache, PscObjectKind kind)
{
  Counts c = {
    psc_cache_get_counter (cache, kind, PSC_COUNTER_CREATIONS),
    psc_cache_get_counter (cache, kind, PSC_COUNTER_HITS),
  };
  return c;
}

static void
assert_one_creation (PscCache *cache, PscObjectKind kind, Counts before, guint64 requests)
{
  Counts after = counts (cache, kind);

  g_assert_cmpuint (after.creations - before.creations, ==, 1);
  g_assert_cmpuint (after.hits - before.hits, ==, requests - 1);
  g_assert_cmpuint (psc_cache_get_counter (cache, kind, PSC_COUNTER_ENTRIES), >=, 1);
}

static void
check_objects (PscCache *cache)
{
  g_autoptr(GError) error = NULL;
  VkSampler samplers[3];
  VkSamplerCreateInfo *si;
  VkDescriptorSetLayoutBinding bindings[2][2];
  VkDescriptorSetLayout set_layouts[3];
  VkPipelineLayout layouts[3];
  VkPushConstantRange push = { VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16 };
  Counts before;

  /* Sampler: three requests, each from its own heap copy. */
  before = counts (cache, PSC_OBJECT_KIND_SAMPLER);
  for (int i = 0; i < 3; i++)
    {
      si = g_new0 (VkSamplerCreateInfo, 1);
      si->sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
      si->magFilter = VK_FILTER_LINEAR;
      si->minFilter = VK_FILTER_LINEAR;
      si->addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
      si->addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      si->addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
      si->maxLod = 4.0f;
      si->borderColor = VK_BORDER_COLOR_INT_OPAQUE_BLACK;
      samplers[i] = psc_cache_get_sampler (cache, si, &error);
      g_assert_no_error (error);
      g_free (si);
    }
  g_assert_true (samplers[0] != VK_NULL_HANDLE);
  g_assert_true (samplers[0] == samplers[1] && samplers[1] == samplers[2]);
  assert_one_creation (cache, PSC_OBJECT_KIND_SAMPLER, before, 3);

  /* Descriptor-set layout, with the sampler as an immutable sampler; the
   * second and third list their bindings in another order. */
  before = counts (cache, PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT);
  for (int i = 0; i < 3; i++)
    {
      VkDescriptorSetLayoutBinding *b = bindings[i % 2];
      VkDescriptorSetLayoutBinding ubo = {
        .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_VERTEX_BIT,
      };
      VkDescriptorSetLayoutBinding tex = {
        .binding = 3, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
        .pImmutableSamplers = &samplers[i],
      };
      VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 2,
        .pBindings = b,
      };

      b[0] = i == 0 ? ubo : tex;
      b[1] = i == 0 ? tex : ubo;
      set_layouts[i] = psc_cache_get_descriptor_set_layout (cache, &ci, &error);
      g_assert_no_error (error);
    }
  g_assert_true (set_layouts[0] != VK_NULL_HANDLE);
  g_assert_true (set_layouts[0] == set_layouts[1] && set_layouts[1] == set_layouts[2]);
  assert_one_creation (cache, PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT, before, 3);

  /* Pipeline layout. */
  before = counts (cache, PSC_OBJECT_KIND_PIPELINE_LAYOUT);
  for (int i = 0; i < 3; i++)
    {
      VkPushConstantRange *range = g_memdup2 (&push, sizeof push);
      VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &set_layouts[i],
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = range,
      };

      layouts[i] = psc_cache_get_pipeline_layout (cache, &ci, &error);
      g_assert_no_error (error);
      g_free (range);
    }
  g_assert_true (layouts[0] != VK_NULL_HANDLE);
  g_assert_true (layouts[0] == layouts[1] && layouts[1] == layouts[2]);
  assert_one_creation (cache, PSC_OBJECT_KIND_PIPELINE_LAYOUT, before, 3);
}

static void
check_pipelines (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  PscTestGraphicsInfo *g;
  VkPipeline graphics[3], compute[3];
  Counts before;

  before = counts (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
  for (int i = 0; i < 3; i++)
    {
      g = g_new0 (PscTestGraphicsInfo, 1);
      psc_test_graphics_info_init (g, o, cache);
      graphics[i] = psc_cache_get_graphics_pipeline (cache, &g->ci, &error);
      g_assert_no_error (error);
      g_free (g);
    }
  g_assert_true (graphics[0] != VK_NULL_HANDLE);
  g_assert_true (graphics[0] == graphics[1] && graphics[1] == graphics[2]);
  assert_one_creation (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, before, 3);

  before = counts (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
  for (int i = 0; i < 3; i++)
    {
      VkComputePipelineCreateInfo ci;
      VkSpecializationInfo spec;
      VkSpecializationMapEntry entry;
      float value;

      psc_test_compute_info_init (&ci, &spec, &entry, &value, o);
      compute[i] = psc_cache_get_compute_pipeline (cache, &ci, &error);
      g_assert_no_error (error);
    }
  g_assert_true (compute[0] != VK_NULL_HANDLE);
  g_assert_true (compute[0] == compute[1] && compute[1] == compute[2]);
  assert_one_creation (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, before, 3);
}

static void
test_dedup_dynamic (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;

  check_objects (cache);
  psc_test_objects_init (&o, cache);
  check_pipelines (cache, &o);
  psc_test_harness_finish (h);
}

static void
test_dedup_legacy (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  VkRenderPass passes[3];
  Counts before;

  g_assert_cmpint (psc_test_resolved_backend (cache), ==, PSC_BACKEND_LEGACY);
  check_objects (cache);
  psc_test_objects_init (&o, cache);

  /* Compatibility pass: the same description hits; so does one whose load
   * and store ops and layouts differ, which compatibility ignores. */
  before = counts (cache, PSC_OBJECT_KIND_RENDER_PASS);
  passes[0] = o.compat_pass;
  passes[1] = psc_cache_get_compat_render_pass (cache, &o.pass_info, &error);
  g_assert_no_error (error);
  {
    VkAttachmentDescription attachments[2];
    VkRenderPassCreateInfo info = o.pass_info;

    memcpy (attachments, o.pass_attachments, sizeof attachments);
    attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    attachments[0].initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    info.pAttachments = attachments;
    passes[2] = psc_cache_get_compat_render_pass (cache, &info, &error);
    g_assert_no_error (error);
  }
  g_assert_true (passes[0] == passes[1] && passes[1] == passes[2]);
  g_assert_true (psc_cache_is_compat_render_pass (cache, passes[0]));
  {
    Counts after = counts (cache, PSC_OBJECT_KIND_RENDER_PASS);

    g_assert_cmpuint (after.creations - before.creations, ==, 0); /* created by objects_init */
    g_assert_cmpuint (after.hits - before.hits, ==, 2);
    g_assert_cmpuint (after.creations, ==, 1);
  }

  check_pipelines (cache, &o);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/dedup/dynamic-rendering", test_dedup_dynamic);
  g_test_add_func ("/vulkan/dedup/legacy", test_dedup_legacy);
  return g_test_run ();
}
