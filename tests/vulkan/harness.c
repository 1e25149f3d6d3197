/* harness.c: the Vulkan test suite's own instance and device.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <dlfcn.h>

#include <string.h>

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

static VkBool32 VKAPI_PTR
on_debug_message (VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                  VkDebugUtilsMessageTypeFlagsEXT types,
                  const VkDebugUtilsMessengerCallbackDataEXT *data,
                  void *user_data)
{
  PscTestHarness *h = user_data;

  if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0)
    {
      g_atomic_int_inc (&h->validation_errors);
      /* stderr, so TAP on stdout stays clean */
      g_printerr ("%s validation error: %s\n", h->quiet ? "(expected)" : "UNEXPECTED",
                  data->pMessage != NULL ? data->pMessage : "(no message)");
    }
  return VK_FALSE;
}

static void
require_validation_layer (void)
{
  guint32 n = 0;
  g_autofree VkLayerProperties *layers = NULL;
  gboolean found = FALSE;

  g_assert_cmpint (vkEnumerateInstanceLayerProperties (&n, NULL), ==, VK_SUCCESS);
  layers = g_new0 (VkLayerProperties, MAX (n, 1));
  g_assert_cmpint (vkEnumerateInstanceLayerProperties (&n, layers), ==, VK_SUCCESS);
  for (guint32 i = 0; i < n; i++)
    if (strcmp (layers[i].layerName, VALIDATION_LAYER) == 0)
      found = TRUE;
  if (!found)
    g_error ("%s is not installed (Debian: vulkan-validationlayers); the Vulkan "
             "suite needs it and fails without it", VALIDATION_LAYER);
}

static gboolean
is_lavapipe (VkPhysicalDevice pd)
{
  VkPhysicalDeviceDriverProperties driver = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
  };
  VkPhysicalDeviceProperties2 props = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
    .pNext = &driver,
  };

  vkGetPhysicalDeviceProperties2 (pd, &props);
  return driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
}

static void
pick_physical_device (PscTestHarness *h)
{
  guint32 n = 0;
  g_autofree VkPhysicalDevice *devices = NULL;
  gboolean any_driver = g_strcmp0 (g_getenv ("PSC_TEST_ANY_DRIVER"), "1") == 0;

  if (vkEnumeratePhysicalDevices (h->instance, &n, NULL) != VK_SUCCESS || n == 0)
    g_error ("no Vulkan device: is Mesa lavapipe (mesa-vulkan-drivers) installed and "
             "VK_DRIVER_FILES=%s valid?", g_getenv ("VK_DRIVER_FILES"));
  devices = g_new0 (VkPhysicalDevice, n);
  g_assert_cmpint (vkEnumeratePhysicalDevices (h->instance, &n, devices), ==, VK_SUCCESS);

  for (guint32 i = 0; i < n; i++)
    {
      VkPhysicalDeviceProperties props;

      vkGetPhysicalDeviceProperties (devices[i], &props);
      if (props.apiVersion < VK_API_VERSION_1_3)
        continue;
      if (!any_driver && !is_lavapipe (devices[i]))
        continue;
      h->physical_device = devices[i];
      h->properties = props;
      return;
    }
  g_error ("no Vulkan 1.3 lavapipe device found (VK_DRIVER_FILES=%s); the Vulkan suite "
           "runs on Mesa lavapipe (set PSC_TEST_ANY_DRIVER=1 to accept another driver)",
           g_getenv ("VK_DRIVER_FILES"));
}

PscTestHarness *
psc_test_harness_new (gboolean dynamic_rendering)
{
  return psc_test_harness_new_full (dynamic_rendering, PSC_TEST_HARNESS_NONE);
}

