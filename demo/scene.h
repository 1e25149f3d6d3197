/* scene.h: the demo scene, rendered offscreen through a PscCache.
 *
 * A reusable library (psc_demo_scene) for psocache-demo, the Vulkan tests
 * and the benchmark. The scene builds its own targets, buffers and
 * descriptor sets, and requests every pipeline, layout, sampler and
 * compatibility pass it uses through the cache, the way an engine would:
 * pipelines are requested (get-or-create) every frame from create infos
 * rebuilt in one reused buffer, and never destroyed by the scene.
 *
 * Everything here runs on the cache's owner thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------
 * Recording function table
 *
 * The scene records every command through a PscDemoRecorder. The default one
 * calls Vulkan. The checking one asks the cache, on every begin-render-pass,
 * whether the pass is a cache-issued compatibility pass; if so it counts a
 * violation and does not forward the call. Both count render-pass and
 * dynamic-rendering begins.
 */
typedef struct _PscDemoRecorder PscDemoRecorder;

struct _PscDemoRecorder {
  void (*begin_rendering) (PscDemoRecorder *self, VkCommandBuffer cb,
                           const VkRenderingInfo *info);
  void (*end_rendering) (PscDemoRecorder *self, VkCommandBuffer cb);
  void (*begin_render_pass) (PscDemoRecorder *self, VkCommandBuffer cb,
                             const VkRenderPassBeginInfo *info,
                             VkSubpassContents contents);
  void (*end_render_pass) (PscDemoRecorder *self, VkCommandBuffer cb);
  void (*bind_pipeline) (PscDemoRecorder *self, VkCommandBuffer cb,
                         VkPipelineBindPoint bind_point, VkPipeline pipeline);
  void (*bind_descriptor_sets) (PscDemoRecorder *self, VkCommandBuffer cb,
                                VkPipelineBindPoint bind_point,
                                VkPipelineLayout layout, guint32 first_set,
                                guint32 count, const VkDescriptorSet *sets);
  void (*push_constants) (PscDemoRecorder *self, VkCommandBuffer cb,
                          VkPipelineLayout layout, VkShaderStageFlags stages,
                          guint32 offset, guint32 size, const void *values);
  void (*bind_vertex_buffer) (PscDemoRecorder *self, VkCommandBuffer cb,
                              VkBuffer buffer, VkDeviceSize offset);
  void (*set_viewport) (PscDemoRecorder *self, VkCommandBuffer cb,
                        const VkViewport *viewport);
  void (*set_scissor) (PscDemoRecorder *self, VkCommandBuffer cb,
                       const VkRect2D *scissor);
  void (*set_depth_bias) (PscDemoRecorder *self, VkCommandBuffer cb,
                          float constant_factor, float clamp, float slope_factor);
  void (*draw) (PscDemoRecorder *self, VkCommandBuffer cb, guint32 vertex_count,
                guint32 instance_count, guint32 first_vertex, guint32 first_instance);
  void (*dispatch) (PscDemoRecorder *self, VkCommandBuffer cb,
                    guint32 x, guint32 y, guint32 z);
  void (*pipeline_barrier) (PscDemoRecorder *self, VkCommandBuffer cb,
                            VkPipelineStageFlags src_stages,
                            VkPipelineStageFlags dst_stages,
                            guint32 n_memory, const VkMemoryBarrier *memory,
                            guint32 n_buffer, const VkBufferMemoryBarrier *buffer,
                            guint32 n_image, const VkImageMemoryBarrier *image);
  void (*copy_image_to_buffer) (PscDemoRecorder *self, VkCommandBuffer cb,
                                VkImage image, VkImageLayout layout,
                                VkBuffer buffer, guint32 n_regions,
                                const VkBufferImageCopy *regions);
  void (*copy_buffer_to_image) (PscDemoRecorder *self, VkCommandBuffer cb,
                                VkBuffer buffer, VkImage image,
                                VkImageLayout layout, guint32 n_regions,
                                const VkBufferImageCopy *regions);
};

