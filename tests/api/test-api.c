/* test-api.c: every public function's behaviour on bad arguments, on a real
 * device (lavapipe) with the validation layer.
 *
 * Programming errors (NULL or wrong-type objects, NULL create infos) must hit
 * a g_return_val_if_fail() critical and return the documented null value;
 * bad requests (wrong sType, foreign handles, wrong thread, unsupported
 * backend) must return a null value and a PSC_ERROR naming the field.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <string.h>

#include <gio/gio.h>
#include <psocache/psocache.h>

#include "psc-test-comp.spv.h"

static PscDevice *device;        /* headless, validation on */
static PscCache *cache;          /* owned by the main thread */

/* Objects the cache did not issue, created directly on the same VkDevice. */
static VkShaderModule foreign_module;
static VkDescriptorSetLayout foreign_set_layout;
static VkPipelineLayout foreign_pipeline_layout;
static VkSampler foreign_sampler;

/* Cache-issued objects for building valid requests. */
static VkShaderModule module;
static VkPipelineLayout layout;

static PFN_vkDestroyShaderModule destroy_shader_module;
static PFN_vkDestroyDescriptorSetLayout destroy_set_layout;
static PFN_vkDestroyPipelineLayout destroy_pipeline_layout;
static PFN_vkDestroySampler destroy_sampler;

#define EXPECT_CRITICAL(pattern) \
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, pattern)

static void
assert_psc_error (GError     *error,
                  PscError    code,
                  const char *path)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == PSC_ERROR);
  if (error->code != (int) code)
    g_error ("expected error code %d, got %d: %s", code, error->code, error->message);
  if (path != NULL && strstr (error->message, path) == NULL)
    g_error ("error message \"%s\" does not name the field \"%s\"", error->message, path);
}

static guint64
rejected (PscError code)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);

  return psc_stats_get_rejected (stats, code);
}

static VkComputePipelineCreateInfo
compute_info (VkShaderModule   m,
              VkPipelineLayout l)
{
  VkComputePipelineCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
    .stage = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
      .module = m,
      .pName = "main",
    },
    .layout = l,
    .basePipelineIndex = -1,
  };
  return info;
}

/* A minimal dynamic-rendering graphics request over the compute shader's
 * module: it is rejected before any driver call, so the stage mismatch never
 * matters. */
static const VkDynamicState dynamic_states[] = { VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR };

/* A minimal graphics request (refused before the driver would see the
 * stage mismatch) and a one-attachment pass, in caller storage. */
typedef struct {
  VkPipelineShaderStageCreateInfo stage;
  VkPipelineVertexInputStateCreateInfo vertex;
  VkPipelineInputAssemblyStateCreateInfo assembly;
  VkPipelineViewportStateCreateInfo viewport;
  VkPipelineRasterizationStateCreateInfo raster;
  VkPipelineMultisampleStateCreateInfo multisample;
  VkPipelineDynamicStateCreateInfo dynamic;
  VkPipelineRenderingCreateInfo rendering;
  VkGraphicsPipelineCreateInfo info;
} PscTestGraphicsInfoApi;

static void
api_graphics_info (PscTestGraphicsInfoApi *g)
{
  memset (g, 0, sizeof *g);
  g->stage = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = module, .pName = "main",
  };
  g->vertex.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  g->assembly = (VkPipelineInputAssemblyStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
  };
  g->viewport = (VkPipelineViewportStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1,
  };
  g->raster = (VkPipelineRasterizationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, .lineWidth = 1.0f,
  };
  g->multisample = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
  };
  g->dynamic = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = G_N_ELEMENTS (dynamic_states), .pDynamicStates = dynamic_states,
  };
  g->rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
  g->info = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .pNext = &g->rendering, .stageCount = 1, .pStages = &g->stage,
    .pVertexInputState = &g->vertex, .pInputAssemblyState = &g->assembly,
    .pViewportState = &g->viewport, .pRasterizationState = &g->raster,
    .pMultisampleState = &g->multisample, .pDynamicState = &g->dynamic,
    .layout = layout, .basePipelineIndex = -1,
  };
}

static const VkAttachmentDescription api_attachment = {
  .format = VK_FORMAT_R8G8B8A8_UNORM,
  .samples = VK_SAMPLE_COUNT_1_BIT,
  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
  .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
  .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
};
static const VkAttachmentReference api_color_ref = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
static const VkSubpassDescription api_subpass = {
  .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
  .colorAttachmentCount = 1,
  .pColorAttachments = &api_color_ref,
};

static void
api_render_pass_info (VkRenderPassCreateInfo *info)
{
  *info = (VkRenderPassCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = 1, .pAttachments = &api_attachment,
    .subpassCount = 1, .pSubpasses = &api_subpass,
  };
}

/* ------------------------------------------------------------------------ */

static void
test_version (void)
{
  g_assert_cmpuint (psc_get_major_version (), ==, PSC_MAJOR_VERSION);
  g_assert_cmpuint (psc_get_minor_version (), ==, PSC_MINOR_VERSION);
  g_assert_cmpuint (psc_get_micro_version (), ==, PSC_MICRO_VERSION);
  g_assert_true (psc_check_version (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION));
  g_assert_true (psc_check_version (0, 0, 0));
  g_assert_false (psc_check_version (PSC_MAJOR_VERSION + 1, 0, 0));
  g_assert_false (psc_check_version (PSC_MAJOR_VERSION, PSC_MINOR_VERSION + 1, 0));
  g_assert_false (psc_check_version (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION + 1));
  g_assert_true (PSC_CHECK_VERSION (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION));
  g_assert_false (PSC_CHECK_VERSION (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION + 1));
}

static void
test_error_domain (void)
{
  g_autoptr(GError) error = g_error_new_literal (PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE, "x");
  g_autofree char *name = g_dbus_error_encode_gerror (error);

  g_assert_cmpstr (g_quark_to_string (PSC_ERROR), ==, "psc-error-quark");
  g_assert_cmpstr (name, ==, "io.github.psocache.Error.ForeignHandle");
  g_assert_true (G_TYPE_IS_ENUM (PSC_TYPE_ERROR));
}

/* Device ----------------------------------------------------------------- */

