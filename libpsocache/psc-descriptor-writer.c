/* psc-descriptor-writer.c: PscDescriptorWriter, staged managed writes and
 * their commit: the plan first, then the Vulkan update, then the owners.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _PscDescriptorWriter {
  PscDescriptorSet *set;        /* owned reference */
  gboolean retain;              /* staging takes references (bindings' writers) */
  PscStagedWrite *staged;       /* borrowing their resources, unless retain */
  guint n_staged, staged_capacity;
  PscDescriptorPlan plan;       /* reused by every commit */
};

G_DEFINE_BOXED_TYPE (PscDescriptorWriter, psc_descriptor_writer,
                     psc_descriptor_writer_ref, psc_descriptor_writer_unref)

static PscDescriptorWriter *
writer_new (PscDescriptorSet *set, gboolean retain, GError **error)
{
  PscDescriptorWriter *w;

  if (!psc_descriptor_set_check_fresh (set, error))
    return NULL;
  w = g_atomic_rc_box_new0 (PscDescriptorWriter);
  w->set = psc_descriptor_set_ref (set);
  w->retain = retain;
  psc_descriptor_plan_init (&w->plan);
  return w;
}

/**
 * psc_descriptor_set_begin_write: (skip)
 * @self: a managed set
 * @error: return location for a #GError
 *
 * A writer for the set. It stages writes; nothing reaches the set until
 * `psc_descriptor_writer_commit()`. A writer may commit several times.
 * Staging takes no reference: the resources staged must stay alive until
 * the commit (or the writer's last reference), as the structures given to
 * `vkUpdateDescriptorSets` must; the commit takes the references the set
 * keeps. A writer is used by one thread at a time, the set's.
 *
 * Returns: (transfer full): a new writer, or %NULL with
 *   %PSC_DESCRIPTOR_ERROR_STALE_SET
 *
 * Since: 0.3
 */
PscDescriptorWriter *
psc_descriptor_set_begin_write (PscDescriptorSet  *self,
                                GError           **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return writer_new (self, FALSE, error);
}

/**
 * psc_descriptor_set_begin_retained_write: (rename-to psc_descriptor_set_begin_write)
 * @self: a managed set
 * @error: return location for a #GError
 *
 * A writer like `psc_descriptor_set_begin_write()`'s whose staging takes a
 * reference on every resource staged, dropped at the commit (or with the
 * writer): for bindings, where nothing keeps a borrowed wrapper alive
 * until the commit, and for C code that would rather not.
 *
 * Returns: (transfer full): a new writer, or %NULL with
 *   %PSC_DESCRIPTOR_ERROR_STALE_SET
 *
 * Since: 0.3
 */
PscDescriptorWriter *
psc_descriptor_set_begin_retained_write (PscDescriptorSet  *self,
                                         GError           **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return writer_new (self, TRUE, error);
}

/* Drops what a retaining writer staged; empties the batch. */
static void
unstage_all (PscDescriptorWriter *self)
{
  if (self->retain)
    for (guint i = 0; i < self->n_staged; i++)
      {
        PscStagedWrite *w = &self->staged[i];
        psc_owners_release (&w->buffer, &w->view, &w->sampler, &w->buffer_view);
      }
  self->n_staged = 0;
}

static PscStagedWrite *
stage (PscDescriptorWriter *self, guint32 binding, guint32 array_element, PscSlotKind kind)
{
  PscStagedWrite *w;

  if (self->n_staged == self->staged_capacity)
    {
      self->staged_capacity = MAX (8, 2 * self->staged_capacity);
      self->staged = g_renew (PscStagedWrite, self->staged, self->staged_capacity);
    }
  w = &self->staged[self->n_staged++];
  *w = (PscStagedWrite) { .binding = binding, .array_element = array_element, .kind = kind };
  return w;
}