void
psc_test_keep_driver_resident (void)
{
#if defined(__SANITIZE_ADDRESS__)
  /* Under LeakSanitizer: the loader unloads lavapipe (and LLVM with it) at
   * vkDestroyInstance, after which its one-time initialisation is reported
   * as leaks that can no longer be attributed to the driver. Keeping the
   * driver resident keeps them reachable (see tests/sanitizers/lsan.supp). */
  const char *icd = g_getenv ("VK_DRIVER_FILES");
  if (icd != NULL && strstr (icd, "lvp_icd") != NULL)
    (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
}

PscTestHarness *
psc_test_harness_new_full (gboolean dynamic_rendering, PscTestHarnessFlags flags)
{
  psc_test_keep_driver_resident ();
  PscTestHarness *h = g_new0 (PscTestHarness, 1);
  const char *layers[] = { VALIDATION_LAYER };
  const char *extensions[] = {
    VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
    VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME,
  };
  VkValidationFeatureDisableEXT disabled[] = { VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT };
  VkValidationFeaturesEXT validation_features = {
    .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
    .disabledValidationFeatureCount = G_N_ELEMENTS (disabled),
    .pDisabledValidationFeatures = disabled,
  };
  VkApplicationInfo app = {
    .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
    .pApplicationName = "psocache-vulkan-tests",
    .apiVersion = VK_API_VERSION_1_3,
  };
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
    .pfnUserCallback = on_debug_message,
    .pUserData = h,
  };
  VkInstanceCreateInfo instance_info = {
    .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
    /* chained too, so instance creation and destruction are covered */
    .pNext = &messenger_info,
    .pApplicationInfo = &app,
    .enabledLayerCount = G_N_ELEMENTS (layers),
    .ppEnabledLayerNames = layers,
    /* VK_EXT_validation_features (provided by the layer) only when needed */
    .enabledExtensionCount = (flags & PSC_TEST_HARNESS_DRIVER_HANDLES) ? 2 : 1,
    .ppEnabledExtensionNames = extensions,
  };
  PFN_vkCreateDebugUtilsMessengerEXT create_messenger;
  VkPhysicalDeviceVulkan13Features supported13 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
  };
  VkPhysicalDeviceFeatures2 supported = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
    .pNext = &supported13,
  };
  guint32 n_families = 0;
  g_autofree VkQueueFamilyProperties *families = NULL;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
    .queueCount = 1,
    .pQueuePriorities = &priority,
  };
  VkDeviceCreateInfo device_info = {
    .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
    .queueCreateInfoCount = 1,
    .pQueueCreateInfos = &queue_info,
  };
  VkCommandPoolCreateInfo pool_info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
  };
  PscDeviceInfo info = PSC_DEVICE_INFO_INIT;
  g_autoptr(GError) error = NULL;
  VkResult r;

  require_validation_layer ();
  if (flags & PSC_TEST_HARNESS_DRIVER_HANDLES)
    {
      validation_features.pNext = &messenger_info;
      instance_info.pNext = &validation_features;
    }

  r = vkCreateInstance (&instance_info, NULL, &h->instance);
  if (r != VK_SUCCESS)
    g_error ("vkCreateInstance with %s and %s failed: %d", VALIDATION_LAYER,
             VK_EXT_DEBUG_UTILS_EXTENSION_NAME, r);

  /* The persistent messenger: it sees everything between instance creation
   * and destruction, which the chained one does not. */
  create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
    vkGetInstanceProcAddr (h->instance, "vkCreateDebugUtilsMessengerEXT");
  g_assert_nonnull (create_messenger);
  g_assert_cmpint (create_messenger (h->instance, &messenger_info, NULL, &h->messenger),
                   ==, VK_SUCCESS);

  pick_physical_device (h);

  vkGetPhysicalDeviceFeatures2 (h->physical_device, &supported);
  if (dynamic_rendering && !supported13.dynamicRendering)
    g_error ("%s does not support dynamic rendering", h->properties.deviceName);

  vkGetPhysicalDeviceQueueFamilyProperties (h->physical_device, &n_families, NULL);
  families = g_new0 (VkQueueFamilyProperties, MAX (n_families, 1));
  vkGetPhysicalDeviceQueueFamilyProperties (h->physical_device, &n_families, families);
  h->queue_family = G_MAXUINT32;
  for (guint32 i = 0; i < n_families; i++)
    if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
        (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
      {
        h->queue_family = i;
        break;
      }
  g_assert_cmpuint (h->queue_family, !=, G_MAXUINT32);
  queue_info.queueFamilyIndex = h->queue_family;

  h->dynamic_rendering = dynamic_rendering;
  h->features13 = (VkPhysicalDeviceVulkan13Features) {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
    .dynamicRendering = dynamic_rendering,
    /* For the warm probe (psc_cache_verify_warm), when the driver has it. */
    .pipelineCreationCacheControl = supported13.pipelineCreationCacheControl,
  };
  h->features = (VkPhysicalDeviceFeatures2) {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
    .pNext = &h->features13,
  };
  device_info.pNext = &h->features;
  g_assert_cmpint (vkCreateDevice (h->physical_device, &device_info, NULL, &h->device),
                   ==, VK_SUCCESS);
  vkGetDeviceQueue (h->device, h->queue_family, 0, &h->queue);

  pool_info.queueFamilyIndex = h->queue_family;
  g_assert_cmpint (vkCreateCommandPool (h->device, &pool_info, NULL, &h->command_pool),
                   ==, VK_SUCCESS);

  info.instance = h->instance;
  info.physical_device = h->physical_device;
  info.device = h->device;
  info.get_instance_proc_addr = vkGetInstanceProcAddr;
  info.api_version = VK_API_VERSION_1_3;
  info.enabled_features = &h->features;
  info.debug_utils = TRUE;
  info.allocator = NULL;
  info.queue_family_index = h->queue_family;
  info.queue = h->queue;
  h->psc_device = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_nonnull (h->psc_device);
  g_assert_cmpint (psc_device_get_dynamic_rendering (h->psc_device), ==, dynamic_rendering);

  h->caches = g_ptr_array_new ();
  return h;
}

