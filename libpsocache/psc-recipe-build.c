/* psc-recipe-build.c: a recipe's whole-recipe checks and its Vulkan form,
 * built through a maker (psc-recipe-build.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-build.h"

#include <string.h>

struct _PscRecipeBuild {
  PscRecipe *recipe;
  VkShaderModule modules[PSC_MAX_GRAPHICS_STAGES];
  VkDescriptorSetLayout set_layouts[PSC_MAX_SET_LAYOUTS];
  VkPipelineLayout layout;
  VkRenderPass pass;

  /* One set layout at a time (the maker copies what it keeps). */
  VkDescriptorSetLayoutBinding bindings[PSC_MAX_SET_BINDINGS];
  VkDescriptorBindingFlags binding_flags[PSC_MAX_SET_BINDINGS];
  VkSampler samplers[PSC_MAX_SET_BINDINGS][PSC_MAX_IMMUTABLE_SAMPLERS];
  VkPushConstantRange push[PSC_MAX_PUSH_RANGES];

  /* The render pass. */
  VkAttachmentDescription attachments[PSC_MAX_PASS_ATTACHMENTS];
  VkSubpassDescription subpasses[PSC_MAX_SUBPASSES];
  VkAttachmentReference refs[PSC_MAX_SUBPASSES][3 * PSC_MAX_SUBPASS_REFS + 1];
  VkSubpassDependency dependencies[PSC_MAX_SUBPASS_DEPENDENCIES];

  /* The pipeline. */
  VkPipelineShaderStageCreateInfo stages[PSC_MAX_GRAPHICS_STAGES];
  VkSpecializationInfo spec[PSC_MAX_GRAPHICS_STAGES];
  VkSpecializationMapEntry map[PSC_MAX_GRAPHICS_STAGES][PSC_MAX_SPEC_CONSTANTS];
  guint8 spec_data[PSC_MAX_GRAPHICS_STAGES][PSC_MAX_SPEC_CONSTANTS * 8];
  VkVertexInputBindingDescription vertex_bindings[PSC_MAX_VERTEX_BINDINGS];
  VkVertexInputAttributeDescription vertex_attributes[PSC_MAX_VERTEX_ATTRIBUTES];
  VkPipelineVertexInputStateCreateInfo vertex_input;
  VkPipelineInputAssemblyStateCreateInfo input_assembly;
  VkPipelineTessellationStateCreateInfo tessellation;
  VkPipelineViewportStateCreateInfo viewport;
  VkPipelineRasterizationStateCreateInfo rasterization;
  VkSampleMask sample_mask[2];
  VkPipelineMultisampleStateCreateInfo multisample;
  VkPipelineDepthStencilStateCreateInfo depth_stencil;
  VkPipelineColorBlendAttachmentState blend[PSC_MAX_COLOR_ATTACHMENTS];
  VkPipelineColorBlendStateCreateInfo color_blend;
  VkDynamicState dynamic[PSC_DYN_COUNT + 2];
  VkPipelineDynamicStateCreateInfo dynamic_state;
  VkFormat color_formats[PSC_MAX_COLOR_ATTACHMENTS];
  VkPipelineRenderingCreateInfo rendering;
  VkGraphicsPipelineCreateInfo graphics;
  VkComputePipelineCreateInfo compute;
};

static gboolean
has_stage (PscRecipe *r, guint stage)
{
  for (guint i = 0; i < r->n_stages; i++)
    if (r->stages[i].stage == stage)
      return TRUE;
  return FALSE;
}

/* The colour attachments the pipeline renders to. */
static guint
color_count (PscRecipe *r)
{
  if (psc_recipe_get_uses_render_pass (r))
    return r->subpass < r->n_subpasses ? r->subpasses[r->subpass].n_colors : 0;
  return r->n_color_formats;
}

static gboolean
check_layout (PscRecipe *r, GError **error)
{
  char path[96];

  for (guint s = 0; s < r->sets->len; s++)
    {
      const PscRecipeSet *set = &g_array_index (r->sets, PscRecipeSet, s);
      for (guint b = 0; b < set->bindings->len; b++)
        {
          const PscRecipeBinding *bind = &g_array_index (set->bindings, PscRecipeBinding, b);
          if (bind->immutable->len != 0 && bind->immutable->len != bind->count)
            {
              g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].immutable_samplers", s, b);
              return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                      "%u immutable samplers for a descriptor count of %u",
                                      bind->immutable->len, bind->count);
            }
        }
    }
  return TRUE;
}

