/* test-draw-list.c: PscDrawList's orders (property tests over random lists
 * with a printed seed, the documented NaN/infinity/zero placement), its
 * capacity, reuse over frames and its argument checks. No GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The seed of every random list (PSC_TEST_SEED overrides it). */
static guint32 seed = 0x5eed0c12u;

typedef struct {
  guint64 hash;
  guint32 material;
  gfloat depth;
  gboolean transparent;
} Draw;

/* The ids handed to the list are not the submission indices, so that the
 * test sees the list map back through them. */
#define ID_OF(i) ((guint32) (i) * 2654435761u ^ 0x5a5a5a5au)

/* Depth order as the documentation states it, from float comparisons
 * (not from the list's integer keys): every NaN is equal and farther than
 * +inf, -0.0 == +0.0. */
static int
depth_cmp (gfloat a, gfloat b)
{
  gboolean na = isnan (a), nb = isnan (b);
  if (na || nb)
    return na - nb;
  return (a > b) - (a < b);
}

static gfloat
random_depth (GRand *r)
{
  switch (g_rand_int_range (r, 0, 12))
    {
    case 0: return NAN;
    case 1: return -NAN;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return 0.0f;
    case 5: return -0.0f;
    case 6: return (gfloat) g_rand_int_range (r, -4, 4);      /* many ties */
    case 7: return 1e-40f * (gfloat) g_rand_int_range (r, -3, 4); /* subnormals */
    case 8:
      {
        /* any bit pattern at all */
        guint32 u = g_rand_int (r);
        gfloat f;
        memcpy (&f, &u, sizeof f);
        return f;
      }
    default: return (gfloat) g_rand_double_range (r, -1000.0, 1000.0);
    }
}

static void
random_draws (GRand *r, Draw *draws, guint n, gdouble transparent_share)
{
  /* Few pipelines and materials, so that keys collide. Hashes across the
   * whole 64 bits, so that every digit is exercised. */
  static const guint64 hashes[] = {
    0, 1, 0xffffffffffffffffull, 0x8000000000000000ull, 0x00000000ffffffffull,
    0x123456789abcdef0ull, 0xfedcba9876543210ull, 0x0000080000000000ull,
  };
  for (guint i = 0; i < n; i++)
    {
      draws[i].transparent = g_rand_double (r) < transparent_share;
      draws[i].hash = g_rand_boolean (r) ? hashes[g_rand_int_range (r, 0, G_N_ELEMENTS (hashes))]
                                         : ((guint64) g_rand_int (r) << 32 | g_rand_int (r));
      guint32 m = g_rand_int_range (r, 0, 6);
      draws[i].material = m == 5 ? g_rand_int (r) : m == 4 ? G_MAXUINT32 : m;
      draws[i].depth = random_depth (r);
    }
}

static void
fill (PscDrawList *list, const Draw *draws, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      gboolean ok = draws[i].transparent
        ? psc_draw_list_add_transparent (list, draws[i].depth, ID_OF (i))
        : psc_draw_list_add_opaque (list, draws[i].hash, draws[i].material, draws[i].depth, ID_OF (i));
      g_assert_true (ok);
    }
}

/* Maps the ids of an order back to submission indices, checking that the
 * order is a permutation of the draws of that kind. */
static guint *
order_to_indices (const guint32 *order, guint n_order, const Draw *draws, guint n,
                  gboolean transparent)
{
  GHashTable *by_id = g_hash_table_new (NULL, NULL);
  guint expected = 0;
  for (guint i = 0; i < n; i++)
    if (draws[i].transparent == transparent)
      {
        g_hash_table_insert (by_id, GUINT_TO_POINTER (ID_OF (i)), GUINT_TO_POINTER (i + 1));
        expected++;
      }
  g_assert_cmpuint (n_order, ==, expected);
  guint *idx = g_new (guint, n_order + 1);
  for (guint j = 0; j < n_order; j++)
    {
      gpointer v = NULL;
      g_assert_true (g_hash_table_steal_extended (by_id, GUINT_TO_POINTER (order[j]), NULL, &v));
      idx[j] = GPOINTER_TO_UINT (v) - 1;
    }
  g_assert_cmpuint (g_hash_table_size (by_id), ==, 0);   /* nothing twice, nothing lost */
  g_hash_table_unref (by_id);
  return idx;
}

