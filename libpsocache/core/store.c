/* store.c: the entry store of one object kind (see store.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "store.h"

#include <malloc.h>
#include <stdlib.h>

#define MIN_ENTRIES 64u
#define GEN_LIMIT (1u << PSC_ID_GEN_BITS)

/* A rehash moved an item: the entry learns its new slot. */
static void
item_moved (void *ctx, uint32_t value, uint32_t slot)
{
  PscStore *s = ctx;
  s->entries[value].slot = slot;
}

PscStore *
psc_store_new (uint8_t kind)
{
  PscStore *s = calloc (1, sizeof *s);
  if (s == NULL)
    return NULL;
  s->kind = kind;
  s->free_head = PSC_NONE;
  s->table = psc_table_new ();
  s->handles = psc_handle_map_new ();
  if (s->table == NULL || s->handles == NULL)
    {
      psc_store_free (s);
      return NULL;
    }
  psc_table_set_moved (s->table, item_moved, s);
  return s;
}

void
psc_store_free (PscStore *s)
{
  if (s == NULL)
    return;
  for (uint32_t i = 0; i < s->live_count; i++)
    {
      const PscEntry *e = &s->entries[s->live[i]];
      if (!e->tabled)
        free ((void *) e->key);
    }
  psc_table_free (s->table);
  psc_handle_map_free (s->handles);
  free (s->entries);
  free (s->hit_frame);
  free (s->live);
  free (s);
}

/* Grows the three parallel arrays to cap slots. Entries are grown by hand:
 * realloc does not keep their alignment. */
static bool
grow (PscStore *s, uint32_t cap)
{
  PscEntry *entries = aligned_alloc (_Alignof (PscEntry), (size_t) cap * sizeof *entries);
  uint64_t *hit_frame = realloc (s->hit_frame, (size_t) cap * sizeof *hit_frame);
  if (hit_frame != NULL)
    s->hit_frame = hit_frame;
  uint32_t *live = realloc (s->live, (size_t) cap * sizeof *live);
  if (live != NULL)
    s->live = live;
  if (entries == NULL || hit_frame == NULL || live == NULL)
    {
      free (entries);
      return false;
    }
  if (s->top > 0)
    memcpy (entries, s->entries, (size_t) s->top * sizeof *entries);
  free (s->entries);
  s->entries = entries;
  s->cap = cap;
  return true;
}

/* Takes a free slot (a released one first, so memory stays flat under
 * churn); PSC_NONE when none can be had. */
static uint32_t
take_slot (PscStore *s, PscStatus *why)
{
  if (s->free_head != PSC_NONE)
    {
      uint32_t i = s->free_head;
      s->free_head = s->entries[i].live_pos;
      return i;
    }
  if (s->top >= PSC_STORE_MAX_ENTRIES)
    {
      *why = PSC_STATUS_CAPACITY;
      return PSC_NONE;
    }
  if (s->top == s->cap)
    {
      uint32_t cap = s->cap ? s->cap * 2 : MIN_ENTRIES;
      if (cap > PSC_STORE_MAX_ENTRIES)
        cap = PSC_STORE_MAX_ENTRIES;
      if (!grow (s, cap))
        {
          *why = PSC_STATUS_FAILED;
          return PSC_NONE;
        }
    }
  s->entries[s->top].gen = 0;
  return s->top++;
}

static void
put_slot_back (PscStore *s, uint32_t i)
{
  s->entries[i].state = PSC_ENTRY_FREE;
  s->entries[i].live_pos = s->free_head;
  s->free_head = i;
}

/* Fills a taken slot's generic fields and makes it live. */
static PscEntry *
init_entry (PscStore *s, uint32_t i, uint64_t hash, const uint8_t *key, size_t len)
{
  PscEntry *e = &s->entries[i];
  const uint32_t gen = e->gen;
  memset (e, 0, sizeof *e);
  e->gen = gen;
  e->kind = s->kind;
  e->key = key;
  e->key_len = (uint32_t) len;
  e->live_pos = s->live_count;
  s->live[s->live_count++] = i;
  s->hit_frame[i] = 0;
  return e;
}

static PscStatus
no_slot (PscStatus why, PscCoreError *err)
{
  if (why == PSC_STATUS_CAPACITY)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "",
                          "the cache holds %u objects of this kind, its limit",
                          (unsigned) PSC_STORE_MAX_ENTRIES);
  return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory recording an object");
}

