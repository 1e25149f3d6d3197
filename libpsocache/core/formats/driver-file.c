/* driver-file.c: the driver pipeline-cache file, parsed, validated and
 * serialized in memory (contract and layout in driver-file.h).
 *
 * Every length read from the file is compared with the bytes present
 * before anything is read through it, and the only allocation whose size
 * comes from the file (the decompressed data) is made after that size was
 * bounded by max_raw and matched against the zstd frame's own content size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "driver-file.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* major << 16 | minor << 8 | micro, from the build (core/meson.build). */
#ifndef PSC_LIBRARY_VERSION
#error "PSC_LIBRARY_VERSION must be defined by the build"
#endif

/* Field offsets (driver-file.h). */
enum {
  OFF_MAGIC = 0,
  OFF_FORMAT_VERSION = 8,
  OFF_HEADER_SIZE = 12,
  OFF_LIBRARY_VERSION = 16,
  OFF_PLATFORM = 20,
  OFF_VENDOR = 24,
  OFF_DEVICE = 28,
  OFF_DRIVER_VERSION = 32,
  OFF_COMPRESSION = 36,
  OFF_UUID = 40,
  OFF_PAYLOAD_SIZE = 56,
  OFF_RAW_SIZE = 64,
  OFF_WRITTEN_AT = 72,
  OFF_RESERVED = 80,
  OFF_CHECKSUM = 88,
};
_Static_assert (OFF_CHECKSUM + 8 == PSC_DRIVER_FILE_HEADER_SIZE, "driver file header layout");

/* The size of VkPipelineCacheHeaderVersionOne. */
#define VK_HEADER_ONE_SIZE 32u

/* XXH3-64 of header bytes 0..87 followed by the payload. */
static uint64_t
file_checksum (const uint8_t *header, const uint8_t *payload, size_t payload_len)
{
  XXH3_state_t st;
  XXH3_INITSTATE (&st);
  XXH3_64bits_reset (&st);
  XXH3_64bits_update (&st, header, OFF_CHECKSUM);
  XXH3_64bits_update (&st, payload, payload_len);
  return XXH3_64bits_digest (&st);
}

static void
write_fields (uint8_t *h, const PscDeviceIdentity *id, uint32_t compression,
              uint64_t payload_size, uint64_t raw_size, uint64_t written_at)
{
  memset (h, 0, PSC_DRIVER_FILE_HEADER_SIZE);
  memcpy (h + OFF_MAGIC, PSC_DRIVER_FILE_MAGIC, 8);
  psc_put_le32 (h + OFF_FORMAT_VERSION, PSC_DRIVER_FILE_VERSION);
  psc_put_le32 (h + OFF_HEADER_SIZE, PSC_DRIVER_FILE_HEADER_SIZE);
  psc_put_le32 (h + OFF_LIBRARY_VERSION, PSC_LIBRARY_VERSION);
  psc_put_le32 (h + OFF_PLATFORM, psc_file_platform ());
  psc_put_le32 (h + OFF_VENDOR, id->vendor_id);
  psc_put_le32 (h + OFF_DEVICE, id->device_id);
  psc_put_le32 (h + OFF_DRIVER_VERSION, id->driver_version);
  psc_put_le32 (h + OFF_COMPRESSION, compression);
  memcpy (h + OFF_UUID, id->uuid, VK_UUID_SIZE);
  psc_put_le64 (h + OFF_PAYLOAD_SIZE, payload_size);
  psc_put_le64 (h + OFF_RAW_SIZE, raw_size);
  psc_put_le64 (h + OFF_WRITTEN_AT, written_at);
}

/* The payload after the header at out: compressed (returns its size, or 0
 * if zstd failed) or copied (returns blob_len). out has room for
 * ZSTD_compressBound (blob_len) bytes when compressing. */
static size_t
write_payload (uint8_t *out, size_t cap, const void *blob, size_t blob_len,
               bool compress, int level)
{
  if (!compress)
    {
      if (blob_len > 0)
        memcpy (out, blob, blob_len);
      return blob_len;
    }
  const size_t n = ZSTD_compress (out, cap, blob, blob_len, level);
  return ZSTD_isError (n) ? 0 : n;
}

