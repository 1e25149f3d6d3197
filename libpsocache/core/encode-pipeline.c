/* encode-pipeline.c: canonical keys for graphics and compute pipelines.
 *
 * The graphics encoder runs on every cache hit, so its success path does no
 * heap allocation, no formatting, no qsort (small insertion sorts) and no
 * large memset; every failure goes through the cold helpers in encode.c.
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
 *    shading, the logic op without logic op enable, and all viewport,
 *    multisample, depth/stencil and blend state when rasterization is
 *    statically discarded. A dynamic topology keeps its topology class.
 *  - viewport and scissor counts (their contents are never read);
 *  - stages sorted by stage bit: shader id + generation, flags, entry-point
 *    name, specialization canonicalized by constant ID;
 *  - vertex bindings sorted by binding, attributes sorted by location.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "keys.h"

#include <stdio.h>

#define DYN(name) PSC_DYN_BIT (name)

/* ---------------------------------------------------------------------------
 * Stages (shared by graphics and compute).
 */

/* "pStages[i]" for graphics, "stage" for compute; failure path only. */
static PSC_COLD const char *
stage_prefix (char *buf, size_t size, bool compute, uint32_t index)
{
  if (compute)
    snprintf (buf, size, "stage");
  else
    snprintf (buf, size, "pStages[%u]", index);
  return buf;
}

static PSC_COLD PscStatus
stage_fail (PscCoreError *err, PscStatus status, bool compute, uint32_t index,
            const char *member, const char *detail)
{
  char pre[32];
  return psc_fail_at (err, status, detail, "%s.%s",
                      stage_prefix (pre, sizeof pre, compute, index), member);
}

static PSC_COLD PscStatus
stage_fail_spec (PscCoreError *err, PscStatus status, bool compute, uint32_t index,
                 const char *member, uint32_t entry, const char *detail)
{
  char pre[32];
  stage_prefix (pre, sizeof pre, compute, index);
  if (entry == UINT32_MAX)
    return psc_fail_at (err, status, detail, "%s.pSpecializationInfo->%s", pre, member);
  return psc_fail_at (err, status, detail, "%s.pSpecializationInfo->pMapEntries[%u]%s",
                      pre, entry, member);
}

/* The first failure of a stage's header, in check order (cold: only called
 * once the hot path saw that one of these checks fails). */
static PSC_COLD PscStatus
stage_header_fail (const VkPipelineShaderStageCreateInfo *s, bool compute, uint32_t index,
                   PscCoreError *err)
{
  char pre[32];
  stage_prefix (pre, sizeof pre, compute, index);
  if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)
    return stage_fail (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "sType",
                       "not VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO");
  if (s->pNext != NULL)
    return psc_fail_stype (err, ((const VkBaseInStructure *) s->pNext)->sType, "%s.pNext[0].sType",
                           pre);
  if (s->flags & ~(VkPipelineShaderStageCreateFlags) PSC_STAGE_CREATE_FLAGS)
    return psc_fail_flags (err, s->flags, "%s.flags", pre);
  return stage_fail (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "module",
                     "VK_NULL_HANDLE (register the SPIR-V with the cache)");
}

/* The first failure among a stage's map entries, in index order (cold). */
static PSC_COLD PscStatus
spec_entry_fail (const VkSpecializationInfo *si, bool compute, uint32_t index, PscCoreError *err)
{
  char pre[32], detail[96];
  stage_prefix (pre, sizeof pre, compute, index);
  for (uint32_t j = 0; j < si->mapEntryCount; j++)
    {
      const VkSpecializationMapEntry *e = &si->pMapEntries[j];
      if (e->size > PSC_MAX_SPEC_VALUE_BYTES)
        return psc_fail_capacity (err, e->size, PSC_MAX_SPEC_VALUE_BYTES,
                                  "%s.pSpecializationInfo->pMapEntries[%u].size", pre, j);
      if (e->offset > si->dataSize || e->size > si->dataSize - e->offset)
        {
          snprintf (detail, sizeof detail, "offset %u + size %zu > dataSize %zu",
                    e->offset, e->size, si->dataSize);
          return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "", j, detail);
        }
    }
  return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: no failing map entry");
}

/* Copies n <= 64 bytes with a few overlapping loads and stores (the
 * entry-point names and specialization values of a key are short). */
static inline void
copy_small (uint8_t *restrict dst, const uint8_t *restrict src, size_t n)
{
  if (n >= 8)
    {
      size_t i = 0;
      for (; i + 8 < n; i += 8)
        memcpy (dst + i, src + i, 8);
      uint64_t last;
      memcpy (&last, src + n - 8, 8);
      memcpy (dst + n - 8, &last, 8);
    }
  else if (n >= 4)
    {
      uint32_t first, last;
      memcpy (&first, src, 4);
      memcpy (&last, src + n - 4, 4);
      memcpy (dst, &first, 4);
      memcpy (dst + n - 4, &last, 4);
    }
  else if (n > 0)
    {
      dst[0] = src[0];
      dst[n / 2] = src[n / 2];
      dst[n - 1] = src[n - 1];
    }
}

static PscStatus
encode_stage (const VkPipelineShaderStageCreateInfo *s, uint8_t stage, bool compute,
              uint32_t index, const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  char pre[32], detail[96];

  if (PSC_UNLIKELY (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
                    || s->pNext != NULL
                    || (s->flags & ~(VkPipelineShaderStageCreateFlags) PSC_STAGE_CREATE_FLAGS)
                    || s->module == VK_NULL_HANDLE))
    return stage_header_fail (s, compute, index, err);

  PscKeyStage k;
  PscShaderInfo info;
  if (PSC_UNLIKELY (!r->shader (r->ctx, s->module, &info)))
    return psc_fail_foreign (err, "%s.module", stage_prefix (pre, sizeof pre, compute, index));
  k.shader_id = info.id;
  k.generation = info.generation;
  const char *name = s->pName;
  if (PSC_UNLIKELY (name == NULL))
    return stage_fail (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "pName", "NULL");
  /* Entry-point names are short: a plain loop beats a library call. */
  size_t name_len = 0;
  while (name_len <= PSC_MAX_ENTRY_NAME && name[name_len] != '\0')
    name_len++;
  if (PSC_UNLIKELY (name_len > PSC_MAX_ENTRY_NAME))
    return psc_fail_capacity (err, strlen (name), PSC_MAX_ENTRY_NAME, "%s.pName",
                              stage_prefix (pre, sizeof pre, compute, index));

  /* Map entries sorted by constant ID: each is (constantID << 8 | index),
   * insertion-sorted as it is read (a stable order: equal IDs keep their
   * index order, so a duplicate is reported at its later index). */
  const VkSpecializationInfo *si = s->pSpecializationInfo;
  const uint32_t n = si ? si->mapEntryCount : 0;
  uint64_t sorted[PSC_MAX_SPEC_CONSTANTS];
  size_t value_bytes = 0;
  if (n)
    {
      if (PSC_UNLIKELY (n > PSC_MAX_SPEC_CONSTANTS))
        return psc_fail_capacity (err, n, PSC_MAX_SPEC_CONSTANTS,
                                  "%s.pSpecializationInfo->mapEntryCount",
                                  stage_prefix (pre, sizeof pre, compute, index));
      const VkSpecializationMapEntry *map = si->pMapEntries;
      if (PSC_UNLIKELY (map == NULL))
        return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "pMapEntries",
                                UINT32_MAX, "NULL with mapEntryCount > 0");
      const size_t data_size = si->dataSize;
      for (uint32_t j = 0; j < n; j++)
        {
          const size_t size = map[j].size;
          if (PSC_UNLIKELY (size > PSC_MAX_SPEC_VALUE_BYTES
                            || (uint64_t) map[j].offset + size > data_size))
            return spec_entry_fail (si, compute, index, err);
          value_bytes += size;
          const uint64_t v = (uint64_t) map[j].constantID << 8 | j;
          uint32_t i = j;
          while (i > 0 && sorted[i - 1] > v)
            {
              sorted[i] = sorted[i - 1];
              i--;
            }
          sorted[i] = v;
        }
      if (PSC_UNLIKELY (value_bytes > 0 && si->pData == NULL))
        return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "pData",
                                UINT32_MAX, "NULL with non-empty map entries");
      for (uint32_t j = 1; j < n; j++)
        if (PSC_UNLIKELY ((sorted[j] >> 8) == (sorted[j - 1] >> 8)))
          {
            snprintf (detail, sizeof detail, "constant ID %u appears twice",
                      (unsigned) (sorted[j] >> 8));
            return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index,
                                    ".constantID", (uint32_t) (sorted[j] & 0xff), detail);
          }
    }

  k.stage = stage;
  k.flags = (uint8_t) s->flags;
  k.name_len = (uint8_t) name_len;
  k.spec_count = (uint8_t) n;

  const size_t total = sizeof k + name_len + n * sizeof (PscKeySpecEntry) + value_bytes;
  uint8_t *p = psc_kw_reserve (w, total);
  if (PSC_UNLIKELY (p == NULL))
    return psc_fail_key_full (err, w);
  memcpy (p, &k, sizeof k);
  p += sizeof k;
  copy_small (p, (const uint8_t *) name, name_len);
  p += name_len;
  uint8_t *values = p + n * sizeof (PscKeySpecEntry);
  for (uint32_t j = 0; j < n; j++)
    {
      const VkSpecializationMapEntry *e = &si->pMapEntries[sorted[j] & 0xff];
      PscKeySpecEntry ke = { .constant_id = e->constantID, .size = (uint32_t) e->size };
      memcpy (p, &ke, sizeof ke);
      p += sizeof ke;
      const uint8_t *src = (const uint8_t *) si->pData + e->offset;
      if (e->size == 4)          /* the common case: a 32-bit constant */
        memcpy (values, src, 4);
      else
        copy_small (values, src, e->size);
      values += e->size;
    }
  return PSC_STATUS_OK;
}

