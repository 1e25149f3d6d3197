/* make-file-corpus.c: regenerates the seeds of corpus/driver-file and
 * corpus/record-log with the library's own writers (so the files follow
 * docs/file-formats.md exactly). Not run by any test; after a format
 * change:
 *
 *   ninja -C _build tests/fuzz/make-file-corpus
 *   ./_build/tests/fuzz/make-file-corpus tests/fuzz/corpus
 *
 * Seed format: byte 0 is the target's mode (fuzz-driver-file.c,
 * fuzz-record-log.c), the rest the file. Most driver-file seeds use mode 3
 * (platform and checksum fixed up by the target), so they hold on every
 * architecture; the "raw-" ones use mode 0 and are read as written.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/driver-file.h"
#include "formats/record-log.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static const char *out_dir;

/* The identity fuzz-driver-file.c expects. */
static const PscDeviceIdentity fuzz_id = {
  .vendor_id = 0x10de, .device_id = 0x2335, .driver_version = 0x91000000u,
  .uuid = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
            0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
};

static void
put (const char *sub, const char *name, unsigned mode, const uint8_t *d, size_t len)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s/%s", out_dir, sub, name);
  FILE *f = fopen (path, "wb");
  if (f == NULL || fputc ((int) mode, f) == EOF || fwrite (d, 1, len, f) != len || fclose (f) != 0)
    {
      perror (path);
      exit (1);
    }
}

