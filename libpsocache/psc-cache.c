/* psc-cache.c: PscCache, the GObject face of the core's object cache:
 * construction (GInitable and construct-only properties), the threads
 * policy, the pump, close and the counters. The requests live in
 * psc-cache-objects.c and psc-cache-async.c.
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
 * ## Construction
 *
 * A cache implements [iface@Gio.Initable]: construction can fail (for
 * example %PSC_ERROR_UNSUPPORTED when the dynamic-rendering backend is
 * asked of a device without it), and it fails with a #GError, never with a
 * half-made object. In C use [ctor@Psc.Cache.new] or
 * [ctor@Psc.Cache.new_full], or `g_initable_new (PSC_TYPE_CACHE, NULL,
 * &error, "device", device, "workers", 2, NULL)` with the construct-only
 * properties ([property@Psc.Cache:device] is required). The thread that
 * initializes the cache becomes its owner thread.
 *
 * A cache made with g_object_new() is not usable until g_initable_init()
 * succeeded on it. Until then, and for good after a failed initialization,
 * the cache is *not open*: every method with a #GError fails with
 * %PSC_ERROR_CLOSED (its message says why: never initialized, or the
 * initialization's own error), the others do nothing, the getters answer
 * (the counters are zero), and none of them emits a critical.
 *
 * From Python, `Psc.Cache.new (device, backend, flags)` raises on failure.
 * PyGObject (3.42) does not call g_initable_init() on `Psc.Cache (...)`;
 * the `Psc` override installed with the typelib does, so `Psc.Cache
 * (device=device, workers=2)` constructs and initializes, and `Psc.Cache ()`
 * raises `GLib.Error` (%PSC_ERROR_INVALID_ARGUMENT: no device).
 *
 * ## Persistence
 *
 * With an application id ([property@Psc.Cache:application-id]) or a
 * directory ([property@Psc.Cache:cache-directory]) the cache keeps the
 * driver's pipeline-cache data on disk: it is read and validated when the
 * cache is created, and saved at close, on request ([method@Psc.Cache.save])
 * and at most every [property@Psc.Cache:save-interval] seconds from
 * [method@Psc.Cache.begin_frame]. A missing, damaged or foreign file only
 * means a cold start (counted, see [enum@Psc.FileRejection]); a failed save
 * is counted and leaves the previous file intact. The user can turn it off
 * with `PSOCACHE_DISABLE=1`. The persistence page of the documentation
 * (docs/persistence.md) has the rules.
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
 * A cache has one owner thread: the thread that initialized it (normally
 * the render thread). Every method follows one of three rules:
 *
 * - (a) owner thread only, with a #GError: from another thread the call
 *   fails with %PSC_ERROR_WRONG_THREAD (counted as a rejected request) and
 *   changes nothing;
 * - (b) owner thread only, without a #GError: from another thread the call
 *   is a programming error, reported with g_critical(); it changes nothing
 *   and returns 0, %FALSE or nothing;
 * - (c) any thread: safe to call concurrently with the owner thread.
 *
 * | method | rule |
 * | --- | --- |
 * | [ctor@Psc.Cache.new], [ctor@Psc.Cache.new_full], g_initable_new(), g_initable_init() | any thread; it becomes the owner |
 * | [method@Psc.Cache.register_shader], [method@Psc.Cache.register_shader_bytes] | (a) |
 * | [method@Psc.Cache.register_shader_source] (its [callback@Psc.CompileFn] runs on the owner thread, inside the call) | (a) |
 * | [method@Psc.Cache.release_shader], [method@Psc.Cache.release_shader_id] | (a) |
 * | [method@Psc.Cache.replace_shader], [method@Psc.Cache.replace_shader_bytes] | (a) |
 * | [method@Psc.Cache.get_sampler], [method@Psc.Cache.get_descriptor_set_layout] | (a) |
 * | [method@Psc.Cache.get_pipeline_layout], [method@Psc.Cache.get_compat_render_pass] | (a) |
 * | [method@Psc.Cache.get_graphics_pipeline], [method@Psc.Cache.get_compute_pipeline] | (a) |
 * | [method@Psc.Cache.get_graphics_key_size], [method@Psc.Cache.get_graphics_key_hash], [method@Psc.Cache.get_compute_key_hash] | (a) |
 * | [method@Psc.Cache.prepare_graphics_pipeline], [method@Psc.Cache.prepare_compute_pipeline] | (a) |
 * | [method@Psc.Cache.get_prepared_pipeline] | (a) |
 * | [method@Psc.Cache.request_graphics_pipeline], [method@Psc.Cache.request_compute_pipeline], [method@Psc.Cache.request_prepared_pipeline] | (a) |
 * | [method@Psc.Cache.get_graphics_pipeline_async], [method@Psc.Cache.get_compute_pipeline_async] | (a), the task fails |
 * | [method@Psc.Cache.set_fallback], [method@Psc.Cache.pin], [method@Psc.Cache.unpin] | (a) |
 * | [method@Psc.Cache.save], [method@Psc.Cache.save_to_bytes], [method@Psc.Cache.load_bytes] | (a) |
 * | [method@Psc.Cache.prewarm], [method@Psc.Cache.verify_warm] | (a) |
 * | the recipe methods ([method@Psc.Cache.get_pipeline_for_recipe], [method@Psc.Cache.request_recipe] and the others the Threads page lists), [method@Psc.Cache.pin_object], [method@Psc.Cache.unpin_object], [method@Psc.Cache.set_fallback_pipeline] | (a) |
 * | [method@Psc.Cache.export] | (a) |
 * | [method@Psc.Cache.begin_frame], [method@Psc.Cache.close] | (b) |
 * | [method@Psc.Cache.clear_failures], [method@Psc.Cache.evict] | (b) |
 * | [method@Psc.Cache.unexport] | (b) |
 * | [method@Psc.Cache.set_eviction_idle_frames], setting [property@Psc.Cache:eviction-idle-frames] | (b) |
 * | [method@Psc.Cache.get_shader_id], [method@Psc.Cache.is_compat_render_pass], [method@Psc.Cache.get_prewarm_done] | (b) |
 * | [method@Psc.Cache.get_export_object_path], [method@Psc.Cache.get_export_bus_name] | owner thread (not checked) |
 * | dropping the last reference | owner thread (see Destruction) |
 * | [method@Psc.Cache.get_device], [method@Psc.Cache.get_backend], [method@Psc.Cache.get_flags] | (c) |
 * | [method@Psc.Cache.get_application_id], [method@Psc.Cache.get_cache_directory] | (c) |
 * | [method@Psc.Cache.get_eviction_idle_frames], reading any property | (c) |
 * | [method@Psc.Cache.get_stats], [method@Psc.Cache.get_counter] | (c) |
 * | [method@Psc.Cache.get_graphics_pipeline_finish], [method@Psc.Cache.get_compute_pipeline_finish], [method@Psc.Cache.get_pipeline_for_recipe_finish] | (c); they read only the result |
 * | the D-Bus export's bus thread (method calls, properties, its signals) | the library's own thread: it reads only the counters; controls are applied by the owner thread at [method@Psc.Cache.begin_frame] (see the [D-Bus](dbus.html) page) |
 *
 * Counters are published with atomics, so reading them (c) never touches
 * the owner thread's state. Callbacks ([callback@Psc.PipelineReadyFn],
 * #GTask callbacks) and signals run on the owner thread. A cache that is
 * closed or not open fails every (a) call with %PSC_ERROR_CLOSED and
 * ignores (b) calls (with the critical still, from a foreign thread). The
 * [Threads](threading.html) page has the whole picture: the pump, the
 * workers, and where every callback and signal runs.
 *
 * ## Signals and notifications
 *
 * The cache's signals, [signal@Psc.Cache::pipeline-ready],
 * [signal@Psc.Cache::pipeline-failed], [signal@Psc.Cache::shader-reloaded]
 * and [signal@Psc.Cache::evicted], and the `notify` signals of its counter
 * properties ([property@Psc.Cache:hits], ...,
 * [property@Psc.Cache:persistence-saves], ...) are all emitted by
 * [method@Psc.Cache.begin_frame] on the owner thread, after the core's
 * pump, so the main context they run in is the owner thread's (whatever
 * thread-default main context it has: they are emitted directly, never
 * through a main loop). Nothing is emitted from a worker thread, from
 * inside the pump, or from any other method: what happens outside the
 * pump ([method@Psc.Cache.replace_shader_bytes], [method@Psc.Cache.evict],
 * requests that change counters) is announced by the next begin_frame.
 * A handler may call back into the cache (make requests, evict, reload,
 * drop references, close); what it causes is announced by the next
 * begin_frame.
 *
 * A counter property is notified when its value differs from the one the
 * previous begin_frame saw (at most once per frame however often it
 * changed, all of a frame's notifications inside one
 * g_object_freeze_notify() / g_object_thaw_notify()); reading it still
 * gives the live value, from any thread. When nobody is connected to a
 * signal or to a property's `notify`, begin_frame only takes the frame's
 * records and compares numbers; the request path never pays for signals.
 *
 * ## Destruction
 *
 * [method@Psc.Cache.close] ends a cache explicitly (owner thread, once the
 * GPU no longer uses its objects); dropping the last reference on the owner
 * thread closes it if that was not done. Either way every pending request
 * is completed with %PSC_ERROR_CLOSED (C callbacks with `VK_INCOMPLETE`) and
 * every object the cache owns is destroyed: the application must make sure
 * that the GPU no longer uses any of them (for example by waiting for its
 * last submission's fence or timeline value); the cache never calls
 * `vkDeviceWaitIdle`. The cache keeps its [class@Psc.Device] alive.
 *
 * Dropping the last reference on another thread is an error, reported with
 * g_critical(): the cache is closed there without calling any pending
 * callback (their contexts are dropped), so no application code runs on
 * the wrong thread; its objects are destroyed on that thread.
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
 *
 * Since: 0.1
 */

