/* psc-test-hooks.c: the test-only constructor of psc-test-hooks.h, compiled
 * into libpsocache-1-testing.so only (never into the installed library).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"
#include "psc-test-hooks.h"
#include "psc-descriptor-private.h"

PscCache *
psc_cache_new_with_hooks (PscDevice               *device,
                          PscBackend               backend,
                          PscCacheFlags            flags,
                          const PscCacheOptions   *options,
                          const PscCoreTestHooks  *hooks,
                          GError                 **error)
{
  return psc_cache_new_internal (device, backend, flags, options, hooks, error);
}

void
psc_descriptor_pool_fail_next_reset (PscDescriptorPool *pool, VkResult result)
{
  g_return_if_fail (pool != NULL);
  g_return_if_fail (result != VK_SUCCESS);
  pool->fail_next_reset = result;
}
