/* psc-descriptor-plan.c: the one validation of managed descriptor writes
 * and the write plan it returns (graph-agnostic: layout facts, the set's
 * slots and staged writes in; Vulkan writes and the slots they change
 * out; nothing applied).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

void
psc_descriptor_plan_init (PscDescriptorPlan *plan)
{
  memset (plan, 0, sizeof *plan);
}

void
psc_descriptor_plan_clear (PscDescriptorPlan *plan)
{
  g_free (plan->writes);
  g_free (plan->buffer_infos);
  g_free (plan->image_infos);
  g_free (plan->texel_views);
  g_free (plan->slots);
  memset (plan, 0, sizeof *plan);
}

/* Room for @n planned slots in every array. */
static void
plan_reserve (PscDescriptorPlan *plan, guint n)
{
  if (n <= plan->capacity)
    return;
  plan->capacity = MAX (n, 2 * plan->capacity);
  plan->writes = g_renew (VkWriteDescriptorSet, plan->writes, plan->capacity);
  plan->buffer_infos = g_renew (VkDescriptorBufferInfo, plan->buffer_infos, plan->capacity);
  plan->image_infos = g_renew (VkDescriptorImageInfo, plan->image_infos, plan->capacity);
  plan->texel_views = g_renew (VkBufferView, plan->texel_views, plan->capacity);
  plan->slots = g_renew (PscPlannedSlot, plan->slots, plan->capacity);
  plan->shape_n = 0;
}

static PscSlotKind
kind_of_type (VkDescriptorType type)
{
  switch (type)
    {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      return PSC_SLOT_BUFFER;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      return PSC_SLOT_IMAGE;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      return PSC_SLOT_SAMPLER;
    default:
      return PSC_SLOT_TEXEL_BUFFER;
    }
}

static const char *
kind_name (PscSlotKind kind)
{
  switch (kind)
    {
    case PSC_SLOT_BUFFER:
      return "a buffer";
    case PSC_SLOT_IMAGE:
      return "an image view";
    case PSC_SLOT_SAMPLER:
      return "a sampler";
    case PSC_SLOT_TEXEL_BUFFER:
      return "a buffer view";
    default:
      return "nothing";
    }
}

static gboolean
sampled_layout (VkImageLayout layout)
{
  switch (layout)
    {
    case VK_IMAGE_LAYOUT_GENERAL:
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
fail_invalidated (GError **error, guint i, const char *field)
{
  g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED,
               _("writes[%u].%s: the resource was invalidated"), i, field);
  return FALSE;
}

static gboolean
fail_device (GError **error, guint i, const char *field)
{
  g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
               _("writes[%u].%s: made for another device than the set's"), i, field);
  return FALSE;
}

/* A buffer write: offset, range (normalized into @range), alignment and
 * the device's range limit. */
static gboolean
check_buffer (const PscDescriptorSet *set, const PscBindingFacts *b, const PscStagedWrite *w,
              guint i, VkDeviceSize *range, GError **error)
{
  gboolean uniform = b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                     b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  VkDeviceSize size = w->buffer->size;
  guint64 max_range = b->max_range;

  if (w->buffer->base.device != set->layout->device)
    return fail_device (error, i, "buffer");
  if (psc_resource_is_invalidated (&w->buffer->base))
    return fail_invalidated (error, i, "buffer");
  if (w->offset >= size)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].offset: %" G_GUINT64_FORMAT " >= the buffer's size %" G_GUINT64_FORMAT),
                   i, (guint64) w->offset, (guint64) size);
      return FALSE;
    }
  /* The limits are powers of two (Vulkan requires it). */
  if ((w->offset & b->align_mask) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].offset: %" G_GUINT64_FORMAT " is not a multiple of %s (%" G_GUINT64_FORMAT ")"),
                   i, (guint64) w->offset,
                   uniform ? "minUniformBufferOffsetAlignment" : "minStorageBufferOffsetAlignment",
                   (guint64) b->align_mask + 1);
      return FALSE;
    }
  *range = w->range == VK_WHOLE_SIZE ? size - w->offset : w->range;
  if (*range == 0 || *range > size - w->offset)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].range: %" G_GUINT64_FORMAT " bytes from offset %" G_GUINT64_FORMAT
                     " do not fit the buffer's %" G_GUINT64_FORMAT),
                   i, (guint64) *range, (guint64) w->offset, (guint64) size);
      return FALSE;
    }
  if (max_range != 0 && *range > max_range)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].range: %" G_GUINT64_FORMAT " > %s (%" G_GUINT64_FORMAT ")"),
                   i, (guint64) *range, uniform ? "maxUniformBufferRange" : "maxStorageBufferRange",
                   max_range);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_sampler (const PscDescriptorSet *set, PscSampler *sampler, guint i, GError **error)
{
  if (sampler->base.device != set->layout->device)
    return fail_device (error, i, "sampler");
  if (psc_resource_is_invalidated (&sampler->base))
    return fail_invalidated (error, i, "sampler");
  return TRUE;
}

