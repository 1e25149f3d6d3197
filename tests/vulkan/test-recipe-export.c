/* test-recipe-export.c: psc_cache_get_recipe_for_pipeline on lavapipe
 * (validation on): the recipe of a pipeline gives that pipeline back
 * (psc_cache_get_pipeline_for_recipe), creating nothing, directly and
 * through its JSON form, for graphics pipelines on both backends (vertex
 * input, blending, stencil, depth bias, multisampling, specialization,
 * immutable samplers, a legacy pass with several subpasses, input
 * attachments and a dependency) and compute; it equals the recipe written
 * by hand; foreign handles, hot-reloaded and released shaders, pipelines
 * with no exact recipe and pass-through caches fail with their codes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

static GBytes *
demo_spirv (PscDemoShader shader)
{
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (shader, &size);
  return g_bytes_new_static (code, size);
}

/* The recipe of @pipeline, which must give it back without a creation,
 * directly and from its JSON form. */
static PscRecipe *
round_trip (PscCache *cache, VkPipeline pipeline)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = NULL;
  g_autoptr(PscRecipe) from_json = NULL;
  g_autofree char *json = NULL;
  guint64 before = psc_test_total_creations (cache);

  recipe = psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) pipeline, &error);
  g_assert_no_error (error);
  g_assert_nonnull (recipe);
  g_assert_true (psc_recipe_validate (recipe, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, recipe, &error), ==,
                    (guint64) (guintptr) pipeline);
  g_assert_no_error (error);

  json = psc_recipe_to_json (recipe, TRUE, &error);
  g_assert_no_error (error);
  from_json = psc_recipe_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (psc_recipe_equal (recipe, from_json));
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, from_json, &error), ==,
                    (guint64) (guintptr) pipeline);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_test_total_creations (cache), ==, before);
  return g_steal_pointer (&recipe);
}

/* The pipeline of psc_test_graphics_info_init, by hand (as
 * test-recipe-api.c writes it: specialization as int). */
static PscRecipe *
harness_recipe (gboolean legacy)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) vs = demo_spirv (PSC_DEMO_SHADER_VS_PANEL);
  g_autoptr(GBytes) fs = demo_spirv (PSC_DEMO_SHADER_FS_COLOR);
  g_autoptr(PscSamplerInfo) s = psc_sampler_info_new ();
  PscRecipe *r = psc_recipe_new_graphics ();

  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_VERTEX_BIT, vs, NULL, &error), ==, 0);
  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_FRAGMENT_BIT, fs, NULL, &error), ==, 1);
  g_assert_true (psc_recipe_set_specialization_int (r, 1, 0, 1, &error));
  g_assert_true (psc_recipe_set_specialization_int (r, 1, 1, 2, &error));
  g_assert_true (psc_recipe_set_rasterization (r, VK_POLYGON_MODE_FILL, VK_CULL_MODE_NONE,
                                               VK_FRONT_FACE_CLOCKWISE, 1.0f, &error));
  g_assert_true (psc_recipe_set_depth (r, TRUE, TRUE, VK_COMPARE_OP_LESS, &error));
  g_assert_true (psc_recipe_set_depth_bounds (r, FALSE, 0.0f, 1.0f, &error));
  g_assert_true (psc_sampler_info_set_lod (s, 0.0f, 0.0f, 0.25f, &error));
  g_assert_cmpint (psc_recipe_add_set_layout (r, 0, &error), ==, 0);
  g_assert_true (psc_recipe_add_set_binding (r, 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                             VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                                             0, &error));
  g_assert_true (psc_recipe_add_set_binding (r, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                             VK_SHADER_STAGE_FRAGMENT_BIT, 0, &error));
  g_assert_true (psc_recipe_add_immutable_sampler (r, 0, 1, s, &error));
  g_assert_true (psc_recipe_add_push_constant_range (r, VK_SHADER_STAGE_VERTEX_BIT |
                                                     VK_SHADER_STAGE_FRAGMENT_BIT, 0, 32, &error));
  if (legacy)
    {
      guint color = 0;
      g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM,
                                                       VK_SAMPLE_COUNT_1_BIT, &error), ==, 0);
      g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_D32_SFLOAT,
                                                       VK_SAMPLE_COUNT_1_BIT, &error), ==, 1);
      g_assert_cmpint (psc_recipe_add_subpass (r, &color, 1, NULL, 0, NULL, 0, 1, &error), ==, 0);
    }
  else
    {
      g_assert_true (psc_recipe_add_color_format (r, VK_FORMAT_R8G8B8A8_UNORM, &error));
      g_assert_true (psc_recipe_set_depth_stencil_format (r, VK_FORMAT_D32_SFLOAT,
                                                          VK_FORMAT_UNDEFINED, &error));
    }
  g_assert_no_error (error);
  return r;
}

