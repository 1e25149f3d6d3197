/* psc-resource.c: PscBuffer, PscImageView, PscSampler and PscBufferView,
 * the reference-counted resource wrappers managed descriptor sets retain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-resource-private.h"

#include <glib/gi18n-lib.h>

typedef struct {
  PscResourceListener fn;
  gpointer data;
} Listener;


static gboolean
check_flags (PscResourceFlags flags, PscResourceFlags allowed, GError **error)
{
  if ((flags & ~allowed) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("flags: 0x%x holds bits this wrapper does not take"), (guint) (flags & ~allowed));
      return FALSE;
    }
  return TRUE;
}

static void
resource_init (PscResource *r, PscResourceKind kind, PscDevice *device, PscResourceFlags flags,
               guint64 handle)
{
  r->kind = kind;
  r->device = g_object_ref (device);
  r->flags = flags;
  r->handle = handle;
  g_mutex_init (&r->lock);
}

/* Marks @r invalidated and runs its listeners (once). */
static void
resource_invalidate (PscResource *r)
{
  GArray *listeners;

  if (!g_atomic_int_compare_and_exchange (&r->invalidated, 0, 1))
    return;
  g_mutex_lock (&r->lock);
  listeners = g_steal_pointer (&r->listeners);
  g_mutex_unlock (&r->lock);
  if (listeners == NULL)
    return;
  for (guint i = 0; i < listeners->len; i++)
    {
      Listener *l = &g_array_index (listeners, Listener, i);
      l->fn (l->data, r);
    }
  g_array_unref (listeners);
}

gboolean
psc_resource_add_listener (PscResource *r, PscResourceListener fn, gpointer data)
{
  Listener l = { fn, data };
  gboolean added = FALSE;

  g_mutex_lock (&r->lock);
  if (!psc_resource_is_invalidated (r))
    {
      if (r->listeners == NULL)
        r->listeners = g_array_new (FALSE, FALSE, sizeof (Listener));
      g_array_append_val (r->listeners, l);
      added = TRUE;
    }
  g_mutex_unlock (&r->lock);
  if (!added)
    fn (data, r);
  return added;
}

void
psc_resource_remove_listener (PscResource *r, PscResourceListener fn, gpointer data)
{
  g_mutex_lock (&r->lock);
  for (guint i = 0; r->listeners != NULL && i < r->listeners->len; i++)
    {
      Listener *l = &g_array_index (r->listeners, Listener, i);
      if (l->fn == fn && l->data == data)
        {
          g_array_remove_index (r->listeners, i);
          break;
        }
    }
  g_mutex_unlock (&r->lock);
}

/* Destroys the Vulkan object an owning wrapper holds, with the device's
 * allocation callbacks, through the entry point of its kind. */
