/* psc-descriptor-set.c: PscDescriptorSet, a managed set and its binding
 * map; its entries; the untracked escape hatch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (PscDescriptorSet, psc_descriptor_set,
                     psc_descriptor_set_ref, psc_descriptor_set_unref)

void
psc_descriptor_entry_clear (PscDescriptorEntry *e)
{
  psc_owners_release (&e->buffer, &e->view, &e->sampler, &e->buffer_view);
  memset (e, 0, sizeof *e);
}

gboolean
psc_descriptor_set_check_fresh (const PscDescriptorSet *set, GError **error)
{
  if (G_LIKELY (set->generation == set->pool->generation))
    return TRUE;
  g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET,
               _("the set is stale: it was allocated in pool generation %" G_GUINT64_FORMAT
                 ", and the pool was reset or destroyed since (generation %" G_GUINT64_FORMAT ")"),
               set->generation, set->pool->generation);
  return FALSE;
}

static void
set_clear (gpointer data)
{
  PscDescriptorSet *self = data;

  for (guint32 i = 0; i < self->layout->n_slots; i++)
    psc_descriptor_entry_clear (&self->slots[i]);
  g_free (self->slots);
  psc_descriptor_layout_unref (self->layout);
  psc_descriptor_pool_unref (self->pool);
}

/**
 * psc_descriptor_set_ref:
 * @self: a set
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscDescriptorSet *
psc_descriptor_set_ref (PscDescriptorSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

/**
 * psc_descriptor_set_unref:
 * @self: (transfer full): a set
 *
 * Drops a reference. The last one releases what the set's entries retain
 * (the `VkDescriptorSet` returns to its pool at the pool's next reset).
 * Releasing owners the GPU may still use is the caller's to avoid: a
 * reference is not proof of GPU retirement.
 *
 * Since: 0.3
 */
void
psc_descriptor_set_unref (PscDescriptorSet *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, set_clear);
}

/**
 * psc_descriptor_set_get_handle:
 * @self: a managed set
 * @out_set: (out) (type guint64): the `VkDescriptorSet`
 * @error: return location for a #GError
 *
 * The raw handle, if the set is not stale. Once returned it escapes the
 * wrapper: a later reset of the pool invalidates it without the wrapper
 * being able to revoke it (see [method@Psc.DescriptorPool.reset_unlocked]).
 *
 * Returns: (skip): %TRUE on success, %FALSE with
 *   %PSC_DESCRIPTOR_ERROR_STALE_SET
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_set_get_handle (PscDescriptorSet  *self,
                               VkDescriptorSet   *out_set,
                               GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out_set != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out_set = VK_NULL_HANDLE;
  if (!psc_descriptor_set_check_fresh (self, error))
    return FALSE;
  *out_set = self->handle;
  return TRUE;
}

/**
 * psc_descriptor_set_get_layout:
 * @self: a set
 *
 * Gets the set's layout.
 *
 * Returns: (transfer none): the set's layout
 *
 * Since: 0.3
 */
PscDescriptorLayout *
psc_descriptor_set_get_layout (PscDescriptorSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->layout;
}

/**
 * psc_descriptor_set_get_generation:
 * @self: a set
 *
 * Gets the pool generation the set was allocated in.
 *
 * Returns: the pool generation the set was allocated in
 *
 * Since: 0.3
 */
guint64
psc_descriptor_set_get_generation (PscDescriptorSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->generation;
}

/**
 * psc_descriptor_set_is_stale:
 * @self: a set
 *
 * Whether the set's pool was reset or destroyed since its allocation.
 *
 * Returns: %TRUE if its pool was reset or destroyed since its allocation
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_set_is_stale (PscDescriptorSet *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return self->generation != self->pool->generation;
}

/**
 * psc_descriptor_set_get_variable_count:
 * @self: a set
 *
 * Gets the variable binding's count it was allocated with.
 *
 * Returns: the variable binding's count it was allocated with (0 if none)
 *
 * Since: 0.3
 */
