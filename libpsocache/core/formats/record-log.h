/* record-log.h: the append-only record log shared by the recipe and the
 * artifact files (persistent layers 2 and 3, seed 003). In memory only
 * (parse, validate, serialize); no I/O.
 *
 * A log that grows as pipelines are created: the I/O layer appends records
 * to it, and now and then compacts it by atomic replace. Every record
 * carries its own checksums, so a torn tail (a process killed mid-append)
 * costs only the record being written, and a damaged record is skipped
 * without losing the ones after it.
 *
 * Layout (little-endian; documented in docs/file-formats.md):
 *
 *   file header, 32 bytes
 *        0    8 magic "PSCLOG\r\n"
 *        8    4 format version (PSC_LOG_VERSION)
 *       12    4 header size (PSC_LOG_HEADER_SIZE)
 *       16    4 kind (a fourcc: PSC_LOG_KIND_RECIPES, PSC_LOG_KIND_ARTIFACTS)
 *       20    4 platform (psc_file_platform ())
 *       24    8 checksum: XXH3-64 of bytes 0..23
 *   then records, each starting on a multiple of 8:
 *        0    4 record magic PSC_LOG_RECORD_MAGIC
 *        4    2 type (the kind's own numbering, > 0)
 *        6    2 flags, zero
 *        8    4 payload length (<= the reader's max_record)
 *       12    4 header check: XXH32 (seed 0) of record bytes 0..11
 *       16    8 payload check: XXH3-64 of the payload
 *       24      payload, then zero padding to a multiple of 8
 *
 * A reader stops at the first record whose header is not valid (magic,
 * flags, header check, length within bounds and within the file): that is
 * the torn tail. A record whose header is valid but whose payload check
 * fails (or whose padding is not zero, or whose type is 0) is skipped: its
 * length is trusted because the header check passed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "file-reason.h"

#define PSC_LOG_MAGIC "PSCLOG\r\n"
#define PSC_LOG_VERSION 1u
#define PSC_LOG_HEADER_SIZE 32u
#define PSC_LOG_RECORD_HEADER_SIZE 24u
#define PSC_LOG_RECORD_MAGIC 0x44435250u     /* "PRCD" little-endian */
#define PSC_LOG_FOURCC(a, b, c, d) \
  ((uint32_t) (a) | (uint32_t) (b) << 8 | (uint32_t) (c) << 16 | (uint32_t) (d) << 24)
#define PSC_LOG_KIND_RECIPES PSC_LOG_FOURCC ('R', 'C', 'P', 'E')
#define PSC_LOG_KIND_ARTIFACTS PSC_LOG_FOURCC ('A', 'R', 'T', 'F')
/* The largest payload any writer produces and the default reader bound. */
#define PSC_LOG_MAX_RECORD ((uint32_t) 16 << 20)

/* Writes the 32-byte file header for `kind`. */
PSC_INTERNAL void psc_log_write_header (uint8_t out[PSC_LOG_HEADER_SIZE], uint32_t kind);
/* Bytes a record of payload_len takes (header + payload + padding), for
 * payload_len <= PSC_LOG_MAX_RECORD. */
PSC_INTERNAL size_t psc_log_record_size (size_t payload_len);
/* Writes one record (psc_log_record_size (len) bytes) at out; type > 0,
 * len <= PSC_LOG_MAX_RECORD (else returns 0 and writes nothing). Returns
 * the bytes written. */
PSC_INTERNAL size_t psc_log_write_record (uint8_t *out, uint16_t type,
                                          const void *payload, size_t len);

typedef struct {
  const uint8_t *data;
  size_t len;
  size_t pos;              /* where the next record starts */
  uint32_t max_record;     /* payload bound (0 at init means PSC_LOG_MAX_RECORD) */
  uint32_t kind;
  uint64_t records, skipped;   /* records returned / skipped so far */
} PscLogReader;

typedef struct {
  uint16_t type;
  const uint8_t *payload;  /* points into the reader's data */
  uint32_t len;
  size_t offset;           /* of the record header in the file */
} PscLogRecord;

typedef enum {
  PSC_LOG_NEXT_RECORD,     /* *rec is a valid record */
  PSC_LOG_NEXT_SKIPPED,    /* a damaged record was skipped (*why: PSC_FILE_BAD_RECORD); call again */
  PSC_LOG_NEXT_END,        /* clean end of the log */
  PSC_LOG_NEXT_TORN,       /* the rest of the file (from r->pos) is not a record: stop (*why: PSC_FILE_TORN_TAIL) */
} PscLogNext;

/* Checks the file header, in this order: empty, truncated (shorter than
 * the header), bad magic, format version, header size (PSC_FILE_BAD_HEADER),
 * checksum -> PSC_FILE_CHECKSUM, platform, kind other than expected_kind
 * -> PSC_FILE_BAD_MAGIC; and positions the reader on the first record. On
 * any failure the reader is empty (psc_log_reader_next says END). max_record
 * 0 means PSC_LOG_MAX_RECORD. */
PSC_INTERNAL PscFileReason psc_log_reader_init (PscLogReader *r, const uint8_t *data, size_t len,
                                                uint32_t expected_kind, uint32_t max_record);
/* The next record. *rec is set only for PSC_LOG_NEXT_RECORD; *why (may be
 * NULL) is PSC_FILE_OK for RECORD and END. After TORN, r->pos stays where
 * the tail starts and every later call says TORN again. */
PSC_INTERNAL PscLogNext psc_log_reader_next (PscLogReader *r, PscLogRecord *rec,
                                             PscFileReason *why);