static void
test_device_bad_objects (void)
{
  PscDevice *not_a_device = (PscDevice *) cache;

  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_null (psc_device_get_name (NULL));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_null (psc_device_get_name (not_a_device));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_cmpuint (psc_device_get_driver_version (NULL), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_cmpuint (psc_device_get_api_version (not_a_device), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_false (psc_device_get_dynamic_rendering (NULL));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_false (psc_device_get_headless (not_a_device));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_cmpuint (psc_device_get_validation_error_count (NULL), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_null (psc_device_get_info (not_a_device));
  g_test_assert_expected_messages ();
}

static void
test_device_new_bad_args (void)
{
  const PscDeviceInfo *real = psc_device_get_info (device);
  PscDeviceInfo info;
  GError *error = NULL;

  EXPECT_CRITICAL ("*info != NULL*");
  g_assert_null (psc_device_new_for_vulkan (NULL, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  info = *real;
  info.instance = VK_NULL_HANDLE;
  EXPECT_CRITICAL ("*instance*");
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  g_test_assert_expected_messages ();

  info = *real;
  info.physical_device = VK_NULL_HANDLE;
  EXPECT_CRITICAL ("*physical_device*");
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  g_test_assert_expected_messages ();

  info = *real;
  info.device = VK_NULL_HANDLE;
  EXPECT_CRITICAL ("*device*");
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  g_test_assert_expected_messages ();

  info = *real;
  info.get_instance_proc_addr = NULL;
  EXPECT_CRITICAL ("*get_instance_proc_addr*");
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  EXPECT_CRITICAL ("*flags*");
  g_assert_null (psc_device_new_headless ((PscDeviceFlags) 0x100, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  /* A preset error is a programming error too. */
  error = g_error_new_literal (PSC_ERROR, PSC_ERROR_FAILED, "preset");
  info = *real;
  EXPECT_CRITICAL ("*error == NULL*");
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  g_test_assert_expected_messages ();
  g_clear_error (&error);
}

static PFN_vkVoidFunction VKAPI_PTR
null_gipa (VkInstance  instance,
           const char *name)
{
  return NULL;
}

static void
test_device_new_bad_features (void)
{
  const PscDeviceInfo *real = psc_device_get_info (device);
  g_autoptr(GError) error = NULL;
  VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
  PscDeviceInfo info = *real;

  info.enabled_features = &features;
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "enabled_features->sType");
  g_clear_error (&error);

  /* A vkGetInstanceProcAddr that loads nothing. */
  info = *real;
  info.get_instance_proc_addr = null_gipa;
  g_assert_null (psc_device_new_for_vulkan (&info, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "get_instance_proc_addr");
}

/* The snapshot records what was *enabled*, copies only known structures and
 * never points into the caller's memory. */
static void
test_device_feature_snapshot (void)
{
  const PscDeviceInfo *real = psc_device_get_info (device);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) wrapped = NULL;
  g_autoptr(PscCache) legacy = NULL;
  const VkBaseInStructure *s;
  VkPhysicalDeviceRobustness2FeaturesEXT unknown = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
    .nullDescriptor = VK_TRUE,
  };
  VkPhysicalDeviceVulkan13Features f13 = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
    .pNext = &unknown,
    .dynamicRendering = VK_FALSE,     /* supported by lavapipe, not enabled */
  };
  VkPhysicalDeviceFeatures2 features = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
    .pNext = &f13,
  };
  VkPhysicalDeviceDynamicRenderingFeatures dr = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
    .dynamicRendering = VK_TRUE,
  };
  PscDeviceInfo info = *real;

  info.enabled_features = &features;
  wrapped = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_false (psc_device_get_headless (wrapped));
  g_assert_false (psc_device_get_dynamic_rendering (wrapped));
  g_assert_cmpstr (psc_device_get_name (wrapped), ==, psc_device_get_name (device));
  g_assert_cmpuint (psc_device_get_api_version (wrapped), ==, psc_device_get_api_version (device));

  /* Only the 1.3 structure survives, as a copy. */
  g_assert_nonnull (psc_device_get_info (wrapped)->enabled_features);
  g_assert_true (psc_device_get_info (wrapped)->enabled_features != &features);
  s = psc_device_get_info (wrapped)->enabled_features->pNext;
  g_assert_nonnull (s);
  g_assert_true ((const void *) s != (const void *) &f13);
  g_assert_cmpint (s->sType, ==, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  g_assert_null (s->pNext);

  /* The caller's structures may change afterwards without effect. */
  f13.dynamicRendering = VK_TRUE;
  g_assert_false (psc_device_get_dynamic_rendering (wrapped));

  /* Caches on it: AUTO resolves to legacy, DYNAMIC_RENDERING is refused. */
  legacy = psc_cache_new (wrapped, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (psc_cache_get_backend (legacy), ==, PSC_BACKEND_LEGACY);
  g_assert_null (psc_cache_new (wrapped, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE, &error));
  assert_psc_error (error, PSC_ERROR_UNSUPPORTED, "backend");
  g_clear_error (&error);
  g_clear_object (&legacy);
  g_clear_object (&wrapped);

  /* Enabled through the 1.3 structure on a 1.3 device. */
  wrapped = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_true (psc_device_get_dynamic_rendering (wrapped));
  g_clear_object (&wrapped);

  /* ...but not when the instance asked for 1.2 only. */
  info.api_version = VK_API_VERSION_1_2;
  wrapped = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_false (psc_device_get_dynamic_rendering (wrapped));
  g_assert_cmpuint (psc_device_get_api_version (wrapped), ==, VK_API_VERSION_1_2);
  g_clear_object (&wrapped);

  /* The extension's structure counts on its own. */
  features.pNext = &dr;
  wrapped = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_true (psc_device_get_dynamic_rendering (wrapped));
  g_clear_object (&wrapped);

  /* No features at all: nothing optional was enabled. */
  info.enabled_features = NULL;
  wrapped = psc_device_new_for_vulkan (&info, &error);
  g_assert_no_error (error);
  g_assert_false (psc_device_get_dynamic_rendering (wrapped));
  g_assert_null (psc_device_get_info (wrapped)->enabled_features);
}

/* Cache construction -------------------------------------------------------- */

static void
test_cache_new_bad_args (void)
{
  GError *error = NULL;

  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_null (psc_cache_new (NULL, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*PSC_IS_DEVICE*");
  g_assert_null (psc_cache_new ((PscDevice *) cache, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*backend*");
  g_assert_null (psc_cache_new (device, (PscBackend) 42, PSC_CACHE_FLAGS_NONE, &error));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*flags*");
  g_assert_null (psc_cache_new (device, PSC_BACKEND_AUTO, (PscCacheFlags) 0x80, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
}

static void
test_cache_dynamic_on_legacy_device (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) legacy_device = NULL;
  g_autoptr(PscCache) legacy = NULL;

  legacy_device = psc_device_new_headless (PSC_DEVICE_FLAGS_VALIDATION |
                                           PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING, &error);
  g_assert_no_error (error);
  g_assert_false (psc_device_get_dynamic_rendering (legacy_device));
  g_assert_true (psc_device_get_headless (legacy_device));

  g_assert_null (psc_cache_new (legacy_device, PSC_BACKEND_DYNAMIC_RENDERING,
                                PSC_CACHE_FLAGS_NONE, &error));
  assert_psc_error (error, PSC_ERROR_UNSUPPORTED, "backend");
  g_clear_error (&error);

  legacy = psc_cache_new (legacy_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (psc_cache_get_backend (legacy), ==, PSC_BACKEND_LEGACY);
  g_clear_object (&legacy);

  legacy = psc_cache_new (legacy_device, PSC_BACKEND_LEGACY, PSC_CACHE_FLAGS_PASS_THROUGH, &error);
  g_assert_no_error (error);
  g_assert_cmpint (psc_cache_get_flags (legacy), ==, PSC_CACHE_FLAGS_PASS_THROUGH);
  g_clear_object (&legacy);

  g_assert_cmpuint (psc_device_get_validation_error_count (legacy_device), ==, 0);
}

/* Every cache method with a NULL or wrong-type cache. */
static void
test_cache_bad_self (void)
{
  PscCache *bad[2] = { NULL, (PscCache *) device };
  VkSamplerCreateInfo sampler = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };
  VkComputePipelineCreateInfo compute = compute_info (module, layout);
  g_autoptr(GBytes) bytes = g_bytes_new_static (psc_test_comp_spirv, sizeof psc_test_comp_spirv);
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      PscCache *c = bad[i];

#define CHECK_CRITICAL(expr, expected) \
      G_STMT_START { \
        EXPECT_CRITICAL ("*PSC_IS_CACHE*"); \
        g_assert_true ((expr) == (expected)); \
        g_test_assert_expected_messages (); \
      } G_STMT_END

      CHECK_CRITICAL (psc_cache_get_device (c), NULL);
      CHECK_CRITICAL (psc_cache_get_backend (c), PSC_BACKEND_LEGACY);
      CHECK_CRITICAL (psc_cache_get_flags (c), PSC_CACHE_FLAGS_NONE);
      CHECK_CRITICAL (psc_cache_register_shader (c, psc_test_comp_spirv, sizeof psc_test_comp_spirv, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_register_shader_bytes (c, bytes, &error), 0);
      CHECK_CRITICAL (psc_cache_release_shader (c, module, &error), FALSE);
      CHECK_CRITICAL (psc_cache_release_shader_id (c, 1, &error), FALSE);
      CHECK_CRITICAL (psc_cache_get_shader_id (c, module), 0);
      CHECK_CRITICAL (psc_cache_get_sampler (c, &sampler, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_get_descriptor_set_layout (c, NULL, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_get_pipeline_layout (c, NULL, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_get_compat_render_pass (c, NULL, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_is_compat_render_pass (c, VK_NULL_HANDLE), FALSE);
      CHECK_CRITICAL (psc_cache_get_graphics_pipeline (c, NULL, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_get_compute_pipeline (c, &compute, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_get_graphics_key_size (c, NULL, &error), 0);
      CHECK_CRITICAL (psc_cache_prepare_graphics_pipeline (c, NULL, &error), 0);
      CHECK_CRITICAL (psc_cache_prepare_compute_pipeline (c, &compute, &error), 0);
      CHECK_CRITICAL (psc_cache_get_prepared_pipeline (c, 1, &error), VK_NULL_HANDLE);
      CHECK_CRITICAL (psc_cache_pin (c, VK_OBJECT_TYPE_PIPELINE, 1, &error), FALSE);
      CHECK_CRITICAL (psc_cache_unpin (c, VK_OBJECT_TYPE_PIPELINE, 1, &error), FALSE);
      CHECK_CRITICAL (psc_cache_get_counter (c, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_HITS), 0);

      CHECK_CRITICAL (psc_cache_get_eviction_idle_frames (c), 0);
      CHECK_CRITICAL (psc_cache_evict (c, 0), 0);
      CHECK_CRITICAL (psc_cache_get_stats (c), NULL);
#undef CHECK_CRITICAL

      EXPECT_CRITICAL ("*PSC_IS_CACHE*");
      psc_cache_begin_frame (c, 1, 0);
      g_test_assert_expected_messages ();
      EXPECT_CRITICAL ("*PSC_IS_CACHE*");
      psc_cache_close (c, 0);
      g_test_assert_expected_messages ();
      EXPECT_CRITICAL ("*PSC_IS_CACHE*");
      psc_cache_clear_failures (c);
      g_test_assert_expected_messages ();
      EXPECT_CRITICAL ("*PSC_IS_CACHE*");
      psc_cache_set_eviction_idle_frames (c, 3);
      g_test_assert_expected_messages ();
    }

  g_assert_no_error (error);
}

/* NULL create infos: a critical, a null result, and a counted rejection. */
static void
test_cache_null_info (void)
{
  GError *error = NULL;
  guint64 before = rejected (PSC_ERROR_INVALID_ARGUMENT);
  guint n = 0;

#define CHECK_NULL_INFO(expr, expected) \
  G_STMT_START { \
    EXPECT_CRITICAL ("*!= NULL*"); \
    g_assert_true ((expr) == (expected)); \
    g_test_assert_expected_messages (); \
    n++; \
  } G_STMT_END

  CHECK_NULL_INFO (psc_cache_register_shader (cache, NULL, 64, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_register_shader_bytes (cache, NULL, &error), 0);
  CHECK_NULL_INFO (psc_cache_get_sampler (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_descriptor_set_layout (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_pipeline_layout (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_compat_render_pass (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_graphics_pipeline (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_compute_pipeline (cache, NULL, &error), VK_NULL_HANDLE);
  CHECK_NULL_INFO (psc_cache_get_graphics_key_size (cache, NULL, &error), 0);
  CHECK_NULL_INFO (psc_cache_prepare_graphics_pipeline (cache, NULL, &error), 0);
  CHECK_NULL_INFO (psc_cache_prepare_compute_pipeline (cache, NULL, &error), 0);
#undef CHECK_NULL_INFO

  g_assert_no_error (error);
  g_assert_cmpuint (rejected (PSC_ERROR_INVALID_ARGUMENT), ==, before + n);

  EXPECT_CRITICAL ("*kind*");
  g_assert_cmpuint (psc_cache_get_counter (cache, (PscObjectKind) 99, PSC_COUNTER_HITS), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*counter*");
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_SAMPLER, (PscCounter) 99), ==, 0);
  g_test_assert_expected_messages ();

  /* A preset error is a programming error. */
  error = g_error_new_literal (PSC_ERROR, PSC_ERROR_FAILED, "preset");
  EXPECT_CRITICAL ("*error == NULL*");
  g_assert_true (psc_cache_get_sampler (cache, NULL, &error) == VK_NULL_HANDLE);
  g_test_assert_expected_messages ();
  g_clear_error (&error);
}

/* Wrong sType on every create info: INVALID_ARGUMENT naming "sType". */
static void
test_cache_wrong_stype (void)
{
  g_autoptr(GError) error = NULL;
  VkSamplerCreateInfo sampler = { .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO };
  VkDescriptorSetLayoutCreateInfo set_layout = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };
  VkPipelineLayoutCreateInfo pipeline_layout = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };
  VkRenderPassCreateInfo render_pass = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };
  VkGraphicsPipelineCreateInfo graphics = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO };
  VkComputePipelineCreateInfo compute = compute_info (module, layout);
  guint64 before = rejected (PSC_ERROR_INVALID_ARGUMENT);

  compute.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;

  g_assert_true (psc_cache_get_sampler (cache, &sampler, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_descriptor_set_layout (cache, &set_layout, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_pipeline_layout (cache, &pipeline_layout, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_compat_render_pass (cache, &render_pass, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_graphics_pipeline (cache, &graphics, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_compute_pipeline (cache, &compute, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_prepare_graphics_pipeline (cache, &graphics, &error), ==, 0);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_get_graphics_key_size (cache, &graphics, &error), ==, 0);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_prepare_compute_pipeline (cache, &compute, &error), ==, 0);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "sType");
  g_clear_error (&error);

  g_assert_cmpuint (rejected (PSC_ERROR_INVALID_ARGUMENT), ==, before + 9);
}

/* Handles the cache did not issue: a null result and FOREIGN_HANDLE naming
 * the field. Both real objects of the same device and made-up values. */
static void
test_cache_foreign_handles (void)
{
  g_autoptr(GError) error = NULL;
  guint64 before = rejected (PSC_ERROR_FOREIGN_HANDLE);
  guint n = 0;

  {
    VkPipelineLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &foreign_set_layout,
    };
    g_assert_true (psc_cache_get_pipeline_layout (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "pSetLayouts[0]");
    g_clear_error (&error);
    n++;
  }
  {
    VkSampler samplers[1] = { foreign_sampler };
    VkDescriptorSetLayoutBinding binding = {
      .binding = 3,
      .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
      .pImmutableSamplers = samplers,
    };
    VkDescriptorSetLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 1,
      .pBindings = &binding,
    };
    g_assert_true (psc_cache_get_descriptor_set_layout (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "pImmutableSamplers[0]");
    g_clear_error (&error);
    n++;
  }
  {
    VkComputePipelineCreateInfo info = compute_info (foreign_module, layout);
    g_assert_true (psc_cache_get_compute_pipeline (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "stage.module");
    g_clear_error (&error);
    n++;
    g_assert_cmpuint (psc_cache_prepare_compute_pipeline (cache, &info, &error), ==, 0);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "stage.module");
    g_clear_error (&error);
    n++;
  }
  {
    VkComputePipelineCreateInfo info = compute_info (module, foreign_pipeline_layout);
    g_assert_true (psc_cache_get_compute_pipeline (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "layout");
    g_clear_error (&error);
    n++;
  }
  {
    /* A made-up handle value. */
    VkComputePipelineCreateInfo info = compute_info ((VkShaderModule) (guintptr) 0xdead0000u, layout);
    g_assert_true (psc_cache_get_compute_pipeline (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "stage.module");
    g_clear_error (&error);
    n++;
  }
  {
    VkPipelineShaderStageCreateInfo stage = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
      .stage = VK_SHADER_STAGE_VERTEX_BIT,
      .module = foreign_module,
      .pName = "main",
    };
    VkPipelineVertexInputStateCreateInfo vertex = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO };
    VkPipelineInputAssemblyStateCreateInfo assembly = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo viewport = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
      .viewportCount = 1,
      .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
      .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
      .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    VkPipelineDynamicStateCreateInfo dynamic = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
      .dynamicStateCount = G_N_ELEMENTS (dynamic_states),
      .pDynamicStates = dynamic_states,
    };
    VkPipelineRenderingCreateInfo rendering = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
    };
    VkGraphicsPipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
      .pNext = &rendering,
      .stageCount = 1,
      .pStages = &stage,
      .pVertexInputState = &vertex,
      .pInputAssemblyState = &assembly,
      .pViewportState = &viewport,
      .pRasterizationState = &raster,
      .pMultisampleState = &multisample,
      .pDynamicState = &dynamic,
      .layout = layout,
      .basePipelineIndex = -1,
    };
    g_assert_true (psc_cache_get_graphics_pipeline (cache, &info, &error) == VK_NULL_HANDLE);
    assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "pStages[0].module");
    g_clear_error (&error);
    n++;
  }

  g_assert_false (psc_cache_release_shader (cache, foreign_module, &error));
  assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "module");
  g_clear_error (&error);
  n++;
  g_assert_false (psc_cache_release_shader_id (cache, 4242, &error));
  assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, "shader_id");
  g_clear_error (&error);
  n++;
  g_assert_cmpuint (psc_cache_get_shader_id (cache, foreign_module), ==, 0);
  g_assert_false (psc_cache_is_compat_render_pass (cache, (VkRenderPass) (guintptr) 0xbeef0000u));

  g_assert_false (psc_cache_pin (cache, VK_OBJECT_TYPE_PIPELINE_LAYOUT,
                                 (guint64) (guintptr) foreign_pipeline_layout, &error));
  assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, NULL);
  g_clear_error (&error);
  n++;
  g_assert_false (psc_cache_unpin (cache, VK_OBJECT_TYPE_SAMPLER,
                                   (guint64) (guintptr) foreign_sampler, &error));
  assert_psc_error (error, PSC_ERROR_FOREIGN_HANDLE, NULL);
  g_clear_error (&error);
  n++;

  g_assert_cmpuint (rejected (PSC_ERROR_FOREIGN_HANDLE), ==, before + n);

  /* Not a foreign handle but an unknown prepared key. */
  g_assert_true (psc_cache_get_prepared_pipeline (cache, 0, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "key_id");
  g_clear_error (&error);
  g_assert_true (psc_cache_get_prepared_pipeline (cache, 999999, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "key_id");
}

static void
test_cache_bad_spirv (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  static const guint32 zeros[16];
  guint32 odd[8];

  g_assert_true (psc_cache_register_shader (cache, zeros, sizeof zeros, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "pCode");
  g_clear_error (&error);

  memcpy (odd, psc_test_comp_spirv, sizeof odd);
  g_assert_true (psc_cache_register_shader (cache, odd, sizeof odd - 1, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "codeSize");
  g_clear_error (&error);

  g_assert_cmpuint (psc_cache_register_shader_bytes (cache, empty, &error), ==, 0);
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "codeSize");
}

/* GBytes need not be word-aligned (bindings, files): registration and
 * replacement follow one rule, copying misaligned bytes only (the ASan +
 * UBSan build reports a misaligned word read otherwise). */
static void
test_cache_spirv_alignment (void)
{
  g_autoptr(GError) error = NULL;
  gsize size = sizeof psc_test_comp_spirv;
  g_autofree guint8 *buffer = g_malloc (size + 1);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) misaligned = NULL;
  g_autoptr(GBytes) aligned = g_bytes_new_static (psc_test_comp_spirv, size);
  g_autoptr(PscCache) c = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  guint id, again;

  g_assert_no_error (error);
  memcpy (buffer + 1, psc_test_comp_spirv, size);
  whole = g_bytes_new_take (g_steal_pointer (&buffer), size + 1);
  misaligned = g_bytes_new_from_bytes (whole, 1, size);
  g_assert_cmpuint ((guintptr) g_bytes_get_data (misaligned, NULL) % 4, !=, 0);

  id = psc_cache_register_shader_bytes (c, misaligned, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (id, !=, 0);
  /* The same content, aligned: the same shader. */
  again = psc_cache_register_shader_bytes (c, aligned, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again, ==, id);
  /* Hot reload from misaligned and aligned bytes. */
  g_assert_true (psc_cache_replace_shader_bytes (c, id, misaligned, &error));
  g_assert_no_error (error);
  g_assert_true (psc_cache_replace_shader_bytes (c, id, aligned, &error));
  g_assert_no_error (error);
  /* The caller's bytes are untouched. */
  g_assert_cmpmem (g_bytes_get_data (misaligned, NULL), size, psc_test_comp_spirv, size);
  psc_cache_begin_frame (c, 1, 0);
}

/* The threads table (PscCache's documentation, docs/threads.md) ---------- */

/* What the foreign thread's calls name: real, cache-issued objects, so a
 * call that wrongly ran would succeed (and change the cache). */
typedef struct {
  VkComputePipelineCreateInfo compute;
  VkGraphicsPipelineCreateInfo *graphics;
  VkSamplerCreateInfo sampler;
  VkDescriptorSetLayoutCreateInfo set_layout;
  VkPipelineLayoutCreateInfo pipeline_layout;
  VkRenderPassCreateInfo render_pass;
  VkRenderPass compat_pass;
  GBytes *spirv;
  VkPipeline pipeline;
  guint32 prepared;
  guint shader_id;
  GAsyncResult *finished;      /* a completed task of the owner thread */
} ThreadsCtx;

static ThreadsCtx tc;

/* Row (a): owner thread only, with a GError. Each returns TRUE if the call
 * returned its documented null value. */
#define ROW_A(name, expr, null_value) \
  static gboolean a_##name (GError **error) { return (expr) == (null_value); }

ROW_A (register_shader, psc_cache_register_shader (cache, psc_test_comp_spirv, sizeof psc_test_comp_spirv, error), VK_NULL_HANDLE)
ROW_A (register_shader_bytes, psc_cache_register_shader_bytes (cache, tc.spirv, error), 0)
ROW_A (release_shader, psc_cache_release_shader (cache, module, error), FALSE)
ROW_A (release_shader_id, psc_cache_release_shader_id (cache, tc.shader_id, error), FALSE)
ROW_A (replace_shader, psc_cache_replace_shader (cache, module, psc_test_comp_spirv, sizeof psc_test_comp_spirv, VK_NULL_HANDLE, error), VK_NULL_HANDLE)
ROW_A (replace_shader_bytes, psc_cache_replace_shader_bytes (cache, tc.shader_id, tc.spirv, error), FALSE)
ROW_A (get_sampler, psc_cache_get_sampler (cache, &tc.sampler, error), VK_NULL_HANDLE)
ROW_A (get_descriptor_set_layout, psc_cache_get_descriptor_set_layout (cache, &tc.set_layout, error), VK_NULL_HANDLE)
ROW_A (get_pipeline_layout, psc_cache_get_pipeline_layout (cache, &tc.pipeline_layout, error), VK_NULL_HANDLE)
ROW_A (get_compat_render_pass, psc_cache_get_compat_render_pass (cache, &tc.render_pass, error), VK_NULL_HANDLE)
ROW_A (get_graphics_pipeline, psc_cache_get_graphics_pipeline (cache, tc.graphics, error), VK_NULL_HANDLE)
ROW_A (get_compute_pipeline, psc_cache_get_compute_pipeline (cache, &tc.compute, error), VK_NULL_HANDLE)
ROW_A (get_graphics_key_size, psc_cache_get_graphics_key_size (cache, tc.graphics, error), 0)
static guint64 tc_hash;
ROW_A (get_graphics_key_hash, psc_cache_get_graphics_key_hash (cache, tc.graphics, &tc_hash, error), FALSE)
ROW_A (get_compute_key_hash, psc_cache_get_compute_key_hash (cache, &tc.compute, &tc_hash, error), FALSE)
ROW_A (prepare_graphics_pipeline, psc_cache_prepare_graphics_pipeline (cache, tc.graphics, error), 0)
ROW_A (prepare_compute_pipeline, psc_cache_prepare_compute_pipeline (cache, &tc.compute, error), 0)
ROW_A (get_prepared_pipeline, psc_cache_get_prepared_pipeline (cache, tc.prepared, error), VK_NULL_HANDLE)
ROW_A (request_graphics_pipeline, psc_cache_request_graphics_pipeline (cache, tc.graphics, PSC_MISS_POLICY_WAIT, 0, NULL, NULL, NULL, error), VK_NULL_HANDLE)
ROW_A (request_compute_pipeline, psc_cache_request_compute_pipeline (cache, &tc.compute, PSC_MISS_POLICY_WAIT, 0, NULL, NULL, NULL, error), VK_NULL_HANDLE)
ROW_A (request_prepared_pipeline, psc_cache_request_prepared_pipeline (cache, tc.prepared, PSC_MISS_POLICY_WAIT, 0, NULL, NULL, NULL, error), VK_NULL_HANDLE)
ROW_A (set_fallback, psc_cache_set_fallback (cache, tc.pipeline, error), FALSE)
ROW_A (pin, psc_cache_pin (cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) tc.pipeline, error), FALSE)
ROW_A (unpin, psc_cache_unpin (cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) tc.pipeline, error), FALSE)

/* The asynchronous requests report through their task, in the calling
 * thread's context. */
static void
async_done_cb (GObject *source, GAsyncResult *res, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (res);
}

static gboolean
a_async (GError **error, gboolean graphics)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) res = NULL;
  VkPipeline p;

  g_main_context_push_thread_default (context);
  if (graphics)
    psc_cache_get_graphics_pipeline_async (cache, tc.graphics, NULL, async_done_cb, &res);
  else
    psc_cache_get_compute_pipeline_async (cache, &tc.compute, NULL, async_done_cb, &res);
  while (res == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  p = graphics ? psc_cache_get_graphics_pipeline_finish (cache, res, error)
               : psc_cache_get_compute_pipeline_finish (cache, res, error);
  return p == VK_NULL_HANDLE;
}

static gboolean a_save (GError **error) { return !psc_cache_save (cache, error); }
static gboolean a_save_to_bytes (GError **error) { return psc_cache_save_to_bytes (cache, error) == NULL; }
static gboolean
a_load_bytes (GError **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static ("PSCDRV\r\n", 8);
  return !psc_cache_load_bytes (cache, bytes, error);
}
static gboolean a_get_graphics_pipeline_async (GError **error) { return a_async (error, TRUE); }
static gboolean a_get_compute_pipeline_async (GError **error) { return a_async (error, FALSE); }

static const struct {
  const char *name;
  gboolean (*call) (GError **error);
} row_a[] = {
#define A(name) { #name, a_##name }
  A (register_shader), A (register_shader_bytes), A (release_shader), A (release_shader_id),
  A (replace_shader), A (replace_shader_bytes), A (get_sampler), A (get_descriptor_set_layout),
  A (get_pipeline_layout), A (get_compat_render_pass), A (get_graphics_pipeline),
  A (get_compute_pipeline), A (get_graphics_key_size), A (get_graphics_key_hash),
  A (get_compute_key_hash), A (prepare_graphics_pipeline),
  A (prepare_compute_pipeline), A (get_prepared_pipeline), A (request_graphics_pipeline),
  A (request_compute_pipeline), A (request_prepared_pipeline), A (get_graphics_pipeline_async),
  A (get_compute_pipeline_async), A (set_fallback), A (pin), A (unpin),
  A (save), A (save_to_bytes), A (load_bytes),
#undef A
};

/* Row (b): owner thread only, without a GError: a critical and the null
 * value (or nothing). Each returns TRUE if the call returned its null value;
 * the caller expects the critical. */
static gboolean b_begin_frame (void) { psc_cache_begin_frame (cache, 1000, 999); return TRUE; }
static gboolean b_close (void) { psc_cache_close (cache, 1000); return TRUE; }
static gboolean b_clear_failures (void) { psc_cache_clear_failures (cache); return TRUE; }
static gboolean b_evict (void) { return psc_cache_evict (cache, 0) == 0; }
static gboolean b_set_eviction_idle_frames (void) { psc_cache_set_eviction_idle_frames (cache, 77); return TRUE; }
static gboolean b_set_eviction_property (void) { g_object_set (cache, "eviction-idle-frames", 78, NULL); return TRUE; }
static gboolean b_get_shader_id (void) { return psc_cache_get_shader_id (cache, module) == 0; }
static gboolean b_is_compat_render_pass (void) { return !psc_cache_is_compat_render_pass (cache, tc.compat_pass); }

static const struct {
  const char *name;
  gboolean (*call) (void);
} row_b[] = {
#define B(name) { #name, b_##name }
  B (begin_frame), B (close), B (clear_failures), B (evict), B (set_eviction_idle_frames),
  B (set_eviction_property), B (get_shader_id), B (is_compat_render_pass),
#undef B
};

/* Row (c): any thread. What the owner thread saw, to compare with. */
typedef struct {
  guint64 frame;
  guint64 shader_entries;
  guint64 hits;
  guint eviction_idle_frames;
  guint workers;
  PscBackend backend;
} OwnerView;

static void
owner_view (OwnerView *v)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);

  v->frame = psc_stats_get_frame (stats);
  v->shader_entries = psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES);
  v->eviction_idle_frames = psc_cache_get_eviction_idle_frames (cache);
  g_object_get (cache, "hits", &v->hits, "workers", &v->workers, "backend", &v->backend, NULL);
}

static gpointer
threads_table_main (gpointer data)
{
  const OwnerView *owner = data;
  OwnerView here;
  g_autoptr(GError) error = NULL;

  g_assert_false (g_thread_self () == NULL);
  for (guint i = 0; i < G_N_ELEMENTS (row_a); i++)
    {
      if (!row_a[i].call (&error))
        g_error ("(a) psc_cache_%s from a foreign thread returned a value", row_a[i].name);
      if (!g_error_matches (error, PSC_ERROR, PSC_ERROR_WRONG_THREAD))
        g_error ("(a) psc_cache_%s from a foreign thread: expected WRONG_THREAD, got %s",
                 row_a[i].name, error != NULL ? error->message : "no error");
      g_clear_error (&error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (row_b); i++)
    {
      EXPECT_CRITICAL ("*owner thread*");
      if (!row_b[i].call ())
        g_error ("(b) psc_cache_%s from a foreign thread returned a value", row_b[i].name);
      g_test_assert_expected_messages ();
    }

  /* (c): the same answers as on the owner thread. */
  g_assert_true (psc_cache_get_device (cache) == device);
  g_assert_cmpint (psc_cache_get_backend (cache), ==, owner->backend);
  g_assert_cmpint (psc_cache_get_flags (cache), ==, PSC_CACHE_FLAGS_NONE);
  g_assert_null (psc_cache_get_application_id (cache));
  g_assert_null (psc_cache_get_cache_directory (cache));
  owner_view (&here);
  g_assert_cmpuint (here.frame, ==, owner->frame);
  g_assert_cmpuint (here.shader_entries, ==, owner->shader_entries);
  g_assert_cmpuint (here.hits, ==, owner->hits);
  g_assert_cmpuint (here.eviction_idle_frames, ==, owner->eviction_idle_frames);
  g_assert_cmpuint (here.workers, ==, owner->workers);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES),
                    ==, owner->shader_entries);
  {
    g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
    g_autoptr(GVariant) dict = psc_stats_to_variant (stats);
    g_assert_nonnull (dict);
  }
  /* A finish function reads only its result. */
  g_assert_true (psc_cache_get_compute_pipeline_finish (cache, tc.finished, &error) == tc.pipeline);
  g_assert_no_error (error);
  return NULL;
}

static void
test_threads_table (void)
{
  g_autoptr(GError) error = NULL;
  PscTestGraphicsInfoApi g;
  guint64 rejected_before;
  OwnerView before, after;
  GThread *thread;

  /* Real objects of the cache, made on the owner thread. */
  memset (&tc, 0, sizeof tc);
  tc.compute = compute_info (module, layout);
  api_graphics_info (&g);
  tc.graphics = &g.info;
  tc.sampler = (VkSamplerCreateInfo) { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .maxLod = 2.0f };
  tc.set_layout = (VkDescriptorSetLayoutCreateInfo) { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO };
  tc.pipeline_layout = (VkPipelineLayoutCreateInfo) { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO };
  api_render_pass_info (&tc.render_pass);
  tc.compat_pass = psc_cache_get_compat_render_pass (cache, &tc.render_pass, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_is_compat_render_pass (cache, tc.compat_pass));
  tc.spirv = g_bytes_new_static (psc_test_comp_spirv, sizeof psc_test_comp_spirv);
  tc.shader_id = psc_cache_get_shader_id (cache, module);
  g_assert_cmpuint (tc.shader_id, !=, 0);
  tc.pipeline = psc_cache_get_compute_pipeline (cache, &tc.compute, &error);
  g_assert_no_error (error);
  tc.prepared = psc_cache_prepare_compute_pipeline (cache, &tc.compute, &error);
  g_assert_no_error (error);
  psc_cache_get_compute_pipeline_async (cache, &tc.compute, NULL, async_done_cb, &tc.finished);
  while (tc.finished == NULL)
    g_main_context_iteration (NULL, TRUE);

  rejected_before = rejected (PSC_ERROR_WRONG_THREAD);
  owner_view (&before);
  thread = g_thread_new ("not-the-owner", threads_table_main, &before);
  g_thread_join (thread);
  owner_view (&after);

  /* Nothing the foreign thread did had an effect: same frame, same
   * eviction setting, same objects, still open; each (a) call was counted
   * as a rejected request, once. */
  g_assert_cmpuint (after.frame, ==, before.frame);
  g_assert_cmpuint (after.eviction_idle_frames, ==, before.eviction_idle_frames);
  g_assert_cmpuint (after.shader_entries, ==, before.shader_entries);
  g_assert_cmpuint (after.hits, ==, before.hits);
  g_assert_cmpuint (rejected (PSC_ERROR_WRONG_THREAD), ==, rejected_before + G_N_ELEMENTS (row_a));
  g_assert_true (psc_cache_get_compute_pipeline (cache, &tc.compute, &error) == tc.pipeline);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_cache_get_shader_id (cache, module), ==, tc.shader_id);
  g_assert_true (psc_cache_is_compat_render_pass (cache, tc.compat_pass));

  g_clear_object (&tc.finished);
  g_clear_pointer (&tc.spirv, g_bytes_unref);
}

/* A valid round trip, so the error paths above are not the only ones
 * exercised on this cache. */
static void
test_cache_valid_requests (void)
{
  g_autoptr(GError) error = NULL;
  VkComputePipelineCreateInfo compute = compute_info (module, layout);
  VkPipeline a, b, prepared;
  guint32 key_id;

  a = psc_cache_get_compute_pipeline (cache, &compute, &error);
  g_assert_no_error (error);
  b = psc_cache_get_compute_pipeline (cache, &compute, &error);
  g_assert_no_error (error);
  g_assert_true (a != VK_NULL_HANDLE && a == b);

  key_id = psc_cache_prepare_compute_pipeline (cache, &compute, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (key_id, !=, 0);
  prepared = psc_cache_get_prepared_pipeline (cache, key_id, &error);
  g_assert_no_error (error);
  g_assert_true (prepared == a);

  g_assert_true (psc_cache_pin (cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) a, &error));
  g_assert_no_error (error);
  g_assert_true (psc_cache_unpin (cache, VK_OBJECT_TYPE_PIPELINE, (guint64) (guintptr) a, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS), ==, 1);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 1);
  psc_cache_begin_frame (cache, 2, 0);
}

/* Construction: GInitable, construct-only properties, no zombies ----------- */

static gboolean
message_contains (const GError *error,
                  const char   *part)
{
  return error != NULL && strstr (error->message, part) != NULL;
}

/* What a cache that is not open does: every method with a GError fails with
 * CLOSED (whose message contains @why), the others do nothing, the getters
 * answer; no critical anywhere (the suite runs with fatal criticals). */
static void
assert_not_open (PscCache   *c,
                 const char *why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new_static (psc_test_comp_spirv, sizeof psc_test_comp_spirv);
  g_autoptr(PscStats) stats = NULL;
  VkSamplerCreateInfo sampler = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };

  g_assert_true (psc_cache_register_shader (c, psc_test_comp_spirv, sizeof psc_test_comp_spirv,
                                            &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_CLOSED, why);
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_register_shader_bytes (c, bytes, &error), ==, 0);
  assert_psc_error (error, PSC_ERROR_CLOSED, why);
  g_clear_error (&error);
  g_assert_true (psc_cache_get_sampler (c, &sampler, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_CLOSED, why);
  g_clear_error (&error);
  g_assert_true (psc_cache_request_prepared_pipeline (c, 1, PSC_MISS_POLICY_SKIP, 0, NULL, NULL,
                                                      NULL, &error) == VK_NULL_HANDLE);
  assert_psc_error (error, PSC_ERROR_CLOSED, why);
  g_clear_error (&error);
  g_assert_false (psc_cache_pin (c, VK_OBJECT_TYPE_PIPELINE, 1, &error));
  assert_psc_error (error, PSC_ERROR_CLOSED, why);
  g_clear_error (&error);

  psc_cache_begin_frame (c, 5, 0);
  psc_cache_clear_failures (c);
  g_assert_cmpuint (psc_cache_evict (c, 0), ==, 0);
  psc_cache_set_eviction_idle_frames (c, 9);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (c), ==, 0);
  g_assert_cmpuint (psc_cache_get_shader_id (c, module), ==, 0);
  g_assert_false (psc_cache_is_compat_render_pass (c, VK_NULL_HANDLE));
  psc_cache_close (c, 0);

  stats = psc_cache_get_stats (c);
  g_assert_nonnull (stats);
  g_assert_cmpuint (psc_stats_get_frame (stats), ==, 0);
  g_assert_cmpuint (psc_stats_get_rejected_total (stats), ==, 0);
  g_assert_cmpuint (psc_cache_get_counter (c, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_HITS), ==, 0);
}

static void
test_construct_g_object_new (void)
{
  g_autoptr(PscCache) c = g_object_new (PSC_TYPE_CACHE, NULL);
  g_autoptr(GError) error = NULL;

  /* Not open, and it says so, without a critical. */
  g_assert_nonnull (c);
  g_assert_null (psc_cache_get_device (c));
  g_assert_cmpint (psc_cache_get_backend (c), ==, PSC_BACKEND_AUTO);
  assert_not_open (c, "never initialized");

  /* Initialization reports the missing property, once and for all. */
  g_assert_false (g_initable_init (G_INITABLE (c), NULL, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "device");
  g_clear_error (&error);
  g_assert_false (g_initable_init (G_INITABLE (c), NULL, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "device");
  g_assert_true (message_contains (error, "PscDevice"));
  assert_not_open (c, "initialization failed");
}

static void
test_construct_initable_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscCache) c = NULL;
  g_autoptr(PscDevice) d = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new_static (psc_test_comp_spirv, sizeof psc_test_comp_spirv);
  PscBackend backend;
  guint workers, jobs, waiters, budget;

  /* Without the required property: NULL and an error, no object. */
  g_assert_null (g_initable_new (PSC_TYPE_CACHE, NULL, &error, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "device");
  g_clear_error (&error);
  g_assert_null (g_initable_new (PSC_TYPE_CACHE, NULL, &error, "workers", 3, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "device");
  g_clear_error (&error);

  /* With it: every construct-only property reads back. */
  c = g_initable_new (PSC_TYPE_CACHE, NULL, &error,
                      "device", device, "workers", 2, "job-capacity", 8,
                      "waiter-capacity", 16, "publish-budget-us", 100, NULL);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_object_get (c, "backend", &backend, "workers", &workers, "job-capacity", &jobs,
                "waiter-capacity", &waiters, "publish-budget-us", &budget, NULL);
  g_assert_cmpint (backend, ==, PSC_BACKEND_DYNAMIC_RENDERING);   /* AUTO, resolved */
  g_assert_cmpuint (workers, ==, 2);
  g_assert_cmpuint (jobs, ==, 8);
  g_assert_cmpuint (waiters, ==, 16);
  g_assert_cmpuint (budget, ==, 100);
  g_assert_true (psc_cache_get_device (c) == device);
  g_assert_cmpuint (psc_cache_register_shader_bytes (c, bytes, &error), !=, 0);
  g_assert_no_error (error);
  g_clear_object (&c);

  /* A failure of the cache itself (a backend the device lacks): the
   * initialization's error, then every method names it. */
  d = psc_device_new_headless (PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING, &error);
  g_assert_no_error (error);
  g_assert_null (g_initable_new (PSC_TYPE_CACHE, NULL, &error, "device", d,
                                 "backend", PSC_BACKEND_DYNAMIC_RENDERING, NULL));
  assert_psc_error (error, PSC_ERROR_UNSUPPORTED, "backend");
  g_clear_error (&error);
  c = g_object_new (PSC_TYPE_CACHE, "device", d, "backend", PSC_BACKEND_DYNAMIC_RENDERING, NULL);
  g_assert_false (g_initable_init (G_INITABLE (c), NULL, &error));
  assert_psc_error (error, PSC_ERROR_UNSUPPORTED, "backend");
  g_clear_error (&error);
  g_assert_cmpint (psc_cache_get_backend (c), ==, PSC_BACKEND_DYNAMIC_RENDERING);  /* as asked */
  assert_not_open (c, "backend");
}

static void
test_construct_device (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) d = g_object_new (PSC_TYPE_DEVICE, NULL);
  g_autoptr(PscCache) c = NULL;
  const PscDeviceInfo *real = psc_device_get_info (device);
  guint index = 7;

  /* Neither headless nor wrapping: an error, and no critical from the
   * getters of the failed object. */
  g_assert_false (g_initable_init (G_INITABLE (d), NULL, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "headless");
  g_clear_error (&error);
  g_assert_null (psc_device_get_name (d));
  g_assert_cmpuint (psc_device_get_api_version (d), ==, 0);
  g_assert_false (psc_device_get_dynamic_rendering (d));
  /* A cache refuses it. */
  g_assert_null (psc_cache_new (d, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "device: the PscDevice was not initialized");
  g_clear_error (&error);
  g_clear_object (&d);

  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "vulkan-info");
  g_clear_error (&error);

  /* The physical-device index (it replaced an environment variable). */
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "headless", TRUE,
                                 "physical-device-index", 99, NULL));
  assert_psc_error (error, PSC_ERROR_NO_DEVICE, "physical-device-index");
  g_clear_error (&error);
  d = g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "headless", TRUE,
                      "physical-device-index", 0, NULL);
  g_assert_no_error (error);
  g_object_get (d, "physical-device-index", &index, NULL);
  g_assert_cmpuint (index, ==, 0);
  g_assert_true (psc_device_get_headless (d));
  g_assert_cmpstr (psc_device_get_name (d), ==, psc_device_get_name (device));
  g_clear_object (&d);

  /* Both modes, or headless-only properties on a wrapping device. */
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "headless", TRUE,
                                 "vulkan-info", real, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "vulkan-info");
  g_clear_error (&error);
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", real,
                                 "flags", PSC_DEVICE_FLAGS_VALIDATION, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "flags");
  g_clear_error (&error);
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", real,
                                 "physical-device-index", 1, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "physical-device-index");
  g_clear_error (&error);

  /* Wrapping through the property works like psc_device_new_for_vulkan. */
  d = g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", real, NULL);
  g_assert_no_error (error);
  g_assert_false (psc_device_get_headless (d));
  c = psc_cache_new (d, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
}

/* Versioned structures ------------------------------------------------------ */

/* PscCacheOptions as libpsocache 0.1 declares it, frozen here: when a field
 * is added to the public structure, a program compiled against 0.1 still
 * passes this size, and it must still be accepted. */
typedef struct {
  gsize size;
  guint workers;
  guint job_capacity;
  guint waiter_capacity;
  guint publish_budget_us;
} CacheOptions_0_1;
/* The public structure may only grow at its end. */
G_STATIC_ASSERT (sizeof (CacheOptions_0_1) <= sizeof (PscCacheOptions));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CacheOptions_0_1, workers) == G_STRUCT_OFFSET (PscCacheOptions, workers));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CacheOptions_0_1, publish_budget_us) ==
                 G_STRUCT_OFFSET (PscCacheOptions, publish_budget_us));

