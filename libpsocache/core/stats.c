/* stats.c: counters and refused calls (see stats.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "stats.h"

#include <time.h>

uint64_t
psc_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

PscStatus
psc_core_reject (PscCore *core, PscStatus st)
{
  if (st >= 0 && st < PSC_STATUS_COUNT)
    atomic_fetch_add_explicit (&core->stats.rejected[st], 1, memory_order_relaxed);
  return st;
}

void
psc_core_count_rejection (PscCore *core, PscStatus status)
{
  if (core != NULL)
    psc_core_reject (core, status);
}

bool
psc_core_refuse (PscCore *core, PscCoreError *err)
{
  if (!core->closed)
    psc_core_fail (err, PSC_STATUS_WRONG_THREAD, "",
                   "called from a thread that does not own the cache (the owner is the thread that created it)");
  else
    psc_core_fail (err, PSC_STATUS_CLOSED, "", "the cache is closed: nothing was started");
  psc_core_reject (core, psc_core_refused (core));
  return false;
}

void
psc_core_update_bytes (PscCore *core, PscKind kind)
{
  size_t bytes = psc_store_host_bytes (core->stores[kind]);
  if (kind == PSC_KIND_SET_LAYOUT)
    bytes += psc_store_host_bytes (core->sampler_lists);
  atomic_store_explicit (&core->stats.kinds[kind].host_bytes, bytes, memory_order_relaxed);
}

void
psc_core_get_stats (const PscCore *core, PscCoreStats *out)
{
  PscAtomicStats *s = (PscAtomicStats *) &core->stats;
#define L(field) atomic_load_explicit (&(field), memory_order_relaxed)
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    {
      out->kinds[k].hits = L (s->kinds[k].hits);
      out->kinds[k].misses = L (s->kinds[k].misses);
      out->kinds[k].creations = L (s->kinds[k].creations);
      out->kinds[k].creation_ns = L (s->kinds[k].creation_ns);
      out->kinds[k].entries = L (s->kinds[k].entries);
      out->kinds[k].host_bytes = L (s->kinds[k].host_bytes);
    }
  out->capacity_failures = L (s->capacity_failures);
  for (int i = 0; i < PSC_STATUS_COUNT; i++)
    out->rejected[i] = L (s->rejected[i]);
  out->frame = L (s->frame);
  /* A job's stages, last to first (see PscWorkersConfig in async.h): a
   * snapshot never counts one job in two of them. */
  out->async.unpublished = atomic_load_explicit (&s->unpublished, memory_order_seq_cst);
  out->driver_cache_hits = L (s->driver_cache_hits);
  out->driver_cache_misses = L (s->driver_cache_misses);
  out->events_dropped = L (s->events_dropped);
  out->async.in_flight = atomic_load_explicit (&s->in_flight, memory_order_seq_cst);
  out->async.queued = atomic_load_explicit (&s->queued, memory_order_seq_cst);
#define A(f) out->async.f = L (s->f)
  A (completed); A (failed); A (stale_discards);
  A (waiters_served); A (overflow_fallbacks); A (overflow_skips); A (evictions);
  A (retirements_pending); A (retired); A (owner_wait_ns); A (fallbacks_returned);
  A (stale_returned);
#undef A
#undef L
}
