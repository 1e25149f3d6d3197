/* psc-descriptor-layout.c: PscDescriptorLayout, a cache-issued
 * descriptor-set layout with its binding facts, checked against the
 * device's enabled features; and the layer's error domain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>

static const GDBusErrorEntry psc_descriptor_error_entries[] = {
  { PSC_DESCRIPTOR_ERROR_STALE_SET, "io.github.psocache.Error.StaleSet" },
  { PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED, "io.github.psocache.Error.FeatureNotEnabled" },
  { PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE, "io.github.psocache.Error.SwapchainImage" },
  { PSC_DESCRIPTOR_ERROR_INVALIDATED, "io.github.psocache.Error.Invalidated" },
  { PSC_DESCRIPTOR_ERROR_INCOMPLETE, "io.github.psocache.Error.Incomplete" },
};

/**
 * psc_descriptor_error_quark:
 *
 * The error domain of the managed descriptor layer's refusals, also
 * reachable as %PSC_DESCRIPTOR_ERROR (see [error@Psc.DescriptorError]). Its
 * codes have D-Bus names too (`io.github.psocache.Error.StaleSet`, ...).
 *
 * Returns: the error quark
 *
 * Since: 0.3
 */
GQuark
psc_descriptor_error_quark (void)
{
  static gsize quark = 0;

  psc_i18n_init ();
  g_dbus_error_register_error_domain ("psc-descriptor-error-quark", &quark,
                                      psc_descriptor_error_entries,
                                      G_N_ELEMENTS (psc_descriptor_error_entries));
  return (GQuark) quark;
}

G_DEFINE_BOXED_TYPE (PscDescriptorLayout, psc_descriptor_layout,
                     psc_descriptor_layout_ref, psc_descriptor_layout_unref)

/* The types managed sets support (seed 001), each with the feature its
 * update-after-bind needs (NULL: not allowed at all). */
static gboolean
supported_type (VkDescriptorType type, const char **uab_feature)
{
  switch (type)
    {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
      *uab_feature = "descriptorBindingUniformBufferUpdateAfterBind";
      return TRUE;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      *uab_feature = "descriptorBindingStorageBufferUpdateAfterBind";
      return TRUE;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      *uab_feature = NULL;
      return TRUE;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      *uab_feature = "descriptorBindingSampledImageUpdateAfterBind";
      return TRUE;
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      *uab_feature = "descriptorBindingStorageImageUpdateAfterBind";
      return TRUE;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      *uab_feature = "descriptorBindingUniformTexelBufferUpdateAfterBind";
      return TRUE;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      *uab_feature = "descriptorBindingStorageTexelBufferUpdateAfterBind";
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
require_feature (PscDevice *device, const char *feature, guint index, const char *what,
                 GError **error)
{
  if (psc_device_get_enabled_feature (device, feature))
    return TRUE;
  g_set_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED,
               _("pBindings[%u]: %s needs the device feature %s, which was not enabled"),
               index, what, feature);
  return FALSE;
}

#define PSC_KNOWN_BINDING_FLAGS \
  (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT | \
   VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)

/* One binding's type, count and flags against the layer's rules and the
 * device's enabled features. */
static gboolean
check_binding (PscDevice *device, const VkDescriptorSetLayoutCreateInfo *info, guint i,
               VkDescriptorBindingFlags flags, guint32 highest, GError **error)
{
  const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
  const char *uab = NULL;
  gboolean dynamic = b->descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                     b->descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;

  if (!supported_type (b->descriptorType, &uab))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("pBindings[%u].descriptorType: %d is not a type managed sets support "
                     "(uniform/storage buffers and their dynamic forms, sampled and storage "
                     "images, combined image samplers, samplers, texel buffers); use the "
                     "cache's layout and allocate_untracked"), i, (int) b->descriptorType);
      return FALSE;
    }
  if (b->descriptorCount == 0 || b->descriptorCount > PSC_DESCRIPTOR_MAX_ARRAY)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("pBindings[%u].descriptorCount: %u is not between 1 and %u"), i,
                   b->descriptorCount, PSC_DESCRIPTOR_MAX_ARRAY);
      return FALSE;
    }
  if (b->pImmutableSamplers != NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("pBindings[%u].pImmutableSamplers: managed layouts take no immutable "
                     "samplers (write a PscSampler instead)"), i);
      return FALSE;
    }
  if ((flags & ~(VkDescriptorBindingFlags) PSC_KNOWN_BINDING_FLAGS) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("pBindings[%u]: binding flags 0x%x are unknown"), i,
                   (guint) (flags & ~(VkDescriptorBindingFlags) PSC_KNOWN_BINDING_FLAGS));
      return FALSE;
    }
  if ((flags & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) != 0)
    {
      if (uab == NULL)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("pBindings[%u]: a dynamic buffer binding cannot be updated after bind"), i);
          return FALSE;
        }
      if ((info->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) == 0)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("pBindings[%u]: UPDATE_AFTER_BIND needs flags to hold "
                         "VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT"), i);
          return FALSE;
        }
      if (!require_feature (device, uab, i, "UPDATE_AFTER_BIND of this type", error))
        return FALSE;
    }
  if ((flags & VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT) != 0 &&
      !require_feature (device, "descriptorBindingUpdateUnusedWhilePending", i,
                        "UPDATE_UNUSED_WHILE_PENDING", error))
    return FALSE;
  if ((flags & VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT) != 0 &&
      !require_feature (device, "descriptorBindingPartiallyBound", i, "PARTIALLY_BOUND", error))
    return FALSE;
  if ((flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0)
    {
      if (dynamic || b->binding != highest)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("pBindings[%u]: VARIABLE_DESCRIPTOR_COUNT is only for the highest "
                         "binding number (%u), and never a dynamic buffer"), i, highest);
          return FALSE;
        }
      /* The layout side of a runtime array (`T name[]` in the shader). */
      if (!require_feature (device, "descriptorBindingVariableDescriptorCount", i,
                            "VARIABLE_DESCRIPTOR_COUNT", error) ||
          !require_feature (device, "runtimeDescriptorArray", i,
                            "VARIABLE_DESCRIPTOR_COUNT (a runtime array)", error))
        return FALSE;
    }
  return TRUE;
}

