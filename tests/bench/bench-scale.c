/* bench-scale.c: psc-bench scale, the entry store alone at 10^3..10^6
 * entries (creation not timed: no Vulkan), against a floor measured in the
 * same run at every size.
 *
 *   psc-bench scale [--sizes N,N,...] [--key-bytes L] [--passes P]
 *
 * Keys have realistic sizes (L +- 32 bytes, L = 200 by default: the hit
 * bench's median graphics key is 201 bytes) and random contents. At each
 * size N:
 *  - insert_ns: one lookup that misses, a reservation, a handle mapped and
 *    the slot's answer set (what a miss does in the store), per entry;
 *  - hit_ns: XXH3 of the key + psc_store_find (probe, full compare) + the
 *    answer read, keys looked up in a shuffled order, median of P passes;
 *  - floor_ns: what any hash table must pay for the same lookups: XXH3 of
 *    the same key, then two dependent random reads in a buffer as large as
 *    the store's footprint (the key's slot, laid out as the store's table,
 *    which holds the offset of a copy of the key; then that copy) and a
 *    memcmp of the copy, median of P passes in the same order;
 *  - bytes_per_entry: the store's host bytes (entries, table, keys, handle
 *    map) / N.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"

#include "store.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 8

typedef struct {
  uint8_t *bytes;          /* n keys, `stride` bytes apart */
  uint32_t *len;
  size_t stride;
  uint32_t n;
} Keys;

static void
keys_make (Keys *k, uint32_t n, uint32_t key_bytes)
{
  k->n = n;
  k->stride = (key_bytes + 32 + 15) & ~(size_t) 15;
  k->bytes = malloc ((size_t) n * k->stride);
  k->len = malloc ((size_t) n * sizeof *k->len);
  if (k->bytes == NULL || k->len == NULL)
    die ("keys", NULL);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t *w = (uint32_t *) (k->bytes + (size_t) i * k->stride);
      const uint32_t len = key_bytes - 32 + (rng () % 17) * 4;   /* L +- 32 */
      k->len[i] = len;
      w[0] = 0x504b0402u;                                        /* a graphics tag */
      w[1] = i;                                                  /* distinct */
      for (uint32_t j = 2; j < len / 4; j++)
        w[j] = rng ();
    }
}

static inline const uint8_t *
key_at (const Keys *k, uint32_t i)
{
  return k->bytes + (size_t) i * k->stride;
}

static double
insert_all (PscStore *s, const Keys *k)
{
  const uint64_t t0 = ticks ();
  for (uint32_t i = 0; i < k->n; i++)
    {
      const uint8_t *key = key_at (k, i);
      const uint64_t hash = XXH3_64bits (key, k->len[i]);
      PscProbe p;
      uint32_t index;
      if (psc_store_find (s, hash, key, k->len[i], &p) != NULL ||
          psc_store_reserve (s, hash, &p, key, k->len[i], &index, NULL) != PSC_STATUS_OK)
        die ("store insert", NULL);
      psc_store_entry (s, index)->state = PSC_ENTRY_READY;
      const uint64_t handle = 0x1000u + (uint64_t) i * 16u;
      if (!psc_store_map (s, index, handle))
        die ("store map", NULL);
      psc_store_set_answer (s, index, handle);
    }
  return (double) (ticks () - t0) * ns_per_tick / k->n;
}

static double
hit_pass (const PscStore *s, const Keys *k, const uint32_t *order, uint64_t *sink)
{
  uint64_t sum = 0;
  const uint64_t t0 = ticks ();
  for (uint32_t q = 0; q < k->n; q++)
    {
      const uint32_t i = order[q];
      const uint8_t *key = key_at (k, i);
      const uint64_t hash = XXH3_64bits (key, k->len[i]);
      const PscTableItem *item = psc_store_find (s, hash, key, k->len[i], NULL);
      sum += item->aux;
    }
  const double ns = (double) (ticks () - t0) * ns_per_tick / k->n;
  *sink += sum;
  return ns;
}

