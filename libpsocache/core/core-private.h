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

/* Entry states. Issue-2 entries are Ready or Dead; the asynchronous states
 * (Compiling, Failed, Retiring) arrive with the async machinery. */
typedef enum {
  PSC_ENTRY_DEAD = 0,
  PSC_ENTRY_READY = 1,
} PscEntryState;

/* One cached object of any kind. Entries are append-only: an entry's index
 * never changes and its id (index + 1) is never reused, so an id dies with
 * its object (DESIGN decision 1). */
typedef struct {
  uint64_t handle;          /* the Vulkan handle as an integer */
  uint64_t hash;
  const uint8_t *key;       /* in the kind's table arena */
  uint32_t key_len;
  uint32_t pins;
  uint64_t last_used_frame;
  uint32_t generation;      /* shaders: hot-reload generation */
  uint32_t refs;            /* shaders: registrations not yet released */
  uint8_t state;
  uint8_t kind;
  uint8_t owned_key;        /* pass-through: key is a private malloc copy */
} PscEntry;

typedef struct {
  PscEntry *items;
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
  uint32_t prepared_len, prepared_cap;

  uint64_t frame;
  uint64_t completed_timeline;
  PscAtomicStats stats;
};

/* core.c */
PSC_INTERNAL bool psc_core_check_thread (PscCore *core, PscCoreError *err);
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
PSC_INTERNAL PscEntry *psc_core_entry_for_handle (PscCore *core, PscKind kind, uint64_t handle);

/* objects.c */
PSC_INTERNAL void psc_core_init_resolver (PscCore *core);

/* Creates the Vulkan object a canonical key describes (decoding the key into a
 * create info first, so the driver sees exactly what the key says). */
typedef PscStatus (*PscCreateFn) (PscCore *core, const uint8_t *key, size_t len,
                                  uint64_t *handle, PscCoreError *err);

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
      return PSC_STATUS_WRONG_THREAD;                                          \
    if ((ci) == NULL)                                                          \
      return psc_core_reject ((core), psc_core_fail ((err),                    \
                              PSC_STATUS_INVALID_ARGUMENT, "pCreateInfo",      \
                              "is NULL"));                                     \
  } while (0)