/* The harness pipeline (specialization, immutable sampler, depth). */
static void
check_harness_pipeline (gboolean legacy)
{
  PscTestHarness *h = psc_test_harness_new (!legacy);
  PscCache *cache = psc_test_harness_cache (h, legacy ? PSC_BACKEND_LEGACY
                                                      : PSC_BACKEND_DYNAMIC_RENDERING,
                                            PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = NULL;
  g_autoptr(PscRecipe) by_hand = harness_recipe (legacy);
  PscTestObjects o;
  PscTestGraphicsInfo g;
  VkPipeline p;

  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);
  p = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);

  recipe = round_trip (cache, p);
  /* The same pipeline as the recipe written by hand: equal, although
   * the specialization values came back as unsigned integers. */
  g_assert_true (psc_recipe_equal (recipe, by_hand));
  g_assert_cmpuint (psc_recipe_hash (recipe), ==, psc_recipe_hash (by_hand));
  g_assert_cmpuint (psc_recipe_get_n_stages (recipe), ==, 2);
  g_assert_cmpuint (psc_recipe_get_n_set_layouts (recipe), ==, 1);
  g_assert_cmpint (psc_recipe_get_uses_render_pass (recipe), ==, legacy);
  {
    g_autofree char *json = psc_recipe_to_json (recipe, FALSE, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (json, "\"uint\""));
    g_assert_nonnull (strstr (json, "immutable_samplers"));
  }

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_harness_dynamic (void)
{
  check_harness_pipeline (FALSE);
}

static void
test_harness_legacy (void)
{
  check_harness_pipeline (TRUE);
}

/* Vertex input, blending with constants, stencil, depth bias, 4 samples
 * with a sample mask and alpha to coverage, extra dynamic states; a line
 * pipeline with a dynamic line width; a second immutable sampler. */