#define PSC_ALL_CACHE_FLAGS (PSC_CACHE_FLAGS_PASS_THROUGH | PSC_CACHE_FLAGS_STRICT_RECIPES)

/* The core's numbering is the public one. */
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
G_STATIC_ASSERT ((int) PSC_STATUS_INVALID_DATA == (int) PSC_ERROR_INVALID_DATA);
G_STATIC_ASSERT ((int) PSC_STATUS_IO == (int) PSC_ERROR_IO);
G_STATIC_ASSERT (PSC_STATUS_COUNT == PSC_ERROR_IO + 1);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_WAIT == (int) PSC_MISS_POLICY_WAIT);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_SKIP == (int) PSC_MISS_POLICY_SKIP);
G_STATIC_ASSERT ((int) PSC_CORE_MISS_FALLBACK == (int) PSC_MISS_POLICY_FALLBACK);
G_STATIC_ASSERT ((int) PSC_CORE_REQUEST_CRITICAL == (int) PSC_REQUEST_FLAGS_CRITICAL);
G_STATIC_ASSERT ((int) PSC_CORE_READY == (int) PSC_REQUEST_RESULT_READY);
G_STATIC_ASSERT ((int) PSC_CORE_PENDING == (int) PSC_REQUEST_RESULT_PENDING);
G_STATIC_ASSERT ((int) PSC_CORE_FALLBACK == (int) PSC_REQUEST_RESULT_FALLBACK);
G_STATIC_ASSERT ((int) PSC_CORE_STALE == (int) PSC_REQUEST_RESULT_STALE);
G_STATIC_ASSERT (PSC_CORE_BORROW_FRAMES == PSC_BORROW_FRAMES);