PscStatus
psc_store_reserve (PscStore *s, uint64_t hash, const PscProbe *p, const void *key, size_t len,
                   uint32_t *index, PscCoreError *err)
{
  if (p->same_hash >= PSC_COLLISION_BUCKET_CAPACITY)   /* before taking anything */
    return psc_table_insert_at (s->table, hash, p, key, len, 0, NULL, err);
  PscStatus why = PSC_STATUS_FAILED;
  uint32_t i = take_slot (s, &why);
  if (i == PSC_NONE)
    return no_slot (why, err);
  uint32_t slot;
  PscStatus st = psc_table_insert_at (s->table, hash, p, key, len, i, &slot, err);
  if (st != PSC_STATUS_OK)
    {
      put_slot_back (s, i);
      return st;
    }
  PscEntry *e = init_entry (s, i, hash, psc_table_slot (s->table, slot)->key, len);
  e->tabled = 1;
  e->slot = slot;
  *index = i;
  return PSC_STATUS_OK;
}

static uint8_t *
copy_key (const void *key, size_t len)
{
  uint8_t *c = malloc (len ? len : 1);
  if (c != NULL && len)
    memcpy (c, key, len);
  return c;
}

PscStatus
psc_store_add (PscStore *s, uint64_t hash, const void *key, size_t len, uint32_t *index,
               PscCoreError *err)
{
  if (len > UINT32_MAX)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "", "a key of %zu bytes is too large", len);
  PscStatus why = PSC_STATUS_FAILED;
  uint32_t i = take_slot (s, &why);
  if (i == PSC_NONE)
    return no_slot (why, err);
  uint8_t *c = copy_key (key, len);
  if (c == NULL)
    {
      put_slot_back (s, i);
      return no_slot (PSC_STATUS_FAILED, err);
    }
  init_entry (s, i, hash, c, len);
  s->untabled_bytes += malloc_usable_size (c) + sizeof (size_t);
  *index = i;
  return PSC_STATUS_OK;
}

/* Drops an entry's key: out of the table, or freed. */
static void
drop_key (PscStore *s, PscEntry *e)
{
  if (e->tabled)
    psc_table_remove_slot (s->table, e->slot);
  else if (e->key != NULL)
    {
      s->untabled_bytes -= malloc_usable_size ((void *) e->key) + sizeof (size_t);
      free ((void *) e->key);
    }
  e->key = NULL;
  e->key_len = 0;
  e->tabled = 0;
}

bool
psc_store_rekey (PscStore *s, uint32_t index, uint64_t hash, const void *key, size_t len,
                 bool tabled)
{
  PscEntry *e = &s->entries[index];
  /* The old key goes first: removing it may rehash the table, which would
   * stale a probe made before. */
  drop_key (s, e);
  PscProbe p;
  uint32_t slot;
  if (tabled && len > 0 && psc_table_probe (s->table, hash, key, len, &p) == NULL &&
      psc_table_insert_at (s->table, hash, &p, key, len, index, &slot, NULL) == PSC_STATUS_OK)
    {
      e->key = psc_table_slot (s->table, slot)->key;
      e->key_len = (uint32_t) len;
      e->tabled = 1;
      e->slot = slot;
      return true;
    }
  uint8_t *c = copy_key (key, len);
  if (c == NULL)
    return false;
  e->key = c;
  e->key_len = (uint32_t) len;
  s->untabled_bytes += malloc_usable_size (c) + sizeof (size_t);
  return true;
}

void
psc_store_release (PscStore *s, uint32_t index)
{
  PscEntry *e = &s->entries[index];
  if (e->state == PSC_ENTRY_FREE)
    return;
  drop_key (s, e);
  uint32_t mapped;
  if (e->handle != 0 && psc_handle_map_lookup (s->handles, e->handle, &mapped) && mapped == index)
    psc_handle_map_remove (s->handles, e->handle);
  /* Out of the live list: the last live entry takes this place. */
  const uint32_t last = s->live[--s->live_count];
  s->live[e->live_pos] = last;
  s->entries[last].live_pos = e->live_pos;
  s->hit_frame[index] = 0;
  e->handle = 0;
  if (++e->gen == GEN_LIMIT)
    {
      e->state = PSC_ENTRY_FREE;   /* spent: never handed out again */
      e->live_pos = PSC_NONE;
      s->spent++;
      return;
    }
  put_slot_back (s, index);
}

bool
psc_store_map (PscStore *s, uint32_t index, uint64_t handle)
{
  if (!psc_handle_map_set (s->handles, handle, index))
    return false;
  s->entries[index].handle = handle;
  return true;
}

void
psc_store_unmap (PscStore *s, uint64_t handle)
{
  psc_handle_map_remove (s->handles, handle);
}

size_t
psc_store_host_bytes (const PscStore *s)
{
  return sizeof *s + (size_t) s->cap * (sizeof (PscEntry) + sizeof (uint64_t) + sizeof (uint32_t))
         + psc_table_host_bytes (s->table) + s->untabled_bytes
         + psc_handle_map_host_bytes (s->handles);
}
