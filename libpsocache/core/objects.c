/* objects.c: shader modules (registered by SPIR-V), samplers, descriptor-set
 * layouts (with immutable-sampler list identities), pipeline layouts and
 * compatibility render passes, and the resolver that maps the handles a
 * request names to cache-issued ids.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Resolver over the core's tables: handle -> id (id = entry index + 1).
 */
/* The hit path resolves a few handles per request: keep it to one inline
 * map probe and one entry read (no further calls). */
static inline __attribute__((always_inline)) bool
lookup_id (PscCore *core, PscKind kind, uint64_t handle, uint32_t *id)
{
  uint32_t idx;
  if (!psc_handle_map_lookup (core->handles[kind], handle, &idx))
    return false;
  if (core->entries[kind].items[idx].state != PSC_ENTRY_READY)
    return false;
  *id = idx + 1;
  return true;
}

static PscEntry *
entry_for_id (PscCore *core, PscKind kind, uint32_t id)
{
  PscEntryVec *v = &core->entries[kind];
  if (id == 0 || id > v->len || v->items[id - 1].state != PSC_ENTRY_READY)
    return NULL;
  return &v->items[id - 1];
}

static bool
r_shader (void *ctx, VkShaderModule module, PscShaderInfo *info)
{
  PscCore *core = ctx;
  uint32_t idx;
  if (!psc_handle_map_lookup (core->handles[PSC_KIND_SHADER], (uint64_t) module, &idx))
    return false;
  const PscEntry *e = &core->entries[PSC_KIND_SHADER].items[idx];
  if (e->state != PSC_ENTRY_READY)
    return false;
  info->id = idx + 1;
  info->generation = e->generation;
  info->spec = NULL;
  info->spec_count = 0;
  return true;
}

static bool
r_sampler (void *ctx, VkSampler sampler, uint32_t *id)
{
  return lookup_id (ctx, PSC_KIND_SAMPLER, (uint64_t) sampler, id);
}

static bool
r_set_layout (void *ctx, VkDescriptorSetLayout layout, uint32_t *id)
{
  return lookup_id (ctx, PSC_KIND_SET_LAYOUT, (uint64_t) layout, id);
}

static bool
r_pipeline_layout (void *ctx, VkPipelineLayout layout, uint32_t *id)
{
  return lookup_id (ctx, PSC_KIND_PIPELINE_LAYOUT, (uint64_t) layout, id);
}

static bool
r_render_pass (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *id,
               uint32_t *subpass_count, uint32_t *samples)
{
  PscCore *core = ctx;
  if (!lookup_id (core, PSC_KIND_RENDER_PASS, (uint64_t) pass, id))
    return false;
  const PscEntry *e = &core->entries[PSC_KIND_RENDER_PASS].items[*id - 1];
  *subpass_count = 0;
  *samples = 0;
  if (!psc_render_pass_key_subpass_samples (e->key, e->key_len, subpass, subpass_count, samples))
    *samples = 0;
  return true;
}

static bool
r_render_pass_colors (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *color_count)
{
  PscCore *core = ctx;
  uint32_t id;
  if (!lookup_id (core, PSC_KIND_RENDER_PASS, (uint64_t) pass, &id))
    return false;
  const PscEntry *e = &core->entries[PSC_KIND_RENDER_PASS].items[id - 1];
  return psc_render_pass_key_subpass_colors (e->key, e->key_len, subpass, color_count);
}

