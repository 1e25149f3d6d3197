/* scene.c: the demo scene, rendered offscreen through a PscCache.
 *
 * What a frame does:
 *
 *   compute   palette-comp fills the scene's uniform buffer (lights, palette)
 *   pass B    RGBA16F + D32: a 6x4 grid of lit/textured/translucent tiles (HDR)
 *   pass C    RGBA8 4x MSAA + D32 4x, resolved to RGBA8: a 6x4 grid of tiles
 *   pass PRE  depth only (target A's D32): eight occluders, no colour
 *   pass A    RGBA8 + D32 (depth loaded from PRE): an 8x6 grid of tiles, then
 *             two panels compositing B (tone mapped) and C
 *
 * Every tile is drawn with its own graphics pipeline (a shader pair, a vertex
 * layout, blending, specialization constants, the pass's attachment
 * configuration): 48 + 24 + 24 + 8 occluders + 2 panels = 106 graphics
 * pipelines and one compute pipeline, all requested from the cache every
 * frame from create infos rebuilt in one reused buffer.
 *
 * The tiles, occluders and panels are material instances (scene-materials.h):
 * their pipelines' create infos come from the pass contexts' provider, for
 * every request, and each pass's draws are sorted by a PscDrawList (opaque
 * by pipeline key, material, front to back; translucent back to front)
 * before they are recorded. In asynchronous mode the scene can prewarm its
 * materials before the first frame (PscDemoSceneOptions.prewarm).
 *
 * On the dynamic-rendering backend passes are vkCmdBeginRendering and
 * pipelines chain VkPipelineRenderingCreateInfo. On the legacy backend the
 * scene creates its own execution render passes and framebuffers, begins
 * those, and names the cache's compatibility passes (requested with the same
 * VkRenderPassCreateInfo) only in pipeline create infos.
 *
 * Asynchronous mode (PscDemoSceneOptions.async; psocache-demo --async):
 *
 *   - Every graphics pipeline is requested every frame with
 *     psc_cache_request_graphics_pipeline (PSC_MISS_POLICY_FALLBACK, no
 *     callback), so the owner thread never compiles in the frame loop: the
 *     cache's workers do. A draw uses what the request returned: the Ready
 *     pipeline (exact), the previous shader generation (stale, after the
 *     hot reload), the registered fallback, or nothing (pending without a
 *     fallback, or a full queue: the draw is skipped). Each is counted.
 *   - Before the first frame, for each distinct (pipeline layout, pass) the
 *     scene uses (5: B, C, A and A's composite layout, PRE depth-only), it
 *     creates one "ubershader-style" fallback synchronously (panel-vert.glsl
 *     drawing the tile's bounding quad + fallback-frag.glsl, generic
 *     striped palette colour; no fragment stage for PRE) and registers it
 *     with psc_cache_set_fallback. The compute pipeline that fills the
 *     scene's uniform data has no fallback (fallbacks are graphics only), so
 *     it is created synchronously then too and requested every frame like
 *     the rest. The owner-thread wait of this setup is counted apart.
 *   - Hot reload (psc_demo_scene_reload_shader; psc_demo_scene_run does it
 *     before options->reload_at_frame): PSC_DEMO_RELOAD_SHADER (fs_lit) is
 *     replaced with its tinted variant (built with -DTINT); the scene
 *     requests with the new module handle from then on, and its 20
 *     pipelines draw stale or fallback until the new generation is Ready.
 *   - Eviction: psc_cache_set_eviction_idle_frames (options, default 4); the
 *     far-LOD set (the top row of passes A and C, 14 pipelines) is requested
 *     and drawn only every far_lod_interval-th frame (default 8), so its
 *     pipelines go idle, are evicted, retired on the timeline, and compile
 *     again when next requested.
 *   - Convergence (psc_demo_scene_run): after options->frames, frames
 *     request every LOD until one draws every pipeline exactly (at most
 *     converge_max_frames); that frame is read back. It matches, byte for
 *     byte, a synchronous render of the scene with options->reloaded (the
 *     tinted shader registered from the start): same create infos, same
 *     driver, so lavapipe produces identical pixels.
 *   - Timeline: each frame waits for its fence, so begin_frame (N) reports
 *     N - 1 as completed, as in the synchronous mode.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scene.h"
#include "scene-materials.h"
#include "demo-vk.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define COLOR_LDR VK_FORMAT_R8G8B8A8_UNORM
#define COLOR_HDR VK_FORMAT_R16G16B16A16_SFLOAT
#define DEPTH     VK_FORMAT_D32_SFLOAT

enum { SET_SCENE, SET_COMPOSITE, SET_COMPUTE, N_SET_LAYOUTS };
enum { SAMPLER_TEXTURE, SAMPLER_LINEAR_CLAMP, SAMPLER_NEAREST_CLAMP, N_SAMPLERS };

#define TEXTURE_SIZE 32
#define SCENE_UBO_SIZE (16 * 16) /* vec4 light_dir[4], light_color[4], palette[8] */
#define PUSH_SIZE PSC_DEMO_MATERIAL_BLOCK_SIZE /* the material block: vec4 rect, vec4 params */
#define MAX_GRAPHICS 128
#define MAX_FALLBACKS 8

/* Internal shader slots after the PscDemoShader ones (PSC_DEMO_SHADER_COUNT
 * itself means "no fragment stage" in a PipelineDesc). */
#define SHADER_FALLBACK (PSC_DEMO_SHADER_COUNT + 1)
#define N_SHADER_SLOTS (PSC_DEMO_SHADER_COUNT + 2)

/* PNU: a disc (8-triangle fan) whose normals lean outwards; PC: a hexagon
 * with rainbow vertex colours. Both fans go by increasing angle in normalized
 * device coordinates, which is clockwise in Vulkan's y-down framebuffer
 * space: the front face is VK_FRONT_FACE_CLOCKWISE. */
#define DISC_SEGMENTS 8
#define HEX_SEGMENTS 6
#define PNU_STRIDE (8 * sizeof (float))
#define PC_STRIDE (7 * sizeof (float))

/* One draw: a material instance drawn in a pass context. Its pipeline
 * state is resolved from the material at setup; its create info comes from
 * the pass context's provider whenever it is requested. */
typedef struct {
  PscDemoPipelineState st;
  guint material;            /* the instance's index in the scene's catalog */
  int context;               /* CONTEXT_* */
  PscShaderVariantKey key;   /* the instance's variant key in that context */
  gboolean far;              /* async mode: the far-LOD set */
  float view_depth;          /* params[1], the draw's depth: for sorting */
  guint64 key_hash;          /* the pipeline key's hash: for sorting */
} PipelineDesc;

typedef struct {
  VkImage image;
  VkDeviceMemory memory;
  VkImageView view;
} Image;

typedef struct {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *map;
  VkDeviceSize size;
} Buffer;

typedef struct {
  VkFormat color_format;       /* VK_FORMAT_UNDEFINED: depth only */
  VkSampleCountFlagBits samples;
  gboolean resolve;
  gboolean load_depth;
  VkClearColorValue clear;
  VkRenderPass exec_pass;      /* legacy: ours, begun every frame */
  VkRenderPass compat_pass;    /* legacy: the cache's, only in pipeline create infos */
  VkFramebuffer framebuffer;   /* legacy */
} Pass;

/* One reused buffer for a graphics create info, rebuilt for every request. */
typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineRenderingCreateInfo rendering;
  VkFormat color_format;
  VkPipelineShaderStageCreateInfo stages[2];
  VkSpecializationInfo spec;
  VkSpecializationMapEntry spec_entries[2];
  gint32 spec_data[2];
  VkPipelineVertexInputStateCreateInfo vertex_input;
  VkVertexInputBindingDescription binding;
  VkVertexInputAttributeDescription attributes[3];
  VkPipelineInputAssemblyStateCreateInfo input_assembly;
  VkPipelineViewportStateCreateInfo viewport;
  VkPipelineRasterizationStateCreateInfo raster;
  VkPipelineMultisampleStateCreateInfo multisample;
  VkPipelineDepthStencilStateCreateInfo depth;
  VkPipelineColorBlendStateCreateInfo blend;
  VkPipelineColorBlendAttachmentState blend_attachment;
  VkPipelineDynamicStateCreateInfo dynamic;
  VkDynamicState dynamic_states[3];
} GraphicsCiBuffer;

typedef struct {
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry spec_entry;
  float saturation;
} ComputeCiBuffer;

/* A pass context's provider data. */
typedef struct {
  PscDemoScene *scene;
  int context;               /* CONTEXT_* */
} SceneContext;

struct _PscDemoScene {
  PscCache *cache;
  PscDevice *device;
  PscDemoVk vk;
  PscBackend backend;          /* resolved: DYNAMIC_RENDERING or LEGACY */
  gboolean prepared;
  PscDemoRecorder *recorder;
  PscDemoRecorder *own_recorder;

  guint width, height;
  guint frame;                 /* frames rendered so far */
  guint64 timeline;            /* the cache's frame number: frames and loading pumps */

  VkShaderModule shaders[N_SHADER_SLOTS];
  VkSampler samplers[N_SAMPLERS];
  VkDescriptorSetLayout set_layouts[N_SET_LAYOUTS];
  VkPipelineLayout pipeline_layouts[N_PIPELINE_LAYOUTS];

  Pass passes[N_PASSES];

  /* The materials the scene draws, its pass contexts (their providers
   * build every graphics create info the scene requests) and the draw
   * list the passes are sorted with. */
  PscDemoMaterials *materials;
  PscPassContext *contexts[N_CONTEXTS];
  SceneContext context_data[N_CONTEXTS];
  PscDrawList *draws;
  guint last_opaque_draws, last_transparent_draws;
  PscDemoDrawRecord draw_log[MAX_GRAPHICS];  /* the last frame's, in recording order */
  guint n_draw_log;

  PipelineDesc descs[MAX_GRAPHICS];
  guint n_descs;
  VkPipeline pipelines[MAX_GRAPHICS];
  guint32 prepared_ids[MAX_GRAPHICS];
  VkPipeline compute_pipeline;
  guint32 compute_prepared_id;

  GraphicsCiBuffer gci;
  ComputeCiBuffer cci;

  /* targets (recreated on resize) */
  Image a_color, a_depth, b_color, b_depth, c_color, c_depth, c_resolve;
  Buffer readback;

  /* static resources */
  Image texture;
  Buffer scene_ubo;
  Buffer pnu_vertices;
  Buffer pc_vertices;
  VkDescriptorPool descriptor_pool;
  VkDescriptorSet sets[N_SET_LAYOUTS];

  VkCommandPool command_pool;
  VkCommandBuffer cmd;
  VkFence fence;

  guint8 *pixels;
  guint pixels_width, pixels_height;

  /* asynchronous mode */
  gboolean async;
  gboolean reloaded;           /* PSC_DEMO_RELOAD_SHADER is the tinted variant */
  guint far_lod_interval;
  guint eviction_idle_frames;  /* applied after the first frame's requests */
  VkPipeline fallbacks[MAX_FALLBACKS];
  guint n_fallbacks;
  PscRequestResult results[MAX_GRAPHICS];
  gboolean requested_before[MAX_GRAPHICS]; /* since the last change of its shaders */
  PscDemoAsyncStats astats;
  guint64 loop_owner_wait_start;
  GArray *frame_log;           /* PscDemoAsyncFrame */
  gboolean reload_before_next_frame;
  PscMaterialPrewarm *prewarm;
  gboolean prewarmed[MAX_GRAPHICS];        /* requested by the material prewarm */
  gboolean drawn_before[MAX_GRAPHICS];     /* drawn (requested) in a frame */

  /* accounting */
  PscDemoCallTime hit, created, pipeline_hit, pipeline_created;
  guint64 creations_after_frame_1;
  guint64 first_frame_ns, later_frames_ns;
};

/* ------------------------------------------------------------------------ */

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) ts.tv_nsec;
}

static guint64
total_creations (PscCache *cache)
{
  g_autoptr(PscStats) st = psc_cache_get_stats (cache);

  return psc_stats_get_total (st, PSC_COUNTER_CREATIONS);
}

static gboolean
vk_failed (GError **error, VkResult r, const char *what)
{
  g_set_error (error, PSC_ERROR, PSC_ERROR_VULKAN, "%s failed (VkResult %d)", what, (int) r);
  return FALSE;
}

