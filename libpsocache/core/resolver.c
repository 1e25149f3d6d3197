/* resolver.c: the resolver over the core's stores (see resolver.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "resolver.h"

#include "stats.h"

static bool
r_shader (void *ctx, VkShaderModule module, PscShaderInfo *info)
{
  PscCore *core = ctx;
  const PscStore *s = core->stores[PSC_KIND_SHADER];
  uint32_t i;
  if (!psc_store_index_of_handle (s, (uint64_t) module, &i))
    return false;
  const PscEntry *e = psc_store_entry (s, i);
  if (e->state != PSC_ENTRY_READY)
    return false;
  info->id = psc_store_id (s, i);
  info->generation = e->shader.generation;
  info->spec = e->shader.spec;
  info->spec_count = e->shader.spec_count;
  return true;
}

static bool
r_sampler (void *ctx, VkSampler sampler, uint32_t *id)
{
  return psc_core_lookup_id (ctx, PSC_KIND_SAMPLER, (uint64_t) sampler, id);
}

static bool
r_set_layout (void *ctx, VkDescriptorSetLayout layout, uint32_t *id)
{
  return psc_core_lookup_id (ctx, PSC_KIND_SET_LAYOUT, (uint64_t) layout, id);
}

static bool
r_pipeline_layout (void *ctx, VkPipelineLayout layout, uint32_t *id)
{
  return psc_core_lookup_id (ctx, PSC_KIND_PIPELINE_LAYOUT, (uint64_t) layout, id);
}

static bool
r_render_pass (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *id,
               uint32_t *subpass_count, uint32_t *samples)
{
  PscCore *core = ctx;
  const PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_RENDER_PASS, (uint64_t) pass);
  if (e == NULL)
    return false;
  *id = psc_store_id (core->stores[PSC_KIND_RENDER_PASS],
                      psc_store_index (core->stores[PSC_KIND_RENDER_PASS], e));
  *subpass_count = 0;
  *samples = 0;
  if (!psc_render_pass_key_subpass_samples (e->key, e->key_len, subpass, subpass_count, samples))
    *samples = 0;
  return true;
}

static bool
r_render_pass_colors (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *color_count)
{
  const PscEntry *e = psc_core_entry_for_handle (ctx, PSC_KIND_RENDER_PASS, (uint64_t) pass);
  return e != NULL && psc_render_pass_key_subpass_colors (e->key, e->key_len, subpass, color_count);
}

/* Immutable-sampler lists get an identity of their own: two lists get the
 * same id only if every element is equal. They live until the cache
 * closes. */
static PscStatus
r_sampler_list (void *ctx, const uint32_t *ids, uint32_t count, uint32_t *list_id,
                PscCoreError *err)
{
  PscCore *core = ctx;
  PscStore *s = core->sampler_lists;
  const size_t len = (size_t) count * sizeof *ids;
  const uint64_t hash = psc_core_hash (core, ids, len);
  PscProbe probe;
  const PscTableItem *item = psc_store_find (s, hash, ids, len, &probe);
  if (item != NULL)
    {
      *list_id = psc_store_id (s, item->value);
      return PSC_STATUS_OK;
    }
  uint32_t i;
  PscStatus st = psc_store_reserve (s, hash, &probe, ids, len, &i, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return st;
  psc_store_entry (s, i)->state = PSC_ENTRY_READY;
  *list_id = psc_store_id (s, i);
  psc_core_update_bytes (core, PSC_KIND_SET_LAYOUT);
  return PSC_STATUS_OK;
}

static uint64_t
handle_for_id (PscCore *core, PscKind kind, uint32_t id)
{
  const PscStore *s = core->stores[kind];
  uint32_t i;
  if (!psc_store_index_of_id (s, id, &i) || psc_store_entry (s, i)->state != PSC_ENTRY_READY)
    return 0;
  return psc_store_entry (s, i)->handle;
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
  uint32_t i;
  if (!psc_store_index_of_id (core->sampler_lists, list_id, &i))
    return 0;
  const PscEntry *e = psc_store_entry (core->sampler_lists, i);
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
