/* psc-private.h: what the GObject layer's files share, never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

#include "psocache/psocache.h"
#include "core/psc-core.h"
#include "core/formats/driver-file.h"

G_BEGIN_DECLS

typedef struct _PscPersist PscPersist;

/* Binds the libpsocache-1 gettext domain once per process. Called from every
 * entry point that can produce a user-visible message (the error quark, the
 * class initialisers). */
G_GNUC_INTERNAL void psc_i18n_init (void);

/* Sets @error (which may be NULL) from a core failure: domain PSC_ERROR, code =
 * core status (core numbering equals PscError), message = the core's message,
 * which already names the field path and, for driver failures, the VkResult. */
G_GNUC_INTERNAL void psc_error_from_core (GError **error, const PscCoreError *core_error);

/* Only the fields a failure report reads are initialised, so the hot path
 * pays three stores, not a 400-byte memset. */
#define PSC_CORE_ERROR_INIT(e) \
  G_STMT_START { (e).status = PSC_STATUS_FAILED; (e).path[0] = '\0'; (e).message[0] = '\0'; } G_STMT_END

/* Sets @error from a failed core call's status and detail. */
static inline void
psc_cache_fail (GError **error, PscStatus status, PscCoreError *core_error)
{
  core_error->status = status;
  psc_error_from_core (error, core_error);
}

/* psc-versioned.c. The rules of the public structures that carry their own
 * size as their first member (PscCacheOptions, PscDeviceInfo): @given's
 * size must be at least @min_size (the structure's first version) and at
 * most PSC_VERSIONED_MAX_SIZE; bytes from @known_size (this library's
 * sizeof) up to the given size must be zero. On success @known receives
 * the members both sides know, the rest zeroed (their defaults), and its
 * size is @known_size. On failure @error (PSC_ERROR_INVALID_ARGUMENT) names
 * @arg ("options", "info") and the size or the offset. */
#define PSC_VERSIONED_MAX_SIZE 4096
G_GNUC_INTERNAL gboolean psc_versioned_copy (const void  *given,
                                             gsize        min_size,
                                             gsize        known_size,
                                             const char  *type_name,
                                             const char  *arg,
                                             void        *known,
                                             GError     **error);

/* psc-device.c */
/* Fills the device part of a core configuration: instance, physical device,
 * device, vkGetInstanceProcAddr, effective API version, debug-utils, whether
 * dynamic rendering was enabled (from the enabled-feature snapshot) and the
 * allocation callbacks. Leaves the cache-specific fields alone. */
G_GNUC_INTERNAL void psc_device_fill_core_config (PscDevice *self, PscCoreConfig *cfg);
/* The identity a driver pipeline-cache file belongs to (vendor, device,
 * driver version, pipelineCacheUUID). Any thread once ready. */
G_GNUC_INTERNAL void psc_device_get_identity (PscDevice *self, PscDeviceIdentity *id);
/* TRUE once the device's initialization succeeded (any thread: a device
 * is immutable afterwards). */
G_GNUC_INTERNAL gboolean psc_device_is_ready (PscDevice *self);

/* psc-stats.c. A snapshot is a copy of the core's counters (the core reads
 * them with atomics, from any thread). psc-cache.c also fills one on the
 * stack for the counter properties. */
/* Persistence counters (psc-persist.c; public numbering: PscPersistCounter). */
#define PSC_PERSIST_COUNTER_N (PSC_PERSIST_COUNTER_STRICT_MISSES + 1)
typedef struct {
  guint64 value[PSC_PERSIST_COUNTER_N];
  guint64 rejected[PSC_FILE_REASON_COUNT];   /* by PscFileReason */
  gboolean enabled;
} PscPersistSnapshot;

struct _PscStats
{
  PscCoreStats core;
  PscPersistSnapshot persist;
};
/* Reads @core's and @persist's counters into @self (zeros when @core is
 * NULL: a cache that was never initialized). Any thread. */
G_GNUC_INTERNAL void psc_stats_read (PscStats *self, PscCore *core,
                                     const PscPersist *persist);
/* A new snapshot (reference count 1) of the same. Any thread. */
G_GNUC_INTERNAL PscStats *psc_stats_new_snapshot (PscCore *core,
                                                  const PscPersist *persist);

/* ------------------------------------------------------------------------
 * PscCache, shared by psc-cache.c (lifetime, properties, the pump),
 * psc-cache-objects.c (the synchronous requests) and psc-cache-async.c
 * (asynchronous requests, GTasks, hot reload, eviction).
 */
/* The counter properties of psc-cache-counters.c. */
#define PSC_CACHE_COUNTERS_N_PROPS 45

struct _PscCache
{
  GObject parent_instance;

  /* Construct-only properties, as given. */
  PscDevice *device;
  PscBackend requested_backend;
  PscCacheFlags flags;
  guint workers, job_capacity, waiter_capacity, publish_budget_us;
  PscCoreTestHooks hooks;   /* zero, except from psc_cache_new_internal () */
  char *application_id;     /* persistence (psc-cache-persist.c) */
  char *cache_directory;
  guint64 max_disk_bytes, driver_data_limit;
  guint save_interval_s;
  guint recipe_limit, prewarm_candidates, prewarm_in_flight;
  guint64 recipe_bytes;

