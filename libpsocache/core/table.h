/* table.h: the collision-safe key table (DESIGN decision 4). Internal to
 * the core.
 *
 * Open addressing with linear probing over a power-of-two slot array. The
 * 64-bit XXH3 of a key picks the slot; each slot keeps the full hash, the
 * key length and the table's own copy of the key bytes (made at insertion
 * in the table's key heap, keyheap.h, and given back at removal: memory
 * follows what is alive). Keys are compared in
 * full on every hash match. Distinct keys sharing one full 64-bit hash form
 * a "collision bucket" of at most PSC_COLLISION_BUCKET_CAPACITY; inserting
 * one more fails with PSC_STATUS_CAPACITY and changes nothing.
 *
 * One probe answers a lookup and, on a miss, says where the key would go
 * and how full its bucket is (psc_table_probe), so a miss probes once; the
 * insertion then writes that slot (psc_table_insert_at). Growth and
 * shrinking rehash on insertion and removal only; a lookup never
 * allocates. A rehash moves items: psc_table_set_moved tells the owner of
 * the values where each one went (the entry store keeps each entry's slot,
 * so publication and retirement take the slot, never the key again).
 *
 * Threads: owner thread only (no internal locking).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"
#include "keyheap.h"

#include <string.h>

typedef struct {
  uint64_t hash;
  const uint8_t *key;    /* the table's copy; NULL: empty slot */
  uint32_t key_len;      /* 0: empty, or a tombstone when key != NULL */
  uint32_t value;        /* the owner's payload, e.g. an entry index */
  uint64_t aux;          /* a second payload, 0 at insertion (pipelines: the
                            handle while the entry is Ready) */
} __attribute__((aligned (32))) PscTableItem;   /* a slot never straddles a cache line */

/* What a lookup that missed learnt on its way: where the key would be
 * inserted (valid until the table changes) and how many live keys share
 * its full hash. */
typedef struct {
  uint32_t insert;
  uint32_t same_hash;
} PscProbe;

/* Called for every live item a rehash moves, with its value and new slot. */
typedef void (*PscTableMovedFn) (void *ctx, uint32_t value, uint32_t slot);

typedef struct {
  PscTableItem *slots;
  size_t mask;           /* slot count - 1 */
  size_t count;          /* live items */
  size_t used;           /* live items + tombstones */
  PscKeyHeap keys;       /* the key copies, close together */
  PscTableMovedFn moved;
  void *moved_ctx;
} PscTable;

PSC_INTERNAL PscTable *psc_table_new (void);
/* Frees the table and every key copy. NULL is accepted. */
PSC_INTERNAL void psc_table_free (PscTable *t);
PSC_INTERNAL void psc_table_set_moved (PscTable *t, PscTableMovedFn fn, void *ctx);

/* The rest of a probe whose home slot did not hold the key (table.c). */
PSC_INTERNAL const PscTableItem *psc_table_probe_on (const PscTable *t, uint64_t hash,
                                                     const void *key, size_t len,
                                                     PscProbe *miss);

/* The item holding key, or NULL; on NULL, *miss (if not NULL) is filled.
 * Most hits find their key in its home slot: that check is inline, the
 * rest of the probe (later slots, and what a miss learns) is not. */
static inline const PscTableItem *
psc_table_probe (const PscTable *t, uint64_t hash, const void *key, size_t len, PscProbe *miss)
{
  /* Empty slots and tombstones have key_len 0, and no key is empty. */
  const PscTableItem *s = &t->slots[(size_t) hash & t->mask];
  if (__builtin_expect (s->hash == hash && s->key_len == len, 1) && memcmp (s->key, key, len) == 0)
    return s;
  return psc_table_probe_on (t, hash, key, len, miss);
}

static inline const PscTableItem *
psc_table_find (const PscTable *t, uint64_t hash, const void *key, size_t len)
{
  return psc_table_probe (t, hash, key, len, NULL);
}

/* Inserts a key that probe p found absent (no table change since), copying
 * it. Fails with PSC_STATUS_CAPACITY when its collision bucket is full or
 * the key is too long, FAILED when out of memory; the table is then
 * unchanged. *slot (if not NULL) receives the item's slot. */
PSC_INTERNAL PscStatus psc_table_insert_at (PscTable *t, uint64_t hash, const PscProbe *p,
                                            const void *key, size_t len, uint32_t value,
                                            uint32_t *slot, PscCoreError *err);
/* Probe, then psc_table_insert_at (the key must be absent). */
PSC_INTERNAL PscStatus psc_table_insert (PscTable *t, uint64_t hash, const void *key, size_t len,
                                         uint32_t value, const PscTableItem **out,
                                         PscCoreError *err);
static inline PscTableItem *
psc_table_slot (PscTable *t, uint32_t slot)
{
  return &t->slots[slot];
}
/* Removes the item in a slot and frees its key copy. */
PSC_INTERNAL void psc_table_remove_slot (PscTable *t, uint32_t slot);
/* Removes a present key; false if absent. */
PSC_INTERNAL bool psc_table_remove (PscTable *t, uint64_t hash, const void *key, size_t len);
PSC_INTERNAL size_t psc_table_count (const PscTable *t);
/* Slots and key copies, in bytes. */
PSC_INTERNAL size_t psc_table_host_bytes (const PscTable *t);
/* How many distinct keys share this full hash now (tests). */
PSC_INTERNAL uint32_t psc_table_bucket_size (const PscTable *t, uint64_t hash);
