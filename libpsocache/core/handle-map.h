/* handle-map.h: the handle -> value map's layout and its lookup, inline
 * because every request resolves a few handles through it (table.c has the
 * rest). Internal to the core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

typedef struct {
  uint64_t handle;   /* 0 = empty, UINT64_MAX = tombstone */
  uint32_t value;
} HandleSlot;

struct PscHandleMap {
  HandleSlot *slots;
  size_t mask;
  size_t count;
  size_t used;
};

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

static inline bool
psc_handle_map_lookup (const PscHandleMap *m, uint64_t handle, uint32_t *value)
{
  if (handle == 0 || handle == HM_TOMB)
    return false;
  size_t i = hm_index (handle, m->mask);
  for (;;)
    {
      const HandleSlot *s = &m->slots[i];
      if (s->handle == handle)
        {
          *value = s->value;
          return true;
        }
      if (s->handle == 0)
        return false;
      i = (i + 1) & m->mask;
    }
}