PscCache *
psc_test_harness_cache (PscTestHarness *h, PscBackend backend, PscCacheFlags flags)
{
  g_autoptr(GError) error = NULL;
  PscCache *cache = psc_cache_new (h->psc_device, backend, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (cache);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

void
psc_test_harness_drop_cache (PscTestHarness *h, PscCache *cache)
{
  g_assert_cmpint (vkDeviceWaitIdle (h->device), ==, VK_SUCCESS);
  g_assert_true (g_ptr_array_remove (h->caches, cache));
  /* The device is idle: nothing the cache handed out is in use. */
  g_object_unref (cache);
}

void
psc_test_harness_finish (PscTestHarness *h)
{
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;

  g_assert_cmpint (vkDeviceWaitIdle (h->device), ==, VK_SUCCESS);
  while (h->caches->len > 0)
    psc_test_harness_drop_cache (h, g_ptr_array_index (h->caches, h->caches->len - 1));
  g_ptr_array_unref (h->caches);
  g_clear_object (&h->psc_device);

  vkDestroyCommandPool (h->device, h->command_pool, NULL);
  /* The layer reports objects still alive here (a cache that leaked). */
  vkDestroyDevice (h->device, NULL);

  g_assert_cmpuint (psc_test_harness_error_count (h), ==, 0);

  destroy_messenger = (PFN_vkDestroyDebugUtilsMessengerEXT)
    vkGetInstanceProcAddr (h->instance, "vkDestroyDebugUtilsMessengerEXT");
  destroy_messenger (h->instance, h->messenger, NULL);
  vkDestroyInstance (h->instance, NULL);
  g_free (h);
}

guint
psc_test_harness_error_count (PscTestHarness *h)
{
  return (guint) g_atomic_int_get (&h->validation_errors);
}

void
psc_test_harness_reset_errors (PscTestHarness *h)
{
  g_atomic_int_set (&h->validation_errors, 0);
}

VkCommandBuffer
psc_test_harness_begin_commands (PscTestHarness *h)
{
  VkCommandBufferAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .commandPool = h->command_pool,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
    .commandBufferCount = 1,
  };
  VkCommandBufferBeginInfo bi = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
  };
  VkCommandBuffer cb;

  g_assert_cmpint (vkAllocateCommandBuffers (h->device, &ai, &cb), ==, VK_SUCCESS);
  g_assert_cmpint (vkBeginCommandBuffer (cb, &bi), ==, VK_SUCCESS);
  return cb;
}

void
psc_test_harness_submit_and_wait (PscTestHarness *h, VkCommandBuffer cb)
{
  VkSubmitInfo si = {
    .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
    .commandBufferCount = 1,
    .pCommandBuffers = &cb,
  };

  g_assert_cmpint (vkEndCommandBuffer (cb), ==, VK_SUCCESS);
  g_assert_cmpint (vkQueueSubmit (h->queue, 1, &si, VK_NULL_HANDLE), ==, VK_SUCCESS);
  g_assert_cmpint (vkQueueWaitIdle (h->queue), ==, VK_SUCCESS);
  vkFreeCommandBuffers (h->device, h->command_pool, 1, &cb);
}

guint64
psc_test_total_creations (PscCache *cache)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);

  return psc_stats_get_total (stats, PSC_COUNTER_CREATIONS);
}

