/* psc-stats.c: PscStats, an immutable, reference-counted snapshot of a
 * cache's counters, and its one table of stable counter names.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"
#include "psc-persist.h"

#include <stddef.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * The names. Every counter's dictionary name (psc_stats_to_variant, and the
 * D-Bus interface that exports it as is) comes from these tables, and so
 * does every getter's range check: adding a counter is one line here (plus
 * its enum member and its field in the core). The names are part of the
 * API: never rename one. docs/statistics.md lists them all.
 */

/* "<kind>.<counter>", e.g. "graphics-pipeline.hits". */
static const char *const kind_names[] = {
  [PSC_OBJECT_KIND_SAMPLER] = "sampler",
  [PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT] = "descriptor-set-layout",
  [PSC_OBJECT_KIND_PIPELINE_LAYOUT] = "pipeline-layout",
  [PSC_OBJECT_KIND_RENDER_PASS] = "render-pass",
  [PSC_OBJECT_KIND_GRAPHICS_PIPELINE] = "graphics-pipeline",
  [PSC_OBJECT_KIND_COMPUTE_PIPELINE] = "compute-pipeline",
  [PSC_OBJECT_KIND_SHADER_MODULE] = "shader-module",
};

typedef struct {
  const char *name;
  size_t offset;          /* in PscCoreKindStats or PscCoreAsyncStats */
} PscStatsField;

static const PscStatsField counter_fields[] = {
  [PSC_COUNTER_HITS] = { "hits", offsetof (PscCoreKindStats, hits) },
  [PSC_COUNTER_MISSES] = { "misses", offsetof (PscCoreKindStats, misses) },
  [PSC_COUNTER_CREATIONS] = { "creations", offsetof (PscCoreKindStats, creations) },
  [PSC_COUNTER_CREATION_NS] = { "creation-ns", offsetof (PscCoreKindStats, creation_ns) },
  [PSC_COUNTER_ENTRIES] = { "entries", offsetof (PscCoreKindStats, entries) },
  [PSC_COUNTER_HOST_BYTES] = { "host-bytes", offsetof (PscCoreKindStats, host_bytes) },
};

/* "rejected.<error>", e.g. "rejected.queue-full". */
static const char *const error_names[] = {
  [PSC_ERROR_FAILED] = "failed",
  [PSC_ERROR_INVALID_ARGUMENT] = "invalid-argument",
  [PSC_ERROR_UNSUPPORTED] = "unsupported",
  [PSC_ERROR_FOREIGN_HANDLE] = "foreign-handle",
  [PSC_ERROR_CAPACITY] = "capacity",
  [PSC_ERROR_VULKAN] = "vulkan",
  [PSC_ERROR_WRONG_THREAD] = "wrong-thread",
  [PSC_ERROR_NO_DEVICE] = "no-device",
  [PSC_ERROR_QUEUE_FULL] = "queue-full",
  [PSC_ERROR_CLOSED] = "closed",
  [PSC_ERROR_DISCARDED] = "discarded",
  [PSC_ERROR_INVALID_DATA] = "invalid-data",
  [PSC_ERROR_IO] = "io",
};