static const VkDescriptorSetLayoutBindingFlagsCreateInfo *
find_binding_flags (const VkDescriptorSetLayoutCreateInfo *info)
{
  for (const VkBaseInStructure *n = info->pNext; n != NULL; n = n->pNext)
    if (n->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
      return (const VkDescriptorSetLayoutBindingFlagsCreateInfo *) n;
  return NULL;
}

static int
compare_facts (const void *a, const void *b)
{
  const PscBindingFacts *x = a, *y = b;
  return x->binding < y->binding ? -1 : x->binding > y->binding;
}

static void
set_buffer_limits (PscDevice *device, PscBindingFacts *b)
{
  const VkPhysicalDeviceLimits *limits = psc_device_get_limits (device);

  switch (b->type)
    {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
      b->align_mask = MAX (limits->minUniformBufferOffsetAlignment, 1) - 1;
      b->max_range = limits->maxUniformBufferRange;
      break;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      b->align_mask = MAX (limits->minStorageBufferOffsetAlignment, 1) - 1;
      b->max_range = limits->maxStorageBufferRange;
      break;
    default:
      break;
    }
}

/* Every binding checked; the facts in binding order with their slots. */
static gboolean
collect_facts (PscDescriptorLayout *self, const VkDescriptorSetLayoutCreateInfo *info,
               GError **error)
{
  const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = find_binding_flags (info);
  guint32 highest = 0, slot = 0;

  if (bf != NULL && bf->bindingCount != 0 && bf->bindingCount != info->bindingCount)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("pNext: VkDescriptorSetLayoutBindingFlagsCreateInfo.bindingCount %u is "
                     "neither 0 nor bindingCount %u"), bf->bindingCount, info->bindingCount);
      return FALSE;
    }
  for (guint i = 0; i < info->bindingCount; i++)
    highest = MAX (highest, info->pBindings[i].binding);

  self->n_bindings = info->bindingCount;
  self->bindings = g_new0 (PscBindingFacts, MAX (info->bindingCount, 1));
  for (guint i = 0; i < info->bindingCount; i++)
    {
      const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
      VkDescriptorBindingFlags flags = bf != NULL && bf->bindingCount != 0 ? bf->pBindingFlags[i] : 0;

      if (!check_binding (self->device, info, i, flags, highest, error))
        return FALSE;
      self->bindings[i] = (PscBindingFacts) {
        .binding = b->binding, .type = b->descriptorType, .count = b->descriptorCount,
        .stages = b->stageFlags, .flags = flags,
      };
      self->has_variable |= (flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0;
    }
  qsort (self->bindings, self->n_bindings, sizeof *self->bindings, compare_facts);
  for (guint i = 0; i < self->n_bindings; i++)
    {
      if (i > 0 && self->bindings[i].binding == self->bindings[i - 1].binding)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       _("pBindings: binding %u appears twice"), self->bindings[i].binding);
          return FALSE;
        }
      self->bindings[i].first_slot = slot;
      slot += self->bindings[i].count;
      if (self->bindings[i].binding < PSC_DESCRIPTOR_DIRECT_BINDINGS)
        self->direct[self->bindings[i].binding] = (guint8) (i + 1);
      set_buffer_limits (self->device, &self->bindings[i]);
    }
  self->n_slots = slot;
  return TRUE;
}

