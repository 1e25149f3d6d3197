/* events.h: the owner thread's event queue (see psc-core.h, "Owner-thread
 * events"): what the layer above turns into signals, recorded where it
 * happens and taken after the pump. Internal to the core; calls no
 * module.
 *
 * Bounds: PSC_CORE_EVENT_CAPACITY events per batch (a batch is what
 * happens between two psc_core_take_events); one more is dropped and
 * counted. Evictions are a count, never queued, so they are never
 * dropped. The buffers are allocated at the first event (out of memory:
 * the event is dropped and counted) and freed with the core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* Records a pipeline event for entry e (its key's hash is computed here,
 * by the one rule). */
PSC_INTERNAL void psc_events_pipeline (PscCore *core, PscCoreEventType type, const PscEntry *e,
                                       VkResult result);
PSC_INTERNAL void psc_events_shader_reloaded (PscCore *core, uint32_t shader_id,
                                              uint32_t generation);
/* Counts n evicted pipelines (0 is accepted). */
PSC_INTERNAL void psc_events_evicted (PscCore *core, uint32_t n);
PSC_INTERNAL void psc_events_free (PscCore *core);
