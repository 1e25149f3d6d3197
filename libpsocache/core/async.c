/* async.c: the bounded asynchronous state machine (seed 000, "State machine
 * and asynchronous compilation"; DESIGN decisions 6 and 11).
 *
 * Pipeline entries move Absent -> Compiling(generation N) -> Ready(N) ->
 * Retiring (retire.c), or Compiling -> Discarded (hot reload, or a
 * synchronous request that created the pipeline first), or Compiling ->
 * Failed (the driver refused; not retried until a shader it uses is
 * reloaded or psc_core_clear_failures is called).
 *
 * Threads. Everything here runs on the owner thread except worker_main.
 * Workers only read their immutable job (decoded create info, pinned
 * modules), compile it with a VkPipelineCache checked out of the pool, and
 * post a completion record; they never touch entries, tables or counters
 * other than the queued/in-flight gauges.
 *
 * Bounded queues (full / empty / overflow / producers-consumers /
 * cancellation / shutdown):
 *  - job slots + job ring: capacity job_capacity (default 256). Owner
 *    produces, workers consume. Full: a CRITICAL request is created
 *    synchronously (counted as an overflow fallback), any other is refused
 *    with PSC_STATUS_QUEUE_FULL (counted as an overflow skip) and the cache
 *    is unchanged. Empty: workers sleep on a condition variable.
 *    Cancellation: the owner sets job->cancelled; a worker skips a cancelled
 *    job and the pump discards any result. Shutdown: workers exit without
 *    taking more jobs; queued jobs are discarded by the owner.
 *  - completions: one per job slot (same capacity), so never full. Workers
 *    produce, the pump consumes.
 *  - pipeline-cache pool: PSC_CACHES_PER_WORKER VkPipelineCache objects per
 *    worker. A worker checks one out with each job and gives it back only
 *    inside its completion record; the pump merges it into the main driver
 *    cache and returns it to the pool. Empty: workers wait for the pump.
 *  - waiters: a pool of waiter_capacity (default 4096) nodes linked per
 *    entry. Full: same overflow policy as the job queue. Every waiter is
 *    moved to the dispatch list exactly once (ready, failed, discarded or
 *    shutdown) and called from the pump.
 *  - dispatch list: at most waiter_capacity pending callbacks (each comes
 *    from one waiter node), double-buffered so callbacks may make new
 *    requests; those complete at a later pump.
 *  - collision buckets: table.c (PSC_COLLISION_BUCKET_CAPACITY).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NONE UINT32_MAX

/* ------------------------------------------------------------------------
 * Workers.
 */
static void *
worker_main (void *data)
{
  PscCore *core = data;
  PscHandoff *h = &core->handoff;

  pthread_mutex_lock (&h->lock);
  for (;;)
    {
      /* A worker needs a job and a free cache. Caches travel back only in
       * completion records, which the pump consumes: when every cache is
       * out, workers wait for the next pump. */
      while ((h->job_count == 0 || h->free_cache_count == 0) && !h->shutdown)
        pthread_cond_wait (&h->work, &h->lock);
      if (h->shutdown)
        break;
      uint32_t ji = h->job_ring[h->job_head];
      h->job_head = (h->job_head + 1) % core->job_capacity;
      h->job_count--;
      uint32_t ci = h->free_caches[--h->free_cache_count];
      PscJob *job = &core->jobs[ji];
      atomic_store (&job->state, PSC_JOB_RUNNING);
      /* A job moves queued -> in_flight -> unpublished: each step leaves
       * its stage before it enters the next (seq_cst), and
       * psc_core_read_stats reads the stages last to first, so one
       * snapshot never counts a job twice. */
      atomic_fetch_sub_explicit (&core->stats.queued, 1, memory_order_seq_cst);
      atomic_fetch_add_explicit (&core->stats.in_flight, 1, memory_order_seq_cst);
      pthread_mutex_unlock (&h->lock);

      VkPipeline pipeline = VK_NULL_HANDLE;
      VkResult r;
      if (atomic_load (&job->cancelled))
        r = VK_INCOMPLETE;
      else if (job->inject != VK_SUCCESS)
        r = job->inject;
      else if (job->kind == PSC_KIND_GRAPHICS)
        r = core->vk->vkCreateGraphicsPipelines (core->cfg.device, h->caches[ci], 1,
                                                 job->create_info, core->cfg.allocator, &pipeline);
      else
        r = core->vk->vkCreateComputePipelines (core->cfg.device, h->caches[ci], 1,
                                                job->create_info, core->cfg.allocator, &pipeline);
      if (r != VK_SUCCESS)
        pipeline = VK_NULL_HANDLE;

      pthread_mutex_lock (&h->lock);
      PscCompletion *c = &h->done_ring[(h->done_head + h->done_count) % core->job_capacity];
      c->job = ji;
      c->cache = ci;
      c->result = r;
      if (core->cfg.hooks.plant_race)
        {
          /* Test hook only: publish the record, then write its pipeline
           * outside the lock. ThreadSanitizer must report this. */
          h->done_count++;
          atomic_store (&job->state, PSC_JOB_DONE);
          atomic_fetch_sub_explicit (&core->stats.in_flight, 1, memory_order_seq_cst);
          atomic_fetch_add_explicit (&core->stats.unpublished, 1, memory_order_seq_cst);
          pthread_mutex_unlock (&h->lock);
          c->pipeline = pipeline;
          /* Synchronize with nothing until the pump has consumed the record,
           * so the race is there on every run, whatever the timing. */
          while (atomic_load_explicit (&job->state, memory_order_relaxed) == PSC_JOB_DONE &&
                 !h->shutdown)
            usleep (50);
          pthread_mutex_lock (&h->lock);
          continue;
        }
      c->pipeline = pipeline;
      h->done_count++;
      atomic_store (&job->state, PSC_JOB_DONE);
      atomic_fetch_sub_explicit (&core->stats.in_flight, 1, memory_order_seq_cst);
      atomic_fetch_add_explicit (&core->stats.unpublished, 1, memory_order_seq_cst);
    }
  pthread_mutex_unlock (&h->lock);
  return NULL;
}

