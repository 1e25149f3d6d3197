/* store.h: the entry store of one object kind (DESIGN decisions 1, 4 and
 * 12). Internal to the core.
 *
 * A store holds a kind's entries: slots in one array, reused through a
 * free list once their object is gone; the key table (table.h), whose
 * items name entry slots; the handle map from issued handles to slots; and
 * a dense list of the live slots, so a walk over entries costs what is
 * alive, never the process's history.
 *
 * Ids. An entry's id is its slot index + 1 in the low PSC_ID_INDEX_BITS
 * bits and its slot's generation above them. A slot's generation moves on
 * each time its entry dies, so an id from before a reuse is refused
 * (psc_store_index_of_id), never aliased: an id dies with its object. A
 * slot whose generation is spent is never reused (at most one slot per
 * 2^PSC_ID_GEN_BITS reuses).
 *
 * Keys. A tabled entry's key is the table's copy; an untabled one
 * (pass-through mode, a shader whose reloaded code equals another shader's)
 * owns a private copy. Both are freed when the entry dies.
 *
 * What a store does not know: what the entry's object is, how it is
 * created or destroyed, and what the kind-specific part means (the layers
 * above own those). It never calls up.
 *
 * Threads: owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"
#include "handle-map.h"
#include "table.h"

#define PSC_NONE UINT32_MAX

#define PSC_ID_INDEX_BITS 22u
#define PSC_ID_GEN_BITS (32u - PSC_ID_INDEX_BITS)
#define PSC_ID_INDEX_MASK ((1u << PSC_ID_INDEX_BITS) - 1u)
/* Entries a store can hold at once (index + 1 must fit the index bits). */
#define PSC_STORE_MAX_ENTRIES (PSC_ID_INDEX_MASK - 1u)

typedef enum {
  PSC_ENTRY_FREE = 0,        /* no entry: the slot is on the free list */
  PSC_ENTRY_READY = 1,       /* its object exists */
  PSC_ENTRY_COMPILING = 2,   /* pipelines: being created (a job, or the owner thread) */
  PSC_ENTRY_FAILED = 3,      /* pipelines: the driver refused; not retried */
  PSC_ENTRY_RELEASED = 4,    /* shaders: no registration left, module gone;
                                the identity stays while pipelines name it */
} PscEntryState;

/* Shader entries (shaders.c). */
typedef struct {
  uint32_t generation;       /* hot-reload generation */
  uint32_t refs;             /* registrations not yet released */
  uint32_t pipelines;        /* pipeline entries naming this shader */
  uint32_t spec_count;
  PscSpecConstant *spec;     /* owned, sorted by constant id */
} PscShaderPart;

/* Pipeline entries (requests.c). */
typedef struct {
  uint32_t job;              /* job slot while Compiling, else PSC_NONE */
  uint32_t waiter_head;      /* FIFO of waiters, PSC_NONE = none */
  uint32_t waiter_tail;
  uint32_t pred;             /* id of the previous generation's entry, 0 = none */
  uint32_t prepared;         /* id of the prepared key naming it, 0 = none */
  int32_t failure;           /* VkResult when Failed */
  uint8_t shader_count;
  uint32_t shader_ids[PSC_MAX_GRAPHICS_STAGES];   /* the key's shaders, in key order */
} PscPipelinePart;

/* One cached object (96 bytes). A hit through the table touches no entry:
 * the slot holds the answer and hit frames are a dense array of their
 * own. */
typedef struct {
  uint64_t handle;           /* the Vulkan handle as an integer, 0 = none */
  uint64_t last_used_frame;
  uint8_t state;             /* PscEntryState */
  uint8_t stale;             /* pipelines: a shader it uses was reloaded */
  uint8_t kind;
  uint8_t tabled;            /* its key is in the table */
  uint32_t key_len;
  const uint8_t *key;
  uint32_t slot;             /* table slot while tabled */
  uint32_t live_pos;         /* index in the live list; next free slot while FREE */
  uint32_t gen;              /* the slot's generation (the id's high bits) */
  uint32_t pins;
  union {
    PscShaderPart shader;
    PscPipelinePart pipe;
  };
} __attribute__((aligned (32))) PscEntry;
_Static_assert (sizeof (PscEntry) == 96, "PscEntry grew: bytes per entry are a goal (docs/benchmarks.md)");

typedef struct {
  PscTable *table;
  PscHandleMap *handles;
  PscEntry *entries;
  /* The frame of each entry's last hit through the table (requests.c),
   * apart from the entries so a hit touches 8 bytes of dense memory and
   * not its entry. Parallel to entries. */
  uint64_t *hit_frame;
  uint32_t *live;            /* live slot indices, dense, in no order */
  uint32_t cap;              /* slots allocated */
  uint32_t top;              /* slots ever used */
  uint32_t live_count;
  uint32_t free_head;        /* PSC_NONE = empty */
  uint32_t spent;            /* slots never reused again (generation spent) */
  size_t untabled_bytes;     /* heap bytes of untabled keys */
  uint8_t kind;
} PscStore;

