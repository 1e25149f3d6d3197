/* fuzz-driver-file.c: libFuzzer target for the driver pipeline-cache file
 * reader (core/formats/driver-file.c, DESIGN decision 14). Also built
 * without libFuzzer and driven over the checked-in corpus by corpus-main.c
 * (unit suite).
 *
 * Input: byte 0 selects the mode, the rest is the file. Mode bit 0: the
 * platform field is set to this build's (so the seeds work on every
 * architecture); bit 1: the checksum is recomputed (so mutations get past
 * it to the identity, zstd and the Vulkan header). The file is parsed from
 * a heap copy of exactly its size (ASan sees any read past the end).
 *
 * Each file is read three ways: its header alone, against a fixed identity
 * (the one the seeds are written for) and with no identity; a restore cap
 * of 1 MiB keeps allocations small. Besides not crashing, every result must
 * keep the reader's contract (driver-file.h), and whatever reads must write
 * back and read again as the same blob (as the same bytes when it was
 * stored by this library version); anything else aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/driver-file.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

#define FUZZ_MAX_RAW ((size_t) 1 << 20)

/* The identity the seeds are written for (make-file-corpus.c). */
static const PscDeviceIdentity fuzz_id = {
  .vendor_id = 0x10de, .device_id = 0x2335, .driver_version = 0x91000000u,
  .uuid = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
            0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff },
};

static void
fix_up (uint8_t *d, size_t len, unsigned mode)
{
  if (len < PSC_DRIVER_FILE_HEADER_SIZE)
    return;
  if (mode & 1)
    psc_put_le32 (d + 20, psc_file_platform ());
  if (mode & 2)
    {
      XXH3_state_t st;
      XXH3_INITSTATE (&st);
      XXH3_64bits_reset (&st);
      XXH3_64bits_update (&st, d, 88);
      XXH3_64bits_update (&st, d + PSC_DRIVER_FILE_HEADER_SIZE, len - PSC_DRIVER_FILE_HEADER_SIZE);
      psc_put_le64 (d + 88, XXH3_64bits_digest (&st));
    }
}

/* One read: the contract of psc_driver_file_read; returns the reason and
 * leaves the blob (NULL unless OK) in *blob. */
static PscFileReason
checked_read (const uint8_t *d, size_t len, const PscDeviceIdentity *expect,
              uint8_t **blob, size_t *blob_len, PscDriverFileInfo *info)
{
  const PscFileReason r = psc_driver_file_read (d, len, expect, FUZZ_MAX_RAW, blob, blob_len, info);
  CHECK ((unsigned) r < PSC_FILE_REASON_COUNT);
  CHECK (r != PSC_FILE_DRIVER_REJECTED && r != PSC_FILE_BAD_RECORD && r != PSC_FILE_TORN_TAIL
         && r != PSC_FILE_NOT_REGULAR && r != PSC_FILE_SYMLINK && r != PSC_FILE_IO
         && r != PSC_FILE_STALE);
  if (r != PSC_FILE_OK)
    {
      CHECK (*blob == NULL && *blob_len == 0);
      return r;
    }
  CHECK (*blob != NULL && *blob_len == info->raw_size && *blob_len <= FUZZ_MAX_RAW);
  CHECK (info->payload_size == len - PSC_DRIVER_FILE_HEADER_SIZE);
  CHECK (psc_vk_cache_header_check (*blob, *blob_len, expect ? expect : &info->identity)
         == PSC_FILE_OK);
  return r;
}

/* What read writes back and reads again as the same blob. */
static void
round_trip (const uint8_t *d, size_t len, const uint8_t *blob, size_t blob_len,
            const PscDriverFileInfo *info)
{
  const bool compress = info->compression == PSC_DRIVER_FILE_COMPRESSION_ZSTD;
  uint8_t *file = NULL, *again = NULL;
  size_t file_len = 0, again_len = 0;
  CHECK (psc_driver_file_write (&info->identity, blob, blob_len, compress, 1, info->written_at,
                                &file, &file_len) == PSC_FILE_OK);
  PscDriverFileInfo info2;
  /* The default cap: a compressed copy may be a little larger than the raw data. */
  CHECK (psc_driver_file_read (file, file_len, &info->identity, PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                               &again, &again_len, &info2) == PSC_FILE_OK);
  CHECK (again_len == blob_len && memcmp (again, blob, blob_len) == 0);
  CHECK (memcmp (&info2.identity, &info->identity, sizeof info->identity) == 0);
  CHECK (info2.written_at == info->written_at && info2.compression == info->compression);
  PscDriverFileInfo mine;
  CHECK (psc_driver_file_read_header (file, file_len, &mine) == PSC_FILE_OK);
  if (!compress && info->library_version == mine.library_version)
    CHECK (file_len == len && memcmp (file, d, len) == 0);
  free (again);
  free (file);
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
  fix_up (d, len, mode);

  PscDriverFileInfo header;
  const PscFileReason hr = psc_driver_file_read_header (d, len, &header);
  for (int pass = 0; pass < 2; pass++)
    {
      const PscDeviceIdentity *expect = pass == 0 ? &fuzz_id : NULL;
      uint8_t *blob = (uint8_t *) 1;
      size_t blob_len = 1;
      PscDriverFileInfo info;
      const PscFileReason r = checked_read (d, len, expect, &blob, &blob_len, &info);
      /* The structure comes first, and read says what read_header said. */
      CHECK (hr == PSC_FILE_OK || r == hr);
      if (r == PSC_FILE_OK)
        {
          CHECK (memcmp (&info, &header, sizeof header) == 0);
          round_trip (d, len, blob, blob_len, &info);
        }
      free (blob);
    }
  /* The Vulkan header check on the raw bytes: only its own reasons. */
  const PscFileReason vr = psc_vk_cache_header_check (d, len, &fuzz_id);
  CHECK (vr == PSC_FILE_OK || vr == PSC_FILE_VULKAN_HEADER || vr == PSC_FILE_VENDOR
         || vr == PSC_FILE_DEVICE || vr == PSC_FILE_UUID);
  free (d);
  return 0;
}