/* An image write: no swapchain image, a layout the type allows, a sampler
 * exactly for combined image samplers. */
static gboolean
check_image (const PscDescriptorSet *set, const PscBindingFacts *b, const PscStagedWrite *w,
             guint i, GError **error)
{
  gboolean storage = b->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  gboolean combined = b->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;

  if (w->view->base.device != set->layout->device)
    return fail_device (error, i, "view");
  if ((w->view->base.flags & PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE) != 0)
    {
      g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE,
                   _("writes[%u].view: a view of a swapchain image, which a managed set cannot "
                     "keep alive (write it with write_raw_untracked and keep the swapchain "
                     "image alive until the GPU is done)"), i);
      return FALSE;
    }
  if (psc_resource_is_invalidated (&w->view->base))
    return fail_invalidated (error, i, "view");
  if (storage ? w->layout != VK_IMAGE_LAYOUT_GENERAL : !sampled_layout (w->layout))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   storage ? _("writes[%u].layout: %d; a storage image is used in VK_IMAGE_LAYOUT_GENERAL")
                           : _("writes[%u].layout: %d is not a layout a shader may sample in"),
                   i, (int) w->layout);
      return FALSE;
    }
  if (combined != (w->sampler != NULL))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   combined ? _("writes[%u].sampler: a combined image sampler needs a sampler")
                            : _("writes[%u].sampler: binding %u takes no sampler with its image"),
                   i, b->binding);
      return FALSE;
    }
  return w->sampler == NULL || check_sampler (set, w->sampler, i, error);
}

static gboolean
check_texel_buffer (const PscDescriptorSet *set, const PscStagedWrite *w, guint i, GError **error)
{
  if (w->buffer_view->base.device != set->layout->device)
    return fail_device (error, i, "buffer_view");
  if (psc_resource_is_invalidated (&w->buffer_view->base) ||
      psc_resource_is_invalidated (&w->buffer_view->buffer->base))
    return fail_invalidated (error, i, "buffer_view");
  return TRUE;
}

/* What one write binds, against its binding (whose kind it matches). */
static gboolean
check_resources (const PscDescriptorSet *set, const PscBindingFacts *b, const PscStagedWrite *w,
                 guint i, VkDeviceSize *range, GError **error)
{
  switch (w->kind)
    {
    case PSC_SLOT_BUFFER:
      return check_buffer (set, b, w, i, range, error);
    case PSC_SLOT_IMAGE:
      return check_image (set, b, w, i, error);
    case PSC_SLOT_SAMPLER:
      return check_sampler (set, w->sampler, i, error);
    case PSC_SLOT_TEXEL_BUFFER:
      return check_texel_buffer (set, w, i, error);
    default:
      g_assert_not_reached ();
    }
}

/* One write against its binding's facts; @range gets a buffer's
 * normalized range. */
static gboolean
check_write (const PscDescriptorSet *set, const PscStagedWrite *w, guint i,
             const PscBindingFacts **out_b, VkDeviceSize *range, GError **error)
{
  const PscBindingFacts *b = psc_descriptor_layout_find (set->layout, w->binding);
  PscSlotKind expected;

  if (b == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].binding: %u is not in the set's layout"), i, w->binding);
      return FALSE;
    }
  *out_b = b;
  if (w->array_element >= psc_descriptor_set_binding_count (set, b))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u].array_element: %u >= binding %u's count %u"), i, w->array_element,
                   w->binding, psc_descriptor_set_binding_count (set, b));
      return FALSE;
    }
  if (w->kind == PSC_SLOT_EMPTY)
    {
      if (!psc_binding_requires_fill (b))
        return TRUE;
      g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE,
                   _("writes[%u]: binding %u is not PARTIALLY_BOUND: its slots cannot be emptied"),
                   i, w->binding);
      return FALSE;
    }
  expected = kind_of_type (b->type);
  if (w->kind != expected)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("writes[%u]: binding %u (descriptor type %d) takes %s, not %s"), i,
                   w->binding, (int) b->type, kind_name (expected), kind_name (w->kind));
      return FALSE;
    }
  return check_resources (set, b, w, i, range, error);
}