guint32
psc_descriptor_set_get_variable_count (PscDescriptorSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->variable_count;
}

/* The slot of (@binding, @element), or -1 with @error naming which. */
static gint64
find_slot (const PscDescriptorSet *set, guint32 binding, guint32 element, GError **error)
{
  const PscBindingFacts *b = psc_descriptor_layout_find (set->layout, binding);

  if (b == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("binding: %u is not in the set's layout"), binding);
      return -1;
    }
  if (element >= psc_descriptor_set_binding_count (set, b))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("array_element: %u >= binding %u's count %u"), element, binding,
                   psc_descriptor_set_binding_count (set, b));
      return -1;
    }
  return (gint64) b->first_slot + element;
}

/**
 * psc_descriptor_set_get_entry:
 * @self: a managed set
 * @binding: a binding of its layout
 * @array_element: an element of it
 * @error: return location for a #GError
 *
 * What a slot of the binding map holds: an empty slot, an entry written
 * by a writer (with the resources it retains), or one written untracked.
 *
 * Returns: (transfer none): the entry, valid until the set's next commit,
 *   untracked write or release; %NULL with @error set
 *   (%PSC_DESCRIPTOR_ERROR_STALE_SET, %PSC_ERROR_INVALID_ARGUMENT for a
 *   binding or element out of range)
 *
 * Since: 0.3
 */
const PscDescriptorEntry *
psc_descriptor_set_get_entry (PscDescriptorSet  *self,
                              guint32            binding,
                              guint32            array_element,
                              GError           **error)
{
  gint64 slot;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!psc_descriptor_set_check_fresh (self, error))
    return NULL;
  slot = find_slot (self, binding, array_element, error);
  return slot < 0 ? NULL : &self->slots[slot];
}

/**
 * psc_descriptor_set_write_raw_untracked: (skip)
 * @self: a managed set
 * @n_writes: how many writes
 * @writes: (array length=n_writes): Vulkan writes; their `dstSet` must be
 *   the set's handle or `VK_NULL_HANDLE` (then the set's is used)
 * @error: return location for a #GError
 *
 * The escape hatch for what managed writes refuse (a swapchain image, for
 * example): the writes go to `vkUpdateDescriptorSets` unvalidated, and
 * every slot they cover becomes *untracked*: it retains nothing (the
 * owners it held are released) and keeps the caller responsible for the
 * lifetime of what it binds. Only the set's staleness and the slots'
 * bounds are checked.
 *
 * Returns: %TRUE on success, %FALSE with @error set (nothing written)
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_set_write_raw_untracked (PscDescriptorSet            *self,
                                        guint32                      n_writes,
                                        const VkWriteDescriptorSet  *writes,
                                        GError                     **error)
{
  g_autofree VkWriteDescriptorSet *copy = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_writes == 0 || writes != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!psc_descriptor_set_check_fresh (self, error))
    return FALSE;
  for (guint32 i = 0; i < n_writes; i++)
    {
      const VkWriteDescriptorSet *w = &writes[i];

      if (w->dstSet != VK_NULL_HANDLE && w->dstSet != self->handle)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("writes[%u].dstSet: another set than this one"), i);
          return FALSE;
        }
      for (guint32 k = 0; k < w->descriptorCount; k++)
        if (find_slot (self, w->dstBinding, w->dstArrayElement + k, NULL) < 0)
          {
            g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                         _("writes[%u]: binding %u elements %u..%u do not fit the layout"), i,
                         w->dstBinding, w->dstArrayElement, w->dstArrayElement + w->descriptorCount - 1);
            return FALSE;
          }
    }
  copy = g_memdup2 (writes, (gsize) n_writes * sizeof *writes);
  for (guint32 i = 0; i < n_writes; i++)
    copy[i].dstSet = self->handle;
  self->pool->vk.UpdateDescriptorSets (self->pool->vk.device, n_writes, copy, 0, NULL);
  for (guint32 i = 0; i < n_writes; i++)
    for (guint32 k = 0; k < writes[i].descriptorCount; k++)
      {
        PscDescriptorEntry *e = &self->slots[find_slot (self, writes[i].dstBinding,
                                                        writes[i].dstArrayElement + k, NULL)];

        if (e->kind == PSC_SLOT_EMPTY &&
            psc_binding_requires_fill (psc_descriptor_layout_find (self->layout, writes[i].dstBinding)))
          self->required_empty--;
        psc_descriptor_entry_clear (e);
        e->kind = PSC_SLOT_UNTRACKED;
        e->type = writes[i].descriptorType;
      }
  return TRUE;
}

/**
 * psc_descriptor_entry_is_filled:
 * @self: an entry
 *
 * Whether the slot binds something.
 *
 * Returns: %TRUE unless the slot is empty
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_entry_is_filled (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->kind != PSC_SLOT_EMPTY;
}

/**
 * psc_descriptor_entry_is_untracked:
 * @self: an entry
 *
 * Whether the slot was written untracked.
 *
 * Returns: %TRUE if the slot was written by
 *   `psc_descriptor_set_write_raw_untracked()` (it retains nothing)
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_entry_is_untracked (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->kind == PSC_SLOT_UNTRACKED;
}

/**
 * psc_descriptor_entry_get_descriptor_type: (skip)
 * @self: a filled entry
 *
 * Gets the descriptor type written.
 *
 * Returns: the descriptor type written (the binding's)
 *
 * Since: 0.3
 */