static gboolean
check_graphics (PscRecipe *r, GError **error)
{
  char path[64];
  guint colors;

  if (!has_stage (r, VK_SHADER_STAGE_VERTEX_BIT))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "stages",
                            "a graphics recipe needs a VK_SHADER_STAGE_VERTEX_BIT stage");
  if ((has_stage (r, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) ||
       has_stage (r, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)) && r->patch_control_points == 0)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "tessellation.patch_control_points",
                            "required with tessellation stages");
  if (psc_recipe_get_uses_render_pass (r))
    {
      if (r->n_subpasses == 0)
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "render_pass.subpasses",
                                "a render pass needs a subpass");
      if (r->subpass >= r->n_subpasses)
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "render_pass.subpass",
                                "%u: the pass has %u subpasses", r->subpass, r->n_subpasses);
      for (guint i = 0; i < r->n_dependencies; i++)
        {
          const PscRecipeDependency *d = &r->dependencies[i];
          if ((d->src_subpass != VK_SUBPASS_EXTERNAL && d->src_subpass >= r->n_subpasses) ||
              (d->dst_subpass != VK_SUBPASS_EXTERNAL && d->dst_subpass >= r->n_subpasses))
            {
              g_snprintf (path, sizeof path, "render_pass.dependencies[%u]", i);
              return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                      "names a subpass the pass does not have (it has %u)",
                                      r->n_subpasses);
            }
        }
    }
  colors = color_count (r);
  for (guint i = colors; i < PSC_MAX_COLOR_ATTACHMENTS; i++)
    if (r->blend[i].set)
      {
        g_snprintf (path, sizeof path, "color_blend.attachments[%u]", i);
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                "the pipeline renders to %u colour attachments", colors);
      }
  return TRUE;
}

gboolean
psc_recipe_check (PscRecipe *r, GError **error)
{
  if (r->n_stages == 0)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "stages", "the recipe has no stage");
  if (!check_layout (r, error))
    return FALSE;
  return r->kind == PSC_RECIPE_KIND_COMPUTE || check_graphics (r, error);
}

/* ---------------------------------------------------------------------------
 * Layout
 */

static gint
compare_binding_numbers (gconstpointer a, gconstpointer b, gpointer data)
{
  const GArray *bindings = data;
  guint x = g_array_index (bindings, PscRecipeBinding, *(const guint *) a).binding;
  guint y = g_array_index (bindings, PscRecipeBinding, *(const guint *) b).binding;
  return x < y ? -1 : x > y;
}

static gboolean
build_set (PscRecipeBuild *b, const PscRecipeMaker *m, guint s, GError **error)
{
  const PscRecipeSet *set = &g_array_index (b->recipe->sets, PscRecipeSet, s);
  guint order[PSC_MAX_SET_BINDINGS];
  gboolean any_flags = FALSE;
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_ci;
  VkDescriptorSetLayoutCreateInfo ci;

  /* Samplers by binding number: the canonical maker's numbering. */
  for (guint i = 0; i < set->bindings->len; i++)
    order[i] = i;
  g_qsort_with_data (order, set->bindings->len, sizeof (guint), compare_binding_numbers,
                     set->bindings);
  for (guint k = 0; k < set->bindings->len; k++)
    {
      guint i = order[k];
      const PscRecipeBinding *bind = &g_array_index (set->bindings, PscRecipeBinding, i);
      for (guint j = 0; j < bind->immutable->len; j++)
        {
          VkSamplerCreateInfo sci;
          VkSamplerReductionModeCreateInfo reduction;
          psc_sampler_info_to_vk (g_ptr_array_index (bind->immutable, j), &sci, &reduction);
          if (!m->sampler (m->ctx, &sci, &b->samplers[i][j], error))
            return FALSE;
        }
    }
  for (guint i = 0; i < set->bindings->len; i++)
    {
      const PscRecipeBinding *bind = &g_array_index (set->bindings, PscRecipeBinding, i);
      b->bindings[i] = (VkDescriptorSetLayoutBinding) {
        .binding = bind->binding,
        .descriptorType = (VkDescriptorType) bind->descriptor_type,
        .descriptorCount = bind->count,
        .stageFlags = bind->stages,
        .pImmutableSamplers = bind->immutable->len > 0 ? b->samplers[i] : NULL,
      };
      b->binding_flags[i] = bind->binding_flags;
      any_flags |= bind->binding_flags != 0;
    }
  flags_ci = (VkDescriptorSetLayoutBindingFlagsCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
    .bindingCount = set->bindings->len,
    .pBindingFlags = b->binding_flags,
  };
  ci = (VkDescriptorSetLayoutCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .pNext = any_flags ? &flags_ci : NULL,
    .flags = set->flags,
    .bindingCount = set->bindings->len,
    .pBindings = set->bindings->len > 0 ? b->bindings : NULL,
  };
  return m->set_layout (m->ctx, &ci, &b->set_layouts[s], error);
}

