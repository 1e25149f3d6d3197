/* psc-resource.h: reference-counted wrappers of the application's buffers,
 * image views, samplers and buffer views, the owners managed descriptor
 * sets retain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <vulkan/vulkan.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-device.h>
#include <psocache/psc-cache.h>

G_BEGIN_DECLS

/**
 * PscResourceFlags:
 * @PSC_RESOURCE_FLAGS_NONE: the application keeps ownership of the Vulkan
 *   object: it destroys it, after the wrapper is invalidated and the GPU
 *   finished with every use
 * @PSC_RESOURCE_FLAGS_OWNED: the wrapper owns the Vulkan object and
 *   destroys it (`vkDestroyBuffer`, `vkDestroyImageView`,
 *   `vkDestroySampler`, `vkDestroyBufferView`, with the device's allocation
 *   callbacks) when its last reference is dropped; only the object named,
 *   never the memory bound to a buffer or the image under a view
 * @PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE: image views only: the view's image
 *   belongs to a swapchain. A wrapper cannot keep a swapchain image alive,
 *   so managed descriptor sets refuse such views
 * @PSC_RESOURCE_FLAGS_CACHE_ISSUED: samplers only, reported, never given:
 *   the sampler is one a [class@Psc.Cache] issued and owns (see
 *   [ctor@Psc.Sampler.new_from_cache])
 *
 * How a resource wrapper relates to its Vulkan object.
 *
 * Since: 0.3
 */
typedef enum { /*< flags >*/
  PSC_RESOURCE_FLAGS_NONE = 0,
  PSC_RESOURCE_FLAGS_OWNED = 1 << 0,
  PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE = 1 << 1,
  PSC_RESOURCE_FLAGS_CACHE_ISSUED = 1 << 2,
} PscResourceFlags PSC_AVAILABLE_TYPE_IN_0_3;

#define PSC_TYPE_BUFFER (psc_buffer_get_type ())
#define PSC_TYPE_IMAGE_VIEW (psc_image_view_get_type ())
#define PSC_TYPE_SAMPLER (psc_sampler_get_type ())
#define PSC_TYPE_BUFFER_VIEW (psc_buffer_view_get_type ())

/**
 * PscBuffer:
 *
 * A `VkBuffer` and its size. Immutable but for invalidation; reference
 * counted (atomically); any thread.
 *
 * Since: 0.3
 */
typedef struct _PscBuffer PscBuffer;

/**
 * PscImageView:
 *
 * A `VkImageView`, its `VkImage`, its normalized subresource range and
 * whether the image belongs to a swapchain. Immutable but for
 * invalidation; reference counted (atomically); any thread.
 *
 * Since: 0.3
 */
typedef struct _PscImageView PscImageView;

/**
 * PscSampler:
 *
 * A `VkSampler` the application registers. Immutable but for
 * invalidation; reference counted (atomically); any thread.
 *
 * Since: 0.3
 */
typedef struct _PscSampler PscSampler;

/**
 * PscBufferView:
 *
 * A `VkBufferView`, the [struct@Psc.Buffer] it views (retained) and its
 * format, offset and range. Immutable but for invalidation; reference
 * counted (atomically); any thread.
 *
 * Since: 0.3
 */
typedef struct _PscBufferView PscBufferView;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

PSC_AVAILABLE_IN_0_3
GType psc_buffer_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscBuffer *psc_buffer_new (PscDevice         *device,
                           VkBuffer           buffer,
                           VkDeviceSize       size,
                           PscResourceFlags   flags,
                           GError           **error);