static PscStatus
r_sampler_list (void *ctx, const uint32_t *ids, uint32_t count, uint32_t *list_id,
                PscCoreError *err)
{
  PscCore *core = ctx;
  size_t len = (size_t) count * sizeof *ids;
  uint64_t hash = psc_core_hash (core, ids, len);
  const PscTableItem *item = psc_table_find (core->sampler_lists, hash, ids, len);
  if (item != NULL)
    {
      *list_id = item->value + 1;
      return PSC_STATUS_OK;
    }
  PscEntryVec *v = &core->sampler_list_entries;
  PscStatus st = psc_table_insert (core->sampler_lists, hash, ids, len, v->len, &item, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return st;
  PscEntry e = { .hash = hash, .key = item->key, .key_len = item->key_len,
                 .state = PSC_ENTRY_READY };
  uint32_t idx = psc_entries_push (v, &e);
  if (idx == UINT32_MAX)
    {
      psc_table_remove (core->sampler_lists, hash, ids, len);
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
    }
  *list_id = idx + 1;
  psc_core_update_bytes (core, PSC_KIND_SET_LAYOUT);
  return PSC_STATUS_OK;
}

static uint64_t
handle_for_id (PscCore *core, PscKind kind, uint32_t id)
{
  PscEntry *e = entry_for_id (core, kind, id);
  return e ? e->handle : 0;
}

static VkShaderModule
r_shader_handle (void *ctx, uint32_t id)
{
  return (VkShaderModule) handle_for_id (ctx, PSC_KIND_SHADER, id);
}

static VkSampler
r_sampler_handle (void *ctx, uint32_t id)
{
  return (VkSampler) handle_for_id (ctx, PSC_KIND_SAMPLER, id);
}

static uint32_t
r_sampler_list_ids (void *ctx, uint32_t list_id, uint32_t *ids)
{
  PscCore *core = ctx;
  PscEntryVec *v = &core->sampler_list_entries;
  if (list_id == 0 || list_id > v->len)
    return 0;
  const PscEntry *e = &v->items[list_id - 1];
  uint32_t n = e->key_len / sizeof (uint32_t);
  if (n > PSC_MAX_IMMUTABLE_SAMPLERS)
    n = PSC_MAX_IMMUTABLE_SAMPLERS;
  memcpy (ids, e->key, (size_t) n * sizeof (uint32_t));
  return n;
}

static VkDescriptorSetLayout
r_set_layout_handle (void *ctx, uint32_t id)
{
  return (VkDescriptorSetLayout) handle_for_id (ctx, PSC_KIND_SET_LAYOUT, id);
}

static VkPipelineLayout
r_pipeline_layout_handle (void *ctx, uint32_t id)
{
  return (VkPipelineLayout) handle_for_id (ctx, PSC_KIND_PIPELINE_LAYOUT, id);
}

static VkRenderPass
r_render_pass_handle (void *ctx, uint32_t id)
{
  return (VkRenderPass) handle_for_id (ctx, PSC_KIND_RENDER_PASS, id);
}

void
psc_core_init_resolver (PscCore *core)
{
  core->resolver = (PscResolver) {
    .ctx = core,
    .shader = r_shader,
    .sampler = r_sampler,
    .set_layout = r_set_layout,
    .pipeline_layout = r_pipeline_layout,
    .render_pass = r_render_pass,
    .sampler_list = r_sampler_list,
    .render_pass_colors = r_render_pass_colors,
    .shader_handle = r_shader_handle,
    .sampler_handle = r_sampler_handle,
    .sampler_list_ids = r_sampler_list_ids,
    .set_layout_handle = r_set_layout_handle,
    .pipeline_layout_handle = r_pipeline_layout_handle,
    .render_pass_handle = r_render_pass_handle,
    .memo = &core->resolver_memo,
  };
  core->resolver_memo.epoch = &core->objects_epoch;
}

/* ------------------------------------------------------------------------
 * Shader modules: identity is the SPIR-V content (the key is the code itself,
 * compared in full) plus a per-module generation. Registering the same code
 * again returns the same module and takes another reference.
 */
#define SPIRV_MAGIC 0x07230203u

static PscStatus
check_spirv (PscCore *core, const uint32_t *code, size_t size, PscCoreError *err)
{
  if (code == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pCode", "is NULL"));
  if (size < 20 || size % 4 != 0)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                                                 "%zu is not a SPIR-V size (a multiple of 4, at least 20)",
                                                 size));
  if (code[0] != SPIRV_MAGIC)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pCode[0]",
                                                 "0x%08x is not the SPIR-V magic number", code[0]));
  if (size > UINT32_MAX)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "codeSize",
                                                 "%zu bytes is too large", size));
  return PSC_STATUS_OK;
}