/**
 * psc_descriptor_writer_write_buffer:
 * @self: a writer
 * @binding: a uniform or storage buffer binding (dynamic or not)
 * @array_element: the element
 * @buffer: the buffer (borrowed until the commit)
 * @offset: (type guint64): the descriptor's base offset
 * @range: (type guint64): its range, or `VK_WHOLE_SIZE`
 *
 * Stages a buffer descriptor. Checked at commit.
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_write_buffer (PscDescriptorWriter *self,
                                    guint32              binding,
                                    guint32              array_element,
                                    PscBuffer           *buffer,
                                    VkDeviceSize         offset,
                                    VkDeviceSize         range)
{
  PscStagedWrite *w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (buffer != NULL);
  w = stage (self, binding, array_element, PSC_SLOT_BUFFER);
  w->buffer = self->retain ? psc_buffer_ref (buffer) : buffer;
  w->offset = offset;
  w->range = range;
}

/**
 * psc_descriptor_writer_write_image:
 * @self: a writer
 * @binding: a sampled image, storage image or combined image sampler
 *   binding
 * @array_element: the element
 * @view: the image view (borrowed until the commit)
 * @layout: (type guint32): the image's `VkImageLayout` when the shader
 *   uses it
 * @sampler: (nullable): the sampler of a combined image sampler (%NULL
 *   for the other two types)
 *
 * Stages an image descriptor. Checked at commit.
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_write_image (PscDescriptorWriter *self,
                                   guint32              binding,
                                   guint32              array_element,
                                   PscImageView        *view,
                                   VkImageLayout        layout,
                                   PscSampler          *sampler)
{
  PscStagedWrite *w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (view != NULL);
  w = stage (self, binding, array_element, PSC_SLOT_IMAGE);
  w->view = self->retain ? psc_image_view_ref (view) : view;
  w->layout = layout;
  w->sampler = self->retain && sampler != NULL ? psc_sampler_ref (sampler) : sampler;
}

/**
 * psc_descriptor_writer_write_sampler:
 * @self: a writer
 * @binding: a sampler binding
 * @array_element: the element
 * @sampler: the sampler (borrowed until the commit)
 *
 * Stages a sampler descriptor. Checked at commit.
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_write_sampler (PscDescriptorWriter *self,
                                     guint32              binding,
                                     guint32              array_element,
                                     PscSampler          *sampler)
{
  PscStagedWrite *w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (sampler != NULL);
  w = stage (self, binding, array_element, PSC_SLOT_SAMPLER);
  w->sampler = self->retain ? psc_sampler_ref (sampler) : sampler;
}

/**
 * psc_descriptor_writer_write_texel_buffer:
 * @self: a writer
 * @binding: a uniform or storage texel buffer binding
 * @array_element: the element
 * @view: the buffer view (borrowed until the commit)
 *
 * Stages a texel-buffer descriptor. Checked at commit.
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_write_texel_buffer (PscDescriptorWriter *self,
                                          guint32              binding,
                                          guint32              array_element,
                                          PscBufferView       *view)
{
  PscStagedWrite *w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (view != NULL);
  w = stage (self, binding, array_element, PSC_SLOT_TEXEL_BUFFER);
  w->buffer_view = self->retain ? psc_buffer_view_ref (view) : view;
}

/**
 * psc_descriptor_writer_clear:
 * @self: a writer
 * @binding: a `PARTIALLY_BOUND` binding
 * @array_element: the element
 *
 * Stages emptying a slot: its entry is released at commit (no Vulkan
 * write: a partially bound descriptor the shaders do not use may hold
 * anything). Only `PARTIALLY_BOUND` bindings may have empty slots; checked
 * at commit.
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_clear (PscDescriptorWriter *self,
                             guint32              binding,
                             guint32              array_element)
{
  g_return_if_fail (self != NULL);
  stage (self, binding, array_element, PSC_SLOT_EMPTY);
}

/**
 * psc_descriptor_writer_get_n_staged:
 * @self: a writer
 *
 * Counts the staged writes.
 *
 * Returns: how many writes wait for the next commit
 *
 * Since: 0.3
 */
guint
psc_descriptor_writer_get_n_staged (PscDescriptorWriter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_staged;
}

/* @held, the reference the slot had, if it is @wanted; else a new one on
 * @wanted (the old one is released by the caller with the old entry). */
#define TAKE(field, ref)                                                     \
  G_STMT_START {                                                          \
    if (w->field == NULL)                                                 \
      e->field = NULL;                                                    \
    else if (old.field == w->field)                                       \
      e->field = g_steal_pointer (&old.field);                            \
    else                                                                  \
      e->field = ref (w->field);                                          \
  } G_STMT_END

/* The planned slots retain the winning writes' resources; a slot written
 * with what it already held keeps its references (no reference counting
 * for the usual rewrite of an offset). */
