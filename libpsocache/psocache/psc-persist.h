/* psc-persist.h: the persistence counters and the reasons persistent data
 * is refused (docs/persistence.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <psocache/psc-macros.h>

G_BEGIN_DECLS

/**
 * PscPersistCounter:
 * @PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED: Vulkan pipeline-cache bytes the
 *   driver accepted: from the driver file when the cache was created, from
 *   [method@Psc.Cache.load_bytes], and from another process's file merged
 *   before a save
 * @PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED: driver files (or blobs) that
 *   passed validation and were given to the driver
 * @PSC_PERSIST_COUNTER_SAVES: files written
 * @PSC_PERSIST_COUNTER_SAVES_SKIPPED: saves that wrote nothing because
 *   nothing had changed since the last load or save
 * @PSC_PERSIST_COUNTER_SAVE_FAILURES: saves that failed (a full disk, an
 *   unwritable directory, a link or non-regular file in the way); the
 *   previous file was left intact
 * @PSC_PERSIST_COUNTER_MERGES: saves that found the file replaced by
 *   another process since it was read, merged that data in and retried
 * @PSC_PERSIST_COUNTER_FILES_REMOVED: files deleted: stale temporary files,
 *   the data of device identities unused for 7 days or superseded by a
 *   driver update, and least-recently-used files over the disk quota
 * @PSC_PERSIST_COUNTER_DISK_BYTES: bytes in the cache directory after the
 *   last save or trim (a gauge)
 * @PSC_PERSIST_COUNTER_REJECTED_TOTAL: files and blobs refused, all reasons
 *   together ([method@Psc.Stats.get_file_rejections] tells them apart)
 * @PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED: Vulkan pipeline-cache bytes in
 *   the last driver file written (a gauge)
 * @PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS: pipeline creations the driver
 *   reported (`VkPipelineCreationFeedback`, Vulkan 1.3) as served from the
 *   pipeline cache: in a warm start, what the loaded data saved
 * @PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES: pipeline creations the driver
 *   reported as compiled (neither counts on a device without feedback;
 *   with or without persistence)
 * @PSC_PERSIST_COUNTER_RECIPES_LOADED: warm-up recipes (pipeline records)
 *   read from the recipes file when the cache was created
 * @PSC_PERSIST_COUNTER_RECIPES_STALE: recipes prewarm skipped because they
 *   no longer resolve (a shader not registered with that exact SPIR-V, a
 *   missing or undecodable record, a create info this cache refuses)
 * @PSC_PERSIST_COUNTER_RECIPES_PREWARMED: recipes compiled by prewarm
 *   (their pipelines Ready, or already Ready when prewarm reached them)
 * @PSC_PERSIST_COUNTER_RECIPES_SAVED: pipeline records appended to the
 *   recipes file
 * @PSC_PERSIST_COUNTER_ARTIFACTS_LOADED: SPIR-V artifacts (persistent layer
 *   2) read from the artifact log when the cache was created and found
 *   valid (distinct keys: what a warm start can serve without compiling)
 * @PSC_PERSIST_COUNTER_ARTIFACT_HITS: registrations by
 *   [method@Psc.Cache.register_shader_source] that a stored artifact
 *   served without calling the compile callback (with or without
 *   persistence: in memory, a source registered again after its first
 *   compile)
 * @PSC_PERSIST_COUNTER_ARTIFACT_MISSES: registrations by
 *   [method@Psc.Cache.register_shader_source] that called the compile
 *   callback: no artifact for the key, or one that was refused (with or
 *   without persistence)
 * @PSC_PERSIST_COUNTER_STRICT_MISSES: with %PSC_CACHE_FLAGS_STRICT_RECIPES,
 *   pipelines compiled on demand that no warm-up recipe covered
 *
 * Counters of a cache's persistence, read with
 * [method@Psc.Stats.get_persist]. All are zero while persistence is off
 * (see [property@Psc.Cache:cache-directory]), except those of the bytes API
 * and those that say otherwise. Later versions may add counters.
 *
 * Since: 0.2
 */
typedef enum {
  PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED,
  PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED,
  PSC_PERSIST_COUNTER_SAVES,
  PSC_PERSIST_COUNTER_SAVES_SKIPPED,
  PSC_PERSIST_COUNTER_SAVE_FAILURES,
  PSC_PERSIST_COUNTER_MERGES,
  PSC_PERSIST_COUNTER_FILES_REMOVED,
  PSC_PERSIST_COUNTER_DISK_BYTES,
  PSC_PERSIST_COUNTER_REJECTED_TOTAL,
  PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED,
  PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS,
  PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES,
  PSC_PERSIST_COUNTER_RECIPES_LOADED,
  PSC_PERSIST_COUNTER_RECIPES_STALE,
  PSC_PERSIST_COUNTER_RECIPES_PREWARMED,
  PSC_PERSIST_COUNTER_RECIPES_SAVED,
  PSC_PERSIST_COUNTER_ARTIFACTS_LOADED,
  PSC_PERSIST_COUNTER_ARTIFACT_HITS,
  PSC_PERSIST_COUNTER_ARTIFACT_MISSES,
  PSC_PERSIST_COUNTER_STRICT_MISSES,
} PscPersistCounter;

