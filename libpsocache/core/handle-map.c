/* handle-map.c: the handle -> value map (see handle-map.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "handle-map.h"

#include <stdlib.h>

#define MIN_SLOTS 64u

PscHandleMap *
psc_handle_map_new (void)
{
  PscHandleMap *m = calloc (1, sizeof *m);
  if (m == NULL)
    return NULL;
  m->slots = calloc (MIN_SLOTS, sizeof *m->slots);
  if (m->slots == NULL)
    {
      free (m);
      return NULL;
    }
  m->mask = MIN_SLOTS - 1;
  return m;
}

void
psc_handle_map_free (PscHandleMap *m)
{
  if (m == NULL)
    return;
  free (m->slots);
  free (m);
}

/* Rebuilds the slot array with n slots (a power of two above the count);
 * false (map unchanged) when out of memory. */
static bool
hm_rehash (PscHandleMap *m, size_t n)
{
  HandleSlot *ns = calloc (n, sizeof *ns);
  if (ns == NULL)
    return false;
  for (size_t i = 0; i <= m->mask; i++)
    {
      const HandleSlot *s = &m->slots[i];
      if (s->handle == 0 || s->handle == HM_TOMB)
        continue;
      size_t j = hm_index (s->handle, n - 1);
      while (ns[j].handle != 0)
        j = (j + 1) & (n - 1);
      ns[j] = *s;
    }
  free (m->slots);
  m->slots = ns;
  m->mask = n - 1;
  m->used = m->count;
  return true;
}

static bool
hm_grow (PscHandleMap *m)
{
  size_t slots = m->mask + 1;
  return hm_rehash (m, m->count * 2 >= slots ? slots * 2 : slots);
}

bool
psc_handle_map_set (PscHandleMap *m, uint64_t handle, uint32_t value)
{
  if (handle == 0 || handle == HM_TOMB)
    return false;
  HandleSlot *s = hm_find (m, handle);
  if (s != NULL)
    {
      s->value = value;
      return true;
    }
  if ((m->used + 1) * 10 > (m->mask + 1) * 7 && !hm_grow (m))
    return false;
  size_t i = hm_index (handle, m->mask);
  while (m->slots[i].handle != 0 && m->slots[i].handle != HM_TOMB)
    i = (i + 1) & m->mask;
  if (m->slots[i].handle == 0)
    m->used++;
  m->slots[i].handle = handle;
  m->slots[i].value = value;
  m->count++;
  return true;
}

/* Memory follows what is alive: an eighth full, shrink (a failed rehash
 * keeps the larger array). */
static void
hm_shrink_if_sparse (PscHandleMap *m)
{
  if (m->mask + 1 <= MIN_SLOTS || m->count * 8 >= m->mask + 1)
    return;
  size_t want = MIN_SLOTS;
  while (want < m->count * 4)
    want *= 2;
  hm_rehash (m, want);
}

bool
psc_handle_map_remove (PscHandleMap *m, uint64_t handle)
{
  HandleSlot *s = hm_find (m, handle);
  if (s == NULL)
    return false;
  s->handle = HM_TOMB;
  m->count--;
  hm_shrink_if_sparse (m);
  return true;
}

size_t
psc_handle_map_host_bytes (const PscHandleMap *m)
{
  return sizeof *m + (m->mask + 1) * sizeof *m->slots;
}