static uint32_t
default_workers (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 1 ? (uint32_t) (n - 1) : 1;
}

PscStatus
psc_async_init (PscCore *core, PscCoreError *err)
{
  core->job_capacity = core->cfg.job_capacity ? core->cfg.job_capacity : 256;
  core->waiter_capacity = core->cfg.waiter_capacity ? core->cfg.waiter_capacity : 4096;
  core->worker_count = core->cfg.workers ? core->cfg.workers : default_workers ();
  core->publish_budget_ns = core->cfg.publish_budget_us == UINT32_MAX ? 0
    : (uint64_t) (core->cfg.publish_budget_us ? core->cfg.publish_budget_us : 50) * 1000u;

  PscHandoff *h = &core->handoff;
  core->jobs = calloc (core->job_capacity, sizeof *core->jobs);
  core->free_jobs = calloc (core->job_capacity, sizeof *core->free_jobs);
  core->waiters = calloc (core->waiter_capacity, sizeof *core->waiters);
  core->dispatch = calloc (core->waiter_capacity, sizeof *core->dispatch);
  core->dispatch_spare = calloc (core->waiter_capacity, sizeof *core->dispatch_spare);
  h->job_ring = calloc (core->job_capacity, sizeof *h->job_ring);
  h->done_ring = calloc (core->job_capacity, sizeof *h->done_ring);
  core->cache_count = core->worker_count * PSC_CACHES_PER_WORKER;
  h->caches = calloc (core->cache_count, sizeof *h->caches);
  h->free_caches = calloc (core->cache_count, sizeof *h->free_caches);
  core->threads = calloc (core->worker_count, sizeof *core->threads);
  core->module_pins = psc_handle_map_new ();
  core->fallbacks = psc_table_new ();
  if (!core->jobs || !core->free_jobs || !core->waiters || !core->dispatch ||
      !core->dispatch_spare || !h->job_ring || !h->done_ring || !h->caches ||
      !h->free_caches || !core->threads || !core->module_pins || !core->fallbacks)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");

  for (uint32_t i = 0; i < core->job_capacity; i++)
    core->free_jobs[i] = core->job_capacity - 1 - i;
  core->free_job_count = core->job_capacity;
  for (uint32_t i = 0; i < core->waiter_capacity; i++)
    core->waiters[i].next = i + 1 < core->waiter_capacity ? i + 1 : NONE;
  core->free_waiter = 0;

  if (pthread_mutex_init (&h->lock, NULL) != 0 || pthread_cond_init (&h->work, NULL) != 0)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "cannot create the worker queue lock");
  return PSC_STATUS_OK;
}

/* Workers and their caches start with the first asynchronous job, so a
 * cache used only synchronously never starts a thread. */
static PscStatus
start_workers (PscCore *core, PscCoreError *err)
{
  PscHandoff *h = &core->handoff;
  for (uint32_t i = 0; i < core->cache_count; i++)
    {
      VkPipelineCacheCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
      VkResult r = core->vk->vkCreatePipelineCache (core->cfg.device, &pci, core->cfg.allocator,
                                                    &h->caches[i]);
      if (r != VK_SUCCESS)
        return psc_core_fail_vk (err, r, "vkCreatePipelineCache (worker cache)");
      psc_core_name_object (core, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t) h->caches[i],
                            "worker pipeline cache", i);
      h->free_caches[h->free_cache_count++] = i;
    }
  for (uint32_t i = 0; i < core->worker_count; i++)
    {
      if (pthread_create (&core->threads[i], NULL, worker_main, core) != 0)
        {
          if (core->threads_started == 0)
            return psc_core_fail (err, PSC_STATUS_FAILED, "", "cannot start a worker thread");
          break;
        }
      core->threads_started++;
    }
  return PSC_STATUS_OK;
}

