/* harness.h: the Vulkan test suite's own instance and device.
 *
 * Each test creates its own VkInstance (with VK_LAYER_KHRONOS_validation and
 * VK_EXT_debug_utils), a persistent debug-utils messenger that counts and
 * prints every message of ERROR severity, and a Vulkan 1.3 device (dynamic
 * rendering on, or off to force the legacy backend), and wraps them with
 * psc_device_new_for_vulkan() passing the enabled-feature chain.
 *
 * A missing validation layer, a missing lavapipe (unless
 * PSC_TEST_ANY_DRIVER=1), or any validation error makes the test FAIL; the
 * harness never skips.
 *
 * Include this header first: it asks for the loader's prototypes, which the
 * project otherwise turns off with VK_NO_PROTOTYPES.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#undef VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <psocache/psocache.h>

#include "scene.h"

G_BEGIN_DECLS

typedef struct {
  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  VkPhysicalDevice physical_device;
  VkPhysicalDeviceProperties properties;
  VkDevice device;
  guint32 queue_family;
  VkQueue queue;
  VkCommandPool command_pool;
  gboolean dynamic_rendering;

  /* The chain the device was created with (handed to the PscDevice). */
  VkPhysicalDeviceFeatures2 features;
  VkPhysicalDeviceVulkan13Features features13;

  PscDevice *psc_device;
  GPtrArray *caches;             /* PscCache, unreffed before the device dies */

  gint validation_errors;        /* atomic */
  gboolean quiet;                /* don't print expected messages */
} PscTestHarness;

typedef enum {
  PSC_TEST_HARNESS_NONE = 0,
  /* Turn off the validation layer's handle wrapping
   * (VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT), so non-dispatchable
   * handles are the driver's own values, which the driver may reuse after
   * destruction. With wrapping on, the layer never reuses a value. */
  PSC_TEST_HARNESS_DRIVER_HANDLES = 1 << 0,
} PscTestHarnessFlags;

/* Creates the instance, messenger, device and PscDevice. Fails the test
 * (abort) if anything is missing. */
/* Under AddressSanitizer with lavapipe, loads the driver for good, so that
 * its one-time allocations stay attributable (and suppressed) when a test
 * destroys its last instance; else nothing. Every test that makes its own
 * devices calls it first (the harness does). */
void psc_test_keep_driver_resident (void);

PscTestHarness *psc_test_harness_new (gboolean dynamic_rendering);
PscTestHarness *psc_test_harness_new_full (gboolean dynamic_rendering, PscTestHarnessFlags flags);

/* Destroys caches, the PscDevice, the device, the messenger and the instance,
 * and asserts that the validation layer reported no error (including the
 * leak checks at vkDestroyDevice). */
void psc_test_harness_finish (PscTestHarness *h);

/* A cache on the harness's device, owned by the harness (do not unref). */
PscCache *psc_test_harness_cache (PscTestHarness *h, PscBackend backend, PscCacheFlags flags);
/* Destroys a cache early (waits for the device first). */
void psc_test_harness_drop_cache (PscTestHarness *h, PscCache *cache);

guint psc_test_harness_error_count (PscTestHarness *h);
void psc_test_harness_reset_errors (PscTestHarness *h);
/* Asserts that no validation error was reported so far. */
#define psc_test_harness_assert_clean(h) \
  g_assert_cmpuint (psc_test_harness_error_count (h), ==, 0)

/* One-shot command buffer on the harness's queue. */
VkCommandBuffer psc_test_harness_begin_commands (PscTestHarness *h);
void psc_test_harness_submit_and_wait (PscTestHarness *h, VkCommandBuffer cb);

/* Sum of every kind's creations counter. */
guint64 psc_test_total_creations (PscCache *cache);
/* The number of object kinds of the library the test runs against (the
 * public enumeration has no COUNT member): kinds are 0 .. n - 1. */
guint psc_test_n_kinds (void);

/* Compares two RGBA8 images; returns the number of differing pixels and the
 * largest per-channel difference. */
gsize psc_test_compare_images (const guint8 *a, const guint8 *b, guint width, guint height,
                               guint *max_channel_diff);
/* Number of distinct RGBA values in an image (a blank image has 1). */
guint psc_test_count_colors (const guint8 *rgba, guint width, guint height);

