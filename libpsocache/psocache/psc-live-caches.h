/* psc-live-caches.h: caches of live objects made from resource wrappers:
 * managed uniform sets and legacy-backend framebuffers, removed when a
 * resource they depend on is invalidated and retired on the GPU timeline.
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
#include <psocache/psc-descriptor.h>

G_BEGIN_DECLS

/**
 * PscUniformResource:
 * @binding: the binding
 * @array_element: its element
 * @buffer: (nullable): the buffer of a (dynamic) uniform or storage buffer
 *   binding
 * @offset: the buffer's base offset
 * @range: the buffer's range, or `VK_WHOLE_SIZE`
 * @image_view: (nullable): the view of an image binding
 * @image_layout: its layout at use
 * @sampler: (nullable): the sampler of a sampler or combined image sampler
 *   binding
 * @buffer_view: (nullable): the view of a texel-buffer binding
 *
 * One resource of a uniform set, as psc_descriptor_writer_write_buffer()
 * and its siblings take it: the members the binding's type uses are set,
 * the others zero.
 *
 * Since: 0.3
 */
typedef struct {
  guint32 binding;
  guint32 array_element;
  PscBuffer *buffer;
  guint64 offset;
  guint64 range;
  PscImageView *image_view;
  VkImageLayout image_layout;
  PscSampler *sampler;
  PscBufferView *buffer_view;
} PscUniformResource;

/**
 * PscUniformSetCache:
 *
 * Managed descriptor sets keyed by (pipeline layout, set index, set
 * layout, the bound resources' identities): a lookup with the same
 * resources returns the same set while they live. Invalidating a resource
 * removes the sets that bind it; they are released once the GPU timeline
 * passes their last use. Single-threaded (see psc_uniform_set_cache_new()).
 *
 * Since: 0.3
 */
#define PSC_TYPE_UNIFORM_SET_CACHE (psc_uniform_set_cache_get_type ())
PSC_AVAILABLE_IN_0_3
G_DECLARE_FINAL_TYPE (PscUniformSetCache, psc_uniform_set_cache, PSC, UNIFORM_SET_CACHE, GObject)

/**
 * PscUniformResourceList:
 *
 * The resources of one uniform set, built slot by slot, with a reference
 * on each: the key and the contents of a
 * [method@Psc.UniformSetCache.lookup] from bindings (C code may also pass
 * an array of [struct@Psc.UniformResource]).
 *
 * Since: 0.3
 */
typedef struct _PscUniformResourceList PscUniformResourceList;
#define PSC_TYPE_UNIFORM_RESOURCE_LIST (psc_uniform_resource_list_get_type ())

/**
 * PscFramebufferCache:
 *
 * Framebuffers for the legacy backend keyed by (render pass, the
 * attachments' identities, extent, layers): the same attachments give the
 * same `VkFramebuffer` while they live. Invalidating an attachment removes
 * the framebuffers that use it; they are destroyed once the GPU timeline
 * passes their last use. Single-threaded.
 *
 * Since: 0.3
 */
#define PSC_TYPE_FRAMEBUFFER_CACHE (psc_framebuffer_cache_get_type ())
PSC_AVAILABLE_IN_0_3
G_DECLARE_FINAL_TYPE (PscFramebufferCache, psc_framebuffer_cache, PSC, FRAMEBUFFER_CACHE, GObject)

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