/* A VkPipelineCache blob for id: its header, then compressible bytes. */
static uint8_t *
blob_for (const PscDeviceIdentity *id, size_t len)
{
  uint8_t *b = calloc (1, len < 32 ? 32 : len);
  psc_put_le32 (b, 32);
  psc_put_le32 (b + 4, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  psc_put_le32 (b + 8, id->vendor_id);
  psc_put_le32 (b + 12, id->device_id);
  memcpy (b + 16, id->uuid, VK_UUID_SIZE);
  for (size_t i = 32; i < len; i++)
    b[i] = (uint8_t) ((i % 37) * 5 + (i / 509));
  return b;
}

static uint8_t *
driver_file (const PscDeviceIdentity *id, const uint8_t *blob, size_t blob_len, bool compress,
             size_t *len)
{
  uint8_t *file = NULL;
  if (psc_driver_file_write (id, blob, blob_len, compress, 3, 1700000000u, &file, len) != PSC_FILE_OK)
    exit (1);
  return file;
}

/* A valid file of blob_len bytes, then written as `name` with f applied. */
static void
driver_seed (const char *name, unsigned mode, size_t blob_len, bool compress,
             void (*f) (uint8_t *d, size_t *len))
{
  uint8_t *blob = blob_for (&fuzz_id, blob_len);
  size_t len;
  uint8_t *file = driver_file (&fuzz_id, blob, blob_len, compress, &len);
  uint8_t *d = calloc (1, len + 64);
  memcpy (d, file, len);
  if (f)
    f (d, &len);
  put ("driver-file", name, mode, d, len);
  free (d);
  free (file);
  free (blob);
}

static void cut_half (uint8_t *d, size_t *len) { (void) d; *len /= 2; }
static void add_trailing (uint8_t *d, size_t *len) { (void) d; *len += 8; }
static void bad_magic (uint8_t *d, size_t *len) { (void) len; d[3] = 'X'; }
static void version_2 (uint8_t *d, size_t *len) { (void) len; psc_put_le32 (d + 8, 2); }
static void compression_2 (uint8_t *d, size_t *len) { (void) len; psc_put_le32 (d + 36, 2); }
static void reserved_set (uint8_t *d, size_t *len) { (void) len; d[84] = 1; }
static void raw_2mib (uint8_t *d, size_t *len) { (void) len; psc_put_le64 (d + 64, 2u << 20); }
static void raw_minus_1 (uint8_t *d, size_t *len) { (void) len; psc_put_le64 (d + 64, psc_le64 (d + 64) - 1); }
static void checksum_off (uint8_t *d, size_t *len) { (void) len; d[90] ^= 0xff; }
static void vendor_other (uint8_t *d, size_t *len) { (void) len; psc_put_le32 (d + 24, 0x1002); }
static void zstd_damaged (uint8_t *d, size_t *len) { d[*len - 2] ^= 0x5a; d[100] ^= 0x01; }
static void to_header (uint8_t *d, size_t *len) { (void) d; *len = PSC_DRIVER_FILE_HEADER_SIZE; }
static void platform_other (uint8_t *d, size_t *len) { (void) len; psc_put_le32 (d + 20, 0x00400000u); }
static void driver_other (uint8_t *d, size_t *len) { (void) len; d[32] ^= 1; }
static void uuid_other (uint8_t *d, size_t *len) { (void) len; d[50] ^= 1; }

static void
driver_seeds (void)
{
  driver_seed ("stored", 3, 200, false, NULL);
  driver_seed ("zstd", 3, 3000, true, NULL);
  driver_seed ("vk-header-only", 3, 32, false, NULL);
  driver_seed ("raw-stored", 0, 200, false, NULL);
  driver_seed ("raw-zstd", 0, 3000, true, NULL);
  driver_seed ("empty-blob", 3, 0, true, NULL);
  driver_seed ("short-blob", 3, 20, false, NULL);
  driver_seed ("truncated", 3, 3000, true, cut_half);
  driver_seed ("header-only", 3, 3000, true, to_header);
  driver_seed ("trailing-data", 3, 200, false, add_trailing);
  driver_seed ("bad-magic", 3, 200, false, bad_magic);
  driver_seed ("format-version", 3, 200, false, version_2);
  driver_seed ("compression-2", 3, 200, false, compression_2);
  driver_seed ("reserved", 3, 200, false, reserved_set);
  driver_seed ("oversized", 3, 3000, true, raw_2mib);
  driver_seed ("zstd-size", 3, 3000, true, raw_minus_1);
  driver_seed ("zstd-damaged", 3, 3000, true, zstd_damaged);
  driver_seed ("raw-checksum", 0, 200, false, checksum_off);
  driver_seed ("vendor", 3, 200, true, vendor_other);
  driver_seed ("driver-version", 3, 200, true, driver_other);
  driver_seed ("uuid", 3, 200, false, uuid_other);
  driver_seed ("platform", 2, 200, false, platform_other);   /* platform 0: no target's */

  /* Another device's file: refused against the fixed identity, read without. */
  PscDeviceIdentity other = { .vendor_id = 0x8086, .device_id = 0x56a0, .driver_version = 1 };
  memset (other.uuid, 0x42, VK_UUID_SIZE);
  uint8_t *blob = blob_for (&other, 500);
  size_t len;
  uint8_t *file = driver_file (&other, blob, 500, true, &len);
  put ("driver-file", "other-device", 3, file, len);
  free (file);
  blob[4] = 2;   /* headerVersion 2 */
  file = driver_file (&fuzz_id, blob, 500, false, &len);
  put ("driver-file", "vk-header-version", 3, file, len);
  free (file);
  free (blob);
  put ("driver-file", "empty", 3, NULL, 0);
  put ("driver-file", "short", 0, (const uint8_t *) "PSCDRV\r\n\1\0", 10);
}

/* A log (header of kind unless headerless) of n records, sizes[i] bytes. */
static uint8_t *
log_file (uint32_t kind, bool header, const size_t *sizes, unsigned n, size_t *len)
{
  size_t total = header ? PSC_LOG_HEADER_SIZE : 0;
  for (unsigned i = 0; i < n; i++)
    total += psc_log_record_size (sizes[i]);
  uint8_t *d = calloc (1, total + 1);
  size_t at = 0;
  if (header)
    {
      psc_log_write_header (d, kind);
      at = PSC_LOG_HEADER_SIZE;
    }
  for (unsigned i = 0; i < n; i++)
    {
      uint8_t *p = malloc (sizes[i] + 1);
      for (size_t b = 0; b < sizes[i]; b++)
        p[b] = (uint8_t) (i * 31 + b);
      at += psc_log_write_record (d + at, (uint16_t) (i + 1), p, sizes[i]);
      free (p);
    }
  *len = total;
  return d;
}

/* A log seed, cut at `cut` (0: not) and with byte flip_at xor'ed with
 * `xor` (flip_at < 0: none); both are offsets in the whole file, header
 * included, also for a mode whose seed leaves the header to the target. */
static void
log_seed (const char *name, unsigned mode, uint32_t kind, const size_t *sizes, unsigned n,
          long cut, long flip_at, uint8_t xor)
{
  size_t len;
  uint8_t *d = log_file (kind, !(mode & 1), sizes, n, &len);
  const long base = (mode & 1) ? PSC_LOG_HEADER_SIZE : 0;
  if (flip_at >= base && (size_t) (flip_at - base) < len)
    d[flip_at - base] ^= xor;
  if (cut > base && (size_t) (cut - base) < len)
    len = (size_t) (cut - base);
  put ("record-log", name, mode, d, len);
  free (d);
}

/* A file header of `kind` and `platform` (checksum valid), one record. */
static void
log_header_seed (const char *name, uint32_t kind, uint32_t platform)
{
  const size_t one[1] = { 12 };
  size_t len;
  uint8_t *d = log_file (kind, true, one, 1, &len);
  psc_put_le32 (d + 20, platform);
  psc_put_le64 (d + 24, XXH3_64bits (d, 24));
  put ("record-log", name, 0, d, len);
  free (d);
}

static void
log_seeds (void)
{
  const uint32_t R = PSC_LOG_KIND_RECIPES, A = PSC_LOG_KIND_ARTIFACTS;
  const size_t three[3] = { 5, 0, 40 };
  const size_t many[12] = { 0, 1, 7, 8, 9, 16, 17, 63, 64, 100, 300, 1000 };
  log_seed ("header-only", 0, R, NULL, 0, 0, -1, 0x04);
  log_seed ("header-only-artifacts", 0, A, NULL, 0, 0, -1, 0x04);
  log_seed ("three", 0, R, three, 3, 0, -1, 0x04);
  log_seed ("three-artifacts", 0, A, three, 3, 0, -1, 0x04);
  log_seed ("records-three", 1, R, three, 3, 0, -1, 0x04);
  log_seed ("records-many", 1, R, many, 12, 0, -1, 0x04);
  log_seed ("records-many-artifacts", 3, A, many, 12, 0, -1, 0x04);
  log_seed ("torn-tail", 1, R, three, 3, 32 + 32 + 24 + 30, -1, 0x04);
  log_seed ("torn-header", 1, R, three, 3, 32 + 32 + 24 + 10, -1, 0x04);
  log_seed ("payload-damaged", 1, R, three, 3, 0, 32 + 24 + 2, 0x04);
  log_seed ("record-header-damaged", 1, R, three, 3, 0, 32 + 32 + 8, 0x04);
  log_seed ("record-header-resealed", 5, R, three, 3, 0, 32 + 32 + 8, 0x04);
  log_seed ("flags-resealed", 5, R, three, 3, 0, 32 + 32 + 6, 0x04);
  log_seed ("type-resealed", 5, R, three, 3, 0, 32 + 32 + 4, 0x02);
  log_seed ("padding", 1, R, three, 3, 0, 32 + 24 + 6, 0x04);
  log_seed ("max-record-32", 1 | (2 << 3), R, three, 3, 0, -1, 0x04);
  log_seed ("file-checksum", 0, R, three, 3, 0, 26, 0x04);
  log_seed ("file-kind", 0, R, three, 3, 0, 17, 0x04);
  log_header_seed ("file-kind-sealed", PSC_LOG_FOURCC ('X', 'C', 'P', 'E'), psc_file_platform ());
  log_header_seed ("file-platform", R, 0x00400000u);
  log_seed ("file-version", 0, R, three, 3, 0, 9, 0x04);
  log_seed ("file-magic", 0, R, three, 3, 0, 2, 0x04);
  log_seed ("file-truncated", 0, R, three, 3, 20, -1, 0x04);
  put ("record-log", "empty", 0, NULL, 0);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s CORPUS_DIR (tests/fuzz/corpus)\n", argv[0]);
      return 2;
    }
  out_dir = argv[1];
  driver_seeds ();
  log_seeds ();
  return 0;
}
