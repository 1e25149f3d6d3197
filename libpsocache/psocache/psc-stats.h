/* psc-stats.h: PscStats, an immutable snapshot of a cache's counters.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-error.h>
#include <psocache/psc-persist.h>

G_BEGIN_DECLS

/**
 * PscObjectKind:
 * @PSC_OBJECT_KIND_SAMPLER: `VkSampler`
 * @PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT: `VkDescriptorSetLayout`
 * @PSC_OBJECT_KIND_PIPELINE_LAYOUT: `VkPipelineLayout`
 * @PSC_OBJECT_KIND_RENDER_PASS: compatibility `VkRenderPass`
 * @PSC_OBJECT_KIND_GRAPHICS_PIPELINE: graphics `VkPipeline`
 * @PSC_OBJECT_KIND_COMPUTE_PIPELINE: compute `VkPipeline`
 * @PSC_OBJECT_KIND_SHADER_MODULE: `VkShaderModule` registered by SPIR-V
 *
 * The kinds of object a cache owns.
 *
 * Later versions add kinds, so there is deliberately no `COUNT` member: a
 * count compiled into an application would be wrong against a newer
 * library, and bindings would show it as a kind. Iterate the kinds of the
 * library the program runs against through its registered enumeration type
 * (`g_type_class_ref (PSC_TYPE_OBJECT_KIND)`, then the `GEnumClass`
 * values; in Python `Psc.ObjectKind.__enum_values__`), or read every
 * counter by name with [method@Psc.Stats.to_variant].
 *
 * Since: 0.1
 */
typedef enum {
  PSC_OBJECT_KIND_SAMPLER,
  PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT,
  PSC_OBJECT_KIND_PIPELINE_LAYOUT,
  PSC_OBJECT_KIND_RENDER_PASS,
  PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
  PSC_OBJECT_KIND_COMPUTE_PIPELINE,
  PSC_OBJECT_KIND_SHADER_MODULE,
} PscObjectKind;

/**
 * PscCounter:
 * @PSC_COUNTER_HITS: requests answered with an existing object
 * @PSC_COUNTER_MISSES: requests that found no Ready object (a request for a
 *   key that is still compiling is a miss too; it queues no second job)
 * @PSC_COUNTER_CREATIONS: objects created through the driver
 * @PSC_COUNTER_CREATION_NS: nanoseconds spent in the driver creating objects
 * @PSC_COUNTER_ENTRIES: objects held now (a gauge)
 * @PSC_COUNTER_HOST_BYTES: host bytes held now for these objects' keys and
 *   entries (a gauge)
 *
 * Per-kind counters, read with [method@Psc.Stats.get_counter] or
 * [method@Psc.Cache.get_counter]. Like [enum@Psc.ObjectKind] it has no
 * `COUNT` member: later versions may add counters.
 *
 * Since: 0.1
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
 * PscAsyncCounter:
 * @PSC_ASYNC_COUNTER_QUEUED: compile jobs waiting for a worker now (a gauge)
 * @PSC_ASYNC_COUNTER_IN_FLIGHT: compile jobs being compiled now (a gauge)
 * @PSC_ASYNC_COUNTER_COMPLETED: asynchronous compiles published as Ready
 * @PSC_ASYNC_COUNTER_FAILED: compiles that failed (the entry became Failed)
 * @PSC_ASYNC_COUNTER_STALE_DISCARDS: worker results discarded because their
 *   request was superseded (hot reload, or a synchronous request created it
 *   first)
 * @PSC_ASYNC_COUNTER_WAITERS_SERVED: completion callbacks called
 * @PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS: critical requests created
 *   synchronously because a queue was full
 * @PSC_ASYNC_COUNTER_OVERFLOW_SKIPS: non-critical requests refused with
 *   %PSC_ERROR_QUEUE_FULL
 * @PSC_ASYNC_COUNTER_EVICTIONS: idle pipelines evicted
 * @PSC_ASYNC_COUNTER_RETIREMENTS_PENDING: retired handles waiting for the GPU
 *   timeline (a gauge)
 * @PSC_ASYNC_COUNTER_RETIRED: retired handles destroyed
 * @PSC_ASYNC_COUNTER_OWNER_WAIT_NS: nanoseconds the owner thread spent
 *   creating pipelines synchronously (requests with %PSC_MISS_POLICY_WAIT)
 * @PSC_ASYNC_COUNTER_FALLBACKS_RETURNED: requests answered with a registered
 *   fallback
 * @PSC_ASYNC_COUNTER_STALE_RETURNED: requests answered with a previous
 *   generation's pipeline
 * @PSC_ASYNC_COUNTER_UNPUBLISHED: compiles finished by workers and not yet
 *   published (a gauge; the next [method@Psc.Cache.begin_frame] publishes
 *   them, within its time budget)
 *
 * Counters of the asynchronous machinery, read with
 * [method@Psc.Stats.get_async]. Gauges say how much there is now; the
 * others count events since the cache was created. In one snapshot a job is
 * counted in at most one of the queued, in-flight and unpublished gauges, so
 * their sum never exceeds the job capacity. Later versions may add
 * counters.
 *
 * Since: 0.1
 */
