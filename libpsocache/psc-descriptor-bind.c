/* psc-descriptor-bind.c: PscBindPlan, the bind-time data of managed sets:
 * the handles and the dynamic offsets in Vulkan's order, validated, and
 * the memory accesses a draw with them performs (graph-agnostic facts).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _PscBindPlan {
  GPtrArray *sets;              /* PscDescriptorSet, references */
  GArray *handles;              /* VkDescriptorSet */
  GArray *offsets;              /* guint32, Vulkan's order */
  GArray *given;                /* gboolean per ordered offset: seen */
  GArray *bases;                /* guint per set: its first ordered offset */
  GArray *accesses;             /* PscDescriptorAccess */
};

static gboolean
is_dynamic (VkDescriptorType type)
{
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
         type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

G_DEFINE_BOXED_TYPE (PscBindPlan, psc_bind_plan, psc_bind_plan_ref, psc_bind_plan_unref)

/**
 * psc_bind_plan_new:
 *
 * A plan to build before each `vkCmdBindDescriptorSets` of managed sets.
 * A plan is used by one thread at a time.
 *
 * Returns: (transfer full): a new plan
 *
 * Since: 0.3
 */
PscBindPlan *
psc_bind_plan_new (void)
{
  PscBindPlan *self = g_atomic_rc_box_new0 (PscBindPlan);

  self->sets = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_descriptor_set_unref);
  self->handles = g_array_new (FALSE, TRUE, sizeof (VkDescriptorSet));
  self->offsets = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->given = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->bases = g_array_new (FALSE, TRUE, sizeof (guint));
  self->accesses = g_array_new (FALSE, TRUE, sizeof (PscDescriptorAccess));
  return self;
}

/**
 * psc_bind_plan_ref:
 * @self: a plan
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscBindPlan *
psc_bind_plan_ref (PscBindPlan *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
plan_clear (gpointer data)
{
  PscBindPlan *self = data;

  g_ptr_array_unref (self->sets);
  g_array_unref (self->handles);
  g_array_unref (self->offsets);
  g_array_unref (self->given);
  g_array_unref (self->bases);
  g_array_unref (self->accesses);
}

/**
 * psc_bind_plan_unref:
 * @self: (transfer full): a plan
 *
 * Drops a reference; the last one frees the plan (and its references on
 * the sets of its last build).
 *
 * Since: 0.3
 */
void
psc_bind_plan_unref (PscBindPlan *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, plan_clear);
}

/* The position of (@binding, @element) among @set's dynamic descriptors,
 * or -1 with @error (offset @i names it). */
static gint64
dynamic_index (const PscDescriptorSet *set, guint i, const PscDynamicOffset *o, GError **error)
{
  const PscDescriptorLayout *l = set->layout;
  guint64 index = 0;

  for (guint k = 0; k < l->n_bindings; k++)
    {
      const PscBindingFacts *b = &l->bindings[k];
      guint32 count = psc_descriptor_set_binding_count (set, b);

      if (b->binding == o->binding)
        {
          if (!is_dynamic (b->type))
            {
              g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("offsets[%u].binding: binding %u of set %u is not a dynamic buffer"),
                           i, o->binding, o->set);
              return -1;
            }
          if (o->array_element >= count)
            {
              g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("offsets[%u].array_element: %u >= binding %u's count %u"), i,
                           o->array_element, o->binding, count);
              return -1;
            }
          return (gint64) (index + o->array_element);
        }
      if (is_dynamic (b->type))
        index += count;
    }
  g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
               _("offsets[%u].binding: %u is not in set %u's layout"), i, o->binding, o->set);
  return -1;
}

/* One offset's alignment and effective range against the entry it
 * moves. */