/* A structure from a newer header: today's members, then more. */
typedef struct {
  PscCacheOptions today;
  guint64 future[4];
} CacheOptionsFuture;

static guint
cache_workers (PscCache *c)
{
  guint workers = 0;

  g_object_get (c, "workers", &workers, NULL);
  return workers;
}

static void
test_versioned_cache_options (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscCache) c = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  CacheOptions_0_1 old = { sizeof old, 3, 0, 0, 0 };
  CacheOptionsFuture future;

  g_assert_cmpuint (options.size, ==, sizeof (PscCacheOptions));
  g_assert_cmpuint (options.workers, ==, 0);

  /* Today's size, as a 0.1 program passes it. */
  c = psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                          (const PscCacheOptions *) &old, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cache_workers (c), ==, 3);
  g_clear_object (&c);

  /* A newer program whose new members are zero: accepted. */
  memset (&future, 0, sizeof future);
  future.today.size = sizeof future;
  future.today.workers = 2;
  c = psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &future.today, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cache_workers (c), ==, 2);
  g_clear_object (&c);

  /* ...but a new member set is something this library cannot do. */
  future.future[1] = 1;
  g_assert_null (psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                                     &future.today, &error));
  {
    g_autofree char *offset = g_strdup_printf ("offset %" G_GSIZE_FORMAT,
                                               G_STRUCT_OFFSET (CacheOptionsFuture, future[1]));
    assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, offset);
  }
  g_clear_error (&error);

  /* Sizes below the first version, or no version could have. */
  options.size = 0;
  g_assert_null (psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "options->size");
  g_clear_error (&error);
  options.size = G_STRUCT_OFFSET (PscCacheOptions, publish_budget_us);
  g_assert_null (psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "options->size");
  g_clear_error (&error);
  options.size = 1 << 20;
  g_assert_null (psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "options->size");
  g_clear_error (&error);

  /* NULL options: the defaults. */
  c = psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cache_workers (c), ==, 0);
}

