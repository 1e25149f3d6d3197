/* encode-render-pass.c: compatibility render passes (DESIGN decision 3).
 *
 * The key covers what Vulkan's render-pass compatibility rules compare, and
 * nothing else: attachment formats, sample counts and flags; every subpass
 * (flags, bind point, view mask, input/colour/resolve/depth-stencil
 * references by attachment index, preserve attachments); every dependency
 * (all fields, plus its multiview view offset); the pass flags and the
 * multiview correlation masks. Load/store ops and all image layouts are
 * normalized away. Two normalizations follow the compatibility rules: a NULL
 * pResolveAttachments equals an array of VK_ATTACHMENT_UNUSED, and a NULL
 * pDepthStencilAttachment equals a reference to VK_ATTACHMENT_UNUSED.
 *
 * Every subpass's colour and depth/stencil attachments must share one sample
 * count (INVALID_ARGUMENT otherwise) and resolve attachments must be
 * single-sample: the graphics encoder compares that count with the
 * pipeline's rasterization samples (psc_render_pass_key_subpass_samples).
 *
 * The decoder rebuilds a valid pass: load/store DONT_CARE, initial layout
 * UNDEFINED, final layout GENERAL, references in the optimal layout of their
 * use (GENERAL where an attachment is an input and also written in the same
 * subpass).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "keys.h"

#define ATT_UNUSED VK_ATTACHMENT_UNUSED

typedef struct {
  uint32_t count;
  uint8_t samples[PSC_MAX_PASS_ATTACHMENTS];
} AttInfo;

/* Validates one reference array and writes its indices. Tracks the common
 * sample count of colour/depth references in *common (0 = none yet). */
static PscStatus
put_refs (const VkAttachmentReference *refs, uint32_t n, const AttInfo *att,
          uint32_t subpass, const char *member, bool sampled_use, uint8_t *common,
          PscKeyWriter *w, PscCoreError *err)
{
  uint8_t *dst = psc_kw_reserve (w, (size_t) n * sizeof (uint32_t));
  if (dst == NULL)
    return psc_fail_key_full (err, w);
  for (uint32_t j = 0; j < n; j++)
    {
      uint32_t a = refs[j].attachment;
      if (a != ATT_UNUSED)
        {
          if (a >= att->count)
            {
              char p[128];
              return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                       psc_pathf (p, "pSubpasses[%u].%s[%u].attachment",
                                                  subpass, member, j),
                                       "%u >= attachmentCount %u", a, att->count);
            }
          if (sampled_use)
            {
              if (*common == 0)
                *common = att->samples[a];
              else if (*common != att->samples[a])
                {
                  char p[128];
                  return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                           psc_pathf (p, "pSubpasses[%u].%s[%u]", subpass, member, j),
                                           "attachment %u has %u samples, but the subpass's other "
                                           "attachments have %u (a common sample count is required)",
                                           a, att->samples[a], *common);
                }
            }
        }
      memcpy (dst + (size_t) j * sizeof (uint32_t), &a, sizeof a);
    }
  return PSC_STATUS_OK;
}

/* The multiview structure of the chain (or NULL), after checking the
 * chain, the flags and the counts. */
static PscStatus
check_pass (const VkRenderPassCreateInfo *ci, const VkRenderPassMultiviewCreateInfo **mv_out,
            uint32_t *mv_index, PscCoreError *err)
{
  if (ci->sType != VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "sType",
                             "%u is not VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO",
                             (unsigned) ci->sType);
  const VkRenderPassMultiviewCreateInfo *mv = NULL;
  uint32_t i = 0;
  for (const VkBaseInStructure *n = ci->pNext; n != NULL; n = n->pNext, i++)
    {
      if (n->sType != VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO)
        return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
      if (mv != NULL)
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                            "structure appears twice in the chain", "pNext[%u].sType", i);
      mv = (const void *) n;
      *mv_index = i;
    }
  *mv_out = mv;

  if (ci->flags != 0)
    return psc_fail_flags (err, ci->flags, "flags");
  if (ci->attachmentCount > PSC_MAX_PASS_ATTACHMENTS)
    return psc_fail_capacity (err, ci->attachmentCount, PSC_MAX_PASS_ATTACHMENTS, "attachmentCount");
  if (ci->attachmentCount > 0 && ci->pAttachments == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with attachmentCount > 0",
                        "pAttachments");
  if (ci->subpassCount == 0)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "a render pass needs a subpass",
                        "subpassCount");
  if (ci->subpassCount > PSC_MAX_SUBPASSES)
    return psc_fail_capacity (err, ci->subpassCount, PSC_MAX_SUBPASSES, "subpassCount");
  if (ci->pSubpasses == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pSubpasses");
  if (ci->dependencyCount > PSC_MAX_SUBPASS_DEPENDENCIES)
    return psc_fail_capacity (err, ci->dependencyCount, PSC_MAX_SUBPASS_DEPENDENCIES,
                              "dependencyCount");
  if (ci->dependencyCount > 0 && ci->pDependencies == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with dependencyCount > 0",
                        "pDependencies");
  return PSC_STATUS_OK;
}