PscFileReason
psc_driver_file_write (const PscDeviceIdentity *id, const void *blob, size_t blob_len,
                       bool compress, int level, uint64_t written_at,
                       uint8_t **out, size_t *out_len)
{
  *out = NULL;
  *out_len = 0;
  if (blob_len > PSC_DRIVER_FILE_DEFAULT_MAX_RAW * 4)
    return PSC_FILE_OVERSIZED;
  const size_t cap = compress ? ZSTD_compressBound (blob_len) : blob_len;
  uint8_t *file = malloc (PSC_DRIVER_FILE_HEADER_SIZE + cap);
  if (file == NULL)
    return PSC_FILE_OUT_OF_MEMORY;
  uint8_t *payload = file + PSC_DRIVER_FILE_HEADER_SIZE;
  size_t payload_len = write_payload (payload, cap, blob, blob_len, compress, level);
  if (compress && payload_len == 0)
    {
      free (file);   /* zstd fails only when it cannot allocate its context */
      return PSC_FILE_OUT_OF_MEMORY;
    }
  /* Data zstd cannot shrink is stored: the file is never larger than the
   * data plus its header, so what fits the restore cap stays loadable. */
  if (compress && payload_len >= blob_len)
    {
      compress = false;
      payload_len = write_payload (payload, cap, blob, blob_len, false, level);
    }
  write_fields (file, id,
                compress ? PSC_DRIVER_FILE_COMPRESSION_ZSTD : PSC_DRIVER_FILE_COMPRESSION_NONE,
                payload_len, blob_len, written_at);
  psc_put_le64 (file + OFF_CHECKSUM, file_checksum (file, payload, payload_len));
  const size_t total = PSC_DRIVER_FILE_HEADER_SIZE + payload_len;
  uint8_t *shrunk = realloc (file, total);
  *out = shrunk ? shrunk : file;
  *out_len = total;
  return PSC_FILE_OK;
}

/* Every header field; data holds at least PSC_DRIVER_FILE_HEADER_SIZE bytes. */
static void
read_fields (const uint8_t *h, PscDriverFileInfo *info)
{
  info->format_version = psc_le32 (h + OFF_FORMAT_VERSION);
  info->header_size = psc_le32 (h + OFF_HEADER_SIZE);
  info->library_version = psc_le32 (h + OFF_LIBRARY_VERSION);
  info->platform = psc_le32 (h + OFF_PLATFORM);
  info->compression = psc_le32 (h + OFF_COMPRESSION);
  info->identity.vendor_id = psc_le32 (h + OFF_VENDOR);
  info->identity.device_id = psc_le32 (h + OFF_DEVICE);
  info->identity.driver_version = psc_le32 (h + OFF_DRIVER_VERSION);
  memcpy (info->identity.uuid, h + OFF_UUID, VK_UUID_SIZE);
  info->payload_size = psc_le64 (h + OFF_PAYLOAD_SIZE);
  info->raw_size = psc_le64 (h + OFF_RAW_SIZE);
  info->written_at = psc_le64 (h + OFF_WRITTEN_AT);
  info->checksum = psc_le64 (h + OFF_CHECKSUM);
}

PscFileReason
psc_driver_file_read_header (const uint8_t *data, size_t len, PscDriverFileInfo *info)
{
  memset (info, 0, sizeof *info);
  if (len == 0)
    return PSC_FILE_EMPTY;
  if (len < PSC_DRIVER_FILE_HEADER_SIZE)
    return PSC_FILE_TRUNCATED;
  if (memcmp (data + OFF_MAGIC, PSC_DRIVER_FILE_MAGIC, 8) != 0)
    return PSC_FILE_BAD_MAGIC;
  read_fields (data, info);
  if (info->format_version != PSC_DRIVER_FILE_VERSION)
    return PSC_FILE_FORMAT_VERSION;
  if (info->header_size != PSC_DRIVER_FILE_HEADER_SIZE
      || info->compression > PSC_DRIVER_FILE_COMPRESSION_ZSTD
      || psc_le64 (data + OFF_RESERVED) != 0)
    return PSC_FILE_BAD_HEADER;
  const size_t present = len - PSC_DRIVER_FILE_HEADER_SIZE;
  if (info->payload_size > present)
    return PSC_FILE_TRUNCATED;
  if (info->payload_size < present)
    return PSC_FILE_TRAILING_DATA;
  return PSC_FILE_OK;
}

/* The identity in the file against the one expected. */
static PscFileReason
check_identity (const PscDeviceIdentity *file, const PscDeviceIdentity *expect)
{
  if (file->vendor_id != expect->vendor_id)
    return PSC_FILE_VENDOR;
  if (file->device_id != expect->device_id)
    return PSC_FILE_DEVICE;
  if (file->driver_version != expect->driver_version)
    return PSC_FILE_DRIVER_VERSION;
  if (memcmp (file->uuid, expect->uuid, VK_UUID_SIZE) != 0)
    return PSC_FILE_UUID;
  return PSC_FILE_OK;
}

/* A zstd payload as exactly raw bytes (raw <= max_raw already): one frame,
 * whose own content size is raw, checked before the buffer is allocated. */
