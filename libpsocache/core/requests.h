/* requests.h: the one request path of graphics and compute pipelines (seed
 * 000, "State machine and asynchronous compilation"; DESIGN decisions 6
 * and 11). Internal to the core.
 *
 * Pipeline entries move Absent -> Compiling -> Ready -> (retired, retire.c),
 * Compiling -> (discarded: a hot reload, or a synchronous request that
 * created it first, or shutdown), or Compiling -> Failed (the driver
 * refused; not retried until a shader it uses is reloaded or failures are
 * cleared). Every request (direct, prepared, synchronous, asynchronous)
 * goes through psc_core_request_key: a Ready entry is a hit; a Failed one
 * fails with its VkResult; a Compiling one adds a waiter (or, WAIT, is
 * created now); a miss reserves a Compiling entry with the same probe that
 * missed and either creates it now (WAIT) or queues one compile job
 * (async.h). Publication, failure and discarding take the entry's slot,
 * never its key again. Waiters are called from the pump, after everything
 * it published.
 *
 * Bounded queues: job slots (async.h; full: a CRITICAL request is created
 * synchronously and counted as an overflow fallback, any other is refused
 * with PSC_STATUS_QUEUE_FULL, counted as an overflow skip, and the cache is
 * unchanged); waiters, a pool of waiter_capacity (default 4096) nodes
 * linked per entry (full: the same policy); the dispatch list, one slot per
 * waiter node (it cannot overflow), double-buffered so callbacks may
 * request again (what they queue is called at a later pump).
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

PSC_INTERNAL PscStatus psc_requests_init (PscCore *core, PscCoreError *err);
PSC_INTERNAL void psc_requests_free (PscCore *core);

/* The request path shared by direct and prepared requests, for a key whose
 * hash (psc_core_hash) the caller has. *index_out (may be NULL) receives
 * the entry's slot, or PSC_NONE. */
PSC_INTERNAL PscStatus psc_core_request_key (PscCore *core, PscKind kind, const uint8_t *key,
                                             size_t len, uint64_t hash,
                                             PscCoreMissPolicy policy, uint32_t flags,
                                             PscCoreReadyFn fn, void *context, VkPipeline *out,
                                             PscCoreRequestState *state, uint32_t *index_out,
                                             PscCoreError *err);
/* A request for an entry known to be Compiling (prepared keys skip the
 * lookup): adds a waiter, or creates it now (WAIT). */
PSC_INTERNAL PscStatus psc_core_request_entry (PscCore *core, PscKind kind, uint32_t index,
                                               PscCoreMissPolicy policy, uint32_t flags,
                                               PscCoreReadyFn fn, void *context, VkPipeline *out,
                                               PscCoreRequestState *state, PscCoreError *err);

/* Drops a Compiling or Failed entry: its job is cancelled, its waiters are
 * called with VK_INCOMPLETE, and it is forgotten. */
PSC_INTERNAL void psc_requests_discard (PscCore *core, PscKind kind, uint32_t index);

/* The pump's part: publishes the completions present when it starts,
 * within the publication budget (at least one), then calls every waiter
 * queued so far. */
PSC_INTERNAL void psc_requests_pump (PscCore *core);
/* At close: stops and joins the workers, destroys what they produced and
 * did not publish, and completes every waiter with VK_INCOMPLETE (calls
 * them, or drops them when call_waiters is false). */
PSC_INTERNAL void psc_requests_shutdown (PscCore *core, bool call_waiters);
