/* artifact-record.c: the SPIR-V artifact records, keyed, parsed, validated
 * and serialized in memory (contract and layout in artifact-record.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "artifact-record.h"

#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* SPIRV payload offsets. */
enum {
  ART_OFF_KEY = 0,
  ART_OFF_STAGE = 16,
  ART_OFF_SOURCE_LEN = 20,
  ART_OFF_LAST_USED = 24,
  ART_OFF_SPIRV_SIZE = 32,
  ART_OFF_RESERVED = 36,
};
_Static_assert (ART_OFF_RESERVED + 4 == PSC_ARTIFACT_HEADER_SIZE, "artifact header layout");

/* USED payload offsets. */
enum {
  USED_OFF_KEY = 0,
  USED_OFF_LAST_USED = 16,
};
_Static_assert (USED_OFF_LAST_USED + 8 == PSC_ARTIFACT_USED_SIZE, "used record layout");

/* SPIR-V: OpEntryPoint and the execution models of Vulkan's stages. */
#define SPV_OP_ENTRY_POINT 15u
#define SPV_HEADER_WORDS 5u

static void
hash_part (XXH3_state_t *st, const void *data, size_t len)
{
  uint8_t n[8];
  psc_put_le64 (n, (uint64_t) len);
  XXH3_128bits_update (st, n, sizeof n);
  if (len > 0)
    XXH3_128bits_update (st, data, len);
}

void
psc_artifact_key (const void *source, size_t source_len, uint32_t stage,
                  const char *target_env, size_t target_env_len,
                  const char *policy, size_t policy_len,
                  uint8_t key[PSC_ARTIFACT_KEY_SIZE])
{
  XXH3_state_t st;
  uint8_t head[8];
  XXH128_canonical_t canon;

  psc_put_le32 (head, PSC_ARTIFACT_ABI);
  psc_put_le32 (head + 4, stage);
  XXH3_128bits_reset (&st);
  XXH3_128bits_update (&st, head, sizeof head);
  hash_part (&st, target_env, target_env_len);
  hash_part (&st, policy, policy_len);
  hash_part (&st, source, source_len);
  XXH128_canonicalFromHash (&canon, XXH3_128bits_digest (&st));
  _Static_assert (sizeof canon.digest == PSC_ARTIFACT_KEY_SIZE, "XXH3-128 size");
  memcpy (key, canon.digest, PSC_ARTIFACT_KEY_SIZE);
}

/* The SPIR-V execution model of a stage bit, or UINT32_MAX. */
static uint32_t
execution_model (uint32_t stage)
{
  switch (stage)
    {
    case 0x00000001u: return 0;      /* VERTEX: Vertex */
    case 0x00000002u: return 1;      /* TESSELLATION_CONTROL */
    case 0x00000004u: return 2;      /* TESSELLATION_EVALUATION */
    case 0x00000008u: return 3;      /* GEOMETRY */
    case 0x00000010u: return 4;      /* FRAGMENT */
    case 0x00000020u: return 5;      /* COMPUTE: GLCompute */
    case 0x00000040u: return 5364;   /* TASK_EXT: TaskEXT (TaskNV 5267 below) */
    case 0x00000080u: return 5365;   /* MESH_EXT: MeshEXT (MeshNV 5268 below) */
    case 0x00000100u: return 5313;   /* RAYGEN: RayGenerationKHR */
    case 0x00000200u: return 5315;   /* ANY_HIT: AnyHitKHR */
    case 0x00000400u: return 5316;   /* CLOSEST_HIT: ClosestHitKHR */
    case 0x00000800u: return 5317;   /* MISS: MissKHR */
    case 0x00001000u: return 5314;   /* INTERSECTION: IntersectionKHR */
    case 0x00002000u: return 5318;   /* CALLABLE: CallableKHR */
    default: return UINT32_MAX;
    }
}

static bool
model_matches (uint32_t stage, uint32_t model)
{
  const uint32_t want = execution_model (stage);
  return model == want || (stage == 0x40u && model == 5267) || (stage == 0x80u && model == 5268);
}

bool
psc_artifact_stage_valid (uint32_t stage)
{
  return execution_model (stage) != UINT32_MAX;
}

