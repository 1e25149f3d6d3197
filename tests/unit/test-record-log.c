/* test-record-log.c: the append-only record log (core/formats/record-log.h)
 * without a GPU: the file header's reasons, round trips of many records,
 * torn tails at every length, damaged records skipped or stopping the
 * reader exactly where the header comment says.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/record-log.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define KIND PSC_LOG_KIND_RECIPES
#define RH PSC_LOG_RECORD_HEADER_SIZE

#define assert_reason(got, want)                                                      \
  g_assert_cmpstr (psc_file_reason_name (got), ==, psc_file_reason_name (want))

/* The payload of record i: len bytes derived from i. */
static void
fill_payload (uint8_t *p, size_t len, uint32_t i)
{
  for (size_t b = 0; b < len; b++)
    p[b] = (uint8_t) (i * 131u + b * 7u + (b >> 8));
}

/* A log of `kind` with n records of the given sizes, types 1 + i % 500. */
static GByteArray *
build_log (uint32_t kind, const size_t *sizes, unsigned n)
{
  GByteArray *a = g_byte_array_new ();
  g_byte_array_set_size (a, PSC_LOG_HEADER_SIZE);
  psc_log_write_header (a->data, kind);
  for (unsigned i = 0; i < n; i++)
    {
      uint8_t *payload = g_malloc (sizes[i] + 1);
      fill_payload (payload, sizes[i], i);
      const size_t at = a->len;
      g_byte_array_set_size (a, at + psc_log_record_size (sizes[i]));
      g_assert_cmpuint (psc_log_write_record (a->data + at, (uint16_t) (1 + i % 500), payload, sizes[i]),
                        ==, psc_log_record_size (sizes[i]));
      g_free (payload);
    }
  return a;
}

/* Reads every record of data into `got` (indices by payload check against
 * fill_payload, so a skipped record is known by its absence); returns how
 * the reader ended. Checks every record it returns. */
static PscLogNext
read_all (const uint8_t *data, size_t len, uint32_t max_record, GArray *got, uint64_t *skipped)
{
  PscLogReader r;
  g_assert_cmpint (psc_log_reader_init (&r, data, len, KIND, max_record), ==, PSC_FILE_OK);
  for (;;)
    {
      PscLogRecord rec;
      PscFileReason why = PSC_FILE_STALE;
      const PscLogNext n = psc_log_reader_next (&r, &rec, &why);
      if (n == PSC_LOG_NEXT_SKIPPED)
        {
          assert_reason (why, PSC_FILE_BAD_RECORD);
          continue;
        }
      if (n != PSC_LOG_NEXT_RECORD)
        {
          assert_reason (why, n == PSC_LOG_NEXT_TORN ? PSC_FILE_TORN_TAIL : PSC_FILE_OK);
          g_assert_cmpuint (r.records, ==, got->len);
          if (skipped)
            *skipped = r.skipped;
          return n;
        }
      assert_reason (why, PSC_FILE_OK);
      g_assert_cmpuint (rec.offset % 8, ==, 0);
      g_assert_true (rec.payload == data + rec.offset + RH);
      g_assert_cmpuint (rec.offset + RH + rec.len, <=, len);
      g_array_append_val (got, rec);
    }
}