static void
destroy_owned (PscResource *r)
{
  static const char *const names[] = {
    [PSC_RESOURCE_KIND_BUFFER] = "vkDestroyBuffer",
    [PSC_RESOURCE_KIND_IMAGE_VIEW] = "vkDestroyImageView",
    [PSC_RESOURCE_KIND_SAMPLER] = "vkDestroySampler",
    [PSC_RESOURCE_KIND_BUFFER_VIEW] = "vkDestroyBufferView",
  };
  const PscDeviceInfo *info = psc_device_get_info (r->device);
  PFN_vkVoidFunction fn = psc_device_get_device_proc (r->device, names[r->kind]);

  if (fn == NULL)
    {
      g_warning ("%s cannot be loaded; the owned object is leaked", names[r->kind]);
      return;
    }
  switch (r->kind)
    {
    case PSC_RESOURCE_KIND_BUFFER:
      ((PFN_vkDestroyBuffer) fn) (info->device, ((PscBuffer *) r)->buffer, info->allocator);
      break;
    case PSC_RESOURCE_KIND_IMAGE_VIEW:
      ((PFN_vkDestroyImageView) fn) (info->device, ((PscImageView *) r)->view, info->allocator);
      break;
    case PSC_RESOURCE_KIND_SAMPLER:
      ((PFN_vkDestroySampler) fn) (info->device, ((PscSampler *) r)->sampler, info->allocator);
      break;
    case PSC_RESOURCE_KIND_BUFFER_VIEW:
      ((PFN_vkDestroyBufferView) fn) (info->device, ((PscBufferView *) r)->view, info->allocator);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The end of a wrapper: invalidated (listeners told), its Vulkan object
 * destroyed when owned. */
static void
resource_clear (PscResource *r)
{
  resource_invalidate (r);
  if ((r->flags & PSC_RESOURCE_FLAGS_OWNED) != 0)
    destroy_owned (r);
  g_clear_pointer (&r->listeners, g_array_unref);
  g_mutex_clear (&r->lock);
  g_object_unref (r->device);
}

/* ---------------------------------------------------------------------------
 * PscBuffer
 */

G_DEFINE_BOXED_TYPE (PscBuffer, psc_buffer, psc_buffer_ref, psc_buffer_unref)

/**
 * psc_buffer_new:
 * @device: the device @buffer was created on
 * @buffer: (type guint64): the buffer (bindings: the handle as an integer)
 * @size: (type guint64): its size in bytes (`VkBufferCreateInfo.size`), at least 1
 * @flags: %PSC_RESOURCE_FLAGS_OWNED to hand @buffer over to the wrapper
 * @error: return location for a #GError
 *
 * Wraps a buffer so that managed descriptor sets can retain it (see
 * [struct@Psc.DescriptorSet]). The wrapper keeps the `VkBuffer` handle
 * alive on the CPU side, as long as a reference exists, when it owns it;
 * a reference is never proof that the GPU finished with the buffer: the
 * application retires its use on its own timeline before it drops the last
 * reference of an owned buffer, or destroys one it kept.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT naming the argument)
 *
 * Since: 0.3
 */
PscBuffer *
psc_buffer_new (PscDevice         *device,
                VkBuffer           buffer,
                VkDeviceSize       size,
                PscResourceFlags   flags,
                GError           **error)
{
  PscBuffer *self;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (buffer == VK_NULL_HANDLE)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("buffer: VK_NULL_HANDLE"));
      return NULL;
    }
  if (size == 0 || size == VK_WHOLE_SIZE)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("size: %" G_GUINT64_FORMAT " is not a buffer size"), (guint64) size);
      return NULL;
    }
  if (!check_flags (flags, PSC_RESOURCE_FLAGS_OWNED, error))
    return NULL;

  self = g_atomic_rc_box_new0 (PscBuffer);
  resource_init (&self->base, PSC_RESOURCE_KIND_BUFFER, device, flags, (guint64) (uintptr_t) buffer);
  self->buffer = buffer;
  self->size = size;
  return self;
}

/**
 * psc_buffer_ref:
 * @self: a buffer
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscBuffer *
psc_buffer_ref (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
buffer_clear (gpointer data)
{
  PscBuffer *self = data;
  resource_clear (&self->base);
}

/**
 * psc_buffer_unref:
 * @self: (transfer full): a buffer
 *
 * Drops a reference. The last one invalidates the wrapper (see
 * [method@Psc.Buffer.invalidate]) and, if it owns the buffer, destroys it.
 *
 * Since: 0.3
 */
void
psc_buffer_unref (PscBuffer *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, buffer_clear);
}

/**
 * psc_buffer_get_handle: (skip)
 * @self: a buffer
 *
 * Gets the `VkBuffer`.
 *
 * Returns: the `VkBuffer`
 *
 * Since: 0.3
 */
VkBuffer
psc_buffer_get_handle (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->buffer;
}

/**
 * psc_buffer_get_size:
 * @self: a buffer
 *
 * Gets the buffer's size in bytes.
 *
 * Returns: the buffer's size in bytes
 *
 * Since: 0.3
 */
guint64
psc_buffer_get_size (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->size;
}

/**
 * psc_buffer_get_flags:
 * @self: a buffer
 *
 * Gets the flags it was created with.
 *
 * Returns: the flags it was created with
 *
 * Since: 0.3
 */
PscResourceFlags
psc_buffer_get_flags (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base.flags;
}

/**
 * psc_buffer_invalidate:
 * @self: a buffer
 *
 * Tells the library that the buffer is going away: from now on a managed
 * descriptor write naming it is refused, and what the library's caches
 * made from it is removed (their Vulkan objects retired on the GPU
 * timeline). Sets that already bind it keep their reference until they
 * are written again or released. Invalidating twice does nothing. Any
 * thread; the caches' clean-up runs on the calling thread.
 *
 * Since: 0.3
 */