/* Reads one stage written by encode_stage into caller storage. */
static bool
decode_stage (PscKeyReader *rd, const PscResolver *r, VkPipelineShaderStageCreateInfo *out,
              VkSpecializationInfo *spec, VkSpecializationMapEntry *map, uint8_t *spec_data,
              char *name, uint8_t *stage_out)
{
  PscKeyStage k;
  if (!psc_kr_get (rd, &k, sizeof k) || k.stage >= PSC_STAGE_COUNT
      || k.name_len > PSC_MAX_ENTRY_NAME || k.spec_count > PSC_MAX_SPEC_CONSTANTS
      || r == NULL || r->shader_handle == NULL)
    return false;
  if (!psc_kr_get (rd, name, k.name_len))
    return false;
  name[k.name_len] = '\0';

  size_t offset = 0;
  for (uint32_t j = 0; j < k.spec_count; j++)
    {
      PscKeySpecEntry e;
      if (!psc_kr_get (rd, &e, sizeof e) || e.size > PSC_MAX_SPEC_VALUE_BYTES)
        return false;
      map[j].constantID = e.constant_id;
      map[j].offset = (uint32_t) offset;
      map[j].size = e.size;
      offset += e.size;
    }
  if (!psc_kr_get (rd, spec_data, offset))
    return false;

  out->sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  out->flags = k.flags;
  out->stage = psc_enum_stage_to_vk (k.stage);
  out->module = r->shader_handle (r->ctx, k.shader_id);
  if (out->module == VK_NULL_HANDLE)
    return false;
  out->pName = name;
  if (k.spec_count)
    {
      spec->mapEntryCount = k.spec_count;
      spec->pMapEntries = map;
      spec->dataSize = offset;
      spec->pData = spec_data;
      out->pSpecializationInfo = spec;
    }
  *stage_out = k.stage;
  return true;
}

/* ---------------------------------------------------------------------------
 * Graphics.
 */

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

/* The complete graphics encoder: every supported input, and the reference
 * for every error (the fast path below hands it whatever it declines). */
