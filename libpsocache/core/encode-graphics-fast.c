/* encode-graphics-fast.c: the graphics fast path.
 *
 * A cache hit canonicalizes its create info on every request, so the common
 * shape gets a lean encoder of its own: dynamic rendering, no tessellation,
 * no static rasterizer discard, no sample shading, no stencil test, no
 * static depth bounds, no logic op and no static blend constants. Anything
 * outside that shape, and every check that fails, makes it decline
 * (PSC_STATUS_DECLINED): psc_encode_graphics then runs the complete encoder
 * from the start, which writes the key or reports the first error with its
 * field path (the fast path reports none). For every input it accepts, the
 * fast path writes exactly the bytes the complete encoder writes
 * (tests/unit/test-encode.c checks both on every test input and on
 * randomized variants).
 *
 * Every key byte is written once, straight into the writer's buffer: no
 * staging record copied afterwards (a wide load of bytes stored a moment
 * before stalls on store forwarding), no `rep movs/stos` for odd-sized
 * copies, no sort of input that is already sorted, and shader and layout
 * lookups through the resolver's memo (resolver-memo.h). The per-element
 * loops (stages, blend states, vertex input) are functions of their own;
 * the rest compiles into the entry point.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "encode-graphics-fast.h"
#include "encode-graphics.h"
#include "encode-stage.h"
#include "resolver-memo.h"

#define DYN(name) PSC_DYN_BIT (name)

/* The largest key the fast path writes; its room is checked once, up front. */
#define FAST_KEY_MAX                                                             \
  (sizeof (PscKeyGraphics) + sizeof (uint32_t) /* view mask */                 \
   + PSC_MAX_COLOR_ATTACHMENTS * sizeof (uint16_t) + sizeof (PscKeyGraphicsState) \
   + sizeof (PscKeyDepthBias) + sizeof (PscKeySampleState)                       \
   + PSC_MAX_COLOR_ATTACHMENTS * sizeof (PscKeyBlendAttachment)                  \
   + PSC_MAX_VERTEX_BINDINGS * sizeof (PscKeyVertexBinding)                      \
   + PSC_MAX_VERTEX_ATTRIBUTES * sizeof (PscKeyVertexAttribute)                  \
   + PSC_MAX_GRAPHICS_STAGES * (sizeof (PscKeyStage) + PSC_MAX_ENTRY_NAME        \
                                + PSC_MAX_SPEC_CONSTANTS * (sizeof (PscKeySpecEntry) \
                                                            + PSC_MAX_SPEC_VALUE_BYTES)))
_Static_assert (FAST_KEY_MAX <= PSC_MAX_KEY_BYTES, "the fast path must fit a key buffer");

#define DECLINE_IF(cond)                                                         \
  do {                                                                           \
    if (PSC_UNLIKELY (cond))                                                     \
      return PSC_STATUS_DECLINED;                                                \
  } while (0)

/* A create-info header: sType, no pNext, no flags (one test for both). */
#define BAD_HEADER(ptr, stype)                                                   \
  ((ptr) == NULL || (ptr)->sType != (stype)                                      \
   || ((uintptr_t) (ptr)->pNext | (ptr)->flags) != 0)

/* Zeroes the 28-byte state record in place with 16-, 8- and 4-byte
 * stores: a memset of that size compiles to a `rep stos` with GCC's
 * generic tuning, whose start-up cost showed up in profiles of the hit. */
_Static_assert (sizeof (PscKeyGraphicsState) == 28, "update zero_state_record");

static inline void
zero_state_record (uint8_t *dst)
{
  static const uint8_t zeros[32];
  memcpy (dst, zeros, 16);
  memcpy (dst + 16, zeros + 16, 8);
  memcpy (dst + 24, zeros + 24, 4);
}

/* Sorts order[0..n) by the u32 number at base + order[i] * stride (n <= 32,
 * stable); false if two numbers are equal. */
static PSC_COLD bool
sort_by_number (uint8_t *order, const uint32_t *base, size_t stride, uint32_t n)
{
  uint64_t v[PSC_MAX_VERTEX_ATTRIBUTES];
  for (uint32_t j = 0; j < n; j++)
    {
      const uint32_t number = *(const uint32_t *) ((const uint8_t *) base + j * stride);
      const uint64_t x = (uint64_t) number << 8 | j;
      uint32_t i = j;
      while (i > 0 && v[i - 1] > x)
        {
          v[i] = v[i - 1];
          i--;
        }
      v[i] = x;
    }
  for (uint32_t j = 0; j < n; j++)
    {
      if (j > 0 && (v[j] >> 8) == (v[j - 1] >> 8))
        return false;
      order[j] = (uint8_t) (v[j] & 0xff);
    }
  return true;
}

