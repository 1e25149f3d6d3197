/* requests.c: the one request path of graphics and compute pipelines (see
 * requests.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "requests.h"

#include "feedback.h"

#include "async.h"
#include "events.h"
#include "graphics-key.h"
#include "keys.h"
#include "resolver.h"
#include "retire.h"
#include "shaders.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>
#include <unistd.h>

#include <volk.h>

/* ------------------------------------------------------------------------
 * Creating a pipeline from its key (on the owner thread, or as a job).
 */
static size_t
build_size (void)
{
  const size_t g = psc_graphics_build_size (), c = psc_compute_build_size ();
  return g > c ? g : c;
}

/* Decodes a key into b; NULL when a shader, layout or pass it names no
 * longer resolves. */
static const void *
decode (PscCore *core, PscKind kind, const uint8_t *key, size_t len, void *b)
{
  if (kind == PSC_KIND_GRAPHICS)
    return psc_decode_graphics (key, len, &core->resolver, b);
  return psc_decode_compute (key, len, &core->resolver, b);
}

static const char *
create_call (PscKind kind)
{
  return kind == PSC_KIND_GRAPHICS ? "vkCreateGraphicsPipelines" : "vkCreateComputePipelines";
}

static PscStatus
create_pipeline (PscCore *core, PscKind kind, const uint8_t *key, size_t len, VkPipeline *out,
                 PscCoreError *err)
{
  *out = VK_NULL_HANDLE;
  if (core->inject_failures > 0)
    {
      core->inject_failures--;
      return psc_core_fail_vk (err, core->inject_result, create_call (kind));
    }
  void *b = psc_build_alloc (build_size ());
  if (b == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  const void *ci = decode (core, kind, key, len, b);
  PscStatus st = PSC_STATUS_OK;
  VkResult r = VK_SUCCESS;
  const bool feedback = core->cfg.api_version >= VK_API_VERSION_1_3;
  PscFeedback fb;
  if (ci == NULL)
    st = psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                        "the key names a shader, layout or render pass that no longer exists");
  else if (kind == PSC_KIND_GRAPHICS)
    r = core->vk->vkCreateGraphicsPipelines (core->cfg.device, core->driver_cache, 1,
                                             psc_feedback_chain (&fb, feedback, true, ci),
                                             core->cfg.allocator, out);
  else
    r = core->vk->vkCreateComputePipelines (core->cfg.device, core->driver_cache, 1,
                                            psc_feedback_chain (&fb, feedback, false, ci),
                                            core->cfg.allocator, out);
  if (r != VK_SUCCESS)
    {
      *out = VK_NULL_HANDLE;
      st = psc_core_fail_vk (err, r, create_call (kind));
    }
  else if (ci != NULL)
    {
      psc_feedback_count (&fb, feedback, &core->stats.driver_cache_hits,
                          &core->stats.driver_cache_misses);
      core->sync_creations++;
      core->last_feedback = feedback ? fb.pipeline : (VkPipelineCreationFeedback) { 0 };
    }
  free (b);
  return st;
}

/* ------------------------------------------------------------------------
 * Waiters and their callbacks.
 */
static bool
add_waiter (PscCore *core, PscEntry *e, PscCoreReadyFn fn, void *context)
{
  if (fn == NULL)
    return true;
  const uint32_t w = core->free_waiter;
  if (w == PSC_NONE)
    return false;
  core->free_waiter = core->waiters[w].next;
  core->waiters[w] = (PscWaiter) { fn, context, PSC_NONE };
  if (e->pipe.waiter_tail == PSC_NONE)
    e->pipe.waiter_head = w;
  else
    core->waiters[e->pipe.waiter_tail].next = w;
  e->pipe.waiter_tail = w;
  return true;
}

/* Moves an entry's waiters to the dispatch list. A node stays allocated
 * until its callback has run, so the list (one slot per node) cannot
 * overflow. */
static void
queue_waiters (PscCore *core, PscEntry *e, VkPipeline p, VkResult r)
{
  uint32_t w = e->pipe.waiter_head;
  while (w != PSC_NONE)
    {
      const uint32_t next = core->waiters[w].next;
      core->dispatch[core->dispatch_count++] = (PscDispatch) { w, p, r };
      w = next;
    }
  e->pipe.waiter_head = e->pipe.waiter_tail = PSC_NONE;
}

/* Calls (or, without an owner thread, drops) every queued callback. The
 * buffers swap first: a callback may request again, and what it queues is
 * called at a later pump. */
