/* vkobjects.c: destroying and naming cache-owned Vulkan objects (see
 * vkobjects.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkobjects.h"

#include <stdio.h>

#include <volk.h>

static const char *const kind_names[PSC_KIND_COUNT] = {
  "sampler", "descriptor-set layout", "pipeline layout",
  "compatibility render pass", "graphics pipeline", "compute pipeline",
  "shader module",
};

const char *
psc_kind_name (PscKind kind)
{
  return kind < PSC_KIND_COUNT ? kind_names[kind] : "object";
}

VkObjectType
psc_kind_object_type (PscKind kind)
{
  switch (kind)
    {
    case PSC_KIND_SAMPLER: return VK_OBJECT_TYPE_SAMPLER;
    case PSC_KIND_SET_LAYOUT: return VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT;
    case PSC_KIND_PIPELINE_LAYOUT: return VK_OBJECT_TYPE_PIPELINE_LAYOUT;
    case PSC_KIND_RENDER_PASS: return VK_OBJECT_TYPE_RENDER_PASS;
    case PSC_KIND_GRAPHICS:
    case PSC_KIND_COMPUTE: return VK_OBJECT_TYPE_PIPELINE;
    case PSC_KIND_SHADER: return VK_OBJECT_TYPE_SHADER_MODULE;
    default: return VK_OBJECT_TYPE_UNKNOWN;
    }
}

PscKind
psc_kind_for_object_type (VkObjectType type)
{
  switch (type)
    {
    case VK_OBJECT_TYPE_SAMPLER: return PSC_KIND_SAMPLER;
    case VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT: return PSC_KIND_SET_LAYOUT;
    case VK_OBJECT_TYPE_PIPELINE_LAYOUT: return PSC_KIND_PIPELINE_LAYOUT;
    case VK_OBJECT_TYPE_RENDER_PASS: return PSC_KIND_RENDER_PASS;
    case VK_OBJECT_TYPE_PIPELINE: return PSC_KIND_GRAPHICS;
    case VK_OBJECT_TYPE_SHADER_MODULE: return PSC_KIND_SHADER;
    default: return PSC_KIND_COUNT;
    }
}

void
psc_core_destroy_handle (PscCore *core, PscKind kind, uint64_t handle)
{
  const VkAllocationCallbacks *a = core->cfg.allocator;
  VkDevice d = core->cfg.device;
  switch (kind)
    {
    case PSC_KIND_SAMPLER:
      core->vk->vkDestroySampler (d, (VkSampler) handle, a);
      break;
    case PSC_KIND_SET_LAYOUT:
      core->vk->vkDestroyDescriptorSetLayout (d, (VkDescriptorSetLayout) handle, a);
      break;
    case PSC_KIND_PIPELINE_LAYOUT:
      core->vk->vkDestroyPipelineLayout (d, (VkPipelineLayout) handle, a);
      break;
    case PSC_KIND_RENDER_PASS:
      core->vk->vkDestroyRenderPass (d, (VkRenderPass) handle, a);
      break;
    case PSC_KIND_GRAPHICS:
    case PSC_KIND_COMPUTE:
      core->vk->vkDestroyPipeline (d, (VkPipeline) handle, a);
      break;
    case PSC_KIND_SHADER:
      core->vk->vkDestroyShaderModule (d, (VkShaderModule) handle, a);
      break;
    default:
      break;
    }
}

void
psc_core_name_raw (PscCore *core, VkObjectType type, uint64_t handle, const char *what,
                   uint32_t number)
{
  if (core->it.SetDebugUtilsObjectNameEXT == NULL)
    return;
  char name[96];
  snprintf (name, sizeof name, "psocache %s #%u", what, number);
  VkDebugUtilsObjectNameInfoEXT info = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
    .objectType = type,
    .objectHandle = handle,
    .pObjectName = name,
  };
  core->it.SetDebugUtilsObjectNameEXT (core->cfg.device, &info);
}

void
psc_core_name_object (PscCore *core, PscKind kind, uint64_t handle, uint32_t id)
{
  psc_core_name_raw (core, psc_kind_object_type (kind), handle, psc_kind_name (kind), id);
}