static void
test_header (void)
{
  uint8_t h[PSC_LOG_HEADER_SIZE];
  psc_log_write_header (h, KIND);
  g_assert_cmpmem (h, 8, PSC_LOG_MAGIC, 8);
  g_assert_cmpuint (psc_le32 (h + 8), ==, PSC_LOG_VERSION);
  g_assert_cmpuint (psc_le32 (h + 12), ==, PSC_LOG_HEADER_SIZE);
  g_assert_cmpuint (psc_le32 (h + 16), ==, KIND);
  g_assert_cmpuint (psc_le32 (h + 20), ==, psc_file_platform ());
  g_assert_cmpuint (psc_le64 (h + 24), ==, XXH3_64bits (h, 24));

  PscLogReader r;
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_OK);
  g_assert_cmpuint (r.pos, ==, PSC_LOG_HEADER_SIZE);
  g_assert_cmpuint (r.max_record, ==, PSC_LOG_MAX_RECORD);
  g_assert_cmpuint (r.kind, ==, KIND);
  PscLogRecord rec;
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);

  /* Empty, then every shorter prefix (exact-size copies). */
  assert_reason (psc_log_reader_init (&r, h, 0, KIND, 0), PSC_FILE_EMPTY);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);
  for (size_t n = 1; n < PSC_LOG_HEADER_SIZE; n++)
    {
      uint8_t *cut = g_memdup2 (h, n);
      assert_reason (psc_log_reader_init (&r, cut, n, KIND, 0), PSC_FILE_TRUNCATED);
      g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);
      g_free (cut);
    }

  /* The other kind is refused as another file. */
  assert_reason (psc_log_reader_init (&r, h, sizeof h, PSC_LOG_KIND_ARTIFACTS, 0), PSC_FILE_BAD_MAGIC);
  psc_log_write_header (h, PSC_LOG_KIND_ARTIFACTS);
  assert_reason (psc_log_reader_init (&r, h, sizeof h, PSC_LOG_KIND_ARTIFACTS, 0), PSC_FILE_OK);
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_BAD_MAGIC);
}

/* Every single-bit flip of the file header gives the reason of its field:
 * magic, version, header size are checked before the checksum. */
static void
test_header_bit_flips (void)
{
  uint8_t h[PSC_LOG_HEADER_SIZE];
  psc_log_write_header (h, KIND);
  for (size_t at = 0; at < PSC_LOG_HEADER_SIZE; at++)
    for (unsigned bit = 0; bit < 8; bit++)
      {
        h[at] ^= (uint8_t) (1u << bit);
        PscFileReason want = PSC_FILE_CHECKSUM;
        if (at < 8)
          want = PSC_FILE_BAD_MAGIC;
        else if (at < 12)
          want = PSC_FILE_FORMAT_VERSION;
        else if (at < 16)
          want = PSC_FILE_BAD_HEADER;
        PscLogReader r;
        assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), want);
        h[at] ^= (uint8_t) (1u << bit);
      }
}

/* Fields after the checksum in the order: platform, then kind (each with a
 * valid checksum). */
static void
test_header_platform_and_kind (void)
{
  uint8_t h[PSC_LOG_HEADER_SIZE];
  PscLogReader r;
  psc_log_write_header (h, KIND);
  psc_put_le32 (h + 20, psc_file_platform () ^ 0x00ff0000u);
  psc_put_le64 (h + 24, XXH3_64bits (h, 24));
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_PLATFORM);
  psc_put_le32 (h + 16, PSC_LOG_FOURCC ('X', 'X', 'X', 'X'));
  psc_put_le64 (h + 24, XXH3_64bits (h, 24));
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_PLATFORM);
  psc_put_le32 (h + 20, psc_file_platform ());
  psc_put_le64 (h + 24, XXH3_64bits (h, 24));
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_BAD_MAGIC);
  psc_put_le32 (h + 8, 2);
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_FORMAT_VERSION);
  psc_put_le32 (h + 8, PSC_LOG_VERSION);
  psc_put_le32 (h + 12, 64);
  psc_put_le64 (h + 24, XXH3_64bits (h, 24));
  assert_reason (psc_log_reader_init (&r, h, sizeof h, KIND, 0), PSC_FILE_BAD_HEADER);
}