static void
check_opaque (PscDrawList *list, const Draw *draws, guint n)
{
  guint n_order = 0;
  const guint32 *order = psc_draw_list_get_opaque_order (list, &n_order);
  g_assert_nonnull (order);
  g_autofree guint *idx = order_to_indices (order, n_order, draws, n, FALSE);
  for (guint j = 1; j < n_order; j++)
    {
      const Draw *a = &draws[idx[j - 1]], *b = &draws[idx[j]];
      int c = (a->hash > b->hash) - (a->hash < b->hash);
      if (c == 0)
        c = (a->material > b->material) - (a->material < b->material);
      if (c == 0)
        c = depth_cmp (a->depth, b->depth);
      if (c == 0)
        c = idx[j - 1] < idx[j] ? -1 : 1;    /* stable: submission order */
      if (c >= 0)
        g_error ("opaque order wrong at %u: #%u (%016" G_GINT64_MODIFIER "x, %u, %a) before "
                 "#%u (%016" G_GINT64_MODIFIER "x, %u, %a) (seed %u)",
                 j, idx[j - 1], a->hash, a->material, (double) a->depth,
                 idx[j], b->hash, b->material, (double) b->depth, seed);
    }
}

static void
check_transparent (PscDrawList *list, const Draw *draws, guint n)
{
  guint n_order = 0;
  const guint32 *order = psc_draw_list_get_transparent_order (list, &n_order);
  g_assert_nonnull (order);
  g_autofree guint *idx = order_to_indices (order, n_order, draws, n, TRUE);
  for (guint j = 1; j < n_order; j++)
    {
      const Draw *a = &draws[idx[j - 1]], *b = &draws[idx[j]];
      int c = depth_cmp (b->depth, a->depth);          /* back to front */
      if (c == 0)
        c = idx[j - 1] < idx[j] ? -1 : 1;            /* the only tie-breaker */
      if (c >= 0)
        g_error ("transparent order wrong at %u: #%u (%a) before #%u (%a) (seed %u)",
                 j, idx[j - 1], (double) a->depth, idx[j], (double) b->depth, seed);
    }
}

/* Random lists of many sizes, opaque only, transparent only and mixed. */
static void
test_random (void)
{
  GRand *r = g_rand_new_with_seed (seed);
  g_test_message ("seed %u (PSC_TEST_SEED=%u reproduces it)", seed, seed);
  PscDrawList *list = psc_draw_list_new (6000);
  Draw *draws = g_new (Draw, 6000);
  const gdouble shares[] = { 0.0, 1.0, 0.3 };
  for (guint round = 0; round < 120; round++)
    {
      guint n = round < 20 ? round : (guint) g_rand_int_range (r, 0, 6001);
      gdouble share = shares[round % G_N_ELEMENTS (shares)];
      random_draws (r, draws, n, share);
      psc_draw_list_clear (list);
      fill (list, draws, n);
      psc_draw_list_sort (list);
      check_opaque (list, draws, n);
      check_transparent (list, draws, n);
      /* Sorting again changes nothing. */
      psc_draw_list_sort (list);
      check_opaque (list, draws, n);
      check_transparent (list, draws, n);
      g_assert_cmpuint (psc_draw_list_get_dropped (list), ==, 0);
    }
  g_free (draws);
  psc_draw_list_unref (list);
  g_rand_free (r);
}

/* Equal keys keep submission order; transparent draws ignore pipeline and
 * material altogether (they have neither), only the depth orders them. */
