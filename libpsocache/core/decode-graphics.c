/* decode-graphics.c: reading graphics keys. The decoder (a create info
 * rebuilt from a key, so the driver is always called with what the key
 * says), and the key readers the core needs: the shader references of a
 * graphics or compute key (hot reload, predecessors) and the rendering
 * signature of a graphics key (fallback registration).
 *
 * Keys come from the encoders of this library (never from outside): a
 * malformed key is a bug, reported as NULL / false / -1, never read out of
 * bounds. Every reader starts at read_graphics_fixed, the one parser of
 * the fixed part, which fills in the defaults of absent optional records.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "encode-graphics.h"
#include "encode-stage.h"

/* ---------------------------------------------------------------------------
 * The fixed part: everything before the vertex input, with the optional
 * records that are absent set to their defaults (zeros; a full sample
 * mask).
 */
static inline uint64_t
psc_graphics_key_dynamic (const PscKeyGraphics *h)
{
  return h->dynamic_lo | (uint64_t) h->dynamic_hi << 32;
}

typedef PscGraphicsKeyFixed GraphicsKeyFixed;

/* Reads the record at rd into dst when bit is set in present. */
static bool
read_optional (PscKeyReader *rd, uint32_t present, uint32_t bit, void *dst, size_t size)
{
  return !(present & bit) || psc_kr_get (rd, dst, size);
}

static bool
read_graphics_fixed (PscKeyReader *rd, GraphicsKeyFixed *k)
{
  memset (k, 0, sizeof *k);
  PscKeyGraphics *h = &k->h;
  if (!psc_kr_get (rd, h, sizeof *h) || h->tag != PSC_TAG_GRAPHICS
      || h->stage_count == 0 || h->stage_count > PSC_MAX_GRAPHICS_STAGES
      || h->color_count > PSC_MAX_COLOR_ATTACHMENTS || (h->present & ~PSC_GFX_HAS_ALL)
      || (psc_graphics_key_dynamic (h) & ~PSC_DYN_ALL_MASK)
      || ((h->present & PSC_GFX_LEGACY_PASS)
          && (h->color_count || (h->present & PSC_GFX_HAS_VIEW_MASK)))
      || !read_optional (rd, h->present, PSC_GFX_LEGACY_PASS, &k->pass, sizeof k->pass)
      || !read_optional (rd, h->present, PSC_GFX_HAS_VIEW_MASK, &k->view_mask, sizeof k->view_mask)
      || !psc_kr_get (rd, k->colors, h->color_count * sizeof k->colors[0]))
    return false;
  PscKeyGraphicsState *st = &k->st;
  if (!psc_kr_get (rd, st, sizeof *st)
      || st->binding_count > PSC_MAX_VERTEX_BINDINGS || st->attribute_count > PSC_MAX_VERTEX_ATTRIBUTES
      || st->blend_count > PSC_MAX_COLOR_ATTACHMENTS
      || st->viewport_count > PSC_MAX_VIEWPORTS || st->scissor_count > PSC_MAX_VIEWPORTS
      /* A sample count is 0 (no multisample state) or a power of two up to 64
       * (it is shifted by below: untrusted bytes must not pick the shift). */
      || st->samples > 64 || (st->samples & (st->samples - 1)) != 0
      /* Used as shift counts and table indexes before the rebuilt create
       * info is validated again. */
      || st->topology > VK_PRIMITIVE_TOPOLOGY_PATCH_LIST || st->polygon_mode > VK_POLYGON_MODE_POINT
      || (st->sample_shading && !(h->present & PSC_GFX_HAS_SAMPLE_STATE)))
    return false;
  if (!(h->present & PSC_GFX_HAS_SAMPLE_STATE))
    {
      const uint64_t full = st->samples == 64 ? UINT64_MAX : (UINT64_C (1) << st->samples) - 1;
      k->sample.sample_mask[0] = (uint32_t) full;
      k->sample.sample_mask[1] = (uint32_t) (full >> 32);
    }
  return read_optional (rd, h->present, PSC_GFX_HAS_TESSELLATION, &k->tess, sizeof k->tess)
         && read_optional (rd, h->present, PSC_GFX_HAS_DEPTH_BIAS, &k->bias, sizeof k->bias)
         && read_optional (rd, h->present, PSC_GFX_HAS_SAMPLE_STATE, &k->sample, sizeof k->sample)
         && read_optional (rd, h->present, PSC_GFX_HAS_STENCIL_BOUNDS, &k->dsk, sizeof k->dsk)
         && read_optional (rd, h->present, PSC_GFX_HAS_BLEND_CONSTANTS, &k->cbk, sizeof k->cbk)
         && read_optional (rd, h->present, PSC_GFX_HAS_COLOR_BLEND, k->blend,
                           st->blend_count * sizeof k->blend[0]);
}