PscStatus __attribute__((noinline))
psc_encode_graphics_full (const VkGraphicsPipelineCreateInfo *ci, PscRenderingMode mode,
                      const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  char p[128];

  REQUIRE (ci, "pCreateInfo");
  if (PSC_UNLIKELY (ci->sType != VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "not VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO", "sType");
  if (PSC_UNLIKELY (r == NULL || r->shader == NULL || r->pipeline_layout == NULL))
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "no resolver");

  PscKeyGraphics h;
  h.tag = PSC_TAG_GRAPHICS;
  h.depth_format = 0;
  h.stencil_format = 0;
  h.present = 0;
  h.color_count = 0;
  /* Optional records (keys.h): written when their bit is set in present. */
  PscKeyLegacyPass pass = { 0, 0 };
  uint32_t view_mask = 0;
  PscKeyTessellation tess_rec = { 0 };
  PscKeySampleState sample = { { 0, 0 }, 0 };

  /* --- pNext ------------------------------------------------------------ */
  const VkPipelineRenderingCreateInfo *ri = NULL;
  uint32_t ri_index = 0;
  {
    uint32_t i = 0;
    for (const VkBaseInStructure *n = ci->pNext; n != NULL; n = n->pNext, i++)
      {
        if (n->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)
          {
            if (PSC_UNLIKELY (mode != PSC_RENDERING_DYNAMIC))
              return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                  "VkPipelineRenderingCreateInfo is not allowed on the legacy "
                                  "rendering backend (name a compatibility renderPass)",
                                  "pNext[%u].sType", i);
            if (PSC_UNLIKELY (ri != NULL))
              return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                  "structure appears twice in the chain", "pNext[%u].sType", i);
            ri = (const VkPipelineRenderingCreateInfo *) n;
            ri_index = i;
          }
        else
          return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
      }
  }

  /* --- flags, derivatives, layout --------------------------------------- */
  if (PSC_UNLIKELY (ci->flags & ~(VkPipelineCreateFlags) PSC_GRAPHICS_CREATE_FLAGS))
    return psc_fail_flags (err, ci->flags, "flags");
  h.flags = ci->flags;
  if (PSC_UNLIKELY (ci->basePipelineHandle != VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "must be VK_NULL_HANDLE (derivative pipelines are not supported)",
                        "basePipelineHandle");
  if (PSC_UNLIKELY (ci->layout == VK_NULL_HANDLE))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_NULL_HANDLE", "layout");
  if (PSC_UNLIKELY (!r->pipeline_layout (r->ctx, ci->layout, &h.layout_id)))
    return psc_fail_foreign (err, "layout");

  /* --- rendering description -------------------------------------------- */
  uint16_t colors[PSC_MAX_COLOR_ATTACHMENTS];
  uint32_t color_count = 0;
  uint32_t pass_samples = 0;
  if (mode == PSC_RENDERING_DYNAMIC)
    {
      if (PSC_UNLIKELY (ci->renderPass != VK_NULL_HANDLE))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "must be VK_NULL_HANDLE on the dynamic rendering backend", "renderPass");
      if (PSC_UNLIKELY (ri == NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VkPipelineRenderingCreateInfo is required on the dynamic rendering "
                            "backend", "pNext");
      view_mask = ri->viewMask;
      if (view_mask != 0)
        h.present |= PSC_GFX_HAS_VIEW_MASK;
      color_count = ri->colorAttachmentCount;
      if (PSC_UNLIKELY (color_count > PSC_MAX_COLOR_ATTACHMENTS))
        return psc_fail_capacity (err, color_count, PSC_MAX_COLOR_ATTACHMENTS,
                                  "pNext[%u].colorAttachmentCount", ri_index);
      if (PSC_UNLIKELY (color_count && ri->pColorAttachmentFormats == NULL))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with colorAttachmentCount > 0",
                            "pNext[%u].pColorAttachmentFormats", ri_index);
      for (uint32_t j = 0; j < color_count; j++)
        ENUM (format, ri->pColorAttachmentFormats[j], colors[j],
              "pNext[%u].pColorAttachmentFormats[%u]", ri_index, j);
      h.color_count = (uint8_t) color_count;
      if (ri->depthAttachmentFormat != VK_FORMAT_UNDEFINED)
        {
          ENUM (format, ri->depthAttachmentFormat, h.depth_format,
                "pNext[%u].depthAttachmentFormat", ri_index);
          if (PSC_UNLIKELY (!psc_format_has_depth (ri->depthAttachmentFormat)))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "not a depth format",
                                "pNext[%u].depthAttachmentFormat", ri_index);
        }
      if (ri->stencilAttachmentFormat != VK_FORMAT_UNDEFINED)
        {
          ENUM (format, ri->stencilAttachmentFormat, h.stencil_format,
                "pNext[%u].stencilAttachmentFormat", ri_index);
          if (PSC_UNLIKELY (!psc_format_has_stencil (ri->stencilAttachmentFormat)))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "not a stencil format",
                                "pNext[%u].stencilAttachmentFormat", ri_index);
        }
      if (PSC_UNLIKELY (h.depth_format && h.stencil_format && h.depth_format != h.stencil_format))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "must equal depthAttachmentFormat when both are set",
                            "pNext[%u].stencilAttachmentFormat", ri_index);
    }
  else if (mode == PSC_RENDERING_LEGACY)
    {
      if (PSC_UNLIKELY (ci->renderPass == VK_NULL_HANDLE))
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "VK_NULL_HANDLE (the legacy rendering backend needs a compatibility "
                            "render pass from the cache)", "renderPass");
      uint32_t subpass_count = 0;
      if (PSC_UNLIKELY (r->render_pass == NULL
                        || !r->render_pass (r->ctx, ci->renderPass, ci->subpass, &pass.render_pass_id,
                                            &subpass_count, &pass_samples)))
        return psc_fail_foreign (err, "renderPass");
      if (PSC_UNLIKELY (ci->subpass >= subpass_count))
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "subpass",
                                 "%u >= the render pass's subpass count %u",
                                 ci->subpass, subpass_count);
      pass.subpass = ci->subpass;
      h.present |= PSC_GFX_LEGACY_PASS;
    }
  else
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "", "unknown rendering mode %d",
                             (int) mode);

  /* --- dynamic states ---------------------------------------------------- */
  uint64_t dyn = 0;
  if (ci->pDynamicState != NULL)
    {
      const VkPipelineDynamicStateCreateInfo *ds = ci->pDynamicState;
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
  h.dynamic_lo = (uint32_t) dyn;
  h.dynamic_hi = (uint32_t) (dyn >> 32);

  /* --- stages: validate the stage bits, sort ------------------------------ */
  const uint32_t stage_count = ci->stageCount;
  if (PSC_UNLIKELY (stage_count == 0))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "0", "stageCount");
  if (PSC_UNLIKELY (stage_count > PSC_MAX_GRAPHICS_STAGES))
    return psc_fail_capacity (err, stage_count, PSC_MAX_GRAPHICS_STAGES, "stageCount");
  REQUIRE (ci->pStages, "pStages");
  uint32_t stage_keys[PSC_MAX_GRAPHICS_STAGES];
  uint8_t stage_order[PSC_MAX_GRAPHICS_STAGES];
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
      stage_keys[i] = st;
      stage_order[i] = (uint8_t) i;
    }
  if (PSC_UNLIKELY (!(seen & (1u << PSC_STAGE_VERTEX))))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "a VK_SHADER_STAGE_VERTEX_BIT stage is required", "pStages");
  const uint32_t tess_bits = (1u << PSC_STAGE_TESS_CONTROL) | (1u << PSC_STAGE_TESS_EVAL);
  const bool tess = (seen & tess_bits) != 0;
  if (PSC_UNLIKELY (tess && (seen & tess_bits) != tess_bits))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "tessellation control and evaluation stages must be used together",
                        "pStages");
  psc_sort_indices (stage_order, stage_keys, stage_count);
  h.stage_count = (uint8_t) stage_count;

  PscKeyGraphicsState st;
  memset (&st, 0, sizeof st);
  PscKeyDepthBias bias = { 0, 0, 0 };

  /* --- rasterization ----------------------------------------------------- */
  const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
  REQUIRE (rs, "pRasterizationState");
  CHECK_STYPE (rs, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, "pRasterizationState");
  PSC_CHECK_NO_PNEXT (err, rs->pNext, "pRasterizationState->");
  CHECK_FLAGS_ZERO (rs, "pRasterizationState");
  st.depth_clamp = rs->depthClampEnable != VK_FALSE;
  st.rasterizer_discard = !(dyn & DYN (RASTERIZER_DISCARD_ENABLE)) && rs->rasterizerDiscardEnable;
  ENUM (polygon_mode, rs->polygonMode, st.polygon_mode, "pRasterizationState->polygonMode");
  if (!(dyn & DYN (CULL_MODE)))
    ENUM (cull_mode, rs->cullMode, st.cull_mode, "pRasterizationState->cullMode");
  if (!(dyn & DYN (FRONT_FACE)))
    ENUM (front_face, rs->frontFace, st.front_face, "pRasterizationState->frontFace");
  st.depth_bias_enable = !(dyn & DYN (DEPTH_BIAS_ENABLE)) && rs->depthBiasEnable;
  if ((st.depth_bias_enable || (dyn & DYN (DEPTH_BIAS_ENABLE))) && !(dyn & DYN (DEPTH_BIAS)))
    {
      FLOAT (rs->depthBiasConstantFactor, bias.constant,
             "pRasterizationState->depthBiasConstantFactor");
      FLOAT (rs->depthBiasClamp, bias.clamp, "pRasterizationState->depthBiasClamp");
      FLOAT (rs->depthBiasSlopeFactor, bias.slope,
             "pRasterizationState->depthBiasSlopeFactor");
      if (bias.constant | bias.clamp | bias.slope)
        h.present |= PSC_GFX_HAS_DEPTH_BIAS;
    }
  if (!(dyn & DYN (LINE_WIDTH)))
    FLOAT (rs->lineWidth, st.line_width, "pRasterizationState->lineWidth");
  const bool discard = st.rasterizer_discard;

  /* --- input assembly ---------------------------------------------------- */
  const VkPipelineInputAssemblyStateCreateInfo *ia = ci->pInputAssemblyState;
  REQUIRE (ia, "pInputAssemblyState");
  CHECK_STYPE (ia, VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, "pInputAssemblyState");
  PSC_CHECK_NO_PNEXT (err, ia->pNext, "pInputAssemblyState->");
  CHECK_FLAGS_ZERO (ia, "pInputAssemblyState");
  ENUM (topology, ia->topology, st.topology, "pInputAssemblyState->topology");
  if (dyn & DYN (PRIMITIVE_TOPOLOGY))
    st.topology = psc_topology_class (st.topology);
  st.primitive_restart = !(dyn & DYN (PRIMITIVE_RESTART_ENABLE)) && ia->primitiveRestartEnable;

  /* --- tessellation ------------------------------------------------------ */
  if (tess)
    {
      const VkPipelineTessellationStateCreateInfo *ts = ci->pTessellationState;
      REQUIRE (ts, "pTessellationState");
      CHECK_STYPE (ts, VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, "pTessellationState");
      PSC_CHECK_NO_PNEXT (err, ts->pNext, "pTessellationState->");
      CHECK_FLAGS_ZERO (ts, "pTessellationState");
      tess_rec.patch_control_points = ts->patchControlPoints;
      h.present |= PSC_GFX_HAS_TESSELLATION;
    }

  PscKeyDepthStencil dsk;
  PscKeyColorBlend cbk;
  PscKeyBlendAttachment blend[PSC_MAX_COLOR_ATTACHMENTS];

  if (!discard)
    {
      /* --- viewport (counts only) ---------------------------------------- */
      const VkPipelineViewportStateCreateInfo *vp = ci->pViewportState;
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
          st.viewport_count = (uint8_t) vp->viewportCount;
        }
      if (!(dyn & DYN (SCISSOR_WITH_COUNT)))
        {
          if (PSC_UNLIKELY (vp->scissorCount == 0))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                "0 (at least one scissor is required)", "pViewportState->scissorCount");
          if (PSC_UNLIKELY (vp->scissorCount > PSC_MAX_VIEWPORTS))
            return psc_fail_capacity (err, vp->scissorCount, PSC_MAX_VIEWPORTS,
                                      "pViewportState->scissorCount");
          st.scissor_count = (uint8_t) vp->scissorCount;
        }
      h.present |= PSC_GFX_HAS_VIEWPORT;

      /* --- multisample --------------------------------------------------- */
      const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
      REQUIRE (ms, "pMultisampleState");
      CHECK_STYPE (ms, VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, "pMultisampleState");
      PSC_CHECK_NO_PNEXT (err, ms->pNext, "pMultisampleState->");
      CHECK_FLAGS_ZERO (ms, "pMultisampleState");
      ENUM (samples, ms->rasterizationSamples, st.samples, "pMultisampleState->rasterizationSamples");
      if (PSC_UNLIKELY (pass_samples != 0 && pass_samples != st.samples))
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 "pMultisampleState->rasterizationSamples",
                                 "%u, but subpass %u of renderPass uses %u samples",
                                 st.samples, ci->subpass, pass_samples);
      st.sample_shading = ms->sampleShadingEnable != VK_FALSE;
      if (st.sample_shading)
        {
          FLOAT (ms->minSampleShading, sample.min_sample_shading,
                 "pMultisampleState->minSampleShading");
          if (PSC_UNLIKELY (!(ms->minSampleShading >= 0.0f && ms->minSampleShading <= 1.0f)))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "outside [0, 1]",
                                "pMultisampleState->minSampleShading");
        }
      const uint64_t full = st.samples == 64 ? UINT64_MAX : (UINT64_C (1) << st.samples) - 1;
      uint64_t mask = full;
      if (ms->pSampleMask != NULL)
        {
          mask = ms->pSampleMask[0];
          if (st.samples > 32)
            mask |= (uint64_t) ms->pSampleMask[1] << 32;
          mask &= full;
        }
      sample.sample_mask[0] = (uint32_t) mask;
      sample.sample_mask[1] = (uint32_t) (mask >> 32);
      if (st.sample_shading || mask != full)
        h.present |= PSC_GFX_HAS_SAMPLE_STATE;
      st.alpha_to_coverage = ms->alphaToCoverageEnable != VK_FALSE;
      st.alpha_to_one = ms->alphaToOneEnable != VK_FALSE;
      h.present |= PSC_GFX_HAS_MULTISAMPLE;

      /* --- depth/stencil ------------------------------------------------- */
      const VkPipelineDepthStencilStateCreateInfo *dss = ci->pDepthStencilState;
      bool want_ds;
      if (mode == PSC_RENDERING_DYNAMIC)
        {
          want_ds = h.depth_format != 0 || h.stencil_format != 0;
          if (PSC_UNLIKELY (want_ds && dss == NULL))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                "NULL, but the rendering has a depth/stencil format",
                                "pDepthStencilState");
        }
      else
        want_ds = dss != NULL;
      if (want_ds)
        {
          CHECK_STYPE (dss, VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                       "pDepthStencilState");
          PSC_CHECK_NO_PNEXT (err, dss->pNext, "pDepthStencilState->");
          CHECK_FLAGS_ZERO (dss, "pDepthStencilState");
          memset (&dsk, 0, sizeof dsk);

          st.depth_test = !(dyn & DYN (DEPTH_TEST_ENABLE)) && dss->depthTestEnable;
          const bool depth_active = st.depth_test || (dyn & DYN (DEPTH_TEST_ENABLE));
          st.depth_write = depth_active && !(dyn & DYN (DEPTH_WRITE_ENABLE)) && dss->depthWriteEnable;
          if (depth_active && !(dyn & DYN (DEPTH_COMPARE_OP)))
            ENUM (compare_op, dss->depthCompareOp, st.depth_compare,
                  "pDepthStencilState->depthCompareOp");

          st.depth_bounds_test = !(dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)) && dss->depthBoundsTestEnable;
          if ((st.depth_bounds_test || (dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)))
              && !(dyn & DYN (DEPTH_BOUNDS)))
            {
              FLOAT (dss->minDepthBounds, dsk.min_depth_bounds, "pDepthStencilState->minDepthBounds");
              FLOAT (dss->maxDepthBounds, dsk.max_depth_bounds, "pDepthStencilState->maxDepthBounds");
              h.present |= PSC_GFX_HAS_STENCIL_BOUNDS;
            }

          st.stencil_test = !(dyn & DYN (STENCIL_TEST_ENABLE)) && dss->stencilTestEnable;
          if (st.stencil_test || (dyn & DYN (STENCIL_TEST_ENABLE)))
            {
              PscStatus s1 = encode_stencil (&dss->front, dyn, "front", &dsk.front_fail, &dsk.front_pass,
                                             &dsk.front_depth_fail, &dsk.front_compare,
                                             &dsk.front_compare_mask, &dsk.front_write_mask,
                                             &dsk.front_reference, err);
              if (PSC_UNLIKELY (s1 != PSC_STATUS_OK))
                return s1;
              s1 = encode_stencil (&dss->back, dyn, "back", &dsk.back_fail, &dsk.back_pass,
                                   &dsk.back_depth_fail, &dsk.back_compare,
                                   &dsk.back_compare_mask, &dsk.back_write_mask,
                                   &dsk.back_reference, err);
              if (PSC_UNLIKELY (s1 != PSC_STATUS_OK))
                return s1;
              h.present |= PSC_GFX_HAS_STENCIL_BOUNDS;
            }
          h.present |= PSC_GFX_HAS_DEPTH_STENCIL;
        }

      /* --- colour blend -------------------------------------------------- */
      const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
      bool want_cb;
      if (mode == PSC_RENDERING_DYNAMIC)
        {
          want_cb = color_count > 0;
          if (PSC_UNLIKELY (want_cb && cb == NULL))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                "NULL, but the rendering has colour attachments", "pColorBlendState");
          if (PSC_UNLIKELY (want_cb && cb->attachmentCount != color_count))
            return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                     "pColorBlendState->attachmentCount",
                                     "%u, but colorAttachmentCount is %u",
                                     cb->attachmentCount, color_count);
        }
      else
        {
          want_cb = cb != NULL;
          uint32_t pass_colors = 0;
          if (r->render_pass_colors != NULL
              && r->render_pass_colors (r->ctx, ci->renderPass, ci->subpass, &pass_colors))
            {
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
            }
        }
      if (want_cb)
        {
          CHECK_STYPE (cb, VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, "pColorBlendState");
          PSC_CHECK_NO_PNEXT (err, cb->pNext, "pColorBlendState->");
          CHECK_FLAGS_ZERO (cb, "pColorBlendState");
          st.logic_op_enable = cb->logicOpEnable != VK_FALSE;
          if (st.logic_op_enable)
            ENUM (logic_op, cb->logicOp, st.logic_op, "pColorBlendState->logicOp");
          const uint32_t na = cb->attachmentCount;
          if (PSC_UNLIKELY (na > PSC_MAX_COLOR_ATTACHMENTS))
            return psc_fail_capacity (err, na, PSC_MAX_COLOR_ATTACHMENTS,
                                      "pColorBlendState->attachmentCount");
          if (PSC_UNLIKELY (na && cb->pAttachments == NULL))
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with attachmentCount > 0",
                                "pColorBlendState->pAttachments");
          bool uses_constants = false;
          for (uint32_t j = 0; j < na; j++)
            {
              const VkPipelineColorBlendAttachmentState *a = &cb->pAttachments[j];
              PscKeyBlendAttachment *k = &blend[j];
              memset (k, 0, sizeof *k);
              ENUM (color_components, a->colorWriteMask, k->write_mask,
                    "pColorBlendState->pAttachments[%u].colorWriteMask", j);
              if (a->blendEnable)
                {
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
                  uses_constants |= psc_blend_factor_uses_constants (k->src_color)
                                    | psc_blend_factor_uses_constants (k->dst_color)
                                    | psc_blend_factor_uses_constants (k->src_alpha)
                                    | psc_blend_factor_uses_constants (k->dst_alpha);
                }
            }
          st.blend_count = (uint8_t) na;
          memset (&cbk, 0, sizeof cbk);
          if (uses_constants && !(dyn & DYN (BLEND_CONSTANTS)))
            {
              for (uint32_t j = 0; j < 4; j++)
                FLOAT (cb->blendConstants[j], cbk.blend_constants[j],
                       "pColorBlendState->blendConstants[%u]", j);
              h.present |= PSC_GFX_HAS_BLEND_CONSTANTS;
            }
          h.present |= PSC_GFX_HAS_COLOR_BLEND;
        }
    }

  /* --- vertex input (validated before anything is written) --------------- */
  const VkPipelineVertexInputStateCreateInfo *vi = ci->pVertexInputState;
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
  st.binding_count = (uint8_t) nb;
  st.attribute_count = (uint8_t) na;

  /* --- write the fixed part ---------------------------------------------- */
  {
    const size_t fixed = sizeof h + color_count * sizeof (uint16_t) + sizeof st
                         + ((h.present & PSC_GFX_LEGACY_PASS) ? sizeof pass : 0)
                         + ((h.present & PSC_GFX_HAS_VIEW_MASK) ? sizeof view_mask : 0)
                         + ((h.present & PSC_GFX_HAS_TESSELLATION) ? sizeof tess_rec : 0)
                         + ((h.present & PSC_GFX_HAS_SAMPLE_STATE) ? sizeof sample : 0)
                         + ((h.present & PSC_GFX_HAS_DEPTH_BIAS) ? sizeof bias : 0)
                         + ((h.present & PSC_GFX_HAS_STENCIL_BOUNDS) ? sizeof dsk : 0)
                         + ((h.present & PSC_GFX_HAS_BLEND_CONSTANTS) ? sizeof cbk : 0)
                         + ((h.present & PSC_GFX_HAS_COLOR_BLEND)
                            ? st.blend_count * sizeof (PscKeyBlendAttachment) : 0);
    uint8_t *o = psc_kw_reserve (w, fixed);
    if (PSC_UNLIKELY (o == NULL))
      return psc_fail_key_full (err, w);
#define PUT_IF(bit, record)                                                      \
  do {                                                                           \
    if (h.present & (bit))                                                       \
      {                                                                          \
        memcpy (o, &(record), sizeof (record));                                  \
        o += sizeof (record);                                                    \
      }                                                                          \
  } while (0)
    memcpy (o, &h, sizeof h);
    o += sizeof h;
    PUT_IF (PSC_GFX_LEGACY_PASS, pass);
    PUT_IF (PSC_GFX_HAS_VIEW_MASK, view_mask);
    memcpy (o, colors, color_count * sizeof (uint16_t));
    o += color_count * sizeof (uint16_t);
    memcpy (o, &st, sizeof st);
    o += sizeof st;
    PUT_IF (PSC_GFX_HAS_TESSELLATION, tess_rec);
    PUT_IF (PSC_GFX_HAS_DEPTH_BIAS, bias);
    PUT_IF (PSC_GFX_HAS_SAMPLE_STATE, sample);
    PUT_IF (PSC_GFX_HAS_STENCIL_BOUNDS, dsk);
    PUT_IF (PSC_GFX_HAS_BLEND_CONSTANTS, cbk);
#undef PUT_IF
    if (h.present & PSC_GFX_HAS_COLOR_BLEND)
      memcpy (o, blend, st.blend_count * sizeof (PscKeyBlendAttachment));
  }

  /* --- vertex bindings (sorted by binding) ------------------------------- */
  if (nb)
    {
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
            .stride = (dyn & DYN (VERTEX_INPUT_BINDING_STRIDE)) ? 0 : d->stride,
            .input_rate = rate,
          };
          memcpy (o, &k, sizeof k);
          o += sizeof k;
        }
    }

  /* --- vertex attributes (sorted by location) ---------------------------- */
  if (na)
    {
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
    }

  /* --- stages (sorted by stage bit) -------------------------------------- */
  for (uint32_t j = 0; j < stage_count; j++)
    {
      const uint32_t si = stage_order[j];
      PscStatus s = encode_stage (&ci->pStages[si], (uint8_t) stage_keys[si], false, si, r, w, err);
      if (PSC_UNLIKELY (s != PSC_STATUS_OK))
        return s;
    }
  return PSC_STATUS_OK;
}

