/* psc-vk-names.h: Vulkan enumerant names <-> values, for the recipe JSON
 * form (psc-recipe-json.c). Never installed.
 *
 * The tables are generated at build time from the Vulkan headers the
 * library is built with (vulkan_core.h) by gen-vk-names.py, which reads the
 * list below (PSC_VK_NAME_TYPES) from this file: one line per Vulkan
 * enumeration or flag-bits type the recipe uses, nothing else.
 *
 * For each type the tables hold every enumerant of vulkan_core.h (aliases
 * included) except the *_MAX_ENUM sentinels, plus the few forward aliases
 * gen-vk-names.py lists (names newer headers give to a value these headers
 * know under another name). The name written for a value is fixed by
 * gen-vk-names.py's rules (docs/recipe-json.md, "Names"): the enumerant
 * defined with a literal value (not as an alias), unless the script pins
 * another; for a flag-bits type only single-bit values have a written
 * name (a set is written as its bits).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* X (ID, VkType, IS_FLAGS): gen-vk-names.py parses these lines. */
#define PSC_VK_NAME_TYPES(X)                                         \
  X (SHADER_STAGE, VkShaderStageFlagBits, TRUE)                      \
  X (PIPELINE_CREATE, VkPipelineCreateFlagBits, TRUE)                \
  X (SET_LAYOUT_CREATE, VkDescriptorSetLayoutCreateFlagBits, TRUE)   \
  X (DESCRIPTOR_TYPE, VkDescriptorType, FALSE)                       \
  X (BINDING_FLAGS, VkDescriptorBindingFlagBits, TRUE)               \
  X (FILTER, VkFilter, FALSE)                                        \
  X (MIPMAP_MODE, VkSamplerMipmapMode, FALSE)                        \
  X (ADDRESS_MODE, VkSamplerAddressMode, FALSE)                      \
  X (COMPARE_OP, VkCompareOp, FALSE)                                 \
  X (BORDER_COLOR, VkBorderColor, FALSE)                             \
  X (REDUCTION_MODE, VkSamplerReductionMode, FALSE)                  \
  X (VERTEX_INPUT_RATE, VkVertexInputRate, FALSE)                    \
  X (FORMAT, VkFormat, FALSE)                                        \
  X (TOPOLOGY, VkPrimitiveTopology, FALSE)                           \
  X (POLYGON_MODE, VkPolygonMode, FALSE)                             \
  X (CULL_MODE, VkCullModeFlagBits, TRUE)                            \
  X (FRONT_FACE, VkFrontFace, FALSE)                                 \
  X (SAMPLE_COUNT, VkSampleCountFlagBits, FALSE)                     \
  X (STENCIL_OP, VkStencilOp, FALSE)                                 \
  X (LOGIC_OP, VkLogicOp, FALSE)                                     \
  X (BLEND_FACTOR, VkBlendFactor, FALSE)                             \
  X (BLEND_OP, VkBlendOp, FALSE)                                     \
  X (COLOR_COMPONENT, VkColorComponentFlagBits, TRUE)                \
  X (DYNAMIC_STATE, VkDynamicState, FALSE)                           \
  X (PIPELINE_STAGE, VkPipelineStageFlagBits, TRUE)                  \
  X (ACCESS, VkAccessFlagBits, TRUE)                                 \
  X (DEPENDENCY, VkDependencyFlagBits, TRUE)

typedef enum {
#define PSC_VK_NAME_ID(id, type, flags) PSC_VK_##id,
  PSC_VK_NAME_TYPES (PSC_VK_NAME_ID)
#undef PSC_VK_NAME_ID
  PSC_VK_N_TYPES
} PscVkType;

/* "VkFormat", ... */
G_GNUC_INTERNAL const char *psc_vk_type_name (PscVkType type);
/* TRUE for a flag-bits type (its JSON form is an array of bit names). */
G_GNUC_INTERNAL gboolean psc_vk_type_is_flags (PscVkType type);

/* The value of an enumerant of @type (any of its names, aliases
 * included); FALSE if @name is none of them. */
G_GNUC_INTERNAL gboolean psc_vk_name_to_value (PscVkType type, const char *name,
                                               guint32 *value);
/* The name written for @value of @type, NULL if it has none (a value the
 * headers do not define; for a flag-bits type, anything but a single
 * defined bit). */
G_GNUC_INTERNAL const char *psc_vk_value_to_name (PscVkType type, guint32 value);

G_END_DECLS