void
psc_buffer_invalidate (PscBuffer *self)
{
  g_return_if_fail (self != NULL);
  resource_invalidate (&self->base);
}

/**
 * psc_buffer_is_invalidated:
 * @self: a buffer
 *
 * Whether the wrapper was invalidated.
 *
 * Returns: %TRUE once [method@Psc.Buffer.invalidate] was called
 *
 * Since: 0.3
 */
gboolean
psc_buffer_is_invalidated (PscBuffer *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return psc_resource_is_invalidated (&self->base);
}

/* ---------------------------------------------------------------------------
 * PscImageView
 */

G_DEFINE_BOXED_TYPE (PscImageView, psc_image_view, psc_image_view_ref, psc_image_view_unref)

/* VK_REMAINING_* resolved against the image; FALSE with @error if the range
 * does not fit. */
static gboolean
normalize_range (const VkImageSubresourceRange *in, guint32 mips, guint32 layers,
                 VkImageSubresourceRange *out, GError **error)
{
  *out = *in;
  if (in->aspectMask == 0)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("range->aspectMask: 0 names no aspect"));
      return FALSE;
    }
  if (in->baseMipLevel >= mips)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("range->baseMipLevel: %u >= image_mip_levels %u"), in->baseMipLevel, mips);
      return FALSE;
    }
  if (in->baseArrayLayer >= layers)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("range->baseArrayLayer: %u >= image_array_layers %u"), in->baseArrayLayer, layers);
      return FALSE;
    }
  if (in->levelCount == VK_REMAINING_MIP_LEVELS)
    out->levelCount = mips - in->baseMipLevel;
  if (in->layerCount == VK_REMAINING_ARRAY_LAYERS)
    out->layerCount = layers - in->baseArrayLayer;
  if (out->levelCount == 0 || out->levelCount > mips - in->baseMipLevel)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("range->levelCount: %u levels from %u do not fit %u"), in->levelCount,
                   in->baseMipLevel, mips);
      return FALSE;
    }
  if (out->layerCount == 0 || out->layerCount > layers - in->baseArrayLayer)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("range->layerCount: %u layers from %u do not fit %u"), in->layerCount,
                   in->baseArrayLayer, layers);
      return FALSE;
    }
  return TRUE;
}

/**
 * psc_image_view_new: (skip)
 * @device: the device @view was created on
 * @view: the image view
 * @image: the image it views
 * @range: the view's subresource range, as given to `vkCreateImageView`
 *   (`VK_REMAINING_MIP_LEVELS` and `VK_REMAINING_ARRAY_LAYERS` allowed)
 * @image_mip_levels: the image's mip levels
 * @image_array_layers: the image's array layers
 * @flags: %PSC_RESOURCE_FLAGS_OWNED to hand @view over (never @image);
 *   %PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE if @image belongs to a swapchain
 * @error: return location for a #GError
 *
 * Wraps an image view. Its range is kept normalized (no `VK_REMAINING_*`),
 * the range a descriptor access covers. The wrapper never owns @image: the
 * application keeps the image alive while the view is used, and a
 * swapchain image cannot be kept alive by a wrapper at all, so managed
 * descriptor sets refuse views flagged %PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT naming the argument)
 *
 * Since: 0.3
 */
PscImageView *
psc_image_view_new (PscDevice                     *device,
                    VkImageView                    view,
                    VkImage                        image,
                    const VkImageSubresourceRange *range,
                    guint32                        image_mip_levels,
                    guint32                        image_array_layers,
                    PscResourceFlags               flags,
                    GError                       **error)
{
  PscImageView *self;
  VkImageSubresourceRange normalized;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (range != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (view == VK_NULL_HANDLE || image == VK_NULL_HANDLE)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           view == VK_NULL_HANDLE ? _("view: VK_NULL_HANDLE") : _("image: VK_NULL_HANDLE"));
      return NULL;
    }
  if (image_mip_levels == 0 || image_array_layers == 0)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           image_mip_levels == 0 ? _("image_mip_levels: 0") : _("image_array_layers: 0"));
      return NULL;
    }
  if (!check_flags (flags, PSC_RESOURCE_FLAGS_OWNED | PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE, error) ||
      !normalize_range (range, image_mip_levels, image_array_layers, &normalized, error))
    return NULL;

  self = g_atomic_rc_box_new0 (PscImageView);
  resource_init (&self->base, PSC_RESOURCE_KIND_IMAGE_VIEW, device, flags, (guint64) (uintptr_t) view);
  self->view = view;
  self->image = image;
  self->range = normalized;
  return self;
}