/* What VkRenderPassMultiviewCreateInfo adds to the key. */
typedef struct {
  const uint32_t *view_masks;
  const int32_t *view_offsets;
  const uint32_t *correlation_masks;
  uint32_t correlation_count;
} Multiview;

static PscStatus
check_multiview (const VkRenderPassCreateInfo *ci, const VkRenderPassMultiviewCreateInfo *mv,
                 uint32_t mv_index, Multiview *out, PscCoreError *err)
{
  *out = (Multiview) { 0 };
  if (mv == NULL)
    return PSC_STATUS_OK;
  char p[128];
  if (mv->subpassCount != 0 && mv->subpassCount != ci->subpassCount)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             psc_pathf (p, "pNext[%u].subpassCount", mv_index),
                             "%u, but subpassCount is %u (must be 0 or equal)",
                             mv->subpassCount, ci->subpassCount);
  if (mv->dependencyCount != 0 && mv->dependencyCount != ci->dependencyCount)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             psc_pathf (p, "pNext[%u].dependencyCount", mv_index),
                             "%u, but dependencyCount is %u (must be 0 or equal)",
                             mv->dependencyCount, ci->dependencyCount);
  if (mv->correlationMaskCount > PSC_MAX_CORRELATION_MASKS)
    return psc_fail_capacity (err, mv->correlationMaskCount, PSC_MAX_CORRELATION_MASKS,
                              "pNext[%u].correlationMaskCount", mv_index);
  if ((mv->subpassCount && mv->pViewMasks == NULL)
      || (mv->dependencyCount && mv->pViewOffsets == NULL)
      || (mv->correlationMaskCount && mv->pCorrelationMasks == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL array with a non-zero count",
                        "pNext[%u]", mv_index);
  out->view_masks = mv->subpassCount ? mv->pViewMasks : NULL;
  out->view_offsets = mv->dependencyCount ? mv->pViewOffsets : NULL;
  out->correlation_masks = mv->pCorrelationMasks;
  out->correlation_count = mv->correlationMaskCount;
  return PSC_STATUS_OK;
}

static PscStatus
encode_attachments (const VkRenderPassCreateInfo *ci, AttInfo *att, PscKeyWriter *w,
                    PscCoreError *err)
{
  *att = (AttInfo) { .count = ci->attachmentCount };
  for (uint32_t i = 0; i < ci->attachmentCount; i++)
    {
      const VkAttachmentDescription *a = &ci->pAttachments[i];
      PscKeyAttachment k;
      if (a->flags & ~(VkAttachmentDescriptionFlags) PSC_ATTACHMENT_DESCRIPTION_FLAGS)
        return psc_fail_flags (err, a->flags, "pAttachments[%u].flags", i);
      if (a->format == VK_FORMAT_UNDEFINED)
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_FORMAT_UNDEFINED",
                            "pAttachments[%u].format", i);
      if (!psc_enum_format (a->format, &k.format))
        return psc_fail_enum (err, (int32_t) a->format, "pAttachments[%u].format", i);
      if (!psc_enum_samples (a->samples, &k.samples))
        return psc_fail_enum (err, (int32_t) a->samples, "pAttachments[%u].samples", i);
      k.flags = (uint8_t) a->flags;
      att->samples[i] = k.samples;
      if (!psc_kw_put (w, &k, sizeof k))
        return psc_fail_key_full (err, w);
    }
  return PSC_STATUS_OK;
}