/* ------------------------------------------------------------------------
 * Waiters and dispatch.
 */
static bool
add_waiter (PscCore *core, PscEntry *e, PscCoreReadyFn fn, void *context)
{
  if (fn == NULL)
    return true;
  uint32_t w = core->free_waiter;
  if (w == NONE)
    return false;
  core->free_waiter = core->waiters[w].next;
  core->waiters_used++;
  core->waiters[w] = (PscWaiter) { fn, context, NONE };
  if (e->waiter_tail == NONE)
    e->waiter_head = w;
  else
    core->waiters[e->waiter_tail].next = w;
  e->waiter_tail = w;
  return true;
}

void
psc_async_queue_waiters (PscCore *core, PscEntry *e, VkPipeline p, VkResult r)
{
  /* A node stays allocated until its callback has run, so the dispatch list
   * (one slot per node) can never overflow. */
  uint32_t w = e->waiter_head;
  while (w != NONE)
    {
      uint32_t next = core->waiters[w].next;
      core->dispatch[core->dispatch_count++] = (PscDispatch) { w, p, r };
      w = next;
    }
  e->waiter_head = e->waiter_tail = NONE;
}

void
psc_async_dispatch (PscCore *core)
{
  /* Swap buffers first: a callback may request again, and what it queues is
   * dispatched at a later pump. */
  PscDispatch *list = core->dispatch;
  uint32_t n = core->dispatch_count;
  core->dispatch = core->dispatch_spare;
  core->dispatch_spare = list;
  core->dispatch_count = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      PscWaiter *node = &core->waiters[list[i].node];
      PscCoreReadyFn fn = node->fn;
      void *context = node->context;
      node->fn = NULL;
      node->next = core->free_waiter;
      core->free_waiter = list[i].node;
      core->waiters_used--;
      psc_stat_add (&core->stats.waiters_served, 1);
      fn (context, list[i].pipeline, list[i].result);
    }
}

/* ------------------------------------------------------------------------
 * Jobs.
 */
static void
unpin_modules (PscCore *core, PscJob *job)
{
  for (uint32_t i = 0; i < job->module_count; i++)
    {
      uint64_t m = (uint64_t) job->modules[i];
      uint32_t pins = 0;
      if (!psc_handle_map_get (core->module_pins, m, &pins))
        continue;
      if (pins > 1)
        psc_handle_map_set (core->module_pins, m, pins - 1);
      else
        psc_handle_map_remove (core->module_pins, m);
    }
  job->module_count = 0;
}

/* Modules replaced or released while a job used them die once none does;
 * until then their handle keeps resolving to their shader. */
void
psc_async_sweep_modules (PscCore *core)
{
  for (uint32_t i = 0; i < core->doomed_count;)
    {
      uint32_t pins;
      VkShaderModule m = core->doomed_modules[i];
      if (psc_handle_map_get (core->module_pins, (uint64_t) m, &pins))
        {
          i++;
          continue;
        }
      psc_handle_map_remove (core->handles[PSC_KIND_SHADER], (uint64_t) m);
      psc_core_objects_changed (core);
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      core->doomed_modules[i] = core->doomed_modules[--core->doomed_count];
    }
}

static void
free_job (PscCore *core, uint32_t ji)
{
  PscJob *job = &core->jobs[ji];
  unpin_modules (core, job);
  /* The slot keeps its decode storage for the next job: a miss does not
   * allocate once every slot has been used. */
  job->create_info = NULL;
  atomic_store (&job->state, PSC_JOB_FREE);
  atomic_store (&job->cancelled, false);
  core->free_jobs[core->free_job_count++] = ji;
}

static void
cancel_job (PscCore *core, PscEntry *e)
{
  if (e->job == NONE)
    return;
  /* The slot is freed when its completion arrives (a queued job is still
   * taken by a worker, which sees the flag and skips the compile). */
  atomic_store (&core->jobs[e->job].cancelled, true);
  e->job = NONE;
}