/* PscDeviceInfo as libpsocache 0.1 declares it (see CacheOptions_0_1). */
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
} DeviceInfo_0_1;
G_STATIC_ASSERT (sizeof (DeviceInfo_0_1) <= sizeof (PscDeviceInfo));
G_STATIC_ASSERT (G_STRUCT_OFFSET (DeviceInfo_0_1, instance) == G_STRUCT_OFFSET (PscDeviceInfo, instance));
G_STATIC_ASSERT (G_STRUCT_OFFSET (DeviceInfo_0_1, queue) == G_STRUCT_OFFSET (PscDeviceInfo, queue));

typedef struct {
  PscDeviceInfo today;
  guint64 future[4];
} DeviceInfoFuture;

static void
test_versioned_device_info (void)
{
  const PscDeviceInfo *real = psc_device_get_info (device);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) d = NULL;
  PscDeviceInfo init = PSC_DEVICE_INFO_INIT;
  DeviceInfo_0_1 old;
  DeviceInfoFuture future;
  PscDeviceInfo small;

  g_assert_cmpuint (init.size, ==, sizeof (PscDeviceInfo));
  g_assert_null (init.instance);
  /* The device's own description carries this library's size. */
  g_assert_cmpuint (real->size, ==, sizeof (PscDeviceInfo));

  memset (&old, 0, sizeof old);
  old.size = sizeof old;
  old.instance = real->instance;
  old.physical_device = real->physical_device;
  old.device = real->device;
  old.get_instance_proc_addr = real->get_instance_proc_addr;
  old.api_version = real->api_version;
  old.queue = real->queue;
  d = psc_device_new_for_vulkan ((const PscDeviceInfo *) &old, &error);
  g_assert_no_error (error);
  g_assert_true (psc_device_get_info (d)->queue == real->queue);
  g_assert_cmpuint (psc_device_get_info (d)->size, ==, sizeof (PscDeviceInfo));
  g_clear_object (&d);

  memset (&future, 0, sizeof future);
  future.today = *real;
  future.today.size = sizeof future;
  d = psc_device_new_for_vulkan (&future.today, &error);
  g_assert_no_error (error);
  g_clear_object (&d);
  /* The same through the property. */
  d = g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", &future.today, NULL);
  g_assert_no_error (error);
  g_clear_object (&d);

  future.future[3] = 0xff;
  g_assert_null (psc_device_new_for_vulkan (&future.today, &error));
  {
    g_autofree char *offset = g_strdup_printf ("offset %" G_GSIZE_FORMAT,
                                               G_STRUCT_OFFSET (DeviceInfoFuture, future[3]));
    assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, offset);
  }
  g_clear_error (&error);
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", &future.today, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "offset");
  g_clear_error (&error);

  small = *real;
  small.size = G_STRUCT_OFFSET (PscDeviceInfo, queue);
  g_assert_null (psc_device_new_for_vulkan (&small, &error));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "info->size");
  g_clear_error (&error);
  small.size = 0;
  g_assert_null (g_initable_new (PSC_TYPE_DEVICE, NULL, &error, "vulkan-info", &small, NULL));
  assert_psc_error (error, PSC_ERROR_INVALID_ARGUMENT, "info->size");
}

