/* resolver-memo.h: shader and pipeline-layout lookups through the
 * resolver's memo (PscResolverMemo, psc-core.h).
 *
 * The graphics fast path resolves a few handles on every cache hit; the
 * memo turns each of those resolver calls into one slot probe. Contract:
 *  - owner thread only (the memo belongs to its resolver);
 *  - a slot answers only while its epoch equals *memo->epoch, which the
 *    resolver's owner bumps whenever a handle could stop resolving or
 *    resolve differently (unmapped, a shader released or reloaded): a
 *    stale slot is never used;
 *  - only successful lookups are stored, so a foreign handle is asked of
 *    the resolver every time (and fails every time);
 *  - a shader's specialization table (PscShaderInfo.spec) is the
 *    resolver's memory: the memo keeps the pointer, valid for the epoch.
 * Without a memo (r->memo == NULL) the lookups go straight to the resolver.
 *
 * Depends only on psc-core.h; the core's resolver implementation may live
 * next to it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

/* Fibonacci hashing: the top bits of handle * 2^64/phi, so handles that
 * differ anywhere (pointers, small integers) spread over the slots. */
static inline uint32_t
psc_resolver_memo_index (uint64_t handle)
{
  return (uint32_t) ((handle * UINT64_C (0x9e3779b97f4a7c15)) >> 60)
         & (PSC_RESOLVER_MEMO_SLOTS - 1);
}

static inline PscResolverMemoSlot *
psc_resolver_memo_find (PscResolverMemoSlot *slots, uint64_t handle, uint32_t epoch)
{
  PscResolverMemoSlot *s = &slots[psc_resolver_memo_index (handle)];
  return s->handle == handle && s->epoch == epoch ? s : NULL;
}

static inline void
psc_resolver_memo_store (PscResolverMemoSlot *slots, uint64_t handle, uint32_t epoch,
                         const PscShaderInfo *info)
{
  PscResolverMemoSlot *s = &slots[psc_resolver_memo_index (handle)];
  s->handle = handle;
  s->id = info->id;
  s->generation = info->generation;
  s->spec = info->spec;
  s->spec_count = info->spec_count;
  s->epoch = epoch;
}

/* r->shader through the memo: false for a handle the cache did not issue. */
static inline bool
psc_resolve_shader (const PscResolver *r, VkShaderModule module, PscShaderInfo *info)
{
  PscResolverMemo *memo = r->memo;
  if (memo == NULL)
    return r->shader (r->ctx, module, info);
  const uint32_t epoch = *memo->epoch;
  const PscResolverMemoSlot *s = psc_resolver_memo_find (memo->shader, (uint64_t) module, epoch);
  if (s != NULL)
    {
      info->id = s->id;
      info->generation = s->generation;
      info->spec = s->spec;
      info->spec_count = s->spec_count;
      return true;
    }
  if (!r->shader (r->ctx, module, info))
    return false;
  psc_resolver_memo_store (memo->shader, (uint64_t) module, epoch, info);
  return true;
}

/* r->pipeline_layout through the memo. */
static inline bool
psc_resolve_layout (const PscResolver *r, VkPipelineLayout layout, uint32_t *id)
{
  PscResolverMemo *memo = r->memo;
  if (memo == NULL)
    return r->pipeline_layout (r->ctx, layout, id);
  const uint32_t epoch = *memo->epoch;
  const PscResolverMemoSlot *s = psc_resolver_memo_find (memo->layout, (uint64_t) layout, epoch);
  if (s != NULL)
    {
      *id = s->id;
      return true;
    }
  if (!r->pipeline_layout (r->ctx, layout, id))
    return false;
  psc_resolver_memo_store (memo->layout, (uint64_t) layout, epoch, &(PscShaderInfo) { .id = *id });
  return true;
}
