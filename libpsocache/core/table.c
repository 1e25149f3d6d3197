/* table.c: the collision-safe hash table of canonical keys (DESIGN decision 4)
 * and the handle -> id map used to resolve cache-issued handles.
 *
 * Table: open addressing with linear probing over a power-of-two slot array.
 * The 64-bit XXH3 of a key picks the slot; each slot keeps the full hash, the
 * key length and a pointer to the key bytes, which live in an arena of
 * fixed-size chunks (so they never move and a hit never allocates). Keys are
 * compared in full on every hash match. Distinct keys sharing one full 64-bit
 * hash form a "collision bucket" of at most PSC_COLLISION_BUCKET_CAPACITY;
 * inserting one more fails with PSC_STATUS_CAPACITY and changes nothing.
 *
 * Threads: owner thread only (no internal locking).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-core.h"
#include "handle-map.h"
#include "table-map.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)
#define MIN_SLOTS 64u

/* What a tombstone's key points at (its key_len is 0: see table-map.h). */
static const uint8_t tombstone;

static void *
arena_copy (PscTable *t, const void *key, size_t len)
{
  PscArenaChunk *c = t->chunks;
  /* Keep every key 8-byte aligned so comparisons start aligned. */
  size_t need = (len + 7u) & ~(size_t) 7u;
  if (c == NULL || c->size - c->used < need)
    {
      size_t size = need > ARENA_CHUNK ? need : ARENA_CHUNK;
      c = malloc (sizeof *c + size);
      if (c == NULL)
        return NULL;
      c->next = t->chunks;
      c->used = 0;
      c->size = size;
      t->chunks = c;
      t->arena_bytes += sizeof *c + size;
    }
  void *dst = c->data + c->used;
  memcpy (dst, key, len);
  c->used += need;
  return dst;
}

/* Zeroed slots, aligned like PscTableItem (calloc aligns to 16 only). */
static PscTableItem *
slots_new (size_t n)
{
  PscTableItem *s = aligned_alloc (_Alignof (PscTableItem), n * sizeof *s);
  if (s != NULL)
    memset (s, 0, n * sizeof *s);
  return s;
}

PscTable *
psc_table_new (void)
{
  PscTable *t = calloc (1, sizeof *t);
  if (t == NULL)
    return NULL;
  t->slots = slots_new (MIN_SLOTS);
  if (t->slots == NULL)
    {
      free (t);
      return NULL;
    }
  t->mask = MIN_SLOTS - 1;
  return t;
}

void
psc_table_free (PscTable *t)
{
  if (t == NULL)
    return;
  PscArenaChunk *c = t->chunks;
  while (c != NULL)
    {
      PscArenaChunk *next = c->next;
      free (c);
      c = next;
    }
  free (t->slots);
  free (t);
}

static inline bool
slot_live (const PscTableItem *s)
{
  return s->key != NULL && s->key != &tombstone;
}

const PscTableItem *
psc_table_find (const PscTable *t, uint64_t hash, const void *key, size_t len)
{
  return psc_table_lookup (t, hash, key, len);
}

uint32_t
psc_table_bucket_size (const PscTable *t, uint64_t hash)
{
  uint32_t n = 0;
  size_t i = (size_t) hash & t->mask;
  for (;;)
    {
      const PscTableItem *s = &t->slots[i];
      if (s->key == NULL)
        return n;
      if (slot_live (s) && s->hash == hash)
        n++;
      i = (i + 1) & t->mask;
    }
}

static bool
table_grow (PscTable *t)
{
  size_t slots = t->mask + 1;
  /* Grow when live items fill half; otherwise only tombstones are the issue
   * and a rehash at the same size clears them. */
  size_t new_slots = t->count * 2 >= slots ? slots * 2 : slots;
  PscTableItem *ns = slots_new (new_slots);
  if (ns == NULL)
    return false;
  size_t new_mask = new_slots - 1;
  for (size_t i = 0; i < slots; i++)
    {
      const PscTableItem *s = &t->slots[i];
      if (!slot_live (s))
        continue;
      size_t j = (size_t) s->hash & new_mask;
      while (ns[j].key != NULL)
        j = (j + 1) & new_mask;
      ns[j] = *s;
    }
  free (t->slots);
  t->slots = ns;
  t->mask = new_mask;
  t->used = t->count;
  return true;
}

