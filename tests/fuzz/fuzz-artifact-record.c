/* fuzz-artifact-record.c: libFuzzer target for the SPIR-V artifact records
 * (core/formats/artifact-record.c, persistent layer 2; DESIGN decision 14).
 * Also built without libFuzzer and driven over the checked-in corpus by
 * corpus-main.c (unit suite).
 *
 * Input: byte 0 selects the mode, the rest is the data. Mode & 3:
 *   0: the data is a SPIRV record's payload;
 *   1: the data is a USED record's payload;
 *   2: the data is the records of an artifact log: a valid log header is
 *      put before it, and every 8-aligned record magic gets a correct
 *      header check and, when its length fits, a correct payload check, so
 *      mutations reach the payload parsers; each record is then read as the
 *      store reads it (by its type);
 *   3: the data is SPIR-V code, checked for stage 1 << (mode >> 2) % 14.
 * Everything is parsed from a heap copy of exactly its size.
 *
 * Besides not crashing, every result must keep the contract of
 * artifact-record.h: only the documented reasons; a parsed record lies
 * inside its payload with a valid stage and code, and writes back into
 * exactly the bytes it was read from; anything else aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/artifact-record.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

static void
check_spirv (const uint8_t *code, size_t size, uint32_t stage)
{
  const PscFileReason why = psc_artifact_spirv_check (code, size, stage);
  CHECK (why == PSC_FILE_OK || why == PSC_FILE_BAD_HEADER || why == PSC_FILE_OVERSIZED
         || why == PSC_FILE_BAD_MAGIC || why == PSC_FILE_BAD_RECORD);
  if (why == PSC_FILE_OK)
    {
      uint32_t magic;
      memcpy (&magic, code, 4);
      CHECK (size % 4 == 0 && size >= PSC_ARTIFACT_MIN_SPIRV && magic == PSC_SPIRV_MAGIC);
      CHECK (psc_artifact_stage_valid (stage));
    }
}

static void
parse_spirv_payload (const uint8_t *p, size_t len)
{
  PscArtifactRecord rec;
  memset (&rec, 0xa5, sizeof rec);
  const PscFileReason why = psc_artifact_record_parse (p, len, &rec);
  CHECK (why == PSC_FILE_OK || why == PSC_FILE_TRUNCATED || why == PSC_FILE_BAD_HEADER
         || why == PSC_FILE_OVERSIZED || why == PSC_FILE_TRAILING_DATA
         || why == PSC_FILE_BAD_MAGIC || why == PSC_FILE_BAD_RECORD);
  if (why != PSC_FILE_OK)
    return;
  CHECK (len == psc_artifact_record_size (rec.spirv_size));
  CHECK (rec.spirv == p + PSC_ARTIFACT_HEADER_SIZE);
  CHECK (psc_artifact_stage_valid (rec.stage));
  CHECK (psc_artifact_spirv_check (rec.spirv, rec.spirv_size, rec.stage) == PSC_FILE_OK);
  CHECK (memcmp (rec.key, p, PSC_ARTIFACT_KEY_SIZE) == 0);
  uint8_t *again = malloc (len);
  CHECK (again != NULL);
  CHECK (psc_artifact_record_write (again, &rec) == len);
  CHECK (memcmp (again, p, len) == 0);
  free (again);
}

static void
parse_used_payload (const uint8_t *p, size_t len)
{
  uint8_t key[PSC_ARTIFACT_KEY_SIZE];
  uint64_t stamp = 0;
  const PscFileReason why = psc_artifact_used_parse (p, len, key, &stamp);
  CHECK (why == PSC_FILE_OK || why == PSC_FILE_TRUNCATED || why == PSC_FILE_TRAILING_DATA);
  CHECK ((why == PSC_FILE_OK) == (len == PSC_ARTIFACT_USED_SIZE));
  if (why == PSC_FILE_OK)
    {
      uint8_t again[PSC_ARTIFACT_USED_SIZE];
      psc_artifact_used_write (again, key, stamp);
      CHECK (memcmp (again, p, len) == 0);
    }
}

static void
read_log (const uint8_t *data, size_t size)
{
  const size_t len = PSC_LOG_HEADER_SIZE + size;
  uint8_t *d = malloc (len);
  CHECK (d != NULL);
  psc_log_write_header (d, PSC_LOG_KIND_ARTIFACTS);
  memcpy (d + PSC_LOG_HEADER_SIZE, data, size);
  for (size_t at = PSC_LOG_HEADER_SIZE; at + PSC_LOG_RECORD_HEADER_SIZE <= len; at += 8)
    if (psc_le32 (d + at) == PSC_LOG_RECORD_MAGIC)
      {
        psc_put_le32 (d + at + 12, XXH32 (d + at, 12, 0));
        const uint64_t plen = psc_le32 (d + at + 8);
        if (plen <= len - at - PSC_LOG_RECORD_HEADER_SIZE)
          psc_put_le64 (d + at + 16, XXH3_64bits (d + at + PSC_LOG_RECORD_HEADER_SIZE, plen));
      }
  PscLogReader r;
  CHECK (psc_log_reader_init (&r, d, len, PSC_LOG_KIND_ARTIFACTS, 0) == PSC_FILE_OK);
  for (;;)
    {
      PscLogRecord rec;
      const PscLogNext n = psc_log_reader_next (&r, &rec, NULL);
      if (n == PSC_LOG_NEXT_END || n == PSC_LOG_NEXT_TORN)
        break;
      if (n == PSC_LOG_NEXT_SKIPPED)
        continue;
      if (rec.type == PSC_ARTIFACT_RECORD_SPIRV)
        parse_spirv_payload (rec.payload, rec.len);
      else if (rec.type == PSC_ARTIFACT_RECORD_USED)
        parse_used_payload (rec.payload, rec.len);
    }
  free (d);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  const unsigned mode = data[0];
  const size_t len = size - 1;
  uint8_t *d = malloc (len ? len : 1);
  CHECK (d != NULL);
  memcpy (d, data + 1, len);
  switch (mode & 3)
    {
    case 0: parse_spirv_payload (d, len); break;
    case 1: parse_used_payload (d, len); break;
    case 2: read_log (d, len); break;
    default: check_spirv (d, len, 1u << ((mode >> 2) % 14)); break;
    }
  free (d);
  return 0;
}
