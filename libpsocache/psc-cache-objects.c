/* psc-cache-objects.c: PscCache's synchronous requests: shaders by SPIR-V,
 * get-or-create of every object kind, prepared keys and pins (the GObject
 * face of core/objects.c and core/pipelines.c). Every method here is row
 * (a) of the threads table, except psc_cache_get_shader_id and
 * psc_cache_is_compat_render_pass (row (b)).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <string.h>

const guint32 *
psc_spirv_words (GBytes   *spirv,
                 gsize    *size,
                 guint32 **owned)
{
  static const guint32 empty = 0;
  gconstpointer data = g_bytes_get_data (spirv, size);

  *owned = NULL;
  /* Empty bytes have no data pointer; the core then reports the size. */
  if (data == NULL)
    return &empty;
  /* GBytes from a binding or a file need not be word-aligned; the core
   * reads words, so a misaligned buffer (and only that) is copied. */
  if (((guintptr) data % G_ALIGNOF (guint32)) != 0)
    {
      *owned = g_memdup2 (data, *size);
      return *owned;
    }
  return data;
}

/**
 * psc_cache_register_shader: (skip)
 * @self: a cache
 * @code: SPIR-V words
 * @code_size: the size of @code in bytes, a multiple of 4
 * @error: return location for a #GError
 *
 * Registers SPIR-V and returns the cache's `VkShaderModule` for it. The
 * module's identity is its content: registering the same SPIR-V again returns
 * the same module and takes another reference. The module is owned by the
 * cache; balance each registration with one
 * [method@Psc.Cache.release_shader] when the application no longer requests
 * objects with it.
 *
 * Returns: the module, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkShaderModule
psc_cache_register_shader (PscCache      *self,
                           const guint32 *code,
                           gsize          code_size,
                           GError       **error)
{
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  uint32_t id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, code, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_register_shader (self->core, code, code_size, &module, &id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return module;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_register_shader_bytes:
 * @self: a cache
 * @spirv: SPIR-V code
 * @error: return location for a #GError
 *
 * Registers SPIR-V like [method@Psc.Cache.register_shader], for bindings:
 * returns the module's id instead of its handle. Ids are never 0 and are not
 * reused while the module lives.
 *
 * Returns: the shader id, or 0 with @error set
 *
 * Since: 0.1
 */
guint
psc_cache_register_shader_bytes (PscCache  *self,
                                 GBytes    *spirv,
                                 GError   **error)
{
  g_autofree guint32 *owned = NULL;
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  const guint32 *code;
  uint32_t id = 0;
  PscStatus status;
  gsize size = 0;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, spirv, 0);

  code = psc_spirv_words (spirv, &size, &owned);
  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_register_shader (self->core, code, size, &module, &id, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return 0;
    }
  return id;
}

/**
 * psc_cache_release_shader: (skip)
 * @self: a cache
 * @module: a module from [method@Psc.Cache.register_shader]
 * @error: return location for a #GError
 *
 * Drops one registration of a shader module. When the last one is dropped
 * the module is destroyed and its id dies with it: pipelines already created
 * from it stay valid and cached, but requests naming the handle fail with
 * %PSC_ERROR_FOREIGN_HANDLE (even if the driver later reuses the handle
 * value).
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
psc_cache_release_shader (PscCache        *self,
                          VkShaderModule   module,
                          GError         **error)
{
  PscCoreError core_error;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, FALSE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_release_shader (self->core, module, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_release_shader_id:
 * @self: a cache
 * @shader_id: an id from [method@Psc.Cache.register_shader_bytes]
 * @error: return location for a #GError
 *
 * Releases a shader module by id, like [method@Psc.Cache.release_shader].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
psc_cache_release_shader_id (PscCache  *self,
                             guint      shader_id,
                             GError   **error)
{
  PscCoreError core_error;
  VkShaderModule module = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, FALSE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_shader_module_for_id (self->core, shader_id, &module, &core_error);
  if (status == PSC_STATUS_OK)
    status = psc_core_release_shader (self->core, module, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_get_shader_id: (skip)
 * @self: a cache
 * @module: a shader module
 *
 * Returns the id of a module this cache issued. Owner thread only: from
 * another thread it is a programming error (a critical; 0 is returned).
 *
 * Returns: the id, or 0 if @module was not issued by this cache (or was
 *   released), or the cache is not open or closed
 *
 * Since: 0.1
 */
guint
psc_cache_get_shader_id (PscCache       *self,
                         VkShaderModule  module)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), 0);
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return 0;

  return psc_core_shader_id (self->core, module);
}

