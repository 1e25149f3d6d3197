/* test-recipes.c: warm-up recipes (persistent layer 3, core/recipes.h) on
 * lavapipe with the validation layer.
 *
 * A core A on one device creates pipelines (graphics on the dynamic
 * backend with a set layout holding an immutable sampler, a push-constant
 * range and specialization constants; compute; graphics on the legacy
 * backend with a compatibility pass) and exports every recipe; the bytes
 * go through a record log into a book; a fresh core B on another device
 * registers the same SPIR-V, resolves and requests every recipe, and then
 * the application's own create infos are hits on B (the hit counter rises,
 * the creation counter does not): B's keys from the recipes are the keys
 * of the application's requests. Recipes whose shader B did not register,
 * books that lack a record, corrupted records, another backend, and
 * pass-through mode are each refused with their reason.
 *
 * The test links the core static library directly (as test-dispatch.c,
 * and for the same reason: the core's volk globals carry the loader's
 * function names), so it opens libvulkan.so.1 itself and calls everything
 * through pointers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <glib.h>
#include <string.h>

#include "psc-core.h"
#include "recipes.h"
#include "formats/record-log.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "recipes-bench.vert.h"
#include "recipes-bench.frag.h"
#include "recipes-churn.comp.h"
#include "recipes-no-spec.frag.h"

/* ---------------------------------------------------------------------------
 * Instance, devices, cores.
 */
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

typedef struct {
  void *loader;
  PFN_vkGetInstanceProcAddr gipa;
  VkInstance instance;
  VkPhysicalDevice gpu;
  VkDebugUtilsMessengerEXT messenger;
  PFN_vkCreateDevice CreateDevice;
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
} Vk;

typedef struct {
  const Vk *vk;
  VkDevice device;
  PscCore *core;
  uint64_t frame;
  bool dynamic;
} Dev;

#define LOAD(inst, name) PFN_##name name = (PFN_##name) vk->gipa (inst, #name); g_assert_nonnull (name)

static void
vk_open (Vk *vk)
{
#if defined(__SANITIZE_ADDRESS__)
  /* Keep lavapipe resident under LeakSanitizer (see tests/vulkan/harness.c). */
  (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
  memset (vk, 0, sizeof *vk);
  vk->loader = dlopen ("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (vk->loader);
  vk->gipa = (PFN_vkGetInstanceProcAddr) dlsym (vk->loader, "vkGetInstanceProcAddr");
  g_assert_nonnull (vk->gipa);
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
  /* A missing layer or driver fails the test: it never skips. */
  g_assert_cmpint (vkCreateInstance (&ici, NULL, &vk->instance), ==, VK_SUCCESS);
  LOAD (vk->instance, vkCreateDebugUtilsMessengerEXT);
  LOAD (vk->instance, vkEnumeratePhysicalDevices);
  VkDebugUtilsMessengerCreateInfoEXT mci = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
    .pfnUserCallback = on_message,
  };
  g_assert_cmpint (vkCreateDebugUtilsMessengerEXT (vk->instance, &mci, NULL, &vk->messenger),
                   ==, VK_SUCCESS);
  uint32_t n = 1;
  VkResult r = vkEnumeratePhysicalDevices (vk->instance, &n, &vk->gpu);
  g_assert_true ((r == VK_SUCCESS || r == VK_INCOMPLETE) && n == 1);
  vk->CreateDevice = (PFN_vkCreateDevice) vk->gipa (vk->instance, "vkCreateDevice");
  vk->GetDeviceProcAddr = (PFN_vkGetDeviceProcAddr) vk->gipa (vk->instance, "vkGetDeviceProcAddr");
  g_assert_true (vk->CreateDevice != NULL && vk->GetDeviceProcAddr != NULL);
}

static void
vk_close (Vk *vk)
{
  LOAD (vk->instance, vkDestroyDebugUtilsMessengerEXT);
  LOAD (vk->instance, vkDestroyInstance);
  vkDestroyDebugUtilsMessengerEXT (vk->instance, vk->messenger, NULL);
  vkDestroyInstance (vk->instance, NULL);
  g_assert_cmpint (g_atomic_int_get (&validation_errors), ==, 0);
}

/* A device (dynamic rendering on or off) and a core on it. */
static void
dev_open (const Vk *vk, Dev *d, bool dynamic, bool pass_through)
{
  memset (d, 0, sizeof *d);
  d->vk = vk;
  d->dynamic = dynamic;
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = 0, .queueCount = 1,
                                  .pQueuePriorities = &prio };
  VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                           .dynamicRendering = VK_TRUE };
  VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = dynamic ? &f13 : NULL,
                             .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
  g_assert_cmpint (vk->CreateDevice (vk->gpu, &dci, NULL, &d->device), ==, VK_SUCCESS);
  PscCoreConfig cfg = {
    .instance = vk->instance,
    .physical_device = vk->gpu,
    .device = d->device,
    .get_instance_proc_addr = vk->gipa,
    .api_version = VK_API_VERSION_1_3,
    .debug_utils = true,
    .dynamic_rendering_enabled = dynamic,
    .rendering = dynamic ? PSC_RENDERING_DYNAMIC : PSC_RENDERING_LEGACY,
    .pass_through = pass_through,
    .workers = 2,
  };
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_new (&cfg, &d->core, &err), ==, PSC_STATUS_OK);
}

static void
dev_close (Dev *d)
{
  psc_core_close (d->core, UINT64_MAX);
  psc_core_free (d->core);
  PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice) d->vk->GetDeviceProcAddr (d->device, "vkDestroyDevice");
  destroy (d->device, NULL);
}

static void
pump (Dev *d)
{
  d->frame++;
  psc_core_begin_frame (d->core, d->frame, d->frame);
}

