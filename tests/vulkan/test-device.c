/* test-device.c: PscDevice's identity and enabled-feature properties on
 * lavapipe with the validation layer: what a wrapped device reports is what
 * the driver says (vendor, device, driver name and info, pipeline-cache
 * UUID) and what the application enabled (each feature on and off, through
 * the core 1.2/1.3 structures and the extension structures), and what it
 * reports when the application's API version hides a feature.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

/* The driver's own answers, asked directly. */
static void
driver_properties (PscTestHarness *h, VkPhysicalDeviceDriverProperties *driver)
{
  VkPhysicalDeviceProperties2 p2 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
    .pNext = driver,
  };
  *driver = (VkPhysicalDeviceDriverProperties) {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
  };
  vkGetPhysicalDeviceProperties2 (h->physical_device, &p2);
}

static void
supported_features (PscTestHarness *h, VkPhysicalDeviceVulkan12Features *s12,
                    VkPhysicalDeviceVulkan13Features *s13)
{
  *s13 = (VkPhysicalDeviceVulkan13Features) { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
  *s12 = (VkPhysicalDeviceVulkan12Features) { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              .pNext = s13 };
  VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = s12 };
  vkGetPhysicalDeviceFeatures2 (h->physical_device, &f);
}

/* A VkDevice of the harness's physical device created with @created, and
 * the PscDevice wrapping it with @api_version as the application's
 * apiVersion and @described as its enabled features (the same as @created
 * unless the driver lacks what the test describes: the device's snapshot
 * is what the application says, it calls nothing with it). */
typedef struct {
  VkDevice device;
  PscDevice *psc;
} Wrapped;

static Wrapped
wrap_described (PscTestHarness *h, const VkPhysicalDeviceFeatures2 *created,
                const VkPhysicalDeviceFeatures2 *described, guint32 api_version)
{
  Wrapped w = { 0 };
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
    .queueFamilyIndex = h->queue_family,
    .queueCount = 1,
    .pQueuePriorities = &priority,
  };
  VkDeviceCreateInfo ci = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
    .pNext = created,
    .queueCreateInfoCount = 1,
    .pQueueCreateInfos = &queue,
  };
  g_autoptr(GError) error = NULL;
  PscDeviceInfo info = PSC_DEVICE_INFO_INIT;

  g_assert_cmpint (vkCreateDevice (h->physical_device, &ci, NULL, &w.device), ==, VK_SUCCESS);
  info.instance = h->instance;
  info.physical_device = h->physical_device;
  info.device = w.device;
  info.get_instance_proc_addr = vkGetInstanceProcAddr;
  info.api_version = api_version;
  info.enabled_features = described;
  info.queue_family_index = h->queue_family;
  w.psc = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_nonnull (w.psc);
  return w;
}

static Wrapped
wrap (PscTestHarness *h, const VkPhysicalDeviceFeatures2 *features, guint32 api_version)
{
  return wrap_described (h, features, features, api_version);
}

static void
unwrap (Wrapped *w)
{
  g_clear_object (&w->psc);
  vkDestroyDevice (w->device, NULL);
}

/* The getters and the properties agree, and their values are @expected. */
static void
assert_features (PscDevice *d, gboolean cache_control, gboolean feedback, gboolean indexing)
{
  gboolean p_cc = !cache_control, p_fb = !feedback, p_di = !indexing;

  g_object_get (d, "pipeline-creation-cache-control", &p_cc, "creation-feedback", &p_fb,
                "descriptor-indexing", &p_di, NULL);
  g_assert_cmpint (psc_device_get_pipeline_creation_cache_control (d), ==, cache_control);
  g_assert_cmpint (p_cc, ==, cache_control);
  g_assert_cmpint (psc_device_get_creation_feedback (d), ==, feedback);
  g_assert_cmpint (p_fb, ==, feedback);
  g_assert_cmpint (psc_device_get_descriptor_indexing (d), ==, indexing);
  g_assert_cmpint (p_di, ==, indexing);
}

