/* objects.c: samplers, descriptor-set layouts, pipeline layouts and
 * compatibility render passes (get-or-create, one path for the four kinds),
 * and pins. Every object is created from its decoded key, never from
 * caller memory, so a key that forgot an input would be caught by the
 * rendering tests.
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "objects.h"

#include "resolver.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

#include <volk.h>

/* A new object: into the store (the table, or untabled in pass-through
 * mode), its handle mapped, named and counted. On failure the caller still
 * owns the handle. */
static PscStatus
record (PscCore *core, PscKind kind, uint64_t hash, const PscProbe *probe, const uint8_t *key,
        size_t len, uint64_t handle, PscCoreError *err)
{
  PscStore *s = core->stores[kind];
  uint32_t i;
  PscStatus st = probe != NULL ? psc_store_reserve (s, hash, probe, key, len, &i, err)
                               : psc_store_add (s, hash, key, len, &i, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (!psc_store_map (s, i, handle))
    {
      psc_store_release (s, i);
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory recording a %s",
                            psc_kind_name (kind));
    }
  PscEntry *e = psc_store_entry (s, i);
  e->state = PSC_ENTRY_READY;
  e->last_used_frame = core->frame;
  psc_stat_add (&core->stats.kinds[kind].entries, 1);
  psc_core_update_bytes (core, kind);
  psc_core_name_object (core, kind, handle, psc_store_id (s, i));
  return PSC_STATUS_OK;
}

PscStatus
psc_core_get_or_create (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                        PscCreateFn create, uint64_t *out, PscCoreError *err)
{
  PscAtomicKindStats *ks = &core->stats.kinds[kind];
  const uint64_t hash = psc_core_hash (core, key, len);
  PscProbe probe;
  const bool cached = !core->cfg.pass_through;
  if (cached)
    {
      const PscTableItem *item = psc_store_find (core->stores[kind], hash, key, len, &probe);
      if (item != NULL)
        {
          PscEntry *e = psc_core_entry (core, kind, item->value);
          e->last_used_frame = core->frame;
          psc_stat_add (&ks->hits, 1);
          *out = e->handle;
          return PSC_STATUS_OK;
        }
      if (probe.same_hash >= PSC_COLLISION_BUCKET_CAPACITY)
        {
          psc_stat_add (&ks->misses, 1);
          psc_stat_add (&core->stats.capacity_failures, 1);
          return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "",
              "collision bucket full: %u distinct %s keys already share hash 0x%016llx",
              (unsigned) PSC_COLLISION_BUCKET_CAPACITY, psc_kind_name (kind),
              (unsigned long long) hash));
        }
    }
  psc_stat_add (&ks->misses, 1);

  uint64_t handle = 0;
  const uint64_t t0 = psc_now_ns ();
  PscStatus st = create (core, key, len, &handle, err);
  const uint64_t t1 = psc_now_ns ();
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  psc_stat_add (&ks->creations, 1);
  psc_stat_add (&ks->creation_ns, t1 - t0);
  st = record (core, kind, hash, cached ? &probe : NULL, key, len, handle, err);
  if (st != PSC_STATUS_OK)
    {
      psc_core_destroy_handle (core, kind, handle);
      return psc_core_reject (core, st);
    }
  *out = handle;
  return PSC_STATUS_OK;
}

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
  st = psc_core_get_or_create (core, PSC_KIND_SAMPLER, w.data, w.len, create_sampler, &h, err);
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
                               &h, err);
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
                               create_pipeline_layout, &h, err);
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
                               &h, err);
  *out = (VkRenderPass) h;
  return st;
}

bool
psc_core_is_compat_render_pass (const PscCore *core, VkRenderPass pass)
{
  uint32_t i;
  if (pass == VK_NULL_HANDLE || !pthread_equal (core->owner, pthread_self ()))
    return false;
  return psc_store_index_of_handle (core->stores[PSC_KIND_RENDER_PASS], (uint64_t) pass, &i);
}

PscStatus
psc_core_pin (PscCore *core, VkObjectType type, uint64_t handle, int delta,
              PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscKind kind = psc_kind_for_object_type (type);
  if (kind == PSC_KIND_COUNT)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_UNSUPPORTED, "type",
                                                 "objects of VkObjectType %d are not cached",
                                                 (int) type));
  PscEntry *e = psc_core_entry_for_handle (core, kind, handle);
  if (e == NULL && kind == PSC_KIND_GRAPHICS)
    e = psc_core_entry_for_handle (core, PSC_KIND_COMPUTE, handle);
  if (e == NULL)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "handle",
                                                 "0x%llx was not issued by this cache",
                                                 (unsigned long long) handle));
  if (delta < 0 && e->pins == 0)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "handle",
                                                 "0x%llx is not pinned",
                                                 (unsigned long long) handle));
  e->pins = (uint32_t) ((int64_t) e->pins + delta);
  /* Unpinning starts the borrowed-handle window again. */
  e->last_used_frame = core->frame;
  return PSC_STATUS_OK;
}

/* At close: destroys every object of a kind still held. */
void
psc_objects_destroy_kind (PscCore *core, PscKind kind)
{
  PscStore *s = core->stores[kind];
  for (uint32_t i = 0; i < psc_store_live_count (s); i++)
    {
      PscEntry *e = psc_store_entry (s, psc_store_live_at (s, i));
      if (e->state == PSC_ENTRY_READY && e->handle != 0)
        psc_core_destroy_handle (core, kind, e->handle);
      e->handle = 0;
    }
}
