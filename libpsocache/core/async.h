/* async.h: compile workers, their jobs and completions (seed 000, "State
 * machine and asynchronous compilation"; DESIGN decision 6). Internal to
 * the core.
 *
 * A PscWorkers is a pool of threads that create pipelines from immutable
 * jobs and post completion records. It knows nothing of entries, keys or
 * waiters: the request path (requests.c) fills a job's create info (decoded
 * from its key, shader modules pinned), submits it, and later consumes its
 * completion on the owner thread.
 *
 * Bounded queues (full / empty / producers-consumers / cancellation /
 * shutdown):
 *  - job slots + job rings: `capacity` slots, two rings (demand jobs,
 *    and low-priority jobs taken only when no demand job waits). The owner takes a free slot
 *    (psc_workers_take: NULL when all are in use: the caller's overflow
 *    policy decides), fills it and submits it; workers consume. Empty:
 *    workers sleep on a condition variable. Cancellation: the owner marks a
 *    job cancelled; a worker skips its compile and the owner discards any
 *    result. A slot is free again once the owner has consumed its
 *    completion (or gives an unsubmitted slot back).
 *  - completions: one per job slot, so the ring cannot overflow. Workers
 *    produce; the owner consumes (psc_workers_next_done).
 *  - pipeline-cache pool: PSC_CACHES_PER_WORKER VkPipelineCache objects per
 *    worker. A worker checks one out with each job and gives it back only
 *    inside its completion; psc_workers_next_done merges it into the main
 *    cache and returns it to the pool. Empty: workers wait.
 *    With shared_cache the workers create with the main cache instead
 *    (see PscWorkersConfig) and nothing is merged.
 *  - pause (psc_workers_pause): workers take no new job, and the call
 *    returns once none is compiling; psc_workers_resume lets them go on.
 *    A merge into a shared main cache (externally synchronized as a
 *    vkMergePipelineCaches destination) runs paused.
 *  - shutdown (psc_workers_stop): workers finish the compile they are in,
 *    take no further job and are joined; completions not consumed yet stay
 *    in the ring for the owner to drain.
 *
 * Threads: every function runs on the owner thread; only the worker
 * threads inside run elsewhere. One mutex guards the rings and the pool;
 * no request that hits takes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

#include <stdatomic.h>

#define PSC_CACHES_PER_WORKER 4

typedef enum {
  PSC_JOB_FREE = 0,
  PSC_JOB_FILLING,   /* taken by the owner, not submitted yet */
  PSC_JOB_QUEUED,
  PSC_JOB_RUNNING,
  PSC_JOB_DONE,      /* completion posted, not consumed yet */
} PscJobState;

/* An immutable compile job. A worker reads kind, create_info, inject and
 * cancelled; everything else is the owner's bookkeeping. */
typedef struct {
  _Atomic int state;                 /* PscJobState */
  _Atomic bool cancelled;
  bool graphics;                     /* else compute */
  VkResult inject;                   /* test hook: fail with this (VK_SUCCESS = no) */
  bool low;                          /* low priority (prewarm): see PscWorkersConfig */
  const void *create_info;           /* points into build */
  void *build;                       /* decode storage, kept for the slot's next job */
  uint8_t kind;                      /* the owner's: PscKind */
  uint32_t entry;                    /* the owner's: the entry's id */
  uint32_t module_count;
  VkShaderModule modules[PSC_MAX_GRAPHICS_STAGES];   /* pinned by the owner */
  uint32_t shader_ids[PSC_MAX_GRAPHICS_STAGES];
  uint32_t shader_gens[PSC_MAX_GRAPHICS_STAGES];     /* generation snapshot */
} PscJob;

typedef struct {
  uint32_t job;                      /* the job's slot */
  VkResult result;
  VkPipeline pipeline;               /* VK_NULL_HANDLE unless result is VK_SUCCESS */
} PscCompletion;

