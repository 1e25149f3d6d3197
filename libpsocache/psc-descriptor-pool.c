/* psc-descriptor-pool.c: PscDescriptorPool, a descriptor pool with a
 * generation: managed and untracked allocation, the externally
 * synchronized reset and destruction.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <glib/gi18n-lib.h>

G_DEFINE_BOXED_TYPE (PscDescriptorPool, psc_descriptor_pool,
                     psc_descriptor_pool_ref, psc_descriptor_pool_unref)

gboolean
psc_descriptor_vk_load (PscDescriptorVk *vk, PscDevice *device, GError **error)
{
  const PscDeviceInfo *info = psc_device_get_info (device);

  vk->device = info->device;
  vk->allocator = info->allocator;
#define PSC_LOAD(name) vk->name = (PFN_vk##name) psc_device_get_device_proc (device, "vk" #name)
  PSC_LOAD (CreateDescriptorPool);
  PSC_LOAD (DestroyDescriptorPool);
  PSC_LOAD (ResetDescriptorPool);
  PSC_LOAD (AllocateDescriptorSets);
  PSC_LOAD (UpdateDescriptorSets);
#undef PSC_LOAD
  if (vk->CreateDescriptorPool == NULL || vk->DestroyDescriptorPool == NULL ||
      vk->ResetDescriptorPool == NULL || vk->AllocateDescriptorSets == NULL ||
      vk->UpdateDescriptorSets == NULL)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_NO_DEVICE,
                           _("the device's descriptor entry points cannot be loaded"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
vk_failed (GError **error, VkResult r, const char *what)
{
  g_set_error (error, PSC_ERROR, PSC_ERROR_VULKAN, _("%s failed: VkResult %d"), what, (int) r);
  return FALSE;
}

static void
pool_destroy_handle (PscDescriptorPool *self)
{
  if (self->handle == VK_NULL_HANDLE)
    return;
  self->vk.DestroyDescriptorPool (self->vk.device, self->handle, self->vk.allocator);
  self->handle = VK_NULL_HANDLE;
  self->generation++;
}

static void
pool_clear (gpointer data)
{
  PscDescriptorPool *self = data;

  pool_destroy_handle (self);
  g_clear_object (&self->device);
}

/**
 * psc_descriptor_pool_new: (skip)
 * @device: a device
 * @info: the pool to create (`maxSets`, `pPoolSizes`, flags)
 * @error: return location for a #GError
 *
 * Creates a descriptor pool for managed and untracked sets. Its flags may
 * hold `VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT` (sets of
 * update-after-bind layouts need it; the device must have enabled an
 * update-after-bind feature) and `FREE_DESCRIPTOR_SET_BIT` (which changes
 * nothing: sets return to the pool only when it is reset). Its generation
 * starts at 1.
 *
 * A pool and every set allocated from it are externally synchronized: one
 * thread at a time, the application's (see
 * [method@Psc.DescriptorPool.reset_unlocked]).
 *
 * Returns: (transfer full): a new pool, or %NULL with @error set
 *
 * Since: 0.3
 */
