/* psc-recipe-import.c: the recipe of a graphics or compute create info
 * (psc-recipe-import.h): every state read through the recipe's own
 * setters, so the recipe holds only what they accept; the objects the
 * create info names read back through the look-ups.
 *
 * The create infos this reads are the canonical ones of the cache's keys
 * (decoded: core/readback.h), so state Vulkan ignores is already
 * normalized; what a recipe cannot say at all (stage or attachment flags,
 * preserve attachments, multiview passes, specialization entries for
 * constants the shader does not declare, a state a recipe always gives
 * that the pipeline did not) fails with PSC_ERROR_UNSUPPORTED naming the
 * Vulkan field.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-import.h"

#include <string.h>

#define PATH_MAX_LEN 192

static gboolean
unsupported (GError **error, const char *path, const char *detail)
{
  return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "%s", detail);
}

/* A pNext chain that may hold only @allowed (0: nothing) and feedback. */
static gboolean
check_chain (const void *pnext, VkStructureType allowed, gboolean feedback_ok, const char *prefix,
             GError **error)
{
  guint i = 0;
  for (const VkBaseInStructure *n = pnext; n != NULL; n = n->pNext, i++)
    if (!((allowed != 0 && n->sType == allowed) ||
          (feedback_ok && n->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)))
      {
        char path[PATH_MAX_LEN];
        g_snprintf (path, sizeof path, "%spNext[%u].sType", prefix, i);
        return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                                "%d has no recipe form", (int) n->sType);
      }
  return TRUE;
}

static const void *
find_in_chain (const void *pnext, VkStructureType type)
{
  for (const VkBaseInStructure *n = pnext; n != NULL; n = n->pNext)
    if (n->sType == type)
      return n;
  return NULL;
}

/* ---------------------------------------------------------------------------
 * Stages
 */

static guint32
declared_size (const PscRecipeStage *st, guint32 constant_id)
{
  for (guint32 k = 0; k < st->n_declared; k++)
    if (st->declared[k].constant_id == constant_id)
      return st->declared[k].size;
  return 0;
}

/* Little-endian host (psc-recipe.c asserts it): the value's first bytes
 * are its low ones. */
static guint64
spec_value (const guint8 *data, gsize size)
{
  guint64 v = 0;
  memcpy (&v, data, MIN (size, sizeof v));
  return v;
}

static gboolean
import_stage (PscRecipe *r, const VkPipelineShaderStageCreateInfo *s, const char *prefix,
              const PscRecipeLookup *lookup, GError **error)
{
  char path[PATH_MAX_LEN];
  g_autoptr(GBytes) spirv = NULL;
  const VkSpecializationInfo *si = s->pSpecializationInfo;
  const PscRecipeStage *st;
  gint index;

  if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)
    {
      g_snprintf (path, sizeof path, "%s.sType", prefix);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "not VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO");
    }
  g_snprintf (path, sizeof path, "%s.", prefix);
  if (!check_chain (s->pNext, 0, FALSE, path, error))
    return FALSE;
  if (s->flags != 0)
    {
      g_snprintf (path, sizeof path, "%s.flags", prefix);
      return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                              "0x%x: a recipe has no stage flags", s->flags);
    }
  g_snprintf (path, sizeof path, "%s.module", prefix);
  spirv = lookup->shader (lookup->ctx, s->module, path, error);
  if (spirv == NULL)
    return FALSE;
  index = psc_recipe_add_stage (r, s->stage, spirv, s->pName, error);
  if (index < 0)
    return FALSE;
  st = &r->stages[index];
  for (guint32 j = 0; si != NULL && j < si->mapEntryCount; j++)
    {
      const VkSpecializationMapEntry *e = &si->pMapEntries[j];
      const guint32 size = declared_size (st, e->constantID);

      g_snprintf (path, sizeof path, "%s.pSpecializationInfo->pMapEntries[%u]", prefix, j);
      if (size == 0)
        return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                                "constant %u is not declared by the shader: a recipe keeps only "
                                "the constants its SPIR-V declares", e->constantID);
      if (e->size != size || (guint64) e->offset + e->size > si->dataSize)
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                "%zu bytes at offset %u for the %u-byte constant %u (data: %zu bytes)",
                                e->size, e->offset, size, e->constantID, si->dataSize);
      if (!psc_recipe_set_specialization_uint (r, (guint) index, e->constantID,
                                               spec_value ((const guint8 *) si->pData + e->offset,
                                                           e->size),
                                               error))
        return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Layout
 */

