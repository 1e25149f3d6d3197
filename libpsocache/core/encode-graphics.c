/* encode-graphics.c: the complete graphics encoder (every supported input,
 * and the reference for every error: status, field path and message).
 *
 * What the graphics key holds (layout in keys.h):
 *  - creation flags that affect compilation, pipeline-layout id, the dynamic
 *    state set (one bit per state), the rendering description (dynamic:
 *    view mask, colour/depth/stencil formats; legacy: compatibility-pass id
 *    and subpass);
 *  - every non-dynamic fixed-function input, where a value that Vulkan
 *    ignores is normalized to 0: values made dynamic, blend factors of
 *    attachments with blending off, blend constants no factor reads, depth
 *    compare op / write enable without the depth test, stencil state without
 *    the stencil test, depth bounds without the bounds test, depth-bias
 *    constants without depth bias, min sample shading without sample
 *    shading, the logic op without logic op enable, the line width where
 *    no line is rasterized (psc_graphics_rasterizes_lines), and all
 *    viewport, multisample, depth/stencil and blend state when
 *    rasterization is statically discarded. A dynamic topology keeps its
 *    topology class.
 *  - viewport and scissor counts (their contents are never read);
 *  - stages sorted by stage bit (encode-stage.c);
 *  - vertex bindings sorted by binding, attributes sorted by location.
 *
 * The checks run in a fixed order (the order of the helpers below), so the
 * first error of a create info with several is always the same one. The
 * legacy backend's hits run this encoder, so its success path does no heap
 * allocation, no formatting and no large memset either; every failure goes
 * through the cold helpers in encode.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "encode-graphics.h"
#include "encode-stage.h"

#define DYN(name) PSC_DYN_BIT (name)

#define CHECK_STYPE(ptr, expected, path)                                         \
  do {                                                                           \
    if (PSC_UNLIKELY ((ptr)->sType != (expected)))                               \
      return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,                      \
                          "not " #expected, path "->sType");                    \
  } while (0)

#define CHECK_FLAGS_ZERO(ptr, path)                                              \
  do {                                                                           \
    if (PSC_UNLIKELY ((ptr)->flags != 0))                                        \
      return psc_fail_flags (err, (ptr)->flags, path "->flags");                 \
  } while (0)

#define REQUIRE(ptr, path)                                                       \
  do {                                                                           \
    if (PSC_UNLIKELY ((ptr) == NULL))                                            \
      return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", path);      \
  } while (0)

#define ENUM(conv, value, dst, path, ...)                                        \
  do {                                                                           \
    if (PSC_UNLIKELY (!psc_enum_##conv ((value), &(dst))))                       \
      return psc_fail_enum (err, (int32_t) (value), path, ##__VA_ARGS__);       \
  } while (0)

#define FLOAT(value, dst, path, ...)                                             \
  do {                                                                           \
    if (PSC_UNLIKELY (!psc_float_bits ((value), &(dst))))                        \
      return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NaN", path, ##__VA_ARGS__); \
  } while (0)

#define CHECK(call)                                                              \
  do {                                                                           \
    const PscStatus s_ = (call);                                                 \
    if (PSC_UNLIKELY (s_ != PSC_STATUS_OK))                                      \
      return s_;                                                                 \
  } while (0)

/* One encoding in progress: the request, what the earlier checks learned
 * for the later ones, and the key's records (every record that its present
 * bit selects is fully assigned before write_fixed copies it). */
typedef struct {
  const VkGraphicsPipelineCreateInfo *ci;
  PscRenderingMode mode;
  const PscResolver *r;

  const VkPipelineRenderingCreateInfo *ri;   /* dynamic rendering */
  uint32_t ri_index;                         /* its position in ci->pNext */
  uint32_t color_count;
  uint32_t pass_samples;                     /* legacy: the subpass's samples, 0 = none */
  uint64_t dyn;                              /* PSC_DYN_* */
  uint32_t stage_keys[PSC_MAX_GRAPHICS_STAGES];
  uint8_t stage_order[PSC_MAX_GRAPHICS_STAGES];
  uint32_t stage_mask;                       /* 1 << PscStage of every stage */

  PscGraphicsKeyFixed k;                     /* the records, as they are assembled */
} GfxEncoder;

/* pNext: at most one VkPipelineRenderingCreateInfo, and only on the dynamic
 * rendering backend. */
