/* core-private.h: the PscCore structure, the state the core's modules share,
 * and the few inline helpers that read or bump it without calling any
 * module. Each module declares its own functions in its own header (see
 * docs/architecture.md for the layers); this header calls none of them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"
#include "store.h"

#include <pthread.h>
#include <stdatomic.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct PscWorkers PscWorkers;

/* A prepared key (prepared.c): a canonical pipeline key stored once, plus
 * the id of the entry it last resolved to (revalidated on each use). */
typedef struct {
  const uint8_t *key;       /* in the prepared table */
  uint32_t key_len;
  uint8_t kind;             /* PSC_KIND_GRAPHICS or PSC_KIND_COMPUTE */
  uint64_t hash;
  uint32_t entry;           /* entry id, 0: not resolved yet */
} PscPrepared;

/* What a prepared request reads and writes, in a dense array of its own
 * (32 bytes a record). While `epoch` equals the core's ready_epoch, the
 * prepared key's entry is still Ready and reachable and `handle` is its
 * pipeline: a request is then answered from this record alone, and its
 * frame is kept here (psc_entry_last_used merges it for eviction). */
typedef struct {
  uint64_t handle;
  uint64_t last_used_frame;
  uint32_t epoch;           /* 0: handle not cached */
  uint8_t kind;
} __attribute__((aligned (32))) PscPreparedHot;

/* A waiter of a Compiling entry (requests.c) and a callback to call. */
typedef struct {
  PscCoreReadyFn fn;
  void *context;
  uint32_t next;
} PscWaiter;

typedef struct {
  uint32_t node;            /* PscWaiter index, freed once called */
  VkPipeline pipeline;
  VkResult result;
} PscDispatch;

/* A handle waiting for the GPU timeline (retire.c). */
typedef struct {
  uint64_t handle;
  uint64_t retire_value;    /* destroy once completed timeline >= this */
  uint8_t kind;             /* PscKind, or PSC_KIND_COUNT: a descriptor pool */
} PscRetired;

/* A shader module that is no longer its shader's current module
 * (shaders.c): replaced by a hot reload, or released. Its handle stops
 * resolving at the next pump (unmap set) and the module is destroyed once
 * no job uses it. */
typedef struct {
  VkShaderModule module;
  uint32_t shader;          /* the shader entry's slot while unmap is set */
  bool unmap;
} PscDoomed;

/* Counters. Each has one writer (the owner thread: a relaxed load + store,
 * no locked instruction on the hot path), except the rejection counters
 * (any thread may count a refused call: atomic adds everywhere) and the
 * job gauges queued, in_flight and unpublished (workers and owner: atomic
 * read-modify-writes everywhere). Any thread reads them. */
typedef struct {
  _Atomic uint64_t hits, misses, creations, creation_ns, entries, host_bytes;
} PscAtomicKindStats;

typedef struct {
  PscAtomicKindStats kinds[PSC_KIND_COUNT];
  _Atomic uint64_t capacity_failures;
  _Atomic uint64_t rejected[PSC_STATUS_COUNT];
  _Atomic uint64_t frame;
  _Atomic uint64_t queued, in_flight, completed, failed, stale_discards, waiters_served;
  _Atomic uint64_t overflow_fallbacks, overflow_skips, evictions, retirements_pending;
  _Atomic uint64_t retired, owner_wait_ns, fallbacks_returned, stale_returned;
  _Atomic uint64_t unpublished;
  _Atomic uint64_t driver_cache_hits, driver_cache_misses;   /* owner and workers: atomic RMW */
  _Atomic uint64_t events_dropped;
} PscAtomicStats;

/* The owner thread's event queue (events.c): two buffers of
 * PSC_CORE_EVENT_CAPACITY, allocated at the first event; `current` is the
 * one being filled. */
typedef struct {
  PscCoreEvent *buffer[2];
  uint32_t current;
  uint32_t count;
  uint32_t evicted;
  uint32_t dropped;
} PscEventQueue;