/**
 * psc_image_view_ref:
 * @self: an image view
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscImageView *
psc_image_view_ref (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
image_view_clear (gpointer data)
{
  PscImageView *self = data;
  resource_clear (&self->base);
}

/**
 * psc_image_view_unref:
 * @self: (transfer full): an image view
 *
 * Drops a reference. The last one invalidates the wrapper and, if it owns
 * the view, destroys it (never the image).
 *
 * Since: 0.3
 */
void
psc_image_view_unref (PscImageView *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, image_view_clear);
}

/**
 * psc_image_view_get_handle: (skip)
 * @self: an image view
 *
 * Gets the `VkImageView`.
 *
 * Returns: the `VkImageView`
 *
 * Since: 0.3
 */
VkImageView
psc_image_view_get_handle (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->view;
}

/**
 * psc_image_view_get_image: (skip)
 * @self: an image view
 *
 * Gets the `VkImage` the view views.
 *
 * Returns: the `VkImage` the view views
 *
 * Since: 0.3
 */
VkImage
psc_image_view_get_image (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->image;
}

/**
 * psc_image_view_get_range: (skip)
 * @self: an image view
 * @out_range: (out caller-allocates): the normalized subresource range
 *
 * The view's subresource range with `VK_REMAINING_*` resolved.
 *
 * Since: 0.3
 */
void
psc_image_view_get_range (PscImageView            *self,
                          VkImageSubresourceRange *out_range)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out_range != NULL);
  *out_range = self->range;
}

/**
 * psc_image_view_get_flags:
 * @self: an image view
 *
 * Gets the flags it was created with.
 *
 * Returns: the flags it was created with
 *
 * Since: 0.3
 */
PscResourceFlags
psc_image_view_get_flags (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base.flags;
}

/**
 * psc_image_view_invalidate:
 * @self: an image view
 *
 * As [method@Psc.Buffer.invalidate], for an image view.
 *
 * Since: 0.3
 */
void
psc_image_view_invalidate (PscImageView *self)
{
  g_return_if_fail (self != NULL);
  resource_invalidate (&self->base);
}

/**
 * psc_image_view_is_invalidated:
 * @self: an image view
 *
 * Whether the wrapper was invalidated.
 *
 * Returns: %TRUE once [method@Psc.ImageView.invalidate] was called
 *
 * Since: 0.3
 */
gboolean
psc_image_view_is_invalidated (PscImageView *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return psc_resource_is_invalidated (&self->base);
}

/* ---------------------------------------------------------------------------
 * PscSampler
 */

G_DEFINE_BOXED_TYPE (PscSampler, psc_sampler, psc_sampler_ref, psc_sampler_unref)

/**
 * psc_sampler_new:
 * @device: the device @sampler was created on
 * @sampler: (type guint64): the sampler (bindings: the handle as an
 *   integer): the application's, or one a [class@Psc.Cache]
 *   issued (then without %PSC_RESOURCE_FLAGS_OWNED: the cache owns it and
 *   keeps samplers until it closes)
 * @flags: %PSC_RESOURCE_FLAGS_OWNED to hand @sampler over
 * @error: return location for a #GError
 *
 * Wraps a sampler.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *
 * Since: 0.3
 */
PscSampler *
psc_sampler_new (PscDevice         *device,
                 VkSampler          sampler,
                 PscResourceFlags   flags,
                 GError           **error)
{
  PscSampler *self;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (sampler == VK_NULL_HANDLE)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("sampler: VK_NULL_HANDLE"));
      return NULL;
    }
  if (!check_flags (flags, PSC_RESOURCE_FLAGS_OWNED, error))
    return NULL;
  self = g_atomic_rc_box_new0 (PscSampler);
  resource_init (&self->base, PSC_RESOURCE_KIND_SAMPLER, device, flags, (guint64) (uintptr_t) sampler);
  self->sampler = sampler;
  return self;
}

