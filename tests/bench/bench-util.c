/* bench-util.c: what psc-bench's benchmarks share (see bench.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- allocation counting (interposes glibc's malloc family) ---- */
extern void *__libc_malloc (size_t);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);
extern void *__libc_memalign (size_t, size_t);
atomic_ulong bench_alloc_count;

#define COUNT() atomic_fetch_add_explicit (&bench_alloc_count, 1, memory_order_relaxed)
void *malloc (size_t n) { COUNT (); return __libc_malloc (n); }
void *calloc (size_t a, size_t b) { COUNT (); return __libc_calloc (a, b); }
void *realloc (void *p, size_t n) { COUNT (); return __libc_realloc (p, n); }
void *memalign (size_t a, size_t n) { COUNT (); return __libc_memalign (a, n); }
int posix_memalign (void **out, size_t a, size_t n)
{
  COUNT ();
  *out = __libc_memalign (a, n);
  return *out ? 0 : 12;
}
void *aligned_alloc (size_t a, size_t n) { COUNT (); return __libc_memalign (a, n); }

double ns_per_tick = 1.0;

void
calibrate_ticks (void)
{
  uint64_t n0 = now_ns (), t0 = ticks ();
  while (now_ns () - n0 < 50000000ull)
    ;
  uint64_t n1 = now_ns (), t1 = ticks ();
  ns_per_tick = (double) (n1 - n0) / (double) (t1 - t0);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
median (double *v, size_t n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double
percentile (double *v, size_t n, double q)
{
  if (n == 0)
    return 0.0;
  qsort (v, n, sizeof *v, cmp_double);
  size_t rank = (size_t) ceil (q * (double) n);
  return v[rank > 0 ? rank - 1 : 0];
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

uint32_t
rng (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

void
shuffle (uint32_t *v, uint32_t n)
{
  for (uint32_t i = n - 1; i > 0; i--)
    {
      uint32_t j = rng () % (i + 1);
      uint32_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
}

bool
parse_u32 (const char *s, uint32_t *out)
{
  char *end = NULL;
  unsigned long v = strtoul (s, &end, 10);
  if (end == s || *end != '\0' || v > UINT32_MAX)
    return false;
  *out = (uint32_t) v;
  return true;
}

void
die (const char *what, GError *error)
{
  fprintf (stderr, "psc-bench: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}
