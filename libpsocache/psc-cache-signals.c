/* psc-cache-signals.c: PscCache's signals. The core records what happened
 * on the owner thread (events.c: asynchronous pipelines published or
 * failed, shaders reloaded, pipelines evicted); psc_cache_begin_frame
 * takes that batch after the core's pump returned and emits it here, so a
 * handler may call back into the cache. Also the key hashes that name a
 * request's pipeline in those signals.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

enum {
  SIGNAL_PIPELINE_READY,
  SIGNAL_PIPELINE_FAILED,
  SIGNAL_SHADER_RELOADED,
  SIGNAL_EVICTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
psc_cache_signals_class_init (GObjectClass *object_class)
{
  const GType type = G_TYPE_FROM_CLASS (object_class);

  /**
   * PscCache::pipeline-ready:
   * @self: the cache
   * @pipeline: the `VkPipeline` that became Ready, as an integer: a
   *   borrowed handle, valid as one a request returned in this frame (see
   *   %PSC_BORROW_FRAMES)
   * @key_hash: the 64-bit hash of the pipeline's canonical key, as
   *   [method@Psc.Cache.get_graphics_key_hash] and
   *   [method@Psc.Cache.get_compute_key_hash] give it for the request
   *
   * Emitted by [method@Psc.Cache.begin_frame] for each pipeline that a
   * compile worker finished and that frame published: the pipelines of
   * asynchronous requests (%PSC_MISS_POLICY_SKIP, %PSC_MISS_POLICY_FALLBACK,
   * [method@Psc.Cache.get_graphics_pipeline_async] and the others) and of
   * prewarm. A pipeline created synchronously on the owner thread
   * (%PSC_MISS_POLICY_WAIT, [method@Psc.Cache.get_graphics_pipeline], a
   * critical request on a full queue) is not announced: the call returned
   * it. So each emission is one %PSC_ASYNC_COUNTER_COMPLETED.
   *
   * Like every signal of the cache it runs on the owner thread, from
   * begin_frame, after the core's pump (publication, the requests'
   * callbacks, retirement) and after #GTask callbacks; never from a worker.
   * A handler may make requests, evict, reload shaders (what that records
   * is emitted by the next begin_frame), drop references to the cache, or
   * call [method@Psc.Cache.close] (the cache closes when begin_frame
   * returns, after the other signals of that frame).
   *
   * Signals are for observers (monitors, tools, bindings): a frame holds at
   * most 1,024 pipeline and shader events, the rest are dropped and
   * counted in [property@Psc.Cache:signals-dropped]. A request's own
   * callback is never dropped.
   *
   * Since: 0.3
   */
  signals[SIGNAL_PIPELINE_READY] =
    g_signal_new ("pipeline-ready", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);

  /**
   * PscCache::pipeline-failed:
   * @self: the cache
   * @key_hash: the 64-bit hash of the pipeline's canonical key (see
   *   [signal@Psc.Cache::pipeline-ready])
   * @error: why: %PSC_ERROR_VULKAN, its message naming the creation call
   *   and the driver's `VkResult` (the message a request for that key gets
   *   from then on)
   *
   * Emitted by [method@Psc.Cache.begin_frame] for each asynchronous
   * compile that failed in a compile worker and that frame published as
   * failed: the pipeline is not retried until a shader it uses is reloaded
   * or [method@Psc.Cache.clear_failures] is called. A synchronous request
   * that fails reports it to its caller instead, and a request discarded by
   * a hot reload or by close is no failure. Each emission is one
   * %PSC_ASYNC_COUNTER_FAILED.
   *
   * The rules of [signal@Psc.Cache::pipeline-ready] apply: owner thread,
   * from begin_frame after the core's pump, re-entry allowed, at most 1,024
   * events per frame.
   *
   * Since: 0.3
   */
  signals[SIGNAL_PIPELINE_FAILED] =
    g_signal_new ("pipeline-failed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * PscCache::shader-reloaded:
   * @self: the cache
   * @shader_id: the shader's id (the same before and after the reload, as
   *   [method@Psc.Cache.register_shader_bytes] and
   *   [method@Psc.Cache.get_shader_id] give it)
   * @generation: its new generation: 1 after the first reload, one more
   *   at each
   *
   * Emitted by [method@Psc.Cache.begin_frame] for each hot reload
   * ([method@Psc.Cache.replace_shader],
   * [method@Psc.Cache.replace_shader_bytes]) made since the previous
   * begin_frame (or during its signals), in the order they were made; two
   * reloads of one shader are two emissions. Reloads happen outside the
   * pump: they are queued and announced by the next frame, so a monitor
   * sees them on the same schedule as the pipelines they lead to.
   *
   * The rules of [signal@Psc.Cache::pipeline-ready] apply: owner thread,
   * from begin_frame after the core's pump, re-entry allowed, at most 1,024
   * events per frame.
   *
   * Since: 0.3
   */
  signals[SIGNAL_SHADER_RELOADED] =
    g_signal_new ("shader-reloaded", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * PscCache::evicted:
   * @self: the cache
   * @count: how many pipelines were evicted since the previous
   *   begin_frame's emission (at least 1)
   *
   * Emitted by [method@Psc.Cache.begin_frame] at most once per frame,
   * after the other signals of that frame, when pipelines were evicted:
   * by [method@Psc.Cache.evict] calls since the previous begin_frame (or
   * during its signals), and by this frame's automatic eviction
   * ([property@Psc.Cache:eviction-idle-frames]). The count adds to
   * %PSC_ASYNC_COUNTER_EVICTIONS.
   *
   * One count per frame rather than one emission per pipeline: an eviction
   * pass may retire thousands of pipelines at once, their handles are no
   * use to a handler (they must not be used once evicted, and are
   * destroyed when the GPU timeline passes them), and a count is what a
   * monitor shows; it never overflows the frame's event bound, so it is
   * never dropped.
   *
   * Owner thread, from begin_frame after the core's pump; a handler may
   * call back into the cache, as for [signal@Psc.Cache::pipeline-ready].
   *
   * Since: 0.3
   */
  signals[SIGNAL_EVICTED] =
    g_signal_new ("evicted", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static gboolean
wanted (PscCache *self,
        guint     signal)
{
  return g_signal_has_handler_pending (self, signals[signal], 0, FALSE);
}

static void
emit_failed (PscCache           *self,
             const PscCoreEvent *ev)
{
  g_autoptr(GError) error = NULL;
  PscCoreError core_error;

  PSC_CORE_ERROR_INIT (core_error);
  psc_core_fail_vk (&core_error, (VkResult) ev->result,
                    ev->kind == PSC_KIND_GRAPHICS ? "vkCreateGraphicsPipelines"
                                                  : "vkCreateComputePipelines");
  psc_error_from_core (&error, &core_error);
  g_signal_emit (self, signals[SIGNAL_PIPELINE_FAILED], 0, (guint64) ev->key_hash, error);
}

void
psc_cache_signals_emit (PscCache *self)
{
  PscCoreEvents batch;

  /* Taken even when nobody listens, so the next frame starts empty. The
   * batch stays valid while its signals run: what handlers cause goes to
   * the next one. */
  if (!psc_core_take_events (self->core, &batch))
    return;
  psc_cache_export_events (self, &batch);

  for (guint32 i = 0; i < batch.count; i++)
    {
      const PscCoreEvent *ev = &batch.events[i];

      switch (ev->type)
        {
        case PSC_CORE_EVENT_PIPELINE_READY:
          if (wanted (self, SIGNAL_PIPELINE_READY))
            g_signal_emit (self, signals[SIGNAL_PIPELINE_READY], 0,
                           (guint64) ev->pipeline, (guint64) ev->key_hash);
          break;
        case PSC_CORE_EVENT_PIPELINE_FAILED:
          if (wanted (self, SIGNAL_PIPELINE_FAILED))
            emit_failed (self, ev);
          break;
        case PSC_CORE_EVENT_SHADER_RELOADED:
          if (wanted (self, SIGNAL_SHADER_RELOADED))
            g_signal_emit (self, signals[SIGNAL_SHADER_RELOADED], 0,
                           (guint) ev->shader_id, (guint) ev->generation);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  if (batch.evicted > 0 && wanted (self, SIGNAL_EVICTED))
    g_signal_emit (self, signals[SIGNAL_EVICTED], 0, (guint) batch.evicted);
}

/* The key hashes ----------------------------------------------------------- */

static gboolean
key_hash (PscCache    *self,
          PscKind      kind,
          const void  *info,
          guint64     *hash,
          GError     **error)
{
  PscCoreError core_error;
  uint64_t h = 0;
  PscStatus status;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_key_hash (self->core, kind, info, &h, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  *hash = h;
  return TRUE;
}

/**
 * psc_cache_get_graphics_key_hash: (skip)
 * @self: a cache
 * @info: a graphics pipeline create info, as for
 *   [method@Psc.Cache.get_graphics_pipeline]
 * @hash: (out): return location for the hash
 * @error: return location for a #GError
 *
 * Validates and canonicalizes @info like a request, without looking it up
 * or creating anything, and gives the 64-bit hash of its canonical key:
 * the @key_hash that [signal@Psc.Cache::pipeline-ready] and
 * [signal@Psc.Cache::pipeline-failed] give for the pipeline @info
 * describes, so an observer can tell which request a signal is about.
 *
 * The hash covers the key, which names shaders and layouts by this cache's
 * ids and the shaders' generations: it is the same for the same request
 * as long as this cache lives and the shaders are not reloaded (a reload
 * makes a new key), and means nothing to another cache or process. Two
 * keys may share a hash (the cache compares keys in full); with 64 bits
 * that is rare, but a hash is no identity. A rejected @info is counted
 * like a rejected request. Owner thread (rule (a)).
 *
 * Returns: %TRUE with @hash set, or %FALSE with @error set (the error a
 *   request with @info would get)
 *
 * Since: 0.3
 */
gboolean
psc_cache_get_graphics_key_hash (PscCache                            *self,
                                 const VkGraphicsPipelineCreateInfo  *info,
                                 guint64                             *hash,
                                 GError                             **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (hash != NULL, FALSE);
  PSC_CACHE_CHECK_INFO (self, info, FALSE);

  return key_hash (self, PSC_KIND_GRAPHICS, info, hash, error);
}

/**
 * psc_cache_get_compute_key_hash: (skip)
 * @self: a cache
 * @info: a compute pipeline create info, as for
 *   [method@Psc.Cache.get_compute_pipeline]
 * @hash: (out): return location for the hash
 * @error: return location for a #GError
 *
 * [method@Psc.Cache.get_graphics_key_hash] for compute pipelines.
 *
 * Returns: %TRUE with @hash set, or %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_cache_get_compute_key_hash (PscCache                           *self,
                                const VkComputePipelineCreateInfo  *info,
                                guint64                            *hash,
                                GError                            **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (hash != NULL, FALSE);
  PSC_CACHE_CHECK_INFO (self, info, FALSE);

  return key_hash (self, PSC_KIND_COMPUTE, info, hash, error);
}