static PscStatus
check_pnext (GfxEncoder *g, PscCoreError *err)
{
  uint32_t i = 0;
  for (const VkBaseInStructure *n = g->ci->pNext; n != NULL; n = n->pNext, i++)
    {
      if (n->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
        {
          /* An output structure: checked, filled after the request, never keyed. */
          PscStatus st = psc_check_feedback ((const void *) n, g->ci->stageCount, i, err);
          if (st != PSC_STATUS_OK)
            return st;
          continue;
        }
      if (n->sType != VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)
        return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
      if (PSC_UNLIKELY (g->mode != PSC_RENDERING_DYNAMIC))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VkPipelineRenderingCreateInfo is not allowed on the legacy "
                            "rendering backend (name a compatibility renderPass)",
                            "pNext[%u].sType", i);
      if (PSC_UNLIKELY (g->ri != NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "structure appears twice in the chain", "pNext[%u].sType", i);
      g->ri = (const VkPipelineRenderingCreateInfo *) n;
      g->ri_index = i;
    }
  return PSC_STATUS_OK;
}

static PscStatus
check_flags_layout (GfxEncoder *g, PscCoreError *err)
{
  const VkGraphicsPipelineCreateInfo *ci = g->ci;
  if (PSC_UNLIKELY (ci->flags & ~(VkPipelineCreateFlags) PSC_GRAPHICS_CREATE_FLAGS))
    return psc_fail_flags (err, ci->flags, "flags");
  g->k.h.flags = ci->flags;
  if (PSC_UNLIKELY (ci->basePipelineHandle != VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "must be VK_NULL_HANDLE (derivative pipelines are not supported)",
                        "basePipelineHandle");
  if (PSC_UNLIKELY (ci->layout == VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_NULL_HANDLE", "layout");
  if (PSC_UNLIKELY (!g->r->pipeline_layout (g->r->ctx, ci->layout, &g->k.h.layout_id)))
    return psc_fail_foreign (err, "layout");
  return PSC_STATUS_OK;
}

/* Dynamic rendering: view mask, colour formats, depth and stencil formats
 * (a depth format, a stencil format, equal when both are set). */
static PscStatus
encode_rendering_dynamic (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineRenderingCreateInfo *ri = g->ri;
  const uint32_t ri_index = g->ri_index;
  if (PSC_UNLIKELY (g->ci->renderPass != VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "must be VK_NULL_HANDLE on the dynamic rendering backend", "renderPass");
  if (PSC_UNLIKELY (ri == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "VkPipelineRenderingCreateInfo is required on the dynamic rendering "
                        "backend", "pNext");
  g->k.view_mask = ri->viewMask;
  if (g->k.view_mask != 0)
    g->k.h.present |= PSC_GFX_HAS_VIEW_MASK;
  const uint32_t color_count = ri->colorAttachmentCount;
  if (PSC_UNLIKELY (color_count > PSC_MAX_COLOR_ATTACHMENTS))
    return psc_fail_capacity (err, color_count, PSC_MAX_COLOR_ATTACHMENTS,
                              "pNext[%u].colorAttachmentCount", ri_index);
  if (PSC_UNLIKELY (color_count && ri->pColorAttachmentFormats == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with colorAttachmentCount > 0",
                        "pNext[%u].pColorAttachmentFormats", ri_index);
  for (uint32_t j = 0; j < color_count; j++)
    ENUM (format, ri->pColorAttachmentFormats[j], g->k.colors[j],
          "pNext[%u].pColorAttachmentFormats[%u]", ri_index, j);
  g->color_count = color_count;
  g->k.h.color_count = (uint8_t) color_count;
  if (ri->depthAttachmentFormat != VK_FORMAT_UNDEFINED)
    {
      ENUM (format, ri->depthAttachmentFormat, g->k.h.depth_format,
            "pNext[%u].depthAttachmentFormat", ri_index);
      if (PSC_UNLIKELY (!psc_format_has_depth (ri->depthAttachmentFormat)))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "not a depth format",
                            "pNext[%u].depthAttachmentFormat", ri_index);
    }
  if (ri->stencilAttachmentFormat != VK_FORMAT_UNDEFINED)
    {
      ENUM (format, ri->stencilAttachmentFormat, g->k.h.stencil_format,
            "pNext[%u].stencilAttachmentFormat", ri_index);
      if (PSC_UNLIKELY (!psc_format_has_stencil (ri->stencilAttachmentFormat)))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "not a stencil format",
                            "pNext[%u].stencilAttachmentFormat", ri_index);
    }
  if (PSC_UNLIKELY (g->k.h.depth_format && g->k.h.stencil_format
                    && g->k.h.depth_format != g->k.h.stencil_format))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "must equal depthAttachmentFormat when both are set",
                        "pNext[%u].stencilAttachmentFormat", ri_index);
  return PSC_STATUS_OK;
}

/* The legacy backend: a cache-issued compatibility pass and a subpass of it. */
static PscStatus
encode_rendering_legacy (GfxEncoder *g, PscCoreError *err)
{
  const VkGraphicsPipelineCreateInfo *ci = g->ci;
  const PscResolver *r = g->r;
  if (PSC_UNLIKELY (ci->renderPass == VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "VK_NULL_HANDLE (the legacy rendering backend needs a compatibility "
                        "render pass from the cache)", "renderPass");
  uint32_t subpass_count = 0;
  if (PSC_UNLIKELY (r->render_pass == NULL
                    || !r->render_pass (r->ctx, ci->renderPass, ci->subpass,
                                        &g->k.pass.render_pass_id, &subpass_count,
                                        &g->pass_samples)))
    return psc_fail_foreign (err, "renderPass");
  if (PSC_UNLIKELY (ci->subpass >= subpass_count))
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "subpass",
                             "%u >= the render pass's subpass count %u",
                             ci->subpass, subpass_count);
  g->k.pass.subpass = ci->subpass;
  g->k.h.present |= PSC_GFX_LEGACY_PASS;
  return PSC_STATUS_OK;
}

static PscStatus
encode_rendering (GfxEncoder *g, PscCoreError *err)
{
  if (g->mode == PSC_RENDERING_DYNAMIC)
    return encode_rendering_dynamic (g, err);
  if (g->mode == PSC_RENDERING_LEGACY)
    return encode_rendering_legacy (g, err);
  return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "", "unknown rendering mode %d",
                           (int) g->mode);
}

/* The dynamic-state set, one bit per state; each state at most once, and
 * one form each of the viewport and scissor states. */
static PscStatus
encode_dynamic_states (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineDynamicStateCreateInfo *ds = g->ci->pDynamicState;
  uint64_t dyn = 0;
  if (ds != NULL)
    {
      char p[128];
      CHECK_STYPE (ds, VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, "pDynamicState");
      PSC_CHECK_NO_PNEXT (err, ds->pNext, "pDynamicState->");
      CHECK_FLAGS_ZERO (ds, "pDynamicState");
      if (PSC_UNLIKELY (ds->dynamicStateCount && ds->pDynamicStates == NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with dynamicStateCount > 0",
                            "pDynamicState->pDynamicStates");
      for (uint32_t j = 0; j < ds->dynamicStateCount; j++)
        {
          int bit = psc_enum_dynamic_state (ds->pDynamicStates[j]);
          if (PSC_UNLIKELY (bit < 0))
            return psc_fail_enum (err, (int32_t) ds->pDynamicStates[j],
                                  "pDynamicState->pDynamicStates[%u]", j);
          uint64_t m = UINT64_C (1) << bit;
          if (PSC_UNLIKELY (dyn & m))
            return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                     psc_pathf (p, "pDynamicState->pDynamicStates[%u]", j),
                                     "%s listed twice", psc_enum_dynamic_state_name ((unsigned) bit));
          dyn |= m;
        }
      if (PSC_UNLIKELY ((dyn & DYN (VIEWPORT)) && (dyn & DYN (VIEWPORT_WITH_COUNT))))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VK_DYNAMIC_STATE_VIEWPORT and VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT "
                            "are mutually exclusive", "pDynamicState");
      if (PSC_UNLIKELY ((dyn & DYN (SCISSOR)) && (dyn & DYN (SCISSOR_WITH_COUNT))))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VK_DYNAMIC_STATE_SCISSOR and VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT "
                            "are mutually exclusive", "pDynamicState");
    }
  g->dyn = dyn;
  g->k.h.dynamic_lo = (uint32_t) dyn;
  g->k.h.dynamic_hi = (uint32_t) (dyn >> 32);
  return PSC_STATUS_OK;
}

/* The stage bits: graphics stages only, each once, a vertex stage, both
 * tessellation stages or neither. Sorted by stage bit for the key. */
static PscStatus
check_stages (GfxEncoder *g, PscCoreError *err)
{
  const VkGraphicsPipelineCreateInfo *ci = g->ci;
  const uint32_t stage_count = ci->stageCount;
  if (PSC_UNLIKELY (stage_count == 0))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "0", "stageCount");
  if (PSC_UNLIKELY (stage_count > PSC_MAX_GRAPHICS_STAGES))
    return psc_fail_capacity (err, stage_count, PSC_MAX_GRAPHICS_STAGES, "stageCount");
  REQUIRE (ci->pStages, "pStages");
  uint32_t seen = 0;
  for (uint32_t i = 0; i < stage_count; i++)
    {
      uint8_t st;
      ENUM (stage, ci->pStages[i].stage, st, "pStages[%u].stage", i);
      if (PSC_UNLIKELY (st == PSC_STAGE_COMPUTE))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VK_SHADER_STAGE_COMPUTE_BIT in a graphics pipeline", "pStages[%u].stage", i);
      if (PSC_UNLIKELY (seen & (1u << st)))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "stage listed twice",
                            "pStages[%u].stage", i);
      seen |= 1u << st;
      g->stage_keys[i] = st;
      g->stage_order[i] = (uint8_t) i;
    }
  if (PSC_UNLIKELY (!(seen & (1u << PSC_STAGE_VERTEX))))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "a VK_SHADER_STAGE_VERTEX_BIT stage is required", "pStages");
  const uint32_t tess_bits = (1u << PSC_STAGE_TESS_CONTROL) | (1u << PSC_STAGE_TESS_EVAL);
  if (PSC_UNLIKELY ((seen & tess_bits) != 0 && (seen & tess_bits) != tess_bits))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "tessellation control and evaluation stages must be used together",
                        "pStages");
  psc_sort_indices (g->stage_order, g->stage_keys, stage_count);
  g->stage_mask = seen;
  g->k.h.stage_count = (uint8_t) stage_count;
  return PSC_STATUS_OK;
}