PscDescriptorPool *
psc_descriptor_pool_new (PscDevice                        *device,
                         const VkDescriptorPoolCreateInfo *info,
                         GError                          **error)
{
  g_autoptr(PscDescriptorPool) self = NULL;
  const VkDescriptorPoolCreateFlags known = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT |
                                            VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
  VkResult r;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((info->flags & ~known) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("flags: 0x%x holds flags managed pools do not take"), (guint) (info->flags & ~known));
      return NULL;
    }
  if ((info->flags & VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT) != 0)
    {
      static const char *const uab[] = {
        "descriptorBindingUniformBufferUpdateAfterBind", "descriptorBindingSampledImageUpdateAfterBind",
        "descriptorBindingStorageImageUpdateAfterBind", "descriptorBindingStorageBufferUpdateAfterBind",
        "descriptorBindingUniformTexelBufferUpdateAfterBind",
        "descriptorBindingStorageTexelBufferUpdateAfterBind",
      };
      gboolean any = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (uab); i++)
        any |= psc_device_get_enabled_feature (device, uab[i]);
      if (!any)
        {
          g_set_error_literal (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED,
                               _("flags: UPDATE_AFTER_BIND needs an update-after-bind feature "
                                 "(descriptorBinding*UpdateAfterBind), and the device enabled none"));
          return NULL;
        }
    }
  if (info->maxSets == 0 || info->poolSizeCount == 0 || info->pPoolSizes == NULL)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           info->maxSets == 0 ? _("maxSets: 0") : _("pPoolSizes: no pool sizes"));
      return NULL;
    }

  self = g_atomic_rc_box_new0 (PscDescriptorPool);
  self->device = g_object_ref (device);
  self->flags = info->flags;
  self->generation = 1;
  self->max_sets = info->maxSets;
  self->fail_next_reset = VK_SUCCESS;
  if (!psc_descriptor_vk_load (&self->vk, device, error))
    return NULL;
  r = self->vk.CreateDescriptorPool (self->vk.device, info, self->vk.allocator, &self->handle);
  if (r != VK_SUCCESS)
    {
      self->handle = VK_NULL_HANDLE;
      vk_failed (error, r, "vkCreateDescriptorPool");
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * psc_descriptor_pool_ref:
 * @self: a pool
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscDescriptorPool *
psc_descriptor_pool_ref (PscDescriptorPool *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

/**
 * psc_descriptor_pool_unref:
 * @self: (transfer full): a pool
 *
 * Drops a reference. Every managed set holds one; the last reference
 * destroys the `VkDescriptorPool` if [method@Psc.DescriptorPool.destroy_unlocked]
 * has not, under the same contract.
 *
 * Since: 0.3
 */
void
psc_descriptor_pool_unref (PscDescriptorPool *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, pool_clear);
}

/**
 * psc_descriptor_pool_get_generation:
 * @self: a pool
 *
 * Gets the pool's generation.
 *
 * Returns: the pool's generation: 1 at creation, advanced by each
 *   successful reset and by the destruction
 *
 * Since: 0.3
 */
guint64
psc_descriptor_pool_get_generation (PscDescriptorPool *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->generation;
}

static gboolean
check_alive (PscDescriptorPool *self, GError **error)
{
  if (self->handle != VK_NULL_HANDLE)
    return TRUE;
  g_set_error_literal (error, PSC_ERROR, PSC_ERROR_CLOSED, _("the descriptor pool was destroyed"));
  return FALSE;
}

static gboolean
allocate (PscDescriptorPool *self, VkDescriptorSetLayout layout, const void *next,
          VkDescriptorSet *out, GError **error)
{
  VkDescriptorSetAllocateInfo ai = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
    .pNext = next,
    .descriptorPool = self->handle,
    .descriptorSetCount = 1,
    .pSetLayouts = &layout,
  };
  VkResult r;

  /* Counted here: drivers differ in what they do past maxSets. */
  if (self->n_allocated >= self->max_sets)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_CAPACITY,
                   _("the descriptor pool's maxSets (%u) sets are allocated: reset it or use another"),
                   self->max_sets);
      return FALSE;
    }
  r = self->vk.AllocateDescriptorSets (self->vk.device, &ai, out);
  if (r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_CAPACITY,
                   _("the descriptor pool is full (VkResult %d): reset it or use another"), (int) r);
      return FALSE;
    }
  if (r != VK_SUCCESS)
    return vk_failed (error, r, "vkAllocateDescriptorSets");
  self->n_allocated++;
  return TRUE;
}

/**
 * psc_descriptor_pool_allocate_managed:
 * @self: a pool
 * @layout: the set's layout
 * @variable_count: the descriptor count of the layout's
 *   `VARIABLE_DESCRIPTOR_COUNT` binding, at most its count; 0 if the layout
 *   has none
 * @error: return location for a #GError
 *
 * Allocates a managed set: it records the pool's current generation and
 * starts with every slot empty. A layout with `UPDATE_AFTER_BIND_POOL`
 * needs a pool created with `UPDATE_AFTER_BIND`.
 *
 * Returns: (transfer full): a new set, or %NULL with @error set
 *   (%PSC_ERROR_CAPACITY when the pool is full: `maxSets` sets allocated
 *   since the last reset, counted by the pool itself, or the driver's
 *   `VK_ERROR_OUT_OF_POOL_MEMORY`; %PSC_ERROR_CLOSED once it was destroyed)
 *
 * Since: 0.3
 */