PscFileReason
psc_artifact_spirv_check (const void *code, size_t size, uint32_t stage)
{
  const uint8_t *bytes = code;
  uint32_t word;
  bool entry = false;

  if (!psc_artifact_stage_valid (stage) || size % 4 != 0 || size < PSC_ARTIFACT_MIN_SPIRV)
    return PSC_FILE_BAD_HEADER;
  if (size > PSC_ARTIFACT_MAX_SPIRV)
    return PSC_FILE_OVERSIZED;
  memcpy (&word, bytes, 4);
  if (word != PSC_SPIRV_MAGIC)
    return PSC_FILE_BAD_MAGIC;
  /* Frame every instruction (the core reads the module again when it is
   * registered; this is the stage check's own walk). */
  const size_t words = size / 4;
  for (size_t at = SPV_HEADER_WORDS; at < words;)
    {
      memcpy (&word, bytes + at * 4, 4);
      const uint32_t count = word >> 16, opcode = word & 0xffffu;
      if (count == 0 || count > words - at)
        return PSC_FILE_BAD_RECORD;
      if (opcode == SPV_OP_ENTRY_POINT && count >= 2)
        {
          uint32_t model;
          memcpy (&model, bytes + (at + 1) * 4, 4);
          entry = entry || model_matches (stage, model);
        }
      at += count;
    }
  return entry ? PSC_FILE_OK : PSC_FILE_BAD_RECORD;
}

size_t
psc_artifact_record_size (uint32_t spirv_size)
{
  return PSC_ARTIFACT_HEADER_SIZE + (size_t) spirv_size;
}

size_t
psc_artifact_log_size (uint32_t spirv_size)
{
  return psc_log_record_size (psc_artifact_record_size (spirv_size));
}

PscFileReason
psc_artifact_record_parse (const uint8_t *payload, size_t len, PscArtifactRecord *out)
{
  if (len < PSC_ARTIFACT_HEADER_SIZE)
    return PSC_FILE_TRUNCATED;
  const uint32_t stage = psc_le32 (payload + ART_OFF_STAGE);
  if (!psc_artifact_stage_valid (stage) || psc_le32 (payload + ART_OFF_RESERVED) != 0)
    return PSC_FILE_BAD_HEADER;
  const uint32_t size = psc_le32 (payload + ART_OFF_SPIRV_SIZE);
  if (size > PSC_ARTIFACT_MAX_SPIRV)
    return PSC_FILE_OVERSIZED;
  if (len - PSC_ARTIFACT_HEADER_SIZE < size)
    return PSC_FILE_TRUNCATED;
  if (len - PSC_ARTIFACT_HEADER_SIZE > size)
    return PSC_FILE_TRAILING_DATA;
  const uint8_t *code = payload + PSC_ARTIFACT_HEADER_SIZE;
  const PscFileReason why = psc_artifact_spirv_check (code, size, stage);
  if (why != PSC_FILE_OK)
    return why;
  memcpy (out->key, payload + ART_OFF_KEY, PSC_ARTIFACT_KEY_SIZE);
  out->stage = stage;
  out->source_len = psc_le32 (payload + ART_OFF_SOURCE_LEN);
  out->last_used = psc_le64 (payload + ART_OFF_LAST_USED);
  out->spirv = code;
  out->spirv_size = size;
  return PSC_FILE_OK;
}

size_t
psc_artifact_record_write (uint8_t *out, const PscArtifactRecord *rec)
{
  if (rec->spirv == NULL || psc_artifact_spirv_check (rec->spirv, rec->spirv_size, rec->stage)
                              != PSC_FILE_OK)
    return 0;
  memcpy (out + ART_OFF_KEY, rec->key, PSC_ARTIFACT_KEY_SIZE);
  psc_put_le32 (out + ART_OFF_STAGE, rec->stage);
  psc_put_le32 (out + ART_OFF_SOURCE_LEN, rec->source_len);
  psc_put_le64 (out + ART_OFF_LAST_USED, rec->last_used);
  psc_put_le32 (out + ART_OFF_SPIRV_SIZE, rec->spirv_size);
  psc_put_le32 (out + ART_OFF_RESERVED, 0);
  memcpy (out + PSC_ARTIFACT_HEADER_SIZE, rec->spirv, rec->spirv_size);
  return psc_artifact_record_size (rec->spirv_size);
}

PscFileReason
psc_artifact_used_parse (const uint8_t *payload, size_t len, uint8_t key[PSC_ARTIFACT_KEY_SIZE],
                         uint64_t *last_used)
{
  if (len < PSC_ARTIFACT_USED_SIZE)
    return PSC_FILE_TRUNCATED;
  if (len > PSC_ARTIFACT_USED_SIZE)
    return PSC_FILE_TRAILING_DATA;
  memcpy (key, payload + USED_OFF_KEY, PSC_ARTIFACT_KEY_SIZE);
  *last_used = psc_le64 (payload + USED_OFF_LAST_USED);
  return PSC_FILE_OK;
}

void
psc_artifact_used_write (uint8_t out[PSC_ARTIFACT_USED_SIZE],
                         const uint8_t key[PSC_ARTIFACT_KEY_SIZE], uint64_t last_used)
{
  memcpy (out + USED_OFF_KEY, key, PSC_ARTIFACT_KEY_SIZE);
  psc_put_le64 (out + USED_OFF_LAST_USED, last_used);
}