static void
get_stats (const Dev *d, PscCoreStats *st)
{
  psc_core_get_stats (d->core, st);
}

/* ---------------------------------------------------------------------------
 * The application's objects and create infos.
 */
typedef struct {
  VkShaderModule vs, fs, fs2, cs;
  VkSampler sampler;
  VkDescriptorSetLayout set_layout, compute_set_layout;
  VkPipelineLayout layout, compute_layout;
  VkRenderPass pass;           /* legacy cores */
} Objects;

enum { SHADER_VS = 1, SHADER_FS = 2, SHADER_FS2 = 4, SHADER_CS = 8, SHADERS_ALL = 15 };

static VkShaderModule
shader (Dev *d, const uint32_t *code, size_t size)
{
  VkShaderModule m = VK_NULL_HANDLE;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_register_shader (d->core, code, size, &m, NULL, &err), ==, PSC_STATUS_OK);
  return m;
}

static void
register_shaders (Dev *d, Objects *o, unsigned which)
{
  if (which & SHADER_VS)
    o->vs = shader (d, bench_vert_spv, sizeof bench_vert_spv);
  if (which & SHADER_FS)
    o->fs = shader (d, bench_frag_spv, sizeof bench_frag_spv);
  if (which & SHADER_FS2)
    o->fs2 = shader (d, no_spec_frag_spv, sizeof no_spec_frag_spv);
  if (which & SHADER_CS)
    o->cs = shader (d, churn_comp_spv, sizeof churn_comp_spv);
}

static void
get_pass (Dev *d, Objects *o)
{
  VkAttachmentDescription att[2] = {
    { 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
      VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
      VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL },
    { 0, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
      VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
      VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL },
  };
  VkAttachmentReference color = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
  VkAttachmentReference depth = { 1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
  VkSubpassDescription sub = { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                               .colorAttachmentCount = 1, .pColorAttachments = &color,
                               .pDepthStencilAttachment = &depth };
  VkRenderPassCreateInfo rci = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                 .attachmentCount = 2, .pAttachments = att,
                                 .subpassCount = 1, .pSubpasses = &sub };
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_get_render_pass (d->core, &rci, &o->pass, &err), ==, PSC_STATUS_OK);
}

/* The sampler, the layouts (and on a legacy core the pass), as the
 * application asks for them. */
static void
get_objects (Dev *d, Objects *o)
{
  PscCoreError err = { 0 };
  VkSamplerCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                              .magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR,
                              .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                              .maxLod = 4.0f };
  g_assert_cmpint (psc_core_get_sampler (d->core, &sci, &o->sampler, &err), ==, PSC_STATUS_OK);
  VkDescriptorSetLayoutBinding b[2] = {
    { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
    { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, &o->sampler },
  };
  VkDescriptorSetLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2, .pBindings = b };
  g_assert_cmpint (psc_core_get_set_layout (d->core, &lci, &o->set_layout, &err), ==, PSC_STATUS_OK);
  VkPushConstantRange push = { VK_SHADER_STAGE_VERTEX_BIT, 0, 64 };
  VkPipelineLayoutCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1, .pSetLayouts = &o->set_layout,
                                     .pushConstantRangeCount = 1, .pPushConstantRanges = &push };
  g_assert_cmpint (psc_core_get_pipeline_layout (d->core, &pci, &o->layout, &err), ==, PSC_STATUS_OK);
  VkDescriptorSetLayoutBinding cb = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                      VK_SHADER_STAGE_COMPUTE_BIT, NULL };
  lci.bindingCount = 1;
  lci.pBindings = &cb;
  g_assert_cmpint (psc_core_get_set_layout (d->core, &lci, &o->compute_set_layout, &err), ==,
                   PSC_STATUS_OK);
  pci.pSetLayouts = &o->compute_set_layout;
  pci.pushConstantRangeCount = 0;
  g_assert_cmpint (psc_core_get_pipeline_layout (d->core, &pci, &o->compute_layout, &err), ==,
                   PSC_STATUS_OK);
  if (!d->dynamic)
    get_pass (d, o);
}

typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineShaderStageCreateInfo stages[2];
  VkSpecializationInfo spec[2];
  VkSpecializationMapEntry vs_map[2], fs_map[2];
  int32_t vs_data[2], fs_data[2];
  VkVertexInputBindingDescription binding;
  VkVertexInputAttributeDescription attrs[4];
  VkPipelineVertexInputStateCreateInfo vi;
  VkPipelineInputAssemblyStateCreateInfo ia;
  VkPipelineViewportStateCreateInfo vp;
  VkPipelineRasterizationStateCreateInfo rs;
  VkPipelineMultisampleStateCreateInfo ms;
  VkPipelineDepthStencilStateCreateInfo ds;
  VkPipelineColorBlendAttachmentState blend;
  VkPipelineColorBlendStateCreateInfo cb;
  VkDynamicState dyn_states[2];
  VkPipelineDynamicStateCreateInfo dyn;
  VkFormat format;
  VkPipelineRenderingCreateInfo rendering;
} Gfx;

static void
gfx_stages (Gfx *g, const Objects *o, VkShaderModule fs, int32_t variant)
{
  const float scale = 0.5f + (float) variant;
  g->vs_data[0] = variant;
  memcpy (&g->vs_data[1], &scale, 4);
  g->vs_map[0] = (VkSpecializationMapEntry) { 0, 0, 4 };
  g->vs_map[1] = (VkSpecializationMapEntry) { 1, 4, 4 };
  g->spec[0] = (VkSpecializationInfo) { 2, g->vs_map, sizeof g->vs_data, g->vs_data };
  g->fs_data[0] = variant * 3;
  g->fs_data[1] = VK_TRUE;
  g->fs_map[0] = (VkSpecializationMapEntry) { 0, 0, 4 };
  g->fs_map[1] = (VkSpecializationMapEntry) { 2, 4, 4 };
  g->spec[1] = (VkSpecializationInfo) { 2, g->fs_map, sizeof g->fs_data, g->fs_data };
  g->stages[0] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = o->vs, .pName = "main",
    .pSpecializationInfo = &g->spec[0] };
  g->stages[1] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main",
    .pSpecializationInfo = fs == o->fs ? &g->spec[1] : NULL };
}

