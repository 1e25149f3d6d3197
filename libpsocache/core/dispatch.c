/* dispatch.c: private Vulkan dispatch (DESIGN decision 7).
 *
 * volk is compiled into this translation unit only, and only its table
 * generator is used: device tables are loaded through the application's
 * vkGetInstanceProcAddr -> vkGetDeviceProcAddr, so layers see our calls and
 * an application that uses volk or the loader itself is never disturbed.
 * volk's global function pointers are hidden symbols of this library and are
 * never written (tests/unit/test-table.c checks them).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-core.h"

#include <stdlib.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <volk.c>
#pragma GCC diagnostic pop

typedef struct {
  PFN_vkGetDeviceProcAddr gdpa;
  VkDevice device;
} DeviceLoadContext;

static PFN_vkVoidFunction
load_device_symbol (void *context, const char *name)
{
  const DeviceLoadContext *c = context;
  return c->gdpa (c->device, name);
}

bool
psc_dispatch_load_instance (PscInstanceTable *it, PFN_vkGetInstanceProcAddr gipa,
                            VkInstance instance, bool debug_utils)
{
  *it = (PscInstanceTable) { 0 };
  if (gipa == NULL || instance == VK_NULL_HANDLE)
    return false;
  it->GetInstanceProcAddr = gipa;
  it->GetDeviceProcAddr = (PFN_vkGetDeviceProcAddr) gipa (instance, "vkGetDeviceProcAddr");
  it->GetPhysicalDeviceProperties =
    (PFN_vkGetPhysicalDeviceProperties) gipa (instance, "vkGetPhysicalDeviceProperties");
  it->GetPhysicalDeviceFeatures2 =
    (PFN_vkGetPhysicalDeviceFeatures2) gipa (instance, "vkGetPhysicalDeviceFeatures2");
  if (debug_utils)
    it->SetDebugUtilsObjectNameEXT =
      (PFN_vkSetDebugUtilsObjectNameEXT) gipa (instance, "vkSetDebugUtilsObjectNameEXT");
  return it->GetDeviceProcAddr != NULL && it->GetPhysicalDeviceProperties != NULL;
}

struct VolkDeviceTable *
psc_dispatch_load_device (const PscInstanceTable *it, VkDevice device)
{
  struct VolkDeviceTable *t = calloc (1, sizeof *t);
  if (t == NULL)
    return NULL;
  DeviceLoadContext c = { it->GetDeviceProcAddr, device };
  volkGenLoadDeviceTable (t, &c, load_device_symbol);
  return t;
}

bool
psc_dispatch_volk_globals_untouched (void)
{
  return vkGetInstanceProcAddr == NULL && vkGetDeviceProcAddr == NULL &&
         vkCreateInstance == NULL && vkCreateGraphicsPipelines == NULL &&
         vkCreateComputePipelines == NULL && vkCreateSampler == NULL &&
         vkCreateDescriptorSetLayout == NULL && vkCreatePipelineLayout == NULL &&
         vkCreateRenderPass == NULL && vkCreateShaderModule == NULL &&
         vkDestroyPipeline == NULL && vkCreatePipelineCache == NULL &&
         loadedDevice == VK_NULL_HANDLE && loadedInstance == VK_NULL_HANDLE;
}
