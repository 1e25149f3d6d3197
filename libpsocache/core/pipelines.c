/* pipelines.c: graphics and compute get-or-create, and prepared keys.
 *
 * Hit path (owner thread, no allocation): canonicalize the create info into a
 * stack buffer, hash the bytes used, find, compare in full, touch the entry's
 * last-used frame. Prepared path: the canonical key is stored once; each use
 * is an array index plus a state check.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"
#include "encode-graphics.h"
#include "table-map.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdlib.h>
#include <string.h>

static PscStatus
create_graphics (PscCore *core, const uint8_t *key, size_t len, uint64_t *handle,
                 PscCoreError *err)
{
  PscGraphicsBuild *b = psc_build_alloc (psc_graphics_build_size ());
  if (b == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  const VkGraphicsPipelineCreateInfo *ci = psc_decode_graphics (key, len, &core->resolver, b);
  PscStatus st = PSC_STATUS_OK;
  VkPipeline p = VK_NULL_HANDLE;
  if (ci == NULL)
    st = psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                        "the key names a shader, layout or render pass that no longer exists");
  else
    {
      VkResult r = core->vk->vkCreateGraphicsPipelines (core->cfg.device, core->driver_cache, 1,
                                                        ci, core->cfg.allocator, &p);
      if (r != VK_SUCCESS)
        {
          st = psc_core_fail_vk (err, r, "vkCreateGraphicsPipelines");
          p = VK_NULL_HANDLE;
        }
    }
  free (b);
  *handle = (uint64_t) p;
  return st;
}

static PscStatus
create_compute (PscCore *core, const uint8_t *key, size_t len, uint64_t *handle,
                PscCoreError *err)
{
  PscComputeBuild *b = psc_build_alloc (psc_compute_build_size ());
  if (b == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  const VkComputePipelineCreateInfo *ci = psc_decode_compute (key, len, &core->resolver, b);
  PscStatus st = PSC_STATUS_OK;
  VkPipeline p = VK_NULL_HANDLE;
  if (ci == NULL)
    st = psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "",
                        "the key names a shader or layout that no longer exists");
  else
    {
      VkResult r = core->vk->vkCreateComputePipelines (core->cfg.device, core->driver_cache, 1,
                                                       ci, core->cfg.allocator, &p);
      if (r != VK_SUCCESS)
        {
          st = psc_core_fail_vk (err, r, "vkCreateComputePipelines");
          p = VK_NULL_HANDLE;
        }
    }
  free (b);
  *handle = (uint64_t) p;
  return st;
}

PscCreateFn
psc_pipeline_create_fn (PscKind kind)
{
  return kind == PSC_KIND_GRAPHICS ? create_graphics : create_compute;
}

PscStatus
psc_core_create_pipeline (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                          uint64_t *handle, PscCoreError *err)
{
  return psc_pipeline_create_fn (kind) (core, key, len, handle, err);
}

/* A pipeline request once its key is written: hash it once (the same hash
 * as psc_core_hash), and answer the common case inline, a Ready entry. The
 * table slot itself holds a Ready entry's handle (publish_ready sets it,
 * removing the slot clears it) and the hit's frame goes to the dense
 * hit_frame array, so the entry is not touched. Anything else (a miss,
 * Compiling, Failed, pass-through) goes through psc_core_request_key with
 * the same hash. */
static inline PscStatus
request_key (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
             PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn, void *context,
             VkPipeline *out, PscCoreRequestState *state, PscCoreError *err)
{
  const uint64_t hash = __builtin_expect (core->cfg.hooks.force_hash, 0)
                        ? core->cfg.hooks.forced_hash : XXH3_64bits (key, len);
  if (__builtin_expect (!core->cfg.pass_through, 1))
    {
      const PscTableItem *item = psc_table_lookup (core->tables[kind], hash, key, len);
      if (__builtin_expect (item != NULL && item->aux != 0, 1))
        {
          core->entries[kind].hit_frame[item->value] = core->frame;
          psc_stat_add (&core->stats.kinds[kind].hits, 1);
          *out = (VkPipeline) item->aux;
          *state = PSC_CORE_READY;
          return PSC_STATUS_OK;
        }
    }
  return psc_core_request_key (core, kind, key, len, hash, policy, flags, fn, context, out,
                               state, NULL, err);
}

