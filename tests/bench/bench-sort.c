/* bench-sort.c: psc-bench sort, PscDrawList's radix sort against qsort
 * (issue 12).
 *
 * Every frame draws N new random draws (outside the timed region), adds
 * them to one list, opaque then transparent, and sorts; a plain qsort of
 * the same records by the same keys (the depth already packed into its
 * order-preserving integer, submission index last, so its order is the
 * list's exactly) runs in the same frame and must give the same order.
 * Medians over the frames:
 *
 *   {"bench":"sort","draws":N,"opaque_ns_per_draw":O,"transparent_ns_per_draw":T,
 *    "qsort_ns_per_draw":Q,"transparent_qsort_ns_per_draw":QT,"add_ns_per_draw":D,
 *    "allocs_per_frame":A,"frames":F,"pipelines":P,"materials":M}
 *
 * O, T: psc_draw_list_sort per draw; Q, QT: qsort per draw (opaque,
 * transparent comparator); D: psc_draw_list_add_* per draw; A: heap
 * allocations (malloc interposed) between a frame's first clear and its
 * last sort, both kinds. Goal (issue 12): O and T at most Q / 3, A = 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"

#include <psocache/psocache.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t hash;
  uint32_t material;
  uint32_t depth;       /* order-preserving image of the float */
  uint32_t seq;
  uint32_t id;
} SortRec;

/* The list's documented depth order as an integer (see
 * docs/draw-sorting.md): NaN after +inf, -0.0 == +0.0. */
