/* record-log.c: the append-only record log, parsed, validated and
 * serialized in memory (contract and layout in record-log.h).
 *
 * The reader never trusts a length before the record header that carries
 * it passed its own check, and never reads past the end of the data: a
 * record must fit in the bytes present, padding included.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "record-log.h"

#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* File header offsets. */
enum {
  LOG_OFF_MAGIC = 0,
  LOG_OFF_VERSION = 8,
  LOG_OFF_HEADER_SIZE = 12,
  LOG_OFF_KIND = 16,
  LOG_OFF_PLATFORM = 20,
  LOG_OFF_CHECKSUM = 24,
};
_Static_assert (LOG_OFF_CHECKSUM + 8 == PSC_LOG_HEADER_SIZE, "log header layout");

/* Record header offsets. */
enum {
  REC_OFF_MAGIC = 0,
  REC_OFF_TYPE = 4,
  REC_OFF_FLAGS = 6,
  REC_OFF_LEN = 8,
  REC_OFF_HEADER_CHECK = 12,
  REC_OFF_PAYLOAD_CHECK = 16,
};
_Static_assert (REC_OFF_PAYLOAD_CHECK + 8 == PSC_LOG_RECORD_HEADER_SIZE, "record header layout");

static uint16_t
le16 (const uint8_t *p)
{
  return (uint16_t) (p[0] | p[1] << 8);
}

static void
put_le16 (uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t) v;
  p[1] = (uint8_t) (v >> 8);
}

void
psc_log_write_header (uint8_t out[PSC_LOG_HEADER_SIZE], uint32_t kind)
{
  memcpy (out + LOG_OFF_MAGIC, PSC_LOG_MAGIC, 8);
  psc_put_le32 (out + LOG_OFF_VERSION, PSC_LOG_VERSION);
  psc_put_le32 (out + LOG_OFF_HEADER_SIZE, PSC_LOG_HEADER_SIZE);
  psc_put_le32 (out + LOG_OFF_KIND, kind);
  psc_put_le32 (out + LOG_OFF_PLATFORM, psc_file_platform ());
  psc_put_le64 (out + LOG_OFF_CHECKSUM, XXH3_64bits (out, LOG_OFF_CHECKSUM));
}

size_t
psc_log_record_size (size_t payload_len)
{
  return PSC_LOG_RECORD_HEADER_SIZE + ((payload_len + 7) & ~(size_t) 7);
}

size_t
psc_log_write_record (uint8_t *out, uint16_t type, const void *payload, size_t len)
{
  if (type == 0 || len > PSC_LOG_MAX_RECORD)
    return 0;
  const size_t size = psc_log_record_size (len);
  psc_put_le32 (out + REC_OFF_MAGIC, PSC_LOG_RECORD_MAGIC);
  put_le16 (out + REC_OFF_TYPE, type);
  put_le16 (out + REC_OFF_FLAGS, 0);
  psc_put_le32 (out + REC_OFF_LEN, (uint32_t) len);
  psc_put_le32 (out + REC_OFF_HEADER_CHECK, XXH32 (out, REC_OFF_HEADER_CHECK, 0));
  psc_put_le64 (out + REC_OFF_PAYLOAD_CHECK, XXH3_64bits (payload, len));
  uint8_t *body = out + PSC_LOG_RECORD_HEADER_SIZE;
  if (len > 0)
    memcpy (body, payload, len);
  memset (body + len, 0, size - PSC_LOG_RECORD_HEADER_SIZE - len);
  return size;
}

/* The file header's checks, in the order of record-log.h. */
static PscFileReason
check_file_header (const uint8_t *data, size_t len, uint32_t expected_kind)
{
  if (len == 0)
    return PSC_FILE_EMPTY;
  if (len < PSC_LOG_HEADER_SIZE)
    return PSC_FILE_TRUNCATED;
  if (memcmp (data + LOG_OFF_MAGIC, PSC_LOG_MAGIC, 8) != 0)
    return PSC_FILE_BAD_MAGIC;
  if (psc_le32 (data + LOG_OFF_VERSION) != PSC_LOG_VERSION)
    return PSC_FILE_FORMAT_VERSION;
  if (psc_le32 (data + LOG_OFF_HEADER_SIZE) != PSC_LOG_HEADER_SIZE)
    return PSC_FILE_BAD_HEADER;
  if (XXH3_64bits (data, LOG_OFF_CHECKSUM) != psc_le64 (data + LOG_OFF_CHECKSUM))
    return PSC_FILE_CHECKSUM;
  if (psc_le32 (data + LOG_OFF_PLATFORM) != psc_file_platform ())
    return PSC_FILE_PLATFORM;
  if (psc_le32 (data + LOG_OFF_KIND) != expected_kind)
    return PSC_FILE_BAD_MAGIC;
  return PSC_FILE_OK;
}

