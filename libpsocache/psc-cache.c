/* psc-cache.c: PscCache, the GObject face of the core's object cache.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <stddef.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/**
 * PscCache:
 *
 * A cache of Vulkan pipeline-state objects on one [class@Psc.Device].
 *
 * The cache deduplicates samplers, descriptor-set layouts, pipeline layouts,
 * compatibility render passes and graphics and compute pipelines behind
 * canonical keys, and creates shader modules from SPIR-V. Identical requests
 * return the same handle; the driver is called once per distinct key.
 *
 * ## Ownership and borrowed handles
 *
 * Every handle the cache returns is owned by the cache. Callers borrow it and
 * never destroy it. A borrowed handle stays valid for at least
 * %PSC_BORROW_FRAMES frames after the frame of its last request (see
 * [method@Psc.Cache.begin_frame]), or for as long as it is pinned with
 * [method@Psc.Cache.pin].
 *
 * Requests name other objects (shader modules, layouts, samplers,
 * compatibility render passes) only by handles this cache issued; any other
 * handle is rejected with %PSC_ERROR_FOREIGN_HANDLE and a message naming the
 * field, for example `pSetLayouts[1]`.
 *
 * ## Threads
 *
 * A cache has one owner thread: the thread that called
 * [ctor@Psc.Cache.new] (normally the render thread). Every method that
 * mutates the cache or returns cached objects must be called there; a call
 * from another thread fails with %PSC_ERROR_WRONG_THREAD and changes nothing.
 * Counters ([method@Psc.Cache.get_stats], [method@Psc.Cache.get_counter] and
 * the counter properties) are published with atomics and may be read from
 * any thread. The last reference should be dropped on the owner thread.
 *
 * ## Destruction
 *
 * Finalizing the cache destroys every object it owns. The application must
 * make sure that the GPU no longer uses any of them (for example by waiting
 * for its last submission's fence or timeline value); the cache never calls
 * `vkDeviceWaitIdle`. The cache keeps its [class@Psc.Device] alive.
 *
 * ## Errors
 *
 * Failed requests return a null handle (or 0, or %FALSE) and set a
 * [error@Psc.Error] whose message names the failing field path (for example
 * `pStages[1].pSpecializationInfo->mapEntryCount: 9 > 8`) and, when the
 * driver failed, the `VkResult`. A failed request leaves the cache unchanged
 * except for its counters. Passing %NULL or an object of the wrong type where
 * a cache or a create info is expected is a programming error reported with
 * g_critical(); a %NULL create info is also counted as a rejected request.
 */

#define PSC_ALL_CACHE_FLAGS (PSC_CACHE_FLAGS_PASS_THROUGH)

/* The core's numbering and statistics layout are the public ones. */
G_STATIC_ASSERT ((int) PSC_STATUS_FAILED == (int) PSC_ERROR_FAILED);
G_STATIC_ASSERT ((int) PSC_STATUS_INVALID_ARGUMENT == (int) PSC_ERROR_INVALID_ARGUMENT);
G_STATIC_ASSERT ((int) PSC_STATUS_UNSUPPORTED == (int) PSC_ERROR_UNSUPPORTED);
G_STATIC_ASSERT ((int) PSC_STATUS_FOREIGN_HANDLE == (int) PSC_ERROR_FOREIGN_HANDLE);
G_STATIC_ASSERT ((int) PSC_STATUS_CAPACITY == (int) PSC_ERROR_CAPACITY);
G_STATIC_ASSERT ((int) PSC_STATUS_VULKAN == (int) PSC_ERROR_VULKAN);
G_STATIC_ASSERT ((int) PSC_STATUS_WRONG_THREAD == (int) PSC_ERROR_WRONG_THREAD);
G_STATIC_ASSERT ((int) PSC_STATUS_NO_DEVICE == (int) PSC_ERROR_NO_DEVICE);
G_STATIC_ASSERT ((int) PSC_STATUS_QUEUE_FULL == (int) PSC_ERROR_QUEUE_FULL);
G_STATIC_ASSERT ((int) PSC_STATUS_CLOSED == (int) PSC_ERROR_CLOSED);
G_STATIC_ASSERT ((int) PSC_STATUS_DISCARDED == (int) PSC_ERROR_DISCARDED);
G_STATIC_ASSERT (PSC_STATUS_COUNT == PSC_ERROR_DISCARDED + 1);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_WAIT == (int) PSC_MISS_POLICY_WAIT);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_SKIP == (int) PSC_MISS_POLICY_SKIP);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_FALLBACK == (int) PSC_MISS_POLICY_FALLBACK);
G_STATIC_ASSERT ((int) PSC_CORE_REQUEST_CRITICAL == (int) PSC_REQUEST_FLAGS_CRITICAL);
G_STATIC_ASSERT ((int) PSC_CORE_READY == (int) PSC_REQUEST_RESULT_READY);
G_STATIC_ASSERT ((int) PSC_CORE_PENDING == (int) PSC_REQUEST_RESULT_PENDING);
G_STATIC_ASSERT ((int) PSC_CORE_FALLBACK == (int) PSC_REQUEST_RESULT_FALLBACK);
G_STATIC_ASSERT ((int) PSC_CORE_STALE == (int) PSC_REQUEST_RESULT_STALE);
G_STATIC_ASSERT (PSC_CORE_BORROW_FRAMES == PSC_BORROW_FRAMES);