static void
test_states (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  PscTestGraphicsInfo g;
  const VkVertexInputBindingDescription binding = { 0, 32, VK_VERTEX_INPUT_RATE_VERTEX };
  const VkVertexInputAttributeDescription attributes[3] = {
    { 2, 0, VK_FORMAT_R32G32_SFLOAT, 24 },
    { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
    { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12 },
  };
  const VkSampleMask mask = 0x5;
  VkDynamicState dynamic[4] = {
    VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
    VK_DYNAMIC_STATE_BLEND_CONSTANTS,
  };
  VkSamplerCreateInfo sampler_info = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR,
    .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
    .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
    .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
    .addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
    .mipLodBias = 0.5f, .minLod = 1.0f, .maxLod = 8.0f, .borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE,
  };
  VkSampler samplers[2];
  VkDescriptorSetLayoutBinding set_bindings[2] = {
    { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
    { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, VK_SHADER_STAGE_FRAGMENT_BIT, samplers },
  };
  const VkDescriptorSetLayoutCreateInfo set_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 2, .pBindings = set_bindings,
  };
  VkDescriptorSetLayout sets[2];
  const VkPushConstantRange push[2] = {
    { VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 32 },
    { VK_SHADER_STAGE_COMPUTE_BIT, 32, 16 },
  };
  VkPipelineLayoutCreateInfo layout_info = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 2, .pSetLayouts = sets, .pushConstantRangeCount = 2, .pPushConstantRanges = push,
  };
  VkPipeline p1, p2;
  g_autoptr(PscRecipe) r1 = NULL;
  g_autoptr(PscRecipe) r2 = NULL;

  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);
  samplers[0] = o.sampler;
  samplers[1] = psc_cache_get_sampler (cache, &sampler_info, &error);
  g_assert_no_error (error);
  sets[0] = psc_cache_get_descriptor_set_layout (cache, &set_info, &error);
  g_assert_no_error (error);
  sets[1] = o.compute_set_layout;   /* a set the shaders do not use */
  g_assert_no_error (error);
  g.ci.layout = psc_cache_get_pipeline_layout (cache, &layout_info, &error);
  g_assert_no_error (error);

  {
    gsize size;
    const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_VS_MESH_PNU, &size);
    g.stages[0].module = psc_cache_register_shader (cache, code, size, &error);
    g_assert_no_error (error);
  }
  g.vertex_input.vertexBindingDescriptionCount = 1;
  g.vertex_input.pVertexBindingDescriptions = &binding;
  g.vertex_input.vertexAttributeDescriptionCount = 3;
  g.vertex_input.pVertexAttributeDescriptions = attributes;
  g.raster.cullMode = VK_CULL_MODE_BACK_BIT;
  g.raster.depthBiasEnable = VK_TRUE;
  g.raster.depthBiasConstantFactor = 1.5f;
  g.raster.depthBiasSlopeFactor = -0.25f;
  g.multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
  g.multisample.pSampleMask = &mask;
  g.multisample.alphaToCoverageEnable = VK_TRUE;
  g.depth.stencilTestEnable = VK_TRUE;
  g.depth.front = (VkStencilOpState) { VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
                                       VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_COMPARE_OP_EQUAL,
                                       0xF0, 0x0F, 7 };
  g.depth.back = (VkStencilOpState) { VK_STENCIL_OP_ZERO, VK_STENCIL_OP_INVERT,
                                      VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 1 };
  g.rendering.stencilAttachmentFormat = VK_FORMAT_UNDEFINED;
  g.blend_attachment = (VkPipelineColorBlendAttachmentState) {
    VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
    VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MAX, 0x7,
  };
  g.blend.blendConstants[3] = 0.5f;
  g.dynamic.dynamicStateCount = 3;   /* blend constants static */
  g.dynamic.pDynamicStates = dynamic;
  p1 = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  r1 = round_trip (cache, p1);

  /* Lines with a dynamic width, blend constants dynamic, one sample. */
  g.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  g.input_assembly.primitiveRestartEnable = VK_TRUE;
  g.raster.lineWidth = 1.0f;
  g.multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  g.multisample.pSampleMask = NULL;
  g.multisample.alphaToCoverageEnable = VK_FALSE;
  dynamic[3] = VK_DYNAMIC_STATE_LINE_WIDTH;
  g.dynamic.dynamicStateCount = 4;
  p2 = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_true (p2 != p1);
  r2 = round_trip (cache, p2);
  g_assert_false (psc_recipe_equal (r1, r2));

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

/* A legacy pass of three attachments and two subpasses (the second reads
 * the first's colour as an input attachment), a dependency, the pipeline
 * on subpass 1; and the harness's pass. */