/* Decodes the key and pins what the job uses, then queues it. */
static PscStatus
enqueue_job (PscCore *core, PscKind kind, uint32_t index, PscCoreError *err)
{
  PscEntry *e = &core->entries[kind].items[index];
  if (core->threads_started == 0)
    {
      PscStatus st = start_workers (core, err);
      if (st != PSC_STATUS_OK)
        return st;
    }
  uint32_t ji = core->free_jobs[--core->free_job_count];
  PscJob *job = &core->jobs[ji];
  if (job->build == NULL)
    {
      size_t g = psc_graphics_build_size (), c = psc_compute_build_size ();
      job->build = psc_build_alloc (g > c ? g : c);
      if (job->build == NULL)
        {
          core->free_jobs[core->free_job_count++] = ji;
          return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
        }
    }
  if (kind == PSC_KIND_GRAPHICS)
    job->create_info = psc_decode_graphics (e->key, e->key_len, &core->resolver, job->build);
  else
    job->create_info = psc_decode_compute (e->key, e->key_len, &core->resolver, job->build);
  if (job->create_info == NULL)
    {
      core->free_jobs[core->free_job_count++] = ji;
      return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                            "the key names a shader, layout or render pass that no longer exists");
    }
  /* Pin the exact modules the decoded create info names. */
  job->module_count = 0;
  if (kind == PSC_KIND_GRAPHICS)
    {
      const VkGraphicsPipelineCreateInfo *ci = job->create_info;
      for (uint32_t i = 0; i < ci->stageCount; i++)
        job->modules[job->module_count++] = ci->pStages[i].module;
    }
  else
    job->modules[job->module_count++] = ((const VkComputePipelineCreateInfo *) job->create_info)->stage.module;
  for (uint32_t i = 0; i < job->module_count; i++)
    {
      uint32_t pins = 0;
      psc_handle_map_get (core->module_pins, (uint64_t) job->modules[i], &pins);
      psc_handle_map_set (core->module_pins, (uint64_t) job->modules[i], pins + 1);
    }
  memcpy (job->shader_ids, e->shader_ids, sizeof job->shader_ids);
  memcpy (job->shader_gens, e->shader_gens, sizeof job->shader_gens);
  job->entry = index;
  job->kind = (uint8_t) kind;
  job->inject = VK_SUCCESS;
  if (core->inject_failures > 0)
    {
      core->inject_failures--;
      job->inject = core->inject_result;
    }
  atomic_store (&job->cancelled, false);
  atomic_store (&job->state, PSC_JOB_QUEUED);
  e->job = ji;

  PscHandoff *h = &core->handoff;
  pthread_mutex_lock (&h->lock);
  h->job_ring[(h->job_head + h->job_count) % core->job_capacity] = ji;
  h->job_count++;
  atomic_fetch_add_explicit (&core->stats.queued, 1, memory_order_relaxed);
  pthread_cond_signal (&h->work);
  pthread_mutex_unlock (&h->lock);
  return PSC_STATUS_OK;
}

/* ------------------------------------------------------------------------
 * Publication.
 */
static void
retire_predecessor (PscCore *core, PscKind kind, PscEntry *e)
{
  if (e->pred == NONE)
    return;
  PscEntry *p = &core->entries[kind].items[e->pred];
  uint32_t pi = e->pred;
  e->pred = NONE;
  if (p->state == PSC_ENTRY_READY && p->stale && p->pins == 0)
    psc_retire_entry (core, kind, pi);
}

static void
publish_ready (PscCore *core, PscKind kind, uint32_t index, VkPipeline pipeline)
{
  PscEntry *e = &core->entries[kind].items[index];
  e->handle = (uint64_t) pipeline;
  e->state = PSC_ENTRY_READY;
  e->job = NONE;
  e->last_used_frame = core->frame;
  /* The slot answers hits from now on (request_key in pipelines.c); retirement and
   * discarding remove the slot, so it never outlives the Ready state. */
  if (!e->owned_key)
    psc_table_set_aux (core->tables[kind], e->hash, e->key, e->key_len, (uint64_t) pipeline);
  psc_handle_map_set (core->handles[kind], (uint64_t) pipeline, index);
  psc_core_name_object (core, VK_OBJECT_TYPE_PIPELINE, (uint64_t) pipeline,
                        kind == PSC_KIND_GRAPHICS ? "graphics pipeline" : "compute pipeline",
                        index + 1);
  psc_async_queue_waiters (core, e, pipeline, VK_SUCCESS);
  retire_predecessor (core, kind, e);
}

static void
publish_failed (PscCore *core, PscKind kind, uint32_t index, VkResult r)
{
  PscEntry *e = &core->entries[kind].items[index];
  e->state = PSC_ENTRY_FAILED;
  e->failure = r;
  e->job = NONE;
  psc_stat_add (&core->stats.failed, 1);
  psc_async_queue_waiters (core, e, VK_NULL_HANDLE, r);
}

static void
consume_completion (PscCore *core, const PscCompletion *c)
{
  PscJob *job = &core->jobs[c->job];
  PscKind kind = (PscKind) job->kind;
  PscEntry *e = &core->entries[kind].items[job->entry];
  bool live = !atomic_load (&job->cancelled) && e->state == PSC_ENTRY_COMPILING &&
             e->job == c->job;
  /* Publication accepts a result only for the generations it was compiled
   * from (hot reload normally discards such entries first). */
  bool current = live;
  for (uint32_t i = 0; current && i < job->module_count && i < e->shader_count; i++)
    {
      uint32_t id = job->shader_ids[i];
      if (id == 0 || id > core->entries[PSC_KIND_SHADER].len ||
          core->entries[PSC_KIND_SHADER].items[id - 1].generation != job->shader_gens[i])
        current = false;
    }
  if (!current)
    {
      /* Stale or cancelled: never published, never handed out, so the
       * handle can be destroyed now. */
      if (c->pipeline != VK_NULL_HANDLE)
        core->vk->vkDestroyPipeline (core->cfg.device, c->pipeline, core->cfg.allocator);
      psc_stat_add (&core->stats.stale_discards, 1);
      if (live)
        psc_async_discard_entry (core, kind, job->entry);
    }
  else if (c->result == VK_SUCCESS)
    {
      psc_stat_add (&core->stats.completed, 1);
      psc_stat_add (&core->stats.kinds[kind].creations, 1);
      publish_ready (core, kind, job->entry, c->pipeline);
    }
  else
    publish_failed (core, kind, job->entry, c->result);
  free_job (core, c->job);
}