/* The default recorder: forwards every call to @device's Vulkan device. */
PscDemoRecorder *psc_demo_recorder_new (PscDevice *device, GError **error);
/* The checking recorder: like the default one, but a begin-render-pass whose
 * pass @cache reports as a compatibility pass is counted as a violation and
 * not forwarded. */
PscDemoRecorder *psc_demo_recorder_new_checking (PscCache *cache, GError **error);
void psc_demo_recorder_free (PscDemoRecorder *self);
/* The counters below only work on recorders made by the two constructors
 * above. */
/* Compatibility passes given to begin_render_pass (checking recorder). */
guint psc_demo_recorder_get_violations (PscDemoRecorder *self);
/* begin_render_pass calls, forwarded or not. */
guint psc_demo_recorder_get_render_pass_begins (PscDemoRecorder *self);
/* begin_rendering calls. */
guint psc_demo_recorder_get_rendering_begins (PscDemoRecorder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDemoRecorder, psc_demo_recorder_free)

/* ------------------------------------------------------------------------
 * Embedded SPIR-V (compiled from demo/shaders/ at build time)
 */
typedef enum {
  PSC_DEMO_SHADER_VS_MESH_PNU,     /* mesh-vert.glsl -DLAYOUT_PNU */
  PSC_DEMO_SHADER_VS_MESH_PC,      /* mesh-vert.glsl -DLAYOUT_PC */
  PSC_DEMO_SHADER_VS_PANEL,        /* panel-vert.glsl: no vertex input */
  PSC_DEMO_SHADER_FS_LIT,          /* mesh-frag.glsl -DMODE_LIT */
  PSC_DEMO_SHADER_FS_LIT_HDR,      /* mesh-frag.glsl -DMODE_LIT -DHDR */
  PSC_DEMO_SHADER_FS_TEXTURED,     /* mesh-frag.glsl -DMODE_TEXTURED */
  PSC_DEMO_SHADER_FS_COLOR,        /* mesh-frag.glsl -DMODE_COLOR */
  PSC_DEMO_SHADER_FS_COLOR_ALPHA,  /* mesh-frag.glsl -DMODE_COLOR -DALPHA */
  PSC_DEMO_SHADER_FS_COMPOSITE,    /* composite-frag.glsl */
  PSC_DEMO_SHADER_CS_PALETTE,      /* palette-comp.glsl */
  PSC_DEMO_SHADER_COUNT,
} PscDemoShader;

/* The SPIR-V words of @shader; @size receives the size in bytes. */
const guint32 *psc_demo_shader_spirv (PscDemoShader shader, gsize *size);
const char *psc_demo_shader_name (PscDemoShader shader);

/* Shaders the synchronous scene does not register (asynchronous mode). */
typedef enum {
  PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED, /* mesh-frag.glsl -DMODE_LIT -DTINT: the hot reload's
                                        * replacement for PSC_DEMO_SHADER_FS_LIT */
  PSC_DEMO_EXTRA_SHADER_FS_FALLBACK,   /* fallback-frag.glsl: the fallbacks' generic shader */
  PSC_DEMO_EXTRA_SHADER_COUNT,
} PscDemoExtraShader;

const guint32 *psc_demo_extra_shader_spirv (PscDemoExtraShader shader, gsize *size);
const char *psc_demo_extra_shader_name (PscDemoExtraShader shader);

/* The shader the asynchronous mode hot-reloads (with
 * PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED). */
#define PSC_DEMO_RELOAD_SHADER PSC_DEMO_SHADER_FS_LIT

/* ------------------------------------------------------------------------
 * The scene
 */

/* Asynchronous mode: the material prewarm before the first frame (see
 * scene-materials.h and the top of scene.c). */
typedef enum {
  PSC_DEMO_PREWARM_OFF,           /* none: the frame loop requests everything */
  PSC_DEMO_PREWARM_REQUEST,       /* request every draw's pipeline, then render at once */
  PSC_DEMO_PREWARM_WAIT,          /* request, then pump the cache (a loading screen)
                                   * until every request is settled */
} PscDemoPrewarmMode;