static inline __attribute__((always_inline)) PscStatus
request_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                  PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn, void *context,
                  VkPipeline *out, PscCoreRequestState *state, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  if (__builtin_expect (st != PSC_STATUS_OK, 0))
    return psc_core_reject (core, st);
  return request_key (core, PSC_KIND_GRAPHICS, w.data, w.len, policy, flags, fn, context, out,
                      state, err);
}

PscStatus
psc_core_request_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                           PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn,
                           void *context, VkPipeline *out, PscCoreRequestState *state,
                           PscCoreError *err)
{
  return request_graphics (core, ci, policy, flags, fn, context, out, state, err);
}

PscStatus
psc_core_request_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                          PscCoreMissPolicy policy, uint32_t flags, PscCoreReadyFn fn,
                          void *context, VkPipeline *out, PscCoreRequestState *state,
                          PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_compute (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  return request_key (core, PSC_KIND_COMPUTE, w.data, w.len, policy, flags, fn, context, out,
                      state, err);
}

PscStatus
psc_core_get_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci, VkPipeline *out,
                       PscCoreError *err)
{
  PscCoreRequestState state;
  return request_graphics (core, ci, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state, err);
}

PscStatus
psc_core_get_compute (PscCore *core, const VkComputePipelineCreateInfo *ci, VkPipeline *out,
                      PscCoreError *err)
{
  PscCoreRequestState state;
  return psc_core_request_compute (core, ci, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state, err);
}

/* Prepared keys are deduplicated: preparing the same create info twice gives
 * the same id. Ids index core->prepared (id = index + 1) and are never
 * reused. */
static PscStatus
prepare (PscCore *core, PscKind kind, const uint8_t *key, size_t len, uint32_t *key_id,
         PscCoreError *err)
{
  uint64_t hash = psc_core_hash (core, key, len);
  const PscTableItem *item = psc_table_find (core->prepared_table, hash, key, len);
  if (item != NULL)
    {
      *key_id = item->value + 1;
      return PSC_STATUS_OK;
    }
  if (core->prepared_len == core->prepared_cap)
    {
      uint32_t cap = core->prepared_cap ? core->prepared_cap * 2 : 64;
      PscPreparedHot *hot = aligned_alloc (_Alignof (PscPreparedHot), (size_t) cap * sizeof *hot);
      PscPrepared *p = hot ? realloc (core->prepared, (size_t) cap * sizeof *p) : NULL;
      if (p == NULL)
        {
          free (hot);
          return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
        }
      if (core->prepared_len)
        memcpy (hot, core->prepared_hot, (size_t) core->prepared_len * sizeof *hot);
      free (core->prepared_hot);
      core->prepared_hot = hot;
      core->prepared = p;
      core->prepared_cap = cap;
    }
  PscStatus st = psc_table_insert (core->prepared_table, hash, key, len, core->prepared_len,
                                   &item, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  core->prepared[core->prepared_len] = (PscPrepared) {
    .key = item->key,
    .key_len = item->key_len,
    .kind = (uint8_t) kind,
    .hash = hash,
    .entry = UINT32_MAX,
  };
  core->prepared_hot[core->prepared_len] = (PscPreparedHot) { .kind = (uint8_t) kind };
  *key_id = ++core->prepared_len;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_prepare_graphics (PscCore *core, const VkGraphicsPipelineCreateInfo *ci,
                           uint32_t *key_id, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  return prepare (core, PSC_KIND_GRAPHICS, w.data, w.len, key_id, err);
}

PscStatus
psc_core_prepare_compute (PscCore *core, const VkComputePipelineCreateInfo *ci,
                          uint32_t *key_id, PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_compute (ci, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  return prepare (core, PSC_KIND_COMPUTE, w.data, w.len, key_id, err);
}

/* The slow part of a prepared request: the entry is not Ready (or stale),
 * so check the key's shader generations and go through the table. */
static PscStatus __attribute__((noinline))
request_prepared_slow (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy,
                       uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                       PscCoreRequestState *state, PscCoreError *err)
{
  if (key_id == 0 || key_id > core->prepared_len)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "key_id",
                                                 "%u is not a prepared key of this cache", key_id));
  PscPrepared *p = &core->prepared[key_id - 1];
  if (p->entry != UINT32_MAX)
    {
      PscEntry *e = &core->entries[p->kind].items[p->entry];
      /* Still compiling (its key is current: a reload would have discarded
       * the entry): no need to hash and find it again. */
      if (e->state == PSC_ENTRY_COMPILING && policy != PSC_CORE_MISS_WAIT)
        return psc_core_request_entry (core, (PscKind) p->kind, p->entry, policy, flags, fn,
                                       context, out, state, err);
    }
  /* The key must still name live, current shader generations (a hot reload
   * makes a prepared key stale: prepare it again). */
  uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
  int n = psc_pipeline_key_shaders (p->key, p->key_len, ids, gens, NULL);
  for (int i = 0; i < n; i++)
    {
      if (ids[i] == 0 || ids[i] > core->entries[PSC_KIND_SHADER].len ||
          core->entries[PSC_KIND_SHADER].items[ids[i] - 1].state != PSC_ENTRY_READY)
        return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "key_id",
            "%u names a shader that was released; prepare the request again", key_id));
      if (core->entries[PSC_KIND_SHADER].items[ids[i] - 1].generation != gens[i])
        return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "key_id",
            "%u is stale: a shader it names was reloaded; prepare the request again", key_id));
    }
  uint32_t idx = UINT32_MAX;
  PscStatus st = psc_core_request_key (core, (PscKind) p->kind, p->key, p->key_len, p->hash,
                                       policy, flags,
                                       fn, context, out, state, &idx, err);
  if (st == PSC_STATUS_OK && !core->cfg.pass_through)
    {
      p->entry = idx;
      PscEntry *e = &core->entries[p->kind].items[idx];
      e->prepared_plus1 = key_id;
      if (*state == PSC_CORE_READY && e->state == PSC_ENTRY_READY && !e->stale)
        {
          core->prepared_hot[key_id - 1].handle = e->handle;
          core->prepared_hot[key_id - 1].epoch = core->ready_epoch;
        }
    }
  return st;
}