static uint32_t
depth_bits (float f)
{
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return UINT32_MAX;
  if ((u & 0x7fffffffu) == 0)
    u = 0;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static int
cmp_opaque (const void *pa, const void *pb)
{
  const SortRec *a = pa, *b = pb;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  if (a->material != b->material)
    return a->material < b->material ? -1 : 1;
  if (a->depth != b->depth)
    return a->depth < b->depth ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

static int
cmp_transparent (const void *pa, const void *pb)
{
  const SortRec *a = pa, *b = pb;
  if (a->depth != b->depth)
    return a->depth > b->depth ? -1 : 1;          /* back to front */
  return (a->seq > b->seq) - (a->seq < b->seq);
}

static float
random_depth (void)
{
  /* View depths of a scene: 0.1 to 1,000 units. */
  return 0.1f + (float) (rng () % 10000000u) * (999.9f / 10000000.0f);
}

int
bench_sort (int argc, char **argv)
{
  uint32_t n = 100000, frames = 31, pipelines = 512, materials = 1024;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = value != NULL;
      if (ok && strcmp (argv[i], "--draws") == 0)
        ok = parse_u32 (value, &n) && n >= 2 && n <= PSC_DRAW_LIST_MAX_CAPACITY;
      else if (ok && strcmp (argv[i], "--frames") == 0)
        ok = parse_u32 (value, &frames) && frames >= 1;
      else if (ok && strcmp (argv[i], "--pipelines") == 0)
        ok = parse_u32 (value, &pipelines) && pipelines >= 1;
      else if (ok && strcmp (argv[i], "--materials") == 0)
        ok = parse_u32 (value, &materials) && materials >= 1;
      else
        ok = false;
      if (!ok)
        {
          fprintf (stderr, "usage: psc-bench sort [--draws N] [--frames F] [--pipelines P] "
                           "[--materials M]\n");
          return 2;
        }
      i++;
    }
  calibrate_ticks ();

  uint64_t *hash_pool = malloc (pipelines * sizeof *hash_pool);
  for (uint32_t p = 0; p < pipelines; p++)
    hash_pool[p] = (uint64_t) rng () << 32 | rng ();
  uint64_t *hash = malloc (n * sizeof *hash);
  uint32_t *material = malloc (n * sizeof *material);
  float *depth = malloc (n * sizeof *depth);
  float *tdepth = malloc (n * sizeof *tdepth);
  SortRec *recs = malloc (n * sizeof *recs);
  uint32_t *expected = malloc (n * sizeof *expected);
  double *s_op = calloc (frames, sizeof (double)), *s_tr = calloc (frames, sizeof (double));
  double *s_q = calloc (frames, sizeof (double)), *s_qt = calloc (frames, sizeof (double));
  double *s_add = calloc (frames, sizeof (double));
  PscDrawList *list = psc_draw_list_new (n);
  unsigned long allocs = 0;
  int failures = 0;

  /* Frame -1 warms the caches and is not counted. */
  for (int64_t f = -1; f < (int64_t) frames; f++)
    {
      for (uint32_t i = 0; i < n; i++)
        {
          hash[i] = hash_pool[rng () % pipelines];
          material[i] = rng () % materials;
          depth[i] = random_depth ();
          tdepth[i] = random_depth ();
        }
      /* The list: opaque, then transparent. */
      unsigned long a0 = atomic_load (&bench_alloc_count);
      uint64_t t0 = ticks ();
      psc_draw_list_clear (list);
      for (uint32_t i = 0; i < n; i++)
        psc_draw_list_add_opaque (list, hash[i], material[i], depth[i], i);
      uint64_t t1 = ticks ();
      psc_draw_list_sort (list);
      uint64_t t2 = ticks ();
      unsigned long a1 = atomic_load (&bench_alloc_count);
      guint n_order = 0;
      const guint32 *order = psc_draw_list_get_opaque_order (list, &n_order);
      memcpy (expected, order, n * sizeof *expected);    /* checked below */
      unsigned long a2 = atomic_load (&bench_alloc_count);
      uint64_t t3 = ticks ();
      psc_draw_list_clear (list);
      for (uint32_t i = 0; i < n; i++)
        psc_draw_list_add_transparent (list, tdepth[i], i);
      uint64_t t4 = ticks ();
      psc_draw_list_sort (list);
      uint64_t t5 = ticks ();
      unsigned long a3 = atomic_load (&bench_alloc_count);

      /* qsort, same records, same keys. */
      for (uint32_t i = 0; i < n; i++)
        recs[i] = (SortRec) { hash[i], material[i], depth_bits (depth[i]), i, i };
      uint64_t q0 = ticks ();
      qsort (recs, n, sizeof *recs, cmp_opaque);
      uint64_t q1 = ticks ();
      if (n_order != n)
        failures++;
      for (uint32_t j = 0; j < n && n_order == n; j++)
        if (recs[j].id != expected[j])
          {
            fprintf (stderr, "psc-bench sort: opaque order differs from qsort's at %u\n", j);
            failures++;
            break;
          }
      for (uint32_t i = 0; i < n; i++)
        recs[i] = (SortRec) { 0, 0, depth_bits (tdepth[i]), i, i };
      uint64_t q2 = ticks ();
      qsort (recs, n, sizeof *recs, cmp_transparent);
      uint64_t q3 = ticks ();
      order = psc_draw_list_get_transparent_order (list, &n_order);
      if (n_order != n)
        failures++;
      for (uint32_t j = 0; j < n && n_order == n; j++)
        if (recs[j].id != order[j])
          {
            fprintf (stderr, "psc-bench sort: transparent order differs from qsort's at %u\n", j);
            failures++;
            break;
          }
      if (f < 0)
        continue;
      s_add[f] = (double) ((t1 - t0) + (t4 - t3)) * ns_per_tick / (2.0 * n);
      s_op[f] = (double) (t2 - t1) * ns_per_tick / n;
      s_tr[f] = (double) (t5 - t4) * ns_per_tick / n;
      s_q[f] = (double) (q1 - q0) * ns_per_tick / n;
      s_qt[f] = (double) (q3 - q2) * ns_per_tick / n;
      allocs += (a1 - a0) + (a3 - a2);
    }

  double o = median (s_op, frames), t = median (s_tr, frames);
  double q = median (s_q, frames), qt = median (s_qt, frames), add = median (s_add, frames);
  double a = (double) allocs / frames;
  printf ("{\"bench\":\"sort\",\"draws\":%u,\"opaque_ns_per_draw\":%.2f,"
          "\"transparent_ns_per_draw\":%.2f,\"qsort_ns_per_draw\":%.2f,"
          "\"transparent_qsort_ns_per_draw\":%.2f,\"add_ns_per_draw\":%.2f,"
          "\"allocs_per_frame\":%.3f,\"frames\":%u,\"pipelines\":%u,\"materials\":%u}\n",
          n, o, t, q, qt, add, a, frames, pipelines, materials);
  fprintf (stderr, "psc-bench sort: opaque %.2f ns/draw (qsort / radix %.1f), transparent %.2f "
                   "(qsort / radix %.1f, against the opaque qsort %.1f), %.3f allocations a frame\n",
           o, q / o, t, qt / t, q / t, a);
  if (o > q / 3 || t > q / 3 || a != 0)
    fprintf (stderr, "psc-bench sort: goal missed (O and T at most Q/3, A = 0)\n");
  psc_draw_list_unref (list);
  free (hash_pool); free (hash); free (material); free (depth); free (tdepth);
  free (recs); free (expected);
  free (s_op); free (s_tr); free (s_q); free (s_qt); free (s_add);
  if (failures)
    fprintf (stderr, "psc-bench sort: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