/* The first version of PscCacheOptions ends with publish_budget_us: a
 * smaller size is refused, never read. */
#define PSC_CACHE_OPTIONS_SIZE_0_1 (offsetof (PscCacheOptions, publish_budget_us) + sizeof (guint))

static void psc_cache_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PscCache, psc_cache, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      psc_cache_initable_iface_init))

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_BACKEND,
  PROP_FLAGS,
  PROP_WORKERS,
  PROP_JOB_CAPACITY,
  PROP_WAITER_CAPACITY,
  PROP_PUBLISH_BUDGET_US,
  PROP_EVICTION_IDLE_FRAMES,
  PROP_PERSIST_FIRST,     /* PSC_CACHE_PERSIST_N_PROPS of psc-cache-persist.c */
  PROP_COUNTERS_FIRST = PROP_PERSIST_FIRST + PSC_CACHE_PERSIST_N_PROPS,
                          /* PSC_CACHE_COUNTERS_N_PROPS of psc-cache-counters.c */
  N_PROPS = PROP_COUNTERS_FIRST + PSC_CACHE_COUNTERS_N_PROPS
};

static GParamSpec *props[N_PROPS];

/* Lifetime ----------------------------------------------------------------- */

static void
psc_cache_dispose (GObject *object)
{
  PscCache *self = PSC_CACHE (object);

  if (self->core != NULL && !psc_core_is_closed (self->core))
    {
      if (self->owner == g_thread_self ())
        {
          psc_cache_close (self, 0);
        }
      else
        {
          /* The documented error path: no application callback may run on
           * this thread, so pending waiters are dropped, not called. */
          g_critical ("PscCache %p: the last reference was dropped on a thread that is not "
                      "the cache's owner thread; pending callbacks are dropped without being "
                      "called, and the cache's objects are destroyed on this thread", self);
          psc_cache_export_drop (self);
          psc_core_close_unowned (self->core);
          psc_cache_async_drop (self);
        }
    }

  G_OBJECT_CLASS (psc_cache_parent_class)->dispose (object);
}

