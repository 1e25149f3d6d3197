/* stats.h: counters, and the one check every owner-thread entry point
 * starts with. Internal to the core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

PSC_INTERNAL uint64_t psc_now_ns (void);

/* Counts a failed request under its status (any thread) and returns it. */
PSC_INTERNAL PscStatus psc_core_reject (PscCore *core, PscStatus st);

/* Records a refused call (out of line: the cold path): a wrong thread
 * (PSC_STATUS_WRONG_THREAD) or a closed core (PSC_STATUS_CLOSED). Returns
 * false. */
PSC_INTERNAL bool psc_core_refuse (PscCore *core, PscCoreError *err)
  __attribute__((cold, noinline));

/* Every entry point that reads or mutates cache state starts here: it runs
 * only on the owner thread, and only until the core is closed. */
static inline bool
psc_core_check_thread (PscCore *core, PscCoreError *err)
{
  if (__builtin_expect (pthread_equal (core->owner, pthread_self ()), 1))
    return true;
  return psc_core_refuse (core, err);
}

/* The status of a call psc_core_check_thread refused. */
static inline PscStatus
psc_core_refused (const PscCore *core)
{
  return core->closed ? PSC_STATUS_CLOSED : PSC_STATUS_WRONG_THREAD;
}

/* Publishes a kind's host bytes (its store, plus the sampler lists for set
 * layouts). */
PSC_INTERNAL void psc_core_update_bytes (PscCore *core, PscKind kind);

#define CHECK_REQUEST(core, ci, err)                                           \
  do {                                                                         \
    if (!psc_core_check_thread ((core), (err)))                                \
      return psc_core_refused (core);                                          \
    if ((ci) == NULL)                                                          \
      return psc_core_reject ((core), psc_core_fail ((err),                    \
                              PSC_STATUS_INVALID_ARGUMENT, "pCreateInfo",      \
                              "is NULL"));                                     \
  } while (0)