static PscStatus
encode_rasterization (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineRasterizationStateCreateInfo *rs = g->ci->pRasterizationState;
  const uint64_t dyn = g->dyn;
  PscKeyGraphicsState *st = &g->k.st;
  REQUIRE (rs, "pRasterizationState");
  CHECK_STYPE (rs, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, "pRasterizationState");
  PSC_CHECK_NO_PNEXT (err, rs->pNext, "pRasterizationState->");
  CHECK_FLAGS_ZERO (rs, "pRasterizationState");
  st->depth_clamp = rs->depthClampEnable != VK_FALSE;
  st->rasterizer_discard = !(dyn & DYN (RASTERIZER_DISCARD_ENABLE)) && rs->rasterizerDiscardEnable;
  ENUM (polygon_mode, rs->polygonMode, st->polygon_mode, "pRasterizationState->polygonMode");
  if (!(dyn & DYN (CULL_MODE)))
    ENUM (cull_mode, rs->cullMode, st->cull_mode, "pRasterizationState->cullMode");
  if (!(dyn & DYN (FRONT_FACE)))
    ENUM (front_face, rs->frontFace, st->front_face, "pRasterizationState->frontFace");
  st->depth_bias_enable = !(dyn & DYN (DEPTH_BIAS_ENABLE)) && rs->depthBiasEnable;
  if ((st->depth_bias_enable || (dyn & DYN (DEPTH_BIAS_ENABLE))) && !(dyn & DYN (DEPTH_BIAS)))
    {
      PscKeyDepthBias *bias = &g->k.bias;
      FLOAT (rs->depthBiasConstantFactor, bias->constant,
             "pRasterizationState->depthBiasConstantFactor");
      FLOAT (rs->depthBiasClamp, bias->clamp, "pRasterizationState->depthBiasClamp");
      FLOAT (rs->depthBiasSlopeFactor, bias->slope, "pRasterizationState->depthBiasSlopeFactor");
      if (bias->constant | bias->clamp | bias->slope)
        g->k.h.present |= PSC_GFX_HAS_DEPTH_BIAS;
    }
  return PSC_STATUS_OK;
}

/* A static line width, only where lines are rasterized (after the stages,
 * the rasterization state and the topology are known): 0 otherwise, and
 * not checked (Vulkan ignores it; psc_graphics_rasterizes_lines). */
static PscStatus
encode_line_width (GfxEncoder *g, PscCoreError *err)
{
  const PscKeyGraphicsState *st = &g->k.st;
  if ((g->dyn & DYN (LINE_WIDTH))
      || !psc_graphics_rasterizes_lines (g->stage_mask, st->topology, st->polygon_mode,
                                         st->rasterizer_discard))
    return PSC_STATUS_OK;
  FLOAT (g->ci->pRasterizationState->lineWidth, g->k.st.line_width,
         "pRasterizationState->lineWidth");
  return PSC_STATUS_OK;
}

