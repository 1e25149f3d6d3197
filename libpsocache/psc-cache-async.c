/* psc-cache-async.c: PscCache's asynchronous requests, GTask glue, fallbacks,
 * hot reload and eviction (the GObject face of core/async.c and
 * core/retire.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_POLICY(policy, flags, val) \
  G_STMT_START { \
    g_return_val_if_fail ((policy) == PSC_MISS_POLICY_WAIT || \
                          (policy) == PSC_MISS_POLICY_SKIP || \
                          (policy) == PSC_MISS_POLICY_FALLBACK, (val)); \
    g_return_val_if_fail (((flags) & ~PSC_REQUEST_FLAGS_CRITICAL) == 0, (val)); \
  } G_STMT_END

static VkPipeline
finish_request (PscStatus            status,
                VkPipeline           pipeline,
                PscCoreRequestState  state,
                PscRequestResult    *result,
                PscCoreError        *core_error,
                GError             **error)
{
  if (G_UNLIKELY (status != PSC_STATUS_OK))
    {
      psc_cache_fail (error, status, core_error);
      return VK_NULL_HANDLE;
    }
  if (result != NULL)
    *result = (PscRequestResult) state;
  return pipeline;
}

/**
 * psc_cache_request_graphics_pipeline: (skip)
 * @self: a cache
 * @info: the create info, as for [method@Psc.Cache.get_graphics_pipeline]
 * @policy: what to do if the pipeline is not Ready
 * @flags: request flags
 * @callback: (nullable) (scope async): called once when the pipeline is
 *   Ready or has failed, unless the request returned
 *   %PSC_REQUEST_RESULT_READY
 * @context: (closure callback): passed to @callback
 * @result: (out) (optional): what was returned
 * @error: return location for a #GError
 *
 * Requests a graphics pipeline without blocking the owner thread on a
 * compile (with %PSC_MISS_POLICY_SKIP or %PSC_MISS_POLICY_FALLBACK).
 *
 * The first request of a key inserts it Compiling and queues one job on a
 * worker thread; identical requests add waiters and queue nothing. The
 * request returns the pipeline if it is Ready (@result
 * %PSC_REQUEST_RESULT_READY); otherwise the previous shader generation's
 * pipeline after a hot reload (%PSC_REQUEST_RESULT_STALE), the registered
 * fallback (%PSC_REQUEST_RESULT_FALLBACK, with %PSC_MISS_POLICY_FALLBACK), or
 * `VK_NULL_HANDLE` (%PSC_REQUEST_RESULT_PENDING): draw it, draw the
 * fallback, or skip the draw. @callback is then called exactly once from
 * [method@Psc.Cache.begin_frame] (see [callback@Psc.PipelineReadyFn]).
 *
 * A compile that fails makes the key Failed: this and every later request
 * for it fail with %PSC_ERROR_VULKAN and the driver's `VkResult`, without a
 * new compile, until a shader it uses is reloaded or
 * [method@Psc.Cache.clear_failures] is called.
 *
 * When the job queue or the waiter pool is full, a request with
 * %PSC_REQUEST_FLAGS_CRITICAL creates the pipeline synchronously; any other
 * fails with %PSC_ERROR_QUEUE_FULL (counted; nothing is queued and
 * @callback is never called).
 *
 * Returns: the pipeline (see above), or `VK_NULL_HANDLE`; on failure @error
 *   is set
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_request_graphics_pipeline (PscCache                           *self,
                                     const VkGraphicsPipelineCreateInfo *info,
                                     PscMissPolicy                       policy,
                                     PscRequestFlags                     flags,
                                     PscPipelineReadyFn                  callback,
                                     void                               *context,
                                     PscRequestResult                   *result,
                                     GError                            **error)
{
  PscCoreError core_error;
  PscCoreRequestState state = PSC_CORE_PENDING;
  VkPipeline pipeline = VK_NULL_HANDLE;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  CHECK_POLICY (policy, flags, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  PscStatus status = psc_core_request_graphics (self->core, info,
                                                    (PscCoreMissPolicy) policy, flags,
                                                    callback, context, &pipeline, &state,
                                                    &core_error);
  return finish_request (status, pipeline, state, result, &core_error, error);
}

/**
 * psc_cache_request_compute_pipeline: (skip)
 * @self: a cache
 * @info: the create info, as for [method@Psc.Cache.get_compute_pipeline]
 * @policy: what to do if the pipeline is not Ready
 * @flags: request flags
 * @callback: (nullable) (scope async): see
 *   [method@Psc.Cache.request_graphics_pipeline]
 * @context: (closure callback): passed to @callback
 * @result: (out) (optional): what was returned
 * @error: return location for a #GError
 *
 * The compute counterpart of [method@Psc.Cache.request_graphics_pipeline].
 * Fallbacks exist only for graphics pipelines, so %PSC_MISS_POLICY_FALLBACK
 * behaves like %PSC_MISS_POLICY_SKIP here.
 *
 * Returns: the pipeline, or `VK_NULL_HANDLE`
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_request_compute_pipeline (PscCache                          *self,
                                    const VkComputePipelineCreateInfo *info,
                                    PscMissPolicy                      policy,
                                    PscRequestFlags                    flags,
                                    PscPipelineReadyFn                 callback,
                                    void                              *context,
                                    PscRequestResult                  *result,
                                    GError                           **error)
{
  PscCoreError core_error;
  PscCoreRequestState state = PSC_CORE_PENDING;
  VkPipeline pipeline = VK_NULL_HANDLE;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  CHECK_POLICY (policy, flags, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  PscStatus status = psc_core_request_compute (self->core, info,
                                                   (PscCoreMissPolicy) policy, flags,
                                                   callback, context, &pipeline, &state,
                                                   &core_error);
  return finish_request (status, pipeline, state, result, &core_error, error);
}

/**
 * psc_cache_request_prepared_pipeline: (skip)
 * @self: a cache
 * @key_id: a key from [method@Psc.Cache.prepare_graphics_pipeline] or
 *   [method@Psc.Cache.prepare_compute_pipeline]
 * @policy: what to do if the pipeline is not Ready
 * @flags: request flags
 * @callback: (nullable) (scope async): see
 *   [method@Psc.Cache.request_graphics_pipeline]
 * @context: (closure callback): passed to @callback
 * @result: (out) (optional): what was returned
 * @error: return location for a #GError
 *
 * [method@Psc.Cache.request_graphics_pipeline] for a prepared key. After a
 * hot reload of a shader the key names, the key is stale: the request fails
 * with %PSC_ERROR_INVALID_ARGUMENT and the application prepares it again.
 *
 * Returns: the pipeline, or `VK_NULL_HANDLE`
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_request_prepared_pipeline (PscCache            *self,
                                     guint32              key_id,
                                     PscMissPolicy        policy,
                                     PscRequestFlags      flags,
                                     PscPipelineReadyFn   callback,
                                     void                *context,
                                     PscRequestResult    *result,
                                     GError             **error)
{
  PscCoreError core_error;
  PscCoreRequestState state = PSC_CORE_PENDING;
  VkPipeline pipeline = VK_NULL_HANDLE;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  CHECK_POLICY (policy, flags, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  PscStatus status = psc_core_request_prepared (self->core, key_id,
                                                    (PscCoreMissPolicy) policy, flags,
                                                    callback, context, &pipeline, &state,
                                                    &core_error);
  return finish_request (status, pipeline, state, result, &core_error, error);
}

/* ------------------------------------------------------------------------
 * GTask glue. An operation is owned by the core's waiter (which is called
 * exactly once, also at cache destruction) and completes its task at most
 * once: with the pipeline, with an error, or with G_IO_ERROR_CANCELLED when
 * its GCancellable fires (from any thread; applied at the next pump).
 */