/* "async.<counter>", e.g. "async.queued". */
static const PscStatsField async_fields[] = {
  [PSC_ASYNC_COUNTER_QUEUED] = { "queued", offsetof (PscCoreAsyncStats, queued) },
  [PSC_ASYNC_COUNTER_IN_FLIGHT] = { "in-flight", offsetof (PscCoreAsyncStats, in_flight) },
  [PSC_ASYNC_COUNTER_COMPLETED] = { "completed", offsetof (PscCoreAsyncStats, completed) },
  [PSC_ASYNC_COUNTER_FAILED] = { "failed", offsetof (PscCoreAsyncStats, failed) },
  [PSC_ASYNC_COUNTER_STALE_DISCARDS] = { "stale-discards", offsetof (PscCoreAsyncStats, stale_discards) },
  [PSC_ASYNC_COUNTER_WAITERS_SERVED] = { "waiters-served", offsetof (PscCoreAsyncStats, waiters_served) },
  [PSC_ASYNC_COUNTER_OVERFLOW_FALLBACKS] = { "overflow-fallbacks", offsetof (PscCoreAsyncStats, overflow_fallbacks) },
  [PSC_ASYNC_COUNTER_OVERFLOW_SKIPS] = { "overflow-skips", offsetof (PscCoreAsyncStats, overflow_skips) },
  [PSC_ASYNC_COUNTER_EVICTIONS] = { "evictions", offsetof (PscCoreAsyncStats, evictions) },
  [PSC_ASYNC_COUNTER_RETIREMENTS_PENDING] = { "retirements-pending", offsetof (PscCoreAsyncStats, retirements_pending) },
  [PSC_ASYNC_COUNTER_RETIRED] = { "retired", offsetof (PscCoreAsyncStats, retired) },
  [PSC_ASYNC_COUNTER_OWNER_WAIT_NS] = { "owner-wait-ns", offsetof (PscCoreAsyncStats, owner_wait_ns) },
  [PSC_ASYNC_COUNTER_FALLBACKS_RETURNED] = { "fallbacks-returned", offsetof (PscCoreAsyncStats, fallbacks_returned) },
  [PSC_ASYNC_COUNTER_STALE_RETURNED] = { "stale-returned", offsetof (PscCoreAsyncStats, stale_returned) },
  [PSC_ASYNC_COUNTER_UNPUBLISHED] = { "unpublished", offsetof (PscCoreAsyncStats, unpublished) },
};

/* The public enumerations and the core agree (a new kind or error code in
 * one must reach the other, and this table). */
G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == PSC_KIND_COUNT);
G_STATIC_ASSERT (G_N_ELEMENTS (error_names) == PSC_STATUS_COUNT);
G_STATIC_ASSERT (G_N_ELEMENTS (async_fields) * sizeof (guint64) == sizeof (PscCoreAsyncStats));
G_STATIC_ASSERT (G_N_ELEMENTS (counter_fields) * sizeof (guint64) == sizeof (PscCoreKindStats));
G_STATIC_ASSERT ((int) PSC_KIND_SAMPLER == (int) PSC_OBJECT_KIND_SAMPLER);
G_STATIC_ASSERT ((int) PSC_KIND_SET_LAYOUT == (int) PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT);
G_STATIC_ASSERT ((int) PSC_KIND_PIPELINE_LAYOUT == (int) PSC_OBJECT_KIND_PIPELINE_LAYOUT);
G_STATIC_ASSERT ((int) PSC_KIND_RENDER_PASS == (int) PSC_OBJECT_KIND_RENDER_PASS);
G_STATIC_ASSERT ((int) PSC_KIND_GRAPHICS == (int) PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
G_STATIC_ASSERT ((int) PSC_KIND_COMPUTE == (int) PSC_OBJECT_KIND_COMPUTE_PIPELINE);
G_STATIC_ASSERT ((int) PSC_KIND_SHADER == (int) PSC_OBJECT_KIND_SHADER_MODULE);

G_DEFINE_BOXED_TYPE (PscStats, psc_stats, psc_stats_ref, psc_stats_unref)

void
psc_stats_read (PscStats                 *self,
                PscCore                  *core,
                const PscPersist *persist)
{
  if (core == NULL)
    memset (&self->core, 0, sizeof self->core);
  else
    psc_core_get_stats (core, &self->core);
  psc_persist_read_counters (persist, &self->persist);
  /* The driver's feedback is the core's (it counts with or without a
   * directory). */
  self->persist.value[PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS] = self->core.driver_cache_hits;
  self->persist.value[PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES] = self->core.driver_cache_misses;
}

PscStats *
psc_stats_new_snapshot (PscCore                  *core,
                        const PscPersist *persist)
{
  PscStats *self = g_atomic_rc_box_new0 (PscStats);

  psc_stats_read (self, core, persist);
  return self;
}

static guint64
field_value (const void          *base,
             const PscStatsField *field)
{
  guint64 v;

  memcpy (&v, (const char *) base + field->offset, sizeof v);
  return v;
}

/**
 * psc_stats_ref:
 * @self: a snapshot
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
PscStats *
psc_stats_ref (PscStats *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

/**
 * psc_stats_unref:
 * @self: (transfer full): a snapshot
 *
 * Drops a reference to @self; the last one frees it.
 *
 * Since: 0.1
 */
void
psc_stats_unref (PscStats *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release (self);
}

/**
 * psc_stats_get_counter:
 * @self: a snapshot
 * @kind: an object kind
 * @counter: a per-kind counter
 *
 * Reads one counter of one object kind. Its dictionary name (see
 * [method@Psc.Stats.to_variant]) is `<kind>.<counter>`, for example
 * `graphics-pipeline.hits`.
 *
 * Returns: the counter's value; 0 (and a critical) for a kind or counter
 *   this version of the library does not know
 *
 * Since: 0.1
 */
guint64
psc_stats_get_counter (PscStats      *self,
                       PscObjectKind  kind,
                       PscCounter     counter)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), 0);
  g_return_val_if_fail ((guint) counter < G_N_ELEMENTS (counter_fields), 0);

  return field_value (&self->core.kinds[kind], &counter_fields[counter]);
}

