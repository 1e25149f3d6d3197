/* psc-test-hooks.c: the test-only constructor of psc-test-hooks.h, compiled
 * into libpsocache-1-testing.so only (never into the installed library).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"
#include "psc-test-hooks.h"

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