/**
 * psc_sampler_ref:
 * @self: a sampler
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscSampler *
psc_sampler_ref (PscSampler *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
sampler_clear (gpointer data)
{
  PscSampler *self = data;
  resource_clear (&self->base);
}

/**
 * psc_sampler_unref:
 * @self: (transfer full): a sampler
 *
 * Drops a reference. The last one invalidates the wrapper and, if it owns
 * the sampler, destroys it.
 *
 * Since: 0.3
 */
void
psc_sampler_unref (PscSampler *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, sampler_clear);
}

/**
 * psc_sampler_get_handle: (skip)
 * @self: a sampler
 *
 * Gets the `VkSampler`.
 *
 * Returns: the `VkSampler`
 *
 * Since: 0.3
 */
VkSampler
psc_sampler_get_handle (PscSampler *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->sampler;
}

/**
 * psc_sampler_get_flags:
 * @self: a sampler
 *
 * Gets the flags it was created with.
 *
 * Returns: the flags it was created with
 *
 * Since: 0.3
 */
PscResourceFlags
psc_sampler_get_flags (PscSampler *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base.flags;
}

/**
 * psc_sampler_invalidate:
 * @self: a sampler
 *
 * As [method@Psc.Buffer.invalidate], for a sampler.
 *
 * Since: 0.3
 */
void
psc_sampler_invalidate (PscSampler *self)
{
  g_return_if_fail (self != NULL);
  resource_invalidate (&self->base);
}

/**
 * psc_sampler_is_invalidated:
 * @self: a sampler
 *
 * Whether the wrapper was invalidated.
 *
 * Returns: %TRUE once [method@Psc.Sampler.invalidate] was called
 *
 * Since: 0.3
 */
gboolean
psc_sampler_is_invalidated (PscSampler *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return psc_resource_is_invalidated (&self->base);
}

/* ---------------------------------------------------------------------------
 * PscBufferView
 */

G_DEFINE_BOXED_TYPE (PscBufferView, psc_buffer_view, psc_buffer_view_ref, psc_buffer_view_unref)

/**
 * psc_buffer_view_new:
 * @buffer: the buffer @view views (retained by the wrapper)
 * @view: (type guint64): the buffer view (bindings: the handle as an
 *   integer)
 * @format: (type guint32): its `VkFormat`
 * @offset: (type guint64): its offset in @buffer, as given to
 *   `vkCreateBufferView`
 * @range: (type guint64): its range, or `VK_WHOLE_SIZE` (normalized to the rest of
 *   @buffer)
 * @flags: %PSC_RESOURCE_FLAGS_OWNED to hand @view over (never @buffer)
 * @error: return location for a #GError
 *
 * Wraps a buffer view of a wrapped buffer. The range must lie inside the
 * buffer.
 *
 * Returns: (transfer full): a new wrapper, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT naming the argument)
 *
 * Since: 0.3
 */
PscBufferView *
psc_buffer_view_new (PscBuffer         *buffer,
                     VkBufferView       view,
                     VkFormat           format,
                     VkDeviceSize       offset,
                     VkDeviceSize       range,
                     PscResourceFlags   flags,
                     GError           **error)
{
  PscBufferView *self;

  g_return_val_if_fail (buffer != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (view == VK_NULL_HANDLE)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("view: VK_NULL_HANDLE"));
      return NULL;
    }
  if (format == VK_FORMAT_UNDEFINED)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("format: VK_FORMAT_UNDEFINED"));
      return NULL;
    }
  if (offset >= buffer->size)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("offset: %" G_GUINT64_FORMAT " >= the buffer's size %" G_GUINT64_FORMAT),
                   (guint64) offset, (guint64) buffer->size);
      return NULL;
    }
  if (range == VK_WHOLE_SIZE)
    range = buffer->size - offset;
  if (range == 0 || range > buffer->size - offset)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("range: %" G_GUINT64_FORMAT " bytes from %" G_GUINT64_FORMAT
                     " do not fit the buffer's %" G_GUINT64_FORMAT),
                   (guint64) range, (guint64) offset, (guint64) buffer->size);
      return NULL;
    }
  if (!check_flags (flags, PSC_RESOURCE_FLAGS_OWNED, error))
    return NULL;

  self = g_atomic_rc_box_new0 (PscBufferView);
  resource_init (&self->base, PSC_RESOURCE_KIND_BUFFER_VIEW, buffer->base.device, flags,
                 (guint64) (uintptr_t) view);
  self->view = view;
  self->buffer = psc_buffer_ref (buffer);
  self->format = format;
  self->offset = offset;
  self->range = range;
  return self;
}

