/* core.c: PscCore lifetime, owner-thread checks, counters, publication of
 * created objects, pins and the frame pump.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t
psc_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

bool
psc_core_wrong_thread (PscCore *core, PscCoreError *err)
{
  PscStatus st;
  if (!pthread_equal (core->owner, pthread_self ()))
    st = psc_core_fail (err, PSC_STATUS_WRONG_THREAD, "",
                        "called from a thread that does not own the cache (the owner is the thread that created it)");
  else
    st = psc_core_fail (err, PSC_STATUS_CLOSED, "",
                        "the cache is closed: nothing was started");
  atomic_fetch_add_explicit (&core->stats.rejected[st], 1, memory_order_relaxed);
  return false;
}

uint64_t
psc_core_hash (const PscCore *core, const void *key, size_t len)
{
  if (__builtin_expect (core->cfg.hooks.force_hash, 0))
    return core->cfg.hooks.forced_hash;
  return psc_key_hash (key, len);
}

PscStatus
psc_core_reject (PscCore *core, PscStatus st)
{
  if (st >= 0 && st < PSC_STATUS_COUNT)
    psc_stat_add (&core->stats.rejected[st], 1);
  return st;
}

void
psc_core_count_rejection (PscCore *core, PscStatus status)
{
  /* May be called from any thread: use a locked add. */
  if (core != NULL && status >= 0 && status < PSC_STATUS_COUNT)
    atomic_fetch_add_explicit (&core->stats.rejected[status], 1, memory_order_relaxed);
}

uint32_t
psc_entries_push (PscEntryVec *v, const PscEntry *e)
{
  if (v->len == v->cap)
    {
      /* Grown by hand: realloc does not keep the 64-byte alignment. */
      uint32_t cap = v->cap ? v->cap * 2 : 64;
      PscEntry *items = aligned_alloc (_Alignof (PscEntry), (size_t) cap * sizeof *items);
      uint64_t *hit_frame = items ? calloc (cap, sizeof *hit_frame) : NULL;
      if (hit_frame == NULL)
        {
          free (items);
          return UINT32_MAX;
        }
      if (v->len)
        {
          memcpy (items, v->items, (size_t) v->len * sizeof *items);
          memcpy (hit_frame, v->hit_frame, (size_t) v->len * sizeof *hit_frame);
        }
      free (v->items);
      free (v->hit_frame);
      v->items = items;
      v->hit_frame = hit_frame;
      v->cap = cap;
    }
  v->items[v->len] = *e;
  return v->len++;
}

static VkObjectType
kind_object_type (PscKind kind)
{
  switch (kind)
    {
    case PSC_KIND_SAMPLER: return VK_OBJECT_TYPE_SAMPLER;
    case PSC_KIND_SET_LAYOUT: return VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT;
    case PSC_KIND_PIPELINE_LAYOUT: return VK_OBJECT_TYPE_PIPELINE_LAYOUT;
    case PSC_KIND_RENDER_PASS: return VK_OBJECT_TYPE_RENDER_PASS;
    case PSC_KIND_GRAPHICS:
    case PSC_KIND_COMPUTE: return VK_OBJECT_TYPE_PIPELINE;
    case PSC_KIND_SHADER: return VK_OBJECT_TYPE_SHADER_MODULE;
    default: return VK_OBJECT_TYPE_UNKNOWN;
    }
}

static const char *const kind_names[PSC_KIND_COUNT] = {
  "sampler", "descriptor-set layout", "pipeline layout",
  "compatibility render pass", "graphics pipeline", "compute pipeline",
  "shader module",
};

void
psc_core_update_bytes (PscCore *core, PscKind kind)
{
  size_t bytes = psc_table_host_bytes (core->tables[kind]) +
                 psc_handle_map_host_bytes (core->handles[kind]) +
                 (size_t) core->entries[kind].cap * (sizeof (PscEntry) + sizeof (uint64_t));
  if (kind == PSC_KIND_SET_LAYOUT)
    bytes += psc_table_host_bytes (core->sampler_lists) +
             (size_t) core->sampler_list_entries.cap * sizeof (PscEntry);
  atomic_store_explicit (&core->stats.kinds[kind].host_bytes, bytes, memory_order_relaxed);
}

