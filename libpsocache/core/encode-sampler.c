/* encode-sampler.c: canonical sampler keys.
 *
 * Key: one PscKeySampler (keys.h). Normalizations: maxAnisotropy is 0 when
 * anisotropy is disabled, compareOp is NEVER when compare is disabled, the
 * border colour is 0 unless an address mode is CLAMP_TO_BORDER, a reduction
 * mode struct selecting WEIGHTED_AVERAGE equals no struct, floats are bit
 * patterns with -0.0 folded into +0.0 (NaN rejected).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "keys.h"

#define FLOAT_FIELD(field, dst)                                                  \
  do {                                                                           \
    if (PSC_UNLIKELY (!psc_float_bits (ci->field, &(dst))))                     \
      return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NaN", #field);     \
  } while (0)

#define ENUM_FIELD(conv, field, dst)                                             \
  do {                                                                           \
    if (PSC_UNLIKELY (!psc_enum_##conv (ci->field, &(dst))))                    \
      return psc_fail_enum (err, (int32_t) ci->field, #field);                  \
  } while (0)

PscStatus
psc_encode_sampler (const VkSamplerCreateInfo *ci, PscKeyWriter *w, PscCoreError *err)
{
  if (PSC_UNLIKELY (ci == NULL))
    return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT, "NULL", "pCreateInfo");
  if (PSC_UNLIKELY (ci->sType != VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO))
    return psc_fail_detailf (err, PSC_STATUS_INVALID_ARGUMENT, "sType",
                             "%u is not VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO",
                             (unsigned) ci->sType);

  PscKeySampler k = { 0 };
  k.tag = PSC_TAG_SAMPLER;

  uint32_t i = 0;
  bool have_reduction = false;
  for (const VkBaseInStructure *n = ci->pNext; n != NULL; n = n->pNext, i++)
    {
      if (n->sType == VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO)
        {
          if (have_reduction)
            return psc_fail_at (err, PSC_STATUS_INVALID_ARGUMENT,
                                "structure appears twice in the chain", "pNext[%u].sType", i);
          have_reduction = true;
          const VkSamplerReductionModeCreateInfo *rm = (const void *) n;
          if (!psc_enum_reduction_mode (rm->reductionMode, &k.reduction_mode))
            return psc_fail_enum (err, (int32_t) rm->reductionMode, "pNext[%u].reductionMode", i);
        }
      else
        return psc_fail_stype (err, n->sType, "pNext[%u].sType", i);
    }

  if (PSC_UNLIKELY (ci->flags != 0))
    return psc_fail_flags (err, ci->flags, "flags");
  k.flags = ci->flags;

  ENUM_FIELD (filter, magFilter, k.mag_filter);
  ENUM_FIELD (filter, minFilter, k.min_filter);
  ENUM_FIELD (mipmap_mode, mipmapMode, k.mipmap_mode);
  ENUM_FIELD (address_mode, addressModeU, k.address_u);
  ENUM_FIELD (address_mode, addressModeV, k.address_v);
  ENUM_FIELD (address_mode, addressModeW, k.address_w);
  FLOAT_FIELD (mipLodBias, k.mip_lod_bias);
  FLOAT_FIELD (minLod, k.min_lod);
  FLOAT_FIELD (maxLod, k.max_lod);

  k.anisotropy_enable = ci->anisotropyEnable != VK_FALSE;
  if (k.anisotropy_enable)
    FLOAT_FIELD (maxAnisotropy, k.max_anisotropy);

  k.compare_enable = ci->compareEnable != VK_FALSE;
  if (k.compare_enable)
    ENUM_FIELD (compare_op, compareOp, k.compare_op);

  ENUM_FIELD (border_color, borderColor, k.border_color);
  if (k.address_u != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER
      && k.address_v != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER
      && k.address_w != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER)
    k.border_color = 0;

  k.unnormalized_coordinates = ci->unnormalizedCoordinates != VK_FALSE;

  if (PSC_UNLIKELY (!psc_kw_put (w, &k, sizeof k)))
    return psc_fail_key_full (err, w);
  return PSC_STATUS_OK;
}

const VkSamplerCreateInfo *
psc_decode_sampler (const uint8_t *key, size_t len, PscSamplerBuild *b)
{
  PscKeySampler k;
  if (key == NULL || b == NULL || len != sizeof k)
    return NULL;
  memcpy (&k, key, sizeof k);
  if (k.tag != PSC_TAG_SAMPLER
      || k.mag_filter > PSC_ENUM_MAX_FILTER || k.min_filter > PSC_ENUM_MAX_FILTER
      || k.mipmap_mode > PSC_ENUM_MAX_MIPMAP_MODE
      || k.address_u > PSC_ENUM_MAX_ADDRESS_MODE || k.address_v > PSC_ENUM_MAX_ADDRESS_MODE
      || k.address_w > PSC_ENUM_MAX_ADDRESS_MODE || k.compare_op > PSC_ENUM_MAX_COMPARE_OP
      || k.border_color > PSC_ENUM_MAX_BORDER_COLOR
      || k.reduction_mode > PSC_ENUM_MAX_REDUCTION_MODE)
    return NULL;

  memset (b, 0, sizeof *b);
  VkSamplerCreateInfo *ci = &b->ci;
  ci->sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  ci->flags = k.flags;
  ci->magFilter = (VkFilter) k.mag_filter;
  ci->minFilter = (VkFilter) k.min_filter;
  ci->mipmapMode = (VkSamplerMipmapMode) k.mipmap_mode;
  ci->addressModeU = (VkSamplerAddressMode) k.address_u;
  ci->addressModeV = (VkSamplerAddressMode) k.address_v;
  ci->addressModeW = (VkSamplerAddressMode) k.address_w;
  ci->mipLodBias = psc_bits_float (k.mip_lod_bias);
  ci->anisotropyEnable = k.anisotropy_enable ? VK_TRUE : VK_FALSE;
  /* A disabled anisotropy keeps a valid value for the (ignored) field. */
  ci->maxAnisotropy = k.anisotropy_enable ? psc_bits_float (k.max_anisotropy) : 1.0f;
  ci->compareEnable = k.compare_enable ? VK_TRUE : VK_FALSE;
  ci->compareOp = (VkCompareOp) k.compare_op;
  ci->minLod = psc_bits_float (k.min_lod);
  ci->maxLod = psc_bits_float (k.max_lod);
  ci->borderColor = (VkBorderColor) k.border_color;
  ci->unnormalizedCoordinates = k.unnormalized_coordinates ? VK_TRUE : VK_FALSE;
  if (k.reduction_mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE)
    {
      b->reduction.sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO;
      b->reduction.reductionMode = (VkSamplerReductionMode) k.reduction_mode;
      ci->pNext = &b->reduction;
    }
  return ci;
}
