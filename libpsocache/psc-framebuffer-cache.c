/* psc-framebuffer-cache.c: PscFramebufferCache, legacy-backend
 * framebuffers keyed by (render pass, attachments, extent, layers).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-live-cache.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define PSC_FRAMEBUFFER_MAX_ATTACHMENTS 16

struct _PscFramebufferCache {
  GObject parent_instance;
  PscLiveCache live;
  PscDevice *device;
  VkDevice vk_device;
  const VkAllocationCallbacks *allocator;
  PFN_vkCreateFramebuffer create;
  PFN_vkDestroyFramebuffer destroy;
};

typedef struct {
  PscFramebufferCache *cache;
  VkFramebuffer framebuffer;
} Payload;

typedef struct {
  guint64 render_pass;
  guint32 width, height, layers, n;
  guint64 attachments[PSC_FRAMEBUFFER_MAX_ATTACHMENTS];  /* wrapper identities */
} Key;

static void
payload_destroy (gpointer data)
{
  Payload *p = data;

  p->cache->destroy (p->cache->vk_device, p->framebuffer, p->cache->allocator);
  g_free (p);
}

G_DEFINE_FINAL_TYPE (PscFramebufferCache, psc_framebuffer_cache, G_TYPE_OBJECT)

static void
psc_framebuffer_cache_finalize (GObject *object)
{
  PscFramebufferCache *self = PSC_FRAMEBUFFER_CACHE (object);

  psc_live_cache_clear (&self->live);
  g_object_unref (self->device);
  G_OBJECT_CLASS (psc_framebuffer_cache_parent_class)->finalize (object);
}

static void
psc_framebuffer_cache_class_init (PscFramebufferCacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = psc_framebuffer_cache_finalize;
}

static void
psc_framebuffer_cache_init (PscFramebufferCache *self)
{
  (void) self;
}

/**
 * psc_framebuffer_cache_new:
 * @device: a device
 * @error: return location for a #GError
 *
 * A cache of framebuffers for the legacy (render-pass) backend. It is
 * single-threaded: every call, the invalidation of every attachment, and
 * the last reference's release happen on the thread that created it. That
 * release destroys every framebuffer (cached and retiring) at once: the
 * caller guarantees the GPU no longer uses them.
 *
 * Returns: (transfer full): a new cache, or %NULL with @error set
 *
 * Since: 0.3
 */
PscFramebufferCache *
psc_framebuffer_cache_new (PscDevice  *device,
                           GError    **error)
{
  PscFramebufferCache *self;
  PFN_vkCreateFramebuffer create;
  PFN_vkDestroyFramebuffer destroy;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  create = (PFN_vkCreateFramebuffer) psc_device_get_device_proc (device, "vkCreateFramebuffer");
  destroy = (PFN_vkDestroyFramebuffer) psc_device_get_device_proc (device, "vkDestroyFramebuffer");
  if (create == NULL || destroy == NULL)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                           _("the device's framebuffer entry points cannot be loaded"));
      return NULL;
    }
  self = g_object_new (PSC_TYPE_FRAMEBUFFER_CACHE, NULL);
  psc_live_cache_init (&self->live, payload_destroy);
  self->device = g_object_ref (device);
  self->vk_device = psc_device_get_info (device)->device;
  self->allocator = psc_device_get_info (device)->allocator;
  self->create = create;
  self->destroy = destroy;
  return self;
}