/* The per-frame fast path: one record read. While nothing has left the Ready
 * state since the record cached its handle, the handle is answered from the
 * record; otherwise the entry is checked (and a stale entry, whose shader was
 * reloaded, takes the slow path, which reports it). */
static inline PscStatus
request_prepared (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy, uint32_t flags,
                  PscCoreReadyFn fn, void *context, VkPipeline *out, PscCoreRequestState *state,
                  PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (__builtin_expect (key_id - 1u < core->prepared_len, 1))
    {
      PscPreparedHot *hot = &core->prepared_hot[key_id - 1];
      if (__builtin_expect (hot->epoch == core->ready_epoch, 1))
        {
          hot->last_used_frame = core->frame;
          psc_stat_add (&core->stats.kinds[hot->kind].hits, 1);
          *out = (VkPipeline) hot->handle;
          *state = PSC_CORE_READY;
          return PSC_STATUS_OK;
        }
      const PscPrepared *p = &core->prepared[key_id - 1];
      if (p->entry != UINT32_MAX)
        {
          PscEntry *e = &core->entries[p->kind].items[p->entry];
          if (__builtin_expect (e->state == PSC_ENTRY_READY && !e->stale, 1))
            {
              e->last_used_frame = core->frame;
              hot->handle = e->handle;            /* cached again */
              hot->epoch = core->ready_epoch;
              psc_stat_add (&core->stats.kinds[p->kind].hits, 1);
              *out = (VkPipeline) e->handle;
              *state = PSC_CORE_READY;
              return PSC_STATUS_OK;
            }
        }
    }
  return request_prepared_slow (core, key_id, policy, flags, fn, context, out, state, err);
}

PscStatus
psc_core_request_prepared (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy,
                           uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                           PscCoreRequestState *state, PscCoreError *err)
{
  return request_prepared (core, key_id, policy, flags, fn, context, out, state, err);
}

PscStatus
psc_core_get_prepared (PscCore *core, uint32_t key_id, VkPipeline *out, PscCoreError *err)
{
  PscCoreRequestState state;
  return request_prepared (core, key_id, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state, err);
}

PscStatus
psc_core_graphics_key_size (PscCore *core, const VkGraphicsPipelineCreateInfo *ci, size_t *size,
                            PscCoreError *err)
{
  CHECK_REQUEST (core, ci, err);
  KEY_BUFFER (w);
  PscStatus st = psc_encode_graphics (ci, core->cfg.rendering, &core->resolver, &w, err);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  *size = w.len;
  return PSC_STATUS_OK;
}