static void
test_identity (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscDevice *d = h->psc_device;
  VkPhysicalDeviceDriverProperties driver;
  g_autofree char *name = NULL, *driver_name = NULL, *driver_info = NULL, *uuid = NULL;
  guint vendor = 0, device = 0;
  GString *expected_uuid = g_string_new (NULL);

  driver_properties (h, &driver);
  for (guint i = 0; i < VK_UUID_SIZE; i++)
    g_string_append_printf (expected_uuid, "%02x", h->properties.pipelineCacheUUID[i]);

  g_object_get (d, "name", &name, "vendor-id", &vendor, "device-id", &device,
                "driver-name", &driver_name, "driver-info", &driver_info,
                "pipeline-cache-uuid", &uuid, NULL);
  g_assert_cmpuint (psc_device_get_vendor_id (d), ==, h->properties.vendorID);
  g_assert_cmpuint (vendor, ==, h->properties.vendorID);
  /* lavapipe is a Mesa driver (VK_VENDOR_ID_MESA), not a PCI vendor. */
  g_assert_cmpuint (vendor, ==, VK_VENDOR_ID_MESA);
  g_assert_cmpuint (psc_device_get_device_id (d), ==, h->properties.deviceID);
  g_assert_cmpuint (device, ==, h->properties.deviceID);
  g_assert_cmpstr (name, ==, h->properties.deviceName);

  g_assert_cmpstr (psc_device_get_driver_name (d), ==, driver.driverName);
  g_assert_cmpstr (driver_name, ==, driver.driverName);
  g_assert_cmpstr (driver_name, ==, "llvmpipe");
  g_assert_cmpstr (psc_device_get_driver_info (d), ==, driver.driverInfo);
  g_assert_cmpstr (driver_info, ==, driver.driverInfo);
  g_assert_cmpuint (strlen (driver_info), >, 0);

  g_assert_cmpuint (strlen (uuid), ==, 32);
  g_assert_cmpstr (uuid, ==, expected_uuid->str);
  g_assert_cmpstr (psc_device_get_pipeline_cache_uuid (d), ==, expected_uuid->str);
  for (const char *c = uuid; *c != '\0'; c++)
    g_assert_true (g_ascii_isdigit (*c) || (*c >= 'a' && *c <= 'f'));
  g_string_free (expected_uuid, TRUE);

  /* The harness enables dynamic rendering and, as supported,
   * pipelineCreationCacheControl (lavapipe has it), no descriptor
   * indexing; 1.3 has feedback. */
  g_assert_true (psc_device_get_dynamic_rendering (d));
  assert_features (d, h->features13.pipelineCreationCacheControl != VK_FALSE, TRUE, FALSE);
  g_assert_true (h->features13.pipelineCreationCacheControl);

  /* Properties are read-only. */
  g_assert_cmpint (g_object_class_find_property (G_OBJECT_GET_CLASS (d), "vendor-id")->flags &
                   G_PARAM_WRITABLE, ==, 0);
  g_assert_cmpint (g_object_class_find_property (G_OBJECT_GET_CLASS (d), "pipeline-cache-uuid")->flags &
                   G_PARAM_WRITABLE, ==, 0);
  psc_test_harness_finish (h);
}

/* What the application enabled, through each structure that can say it. */
static void
test_enabled_features (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  VkPhysicalDeviceVulkan12Features s12;
  VkPhysicalDeviceVulkan13Features s13;

  /* lavapipe (Mesa 22.3) has cache control but no descriptor indexing:
   * devices that "enable" it below are created without it, and described
   * with it. */
  supported_features (h, &s12, &s13);
  g_assert_true (s13.pipelineCreationCacheControl);
  const gboolean real_indexing = s12.descriptorIndexing && s12.descriptorBindingPartiallyBound &&
                                 s12.runtimeDescriptorArray;
  VkPhysicalDeviceFeatures2 plain = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };

  /* Nothing enabled. */
  {
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    Wrapped w = wrap (h, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, FALSE, TRUE, FALSE);
    g_assert_false (psc_device_get_dynamic_rendering (w.psc));
    unwrap (&w);
  }
  /* Vulkan12Features.descriptorIndexing; 1.3's cache control off. */
  {
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = &f13, .descriptorIndexing = VK_TRUE };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    Wrapped w = wrap_described (h, real_indexing ? &f : &plain, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, FALSE, TRUE, TRUE);
    unwrap (&w);
  }
  /* One descriptor-indexing member of Vulkan12Features is enough. */
  {
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .descriptorBindingPartiallyBound = VK_TRUE };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    Wrapped w = wrap_described (h, real_indexing ? &f : &plain, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, FALSE, TRUE, TRUE);
    unwrap (&w);
  }
  /* The extension's structures instead of the core ones: descriptor
   * indexing and pipeline-creation cache control. */
  {
    VkPhysicalDevicePipelineCreationCacheControlFeatures fcc = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
      .pipelineCreationCacheControl = VK_TRUE,
    };
    VkPhysicalDeviceDescriptorIndexingFeatures fdi = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
      .pNext = &fcc,
      .runtimeDescriptorArray = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fdi };
    VkPhysicalDeviceFeatures2 created = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fcc };
    Wrapped w = wrap_described (h, real_indexing ? &f : &created, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, TRUE, TRUE, TRUE);
    unwrap (&w);
  }
  /* The extension's cache-control structure alone, created for real. */
  {
    VkPhysicalDevicePipelineCreationCacheControlFeatures fcc = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
      .pipelineCreationCacheControl = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fcc };
    Wrapped w = wrap (h, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, TRUE, TRUE, FALSE);
    unwrap (&w);
  }
  /* 1.3's cache control on (dynamic rendering too). */
  {
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pipelineCreationCacheControl = VK_TRUE,
                                             .dynamicRendering = VK_TRUE };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13 };
    Wrapped w = wrap (h, &f, VK_API_VERSION_1_3);
    assert_features (w.psc, TRUE, TRUE, FALSE);
    g_assert_true (psc_device_get_dynamic_rendering (w.psc));
    unwrap (&w);
  }
  psc_test_harness_finish (h);
}