static int
compare_planned (const void *a, const void *b)
{
  const PscPlannedSlot *x = a, *y = b;

  if (x->slot != y->slot)
    return x->slot < y->slot ? -1 : 1;
  return x->write < y->write ? -1 : x->write > y->write;
}

/* Stable by slot (write order kept within a slot): an insertion sort for
 * the usual few writes, most often already in order; qsort with the write
 * index as tie-breaker for large batches. */
static void
sort_planned (PscPlannedSlot *p, guint n)
{
  if (n > 32)
    {
      qsort (p, n, sizeof *p, compare_planned);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      PscPlannedSlot x = p[i];
      guint j = i;

      while (j > 0 && p[j - 1].slot > x.slot)
        {
          p[j] = p[j - 1];
          j--;
        }
      p[j] = x;
    }
}

/* Sorted by slot, then write order: keeps the last write of each slot. */
static void
keep_last_per_slot (PscPlannedSlot *slots, guint *n)
{
  guint out = 0;

  sort_planned (slots, *n);
  for (guint i = 0; i < *n; i++)
    {
      if (i + 1 < *n && slots[i + 1].slot == slots[i].slot)
        continue;
      slots[out++] = slots[i];
    }
  *n = out;
}

/* The first required slot that would stay empty, for the message. */
static void
fail_incomplete (const PscDescriptorSet *set, const PscDescriptorPlan *plan, guint64 left,
                 GError **error)
{
  const PscDescriptorLayout *l = set->layout;

  for (guint k = 0; k < l->n_bindings; k++)
    {
      const PscBindingFacts *b = &l->bindings[k];

      if (!psc_binding_requires_fill (b))
        continue;
      for (guint32 e = 0; e < psc_descriptor_set_binding_count (set, b); e++)
        {
          guint32 slot = b->first_slot + e;
          gboolean planned = FALSE;

          for (guint p = 0; p < plan->n_slots; p++)
            planned |= plan->slots[p].slot == slot;
          if (!planned && set->slots[slot].kind == PSC_SLOT_EMPTY)
            {
              g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE,
                           _("the set would keep %" G_GUINT64_FORMAT " empty slots in bindings "
                             "that are not PARTIALLY_BOUND, the first binding %u element %u"),
                           left, b->binding, e);
              return;
            }
        }
    }
  g_set_error_literal (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE,
                       _("the set would keep empty slots in bindings that are not PARTIALLY_BOUND"));
}

/* What planned slot @k's Vulkan write points to, from write @w. */
static void
fill_info (PscDescriptorPlan *plan, const PscStagedWrite *w, guint k)
{
  switch (w->kind)
    {
    case PSC_SLOT_BUFFER:
      plan->buffer_infos[k] = (VkDescriptorBufferInfo) { w->buffer->buffer, w->offset, plan->slots[k].range };
      break;
    case PSC_SLOT_IMAGE:
      plan->image_infos[k] = (VkDescriptorImageInfo) {
        w->sampler != NULL ? w->sampler->sampler : VK_NULL_HANDLE, w->view->view, w->layout };
      break;
    case PSC_SLOT_SAMPLER:
      plan->image_infos[k] = (VkDescriptorImageInfo) { w->sampler->sampler, VK_NULL_HANDLE,
                                                       VK_IMAGE_LAYOUT_UNDEFINED };
      break;
    case PSC_SLOT_TEXEL_BUFFER:
      plan->texel_views[k] = w->buffer_view->view;
      break;
    default:
      break;                    /* a clear: nothing */
    }
}

/* The Vulkan write of planned slot @k (none for a clear). */
static void
add_vulkan_write (PscDescriptorPlan *plan, const PscDescriptorSet *set, const PscStagedWrite *w,
                  guint k)
{
  VkWriteDescriptorSet vw = {
    .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
    .dstSet = set->handle,
    .dstBinding = w->binding,
    .dstArrayElement = w->array_element,
    .descriptorCount = 1,
    .descriptorType = plan->slots[k].facts->type,
  };

  if (w->kind == PSC_SLOT_EMPTY)
    return;
  fill_info (plan, w, k);
  if (w->kind == PSC_SLOT_BUFFER)
    vw.pBufferInfo = &plan->buffer_infos[k];
  else if (w->kind == PSC_SLOT_TEXEL_BUFFER)
    vw.pTexelBufferView = &plan->texel_views[k];
  else
    vw.pImageInfo = &plan->image_infos[k];
  plan->writes[plan->n_writes++] = vw;
}