static void
gfx_fixed (Gfx *g)
{
  g->binding = (VkVertexInputBindingDescription) { 0, 48, VK_VERTEX_INPUT_RATE_VERTEX };
  g->attrs[0] = (VkVertexInputAttributeDescription) { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
  g->attrs[1] = (VkVertexInputAttributeDescription) { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12 };
  g->attrs[2] = (VkVertexInputAttributeDescription) { 2, 0, VK_FORMAT_R32G32_SFLOAT, 24 };
  g->attrs[3] = (VkVertexInputAttributeDescription) { 3, 0, VK_FORMAT_R8G8B8A8_UNORM, 32 };
  g->vi = (VkPipelineVertexInputStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
    .vertexBindingDescriptionCount = 1, .pVertexBindingDescriptions = &g->binding,
    .vertexAttributeDescriptionCount = 4, .pVertexAttributeDescriptions = g->attrs };
  g->ia = (VkPipelineInputAssemblyStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST };
  g->vp = (VkPipelineViewportStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
    .viewportCount = 1, .scissorCount = 1 };
  g->rs = (VkPipelineRasterizationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
    .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_BACK_BIT,
    .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f };
  g->ms = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT };
  g->ds = (VkPipelineDepthStencilStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = VK_TRUE, .depthWriteEnable = VK_TRUE,
    .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL, .maxDepthBounds = 1.0f };
  g->blend = (VkPipelineColorBlendAttachmentState) { .colorWriteMask = 0xf };
  g->cb = (VkPipelineColorBlendStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
    .attachmentCount = 1, .pAttachments = &g->blend };
  g->dyn_states[0] = VK_DYNAMIC_STATE_VIEWPORT;
  g->dyn_states[1] = VK_DYNAMIC_STATE_SCISSOR;
  g->dyn = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = 2, .pDynamicStates = g->dyn_states };
}

/* A graphics create info: bench.vert + fs, spec values from variant, one
 * RGBA8 + D32 target (dynamic rendering, or the legacy pass). */
static void
gfx_init (Gfx *g, const Dev *d, const Objects *o, VkShaderModule fs, int32_t variant)
{
  memset (g, 0, sizeof *g);
  gfx_stages (g, o, fs, variant);
  gfx_fixed (g);
  g->format = VK_FORMAT_R8G8B8A8_UNORM;
  g->rendering = (VkPipelineRenderingCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
    .colorAttachmentCount = 1, .pColorAttachmentFormats = &g->format,
    .depthAttachmentFormat = VK_FORMAT_D32_SFLOAT };
  g->ci = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .pNext = d->dynamic ? &g->rendering : NULL,
    .stageCount = 2, .pStages = g->stages,
    .pVertexInputState = &g->vi, .pInputAssemblyState = &g->ia,
    .pViewportState = &g->vp, .pRasterizationState = &g->rs,
    .pMultisampleState = &g->ms, .pDepthStencilState = &g->ds,
    .pColorBlendState = &g->cb, .pDynamicState = &g->dyn,
    .layout = o->layout, .renderPass = d->dynamic ? VK_NULL_HANDLE : o->pass,
    .basePipelineIndex = -1 };
}

typedef struct {
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry map;
  uint32_t salt;
} Comp;

static void
comp_init (Comp *c, const Objects *o, uint32_t salt)
{
  c->salt = salt;
  c->map = (VkSpecializationMapEntry) { 0, 0, 4 };
  c->spec = (VkSpecializationInfo) { 1, &c->map, 4, &c->salt };
  c->ci = (VkComputePipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
    .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = o->cs, .pName = "main",
               .pSpecializationInfo = &c->spec },
    .layout = o->compute_layout, .basePipelineIndex = -1 };
}

static VkPipeline
get_graphics (Dev *d, const Gfx *g)
{
  VkPipeline p = VK_NULL_HANDLE;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_get_graphics (d->core, &g->ci, &p, &err), ==, PSC_STATUS_OK);
  return p;
}

static VkPipeline
get_compute (Dev *d, const Comp *c)
{
  VkPipeline p = VK_NULL_HANDLE;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_get_compute (d->core, &c->ci, &p, &err), ==, PSC_STATUS_OK);
  return p;
}

/* ---------------------------------------------------------------------------
 * Logs and books.
 */
static GByteArray *
log_of (const PscRecipeSink *sink)
{
  GByteArray *log = g_byte_array_new ();
  g_byte_array_set_size (log, PSC_LOG_HEADER_SIZE);
  psc_log_write_header (log->data, PSC_LOG_KIND_RECIPES);
  g_byte_array_append (log, sink->data, sink->len);
  return log;
}

/* Every record of the log (none skipped), children before their
 * parents, each object once; into book unless its kind is `drop`. */