/* Counters: PscStats ------------------------------------------------------ */

/* The stable dictionary names are the enumerations' nicks. */
static void
assert_dictionary_value (GVariant   *dict,
                         const char *name,
                         guint64     expected)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (dict, name, NULL);

  if (v == NULL)
    g_error ("psc_stats_to_variant has no \"%s\"", name);
  g_assert_cmpstr (g_variant_get_type_string (v), ==, "t");
  g_assert_cmpuint (g_variant_get_uint64 (v), ==, expected);
}

static void
test_stats_snapshot (void)
{
  g_autoptr(PscStats) before = psc_cache_get_stats (cache);
  g_autoptr(PscStats) after = NULL;
  PscStats *copy;
  guint64 frame = psc_stats_get_frame (before);

  g_assert_nonnull (before);
  g_assert_true (G_TYPE_IS_BOXED (PSC_TYPE_STATS));
  /* Immutable: a later frame shows in a new snapshot only. */
  psc_cache_begin_frame (cache, frame + 1, 0);
  after = psc_cache_get_stats (cache);
  g_assert_cmpuint (psc_stats_get_frame (before), ==, frame);
  g_assert_cmpuint (psc_stats_get_frame (after), ==, frame + 1);
  /* Reference counted: a boxed copy is the same snapshot. */
  copy = g_boxed_copy (PSC_TYPE_STATS, before);
  g_assert_true (copy == before);
  g_boxed_free (PSC_TYPE_STATS, copy);
  g_assert_true (psc_stats_ref (before) == before);
  psc_stats_unref (before);
  g_assert_cmpuint (psc_stats_get_frame (before), ==, frame);

  /* The getters read what the cache counts. */
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES), ==,
                    psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES));
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES), >=, 1);
  g_assert_cmpuint (psc_stats_get_total (after, PSC_COUNTER_CREATIONS), ==,
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_PIPELINE_LAYOUT, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS) +
                    psc_stats_get_counter (after, PSC_OBJECT_KIND_RENDER_PASS, PSC_COUNTER_CREATIONS));
  {
    g_autoptr(GObject) as_object = G_OBJECT (g_object_ref (cache));
    guint64 hits = 0, rejected_total = 0;

    g_object_get (as_object, "hits", &hits, "rejected", &rejected_total, NULL);
    g_assert_cmpuint (hits, ==, psc_stats_get_total (after, PSC_COUNTER_HITS));
    g_assert_cmpuint (rejected_total, ==, psc_stats_get_rejected_total (after));
  }
}