static void
test_record_size (void)
{
  g_assert_cmpuint (psc_log_record_size (0), ==, 24);
  g_assert_cmpuint (psc_log_record_size (1), ==, 32);
  g_assert_cmpuint (psc_log_record_size (8), ==, 32);
  g_assert_cmpuint (psc_log_record_size (9), ==, 40);
  g_assert_cmpuint (psc_log_record_size (PSC_LOG_MAX_RECORD), ==, 24 + (size_t) PSC_LOG_MAX_RECORD);

  uint8_t buf[64];
  memset (buf, 0x77, sizeof buf);
  g_assert_cmpuint (psc_log_write_record (buf, 0, "x", 1), ==, 0);   /* type 0 */
  /* Above the bound: refused without reading the payload or writing. */
  static const uint8_t tiny[1];
  g_assert_cmpuint (psc_log_write_record (buf, 1, tiny, (size_t) PSC_LOG_MAX_RECORD + 1), ==, 0);
  for (size_t i = 0; i < sizeof buf; i++)
    g_assert_cmpuint (buf[i], ==, 0x77);
  /* A record of 5 bytes: header, payload, 3 zero bytes of padding. */
  g_assert_cmpuint (psc_log_write_record (buf, 9, "hello", 5), ==, 32);
  g_assert_cmpuint (psc_le32 (buf), ==, PSC_LOG_RECORD_MAGIC);
  g_assert_cmpuint (buf[4] | buf[5] << 8, ==, 9);
  g_assert_cmpuint (buf[6] | buf[7] << 8, ==, 0);
  g_assert_cmpuint (psc_le32 (buf + 8), ==, 5);
  g_assert_cmpuint (psc_le32 (buf + 12), ==, XXH32 (buf, 12, 0));
  g_assert_cmpuint (psc_le64 (buf + 16), ==, XXH3_64bits ("hello", 5));
  g_assert_cmpmem (buf + 24, 5, "hello", 5);
  g_assert_cmpuint (buf[29] | buf[30] | buf[31], ==, 0);
  g_assert_cmpuint (buf[32], ==, 0x77);
  /* An empty payload may be NULL. */
  g_assert_cmpuint (psc_log_write_record (buf, 1, NULL, 0), ==, 24);
}

/* Many records of varied sizes (0..5000 bytes) come back in order. */
static void
test_round_trip (void)
{
  enum { N = 400 };
  size_t sizes[N];
  uint32_t x = 12345;
  for (unsigned i = 0; i < N; i++)
    {
      x = x * 1103515245u + 12345u;
      sizes[i] = i < 10 ? (size_t[]){ 0, 1, 7, 8, 9, 15, 16, 17, 4999, 5000 }[i] : (x >> 8) % 5001;
    }
  GByteArray *log = build_log (KIND, sizes, N);
  GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
  uint64_t skipped = 1;
  g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_END);
  g_assert_cmpuint (skipped, ==, 0);
  g_assert_cmpuint (got->len, ==, N);
  size_t expect_offset = PSC_LOG_HEADER_SIZE;
  for (unsigned i = 0; i < N; i++)
    {
      const PscLogRecord *rec = &g_array_index (got, PscLogRecord, i);
      g_assert_cmpuint (rec->type, ==, 1 + i % 500);
      g_assert_cmpuint (rec->len, ==, sizes[i]);
      g_assert_cmpuint (rec->offset, ==, expect_offset);
      uint8_t *want = g_malloc (sizes[i] + 1);
      fill_payload (want, sizes[i], i);
      g_assert_cmpmem (rec->payload, rec->len, want, sizes[i]);
      g_free (want);
      expect_offset += psc_log_record_size (sizes[i]);
    }
  g_assert_cmpuint (expect_offset, ==, log->len);
  g_array_unref (got);
  g_byte_array_unref (log);
}

/* A 3-record log cut at every length: the records wholly before the cut
 * come back, then END exactly at a record boundary, else TORN; never a
 * partial record. */
static void
test_torn_tail (void)
{
  const size_t sizes[3] = { 5, 0, 40 };
  GByteArray *log = build_log (KIND, sizes, 3);
  size_t ends[4] = { PSC_LOG_HEADER_SIZE };
  for (unsigned i = 0; i < 3; i++)
    ends[i + 1] = ends[i] + psc_log_record_size (sizes[i]);
  g_assert_cmpuint (ends[3], ==, log->len);
  for (size_t n = PSC_LOG_HEADER_SIZE; n <= log->len; n++)
    {
      uint8_t *cut = g_memdup2 (log->data, n);
      unsigned whole = 0;
      while (whole < 3 && ends[whole + 1] <= n)
        whole++;
      GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
      const PscLogNext end = read_all (cut, n, 0, got, NULL);
      g_assert_cmpuint (got->len, ==, whole);
      g_assert_cmpint (end, ==, n == ends[whole] ? PSC_LOG_NEXT_END : PSC_LOG_NEXT_TORN);
      g_array_unref (got);
      g_free (cut);
    }
  g_byte_array_unref (log);
}

