/* test-alias: different keys never alias.
 *
 * Starting from one base request per kind, each variant changes exactly one
 * field. Every variant must get its own handle (distinct from the base and
 * from every other variant) and make exactly one driver call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

static void
assert_all_distinct (const guint64 *handles, guint n, const char *const *names)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (handles[i] != 0);
      for (guint j = i + 1; j < n; j++)
        if (handles[i] == handles[j])
          g_error ("'%s' and '%s' got the same handle 0x%" G_GINT64_MODIFIER "x",
                   names[i], names[j], handles[i]);
    }
}

typedef void (*GraphicsVariant) (PscTestGraphicsInfo *g);

static void v_base (PscTestGraphicsInfo *g) { }
static void v_blend (PscTestGraphicsInfo *g)
{
  g->blend_attachment.blendEnable = VK_TRUE;
  g->blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
  g->blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
}
static void v_write_mask (PscTestGraphicsInfo *g) { g->blend_attachment.colorWriteMask = 0x7; }
static void v_topology (PscTestGraphicsInfo *g)
{
  g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
}
static void v_spec_value (PscTestGraphicsInfo *g) { g->spec_data[1] = 3; }
static void v_spec_absent (PscTestGraphicsInfo *g) { g->spec.mapEntryCount = 1; }
static void v_dynamic_state (PscTestGraphicsInfo *g)
{
  g->dynamic_states[2] = VK_DYNAMIC_STATE_BLEND_CONSTANTS;
  g->dynamic.dynamicStateCount = 3;
}
static void v_dynamic_state_2 (PscTestGraphicsInfo *g)
{
  g->dynamic_states[2] = VK_DYNAMIC_STATE_DEPTH_BIAS;
  g->dynamic.dynamicStateCount = 3;
}
static void v_cull (PscTestGraphicsInfo *g) { g->raster.cullMode = VK_CULL_MODE_BACK_BIT; }
static void v_front_face (PscTestGraphicsInfo *g)
{
  g->raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
}
static void v_depth_compare (PscTestGraphicsInfo *g) { g->depth.depthCompareOp = VK_COMPARE_OP_GREATER; }
static void v_depth_write (PscTestGraphicsInfo *g) { g->depth.depthWriteEnable = VK_FALSE; }

static const struct {
  const char *name;
  GraphicsVariant apply;
} graphics_variants[] = {
  { "base", v_base },
  { "blend on", v_blend },
  { "write mask", v_write_mask },
  { "topology", v_topology },
  { "spec value", v_spec_value },
  { "spec constant absent", v_spec_absent },
  { "dynamic blend constants", v_dynamic_state },
  { "dynamic depth bias", v_dynamic_state_2 },
  { "cull mode", v_cull },
  { "front face", v_front_face },
  { "depth compare", v_depth_compare },
  { "depth write", v_depth_write },
};

static void
check_graphics (PscCache *cache, const PscTestObjects *o, VkRenderPass hdr_pass,
                VkShaderModule other_fs)
{
  g_autoptr(GError) error = NULL;
  guint n = G_N_ELEMENTS (graphics_variants);
  guint64 handles[G_N_ELEMENTS (graphics_variants) + 2];
  const char *names[G_N_ELEMENTS (graphics_variants) + 2];
  PscTestGraphicsInfo g;
  guint64 before = psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                          PSC_COUNTER_CREATIONS);
  guint k;

  for (k = 0; k < n; k++)
    {
      psc_test_graphics_info_init (&g, o, cache);
      graphics_variants[k].apply (&g);
      handles[k] = (guint64) psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
      g_assert_no_error (error);
      names[k] = graphics_variants[k].name;
    }

  /* a colour format */
  psc_test_graphics_info_init (&g, o, cache);
  if (psc_test_resolved_backend (cache) == PSC_BACKEND_DYNAMIC_RENDERING)
    g.color_format = VK_FORMAT_R16G16B16A16_SFLOAT;
  else
    g.ci.renderPass = hdr_pass;
  handles[k] = (guint64) psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  names[k++] = "colour format";

  /* a shader module */
  psc_test_graphics_info_init (&g, o, cache);
  g.stages[1].module = other_fs;
  handles[k] = (guint64) psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  names[k++] = "fragment module";

  assert_all_distinct (handles, k, names);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                           PSC_COUNTER_CREATIONS) - before, ==, k);

  /* and asking again for each of them hits */
  for (guint i = 0; i < n; i++)
    {
      psc_test_graphics_info_init (&g, o, cache);
      graphics_variants[i].apply (&g);
      g_assert_true ((guint64) psc_cache_get_graphics_pipeline (cache, &g.ci, &error) == handles[i]);
      g_assert_no_error (error);
    }
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                           PSC_COUNTER_CREATIONS) - before, ==, k);
}

static void
check_samplers (PscCache *cache)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = {
    "base", "mag filter", "min filter", "mipmap mode", "address U", "address V",
    "address W", "lod bias", "max lod", "min lod", "compare", "border colour",
  };
  guint64 handles[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .maxLod = 8.0f,
        .borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
      };

      switch (i)
        {
        case 1: si.magFilter = VK_FILTER_LINEAR; break;
        case 2: si.minFilter = VK_FILTER_LINEAR; break;
        case 3: si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR; break;
        case 4: si.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT; break;
        case 5: si.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT; break;
        case 6: si.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT; break;
        case 7: si.mipLodBias = 0.5f; break;
        case 8: si.maxLod = 4.0f; break;
        case 9: si.minLod = 1.0f; break;
        case 10: si.compareEnable = VK_TRUE; si.compareOp = VK_COMPARE_OP_LESS; break;
        case 11: si.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK; break;
        default: break;
        }
      handles[i] = (guint64) psc_cache_get_sampler (cache, &si, &error);
      g_assert_no_error (error);
    }
  assert_all_distinct (handles, G_N_ELEMENTS (names), names);
}