PSC_INTERNAL PscStore *psc_store_new (uint8_t kind);
/* Frees the store, its keys and its arrays (not the objects: their owners
 * destroy them first). NULL is accepted. */
PSC_INTERNAL void psc_store_free (PscStore *s);

static inline PscEntry *
psc_store_entry (const PscStore *s, uint32_t index)
{
  return &s->entries[index];
}

static inline uint32_t
psc_store_index (const PscStore *s, const PscEntry *e)
{
  return (uint32_t) (e - s->entries);
}

/* The item whose key this is, or NULL with *miss filled (see table.h). */
static inline const PscTableItem *
psc_store_find (const PscStore *s, uint64_t hash, const void *key, size_t len, PscProbe *miss)
{
  return psc_table_probe (s->table, hash, key, len, miss);
}

/* Makes a new tabled entry for a key that probe p found absent (nothing
 * changed the store since). The entry's state is FREE until the caller sets
 * it; its generic fields are set, its kind-specific part is zeroed. Fails
 * with PSC_STATUS_CAPACITY (collision bucket full, or the store holds
 * PSC_STORE_MAX_ENTRIES) or FAILED (out of memory); the store is then
 * unchanged. */
PSC_INTERNAL PscStatus psc_store_reserve (PscStore *s, uint64_t hash, const PscProbe *p,
                                          const void *key, size_t len, uint32_t *index,
                                          PscCoreError *err);
/* The same for an entry that is not in the table (it keeps a private copy
 * of its key). */
PSC_INTERNAL PscStatus psc_store_add (PscStore *s, uint64_t hash, const void *key, size_t len,
                                      uint32_t *index, PscCoreError *err);
/* Gives a live entry another key: it joins the table if `tabled` and no
 * other entry has that key, else it keeps it as a private copy. False if out of memory: the
 * entry then has no key (it is still found by handle and id). */
PSC_INTERNAL bool psc_store_rekey (PscStore *s, uint32_t index, uint64_t hash,
                                   const void *key, size_t len, bool tabled);
/* The entry dies: its key leaves the table (or is freed), its handle is
 * unmapped if it maps here, its slot's generation moves on and the slot is
 * free for reuse. Its object must be gone or owned elsewhere. */
PSC_INTERNAL void psc_store_release (PscStore *s, uint32_t index);

/* What the entry's table slot answers a hit with (requests.c); 0 = none. */
static inline void
psc_store_set_answer (PscStore *s, uint32_t index, uint64_t aux)
{
  const PscEntry *e = &s->entries[index];
  if (e->tabled)
    psc_table_slot (s->table, e->slot)->aux = aux;
}

/* Handles: an issued handle names its entry's slot. */
PSC_INTERNAL bool psc_store_map (PscStore *s, uint32_t index, uint64_t handle);
PSC_INTERNAL void psc_store_unmap (PscStore *s, uint64_t handle);
static inline bool
psc_store_index_of_handle (const PscStore *s, uint64_t handle, uint32_t *index)
{
  return psc_handle_map_lookup (s->handles, handle, index);
}

/* Ids. */
static inline uint32_t
psc_store_id (const PscStore *s, uint32_t index)
{
  return (s->entries[index].gen << PSC_ID_INDEX_BITS) | (index + 1u);
}

/* The slot of a live entry's id; false for 0, an id of a dead or reused
 * slot, or one that never existed. */
static inline bool
psc_store_index_of_id (const PscStore *s, uint32_t id, uint32_t *index)
{
  uint32_t i = (id & PSC_ID_INDEX_MASK) - 1u;
  if (i >= s->top || s->entries[i].state == PSC_ENTRY_FREE ||
      s->entries[i].gen != id >> PSC_ID_INDEX_BITS)
    return false;
  *index = i;
  return true;
}

/* Live entries, as a dense list. A walk that may release the entry it is
 * at goes from the end down (psc_store_release moves the last live entry
 * into the freed place, which a downward walk has already seen):
 *
 *   PscLiveWalk walk = psc_store_walk (s);
 *   for (uint32_t i; psc_live_next (&walk, &i);)
 *     ... may release slot i ...
 */
static inline uint32_t
psc_store_live_count (const PscStore *s)
{
  return s->live_count;
}

static inline uint32_t
psc_store_live_at (const PscStore *s, uint32_t i)
{
  return s->live[i];
}

typedef struct {
  const PscStore *s;
  uint32_t pos;
} PscLiveWalk;

static inline PscLiveWalk
psc_store_walk (const PscStore *s)
{
  return (PscLiveWalk) { s, s->live_count };
}

/* The next live slot, going down; false at the end. A place the walk has
 * not reached that a release emptied is skipped. */
static inline bool
psc_live_next (PscLiveWalk *w, uint32_t *index)
{
  while (w->pos > 0)
    if (--w->pos < w->s->live_count)
      {
        *index = w->s->live[w->pos];
        return true;
      }
  return false;
}

/* Heap bytes: entries, hit frames, live list, table, key copies, handles. */
PSC_INTERNAL size_t psc_store_host_bytes (const PscStore *s);