struct _PscCache
{
  GObject parent_instance;

  PscCore *core;          /* NULL only for an object not made by psc_cache_new() */
  PscDevice *device;
  PscBackend backend;     /* resolved: never PSC_BACKEND_AUTO */
  PscCacheFlags flags;
  GThread *owner;         /* a reference, so the address stays unique */
  GPtrArray *pending;     /* PscAsyncOp awaiting their core callback (psc-cache-async.c) */
  guint evict_idle_frames;
};

G_DEFINE_FINAL_TYPE (PscCache, psc_cache, G_TYPE_OBJECT)

PscCore *
psc_cache_get_core (PscCache *self)
{
  return self->core;
}

GPtrArray *
psc_cache_get_pending (PscCache *self)
{
  return self->pending;
}

gboolean
psc_cache_is_owner_thread (PscCache *self)
{
  return self->owner == g_thread_self ();
}

/**
 * psc_cache_set_eviction_idle_frames:
 * @self: a cache
 * @idle_frames: frames, or 0 to turn automatic eviction off
 *
 * Sets [property@Psc.Cache:eviction-idle-frames]. Owner thread only.
 */
void
psc_cache_set_eviction_idle_frames (PscCache *self,
                                    guint     idle_frames)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  g_return_if_fail (self->core != NULL);
  g_return_if_fail (self->owner == g_thread_self ());

  if (self->evict_idle_frames == idle_frames)
    return;
  self->evict_idle_frames = idle_frames;
  psc_core_set_auto_evict (self->core, idle_frames);
  g_object_notify (G_OBJECT (self), "eviction-idle-frames");
}

/**
 * psc_cache_get_eviction_idle_frames:
 * @self: a cache
 *
 * Returns the automatic-eviction threshold.
 *
 * Returns: [property@Psc.Cache:eviction-idle-frames]
 */
guint
psc_cache_get_eviction_idle_frames (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  return self->evict_idle_frames;
}

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_BACKEND,
  PROP_FLAGS,
  PROP_HITS,
  PROP_MISSES,
  PROP_CREATIONS,
  PROP_CREATION_TIME_NS,
  PROP_ENTRIES,
  PROP_HOST_BYTES,
  PROP_CAPACITY_FAILURES,
  PROP_REJECTED,
  PROP_JOBS_QUEUED,
  PROP_JOBS_IN_FLIGHT,
  PROP_JOBS_COMPLETED,
  PROP_JOBS_FAILED,
  PROP_STALE_DISCARDS,
  PROP_WAITERS_SERVED,
  PROP_OVERFLOW_FALLBACKS,
  PROP_OVERFLOW_SKIPS,
  PROP_EVICTIONS,
  PROP_RETIREMENTS_PENDING,
  PROP_OWNER_WAIT_NS,
  PROP_EVICTION_IDLE_FRAMES,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* The asynchronous counter each PROP_JOBS_QUEUED..PROP_OWNER_WAIT_NS reads. */
static const PscAsyncCounter async_props[] = {
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
  PSC_ASYNC_COUNTER_OWNER_WAIT_NS,
};
G_STATIC_ASSERT (G_N_ELEMENTS (async_props) == PROP_OWNER_WAIT_NS - PROP_JOBS_QUEUED + 1);

/* Argument checks shared by every request. A NULL create info is a
 * programming error, but it is also a rejected request, so it is counted
 * before the critical. */
#define PSC_CACHE_CHECK(self, error, val) \
  G_STMT_START { \
    g_return_val_if_fail (PSC_IS_CACHE (self), (val)); \
    g_return_val_if_fail ((self)->core != NULL, (val)); \
    g_return_val_if_fail (error == NULL || *error == NULL, (val)); \
  } G_STMT_END

#define PSC_CACHE_CHECK_INFO(self, info, val) \
  G_STMT_START { \
    if (G_UNLIKELY ((info) == NULL)) \
      { \
        psc_core_count_rejection ((self)->core, PSC_STATUS_INVALID_ARGUMENT); \
        g_return_val_if_fail (info != NULL, (val)); \
      } \
  } G_STMT_END


static void
psc_cache_finalize (GObject *object)
{
  PscCache *self = PSC_CACHE (object);

  if (self->owner != NULL && self->owner != g_thread_self ())
    g_warning ("PscCache %p finalized outside its owner thread; the last "
               "reference must be dropped on the thread that created it", self);

  /* The core first: its objects must die before a headless device does.
   * Freeing it completes every outstanding waiter (VK_INCOMPLETE). */
  psc_core_free (self->core);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->device);
  g_clear_pointer (&self->owner, g_thread_unref);

  G_OBJECT_CLASS (psc_cache_parent_class)->finalize (object);
}

