/* file-reason.h: why a cache file (or a part of one) was not used. Shared
 * by every file format (driver-file.h, record-log.h) and by the I/O layer
 * above the core, so a counter, a log line and `psocache-tool` name a
 * rejection the same way. Plain C, no I/O.
 *
 * The names returned by psc_file_reason_name() are stable: they are the
 * keys of the "rejected" dictionary in statistics, in `psocache-demo
 * --json` and in `psocache-tool --json` (documented in docs/persistence.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "../psc-core.h"

typedef enum {
  PSC_FILE_OK = 0,
  PSC_FILE_EMPTY,             /* "empty": zero bytes */
  PSC_FILE_TRUNCATED,         /* "truncated": shorter than its header or sizes say */
  PSC_FILE_TRAILING_DATA,     /* "trailing-data": longer than its sizes say */
  PSC_FILE_BAD_MAGIC,         /* "bad-magic": not a file of this kind */
  PSC_FILE_FORMAT_VERSION,    /* "format-version": a format version this library cannot read */
  PSC_FILE_BAD_HEADER,        /* "bad-header": header fields out of range (sizes, flags, reserved bytes) */
  PSC_FILE_PLATFORM,          /* "platform": written on another CPU architecture or ABI */
  PSC_FILE_VENDOR,            /* "vendor": another GPU vendor */
  PSC_FILE_DEVICE,            /* "device": another GPU model */
  PSC_FILE_DRIVER_VERSION,    /* "driver-version": another driver version */
  PSC_FILE_UUID,              /* "uuid": another pipelineCacheUUID */
  PSC_FILE_OVERSIZED,         /* "oversized": above the restore cap */
  PSC_FILE_CHECKSUM,          /* "checksum": the checksum does not match */
  PSC_FILE_DECOMPRESS,        /* "decompress": zstd failed or gave another size */
  PSC_FILE_VULKAN_HEADER,     /* "vulkan-header": the driver blob's own header disagrees */
  PSC_FILE_DRIVER_REJECTED,   /* "driver-rejected": vkCreatePipelineCache refused the data */
  PSC_FILE_BAD_RECORD,        /* "bad-record": a log record failed its checksum or structure (skipped) */
  PSC_FILE_TORN_TAIL,         /* "torn-tail": a log ends inside a record (the tail is ignored) */
  PSC_FILE_NOT_REGULAR,       /* "not-regular": a directory, device or FIFO where a file should be */
  PSC_FILE_SYMLINK,           /* "symlink": a symbolic link where a file should be (never followed) */
  PSC_FILE_IO,                /* "io": the file could not be read */
  PSC_FILE_OUT_OF_MEMORY,     /* "out-of-memory" */
  PSC_FILE_STALE,             /* "stale": valid, but it names content that no longer exists */
  PSC_FILE_REASON_COUNT
} PscFileReason;

/* The stable name of a reason ("checksum"); "unknown" outside the enum. */
PSC_INTERNAL const char *psc_file_reason_name (PscFileReason reason);
/* A short English sentence for messages ("the checksum does not match"). */
PSC_INTERNAL const char *psc_file_reason_describe (PscFileReason reason);

/* The platform code written into every file: the ELF machine number of the
 * build target in bits 0-15, the pointer width in bits (32 or 64) in bits
 * 16-23, and 1 in bit 24 for a big-endian target. Files are read only on
 * the platform that wrote them (PSC_FILE_PLATFORM otherwise). */
PSC_INTERNAL uint32_t psc_file_platform (void);

/* A buffer for a whole file or its decoded data (free with free()). Above
 * 2 MiB it is 2 MiB-aligned and advised for transparent huge pages
 * (Linux's madvise mode), so a starting process that loads tens of MiB
 * takes a few dozen page faults, not thousands: on the H200 host the faults
 * of fresh 4 KiB pages, not checksums or zstd, bounded the load rate. NULL
 * when out of memory. */
PSC_INTERNAL void *psc_file_buffer_new (size_t size);

/* Little-endian field access (the formats are little-endian everywhere). */
static inline uint32_t
psc_le32 (const uint8_t *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}
static inline uint64_t
psc_le64 (const uint8_t *p)
{
  return (uint64_t) psc_le32 (p) | (uint64_t) psc_le32 (p + 4) << 32;
}
static inline void
psc_put_le32 (uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t) v; p[1] = (uint8_t) (v >> 8); p[2] = (uint8_t) (v >> 16); p[3] = (uint8_t) (v >> 24);
}
static inline void
psc_put_le64 (uint8_t *p, uint64_t v)
{
  psc_put_le32 (p, (uint32_t) v);
  psc_put_le32 (p + 4, (uint32_t) (v >> 32));
}
