/* psc-cache.h: PscCache, a device-owned cache of Vulkan pipeline-state objects.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <gio/gio.h>
#include <vulkan/vulkan.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-device.h>
#include <psocache/psc-stats.h>
#include <psocache/psc-recipe.h>

G_BEGIN_DECLS

/**
 * PscBackend:
 * @PSC_BACKEND_AUTO: dynamic rendering when the device enabled it, else legacy
 * @PSC_BACKEND_DYNAMIC_RENDERING: graphics requests chain
 *   `VkPipelineRenderingCreateInfo` and name no render pass
 * @PSC_BACKEND_LEGACY: graphics requests name a compatibility render pass
 *   issued by [method@Psc.Cache.get_compat_render_pass]
 *
 * How graphics pipelines describe what they render to.
 *
 * Since: 0.1
 */
typedef enum {
  PSC_BACKEND_AUTO,
  PSC_BACKEND_DYNAMIC_RENDERING,
  PSC_BACKEND_LEGACY,
} PscBackend;

/**
 * PscCacheFlags:
 * @PSC_CACHE_FLAGS_NONE: no flags
 * @PSC_CACHE_FLAGS_PASS_THROUGH: cache off: every request validates its input
 *   and creates a new object, nothing is deduplicated. Objects are still owned
 *   by the cache and destroyed with it. For comparisons only.
 * @PSC_CACHE_FLAGS_STRICT_RECIPES: strict mode for CI (persistence): prewarm
 *   takes every recorded recipe, and each pipeline then compiled on demand
 *   that no recipe covered is reported (a warning naming its key hash and
 *   how it differs from the nearest prewarmed pipeline) and counted
 *   (%PSC_PERSIST_COUNTER_STRICT_MISSES): a run fails on it with
 *   `G_DEBUG=fatal-warnings` or by checking the counter. Since: 0.2
 *
 * Flags for [ctor@Psc.Cache.new] and [property@Psc.Cache:flags].
 *
 * Since: 0.1
 */
typedef enum { /*< flags >*/
  PSC_CACHE_FLAGS_NONE = 0,
  PSC_CACHE_FLAGS_PASS_THROUGH = 1 << 0,
  PSC_CACHE_FLAGS_STRICT_RECIPES PSC_AVAILABLE_ENUMERATOR_IN_0_2 = 1 << 1,
} PscCacheFlags;

/**
 * PSC_BORROW_FRAMES:
 *
 * A borrowed handle stays valid for at least this many frames (calls of
 * [method@Psc.Cache.begin_frame]) after the frame of its last request, unless
 * it is pinned with [method@Psc.Cache.pin], in which case it stays valid until
 * unpinned and this window has passed again.
 *
 * Since: 0.1
 */
#define PSC_BORROW_FRAMES 3

/**
 * PscMissPolicy:
 * @PSC_MISS_POLICY_WAIT: create the pipeline synchronously on the owner
 *   thread (a pipeline already compiling is created now; the worker's result
 *   is discarded)
 * @PSC_MISS_POLICY_SKIP: return nothing yet (or the previous generation's
 *   pipeline after a hot reload); the callback says when it is ready
 * @PSC_MISS_POLICY_FALLBACK: like %PSC_MISS_POLICY_SKIP, but return the
 *   fallback registered with [method@Psc.Cache.set_fallback] for the same
 *   layout and rendering state, if any
 *
 * What a request does when its pipeline is not Ready. With
 * %PSC_MISS_POLICY_SKIP and %PSC_MISS_POLICY_FALLBACK the owner thread never
 * calls the driver's pipeline creation.
 *
 * Since: 0.1
 */
typedef enum {
  PSC_MISS_POLICY_WAIT,
  PSC_MISS_POLICY_SKIP,
  PSC_MISS_POLICY_FALLBACK,
} PscMissPolicy;

/**
 * PscRequestFlags:
 * @PSC_REQUEST_FLAGS_NONE: no flags
 * @PSC_REQUEST_FLAGS_CRITICAL: if a bounded queue is full, create the
 *   pipeline synchronously instead of failing with %PSC_ERROR_QUEUE_FULL
 *
 * Flags for asynchronous requests.
 *
 * Since: 0.1
 */
typedef enum { /*< flags >*/
  PSC_REQUEST_FLAGS_NONE = 0,
  PSC_REQUEST_FLAGS_CRITICAL = 1 << 0,
} PscRequestFlags;

