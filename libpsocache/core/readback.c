/* readback.c: create infos read back from canonical keys, and look-ups
 * that make nothing (see readback.h).
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "readback.h"

#include "graphics-key.h"
#include "resolver.h"
#include "shaders.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

void
psc_readback_clear (PscReadback *rb)
{
  free (rb->build);
  *rb = (PscReadback) { 0 };
}

static PscStatus
check_core (PscCore *core, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (core->cfg.pass_through)
    return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, "",
                          "the cache is in pass-through mode: it keeps nothing to read back");
  return PSC_STATUS_OK;
}

static size_t
build_size (PscKind kind)
{
  switch (kind)
    {
    case PSC_KIND_SAMPLER: return psc_sampler_build_size ();
    case PSC_KIND_SET_LAYOUT: return psc_set_layout_build_size ();
    case PSC_KIND_PIPELINE_LAYOUT: return psc_pipeline_layout_build_size ();
    case PSC_KIND_RENDER_PASS: return psc_render_pass_build_size ();
    case PSC_KIND_GRAPHICS: return psc_graphics_build_size ();
    case PSC_KIND_COMPUTE: return psc_compute_build_size ();
    default: return 0;
    }
}

/* The entry's key decoded with this core's resolver into out. */
static PscStatus
decode_entry (PscCore *core, const PscEntry *e, PscKind kind, PscReadback *out, PscCoreError *err)
{
  if (e->key == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "its key was lost (out of memory)");
  out->build = psc_build_alloc (build_size (kind));
  if (out->build == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  const PscResolver *r = &core->resolver;
  switch (kind)
    {
    case PSC_KIND_SAMPLER: out->ci = psc_decode_sampler (e->key, e->key_len, out->build); break;
    case PSC_KIND_SET_LAYOUT: out->ci = psc_decode_set_layout (e->key, e->key_len, r, out->build); break;
    case PSC_KIND_PIPELINE_LAYOUT:
      out->ci = psc_decode_pipeline_layout (e->key, e->key_len, r, out->build);
      break;
    case PSC_KIND_RENDER_PASS: out->ci = psc_decode_render_pass (e->key, e->key_len, out->build); break;
    case PSC_KIND_GRAPHICS: out->ci = psc_decode_graphics (e->key, e->key_len, r, out->build); break;
    case PSC_KIND_COMPUTE: out->ci = psc_decode_compute (e->key, e->key_len, r, out->build); break;
    default: out->ci = NULL; break;
    }
  if (out->ci == NULL)
    {
      psc_readback_clear (out);
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: a %s key does not decode",
                            psc_kind_name (kind));
    }
  out->kind = kind;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_read_object (PscCore *core, PscKind kind, uint64_t handle, PscReadback *out,
                      PscCoreError *err)
{
  *out = (PscReadback) { 0 };
  PscStatus st = check_core (core, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (kind != PSC_KIND_SAMPLER && kind != PSC_KIND_SET_LAYOUT && kind != PSC_KIND_PIPELINE_LAYOUT
      && kind != PSC_KIND_RENDER_PASS)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "kind", "%u is not an object kind",
                          (unsigned) kind);
  const PscEntry *e = handle != 0 ? psc_core_entry_for_handle (core, kind, handle) : NULL;
  if (e == NULL)
    return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "handle", "is not a %s of this cache",
                          psc_kind_name (kind));
  return decode_entry (core, e, kind, out, err);
}

PscStatus
psc_core_read_pipeline (PscCore *core, VkPipeline pipeline, PscReadback *out, PscCoreError *err)
{
  *out = (PscReadback) { 0 };
  PscStatus st = check_core (core, err);
  if (st != PSC_STATUS_OK)
    return st;
  PscKind kind = PSC_KIND_GRAPHICS;
  const PscEntry *e = NULL;
  if (pipeline != VK_NULL_HANDLE)
    {
      e = psc_core_entry_for_handle (core, PSC_KIND_GRAPHICS, (uint64_t) pipeline);
      if (e == NULL)
        {
          kind = PSC_KIND_COMPUTE;
          e = psc_core_entry_for_handle (core, PSC_KIND_COMPUTE, (uint64_t) pipeline);
        }
    }
  if (e == NULL)
    return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "pipeline",
                          "is not a Ready pipeline of this cache");
  if (!psc_shaders_current (core, e))
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pipeline",
                          "a shader it uses was hot-reloaded since it was made: its create info "
                          "names code the cache no longer has (ask for the new generation's "
                          "pipeline)");
  if (!psc_shaders_registered (core, e))
    return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "pipeline",
                          "a shader it uses was released (register the same SPIR-V again)");
  return decode_entry (core, e, kind, out, err);
}