static gboolean
check_offset (const PscDescriptorSet *set, guint i, const PscDynamicOffset *o, GError **error)
{
  const PscBindingFacts *b = psc_descriptor_layout_find (set->layout, o->binding);
  const PscDescriptorEntry *e = &set->slots[b->first_slot + o->array_element];
  gboolean uniform = b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  VkDeviceSize size;

  /* The binding's alignment mask: the device's limit for its type. */
  if ((o->offset & b->align_mask) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("offsets[%u].offset: %u is not a multiple of %s (%" G_GUINT64_FORMAT ")"), i,
                   o->offset, uniform ? "minUniformBufferOffsetAlignment" : "minStorageBufferOffsetAlignment",
                   (guint64) b->align_mask + 1);
      return FALSE;
    }
  if (e->kind == PSC_SLOT_EMPTY)
    return TRUE;                /* partially bound and unused: nothing to reach */
  if (e->kind == PSC_SLOT_UNTRACKED)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("offsets[%u]: set %u binding %u element %u was written untracked: its "
                     "range cannot be checked"), i, o->set, o->binding, o->array_element);
      return FALSE;
    }
  size = e->buffer->size;
  /* base + dynamic + range <= size, without overflow (base + range <= size
   * holds since the write). */
  if ((VkDeviceSize) o->offset > size - e->offset - e->range)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("offsets[%u].offset: base %" G_GUINT64_FORMAT " + %u + range %" G_GUINT64_FORMAT
                     " > the buffer's size %" G_GUINT64_FORMAT), i, (guint64) e->offset, o->offset,
                   (guint64) e->range, (guint64) size);
      return FALSE;
    }
  return TRUE;
}

/* Each set fresh; the handles; each set's first ordered offset. */
static gboolean
collect_sets (PscBindPlan *self, guint n_sets, PscDescriptorSet *const *sets, guint *total,
              GError **error)
{
  *total = 0;
  for (guint s = 0; s < n_sets; s++)
    {
      const PscDescriptorSet *set = sets[s];
      const PscDescriptorLayout *l;

      if (set == NULL)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("sets[%u]: NULL"), s);
          return FALSE;
        }
      if (!psc_descriptor_set_check_fresh (set, error))
        {
          g_prefix_error (error, "sets[%u]: ", s);
          return FALSE;
        }
      if (set->required_empty > 0)
        {
          g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE,
                       _("sets[%u]: %u slots of bindings that are not PARTIALLY_BOUND are "
                         "empty (the set was never committed whole)"), s, set->required_empty);
          return FALSE;
        }
      l = set->layout;
      g_ptr_array_add (self->sets, psc_descriptor_set_ref ((PscDescriptorSet *) set));
      g_array_append_val (self->handles, set->handle);
      g_array_append_val (self->bases, *total);
      for (guint k = 0; k < l->n_bindings; k++)
        if (is_dynamic (l->bindings[k].type))
          *total += psc_descriptor_set_binding_count (set, &l->bindings[k]);
    }
  return TRUE;
}

/**
 * psc_bind_plan_build:
 * @self: a plan
 * @n_sets: how many sets are bound, from the first set index given to
 *   `vkCmdBindDescriptorSets`
 * @sets: (array length=n_sets): the managed sets, in set order (the plan
 *   holds a reference on each until its next build)
 * @n_offsets: how many dynamic offsets
 * @offsets: (array length=n_offsets): the dynamic offsets, in any order,
 *   each naming its set (an index into @sets), binding and element
 * @error: return location for a #GError
 *
 * Builds the bind-time data: psc_bind_plan_get_sets() and
 * psc_bind_plan_get_dynamic_offsets() are then the arguments of
 * `vkCmdBindDescriptorSets`, the offsets in the order Vulkan requires: set
 * order, then binding number, then array element. Checked, naming
 * `offsets[i]`:
 *
 * - no set is stale (%PSC_DESCRIPTOR_ERROR_STALE_SET, `sets[i]`) or
 *   incomplete: a set whose required slots were never all written
 *   (%PSC_DESCRIPTOR_ERROR_INCOMPLETE);
 * - exactly one offset per dynamic descriptor of the sets: the count, the
 *   set index, the binding (dynamic, in the layout), the element, no
 *   duplicate;
 * - each offset a multiple of `minUniformBufferOffsetAlignment` or
 *   `minStorageBufferOffsetAlignment`;
 * - its effective range inside the buffer: the descriptor's base offset +
 *   the dynamic offset + its range <= the buffer's size (no overflow). An
 *   empty partially bound slot has nothing to check; an untracked one is
 *   refused.
 *
 * The sets' layouts must be those of the pipeline layout at the set
 * indices they are bound to (as Vulkan requires; not checked here). The
 * caller keeps the same external synchronization as for the sets.
 *
 * Returns: %TRUE on success, %FALSE with @error set (the plan is then
 *   empty)
 *
 * Since: 0.3
 */