static gboolean
check_attachments (PscFramebufferCache *self, guint n, PscImageView *const *attachments,
                   GError **error)
{
  if (n == 0 || n > PSC_FRAMEBUFFER_MAX_ATTACHMENTS)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("n_attachments: %u is not between 1 and %u"), n, PSC_FRAMEBUFFER_MAX_ATTACHMENTS);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      if (attachments[i] == NULL || attachments[i]->base.device != self->device)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       attachments[i] == NULL ? _("attachments[%u]: NULL")
                                              : _("attachments[%u]: made for another device"), i);
          return FALSE;
        }
      if (psc_resource_is_invalidated (&attachments[i]->base))
        {
          g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED,
                       _("attachments[%u]: the view was invalidated"), i);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * psc_framebuffer_cache_lookup: (skip)
 * @self: a cache
 * @render_pass: a render pass the framebuffer is compatible with (the
 *   cache's compatibility pass, or the application's; it must outlive the
 *   framebuffers made with it)
 * @n_attachments: 1 to 16
 * @attachments: (array length=n_attachments): the attachments' views
 *   (swapchain images included: the framebuffer does not keep them alive;
 *   invalidate their views when the swapchain goes)
 * @width: the extent
 * @height: the extent
 * @layers: the layers (1 unless multiview or layered rendering)
 * @error: return location for a #GError
 *
 * The framebuffer of those attachments: the cached one while none of them
 * was invalidated, else a new one (`vkCreateFramebuffer`). Invalidating an
 * attachment removes its framebuffers at once; each is destroyed once the
 * GPU timeline passes the last frame it was looked up in. A hit allocates
 * nothing.
 *
 * Returns: the framebuffer (the cache's), or `VK_NULL_HANDLE` with @error
 *   set (%PSC_DESCRIPTOR_ERROR_INVALIDATED for an invalidated view)
 *
 * Since: 0.3
 */
VkFramebuffer
psc_framebuffer_cache_lookup (PscFramebufferCache  *self,
                              VkRenderPass          render_pass,
                              guint                 n_attachments,
                              PscImageView *const  *attachments,
                              guint32               width,
                              guint32               height,
                              guint32               layers,
                              GError              **error)
{
  Key key;
  Payload *p;
  VkImageView views[PSC_FRAMEBUFFER_MAX_ATTACHMENTS];
  PscResource *deps[PSC_FRAMEBUFFER_MAX_ATTACHMENTS];
  VkFramebufferCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
    .renderPass = render_pass,
    .attachmentCount = n_attachments,
    .pAttachments = views,
    .width = width,
    .height = height,
    .layers = layers,
  };
  VkResult r;

  g_return_val_if_fail (PSC_IS_FRAMEBUFFER_CACHE (self), VK_NULL_HANDLE);
  g_return_val_if_fail (n_attachments == 0 || attachments != NULL, VK_NULL_HANDLE);
  g_return_val_if_fail (error == NULL || *error == NULL, VK_NULL_HANDLE);

  if (g_thread_self () != self->live.owner)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_WRONG_THREAD,
                           _("the framebuffer cache is used on the thread that made it"));
      return VK_NULL_HANDLE;
    }
  if (render_pass == VK_NULL_HANDLE || width == 0 || height == 0 || layers == 0)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           render_pass == VK_NULL_HANDLE ? _("render_pass: VK_NULL_HANDLE")
                                                         : _("width, height, layers: 0"));
      return VK_NULL_HANDLE;
    }
  if (!check_attachments (self, n_attachments, attachments, error))
    return VK_NULL_HANDLE;

  memset (&key, 0, sizeof key);
  key.render_pass = (guint64) (uintptr_t) render_pass;
  key.width = width;
  key.height = height;
  key.layers = layers;
  key.n = n_attachments;
  for (guint i = 0; i < n_attachments; i++)
    {
      key.attachments[i] = (guint64) (uintptr_t) attachments[i];
      views[i] = attachments[i]->view;
      deps[i] = &attachments[i]->base;
    }
  p = psc_live_cache_lookup (&self->live, &key, sizeof key);
  if (p != NULL)
    return p->framebuffer;

  p = g_new0 (Payload, 1);
  p->cache = self;
  r = self->create (self->vk_device, &info, self->allocator, &p->framebuffer);
  if (r != VK_SUCCESS)
    {
      g_free (p);
      g_set_error (error, PSC_ERROR, PSC_ERROR_VULKAN, _("vkCreateFramebuffer failed: VkResult %d"), (int) r);
      return VK_NULL_HANDLE;
    }
  psc_live_cache_insert (&self->live, &key, sizeof key, p, deps, n_attachments);
  return p->framebuffer;
}

/**
 * psc_framebuffer_cache_begin_frame:
 * @self: a cache
 * @frame: the frame that begins
 * @completed_timeline_value: the latest frame the GPU has completed
 *
 * Destroys the retired framebuffers whose last use the GPU has completed,
 * and starts a frame.
 *
 * Since: 0.3
 */
void
psc_framebuffer_cache_begin_frame (PscFramebufferCache *self,
                                   guint64              frame,
                                   guint64              completed_timeline_value)
{
  g_return_if_fail (PSC_IS_FRAMEBUFFER_CACHE (self));
  psc_live_cache_begin_frame (&self->live, frame, completed_timeline_value);
}

/**
 * psc_framebuffer_cache_get_n_entries:
 * @self: a cache
 *
 * Counts the cached framebuffers.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint
psc_framebuffer_cache_get_n_entries (PscFramebufferCache *self)
{
  g_return_val_if_fail (PSC_IS_FRAMEBUFFER_CACHE (self), 0);
  return psc_live_cache_n_entries (&self->live);
}

/**
 * psc_framebuffer_cache_get_n_retiring:
 * @self: a cache
 *
 * Counts the framebuffers an invalidation removed that wait for the
 * timeline.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint
psc_framebuffer_cache_get_n_retiring (PscFramebufferCache *self)
{
  g_return_val_if_fail (PSC_IS_FRAMEBUFFER_CACHE (self), 0);
  return psc_live_cache_n_retiring (&self->live);
}
