/* inspect.c: a page of the live entries, for the D-Bus ListEntries control
 * (see psc-core.h, "Inspection"). Reads the stores; changes nothing.
 * A walk costs the page plus the kinds it skips over, never the history.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"
#include "stats.h"
#include "store.h"
#include "table.h"

PscStatus
psc_core_list_entries (PscCore *core, uint32_t offset, uint32_t limit, PscCoreEntryInfo *out,
                       uint32_t *count, uint32_t *total, PscCoreError *err)
{
  *count = 0;
  *total = 0;
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  uint64_t all = 0;
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    all += psc_store_live_count (core->stores[k]);
  *total = all > UINT32_MAX ? UINT32_MAX : (uint32_t) all;

  uint64_t skip = offset;
  uint32_t n = 0;
  for (int k = 0; k < PSC_KIND_COUNT && n < limit; k++)
    {
      const PscStore *s = core->stores[k];
      const uint32_t live = psc_store_live_count (s);
      if (skip >= live)
        {
          skip -= live;
          continue;
        }
      for (uint32_t pos = (uint32_t) skip; pos < live && n < limit; pos++)
        {
          const uint32_t index = psc_store_live_at (s, pos);
          const PscEntry *e = psc_store_entry (s, index);
          PscCoreEntryInfo *info = &out[n++];
          info->id = psc_store_id (s, index);
          info->kind = (uint8_t) k;
          info->state = e->state;
          info->stale = e->stale;
          info->generation = k == PSC_KIND_SHADER ? e->shader.generation : 0;
          /* A tabled key's slot keeps its hash (the same rule). */
          info->key_hash = e->tabled ? psc_table_slot (s->table, e->slot)->hash
                           : e->key != NULL ? psc_core_hash (core, e->key, e->key_len) : 0;
          info->last_used_frame = e->last_used_frame;
          if (s->hit_frame != NULL && s->hit_frame[index] > info->last_used_frame)
            info->last_used_frame = s->hit_frame[index];
          info->host_bytes = sizeof (PscEntry) + sizeof (uint64_t) + sizeof (uint32_t) + e->key_len;
        }
      skip = 0;
    }
  *count = n;
  return PSC_STATUS_OK;
}