void
psc_async_pump (PscCore *core)
{
  PscHandoff *h = &core->handoff;
  if (core->threads_started == 0)
    {
      psc_async_sweep_modules (core);
      psc_async_dispatch (core);
      return;
    }
  /* Publication is bounded per frame: only completions present when the pump
   * starts, and no more once the time budget is spent (at least one is
   * always consumed); the rest wait for the next pump. Workers keep
   * compiling meanwhile (up to PSC_CACHES_PER_WORKER results each). */
  pthread_mutex_lock (&h->lock);
  uint32_t budget = h->done_count;
  pthread_mutex_unlock (&h->lock);
  const uint64_t start = budget ? psc_now_ns () : 0;
  for (uint32_t done = 0; done < budget; done++)
    {
      if (done > 0 && core->publish_budget_ns != 0 &&
          psc_now_ns () - start > core->publish_budget_ns)
        break;
      PscCompletion c;
      pthread_mutex_lock (&h->lock);
      c = h->done_ring[h->done_head];
      h->done_head = (h->done_head + 1) % core->job_capacity;
      h->done_count--;
      atomic_fetch_sub_explicit (&core->stats.unpublished, 1, memory_order_relaxed);
      pthread_mutex_unlock (&h->lock);
      /* The worker gave its cache back inside the completion: merge it into
       * the main driver cache, then return it to the pool. */
      VkPipelineCache wc = h->caches[c.cache];
      core->vk->vkMergePipelineCaches (core->cfg.device, core->driver_cache, 1, &wc);
      pthread_mutex_lock (&h->lock);
      h->free_caches[h->free_cache_count++] = c.cache;
      pthread_cond_broadcast (&h->work);
      pthread_mutex_unlock (&h->lock);
      consume_completion (core, &c);
    }
  /* Waiters run after every record of this pump was published. */
  psc_async_sweep_modules (core);
  psc_async_dispatch (core);
}

void
psc_async_shutdown (PscCore *core, bool call_waiters)
{
  PscHandoff *h = &core->handoff;
  if (core->jobs == NULL)
    return;
  if (core->threads_started > 0)
    {
      pthread_mutex_lock (&h->lock);
      h->shutdown = true;
      pthread_cond_broadcast (&h->work);
      pthread_mutex_unlock (&h->lock);
      for (uint32_t i = 0; i < core->threads_started; i++)
        pthread_join (core->threads[i], NULL);
      core->threads_started = 0;
      /* Drain and discard completions: none of these was ever published. */
      while (h->done_count > 0)
        {
          PscCompletion *c = &h->done_ring[h->done_head];
          h->done_head = (h->done_head + 1) % core->job_capacity;
          h->done_count--;
          atomic_fetch_sub_explicit (&core->stats.unpublished, 1, memory_order_relaxed);
          if (c->pipeline != VK_NULL_HANDLE)
            core->vk->vkDestroyPipeline (core->cfg.device, c->pipeline, core->cfg.allocator);
          psc_stat_add (&core->stats.stale_discards, 1);
          h->free_caches[h->free_cache_count++] = c->cache;
          free_job (core, c->job);
        }
      h->job_count = 0;
      atomic_store (&core->stats.queued, 0);
    }
  /* Jobs never taken by a worker, and every waiter still registered. */
  for (uint32_t ji = 0; ji < core->job_capacity; ji++)
    if (atomic_load (&core->jobs[ji].state) != PSC_JOB_FREE)
      free_job (core, ji);
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    for (uint32_t i = 0; i < core->entries[k].len; i++)
      {
        PscEntry *e = &core->entries[k].items[i];
        if (e->waiter_head != NONE)
          psc_async_queue_waiters (core, e, VK_NULL_HANDLE, VK_INCOMPLETE);
        if (e->state == PSC_ENTRY_COMPILING)
          e->state = PSC_ENTRY_DEAD;
      }
  if (call_waiters)
    psc_async_dispatch (core);
  else
    core->dispatch_count = 0;   /* no owner thread to call them on */
  for (uint32_t i = 0; i < core->cache_count && h->caches != NULL; i++)
    if (h->caches[i] != VK_NULL_HANDLE)
      core->vk->vkDestroyPipelineCache (core->cfg.device, h->caches[i], core->cfg.allocator);
  for (uint32_t i = 0; i < core->doomed_count; i++)
    core->vk->vkDestroyShaderModule (core->cfg.device, core->doomed_modules[i], core->cfg.allocator);
  core->doomed_count = 0;
}