/* A subpass's flags, bind point, counts and arrays. */
static PscStatus
check_subpass (const VkSubpassDescription *sd, uint32_t s, PscCoreError *err)
{
  if (sd->flags != 0)
    return psc_fail_flags (err, sd->flags, "pSubpasses[%u].flags", s);
  if (sd->pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS)
    return psc_fail_enum (err, (int32_t) sd->pipelineBindPoint,
                          "pSubpasses[%u].pipelineBindPoint", s);
  if (sd->inputAttachmentCount > PSC_MAX_SUBPASS_REFS)
    return psc_fail_capacity (err, sd->inputAttachmentCount, PSC_MAX_SUBPASS_REFS,
                              "pSubpasses[%u].inputAttachmentCount", s);
  if (sd->colorAttachmentCount > PSC_MAX_SUBPASS_REFS)
    return psc_fail_capacity (err, sd->colorAttachmentCount, PSC_MAX_SUBPASS_REFS,
                              "pSubpasses[%u].colorAttachmentCount", s);
  if (sd->preserveAttachmentCount > PSC_MAX_PRESERVE_REFS)
    return psc_fail_capacity (err, sd->preserveAttachmentCount, PSC_MAX_PRESERVE_REFS,
                              "pSubpasses[%u].preserveAttachmentCount", s);
  if (sd->inputAttachmentCount && sd->pInputAttachments == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with inputAttachmentCount > 0",
                        "pSubpasses[%u].pInputAttachments", s);
  if (sd->colorAttachmentCount && sd->pColorAttachments == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with colorAttachmentCount > 0",
                        "pSubpasses[%u].pColorAttachments", s);
  if (sd->preserveAttachmentCount && sd->pPreserveAttachments == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "NULL with preserveAttachmentCount > 0",
                        "pSubpasses[%u].pPreserveAttachments", s);
  return PSC_STATUS_OK;
}

/* The depth/stencil reference must name an attachment whose sample count
 * the colour attachments share. */
static PscStatus
check_depth (uint32_t depth, uint8_t common, const AttInfo *att, uint32_t s, PscCoreError *err)
{
  char p[128];
  if (depth == ATT_UNUSED)
    return PSC_STATUS_OK;
  if (depth >= att->count)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             psc_pathf (p, "pSubpasses[%u].pDepthStencilAttachment->attachment", s),
                             "%u >= attachmentCount %u", depth, att->count);
  if (common != 0 && common != att->samples[depth])
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                             psc_pathf (p, "pSubpasses[%u].pDepthStencilAttachment", s),
                             "attachment %u has %u samples, but the subpass's colour "
                             "attachments have %u (a common sample count is required)",
                             depth, att->samples[depth], common);
  return PSC_STATUS_OK;
}

/* Resolve references (written only when one is used): single-sampled. */
static PscStatus
encode_resolves (const VkSubpassDescription *sd, uint32_t resolve_count, const AttInfo *att,
                 uint32_t s, PscKeyWriter *w, PscCoreError *err)
{
  if (resolve_count == 0)
    return PSC_STATUS_OK;
  char p[128];
  uint8_t unused_common = 0;
  PscStatus st = put_refs (sd->pResolveAttachments, resolve_count, att, s,
                           "pResolveAttachments", false, &unused_common, w, err);
  if (st != PSC_STATUS_OK)
    return st;
  for (uint32_t j = 0; j < resolve_count; j++)
    {
      uint32_t a = sd->pResolveAttachments[j].attachment;
      if (a != ATT_UNUSED && att->samples[a] != 1)
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pSubpasses[%u].pResolveAttachments[%u]", s, j),
                                 "resolve attachment %u has %u samples (must be 1)",
                                 a, att->samples[a]);
    }
  return PSC_STATUS_OK;
}

static PscStatus
encode_preserves (const VkSubpassDescription *sd, const AttInfo *att, uint32_t s,
                  PscKeyWriter *w, PscCoreError *err)
{
  char p[128];
  for (uint32_t j = 0; j < sd->preserveAttachmentCount; j++)
    {
      uint32_t a = sd->pPreserveAttachments[j];
      if (a >= att->count)
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pSubpasses[%u].pPreserveAttachments[%u]", s, j),
                                 "%u >= attachmentCount %u", a, att->count);
      if (!psc_kw_put (w, &a, sizeof a))
        return psc_fail_key_full (err, w);
    }
  return PSC_STATUS_OK;
}