#define VK_TRY(expr) \
  G_STMT_START { \
    VkResult r_ = (expr); \
    if (r_ != VK_SUCCESS) \
      return vk_failed (error, r_, #expr); \
  } G_STMT_END

/* Wraps a cache call: times it and sorts it into hit or created by whether
 * the kind's creations counter moved. */
typedef struct {
  guint64 t0;
  guint64 creations;
  PscObjectKind kind;
} CallTimer;

static void
call_begin (PscDemoScene *s, CallTimer *t, PscObjectKind kind)
{
  t->kind = kind;
  t->creations = psc_cache_get_counter (s->cache, kind, PSC_COUNTER_CREATIONS);
  t->t0 = now_ns ();
}

static void
call_end (PscDemoScene *s, CallTimer *t, gboolean pipeline)
{
  guint64 dt = now_ns () - t->t0;
  gboolean created = psc_cache_get_counter (s->cache, t->kind, PSC_COUNTER_CREATIONS) != t->creations;
  PscDemoCallTime *bucket = created ? &s->created : &s->hit;

  bucket->calls++;
  bucket->ns += dt;
  if (pipeline)
    {
      bucket = created ? &s->pipeline_created : &s->pipeline_hit;
      bucket->calls++;
      bucket->ns += dt;
    }
}

/* ------------------------------------------------------------------------
 * Buffers and images
 */

static gboolean
bind_memory (PscDemoScene *s, VkMemoryRequirements *req, VkMemoryPropertyFlags flags,
             VkDeviceMemory *memory, GError **error)
{
  int type = psc_demo_vk_memory_type (&s->vk, req->memoryTypeBits, flags);
  VkMemoryAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
    .allocationSize = req->size,
  };

  if (type < 0 && (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0)
    type = psc_demo_vk_memory_type (&s->vk, req->memoryTypeBits,
                                    flags & ~VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_VULKAN,
                   "no memory type with property flags 0x%x", (unsigned) flags);
      return FALSE;
    }
  ai.memoryTypeIndex = (guint32) type;
  VK_TRY (s->vk.vkAllocateMemory (s->vk.device, &ai, s->vk.allocator, memory));
  return TRUE;
}

static gboolean
buffer_create (PscDemoScene *s, Buffer *b, VkDeviceSize size, VkBufferUsageFlags usage,
               gboolean host, GError **error)
{
  VkBufferCreateInfo bi = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
    .size = size,
    .usage = usage,
    .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkMemoryRequirements req;

  b->size = size;
  VK_TRY (s->vk.vkCreateBuffer (s->vk.device, &bi, s->vk.allocator, &b->buffer));
  s->vk.vkGetBufferMemoryRequirements (s->vk.device, b->buffer, &req);
  if (!bind_memory (s, &req,
                    host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                         : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                    &b->memory, error))
    return FALSE;
  VK_TRY (s->vk.vkBindBufferMemory (s->vk.device, b->buffer, b->memory, 0));
  if (host)
    VK_TRY (s->vk.vkMapMemory (s->vk.device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
  return TRUE;
}

static void
buffer_destroy (PscDemoScene *s, Buffer *b)
{
  if (b->map != NULL)
    s->vk.vkUnmapMemory (s->vk.device, b->memory);
  s->vk.vkDestroyBuffer (s->vk.device, b->buffer, s->vk.allocator);
  s->vk.vkFreeMemory (s->vk.device, b->memory, s->vk.allocator);
  memset (b, 0, sizeof *b);
}

static gboolean
image_create (PscDemoScene *s, Image *img, VkFormat format, VkSampleCountFlagBits samples,
              VkImageUsageFlags usage, guint width, guint height, GError **error)
{
  gboolean depth = format == DEPTH;
  VkImageCreateInfo ii = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
    .imageType = VK_IMAGE_TYPE_2D,
    .format = format,
    .extent = { width, height, 1 },
    .mipLevels = 1,
    .arrayLayers = 1,
    .samples = samples,
    .tiling = VK_IMAGE_TILING_OPTIMAL,
    .usage = usage,
    .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
  };
  VkImageViewCreateInfo vi = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
    .viewType = VK_IMAGE_VIEW_TYPE_2D,
    .format = format,
    .subresourceRange = {
      .aspectMask = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT,
      .levelCount = 1,
      .layerCount = 1,
    },
  };
  VkMemoryRequirements req;

  VK_TRY (s->vk.vkCreateImage (s->vk.device, &ii, s->vk.allocator, &img->image));
  s->vk.vkGetImageMemoryRequirements (s->vk.device, img->image, &req);
  if (!bind_memory (s, &req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img->memory, error))
    return FALSE;
  VK_TRY (s->vk.vkBindImageMemory (s->vk.device, img->image, img->memory, 0));
  vi.image = img->image;
  VK_TRY (s->vk.vkCreateImageView (s->vk.device, &vi, s->vk.allocator, &img->view));
  return TRUE;
}

static void
image_destroy (PscDemoScene *s, Image *img)
{
  s->vk.vkDestroyImageView (s->vk.device, img->view, s->vk.allocator);
  s->vk.vkDestroyImage (s->vk.device, img->image, s->vk.allocator);
  s->vk.vkFreeMemory (s->vk.device, img->memory, s->vk.allocator);
  memset (img, 0, sizeof *img);
}

static VkImageMemoryBarrier
image_barrier (VkImage image, gboolean depth, VkAccessFlags src, VkAccessFlags dst,
               VkImageLayout from, VkImageLayout to)
{
  VkImageMemoryBarrier b = {
    .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
    .srcAccessMask = src,
    .dstAccessMask = dst,
    .oldLayout = from,
    .newLayout = to,
    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .image = image,
    .subresourceRange = {
      .aspectMask = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT,
      .levelCount = 1,
      .layerCount = 1,
    },
  };
  return b;
}

/* ------------------------------------------------------------------------
 * Command submission
 */

static gboolean
begin_commands (PscDemoScene *s, GError **error)
{
  VkCommandBufferBeginInfo bi = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
  };

  VK_TRY (s->vk.vkResetCommandBuffer (s->cmd, 0));
  VK_TRY (s->vk.vkBeginCommandBuffer (s->cmd, &bi));
  return TRUE;
}

