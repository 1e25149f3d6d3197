/* enums.c: the non-inline halves of the library enums (reverse mappings used
 * by the decoders, names used in messages). See enums.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "enums.h"

bool
psc_enum_format_to_vk (uint16_t id, VkFormat *out)
{
  uint32_t v = id;
  if (v <= 184u)
    *out = (VkFormat) v;
  else if (v < PSC_FORMAT_ID_ASTC_HDR)
    *out = (VkFormat) (1000156000u + (v - PSC_FORMAT_ID_YCBCR));
  else if (v < PSC_FORMAT_ID_444_2PLANE)
    *out = (VkFormat) (1000066000u + (v - PSC_FORMAT_ID_ASTC_HDR));
  else if (v < PSC_FORMAT_ID_A4)
    *out = (VkFormat) (1000330000u + (v - PSC_FORMAT_ID_444_2PLANE));
  else if (v < PSC_FORMAT_ID_COUNT)
    *out = (VkFormat) (1000340000u + (v - PSC_FORMAT_ID_A4));
  else
    return false;
  return true;
}

bool
psc_format_has_depth (VkFormat f)
{
  switch (f)
    {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return true;
    default:
      return false;
    }
}

bool
psc_format_has_stencil (VkFormat f)
{
  switch (f)
    {
    case VK_FORMAT_S8_UINT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return true;
    default:
      return false;
    }
}

static const struct {
  VkDynamicState state;
  const char *name;
} dynamic_states[PSC_DYN_COUNT] = {
#define D(bit, e) [PSC_DYN_##bit] = { e, #e }
  D (VIEWPORT, VK_DYNAMIC_STATE_VIEWPORT),
  D (SCISSOR, VK_DYNAMIC_STATE_SCISSOR),
  D (LINE_WIDTH, VK_DYNAMIC_STATE_LINE_WIDTH),
  D (DEPTH_BIAS, VK_DYNAMIC_STATE_DEPTH_BIAS),
  D (BLEND_CONSTANTS, VK_DYNAMIC_STATE_BLEND_CONSTANTS),
  D (DEPTH_BOUNDS, VK_DYNAMIC_STATE_DEPTH_BOUNDS),
  D (STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK),
  D (STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK),
  D (STENCIL_REFERENCE, VK_DYNAMIC_STATE_STENCIL_REFERENCE),
  D (CULL_MODE, VK_DYNAMIC_STATE_CULL_MODE),
  D (FRONT_FACE, VK_DYNAMIC_STATE_FRONT_FACE),
  D (PRIMITIVE_TOPOLOGY, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY),
  D (VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT),
  D (SCISSOR_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT),
  D (VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE),
  D (DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE),
  D (DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE),
  D (DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP),
  D (DEPTH_BOUNDS_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE),
  D (STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE),
  D (STENCIL_OP, VK_DYNAMIC_STATE_STENCIL_OP),
  D (RASTERIZER_DISCARD_ENABLE, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE),
  D (DEPTH_BIAS_ENABLE, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE),
  D (PRIMITIVE_RESTART_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE),
#undef D
};

VkDynamicState
psc_enum_dynamic_state_to_vk (unsigned bit)
{
  return bit < PSC_DYN_COUNT ? dynamic_states[bit].state : VK_DYNAMIC_STATE_MAX_ENUM;
}

const char *
psc_enum_dynamic_state_name (unsigned bit)
{
  return bit < PSC_DYN_COUNT ? dynamic_states[bit].name : "VkDynamicState(unknown)";
}
