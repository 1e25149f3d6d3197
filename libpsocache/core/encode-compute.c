/* encode-compute.c: compute pipeline keys: PscKeyCompute (flags, layout
 * id), then the one stage's record (encode-stage.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "encode-stage.h"

PscStatus
psc_encode_compute (const VkComputePipelineCreateInfo *ci, const PscResolver *r,
                    PscKeyWriter *w, PscCoreError *err)
{
  if (ci == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pCreateInfo");
  if (ci->sType != VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "not VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO", "sType");
  if (r == NULL || r->shader == NULL || r->pipeline_layout == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "no resolver");
  uint32_t i = 0;
  for (const VkBaseInStructure *n = ci->pNext; n != NULL; n = n->pNext, i++)
    {
      if (n->sType != VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
        return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
      /* An output structure: checked, filled after the request, never keyed. */
      PscStatus st = psc_check_feedback ((const void *) n, 1, i, err);
      if (st != PSC_STATUS_OK)
        return st;
    }
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
  if (!psc_enum_stage (ci->stage.stage, &stage))
    return psc_fail_enum (err, (int32_t) ci->stage.stage, "stage.stage");
  if (stage != PSC_STAGE_COMPUTE)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                        "a compute pipeline needs VK_SHADER_STAGE_COMPUTE_BIT", "stage.stage");
  if (!psc_kw_put (w, &h, sizeof h))
    return psc_fail_key_full (err, w);
  return psc_encode_stage (&ci->stage, stage, true, 0, r, w, err);
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
  if (!psc_decode_stage (&rd, r, &b->ci.stage, &b->spec, b->map, b->spec_data, b->name, &stage)
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
