/* async.c: compile workers, their jobs and completions (see async.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "async.h"

#include "feedback.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <volk.h>

struct PscWorkers {
  PscWorkersConfig cfg;
  PscJob *jobs;
  uint32_t *free_jobs;
  uint32_t free_count;

  pthread_mutex_t lock;
  pthread_cond_t work;
  pthread_cond_t idle;          /* running fell to 0 while paused */
  bool lock_ready;
  bool shutdown;
  bool paused;
  uint32_t pause_depth;         /* pauses nest (a save that merges) */
  uint32_t running;             /* jobs being compiled now */
  uint32_t *job_ring;
  uint32_t job_head, job_count;
  uint32_t *low_ring;           /* low-priority jobs (prewarm) */
  uint32_t low_head, low_count, low_running;
  PscCompletion *done_ring;
  uint32_t *done_cache;         /* the worker cache each completion returns */
  uint32_t done_head, done_count;
  VkPipelineCache *caches;
  uint32_t cache_count;
  uint32_t *free_caches;
  uint32_t free_cache_count;

  pthread_t *threads;
  uint32_t threads_started;
};

/* Moves a job from one gauge to the next (see PscWorkersConfig). */
static void
gauge_move (_Atomic uint64_t *from, _Atomic uint64_t *to)
{
  if (from != NULL)
    atomic_fetch_sub_explicit (from, 1, memory_order_seq_cst);
  if (to != NULL)
    atomic_fetch_add_explicit (to, 1, memory_order_seq_cst);
}

static VkResult
compile (PscWorkers *w, PscJob *job, VkPipelineCache cache, VkPipeline *pipeline)
{
  const PscWorkersConfig *c = &w->cfg;
  if (atomic_load (&job->cancelled))
    return VK_INCOMPLETE;
  if (job->inject != VK_SUCCESS)
    return job->inject;
  PscFeedback fb;
  const void *ci = psc_feedback_chain (&fb, c->feedback, job->graphics, job->create_info);
  VkResult r = job->graphics
    ? c->vk->vkCreateGraphicsPipelines (c->device, cache, 1, ci, c->allocator, pipeline)
    : c->vk->vkCreateComputePipelines (c->device, cache, 1, ci, c->allocator, pipeline);
  if (r == VK_SUCCESS)
    psc_feedback_count (&fb, c->feedback, c->cache_hits, c->cache_misses);
  return r;
}

/* Posts a completion; the lock is held. */
static PscCompletion *
post (PscWorkers *w, uint32_t ji, uint32_t ci, VkResult r)
{
  const uint32_t at = (w->done_head + w->done_count) % w->cfg.capacity;
  PscCompletion *c = &w->done_ring[at];
  c->job = ji;
  c->result = r;
  w->done_cache[at] = ci;
  return c;
}

/* Test hook only: publishes the record, then writes its pipeline outside
 * the lock, and keeps the race open until the owner consumed the record.
 * ThreadSanitizer must report it. Called and returns with the lock held. */
static void
post_racy (PscWorkers *w, PscCompletion *c, PscJob *job, VkPipeline pipeline)
{
  w->done_count++;
  atomic_store (&job->state, PSC_JOB_DONE);
  gauge_move (w->cfg.in_flight, w->cfg.unpublished);
  pthread_mutex_unlock (&w->lock);
  c->pipeline = pipeline;
  while (atomic_load_explicit (&job->state, memory_order_relaxed) == PSC_JOB_DONE && !w->shutdown)
    usleep (50);
  pthread_mutex_lock (&w->lock);
}

/* A job a worker may take now: any demand job, else a low one while
 * fewer than low_threads low jobs compile. The lock is held. */
static bool
job_ready (const PscWorkers *w)
{
  return w->job_count > 0 || (w->low_count > 0 && w->low_running < w->cfg.low_threads);
}

/* Takes the next job (demand first); the lock is held. */
static uint32_t
take_job (PscWorkers *w, bool *low)
{
  uint32_t ji;
  *low = w->job_count == 0;
  if (!*low)
    {
      ji = w->job_ring[w->job_head];
      w->job_head = (w->job_head + 1) % w->cfg.capacity;
      w->job_count--;
      return ji;
    }
  ji = w->low_ring[w->low_head];
  w->low_head = (w->low_head + 1) % w->cfg.capacity;
  w->low_count--;
  w->low_running++;
  return ji;
}

/* A low job compiles in the idle scheduling class; the thread goes back
 * to the normal class after it (both allowed without privileges). */
