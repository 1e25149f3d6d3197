/* test-live-caches.c: seed 004's live-resource caches on a real driver with
 * the validation layer (lavapipe in CI):
 *
 *   - uniform sets: the same resources give the same set (a hit), another
 *     offset another set; invalidating a buffer removes every set that
 *     binds it; those sets are released only once the timeline passes
 *     their last use; a lookup naming the invalidated buffer is refused; a
 *     new buffer gives a new set, recorded and submitted, and no destroyed
 *     handle is ever bound (the owned buffer is destroyed only after its
 *     sets were released: the layer would report a destroyed buffer in a
 *     submitted set, or a leak at device destruction);
 *   - framebuffers: the same attachments and extent give the same
 *     framebuffer, begun with the application's execution pass; another
 *     extent or view another; invalidating a view removes and, after the
 *     timeline, destroys its framebuffers;
 *   - both refuse another thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "descriptor-env.h"

#include <string.h>

static const VkDescriptorSetLayoutBinding bindings[] = {
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
};

typedef struct {
  VkCommandPool pool;
  VkCommandBuffer cb;
  VkFence fence;
  VkQueue queue;
} Submit;

static void
submit_init (Env *e, Submit *s)
{
  const PscDeviceInfo *info = psc_device_get_info (e->psc);
  VkCommandPoolCreateInfo cpi = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
    .queueFamilyIndex = info->queue_family_index,
  };
  VkCommandBufferAllocateInfo cai = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
  };
  VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };

  s->queue = info->queue;
  g_assert_true (s->queue != VK_NULL_HANDLE);
  g_assert_cmpint (vkCreateCommandPool (e->device, &cpi, NULL, &s->pool), ==, VK_SUCCESS);
  cai.commandPool = s->pool;
  g_assert_cmpint (vkAllocateCommandBuffers (e->device, &cai, &s->cb), ==, VK_SUCCESS);
  g_assert_cmpint (vkCreateFence (e->device, &fi, NULL, &s->fence), ==, VK_SUCCESS);
}

static VkCommandBuffer
submit_begin (Submit *s)
{
  VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };

  g_assert_cmpint (vkResetCommandBuffer (s->cb, 0), ==, VK_SUCCESS);
  g_assert_cmpint (vkBeginCommandBuffer (s->cb, &bi), ==, VK_SUCCESS);
  return s->cb;
}

static void
submit_end_and_wait (Env *e, Submit *s)
{
  VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                      .pCommandBuffers = &s->cb };

  g_assert_cmpint (vkEndCommandBuffer (s->cb), ==, VK_SUCCESS);
  g_assert_cmpint (vkQueueSubmit (s->queue, 1, &si, s->fence), ==, VK_SUCCESS);
  g_assert_cmpint (vkWaitForFences (e->device, 1, &s->fence, VK_TRUE, G_MAXUINT64), ==, VK_SUCCESS);
  g_assert_cmpint (vkResetFences (e->device, 1, &s->fence), ==, VK_SUCCESS);
}

static void
submit_clear (Env *e, Submit *s)
{
  vkDestroyFence (e->device, s->fence, NULL);
  vkDestroyCommandPool (e->device, s->pool, NULL);
}

/* Binds @set in a submitted command buffer (the layer checks every
 * descriptor's handles then). */
static void
bind_and_submit (Env *e, Submit *s, VkPipelineLayout pl, PscDescriptorSet *set)
{
  g_autoptr(GError) error = NULL;
  VkDescriptorSet handle;
  VkCommandBuffer cb = submit_begin (s);

  g_assert_true (psc_descriptor_set_get_handle (set, &handle, &error));
  g_assert_no_error (error);
  vkCmdBindDescriptorSets (cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pl, 0, 1, &handle, 0, NULL);
  submit_end_and_wait (e, s);
}

static gpointer
lookup_elsewhere (gpointer data)
{
  PscUniformSetCache *cache = data;
  GError *error = NULL;

  g_assert_null (psc_uniform_set_cache_lookup (cache, VK_NULL_HANDLE, 0, (PscDescriptorLayout *) 1,
                                               0, NULL, &error));
  return error;
}