static PscStatus
encode_subpass (const VkSubpassDescription *sd, uint32_t s, const Multiview *mv,
                const AttInfo *att, PscKeyWriter *w, PscCoreError *err)
{
  PscStatus st = check_subpass (sd, s, err);
  if (st != PSC_STATUS_OK)
    return st;
  /* A resolve array of only VK_ATTACHMENT_UNUSED equals NULL. */
  uint32_t resolve_count = 0;
  if (sd->pResolveAttachments != NULL)
    for (uint32_t j = 0; j < sd->colorAttachmentCount; j++)
      if (sd->pResolveAttachments[j].attachment != ATT_UNUSED)
        {
          resolve_count = sd->colorAttachmentCount;
          break;
        }
  const uint32_t depth = sd->pDepthStencilAttachment ? sd->pDepthStencilAttachment->attachment
                                                     : ATT_UNUSED;
  PscKeySubpass k = {
    .flags = sd->flags,
    .bind_point = (uint32_t) sd->pipelineBindPoint,
    .view_mask = mv->view_masks ? mv->view_masks[s] : 0,
    .depth_stencil = depth,
    .input_count = (uint8_t) sd->inputAttachmentCount,
    .color_count = (uint8_t) sd->colorAttachmentCount,
    .resolve_count = (uint8_t) resolve_count,
    .preserve_count = (uint8_t) sd->preserveAttachmentCount,
  };
  if (!psc_kw_put (w, &k, sizeof k))
    return psc_fail_key_full (err, w);

  uint8_t common = 0;
  st = put_refs (sd->pInputAttachments, sd->inputAttachmentCount, att, s,
                 "pInputAttachments", false, &common, w, err);
  if (st == PSC_STATUS_OK)
    st = put_refs (sd->pColorAttachments, sd->colorAttachmentCount, att, s,
                   "pColorAttachments", true, &common, w, err);
  if (st == PSC_STATUS_OK)
    st = check_depth (depth, common, att, s, err);
  if (st == PSC_STATUS_OK)
    st = encode_resolves (sd, resolve_count, att, s, w, err);
  if (st == PSC_STATUS_OK)
    st = encode_preserves (sd, att, s, w, err);
  return st;
}

static PscStatus
encode_dependencies (const VkRenderPassCreateInfo *ci, const Multiview *mv, PscKeyWriter *w,
                     PscCoreError *err)
{
  for (uint32_t i = 0; i < ci->dependencyCount; i++)
    {
      const VkSubpassDependency *d = &ci->pDependencies[i];
      char p[128];
      if (d->srcSubpass != VK_SUBPASS_EXTERNAL && d->srcSubpass >= ci->subpassCount)
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pDependencies[%u].srcSubpass", i),
                                 "%u >= subpassCount %u", d->srcSubpass, ci->subpassCount);
      if (d->dstSubpass != VK_SUBPASS_EXTERNAL && d->dstSubpass >= ci->subpassCount)
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pDependencies[%u].dstSubpass", i),
                                 "%u >= subpassCount %u", d->dstSubpass, ci->subpassCount);
      if (d->dependencyFlags & ~(VkDependencyFlags) PSC_DEPENDENCY_FLAGS)
        return psc_fail_flags (err, d->dependencyFlags, "pDependencies[%u].dependencyFlags", i);
      PscKeyDependency k = {
        .src_subpass = d->srcSubpass,
        .dst_subpass = d->dstSubpass,
        .src_stage_mask = d->srcStageMask,
        .dst_stage_mask = d->dstStageMask,
        .src_access_mask = d->srcAccessMask,
        .dst_access_mask = d->dstAccessMask,
        .dependency_flags = d->dependencyFlags,
        .view_offset = mv->view_offsets ? mv->view_offsets[i] : 0,
      };
      if (!psc_kw_put (w, &k, sizeof k))
        return psc_fail_key_full (err, w);
    }
  return PSC_STATUS_OK;
}

