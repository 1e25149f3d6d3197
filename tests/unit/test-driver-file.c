/* test-driver-file.c: the driver pipeline-cache file format
 * (core/formats/driver-file.h) and the reason names (file-reason.h),
 * without a GPU: round trips stored and compressed, and every reason the
 * reader gives, each from a crafted file. Where the reason comes after the
 * checksum in the reader's order, the test recomputes the checksum so that
 * exactly that reason is reached.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <zstd.h>

#include "psc-core.h"
#include "formats/driver-file.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#if defined(__SANITIZE_ADDRESS__)
#define PSC_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PSC_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef PSC_TEST_UNDER_ASAN
#define PSC_TEST_UNDER_ASAN 0
#endif

#define HDR PSC_DRIVER_FILE_HEADER_SIZE
#define MAX_RAW PSC_DRIVER_FILE_DEFAULT_MAX_RAW

static const PscDeviceIdentity test_id = {
  .vendor_id = 0x10de, .device_id = 0x2335, .driver_version = 0x91000000u,
  .uuid = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
            0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
};

/* A VkPipelineCache blob of len >= 32 bytes for id: its header, then bytes
 * that compress (a repeating pattern with a counter). */
static uint8_t *
make_blob (const PscDeviceIdentity *id, size_t len)
{
  g_assert_cmpuint (len, >=, 32);
  uint8_t *b = g_malloc (len);
  psc_put_le32 (b, 32);
  psc_put_le32 (b + 4, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  psc_put_le32 (b + 8, id->vendor_id);
  psc_put_le32 (b + 12, id->device_id);
  memcpy (b + 16, id->uuid, VK_UUID_SIZE);
  for (size_t i = 32; i < len; i++)
    b[i] = (uint8_t) ((i % 61) * 7 + (i / 997));
  return b;
}

/* A valid file with a blob of blob_len bytes for test_id. */
static uint8_t *
make_file (size_t blob_len, bool compress, size_t *len)
{
  uint8_t *blob = make_blob (&test_id, blob_len);
  uint8_t *file = NULL;
  g_assert_cmpint (psc_driver_file_write (&test_id, blob, blob_len, compress, 3, 1700000000u,
                                          &file, len), ==, PSC_FILE_OK);
  g_free (blob);
  return file;
}

/* Recomputes the checksum of a file whose payload is everything after the
 * header (as the test's own, independent computation). */
static void
rechecksum (uint8_t *d, size_t len)
{
  XXH3_state_t *st = XXH3_createState ();
  XXH3_64bits_reset (st);
  XXH3_64bits_update (st, d, 88);
  XXH3_64bits_update (st, d + HDR, len - HDR);
  psc_put_le64 (d + 88, XXH3_64bits_digest (st));
  XXH3_freeState (st);
}

/* Reads d with expect (may be NULL) and max_raw; on failure checks that no
 * blob came back. */
static PscFileReason
read_file (const uint8_t *d, size_t len, const PscDeviceIdentity *expect, size_t max_raw)
{
  uint8_t *blob = (uint8_t *) 1;
  size_t blob_len = 1;
  PscDriverFileInfo info;
  const PscFileReason r = psc_driver_file_read (d, len, expect, max_raw, &blob, &blob_len, &info);
  if (r != PSC_FILE_OK)
    {
      g_assert_null (blob);
      g_assert_cmpuint (blob_len, ==, 0);
    }
  free (blob);
  return r;
}

#define assert_reason(got, want)                                                      \
  g_assert_cmpstr (psc_file_reason_name (got), ==, psc_file_reason_name (want))

static void
test_reason_names (void)
{
  static const char *const names[] = {
    "ok", "empty", "truncated", "trailing-data", "bad-magic", "format-version",
    "bad-header", "platform", "vendor", "device", "driver-version", "uuid",
    "oversized", "checksum", "decompress", "vulkan-header", "driver-rejected",
    "bad-record", "torn-tail", "not-regular", "symlink", "io", "out-of-memory", "stale",
  };
  g_assert_cmpuint (G_N_ELEMENTS (names), ==, PSC_FILE_REASON_COUNT);
  for (unsigned i = 0; i < PSC_FILE_REASON_COUNT; i++)
    {
      g_assert_cmpstr (psc_file_reason_name ((PscFileReason) i), ==, names[i]);
      const char *s = psc_file_reason_describe ((PscFileReason) i);
      g_assert_nonnull (s);
      g_assert_cmpuint (strlen (s), >, 4);
      for (unsigned j = 0; j < i; j++)
        g_assert_cmpstr (s, !=, psc_file_reason_describe ((PscFileReason) j));
    }
  g_assert_cmpstr (psc_file_reason_name (PSC_FILE_REASON_COUNT), ==, "unknown");
  g_assert_cmpstr (psc_file_reason_name ((PscFileReason) -1), ==, "unknown");
  g_assert_nonnull (psc_file_reason_describe ((PscFileReason) 1000));
}

static void
test_platform (void)
{
  const uint32_t p = psc_file_platform ();
#if defined(__x86_64__)
  g_assert_cmpuint (p & 0xffff, ==, 62);
#elif defined(__aarch64__)
  g_assert_cmpuint (p & 0xffff, ==, 183);
#elif defined(__i386__)
  g_assert_cmpuint (p & 0xffff, ==, 3);
#elif defined(__arm__)
  g_assert_cmpuint (p & 0xffff, ==, 40);
#elif defined(__riscv)
  g_assert_cmpuint (p & 0xffff, ==, 243);
#endif
  g_assert_cmpuint ((p >> 16) & 0xff, ==, sizeof (void *) * 8);
  g_assert_cmpuint (p >> 24, ==, G_BYTE_ORDER == G_BIG_ENDIAN ? 1 : 0);
}

/* Write, header, read with the identity and without: the same bytes. */
static void
round_trip (size_t blob_len, bool compress)
{
  uint8_t *blob = make_blob (&test_id, blob_len);
  uint8_t *file = NULL;
  size_t len = 0;
  g_assert_cmpint (psc_driver_file_write (&test_id, blob, blob_len, compress, 3, 1234567,
                                          &file, &len), ==, PSC_FILE_OK);
  PscDriverFileInfo info;
  g_assert_cmpint (psc_driver_file_read_header (file, len, &info), ==, PSC_FILE_OK);
  g_assert_cmpuint (info.format_version, ==, PSC_DRIVER_FILE_VERSION);
  g_assert_cmpuint (info.header_size, ==, HDR);
  g_assert_cmpuint (info.library_version, ==, psc_le32 (file + 16));
  g_assert_cmpuint (info.library_version, !=, 0);
  g_assert_cmpuint (info.platform, ==, psc_file_platform ());
  /* Small blobs zstd cannot shrink are stored. */
  if (compress && blob_len > 4096)
    g_assert_cmpuint (info.compression, ==, 1);
  else if (!compress)
    g_assert_cmpuint (info.compression, ==, 0);
  g_assert_cmpuint (info.payload_size, <=, blob_len);
  g_assert_true (memcmp (&info.identity, &test_id, sizeof test_id) == 0);
  g_assert_cmpuint (info.payload_size, ==, len - HDR);
  g_assert_cmpuint (info.raw_size, ==, blob_len);
  g_assert_cmpuint (info.written_at, ==, 1234567);
  if (info.compression == 0)
    g_assert_true (memcmp (file + HDR, blob, blob_len) == 0);
  else if (blob_len > 4096)
    g_assert_cmpuint (info.payload_size, <, blob_len / 4);
  for (int with_expect = 0; with_expect < 2; with_expect++)
    {
      uint8_t *out = NULL;
      size_t out_len = 0;
      PscDriverFileInfo got;
      g_assert_cmpint (psc_driver_file_read (file, len, with_expect ? &test_id : NULL, MAX_RAW,
                                             &out, &out_len, &got), ==, PSC_FILE_OK);
      g_assert_cmpmem (out, out_len, blob, blob_len);
      g_assert_true (memcmp (&got, &info, sizeof info) == 0);
      free (out);
    }
  free (file);
  g_free (blob);
}

/* What zstd cannot shrink is stored, so the file is never larger than
 * the data plus its header. */
static void
test_incompressible_stored (void)
{
  uint8_t blob[4096];
  uint32_t x = 12345;
  uint8_t *file = NULL;
  size_t len = 0;
  PscDriverFileInfo info;

  uint8_t *header = make_blob (&test_id, 32);
  memcpy (blob, header, 32);
  g_free (header);
  for (size_t i = 32; i < sizeof blob; i++)
    x ^= x << 13, x ^= x >> 17, x ^= x << 5, blob[i] = (uint8_t) x;
  g_assert_cmpint (psc_driver_file_write (&test_id, blob, sizeof blob, true, 3, 0, &file, &len),
                   ==, PSC_FILE_OK);
  g_assert_cmpuint (len, ==, HDR + sizeof blob);
  g_assert_cmpint (psc_driver_file_read_header (file, len, &info), ==, PSC_FILE_OK);
  g_assert_cmpuint (info.compression, ==, 0);
  free (file);
}

static void
test_round_trip (void)
{
  const size_t sizes[] = { 32, 33, 100, 4096, 200000, 1 << 20 };
  for (unsigned i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      round_trip (sizes[i], true);
      round_trip (sizes[i], false);
    }
  /* info may be NULL. */
  size_t len;
  uint8_t *file = make_file (64, true, &len);
  uint8_t *out;
  size_t out_len;
  g_assert_cmpint (psc_driver_file_read (file, len, &test_id, MAX_RAW, &out, &out_len, NULL),
                   ==, PSC_FILE_OK);
  g_assert_cmpuint (out_len, ==, 64);
  free (out);
  free (file);
}

static void
test_empty (void)
{
  static const uint8_t one = 0;
  assert_reason (read_file (&one, 0, &test_id, MAX_RAW), PSC_FILE_EMPTY);
  assert_reason (read_file (&one, 0, NULL, MAX_RAW), PSC_FILE_EMPTY);
  PscDriverFileInfo info;
  assert_reason (psc_driver_file_read_header (&one, 0, &info), PSC_FILE_EMPTY);
}

/* Every prefix of a valid file is empty or truncated, never read past:
 * each is parsed from an exact-size heap copy (ASan sees any overread). */
static void
test_truncated (void)
{
  for (int compress = 0; compress < 2; compress++)
    {
      size_t len;
      uint8_t *file = make_file (300, compress, &len);
      for (size_t n = 0; n < len; n++)
        {
          uint8_t *cut = g_memdup2 (file, n ? n : 1);
          const PscFileReason want = n == 0 ? PSC_FILE_EMPTY : PSC_FILE_TRUNCATED;
          assert_reason (read_file (cut, n, &test_id, MAX_RAW), want);
          assert_reason (read_file (cut, n, NULL, MAX_RAW), want);
          PscDriverFileInfo info;
          assert_reason (psc_driver_file_read_header (cut, n, &info), want);
          g_free (cut);
        }
      assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_OK);
      free (file);
    }
}

