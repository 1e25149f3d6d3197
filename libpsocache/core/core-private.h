/* core-private.h: the PscCore structure, shared by core.c, objects.c and
 * pipelines.c only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

#include <pthread.h>
#include <stdatomic.h>

#include <volk.h>

#include "handle-map.h"

/* Entry states. Issue-2 entries are Ready or Dead; the asynchronous states
 * (Compiling, Failed, Retiring) arrive with the async machinery. */
typedef enum {
  PSC_ENTRY_DEAD = 0,        /* retired or discarded: not in the table */
  PSC_ENTRY_READY = 1,
  PSC_ENTRY_COMPILING = 2,   /* pipelines: a job is queued or running */
  PSC_ENTRY_FAILED = 3,      /* pipelines: the compile failed (failure) */
} PscEntryState;

/* One cached object of any kind. Entries are append-only: an entry's index
 * never changes and its id (index + 1) is never reused, so an id dies with
 * its object (DESIGN decision 1).
 *
 * What a hit reads and writes (handle, last_used_frame, state, stale) comes
 * first, and entries are 64-byte aligned (psc_entries_push allocates them
 * so), so a hit touches one cache line of its entry. */
typedef struct {
  uint64_t handle;          /* the Vulkan handle as an integer */
  uint64_t last_used_frame;
  uint8_t state;
  uint8_t stale;            /* pipelines: a shader it uses was reloaded */
  uint8_t kind;
  uint8_t owned_key;        /* pass-through: key is a private malloc copy */
  uint32_t key_len;
  uint64_t hash;
  const uint8_t *key;       /* in the kind's table arena */
  uint32_t pins;
  uint32_t generation;      /* shaders: hot-reload generation */
  uint32_t refs;            /* shaders: registrations not yet released */
  /* Pipelines (async.c). */
  uint32_t job;             /* job slot while Compiling, else UINT32_MAX */
  uint32_t waiter_head;     /* FIFO of PscWaiter indices, UINT32_MAX = none */
  uint32_t waiter_tail;
  uint32_t pred;            /* previous-generation entry, UINT32_MAX = none */
  int32_t failure;          /* VkResult when Failed */
  uint8_t shader_count;
  uint32_t prepared_plus1;  /* pipelines: the prepared record naming it + 1, 0 = none */
  uint32_t shader_ids[PSC_MAX_GRAPHICS_STAGES];
  uint32_t shader_gens[PSC_MAX_GRAPHICS_STAGES];
} __attribute__((aligned (64))) PscEntry;

typedef struct {
  PscEntry *items;
  /* Pipelines: the frame of each entry's last hit through
   * request_key (pipelines.c), kept apart so a hit touches neither its
   * entry nor more than 8 bytes of dense memory (psc_entry_last_used merges
   * it). Parallel to items. */
  uint64_t *hit_frame;
  uint32_t len;
  uint32_t cap;
} PscEntryVec;

/* A prepared key: a canonical pipeline key stored once, plus the index of the
 * entry it last resolved to (revalidated on each use). */
typedef struct {
  const uint8_t *key;
  uint32_t key_len;
  uint8_t kind;             /* PSC_KIND_GRAPHICS or PSC_KIND_COMPUTE */
  uint64_t hash;
  uint32_t entry;           /* UINT32_MAX: not resolved yet */
} PscPrepared;

/* What a prepared request reads and writes, in a dense array of its own
 * (32 bytes a record: 1,000 prepared keys fit in 32 KiB). While `epoch`
 * equals the core's ready_epoch, the prepared key's entry is still Ready and
 * current and `handle` is its pipeline: a request is then answered from this
 * record alone, and its frame is kept here (psc_entry_last_used merges it
 * for eviction). */
typedef struct {
  uint64_t handle;
  uint64_t last_used_frame;
  uint32_t epoch;           /* 0: handle not cached */
  uint8_t kind;
} __attribute__((aligned (32))) PscPreparedHot;

/* ---- asynchronous compilation (async.c) ---- */

typedef struct {
  PscCoreReadyFn fn;
  void *context;
  uint32_t next;
} PscWaiter;

typedef struct {
  uint32_t node;                /* PscWaiter index, freed once called */
  VkPipeline pipeline;
  VkResult result;
} PscDispatch;

typedef enum {
  PSC_JOB_FREE = 0,
  PSC_JOB_QUEUED,
  PSC_JOB_RUNNING,
  PSC_JOB_DONE,       /* completion posted, not yet consumed by the pump */
} PscJobState;

/* An immutable compile job: everything a worker reads was decoded and pinned
 * on the owner thread before the job was queued. */