static void
check_layouts (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  const char *set_names[] = { "base", "stage mask", "descriptor type", "count", "binding number",
                              "immutable sampler" };
  guint64 sets[G_N_ELEMENTS (set_names)];
  const char *layout_names[] = { "base", "push size", "push stages", "no push", "set layout" };
  guint64 layouts[G_N_ELEMENTS (layout_names)];

  for (guint i = 0; i < G_N_ELEMENTS (set_names); i++)
    {
      VkDescriptorSetLayoutBinding b = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
      };
      VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &b,
      };

      switch (i)
        {
        case 1: b.stageFlags |= VK_SHADER_STAGE_VERTEX_BIT; break;
        case 2: b.descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE; break;
        case 3: b.descriptorCount = 2; break;
        case 4: b.binding = 1; break;
        case 5: b.pImmutableSamplers = &o->sampler; break;
        default: break;
        }
      sets[i] = (guint64) psc_cache_get_descriptor_set_layout (cache, &ci, &error);
      g_assert_no_error (error);
    }
  assert_all_distinct (sets, G_N_ELEMENTS (set_names), set_names);

  for (guint i = 0; i < G_N_ELEMENTS (layout_names); i++)
    {
      VkDescriptorSetLayout set = (VkDescriptorSetLayout) sets[0];
      VkPushConstantRange push = { VK_SHADER_STAGE_VERTEX_BIT, 0, 16 };
      VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &set,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push,
      };

      switch (i)
        {
        case 1: push.size = 32; break;
        case 2: push.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT; break;
        case 3: ci.pushConstantRangeCount = 0; break;
        case 4: set = (VkDescriptorSetLayout) sets[1]; break;
        default: break;
        }
      layouts[i] = (guint64) psc_cache_get_pipeline_layout (cache, &ci, &error);
      g_assert_no_error (error);
    }
  assert_all_distinct (layouts, G_N_ELEMENTS (layout_names), layout_names);
}

static VkRenderPass
check_compat_passes (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = { "base", "colour format", "colour samples", "depth format",
                          "no depth" };
  guint64 passes[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      VkAttachmentDescription a[2];
      VkSubpassDescription sub = o->pass_subpass;
      VkRenderPassCreateInfo ci = o->pass_info;

      memcpy (a, o->pass_attachments, sizeof a);
      ci.pAttachments = a;
      ci.pSubpasses = &sub;
      switch (i)
        {
        case 1: a[0].format = VK_FORMAT_R16G16B16A16_SFLOAT; break;
        case 2: a[0].samples = VK_SAMPLE_COUNT_4_BIT; a[1].samples = VK_SAMPLE_COUNT_4_BIT; break;
        case 3: a[1].format = VK_FORMAT_D16_UNORM; break;
        case 4: ci.attachmentCount = 1; sub.pDepthStencilAttachment = NULL; break;
        default: break;
        }
      passes[i] = (guint64) psc_cache_get_compat_render_pass (cache, &ci, &error);
      g_assert_no_error (error);
      g_assert_true (psc_cache_is_compat_render_pass (cache, (VkRenderPass) passes[i]));
    }
  assert_all_distinct (passes, G_N_ELEMENTS (names), names);
  return (VkRenderPass) passes[1];
}

static void
check_compute (PscCache *cache, const PscTestObjects *o)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = { "base", "spec value", "no spec" };
  guint64 handles[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      VkComputePipelineCreateInfo ci;
      VkSpecializationInfo spec;
      VkSpecializationMapEntry entry;
      float value;

      psc_test_compute_info_init (&ci, &spec, &entry, &value, o);
      if (i == 1)
        value = 0.25f;
      if (i == 2)
        ci.stage.pSpecializationInfo = NULL;
      handles[i] = (guint64) psc_cache_get_compute_pipeline (cache, &ci, &error);
      g_assert_no_error (error);
    }
  assert_all_distinct (handles, G_N_ELEMENTS (names), names);
}

static VkShaderModule
register_other_fs (PscCache *cache)
{
  g_autoptr(GError) error = NULL;
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR_ALPHA, &size);
  VkShaderModule m = psc_cache_register_shader (cache, code, size, &error);

  g_assert_no_error (error);
  return m;
}

static void
test_alias_dynamic (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;

  psc_test_objects_init (&o, cache);
  check_samplers (cache);
  check_layouts (cache, &o);
  check_compute (cache, &o);
  check_graphics (cache, &o, VK_NULL_HANDLE, register_other_fs (cache));
  psc_test_harness_finish (h);
}

static void
test_alias_legacy (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_LEGACY, PSC_CACHE_FLAGS_NONE);
  PscTestObjects o;
  VkRenderPass hdr_pass;

  psc_test_objects_init (&o, cache);
  hdr_pass = check_compat_passes (cache, &o);
  check_graphics (cache, &o, hdr_pass, register_other_fs (cache));
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/alias/dynamic-rendering", test_alias_dynamic);
  g_test_add_func ("/vulkan/alias/legacy", test_alias_legacy);
  return g_test_run ();
}