static void
test_trailing_data (void)
{
  const size_t extra[] = { 1, 7, 16, 4096 };
  size_t len;
  uint8_t *file = make_file (100, true, &len);
  for (unsigned i = 0; i < G_N_ELEMENTS (extra); i++)
    {
      uint8_t *d = g_malloc0 (len + extra[i]);
      memcpy (d, file, len);
      assert_reason (read_file (d, len + extra[i], &test_id, MAX_RAW), PSC_FILE_TRAILING_DATA);
      rechecksum (d, len + extra[i]);   /* still: the structure comes first */
      assert_reason (read_file (d, len + extra[i], NULL, MAX_RAW), PSC_FILE_TRAILING_DATA);
      g_free (d);
    }
  free (file);
}

static void
test_bad_magic (void)
{
  size_t len;
  uint8_t *file = make_file (100, false, &len);
  for (size_t i = 0; i < 8; i++)
    {
      file[i] ^= 0x20;
      assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_BAD_MAGIC);
      file[i] ^= 0x20;
    }
  /* Another format's magic (the record log's). */
  memcpy (file, "PSCLOG\r\n", 8);
  assert_reason (read_file (file, len, NULL, MAX_RAW), PSC_FILE_BAD_MAGIC);
  free (file);
}

static void
test_format_version (void)
{
  const uint32_t versions[] = { 0, 2, 99, 0xffffffffu };
  size_t len;
  uint8_t *file = make_file (100, true, &len);
  for (unsigned i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      psc_put_le32 (file + 8, versions[i]);
      assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_FORMAT_VERSION);
      PscDriverFileInfo info;
      assert_reason (psc_driver_file_read_header (file, len, &info), PSC_FILE_FORMAT_VERSION);
      g_assert_cmpuint (info.format_version, ==, versions[i]);
    }
  free (file);
}