/* A minimal graphics create info (panel vertex shader + colour fragment
 * shader, no vertex input, one RGBA8 + D32 attachment set) in caller
 * storage, for tests that vary one field at a time. */
typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineRenderingCreateInfo rendering;
  VkFormat color_format;
  VkPipelineShaderStageCreateInfo stages[2];
  VkSpecializationInfo spec;
  VkSpecializationMapEntry spec_entries[2];
  gint32 spec_data[2];
  VkPipelineVertexInputStateCreateInfo vertex_input;
  VkPipelineInputAssemblyStateCreateInfo input_assembly;
  VkPipelineViewportStateCreateInfo viewport;
  VkPipelineRasterizationStateCreateInfo raster;
  VkPipelineMultisampleStateCreateInfo multisample;
  VkPipelineDepthStencilStateCreateInfo depth;
  VkPipelineColorBlendStateCreateInfo blend;
  VkPipelineColorBlendAttachmentState blend_attachment;
  VkPipelineDynamicStateCreateInfo dynamic;
  VkDynamicState dynamic_states[4];
} PscTestGraphicsInfo;

/* Cache-owned objects the test pipelines use. */
typedef struct {
  VkShaderModule vs, fs, cs;
  VkSampler sampler;
  VkDescriptorSetLayout set_layout;      /* UBO + immutable-sampler texture */
  VkPipelineLayout layout;               /* set_layout + 32-byte push range */
  VkDescriptorSetLayout compute_set_layout;
  VkPipelineLayout compute_layout;
  VkRenderPass compat_pass;              /* legacy caches: RGBA8 + D32 */
  VkRenderPassCreateInfo pass_info;      /* what compat_pass was asked for */
  VkAttachmentDescription pass_attachments[2];
  VkAttachmentReference pass_refs[2];
  VkSubpassDescription pass_subpass;
} PscTestObjects;

/* Registers the demo's shaders and gets the objects above (asserting). */
void psc_test_objects_init (PscTestObjects *o, PscCache *cache);
/* Fills @g with the base graphics create info for @cache's backend. */
void psc_test_graphics_info_init (PscTestGraphicsInfo *g, const PscTestObjects *o,
                                  PscCache *cache);
/* The base compute create info (storage @spec_storage must outlive it). */
void psc_test_compute_info_init (VkComputePipelineCreateInfo *ci, VkSpecializationInfo *spec,
                                 VkSpecializationMapEntry *entry, float *value,
                                 const PscTestObjects *o);

/* ------------------------------------------------------------------------
 * The demo scene on a harness device
 */
typedef struct {
  gboolean dynamic_rendering;    /* the device's feature */
  PscBackend backend;            /* the cache's */
  PscCacheFlags cache_flags;
  gboolean prepared;             /* prepared key ids instead of create infos */
  gboolean checking_recorder;    /* record through the checking recorder */
  guint frames;                  /* PSC_TEST_SCENE_FRAMES */
} PscTestSceneRun;

/* The suite renders the scene at 160x120 for 5 frames, resizing to 240x180
 * before frame 3. */
#define PSC_TEST_SCENE_WIDTH 160
#define PSC_TEST_SCENE_HEIGHT 120
#define PSC_TEST_SCENE_FRAMES 5
#define PSC_TEST_SCENE_RESIZE_AT 3

void psc_test_scene_run_init (PscTestSceneRun *run);
/* Creates a harness and a cache, runs the scene (asserting success), tears
 * everything down (asserting validation stayed silent) and returns the
 * scene's result, pixels included. */
void psc_test_render_scene_run (const PscTestSceneRun *run, PscDemoSceneResult *result);
void psc_test_render_scene (gboolean dynamic_rendering, PscBackend backend, gboolean prepared,
                            PscDemoSceneResult *result);
void psc_test_scene_options_init (PscDemoSceneOptions *options);
/* Asserts that the image is not blank (many distinct colours). */
void psc_test_assert_scene_image (const PscDemoSceneResult *result);
/* Saves the image as NAME (PPM) in the test's build directory, for a look. */
void psc_test_save_image (const char *name, const PscDemoSceneResult *result);

/* The cache's backend with AUTO resolved from the device. */
PscBackend psc_test_resolved_backend (PscCache *cache);

G_END_DECLS