static void
psc_cache_finalize (GObject *object)
{
  PscCache *self = PSC_CACHE (object);

  /* The export reads the core's counters: it goes before the core. The
   * core first then: its objects must die before a headless device does. */
  psc_cache_export_drop (self);
  psc_core_free (self->core);
  psc_cache_persist_free (self);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->device);
  g_clear_pointer (&self->owner, g_thread_unref);
  g_clear_error (&self->init_error);

  G_OBJECT_CLASS (psc_cache_parent_class)->finalize (object);
}

/* Properties --------------------------------------------------------------- */

static void
psc_cache_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  PscCache *self = PSC_CACHE (object);

  switch (prop_id)
    {
    case PROP_DEVICE:
      g_value_set_object (value, self->device);
      return;
    case PROP_BACKEND:
      g_value_set_enum (value, psc_cache_get_backend (self));
      return;
    case PROP_FLAGS:
      g_value_set_flags (value, self->flags);
      return;
    case PROP_WORKERS:
      g_value_set_uint (value, self->workers);
      return;
    case PROP_JOB_CAPACITY:
      g_value_set_uint (value, self->job_capacity);
      return;
    case PROP_WAITER_CAPACITY:
      g_value_set_uint (value, self->waiter_capacity);
      return;
    case PROP_PUBLISH_BUDGET_US:
      g_value_set_uint (value, self->publish_budget_us);
      return;
    case PROP_EVICTION_IDLE_FRAMES:
      g_value_set_uint (value, psc_cache_get_eviction_idle_frames (self));
      return;
    default:
      if (prop_id >= PROP_PERSIST_FIRST && prop_id < PROP_COUNTERS_FIRST)
        psc_cache_persist_get_property (self, prop_id - PROP_PERSIST_FIRST, value);
      else if (prop_id >= PROP_COUNTERS_FIRST && prop_id < N_PROPS)
        psc_cache_counters_get_property (self, prop_id - PROP_COUNTERS_FIRST, value);
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
    case PROP_DEVICE:
      g_set_object (&self->device, g_value_get_object (value));
      break;
    case PROP_BACKEND:
      self->requested_backend = g_value_get_enum (value);
      break;
    case PROP_FLAGS:
      self->flags = g_value_get_flags (value);
      break;
    case PROP_WORKERS:
      self->workers = g_value_get_uint (value);
      break;
    case PROP_JOB_CAPACITY:
      self->job_capacity = g_value_get_uint (value);
      break;
    case PROP_WAITER_CAPACITY:
      self->waiter_capacity = g_value_get_uint (value);
      break;
    case PROP_PUBLISH_BUDGET_US:
      self->publish_budget_us = g_value_get_uint (value);
      break;
    case PROP_EVICTION_IDLE_FRAMES:
      psc_cache_set_eviction_idle_frames (self, g_value_get_uint (value));
      break;
    default:
      if (prop_id >= PROP_PERSIST_FIRST && prop_id < PROP_COUNTERS_FIRST)
        psc_cache_persist_set_property (self, prop_id - PROP_PERSIST_FIRST, value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define PSC_CONSTRUCT_ONLY (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | \
                            G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY)

static GParamSpec *
psc_option_pspec (const char *name,
                  guint       maximum)
{
  return g_param_spec_uint (name, NULL, NULL, 0, maximum, 0, PSC_CONSTRUCT_ONLY);
}

static void
psc_cache_class_init (PscCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  psc_i18n_init ();

  object_class->dispose = psc_cache_dispose;
  object_class->finalize = psc_cache_finalize;
  object_class->get_property = psc_cache_get_property;
  object_class->set_property = psc_cache_set_property;

  /**
   * PscCache:device:
   *
   * The device the cache creates its objects on. Required: initialization
   * without it fails with %PSC_ERROR_INVALID_ARGUMENT.
   *
   * Since: 0.1
   */
  props[PROP_DEVICE] =
    g_param_spec_object ("device", NULL, NULL, PSC_TYPE_DEVICE, PSC_CONSTRUCT_ONLY);

  /**
   * PscCache:backend:
   *
   * The rendering backend graphics requests use. Written at construction:
   * the backend asked for (%PSC_BACKEND_AUTO, the default, picks dynamic
   * rendering when the device enabled it, else the legacy backend). Read
   * after initialization: the backend in use, never %PSC_BACKEND_AUTO.
   *
   * Since: 0.1
   */
  props[PROP_BACKEND] =
    g_param_spec_enum ("backend", NULL, NULL, PSC_TYPE_BACKEND, PSC_BACKEND_AUTO,
                       PSC_CONSTRUCT_ONLY);

  /**
   * PscCache:flags:
   *
   * The flags the cache is created with.
   *
   * Since: 0.1
   */
  props[PROP_FLAGS] =
    g_param_spec_flags ("flags", NULL, NULL, PSC_TYPE_CACHE_FLAGS, PSC_CACHE_FLAGS_NONE,
                        PSC_CONSTRUCT_ONLY);

  /**
   * PscCache:workers:
   *
   * Compile worker threads, as given; 0 (the default) means the number of
   * online cores minus one, at least one. Workers start with the first
   * asynchronous request. When workers compile, the application's
   * `VkAllocationCallbacks` (if any) are called from them too, so they must
   * be thread-safe.
   *
   * Since: 0.1
   */
  props[PROP_WORKERS] = psc_option_pspec ("workers", 1024);

  /**
   * PscCache:job-capacity:
   *
   * The bounded compile-job queue, as given; 0 (the default) means 256.
   *
   * Since: 0.1
   */
  props[PROP_JOB_CAPACITY] = psc_option_pspec ("job-capacity", G_MAXUINT);

  /**
   * PscCache:waiter-capacity:
   *
   * The bounded pool of completion waiters, as given; 0 (the default) means
   * 4096.
   *
   * Since: 0.1
   */
  props[PROP_WAITER_CAPACITY] = psc_option_pspec ("waiter-capacity", G_MAXUINT);

  /**
   * PscCache:publish-budget-us:
   *
   * Microseconds [method@Psc.Cache.begin_frame] may spend publishing
   * finished compiles before it leaves the rest for the next frame (at
   * least one is published per frame), as given; 0 (the default) means 50,
   * %G_MAXUINT no limit.
   *
   * Since: 0.1
   */
  props[PROP_PUBLISH_BUDGET_US] = psc_option_pspec ("publish-budget-us", G_MAXUINT);

  /**
   * PscCache:eviction-idle-frames:
   *
   * When non-zero, [method@Psc.Cache.begin_frame] evicts Ready, unpinned
   * pipelines not requested for more than this many frames (never fewer
   * than %PSC_BORROW_FRAMES). 0 (the default) turns automatic eviction off.
   * Setting it is an owner-thread call (rule (b)); reading it, any thread.
   *
   * Since: 0.1
   */
  props[PROP_EVICTION_IDLE_FRAMES] =
    g_param_spec_uint ("eviction-idle-frames", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  psc_cache_persist_class_init (props, PROP_PERSIST_FIRST);
  psc_cache_counters_class_init (props, PROP_COUNTERS_FIRST);
  g_object_class_install_properties (object_class, N_PROPS, props);
  psc_cache_signals_class_init (object_class);
}

static void
psc_cache_init (PscCache *self)
{
  self->requested_backend = PSC_BACKEND_AUTO;
  self->backend = PSC_BACKEND_AUTO;
}

/* Construction ------------------------------------------------------------- */

/* Checks the properties, resolves the backend and creates the core. The
 * calling thread becomes the owner. */
static gboolean
psc_cache_open (PscCache  *self,
                GError   **error)
{
  PscBackend backend = self->requested_backend;
  PscCoreConfig cfg;
  PscCoreError core_error;
  PscStatus status;

  if (self->device == NULL)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("device: a PscCache needs a PscDevice (the construct-only "
                             "property \"device\")"));
      return FALSE;
    }
  if (!psc_device_is_ready (self->device))
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("device: the PscDevice was not initialized successfully"));
      return FALSE;
    }
  /* The property specs refuse other values already (with a warning); an
   * error, not an abort, if one got through anyway. */
  if ((self->flags & ~PSC_ALL_CACHE_FLAGS) != 0 ||
      (backend != PSC_BACKEND_AUTO && backend != PSC_BACKEND_DYNAMIC_RENDERING &&
       backend != PSC_BACKEND_LEGACY))
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("flags, backend: a value this version of libpsocache does not know"));
      return FALSE;
    }

  if (backend == PSC_BACKEND_AUTO)
    {
      backend = psc_device_get_dynamic_rendering (self->device)
              ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY;
    }
  else if (backend == PSC_BACKEND_DYNAMIC_RENDERING &&
           !psc_device_get_dynamic_rendering (self->device))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("backend: the dynamic-rendering backend needs a device created "
                     "with dynamic rendering enabled; %s was not"),
                   psc_device_get_name (self->device));
      return FALSE;
    }

  memset (&cfg, 0, sizeof cfg);
  psc_device_fill_core_config (self->device, &cfg);
  cfg.rendering = backend == PSC_BACKEND_DYNAMIC_RENDERING
                ? PSC_RENDERING_DYNAMIC : PSC_RENDERING_LEGACY;
  cfg.pass_through = (self->flags & PSC_CACHE_FLAGS_PASS_THROUGH) != 0;
  cfg.workers = self->workers;
  cfg.job_capacity = self->job_capacity;
  cfg.waiter_capacity = self->waiter_capacity;
  cfg.publish_budget_us = self->publish_budget_us;
  cfg.hooks = self->hooks;
  if (!psc_cache_persist_open (self, &cfg, error))
    return FALSE;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_new (&cfg, &self->core, &core_error);
  if (status != PSC_STATUS_OK)
    self->core = NULL;
  psc_cache_persist_opened (self);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }

  self->backend = backend;
  self->owner = g_thread_ref (g_thread_self ());
  self->pending = g_ptr_array_new ();
  /* The first frame's notifications compare with the counters as they are
   * now (persistence may have loaded files). */
  psc_cache_counters_baseline (self);
  return TRUE;
}

