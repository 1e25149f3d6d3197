/* test-compat-pass: a compatibility render pass is never begun.
 *
 * The demo scene records every frame through the checking recorder, which
 * asks psc_cache_is_compat_render_pass() on every begin-render-pass: on the
 * legacy backend the scene begins only its own execution passes (0
 * violations), and on the dynamic backend it never begins a render pass at
 * all. A control test begins a cache-issued compatibility pass through the
 * checking recorder and must be caught.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

/* 4 passes per frame: B, C, depth prepass, A */
#define PASSES_PER_FRAME 4

static void
test_scene_dynamic (void)
{
  PscTestSceneRun run;
  PscDemoSceneResult r = { 0 };

  psc_test_scene_run_init (&run);
  run.dynamic_rendering = TRUE;
  run.backend = PSC_BACKEND_DYNAMIC_RENDERING;
  run.checking_recorder = TRUE;
  psc_test_render_scene_run (&run, &r);

  g_assert_cmpuint (r.violations, ==, 0);
  g_assert_cmpuint (r.render_pass_begins, ==, 0);
  g_assert_cmpuint (r.rendering_begins, ==, PASSES_PER_FRAME * r.frames);
  psc_demo_scene_result_clear (&r);
}

static void
test_scene_legacy (void)
{
  PscTestSceneRun run;
  PscDemoSceneResult r = { 0 };

  psc_test_scene_run_init (&run);
  run.dynamic_rendering = FALSE;
  run.backend = PSC_BACKEND_LEGACY;
  run.checking_recorder = TRUE;
  psc_test_render_scene_run (&run, &r);

  g_assert_cmpuint (r.violations, ==, 0);
  g_assert_cmpuint (r.render_pass_begins, ==, PASSES_PER_FRAME * r.frames);
  g_assert_cmpuint (r.rendering_begins, ==, 0);
  psc_demo_scene_result_clear (&r);
}

static VkImage
create_image (PscTestHarness *h, VkFormat format, VkImageUsageFlags usage, VkDeviceMemory *memory,
              VkImageView *view)
{
  VkImageCreateInfo ii = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
    .imageType = VK_IMAGE_TYPE_2D,
    .format = format,
    .extent = { 16, 16, 1 },
    .mipLevels = 1,
    .arrayLayers = 1,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .tiling = VK_IMAGE_TILING_OPTIMAL,
    .usage = usage,
    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
  };
  VkImageViewCreateInfo vi = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
    .viewType = VK_IMAGE_VIEW_TYPE_2D,
    .format = format,
    .subresourceRange = {
      format == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT,
      0, 1, 0, 1,
    },
  };
  VkMemoryRequirements req;
  VkPhysicalDeviceMemoryProperties props;
  VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO };
  VkImage image;

  g_assert_cmpint (vkCreateImage (h->device, &ii, NULL, &image), ==, VK_SUCCESS);
  vkGetImageMemoryRequirements (h->device, image, &req);
  vkGetPhysicalDeviceMemoryProperties (h->physical_device, &props);
  ai.allocationSize = req.size;
  for (ai.memoryTypeIndex = 0; ai.memoryTypeIndex < props.memoryTypeCount; ai.memoryTypeIndex++)
    if (req.memoryTypeBits & (1u << ai.memoryTypeIndex))
      break;
  g_assert_cmpint (vkAllocateMemory (h->device, &ai, NULL, memory), ==, VK_SUCCESS);
  g_assert_cmpint (vkBindImageMemory (h->device, image, *memory, 0), ==, VK_SUCCESS);
  vi.image = image;
  g_assert_cmpint (vkCreateImageView (h->device, &vi, NULL, view), ==, VK_SUCCESS);
  return image;
}

/* Control: the checking recorder catches a compatibility pass given to
 * begin-render-pass, and forwards the application's own execution pass. */
static void
test_control_compat_pass_is_caught (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_LEGACY, PSC_CACHE_FLAGS_NONE);
  g_autoptr(PscDemoRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  VkRenderPass exec_pass;
  VkImage images[2];
  VkDeviceMemory memory[2];
  VkImageView views[2];
  VkFramebuffer fb_compat, fb_exec;
  VkFramebufferCreateInfo fi = {
    .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
    .attachmentCount = 2,
    .pAttachments = views,
    .width = 16,
    .height = 16,
    .layers = 1,
  };
  VkClearValue clears[2] = { { .color = { .float32 = { 0, 0, 0, 1 } } },
                             { .depthStencil = { 1.0f, 0 } } };
  VkRenderPassBeginInfo bi = {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
    .renderArea = { { 0, 0 }, { 16, 16 } },
    .clearValueCount = 2,
    .pClearValues = clears,
  };
  VkCommandBuffer cb;

  psc_test_objects_init (&o, cache);
  recorder = psc_demo_recorder_new_checking (cache, &error);
  g_assert_no_error (error);

  /* the application's execution pass, from the same description */
  g_assert_cmpint (vkCreateRenderPass (h->device, &o.pass_info, NULL, &exec_pass), ==, VK_SUCCESS);
  g_assert_false (psc_cache_is_compat_render_pass (cache, exec_pass));
  g_assert_true (psc_cache_is_compat_render_pass (cache, o.compat_pass));

  images[0] = create_image (h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                            &memory[0], &views[0]);
  images[1] = create_image (h, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                            &memory[1], &views[1]);
  fi.renderPass = o.compat_pass;
  g_assert_cmpint (vkCreateFramebuffer (h->device, &fi, NULL, &fb_compat), ==, VK_SUCCESS);
  fi.renderPass = exec_pass;
  g_assert_cmpint (vkCreateFramebuffer (h->device, &fi, NULL, &fb_exec), ==, VK_SUCCESS);

  cb = psc_test_harness_begin_commands (h);

  /* Beginning the compatibility pass would be valid Vulkan, which is why the
   * recorder, not the validation layer, has to catch it. */
  bi.renderPass = o.compat_pass;
  bi.framebuffer = fb_compat;
  recorder->begin_render_pass (recorder, cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
  g_assert_cmpuint (psc_demo_recorder_get_violations (recorder), ==, 1);
  g_assert_cmpuint (psc_demo_recorder_get_render_pass_begins (recorder), ==, 1);

  /* the execution pass goes through */
  bi.renderPass = exec_pass;
  bi.framebuffer = fb_exec;
  recorder->begin_render_pass (recorder, cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
  recorder->end_render_pass (recorder, cb);
  g_assert_cmpuint (psc_demo_recorder_get_violations (recorder), ==, 1);
  g_assert_cmpuint (psc_demo_recorder_get_render_pass_begins (recorder), ==, 2);

  psc_test_harness_submit_and_wait (h, cb);

  vkDestroyFramebuffer (h->device, fb_compat, NULL);
  vkDestroyFramebuffer (h->device, fb_exec, NULL);
  vkDestroyRenderPass (h->device, exec_pass, NULL);
  for (int i = 0; i < 2; i++)
    {
      vkDestroyImageView (h->device, views[i], NULL);
      vkDestroyImage (h->device, images[i], NULL);
      vkFreeMemory (h->device, memory[i], NULL);
    }
  g_clear_pointer (&recorder, psc_demo_recorder_free);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/compat-pass/scene-dynamic-rendering", test_scene_dynamic);
  g_test_add_func ("/vulkan/compat-pass/scene-legacy", test_scene_legacy);
  g_test_add_func ("/vulkan/compat-pass/control-compat-pass-is-caught",
                   test_control_compat_pass_is_caught);
  return g_test_run ();
}