static PscStatus
encode_input_assembly (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineInputAssemblyStateCreateInfo *ia = g->ci->pInputAssemblyState;
  PscKeyGraphicsState *st = &g->k.st;
  REQUIRE (ia, "pInputAssemblyState");
  CHECK_STYPE (ia, VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, "pInputAssemblyState");
  PSC_CHECK_NO_PNEXT (err, ia->pNext, "pInputAssemblyState->");
  CHECK_FLAGS_ZERO (ia, "pInputAssemblyState");
  ENUM (topology, ia->topology, st->topology, "pInputAssemblyState->topology");
  if (g->dyn & DYN (PRIMITIVE_TOPOLOGY))
    st->topology = psc_topology_class (st->topology);
  st->primitive_restart = !(g->dyn & DYN (PRIMITIVE_RESTART_ENABLE)) && ia->primitiveRestartEnable;
  return PSC_STATUS_OK;
}

/* Read only with tessellation stages. */
static PscStatus
encode_tessellation (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineTessellationStateCreateInfo *ts = g->ci->pTessellationState;
  REQUIRE (ts, "pTessellationState");
  CHECK_STYPE (ts, VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, "pTessellationState");
  PSC_CHECK_NO_PNEXT (err, ts->pNext, "pTessellationState->");
  CHECK_FLAGS_ZERO (ts, "pTessellationState");
  g->k.tess.patch_control_points = ts->patchControlPoints;
  g->k.h.present |= PSC_GFX_HAS_TESSELLATION;
  return PSC_STATUS_OK;
}

/* Viewport and scissor must be dynamic (DESIGN decision 8): only their
 * counts enter the key. */
static PscStatus
encode_viewport (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineViewportStateCreateInfo *vp = g->ci->pViewportState;
  const uint64_t dyn = g->dyn;
  REQUIRE (vp, "pViewportState");
  CHECK_STYPE (vp, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, "pViewportState");
  PSC_CHECK_NO_PNEXT (err, vp->pNext, "pViewportState->");
  CHECK_FLAGS_ZERO (vp, "pViewportState");
  if (PSC_UNLIKELY (!(dyn & (DYN (VIEWPORT) | DYN (VIEWPORT_WITH_COUNT)))))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "VK_DYNAMIC_STATE_VIEWPORT must be dynamic", "pDynamicState");
  if (PSC_UNLIKELY (!(dyn & (DYN (SCISSOR) | DYN (SCISSOR_WITH_COUNT)))))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "VK_DYNAMIC_STATE_SCISSOR must be dynamic", "pDynamicState");
  if (!(dyn & DYN (VIEWPORT_WITH_COUNT)))
    {
      if (PSC_UNLIKELY (vp->viewportCount == 0))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "0 (at least one viewport is required)", "pViewportState->viewportCount");
      if (PSC_UNLIKELY (vp->viewportCount > PSC_MAX_VIEWPORTS))
        return psc_fail_capacity (err, vp->viewportCount, PSC_MAX_VIEWPORTS,
                                  "pViewportState->viewportCount");
      g->k.st.viewport_count = (uint8_t) vp->viewportCount;
    }
  if (!(dyn & DYN (SCISSOR_WITH_COUNT)))
    {
      if (PSC_UNLIKELY (vp->scissorCount == 0))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "0 (at least one scissor is required)", "pViewportState->scissorCount");
      if (PSC_UNLIKELY (vp->scissorCount > PSC_MAX_VIEWPORTS))
        return psc_fail_capacity (err, vp->scissorCount, PSC_MAX_VIEWPORTS,
                                  "pViewportState->scissorCount");
      g->k.st.scissor_count = (uint8_t) vp->scissorCount;
    }
  g->k.h.present |= PSC_GFX_HAS_VIEWPORT;
  return PSC_STATUS_OK;
}

/* Sample count (equal to the legacy subpass's), sample shading, the sample
 * mask masked to the sample count, alpha to coverage / one. */
static PscStatus
encode_multisample (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineMultisampleStateCreateInfo *ms = g->ci->pMultisampleState;
  PscKeyGraphicsState *st = &g->k.st;
  REQUIRE (ms, "pMultisampleState");
  CHECK_STYPE (ms, VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, "pMultisampleState");
  PSC_CHECK_NO_PNEXT (err, ms->pNext, "pMultisampleState->");
  CHECK_FLAGS_ZERO (ms, "pMultisampleState");
  ENUM (samples, ms->rasterizationSamples, st->samples, "pMultisampleState->rasterizationSamples");
  if (PSC_UNLIKELY (g->pass_samples != 0 && g->pass_samples != st->samples))
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             "pMultisampleState->rasterizationSamples",
                             "%u, but subpass %u of renderPass uses %u samples",
                             st->samples, g->ci->subpass, g->pass_samples);
  st->sample_shading = ms->sampleShadingEnable != VK_FALSE;
  if (st->sample_shading)
    {
      FLOAT (ms->minSampleShading, g->k.sample.min_sample_shading,
             "pMultisampleState->minSampleShading");
      if (PSC_UNLIKELY (!(ms->minSampleShading >= 0.0f && ms->minSampleShading <= 1.0f)))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "outside [0, 1]",
                            "pMultisampleState->minSampleShading");
    }
  const uint64_t full = st->samples == 64 ? UINT64_MAX : (UINT64_C (1) << st->samples) - 1;
  uint64_t mask = full;
  if (ms->pSampleMask != NULL)
    {
      mask = ms->pSampleMask[0];
      if (st->samples > 32)
        mask |= (uint64_t) ms->pSampleMask[1] << 32;
      mask &= full;
    }
  g->k.sample.sample_mask[0] = (uint32_t) mask;
  g->k.sample.sample_mask[1] = (uint32_t) (mask >> 32);
  if (st->sample_shading || mask != full)
    g->k.h.present |= PSC_GFX_HAS_SAMPLE_STATE;
  st->alpha_to_coverage = ms->alphaToCoverageEnable != VK_FALSE;
  st->alpha_to_one = ms->alphaToOneEnable != VK_FALSE;
  g->k.h.present |= PSC_GFX_HAS_MULTISAMPLE;
  return PSC_STATUS_OK;
}