/* The application's apiVersion caps what the cache may use: a device
 * wrapped as Vulkan 1.2 has no creation feedback and no 1.3 cache control,
 * even where the VkDevice enabled it; its driver name is still read (as
 * 1.1 too, through VK_KHR_driver_properties). As 1.0 (no
 * vkGetPhysicalDeviceProperties2), the driver's name cannot be read: the
 * empty string. */
static void
test_api_version_caps (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  VkPhysicalDeviceDriverProperties driver;
  VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                           .pipelineCreationCacheControl = VK_TRUE };
  VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                           .pNext = &f13, .timelineSemaphore = VK_TRUE };
  VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };

  driver_properties (h, &driver);
  {
    Wrapped w = wrap (h, &f, VK_API_VERSION_1_2);
    g_assert_cmpuint (psc_device_get_api_version (w.psc), ==, VK_API_VERSION_1_2);
    assert_features (w.psc, FALSE, FALSE, FALSE);
    g_assert_cmpstr (psc_device_get_driver_name (w.psc), ==, driver.driverName);
    unwrap (&w);
  }
  {
    /* 1.1: through VK_KHR_driver_properties, which lavapipe has. */
    VkPhysicalDeviceFeatures2 none = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    Wrapped w = wrap (h, &none, VK_API_VERSION_1_1);
    assert_features (w.psc, FALSE, FALSE, FALSE);
    g_assert_cmpstr (psc_device_get_driver_name (w.psc), ==, driver.driverName);
    g_assert_cmpstr (psc_device_get_driver_info (w.psc), ==, driver.driverInfo);
    unwrap (&w);
  }
  {
    VkPhysicalDeviceFeatures2 none = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    Wrapped w = wrap (h, &none, VK_API_VERSION_1_0);
    assert_features (w.psc, FALSE, FALSE, FALSE);
    g_assert_cmpstr (psc_device_get_driver_name (w.psc), ==, "");
    g_assert_cmpstr (psc_device_get_driver_info (w.psc), ==, "");
    /* The identity does not depend on it. */
    g_assert_cmpuint (psc_device_get_vendor_id (w.psc), ==, h->properties.vendorID);
    g_assert_cmpuint (strlen (psc_device_get_pipeline_cache_uuid (w.psc)), ==, 32);
    unwrap (&w);
  }
  psc_test_harness_finish (h);
}

/* A device that is not initialized answers 0, NULL and FALSE; NULL is a
 * programming error (a critical, and the same answers). */
static void
test_not_initialized_and_arguments (void)
{
  g_autoptr(PscDevice) d = g_object_new (PSC_TYPE_DEVICE, NULL);
  g_autofree char *uuid = NULL, *driver_name = NULL;

  g_assert_cmpuint (psc_device_get_vendor_id (d), ==, 0);
  g_assert_cmpuint (psc_device_get_device_id (d), ==, 0);
  g_assert_null (psc_device_get_driver_name (d));
  g_assert_null (psc_device_get_driver_info (d));
  g_assert_null (psc_device_get_pipeline_cache_uuid (d));
  assert_features (d, FALSE, FALSE, FALSE);
  g_object_get (d, "pipeline-cache-uuid", &uuid, "driver-name", &driver_name, NULL);
  g_assert_null (uuid);
  g_assert_null (driver_name);

#define EXPECT_CRITICAL(call, value)                                            \
  G_STMT_START {                                                                \
    g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*PSC_IS_DEVICE*");     \
    g_assert_true ((call) == (value));                                          \
    g_test_assert_expected_messages ();                                         \
  } G_STMT_END
  EXPECT_CRITICAL (psc_device_get_vendor_id (NULL), 0);
  EXPECT_CRITICAL (psc_device_get_device_id (NULL), 0);
  EXPECT_CRITICAL (psc_device_get_driver_name (NULL), NULL);
  EXPECT_CRITICAL (psc_device_get_driver_info (NULL), NULL);
  EXPECT_CRITICAL (psc_device_get_pipeline_cache_uuid (NULL), NULL);
  EXPECT_CRITICAL (psc_device_get_pipeline_creation_cache_control (NULL), FALSE);
  EXPECT_CRITICAL (psc_device_get_creation_feedback (NULL), FALSE);
  EXPECT_CRITICAL (psc_device_get_descriptor_indexing (NULL), FALSE);
#undef EXPECT_CRITICAL
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/device/identity", test_identity);
  g_test_add_func ("/device/enabled-features", test_enabled_features);
  g_test_add_func ("/device/api-version-caps", test_api_version_caps);
  g_test_add_func ("/device/not-initialized-and-arguments", test_not_initialized_and_arguments);
  return g_test_run ();
}