gboolean
psc_bind_plan_build (PscBindPlan             *self,
                     guint                    n_sets,
                     PscDescriptorSet *const *sets,
                     guint                    n_offsets,
                     const PscDynamicOffset  *offsets,
                     GError                 **error)
{
  guint total = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_sets == 0 || sets != NULL, FALSE);
  g_return_val_if_fail (n_offsets == 0 || offsets != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_ptr_array_set_size (self->sets, 0);
  g_array_set_size (self->handles, 0);
  g_array_set_size (self->bases, 0);
  g_array_set_size (self->offsets, 0);
  g_array_set_size (self->accesses, 0);
  if (!collect_sets (self, n_sets, sets, &total, error))
    goto fail;
  if (n_offsets != total)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("n_offsets: %u, but the sets hold %u dynamic descriptors"), n_offsets, total);
      goto fail;
    }
  g_array_set_size (self->offsets, total);
  g_array_set_size (self->given, total);
  memset (self->given->data, 0, total * sizeof (gboolean));
  for (guint i = 0; i < n_offsets; i++)
    {
      const PscDynamicOffset *o = &offsets[i];
      gint64 index;
      guint at;

      if (o->set >= n_sets)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("offsets[%u].set: %u >= n_sets %u"), i, o->set, n_sets);
          goto fail;
        }
      index = dynamic_index (sets[o->set], i, o, error);
      if (index < 0 || !check_offset (sets[o->set], i, o, error))
        goto fail;
      at = g_array_index (self->bases, guint, o->set) + (guint) index;
      if (g_array_index (self->given, gboolean, at))
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("offsets[%u]: set %u binding %u element %u is given twice"), i, o->set,
                       o->binding, o->array_element);
          goto fail;
        }
      g_array_index (self->given, gboolean, at) = TRUE;
      g_array_index (self->offsets, guint32, at) = o->offset;
    }
  return TRUE;

fail:
  g_ptr_array_set_size (self->sets, 0);
  g_array_set_size (self->handles, 0);
  g_array_set_size (self->offsets, 0);
  return FALSE;
}

/**
 * psc_bind_plan_get_sets: (skip)
 * @self: a built plan
 * @n_sets: (out): how many
 *
 * Gets the sets' handles, in set order.
 *
 * Returns: (array length=n_sets): the handles (owned by the plan, valid
 *   until its next build)
 *
 * Since: 0.3
 */
const VkDescriptorSet *
psc_bind_plan_get_sets (PscBindPlan *self,
                        guint       *n_sets)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_sets != NULL, NULL);
  *n_sets = self->handles->len;
  return (const VkDescriptorSet *) self->handles->data;
}

/**
 * psc_bind_plan_get_dynamic_offsets:
 * @self: a built plan
 * @n_offsets: (out): how many
 *
 * Gets the dynamic offsets in Vulkan's order.
 *
 * Returns: (array length=n_offsets) (transfer none): the offsets (owned by the plan, valid
 *   until its next build)
 *
 * Since: 0.3
 */
const guint32 *
psc_bind_plan_get_dynamic_offsets (PscBindPlan *self,
                                   guint       *n_offsets)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_offsets != NULL, NULL);
  *n_offsets = self->offsets->len;
  return (const guint32 *) self->offsets->data;
}

/* VkShaderStageFlags to the synchronization-2 pipeline stages. */
static VkPipelineStageFlags2
pipeline_stages (VkShaderStageFlags s)
{
  static const struct { VkShaderStageFlags shader; VkPipelineStageFlags2 stage; } map[] = {
    { VK_SHADER_STAGE_VERTEX_BIT, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT },
    { VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT },
    { VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT },
    { VK_SHADER_STAGE_GEOMETRY_BIT, VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT },
    { VK_SHADER_STAGE_FRAGMENT_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT },
    { VK_SHADER_STAGE_COMPUTE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT },
    { VK_SHADER_STAGE_TASK_BIT_EXT, VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT },
    { VK_SHADER_STAGE_MESH_BIT_EXT, VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT },
    { VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
      VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR,
      VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR },
  };
  VkPipelineStageFlags2 out = 0;

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if ((s & map[i].shader) != 0)
      out |= map[i].stage;
  return out;
}