/**
 * psc_buffer_view_ref:
 * @self: a buffer view
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscBufferView *
psc_buffer_view_ref (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
buffer_view_clear (gpointer data)
{
  PscBufferView *self = data;

  resource_clear (&self->base);
  psc_buffer_unref (self->buffer);
}

/**
 * psc_buffer_view_unref:
 * @self: (transfer full): a buffer view
 *
 * Drops a reference. The last one invalidates the wrapper, destroys the
 * view if it owns it, and drops its reference on the buffer.
 *
 * Since: 0.3
 */
void
psc_buffer_view_unref (PscBufferView *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, buffer_view_clear);
}

/**
 * psc_buffer_view_get_handle: (skip)
 * @self: a buffer view
 *
 * Gets the `VkBufferView`.
 *
 * Returns: the `VkBufferView`
 *
 * Since: 0.3
 */
VkBufferView
psc_buffer_view_get_handle (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->view;
}

/**
 * psc_buffer_view_get_buffer:
 * @self: a buffer view
 *
 * Gets the buffer the view views.
 *
 * Returns: (transfer none): the buffer it views
 *
 * Since: 0.3
 */
PscBuffer *
psc_buffer_view_get_buffer (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->buffer;
}

/**
 * psc_buffer_view_get_format: (skip)
 * @self: a buffer view
 *
 * Gets its format.
 *
 * Returns: its format
 *
 * Since: 0.3
 */
VkFormat
psc_buffer_view_get_format (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, VK_FORMAT_UNDEFINED);
  return self->format;
}

/**
 * psc_buffer_view_get_offset:
 * @self: a buffer view
 *
 * Gets its offset in the buffer.
 *
 * Returns: its offset in the buffer
 *
 * Since: 0.3
 */
guint64
psc_buffer_view_get_offset (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->offset;
}

/**
 * psc_buffer_view_get_range:
 * @self: a buffer view
 *
 * Gets its range in bytes.
 *
 * Returns: its range in bytes (never `VK_WHOLE_SIZE`)
 *
 * Since: 0.3
 */
guint64
psc_buffer_view_get_range (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->range;
}

/**
 * psc_buffer_view_get_flags:
 * @self: a buffer view
 *
 * Gets the flags it was created with.
 *
 * Returns: the flags it was created with
 *
 * Since: 0.3
 */
PscResourceFlags
psc_buffer_view_get_flags (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base.flags;
}

/**
 * psc_buffer_view_invalidate:
 * @self: a buffer view
 *
 * As [method@Psc.Buffer.invalidate], for a buffer view (its buffer is not
 * invalidated).
 *
 * Since: 0.3
 */
void
psc_buffer_view_invalidate (PscBufferView *self)
{
  g_return_if_fail (self != NULL);
  resource_invalidate (&self->base);
}

/**
 * psc_buffer_view_is_invalidated:
 * @self: a buffer view
 *
 * Whether the wrapper was invalidated.
 *
 * Returns: %TRUE once [method@Psc.BufferView.invalidate] was called
 *
 * Since: 0.3
 */
gboolean
psc_buffer_view_is_invalidated (PscBufferView *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return psc_resource_is_invalidated (&self->base);
}

PscResource *
psc_resource_ref (PscResource *r)
{
  g_atomic_rc_box_acquire (r);
  return r;
}

void
psc_resource_unref (PscResource *r)
{
  switch (r->kind)
    {
    case PSC_RESOURCE_KIND_BUFFER:
      psc_buffer_unref ((PscBuffer *) r);
      break;
    case PSC_RESOURCE_KIND_IMAGE_VIEW:
      psc_image_view_unref ((PscImageView *) r);
      break;
    case PSC_RESOURCE_KIND_SAMPLER:
      psc_sampler_unref ((PscSampler *) r);
      break;
    case PSC_RESOURCE_KIND_BUFFER_VIEW:
      psc_buffer_view_unref ((PscBufferView *) r);
      break;
    default:
      g_assert_not_reached ();
    }
}