/**
 * PscFileRejection:
 * @PSC_FILE_REJECTION_EMPTY: `empty`: the file has no bytes
 * @PSC_FILE_REJECTION_TRUNCATED: `truncated`: shorter than its header or its
 *   sizes say (for example a save that was interrupted)
 * @PSC_FILE_REJECTION_TRAILING_DATA: `trailing-data`: longer than its sizes say
 * @PSC_FILE_REJECTION_BAD_MAGIC: `bad-magic`: not a libpsocache file of
 *   this kind
 * @PSC_FILE_REJECTION_FORMAT_VERSION: `format-version`: a format version
 *   this library cannot read
 * @PSC_FILE_REJECTION_BAD_HEADER: `bad-header`: header fields out of range
 * @PSC_FILE_REJECTION_PLATFORM: `platform`: written on another CPU
 *   architecture or ABI
 * @PSC_FILE_REJECTION_VENDOR: `vendor`: for another GPU vendor
 * @PSC_FILE_REJECTION_DEVICE: `device`: for another GPU model
 * @PSC_FILE_REJECTION_DRIVER_VERSION: `driver-version`: for another driver
 *   version
 * @PSC_FILE_REJECTION_UUID: `uuid`: for another `pipelineCacheUUID`
 * @PSC_FILE_REJECTION_OVERSIZED: `oversized`: above the restore cap
 *   ([property@Psc.Cache:driver-data-limit])
 * @PSC_FILE_REJECTION_CHECKSUM: `checksum`: the checksum does not match
 * @PSC_FILE_REJECTION_DECOMPRESS: `decompress`: the compressed data is damaged
 * @PSC_FILE_REJECTION_VULKAN_HEADER: `vulkan-header`: the Vulkan data's own
 *   header disagrees with the device
 * @PSC_FILE_REJECTION_DRIVER_REJECTED: `driver-rejected`: the driver refused
 *   the data (`vkCreatePipelineCache` failed with it)
 * @PSC_FILE_REJECTION_BAD_RECORD: `bad-record`: a log record was damaged
 *   and skipped
 * @PSC_FILE_REJECTION_TORN_TAIL: `torn-tail`: a log ended inside a record
 * @PSC_FILE_REJECTION_NOT_REGULAR: `not-regular`: a directory, device or
 *   FIFO where a cache file should be (never read or written through)
 * @PSC_FILE_REJECTION_SYMLINK: `symlink`: a symbolic link where a cache file
 *   should be (never followed)
 * @PSC_FILE_REJECTION_IO: `io`: the file could not be read
 * @PSC_FILE_REJECTION_OUT_OF_MEMORY: `out-of-memory`
 * @PSC_FILE_REJECTION_STALE: `stale`: valid data that names content that no
 *   longer exists
 *
 * Why persistent data was not used. The names in backquotes are stable:
 * they are the keys `persistence.rejected.<name>` of
 * [method@Psc.Stats.to_variant] and of the tools' JSON output, and error
 * messages of %PSC_ERROR_INVALID_DATA name them. A rejected file never
 * changes what the cache creates: it starts cold. Later versions may add
 * reasons.
 *
 * Since: 0.2
 */
typedef enum {
  PSC_FILE_REJECTION_EMPTY = 1,
  PSC_FILE_REJECTION_TRUNCATED,
  PSC_FILE_REJECTION_TRAILING_DATA,
  PSC_FILE_REJECTION_BAD_MAGIC,
  PSC_FILE_REJECTION_FORMAT_VERSION,
  PSC_FILE_REJECTION_BAD_HEADER,
  PSC_FILE_REJECTION_PLATFORM,
  PSC_FILE_REJECTION_VENDOR,
  PSC_FILE_REJECTION_DEVICE,
  PSC_FILE_REJECTION_DRIVER_VERSION,
  PSC_FILE_REJECTION_UUID,
  PSC_FILE_REJECTION_OVERSIZED,
  PSC_FILE_REJECTION_CHECKSUM,
  PSC_FILE_REJECTION_DECOMPRESS,
  PSC_FILE_REJECTION_VULKAN_HEADER,
  PSC_FILE_REJECTION_DRIVER_REJECTED,
  PSC_FILE_REJECTION_BAD_RECORD,
  PSC_FILE_REJECTION_TORN_TAIL,
  PSC_FILE_REJECTION_NOT_REGULAR,
  PSC_FILE_REJECTION_SYMLINK,
  PSC_FILE_REJECTION_IO,
  PSC_FILE_REJECTION_OUT_OF_MEMORY,
  PSC_FILE_REJECTION_STALE,
} PscFileRejection;

G_END_DECLS