#define FAIL_IF(cond)                                                            \
  do {                                                                           \
    if (PSC_UNLIKELY (cond))                                                     \
      return NULL;                                                               \
  } while (0)

/* Colour blend attachment states for the fast path, written at out (one
 * PscKeyBlendAttachment each); false to decline. With blending off the
 * factors and ops are neither checked nor kept. */
static __attribute__((noinline)) bool
fast_blend (const VkPipelineColorBlendAttachmentState *atts, uint32_t count,
            bool dynamic_constants, uint8_t *out)
{
  uint32_t bad = 0, uses_constants = 0;
  for (uint32_t j = 0; j < count; j++, out += sizeof (PscKeyBlendAttachment))
    {
      /* Byte stores straight to the key: a record assembled in memory and
       * reloaded whole would stall on store forwarding. */
      const VkPipelineColorBlendAttachmentState *a = &atts[j];
      bad |= (uint32_t) a->colorWriteMask > PSC_ENUM_MAX_COLOR_COMPONENTS;
      out[offsetof (PscKeyBlendAttachment, write_mask)] = (uint8_t) a->colorWriteMask;
      if (a->blendEnable)
        {
          const uint32_t sc = a->srcColorBlendFactor, dc = a->dstColorBlendFactor;
          const uint32_t sa = a->srcAlphaBlendFactor, da = a->dstAlphaBlendFactor;
          const uint32_t co = a->colorBlendOp, ao = a->alphaBlendOp;
          bad |= (sc > PSC_ENUM_MAX_BLEND_FACTOR) | (dc > PSC_ENUM_MAX_BLEND_FACTOR)
                 | (sa > PSC_ENUM_MAX_BLEND_FACTOR) | (da > PSC_ENUM_MAX_BLEND_FACTOR)
                 | (co > PSC_ENUM_MAX_BLEND_OP) | (ao > PSC_ENUM_MAX_BLEND_OP);
          /* CONSTANT_COLOR .. ONE_MINUS_CONSTANT_ALPHA read the constants. */
          uses_constants |= (sc - VK_BLEND_FACTOR_CONSTANT_COLOR < 4u)
                            | (dc - VK_BLEND_FACTOR_CONSTANT_COLOR < 4u)
                            | (sa - VK_BLEND_FACTOR_CONSTANT_COLOR < 4u)
                            | (da - VK_BLEND_FACTOR_CONSTANT_COLOR < 4u);
          out[offsetof (PscKeyBlendAttachment, blend_enable)] = 1;
          out[offsetof (PscKeyBlendAttachment, src_color)] = (uint8_t) sc;
          out[offsetof (PscKeyBlendAttachment, dst_color)] = (uint8_t) dc;
          out[offsetof (PscKeyBlendAttachment, color_op)] = (uint8_t) co;
          out[offsetof (PscKeyBlendAttachment, src_alpha)] = (uint8_t) sa;
          out[offsetof (PscKeyBlendAttachment, dst_alpha)] = (uint8_t) da;
          out[offsetof (PscKeyBlendAttachment, alpha_op)] = (uint8_t) ao;
        }
      else
        {
          /* Blending off: only the write mask is kept (constant stores,
           * which the compiler merges). */
          for (size_t b = 0; b < offsetof (PscKeyBlendAttachment, write_mask); b++)
            out[b] = 0;
        }
    }
  return !(bad | (uses_constants & !dynamic_constants));
}

/* Vertex bindings and attributes for the fast path, written at o; returns
 * the end, or NULL to decline. */
static inline uint8_t *
put_binding (uint8_t *o, const VkVertexInputBindingDescription *e, uint32_t stride_mask,
             uint32_t *bad)
{
  *bad |= ((uint32_t) e->inputRate > PSC_ENUM_MAX_VERTEX_INPUT_RATE) | (e->binding > UINT16_MAX);
  PscKeyVertexBinding k = {
    .binding = (uint16_t) e->binding,
    .input_rate = (uint16_t) e->inputRate,
    .stride = e->stride & stride_mask,
  };
  memcpy (o, &k, sizeof k);
  return o + sizeof k;
}