/* The floor's buffer: the store's footprint; its table slots where the
 * store's are (each holds the offset of the key's copy), the copies at
 * random distinct places in the rest. */
typedef struct {
  uint8_t *buf;
  size_t size;
  uint32_t *slot;          /* per key: its slot index */
} Floor;

static void
floor_make (Floor *f, const PscStore *s, const Keys *k)
{
  f->size = psc_store_host_bytes (s);
  const size_t slots = s->table->mask + 1, slot_bytes = slots * sizeof (PscTableItem);
  f->buf = aligned_alloc (64, (f->size + 63) & ~(size_t) 63);
  f->slot = malloc ((size_t) k->n * sizeof *f->slot);
  if (f->buf == NULL || f->slot == NULL || slot_bytes >= f->size)
    die ("floor buffer", NULL);
  memset (f->buf, 0, f->size);
  const size_t cells = (f->size - slot_bytes) / k->stride;
  if (cells < k->n)
    die ("floor buffer: the store's footprint holds fewer key copies than keys", NULL);
  uint32_t *cell = malloc ((size_t) cells * sizeof *cell);
  if (cell == NULL)
    die ("floor cells", NULL);
  for (uint32_t c = 0; c < cells; c++)
    cell[c] = c;
  shuffle (cell, (uint32_t) cells);
  for (uint32_t i = 0; i < k->n; i++)
    {
      const uint8_t *key = key_at (k, i);
      const PscTableItem *item = psc_store_find (s, XXH3_64bits (key, k->len[i]), key, k->len[i], NULL);
      const uint32_t slot = (uint32_t) (item - s->table->slots);
      const uint64_t off = slot_bytes + (uint64_t) cell[i] * k->stride;
      memcpy (f->buf + off, key, k->len[i]);
      memcpy (f->buf + (size_t) slot * sizeof (PscTableItem), &off, sizeof off);
      f->slot[i] = slot;
    }
  free (cell);
}

static volatile uint64_t zero_source;

static double
floor_pass (const Floor *f, const Keys *k, const uint32_t *order, uint64_t *sink)
{
  uint64_t sum = 0, zero = zero_source;
  const uint64_t t0 = ticks ();
  for (uint32_t q = 0; q < k->n; q++)
    {
      const uint32_t i = order[q];
      const uint8_t *key = key_at (k, i);
      const uint64_t hash = XXH3_64bits (key, k->len[i]);
      /* The slot read waits for the hash, as a table's does. */
      const size_t s = f->slot[i] + (size_t) (hash & zero);
      uint64_t off;
      memcpy (&off, f->buf + s * sizeof (PscTableItem), sizeof off);
      sum += (uint64_t) memcmp (f->buf + off, key, k->len[i]);
    }
  const double ns = (double) (ticks () - t0) * ns_per_tick / k->n;
  *sink += sum;
  return ns;
}

typedef struct {
  uint32_t n;
  double hit, floor, insert, bytes;
} Result;