static void
swap_owners (PscDescriptorWriter *self)
{
  PscDescriptorSet *set = self->set;
  for (guint k = 0; k < self->plan.n_slots; k++)
    {
      const PscPlannedSlot *p = &self->plan.slots[k];
      const PscStagedWrite *w = &self->staged[p->write];
      PscDescriptorEntry *e = &set->slots[p->slot];
      PscDescriptorEntry old;

      if (e->kind == w->kind && e->buffer == w->buffer && e->view == w->view &&
          e->sampler == w->sampler && e->buffer_view == w->buffer_view)
        {
          /* The same owners (the usual rewrite of an offset): no
           * reference changes hands. */
          e->offset = w->offset;
          e->range = p->range;
          e->layout = w->layout;
          continue;
        }
      old = *e;
      memset (e, 0, sizeof *e);
      if (w->kind != PSC_SLOT_EMPTY)
        {
          e->kind = w->kind;
          e->type = p->facts->type;
          e->offset = w->offset;
          e->range = p->range;
          e->layout = w->layout;
          TAKE (buffer, psc_buffer_ref);
          TAKE (view, psc_image_view_ref);
          TAKE (sampler, psc_sampler_ref);
          TAKE (buffer_view, psc_buffer_view_ref);
        }
      psc_descriptor_entry_clear (&old);
    }
  set->required_empty = (guint32) ((gint64) set->required_empty + self->plan.required_empty_delta);
}

#undef TAKE

/**
 * psc_descriptor_writer_commit:
 * @self: a writer
 * @error: return location for a #GError
 *
 * Validates every staged write with the shared write plan, then updates
 * the set (`vkUpdateDescriptorSets`) and only then swaps the retained
 * owners; a write later in the batch wins over an earlier one for the same
 * slot. The plan checks, with the failing `writes[i]` and field named:
 *
 * - the set is not stale (%PSC_DESCRIPTOR_ERROR_STALE_SET);
 * - the binding is in the layout and the element within its count (a
 *   variable binding's allocated count);
 * - what is written fits the binding's type: a buffer for (dynamic)
 *   uniform and storage buffers, an image view for sampled and storage
 *   images and combined image samplers (with a sampler exactly for the
 *   latter), a sampler, a buffer view for texel buffers;
 * - the resource belongs to the set's device and is not invalidated
 *   (%PSC_DESCRIPTOR_ERROR_INVALIDATED; a buffer view's buffer too);
 * - buffers: the offset lies in the buffer and is a multiple of
 *   `minUniformBufferOffsetAlignment` or `minStorageBufferOffsetAlignment`,
 *   offset + range fits its size (`VK_WHOLE_SIZE` is the rest of it; the
 *   entry keeps the resolved range), the range is at most
 *   `maxUniformBufferRange` / `maxStorageBufferRange`;
 * - images: no view of a swapchain image
 *   (%PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE); storage images in
 *   `VK_IMAGE_LAYOUT_GENERAL`, the others in a layout shaders may sample
 *   in (`SHADER_READ_ONLY_OPTIMAL`, `GENERAL`, the read-only depth/stencil
 *   ones, `READ_ONLY_OPTIMAL`);
 * - completeness: after the writes, no slot of a binding that is not
 *   `PARTIALLY_BOUND` is empty, and only those bindings may be cleared
 *   (%PSC_DESCRIPTOR_ERROR_INCOMPLETE). The first commit of a set
 *   therefore fills every required slot.
 *
 * On any failure nothing is written and the set's entries are as before.
 * Either way the staged writes are consumed. The caller synchronizes the
 * update with the GPU as Vulkan requires (a set in use by a pending
 * command buffer is updated only with `UPDATE_AFTER_BIND` or
 * `UPDATE_UNUSED_WHILE_PENDING` rules), and must not let the owners
 * replaced here go while the GPU may still read the previous descriptors.
 *
 * Returns: %TRUE if the writes were applied, %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_writer_commit (PscDescriptorWriter  *self,
                              GError              **error)
{
  PscDescriptorSet *set;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  set = self->set;
  ok = psc_descriptor_set_check_fresh (set, error) &&
       psc_descriptor_plan_build (&self->plan, set, self->staged, self->n_staged, error);
  if (ok)
    {
      if (self->plan.n_writes > 0)
        set->pool->vk.UpdateDescriptorSets (set->pool->vk.device, self->plan.n_writes,
                                            self->plan.writes,
                                            0, NULL);
      swap_owners (self);
    }
  unstage_all (self);
  return ok;
}

/**
 * psc_descriptor_writer_ref:
 * @self: a writer
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscDescriptorWriter *
psc_descriptor_writer_ref (PscDescriptorWriter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
writer_clear (gpointer data)
{
  PscDescriptorWriter *self = data;

  unstage_all (self);
  g_free (self->staged);
  psc_descriptor_plan_clear (&self->plan);
  psc_descriptor_set_unref (self->set);
}

/**
 * psc_descriptor_writer_unref:
 * @self: (transfer full): a writer
 *
 * Drops a reference; the last one frees the writer and what it staged
 * (uncommitted writes are dropped).
 *
 * Since: 0.3
 */
void
psc_descriptor_writer_unref (PscDescriptorWriter *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, writer_clear);
}