void
psc_core_name_object (PscCore *core, VkObjectType type, uint64_t handle,
                      const char *kind, uint32_t id)
{
  if (core->it.SetDebugUtilsObjectNameEXT == NULL)
    return;
  char name[96];
  snprintf (name, sizeof name, "psocache %s #%u", kind, id);
  VkDebugUtilsObjectNameInfoEXT info = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
    .objectType = type,
    .objectHandle = handle,
    .pObjectName = name,
  };
  core->it.SetDebugUtilsObjectNameEXT (core->cfg.device, &info);
}

PscStatus
psc_core_publish (PscCore *core, PscKind kind, uint64_t hash, const uint8_t *key,
                  size_t len, uint64_t handle, uint32_t *index, PscCoreError *err)
{
  PscEntryVec *v = &core->entries[kind];
  const PscTableItem *item = NULL;
  PscStatus st = psc_table_insert (core->tables[kind], hash, key, len, v->len, &item, err);
  if (st == PSC_STATUS_CAPACITY)
    psc_stat_add (&core->stats.capacity_failures, 1);
  if (st != PSC_STATUS_OK)
    return st;
  PscEntry e = {
    .handle = handle,
    .hash = hash,
    .key = item->key,
    .key_len = item->key_len,
    .last_used_frame = core->frame,
    .state = PSC_ENTRY_READY,
    .kind = (uint8_t) kind,
    .refs = 1,
    .job = UINT32_MAX,
    .waiter_head = UINT32_MAX,
    .waiter_tail = UINT32_MAX,
    .pred = UINT32_MAX,
  };
  if (kind == PSC_KIND_GRAPHICS || kind == PSC_KIND_COMPUTE)
    {
      int n = psc_pipeline_key_shaders (item->key, item->key_len, e.shader_ids, e.shader_gens, NULL);
      e.shader_count = n > 0 ? (uint8_t) n : 0;
    }
  uint32_t idx = psc_entries_push (v, &e);
  if (idx == UINT32_MAX ||
      !psc_handle_map_set (core->handles[kind], handle, idx))
    {
      psc_table_remove (core->tables[kind], hash, key, len);
      if (idx != UINT32_MAX)
        v->len--;
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory recording a %s",
                            kind_names[kind]);
    }
  psc_stat_add (&core->stats.kinds[kind].entries, 1);
  psc_core_update_bytes (core, kind);
  psc_core_name_object (core, kind_object_type (kind), handle, kind_names[kind], idx + 1);
  if (index != NULL)
    *index = idx;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_own (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
              uint64_t handle, uint32_t *index, PscCoreError *err)
{
  /* Pass-through: the object is recorded (so it can be resolved and is
   * destroyed with the cache) but never entered in the table. */
  uint8_t *copy = malloc (len ? len : 1);
  if (copy == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  memcpy (copy, key, len);
  PscEntry e = {
    .handle = handle,
    .key = copy,
    .key_len = (uint32_t) len,
    .last_used_frame = core->frame,
    .state = PSC_ENTRY_READY,
    .kind = (uint8_t) kind,
    .refs = 1,
    .owned_key = 1,
    .job = UINT32_MAX,
    .waiter_head = UINT32_MAX,
    .waiter_tail = UINT32_MAX,
    .pred = UINT32_MAX,
  };
  PscEntryVec *v = &core->entries[kind];
  uint32_t idx = psc_entries_push (v, &e);
  if (idx == UINT32_MAX || !psc_handle_map_set (core->handles[kind], handle, idx))
    {
      free (copy);
      if (idx != UINT32_MAX)
        v->len--;
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
    }
  psc_stat_add (&core->stats.kinds[kind].entries, 1);
  psc_core_update_bytes (core, kind);
  psc_core_name_object (core, kind_object_type (kind), handle, kind_names[kind], idx + 1);
  if (index != NULL)
    *index = idx;
  return PSC_STATUS_OK;
}

void
psc_core_destroy_handle (PscCore *core, PscKind kind, uint64_t handle)
{
  const VkAllocationCallbacks *a = core->cfg.allocator;
  VkDevice d = core->cfg.device;
  switch (kind)
    {
    case PSC_KIND_SAMPLER:
      core->vk->vkDestroySampler (d, (VkSampler) handle, a);
      break;
    case PSC_KIND_SET_LAYOUT:
      core->vk->vkDestroyDescriptorSetLayout (d, (VkDescriptorSetLayout) handle, a);
      break;
    case PSC_KIND_PIPELINE_LAYOUT:
      core->vk->vkDestroyPipelineLayout (d, (VkPipelineLayout) handle, a);
      break;
    case PSC_KIND_RENDER_PASS:
      core->vk->vkDestroyRenderPass (d, (VkRenderPass) handle, a);
      break;
    case PSC_KIND_GRAPHICS:
    case PSC_KIND_COMPUTE:
      core->vk->vkDestroyPipeline (d, (VkPipeline) handle, a);
      break;
    case PSC_KIND_SHADER:
      core->vk->vkDestroyShaderModule (d, (VkShaderModule) handle, a);
      break;
    default:
      break;
    }
}


PscStatus
psc_core_new (const PscCoreConfig *cfg, PscCore **out, PscCoreError *err)
{
  *out = NULL;
  if (cfg->device == VK_NULL_HANDLE || cfg->instance == VK_NULL_HANDLE ||
      cfg->get_instance_proc_addr == NULL)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "",
                          "a cache needs an instance, a device and vkGetInstanceProcAddr");
  if (cfg->rendering != PSC_RENDERING_DYNAMIC && cfg->rendering != PSC_RENDERING_LEGACY)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "rendering",
                          "unknown rendering mode %d", (int) cfg->rendering);
  if (cfg->rendering == PSC_RENDERING_DYNAMIC && !cfg->dynamic_rendering_enabled)
    return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, "rendering",
                          "dynamic rendering was not enabled on this device");

  PscCore *core = calloc (1, sizeof *core);
  if (core == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  core->cfg = *cfg;
  core->inject_failures = cfg->hooks.fail_compiles;
  core->inject_result = cfg->hooks.fail_result;
  core->ready_epoch = 1;
  core->objects_epoch = 1;
  core->owner = pthread_self ();

  PscStatus st = PSC_STATUS_OK;
  if (!psc_dispatch_load_instance (&core->it, cfg->get_instance_proc_addr, cfg->instance,
                                   cfg->debug_utils))
    {
      st = psc_core_fail (err, PSC_STATUS_NO_DEVICE, "",
                          "vkGetDeviceProcAddr could not be loaded from the given vkGetInstanceProcAddr");
      goto fail;
    }
  core->vk = psc_dispatch_load_device (&core->it, cfg->device);
  if (core->vk == NULL)
    {
      st = psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
      goto fail;
    }
  if (core->vk->vkCreateGraphicsPipelines == NULL || core->vk->vkCreatePipelineCache == NULL)
    {
      st = psc_core_fail (err, PSC_STATUS_NO_DEVICE, "",
                          "the device's entry points could not be loaded");
      goto fail;
    }

  for (int k = 0; k < PSC_KIND_COUNT; k++)
    {
      core->tables[k] = psc_table_new ();
      core->handles[k] = psc_handle_map_new ();
      if (core->tables[k] == NULL || core->handles[k] == NULL)
        {
          st = psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
          goto fail;
        }
    }
  core->sampler_lists = psc_table_new ();
  core->prepared_table = psc_table_new ();
  if (core->sampler_lists == NULL || core->prepared_table == NULL)
    {
      st = psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
      goto fail;
    }

  VkPipelineCacheCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
  VkResult r = core->vk->vkCreatePipelineCache (cfg->device, &pci, cfg->allocator,
                                                &core->driver_cache);
  if (r != VK_SUCCESS)
    {
      st = psc_core_fail_vk (err, r, "vkCreatePipelineCache");
      goto fail;
    }
  psc_core_name_object (core, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t) core->driver_cache,
                        "driver pipeline cache", 0);

  st = psc_async_init (core, err);
  if (st != PSC_STATUS_OK)
    goto fail;
  psc_core_init_resolver (core);
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    psc_core_update_bytes (core, (PscKind) k);
  *out = core;
  return PSC_STATUS_OK;

