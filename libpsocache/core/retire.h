/* retire.h: entries leaving the cache (seed 000, "Lifetime, eviction, and
 * hot reload"; DESIGN decision 11). Internal to the core.
 *
 * Timeline contract: frame numbers are timeline values. The work the
 * application records after psc_core_begin_frame (core, N, ...) signals N
 * (or more) when the GPU finishes it, and each begin_frame reports the
 * highest completed value. A handle retired during frame F whose last
 * request was in frame L is destroyed only once the completed value reaches
 * max (F, L + PSC_CORE_BORROW_FRAMES): after every frame that may have
 * recorded it, including the borrowed-handle window.
 *
 * The deferred-destruction queue grows as needed (operations that retire
 * reserve room first, so retirement itself never fails half-way).
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

PSC_INTERNAL bool psc_retire_reserve (PscCore *core, uint32_t n);
/* Queues a handle (kind PSC_KIND_COUNT: a descriptor pool) for destruction
 * once the completed timeline value reaches value. */
PSC_INTERNAL void psc_retire_handle (PscCore *core, uint8_t kind, uint64_t handle, uint64_t value);
/* The one way an entry dies with no object left to destroy (a pipeline
 * that was Compiling or Failed, or whose object is queued): it stops
 * naming its shaders, its counters move, and its slot is released. */
PSC_INTERNAL void psc_core_forget_entry (PscCore *core, PscKind kind, uint32_t index);
/* A Ready entry leaves the cache: its handle is queued for destruction
 * after the borrowed-handle window and the GPU timeline, and the entry is
 * forgotten. False (nothing changed) when out of memory for the queue. */
PSC_INTERNAL bool psc_retire_entry (PscCore *core, PscKind kind, uint32_t index);
/* The pump's part: destroys what the GPU has passed, evicts idle pipelines
 * (when automatic eviction is on) and retires pipelines no request can
 * reach any more (every shader they name was released), a bounded slice of
 * live entries per frame. */
PSC_INTERNAL void psc_retire_pump (PscCore *core);
/* At close: destroys every queued handle. */
PSC_INTERNAL void psc_retire_all (PscCore *core);
