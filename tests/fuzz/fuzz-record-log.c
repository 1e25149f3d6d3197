/* fuzz-record-log.c: libFuzzer target for the record log reader
 * (core/formats/record-log.c, DESIGN decision 14). Also built without
 * libFuzzer and driven over the checked-in corpus by corpus-main.c (unit
 * suite).
 *
 * Input: byte 0 selects the mode, the rest is the log. Mode bit 0: a valid
 * file header is put before the rest (of kind ARTIFACTS when bit 1 is set,
 * else RECIPES), so mutations spend their time on records; bit 2: every
 * 8-aligned record magic after the header gets a correct header check
 * (so lengths, types and flags can be mutated past it); bits 3-7: the
 * reader's max_record in units of 16 bytes (0: the default). The log is
 * parsed from a heap copy of exactly its size.
 *
 * The log is read as both kinds, every record to the end. Besides not
 * crashing, every step must keep the reader's contract (record-log.h), and
 * the records read must write back into a log that reads as exactly those
 * records with nothing skipped; anything else aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/record-log.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

/* The input as a log (a heap copy of exactly its size). */
static uint8_t *
make_log (const uint8_t *data, size_t size, unsigned mode, size_t *len)
{
  const size_t header = (mode & 1) ? PSC_LOG_HEADER_SIZE : 0;
  *len = header + size;
  uint8_t *d = malloc (*len ? *len : 1);
  CHECK (d != NULL);
  if (header)
    psc_log_write_header (d, (mode & 2) ? PSC_LOG_KIND_ARTIFACTS : PSC_LOG_KIND_RECIPES);
  memcpy (d + header, data, size);
  if (mode & 4)
    for (size_t at = PSC_LOG_HEADER_SIZE; at + PSC_LOG_RECORD_HEADER_SIZE <= *len; at += 8)
      if (psc_le32 (d + at) == PSC_LOG_RECORD_MAGIC)
        psc_put_le32 (d + at + 12, XXH32 (d + at, 12, 0));
  return d;
}

/* One step's contract; returns false at the end (END or TORN). len is the
 * data's, or 0 for a reader whose init failed (an empty reader). */
static bool
checked_next (PscLogReader *r, PscLogRecord *rec, const uint8_t *d, size_t len)
{
  const size_t before = r->pos;
  const uint64_t records = r->records, skipped = r->skipped;
  PscFileReason why = PSC_FILE_STALE;
  const PscLogNext n = psc_log_reader_next (r, rec, &why);
  switch (n)
    {
    case PSC_LOG_NEXT_RECORD:
      CHECK (why == PSC_FILE_OK && r->records == records + 1 && r->skipped == skipped);
      CHECK (rec->offset == before && rec->offset % 8 == 0 && rec->offset >= PSC_LOG_HEADER_SIZE);
      CHECK (rec->payload == d + rec->offset + PSC_LOG_RECORD_HEADER_SIZE);
      CHECK (rec->type > 0 && rec->len <= r->max_record);
      CHECK (r->pos == before + psc_log_record_size (rec->len) && r->pos <= len);
      return true;
    case PSC_LOG_NEXT_SKIPPED:
      CHECK (why == PSC_FILE_BAD_RECORD && r->skipped == skipped + 1 && r->records == records);
      CHECK (r->pos >= before + PSC_LOG_RECORD_HEADER_SIZE && r->pos <= len && r->pos % 8 == 0);
      return true;
    case PSC_LOG_NEXT_END:
      CHECK (why == PSC_FILE_OK && r->pos == before && r->pos == r->len);
      return false;
    case PSC_LOG_NEXT_TORN:
      CHECK (why == PSC_FILE_TORN_TAIL && r->pos == before && r->pos < len);
      CHECK (psc_log_reader_next (r, rec, NULL) == PSC_LOG_NEXT_TORN && r->pos == before);
      return false;
    }
  CHECK (0);
  return false;
}

/* The records, written again as a log of `kind`, read back as themselves. */
static void
rewrite (const PscLogRecord *recs, size_t n, uint32_t kind, uint32_t max_record)
{
  size_t len = PSC_LOG_HEADER_SIZE;
  for (size_t i = 0; i < n; i++)
    len += psc_log_record_size (recs[i].len);
  uint8_t *log = malloc (len);
  CHECK (log != NULL);
  psc_log_write_header (log, kind);
  size_t at = PSC_LOG_HEADER_SIZE;
  for (size_t i = 0; i < n; i++)
    at += psc_log_write_record (log + at, recs[i].type, recs[i].payload, recs[i].len);
  CHECK (at == len);
  PscLogReader r;
  CHECK (psc_log_reader_init (&r, log, len, kind, max_record) == PSC_FILE_OK);
  PscLogRecord rec;
  for (size_t i = 0; i < n; i++)
    {
      CHECK (psc_log_reader_next (&r, &rec, NULL) == PSC_LOG_NEXT_RECORD);
      CHECK (rec.type == recs[i].type && rec.len == recs[i].len);
      CHECK (memcmp (rec.payload, recs[i].payload, rec.len) == 0);
    }
  CHECK (psc_log_reader_next (&r, &rec, NULL) == PSC_LOG_NEXT_END && r.skipped == 0);
  free (log);
}

static void
read_as (const uint8_t *d, size_t len, uint32_t kind, uint32_t max_record)
{
  PscLogReader r;
  const PscFileReason why = psc_log_reader_init (&r, d, len, kind, max_record);
  CHECK (why == PSC_FILE_OK || why == PSC_FILE_EMPTY || why == PSC_FILE_TRUNCATED
         || why == PSC_FILE_BAD_MAGIC || why == PSC_FILE_FORMAT_VERSION
         || why == PSC_FILE_BAD_HEADER || why == PSC_FILE_CHECKSUM || why == PSC_FILE_PLATFORM);
  CHECK (r.max_record == (max_record ? max_record : PSC_LOG_MAX_RECORD));
  CHECK (why == PSC_FILE_OK ? (r.len == len && r.pos == PSC_LOG_HEADER_SIZE) : (r.len == 0 && r.pos == 0));
  const size_t rlen = r.len;
  PscLogRecord *recs = malloc ((len / PSC_LOG_RECORD_HEADER_SIZE + 1) * sizeof *recs);
  CHECK (recs != NULL);
  size_t n = 0, steps = 0;
  PscLogRecord rec;
  while (checked_next (&r, &rec, d, rlen))
    {
      CHECK (++steps <= rlen / PSC_LOG_RECORD_HEADER_SIZE);
      if (r.records > n)
        recs[n++] = rec;
    }
  CHECK (why == PSC_FILE_OK || (n == 0 && r.skipped == 0 && r.pos == 0));
  if (why == PSC_FILE_OK)
    rewrite (recs, n, kind, max_record);
  free (recs);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  const unsigned mode = data[0];
  size_t len;
  uint8_t *d = make_log (data + 1, size - 1, mode, &len);
  const uint32_t max_record = (mode >> 3) * 16u;
  read_as (d, len, PSC_LOG_KIND_RECIPES, max_record);
  read_as (d, len, PSC_LOG_KIND_ARTIFACTS, max_record);
  free (d);
  return 0;
}