static bool
decode_vertex_input (PscKeyReader *rd, const PscKeyGraphicsState *st, PscGraphicsBuild *b)
{
  for (uint32_t j = 0; j < st->binding_count; j++)
    {
      PscKeyVertexBinding k;
      if (!psc_kr_get (rd, &k, sizeof k))
        return false;
      b->vertex_bindings[j].binding = k.binding;
      b->vertex_bindings[j].stride = k.stride;
      b->vertex_bindings[j].inputRate = (VkVertexInputRate) k.input_rate;
    }
  for (uint32_t j = 0; j < st->attribute_count; j++)
    {
      PscKeyVertexAttribute k;
      if (!psc_kr_get (rd, &k, sizeof k)
          || !psc_enum_format_to_vk (k.format, &b->vertex_attributes[j].format))
        return false;
      b->vertex_attributes[j].location = k.location;
      b->vertex_attributes[j].binding = k.binding;
      b->vertex_attributes[j].offset = k.offset;
    }
  b->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  b->vertex_input.vertexBindingDescriptionCount = st->binding_count;
  b->vertex_input.pVertexBindingDescriptions = st->binding_count ? b->vertex_bindings : NULL;
  b->vertex_input.vertexAttributeDescriptionCount = st->attribute_count;
  b->vertex_input.pVertexAttributeDescriptions = st->attribute_count ? b->vertex_attributes : NULL;
  b->ci.pVertexInputState = &b->vertex_input;
  return true;
}

/* The stages, which end the key; *stage_mask gets 1 << PscStage of each. */
static bool
decode_stages (PscKeyReader *rd, const PscKeyGraphics *h, const PscResolver *r,
               PscGraphicsBuild *b, uint32_t *stage_mask)
{
  *stage_mask = 0;
  for (uint32_t j = 0; j < h->stage_count; j++)
    {
      uint8_t stage;
      if (!psc_decode_stage (rd, r, &b->stages[j], &b->spec[j], b->map[j], b->spec_data[j],
                             b->names[j], &stage)
          || stage == PSC_STAGE_COMPUTE)
        return false;
      *stage_mask |= 1u << stage;
    }
  if (rd->p != rd->end)
    return false;
  b->ci.stageCount = h->stage_count;
  b->ci.pStages = b->stages;
  return true;
}

/* Where no line is rasterized the key holds 0 for the line width (it is
 * not keyed); the create info gets 1.0, the value that is valid without the
 * wideLines feature. */
static void
decode_rasterization (const GraphicsKeyFixed *fx, uint32_t stage_mask, PscGraphicsBuild *b)
{
  const PscKeyGraphicsState *st = &fx->st;
  VkPipelineRasterizationStateCreateInfo *rs = &b->rasterization;
  rs->sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  rs->depthClampEnable = st->depth_clamp;
  rs->rasterizerDiscardEnable = st->rasterizer_discard;
  rs->polygonMode = (VkPolygonMode) st->polygon_mode;
  rs->cullMode = st->cull_mode;
  rs->frontFace = (VkFrontFace) st->front_face;
  rs->depthBiasEnable = st->depth_bias_enable;
  rs->depthBiasConstantFactor = psc_bits_float (fx->bias.constant);
  rs->depthBiasClamp = psc_bits_float (fx->bias.clamp);
  rs->depthBiasSlopeFactor = psc_bits_float (fx->bias.slope);
  rs->lineWidth = psc_graphics_rasterizes_lines (stage_mask, st->topology, st->polygon_mode,
                                                 st->rasterizer_discard)
                  ? psc_bits_float (st->line_width) : 1.0f;
  b->ci.pRasterizationState = rs;
}

