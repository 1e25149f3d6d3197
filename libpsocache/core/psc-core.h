/* psc-core.h: the core's one internal interface (plain C11, no GLib).
 *
 * The core owns every cached Vulkan object. It never aborts on caller input:
 * each request returns a PscStatus and, on failure, fills a PscCoreError with
 * the failing field path. It allocates only on misses (never on a hit).
 *
 * Threads: a PscCore has one owner thread, the thread that created it. Every
 * function below that takes a PscCore and is not marked "any thread" must be
 * called there; the core checks and fails with PSC_STATUS_WRONG_THREAD.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PSC_INTERNAL __attribute__((visibility ("hidden")))

/* Status codes. The numbering equals the public PscError enum (checked by a
 * static assertion in the GObject layer); PSC_STATUS_OK is separate. */
typedef enum {
  PSC_STATUS_OK = -1,
  PSC_STATUS_FAILED = 0,
  PSC_STATUS_INVALID_ARGUMENT = 1,
  PSC_STATUS_UNSUPPORTED = 2,
  PSC_STATUS_FOREIGN_HANDLE = 3,
  PSC_STATUS_CAPACITY = 4,
  PSC_STATUS_VULKAN = 5,
  PSC_STATUS_WRONG_THREAD = 6,
  PSC_STATUS_NO_DEVICE = 7,
  PSC_STATUS_QUEUE_FULL = 8,    /* a bounded queue was full; the request was skipped */
  PSC_STATUS_CLOSED = 9,        /* the cache is closing or closed: nothing was started */
  PSC_STATUS_DISCARDED = 10,    /* (completions only) superseded by a hot reload */
  PSC_STATUS_INVALID_DATA = 11, /* persistent data refused (corrupt, another device, too big) */
  PSC_STATUS_IO = 12,           /* persistent data could not be read or written */
} PscStatus;
#define PSC_STATUS_COUNT 13

/* Error detail. `path` is the failing field path relative to the request,
 * for example "pStages[1].pSpecializationInfo->mapEntryCount"; `message` is
 * the complete human-readable sentence, e.g.
 * "pStages[1].pSpecializationInfo->mapEntryCount: 9 > 8". */
typedef struct {
  PscStatus status;
  VkResult vk_result;          /* VK_SUCCESS unless status == PSC_STATUS_VULKAN */
  char path[128];
  char message[256];
} PscCoreError;

/* Fills err (which may be NULL) and returns status. Format applies to the part
 * after "path: ". */
PSC_INTERNAL PscStatus psc_core_fail (PscCoreError *err, PscStatus status,
                                      const char *path, const char *fmt, ...)
  __attribute__((format (printf, 4, 5)));
PSC_INTERNAL PscStatus psc_core_fail_vk (PscCoreError *err, VkResult r,
                                         const char *what);
PSC_INTERNAL const char *psc_vk_result_name (VkResult r);

/* ---------------------------------------------------------------------------
 * Fixed capacities (part of the documented ABI; exceeding one is
 * PSC_STATUS_CAPACITY naming the field).
 */
#define PSC_MAX_SPEC_CONSTANTS        8   /* per stage */
#define PSC_MAX_SPEC_VALUE_BYTES      64  /* per constant */
#define PSC_MAX_ENTRY_NAME            63  /* bytes, without the NUL */
#define PSC_MAX_GRAPHICS_STAGES       5
#define PSC_MAX_VERTEX_BINDINGS       16
#define PSC_MAX_VERTEX_ATTRIBUTES     32
#define PSC_MAX_COLOR_ATTACHMENTS     8
#define PSC_MAX_VIEWPORTS             16
#define PSC_MAX_SET_BINDINGS          64  /* per descriptor-set layout */
#define PSC_MAX_IMMUTABLE_SAMPLERS    32  /* per binding */
#define PSC_MAX_SET_LAYOUTS           16  /* per pipeline layout */
#define PSC_MAX_PUSH_RANGES           8
#define PSC_MAX_PASS_ATTACHMENTS      16
#define PSC_MAX_SUBPASSES             8
#define PSC_MAX_SUBPASS_REFS          16  /* input or color refs per subpass */
#define PSC_MAX_PRESERVE_REFS         16
#define PSC_MAX_SUBPASS_DEPENDENCIES  16
#define PSC_COLLISION_BUCKET_CAPACITY 4   /* distinct keys per full 64-bit hash */
#define PSC_MAX_KEY_BYTES             8192

/* ---------------------------------------------------------------------------
 * Dispatch (dispatch.c). volk is compiled privately; its global function
 * pointers are never written. Tables are loaded from the application's
 * vkGetInstanceProcAddr.
 */