static PscStatus
encode_stencil (const VkStencilOpState *s, uint64_t dyn, const char *side,
                uint8_t *fail, uint8_t *pass, uint8_t *depth_fail, uint8_t *compare,
                uint32_t *compare_mask, uint32_t *write_mask, uint32_t *reference,
                PscCoreError *err)
{
  if (!(dyn & DYN (STENCIL_OP)))
    {
      ENUM (stencil_op, s->failOp, *fail, "pDepthStencilState->%s.failOp", side);
      ENUM (stencil_op, s->passOp, *pass, "pDepthStencilState->%s.passOp", side);
      ENUM (stencil_op, s->depthFailOp, *depth_fail, "pDepthStencilState->%s.depthFailOp", side);
      ENUM (compare_op, s->compareOp, *compare, "pDepthStencilState->%s.compareOp", side);
    }
  if (!(dyn & DYN (STENCIL_COMPARE_MASK)))
    *compare_mask = s->compareMask;
  if (!(dyn & DYN (STENCIL_WRITE_MASK)))
    *write_mask = s->writeMask;
  if (!(dyn & DYN (STENCIL_REFERENCE)))
    *reference = s->reference;
  return PSC_STATUS_OK;
}

/* The depth/stencil state once it is known to be read: depth test, write
 * and compare; bounds; stencil (front and back). */
static PscStatus
encode_depth_stencil_state (GfxEncoder *g, const VkPipelineDepthStencilStateCreateInfo *dss,
                            PscCoreError *err)
{
  const uint64_t dyn = g->dyn;
  PscKeyGraphicsState *st = &g->k.st;
  PscKeyDepthStencil *dsk = &g->k.dsk;
  CHECK_STYPE (dss, VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
               "pDepthStencilState");
  PSC_CHECK_NO_PNEXT (err, dss->pNext, "pDepthStencilState->");
  CHECK_FLAGS_ZERO (dss, "pDepthStencilState");
  memset (dsk, 0, sizeof *dsk);

  st->depth_test = !(dyn & DYN (DEPTH_TEST_ENABLE)) && dss->depthTestEnable;
  const bool depth_active = st->depth_test || (dyn & DYN (DEPTH_TEST_ENABLE));
  st->depth_write = depth_active && !(dyn & DYN (DEPTH_WRITE_ENABLE)) && dss->depthWriteEnable;
  if (depth_active && !(dyn & DYN (DEPTH_COMPARE_OP)))
    ENUM (compare_op, dss->depthCompareOp, st->depth_compare,
          "pDepthStencilState->depthCompareOp");

  st->depth_bounds_test = !(dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)) && dss->depthBoundsTestEnable;
  if ((st->depth_bounds_test || (dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)))
      && !(dyn & DYN (DEPTH_BOUNDS)))
    {
      FLOAT (dss->minDepthBounds, dsk->min_depth_bounds, "pDepthStencilState->minDepthBounds");
      FLOAT (dss->maxDepthBounds, dsk->max_depth_bounds, "pDepthStencilState->maxDepthBounds");
      g->k.h.present |= PSC_GFX_HAS_STENCIL_BOUNDS;
    }

  st->stencil_test = !(dyn & DYN (STENCIL_TEST_ENABLE)) && dss->stencilTestEnable;
  if (st->stencil_test || (dyn & DYN (STENCIL_TEST_ENABLE)))
    {
      CHECK (encode_stencil (&dss->front, dyn, "front", &dsk->front_fail, &dsk->front_pass,
                             &dsk->front_depth_fail, &dsk->front_compare,
                             &dsk->front_compare_mask, &dsk->front_write_mask,
                             &dsk->front_reference, err));
      CHECK (encode_stencil (&dss->back, dyn, "back", &dsk->back_fail, &dsk->back_pass,
                             &dsk->back_depth_fail, &dsk->back_compare,
                             &dsk->back_compare_mask, &dsk->back_write_mask,
                             &dsk->back_reference, err));
      g->k.h.present |= PSC_GFX_HAS_STENCIL_BOUNDS;
    }
  g->k.h.present |= PSC_GFX_HAS_DEPTH_STENCIL;
  return PSC_STATUS_OK;
}

/* Dynamic rendering reads pDepthStencilState when the rendering has a
 * depth or stencil format (and then requires it); the legacy backend
 * whenever it is given. */