static void
layout_clear (gpointer data)
{
  PscDescriptorLayout *self = data;

  g_free (self->bindings);
  g_clear_object (&self->device);
}

/**
 * psc_descriptor_layout_new: (skip)
 * @cache: the cache that issues the layout (owner thread)
 * @info: the layout, as for [method@Psc.Cache.get_descriptor_set_layout]
 *   (a `VkDescriptorSetLayoutBindingFlagsCreateInfo` may be chained)
 * @error: return location for a #GError
 *
 * A managed layout: @info is checked, the cache's `VkDescriptorSetLayout`
 * requested, and each binding's facts retained for the sets allocated
 * with it ([method@Psc.DescriptorPool.allocate_managed]).
 *
 * The checks, each failing with the `pBindings[i]` path:
 *
 * - the descriptor type is one managed sets support: uniform and storage
 *   buffers and their dynamic forms, sampled and storage images, combined
 *   image samplers, samplers, uniform and storage texel buffers; any other
 *   is %PSC_ERROR_UNSUPPORTED (the cache's own layouts and
 *   `psc_descriptor_pool_allocate_untracked()` remain for them), and so
 *   are immutable samplers;
 * - each binding flag against the device's *enabled* features
 *   ([method@Psc.Device.get_enabled_feature]), never what the physical
 *   device supports: `UPDATE_AFTER_BIND` needs the feature of its
 *   descriptor type (`descriptorBindingUniformBufferUpdateAfterBind`, ...;
 *   never for dynamic buffers) and the layout's
 *   `UPDATE_AFTER_BIND_POOL_BIT`; `UPDATE_UNUSED_WHILE_PENDING`,
 *   `PARTIALLY_BOUND` their features; `VARIABLE_DESCRIPTOR_COUNT` (the
 *   highest binding only) both `descriptorBindingVariableDescriptorCount`
 *   and `runtimeDescriptorArray`, as the layout side of a runtime array.
 *   A missing one is %PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED naming it;
 * - at most %PSC_DESCRIPTOR_MAX_BINDINGS bindings, counts of 1 to
 *   %PSC_DESCRIPTOR_MAX_ARRAY, no binding number twice.
 *
 * The handle belongs to the cache, which keeps descriptor-set layouts
 * until it closes: sets allocated with it must not be used after that.
 *
 * Returns: (transfer full): a new layout, or %NULL with @error set
 *
 * Since: 0.3
 */