PscStatus
psc_table_insert (PscTable *t, uint64_t hash, const void *key, size_t len,
                  uint32_t value, const PscTableItem **out, PscCoreError *err)
{
  if (len > UINT32_MAX)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "", "key of %zu bytes is too large", len);
  if (len == 0)   /* a zero length marks a tombstone (table-map.h) */
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: empty key");
  if (psc_table_bucket_size (t, hash) >= PSC_COLLISION_BUCKET_CAPACITY)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "",
                          "collision bucket full: %u distinct keys already share hash 0x%016llx",
                          (unsigned) PSC_COLLISION_BUCKET_CAPACITY, (unsigned long long) hash);

  /* Keep the load (including tombstones) under 70%. */
  if ((t->used + 1) * 10 > (t->mask + 1) * 7 && !table_grow (t))
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory growing the table");

  const uint8_t *copy = arena_copy (t, key, len);
  if (copy == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory storing a key");

  size_t i = (size_t) hash & t->mask;
  while (slot_live (&t->slots[i]))
    i = (i + 1) & t->mask;
  PscTableItem *s = &t->slots[i];
  if (s->key == NULL)
    t->used++;
  s->hash = hash;
  s->key = copy;
  s->key_len = (uint32_t) len;
  s->value = value;
  s->aux = 0;
  t->count++;
  if (out != NULL)
    *out = s;
  return PSC_STATUS_OK;
}

bool
psc_table_remove (PscTable *t, uint64_t hash, const void *key, size_t len)
{
  PscTableItem *s = (PscTableItem *) psc_table_find (t, hash, key, len);
  if (s == NULL)
    return false;
  /* The key bytes stay in the arena (counted in host bytes) until the table
   * dies; removal is rare (shader release, eviction). */
  s->key = &tombstone;
  s->key_len = 0;
  s->aux = 0;
  t->count--;
  return true;
}

bool
psc_table_set_aux (PscTable *t, uint64_t hash, const void *key, size_t len, uint64_t aux)
{
  PscTableItem *s = (PscTableItem *) psc_table_find (t, hash, key, len);
  if (s == NULL)
    return false;
  s->aux = aux;
  return true;
}

size_t
psc_table_count (const PscTable *t)
{
  return t->count;
}

size_t
psc_table_host_bytes (const PscTable *t)
{
  return sizeof *t + (t->mask + 1) * sizeof *t->slots + t->arena_bytes;
}

/* ------------------------------------------------------------------------- */

PscHandleMap *
psc_handle_map_new (void)
{
  PscHandleMap *m = calloc (1, sizeof *m);
  if (m == NULL)
    return NULL;
  m->slots = calloc (MIN_SLOTS, sizeof *m->slots);
  if (m->slots == NULL)
    {
      free (m);
      return NULL;
    }
  m->mask = MIN_SLOTS - 1;
  return m;
}

void
psc_handle_map_free (PscHandleMap *m)
{
  if (m == NULL)
    return;
  free (m->slots);
  free (m);
}

static bool
hm_grow (PscHandleMap *m)
{
  size_t slots = m->mask + 1;
  size_t new_slots = m->count * 2 >= slots ? slots * 2 : slots;
  HandleSlot *ns = calloc (new_slots, sizeof *ns);
  if (ns == NULL)
    return false;
  for (size_t i = 0; i < slots; i++)
    {
      const HandleSlot *s = &m->slots[i];
      if (s->handle == 0 || s->handle == HM_TOMB)
        continue;
      size_t j = hm_index (s->handle, new_slots - 1);
      while (ns[j].handle != 0)
        j = (j + 1) & (new_slots - 1);
      ns[j] = *s;
    }
  free (m->slots);
  m->slots = ns;
  m->mask = new_slots - 1;
  m->used = m->count;
  return true;
}

bool
psc_handle_map_set (PscHandleMap *m, uint64_t handle, uint32_t value)
{
  if (handle == 0 || handle == HM_TOMB)
    return false;
  size_t i = hm_index (handle, m->mask);
  for (;;)
    {
      HandleSlot *s = &m->slots[i];
      if (s->handle == 0)
        break;
      if (s->handle == handle)
        {
          s->value = value;
          return true;
        }
      i = (i + 1) & m->mask;
    }
  if ((m->used + 1) * 10 > (m->mask + 1) * 7 && !hm_grow (m))
    return false;
  i = hm_index (handle, m->mask);
  while (m->slots[i].handle != 0 && m->slots[i].handle != HM_TOMB)
    i = (i + 1) & m->mask;
  if (m->slots[i].handle == 0)
    m->used++;
  m->slots[i].handle = handle;
  m->slots[i].value = value;
  m->count++;
  return true;
}

bool
psc_handle_map_remove (PscHandleMap *m, uint64_t handle)
{
  if (handle == 0 || handle == HM_TOMB)
    return false;
  size_t i = hm_index (handle, m->mask);
  for (;;)
    {
      HandleSlot *s = &m->slots[i];
      if (s->handle == 0)
        return false;
      if (s->handle == handle)
        {
          s->handle = HM_TOMB;
          m->count--;
          return true;
        }
      i = (i + 1) & m->mask;
    }
}

bool
psc_handle_map_get (const PscHandleMap *m, uint64_t handle, uint32_t *value)
{
  return psc_handle_map_lookup (m, handle, value);
}

size_t
psc_handle_map_host_bytes (const PscHandleMap *m)
{
  return sizeof *m + (m->mask + 1) * sizeof *m->slots;
}