static void
test_uniform_sets (void)
{
  Env e;
  Submit s;
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  submit_init (&e, &s);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, bindings, 2, NULL, 0, &error);
    VkDescriptorSetLayout sl = psc_descriptor_layout_get_handle (layout);
    VkPipelineLayoutCreateInfo pli = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &sl,
    };
    VkPipelineLayout pl = psc_cache_get_pipeline_layout (e.cache, &pli, &error);
    g_autoptr(PscUniformSetCache) cache = psc_uniform_set_cache_new (e.psc, 4, &error);
    PscBuffer *b1 = new_buffer (&e, 1024);
    g_autoptr(PscBuffer) b2 = new_buffer (&e, 1024);
    g_autoptr(PscImageView) view = new_view (&e, 0);
    g_autoptr(PscSampler) sampler = new_sampler (&e);
    PscUniformResource r[2] = {
      { .binding = 0, .buffer = b1, .offset = 0, .range = 256 },
      { .binding = 1, .image_view = view, .image_layout = VK_IMAGE_LAYOUT_GENERAL, .sampler = sampler },
    };
    PscDescriptorSet *first, *again, *other, *fresh;
    GError *thread_error;

    g_assert_no_error (error);
    g_assert_null (psc_uniform_set_cache_new (e.psc, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);

    /* Frame 1: a miss, a hit, another offset (a miss), both bound. */
    psc_uniform_set_cache_begin_frame (cache, 1, 0);
    first = psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error);
    g_assert_no_error (error);
    again = psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error);
    g_assert_true (again == first);
    r[0].offset = 256;
    other = psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error);
    g_assert_no_error (error);
    g_assert_true (other != first);
    /* Another set index: another set. */
    g_assert_true (psc_uniform_set_cache_lookup (cache, pl, 1, layout, 2, r, &error) != other);
    g_assert_cmpuint (psc_uniform_set_cache_get_hits (cache), ==, 1);
    g_assert_cmpuint (psc_uniform_set_cache_get_misses (cache), ==, 3);
    g_assert_cmpuint (psc_uniform_set_cache_get_n_entries (cache), ==, 3);
    g_assert_true (psc_descriptor_entry_get_buffer (psc_descriptor_set_get_entry (first, 0, 0, &error)) == b1);
    bind_and_submit (&e, &s, pl, first);
    bind_and_submit (&e, &s, pl, other);

    /* The caller's reference on the owned buffer goes; the sets keep it. */
    psc_buffer_unref (b1);
    /* Invalidating it takes every set that binds it out of the cache. */
    psc_buffer_invalidate (b1);
    g_assert_cmpuint (psc_uniform_set_cache_get_n_entries (cache), ==, 0);
    g_assert_cmpuint (psc_uniform_set_cache_get_n_retiring (cache), ==, 3);
    /* Frame 2 begins with frame 1 not known complete: they stay. */
    psc_uniform_set_cache_begin_frame (cache, 2, 0);
    g_assert_cmpuint (psc_uniform_set_cache_get_n_retiring (cache), ==, 3);
    /* A lookup naming the invalidated buffer is refused. */
    r[0].offset = 0;
    g_assert_null (psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error));
    g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED);
    g_clear_error (&error);
    /* Frame 3, frame 1 complete: released (and the owned buffer destroyed
     * with its last reference). */
    psc_uniform_set_cache_begin_frame (cache, 3, 1);
    g_assert_cmpuint (psc_uniform_set_cache_get_n_retiring (cache), ==, 0);

    /* A new buffer: a new set, bound; the layer stays silent. */
    r[0].buffer = b2;
    fresh = psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error);
    g_assert_no_error (error);
    g_assert_nonnull (fresh);
    bind_and_submit (&e, &s, pl, fresh);
    g_assert_true (psc_uniform_set_cache_lookup (cache, pl, 0, layout, 2, r, &error) == fresh);

    /* Another thread is refused. */
    thread_error = g_thread_join (g_thread_new ("other", lookup_elsewhere, cache));
    g_assert_error (thread_error, PSC_ERROR, PSC_ERROR_WRONG_THREAD);
    g_error_free (thread_error);
    assert_clean (&e);
  }
  submit_clear (&e, &s);
  env_finish (&e);
}

static void
test_churn (void)
{
  Env e;
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, bindings, 2, NULL, 0, &error);
    g_autoptr(PscUniformSetCache) cache = psc_uniform_set_cache_new (e.psc, 8, &error);
    g_autoptr(PscImageView) view = new_view (&e, 0);
    g_autoptr(PscSampler) sampler = new_sampler (&e);

    /* Thousands of buffers, each invalidated after a few frames: the
     * cache and its pools stay bounded (pools are reset when empty). */
    for (guint64 f = 1; f <= 2000; f++)
      {
        g_autoptr(PscBuffer) b = new_buffer (&e, 256);
        PscUniformResource r[2] = {
          { .binding = 0, .buffer = b, .range = VK_WHOLE_SIZE },
          { .binding = 1, .image_view = view, .image_layout = VK_IMAGE_LAYOUT_GENERAL, .sampler = sampler },
        };

        psc_uniform_set_cache_begin_frame (cache, f, f - 1);
        g_assert_nonnull (psc_uniform_set_cache_lookup ((PscUniformSetCache *) cache, VK_NULL_HANDLE, 0,
                                                        layout, 2, r, &error));
        g_assert_no_error (error);
        psc_buffer_invalidate (b);
        g_assert_cmpuint (psc_uniform_set_cache_get_n_entries (cache), ==, 0);
        g_assert_cmpuint (psc_uniform_set_cache_get_n_retiring (cache), <=, 1);
      }
    assert_clean (&e);
  }
  env_finish (&e);
}