/* ---------------------------------------------------------------------------
 * The graphics fast path.
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
 */

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

/* Zeroes the fast path's 44-byte state record in place with 16-, 8- and
 * 4-byte stores: a memset of that size compiles to a `rep stos` with GCC's
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

/* Shader and pipeline-layout lookups for the fast path, through the
 * resolver's memo when it has one (psc-core.h). */
/* Fibonacci hashing: the top bits of handle * 2^64/phi, so handles that
 * differ anywhere (pointers, small integers) spread over the slots. */
static inline uint32_t
memo_index (uint64_t handle)
{
  return (uint32_t) ((handle * UINT64_C (0x9e3779b97f4a7c15)) >> 60)
         & (PSC_RESOLVER_MEMO_SLOTS - 1);
}

static inline PscResolverMemoSlot *
memo_find (PscResolverMemoSlot *slots, uint64_t handle, uint32_t epoch)
{
  PscResolverMemoSlot *s = &slots[memo_index (handle)];
  return s->handle == handle && s->epoch == epoch ? s : NULL;
}

static inline void
memo_store (PscResolverMemoSlot *slots, uint64_t handle, uint32_t epoch,
            const PscShaderInfo *info)
{
  PscResolverMemoSlot *s = &slots[memo_index (handle)];
  s->handle = handle;
  s->id = info->id;
  s->generation = info->generation;
  s->spec = info->spec;
  s->spec_count = info->spec_count;
  s->epoch = epoch;
}