/* Known work on a fresh cache, with a distinct value for each counter, so a
 * getter that read the wrong field would fail. */
static void
test_stats_counts (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscCache) c = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_autoptr(PscStats) stats = NULL;
  g_autoptr(GVariant) dict = NULL;
  static const guint32 zeros[16];
  guint32 variant[G_N_ELEMENTS (psc_test_comp_spirv)];
  VkShaderModule a = VK_NULL_HANDLE, b;

  g_assert_no_error (error);
  psc_cache_begin_frame (c, 7, 0);
  /* Variant b: another generator word, the same shader (as the Python
   * tests do). */
  memcpy (variant, psc_test_comp_spirv, sizeof variant);
  variant[2] ^= 0x00010000u;
  for (int i = 0; i < 4; i++)
    a = psc_cache_register_shader (c, psc_test_comp_spirv, sizeof psc_test_comp_spirv, &error);
  g_assert_no_error (error);
  b = psc_cache_register_shader (c, variant, sizeof variant, &error);
  g_assert_no_error (error);
  g_assert_true (a != b);
  g_assert_true (psc_cache_release_shader (c, b, &error));
  for (int i = 0; i < 2; i++)
    {
      g_assert_true (psc_cache_register_shader (c, zeros, sizeof zeros, &error) == VK_NULL_HANDLE);
      g_clear_error (&error);
    }
  g_assert_false (psc_cache_release_shader (c, foreign_module, &error));
  g_clear_error (&error);

  stats = psc_cache_get_stats (c);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_HITS), ==, 3);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_MISSES), ==, 2);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_CREATIONS), ==, 2);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES), ==, 1);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_CREATION_NS), >, 0);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_HOST_BYTES), >,
                    sizeof psc_test_comp_spirv);
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_ENTRIES), ==, 0);
  g_assert_cmpuint (psc_stats_get_total (stats, PSC_COUNTER_HITS), ==, 3);
  g_assert_cmpuint (psc_stats_get_total (stats, PSC_COUNTER_ENTRIES), ==, 1);
  g_assert_cmpuint (psc_stats_get_rejected (stats, PSC_ERROR_INVALID_ARGUMENT), ==, 2);
  g_assert_cmpuint (psc_stats_get_rejected (stats, PSC_ERROR_FOREIGN_HANDLE), ==, 1);
  g_assert_cmpuint (psc_stats_get_rejected (stats, PSC_ERROR_CAPACITY), ==, 0);
  g_assert_cmpuint (psc_stats_get_rejected_total (stats), ==, 3);
  g_assert_cmpuint (psc_stats_get_capacity_failures (stats), ==, 0);
  g_assert_cmpuint (psc_stats_get_frame (stats), ==, 7);
  for (int i = 0; i <= PSC_ASYNC_COUNTER_UNPUBLISHED; i++)
    g_assert_cmpuint (psc_stats_get_async (stats, (PscAsyncCounter) i), ==, 0);

  dict = psc_stats_to_variant (stats);
  assert_dictionary_value (dict, "shader-module.hits", 3);
  assert_dictionary_value (dict, "shader-module.misses", 2);
  assert_dictionary_value (dict, "shader-module.creations", 2);
  assert_dictionary_value (dict, "shader-module.entries", 1);
  assert_dictionary_value (dict, "rejected.invalid-argument", 2);
  assert_dictionary_value (dict, "rejected.foreign-handle", 1);
  assert_dictionary_value (dict, "frame", 7);
  assert_dictionary_value (dict, "capacity-failures", 0);
}