/**
 * psc_cache_get_sampler: (skip)
 * @self: a cache
 * @info: the sampler to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's sampler for @info, creating it on the first request.
 *
 * Returns: a borrowed sampler, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkSampler
psc_cache_get_sampler (PscCache                   *self,
                       const VkSamplerCreateInfo  *info,
                       GError                    **error)
{
  PscCoreError core_error;
  VkSampler out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_sampler (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_descriptor_set_layout: (skip)
 * @self: a cache
 * @info: the layout to get or create; immutable samplers must be
 *   cache-issued
 * @error: return location for a #GError
 *
 * Returns the cache's descriptor-set layout for @info, creating it on the
 * first request. The key covers the create flags and the bindings sorted by
 * binding number, so binding order in @info does not matter.
 *
 * Returns: a borrowed layout, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkDescriptorSetLayout
psc_cache_get_descriptor_set_layout (PscCache                               *self,
                                     const VkDescriptorSetLayoutCreateInfo  *info,
                                     GError                                **error)
{
  PscCoreError core_error;
  VkDescriptorSetLayout out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_set_layout (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_pipeline_layout: (skip)
 * @self: a cache
 * @info: the layout to get or create; its set layouts must be cache-issued
 * @error: return location for a #GError
 *
 * Returns the cache's pipeline layout for @info, creating it on the first
 * request.
 *
 * Returns: a borrowed layout, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkPipelineLayout
psc_cache_get_pipeline_layout (PscCache                          *self,
                               const VkPipelineLayoutCreateInfo  *info,
                               GError                           **error)
{
  PscCoreError core_error;
  VkPipelineLayout out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_pipeline_layout (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_compat_render_pass: (skip)
 * @self: a cache
 * @info: the application's execution render pass description
 * @error: return location for a #GError
 *
 * On the legacy backend, returns the cache's compatibility render pass for
 * an execution pass described by @info: a pass compatible with it under
 * Vulkan's render-pass compatibility rules (load/store operations and
 * layouts do not matter). Graphics requests name this pass.
 *
 * A compatibility pass exists only to create pipelines: it must never be
 * begun with `vkCmdBeginRenderPass`. Begin the application's own pass.
 *
 * Returns: a borrowed render pass, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkRenderPass
psc_cache_get_compat_render_pass (PscCache                      *self,
                                  const VkRenderPassCreateInfo  *info,
                                  GError                       **error)
{
  PscCoreError core_error;
  VkRenderPass out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_render_pass (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_is_compat_render_pass: (skip)
 * @self: a cache
 * @pass: a render pass
 *
 * Tells whether @pass is a compatibility render pass this cache issued, for
 * example to assert that the application never begins one. Owner thread
 * only (it reads the handle map the owner thread changes): from another
 * thread it is a programming error (a critical; %FALSE is returned).
 *
 * Returns: %TRUE if @pass is one of the cache's compatibility passes;
 *   %FALSE otherwise, and when the cache is not open or closed
 *
 * Since: 0.1
 */
gboolean
psc_cache_is_compat_render_pass (PscCache     *self,
                                 VkRenderPass  pass)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), FALSE);
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return FALSE;

  return psc_core_is_compat_render_pass (self->core, pass);
}

/**
 * psc_cache_get_graphics_pipeline: (skip)
 * @self: a cache
 * @info: the pipeline to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's graphics pipeline for @info, creating it on the first
 * request. Viewport and scissor must be dynamic states. On the
 * dynamic-rendering backend @info chains `VkPipelineRenderingCreateInfo`; on
 * the legacy backend its `renderPass` is a pass from
 * [method@Psc.Cache.get_compat_render_pass]. Shader modules and the layout
 * must be cache-issued.
 *
 * A hit allocates nothing. When the same create info is requested every
 * frame, [method@Psc.Cache.prepare_graphics_pipeline] saves canonicalizing it
 * each time.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_get_graphics_pipeline (PscCache                            *self,
                                 const VkGraphicsPipelineCreateInfo  *info,
                                 GError                             **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_graphics (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_compute_pipeline: (skip)
 * @self: a cache
 * @info: the pipeline to get or create
 * @error: return location for a #GError
 *
 * Returns the cache's compute pipeline for @info, creating it on the first
 * request. The shader module and the layout must be cache-issued.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_get_compute_pipeline (PscCache                           *self,
                                const VkComputePipelineCreateInfo  *info,
                                GError                            **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, info, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_compute (self->core, info, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

/**
 * psc_cache_get_graphics_key_size: (skip)
 * @self: a cache
 * @info: a graphics pipeline create info, as for
 *   [method@Psc.Cache.get_graphics_pipeline]
 * @error: return location for a #GError
 *
 * Validates and canonicalizes @info like a request, without looking it up or
 * creating anything, and returns the size of its canonical key: the bytes
 * that are hashed, stored and compared. For diagnostics and benchmarks.
 * A rejected @info is counted like a rejected request.
 *
 * Returns: the key size in bytes, or 0 with @error set
 *
 * Since: 0.1
 */