static PscSamplerInfo *
import_sampler (const VkSamplerCreateInfo *ci, const char *prefix, GError **error)
{
  g_autoptr(PscSamplerInfo) info = psc_sampler_info_new ();
  const VkSamplerReductionModeCreateInfo *reduction;
  char path[PATH_MAX_LEN];
  GError *e = NULL;

  g_snprintf (path, sizeof path, "%s->", prefix);
  if (!check_chain (ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO, FALSE, path,
                    error))
    return NULL;
  if (ci->flags != 0)
    {
      g_snprintf (path, sizeof path, "%s->flags", prefix);
      psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "0x%x: a recipe's sampler has no flags",
                       ci->flags);
      return NULL;
    }
  reduction = find_in_chain (ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
  if (!psc_sampler_info_set_filters (info, ci->magFilter, ci->minFilter, ci->mipmapMode, &e) ||
      !psc_sampler_info_set_address_modes (info, ci->addressModeU, ci->addressModeV,
                                           ci->addressModeW, &e) ||
      !psc_sampler_info_set_lod (info, ci->mipLodBias, ci->minLod, ci->maxLod, &e) ||
      !psc_sampler_info_set_anisotropy (info, ci->anisotropyEnable, ci->maxAnisotropy, &e) ||
      !psc_sampler_info_set_compare (info, ci->compareEnable, ci->compareOp, &e) ||
      !psc_sampler_info_set_border_color (info, ci->borderColor, &e) ||
      (reduction != NULL &&
       !psc_sampler_info_set_reduction_mode (info, reduction->reductionMode, &e)))
    {
      g_prefix_error (&e, "%s: ", prefix);
      g_propagate_error (error, e);
      return NULL;
    }
  psc_sampler_info_set_unnormalized_coordinates (info, ci->unnormalizedCoordinates);
  return g_steal_pointer (&info);
}

