/* encode-layout.c: canonical keys for descriptor-set layouts and pipeline
 * layouts.
 *
 * Set layout: PscKeySetLayout + bindings sorted by binding number. Immutable
 * samplers enter as a sampler-list id (r->sampler_list over the samplers'
 * cache ids, which compares every element before it hands out an id); they
 * are only read for SAMPLER / COMBINED_IMAGE_SAMPLER bindings (Vulkan ignores
 * them otherwise). Binding flags come from an optional
 * VkDescriptorSetLayoutBindingFlagsCreateInfo; all-zero flags equal no struct.
 *
 * Pipeline layout: PscKeyPipelineLayout + set-layout ids in order + push
 * constant ranges in the given order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "keys.h"

static inline bool
type_takes_immutable_samplers (uint8_t type)
{
  return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
}

PscStatus
psc_encode_set_layout (const VkDescriptorSetLayoutCreateInfo *ci, const PscResolver *r,
                       PscKeyWriter *w, PscCoreError *err)
{
  if (ci == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pCreateInfo");
  if (ci->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "sType",
                             "%u is not VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO",
                             (unsigned) ci->sType);

  const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = NULL;
  uint32_t bf_index = 0;
  uint32_t i = 0;
  for (const VkBaseInStructure *n = ci->pNext; n != NULL; n = n->pNext, i++)
    {
      if (n->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
        {
          if (bf != NULL)
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                "structure appears twice in the chain", "pNext[%u].sType", i);
          bf = (const void *) n;
          bf_index = i;
        }
      else
        return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
    }

  if (ci->flags & ~(VkDescriptorSetLayoutCreateFlags) PSC_SET_LAYOUT_CREATE_FLAGS)
    return psc_fail_flags (err, ci->flags, "flags");

  const uint32_t count = ci->bindingCount;
  if (count > PSC_MAX_SET_BINDINGS)
    return psc_fail_capacity (err, count, PSC_MAX_SET_BINDINGS, "bindingCount");
  if (count > 0 && ci->pBindings == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with bindingCount > 0",
                        "pBindings");

  if (bf != NULL)
    {
      if (bf->bindingCount != 0 && bf->bindingCount != count)
        {
          char p[128];
          return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                   psc_pathf (p, "pNext[%u].bindingCount", bf_index),
                                   "%u, but bindingCount is %u (must be 0 or equal)",
                                   bf->bindingCount, count);
        }
      if (bf->bindingCount != 0 && bf->pBindingFlags == NULL)
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with bindingCount > 0",
                            "pNext[%u].pBindingFlags", bf_index);
      if (bf->bindingCount == 0)
        bf = NULL;
    }

  uint32_t numbers[PSC_MAX_SET_BINDINGS];
  uint8_t order[PSC_MAX_SET_BINDINGS];
  for (i = 0; i < count; i++)
    {
      numbers[i] = ci->pBindings[i].binding;
      order[i] = (uint8_t) i;
    }
  psc_sort_indices (order, numbers, count);
  for (i = 1; i < count; i++)
    if (numbers[order[i]] == numbers[order[i - 1]])
      {
        uint32_t dup = order[i] > order[i - 1] ? order[i] : order[i - 1];
        char p[128];
        return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT,
                                 psc_pathf (p, "pBindings[%u].binding", dup),
                                 "binding %u appears twice", numbers[order[i]]);
      }

  PscKeySetLayout h = {
    .tag = PSC_TAG_SET_LAYOUT,
    .flags = ci->flags,
    .binding_count = count,
  };
  if (!psc_kw_put (w, &h, sizeof h))
    return psc_fail_key_full (err, w);

  for (uint32_t s = 0; s < count; s++)
    {
      const uint32_t bi = order[s];
      const VkDescriptorSetLayoutBinding *b = &ci->pBindings[bi];
      PscKeySetBinding k = { 0 };
      uint8_t type;

      k.binding = b->binding;
      k.descriptor_count = b->descriptorCount;
      if (!psc_enum_descriptor_type (b->descriptorType, &type))
        return psc_fail_enum (err, (int32_t) b->descriptorType, "pBindings[%u].descriptorType", bi);
      k.descriptor_type = type;
      if (!psc_enum_stage_mask (b->stageFlags, &k.stage_flags))
        return psc_fail_flags (err, b->stageFlags, "pBindings[%u].stageFlags", bi);
      if (bf != NULL)
        {
          VkDescriptorBindingFlags f = bf->pBindingFlags[bi];
          if (f & ~(VkDescriptorBindingFlags) PSC_BINDING_FLAGS)
            return psc_fail_flags (err, f, "pNext[%u].pBindingFlags[%u]", bf_index, bi);
          k.binding_flags = f;
        }

      if (type_takes_immutable_samplers (type) && b->pImmutableSamplers != NULL
          && b->descriptorCount > 0)
        {
          if (b->descriptorCount > PSC_MAX_IMMUTABLE_SAMPLERS)
            return psc_fail_capacity (err, b->descriptorCount, PSC_MAX_IMMUTABLE_SAMPLERS,
                                      "pBindings[%u].descriptorCount", bi);
          uint32_t ids[PSC_MAX_IMMUTABLE_SAMPLERS];
          for (uint32_t j = 0; j < b->descriptorCount; j++)
            {
              VkSampler smp = b->pImmutableSamplers[j];
              if (smp == VK_NULL_HANDLE)
                return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_NULL_HANDLE",
                                    "pBindings[%u].pImmutableSamplers[%u]", bi, j);
              if (r == NULL || r->sampler == NULL || !r->sampler (r->ctx, smp, &ids[j]))
                return psc_fail_foreign (err, "pBindings[%u].pImmutableSamplers[%u]", bi, j);
            }
          if (r->sampler_list == NULL)
            return psc_fail_at (err, PSC_STATUS_FAILED, "no sampler-list resolver",
                                "pBindings[%u].pImmutableSamplers", bi);
          PscCoreError sub;
          sub.message[0] = '\0';
          PscStatus st = r->sampler_list (r->ctx, ids, b->descriptorCount, &k.sampler_list, &sub);
          if (st != PSC_STATUS_OK)
            {
              /* Keep the resolver's reason, but name the field. */
              char p[128];
              return psc_fail_detailf (err, st, psc_pathf (p, "pBindings[%u].pImmutableSamplers", bi),
                                       "%s", sub.message[0] ? sub.message : "sampler list failed");
            }
          k.immutable = 1;
        }

      if (!psc_kw_put (w, &k, sizeof k))
        return psc_fail_key_full (err, w);
    }
  return PSC_STATUS_OK;
}

