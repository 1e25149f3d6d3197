/* vkobjects.h: destroying and naming the Vulkan objects a cache owns, per
 * kind. Internal to the core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* "sampler", "graphics pipeline", ... */
PSC_INTERNAL const char *psc_kind_name (PscKind kind);
PSC_INTERNAL VkObjectType psc_kind_object_type (PscKind kind);
/* The kind a VkObjectType names (pipelines: PSC_KIND_GRAPHICS), or
 * PSC_KIND_COUNT when the cache holds no such object. */
PSC_INTERNAL PscKind psc_kind_for_object_type (VkObjectType type);

PSC_INTERNAL void psc_core_destroy_handle (PscCore *core, PscKind kind, uint64_t handle);
/* Names an object "psocache <kind> #<id>" when debug utils are enabled. */
PSC_INTERNAL void psc_core_name_object (PscCore *core, PscKind kind, uint64_t handle, uint32_t id);
/* The same for objects that are no entry (driver and worker caches). */
PSC_INTERNAL void psc_core_name_raw (PscCore *core, VkObjectType type, uint64_t handle,
                                     const char *what, uint32_t number);
