/* core.c: PscCore lifetime (creation, close, free) and the frame pump. Every
 * other concept lives in a module of its own (docs/architecture.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "core-private.h"

#include "driver-cache.h"
#include "events.h"
#include "objects.h"
#include "prepared.h"
#include "requests.h"
#include "resolver.h"
#include "retire.h"
#include "shaders.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

#include <volk.h>

static PscStatus
check_config (const PscCoreConfig *cfg, PscCoreError *err)
{
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
  return PSC_STATUS_OK;
}

static PscStatus
load_dispatch (PscCore *core, PscCoreError *err)
{
  const PscCoreConfig *cfg = &core->cfg;
  if (!psc_dispatch_load_instance (&core->it, cfg->get_instance_proc_addr, cfg->instance,
                                   cfg->debug_utils))
    return psc_core_fail (err, PSC_STATUS_NO_DEVICE, "",
                          "vkGetDeviceProcAddr could not be loaded from the given vkGetInstanceProcAddr");
  core->vk = psc_dispatch_load_device (&core->it, cfg->device);
  if (core->vk == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  if (core->vk->vkCreateGraphicsPipelines == NULL || core->vk->vkCreatePipelineCache == NULL)
    {
      free (core->vk);
      core->vk = NULL;
      return psc_core_fail (err, PSC_STATUS_NO_DEVICE, "",
                            "the device's entry points could not be loaded");
    }
  return PSC_STATUS_OK;
}

static PscStatus
new_stores (PscCore *core, PscCoreError *err)
{
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    if ((core->stores[k] = psc_store_new ((uint8_t) k)) == NULL)
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  core->sampler_lists = psc_store_new (PSC_KIND_COUNT);
  core->prepared_table = psc_table_new ();
  core->module_pins = psc_handle_map_new ();
  if (core->sampler_lists == NULL || core->prepared_table == NULL || core->module_pins == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  return PSC_STATUS_OK;
}

PscStatus
psc_core_new (const PscCoreConfig *cfg, PscCore **out, PscCoreError *err)
{
  *out = NULL;
  PscStatus st = check_config (cfg, err);
  if (st != PSC_STATUS_OK)
    return st;
  PscCore *core = calloc (1, sizeof *core);
  if (core == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
  core->cfg = *cfg;
  core->ready_epoch = 1;
  core->objects_epoch = 1;
  core->owner = core->creator = pthread_self ();

  st = load_dispatch (core, err);
  if (st == PSC_STATUS_OK)
    st = new_stores (core, err);
  if (st == PSC_STATUS_OK)
    st = psc_driver_cache_create (core, err);
  if (st == PSC_STATUS_OK)
    st = psc_requests_init (core, err);
  /* The initial data is the caller's: only read above. */
  core->cfg.initial_driver_data = NULL;
  core->cfg.initial_driver_size = 0;
  if (st != PSC_STATUS_OK)
    {
      psc_core_free (core);
      return st;
    }
  psc_core_init_resolver (core);
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    psc_core_update_bytes (core, (PscKind) k);
  core->created = true;
  *out = core;
  return PSC_STATUS_OK;
}

/* Shutdown order: stop and join workers, destroy what they produced, call
 * (or drop) every outstanding waiter (requests.c); destroy retired and live
 * pipelines; layouts, passes, samplers; shader modules; the driver cache.
 * The closed flag is set first, so a waiter that requests again is refused
 * (PSC_STATUS_CLOSED) and starts nothing. */
static void
close_core (PscCore *core, bool call_waiters)
{
  if (core->closed)
    return;
  core->closed = true;
  core->owner = (pthread_t) 0;
  if (core->vk == NULL)
    return;
  psc_requests_shutdown (core, call_waiters);
  if (call_waiters && core->created && core->cfg.closing != NULL)
    {
      /* The callback is the library's (persistence saves), never the
       * application's: owner-thread calls work inside it. */
      core->in_closing = true;
      core->owner = core->creator;
      core->cfg.closing (core->cfg.closing_ctx, core);
      core->owner = (pthread_t) 0;
      core->in_closing = false;
    }
  psc_retire_all (core);
  static const PscKind order[] = {
    PSC_KIND_GRAPHICS, PSC_KIND_COMPUTE, PSC_KIND_PIPELINE_LAYOUT,
    PSC_KIND_SET_LAYOUT, PSC_KIND_SAMPLER, PSC_KIND_RENDER_PASS,
  };
  for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
    if (core->stores[order[o]] != NULL)
      psc_objects_destroy_kind (core, order[o]);
  if (core->stores[PSC_KIND_SHADER] != NULL)
    psc_shaders_destroy_all (core);
  psc_driver_cache_destroy (core);
}

void
psc_core_close (PscCore *core, uint64_t completed_timeline)
{
  if (core->closed || !pthread_equal (core->creator, pthread_self ()))
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
      if (pthread_equal (core->creator, pthread_self ()))
        psc_core_close (core, core->completed_timeline);
      else
        psc_core_close_unowned (core);
    }
  psc_requests_free (core);
  psc_events_free (core);
  psc_prepared_free (core);
  for (int k = 0; k < PSC_KIND_COUNT; k++)
    psc_store_free (core->stores[k]);
  psc_store_free (core->sampler_lists);
  psc_handle_map_free (core->module_pins);
  free (core->doomed);
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
  /* The pump: publish completions and call waiters, then retire what the
   * GPU has passed and what is idle or unreachable. */
  psc_requests_pump (core);
  psc_retire_pump (core);
}

PscStatus
psc_core_check_owner (PscCore *core, PscCoreError *err)
{
  return psc_core_check_thread (core, err) ? PSC_STATUS_OK : psc_core_refused (core);
}