struct VolkDeviceTable;
typedef struct {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2; /* may be NULL on 1.0 */
  PFN_vkSetDebugUtilsObjectNameEXT SetDebugUtilsObjectNameEXT; /* NULL unless enabled */
} PscInstanceTable;

/* Loads the instance table. Returns false if vkGetDeviceProcAddr or
 * vkGetPhysicalDeviceProperties cannot be loaded. */
PSC_INTERNAL bool psc_dispatch_load_instance (PscInstanceTable *it,
                                              PFN_vkGetInstanceProcAddr gipa,
                                              VkInstance instance,
                                              bool debug_utils);
/* Allocates and loads a volk device table through it->GetDeviceProcAddr.
 * Returns NULL on allocation failure. Free with free(). */
PSC_INTERNAL struct VolkDeviceTable *psc_dispatch_load_device (const PscInstanceTable *it,
                                                               VkDevice device);
/* For tests: true if every volk global function pointer that the core could
 * use is still NULL. */
PSC_INTERNAL bool psc_dispatch_volk_globals_untouched (void);

/* ---------------------------------------------------------------------------
 * Key writer (its helpers are in keys.h) and key hash (encode.c). Encoders
 * append packed, padding-free records; only the bytes written are hashed,
 * stored and compared.
 */
typedef struct {
  uint8_t *data;
  size_t len;
  size_t cap;
} PscKeyWriter;

PSC_INTERNAL uint64_t psc_key_hash (const void *data, size_t len);

/* A specialization constant a shader declares (OpDecorate SpecId): its id
 * and the byte size a VkSpecializationMapEntry must give it (4 for a
 * boolean, else the width of its integer or float type). */
typedef struct {
  uint32_t constant_id;
  uint32_t size;
} PscSpecConstant;

/* What the resolver knows of a cache-issued shader module: its id, its
 * hot-reload generation, and its specialization constants sorted by id
 * (owned by the resolver, valid while the memo epoch is unchanged). */
typedef struct {
  uint32_t id;
  uint32_t generation;
  const PscSpecConstant *spec;
  uint32_t spec_count;
} PscShaderInfo;

/* A small memo of shader and pipeline-layout resolutions for the graphics
 * fast path, owned with its resolver (owner thread only). A slot is valid
 * while its epoch equals *epoch, which the owner bumps whenever a handle
 * could stop resolving or resolve differently (a handle unmapped, a shader
 * released or reloaded). Only successful lookups are kept. */
typedef struct {
  uint64_t handle;
  uint32_t id, generation;
  uint32_t epoch;
  uint32_t spec_count;               /* shader slots: PscShaderInfo */
  const PscSpecConstant *spec;
} PscResolverMemoSlot;

#define PSC_RESOLVER_MEMO_SLOTS 16   /* a power of two */

typedef struct {
  const uint32_t *epoch;
  PscResolverMemoSlot shader[PSC_RESOLVER_MEMO_SLOTS];
  PscResolverMemoSlot layout[PSC_RESOLVER_MEMO_SLOTS];
} PscResolverMemo;

/* The resolver maps handles named in a request to cache-issued ids (never
 * handle values) and back. The core implements it over its tables; unit
 * tests implement it with fakes. Every lookup returns false for a handle the
 * cache did not issue (or that was destroyed). */
typedef struct {
  void *ctx;
  bool (*shader) (void *ctx, VkShaderModule module, PscShaderInfo *info);
  bool (*sampler) (void *ctx, VkSampler sampler, uint32_t *id);
  bool (*set_layout) (void *ctx, VkDescriptorSetLayout layout, uint32_t *id);
  bool (*pipeline_layout) (void *ctx, VkPipelineLayout layout, uint32_t *id);
  /* Also returns the pass's subpass count and, for `subpass` (if it is in
   * range), the sample count shared by its color/depth attachments (0 if the
   * subpass uses none). */
  bool (*render_pass) (void *ctx, VkRenderPass pass, uint32_t subpass,
                       uint32_t *id, uint32_t *subpass_count, uint32_t *samples);
  /* Get-or-create the identity of an ordered list of sampler ids: two lists
   * get the same id only if every element is equal. May fail with
   * PSC_STATUS_CAPACITY (bucket) or FAILED (out of memory). */
  PscStatus (*sampler_list) (void *ctx, const uint32_t *sampler_ids, uint32_t count,
                             uint32_t *list_id, PscCoreError *err);
  /* Optional (may be NULL): the colour-attachment count of a cache-issued
   * pass's subpass, so legacy requests can check their blend state. */
  bool (*render_pass_colors) (void *ctx, VkRenderPass pass, uint32_t subpass,
                              uint32_t *color_count);

  /* Reverse direction, for decoding keys into create infos. */
  VkShaderModule (*shader_handle) (void *ctx, uint32_t id);
  VkSampler (*sampler_handle) (void *ctx, uint32_t id);
  /* Writes the list's sampler ids (at most PSC_MAX_IMMUTABLE_SAMPLERS). */
  uint32_t (*sampler_list_ids) (void *ctx, uint32_t list_id, uint32_t *ids);
  VkDescriptorSetLayout (*set_layout_handle) (void *ctx, uint32_t id);
  VkPipelineLayout (*pipeline_layout_handle) (void *ctx, uint32_t id);
  VkRenderPass (*render_pass_handle) (void *ctx, uint32_t id);

  /* Optional (may be NULL): see PscResolverMemo. */
  PscResolverMemo *memo;
} PscResolver;