typedef struct {
  /* PSC_BACKEND_AUTO: whatever the cache uses. Otherwise it must agree with
   * the cache's backend. */
  PscBackend backend;
  guint width, height;            /* initial target size (default 320x240) */
  guint frames;                   /* for psc_demo_scene_run (default 6) */
  guint resize_at_frame;          /* 1-based frame that starts at the new size; 0: never */
  guint resize_width, resize_height; /* default: 1.5x the initial size */
  gboolean prepared;              /* request pipelines through prepared key ids */
  PscDemoRecorder *recorder;      /* (nullable): default recorder if NULL; borrowed */

  /* Asynchronous mode (see the top of scene.c). Everything below is ignored
   * unless @async is set, except @reloaded. */
  gboolean async;                 /* request with PSC_MISS_POLICY_FALLBACK */
  gboolean no_fallbacks;          /* register no fallback: draws are skipped instead */
  guint reload_at_frame;          /* psc_demo_scene_run: 1-based frame that starts with
                                   * the hot reload; 0: the middle frame
                                   * (frames / 2 + 1); G_MAXUINT (or > frames): never */
  guint far_lod_interval;         /* far-LOD pipelines are requested every Nth frame
                                   * only (default 8); 0 or 1: every frame */
  guint eviction_idle_frames;     /* psc_cache_set_eviction_idle_frames (default 4);
                                   * 0: leave the cache's setting */
  guint converge_max_frames;      /* psc_demo_scene_run: at most this many frames after
                                   * @frames waiting for every pipeline to be Ready
                                   * (default 2000) */
  PscDemoPrewarmMode prewarm;     /* default PSC_DEMO_PREWARM_OFF */
  guint prewarm_budget;           /* 0: PSC_MATERIAL_PREWARM_DEFAULT_BUDGET */
  /* Register PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED as PSC_DEMO_RELOAD_SHADER
   * from the start: the synchronous reference for the asynchronous mode's
   * final image. Any mode. */
  gboolean reloaded;
} PscDemoSceneOptions;

/* Fills @options with the defaults. */
void psc_demo_scene_options_init (PscDemoSceneOptions *options);

typedef struct {
  guint64 calls;                  /* cache calls */
  guint64 ns;                     /* wall time inside them */
} PscDemoCallTime;

/* One frame of the asynchronous mode. Draw counts are graphics draws; the
 * cache counters are the PscStats asynchronous counters after the frame
 * (cumulative). */
typedef struct {
  guint frame;
  guint requested;                /* graphics pipelines requested (and drawn unless skipped) */
  guint exact;                    /* drawn with the requested pipeline (Ready) */
  guint fallback;                 /* drawn with the registered fallback */
  guint stale;                    /* drawn with the previous shader generation */
  guint skipped;                  /* not drawn: pending (no fallback) or queue full */
  gboolean compute_exact;         /* the compute pipeline was Ready (else not dispatched) */
  gboolean reload;                /* the hot reload happened just before this frame */
  gboolean far_lods;              /* the far-LOD pipelines were requested */
  guint64 completed, evictions, retired, retirements_pending, stale_discards;
  guint64 owner_wait_ns;          /* since the setup (see loop_owner_wait_ns) */
  guint64 ns;                     /* the frame's wall time (CPU + GPU) */
} PscDemoAsyncFrame;

/* The material prewarm (asynchronous mode). One request per draw, added in
 * draw order (so an entry's add index is its draw's index). */
#define PSC_DEMO_PREWARM_LISTED_CUTS 4
typedef struct {
  PscDemoPrewarmMode mode;
  guint budget;
  guint added, deduplicated, requested, cut, failed;
  guint cut_draws[PSC_DEMO_PREWARM_LISTED_CUTS]; /* the first cut draws' indexes */
  char cut_names[PSC_DEMO_PREWARM_LISTED_CUTS][96]; /* "template in pass context" */
  guint n_cut_listed;
  char first_failure[192];        /* the first failure's message, or "" */
  guint64 run_ns;                 /* psc_material_prewarm_run: providers and requests */
  guint loading_frames;           /* PSC_DEMO_PREWARM_WAIT: cache pumps before frame 1 */
  guint64 loading_ns;             /* ... and their time */
  guint ready_at_first_frame;     /* Ready once frame 1's pump was over */
  guint ready;                    /* Ready so far */
  guint drawn;                    /* prewarmed pipelines drawn (requested) in a frame */
  guint ready_before_first_draw;  /* of those, Ready when first drawn */
} PscDemoPrewarmStats;