static bool
decode_multisample (const GraphicsKeyFixed *fx, PscGraphicsBuild *b)
{
  const PscKeyGraphicsState *st = &fx->st;
  uint8_t s;
  if (!psc_enum_samples ((VkSampleCountFlagBits) st->samples, &s))
    return false;
  VkPipelineMultisampleStateCreateInfo *ms = &b->multisample;
  ms->sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  ms->rasterizationSamples = (VkSampleCountFlagBits) st->samples;
  ms->sampleShadingEnable = st->sample_shading;
  ms->minSampleShading = psc_bits_float (fx->sample.min_sample_shading);
  const uint64_t full = st->samples == 64 ? UINT64_MAX : (UINT64_C (1) << st->samples) - 1;
  const uint64_t mask = fx->sample.sample_mask[0] | ((uint64_t) fx->sample.sample_mask[1] << 32);
  if (mask != full)
    {
      b->sample_mask[0] = fx->sample.sample_mask[0];
      b->sample_mask[1] = fx->sample.sample_mask[1];
      ms->pSampleMask = b->sample_mask;
    }
  ms->alphaToCoverageEnable = st->alpha_to_coverage;
  ms->alphaToOneEnable = st->alpha_to_one;
  b->ci.pMultisampleState = ms;
  return true;
}

static void
decode_stencil (VkStencilOpState *s, uint8_t fail, uint8_t pass, uint8_t depth_fail,
                uint8_t compare, uint32_t compare_mask, uint32_t write_mask, uint32_t reference)
{
  s->failOp = (VkStencilOp) fail;
  s->passOp = (VkStencilOp) pass;
  s->depthFailOp = (VkStencilOp) depth_fail;
  s->compareOp = (VkCompareOp) compare;
  s->compareMask = compare_mask;
  s->writeMask = write_mask;
  s->reference = reference;
}

static void
decode_depth_stencil (const GraphicsKeyFixed *fx, PscGraphicsBuild *b)
{
  const PscKeyGraphicsState *st = &fx->st;
  const PscKeyDepthStencil *dsk = &fx->dsk;
  VkPipelineDepthStencilStateCreateInfo *ds = &b->depth_stencil;
  ds->sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  ds->depthTestEnable = st->depth_test;
  ds->depthWriteEnable = st->depth_write;
  ds->depthCompareOp = (VkCompareOp) st->depth_compare;
  ds->depthBoundsTestEnable = st->depth_bounds_test;
  ds->stencilTestEnable = st->stencil_test;
  decode_stencil (&ds->front, dsk->front_fail, dsk->front_pass, dsk->front_depth_fail,
                  dsk->front_compare, dsk->front_compare_mask, dsk->front_write_mask,
                  dsk->front_reference);
  decode_stencil (&ds->back, dsk->back_fail, dsk->back_pass, dsk->back_depth_fail,
                  dsk->back_compare, dsk->back_compare_mask, dsk->back_write_mask,
                  dsk->back_reference);
  ds->minDepthBounds = psc_bits_float (dsk->min_depth_bounds);
  ds->maxDepthBounds = psc_bits_float (dsk->max_depth_bounds);
  b->ci.pDepthStencilState = ds;
}

static void
decode_color_blend (const GraphicsKeyFixed *fx, PscGraphicsBuild *b)
{
  const PscKeyGraphicsState *st = &fx->st;
  VkPipelineColorBlendStateCreateInfo *cb = &b->color_blend;
  cb->sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  cb->logicOpEnable = st->logic_op_enable;
  cb->logicOp = (VkLogicOp) st->logic_op;
  cb->attachmentCount = st->blend_count;
  cb->pAttachments = st->blend_count ? b->blend_attachments : NULL;
  for (uint32_t j = 0; j < st->blend_count; j++)
    {
      const PscKeyBlendAttachment *k = &fx->blend[j];
      VkPipelineColorBlendAttachmentState *a = &b->blend_attachments[j];
      a->blendEnable = k->blend_enable;
      a->srcColorBlendFactor = (VkBlendFactor) k->src_color;
      a->dstColorBlendFactor = (VkBlendFactor) k->dst_color;
      a->colorBlendOp = (VkBlendOp) k->color_op;
      a->srcAlphaBlendFactor = (VkBlendFactor) k->src_alpha;
      a->dstAlphaBlendFactor = (VkBlendFactor) k->dst_alpha;
      a->alphaBlendOp = (VkBlendOp) k->alpha_op;
      a->colorWriteMask = k->write_mask;
    }
  for (uint32_t j = 0; j < 4; j++)
    cb->blendConstants[j] = psc_bits_float (fx->cbk.blend_constants[j]);
  b->ci.pColorBlendState = cb;
}