static void
read_log (const GByteArray *log, PscRecipeBook *book, uint8_t drop)
{
  PscLogReader r;
  g_assert_cmpint (psc_log_reader_init (&r, log->data, log->len, PSC_LOG_KIND_RECIPES, 0), ==,
                   PSC_FILE_OK);
  GHashTable *seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  PscLogRecord rec;
  PscLogNext next;
  while ((next = psc_log_reader_next (&r, &rec, NULL)) == PSC_LOG_NEXT_RECORD)
    {
      PscRecipeRecord rr;
      g_assert_cmpint (psc_recipe_record_parse (rec.type, rec.payload, rec.len, &rr), ==, PSC_FILE_OK);
      for (uint32_t i = 0; i < rr.ref_count; i++)
        {
          const PscRecipeRef ref = psc_recipe_record_ref (&rr, i);
          g_assert_true (g_hash_table_contains (seen, &ref.hash));
        }
      if (rec.type == PSC_RECIPE_RECORD_OBJECT)
        {
          gint64 *h = g_new (gint64, 1);
          *h = (gint64) rr.hash;
          g_assert_false (g_hash_table_contains (seen, h));
          g_hash_table_add (seen, h);
        }
      PscFileReason why = PSC_FILE_STALE;
      if (rr.kind != drop)
        g_assert_true (psc_recipe_book_add (book, rec.type, rec.payload, rec.len, &why));
    }
  g_assert_cmpint (next, ==, PSC_LOG_NEXT_END);
  g_assert_cmpuint (r.skipped, ==, 0);
  g_hash_table_unref (seen);
}

/* The hash of the i-th pipeline record of `kind` in the book (records
 * keep the order they were added in: the exporter's). */
static uint64_t
recipe_at (const PscRecipeBook *book, uint8_t kind, unsigned i)
{
  for (uint32_t j = 0; j < book->count; j++)
    if (book->records[j].type == PSC_RECIPE_RECORD_PIPELINE && book->records[j].kind == kind
        && i-- == 0)
      return book->records[j].hash;
  g_assert_not_reached ();
  return 0;
}

typedef struct {
  int ready, failed;
} Done;

static void
on_ready (void *context, VkPipeline pipeline, VkResult result)
{
  Done *done = context;
  if (pipeline != VK_NULL_HANDLE && result == VK_SUCCESS)
    done->ready++;
  else
    done->failed++;
}

/* Prewarms every recipe of the book on d; returns how many were stale
 * for each reason, waits until the queued ones are published. */
static void
prewarm_all (Dev *d, const PscRecipeBook *book, unsigned stale[PSC_RECIPE_STALE_COUNT])
{
  Done done = { 0 };
  int queued = 0;
  memset (stale, 0, PSC_RECIPE_STALE_COUNT * sizeof stale[0]);
  for (uint32_t i = 0; i < book->count; i++)
    {
      const PscRecipeRecord *r = &book->records[i];
      if (r->type != PSC_RECIPE_RECORD_PIPELINE)
        continue;
      PscCoreRequestState state;
      PscRecipeStale why = PSC_RECIPE_STALE_COUNT;
      PscCoreError err = { 0 };
      PscStatus st = psc_core_prewarm_recipe (d->core, book, r->hash, on_ready, &done, &state,
                                              &why, &err);
      if (st == PSC_STATUS_INVALID_DATA)
        {
          g_test_message ("stale (%s): %s", psc_recipe_stale_name (why), err.message);
          g_assert_cmpint (why, >, PSC_RECIPE_FRESH);
          stale[why]++;
          continue;
        }
      g_assert_cmpint (st, ==, PSC_STATUS_OK);
      g_assert_cmpint (why, ==, PSC_RECIPE_FRESH);
      g_assert_cmpint (state, ==, PSC_CORE_PENDING);
      queued++;
    }
  for (int spins = 0; done.ready + done.failed < queued; spins++)
    {
      g_assert_cmpint (spins, <, 20000);
      pump (d);
      g_usleep (1000);
    }
  g_assert_cmpint (done.failed, ==, 0);
}

/* ---------------------------------------------------------------------------
 * Tests.
 */

/* The dynamic backend: three graphics pipelines (one with a fragment
 * shader B will not register), one compute pipeline. */