static void
dispatch (PscCore *core, bool call)
{
  PscDispatch *list = core->dispatch;
  const uint32_t n = core->dispatch_count;
  core->dispatch = core->dispatch_spare;
  core->dispatch_spare = list;
  core->dispatch_count = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      PscWaiter *node = &core->waiters[list[i].node];
      const PscCoreReadyFn fn = node->fn;
      void *context = node->context;
      node->fn = NULL;
      node->next = core->free_waiter;
      core->free_waiter = list[i].node;
      if (!call)
        continue;
      psc_stat_add (&core->stats.waiters_served, 1);
      /* A callback before this one may have closed the cache: the pipeline
       * it would hand out is destroyed, so this waiter learns of the close
       * instead. */
      if (core->closed)
        fn (context, VK_NULL_HANDLE, VK_INCOMPLETE);
      else
        fn (context, list[i].pipeline, list[i].result);
    }
}

/* ------------------------------------------------------------------------
 * Entries.
 */
/* The pipeline part of a new entry (the one place it is initialized): it
 * names the shaders its key names. */
static void
init_pipeline_entry (PscCore *core, PscKind kind, uint32_t index)
{
  PscEntry *e = psc_core_entry (core, kind, index);
  e->state = PSC_ENTRY_COMPILING;
  e->last_used_frame = core->frame;
  e->pipe.job = PSC_NONE;
  e->pipe.waiter_head = e->pipe.waiter_tail = PSC_NONE;
  uint32_t gens[PSC_MAX_GRAPHICS_STAGES];
  int n = psc_pipeline_key_shaders (e->key, e->key_len, e->pipe.shader_ids, gens, NULL);
  e->pipe.shader_count = n > 0 ? (uint8_t) n : 0;
  psc_shaders_add_pipeline (core, e);
  psc_stat_add (&core->stats.kinds[kind].entries, 1);
  psc_core_update_bytes (core, kind);
}

static uint32_t
entry_id (const PscCore *core, PscKind kind, uint32_t index)
{
  return psc_store_id (core->stores[kind], index);
}

/* The Ready entry an id names (predecessors, fallbacks), or NULL. */
static PscEntry *
ready_entry (const PscCore *core, PscKind kind, uint32_t id)
{
  uint32_t i;
  if (id == 0 || !psc_store_index_of_id (core->stores[kind], id, &i))
    return NULL;
  PscEntry *e = psc_core_entry (core, kind, i);
  return e->state == PSC_ENTRY_READY ? e : NULL;
}

static void
cancel_job (PscCore *core, PscEntry *e)
{
  if (e->pipe.job == PSC_NONE)
    return;
  /* The slot is given back when its completion arrives (a queued job is
   * still taken by a worker, which sees the flag and skips the compile). */
  psc_workers_cancel (core->workers, e->pipe.job);
  e->pipe.job = PSC_NONE;
}

void
psc_requests_discard (PscCore *core, PscKind kind, uint32_t index)
{
  PscEntry *e = psc_core_entry (core, kind, index);
  cancel_job (core, e);
  queue_waiters (core, e, VK_NULL_HANDLE, VK_INCOMPLETE);
  psc_core_forget_entry (core, kind, index);
}

/* A new generation was published: the stale previous one goes (after the
 * borrowed-handle window), unless the application pinned it. */
static void
retire_predecessor (PscCore *core, PscKind kind, PscEntry *e)
{
  const uint32_t pred = e->pipe.pred;
  e->pipe.pred = 0;
  PscEntry *p = ready_entry (core, kind, pred);
  if (p != NULL && p->stale && p->pins == 0)
    psc_retire_entry (core, kind, psc_store_index (core->stores[kind], p));
}

static void
publish_ready (PscCore *core, PscKind kind, uint32_t index, VkPipeline pipeline)
{
  PscStore *s = core->stores[kind];
  PscEntry *e = psc_store_entry (s, index);
  e->state = PSC_ENTRY_READY;
  e->pipe.job = PSC_NONE;
  e->last_used_frame = core->frame;
  /* Out of memory for the handle map: the pipeline still answers through
   * its key, but cannot be pinned or named as a fallback. */
  psc_store_map (s, index, (uint64_t) pipeline);
  e->handle = (uint64_t) pipeline;
  /* The slot answers hits from now on; the entry's death clears it. */
  psc_store_set_answer (s, index, (uint64_t) pipeline);
  psc_core_name_object (core, kind, (uint64_t) pipeline, entry_id (core, kind, index));
  queue_waiters (core, e, pipeline, VK_SUCCESS);
  retire_predecessor (core, kind, e);
}

static void
publish_failed (PscCore *core, PscKind kind, uint32_t index, VkResult r)
{
  PscEntry *e = psc_core_entry (core, kind, index);
  e->state = PSC_ENTRY_FAILED;
  e->pipe.failure = r;
  e->pipe.job = PSC_NONE;
  core->failed_count++;
  psc_stat_add (&core->stats.failed, 1);
  queue_waiters (core, e, VK_NULL_HANDLE, r);
}

/* Creates an entry's pipeline now on the owner thread (WAIT, or an
 * overflowing critical request). A Compiling entry is published with it,
 * its job cancelled and its waiters completed. */