static inline bool
resolve_shader (const PscResolver *r, VkShaderModule module, PscShaderInfo *info)
{
  PscResolverMemo *memo = r->memo;
  if (memo == NULL)
    return r->shader (r->ctx, module, info);
  const uint32_t epoch = *memo->epoch;
  const PscResolverMemoSlot *s = memo_find (memo->shader, (uint64_t) module, epoch);
  if (s != NULL)
    {
      info->id = s->id;
      info->generation = s->generation;
      info->spec = s->spec;
      info->spec_count = s->spec_count;
      return true;
    }
  if (!r->shader (r->ctx, module, info))
    return false;
  memo_store (memo->shader, (uint64_t) module, epoch, info);
  return true;
}

static inline bool
resolve_layout (const PscResolver *r, VkPipelineLayout layout, uint32_t *id)
{
  PscResolverMemo *memo = r->memo;
  if (memo == NULL)
    return r->pipeline_layout (r->ctx, layout, id);
  const uint32_t epoch = *memo->epoch;
  const PscResolverMemoSlot *s = memo_find (memo->layout, (uint64_t) layout, epoch);
  if (s != NULL)
    {
      *id = s->id;
      return true;
    }
  if (!r->pipeline_layout (r->ctx, layout, id))
    return false;
  memo_store (memo->layout, (uint64_t) layout, epoch, &(PscShaderInfo) { .id = *id });
  return true;
}