/**
 * psc_stats_get_total:
 * @self: a snapshot
 * @counter: a per-kind counter
 *
 * Adds up one counter over every object kind.
 *
 * Returns: the total; 0 (and a critical) for an unknown counter
 *
 * Since: 0.1
 */
guint64
psc_stats_get_total (PscStats   *self,
                     PscCounter  counter)
{
  guint64 total = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) counter < G_N_ELEMENTS (counter_fields), 0);

  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    total += field_value (&self->core.kinds[k], &counter_fields[counter]);
  return total;
}

/**
 * psc_stats_get_rejected:
 * @self: a snapshot
 * @code: an error code of the [error@Psc.Error] domain
 *
 * Reads how many requests failed with @code (dictionary name
 * `rejected.<code>`, for example `rejected.queue-full`).
 *
 * Returns: the count; 0 (and a critical) for an unknown code
 *
 * Since: 0.1
 */
guint64
psc_stats_get_rejected (PscStats *self,
                        PscError  code)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) code < G_N_ELEMENTS (error_names), 0);

  return self->core.rejected[code];
}

/**
 * psc_stats_get_rejected_total:
 * @self: a snapshot
 *
 * Adds up the failed requests over every error code.
 *
 * Returns: the count
 *
 * Since: 0.1
 */
guint64
psc_stats_get_rejected_total (PscStats *self)
{
  guint64 total = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (error_names); i++)
    total += self->core.rejected[i];
  return total;
}

/**
 * psc_stats_get_async:
 * @self: a snapshot
 * @counter: a counter of the asynchronous machinery
 *
 * Reads one counter of the asynchronous machinery (dictionary name
 * `async.<counter>`, for example `async.queued`).
 *
 * Returns: the counter's value; 0 (and a critical) for an unknown counter
 *
 * Since: 0.1
 */
guint64
psc_stats_get_async (PscStats        *self,
                     PscAsyncCounter  counter)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) counter < G_N_ELEMENTS (async_fields), 0);

  return field_value (&self->core.async, &async_fields[counter]);
}

/**
 * psc_stats_get_capacity_failures:
 * @self: a snapshot
 *
 * Reads how many requests were refused because a collision bucket (the
 * distinct keys sharing one full 64-bit hash) was full (dictionary name
 * `capacity-failures`).
 *
 * Returns: the count
 *
 * Since: 0.1
 */
guint64
psc_stats_get_capacity_failures (PscStats *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->core.capacity_failures;
}

/**
 * psc_stats_get_frame:
 * @self: a snapshot
 *
 * Reads the frame last given to [method@Psc.Cache.begin_frame]
 * (dictionary name `frame`).
 *
 * Returns: the frame number, 0 before the first frame
 *
 * Since: 0.1
 */
guint64
psc_stats_get_frame (PscStats *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->core.frame;
}

static void
add_entry (GVariantBuilder *b,
           const char      *group,
           const char      *name,
           guint64          value)
{
  g_autofree char *key = group != NULL ? g_strconcat (group, ".", name, NULL) : g_strdup (name);

  g_variant_builder_add (b, "{sv}", key, g_variant_new_uint64 (value));
}

