/* fuzz-spirv.c: libFuzzer target for the SPIR-V specialization-constant
 * parser (core/spirv.c, DESIGN decision 14). Also built without libFuzzer
 * and driven over the checked-in corpus by corpus-main.c (unit suite).
 *
 * Input: byte 0 selects the mode; bit 0 clear: the rest is the whole
 * module; set: a valid header (bound 4096) is put before the rest, so
 * mutations spend their time on instructions. The module is parsed from a
 * heap copy of exactly its size (ASan sees any read past the end).
 *
 * Besides not crashing, every result must keep the parser's contract
 * (spirv.h); anything else aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "spirv.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

/* A refusal: no table, a status the contract lists, a path the contract
 * lists (a word offset inside the code), the message "<path>: ...". */
static void
check_refusal (PscStatus st, const PscSpecConstant *out, uint32_t count,
               const PscCoreError *err, size_t words)
{
  CHECK (out == NULL && count == 0);
  CHECK (st == PSC_STATUS_INVALID_ARGUMENT || st == PSC_STATUS_FAILED);
  CHECK (err->status == st);
  const size_t plen = strlen (err->path);
  CHECK (strncmp (err->message, err->path, plen) == 0 && strncmp (err->message + plen, ": ", 2) == 0);
  if (strncmp (err->path, "pCode[", 6) == 0)
    {
      char *end;
      unsigned long long at = strtoull (err->path + 6, &end, 10);
      CHECK (end[0] == ']' && end[1] == '\0' && at < words);
    }
  else
    CHECK (strcmp (err->path, "pCode") == 0 || strcmp (err->path, "codeSize") == 0
           || (st == PSC_STATUS_FAILED && err->path[0] == '\0'));
}

/* A table: sorted by strictly increasing ID, sizes of a scalar type, no
 * more entries than the code has room for OpDecorate SpecId (4 words). */
static void
check_table (const PscSpecConstant *out, uint32_t count, size_t words)
{
  CHECK ((count == 0) == (out == NULL));
  CHECK (count <= words / 4);
  for (uint32_t i = 0; i < count; i++)
    {
      const uint32_t s = out[i].size;
      CHECK (s == 1 || s == 2 || s == 4 || s == 8);
      CHECK (i == 0 || out[i - 1].constant_id < out[i].constant_id);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  const int with_header = data[0] & 1;
  data++;
  size--;
  const size_t header = with_header ? 20 : 0;
  const size_t total = header + size;
  uint32_t *code = malloc (total ? total : 1);
  CHECK (code != NULL);
  if (with_header)
    {
      const uint32_t h[5] = { PSC_SPIRV_MAGIC, 0x00010000, 0, 4096, 0 };
      memcpy (code, h, sizeof h);
    }
  memcpy ((uint8_t *) code + header, data, size);

  PscSpecConstant *out = NULL;
  uint32_t count = 0;
  PscCoreError err;
  memset (&err, 0, sizeof err);
  const PscStatus st = psc_spirv_spec_constants (code, total, &out, &count, &err);
  if (st == PSC_STATUS_OK)
    check_table (out, count, total / 4);
  else
    check_refusal (st, out, count, &err, total / 4);

  /* The same answer again, without an error struct. */
  PscSpecConstant *again = NULL;
  uint32_t again_count = 0;
  CHECK (psc_spirv_spec_constants (code, total, &again, &again_count, NULL) == st);
  CHECK (again_count == count);
  CHECK (count == 0 || memcmp (again, out, count * sizeof *out) == 0);
  free (again);
  free (out);
  free (code);
  return 0;
}
