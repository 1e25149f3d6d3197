/* shaders.c: shader modules registered by SPIR-V (see shaders.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "shaders.h"

#include "spirv.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

#include <volk.h>

static PscStore *
shader_store (const PscCore *core)
{
  return core->stores[PSC_KIND_SHADER];
}

PscEntry *
psc_shader_for_id (const PscCore *core, uint32_t id)
{
  uint32_t i;
  if (!psc_store_index_of_id (shader_store (core), id, &i))
    return NULL;
  return psc_store_entry (shader_store (core), i);
}

bool
psc_shader_current (const PscCore *core, uint32_t id, uint32_t generation)
{
  const PscEntry *e = psc_shader_for_id (core, id);
  return e != NULL && e->state == PSC_ENTRY_READY && e->shader.generation == generation;
}

bool
psc_shaders_registered (const PscCore *core, const PscEntry *p)
{
  for (uint32_t i = 0; i < p->pipe.shader_count; i++)
    {
      const PscEntry *e = psc_shader_for_id (core, p->pipe.shader_ids[i]);
      if (e == NULL || e->state != PSC_ENTRY_READY)
        return false;
    }
  return true;
}

bool
psc_shaders_current (const PscCore *core, const PscEntry *p)
{
  uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
  const int n = p->key != NULL ? psc_pipeline_key_shaders (p->key, p->key_len, ids, gens, NULL) : -1;
  if (p->stale || n < 0)
    return false;
  for (int i = 0; i < n; i++)
    {
      const PscEntry *e = psc_shader_for_id (core, ids[i]);
      if (e == NULL || e->shader.generation != gens[i])
        return false;
    }
  return true;
}

void
psc_shaders_add_pipeline (PscCore *core, const PscEntry *p)
{
  for (uint32_t i = 0; i < p->pipe.shader_count; i++)
    {
      PscEntry *e = psc_shader_for_id (core, p->pipe.shader_ids[i]);
      if (e != NULL)
        e->shader.pipelines++;
    }
}

/* The identity dies: no registration and no pipeline names it. */
static void
forget_shader (PscCore *core, PscEntry *e)
{
  free (e->shader.spec);
  e->shader.spec = NULL;
  psc_store_release (shader_store (core), psc_store_index (shader_store (core), e));
  psc_core_update_bytes (core, PSC_KIND_SHADER);
}

void
psc_shaders_remove_pipeline (PscCore *core, const PscEntry *p)
{
  for (uint32_t i = 0; i < p->pipe.shader_count; i++)
    {
      PscEntry *e = psc_shader_for_id (core, p->pipe.shader_ids[i]);
      if (e == NULL || e->shader.pipelines == 0)
        continue;
      if (--e->shader.pipelines == 0 && e->state == PSC_ENTRY_RELEASED)
        {
          core->released_shaders--;
          forget_shader (core, e);
        }
    }
}

void
psc_shaders_pin (PscCore *core, VkShaderModule module)
{
  uint32_t pins = 0;
  psc_handle_map_lookup (core->module_pins, (uint64_t) module, &pins);
  /* Out of memory: the job still runs; the module could then die under it
   * only if its shader were released or reloaded meanwhile, and a doomed
   * module is kept until shutdown when this map cannot say. */
  psc_handle_map_set (core->module_pins, (uint64_t) module, pins + 1);
}

void
psc_shaders_unpin (PscCore *core, VkShaderModule module)
{
  uint32_t pins = 0;
  if (!psc_handle_map_lookup (core->module_pins, (uint64_t) module, &pins))
    return;
  if (pins > 1)
    psc_handle_map_set (core->module_pins, (uint64_t) module, pins - 1);
  else
    psc_handle_map_remove (core->module_pins, (uint64_t) module);
}

static bool
pinned (const PscCore *core, VkShaderModule module)
{
  uint32_t pins;
  return psc_handle_map_lookup (core->module_pins, (uint64_t) module, &pins);
}

