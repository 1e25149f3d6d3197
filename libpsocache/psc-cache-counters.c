/* psc-cache-counters.c: PscCache's counter properties: one table of
 * read-only uint64 properties (a name, which counter it reads), read on
 * demand from the counters (any thread), and notified from
 * psc_cache_begin_frame on the owner thread for those whose value changed
 * since the previous frame (one freeze/thaw per frame, and only for
 * properties someone listens to).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

/* Where a property's value comes from. */
enum {
  SRC_TOTAL,      /* psc_stats_get_total (which) */
  SRC_CAPACITY,   /* psc_stats_get_capacity_failures */
  SRC_REJECTED,   /* psc_stats_get_rejected_total */
  SRC_ASYNC,      /* psc_stats_get_async (which) */
  SRC_FRAME,      /* psc_stats_get_frame */
  SRC_PERSIST,    /* psc_stats_get_persist (which) */
  SRC_DROPPED,    /* the core's events_dropped */
};

typedef struct {
  const char *name;
  guint8 source;
  guint8 which;
} PscCounterProperty;

/* Property documentation is here, next to each row; the order is the
 * properties' offsets (PSC_CACHE_COUNTERS_N_PROPS of them). */
static const PscCounterProperty counter_props[] = {
  /**
   * PscCache:hits:
   *
   * Requests answered with an existing object, over all kinds.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "hits", SRC_TOTAL, PSC_COUNTER_HITS },
  /**
   * PscCache:misses:
   *
   * Requests that found no existing object, over all kinds.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "misses", SRC_TOTAL, PSC_COUNTER_MISSES },
  /**
   * PscCache:creations:
   *
   * Objects created through the driver, over all kinds.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "creations", SRC_TOTAL, PSC_COUNTER_CREATIONS },
  /**
   * PscCache:creation-time-ns:
   *
   * Nanoseconds spent in the driver creating objects, over all kinds (the
   * dictionary's `<kind>.creation-ns`).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "creation-time-ns", SRC_TOTAL, PSC_COUNTER_CREATION_NS },
  /**
   * PscCache:entries:
   *
   * Objects the cache holds now, over all kinds (a gauge).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "entries", SRC_TOTAL, PSC_COUNTER_ENTRIES },
  /**
   * PscCache:host-bytes:
   *
   * Host memory held for keys and entries, over all kinds, in bytes (a
   * gauge).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "host-bytes", SRC_TOTAL, PSC_COUNTER_HOST_BYTES },
  /**
   * PscCache:capacity-failures:
   *
   * Requests refused because a collision bucket was full.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "capacity-failures", SRC_CAPACITY, 0 },
  /**
   * PscCache:rejected:
   *
   * Failed requests, over all reasons; [method@Psc.Cache.get_stats] gives
   * them per [error@Psc.Error] code.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "rejected", SRC_REJECTED, 0 },
  /**
   * PscCache:jobs-queued:
   *
   * Compile jobs waiting for a worker now (a gauge).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "jobs-queued", SRC_ASYNC, PSC_ASYNC_COUNTER_QUEUED },
  /**
   * PscCache:jobs-in-flight:
   *
   * Compile jobs a worker is compiling now (a gauge).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "jobs-in-flight", SRC_ASYNC, PSC_ASYNC_COUNTER_IN_FLIGHT },
  /**
   * PscCache:jobs-completed:
   *
   * Asynchronous compiles published as Ready.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "jobs-completed", SRC_ASYNC, PSC_ASYNC_COUNTER_COMPLETED },
  /**
   * PscCache:jobs-failed:
   *
   * Compiles the driver refused.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "jobs-failed", SRC_ASYNC, PSC_ASYNC_COUNTER_FAILED },
  /**
   * PscCache:stale-discards:
   *
   * Worker results discarded because their request was superseded.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "stale-discards", SRC_ASYNC, PSC_ASYNC_COUNTER_STALE_DISCARDS },
  /**
   * PscCache:waiters-served:
   *
   * Completion callbacks called.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "waiters-served", SRC_ASYNC, PSC_ASYNC_COUNTER_WAITERS_SERVED },
  /**
   * PscCache:overflow-fallbacks:
   *
   * Critical requests created synchronously because a queue was full.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "overflow-fallbacks", SRC_ASYNC, PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS },
  /**
   * PscCache:overflow-skips:
   *
   * Non-critical requests refused because a queue was full.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "overflow-skips", SRC_ASYNC, PSC_ASYNC_COUNTER_OVERFLOW_SKIPS },
  /**
   * PscCache:evictions:
   *
   * Idle pipelines evicted.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "evictions", SRC_ASYNC, PSC_ASYNC_COUNTER_EVICTIONS },
  /**
   * PscCache:retirements-pending:
   *
   * Retired handles waiting for the GPU timeline (a gauge).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "retirements-pending", SRC_ASYNC, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING },
  /**
   * PscCache:owner-wait-ns:
   *
   * Nanoseconds the owner thread spent creating pipelines synchronously.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.1
   */
  { "owner-wait-ns", SRC_ASYNC, PSC_ASYNC_COUNTER_OWNER_WAIT_NS },
  /**
   * PscCache:retired:
   *
   * Retired handles destroyed (%PSC_ASYNC_COUNTER_RETIRED).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "retired", SRC_ASYNC, PSC_ASYNC_COUNTER_RETIRED },
  /**
   * PscCache:fallbacks-returned:
   *
   * Requests answered with a registered fallback
   * (%PSC_ASYNC_COUNTER_FALLBACKS_RETURNED).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "fallbacks-returned", SRC_ASYNC, PSC_ASYNC_COUNTER_FALLBACKS_RETURNED },
  /**
   * PscCache:stale-returned:
   *
   * Requests answered with a previous generation's pipeline
   * (%PSC_ASYNC_COUNTER_STALE_RETURNED).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "stale-returned", SRC_ASYNC, PSC_ASYNC_COUNTER_STALE_RETURNED },
  /**
   * PscCache:jobs-unpublished:
   *
   * Compiles finished by workers and not yet published (a gauge,
   * %PSC_ASYNC_COUNTER_UNPUBLISHED).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "jobs-unpublished", SRC_ASYNC, PSC_ASYNC_COUNTER_UNPUBLISHED },
  /**
   * PscCache:frame:
   *
   * The frame last given to [method@Psc.Cache.begin_frame] (the
   * dictionary's `frame`); it is notified by the begin_frame that changes
   * it.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "frame", SRC_FRAME, 0 },
  /**
   * PscCache:persistence-driver-bytes-loaded:
   *
   * Vulkan pipeline-cache bytes the driver accepted:
   * %PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED, the dictionary's
   * `persistence.driver-bytes-loaded` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-driver-bytes-loaded", SRC_PERSIST, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED },
  /**
   * PscCache:persistence-driver-files-loaded:
   *
   * Driver files or blobs validated and given to the driver:
   * %PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED, the dictionary's
   * `persistence.driver-files-loaded` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-driver-files-loaded", SRC_PERSIST, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED },
  /**
   * PscCache:persistence-saves:
   *
   * Files written: %PSC_PERSIST_COUNTER_SAVES, the dictionary's
   * `persistence.saves` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-saves", SRC_PERSIST, PSC_PERSIST_COUNTER_SAVES },
  /**
   * PscCache:persistence-saves-skipped:
   *
   * Saves that wrote nothing because nothing had changed:
   * %PSC_PERSIST_COUNTER_SAVES_SKIPPED, the dictionary's
   * `persistence.saves-skipped` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-saves-skipped", SRC_PERSIST, PSC_PERSIST_COUNTER_SAVES_SKIPPED },
  /**
   * PscCache:persistence-save-failures:
   *
   * Saves that failed (the previous file left intact):
   * %PSC_PERSIST_COUNTER_SAVE_FAILURES, the dictionary's
   * `persistence.save-failures` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-save-failures", SRC_PERSIST, PSC_PERSIST_COUNTER_SAVE_FAILURES },
  /**
   * PscCache:persistence-merges:
   *
   * Another process's newer file merged before a save:
   * %PSC_PERSIST_COUNTER_MERGES, the dictionary's `persistence.merges`
   * (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-merges", SRC_PERSIST, PSC_PERSIST_COUNTER_MERGES },
  /**
   * PscCache:persistence-files-removed:
   *
   * Files deleted: stale temporaries, unused or superseded identities,
   * quota trimming: %PSC_PERSIST_COUNTER_FILES_REMOVED, the dictionary's
   * `persistence.files-removed` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-files-removed", SRC_PERSIST, PSC_PERSIST_COUNTER_FILES_REMOVED },
  /**
   * PscCache:persistence-disk-bytes:
   *
   * Bytes in the cache directory after the last save or trim (a gauge):
   * %PSC_PERSIST_COUNTER_DISK_BYTES, the dictionary's
   * `persistence.disk-bytes` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-disk-bytes", SRC_PERSIST, PSC_PERSIST_COUNTER_DISK_BYTES },
  /**
   * PscCache:persistence-rejected-total:
   *
   * Files and blobs refused, every reason together:
   * %PSC_PERSIST_COUNTER_REJECTED_TOTAL, the dictionary's
   * `persistence.rejected-total` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-rejected-total", SRC_PERSIST, PSC_PERSIST_COUNTER_REJECTED_TOTAL },
  /**
   * PscCache:persistence-driver-bytes-saved:
   *
   * Vulkan bytes in the last driver file written (a gauge):
   * %PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED, the dictionary's
   * `persistence.driver-bytes-saved` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-driver-bytes-saved", SRC_PERSIST, PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED },
  /**
   * PscCache:persistence-driver-cache-hits:
   *
   * Pipeline creations the driver reported (creation feedback) as served
   * from its pipeline cache: %PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS, the
   * dictionary's `persistence.driver-cache-hits` (see
   * [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-driver-cache-hits", SRC_PERSIST, PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS },
  /**
   * PscCache:persistence-driver-cache-misses:
   *
   * Pipeline creations the driver reported as compiled:
   * %PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES, the dictionary's
   * `persistence.driver-cache-misses` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-driver-cache-misses", SRC_PERSIST, PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES },
  /**
   * PscCache:persistence-recipes-loaded:
   *
   * Warm-up recipes read when the cache was created:
   * %PSC_PERSIST_COUNTER_RECIPES_LOADED, the dictionary's
   * `persistence.recipes-loaded` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-recipes-loaded", SRC_PERSIST, PSC_PERSIST_COUNTER_RECIPES_LOADED },
  /**
   * PscCache:persistence-recipes-stale:
   *
   * Recipes prewarm skipped because they no longer resolve:
   * %PSC_PERSIST_COUNTER_RECIPES_STALE, the dictionary's
   * `persistence.recipes-stale` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-recipes-stale", SRC_PERSIST, PSC_PERSIST_COUNTER_RECIPES_STALE },
  /**
   * PscCache:persistence-recipes-prewarmed:
   *
   * Recipes compiled by prewarm: %PSC_PERSIST_COUNTER_RECIPES_PREWARMED,
   * the dictionary's `persistence.recipes-prewarmed` (see
   * [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-recipes-prewarmed", SRC_PERSIST, PSC_PERSIST_COUNTER_RECIPES_PREWARMED },
  /**
   * PscCache:persistence-recipes-saved:
   *
   * Pipeline records appended to the recipes file:
   * %PSC_PERSIST_COUNTER_RECIPES_SAVED, the dictionary's
   * `persistence.recipes-saved` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-recipes-saved", SRC_PERSIST, PSC_PERSIST_COUNTER_RECIPES_SAVED },
  /**
   * PscCache:persistence-artifacts-loaded:
   *
   * SPIR-V artifacts read and found valid when the cache was created:
   * %PSC_PERSIST_COUNTER_ARTIFACTS_LOADED, the dictionary's
   * `persistence.artifacts-loaded` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-artifacts-loaded", SRC_PERSIST, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED },
  /**
   * PscCache:persistence-artifact-hits:
   *
   * [method@Psc.Cache.register_shader_source] calls served by a stored
   * artifact: %PSC_PERSIST_COUNTER_ARTIFACT_HITS, the dictionary's
   * `persistence.artifact-hits` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-artifact-hits", SRC_PERSIST, PSC_PERSIST_COUNTER_ARTIFACT_HITS },
  /**
   * PscCache:persistence-artifact-misses:
   *
   * [method@Psc.Cache.register_shader_source] calls that ran the compile
   * callback: %PSC_PERSIST_COUNTER_ARTIFACT_MISSES, the dictionary's
   * `persistence.artifact-misses` (see [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-artifact-misses", SRC_PERSIST, PSC_PERSIST_COUNTER_ARTIFACT_MISSES },
  /**
   * PscCache:persistence-strict-misses:
   *
   * With %PSC_CACHE_FLAGS_STRICT_RECIPES, pipelines compiled on demand
   * that no recipe covered: %PSC_PERSIST_COUNTER_STRICT_MISSES, the
   * dictionary's `persistence.strict-misses` (see
   * [enum@Psc.PersistCounter]).
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "persistence-strict-misses", SRC_PERSIST, PSC_PERSIST_COUNTER_STRICT_MISSES },
  /**
   * PscCache:signals-dropped:
   *
   * Signal emissions the cache dropped:
   * [signal@Psc.Cache::pipeline-ready], [signal@Psc.Cache::pipeline-failed] and
   * [signal@Psc.Cache::shader-reloaded] events beyond the 1,024 that one
   * frame can hold (see [method@Psc.Cache.begin_frame]). Not in the
   * counter dictionary: it counts signals, not cache work.
   * Read on demand from any thread; notified by
   * [method@Psc.Cache.begin_frame] when it changed (see [class@Psc.Cache]).
   *
   * Since: 0.3
   */
  { "signals-dropped", SRC_DROPPED, 0 },
};
G_STATIC_ASSERT (G_N_ELEMENTS (counter_props) == PSC_CACHE_COUNTERS_N_PROPS);