/* GInitable: runs once; later calls give the first call's result. */
static gboolean
psc_cache_initable_init (GInitable     *initable,
                         GCancellable  *cancellable,
                         GError       **error)
{
  PscCache *self = PSC_CACHE (initable);

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->init_done)
    {
      self->init_done = TRUE;
      psc_cache_open (self, &self->init_error);
    }
  if (self->init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->init_error));
      return FALSE;
    }
  return TRUE;
}

static void
psc_cache_initable_iface_init (GInitableIface *iface)
{
  iface->init = psc_cache_initable_init;
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
 *
 * Since: 0.1
 */
PscCache *
psc_cache_new (PscDevice      *device,
               PscBackend      backend,
               PscCacheFlags   flags,
               GError        **error)
{
  return psc_cache_new_internal (device, backend, flags, NULL, NULL, error);
}

/**
 * psc_cache_new_full:
 * @device: the device to create objects on
 * @backend: how graphics requests describe their rendering (see
 *   [ctor@Psc.Cache.new])
 * @flags: flags
 * @options: (nullable): options of the asynchronous machinery (worker
 *   threads, the bounded job and waiter queues, the publication budget), or
 *   %NULL for the defaults
 * @error: return location for a #GError
 *
 * Like [ctor@Psc.Cache.new], with the sizes of the asynchronous machinery;
 * each member of @options sets the construct property of the same name
 * (see [struct@Psc.CacheOptions] for how its size is checked).
 *
 * Returns: (transfer full): a new cache, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT for options this library cannot take)
 *
 * Since: 0.1
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
  PscCacheOptions o = PSC_CACHE_OPTIONS_INIT;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (backend == PSC_BACKEND_AUTO ||
                        backend == PSC_BACKEND_DYNAMIC_RENDERING ||
                        backend == PSC_BACKEND_LEGACY, NULL);
  g_return_val_if_fail ((flags & ~PSC_ALL_CACHE_FLAGS) == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options != NULL &&
      !psc_versioned_copy (options, PSC_CACHE_OPTIONS_SIZE_0_1, sizeof (PscCacheOptions),
                           "PscCacheOptions", "options", &o, error))
    return NULL;

  /* g_initable_new () in two steps, so that tests can hand hooks to the
   * core before it is created. */
  self = g_object_new (PSC_TYPE_CACHE,
                       "device", device,
                       "backend", backend,
                       "flags", flags,
                       "workers", o.workers,
                       "job-capacity", o.job_capacity,
                       "waiter-capacity", o.waiter_capacity,
                       "publish-budget-us", o.publish_budget_us,
                       "application-id", o.application_id,
                       "cache-directory", o.cache_directory,
                       "max-disk-bytes", o.max_disk_bytes,
                       "driver-data-limit", o.driver_data_limit,
                       "save-interval", o.save_interval,
                       NULL);
  if (hooks != NULL)
    self->hooks = *hooks;
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* Getters (any thread) ----------------------------------------------------- */

/**
 * psc_cache_get_device:
 * @self: a cache
 *
 * Returns the device the cache works on. Any thread.
 *
 * Returns: (transfer none) (nullable): the device (%NULL only for a cache
 *   made without one, which is not open)
 *
 * Since: 0.1
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
 * Returns the rendering backend graphics requests must use. Any thread.
 *
 * Returns: %PSC_BACKEND_DYNAMIC_RENDERING or %PSC_BACKEND_LEGACY; before
 *   a successful initialization, the backend asked for
 *
 * Since: 0.1
 */
PscBackend
psc_cache_get_backend (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), PSC_BACKEND_LEGACY);
  return self->core != NULL ? self->backend : self->requested_backend;
}