PscStatus
psc_core_read_shader (PscCore *core, VkShaderModule module, const uint32_t **code, size_t *size,
                      PscCoreError *err)
{
  *code = NULL;
  *size = 0;
  PscStatus st = check_core (core, err);
  if (st != PSC_STATUS_OK)
    return st;
  const PscEntry *e = module != VK_NULL_HANDLE
                      ? psc_core_entry_for_handle (core, PSC_KIND_SHADER, (uint64_t) module) : NULL;
  if (e == NULL || e->key == NULL)
    return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "module",
                          "is not a registered shader module of this cache");
  /* The key is the SPIR-V, kept in the key heap (16-byte aligned). */
  *code = (const uint32_t *) (const void *) e->key;
  *size = e->key_len;
  return PSC_STATUS_OK;
}

/* ---------------------------------------------------------------------------
 * Find.
 */

/* The resolver of a find: the core's, except that a list of immutable
 * samplers is looked up, never made. */
static PscStatus
find_sampler_list (void *ctx, const uint32_t *ids, uint32_t count, uint32_t *list_id,
                   PscCoreError *err)
{
  PscCore *core = ctx;
  const size_t len = (size_t) count * sizeof *ids;
  PscProbe probe;
  const PscTableItem *item = psc_store_find (core->sampler_lists, psc_core_hash (core, ids, len),
                                             ids, len, &probe);
  if (item == NULL)
    return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                          "no set layout of this cache has these immutable samplers");
  *list_id = psc_store_id (core->sampler_lists, item->value);
  return PSC_STATUS_OK;
}

PscStatus
psc_core_find_object (PscCore *core, PscKind kind, const void *ci, uint64_t *handle,
                      PscCoreError *err)
{
  *handle = 0;
  PscStatus st = check_core (core, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (ci == NULL)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pCreateInfo", "is NULL");
  PscResolver r = core->resolver;
  r.sampler_list = find_sampler_list;
  KEY_BUFFER (w);
  switch (kind)
    {
    case PSC_KIND_SAMPLER: st = psc_encode_sampler (ci, &w, err); break;
    case PSC_KIND_SET_LAYOUT: st = psc_encode_set_layout (ci, &r, &w, err); break;
    case PSC_KIND_PIPELINE_LAYOUT: st = psc_encode_pipeline_layout (ci, &r, &w, err); break;
    case PSC_KIND_RENDER_PASS: st = psc_encode_render_pass (ci, &w, err); break;
    default:
      return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "kind", "%u is not an object kind",
                            (unsigned) kind);
    }
  if (st != PSC_STATUS_OK)
    return st;
  const PscStore *s = core->stores[kind];
  PscProbe probe;
  const PscTableItem *item = psc_store_find (s, psc_core_hash (core, w.data, w.len), w.data, w.len,
                                             &probe);
  if (item != NULL && psc_store_entry (s, item->value)->state == PSC_ENTRY_READY)
    *handle = psc_store_entry (s, item->value)->handle;
  return PSC_STATUS_OK;
}

VkShaderModule
psc_core_find_shader (PscCore *core, const uint32_t *code, size_t size)
{
  if (!psc_core_check_thread (core, NULL) || code == NULL || size == 0)
    return VK_NULL_HANDLE;
  const PscStore *s = core->stores[PSC_KIND_SHADER];
  PscProbe probe;
  const PscTableItem *item = psc_store_find (s, psc_core_hash (core, code, size), code, size, &probe);
  if (item == NULL || psc_store_entry (s, item->value)->state != PSC_ENTRY_READY)
    return VK_NULL_HANDLE;
  return (VkShaderModule) psc_store_entry (s, item->value)->handle;
}

PscStatus
psc_core_pipeline_key_of (PscCore *core, PscKind kind, const void *ci, uint8_t *key, size_t *len,
                          PscCoreError *err)
{
  *len = 0;
  PscStatus st = check_core (core, err);
  if (st != PSC_STATUS_OK)
    return st;
  if (ci == NULL)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pCreateInfo", "is NULL");
  PscKeyWriter w = { key, 0, PSC_MAX_KEY_BYTES };
  if (kind == PSC_KIND_GRAPHICS)
    st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  else if (kind == PSC_KIND_COMPUTE)
    st = psc_encode_compute (ci, &core->resolver, &w, err);
  else
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "kind", "%u is not a pipeline kind",
                          (unsigned) kind);
  if (st == PSC_STATUS_OK)
    *len = w.len;
  return st;
}