static PscStatus
create_now (PscCore *core, PscKind kind, uint32_t index, VkPipeline *out, PscCoreError *err)
{
  PscCoreError local;
  if (err == NULL)
    err = &local;
  PscEntry *e = psc_core_entry (core, kind, index);
  VkPipeline p;
  const uint64_t t0 = psc_now_ns ();
  PscStatus st = create_pipeline (core, kind, e->key, e->key_len, &p, err);
  const uint64_t dt = psc_now_ns () - t0;
  psc_stat_add (&core->stats.owner_wait_ns, dt);
  e = psc_core_entry (core, kind, index);
  if (st != PSC_STATUS_OK)
    {
      if (st == PSC_STATUS_VULKAN)
        {
          cancel_job (core, e);
          publish_failed (core, kind, index, err->vk_result);
        }
      return st;
    }
  psc_stat_add (&core->stats.kinds[kind].creations, 1);
  psc_stat_add (&core->stats.kinds[kind].creation_ns, dt);
  cancel_job (core, e);
  publish_ready (core, kind, index, p);
  *out = p;
  return PSC_STATUS_OK;
}

/* ------------------------------------------------------------------------
 * Jobs.
 */
/* Decodes the entry's key into a job, pins the modules its create info
 * names, and queues it. */
static PscStatus
enqueue_job (PscCore *core, PscKind kind, uint32_t index, uint32_t flags, PscCoreError *err)
{
  uint32_t slot;
  bool full;
  PscJob *job = psc_workers_take (core->workers, build_size (), &slot, &full);
  if (job == NULL)
    return psc_core_fail (err, full ? PSC_STATUS_QUEUE_FULL : PSC_STATUS_FAILED, "",
                          full ? "the job queue is full" : "out of memory");
  PscEntry *e = psc_core_entry (core, kind, index);
  job->create_info = decode (core, kind, e->key, e->key_len, job->build);
  if (job->create_info == NULL)
    {
      psc_workers_give_back (core->workers, slot);
      return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                            "the key names a shader, layout or render pass that no longer exists");
    }
  job->graphics = kind == PSC_KIND_GRAPHICS;
  if (job->graphics)
    {
      const VkGraphicsPipelineCreateInfo *ci = job->create_info;
      for (uint32_t i = 0; i < ci->stageCount; i++)
        job->modules[job->module_count++] = ci->pStages[i].module;
    }
  else
    job->modules[job->module_count++] =
      ((const VkComputePipelineCreateInfo *) job->create_info)->stage.module;
  /* The generations the job compiles, checked again at publication. */
  psc_pipeline_key_shaders (e->key, e->key_len, job->shader_ids, job->shader_gens, NULL);
  job->kind = (uint8_t) kind;
  job->entry = entry_id (core, kind, index);
  job->low = (flags & PSC_CORE_REQUEST_PREWARM) != 0;
  if (core->inject_failures > 0)
    {
      core->inject_failures--;
      job->inject = core->inject_result;
    }
  PscStatus st = psc_workers_submit (core->workers, slot, err);
  if (st != PSC_STATUS_OK)
    {
      psc_workers_give_back (core->workers, slot);
      return st;
    }
  for (uint32_t i = 0; i < job->module_count; i++)
    psc_shaders_pin (core, job->modules[i]);
  e->pipe.job = slot;
  return PSC_STATUS_OK;
}

static void
release_job (PscCore *core, uint32_t slot)
{
  PscJob *job = psc_workers_job (core->workers, slot);
  for (uint32_t i = 0; i < job->module_count; i++)
    psc_shaders_unpin (core, job->modules[i]);
  psc_workers_give_back (core->workers, slot);
}

/* Publication accepts a result only for a live entry still waiting for this
 * job, compiled from the shader generations that are current (a hot reload
 * normally discards such entries first). Anything else was never handed
 * out and is destroyed now. */
static void
consume_completion (PscCore *core, const PscCompletion *c)
{
  const PscJob *job = psc_workers_job (core->workers, c->job);
  const PscKind kind = (PscKind) job->kind;
  uint32_t index = 0;
  bool live = !atomic_load (&job->cancelled) &&
              psc_store_index_of_id (core->stores[kind], job->entry, &index) &&
              psc_core_entry (core, kind, index)->state == PSC_ENTRY_COMPILING &&
              psc_core_entry (core, kind, index)->pipe.job == c->job;
  bool current = live;
  for (uint32_t i = 0; current && i < psc_core_entry (core, kind, index)->pipe.shader_count; i++)
    current = psc_shader_current (core, job->shader_ids[i], job->shader_gens[i]);
  if (!current)
    {
      if (c->pipeline != VK_NULL_HANDLE)
        core->vk->vkDestroyPipeline (core->cfg.device, c->pipeline, core->cfg.allocator);
      psc_stat_add (&core->stats.stale_discards, 1);
      if (live)
        psc_requests_discard (core, kind, index);
    }
  else if (c->result == VK_SUCCESS)
    {
      psc_stat_add (&core->stats.completed, 1);
      psc_stat_add (&core->stats.kinds[kind].creations, 1);
      publish_ready (core, kind, index, c->pipeline);
      psc_events_pipeline (core, PSC_CORE_EVENT_PIPELINE_READY,
                           psc_core_entry (core, kind, index), VK_SUCCESS);
    }
  else
    {
      publish_failed (core, kind, index, c->result);
      psc_events_pipeline (core, PSC_CORE_EVENT_PIPELINE_FAILED,
                           psc_core_entry (core, kind, index), c->result);
    }
  release_job (core, c->job);
}