/**
 * psc_cache_get_flags:
 * @self: a cache
 *
 * Returns the flags the cache was created with. Any thread.
 *
 * Returns: the flags
 *
 * Since: 0.1
 */
PscCacheFlags
psc_cache_get_flags (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), PSC_CACHE_FLAGS_NONE);
  return self->flags;
}

/**
 * psc_cache_set_eviction_idle_frames:
 * @self: a cache
 * @idle_frames: frames, or 0 to turn automatic eviction off
 *
 * Sets [property@Psc.Cache:eviction-idle-frames]. Owner thread only (rule
 * (b)); nothing happens on a cache that is closed or not open.
 *
 * Since: 0.1
 */
void
psc_cache_set_eviction_idle_frames (PscCache *self,
                                    guint     idle_frames)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return;

  if ((guint) g_atomic_int_get (&self->evict_idle_frames) == idle_frames)
    return;
  g_atomic_int_set (&self->evict_idle_frames, (gint) idle_frames);
  psc_core_set_auto_evict (self->core, idle_frames);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EVICTION_IDLE_FRAMES]);
}

/**
 * psc_cache_get_eviction_idle_frames:
 * @self: a cache
 *
 * Returns the automatic-eviction threshold. Any thread.
 *
 * Returns: [property@Psc.Cache:eviction-idle-frames]
 *
 * Since: 0.1
 */
