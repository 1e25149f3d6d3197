/* psc-sampler-info.c: PscSamplerInfo, a sampler description without
 * pointers (immutable samplers of a recipe, psc_cache_get_sampler_for_info).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-private.h"

#include <math.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (PscSamplerInfo, psc_sampler_info, psc_sampler_info_ref, psc_sampler_info_unref)

/**
 * psc_sampler_info_new:
 *
 * Creates a sampler description with Vulkan's zero-initialised values (see
 * [struct@Psc.SamplerInfo]).
 *
 * Returns: (transfer full): a new description
 *
 * Since: 0.3
 */
PscSamplerInfo *
psc_sampler_info_new (void)
{
  PscSamplerInfo *self = g_new0 (PscSamplerInfo, 1);

  self->ref_count = 1;
  return self;
}

/**
 * psc_sampler_info_ref:
 * @self: a sampler description
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscSamplerInfo *
psc_sampler_info_ref (PscSamplerInfo *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->ref_count > 0, NULL);

  g_atomic_int_inc (&self->ref_count);
  return self;
}

/**
 * psc_sampler_info_unref:
 * @self: (transfer full): a sampler description
 *
 * Drops a reference; the last one frees the description.
 *
 * Since: 0.3
 */
void
psc_sampler_info_unref (PscSamplerInfo *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->ref_count > 0);

  if (g_atomic_int_dec_and_test (&self->ref_count))
    g_free (self);
}

/**
 * psc_sampler_info_copy:
 * @self: a sampler description
 *
 * Copies a description (the copy has its own reference count).
 *
 * Returns: (transfer full): a new description equal to @self
 *
 * Since: 0.3
 */
PscSamplerInfo *
psc_sampler_info_copy (const PscSamplerInfo *self)
{
  PscSamplerInfo *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->ref_count = 1;
  return copy;
}

