/* encode-graphics-fast.h: the graphics fast path (internal): the common
 * shape a cache hit sees, each key byte written once, in place. For every
 * input it accepts it writes exactly the bytes psc_encode_graphics_full
 * writes; it reports no error.
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
