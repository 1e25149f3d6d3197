/* psc-live-cache-bindings.c: the live caches' methods for bindings:
 * PscUniformResourceList (a uniform set's resources built slot by slot,
 * with references) and its lookup, and the framebuffer lookup with handles
 * as guint64. Each calls the C method without the suffix.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-resource-private.h"

struct _PscUniformResourceList {
  GArray *items;                /* PscUniformResource, holding references */
};

static void
resource_clear (gpointer data)
{
  PscUniformResource *r = data;

  psc_owners_release (&r->buffer, &r->image_view, &r->sampler, &r->buffer_view);
}

G_DEFINE_BOXED_TYPE (PscUniformResourceList, psc_uniform_resource_list,
                     psc_uniform_resource_list_ref, psc_uniform_resource_list_unref)

/**
 * psc_uniform_resource_list_new:
 *
 * An empty list of a uniform set's resources.
 *
 * Returns: (transfer full): a new list
 *
 * Since: 0.3
 */
PscUniformResourceList *
psc_uniform_resource_list_new (void)
{
  PscUniformResourceList *self = g_atomic_rc_box_new0 (PscUniformResourceList);

  self->items = g_array_new (FALSE, TRUE, sizeof (PscUniformResource));
  g_array_set_clear_func (self->items, resource_clear);
  return self;
}

/**
 * psc_uniform_resource_list_ref:
 * @self: a list
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscUniformResourceList *
psc_uniform_resource_list_ref (PscUniformResourceList *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
list_clear (gpointer data)
{
  PscUniformResourceList *self = data;
  g_array_unref (self->items);
}

/**
 * psc_uniform_resource_list_unref:
 * @self: (transfer full): a list
 *
 * Drops a reference; the last one releases the resources' references.
 *
 * Since: 0.3
 */
void
psc_uniform_resource_list_unref (PscUniformResourceList *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, list_clear);
}

static PscUniformResource *
add (PscUniformResourceList *self, guint32 binding, guint32 array_element)
{
  PscUniformResource r = { .binding = binding, .array_element = array_element };

  g_array_append_val (self->items, r);
  return &g_array_index (self->items, PscUniformResource, self->items->len - 1);
}

/**
 * psc_uniform_resource_list_add_buffer:
 * @self: a list
 * @binding: a (dynamic) uniform or storage buffer binding
 * @array_element: the element
 * @buffer: the buffer
 * @offset: its base offset
 * @range: its range, or `VK_WHOLE_SIZE`
 *
 * Adds a buffer slot. Checked at the lookup, as a writer checks it.
 *
 * Since: 0.3
 */
void
psc_uniform_resource_list_add_buffer (PscUniformResourceList *self,
                                      guint32                 binding,
                                      guint32                 array_element,
                                      PscBuffer              *buffer,
                                      guint64                 offset,
                                      guint64                 range)
{
  PscUniformResource *r;

  g_return_if_fail (self != NULL);
  g_return_if_fail (buffer != NULL);
  r = add (self, binding, array_element);
  r->buffer = psc_buffer_ref (buffer);
  r->offset = offset;
  r->range = range;
}

/**
 * psc_uniform_resource_list_add_image:
 * @self: a list
 * @binding: a sampled image, storage image or combined image sampler
 *   binding
 * @array_element: the element
 * @view: the image view
 * @layout: the image's `VkImageLayout` at use
 * @sampler: (nullable): the sampler of a combined image sampler
 *
 * Adds an image slot. Checked at the lookup.
 *
 * Since: 0.3
 */
void
psc_uniform_resource_list_add_image (PscUniformResourceList *self,
                                     guint32                 binding,
                                     guint32                 array_element,
                                     PscImageView           *view,
                                     guint32                 layout,
                                     PscSampler             *sampler)
{
  PscUniformResource *r;

  g_return_if_fail (self != NULL);
  g_return_if_fail (view != NULL);
  r = add (self, binding, array_element);
  r->image_view = psc_image_view_ref (view);
  r->image_layout = (VkImageLayout) layout;
  r->sampler = sampler != NULL ? psc_sampler_ref (sampler) : NULL;
}