PscStatus
psc_core_register_shader (PscCore *core, const uint32_t *code, size_t size,
                          VkShaderModule *module, uint32_t *id, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscStatus cs = check_spirv (core, code, size, err);
  if (cs != PSC_STATUS_OK)
    return cs;

  PscAtomicKindStats *ks = &core->stats.kinds[PSC_KIND_SHADER];
  uint64_t hash = psc_core_hash (core, code, size);
  const PscTableItem *item = psc_table_find (core->tables[PSC_KIND_SHADER], hash, code, size);
  if (item != NULL && !core->cfg.pass_through)
    {
      PscEntry *e = &core->entries[PSC_KIND_SHADER].items[item->value];
      e->refs++;
      psc_stat_add (&ks->hits, 1);
      *module = (VkShaderModule) e->handle;
      if (id != NULL)
        *id = item->value + 1;
      return PSC_STATUS_OK;
    }
  psc_stat_add (&ks->misses, 1);
  if (!core->cfg.pass_through &&
      psc_table_bucket_size (core->tables[PSC_KIND_SHADER], hash) >= PSC_COLLISION_BUCKET_CAPACITY)
    {
      psc_stat_add (&core->stats.capacity_failures, 1);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "pCode",
                                                   "collision bucket full for hash 0x%016llx",
                                                   (unsigned long long) hash));
    }

  VkShaderModuleCreateInfo ci = {
    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
    .codeSize = size,
    .pCode = code,
  };
  VkShaderModule m = VK_NULL_HANDLE;
  uint64_t t0 = psc_now_ns ();
  VkResult r = core->vk->vkCreateShaderModule (core->cfg.device, &ci, core->cfg.allocator, &m);
  uint64_t t1 = psc_now_ns ();
  if (r != VK_SUCCESS)
    return psc_core_reject (core, psc_core_fail_vk (err, r, "vkCreateShaderModule"));
  psc_stat_add (&ks->creations, 1);
  psc_stat_add (&ks->creation_ns, t1 - t0);

  uint32_t idx;
  PscStatus st = core->cfg.pass_through
    ? psc_core_own (core, PSC_KIND_SHADER, (const uint8_t *) code, size, (uint64_t) m, &idx, err)
    : psc_core_publish (core, PSC_KIND_SHADER, hash, (const uint8_t *) code, size,
                        (uint64_t) m, &idx, err);
  if (st != PSC_STATUS_OK)
    {
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      return psc_core_reject (core, st);
    }
  *module = m;
  if (id != NULL)
    *id = idx + 1;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_release_shader (PscCore *core, VkShaderModule module, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_SHADER, (uint64_t) module);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "module",
                                                 "0x%llx was not registered with this cache",
                                                 (unsigned long long) (uint64_t) module));
  if (--e->refs > 0)
    return PSC_STATUS_OK;

  /* Last reference: the module dies and its id with it. Pipelines created
   * from it stay cached (Vulkan does not need the module after creation), but
   * no new request can name this id again. A module a compile job still
   * uses is destroyed when the job is done. */
  if (!e->owned_key)
    psc_table_remove (core->tables[PSC_KIND_SHADER], e->hash, e->key, e->key_len);
  psc_core_doom_module (core, (VkShaderModule) e->handle);
  e->state = PSC_ENTRY_DEAD;
  e->handle = 0;
  psc_core_objects_changed (core);
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].entries, (uint64_t) -1);
  psc_core_update_bytes (core, PSC_KIND_SHADER);
  return PSC_STATUS_OK;
}

