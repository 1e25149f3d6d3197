/* psc-cache.h: PscCache, a device-owned cache of Vulkan pipeline-state objects.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <vulkan/vulkan.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-device.h>

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
 *
 * Flags for [ctor@Psc.Cache.new].
 */
typedef enum { /*< flags >*/
  PSC_CACHE_FLAGS_NONE = 0,
  PSC_CACHE_FLAGS_PASS_THROUGH = 1 << 0,
} PscCacheFlags;

/**
 * PscObjectKind:
 * @PSC_OBJECT_KIND_SAMPLER: `VkSampler`
 * @PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT: `VkDescriptorSetLayout`
 * @PSC_OBJECT_KIND_PIPELINE_LAYOUT: `VkPipelineLayout`
 * @PSC_OBJECT_KIND_RENDER_PASS: compatibility `VkRenderPass`
 * @PSC_OBJECT_KIND_GRAPHICS_PIPELINE: graphics `VkPipeline`
 * @PSC_OBJECT_KIND_COMPUTE_PIPELINE: compute `VkPipeline`
 * @PSC_OBJECT_KIND_SHADER_MODULE: `VkShaderModule` registered by SPIR-V
 * @PSC_OBJECT_KIND_COUNT: the number of kinds
 *
 * The kinds of object a cache owns.
 */
typedef enum {
  PSC_OBJECT_KIND_SAMPLER,
  PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT,
  PSC_OBJECT_KIND_PIPELINE_LAYOUT,
  PSC_OBJECT_KIND_RENDER_PASS,
  PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
  PSC_OBJECT_KIND_COMPUTE_PIPELINE,
  PSC_OBJECT_KIND_SHADER_MODULE,
  PSC_OBJECT_KIND_COUNT,
} PscObjectKind;

/**
 * PscCounter:
 * @PSC_COUNTER_HITS: requests answered with an existing object
 * @PSC_COUNTER_MISSES: requests that found no object
 * @PSC_COUNTER_CREATIONS: objects created through the driver
 * @PSC_COUNTER_CREATION_NS: nanoseconds spent in the driver creating objects
 * @PSC_COUNTER_ENTRIES: objects held now
 * @PSC_COUNTER_HOST_BYTES: host bytes held for these objects' keys and entries
 *
 * Per-kind counters, read with [method@Psc.Cache.get_counter].
 */
typedef enum {
  PSC_COUNTER_HITS,
  PSC_COUNTER_MISSES,
  PSC_COUNTER_CREATIONS,
  PSC_COUNTER_CREATION_NS,
  PSC_COUNTER_ENTRIES,
  PSC_COUNTER_HOST_BYTES,
} PscCounter;

/**
 * PSC_REJECT_REASON_COUNT:
 *
 * The number of [error@Psc.Error] codes; [struct@Psc.Stats]'s `rejected`
 * array is indexed by error code.
 */
#define PSC_REJECT_REASON_COUNT 8

/**
 * PscKindStats:
 * @hits: see %PSC_COUNTER_HITS
 * @misses: see %PSC_COUNTER_MISSES
 * @creations: see %PSC_COUNTER_CREATIONS
 * @creation_ns: see %PSC_COUNTER_CREATION_NS
 * @entries: see %PSC_COUNTER_ENTRIES
 * @host_bytes: see %PSC_COUNTER_HOST_BYTES
 *
 * Counters of one object kind.
 */
typedef struct {
  guint64 hits;
  guint64 misses;
  guint64 creations;
  guint64 creation_ns;
  guint64 entries;
  guint64 host_bytes;
} PscKindStats;

/**
 * PscStats:
 * @kinds: counters per [enum@Psc.ObjectKind]
 * @capacity_failures: requests refused because a collision bucket (distinct
 *   keys sharing one full 64-bit hash) was full
 * @rejected: failed requests, indexed by [error@Psc.Error] code
 * @frame: the frame last given to [method@Psc.Cache.begin_frame]
 *
 * A snapshot of a cache's counters. Counters are published with atomics: any
 * thread may read them without touching the owner thread's state.
 */
typedef struct {
  PscKindStats kinds[PSC_OBJECT_KIND_COUNT];
  guint64 capacity_failures;
  guint64 rejected[PSC_REJECT_REASON_COUNT];
  guint64 frame;
} PscStats;

/**
 * PSC_BORROW_FRAMES:
 *
 * A borrowed handle stays valid for at least this many frames (calls of
 * [method@Psc.Cache.begin_frame]) after the frame of its last request, unless
 * it is pinned with [method@Psc.Cache.pin], in which case it stays valid until
 * unpinned and this window has passed again.
 */
