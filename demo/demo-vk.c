/* demo-vk.c: loading the demo's private Vulkan function table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "demo-vk.h"

#include <string.h>

gboolean
psc_demo_vk_load (PscDemoVk *vk, const PscDeviceInfo *info, GError **error)
{
  memset (vk, 0, sizeof *vk);

  if (info == NULL || info->get_instance_proc_addr == NULL || info->device == VK_NULL_HANDLE)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "the device has no vkGetInstanceProcAddr or VkDevice");
      return FALSE;
    }
  if (info->queue == VK_NULL_HANDLE)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "the device was created without a queue; the demo needs one to submit work");
      return FALSE;
    }

  vk->instance = info->instance;
  vk->physical_device = info->physical_device;
  vk->device = info->device;
  vk->queue = info->queue;
  vk->queue_family_index = info->queue_family_index;
  vk->allocator = info->allocator;

#define LOAD_INSTANCE(name) \
  vk->name = (PFN_##name) info->get_instance_proc_addr (info->instance, #name); \
  if (vk->name == NULL) \
    { \
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE, "cannot load %s", #name); \
      return FALSE; \
    }
  PSC_DEMO_VK_INSTANCE_FUNCS (LOAD_INSTANCE)
#undef LOAD_INSTANCE

#define LOAD_DEVICE(name) \
  vk->name = (PFN_##name) vk->vkGetDeviceProcAddr (info->device, #name); \
  if (vk->name == NULL) \
    { \
      g_set_error (error, PSC_ERROR, PSC_ERROR_NO_DEVICE, "cannot load %s", #name); \
      return FALSE; \
    }
  PSC_DEMO_VK_DEVICE_FUNCS (LOAD_DEVICE)
#undef LOAD_DEVICE

  vk->vkCmdBeginRendering = (PFN_vkCmdBeginRendering)
    vk->vkGetDeviceProcAddr (info->device, "vkCmdBeginRendering");
  if (vk->vkCmdBeginRendering == NULL)
    vk->vkCmdBeginRendering = (PFN_vkCmdBeginRendering)
      vk->vkGetDeviceProcAddr (info->device, "vkCmdBeginRenderingKHR");
  vk->vkCmdEndRendering = (PFN_vkCmdEndRendering)
    vk->vkGetDeviceProcAddr (info->device, "vkCmdEndRendering");
  if (vk->vkCmdEndRendering == NULL)
    vk->vkCmdEndRendering = (PFN_vkCmdEndRendering)
      vk->vkGetDeviceProcAddr (info->device, "vkCmdEndRenderingKHR");

  return TRUE;
}

int
psc_demo_vk_memory_type (const PscDemoVk *vk, guint32 type_bits,
                         VkMemoryPropertyFlags required)
{
  VkPhysicalDeviceMemoryProperties props;

  vk->vkGetPhysicalDeviceMemoryProperties (vk->physical_device, &props);
  for (guint32 i = 0; i < props.memoryTypeCount; i++)
    if ((type_bits & (1u << i)) != 0 &&
        (props.memoryTypes[i].propertyFlags & required) == required)
      return (int) i;
  return -1;
}