bool
psc_shaders_reserve_doomed (PscCore *core, uint32_t n)
{
  if (core->doomed_cap - core->doomed_count >= n)
    return true;
  uint32_t cap = core->doomed_cap ? core->doomed_cap : 16;
  while (cap - core->doomed_count < n)
    cap *= 2;
  PscDoomed *d = realloc (core->doomed, (size_t) cap * sizeof *d);
  if (d == NULL)
    return false;
  core->doomed = d;
  core->doomed_cap = cap;
  return true;
}

static void
append_doomed (PscCore *core, uint32_t shader, VkShaderModule module, bool unmap)
{
  /* Callers reserved: this cannot fail. */
  if (!psc_shaders_reserve_doomed (core, 1))
    return;
  core->doomed[core->doomed_count++] = (PscDoomed) { module, shader, unmap };
}

void
psc_shaders_doom (PscCore *core, uint32_t shader, VkShaderModule module)
{
  append_doomed (core, shader, module, true);
}

/* The last registration is gone: the module's handles stop resolving now
 * (also a replaced module's, which would have stopped at the next pump). */
static void
release_modules (PscCore *core, uint32_t index, PscEntry *e)
{
  for (uint32_t i = 0; i < core->doomed_count; i++)
    if (core->doomed[i].unmap && core->doomed[i].shader == index)
      {
        psc_store_unmap (shader_store (core), (uint64_t) core->doomed[i].module);
        core->doomed[i].unmap = false;
      }
  VkShaderModule m = (VkShaderModule) e->handle;
  psc_store_unmap (shader_store (core), e->handle);
  e->handle = 0;
  if (pinned (core, m))
    append_doomed (core, index, m, false);
  else
    core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
  psc_core_objects_changed (core);
}

void
psc_shaders_sweep (PscCore *core)
{
  for (uint32_t i = 0; i < core->doomed_count;)
    {
      PscDoomed *d = &core->doomed[i];
      if (d->unmap)
        {
          psc_store_unmap (shader_store (core), (uint64_t) d->module);
          psc_core_objects_changed (core);
          d->unmap = false;
        }
      if (pinned (core, d->module))
        {
          i++;
          continue;
        }
      core->vk->vkDestroyShaderModule (core->cfg.device, d->module, core->cfg.allocator);
      core->doomed[i] = core->doomed[--core->doomed_count];
    }
}

void
psc_shaders_destroy_all (PscCore *core)
{
  for (uint32_t i = 0; i < core->doomed_count; i++)
    core->vk->vkDestroyShaderModule (core->cfg.device, core->doomed[i].module, core->cfg.allocator);
  core->doomed_count = 0;
  PscStore *s = shader_store (core);
  for (uint32_t i = 0; i < psc_store_live_count (s); i++)
    {
      PscEntry *e = psc_store_entry (s, psc_store_live_at (s, i));
      if (e->state == PSC_ENTRY_READY)
        core->vk->vkDestroyShaderModule (core->cfg.device, (VkShaderModule) e->handle,
                                         core->cfg.allocator);
      e->handle = 0;
      free (e->shader.spec);
      e->shader.spec = NULL;
    }
}

/* ------------------------------------------------------------------------
 * Registration.
 */
PscStatus
psc_shaders_read_code (PscCore *core, const uint32_t *code, size_t size, PscSpecConstant **spec,
                       uint32_t *spec_count, PscCoreError *err)
{
  PscStatus st = psc_spirv_spec_constants (code, size, spec, spec_count, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  if (size > UINT32_MAX)
    {
      free (*spec);
      *spec = NULL;
      *spec_count = 0;
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "codeSize",
                                                   "%zu bytes is too large", size));
    }
  return PSC_STATUS_OK;
}

