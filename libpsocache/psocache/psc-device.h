/* psc-device.h: PscDevice, the Vulkan device a cache works on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <vulkan/vulkan.h>
#include <psocache/psc-macros.h>

G_BEGIN_DECLS

/**
 * PscDeviceFlags:
 * @PSC_DEVICE_FLAGS_NONE: no flags
 * @PSC_DEVICE_FLAGS_VALIDATION: enable `VK_LAYER_KHRONOS_validation` and a
 *   persistent debug-utils messenger on a headless device; validation errors
 *   are logged with g_warning() and counted (see
 *   [method@Psc.Device.get_validation_error_count]).
 * @PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING: do not enable dynamic rendering on
 *   a headless device, so caches on it use the legacy render-pass backend.
 * @PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING: do not enable any
 *   descriptor-indexing feature on a headless device, even those the
 *   physical device supports.
 *   Since: 0.3
 *
 * Flags for [ctor@Psc.Device.new_headless] and [property@Psc.Device:flags]
 * (headless devices only).
 *
 * Since: 0.1
 */
typedef enum { /*< flags >*/
  PSC_DEVICE_FLAGS_NONE = 0,
  PSC_DEVICE_FLAGS_VALIDATION = 1 << 0,
  PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING = 1 << 1,
  PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING PSC_AVAILABLE_ENUMERATOR_IN_0_3 = 1 << 2,
} PscDeviceFlags;

/**
 * PscDeviceInfo:
 * @size: the size of the structure the caller passes: `sizeof
 *   (PscDeviceInfo)` as the caller's header declares it. Initialize the
 *   structure with %PSC_DEVICE_INFO_INIT
 * @instance: the application's instance
 * @physical_device: the physical device @device was created from
 * @device: the application's device
 * @get_instance_proc_addr: the `vkGetInstanceProcAddr` the application loaded
 *   its instance with; every Vulkan entry point the cache uses is loaded
 *   through it, so layers see the cache's calls
 * @api_version: the `apiVersion` the instance was created with
 * @enabled_features: (nullable): the `VkPhysicalDeviceFeatures2` chain the
 *   device was created with (its pNext chain may hold
 *   `VkPhysicalDeviceVulkan11Features`, `...12Features`, `...13Features`,
 *   `VkPhysicalDeviceDynamicRenderingFeatures` and, since 0.3,
 *   `VkPhysicalDevicePipelineCreationCacheControlFeatures` and
 *   `VkPhysicalDeviceDescriptorIndexingFeatures`). This snapshot of *enabled*
 *   features, not what the physical device supports, decides what the cache
 *   may use. %NULL means no optional feature was enabled.
 * @debug_utils: whether the instance enabled `VK_EXT_debug_utils`; if so the
 *   cache names the objects it creates
 * @allocator: (nullable): the allocation callbacks the application uses; they
 *   are passed to every Vulkan call the cache makes and must outlive the device
 * @queue_family_index: a graphics queue family (informational; the cache
 *   never submits work)
 * @queue: (nullable): a queue of that family, for tools and tests
 *
 * Describes Vulkan objects the application created, for
 * [ctor@Psc.Device.new_for_vulkan]. The structure is copied.
 *
 * The structure grows in later versions; @size says which version the
 * caller was compiled with. Rules (as for [struct@Psc.CacheOptions]): a
 * @size smaller than this first version of the structure is an error
 * (%PSC_ERROR_INVALID_ARGUMENT naming `size`); members the caller's version
 * lacks take their defaults; bytes beyond the members this library knows
 * must be zero, else %PSC_ERROR_INVALID_ARGUMENT names the offset of the
 * first non-zero byte.
 *
 * |[<!-- language="C" -->
 * PscDeviceInfo info = PSC_DEVICE_INFO_INIT;
 * info.instance = instance;
 * info.physical_device = gpu;
 * info.device = device;
 * info.get_instance_proc_addr = vkGetInstanceProcAddr;
 * info.api_version = VK_API_VERSION_1_3;
 * info.enabled_features = &features2;
 * pdev = psc_device_new_for_vulkan (&info, &error);
 * ]|
 *
 * Since: 0.1
 */
typedef struct {
  gsize size;
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;
  uint32_t api_version;
  const VkPhysicalDeviceFeatures2 *enabled_features;
  gboolean debug_utils;
  const VkAllocationCallbacks *allocator;
  uint32_t queue_family_index;
  VkQueue queue;
} PscDeviceInfo;

/**
 * PSC_DEVICE_INFO_INIT:
 *
 * Initializes a [struct@Psc.DeviceInfo]: @size set for the header the code
 * is compiled with, every other member zero.
 *
 * Since: 0.1
 */
#define PSC_DEVICE_INFO_INIT { sizeof (PscDeviceInfo), 0 }

#define PSC_TYPE_DEVICE (psc_device_get_type ())
PSC_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (PscDevice, psc_device, PSC, DEVICE, GObject)

PSC_AVAILABLE_IN_0_1
PscDevice *psc_device_new_headless (PscDeviceFlags flags, GError **error);
PSC_AVAILABLE_IN_0_1
PscDevice *psc_device_new_for_vulkan (const PscDeviceInfo *info, GError **error);

PSC_AVAILABLE_IN_0_1
const char *psc_device_get_name (PscDevice *self);
PSC_AVAILABLE_IN_0_1
guint32 psc_device_get_driver_version (PscDevice *self);
PSC_AVAILABLE_IN_0_1
guint32 psc_device_get_api_version (PscDevice *self);
PSC_AVAILABLE_IN_0_1
gboolean psc_device_get_dynamic_rendering (PscDevice *self);
PSC_AVAILABLE_IN_0_1
gboolean psc_device_get_headless (PscDevice *self);
PSC_AVAILABLE_IN_0_1
guint psc_device_get_validation_error_count (PscDevice *self);
PSC_AVAILABLE_IN_0_1
const PscDeviceInfo *psc_device_get_info (PscDevice *self);

PSC_AVAILABLE_IN_0_3
guint32 psc_device_get_vendor_id (PscDevice *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_device_get_device_id (PscDevice *self);
PSC_AVAILABLE_IN_0_3
const char *psc_device_get_driver_name (PscDevice *self);
PSC_AVAILABLE_IN_0_3
const char *psc_device_get_driver_info (PscDevice *self);
PSC_AVAILABLE_IN_0_3
const char *psc_device_get_pipeline_cache_uuid (PscDevice *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_device_get_pipeline_creation_cache_control (PscDevice *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_device_get_creation_feedback (PscDevice *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_device_get_descriptor_indexing (PscDevice *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_device_get_max_push_constants_size (PscDevice *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_device_get_vk_device (PscDevice *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_device_get_enabled_feature (PscDevice *self, const char *name);

G_END_DECLS