VkDescriptorType
psc_descriptor_entry_get_descriptor_type (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, VK_DESCRIPTOR_TYPE_MAX_ENUM);
  return self->type;
}

/**
 * psc_descriptor_entry_get_buffer:
 * @self: an entry
 *
 * Gets the buffer a buffer entry retains.
 *
 * Returns: (transfer none) (nullable): the buffer a buffer entry retains
 *
 * Since: 0.3
 */
PscBuffer *
psc_descriptor_entry_get_buffer (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->buffer;
}

/**
 * psc_descriptor_entry_get_offset:
 * @self: an entry
 *
 * Gets a buffer entry's offset.
 *
 * Returns: a buffer entry's offset (the descriptor's base offset)
 *
 * Since: 0.3
 */
guint64
psc_descriptor_entry_get_offset (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->offset;
}

/**
 * psc_descriptor_entry_get_range:
 * @self: an entry
 *
 * Gets a buffer entry's range in bytes.
 *
 * Returns: a buffer entry's range in bytes (never `VK_WHOLE_SIZE`)
 *
 * Since: 0.3
 */
guint64
psc_descriptor_entry_get_range (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->range;
}

/**
 * psc_descriptor_entry_get_image_view:
 * @self: an entry
 *
 * Gets the view an image entry retains.
 *
 * Returns: (transfer none) (nullable): the view an image entry retains
 *
 * Since: 0.3
 */
PscImageView *
psc_descriptor_entry_get_image_view (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->view;
}

/**
 * psc_descriptor_entry_get_image_layout: (skip)
 * @self: an entry
 *
 * Gets an image entry's layout at use.
 *
 * Returns: an image entry's layout at use
 *
 * Since: 0.3
 */
VkImageLayout
psc_descriptor_entry_get_image_layout (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, VK_IMAGE_LAYOUT_UNDEFINED);
  return self->layout;
}

/**
 * psc_descriptor_entry_get_sampler:
 * @self: an entry
 *
 * Gets the sampler an entry retains.
 *
 * Returns: (transfer none) (nullable): the sampler a sampler or combined
 *   image sampler entry retains
 *
 * Since: 0.3
 */
PscSampler *
psc_descriptor_entry_get_sampler (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->sampler;
}

/**
 * psc_descriptor_entry_get_buffer_view:
 * @self: an entry
 *
 * Gets the view a texel-buffer entry retains.
 *
 * Returns: (transfer none) (nullable): the view a texel-buffer entry
 *   retains
 *
 * Since: 0.3
 */
PscBufferView *
psc_descriptor_entry_get_buffer_view (const PscDescriptorEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->buffer_view;
}
