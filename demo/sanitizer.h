/* sanitizer.h: under AddressSanitizer, keeps lavapipe resident.
 *
 * The Vulkan loader unloads the driver (and LLVM with it) at
 * vkDestroyInstance; LeakSanitizer then reports the driver's one-time
 * initialisation as leaks it can no longer attribute to the driver's module
 * (the only one tests/sanitizers/lsan.supp suppresses). Loading the driver
 * once more with RTLD_NODELETE keeps those allocations reachable and
 * attributable. Nothing happens in a build without AddressSanitizer, or
 * when VK_DRIVER_FILES does not name lavapipe. (tests/vulkan/harness.c does
 * the same for the Vulkan suite.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#endif

static inline void
psc_demo_keep_driver_resident (void)
{
#if defined(__SANITIZE_ADDRESS__)
  const char *icd = g_getenv ("VK_DRIVER_FILES");
  if (icd != NULL && strstr (icd, "lvp_icd") != NULL)
    (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
}