static void
test_equal_keys (void)
{
  PscDrawList *list = psc_draw_list_new (64);
  for (guint i = 0; i < 32; i++)
    {
      g_assert_true (psc_draw_list_add_opaque (list, 7, 3, 2.5f, 100 + i));
      g_assert_true (psc_draw_list_add_transparent (list, 2.5f, 200 + i));
    }
  psc_draw_list_sort (list);
  guint n = 0;
  const guint32 *o = psc_draw_list_get_opaque_order (list, &n);
  g_assert_cmpuint (n, ==, 32);
  for (guint i = 0; i < 32; i++)
    g_assert_cmpuint (o[i], ==, 100 + i);
  const guint32 *t = psc_draw_list_get_transparent_order (list, &n);
  g_assert_cmpuint (n, ==, 32);
  for (guint i = 0; i < 32; i++)
    g_assert_cmpuint (t[i], ==, 200 + i);

  /* Keys by priority: the hash beats the material beats the depth. */
  psc_draw_list_clear (list);
  psc_draw_list_add_opaque (list, 2, 0, -5.0f, 0);   /* hash 2 last */
  psc_draw_list_add_opaque (list, 1, 9, -5.0f, 1);   /* material 9 after 1 */
  psc_draw_list_add_opaque (list, 1, 1, 8.0f, 2);    /* depth 8 after 3 */
  psc_draw_list_add_opaque (list, 1, 1, 3.0f, 3);
  psc_draw_list_add_opaque (list, 0x100000000ull, 0, 0.0f, 4); /* high bits count */
  psc_draw_list_add_opaque (list, 1, 0x10000, 0.0f, 5);        /* so do a material's */
  psc_draw_list_sort (list);
  o = psc_draw_list_get_opaque_order (list, &n);
  const guint32 expected[] = { 3, 2, 1, 5, 0, 4 };
  g_assert_cmpmem (o, n * sizeof *o, expected, sizeof expected);
  psc_draw_list_unref (list);
}

static gfloat
bits_float (guint32 u)
{
  gfloat f;
  memcpy (&f, &u, sizeof f);
  return f;
}

/* The documented placement: NaN (any NaN, whatever its sign) is farther
 * than +inf, -inf nearer than any number, -0.0 equal to +0.0. */
static void
test_special_depths (void)
{
  const gfloat depths[] = {
    NAN, INFINITY, 1.0f, -0.0f, 0.0f, -INFINITY, -1.0f, bits_float (0xffc00001u) /* -NaN */,
    1e-45f, -1e-45f, 3.4e38f,
  };
  const guint n = G_N_ELEMENTS (depths);
  PscDrawList *list = psc_draw_list_new (2 * n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (psc_draw_list_add_opaque (list, 42, 1, depths[i], i));
      g_assert_true (psc_draw_list_add_transparent (list, depths[i], i));
    }
  psc_draw_list_sort (list);
  guint n_o = 0, n_t = 0;
  const guint32 *o = psc_draw_list_get_opaque_order (list, &n_o);
  const guint32 *t = psc_draw_list_get_transparent_order (list, &n_t);
  /* Front to back: -inf, -1, -1e-45, -0.0 = +0.0 (submission order), 1e-45,
   * 1, 3.4e38, +inf, NaN = -NaN (submission order). */
  const guint32 opaque[] = { 5, 6, 9, 3, 4, 8, 2, 10, 1, 0, 7 };
  /* Back to front: the NaNs first, submission order among equals. */
  const guint32 transparent[] = { 0, 7, 1, 10, 2, 8, 3, 4, 9, 6, 5 };
  g_assert_cmpmem (o, n_o * sizeof *o, opaque, sizeof opaque);
  g_assert_cmpmem (t, n_t * sizeof *t, transparent, sizeof transparent);
  psc_draw_list_unref (list);
}