static void
psc_cache_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  PscCache *self = PSC_CACHE (object);
  PscStats stats;

  switch (prop_id)
    {
    case PROP_DEVICE:
      g_value_set_object (value, self->device);
      return;
    case PROP_BACKEND:
      g_value_set_enum (value, self->backend);
      return;
    case PROP_FLAGS:
      g_value_set_flags (value, self->flags);
      return;
    case PROP_EVICTION_IDLE_FRAMES:
      g_value_set_uint (value, self->evict_idle_frames);
      return;
    default:
      break;
    }

  psc_stats_read (&stats, self->core);
  switch (prop_id)
    {
    case PROP_HITS:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_HITS));
      break;
    case PROP_MISSES:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_MISSES));
      break;
    case PROP_CREATIONS:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_CREATIONS));
      break;
    case PROP_CREATION_TIME_NS:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_CREATION_NS));
      break;
    case PROP_ENTRIES:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_ENTRIES));
      break;
    case PROP_HOST_BYTES:
      g_value_set_uint64 (value, psc_stats_get_total (&stats, PSC_COUNTER_HOST_BYTES));
      break;
    case PROP_CAPACITY_FAILURES:
      g_value_set_uint64 (value, psc_stats_get_capacity_failures (&stats));
      break;
    case PROP_REJECTED:
      g_value_set_uint64 (value, psc_stats_get_rejected_total (&stats));
      break;
    default:
      if (prop_id >= PROP_JOBS_QUEUED && prop_id <= PROP_OWNER_WAIT_NS)
        g_value_set_uint64 (value, psc_stats_get_async (&stats, async_props[prop_id - PROP_JOBS_QUEUED]));
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
psc_cache_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  PscCache *self = PSC_CACHE (object);

  switch (prop_id)
    {
    case PROP_EVICTION_IDLE_FRAMES:
      psc_cache_set_eviction_idle_frames (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
psc_counter_pspec (const char *name)
{
  return g_param_spec_uint64 (name, NULL, NULL, 0, G_MAXUINT64, 0,
                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static void
psc_cache_class_init (PscCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  psc_i18n_init ();

  object_class->finalize = psc_cache_finalize;
  object_class->get_property = psc_cache_get_property;
  object_class->set_property = psc_cache_set_property;

  /**
   * PscCache:device:
   *
   * The device the cache creates its objects on.
   */
  props[PROP_DEVICE] =
    g_param_spec_object ("device", NULL, NULL, PSC_TYPE_DEVICE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscCache:backend:
   *
   * The rendering backend graphics requests use. Never
   * %PSC_BACKEND_AUTO: that is resolved when the cache is created.
   */
  props[PROP_BACKEND] =
    g_param_spec_enum ("backend", NULL, NULL, PSC_TYPE_BACKEND, PSC_BACKEND_LEGACY,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscCache:flags:
   *
   * The flags the cache was created with.
   */
  props[PROP_FLAGS] =
    g_param_spec_flags ("flags", NULL, NULL, PSC_TYPE_CACHE_FLAGS, PSC_CACHE_FLAGS_NONE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * PscCache:hits:
   *
   * Requests answered with an existing object, over all kinds. Like every
   * counter property it is read from the counters on demand (from any
   * thread) and never notified.
   */
  props[PROP_HITS] = psc_counter_pspec ("hits");

  /**
   * PscCache:misses:
   *
   * Requests that found no existing object, over all kinds. Read on demand,
   * never notified.
   */
  props[PROP_MISSES] = psc_counter_pspec ("misses");

  /**
   * PscCache:creations:
   *
   * Objects created through the driver, over all kinds. Read on demand,
   * never notified.
   */
  props[PROP_CREATIONS] = psc_counter_pspec ("creations");

  /**
   * PscCache:creation-time-ns:
   *
   * Nanoseconds spent in the driver creating objects, over all kinds. Read
   * on demand, never notified.
   */
  props[PROP_CREATION_TIME_NS] = psc_counter_pspec ("creation-time-ns");

  /**
   * PscCache:entries:
   *
   * Objects the cache holds now, over all kinds. Read on demand, never
   * notified.
   */
  props[PROP_ENTRIES] = psc_counter_pspec ("entries");

  /**
   * PscCache:host-bytes:
   *
   * Host memory held for keys and entries, over all kinds, in bytes. Read
   * on demand, never notified.
   */
  props[PROP_HOST_BYTES] = psc_counter_pspec ("host-bytes");

  /**
   * PscCache:capacity-failures:
   *
   * Requests refused because a collision bucket was full. Read on demand,
   * never notified.
   */
  props[PROP_CAPACITY_FAILURES] = psc_counter_pspec ("capacity-failures");

  /**
   * PscCache:rejected:
   *
   * Failed requests, over all reasons; [method@Psc.Cache.get_stats] gives
   * them per [error@Psc.Error] code. Read on demand, never notified.
   */
  props[PROP_REJECTED] = psc_counter_pspec ("rejected");

  /**
   * PscCache:jobs-queued:
   *
   * Compile jobs waiting for a worker now. Read on demand, never notified.
   */
  props[PROP_JOBS_QUEUED] = psc_counter_pspec ("jobs-queued");

  /**
   * PscCache:jobs-in-flight:
   *
   * Compile jobs a worker is compiling now. Read on demand, never notified.
   */
  props[PROP_JOBS_IN_FLIGHT] = psc_counter_pspec ("jobs-in-flight");

  /**
   * PscCache:jobs-completed:
   *
   * Asynchronous compiles published as Ready. Read on demand, never notified.
   */
  props[PROP_JOBS_COMPLETED] = psc_counter_pspec ("jobs-completed");

  /**
   * PscCache:jobs-failed:
   *
   * Compiles the driver refused. Read on demand, never notified.
   */
  props[PROP_JOBS_FAILED] = psc_counter_pspec ("jobs-failed");

  /**
   * PscCache:stale-discards:
   *
   * Worker results discarded because their request was superseded. Read on
   * demand, never notified.
   */
  props[PROP_STALE_DISCARDS] = psc_counter_pspec ("stale-discards");

  /**
   * PscCache:waiters-served:
   *
   * Completion callbacks called. Read on demand, never notified.
   */
  props[PROP_WAITERS_SERVED] = psc_counter_pspec ("waiters-served");

  /**
   * PscCache:overflow-fallbacks:
   *
   * Critical requests created synchronously because a queue was full. Read
   * on demand, never notified.
   */
  props[PROP_OVERFLOW_FALLBACKS] = psc_counter_pspec ("overflow-fallbacks");

  /**
   * PscCache:overflow-skips:
   *
   * Non-critical requests refused because a queue was full. Read on demand,
   * never notified.
   */
  props[PROP_OVERFLOW_SKIPS] = psc_counter_pspec ("overflow-skips");

  /**
   * PscCache:evictions:
   *
   * Idle pipelines evicted. Read on demand, never notified.
   */
  props[PROP_EVICTIONS] = psc_counter_pspec ("evictions");

  /**
   * PscCache:retirements-pending:
   *
   * Retired handles waiting for the GPU timeline. Read on demand, never
   * notified.
   */
  props[PROP_RETIREMENTS_PENDING] = psc_counter_pspec ("retirements-pending");

  /**
   * PscCache:owner-wait-ns:
   *
   * Nanoseconds the owner thread spent creating pipelines synchronously.
   * Read on demand, never notified.
   */
  props[PROP_OWNER_WAIT_NS] = psc_counter_pspec ("owner-wait-ns");

  /**
   * PscCache:eviction-idle-frames:
   *
   * When non-zero, [method@Psc.Cache.begin_frame] evicts Ready, unpinned
   * pipelines not requested for more than this many frames (never fewer
   * than %PSC_BORROW_FRAMES). 0 (the default) turns automatic eviction off.
   */
  props[PROP_EVICTION_IDLE_FRAMES] =
    g_param_spec_uint ("eviction-idle-frames", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
psc_cache_init (PscCache *self)
{
  self->backend = PSC_BACKEND_LEGACY;
}

/**
 * psc_cache_new:
 * @device: the device to create objects on
 * @backend: how graphics requests describe their rendering;
 *   %PSC_BACKEND_AUTO picks dynamic rendering when @device enabled it and the
 *   legacy backend otherwise
 * @flags: flags
 * @error: return location for a #GError
 *
 * Creates a cache on @device. The calling thread becomes the cache's owner
 * thread (see the threading contract in [class@Psc.Cache]).
 *
 * Returns: (transfer full): a new cache, or %NULL with @error set:
 *   %PSC_ERROR_UNSUPPORTED when @backend is %PSC_BACKEND_DYNAMIC_RENDERING
 *   but @device was created without dynamic rendering enabled
 */
PscCache *
psc_cache_new (PscDevice      *device,
               PscBackend      backend,
               PscCacheFlags   flags,
               GError        **error)
{
  return psc_cache_new_full (device, backend, flags, NULL, error);
}

/**
 * psc_cache_new_full:
 * @device: the device to create objects on
 * @backend: how graphics requests describe their rendering (see
 *   [ctor@Psc.Cache.new])
 * @flags: flags
 * @options: (nullable): asynchronous-compilation options, or %NULL for the
 *   defaults
 * @error: return location for a #GError
 *
 * Like [ctor@Psc.Cache.new], with the sizes of the asynchronous machinery:
 * worker threads and the bounded job and waiter queues. Workers start with
 * the first asynchronous request. When workers compile, the application's
 * `VkAllocationCallbacks` (if any) are called from them too, so they must be
 * thread-safe.
 *
 * Returns: (transfer full): a new cache, or %NULL with @error set
 */
PscCache *
psc_cache_new_full (PscDevice              *device,
                    PscBackend              backend,
                    PscCacheFlags           flags,
                    const PscCacheOptions  *options,
                    GError                **error)
{
  return psc_cache_new_internal (device, backend, flags, options, NULL, error);
}

PscCache *
psc_cache_new_internal (PscDevice               *device,
                        PscBackend               backend,
                        PscCacheFlags            flags,
                        const PscCacheOptions   *options,
                        const PscCoreTestHooks  *hooks,
                        GError                 **error)
{
  g_autoptr(PscCache) self = NULL;
  PscCoreConfig cfg;
  PscCoreError core_error;
  PscStatus status;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (backend == PSC_BACKEND_AUTO ||
                        backend == PSC_BACKEND_DYNAMIC_RENDERING ||
                        backend == PSC_BACKEND_LEGACY, NULL);
  g_return_val_if_fail ((flags & ~PSC_ALL_CACHE_FLAGS) == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (backend == PSC_BACKEND_AUTO)
    {
      backend = psc_device_get_dynamic_rendering (device)
              ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY;
    }
  else if (backend == PSC_BACKEND_DYNAMIC_RENDERING &&
           !psc_device_get_dynamic_rendering (device))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("backend: the dynamic-rendering backend needs a device created "
                     "with dynamic rendering enabled; %s was not"),
                   psc_device_get_name (device));
      return NULL;
    }

  memset (&cfg, 0, sizeof cfg);
  psc_device_fill_core_config (device, &cfg);
  cfg.rendering = backend == PSC_BACKEND_DYNAMIC_RENDERING
                ? PSC_RENDERING_DYNAMIC : PSC_RENDERING_LEGACY;
  cfg.pass_through = (flags & PSC_CACHE_FLAGS_PASS_THROUGH) != 0;
  if (options != NULL)
    {
      cfg.workers = options->workers;
      cfg.job_capacity = options->job_capacity;
      cfg.waiter_capacity = options->waiter_capacity;
      cfg.publish_budget_us = options->publish_budget_us;
    }
  if (hooks != NULL)
    cfg.hooks = *hooks;

  self = g_object_new (PSC_TYPE_CACHE, NULL);
  self->device = g_object_ref (device);
  self->backend = backend;
  self->flags = flags;
  self->owner = g_thread_ref (g_thread_self ());
  self->pending = g_ptr_array_new ();

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_new (&cfg, &self->core, &core_error);
  if (status != PSC_STATUS_OK)
    {
      self->core = NULL;
      psc_cache_fail (error, status, &core_error);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * psc_cache_get_device:
 * @self: a cache
 *
 * Returns the device the cache works on.
 *
 * Returns: (transfer none): the device
 */
PscDevice *
psc_cache_get_device (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);
  return self->device;
}

/**
 * psc_cache_get_backend:
 * @self: a cache
 *
 * Returns the rendering backend graphics requests must use.
 *
 * Returns: %PSC_BACKEND_DYNAMIC_RENDERING or %PSC_BACKEND_LEGACY
 */
PscBackend
psc_cache_get_backend (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), PSC_BACKEND_LEGACY);
  return self->backend;
}

/**
 * psc_cache_get_flags:
 * @self: a cache
 *
 * Returns the flags the cache was created with.
 *
 * Returns: the flags
 */
PscCacheFlags
psc_cache_get_flags (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), PSC_CACHE_FLAGS_NONE);
  return self->flags;
}

/**
 * psc_cache_begin_frame:
 * @self: a cache
 * @frame: the number of the frame that begins; increases by one per frame
 * @completed_timeline_value: the latest GPU timeline value the application
 *   knows to be complete
 *
 * The cache's pump, called once per frame on the owner thread before the
 * frame's requests. It publishes finished asynchronous compiles (within the
 * time budget of [struct@Psc.CacheOptions], at least one per frame; the rest
 * stay counted in `PscAsyncStats.unpublished` for the next frame), calls their
 * waiters ([callback@Psc.PipelineReadyFn], #GTask callbacks of
 * [method@Psc.Cache.get_graphics_pipeline_async]) and completes cancelled
 * tasks, advances the borrowed-handle window (see %PSC_BORROW_FRAMES),
 * destroys retired handles whose timeline value the GPU has passed, and
 * evicts idle pipelines when [property@Psc.Cache:eviction-idle-frames] is set.
 *
 * Timeline contract: frame numbers are timeline values. The work recorded
 * after `begin_frame (cache, N, ...)` must signal a value of at least N when
 * the GPU completes it, and @completed_timeline_value is the highest value
 * known complete. A handle retired (evicted, superseded by a hot reload) is
 * destroyed only once @completed_timeline_value reaches both the frame it
 * was retired in and its last request's frame plus %PSC_BORROW_FRAMES.
 *
 * Calling it from another thread is a programming error reported with
 * g_critical(); the call is then ignored.
 */
void
psc_cache_begin_frame (PscCache *self,
                       guint64   frame,
                       guint64   completed_timeline_value)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  g_return_if_fail (self->core != NULL);
  g_return_if_fail (self->owner == g_thread_self ());

  psc_core_begin_frame (self->core, frame, completed_timeline_value);
  psc_cache_async_pump (self);
}

/**
 * psc_cache_register_shader: (skip)
 * @self: a cache
 * @code: SPIR-V words
 * @code_size: the size of @code in bytes, a multiple of 4
 * @error: return location for a #GError
 *
 * Registers SPIR-V and returns the cache's `VkShaderModule` for it. The
 * module's identity is its content: registering the same SPIR-V again returns
 * the same module and takes another reference. The module is owned by the
 * cache; balance each registration with one
 * [method@Psc.Cache.release_shader] when the application no longer requests
 * objects with it.
 *
 * Returns: the module, or `VK_NULL_HANDLE` with @error set
 */
VkShaderModule
psc_cache_register_shader (PscCache      *self,
                           const guint32 *code,
                           gsize          code_size,
                           GError       **error)
{
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  uint32_t id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, code, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_register_shader (self->core, code, code_size, &module, &id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return module;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_register_shader_bytes:
 * @self: a cache
 * @spirv: SPIR-V code
 * @error: return location for a #GError
 *
 * Registers SPIR-V like [method@Psc.Cache.register_shader], for bindings:
 * returns the module's id instead of its handle. Ids are never 0 and are not
 * reused while the module lives.
 *
 * Returns: the shader id, or 0 with @error set
 */
guint
psc_cache_register_shader_bytes (PscCache  *self,
                                 GBytes    *spirv,
                                 GError   **error)
{
  static const guint32 empty = 0;
  g_autofree guint32 *aligned = NULL;
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  const guint32 *code;
  const void *data;
  uint32_t id = 0;
  PscStatus status;
  gsize size = 0;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, spirv, 0);

  /* Empty bytes have no data pointer; the core then reports the size. */
  data = g_bytes_get_data (spirv, &size);
  if (data == NULL)
    {
      code = &empty;
    }
  else if (((guintptr) data % G_ALIGNOF (guint32)) != 0)
    {
      /* Bytes from a binding need not be word-aligned; the core reads words. */
      aligned = g_malloc (size);
      memcpy (aligned, data, size);
      code = aligned;
    }
  else
    {
      code = data;
    }

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_register_shader (self->core, code, size, &module, &id, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return 0;
    }
  return id;
}

/**
 * psc_cache_release_shader: (skip)
 * @self: a cache
 * @module: a module from [method@Psc.Cache.register_shader]
 * @error: return location for a #GError
 *
 * Drops one registration of a shader module. When the last one is dropped
 * the module is destroyed and its id dies with it: pipelines already created
 * from it stay valid and cached, but requests naming the handle fail with
 * %PSC_ERROR_FOREIGN_HANDLE (even if the driver later reuses the handle
 * value).
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
psc_cache_release_shader (PscCache        *self,
                          VkShaderModule   module,
                          GError         **error)
{
  PscCoreError core_error;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, FALSE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_release_shader (self->core, module, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_release_shader_id:
 * @self: a cache
 * @shader_id: an id from [method@Psc.Cache.register_shader_bytes]
 * @error: return location for a #GError
 *
 * Releases a shader module by id, like [method@Psc.Cache.release_shader].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
psc_cache_release_shader_id (PscCache  *self,
                             guint      shader_id,
                             GError   **error)
{
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, FALSE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_shader_module_for_id (self->core, shader_id, &module, &core_error);
  if (status == PSC_STATUS_OK)
    status = psc_core_release_shader (self->core, module, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_get_shader_id: (skip)
 * @self: a cache
 * @module: a shader module
 *
 * Returns the id of a module this cache issued.
 *
 * Returns: the id, or 0 if @module was not issued by this cache (or was
 *   released), or when called outside the owner thread
 */
guint
psc_cache_get_shader_id (PscCache       *self,
                         VkShaderModule  module)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  g_return_val_if_fail (self->core != NULL, 0);

  return psc_core_shader_id (self->core, module);
}

/**
 * psc_cache_get_sampler: (skip)
 * @self: a cache
 * @info: the sampler to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's sampler for @info, creating it on the first request.
 *
 * Returns: a borrowed sampler, or `VK_NULL_HANDLE` with @error set
 */
VkSampler
psc_cache_get_sampler (PscCache                   *self,
                       const VkSamplerCreateInfo  *info,
                       GError                    **error)
{
  PscCoreError core_error;
  VkSampler out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_sampler (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_descriptor_set_layout: (skip)
 * @self: a cache
 * @info: the layout to get or create; immutable samplers must be
 *   cache-issued
 * @error: return location for a #GError
 *
 * Returns the cache's descriptor-set layout for @info, creating it on the
 * first request. The key covers the create flags and the bindings sorted by
 * binding number, so binding order in @info does not matter.
 *
 * Returns: a borrowed layout, or `VK_NULL_HANDLE` with @error set
 */
VkDescriptorSetLayout
psc_cache_get_descriptor_set_layout (PscCache                               *self,
                                     const VkDescriptorSetLayoutCreateInfo  *info,
                                     GError                                **error)
{
  PscCoreError core_error;
  VkDescriptorSetLayout out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_set_layout (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_pipeline_layout: (skip)
 * @self: a cache
 * @info: the layout to get or create; its set layouts must be cache-issued
 * @error: return location for a #GError
 *
 * Returns the cache's pipeline layout for @info, creating it on the first
 * request.
 *
 * Returns: a borrowed layout, or `VK_NULL_HANDLE` with @error set
 */
VkPipelineLayout
psc_cache_get_pipeline_layout (PscCache                          *self,
                               const VkPipelineLayoutCreateInfo  *info,
                               GError                           **error)
{
  PscCoreError core_error;
  VkPipelineLayout out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_pipeline_layout (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_compat_render_pass: (skip)
 * @self: a cache
 * @info: the application's execution render pass description
 * @error: return location for a #GError
 *
 * On the legacy backend, returns the cache's compatibility render pass for
 * an execution pass described by @info: a pass compatible with it under
 * Vulkan's render-pass compatibility rules (load/store operations and
 * layouts do not matter). Graphics requests name this pass.
 *
 * A compatibility pass exists only to create pipelines: it must never be
 * begun with `vkCmdBeginRenderPass`. Begin the application's own pass.
 *
 * Returns: a borrowed render pass, or `VK_NULL_HANDLE` with @error set
 */
VkRenderPass
psc_cache_get_compat_render_pass (PscCache                      *self,
                                  const VkRenderPassCreateInfo  *info,
                                  GError                       **error)
{
  PscCoreError core_error;
  VkRenderPass out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_render_pass (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_is_compat_render_pass: (skip)
 * @self: a cache
 * @pass: a render pass
 *
 * Tells whether @pass is a compatibility render pass this cache issued, for
 * example to assert that the application never begins one.
 *
 * Returns: %TRUE if @pass is one of the cache's compatibility passes
 */
gboolean
psc_cache_is_compat_render_pass (PscCache     *self,
                                 VkRenderPass  pass)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), FALSE);
  g_return_val_if_fail (self->core != NULL, FALSE);

  return psc_core_is_compat_render_pass (self->core, pass);
}

/**
 * psc_cache_get_graphics_pipeline: (skip)
 * @self: a cache
 * @info: the pipeline to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's graphics pipeline for @info, creating it on the first
 * request. Viewport and scissor must be dynamic states. On the
 * dynamic-rendering backend @info chains `VkPipelineRenderingCreateInfo`; on
 * the legacy backend its `renderPass` is a pass from
 * [method@Psc.Cache.get_compat_render_pass]. Shader modules and the layout
 * must be cache-issued.
 *
 * A hit allocates nothing. When the same create info is requested every
 * frame, [method@Psc.Cache.prepare_graphics_pipeline] saves canonicalizing it
 * each time.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 */
VkPipeline
psc_cache_get_graphics_pipeline (PscCache                            *self,
                                 const VkGraphicsPipelineCreateInfo  *info,
                                 GError                             **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_graphics (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_compute_pipeline: (skip)
 * @self: a cache
 * @info: the pipeline to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's compute pipeline for @info, creating it on the first
 * request. The shader module and the layout must be cache-issued.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 */
VkPipeline
psc_cache_get_compute_pipeline (PscCache                           *self,
                                const VkComputePipelineCreateInfo  *info,
                                GError                            **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_compute (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_graphics_key_size: (skip)
 * @self: a cache
 * @info: a graphics pipeline create info, as for
 *   [method@Psc.Cache.get_graphics_pipeline]
 * @error: return location for a #GError
 *
 * Validates and canonicalizes @info like a request, without looking it up or
 * creating anything, and returns the size of its canonical key: the bytes
 * that are hashed, stored and compared. For diagnostics and benchmarks.
 * A rejected @info is counted like a rejected request.
 *
 * Returns: the key size in bytes, or 0 with @error set
 */
gsize
psc_cache_get_graphics_key_size (PscCache                            *self,
                                 const VkGraphicsPipelineCreateInfo  *info,
                                 GError                             **error)
{
  PscCoreError core_error;
  size_t size = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_graphics_key_size (self->core, info, &size, &core_error);
  if (status == PSC_STATUS_OK)
    return size;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_prepare_graphics_pipeline: (skip)
 * @self: a cache
 * @info: a graphics pipeline create info, as for
 *   [method@Psc.Cache.get_graphics_pipeline]
 * @error: return location for a #GError
 *
 * Validates and canonicalizes @info once and returns a small key id for it.
 * [method@Psc.Cache.get_prepared_pipeline] then gets the pipeline from the id
 * without reading a create info. Preparing does not create the pipeline.
 * Preparing an equal create info again returns the same id.
 *
 * Returns: a key id (never 0), or 0 with @error set
 */
guint32
psc_cache_prepare_graphics_pipeline (PscCache                            *self,
                                     const VkGraphicsPipelineCreateInfo  *info,
                                     GError                             **error)
{
  PscCoreError core_error;
  uint32_t key_id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_prepare_graphics (self->core, info, &key_id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return key_id;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_prepare_compute_pipeline: (skip)
 * @self: a cache
 * @info: a compute pipeline create info, as for
 *   [method@Psc.Cache.get_compute_pipeline]
 * @error: return location for a #GError
 *
 * Like [method@Psc.Cache.prepare_graphics_pipeline], for compute pipelines.
 *
 * Returns: a key id (never 0), or 0 with @error set
 */
guint32
psc_cache_prepare_compute_pipeline (PscCache                           *self,
                                    const VkComputePipelineCreateInfo  *info,
                                    GError                            **error)
{
  PscCoreError core_error;
  uint32_t key_id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_prepare_compute (self->core, info, &key_id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return key_id;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_get_prepared_pipeline: (skip)
 * @self: a cache
 * @key_id: an id from [method@Psc.Cache.prepare_graphics_pipeline] or
 *   [method@Psc.Cache.prepare_compute_pipeline]
 * @error: return location for a #GError
 *
 * Returns the pipeline for a prepared key, creating it on the first request.
 * This is the cheapest way to request a pipeline every frame.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT for an unknown id)
 */
VkPipeline
psc_cache_get_prepared_pipeline (PscCache  *self,
                                 guint32    key_id,
                                 GError   **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_prepared (self->core, key_id, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

static gboolean
psc_cache_pin_delta (PscCache      *self,
                     VkObjectType   type,
                     guint64        handle,
                     int            delta,
                     GError       **error)
{
  PscCoreError core_error;
  PscStatus status;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_pin (self->core, type, handle, delta, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_pin: (skip)
 * @self: a cache
 * @type: the handle's object type, e.g. `VK_OBJECT_TYPE_PIPELINE`
 * @handle: a handle this cache issued, cast to 64 bits
 * @error: return location for a #GError
 *
 * Pins a borrowed handle the application holds without requesting it every
 * frame: it stays valid until as many [method@Psc.Cache.unpin] calls were
 * made, and then for %PSC_BORROW_FRAMES more frames.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *   (%PSC_ERROR_FOREIGN_HANDLE if the cache did not issue @handle)
 */
gboolean
psc_cache_pin (PscCache      *self,
               VkObjectType   type,
               guint64        handle,
               GError       **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  return psc_cache_pin_delta (self, type, handle, +1, error);
}

/**
 * psc_cache_unpin: (skip)
 * @self: a cache
 * @type: the handle's object type
 * @handle: a handle pinned with [method@Psc.Cache.pin]
 * @error: return location for a #GError
 *
 * Undoes one [method@Psc.Cache.pin].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
psc_cache_unpin (PscCache      *self,
                 VkObjectType   type,
                 guint64        handle,
                 GError       **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  return psc_cache_pin_delta (self, type, handle, -1, error);
}

/**
 * psc_cache_get_stats:
 * @self: a cache
 *
 * Takes a snapshot of the cache's counters. Any thread may call it: the
 * counters are published with atomics and read one by one, so a snapshot
 * taken while the owner thread works may mix values from two instants
 * (except that a compile job is counted in at most one of the queued,
 * in-flight and unpublished gauges). The snapshot never changes afterwards.
 * A cache that was never initialized (or is closed) still answers: with
 * zeros (or the counters at close).
 *
 * Returns: (transfer full): a new snapshot
 *
 * Since: 0.1
 */
PscStats *
psc_cache_get_stats (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);

  return psc_stats_new_snapshot (self->core);
}

/**
 * psc_cache_get_counter:
 * @self: a cache
 * @kind: an object kind
 * @counter: a counter
 *
 * Reads one counter of one object kind, like
 * [method@Psc.Stats.get_counter] on a new snapshot but without allocating
 * one. Any thread may call it.
 *
 * Returns: the counter's value; 0 (and a critical) for a kind or counter
 *   this version of the library does not know
 *
 * Since: 0.1
 */
guint64
psc_cache_get_counter (PscCache      *self,
                       PscObjectKind  kind,
                       PscCounter     counter)
{
  PscStats stats;

  g_return_val_if_fail (PSC_IS_CACHE (self), 0);

  psc_stats_read (&stats, self->core);
  return psc_stats_get_counter (&stats, kind, counter);
}
