/* bench.h: what psc-bench's benchmarks share: clocks, the allocation
 * counter, medians, a deterministic RNG, option parsing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

/* Heap allocations so far (psc-bench interposes glibc's malloc family). */
extern atomic_ulong bench_alloc_count;

static inline uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

/* Loops are timed with the time-stamp counter (a VM's clock may have a
 * 10 ns grain), calibrated against CLOCK_MONOTONIC once per run. */
extern double ns_per_tick;
void calibrate_ticks (void);

static inline uint64_t
ticks (void)
{
  _mm_lfence ();
  uint64_t t = __rdtsc ();
  _mm_lfence ();
  return t;
}

/* Keeps the compiler from dropping work whose result is unused. */
static inline void
opaque (const void *p)
{
  __asm__ volatile ("" : : "r" (p) : "memory");
}

/* Both sort v. percentile: nearest rank, q in (0, 1]. */
double median (double *v, size_t n);
double percentile (double *v, size_t n, double q);
/* xorshift64*: deterministic shuffles and keys. */
uint32_t rng (void);
void shuffle (uint32_t *v, uint32_t n);
bool parse_u32 (const char *s, uint32_t *out);
G_NORETURN void die (const char *what, GError *error);

/* The benchmarks in files of their own (argv[1] is the benchmark's name). */
int bench_churn (int argc, char **argv);
int bench_scale (int argc, char **argv);
int bench_warm (int argc, char **argv);
int bench_warm_role (int argc, char **argv);   /* warm's hidden child */
int bench_disk (int argc, char **argv);
int bench_dbus (int argc, char **argv);
int bench_sort (int argc, char **argv);   /* issue 12: PscDrawList v. qsort */
int bench_descriptors (int argc, char **argv);   /* issue 13: managed writes v. raw updates */
