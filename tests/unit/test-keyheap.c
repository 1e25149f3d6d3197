/* test-keyheap.c: the key heap (keyheap.h): copies are exact and close
 * together, freed blocks are reused by keys of their size, empty chunks are
 * given back, and memory stays bounded by what is alive under churn, also
 * when a few long-lived keys are spread over every chunk.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "keyheap.h"

static void
fill (uint8_t *buf, size_t len, uint32_t seed)
{
  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t) (seed * 31u + i * 7u);
}

static void
test_copies (void)
{
  PscKeyHeap h;
  psc_keyheap_init (&h);
  uint8_t key[3000];
  const uint8_t *copies[64];
  for (uint32_t i = 0; i < 64; i++)
    {
      fill (key, 200, i);
      copies[i] = psc_keyheap_copy (&h, key, 200);
      g_assert_nonnull (copies[i]);
      g_assert_cmpmem (copies[i], 200, key, 200);
      g_assert_cmpuint ((uintptr_t) copies[i] % PSC_KEYHEAP_UNIT, ==, 0);
    }
  /* Close together: consecutive copies of one chunk are 13 units apart. */
  g_assert_cmpuint (copies[1] - copies[0], ==, 13 * PSC_KEYHEAP_UNIT);
  /* A large key is a copy of its own, counted in the bytes. */
  const size_t before = h.bytes;
  fill (key, sizeof key, 99);
  const uint8_t *large = psc_keyheap_copy (&h, key, sizeof key);
  g_assert_cmpmem (large, sizeof key, key, sizeof key);
  g_assert_cmpuint (h.bytes, ==, before + sizeof key);
  psc_keyheap_release (&h, large, sizeof key);
  g_assert_cmpuint (h.bytes, ==, before);
  /* Tiny keys take two units (a free block's links and size fit). */
  const uint8_t *a = psc_keyheap_copy (&h, "ab", 2);
  const uint8_t *b = psc_keyheap_copy (&h, "cd", 2);
  g_assert_cmpuint (b - a, ==, 2 * PSC_KEYHEAP_UNIT);
  g_assert_cmpmem (a, 2, "ab", 2);
  for (uint32_t i = 0; i < 64; i++)
    psc_keyheap_release (&h, copies[i], 200);
  psc_keyheap_release (&h, a, 2);
  psc_keyheap_release (&h, b, 2);
  psc_keyheap_fini (&h);
}

static void
test_reuse_and_give_back (void)
{
  PscKeyHeap h;
  psc_keyheap_init (&h);
  uint8_t key[200];
  fill (key, sizeof key, 1);
  /* A freed block is the next block of its size. */
  const uint8_t *keep = psc_keyheap_copy (&h, key, sizeof key);
  const uint8_t *x = psc_keyheap_copy (&h, key, sizeof key);
  psc_keyheap_release (&h, x, sizeof key);
  g_assert_true (psc_keyheap_copy (&h, key, 195) == x);   /* 195 bytes: the same 13 units */
  psc_keyheap_release (&h, x, 195);
  /* Fill several chunks, then free them all: every chunk but the current
   * one is given back. */
  const size_t one_chunk = h.bytes;
  const uint8_t *many[2000];
  for (uint32_t i = 0; i < 2000; i++)
    many[i] = psc_keyheap_copy (&h, key, sizeof key);
  g_assert_cmpuint (h.bytes, >, 10 * one_chunk);
  for (uint32_t i = 0; i < 2000; i++)
    psc_keyheap_release (&h, many[i], sizeof key);
  g_assert_cmpuint (h.bytes, <=, 2 * one_chunk);
  g_assert_cmpmem (keep, sizeof key, key, sizeof key);
  psc_keyheap_release (&h, keep, sizeof key);
  psc_keyheap_fini (&h);
}

/* Keys of several sizes live for 1 to 4 cycles each, and a few of each
 * cycle's keys live on to the end, so every chunk soon holds a key that
 * outlives the others, for 60 cycles: the heap's bytes stay within a bound
 * of the bytes alive. Reusing freed blocks is what keeps them there (a heap
 * that only carved new blocks, giving back only empty chunks, keeps every
 * chunk alive for its longest-lived key, and grows to several times what
 * is alive). */
static void
test_churn_is_bounded (void)
{
  PscKeyHeap h;
  psc_keyheap_init (&h);
  enum { N = 3000, CYCLES = 60, KEEP = 40 };
  static const uint8_t *copy[N], *kept[CYCLES * KEEP];
  static size_t len[N], kept_len[CYCLES * KEEP];
  static uint32_t dies[N];
  uint32_t n_kept = 0;
  size_t kept_bytes = 0;
  uint8_t key[PSC_KEYHEAP_SMALL];
  double worst = 0;
  for (uint32_t cycle = 0; cycle < CYCLES; cycle++)
    {
      size_t alive = kept_bytes;
      for (uint32_t i = 0; i < N; i++)
        {
          if (copy[i] == NULL)
            {
              len[i] = 40 + ((i + cycle) % 7) * 60;
              dies[i] = cycle + 1 + (i * 7 + cycle) % 4;
              fill (key, len[i], i + cycle);
              copy[i] = psc_keyheap_copy (&h, key, len[i]);
              g_assert_nonnull (copy[i]);
            }
          alive += (len[i] + PSC_KEYHEAP_UNIT - 1) / PSC_KEYHEAP_UNIT * PSC_KEYHEAP_UNIT;
        }
      if (cycle >= 8)
        {
          const double ratio = (double) h.bytes / (double) alive;
          worst = ratio > worst ? ratio : worst;
          g_assert_cmpfloat (ratio, <, 1.3);
        }
      for (uint32_t i = 0; i < N; i++)
        if (dies[i] == cycle + 1)
          {
            /* A few stay to the end (the slot then takes a new key). */
            if (i % (N / KEEP) == cycle % (N / KEEP))
              {
                kept[n_kept] = copy[i];
                kept_len[n_kept++] = len[i];
                kept_bytes += (len[i] + PSC_KEYHEAP_UNIT - 1) / PSC_KEYHEAP_UNIT * PSC_KEYHEAP_UNIT;
              }
            else
              psc_keyheap_release (&h, copy[i], len[i]);
            copy[i] = NULL;
          }
    }
  g_test_message ("worst bytes / alive after the warm-up: %.2f", worst);
  for (uint32_t i = 0; i < N; i++)
    if (copy[i] != NULL)
      psc_keyheap_release (&h, copy[i], len[i]);
  for (uint32_t i = 0; i < n_kept; i++)
    psc_keyheap_release (&h, kept[i], kept_len[i]);
  g_assert_cmpuint (h.bytes, <=, 16 * 1024);
  psc_keyheap_fini (&h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/keyheap/copies", test_copies);
  g_test_add_func ("/keyheap/reuse-and-give-back", test_reuse_and_give_back);
  g_test_add_func ("/keyheap/churn-is-bounded", test_churn_is_bounded);
  return g_test_run ();
}
