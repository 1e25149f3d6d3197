/* bench-descriptors.c: psc-bench descriptors, managed descriptor writes
 * against raw vkUpdateDescriptorSets, and uniform-set cache hits (issue
 * 13).
 *
 * A typical set of 4 bindings (uniform buffer, storage buffer, combined
 * image sampler, dynamic uniform buffer) on a headless device. N managed
 * sets and N raw sets of the same layout; per batch, one timed loop over
 * the N sets:
 *
 *   W: stage the 4 writes on the set's writer and commit them (the shared
 *      write plan's validation, one vkUpdateDescriptorSets of 4 writes,
 *      the owners swapped);
 *   R: one vkUpdateDescriptorSets of the same 4 writes, prebuilt, on the
 *      raw set (only dstSet is set in the loop);
 *   U: psc_uniform_set_cache_lookup of one of 64 cached resource lists,
 *      round robin (every lookup a hit).
 *
 *   {"bench":"descriptors","sets":N,"write_plan_ns":W,"raw_update_ns":R,
 *    "ratio":W/R,"uniform_set_hit_ns":U,"batches":B,"allocs_per_commit":A}
 *
 * Medians over B batches, ns per set (or lookup); A: heap allocations per
 * managed commit once the writers' arrays have grown (malloc interposed).
 * Goal (issue 13, on the H200): ratio <= 1.5, U <= 100 ns.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"

#include <psocache/psocache.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHED_LISTS 64

typedef struct {
  VkDevice device;
  VkPhysicalDevice physical;
  PFN_vkCreateBuffer CreateBuffer;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements;
  PFN_vkAllocateMemory AllocateMemory;
  PFN_vkFreeMemory FreeMemory;
  PFN_vkBindBufferMemory BindBufferMemory;
  PFN_vkCreateImage CreateImage;
  PFN_vkDestroyImage DestroyImage;
  PFN_vkGetImageMemoryRequirements GetImageMemoryRequirements;
  PFN_vkBindImageMemory BindImageMemory;
  PFN_vkCreateImageView CreateImageView;
  PFN_vkCreateSampler CreateSampler;
  PFN_vkUpdateDescriptorSets UpdateDescriptorSets;
  PFN_vkDeviceWaitIdle DeviceWaitIdle;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
  GPtrArray *memories;
} Vk;

static void
vk_load (Vk *vk, PscDevice *device)
{
  const PscDeviceInfo *info = psc_device_get_info (device);
  PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)
    info->get_instance_proc_addr (info->instance, "vkGetDeviceProcAddr");

  vk->device = info->device;
  vk->physical = info->physical_device;
#define LOAD(n) vk->n = (PFN_vk##n) gdpa (info->device, "vk" #n); if (vk->n == NULL) die ("vk" #n, NULL)
  LOAD (CreateBuffer);
  LOAD (GetBufferMemoryRequirements);
  LOAD (AllocateMemory);
  LOAD (FreeMemory);
  LOAD (BindBufferMemory);
  LOAD (CreateImage);
  LOAD (DestroyImage);
  LOAD (GetImageMemoryRequirements);
  LOAD (BindImageMemory);
  LOAD (CreateImageView);
  LOAD (CreateSampler);
  LOAD (UpdateDescriptorSets);
  LOAD (DeviceWaitIdle);
#undef LOAD
  vk->GetPhysicalDeviceMemoryProperties = (PFN_vkGetPhysicalDeviceMemoryProperties)
    info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceMemoryProperties");
  vk->memories = g_ptr_array_new ();
}

static VkDeviceMemory
bind_memory (Vk *vk, const VkMemoryRequirements *req)
{
  VkPhysicalDeviceMemoryProperties mp;
  VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req->size };
  VkDeviceMemory m;

  vk->GetPhysicalDeviceMemoryProperties (vk->physical, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
    if (req->memoryTypeBits & (1u << i))
      {
        ai.memoryTypeIndex = i;
        break;
      }
  if (vk->AllocateMemory (vk->device, &ai, NULL, &m) != VK_SUCCESS)
    die ("vkAllocateMemory", NULL);
  g_ptr_array_add (vk->memories, m);
  return m;
}

static PscBuffer *
make_buffer (Vk *vk, PscDevice *device, VkDeviceSize size)
{
  GError *error = NULL;
  VkBufferCreateInfo bi = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
    .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
  };
  VkMemoryRequirements req;
  VkBuffer b;
  PscBuffer *buffer;

  if (vk->CreateBuffer (vk->device, &bi, NULL, &b) != VK_SUCCESS)
    die ("vkCreateBuffer", NULL);
  vk->GetBufferMemoryRequirements (vk->device, b, &req);
  vk->BindBufferMemory (vk->device, b, bind_memory (vk, &req), 0);
  buffer = psc_buffer_new (device, b, size, PSC_RESOURCE_FLAGS_OWNED, &error);
  if (buffer == NULL)
    die ("psc_buffer_new", error);
  return buffer;
}

static PscImageView *
make_view (Vk *vk, PscDevice *device, VkImage *out_image)
{
  GError *error = NULL;
  VkImageCreateInfo ii = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
    .format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { 16, 16, 1 }, .mipLevels = 1, .arrayLayers = 1,
    .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
  };
  VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
  VkImageViewCreateInfo vi = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .viewType = VK_IMAGE_VIEW_TYPE_2D,
    .format = VK_FORMAT_R8G8B8A8_UNORM, .subresourceRange = range,
  };
  VkMemoryRequirements req;
  VkImageView v;
  PscImageView *view;

  if (vk->CreateImage (vk->device, &ii, NULL, out_image) != VK_SUCCESS)
    die ("vkCreateImage", NULL);
  vk->GetImageMemoryRequirements (vk->device, *out_image, &req);
  vk->BindImageMemory (vk->device, *out_image, bind_memory (vk, &req), 0);
  vi.image = *out_image;
  if (vk->CreateImageView (vk->device, &vi, NULL, &v) != VK_SUCCESS)
    die ("vkCreateImageView", NULL);
  view = psc_image_view_new (device, v, *out_image, &range, 1, 1, PSC_RESOURCE_FLAGS_OWNED, &error);
  if (view == NULL)
    die ("psc_image_view_new", error);
  return view;
}

static const VkDescriptorSetLayoutBinding typical[] = {
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL_GRAPHICS, NULL },
  { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
};

typedef struct {
  PscBuffer *ubo, *ssbo;
  PscImageView *view;
  PscSampler *sampler;
} Resources;

static void
stage (PscDescriptorWriter *w, const Resources *r, VkDeviceSize ubo_offset)
{
  psc_descriptor_writer_write_buffer (w, 0, 0, r->ubo, ubo_offset, 256);
  psc_descriptor_writer_write_buffer (w, 1, 0, r->ssbo, 0, VK_WHOLE_SIZE);
  psc_descriptor_writer_write_image (w, 2, 0, r->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, r->sampler);
  psc_descriptor_writer_write_buffer (w, 3, 0, r->ubo, 0, 128);
}

int
bench_descriptors (int argc, char **argv)
{
  uint32_t n = 1000, batches = 31;
  GError *error = NULL;
  PscDevice *device;
  PscCache *cache;
  Vk vk;
  Resources r;
  VkImage image;
  VkSampler vk_sampler;
  VkSamplerCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .maxLod = 1.0f };
  VkDescriptorSetLayoutCreateInfo li = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = G_N_ELEMENTS (typical), .pBindings = typical,
  };
  VkDescriptorPoolSize sizes[4];
  VkDescriptorPoolCreateInfo pi = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .poolSizeCount = 4, .pPoolSizes = sizes,
  };
  PscDescriptorLayout *layout;
  PscDescriptorPool *pool;
  PscDescriptorSet **sets;
  PscDescriptorWriter **writers;
  VkDescriptorSet *raw;
  VkDescriptorBufferInfo buffer_infos[3];
  VkDescriptorImageInfo image_info;
  VkWriteDescriptorSet writes[4];
  PscUniformSetCache *usc;
  PscUniformResource lists[CACHED_LISTS][4];
  double *w_ns, *r_ns, *u_ns;
  uint64_t allocs = 0, commits = 0;
  double wm, rm, um;

  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--sets") == 0 && i + 1 < argc && parse_u32 (argv[i + 1], &n) && n > 0)
        i++;
      else if (strcmp (argv[i], "--batches") == 0 && i + 1 < argc && parse_u32 (argv[i + 1], &batches) &&
               batches > 0)
        i++;
      else
        {
          fprintf (stderr, "usage: psc-bench descriptors [--sets N] [--batches B]\n");
          return 2;
        }
    }
  calibrate_ticks ();

  device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("psc_device_new_headless", error);
  cache = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  if (cache == NULL)
    die ("psc_cache_new", error);
  vk_load (&vk, device);
  r.ubo = make_buffer (&vk, device, 64 * 1024);
  r.ssbo = make_buffer (&vk, device, 4096);
  r.view = make_view (&vk, device, &image);
  vk.CreateSampler (vk.device, &si, NULL, &vk_sampler);
  r.sampler = psc_sampler_new (device, vk_sampler, PSC_RESOURCE_FLAGS_OWNED, &error);
  if (r.sampler == NULL)
    die ("psc_sampler_new", error);

  layout = psc_descriptor_layout_new (cache, &li, &error);
  if (layout == NULL)
    die ("psc_descriptor_layout_new", error);
  for (int i = 0; i < 4; i++)
    sizes[i] = (VkDescriptorPoolSize) { typical[i].descriptorType, 2 * n };
  pi.maxSets = 2 * n;
  pool = psc_descriptor_pool_new (device, &pi, &error);
  if (pool == NULL)
    die ("psc_descriptor_pool_new", error);

  sets = g_new (PscDescriptorSet *, n);
  writers = g_new (PscDescriptorWriter *, n);
  raw = g_new (VkDescriptorSet, n);
  for (uint32_t i = 0; i < n; i++)
    {
      sets[i] = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
      if (sets[i] == NULL)
        die ("allocate_managed", error);
      writers[i] = psc_descriptor_set_begin_write (sets[i], &error);
      stage (writers[i], &r, 0);
      if (!psc_descriptor_writer_commit (writers[i], &error))
        die ("first commit", error);
      if (!psc_descriptor_pool_allocate_untracked (pool, psc_descriptor_layout_get_handle (layout), &raw[i], &error))
        die ("allocate_untracked", error);
    }

  /* The raw writes: the same four descriptors. */
  buffer_infos[0] = (VkDescriptorBufferInfo) { psc_buffer_get_handle (r.ubo), 256, 256 };
  buffer_infos[1] = (VkDescriptorBufferInfo) { psc_buffer_get_handle (r.ssbo), 0, VK_WHOLE_SIZE };
  buffer_infos[2] = (VkDescriptorBufferInfo) { psc_buffer_get_handle (r.ubo), 0, 128 };
  image_info = (VkDescriptorImageInfo) { vk_sampler, psc_image_view_get_handle (r.view),
                                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
  for (int i = 0; i < 4; i++)
    writes[i] = (VkWriteDescriptorSet) {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = (uint32_t) i, .descriptorCount = 1,
      .descriptorType = typical[i].descriptorType,
    };
  writes[0].pBufferInfo = &buffer_infos[0];
  writes[1].pBufferInfo = &buffer_infos[1];
  writes[2].pImageInfo = &image_info;
  writes[3].pBufferInfo = &buffer_infos[2];

  usc = psc_uniform_set_cache_new (device, CACHED_LISTS, &error);
  if (usc == NULL)
    die ("psc_uniform_set_cache_new", error);
  psc_uniform_set_cache_begin_frame (usc, 1, 0);
  for (int k = 0; k < CACHED_LISTS; k++)
    {
      lists[k][0] = (PscUniformResource) { .binding = 0, .buffer = r.ubo, .offset = 256 * (guint64) k, .range = 256 };
      lists[k][1] = (PscUniformResource) { .binding = 1, .buffer = r.ssbo, .range = VK_WHOLE_SIZE };
      lists[k][2] = (PscUniformResource) { .binding = 2, .image_view = r.view,
                                           .image_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                           .sampler = r.sampler };
      lists[k][3] = (PscUniformResource) { .binding = 3, .buffer = r.ubo, .range = 128 };
      if (psc_uniform_set_cache_lookup (usc, VK_NULL_HANDLE, 0, layout, 4, lists[k], &error) == NULL)
        die ("uniform set", error);
    }

  w_ns = g_new (double, batches);
  r_ns = g_new (double, batches);
  u_ns = g_new (double, batches);
  for (uint32_t b = 0; b < batches; b++)
    {
      uint64_t t0, a0;
      VkDeviceSize offset = 256 * (1 + b % 2);

      a0 = atomic_load (&bench_alloc_count);
      t0 = ticks ();
      for (uint32_t i = 0; i < n; i++)
        {
          stage (writers[i], &r, offset);
          if (!psc_descriptor_writer_commit (writers[i], &error))
            die ("commit", error);
        }
      w_ns[b] = (double) (ticks () - t0) * ns_per_tick / n;
      allocs += atomic_load (&bench_alloc_count) - a0;
      commits += n;

      buffer_infos[0].offset = offset;
      t0 = ticks ();
      for (uint32_t i = 0; i < n; i++)
        {
          for (int k = 0; k < 4; k++)
            writes[k].dstSet = raw[i];
          vk.UpdateDescriptorSets (vk.device, 4, writes, 0, NULL);
        }
      r_ns[b] = (double) (ticks () - t0) * ns_per_tick / n;

      t0 = ticks ();
      for (uint32_t i = 0; i < n; i++)
        opaque (psc_uniform_set_cache_lookup (usc, VK_NULL_HANDLE, 0, layout, 4, lists[i % CACHED_LISTS], NULL));
      u_ns[b] = (double) (ticks () - t0) * ns_per_tick / n;
    }
  wm = median (w_ns, batches);
  rm = median (r_ns, batches);
  um = median (u_ns, batches);
  if (psc_uniform_set_cache_get_misses (usc) != CACHED_LISTS)
    die ("uniform-set lookups in the timed loop missed", NULL);
  printf ("{\"bench\":\"descriptors\",\"sets\":%u,\"write_plan_ns\":%.1f,\"raw_update_ns\":%.1f,"
          "\"ratio\":%.3f,\"uniform_set_hit_ns\":%.1f,\"batches\":%u,\"allocs_per_commit\":%.3f,"
          "\"device\":\"%s\"}\n",
          n, wm, rm, wm / rm, um, batches, (double) allocs / (double) commits, psc_device_get_name (device));

  vk.DeviceWaitIdle (vk.device);
  g_object_unref (usc);
  for (uint32_t i = 0; i < n; i++)
    {
      psc_descriptor_writer_unref (writers[i]);
      psc_descriptor_set_unref (sets[i]);
    }
  psc_descriptor_pool_unref (pool);
  psc_descriptor_layout_unref (layout);
  psc_buffer_unref (r.ubo);
  psc_buffer_unref (r.ssbo);
  psc_image_view_unref (r.view);
  psc_sampler_unref (r.sampler);
  vk.DestroyImage (vk.device, image, NULL);
  for (guint i = 0; i < vk.memories->len; i++)
    vk.FreeMemory (vk.device, vk.memories->pdata[i], NULL);
  g_ptr_array_unref (vk.memories);
  psc_cache_close (cache, 0);
  g_object_unref (cache);
  g_object_unref (device);
  g_free (sets);
  g_free (writers);
  g_free (raw);
  g_free (w_ns);
  g_free (r_ns);
  g_free (u_ns);
  return 0;
}