static gboolean
import_set_layout (PscRecipe *r, const VkDescriptorSetLayoutCreateInfo *ci, const char *prefix,
                   const PscRecipeLookup *lookup, GError **error)
{
  const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags;
  char path[PATH_MAX_LEN];
  gint set;

  g_snprintf (path, sizeof path, "%s->", prefix);
  if (!check_chain (ci->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
                    FALSE, path, error))
    return FALSE;
  flags = find_in_chain (ci->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
  if (flags != NULL && flags->bindingCount != 0 && flags->bindingCount != ci->bindingCount)
    {
      g_snprintf (path, sizeof path, "%s->pNext->bindingCount", prefix);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "%u for %u bindings",
                              flags->bindingCount, ci->bindingCount);
    }
  set = psc_recipe_add_set_layout (r, ci->flags, error);
  if (set < 0)
    return FALSE;
  for (guint32 b = 0; b < ci->bindingCount; b++)
    {
      const VkDescriptorSetLayoutBinding *bind = &ci->pBindings[b];
      const gboolean takes_samplers = bind->descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
                                      bind->descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;

      if (!psc_recipe_add_set_binding (r, (guint) set, bind->binding, bind->descriptorType,
                                       bind->descriptorCount, bind->stageFlags,
                                       flags != NULL && flags->bindingCount != 0
                                       ? flags->pBindingFlags[b] : 0,
                                       error))
        return FALSE;
      /* Vulkan (and the key) read immutable samplers only for these types. */
      if (!takes_samplers || bind->pImmutableSamplers == NULL)
        continue;
      for (guint32 k = 0; k < bind->descriptorCount; k++)
        {
          const VkSamplerCreateInfo *sci;
          g_autoptr(PscSamplerInfo) info = NULL;

          g_snprintf (path, sizeof path, "%s->pBindings[%u].pImmutableSamplers[%u]", prefix, b, k);
          sci = lookup->sampler (lookup->ctx, bind->pImmutableSamplers[k], path, error);
          if (sci == NULL || (info = import_sampler (sci, path, error)) == NULL ||
              !psc_recipe_add_immutable_sampler (r, (guint) set, bind->binding, info, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
import_layout (PscRecipe *r, VkPipelineLayout layout, const PscRecipeLookup *lookup,
               GError **error)
{
  const VkPipelineLayoutCreateInfo *ci = lookup->pipeline_layout (lookup->ctx, layout, "layout",
                                                                  error);
  char path[PATH_MAX_LEN];

  if (ci == NULL || !check_chain (ci->pNext, 0, FALSE, "layout->", error))
    return FALSE;
  if (ci->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "layout->flags",
                            "0x%x: a recipe's pipeline layout has no flags", ci->flags);
  for (guint32 i = 0; i < ci->setLayoutCount; i++)
    {
      const VkDescriptorSetLayoutCreateInfo *set;
      g_snprintf (path, sizeof path, "layout->pSetLayouts[%u]", i);
      set = lookup->set_layout (lookup->ctx, ci->pSetLayouts[i], path, error);
      if (set == NULL || !import_set_layout (r, set, path, lookup, error))
        return FALSE;
    }
  for (guint32 i = 0; i < ci->pushConstantRangeCount; i++)
    {
      const VkPushConstantRange *p = &ci->pPushConstantRanges[i];
      if (!psc_recipe_add_push_constant_range (r, p->stageFlags, p->offset, p->size, error))
        return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Graphics state
 */

static gboolean
has_dynamic (const VkGraphicsPipelineCreateInfo *ci, VkDynamicState state)
{
  const VkPipelineDynamicStateCreateInfo *d = ci->pDynamicState;
  for (guint32 i = 0; d != NULL && i < d->dynamicStateCount; i++)
    if (d->pDynamicStates[i] == state)
      return TRUE;
  return FALSE;
}

static gboolean
import_dynamic (PscRecipe *r, const VkGraphicsPipelineCreateInfo *ci, GError **error)
{
  const VkPipelineDynamicStateCreateInfo *d = ci->pDynamicState;
  const gboolean viewport_count = has_dynamic (ci, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
  const gboolean scissor_count = has_dynamic (ci, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);

  /* A recipe's viewports and scissors are always dynamic (a pipeline that
   * discards its rasterization statically may leave them static). */
  if (!viewport_count && !has_dynamic (ci, VK_DYNAMIC_STATE_VIEWPORT))
    return unsupported (error, "pDynamicState",
                        "VK_DYNAMIC_STATE_VIEWPORT is not dynamic: a recipe's viewports always are");
  if (!scissor_count && !has_dynamic (ci, VK_DYNAMIC_STATE_SCISSOR))
    return unsupported (error, "pDynamicState",
                        "VK_DYNAMIC_STATE_SCISSOR is not dynamic: a recipe's scissors always are");
  if (d != NULL && !check_chain (d->pNext, 0, FALSE, "pDynamicState->", error))
    return FALSE;
  for (guint32 i = 0; d != NULL && i < d->dynamicStateCount; i++)
    {
      const VkDynamicState s = d->pDynamicStates[i];
      /* The build adds these when their _WITH_COUNT form is absent. */
      if ((s == VK_DYNAMIC_STATE_VIEWPORT && !viewport_count) ||
          (s == VK_DYNAMIC_STATE_SCISSOR && !scissor_count))
        continue;
      if (!psc_recipe_add_dynamic_state (r, s, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
import_vertex_input (PscRecipe *r, const VkPipelineVertexInputStateCreateInfo *vi, GError **error)
{
  if (vi == NULL)
    return TRUE;
  if (!check_chain (vi->pNext, 0, FALSE, "pVertexInputState->", error))
    return FALSE;
  for (guint32 i = 0; i < vi->vertexBindingDescriptionCount; i++)
    {
      const VkVertexInputBindingDescription *b = &vi->pVertexBindingDescriptions[i];
      if (!psc_recipe_add_vertex_binding (r, b->binding, b->stride, b->inputRate, error))
        return FALSE;
    }
  for (guint32 i = 0; i < vi->vertexAttributeDescriptionCount; i++)
    {
      const VkVertexInputAttributeDescription *a = &vi->pVertexAttributeDescriptions[i];
      if (!psc_recipe_add_vertex_attribute (r, a->location, a->binding, a->format, a->offset, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
import_viewport (PscRecipe *r, const VkGraphicsPipelineCreateInfo *ci, GError **error)
{
  const VkPipelineViewportStateCreateInfo *vp = ci->pViewportState;
  guint32 v, s;

  if (vp == NULL)
    return TRUE;
  if (!check_chain (vp->pNext, 0, FALSE, "pViewportState->", error))
    return FALSE;
  /* A count made dynamic is not part of the pipeline. */
  v = has_dynamic (ci, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT) ? 0 : vp->viewportCount;
  s = has_dynamic (ci, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT) ? 0 : vp->scissorCount;
  if (v == 0 && s == 0)
    v = s = 1;
  else if (v == 0)
    v = s;
  else if (s == 0)
    s = v;
  if (v != s)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "pViewportState",
                            "%u viewports and %u scissors: a recipe has one count for both", v, s);
  return psc_recipe_set_viewport_count (r, v, s, error);
}

static gboolean
import_rasterization (PscRecipe *r, const VkGraphicsPipelineCreateInfo *ci, GError **error)
{
  const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
  gfloat line_width;

  if (rs == NULL)
    return TRUE;
  if (!check_chain (rs->pNext, 0, FALSE, "pRasterizationState->", error))
    return FALSE;
  if (rs->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "pRasterizationState->flags", "0x%x",
                            rs->flags);
  /* A dynamic line width is no part of the pipeline (the key holds 0). */
  line_width = rs->lineWidth;
  if (has_dynamic (ci, VK_DYNAMIC_STATE_LINE_WIDTH) && !(line_width > 0.0f))
    line_width = 1.0f;
  return psc_recipe_set_rasterization (r, rs->polygonMode, rs->cullMode, rs->frontFace,
                                       line_width, error) &&
         psc_recipe_set_rasterization_flags (r, rs->depthClampEnable, rs->rasterizerDiscardEnable,
                                             error) &&
         psc_recipe_set_depth_bias (r, rs->depthBiasEnable, rs->depthBiasConstantFactor,
                                    rs->depthBiasClamp, rs->depthBiasSlopeFactor, error);
}

static gboolean
import_multisample (PscRecipe *r, const VkPipelineMultisampleStateCreateInfo *ms, GError **error)
{
  guint64 mask;

  if (ms == NULL)
    return TRUE;
  if (!check_chain (ms->pNext, 0, FALSE, "pMultisampleState->", error))
    return FALSE;
  if (!psc_recipe_set_multisample (r, ms->rasterizationSamples, ms->sampleShadingEnable,
                                   ms->minSampleShading, ms->alphaToCoverageEnable,
                                   ms->alphaToOneEnable, error))
    return FALSE;
  if (ms->pSampleMask == NULL)
    return TRUE;
  /* pSampleMask has one word per 32 samples; bits beyond the count do not
   * matter. */
  mask = ms->pSampleMask[0] | G_GUINT64_CONSTANT (0xFFFFFFFF00000000);
  if (ms->rasterizationSamples > VK_SAMPLE_COUNT_32_BIT)
    mask = ms->pSampleMask[0] | (guint64) ms->pSampleMask[1] << 32;
  return psc_recipe_set_sample_mask (r, mask, error);
}

static gboolean
import_stencil_face (PscRecipe *r, guint face, const VkStencilOpState *s, GError **error)
{
  return psc_recipe_set_stencil_face (r, face, s->failOp, s->passOp, s->depthFailOp, s->compareOp,
                                      s->compareMask, s->writeMask, s->reference, error);
}

static gboolean
import_depth_stencil (PscRecipe *r, const VkPipelineDepthStencilStateCreateInfo *ds,
                      GError **error)
{
  if (ds == NULL)
    return TRUE;
  if (!check_chain (ds->pNext, 0, FALSE, "pDepthStencilState->", error))
    return FALSE;
  if (ds->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "pDepthStencilState->flags", "0x%x",
                            ds->flags);
  return psc_recipe_set_depth (r, ds->depthTestEnable, ds->depthWriteEnable, ds->depthCompareOp,
                               error) &&
         psc_recipe_set_depth_bounds (r, ds->depthBoundsTestEnable, ds->minDepthBounds,
                                      ds->maxDepthBounds, error) &&
         psc_recipe_set_stencil_test (r, ds->stencilTestEnable, error) &&
         import_stencil_face (r, VK_STENCIL_FACE_FRONT_BIT, &ds->front, error) &&
         import_stencil_face (r, VK_STENCIL_FACE_BACK_BIT, &ds->back, error);
}

static gboolean
import_color_blend (PscRecipe *r, const VkPipelineColorBlendStateCreateInfo *cb, GError **error)
{
  if (cb == NULL)
    return TRUE;
  if (!check_chain (cb->pNext, 0, FALSE, "pColorBlendState->", error))
    return FALSE;
  if (cb->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "pColorBlendState->flags", "0x%x",
                            cb->flags);
  if (!psc_recipe_set_logic_op (r, cb->logicOpEnable, cb->logicOp, error) ||
      !psc_recipe_set_blend_constants (r, cb->blendConstants[0], cb->blendConstants[1],
                                       cb->blendConstants[2], cb->blendConstants[3], error))
    return FALSE;
  for (guint32 i = 0; i < cb->attachmentCount; i++)
    {
      const VkPipelineColorBlendAttachmentState *a = &cb->pAttachments[i];
      if (!psc_recipe_set_blend_attachment (r, i, a->blendEnable, a->srcColorBlendFactor,
                                            a->dstColorBlendFactor, a->colorBlendOp,
                                            a->srcAlphaBlendFactor, a->dstAlphaBlendFactor,
                                            a->alphaBlendOp, a->colorWriteMask, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
import_rendering (PscRecipe *r, const VkPipelineRenderingCreateInfo *ri, GError **error)
{
  if (ri == NULL)
    return TRUE;
  for (guint32 i = 0; i < ri->colorAttachmentCount; i++)
    if (!psc_recipe_add_color_format (r, ri->pColorAttachmentFormats[i], error))
      return FALSE;
  if (ri->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
      ri->stencilAttachmentFormat != VK_FORMAT_UNDEFINED)
    if (!psc_recipe_set_depth_stencil_format (r, ri->depthAttachmentFormat,
                                              ri->stencilAttachmentFormat, error))
      return FALSE;
  return ri->viewMask == 0 || psc_recipe_set_view_mask (r, ri->viewMask, error);
}

static gboolean
import_subpass (PscRecipe *r, const VkSubpassDescription *sp, guint index, GError **error)
{
  guint colors[PSC_MAX_SUBPASS_REFS], resolves[PSC_MAX_SUBPASS_REFS], inputs[PSC_MAX_SUBPASS_REFS];
  char path[PATH_MAX_LEN];
  gint depth = -1;

  g_snprintf (path, sizeof path, "renderPass->pSubpasses[%u]", index);
  if (sp->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                            "flags 0x%x: a recipe's subpass has no flags", sp->flags);
  if (sp->pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "bind point %d is not graphics",
                            (int) sp->pipelineBindPoint);
  if (sp->preserveAttachmentCount != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                            "%u preserve attachments: a recipe's subpass has none",
                            sp->preserveAttachmentCount);
  if (sp->colorAttachmentCount > PSC_MAX_SUBPASS_REFS || sp->inputAttachmentCount > PSC_MAX_SUBPASS_REFS)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "more than %u references",
                            PSC_MAX_SUBPASS_REFS);
  for (guint32 j = 0; j < sp->colorAttachmentCount; j++)
    {
      colors[j] = sp->pColorAttachments[j].attachment;
      resolves[j] = sp->pResolveAttachments != NULL ? sp->pResolveAttachments[j].attachment
                                                    : VK_ATTACHMENT_UNUSED;
    }
  for (guint32 j = 0; j < sp->inputAttachmentCount; j++)
    inputs[j] = sp->pInputAttachments[j].attachment;
  if (sp->pDepthStencilAttachment != NULL &&
      sp->pDepthStencilAttachment->attachment != VK_ATTACHMENT_UNUSED)
    depth = (gint) sp->pDepthStencilAttachment->attachment;
  return psc_recipe_add_subpass (r, colors, sp->colorAttachmentCount, resolves,
                                 sp->pResolveAttachments != NULL ? sp->colorAttachmentCount : 0,
                                 inputs, sp->inputAttachmentCount, depth, error) >= 0;
}

static gboolean
import_render_pass (PscRecipe *r, const VkGraphicsPipelineCreateInfo *ci,
                    const PscRecipeLookup *lookup, GError **error)
{
  const VkRenderPassCreateInfo *rp = lookup->render_pass (lookup->ctx, ci->renderPass, "renderPass",
                                                          error);
  char path[PATH_MAX_LEN];

  if (rp == NULL)
    return FALSE;
  if (find_in_chain (rp->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO) != NULL)
    return unsupported (error, "renderPass->pNext", "a multiview render pass has no recipe form");
  if (!check_chain (rp->pNext, 0, FALSE, "renderPass->", error))
    return FALSE;
  if (rp->flags != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "renderPass->flags", "0x%x", rp->flags);
  for (guint32 i = 0; i < rp->attachmentCount; i++)
    {
      const VkAttachmentDescription *a = &rp->pAttachments[i];
      if (a->flags != 0)
        {
          g_snprintf (path, sizeof path, "renderPass->pAttachments[%u].flags", i);
          return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                                  "0x%x: a recipe's attachment has no flags", a->flags);
        }
      if (psc_recipe_add_pass_attachment (r, a->format, a->samples, error) < 0)
        return FALSE;
    }
  for (guint32 s = 0; s < rp->subpassCount; s++)
    if (!import_subpass (r, &rp->pSubpasses[s], s, error))
      return FALSE;
  for (guint32 i = 0; i < rp->dependencyCount; i++)
    {
      const VkSubpassDependency *d = &rp->pDependencies[i];
      if (!psc_recipe_add_subpass_dependency (r, d->srcSubpass, d->dstSubpass, d->srcStageMask,
                                              d->dstStageMask, d->srcAccessMask, d->dstAccessMask,
                                              d->dependencyFlags, error))
        return FALSE;
    }
  return psc_recipe_set_subpass (r, ci->subpass, error);
}

/* ---------------------------------------------------------------------------
 * Entry points
 */

PscRecipe *
psc_recipe_import_graphics (const VkGraphicsPipelineCreateInfo *ci,
                            const PscRecipeLookup              *lookup,
                            GError                            **error)
{
  g_autoptr(PscRecipe) r = psc_recipe_new_graphics ();
  const gboolean legacy = ci->renderPass != VK_NULL_HANDLE;
  const gboolean discard = ci->pRasterizationState != NULL &&
                           ci->pRasterizationState->rasterizerDiscardEnable &&
                           !has_dynamic (ci, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
  char path[PATH_MAX_LEN];

  if (ci->sType != VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "sType",
                            "not VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO"), NULL;
  if (!check_chain (ci->pNext, legacy ? 0 : VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, TRUE,
                    "", error))
    return NULL;
  if (ci->basePipelineHandle != VK_NULL_HANDLE)
    return unsupported (error, "basePipelineHandle", "a recipe has no base pipeline"), NULL;
  /* A recipe on a render pass always gives these two states (the legacy
   * backend keys them whenever they are given). */
  if (legacy && !discard && ci->pDepthStencilState == NULL)
    return unsupported (error, "pDepthStencilState",
                        "NULL: a recipe with a render pass always describes one (the pipeline "
                        "has no exact recipe)"), NULL;
  if (legacy && !discard && ci->pColorBlendState == NULL)
    return unsupported (error, "pColorBlendState",
                        "NULL: a recipe with a render pass always describes one (the pipeline "
                        "has no exact recipe)"), NULL;
  if (!psc_recipe_set_create_flags (r, ci->flags, error))
    return NULL;
  for (guint32 i = 0; i < ci->stageCount; i++)
    {
      g_snprintf (path, sizeof path, "pStages[%u]", i);
      if (!import_stage (r, &ci->pStages[i], path, lookup, error))
        return NULL;
    }
  if (!import_layout (r, ci->layout, lookup, error) ||
      !import_dynamic (r, ci, error) ||
      !import_vertex_input (r, ci->pVertexInputState, error))
    return NULL;
  if (ci->pInputAssemblyState != NULL &&
      (!check_chain (ci->pInputAssemblyState->pNext, 0, FALSE, "pInputAssemblyState->", error) ||
       !psc_recipe_set_input_assembly (r, ci->pInputAssemblyState->topology,
                                       ci->pInputAssemblyState->primitiveRestartEnable, error)))
    return NULL;
  if (ci->pTessellationState != NULL &&
      (!check_chain (ci->pTessellationState->pNext, 0, FALSE, "pTessellationState->", error) ||
       !psc_recipe_set_patch_control_points (r, ci->pTessellationState->patchControlPoints,
                                             error)))
    return NULL;
  if (!import_viewport (r, ci, error) ||
      !import_rasterization (r, ci, error) ||
      !import_multisample (r, ci->pMultisampleState, error) ||
      !import_depth_stencil (r, ci->pDepthStencilState, error) ||
      !import_color_blend (r, ci->pColorBlendState, error))
    return NULL;
  if (legacy ? !import_render_pass (r, ci, lookup, error)
             : !import_rendering (r, find_in_chain (ci->pNext,
                                                    VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO),
                                  error))
    return NULL;
  return g_steal_pointer (&r);
}

PscRecipe *
psc_recipe_import_compute (const VkComputePipelineCreateInfo *ci,
                           const PscRecipeLookup             *lookup,
                           GError                           **error)
{
  g_autoptr(PscRecipe) r = psc_recipe_new_compute ();

  if (ci->sType != VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "sType",
                            "not VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO"), NULL;
  if (!check_chain (ci->pNext, 0, TRUE, "", error))
    return NULL;
  if (ci->basePipelineHandle != VK_NULL_HANDLE)
    return unsupported (error, "basePipelineHandle", "a recipe has no base pipeline"), NULL;
  if (!psc_recipe_set_create_flags (r, ci->flags, error) ||
      !import_stage (r, &ci->stage, "stage", lookup, error) ||
      !import_layout (r, ci->layout, lookup, error))
    return NULL;
  return g_steal_pointer (&r);
}