PscDescriptorLayout *
psc_descriptor_layout_new (PscCache                              *cache,
                           const VkDescriptorSetLayoutCreateInfo *info,
                           GError                               **error)
{
  g_autoptr(PscDescriptorLayout) self = NULL;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (info->bindingCount > PSC_DESCRIPTOR_MAX_BINDINGS ||
      (info->bindingCount > 0 && info->pBindings == NULL))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   info->bindingCount > PSC_DESCRIPTOR_MAX_BINDINGS
                     ? _("bindingCount: %u > %u")
                     : _("pBindings: NULL for %u bindings"),
                   info->bindingCount, PSC_DESCRIPTOR_MAX_BINDINGS);
      return NULL;
    }
  if ((info->flags & ~(VkDescriptorSetLayoutCreateFlags) VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                   _("flags: 0x%x: managed layouts take only UPDATE_AFTER_BIND_POOL"),
                   (guint) info->flags);
      return NULL;
    }

  self = g_atomic_rc_box_new0 (PscDescriptorLayout);
  self->device = g_object_ref (psc_cache_get_device (cache));
  self->flags = info->flags;
  if (!collect_facts (self, info, error))
    return NULL;
  self->handle = psc_cache_get_descriptor_set_layout (cache, info, error);
  if (self->handle == VK_NULL_HANDLE)
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * psc_descriptor_layout_ref:
 * @self: a layout
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscDescriptorLayout *
psc_descriptor_layout_ref (PscDescriptorLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

/**
 * psc_descriptor_layout_unref:
 * @self: (transfer full): a layout
 *
 * Drops a reference (the Vulkan layout stays the cache's).
 *
 * Since: 0.3
 */
void
psc_descriptor_layout_unref (PscDescriptorLayout *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, layout_clear);
}

/**
 * psc_descriptor_layout_get_handle: (skip)
 * @self: a layout
 *
 * Gets the cache's `VkDescriptorSetLayout`.
 *
 * Returns: the cache's `VkDescriptorSetLayout`
 *
 * Since: 0.3
 */
VkDescriptorSetLayout
psc_descriptor_layout_get_handle (PscDescriptorLayout *self)
{
  g_return_val_if_fail (self != NULL, VK_NULL_HANDLE);
  return self->handle;
}

/**
 * psc_descriptor_layout_get_n_bindings:
 * @self: a layout
 *
 * Counts the layout's bindings.
 *
 * Returns: how many bindings the layout has
 *
 * Since: 0.3
 */
guint
psc_descriptor_layout_get_n_bindings (PscDescriptorLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_bindings;
}

const PscBindingFacts *
psc_descriptor_layout_find (const PscDescriptorLayout *layout, guint32 binding)
{
  guint lo = 0, hi = layout->n_bindings;

  if (binding < PSC_DESCRIPTOR_DIRECT_BINDINGS)
    return layout->direct[binding] != 0 ? &layout->bindings[layout->direct[binding] - 1] : NULL;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (layout->bindings[mid].binding == binding)
        return &layout->bindings[mid];
      if (layout->bindings[mid].binding < binding)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/**
 * psc_descriptor_layout_get_binding:
 * @self: a layout
 * @binding: a binding number
 * @out_type: (out) (optional) (type guint32): its descriptor type
 * @out_count: (out) (optional): its descriptor count (a variable binding's
 *   maximum)
 * @out_stages: (out) (optional) (type guint32): its shader stages
 * @out_flags: (out) (optional) (type guint32): its binding flags
 *
 * The retained facts of one binding.
 *
 * Returns: %TRUE if the layout has @binding
 *
 * Since: 0.3
 */
gboolean
psc_descriptor_layout_get_binding (PscDescriptorLayout      *self,
                                   guint32                   binding,
                                   VkDescriptorType         *out_type,
                                   guint32                  *out_count,
                                   VkShaderStageFlags       *out_stages,
                                   VkDescriptorBindingFlags *out_flags)
{
  const PscBindingFacts *b;

  g_return_val_if_fail (self != NULL, FALSE);
  b = psc_descriptor_layout_find (self, binding);
  if (b == NULL)
    return FALSE;
  if (out_type != NULL)
    *out_type = b->type;
  if (out_count != NULL)
    *out_count = b->count;
  if (out_stages != NULL)
    *out_stages = b->stages;
  if (out_flags != NULL)
    *out_flags = b->flags;
  return TRUE;
}
