/* psc-resource-bindings.c: the resource wrappers' methods for bindings
 * (handles as guint64, Vulkan enumerations as integers, no Vulkan
 * structures), and the cache-issued sampler. Each calls or mirrors the C
 * method of the same name without the suffix.
 *
 * A non-dispatchable Vulkan handle is 64 bits on every platform (a
 * pointer on 64-bit ones, uint64_t on the others), so the integer is the
 * handle itself: what `VkDebugUtilsObjectNameInfoEXT.objectHandle` holds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-resource-private.h"
#include "psc-recipe-private.h"


G_STATIC_ASSERT (sizeof (VkBuffer) == sizeof (guint64));

#define HANDLE(h) ((guint64) (guintptr) (h))

/**
 * psc_buffer_get_handle_value: (rename-to psc_buffer_get_handle)
 * @self: a buffer
 *
 * Gets the `VkBuffer` as an integer, for bindings.
 *
 * Returns: the `VkBuffer` handle
 *
 * Since: 0.3
 */
guint64
psc_buffer_get_handle_value (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->buffer);
}

/**
 * psc_image_view_new_for_range: (rename-to psc_image_view_new)
 * @device: the device @view was created on
 * @view: the `VkImageView` handle
 * @image: the `VkImage` handle it views
 * @aspect_mask: the view's `VkImageSubresourceRange.aspectMask`
 * @base_mip_level: its `baseMipLevel`
 * @level_count: its `levelCount` (`VK_REMAINING_MIP_LEVELS` allowed)
 * @base_array_layer: its `baseArrayLayer`
 * @layer_count: its `layerCount` (`VK_REMAINING_ARRAY_LAYERS` allowed)
 * @image_mip_levels: the image's mip levels
 * @image_array_layers: the image's array layers
 * @flags: as for `psc_image_view_new()`
 * @error: return location for a #GError
 *
 * Wraps an image view, exactly as `psc_image_view_new()` does, with the
 * subresource range given member by member.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT naming the argument)
 *
 * Since: 0.3
 */
PscImageView *
psc_image_view_new_for_range (PscDevice         *device,
                              guint64            view,
                              guint64            image,
                              guint32            aspect_mask,
                              guint32            base_mip_level,
                              guint32            level_count,
                              guint32            base_array_layer,
                              guint32            layer_count,
                              guint32            image_mip_levels,
                              guint32            image_array_layers,
                              PscResourceFlags   flags,
                              GError           **error)
{
  VkImageSubresourceRange range = {
    .aspectMask = aspect_mask,
    .baseMipLevel = base_mip_level,
    .levelCount = level_count,
    .baseArrayLayer = base_array_layer,
    .layerCount = layer_count,
  };

  return psc_image_view_new (device, (VkImageView) (guintptr) view, (VkImage) (guintptr) image,
                             &range, image_mip_levels, image_array_layers, flags, error);
}

/**
 * psc_image_view_get_handle_value: (rename-to psc_image_view_get_handle)
 * @self: an image view
 *
 * Gets the `VkImageView` as an integer, for bindings.
 *
 * Returns: the `VkImageView` handle
 *
 * Since: 0.3
 */
guint64
psc_image_view_get_handle_value (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->view);
}

/**
 * psc_image_view_get_image_value: (rename-to psc_image_view_get_image)
 * @self: an image view
 *
 * Gets the `VkImage` the view views as an integer, for bindings.
 *
 * Returns: the `VkImage` handle
 *
 * Since: 0.3
 */
guint64
psc_image_view_get_image_value (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->image);
}

/**
 * psc_image_view_get_range_values: (rename-to psc_image_view_get_range)
 * @self: an image view
 * @aspect_mask: (out) (optional): the aspects
 * @base_mip_level: (out) (optional): the first mip level
 * @level_count: (out) (optional): how many levels
 * @base_array_layer: (out) (optional): the first array layer
 * @layer_count: (out) (optional): how many layers
 *
 * Gets the normalized subresource range (no `VK_REMAINING_*`) member by
 * member, for bindings.
 *
 * Since: 0.3
 */