/* Sets the 32-bit field at off (or, with `byte`, the byte at off) and
 * expects bad-header with and without a recomputed checksum. */
static void
expect_bad_header (const uint8_t *orig, size_t len, size_t off, uint32_t value, bool byte)
{
  uint8_t *d = g_memdup2 (orig, len);
  if (byte)
    d[off] = (uint8_t) value;
  else
    psc_put_le32 (d + off, value);
  assert_reason (read_file (d, len, &test_id, MAX_RAW), PSC_FILE_BAD_HEADER);
  rechecksum (d, len);
  assert_reason (read_file (d, len, NULL, MAX_RAW), PSC_FILE_BAD_HEADER);
  g_free (d);
}

static void
test_bad_header (void)
{
  size_t len;
  uint8_t *file = make_file (100, true, &len);
  const uint32_t header_sizes[] = { 0, 32, 95, 97, 128, 0xffffffffu };
  for (unsigned i = 0; i < G_N_ELEMENTS (header_sizes); i++)
    expect_bad_header (file, len, 12, header_sizes[i], false);
  const uint32_t compressions[] = { 2, 3, 0x100, 0xffffffffu };
  for (unsigned i = 0; i < G_N_ELEMENTS (compressions); i++)
    expect_bad_header (file, len, 36, compressions[i], false);
  for (size_t i = 80; i < 88; i++)
    {
      expect_bad_header (file, len, i, 1, true);
      expect_bad_header (file, len, i, 0x80, true);
    }
  free (file);
}