/* What the asynchronous mode drew, over all frames so far. */
typedef struct {
  PscDemoPrewarmStats prewarm;
  guint fallback_pipelines;       /* fallbacks created and registered before the loop */
  guint64 setup_owner_wait_ns;    /* owner thread compiling them and the compute pipeline */
  guint64 loop_owner_wait_ns;     /* owner thread compiling from the end of that setup to
                                   * the end of the last frame (0: it never does) */
  guint64 exact_draws, fallback_draws, stale_draws, skipped_draws;
  guint64 queue_full;             /* requests refused (QUEUE_FULL); counted as skipped too */
  /* Pipelines that draw with PSC_DEMO_RELOAD_SHADER, and their draws after
   * the hot reload, by what they were drawn with. */
  guint reload_frame;             /* 0: no hot reload */
  guint reload_pipelines;
  guint64 reload_stale_draws, reload_fallback_draws, reload_skipped_draws;
  guint64 reload_exact_draws;     /* the new generation */
  guint first_new_generation_frame;  /* first frame that drew one; 0: none */
  /* Requests that missed although the same pipeline had been requested
   * before (and no hot reload changed it): it was evicted, and compiles
   * again. */
  guint64 recompiles_after_eviction;
  guint far_pipelines;            /* in the far-LOD set */
  /* The last frame requested every pipeline and all were Ready. */
  gboolean last_frame_exact;
  guint first_exact_frame;        /* first such frame; 0: none */
  gboolean converged;             /* psc_demo_scene_run: the final frame is exact */
} PscDemoAsyncStats;

typedef struct {
  /* The final colour image, RGBA8 (R8G8B8A8_UNORM), tightly packed rows. */
  guint width, height;
  guint8 *pixels;                 /* width * height * 4 bytes; g_free() */

  guint frames;                   /* frames rendered */
  guint graphics_pipelines;       /* distinct graphics pipelines per frame */
  guint compute_pipelines;        /* distinct compute pipelines per frame */
  guint shader_modules;           /* shader modules registered */

  /* Every cache call the scene makes, split by whether it created an object
   * (the kind's creations counter moved) or was answered from the cache. */
  PscDemoCallTime hit;
  PscDemoCallTime created;
  /* The same, only the per-frame pipeline requests. */
  PscDemoCallTime pipeline_hit;
  PscDemoCallTime pipeline_created;

  /* Sum of every kind's creations counter at the end of frame 1 and at the
   * end of the last frame. */
  guint64 creations_after_frame_1;
  guint64 creations_at_end;

  guint64 first_frame_ns;         /* frame 1, CPU + GPU (includes first-draw compilation) */
  guint64 later_frames_ns;        /* all later frames together */

  /* The last frame's draws, as its PscDrawLists sorted them. */
  guint opaque_draws;             /* by pipeline key, material, front to back */
  guint transparent_draws;        /* back to front */
  guint materials;                /* material instances (one per draw) */
  guint material_templates;

  /* From the recorder the scene used. */
  guint render_pass_begins;
  guint rendering_begins;
  guint violations;

  /* Asynchronous mode only. */
  gboolean async;
  PscDemoAsyncStats async_stats;
  PscDemoAsyncFrame *async_frames; /* n_async_frames entries, one per frame; g_free() */
  guint n_async_frames;
} PscDemoSceneResult;

void psc_demo_scene_result_clear (PscDemoSceneResult *result);

typedef struct _PscDemoScene PscDemoScene;

/* Builds the scene over @cache (whose device must have a queue): registers
 * its shaders, gets its samplers, layouts and (legacy backend) compatibility
 * passes, creates targets and uploads its meshes and texture. */
PscDemoScene *psc_demo_scene_new (PscCache *cache, const PscDemoSceneOptions *options,
                                  GError **error);
