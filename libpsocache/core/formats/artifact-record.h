/* artifact-record.h: the records of the SPIR-V artifact log (persistent
 * layer 2, seed 003 "Exact-source SPIR-V"): compiled stage bytes keyed by
 * the exact source text, the stage, the key's ABI version, the target
 * environment and the compiler policy. In memory only (key, parse,
 * validate, serialize); no I/O, no core access.
 *
 * The records travel as payloads of a record log of kind
 * PSC_LOG_KIND_ARTIFACTS (record-log.h); the log record's type is the
 * payload's format (a layout change takes a new type):
 *
 *   PSC_ARTIFACT_RECORD_SPIRV (1)          PSC_ARTIFACT_RECORD_USED (2)
 *     0 16 key                               0 16 key
 *    16  4 stage (one VkShaderStageFlagBits) 16  8 last used (stamp)
 *    20  4 source length (informational)
 *    24  8 last used (stamp)
 *    32  4 SPIR-V size in bytes
 *    36  4 reserved, zero
 *    40    SPIR-V words, host byte order, exactly that size
 *
 * A USED record moves an earlier SPIRV record's last-used stamp forward
 * without rewriting its code: an append-only log keeps the LRU order that
 * way, and compaction folds the stamps back into the SPIRV records. The
 * stamp is the writer's (microseconds since the epoch in libpsocache); a
 * reader only compares stamps.
 *
 * Integers are little-endian; the SPIR-V words are in host byte order (the
 * log header's platform field keeps a log on the platform that wrote it).
 * The code starts 40 bytes into the payload, so it is word-aligned
 * wherever the payload is (a log's payloads are 8-aligned).
 *
 * Untrusted input (DESIGN decision 14): every length is bounded and
 * checked before use; each rejection has one reason (docs/file-formats.md,
 * "The artifact records").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "record-log.h"

/* Log record types (the payload formats). */
#define PSC_ARTIFACT_RECORD_SPIRV 1u
#define PSC_ARTIFACT_RECORD_USED  2u

/* The version of the key's derivation and of what an artifact means to
 * this library ("generator ABI"): it enters every key, so a library whose
 * rules change takes a new value and never serves an older artifact. */
#define PSC_ARTIFACT_ABI 1u

#define PSC_ARTIFACT_KEY_SIZE   16u
#define PSC_ARTIFACT_HEADER_SIZE 40u      /* a SPIRV payload before the code */
#define PSC_ARTIFACT_USED_SIZE  24u       /* a USED payload */
#define PSC_SPIRV_MAGIC 0x07230203u
/* The SPIR-V header is five words. */
#define PSC_ARTIFACT_MIN_SPIRV  20u
/* The largest code a record carries: the log's record bound. */
#define PSC_ARTIFACT_MAX_SPIRV  (PSC_LOG_MAX_RECORD - PSC_ARTIFACT_HEADER_SIZE)

/* The bounds of an artifact store (documented in docs/persistence.md):
 * records, and bytes of log records (psc_artifact_log_size). */
#define PSC_ARTIFACT_MAX_RECORDS 4096u
#define PSC_ARTIFACT_MAX_BYTES   ((uint64_t) 64 << 20)

/* A SPIRV record, parsed: pointers into the payload. */
typedef struct {
  uint8_t key[PSC_ARTIFACT_KEY_SIZE];
  uint32_t stage;
  uint32_t source_len;
  uint64_t last_used;
  const uint8_t *spirv;      /* spirv_size bytes; 4-aligned when the payload is */
  uint32_t spirv_size;
} PscArtifactRecord;

/* The key (XXH3-128, canonical big-endian bytes) of an artifact: computed
 * over PSC_ARTIFACT_ABI, the stage, then the target environment, the
 * policy and the source, each preceded by its length as 8 bytes, so no two
 * different tuples share an encoding ("ab" + "c" is not "a" + "bc"). The
 * strings are bytes (no terminator is read); NULL with length 0 is "". */
PSC_INTERNAL void psc_artifact_key (const void *source, size_t source_len, uint32_t stage,
                                    const char *target_env, size_t target_env_len,
                                    const char *policy, size_t policy_len,
                                    uint8_t key[PSC_ARTIFACT_KEY_SIZE]);

/* Whether stage is exactly one of Vulkan's shader stage bits that has a
 * SPIR-V execution model: vertex, tessellation control and evaluation,
 * geometry, fragment, compute, task, mesh, and the six ray-tracing
 * stages (0x1 .. 0x2000). */
PSC_INTERNAL bool psc_artifact_stage_valid (uint32_t stage);

/* Checks code as a stage's SPIR-V, in this order: size not a multiple of 4
 * or below 20 bytes -> PSC_FILE_BAD_HEADER; above PSC_ARTIFACT_MAX_SPIRV ->
 * PSC_FILE_OVERSIZED; first word (host order) not PSC_SPIRV_MAGIC ->
 * PSC_FILE_BAD_MAGIC; an instruction of word count 0 or past the end, or
 * no OpEntryPoint whose execution model is the stage's -> PSC_FILE_BAD_RECORD.
 * An invalid stage is PSC_FILE_BAD_HEADER. code need not be aligned. */
PSC_INTERNAL PscFileReason psc_artifact_spirv_check (const void *code, size_t size, uint32_t stage);

/* Parses and validates a SPIRV payload, in this order: shorter than 40
 * bytes -> PSC_FILE_TRUNCATED; a stage that psc_artifact_stage_valid
 * refuses, or the reserved word not zero -> PSC_FILE_BAD_HEADER; SPIR-V
 * size above PSC_ARTIFACT_MAX_SPIRV -> PSC_FILE_OVERSIZED; 40 + size above
 * len -> PSC_FILE_TRUNCATED, below -> PSC_FILE_TRAILING_DATA; then
 * psc_artifact_spirv_check. *out is set only on PSC_FILE_OK. */
PSC_INTERNAL PscFileReason psc_artifact_record_parse (const uint8_t *payload, size_t len,
                                                      PscArtifactRecord *out);
/* The payload size of a SPIRV record with spirv_size bytes of code. */
PSC_INTERNAL size_t psc_artifact_record_size (uint32_t spirv_size);
/* The bytes the record takes in a log (record header, payload, padding). */
PSC_INTERNAL size_t psc_artifact_log_size (uint32_t spirv_size);
/* Writes rec's payload (psc_artifact_record_size bytes) at out, from
 * rec->spirv. Returns the bytes written, or 0 (nothing written) when rec
 * would not parse back: psc_artifact_record_parse's rules. */
PSC_INTERNAL size_t psc_artifact_record_write (uint8_t *out, const PscArtifactRecord *rec);

/* A USED payload: exactly 24 bytes, else PSC_FILE_TRUNCATED (shorter) or
 * PSC_FILE_TRAILING_DATA (longer). */
PSC_INTERNAL PscFileReason psc_artifact_used_parse (const uint8_t *payload, size_t len,
                                                    uint8_t key[PSC_ARTIFACT_KEY_SIZE],
                                                    uint64_t *last_used);
PSC_INTERNAL void psc_artifact_used_write (uint8_t out[PSC_ARTIFACT_USED_SIZE],
                                           const uint8_t key[PSC_ARTIFACT_KEY_SIZE],
                                           uint64_t last_used);
