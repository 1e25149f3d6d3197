/* driver-cache.h: the main VkPipelineCache, persistent layer 1 on the
 * core's side (seed 003): created from validated data or empty, its data
 * read for a save, other data merged into it. The core never reads files:
 * the layer above validates bytes (formats/driver-file.h) and hands the
 * Vulkan data over. Internal to the core.
 *
 * Threads: the main cache is only used on the owner thread (synchronous
 * creations, and worker caches merged by the pump), so these functions run
 * there too; psc_core_get_driver_data also inside the closing callback.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* Creates core->driver_cache from cfg.initial_driver_data when given; if
 * the driver refuses that data, from nothing (and the rejection is
 * remembered: psc_core_driver_data_rejected). Fails only if an empty cache
 * cannot be created either. */
PSC_INTERNAL PscStatus psc_driver_cache_create (PscCore *core, PscCoreError *err);
PSC_INTERNAL void psc_driver_cache_destroy (PscCore *core);