static void
test_dynamic (void)
{
  Vk vk;
  vk_open (&vk);
  Dev a, b;
  dev_open (&vk, &a, true, false);
  Objects oa = { 0 };
  register_shaders (&a, &oa, SHADERS_ALL);
  get_objects (&a, &oa);
  Gfx g1, g2, g3;
  Comp c1;
  gfx_init (&g1, &a, &oa, oa.fs, 1);
  gfx_init (&g2, &a, &oa, oa.fs, 2);
  gfx_init (&g3, &a, &oa, oa.fs2, 1);
  comp_init (&c1, &oa, 5);
  const VkPipeline p1 = get_graphics (&a, &g1);
  get_graphics (&a, &g2);
  get_graphics (&a, &g3);
  get_compute (&a, &c1);

  PscRecipeSink sink;
  psc_recipe_sink_init (&sink);
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_export_all_recipes (a.core, 1700000000u, &sink, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (sink.pipelines, ==, 4);
  g_assert_cmpuint (sink.skipped, ==, 0);
  /* 4 shaders, 1 sampler, 1 sampler list, 2 set layouts, 2 pipeline layouts. */
  g_assert_cmpuint (sink.objects, ==, 10);
  /* Exported again through the same sink: no object again. */
  g_assert_cmpint (psc_core_export_recipe (a.core, p1, 1700000005u, &sink, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (sink.objects, ==, 10);
  g_assert_cmpuint (sink.pipelines, ==, 5);
  /* Only cache-issued pipelines. */
  g_assert_cmpint (psc_core_export_recipe (a.core, VK_NULL_HANDLE, 0, &sink, &err), ==,
                   PSC_STATUS_FOREIGN_HANDLE);
  g_assert_cmpint (psc_core_export_recipe (a.core, (VkPipeline) (uint64_t) oa.layout, 0, &sink, &err),
                   ==, PSC_STATUS_FOREIGN_HANDLE);

  GByteArray *log = log_of (&sink);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  read_log (log, &book, 0);
  g_assert_cmpuint (book.pipelines, ==, 4);
  g_assert_cmpuint (book.duplicates, ==, 1);
  g_assert_cmpuint (psc_recipe_book_find (&book, PSC_RECIPE_RECORD_PIPELINE,
                                          recipe_at (&book, PSC_RECIPE_GRAPHICS, 0))->last_used,
                    ==, 1700000005u);

  /* A fresh core B on another device, with the application's SPIR-V but
   * not no-spec.frag's. */
  dev_open (&vk, &b, true, false);
  Objects ob = { 0 };
  register_shaders (&b, &ob, SHADER_VS | SHADER_FS | SHADER_CS);
  unsigned stale[PSC_RECIPE_STALE_COUNT];
  prewarm_all (&b, &book, stale);
  g_assert_cmpuint (stale[PSC_RECIPE_STALE_SHADER], ==, 1);
  g_assert_cmpuint (stale[PSC_RECIPE_STALE_MISSING] + stale[PSC_RECIPE_STALE_UNDECODABLE]
                    + stale[PSC_RECIPE_STALE_REJECTED], ==, 0);

  PscCoreStats before, after;
  get_stats (&b, &before);
  g_assert_cmpuint (before.kinds[PSC_KIND_GRAPHICS].creations, ==, 2);
  g_assert_cmpuint (before.kinds[PSC_KIND_COMPUTE].creations, ==, 1);
  g_assert_cmpuint (before.kinds[PSC_KIND_SET_LAYOUT].creations, ==, 2);
  /* The application now asks B for its own objects and pipelines: hits. */
  get_objects (&b, &ob);
  Gfx h1, h2;
  Comp d1;
  gfx_init (&h1, &b, &ob, ob.fs, 1);
  gfx_init (&h2, &b, &ob, ob.fs, 2);
  comp_init (&d1, &ob, 5);
  get_graphics (&b, &h1);
  get_graphics (&b, &h2);
  get_compute (&b, &d1);
  get_stats (&b, &after);
  for (PscKind k = 0; k < PSC_KIND_COUNT; k++)
    if (k != PSC_KIND_SHADER)
      g_assert_cmpuint (after.kinds[k].creations, ==, before.kinds[k].creations);
  g_assert_cmpuint (after.kinds[PSC_KIND_GRAPHICS].hits, ==, before.kinds[PSC_KIND_GRAPHICS].hits + 2);
  g_assert_cmpuint (after.kinds[PSC_KIND_COMPUTE].hits, ==, before.kinds[PSC_KIND_COMPUTE].hits + 1);
  g_assert_cmpuint (after.kinds[PSC_KIND_SAMPLER].hits, >, before.kinds[PSC_KIND_SAMPLER].hits);
  g_assert_cmpuint (after.kinds[PSC_KIND_GRAPHICS].entries, ==, 2);

  /* The resolved create info's key is the application's request's. */
  PscRecipeResolved res;
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, recipe_at (&book, PSC_RECIPE_GRAPHICS, 0),
                                            &res, &err), ==, PSC_STATUS_OK);
  g_assert_cmpint (res.kind, ==, PSC_KIND_GRAPHICS);
  g_assert_cmpuint (res.last_used, ==, 1700000005u);
  size_t size = 0;
  g_assert_cmpint (psc_core_graphics_key_size (b.core, &h1.ci, &size, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (res.key_len, ==, size);
  VkPipeline hit = VK_NULL_HANDLE;
  g_assert_cmpint (psc_core_get_graphics (b.core, res.graphics, &hit, &err), ==, PSC_STATUS_OK);
  g_assert_true (hit == get_graphics (&b, &h1));
  g_assert_true (res.graphics->layout == ob.layout && res.graphics->pStages[0].module == ob.vs);
  psc_recipe_resolved_clear (&res);
  g_assert_null (res.build);

  /* The shader record B lacks, named. */
  const uint64_t g3_hash = recipe_at (&book, PSC_RECIPE_GRAPHICS, 2);
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, g3_hash, &res, &err), ==,
                   PSC_STATUS_INVALID_DATA);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_SHADER);
  g_assert_null (res.graphics);
  g_assert_nonnull (strstr (err.message, "no shader of this cache"));
  g_assert_true (g_str_has_prefix (err.path, "shader 0x"));
  /* Once B registers it, the recipe resolves. */
  register_shaders (&b, &ob, SHADER_FS2);
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, g3_hash, &res, &err), ==, PSC_STATUS_OK);
  psc_recipe_resolved_clear (&res);

  psc_recipe_book_clear (&book);
  g_byte_array_unref (log);
  psc_recipe_sink_clear (&sink);
  dev_close (&b);
  dev_close (&a);
  vk_close (&vk);
}

/* The legacy backend: a compatibility pass; resolve + request (WAIT); the
 * same recipe on a dynamic core is rejected; a reloaded shader's
 * pipelines are not exported. */
