/* psc-draw-list.c: PscDrawList, a bounded per-frame list of draws and its
 * radix sort into draw order. It knows nothing of caches or materials:
 * keys are numbers the application hands over.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psocache/psc-draw-list.h"

#include <string.h>

/* LSD radix sort, 11-bit digits: a 2,048-bucket histogram (8 KiB) stays in
 * L1 and a pass scatters into 2,048 streams, which the caches follow; 8-bit
 * digits would need 8 passes for 64 bits, 16-bit ones scatter at random. */
#define DIGIT_BITS 11
#define N_BUCKETS (1u << DIGIT_BITS)
#define DIGIT_MASK (N_BUCKETS - 1)
#define KEY64_DIGITS 6          /* ceil (64 / 11) */
#define KEY32_DIGITS 3          /* ceil (32 / 11) */

/* An opaque draw's sort record in one of its two phases: the low key
 * (material << 32 | depth) first, then the pipeline key hash; idx is its
 * submission index. */
typedef struct {
  guint64 key;
  guint32 idx;
  guint32 pad;
} PscSortRec;

struct _PscDrawList {
  guint capacity;
  guint n_opaque;
  guint n_transparent;
  guint dropped;
  gboolean sorted;

  /* Opaque draws as submitted. */
  guint64 *op_hash;
  guint64 *op_low;              /* material << 32 | depth key */
  guint32 *op_id;
  /* Transparent draws as submitted: the depth key already inverted (so
   * ascending is back to front). */
  guint32 *tr_key;
  guint32 *tr_id;
  /* Scratch, shared by both sorts (capacity records each); transparent
   * draws use it as guint64 words. */
  PscSortRec *scratch_a;
  PscSortRec *scratch_b;
  guint32 *hist;                /* KEY64_DIGITS * N_BUCKETS */
  /* The orders of the last sort. */
  guint32 *op_order;
  guint32 *tr_order;
};

G_DEFINE_BOXED_TYPE (PscDrawList, psc_draw_list, psc_draw_list_ref, psc_draw_list_unref)

/* Every array lives in the list's one allocation, after the struct. */
#define ARRAY_ALIGN 64

static gsize
align_up (gsize v)
{
  return (v + ARRAY_ALIGN - 1) & ~(gsize) (ARRAY_ALIGN - 1);
}

/* An order-preserving unsigned image of a depth: the IEEE bits with the
 * sign bit flipped for positives and every bit flipped for negatives, so
 * that -inf < ... < -0 < +0 < ... < +inf compare as unsigned integers.
 * -0.0 is +0.0 (they compare equal as floats); every NaN is G_MAXUINT32,
 * after +inf (bits tested, not isnan (), so no compiler flag changes it). */