  /* Initialization (GInitable), once. core is NULL until it succeeded:
   * such a cache is "not open" (every method with a GError fails with
   * PSC_ERROR_CLOSED, the others do nothing). */
  gboolean init_done;
  GError *init_error;       /* why it failed, or NULL */
  PscCore *core;
  PscBackend backend;       /* resolved: never PSC_BACKEND_AUTO once open */
  GThread *owner;           /* a reference, so the address stays unique */
  GPtrArray *pending;       /* PscAsyncOp awaiting their core callback */
  gint evict_idle_frames;   /* atomic: any thread may read it */
  PscPersist *persist;   /* created with the core; NULL while not open */
  struct _PscArtifacts *artifacts;   /* layer 2 (psc-cache-artifacts.c); NULL while not open */

  /* The pump runs application callbacks, which may call back: begin_frame
   * refuses to nest, and a close asked for meanwhile waits for the pump to
   * finish (the core's pump does not survive either). */
  gboolean in_pump;
  gboolean close_requested;
  guint64 close_timeline;

  /* psc-cache-counters.c: each counter property's value at the previous
   * frame (owner thread). */
  guint64 counter_values[PSC_CACHE_COUNTERS_N_PROPS];

  /* psc-cache-export.c (owner thread): the D-Bus export or NULL, the
   * frame its events are stamped with, the save counters last reported. */
  struct _PscExportBus *export;
  guint64 export_frame, export_saves, export_save_failures;
};

/* psc_cache_new_full() with the core's test hooks (NULL: none). Only the
 * test-only psc_cache_new_with_hooks() (psc-test-hooks.c, not part of the
 * installed library) passes hooks. */
G_GNUC_INTERNAL PscCache *psc_cache_new_internal (PscDevice               *device,
                                                 PscBackend               backend,
                                                 PscCacheFlags            flags,
                                                 const PscCacheOptions   *options,
                                                 const PscCoreTestHooks  *hooks,
                                                 GError                 **error);

/* psc-cache-persist.c: PscCache's persistence properties and methods.
 * The properties are installed at props[first] onwards, in the order
 * application-id, cache-directory, max-disk-bytes, driver-data-limit,
 * save-interval, recipe-limit, prewarm-candidates, prewarm-in-flight,
 * recipe-bytes;
 * get/set take the offset from first. */
#define PSC_CACHE_PERSIST_N_PROPS 9
G_GNUC_INTERNAL void psc_cache_persist_class_init (GParamSpec **props, guint first);
G_GNUC_INTERNAL void psc_cache_persist_get_property (PscCache *self, guint offset, GValue *value);
G_GNUC_INTERNAL void psc_cache_persist_set_property (PscCache *self, guint offset,
                                                     const GValue *value);
/* Opens persistence before the core exists (FALSE only for invalid
 * arguments) and fills the core configuration's initial driver data and
 * closing callback. */
G_GNUC_INTERNAL gboolean psc_cache_persist_open (PscCache *self, PscCoreConfig *cfg,
                                                 GError **error);
/* After the core was created (or failed: core NULL). */
G_GNUC_INTERNAL void psc_cache_persist_opened (PscCache *self);
G_GNUC_INTERNAL void psc_cache_persist_pump (PscCache *self);
G_GNUC_INTERNAL void psc_cache_persist_free (PscCache *self);

/* psc-cache-counters.c: the counter properties (hits, ..., the
 * persistence counters, signals-dropped), installed at props[first]
 * onwards; get takes the offset from first. baseline records their values
 * (at open); notify, from psc_cache_begin_frame, notifies those whose value
 * changed since, within one freeze/thaw. */
G_GNUC_INTERNAL void psc_cache_counters_class_init (GParamSpec **props, guint first);
G_GNUC_INTERNAL void psc_cache_counters_get_property (PscCache *self, guint offset, GValue *value);
G_GNUC_INTERNAL void psc_cache_counters_baseline (PscCache *self);
G_GNUC_INTERNAL void psc_cache_counters_notify (PscCache *self, GParamSpec **props, guint first);

/* psc-cache-signals.c: PscCache's signals (pipeline-ready, pipeline-failed,
 * shader-reloaded, evicted). emit takes the core's events of this frame
 * (psc_core_take_events) and emits them; psc_cache_begin_frame calls it
 * after the core's pump, with the cache referenced. */
G_GNUC_INTERNAL void psc_cache_signals_class_init (GObjectClass *object_class);
G_GNUC_INTERNAL void psc_cache_signals_emit (PscCache *self);

/* psc-cache-export.c: the owner side of the D-Bus export. pump applies
 * the controls queued so far (at most PSC_EXPORT_CONTROL_QUEUE) and
 * reports saves, from psc_cache_begin_frame; events feeds a frame's core
 * events to the export (from psc_cache_signals_emit); drop ends the export
 * (psc_cache_close, dispose; any thread but the bus thread). Each does
 * nothing while the cache is not exported. */