guint
psc_test_n_kinds (void)
{
  g_autoptr(GEnumClass) kinds = g_type_class_ref (PSC_TYPE_OBJECT_KIND);

  /* Kinds are numbered from 0 without gaps (checked by test-api). */
  return kinds->n_values;
}

gsize
psc_test_compare_images (const guint8 *a, const guint8 *b, guint width, guint height,
                         guint *max_channel_diff)
{
  gsize differing = 0;
  guint max_diff = 0;

  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      gboolean differs = FALSE;

      for (int c = 0; c < 4; c++)
        {
          guint d = (guint) ABS ((int) a[i * 4 + c] - (int) b[i * 4 + c]);

          if (d > 0)
            differs = TRUE;
          max_diff = MAX (max_diff, d);
        }
      if (differs)
        differing++;
    }
  if (max_channel_diff != NULL)
    *max_channel_diff = max_diff;
  return differing;
}

guint
psc_test_count_colors (const guint8 *rgba, guint width, guint height)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      guint32 v;

      memcpy (&v, rgba + i * 4, 4);
      g_hash_table_add (seen, GUINT_TO_POINTER (v));
    }
  return g_hash_table_size (seen);
}

PscBackend
psc_test_resolved_backend (PscCache *cache)
{
  PscBackend b = psc_cache_get_backend (cache);

  if (b == PSC_BACKEND_AUTO)
    b = psc_device_get_dynamic_rendering (psc_cache_get_device (cache))
        ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY;
  return b;
}

/* ------------------------------------------------------------------------ */

static VkShaderModule
register_demo_shader (PscCache *cache, PscDemoShader shader)
{
  g_autoptr(GError) error = NULL;
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (shader, &size);
  VkShaderModule m = psc_cache_register_shader (cache, code, size, &error);

  g_assert_no_error (error);
  g_assert_true (m != VK_NULL_HANDLE);
  return m;
}