static inline guint32
depth_key (gfloat depth)
{
  guint32 u;
  memcpy (&u, &depth, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return G_MAXUINT32;
  if ((u & 0x7fffffffu) == 0)
    u = 0;
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/**
 * psc_draw_list_new:
 * @capacity: how many draws (opaque and transparent together) a frame may
 *   add, 1 to %PSC_DRAW_LIST_MAX_CAPACITY
 *
 * Creates an empty list. Everything the list needs (the draws, the sort's
 * scratch and histograms, the orders) is allocated here, once: clearing,
 * adding and sorting never allocate.
 *
 * Returns: (transfer full): a new list
 *
 * Since: 0.3
 */
PscDrawList *
psc_draw_list_new (guint capacity)
{
  g_return_val_if_fail (capacity >= 1, NULL);
  g_return_val_if_fail (capacity <= PSC_DRAW_LIST_MAX_CAPACITY, NULL);

  gsize n = capacity;
  gsize off = align_up (sizeof (PscDrawList));
  gsize o_hash = off; off = align_up (off + n * sizeof (guint64));
  gsize o_low = off; off = align_up (off + n * sizeof (guint64));
  gsize o_id = off; off = align_up (off + n * sizeof (guint32));
  gsize t_key = off; off = align_up (off + n * sizeof (guint32));
  gsize t_id = off; off = align_up (off + n * sizeof (guint32));
  gsize s_a = off; off = align_up (off + n * sizeof (PscSortRec));
  gsize s_b = off; off = align_up (off + n * sizeof (PscSortRec));
  gsize h = off; off = align_up (off + KEY64_DIGITS * N_BUCKETS * sizeof (guint32));
  gsize o_ord = off; off = align_up (off + n * sizeof (guint32));
  gsize t_ord = off; off += n * sizeof (guint32);

  PscDrawList *self = g_atomic_rc_box_alloc0 (off);
  guint8 *base = (guint8 *) self;
  self->capacity = capacity;
  self->op_hash = (guint64 *) (base + o_hash);
  self->op_low = (guint64 *) (base + o_low);
  self->op_id = (guint32 *) (base + o_id);
  self->tr_key = (guint32 *) (base + t_key);
  self->tr_id = (guint32 *) (base + t_id);
  self->scratch_a = (PscSortRec *) (base + s_a);
  self->scratch_b = (PscSortRec *) (base + s_b);
  self->hist = (guint32 *) (base + h);
  self->op_order = (guint32 *) (base + o_ord);
  self->tr_order = (guint32 *) (base + t_ord);
  self->sorted = TRUE;          /* an empty list is in order */
  return self;
}

/**
 * psc_draw_list_ref:
 * @self: a list
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscDrawList *
psc_draw_list_ref (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

/**
 * psc_draw_list_unref:
 * @self: (transfer full): a list
 *
 * Drops a reference to @self; the last one frees it.
 *
 * Since: 0.3
 */
void
psc_draw_list_unref (PscDrawList *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release (self);
}

/**
 * psc_draw_list_clear:
 * @self: a list
 *
 * Empties @self for a new frame: no draws, no refused draws, empty orders.
 * The capacity and the memory stay.
 *
 * Since: 0.3
 */
void
psc_draw_list_clear (PscDrawList *self)
{
  g_return_if_fail (self != NULL);
  self->n_opaque = 0;
  self->n_transparent = 0;
  self->dropped = 0;
  self->sorted = TRUE;
}

static inline gboolean
has_room (PscDrawList *self)
{
  if (self->n_opaque + self->n_transparent < self->capacity)
    return TRUE;
  if (self->dropped < G_MAXUINT)
    self->dropped++;
  return FALSE;
}

/**
 * psc_draw_list_add_opaque:
 * @self: a list
 * @pipeline_key_hash: the draw's pipeline key hash: the first sort key
 * @material_index: the draw's material: the second sort key
 * @view_depth: the draw's view depth: the third sort key, front (smaller)
 *   to back; NaN counts as farther than +infinity, -0.0 as +0.0
 * @draw_id: what the order returns for this draw (any value; the
 *   application's index of the draw, typically)
 *
 * Adds an opaque draw. Draws equal in all three keys keep the order in
 * which they were added.
 *
 * Returns: %TRUE if added; %FALSE if @self is full (opaque and
 *   transparent draws together reached its capacity): the draw is refused
 *   and counted by [method@Psc.DrawList.get_dropped]
 *
 * Since: 0.3
 */
gboolean
psc_draw_list_add_opaque (PscDrawList *self,
                          guint64      pipeline_key_hash,
                          guint32      material_index,
                          gfloat       view_depth,
                          guint32      draw_id)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (!has_room (self))
    return FALSE;
  guint i = self->n_opaque++;
  self->op_hash[i] = pipeline_key_hash;
  self->op_low[i] = (guint64) material_index << 32 | depth_key (view_depth);
  self->op_id[i] = draw_id;
  self->sorted = FALSE;
  return TRUE;
}

/**
 * psc_draw_list_add_transparent:
 * @self: a list
 * @view_depth: the draw's view depth, drawn back (larger) to front; NaN
 *   counts as farther than +infinity (drawn first), -0.0 as +0.0
 * @draw_id: what the order returns for this draw
 *
 * Adds an alpha-blended draw. Draws of equal depth keep the order in which
 * they were added: submission order is the only tie-breaker.
 *
 * Returns: %TRUE if added; %FALSE if @self is full (the draw is refused
 *   and counted by [method@Psc.DrawList.get_dropped])
 *
 * Since: 0.3
 */
gboolean
psc_draw_list_add_transparent (PscDrawList *self,
                               gfloat       view_depth,
                               guint32      draw_id)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (!has_room (self))
    return FALSE;
  guint i = self->n_transparent++;
  self->tr_key[i] = ~depth_key (view_depth);
  self->tr_id[i] = draw_id;
  self->sorted = FALSE;
  return TRUE;
}