static gboolean
build_layout (PscRecipeBuild *b, const PscRecipeMaker *m, GError **error)
{
  PscRecipe *r = b->recipe;
  VkPipelineLayoutCreateInfo ci;

  for (guint s = 0; s < r->sets->len; s++)
    if (!build_set (b, m, s, error))
      return FALSE;
  for (guint i = 0; i < r->n_push; i++)
    b->push[i] = (VkPushConstantRange) { r->push[i].stages, r->push[i].offset, r->push[i].size };
  ci = (VkPipelineLayoutCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = r->sets->len,
    .pSetLayouts = r->sets->len > 0 ? b->set_layouts : NULL,
    .pushConstantRangeCount = r->n_push,
    .pPushConstantRanges = r->n_push > 0 ? b->push : NULL,
  };
  return m->pipeline_layout (m->ctx, &ci, &b->layout, error);
}

/* ---------------------------------------------------------------------------
 * Render pass: load/store operations and layouts are not part of
 * compatibility; the build uses valid, plain ones.
 */

static VkImageLayout
attachment_layout (PscRecipe *r, guint index)
{
  VkFormat f = (VkFormat) r->attachments[index].format;
  if (psc_format_has_depth (f) || psc_format_has_stencil (f))
    return VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  return VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
}

static const VkAttachmentReference *
put_refs (PscRecipe *r, VkAttachmentReference *out, const guint *refs, guint n, VkImageLayout layout)
{
  for (guint i = 0; i < n; i++)
    out[i] = (VkAttachmentReference) {
      refs[i], refs[i] == VK_ATTACHMENT_UNUSED ? VK_IMAGE_LAYOUT_UNDEFINED
               : layout != VK_IMAGE_LAYOUT_UNDEFINED ? layout : attachment_layout (r, refs[i]) };
  return n > 0 ? out : NULL;
}