void
psc_async_free (PscCore *core)
{
  PscHandoff *h = &core->handoff;
  if (core->jobs != NULL)
    {
      pthread_mutex_destroy (&h->lock);
      pthread_cond_destroy (&h->work);
    }
  for (uint32_t i = 0; core->jobs != NULL && i < core->job_capacity; i++)
    free (core->jobs[i].build);
  free (core->jobs);
  free (core->free_jobs);
  free (core->waiters);
  free (core->dispatch);
  free (core->dispatch_spare);
  free (h->job_ring);
  free (h->done_ring);
  free (h->caches);
  free (h->free_caches);
  free (core->threads);
  free (core->doomed_modules);
  psc_handle_map_free (core->module_pins);
  psc_table_free (core->fallbacks);
}

void
psc_async_discard_entry (PscCore *core, PscKind kind, uint32_t index)
{
  PscEntry *e = &core->entries[kind].items[index];
  cancel_job (core, e);
  psc_async_queue_waiters (core, e, VK_NULL_HANDLE, VK_INCOMPLETE);
  if (!e->owned_key)
    psc_table_remove (core->tables[kind], e->hash, e->key, e->key_len);
  e->state = PSC_ENTRY_DEAD;
  e->pred = NONE;
  psc_core_ready_changed (core);
  psc_stat_add (&core->stats.kinds[kind].entries, (uint64_t) -1);
}

/* ------------------------------------------------------------------------
 * Requests.
 */

/* The signature a fallback is registered under: layout + rendering state. */
static PscStatus
fallback_signature (const uint8_t *key, size_t len, uint8_t *out, size_t *out_len)
{
  return psc_graphics_key_rendering_signature (key, len, out, out_len) ? PSC_STATUS_OK
                                                                      : PSC_STATUS_FAILED;
}

static bool
find_fallback (PscCore *core, PscKind kind, const PscEntry *e, VkPipeline *out)
{
  if (kind != PSC_KIND_GRAPHICS || psc_table_count (core->fallbacks) == 0)
    return false;
  uint8_t sig[128];
  size_t n = 0;
  if (fallback_signature (e->key, e->key_len, sig, &n) != PSC_STATUS_OK)
    return false;
  const PscTableItem *item = psc_table_find (core->fallbacks, psc_key_hash (sig, n), sig, n);
  if (item == NULL)
    return false;
  PscEntry *f = &core->entries[PSC_KIND_GRAPHICS].items[item->value];
  if (f->state != PSC_ENTRY_READY)
    return false;
  f->last_used_frame = core->frame;
  *out = (VkPipeline) f->handle;
  return true;
}

/* What a SKIP/FALLBACK request gets while its entry compiles. */
static PscCoreRequestState
interim_result (PscCore *core, PscKind kind, PscEntry *e, PscCoreMissPolicy policy, VkPipeline *out)
{
  if (e->pred != NONE)
    {
      PscEntry *p = &core->entries[kind].items[e->pred];
      if (p->state == PSC_ENTRY_READY)
        {
          p->last_used_frame = core->frame;
          *out = (VkPipeline) p->handle;
          psc_stat_add (&core->stats.stale_returned, 1);
          return PSC_CORE_STALE;
        }
    }
  if (policy == PSC_CORE_MISS_FALLBACK && find_fallback (core, kind, e, out))
    {
      psc_stat_add (&core->stats.fallbacks_returned, 1);
      return PSC_CORE_FALLBACK;
    }
  *out = VK_NULL_HANDLE;
  return PSC_CORE_PENDING;
}

/* Creates an entry's pipeline now on the owner thread (WAIT policy, or an
 * overflowing critical request). A Compiling entry is published with it,
 * its job cancelled and its waiters completed. */
static PscStatus
create_now (PscCore *core, PscKind kind, uint32_t index, VkPipeline *out, PscCoreError *err)
{
  PscCoreError local;
  if (err == NULL)
    err = &local;
  PscEntry *e = &core->entries[kind].items[index];
  uint64_t handle = 0;
  uint64_t t0 = psc_now_ns ();
  PscStatus st;
  if (core->inject_failures > 0)
    {
      core->inject_failures--;
      st = psc_core_fail_vk (err, core->inject_result,
                             kind == PSC_KIND_GRAPHICS ? "vkCreateGraphicsPipelines"
                                                       : "vkCreateComputePipelines");
    }
  else
    st = psc_core_create_pipeline (core, kind, e->key, e->key_len, &handle, err);
  uint64_t dt = psc_now_ns () - t0;
  psc_stat_add (&core->stats.owner_wait_ns, dt);
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
  publish_ready (core, kind, index, (VkPipeline) handle);
  *out = (VkPipeline) handle;
  return PSC_STATUS_OK;
}