#define PSC_BORROW_FRAMES 3

#define PSC_TYPE_CACHE (psc_cache_get_type ())
PSC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (PscCache, psc_cache, PSC, CACHE, GObject)

PSC_AVAILABLE_IN_ALL
PscCache *psc_cache_new (PscDevice *device, PscBackend backend,
                         PscCacheFlags flags, GError **error);

PSC_AVAILABLE_IN_ALL
PscDevice *psc_cache_get_device (PscCache *self);
PSC_AVAILABLE_IN_ALL
PscBackend psc_cache_get_backend (PscCache *self);
PSC_AVAILABLE_IN_ALL
PscCacheFlags psc_cache_get_flags (PscCache *self);

PSC_AVAILABLE_IN_ALL
void psc_cache_begin_frame (PscCache *self, guint64 frame,
                            guint64 completed_timeline_value);

/* Shaders */
PSC_AVAILABLE_IN_ALL
VkShaderModule psc_cache_register_shader (PscCache *self, const guint32 *code,
                                          gsize code_size, GError **error);
PSC_AVAILABLE_IN_ALL
guint psc_cache_register_shader_bytes (PscCache *self, GBytes *spirv,
                                       GError **error);
PSC_AVAILABLE_IN_ALL
gboolean psc_cache_release_shader (PscCache *self, VkShaderModule module,
                                   GError **error);
PSC_AVAILABLE_IN_ALL
gboolean psc_cache_release_shader_id (PscCache *self, guint shader_id,
                                      GError **error);
PSC_AVAILABLE_IN_ALL
guint psc_cache_get_shader_id (PscCache *self, VkShaderModule module);

/* Get-or-create */
PSC_AVAILABLE_IN_ALL
VkSampler psc_cache_get_sampler (PscCache *self,
                                 const VkSamplerCreateInfo *info,
                                 GError **error);
PSC_AVAILABLE_IN_ALL
VkDescriptorSetLayout psc_cache_get_descriptor_set_layout (PscCache *self,
                                                           const VkDescriptorSetLayoutCreateInfo *info,
                                                           GError **error);
PSC_AVAILABLE_IN_ALL
VkPipelineLayout psc_cache_get_pipeline_layout (PscCache *self,
                                                const VkPipelineLayoutCreateInfo *info,
                                                GError **error);
PSC_AVAILABLE_IN_ALL
VkRenderPass psc_cache_get_compat_render_pass (PscCache *self,
                                               const VkRenderPassCreateInfo *info,
                                               GError **error);
PSC_AVAILABLE_IN_ALL
gboolean psc_cache_is_compat_render_pass (PscCache *self, VkRenderPass pass);
PSC_AVAILABLE_IN_ALL
VkPipeline psc_cache_get_graphics_pipeline (PscCache *self,
                                            const VkGraphicsPipelineCreateInfo *info,
                                            GError **error);
PSC_AVAILABLE_IN_ALL
VkPipeline psc_cache_get_compute_pipeline (PscCache *self,
                                           const VkComputePipelineCreateInfo *info,
                                           GError **error);

PSC_AVAILABLE_IN_ALL
gsize psc_cache_get_graphics_key_size (PscCache *self,
                                       const VkGraphicsPipelineCreateInfo *info,
                                       GError **error);

/* Prepared keys */
PSC_AVAILABLE_IN_ALL
guint32 psc_cache_prepare_graphics_pipeline (PscCache *self,
                                             const VkGraphicsPipelineCreateInfo *info,
                                             GError **error);
PSC_AVAILABLE_IN_ALL
guint32 psc_cache_prepare_compute_pipeline (PscCache *self,
                                            const VkComputePipelineCreateInfo *info,
                                            GError **error);
PSC_AVAILABLE_IN_ALL
VkPipeline psc_cache_get_prepared_pipeline (PscCache *self, guint32 key_id,
                                            GError **error);

/* Borrowed-handle lifetime */
PSC_AVAILABLE_IN_ALL
gboolean psc_cache_pin (PscCache *self, VkObjectType type, guint64 handle,
                        GError **error);
PSC_AVAILABLE_IN_ALL
gboolean psc_cache_unpin (PscCache *self, VkObjectType type, guint64 handle,
                          GError **error);

/* Counters */
PSC_AVAILABLE_IN_ALL
void psc_cache_get_stats (PscCache *self, PscStats *stats);
PSC_AVAILABLE_IN_ALL
guint64 psc_cache_get_counter (PscCache *self, PscObjectKind kind,
                               PscCounter counter);

G_END_DECLS