/* Stable LSD sort of n records (n >= 2) by key, n_digits digits from the
 * least significant; a digit every record shares is skipped. Returns the
 * buffer holding the result (src or tmp). */
static inline PscSortRec *
radix_sort_records (PscSortRec *src, PscSortRec *tmp, guint n, guint32 *hist)
{
  memset (hist, 0, KEY64_DIGITS * N_BUCKETS * sizeof *hist);
  for (guint i = 0; i < n; i++)
    {
      guint64 k = src[i].key;
      for (guint d = 0; d < KEY64_DIGITS; d++)
        hist[d * N_BUCKETS + ((k >> (d * DIGIT_BITS)) & DIGIT_MASK)]++;
    }
  for (guint d = 0; d < KEY64_DIGITS; d++)
    {
      guint32 *h = hist + d * N_BUCKETS;
      guint shift = d * DIGIT_BITS;
      if (h[(src[0].key >> shift) & DIGIT_MASK] == n)
        continue;
      guint32 sum = 0;
      for (guint b = 0; b < N_BUCKETS; b++)
        {
          guint32 c = h[b];
          h[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        {
          PscSortRec r = src[i];
          tmp[h[(r.key >> shift) & DIGIT_MASK]++] = r;
        }
      PscSortRec *t = src;
      src = tmp;
      tmp = t;
    }
  return src;
}

/* The same over words whose upper 32 bits are the key and lower 32 bits
 * the submission index. */
static inline guint64 *
radix_sort_words (guint64 *src, guint64 *tmp, guint n, guint32 *hist)
{
  memset (hist, 0, KEY32_DIGITS * N_BUCKETS * sizeof *hist);
  for (guint i = 0; i < n; i++)
    {
      guint32 k = (guint32) (src[i] >> 32);
      for (guint d = 0; d < KEY32_DIGITS; d++)
        hist[d * N_BUCKETS + ((k >> (d * DIGIT_BITS)) & DIGIT_MASK)]++;
    }
  for (guint d = 0; d < KEY32_DIGITS; d++)
    {
      guint32 *h = hist + d * N_BUCKETS;
      guint shift = 32 + d * DIGIT_BITS;
      if (h[(src[0] >> shift) & DIGIT_MASK] == n)
        continue;
      guint32 sum = 0;
      for (guint b = 0; b < N_BUCKETS; b++)
        {
          guint32 c = h[b];
          h[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        {
          guint64 w = src[i];
          tmp[h[(w >> shift) & DIGIT_MASK]++] = w;
        }
      guint64 *t = src;
      src = tmp;
      tmp = t;
    }
  return src;
}

static void
sort_opaque (PscDrawList *self)
{
  guint n = self->n_opaque;
  if (n < 2)
    {
      if (n == 1)
        self->op_order[0] = self->op_id[0];
      return;
    }
  /* LSD over the whole key: the low key (material, depth) first, then the
   * hash; each phase is stable, so equal hashes keep the low key's order
   * and equal keys their submission order. */
  PscSortRec *a = self->scratch_a;
  for (guint i = 0; i < n; i++)
    a[i] = (PscSortRec) { .key = self->op_low[i], .idx = i };
  PscSortRec *r = radix_sort_records (a, self->scratch_b, n, self->hist);
  PscSortRec *b = r == self->scratch_a ? self->scratch_b : self->scratch_a;
  for (guint j = 0; j < n; j++)
    {
      guint32 idx = r[j].idx;
      b[j] = (PscSortRec) { .key = self->op_hash[idx], .idx = idx };
    }
  r = radix_sort_records (b, r, n, self->hist);
  for (guint j = 0; j < n; j++)
    self->op_order[j] = self->op_id[r[j].idx];
}

static void
sort_transparent (PscDrawList *self)
{
  guint n = self->n_transparent;
  if (n < 2)
    {
      if (n == 1)
        self->tr_order[0] = self->tr_id[0];
      return;
    }
  guint64 *a = (guint64 *) self->scratch_a;
  for (guint i = 0; i < n; i++)
    a[i] = (guint64) self->tr_key[i] << 32 | i;
  guint64 *r = radix_sort_words (a, (guint64 *) self->scratch_b, n, self->hist);
  for (guint j = 0; j < n; j++)
    self->tr_order[j] = self->tr_id[(guint32) r[j]];
}

/**
 * psc_draw_list_sort:
 * @self: a list
 *
 * Sorts the draws added since the last clear into draw order (see
 * [struct@Psc.DrawList]), without allocating. The orders stay valid until
 * the next clear or add; sorting again gives the same orders.
 *
 * Since: 0.3
 */
void
psc_draw_list_sort (PscDrawList *self)
{
  g_return_if_fail (self != NULL);
  sort_opaque (self);
  sort_transparent (self);
  self->sorted = TRUE;
}

/**
 * psc_draw_list_get_opaque_order:
 * @self: a sorted list
 * @n_draws: (out): the number of opaque draws
 *
 * The draw ids of the opaque draws in draw order: pipeline key hash, then
 * material index, then view depth front to back, then submission order.
 * @self must have been sorted since its last clear or add.
 *
 * Returns: (array length=n_draws) (transfer none): the draw ids, owned by
 *   @self, valid until its next clear, add or sort
 *
 * Since: 0.3
 */
const guint32 *
psc_draw_list_get_opaque_order (PscDrawList *self,
                                guint       *n_draws)
{
  g_return_val_if_fail (n_draws != NULL, NULL);
  *n_draws = 0;
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->sorted, NULL);
  *n_draws = self->n_opaque;
  return self->op_order;
}

/**
 * psc_draw_list_get_transparent_order:
 * @self: a sorted list
 * @n_draws: (out): the number of transparent draws
 *
 * The draw ids of the transparent draws in draw order: strictly back to
 * front, submission order the only tie-breaker. @self must have been
 * sorted since its last clear or add.
 *
 * Returns: (array length=n_draws) (transfer none): the draw ids, owned by
 *   @self, valid until its next clear, add or sort
 *
 * Since: 0.3
 */
const guint32 *
psc_draw_list_get_transparent_order (PscDrawList *self,
                                     guint       *n_draws)
{
  g_return_val_if_fail (n_draws != NULL, NULL);
  *n_draws = 0;
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->sorted, NULL);
  *n_draws = self->n_transparent;
  return self->tr_order;
}

/**
 * psc_draw_list_get_capacity:
 * @self: a list
 *
 * How many draws, opaque and transparent together, a frame may add.
 *
 * Returns: the capacity given to [ctor@Psc.DrawList.new]
 *
 * Since: 0.3
 */
guint
psc_draw_list_get_capacity (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->capacity;
}

/**
 * psc_draw_list_get_n_opaque:
 * @self: a list
 *
 * How many opaque draws were added since the last clear.
 *
 * Returns: the number of opaque draws
 *
 * Since: 0.3
 */
guint
psc_draw_list_get_n_opaque (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_opaque;
}

/**
 * psc_draw_list_get_n_transparent:
 * @self: a list
 *
 * How many transparent draws were added since the last clear.
 *
 * Returns: the number of transparent draws
 *
 * Since: 0.3
 */
guint
psc_draw_list_get_n_transparent (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_transparent;
}

/**
 * psc_draw_list_get_dropped:
 * @self: a list
 *
 * How many draws the list refused since the last clear because it was
 * full (saturating at %G_MAXUINT).
 *
 * Returns: the number of refused draws
 *
 * Since: 0.3
 */
guint
psc_draw_list_get_dropped (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->dropped;
}

/**
 * psc_draw_list_is_sorted:
 * @self: a list
 *
 * Whether the orders are current: %TRUE after [method@Psc.DrawList.sort]
 * and after a clear, %FALSE once a draw was added since.
 *
 * Returns: %TRUE if the orders may be read
 *
 * Since: 0.3
 */
gboolean
psc_draw_list_is_sorted (PscDrawList *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->sorted;
}