/* One stage for the fast path, written at o: the same record encode_stage
 * writes. Returns the end of the record, or NULL to decline (anything
 * wrong: encode_stage reports it). */
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
  if (PSC_UNLIKELY (!resolve_shader (r, s->module, &info)))
    return NULL;
  const uint32_t shader_id = info.id, generation = info.generation;
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
    copy_small (o, (const uint8_t *) name, name_len);
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
  uint8_t *values = o + n * sizeof (PscKeySpecEntry);
  const uint8_t *data = si->pData;
  for (uint32_t j = 0; j < n; j++)
    {
      const VkSpecializationMapEntry *e = &map[order[j]];
      const uint32_t id = e->constantID, size = (uint32_t) e->size;
      memcpy (o + offsetof (PscKeySpecEntry, constant_id), &id, 4);
      memcpy (o + offsetof (PscKeySpecEntry, size), &size, 4);
      o += sizeof (PscKeySpecEntry);
      if (size == 4)             /* the common case: a 32-bit constant */
        memcpy (values, data + e->offset, 4);
      else
        copy_small (values, data + e->offset, size);
      values += size;
    }
  return values;
}

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
  DECLINE_IF (!resolve_layout (r, ci->layout, &layout_id));

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
#define ST(field, value)                                                         \
  do {                                                                           \
    const __typeof__ (((PscKeyGraphicsState *) 0)->field) v_ = (value);          \
    memcpy (sp + offsetof (PscKeyGraphicsState, field), &v_, sizeof v_);         \
  } while (0)
  o += sizeof (PscKeyGraphicsState);
  uint8_t e8;

  /* Rasterization. */
  const VkPipelineRasterizationStateCreateInfo *rs = ci->pRasterizationState;
  DECLINE_IF (BAD_HEADER (rs, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO)
              || (!(dyn & DYN (RASTERIZER_DISCARD_ENABLE)) && rs->rasterizerDiscardEnable)
              || !psc_enum_polygon_mode (rs->polygonMode, &e8));
  ST (polygon_mode, e8);
  ST (depth_clamp, rs->depthClampEnable != VK_FALSE);
  if (!(dyn & DYN (CULL_MODE)))
    {
      DECLINE_IF (!psc_enum_cull_mode (rs->cullMode, &e8));
      ST (cull_mode, e8);
    }
  if (!(dyn & DYN (FRONT_FACE)))
    {
      DECLINE_IF (!psc_enum_front_face (rs->frontFace, &e8));
      ST (front_face, e8);
    }
  const bool bias_enable = !(dyn & DYN (DEPTH_BIAS_ENABLE)) && rs->depthBiasEnable;
  ST (depth_bias_enable, bias_enable);
  if ((bias_enable || (dyn & DYN (DEPTH_BIAS_ENABLE))) && !(dyn & DYN (DEPTH_BIAS)))
    {
      uint32_t c, cl, sl;
      DECLINE_IF (!psc_float_bits (rs->depthBiasConstantFactor, &c)
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
  if (!(dyn & DYN (LINE_WIDTH)))
    {
      uint32_t lw;
      DECLINE_IF (!psc_float_bits (rs->lineWidth, &lw));
      ST (line_width, lw);
    }

  /* Input assembly. */
  const VkPipelineInputAssemblyStateCreateInfo *ia = ci->pInputAssemblyState;
  DECLINE_IF (BAD_HEADER (ia, VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO)
              || !psc_enum_topology (ia->topology, &e8));
  ST (topology, (dyn & DYN (PRIMITIVE_TOPOLOGY)) ? psc_topology_class (e8) : e8);
  ST (primitive_restart, !(dyn & DYN (PRIMITIVE_RESTART_ENABLE)) && ia->primitiveRestartEnable);

  /* Viewport: counts only. */
  const VkPipelineViewportStateCreateInfo *vp = ci->pViewportState;
  DECLINE_IF (BAD_HEADER (vp, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO));
  if (!(dyn & DYN (VIEWPORT_WITH_COUNT)))
    {
      DECLINE_IF (vp->viewportCount - 1u >= PSC_MAX_VIEWPORTS);
      ST (viewport_count, (uint8_t) vp->viewportCount);
    }
  if (!(dyn & DYN (SCISSOR_WITH_COUNT)))
    {
      DECLINE_IF (vp->scissorCount - 1u >= PSC_MAX_VIEWPORTS);
      ST (scissor_count, (uint8_t) vp->scissorCount);
    }

  /* Multisample. */
  const VkPipelineMultisampleStateCreateInfo *ms = ci->pMultisampleState;
  uint8_t samples;
  DECLINE_IF (BAD_HEADER (ms, VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO)
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
      DECLINE_IF (BAD_HEADER (dss, VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO));
      const bool depth_test = !(dyn & DYN (DEPTH_TEST_ENABLE)) && dss->depthTestEnable;
      const bool depth_active = depth_test || (dyn & DYN (DEPTH_TEST_ENABLE));
      ST (depth_test, depth_test);
      ST (depth_write, depth_active && !(dyn & DYN (DEPTH_WRITE_ENABLE)) && dss->depthWriteEnable);
      if (depth_active && !(dyn & DYN (DEPTH_COMPARE_OP)))
        {
          DECLINE_IF (!psc_enum_compare_op (dss->depthCompareOp, &e8));
          ST (depth_compare, e8);
        }
      const bool bounds_test = !(dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)) && dss->depthBoundsTestEnable;
      ST (depth_bounds_test, bounds_test);
      DECLINE_IF (((bounds_test || (dyn & DYN (DEPTH_BOUNDS_TEST_ENABLE)))
                   && !(dyn & DYN (DEPTH_BOUNDS)))
                  || dss->stencilTestEnable || (dyn & DYN (STENCIL_TEST_ENABLE)));
      present |= PSC_GFX_HAS_DEPTH_STENCIL;
    }

  /* Colour blend: one attachment state per colour format. */
  if (color_count > 0)
    {
      const VkPipelineColorBlendStateCreateInfo *cb = ci->pColorBlendState;
      DECLINE_IF (BAD_HEADER (cb, VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO)
                  || cb->attachmentCount != color_count || cb->logicOpEnable
                  || cb->pAttachments == NULL);
      DECLINE_IF (!fast_blend (cb->pAttachments, color_count, (dyn & DYN (BLEND_CONSTANTS)) != 0,
                               o));
      o += color_count * sizeof (PscKeyBlendAttachment);
      ST (blend_count, (uint8_t) color_count);
      present |= PSC_GFX_HAS_COLOR_BLEND;
    }

  /* Vertex input. */
  const VkPipelineVertexInputStateCreateInfo *vi = ci->pVertexInputState;
  DECLINE_IF (BAD_HEADER (vi, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO));
  const uint32_t nb = vi->vertexBindingDescriptionCount;
  const uint32_t na = vi->vertexAttributeDescriptionCount;
  DECLINE_IF (nb > PSC_MAX_VERTEX_BINDINGS || na > PSC_MAX_VERTEX_ATTRIBUTES
              || (nb && vi->pVertexBindingDescriptions == NULL)
              || (na && vi->pVertexAttributeDescriptions == NULL));
  ST (binding_count, (uint8_t) nb);
  ST (attribute_count, (uint8_t) na);
#undef ST
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
  o = fast_vertex_input (vi, (dyn & DYN (VERTEX_INPUT_BINDING_STRIDE)) != 0, o);
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

/* ---------------------------------------------------------------------------
 * Reading graphics keys.
 *
 * Everything before the vertex input, with the optional records that are
 * absent set to their defaults (zeros; a full sample mask). The decoder, the
 * shader-reference walk and the rendering signature all start here.
 */
static inline uint64_t
psc_graphics_key_dynamic (const PscKeyGraphics *h)
{
  return h->dynamic_lo | (uint64_t) h->dynamic_hi << 32;
}

typedef struct {
  PscKeyGraphics h;
  PscKeyLegacyPass pass;
  uint32_t view_mask;
  uint16_t colors[PSC_MAX_COLOR_ATTACHMENTS];
  PscKeyGraphicsState st;
  PscKeyTessellation tess;
  PscKeyDepthBias bias;
  PscKeySampleState sample;
  PscKeyDepthStencil dsk;
  PscKeyColorBlend cbk;
  PscKeyBlendAttachment blend[PSC_MAX_COLOR_ATTACHMENTS];
} GraphicsKeyFixed;

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

const VkGraphicsPipelineCreateInfo *
psc_decode_graphics (const uint8_t *key, size_t len, const PscResolver *r, PscGraphicsBuild *b)
{
  if (key == NULL || b == NULL || r == NULL)
    return NULL;
  PscKeyReader rd = { key, key + len };
  GraphicsKeyFixed fx;
  if (!read_graphics_fixed (&rd, &fx))
    return NULL;
  const PscKeyGraphics h = fx.h;
  const PscKeyGraphicsState st = fx.st;
  const PscKeyDepthBias bias = fx.bias;
  const PscKeyDepthStencil dsk = fx.dsk;
  const PscKeyColorBlend cbk = fx.cbk;
  const PscKeyBlendAttachment *blend = fx.blend;

  memset (b, 0, sizeof *b);
  for (uint32_t j = 0; j < h.color_count; j++)
    if (!psc_enum_format_to_vk (fx.colors[j], &b->color_formats[j]))
      return NULL;

  VkGraphicsPipelineCreateInfo *ci = &b->ci;

  /* Vertex input. */
  for (uint32_t j = 0; j < st.binding_count; j++)
    {
      PscKeyVertexBinding k;
      if (!psc_kr_get (&rd, &k, sizeof k))
        return NULL;
      b->vertex_bindings[j].binding = k.binding;
      b->vertex_bindings[j].stride = k.stride;
      b->vertex_bindings[j].inputRate = (VkVertexInputRate) k.input_rate;
    }
  for (uint32_t j = 0; j < st.attribute_count; j++)
    {
      PscKeyVertexAttribute k;
      if (!psc_kr_get (&rd, &k, sizeof k)
          || !psc_enum_format_to_vk (k.format, &b->vertex_attributes[j].format))
        return NULL;
      b->vertex_attributes[j].location = k.location;
      b->vertex_attributes[j].binding = k.binding;
      b->vertex_attributes[j].offset = k.offset;
    }
  b->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  b->vertex_input.vertexBindingDescriptionCount = st.binding_count;
  b->vertex_input.pVertexBindingDescriptions = st.binding_count ? b->vertex_bindings : NULL;
  b->vertex_input.vertexAttributeDescriptionCount = st.attribute_count;
  b->vertex_input.pVertexAttributeDescriptions = st.attribute_count ? b->vertex_attributes : NULL;
  ci->pVertexInputState = &b->vertex_input;

  /* Stages. */
  for (uint32_t j = 0; j < h.stage_count; j++)
    {
      uint8_t stage;
      if (!decode_stage (&rd, r, &b->stages[j], &b->spec[j], b->map[j], b->spec_data[j],
                         b->names[j], &stage)
          || stage == PSC_STAGE_COMPUTE)
        return NULL;
    }
  if (rd.p != rd.end)
    return NULL;
  ci->stageCount = h.stage_count;
  ci->pStages = b->stages;

  const uint64_t dyn = psc_graphics_key_dynamic (&h);

  b->input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  b->input_assembly.topology = (VkPrimitiveTopology) st.topology;
  b->input_assembly.primitiveRestartEnable = st.primitive_restart;
  ci->pInputAssemblyState = &b->input_assembly;

  if (h.present & PSC_GFX_HAS_TESSELLATION)
    {
      b->tessellation.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
      b->tessellation.patchControlPoints = fx.tess.patch_control_points;
      ci->pTessellationState = &b->tessellation;
    }

  if (h.present & PSC_GFX_HAS_VIEWPORT)
    {
      b->viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
      b->viewport.viewportCount = st.viewport_count;
      b->viewport.scissorCount = st.scissor_count;
      ci->pViewportState = &b->viewport;
    }

  VkPipelineRasterizationStateCreateInfo *rs = &b->rasterization;
  rs->sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  rs->depthClampEnable = st.depth_clamp;
  rs->rasterizerDiscardEnable = st.rasterizer_discard;
  rs->polygonMode = (VkPolygonMode) st.polygon_mode;
  rs->cullMode = st.cull_mode;
  rs->frontFace = (VkFrontFace) st.front_face;
  rs->depthBiasEnable = st.depth_bias_enable;
  rs->depthBiasConstantFactor = psc_bits_float (bias.constant);
  rs->depthBiasClamp = psc_bits_float (bias.clamp);
  rs->depthBiasSlopeFactor = psc_bits_float (bias.slope);
  rs->lineWidth = psc_bits_float (st.line_width);
  ci->pRasterizationState = rs;

  if (h.present & PSC_GFX_HAS_MULTISAMPLE)
    {
      uint8_t s;
      if (!psc_enum_samples ((VkSampleCountFlagBits) st.samples, &s))
        return NULL;
      VkPipelineMultisampleStateCreateInfo *ms = &b->multisample;
      ms->sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
      ms->rasterizationSamples = (VkSampleCountFlagBits) st.samples;
      ms->sampleShadingEnable = st.sample_shading;
      ms->minSampleShading = psc_bits_float (fx.sample.min_sample_shading);
      const uint64_t full = st.samples == 64 ? UINT64_MAX : (UINT64_C (1) << st.samples) - 1;
      const uint64_t mask = fx.sample.sample_mask[0] | ((uint64_t) fx.sample.sample_mask[1] << 32);
      if (mask != full)
        {
          b->sample_mask[0] = fx.sample.sample_mask[0];
          b->sample_mask[1] = fx.sample.sample_mask[1];
          ms->pSampleMask = b->sample_mask;
        }
      ms->alphaToCoverageEnable = st.alpha_to_coverage;
      ms->alphaToOneEnable = st.alpha_to_one;
      ci->pMultisampleState = ms;
    }

  if (h.present & PSC_GFX_HAS_DEPTH_STENCIL)
    {
      VkPipelineDepthStencilStateCreateInfo *ds = &b->depth_stencil;
      ds->sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
      ds->depthTestEnable = st.depth_test;
      ds->depthWriteEnable = st.depth_write;
      ds->depthCompareOp = (VkCompareOp) st.depth_compare;
      ds->depthBoundsTestEnable = st.depth_bounds_test;
      ds->stencilTestEnable = st.stencil_test;
      ds->front.failOp = (VkStencilOp) dsk.front_fail;
      ds->front.passOp = (VkStencilOp) dsk.front_pass;
      ds->front.depthFailOp = (VkStencilOp) dsk.front_depth_fail;
      ds->front.compareOp = (VkCompareOp) dsk.front_compare;
      ds->front.compareMask = dsk.front_compare_mask;
      ds->front.writeMask = dsk.front_write_mask;
      ds->front.reference = dsk.front_reference;
      ds->back.failOp = (VkStencilOp) dsk.back_fail;
      ds->back.passOp = (VkStencilOp) dsk.back_pass;
      ds->back.depthFailOp = (VkStencilOp) dsk.back_depth_fail;
      ds->back.compareOp = (VkCompareOp) dsk.back_compare;
      ds->back.compareMask = dsk.back_compare_mask;
      ds->back.writeMask = dsk.back_write_mask;
      ds->back.reference = dsk.back_reference;
      ds->minDepthBounds = psc_bits_float (dsk.min_depth_bounds);
      ds->maxDepthBounds = psc_bits_float (dsk.max_depth_bounds);
      ci->pDepthStencilState = ds;
    }

  if (h.present & PSC_GFX_HAS_COLOR_BLEND)
    {
      VkPipelineColorBlendStateCreateInfo *cb = &b->color_blend;
      cb->sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
      cb->logicOpEnable = st.logic_op_enable;
      cb->logicOp = (VkLogicOp) st.logic_op;
      cb->attachmentCount = st.blend_count;
      cb->pAttachments = st.blend_count ? b->blend_attachments : NULL;
      for (uint32_t j = 0; j < st.blend_count; j++)
        {
          VkPipelineColorBlendAttachmentState *a = &b->blend_attachments[j];
          a->blendEnable = blend[j].blend_enable;
          a->srcColorBlendFactor = (VkBlendFactor) blend[j].src_color;
          a->dstColorBlendFactor = (VkBlendFactor) blend[j].dst_color;
          a->colorBlendOp = (VkBlendOp) blend[j].color_op;
          a->srcAlphaBlendFactor = (VkBlendFactor) blend[j].src_alpha;
          a->dstAlphaBlendFactor = (VkBlendFactor) blend[j].dst_alpha;
          a->alphaBlendOp = (VkBlendOp) blend[j].alpha_op;
          a->colorWriteMask = blend[j].write_mask;
        }
      for (uint32_t j = 0; j < 4; j++)
        cb->blendConstants[j] = psc_bits_float (cbk.blend_constants[j]);
      ci->pColorBlendState = cb;
    }

  if (dyn != 0)
    {
      uint32_t n = 0;
      for (unsigned bit = 0; bit < PSC_DYN_COUNT; bit++)
        if (dyn & (UINT64_C (1) << bit))
          b->dynamic_states[n++] = psc_enum_dynamic_state_to_vk (bit);
      b->dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
      b->dynamic.dynamicStateCount = n;
      b->dynamic.pDynamicStates = b->dynamic_states;
      ci->pDynamicState = &b->dynamic;
    }

  if (r->pipeline_layout_handle == NULL)
    return NULL;
  ci->layout = r->pipeline_layout_handle (r->ctx, h.layout_id);
  if (ci->layout == VK_NULL_HANDLE)
    return NULL;

  if (!(h.present & PSC_GFX_LEGACY_PASS))
    {
      VkPipelineRenderingCreateInfo *ri = &b->rendering;
      ri->sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
      ri->viewMask = fx.view_mask;
      ri->colorAttachmentCount = h.color_count;
      ri->pColorAttachmentFormats = h.color_count ? b->color_formats : NULL;
      if (!psc_enum_format_to_vk (h.depth_format, &ri->depthAttachmentFormat)
          || !psc_enum_format_to_vk (h.stencil_format, &ri->stencilAttachmentFormat))
        return NULL;
      ci->pNext = ri;
    }
  else
    {
      if (r->render_pass_handle == NULL)
        return NULL;
      ci->renderPass = r->render_pass_handle (r->ctx, fx.pass.render_pass_id);
      if (ci->renderPass == VK_NULL_HANDLE)
        return NULL;
      ci->subpass = fx.pass.subpass;
    }

  ci->sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  ci->flags = h.flags;
  ci->basePipelineHandle = VK_NULL_HANDLE;
  ci->basePipelineIndex = -1;
  return ci;
}

/* ---------------------------------------------------------------------------
 * Compute.
 */

PscStatus
psc_encode_compute (const VkComputePipelineCreateInfo *ci, const PscResolver *r,
                    PscKeyWriter *w, PscCoreError *err)
{
  REQUIRE (ci, "pCreateInfo");
  if (ci->sType != VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "not VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO", "sType");
  if (r == NULL || r->shader == NULL || r->pipeline_layout == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "no resolver");
  PSC_CHECK_NO_PNEXT (err, ci->pNext, "");
  if (ci->flags & ~(VkPipelineCreateFlags) PSC_COMPUTE_CREATE_FLAGS)
    return psc_fail_flags (err, ci->flags, "flags");
  if (ci->basePipelineHandle != VK_NULL_HANDLE)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "must be VK_NULL_HANDLE (derivative pipelines are not supported)",
                        "basePipelineHandle");
  PscKeyCompute h = { .tag = PSC_TAG_COMPUTE, .flags = ci->flags };
  if (ci->layout == VK_NULL_HANDLE)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_NULL_HANDLE", "layout");
  if (!r->pipeline_layout (r->ctx, ci->layout, &h.layout_id))
    return psc_fail_foreign (err, "layout");
  uint8_t stage;
  ENUM (stage, ci->stage.stage, stage, "stage.stage");
  if (stage != PSC_STAGE_COMPUTE)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "a compute pipeline needs VK_SHADER_STAGE_COMPUTE_BIT", "stage.stage");
  if (!psc_kw_put (w, &h, sizeof h))
    return psc_fail_key_full (err, w);
  return encode_stage (&ci->stage, stage, true, 0, r, w, err);
}