/* Finds a previous generation's entry of a key, if one of its shaders was
 * reloaded and such an entry is still Ready: the newest of the last
 * PSC_PREDECESSOR_DEPTH generations (a second reload may have discarded the
 * generation in between before it was ever published). */
#define PSC_PREDECESSOR_DEPTH 8

static uint32_t
find_predecessor (PscCore *core, PscKind kind, const uint8_t *key, size_t len)
{
  uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
  size_t offs[PSC_MAX_GRAPHICS_STAGES];
  int n = psc_pipeline_key_shaders (key, len, ids, gens, offs);
  uint32_t newest = 0;
  for (int i = 0; i < n; i++)
    newest = gens[i] > newest ? gens[i] : newest;
  if (newest == 0)
    return NONE;
  uint8_t prev[PSC_MAX_KEY_BYTES];
  memcpy (prev, key, len);
  for (uint32_t back = 1; back <= PSC_PREDECESSOR_DEPTH && back <= newest; back++)
    {
      for (int i = 0; i < n; i++)
        {
          uint32_t g = gens[i] > back ? gens[i] - back : 0;
          memcpy (prev + offs[i], &g, sizeof g);
        }
      const PscTableItem *item = psc_table_find (core->tables[kind],
                                                 psc_core_hash (core, prev, len), prev, len);
      if (item != NULL && core->entries[kind].items[item->value].state == PSC_ENTRY_READY)
        return item->value;
    }
  return NONE;
}

static PscStatus
overflow (PscCore *core, PscKind kind, uint32_t index, bool inserted, uint32_t flags,
          VkPipeline *out, PscCoreRequestState *state, const char *what, PscCoreError *err)
{
  if (flags & PSC_CORE_REQUEST_CRITICAL)
    {
      psc_stat_add (&core->stats.overflow_fallbacks, 1);
      PscStatus st = create_now (core, kind, index, out, err);
      if (st != PSC_STATUS_OK)
        {
          if (inserted && core->entries[kind].items[index].state == PSC_ENTRY_COMPILING)
            psc_async_discard_entry (core, kind, index);
          return psc_core_reject (core, st);
        }
      *state = PSC_CORE_READY;
      return PSC_STATUS_OK;
    }
  psc_stat_add (&core->stats.overflow_skips, 1);
  if (inserted)
    psc_async_discard_entry (core, kind, index);
  return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_QUEUE_FULL, "",
                                               "the %s is full: the request was skipped "
                                               "(mark it critical to create it synchronously)",
                                               what));
}

