/* driver-cache.c: the main VkPipelineCache (see driver-cache.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "driver-cache.h"

#include "async.h"
#include "stats.h"
#include "vkobjects.h"

#include <stdlib.h>

#include <volk.h>

static VkResult
create_cache (PscCore *core, const void *data, size_t len, VkPipelineCache *out)
{
  const VkPipelineCacheCreateInfo pci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
    .initialDataSize = data != NULL ? len : 0,
    .pInitialData = data != NULL && len > 0 ? data : NULL,
  };
  return core->vk->vkCreatePipelineCache (core->cfg.device, &pci, core->cfg.allocator, out);
}

PscStatus
psc_driver_cache_create (PscCore *core, PscCoreError *err)
{
  const PscCoreConfig *cfg = &core->cfg;
  VkResult r = VK_ERROR_INITIALIZATION_FAILED;
  if (cfg->initial_driver_data != NULL && cfg->initial_driver_size > 0)
    {
      r = create_cache (core, cfg->initial_driver_data, cfg->initial_driver_size,
                        &core->driver_cache);
      core->driver_data_rejected = r != VK_SUCCESS;
      if (r == VK_SUCCESS)
        core->driver_data_loaded = cfg->initial_driver_size;
    }
  if (r != VK_SUCCESS)
    r = create_cache (core, NULL, 0, &core->driver_cache);
  if (r != VK_SUCCESS)
    {
      core->driver_cache = VK_NULL_HANDLE;
      return psc_core_fail_vk (err, r, "vkCreatePipelineCache");
    }
  psc_core_name_raw (core, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t) core->driver_cache,
                     "driver pipeline cache", 0);
  return PSC_STATUS_OK;
}

void
psc_driver_cache_destroy (PscCore *core)
{
  if (core->driver_cache != VK_NULL_HANDLE)
    core->vk->vkDestroyPipelineCache (core->cfg.device, core->driver_cache, core->cfg.allocator);
  core->driver_cache = VK_NULL_HANDLE;
}

static bool
driver_cache_usable (const PscCore *core)
{
  return core->vk != NULL && core->driver_cache != VK_NULL_HANDLE &&
         (pthread_equal (core->owner, pthread_self ()) ||
          (core->in_closing && pthread_equal (core->creator, pthread_self ())));
}

PscStatus
psc_core_get_driver_data (PscCore *core, void **data, size_t *len, PscCoreError *err)
{
  *data = NULL;
  *len = 0;
  if (!driver_cache_usable (core))
    return psc_core_fail (err, core->closed && !core->in_closing ? PSC_STATUS_CLOSED
                                                                 : PSC_STATUS_WRONG_THREAD,
                          "", "the driver cache can only be read on the owner thread "
                          "while the cache is open");
  size_t size = 0;
  VkResult r = core->vk->vkGetPipelineCacheData (core->cfg.device, core->driver_cache, &size, NULL);
  if (r != VK_SUCCESS)
    return psc_core_fail_vk (err, r, "vkGetPipelineCacheData");
  /* The data may grow between the two calls only through this thread. */
  void *buf = malloc (size > 0 ? size : 1);
  if (buf == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory (%zu bytes)", size);
  r = core->vk->vkGetPipelineCacheData (core->cfg.device, core->driver_cache, &size, buf);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    {
      free (buf);
      return psc_core_fail_vk (err, r, "vkGetPipelineCacheData");
    }
  *data = buf;
  *len = size;
  return PSC_STATUS_OK;
}

PscStatus
psc_core_merge_driver_data (PscCore *core, const void *data, size_t len, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (data == NULL || len == 0)
    return PSC_STATUS_OK;
  VkPipelineCache other = VK_NULL_HANDLE;
  VkResult r = create_cache (core, data, len, &other);
  if (r != VK_SUCCESS)
    return psc_core_fail_vk (err, r, "vkCreatePipelineCache (data to merge)");
  /* A merge destination is externally synchronized: workers that create
   * with the main cache itself wait meanwhile. */
  const bool pause = core->workers != NULL && psc_workers_shared_cache (core->workers);
  if (pause)
    psc_workers_pause (core->workers);
  r = core->vk->vkMergePipelineCaches (core->cfg.device, core->driver_cache, 1, &other);
  if (pause)
    psc_workers_resume (core->workers);
  core->vk->vkDestroyPipelineCache (core->cfg.device, other, core->cfg.allocator);
  if (r != VK_SUCCESS)
    return psc_core_fail_vk (err, r, "vkMergePipelineCaches");
  core->driver_merges++;
  return PSC_STATUS_OK;
}

bool
psc_core_driver_data_rejected (const PscCore *core)
{
  return core->driver_data_rejected;
}

uint64_t
psc_core_driver_data_loaded (const PscCore *core)
{
  return core->driver_data_loaded;
}

uint64_t
psc_core_driver_cache_changes (const PscCore *core)
{
  const PscAtomicStats *s = &core->stats;
  return atomic_load_explicit (&s->kinds[PSC_KIND_GRAPHICS].creations, memory_order_relaxed) +
         atomic_load_explicit (&s->kinds[PSC_KIND_COMPUTE].creations, memory_order_relaxed) +
         core->driver_merges;
}

void
psc_core_quiesce (PscCore *core, bool quiet)
{
  if (!psc_core_check_thread (core, NULL) || core->workers == NULL)
    return;
  if (quiet)
    psc_workers_pause (core->workers);
  else
    psc_workers_resume (core->workers);
}
