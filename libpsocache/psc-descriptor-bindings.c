/* psc-descriptor-bindings.c: the managed descriptor layer's methods for
 * bindings (as psc-resource-bindings.c for the wrappers): layouts from a
 * recipe's set, pools sized for a layout, handles as guint64 and Vulkan
 * enumerations and flags as integers, and the boxed types of entries,
 * dynamic offsets and accesses, whose copies hold references (a binding
 * keeps a copy for as long as it likes; the C API's pointers are valid only
 * until the next change).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"
#include "psc-recipe-build.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define HANDLE(h) ((guint64) (guintptr) (h))

/* ---------------------------------------------------------------------------
 * Layouts from recipes
 */

/* The recipe's parts through the cache, the wanted set as a managed
 * layout (set layouts are built in set order). */
typedef struct {
  PscCache *cache;
  guint wanted, next;
  PscDescriptorLayout *layout;
} LayoutMaker;

static gboolean
lm_sampler (void *ctx, const VkSamplerCreateInfo *ci, VkSampler *out, GError **error)
{
  *out = psc_cache_get_sampler (((LayoutMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

static gboolean
lm_set_layout (void *ctx, const VkDescriptorSetLayoutCreateInfo *ci, VkDescriptorSetLayout *out,
               GError **error)
{
  LayoutMaker *m = ctx;

  if (m->next++ != m->wanted)
    *out = psc_cache_get_descriptor_set_layout (m->cache, ci, error);
  else if ((m->layout = psc_descriptor_layout_new (m->cache, ci, error)) != NULL)
    *out = m->layout->handle;
  else
    *out = VK_NULL_HANDLE;
  return *out != VK_NULL_HANDLE;
}

static gboolean
lm_pipeline_layout (void *ctx, const VkPipelineLayoutCreateInfo *ci, VkPipelineLayout *out,
                    GError **error)
{
  *out = psc_cache_get_pipeline_layout (((LayoutMaker *) ctx)->cache, ci, error);
  return *out != VK_NULL_HANDLE;
}

/**
 * psc_descriptor_layout_new_for_recipe:
 * @cache: the cache that issues the layout (owner thread)
 * @recipe: a recipe with a pipeline layout
 * @set: a set number of the recipe's layout
 * @error: return location for a #GError
 *
 * A managed layout for one set of a recipe's pipeline layout: the set's
 * create info, as [method@Psc.Cache.get_set_layout_for_recipe] makes it
 * (with its binding flags), given to `psc_descriptor_layout_new()`, which
 * checks it. The recipe's other parts (its other sets, the pipeline
 * layout) are made in the cache on the way, as that method makes them.
 *
 * Returns: (transfer full): a new layout, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT naming `layout.sets[N]` when the recipe has
 *   no such set; the errors of `psc_descriptor_layout_new()`)
 *
 * Since: 0.3
 */
PscDescriptorLayout *
psc_descriptor_layout_new_for_recipe (PscCache   *cache,
                                      PscRecipe  *recipe,
                                      guint       set,
                                      GError    **error)
{
  LayoutMaker m = { .cache = cache, .wanted = set };
  PscRecipeMaker maker = { &m, NULL, lm_sampler, lm_set_layout, lm_pipeline_layout, NULL };
  PscRecipeBuild *b;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);
  g_return_val_if_fail (PSC_IS_RECIPE (recipe), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (set >= psc_recipe_get_n_set_layouts (recipe))
    {
      char path[32];
      g_snprintf (path, sizeof path, "layout.sets[%u]", set);
      psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "the recipe has %u sets",
                       psc_recipe_get_n_set_layouts (recipe));
      return NULL;
    }
  b = psc_recipe_build (recipe, &maker, PSC_RECIPE_BUILD_LAYOUT, error);
  if (b == NULL)
    {
      g_clear_pointer (&m.layout, psc_descriptor_layout_unref);
      return NULL;
    }
  psc_recipe_build_free (b);
  return m.layout;
}

/**
 * psc_descriptor_layout_get_handle_value: (rename-to psc_descriptor_layout_get_handle)
 * @self: a layout
 *
 * Gets the cache's `VkDescriptorSetLayout` as an integer, for bindings.
 *
 * Returns: the `VkDescriptorSetLayout` handle
 *
 * Since: 0.3
 */
guint64
psc_descriptor_layout_get_handle_value (PscDescriptorLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return HANDLE (self->handle);
}

/* ---------------------------------------------------------------------------
 * Pools
 */

/**
 * psc_descriptor_pool_new_for_layout:
 * @device: a device
 * @layout: the layout the pool's sets will have
 * @max_sets: how many sets of @layout the pool holds
 * @error: return location for a #GError
 *
 * A pool for @max_sets sets of @layout: per descriptor type, @max_sets
 * times the layout's count of it (a variable binding's maximum), with
 * `VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT` when the layout is an
 * update-after-bind one; otherwise as `psc_descriptor_pool_new()`.
 *
 * Returns: (transfer full): a new pool, or %NULL with @error set
 *   (%PSC_ERROR_INVALID_ARGUMENT when @max_sets is 0 or the counts overflow)
 *
 * Since: 0.3
 */
PscDescriptorPool *
psc_descriptor_pool_new_for_layout (PscDevice            *device,
                                    PscDescriptorLayout  *layout,
                                    guint32               max_sets,
                                    GError              **error)
{
  /* Managed types are the core ones, VK_DESCRIPTOR_TYPE_SAMPLER (0) to
   * STORAGE_BUFFER_DYNAMIC (9). */
  guint64 counts[VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT] = { 0 };
  VkDescriptorPoolSize sizes[G_N_ELEMENTS (counts)];
  VkDescriptorPoolCreateInfo info = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO };

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; i < layout->n_bindings; i++)
    counts[layout->bindings[i].type] += layout->bindings[i].count;
  for (guint t = 0; t < G_N_ELEMENTS (counts); t++)
    {
      if (counts[t] == 0)
        continue;
      if (counts[t] * max_sets > G_MAXUINT32)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("max_sets: %u sets of %" G_GUINT64_FORMAT " descriptors of type %u overflow"),
                       max_sets, counts[t], t);
          return NULL;
        }
      sizes[info.poolSizeCount++] = (VkDescriptorPoolSize) { t, (guint32) (counts[t] * max_sets) };
    }
  if (info.poolSizeCount == 0)
    /* A layout without bindings: a pool still needs one size. */
    sizes[info.poolSizeCount++] = (VkDescriptorPoolSize) { VK_DESCRIPTOR_TYPE_SAMPLER, 1 };
  info.maxSets = max_sets;
  info.pPoolSizes = sizes;
  if ((layout->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) != 0)
    info.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
  return psc_descriptor_pool_new (device, &info, error);
}

