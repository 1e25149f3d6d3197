/* psc-resource-private.h: what the four resource wrappers share, for the
 * descriptor layer and its caches.
 *
 * Every wrapper starts with a PscResource: its kind, its device (a
 * reference), its flags, whether it was invalidated (atomic) and the
 * listeners told of it. Listeners run on the thread that invalidates (or
 * drops the last reference of) the wrapper, once, without the wrapper's
 * lock held; they must not call back into the wrapper's listener API.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-private.h"

G_BEGIN_DECLS

typedef enum {
  PSC_RESOURCE_KIND_BUFFER,
  PSC_RESOURCE_KIND_IMAGE_VIEW,
  PSC_RESOURCE_KIND_SAMPLER,
  PSC_RESOURCE_KIND_BUFFER_VIEW,
} PscResourceKind;

/* Called once when @resource is invalidated (explicitly, or because its
 * last reference is dropped). */
typedef void (*PscResourceListener) (gpointer data, gconstpointer resource);

typedef struct {
  PscResourceKind kind;
  PscDevice *device;
  PscResourceFlags flags;
  guint64 handle;               /* the Vulkan handle, as 64 bits: identity fallback */
  gint invalidated;             /* atomic */
  GMutex lock;                  /* listeners */
  GArray *listeners;            /* Listener; NULL until the first */
} PscResource;

struct _PscBuffer {
  PscResource base;
  VkBuffer buffer;
  VkDeviceSize size;
};

struct _PscImageView {
  PscResource base;
  VkImageView view;
  VkImage image;
  VkImageSubresourceRange range; /* normalized: no VK_REMAINING_* */
};

struct _PscSampler {
  PscResource base;
  VkSampler sampler;
};

struct _PscBufferView {
  PscResource base;
  VkBufferView view;
  PscBuffer *buffer;            /* owned reference */
  VkFormat format;
  VkDeviceSize offset;
  VkDeviceSize range;           /* normalized: no VK_WHOLE_SIZE */
};

static inline gboolean
psc_resource_is_invalidated (const PscResource *r)
{
  return g_atomic_int_get ((gint *) &r->invalidated) != 0;
}

/* A subresource range member by member (each out pointer may be NULL):
 * the bindings' form of an image view's and an access's range. */
static inline void
psc_range_to_values (const VkImageSubresourceRange *r, guint32 *aspect_mask, guint32 *base_mip_level,
                     guint32 *level_count, guint32 *base_array_layer, guint32 *layer_count)
{
  if (aspect_mask != NULL)
    *aspect_mask = r->aspectMask;
  if (base_mip_level != NULL)
    *base_mip_level = r->baseMipLevel;
  if (level_count != NULL)
    *level_count = r->levelCount;
  if (base_array_layer != NULL)
    *base_array_layer = r->baseArrayLayer;
  if (layer_count != NULL)
    *layer_count = r->layerCount;
}

/* What an entry, a staged write or a uniform resource may hold, one of
 * each kind: a reference taken on each that is set, or each dropped and
 * cleared. */
static inline void
psc_owners_acquire (PscBuffer *buffer, PscImageView *view, PscSampler *sampler,
                    PscBufferView *buffer_view)
{
  if (buffer != NULL)
    psc_buffer_ref (buffer);
  if (view != NULL)
    psc_image_view_ref (view);
  if (sampler != NULL)
    psc_sampler_ref (sampler);
  if (buffer_view != NULL)
    psc_buffer_view_ref (buffer_view);
}

static inline void
psc_owners_release (PscBuffer **buffer, PscImageView **view, PscSampler **sampler,
                    PscBufferView **buffer_view)
{
  g_clear_pointer (buffer, psc_buffer_unref);
  g_clear_pointer (view, psc_image_view_unref);
  g_clear_pointer (sampler, psc_sampler_unref);
  g_clear_pointer (buffer_view, psc_buffer_view_unref);
}

/* A reference on any wrapper, through its head (the unref is the kind's:
 * the last one runs that kind's clean-up). */
PscResource *psc_resource_ref (PscResource *r);
void psc_resource_unref (PscResource *r);

/* Adds a listener; if the resource is already invalidated, @fn runs at
 * once (and FALSE is returned). */
gboolean psc_resource_add_listener (PscResource *r, PscResourceListener fn, gpointer data);
/* Removes the first listener with @fn and @data, if it has not run yet. */
void psc_resource_remove_listener (PscResource *r, PscResourceListener fn, gpointer data);

G_END_DECLS
