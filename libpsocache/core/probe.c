/* probe.c: the warm probe (see probe.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "probe.h"

#include "stats.h"

#include <volk.h>

static VkResult
create_failing_on_compile (PscCore *core, const PscRecipeResolved *res, VkPipeline *out)
{
  if (res->kind == PSC_KIND_GRAPHICS)
    {
      VkGraphicsPipelineCreateInfo ci = *res->graphics;
      ci.flags |= VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
      return core->vk->vkCreateGraphicsPipelines (core->cfg.device, core->driver_cache, 1, &ci,
                                                  core->cfg.allocator, out);
    }
  VkComputePipelineCreateInfo ci = *res->compute;
  ci.flags |= VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  return core->vk->vkCreateComputePipelines (core->cfg.device, core->driver_cache, 1, &ci,
                                             core->cfg.allocator, out);
}

PscStatus
psc_core_probe_recipe (PscCore *core, const PscRecipeBook *book, uint64_t recipe_hash,
                       bool *served, PscRecipeStale *stale, PscCoreError *err)
{
  *served = false;
  if (stale != NULL)
    *stale = PSC_RECIPE_FRESH;
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (!core->cfg.creation_cache_control_enabled)
    return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, "",
                          "the device did not enable pipelineCreationCacheControl (Vulkan 1.3)");
  PscRecipeResolved res;
  PscStatus st = psc_core_resolve_recipe (core, book, recipe_hash, &res, err);
  if (stale != NULL)
    *stale = res.stale;
  if (st != PSC_STATUS_OK)
    {
      psc_recipe_resolved_clear (&res);
      return st;
    }
  VkPipeline p = VK_NULL_HANDLE;
  const VkResult r = create_failing_on_compile (core, &res, &p);
  psc_recipe_resolved_clear (&res);
  if (r == VK_SUCCESS)
    {
      *served = true;
      core->vk->vkDestroyPipeline (core->cfg.device, p, core->cfg.allocator);
      return PSC_STATUS_OK;
    }
  if (r == VK_PIPELINE_COMPILE_REQUIRED)
    return PSC_STATUS_OK;
  return psc_core_fail_vk (err, r, "vkCreate*Pipelines (probe)");
}