static PscStatus
encode_depth_stencil (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineDepthStencilStateCreateInfo *dss = g->ci->pDepthStencilState;
  bool want_ds;
  if (g->mode == PSC_RENDERING_DYNAMIC)
    {
      want_ds = g->k.h.depth_format != 0 || g->k.h.stencil_format != 0;
      if (PSC_UNLIKELY (want_ds && dss == NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "NULL, but the rendering has a depth/stencil format",
                            "pDepthStencilState");
    }
  else
    want_ds = dss != NULL;
  return want_ds ? encode_depth_stencil_state (g, dss, err) : PSC_STATUS_OK;
}

/* One blend attachment state per colour attachment; with blending off the
 * factors and ops are neither checked nor kept. Sets *uses_constants when a
 * factor reads the blend constants. */
static PscStatus
encode_blend_attachments (GfxEncoder *g, const VkPipelineColorBlendStateCreateInfo *cb,
                          bool *uses_constants, PscCoreError *err)
{
  for (uint32_t j = 0; j < cb->attachmentCount; j++)
    {
      const VkPipelineColorBlendAttachmentState *a = &cb->pAttachments[j];
      PscKeyBlendAttachment *k = &g->k.blend[j];
      memset (k, 0, sizeof *k);
      ENUM (color_components, a->colorWriteMask, k->write_mask,
            "pColorBlendState->pAttachments[%u].colorWriteMask", j);
      if (!a->blendEnable)
        continue;
      k->blend_enable = 1;
      ENUM (blend_factor, a->srcColorBlendFactor, k->src_color,
            "pColorBlendState->pAttachments[%u].srcColorBlendFactor", j);
      ENUM (blend_factor, a->dstColorBlendFactor, k->dst_color,
            "pColorBlendState->pAttachments[%u].dstColorBlendFactor", j);
      ENUM (blend_op, a->colorBlendOp, k->color_op,
            "pColorBlendState->pAttachments[%u].colorBlendOp", j);
      ENUM (blend_factor, a->srcAlphaBlendFactor, k->src_alpha,
            "pColorBlendState->pAttachments[%u].srcAlphaBlendFactor", j);
      ENUM (blend_factor, a->dstAlphaBlendFactor, k->dst_alpha,
            "pColorBlendState->pAttachments[%u].dstAlphaBlendFactor", j);
      ENUM (blend_op, a->alphaBlendOp, k->alpha_op,
            "pColorBlendState->pAttachments[%u].alphaBlendOp", j);
      *uses_constants |= psc_blend_factor_uses_constants (k->src_color);
      *uses_constants |= psc_blend_factor_uses_constants (k->dst_color);
      *uses_constants |= psc_blend_factor_uses_constants (k->src_alpha);
      *uses_constants |= psc_blend_factor_uses_constants (k->dst_alpha);
    }
  return PSC_STATUS_OK;
}

/* The colour blend state once it is known to be read: logic op, the
 * attachment states, the blend constants when a factor reads them. */
static PscStatus
encode_color_blend_state (GfxEncoder *g, const VkPipelineColorBlendStateCreateInfo *cb,
                          PscCoreError *err)
{
  CHECK_STYPE (cb, VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, "pColorBlendState");
  PSC_CHECK_NO_PNEXT (err, cb->pNext, "pColorBlendState->");
  CHECK_FLAGS_ZERO (cb, "pColorBlendState");
  g->k.st.logic_op_enable = cb->logicOpEnable != VK_FALSE;
  if (g->k.st.logic_op_enable)
    ENUM (logic_op, cb->logicOp, g->k.st.logic_op, "pColorBlendState->logicOp");
  const uint32_t na = cb->attachmentCount;
  if (PSC_UNLIKELY (na > PSC_MAX_COLOR_ATTACHMENTS))
    return psc_fail_capacity (err, na, PSC_MAX_COLOR_ATTACHMENTS,
                              "pColorBlendState->attachmentCount");
  if (PSC_UNLIKELY (na && cb->pAttachments == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with attachmentCount > 0",
                        "pColorBlendState->pAttachments");
  bool uses_constants = false;
  CHECK (encode_blend_attachments (g, cb, &uses_constants, err));
  g->k.st.blend_count = (uint8_t) na;
  memset (&g->k.cbk, 0, sizeof g->k.cbk);
  if (uses_constants && !(g->dyn & DYN (BLEND_CONSTANTS)))
    {
      for (uint32_t j = 0; j < 4; j++)
        FLOAT (cb->blendConstants[j], g->k.cbk.blend_constants[j],
               "pColorBlendState->blendConstants[%u]", j);
      g->k.h.present |= PSC_GFX_HAS_BLEND_CONSTANTS;
    }
  g->k.h.present |= PSC_GFX_HAS_COLOR_BLEND;
  return PSC_STATUS_OK;
}

/* The legacy backend: pColorBlendState must match the subpass's colour
 * attachment count, when the resolver can tell it. */
static PscStatus
check_legacy_blend_count (GfxEncoder *g, const VkPipelineColorBlendStateCreateInfo *cb,
                          PscCoreError *err)
{
  const VkGraphicsPipelineCreateInfo *ci = g->ci;
  const PscResolver *r = g->r;
  uint32_t pass_colors = 0;
  if (r->render_pass_colors == NULL
      || !r->render_pass_colors (r->ctx, ci->renderPass, ci->subpass, &pass_colors))
    return PSC_STATUS_OK;
  if (PSC_UNLIKELY (pass_colors > 0 && cb == NULL))
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "pColorBlendState",
                             "NULL, but subpass %u of renderPass has %u colour "
                             "attachments", ci->subpass, pass_colors);
  if (PSC_UNLIKELY (cb != NULL && cb->attachmentCount != pass_colors))
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             "pColorBlendState->attachmentCount",
                             "%u, but subpass %u of renderPass has %u colour "
                             "attachments", cb->attachmentCount, ci->subpass,
                             pass_colors);
  return PSC_STATUS_OK;
}

/* Dynamic rendering reads pColorBlendState when the rendering has colour
 * attachments (and then requires one state per attachment); the legacy
 * backend whenever it is given. */
static PscStatus
encode_color_blend (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineColorBlendStateCreateInfo *cb = g->ci->pColorBlendState;
  bool want_cb;
  if (g->mode == PSC_RENDERING_DYNAMIC)
    {
      want_cb = g->color_count > 0;
      if (PSC_UNLIKELY (want_cb && cb == NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "NULL, but the rendering has colour attachments", "pColorBlendState");
      if (PSC_UNLIKELY (want_cb && cb->attachmentCount != g->color_count))
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 "pColorBlendState->attachmentCount",
                                 "%u, but colorAttachmentCount is %u",
                                 cb->attachmentCount, g->color_count);
    }
  else
    {
      want_cb = cb != NULL;
      CHECK (check_legacy_blend_count (g, cb, err));
    }
  return want_cb ? encode_color_blend_state (g, cb, err) : PSC_STATUS_OK;
}

/* The vertex input state's counts and arrays, validated before anything is
 * written; the elements are checked as they are written. */