static inline uint8_t *
put_attribute (uint8_t *o, const VkVertexInputAttributeDescription *e, uint32_t *bad)
{
  PscKeyVertexAttribute k;
  const uint32_t f = (uint32_t) e->format;
  if (PSC_LIKELY (f <= PSC_FORMAT_ID_CORE_MAX))
    k.format = (uint16_t) f;
  else
    *bad |= !psc_enum_format (e->format, &k.format);
  *bad |= (e->location | e->binding) > UINT8_MAX;
  k.location = (uint8_t) e->location;
  k.binding = (uint8_t) e->binding;
  k.offset = e->offset;
  memcpy (o, &k, sizeof k);
  return o + sizeof k;
}

static __attribute__((noinline)) uint8_t *
fast_vertex_input (const VkPipelineVertexInputStateCreateInfo *vi, bool dynamic_stride, uint8_t *o)
{
  /* Bindings sorted by binding, attributes by location. Input that is
   * already strictly increasing (the usual case) is written as it is read;
   * anything else is sorted first, and a repeated number declines. */
  const uint32_t nb = vi->vertexBindingDescriptionCount;
  const uint32_t na = vi->vertexAttributeDescriptionCount;
  const VkVertexInputBindingDescription *bd = vi->pVertexBindingDescriptions;
  const VkVertexInputAttributeDescription *ad = vi->pVertexAttributeDescriptions;
  const uint32_t stride_mask = dynamic_stride ? 0 : UINT32_MAX;
  uint8_t order[PSC_MAX_VERTEX_ATTRIBUTES];
  uint32_t bad = 0;

  /* Bindings: written as read while the numbers increase; on the first one
   * that does not, start over in sorted order. */
  uint8_t *const bindings = o;
  for (uint32_t j = 0; j < nb; j++)
    {
      const VkVertexInputBindingDescription *e = &bd[j];
      if (PSC_UNLIKELY (j > 0 && e->binding <= bd[j - 1].binding))
        {
          FAIL_IF (!sort_by_number (order, &bd[0].binding, sizeof *bd, nb));
          o = bindings;
          for (uint32_t i = 0; i < nb; i++)
            o = put_binding (o, &bd[order[i]], stride_mask, &bad);
          break;
        }
      o = put_binding (o, e, stride_mask, &bad);
    }

  /* Attributes: the same. */
  uint8_t *const attributes = o;
  for (uint32_t j = 0; j < na; j++)
    {
      const VkVertexInputAttributeDescription *e = &ad[j];
      if (PSC_UNLIKELY (j > 0 && e->location <= ad[j - 1].location))
        {
          FAIL_IF (!sort_by_number (order, &ad[0].location, sizeof *ad, na));
          o = attributes;
          for (uint32_t i = 0; i < na; i++)
            o = put_attribute (o, &ad[order[i]], &bad);
          break;
        }
      o = put_attribute (o, e, &bad);
    }
  FAIL_IF (bad);
  return o;
}

/* True if a map entry (in constant-ID order, through order[]) gives a
 * constant the shader declares (spec, sorted by ID) another size: one
 * merge walk of the two sorted lists. */
static __attribute__((noinline)) bool
spec_sizes_differ (const PscSpecConstant *spec, uint32_t spec_count,
                   const VkSpecializationMapEntry *map, const uint8_t *order, uint32_t n)
{
  uint32_t cursor = 0, bad = 0;
  for (uint32_t j = 0; j < n; j++)
    {
      const VkSpecializationMapEntry *e = &map[order[j]];
      const uint32_t declared = psc_spec_declared_size (spec, spec_count, &cursor, e->constantID);
      bad |= declared != 0 && declared != e->size;
    }
  return bad != 0;
}

_Static_assert (sizeof (PscKeySpecEntry) == 8 && offsetof (PscKeySpecEntry, size) == 4
                && sizeof (PscSpecConstant) == 8 && offsetof (PscSpecConstant, size) == 4,
                "put_spec_entries writes and compares {constant_id, size} as one word");

/* Writes a stage's map entries (in ID order, through order[]) at o and
 * their values after them; returns the end. With `exact` (the shader's
 * table, as long as the entries), ORs into *diff any ID or size that
 * differs from exact[j]. Inlined twice, with and without the table, so the
 * loop without one pays nothing for it. */