void
psc_test_objects_init (PscTestObjects *o, PscCache *cache)
{
  g_autoptr(GError) error = NULL;
  VkSamplerCreateInfo sampler_info = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_NEAREST,
    .minFilter = VK_FILTER_NEAREST,
    .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
    .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .maxLod = 0.25f,
    .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
  };
  VkDescriptorSetLayoutBinding bindings[2];
  VkDescriptorSetLayoutBinding compute_binding = {
    .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
  };
  VkDescriptorSetLayoutCreateInfo set_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
  };
  VkPushConstantRange push = {
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 32,
  };
  VkPushConstantRange compute_push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 };
  VkPipelineLayoutCreateInfo layout_info = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 1,
    .pushConstantRangeCount = 1,
  };

  memset (o, 0, sizeof *o);
  o->vs = register_demo_shader (cache, PSC_DEMO_SHADER_VS_PANEL);
  o->fs = register_demo_shader (cache, PSC_DEMO_SHADER_FS_COLOR);
  o->cs = register_demo_shader (cache, PSC_DEMO_SHADER_CS_PALETTE);

  o->sampler = psc_cache_get_sampler (cache, &sampler_info, &error);
  g_assert_no_error (error);

  bindings[0] = (VkDescriptorSetLayoutBinding) {
    .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
    .descriptorCount = 1,
    .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
  };
  bindings[1] = (VkDescriptorSetLayoutBinding) {
    .binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    .pImmutableSamplers = &o->sampler,
  };
  set_info.bindingCount = 2;
  set_info.pBindings = bindings;
  o->set_layout = psc_cache_get_descriptor_set_layout (cache, &set_info, &error);
  g_assert_no_error (error);
  set_info.bindingCount = 1;
  set_info.pBindings = &compute_binding;
  o->compute_set_layout = psc_cache_get_descriptor_set_layout (cache, &set_info, &error);
  g_assert_no_error (error);

  layout_info.pSetLayouts = &o->set_layout;
  layout_info.pPushConstantRanges = &push;
  o->layout = psc_cache_get_pipeline_layout (cache, &layout_info, &error);
  g_assert_no_error (error);
  layout_info.pSetLayouts = &o->compute_set_layout;
  layout_info.pPushConstantRanges = &compute_push;
  o->compute_layout = psc_cache_get_pipeline_layout (cache, &layout_info, &error);
  g_assert_no_error (error);

  o->pass_attachments[0] = (VkAttachmentDescription) {
    .format = VK_FORMAT_R8G8B8A8_UNORM,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
    .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
  };
  o->pass_attachments[1] = (VkAttachmentDescription) {
    .format = VK_FORMAT_D32_SFLOAT,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
    .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
  };
  o->pass_refs[0] = (VkAttachmentReference) { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
  o->pass_refs[1] = (VkAttachmentReference) { 1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
  o->pass_subpass = (VkSubpassDescription) {
    .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
    .colorAttachmentCount = 1,
    .pColorAttachments = &o->pass_refs[0],
    .pDepthStencilAttachment = &o->pass_refs[1],
  };
  o->pass_info = (VkRenderPassCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = 2,
    .pAttachments = o->pass_attachments,
    .subpassCount = 1,
    .pSubpasses = &o->pass_subpass,
  };
  if (psc_test_resolved_backend (cache) == PSC_BACKEND_LEGACY)
    {
      o->compat_pass = psc_cache_get_compat_render_pass (cache, &o->pass_info, &error);
      g_assert_no_error (error);
      g_assert_true (o->compat_pass != VK_NULL_HANDLE);
    }
}

void
psc_test_graphics_info_init (PscTestGraphicsInfo *g, const PscTestObjects *o, PscCache *cache)
{
  memset (g, 0, sizeof *g);

  g->spec_entries[0] = (VkSpecializationMapEntry) { 0, 0, 4 };
  g->spec_entries[1] = (VkSpecializationMapEntry) { 1, 4, 4 };
  g->spec_data[0] = 1;
  g->spec_data[1] = 2;
  g->spec = (VkSpecializationInfo) {
    .mapEntryCount = 2,
    .pMapEntries = g->spec_entries,
    .dataSize = sizeof g->spec_data,
    .pData = g->spec_data,
  };
  g->stages[0] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT,
    .module = o->vs,
    .pName = "main",
  };
  g->stages[1] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
    .module = o->fs,
    .pName = "main",
    .pSpecializationInfo = &g->spec,
  };
  g->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  g->input_assembly = (VkPipelineInputAssemblyStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
  };
  g->viewport = (VkPipelineViewportStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
    .viewportCount = 1,
    .scissorCount = 1,
  };
  g->raster = (VkPipelineRasterizationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
    .polygonMode = VK_POLYGON_MODE_FILL,
    .cullMode = VK_CULL_MODE_NONE,
    .frontFace = VK_FRONT_FACE_CLOCKWISE,
    .lineWidth = 1.0f,
  };
  g->multisample = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
  };
  g->depth = (VkPipelineDepthStencilStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = VK_TRUE,
    .depthWriteEnable = VK_TRUE,
    .depthCompareOp = VK_COMPARE_OP_LESS,
    .maxDepthBounds = 1.0f,
  };
  g->blend_attachment = (VkPipelineColorBlendAttachmentState) {
    .srcColorBlendFactor = VK_BLEND_FACTOR_ONE,
    .dstColorBlendFactor = VK_BLEND_FACTOR_ZERO,
    .colorBlendOp = VK_BLEND_OP_ADD,
    .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
    .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO,
    .alphaBlendOp = VK_BLEND_OP_ADD,
    .colorWriteMask = 0xf,
  };
  g->blend = (VkPipelineColorBlendStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
    .attachmentCount = 1,
    .pAttachments = &g->blend_attachment,
  };
  g->dynamic_states[0] = VK_DYNAMIC_STATE_VIEWPORT;
  g->dynamic_states[1] = VK_DYNAMIC_STATE_SCISSOR;
  g->dynamic = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = 2,
    .pDynamicStates = g->dynamic_states,
  };
  g->ci = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .stageCount = 2,
    .pStages = g->stages,
    .pVertexInputState = &g->vertex_input,
    .pInputAssemblyState = &g->input_assembly,
    .pViewportState = &g->viewport,
    .pRasterizationState = &g->raster,
    .pMultisampleState = &g->multisample,
    .pDepthStencilState = &g->depth,
    .pColorBlendState = &g->blend,
    .pDynamicState = &g->dynamic,
    .layout = o->layout,
    .basePipelineIndex = -1,
  };
  if (psc_test_resolved_backend (cache) == PSC_BACKEND_DYNAMIC_RENDERING)
    {
      g->color_format = VK_FORMAT_R8G8B8A8_UNORM;
      g->rendering = (VkPipelineRenderingCreateInfo) {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = 1,
        .pColorAttachmentFormats = &g->color_format,
        .depthAttachmentFormat = VK_FORMAT_D32_SFLOAT,
      };
      g->ci.pNext = &g->rendering;
    }
  else
    g->ci.renderPass = o->compat_pass;
}