/**
 * PscRequestResult:
 * @PSC_REQUEST_RESULT_READY: the returned pipeline is the one requested; the
 *   callback will not be called
 * @PSC_REQUEST_RESULT_PENDING: nothing was returned; the callback will be
 *   called once
 * @PSC_REQUEST_RESULT_FALLBACK: the registered fallback was returned; the
 *   callback will be called once
 * @PSC_REQUEST_RESULT_STALE: the previous shader generation's pipeline was
 *   returned; the callback will be called once
 *
 * What an asynchronous request returned.
 *
 * Since: 0.1
 */
typedef enum {
  PSC_REQUEST_RESULT_READY,
  PSC_REQUEST_RESULT_PENDING,
  PSC_REQUEST_RESULT_FALLBACK,
  PSC_REQUEST_RESULT_STALE,
} PscRequestResult;

/**
 * PscPipelineReadyFn:
 * @context: the caller's context pointer, given with the request
 * @pipeline: the pipeline, or `VK_NULL_HANDLE` on failure
 * @result: `VK_SUCCESS`; the driver's `VkResult` if the compile failed; or
 *   `VK_INCOMPLETE` if the request was discarded (a hot reload replaced a
 *   shader it uses, or the cache was closed)
 *
 * Completion callback of an asynchronous request. It is called exactly once,
 * on the owner thread, from [method@Psc.Cache.begin_frame] or
 * [method@Psc.Cache.close] (which the last reference's release calls);
 * nothing is allocated per callback. @context must stay valid until then.
 * The callback may make new requests (during close they fail with
 * %PSC_ERROR_CLOSED), may drop a reference to the cache (the call that
 * runs it holds its own) and may call [method@Psc.Cache.close] (from
 * [method@Psc.Cache.begin_frame], the close waits for the pump to finish);
 * it must not call [method@Psc.Cache.begin_frame]. If the last reference is dropped on another thread
 * (an error, see [class@Psc.Cache]), the callback is never called.
 *
 * Since: 0.1
 */
typedef void (*PscPipelineReadyFn) (void *context, VkPipeline pipeline, VkResult result);

/**
 * PscCacheOptions:
 * @size: the size of the structure the caller passes: `sizeof
 *   (PscCacheOptions)` as the caller's header declares it. Initialize the
 *   structure with %PSC_CACHE_OPTIONS_INIT
 * @workers: compile worker threads; 0 means the number of online cores
 *   minus one, at least one (see [property@Psc.Cache:workers])
 * @job_capacity: bounded compile-job queue; 0 means 256
 * @waiter_capacity: bounded pool of completion waiters; 0 means 4096
 * @publish_budget_us: microseconds [method@Psc.Cache.begin_frame] may spend
 *   publishing finished compiles (merging each worker's `VkPipelineCache`
 *   into the main one, then calling waiters) before it leaves the rest for
 *   the next frame; at least one is published per frame. 0 means 50;
 *   %G_MAXUINT means no limit
 * @application_id: (nullable): the application's reverse-DNS id, which
 *   turns persistence on (see [property@Psc.Cache:application-id]);
 *   %NULL: none. Since: 0.2
 * @cache_directory: (nullable) (type filename): an explicit directory to
 *   persist in ([property@Psc.Cache:cache-directory]); %NULL: none.
 *   Since: 0.2
 * @max_disk_bytes: the disk quota ([property@Psc.Cache:max-disk-bytes]);
 *   0 means 256 MiB. Since: 0.2
 * @driver_data_limit: the restore cap of driver data
 *   ([property@Psc.Cache:driver-data-limit]); 0 means 64 MiB. Since: 0.2
 * @save_interval: seconds between saves from the pump
 *   ([property@Psc.Cache:save-interval]); 0 means 30, %G_MAXUINT never.
 *   Since: 0.2
 *
 * Options for [ctor@Psc.Cache.new_full], a convenience for C: each member
 * sets the construct property of the same name (with `_` for `-`; the
 * strings are copied).
 *
 * The structure grows in later versions; @size says which version the
 * caller was compiled with. Rules: a @size smaller than this first version
 * of the structure is an error (%PSC_ERROR_INVALID_ARGUMENT naming `size`);
 * members the caller's version lacks take their defaults; bytes beyond the
 * members this library knows (a caller compiled against a newer header)
 * must be zero, else the call fails with %PSC_ERROR_INVALID_ARGUMENT naming
 * the offset of the first non-zero byte, so an application asking for
 * something this library cannot do learns it.
 *
 * |[<!-- language="C" -->
 * PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
 * options.workers = 2;
 * cache = psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
 *                             &options, &error);
 * ]|
 *
 * Since: 0.1
 */