PscStatus
psc_core_shader_module_for_id (PscCore *core, uint32_t id, VkShaderModule *module,
                               PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscEntry *e = entry_for_id (core, PSC_KIND_SHADER, id);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "shader_id",
                                                 "%u is not a live shader of this cache", id));
  *module = (VkShaderModule) e->handle;
  return PSC_STATUS_OK;
}

uint32_t
psc_core_shader_id (PscCore *core, VkShaderModule module)
{
  uint32_t id;
  if (!pthread_equal (core->owner, pthread_self ()) || core->closed)
    return 0;
  return lookup_id (core, PSC_KIND_SHADER, (uint64_t) module, &id) ? id : 0;
}

/* ------------------------------------------------------------------------
 * Samplers, set layouts, pipeline layouts, compatibility render passes.
 * Each creates from its decoded key.
 */
/* Defines create_<name>: decode the key into freshly allocated build
 * storage (DECODE, with `key`, `len`, `core` and `b` in scope), create the
 * object with the device's VKCREATE, free the storage. A key that does not
 * decode is an internal error: encoders and decoders are tested as pairs. */
#define DEFINE_CREATE_FROM_KEY(name, Build, build_size, DECODE, VkType, VKCREATE, what)  \
  static PscStatus                                                             \
  create_##name (PscCore *core, const uint8_t *key, size_t len, uint64_t *handle, \
                 PscCoreError *err)                                            \
  {                                                                            \
    Build *b = psc_build_alloc (build_size ());                                \
    if (b == NULL)                                                             \
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");      \
    PscStatus st = PSC_STATUS_OK;                                              \
    VkType object = VK_NULL_HANDLE;                                            \
    const void *ci = (DECODE);                                                 \
    if (ci == NULL)                                                            \
      st = psc_core_fail (err, PSC_STATUS_FAILED, "",                          \
                          "internal error: undecodable " what " key");         \
    else                                                                       \
      {                                                                        \
        VkResult r = core->vk->VKCREATE (core->cfg.device, ci, core->cfg.allocator, \
                                         &object);                             \
        if (r != VK_SUCCESS)                                                   \
          st = psc_core_fail_vk (err, r, #VKCREATE);                           \
      }                                                                        \
    free (b);                                                                  \
    *handle = (uint64_t) object;                                               \
    return st;                                                                 \
  }

DEFINE_CREATE_FROM_KEY (sampler, PscSamplerBuild, psc_sampler_build_size,
                        psc_decode_sampler (key, len, b),
                        VkSampler, vkCreateSampler, "sampler")
DEFINE_CREATE_FROM_KEY (set_layout, PscSetLayoutBuild, psc_set_layout_build_size,
                        psc_decode_set_layout (key, len, &core->resolver, b),
                        VkDescriptorSetLayout, vkCreateDescriptorSetLayout, "set-layout")
DEFINE_CREATE_FROM_KEY (pipeline_layout, PscPipelineLayoutBuild, psc_pipeline_layout_build_size,
                        psc_decode_pipeline_layout (key, len, &core->resolver, b),
                        VkPipelineLayout, vkCreatePipelineLayout, "pipeline-layout")
DEFINE_CREATE_FROM_KEY (render_pass, PscRenderPassBuild, psc_render_pass_build_size,
                        psc_decode_render_pass (key, len, b),
                        VkRenderPass, vkCreateRenderPass, "render-pass")

PscStatus
psc_core_get_sampler (PscCore *core, const VkSamplerCreateInfo *ci, VkSampler *out,
                      PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_sampler (ci, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  uint64_t h = 0;
  st = psc_core_get_or_create (core, PSC_KIND_SAMPLER, w.data, w.len, create_sampler, &h, NULL, err);
  *out = (VkSampler) h;
  return st;
}

PscStatus
psc_core_get_set_layout (PscCore *core, const VkDescriptorSetLayoutCreateInfo *ci,
                         VkDescriptorSetLayout *out, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_set_layout (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  uint64_t h = 0;
  st = psc_core_get_or_create (core, PSC_KIND_SET_LAYOUT, w.data, w.len, create_set_layout,
                               &h, NULL, err);
  *out = (VkDescriptorSetLayout) h;
  return st;
}

PscStatus
psc_core_get_pipeline_layout (PscCore *core, const VkPipelineLayoutCreateInfo *ci,
                              VkPipelineLayout *out, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_pipeline_layout (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  uint64_t h = 0;
  st = psc_core_get_or_create (core, PSC_KIND_PIPELINE_LAYOUT, w.data, w.len,
                               create_pipeline_layout, &h, NULL, err);
  *out = (VkPipelineLayout) h;
  return st;
}

PscStatus
psc_core_get_render_pass (PscCore *core, const VkRenderPassCreateInfo *ci, VkRenderPass *out,
                          PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_render_pass (ci, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  uint64_t h = 0;
  st = psc_core_get_or_create (core, PSC_KIND_RENDER_PASS, w.data, w.len, create_render_pass,
                               &h, NULL, err);
  *out = (VkRenderPass) h;
  return st;
}

bool
psc_core_is_compat_render_pass (const PscCore *core, VkRenderPass pass)
{
  uint32_t idx;
  if (pass == VK_NULL_HANDLE || !pthread_equal (core->owner, pthread_self ()) || core->closed)
    return false;
  return psc_handle_map_get (core->handles[PSC_KIND_RENDER_PASS], (uint64_t) pass, &idx);
}

/* Destroys a module now, or once no compile job uses it. Until then its
 * handle still resolves (so a job's decoded create info stays valid). */
void
psc_core_doom_module (PscCore *core, VkShaderModule module)
{
  uint32_t pins;
  if (!psc_handle_map_get (core->module_pins, (uint64_t) module, &pins))
    {
      psc_handle_map_remove (core->handles[PSC_KIND_SHADER], (uint64_t) module);
      psc_core_objects_changed (core);
      core->vk->vkDestroyShaderModule (core->cfg.device, module, core->cfg.allocator);
      return;
    }
  if (core->doomed_count == core->doomed_cap)
    {
      uint32_t cap = core->doomed_cap ? core->doomed_cap * 2 : 16;
      VkShaderModule *m = realloc (core->doomed_modules, cap * sizeof *m);
      if (m == NULL)
        return;   /* kept alive (and destroyed at shutdown through its job) */
      core->doomed_modules = m;
      core->doomed_cap = cap;
    }
  core->doomed_modules[core->doomed_count++] = module;
}

PscStatus
psc_core_replace_shader (PscCore *core, VkShaderModule module, const uint32_t *code, size_t size,
                         VkDescriptorPool old_pool, VkShaderModule *new_module, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_SHADER, (uint64_t) module);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "module",
                                                 "0x%llx was not registered with this cache",
                                                 (unsigned long long) (uint64_t) module));
  PscStatus st = check_spirv (core, code, size, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (!psc_retire_reserve (core, 1) || core->doomed_count == UINT32_MAX)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));

  VkShaderModuleCreateInfo ci = {
    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
    .codeSize = size,
    .pCode = code,
  };
  VkShaderModule m = VK_NULL_HANDLE;
  uint64_t t0 = psc_now_ns ();
  VkResult r = core->vk->vkCreateShaderModule (core->cfg.device, &ci, core->cfg.allocator, &m);
  if (r != VK_SUCCESS)
    return psc_core_reject (core, psc_core_fail_vk (err, r, "vkCreateShaderModule"));
  uint32_t idx = (uint32_t) (e - core->entries[PSC_KIND_SHADER].items);
  if (!psc_handle_map_set (core->handles[PSC_KIND_SHADER], (uint64_t) m, idx))
    {
      core->vk->vkDestroyShaderModule (core->cfg.device, m, core->cfg.allocator);
      return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
    }
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].creations, 1);
  psc_stat_add (&core->stats.kinds[PSC_KIND_SHADER].creation_ns, psc_now_ns () - t0);

  /* 1. The generation moves on (same id). */
  const uint32_t shader_id = idx + 1;
  e->generation++;
  psc_core_objects_changed (core);
  const uint32_t generation = e->generation;

  /* 2. The application's per-shader descriptor pool (and so its sets) is
   *    retired after every frame that may still use it. */
  if (old_pool != VK_NULL_HANDLE)
    psc_retire_handle (core, PSC_KIND_COUNT, (uint64_t) old_pool, core->frame);

  /* 3. Entries and jobs of the old generation: Compiling and Failed ones are
   *    discarded (waiters get VK_INCOMPLETE); Ready ones stay, flagged
   *    stale, until the new generation is published or they fall idle. */
  for (int k = PSC_KIND_GRAPHICS; k <= PSC_KIND_COMPUTE; k++)
    for (uint32_t i = 0; i < core->entries[k].len; i++)
      {
        PscEntry *p = &core->entries[k].items[i];
        if (p->state == PSC_ENTRY_DEAD)
          continue;
        bool uses = false;
        for (uint32_t j = 0; j < p->shader_count; j++)
          uses |= p->shader_ids[j] == shader_id && p->shader_gens[j] < generation;
        if (!uses)
          continue;
        if (p->state == PSC_ENTRY_READY)
          {
            p->stale = 1;
            psc_core_ready_changed (core);
          }
        else
          psc_async_discard_entry (core, (PscKind) k, i);
      }

  /* The content table now maps the new SPIR-V to this shader (unless that
   * content is already registered as another shader). */
  if (!e->owned_key)
    psc_table_remove (core->tables[PSC_KIND_SHADER], e->hash, e->key, e->key_len);
  uint64_t hash = psc_core_hash (core, code, size);
  const PscTableItem *item = psc_table_find (core->tables[PSC_KIND_SHADER], hash, code, size);
  if (item == NULL && !core->cfg.pass_through &&
      psc_table_insert (core->tables[PSC_KIND_SHADER], hash, code, size, idx, &item, NULL)
        == PSC_STATUS_OK)
    {
      e->hash = hash;
      e->key = item->key;
      e->key_len = item->key_len;
      e->owned_key = 0;
    }
  else
    {
      /* Not findable by content; keep a private copy for introspection. */
      uint8_t *copy = malloc (size);
      if (copy != NULL)
        memcpy (copy, code, size);
      if (e->owned_key)
        free ((void *) e->key);
      e->key = copy;
      e->key_len = copy ? (uint32_t) size : 0;
      e->owned_key = 1;
      e->hash = hash;
    }

  VkShaderModule old = (VkShaderModule) e->handle;
  e->handle = (uint64_t) m;
  /* The old module dies once no job uses it; until the next pump its handle
   * still names this shader (now at the new generation). */
  psc_core_doom_module_later (core, old);
  psc_core_update_bytes (core, PSC_KIND_SHADER);
  *new_module = m;
  return PSC_STATUS_OK;
}

/* Queues a module for destruction at the next pump (or later, while a job
 * uses it). */
void
psc_core_doom_module_later (PscCore *core, VkShaderModule module)
{
  if (core->doomed_count == core->doomed_cap)
    {
      uint32_t cap = core->doomed_cap ? core->doomed_cap * 2 : 16;
      VkShaderModule *m = realloc (core->doomed_modules, cap * sizeof *m);
      if (m == NULL)
        {
          psc_core_doom_module (core, module);
          return;
        }
      core->doomed_modules = m;
      core->doomed_cap = cap;
    }
  core->doomed_modules[core->doomed_count++] = module;
}