void
psc_test_compute_info_init (VkComputePipelineCreateInfo *ci, VkSpecializationInfo *spec,
                            VkSpecializationMapEntry *entry, float *value,
                            const PscTestObjects *o)
{
  *value = 0.5f;
  *entry = (VkSpecializationMapEntry) { 0, 0, sizeof (float) };
  *spec = (VkSpecializationInfo) {
    .mapEntryCount = 1,
    .pMapEntries = entry,
    .dataSize = sizeof (float),
    .pData = value,
  };
  *ci = (VkComputePipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
    .stage = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
      .module = o->cs,
      .pName = "main",
      .pSpecializationInfo = spec,
    },
    .layout = o->compute_layout,
    .basePipelineIndex = -1,
  };
}

/* ------------------------------------------------------------------------ */

void
psc_test_scene_run_init (PscTestSceneRun *run)
{
  memset (run, 0, sizeof *run);
  run->dynamic_rendering = TRUE;
  run->backend = PSC_BACKEND_AUTO;
  run->frames = PSC_TEST_SCENE_FRAMES;
}

void
psc_test_scene_options_init (PscDemoSceneOptions *options)
{
  psc_demo_scene_options_init (options);
  options->width = PSC_TEST_SCENE_WIDTH;
  options->height = PSC_TEST_SCENE_HEIGHT;
  options->frames = PSC_TEST_SCENE_FRAMES;
  options->resize_at_frame = PSC_TEST_SCENE_RESIZE_AT;
  options->resize_width = PSC_TEST_SCENE_WIDTH * 3 / 2;
  options->resize_height = PSC_TEST_SCENE_HEIGHT * 3 / 2;
}

void
psc_test_render_scene_run (const PscTestSceneRun *run, PscDemoSceneResult *result)
{
  PscTestHarness *h = psc_test_harness_new (run->dynamic_rendering);
  PscCache *cache = psc_test_harness_cache (h, run->backend, run->cache_flags);
  g_autoptr(PscDemoRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  PscDemoSceneOptions options;

  psc_test_scene_options_init (&options);
  options.frames = run->frames;
  options.prepared = run->prepared;
  if (run->checking_recorder)
    {
      recorder = psc_demo_recorder_new_checking (cache, &error);
      g_assert_no_error (error);
      options.recorder = recorder;
    }

  g_assert_true (psc_demo_scene_run (cache, &options, result, &error));
  g_assert_no_error (error);
  g_assert_nonnull (result->pixels);
  psc_test_harness_assert_clean (h);

  g_clear_pointer (&recorder, psc_demo_recorder_free);
  psc_test_harness_finish (h);
}

void
psc_test_render_scene (gboolean dynamic_rendering, PscBackend backend, gboolean prepared,
                       PscDemoSceneResult *result)
{
  PscTestSceneRun run;

  psc_test_scene_run_init (&run);
  run.dynamic_rendering = dynamic_rendering;
  run.backend = backend;
  run.prepared = prepared;
  psc_test_render_scene_run (&run, result);
}

void
psc_test_assert_scene_image (const PscDemoSceneResult *result)
{
  g_assert_nonnull (result->pixels);
  g_assert_cmpuint (result->width, ==, PSC_TEST_SCENE_WIDTH * 3 / 2);
  g_assert_cmpuint (result->height, ==, PSC_TEST_SCENE_HEIGHT * 3 / 2);
  /* 106 shaded tiles and two composited panels: far more than a few colours */
  g_assert_cmpuint (psc_test_count_colors (result->pixels, result->width, result->height), >=, 200);
}

void
psc_test_save_image (const char *name, const PscDemoSceneResult *result)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *path = g_build_filename (dir != NULL ? dir : ".", name, NULL);
  g_autoptr(GError) error = NULL;

  if (psc_demo_write_ppm (path, result->pixels, result->width, result->height, &error))
    g_test_message ("saved %s", path);
  else
    g_test_message ("could not save %s: %s", path, error->message);
}