guint
psc_cache_get_eviction_idle_frames (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  return (guint) g_atomic_int_get (&self->evict_idle_frames);
}

/* The pump and close (owner thread) --------------------------------------- */

/**
 * psc_cache_begin_frame:
 * @self: a cache
 * @frame: the number of the frame that begins; increases by one per frame
 * @completed_timeline_value: the latest GPU timeline value the application
 *   knows to be complete
 *
 * The cache's pump, called once per frame on the owner thread before the
 * frame's requests. It publishes finished asynchronous compiles (within the
 * time budget of [property@Psc.Cache:publish-budget-us], at least one per
 * frame; the rest stay counted as %PSC_ASYNC_COUNTER_UNPUBLISHED for the next
 * frame), calls their waiters ([callback@Psc.PipelineReadyFn], #GTask
 * callbacks of [method@Psc.Cache.get_graphics_pipeline_async]) and completes
 * cancelled tasks, advances the borrowed-handle window (see
 * %PSC_BORROW_FRAMES), destroys retired handles whose timeline value the GPU
 * has passed, and evicts idle pipelines when
 * [property@Psc.Cache:eviction-idle-frames] is set.
 *
 * Timeline contract: frame numbers are timeline values. The work recorded
 * after `begin_frame (cache, N, ...)` must signal a value of at least N when
 * the GPU completes it, and @completed_timeline_value is the highest value
 * known complete. A handle retired (evicted, superseded by a hot reload) is
 * destroyed only once @completed_timeline_value reaches both the frame it
 * was retired in and its last request's frame plus %PSC_BORROW_FRAMES.
 *
 * Then, in this order, it emits the signals of what happened since the
 * previous call, in the order it happened
 * ([signal@Psc.Cache::shader-reloaded] for reloads made meanwhile,
 * [signal@Psc.Cache::pipeline-ready] and
 * [signal@Psc.Cache::pipeline-failed] for this frame's publications), then
 * [signal@Psc.Cache::evicted] once with the pipelines evicted meanwhile and
 * in this frame, then `notify` for each counter property whose value
 * changed since the previous call. One frame holds at most 1,024
 * pipeline and shader events; the rest are not emitted, and are counted in
 * [property@Psc.Cache:signals-dropped]. Events of a frame that nobody
 * listens to are discarded, not kept for a later handler.
 *
 * Callbacks and signal handlers it runs may make requests, drop references
 * to the cache or call [method@Psc.Cache.close] (the cache then closes when
 * this call returns, after the rest of the frame's callbacks and signals);
 * calling psc_cache_begin_frame() from such a callback or handler is a
 * programming error (a critical; the nested call is ignored).
 *
 * Owner thread only (rule (b)): from another thread it is a programming
 * error reported with g_critical(), and the call is ignored. It does nothing
 * on a cache that is closed or not open.
 *
 * Since: 0.1
 */