struct PscCore {
  PscCoreConfig cfg;
  /* The thread owner-thread entry points accept: the creator until the
   * core closes, then 0 (which no thread is), so one comparison refuses
   * both a foreign thread and a closed core (stats.h). */
  pthread_t owner;
  pthread_t creator;
  bool closed;                    /* psc_core_close has begun */
  bool created;                   /* psc_core_new succeeded */
  bool in_closing;                /* inside cfg.closing (driver data readable) */
  PscInstanceTable it;
  struct VolkDeviceTable *vk;
  VkPipelineCache driver_cache;   /* the main driver cache (driver-cache.c) */
  bool driver_data_rejected;      /* the driver refused cfg.initial_driver_data */
  uint64_t driver_data_loaded;    /* bytes of it the driver accepted */
  uint64_t driver_merges;         /* psc_core_merge_driver_data calls that merged */
  PscResolver resolver;           /* resolver.c */
  PscResolverMemo resolver_memo;
  /* Bumped whenever a shader or pipeline-layout handle could stop
   * resolving or resolve differently (the resolver memo's epoch). */
  uint32_t objects_epoch;
  /* Bumped whenever a pipeline entry stops being Ready, turns stale, or a
   * shader it names is released: every handle cached in a prepared record
   * is then checked again once. */
  uint32_t ready_epoch;

  PscStore *stores[PSC_KIND_COUNT];
  PscStore *sampler_lists;        /* immutable-sampler lists: key = ordered sampler ids */

  /* prepared.c: prepared keys, deduplicated by key bytes; never removed. */
  PscTable *prepared_table;
  PscPrepared *prepared;
  PscPreparedHot *prepared_hot;   /* parallel to prepared */
  uint32_t prepared_len, prepared_cap;

  uint64_t frame;
  uint64_t completed_timeline;
  PscAtomicStats stats;

  /* shaders.c */
  PscHandleMap *module_pins;      /* shader module -> jobs using it */
  PscDoomed *doomed;
  uint32_t doomed_count, doomed_cap;
  uint32_t released_shaders;      /* Released shaders that pipelines still name */

  /* requests.c */
  PscWorkers *workers;
  PscWaiter *waiters;
  uint32_t waiter_capacity;
  uint32_t free_waiter;           /* head of the free list */
  PscDispatch *dispatch, *dispatch_spare;   /* pending callbacks (x2 for swapping) */
  uint32_t dispatch_count;
  PscTable *fallbacks;            /* rendering signature -> entry id */
  uint64_t publish_budget_ns;     /* per pump; 0 = unbounded */
  uint32_t failed_count;          /* Failed pipeline entries */
  uint64_t sync_creations;        /* creations on the owner thread so far */
  VkPipelineCreationFeedback last_feedback;   /* the driver's, of the last one */
  uint32_t inject_failures;       /* test hook */
  VkResult inject_result;

  /* events.c */
  PscEventQueue events;

  /* retire.c */
  PscRetired *retired;
  uint32_t retired_count, retired_cap;
  uint32_t auto_evict_frames;
  uint32_t pump_cursor[PSC_KIND_COUNT];   /* where the pump's walk goes on */
};

static inline void
psc_stat_add (_Atomic uint64_t *c, uint64_t n)
{
  atomic_store_explicit (c, atomic_load_explicit (c, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

/* The one key-hash rule of the core: the plain XXH3 of the key bytes (the
 * benchmark's floor uses exactly this), or the forced test hash. Every
 * lookup and every stored hash (prepared keys, predecessors) uses it. */
static inline uint64_t
psc_core_hash (const PscCore *core, const void *key, size_t len)
{
  if (__builtin_expect (core->cfg.hooks.force_hash, 0))
    return core->cfg.hooks.forced_hash;
  return XXH3_64bits (key, len);
}

static inline PscEntry *
psc_core_entry (const PscCore *core, PscKind kind, uint32_t index)
{
  return psc_store_entry (core->stores[kind], index);
}

/* The frame an entry was last requested in: through its key (the entry's
 * frame, or its hit frame) or its prepared record. */
static inline uint64_t
psc_entry_last_used (const PscCore *core, const PscEntry *e)
{
  const PscStore *s = core->stores[e->kind];
  uint64_t f = e->last_used_frame;
  const uint64_t hit = s->hit_frame[psc_store_index (s, e)];
  if (hit > f)
    f = hit;
  if ((e->kind == PSC_KIND_GRAPHICS || e->kind == PSC_KIND_COMPUTE) && e->pipe.prepared != 0)
    {
      const uint64_t g = core->prepared_hot[e->pipe.prepared - 1].last_used_frame;
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

static inline bool
psc_kind_is_pipeline (PscKind kind)
{
  return kind == PSC_KIND_GRAPHICS || kind == PSC_KIND_COMPUTE;
}

/* A stack buffer for one canonical key (only the bytes used are touched). */
#define KEY_BUFFER(name)                                                       \
  uint8_t name##_bytes[PSC_MAX_KEY_BYTES];                                     \
  PscKeyWriter name = { name##_bytes, 0, sizeof name##_bytes }
