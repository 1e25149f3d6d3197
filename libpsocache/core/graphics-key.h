/* graphics-key.h: a graphics request's canonical key, the fast path first
 * and the complete encoder when it declines (internal).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "encode-graphics-fast.h"
#include "encode-graphics.h"

/* A graphics key: the fast path, then the complete encoder from the
 * writer's original length when it declines. Inline: every hit's request
 * calls it, and a call level less was measurable there. */
static inline PscStatus
psc_encode_graphics (const VkGraphicsPipelineCreateInfo *ci, PscRenderingMode mode,
                     const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  const size_t start = w->len;
  PscStatus st = psc_encode_graphics_fast (ci, mode, r, w);
  if (__builtin_expect (st != PSC_STATUS_DECLINED, 1))
    return st;
  w->len = start;
  return psc_encode_graphics_full (ci, mode, r, w, err);
}