PscStatus
psc_encode_render_pass (const VkRenderPassCreateInfo *ci, PscKeyWriter *w, PscCoreError *err)
{
  if (ci == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pCreateInfo");
  const VkRenderPassMultiviewCreateInfo *vk_mv = NULL;
  uint32_t mv_index = 0;
  Multiview mv;
  PscStatus st = check_pass (ci, &vk_mv, &mv_index, err);
  if (st == PSC_STATUS_OK)
    st = check_multiview (ci, vk_mv, mv_index, &mv, err);
  if (st != PSC_STATUS_OK)
    return st;

  PscKeyRenderPass h = {
    .tag = PSC_TAG_RENDER_PASS,
    .flags = ci->flags,
    .attachment_count = (uint8_t) ci->attachmentCount,
    .subpass_count = (uint8_t) ci->subpassCount,
    .dependency_count = (uint8_t) ci->dependencyCount,
    .correlation_count = (uint8_t) mv.correlation_count,
  };
  if (!psc_kw_put (w, &h, sizeof h))
    return psc_fail_key_full (err, w);
  AttInfo att;
  st = encode_attachments (ci, &att, w, err);
  for (uint32_t s = 0; st == PSC_STATUS_OK && s < ci->subpassCount; s++)
    st = encode_subpass (&ci->pSubpasses[s], s, &mv, &att, w, err);
  if (st == PSC_STATUS_OK)
    st = encode_dependencies (ci, &mv, w, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (mv.correlation_count
      && !psc_kw_put (w, mv.correlation_masks, mv.correlation_count * sizeof (uint32_t)))
    return psc_fail_key_full (err, w);
  return PSC_STATUS_OK;
}

/* ------------------------------------------------------------------------- */

/* Parsed view of a render-pass key (pointers into the key). */
typedef struct {
  PscKeyRenderPass h;
  const uint8_t *attachments;                   /* PscKeyAttachment[] */
  const uint8_t *subpass[PSC_MAX_SUBPASSES];    /* PscKeySubpass + refs */
  const uint8_t *dependencies;                  /* PscKeyDependency[] */
  const uint8_t *correlation;                   /* u32[] */
} PassView;

static bool
parse_pass (const uint8_t *key, size_t len, PassView *v)
{
  if (key == NULL)
    return false;
  PscKeyReader rd = { key, key + len };
  if (!psc_kr_get (&rd, &v->h, sizeof v->h) || v->h.tag != PSC_TAG_RENDER_PASS
      || v->h.attachment_count > PSC_MAX_PASS_ATTACHMENTS
      || v->h.subpass_count == 0 || v->h.subpass_count > PSC_MAX_SUBPASSES
      || v->h.dependency_count > PSC_MAX_SUBPASS_DEPENDENCIES
      || v->h.correlation_count > PSC_MAX_CORRELATION_MASKS)
    return false;
  v->attachments = psc_kr_take (&rd, v->h.attachment_count * sizeof (PscKeyAttachment));
  if (v->attachments == NULL)
    return false;
  for (uint32_t s = 0; s < v->h.subpass_count; s++)
    {
      PscKeySubpass sp;
      v->subpass[s] = rd.p;
      if (!psc_kr_get (&rd, &sp, sizeof sp)
          || sp.input_count > PSC_MAX_SUBPASS_REFS || sp.color_count > PSC_MAX_SUBPASS_REFS
          || (sp.resolve_count != 0 && sp.resolve_count != sp.color_count)
          || sp.preserve_count > PSC_MAX_PRESERVE_REFS
          || psc_kr_take (&rd, ((size_t) sp.input_count + sp.color_count + sp.resolve_count
                                + sp.preserve_count) * sizeof (uint32_t)) == NULL)
        return false;
    }
  v->dependencies = psc_kr_take (&rd, v->h.dependency_count * sizeof (PscKeyDependency));
  v->correlation = psc_kr_take (&rd, v->h.correlation_count * sizeof (uint32_t));
  return v->dependencies != NULL && v->correlation != NULL && rd.p == rd.end;
}

static inline uint32_t
load_u32 (const uint8_t *p, size_t index)
{
  uint32_t v;
  memcpy (&v, p + index * sizeof v, sizeof v);
  return v;
}

bool
psc_render_pass_key_subpass_samples (const uint8_t *key, size_t len, uint32_t subpass,
                                     uint32_t *subpass_count, uint32_t *samples)
{
  PassView v;
  if (!parse_pass (key, len, &v))
    return false;
  if (subpass_count)
    *subpass_count = v.h.subpass_count;
  if (subpass >= v.h.subpass_count)
    return false;

  PscKeySubpass sp;
  memcpy (&sp, v.subpass[subpass], sizeof sp);
  const uint8_t *refs = v.subpass[subpass] + sizeof sp;
  uint32_t result = 0;
  for (uint32_t j = 0; j < sp.color_count && result == 0; j++)
    {
      uint32_t a = load_u32 (refs, sp.input_count + j);
      if (a != ATT_UNUSED && a < v.h.attachment_count)
        result = v.attachments[a * sizeof (PscKeyAttachment) + offsetof (PscKeyAttachment, samples)];
    }
  if (result == 0 && sp.depth_stencil != ATT_UNUSED && sp.depth_stencil < v.h.attachment_count)
    result = v.attachments[sp.depth_stencil * sizeof (PscKeyAttachment)
                           + offsetof (PscKeyAttachment, samples)];
  if (samples)
    *samples = result;
  return true;
}

bool
psc_render_pass_key_subpass_colors (const uint8_t *key, size_t len, uint32_t subpass,
                                    uint32_t *color_count)
{
  PassView v;
  if (!parse_pass (key, len, &v) || subpass >= v.h.subpass_count)
    return false;
  PscKeySubpass sp;
  memcpy (&sp, v.subpass[subpass], sizeof sp);
  *color_count = sp.color_count;
  return true;
}

enum { USE_INPUT = 1, USE_COLOR = 2, USE_RESOLVE = 4, USE_DEPTH = 8 };

static VkImageLayout
layout_for_use (uint8_t use)
{
  if (use & USE_INPUT)
    return use == USE_INPUT ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL;
  switch (use)
    {
    case USE_COLOR:
    case USE_RESOLVE:
      return VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    case USE_DEPTH:
      return VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    default:
      return VK_IMAGE_LAYOUT_GENERAL;
    }
}

static void
set_ref (VkAttachmentReference *ref, uint32_t a, const uint8_t *use)
{
  ref->attachment = a;
  ref->layout = a == ATT_UNUSED ? VK_IMAGE_LAYOUT_GENERAL : layout_for_use (use[a]);
}

const VkRenderPassCreateInfo *
psc_decode_render_pass (const uint8_t *key, size_t len, PscRenderPassBuild *b)
{
  PassView v;
  if (b == NULL || !parse_pass (key, len, &v))
    return NULL;

  memset (b, 0, sizeof *b);
  const uint32_t natt = v.h.attachment_count;
  for (uint32_t i = 0; i < natt; i++)
    {
      PscKeyAttachment k;
      memcpy (&k, v.attachments + i * sizeof k, sizeof k);
      VkAttachmentDescription *a = &b->attachments[i];
      if (!psc_enum_format_to_vk (k.format, &a->format) || a->format == VK_FORMAT_UNDEFINED)
        return NULL;
      uint8_t s;
      if (!psc_enum_samples ((VkSampleCountFlagBits) k.samples, &s))
        return NULL;
      a->flags = k.flags;
      a->samples = (VkSampleCountFlagBits) k.samples;
      a->loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      a->storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      a->stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      a->stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      a->initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      a->finalLayout = VK_IMAGE_LAYOUT_GENERAL;
    }

  bool multiview = v.h.correlation_count > 0;
  for (uint32_t s = 0; s < v.h.subpass_count; s++)
    {
      PscKeySubpass sp;
      memcpy (&sp, v.subpass[s], sizeof sp);
      const uint8_t *refs = v.subpass[s] + sizeof sp;
      const uint8_t *in = refs;
      const uint8_t *col = in + sp.input_count * sizeof (uint32_t);
      const uint8_t *res = col + sp.color_count * sizeof (uint32_t);
      const uint8_t *pre = res + sp.resolve_count * sizeof (uint32_t);

      /* How each attachment is used in this subpass decides its layout. */
      uint8_t use[PSC_MAX_PASS_ATTACHMENTS] = { 0 };
#define MARK(ptr, n, bit)                                                        \
      for (uint32_t j = 0; j < (n); j++)                                         \
        {                                                                        \
          uint32_t a = load_u32 ((ptr), j);                                      \
          if (a != ATT_UNUSED)                                                   \
            {                                                                    \
              if (a >= natt)                                                     \
                return NULL;                                                     \
              use[a] |= (bit);                                                   \
            }                                                                    \
        }
      MARK (in, sp.input_count, USE_INPUT);
      MARK (col, sp.color_count, USE_COLOR);
      MARK (res, sp.resolve_count, USE_RESOLVE);
#undef MARK
      if (sp.depth_stencil != ATT_UNUSED)
        {
          if (sp.depth_stencil >= natt)
            return NULL;
          use[sp.depth_stencil] |= USE_DEPTH;
        }

      VkSubpassDescription *d = &b->subpasses[s];
      d->flags = sp.flags;
      d->pipelineBindPoint = (VkPipelineBindPoint) sp.bind_point;
      d->inputAttachmentCount = sp.input_count;
      d->pInputAttachments = sp.input_count ? b->inputs[s] : NULL;
      for (uint32_t j = 0; j < sp.input_count; j++)
        set_ref (&b->inputs[s][j], load_u32 (in, j), use);
      d->colorAttachmentCount = sp.color_count;
      d->pColorAttachments = sp.color_count ? b->colors[s] : NULL;
      for (uint32_t j = 0; j < sp.color_count; j++)
        set_ref (&b->colors[s][j], load_u32 (col, j), use);
      if (sp.resolve_count)
        {
          d->pResolveAttachments = b->resolves[s];
          for (uint32_t j = 0; j < sp.resolve_count; j++)
            set_ref (&b->resolves[s][j], load_u32 (res, j), use);
        }
      if (sp.depth_stencil != ATT_UNUSED)
        {
          set_ref (&b->depth[s], sp.depth_stencil, use);
          d->pDepthStencilAttachment = &b->depth[s];
        }
      d->preserveAttachmentCount = sp.preserve_count;
      d->pPreserveAttachments = sp.preserve_count ? b->preserve[s] : NULL;
      for (uint32_t j = 0; j < sp.preserve_count; j++)
        {
          b->preserve[s][j] = load_u32 (pre, j);
          if (b->preserve[s][j] >= natt)
            return NULL;
        }
      b->view_masks[s] = sp.view_mask;
      multiview |= sp.view_mask != 0;
    }

  for (uint32_t i = 0; i < v.h.dependency_count; i++)
    {
      PscKeyDependency k;
      memcpy (&k, v.dependencies + i * sizeof k, sizeof k);
      VkSubpassDependency *d = &b->dependencies[i];
      d->srcSubpass = k.src_subpass;
      d->dstSubpass = k.dst_subpass;
      d->srcStageMask = k.src_stage_mask;
      d->dstStageMask = k.dst_stage_mask;
      d->srcAccessMask = k.src_access_mask;
      d->dstAccessMask = k.dst_access_mask;
      d->dependencyFlags = k.dependency_flags;
      b->view_offsets[i] = k.view_offset;
      multiview |= k.view_offset != 0;
    }
  memcpy (b->correlation_masks, v.correlation, v.h.correlation_count * sizeof (uint32_t));

  VkRenderPassCreateInfo *ci = &b->ci;
  ci->sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  ci->flags = v.h.flags;
  ci->attachmentCount = natt;
  ci->pAttachments = natt ? b->attachments : NULL;
  ci->subpassCount = v.h.subpass_count;
  ci->pSubpasses = b->subpasses;
  ci->dependencyCount = v.h.dependency_count;
  ci->pDependencies = v.h.dependency_count ? b->dependencies : NULL;
  if (multiview)
    {
      VkRenderPassMultiviewCreateInfo *mv = &b->multiview;
      mv->sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO;
      mv->subpassCount = v.h.subpass_count;
      mv->pViewMasks = b->view_masks;
      mv->dependencyCount = v.h.dependency_count;
      mv->pViewOffsets = v.h.dependency_count ? b->view_offsets : NULL;
      mv->correlationMaskCount = v.h.correlation_count;
      mv->pCorrelationMasks = v.h.correlation_count ? b->correlation_masks : NULL;
      ci->pNext = mv;
    }
  return ci;
}
