/* psc-cache-recipe.c: PscCache's methods for bindings: pipelines and their
 * parts from a PscRecipe, handles as guint64. Each builds the recipe
 * (psc-recipe-build.c) through a maker over the cache's own get-or-create
 * methods, then calls the same C method an application would: a recipe is
 * exactly its Vulkan create infos, deduplicated with them.
 *
 * Shaders a recipe names are found by content: SPIR-V the application
 * registered is that registration (hot reload and release apply to it);
 * SPIR-V nobody registered is registered by the cache for the recipe, once,
 * and that registration is kept until the cache closes. (Releasing it
 * after the request would make the pipeline unreachable: retire.c lets
 * pipelines of released shaders go after the borrow window, and the next
 * request would compile again.) The set of those registrations is the
 * cache's "psc-recipe-shaders" data.
 *
 * Every method here is row (a) of the threads table: owner thread, GError.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-build.h"

typedef struct {
  PscCache *cache;
} CacheMaker;

/* The modules the cache registered for recipes (one registration each). */
static GHashTable *
recipe_shaders (PscCache *cache)
{
  static GQuark quark;
  GHashTable *set;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("psc-recipe-shaders");
  set = g_object_get_qdata (G_OBJECT (cache), quark);
  if (set == NULL)
    {
      set = g_hash_table_new (NULL, NULL);
      g_object_set_qdata_full (G_OBJECT (cache), quark, set, (GDestroyNotify) g_hash_table_unref);
    }
  return set;
}

static gboolean
m_shader (void *ctx, const PscRecipeStage *stage, VkShaderModule *out, GError **error)
{
  CacheMaker *m = ctx;
  gsize size;
  guint32 *owned = NULL;
  const guint32 *words = psc_spirv_words (stage->spirv, &size, &owned);
  GHashTable *held = recipe_shaders (m->cache);

  *out = psc_cache_register_shader (m->cache, words, size, error);
  g_free (owned);
  if (*out == VK_NULL_HANDLE)
    return FALSE;
  /* One registration per module is the recipes': drop any other. */
  if (!g_hash_table_add (held, (gpointer) *out))
    psc_cache_release_shader (m->cache, *out, NULL);
  return TRUE;
}

