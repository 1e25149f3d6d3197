/* enums.h: library enums for every Vulkan value that enters a key (internal).
 *
 * Keys never hold raw Vulkan enums: each value goes through a conversion that
 * checks it against the range this library supports and narrows it into a
 * small library id. Unsupported values (extension enums, advanced blend, cubic
 * filtering, custom border colours, ...) make the conversion fail; the caller
 * turns that into PSC_STATUS_UNSUPPORTED naming the field and the value. Two
 * Vulkan values never map to one id.
 *
 * Where Vulkan's core values are contiguous from 0 the library id keeps the
 * Vulkan numbering (so the conversion is a range check and the reverse is a
 * cast); formats, dynamic states, sample counts and shader stages get compact
 * id spaces of their own.
 *
 * The forward conversions are inline: the graphics encoder runs on every
 * cache hit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

/* ---------------------------------------------------------------------------
 * Contiguous core enums: library id == Vulkan value, 0..MAX.
 */
#define PSC_ENUM_MAX_COMPARE_OP         7   /* VK_COMPARE_OP_ALWAYS */
#define PSC_ENUM_MAX_BLEND_FACTOR       18  /* VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA */
#define PSC_ENUM_MAX_BLEND_OP           4   /* VK_BLEND_OP_MAX (no advanced blend) */
#define PSC_ENUM_MAX_POLYGON_MODE       2   /* VK_POLYGON_MODE_POINT */
#define PSC_ENUM_MAX_CULL_MODE          3   /* VK_CULL_MODE_FRONT_AND_BACK (flags) */
#define PSC_ENUM_MAX_FRONT_FACE         1
#define PSC_ENUM_MAX_TOPOLOGY           10  /* VK_PRIMITIVE_TOPOLOGY_PATCH_LIST */
#define PSC_ENUM_MAX_LOGIC_OP           15  /* VK_LOGIC_OP_SET */
#define PSC_ENUM_MAX_STENCIL_OP         7   /* VK_STENCIL_OP_DECREMENT_AND_WRAP */
#define PSC_ENUM_MAX_FILTER             1   /* VK_FILTER_LINEAR (no cubic) */
#define PSC_ENUM_MAX_MIPMAP_MODE        1
#define PSC_ENUM_MAX_ADDRESS_MODE       4   /* VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE */
#define PSC_ENUM_MAX_BORDER_COLOR       5   /* VK_BORDER_COLOR_INT_OPAQUE_WHITE (no custom) */
#define PSC_ENUM_MAX_DESCRIPTOR_TYPE    10  /* VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT */
#define PSC_ENUM_MAX_VERTEX_INPUT_RATE  1
#define PSC_ENUM_MAX_REDUCTION_MODE     2   /* VK_SAMPLER_REDUCTION_MODE_MAX */
#define PSC_ENUM_MAX_COLOR_COMPONENTS   0xFu

#define PSC_ENUM_CONTIGUOUS(name, VkType, max)                                   \
  static inline bool psc_enum_##name (VkType v, uint8_t *out)                    \
  {                                                                              \
    if ((uint32_t) v > (uint32_t) (max))                                         \
      return false;                                                              \
    *out = (uint8_t) v;                                                          \
    return true;                                                                 \
  }