/* Every bit flip in the middle record's payload: only that record is
 * skipped; the records after it still come back. */
static void
test_payload_flip_skips (void)
{
  const size_t sizes[3] = { 16, 21, 3 };
  GByteArray *log = build_log (KIND, sizes, 3);
  const size_t mid = PSC_LOG_HEADER_SIZE + psc_log_record_size (16);
  for (size_t at = mid + RH; at < mid + RH + 21; at++)
    for (unsigned bit = 0; bit < 8; bit++)
      {
        log->data[at] ^= (uint8_t) (1u << bit);
        GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
        uint64_t skipped = 0;
        g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_END);
        g_assert_cmpuint (skipped, ==, 1);
        g_assert_cmpuint (got->len, ==, 2);
        g_assert_cmpuint (g_array_index (got, PscLogRecord, 0).len, ==, 16);
        g_assert_cmpuint (g_array_index (got, PscLogRecord, 1).len, ==, 3);
        g_array_unref (got);
        log->data[at] ^= (uint8_t) (1u << bit);
      }
  g_byte_array_unref (log);
}

/* Every bit flip in the middle record's header: bytes 0..15 (magic, type,
 * flags, length, header check) stop the reader there (TORN at that
 * record); bytes 16..23 (the payload check) skip only that record. */
static void
test_header_flip (void)
{
  const size_t sizes[3] = { 16, 21, 3 };
  GByteArray *log = build_log (KIND, sizes, 3);
  const size_t mid = PSC_LOG_HEADER_SIZE + psc_log_record_size (16);
  for (size_t at = mid; at < mid + RH; at++)
    for (unsigned bit = 0; bit < 8; bit++)
      {
        log->data[at] ^= (uint8_t) (1u << bit);
        GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
        uint64_t skipped = 0;
        const PscLogNext end = read_all (log->data, log->len, 0, got, &skipped);
        if (at < mid + 16)
          {
            g_assert_cmpint (end, ==, PSC_LOG_NEXT_TORN);
            g_assert_cmpuint (got->len, ==, 1);
            g_assert_cmpuint (skipped, ==, 0);
          }
        else
          {
            g_assert_cmpint (end, ==, PSC_LOG_NEXT_END);
            g_assert_cmpuint (got->len, ==, 2);
            g_assert_cmpuint (skipped, ==, 1);
          }
        g_array_unref (got);
        log->data[at] ^= (uint8_t) (1u << bit);
      }
  g_byte_array_unref (log);
}

/* Rewrites the header check of the record at p after a field changed. */
static void
reseal (uint8_t *p)
{
  psc_put_le32 (p + 12, XXH32 (p, 12, 0));
}

/* Resealed structural faults: flags non-zero and a length past the end
 * stop the reader; a type of 0 is skipped (its length is trusted). */
static void
test_resealed_faults (void)
{
  const size_t sizes[3] = { 16, 21, 3 };
  GByteArray *log = build_log (KIND, sizes, 3);
  uint8_t *mid = log->data + PSC_LOG_HEADER_SIZE + psc_log_record_size (16);
  GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
  uint64_t skipped = 0;

  mid[6] = 1;   /* flags */
  reseal (mid);
  g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_TORN);
  g_assert_cmpuint (got->len, ==, 1);
  mid[6] = 0;

  g_array_set_size (got, 0);
  psc_put_le32 (mid + 8, 10000);   /* length past the end of the file */
  reseal (mid);
  g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_TORN);
  g_assert_cmpuint (got->len, ==, 1);
  psc_put_le32 (mid + 8, 21);

  g_array_set_size (got, 0);
  mid[4] = mid[5] = 0;   /* type 0 */
  reseal (mid);
  g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_END);
  g_assert_cmpuint (got->len, ==, 2);
  g_assert_cmpuint (skipped, ==, 1);
  g_array_unref (got);
  g_byte_array_unref (log);
}

