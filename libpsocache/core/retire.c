/* retire.c: timeline retirement and eviction (seed 000, "Lifetime,
 * eviction, and hot reload"; DESIGN decision 11).
 *
 * Timeline contract: frame numbers are timeline values. The work the
 * application records after psc_core_begin_frame (core, N, ...) signals N
 * (or more) when the GPU finishes it, and each begin_frame reports the
 * highest completed value. A handle retired during frame F whose last
 * request was in frame L is destroyed only once the completed value reaches
 * max (F, L + PSC_CORE_BORROW_FRAMES): after every frame that may have
 * recorded it, including the borrowed-handle window.
 *
 * The deferred-destruction queue grows as needed (it holds at most one
 * record per object the cache ever created), so retirement never fails.
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"

#include <stdlib.h>

bool
psc_retire_reserve (PscCore *core, uint32_t n)
{
  if (core->retired_cap - core->retired_count >= n)
    return true;
  uint32_t cap = core->retired_cap ? core->retired_cap : 64;
  while (cap - core->retired_count < n)
    cap *= 2;
  PscRetired *r = realloc (core->retired, (size_t) cap * sizeof *r);
  if (r == NULL)
    return false;
  core->retired = r;
  core->retired_cap = cap;
  return true;
}

void
psc_retire_handle (PscCore *core, uint8_t kind, uint64_t handle, uint64_t value)
{
  /* Callers reserve first, so this cannot fail. */
  if (handle == 0 || !psc_retire_reserve (core, 1))
    return;
  core->retired[core->retired_count++] = (PscRetired) { handle, value, kind };
  atomic_store_explicit (&core->stats.retirements_pending, core->retired_count,
                         memory_order_relaxed);
}

bool
psc_retire_entry (PscCore *core, PscKind kind, uint32_t index)
{
  PscEntry *e = &core->entries[kind].items[index];
  /* Out of memory for the queue: keep the entry (never destroy early). */
  if (e->state != PSC_ENTRY_READY || !psc_retire_reserve (core, 1))
    return false;
  if (!e->owned_key)
    psc_table_remove (core->tables[kind], e->hash, e->key, e->key_len);
  psc_handle_map_remove (core->handles[kind], e->handle);
  psc_core_objects_changed (core);
  uint64_t value = psc_entry_last_used (core, e) + PSC_CORE_BORROW_FRAMES;
  if (value < core->frame)
    value = core->frame;
  psc_retire_handle (core, (uint8_t) kind, e->handle, value);
  e->handle = 0;
  e->state = PSC_ENTRY_DEAD;
  e->stale = 0;
  psc_core_ready_changed (core);
  psc_stat_add (&core->stats.kinds[kind].entries, (uint64_t) -1);
  return true;
}

static void
destroy_retired (PscCore *core, const PscRetired *r)
{
  if (r->kind == PSC_KIND_COUNT)
    core->vk->vkDestroyDescriptorPool (core->cfg.device, (VkDescriptorPool) r->handle,
                                       core->cfg.allocator);
  else
    psc_core_destroy_handle (core, (PscKind) r->kind, r->handle);
  psc_stat_add (&core->stats.retired, 1);
}

void
psc_retire_pump (PscCore *core)
{
  uint32_t kept = 0;
  for (uint32_t i = 0; i < core->retired_count; i++)
    {
      if (core->retired[i].retire_value <= core->completed_timeline)
        destroy_retired (core, &core->retired[i]);
      else
        core->retired[kept++] = core->retired[i];
    }
  core->retired_count = kept;
  atomic_store_explicit (&core->stats.retirements_pending, kept, memory_order_relaxed);

  if (core->auto_evict_frames > 0)
    {
      /* Incremental: look at a bounded slice of entries each frame. */
      for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
        {
          PscEntryVec *v = &core->entries[k];
          uint64_t idle = core->auto_evict_frames > PSC_CORE_BORROW_FRAMES
                          ? core->auto_evict_frames : PSC_CORE_BORROW_FRAMES;
          uint32_t budget = v->len < 512 ? v->len : 512;
          for (uint32_t n = 0; n < budget; n++)
            {
              uint32_t i = (core->evict_cursor + n) % v->len;
              PscEntry *e = &v->items[i];
              if (e->state == PSC_ENTRY_READY && e->pins == 0 &&
                  core->frame > psc_entry_last_used (core, e) + idle)
                {
                  if (psc_retire_entry (core, (PscKind) k, i))
                    psc_stat_add (&core->stats.evictions, 1);
                }
            }
        }
      core->evict_cursor += 512;
    }
}

void
psc_retire_all (PscCore *core)
{
  for (uint32_t i = 0; i < core->retired_count; i++)
    destroy_retired (core, &core->retired[i]);
  core->retired_count = 0;
  free (core->retired);
  core->retired = NULL;
  core->retired_cap = 0;
  atomic_store_explicit (&core->stats.retirements_pending, 0, memory_order_relaxed);
}

uint32_t
psc_core_evict (PscCore *core, uint32_t idle_frames)
{
  if (!psc_core_check_thread (core, NULL))
    return 0;
  uint64_t idle = idle_frames > PSC_CORE_BORROW_FRAMES ? idle_frames : PSC_CORE_BORROW_FRAMES;
  uint32_t evicted = 0;
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    for (uint32_t i = 0; i < core->entries[k].len; i++)
      {
        PscEntry *e = &core->entries[k].items[i];
        if (e->state == PSC_ENTRY_READY && e->pins == 0
            && core->frame > psc_entry_last_used (core, e) + idle)
          {
            if (psc_retire_entry (core, (PscKind) k, i))
              evicted++;
          }
      }
  psc_stat_add (&core->stats.evictions, evicted);
  return evicted;
}

void
psc_core_set_auto_evict (PscCore *core, uint32_t idle_frames)
{
  if (!psc_core_check_thread (core, NULL))
    return;
  core->auto_evict_frames = idle_frames;
}