static void
test_legacy_pass (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_LEGACY, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  PscTestGraphicsInfo g;
  VkAttachmentDescription atts[3];
  const VkAttachmentReference color0 = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
  const VkAttachmentReference depth = { 1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
  const VkAttachmentReference input0 = { 0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
  const VkAttachmentReference color2 = { 2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
  const VkSubpassDescription subpasses[2] = {
    { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
      .pColorAttachments = &color0, .pDepthStencilAttachment = &depth },
    { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .inputAttachmentCount = 1,
      .pInputAttachments = &input0, .colorAttachmentCount = 1, .pColorAttachments = &color2 },
  };
  const VkSubpassDependency dependency = {
    0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
    VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
    VK_DEPENDENCY_BY_REGION_BIT,
  };
  VkRenderPassCreateInfo pass_info = {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = 3, .pAttachments = atts, .subpassCount = 2, .pSubpasses = subpasses,
    .dependencyCount = 1, .pDependencies = &dependency,
  };
  VkPipeline p0, p1;
  g_autoptr(PscRecipe) r0 = NULL;
  g_autoptr(PscRecipe) r1 = NULL;

  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);
  p0 = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  r0 = round_trip (cache, p0);

  for (guint i = 0; i < 3; i++)
    atts[i] = (VkAttachmentDescription) {
      .format = i == 1 ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_R8G8B8A8_UNORM,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR, .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
      .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
      .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
      .finalLayout = i == 1 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                            : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
    };
  g.ci.renderPass = psc_cache_get_compat_render_pass (cache, &pass_info, &error);
  g_assert_no_error (error);
  g.ci.subpass = 1;
  g.depth.depthTestEnable = VK_FALSE;
  g.depth.depthWriteEnable = VK_FALSE;
  p1 = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  r1 = round_trip (cache, p1);
  g_assert_true (psc_recipe_get_uses_render_pass (r1));
  g_assert_false (psc_recipe_equal (r0, r1));
  {
    g_autofree char *json = psc_recipe_to_json (r1, FALSE, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (json, "dependencies"));
  }

  /* Without a depth/stencil state the legacy key has none: a recipe
   * always describes one, so this pipeline has no exact recipe. */
  g.ci.pDepthStencilState = NULL;
  p1 = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) p1, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "pDepthStencilState: "));
  g_clear_error (&error);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_compute (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = NULL;
  g_autoptr(PscRecipe) by_hand = psc_recipe_new_compute ();
  g_autoptr(GBytes) cs = demo_spirv (PSC_DEMO_SHADER_CS_PALETTE);
  PscTestObjects o;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  VkPipeline p;

  psc_test_objects_init (&o, cache);
  psc_test_compute_info_init (&ci, &spec, &entry, &value, &o);
  p = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  recipe = round_trip (cache, p);
  g_assert_cmpint (psc_recipe_get_kind (recipe), ==, PSC_RECIPE_KIND_COMPUTE);

  /* The float constant comes back as the unsigned integer of its bytes:
   * the same pipeline as the float written by hand. */
  g_assert_cmpint (psc_recipe_add_stage (by_hand, VK_SHADER_STAGE_COMPUTE_BIT, cs, NULL, &error), ==, 0);
  g_assert_true (psc_recipe_set_specialization_float (by_hand, 0, 0, 0.5, &error));
  g_assert_cmpint (psc_recipe_add_set_layout (by_hand, 0, &error), ==, 0);
  g_assert_true (psc_recipe_add_set_binding (by_hand, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, 0, &error));
  g_assert_true (psc_recipe_add_push_constant_range (by_hand, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
                                                     &error));
  g_assert_no_error (error);
  g_assert_true (psc_recipe_equal (recipe, by_hand));

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_errors (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  PscCache *other = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  PscCache *off = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING,
                                          PSC_CACHE_FLAGS_PASS_THROUGH);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = NULL;
  PscTestObjects o, oo, off_o;
  PscTestGraphicsInfo g, og, off_g;
  VkSpecializationMapEntry entries[3];
  gint32 data[3] = { 1, 2, 9 };
  VkPipeline p, q, foreign, reloaded;
  gsize size;
  const guint32 *fs = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR, &size);
  const guint32 *fs_alpha;
  gsize alpha_size;
  const guint64 bad[] = { 0, 0xdead0000 };

  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);
  p = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);

  /* Handles the cache did not return as a pipeline. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_null (psc_cache_get_recipe_for_pipeline (cache, bad[i], &error));
      g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
      g_assert_true (g_str_has_prefix (error->message, "pipeline: "));
      g_clear_error (&error);
    }
  g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) o.layout, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);
  psc_test_objects_init (&oo, other);
  psc_test_graphics_info_init (&og, &oo, other);
  foreign = psc_cache_get_graphics_pipeline (other, &og.ci, &error);
  g_assert_no_error (error);
  g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) foreign, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);

  /* A map entry for a constant the shader does not declare (Vulkan allows
   * it, a recipe keeps only declared constants). */
  entries[0] = g.spec_entries[0];
  entries[1] = g.spec_entries[1];
  entries[2] = (VkSpecializationMapEntry) { 7, 8, 4 };
  g.spec.mapEntryCount = 3;
  g.spec.pMapEntries = entries;
  g.spec.dataSize = sizeof data;
  g.spec.pData = data;
  q = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) q, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "pStages[1].pSpecializationInfo->pMapEntries[2]: "));
  g_clear_error (&error);
  psc_test_graphics_info_init (&g, &o, cache);

  /* A released shader: the pipeline is still cached, its recipe waits for
   * the same SPIR-V to be registered again. */
  {
    VkShaderModule extra = psc_cache_register_shader (cache, fs, size, &error);
    g_assert_no_error (error);
    g_assert_true (extra == o.fs);
    g_assert_true (psc_cache_release_shader (cache, extra, &error));
    g_assert_true (psc_cache_release_shader (cache, o.fs, &error));
    g_assert_no_error (error);
    g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) p, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
    g_assert_nonnull (strstr (error->message, "released"));
    g_clear_error (&error);
    o.fs = psc_cache_register_shader (cache, fs, size, &error);
    g_assert_no_error (error);
    g.stages[1].module = o.fs;
    recipe = round_trip (cache, p);
    g_clear_object (&recipe);
  }

  /* A hot reload: the pipeline of the old code has no recipe any more;
   * the new generation's has. */
  fs_alpha = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR_ALPHA, &alpha_size);
  g.stages[1].module = psc_cache_replace_shader (cache, o.fs, fs_alpha, alpha_size, VK_NULL_HANDLE,
                                                 &error);
  g_assert_no_error (error);
  g_assert_true (g.stages[1].module != VK_NULL_HANDLE);
  g_assert_null (psc_cache_get_recipe_for_pipeline (cache, (guint64) (guintptr) p, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "hot-reloaded"));
  g_clear_error (&error);
  reloaded = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_true (reloaded != p);
  recipe = round_trip (cache, reloaded);
  {
    g_autoptr(GBytes) spirv = g_bytes_new_static (fs_alpha, alpha_size);
    guint fs_index = psc_recipe_get_stage (recipe, 0) == VK_SHADER_STAGE_FRAGMENT_BIT ? 0 : 1;
    g_assert_true (g_bytes_equal (psc_recipe_get_stage_spirv (recipe, fs_index), spirv));
  }

  /* Pass-through keeps nothing to read back. */
  psc_test_objects_init (&off_o, off);
  psc_test_graphics_info_init (&off_g, &off_o, off);
  q = psc_cache_get_graphics_pipeline (off, &off_g.ci, &error);
  g_assert_no_error (error);
  g_assert_null (psc_cache_get_recipe_for_pipeline (off, (guint64) (guintptr) q, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recipe-export/harness/dynamic", test_harness_dynamic);
  g_test_add_func ("/recipe-export/harness/legacy", test_harness_legacy);
  g_test_add_func ("/recipe-export/states", test_states);
  g_test_add_func ("/recipe-export/legacy-pass", test_legacy_pass);
  g_test_add_func ("/recipe-export/compute", test_compute);
  g_test_add_func ("/recipe-export/errors", test_errors);
  return g_test_run ();
}