/* Which rendering description graphics requests must use. */
typedef enum {
  PSC_RENDERING_DYNAMIC = 1,
  PSC_RENDERING_LEGACY = 2,
} PscRenderingMode;

/* ---------------------------------------------------------------------------
 * Canonical keys (encode-*.c). Each encoder validates the create info
 * completely (unsupported values, unknown pNext, foreign handles, capacities)
 * and appends the canonical key to w. On failure it returns the status, fills
 * err with the field path, and w's contents are unspecified.
 *
 * Each decoder rebuilds a create info from a key into caller storage, so the
 * driver is always called with what the key says (never with caller memory).
 */
PSC_INTERNAL PscStatus psc_encode_sampler (const VkSamplerCreateInfo *ci,
                                           PscKeyWriter *w, PscCoreError *err);
PSC_INTERNAL PscStatus psc_encode_set_layout (const VkDescriptorSetLayoutCreateInfo *ci,
                                              const PscResolver *r,
                                              PscKeyWriter *w, PscCoreError *err);
PSC_INTERNAL PscStatus psc_encode_pipeline_layout (const VkPipelineLayoutCreateInfo *ci,
                                                   const PscResolver *r,
                                                   PscKeyWriter *w, PscCoreError *err);
PSC_INTERNAL PscStatus psc_encode_render_pass (const VkRenderPassCreateInfo *ci,
                                               PscKeyWriter *w, PscCoreError *err);
/* Sample count of a pass's subpass (0 if it uses no color/depth attachment),
 * read from an encoded render-pass key; false if subpass is out of range. */
PSC_INTERNAL bool psc_render_pass_key_subpass_samples (const uint8_t *key, size_t len,
                                                       uint32_t subpass,
                                                       uint32_t *subpass_count,
                                                       uint32_t *samples);
/* The colour-attachment count of a pass's subpass; false if out of range. */
PSC_INTERNAL bool psc_render_pass_key_subpass_colors (const uint8_t *key, size_t len,
                                                      uint32_t subpass, uint32_t *color_count);
/* psc_encode_graphics (static inline) is in graphics-key.h. */
/* Shader references of a graphics or compute key, in key order (at most
 * PSC_MAX_GRAPHICS_STAGES): ids, generations, and (optional) the byte offset
 * of each generation field. Returns the count, or -1 for a malformed key. */
PSC_INTERNAL int psc_pipeline_key_shaders (const uint8_t *key, size_t len, uint32_t *ids,
                                           uint32_t *generations, size_t *gen_offsets);
/* Layout + rendering state of a graphics key (fallback registration);
 * out must hold 128 bytes. */
PSC_INTERNAL bool psc_graphics_key_rendering_signature (const uint8_t *key, size_t len,
                                                        uint8_t *out, size_t *out_len);
PSC_INTERNAL PscStatus psc_encode_compute (const VkComputePipelineCreateInfo *ci,
                                           const PscResolver *r,
                                           PscKeyWriter *w, PscCoreError *err);

/* Decoded create infos. Each struct holds all the storage its create info
 * points into; do not copy it after decoding (pointers are internal). */
typedef struct PscSamplerBuild PscSamplerBuild;
typedef struct PscSetLayoutBuild PscSetLayoutBuild;
typedef struct PscPipelineLayoutBuild PscPipelineLayoutBuild;
typedef struct PscRenderPassBuild PscRenderPassBuild;
typedef struct PscGraphicsBuild PscGraphicsBuild;
typedef struct PscComputeBuild PscComputeBuild;