/* The access of one filled slot; FALSE for a sampler (no memory). */
static gboolean
slot_access (const PscDescriptorEntry *e, const PscBindingFacts *b, VkDeviceSize dynamic,
             PscDescriptorAccess *a)
{
  const VkAccessFlags2 storage = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

  a->type = b->type;
  a->stages = pipeline_stages (b->stages);
  switch (e->kind)
    {
    case PSC_SLOT_BUFFER:
      a->buffer = e->buffer;
      a->handle = e->buffer->base.handle;
      a->offset = e->offset + dynamic;
      a->range = e->range;
      a->access = (b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                   b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
                  ? VK_ACCESS_2_UNIFORM_READ_BIT : storage;
      return TRUE;
    case PSC_SLOT_IMAGE:
      a->view = e->view;
      a->handle = (guint64) (uintptr_t) e->view->image;
      a->layout = e->layout;
      a->subresource = e->view->range;
      a->access = b->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ? storage : VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
      return TRUE;
    case PSC_SLOT_TEXEL_BUFFER:
      a->buffer = e->buffer_view->buffer;
      a->handle = e->buffer_view->buffer->base.handle;
      a->offset = e->buffer_view->offset;
      a->range = e->buffer_view->range;
      a->access = b->type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER ? storage
                                                                     : VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
      return TRUE;
    default:
      return FALSE;             /* a sampler: no memory access */
    }
}

/* One set's accesses, its dynamic offsets from @dyn on. */
static gboolean
collect_set (PscBindPlan *self, guint s, GError **error)
{
  const PscDescriptorSet *set = g_ptr_array_index (self->sets, s);
  const PscDescriptorLayout *l = set->layout;
  guint dyn = g_array_index (self->bases, guint, s);

  if (!psc_descriptor_set_check_fresh (set, error))
    {
      g_prefix_error (error, "sets[%u]: ", s);
      return FALSE;
    }
  for (guint k = 0; k < l->n_bindings; k++)
    {
      const PscBindingFacts *b = &l->bindings[k];
      guint32 count = psc_descriptor_set_binding_count (set, b);

      for (guint32 el = 0; el < count; el++)
        {
          const PscDescriptorEntry *e = &set->slots[b->first_slot + el];
          VkDeviceSize dynamic = is_dynamic (b->type) ? g_array_index (self->offsets, guint32, dyn++) : 0;
          PscDescriptorAccess a = { .set = s, .binding = b->binding, .array_element = el };

          if (e->kind == PSC_SLOT_EMPTY)
            continue;           /* partially bound: not accessed */
          if (e->kind == PSC_SLOT_UNTRACKED)
            {
              g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("sets[%u]: binding %u element %u was written untracked: it has no "
                             "owner whose access could be reported"), s, b->binding, el);
              return FALSE;
            }
          if (slot_access (e, b, dynamic, &a))
            g_array_append_val (self->accesses, a);
        }
    }
  return TRUE;
}

/**
 * psc_bind_plan_collect_accesses:
 * @self: a built plan
 * @error: return location for a #GError
 *
 * The memory accesses a draw (or dispatch) with the plan's sets performs,
 * one per filled slot, for a render graph's barriers:
 *
 * | descriptor | access | range |
 * | --- | --- | --- |
 * | uniform buffer (dynamic) | `UNIFORM_READ` | base offset (+ dynamic offset), range |
 * | storage buffer (dynamic) | `SHADER_STORAGE_READ` \| `SHADER_STORAGE_WRITE` | the same |
 * | sampled image, combined image sampler | `SHADER_SAMPLED_READ` in the written layout | the view's subresource range |
 * | storage image | `SHADER_STORAGE_READ` \| `SHADER_STORAGE_WRITE` in `GENERAL` | the view's subresource range |
 * | uniform texel buffer | `SHADER_SAMPLED_READ` | the view's range of its buffer |
 * | storage texel buffer | `SHADER_STORAGE_READ` \| `SHADER_STORAGE_WRITE` | the view's range of its buffer |
 *
 * The stages are the binding's shader stages as synchronization-2
 * pipeline stages. A sampler has no memory access and gives none; an empty
 * (partially bound) slot is not accessed and gives none; an untracked
 * slot has no owner and is an error (%PSC_ERROR_INVALID_ARGUMENT), never
 * left out. A stale set is %PSC_DESCRIPTOR_ERROR_STALE_SET. Each access
 * names its resource by wrapper and by raw handle (`VkBuffer`, or the
 * view's `VkImage`), so a graph can merge one buffer bound through several
 * sets or imported directly.
 *
 * Returns: %TRUE on success, %FALSE with @error set (no access then)
 *
 * Since: 0.3
 */
gboolean
psc_bind_plan_collect_accesses (PscBindPlan  *self,
                                GError      **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_array_set_size (self->accesses, 0);
  for (guint s = 0; s < self->sets->len; s++)
    if (!collect_set (self, s, error))
      {
        g_array_set_size (self->accesses, 0);
        return FALSE;
      }
  return TRUE;
}

