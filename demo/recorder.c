/* recorder.c: the scene's recording function table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scene.h"
#include "demo-vk.h"

typedef struct {
  PscDemoRecorder parent;
  PscDemoVk vk;
  PscCache *cache;               /* checking recorder only (owned ref) */
  guint violations;
  guint render_pass_begins;
  guint rendering_begins;
} Recorder;

#define REC(self) ((Recorder *) (self))

static void
rec_begin_rendering (PscDemoRecorder *self, VkCommandBuffer cb, const VkRenderingInfo *info)
{
  REC (self)->rendering_begins++;
  REC (self)->vk.vkCmdBeginRendering (cb, info);
}

static void
rec_end_rendering (PscDemoRecorder *self, VkCommandBuffer cb)
{
  REC (self)->vk.vkCmdEndRendering (cb);
}

static void
rec_begin_render_pass (PscDemoRecorder *self, VkCommandBuffer cb,
                       const VkRenderPassBeginInfo *info, VkSubpassContents contents)
{
  REC (self)->render_pass_begins++;
  REC (self)->vk.vkCmdBeginRenderPass (cb, info, contents);
}

static void
rec_checking_begin_render_pass (PscDemoRecorder *self, VkCommandBuffer cb,
                                const VkRenderPassBeginInfo *info, VkSubpassContents contents)
{
  Recorder *r = REC (self);

  r->render_pass_begins++;
  if (psc_cache_is_compat_render_pass (r->cache, info->renderPass))
    {
      r->violations++;
      g_debug ("vkCmdBeginRenderPass was given the cache's compatibility "
                 "render pass 0x%" G_GINT64_MODIFIER "x; not forwarded",
                 (guint64) info->renderPass);
      return;
    }
  r->vk.vkCmdBeginRenderPass (cb, info, contents);
}

static void
rec_end_render_pass (PscDemoRecorder *self, VkCommandBuffer cb)
{
  REC (self)->vk.vkCmdEndRenderPass (cb);
}

static void
rec_bind_pipeline (PscDemoRecorder *self, VkCommandBuffer cb,
                   VkPipelineBindPoint bind_point, VkPipeline pipeline)
{
  REC (self)->vk.vkCmdBindPipeline (cb, bind_point, pipeline);
}

static void
rec_bind_descriptor_sets (PscDemoRecorder *self, VkCommandBuffer cb,
                          VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                          guint32 first_set, guint32 count, const VkDescriptorSet *sets)
{
  REC (self)->vk.vkCmdBindDescriptorSets (cb, bind_point, layout, first_set, count,
                                          sets, 0, NULL);
}

static void
rec_push_constants (PscDemoRecorder *self, VkCommandBuffer cb, VkPipelineLayout layout,
                    VkShaderStageFlags stages, guint32 offset, guint32 size,
                    const void *values)
{
  REC (self)->vk.vkCmdPushConstants (cb, layout, stages, offset, size, values);
}

static void
rec_bind_vertex_buffer (PscDemoRecorder *self, VkCommandBuffer cb, VkBuffer buffer,
                        VkDeviceSize offset)
{
  REC (self)->vk.vkCmdBindVertexBuffers (cb, 0, 1, &buffer, &offset);
}

static void
rec_set_viewport (PscDemoRecorder *self, VkCommandBuffer cb, const VkViewport *viewport)
{
  REC (self)->vk.vkCmdSetViewport (cb, 0, 1, viewport);
}

static void
rec_set_scissor (PscDemoRecorder *self, VkCommandBuffer cb, const VkRect2D *scissor)
{
  REC (self)->vk.vkCmdSetScissor (cb, 0, 1, scissor);
}

static void
rec_set_depth_bias (PscDemoRecorder *self, VkCommandBuffer cb, float constant_factor,
                    float clamp, float slope_factor)
{
  REC (self)->vk.vkCmdSetDepthBias (cb, constant_factor, clamp, slope_factor);
}

static void
rec_draw (PscDemoRecorder *self, VkCommandBuffer cb, guint32 vertex_count,
          guint32 instance_count, guint32 first_vertex, guint32 first_instance)
{
  REC (self)->vk.vkCmdDraw (cb, vertex_count, instance_count, first_vertex, first_instance);
}