void
psc_requests_pump (PscCore *core)
{
  /* Bounded per frame: only completions present when the pump starts, and
   * no more once the time budget is spent (at least one); the rest wait for
   * the next pump while workers go on compiling. */
  const uint32_t budget = psc_workers_done (core->workers);
  const uint64_t start = budget ? psc_now_ns () : 0;
  PscCompletion c;
  for (uint32_t done = 0; done < budget; done++)
    {
      if (done > 0 && core->publish_budget_ns != 0 &&
          psc_now_ns () - start > core->publish_budget_ns)
        break;
      if (!psc_workers_next_done (core->workers, &c))
        break;
      consume_completion (core, &c);
    }
  /* Waiters run after every record of this pump was published. */
  psc_shaders_sweep (core);
  dispatch (core, true);
}

void
psc_requests_shutdown (PscCore *core, bool call_waiters)
{
  if (core->workers == NULL)
    return;
  psc_workers_stop (core->workers);
  PscCompletion c;
  while (psc_workers_next_done (core->workers, &c))
    {
      /* None of these was ever published. */
      if (c.pipeline != VK_NULL_HANDLE)
        core->vk->vkDestroyPipeline (core->cfg.device, c.pipeline, core->cfg.allocator);
      psc_stat_add (&core->stats.stale_discards, 1);
      release_job (core, c.job);
    }
  /* Jobs never taken by a worker. */
  for (uint32_t j = 0; j < psc_workers_capacity (core->workers); j++)
    if (atomic_load (&psc_workers_job (core->workers, j)->state) != PSC_JOB_FREE)
      release_job (core, j);
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    {
      PscStore *s = core->stores[k];
      for (uint32_t pos = 0; pos < psc_store_live_count (s); pos++)
        {
          PscEntry *e = psc_store_entry (s, psc_store_live_at (s, pos));
          e->pipe.job = PSC_NONE;
          queue_waiters (core, e, VK_NULL_HANDLE, VK_INCOMPLETE);
        }
    }
  dispatch (core, call_waiters);
}

/* ------------------------------------------------------------------------
 * What a request gets while its pipeline compiles.
 */
static bool
find_fallback (PscCore *core, const PscEntry *e, VkPipeline *out)
{
  if (e->kind != PSC_KIND_GRAPHICS || psc_table_count (core->fallbacks) == 0)
    return false;
  uint8_t sig[128];
  size_t n = 0;
  if (!psc_graphics_key_rendering_signature (e->key, e->key_len, sig, &n))
    return false;
  const PscTableItem *item = psc_table_find (core->fallbacks, psc_core_hash (core, sig, n), sig, n);
  PscEntry *f = item != NULL ? ready_entry (core, PSC_KIND_GRAPHICS, item->value) : NULL;
  if (f == NULL)
    return false;
  f->last_used_frame = core->frame;
  *out = (VkPipeline) f->handle;
  return true;
}

static PscCoreRequestState
interim_result (PscCore *core, PscKind kind, const PscEntry *e, PscCoreMissPolicy policy,
                VkPipeline *out)
{
  PscEntry *p = ready_entry (core, kind, e->pipe.pred);
  if (p != NULL)
    {
      p->last_used_frame = core->frame;
      *out = (VkPipeline) p->handle;
      psc_stat_add (&core->stats.stale_returned, 1);
      return PSC_CORE_STALE;
    }
  if (policy == PSC_CORE_MISS_FALLBACK && find_fallback (core, e, out))
    {
      psc_stat_add (&core->stats.fallbacks_returned, 1);
      return PSC_CORE_FALLBACK;
    }
  *out = VK_NULL_HANDLE;
  return PSC_CORE_PENDING;
}

/* A key whose shaders were reloaded: the Ready entry of an earlier
 * generation, newest of the last PSC_PREDECESSOR_DEPTH (a second reload may
 * have discarded the generation in between before it was published), as an
 * id; 0 if none. */
#define PSC_PREDECESSOR_DEPTH 8