PscFileReason
psc_log_reader_init (PscLogReader *r, const uint8_t *data, size_t len,
                     uint32_t expected_kind, uint32_t max_record)
{
  memset (r, 0, sizeof *r);
  r->max_record = max_record ? max_record : PSC_LOG_MAX_RECORD;
  const PscFileReason why = check_file_header (data, len, expected_kind);
  if (why != PSC_FILE_OK)
    return why;   /* an empty reader: psc_log_reader_next says END */
  r->data = data;
  r->len = len;
  r->pos = PSC_LOG_HEADER_SIZE;
  r->kind = expected_kind;
  return PSC_FILE_OK;
}

/* Whether a valid record header starts at p with `avail` bytes from p to
 * the end of the data; if so, its payload length and whole size. */
static bool
record_header_valid (const uint8_t *p, size_t avail, uint32_t max_record,
                     uint32_t *len, size_t *size)
{
  if (avail < PSC_LOG_RECORD_HEADER_SIZE)
    return false;
  if (psc_le32 (p + REC_OFF_MAGIC) != PSC_LOG_RECORD_MAGIC || le16 (p + REC_OFF_FLAGS) != 0
      || XXH32 (p, REC_OFF_HEADER_CHECK, 0) != psc_le32 (p + REC_OFF_HEADER_CHECK))
    return false;
  *len = psc_le32 (p + REC_OFF_LEN);
  if (*len > max_record)
    return false;
  /* In 64 bits: a 32-bit size_t cannot overflow here either. */
  const uint64_t need = PSC_LOG_RECORD_HEADER_SIZE + (((uint64_t) *len + 7) & ~(uint64_t) 7);
  if (need > avail)
    return false;
  *size = (size_t) need;
  return true;
}

/* Whether a record whose header is valid has a good body: type > 0, the
 * payload check, zero padding. */
static bool
record_body_valid (const uint8_t *p, uint32_t len, size_t size)
{
  if (le16 (p + REC_OFF_TYPE) == 0)
    return false;
  const uint8_t *payload = p + PSC_LOG_RECORD_HEADER_SIZE;
  if (XXH3_64bits (payload, len) != psc_le64 (p + REC_OFF_PAYLOAD_CHECK))
    return false;
  for (size_t i = PSC_LOG_RECORD_HEADER_SIZE + len; i < size; i++)
    if (p[i] != 0)
      return false;
  return true;
}

PscLogNext
psc_log_reader_next (PscLogReader *r, PscLogRecord *rec, PscFileReason *why)
{
  PscFileReason unused;
  if (why == NULL)
    why = &unused;
  *why = PSC_FILE_OK;
  if (r->pos >= r->len)
    return PSC_LOG_NEXT_END;
  const uint8_t *p = r->data + r->pos;
  uint32_t len = 0;
  size_t size = 0;
  if (!record_header_valid (p, r->len - r->pos, r->max_record, &len, &size))
    {
      *why = PSC_FILE_TORN_TAIL;
      return PSC_LOG_NEXT_TORN;   /* r->pos stays: every later call says the same */
    }
  const size_t at = r->pos;
  r->pos += size;
  if (!record_body_valid (p, len, size))
    {
      r->skipped++;
      *why = PSC_FILE_BAD_RECORD;
      return PSC_LOG_NEXT_SKIPPED;
    }
  rec->type = le16 (p + REC_OFF_TYPE);
  rec->payload = p + PSC_LOG_RECORD_HEADER_SIZE;
  rec->len = len;
  rec->offset = at;
  r->records++;
  return PSC_LOG_NEXT_RECORD;
}