static gboolean
submit_and_wait (PscDemoScene *s, GError **error)
{
  VkSubmitInfo si = {
    .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
    .commandBufferCount = 1,
    .pCommandBuffers = &s->cmd,
  };

  VK_TRY (s->vk.vkEndCommandBuffer (s->cmd));
  VK_TRY (s->vk.vkQueueSubmit (s->vk.queue, 1, &si, s->fence));
  VK_TRY (s->vk.vkWaitForFences (s->vk.device, 1, &s->fence, VK_TRUE, UINT64_MAX));
  VK_TRY (s->vk.vkResetFences (s->vk.device, 1, &s->fence));
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Cache-owned objects: shaders, samplers, layouts
 */

static gboolean
register_shaders (PscDemoScene *s, GError **error)
{
  for (int i = 0; i < PSC_DEMO_SHADER_COUNT; i++)
    {
      gsize size;
      const guint32 *code = psc_demo_shader_spirv ((PscDemoShader) i, &size);
      CallTimer t;

      if (s->reloaded && i == PSC_DEMO_RELOAD_SHADER)
        code = psc_demo_extra_shader_spirv (PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED, &size);

      call_begin (s, &t, PSC_OBJECT_KIND_SHADER_MODULE);
      s->shaders[i] = psc_cache_register_shader (s->cache, code, size, error);
      call_end (s, &t, FALSE);
      if (s->shaders[i] == VK_NULL_HANDLE)
        {
          g_prefix_error (error, "registering shader %s: ", psc_demo_shader_name ((PscDemoShader) i));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
get_samplers (PscDemoScene *s, GError **error)
{
  for (int i = 0; i < N_SAMPLERS; i++)
    {
      VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = i == SAMPLER_LINEAR_CLAMP ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .minFilter = i == SAMPLER_LINEAR_CLAMP ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = i == SAMPLER_TEXTURE ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                             : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = i == SAMPLER_TEXTURE ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                             : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = 0.25f,
        .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
      };
      CallTimer t;

      call_begin (s, &t, PSC_OBJECT_KIND_SAMPLER);
      s->samplers[i] = psc_cache_get_sampler (s->cache, &si, error);
      call_end (s, &t, FALSE);
      if (s->samplers[i] == VK_NULL_HANDLE)
        return FALSE;
    }
  return TRUE;
}

static gboolean
get_layouts (PscDemoScene *s, GError **error)
{
  VkSampler composite_samplers[2] = {
    s->samplers[SAMPLER_LINEAR_CLAMP], s->samplers[SAMPLER_NEAREST_CLAMP],
  };
  VkDescriptorSetLayoutBinding scene_bindings[2] = {
    { .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT },
    { .binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
      .pImmutableSamplers = &s->samplers[SAMPLER_TEXTURE] },
  };
  VkDescriptorSetLayoutBinding composite_binding = {
    .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    .descriptorCount = 2, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    .pImmutableSamplers = composite_samplers,
  };
  VkDescriptorSetLayoutBinding compute_binding = {
    .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
  };
  const struct { guint32 n; const VkDescriptorSetLayoutBinding *b; } sets[N_SET_LAYOUTS] = {
    [SET_SCENE] = { 2, scene_bindings },
    [SET_COMPOSITE] = { 1, &composite_binding },
    [SET_COMPUTE] = { 1, &compute_binding },
  };
  VkPushConstantRange push_mesh = {
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, PUSH_SIZE,
  };
  VkPushConstantRange push_depth = { VK_SHADER_STAGE_VERTEX_BIT, 0, PUSH_SIZE };
  VkPushConstantRange push_compute = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 };
  VkDescriptorSetLayout l_mesh[1], l_composite[2], l_compute[1];
  struct { guint32 n; const VkDescriptorSetLayout *l; const VkPushConstantRange *push; } layouts[N_PIPELINE_LAYOUTS];

  for (int i = 0; i < N_SET_LAYOUTS; i++)
    {
      VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = sets[i].n,
        .pBindings = sets[i].b,
      };
      CallTimer t;

      call_begin (s, &t, PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT);
      s->set_layouts[i] = psc_cache_get_descriptor_set_layout (s->cache, &ci, error);
      call_end (s, &t, FALSE);
      if (s->set_layouts[i] == VK_NULL_HANDLE)
        return FALSE;
    }

  l_mesh[0] = s->set_layouts[SET_SCENE];
  l_composite[0] = s->set_layouts[SET_SCENE];
  l_composite[1] = s->set_layouts[SET_COMPOSITE];
  l_compute[0] = s->set_layouts[SET_COMPUTE];
  layouts[LAYOUT_MESH].n = 1;
  layouts[LAYOUT_MESH].l = l_mesh;
  layouts[LAYOUT_MESH].push = &push_mesh;
  layouts[LAYOUT_DEPTH].n = 1;
  layouts[LAYOUT_DEPTH].l = l_mesh;
  layouts[LAYOUT_DEPTH].push = &push_depth;
  layouts[LAYOUT_COMPOSITE].n = 2;
  layouts[LAYOUT_COMPOSITE].l = l_composite;
  layouts[LAYOUT_COMPOSITE].push = &push_mesh;
  layouts[LAYOUT_COMPUTE].n = 1;
  layouts[LAYOUT_COMPUTE].l = l_compute;
  layouts[LAYOUT_COMPUTE].push = &push_compute;

  for (int i = 0; i < N_PIPELINE_LAYOUTS; i++)
    {
      VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = layouts[i].n,
        .pSetLayouts = layouts[i].l,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = layouts[i].push,
      };
      CallTimer t;

      call_begin (s, &t, PSC_OBJECT_KIND_PIPELINE_LAYOUT);
      s->pipeline_layouts[i] = psc_cache_get_pipeline_layout (s->cache, &ci, error);
      call_end (s, &t, FALSE);
      if (s->pipeline_layouts[i] == VK_NULL_HANDLE)
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Passes
 */

static void
passes_init (PscDemoScene *s)
{
  Pass *p;

  p = &s->passes[PASS_B];
  p->color_format = COLOR_HDR;
  p->samples = VK_SAMPLE_COUNT_1_BIT;
  p->clear = (VkClearColorValue) { .float32 = { 0.02f, 0.03f, 0.08f, 1.0f } };

  p = &s->passes[PASS_C];
  p->color_format = COLOR_LDR;
  p->samples = VK_SAMPLE_COUNT_4_BIT;
  p->resolve = TRUE;
  p->clear = (VkClearColorValue) { .float32 = { 0.10f, 0.04f, 0.06f, 1.0f } };

  p = &s->passes[PASS_PRE];
  p->color_format = VK_FORMAT_UNDEFINED;
  p->samples = VK_SAMPLE_COUNT_1_BIT;

  p = &s->passes[PASS_A];
  p->color_format = COLOR_LDR;
  p->samples = VK_SAMPLE_COUNT_1_BIT;
  p->load_depth = TRUE;
  p->clear = (VkClearColorValue) { .float32 = { 0.05f, 0.06f, 0.07f, 1.0f } };
}

/* The execution render pass of a pass (legacy backend). The same create info
 * asks the cache for the compatibility pass. Layouts: the scene transitions
 * attachments with explicit barriers before each pass, so every attachment
 * starts and ends in its attachment-optimal layout. */
typedef struct {
  VkRenderPassCreateInfo ci;
  VkAttachmentDescription attachments[3];
  VkAttachmentReference color_ref, depth_ref, resolve_ref;
  VkSubpassDescription subpass;
} RenderPassInfo;

static void
render_pass_info (const Pass *p, RenderPassInfo *rp)
{
  guint32 n = 0;

  memset (rp, 0, sizeof *rp);
  if (p->color_format != VK_FORMAT_UNDEFINED)
    {
      rp->attachments[n] = (VkAttachmentDescription) {
        .format = p->color_format,
        .samples = p->samples,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = p->resolve ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
      };
      rp->color_ref = (VkAttachmentReference) { n, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
      rp->subpass.colorAttachmentCount = 1;
      rp->subpass.pColorAttachments = &rp->color_ref;
      n++;
    }
  rp->attachments[n] = (VkAttachmentDescription) {
    .format = DEPTH,
    .samples = p->samples,
    .loadOp = p->load_depth ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
    .storeOp = p->color_format == VK_FORMAT_UNDEFINED ? VK_ATTACHMENT_STORE_OP_STORE
                                                      : VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .initialLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
    .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
  };
  rp->depth_ref = (VkAttachmentReference) { n, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
  rp->subpass.pDepthStencilAttachment = &rp->depth_ref;
  n++;
  if (p->resolve)
    {
      rp->attachments[n] = (VkAttachmentDescription) {
        .format = p->color_format,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
      };
      rp->resolve_ref = (VkAttachmentReference) { n, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
      rp->subpass.pResolveAttachments = &rp->resolve_ref;
      n++;
    }
  rp->subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  rp->ci = (VkRenderPassCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    .attachmentCount = n,
    .pAttachments = rp->attachments,
    .subpassCount = 1,
    .pSubpasses = &rp->subpass,
  };
}

/* Legacy: our execution passes, and the cache's compatibility passes for
 * them. Requested again after a resize, the compatibility passes must hit. */
static gboolean
get_compat_passes (PscDemoScene *s, GError **error)
{
  for (int i = 0; i < N_PASSES; i++)
    {
      RenderPassInfo rp;
      CallTimer t;
      VkRenderPass compat;

      render_pass_info (&s->passes[i], &rp);
      call_begin (s, &t, PSC_OBJECT_KIND_RENDER_PASS);
      compat = psc_cache_get_compat_render_pass (s->cache, &rp.ci, error);
      call_end (s, &t, FALSE);
      if (compat == VK_NULL_HANDLE)
        return FALSE;
      s->passes[i].compat_pass = compat;
    }
  return TRUE;
}

static gboolean
create_exec_passes (PscDemoScene *s, GError **error)
{
  for (int i = 0; i < N_PASSES; i++)
    {
      RenderPassInfo rp;

      render_pass_info (&s->passes[i], &rp);
      VK_TRY (s->vk.vkCreateRenderPass (s->vk.device, &rp.ci, s->vk.allocator,
                                        &s->passes[i].exec_pass));
    }
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Targets (recreated on resize)
 */

static void
destroy_targets (PscDemoScene *s)
{
  for (int i = 0; i < N_PASSES; i++)
    {
      s->vk.vkDestroyFramebuffer (s->vk.device, s->passes[i].framebuffer, s->vk.allocator);
      s->passes[i].framebuffer = VK_NULL_HANDLE;
    }
  image_destroy (s, &s->a_color);
  image_destroy (s, &s->a_depth);
  image_destroy (s, &s->b_color);
  image_destroy (s, &s->b_depth);
  image_destroy (s, &s->c_color);
  image_destroy (s, &s->c_depth);
  image_destroy (s, &s->c_resolve);
  buffer_destroy (s, &s->readback);
}

static void
update_composite_set (PscDemoScene *s)
{
  VkDescriptorImageInfo images[2] = {
    { VK_NULL_HANDLE, s->b_color.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL },
    { VK_NULL_HANDLE, s->c_resolve.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL },
  };
  VkWriteDescriptorSet w = {
    .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
    .dstSet = s->sets[SET_COMPOSITE],
    .dstBinding = 0,
    .descriptorCount = 2,
    .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    .pImageInfo = images,
  };

  s->vk.vkUpdateDescriptorSets (s->vk.device, 1, &w, 0, NULL);
}

static gboolean
create_framebuffer (PscDemoScene *s, int pass, guint n, const VkImageView *views, GError **error)
{
  VkFramebufferCreateInfo fi = {
    .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
    .renderPass = s->passes[pass].exec_pass,
    .attachmentCount = n,
    .pAttachments = views,
    .width = s->width,
    .height = s->height,
    .layers = 1,
  };

  VK_TRY (s->vk.vkCreateFramebuffer (s->vk.device, &fi, s->vk.allocator, &s->passes[pass].framebuffer));
  return TRUE;
}

static gboolean
create_targets (PscDemoScene *s, GError **error)
{
  const VkImageUsageFlags color = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  const VkImageUsageFlags depth = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  guint w = s->width, h = s->height;

  if (!image_create (s, &s->a_color, COLOR_LDR, VK_SAMPLE_COUNT_1_BIT,
                     color | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, w, h, error) ||
      !image_create (s, &s->a_depth, DEPTH, VK_SAMPLE_COUNT_1_BIT, depth, w, h, error) ||
      !image_create (s, &s->b_color, COLOR_HDR, VK_SAMPLE_COUNT_1_BIT,
                     color | VK_IMAGE_USAGE_SAMPLED_BIT, w, h, error) ||
      !image_create (s, &s->b_depth, DEPTH, VK_SAMPLE_COUNT_1_BIT, depth, w, h, error) ||
      !image_create (s, &s->c_color, COLOR_LDR, VK_SAMPLE_COUNT_4_BIT, color, w, h, error) ||
      !image_create (s, &s->c_depth, DEPTH, VK_SAMPLE_COUNT_4_BIT, depth, w, h, error) ||
      !image_create (s, &s->c_resolve, COLOR_LDR, VK_SAMPLE_COUNT_1_BIT,
                     color | VK_IMAGE_USAGE_SAMPLED_BIT, w, h, error) ||
      !buffer_create (s, &s->readback, (VkDeviceSize) w * h * 4,
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT, TRUE, error))
    return FALSE;

  if (s->backend == PSC_BACKEND_LEGACY)
    {
      VkImageView b[2] = { s->b_color.view, s->b_depth.view };
      VkImageView c[3] = { s->c_color.view, s->c_depth.view, s->c_resolve.view };
      VkImageView pre[1] = { s->a_depth.view };
      VkImageView a[2] = { s->a_color.view, s->a_depth.view };

      if (!create_framebuffer (s, PASS_B, 2, b, error) ||
          !create_framebuffer (s, PASS_C, 3, c, error) ||
          !create_framebuffer (s, PASS_PRE, 1, pre, error) ||
          !create_framebuffer (s, PASS_A, 2, a, error))
        return FALSE;
    }

  update_composite_set (s);
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Static resources: meshes, texture, uniform buffer, descriptor sets
 */

static gboolean
create_meshes (PscDemoScene *s, GError **error)
{
  float *v;

  if (!buffer_create (s, &s->pnu_vertices, DISC_SEGMENTS * 3 * PNU_STRIDE,
                      VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, TRUE, error) ||
      !buffer_create (s, &s->pc_vertices, HEX_SEGMENTS * 3 * PC_STRIDE,
                      VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, TRUE, error))
    return FALSE;

  v = s->pnu_vertices.map;
  for (int i = 0; i < DISC_SEGMENTS; i++)
    {
      float a[2] = { 2.0f * (float) G_PI * i / DISC_SEGMENTS,
                     2.0f * (float) G_PI * (i + 1) / DISC_SEGMENTS };
      float pts[3][2] = { { 0, 0 }, { cosf (a[0]), sinf (a[0]) }, { cosf (a[1]), sinf (a[1]) } };

      for (int k = 0; k < 3; k++)
        {
          float nx = pts[k][0] * 0.8f, ny = pts[k][1] * 0.8f, nz = 0.6f;
          *v++ = pts[k][0]; *v++ = pts[k][1]; *v++ = 0.0f;
          *v++ = nx; *v++ = ny; *v++ = nz;
          *v++ = pts[k][0] * 0.5f + 0.5f; *v++ = pts[k][1] * 0.5f + 0.5f;
        }
    }

  v = s->pc_vertices.map;
  for (int i = 0; i < HEX_SEGMENTS; i++)
    {
      float a[2] = { 2.0f * (float) G_PI * i / HEX_SEGMENTS,
                     2.0f * (float) G_PI * (i + 1) / HEX_SEGMENTS };
      float pts[3][2] = { { 0, 0 }, { cosf (a[0]), sinf (a[0]) }, { cosf (a[1]), sinf (a[1]) } };
      float col[3][4] = {
        { 1.0f, 1.0f, 1.0f, 1.0f },
        { (i % 3) == 0, (i % 3) == 1, (i % 3) == 2, 1.0f },
        { ((i + 1) % 3) == 0, ((i + 1) % 3) == 1, ((i + 1) % 3) == 2, 1.0f },
      };

      for (int k = 0; k < 3; k++)
        {
          *v++ = pts[k][0]; *v++ = pts[k][1]; *v++ = 0.0f;
          for (int c = 0; c < 4; c++)
            *v++ = col[k][c];
        }
    }
  return TRUE;
}

static gboolean
create_texture (PscDemoScene *s, GError **error)
{
  Buffer staging = { 0 };
  guint8 *p;
  VkBufferImageCopy region = {
    .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
    .imageExtent = { TEXTURE_SIZE, TEXTURE_SIZE, 1 },
  };
  VkImageMemoryBarrier b;
  gboolean ok = FALSE;

  if (!image_create (s, &s->texture, COLOR_LDR, VK_SAMPLE_COUNT_1_BIT,
                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                     TEXTURE_SIZE, TEXTURE_SIZE, error))
    return FALSE;
  if (!buffer_create (s, &staging, TEXTURE_SIZE * TEXTURE_SIZE * 4,
                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT, TRUE, error))
    goto out;

  /* A checkerboard with a diagonal stripe, so tiling and orientation show. */
  p = staging.map;
  for (int y = 0; y < TEXTURE_SIZE; y++)
    for (int x = 0; x < TEXTURE_SIZE; x++)
      {
        gboolean check = ((x / 8) + (y / 8)) % 2 == 0;
        gboolean stripe = ABS (x - y) < 3;
        *p++ = stripe ? 255 : check ? 230 : 60;
        *p++ = stripe ? 200 : check ? 230 : 60;
        *p++ = stripe ? 40 : check ? 230 : 60;
        *p++ = 255;
      }

  if (!begin_commands (s, error))
    goto out;
  b = image_barrier (s->texture.image, FALSE, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  s->recorder->pipeline_barrier (s->recorder, s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, 0, NULL, 0, NULL, 1, &b);
  s->recorder->copy_buffer_to_image (s->recorder, s->cmd, staging.buffer, s->texture.image,
                                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  b = image_barrier (s->texture.image, FALSE, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_ACCESS_SHADER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  s->recorder->pipeline_barrier (s->recorder, s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, NULL, 0, NULL, 1, &b);
  ok = submit_and_wait (s, error);

out:
  buffer_destroy (s, &staging);
  return ok;
}

static gboolean
create_descriptors (PscDemoScene *s, GError **error)
{
  VkDescriptorPoolSize sizes[] = {
    { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
    { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3 },
  };
  VkDescriptorPoolCreateInfo pi = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
    .maxSets = N_SET_LAYOUTS,
    .poolSizeCount = G_N_ELEMENTS (sizes),
    .pPoolSizes = sizes,
  };
  VkDescriptorSetAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
    .descriptorSetCount = N_SET_LAYOUTS,
    .pSetLayouts = s->set_layouts,
  };
  VkDescriptorBufferInfo ubo = { s->scene_ubo.buffer, 0, SCENE_UBO_SIZE };
  VkDescriptorImageInfo tex = { VK_NULL_HANDLE, s->texture.view,
                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
  VkWriteDescriptorSet w[3] = {
    { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
      .pBufferInfo = &ubo },
    { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 1,
      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
      .pImageInfo = &tex },
    { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &ubo },
  };

  VK_TRY (s->vk.vkCreateDescriptorPool (s->vk.device, &pi, s->vk.allocator, &s->descriptor_pool));
  ai.descriptorPool = s->descriptor_pool;
  VK_TRY (s->vk.vkAllocateDescriptorSets (s->vk.device, &ai, s->sets));
  w[0].dstSet = s->sets[SET_SCENE];
  w[1].dstSet = s->sets[SET_SCENE];
  w[2].dstSet = s->sets[SET_COMPUTE];
  s->vk.vkUpdateDescriptorSets (s->vk.device, G_N_ELEMENTS (w), w, 0, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------------
 * The pipeline set
 */

/* A draw of a new instance of @shape's template with @flags and the
 * parameter block (@rect, @params) in pass context @context. */
static PipelineDesc *
add_desc (PscDemoScene *s, int context, const PscDemoMaterialShape *shape,
          PscMaterialFlags flags, const float rect[4], const float params[4], GError **error)
{
  PscMaterialTemplate *tmpl;
  PscMaterialInstance *instance;
  PipelineDesc *d;
  int material;

  g_assert (s->n_descs < MAX_GRAPHICS);
  tmpl = psc_demo_materials_template (s->materials, shape, error);
  if (tmpl == NULL)
    return NULL;
  material = psc_demo_materials_add_instance (s->materials, tmpl, flags, rect, params, error);
  if (material < 0)
    return NULL;
  instance = psc_demo_materials_get_instance (s->materials, (guint) material);

  d = &s->descs[s->n_descs++];
  memset (d, 0, sizeof *d);
  d->material = (guint) material;
  d->context = context;
  d->view_depth = params[1];
  psc_material_instance_resolve_variant_key (instance, psc_demo_pass_desc (context)->kind,
                                             &d->key);
  psc_demo_material_resolve (shape, &d->key, psc_demo_pass_desc (context), &d->st);
  return d;
}

/* A grid of tiles, each with its own pipeline: a shader pair from @pairs,
 * a material variant (0-3) and a light count, both specialization
 * constants of the template. Every (pair, material, lights) triple is
 * distinct; every seventh tile is double-sided. */
static gboolean
add_grid (PscDemoScene *s, int context, guint cols, guint rows, float y0, float y1,
          const PscDemoShader (*pairs)[2], guint n_pairs, guint n_lights, GError **error)
{
  guint n = cols * rows;
  float cw = 2.0f / cols, ch = (y1 - y0) / rows;

  g_assert (n == n_pairs * 4 * n_lights);
  for (guint i = 0; i < n; i++)
    {
      guint pair = i % n_pairs;
      guint col = i % cols, row = i / cols;
      PscDemoMaterialShape shape = {
        .vs = pairs[pair][0],
        .fs = pairs[pair][1],
        .n_spec = 2,
        .spec = { (gint32) ((i / n_pairs) % 4), (gint32) (1 + (i / (n_pairs * 4)) % n_lights) },
      };
      float rect[4] = {
        -1.0f + cw * (col + 0.5f), y0 + ch * (row + 0.5f), cw * 0.42f, ch * 0.42f,
      };
      float params[4] = { 0.13f * (float) i, 0.2f + 0.15f * (float) (i % 5), (float) (i % 8), 0 };

      if (add_desc (s, context, &shape,
                    i % 7 == 3 ? PSC_MATERIAL_FLAGS_DOUBLE_SIDED : PSC_MATERIAL_FLAGS_NONE,
                    rect, params, error) == NULL)
        return FALSE;
    }
  return TRUE;
}

static gboolean
build_pipeline_set (PscDemoScene *s, GError **error)
{
  static const PscDemoShader pairs_a[4][2] = {
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_LIT },
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_TEXTURED },
    { PSC_DEMO_SHADER_VS_MESH_PC, PSC_DEMO_SHADER_FS_COLOR },
    { PSC_DEMO_SHADER_VS_MESH_PC, PSC_DEMO_SHADER_FS_COLOR_ALPHA },
  };
  static const PscDemoShader pairs_b[3][2] = {
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_LIT_HDR },
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_TEXTURED },
    { PSC_DEMO_SHADER_VS_MESH_PC, PSC_DEMO_SHADER_FS_COLOR_ALPHA },
  };
  static const PscDemoShader pairs_c[3][2] = {
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_LIT },
    { PSC_DEMO_SHADER_VS_MESH_PC, PSC_DEMO_SHADER_FS_COLOR },
    { PSC_DEMO_SHADER_VS_MESH_PNU, PSC_DEMO_SHADER_FS_TEXTURED },
  };
  guint first;

  s->n_descs = 0;
  if (!add_grid (s, CONTEXT_B, 6, 4, -1.0f, 1.0f, pairs_b, 3, 2, error))
    return FALSE;
  first = s->n_descs;
  if (!add_grid (s, CONTEXT_C, 6, 4, -1.0f, 1.0f, pairs_c, 3, 2, error))
    return FALSE;
  /* The far-LOD set (asynchronous mode only): C's top row... */
  for (guint i = 0; i < 6; i++)
    s->descs[first + i].far = TRUE;

  /* Depth-only occluders over target A's grid: two vertex layouts (two
   * depth-only templates) x double-sided x the biased prepass context. */
  for (guint i = 0; i < 8; i++)
    {
      PscDemoMaterialShape shape = {
        .vs = (i & 1) ? PSC_DEMO_SHADER_VS_MESH_PC : PSC_DEMO_SHADER_VS_MESH_PNU,
        .fs = PSC_DEMO_SHADER_COUNT,
      };
      float rect[4] = { -0.85f + 0.24f * (float) i, (i % 2) ? -0.55f : -0.05f, 0.09f, 0.12f };
      float params[4] = { 0.3f * (float) i, 0.1f, 0, 0 };

      if (add_desc (s, (i & 4) ? CONTEXT_PRE_BIASED : CONTEXT_PRE, &shape,
                    (i & 2) ? PSC_MATERIAL_FLAGS_NONE : PSC_MATERIAL_FLAGS_DOUBLE_SIDED,
                    rect, params, error) == NULL)
        return FALSE;
    }

  first = s->n_descs;
  if (!add_grid (s, CONTEXT_A, 8, 6, -1.0f, 0.3f, pairs_a, 4, 3, error))
    return FALSE;
  /* ...and A's. */
  for (guint i = 0; i < 8; i++)
    s->descs[first + i].far = TRUE;

  /* Composite panels: B tone mapped (left), C resolved (right). */
  for (guint i = 0; i < 2; i++)
    {
      PscDemoMaterialShape shape = {
        .vs = PSC_DEMO_SHADER_VS_PANEL,
        .fs = PSC_DEMO_SHADER_FS_COMPOSITE,
        .n_spec = 1,
        .spec = { (gint32) i },
        .composite = TRUE,
      };
      float rect[4] = { i == 0 ? -0.5f : 0.5f, 0.66f, 0.48f, 0.32f };
      float params[4] = { 0 };

      if (add_desc (s, CONTEXT_A, &shape, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, rect, params,
                    error) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Rebuilds the create info for @st in the scene's one reused buffer. */
static const VkGraphicsPipelineCreateInfo *
build_graphics_ci (PscDemoScene *s, const PscDemoPipelineState *st)
{
  GraphicsCiBuffer *g = &s->gci;
  const Pass *p = &s->passes[st->pass];
  guint n_stages = 0;

  memset (g, 0, sizeof *g);

  g->stages[n_stages++] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT,
    .module = s->shaders[st->vs],
    .pName = "main",
  };
  if (st->fs != PSC_DEMO_SHADER_COUNT)
    {
      g->stages[n_stages] = (VkPipelineShaderStageCreateInfo) {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
        .module = s->shaders[st->fs],
        .pName = "main",
      };
      if (st->n_spec > 0)
        {
          for (guint i = 0; i < st->n_spec; i++)
            {
              g->spec_entries[i] = (VkSpecializationMapEntry) { i, i * 4, 4 };
              g->spec_data[i] = st->spec[i];
            }
          g->spec = (VkSpecializationInfo) {
            .mapEntryCount = st->n_spec,
            .pMapEntries = g->spec_entries,
            .dataSize = st->n_spec * 4,
            .pData = g->spec_data,
          };
          g->stages[n_stages].pSpecializationInfo = &g->spec;
        }
      n_stages++;
    }

  g->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  if (st->vertex_layout == VERTEX_PNU)
    {
      g->binding = (VkVertexInputBindingDescription) { 0, PNU_STRIDE, VK_VERTEX_INPUT_RATE_VERTEX };
      g->attributes[0] = (VkVertexInputAttributeDescription) { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
      g->attributes[1] = (VkVertexInputAttributeDescription) { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12 };
      g->attributes[2] = (VkVertexInputAttributeDescription) { 2, 0, VK_FORMAT_R32G32_SFLOAT, 24 };
      g->vertex_input.vertexBindingDescriptionCount = 1;
      g->vertex_input.pVertexBindingDescriptions = &g->binding;
      g->vertex_input.vertexAttributeDescriptionCount = 3;
      g->vertex_input.pVertexAttributeDescriptions = g->attributes;
    }
  else if (st->vertex_layout == VERTEX_PC)
    {
      g->binding = (VkVertexInputBindingDescription) { 0, PC_STRIDE, VK_VERTEX_INPUT_RATE_VERTEX };
      g->attributes[0] = (VkVertexInputAttributeDescription) { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
      g->attributes[1] = (VkVertexInputAttributeDescription) { 1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12 };
      g->vertex_input.vertexBindingDescriptionCount = 1;
      g->vertex_input.pVertexBindingDescriptions = &g->binding;
      g->vertex_input.vertexAttributeDescriptionCount = 2;
      g->vertex_input.pVertexAttributeDescriptions = g->attributes;
    }

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
    .cullMode = st->cull,
    .frontFace = VK_FRONT_FACE_CLOCKWISE,
    .depthBiasEnable = st->dynamic_depth_bias,
    .lineWidth = 1.0f,
  };
  g->multisample = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = p->samples,
  };
  g->depth = (VkPipelineDepthStencilStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = st->depth_test,
    .depthWriteEnable = st->depth_write,
    .depthCompareOp = st->depth_test ? VK_COMPARE_OP_LESS : VK_COMPARE_OP_ALWAYS,
    .maxDepthBounds = 1.0f,
  };
  g->blend_attachment = (VkPipelineColorBlendAttachmentState) {
    .blendEnable = st->blend,
    .srcColorBlendFactor = st->blend ? VK_BLEND_FACTOR_SRC_ALPHA : VK_BLEND_FACTOR_ONE,
    .dstColorBlendFactor = st->blend ? VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA : VK_BLEND_FACTOR_ZERO,
    .colorBlendOp = VK_BLEND_OP_ADD,
    .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
    .dstAlphaBlendFactor = st->blend ? VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA : VK_BLEND_FACTOR_ZERO,
    .alphaBlendOp = VK_BLEND_OP_ADD,
    .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                      VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
  };
  g->blend = (VkPipelineColorBlendStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
    .attachmentCount = p->color_format != VK_FORMAT_UNDEFINED ? 1 : 0,
    .pAttachments = p->color_format != VK_FORMAT_UNDEFINED ? &g->blend_attachment : NULL,
  };
  g->dynamic_states[0] = VK_DYNAMIC_STATE_VIEWPORT;
  g->dynamic_states[1] = VK_DYNAMIC_STATE_SCISSOR;
  g->dynamic_states[2] = VK_DYNAMIC_STATE_DEPTH_BIAS;
  g->dynamic = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = st->dynamic_depth_bias ? 3 : 2,
    .pDynamicStates = g->dynamic_states,
  };

  g->ci = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .stageCount = n_stages,
    .pStages = g->stages,
    .pVertexInputState = &g->vertex_input,
    .pInputAssemblyState = &g->input_assembly,
    .pViewportState = &g->viewport,
    .pRasterizationState = &g->raster,
    .pMultisampleState = &g->multisample,
    .pDepthStencilState = &g->depth,
    .pColorBlendState = &g->blend,
    .pDynamicState = &g->dynamic,
    .layout = s->pipeline_layouts[st->pipeline_layout],
    .basePipelineIndex = -1,
  };

  if (s->backend == PSC_BACKEND_DYNAMIC_RENDERING)
    {
      g->color_format = p->color_format;
      g->rendering = (VkPipelineRenderingCreateInfo) {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = p->color_format != VK_FORMAT_UNDEFINED ? 1 : 0,
        .pColorAttachmentFormats = p->color_format != VK_FORMAT_UNDEFINED ? &g->color_format : NULL,
        .depthAttachmentFormat = DEPTH,
        .stencilAttachmentFormat = VK_FORMAT_UNDEFINED,
      };
      g->ci.pNext = &g->rendering;
    }
  else
    {
      g->ci.renderPass = p->compat_pass;
      g->ci.subpass = 0;
    }
  return &g->ci;
}

/* The create info of (@tmpl, @key) in pass context @context, in the
 * scene's reused buffer; NULL for a template of another catalog. */
static const VkGraphicsPipelineCreateInfo *
material_create_info (PscDemoScene *s, int context, const PscMaterialTemplate *tmpl,
                      const PscShaderVariantKey *key)
{
  const PscDemoMaterialShape *shape = psc_demo_materials_shape (s->materials, tmpl);
  PscDemoPipelineState st;

  if (shape == NULL)
    return NULL;
  psc_demo_material_resolve (shape, key, psc_demo_pass_desc (context), &st);
  return build_graphics_ci (s, &st);
}

/* The pass contexts' recipe provider (PscRecipeProviderFunc). The create
 * info points into the scene's reused buffer: valid until the next one is
 * built, which is after the cache has canonicalized it. */
static gboolean
material_provider (gpointer context, const PscMaterialTemplate *tmpl,
                   const PscShaderVariantKey *key, VkGraphicsPipelineCreateInfo *out,
                   guint32 *out_generation)
{
  SceneContext *c = context;
  const VkGraphicsPipelineCreateInfo *ci = material_create_info (c->scene, c->context, tmpl, key);

  if (ci == NULL)
    return FALSE;
  *out = *ci;
  /* The scene replaces one shader at most once. */
  *out_generation = c->scene->reloaded ? 1 : 0;
  return TRUE;
}

/* A draw's create info, the way the prewarm gets it: its pass context's
 * provider with its material's template and variant key. */
static const VkGraphicsPipelineCreateInfo *
draw_create_info (PscDemoScene *s, const PipelineDesc *d)
{
  PscMaterialInstance *instance = psc_demo_materials_get_instance (s->materials, d->material);
  VkGraphicsPipelineCreateInfo ci;
  guint32 generation;

  if (!material_provider (&s->context_data[d->context], psc_material_instance_get_template (instance),
                          &d->key, &ci, &generation))
    g_assert_not_reached ();
  return &s->gci.ci;
}

static gboolean
create_pass_contexts (PscDemoScene *s, GError **error)
{
  s->materials = psc_demo_materials_new (s->device);
  for (int c = 0; c < N_CONTEXTS; c++)
    {
      const PscDemoPassDesc *pass = psc_demo_pass_desc (c);

      s->context_data[c].scene = s;
      s->context_data[c].context = c;
      s->contexts[c] = psc_pass_context_new (pass->kind, pass->name, material_provider,
                                             &s->context_data[c], NULL);
    }
  s->draws = psc_draw_list_new (MAX_GRAPHICS);
  return build_pipeline_set (s, error);
}

/* The sort keys' pipeline key hashes (again after a hot reload: the
 * reloaded shader's pipelines have new keys). */
static gboolean
refresh_key_hashes (PscDemoScene *s, GError **error)
{
  for (guint i = 0; i < s->n_descs; i++)
    if (!psc_cache_get_graphics_key_hash (s->cache, draw_create_info (s, &s->descs[i]),
                                          &s->descs[i].key_hash, error))
      {
        g_prefix_error (error, "graphics pipeline %u: ", i);
        return FALSE;
      }
  return TRUE;
}

static const VkComputePipelineCreateInfo *
build_compute_ci (PscDemoScene *s)
{
  ComputeCiBuffer *c = &s->cci;

  memset (c, 0, sizeof *c);
  c->saturation = 0.75f;
  c->spec_entry = (VkSpecializationMapEntry) { 0, 0, sizeof (float) };
  c->spec = (VkSpecializationInfo) {
    .mapEntryCount = 1,
    .pMapEntries = &c->spec_entry,
    .dataSize = sizeof (float),
    .pData = &c->saturation,
  };
  c->ci = (VkComputePipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
    .stage = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
      .module = s->shaders[PSC_DEMO_SHADER_CS_PALETTE],
      .pName = "main",
      .pSpecializationInfo = &c->spec,
    },
    .layout = s->pipeline_layouts[LAYOUT_COMPUTE],
    .basePipelineIndex = -1,
  };
  return &c->ci;
}

static gboolean
prepare_pipelines (PscDemoScene *s, GError **error)
{
  for (guint i = 0; i < s->n_descs; i++)
    {
      s->prepared_ids[i] = psc_cache_prepare_graphics_pipeline (s->cache,
                                                                draw_create_info (s, &s->descs[i]),
                                                                error);
      if (s->prepared_ids[i] == 0)
        {
          g_prefix_error (error, "preparing graphics pipeline %u: ", i);
          return FALSE;
        }
    }
  s->compute_prepared_id = psc_cache_prepare_compute_pipeline (s->cache, build_compute_ci (s), error);
  if (s->compute_prepared_id == 0)
    {
      g_prefix_error (error, "preparing the compute pipeline: ");
      return FALSE;
    }
  return TRUE;
}

/* Every frame, like an engine: get-or-create every pipeline. */
static gboolean
request_pipelines (PscDemoScene *s, GError **error)
{
  CallTimer t;

  for (guint i = 0; i < s->n_descs; i++)
    {
      if (s->prepared)
        {
          call_begin (s, &t, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
          s->pipelines[i] = psc_cache_get_prepared_pipeline (s->cache, s->prepared_ids[i], error);
        }
      else
        {
          const VkGraphicsPipelineCreateInfo *ci = draw_create_info (s, &s->descs[i]);

          call_begin (s, &t, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
          s->pipelines[i] = psc_cache_get_graphics_pipeline (s->cache, ci, error);
        }
      call_end (s, &t, TRUE);
      if (s->pipelines[i] == VK_NULL_HANDLE)
        {
          g_prefix_error (error, "graphics pipeline %u: ", i);
          return FALSE;
        }
    }

  if (s->prepared)
    {
      call_begin (s, &t, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
      s->compute_pipeline = psc_cache_get_prepared_pipeline (s->cache, s->compute_prepared_id, error);
    }
  else
    {
      const VkComputePipelineCreateInfo *ci = build_compute_ci (s);

      call_begin (s, &t, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
      s->compute_pipeline = psc_cache_get_compute_pipeline (s->cache, ci, error);
    }
  call_end (s, &t, TRUE);
  if (s->compute_pipeline == VK_NULL_HANDLE)
    {
      g_prefix_error (error, "compute pipeline: ");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Asynchronous mode
 */

static guint64
owner_wait_ns (PscCache *cache)
{
  g_autoptr(PscStats) st = psc_cache_get_stats (cache);

  return psc_stats_get_async (st, PSC_ASYNC_COUNTER_OWNER_WAIT_NS);
}

static gboolean
uses_reload_shader (const PipelineDesc *d)
{
  return d->st.vs == PSC_DEMO_RELOAD_SHADER || d->st.fs == PSC_DEMO_RELOAD_SHADER;
}

/* One fallback per distinct (pipeline layout, pass) -- the rendering state
 * a fallback is registered under -- created synchronously (before the frame
 * loop) and registered. */
static gboolean
create_fallbacks (PscDemoScene *s, GError **error)
{
  int layouts[MAX_FALLBACKS], passes[MAX_FALLBACKS];
  guint n = 0;

  for (guint i = 0; i < s->n_descs; i++)
    {
      const PipelineDesc *d = &s->descs[i];
      gboolean seen = FALSE;

      for (guint k = 0; k < n; k++)
        seen |= layouts[k] == d->st.pipeline_layout && passes[k] == d->st.pass;
      if (seen)
        continue;
      g_assert (n < MAX_FALLBACKS);
      layouts[n] = d->st.pipeline_layout;
      passes[n] = d->st.pass;
      n++;
    }

  for (guint k = 0; k < n; k++)
    {
      PscDemoPipelineState fd;
      PscRequestResult res = PSC_REQUEST_RESULT_PENDING;
      CallTimer t;
      VkPipeline p;

      memset (&fd, 0, sizeof fd);
      fd.pass = passes[k];
      fd.vs = PSC_DEMO_SHADER_VS_PANEL;
      /* Layouts whose push range reaches the fragment stage get the generic
       * fragment shader; the depth-only pass has no fragment stage. */
      fd.fs = s->passes[passes[k]].color_format == VK_FORMAT_UNDEFINED
              ? PSC_DEMO_SHADER_COUNT : SHADER_FALLBACK;
      fd.vertex_layout = VERTEX_NONE;
      fd.pipeline_layout = layouts[k];
      fd.cull = VK_CULL_MODE_NONE;
      fd.depth_test = TRUE;
      fd.depth_write = TRUE;

      call_begin (s, &t, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
      p = psc_cache_request_graphics_pipeline (s->cache, build_graphics_ci (s, &fd),
                                               PSC_MISS_POLICY_WAIT, PSC_REQUEST_FLAGS_NONE,
                                               NULL, NULL, &res, error);
      call_end (s, &t, FALSE);
      if (p == VK_NULL_HANDLE)
        {
          g_prefix_error (error, "creating fallback %u: ", k);
          return FALSE;
        }
      g_assert (res == PSC_REQUEST_RESULT_READY);
      if (!psc_cache_set_fallback (s->cache, p, error))
        {
          g_prefix_error (error, "registering fallback %u: ", k);
          return FALSE;
        }
      s->fallbacks[s->n_fallbacks++] = p;
    }
  return TRUE;
}

/* What the ready callbacks counted so far. */
static void
prewarm_update (PscDemoScene *s)
{
  PscDemoPrewarmStats *p = &s->astats.prewarm;

  p->ready = psc_material_prewarm_get_n_ready (s->prewarm);
  p->failed = psc_material_prewarm_get_n_failed (s->prewarm);
  if (p->failed > 0 && p->first_failure[0] == '\0')
    g_strlcpy (p->first_failure, psc_material_prewarm_get_failure_error (s->prewarm, 0)->message,
               sizeof p->first_failure);
}

/* The draw (add index) of prewarm entry @entry. */
static guint
prewarm_entry_draw (PscMaterialPrewarm *prewarm, guint entry)
{
  PscShaderVariantKey key;

  return psc_material_prewarm_get_entry (prewarm, entry, &key);
}

/* The material prewarm: one request per draw in draw order, within the
 * budget; the cut and the failures are recorded. */
static gboolean
prewarm_materials (PscDemoScene *s, const PscDemoSceneOptions *options, GError **error)
{
  PscDemoPrewarmStats *p = &s->astats.prewarm;
  guint64 t0 = now_ns ();
  guint n_entries;

  s->prewarm = psc_material_prewarm_new (s->cache);
  if (options->prewarm_budget != 0)
    psc_material_prewarm_set_budget (s->prewarm, options->prewarm_budget);
  for (guint i = 0; i < s->n_descs; i++)
    if (!psc_material_prewarm_add_instance (s->prewarm,
                                            psc_demo_materials_get_instance (s->materials,
                                                                             s->descs[i].material),
                                            s->contexts[s->descs[i].context], error))
      {
        g_prefix_error (error, "prewarm of draw %u: ", i);
        return FALSE;
      }
  if (!psc_material_prewarm_run (s->prewarm, error))
    {
      g_prefix_error (error, "material prewarm: ");
      return FALSE;
    }
  p->run_ns = now_ns () - t0;
  p->mode = options->prewarm;
  p->budget = psc_material_prewarm_get_budget (s->prewarm);
  p->added = psc_material_prewarm_get_n_added (s->prewarm);
  p->deduplicated = psc_material_prewarm_get_n_deduplicated (s->prewarm);
  p->requested = psc_material_prewarm_get_n_requested (s->prewarm);
  p->cut = psc_material_prewarm_get_n_cut (s->prewarm);
  prewarm_update (s);
  p->n_cut_listed = MIN (p->cut, PSC_DEMO_PREWARM_LISTED_CUTS);
  for (guint k = 0; k < p->n_cut_listed; k++)
    {
      guint draw = prewarm_entry_draw (s->prewarm, psc_material_prewarm_get_cut_entry (s->prewarm, k));
      PscMaterialInstance *instance = psc_demo_materials_get_instance (s->materials,
                                                                      s->descs[draw].material);

      p->cut_draws[k] = draw;
      g_snprintf (p->cut_names[k], sizeof p->cut_names[k], "%s in pass %s",
                  psc_material_template_get_base_name (psc_material_instance_get_template (instance)),
                  psc_pass_context_get_name (s->contexts[s->descs[draw].context]));
    }
  /* The unique entries the run requested come first, in input order. */
  n_entries = psc_material_prewarm_get_n_entries (s->prewarm);
  for (guint k = 0; k < MIN (p->requested, n_entries); k++)
    s->prewarmed[prewarm_entry_draw (s->prewarm, k)] = TRUE;
  for (guint k = 0; k < p->failed; k++)
    s->prewarmed[prewarm_entry_draw (s->prewarm,
                                     psc_material_prewarm_get_failure_entry (s->prewarm, k))] = FALSE;
  return TRUE;
}

/* PSC_DEMO_PREWARM_WAIT: a loading screen. The cache is pumped (nothing is
 * recorded, so each pump's frame is complete at once) until every request
 * is Ready or failed, for at most a minute. */
#define PREWARM_WAIT_LIMIT_NS (60 * G_GUINT64_CONSTANT (1000000000))
static gboolean
prewarm_wait (PscDemoScene *s, GError **error)
{
  PscDemoPrewarmStats *p = &s->astats.prewarm;
  guint64 t0 = now_ns ();

  while (psc_material_prewarm_get_n_pending (s->prewarm) > 0)
    {
      if (now_ns () - t0 > PREWARM_WAIT_LIMIT_NS)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_FAILED,
                       "the material prewarm still had %u of %u requests pending after 60 s",
                       psc_material_prewarm_get_n_pending (s->prewarm), p->requested);
          return FALSE;
        }
      s->timeline++;
      psc_cache_begin_frame (s->cache, s->timeline, s->timeline - 1);
      p->loading_frames++;
      if (psc_material_prewarm_get_n_pending (s->prewarm) > 0)
        g_usleep (1000);
    }
  p->loading_ns = now_ns () - t0;
  prewarm_update (s);
  return TRUE;
}

static gboolean
async_setup (PscDemoScene *s, const PscDemoSceneOptions *options, GError **error)
{
  guint64 wait0 = owner_wait_ns (s->cache);
  PscRequestResult res = PSC_REQUEST_RESULT_PENDING;
  CallTimer t;

  s->far_lod_interval = options->far_lod_interval;
  s->frame_log = g_array_new (FALSE, TRUE, sizeof (PscDemoAsyncFrame));
  for (guint i = 0; i < s->n_descs; i++)
    {
      s->astats.far_pipelines += s->descs[i].far;
      s->astats.reload_pipelines += uses_reload_shader (&s->descs[i]);
    }
  if (!options->no_fallbacks)
    {
      gsize size;
      const guint32 *code = psc_demo_extra_shader_spirv (PSC_DEMO_EXTRA_SHADER_FS_FALLBACK, &size);

      call_begin (s, &t, PSC_OBJECT_KIND_SHADER_MODULE);
      s->shaders[SHADER_FALLBACK] = psc_cache_register_shader (s->cache, code, size, error);
      call_end (s, &t, FALSE);
      if (s->shaders[SHADER_FALLBACK] == VK_NULL_HANDLE)
        {
          g_prefix_error (error, "registering the fallback shader: ");
          return FALSE;
        }
      if (!create_fallbacks (s, error))
        return FALSE;
    }

  /* The compute pass has no fallback: create it now (synchronously). */
  call_begin (s, &t, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
  s->compute_pipeline = s->prepared
    ? psc_cache_request_prepared_pipeline (s->cache, s->compute_prepared_id, PSC_MISS_POLICY_WAIT,
                                           PSC_REQUEST_FLAGS_NONE, NULL, NULL, &res, error)
    : psc_cache_request_compute_pipeline (s->cache, build_compute_ci (s), PSC_MISS_POLICY_WAIT,
                                          PSC_REQUEST_FLAGS_NONE, NULL, NULL, &res, error);
  call_end (s, &t, FALSE);
  if (s->compute_pipeline == VK_NULL_HANDLE)
    {
      g_prefix_error (error, "compute pipeline: ");
      return FALSE;
    }

  s->astats.fallback_pipelines = s->n_fallbacks;
  s->loop_owner_wait_start = owner_wait_ns (s->cache);
  s->astats.setup_owner_wait_ns = s->loop_owner_wait_start - wait0;

  if (options->prewarm != PSC_DEMO_PREWARM_OFF &&
      (!prewarm_materials (s, options, error) ||
       (options->prewarm == PSC_DEMO_PREWARM_WAIT && !prewarm_wait (s, error))))
    return FALSE;
  /* Eviction starts once the first frame has requested (drawn) every
   * pipeline: it counts frames since a pipeline's last request, so a
   * loading screen longer than the idle window would evict what it
   * prewarmed before its first draw. */
  s->eviction_idle_frames = options->eviction_idle_frames;
  return TRUE;
}

/* Every frame: request every pipeline (the far-LOD set only on its frames)
 * without ever compiling on this thread, and draw what came back. */
static gboolean
request_pipelines_async (PscDemoScene *s, gboolean far_lods, PscDemoAsyncFrame *log,
                         GError **error)
{
  PscDemoAsyncStats *a = &s->astats;
  gboolean after_reload = a->reload_frame != 0;
  PscRequestResult res;
  CallTimer t;

  for (guint i = 0; i < s->n_descs; i++)
    {
      const PipelineDesc *d = &s->descs[i];
      g_autoptr(GError) local_error = NULL;
      guint64 misses;
      gboolean reload_desc = after_reload && uses_reload_shader (d);

      if (d->far && !far_lods)
        {
          /* Out of sight: neither requested nor drawn. */
          s->pipelines[i] = VK_NULL_HANDLE;
          continue;
        }

      res = PSC_REQUEST_RESULT_PENDING;
      misses = psc_cache_get_counter (s->cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                      PSC_COUNTER_MISSES);
      if (s->prepared)
        {
          call_begin (s, &t, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
          s->pipelines[i] = psc_cache_request_prepared_pipeline (s->cache, s->prepared_ids[i],
                                                                 PSC_MISS_POLICY_FALLBACK,
                                                                 PSC_REQUEST_FLAGS_NONE,
                                                                 NULL, NULL, &res, &local_error);
        }
      else
        {
          const VkGraphicsPipelineCreateInfo *ci = draw_create_info (s, d);

          call_begin (s, &t, PSC_OBJECT_KIND_GRAPHICS_PIPELINE);
          s->pipelines[i] = psc_cache_request_graphics_pipeline (s->cache, ci,
                                                                 PSC_MISS_POLICY_FALLBACK,
                                                                 PSC_REQUEST_FLAGS_NONE,
                                                                 NULL, NULL, &res, &local_error);
        }
      call_end (s, &t, TRUE);
      log->requested++;

      if (local_error != NULL)
        {
          if (!g_error_matches (local_error, PSC_ERROR, PSC_ERROR_QUEUE_FULL))
            {
              g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                          "graphics pipeline %u: ", i);
              return FALSE;
            }
          /* Refused, nothing queued: skip the draw, ask again next frame. */
          a->queue_full++;
          s->pipelines[i] = VK_NULL_HANDLE;
          res = PSC_REQUEST_RESULT_PENDING;
        }
      else if (psc_cache_get_counter (s->cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE,
                                      PSC_COUNTER_MISSES) != misses &&
               s->requested_before[i] && d->far &&
               s->results[i] == PSC_REQUEST_RESULT_READY && res != PSC_REQUEST_RESULT_READY)
        /* It was drawn exactly last time and is not Ready now: it was
         * evicted while idle and compiles again. (A request for a key that
         * is still compiling is also a miss, so the counter alone does not
         * tell.) */
        a->recompiles_after_eviction++;
      if (local_error == NULL)
        s->requested_before[i] = TRUE;

      s->results[i] = res;
      if (s->prewarmed[i] && !s->drawn_before[i])
        {
          a->prewarm.drawn++;
          a->prewarm.ready_before_first_draw += res == PSC_REQUEST_RESULT_READY;
        }
      s->drawn_before[i] = TRUE;
      switch (res)
        {
        case PSC_REQUEST_RESULT_READY:
          log->exact++;
          if (reload_desc)
            {
              a->reload_exact_draws++;
              if (a->first_new_generation_frame == 0)
                a->first_new_generation_frame = s->frame;
            }
          break;
        case PSC_REQUEST_RESULT_FALLBACK:
          log->fallback++;
          a->reload_fallback_draws += reload_desc;
          break;
        case PSC_REQUEST_RESULT_STALE:
          log->stale++;
          a->reload_stale_draws += reload_desc;
          break;
        case PSC_REQUEST_RESULT_PENDING:
        default:
          log->skipped++;
          a->reload_skipped_draws += reload_desc;
          s->pipelines[i] = VK_NULL_HANDLE;
          break;
        }
    }

  res = PSC_REQUEST_RESULT_PENDING;
  {
    g_autoptr(GError) local_error = NULL;

    if (s->prepared)
      {
        call_begin (s, &t, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
        s->compute_pipeline = psc_cache_request_prepared_pipeline (s->cache, s->compute_prepared_id,
                                                                   PSC_MISS_POLICY_FALLBACK,
                                                                   PSC_REQUEST_FLAGS_NONE,
                                                                   NULL, NULL, &res, &local_error);
      }
    else
      {
        const VkComputePipelineCreateInfo *ci = build_compute_ci (s);

        call_begin (s, &t, PSC_OBJECT_KIND_COMPUTE_PIPELINE);
        s->compute_pipeline = psc_cache_request_compute_pipeline (s->cache, ci,
                                                                  PSC_MISS_POLICY_FALLBACK,
                                                                  PSC_REQUEST_FLAGS_NONE,
                                                                  NULL, NULL, &res, &local_error);
      }
    call_end (s, &t, TRUE);
    if (local_error != NULL)
      {
        if (!g_error_matches (local_error, PSC_ERROR, PSC_ERROR_QUEUE_FULL))
          {
            g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                        "compute pipeline: ");
            return FALSE;
          }
        a->queue_full++;
        res = PSC_REQUEST_RESULT_PENDING;
      }
  }
  /* Not Ready (it was created before the loop, so only if it was evicted):
   * no dispatch, the uniform buffer keeps the previous frame's data. */
  log->compute_exact = res == PSC_REQUEST_RESULT_READY;
  if (!log->compute_exact)
    s->compute_pipeline = VK_NULL_HANDLE;

  a->exact_draws += log->exact;
  a->fallback_draws += log->fallback;
  a->stale_draws += log->stale;
  a->skipped_draws += log->skipped;
  a->last_frame_exact = far_lods && log->compute_exact && log->exact == s->n_descs;
  if (a->last_frame_exact && a->first_exact_frame == 0)
    a->first_exact_frame = s->frame;
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Recording
 */

static void
begin_pass (PscDemoScene *s, int pass)
{
  PscDemoRecorder *r = s->recorder;
  const Pass *p = &s->passes[pass];
  VkRect2D area = { { 0, 0 }, { s->width, s->height } };
  VkViewport viewport = { 0.0f, 0.0f, (float) s->width, (float) s->height, 0.0f, 1.0f };

  if (s->backend == PSC_BACKEND_DYNAMIC_RENDERING)
    {
      VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = p->resolve ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = { .color = p->clear },
      };
      VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        .loadOp = p->load_depth ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = p->color_format == VK_FORMAT_UNDEFINED ? VK_ATTACHMENT_STORE_OP_STORE
                                                          : VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = { .depthStencil = { 1.0f, 0 } },
      };
      VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = area,
        .layerCount = 1,
        .colorAttachmentCount = p->color_format != VK_FORMAT_UNDEFINED ? 1 : 0,
        .pColorAttachments = &color,
        .pDepthAttachment = &depth,
      };

      switch (pass)
        {
        case PASS_B:
          color.imageView = s->b_color.view;
          depth.imageView = s->b_depth.view;
          break;
        case PASS_C:
          color.imageView = s->c_color.view;
          color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
          color.resolveImageView = s->c_resolve.view;
          color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
          depth.imageView = s->c_depth.view;
          break;
        case PASS_PRE:
          depth.imageView = s->a_depth.view;
          ri.pColorAttachments = NULL;
          break;
        case PASS_A:
        default:
          color.imageView = s->a_color.view;
          depth.imageView = s->a_depth.view;
          break;
        }
      r->begin_rendering (r, s->cmd, &ri);
    }
  else
    {
      VkClearValue clears[3];
      guint n = 0;
      VkRenderPassBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = p->exec_pass,
        .framebuffer = p->framebuffer,
        .renderArea = area,
      };

      if (p->color_format != VK_FORMAT_UNDEFINED)
        clears[n++].color = p->clear;
      clears[n++].depthStencil = (VkClearDepthStencilValue) { 1.0f, 0 };
      if (p->resolve)
        clears[n++].color = p->clear;
      bi.clearValueCount = n;
      bi.pClearValues = clears;
      r->begin_render_pass (r, s->cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
    }

  r->set_viewport (r, s->cmd, &viewport);
  r->set_scissor (r, s->cmd, &area);
}

static void
end_pass (PscDemoScene *s)
{
  if (s->backend == PSC_BACKEND_DYNAMIC_RENDERING)
    s->recorder->end_rendering (s->recorder, s->cmd);
  else
    s->recorder->end_render_pass (s->recorder, s->cmd);
}

typedef struct {
  int layout;
  int vertices;
} BoundState;

static void
draw_one (PscDemoScene *s, guint i, BoundState *bound)
{
  PscDemoRecorder *r = s->recorder;
  const PipelineDesc *d = &s->descs[i];
  VkPipelineLayout layout = s->pipeline_layouts[d->st.pipeline_layout];
  PscMaterialInstance *instance = psc_demo_materials_get_instance (s->materials, d->material);
  gsize size = 0;
  const void *block = g_bytes_get_data (psc_material_instance_get_inline_payload (instance), &size);

  g_assert (size == PUSH_SIZE);
  g_assert (s->n_draw_log < MAX_GRAPHICS);
  s->draw_log[s->n_draw_log++] = (PscDemoDrawRecord) {
    .pass = (guint) d->st.pass,
    .draw = i,
    .transparent = d->st.blend,
    .view_depth = d->view_depth,
    .key_hash = d->key_hash,
    .material = d->material,
  };
  r->bind_pipeline (r, s->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, s->pipelines[i]);
  if (d->st.pipeline_layout != bound->layout)
    {
      VkDescriptorSet sets[2] = { s->sets[SET_SCENE], s->sets[SET_COMPOSITE] };

      r->bind_descriptor_sets (r, s->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0,
                               d->st.pipeline_layout == LAYOUT_COMPOSITE ? 2 : 1, sets);
      bound->layout = d->st.pipeline_layout;
    }
  if (d->st.vertex_layout != VERTEX_NONE && d->st.vertex_layout != bound->vertices)
    {
      r->bind_vertex_buffer (r, s->cmd, d->st.vertex_layout == VERTEX_PNU
                                        ? s->pnu_vertices.buffer : s->pc_vertices.buffer, 0);
      bound->vertices = d->st.vertex_layout;
    }
  /* A fallback has no dynamic depth bias (setting it would be invalid
   * with the fallback bound); a stale pipeline has the same state. */
  if (d->st.dynamic_depth_bias && s->results[i] != PSC_REQUEST_RESULT_FALLBACK)
    r->set_depth_bias (r, s->cmd, 4.0f, 0.0f, 1.5f);

  /* The material's inline parameter block is the push-constant block. */
  r->push_constants (r, s->cmd, layout,
                     d->st.pipeline_layout == LAYOUT_DEPTH
                       ? VK_SHADER_STAGE_VERTEX_BIT
                       : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                     0, PUSH_SIZE, block);
  r->draw (r, s->cmd,
           d->st.vertex_layout == VERTEX_PNU ? DISC_SEGMENTS * 3
           : d->st.vertex_layout == VERTEX_PC ? HEX_SEGMENTS * 3 : 6,
           1, 0, 0);
}

/* A pass's draws, sorted by the scene's PscDrawList: opaque ones by
 * pipeline key hash, material and front to back, then translucent ones
 * back to front. */
static void
draw_pass (PscDemoScene *s, int pass)
{
  BoundState bound = { -1, -1 };
  const guint32 *order;
  guint n = 0;

  psc_draw_list_clear (s->draws);
  for (guint i = 0; i < s->n_descs; i++)
    {
      const PipelineDesc *d = &s->descs[i];
      gboolean added;

      /* Asynchronous mode: not requested (far LOD) or nothing to draw yet. */
      if (d->st.pass != pass || s->pipelines[i] == VK_NULL_HANDLE)
        continue;
      if (d->st.blend)
        added = psc_draw_list_add_transparent (s->draws, d->view_depth, i);
      else
        added = psc_draw_list_add_opaque (s->draws, d->key_hash, d->material, d->view_depth, i);
      g_assert (added); /* the list holds every draw of the scene */
    }
  psc_draw_list_sort (s->draws);

  begin_pass (s, pass);
  order = psc_draw_list_get_opaque_order (s->draws, &n);
  s->last_opaque_draws += n;
  for (guint k = 0; k < n; k++)
    draw_one (s, order[k], &bound);
  order = psc_draw_list_get_transparent_order (s->draws, &n);
  s->last_transparent_draws += n;
  for (guint k = 0; k < n; k++)
    draw_one (s, order[k], &bound);
  end_pass (s);
}

static void
record_frame (PscDemoScene *s, gboolean read_back)
{
  PscDemoRecorder *r = s->recorder;
  VkCommandBuffer cb = s->cmd;
  guint32 seed = 3;
  VkBufferMemoryBarrier ubo_barrier = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
    .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
    .dstAccessMask = VK_ACCESS_UNIFORM_READ_BIT,
    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
    .buffer = s->scene_ubo.buffer,
    .size = VK_WHOLE_SIZE,
  };
  const VkAccessFlags color_w = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  const VkAccessFlags depth_rw = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                 VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  const VkPipelineStageFlags depth_stages = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                            VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  VkImageMemoryBarrier to_attachment[7] = {
    image_barrier (s->a_color.image, FALSE, 0, color_w, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    image_barrier (s->b_color.image, FALSE, 0, color_w, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    image_barrier (s->c_color.image, FALSE, 0, color_w, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    image_barrier (s->c_resolve.image, FALSE, 0, color_w, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    image_barrier (s->a_depth.image, TRUE, 0, depth_rw, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
    image_barrier (s->b_depth.image, TRUE, 0, depth_rw, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
    image_barrier (s->c_depth.image, TRUE, 0, depth_rw, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
  };
  VkImageMemoryBarrier to_sampled[2] = {
    image_barrier (s->b_color.image, FALSE, color_w, VK_ACCESS_SHADER_READ_BIT,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
    image_barrier (s->c_resolve.image, FALSE, color_w, VK_ACCESS_SHADER_READ_BIT,
                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
  };
  VkImageMemoryBarrier depth_to_load =
    image_barrier (s->a_depth.image, TRUE, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, depth_rw,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);

  s->last_opaque_draws = 0;
  s->last_transparent_draws = 0;
  s->n_draw_log = 0;

  /* Scene data on the GPU (asynchronous mode: unless its pipeline was not
   * Ready; the buffer then keeps the previous frame's data). */
  if (s->compute_pipeline != VK_NULL_HANDLE)
    {
      r->bind_pipeline (r, cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->compute_pipeline);
      r->bind_descriptor_sets (r, cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                               s->pipeline_layouts[LAYOUT_COMPUTE], 0, 1, &s->sets[SET_COMPUTE]);
      r->push_constants (r, cb, s->pipeline_layouts[LAYOUT_COMPUTE], VK_SHADER_STAGE_COMPUTE_BIT,
                         0, sizeof seed, &seed);
      r->dispatch (r, cb, 1, 1, 1);
    }
  r->pipeline_barrier (r, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, NULL, 1, &ubo_barrier, 0, NULL);

  /* Last frame's contents are discarded. */
  r->pipeline_barrier (r, cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | depth_stages,
                       0, NULL, 0, NULL, G_N_ELEMENTS (to_attachment), to_attachment);

  draw_pass (s, PASS_B);
  draw_pass (s, PASS_C);
  r->pipeline_barrier (r, cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, NULL, 0, NULL, G_N_ELEMENTS (to_sampled), to_sampled);
  draw_pass (s, PASS_PRE);
  r->pipeline_barrier (r, cb, depth_stages, depth_stages, 0, NULL, 0, NULL, 1, &depth_to_load);
  draw_pass (s, PASS_A);

  if (read_back)
    {
      VkImageMemoryBarrier to_transfer =
        image_barrier (s->a_color.image, FALSE, color_w, VK_ACCESS_TRANSFER_READ_BIT,
                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      VkBufferImageCopy region = {
        .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
        .imageExtent = { s->width, s->height, 1 },
      };
      VkBufferMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = s->readback.buffer,
        .size = VK_WHOLE_SIZE,
      };

      r->pipeline_barrier (r, cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, NULL, 0, NULL, 1, &to_transfer);
      r->copy_image_to_buffer (r, cb, s->a_color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               s->readback.buffer, 1, &region);
      r->pipeline_barrier (r, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                           0, NULL, 1, &to_host, 0, NULL);
    }
}

/* ------------------------------------------------------------------------
 * Public API
 */

void
psc_demo_scene_options_init (PscDemoSceneOptions *options)
{
  memset (options, 0, sizeof *options);
  options->backend = PSC_BACKEND_AUTO;
  options->width = 320;
  options->height = 240;
  options->frames = 6;
  options->resize_at_frame = 0;
  options->far_lod_interval = 8;
  options->eviction_idle_frames = 4;
  options->converge_max_frames = 2000;
}

void
psc_demo_scene_result_clear (PscDemoSceneResult *result)
{
  g_clear_pointer (&result->pixels, g_free);
  g_clear_pointer (&result->async_frames, g_free);
  memset (result, 0, sizeof *result);
}

static PscBackend
resolve_backend (PscCache *cache)
{
  PscBackend b = psc_cache_get_backend (cache);

  if (b == PSC_BACKEND_AUTO)
    b = psc_device_get_dynamic_rendering (psc_cache_get_device (cache))
        ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY;
  return b;
}

static gboolean
check_limits (PscDemoScene *s, GError **error)
{
  VkPhysicalDeviceProperties props;

  s->vk.vkGetPhysicalDeviceProperties (s->vk.physical_device, &props);
  if ((props.limits.framebufferColorSampleCounts & VK_SAMPLE_COUNT_4_BIT) == 0 ||
      (props.limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT) == 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   "%s does not support 4x multisampled colour and depth attachments",
                   props.deviceName);
      return FALSE;
    }
  if (s->backend == PSC_BACKEND_DYNAMIC_RENDERING &&
      (s->vk.vkCmdBeginRendering == NULL || s->vk.vkCmdEndRendering == NULL))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   "the dynamic-rendering backend needs vkCmdBeginRendering");
      return FALSE;
    }
  return TRUE;
}

PscDemoScene *
psc_demo_scene_new (PscCache *cache, const PscDemoSceneOptions *options, GError **error)
{
  g_autoptr(PscDemoScene) s = NULL;
  PscDemoSceneOptions defaults;
  VkCommandPoolCreateInfo pool_info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
  };
  VkCommandBufferAllocateInfo cmd_info = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
    .commandBufferCount = 1,
  };
  VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  VkResult r;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    {
      psc_demo_scene_options_init (&defaults);
      options = &defaults;
    }
  if (options->width == 0 || options->height == 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "the scene size must not be 0");
      return NULL;
    }

  s = g_new0 (PscDemoScene, 1);
  s->cache = g_object_ref (cache);
  s->device = g_object_ref (psc_cache_get_device (cache));
  s->backend = resolve_backend (cache);
  s->prepared = options->prepared;
  s->width = options->width;
  s->height = options->height;
  s->async = options->async;
  s->reloaded = options->reloaded;

  if (options->backend != PSC_BACKEND_AUTO && options->backend != s->backend)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "the scene was asked for the %s backend but the cache uses the %s backend",
                   options->backend == PSC_BACKEND_LEGACY ? "legacy" : "dynamic-rendering",
                   s->backend == PSC_BACKEND_LEGACY ? "legacy" : "dynamic-rendering");
      return NULL;
    }

  if (!psc_demo_vk_load (&s->vk, psc_device_get_info (s->device), error))
    return NULL;
  if (!check_limits (s, error))
    return NULL;

  if (options->recorder != NULL)
    s->recorder = options->recorder;
  else
    {
      s->own_recorder = psc_demo_recorder_new (s->device, error);
      if (s->own_recorder == NULL)
        return NULL;
      s->recorder = s->own_recorder;
    }

  pool_info.queueFamilyIndex = s->vk.queue_family_index;
  r = s->vk.vkCreateCommandPool (s->vk.device, &pool_info, s->vk.allocator, &s->command_pool);
  if (r != VK_SUCCESS)
    {
      vk_failed (error, r, "vkCreateCommandPool");
      return NULL;
    }
  cmd_info.commandPool = s->command_pool;
  r = s->vk.vkAllocateCommandBuffers (s->vk.device, &cmd_info, &s->cmd);
  if (r != VK_SUCCESS)
    {
      vk_failed (error, r, "vkAllocateCommandBuffers");
      return NULL;
    }
  r = s->vk.vkCreateFence (s->vk.device, &fence_info, s->vk.allocator, &s->fence);
  if (r != VK_SUCCESS)
    {
      vk_failed (error, r, "vkCreateFence");
      return NULL;
    }

  passes_init (s);
  if (!create_pass_contexts (s, error))
    return NULL;

  if (!register_shaders (s, error) ||
      !get_samplers (s, error) ||
      !get_layouts (s, error))
    return NULL;
  if (s->backend == PSC_BACKEND_LEGACY &&
      (!create_exec_passes (s, error) || !get_compat_passes (s, error)))
    return NULL;

  if (!buffer_create (s, &s->scene_ubo, SCENE_UBO_SIZE,
                      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      FALSE, error) ||
      !create_meshes (s, error) ||
      !create_texture (s, error) ||
      !create_descriptors (s, error) ||
      !create_targets (s, error))
    return NULL;

  if (!refresh_key_hashes (s, error) || (s->prepared && !prepare_pipelines (s, error)))
    return NULL;

  if (s->async && !async_setup (s, options, error))
    return NULL;

  return g_steal_pointer (&s);
}

gboolean
psc_demo_scene_render_frame (PscDemoScene *s, PscDemoFrameFlags flags, GError **error)
{
  guint64 t0 = now_ns ();
  guint64 frame;
  gboolean read_back = (flags & PSC_DEMO_FRAME_READ_BACK) != 0;
  PscDemoAsyncFrame log;

  g_return_val_if_fail (s != NULL, FALSE);

  /* Each frame waits for its fence, so the previous frame is complete. */
  frame = ++s->frame;
  s->timeline++;
  psc_cache_begin_frame (s->cache, s->timeline, s->timeline - 1);
  if (s->prewarm != NULL)
    {
      prewarm_update (s);
      if (frame == 1)
        s->astats.prewarm.ready_at_first_frame = s->astats.prewarm.ready;
    }

  memset (&log, 0, sizeof log);
  log.frame = (guint) frame;
  log.reload = s->reload_before_next_frame;
  s->reload_before_next_frame = FALSE;
  log.far_lods = (flags & PSC_DEMO_FRAME_ALL_LODS) != 0 || s->far_lod_interval <= 1 ||
                 (frame - 1) % s->far_lod_interval == 0;

  if ((flags & PSC_DEMO_FRAME_KEEP_PIPELINES) != 0)
    {
      if (s->compute_pipeline == VK_NULL_HANDLE)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       "no earlier frame requested the pipelines to keep");
          return FALSE;
        }
    }
  else if (s->async)
    {
      if (!request_pipelines_async (s, log.far_lods, &log, error))
        return FALSE;
    }
  else if (!request_pipelines (s, error))
    return FALSE;
  if (frame == 1 && s->eviction_idle_frames > 0)
    psc_cache_set_eviction_idle_frames (s->cache, s->eviction_idle_frames);
  if (!begin_commands (s, error))
    return FALSE;
  record_frame (s, read_back);
  if (!submit_and_wait (s, error))
    return FALSE;

  if (read_back)
    {
      gsize size = (gsize) s->width * s->height * 4;

      g_free (s->pixels);
      s->pixels = g_memdup2 (s->readback.map, size);
      s->pixels_width = s->width;
      s->pixels_height = s->height;
    }

  if (frame == 1)
    {
      s->first_frame_ns = now_ns () - t0;
      s->creations_after_frame_1 = total_creations (s->cache);
    }
  else
    s->later_frames_ns += now_ns () - t0;

  if (s->async)
    {
      g_autoptr(PscStats) st = psc_cache_get_stats (s->cache);

      log.completed = psc_stats_get_async (st, PSC_ASYNC_COUNTER_COMPLETED);
      log.evictions = psc_stats_get_async (st, PSC_ASYNC_COUNTER_EVICTIONS);
      log.retired = psc_stats_get_async (st, PSC_ASYNC_COUNTER_RETIRED);
      log.retirements_pending = psc_stats_get_async (st, PSC_ASYNC_COUNTER_RETIREMENTS_PENDING);
      log.stale_discards = psc_stats_get_async (st, PSC_ASYNC_COUNTER_STALE_DISCARDS);
      s->astats.loop_owner_wait_ns =
        psc_stats_get_async (st, PSC_ASYNC_COUNTER_OWNER_WAIT_NS) - s->loop_owner_wait_start;
      log.owner_wait_ns = s->astats.loop_owner_wait_ns;
      log.ns = now_ns () - t0;
      g_array_append_val (s->frame_log, log);
    }
  return TRUE;
}

gboolean
psc_demo_scene_reload_shader (PscDemoScene *s, GError **error)
{
  gsize size;
  const guint32 *code = psc_demo_extra_shader_spirv (PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED, &size);
  VkShaderModule module;

  g_return_val_if_fail (s != NULL, FALSE);

  module = psc_cache_replace_shader (s->cache, s->shaders[PSC_DEMO_RELOAD_SHADER], code, size,
                                     VK_NULL_HANDLE, error);
  if (module == VK_NULL_HANDLE)
    {
      g_prefix_error (error, "hot reload of %s: ", psc_demo_shader_name (PSC_DEMO_RELOAD_SHADER));
      return FALSE;
    }
  /* The old handle stops resolving at the next begin_frame: from now on
   * every request names the new one. */
  s->shaders[PSC_DEMO_RELOAD_SHADER] = module;
  s->reloaded = TRUE;
  s->reload_before_next_frame = TRUE;
  s->astats.reload_frame = s->frame + 1;
  s->astats.first_new_generation_frame = 0;
  /* Their keys changed: a miss now is the new generation, not an eviction. */
  for (guint i = 0; i < s->n_descs; i++)
    if (uses_reload_shader (&s->descs[i]))
      s->requested_before[i] = FALSE;
  /* Prepared keys naming the module are stale: prepare them again. */
  if (s->prepared && !prepare_pipelines (s, error))
    return FALSE;
  return refresh_key_hashes (s, error);
}

void
psc_demo_scene_get_async_stats (PscDemoScene *s, PscDemoAsyncStats *stats)
{
  *stats = s->astats;
}

const PscDemoAsyncFrame *
psc_demo_scene_get_async_frames (PscDemoScene *s, guint *n_frames)
{
  if (s->frame_log == NULL)
    {
      *n_frames = 0;
      return NULL;
    }
  *n_frames = s->frame_log->len;
  return (const PscDemoAsyncFrame *) (gpointer) s->frame_log->data;
}

gboolean
psc_demo_scene_resize (PscDemoScene *s, guint width, guint height, GError **error)
{
  VkResult r;

  g_return_val_if_fail (s != NULL, FALSE);
  if (width == 0 || height == 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "the scene size must not be 0");
      return FALSE;
    }

  r = s->vk.vkDeviceWaitIdle (s->vk.device);
  if (r != VK_SUCCESS)
    return vk_failed (error, r, "vkDeviceWaitIdle");
  destroy_targets (s);
  s->width = width;
  s->height = height;
  /* An engine recreating its targets asks again for what it renders with:
   * same descriptions, so these must all be hits. */
  if (s->backend == PSC_BACKEND_LEGACY && !get_compat_passes (s, error))
    return FALSE;
  return create_targets (s, error);
}

gboolean
psc_demo_scene_request_layouts (PscDemoScene *s, gboolean *all_same, GError **error)
{
  VkSampler samplers[N_SAMPLERS];
  VkDescriptorSetLayout set_layouts[N_SET_LAYOUTS];
  VkPipelineLayout pipeline_layouts[N_PIPELINE_LAYOUTS];
  VkRenderPass compat[N_PASSES];
  gboolean ok;

  g_return_val_if_fail (s != NULL, FALSE);

  memcpy (samplers, s->samplers, sizeof samplers);
  memcpy (set_layouts, s->set_layouts, sizeof set_layouts);
  memcpy (pipeline_layouts, s->pipeline_layouts, sizeof pipeline_layouts);
  for (int i = 0; i < N_PASSES; i++)
    compat[i] = s->passes[i].compat_pass;

  ok = get_samplers (s, error) && get_layouts (s, error) &&
       (s->backend != PSC_BACKEND_LEGACY || get_compat_passes (s, error));
  if (!ok)
    return FALSE;

  if (all_same != NULL)
    {
      *all_same = memcmp (samplers, s->samplers, sizeof samplers) == 0 &&
                  memcmp (set_layouts, s->set_layouts, sizeof set_layouts) == 0 &&
                  memcmp (pipeline_layouts, s->pipeline_layouts, sizeof pipeline_layouts) == 0;
      for (int i = 0; i < N_PASSES; i++)
        if (compat[i] != s->passes[i].compat_pass)
          *all_same = FALSE;
    }
  return TRUE;
}

const guint8 *
psc_demo_scene_get_pixels (PscDemoScene *s, guint *width, guint *height)
{
  if (width != NULL)
    *width = s->pixels_width;
  if (height != NULL)
    *height = s->pixels_height;
  return s->pixels;
}

void
psc_demo_scene_get_result (PscDemoScene *s, PscDemoSceneResult *result)
{
  g_clear_pointer (&result->pixels, g_free);
  g_clear_pointer (&result->async_frames, g_free);
  memset (result, 0, sizeof *result);
  result->width = s->pixels_width;
  result->height = s->pixels_height;
  result->frames = s->frame;
  result->graphics_pipelines = s->n_descs;
  result->compute_pipelines = 1;
  result->shader_modules = PSC_DEMO_SHADER_COUNT + (s->shaders[SHADER_FALLBACK] != VK_NULL_HANDLE);
  result->hit = s->hit;
  result->created = s->created;
  result->pipeline_hit = s->pipeline_hit;
  result->pipeline_created = s->pipeline_created;
  result->creations_after_frame_1 = s->creations_after_frame_1;
  result->creations_at_end = total_creations (s->cache);
  result->first_frame_ns = s->first_frame_ns;
  result->later_frames_ns = s->later_frames_ns;
  result->opaque_draws = s->last_opaque_draws;
  result->transparent_draws = s->last_transparent_draws;
  result->materials = psc_demo_materials_get_n_instances (s->materials);
  result->material_templates = psc_demo_materials_get_n_templates (s->materials);
  result->render_pass_begins = psc_demo_recorder_get_render_pass_begins (s->recorder);
  result->rendering_begins = psc_demo_recorder_get_rendering_begins (s->recorder);
  result->violations = psc_demo_recorder_get_violations (s->recorder);
  if (s->async)
    {
      result->async = TRUE;
      result->async_stats = s->astats;
      result->n_async_frames = s->frame_log->len;
      result->async_frames = g_memdup2 (s->frame_log->data,
                                        (gsize) s->frame_log->len * sizeof (PscDemoAsyncFrame));
    }
}

const PscDemoDrawRecord *
psc_demo_scene_get_last_draws (PscDemoScene *s, guint *n_draws)
{
  *n_draws = s->n_draw_log;
  return s->draw_log;
}

VkShaderModule
psc_demo_scene_get_shader (PscDemoScene *s, PscDemoShader shader)
{
  g_return_val_if_fail (shader < PSC_DEMO_SHADER_COUNT, VK_NULL_HANDLE);
  return s->shaders[shader];
}

PscBackend
psc_demo_scene_get_backend (PscDemoScene *s)
{
  return s->backend;
}

void
psc_demo_scene_free (PscDemoScene *s)
{
  if (s == NULL)
    return;

  if (s->vk.device != VK_NULL_HANDLE)
    {
      s->vk.vkDeviceWaitIdle (s->vk.device);
      destroy_targets (s);
      for (int i = 0; i < N_PASSES; i++)
        s->vk.vkDestroyRenderPass (s->vk.device, s->passes[i].exec_pass, s->vk.allocator);
      image_destroy (s, &s->texture);
      buffer_destroy (s, &s->scene_ubo);
      buffer_destroy (s, &s->pnu_vertices);
      buffer_destroy (s, &s->pc_vertices);
      s->vk.vkDestroyDescriptorPool (s->vk.device, s->descriptor_pool, s->vk.allocator);
      s->vk.vkDestroyFence (s->vk.device, s->fence, s->vk.allocator);
      s->vk.vkDestroyCommandPool (s->vk.device, s->command_pool, s->vk.allocator);
    }
  /* Shaders, samplers, layouts, compatibility passes and pipelines belong to
   * the cache: the scene only forgets them. */
  /* The prewarm's pending requests are cancelled with it; the pass
   * contexts' provider data lives in the scene. */
  g_clear_pointer (&s->prewarm, psc_material_prewarm_unref);
  for (int c = 0; c < N_CONTEXTS; c++)
    g_clear_pointer (&s->contexts[c], psc_pass_context_unref);
  g_clear_pointer (&s->draws, psc_draw_list_unref);
  g_clear_pointer (&s->materials, psc_demo_materials_free);
  psc_demo_recorder_free (s->own_recorder);
  g_free (s->pixels);
  if (s->frame_log != NULL)
    g_array_unref (s->frame_log);
  g_clear_object (&s->cache);
  g_clear_object (&s->device);
  g_free (s);
}

/* The asynchronous sequence: options->frames frames (hot reload, resize),
 * then frames with every LOD until one is exact (read back). */
static gboolean
run_async (PscDemoScene *s, const PscDemoSceneOptions *options, guint rw, guint rh,
           PscDemoSceneResult *result, GError **error)
{
  guint frames = MAX (options->frames, 1);
  guint reload_at = options->reload_at_frame == 0 ? frames / 2 + 1 : options->reload_at_frame;

  for (guint f = 1; f <= frames; f++)
    {
      if (options->resize_at_frame != 0 && f == options->resize_at_frame &&
          !psc_demo_scene_resize (s, rw, rh, error))
        return FALSE;
      if (f == reload_at && !psc_demo_scene_reload_shader (s, error))
        return FALSE;
      if (!psc_demo_scene_render_frame (s, PSC_DEMO_FRAME_NONE, error))
        return FALSE;
    }
  for (guint n = 0; n < MAX (options->converge_max_frames, 1); n++)
    {
      if (!psc_demo_scene_render_frame (s, PSC_DEMO_FRAME_ALL_LODS | PSC_DEMO_FRAME_READ_BACK,
                                        error))
        return FALSE;
      if (s->astats.last_frame_exact)
        break;
    }
  s->astats.converged = s->astats.last_frame_exact;

  psc_demo_scene_get_result (s, result);
  result->pixels = g_steal_pointer (&s->pixels);
  return TRUE;
}

gboolean
psc_demo_scene_run (PscCache *cache, const PscDemoSceneOptions *options,
                    PscDemoSceneResult *result, GError **error)
{
  g_autoptr(PscDemoScene) s = NULL;
  PscDemoSceneOptions defaults;
  guint rw, rh;

  if (options == NULL)
    {
      psc_demo_scene_options_init (&defaults);
      options = &defaults;
    }
  s = psc_demo_scene_new (cache, options, error);
  if (s == NULL)
    return FALSE;

  rw = options->resize_width != 0 ? options->resize_width : options->width * 3 / 2;
  rh = options->resize_height != 0 ? options->resize_height : options->height * 3 / 2;
  if (options->async)
    return run_async (s, options, rw, rh, result, error);
  for (guint f = 1; f <= MAX (options->frames, 1); f++)
    {
      if (options->resize_at_frame != 0 && f == options->resize_at_frame &&
          !psc_demo_scene_resize (s, rw, rh, error))
        return FALSE;
      if (!psc_demo_scene_render_frame (s, f == MAX (options->frames, 1)
                                           ? PSC_DEMO_FRAME_READ_BACK : PSC_DEMO_FRAME_NONE,
                                        error))
        return FALSE;
    }

  psc_demo_scene_get_result (s, result);
  result->pixels = g_steal_pointer (&s->pixels);
  return TRUE;
}

/* ------------------------------------------------------------------------ */

gboolean
psc_demo_write_ppm (const char *path, const guint8 *rgba, guint width, guint height,
                    GError **error)
{
  g_autoptr(GString) out = g_string_sized_new ((gsize) width * height * 3 + 32);

  g_string_append_printf (out, "P6\n%u %u\n255\n", width, height);
  for (gsize i = 0; i < (gsize) width * height; i++)
    g_string_append_len (out, (const char *) rgba + i * 4, 3);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}