/* ---------------------------------------------------------------------------
 * Entries
 */

G_DEFINE_BOXED_TYPE (PscDescriptorEntry, psc_descriptor_entry,
                     psc_descriptor_entry_copy, psc_descriptor_entry_free)

/**
 * psc_descriptor_entry_copy:
 * @self: an entry
 *
 * Copies an entry, with references on what it binds: the copy stays valid
 * after the set changes or goes (the entry a set returns is valid only
 * until its slot is written again).
 *
 * Returns: (transfer full): a copy, to free with
 *   [method@Psc.DescriptorEntry.free]
 *
 * Since: 0.3
 */
PscDescriptorEntry *
psc_descriptor_entry_copy (const PscDescriptorEntry *self)
{
  PscDescriptorEntry *copy;

  g_return_val_if_fail (self != NULL, NULL);
  copy = g_memdup2 (self, sizeof *self);
  psc_owners_acquire (copy->buffer, copy->view, copy->sampler, copy->buffer_view);
  return copy;
}

/**
 * psc_descriptor_entry_free:
 * @self: (transfer full) (nullable): a copied entry
 *
 * Frees a copy made by [method@Psc.DescriptorEntry.copy] (never an entry a
 * set returned).
 *
 * Since: 0.3
 */
void
psc_descriptor_entry_free (PscDescriptorEntry *self)
{
  if (self == NULL)
    return;
  psc_descriptor_entry_clear (self);
  g_free (self);
}

/**
 * psc_descriptor_entry_get_descriptor_type_value: (rename-to psc_descriptor_entry_get_descriptor_type)
 * @self: an entry
 *
 * Gets the descriptor type as an integer, for bindings.
 *
 * Returns: the `VkDescriptorType` of the slot's binding
 *
 * Since: 0.3
 */
guint32
psc_descriptor_entry_get_descriptor_type_value (const PscDescriptorEntry *self)
{
  return (guint32) psc_descriptor_entry_get_descriptor_type (self);
}

/**
 * psc_descriptor_entry_get_image_layout_value: (rename-to psc_descriptor_entry_get_image_layout)
 * @self: an entry
 *
 * Gets the image layout as an integer, for bindings.
 *
 * Returns: the `VkImageLayout` written with the image
 *
 * Since: 0.3
 */
guint32
psc_descriptor_entry_get_image_layout_value (const PscDescriptorEntry *self)
{
  return (guint32) psc_descriptor_entry_get_image_layout (self);
}

/* ---------------------------------------------------------------------------
 * Dynamic offsets and bind plans
 */

static PscDynamicOffset *
dynamic_offset_copy (const PscDynamicOffset *self)
{
  return g_memdup2 (self, sizeof *self);
}

G_DEFINE_BOXED_TYPE (PscDynamicOffset, psc_dynamic_offset, dynamic_offset_copy, g_free)

/**
 * psc_bind_plan_get_set_handles: (rename-to psc_bind_plan_get_sets)
 * @self: a built plan
 * @n_sets: (out): how many
 *
 * Gets the handles to bind as integers, for bindings, as
 * `psc_bind_plan_get_sets()` does.
 *
 * Returns: (array length=n_sets) (transfer none): the `VkDescriptorSet`
 *   handles (owned by the plan, valid until its next build)
 *
 * Since: 0.3
 */