static void
decode_dynamic_states (uint64_t dyn, PscGraphicsBuild *b)
{
  if (dyn == 0)
    return;
  uint32_t n = 0;
  for (unsigned bit = 0; bit < PSC_DYN_COUNT; bit++)
    if (dyn & (UINT64_C (1) << bit))
      b->dynamic_states[n++] = psc_enum_dynamic_state_to_vk (bit);
  b->dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  b->dynamic.dynamicStateCount = n;
  b->dynamic.pDynamicStates = b->dynamic_states;
  b->ci.pDynamicState = &b->dynamic;
}

/* The pipeline layout, and the dynamic rendering description or the legacy
 * backend's compatibility pass. */
static bool
decode_layout_rendering (const GraphicsKeyFixed *fx, const PscResolver *r, PscGraphicsBuild *b)
{
  const PscKeyGraphics *h = &fx->h;
  VkGraphicsPipelineCreateInfo *ci = &b->ci;
  if (r->pipeline_layout_handle == NULL)
    return false;
  ci->layout = r->pipeline_layout_handle (r->ctx, h->layout_id);
  if (ci->layout == VK_NULL_HANDLE)
    return false;
  if (h->present & PSC_GFX_LEGACY_PASS)
    {
      if (r->render_pass_handle == NULL)
        return false;
      ci->renderPass = r->render_pass_handle (r->ctx, fx->pass.render_pass_id);
      ci->subpass = fx->pass.subpass;
      return ci->renderPass != VK_NULL_HANDLE;
    }
  for (uint32_t j = 0; j < h->color_count; j++)
    if (!psc_enum_format_to_vk (fx->colors[j], &b->color_formats[j]))
      return false;
  VkPipelineRenderingCreateInfo *ri = &b->rendering;
  ri->sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
  ri->viewMask = fx->view_mask;
  ri->colorAttachmentCount = h->color_count;
  ri->pColorAttachmentFormats = h->color_count ? b->color_formats : NULL;
  if (!psc_enum_format_to_vk (h->depth_format, &ri->depthAttachmentFormat)
      || !psc_enum_format_to_vk (h->stencil_format, &ri->stencilAttachmentFormat))
    return false;
  ci->pNext = ri;
  return true;
}

const VkGraphicsPipelineCreateInfo *
psc_decode_graphics (const uint8_t *key, size_t len, const PscResolver *r, PscGraphicsBuild *b)
{
  if (key == NULL || b == NULL || r == NULL)
    return NULL;
  PscKeyReader rd = { key, key + len };
  GraphicsKeyFixed fx;
  if (!read_graphics_fixed (&rd, &fx))
    return NULL;
  const PscKeyGraphics *h = &fx.h;

  memset (b, 0, sizeof *b);
  VkGraphicsPipelineCreateInfo *ci = &b->ci;
  uint32_t stage_mask;
  if (!decode_vertex_input (&rd, &fx.st, b) || !decode_stages (&rd, h, r, b, &stage_mask))
    return NULL;

  b->input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  b->input_assembly.topology = (VkPrimitiveTopology) fx.st.topology;
  b->input_assembly.primitiveRestartEnable = fx.st.primitive_restart;
  ci->pInputAssemblyState = &b->input_assembly;
  if (h->present & PSC_GFX_HAS_TESSELLATION)
    {
      b->tessellation.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
      b->tessellation.patchControlPoints = fx.tess.patch_control_points;
      ci->pTessellationState = &b->tessellation;
    }
  if (h->present & PSC_GFX_HAS_VIEWPORT)
    {
      b->viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
      b->viewport.viewportCount = fx.st.viewport_count;
      b->viewport.scissorCount = fx.st.scissor_count;
      ci->pViewportState = &b->viewport;
    }
  decode_rasterization (&fx, stage_mask, b);
  if ((h->present & PSC_GFX_HAS_MULTISAMPLE) && !decode_multisample (&fx, b))
    return NULL;
  if (h->present & PSC_GFX_HAS_DEPTH_STENCIL)
    decode_depth_stencil (&fx, b);
  if (h->present & PSC_GFX_HAS_COLOR_BLEND)
    decode_color_blend (&fx, b);
  decode_dynamic_states (psc_graphics_key_dynamic (h), b);
  if (!decode_layout_rendering (&fx, r, b))
    return NULL;

  ci->sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  ci->flags = h->flags;
  ci->basePipelineHandle = VK_NULL_HANDLE;
  ci->basePipelineIndex = -1;
  return ci;
}

