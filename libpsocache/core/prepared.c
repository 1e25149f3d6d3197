/* prepared.c: prepared keys (see prepared.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "prepared.h"

#include "graphics-key.h"
#include "keys.h"
#include "requests.h"
#include "shaders.h"
#include "stats.h"

#include <stdlib.h>

static bool
grow (PscCore *core)
{
  const uint32_t cap = core->prepared_cap ? core->prepared_cap * 2 : 64;
  PscPreparedHot *hot = aligned_alloc (_Alignof (PscPreparedHot), (size_t) cap * sizeof *hot);
  PscPrepared *p = hot ? realloc (core->prepared, (size_t) cap * sizeof *p) : NULL;
  if (p == NULL)
    {
      free (hot);
      return false;
    }
  if (core->prepared_len)
    memcpy (hot, core->prepared_hot, (size_t) core->prepared_len * sizeof *hot);
  free (core->prepared_hot);
  core->prepared_hot = hot;
  core->prepared = p;
  core->prepared_cap = cap;
  return true;
}

static PscStatus
prepare (PscCore *core, PscKind kind, const uint8_t *key, size_t len, uint32_t *key_id,
         PscCoreError *err)
{
  const uint64_t hash = psc_core_hash (core, key, len);
  PscProbe probe;
  const PscTableItem *item = psc_table_probe (core->prepared_table, hash, key, len, &probe);
  if (item != NULL)
    {
      *key_id = item->value + 1;
      return PSC_STATUS_OK;
    }
  if (core->prepared_len == core->prepared_cap && !grow (core))
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory"));
  uint32_t slot;
  PscStatus st = psc_table_insert_at (core->prepared_table, hash, &probe, key, len,
                                      core->prepared_len, &slot, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  core->prepared[core->prepared_len] = (PscPrepared) {
    .key = psc_table_slot (core->prepared_table, slot)->key,
    .key_len = (uint32_t) len,
    .kind = (uint8_t) kind,
    .hash = hash,
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

/* The entry a record last resolved to, if it is still that entry. */
static PscEntry *
record_entry (const PscCore *core, const PscPrepared *p)
{
  uint32_t i;
  if (p->entry == 0 || !psc_store_index_of_id (core->stores[p->kind], p->entry, &i))
    return NULL;
  return psc_core_entry (core, (PscKind) p->kind, i);
}

/* The key may be requested only while every shader it names is registered
 * at the generation it names. */
static PscStatus
check_shaders (PscCore *core, uint32_t key_id, const PscPrepared *p, PscCoreError *err)
{
  uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
  const int n = psc_pipeline_key_shaders (p->key, p->key_len, ids, gens, NULL);
  for (int i = 0; i < n; i++)
    {
      const PscEntry *s = psc_shader_for_id (core, ids[i]);
      if (s == NULL)
        return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "key_id",
            "%u names a shader that no longer exists; prepare the request again", key_id));
      if (s->state != PSC_ENTRY_READY)
        return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "key_id",
            "%u names a shader that was released; register the same SPIR-V again and the "
            "key works again", key_id));
      if (s->shader.generation != gens[i])
        return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "key_id",
            "%u is stale: a shader it names was reloaded; prepare the request again", key_id));
    }
  return PSC_STATUS_OK;
}

static PscStatus request_prepared_slow (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy,
                                        uint32_t flags, PscCoreReadyFn fn, void *context,
                                        VkPipeline *out, PscCoreRequestState *state,
                                        PscCoreError *err);

/* psc_core_get_prepared's slow part, with few arguments: the hit path
 * that calls it needs no stack frame of its own. */
static PscStatus __attribute__((noinline))
get_prepared_slow (PscCore *core, uint32_t key_id, VkPipeline *out, PscCoreError *err)
{
  PscCoreRequestState state;
  return request_prepared_slow (core, key_id, PSC_CORE_MISS_WAIT, 0, NULL, NULL, out, &state, err);
}