/* Changes a 32-bit field (xor), recomputes the checksum, expects want when
 * read against test_id. */
static void
expect_after_change (const uint8_t *orig, size_t len, size_t off, uint32_t xor,
                     PscFileReason want, PscFileReason want_without_expect)
{
  uint8_t *d = g_memdup2 (orig, len);
  psc_put_le32 (d + off, psc_le32 (d + off) ^ xor);
  rechecksum (d, len);
  assert_reason (read_file (d, len, &test_id, MAX_RAW), want);
  assert_reason (read_file (d, len, NULL, MAX_RAW), want_without_expect);
  PscDriverFileInfo info;
  assert_reason (psc_driver_file_read_header (d, len, &info), PSC_FILE_OK);
  g_free (d);
}

static void
test_platform_reason (void)
{
  size_t len;
  uint8_t *file = make_file (100, true, &len);
  const uint32_t flips[] = { 1, 62 ^ 183, 0x00ff0000u, 0x00600000u, 1u << 24, 0xffffffffu };
  for (unsigned i = 0; i < G_N_ELEMENTS (flips); i++)
    expect_after_change (file, len, 20, flips[i], PSC_FILE_PLATFORM, PSC_FILE_PLATFORM);
  free (file);
}

/* The identity fields: against test_id each gives its own reason; read
 * without an identity the file is self-consistent only if its blob header
 * agrees, so a changed vendor, device or UUID is the blob's header
 * disagreeing, and a changed driver version (not in the blob header) reads. */