/* Records a new Compiling entry for key. */
static PscStatus
insert_compiling (PscCore *core, PscKind kind, uint64_t hash, const uint8_t *key, size_t len,
                  uint32_t *index, PscCoreError *err)
{
  PscEntryVec *v = &core->entries[kind];
  const PscTableItem *item = NULL;
  PscStatus st = psc_table_insert (core->tables[kind], hash, key, len, v->len, &item, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return st;
  PscEntry e = {
    .hash = hash,
    .key = item->key,
    .key_len = item->key_len,
    .last_used_frame = core->frame,
    .state = PSC_ENTRY_COMPILING,
    .kind = (uint8_t) kind,
    .refs = 1,
    .job = NONE,
    .waiter_head = NONE,
    .waiter_tail = NONE,
    .pred = NONE,
  };
  int n = psc_pipeline_key_shaders (item->key, item->key_len, e.shader_ids, e.shader_gens, NULL);
  e.shader_count = n > 0 ? (uint8_t) n : 0;
  uint32_t idx = psc_entries_push (v, &e);
  if (idx == NONE)
    {
      psc_table_remove (core->tables[kind], hash, key, len);
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
    }
  psc_stat_add (&core->stats.kinds[kind].entries, 1);
  psc_core_update_bytes (core, kind);
  *index = idx;
  return PSC_STATUS_OK;
}

/* A request that found its key Compiling. */
PscStatus
psc_core_request_entry (PscCore *core, PscKind kind, uint32_t idx, PscCoreMissPolicy policy,
                        uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                        PscCoreRequestState *state, PscCoreError *err)
{
  PscEntry *e = &core->entries[kind].items[idx];
  /* No Ready object answered it: a miss (the job already exists). */
  psc_stat_add (&core->stats.kinds[kind].misses, 1);
  if (policy == PSC_CORE_MISS_WAIT)
    {
      PscStatus st = create_now (core, kind, idx, out, err);
      if (st != PSC_STATUS_OK)
        return psc_core_reject (core, st);
      *state = PSC_CORE_READY;
      return PSC_STATUS_OK;
    }
  if (!add_waiter (core, e, fn, context))
    return overflow (core, kind, idx, false, flags, out, state, "waiter pool", err);
  *state = interim_result (core, kind, e, policy, out);
  return PSC_STATUS_OK;
}

PscStatus
psc_core_request_key (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                      uint64_t hash, PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn, void *context,
                      VkPipeline *out, PscCoreRequestState *state, uint32_t *index_out,
                      PscCoreError *err)
{
  PscAtomicKindStats *ks = &core->stats.kinds[kind];
  *out = VK_NULL_HANDLE;
  *state = PSC_CORE_PENDING;
  if (index_out != NULL)
    *index_out = NONE;

  if (core->cfg.pass_through)
    {
      /* Cache off: every request creates (WAIT semantics whatever the policy). */
      uint64_t h = 0;
      PscStatus st = psc_core_get_or_create (core, kind, key, len, psc_pipeline_create_fn (kind),
                                             &h, NULL, err);
      *out = (VkPipeline) h;
      *state = PSC_CORE_READY;
      return st;
    }

  const PscTableItem *item = psc_table_find (core->tables[kind], hash, key, len);
  if (item != NULL)
    {
      uint32_t idx = item->value;
      PscEntry *e = &core->entries[kind].items[idx];
      if (index_out != NULL)
        *index_out = idx;
      if (__builtin_expect (e->state == PSC_ENTRY_READY, 1))
        {
          e->last_used_frame = core->frame;
          psc_stat_add (&ks->hits, 1);
          *out = (VkPipeline) e->handle;
          *state = PSC_CORE_READY;
          return PSC_STATUS_OK;
        }
      if (e->state == PSC_ENTRY_FAILED)
        {
          psc_core_fail (err, PSC_STATUS_VULKAN, "",
                         "an earlier compile of this pipeline failed with %s; it is not retried "
                         "until a shader it uses is reloaded or failures are cleared",
                         psc_vk_result_name ((VkResult) e->failure));
          if (err != NULL)
            err->vk_result = (VkResult) e->failure;
          return psc_core_reject (core, PSC_STATUS_VULKAN);
        }
      return psc_core_request_entry (core, kind, idx, policy, flags, fn, context, out, state,
                                     err);
    }

  /* Miss. */
  psc_stat_add (&ks->misses, 1);
  if (psc_table_bucket_size (core->tables[kind], hash) >= PSC_COLLISION_BUCKET_CAPACITY)
    {
      psc_stat_add (&core->stats.capacity_failures, 1);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "",
          "collision bucket full: %u distinct pipeline keys already share hash 0x%016llx",
          (unsigned) PSC_COLLISION_BUCKET_CAPACITY, (unsigned long long) hash));
    }
  uint32_t idx = NONE;
  PscStatus st = insert_compiling (core, kind, hash, key, len, &idx, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  if (index_out != NULL)
    *index_out = idx;
  PscEntry *e = &core->entries[kind].items[idx];
  e->pred = find_predecessor (core, kind, e->key, e->key_len);

  if (policy == PSC_CORE_MISS_WAIT)
    {
      st = create_now (core, kind, idx, out, err);
      if (st != PSC_STATUS_OK)
        {
          if (core->entries[kind].items[idx].state == PSC_ENTRY_COMPILING)
            psc_async_discard_entry (core, kind, idx);
          return psc_core_reject (core, st);
        }
      *state = PSC_CORE_READY;
      return PSC_STATUS_OK;
    }

  if (core->free_job_count == 0)
    return overflow (core, kind, idx, true, flags, out, state, "job queue", err);
  if (fn != NULL && core->free_waiter == NONE)
    return overflow (core, kind, idx, true, flags, out, state, "waiter pool", err);
  st = enqueue_job (core, kind, idx, err);
  if (st != PSC_STATUS_OK)
    {
      psc_async_discard_entry (core, kind, idx);
      return psc_core_reject (core, st);
    }
  e = &core->entries[kind].items[idx];
  add_waiter (core, e, fn, context);
  *state = interim_result (core, kind, e, policy, out);
  return PSC_STATUS_OK;
}

PscStatus
psc_core_set_fallback (PscCore *core, VkPipeline fallback, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_GRAPHICS, (uint64_t) fallback);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "fallback",
                                                 "is not a Ready graphics pipeline of this cache"));
  uint8_t sig[128];
  size_t n = 0;
  if (fallback_signature (e->key, e->key_len, sig, &n) != PSC_STATUS_OK)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "fallback",
                                                 "internal error: no rendering signature"));
  uint32_t index = (uint32_t) (e - core->entries[PSC_KIND_GRAPHICS].items);
  uint64_t hash = psc_key_hash (sig, n);
  PscTableItem *item = (PscTableItem *) psc_table_find (core->fallbacks, hash, sig, n);
  if (item != NULL)
    {
      PscEntry *old = &core->entries[PSC_KIND_GRAPHICS].items[item->value];
      if (old != e && old->pins > 0)
        old->pins--;
      if (old == e)
        return PSC_STATUS_OK;
      item->value = index;
    }
  else
    {
      PscStatus st = psc_table_insert (core->fallbacks, hash, sig, n, index, NULL, err);
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
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    for (uint32_t i = 0; i < core->entries[k].len; i++)
      if (core->entries[k].items[i].state == PSC_ENTRY_FAILED)
        psc_async_discard_entry (core, (PscKind) k, i);
}