PSC_AVAILABLE_IN_0_3
PscUniformSetCache *psc_uniform_set_cache_new (PscDevice  *device,
                                               guint32     sets_per_pool,
                                               GError    **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorSet *psc_uniform_set_cache_lookup (PscUniformSetCache        *self,
                                                VkPipelineLayout           pipeline_layout,
                                                guint32                    set_index,
                                                PscDescriptorLayout       *layout,
                                                guint                      n_resources,
                                                const PscUniformResource  *resources,
                                                GError                   **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorSet *psc_uniform_set_cache_lookup_list (PscUniformSetCache      *self,
                                                     guint64                  pipeline_layout,
                                                     guint32                  set_index,
                                                     PscDescriptorLayout     *layout,
                                                     PscUniformResourceList  *resources,
                                                     GError                 **error);
PSC_AVAILABLE_IN_0_3
GType psc_uniform_resource_list_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscUniformResourceList *psc_uniform_resource_list_new (void);
PSC_AVAILABLE_IN_0_3
PscUniformResourceList *psc_uniform_resource_list_ref (PscUniformResourceList *self);
PSC_AVAILABLE_IN_0_3
void psc_uniform_resource_list_unref (PscUniformResourceList *self);
PSC_AVAILABLE_IN_0_3
void psc_uniform_resource_list_add_buffer (PscUniformResourceList *self,
                                           guint32                 binding,
                                           guint32                 array_element,
                                           PscBuffer              *buffer,
                                           guint64                 offset,
                                           guint64                 range);
PSC_AVAILABLE_IN_0_3
void psc_uniform_resource_list_add_image (PscUniformResourceList *self,
                                          guint32                 binding,
                                          guint32                 array_element,
                                          PscImageView           *view,
                                          guint32                 layout,
                                          PscSampler             *sampler);
PSC_AVAILABLE_IN_0_3
void psc_uniform_resource_list_add_sampler (PscUniformResourceList *self,
                                            guint32                 binding,
                                            guint32                 array_element,
                                            PscSampler             *sampler);
PSC_AVAILABLE_IN_0_3
void psc_uniform_resource_list_add_texel_buffer (PscUniformResourceList *self,
                                                 guint32                 binding,
                                                 guint32                 array_element,
                                                 PscBufferView          *view);
PSC_AVAILABLE_IN_0_3
guint psc_uniform_resource_list_get_n_resources (PscUniformResourceList *self);
PSC_AVAILABLE_IN_0_3
void psc_uniform_set_cache_begin_frame (PscUniformSetCache *self,
                                        guint64             frame,
                                        guint64             completed_timeline_value);
PSC_AVAILABLE_IN_0_3
guint psc_uniform_set_cache_get_n_entries (PscUniformSetCache *self);
PSC_AVAILABLE_IN_0_3
guint psc_uniform_set_cache_get_n_retiring (PscUniformSetCache *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_uniform_set_cache_get_hits (PscUniformSetCache *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_uniform_set_cache_get_misses (PscUniformSetCache *self);

PSC_AVAILABLE_IN_0_3
PscFramebufferCache *psc_framebuffer_cache_new (PscDevice  *device,
                                                GError    **error);
PSC_AVAILABLE_IN_0_3
VkFramebuffer psc_framebuffer_cache_lookup (PscFramebufferCache  *self,
                                            VkRenderPass          render_pass,
                                            guint                 n_attachments,
                                            PscImageView *const  *attachments,
                                            guint32               width,
                                            guint32               height,
                                            guint32               layers,
                                            GError              **error);
PSC_AVAILABLE_IN_0_3
guint64 psc_framebuffer_cache_lookup_value (PscFramebufferCache  *self,
                                            guint64               render_pass,
                                            guint                 n_attachments,
                                            PscImageView *const  *attachments,
                                            guint32               width,
                                            guint32               height,
                                            guint32               layers,
                                            GError              **error);
PSC_AVAILABLE_IN_0_3
void psc_framebuffer_cache_begin_frame (PscFramebufferCache *self,
                                        guint64              frame,
                                        guint64              completed_timeline_value);
PSC_AVAILABLE_IN_0_3
guint psc_framebuffer_cache_get_n_entries (PscFramebufferCache *self);
PSC_AVAILABLE_IN_0_3
guint psc_framebuffer_cache_get_n_retiring (PscFramebufferCache *self);

G_GNUC_END_IGNORE_DEPRECATIONS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscUniformResourceList, psc_uniform_resource_list_unref)

G_END_DECLS
