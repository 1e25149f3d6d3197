/* objects.h: the synchronous kinds (samplers, descriptor-set layouts,
 * pipeline layouts, compatibility render passes) and pins. Internal to the
 * core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* Creates the Vulkan object a canonical key describes (decoding the key into
 * a create info first, so the driver sees exactly what the key says). */
typedef PscStatus (*PscCreateFn) (PscCore *core, const uint8_t *key, size_t len,
                                  uint64_t *handle, PscCoreError *err);

/* The get-or-create path: hash, find, compare in full; on a miss check the
 * collision bucket, create, record (untabled in pass-through mode). Counts
 * hits, misses, creations, creation time and rejections. */
PSC_INTERNAL PscStatus psc_core_get_or_create (PscCore *core, PscKind kind,
                                               const uint8_t *key, size_t len,
                                               PscCreateFn create, uint64_t *out,
                                               PscCoreError *err);
/* At close: destroys every object of a kind still held. */
PSC_INTERNAL void psc_objects_destroy_kind (PscCore *core, PscKind kind);