static void
test_identity (void)
{
  size_t len;
  uint8_t *file = make_file (100, true, &len);
  expect_after_change (file, len, 24, 1, PSC_FILE_VENDOR, PSC_FILE_VULKAN_HEADER);
  expect_after_change (file, len, 28, 0x8000, PSC_FILE_DEVICE, PSC_FILE_VULKAN_HEADER);
  expect_after_change (file, len, 32, 1, PSC_FILE_DRIVER_VERSION, PSC_FILE_OK);
  for (size_t i = 0; i < VK_UUID_SIZE; i += 4)
    expect_after_change (file, len, 40 + i, 0x01000000u, PSC_FILE_UUID, PSC_FILE_VULKAN_HEADER);

  /* The same file against other identities; the first difference wins. */
  PscDeviceIdentity other = test_id;
  other.vendor_id = 0x1002;
  other.device_id = 1;
  assert_reason (read_file (file, len, &other, MAX_RAW), PSC_FILE_VENDOR);
  other = test_id;
  other.device_id = 1;
  other.uuid[15] ^= 1;
  assert_reason (read_file (file, len, &other, MAX_RAW), PSC_FILE_DEVICE);
  other = test_id;
  other.driver_version++;
  other.uuid[0] ^= 1;
  assert_reason (read_file (file, len, &other, MAX_RAW), PSC_FILE_DRIVER_VERSION);
  other = test_id;
  other.uuid[7] ^= 0x40;
  assert_reason (read_file (file, len, &other, MAX_RAW), PSC_FILE_UUID);
  free (file);
}

/* A file of another device reads without an identity and gives that one. */
static void
test_expect_null (void)
{
  PscDeviceIdentity other = { .vendor_id = 0x8086, .device_id = 0x56a0, .driver_version = 7 };
  memset (other.uuid, 0x5a, VK_UUID_SIZE);
  uint8_t *blob = make_blob (&other, 500);
  uint8_t *file, *out;
  size_t len, out_len;
  g_assert_cmpint (psc_driver_file_write (&other, blob, 500, true, 1, 0, &file, &len), ==, PSC_FILE_OK);
  PscDriverFileInfo info;
  g_assert_cmpint (psc_driver_file_read (file, len, NULL, MAX_RAW, &out, &out_len, &info),
                   ==, PSC_FILE_OK);
  g_assert_true (memcmp (&info.identity, &other, sizeof other) == 0);
  g_assert_cmpmem (out, out_len, blob, 500);
  free (out);
  assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_VENDOR);
  assert_reason (read_file (file, len, &other, MAX_RAW), PSC_FILE_OK);
  free (file);
  g_free (blob);
}

static void
set_raw_size (uint8_t *d, size_t len, uint64_t raw)
{
  psc_put_le64 (d + 64, raw);
  rechecksum (d, len);
}

static void
test_oversized (void)
{
  /* Raw size above the cap, stored and compressed; at the cap it reads. */
  for (int compress = 0; compress < 2; compress++)
    {
      size_t len;
      uint8_t *file = make_file (10000, compress, &len);
      assert_reason (read_file (file, len, &test_id, 9999), PSC_FILE_OVERSIZED);
      assert_reason (read_file (file, len, NULL, 9999), PSC_FILE_OVERSIZED);
      assert_reason (read_file (file, len, &test_id, 10000), PSC_FILE_OK);
      /* Huge raw sizes: refused before anything is allocated (under ASan,
       * an allocation of this size would abort the test). */
      const uint64_t huge[] = { (uint64_t) MAX_RAW + 1, (uint64_t) 1 << 40, (uint64_t) 1 << 62,
                                UINT64_MAX };
      for (unsigned i = 0; i < G_N_ELEMENTS (huge); i++)
        {
          set_raw_size (file, len, huge[i]);
          assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_OVERSIZED);
          assert_reason (read_file (file, len, NULL, MAX_RAW), PSC_FILE_OVERSIZED);
        }
      free (file);
    }
  /* Payload above the cap while the raw size is below it. */
  size_t len;
  uint8_t *file = make_file (2000, false, &len);
  set_raw_size (file, len, 100);
  assert_reason (read_file (file, len, &test_id, 1000), PSC_FILE_OVERSIZED);
  /* A payload size past the end is the structure's fault: truncated. */
  psc_put_le64 (file + 56, (uint64_t) 1 << 62);
  assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_TRUNCATED);
  free (file);

  /* The writer refuses a blob above 4x the default cap without reading it. */
  static const uint8_t tiny[1];
  uint8_t *out = (uint8_t *) 1;
  size_t out_len = 1;
  g_assert_cmpint (psc_driver_file_write (&test_id, tiny, MAX_RAW * 4 + 1, false, 0, 0,
                                          &out, &out_len), ==, PSC_FILE_OVERSIZED);
  g_assert_null (out);
  g_assert_cmpuint (out_len, ==, 0);
}