static PscStatus
check_vertex_input (GfxEncoder *g, PscCoreError *err)
{
  const VkPipelineVertexInputStateCreateInfo *vi = g->ci->pVertexInputState;
  REQUIRE (vi, "pVertexInputState");
  CHECK_STYPE (vi, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, "pVertexInputState");
  PSC_CHECK_NO_PNEXT (err, vi->pNext, "pVertexInputState->");
  CHECK_FLAGS_ZERO (vi, "pVertexInputState");
  const uint32_t nb = vi->vertexBindingDescriptionCount;
  const uint32_t na = vi->vertexAttributeDescriptionCount;
  if (PSC_UNLIKELY (nb > PSC_MAX_VERTEX_BINDINGS))
    return psc_fail_capacity (err, nb, PSC_MAX_VERTEX_BINDINGS,
                              "pVertexInputState->vertexBindingDescriptionCount");
  if (PSC_UNLIKELY (na > PSC_MAX_VERTEX_ATTRIBUTES))
    return psc_fail_capacity (err, na, PSC_MAX_VERTEX_ATTRIBUTES,
                              "pVertexInputState->vertexAttributeDescriptionCount");
  if (PSC_UNLIKELY (nb && vi->pVertexBindingDescriptions == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with a non-zero count",
                        "pVertexInputState->pVertexBindingDescriptions");
  if (PSC_UNLIKELY (na && vi->pVertexAttributeDescriptions == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with a non-zero count",
                        "pVertexInputState->pVertexAttributeDescriptions");
  g->k.st.binding_count = (uint8_t) nb;
  g->k.st.attribute_count = (uint8_t) na;
  return PSC_STATUS_OK;
}

/* Everything before the vertex input: the header, the optional records
 * their present bits select, the colour formats, the state record, the
 * blend attachment states (keys.h gives the order). */
static PscStatus
write_fixed (const GfxEncoder *g, PscKeyWriter *w, PscCoreError *err)
{
  const uint32_t present = g->k.h.present;
  const size_t blend_bytes = g->k.st.blend_count * sizeof (PscKeyBlendAttachment);
  const size_t fixed = sizeof g->k.h + g->color_count * sizeof (uint16_t) + sizeof g->k.st
                       + ((present & PSC_GFX_LEGACY_PASS) ? sizeof g->k.pass : 0)
                       + ((present & PSC_GFX_HAS_VIEW_MASK) ? sizeof g->k.view_mask : 0)
                       + ((present & PSC_GFX_HAS_TESSELLATION) ? sizeof g->k.tess : 0)
                       + ((present & PSC_GFX_HAS_SAMPLE_STATE) ? sizeof g->k.sample : 0)
                       + ((present & PSC_GFX_HAS_DEPTH_BIAS) ? sizeof g->k.bias : 0)
                       + ((present & PSC_GFX_HAS_STENCIL_BOUNDS) ? sizeof g->k.dsk : 0)
                       + ((present & PSC_GFX_HAS_BLEND_CONSTANTS) ? sizeof g->k.cbk : 0)
                       + ((present & PSC_GFX_HAS_COLOR_BLEND) ? blend_bytes : 0);
  uint8_t *o = psc_kw_reserve (w, fixed);
  if (PSC_UNLIKELY (o == NULL))
    return psc_fail_key_full (err, w);
#define PUT_IF(bit, record)                                                      \
  do {                                                                           \
    if (present & (bit))                                                         \
      {                                                                          \
        memcpy (o, &(record), sizeof (record));                                  \
        o += sizeof (record);                                                    \
      }                                                                          \
  } while (0)
  memcpy (o, &g->k.h, sizeof g->k.h);
  o += sizeof g->k.h;
  PUT_IF (PSC_GFX_LEGACY_PASS, g->k.pass);
  PUT_IF (PSC_GFX_HAS_VIEW_MASK, g->k.view_mask);
  memcpy (o, g->k.colors, g->color_count * sizeof (uint16_t));
  o += g->color_count * sizeof (uint16_t);
  memcpy (o, &g->k.st, sizeof g->k.st);
  o += sizeof g->k.st;
  PUT_IF (PSC_GFX_HAS_TESSELLATION, g->k.tess);
  PUT_IF (PSC_GFX_HAS_DEPTH_BIAS, g->k.bias);
  PUT_IF (PSC_GFX_HAS_SAMPLE_STATE, g->k.sample);
  PUT_IF (PSC_GFX_HAS_STENCIL_BOUNDS, g->k.dsk);
  PUT_IF (PSC_GFX_HAS_BLEND_CONSTANTS, g->k.cbk);
#undef PUT_IF
  if (present & PSC_GFX_HAS_COLOR_BLEND)
    memcpy (o, g->k.blend, blend_bytes);
  return PSC_STATUS_OK;
}

/* Vertex bindings sorted by binding; a repeated binding number is named at
 * the later of its two indices. */
static PscStatus
write_bindings (const GfxEncoder *g, PscKeyWriter *w, PscCoreError *err)
{
  const VkPipelineVertexInputStateCreateInfo *vi = g->ci->pVertexInputState;
  const uint32_t nb = vi->vertexBindingDescriptionCount;
  if (nb == 0)
    return PSC_STATUS_OK;
  char p[128];
  uint32_t keys[PSC_MAX_VERTEX_BINDINGS];
  uint8_t order[PSC_MAX_VERTEX_BINDINGS];
  for (uint32_t j = 0; j < nb; j++)
    {
      keys[j] = vi->pVertexBindingDescriptions[j].binding;
      order[j] = (uint8_t) j;
    }
  psc_sort_indices (order, keys, nb);
  uint8_t *o = psc_kw_reserve (w, nb * sizeof (PscKeyVertexBinding));
  if (PSC_UNLIKELY (o == NULL))
    return psc_fail_key_full (err, w);
  for (uint32_t j = 0; j < nb; j++)
    {
      const uint32_t bi = order[j];
      const VkVertexInputBindingDescription *d = &vi->pVertexBindingDescriptions[bi];
      if (PSC_UNLIKELY (j > 0 && keys[order[j - 1]] == d->binding))
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pVertexInputState->pVertexBindingDescriptions[%u].binding",
                                            bi > order[j - 1] ? bi : order[j - 1]),
                                 "binding %u appears twice", d->binding);
      uint8_t rate;
      ENUM (vertex_input_rate, d->inputRate, rate,
            "pVertexInputState->pVertexBindingDescriptions[%u].inputRate", bi);
      if (PSC_UNLIKELY (d->binding > UINT16_MAX))
        return psc_fail_capacity (err, d->binding, UINT16_MAX,
                                  "pVertexInputState->pVertexBindingDescriptions[%u].binding", bi);
      PscKeyVertexBinding k = {
        .binding = (uint16_t) d->binding,
        .stride = (g->dyn & DYN (VERTEX_INPUT_BINDING_STRIDE)) ? 0 : d->stride,
        .input_rate = rate,
      };
      memcpy (o, &k, sizeof k);
      o += sizeof k;
    }
  return PSC_STATUS_OK;
}