static void
test_empty (void)
{
  PscDrawList *list = psc_draw_list_new (1);
  guint n = 99;
  /* A new list is sorted and empty. */
  g_assert_true (psc_draw_list_is_sorted (list));
  g_assert_nonnull (psc_draw_list_get_opaque_order (list, &n));
  g_assert_cmpuint (n, ==, 0);
  n = 99;
  psc_draw_list_sort (list);
  g_assert_nonnull (psc_draw_list_get_transparent_order (list, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (psc_draw_list_get_n_opaque (list), ==, 0);
  g_assert_cmpuint (psc_draw_list_get_n_transparent (list), ==, 0);
  g_assert_cmpuint (psc_draw_list_get_capacity (list), ==, 1);
  /* One draw is its own order. */
  g_assert_true (psc_draw_list_add_transparent (list, NAN, 77));
  g_assert_false (psc_draw_list_is_sorted (list));
  psc_draw_list_sort (list);
  const guint32 *t = psc_draw_list_get_transparent_order (list, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (t[0], ==, 77);
  psc_draw_list_get_opaque_order (list, &n);
  g_assert_cmpuint (n, ==, 0);
  psc_draw_list_unref (list);
}

/* The capacity is shared by both kinds; a full list refuses, counts and
 * keeps what it has. */
static void
test_full (void)
{
  PscDrawList *list = psc_draw_list_new (4);
  g_assert_true (psc_draw_list_add_opaque (list, 1, 0, 1.0f, 10));
  g_assert_true (psc_draw_list_add_transparent (list, 1.0f, 20));
  g_assert_true (psc_draw_list_add_opaque (list, 0, 0, 1.0f, 11));
  g_assert_true (psc_draw_list_add_transparent (list, 2.0f, 21));
  psc_draw_list_sort (list);
  /* Exactly full, then one more of each kind. */
  g_assert_false (psc_draw_list_add_opaque (list, 0, 0, 0.0f, 12));
  g_assert_false (psc_draw_list_add_transparent (list, 0.0f, 22));
  g_assert_cmpuint (psc_draw_list_get_dropped (list), ==, 2);
  g_assert_cmpuint (psc_draw_list_get_n_opaque (list), ==, 2);
  g_assert_cmpuint (psc_draw_list_get_n_transparent (list), ==, 2);
  /* A refused draw changes nothing: the orders are still current. */
  g_assert_true (psc_draw_list_is_sorted (list));
  guint n = 0;
  const guint32 *o = psc_draw_list_get_opaque_order (list, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (o[0], ==, 11);
  g_assert_cmpuint (o[1], ==, 10);
  const guint32 *t = psc_draw_list_get_transparent_order (list, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (t[0], ==, 21);
  g_assert_cmpuint (t[1], ==, 20);
  /* Clear forgets the draws and the refusals; all four fit again, of
   * either kind. */
  psc_draw_list_clear (list);
  g_assert_cmpuint (psc_draw_list_get_dropped (list), ==, 0);
  for (guint i = 0; i < 4; i++)
    g_assert_true (psc_draw_list_add_transparent (list, (gfloat) i, i));
  g_assert_false (psc_draw_list_add_opaque (list, 0, 0, 0.0f, 9));
  g_assert_cmpuint (psc_draw_list_get_dropped (list), ==, 1);
  psc_draw_list_unref (list);
}

/* 1,000 frames through one list: every frame's orders are right and live
 * in the same memory (the list never reallocates; psc-bench sort counts
 * the heap allocations of a frame: 0). */
static void
test_reuse (void)
{
  GRand *r = g_rand_new_with_seed (seed ^ 0x1000u);
  PscDrawList *list = psc_draw_list_new (256);
  Draw draws[256];
  guint n = 0;
  const guint32 *o0 = psc_draw_list_get_opaque_order (list, &n);
  const guint32 *t0 = psc_draw_list_get_transparent_order (list, &n);
  for (guint frame = 0; frame < 1000; frame++)
    {
      guint count = (guint) g_rand_int_range (r, 0, 257);
      random_draws (r, draws, count, 0.4);
      psc_draw_list_clear (list);
      fill (list, draws, count);
      /* Past the capacity on some frames. */
      guint extra = frame % 3 == 0 ? 256 - count + 5 : 0;
      for (guint i = 0; i < extra; i++)
        if (!psc_draw_list_add_opaque (list, 0, 0, 0.0f, 0xdead))
          break;
      if (extra)
        {
          /* The rest went in, filling the list; the last 5 were refused
           * (the loop stops at the first, so 1 counted). */
          g_assert_cmpuint (psc_draw_list_get_dropped (list), ==, 1);
          g_assert_cmpuint (psc_draw_list_get_n_opaque (list) + psc_draw_list_get_n_transparent (list),
                            ==, 256);
          psc_draw_list_clear (list);
          fill (list, draws, count);
        }
      psc_draw_list_sort (list);
      g_assert_true (psc_draw_list_get_opaque_order (list, &n) == o0);
      g_assert_true (psc_draw_list_get_transparent_order (list, &n) == t0);
      check_opaque (list, draws, count);
      check_transparent (list, draws, count);
    }
  psc_draw_list_unref (list);
  g_rand_free (r);
}

/* The boxed type: g_boxed_copy takes a reference, the last unref frees
 * (ASan reports a leak or a double free otherwise). */
static void
test_boxed (void)
{
  PscDrawList *list = psc_draw_list_new (8);
  g_assert_true (G_TYPE_IS_BOXED (PSC_TYPE_DRAW_LIST));
  PscDrawList *copy = g_boxed_copy (PSC_TYPE_DRAW_LIST, list);
  g_assert_true (copy == list);
  g_assert_true (psc_draw_list_ref (list) == list);
  psc_draw_list_unref (list);
  g_boxed_free (PSC_TYPE_DRAW_LIST, copy);
  g_autoptr (PscDrawList) last = list;
  g_assert_true (psc_draw_list_add_opaque (last, 1, 1, 1.0f, 1));
}

#define EXPECT_CRITICAL(call, what)                                            \
  G_STMT_START {                                                               \
    g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*" what "*");       \
    call;                                                                      \
    g_test_assert_expected_messages ();                                        \
  } G_STMT_END

static void
test_arguments (void)
{
  guint n = 5;
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_new (0)), "capacity >= 1");
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_new (PSC_DRAW_LIST_MAX_CAPACITY + 1)),
                   "capacity <= PSC_DRAW_LIST_MAX_CAPACITY");
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_ref (NULL)), "self != NULL");
  EXPECT_CRITICAL (psc_draw_list_unref (NULL), "self != NULL");
  EXPECT_CRITICAL (psc_draw_list_clear (NULL), "self != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_draw_list_add_opaque (NULL, 0, 0, 0.0f, 0)), "self != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_draw_list_add_transparent (NULL, 0.0f, 0)), "self != NULL");
  EXPECT_CRITICAL (psc_draw_list_sort (NULL), "self != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_opaque_order (NULL, &n)), "self != NULL");
  g_assert_cmpuint (n, ==, 0);
  n = 5;
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_transparent_order (NULL, &n)), "self != NULL");
  g_assert_cmpuint (n, ==, 0);
  EXPECT_CRITICAL (g_assert_cmpuint (psc_draw_list_get_capacity (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_draw_list_get_n_opaque (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_draw_list_get_n_transparent (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_draw_list_get_dropped (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_draw_list_is_sorted (NULL)), "self != NULL");

  PscDrawList *list = psc_draw_list_new (4);
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_opaque_order (list, NULL)), "n_draws != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_transparent_order (list, NULL)), "n_draws != NULL");
  /* An order is read only once the list was sorted since its last add. */
  g_assert_true (psc_draw_list_add_opaque (list, 1, 2, 3.0f, 4));
  n = 5;
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_opaque_order (list, &n)), "self->sorted");
  g_assert_cmpuint (n, ==, 0);
  n = 5;
  EXPECT_CRITICAL (g_assert_null (psc_draw_list_get_transparent_order (list, &n)), "self->sorted");
  g_assert_cmpuint (n, ==, 0);
  psc_draw_list_sort (list);
  g_assert_nonnull (psc_draw_list_get_opaque_order (list, &n));
  g_assert_cmpuint (n, ==, 1);
  psc_draw_list_unref (list);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const char *s = g_getenv ("PSC_TEST_SEED");
  if (s != NULL)
    seed = (guint32) g_ascii_strtoull (s, NULL, 0);
  g_test_add_func ("/draw-list/random", test_random);
  g_test_add_func ("/draw-list/equal-keys", test_equal_keys);
  g_test_add_func ("/draw-list/special-depths", test_special_depths);
  g_test_add_func ("/draw-list/empty", test_empty);
  g_test_add_func ("/draw-list/full", test_full);
  g_test_add_func ("/draw-list/reuse", test_reuse);
  g_test_add_func ("/draw-list/boxed", test_boxed);
  g_test_add_func ("/draw-list/arguments", test_arguments);
  return g_test_run ();
}