typedef struct {
  PscCache *cache;        /* unowned: the core that calls op_ready_cb dies with it */
  GTask *task;            /* NULL once completed */
  GCancellable *cancellable;
  gulong cancel_id;
  gint cancelled;         /* atomic: set by the cancellable, from any thread */
} PscAsyncOp;

static void
op_cancelled_cb (GCancellable *cancellable,
                 gpointer      data)
{
  PscAsyncOp *op = data;
  g_atomic_int_set (&op->cancelled, 1);
}

/* The core says VK_INCOMPLETE for a discarded request; whether a hot reload
 * or the cache's close discarded it is the core's closed state (set before
 * any waiter is called). */
static void
op_complete (PscAsyncOp *op,
             VkPipeline  pipeline,
             VkResult    result)
{
  g_autoptr(GTask) task = g_steal_pointer (&op->task);

  if (task == NULL)
    return;
  if (pipeline != VK_NULL_HANDLE)
    g_task_return_pointer (task, (gpointer) pipeline, NULL);
  else if (result == VK_INCOMPLETE && psc_core_is_closed (op->cache->core))
    g_task_return_new_error (task, PSC_ERROR, PSC_ERROR_CLOSED, "%s",
                             _("The request was not completed: the cache was closed"));
  else if (result == VK_INCOMPLETE)
    g_task_return_new_error (task, PSC_ERROR, PSC_ERROR_DISCARDED, "%s",
                             _("The request was discarded: a hot reload replaced a shader "
                               "it uses; request the pipeline again"));
  else
    g_task_return_new_error (task, PSC_ERROR, PSC_ERROR_VULKAN,
                             _("Pipeline compilation failed: %s"), psc_vk_result_name (result));
}