static inline __attribute__((always_inline)) uint8_t *
put_spec_entries (uint8_t *o, const VkSpecializationMapEntry *map, const uint8_t *order,
                  uint32_t n, const uint8_t *data, const PscSpecConstant *exact, uint64_t *diff)
{
  uint8_t *values = o + n * sizeof (PscKeySpecEntry);
  for (uint32_t j = 0; j < n; j++)
    {
      const VkSpecializationMapEntry *e = &map[order[j]];
      const uint32_t size = (uint32_t) e->size;
      /* The record {constant_id, size} as one word (both are u32, in this
       * order, in PscKeySpecEntry and PscSpecConstant alike; assembled in
       * memory order, which the compiler folds into a shift and an or). */
      const uint32_t pair[2] = { e->constantID, size };
      uint64_t record;
      memcpy (&record, pair, sizeof record);
      if (exact != NULL)
        {
          uint64_t declared;
          memcpy (&declared, &exact[j], sizeof declared);
          *diff |= declared ^ record;
        }
      memcpy (o, &record, sizeof record);
      o += sizeof (PscKeySpecEntry);
      if (size == 4)             /* the common case: a 32-bit constant */
        memcpy (values, data + e->offset, 4);
      else
        psc_copy_small (values, data + e->offset, size);
      values += size;
    }
  return values;
}

/* One stage for the fast path, written at o: the same record psc_encode_stage
 * writes. Returns the end of the record, or NULL to decline (anything
 * wrong: psc_encode_stage reports it). */
static __attribute__((noinline)) uint8_t *
fast_stage (const VkPipelineShaderStageCreateInfo *s, uint8_t stage, const PscResolver *r,
            uint8_t *o)
{
  if (PSC_UNLIKELY (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                    || s->pNext != NULL
                    || (s->flags & ~(VkPipelineShaderStageCreateFlags) PSC_STAGE_CREATE_FLAGS)
                    || s->module == VK_NULL_HANDLE || s->pName == NULL))
    return NULL;
  /* The resolver's outputs are read back one by one, as they were stored
   * (one 8-byte load of two fresh 4-byte stores would stall). */
  PscShaderInfo info;
  if (PSC_UNLIKELY (!psc_resolve_shader (r, s->module, &info)))
    return NULL;
  const uint32_t shader_id = info.id, generation = info.generation;
  const PscSpecConstant *const spec = info.spec;
  const uint32_t spec_count = info.spec_count;
  /* The entry point: "main" (nearly every shader's) is matched byte by byte
   * (a wider load could read past a shorter string's end) and stored as one
   * word; any other name is measured and copied. */
  const char *name = s->pName;
  size_t name_len;
  const bool is_main = name[0] == 'm' && name[1] == 'a' && name[2] == 'i' && name[3] == 'n'
                       && name[4] == '\0';
  if (PSC_LIKELY (is_main))
    name_len = 4;
  else
    {
      name_len = 0;
      while (name[name_len] != '\0')
        if (PSC_UNLIKELY (++name_len > PSC_MAX_ENTRY_NAME))
          return NULL;
    }

  const VkSpecializationInfo *si = s->pSpecializationInfo;
  const uint32_t n = si ? si->mapEntryCount : 0;
  memcpy (o + offsetof (PscKeyStage, shader_id), &shader_id, 4);
  memcpy (o + offsetof (PscKeyStage, generation), &generation, 4);
  o[offsetof (PscKeyStage, stage)] = stage;
  o[offsetof (PscKeyStage, flags)] = (uint8_t) s->flags;
  o[offsetof (PscKeyStage, name_len)] = (uint8_t) name_len;
  o[offsetof (PscKeyStage, spec_count)] = (uint8_t) n;
  o += sizeof (PscKeyStage);
  if (PSC_LIKELY (is_main))
    memcpy (o, "main", 4);
  else
    psc_copy_small (o, (const uint8_t *) name, name_len);
  o += name_len;
  if (n == 0)
    return o;

  const VkSpecializationMapEntry *map = si->pMapEntries;
  if (PSC_UNLIKELY (n > PSC_MAX_SPEC_CONSTANTS || map == NULL || si->pData == NULL))
    return NULL;
  /* Map entries in constant-ID order: one or two entries (the usual case)
   * directly, more through an insertion sort. Equal IDs decline. */
  const size_t data_size = si->dataSize;
  uint32_t bad = 0;
  for (uint32_t j = 0; j < n; j++)
    bad |= (map[j].size > PSC_MAX_SPEC_VALUE_BYTES)
           | ((uint64_t) map[j].offset + map[j].size > data_size);
  if (PSC_UNLIKELY (bad))
    return NULL;
  uint8_t order[PSC_MAX_SPEC_CONSTANTS];
  if (n == 1)
    order[0] = 0;
  else if (n == 2)
    {
      const uint32_t a = map[0].constantID, b = map[1].constantID;
      if (PSC_UNLIKELY (a == b))
        return NULL;
      order[0] = a > b;
      order[1] = a < b;
    }
  else if (PSC_UNLIKELY (!sort_by_number (order, &map[0].constantID, sizeof *map, n)))
    return NULL;
  /* Sizes against the shader's declared constants: in the usual case the
   * entries name exactly the constants it declares, so entry j (in ID
   * order) must equal spec[j], which the loop below compares as it writes;
   * any other shape, or a difference, takes the merge walk. */
  const PscSpecConstant *exact = spec_count == n ? spec : NULL;
  if (PSC_UNLIKELY (spec_count != 0 && exact == NULL
                    && spec_sizes_differ (spec, spec_count, map, order, n)))
    return NULL;
  uint64_t diff = 0;
  uint8_t *const values = exact != NULL
                          ? put_spec_entries (o, map, order, n, si->pData, exact, &diff)
                          : put_spec_entries (o, map, order, n, si->pData, NULL, &diff);
  if (PSC_UNLIKELY (diff != 0 && spec_sizes_differ (spec, spec_count, map, order, n)))
    return NULL;
  return values;
}

