/* probe.h: would the driver serve a recipe's pipeline from its cache?
 * Asked without compiling: the pipeline is created with
 * VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT (Vulkan 1.3's
 * pipelineCreationCacheControl, which the device must have enabled), and
 * with the main driver cache; a pipeline the driver made from its cache is
 * destroyed at once. Seed 003: verify without compiling. Internal to the
 * core; owner thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "recipes.h"

/* *served: the driver made it from its cache (VK_SUCCESS) or would have
 * had to compile (VK_PIPELINE_COMPILE_REQUIRED). PSC_STATUS_UNSUPPORTED
 * when the device has not enabled pipeline-creation cache control;
 * PSC_STATUS_INVALID_DATA for a stale recipe (*stale says why; may be
 * NULL); PSC_STATUS_VULKAN for any other driver answer. */
PSC_INTERNAL PscStatus psc_core_probe_recipe (PscCore *core, const PscRecipeBook *book,
                                              uint64_t recipe_hash, bool *served,
                                              PscRecipeStale *stale, PscCoreError *err);