static void
test_legacy (void)
{
  Vk vk;
  vk_open (&vk);
  Dev a, b, c;
  dev_open (&vk, &a, false, false);
  Objects oa = { 0 };
  register_shaders (&a, &oa, SHADER_VS | SHADER_FS);
  get_objects (&a, &oa);
  Gfx g;
  gfx_init (&g, &a, &oa, oa.fs, 4);
  const VkPipeline pa = get_graphics (&a, &g);

  PscRecipeSink sink;
  psc_recipe_sink_init (&sink);
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_export_all_recipes (a.core, 7, &sink, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (sink.pipelines, ==, 1);
  /* 2 shaders, sampler, sampler list, set layout, pipeline layout, pass
   * (the compute layouts are named by no pipeline). */
  g_assert_cmpuint (sink.objects, ==, 7);
  GByteArray *log = log_of (&sink);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  read_log (log, &book, 0);
  const uint64_t recipe = recipe_at (&book, PSC_RECIPE_GRAPHICS, 0);
  g_assert_nonnull (psc_recipe_book_find (&book, PSC_RECIPE_RECORD_PIPELINE, recipe));

  dev_open (&vk, &b, false, false);
  Objects ob = { 0 };
  register_shaders (&b, &ob, SHADER_VS | SHADER_FS);
  PscRecipeResolved res;
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, recipe, &res, &err), ==, PSC_STATUS_OK);
  g_assert_true (res.graphics->renderPass != VK_NULL_HANDLE && res.graphics->pNext == NULL);
  VkPipeline pb = VK_NULL_HANDLE;
  PscCoreRequestState state;
  g_assert_cmpint (psc_core_request_graphics (b.core, res.graphics, PSC_CORE_MISS_WAIT, 0, NULL, NULL,
                                              &pb, &state, &err), ==, PSC_STATUS_OK);
  g_assert_cmpint (state, ==, PSC_CORE_READY);
  psc_recipe_resolved_clear (&res);
  PscCoreStats before, after;
  get_stats (&b, &before);
  get_objects (&b, &ob);
  g_assert_true (psc_core_is_compat_render_pass (b.core, ob.pass));
  Gfx h;
  gfx_init (&h, &b, &ob, ob.fs, 4);
  g_assert_true (get_graphics (&b, &h) == pb);
  get_stats (&b, &after);
  /* Only the compute layouts, which no recipe named, are new. */
  for (PscKind k = 0; k < PSC_KIND_COUNT; k++)
    g_assert_cmpuint (after.kinds[k].creations, ==,
                      before.kinds[k].creations + (k == PSC_KIND_SET_LAYOUT || k == PSC_KIND_PIPELINE_LAYOUT));
  g_assert_cmpuint (after.kinds[PSC_KIND_GRAPHICS].hits, ==, before.kinds[PSC_KIND_GRAPHICS].hits + 1);
  g_assert_cmpuint (after.kinds[PSC_KIND_RENDER_PASS].hits, ==,
                    before.kinds[PSC_KIND_RENDER_PASS].hits + 1);

  /* A legacy recipe on a dynamic core: its objects are made, the pipeline
   * is refused by the dynamic backend's encoder. */
  dev_open (&vk, &c, true, false);
  Objects oc = { 0 };
  register_shaders (&c, &oc, SHADER_VS | SHADER_FS);
  g_assert_cmpint (psc_core_resolve_recipe (c.core, &book, recipe, &res, &err), ==,
                   PSC_STATUS_INVALID_DATA);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_REJECTED);
  g_test_message ("legacy recipe on a dynamic core: %s", err.message);
  g_assert_true (g_str_has_prefix (err.path, "graphics 0x"));

  /* Hot reload on A: the pipeline's fragment shader has new code, so its
   * recipe would name code it was not made from. */
  VkShaderModule fs_new = VK_NULL_HANDLE;
  g_assert_cmpint (psc_core_replace_shader (a.core, oa.fs, no_spec_frag_spv, sizeof no_spec_frag_spv,
                                            VK_NULL_HANDLE, &fs_new, &err), ==, PSC_STATUS_OK);
  PscRecipeSink later;
  psc_recipe_sink_init (&later);
  g_assert_cmpint (psc_core_export_recipe (a.core, pa, 8, &later, &err), ==, PSC_STATUS_INVALID_ARGUMENT);
  g_assert_cmpint (psc_core_export_all_recipes (a.core, 8, &later, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (later.pipelines, ==, 0);
  g_assert_cmpuint (later.skipped, ==, 1);
  psc_recipe_sink_clear (&later);
  pump (&a);

  psc_recipe_book_clear (&book);
  g_byte_array_unref (log);
  psc_recipe_sink_clear (&sink);
  dev_close (&c);
  dev_close (&b);
  dev_close (&a);
  vk_close (&vk);
}

/* Exports A's dynamic-backend recipes (graphics + compute) into *log. */
static void
export_dynamic (Dev *a, GByteArray **log)
{
  Objects oa = { 0 };
  register_shaders (a, &oa, SHADER_VS | SHADER_FS | SHADER_CS);
  get_objects (a, &oa);
  Gfx g;
  Comp c;
  gfx_init (&g, a, &oa, oa.fs, 1);
  comp_init (&c, &oa, 9);
  get_graphics (a, &g);
  get_compute (a, &c);
  PscRecipeSink sink;
  psc_recipe_sink_init (&sink);
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_export_all_recipes (a->core, 1, &sink, &err), ==, PSC_STATUS_OK);
  g_assert_cmpuint (sink.pipelines, ==, 2);
  *log = log_of (&sink);
  psc_recipe_sink_clear (&sink);
}

/* A book without any record of one kind: every recipe that needs it is
 * stale, missing that record. */
