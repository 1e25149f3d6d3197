/* test-store.c: the entry store (store.h) without a GPU: reserve, publish,
 * release and reuse; generational ids; forced-collision buckets; growth and
 * rehash (entries keep their table slot); walks that cost what is alive;
 * memory that follows what is alive.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "psc-core.h"
#include "store.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* A realistic key: a 4-byte tag, then n bytes derived from i. */
static size_t
make_key (uint8_t *buf, uint32_t i, size_t n)
{
  const uint32_t tag = 0x504b0400u;
  memcpy (buf, &tag, 4);
  for (size_t b = 0; b < n; b++)
    buf[4 + b] = (uint8_t) ((i * 2654435761u) >> (b % 24)) ^ (uint8_t) b;
  memcpy (buf + 4, &i, sizeof i);
  return 4 + n;
}

/* Reserves key i as a Ready entry with a fake handle; returns its slot. */
static uint32_t
add (PscStore *s, uint32_t i, uint64_t hash_override)
{
  uint8_t key[256];
  size_t len = make_key (key, i, 196);
  uint64_t hash = hash_override ? hash_override : XXH3_64bits (key, len);
  PscProbe p;
  g_assert_null (psc_store_find (s, hash, key, len, &p));
  uint32_t index = PSC_NONE;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_store_reserve (s, hash, &p, key, len, &index, &err), ==, PSC_STATUS_OK);
  PscEntry *e = psc_store_entry (s, index);
  e->state = PSC_ENTRY_READY;
  g_assert_true (psc_store_map (s, index, 0x10000u + i));
  psc_store_set_answer (s, index, 0x10000u + i);
  return index;
}

static const PscTableItem *
find (PscStore *s, uint32_t i, uint64_t hash_override)
{
  uint8_t key[256];
  size_t len = make_key (key, i, 196);
  uint64_t hash = hash_override ? hash_override : XXH3_64bits (key, len);
  return psc_store_find (s, hash, key, len, NULL);
}

static void
test_reserve_publish_release (void)
{
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  const uint32_t a = add (s, 1, 0);
  const PscTableItem *item = find (s, 1, 0);
  g_assert_nonnull (item);
  g_assert_cmpuint (item->value, ==, a);
  g_assert_cmpuint (item->aux, ==, 0x10001u);
  const PscEntry *e = psc_store_entry (s, a);
  g_assert_true (e->tabled);
  g_assert_true (e->key == item->key);            /* the table's own copy */
  uint32_t index = PSC_NONE;
  g_assert_true (psc_store_index_of_handle (s, 0x10001u, &index));
  g_assert_cmpuint (index, ==, a);
  g_assert_cmpuint (psc_store_live_count (s), ==, 1);

  const uint32_t id = psc_store_id (s, a);
  g_assert_true (psc_store_index_of_id (s, id, &index));
  psc_store_release (s, a);
  g_assert_null (find (s, 1, 0));
  g_assert_false (psc_store_index_of_handle (s, 0x10001u, &index));
  g_assert_false (psc_store_index_of_id (s, id, &index));   /* a dead id */
  g_assert_cmpuint (psc_store_live_count (s), ==, 0);

  /* The slot is reused, with a new generation: the old id stays refused,
   * the new one is accepted. */
  const uint32_t b = add (s, 2, 0);
  g_assert_cmpuint (b, ==, a);
  const uint32_t id2 = psc_store_id (s, b);
  g_assert_cmpuint (id2, !=, id);
  g_assert_cmpuint (id2 & PSC_ID_INDEX_MASK, ==, id & PSC_ID_INDEX_MASK);
  g_assert_false (psc_store_index_of_id (s, id, &index));
  g_assert_true (psc_store_index_of_id (s, id2, &index));
  g_assert_false (psc_store_index_of_id (s, 0, &index));
  g_assert_false (psc_store_index_of_id (s, id2 + 1, &index));  /* a slot never used */
  psc_store_free (s);
}

/* After 2^PSC_ID_GEN_BITS reuses a slot is spent: it is never handed out
 * again, so no id can ever come back. */
static void
test_generation_spent (void)
{
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  uint32_t first_id = 0, index;
  for (uint32_t round = 0; round < (1u << PSC_ID_GEN_BITS); round++)
    {
      const uint32_t i = add (s, round, 0);
      g_assert_cmpuint (i, ==, 0);
      if (round == 0)
        first_id = psc_store_id (s, i);
      psc_store_release (s, i);
    }
  g_assert_cmpuint (s->spent, ==, 1);
  const uint32_t next = add (s, 99999, 0);
  g_assert_cmpuint (next, ==, 1);
  g_assert_false (psc_store_index_of_id (s, first_id, &index));
  psc_store_free (s);
}

