/* descriptor-env.c: a headless device with validation, a cache, and real
 * resources wrapped for the managed descriptor tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "descriptor-env.h"

#include <string.h>

static guint32
memory_type (Env *e, guint32 bits)
{
  VkPhysicalDeviceMemoryProperties mp;

  vkGetPhysicalDeviceMemoryProperties (e->physical, &mp);
  for (guint32 i = 0; i < mp.memoryTypeCount; i++)
    if (bits & (1u << i))
      return i;
  g_assert_not_reached ();
}

static VkDeviceMemory
bind_memory (Env *e, VkMemoryRequirements *req)
{
  VkMemoryAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
    .allocationSize = req->size,
    .memoryTypeIndex = memory_type (e, req->memoryTypeBits),
  };
  VkDeviceMemory m;

  g_assert_cmpint (vkAllocateMemory (e->device, &ai, NULL, &m), ==, VK_SUCCESS);
  g_ptr_array_add (e->memories, m);
  return m;
}

/* An owned buffer wrapper (the wrapper destroys the VkBuffer). */
PscBuffer *
new_buffer (Env *e, VkDeviceSize size)
{
  g_autoptr(GError) error = NULL;
  VkBufferCreateInfo bi = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
    .size = size,
    .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
             VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
  };
  VkMemoryRequirements req;
  VkBuffer b;
  PscBuffer *buffer;

  g_assert_cmpint (vkCreateBuffer (e->device, &bi, NULL, &b), ==, VK_SUCCESS);
  vkGetBufferMemoryRequirements (e->device, b, &req);
  g_assert_cmpint (vkBindBufferMemory (e->device, b, bind_memory (e, &req), 0), ==, VK_SUCCESS);
  buffer = psc_buffer_new (e->psc, b, size, PSC_RESOURCE_FLAGS_OWNED, &error);
  g_assert_no_error (error);
  return buffer;
}

/* An owned view of a new 8x8 RGBA8 image (sampled and storage). */
PscImageView *
new_view (Env *e, PscResourceFlags extra)
{
  g_autoptr(GError) error = NULL;
  VkImageCreateInfo ii = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
    .imageType = VK_IMAGE_TYPE_2D,
    .format = VK_FORMAT_R8G8B8A8_UNORM,
    .extent = { 8, 8, 1 },
    .mipLevels = 1,
    .arrayLayers = 1,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .tiling = VK_IMAGE_TILING_OPTIMAL,
    .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
  };
  VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS,
                                    0, VK_REMAINING_ARRAY_LAYERS };
  VkImageViewCreateInfo vi = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
    .viewType = VK_IMAGE_VIEW_TYPE_2D,
    .format = VK_FORMAT_R8G8B8A8_UNORM,
    .subresourceRange = range,
  };
  VkMemoryRequirements req;
  VkImage image;
  VkImageView view;
  PscImageView *wrapper;
  VkImageSubresourceRange normalized;

  g_assert_cmpint (vkCreateImage (e->device, &ii, NULL, &image), ==, VK_SUCCESS);
  vkGetImageMemoryRequirements (e->device, image, &req);
  g_assert_cmpint (vkBindImageMemory (e->device, image, bind_memory (e, &req), 0), ==, VK_SUCCESS);
  g_ptr_array_add (e->images, image);
  vi.image = image;
  g_assert_cmpint (vkCreateImageView (e->device, &vi, NULL, &view), ==, VK_SUCCESS);
  wrapper = psc_image_view_new (e->psc, view, image, &range, 1, 1,
                                PSC_RESOURCE_FLAGS_OWNED | extra, &error);
  g_assert_no_error (error);
  /* The range is kept normalized. */
  psc_image_view_get_range (wrapper, &normalized);
  g_assert_cmpuint (normalized.levelCount, ==, 1);
  g_assert_cmpuint (normalized.layerCount, ==, 1);
  return wrapper;
}

PscSampler *
new_sampler (Env *e)
{
  g_autoptr(GError) error = NULL;
  VkSamplerCreateInfo si = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR,
    .minFilter = VK_FILTER_LINEAR,
    .maxLod = 1.0f,
  };
  VkSampler s;
  PscSampler *sampler;

  g_assert_cmpint (vkCreateSampler (e->device, &si, NULL, &s), ==, VK_SUCCESS);
  sampler = psc_sampler_new (e->psc, s, PSC_RESOURCE_FLAGS_OWNED, &error);
  g_assert_no_error (error);
  return sampler;
}