typedef struct {
  gsize size;
  guint workers;
  guint job_capacity;
  guint waiter_capacity;
  guint publish_budget_us;
  /* 0.2 */
  const char *application_id;
  const char *cache_directory;
  guint64 max_disk_bytes;
  guint64 driver_data_limit;
  guint save_interval;
} PscCacheOptions;

/**
 * PSC_CACHE_OPTIONS_INIT:
 *
 * Initializes a [struct@Psc.CacheOptions]: @size set for the header the
 * code is compiled with, every option at its default.
 *
 * Since: 0.1
 */
#define PSC_CACHE_OPTIONS_INIT { sizeof (PscCacheOptions), 0, 0, 0, 0, NULL, NULL, 0, 0, 0 }

#define PSC_TYPE_CACHE (psc_cache_get_type ())
PSC_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (PscCache, psc_cache, PSC, CACHE, GObject)

PSC_AVAILABLE_IN_0_1
PscCache *psc_cache_new (PscDevice *device, PscBackend backend,
                         PscCacheFlags flags, GError **error);

PSC_AVAILABLE_IN_0_1
PscCache *psc_cache_new_full (PscDevice *device, PscBackend backend,
                              PscCacheFlags flags, const PscCacheOptions *options,
                              GError **error);

PSC_AVAILABLE_IN_0_1
PscDevice *psc_cache_get_device (PscCache *self);
PSC_AVAILABLE_IN_0_1
PscBackend psc_cache_get_backend (PscCache *self);
PSC_AVAILABLE_IN_0_1
PscCacheFlags psc_cache_get_flags (PscCache *self);

PSC_AVAILABLE_IN_0_1
void psc_cache_begin_frame (PscCache *self, guint64 frame,
                            guint64 completed_timeline_value);
PSC_AVAILABLE_IN_0_1
void psc_cache_close (PscCache *self, guint64 completed_timeline_value);

/* Shaders */
PSC_AVAILABLE_IN_0_1
VkShaderModule psc_cache_register_shader (PscCache *self, const guint32 *code,
                                          gsize code_size, GError **error);