static void
test_forced_collisions (void)
{
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  const uint64_t forced = 0xfeedfacecafebeefull;
  for (uint32_t i = 0; i < PSC_COLLISION_BUCKET_CAPACITY; i++)
    add (s, i, forced);
  /* One more: the probe counts the bucket, reserve refuses and changes
   * nothing. */
  uint8_t key[256];
  size_t len = make_key (key, 100, 196);
  PscProbe p;
  g_assert_null (psc_store_find (s, forced, key, len, &p));
  g_assert_cmpuint (p.same_hash, ==, PSC_COLLISION_BUCKET_CAPACITY);
  uint32_t index = PSC_NONE;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_store_reserve (s, forced, &p, key, len, &index, &err), ==, PSC_STATUS_CAPACITY);
  g_assert_nonnull (strstr (err.message, "collision bucket full"));
  g_assert_cmpuint (psc_store_live_count (s), ==, PSC_COLLISION_BUCKET_CAPACITY);
  for (uint32_t i = 0; i < PSC_COLLISION_BUCKET_CAPACITY; i++)
    {
      const PscTableItem *item = find (s, i, forced);
      g_assert_nonnull (item);
      g_assert_cmpuint (item->aux, ==, 0x10000u + i);
    }
  /* A member leaves: its place in the bucket is free again. */
  psc_store_release (s, find (s, 0, forced)->value);
  g_assert_null (psc_store_find (s, forced, key, len, &p));
  g_assert_cmpuint (p.same_hash, ==, PSC_COLLISION_BUCKET_CAPACITY - 1);
  g_assert_cmpint (psc_store_reserve (s, forced, &p, key, len, &index, &err), ==, PSC_STATUS_OK);
  psc_store_free (s);
}

/* Growth rehashes the table many times: every entry keeps its slot up to
 * date (publication writes the slot without a lookup). */
static void
test_growth_keeps_slots (void)
{
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  const uint32_t n = 20000;
  for (uint32_t i = 0; i < n; i++)
    add (s, i, 0);
  for (uint32_t i = 0; i < n; i += 7)
    {
      const PscTableItem *item = find (s, i, 0);
      g_assert_nonnull (item);
      const PscEntry *e = psc_store_entry (s, item->value);
      g_assert_true (psc_table_slot (s->table, e->slot) == item);
      psc_store_set_answer (s, item->value, 0x99u);
      g_assert_cmpuint (find (s, i, 0)->aux, ==, 0x99u);
    }
  /* Shrinking rehashes too. */
  for (uint32_t i = 0; i < n; i++)
    if (i % 100 != 0)
      psc_store_release (s, find (s, i, 0)->value);
  for (uint32_t i = 0; i < n; i += 100)
    {
      const PscTableItem *item = find (s, i, 0);
      g_assert_nonnull (item);
      g_assert_true (psc_table_slot (s->table, psc_store_entry (s, item->value)->slot) == item);
    }
  psc_store_free (s);
}

/* A walk visits exactly the live entries, whatever the history: after many
 * churn cycles the live list holds what is alive, and memory is flat. */