PscDescriptorSet *
psc_descriptor_pool_allocate_managed (PscDescriptorPool    *self,
                                      PscDescriptorLayout  *layout,
                                      guint32               variable_count,
                                      GError              **error)
{
  VkDescriptorSetVariableDescriptorCountAllocateInfo vc = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
    .descriptorSetCount = 1,
    .pDescriptorCounts = &variable_count,
  };
  VkDescriptorSet handle = VK_NULL_HANDLE;
  PscDescriptorSet *set;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_alive (self, error))
    return NULL;
  if (layout->device != self->device)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("layout: made for another device than the pool's"));
      return NULL;
    }
  if ((layout->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) != 0 &&
      (self->flags & VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT) == 0)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                           _("layout: an update-after-bind layout needs a pool created with "
                             "VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT"));
      return NULL;
    }
  if (layout->has_variable
      ? variable_count > layout->bindings[layout->n_bindings - 1].count
      : variable_count != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   layout->has_variable ? _("variable_count: %u > the variable binding's count %u")
                                        : _("variable_count: %u for a layout without a variable binding"),
                   variable_count, layout->has_variable ? layout->bindings[layout->n_bindings - 1].count : 0);
      return NULL;
    }
  if (!allocate (self, layout->handle, layout->has_variable ? &vc : NULL, &handle, error))
    return NULL;

  set = g_atomic_rc_box_new0 (PscDescriptorSet);
  set->pool = psc_descriptor_pool_ref (self);
  set->layout = psc_descriptor_layout_ref (layout);
  set->handle = handle;
  set->generation = self->generation;
  set->variable_count = variable_count;
  set->slots = g_new0 (PscDescriptorEntry, MAX (layout->n_slots, 1));
  for (guint i = 0; i < layout->n_bindings; i++)
    if (psc_binding_requires_fill (&layout->bindings[i]))
      set->required_empty += psc_descriptor_set_binding_count (set, &layout->bindings[i]);
  return set;
}

/**
 * psc_descriptor_pool_allocate_untracked:
 * @self: a pool
 * @layout: (type guint64): any descriptor-set layout of the pool's device
 * @out_set: (out) (type guint64): the set
 * @error: return location for a #GError
 *
 * The escape hatch: a raw set that owns nothing, records no binding and
 * no generation, and can never be used where a managed set is expected.
 * Its validity after a reset and the lifetime of what it binds are the
 * caller's.
 *
 * Returns: (skip): %TRUE on success, %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_pool_allocate_untracked (PscDescriptorPool      *self,
                                        VkDescriptorSetLayout   layout,
                                        VkDescriptorSet        *out_set,
                                        GError                **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out_set != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out_set = VK_NULL_HANDLE;
  if (layout == VK_NULL_HANDLE)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("layout: VK_NULL_HANDLE"));
      return FALSE;
    }
  return check_alive (self, error) && allocate (self, layout, NULL, out_set, error);
}

/**
 * psc_descriptor_pool_reset_unlocked:
 * @self: a pool
 * @error: return location for a #GError
 *
 * Resets the pool (`vkResetDescriptorPool`): every set allocated from it,
 * managed or untracked, stops being a valid set. Only after Vulkan reports
 * success does the generation advance, so every surviving managed set is
 * then stale ([method@Psc.DescriptorSet.is_stale]): its handle, entries,
 * writers, access facts and bind offsets are refused with
 * %PSC_DESCRIPTOR_ERROR_STALE_SET. A failed reset changes nothing.
 *
 * External synchronization, which this function does not provide (hence
 * `_unlocked`): before calling it, every GPU submission that could access a
 * set of the pool or what the sets bind must have completed, and no other
 * use of the pool or of its sets may run until it returns: allocation,
 * writers and commits, handle reads, recording and binding. The generation
 * check catches a set already stale when it is used; it cannot make a
 * concurrent reset safe, nor revoke a handle read before the reset.
 * Dropping references is not proof that the GPU is done either.
 *
 * Returns: %TRUE on success, %FALSE with @error set (the generation
 *   unchanged)
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_pool_reset_unlocked (PscDescriptorPool  *self,
                                    GError            **error)
{
  VkResult r;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_alive (self, error))
    return FALSE;
  if (self->fail_next_reset != VK_SUCCESS)
    {
      r = self->fail_next_reset;
      self->fail_next_reset = VK_SUCCESS;
    }
  else
    r = self->vk.ResetDescriptorPool (self->vk.device, self->handle, 0);
  if (r != VK_SUCCESS)
    return vk_failed (error, r, "vkResetDescriptorPool");
  self->generation++;
  self->n_allocated = 0;
  return TRUE;
}

/**
 * psc_descriptor_pool_destroy_unlocked:
 * @self: a pool
 *
 * Destroys the `VkDescriptorPool` now (its sets with it) and advances the
 * generation: surviving managed sets are stale, allocation fails with
 * %PSC_ERROR_CLOSED. The wrapper lives on while references exist.
 * Externally synchronized exactly as [method@Psc.DescriptorPool.reset_unlocked].
 * Destroying twice does nothing.
 *
 * Since: 0.3
 */
void
psc_descriptor_pool_destroy_unlocked (PscDescriptorPool *self)
{
  g_return_if_fail (self != NULL);
  pool_destroy_handle (self);
}