static gboolean
m_sampler (void *ctx, const VkSamplerCreateInfo *ci, VkSampler *out, GError **error)
{
  *out = psc_cache_get_sampler (((CacheMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

static gboolean
m_set_layout (void *ctx, const VkDescriptorSetLayoutCreateInfo *ci, VkDescriptorSetLayout *out,
              GError **error)
{
  *out = psc_cache_get_descriptor_set_layout (((CacheMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

static gboolean
m_pipeline_layout (void *ctx, const VkPipelineLayoutCreateInfo *ci, VkPipelineLayout *out,
                   GError **error)
{
  *out = psc_cache_get_pipeline_layout (((CacheMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

static gboolean
m_render_pass (void *ctx, const VkRenderPassCreateInfo *ci, VkRenderPass *out, GError **error)
{
  *out = psc_cache_get_compat_render_pass (((CacheMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

/* Builds @recipe in @self; NULL with @error set. Release with done (). */
static PscRecipeBuild *
build (PscCache *self, PscRecipe *recipe, PscRecipeBuildWhat what, CacheMaker *m, GError **error)
{
  PscRecipeMaker maker = { m, m_shader, m_sampler, m_set_layout, m_pipeline_layout, m_render_pass };

  m->cache = self;
  return psc_recipe_build (recipe, &maker, what, error);
}

static void
done (CacheMaker *m, PscRecipeBuild *b)
{
  (void) m;
  psc_recipe_build_free (b);
}

/* The arguments of every method with a recipe. */
#define PSC_RECIPE_CHECK(self, recipe, error, val) \
  G_STMT_START { \
    PSC_CACHE_CHECK (self, error, val); \
    g_return_val_if_fail (PSC_IS_RECIPE (recipe), (val)); \
  } G_STMT_END

/**
 * psc_cache_get_pipeline_for_recipe:
 * @self: a cache
 * @recipe: a graphics or compute recipe
 * @error: return location for a #GError
 *
 * Gets or creates the pipeline a recipe describes, synchronously: the
 * recipe's shaders are found by content (SPIR-V the application registered
 * is that registration, so hot reload applies to it; SPIR-V nobody
 * registered is registered by the cache and kept until the cache closes,
 * so the pipeline stays cached and can be found again), its samplers,
 * layouts and
 * render pass made or found with the cache's get-or-create methods, and the
 * pipeline requested exactly as [method@Psc.Cache.get_graphics_pipeline]
 * (or [method@Psc.Cache.get_compute_pipeline]) requests the equivalent
 * create info, so it deduplicates with such requests. A recipe with a
 * render pass needs a cache on the legacy backend, one without it the
 * dynamic-rendering backend.
 *
 * Errors: those of [method@Psc.Recipe.validate] (field paths of the
 * recipe) and of the C methods (Vulkan field paths), including
 * %PSC_ERROR_VULKAN when the driver fails.
 *
 * Returns: the pipeline's `VkPipeline` handle as an integer (borrowed, as
 *   every handle the cache returns: see [class@Psc.Cache]), or 0 with
 *   @error set
 *
 * Since: 0.3
 */
guint64
psc_cache_get_pipeline_for_recipe (PscCache   *self,
                                   PscRecipe  *recipe,
                                   GError    **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  VkPipeline pipeline;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  b = build (self, recipe, PSC_RECIPE_BUILD_PIPELINE, &m, error);
  if (b == NULL)
    return 0;
  if (psc_recipe_get_kind (recipe) == PSC_RECIPE_KIND_GRAPHICS)
    pipeline = psc_cache_get_graphics_pipeline (self, psc_recipe_build_graphics (b), error);
  else
    pipeline = psc_cache_get_compute_pipeline (self, psc_recipe_build_compute (b), error);
  done (&m, b);
  return (guint64) (guintptr) pipeline;
}

/**
 * psc_cache_request_recipe:
 * @self: a cache
 * @recipe: a graphics or compute recipe
 * @policy: what to do when the pipeline is not Ready
 * @flags: request flags
 * @result: (out) (optional): what the request returned
 * @error: return location for a #GError
 *
 * The asynchronous request of [method@Psc.Cache.request_graphics_pipeline]
 * (or its compute counterpart) for a recipe: with %PSC_MISS_POLICY_SKIP or
 * %PSC_MISS_POLICY_FALLBACK a missing pipeline is compiled on a worker and
 * the call returns at once. There is no per-request callback: the
 * [signal@Psc.Cache::pipeline-ready] and [signal@Psc.Cache::pipeline-failed]
 * signals say when it is done (from [method@Psc.Cache.begin_frame]; their
 * key hash is [method@Psc.Cache.get_recipe_key_hash]'s), and
 * requesting the recipe again then returns it with
 * %PSC_REQUEST_RESULT_READY; or use
 * [method@Psc.Cache.get_pipeline_for_recipe_async].
 *
 * Returns: the pipeline handle as an integer (the requested one, the
 *   fallback or the previous generation's, as @result says), 0 when
 *   nothing is returned yet (%PSC_REQUEST_RESULT_PENDING) or with @error
 *   set
 *
 * Since: 0.3
 */
guint64
psc_cache_request_recipe (PscCache          *self,
                          PscRecipe         *recipe,
                          PscMissPolicy      policy,
                          PscRequestFlags    flags,
                          PscRequestResult  *result,
                          GError           **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  VkPipeline pipeline;
  PscRequestResult r = PSC_REQUEST_RESULT_PENDING;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  b = build (self, recipe, PSC_RECIPE_BUILD_PIPELINE, &m, error);
  if (b == NULL)
    return 0;
  if (psc_recipe_get_kind (recipe) == PSC_RECIPE_KIND_GRAPHICS)
    pipeline = psc_cache_request_graphics_pipeline (self, psc_recipe_build_graphics (b), policy,
                                                    flags, NULL, NULL, &r, error);
  else
    pipeline = psc_cache_request_compute_pipeline (self, psc_recipe_build_compute (b), policy,
                                                   flags, NULL, NULL, &r, error);
  done (&m, b);
  if (result != NULL)
    *result = r;
  return (guint64) (guintptr) pipeline;
}

/* psc_cache_request_recipe with a completion callback, for the scene
 * prewarm (psc-material-prewarm.c): graphics recipes only; the build is
 * freed before this returns (the request copies what it keys on). */
guint64
psc_cache_request_recipe_with_callback (PscCache           *self,
                                        PscRecipe          *recipe,
                                        PscMissPolicy       policy,
                                        PscRequestFlags     flags,
                                        PscPipelineReadyFn  callback,
                                        void               *context,
                                        PscRequestResult   *result,
                                        GError            **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  VkPipeline pipeline;
  PscRequestResult r = PSC_REQUEST_RESULT_PENDING;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  if (psc_recipe_get_kind (recipe) != PSC_RECIPE_KIND_GRAPHICS)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "recipe: a graphics recipe is needed, this is a compute recipe");
      return 0;
    }
  b = build (self, recipe, PSC_RECIPE_BUILD_PIPELINE, &m, error);
  if (b == NULL)
    return 0;
  pipeline = psc_cache_request_graphics_pipeline (self, psc_recipe_build_graphics (b), policy,
                                                  flags, callback, context, &r, error);
  done (&m, b);
  if (result != NULL)
    *result = r;
  return (guint64) (guintptr) pipeline;
}

static void
inner_done (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  VkPipeline pipeline;

  if (g_task_get_source_tag (G_TASK (res)) == psc_cache_get_graphics_pipeline_async)
    pipeline = psc_cache_get_graphics_pipeline_finish (PSC_CACHE (source), res, &error);
  else
    pipeline = psc_cache_get_compute_pipeline_finish (PSC_CACHE (source), res, &error);
  if (pipeline == VK_NULL_HANDLE)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, (gpointer) pipeline, NULL);
}

/**
 * psc_cache_get_pipeline_for_recipe_async:
 * @self: a cache
 * @recipe: a graphics or compute recipe (read before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the pipeline is Ready, has failed, or the request
 *   was cancelled
 * @user_data: data for @callback
 *
 * Gets a recipe's pipeline asynchronously, as
 * [method@Psc.Cache.get_graphics_pipeline_async] does for a create info:
 * compiled on a worker, published by [method@Psc.Cache.begin_frame], and
 * @callback then runs in the thread-default main context of the call
 * (iterate it on the owner thread, and keep calling begin_frame).
 * Cancelling takes effect at the next begin_frame.
 *
 * Since: 0.3
 */
void
psc_cache_get_pipeline_for_recipe_async (PscCache            *self,
                                         PscRecipe           *recipe,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  CacheMaker m;
  PscRecipeBuild *b;

  g_return_if_fail (PSC_IS_CACHE (self));
  g_return_if_fail (PSC_IS_RECIPE (recipe));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, psc_cache_get_pipeline_for_recipe_async);
  if (self->core == NULL)
    {
      psc_error_set_not_open (&error, self->init_error);
      g_task_return_error (task, error);
      return;
    }
  b = build (self, recipe, PSC_RECIPE_BUILD_PIPELINE, &m, &error);
  if (b == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (psc_recipe_get_kind (recipe) == PSC_RECIPE_KIND_GRAPHICS)
    psc_cache_get_graphics_pipeline_async (self, psc_recipe_build_graphics (b), cancellable,
                                           inner_done, g_object_ref (task));
  else
    psc_cache_get_compute_pipeline_async (self, psc_recipe_build_compute (b), cancellable,
                                          inner_done, g_object_ref (task));
  done (&m, b);
}

/**
 * psc_cache_get_pipeline_for_recipe_finish:
 * @self: a cache
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@Psc.Cache.get_pipeline_for_recipe_async]. Besides the
 * errors of [method@Psc.Cache.get_pipeline_for_recipe], it fails as
 * [method@Psc.Cache.get_graphics_pipeline_finish] does (%PSC_ERROR_VULKAN,
 * %PSC_ERROR_DISCARDED, %PSC_ERROR_CLOSED, %G_IO_ERROR_CANCELLED).
 *
 * Returns: the pipeline handle as an integer, or 0 with @error set
 *
 * Since: 0.3
 */
guint64
psc_cache_get_pipeline_for_recipe_finish (PscCache      *self,
                                          GAsyncResult  *result,
                                          GError       **error)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  g_return_val_if_fail (g_task_is_valid (result, self), 0);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        psc_cache_get_pipeline_for_recipe_async, 0);
  return (guint64) (guintptr) g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * psc_cache_get_recipe_key_hash:
 * @self: a cache
 * @recipe: a graphics or compute recipe
 * @hash: (out): return location for the hash
 * @error: return location for a #GError
 *
 * The hash of the canonical key a request for @recipe has in this cache,
 * as [method@Psc.Cache.get_graphics_key_hash] gives it for a create info:
 * the @key_hash of [signal@Psc.Cache::pipeline-ready] and
 * [signal@Psc.Cache::pipeline-failed], so a binding can tell which of its
 * requests a signal is about. The recipe's samplers, layouts and pass are
 * made or found (as a request would), its pipeline is not looked up.
 *
 * Returns: (skip): %TRUE with @hash set, or %FALSE with @error set (the
 *   error a request with @recipe would get)
 *
 * Since: 0.3
 */
gboolean
psc_cache_get_recipe_key_hash (PscCache   *self,
                               PscRecipe  *recipe,
                               guint64    *hash,
                               GError    **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  gboolean ok;

  PSC_RECIPE_CHECK (self, recipe, error, FALSE);
  g_return_val_if_fail (hash != NULL, FALSE);

  b = build (self, recipe, PSC_RECIPE_BUILD_PIPELINE, &m, error);
  if (b == NULL)
    return FALSE;
  if (psc_recipe_get_kind (recipe) == PSC_RECIPE_KIND_GRAPHICS)
    ok = psc_cache_get_graphics_key_hash (self, psc_recipe_build_graphics (b), hash, error);
  else
    ok = psc_cache_get_compute_key_hash (self, psc_recipe_build_compute (b), hash, error);
  done (&m, b);
  return ok;
}

/**
 * psc_cache_get_sampler_for_info:
 * @self: a cache
 * @info: a sampler description
 * @error: return location for a #GError
 *
 * Gets or creates the sampler @info describes, as
 * [method@Psc.Cache.get_sampler] does for the equivalent create info.
 *
 * Returns: the `VkSampler` handle as an integer (owned by the cache), or 0
 *   with @error set
 *
 * Since: 0.3
 */
guint64
psc_cache_get_sampler_for_info (PscCache        *self,
                                PscSamplerInfo  *info,
                                GError         **error)
{
  VkSamplerCreateInfo ci;
  VkSamplerReductionModeCreateInfo reduction;

  PSC_CACHE_CHECK (self, error, 0);
  g_return_val_if_fail (info != NULL, 0);

  psc_sampler_info_to_vk (info, &ci, &reduction);
  return (guint64) (guintptr) psc_cache_get_sampler (self, &ci, error);
}

/**
 * psc_cache_get_set_layout_for_recipe:
 * @self: a cache
 * @recipe: a recipe
 * @set: a set number of the recipe's layout
 * @error: return location for a #GError
 *
 * Gets or creates one descriptor-set layout of a recipe's pipeline layout
 * (and its immutable samplers), as
 * [method@Psc.Cache.get_descriptor_set_layout] does.
 *
 * Returns: the `VkDescriptorSetLayout` handle as an integer (owned by the
 *   cache), or 0 with @error set (%PSC_ERROR_INVALID_ARGUMENT naming
 *   `layout.sets[N]` when the recipe has no such set)
 *
 * Since: 0.3
 */
guint64
psc_cache_get_set_layout_for_recipe (PscCache   *self,
                                     PscRecipe  *recipe,
                                     guint       set,
                                     GError    **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  guint64 handle;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  if (set >= psc_recipe_get_n_set_layouts (recipe))
    {
      char path[32];
      g_snprintf (path, sizeof path, "layout.sets[%u]", set);
      psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "the recipe has %u sets",
                       psc_recipe_get_n_set_layouts (recipe));
      return 0;
    }
  b = build (self, recipe, PSC_RECIPE_BUILD_LAYOUT, &m, error);
  if (b == NULL)
    return 0;
  handle = (guint64) (guintptr) psc_recipe_build_set_layout (b, set);
  done (&m, b);
  return handle;
}

/**
 * psc_cache_get_pipeline_layout_for_recipe:
 * @self: a cache
 * @recipe: a recipe
 * @error: return location for a #GError
 *
 * Gets or creates a recipe's pipeline layout (its set layouts and
 * immutable samplers too), as [method@Psc.Cache.get_pipeline_layout] does.
 * The recipe's stages are not needed.
 *
 * Returns: the `VkPipelineLayout` handle as an integer (owned by the
 *   cache), or 0 with @error set
 *
 * Since: 0.3
 */
guint64
psc_cache_get_pipeline_layout_for_recipe (PscCache   *self,
                                          PscRecipe  *recipe,
                                          GError    **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  guint64 handle;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  b = build (self, recipe, PSC_RECIPE_BUILD_LAYOUT, &m, error);
  if (b == NULL)
    return 0;
  handle = (guint64) (guintptr) psc_recipe_build_layout (b);
  done (&m, b);
  return handle;
}

/**
 * psc_cache_get_compat_render_pass_for_recipe:
 * @self: a cache
 * @recipe: a graphics recipe with a render pass
 * @error: return location for a #GError
 *
 * Gets or creates the compatibility render pass of a recipe's execution
 * render pass, as [method@Psc.Cache.get_compat_render_pass] does.
 *
 * Returns: the `VkRenderPass` handle as an integer (owned by the cache), or
 *   0 with @error set (%PSC_ERROR_INVALID_ARGUMENT naming `render_pass`
 *   when the recipe has none)
 *
 * Since: 0.3
 */
guint64
psc_cache_get_compat_render_pass_for_recipe (PscCache   *self,
                                             PscRecipe  *recipe,
                                             GError    **error)
{
  CacheMaker m;
  PscRecipeBuild *b;
  guint64 handle;

  PSC_RECIPE_CHECK (self, recipe, error, 0);

  if (!psc_recipe_get_uses_render_pass (recipe))
    {
      psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "render_pass",
                       "the recipe uses dynamic rendering");
      return 0;
    }
  b = build (self, recipe, PSC_RECIPE_BUILD_PASS, &m, error);
  if (b == NULL)
    return 0;
  handle = (guint64) (guintptr) psc_recipe_build_render_pass (b);
  done (&m, b);
  return handle;
}

/* ------------------------------------------------------------------------
 * Handle-based methods for bindings: the C methods with Vulkan types, with
 * handles as integers and kinds as PscObjectKind.
 */

static gboolean
vk_object_type (PscObjectKind kind, VkObjectType *type, GError **error)
{
  switch (kind)
    {
    case PSC_OBJECT_KIND_SAMPLER: *type = VK_OBJECT_TYPE_SAMPLER; return TRUE;
    case PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT: *type = VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT; return TRUE;
    case PSC_OBJECT_KIND_PIPELINE_LAYOUT: *type = VK_OBJECT_TYPE_PIPELINE_LAYOUT; return TRUE;
    case PSC_OBJECT_KIND_RENDER_PASS: *type = VK_OBJECT_TYPE_RENDER_PASS; return TRUE;
    case PSC_OBJECT_KIND_GRAPHICS_PIPELINE:
    case PSC_OBJECT_KIND_COMPUTE_PIPELINE: *type = VK_OBJECT_TYPE_PIPELINE; return TRUE;
    case PSC_OBJECT_KIND_SHADER_MODULE: *type = VK_OBJECT_TYPE_SHADER_MODULE; return TRUE;
    default:
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "kind: %d is not a PscObjectKind",
                   (int) kind);
      return FALSE;
    }
}

/**
 * psc_cache_pin_object:
 * @self: a cache
 * @kind: what @handle is
 * @handle: a handle this cache issued, as an integer
 * @error: return location for a #GError
 *
 * [method@Psc.Cache.pin] for bindings: the object's kind instead of its
 * `VkObjectType`.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *   (%PSC_ERROR_FOREIGN_HANDLE if the cache did not issue @handle)
 *
 * Since: 0.3
 */
gboolean
psc_cache_pin_object (PscCache       *self,
                      PscObjectKind   kind,
                      guint64         handle,
                      GError        **error)
{
  VkObjectType type;

  PSC_CACHE_CHECK (self, error, FALSE);
  return vk_object_type (kind, &type, error) && psc_cache_pin (self, type, handle, error);
}

/**
 * psc_cache_unpin_object:
 * @self: a cache
 * @kind: what @handle is
 * @handle: a handle pinned with [method@Psc.Cache.pin_object]
 * @error: return location for a #GError
 *
 * Undoes one [method@Psc.Cache.pin_object].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_cache_unpin_object (PscCache       *self,
                        PscObjectKind   kind,
                        guint64         handle,
                        GError        **error)
{
  VkObjectType type;

  PSC_CACHE_CHECK (self, error, FALSE);
  return vk_object_type (kind, &type, error) && psc_cache_unpin (self, type, handle, error);
}

/**
 * psc_cache_set_fallback_pipeline:
 * @self: a cache
 * @pipeline: a Ready graphics pipeline of this cache, as an integer (for
 *   example from [method@Psc.Cache.get_pipeline_for_recipe])
 * @error: return location for a #GError
 *
 * [method@Psc.Cache.set_fallback] for bindings.
 *
 * Returns: %TRUE, or %FALSE with @error set (%PSC_ERROR_FOREIGN_HANDLE if
 *   @pipeline is not a Ready graphics pipeline of this cache)
 *
 * Since: 0.3
 */
gboolean
psc_cache_set_fallback_pipeline (PscCache  *self,
                                 guint64    pipeline,
                                 GError   **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  return psc_cache_set_fallback (self, (VkPipeline) (guintptr) pipeline, error);
}
