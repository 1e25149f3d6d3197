/* table.c: the collision-safe key table (see table.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "table.h"

#include <stdlib.h>

#define MIN_SLOTS 64u

/* What a tombstone's key points at (its key_len is 0). */
static const uint8_t tombstone;

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
  psc_keyheap_init (&t->keys);
  return t;
}

static inline bool
slot_live (const PscTableItem *s)
{
  return s->key_len != 0;
}

void
psc_table_free (PscTable *t)
{
  if (t == NULL)
    return;
  for (size_t i = 0; i <= t->mask; i++)
    if (slot_live (&t->slots[i]))
      psc_keyheap_release (&t->keys, t->slots[i].key, t->slots[i].key_len);
  psc_keyheap_fini (&t->keys);
  free (t->slots);
  free (t);
}

const PscTableItem *
psc_table_probe_on (const PscTable *t, uint64_t hash, const void *key, size_t len,
                    PscProbe *miss)
{
  size_t i = (size_t) hash & t->mask;
  uint32_t tomb = UINT32_MAX, same = 0;
  for (;;)
    {
      const PscTableItem *s = &t->slots[i];
      if (s->hash == hash && s->key_len == len && memcmp (s->key, key, len) == 0)
        return s;
      if (s->key == NULL)
        {
          if (miss != NULL)
            {
              miss->insert = tomb != UINT32_MAX ? tomb : (uint32_t) i;
              miss->same_hash = same;
            }
          return NULL;
        }
      if (s->key_len == 0)
        {
          if (tomb == UINT32_MAX)
            tomb = (uint32_t) i;
        }
      else if (s->hash == hash)
        same++;
      i = (i + 1) & t->mask;
    }
}

void
psc_table_set_moved (PscTable *t, PscTableMovedFn fn, void *ctx)
{
  t->moved = fn;
  t->moved_ctx = ctx;
}

/* Rebuilds the slot array with n slots (a power of two above the live
 * count): tombstones go, every live item moves. False (table unchanged) if
 * out of memory. */
static bool
rehash (PscTable *t, size_t n)
{
  PscTableItem *ns = slots_new (n);
  if (ns == NULL)
    return false;
  const size_t old_slots = t->mask + 1, new_mask = n - 1;
  for (size_t i = 0; i < old_slots; i++)
    {
      const PscTableItem *s = &t->slots[i];
      if (!slot_live (s))
        continue;
      size_t j = (size_t) s->hash & new_mask;
      while (ns[j].key != NULL)
        j = (j + 1) & new_mask;
      ns[j] = *s;
      if (t->moved != NULL)
        t->moved (t->moved_ctx, s->value, (uint32_t) j);
    }
  free (t->slots);
  t->slots = ns;
  t->mask = new_mask;
  t->used = t->count;
  return true;
}

/* The first free slot (empty or tombstone) of an absent key's probe. */
static uint32_t
free_slot_for (const PscTable *t, uint64_t hash)
{
  size_t i = (size_t) hash & t->mask;
  while (slot_live (&t->slots[i]))
    i = (i + 1) & t->mask;
  return (uint32_t) i;
}

PscStatus
psc_table_insert_at (PscTable *t, uint64_t hash, const PscProbe *p, const void *key,
                     size_t len, uint32_t value, uint32_t *slot, PscCoreError *err)
{
  if (len == 0 || len > UINT32_MAX)
    return psc_core_fail (err, len ? PSC_STATUS_CAPACITY : PSC_STATUS_FAILED, "",
                          "internal error: a key of %zu bytes cannot be stored", len);
  if (p->same_hash >= PSC_COLLISION_BUCKET_CAPACITY)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "",
                          "collision bucket full: %u distinct keys already share hash 0x%016llx",
                          (unsigned) PSC_COLLISION_BUCKET_CAPACITY, (unsigned long long) hash);
  uint8_t *copy = psc_keyheap_copy (&t->keys, key, len);
  if (copy == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory storing a key");

  uint32_t i = p->insert;
  /* Filling an empty slot: keep the load (tombstones included) under 70%.
   * Half full of live items: double; else a same-size rehash clears the
   * tombstones. */
  if (t->slots[i].key == NULL && (t->used + 1) * 10 > (t->mask + 1) * 7)
    {
      size_t n = t->mask + 1;
      if (!rehash (t, t->count * 2 >= n ? n * 2 : n))
        {
          psc_keyheap_release (&t->keys, copy, len);
          return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory growing a table");
        }
      i = free_slot_for (t, hash);
    }
  PscTableItem *s = &t->slots[i];
  if (s->key == NULL)
    t->used++;
  *s = (PscTableItem) { .hash = hash, .key = copy, .key_len = (uint32_t) len, .value = value };
  t->count++;
  if (slot != NULL)
    *slot = i;
  return PSC_STATUS_OK;
}

PscStatus
psc_table_insert (PscTable *t, uint64_t hash, const void *key, size_t len, uint32_t value,
                  const PscTableItem **out, PscCoreError *err)
{
  PscProbe p;
  if (len == 0 || psc_table_probe (t, hash, key, len, &p) != NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: key already present");
  uint32_t slot;
  PscStatus st = psc_table_insert_at (t, hash, &p, key, len, value, &slot, err);
  if (st == PSC_STATUS_OK && out != NULL)
    *out = &t->slots[slot];
  return st;
}

void
psc_table_remove_slot (PscTable *t, uint32_t slot)
{
  PscTableItem *s = &t->slots[slot];
  if (!slot_live (s))
    return;
  psc_keyheap_release (&t->keys, s->key, s->key_len);
  *s = (PscTableItem) { .key = &tombstone };
  t->count--;
  /* Memory follows what is alive: an eighth full, halve (or more). */
  size_t n = t->mask + 1;
  if (n > MIN_SLOTS && t->count * 8 < n)
    {
      size_t want = MIN_SLOTS;
      while (want < t->count * 4)
        want *= 2;
      rehash (t, want);   /* out of memory: stay as large as we are */
    }
}

bool
psc_table_remove (PscTable *t, uint64_t hash, const void *key, size_t len)
{
  const PscTableItem *s = psc_table_find (t, hash, key, len);
  if (s == NULL)
    return false;
  psc_table_remove_slot (t, (uint32_t) (s - t->slots));
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
  return sizeof *t + (t->mask + 1) * sizeof *t->slots + t->keys.bytes;
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