PscBufferView *
new_texel_view (Env *e, PscBuffer *buffer)
{
  g_autoptr(GError) error = NULL;
  VkBufferViewCreateInfo bvi = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
    .buffer = psc_buffer_get_handle (buffer),
    .format = VK_FORMAT_R32_SFLOAT,
    .offset = 0,
    .range = VK_WHOLE_SIZE,
  };
  VkBufferView v;
  PscBufferView *view;

  g_assert_cmpint (vkCreateBufferView (e->device, &bvi, NULL, &v), ==, VK_SUCCESS);
  view = psc_buffer_view_new (buffer, v, VK_FORMAT_R32_SFLOAT, 0, VK_WHOLE_SIZE,
                              PSC_RESOURCE_FLAGS_OWNED, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_buffer_view_get_range (view), ==, psc_buffer_get_size (buffer));
  return view;
}

/* A headless device with validation (and @flags), a cache on it. */
void
env_test_init (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  if (g_getenv ("VK_DRIVER_FILES") == NULL && g_getenv ("VK_ICD_FILENAMES") == NULL)
    g_setenv ("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", TRUE);
}

void
env_init (Env *e, PscDeviceFlags flags)
{
  g_autoptr(GError) error = NULL;

  memset (e, 0, sizeof *e);
  psc_test_keep_driver_resident ();
  e->psc = psc_device_new_headless (PSC_DEVICE_FLAGS_VALIDATION | flags, &error);
  g_assert_no_error (error);
  e->device = psc_device_get_info (e->psc)->device;
  e->physical = psc_device_get_info (e->psc)->physical_device;
  e->cache = psc_cache_new (e->psc, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_assert_no_error (error);
  e->memories = g_ptr_array_new ();
  e->images = g_ptr_array_new ();
}

/* Everything the test made is gone before this (wrappers, sets, pools). */
void
env_finish (Env *e)
{
  vkDeviceWaitIdle (e->device);
  psc_cache_close (e->cache, 0);
  g_clear_object (&e->cache);
  for (guint i = 0; i < e->images->len; i++)
    vkDestroyImage (e->device, e->images->pdata[i], NULL);
  for (guint i = 0; i < e->memories->len; i++)
    vkFreeMemory (e->device, e->memories->pdata[i], NULL);
  g_ptr_array_unref (e->images);
  g_ptr_array_unref (e->memories);
  g_assert_cmpuint (psc_device_get_validation_error_count (e->psc), ==, 0);
  g_clear_object (&e->psc);
}


PscDescriptorPool *
new_pool (Env *e, guint32 max_sets, VkDescriptorPoolCreateFlags flags)
{
  g_autoptr(GError) error = NULL;
  VkDescriptorPoolSize sizes[] = {
    { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 64 }, { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64 },
    { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 16 }, { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 16 },
    { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 64 }, { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 64 },
    { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64 }, { VK_DESCRIPTOR_TYPE_SAMPLER, 64 },
    { VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 64 }, { VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 64 },
  };
  VkDescriptorPoolCreateInfo pi = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
    .flags = flags,
    .maxSets = max_sets,
    .poolSizeCount = G_N_ELEMENTS (sizes),
    .pPoolSizes = sizes,
  };
  PscDescriptorPool *pool = psc_descriptor_pool_new (e->psc, &pi, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (psc_descriptor_pool_get_generation (pool), ==, 1);
  return pool;
}

/* Every supported type, bindings given out of order:
 *   0 uniform buffer x4, 1 storage buffer, 2 uniform buffer dynamic,
 *   3 storage buffer dynamic, 4 sampled image, 5 storage image,
 *   6 combined image sampler, 7 sampler, 8 uniform texel, 9 storage texel. */
PscDescriptorLayout *
new_layout (Env *e, const VkDescriptorSetLayoutBinding *b, guint n, const void *next,
            VkDescriptorSetLayoutCreateFlags flags, GError **error)
{
  VkDescriptorSetLayoutCreateInfo li = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .pNext = next,
    .flags = flags,
    .bindingCount = n,
    .pBindings = b,
  };
  return psc_descriptor_layout_new (e->cache, &li, error);
}

