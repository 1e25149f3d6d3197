/* driver-file.h: the driver pipeline-cache file (persistent layer 1, seed
 * 003): one device identity's VkPipelineCache data behind a validated
 * header. In memory only (parse, validate, serialize); no I/O.
 *
 * A whole-file snapshot: the I/O layer writes it by atomic replace.
 *
 * Layout (little-endian; documented in docs/file-formats.md):
 *
 *   offset size field
 *        0    8 magic "PSCDRV\r\n"
 *        8    4 format version (PSC_DRIVER_FILE_VERSION)
 *       12    4 header size (PSC_DRIVER_FILE_HEADER_SIZE)
 *       16    4 library version that wrote it (major << 16 | minor << 8 | micro)
 *       20    4 platform (psc_file_platform ())
 *       24    4 vendorID
 *       28    4 deviceID
 *       32    4 driverVersion
 *       36    4 compression: 0 none, 1 zstd
 *       40   16 pipelineCacheUUID
 *       56    8 payload size (bytes after the header)
 *       64    8 raw size (the Vulkan data, after decompression)
 *       72    8 written at (seconds since the epoch; informational)
 *       80    8 reserved, zero
 *       88    8 checksum: XXH3-64 of bytes 0..87 followed by the payload
 *       96      payload
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "file-reason.h"

#define PSC_DRIVER_FILE_MAGIC "PSCDRV\r\n"
#define PSC_DRIVER_FILE_VERSION 1u
#define PSC_DRIVER_FILE_HEADER_SIZE 96u
#define PSC_DRIVER_FILE_COMPRESSION_NONE 0u
#define PSC_DRIVER_FILE_COMPRESSION_ZSTD 1u
/* The default restore cap (seed 003): raw Vulkan data above it is refused. */
#define PSC_DRIVER_FILE_DEFAULT_MAX_RAW ((size_t) 64 << 20)

/* What identifies the device a driver blob belongs to. */
typedef struct {
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t driver_version;
  uint8_t uuid[VK_UUID_SIZE];
} PscDeviceIdentity;

/* The header fields, as read (valid after psc_driver_file_read_header
 * returned PSC_FILE_OK, or any reason after the magic was recognized). */
typedef struct {
  uint32_t format_version;
  uint32_t header_size;
  uint32_t library_version;
  uint32_t platform;
  uint32_t compression;
  PscDeviceIdentity identity;
  uint64_t payload_size;
  uint64_t raw_size;
  uint64_t written_at;
  uint64_t checksum;
} PscDriverFileInfo;

/* Serializes a driver blob: header + payload (zstd at `level` when
 * `compress` and zstd makes it smaller, else stored). *out is malloc'd (free with free()). Returns
 * PSC_FILE_OK or PSC_FILE_OUT_OF_MEMORY (or PSC_FILE_OVERSIZED for a blob
 * above PSC_DRIVER_FILE_DEFAULT_MAX_RAW * 4, never written). */
PSC_INTERNAL PscFileReason psc_driver_file_write (const PscDeviceIdentity *id,
                                                  const void *blob, size_t blob_len,
                                                  bool compress, int level,
                                                  uint64_t written_at,
                                                  uint8_t **out, size_t *out_len);

/* Checks the structure of a file without its payload's content, in this
 * order: empty; truncated (shorter than the header); magic; format
 * version; header size, compression, reserved bytes (PSC_FILE_BAD_HEADER);
 * truncated (shorter than header + payload size); trailing data (longer).
 * Sizes are read only from a header whose magic was recognized. Fills
 * *info as far as it could read (all zero before the magic is recognized).
 * No checksum, identity or size-cap check. */
PSC_INTERNAL PscFileReason psc_driver_file_read_header (const uint8_t *data, size_t len,
                                                        PscDriverFileInfo *info);

/* Validates a whole file and returns its Vulkan data. In order: the
 * structure (psc_driver_file_read_header), the size cap (payload or raw
 * size above max_raw: PSC_FILE_OVERSIZED), the checksum, the platform, the
 * identity against *expect (vendor, device, driver version, UUID; skipped
 * when expect is NULL), decompression to exactly the raw size, and the
 * Vulkan blob's own header (psc_vk_cache_header_check against *expect, or
 * against the file's own identity when expect is NULL; any disagreement
 * there is PSC_FILE_VULKAN_HEADER, since the identity matched). Only on
 * PSC_FILE_OK is *blob set (malloc'd; free with free()) with *blob_len
 * bytes; on any failure *blob is NULL. info may be NULL. */
PSC_INTERNAL PscFileReason psc_driver_file_read (const uint8_t *data, size_t len,
                                                 const PscDeviceIdentity *expect,
                                                 size_t max_raw,
                                                 uint8_t **blob, size_t *blob_len,
                                                 PscDriverFileInfo *info);

/* Checks a VkPipelineCache blob's header (VkPipelineCacheHeaderVersionOne):
 * at least 32 bytes and headerSize bytes, headerSize >= 32, headerVersion
 * VK_PIPELINE_CACHE_HEADER_VERSION_ONE, then vendorID (PSC_FILE_VENDOR),
 * deviceID (PSC_FILE_DEVICE) and pipelineCacheUUID (PSC_FILE_UUID) equal
 * to *id; any structural fault is PSC_FILE_VULKAN_HEADER. */
PSC_INTERNAL PscFileReason psc_vk_cache_header_check (const uint8_t *blob, size_t len,
                                                      const PscDeviceIdentity *id);