static PscFileReason
decompress_payload (const uint8_t *payload, size_t plen, size_t raw, uint8_t **out)
{
  const unsigned long long content = ZSTD_getFrameContentSize (payload, plen);
  if (ZSTD_findFrameCompressedSize (payload, plen) != plen
      || content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR
      || content != (unsigned long long) raw)
    return PSC_FILE_DECOMPRESS;
  uint8_t *buf = psc_file_buffer_new (raw);
  if (buf == NULL)
    return PSC_FILE_OUT_OF_MEMORY;
  const size_t n = ZSTD_decompress (buf, raw, payload, plen);
  if (ZSTD_isError (n) || n != raw)
    {
      free (buf);
      return PSC_FILE_DECOMPRESS;
    }
  *out = buf;
  return PSC_FILE_OK;
}

/* The payload as exactly raw_size bytes: copied when stored (its size must
 * be the raw size), else decompressed. */
static PscFileReason
decode_payload (const uint8_t *payload, const PscDriverFileInfo *info, uint8_t **out)
{
  const size_t raw = (size_t) info->raw_size;
  const size_t plen = (size_t) info->payload_size;
  if (info->compression == PSC_DRIVER_FILE_COMPRESSION_ZSTD)
    return decompress_payload (payload, plen, raw, out);
  if (plen != raw)
    return PSC_FILE_DECOMPRESS;
  uint8_t *buf = psc_file_buffer_new (raw);
  if (buf == NULL)
    return PSC_FILE_OUT_OF_MEMORY;
  if (raw > 0)
    memcpy (buf, payload, raw);
  *out = buf;
  return PSC_FILE_OK;
}

/* The checks of psc_driver_file_read up to (not including) decompression. */
static PscFileReason
check_file (const uint8_t *data, size_t len, const PscDeviceIdentity *expect,
            size_t max_raw, PscDriverFileInfo *info)
{
  PscFileReason r = psc_driver_file_read_header (data, len, info);
  if (r != PSC_FILE_OK)
    return r;
  if (info->payload_size > max_raw || info->raw_size > max_raw)
    return PSC_FILE_OVERSIZED;
  const uint8_t *payload = data + PSC_DRIVER_FILE_HEADER_SIZE;
  if (file_checksum (data, payload, (size_t) info->payload_size) != info->checksum)
    return PSC_FILE_CHECKSUM;
  if (info->platform != psc_file_platform ())
    return PSC_FILE_PLATFORM;
  return expect ? check_identity (&info->identity, expect) : PSC_FILE_OK;
}

PscFileReason
psc_driver_file_read (const uint8_t *data, size_t len, const PscDeviceIdentity *expect,
                      size_t max_raw, uint8_t **blob, size_t *blob_len,
                      PscDriverFileInfo *info)
{
  PscDriverFileInfo local;
  if (info == NULL)
    info = &local;
  *blob = NULL;
  *blob_len = 0;
  PscFileReason r = check_file (data, len, expect, max_raw, info);
  if (r != PSC_FILE_OK)
    return r;
  uint8_t *raw = NULL;
  r = decode_payload (data + PSC_DRIVER_FILE_HEADER_SIZE, info, &raw);
  if (r != PSC_FILE_OK)
    return r;
  /* The identity was matched above, so any disagreement of the blob's own
   * header is the blob's fault, whichever field it is. */
  const PscDeviceIdentity *id = expect ? expect : &info->identity;
  if (psc_vk_cache_header_check (raw, (size_t) info->raw_size, id) != PSC_FILE_OK)
    {
      free (raw);
      return PSC_FILE_VULKAN_HEADER;
    }
  *blob = raw;
  *blob_len = (size_t) info->raw_size;
  return PSC_FILE_OK;
}

PscFileReason
psc_vk_cache_header_check (const uint8_t *blob, size_t len, const PscDeviceIdentity *id)
{
  if (len < VK_HEADER_ONE_SIZE)
    return PSC_FILE_VULKAN_HEADER;
  const uint32_t header_size = psc_le32 (blob);
  if (header_size < VK_HEADER_ONE_SIZE || header_size > len)
    return PSC_FILE_VULKAN_HEADER;
  if (psc_le32 (blob + 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
    return PSC_FILE_VULKAN_HEADER;
  if (psc_le32 (blob + 8) != id->vendor_id)
    return PSC_FILE_VENDOR;
  if (psc_le32 (blob + 12) != id->device_id)
    return PSC_FILE_DEVICE;
  if (memcmp (blob + 16, id->uuid, VK_UUID_SIZE) != 0)
    return PSC_FILE_UUID;
  return PSC_FILE_OK;
}