/* The batch in the last plan's simple shape (write i is slot i, of the
 * kind its binding's type takes): every check that does not depend on the
 * shape (the resources, completeness) is run, the shape's slots and Vulkan
 * writes reused. FALSE with @error set if a check fails; -1 if the shape
 * differs (nothing failed: the full build decides). */
static int
build_from_shape (PscDescriptorPlan *plan, const PscDescriptorSet *set, const PscStagedWrite *writes,
                  guint n_writes, GError **error)
{
  gint64 delta = 0;

  if (n_writes != plan->shape_n)
    return -1;
  for (guint i = 0; i < n_writes; i++)
    {
      const PscPlannedSlot *p = &plan->slots[i];
      const PscStagedWrite *w = &writes[i];

      if (w->binding != p->facts->binding || w->array_element != p->slot - p->facts->first_slot ||
          w->kind != kind_of_type (p->facts->type))
        return -1;
    }
  for (guint i = 0; i < n_writes; i++)
    {
      PscPlannedSlot *p = &plan->slots[i];

      if (!check_resources (set, p->facts, &writes[i], i, &p->range, error))
        return FALSE;
      fill_info (plan, &writes[i], i);
      /* No clear in the shape: a slot is filled afterwards. */
      if (psc_binding_requires_fill (p->facts) && set->slots[p->slot].kind == PSC_SLOT_EMPTY)
        delta--;
    }
  plan->required_empty_delta = delta;
  return TRUE;
}

/* Whether the plan just built has the simple shape: no clear, no slot
 * twice, staged in slot order. */
static gboolean
has_simple_shape (const PscDescriptorPlan *plan, guint n_writes)
{
  if (plan->n_slots != n_writes || plan->n_writes != n_writes)
    return FALSE;               /* a slot twice, or a clear */
  for (guint k = 0; k < n_writes; k++)
    if (plan->slots[k].write != k)
      return FALSE;             /* not staged in slot order */
  return TRUE;
}

gboolean
psc_descriptor_plan_build (PscDescriptorPlan *plan, const PscDescriptorSet *set,
                           const PscStagedWrite *writes, guint n_writes, GError **error)
{
  gint64 delta = 0;

  if (plan->shape_n != 0)
    {
      int r = build_from_shape (plan, set, writes, n_writes, error);
      if (r >= 0)
        return r;
    }
  plan->shape_n = 0;            /* the arrays are rebuilt */
  plan_reserve (plan, n_writes);
  plan->n_writes = 0;
  plan->n_slots = 0;
  for (guint i = 0; i < n_writes; i++)
    {
      const PscBindingFacts *b = NULL;
      PscPlannedSlot *p = &plan->slots[plan->n_slots];

      p->write = i;
      if (!check_write (set, &writes[i], i, &b, &p->range, error))
        return FALSE;
      p->slot = b->first_slot + writes[i].array_element;
      p->facts = b;
      plan->n_slots++;
    }
  keep_last_per_slot (plan->slots, &plan->n_slots);

  /* Completeness, as the set would be after the plan. */
  for (guint k = 0; k < plan->n_slots; k++)
    {
      const PscPlannedSlot *p = &plan->slots[k];
      const PscBindingFacts *b = p->facts;
      gboolean was_empty = set->slots[p->slot].kind == PSC_SLOT_EMPTY;
      gboolean will_be_empty = writes[p->write].kind == PSC_SLOT_EMPTY;

      if (psc_binding_requires_fill (b))
        delta += (gint64) will_be_empty - (gint64) was_empty;
    }
  plan->required_empty_delta = delta;
  if ((gint64) set->required_empty + delta > 0)
    {
      fail_incomplete (set, plan, (guint64) ((gint64) set->required_empty + delta), error);
      return FALSE;
    }

  for (guint k = 0; k < plan->n_slots; k++)
    {
      const PscPlannedSlot *p = &plan->slots[k];
      add_vulkan_write (plan, set, &writes[p->write], k);
    }
  plan->shape_n = has_simple_shape (plan, n_writes) ? n_writes : 0;
  return TRUE;
}