/* ---------------------------------------------------------------------------
 * Key readers.
 */

/* Shader references of a pipeline key (graphics or compute): ids,
 * generations and the byte offset of each generation field, in key order.
 * Used to invalidate entries on hot reload and to look up the previous
 * generation of a key. Returns the number of stages, or -1 for a malformed
 * key. */
int
psc_pipeline_key_shaders (const uint8_t *key, size_t len, uint32_t *ids, uint32_t *generations,
                          size_t *gen_offsets)
{
  PscKeyReader rd = { key, key + len };
  uint32_t tag;
  if (len < sizeof tag)
    return -1;
  memcpy (&tag, key, sizeof tag);
  uint32_t stages;
  if (tag == PSC_TAG_COMPUTE)
    {
      PscKeyCompute c;
      if (!psc_kr_get (&rd, &c, sizeof c))
        return -1;
      stages = 1;
    }
  else if (tag == PSC_TAG_GRAPHICS)
    {
      GraphicsKeyFixed k;
      if (!read_graphics_fixed (&rd, &k))
        return -1;
      const size_t skip = k.st.binding_count * sizeof (PscKeyVertexBinding)
                          + k.st.attribute_count * sizeof (PscKeyVertexAttribute);
      if (skip > 0 && !psc_kr_take (&rd, skip))
        return -1;
      stages = k.h.stage_count;
    }
  else
    return -1;

  for (uint32_t j = 0; j < stages; j++)
    {
      PscKeyStage k;
      size_t off;
      if (!psc_skip_stage (&rd, &k, &off, key))
        return -1;
      ids[j] = k.shader_id;
      generations[j] = k.generation;
      if (gen_offsets != NULL)
        gen_offsets[j] = off;
    }
  return rd.p == rd.end ? (int) stages : -1;
}

/* The rendering signature of a graphics key: pipeline layout plus everything
 * that decides where it may draw (backend, compatibility pass + subpass or
 * view mask + formats, sample count). Fallback pipelines are registered
 * under it. out must hold at least 128 bytes. */
bool
psc_graphics_key_rendering_signature (const uint8_t *key, size_t len, uint8_t *out, size_t *out_len)
{
  PscKeyReader rd = { key, key + len };
  GraphicsKeyFixed k;
  if (!read_graphics_fixed (&rd, &k))
    return false;
  const uint8_t legacy = (k.h.present & PSC_GFX_LEGACY_PASS) != 0;
  uint8_t *o = out;
#define PUT(v) do { memcpy (o, &(v), sizeof (v)); o += sizeof (v); } while (0)
  PUT (k.h.layout_id);
  PUT (k.pass.render_pass_id);
  PUT (k.pass.subpass);
  PUT (k.view_mask);
  PUT (k.h.depth_format);
  PUT (k.h.stencil_format);
  PUT (legacy);
  PUT (k.h.color_count);
  PUT (k.st.samples);
#undef PUT
  memcpy (o, k.colors, k.h.color_count * sizeof (uint16_t));
  o += k.h.color_count * sizeof (uint16_t);
  *out_len = (size_t) (o - out);
  return true;
}
