/* handle-map.h: a handle -> value map (u64 -> u32) for cache-issued
 * handles; the lookup is inline because every request resolves a few
 * handles through it (handle-map.c has the rest). Internal to the core.
 *
 * Open addressing with linear probing; handle 0 is never stored (it is
 * VK_NULL_HANDLE) and UINT64_MAX marks a tombstone. Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

typedef struct {
  uint64_t handle;   /* 0 = empty, UINT64_MAX = tombstone */
  uint32_t value;
} HandleSlot;

typedef struct {
  HandleSlot *slots;
  size_t mask;
  size_t count;
  size_t used;
} PscHandleMap;

#define HM_TOMB UINT64_MAX

static inline size_t
hm_index (uint64_t h, size_t mask)
{
  /* Handles are often aligned pointers: mix the bits (a 64-bit finalizer). */
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t) h & mask;
}

/* The slot that holds handle, or NULL (also for 0 and the tombstone). */
static inline HandleSlot *
hm_find (const PscHandleMap *m, uint64_t handle)
{
  if (handle == 0 || handle == HM_TOMB)
    return NULL;
  for (size_t i = hm_index (handle, m->mask);; i = (i + 1) & m->mask)
    {
      HandleSlot *s = &m->slots[i];
      if (s->handle == handle)
        return s;
      if (s->handle == 0)
        return NULL;
    }
}

static inline bool
psc_handle_map_lookup (const PscHandleMap *m, uint64_t handle, uint32_t *value)
{
  const HandleSlot *s = hm_find (m, handle);
  if (s == NULL)
    return false;
  *value = s->value;
  return true;
}

PSC_INTERNAL PscHandleMap *psc_handle_map_new (void);
PSC_INTERNAL void psc_handle_map_free (PscHandleMap *m);
/* Sets (or replaces) a handle's value; false on allocation failure or for
 * handle 0. */
PSC_INTERNAL bool psc_handle_map_set (PscHandleMap *m, uint64_t handle, uint32_t value);
PSC_INTERNAL bool psc_handle_map_remove (PscHandleMap *m, uint64_t handle);
PSC_INTERNAL size_t psc_handle_map_host_bytes (const PscHandleMap *m);