static gboolean
build_pass (PscRecipeBuild *b, const PscRecipeMaker *m, GError **error)
{
  PscRecipe *r = b->recipe;
  VkRenderPassCreateInfo ci;

  if (!psc_recipe_get_uses_render_pass (r))
    return TRUE;
  for (guint i = 0; i < r->n_attachments; i++)
    b->attachments[i] = (VkAttachmentDescription) {
      .format = (VkFormat) r->attachments[i].format,
      .samples = (VkSampleCountFlagBits) r->attachments[i].samples,
      .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
      .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
      .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
      .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
      .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
    };
  for (guint s = 0; s < r->n_subpasses; s++)
    {
      const PscRecipeSubpass *sp = &r->subpasses[s];
      VkAttachmentReference *refs = b->refs[s];
      VkAttachmentReference *ds = &refs[3 * PSC_MAX_SUBPASS_REFS];
      *ds = (VkAttachmentReference) { (guint) sp->depth_stencil,
                                      VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
      b->subpasses[s] = (VkSubpassDescription) {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .inputAttachmentCount = sp->n_inputs,
        .pInputAttachments = put_refs (r, refs, sp->inputs, sp->n_inputs,
                                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
        .colorAttachmentCount = sp->n_colors,
        .pColorAttachments = put_refs (r, refs + PSC_MAX_SUBPASS_REFS, sp->colors, sp->n_colors,
                                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        .pResolveAttachments = put_refs (r, refs + 2 * PSC_MAX_SUBPASS_REFS, sp->resolves,
                                         sp->n_resolves, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        .pDepthStencilAttachment = sp->depth_stencil >= 0 ? ds : NULL,
      };
    }
  for (guint i = 0; i < r->n_dependencies; i++)
    {
      const PscRecipeDependency *d = &r->dependencies[i];
      b->dependencies[i] = (VkSubpassDependency) {
        d->src_subpass, d->dst_subpass, d->src_stage_mask, d->dst_stage_mask,
        d->src_access_mask, d->dst_access_mask, d->dependency_flags,
      };
    }
  ci = (VkRenderPassCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = r->n_attachments,
    .pAttachments = r->n_attachments > 0 ? b->attachments : NULL,
    .subpassCount = r->n_subpasses,
    .pSubpasses = b->subpasses,
    .dependencyCount = r->n_dependencies,
    .pDependencies = r->n_dependencies > 0 ? b->dependencies : NULL,
  };
  return m->render_pass (m->ctx, &ci, &b->pass, error);
}

/* ---------------------------------------------------------------------------
 * The pipeline
 */

static gint
compare_stage_bits (gconstpointer a, gconstpointer b, gpointer data)
{
  PscRecipe *r = data;
  guint x = r->stages[*(const guint *) a].stage, y = r->stages[*(const guint *) b].stage;
  return x < y ? -1 : x > y;
}

static gboolean
build_modules (PscRecipeBuild *b, const PscRecipeMaker *m, GError **error)
{
  PscRecipe *r = b->recipe;
  guint order[PSC_MAX_GRAPHICS_STAGES];

  for (guint i = 0; i < r->n_stages; i++)
    order[i] = i;
  g_qsort_with_data (order, r->n_stages, sizeof (guint), compare_stage_bits, r);
  for (guint k = 0; k < r->n_stages; k++)
    if (!m->shader (m->ctx, &r->stages[order[k]], &b->modules[order[k]], error))
      return FALSE;
  return TRUE;
}

static void
build_stages (PscRecipeBuild *b)
{
  PscRecipe *r = b->recipe;

  for (guint i = 0; i < r->n_stages; i++)
    {
      const PscRecipeStage *st = &r->stages[i];
      guint32 offset = 0;
      for (guint j = 0; j < st->n_spec; j++)
        {
          b->map[i][j] = (VkSpecializationMapEntry) { st->spec[j].constant_id, offset, st->spec[j].size };
          memcpy (b->spec_data[i] + offset, st->spec[j].bytes, st->spec[j].size);
          offset += st->spec[j].size;
        }
      b->spec[i] = (VkSpecializationInfo) { st->n_spec, b->map[i], offset, b->spec_data[i] };
      b->stages[i] = (VkPipelineShaderStageCreateInfo) {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = (VkShaderStageFlagBits) st->stage,
        .module = b->modules[i],
        .pName = st->entry_point,
        .pSpecializationInfo = st->n_spec > 0 ? &b->spec[i] : NULL,
      };
    }
}

static void
build_fixed_function (PscRecipeBuild *b)
{
  PscRecipe *r = b->recipe;

  for (guint i = 0; i < r->n_vertex_bindings; i++)
    b->vertex_bindings[i] = (VkVertexInputBindingDescription) {
      r->vertex_bindings[i].binding, r->vertex_bindings[i].stride,
      (VkVertexInputRate) r->vertex_bindings[i].input_rate };
  for (guint i = 0; i < r->n_vertex_attributes; i++)
    b->vertex_attributes[i] = (VkVertexInputAttributeDescription) {
      r->vertex_attributes[i].location, r->vertex_attributes[i].binding,
      (VkFormat) r->vertex_attributes[i].format, r->vertex_attributes[i].offset };
  b->vertex_input = (VkPipelineVertexInputStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
    .vertexBindingDescriptionCount = r->n_vertex_bindings,
    .pVertexBindingDescriptions = r->n_vertex_bindings ? b->vertex_bindings : NULL,
    .vertexAttributeDescriptionCount = r->n_vertex_attributes,
    .pVertexAttributeDescriptions = r->n_vertex_attributes ? b->vertex_attributes : NULL,
  };
  b->input_assembly = (VkPipelineInputAssemblyStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
    .topology = (VkPrimitiveTopology) r->topology,
    .primitiveRestartEnable = r->primitive_restart,
  };
  b->tessellation = (VkPipelineTessellationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
    .patchControlPoints = r->patch_control_points,
  };
  b->viewport = (VkPipelineViewportStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
    .viewportCount = r->viewport_count,
    .scissorCount = r->scissor_count,
  };
  b->rasterization = (VkPipelineRasterizationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
    .depthClampEnable = r->depth_clamp,
    .rasterizerDiscardEnable = r->rasterizer_discard,
    .polygonMode = (VkPolygonMode) r->polygon_mode,
    .cullMode = r->cull_mode,
    .frontFace = (VkFrontFace) r->front_face,
    .depthBiasEnable = r->depth_bias_enable,
    .depthBiasConstantFactor = r->depth_bias_constant,
    .depthBiasClamp = r->depth_bias_clamp,
    .depthBiasSlopeFactor = r->depth_bias_slope,
    .lineWidth = r->line_width,
  };
  b->sample_mask[0] = (VkSampleMask) (r->sample_mask & 0xFFFFFFFFu);
  b->sample_mask[1] = (VkSampleMask) (r->sample_mask >> 32);
  b->multisample = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = (VkSampleCountFlagBits) r->samples,
    .sampleShadingEnable = r->sample_shading,
    .minSampleShading = r->min_sample_shading,
    .pSampleMask = r->sample_mask == G_MAXUINT64 ? NULL : b->sample_mask,
    .alphaToCoverageEnable = r->alpha_to_coverage,
    .alphaToOneEnable = r->alpha_to_one,
  };
  b->depth_stencil = (VkPipelineDepthStencilStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = r->depth_test,
    .depthWriteEnable = r->depth_write,
    .depthCompareOp = (VkCompareOp) r->depth_compare,
    .depthBoundsTestEnable = r->depth_bounds_test,
    .stencilTestEnable = r->stencil_test,
    .minDepthBounds = r->min_depth_bounds,
    .maxDepthBounds = r->max_depth_bounds,
  };
  for (guint f = 0; f < 2; f++)
    {
      VkStencilOpState *s = f == 0 ? &b->depth_stencil.front : &b->depth_stencil.back;
      *s = (VkStencilOpState) {
        (VkStencilOp) r->stencil[f].fail_op, (VkStencilOp) r->stencil[f].pass_op,
        (VkStencilOp) r->stencil[f].depth_fail_op, (VkCompareOp) r->stencil[f].compare_op,
        r->stencil[f].compare_mask, r->stencil[f].write_mask, r->stencil[f].reference };
    }
}

static void
build_blend_and_dynamic (PscRecipeBuild *b)
{
  PscRecipe *r = b->recipe;
  guint colors = color_count (r), n = 0;
  gboolean viewport = FALSE, scissor = FALSE;

  for (guint i = 0; i < colors; i++)
    {
      const PscRecipeBlend *p = &r->blend[i];
      b->blend[i] = (VkPipelineColorBlendAttachmentState) {
        p->enable, (VkBlendFactor) p->src_color, (VkBlendFactor) p->dst_color,
        (VkBlendOp) p->color_op, (VkBlendFactor) p->src_alpha, (VkBlendFactor) p->dst_alpha,
        (VkBlendOp) p->alpha_op, p->write_mask };
    }
  b->color_blend = (VkPipelineColorBlendStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
    .logicOpEnable = r->logic_op_enable,
    .logicOp = (VkLogicOp) r->logic_op,
    .attachmentCount = colors,
    .pAttachments = colors > 0 ? b->blend : NULL,
  };
  memcpy (b->color_blend.blendConstants, r->blend_constants, sizeof r->blend_constants);

  for (guint i = 0; i < r->n_dynamic; i++)
    {
      b->dynamic[n++] = (VkDynamicState) r->dynamic[i];
      viewport |= r->dynamic[i] == VK_DYNAMIC_STATE_VIEWPORT ||
                  r->dynamic[i] == VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
      scissor |= r->dynamic[i] == VK_DYNAMIC_STATE_SCISSOR ||
                 r->dynamic[i] == VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
    }
  if (!viewport)
    b->dynamic[n++] = VK_DYNAMIC_STATE_VIEWPORT;
  if (!scissor)
    b->dynamic[n++] = VK_DYNAMIC_STATE_SCISSOR;
  b->dynamic_state = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = n,
    .pDynamicStates = b->dynamic,
  };
}

static void
build_graphics (PscRecipeBuild *b)
{
  PscRecipe *r = b->recipe;
  gboolean legacy = psc_recipe_get_uses_render_pass (r);
  gboolean tess = has_stage (r, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) ||
                  has_stage (r, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);

  build_stages (b);
  build_fixed_function (b);
  build_blend_and_dynamic (b);
  for (guint i = 0; i < r->n_color_formats; i++)
    b->color_formats[i] = (VkFormat) r->color_formats[i];
  b->rendering = (VkPipelineRenderingCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
    .viewMask = r->view_mask,
    .colorAttachmentCount = r->n_color_formats,
    .pColorAttachmentFormats = r->n_color_formats > 0 ? b->color_formats : NULL,
    .depthAttachmentFormat = (VkFormat) r->depth_format,
    .stencilAttachmentFormat = (VkFormat) r->stencil_format,
  };
  b->graphics = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .pNext = legacy ? NULL : &b->rendering,
    .flags = r->create_flags,
    .stageCount = r->n_stages,
    .pStages = b->stages,
    .pVertexInputState = &b->vertex_input,
    .pInputAssemblyState = &b->input_assembly,
    .pTessellationState = tess ? &b->tessellation : NULL,
    .pViewportState = &b->viewport,
    .pRasterizationState = &b->rasterization,
    .pMultisampleState = &b->multisample,
    .pDepthStencilState = &b->depth_stencil,
    .pColorBlendState = &b->color_blend,
    .pDynamicState = &b->dynamic_state,
    .layout = b->layout,
    .renderPass = legacy ? b->pass : VK_NULL_HANDLE,
    .subpass = legacy ? r->subpass : 0,
    .basePipelineIndex = -1,
  };
}

PscRecipeBuild *
psc_recipe_build (PscRecipe            *recipe,
                  const PscRecipeMaker *maker,
                  PscRecipeBuildWhat    what,
                  GError              **error)
{
  PscRecipeBuild *b;
  gboolean ok;

  if (what == PSC_RECIPE_BUILD_PIPELINE && !psc_recipe_check (recipe, error))
    return NULL;
  if (what == PSC_RECIPE_BUILD_LAYOUT && !check_layout (recipe, error))
    return NULL;

  b = g_new0 (PscRecipeBuild, 1);
  b->recipe = g_object_ref (recipe);
  switch (what)
    {
    case PSC_RECIPE_BUILD_LAYOUT:
      ok = build_layout (b, maker, error);
      break;
    case PSC_RECIPE_BUILD_PASS:
      ok = build_pass (b, maker, error);
      break;
    case PSC_RECIPE_BUILD_PIPELINE:
    default:
      ok = build_modules (b, maker, error) && build_layout (b, maker, error) &&
           build_pass (b, maker, error);
      if (ok && recipe->kind == PSC_RECIPE_KIND_GRAPHICS)
        build_graphics (b);
      else if (ok)
        {
          build_stages (b);
          b->compute = (VkComputePipelineCreateInfo) {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .flags = recipe->create_flags,
            .stage = b->stages[0],
            .layout = b->layout,
            .basePipelineIndex = -1,
          };
        }
      break;
    }
  if (!ok)
    {
      psc_recipe_build_free (b);
      return NULL;
    }
  return b;
}

void
psc_recipe_build_free (PscRecipeBuild *build)
{
  if (build == NULL)
    return;
  g_object_unref (build->recipe);
  g_free (build);
}

const VkGraphicsPipelineCreateInfo *
psc_recipe_build_graphics (PscRecipeBuild *build)
{
  return &build->graphics;
}

const VkComputePipelineCreateInfo *
psc_recipe_build_compute (PscRecipeBuild *build)
{
  return &build->compute;
}

VkPipelineLayout
psc_recipe_build_layout (PscRecipeBuild *build)
{
  return build->layout;
}

VkDescriptorSetLayout
psc_recipe_build_set_layout (PscRecipeBuild *build, guint set)
{
  return set < PSC_MAX_SET_LAYOUTS ? build->set_layouts[set] : VK_NULL_HANDLE;
}

VkRenderPass
psc_recipe_build_render_pass (PscRecipeBuild *build)
{
  return build->pass;
}