static void
set_idle (bool idle)
{
#ifdef SCHED_IDLE
  const struct sched_param sp = { 0 };
  (void) pthread_setschedparam (pthread_self (), idle ? SCHED_IDLE : SCHED_OTHER, &sp);
#else
  (void) idle;
#endif
}

static void *
worker_main (void *data)
{
  PscWorkers *w = data;
  pthread_mutex_lock (&w->lock);
  for (;;)
    {
      /* A worker needs a job and a free cache; caches come back only in
       * completions the owner consumed. */
      while ((!job_ready (w) || w->free_cache_count == 0 || w->paused) && !w->shutdown)
        pthread_cond_wait (&w->work, &w->lock);
      if (w->shutdown)
        break;
      bool low;
      uint32_t ji = take_job (w, &low);
      uint32_t ci = w->free_caches[--w->free_cache_count];
      PscJob *job = &w->jobs[ji];
      w->running++;
      atomic_store (&job->state, PSC_JOB_RUNNING);
      gauge_move (w->cfg.queued, w->cfg.in_flight);
      pthread_mutex_unlock (&w->lock);

      VkPipeline pipeline = VK_NULL_HANDLE;
      if (low)
        set_idle (true);
      VkResult r = compile (w, job, w->caches[ci], &pipeline);
      if (low)
        set_idle (false);
      if (r != VK_SUCCESS)
        pipeline = VK_NULL_HANDLE;

      pthread_mutex_lock (&w->lock);
      if (--w->running == 0 && w->paused)
        pthread_cond_broadcast (&w->idle);
      if (low)
        {
          w->low_running--;
          if (w->low_count > 0)
            pthread_cond_broadcast (&w->work);   /* another low job may go now */
        }
      PscCompletion *c = post (w, ji, ci, r);
      if (w->cfg.plant_race)
        {
          post_racy (w, c, job, pipeline);
          continue;
        }
      c->pipeline = pipeline;
      w->done_count++;
      atomic_store (&job->state, PSC_JOB_DONE);
      gauge_move (w->cfg.in_flight, w->cfg.unpublished);
    }
  pthread_mutex_unlock (&w->lock);
  return NULL;
}

PscWorkers *
psc_workers_new (const PscWorkersConfig *cfg, PscCoreError *err)
{
  PscWorkers *w = calloc (1, sizeof *w);
  if (w == NULL)
    {
      psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
      return NULL;
    }
  w->cfg = *cfg;
  const uint32_t n = cfg->capacity;
  w->cache_count = cfg->threads * PSC_CACHES_PER_WORKER;
  w->jobs = calloc (n, sizeof *w->jobs);
  w->free_jobs = calloc (n, sizeof *w->free_jobs);
  w->job_ring = calloc (n, sizeof *w->job_ring);
  w->low_ring = calloc (n, sizeof *w->low_ring);
  if (w->cfg.low_threads == 0)
    w->cfg.low_threads = 1;
  w->done_ring = calloc (n, sizeof *w->done_ring);
  w->done_cache = calloc (n, sizeof *w->done_cache);
  w->caches = calloc (w->cache_count, sizeof *w->caches);
  w->free_caches = calloc (w->cache_count, sizeof *w->free_caches);
  w->threads = calloc (cfg->threads, sizeof *w->threads);
  if (!w->jobs || !w->free_jobs || !w->job_ring || !w->low_ring || !w->done_ring || !w->done_cache ||
      !w->caches || !w->free_caches || !w->threads)
    {
      psc_workers_free (w);
      psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
      return NULL;
    }
  for (uint32_t i = 0; i < n; i++)
    w->free_jobs[i] = n - 1 - i;
  w->free_count = n;
  if (pthread_mutex_init (&w->lock, NULL) != 0)
    {
      psc_workers_free (w);
      psc_core_fail (err, PSC_STATUS_FAILED, "", "cannot create the worker queue lock");
      return NULL;
    }
  if (pthread_cond_init (&w->work, NULL) != 0 || pthread_cond_init (&w->idle, NULL) != 0)
    {
      pthread_mutex_destroy (&w->lock);
      psc_workers_free (w);
      psc_core_fail (err, PSC_STATUS_FAILED, "", "cannot create the worker queue lock");
      return NULL;
    }
  w->lock_ready = true;
  return w;
}