/* The two pieces of the state record below return false to decline. They
 * are called once each and compiled into the entry point; this split (and
 * plain `static inline`, not always_inline) is the one that kept the
 * instructions per hit of the single function it replaced (callgrind:
 * other splits cost 7 to 30 more per hit). */
#define REFUSE_IF(cond)                                                          \
  do {                                                                           \
    if (PSC_UNLIKELY (cond))                                                     \
      return false;                                                              \
  } while (0)

/* Writes one field of the state record at sp. */
#define ST(field, value)                                                         \
  do {                                                                           \
    const __typeof__ (((PscKeyGraphicsState *) 0)->field) v_ = (value);          \
    memcpy (sp + offsetof (PscKeyGraphicsState, field), &v_, sizeof v_);         \
  } while (0)

/* Rasterization, input assembly, the line width and the viewport (counts
 * only) into the state record at sp; a depth-bias record in use is written
 * at *out. */
static inline bool
fast_raster_assembly (const VkGraphicsPipelineCreateInfo *ci, uint64_t dyn, uint32_t stage_mask,
                      uint8_t *sp, uint8_t **out, uint16_t *present_io)
{
  uint8_t *o = *out;
  uint16_t present = *present_io;
  uint8_t e8;
  /* Rasterization. */
  const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
  REFUSE_IF (BAD_HEADER (rs, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO)
             || (!(dyn & DYN (RASTERIZER_DISCARD_ENABLE)) && rs->rasterizerDiscardEnable)
             || !psc_enum_polygon_mode (rs->polygonMode, &e8));
  const uint8_t polygon_mode = e8;
  ST (polygon_mode, polygon_mode);
  ST (depth_clamp, rs->depthClampEnable != VK_FALSE);
  if (!(dyn & DYN (CULL_MODE)))
    {
      REFUSE_IF (!psc_enum_cull_mode (rs->cullMode, &e8));
      ST (cull_mode, e8);
    }
  if (!(dyn & DYN (FRONT_FACE)))
    {
      REFUSE_IF (!psc_enum_front_face (rs->frontFace, &e8));
      ST (front_face, e8);
    }
  const bool bias_enable = !(dyn & DYN (DEPTH_BIAS_ENABLE)) && rs->depthBiasEnable;
  ST (depth_bias_enable, bias_enable);
  if ((bias_enable || (dyn & DYN (DEPTH_BIAS_ENABLE))) && !(dyn & DYN (DEPTH_BIAS)))
    {
      uint32_t c, cl, sl;
      REFUSE_IF (!psc_float_bits (rs->depthBiasConstantFactor, &c)
                 || !psc_float_bits (rs->depthBiasClamp, &cl)
                 || !psc_float_bits (rs->depthBiasSlopeFactor, &sl));
      if (c | cl | sl)
        {
          /* The depth-bias record follows the state record. */
          memcpy (o + offsetof (PscKeyDepthBias, constant), &c, 4);
          memcpy (o + offsetof (PscKeyDepthBias, clamp), &cl, 4);
          memcpy (o + offsetof (PscKeyDepthBias, slope), &sl, 4);
          o += sizeof (PscKeyDepthBias);
          present |= PSC_GFX_HAS_DEPTH_BIAS;
        }
    }

  /* Input assembly. */
  const VkPipelineInputAssemblyStateCreateInfo *ia = ci->pInputAssemblyState;
  REFUSE_IF (BAD_HEADER (ia, VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO)
             || !psc_enum_topology (ia->topology, &e8));
  ST (topology, (dyn & DYN (PRIMITIVE_TOPOLOGY)) ? psc_topology_class (e8) : e8);
  ST (primitive_restart, !(dyn & DYN (PRIMITIVE_RESTART_ENABLE)) && ia->primitiveRestartEnable);

  /* The line width, where lines are rasterized (a line topology is one of
   * the line class: the raw topology answers for a dynamic one too; the
   * fast path has no static discard). */
  if (!(dyn & DYN (LINE_WIDTH))
      && psc_graphics_rasterizes_lines (stage_mask, e8, polygon_mode, false))
    {
      uint32_t lw;
      REFUSE_IF (!psc_float_bits (rs->lineWidth, &lw));
      ST (line_width, lw);
    }

  /* Viewport: counts only. */
  const VkPipelineViewportStateCreateInfo *vp = ci->pViewportState;
  REFUSE_IF (BAD_HEADER (vp, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO));
  if (!(dyn & DYN (VIEWPORT_WITH_COUNT)))
    {
      REFUSE_IF (vp->viewportCount - 1u >= PSC_MAX_VIEWPORTS);
      ST (viewport_count, (uint8_t) vp->viewportCount);
    }
  if (!(dyn & DYN (SCISSOR_WITH_COUNT)))
    {
      REFUSE_IF (vp->scissorCount - 1u >= PSC_MAX_VIEWPORTS);
      ST (scissor_count, (uint8_t) vp->scissorCount);
    }
  *out = o;
  *present_io = present;
  return true;
}