static void
op_free (PscAsyncOp *op)
{
  if (op->cancellable != NULL)
    {
      g_cancellable_disconnect (op->cancellable, op->cancel_id);
      g_object_unref (op->cancellable);
    }
  g_free (op);
}

/* The core's waiter: called exactly once, on the owner thread. */
static void
op_ready_cb (void       *context,
             VkPipeline  pipeline,
             VkResult    result)
{
  PscAsyncOp *op = context;

  op_complete (op, pipeline, result);
  g_ptr_array_remove_fast (op->cache->pending, op);
  op_free (op);
}

void
psc_cache_async_drop (PscCache *self)
{
  /* A pending task holds a reference to the cache, so an op left when the
   * last reference is gone has completed its task (cancelled) already. */
  for (guint i = 0; i < self->pending->len; i++)
    {
      PscAsyncOp *op = g_ptr_array_index (self->pending, i);

      g_assert (op->task == NULL);
      op_free (op);
    }
  g_ptr_array_set_size (self->pending, 0);
}

void
psc_cache_async_pump (PscCache *self)
{
  GPtrArray *pending = self->pending;

  for (guint i = 0; i < pending->len; i++)
    {
      PscAsyncOp *op = g_ptr_array_index (pending, i);

      if (op->task != NULL && g_atomic_int_get (&op->cancelled))
        {
          g_autoptr(GTask) task = g_steal_pointer (&op->task);
          g_task_return_error_if_cancelled (task);
        }
    }
}

static void
start_async (PscCache           *self,
             gboolean            graphics,
             const void         *info,
             GCancellable       *cancellable,
             GAsyncReadyCallback callback,
             gpointer            user_data,
             gpointer            source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  PscAsyncOp *op;
  PscCoreError core_error;
  PscCoreRequestState state = PSC_CORE_PENDING;
  VkPipeline pipeline = VK_NULL_HANDLE;
  PscStatus status;

  g_task_set_source_tag (task, source_tag);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (self->core == NULL)
    {
      GError *error = NULL;

      psc_error_set_not_open (&error, self->init_error);
      g_task_return_error (task, error);
      return;
    }

  op = g_new0 (PscAsyncOp, 1);
  op->cache = self;
  op->task = g_object_ref (task);
  PSC_CORE_ERROR_INIT (core_error);
  if (graphics)
    status = psc_core_request_graphics (self->core, info, PSC_CORE_MISS_SKIP, 0,
                                        op_ready_cb, op, &pipeline, &state, &core_error);
  else
    status = psc_core_request_compute (self->core, info, PSC_CORE_MISS_SKIP, 0,
                                       op_ready_cb, op, &pipeline, &state, &core_error);

  if (status != PSC_STATUS_OK || state == PSC_CORE_READY)
    {
      /* No waiter was registered: complete now (GTask defers the callback
       * to the next main-context iteration). */
      g_clear_object (&op->task);
      g_free (op);
      if (status != PSC_STATUS_OK)
        {
          GError *error = NULL;
          psc_cache_fail (&error, status, &core_error);
          g_task_return_error (task, error);
        }
      else
        g_task_return_pointer (task, (gpointer) pipeline, NULL);
      return;
    }

  /* Pending (a stale or fallback pipeline is not what was asked for). */
  if (cancellable != NULL)
    {
      op->cancellable = g_object_ref (cancellable);
      op->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (op_cancelled_cb), op, NULL);
    }
  g_ptr_array_add (self->pending, op);
}