typedef struct {
  _Atomic int state;            /* PscJobState */
  _Atomic bool cancelled;       /* set by the owner; a queued job is skipped */
  uint32_t entry;
  uint8_t kind;
  void *build;                  /* PscGraphicsBuild / PscComputeBuild */
  const void *create_info;      /* points into build */
  uint32_t module_count;
  VkShaderModule modules[PSC_MAX_GRAPHICS_STAGES];   /* pinned */
  uint32_t shader_gens[PSC_MAX_GRAPHICS_STAGES];     /* generation snapshot */
  uint32_t shader_ids[PSC_MAX_GRAPHICS_STAGES];
  VkResult inject;              /* test hook: fail with this (VK_SUCCESS = no) */
} PscJob;

typedef struct {
  uint32_t job;
  uint32_t cache;               /* worker VkPipelineCache slot being returned */
  VkResult result;
  VkPipeline pipeline;
} PscCompletion;

/* The hand-off between the owner thread and the workers. One mutex guards
 * the job ring, the completion ring and the pipeline-cache pool; neither the
 * hit path nor any request that hits takes it. Producers/consumers:
 *   jobs:        owner produces, workers consume (capacity job_capacity;
 *                full: see the request's overflow policy);
 *   completions: workers produce, the pump consumes (capacity job_capacity:
 *                one per job slot, so it cannot overflow);
 *   cache pool:  PSC_CACHES_PER_WORKER VkPipelineCache objects per worker;
 *                a worker checks one out with its job and returns it only
 *                inside its completion; the pump merges it into the main
 *                cache, then frees it (workers wait while none is free). */
#define PSC_CACHES_PER_WORKER 4

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t work;
  bool shutdown;
  uint32_t *job_ring;
  uint32_t job_head, job_count;
  PscCompletion *done_ring;
  uint32_t done_head, done_count;
  VkPipelineCache *caches;      /* workers' caches */
  uint32_t *free_caches;
  uint32_t free_cache_count;
} PscHandoff;

typedef struct {
  uint64_t handle;
  uint64_t retire_value;        /* destroy once completed timeline >= this */
  uint8_t kind;                 /* PscKind, or PSC_KIND_COUNT: descriptor pool */
} PscRetired;

/* Counters: written only by the owner thread (load + store, no locked
 * read-modify-write on the hot path), read by any thread. */
typedef struct {
  _Atomic uint64_t hits, misses, creations, creation_ns, entries, host_bytes;
} PscAtomicKindStats;

typedef struct {
  PscAtomicKindStats kinds[PSC_KIND_COUNT];
  _Atomic uint64_t capacity_failures;
  _Atomic uint64_t rejected[PSC_STATUS_COUNT];
  _Atomic uint64_t frame;
  /* async: queued and in_flight are written by workers too (locked adds) */
  _Atomic uint64_t queued, in_flight, completed, failed, stale_discards, waiters_served;
  _Atomic uint64_t overflow_fallbacks, overflow_skips, evictions, retirements_pending;
  _Atomic uint64_t retired, owner_wait_ns, fallbacks_returned, stale_returned;
  _Atomic uint64_t unpublished;
} PscAtomicStats;