/* Non-zero padding skips the record, whatever padding byte it is. */
static void
test_padding (void)
{
  const size_t sizes[3] = { 16, 5, 3 };
  GByteArray *log = build_log (KIND, sizes, 3);
  const size_t pad = PSC_LOG_HEADER_SIZE + psc_log_record_size (16) + RH + 5;
  for (size_t at = pad; at < pad + 3; at++)
    {
      log->data[at] = 0x01;
      GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
      uint64_t skipped = 0;
      g_assert_cmpint (read_all (log->data, log->len, 0, got, &skipped), ==, PSC_LOG_NEXT_END);
      g_assert_cmpuint (got->len, ==, 2);
      g_assert_cmpuint (skipped, ==, 1);
      g_assert_cmpuint (g_array_index (got, PscLogRecord, 1).len, ==, 3);
      g_array_unref (got);
      log->data[at] = 0;
    }
  g_byte_array_unref (log);
}

/* The reader's bound: a record above max_record ends the log there. */
static void
test_max_record (void)
{
  const size_t sizes[3] = { 10, 100, 10 };
  GByteArray *log = build_log (KIND, sizes, 3);
  GArray *got = g_array_new (FALSE, FALSE, sizeof (PscLogRecord));
  g_assert_cmpint (read_all (log->data, log->len, 99, got, NULL), ==, PSC_LOG_NEXT_TORN);
  g_assert_cmpuint (got->len, ==, 1);
  g_array_set_size (got, 0);
  g_assert_cmpint (read_all (log->data, log->len, 100, got, NULL), ==, PSC_LOG_NEXT_END);
  g_assert_cmpuint (got->len, ==, 3);

  /* After TORN the reader stays where the tail starts. */
  PscLogReader r;
  PscLogRecord rec;
  PscFileReason why;
  g_assert_cmpint (psc_log_reader_init (&r, log->data, log->len, KIND, 50), ==, PSC_FILE_OK);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, &why), ==, PSC_LOG_NEXT_RECORD);
  const size_t tail = r.pos;
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpint (psc_log_reader_next (&r, &rec, &why), ==, PSC_LOG_NEXT_TORN);
      assert_reason (why, PSC_FILE_TORN_TAIL);
      g_assert_cmpuint (r.pos, ==, tail);
    }
  g_array_unref (got);
  g_byte_array_unref (log);
}

/* A log of the other kind is refused by kind, and reads as its own. */
static void
test_wrong_kind (void)
{
  const size_t sizes[1] = { 8 };
  GByteArray *log = build_log (PSC_LOG_KIND_ARTIFACTS, sizes, 1);
  PscLogReader r;
  assert_reason (psc_log_reader_init (&r, log->data, log->len, KIND, 0), PSC_FILE_BAD_MAGIC);
  PscLogRecord rec;
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);
  assert_reason (psc_log_reader_init (&r, log->data, log->len, PSC_LOG_KIND_ARTIFACTS, 0), PSC_FILE_OK);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_RECORD);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_END);
  g_byte_array_unref (log);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record-log/header", test_header);
  g_test_add_func ("/record-log/header-bit-flips", test_header_bit_flips);
  g_test_add_func ("/record-log/header-platform-and-kind", test_header_platform_and_kind);
  g_test_add_func ("/record-log/record-size", test_record_size);
  g_test_add_func ("/record-log/round-trip", test_round_trip);
  g_test_add_func ("/record-log/torn-tail", test_torn_tail);
  g_test_add_func ("/record-log/payload-flip-skips", test_payload_flip_skips);
  g_test_add_func ("/record-log/header-flip", test_header_flip);
  g_test_add_func ("/record-log/resealed-faults", test_resealed_faults);
  g_test_add_func ("/record-log/padding", test_padding);
  g_test_add_func ("/record-log/max-record", test_max_record);
  g_test_add_func ("/record-log/wrong-kind", test_wrong_kind);
  return g_test_run ();
}