static void
measure (uint32_t n, uint32_t key_bytes, uint32_t passes, Result *r)
{
  Keys k;
  keys_make (&k, n, key_bytes);
  PscStore *s = psc_store_new (PSC_KIND_GRAPHICS);
  if (s == NULL)
    die ("store", NULL);
  r->n = n;
  r->insert = insert_all (s, &k);
  r->bytes = (double) psc_store_host_bytes (s) / n;
  Floor f;
  floor_make (&f, s, &k);
  uint32_t *order = malloc ((size_t) n * sizeof *order);
  double *hit = malloc (passes * sizeof *hit), *flo = malloc (passes * sizeof *flo);
  if (order == NULL || hit == NULL || flo == NULL)
    die ("order", NULL);
  for (uint32_t i = 0; i < n; i++)
    order[i] = i;
  uint64_t sink = 0;
  for (uint32_t p = 0; p < passes; p++)
    {
      shuffle (order, n);
      /* Alternate which goes first, so neither always finds the other's
       * lines in the cache. */
      if (p % 2 == 0)
        {
          hit[p] = hit_pass (s, &k, order, &sink);
          flo[p] = floor_pass (&f, &k, order, &sink);
        }
      else
        {
          flo[p] = floor_pass (&f, &k, order, &sink);
          hit[p] = hit_pass (s, &k, order, &sink);
        }
    }
  opaque (&sink);
  r->hit = median (hit, passes);
  r->floor = median (flo, passes);
  fprintf (stderr, "scale: %u entries: hit %.1f ns, floor %.1f ns (%.2fx), insert %.1f ns, "
           "%.0f bytes/entry, table %zu slots\n", n, r->hit, r->floor, r->hit / r->floor,
           r->insert, r->bytes, s->table->mask + 1);
  free (order);
  free (hit);
  free (flo);
  free (f.buf);
  free (f.slot);
  psc_store_free (s);
  free (k.bytes);
  free (k.len);
}

static bool
parse_sizes (const char *s, uint32_t *sizes, uint32_t *count)
{
  g_auto(GStrv) parts = g_strsplit (s, ",", -1);
  *count = 0;
  for (guint i = 0; parts[i] != NULL; i++)
    if (*count == MAX_SIZES || !parse_u32 (parts[i], &sizes[(*count)++]) ||
        sizes[*count - 1] < 1 || sizes[*count - 1] > PSC_STORE_MAX_ENTRIES)
      return false;
  return *count > 0;
}

static void
print_array (const char *name, const Result *r, uint32_t n, int which)
{
  printf ("\"%s\":[", name);
  for (uint32_t i = 0; i < n; i++)
    {
      const double v = which == 0 ? r[i].hit : which == 1 ? r[i].floor
                     : which == 2 ? r[i].insert : which == 3 ? r[i].bytes : r[i].hit / r[i].floor;
      printf (i ? ",%.2f" : "%.2f", v);
    }
  printf ("]");
}

int
bench_scale (int argc, char **argv)
{
  uint32_t sizes[MAX_SIZES] = { 1000, 10000, 100000, 1000000 }, count = 4;
  uint32_t key_bytes = 200, passes = 5;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = value != NULL;
      if (ok && strcmp (argv[i], "--sizes") == 0)
        ok = parse_sizes (value, sizes, &count);
      else if (ok && strcmp (argv[i], "--key-bytes") == 0)
        ok = parse_u32 (value, &key_bytes) && key_bytes >= 64 && key_bytes <= 4096 &&
             key_bytes % 4 == 0;
      else if (ok && strcmp (argv[i], "--passes") == 0)
        ok = parse_u32 (value, &passes) && passes >= 1 && passes <= 101;
      else
        ok = false;
      if (!ok)
        {
          fprintf (stderr, "usage: psc-bench scale [--sizes N,N,...] [--key-bytes L] [--passes P]\n");
          return 2;
        }
      i++;
    }
  calibrate_ticks ();
  Result r[MAX_SIZES];
  for (uint32_t i = 0; i < count; i++)
    measure (sizes[i], key_bytes, passes, &r[i]);
  printf ("{\"bench\":\"scale\",\"entries\":[");
  for (uint32_t i = 0; i < count; i++)
    printf (i ? ",%u" : "%u", r[i].n);
  printf ("],");
  print_array ("hit_ns", r, count, 0);
  printf (",");
  print_array ("floor_ns", r, count, 1);
  printf (",");
  print_array ("insert_ns", r, count, 2);
  printf (",");
  print_array ("bytes_per_entry", r, count, 3);
  printf (",");
  print_array ("ratio", r, count, 4);
  printf (",\"key_bytes\":%u}\n", key_bytes);
  return 0;
}