PSC_AVAILABLE_IN_0_3
PscBuffer *psc_buffer_ref (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
void psc_buffer_unref (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
VkBuffer psc_buffer_get_handle (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_buffer_get_handle_value (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_buffer_get_size (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
PscResourceFlags psc_buffer_get_flags (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
void psc_buffer_invalidate (PscBuffer *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_buffer_is_invalidated (PscBuffer *self);

PSC_AVAILABLE_IN_0_3
GType psc_image_view_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscImageView *psc_image_view_new (PscDevice                     *device,
                                  VkImageView                    view,
                                  VkImage                        image,
                                  const VkImageSubresourceRange *range,
                                  guint32                        image_mip_levels,
                                  guint32                        image_array_layers,
                                  PscResourceFlags               flags,
                                  GError                       **error);
PSC_AVAILABLE_IN_0_3
PscImageView *psc_image_view_new_for_range (PscDevice         *device,
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
                                            GError           **error);
PSC_AVAILABLE_IN_0_3
PscImageView *psc_image_view_ref (PscImageView *self);
PSC_AVAILABLE_IN_0_3
void psc_image_view_unref (PscImageView *self);
PSC_AVAILABLE_IN_0_3
VkImageView psc_image_view_get_handle (PscImageView *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_image_view_get_handle_value (PscImageView *self);
PSC_AVAILABLE_IN_0_3
VkImage psc_image_view_get_image (PscImageView *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_image_view_get_image_value (PscImageView *self);
PSC_AVAILABLE_IN_0_3
void psc_image_view_get_range (PscImageView            *self,
                               VkImageSubresourceRange *out_range);
PSC_AVAILABLE_IN_0_3
void psc_image_view_get_range_values (PscImageView *self,
                                      guint32      *aspect_mask,
                                      guint32      *base_mip_level,
                                      guint32      *level_count,
                                      guint32      *base_array_layer,
                                      guint32      *layer_count);
PSC_AVAILABLE_IN_0_3
PscResourceFlags psc_image_view_get_flags (PscImageView *self);
PSC_AVAILABLE_IN_0_3
void psc_image_view_invalidate (PscImageView *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_image_view_is_invalidated (PscImageView *self);

PSC_AVAILABLE_IN_0_3
GType psc_sampler_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscSampler *psc_sampler_new (PscDevice         *device,
                             VkSampler          sampler,
                             PscResourceFlags   flags,
                             GError           **error);
PSC_AVAILABLE_IN_0_3
PscSampler *psc_sampler_new_from_cache (PscCache                   *cache,
                                        const VkSamplerCreateInfo  *info,
                                        GError                    **error);
PSC_AVAILABLE_IN_0_3
PscSampler *psc_sampler_new_from_cache_info (PscCache        *cache,
                                             PscSamplerInfo  *info,
                                             GError         **error);
PSC_AVAILABLE_IN_0_3
PscSampler *psc_sampler_ref (PscSampler *self);
PSC_AVAILABLE_IN_0_3
void psc_sampler_unref (PscSampler *self);
PSC_AVAILABLE_IN_0_3
VkSampler psc_sampler_get_handle (PscSampler *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_sampler_get_handle_value (PscSampler *self);
PSC_AVAILABLE_IN_0_3
PscResourceFlags psc_sampler_get_flags (PscSampler *self);
PSC_AVAILABLE_IN_0_3
void psc_sampler_invalidate (PscSampler *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_is_invalidated (PscSampler *self);

PSC_AVAILABLE_IN_0_3
GType psc_buffer_view_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscBufferView *psc_buffer_view_new (PscBuffer         *buffer,
                                    VkBufferView       view,
                                    VkFormat           format,
                                    VkDeviceSize       offset,
                                    VkDeviceSize       range,
                                    PscResourceFlags   flags,
                                    GError           **error);
PSC_AVAILABLE_IN_0_3
PscBufferView *psc_buffer_view_ref (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
void psc_buffer_view_unref (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
VkBufferView psc_buffer_view_get_handle (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_buffer_view_get_handle_value (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
PscBuffer *psc_buffer_view_get_buffer (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
VkFormat psc_buffer_view_get_format (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_buffer_view_get_format_value (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_buffer_view_get_offset (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_buffer_view_get_range (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
PscResourceFlags psc_buffer_view_get_flags (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
void psc_buffer_view_invalidate (PscBufferView *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_buffer_view_is_invalidated (PscBufferView *self);

G_GNUC_END_IGNORE_DEPRECATIONS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscBuffer, psc_buffer_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscImageView, psc_image_view_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscSampler, psc_sampler_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscBufferView, psc_buffer_view_unref)

G_END_DECLS