static gboolean
same_float (gfloat a, gfloat b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/**
 * psc_sampler_info_equal:
 * @a: a sampler description
 * @b: another
 *
 * Compares every value of two descriptions (floats bit for bit, as the
 * cache's keys do; values that do not matter, such as the compare operation
 * of a sampler without compare, are compared too: the cache makes the same
 * sampler for such descriptions, see [method@Psc.Recipe.equal] for equality
 * that follows the cache).
 *
 * Returns: whether the descriptions are equal
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_equal (const PscSamplerInfo *a,
                        const PscSamplerInfo *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->mag_filter == b->mag_filter && a->min_filter == b->min_filter &&
         a->mipmap_mode == b->mipmap_mode && a->address_u == b->address_u &&
         a->address_v == b->address_v && a->address_w == b->address_w &&
         same_float (a->mip_lod_bias, b->mip_lod_bias) && same_float (a->min_lod, b->min_lod) &&
         same_float (a->max_lod, b->max_lod) && a->anisotropy_enable == b->anisotropy_enable &&
         same_float (a->max_anisotropy, b->max_anisotropy) &&
         a->compare_enable == b->compare_enable && a->compare_op == b->compare_op &&
         a->border_color == b->border_color &&
         a->unnormalized_coordinates == b->unnormalized_coordinates &&
         a->reduction_mode == b->reduction_mode;
}

/**
 * psc_sampler_info_set_filters:
 * @self: a sampler description
 * @mag_filter: a `VkFilter` (nearest or linear)
 * @min_filter: a `VkFilter`
 * @mipmap_mode: a `VkSamplerMipmapMode`
 * @error: return location for a #GError
 *
 * Sets the filters (`magFilter`, `minFilter`, `mipmapMode`). Cubic
 * filtering is %PSC_ERROR_UNSUPPORTED.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_filters (PscSamplerInfo *self,
                              guint           mag_filter,
                              guint           min_filter,
                              guint           mipmap_mode,
                              GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (mag_filter > PSC_ENUM_MAX_FILTER)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "mag_filter", "%u is not a supported VkFilter", mag_filter);
  if (min_filter > PSC_ENUM_MAX_FILTER)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "min_filter", "%u is not a supported VkFilter", min_filter);
  if (mipmap_mode > PSC_ENUM_MAX_MIPMAP_MODE)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "mipmap_mode", "%u is not a supported VkSamplerMipmapMode", mipmap_mode);
  self->mag_filter = mag_filter;
  self->min_filter = min_filter;
  self->mipmap_mode = mipmap_mode;
  return TRUE;
}

/**
 * psc_sampler_info_set_address_modes:
 * @self: a sampler description
 * @u: a `VkSamplerAddressMode` for U
 * @v: for V
 * @w: for W
 * @error: return location for a #GError
 *
 * Sets the address modes.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_address_modes (PscSamplerInfo *self,
                                    guint           u,
                                    guint           v,
                                    guint           w,
                                    GError        **error)
{
  const guint modes[3] = { u, v, w };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < 3; i++)
    if (modes[i] > PSC_ENUM_MAX_ADDRESS_MODE)
      {
        char path[32];
        g_snprintf (path, sizeof path, "address_modes[%u]", i);
        psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                         "%u is not a supported VkSamplerAddressMode", modes[i]);
        return FALSE;
      }
  self->address_u = u;
  self->address_v = v;
  self->address_w = w;
  return TRUE;
}

/**
 * psc_sampler_info_set_lod:
 * @self: a sampler description
 * @mip_lod_bias: `mipLodBias`
 * @min_lod: `minLod`
 * @max_lod: `maxLod` (`VK_LOD_CLAMP_NONE` is 1000.0)
 * @error: return location for a #GError
 *
 * Sets the level-of-detail values. They must be finite (except a
 * `maxLod` of +infinity is refused too: use 1000.0) and `minLod` must not
 * exceed `maxLod` (%PSC_ERROR_INVALID_ARGUMENT).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_lod (PscSamplerInfo *self,
                          gfloat          mip_lod_bias,
                          gfloat          min_lod,
                          gfloat          max_lod,
                          GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!isfinite (mip_lod_bias))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "mip_lod_bias", "not a finite number");
  if (!isfinite (min_lod) || !isfinite (max_lod))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, isfinite (min_lod) ? "max_lod" : "min_lod",
                            "not a finite number");
  if (min_lod > max_lod)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "min_lod", "%g exceeds max_lod %g",
                            (double) min_lod, (double) max_lod);
  self->mip_lod_bias = mip_lod_bias;
  self->min_lod = min_lod;
  self->max_lod = max_lod;
  return TRUE;
}

/**
 * psc_sampler_info_set_anisotropy:
 * @self: a sampler description
 * @enable: `anisotropyEnable`
 * @max_anisotropy: `maxAnisotropy`, at least 1.0 when enabled (ignored
 *   otherwise)
 * @error: return location for a #GError
 *
 * Sets anisotropic filtering. (The device must enable `samplerAnisotropy`
 * for a sampler that uses it; the cache does not check device features.)
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_anisotropy (PscSamplerInfo *self,
                                 gboolean        enable,
                                 gfloat          max_anisotropy,
                                 GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (enable && !(isfinite (max_anisotropy) && max_anisotropy >= 1.0f))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "anisotropy.max",
                            "%g: must be at least 1.0", (double) max_anisotropy);
  self->anisotropy_enable = enable != FALSE;
  self->max_anisotropy = enable ? max_anisotropy : 0.0f;
  return TRUE;
}

/**
 * psc_sampler_info_set_compare:
 * @self: a sampler description
 * @enable: `compareEnable`
 * @compare_op: a `VkCompareOp` (ignored when not enabled)
 * @error: return location for a #GError
 *
 * Sets depth comparison.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_compare (PscSamplerInfo *self,
                              gboolean        enable,
                              guint           compare_op,
                              GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (enable && compare_op > PSC_ENUM_MAX_COMPARE_OP)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "compare.op",
                            "%u is not a VkCompareOp", compare_op);
  self->compare_enable = enable != FALSE;
  self->compare_op = enable ? compare_op : 0;
  return TRUE;
}

/**
 * psc_sampler_info_set_border_color:
 * @self: a sampler description
 * @border_color: a `VkBorderColor` (custom border colours are
 *   %PSC_ERROR_UNSUPPORTED)
 * @error: return location for a #GError
 *
 * Sets the border colour (used by `CLAMP_TO_BORDER` addressing).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_border_color (PscSamplerInfo *self,
                                   guint           border_color,
                                   GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (border_color > PSC_ENUM_MAX_BORDER_COLOR)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "border_color",
                            "%u is not a supported VkBorderColor", border_color);
  self->border_color = border_color;
  return TRUE;
}

/**
 * psc_sampler_info_set_unnormalized_coordinates:
 * @self: a sampler description
 * @unnormalized: `unnormalizedCoordinates`
 *
 * Sets whether texel coordinates are unnormalized (Vulkan then restricts
 * the other values; the cache's encoder checks them when the sampler is
 * made).
 *
 * Since: 0.3
 */
void
psc_sampler_info_set_unnormalized_coordinates (PscSamplerInfo *self,
                                               gboolean        unnormalized)
{
  g_return_if_fail (self != NULL);

  self->unnormalized_coordinates = unnormalized != FALSE;
}

/**
 * psc_sampler_info_set_reduction_mode:
 * @self: a sampler description
 * @reduction_mode: a `VkSamplerReductionMode`
 * @error: return location for a #GError
 *
 * Sets the reduction mode (chained as `VkSamplerReductionModeCreateInfo`
 * when it is not the weighted average).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_sampler_info_set_reduction_mode (PscSamplerInfo *self,
                                     guint           reduction_mode,
                                     GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (reduction_mode > PSC_ENUM_MAX_REDUCTION_MODE)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "reduction_mode",
                            "%u is not a supported VkSamplerReductionMode", reduction_mode);
  self->reduction_mode = reduction_mode;
  return TRUE;
}

/* psc-recipe-private.h */
void
psc_sampler_info_to_vk (const PscSamplerInfo                 *self,
                        VkSamplerCreateInfo                  *ci,
                        VkSamplerReductionModeCreateInfo     *reduction)
{
  *reduction = (VkSamplerReductionModeCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO,
    .reductionMode = (VkSamplerReductionMode) self->reduction_mode,
  };
  *ci = (VkSamplerCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .pNext = self->reduction_mode != 0 ? reduction : NULL,
    .magFilter = (VkFilter) self->mag_filter,
    .minFilter = (VkFilter) self->min_filter,
    .mipmapMode = (VkSamplerMipmapMode) self->mipmap_mode,
    .addressModeU = (VkSamplerAddressMode) self->address_u,
    .addressModeV = (VkSamplerAddressMode) self->address_v,
    .addressModeW = (VkSamplerAddressMode) self->address_w,
    .mipLodBias = self->mip_lod_bias,
    .anisotropyEnable = self->anisotropy_enable,
    .maxAnisotropy = self->max_anisotropy,
    .compareEnable = self->compare_enable,
    .compareOp = (VkCompareOp) self->compare_op,
    .minLod = self->min_lod,
    .maxLod = self->max_lod,
    .borderColor = (VkBorderColor) self->border_color,
    .unnormalizedCoordinates = self->unnormalized_coordinates,
  };
}
