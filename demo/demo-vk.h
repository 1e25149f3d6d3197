/* demo-vk.h: the demo's private Vulkan function table.
 *
 * The scene never links the loader's prototypes: every entry point comes from
 * the vkGetInstanceProcAddr the PscDevice was created with, so it works with
 * whatever loader (and layers) the application uses.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>

G_BEGIN_DECLS

#define PSC_DEMO_VK_INSTANCE_FUNCS(X) \
  X (vkGetDeviceProcAddr) \
  X (vkGetPhysicalDeviceProperties) \
  X (vkGetPhysicalDeviceMemoryProperties) \
  X (vkGetPhysicalDeviceFormatProperties)

#define PSC_DEMO_VK_DEVICE_FUNCS(X) \
  X (vkDeviceWaitIdle) \
  X (vkQueueSubmit) \
  X (vkCreateFence) \
  X (vkDestroyFence) \
  X (vkWaitForFences) \
  X (vkResetFences) \
  X (vkCreateCommandPool) \
  X (vkDestroyCommandPool) \
  X (vkAllocateCommandBuffers) \
  X (vkFreeCommandBuffers) \
  X (vkBeginCommandBuffer) \
  X (vkEndCommandBuffer) \
  X (vkResetCommandBuffer) \
  X (vkAllocateMemory) \
  X (vkFreeMemory) \
  X (vkMapMemory) \
  X (vkUnmapMemory) \
  X (vkInvalidateMappedMemoryRanges) \
  X (vkCreateBuffer) \
  X (vkDestroyBuffer) \
  X (vkGetBufferMemoryRequirements) \
  X (vkBindBufferMemory) \
  X (vkCreateImage) \
  X (vkDestroyImage) \
  X (vkGetImageMemoryRequirements) \
  X (vkBindImageMemory) \
  X (vkCreateImageView) \
  X (vkDestroyImageView) \
  X (vkCreateRenderPass) \
  X (vkDestroyRenderPass) \
  X (vkCreateFramebuffer) \
  X (vkDestroyFramebuffer) \
  X (vkCreateDescriptorPool) \
  X (vkDestroyDescriptorPool) \
  X (vkAllocateDescriptorSets) \
  X (vkUpdateDescriptorSets) \
  X (vkCmdBeginRenderPass) \
  X (vkCmdEndRenderPass) \
  X (vkCmdBindPipeline) \
  X (vkCmdBindDescriptorSets) \
  X (vkCmdPushConstants) \
  X (vkCmdBindVertexBuffers) \
  X (vkCmdSetViewport) \
  X (vkCmdSetScissor) \
  X (vkCmdSetDepthBias) \
  X (vkCmdDraw) \
  X (vkCmdDispatch) \
  X (vkCmdPipelineBarrier) \
  X (vkCmdCopyImageToBuffer) \
  X (vkCmdCopyBufferToImage)

/* Loaded only when present (Vulkan 1.3 core, or the KHR extension). */
#define PSC_DEMO_VK_OPTIONAL_DEVICE_FUNCS(X) \
  X (vkCmdBeginRendering) \
  X (vkCmdEndRendering)

typedef struct {
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  guint32 queue_family_index;
  const VkAllocationCallbacks *allocator;
#define PSC_DEMO_VK_MEMBER(name) PFN_##name name;
  PSC_DEMO_VK_INSTANCE_FUNCS (PSC_DEMO_VK_MEMBER)
  PSC_DEMO_VK_DEVICE_FUNCS (PSC_DEMO_VK_MEMBER)
  PSC_DEMO_VK_OPTIONAL_DEVICE_FUNCS (PSC_DEMO_VK_MEMBER)
#undef PSC_DEMO_VK_MEMBER
} PscDemoVk;

/* Loads every entry point of the device @info describes. Fails (naming the
 * entry point) if a required one is missing or if @info has no queue. */
gboolean psc_demo_vk_load (PscDemoVk *vk, const PscDeviceInfo *info, GError **error);

/* A memory type index with @required property flags among @type_bits, or -1. */
int psc_demo_vk_memory_type (const PscDemoVk *vk, guint32 type_bits,
                             VkMemoryPropertyFlags required);

G_END_DECLS