/* Unknown enumeration values (from a newer header, or garbage): a critical
 * and 0, never a read out of bounds. */
static void
test_stats_bad_args (void)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);

  EXPECT_CRITICAL ("*kind*");
  g_assert_cmpuint (psc_stats_get_counter (stats, (PscObjectKind) 7, PSC_COUNTER_HITS), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*counter*");
  g_assert_cmpuint (psc_stats_get_counter (stats, PSC_OBJECT_KIND_SAMPLER, (PscCounter) 6), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*counter*");
  g_assert_cmpuint (psc_stats_get_total (stats, (PscCounter) -1), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*code*");
  g_assert_cmpuint (psc_stats_get_rejected (stats, (PscError) (PSC_ERROR_IO + 1)), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*counter*");
  g_assert_cmpuint (psc_stats_get_persist (stats, (PscPersistCounter) 1000), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*reason*");
  g_assert_cmpuint (psc_stats_get_file_rejections (stats, (PscFileRejection) 0), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*reason*");
  g_assert_cmpuint (psc_stats_get_file_rejections (stats, (PscFileRejection) 24), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*self != NULL*");
  g_assert_false (psc_stats_get_persistence_enabled (NULL));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*counter*");
  g_assert_cmpuint (psc_stats_get_async (stats, (PscAsyncCounter) (PSC_ASYNC_COUNTER_UNPUBLISHED + 1)), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("*self != NULL*");
  g_assert_cmpuint (psc_stats_get_frame (NULL), ==, 0);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*self != NULL*");
  g_assert_null (psc_stats_to_variant (NULL));
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("*self != NULL*");
  psc_stats_unref (NULL);
  g_test_assert_expected_messages ();
}

/* psc_stats_to_variant: every counter once, as 't', under the documented
 * name, with the getters' value. */
static void
test_stats_variant (void)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
  g_autoptr(GVariant) dict = psc_stats_to_variant (stats);
  g_autoptr(GEnumClass) kinds = g_type_class_ref (PSC_TYPE_OBJECT_KIND);
  g_autoptr(GEnumClass) counters = g_type_class_ref (PSC_TYPE_COUNTER);
  g_autoptr(GEnumClass) errors = g_type_class_ref (PSC_TYPE_ERROR);
  g_autoptr(GEnumClass) async = g_type_class_ref (PSC_TYPE_ASYNC_COUNTER);
  g_autoptr(GEnumClass) persist = g_type_class_ref (PSC_TYPE_PERSIST_COUNTER);
  g_autoptr(GEnumClass) reasons = g_type_class_ref (PSC_TYPE_FILE_REJECTION);

  g_assert_false (g_variant_is_floating (dict));
  g_assert_cmpstr (g_variant_get_type_string (dict), ==, "a{sv}");
  g_assert_cmpuint (g_variant_n_children (dict), ==,
                    kinds->n_values * counters->n_values + errors->n_values + async->n_values + 2 +
                    1 + persist->n_values + reasons->n_values);

  for (guint k = 0; k < kinds->n_values; k++)
    {
      /* kinds are numbered from 0 without gaps (tests iterate 0 .. n - 1) */
      g_assert_cmpint (kinds->values[k].value, ==, (gint) k);
      for (guint c = 0; c < counters->n_values; c++)
        {
          g_autofree char *name = g_strconcat (kinds->values[k].value_nick, ".",
                                               counters->values[c].value_nick, NULL);
          assert_dictionary_value (dict, name,
                                   psc_stats_get_counter (stats, kinds->values[k].value,
                                                          counters->values[c].value));
        }
    }
  for (guint e = 0; e < errors->n_values; e++)
    {
      g_autofree char *name = g_strconcat ("rejected.", errors->values[e].value_nick, NULL);
      assert_dictionary_value (dict, name, psc_stats_get_rejected (stats, errors->values[e].value));
    }
  for (guint a = 0; a < async->n_values; a++)
    {
      g_autofree char *name = g_strconcat ("async.", async->values[a].value_nick, NULL);
      assert_dictionary_value (dict, name, psc_stats_get_async (stats, async->values[a].value));
    }
  assert_dictionary_value (dict, "capacity-failures", psc_stats_get_capacity_failures (stats));
  assert_dictionary_value (dict, "frame", psc_stats_get_frame (stats));
  assert_dictionary_value (dict, "persistence.enabled", psc_stats_get_persistence_enabled (stats));
  for (guint p = 0; p < persist->n_values; p++)
    {
      g_autofree char *name = g_strconcat ("persistence.", persist->values[p].value_nick, NULL);
      assert_dictionary_value (dict, name, psc_stats_get_persist (stats, persist->values[p].value));
    }
  /* The reasons' names are the enumeration's nicks (and the core's names
   * that the tools print). */
  for (guint r = 0; r < reasons->n_values; r++)
    {
      g_autofree char *name = g_strconcat ("persistence.rejected.", reasons->values[r].value_nick,
                                           NULL);
      assert_dictionary_value (dict, name,
                               psc_stats_get_file_rejections (stats, reasons->values[r].value));
    }

  /* A few names spelled out, as docs/statistics.md documents them. */
  assert_dictionary_value (dict, "shader-module.entries",
                           psc_stats_get_counter (stats, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES));
  assert_dictionary_value (dict, "graphics-pipeline.hits",
                           psc_stats_get_counter (stats, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_HITS));
  assert_dictionary_value (dict, "descriptor-set-layout.host-bytes",
                           psc_stats_get_counter (stats, PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT,
                                                  PSC_COUNTER_HOST_BYTES));
  assert_dictionary_value (dict, "rejected.queue-full", psc_stats_get_rejected (stats, PSC_ERROR_QUEUE_FULL));
  assert_dictionary_value (dict, "rejected.invalid-argument",
                           psc_stats_get_rejected (stats, PSC_ERROR_INVALID_ARGUMENT));
  assert_dictionary_value (dict, "async.in-flight", psc_stats_get_async (stats, PSC_ASYNC_COUNTER_IN_FLIGHT));
  assert_dictionary_value (dict, "async.owner-wait-ns",
                           psc_stats_get_async (stats, PSC_ASYNC_COUNTER_OWNER_WAIT_NS));
}

/* Setup ------------------------------------------------------------------ */

static void
create_foreign_objects (void)
{
  const PscDeviceInfo *info = psc_device_get_info (device);
  PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)
    info->get_instance_proc_addr (info->instance, "vkGetDeviceProcAddr");
  PFN_vkCreateShaderModule create_shader_module =
    (PFN_vkCreateShaderModule) gdpa (info->device, "vkCreateShaderModule");
  PFN_vkCreateDescriptorSetLayout create_set_layout =
    (PFN_vkCreateDescriptorSetLayout) gdpa (info->device, "vkCreateDescriptorSetLayout");
  PFN_vkCreatePipelineLayout create_pipeline_layout =
    (PFN_vkCreatePipelineLayout) gdpa (info->device, "vkCreatePipelineLayout");
  PFN_vkCreateSampler create_sampler =
    (PFN_vkCreateSampler) gdpa (info->device, "vkCreateSampler");
  VkShaderModuleCreateInfo module_ci = {
    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
    .codeSize = sizeof psc_test_comp_spirv,
    .pCode = psc_test_comp_spirv,
  };
  VkDescriptorSetLayoutBinding binding = {
    .binding = 0,
    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    .descriptorCount = 1,
    .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
  };
  VkDescriptorSetLayoutCreateInfo set_layout_ci = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 1,
    .pBindings = &binding,
  };
  VkPipelineLayoutCreateInfo pipeline_layout_ci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
  };
  VkSamplerCreateInfo sampler_ci = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .maxLod = 1.0f,
  };

  destroy_shader_module = (PFN_vkDestroyShaderModule) gdpa (info->device, "vkDestroyShaderModule");
  destroy_set_layout = (PFN_vkDestroyDescriptorSetLayout) gdpa (info->device, "vkDestroyDescriptorSetLayout");
  destroy_pipeline_layout = (PFN_vkDestroyPipelineLayout) gdpa (info->device, "vkDestroyPipelineLayout");
  destroy_sampler = (PFN_vkDestroySampler) gdpa (info->device, "vkDestroySampler");

  g_assert_cmpint (create_shader_module (info->device, &module_ci, NULL, &foreign_module), ==, VK_SUCCESS);
  g_assert_cmpint (create_set_layout (info->device, &set_layout_ci, NULL, &foreign_set_layout), ==, VK_SUCCESS);
  g_assert_cmpint (create_pipeline_layout (info->device, &pipeline_layout_ci, NULL, &foreign_pipeline_layout), ==, VK_SUCCESS);
  g_assert_cmpint (create_sampler (info->device, &sampler_ci, NULL, &foreign_sampler), ==, VK_SUCCESS);
}

static void
destroy_foreign_objects (void)
{
  VkDevice d = psc_device_get_info (device)->device;

  destroy_shader_module (d, foreign_module, NULL);
  destroy_set_layout (d, foreign_set_layout, NULL);
  destroy_pipeline_layout (d, foreign_pipeline_layout, NULL);
  destroy_sampler (d, foreign_sampler, NULL);
}

static void
create_cache_objects (void)
{
  g_autoptr(GError) error = NULL;
  VkDescriptorSetLayout set_layout;
  VkDescriptorSetLayoutBinding binding = {
    .binding = 0,
    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    .descriptorCount = 1,
    .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
  };
  VkDescriptorSetLayoutCreateInfo set_layout_ci = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 1,
    .pBindings = &binding,
  };
  VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 };
  VkPipelineLayoutCreateInfo layout_ci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 1,
    .pSetLayouts = &set_layout,
    .pushConstantRangeCount = 1,
    .pPushConstantRanges = &range,
  };

  psc_cache_begin_frame (cache, 1, 0);
  module = psc_cache_register_shader (cache, psc_test_comp_spirv, sizeof psc_test_comp_spirv, &error);
  g_assert_no_error (error);
  set_layout = psc_cache_get_descriptor_set_layout (cache, &set_layout_ci, &error);
  g_assert_no_error (error);
  layout = psc_cache_get_pipeline_layout (cache, &layout_ci, &error);
  g_assert_no_error (error);
}