static void
test_framebuffers (void)
{
  Env e;
  Submit s;
  g_autoptr(GError) error = NULL;
  VkAttachmentDescription attachment = {
    .format = VK_FORMAT_R8G8B8A8_UNORM,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
    .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
  };
  VkAttachmentReference ref = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
  VkSubpassDescription subpass = {
    .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
    .colorAttachmentCount = 1,
    .pColorAttachments = &ref,
  };
  VkRenderPassCreateInfo rpi = {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = 1, .pAttachments = &attachment,
    .subpassCount = 1, .pSubpasses = &subpass,
  };

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  submit_init (&e, &s);
  {
    VkRenderPass compat = psc_cache_get_compat_render_pass (e.cache, &rpi, &error);
    VkRenderPass exec;
    g_autoptr(PscFramebufferCache) cache = psc_framebuffer_cache_new (e.psc, &error);
    g_autoptr(PscImageView) v1 = new_view (&e, 0);
    g_autoptr(PscImageView) v2 = new_view (&e, PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE);
    VkFramebuffer f1, f1_small, f2;
    VkClearValue clear = { .color = { .float32 = { 0, 0, 0, 1 } } };

    g_assert_no_error (error);
    g_assert_cmpint (vkCreateRenderPass (e.device, &rpi, NULL, &exec), ==, VK_SUCCESS);

    psc_framebuffer_cache_begin_frame (cache, 1, 0);
    f1 = psc_framebuffer_cache_lookup (cache, compat, 1, &v1, 8, 8, 1, &error);
    g_assert_no_error (error);
    g_assert_true (f1 != VK_NULL_HANDLE);
    g_assert_true (psc_framebuffer_cache_lookup (cache, compat, 1, &v1, 8, 8, 1, &error) == f1);
    f1_small = psc_framebuffer_cache_lookup (cache, compat, 1, &v1, 4, 4, 1, &error);
    g_assert_true (f1_small != f1);
    /* A swapchain view may be an attachment. */
    f2 = psc_framebuffer_cache_lookup (cache, compat, 1, &v2, 8, 8, 1, &error);
    g_assert_no_error (error);
    g_assert_true (f2 != f1);
    g_assert_cmpuint (psc_framebuffer_cache_get_n_entries (cache), ==, 3);

    /* Begun with the application's execution pass (compatible; the
     * cache's compatibility pass is never begun). */
    {
      VkCommandBuffer cb = submit_begin (&s);
      VkRenderPassBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = exec, .framebuffer = f1,
        .renderArea = { { 0, 0 }, { 8, 8 } },
        .clearValueCount = 1, .pClearValues = &clear,
      };
      vkCmdBeginRenderPass (cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdEndRenderPass (cb);
      submit_end_and_wait (&e, &s);
    }

    /* Invalidating v1 removes its two framebuffers; they are destroyed
     * once frame 1 is known complete. */
    psc_image_view_invalidate (v1);
    g_assert_cmpuint (psc_framebuffer_cache_get_n_entries (cache), ==, 1);
    g_assert_cmpuint (psc_framebuffer_cache_get_n_retiring (cache), ==, 2);
    psc_framebuffer_cache_begin_frame (cache, 2, 0);
    g_assert_cmpuint (psc_framebuffer_cache_get_n_retiring (cache), ==, 2);
    g_assert_true (psc_framebuffer_cache_lookup (cache, compat, 1, &v1, 8, 8, 1, &error) == VK_NULL_HANDLE);
    g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED);
    g_clear_error (&error);
    psc_framebuffer_cache_begin_frame (cache, 3, 1);
    g_assert_cmpuint (psc_framebuffer_cache_get_n_retiring (cache), ==, 0);
    g_assert_true (psc_framebuffer_cache_lookup (cache, compat, 1, &v2, 8, 8, 1, &error) == f2);

    g_assert_true (psc_framebuffer_cache_lookup (cache, compat, 0, NULL, 8, 8, 1, &error) == VK_NULL_HANDLE);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    assert_clean (&e);
    vkDestroyRenderPass (e.device, exec, NULL);
  }
  submit_clear (&e, &s);
  env_finish (&e);
}

int
main (int argc, char **argv)
{
  env_test_init (&argc, &argv);
  g_test_add_func ("/live-caches/uniform-sets", test_uniform_sets);
  g_test_add_func ("/live-caches/churn", test_churn);
  g_test_add_func ("/live-caches/framebuffers", test_framebuffers);
  return g_test_run ();
}