static VkPipeline
finish_async (PscCache      *self,
              GAsyncResult  *result,
              gpointer       source_tag,
              GError       **error)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), VK_NULL_HANDLE);
  g_return_val_if_fail (g_task_is_valid (result, self), VK_NULL_HANDLE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, VK_NULL_HANDLE);
  return (VkPipeline) g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * psc_cache_get_graphics_pipeline_async: (skip)
 * @self: a cache
 * @info: the create info, as for [method@Psc.Cache.get_graphics_pipeline];
 *   it is canonicalized before this returns
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the pipeline is Ready, has failed, or the request
 *   was cancelled
 * @user_data: data for @callback
 *
 * Requests a graphics pipeline for an application that iterates a
 * #GMainContext on the cache's owner thread (the thread-default context when
 * this is called). The compile runs on a worker; the result is published by
 * [method@Psc.Cache.begin_frame] and @callback then runs in that context.
 * Cancelling @cancellable, from any thread, takes effect at the next
 * [method@Psc.Cache.begin_frame]: the task then completes with
 * %G_IO_ERROR_CANCELLED (it completes exactly once either way). A pending
 * task keeps the cache alive: keep pumping until it completes, or close the
 * cache ([method@Psc.Cache.close]), which completes it with
 * %PSC_ERROR_CLOSED.
 *
 * Since: 0.1
 */
void
psc_cache_get_graphics_pipeline_async (PscCache                           *self,
                                       const VkGraphicsPipelineCreateInfo *info,
                                       GCancellable                       *cancellable,
                                       GAsyncReadyCallback                 callback,
                                       gpointer                            user_data)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  g_return_if_fail (info != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  start_async (self, TRUE, info, cancellable, callback, user_data,
               psc_cache_get_graphics_pipeline_async);
}

/**
 * psc_cache_get_graphics_pipeline_finish: (skip)
 * @self: a cache
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@Psc.Cache.get_graphics_pipeline_async]. Besides the
 * errors of [method@Psc.Cache.request_graphics_pipeline], the task fails
 * with %PSC_ERROR_VULKAN (its message names the driver's `VkResult`) when
 * the compile failed, %PSC_ERROR_DISCARDED when a hot reload replaced a
 * shader it uses before it was ready, %PSC_ERROR_CLOSED when the cache was
 * closed first, and %G_IO_ERROR_CANCELLED when it was cancelled. Any thread
 * may call it (it reads only @result).
 *
 * Returns: the pipeline (borrowed, see [class@Psc.Cache]), or
 *   `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_get_graphics_pipeline_finish (PscCache      *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return finish_async (self, result, psc_cache_get_graphics_pipeline_async, error);
}

/**
 * psc_cache_get_compute_pipeline_async: (skip)
 * @self: a cache
 * @info: the create info, as for [method@Psc.Cache.get_compute_pipeline]
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * The compute counterpart of
 * [method@Psc.Cache.get_graphics_pipeline_async].
 *
 * Since: 0.1
 */
void
psc_cache_get_compute_pipeline_async (PscCache                          *self,
                                      const VkComputePipelineCreateInfo *info,
                                      GCancellable                      *cancellable,
                                      GAsyncReadyCallback                callback,
                                      gpointer                           user_data)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  g_return_if_fail (info != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  start_async (self, FALSE, info, cancellable, callback, user_data,
               psc_cache_get_compute_pipeline_async);
}

/**
 * psc_cache_get_compute_pipeline_finish: (skip)
 * @self: a cache
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@Psc.Cache.get_compute_pipeline_async], with the errors
 * of [method@Psc.Cache.get_graphics_pipeline_finish].
 *
 * Returns: the pipeline, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_get_compute_pipeline_finish (PscCache      *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  return finish_async (self, result, psc_cache_get_compute_pipeline_async, error);
}

/**
 * psc_cache_set_fallback: (skip)
 * @self: a cache
 * @fallback: a Ready graphics pipeline of this cache (for example an
 *   ubershader)
 * @error: return location for a #GError
 *
 * Registers @fallback for every graphics request with the same pipeline
 * layout and rendering state (attachment formats, view mask and sample
 * count, or compatibility pass and subpass): requests with
 * %PSC_MISS_POLICY_FALLBACK get it while their own pipeline compiles. The
 * fallback is pinned; registering another one for the same state unpins
 * the previous one.
 *
 * Returns: %TRUE, or %FALSE with @error set (%PSC_ERROR_FOREIGN_HANDLE if
 *   @fallback is not a Ready graphics pipeline of this cache)
 *
 * Since: 0.1
 */
gboolean
psc_cache_set_fallback (PscCache    *self,
                        VkPipeline   fallback,
                        GError     **error)
{
  PscCoreError core_error;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, FALSE);
  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_set_fallback (self->core, fallback, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_clear_failures:
 * @self: a cache
 *
 * Forgets every Failed pipeline, so the next request for it compiles again.
 * Owner thread only (rule (b)): from another thread it is a programming
 * error (a critical, nothing happens). It does nothing on a cache that is
 * closed or not open.
 *
 * Since: 0.1
 */
void
psc_cache_clear_failures (PscCache *self)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return;
  psc_core_clear_failures (self->core);
}