gsize
psc_cache_get_graphics_key_size (PscCache                            *self,
                                 const VkGraphicsPipelineCreateInfo  *info,
                                 GError                             **error)
{
  PscCoreError core_error;
  size_t size = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_graphics_key_size (self->core, info, &size, &core_error);
  if (status == PSC_STATUS_OK)
    return size;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_prepare_graphics_pipeline: (skip)
 * @self: a cache
 * @info: a graphics pipeline create info, as for
 *   [method@Psc.Cache.get_graphics_pipeline]
 * @error: return location for a #GError
 *
 * Validates and canonicalizes @info once and returns a small key id for it.
 * [method@Psc.Cache.get_prepared_pipeline] then gets the pipeline from the id
 * without reading a create info. Preparing does not create the pipeline.
 * Preparing an equal create info again returns the same id.
 *
 * Returns: a key id (never 0), or 0 with @error set
 *
 * Since: 0.1
 */
guint32
psc_cache_prepare_graphics_pipeline (PscCache                            *self,
                                     const VkGraphicsPipelineCreateInfo  *info,
                                     GError                             **error)
{
  PscCoreError core_error;
  uint32_t key_id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_prepare_graphics (self->core, info, &key_id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return key_id;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_prepare_compute_pipeline: (skip)
 * @self: a cache
 * @info: a compute pipeline create info, as for
 *   [method@Psc.Cache.get_compute_pipeline]
 * @error: return location for a #GError
 *
 * Like [method@Psc.Cache.prepare_graphics_pipeline], for compute pipelines.
 *
 * Returns: a key id (never 0), or 0 with @error set
 *
 * Since: 0.1
 */
guint32
psc_cache_prepare_compute_pipeline (PscCache                           *self,
                                    const VkComputePipelineCreateInfo  *info,
                                    GError                            **error)
{
  PscCoreError core_error;
  uint32_t key_id = 0;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, 0);
  PSC_CACHE_CHECK_INFO (self, info, 0);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_prepare_compute (self->core, info, &key_id, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return key_id;

  psc_cache_fail (error, status, &core_error);
  return 0;
}

/**
 * psc_cache_get_prepared_pipeline: (skip)
 * @self: a cache
 * @key_id: an id from [method@Psc.Cache.prepare_graphics_pipeline] or
 *   [method@Psc.Cache.prepare_compute_pipeline]
 * @error: return location for a #GError
 *
 * Returns the pipeline for a prepared key, creating it on the first request.
 * This is the cheapest way to request a pipeline every frame.
 *
 * Returns: a borrowed pipeline, or `VK_NULL_HANDLE` with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT for an unknown id)
 *
 * Since: 0.1
 */
VkPipeline
psc_cache_get_prepared_pipeline (PscCache  *self,
                                 guint32    key_id,
                                 GError   **error)
{
  PscCoreError core_error;
  VkPipeline out = VK_NULL_HANDLE;
  PscStatus status;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_get_prepared (self->core, key_id, &out, &core_error);
  if (G_LIKELY (status == PSC_STATUS_OK))
    return out;

  psc_cache_fail (error, status, &core_error);
  return VK_NULL_HANDLE;
}

static gboolean
psc_cache_pin_delta (PscCache      *self,
                     VkObjectType   type,
                     guint64        handle,
                     int            delta,
                     GError       **error)
{
  PscCoreError core_error;
  PscStatus status;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_pin (self->core, type, handle, delta, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_cache_pin: (skip)
 * @self: a cache
 * @type: the handle's object type, e.g. `VK_OBJECT_TYPE_PIPELINE`
 * @handle: a handle this cache issued, cast to 64 bits
 * @error: return location for a #GError
 *
 * Pins a borrowed handle the application holds without requesting it every
 * frame: it stays valid until as many [method@Psc.Cache.unpin] calls were
 * made, and then for %PSC_BORROW_FRAMES more frames.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *   (%PSC_ERROR_FOREIGN_HANDLE if the cache did not issue @handle)
 *
 * Since: 0.1
 */
gboolean
psc_cache_pin (PscCache      *self,
               VkObjectType   type,
               guint64        handle,
               GError       **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  return psc_cache_pin_delta (self, type, handle, +1, error);
}

/**
 * psc_cache_unpin: (skip)
 * @self: a cache
 * @type: the handle's object type
 * @handle: a handle pinned with [method@Psc.Cache.pin]
 * @error: return location for a #GError
 *
 * Undoes one [method@Psc.Cache.pin].
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
psc_cache_unpin (PscCache      *self,
                 VkObjectType   type,
                 guint64        handle,
                 GError       **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  return psc_cache_pin_delta (self, type, handle, -1, error);
}