static void
test_missing_records (void)
{
  Vk vk;
  vk_open (&vk);
  Dev a, b;
  dev_open (&vk, &a, true, false);
  GByteArray *log;
  export_dynamic (&a, &log);
  dev_close (&a);
  dev_open (&vk, &b, true, false);
  Objects ob = { 0 };
  register_shaders (&b, &ob, SHADER_VS | SHADER_FS | SHADER_CS);
  for (uint8_t drop = PSC_RECIPE_SHADER; drop <= PSC_RECIPE_PIPELINE_LAYOUT; drop++)
    {
      PscRecipeBook book;
      psc_recipe_book_init (&book);
      read_log (log, &book, drop);
      PscRecipeResolved res;
      PscCoreError err = { 0 };
      const uint64_t recipe = recipe_at (&book, PSC_RECIPE_GRAPHICS, 0);
      g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, recipe, &res, &err), ==,
                       PSC_STATUS_INVALID_DATA);
      g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_MISSING);
      g_assert_cmpstr (psc_recipe_stale_name (res.stale), ==, "missing-record");
      g_test_message ("without %s records: %s", psc_recipe_kind_name (drop), err.message);
      g_assert_true (g_str_has_prefix (err.path, psc_recipe_kind_name (drop)));
      g_assert_null (res.build);
      psc_recipe_book_clear (&book);
    }
  /* No such recipe at all. */
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  read_log (log, &book, 0);
  PscRecipeResolved res;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, 12345, &res, &err), ==, PSC_STATUS_INVALID_DATA);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_MISSING);
  g_assert_true (g_str_has_prefix (err.path, "recipe 0x"));
  /* The whole book resolves. */
  unsigned stale[PSC_RECIPE_STALE_COUNT];
  prewarm_all (&b, &book, stale);
  for (unsigned i = 0; i < PSC_RECIPE_STALE_COUNT; i++)
    g_assert_cmpuint (stale[i], ==, 0);
  psc_recipe_book_clear (&book);
  g_byte_array_unref (log);
  dev_close (&b);
  vk_close (&vk);
}

/* The payload check of the log record at offset `at` made right again. */
static void
reseal_log_record (GByteArray *log, size_t at)
{
  const uint32_t len = psc_le32 (log->data + at + 8);
  psc_put_le64 (log->data + at + 16,
                XXH3_64bits (log->data + at + PSC_LOG_RECORD_HEADER_SIZE, len));
}

/* Corrupted records: a damaged payload is skipped by the log; one whose
 * log check was made right again is refused by the book (its own hash);
 * a record whose ref names a record of another kind is undecodable. */
static void
test_corrupted_records (void)
{
  Vk vk;
  vk_open (&vk);
  Dev a, b;
  dev_open (&vk, &a, true, false);
  GByteArray *log;
  export_dynamic (&a, &log);
  dev_close (&a);

  unsigned records = 0;
  for (size_t at = PSC_LOG_HEADER_SIZE; at < log->len; records++)
    {
      const uint32_t len = psc_le32 (log->data + at + 8);
      const uint16_t type = (uint16_t) (log->data[at + 4] | log->data[at + 5] << 8);
      GByteArray *bad = g_byte_array_new ();
      g_byte_array_append (bad, log->data, log->len);
      uint8_t *payload = bad->data + at + PSC_LOG_RECORD_HEADER_SIZE;
      payload[len - 1] ^= 0x40;                       /* a key byte */
      PscLogReader r;
      g_assert_cmpint (psc_log_reader_init (&r, bad->data, bad->len, PSC_LOG_KIND_RECIPES, 0), ==,
                       PSC_FILE_OK);
      PscLogRecord rec;
      PscLogNext next;
      while ((next = psc_log_reader_next (&r, &rec, NULL)) != PSC_LOG_NEXT_END)
        g_assert_true (next == PSC_LOG_NEXT_RECORD || next == PSC_LOG_NEXT_SKIPPED);
      g_assert_cmpuint (r.skipped, ==, 1);
      reseal_log_record (bad, at);
      PscRecipeBook book;
      psc_recipe_book_init (&book);
      PscFileReason why = PSC_FILE_OK;
      g_assert_false (psc_recipe_book_add (&book, type, payload, len, &why));
      g_assert_cmpint (why, ==, PSC_FILE_CHECKSUM);
      payload[len - 1] ^= 0x40;
      g_assert_true (psc_recipe_book_add (&book, type, payload, len, &why));
      psc_recipe_book_clear (&book);
      g_byte_array_unref (bad);
      at += psc_log_record_size (len);
    }
  /* 3 shaders, sampler, sampler list, 2 set layouts, 2 pipeline layouts, 2 pipelines. */
  g_assert_cmpuint (records, ==, 11);

  /* A graphics recipe whose layout ref names the set layout's record: a
   * correct hash, a wrong kind behind it. */
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  read_log (log, &book, 0);
  const PscRecipeRecord *g = psc_recipe_book_find (&book, PSC_RECIPE_RECORD_PIPELINE,
                                                   recipe_at (&book, PSC_RECIPE_GRAPHICS, 0));
  uint64_t set_layout_hash = 0;
  for (uint32_t i = 0; i < book.count; i++)
    if (book.records[i].kind == PSC_RECIPE_SET_LAYOUT)
      set_layout_hash = book.records[i].hash;
  PscRecipeRef refs[PSC_RECIPE_MAX_REFS];
  for (uint32_t i = 0; i < g->ref_count; i++)
    {
      refs[i] = psc_recipe_record_ref (g, i);
      if (refs[i].kind == PSC_RECIPE_PIPELINE_LAYOUT)
        refs[i].hash = set_layout_hash;
    }
  uint8_t *forged = g_malloc (psc_recipe_record_size (PSC_RECIPE_RECORD_PIPELINE, g->ref_count, g->key_len));
  uint64_t forged_hash;
  g_assert_true (psc_recipe_record_write (forged, PSC_RECIPE_RECORD_PIPELINE, PSC_RECIPE_GRAPHICS, 3,
                                          refs, g->ref_count, g->key, g->key_len, &forged_hash));
  g_assert_true (psc_recipe_book_add (&book, PSC_RECIPE_RECORD_PIPELINE, forged,
                                      psc_recipe_record_size (PSC_RECIPE_RECORD_PIPELINE,
                                                              g->ref_count, g->key_len), NULL));
  dev_open (&vk, &b, true, false);
  Objects ob = { 0 };
  register_shaders (&b, &ob, SHADER_VS | SHADER_FS | SHADER_CS);
  PscRecipeResolved res;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, forged_hash, &res, &err), ==,
                   PSC_STATUS_INVALID_DATA);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_UNDECODABLE);
  g_test_message ("forged ref: %s", err.message);
  g_assert_nonnull (strstr (err.message, "set-layout"));
  /* A graphics key under a compute record (its refs intact): the compute
   * decoder refuses it. */
  for (uint32_t i = 0; i < g->ref_count; i++)
    refs[i] = psc_recipe_record_ref (g, i);
  g_assert_true (psc_recipe_record_write (forged, PSC_RECIPE_RECORD_PIPELINE, PSC_RECIPE_COMPUTE, 3,
                                          refs, g->ref_count, g->key, g->key_len, &forged_hash));
  g_assert_true (psc_recipe_book_add (&book, PSC_RECIPE_RECORD_PIPELINE, forged,
                                      psc_recipe_record_size (PSC_RECIPE_RECORD_PIPELINE,
                                                              g->ref_count, g->key_len), NULL));
  g_assert_cmpint (psc_core_resolve_recipe (b.core, &book, forged_hash, &res, &err), ==,
                   PSC_STATUS_INVALID_DATA);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_STALE_UNDECODABLE);
  g_assert_true (g_str_has_prefix (err.path, "compute 0x"));
  g_free (forged);
  psc_recipe_book_clear (&book);
  g_byte_array_unref (log);
  dev_close (&b);
  vk_close (&vk);
}