G_GNUC_INTERNAL void psc_cache_export_pump (PscCache *self, guint64 frame);
G_GNUC_INTERNAL void psc_cache_export_events (PscCache *self, const PscCoreEvents *batch);
G_GNUC_INTERNAL void psc_cache_export_drop (PscCache *self);

/* psc-error.c: sets @error for a call on a cache that is not open
 * (PSC_ERROR_CLOSED): its initialization failed with @init_error, or it was
 * never initialized (@init_error NULL). */
G_GNUC_INTERNAL void psc_error_set_not_open (GError **error, const GError *init_error);

/* Row (a) of the threads table (see PscCache's documentation): methods with
 * a GError. Programming errors are criticals; a cache that is not open
 * fails with PSC_ERROR_CLOSED; the core checks the owner thread and
 * closing itself (PSC_ERROR_WRONG_THREAD, PSC_ERROR_CLOSED). */
#define PSC_CACHE_CHECK(self, error, val) \
  G_STMT_START { \
    g_return_val_if_fail (PSC_IS_CACHE (self), (val)); \
    g_return_val_if_fail (error == NULL || *error == NULL, (val)); \
    if (G_UNLIKELY ((self)->core == NULL)) \
      { \
        psc_error_set_not_open ((error), (self)->init_error); \
        return (val); \
      } \
  } G_STMT_END

/* A NULL create info is a programming error, but it is also a rejected
 * request, so it is counted before the critical (after PSC_CACHE_CHECK:
 * the core exists). */
#define PSC_CACHE_CHECK_INFO(self, info, val) \
  G_STMT_START { \
    if (G_UNLIKELY ((info) == NULL)) \
      { \
        psc_core_count_rejection ((self)->core, PSC_STATUS_INVALID_ARGUMENT); \
        g_return_val_if_fail (info != NULL, (val)); \
      } \
  } G_STMT_END

/* Row (b): owner-thread methods without a GError. TRUE when the method may
 * run. A cache that is not open, or closed, does nothing (FALSE, silently);
 * a call from another thread is a programming error: a critical naming
 * @func, and FALSE. */
static inline gboolean
psc_cache_enter_owner (PscCache   *self,
                       const char *func)
{
  if (G_UNLIKELY (self->core == NULL))
    return FALSE;
  if (G_UNLIKELY (self->owner != g_thread_self ()))
    {
      g_return_if_fail_warning (G_LOG_DOMAIN, func,
                                "the calling thread is the cache's owner thread");
      return FALSE;
    }
  return !psc_core_is_closed (self->core);
}

/* The owner-thread check of (a) methods that do not go through a core
 * request: the core refuses (and counts) a foreign thread or a closed
 * cache, and @error says which. */
static inline gboolean
psc_cache_check_owner (PscCache  *self,
                       GError   **error)
{
  PscCoreError core_error;

  PSC_CORE_ERROR_INIT (core_error);
  if (psc_core_check_owner (self->core, &core_error) == PSC_STATUS_OK)
    return TRUE;
  psc_error_from_core (error, &core_error);
  return FALSE;
}

/* psc-cache-objects.c: the words of SPIR-V in @spirv for the core, the one
 * rule for both registration and replacement: the bytes themselves when
 * they are word-aligned, else a copy in *owned (free it). *size receives
 * the size in bytes. */
G_GNUC_INTERNAL const guint32 *psc_spirv_words (GBytes   *spirv,
                                               gsize    *size,
                                               guint32 **owned);

/* psc-cache-async.c: completes GTask requests whose GCancellable fired
 * (psc_cache_begin_frame, after the core's pump). */
G_GNUC_INTERNAL void psc_cache_async_pump (PscCache *self);
/* Frees the GTask glue of requests whose waiter was dropped uncalled
 * (psc_core_close_unowned). */
G_GNUC_INTERNAL void psc_cache_async_drop (PscCache *self);

/* psc-cache-recipe.c: a graphics recipe's asynchronous request with a
 * completion callback (the scene prewarm's GI providers). */
G_GNUC_INTERNAL guint64 psc_cache_request_recipe_with_callback (PscCache *self, PscRecipe *recipe,
                                                                PscMissPolicy policy,
                                                                PscRequestFlags flags,
                                                                PscPipelineReadyFn callback,
                                                                void *context,
                                                                PscRequestResult *result,
                                                                GError **error);

/* psc-device.c: the enabled descriptor-indexing features (the 1.2 and the
 * extension structures merged), and a device-level entry point loaded
 * through the application's vkGetInstanceProcAddr (NULL if unavailable). */
void psc_device_get_enabled_descriptor_indexing (PscDevice *self,
                                                 VkPhysicalDeviceDescriptorIndexingFeatures *out);
PFN_vkVoidFunction psc_device_get_device_proc (PscDevice *self, const char *name);
const VkPhysicalDeviceLimits *psc_device_get_limits (PscDevice *self);

G_END_DECLS