/* Allocate/free build storage (calloc/free); decode fills it. The decode
 * functions return false only for a malformed key (a bug) or an id the
 * resolver no longer knows. */
PSC_INTERNAL void *psc_build_alloc (size_t size);
PSC_INTERNAL size_t psc_sampler_build_size (void);
PSC_INTERNAL size_t psc_set_layout_build_size (void);
PSC_INTERNAL size_t psc_pipeline_layout_build_size (void);
PSC_INTERNAL size_t psc_render_pass_build_size (void);
PSC_INTERNAL size_t psc_graphics_build_size (void);
PSC_INTERNAL size_t psc_compute_build_size (void);

PSC_INTERNAL const VkSamplerCreateInfo *psc_decode_sampler (const uint8_t *key, size_t len,
                                                            PscSamplerBuild *b);
PSC_INTERNAL const VkDescriptorSetLayoutCreateInfo *psc_decode_set_layout (const uint8_t *key, size_t len,
                                                                           const PscResolver *r,
                                                                           PscSetLayoutBuild *b);
PSC_INTERNAL const VkPipelineLayoutCreateInfo *psc_decode_pipeline_layout (const uint8_t *key, size_t len,
                                                                           const PscResolver *r,
                                                                           PscPipelineLayoutBuild *b);
PSC_INTERNAL const VkRenderPassCreateInfo *psc_decode_render_pass (const uint8_t *key, size_t len,
                                                                   PscRenderPassBuild *b);
PSC_INTERNAL const VkGraphicsPipelineCreateInfo *psc_decode_graphics (const uint8_t *key, size_t len,
                                                                      const PscResolver *r,
                                                                      PscGraphicsBuild *b);
PSC_INTERNAL const VkComputePipelineCreateInfo *psc_decode_compute (const uint8_t *key, size_t len,
                                                                    const PscResolver *r,
                                                                    PscComputeBuild *b);

/* ---------------------------------------------------------------------------
 * The cache core (core.c and the modules docs/architecture.md lists).
 */
typedef struct PscCore PscCore;

typedef enum {
  PSC_KIND_SAMPLER,
  PSC_KIND_SET_LAYOUT,
  PSC_KIND_PIPELINE_LAYOUT,
  PSC_KIND_RENDER_PASS,
  PSC_KIND_GRAPHICS,
  PSC_KIND_COMPUTE,
  PSC_KIND_SHADER,
  PSC_KIND_COUNT,
} PscKind;

typedef struct {
  uint64_t hits, misses, creations, creation_ns, entries, host_bytes;
} PscCoreKindStats;

/* Asynchronous-compilation counters. queued and in_flight are gauges (jobs
 * waiting for a worker / being compiled now); retirements_pending is the
 * length of the deferred-destruction queue; the rest count events. */
typedef struct {
  uint64_t queued, in_flight, completed, failed, stale_discards, waiters_served;
  uint64_t overflow_fallbacks, overflow_skips, evictions, retirements_pending;
  uint64_t retired, owner_wait_ns, fallbacks_returned, stale_returned;
  uint64_t unpublished;         /* gauge: compiled, waiting for a pump */
} PscCoreAsyncStats;

typedef struct {
  PscCoreKindStats kinds[PSC_KIND_COUNT];
  uint64_t capacity_failures;
  uint64_t rejected[PSC_STATUS_COUNT];
  uint64_t frame;
  PscCoreAsyncStats async;
  /* Pipeline creations (owner thread or workers) that the driver reported
   * through VkPipelineCreationFeedback (Vulkan 1.3) as served from the
   * pipeline cache given to it, and as not. Neither counts without
   * feedback. */
  uint64_t driver_cache_hits, driver_cache_misses;
  /* Owner-thread events (events.h) that did not fit their bounded queue. */
  uint64_t events_dropped;
} PscCoreStats;

/* Test-only configuration. Zero means "off" for every field. */
typedef struct {
  /* Every key hashes to forced_hash (fills collision buckets). */
  bool force_hash;
  uint64_t forced_hash;
  /* The next fail_compiles pipeline compilations (sync or async) fail with
   * fail_result, as the driver would. */
  uint32_t fail_compiles;
  VkResult fail_result;
  /* Plants a data race in the worker -> pump hand-off, so a
   * ThreadSanitizer control run can prove it would be caught. */
  bool plant_race;
  /* Not read by the core: every persistence write of the cache fails with
   * this GIOErrorEnum (a full disk, a failed rename), 0 = none. */
  int persist_write_error;
  /* Not read by the core: every save writes, even with nothing changed
   * (the kill test needs writes to interrupt on lavapipe, whose data never
   * changes). */
  bool persist_always_write;
} PscCoreTestHooks;