/* The slow part of a prepared request: the record's handle is not current,
 * so check the key's shaders and go through the request path. */
static PscStatus __attribute__((noinline))
request_prepared_slow (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy,
                       uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                       PscCoreRequestState *state, PscCoreError *err)
{
  if (key_id == 0 || key_id > core->prepared_len)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "key_id",
                                                 "%u is not a prepared key of this cache", key_id));
  PscPrepared *p = &core->prepared[key_id - 1];
  PscStatus st = check_shaders (core, key_id, p, err);
  if (st != PSC_STATUS_OK)
    return st;
  const PscEntry *known = record_entry (core, p);
  /* Still compiling (and current: a reload would have discarded it): no
   * need to hash and find it again. */
  if (known != NULL && known->state == PSC_ENTRY_COMPILING && policy != PSC_CORE_MISS_WAIT)
    return psc_core_request_entry (core, (PscKind) p->kind,
                                   psc_store_index (core->stores[p->kind], known), policy, flags,
                                   fn, context, out, state, err);
  uint32_t index = PSC_NONE;
  st = psc_core_request_key (core, (PscKind) p->kind, p->key, p->key_len, p->hash, policy,
                             flags, fn, context, out, state, &index, err);
  if (st != PSC_STATUS_OK || core->cfg.pass_through || index == PSC_NONE)
    return st;
  PscEntry *e = psc_core_entry (core, (PscKind) p->kind, index);
  p->entry = psc_store_id (core->stores[p->kind], index);
  e->pipe.prepared = key_id;
  if (*state == PSC_CORE_READY && e->state == PSC_ENTRY_READY && !e->stale)
    {
      core->prepared_hot[key_id - 1].handle = e->handle;
      core->prepared_hot[key_id - 1].epoch = core->ready_epoch;
    }
  return st;
}

/* The per-frame path: one record read while the record's handle is
 * current; else a check of its entry (Ready, not stale, its shaders all
 * registered), which caches the handle again. False: the slow path must
 * answer (it also reports a bad id). */
static inline bool
prepared_hit (PscCore *core, uint32_t key_id, VkPipeline *out)
{
  if (__builtin_expect (key_id - 1u >= core->prepared_len, 0))
    return false;
  PscPreparedHot *hot = &core->prepared_hot[key_id - 1];
  if (__builtin_expect (hot->epoch == core->ready_epoch, 1))
    {
      hot->last_used_frame = core->frame;
      psc_stat_add (&core->stats.kinds[hot->kind].hits, 1);
      *out = (VkPipeline) hot->handle;
      return true;
    }
  const PscPrepared *p = &core->prepared[key_id - 1];
  PscEntry *e = record_entry (core, p);
  if (e == NULL || e->state != PSC_ENTRY_READY || e->stale || !psc_shaders_registered (core, e))
    return false;
  e->last_used_frame = core->frame;
  hot->handle = e->handle;
  hot->epoch = core->ready_epoch;
  psc_stat_add (&core->stats.kinds[p->kind].hits, 1);
  *out = (VkPipeline) e->handle;
  return true;
}

PscStatus
psc_core_request_prepared (PscCore *core, uint32_t key_id, PscCoreMissPolicy policy,
                           uint32_t flags, PscCoreReadyFn fn, void *context, VkPipeline *out,
                           PscCoreRequestState *state, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (__builtin_expect (prepared_hit (core, key_id, out), 1))
    {
      *state = PSC_CORE_READY;
      return PSC_STATUS_OK;
    }
  return request_prepared_slow (core, key_id, policy, flags, fn, context, out, state, err);
}

PscStatus
psc_core_get_prepared (PscCore *core, uint32_t key_id, VkPipeline *out, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (__builtin_expect (prepared_hit (core, key_id, out), 1))
    return PSC_STATUS_OK;
  return get_prepared_slow (core, key_id, out, err);
}

void
psc_prepared_free (PscCore *core)
{
  psc_table_free (core->prepared_table);
  free (core->prepared);
  free (core->prepared_hot);
}
