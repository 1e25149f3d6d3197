/* resolver.h: the resolver over the core's stores: handles a request names
 * -> cache-issued ids (never handle values: DESIGN decision 1) and back.
 * Internal to the core.
 *
 * Ids are store ids (slot + generation, store.h), so an id dies with its
 * object and a reused handle value or slot never aliases an old one. Only
 * Ready entries resolve. The resolver memo (psc-core.h) caches shader and
 * pipeline-layout lookups for the graphics fast path; the core bumps its
 * epoch (psc_core_objects_changed) whenever a handle could stop resolving
 * or resolve differently.
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

PSC_INTERNAL void psc_core_init_resolver (PscCore *core);

/* The id of the Ready entry an issued handle names; false otherwise. */
static inline bool
psc_core_lookup_id (const PscCore *core, PscKind kind, uint64_t handle, uint32_t *id)
{
  const PscStore *s = core->stores[kind];
  uint32_t i;
  if (!psc_store_index_of_handle (s, handle, &i) ||
      psc_store_entry (s, i)->state != PSC_ENTRY_READY)
    return false;
  *id = psc_store_id (s, i);
  return true;
}

/* The Ready entry an issued handle names, or NULL. */
static inline PscEntry *
psc_core_entry_for_handle (const PscCore *core, PscKind kind, uint64_t handle)
{
  const PscStore *s = core->stores[kind];
  uint32_t i;
  if (!psc_store_index_of_handle (s, handle, &i) ||
      psc_store_entry (s, i)->state != PSC_ENTRY_READY)
    return NULL;
  return psc_store_entry (s, i);
}