PSC_ENUM_CONTIGUOUS (compare_op, VkCompareOp, PSC_ENUM_MAX_COMPARE_OP)
PSC_ENUM_CONTIGUOUS (blend_factor, VkBlendFactor, PSC_ENUM_MAX_BLEND_FACTOR)
PSC_ENUM_CONTIGUOUS (blend_op, VkBlendOp, PSC_ENUM_MAX_BLEND_OP)
PSC_ENUM_CONTIGUOUS (polygon_mode, VkPolygonMode, PSC_ENUM_MAX_POLYGON_MODE)
PSC_ENUM_CONTIGUOUS (cull_mode, VkCullModeFlags, PSC_ENUM_MAX_CULL_MODE)
PSC_ENUM_CONTIGUOUS (front_face, VkFrontFace, PSC_ENUM_MAX_FRONT_FACE)
PSC_ENUM_CONTIGUOUS (topology, VkPrimitiveTopology, PSC_ENUM_MAX_TOPOLOGY)
PSC_ENUM_CONTIGUOUS (logic_op, VkLogicOp, PSC_ENUM_MAX_LOGIC_OP)
PSC_ENUM_CONTIGUOUS (stencil_op, VkStencilOp, PSC_ENUM_MAX_STENCIL_OP)
PSC_ENUM_CONTIGUOUS (filter, VkFilter, PSC_ENUM_MAX_FILTER)
PSC_ENUM_CONTIGUOUS (mipmap_mode, VkSamplerMipmapMode, PSC_ENUM_MAX_MIPMAP_MODE)
PSC_ENUM_CONTIGUOUS (address_mode, VkSamplerAddressMode, PSC_ENUM_MAX_ADDRESS_MODE)
PSC_ENUM_CONTIGUOUS (border_color, VkBorderColor, PSC_ENUM_MAX_BORDER_COLOR)
PSC_ENUM_CONTIGUOUS (descriptor_type, VkDescriptorType, PSC_ENUM_MAX_DESCRIPTOR_TYPE)
PSC_ENUM_CONTIGUOUS (vertex_input_rate, VkVertexInputRate, PSC_ENUM_MAX_VERTEX_INPUT_RATE)
PSC_ENUM_CONTIGUOUS (reduction_mode, VkSamplerReductionMode, PSC_ENUM_MAX_REDUCTION_MODE)
PSC_ENUM_CONTIGUOUS (color_components, VkColorComponentFlags, PSC_ENUM_MAX_COLOR_COMPONENTS)

#undef PSC_ENUM_CONTIGUOUS

/* Topology class (what VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY keeps static):
 * the first topology of the class. */
static inline uint8_t
psc_topology_class (uint8_t topology)
{
  switch (topology)
    {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
      return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST:
      return VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    default:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    }
}

/* True for the four blend factors that read the blend constants. */
static inline bool
psc_blend_factor_uses_constants (uint8_t f)
{
  return f >= VK_BLEND_FACTOR_CONSTANT_COLOR && f <= VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
}

/* ---------------------------------------------------------------------------
 * Formats: a compact u16 id space.
 *   0..184    core 1.0 formats (id == VkFormat; 0 is VK_FORMAT_UNDEFINED)
 *   185..218  the 34 YCbCr formats promoted to 1.1 (1000156000..1000156033)
 *   219..232  ASTC HDR (SFLOAT) formats promoted to 1.3 (1000066000..1000066013)
 *   233..236  2-plane 4:4:4 formats promoted to 1.3 (1000330000..1000330003)
 *   237..238  A4R4G4B4 / A4B4G4R4 promoted to 1.3 (1000340000..1000340001)
 */
#define PSC_FORMAT_ID_CORE_MAX   184u  /* ids 0..184 are the Vulkan values */
#define PSC_FORMAT_ID_YCBCR      185u
#define PSC_FORMAT_ID_ASTC_HDR   219u
#define PSC_FORMAT_ID_444_2PLANE 233u
#define PSC_FORMAT_ID_A4         237u
#define PSC_FORMAT_ID_COUNT      239u

static inline bool
psc_enum_format (VkFormat f, uint16_t *out)
{
  uint32_t v = (uint32_t) f;
  if (v <= 184u)
    *out = (uint16_t) v;
  else if (v - 1000156000u <= 33u)
    *out = (uint16_t) (PSC_FORMAT_ID_YCBCR + (v - 1000156000u));
  else if (v - 1000066000u <= 13u)
    *out = (uint16_t) (PSC_FORMAT_ID_ASTC_HDR + (v - 1000066000u));
  else if (v - 1000330000u <= 3u)
    *out = (uint16_t) (PSC_FORMAT_ID_444_2PLANE + (v - 1000330000u));
  else if (v - 1000340000u <= 1u)
    *out = (uint16_t) (PSC_FORMAT_ID_A4 + (v - 1000340000u));
  else
    return false;
  return true;
}