typedef struct {
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;
  uint32_t api_version;
  bool debug_utils;
  bool dynamic_rendering_enabled;      /* from the enabled-feature snapshot */
  bool creation_cache_control_enabled; /* pipelineCreationCacheControl (1.3), ditto */
  const VkAllocationCallbacks *allocator;
  PscRenderingMode rendering;          /* already resolved by the caller */
  bool pass_through;
  /* Fault injection for tests that link the core (never set by the
   * public library: it reads no test variable). */
  PscCoreTestHooks hooks;
  /* Asynchronous compilation (0 = default): worker threads (default: online
   * cores - 1, at least 1), job queue capacity (default 256), waiter pool
   * capacity (default 4096). */
  uint32_t workers;
  uint32_t job_capacity;
  uint32_t waiter_capacity;
  /* Time the pump may spend publishing completions per frame, in
   * microseconds (0 = default 50; UINT32_MAX = no limit). At least one
   * completion is published per pump. */
  uint32_t publish_budget_us;
  /* Persistent layer 1: validated Vulkan pipeline-cache data the main
   * driver cache starts from (NULL: empty); only read during psc_core_new.
   * If the driver refuses it, the cache starts empty
   * (psc_core_driver_data_rejected). */
  const void *initial_driver_data;
  size_t initial_driver_size;
  /* Called once by psc_core_close on the owner thread, after the workers
   * are joined and their results merged into the main driver cache, and
   * before any object is destroyed: persistence saves here
   * (psc_core_get_driver_data and the recipe export work inside it: the
   * owner-thread check passes there). It must make no request. Not called
   * by psc_core_close_unowned. May be NULL. */
  void (*closing) (void *ctx, PscCore *core);
  void *closing_ctx;
  /* Called on the owner thread for every pipeline miss that will create
   * the pipeline (a new key), except those of PSC_CORE_REQUEST_PREWARM
   * requests (strict recipes mode). The key is valid during the call. May
   * be NULL. */
  void (*demand_miss) (void *ctx, PscKind kind, const uint8_t *key, size_t len);
  void *demand_miss_ctx;
} PscCoreConfig;

/* Creates a core owned by the calling thread. */
PSC_INTERNAL PscStatus psc_core_new (const PscCoreConfig *cfg, PscCore **out, PscCoreError *err);
/* Ends the cache, on the owner thread; idempotent. The core enters its
 * closing state first: from then on every request fails with
 * PSC_STATUS_CLOSED and starts nothing (also a request made by a waiter
 * called below). Then workers are stopped and joined, unpublished results
 * destroyed, every outstanding waiter called with VK_INCOMPLETE, and every
 * cached object destroyed (shutdown order: pipelines; layouts, passes,
 * samplers; shader modules; driver caches). completed_timeline is the
 * final completed GPU timeline value: the caller guarantees the GPU no
 * longer uses any cached object. Counters stay readable until
 * psc_core_free. */
PSC_INTERNAL void psc_core_close (PscCore *core, uint64_t completed_timeline);
/* psc_core_close for a core whose owner thread is gone (the last reference
 * was dropped elsewhere): the same, except that no waiter is called (their
 * contexts are dropped). Any thread. */
PSC_INTERNAL void psc_core_close_unowned (PscCore *core);
/* True once psc_core_close has begun. */
PSC_INTERNAL bool psc_core_is_closed (const PscCore *core);
/* Closes the core if needed (with the last completed timeline value it
 * was given) and frees it. Owner thread, unless already closed. NULL is
 * accepted. */
PSC_INTERNAL void psc_core_free (PscCore *core);

PSC_INTERNAL void psc_core_begin_frame (PscCore *core, uint64_t frame, uint64_t completed_timeline);
/* Any thread. */
PSC_INTERNAL void psc_core_get_stats (const PscCore *core, PscCoreStats *out);
/* PSC_STATUS_OK on the owner thread of an open core; else the refusal
 * (PSC_STATUS_WRONG_THREAD or PSC_STATUS_CLOSED, counted), for the layers
 * above whose calls reach the core only later. */
PSC_INTERNAL PscStatus psc_core_check_owner (PscCore *core, PscCoreError *err);
/* Counts a request that failed before reaching the core (e.g. NULL info). Any thread. */
PSC_INTERNAL void psc_core_count_rejection (PscCore *core, PscStatus status);