fail:
  psc_core_free (core);
  return st;
}

static void
destroy_kind (PscCore *core, PscKind kind)
{
  PscEntryVec *v = &core->entries[kind];
  for (uint32_t i = 0; i < v->len; i++)
    if (v->items[i].state == PSC_ENTRY_READY)
      psc_core_destroy_handle (core, kind, v->items[i].handle);
}

/* Shutdown order: stop and join workers, drain and discard completions,
 * complete (or drop) outstanding waiters (async.c); destroy retired and live
 * pipelines; layouts, passes, samplers; shader modules; the driver cache.
 * Pass-through objects follow the same order. The closed flag is set first,
 * so a waiter that requests again is refused (PSC_STATUS_CLOSED) and starts
 * nothing. */
static void
close_core (PscCore *core, bool call_waiters)
{
  if (core->closed)
    return;
  core->closed = true;
  if (core->vk == NULL)
    return;
  psc_async_shutdown (core, call_waiters);
  psc_retire_all (core);
  static const PscKind order[] = {
    PSC_KIND_GRAPHICS, PSC_KIND_COMPUTE, PSC_KIND_PIPELINE_LAYOUT,
    PSC_KIND_SET_LAYOUT, PSC_KIND_SAMPLER, PSC_KIND_RENDER_PASS, PSC_KIND_SHADER,
  };
  for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
    destroy_kind (core, order[o]);
  if (core->driver_cache != VK_NULL_HANDLE)
    core->vk->vkDestroyPipelineCache (core->cfg.device, core->driver_cache,
                                      core->cfg.allocator);
  core->driver_cache = VK_NULL_HANDLE;
}