/* Creates a module for code, timed and counted as a creation. */
static PscStatus
create_module (PscCore *core, const uint32_t *code, size_t size, VkShaderModule *m,
               PscCoreError *err)
{
  VkShaderModuleCreateInfo ci = {
    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
    .codeSize = size,
    .pCode = code,
  };
  PscAtomicKindStats *ks = &core->stats.kinds[PSC_KIND_SHADER];
  const uint64_t t0 = psc_now_ns ();
  VkResult r = core->vk->vkCreateShaderModule (core->cfg.device, &ci, core->cfg.allocator, m);
  if (r != VK_SUCCESS)
    return psc_core_reject (core, psc_core_fail_vk (err, r, "vkCreateShaderModule"));
  psc_stat_add (&ks->creations, 1);
  psc_stat_add (&ks->creation_ns, psc_now_ns () - t0);
  return PSC_STATUS_OK;
}

PscStatus
psc_shaders_create_module (PscCore *core, const uint32_t *code, size_t size, VkShaderModule *m,
                           PscCoreError *err)
{
  return create_module (core, code, size, m, err);
}

/* A Released shader is registered again: a new module, the same identity. */
static PscStatus
revive (PscCore *core, uint32_t index, const uint32_t *code, size_t size, PscCoreError *err)
{
  PscStore *s = shader_store (core);
  VkShaderModule m;
  PscStatus st = create_module (core, code, size, &m, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (!psc_store_map (s, index, (uint64_t) m))
    {
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
    }
  PscEntry *e = psc_store_entry (s, index);
  e->state = PSC_ENTRY_READY;
  e->shader.refs = 1;
  e->last_used_frame = core->frame;
  core->released_shaders--;
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].entries, 1);
  psc_core_objects_changed (core);
  psc_core_ready_changed (core);
  psc_core_name_object (core, PSC_KIND_SHADER, e->handle, psc_store_id (s, index));
  return PSC_STATUS_OK;
}

/* A shader the cache has never seen (or, in pass-through mode, any). */
static PscStatus
register_new (PscCore *core, const uint32_t *code, size_t size, uint64_t hash,
              const PscProbe *probe, PscSpecConstant *spec, uint32_t spec_count,
              uint32_t *index, PscCoreError *err)
{
  PscStore *s = shader_store (core);
  if (probe != NULL && probe->same_hash >= PSC_COLLISION_BUCKET_CAPACITY)
    {
      free (spec);
      psc_stat_add (&core->stats.capacity_failures, 1);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "pCode",
                                                   "collision bucket full for hash 0x%016llx",
                                                   (unsigned long long) hash));
    }
  VkShaderModule m;
  PscStatus st = create_module (core, code, size, &m, err);
  if (st != PSC_STATUS_OK)
    {
      free (spec);
      return st;
    }
  st = probe != NULL ? psc_store_reserve (s, hash, probe, code, size, index, err)
                     : psc_store_add (s, hash, code, size, index, err);
  if (st == PSC_STATUS_OK && !psc_store_map (s, *index, (uint64_t) m))
    {
      psc_store_release (s, *index);
      st = psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory recording a shader module");
    }
  if (st != PSC_STATUS_OK)
    {
      free (spec);
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      return psc_core_reject (core, st);
    }
  PscEntry *e = psc_store_entry (s, *index);
  e->state = PSC_ENTRY_READY;
  e->shader.refs = 1;
  e->shader.spec = spec;
  e->shader.spec_count = spec_count;
  e->last_used_frame = core->frame;
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].entries, 1);
  psc_core_update_bytes (core, PSC_KIND_SHADER);
  psc_core_name_object (core, PSC_KIND_SHADER, e->handle, psc_store_id (s, *index));
  return PSC_STATUS_OK;
}