void
psc_workers_free (PscWorkers *w)
{
  if (w == NULL)
    return;
  psc_workers_stop (w);
  const PscWorkersConfig *c = &w->cfg;
  PscCompletion done;
  while (psc_workers_next_done (w, &done))
    if (done.pipeline != VK_NULL_HANDLE)
      c->vk->vkDestroyPipeline (c->device, done.pipeline, c->allocator);
  for (uint32_t i = 0; !c->shared_cache && w->caches != NULL && i < w->cache_count; i++)
    if (w->caches[i] != VK_NULL_HANDLE)
      c->vk->vkDestroyPipelineCache (c->device, w->caches[i], c->allocator);
  if (w->lock_ready)
    {
      pthread_mutex_destroy (&w->lock);
      pthread_cond_destroy (&w->work);
      pthread_cond_destroy (&w->idle);
    }
  for (uint32_t i = 0; w->jobs != NULL && i < c->capacity; i++)
    free (w->jobs[i].build);
  free (w->jobs);
  free (w->free_jobs);
  free (w->job_ring);
  free (w->low_ring);
  free (w->done_ring);
  free (w->done_cache);
  free (w->caches);
  free (w->free_caches);
  free (w->threads);
  free (w);
}

uint32_t
psc_workers_capacity (const PscWorkers *w)
{
  return w->cfg.capacity;
}

uint32_t
psc_workers_free_slots (const PscWorkers *w)
{
  return w->free_count;
}

PscJob *
psc_workers_job (PscWorkers *w, uint32_t slot)
{
  return &w->jobs[slot];
}

PscJob *
psc_workers_take (PscWorkers *w, size_t build_size, uint32_t *slot, bool *full)
{
  *full = w->free_count == 0;
  if (*full)
    return NULL;
  uint32_t ji = w->free_jobs[w->free_count - 1];
  PscJob *job = &w->jobs[ji];
  if (job->build == NULL)
    {
      /* Kept for the slot's next job: a miss allocates nothing once every
       * slot has been used. */
      job->build = calloc (1, build_size);
      if (job->build == NULL)
        return NULL;
    }
  w->free_count--;
  job->create_info = NULL;
  job->inject = VK_SUCCESS;
  job->module_count = 0;
  atomic_store (&job->cancelled, false);
  atomic_store (&job->state, PSC_JOB_FILLING);
  *slot = ji;
  return job;
}

void
psc_workers_give_back (PscWorkers *w, uint32_t slot)
{
  PscJob *job = &w->jobs[slot];
  job->create_info = NULL;
  job->module_count = 0;
  job->low = false;
  atomic_store (&job->state, PSC_JOB_FREE);
  atomic_store (&job->cancelled, false);
  w->free_jobs[w->free_count++] = slot;
}

/* The threads and their caches start with the first job, so a cache used
 * only synchronously never starts a thread. */
static PscStatus
start (PscWorkers *w, PscCoreError *err)
{
  const PscWorkersConfig *c = &w->cfg;
  for (uint32_t i = 0; i < w->cache_count; i++)
    {
      if (w->caches[i] != VK_NULL_HANDLE)
        continue;
      if (c->shared_cache)
        {
          w->caches[i] = c->main_cache;   /* a token: nothing is created or merged */
          w->free_caches[w->free_cache_count++] = i;
          continue;
        }
      VkPipelineCacheCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
      VkResult r = c->vk->vkCreatePipelineCache (c->device, &pci, c->allocator, &w->caches[i]);
      if (r != VK_SUCCESS)
        {
          w->caches[i] = VK_NULL_HANDLE;
          return psc_core_fail_vk (err, r, "vkCreatePipelineCache (worker cache)");
        }
      if (c->name_cache != NULL)
        c->name_cache (c->name_ctx, w->caches[i], i);
      w->free_caches[w->free_cache_count++] = i;
    }
  for (uint32_t i = w->threads_started; i < c->threads; i++)
    {
      if (pthread_create (&w->threads[i], NULL, worker_main, w) != 0)
        {
          if (w->threads_started == 0)
            return psc_core_fail (err, PSC_STATUS_FAILED, "", "cannot start a worker thread");
          break;   /* fewer workers than asked: slower, still correct */
        }
      w->threads_started++;
    }
  return PSC_STATUS_OK;
}

PscStatus
psc_workers_submit (PscWorkers *w, uint32_t slot, PscCoreError *err)
{
  if (w->shutdown)
    return psc_core_fail (err, PSC_STATUS_CLOSED, "", "the compile workers were stopped");
  if (w->threads_started == 0)
    {
      PscStatus st = start (w, err);
      if (st != PSC_STATUS_OK)
        return st;
    }
  atomic_store (&w->jobs[slot].state, PSC_JOB_QUEUED);
  pthread_mutex_lock (&w->lock);
  if (w->jobs[slot].low)
    w->low_ring[(w->low_head + w->low_count++) % w->cfg.capacity] = slot;
  else
    w->job_ring[(w->job_head + w->job_count++) % w->cfg.capacity] = slot;
  gauge_move (NULL, w->cfg.queued);
  pthread_cond_signal (&w->work);
  pthread_mutex_unlock (&w->lock);
  return PSC_STATUS_OK;
}