/* The persistence counters' names (PscPersistCounter order), stable. */
static const char *const persist_names[] = {
  "driver-bytes-loaded", "driver-files-loaded", "saves", "saves-skipped",
  "save-failures", "merges", "files-removed", "disk-bytes", "rejected-total",
  "driver-bytes-saved", "driver-cache-hits", "driver-cache-misses",
  "recipes-loaded", "recipes-stale", "recipes-prewarmed", "recipes-saved",
  "artifacts-loaded", "artifact-hits", "artifact-misses", "strict-misses",
};
G_STATIC_ASSERT (G_N_ELEMENTS (persist_names) == PSC_PERSIST_COUNTER_N);

static void
add_persist_entries (GVariantBuilder          *b,
                     const PscPersistSnapshot *p)
{
  add_entry (b, "persistence", "enabled", p->enabled ? 1 : 0);
  for (guint i = 0; i < G_N_ELEMENTS (persist_names); i++)
    add_entry (b, "persistence", persist_names[i], p->value[i]);
  for (guint r = 1; r < PSC_FILE_REASON_COUNT; r++)
    add_entry (b, "persistence.rejected", psc_file_reason_name ((PscFileReason) r), p->rejected[r]);
}

/**
 * psc_stats_to_variant:
 * @self: a snapshot
 *
 * Returns every counter of the snapshot as one dictionary (`a{sv}`), each
 * value a `uint64` (`t`). The names are stable and documented (the
 * statistics page lists them all): `<kind>.<counter>` for the per-kind
 * counters (`graphics-pipeline.hits`), `rejected.<error>` per error code
 * (`rejected.queue-full`), `async.<counter>` for the asynchronous machinery
 * (`async.queued`), `capacity-failures` and `frame`. Kinds and counters are
 * named like the nicks of their enumerations. Later versions add names;
 * none is renamed or removed. The D-Bus interface exports this dictionary
 * as it is.
 *
 * Returns: (transfer full): a new, non-floating `a{sv}` variant
 *
 * Since: 0.1
 */
GVariant *
psc_stats_to_variant (PscStats *self)
{
  GVariantBuilder b;

  g_return_val_if_fail (self != NULL, NULL);

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    for (guint c = 0; c < G_N_ELEMENTS (counter_fields); c++)
      add_entry (&b, kind_names[k], counter_fields[c].name,
                 field_value (&self->core.kinds[k], &counter_fields[c]));
  for (guint e = 0; e < G_N_ELEMENTS (error_names); e++)
    add_entry (&b, "rejected", error_names[e], self->core.rejected[e]);
  for (guint a = 0; a < G_N_ELEMENTS (async_fields); a++)
    add_entry (&b, "async", async_fields[a].name,
               field_value (&self->core.async, &async_fields[a]));
  add_persist_entries (&b, &self->persist);
  add_entry (&b, NULL, "capacity-failures", self->core.capacity_failures);
  add_entry (&b, NULL, "frame", self->core.frame);
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

/**
 * psc_stats_get_persist:
 * @self: a snapshot
 * @counter: which counter
 *
 * Returns one of the persistence counters (see [enum@Psc.PersistCounter]).
 *
 * Returns: the counter's value; 0 for a @counter this library does not know
 *   (with a critical)
 *
 * Since: 0.2
 */
guint64
psc_stats_get_persist (PscStats          *self,
                       PscPersistCounter  counter)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) counter < PSC_PERSIST_COUNTER_N, 0);
  return self->persist.value[counter];
}

/**
 * psc_stats_get_file_rejections:
 * @self: a snapshot
 * @reason: a reason
 *
 * Returns how many files, blobs or log records were refused for @reason
 * since the cache was created.
 *
 * Returns: the count; 0 for a @reason this library does not know (with a
 *   critical)
 *
 * Since: 0.2
 */
guint64
psc_stats_get_file_rejections (PscStats         *self,
                               PscFileRejection  reason)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) reason >= 1 && (guint) reason < PSC_FILE_REASON_COUNT, 0);
  return self->persist.rejected[reason];
}

/**
 * psc_stats_get_persistence_enabled:
 * @self: a snapshot
 *
 * Whether the cache persists to a directory (see
 * [property@Psc.Cache:cache-directory]).
 *
 * Returns: %TRUE when it does
 *
 * Since: 0.2
 */
gboolean
psc_stats_get_persistence_enabled (PscStats *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->persist.enabled;
}
