/* bench-family.c: the benchmark pipeline family (see bench-family.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-family.h"

#include <stdio.h>
#include <stdlib.h>

#include "async.vert.h"
#include "async.frag.h"

/* Pipeline i of a phase. Everything that changes the amount of compiler
 * work (attachment count and formats, blending, unrolled trip counts,
 * branch selectors) depends only on i % 16, identically in every phase, so
 * the phases are equivalent and any run of 16 consecutive pipelines holds
 * one of each cost class. SALT (a float immediate in both stages) depends
 * on the phase and i, so no two pipelines of the run share a stage's code. */
void
fill_async (AsyncInfo *b, uint32_t phase, uint32_t i, const BenchObjects *o)
{
  uint32_t colors = 1 + (i % 4);
  uint32_t fmt = (i / 4) % 2;
  VkBool32 blend = (i / 8) % 2;
  int32_t iters = 4 + 4 * (int32_t) ((i + i / 4) % 4);          /* 4..16 */
  int32_t deform = (int32_t) ((i / 4) % 4);
  int32_t lights = 2 + 2 * (int32_t) ((i + 3 * (i / 4)) % 4);   /* 2..8 */
  int32_t mode = (int32_t) ((i + i / 2) % 4);
  VkBool32 fog = (i / 2) % 2;
  float salt = (float) (phase * 65536u + i + 1u);

  memset (b, 0, sizeof *b);
  memcpy (b->vs_data + 0, &iters, 4);
  memcpy (b->vs_data + 4, &deform, 4);
  memcpy (b->vs_data + 8, &salt, 4);
  memcpy (b->fs_data + 0, &lights, 4);
  memcpy (b->fs_data + 4, &mode, 4);
  memcpy (b->fs_data + 8, &fog, 4);
  memcpy (b->fs_data + 12, &salt, 4);
  b->vs_entries[0] = (VkSpecializationMapEntry) { 0, 0, 4 };
  b->vs_entries[1] = (VkSpecializationMapEntry) { 1, 4, 4 };
  b->vs_entries[2] = (VkSpecializationMapEntry) { 2, 8, 4 };
  b->fs_entries[0] = (VkSpecializationMapEntry) { 0, 0, 4 };
  b->fs_entries[1] = (VkSpecializationMapEntry) { 1, 4, 4 };
  b->fs_entries[2] = (VkSpecializationMapEntry) { 2, 8, 4 };
  b->fs_entries[3] = (VkSpecializationMapEntry) { 3, 12, 4 };
  b->spec[0] = (VkSpecializationInfo) { 3, b->vs_entries, sizeof b->vs_data, b->vs_data };
  b->spec[1] = (VkSpecializationInfo) { 4, b->fs_entries, sizeof b->fs_data, b->fs_data };
  b->stages[0] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = o->vert, .pName = "main",
    .pSpecializationInfo = &b->spec[0] };
  b->stages[1] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = o->frag, .pName = "main",
    .pSpecializationInfo = &b->spec[1] };

  FILL_FIXED_STATE (b, colors, fmt, blend, o->layout);
}