const VkDescriptorSetLayoutCreateInfo *
psc_decode_set_layout (const uint8_t *key, size_t len, const PscResolver *r,
                       PscSetLayoutBuild *b)
{
  if (key == NULL || b == NULL)
    return NULL;
  PscKeyReader rd = { key, key + len };
  PscKeySetLayout h;
  if (!psc_kr_get (&rd, &h, sizeof h) || h.tag != PSC_TAG_SET_LAYOUT
      || h.binding_count > PSC_MAX_SET_BINDINGS)
    return NULL;

  memset (b, 0, sizeof *b);
  bool any_flags = false;
  for (uint32_t i = 0; i < h.binding_count; i++)
    {
      PscKeySetBinding k;
      if (!psc_kr_get (&rd, &k, sizeof k) || k.descriptor_type > PSC_ENUM_MAX_DESCRIPTOR_TYPE)
        return NULL;
      VkDescriptorSetLayoutBinding *out = &b->bindings[i];
      out->binding = k.binding;
      out->descriptorType = (VkDescriptorType) k.descriptor_type;
      out->descriptorCount = k.descriptor_count;
      out->stageFlags = k.stage_flags;
      b->binding_flags[i] = k.binding_flags;
      any_flags |= k.binding_flags != 0;
      if (k.immutable)
        {
          uint32_t ids[PSC_MAX_IMMUTABLE_SAMPLERS];
          if (r == NULL || r->sampler_list_ids == NULL || r->sampler_handle == NULL
              || k.descriptor_count > PSC_MAX_IMMUTABLE_SAMPLERS)
            return NULL;
          uint32_t n = r->sampler_list_ids (r->ctx, k.sampler_list, ids);
          if (n != k.descriptor_count)
            return NULL;
          for (uint32_t j = 0; j < n; j++)
            {
              b->samplers[i][j] = r->sampler_handle (r->ctx, ids[j]);
              if (b->samplers[i][j] == VK_NULL_HANDLE)
                return NULL;
            }
          out->pImmutableSamplers = b->samplers[i];
        }
    }
  if (rd.p != rd.end)
    return NULL;

  VkDescriptorSetLayoutCreateInfo *ci = &b->ci;
  ci->sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  ci->flags = h.flags;
  ci->bindingCount = h.binding_count;
  ci->pBindings = h.binding_count ? b->bindings : NULL;
  if (any_flags)
    {
      b->binding_flags_ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO;
      b->binding_flags_ci.bindingCount = h.binding_count;
      b->binding_flags_ci.pBindingFlags = b->binding_flags;
      ci->pNext = &b->binding_flags_ci;
    }
  return ci;
}

/* ------------------------------------------------------------------------- */