static uint32_t
find_predecessor (PscCore *core, PscKind kind, const PscEntry *e)
{
  uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
  size_t offs[PSC_MAX_GRAPHICS_STAGES];
  const int n = psc_pipeline_key_shaders (e->key, e->key_len, ids, gens, offs);
  uint32_t newest = 0;
  for (int i = 0; i < n; i++)
    newest = gens[i] > newest ? gens[i] : newest;
  if (newest == 0)
    return 0;
  uint8_t prev[PSC_MAX_KEY_BYTES];
  const size_t len = e->key_len;
  memcpy (prev, e->key, len);
  for (uint32_t back = 1; back <= PSC_PREDECESSOR_DEPTH && back <= newest; back++)
    {
      for (int i = 0; i < n; i++)
        {
          const uint32_t g = gens[i] > back ? gens[i] - back : 0;
          memcpy (prev + offs[i], &g, sizeof g);
        }
      const PscTableItem *item = psc_store_find (core->stores[kind], psc_core_hash (core, prev, len),
                                                 prev, len, NULL);
      if (item != NULL && psc_core_entry (core, kind, item->value)->state == PSC_ENTRY_READY)
        return entry_id (core, kind, item->value);
    }
  return 0;
}

static PscStatus
queue_full (PscCore *core, const char *what, PscCoreError *err)
{
  psc_stat_add (&core->stats.overflow_skips, 1);
  return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_QUEUE_FULL, "",
                                               "the %s is full: the request was skipped "
                                               "(mark it critical to create it synchronously)",
                                               what));
}

/* A Compiling entry's request under WAIT (or an overflowing critical one):
 * create it now; an entry this request made is discarded if that fails
 * without a Vulkan result to remember. */
