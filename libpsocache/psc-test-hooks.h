/* psc-test-hooks.h: caches with the core's test hooks, for tests only.
 *
 * Never installed. The shared library reads no test variable and offers no
 * way to set a hook; this constructor is exported only by
 * libpsocache-1-testing.so, a non-installed copy of the library built from
 * the same static libraries plus psc-test-hooks.c (psc_testing_dep in
 * meson). A test that needs a hook (forced hashes, failing compiles, the
 * ThreadSanitizer control's planted race) links that library instead of
 * libpsocache-1.so (never both: each registers the GTypes), reads its own
 * environment or arguments, and calls this.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>
#include "core/psc-core.h"

G_BEGIN_DECLS

/* psc_cache_new_full() with @hooks (which may be NULL: no hook) copied into
 * the core's configuration. The calling thread becomes the owner. */
__attribute__((visibility ("default")))
PscCache *psc_cache_new_with_hooks (PscDevice               *device,
                                    PscBackend               backend,
                                    PscCacheFlags            flags,
                                    const PscCacheOptions   *options,
                                    const PscCoreTestHooks  *hooks,
                                    GError                 **error);

/* The next psc_descriptor_pool_reset_unlocked() of @pool fails with
 * @result (not VK_SUCCESS) without calling Vulkan: a failed reset. */
__attribute__((visibility ("default")))
void psc_descriptor_pool_fail_next_reset (PscDescriptorPool *pool, VkResult result);

G_END_DECLS
