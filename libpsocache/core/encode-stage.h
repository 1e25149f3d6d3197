/* encode-stage.h: pipeline stages in keys, shared by the graphics and
 * compute encoders and decoders (internal).
 *
 * A stage's key record (keys.h): PscKeyStage, the entry-point name's bytes,
 * its specialization map entries sorted by constant ID (PscKeySpecEntry),
 * then the values' bytes in the same order. Offsets into pData never enter
 * the key, so two maps that give the same constants the same values are
 * one key.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "keys.h"

/* Validates stage `s` (index `index` of pStages, or the compute stage when
 * `compute`; the field paths say "pStages[i]" or "stage") and appends its
 * record. `stage` is its PscStage, already validated by the caller. Each
 * map entry whose constant ID the shader declares (PscShaderInfo.spec) must
 * give that constant's size (INVALID_ARGUMENT "...pMapEntries[j].size: 8
 * does not match the 4-byte specialization constant 3 the shader
 * declares"); entries for IDs it does not declare are accepted. On
 * failure: the status, err names the field, w's contents are unspecified.
 * Owner thread of the resolver. */
PSC_INTERNAL PscStatus psc_encode_stage (const VkPipelineShaderStageCreateInfo *s, uint8_t stage,
                                         bool compute, uint32_t index, const PscResolver *r,
                                         PscKeyWriter *w, PscCoreError *err);

/* Reads one stage record at rd into *out, which points into the caller's
 * storage: spec, map (PSC_MAX_SPEC_CONSTANTS entries), spec_data
 * (PSC_MAX_SPEC_CONSTANTS * PSC_MAX_SPEC_VALUE_BYTES bytes) and name
 * (PSC_MAX_ENTRY_NAME + 1 bytes); its PscStage goes to *stage. False for a
 * malformed record or a shader id the resolver no longer knows. */
PSC_INTERNAL bool psc_decode_stage (PscKeyReader *rd, const PscResolver *r,
                                    VkPipelineShaderStageCreateInfo *out,
                                    VkSpecializationInfo *spec, VkSpecializationMapEntry *map,
                                    uint8_t *spec_data, char *name, uint8_t *stage);

/* Steps over one stage record at rd, returning its header and the byte
 * offset (from `base`) of its generation field. False if malformed. */
PSC_INTERNAL bool psc_skip_stage (PscKeyReader *rd, PscKeyStage *k, size_t *gen_offset,
                                  const uint8_t *base);

/* The size a shader declares for specialization constant `id` (its table
 * `spec` of `count` entries sorted by constant_id, PscShaderInfo), or 0 if
 * it declares no such constant. Called for increasing ids, *cursor (0 at
 * the first call) carries the walk from one call to the next: a stage's
 * sorted map entries and the shader's table are merged in one pass. */
static inline uint32_t
psc_spec_declared_size (const PscSpecConstant *spec, uint32_t count, uint32_t *cursor,
                        uint32_t id)
{
  uint32_t k = *cursor;
  while (k < count && spec[k].constant_id < id)
    k++;
  *cursor = k;
  return k < count && spec[k].constant_id == id ? spec[k].size : 0;
}

/* Copies n <= 64 bytes with a few overlapping loads and stores (the
 * entry-point names and specialization values of a key are short; a
 * library memcpy of an odd size costs more than the copy). */
static inline void
psc_copy_small (uint8_t *restrict dst, const uint8_t *restrict src, size_t n)
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