PscStatus
psc_encode_pipeline_layout (const VkPipelineLayoutCreateInfo *ci, const PscResolver *r,
                            PscKeyWriter *w, PscCoreError *err)
{
  if (ci == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pCreateInfo");
  if (ci->sType != VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO)
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "sType",
                             "%u is not VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO",
                             (unsigned) ci->sType);
  PSC_CHECK_NO_PNEXT (err, ci->pNext, "");
  if (ci->flags != 0)
    return psc_fail_flags (err, ci->flags, "flags");
  if (ci->setLayoutCount > PSC_MAX_SET_LAYOUTS)
    return psc_fail_capacity (err, ci->setLayoutCount, PSC_MAX_SET_LAYOUTS, "setLayoutCount");
  if (ci->setLayoutCount > 0 && ci->pSetLayouts == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with setLayoutCount > 0",
                        "pSetLayouts");
  if (ci->pushConstantRangeCount > PSC_MAX_PUSH_RANGES)
    return psc_fail_capacity (err, ci->pushConstantRangeCount, PSC_MAX_PUSH_RANGES,
                              "pushConstantRangeCount");
  if (ci->pushConstantRangeCount > 0 && ci->pPushConstantRanges == NULL)
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL with pushConstantRangeCount > 0",
                        "pPushConstantRanges");

  PscKeyPipelineLayout h = {
    .tag = PSC_TAG_PIPELINE_LAYOUT,
    .flags = ci->flags,
    .set_count = ci->setLayoutCount,
    .push_count = ci->pushConstantRangeCount,
  };
  if (!psc_kw_put (w, &h, sizeof h))
    return psc_fail_key_full (err, w);

  for (uint32_t i = 0; i < ci->setLayoutCount; i++)
    {
      uint32_t id;
      if (ci->pSetLayouts[i] == VK_NULL_HANDLE)
        return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "VK_NULL_HANDLE",
                            "pSetLayouts[%u]", i);
      if (r == NULL || r->set_layout == NULL || !r->set_layout (r->ctx, ci->pSetLayouts[i], &id))
        return psc_fail_foreign (err, "pSetLayouts[%u]", i);
      if (!psc_kw_put (w, &id, sizeof id))
        return psc_fail_key_full (err, w);
    }

  for (uint32_t i = 0; i < ci->pushConstantRangeCount; i++)
    {
      const VkPushConstantRange *pr = &ci->pPushConstantRanges[i];
      PscKeyPushRange k = { .offset = pr->offset, .size = pr->size };
      if (!psc_enum_stage_mask (pr->stageFlags, &k.stage_flags))
        return psc_fail_flags (err, pr->stageFlags, "pPushConstantRanges[%u].stageFlags", i);
      if (!psc_kw_put (w, &k, sizeof k))
        return psc_fail_key_full (err, w);
    }
  return PSC_STATUS_OK;
}

const VkPipelineLayoutCreateInfo *
psc_decode_pipeline_layout (const uint8_t *key, size_t len, const PscResolver *r,
                            PscPipelineLayoutBuild *b)
{
  if (key == NULL || b == NULL)
    return NULL;
  PscKeyReader rd = { key, key + len };
  PscKeyPipelineLayout h;
  if (!psc_kr_get (&rd, &h, sizeof h) || h.tag != PSC_TAG_PIPELINE_LAYOUT
      || h.set_count > PSC_MAX_SET_LAYOUTS || h.push_count > PSC_MAX_PUSH_RANGES)
    return NULL;

  memset (b, 0, sizeof *b);
  for (uint32_t i = 0; i < h.set_count; i++)
    {
      uint32_t id;
      if (!psc_kr_get (&rd, &id, sizeof id) || r == NULL || r->set_layout_handle == NULL)
        return NULL;
      b->set_layouts[i] = r->set_layout_handle (r->ctx, id);
      if (b->set_layouts[i] == VK_NULL_HANDLE)
        return NULL;
    }
  for (uint32_t i = 0; i < h.push_count; i++)
    {
      PscKeyPushRange k;
      if (!psc_kr_get (&rd, &k, sizeof k))
        return NULL;
      b->push_ranges[i].stageFlags = k.stage_flags;
      b->push_ranges[i].offset = k.offset;
      b->push_ranges[i].size = k.size;
    }
  if (rd.p != rd.end)
    return NULL;

  VkPipelineLayoutCreateInfo *ci = &b->ci;
  ci->sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  ci->flags = h.flags;
  ci->setLayoutCount = h.set_count;
  ci->pSetLayouts = h.set_count ? b->set_layouts : NULL;
  ci->pushConstantRangeCount = h.push_count;
  ci->pPushConstantRanges = h.push_count ? b->push_ranges : NULL;
  return ci;
}