const guint64 *
psc_bind_plan_get_set_handles (PscBindPlan *self,
                               guint       *n_sets)
{
  G_STATIC_ASSERT (sizeof (VkDescriptorSet) == sizeof (guint64));
  /* A non-dispatchable handle is 64 bits on every platform: the same array. */
  return (const guint64 *) psc_bind_plan_get_sets (self, n_sets);
}

/* ---------------------------------------------------------------------------
 * Accesses
 */

G_DEFINE_BOXED_TYPE (PscDescriptorAccess, psc_descriptor_access,
                     psc_descriptor_access_copy, psc_descriptor_access_free)

/**
 * psc_descriptor_access_copy:
 * @self: an access
 *
 * Copies an access, with references on its buffer or image view: the copy
 * stays valid after the plan's next build (the access a plan returns does
 * not).
 *
 * Returns: (transfer full): a copy, to free with
 *   [method@Psc.DescriptorAccess.free]
 *
 * Since: 0.3
 */
PscDescriptorAccess *
psc_descriptor_access_copy (const PscDescriptorAccess *self)
{
  PscDescriptorAccess *copy;

  g_return_val_if_fail (self != NULL, NULL);
  copy = g_memdup2 (self, sizeof *self);
  psc_owners_acquire (copy->buffer, copy->view, NULL, NULL);
  return copy;
}

/**
 * psc_descriptor_access_free:
 * @self: (transfer full) (nullable): a copied access
 *
 * Frees a copy made by [method@Psc.DescriptorAccess.copy] (never an access
 * a plan returned).
 *
 * Since: 0.3
 */
void
psc_descriptor_access_free (PscDescriptorAccess *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->buffer, psc_buffer_unref);
  g_clear_pointer (&self->view, psc_image_view_unref);
  g_free (self);
}

/**
 * psc_descriptor_access_get_descriptor_type_value: (rename-to psc_descriptor_access_get_descriptor_type)
 * @self: an access
 *
 * Gets the descriptor type as an integer, for bindings.
 *
 * Returns: the `VkDescriptorType`
 *
 * Since: 0.3
 */
guint32
psc_descriptor_access_get_descriptor_type_value (const PscDescriptorAccess *self)
{
  return (guint32) psc_descriptor_access_get_descriptor_type (self);
}

/**
 * psc_descriptor_access_get_image_layout_value: (rename-to psc_descriptor_access_get_image_layout)
 * @self: an access
 *
 * Gets the image layout as an integer, for bindings.
 *
 * Returns: the `VkImageLayout` (`VK_IMAGE_LAYOUT_UNDEFINED`, 0, for a
 *   buffer)
 *
 * Since: 0.3
 */
guint32
psc_descriptor_access_get_image_layout_value (const PscDescriptorAccess *self)
{
  return (guint32) psc_descriptor_access_get_image_layout (self);
}

/**
 * psc_descriptor_access_get_stages_value: (rename-to psc_descriptor_access_get_stages)
 * @self: an access
 *
 * Gets the stages as an integer, for bindings.
 *
 * Returns: the `VkPipelineStageFlags2`
 *
 * Since: 0.3
 */
guint64
psc_descriptor_access_get_stages_value (const PscDescriptorAccess *self)
{
  return psc_descriptor_access_get_stages (self);
}

/**
 * psc_descriptor_access_get_access_value: (rename-to psc_descriptor_access_get_access)
 * @self: an access
 *
 * Gets the access flags as an integer, for bindings.
 *
 * Returns: the `VkAccessFlags2`
 *
 * Since: 0.3
 */
guint64
psc_descriptor_access_get_access_value (const PscDescriptorAccess *self)
{
  return psc_descriptor_access_get_access (self);
}

/**
 * psc_descriptor_access_get_subresource_range_values: (rename-to psc_descriptor_access_get_subresource_range)
 * @self: an access
 * @aspect_mask: (out) (optional): the aspects
 * @base_mip_level: (out) (optional): the first mip level
 * @level_count: (out) (optional): how many levels
 * @base_array_layer: (out) (optional): the first array layer
 * @layer_count: (out) (optional): how many layers
 *
 * Gets the normalized subresource range an image access covers member by
 * member, for bindings (all 0 for a buffer).
 *
 * Since: 0.3
 */
void
psc_descriptor_access_get_subresource_range_values (const PscDescriptorAccess *self,
                                                    guint32                   *aspect_mask,
                                                    guint32                   *base_mip_level,
                                                    guint32                   *level_count,
                                                    guint32                   *base_array_layer,
                                                    guint32                   *layer_count)
{
  g_return_if_fail (self != NULL);
  psc_range_to_values (&self->subresource, aspect_mask, base_mip_level, level_count, base_array_layer, layer_count);
}