/* Reverse; false for an id outside the space. */
PSC_INTERNAL bool psc_enum_format_to_vk (uint16_t id, VkFormat *out);

/* Format classes used for validation of depth/stencil slots. */
PSC_INTERNAL bool psc_format_has_depth (VkFormat f);
PSC_INTERNAL bool psc_format_has_stencil (VkFormat f);

/* ---------------------------------------------------------------------------
 * Sample counts: a single bit 1..64, kept as its numeric value (u8).
 */
static inline bool
psc_enum_samples (VkSampleCountFlagBits s, uint8_t *out)
{
  uint32_t v = (uint32_t) s;
  if (v == 0 || v > 64u || (v & (v - 1)) != 0)
    return false;
  *out = (uint8_t) v;
  return true;
}

/* ---------------------------------------------------------------------------
 * Shader stages: library stage index, ordered like the Vulkan stage bits.
 */
typedef enum {
  PSC_STAGE_VERTEX = 0,
  PSC_STAGE_TESS_CONTROL = 1,
  PSC_STAGE_TESS_EVAL = 2,
  PSC_STAGE_GEOMETRY = 3,
  PSC_STAGE_FRAGMENT = 4,
  PSC_STAGE_COMPUTE = 5,
  PSC_STAGE_COUNT = 6,
} PscStage;

/* A single stage bit of VERTEX..COMPUTE; false for anything else. */
static inline bool
psc_enum_stage (VkShaderStageFlagBits s, uint8_t *out)
{
  uint32_t v = (uint32_t) s;
  if (v == 0 || v > VK_SHADER_STAGE_COMPUTE_BIT || (v & (v - 1)) != 0)
    return false;
  *out = (uint8_t) __builtin_ctz (v);
  return true;
}

static inline VkShaderStageFlagBits
psc_enum_stage_to_vk (uint8_t stage)
{
  return (VkShaderStageFlagBits) (1u << stage);
}

/* Stage masks (descriptor bindings, push-constant ranges): every known stage
 * bit, or VK_SHADER_STAGE_ALL. */
#define PSC_STAGE_MASK_KNOWN                                                    \
  (VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_COMPUTE_BIT                   \
   | VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT                \
   | VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR           \
   | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR | VK_SHADER_STAGE_MISS_BIT_KHR         \
   | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR)

static inline bool
psc_enum_stage_mask (VkShaderStageFlags m, uint32_t *out)
{
  if (m != VK_SHADER_STAGE_ALL && (m & ~(VkShaderStageFlags) PSC_STAGE_MASK_KNOWN) != 0)
    return false;
  *out = m;
  return true;
}

/* ---------------------------------------------------------------------------
 * Dynamic states: one bit each of a uint64 mask.
 *   bits 0..8    VK_DYNAMIC_STATE_VIEWPORT .. STENCIL_REFERENCE (core 1.0)
 *   bits 9..20   VK_DYNAMIC_STATE_CULL_MODE .. STENCIL_OP (1000267000..011, 1.3)
 *   bit 21       RASTERIZER_DISCARD_ENABLE (1000377001, 1.3)
 *   bit 22       DEPTH_BIAS_ENABLE (1000377002, 1.3)
 *   bit 23       PRIMITIVE_RESTART_ENABLE (1000377004, 1.3)
 */