const VkComputePipelineCreateInfo *
psc_decode_compute (const uint8_t *key, size_t len, const PscResolver *r, PscComputeBuild *b)
{
  if (key == NULL || b == NULL || r == NULL || r->pipeline_layout_handle == NULL)
    return NULL;
  PscKeyReader rd = { key, key + len };
  PscKeyCompute h;
  if (!psc_kr_get (&rd, &h, sizeof h) || h.tag != PSC_TAG_COMPUTE)
    return NULL;
  memset (b, 0, sizeof *b);
  uint8_t stage;
  if (!decode_stage (&rd, r, &b->ci.stage, &b->spec, b->map, b->spec_data, b->name, &stage)
      || stage != PSC_STAGE_COMPUTE || rd.p != rd.end)
    return NULL;
  VkComputePipelineCreateInfo *ci = &b->ci;
  ci->sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  ci->flags = h.flags;
  ci->layout = r->pipeline_layout_handle (r->ctx, h.layout_id);
  if (ci->layout == VK_NULL_HANDLE)
    return NULL;
  ci->basePipelineHandle = VK_NULL_HANDLE;
  ci->basePipelineIndex = -1;
  return ci;
}

/* ---------------------------------------------------------------------------
 * Shader references of a pipeline key (graphics or compute): ids,
 * generations and the byte offset of each generation field, in key order.
 * Used to invalidate entries on hot reload and to look up the previous
 * generation of a key. Returns the number of stages, or -1 for a malformed
 * key.
 */
static bool
skip_stage (PscKeyReader *rd, PscKeyStage *k, size_t *gen_offset, const uint8_t *base)
{
  const uint8_t *at = rd->p;
  if (!psc_kr_get (rd, k, sizeof *k) || k->spec_count > PSC_MAX_SPEC_CONSTANTS)
    return false;
  *gen_offset = (size_t) (at - base) + offsetof (PscKeyStage, generation);
  if (!psc_kr_take (rd, k->name_len))
    return false;
  size_t values = 0;
  for (uint32_t j = 0; j < k->spec_count; j++)
    {
      PscKeySpecEntry e;
      if (!psc_kr_get (rd, &e, sizeof e))
        return false;
      values += e.size;
    }
  return psc_kr_take (rd, values) != NULL || values == 0;
}

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
      if (!skip_stage (&rd, &k, &off, key))
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