void
psc_image_view_get_range_values (PscImageView *self,
                                 guint32      *aspect_mask,
                                 guint32      *base_mip_level,
                                 guint32      *level_count,
                                 guint32      *base_array_layer,
                                 guint32      *layer_count)
{
  g_return_if_fail (self != NULL);
  psc_range_to_values (&self->range, aspect_mask, base_mip_level, level_count, base_array_layer, layer_count);
}

/**
 * psc_sampler_get_handle_value: (rename-to psc_sampler_get_handle)
 * @self: a sampler
 *
 * Gets the `VkSampler` as an integer, for bindings.
 *
 * Returns: the `VkSampler` handle
 *
 * Since: 0.3
 */
guint64
psc_sampler_get_handle_value (PscSampler *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->sampler);
}

/**
 * psc_sampler_new_from_cache: (skip)
 * @cache: a cache (owner thread)
 * @info: the sampler, as for [method@Psc.Cache.get_sampler]
 * @error: return location for a #GError
 *
 * Wraps the cache's sampler for @info, creating it on the first request.
 * The cache owns it ([flags@Psc.ResourceFlags] reports
 * %PSC_RESOURCE_FLAGS_CACHE_ISSUED) and keeps its samplers until it
 * closes: like every handle the cache issues, the wrapper must not be
 * bound after that. Wrappers of the same sampler are distinct wrappers of
 * one handle (a render graph that deduplicates by identity should keep
 * one).
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set as
 *   [method@Psc.Cache.get_sampler] sets it
 *
 * Since: 0.3
 */
PscSampler *
psc_sampler_new_from_cache (PscCache                   *cache,
                            const VkSamplerCreateInfo  *info,
                            GError                    **error)
{
  PscSampler *self;
  VkSampler handle;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  handle = psc_cache_get_sampler (cache, info, error);
  if (handle == VK_NULL_HANDLE)
    return NULL;
  self = psc_sampler_new (psc_cache_get_device (cache), handle, PSC_RESOURCE_FLAGS_NONE, error);
  if (self != NULL)
    self->base.flags |= PSC_RESOURCE_FLAGS_CACHE_ISSUED;
  return self;
}

/**
 * psc_sampler_new_from_cache_info: (rename-to psc_sampler_new_from_cache)
 * @cache: a cache (owner thread)
 * @info: the sampler, as for [method@Psc.Cache.get_sampler_for_info]
 * @error: return location for a #GError
 *
 * Wraps the cache's sampler for @info, as `psc_sampler_new_from_cache()`
 * does for the equivalent create info.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *
 * Since: 0.3
 */
PscSampler *
psc_sampler_new_from_cache_info (PscCache        *cache,
                                 PscSamplerInfo  *info,
                                 GError         **error)
{
  VkSamplerCreateInfo ci;
  VkSamplerReductionModeCreateInfo reduction;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  psc_sampler_info_to_vk (info, &ci, &reduction);
  return psc_sampler_new_from_cache (cache, &ci, error);
}

/**
 * psc_buffer_view_get_handle_value: (rename-to psc_buffer_view_get_handle)
 * @self: a buffer view
 *
 * Gets the `VkBufferView` as an integer, for bindings.
 *
 * Returns: the `VkBufferView` handle
 *
 * Since: 0.3
 */
guint64
psc_buffer_view_get_handle_value (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->view);
}

/**
 * psc_buffer_view_get_format_value: (rename-to psc_buffer_view_get_format)
 * @self: a buffer view
 *
 * Gets its format as an integer, for bindings.
 *
 * Returns: its `VkFormat`
 *
 * Since: 0.3
 */
guint32
psc_buffer_view_get_format_value (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return (guint32) self->format;
}