enum {
  PSC_DYN_VIEWPORT = 0,
  PSC_DYN_SCISSOR = 1,
  PSC_DYN_LINE_WIDTH = 2,
  PSC_DYN_DEPTH_BIAS = 3,
  PSC_DYN_BLEND_CONSTANTS = 4,
  PSC_DYN_DEPTH_BOUNDS = 5,
  PSC_DYN_STENCIL_COMPARE_MASK = 6,
  PSC_DYN_STENCIL_WRITE_MASK = 7,
  PSC_DYN_STENCIL_REFERENCE = 8,
  PSC_DYN_CULL_MODE = 9,
  PSC_DYN_FRONT_FACE = 10,
  PSC_DYN_PRIMITIVE_TOPOLOGY = 11,
  PSC_DYN_VIEWPORT_WITH_COUNT = 12,
  PSC_DYN_SCISSOR_WITH_COUNT = 13,
  PSC_DYN_VERTEX_INPUT_BINDING_STRIDE = 14,
  PSC_DYN_DEPTH_TEST_ENABLE = 15,
  PSC_DYN_DEPTH_WRITE_ENABLE = 16,
  PSC_DYN_DEPTH_COMPARE_OP = 17,
  PSC_DYN_DEPTH_BOUNDS_TEST_ENABLE = 18,
  PSC_DYN_STENCIL_TEST_ENABLE = 19,
  PSC_DYN_STENCIL_OP = 20,
  PSC_DYN_RASTERIZER_DISCARD_ENABLE = 21,
  PSC_DYN_DEPTH_BIAS_ENABLE = 22,
  PSC_DYN_PRIMITIVE_RESTART_ENABLE = 23,
  PSC_DYN_COUNT = 24,
};
#define PSC_DYN_BIT(name) (UINT64_C (1) << PSC_DYN_##name)
#define PSC_DYN_ALL_MASK ((UINT64_C (1) << PSC_DYN_COUNT) - 1)

/* Returns the bit index, or -1 for an unsupported dynamic state. */
static inline int
psc_enum_dynamic_state (VkDynamicState s)
{
  uint32_t v = (uint32_t) s;
  if (v <= 8u)
    return (int) v;
  if (v - 1000267000u <= 11u)
    return 9 + (int) (v - 1000267000u);
  switch (v)
    {
    case 1000377001u: return PSC_DYN_RASTERIZER_DISCARD_ENABLE;
    case 1000377002u: return PSC_DYN_DEPTH_BIAS_ENABLE;
    case 1000377004u: return PSC_DYN_PRIMITIVE_RESTART_ENABLE;
    default: return -1;
    }
}

PSC_INTERNAL VkDynamicState psc_enum_dynamic_state_to_vk (unsigned bit);
/* "VK_DYNAMIC_STATE_VIEWPORT" etc., for messages. */
PSC_INTERNAL const char *psc_enum_dynamic_state_name (unsigned bit);

/* ---------------------------------------------------------------------------
 * Flags accepted in keys (everything else is UNSUPPORTED).
 */
#define PSC_GRAPHICS_CREATE_FLAGS                                               \
  (VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT                                  \
   | VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT                                   \
   | VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT)
#define PSC_COMPUTE_CREATE_FLAGS                                                \
  (VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT                                  \
   | VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT                                   \
   | VK_PIPELINE_CREATE_DISPATCH_BASE_BIT)
#define PSC_STAGE_CREATE_FLAGS                                                  \
  (VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT              \
   | VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT)
#define PSC_SET_LAYOUT_CREATE_FLAGS                                             \
  (VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT                   \
   | VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR)
#define PSC_BINDING_FLAGS                                                       \
  (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT                                  \
   | VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT                      \
   | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT                                  \
   | VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)
#define PSC_ATTACHMENT_DESCRIPTION_FLAGS VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT
#define PSC_DEPENDENCY_FLAGS                                                    \
  (VK_DEPENDENCY_BY_REGION_BIT | VK_DEPENDENCY_VIEW_LOCAL_BIT                   \
   | VK_DEPENDENCY_DEVICE_GROUP_BIT)

/* ---------------------------------------------------------------------------
 * Floats enter keys as bit patterns: -0.0 becomes +0.0, NaN is rejected.
 */
static inline bool
psc_float_bits (float f, uint32_t *out)
{
  uint32_t u;
  __builtin_memcpy (&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return false;                       /* NaN */
  if (u == 0x80000000u)
    u = 0;                              /* -0.0 */
  *out = u;
  return true;
}

static inline float
psc_bits_float (uint32_t u)
{
  float f;
  __builtin_memcpy (&f, &u, sizeof f);
  return f;
}
