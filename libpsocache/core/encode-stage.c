/* encode-stage.c: the stage record of graphics and compute keys (shader id
 * and generation, flags, entry point, specialization by constant ID):
 * encoding with its failure paths, decoding, and stepping over a record.
 *
 * psc_encode_stage runs on every cache hit that the graphics fast path
 * declines, so its success path formats nothing and allocates nothing; each
 * failure goes through a cold helper that finds the first failing field in
 * the caller's order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "encode-stage.h"

#include <stdio.h>

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

/* The first map entry, in index order, whose size differs from the size
 * of the constant the shader declares under its ID (cold). */
static PSC_COLD PscStatus
spec_size_fail (const VkSpecializationInfo *si, const PscShaderInfo *info, bool compute,
                uint32_t index, PscCoreError *err)
{
  char detail[128];
  for (uint32_t j = 0; j < si->mapEntryCount; j++)
    {
      const VkSpecializationMapEntry *e = &si->pMapEntries[j];
      uint32_t cursor = 0;
      const uint32_t declared = psc_spec_declared_size (info->spec, info->spec_count, &cursor,
                                                        e->constantID);
      if (declared != 0 && declared != e->size)
        {
          snprintf (detail, sizeof detail,
                    "%zu does not match the %u-byte specialization constant %u the shader "
                    "declares", e->size, declared, e->constantID);
          return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, ".size", j,
                                  detail);
        }
    }
  return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: no mismatched map entry");
}

/* Validates a stage's map entries and sorts them by constant ID into
 * sorted[] (each is constantID << 8 | index, insertion-sorted as it is
 * read: a stable order, so a duplicate is reported at its later index).
 * Checks, in this order: the entry count, pMapEntries, each entry's size
 * and range, pData, duplicate IDs, and each size against the constant the
 * shader declares under that ID (IDs it does not declare are accepted, as
 * Vulkan allows). */
static PscStatus
sort_map_entries (const VkSpecializationInfo *si, const PscShaderInfo *info, bool compute,
                  uint32_t index, uint64_t *sorted, size_t *value_bytes, PscCoreError *err)
{
  char pre[32], detail[96];
  const uint32_t n = si->mapEntryCount;
  if (PSC_UNLIKELY (n > PSC_MAX_SPEC_CONSTANTS))
    return psc_fail_capacity (err, n, PSC_MAX_SPEC_CONSTANTS,
                              "%s.pSpecializationInfo->mapEntryCount",
                              stage_prefix (pre, sizeof pre, compute, index));
  const VkSpecializationMapEntry *map = si->pMapEntries;
  if (PSC_UNLIKELY (map == NULL))
    return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "pMapEntries",
                            UINT32_MAX, "NULL with mapEntryCount > 0");
  const size_t data_size = si->dataSize;
  size_t bytes = 0;
  for (uint32_t j = 0; j < n; j++)
    {
      const size_t size = map[j].size;
      if (PSC_UNLIKELY (size > PSC_MAX_SPEC_VALUE_BYTES
                        || (uint64_t) map[j].offset + size > data_size))
        return spec_entry_fail (si, compute, index, err);
      bytes += size;
      const uint64_t v = (uint64_t) map[j].constantID << 8 | j;
      uint32_t i = j;
      while (i > 0 && sorted[i - 1] > v)
        {
          sorted[i] = sorted[i - 1];
          i--;
        }
      sorted[i] = v;
    }
  if (PSC_UNLIKELY (bytes > 0 && si->pData == NULL))
    return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index, "pData",
                            UINT32_MAX, "NULL with non-empty map entries");
  uint32_t cursor = 0;
  bool mismatch = false;
  for (uint32_t j = 0; j < n; j++)
    {
      const uint32_t id = (uint32_t) (sorted[j] >> 8);
      if (PSC_UNLIKELY (j > 0 && id == (uint32_t) (sorted[j - 1] >> 8)))
        {
          snprintf (detail, sizeof detail, "constant ID %u appears twice", id);
          return stage_fail_spec (err, PSC_STATUS_INVALID_ARGUMENT, compute, index,
                                  ".constantID", (uint32_t) (sorted[j] & 0xff), detail);
        }
      const uint32_t declared = psc_spec_declared_size (info->spec, info->spec_count, &cursor, id);
      mismatch |= declared != 0 && declared != map[sorted[j] & 0xff].size;
    }
  if (PSC_UNLIKELY (mismatch))
    return spec_size_fail (si, info, compute, index, err);
  *value_bytes = bytes;
  return PSC_STATUS_OK;
}

PscStatus
psc_encode_stage (const VkPipelineShaderStageCreateInfo *s, uint8_t stage, bool compute,
                  uint32_t index, const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  char pre[32];

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

  const VkSpecializationInfo *si = s->pSpecializationInfo;
  const uint32_t n = si ? si->mapEntryCount : 0;
  uint64_t sorted[PSC_MAX_SPEC_CONSTANTS];
  size_t value_bytes = 0;
  if (n)
    {
      PscStatus st = sort_map_entries (si, &info, compute, index, sorted, &value_bytes, err);
      if (PSC_UNLIKELY (st != PSC_STATUS_OK))
        return st;
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
  psc_copy_small (p, (const uint8_t *) name, name_len);
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
        psc_copy_small (values, src, e->size);
      values += e->size;
    }
  return PSC_STATUS_OK;
}

bool
psc_decode_stage (PscKeyReader *rd, const PscResolver *r, VkPipelineShaderStageCreateInfo *out,
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

bool
psc_skip_stage (PscKeyReader *rd, PscKeyStage *k, size_t *gen_offset, const uint8_t *base)
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
