/* retire.c: entries leaving the cache (see retire.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "retire.h"

#include "events.h"
#include "shaders.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

#include <volk.h>

/* Live pipeline entries looked at per kind and frame by the pump's
 * eviction and reachability walk. */
#define PUMP_SLICE 512u

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

void
psc_core_forget_entry (PscCore *core, PscKind kind, uint32_t index)
{
  PscStore *s = core->stores[kind];
  PscEntry *e = psc_store_entry (s, index);
  if (psc_kind_is_pipeline (kind))
    {
      if (e->state == PSC_ENTRY_FAILED)
        core->failed_count--;
      psc_shaders_remove_pipeline (core, e);
      psc_core_ready_changed (core);
    }
  else
    psc_core_objects_changed (core);
  psc_store_release (s, index);
  psc_stat_add (&core->stats.kinds[kind].entries, (uint64_t) -1);
  psc_core_update_bytes (core, kind);
}

bool
psc_retire_entry (PscCore *core, PscKind kind, uint32_t index)
{
  PscEntry *e = psc_core_entry (core, kind, index);
  /* Out of memory for the queue: keep the entry (never destroy early). */
  if (e->state != PSC_ENTRY_READY || !psc_retire_reserve (core, 1))
    return false;
  uint64_t value = psc_entry_last_used (core, e) + PSC_CORE_BORROW_FRAMES;
  if (value < core->frame)
    value = core->frame;
  psc_retire_handle (core, (uint8_t) kind, e->handle, value);
  psc_core_forget_entry (core, kind, index);
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

static void
destroy_due (PscCore *core)
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
}

static uint64_t
idle_window (uint32_t frames)
{
  return frames > PSC_CORE_BORROW_FRAMES ? frames : PSC_CORE_BORROW_FRAMES;
}

/* Whether the pump lets an entry go: unpinned, idle past the window, and
 * either idle past the eviction threshold (evict_idle != 0) or named by a
 * released shader (nothing can request it again). */
static bool
pump_lets_go (PscCore *core, const PscEntry *e, uint64_t evict_idle, bool *evicted)
{
  if (e->pins != 0 || (e->state != PSC_ENTRY_READY && e->state != PSC_ENTRY_FAILED))
    return false;
  const uint64_t last = psc_entry_last_used (core, e);
  if (core->frame <= last + PSC_CORE_BORROW_FRAMES)
    return false;
  *evicted = evict_idle != 0 && e->state == PSC_ENTRY_READY && core->frame > last + evict_idle;
  return *evicted || (core->released_shaders > 0 && !psc_shaders_registered (core, e));
}

/* Looks at a slice of a kind's live entries, going down from where the
 * last slice stopped (wrapping): an entry released here has its place taken
 * by the last live one, which this order saw already or will reach soon. */
static void
pump_slice (PscCore *core, PscKind kind, uint64_t evict_idle)
{
  PscStore *s = core->stores[kind];
  uint32_t pos = core->pump_cursor[kind];
  for (uint32_t k = 0; k < PUMP_SLICE; k++)
    {
      const uint32_t live = psc_store_live_count (s);
      if (live == 0 || k >= live)
        break;
      if (pos >= live)
        pos = live - 1;
      const uint32_t i = psc_store_live_at (s, pos);
      PscEntry *e = psc_store_entry (s, i);
      bool evicted = false;
      if (pump_lets_go (core, e, evict_idle, &evicted))
        {
          if (e->state == PSC_ENTRY_FAILED)
            psc_core_forget_entry (core, kind, i);
          else if (psc_retire_entry (core, kind, i) && evicted)
            {
              psc_stat_add (&core->stats.evictions, 1);
              psc_events_evicted (core, 1);
            }
        }
      pos = pos > 0 ? pos - 1 : psc_store_live_count (s) - 1;
    }
  core->pump_cursor[kind] = pos;
}

void
psc_retire_pump (PscCore *core)
{
  destroy_due (core);
  if (core->auto_evict_frames == 0 && core->released_shaders == 0)
    return;
  const uint64_t evict_idle = core->auto_evict_frames ? idle_window (core->auto_evict_frames) : 0;
  pump_slice (core, PSC_KIND_GRAPHICS, evict_idle);
  pump_slice (core, PSC_KIND_COMPUTE, evict_idle);
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
  const uint64_t idle = idle_window (idle_frames);
  uint32_t evicted = 0;
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    {
      PscStore *s = core->stores[k];
      PscLiveWalk walk = psc_store_walk (s);
      for (uint32_t i; psc_live_next (&walk, &i);)
        {
          PscEntry *e = psc_store_entry (s, i);
          if (e->state == PSC_ENTRY_READY && e->pins == 0 &&
              core->frame > psc_entry_last_used (core, e) + idle &&
              psc_retire_entry (core, (PscKind) k, i))
            evicted++;
        }
    }
  psc_stat_add (&core->stats.evictions, evicted);
  psc_events_evicted (core, evicted);
  return evicted;
}

void
psc_core_set_auto_evict (PscCore *core, uint32_t idle_frames)
{
  if (!psc_core_check_thread (core, NULL))
    return;
  core->auto_evict_frames = idle_frames;
}