static PscStatus
wait_for (PscCore *core, PscKind kind, uint32_t index, bool made_here, VkPipeline *out,
          PscCoreRequestState *state, PscCoreError *err)
{
  PscStatus st = create_now (core, kind, index, out, err);
  if (st != PSC_STATUS_OK)
    {
      if (made_here && psc_core_entry (core, kind, index)->state == PSC_ENTRY_COMPILING)
        psc_requests_discard (core, kind, index);
      return psc_core_reject (core, st);
    }
  *state = PSC_CORE_READY;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_request_entry (PscCore *core, PscKind kind, uint32_t index, PscCoreMissPolicy policy,
                        uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                        PscCoreRequestState *state, PscCoreError *err)
{
  /* No Ready object answered it: a miss (its job already exists). */
  psc_stat_add (&core->stats.kinds[kind].misses, 1);
  if (policy == PSC_CORE_MISS_WAIT)
    return wait_for (core, kind, index, false, out, state, err);
  PscEntry *e = psc_core_entry (core, kind, index);
  /* A demand request for what prewarm queued: it waits behind no other
   * job any more. */
  if (!(flags & PSC_CORE_REQUEST_PREWARM) && e->pipe.job != PSC_NONE)
    psc_workers_promote (core->workers, e->pipe.job);
  if (!add_waiter (core, e, fn, context))
    {
      if (!(flags & PSC_CORE_REQUEST_CRITICAL))
        return queue_full (core, "waiter pool", err);
      psc_stat_add (&core->stats.overflow_fallbacks, 1);
      return wait_for (core, kind, index, false, out, state, err);
    }
  *state = interim_result (core, kind, e, policy, out);
  return PSC_STATUS_OK;
}

static PscStatus
failed_earlier (PscCore *core, const PscEntry *e, PscCoreError *err)
{
  psc_core_fail (err, PSC_STATUS_VULKAN, "",
                 "an earlier compile of this pipeline failed with %s; it is not retried "
                 "until a shader it uses is reloaded or failures are cleared",
                 psc_vk_result_name ((VkResult) e->pipe.failure));
  if (err != NULL)
    err->vk_result = (VkResult) e->pipe.failure;
  return psc_core_reject (core, PSC_STATUS_VULKAN);
}

/* Cache off: every request creates a pipeline of its own (WAIT semantics
 * whatever the policy); it is recorded untabled, destroyed with the cache
 * or once nothing can reach it. */
static PscStatus
request_pass_through (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                      uint64_t hash, VkPipeline *out, PscCoreRequestState *state,
                      PscCoreError *err)
{
  psc_stat_add (&core->stats.kinds[kind].misses, 1);
  uint32_t index;
  PscStatus st = psc_store_add (core->stores[kind], hash, key, len, &index, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  init_pipeline_entry (core, kind, index);
  st = wait_for (core, kind, index, true, out, state, err);
  if (st == PSC_STATUS_OK)
    *state = PSC_CORE_READY;
  return st;
}

/* A miss: a Compiling entry where the probe says, then WAIT creates it
 * now, SKIP and FALLBACK queue its job. */
static PscStatus
request_miss (PscCore *core, PscKind kind, const uint8_t *key, size_t len, uint64_t hash,
              const PscProbe *probe, PscCoreMissPolicy policy, uint32_t flags,
              PscCoreReadyFn fn, void *context, VkPipeline *out, PscCoreRequestState *state,
              uint32_t *index_out, PscCoreError *err)
{
  psc_stat_add (&core->stats.kinds[kind].misses, 1);
  const bool critical = (flags & PSC_CORE_REQUEST_CRITICAL) != 0;
  const bool async = policy != PSC_CORE_MISS_WAIT;
  const bool overflow = async && (psc_workers_free_slots (core->workers) == 0 ||
                                  (fn != NULL && core->free_waiter == PSC_NONE));
  if (overflow && !critical)
    return queue_full (core, psc_workers_free_slots (core->workers) == 0 ? "job queue"
                                                                          : "waiter pool", err);
  uint32_t index;
  PscStatus st = psc_store_reserve (core->stores[kind], hash, probe, key, len, &index, err);
  if (st != PSC_STATUS_OK)
    {
      if (st == PSC_STATUS_CAPACITY)
        psc_stat_add (&core->stats.capacity_failures, 1);
      return psc_core_reject (core, st);
    }
  init_pipeline_entry (core, kind, index);
  if (core->cfg.demand_miss != NULL && !(flags & PSC_CORE_REQUEST_PREWARM))
    core->cfg.demand_miss (core->cfg.demand_miss_ctx, kind, key, len);
  PscEntry *e = psc_core_entry (core, kind, index);
  e->pipe.pred = find_predecessor (core, kind, e);
  if (index_out != NULL)
    *index_out = index;
  if (!async || overflow)
    {
      if (overflow)
        psc_stat_add (&core->stats.overflow_fallbacks, 1);
      return wait_for (core, kind, index, true, out, state, err);
    }
  st = enqueue_job (core, kind, index, flags, err);
  if (st != PSC_STATUS_OK)
    {
      psc_requests_discard (core, kind, index);
      if (index_out != NULL)
        *index_out = PSC_NONE;
      return psc_core_reject (core, st);
    }
  e = psc_core_entry (core, kind, index);
  add_waiter (core, e, fn, context);
  *state = interim_result (core, kind, e, policy, out);
  return PSC_STATUS_OK;
}

/* The request once its key was looked up: item is the slot that matched,
 * or NULL and probe says where the key would go. */
static PscStatus
request_found (PscCore *core, PscKind kind, const uint8_t *key, size_t len, uint64_t hash,
               const PscTableItem *item, const PscProbe *probe, PscCoreMissPolicy policy,
               uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
               PscCoreRequestState *state, uint32_t *index_out, PscCoreError *err)
{
  if (item == NULL)
    return request_miss (core, kind, key, len, hash, probe, policy, flags, fn, context, out,
                         state, index_out, err);
  const uint32_t index = item->value;
  PscEntry *e = psc_core_entry (core, kind, index);
  if (index_out != NULL)
    *index_out = index;
  if (e->state == PSC_ENTRY_READY)
    {
      e->last_used_frame = core->frame;
      psc_stat_add (&core->stats.kinds[kind].hits, 1);
      *out = (VkPipeline) e->handle;
      *state = PSC_CORE_READY;
      return PSC_STATUS_OK;
    }
  if (e->state == PSC_ENTRY_FAILED)
    return failed_earlier (core, e, err);
  return psc_core_request_entry (core, kind, index, policy, flags, fn, context, out, state, err);
}

PscStatus
psc_core_request_key (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                      uint64_t hash, PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn,
                      void *context, VkPipeline *out, PscCoreRequestState *state,
                      uint32_t *index_out, PscCoreError *err)
{
  *out = VK_NULL_HANDLE;
  *state = PSC_CORE_PENDING;
  if (index_out != NULL)
    *index_out = PSC_NONE;
  if (core->cfg.pass_through)
    return request_pass_through (core, kind, key, len, hash, out, state, err);
  PscProbe probe;
  const PscTableItem *item = psc_store_find (core->stores[kind], hash, key, len, &probe);
  return request_found (core, kind, key, len, hash, item, &probe, policy, flags, fn, context,
                        out, state, index_out, err);
}

/* A pipeline request once its key is written: hash it once and answer the
 * common case inline, a Ready entry: the table slot itself holds a Ready
 * entry's handle (publish_ready sets it, the entry's death clears it) and
 * the hit's frame goes to the dense hit_frame array, so the entry is not
 * touched. Anything else goes on with the probe that missed (one probe per
 * request). */
static inline __attribute__((always_inline)) PscStatus
request_key (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
             PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn, void *context,
             VkPipeline *out, PscCoreRequestState *state, PscCoreError *err)
{
  const uint64_t hash = psc_core_hash (core, key, len);
  if (__builtin_expect (!core->cfg.pass_through, 1))
    {
      PscStore *s = core->stores[kind];
      PscProbe probe;
      const PscTableItem *item = psc_store_find (s, hash, key, len, &probe);
      if (__builtin_expect (item != NULL && item->aux != 0, 1))
        {
          s->hit_frame[item->value] = core->frame;
          psc_stat_add (&core->stats.kinds[kind].hits, 1);
          *out = (VkPipeline) item->aux;
          *state = PSC_CORE_READY;
          return PSC_STATUS_OK;
        }
      *out = VK_NULL_HANDLE;
      *state = PSC_CORE_PENDING;
      return request_found (core, kind, key, len, hash, item, &probe, policy, flags, fn,
                            context, out, state, NULL, err);
    }
  return psc_core_request_key (core, kind, key, len, hash, policy, flags, fn, context, out,
                               state, NULL, err);
}

static inline __attribute__((always_inline)) PscStatus
request_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                  PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn, void *context,
                  VkPipeline *out, PscCoreRequestState *state, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  if (__builtin_expect (st != PSC_STATUS_OK, 0))
    return psc_core_reject (core, st);
  return request_key (core, PSC_KIND_GRAPHICS, w.data, w.len, policy, flags, fn, context, out,
                      state, err);
}

/* The application's VkPipelineCreationFeedbackCreateInfo in a request's
 * chain (accepted by the encoders, never keyed), or NULL. */
static inline VkPipelineCreationFeedbackCreateInfo *
app_feedback (const void *pnext)
{
  for (const VkBaseInStructure *n = pnext; n != NULL; n = n->pNext)
    if (PSC_UNLIKELY (n->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO))
      return (VkPipelineCreationFeedbackCreateInfo *) (void *) n;
  return NULL;
}

/* Fills it after the request: the driver's feedback when the request
 * created the pipeline now; VALID and APPLICATION_PIPELINE_CACHE_HIT when
 * the cache answered with a Ready pipeline (nothing was compiled); flags 0
 * (not valid) otherwise: the pipeline compiles on a worker, or failed. The
 * stage feedbacks are 0 (not asked of the driver). */
static void
fill_feedback (PscCore *core, VkPipelineCreationFeedbackCreateInfo *fb, PscStatus st,
               PscCoreRequestState state, uint64_t creations_before)
{
  VkPipelineCreationFeedback f = { 0 };
  if (st == PSC_STATUS_OK && core->sync_creations != creations_before)
    f = core->last_feedback;
  else if (st == PSC_STATUS_OK && state == PSC_CORE_READY)
    f.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
              VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
  *fb->pPipelineCreationFeedback = f;
  for (uint32_t i = 0; i < fb->pipelineStageCreationFeedbackCount; i++)
    fb->pPipelineStageCreationFeedbacks[i] = (VkPipelineCreationFeedback) { 0 };
}

PscStatus
psc_core_request_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                           PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn,
                           void *context, VkPipeline *out, PscCoreRequestState *state,
                           PscCoreError *err)
{
  VkPipelineCreationFeedbackCreateInfo *fb = ci != NULL ? app_feedback (ci->pNext) : NULL;
  const uint64_t before = core->sync_creations;
  PscStatus st = request_graphics (core, ci, policy, flags, fn, context, out, state, err);
  if (PSC_UNLIKELY (fb != NULL))
    fill_feedback (core, fb, st, *state, before);
  return st;
}

