/* test-dispatch.c: the core's private Vulkan dispatch (DESIGN decision 7),
 * after real use on lavapipe with the validation layer. A core created over
 * the application's own instance and device creates objects through tables
 * loaded from the application's vkGetInstanceProcAddr, and volk's global
 * function pointers (symbols of the core) stay NULL throughout.
 *
 * The test links the core static library directly. The core's volk globals
 * carry the loader's function names, so this file uses no loader prototype:
 * it opens libvulkan.so.1 itself and calls everything through pointers, as
 * an application that uses volk (or its own loader) does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <glib.h>
#include <string.h>

#include "psc-core.h"

static gint validation_errors;

static VKAPI_ATTR VkBool32 VKAPI_CALL
on_message (VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
            const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    {
      g_printerr ("validation error: %s\n", data->pMessage);
      g_atomic_int_inc (&validation_errors);
    }
  return VK_FALSE;
}

#define LOAD(inst, name) PFN_##name name = (PFN_##name) gipa (inst, #name); g_assert_nonnull (name)

static void
test_volk_globals_after_use (void)
{
#if defined(__SANITIZE_ADDRESS__)
  /* Keep lavapipe resident under LeakSanitizer (see tests/vulkan/harness.c). */
  (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
  void *loader = dlopen ("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (loader);
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr) dlsym (loader, "vkGetInstanceProcAddr");
  g_assert_nonnull (gipa);
  g_assert_true (psc_dispatch_volk_globals_untouched ());

  LOAD (VK_NULL_HANDLE, vkCreateInstance);
  const char *layers[] = { "VK_LAYER_KHRONOS_validation" };
  const char *exts[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
  VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3 };
  VkInstanceCreateInfo ici = {
    .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
    .enabledLayerCount = 1, .ppEnabledLayerNames = layers,
    .enabledExtensionCount = 1, .ppEnabledExtensionNames = exts,
  };
  VkInstance instance;
  /* A missing layer or driver fails the test: it never skips. */
  g_assert_cmpint (vkCreateInstance (&ici, NULL, &instance), ==, VK_SUCCESS);
  LOAD (instance, vkCreateDebugUtilsMessengerEXT);
  LOAD (instance, vkDestroyDebugUtilsMessengerEXT);
  LOAD (instance, vkEnumeratePhysicalDevices);
  LOAD (instance, vkCreateDevice);
  LOAD (instance, vkDestroyInstance);
  LOAD (instance, vkGetDeviceProcAddr);
  VkDebugUtilsMessengerCreateInfoEXT mci = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
    .pfnUserCallback = on_message,
  };
  VkDebugUtilsMessengerEXT messenger;
  g_assert_cmpint (vkCreateDebugUtilsMessengerEXT (instance, &mci, NULL, &messenger), ==, VK_SUCCESS);

  uint32_t n = 1;
  VkPhysicalDevice gpu;
  VkResult r = vkEnumeratePhysicalDevices (instance, &n, &gpu);
  g_assert_true (r == VK_SUCCESS || r == VK_INCOMPLETE);
  g_assert_cmpuint (n, ==, 1);
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = 0, .queueCount = 1,
                                  .pQueuePriorities = &prio };
  VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
  VkDevice device;
  g_assert_cmpint (vkCreateDevice (gpu, &dci, NULL, &device), ==, VK_SUCCESS);
  PFN_vkDestroyDevice vkDestroyDevice = (PFN_vkDestroyDevice) vkGetDeviceProcAddr (device, "vkDestroyDevice");

  PscCoreConfig cfg = {
    .instance = instance,
    .physical_device = gpu,
    .device = device,
    .get_instance_proc_addr = gipa,
    .api_version = VK_API_VERSION_1_3,
    .debug_utils = true,
    .rendering = PSC_RENDERING_LEGACY,
  };
  PscCore *core = NULL;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_new (&cfg, &core, &err), ==, PSC_STATUS_OK);

  /* Real driver calls through the private tables: a sampler (created once,
   * then a hit) and a descriptor-set layout naming it. */
  VkSamplerCreateInfo sci = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR, .maxLod = 1.0f,
  };
  VkSampler s1 = VK_NULL_HANDLE, s2 = VK_NULL_HANDLE;
  g_assert_cmpint (psc_core_get_sampler (core, &sci, &s1, &err), ==, PSC_STATUS_OK);
  g_assert_cmpint (psc_core_get_sampler (core, &sci, &s2, &err), ==, PSC_STATUS_OK);
  g_assert_true (s1 != VK_NULL_HANDLE && s1 == s2);
  VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                     VK_SHADER_STAGE_FRAGMENT_BIT, &s1 };
  VkDescriptorSetLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 1, .pBindings = &b };
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  g_assert_cmpint (psc_core_get_set_layout (core, &lci, &layout, &err), ==, PSC_STATUS_OK);
  g_assert_true (layout != VK_NULL_HANDLE);
  PscCoreStats st;
  psc_core_get_stats (core, &st);
  g_assert_cmpuint (st.kinds[PSC_KIND_SAMPLER].creations, ==, 1);
  g_assert_cmpuint (st.kinds[PSC_KIND_SAMPLER].hits, ==, 1);
  g_assert_cmpuint (st.kinds[PSC_KIND_SET_LAYOUT].creations, ==, 1);

  /* Loading and using the tables never wrote volk's globals. */
  g_assert_true (psc_dispatch_volk_globals_untouched ());
  psc_core_free (core);
  g_assert_true (psc_dispatch_volk_globals_untouched ());

  vkDestroyDevice (device, NULL);
  vkDestroyDebugUtilsMessengerEXT (instance, messenger, NULL);
  vkDestroyInstance (instance, NULL);
  g_assert_cmpint (g_atomic_int_get (&validation_errors), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/dispatch/volk-globals-after-use", test_volk_globals_after_use);
  return g_test_run ();
}