static void
test_walk_and_memory_follow_live (void)
{
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  const uint32_t keep = 100, churn = 1000;
  for (uint32_t i = 0; i < keep; i++)
    add (s, i, 0);
  size_t warm = 0;
  for (uint32_t cycle = 0; cycle < 50; cycle++)
    {
      for (uint32_t i = 0; i < churn; i++)
        add (s, keep + i, 0);
      /* Every other one first, so entries leave from the middle of the
       * live list; the walk must then see exactly the survivors. */
      for (uint32_t i = cycle % 2; i < churn; i += 2)
        psc_store_release (s, find (s, keep + i, 0)->value);
      g_assert_cmpuint (psc_store_live_count (s), ==, keep + churn / 2);
      g_autofree uint8_t *seen_now = g_new0 (uint8_t, s->top);
      for (uint32_t pos = 0; pos < psc_store_live_count (s); pos++)
        {
          const uint32_t idx = psc_store_live_at (s, pos);
          g_assert_cmpint (psc_store_entry (s, idx)->state, ==, PSC_ENTRY_READY);
          g_assert_cmpuint (psc_store_entry (s, idx)->live_pos, ==, pos);
          g_assert_cmpuint (seen_now[idx]++, ==, 0);
        }
      for (uint32_t i = 1 - cycle % 2; i < churn; i += 2)
        psc_store_release (s, find (s, keep + i, 0)->value);
      if (cycle == 1)
        warm = psc_store_host_bytes (s);
    }
  g_assert_cmpuint (psc_store_live_count (s), ==, keep);
  g_assert_cmpuint (psc_store_host_bytes (s), <=, warm);
  /* The slots ever used stay what was alive at the peak. */
  g_assert_cmpuint (s->top, <=, keep + churn);
  uint32_t seen = 0;
  for (uint32_t pos = 0; pos < psc_store_live_count (s); pos++)
    {
      const PscEntry *e = psc_store_entry (s, psc_store_live_at (s, pos));
      g_assert_cmpint (e->state, ==, PSC_ENTRY_READY);
      g_assert_cmpuint (e->live_pos, ==, pos);
      seen++;
    }
  g_assert_cmpuint (seen, ==, keep);
  /* A walk (psc_store_walk) visits each live entry once and may release
   * the entry it is at. */
  g_autofree uint8_t *visited = g_new0 (uint8_t, s->top);
  uint32_t visits = 0;
  PscLiveWalk walk = psc_store_walk (s);
  for (uint32_t i; psc_live_next (&walk, &i);)
    {
      g_assert_cmpuint (visited[i]++, ==, 0);
      if (visits++ % 2 == 0)
        psc_store_release (s, i);
    }
  g_assert_cmpuint (visits, ==, keep);
  g_assert_cmpuint (psc_store_live_count (s), ==, keep / 2);
  for (uint32_t i = 0; i < keep; i++)
    {
      const PscTableItem *item = find (s, i, 0);
      if (item != NULL)
        g_assert_cmpuint (psc_store_entry (s, item->value)->live_pos, <, keep / 2);
    }
  psc_store_free (s);
}

/* Untabled entries (pass-through, a shader whose reloaded code is another
 * shader's) own their key; rekeying moves an entry in and out of the
 * table. */
static void
test_untabled_and_rekey (void)
{
  PscStore *s = psc_store_new (PSC_KIND_SHADER);
  uint8_t key[256];
  size_t len = make_key (key, 5, 60);
  uint32_t a, b;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_store_add (s, 1, key, len, &a, &err), ==, PSC_STATUS_OK);
  psc_store_entry (s, a)->state = PSC_ENTRY_READY;
  g_assert_false (psc_store_entry (s, a)->tabled);
  g_assert_true (psc_store_entry (s, a)->key != key);
  g_assert_cmpmem (psc_store_entry (s, a)->key, len, key, len);
  g_assert_null (psc_store_find (s, XXH3_64bits (key, len), key, len, NULL));
  /* Into the table. */
  g_assert_true (psc_store_rekey (s, a, XXH3_64bits (key, len), key, len, true));
  g_assert_true (psc_store_entry (s, a)->tabled);
  g_assert_nonnull (psc_store_find (s, XXH3_64bits (key, len), key, len, NULL));
  /* Another entry with the same content stays untabled. */
  g_assert_cmpint (psc_store_add (s, 2, "x", 1, &b, &err), ==, PSC_STATUS_OK);
  psc_store_entry (s, b)->state = PSC_ENTRY_READY;
  g_assert_true (psc_store_rekey (s, b, XXH3_64bits (key, len), key, len, true));
  g_assert_false (psc_store_entry (s, b)->tabled);
  g_assert_cmpuint (psc_store_find (s, XXH3_64bits (key, len), key, len, NULL)->value, ==, a);
  /* Out of the table again. */
  g_assert_true (psc_store_rekey (s, a, 7, "other", 5, true));
  g_assert_null (psc_store_find (s, XXH3_64bits (key, len), key, len, NULL));
  g_assert_nonnull (psc_store_find (s, 7, "other", 5, NULL));
  psc_store_release (s, a);
  psc_store_release (s, b);
  g_assert_cmpuint (psc_table_count (s->table), ==, 0);
  psc_store_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/store/reserve-publish-release", test_reserve_publish_release);
  g_test_add_func ("/store/generation-spent", test_generation_spent);
  g_test_add_func ("/store/forced-collisions", test_forced_collisions);
  g_test_add_func ("/store/growth-keeps-slots", test_growth_keeps_slots);
  g_test_add_func ("/store/walk-and-memory-follow-live", test_walk_and_memory_follow_live);
  g_test_add_func ("/store/untabled-and-rekey", test_untabled_and_rekey);
  return g_test_run ();
}