typedef enum {
  PSC_ASYNC_COUNTER_QUEUED,
  PSC_ASYNC_COUNTER_IN_FLIGHT,
  PSC_ASYNC_COUNTER_COMPLETED,
  PSC_ASYNC_COUNTER_FAILED,
  PSC_ASYNC_COUNTER_STALE_DISCARDS,
  PSC_ASYNC_COUNTER_WAITERS_SERVED,
  PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS,
  PSC_ASYNC_COUNTER_OVERFLOW_SKIPS,
  PSC_ASYNC_COUNTER_EVICTIONS,
  PSC_ASYNC_COUNTER_RETIREMENTS_PENDING,
  PSC_ASYNC_COUNTER_RETIRED,
  PSC_ASYNC_COUNTER_OWNER_WAIT_NS,
  PSC_ASYNC_COUNTER_FALLBACKS_RETURNED,
  PSC_ASYNC_COUNTER_STALE_RETURNED,
  PSC_ASYNC_COUNTER_UNPUBLISHED,
} PscAsyncCounter;

/**
 * PscStats:
 *
 * An immutable snapshot of a cache's counters, from
 * [method@Psc.Cache.get_stats].
 *
 * The snapshot is opaque, so later versions can add counters, kinds and
 * error codes without changing its size: read it with the getters, or as a
 * dictionary with documented, stable names ([method@Psc.Stats.to_variant]).
 * It is reference counted ([method@Psc.Stats.ref], [method@Psc.Stats.unref];
 * `g_boxed_copy()` takes a reference) and never changes, so any thread may
 * read it.
 *
 * Since: 0.1
 */
typedef struct _PscStats PscStats;

#define PSC_TYPE_STATS (psc_stats_get_type ())

PSC_AVAILABLE_IN_0_1
GType psc_stats_get_type (void) G_GNUC_CONST;

PSC_AVAILABLE_IN_0_1
PscStats *psc_stats_ref (PscStats *self);
PSC_AVAILABLE_IN_0_1
void psc_stats_unref (PscStats *self);

PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_counter (PscStats      *self,
                               PscObjectKind  kind,
                               PscCounter     counter);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_total (PscStats   *self,
                             PscCounter  counter);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_rejected (PscStats *self,
                                PscError  code);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_rejected_total (PscStats *self);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_async (PscStats        *self,
                             PscAsyncCounter  counter);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_capacity_failures (PscStats *self);
PSC_AVAILABLE_IN_0_1
guint64 psc_stats_get_frame (PscStats *self);
PSC_AVAILABLE_IN_0_1
GVariant *psc_stats_to_variant (PscStats *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscStats, psc_stats_unref)

PSC_AVAILABLE_IN_0_2
guint64 psc_stats_get_persist (PscStats          *self,
                               PscPersistCounter  counter);
PSC_AVAILABLE_IN_0_2
guint64 psc_stats_get_file_rejections (PscStats         *self,
                                       PscFileRejection  reason);
PSC_AVAILABLE_IN_0_2
gboolean psc_stats_get_persistence_enabled (PscStats *self);

G_END_DECLS