/* Multisample, depth/stencil (read only when the rendering has a
 * depth/stencil format), colour blend (one attachment state per colour
 * format) and the vertex input counts into the state record at sp; the
 * sample-mask record and the blend attachment states in use are written at
 * *out. */
static inline bool
fast_samples_blend (const VkGraphicsPipelineCreateInfo *ci, uint64_t dyn, uint32_t df,
                    uint32_t sf, uint32_t color_count, uint8_t *sp, uint8_t **out,
                    uint16_t *present_io)
{
  uint8_t *o = *out;
  uint16_t present = *present_io;
  uint8_t e8;
  /* Multisample. */
  const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
  uint8_t samples;
  REFUSE_IF (BAD_HEADER (ms, VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO)
             || !psc_enum_samples (ms->rasterizationSamples, &samples)
             || ms->sampleShadingEnable);
  ST (samples, samples);
  if (ms->pSampleMask != NULL)
    {
      /* A mask that is not full (after masking to the sample count) gets
       * its record, after the depth-bias record if there is one. */
      const uint64_t full = samples == 64 ? UINT64_MAX : (UINT64_C (1) << samples) - 1;
      uint64_t mask = ms->pSampleMask[0];
      if (samples > 32)
        mask |= (uint64_t) ms->pSampleMask[1] << 32;
      mask &= full;
      if (mask != full)
        {
          const uint32_t lo = (uint32_t) mask, hi = (uint32_t) (mask >> 32), none = 0;
          memcpy (o + offsetof (PscKeySampleState, sample_mask), &lo, 4);
          memcpy (o + offsetof (PscKeySampleState, sample_mask) + 4, &hi, 4);
          memcpy (o + offsetof (PscKeySampleState, min_sample_shading), &none, 4);
          o += sizeof (PscKeySampleState);
          present |= PSC_GFX_HAS_SAMPLE_STATE;
        }
    }
  ST (alpha_to_coverage, ms->alphaToCoverageEnable != VK_FALSE);
  ST (alpha_to_one, ms->alphaToOneEnable != VK_FALSE);

  /* Depth/stencil: read only when the rendering has a depth/stencil format. */
  if (df != 0 || sf != 0)
    {
      const VkPipelineDepthStencilStateCreateInfo *dss = ci->pDepthStencilState;
      REFUSE_IF (BAD_HEADER (dss, VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO));
      const bool depth_test = !(dyn & DYN (DEPTH_TEST_ENABLE)) && dss->depthTestEnable;
      const bool depth_active = depth_test || (dyn & DYN (DEPTH_TEST_ENABLE));
      ST (depth_test, depth_test);
      ST (depth_write, depth_active && !(dyn & DYN (DEPTH_WRITE_ENABLE)) && dss->depthWriteEnable);
      if (depth_active && !(dyn & DYN (DEPTH_COMPARE_OP)))
        {
          REFUSE_IF (!psc_enum_compare_op (dss->depthCompareOp, &e8));
          ST (depth_compare, e8);
        }
      const bool bounds_test = !(dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)) && dss->depthBoundsTestEnable;
      ST (depth_bounds_test, bounds_test);
      REFUSE_IF (((bounds_test || (dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)))
                  && !(dyn & DYN (DEPTH_BOUNDS)))
                 || dss->stencilTestEnable || (dyn & DYN (STENCIL_TEST_ENABLE)));
      present |= PSC_GFX_HAS_DEPTH_STENCIL;
    }

  /* Colour blend: one attachment state per colour format. */
  if (color_count > 0)
    {
      const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
      REFUSE_IF (BAD_HEADER (cb, VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO)
                 || cb->attachmentCount != color_count || cb->logicOpEnable
                 || cb->pAttachments == NULL);
      REFUSE_IF (!fast_blend (cb->pAttachments, color_count, (dyn & DYN (BLEND_CONSTANTS)) != 0,
                              o));
      o += color_count * sizeof (PscKeyBlendAttachment);
      ST (blend_count, (uint8_t) color_count);
      present |= PSC_GFX_HAS_COLOR_BLEND;
    }

  /* Vertex input. */
  const VkPipelineVertexInputStateCreateInfo *vi = ci->pVertexInputState;
  REFUSE_IF (BAD_HEADER (vi, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO));
  const uint32_t nb = vi->vertexBindingDescriptionCount;
  const uint32_t na = vi->vertexAttributeDescriptionCount;
  REFUSE_IF (nb > PSC_MAX_VERTEX_BINDINGS || na > PSC_MAX_VERTEX_ATTRIBUTES
             || (nb && vi->pVertexBindingDescriptions == NULL)
             || (na && vi->pVertexAttributeDescriptions == NULL));
  ST (binding_count, (uint8_t) nb);
  ST (attribute_count, (uint8_t) na);
  *out = o;
  *present_io = present;
  return true;
}
#undef ST