void
psc_cache_begin_frame (PscCache *self,
                       guint64   frame,
                       guint64   completed_timeline_value)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return;
  if (G_UNLIKELY (self->in_pump))
    {
      g_critical ("%s: called from a callback that psc_cache_begin_frame is running; "
                  "the call is ignored", G_STRFUNC);
      return;
    }

  /* Callbacks run below may drop the caller's reference. */
  g_object_ref (self);
  self->in_pump = TRUE;
  /* D-Bus controls queued since the last frame, applied first: what they
   * cause (evictions, reloads) is published and announced by this one. */
  psc_cache_export_pump (self, frame);
  psc_core_begin_frame (self->core, frame, completed_timeline_value);
  psc_cache_async_pump (self);
  psc_cache_persist_pump (self);
  /* The core's pump is over: signals and notifications may call back. */
  psc_cache_signals_emit (self);
  psc_cache_counters_notify (self, props, PROP_COUNTERS_FIRST);
  self->in_pump = FALSE;
  if (self->close_requested)
    psc_cache_close (self, self->close_timeline);
  g_object_unref (self);
}

/**
 * psc_cache_close:
 * @self: a cache
 * @completed_timeline_value: the final completed GPU timeline value
 *
 * Ends the cache, on the owner thread, before its last reference is
 * dropped (dropping the last reference calls it if needed). The caller
 * guarantees that the GPU no longer uses any object the cache handed out:
 * close destroys them all at once, whatever @completed_timeline_value says.
 * The value is recorded like the one given to [method@Psc.Cache.begin_frame]
 * (it never moves backwards); a value below the last frame given there is
 * allowed (for example when that frame's work was never submitted) and
 * changes nothing: the cache does not wait, check or warn.
 *
 * In order: from the start, every request fails with %PSC_ERROR_CLOSED and
 * starts nothing (also a request made by a callback called below); worker
 * threads are stopped and joined and their unpublished results destroyed;
 * every pending request completes: C callbacks with `VK_INCOMPLETE`, #GTask
 * requests with %PSC_ERROR_CLOSED; then every cached object is destroyed.
 * The cache holds a reference to itself meanwhile, so a callback may drop
 * the last one.
 *
 * Afterwards the cache is closed for good: methods with a #GError fail with
 * %PSC_ERROR_CLOSED; [method@Psc.Cache.begin_frame], [method@Psc.Cache.evict],
 * [method@Psc.Cache.clear_failures] and
 * [method@Psc.Cache.set_eviction_idle_frames] do nothing,
 * [method@Psc.Cache.get_shader_id] returns 0 and
 * [method@Psc.Cache.is_compat_render_pass] %FALSE; the getters and the
 * counters (as they were at close) still answer.
 *
 * Owner thread only (rule (b)); calling it again does nothing; on a cache
 * that is not open it does nothing. Called from a callback that
 * [method@Psc.Cache.begin_frame] is running, it takes effect when
 * begin_frame returns: the pump finishes first (the callbacks of that
 * pump are still called with their results).
 *
 * Since: 0.1
 */
void
psc_cache_close (PscCache *self,
                 guint64   completed_timeline_value)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return;
  if (self->in_pump)
    {
      self->close_requested = TRUE;
      self->close_timeline = MAX (self->close_timeline, completed_timeline_value);
      return;
    }

  g_object_ref (self);
  /* Unexported first: queued D-Bus calls are answered Closed, and no
   * control is applied to a closing cache. */
  psc_cache_export_drop (self);
  psc_core_close (self->core, completed_timeline_value);
  g_object_unref (self);
}

/* Counters (any thread) ---------------------------------------------------- */

/**
 * psc_cache_get_stats:
 * @self: a cache
 *
 * Takes a snapshot of the cache's counters. Any thread may call it: the
 * counters are published with atomics and read one by one, so a snapshot
 * taken while the owner thread works may mix values from two instants
 * (except that a compile job is counted in at most one of the queued,
 * in-flight and unpublished gauges). The snapshot never changes afterwards.
 * A cache that is not open gives zeros; a closed one, its counters as they
 * were at close.
 *
 * Returns: (transfer full): a new snapshot
 *
 * Since: 0.1
 */
PscStats *
psc_cache_get_stats (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);

  return psc_stats_new_snapshot (self->core, self->persist);
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

  psc_stats_read (&stats, self->core, self->persist);
  return psc_stats_get_counter (&stats, kind, counter);
}