typedef enum {
  PSC_DEMO_FRAME_NONE = 0,
  /* Copy the final image to host memory (see psc_demo_scene_get_pixels). */
  PSC_DEMO_FRAME_READ_BACK = 1 << 0,
  /* Do not request pipelines: draw with the handles the previous frame got
   * (borrowed handles stay valid PSC_BORROW_FRAMES frames after their last
   * request). */
  PSC_DEMO_FRAME_KEEP_PIPELINES = 1 << 1,
  /* Asynchronous mode: request and draw the far-LOD pipelines this frame,
   * whatever the interval. */
  PSC_DEMO_FRAME_ALL_LODS = 1 << 2,
} PscDemoFrameFlags;

/* Renders one frame: psc_cache_begin_frame, requests every pipeline, records,
 * submits and waits. */
gboolean psc_demo_scene_render_frame (PscDemoScene *scene, PscDemoFrameFlags flags,
                                      GError **error);
/* Hot reload: replaces PSC_DEMO_RELOAD_SHADER's SPIR-V with
 * PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED (psc_cache_replace_shader) and
 * requests with the new module from the next frame on. Between frames. */
gboolean psc_demo_scene_reload_shader (PscDemoScene *scene, GError **error);
/* Asynchronous mode: the draw counters, and the per-frame log (owned by the
 * scene, valid until the next frame). */
void psc_demo_scene_get_async_stats (PscDemoScene *scene, PscDemoAsyncStats *stats);
const PscDemoAsyncFrame *psc_demo_scene_get_async_frames (PscDemoScene *scene, guint *n_frames);
/* Requests the scene's samplers, set and pipeline layouts and (legacy)
 * compatibility passes again with the same create infos. @all_same is set
 * to whether every returned handle equals the one the scene holds. */
gboolean psc_demo_scene_request_layouts (PscDemoScene *scene, gboolean *all_same,
                                         GError **error);
/* Recreates the targets at a new size (same formats and samples). */
gboolean psc_demo_scene_resize (PscDemoScene *scene, guint width, guint height,
                                GError **error);
/* The last read-back image (RGBA8, width * height * 4 bytes), or NULL. */
const guint8 *psc_demo_scene_get_pixels (PscDemoScene *scene, guint *width, guint *height);
/* Fills @result's counters (not the pixels) from what the scene did so far. */
void psc_demo_scene_get_result (PscDemoScene *scene, PscDemoSceneResult *result);
/* One draw the last frame recorded, in recording order. */
typedef struct {
  guint pass;                     /* 0 B, 1 C, 2 depth prepass, 3 A: the recording order */
  guint draw;                     /* the draw's index in the scene */
  gboolean transparent;           /* alpha blended: sorted back to front */
  float view_depth;
  guint64 key_hash;               /* its pipeline key's hash */
  guint material;                 /* its material instance's index */
} PscDemoDrawRecord;

/* The last frame's draws in the order they were recorded (owned by the
 * scene, valid until the next frame). */
const PscDemoDrawRecord *psc_demo_scene_get_last_draws (PscDemoScene *scene, guint *n_draws);
/* The shader modules the scene registered, in PscDemoShader order. */
VkShaderModule psc_demo_scene_get_shader (PscDemoScene *scene, PscDemoShader shader);
PscBackend psc_demo_scene_get_backend (PscDemoScene *scene);
/* Waits for the device to be idle and destroys what the scene created (not
 * what the cache owns). */
void psc_demo_scene_free (PscDemoScene *scene);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDemoScene, psc_demo_scene_free)

/* Convenience: new, options->frames frames (resizing at
 * options->resize_at_frame, reading back the last), result, free.
 * Asynchronous mode: the hot reload before options->reload_at_frame, then
 * up to options->converge_max_frames more frames requesting every LOD, until
 * one draws every pipeline exactly; that one is read back
 * (result->async_stats.converged says whether it happened). */
gboolean psc_demo_scene_run (PscCache *cache, const PscDemoSceneOptions *options,
                             PscDemoSceneResult *result, GError **error);

/* Writes an RGBA8 image as a binary PPM (alpha dropped). */
gboolean psc_demo_write_ppm (const char *path, const guint8 *rgba, guint width,
                             guint height, GError **error);

G_END_DECLS