PSC_AVAILABLE_IN_0_1
guint psc_cache_register_shader_bytes (PscCache *self, GBytes *spirv,
                                       GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_release_shader (PscCache *self, VkShaderModule module,
                                   GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_release_shader_id (PscCache *self, guint shader_id,
                                      GError **error);
PSC_AVAILABLE_IN_0_1
guint psc_cache_get_shader_id (PscCache *self, VkShaderModule module);

/* Get-or-create */
PSC_AVAILABLE_IN_0_1
VkSampler psc_cache_get_sampler (PscCache *self,
                                 const VkSamplerCreateInfo *info,
                                 GError **error);
PSC_AVAILABLE_IN_0_1
VkDescriptorSetLayout psc_cache_get_descriptor_set_layout (PscCache *self,
                                                           const VkDescriptorSetLayoutCreateInfo *info,
                                                           GError **error);
PSC_AVAILABLE_IN_0_1
VkPipelineLayout psc_cache_get_pipeline_layout (PscCache *self,
                                                const VkPipelineLayoutCreateInfo *info,
                                                GError **error);
PSC_AVAILABLE_IN_0_1
VkRenderPass psc_cache_get_compat_render_pass (PscCache *self,
                                               const VkRenderPassCreateInfo *info,
                                               GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_is_compat_render_pass (PscCache *self, VkRenderPass pass);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_get_graphics_pipeline (PscCache *self,
                                            const VkGraphicsPipelineCreateInfo *info,
                                            GError **error);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_get_compute_pipeline (PscCache *self,
                                           const VkComputePipelineCreateInfo *info,
                                           GError **error);

PSC_AVAILABLE_IN_0_1
gsize psc_cache_get_graphics_key_size (PscCache *self,
                                       const VkGraphicsPipelineCreateInfo *info,
                                       GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_get_graphics_key_hash (PscCache *self,
                                          const VkGraphicsPipelineCreateInfo *info,
                                          guint64 *hash, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_get_compute_key_hash (PscCache *self,
                                         const VkComputePipelineCreateInfo *info,
                                         guint64 *hash, GError **error);

/* Prepared keys */
PSC_AVAILABLE_IN_0_1
guint32 psc_cache_prepare_graphics_pipeline (PscCache *self,
                                             const VkGraphicsPipelineCreateInfo *info,
                                             GError **error);
PSC_AVAILABLE_IN_0_1
guint32 psc_cache_prepare_compute_pipeline (PscCache *self,
                                            const VkComputePipelineCreateInfo *info,
                                            GError **error);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_get_prepared_pipeline (PscCache *self, guint32 key_id,
                                            GError **error);

/* Asynchronous requests */
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_request_graphics_pipeline (PscCache *self,
                                                const VkGraphicsPipelineCreateInfo *info,
                                                PscMissPolicy policy, PscRequestFlags flags,
                                                PscPipelineReadyFn callback, void *context,
                                                PscRequestResult *result, GError **error);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_request_compute_pipeline (PscCache *self,
                                               const VkComputePipelineCreateInfo *info,
                                               PscMissPolicy policy, PscRequestFlags flags,
                                               PscPipelineReadyFn callback, void *context,
                                               PscRequestResult *result, GError **error);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_request_prepared_pipeline (PscCache *self, guint32 key_id,
                                                PscMissPolicy policy, PscRequestFlags flags,
                                                PscPipelineReadyFn callback, void *context,
                                                PscRequestResult *result, GError **error);
PSC_AVAILABLE_IN_0_1
void psc_cache_get_graphics_pipeline_async (PscCache *self,
                                            const VkGraphicsPipelineCreateInfo *info,
                                            GCancellable *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer user_data);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_get_graphics_pipeline_finish (PscCache *self, GAsyncResult *result,
                                                   GError **error);
PSC_AVAILABLE_IN_0_1
void psc_cache_get_compute_pipeline_async (PscCache *self,
                                           const VkComputePipelineCreateInfo *info,
                                           GCancellable *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer user_data);
PSC_AVAILABLE_IN_0_1
VkPipeline psc_cache_get_compute_pipeline_finish (PscCache *self, GAsyncResult *result,
                                                  GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_set_fallback (PscCache *self, VkPipeline fallback, GError **error);
PSC_AVAILABLE_IN_0_1
void psc_cache_clear_failures (PscCache *self);

/* Hot reload, eviction */
PSC_AVAILABLE_IN_0_1
VkShaderModule psc_cache_replace_shader (PscCache *self, VkShaderModule module,
                                         const guint32 *code, gsize code_size,
                                         VkDescriptorPool old_pool, GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_replace_shader_bytes (PscCache *self, guint shader_id, GBytes *spirv,
                                         GError **error);
PSC_AVAILABLE_IN_0_1
guint psc_cache_evict (PscCache *self, guint idle_frames);
PSC_AVAILABLE_IN_0_1
void psc_cache_set_eviction_idle_frames (PscCache *self, guint idle_frames);
PSC_AVAILABLE_IN_0_1
guint psc_cache_get_eviction_idle_frames (PscCache *self);

/* Borrowed-handle lifetime */
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_pin (PscCache *self, VkObjectType type, guint64 handle,
                        GError **error);
PSC_AVAILABLE_IN_0_1
gboolean psc_cache_unpin (PscCache *self, VkObjectType type, guint64 handle,
                          GError **error);

/* Counters */
PSC_AVAILABLE_IN_0_1
PscStats *psc_cache_get_stats (PscCache *self);
PSC_AVAILABLE_IN_0_1
guint64 psc_cache_get_counter (PscCache *self, PscObjectKind kind,
                               PscCounter counter);

/* Persistence */
PSC_AVAILABLE_IN_0_2
const char *psc_cache_get_application_id (PscCache *self);
PSC_AVAILABLE_IN_0_2
const char *psc_cache_get_cache_directory (PscCache *self);
PSC_AVAILABLE_IN_0_2
gboolean psc_cache_save (PscCache *self, GError **error);
PSC_AVAILABLE_IN_0_2
GBytes *psc_cache_save_to_bytes (PscCache *self, GError **error);
PSC_AVAILABLE_IN_0_2
gboolean psc_cache_load_bytes (PscCache *self, GBytes *bytes, GError **error);
PSC_AVAILABLE_IN_0_2
gboolean psc_cache_prewarm (PscCache *self, GError **error);
PSC_AVAILABLE_IN_0_2
gboolean psc_cache_get_prewarm_done (PscCache *self);
PSC_AVAILABLE_IN_0_2
gboolean psc_cache_verify_warm (PscCache *self, guint *recorded, guint *served, guint *stale,
                                GError **error);

/* SPIR-V artifacts */
/**
 * PscCompileFn: (skip)
 * @context: the context pointer given to
 *   [method@Psc.Cache.register_shader_source]
 * @source: the source, exactly the bytes given (not necessarily
 *   nul-terminated when a length was given)
 * @source_len: the length of @source in bytes
 * @stage: the stage to compile for, one `VkShaderStageFlagBits` bit
 * @target_env: the target environment as given (never %NULL: "" when none
 *   was given), for example `vulkan1.3`
 * @policy: the compiler policy as given (never %NULL: "" when none was
 *   given), for example the compiler's options and version
 * @error: return location for the compile's #GError
 *
 * The application's compiler, for
 * [method@Psc.Cache.register_shader_source]: called synchronously, on the
 * owner thread, from that function only, when no valid stored artifact
 * exists for the key. It may call other methods of the cache, which follow
 * their own rules (registering the same source from inside the callback
 * compiles it again: nothing is stored before the callback returns).
 *
 * Returns: (transfer full) (nullable): SPIR-V words (host byte order, a
 *   size that is a multiple of 4), or %NULL with @error set
 *
 * Since: 0.2
 */
typedef GBytes *(*PscCompileFn) (gpointer context, const char *source, gsize source_len,
                                 VkShaderStageFlagBits stage, const char *target_env,
                                 const char *policy, GError **error);

PSC_AVAILABLE_IN_0_2
VkShaderModule psc_cache_register_shader_source (PscCache *self, const char *source,
                                                 gssize source_len, VkShaderStageFlagBits stage,
                                                 const char *target_env, const char *policy,
                                                 PscCompileFn compile, gpointer context,
                                                 GError **error);

/* Recipes (GI-friendly: handles as integers) */
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_pipeline_for_recipe (PscCache *self, PscRecipe *recipe, GError **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_request_recipe (PscCache *self, PscRecipe *recipe, PscMissPolicy policy,
                                  PscRequestFlags flags, PscRequestResult *result,
                                  GError **error);
PSC_AVAILABLE_IN_0_3
void psc_cache_get_pipeline_for_recipe_async (PscCache *self, PscRecipe *recipe,
                                              GCancellable *cancellable,
                                              GAsyncReadyCallback callback,
                                              gpointer user_data);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_pipeline_for_recipe_finish (PscCache *self, GAsyncResult *result,
                                                  GError **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_sampler_for_info (PscCache *self, PscSamplerInfo *info, GError **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_set_layout_for_recipe (PscCache *self, PscRecipe *recipe, guint set,
                                             GError **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_pipeline_layout_for_recipe (PscCache *self, PscRecipe *recipe,
                                                  GError **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_cache_get_compat_render_pass_for_recipe (PscCache *self, PscRecipe *recipe,
                                                     GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_get_recipe_key_hash (PscCache *self, PscRecipe *recipe, guint64 *hash,
                                        GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_pin_object (PscCache *self, PscObjectKind kind, guint64 handle,
                               GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_unpin_object (PscCache *self, PscObjectKind kind, guint64 handle,
                                 GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_set_fallback_pipeline (PscCache *self, guint64 pipeline, GError **error);

/* Recipes of what a cache made (psc-cache-recipe-export.c) */
PSC_AVAILABLE_IN_0_3
PscRecipe *psc_cache_get_recipe_for_pipeline (PscCache *self, guint64 pipeline, GError **error);
typedef gboolean (*PscRecipeLogFunc) (guint64 recipe_hash, PscRecipe *recipe, const char *reason,
                                      const char *message, gpointer user_data);
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_get_recipes_for_log (PscCache *self, GBytes *log, PscRecipeLogFunc func,
                                        gpointer user_data, GError **error);

G_END_DECLS