/**
 * psc_uniform_resource_list_add_sampler:
 * @self: a list
 * @binding: a sampler binding
 * @array_element: the element
 * @sampler: the sampler
 *
 * Adds a sampler slot. Checked at the lookup.
 *
 * Since: 0.3
 */
void
psc_uniform_resource_list_add_sampler (PscUniformResourceList *self,
                                       guint32                 binding,
                                       guint32                 array_element,
                                       PscSampler             *sampler)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (sampler != NULL);
  add (self, binding, array_element)->sampler = psc_sampler_ref (sampler);
}

/**
 * psc_uniform_resource_list_add_texel_buffer:
 * @self: a list
 * @binding: a uniform or storage texel buffer binding
 * @array_element: the element
 * @view: the buffer view
 *
 * Adds a texel-buffer slot. Checked at the lookup.
 *
 * Since: 0.3
 */
void
psc_uniform_resource_list_add_texel_buffer (PscUniformResourceList *self,
                                            guint32                 binding,
                                            guint32                 array_element,
                                            PscBufferView          *view)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (view != NULL);
  add (self, binding, array_element)->buffer_view = psc_buffer_view_ref (view);
}

/**
 * psc_uniform_resource_list_get_n_resources:
 * @self: a list
 *
 * Counts the slots added.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint
psc_uniform_resource_list_get_n_resources (PscUniformResourceList *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->items->len;
}

/**
 * psc_uniform_set_cache_lookup_list: (rename-to psc_uniform_set_cache_lookup)
 * @self: a cache
 * @pipeline_layout: the `VkPipelineLayout` handle the set is bound with
 * @set_index: the set index it is bound at
 * @layout: the set's layout
 * @resources: what its slots bind, in order
 * @error: return location for a #GError
 *
 * `psc_uniform_set_cache_lookup()` with the resources of a list (the key
 * is the same as for an array of the same resources in the same order).
 *
 * Returns: (transfer none): the set, valid for the frame it was looked up
 *   in, or %NULL with @error set
 *
 * Since: 0.3
 */
PscDescriptorSet *
psc_uniform_set_cache_lookup_list (PscUniformSetCache      *self,
                                   guint64                  pipeline_layout,
                                   guint32                  set_index,
                                   PscDescriptorLayout     *layout,
                                   PscUniformResourceList  *resources,
                                   GError                 **error)
{
  g_return_val_if_fail (resources != NULL, NULL);
  return psc_uniform_set_cache_lookup (self, (VkPipelineLayout) (guintptr) pipeline_layout,
                                       set_index, layout, resources->items->len,
                                       (const PscUniformResource *) resources->items->data, error);
}

/**
 * psc_framebuffer_cache_lookup_value: (rename-to psc_framebuffer_cache_lookup)
 * @self: a cache
 * @render_pass: the `VkRenderPass` handle (as for
 *   `psc_framebuffer_cache_lookup()`)
 * @n_attachments: 1 to 16
 * @attachments: (array length=n_attachments): the attachments' views
 * @width: the extent
 * @height: the extent
 * @layers: the layers
 * @error: return location for a #GError
 *
 * `psc_framebuffer_cache_lookup()` with handles as integers, for bindings.
 *
 * Returns: the `VkFramebuffer` handle (the cache's), or 0 with @error set
 *
 * Since: 0.3
 */
guint64
psc_framebuffer_cache_lookup_value (PscFramebufferCache  *self,
                                    guint64               render_pass,
                                    guint                 n_attachments,
                                    PscImageView *const  *attachments,
                                    guint32               width,
                                    guint32               height,
                                    guint32               layers,
                                    GError              **error)
{
  return (guint64) (guintptr) psc_framebuffer_cache_lookup (self, (VkRenderPass) (guintptr) render_pass,
                                                            n_attachments, attachments, width, height,
                                                            layers, error);
}