static void
rec_dispatch (PscDemoRecorder *self, VkCommandBuffer cb, guint32 x, guint32 y, guint32 z)
{
  REC (self)->vk.vkCmdDispatch (cb, x, y, z);
}

static void
rec_pipeline_barrier (PscDemoRecorder *self, VkCommandBuffer cb,
                      VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
                      guint32 n_memory, const VkMemoryBarrier *memory,
                      guint32 n_buffer, const VkBufferMemoryBarrier *buffer,
                      guint32 n_image, const VkImageMemoryBarrier *image)
{
  REC (self)->vk.vkCmdPipelineBarrier (cb, src_stages, dst_stages, 0,
                                       n_memory, memory, n_buffer, buffer,
                                       n_image, image);
}

static void
rec_copy_image_to_buffer (PscDemoRecorder *self, VkCommandBuffer cb, VkImage image,
                          VkImageLayout layout, VkBuffer buffer, guint32 n_regions,
                          const VkBufferImageCopy *regions)
{
  REC (self)->vk.vkCmdCopyImageToBuffer (cb, image, layout, buffer, n_regions, regions);
}

static void
rec_copy_buffer_to_image (PscDemoRecorder *self, VkCommandBuffer cb, VkBuffer buffer,
                          VkImage image, VkImageLayout layout, guint32 n_regions,
                          const VkBufferImageCopy *regions)
{
  REC (self)->vk.vkCmdCopyBufferToImage (cb, buffer, image, layout, n_regions, regions);
}

static Recorder *
recorder_new (PscDevice *device, GError **error)
{
  Recorder *r = g_new0 (Recorder, 1);

  if (!psc_demo_vk_load (&r->vk, psc_device_get_info (device), error))
    {
      g_free (r);
      return NULL;
    }

  r->parent.begin_rendering = rec_begin_rendering;
  r->parent.end_rendering = rec_end_rendering;
  r->parent.begin_render_pass = rec_begin_render_pass;
  r->parent.end_render_pass = rec_end_render_pass;
  r->parent.bind_pipeline = rec_bind_pipeline;
  r->parent.bind_descriptor_sets = rec_bind_descriptor_sets;
  r->parent.push_constants = rec_push_constants;
  r->parent.bind_vertex_buffer = rec_bind_vertex_buffer;
  r->parent.set_viewport = rec_set_viewport;
  r->parent.set_scissor = rec_set_scissor;
  r->parent.set_depth_bias = rec_set_depth_bias;
  r->parent.draw = rec_draw;
  r->parent.dispatch = rec_dispatch;
  r->parent.pipeline_barrier = rec_pipeline_barrier;
  r->parent.copy_image_to_buffer = rec_copy_image_to_buffer;
  r->parent.copy_buffer_to_image = rec_copy_buffer_to_image;
  return r;
}

PscDemoRecorder *
psc_demo_recorder_new (PscDevice *device, GError **error)
{
  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);

  return (PscDemoRecorder *) recorder_new (device, error);
}

PscDemoRecorder *
psc_demo_recorder_new_checking (PscCache *cache, GError **error)
{
  Recorder *r;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);

  r = recorder_new (psc_cache_get_device (cache), error);
  if (r == NULL)
    return NULL;
  r->cache = g_object_ref (cache);
  r->parent.begin_render_pass = rec_checking_begin_render_pass;
  return (PscDemoRecorder *) r;
}

void
psc_demo_recorder_free (PscDemoRecorder *self)
{
  if (self == NULL)
    return;
  g_clear_object (&REC (self)->cache);
  g_free (self);
}

guint
psc_demo_recorder_get_violations (PscDemoRecorder *self)
{
  return REC (self)->violations;
}

guint
psc_demo_recorder_get_render_pass_begins (PscDemoRecorder *self)
{
  return REC (self)->render_pass_begins;
}

guint
psc_demo_recorder_get_rendering_begins (PscDemoRecorder *self)
{
  return REC (self)->rendering_begins;
}