/* A raw size within a large cap but a zstd frame (or a stored payload) of
 * another size: refused before the raw size is allocated. Run with the address space
 * limited to what the process has plus 256 MiB (not under ASan, whose
 * shadow memory needs the address space), so that an allocation of the
 * 1 GiB the header claims would fail as out-of-memory instead. */
static void
test_no_allocation_before_checks (void)
{
  if (g_test_subprocess ())
    {
#if !PSC_TEST_UNDER_ASAN
      unsigned long pages = 0;
      gchar *statm = NULL;
      g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
      g_assert_cmpint (sscanf (statm, "%lu", &pages), ==, 1);
      g_free (statm);
      const rlim_t limit = (rlim_t) pages * 4096 + ((rlim_t) 256 << 20);
      const struct rlimit rl = { limit, limit };
      g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
      void *probe = malloc ((size_t) 1 << 30);
      g_assert_null (probe);   /* the limit works */
#endif
      size_t len;
      uint8_t *file = make_file (100, true, &len);
      set_raw_size (file, len, (uint64_t) 1 << 30);
      assert_reason (read_file (file, len, &test_id, SIZE_MAX / 2), PSC_FILE_DECOMPRESS);
      uint8_t *stored = make_file (100, false, &len);
      set_raw_size (stored, len, (uint64_t) 1 << 30);
      assert_reason (read_file (stored, len, &test_id, SIZE_MAX / 2), PSC_FILE_DECOMPRESS);
      free (stored);
      free (file);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The reason every single-bit flip at byte `at` of a valid file gives
 * (payload_size and raw_size are the file's, compression its value). */
static PscFileReason
flip_reason (size_t at, unsigned bit, uint64_t payload_size, uint64_t raw_size, uint32_t compression)
{
  if (at < 8)
    return PSC_FILE_BAD_MAGIC;
  if (at < 12)
    return PSC_FILE_FORMAT_VERSION;
  if (at < 16)
    return PSC_FILE_BAD_HEADER;
  if (at >= 36 && at < 40)
    return ((compression ^ (1u << (bit + 8 * (at - 36)))) > 1) ? PSC_FILE_BAD_HEADER : PSC_FILE_CHECKSUM;
  if (at >= 56 && at < 64)
    {
      const uint64_t flipped = payload_size ^ ((uint64_t) 1 << (bit + 8 * (at - 56)));
      return flipped > payload_size ? PSC_FILE_TRUNCATED : PSC_FILE_TRAILING_DATA;
    }
  if (at >= 64 && at < 72)
    {
      const uint64_t flipped = raw_size ^ ((uint64_t) 1 << (bit + 8 * (at - 64)));
      return flipped > MAX_RAW ? PSC_FILE_OVERSIZED : PSC_FILE_CHECKSUM;
    }
  if (at >= 80 && at < 88)
    return PSC_FILE_BAD_HEADER;
  return PSC_FILE_CHECKSUM;
}

/* Every single-bit flip of a small file is refused, with the reason its
 * position gives, and none reads past the file or crashes. */
static void
test_checksum_bit_flips (void)
{
  for (int compress = 0; compress < 2; compress++)
    {
      size_t len;
      uint8_t *file = make_file (40, compress, &len);
      const uint64_t payload_size = psc_le64 (file + 56), raw_size = psc_le64 (file + 64);
      for (size_t at = 0; at < len; at++)
        for (unsigned bit = 0; bit < 8; bit++)
          {
            file[at] ^= (uint8_t) (1u << bit);
            const PscFileReason want = flip_reason (at, bit, payload_size, raw_size, compress);
            assert_reason (read_file (file, len, &test_id, MAX_RAW), want);
            assert_reason (read_file (file, len, NULL, MAX_RAW), want);
            file[at] ^= (uint8_t) (1u << bit);
          }
      assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_OK);
      free (file);
    }
}

/* A file around `payload` with the given compression and raw size, its
 * checksum valid. */
static uint8_t *
wrap_payload (const void *payload, size_t plen, uint64_t raw, uint32_t compression, size_t *len)
{
  size_t flen;
  uint8_t *file = make_file (40, compression != 0, &flen);
  *len = HDR + plen;
  uint8_t *d = g_malloc (*len);
  memcpy (d, file, HDR);
  memcpy (d + HDR, payload, plen);
  psc_put_le32 (d + 36, compression);   /* (a 40-byte blob is stored, not compressed) */
  psc_put_le64 (d + 56, plen);
  psc_put_le64 (d + 64, raw);
  rechecksum (d, *len);
  free (file);
  return d;
}

static void
expect_decompress (const void *payload, size_t plen, uint64_t raw, uint32_t compression)
{
  size_t len;
  uint8_t *d = wrap_payload (payload, plen, raw, compression, &len);
  assert_reason (read_file (d, len, &test_id, MAX_RAW), PSC_FILE_DECOMPRESS);
  assert_reason (read_file (d, len, NULL, MAX_RAW), PSC_FILE_DECOMPRESS);
  g_free (d);
}

/* The size of a zstd frame header (RFC 8878, 3.1.1.1): magic, descriptor,
 * window descriptor unless single-segment, dictionary id, content size. */
static size_t
frame_header_size (const uint8_t *z)
{
  static const size_t did_bytes[4] = { 0, 1, 2, 4 };
  const uint8_t fhd = z[4];
  const bool single = (fhd >> 5) & 1;
  const size_t fcs_bytes[4] = { single ? 1 : 0, 2, 4, 8 };
  return 4 + 1 + (single ? 0 : 1) + did_bytes[fhd & 3] + fcs_bytes[fhd >> 6];
}

static void
test_decompress (void)
{
  const size_t raw = 5000;
  uint8_t *blob = make_blob (&test_id, raw);
  const size_t cap = ZSTD_compressBound (raw) + 16;
  uint8_t *z = g_malloc (cap);
  const size_t zlen = ZSTD_compress (z, cap, blob, raw, 3);
  g_assert_false (ZSTD_isError (zlen));

  /* The control: this payload, wrapped, reads. */
  size_t len;
  uint8_t *d = wrap_payload (z, zlen, raw, 1, &len);
  assert_reason (read_file (d, len, &test_id, MAX_RAW), PSC_FILE_OK);
  g_free (d);

  expect_decompress (z, zlen, raw - 1, 1);        /* the frame says another size */
  expect_decompress (z, zlen, raw + 1, 1);
  expect_decompress (z, zlen, 0, 1);
  expect_decompress (z, zlen - 3, raw, 1);        /* the frame is cut */
  expect_decompress (z, 0, raw, 1);               /* no frame at all */
  memset (z + zlen, 0, 8);
  expect_decompress (z, zlen + 8, raw, 1);        /* bytes after the frame */

  /* A reserved block type in the first block header. */
  uint8_t *bad = g_memdup2 (z, zlen);
  bad[frame_header_size (z)] |= 0x06;
  expect_decompress (bad, zlen, raw, 1);
  /* Not zstd at all. */
  memset (bad, 0xaa, zlen);
  expect_decompress (bad, zlen, raw, 1);
  g_free (bad);

  /* A frame that does not state its content size. */
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_compressionLevel, 3);
  ZSTD_outBuffer ob = { z, cap, 0 };
  ZSTD_inBuffer ib = { blob, raw, 0 };
  g_assert_cmpuint (ZSTD_compressStream2 (cctx, &ob, &ib, ZSTD_e_end), ==, 0);
  ZSTD_freeCCtx (cctx);
  g_assert_true (ZSTD_getFrameContentSize (z, ob.pos) == ZSTD_CONTENTSIZE_UNKNOWN);
  expect_decompress (z, ob.pos, raw, 1);

  /* Stored, with a raw size other than the payload's. */
  expect_decompress (blob, raw, raw - 1, 0);
  expect_decompress (blob, raw, raw + 1, 0);
  g_free (z);
  g_free (blob);
}

/* A file (written by the library: checksum valid) around a blob whose
 * header field at off is changed to value. */
static void
expect_vulkan_header (size_t blob_len, size_t off, uint32_t value)
{
  uint8_t *blob = make_blob (&test_id, blob_len < 32 ? 32 : blob_len);
  if (off + 4 <= blob_len)
    psc_put_le32 (blob + off, value);
  for (int compress = 0; compress < 2; compress++)
    {
      uint8_t *file;
      size_t len;
      g_assert_cmpint (psc_driver_file_write (&test_id, blob, blob_len, compress, 1, 0, &file, &len),
                       ==, PSC_FILE_OK);
      assert_reason (read_file (file, len, &test_id, MAX_RAW), PSC_FILE_VULKAN_HEADER);
      assert_reason (read_file (file, len, NULL, MAX_RAW), PSC_FILE_VULKAN_HEADER);
      free (file);
    }
  g_free (blob);
}

static void
test_vulkan_header (void)
{
  expect_vulkan_header (0, 99, 0);     /* no blob header at all */
  expect_vulkan_header (31, 99, 0);    /* shorter than the header */
  expect_vulkan_header (40, 0, 0);     /* headerSize */
  expect_vulkan_header (40, 0, 31);
  expect_vulkan_header (40, 0, 41);    /* past the blob */
  expect_vulkan_header (40, 0, 0xffffffffu);
  expect_vulkan_header (40, 4, 0);     /* headerVersion */
  expect_vulkan_header (40, 4, 2);
  expect_vulkan_header (40, 8, test_id.vendor_id + 1);
  expect_vulkan_header (40, 12, test_id.device_id ^ 0x10000);
  for (size_t i = 0; i < VK_UUID_SIZE; i += 4)
    expect_vulkan_header (40, 16 + i, psc_le32 (test_id.uuid + i) ^ 0x80);

  /* The header check itself names the field. */
  uint8_t *blob = make_blob (&test_id, 48);
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &test_id), ==, PSC_FILE_OK);
  psc_put_le32 (blob, 48);   /* a longer header, all present */
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &test_id), ==, PSC_FILE_OK);
  g_assert_cmpint (psc_vk_cache_header_check (blob, 47, &test_id), ==, PSC_FILE_VULKAN_HEADER);
  g_assert_cmpint (psc_vk_cache_header_check (blob, 31, &test_id), ==, PSC_FILE_VULKAN_HEADER);
  PscDeviceIdentity other = test_id;
  other.vendor_id++;
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &other), ==, PSC_FILE_VENDOR);
  other = test_id;
  other.device_id++;
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &other), ==, PSC_FILE_DEVICE);
  other = test_id;
  other.uuid[3]++;
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &other), ==, PSC_FILE_UUID);
  other = test_id;
  other.driver_version++;   /* not in the blob header */
  g_assert_cmpint (psc_vk_cache_header_check (blob, 48, &other), ==, PSC_FILE_OK);
  g_free (blob);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/file-reason/names", test_reason_names);
  g_test_add_func ("/file-reason/platform", test_platform);
  g_test_add_func ("/driver-file/round-trip", test_round_trip);
  g_test_add_func ("/driver-file/incompressible-stored", test_incompressible_stored);
  g_test_add_func ("/driver-file/empty", test_empty);
  g_test_add_func ("/driver-file/truncated", test_truncated);
  g_test_add_func ("/driver-file/trailing-data", test_trailing_data);
  g_test_add_func ("/driver-file/bad-magic", test_bad_magic);
  g_test_add_func ("/driver-file/format-version", test_format_version);
  g_test_add_func ("/driver-file/bad-header", test_bad_header);
  g_test_add_func ("/driver-file/platform", test_platform_reason);
  g_test_add_func ("/driver-file/identity", test_identity);
  g_test_add_func ("/driver-file/expect-null", test_expect_null);
  g_test_add_func ("/driver-file/oversized", test_oversized);
  g_test_add_func ("/driver-file/no-allocation-before-checks", test_no_allocation_before_checks);
  g_test_add_func ("/driver-file/checksum-bit-flips", test_checksum_bit_flips);
  g_test_add_func ("/driver-file/decompress", test_decompress);
  g_test_add_func ("/driver-file/vulkan-header", test_vulkan_header);
  return g_test_run ();
}