static inline void
psc_stat_add (_Atomic uint64_t *c, uint64_t n)
{
  atomic_store_explicit (c, atomic_load_explicit (c, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

struct PscCore {
  PscCoreConfig cfg;
  pthread_t owner;
  bool closed;                    /* psc_core_close has begun */
  PscInstanceTable it;
  struct VolkDeviceTable *vk;
  VkPipelineCache driver_cache;   /* the main driver cache */
  PscResolver resolver;

  PscTable *tables[PSC_KIND_COUNT];
  PscEntryVec entries[PSC_KIND_COUNT];
  PscHandleMap *handles[PSC_KIND_COUNT];

  /* Immutable-sampler lists: key = ordered sampler ids. */
  PscTable *sampler_lists;
  PscEntryVec sampler_list_entries;

  /* Prepared keys, deduplicated by key bytes. */
  PscTable *prepared_table;
  PscPrepared *prepared;
  PscPreparedHot *prepared_hot;   /* parallel to prepared */
  uint32_t prepared_len, prepared_cap;
  /* Bumped whenever a pipeline entry stops being Ready or turns stale: every
   * handle cached in a prepared record is then checked again once. */
  uint32_t ready_epoch;
  /* Bumped whenever a shader or pipeline-layout handle could stop resolving
   * or resolve differently (the resolver memo's epoch). */
  uint32_t objects_epoch;
  PscResolverMemo resolver_memo;

  uint64_t frame;
  uint64_t completed_timeline;
  PscAtomicStats stats;

  /* async.c */
  uint32_t job_capacity, waiter_capacity, worker_count, cache_count;
  uint64_t publish_budget_ns;     /* per pump; 0 = unbounded */
  PscJob *jobs;
  uint32_t *free_jobs;
  uint32_t free_job_count;
  PscWaiter *waiters;
  uint32_t free_waiter;           /* head of the free list */
  uint32_t waiters_used;
  PscDispatch *dispatch, *dispatch_spare;   /* pending callbacks (x2 for swapping) */
  uint32_t dispatch_count;
  PscHandoff handoff;
  pthread_t *threads;
  uint32_t threads_started;
  PscHandleMap *module_pins;      /* shader module -> jobs using it */
  VkShaderModule *doomed_modules; /* replaced/released, destroyed at pin 0 */
  uint32_t doomed_count, doomed_cap;
  PscTable *fallbacks;            /* rendering signature -> entry index */
  uint32_t inject_failures;
  VkResult inject_result;

  /* retire.c */
  PscRetired *retired;
  uint32_t retired_count, retired_cap;
  uint32_t auto_evict_frames;
  uint32_t evict_cursor;
};

/* Creates the Vulkan object a canonical key describes (decoding the key into a
 * create info first, so the driver sees exactly what the key says). */
typedef PscStatus (*PscCreateFn) (PscCore *core, const uint8_t *key, size_t len,
                                  uint64_t *handle, PscCoreError *err);

/* core.c */
/* Records a refused call (out of line: the cold path): a wrong thread
 * (PSC_STATUS_WRONG_THREAD) or a closed core (PSC_STATUS_CLOSED). Returns
 * false. */
PSC_INTERNAL bool psc_core_wrong_thread (PscCore *core, PscCoreError *err)
  __attribute__((cold, noinline));

/* The status of a call psc_core_check_thread refused. */
static inline PscStatus
psc_core_refused (const PscCore *core)
{
  return pthread_equal (core->owner, pthread_self ()) ? PSC_STATUS_CLOSED : PSC_STATUS_WRONG_THREAD;
}

/* Every entry point that reads or mutates cache state starts here: it runs
 * only on the owner thread, and only until the core is closed. */
static inline bool
psc_core_check_thread (PscCore *core, PscCoreError *err)
{
  if (__builtin_expect (pthread_equal (core->owner, pthread_self ()) && !core->closed, 1))
    return true;
  return psc_core_wrong_thread (core, err);
}
PSC_INTERNAL uint64_t psc_core_hash (const PscCore *core, const void *key, size_t len);
PSC_INTERNAL uint64_t psc_now_ns (void);
PSC_INTERNAL PscStatus psc_core_reject (PscCore *core, PscStatus st);
/* Appends an entry; returns its index or UINT32_MAX on allocation failure. */
PSC_INTERNAL uint32_t psc_entries_push (PscEntryVec *v, const PscEntry *e);
/* Inserts a freshly created object: table, entry, handle map, counters.
 * On failure the caller still owns (and must destroy) the handle. */
PSC_INTERNAL PscStatus psc_core_publish (PscCore *core, PscKind kind, uint64_t hash,
                                         const uint8_t *key, size_t len, uint64_t handle,
                                         uint32_t *index, PscCoreError *err);
PSC_INTERNAL PscStatus psc_core_own (PscCore *core, PscKind kind, const uint8_t *key,
                                     size_t len, uint64_t handle, uint32_t *index,
                                     PscCoreError *err);
PSC_INTERNAL void psc_core_destroy_handle (PscCore *core, PscKind kind, uint64_t handle);
PSC_INTERNAL void psc_core_name_object (PscCore *core, VkObjectType type, uint64_t handle,
                                        const char *kind, uint32_t id);
PSC_INTERNAL void psc_core_update_bytes (PscCore *core, PscKind kind);
/* The Ready entry a cache-issued handle names, or NULL (inline: requests
 * resolve a few handles each). */
static inline PscEntry *
psc_core_entry_for_handle (PscCore *core, PscKind kind, uint64_t handle)
{
  uint32_t idx;
  if (!psc_handle_map_lookup (core->handles[kind], handle, &idx))
    return NULL;
  PscEntry *e = &core->entries[kind].items[idx];
  return e->state == PSC_ENTRY_READY ? e : NULL;
}

/* The frame an entry was last requested in, through its key or its
 * prepared record. */
static inline uint64_t
psc_entry_last_used (const PscCore *core, const PscEntry *e)
{
  const PscEntryVec *v = &core->entries[e->kind];
  uint64_t f = e->last_used_frame;
  const uint64_t hit = v->hit_frame[e - v->items];
  if (hit > f)
    f = hit;
  if (e->prepared_plus1 != 0)
    {
      const uint64_t g = core->prepared_hot[e->prepared_plus1 - 1].last_used_frame;
      if (g > f)
        f = g;
    }
  return f;
}

/* Invalidates the resolver memo. */
static inline void
psc_core_objects_changed (PscCore *core)
{
  if (++core->objects_epoch == 0)
    core->objects_epoch = 1;   /* memo slots start at epoch 0: never valid */
}

/* Invalidates the handles cached in prepared records. */
static inline void
psc_core_ready_changed (PscCore *core)
{
  if (++core->ready_epoch == 0)
    core->ready_epoch = 1;   /* 0 means "not cached" */
}

/* objects.c */
PSC_INTERNAL void psc_core_init_resolver (PscCore *core);
PSC_INTERNAL void psc_core_doom_module (PscCore *core, VkShaderModule module);
PSC_INTERNAL void psc_core_doom_module_later (PscCore *core, VkShaderModule module);

/* pipelines.c */
PSC_INTERNAL PscCreateFn psc_pipeline_create_fn (PscKind kind);
PSC_INTERNAL PscStatus psc_core_create_pipeline (PscCore *core, PscKind kind, const uint8_t *key,
                                                 size_t len, uint64_t *handle, PscCoreError *err);

/* async.c */
PSC_INTERNAL PscStatus psc_async_init (PscCore *core, PscCoreError *err);
/* Stops and joins workers, drains and discards completions, frees jobs and
 * completes every outstanding waiter with VK_INCOMPLETE. */
PSC_INTERNAL void psc_async_shutdown (PscCore *core, bool call_waiters);
/* Publishes completions, then calls waiters. */
PSC_INTERNAL void psc_async_pump (PscCore *core);
PSC_INTERNAL void psc_async_queue_waiters (PscCore *core, PscEntry *e, VkPipeline p, VkResult r);
PSC_INTERNAL void psc_async_dispatch (PscCore *core);
PSC_INTERNAL void psc_async_free (PscCore *core);
/* Destroys replaced/released shader modules no job uses any more. */
PSC_INTERNAL void psc_async_sweep_modules (PscCore *core);
/* A request for an entry known to be Compiling (adds a waiter or creates it
 * now, by policy). */
PSC_INTERNAL PscStatus psc_core_request_entry (PscCore *core, PscKind kind, uint32_t index,
                                               PscCoreMissPolicy policy, uint32_t flags,
                                               PscCoreReadyFn fn, void *context, VkPipeline *out,
                                               PscCoreRequestState *state, PscCoreError *err);
/* The request path shared by direct and prepared requests; hash is the
 * key's psc_core_hash (callers have it already). */
PSC_INTERNAL PscStatus psc_core_request_key (PscCore *core, PscKind kind, const uint8_t *key,
                                             size_t len, uint64_t hash,
                                             PscCoreMissPolicy policy, uint32_t flags,
                                             PscCoreReadyFn fn, void *context, VkPipeline *out,
                                             PscCoreRequestState *state, uint32_t *index_out,
                                             PscCoreError *err);
/* Drops an entry's job (if any) and discards the entry (Compiling ->
 * Discarded): waiters get VK_INCOMPLETE. */
PSC_INTERNAL void psc_async_discard_entry (PscCore *core, PscKind kind, uint32_t index);

/* retire.c */
/* Removes a Ready entry from the table and handle map and queues its handle
 * for destruction after the borrowed-handle window and the GPU timeline. */
PSC_INTERNAL bool psc_retire_entry (PscCore *core, PscKind kind, uint32_t index);
PSC_INTERNAL bool psc_retire_reserve (PscCore *core, uint32_t n);
PSC_INTERNAL void psc_retire_handle (PscCore *core, uint8_t kind, uint64_t handle, uint64_t value);
PSC_INTERNAL void psc_retire_pump (PscCore *core);
PSC_INTERNAL void psc_retire_all (PscCore *core);


/* The shared get-or-create path: hash, find, compare in full; on a miss check
 * the collision bucket, create, publish (or own, in pass-through mode).
 * Counts hits, misses, creations, creation time and rejections. */
PSC_INTERNAL PscStatus psc_core_get_or_create (PscCore *core, PscKind kind,
                                               const uint8_t *key, size_t len,
                                               PscCreateFn create, uint64_t *out,
                                               uint32_t *index, PscCoreError *err);

/* A stack buffer for one canonical key (only the bytes used are touched). */
#define KEY_BUFFER(name)                                                       \
  uint8_t name##_bytes[PSC_MAX_KEY_BYTES];                                     \
  PscKeyWriter name = { name##_bytes, 0, sizeof name##_bytes }

#define CHECK_REQUEST(core, ci, err)                                           \
  do {                                                                         \
    if (!psc_core_check_thread ((core), (err)))                                \
      return psc_core_refused (core);                                          \
    if ((ci) == NULL)                                                          \
      return psc_core_reject ((core), psc_core_fail ((err),                    \
                              PSC_STATUS_INVALID_ARGUMENT, "pCreateInfo",      \
                              "is NULL"));                                     \
  } while (0)