static guint64
counter_value (PscStats                 *stats,
               const PscCounterProperty *p)
{
  switch (p->source)
    {
    case SRC_TOTAL: return psc_stats_get_total (stats, (PscCounter) p->which);
    case SRC_CAPACITY: return psc_stats_get_capacity_failures (stats);
    case SRC_REJECTED: return psc_stats_get_rejected_total (stats);
    case SRC_ASYNC: return psc_stats_get_async (stats, (PscAsyncCounter) p->which);
    case SRC_FRAME: return psc_stats_get_frame (stats);
    case SRC_PERSIST: return psc_stats_get_persist (stats, (PscPersistCounter) p->which);
    case SRC_DROPPED: return stats->core.events_dropped;
    default: g_assert_not_reached ();
    }
}

void
psc_cache_counters_class_init (GParamSpec **props,
                               guint        first)
{
  for (guint i = 0; i < G_N_ELEMENTS (counter_props); i++)
    props[first + i] =
      g_param_spec_uint64 (counter_props[i].name, NULL, NULL, 0, G_MAXUINT64, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

void
psc_cache_counters_get_property (PscCache *self,
                                 guint     offset,
                                 GValue   *value)
{
  PscStats stats;

  g_assert (offset < G_N_ELEMENTS (counter_props));
  psc_stats_read (&stats, self->core, self->persist);
  g_value_set_uint64 (value, counter_value (&stats, &counter_props[offset]));
}

void
psc_cache_counters_baseline (PscCache *self)
{
  PscStats stats;

  psc_stats_read (&stats, self->core, self->persist);
  for (guint i = 0; i < G_N_ELEMENTS (counter_props); i++)
    self->counter_values[i] = counter_value (&stats, &counter_props[i]);
}

void
psc_cache_counters_notify (PscCache    *self,
                           GParamSpec **props,
                           guint        first)
{
  static guint notify_id;
  gboolean frozen = FALSE;
  int any_listener = -1;   /* a "notify" handler without detail; -1: not asked yet */
  PscStats stats;

  if (G_UNLIKELY (notify_id == 0))
    notify_id = g_signal_lookup ("notify", G_TYPE_OBJECT);

  psc_stats_read (&stats, self->core, self->persist);
  for (guint i = 0; i < G_N_ELEMENTS (counter_props); i++)
    {
      const guint64 v = counter_value (&stats, &counter_props[i]);
      GParamSpec *pspec = props[first + i];

      if (v == self->counter_values[i])
        continue;
      self->counter_values[i] = v;
      /* Nobody listens (to "notify" or "notify::<name>"): nothing to do.
       * (GLib 2.74's g_signal_has_handler_pending() with a detail matches
       * only handlers of that detail, so both are asked.) */
      if (any_listener < 0)
        any_listener = g_signal_has_handler_pending (self, notify_id, 0, FALSE);
      if (!any_listener &&
          !g_signal_has_handler_pending (self, notify_id, g_param_spec_get_name_quark (pspec), FALSE))
        continue;
      if (!frozen)
        {
          g_object_freeze_notify (G_OBJECT (self));
          frozen = TRUE;
        }
      g_object_notify_by_pspec (G_OBJECT (self), pspec);
    }
  if (frozen)
    g_object_thaw_notify (G_OBJECT (self));
}