PSC_INTERNAL PscStatus psc_core_register_shader (PscCore *core, const uint32_t *code, size_t size,
                                                 VkShaderModule *module, uint32_t *id, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_release_shader (PscCore *core, VkShaderModule module, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_shader_module_for_id (PscCore *core, uint32_t id, VkShaderModule *module,
                                                      PscCoreError *err);
/* 0 if not cache-issued, or off the owner thread, or once closed. */
PSC_INTERNAL uint32_t psc_core_shader_id (PscCore *core, VkShaderModule module);

PSC_INTERNAL PscStatus psc_core_get_sampler (PscCore *core, const VkSamplerCreateInfo *ci,
                                             VkSampler *out, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_get_set_layout (PscCore *core, const VkDescriptorSetLayoutCreateInfo *ci,
                                                VkDescriptorSetLayout *out, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_get_pipeline_layout (PscCore *core, const VkPipelineLayoutCreateInfo *ci,
                                                     VkPipelineLayout *out, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_get_render_pass (PscCore *core, const VkRenderPassCreateInfo *ci,
                                                 VkRenderPass *out, PscCoreError *err);
/* False off the owner thread and once closed. */
PSC_INTERNAL bool psc_core_is_compat_render_pass (const PscCore *core, VkRenderPass pass);
PSC_INTERNAL PscStatus psc_core_get_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                                              VkPipeline *out, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_get_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                                             VkPipeline *out, PscCoreError *err);

/* Persistent layer 1 (driver-cache.c). The main driver cache's data
 * (vkGetPipelineCacheData), malloc'd into *data (free with free()); owner
 * thread while open, or inside cfg.closing. */
PSC_INTERNAL PscStatus psc_core_get_driver_data (PscCore *core, void **data, size_t *len,
                                                 PscCoreError *err);
/* Merges Vulkan pipeline-cache data (already validated by the caller: see
 * formats/driver-file.h) into the main driver cache through a temporary
 * VkPipelineCache. Owner thread. */
PSC_INTERNAL PscStatus psc_core_merge_driver_data (PscCore *core, const void *data, size_t len,
                                                   PscCoreError *err);
/* Pauses the compile workers (no new job; returns once none compiles) or
 * lets them go on: psc_cache_save quiesces them around its save. Owner
 * thread. */
PSC_INTERNAL void psc_core_quiesce (PscCore *core, bool quiet);
/* Whether the driver refused cfg.initial_driver_data; how many bytes of it
 * it accepted (0 when none was given). Any thread after creation. */
PSC_INTERNAL bool psc_core_driver_data_rejected (const PscCore *core);
PSC_INTERNAL uint64_t psc_core_driver_data_loaded (const PscCore *core);
/* A number that grows whenever the main driver cache may have gained data
 * (a pipeline created, data merged): a save is skipped while it is
 * unchanged. Owner thread. */
PSC_INTERNAL uint64_t psc_core_driver_cache_changes (const PscCore *core);

/* The canonical key of a cache-issued pipeline (graphics or compute) that
 * is Ready, for strict mode's report; false otherwise. The key stays valid
 * while the pipeline lives. Owner thread. */
PSC_INTERNAL bool psc_core_pipeline_key (PscCore *core, VkPipeline pipeline, PscKind *kind,
                                         const uint8_t **key, size_t *len);

/* The size in bytes of the canonical key of a graphics request (what is
 * hashed, stored and compared); for diagnostics and benchmarks. */
PSC_INTERNAL PscStatus psc_core_graphics_key_size (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                                                   size_t *size, PscCoreError *err);

/* ---------------------------------------------------------------------------
 * Asynchronous requests (async.c). A request states its miss policy:
 *   WAIT      create synchronously on the owner thread (a key that is
 *             Compiling is created now, published, its waiters completed and
 *             the worker's later result discarded);
 *   SKIP      nothing to draw yet: *out is VK_NULL_HANDLE (or a stale
 *             previous-generation pipeline) and fn is called when ready;
 *   FALLBACK  like SKIP, but *out is the fallback registered for the same
 *             layout and rendering state (psc_core_set_fallback), if any.
 * In SKIP and FALLBACK modes the owner thread never calls the driver's
 * pipeline creation. fn (may be NULL) is called exactly once, from
 * psc_core_begin_frame on the owner thread, unless the request returned
 * PSC_CORE_READY (then it is never called). It receives the pipeline, or
 * VK_NULL_HANDLE and a failure: the driver's VkResult, or VK_INCOMPLETE when
 * the request was discarded by a hot reload or by cache shutdown.
 */
typedef void (*PscCoreReadyFn) (void *context, VkPipeline pipeline, VkResult result);

typedef enum {
  PSC_CORE_MISS_WAIT = 0,
  PSC_CORE_MISS_SKIP = 1,
  PSC_CORE_MISS_FALLBACK = 2,
} PscCoreMissPolicy;

#define PSC_CORE_REQUEST_CRITICAL 1u   /* on queue overflow: create synchronously */
#define PSC_CORE_REQUEST_PREWARM (1u << 8)   /* internal: prewarm's own request (no demand miss) */

typedef enum {
  PSC_CORE_READY = 0,      /* *out is the requested pipeline */
  PSC_CORE_PENDING = 1,    /* *out is VK_NULL_HANDLE; fn will be called */
  PSC_CORE_FALLBACK = 2,   /* *out is the registered fallback; fn will be called */
  PSC_CORE_STALE = 3,      /* *out is the previous generation's pipeline; fn will be called */
} PscCoreRequestState;

PSC_INTERNAL PscStatus psc_core_request_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                                                  PscCoreMissPolicy policy, uint32_t flags,
                                                  PscCoreReadyFn fn, void *context,
                                                  VkPipeline *out, PscCoreRequestState *state,
                                                  PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_request_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                                                 PscCoreMissPolicy policy, uint32_t flags,
                                                 PscCoreReadyFn fn, void *context,
                                                 VkPipeline *out, PscCoreRequestState *state,
                                                 PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_request_prepared (PscCore *core, uint32_t key_id,
                                                  PscCoreMissPolicy policy, uint32_t flags,
                                                  PscCoreReadyFn fn, void *context,
                                                  VkPipeline *out, PscCoreRequestState *state,
                                                  PscCoreError *err);
/* Registers a Ready cache-issued graphics pipeline as the fallback for every
 * request with the same pipeline layout and rendering state (formats, view
 * mask, samples, or compatibility pass + subpass). The fallback is pinned. */
PSC_INTERNAL PscStatus psc_core_set_fallback (PscCore *core, VkPipeline fallback, PscCoreError *err);
/* Failed compiles are not retried automatically (every request for a Failed
 * key fails with its VkResult) until a shader they use is reloaded or this
 * is called; it forgets every Failed entry. */
PSC_INTERNAL void psc_core_clear_failures (PscCore *core);

/* Hot reload, one ordered operation on the owner thread: the module's
 * generation is incremented (same id), old_pool (if not VK_NULL_HANDLE; the
 * application's per-shader descriptor pool) is timeline-retired, entries and
 * jobs of the old generation are invalidated (Compiling -> discarded, their
 * waiters get VK_INCOMPLETE; Ready -> kept, flagged stale, retired once the
 * new generation's pipeline is published or they fall idle). The new module
 * is returned; the old handle keeps resolving to the same shader until the
 * old module is destroyed (when no job uses it). */
PSC_INTERNAL PscStatus psc_core_replace_shader (PscCore *core, VkShaderModule module,
                                                const uint32_t *code, size_t size,
                                                VkDescriptorPool old_pool,
                                                VkShaderModule *new_module, PscCoreError *err);

/* Invalidation (reload.c): a shader's generation moves on as at a hot
 * reload with the same SPIR-V, but its module, handle and content key stay
 * (the application's handles keep working); pipelines of the old
 * generation turn stale or are discarded, and are compiled again at their
 * next request. No SHADER_RELOADED event is recorded. invalidate_shader
 * fails with PSC_STATUS_INVALID_ARGUMENT (path "shader_id", not counted)
 * for an id that is not a registered (Ready) shader; *generation receives
 * the new one. invalidate_all does it for every registered shader and
 * returns how many (0 off the owner thread or once closed). */
PSC_INTERNAL PscStatus psc_core_invalidate_shader (PscCore *core, uint32_t shader_id,
                                                   uint32_t *generation, PscCoreError *err);
PSC_INTERNAL uint32_t psc_core_invalidate_all (PscCore *core);

/* Inspection (inspect.c): a page of the live entries of every kind, in
 * kind order then the store's live order (stable while nothing changes):
 * at most limit entries from offset into out; *total is the number of
 * live entries. Owner thread. generation is a shader's hot-reload
 * generation (0 for other kinds); key_hash is psc_core_hash of its key (0
 * without one); last_used_frame the later of its last request and last
 * hit; host_bytes its record, hit frame, live slot and key. */
typedef struct {
  uint32_t id;
  uint8_t kind;                 /* PscKind */
  uint8_t state;                /* 1 ready, 2 compiling, 3 failed, 4 released */
  uint8_t stale;
  uint32_t generation;
  uint64_t key_hash;
  uint64_t last_used_frame;
  uint64_t host_bytes;
} PscCoreEntryInfo;
PSC_INTERNAL PscStatus psc_core_list_entries (PscCore *core, uint32_t offset, uint32_t limit,
                                              PscCoreEntryInfo *out, uint32_t *count,
                                              uint32_t *total, PscCoreError *err);

/* Eviction (retire.c): retires Ready, unpinned pipelines idle for more than
 * max(idle_frames, PSC_BORROW_FRAMES) frames; returns how many. Retired
 * handles are destroyed once the completed timeline value passes their
 * retirement value. psc_core_set_auto_evict (0 = off) evicts in the pump. */
PSC_INTERNAL uint32_t psc_core_evict (PscCore *core, uint32_t idle_frames);
PSC_INTERNAL void psc_core_set_auto_evict (PscCore *core, uint32_t idle_frames);
#define PSC_CORE_BORROW_FRAMES 3


/* ---------------------------------------------------------------------------
 * Owner-thread events (events.c), for the layer above's signals. The
 * modules where they happen record them, on the owner thread, into a
 * bounded queue; nothing is called. The layer above takes them after
 * psc_core_begin_frame returned (psc_core_take_events), so what it runs
 * for them may call back into the core: the core is not in its pump.
 *
 *   PIPELINE_READY   a worker's pipeline was published Ready by the pump
 *                    (pipeline, key_hash, kind); pipelines created on the
 *                    owner thread (WAIT, an overflowing critical request)
 *                    are not events: the call returned them;
 *   PIPELINE_FAILED  a worker's compile failed and the entry became Failed
 *                    (key_hash, kind, result);
 *   SHADER_RELOADED  psc_core_replace_shader succeeded (shader_id, the new
 *                    generation).
 * key_hash is the key's hash by the one rule (psc_core_hash), the same as
 * psc_core_key_hash gives for the request. Evictions are not queued: they
 * are counted (psc_core_evict's and the pump's automatic ones together).
 * A queue that is full (PSC_CORE_EVENT_CAPACITY) drops the event and
 * counts it (PscCoreStats.events_dropped, and the taken batch's dropped).
 */
typedef enum {
  PSC_CORE_EVENT_PIPELINE_READY = 1,
  PSC_CORE_EVENT_PIPELINE_FAILED = 2,
  PSC_CORE_EVENT_SHADER_RELOADED = 3,
} PscCoreEventType;

typedef struct {
  uint8_t type;                 /* PscCoreEventType */
  uint8_t kind;                 /* PSC_KIND_GRAPHICS or _COMPUTE (pipeline events) */
  int32_t result;               /* PIPELINE_FAILED: the driver's VkResult */
  uint32_t shader_id;           /* SHADER_RELOADED */
  uint32_t generation;          /* SHADER_RELOADED: the new one */
  uint64_t pipeline;            /* PIPELINE_READY: the handle */
  uint64_t key_hash;            /* pipeline events */
} PscCoreEvent;

#define PSC_CORE_EVENT_CAPACITY 1024

/* One batch: the events in the order they happened, the pipelines evicted
 * and the events dropped since the previous batch. */
typedef struct {
  const PscCoreEvent *events;   /* valid until the next psc_core_take_events */
  uint32_t count;
  uint32_t evicted;
  uint32_t dropped;
} PscCoreEvents;

/* Takes what was recorded since the last call (owner thread; nothing once
 * closed). The queue is double-buffered: events recorded while the caller
 * works through this batch go to the next one. Returns whether the batch
 * holds anything (an event, an eviction or a drop). */
PSC_INTERNAL bool psc_core_take_events (PscCore *core, PscCoreEvents *out);
/* The hash of a graphics or compute request's canonical key (ci is a
 * VkGraphicsPipelineCreateInfo or a VkComputePipelineCreateInfo), the
 * key_hash of its events; validated like a request, nothing is created.
 * A refused ci is counted like a refused request. Owner thread. */
PSC_INTERNAL PscStatus psc_core_key_hash (PscCore *core, PscKind kind, const void *ci,
                                          uint64_t *hash, PscCoreError *err);

/* Prepared keys: ids start at 1; 0 is never a valid id. */
PSC_INTERNAL PscStatus psc_core_prepare_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                                                  uint32_t *key_id, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_prepare_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                                                 uint32_t *key_id, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_get_prepared (PscCore *core, uint32_t key_id, VkPipeline *out,
                                              PscCoreError *err);

PSC_INTERNAL PscStatus psc_core_pin (PscCore *core, VkObjectType type, uint64_t handle, int delta,
                                     PscCoreError *err);

#ifdef __cplusplus
}
#endif