typedef struct {
  VkDevice device;
  const struct VolkDeviceTable *vk;
  const VkAllocationCallbacks *allocator;
  VkPipelineCache main_cache;        /* worker caches merge into it */
  /* Workers create with main_cache itself (its use in pipeline creation is
   * internally synchronized) and nothing is merged: for a main cache that
   * started from loaded data, which per-worker caches would not see. The
   * caches stay tokens that bound each worker's completions. */
  bool shared_cache;
  uint32_t threads;                  /* >= 1 */
  uint32_t capacity;                 /* job slots, >= 1 */
  /* Low-priority jobs (prewarm) wait behind every other job, at most this
   * many compile at once (>= 1), and compile in the idle scheduling
   * class (SCHED_IDLE), so they never delay a demand request. */
  uint32_t low_threads;
  bool plant_race;                   /* test hook (PscCoreTestHooks) */
  /* Chain VkPipelineCreationFeedback (Vulkan 1.3) and count what the
   * driver says into these (atomic RMW). */
  bool feedback;
  _Atomic uint64_t *cache_hits, *cache_misses;
  /* The gauges a job moves through (PscAtomicStats): it leaves one before
   * it enters the next (seq_cst), so a reader that reads them last to
   * first never counts a job twice. */
  _Atomic uint64_t *queued, *in_flight, *unpublished;
  /* Names a worker cache (debug utils); may be NULL. */
  void (*name_cache) (void *ctx, VkPipelineCache cache, uint32_t index);
  void *name_ctx;
} PscWorkersConfig;

typedef struct PscWorkers PscWorkers;

PSC_INTERNAL PscWorkers *psc_workers_new (const PscWorkersConfig *cfg, PscCoreError *err);
/* Stops the workers if needed, destroys their caches and pipelines not
 * consumed, and frees everything. NULL is accepted. */
PSC_INTERNAL void psc_workers_free (PscWorkers *w);

PSC_INTERNAL uint32_t psc_workers_capacity (const PscWorkers *w);
PSC_INTERNAL uint32_t psc_workers_free_slots (const PscWorkers *w);
PSC_INTERNAL PscJob *psc_workers_job (PscWorkers *w, uint32_t slot);
/* Takes a free job slot (state FILLING) with decode storage of at least
 * build_size bytes; NULL when none is free or out of memory (*full tells
 * which). */
PSC_INTERNAL PscJob *psc_workers_take (PscWorkers *w, size_t build_size, uint32_t *slot,
                                       bool *full);
/* Returns a slot: one never submitted, or one whose completion was
 * consumed. */
PSC_INTERNAL void psc_workers_give_back (PscWorkers *w, uint32_t slot);
/* Queues a filled job; the threads and their caches start with the first
 * one. */
PSC_INTERNAL PscStatus psc_workers_submit (PscWorkers *w, uint32_t slot, PscCoreError *err);
PSC_INTERNAL void psc_workers_cancel (PscWorkers *w, uint32_t slot);
/* Completions posted now. */
PSC_INTERNAL uint32_t psc_workers_done (PscWorkers *w);
/* Takes the oldest completion: its worker cache is merged into the main
 * cache and back in the pool. False when there is none. */
PSC_INTERNAL bool psc_workers_next_done (PscWorkers *w, PscCompletion *c);
/* A queued low-priority job becomes a demand job (a demand request joined
 * it): it moves to the front of the demand ring. Nothing for any other. */
PSC_INTERNAL void psc_workers_promote (PscWorkers *w, uint32_t slot);
/* See "pause" above. Owner thread; pauses nest (each pause its resume). */
PSC_INTERNAL void psc_workers_pause (PscWorkers *w);
PSC_INTERNAL void psc_workers_resume (PscWorkers *w);
PSC_INTERNAL bool psc_workers_shared_cache (const PscWorkers *w);
/* Stops and joins the threads (idempotent). Completions stay for
 * psc_workers_next_done; queued jobs are never taken. */
PSC_INTERNAL void psc_workers_stop (PscWorkers *w);