void
psc_core_close (PscCore *core, uint64_t completed_timeline)
{
  if (core->closed || !pthread_equal (core->owner, pthread_self ()))
    return;
  if (completed_timeline > core->completed_timeline)
    core->completed_timeline = completed_timeline;
  close_core (core, true);
}

void
psc_core_close_unowned (PscCore *core)
{
  close_core (core, false);
}

bool
psc_core_is_closed (const PscCore *core)
{
  return core->closed;
}

void
psc_core_free (PscCore *core)
{
  if (core == NULL)
    return;
  if (!core->closed)
    {
      if (pthread_equal (core->owner, pthread_self ()))
        psc_core_close (core, core->completed_timeline);
      else
        psc_core_close_unowned (core);
    }
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    {
      psc_table_free (core->tables[k]);
      psc_handle_map_free (core->handles[k]);
      for (uint32_t i = 0; i < core->entries[k].len; i++)
        if (core->entries[k].items[i].owned_key)
          free ((void *) core->entries[k].items[i].key);
      free (core->entries[k].items);
      free (core->entries[k].hit_frame);
    }
  psc_table_free (core->sampler_lists);
  free (core->sampler_list_entries.items);
  free (core->sampler_list_entries.hit_frame);
  psc_table_free (core->prepared_table);
  free (core->prepared);
  free (core->prepared_hot);
  psc_async_free (core);
  free (core->retired);
  free (core->vk);
  free (core);
}

void
psc_core_begin_frame (PscCore *core, uint64_t frame, uint64_t completed_timeline)
{
  if (!psc_core_check_thread (core, NULL))
    return;
  core->frame = frame;
  if (completed_timeline > core->completed_timeline)
    core->completed_timeline = completed_timeline;
  atomic_store_explicit (&core->stats.frame, frame, memory_order_relaxed);
  /* The pump: publish completions and call waiters, retire what the GPU
   * has passed, evict idle entries. */
  psc_async_pump (core);
  psc_retire_pump (core);
}