PscStatus
psc_core_register_shader (PscCore *core, const uint32_t *code, size_t size,
                          VkShaderModule *module, uint32_t *id, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  /* What is not SPIR-V at all is refused before any lookup (the parser
   * says why); the rest of the code is read only when it is new. */
  if (code == NULL || size < 20 || size % 4 != 0)
    {
      PscSpecConstant *none;
      uint32_t n;
      return psc_shaders_read_code (core, code, size, &none, &n, err);
    }
  PscStore *s = shader_store (core);
  PscAtomicKindStats *ks = &core->stats.kinds[PSC_KIND_SHADER];
  const uint64_t hash = psc_core_hash (core, code, size);
  uint32_t index;
  PscStatus st;
  if (core->cfg.pass_through)
    {
      PscSpecConstant *spec;
      uint32_t spec_count;
      st = psc_shaders_read_code (core, code, size, &spec, &spec_count, err);
      if (st == PSC_STATUS_OK)
        {
          psc_stat_add (&ks->misses, 1);
          st = register_new (core, code, size, hash, NULL, spec, spec_count, &index, err);
        }
    }
  else
    {
      PscProbe probe;
      const PscTableItem *item = psc_store_find (s, hash, code, size, &probe);
      index = item != NULL ? item->value : PSC_NONE;
      if (item != NULL && psc_store_entry (s, index)->state == PSC_ENTRY_READY)
        {
          psc_store_entry (s, index)->shader.refs++;
          psc_stat_add (&ks->hits, 1);
          st = PSC_STATUS_OK;
        }
      else if (item != NULL)
        {
          /* Released: the same code, already read when it was first
           * registered. */
          psc_stat_add (&ks->misses, 1);
          st = revive (core, index, code, size, err);
        }
      else
        {
          /* Untrusted code is read (and refused: a rejection, not a miss)
           * before the driver sees it. */
          PscSpecConstant *spec;
          uint32_t spec_count;
          st = psc_shaders_read_code (core, code, size, &spec, &spec_count, err);
          if (st == PSC_STATUS_OK)
            {
              psc_stat_add (&ks->misses, 1);
              st = register_new (core, code, size, hash, &probe, spec, spec_count, &index, err);
            }
        }
    }
  if (st != PSC_STATUS_OK)
    return st;
  *module = (VkShaderModule) psc_store_entry (s, index)->handle;
  if (id != NULL)
    *id = psc_store_id (s, index);
  return PSC_STATUS_OK;
}

PscStatus
psc_core_release_shader (PscCore *core, VkShaderModule module, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscStore *s = shader_store (core);
  uint32_t index;
  if (!psc_store_index_of_handle (s, (uint64_t) module, &index) ||
      psc_store_entry (s, index)->state != PSC_ENTRY_READY)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "module",
                                                 "0x%llx was not registered with this cache",
                                                 (unsigned long long) (uint64_t) module));
  PscEntry *e = psc_store_entry (s, index);
  if (--e->shader.refs > 0)
    return PSC_STATUS_OK;
  if (!psc_shaders_reserve_doomed (core, 1))
    {
      e->shader.refs++;
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
    }
  /* Last registration: the module goes and its handle with it. Pipelines
   * made from it stay cached as long as the retirement of unreachable
   * pipelines (retire.c) leaves them, so the same code registered again
   * finds them. */
  release_modules (core, index, e);
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].entries, (uint64_t) -1);
  psc_core_ready_changed (core);
  if (e->shader.pipelines == 0)
    forget_shader (core, e);
  else
    {
      e->state = PSC_ENTRY_RELEASED;
      core->released_shaders++;
    }
  return PSC_STATUS_OK;
}

PscStatus
psc_core_shader_module_for_id (PscCore *core, uint32_t id, VkShaderModule *module,
                               PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  const PscEntry *e = psc_shader_for_id (core, id);
  if (e == NULL || e->state != PSC_ENTRY_READY)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "shader_id",
                                                 "%u is not a live shader of this cache", id));
  *module = (VkShaderModule) e->handle;
  return PSC_STATUS_OK;
}

uint32_t
psc_core_shader_id (PscCore *core, VkShaderModule module)
{
  if (!pthread_equal (core->owner, pthread_self ()))
    return 0;
  PscStore *s = shader_store (core);
  uint32_t index;
  if (!psc_store_index_of_handle (s, (uint64_t) module, &index) ||
      psc_store_entry (s, index)->state != PSC_ENTRY_READY)
    return 0;
  return psc_store_id (s, index);
}
