/* reload.c: hot reload of a shader (see reload.h and psc-core.h).
 *
 * The operation, on the owner thread: a new module is created for the new
 * code (nothing changes if that fails); the shader's generation moves on
 * (same id); the application's old descriptor pool is timeline-retired;
 * pipelines of the old generation that are Compiling or Failed are
 * discarded (waiters get VK_INCOMPLETE), Ready ones are flagged stale
 * (retired once the new generation's pipeline is published, or when they
 * fall idle); the content key becomes the new code; the old module's
 * handle keeps naming the shader (at the new generation) until the next
 * pump, and the module is destroyed once no compile job uses it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "reload.h"

#include "events.h"
#include "requests.h"
#include "resolver.h"
#include "retire.h"
#include "shaders.h"
#include "stats.h"

#include <stdlib.h>

#include <volk.h>

/* Pipelines naming the shader (all of an older generation: the new one was
 * just made): Ready ones turn stale, the others are discarded. A walk over
 * live pipelines. */
static void
invalidate_old_generation (PscCore *core, uint32_t shader_id)
{
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    {
      PscStore *s = core->stores[k];
      PscLiveWalk walk = psc_store_walk (s);
      for (uint32_t i; psc_live_next (&walk, &i);)
        {
          PscEntry *p = psc_store_entry (s, i);
          bool uses = false;
          for (uint32_t j = 0; j < p->pipe.shader_count; j++)
            uses |= p->pipe.shader_ids[j] == shader_id;
          if (!uses)
            continue;
          if (p->state == PSC_ENTRY_READY)
            {
              p->stale = 1;
              psc_core_ready_changed (core);
            }
          else
            psc_requests_discard (core, (PscKind) k, i);
        }
    }
}

PscStatus
psc_core_replace_shader (PscCore *core, VkShaderModule module, const uint32_t *code, size_t size,
                         VkDescriptorPool old_pool, VkShaderModule *new_module, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscStore *s = core->stores[PSC_KIND_SHADER];
  PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_SHADER, (uint64_t) module);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "module",
                                                 "0x%llx was not registered with this cache",
                                                 (unsigned long long) (uint64_t) module));
  PscSpecConstant *spec;
  uint32_t spec_count;
  PscStatus st = psc_shaders_read_code (core, code, size, &spec, &spec_count, err);
  if (st != PSC_STATUS_OK)
    return st;
  VkShaderModule m = VK_NULL_HANDLE;
  if (!psc_retire_reserve (core, 1) || !psc_shaders_reserve_doomed (core, 1))
    st = psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
  else
    st = psc_shaders_create_module (core, code, size, &m, err);
  if (st != PSC_STATUS_OK)
    {
      free (spec);
      return st;
    }
  const uint32_t index = psc_store_index (s, e);
  const VkShaderModule old = (VkShaderModule) e->handle;
  if (!psc_store_map (s, index, (uint64_t) m))
    {
      free (spec);
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
    }

  /* The memo's epoch moves on before the old table goes (it may be cached
   * there). */
  e->shader.generation++;
  psc_core_objects_changed (core);
  free (e->shader.spec);
  e->shader.spec = spec;
  e->shader.spec_count = spec_count;
  if (old_pool != VK_NULL_HANDLE)
    psc_retire_handle (core, PSC_KIND_COUNT, (uint64_t) old_pool, core->frame);
  invalidate_old_generation (core, psc_store_id (s, index));
  /* Content now names this shader, unless that content is another
   * shader's: then it keeps a private copy (found by handle and id). */
  psc_store_rekey (s, index, psc_core_hash (core, code, size), code, size,
                   !core->cfg.pass_through);
  psc_shaders_doom (core, index, old);
  psc_core_update_bytes (core, PSC_KIND_SHADER);
  psc_events_shader_reloaded (core, psc_store_id (s, index),
                              psc_store_entry (s, index)->shader.generation);
  *new_module = m;
  return PSC_STATUS_OK;
}

/* Invalidation without new code (the D-Bus InvalidateShader and
 * InvalidateAll controls): the generation moves on as at a reload with the
 * same SPIR-V, but the module, its handle and the content key stay, so the
 * application's handles keep working; pipelines of the old generation turn
 * stale (Ready) or are discarded (Compiling, Failed), and the next request
 * compiles them again. No SHADER_RELOADED event: the layer above announces
 * an invalidation itself. */
static void
invalidate_entry (PscCore *core, PscStore *s, uint32_t index)
{
  PscEntry *e = psc_store_entry (s, index);
  e->shader.generation++;
  psc_core_objects_changed (core);
  invalidate_old_generation (core, psc_store_id (s, index));
}

PscStatus
psc_core_invalidate_shader (PscCore *core, uint32_t shader_id, uint32_t *generation,
                            PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscStore *s = core->stores[PSC_KIND_SHADER];
  uint32_t index;
  if (shader_id == 0 || !psc_store_index_of_id (s, shader_id, &index) ||
      psc_store_entry (s, index)->state != PSC_ENTRY_READY)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "shader_id",
                          "%u is not a registered shader of this cache", shader_id);
  invalidate_entry (core, s, index);
  *generation = psc_store_entry (s, index)->shader.generation;
  return PSC_STATUS_OK;
}

uint32_t
psc_core_invalidate_all (PscCore *core)
{
  PscCoreError err;
  if (!psc_core_check_thread (core, &err))
    return 0;
  PscStore *s = core->stores[PSC_KIND_SHADER];
  uint32_t n = 0;
  PscLiveWalk walk = psc_store_walk (s);
  for (uint32_t i; psc_live_next (&walk, &i);)
    if (psc_store_entry (s, i)->state == PSC_ENTRY_READY)
      {
        invalidate_entry (core, s, i);
        n++;
      }
  return n;
}