PscStatus
psc_encode_graphics_fast (const VkGraphicsPipelineCreateInfo *ci, PscRenderingMode mode,
                          const PscResolver *r, PscKeyWriter *w)
{
  DECLINE_IF (ci == NULL || ci->sType != VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
              || mode != PSC_RENDERING_DYNAMIC || r == NULL || r->shader == NULL
              || r->pipeline_layout == NULL || w->len > w->cap
              || w->cap - w->len < FAST_KEY_MAX);

  /* pNext: exactly one VkPipelineRenderingCreateInfo. */
  const VkPipelineRenderingCreateInfo *ri = ci->pNext;
  DECLINE_IF (ri == NULL || ri->sType != VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
              || ri->pNext != NULL);
  DECLINE_IF ((ci->flags & ~(VkPipelineCreateFlags) PSC_GRAPHICS_CREATE_FLAGS)
              || ci->basePipelineHandle != VK_NULL_HANDLE || ci->layout == VK_NULL_HANDLE
              || ci->renderPass != VK_NULL_HANDLE);
  uint32_t layout_id;
  DECLINE_IF (!psc_resolve_layout (r, ci->layout, &layout_id));

  /* Every key byte is written once, straight into the writer's buffer (no
   * staging record copied afterwards: a wide load of bytes stored a moment
   * before stalls on store forwarding). */
  uint8_t *const base = w->data + w->len;
  const uint32_t color_count = ri->colorAttachmentCount;
  DECLINE_IF (color_count > PSC_MAX_COLOR_ATTACHMENTS
              || (color_count && ri->pColorAttachmentFormats == NULL));
  uint8_t *o = base + sizeof (PscKeyGraphics);
  uint16_t present = PSC_GFX_HAS_VIEWPORT | PSC_GFX_HAS_MULTISAMPLE;
  const uint32_t view_mask = ri->viewMask;
  if (view_mask != 0)
    {
      memcpy (o, &view_mask, sizeof view_mask);
      o += sizeof view_mask;
      present |= PSC_GFX_HAS_VIEW_MASK;
    }
  for (uint32_t j = 0; j < color_count; j++)
    {
      uint16_t id;
      DECLINE_IF (!psc_enum_format (ri->pColorAttachmentFormats[j], &id));
      memcpy (o, &id, sizeof id);
      o += sizeof id;
    }
  /* Depth: UNDEFINED or a depth format (D16..D32_S8 except S8); stencil:
   * UNDEFINED or S8..D32_S8; equal when both are set. Their ids are their
   * Vulkan values. */
  const uint32_t df = (uint32_t) ri->depthAttachmentFormat;
  const uint32_t sf = (uint32_t) ri->stencilAttachmentFormat;
  DECLINE_IF ((df != 0 && (df - VK_FORMAT_D16_UNORM > 6u || df == VK_FORMAT_S8_UINT))
              || (sf != 0 && sf - VK_FORMAT_S8_UINT > 3u) || (df != 0 && sf != 0 && df != sf));

  /* Dynamic states: viewport and scissor must be dynamic (one form each). */
  const VkPipelineDynamicStateCreateInfo *ds = ci->pDynamicState;
  DECLINE_IF (BAD_HEADER (ds, VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO)
              || (ds->dynamicStateCount && ds->pDynamicStates == NULL));
  uint64_t dyn = 0;
  for (uint32_t j = 0; j < ds->dynamicStateCount; j++)
    {
      const int bit = psc_enum_dynamic_state (ds->pDynamicStates[j]);
      DECLINE_IF (bit < 0 || ((dyn >> bit) & 1));
      dyn |= UINT64_C (1) << bit;
    }
  {
    const uint64_t vp = dyn & (DYN (VIEWPORT) | DYN (VIEWPORT_WITH_COUNT));
    const uint64_t sc = dyn & (DYN (SCISSOR) | DYN (SCISSOR_WITH_COUNT));
    DECLINE_IF (vp == 0 || sc == 0 || (vp & (vp - 1)) || (sc & (sc - 1)));
  }

  /* Stages: valid graphics stage bits, each once, a vertex stage, no
   * tessellation. Encoded in stage-bit order by walking the bit set. */
  const uint32_t stage_count = ci->stageCount;
  DECLINE_IF (stage_count - 1u >= PSC_MAX_GRAPHICS_STAGES || ci->pStages == NULL);
  uint8_t index_of[PSC_STAGE_COUNT];
  uint32_t seen = 0;
  for (uint32_t i = 0; i < stage_count; i++)
    {
      uint8_t stage;
      DECLINE_IF (!psc_enum_stage (ci->pStages[i].stage, &stage) || stage == PSC_STAGE_COMPUTE
                  || ((seen >> stage) & 1));
      seen |= 1u << stage;
      index_of[stage] = (uint8_t) i;
    }
  DECLINE_IF (!(seen & (1u << PSC_STAGE_VERTEX))
              || (seen & ((1u << PSC_STAGE_TESS_CONTROL) | (1u << PSC_STAGE_TESS_EVAL))));

  /* The state record, written in place: zeroed, then field by field. */
  uint8_t *const sp = o;
  zero_state_record (sp);
  o += sizeof (PscKeyGraphicsState);
  DECLINE_IF (!fast_raster_assembly (ci, dyn, seen, sp, &o, &present)
              || !fast_samples_blend (ci, dyn, df, sf, color_count, sp, &o, &present));
  /* The header, in place, written before the vertex input and stage records
   * so its stores have drained by the time the hash reads the key. */
#define HD(field, value)                                                         \
  do {                                                                           \
    const __typeof__ (((PscKeyGraphics *) 0)->field) v_ = (value);               \
    memcpy (base + offsetof (PscKeyGraphics, field), &v_, sizeof v_);           \
  } while (0)
  HD (tag, PSC_TAG_GRAPHICS);
  HD (flags, ci->flags);
  HD (dynamic_lo, (uint32_t) dyn);
  HD (dynamic_hi, (uint32_t) (dyn >> 32));
  HD (layout_id, layout_id);
  HD (depth_format, (uint16_t) df);
  HD (stencil_format, (uint16_t) sf);
  HD (stage_count, (uint8_t) stage_count);
  HD (present, present);
  HD (color_count, (uint8_t) color_count);
#undef HD
  o = fast_vertex_input (ci->pVertexInputState, (dyn & DYN (VERTEX_INPUT_BINDING_STRIDE)) != 0, o);
  DECLINE_IF (o == NULL);

  for (uint32_t m = seen; m != 0; m &= m - 1)
    {
      const uint32_t stage = (uint32_t) __builtin_ctz (m);
      o = fast_stage (&ci->pStages[index_of[stage]], (uint8_t) stage, r, o);
      DECLINE_IF (o == NULL);
    }

  w->len = (size_t) (o - w->data);
  return PSC_STATUS_OK;
}