PscStatus
psc_core_request_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                          PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn,
                          void *context, VkPipeline *out, PscCoreRequestState *state,
                          PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_compute (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  const uint64_t before = core->sync_creations;
  st = request_key (core, PSC_KIND_COMPUTE, w.data, w.len, policy, flags, fn, context, out,
                    state, err);
  VkPipelineCreationFeedbackCreateInfo *fb = app_feedback (ci->pNext);
  if (PSC_UNLIKELY (fb != NULL))
    fill_feedback (core, fb, st, *state, before);
  return st;
}

PscStatus
psc_core_get_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci, VkPipeline *out,
                       PscCoreError *err)
{
  PscCoreRequestState state;
  return psc_core_request_graphics (core, ci, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state,
                                    err);
}

PscStatus
psc_core_get_compute (PscCore *core, const VkComputePipelineCreateInfo *ci, VkPipeline *out,
                      PscCoreError *err)
{
  PscCoreRequestState state;
  return psc_core_request_compute (core, ci, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state, err);
}

PscStatus
psc_core_graphics_key_size (PscCore *core, const VkGraphicsPipelineCreateInfo *ci, size_t *size,
                            PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  *size = w.len;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_key_hash (PscCore *core, PscKind kind, const void *ci, uint64_t *hash, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = kind == PSC_KIND_GRAPHICS
    ? psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err)
    : psc_encode_compute (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  *hash = psc_core_hash (core, w.data, w.len);
  return PSC_STATUS_OK;
}

/* ------------------------------------------------------------------------
 * Fallbacks and failures.
 */
PscStatus
psc_core_set_fallback (PscCore *core, VkPipeline fallback, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscStore *s = core->stores[PSC_KIND_GRAPHICS];
  PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_GRAPHICS, (uint64_t) fallback);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "fallback",
                                                 "is not a Ready graphics pipeline of this cache"));
  uint8_t sig[128];
  size_t n = 0;
  if (!psc_graphics_key_rendering_signature (e->key, e->key_len, sig, &n))
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "fallback",
                                                 "internal error: no rendering signature"));
  const uint32_t id = psc_store_id (s, psc_store_index (s, e));
  const uint64_t hash = psc_core_hash (core, sig, n);
  PscTableItem *item = (PscTableItem *) psc_table_find (core->fallbacks, hash, sig, n);
  if (item != NULL)
    {
      if (item->value == id)
        return PSC_STATUS_OK;
      PscEntry *old = ready_entry (core, PSC_KIND_GRAPHICS, item->value);
      if (old != NULL && old->pins > 0)
        old->pins--;
      item->value = id;
    }
  else
    {
      PscStatus st = psc_table_insert (core->fallbacks, hash, sig, n, id, NULL, err);
      if (st != PSC_STATUS_OK)
        return psc_core_reject (core, st);
    }
  e->pins++;
  return PSC_STATUS_OK;
}