/* A fresh cache made with *opts, with the family's shaders and layout. */
PscCache *
async_cache_new_full (PscDevice *device, const PscCacheOptions *opts, BenchObjects *o)
{
  g_autoptr(GError) error = NULL;
  PscCache *cache = psc_cache_new_full (device, PSC_BACKEND_DYNAMIC_RENDERING,
                                        PSC_CACHE_FLAGS_NONE, opts, &error);
  if (cache == NULL)
    die ("cache", error);
  o->vert = psc_cache_register_shader (cache, async_vert_spv, sizeof async_vert_spv, &error);
  if (!o->vert)
    die ("vertex shader", error);
  o->frag = psc_cache_register_shader (cache, async_frag_spv, sizeof async_frag_spv, &error);
  if (!o->frag)
    die ("fragment shader", error);
  VkSamplerCreateInfo sci = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR, .maxLod = 1.0f };
  VkSampler sampler = psc_cache_get_sampler (cache, &sci, &error);
  if (!sampler)
    die ("sampler", error);
  VkDescriptorSetLayoutBinding bindings[2] = {
    { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
    { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, &sampler },
  };
  VkDescriptorSetLayoutCreateInfo dci = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 2, .pBindings = bindings };
  VkDescriptorSetLayout set_layout = psc_cache_get_descriptor_set_layout (cache, &dci, &error);
  if (!set_layout)
    die ("set layout", error);
  VkPushConstantRange push = { VK_SHADER_STAGE_VERTEX_BIT, 0, 64 };
  VkPipelineLayoutCreateInfo lci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 1, .pSetLayouts = &set_layout,
    .pushConstantRangeCount = 1, .pPushConstantRanges = &push };
  o->layout = psc_cache_get_pipeline_layout (cache, &lci, &error);
  if (!o->layout)
    die ("pipeline layout", error);
  return cache;
}

/* A fresh cache for one phase, with the async family's shaders and layout. */
PscCache *
async_cache_new (PscDevice *device, uint32_t workers, uint32_t job_capacity, BenchObjects *o)
{
  PscCacheOptions opts = PSC_CACHE_OPTIONS_INIT;
  opts.workers = workers;
  opts.job_capacity = job_capacity;
  return async_cache_new_full (device, &opts, o);
}

AsyncInfo *
async_infos_new (uint32_t phase, uint32_t n, const BenchObjects *o)
{
  AsyncInfo *infos = calloc (n, sizeof *infos);
  if (infos == NULL)
    die ("out of memory", NULL);
  for (uint32_t i = 0; i < n; i++)
    fill_async (&infos[i], phase, i, o);
  return infos;
}

void
json_escape (char *out, size_t size, const char *s)
{
  size_t n = 0;
  for (; *s && n + 7 < size; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (c == '"' || c == '\\')
        {
          out[n++] = '\\';
          out[n++] = (char) c;
        }
      else if (c < 0x20)
        n += (size_t) snprintf (out + n, size - n, "\\u%04x", c);
      else
        out[n++] = (char) c;
    }
  out[n] = '\0';
}

/* "<device name> / <driver name> <driver info>" from
 * VkPhysicalDeviceDriverProperties (Vulkan 1.2), else the raw version. */
void
driver_string (PscDevice *device, char *out, size_t size)
{
  const PscDeviceInfo *info = psc_device_get_info (device);
  char raw[1024];
  PFN_vkGetPhysicalDeviceProperties2 props2 = NULL;
  if (info->api_version >= VK_API_VERSION_1_2)
    props2 = (PFN_vkGetPhysicalDeviceProperties2)
      info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceProperties2");
  if (props2 != NULL)
    {
      VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
      VkPhysicalDeviceProperties2 p = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &drv };
      props2 (info->physical_device, &p);
      snprintf (raw, sizeof raw, "%s / %s %s", p.properties.deviceName, drv.driverName,
                drv.driverInfo);
    }
  else
    snprintf (raw, sizeof raw, "%s / driver version 0x%08x", psc_device_get_name (device),
              psc_device_get_driver_version (device));
  json_escape (out, size, raw);
}

void
bench_device_identity (PscDevice *device, PscDeviceIdentity *id)
{
  const PscDeviceInfo *info = psc_device_get_info (device);
  PFN_vkGetPhysicalDeviceProperties props = (PFN_vkGetPhysicalDeviceProperties)
    info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceProperties");
  if (props == NULL)
    die ("vkGetPhysicalDeviceProperties", NULL);
  VkPhysicalDeviceProperties p;
  props (info->physical_device, &p);
  memset (id, 0, sizeof *id);
  id->vendor_id = p.vendorID;
  id->device_id = p.deviceID;
  id->driver_version = p.driverVersion;
  memcpy (id->uuid, p.pipelineCacheUUID, VK_UUID_SIZE);
}