void
psc_core_get_stats (const PscCore *core, PscCoreStats *out)
{
  PscAtomicStats *s = (PscAtomicStats *) &core->stats;
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    {
      out->kinds[k].hits = atomic_load_explicit (&s->kinds[k].hits, memory_order_relaxed);
      out->kinds[k].misses = atomic_load_explicit (&s->kinds[k].misses, memory_order_relaxed);
      out->kinds[k].creations = atomic_load_explicit (&s->kinds[k].creations, memory_order_relaxed);
      out->kinds[k].creation_ns = atomic_load_explicit (&s->kinds[k].creation_ns, memory_order_relaxed);
      out->kinds[k].entries = atomic_load_explicit (&s->kinds[k].entries, memory_order_relaxed);
      out->kinds[k].host_bytes = atomic_load_explicit (&s->kinds[k].host_bytes, memory_order_relaxed);
    }
  out->capacity_failures = atomic_load_explicit (&s->capacity_failures, memory_order_relaxed);
  for (int i = 0; i < PSC_STATUS_COUNT; i++)
    out->rejected[i] = atomic_load_explicit (&s->rejected[i], memory_order_relaxed);
  out->frame = atomic_load_explicit (&s->frame, memory_order_relaxed);
  /* A job's stages, last to first (see the worker in async.c): a snapshot
   * never counts one job in two of them. */
  out->async.unpublished = atomic_load_explicit (&s->unpublished, memory_order_seq_cst);
  out->async.in_flight = atomic_load_explicit (&s->in_flight, memory_order_seq_cst);
  out->async.queued = atomic_load_explicit (&s->queued, memory_order_seq_cst);
#define A(f) out->async.f = atomic_load_explicit (&s->f, memory_order_relaxed)
  A (completed); A (failed); A (stale_discards);
  A (waiters_served); A (overflow_fallbacks); A (overflow_skips); A (evictions);
  A (retirements_pending); A (retired); A (owner_wait_ns); A (fallbacks_returned);
  A (stale_returned);
#undef A
}

static PscKind
kind_for_object_type (VkObjectType type)
{
  switch (type)
    {
    case VK_OBJECT_TYPE_SAMPLER: return PSC_KIND_SAMPLER;
    case VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT: return PSC_KIND_SET_LAYOUT;
    case VK_OBJECT_TYPE_PIPELINE_LAYOUT: return PSC_KIND_PIPELINE_LAYOUT;
    case VK_OBJECT_TYPE_RENDER_PASS: return PSC_KIND_RENDER_PASS;
    case VK_OBJECT_TYPE_PIPELINE: return PSC_KIND_GRAPHICS;
    case VK_OBJECT_TYPE_SHADER_MODULE: return PSC_KIND_SHADER;
    default: return PSC_KIND_COUNT;
    }
}

PscStatus
psc_core_pin (PscCore *core, VkObjectType type, uint64_t handle, int delta,
              PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  PscKind kind = kind_for_object_type (type);
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

PscStatus
psc_core_get_or_create (PscCore *core, PscKind kind, const uint8_t *key, size_t len,
                        PscCreateFn create, uint64_t *out, uint32_t *index,
                        PscCoreError *err)
{
  PscAtomicKindStats *ks = &core->stats.kinds[kind];
  uint64_t hash = psc_core_hash (core, key, len);

  if (__builtin_expect (!core->cfg.pass_through, 1))
    {
      const PscTableItem *item = psc_table_find (core->tables[kind], hash, key, len);
      if (item != NULL)
        {
          PscEntry *e = &core->entries[kind].items[item->value];
          e->last_used_frame = core->frame;
          psc_stat_add (&ks->hits, 1);
          *out = e->handle;
          if (index != NULL)
            *index = item->value;
          return PSC_STATUS_OK;
        }
      psc_stat_add (&ks->misses, 1);
      if (psc_table_bucket_size (core->tables[kind], hash) >= PSC_COLLISION_BUCKET_CAPACITY)
        {
          psc_stat_add (&core->stats.capacity_failures, 1);
          return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_CAPACITY, "",
              "collision bucket full: %u distinct %s keys already share hash 0x%016llx",
              (unsigned) PSC_COLLISION_BUCKET_CAPACITY, kind_names[kind],
              (unsigned long long) hash));
        }
    }
  else
    psc_stat_add (&ks->misses, 1);

  uint64_t handle = 0;
  uint64_t t0 = psc_now_ns ();
  PscStatus st = create (core, key, len, &handle, err);
  uint64_t t1 = psc_now_ns ();
  if (st != PSC_STATUS_OK)
    return psc_core_reject (core, st);
  psc_stat_add (&ks->creations, 1);
  psc_stat_add (&ks->creation_ns, t1 - t0);

  if (core->cfg.pass_through)
    st = psc_core_own (core, kind, key, len, handle, index, err);
  else
    st = psc_core_publish (core, kind, hash, key, len, handle, index, err);
  if (st != PSC_STATUS_OK)
    {
      psc_core_destroy_handle (core, kind, handle);
      return psc_core_reject (core, st);
    }
  *out = handle;
  return PSC_STATUS_OK;
}
