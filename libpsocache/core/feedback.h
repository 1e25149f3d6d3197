/* feedback.h: pipeline-creation feedback (VkPipelineCreationFeedback, core
 * in Vulkan 1.3): whether the driver served a creation from the pipeline
 * cache it was given, counted for persistence (PscCoreStats
 * driver_cache_hits / driver_cache_misses). Used by both creation paths:
 * the owner thread's (requests.c) and the workers' (async.c). Internal to
 * the core; calls no module.
 *
 * The feedback structure is chained in front of a shallow copy of the
 * decoded create info, so the create info the key produced is never
 * modified and the application's own chain never reaches the driver.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

#include <stdatomic.h>

typedef struct {
  VkPipelineCreationFeedbackCreateInfo info;
  VkPipelineCreationFeedback pipeline;
  union {
    VkGraphicsPipelineCreateInfo graphics;
    VkComputePipelineCreateInfo compute;
  } copy;
} PscFeedback;

/* The create info to give the driver: ci itself when feedback is off, else
 * a copy of it with fb's structure first in its chain. */
static inline const void *
psc_feedback_chain (PscFeedback *fb, bool enabled, bool graphics, const void *ci)
{
  if (!enabled)
    return ci;
  fb->pipeline = (VkPipelineCreationFeedback) { 0 };
  fb->info = (VkPipelineCreationFeedbackCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
    .pPipelineCreationFeedback = &fb->pipeline,
  };
  if (graphics)
    {
      fb->copy.graphics = *(const VkGraphicsPipelineCreateInfo *) ci;
      fb->info.pNext = fb->copy.graphics.pNext;
      fb->copy.graphics.pNext = &fb->info;
      return &fb->copy.graphics;
    }
  fb->copy.compute = *(const VkComputePipelineCreateInfo *) ci;
  fb->info.pNext = fb->copy.compute.pNext;
  fb->copy.compute.pNext = &fb->info;
  return &fb->copy.compute;
}

/* Counts a successful creation's feedback, if the driver gave any. */
static inline void
psc_feedback_count (const PscFeedback *fb, bool enabled, _Atomic uint64_t *hits,
                    _Atomic uint64_t *misses)
{
  if (!enabled || !(fb->pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT))
    return;
  if (fb->pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT)
    atomic_fetch_add_explicit (hits, 1, memory_order_relaxed);
  else
    atomic_fetch_add_explicit (misses, 1, memory_order_relaxed);
}