void
psc_core_clear_failures (PscCore *core)
{
  if (!psc_core_check_thread (core, NULL))
    return;
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE && core->failed_count > 0; k++)
    {
      PscStore *s = core->stores[k];
      PscLiveWalk walk = psc_store_walk (s);
      for (uint32_t i; psc_live_next (&walk, &i);)
        if (psc_store_entry (s, i)->state == PSC_ENTRY_FAILED)
          psc_requests_discard (core, (PscKind) k, i);
    }
}

/* ------------------------------------------------------------------------
 * Setup.
 */
static uint32_t
default_workers (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 1 ? (uint32_t) (n - 1) : 1;
}

static void
name_worker_cache (void *ctx, VkPipelineCache cache, uint32_t index)
{
  psc_core_name_raw (ctx, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t) cache,
                     "worker pipeline cache", index);
}

PscStatus
psc_requests_init (PscCore *core, PscCoreError *err)
{
  const PscCoreConfig *cfg = &core->cfg;
  core->waiter_capacity = cfg->waiter_capacity ? cfg->waiter_capacity : 4096;
  core->publish_budget_ns = cfg->publish_budget_us == UINT32_MAX ? 0
    : (uint64_t) (cfg->publish_budget_us ? cfg->publish_budget_us : 50) * 1000u;
  core->inject_failures = cfg->hooks.fail_compiles;
  core->inject_result = cfg->hooks.fail_result;
  core->waiters = calloc (core->waiter_capacity, sizeof *core->waiters);
  core->dispatch = calloc (core->waiter_capacity, sizeof *core->dispatch);
  core->dispatch_spare = calloc (core->waiter_capacity, sizeof *core->dispatch_spare);
  core->fallbacks = psc_table_new ();
  if (!core->waiters || !core->dispatch || !core->dispatch_spare || !core->fallbacks)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  for (uint32_t i = 0; i < core->waiter_capacity; i++)
    core->waiters[i].next = i + 1 < core->waiter_capacity ? i + 1 : PSC_NONE;
  core->free_waiter = 0;

  PscWorkersConfig wc = {
    .device = cfg->device,
    .vk = core->vk,
    .allocator = cfg->allocator,
    .main_cache = core->driver_cache,
    /* Per-worker caches start empty: a cache that loaded data shares it. */
    .shared_cache = core->driver_data_loaded > 0,
    .threads = cfg->workers ? cfg->workers : default_workers (),
    /* Prewarm: at most a quarter of the workers (Steam's background
     * replay uses a quarter of the cores), at least one. */
    .low_threads = (cfg->workers ? cfg->workers : default_workers ()) / 4,
    .capacity = cfg->job_capacity ? cfg->job_capacity : 256,
    .plant_race = cfg->hooks.plant_race,
    .feedback = cfg->api_version >= VK_API_VERSION_1_3,
    .cache_hits = &core->stats.driver_cache_hits,
    .cache_misses = &core->stats.driver_cache_misses,
    .queued = &core->stats.queued,
    .in_flight = &core->stats.in_flight,
    .unpublished = &core->stats.unpublished,
    .name_cache = name_worker_cache,
    .name_ctx = core,
  };
  core->workers = psc_workers_new (&wc, err);
  return core->workers != NULL ? PSC_STATUS_OK : PSC_STATUS_FAILED;
}

void
psc_requests_free (PscCore *core)
{
  psc_workers_free (core->workers);
  core->workers = NULL;
  free (core->waiters);
  free (core->dispatch);
  free (core->dispatch_spare);
  psc_table_free (core->fallbacks);
}

bool
psc_core_pipeline_key (PscCore *core, VkPipeline pipeline, PscKind *kind, const uint8_t **key,
                       size_t *len)
{
  if (!psc_core_check_thread (core, NULL) || pipeline == VK_NULL_HANDLE)
    return false;
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    {
      uint32_t index;
      if (!psc_store_index_of_handle (core->stores[k], (uint64_t) pipeline, &index))
        continue;
      const PscEntry *e = psc_core_entry (core, (PscKind) k, index);
      if (e->state != PSC_ENTRY_READY || e->key == NULL)
        return false;
      *kind = (PscKind) k;
      *key = e->key;
      *len = e->key_len;
      return true;
    }
  return false;
}