/**
 * psc_cache_replace_shader: (skip)
 * @self: a cache
 * @module: a module from [method@Psc.Cache.register_shader] (or an earlier
 *   replacement)
 * @code: the new SPIR-V words
 * @code_size: the size of @code in bytes
 * @old_pool: the application's per-shader descriptor pool for the old
 *   module, or `VK_NULL_HANDLE`; the cache takes it over and destroys it
 *   (and so its sets) once the GPU has passed every frame that may use it
 * @error: return location for a #GError
 *
 * Hot reload, in one ordered operation on the owner thread: the shader
 * keeps its id and its generation increases; @old_pool is retired; pipelines
 * of the old generation that are still compiling are discarded (their
 * waiters are called with `VK_INCOMPLETE`, and a result that arrives later
 * is never published); Ready ones are kept and flagged stale.
 *
 * Requests naming the new handle ask for the new generation and compile
 * again. The old handle names the shader at its new generation too, until
 * the next [method@Psc.Cache.begin_frame]; from then on it is no handle of
 * this cache (requests naming it fail with %PSC_ERROR_FOREIGN_HANDLE) and
 * the old module is destroyed once no compile job uses it. @code is
 * checked like registered code (malformed SPIR-V is refused, naming the
 * word, and nothing changes). Until the new pipeline is Ready, an
 * asynchronous request may return the previous generation's pipeline,
 * flagged %PSC_REQUEST_RESULT_STALE; the previous generation is retired once
 * the new one is published, or when it falls idle (eviction). Prepared keys
 * naming the module become stale: prepare them again.
 *
 * Returns: the new module, or `VK_NULL_HANDLE` with @error set (the cache is
 *   then unchanged)
 *
 * Since: 0.1
 */
VkShaderModule
psc_cache_replace_shader (PscCache          *self,
                          VkShaderModule     module,
                          const guint32     *code,
                          gsize              code_size,
                          VkDescriptorPool   old_pool,
                          GError           **error)
{
  PscCoreError core_error;
  VkShaderModule new_module = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  g_return_val_if_fail (module != VK_NULL_HANDLE, VK_NULL_HANDLE);
  g_return_val_if_fail (code != NULL, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_replace_shader (self->core, module, code, code_size, old_pool,
                                    &new_module, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return VK_NULL_HANDLE;
    }
  return new_module;
}

/**
 * psc_cache_replace_shader_bytes:
 * @self: a cache
 * @shader_id: a shader id from [method@Psc.Cache.register_shader_bytes]
 * @spirv: the new SPIR-V
 * @error: return location for a #GError
 *
 * [method@Psc.Cache.replace_shader] for bindings: the shader is named by its
 * id, and no descriptor pool is handed over.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
psc_cache_replace_shader_bytes (PscCache  *self,
                                guint      shader_id,
                                GBytes    *spirv,
                                GError   **error)
{
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE, new_module = VK_NULL_HANDLE;
  PscStatus status;
  gsize size = 0;
  const guint32 *words;
  g_autofree guint32 *owned = NULL;

  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (spirv != NULL, FALSE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_shader_module_for_id (self->core, shader_id, &module,
                                          &core_error);
  if (status == PSC_STATUS_OK)
    {
      words = psc_spirv_words (spirv, &size, &owned);
      status = psc_core_replace_shader (self->core, module, words, size,
                                        VK_NULL_HANDLE, &new_module, &core_error);
    }
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_evict:
 * @self: a cache
 * @idle_frames: evict pipelines not requested for more than this many frames
 *   (never fewer than %PSC_BORROW_FRAMES)
 *
 * Evicts Ready, unpinned pipelines that have been idle: they leave the cache
 * at once and are destroyed once the GPU timeline passes them (see
 * [method@Psc.Cache.begin_frame]). Owner thread only (rule (b)): from
 * another thread it is a programming error (a critical; nothing is
 * evicted).
 *
 * Returns: how many pipelines were evicted (0 on a cache that is closed or
 *   not open)
 *
 * Since: 0.1
 */
guint
psc_cache_evict (PscCache *self,
                 guint     idle_frames)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return 0;
  return psc_core_evict (self->core, idle_frames);
}