/* Vertex attributes sorted by location; a repeated location is named at the
 * later of its two indices. */
static PscStatus
write_attributes (const GfxEncoder *g, PscKeyWriter *w, PscCoreError *err)
{
  const VkPipelineVertexInputStateCreateInfo *vi = g->ci->pVertexInputState;
  const uint32_t na = vi->vertexAttributeDescriptionCount;
  if (na == 0)
    return PSC_STATUS_OK;
  char p[128];
  uint32_t keys[PSC_MAX_VERTEX_ATTRIBUTES];
  uint8_t order[PSC_MAX_VERTEX_ATTRIBUTES];
  for (uint32_t j = 0; j < na; j++)
    {
      keys[j] = vi->pVertexAttributeDescriptions[j].location;
      order[j] = (uint8_t) j;
    }
  psc_sort_indices (order, keys, na);
  uint8_t *o = psc_kw_reserve (w, na * sizeof (PscKeyVertexAttribute));
  if (PSC_UNLIKELY (o == NULL))
    return psc_fail_key_full (err, w);
  for (uint32_t j = 0; j < na; j++)
    {
      const uint32_t ai = order[j];
      const VkVertexInputAttributeDescription *d = &vi->pVertexAttributeDescriptions[ai];
      if (PSC_UNLIKELY (j > 0 && keys[order[j - 1]] == d->location))
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pVertexInputState->pVertexAttributeDescriptions[%u].location",
                                            ai > order[j - 1] ? ai : order[j - 1]),
                                 "location %u appears twice", d->location);
      uint16_t fmt;
      ENUM (format, d->format, fmt, "pVertexInputState->pVertexAttributeDescriptions[%u].format", ai);
      if (PSC_UNLIKELY (d->location > UINT8_MAX))
        return psc_fail_capacity (err, d->location, UINT8_MAX,
                                  "pVertexInputState->pVertexAttributeDescriptions[%u].location", ai);
      if (PSC_UNLIKELY (d->binding > UINT8_MAX))
        return psc_fail_capacity (err, d->binding, UINT8_MAX,
                                  "pVertexInputState->pVertexAttributeDescriptions[%u].binding", ai);
      PscKeyVertexAttribute k = {
        .location = (uint8_t) d->location,
        .binding = (uint8_t) d->binding,
        .format = fmt,
        .offset = d->offset,
      };
      memcpy (o, &k, sizeof k);
      o += sizeof k;
    }
  return PSC_STATUS_OK;
}

/* Sets up the records: the header's constant fields, and every optional
 * record at its default (so a record is complete whenever its bit is set). */
static void
encoder_init (GfxEncoder *g, const VkGraphicsPipelineCreateInfo *ci, PscRenderingMode mode,
              const PscResolver *r)
{
  g->ci = ci;
  g->mode = mode;
  g->r = r;
  g->ri = NULL;
  g->ri_index = 0;
  g->color_count = 0;
  g->pass_samples = 0;
  g->k.h.tag = PSC_TAG_GRAPHICS;
  g->k.h.depth_format = 0;
  g->k.h.stencil_format = 0;
  g->k.h.present = 0;
  g->k.h.color_count = 0;
  g->k.pass = (PscKeyLegacyPass) { 0, 0 };
  g->k.view_mask = 0;
  g->k.tess = (PscKeyTessellation) { 0 };
  g->k.sample = (PscKeySampleState) { { 0, 0 }, 0 };
  g->k.bias = (PscKeyDepthBias) { 0, 0, 0 };
  memset (&g->k.st, 0, sizeof g->k.st);
}

/* The complete graphics encoder: every supported input, and the reference
 * for every error (the fast path hands it whatever it declines). */
PscStatus __attribute__((noinline))
psc_encode_graphics_full (const VkGraphicsPipelineCreateInfo *ci, PscRenderingMode mode,
                          const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  REQUIRE (ci, "pCreateInfo");
  if (PSC_UNLIKELY (ci->sType != VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "not VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO", "sType");
  if (PSC_UNLIKELY (r == NULL || r->shader == NULL || r->pipeline_layout == NULL))
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "no resolver");

  GfxEncoder g;
  encoder_init (&g, ci, mode, r);
  CHECK (check_pnext (&g, err));
  CHECK (check_flags_layout (&g, err));
  CHECK (encode_rendering (&g, err));
  CHECK (encode_dynamic_states (&g, err));
  CHECK (check_stages (&g, err));
  CHECK (encode_rasterization (&g, err));
  CHECK (encode_input_assembly (&g, err));
  CHECK (encode_line_width (&g, err));
  if (g.stage_mask & (1u << PSC_STAGE_TESS_CONTROL))
    CHECK (encode_tessellation (&g, err));
  /* A static rasterizer discard rasterizes nothing: the states below are
   * then neither read nor kept. */
  if (!g.k.st.rasterizer_discard)
    {
      CHECK (encode_viewport (&g, err));
      CHECK (encode_multisample (&g, err));
      CHECK (encode_depth_stencil (&g, err));
      CHECK (encode_color_blend (&g, err));
    }
  CHECK (check_vertex_input (&g, err));

  CHECK (write_fixed (&g, w, err));
  CHECK (write_bindings (&g, w, err));
  CHECK (write_attributes (&g, w, err));
  for (uint32_t j = 0; j < ci->stageCount; j++)
    {
      const uint32_t si = g.stage_order[j];
      CHECK (psc_encode_stage (&ci->pStages[si], (uint8_t) g.stage_keys[si], false, si, r, w,
                               err));
    }
  return PSC_STATUS_OK;
}