/* Pass-through mode: nothing is reused, so recipes are not resolved; what
 * such a core made is exported all the same. */
static void
test_pass_through (void)
{
  Vk vk;
  vk_open (&vk);
  Dev a, b;
  dev_open (&vk, &a, true, true);
  GByteArray *log;
  export_dynamic (&a, &log);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  read_log (log, &book, 0);
  PscRecipeResolved res;
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_resolve_recipe (a.core, &book, recipe_at (&book, PSC_RECIPE_COMPUTE, 0),
                                            &res, &err), ==, PSC_STATUS_UNSUPPORTED);
  g_assert_cmpint (res.stale, ==, PSC_RECIPE_FRESH);
  dev_close (&a);
  dev_open (&vk, &b, true, false);
  Objects ob = { 0 };
  register_shaders (&b, &ob, SHADER_VS | SHADER_FS | SHADER_CS);
  unsigned stale[PSC_RECIPE_STALE_COUNT];
  prewarm_all (&b, &book, stale);
  for (unsigned i = 0; i < PSC_RECIPE_STALE_COUNT; i++)
    g_assert_cmpuint (stale[i], ==, 0);
  psc_recipe_book_clear (&book);
  g_byte_array_unref (log);
  dev_close (&b);
  vk_close (&vk);
}

/* ---------------------------------------------------------------------------
 * Seeds for tests/fuzz/corpus/recipe-record with real exported records
 * (the input format of fuzz-recipe-record.c: mode byte 2, the keys
 * decoded; then u32 length + payload per record):
 *
 *   ./_build/tests/vulkan/test-vk-recipes --write-corpus tests/fuzz/corpus/recipe-record
 */
static void
write_seed (const char *dir, const char *name, const GByteArray *log)
{
  GByteArray *seed = g_byte_array_new ();
  const uint8_t mode = 2;
  g_byte_array_append (seed, &mode, 1);
  PscLogReader r;
  g_assert_cmpint (psc_log_reader_init (&r, log->data, log->len, PSC_LOG_KIND_RECIPES, 0), ==,
                   PSC_FILE_OK);
  PscLogRecord rec;
  while (psc_log_reader_next (&r, &rec, NULL) == PSC_LOG_NEXT_RECORD)
    {
      uint8_t len[4];
      psc_put_le32 (len, rec.len);
      g_byte_array_append (seed, len, 4);
      g_byte_array_append (seed, rec.payload, rec.len);
    }
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_file_set_contents (path, (const char *) seed->data, seed->len, &error))
    g_error ("%s", error->message);
  g_byte_array_unref (seed);
}

static int
write_corpus (const char *dir)
{
  Vk vk;
  vk_open (&vk);
  Dev a;
  dev_open (&vk, &a, true, false);
  GByteArray *log;
  export_dynamic (&a, &log);
  write_seed (dir, "exported-dynamic", log);
  g_byte_array_unref (log);
  dev_close (&a);

  dev_open (&vk, &a, false, false);
  Objects o = { 0 };
  register_shaders (&a, &o, SHADER_VS | SHADER_FS);
  get_objects (&a, &o);
  Gfx g;
  gfx_init (&g, &a, &o, o.fs, 4);
  get_graphics (&a, &g);
  PscRecipeSink sink;
  psc_recipe_sink_init (&sink);
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_export_all_recipes (a.core, 7, &sink, &err), ==, PSC_STATUS_OK);
  log = log_of (&sink);
  write_seed (dir, "exported-legacy", log);
  g_byte_array_unref (log);
  psc_recipe_sink_clear (&sink);
  dev_close (&a);
  vk_close (&vk);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-corpus") == 0)
    return write_corpus (argv[2]);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/recipes/dynamic", test_dynamic);
  g_test_add_func ("/vulkan/recipes/legacy", test_legacy);
  g_test_add_func ("/vulkan/recipes/missing-records", test_missing_records);
  g_test_add_func ("/vulkan/recipes/corrupted-records", test_corrupted_records);
  g_test_add_func ("/vulkan/recipes/pass-through", test_pass_through);
  return g_test_run ();
}