/**
 * psc_bind_plan_get_n_accesses:
 * @self: a plan
 *
 * Counts the accesses the last psc_bind_plan_collect_accesses() found.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint
psc_bind_plan_get_n_accesses (PscBindPlan *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->accesses->len;
}

/**
 * psc_bind_plan_get_access:
 * @self: a plan
 * @i: less than psc_bind_plan_get_n_accesses()
 *
 * Gets one access, in set, binding and element order.
 *
 * Returns: (transfer none): the access, valid until the plan's next build
 *
 * Since: 0.3
 */
const PscDescriptorAccess *
psc_bind_plan_get_access (PscBindPlan *self,
                          guint        i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->accesses->len, NULL);
  return &g_array_index (self->accesses, PscDescriptorAccess, i);
}

#define PSC_ACCESS_GETTER(type, name, member, fallback)                   \
  type                                                                    \
  psc_descriptor_access_get_##name (const PscDescriptorAccess *self)      \
  {                                                                       \
    g_return_val_if_fail (self != NULL, fallback);                        \
    return self->member;                                                  \
  }

/**
 * psc_descriptor_access_get_set:
 * @self: an access
 *
 * Gets the set's index in the plan's sets.
 *
 * Returns: the index
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint, set, set, 0)

/**
 * psc_descriptor_access_get_binding:
 * @self: an access
 *
 * Gets the binding.
 *
 * Returns: the binding number
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint32, binding, binding, 0)

/**
 * psc_descriptor_access_get_array_element:
 * @self: an access
 *
 * Gets the array element.
 *
 * Returns: the element
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint32, array_element, array_element, 0)

/**
 * psc_descriptor_access_get_descriptor_type: (skip)
 * @self: an access
 *
 * Gets the binding's descriptor type.
 *
 * Returns: the type
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (VkDescriptorType, descriptor_type, type, VK_DESCRIPTOR_TYPE_MAX_ENUM)

/**
 * psc_descriptor_access_get_buffer:
 * @self: an access
 *
 * Gets the buffer accessed (a texel buffer's view's buffer).
 *
 * Returns: (transfer none) (nullable): the buffer, or %NULL for an image
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (PscBuffer *, buffer, buffer, NULL)

/**
 * psc_descriptor_access_get_image_view:
 * @self: an access
 *
 * Gets the image view accessed.
 *
 * Returns: (transfer none) (nullable): the view, or %NULL for a buffer
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (PscImageView *, image_view, view, NULL)

/**
 * psc_descriptor_access_get_handle:
 * @self: an access
 *
 * Gets the raw handle of the resource accessed, for identity.
 *
 * Returns: the `VkBuffer`, or the view's `VkImage`, cast to 64 bits
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint64, handle, handle, 0)

/**
 * psc_descriptor_access_get_offset:
 * @self: an access
 *
 * Gets where a buffer access starts.
 *
 * Returns: the effective offset (the base offset plus any dynamic offset)
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint64, offset, offset, 0)

/**
 * psc_descriptor_access_get_range:
 * @self: an access
 *
 * Gets a buffer access's size.
 *
 * Returns: the range in bytes
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (guint64, range, range, 0)

/**
 * psc_descriptor_access_get_image_layout: (skip)
 * @self: an access
 *
 * Gets the layout an image access needs.
 *
 * Returns: the layout (`VK_IMAGE_LAYOUT_UNDEFINED` for a buffer)
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (VkImageLayout, image_layout, layout, VK_IMAGE_LAYOUT_UNDEFINED)

/**
 * psc_descriptor_access_get_stages: (skip)
 * @self: an access
 *
 * Gets the pipeline stages that access.
 *
 * Returns: synchronization-2 pipeline stages
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (VkPipelineStageFlags2, stages, stages, 0)

/**
 * psc_descriptor_access_get_access: (skip)
 * @self: an access
 *
 * Gets the kind of access.
 *
 * Returns: synchronization-2 access flags
 *
 * Since: 0.3
 */
PSC_ACCESS_GETTER (VkAccessFlags2, access, access, 0)

/**
 * psc_descriptor_access_get_subresource_range: (skip)
 * @self: an access
 * @out_range: (out caller-allocates): the normalized subresource range
 *
 * Gets the subresource range of an image access (zero for a buffer).
 *
 * Since: 0.3
 */
void
psc_descriptor_access_get_subresource_range (const PscDescriptorAccess *self,
                                             VkImageSubresourceRange   *out_range)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out_range != NULL);
  *out_range = self->subresource;
}
