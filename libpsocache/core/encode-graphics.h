/* encode-graphics.h: the graphics key's two encoders and the inline entry
 * point that combines them (internal).
 *
 * psc_encode_graphics_full (encode-graphics.c) handles every supported
 * input and is the reference for every error: status, field path and
 * message. psc_encode_graphics_fast (encode-graphics-fast.c) handles the
 * common shape a cache hit sees and, for every input it accepts, writes
 * exactly the bytes the complete encoder writes; it reports no error (see
 * PSC_STATUS_DECLINED). tests/unit/test-encode.c compares the two on every
 * test input and on randomized variants.
 *
 * Both run on the resolver's owner thread (the cache's owner thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "keys.h"

/* What the fast path returns when it does not write the key: the input is
 * outside the shape it handles, or a check failed. The complete encoder
 * must then run from the writer's original length. Never returned by any
 * other encoder, never seen outside the core. */
#define PSC_STATUS_DECLINED ((PscStatus) -2)

/* The fast path: PSC_STATUS_OK (the key is appended to w) or
 * PSC_STATUS_DECLINED (w->len may have moved; w's bytes past the original
 * length are unspecified). Exposed for the unit tests. */
PSC_INTERNAL PscStatus psc_encode_graphics_fast (const VkGraphicsPipelineCreateInfo *ci,
                                                 PscRenderingMode mode, const PscResolver *r,
                                                 PscKeyWriter *w);
/* The complete encoder alone (the encoder contract of psc-core.h). */
PSC_INTERNAL PscStatus psc_encode_graphics_full (const VkGraphicsPipelineCreateInfo *ci,
                                                 PscRenderingMode mode, const PscResolver *r,
                                                 PscKeyWriter *w, PscCoreError *err);

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