/* Under LeakSanitizer: the loader unloads lavapipe (and LLVM with it) at
 * vkDestroyInstance, after which LeakSanitizer reports the driver's one-time
 * initialisation as leaks it can no longer attribute to the driver (so the
 * driver-only suppressions in tests/sanitizers/lsan.supp cannot match).
 * Keeping the driver resident keeps those allocations reachable. */
static void
keep_driver_resident (void)
{
#if defined(__SANITIZE_ADDRESS__)
  const char *icd = g_getenv ("VK_DRIVER_FILES");

  if (icd != NULL && strstr (icd, "lvp_icd") != NULL)
    (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  keep_driver_resident ();

  device = psc_device_new_headless (PSC_DEVICE_FLAGS_VALIDATION, &error);
  g_assert_no_error (error);
  cache = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (psc_cache_get_backend (cache), ==, PSC_BACKEND_DYNAMIC_RENDERING);
  create_foreign_objects ();
  create_cache_objects ();

  g_test_add_func ("/api/version", test_version);
  g_test_add_func ("/api/error-domain", test_error_domain);
  g_test_add_func ("/api/device/bad-objects", test_device_bad_objects);
  g_test_add_func ("/api/device/new-bad-args", test_device_new_bad_args);
  g_test_add_func ("/api/device/new-bad-features", test_device_new_bad_features);
  g_test_add_func ("/api/device/feature-snapshot", test_device_feature_snapshot);
  g_test_add_func ("/api/cache/new-bad-args", test_cache_new_bad_args);
  g_test_add_func ("/api/cache/dynamic-on-legacy-device", test_cache_dynamic_on_legacy_device);
  g_test_add_func ("/api/cache/bad-self", test_cache_bad_self);
  g_test_add_func ("/api/cache/null-info", test_cache_null_info);
  g_test_add_func ("/api/cache/wrong-stype", test_cache_wrong_stype);
  g_test_add_func ("/api/cache/foreign-handles", test_cache_foreign_handles);
  g_test_add_func ("/api/cache/bad-spirv", test_cache_bad_spirv);
  g_test_add_func ("/api/cache/spirv-alignment", test_cache_spirv_alignment);
  g_test_add_func ("/api/threads/table", test_threads_table);
  g_test_add_func ("/api/cache/valid-requests", test_cache_valid_requests);
  g_test_add_func ("/api/construct/g-object-new", test_construct_g_object_new);
  g_test_add_func ("/api/construct/initable-new", test_construct_initable_new);
  g_test_add_func ("/api/construct/device", test_construct_device);
  g_test_add_func ("/api/versioned/cache-options", test_versioned_cache_options);
  g_test_add_func ("/api/versioned/device-info", test_versioned_device_info);
  g_test_add_func ("/api/stats/snapshot", test_stats_snapshot);
  g_test_add_func ("/api/stats/counts", test_stats_counts);
  g_test_add_func ("/api/stats/bad-args", test_stats_bad_args);
  g_test_add_func ("/api/stats/variant", test_stats_variant);

  ret = g_test_run ();

  g_clear_object (&cache);
  destroy_foreign_objects ();
  if (psc_device_get_validation_error_count (device) != 0)
    {
      g_printerr ("%u Vulkan validation errors\n", psc_device_get_validation_error_count (device));
      ret = 1;
    }
  g_clear_object (&device);
  return ret;
}