void
psc_workers_cancel (PscWorkers *w, uint32_t slot)
{
  atomic_store (&w->jobs[slot].cancelled, true);
}

uint32_t
psc_workers_done (PscWorkers *w)
{
  if (w->threads_started == 0 && w->done_count == 0)
    return 0;
  pthread_mutex_lock (&w->lock);
  uint32_t n = w->done_count;
  pthread_mutex_unlock (&w->lock);
  return n;
}

bool
psc_workers_next_done (PscWorkers *w, PscCompletion *c)
{
  const PscWorkersConfig *cfg = &w->cfg;
  if (!w->lock_ready)
    return false;
  pthread_mutex_lock (&w->lock);
  if (w->done_count == 0)
    {
      pthread_mutex_unlock (&w->lock);
      return false;
    }
  *c = w->done_ring[w->done_head];
  const uint32_t ci = w->done_cache[w->done_head];
  w->done_head = (w->done_head + 1) % cfg->capacity;
  w->done_count--;
  if (cfg->unpublished != NULL)
    atomic_fetch_sub_explicit (cfg->unpublished, 1, memory_order_seq_cst);
  pthread_mutex_unlock (&w->lock);
  /* The worker gave its cache back inside the completion: merge it into the
   * main cache, then return it to the pool. */
  if (!cfg->shared_cache)
    cfg->vk->vkMergePipelineCaches (cfg->device, cfg->main_cache, 1, &w->caches[ci]);
  pthread_mutex_lock (&w->lock);
  w->free_caches[w->free_cache_count++] = ci;
  pthread_cond_broadcast (&w->work);
  pthread_mutex_unlock (&w->lock);
  return true;
}

void
psc_workers_stop (PscWorkers *w)
{
  if (w->threads_started == 0)
    return;
  pthread_mutex_lock (&w->lock);
  w->shutdown = true;
  pthread_cond_broadcast (&w->work);
  pthread_mutex_unlock (&w->lock);
  for (uint32_t i = 0; i < w->threads_started; i++)
    pthread_join (w->threads[i], NULL);
  w->threads_started = 0;
  /* Queued jobs are never taken now. */
  if (w->cfg.queued != NULL)
    atomic_fetch_sub_explicit (w->cfg.queued, w->job_count + w->low_count, memory_order_seq_cst);
  w->job_count = 0;
  w->low_count = 0;
}

void
psc_workers_pause (PscWorkers *w)
{
  if (!w->lock_ready)
    return;
  pthread_mutex_lock (&w->lock);
  w->pause_depth++;
  w->paused = true;
  while (w->running > 0)
    pthread_cond_wait (&w->idle, &w->lock);
  pthread_mutex_unlock (&w->lock);
}

void
psc_workers_resume (PscWorkers *w)
{
  if (!w->lock_ready)
    return;
  pthread_mutex_lock (&w->lock);
  if (w->pause_depth > 0 && --w->pause_depth == 0)
    {
      w->paused = false;
      pthread_cond_broadcast (&w->work);
    }
  pthread_mutex_unlock (&w->lock);
}

bool
psc_workers_shared_cache (const PscWorkers *w)
{
  return w->cfg.shared_cache;
}

void
psc_workers_promote (PscWorkers *w, uint32_t slot)
{
  const uint32_t cap = w->cfg.capacity;
  if (!w->lock_ready || slot >= cap)
    return;
  pthread_mutex_lock (&w->lock);
  PscJob *job = &w->jobs[slot];
  if (job->low && atomic_load (&job->state) == PSC_JOB_QUEUED)
    {
      /* Out of the low ring (order kept), to the front of the demand ring. */
      uint32_t kept = 0;
      for (uint32_t i = 0; i < w->low_count; i++)
        {
          const uint32_t s = w->low_ring[(w->low_head + i) % cap];
          if (s != slot)
            w->low_ring[(w->low_head + kept++) % cap] = s;
        }
      const bool found = kept < w->low_count;
      w->low_count = kept;
      if (!found)
        {
          pthread_mutex_unlock (&w->lock);
          return;
        }
      w->job_head = (w->job_head + cap - 1) % cap;
      w->job_ring[w->job_head] = slot;
      w->job_count++;
      job->low = false;
      pthread_cond_signal (&w->work);
    }
  pthread_mutex_unlock (&w->lock);
}
