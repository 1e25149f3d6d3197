/* keys.h: packed key records, writer/reader helpers, the declarations of
 * the encoders' failure helpers, and decode storage (internal to the
 * encoders; DESIGN decision 5). Nothing here calls an encoder: the
 * graphics entry point psc_encode_graphics is in encode-graphics.h.
 *
 * A key is a variable-length byte string: a sequence of the records below,
 * each copied byte for byte (host byte order), with variable-length arrays
 * written as a count (in an earlier record) followed by packed elements. Only
 * the bytes used are written. Every record is fully assigned before it is
 * copied and has no implicit padding (checked at compile time by
 * PSC_ASSERT_PACKED, which compares sizeof with the sum of the member sizes
 * written out by hand), so equal requests always give equal bytes.
 *
 * Every key starts with a u32 tag: 'P' 'K' kind version (see PSC_KEY_TAG).
 * Change the version of a kind whenever its layout changes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"
#include "enums.h"

#include <string.h>

#define PSC_ASSERT_PACKED(T, sum_of_members)                                     \
  _Static_assert (sizeof (T) == (sum_of_members), #T " has implicit padding")

#define PSC_KEY_TAG(kind, version)                                               \
  ((uint32_t) 0x504b0000u | ((uint32_t) (kind) << 8) | (uint32_t) (version))
#define PSC_TAG_SAMPLER         PSC_KEY_TAG (PSC_KIND_SAMPLER, 1)
#define PSC_TAG_SET_LAYOUT      PSC_KEY_TAG (PSC_KIND_SET_LAYOUT, 1)
#define PSC_TAG_PIPELINE_LAYOUT PSC_KEY_TAG (PSC_KIND_PIPELINE_LAYOUT, 1)
#define PSC_TAG_RENDER_PASS     PSC_KEY_TAG (PSC_KIND_RENDER_PASS, 1)
#define PSC_TAG_GRAPHICS        PSC_KEY_TAG (PSC_KIND_GRAPHICS, 2)
#define PSC_TAG_COMPUTE         PSC_KEY_TAG (PSC_KIND_COMPUTE, 1)

/* Internal capacity not in psc-core.h: correlation masks of a multiview
 * pass (disjoint non-zero view masks: at most 32 can exist). */
#define PSC_MAX_CORRELATION_MASKS 32

/* ===========================================================================
 * Sampler key: one record.
 */
typedef struct {
  uint32_t tag;
  uint32_t flags;               /* VkSamplerCreateFlags (no flag supported: 0) */
  uint32_t mip_lod_bias;        /* float bits */
  uint32_t max_anisotropy;      /* float bits; 0 when anisotropy is disabled */
  uint32_t min_lod;             /* float bits */
  uint32_t max_lod;             /* float bits */
  uint8_t mag_filter, min_filter, mipmap_mode, address_u;
  uint8_t address_v, address_w, anisotropy_enable, compare_enable;
  uint8_t compare_op;           /* 0 when compare is disabled */
  uint8_t border_color;         /* 0 unless an address mode is CLAMP_TO_BORDER */
  uint8_t unnormalized_coordinates;
  uint8_t reduction_mode;       /* VkSamplerReductionModeCreateInfo, default 0 */
} PscKeySampler;
PSC_ASSERT_PACKED (PscKeySampler, 6 * 4 + 12 * 1);

/* ===========================================================================
 * Descriptor-set layout key: PscKeySetLayout, then binding_count
 * PscKeySetBinding sorted by binding number.
 */
typedef struct {
  uint32_t tag;
  uint32_t flags;
  uint32_t binding_count;
} PscKeySetLayout;
PSC_ASSERT_PACKED (PscKeySetLayout, 3 * 4);

typedef struct {
  uint32_t binding;
  uint32_t descriptor_count;
  uint32_t stage_flags;
  uint32_t binding_flags;
  uint32_t sampler_list;        /* list id from r->sampler_list; 0 unless immutable */
  uint16_t descriptor_type;
  uint16_t immutable;           /* 1: sampler_list names the immutable samplers */
} PscKeySetBinding;
PSC_ASSERT_PACKED (PscKeySetBinding, 5 * 4 + 2 * 2);

/* ===========================================================================
 * Pipeline-layout key: PscKeyPipelineLayout, set_count u32 set-layout ids in
 * order, push_count PscKeyPushRange in the given order.
 */
typedef struct {
  uint32_t tag;
  uint32_t flags;
  uint32_t set_count;
  uint32_t push_count;
} PscKeyPipelineLayout;
PSC_ASSERT_PACKED (PscKeyPipelineLayout, 4 * 4);

typedef struct {
  uint32_t stage_flags;
  uint32_t offset;
  uint32_t size;
} PscKeyPushRange;
PSC_ASSERT_PACKED (PscKeyPushRange, 3 * 4);

/* ===========================================================================
 * Compatibility render-pass key:
 *   PscKeyRenderPass
 *   attachment_count x PscKeyAttachment
 *   subpass_count x { PscKeySubpass, u32 input[input_count],
 *                     u32 color[color_count], u32 resolve[resolve_count],
 *                     u32 preserve[preserve_count] }
 *   dependency_count x PscKeyDependency
 *   correlation_count x u32 correlation mask
 * Attachment references are attachment indices (VK_ATTACHMENT_UNUSED kept).
 * Load/store ops and layouts are not keyed.
 */
typedef struct {
  uint32_t tag;
  uint32_t flags;
  uint8_t attachment_count;
  uint8_t subpass_count;
  uint8_t dependency_count;
  uint8_t correlation_count;
} PscKeyRenderPass;
PSC_ASSERT_PACKED (PscKeyRenderPass, 2 * 4 + 4 * 1);

typedef struct {
  uint16_t format;              /* format id (enums.h) */
  uint8_t samples;              /* 1..64 */
  uint8_t flags;                /* VkAttachmentDescriptionFlags */
} PscKeyAttachment;
PSC_ASSERT_PACKED (PscKeyAttachment, 2 + 1 + 1);

typedef struct {
  uint32_t flags;
  uint32_t bind_point;
  uint32_t view_mask;           /* VkRenderPassMultiviewCreateInfo, else 0 */
  uint32_t depth_stencil;       /* attachment index or VK_ATTACHMENT_UNUSED */
  uint8_t input_count;
  uint8_t color_count;
  uint8_t resolve_count;        /* 0 or color_count (0 if all unused / NULL) */
  uint8_t preserve_count;
} PscKeySubpass;
PSC_ASSERT_PACKED (PscKeySubpass, 4 * 4 + 4 * 1);

typedef struct {
  uint32_t src_subpass, dst_subpass;
  uint32_t src_stage_mask, dst_stage_mask;
  uint32_t src_access_mask, dst_access_mask;
  uint32_t dependency_flags;
  int32_t view_offset;          /* VkRenderPassMultiviewCreateInfo, else 0 */
} PscKeyDependency;
PSC_ASSERT_PACKED (PscKeyDependency, 8 * 4);

/* ===========================================================================
 * Pipeline stages (graphics and compute):
 *   PscKeyStage, name bytes [name_len] (no NUL),
 *   spec_count x PscKeySpecEntry sorted by constant ID,
 *   the values' bytes concatenated in the same order.
 */
typedef struct {
  uint32_t shader_id;
  uint32_t generation;
  uint8_t stage;                /* PscStage */
  uint8_t flags;                /* VkPipelineShaderStageCreateFlags */
  uint8_t name_len;
  uint8_t spec_count;
} PscKeyStage;
PSC_ASSERT_PACKED (PscKeyStage, 2 * 4 + 4 * 1);

typedef struct {
  uint32_t constant_id;
  uint32_t size;
} PscKeySpecEntry;
PSC_ASSERT_PACKED (PscKeySpecEntry, 2 * 4);

/* ===========================================================================
 * Graphics key (version 2):
 *   PscKeyGraphics
 *   PscKeyLegacyPass                            (if PSC_GFX_LEGACY_PASS)
 *   u32 view mask                               (if PSC_GFX_HAS_VIEW_MASK)
 *   u16 color format ids [color_count]          (dynamic rendering)
 *   PscKeyGraphicsState
 *   PscKeyTessellation                          (if PSC_GFX_HAS_TESSELLATION)
 *   PscKeyDepthBias                             (if PSC_GFX_HAS_DEPTH_BIAS)
 *   PscKeySampleState                           (if PSC_GFX_HAS_SAMPLE_STATE)
 *   PscKeyDepthStencil                          (if PSC_GFX_HAS_STENCIL_BOUNDS)
 *   PscKeyColorBlend                            (if PSC_GFX_HAS_BLEND_CONSTANTS)
 *   PscKeyBlendAttachment [state.blend_count]   (if PSC_GFX_HAS_COLOR_BLEND)
 *   PscKeyVertexBinding [state.binding_count]   sorted by binding
 *   PscKeyVertexAttribute [state.attribute_count] sorted by location
 *   stage_count x stage (see above)             sorted by stage bit
 * Optional records are omitted when they would hold only defaults (zeros,
 * or a full sample mask), so common keys stay short: fewer bytes to hash,
 * store and compare. Version 1 kept the pass, view mask, patch control
 * points, sample mask and minimum sample shading in the header and state
 * records: 28 more bytes in every key.
 */
enum {
  PSC_GFX_HAS_TESSELLATION = 1u << 0,    /* PscKeyTessellation follows */
  PSC_GFX_HAS_VIEWPORT = 1u << 1,
  PSC_GFX_HAS_MULTISAMPLE = 1u << 2,
  PSC_GFX_HAS_DEPTH_STENCIL = 1u << 3,
  PSC_GFX_HAS_COLOR_BLEND = 1u << 4,
  PSC_GFX_HAS_STENCIL_BOUNDS = 1u << 5,  /* PscKeyDepthStencil follows */
  PSC_GFX_HAS_BLEND_CONSTANTS = 1u << 6, /* PscKeyColorBlend follows */
  PSC_GFX_HAS_DEPTH_BIAS = 1u << 7,      /* PscKeyDepthBias follows */
  PSC_GFX_LEGACY_PASS = 1u << 8,         /* legacy backend: PscKeyLegacyPass follows */
  PSC_GFX_HAS_VIEW_MASK = 1u << 9,       /* dynamic rendering, view mask != 0 */
  PSC_GFX_HAS_SAMPLE_STATE = 1u << 10,   /* PscKeySampleState follows */
  PSC_GFX_HAS_ALL = (1u << 11) - 1,
};

typedef struct {
  uint32_t tag;
  uint32_t flags;               /* VkPipelineCreateFlags (compile-affecting) */
  uint32_t dynamic_lo;          /* PSC_DYN_* bits 0-31 (two words keep the */
  uint32_t dynamic_hi;          /* record 4-aligned: no tail padding)        */
  uint32_t layout_id;
  uint16_t depth_format;        /* dynamic rendering format ids */
  uint16_t stencil_format;
  uint16_t present;             /* PSC_GFX_* */
  uint8_t stage_count;
  uint8_t color_count;          /* dynamic rendering colour formats */
} PscKeyGraphics;
PSC_ASSERT_PACKED (PscKeyGraphics, 5 * 4 + 3 * 2 + 2 * 1);

/* The legacy backend's compatibility pass and subpass. */
typedef struct {
  uint32_t render_pass_id;
  uint32_t subpass;
} PscKeyLegacyPass;
PSC_ASSERT_PACKED (PscKeyLegacyPass, 2 * 4);

typedef struct {
  uint32_t line_width;                  /* float bits */
  uint8_t topology, primitive_restart, viewport_count, scissor_count;
  uint8_t depth_clamp, rasterizer_discard, polygon_mode, cull_mode;
  uint8_t front_face, depth_bias_enable, samples, sample_shading;
  uint8_t alpha_to_coverage, alpha_to_one, binding_count, attribute_count;
  uint8_t depth_test, depth_write, depth_compare, depth_bounds_test;
  uint8_t stencil_test, logic_op_enable, logic_op, blend_count;
} PscKeyGraphicsState;
PSC_ASSERT_PACKED (PscKeyGraphicsState, 4 + 24 * 1);

/* Written only with tessellation stages. */
typedef struct {
  uint32_t patch_control_points;
} PscKeyTessellation;
PSC_ASSERT_PACKED (PscKeyTessellation, 4);

/* Written only when sample shading is on or the sample mask (masked to the
 * sample count) is not full. */
typedef struct {
  uint32_t sample_mask[2];
  uint32_t min_sample_shading;          /* float bits; 0 without sample shading */
} PscKeySampleState;
PSC_ASSERT_PACKED (PscKeySampleState, 3 * 4);

/* Written only when the depth-bias constants are static and in use. */
typedef struct {
  uint32_t constant, clamp, slope;      /* float bits */
} PscKeyDepthBias;
PSC_ASSERT_PACKED (PscKeyDepthBias, 3 * 4);

typedef struct {
  uint32_t min_depth_bounds, max_depth_bounds;  /* float bits */
  uint32_t front_compare_mask, front_write_mask, front_reference;
  uint32_t back_compare_mask, back_write_mask, back_reference;
  uint8_t front_fail, front_pass, front_depth_fail, front_compare;
  uint8_t back_fail, back_pass, back_depth_fail, back_compare;
} PscKeyDepthStencil;
PSC_ASSERT_PACKED (PscKeyDepthStencil, 8 * 4 + 8 * 1);

typedef struct {
  uint32_t blend_constants[4];  /* float bits; 0 unless a factor reads them */
} PscKeyColorBlend;
PSC_ASSERT_PACKED (PscKeyColorBlend, 4 * 4);

typedef struct {
  uint8_t blend_enable;
  uint8_t src_color, dst_color, color_op;       /* 0 when blending is off */
  uint8_t src_alpha, dst_alpha, alpha_op;
  uint8_t write_mask;
} PscKeyBlendAttachment;
PSC_ASSERT_PACKED (PscKeyBlendAttachment, 8 * 1);

typedef struct {
  uint16_t binding;             /* <= UINT16_MAX, else a capacity failure */
  uint16_t input_rate;
  uint32_t stride;              /* 0 when VERTEX_INPUT_BINDING_STRIDE is dynamic */
} PscKeyVertexBinding;
PSC_ASSERT_PACKED (PscKeyVertexBinding, 2 * 2 + 4);

typedef struct {
  uint8_t location;             /* <= 255, else a capacity failure */
  uint8_t binding;              /* <= 255, else a capacity failure */
  uint16_t format;              /* format id */
  uint32_t offset;
} PscKeyVertexAttribute;
PSC_ASSERT_PACKED (PscKeyVertexAttribute, 2 * 1 + 2 + 4);

/* The fixed part of a graphics key (everything before the vertex input) as
 * records: what the complete encoder assembles before it writes them, and
 * what the key readers parse, with the defaults of absent optional records
 * (read_graphics_fixed, decode-graphics.c). */
typedef struct {
  PscKeyGraphics h;
  PscKeyLegacyPass pass;
  uint32_t view_mask;
  uint16_t colors[PSC_MAX_COLOR_ATTACHMENTS];
  PscKeyGraphicsState st;
  PscKeyTessellation tess;
  PscKeyDepthBias bias;
  PscKeySampleState sample;
  PscKeyDepthStencil dsk;
  PscKeyColorBlend cbk;
  PscKeyBlendAttachment blend[PSC_MAX_COLOR_ATTACHMENTS];
} PscGraphicsKeyFixed;

/* ===========================================================================
 * Compute key: PscKeyCompute, then one stage.
 */
typedef struct {
  uint32_t tag;
  uint32_t flags;
  uint32_t layout_id;
} PscKeyCompute;
PSC_ASSERT_PACKED (PscKeyCompute, 3 * 4);

/* ===========================================================================
 * Writer and reader helpers.
 */
static inline uint8_t *
psc_kw_reserve (PscKeyWriter *w, size_t n)
{
  if (__builtin_expect (w->len > w->cap || w->cap - w->len < n, 0))
    return NULL;
  uint8_t *p = w->data + w->len;
  w->len += n;
  return p;
}

static inline bool
psc_kw_put (PscKeyWriter *w, const void *src, size_t n)
{
  uint8_t *p = psc_kw_reserve (w, n);
  if (p == NULL)
    return false;
  memcpy (p, src, n);
  return true;
}

typedef struct {
  const uint8_t *p;
  const uint8_t *end;
} PscKeyReader;

static inline const uint8_t *
psc_kr_take (PscKeyReader *r, size_t n)
{
  if ((size_t) (r->end - r->p) < n)
    return NULL;
  const uint8_t *q = r->p;
  r->p += n;
  return q;
}

static inline bool
psc_kr_get (PscKeyReader *r, void *dst, size_t n)
{
  const uint8_t *q = psc_kr_take (r, n);
  if (q == NULL)
    return false;
  memcpy (dst, q, n);
  return true;
}

/* Insertion sort of a small index array by a u32 key (stable). */
static inline void
psc_sort_indices (uint8_t *idx, const uint32_t *keys, uint32_t n)
{
  for (uint32_t i = 1; i < n; i++)
    {
      uint8_t v = idx[i];
      uint32_t k = keys[v];
      uint32_t j = i;
      while (j > 0 && keys[idx[j - 1]] > k)
        {
          idx[j] = idx[j - 1];
          j--;
        }
      idx[j] = v;
    }
}

/* ===========================================================================
 * Failure helpers (encode.c). They are only called when a request fails:
 * formatting happens there, never on the success path. `path_fmt` is a
 * printf format for the field path.
 */
#define PSC_COLD __attribute__((cold, noinline))
#define PSC_UNLIKELY(x) __builtin_expect (!!(x), 0)
#define PSC_LIKELY(x) __builtin_expect (!!(x), 1)

/* "<path>: <detail>" with status. */
PSC_INTERNAL PscStatus psc_fail_at (PscCoreError *err, PscStatus status, const char *detail,
                                    const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 4, 5)));
/* UNSUPPORTED "<path>: unsupported value <v>" (v printed as a signed enum). */
PSC_INTERNAL PscStatus psc_fail_enum (PscCoreError *err, int32_t value, const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 3, 4)));
/* UNSUPPORTED "<path>: unsupported flags 0x<f>". */
PSC_INTERNAL PscStatus psc_fail_flags (PscCoreError *err, uint32_t flags, const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 3, 4)));
/* UNSUPPORTED "<path>: <sType> (unsupported structure)". */
PSC_INTERNAL PscStatus psc_fail_stype (PscCoreError *err, uint32_t stype, const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 3, 4)));
/* CAPACITY "<path>: <value> > <max>". */
PSC_INTERNAL PscStatus psc_fail_capacity (PscCoreError *err, uint64_t value, uint64_t max,
                                          const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 4, 5)));
/* CAPACITY: the writer's buffer is full. */
PSC_INTERNAL PscStatus psc_fail_key_full (PscCoreError *err, const PscKeyWriter *w) PSC_COLD;
/* FOREIGN_HANDLE "<path>: handle not issued by this cache". */
PSC_INTERNAL PscStatus psc_fail_foreign (PscCoreError *err, const char *path_fmt, ...)
  PSC_COLD __attribute__((format (printf, 2, 3)));
/* Formats a detail string and fails; for the rarer messages. */
PSC_INTERNAL PscStatus psc_fail_detailf (PscCoreError *err, PscStatus status, const char *path,
                                         const char *detail_fmt, ...)
  PSC_COLD __attribute__((format (printf, 4, 5)));
/* Formats into buf (128 bytes) and returns it. */
PSC_INTERNAL const char *psc_pathf (char *buf, const char *fmt, ...)
  __attribute__((format (printf, 2, 3)));

/* Walks a pNext chain on a struct that takes no extension: the first
 * element is UNSUPPORTED as "<prefix>pNext[0].sType". */
/* An application's VkPipelineCreationFeedbackCreateInfo at pNext[index]
 * (encode.c): one pipeline feedback, and no stage feedbacks or exactly one
 * per stage. */
PSC_INTERNAL PscStatus psc_check_feedback (const VkPipelineCreationFeedbackCreateInfo *fb,
                                           uint32_t stage_count, uint32_t index,
                                           PscCoreError *err);

#define PSC_CHECK_NO_PNEXT(err, pnext, prefix)                                   \
  do {                                                                           \
    if (PSC_UNLIKELY ((pnext) != NULL))                                          \
      return psc_fail_stype ((err), ((const VkBaseInStructure *) (pnext))->sType, \
                             "%spNext[0].sType", (prefix));                      \
  } while (0)

/* ===========================================================================
 * Decode storage (what psc_*_build_size returns the size of).
 */
struct PscSamplerBuild {
  VkSamplerCreateInfo ci;
  VkSamplerReductionModeCreateInfo reduction;
};

struct PscSetLayoutBuild {
  VkDescriptorSetLayoutCreateInfo ci;
  VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags_ci;
  VkDescriptorSetLayoutBinding bindings[PSC_MAX_SET_BINDINGS];
  VkDescriptorBindingFlags binding_flags[PSC_MAX_SET_BINDINGS];
  VkSampler samplers[PSC_MAX_SET_BINDINGS][PSC_MAX_IMMUTABLE_SAMPLERS];
};

struct PscPipelineLayoutBuild {
  VkPipelineLayoutCreateInfo ci;
  VkDescriptorSetLayout set_layouts[PSC_MAX_SET_LAYOUTS];
  VkPushConstantRange push_ranges[PSC_MAX_PUSH_RANGES];
};

struct PscRenderPassBuild {
  VkRenderPassCreateInfo ci;
  VkRenderPassMultiviewCreateInfo multiview;
  VkAttachmentDescription attachments[PSC_MAX_PASS_ATTACHMENTS];
  VkSubpassDescription subpasses[PSC_MAX_SUBPASSES];
  VkAttachmentReference inputs[PSC_MAX_SUBPASSES][PSC_MAX_SUBPASS_REFS];
  VkAttachmentReference colors[PSC_MAX_SUBPASSES][PSC_MAX_SUBPASS_REFS];
  VkAttachmentReference resolves[PSC_MAX_SUBPASSES][PSC_MAX_SUBPASS_REFS];
  VkAttachmentReference depth[PSC_MAX_SUBPASSES];
  uint32_t preserve[PSC_MAX_SUBPASSES][PSC_MAX_PRESERVE_REFS];
  VkSubpassDependency dependencies[PSC_MAX_SUBPASS_DEPENDENCIES];
  uint32_t view_masks[PSC_MAX_SUBPASSES];
  int32_t view_offsets[PSC_MAX_SUBPASS_DEPENDENCIES];
  uint32_t correlation_masks[PSC_MAX_CORRELATION_MASKS];
};

struct PscGraphicsBuild {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineShaderStageCreateInfo stages[PSC_MAX_GRAPHICS_STAGES];
  VkSpecializationInfo spec[PSC_MAX_GRAPHICS_STAGES];
  VkSpecializationMapEntry map[PSC_MAX_GRAPHICS_STAGES][PSC_MAX_SPEC_CONSTANTS];
  uint8_t spec_data[PSC_MAX_GRAPHICS_STAGES][PSC_MAX_SPEC_CONSTANTS * PSC_MAX_SPEC_VALUE_BYTES];
  char names[PSC_MAX_GRAPHICS_STAGES][PSC_MAX_ENTRY_NAME + 1];
  VkPipelineVertexInputStateCreateInfo vertex_input;
  VkVertexInputBindingDescription vertex_bindings[PSC_MAX_VERTEX_BINDINGS];
  VkVertexInputAttributeDescription vertex_attributes[PSC_MAX_VERTEX_ATTRIBUTES];
  VkPipelineInputAssemblyStateCreateInfo input_assembly;
  VkPipelineTessellationStateCreateInfo tessellation;
  VkPipelineViewportStateCreateInfo viewport;
  VkPipelineRasterizationStateCreateInfo rasterization;
  VkPipelineMultisampleStateCreateInfo multisample;
  VkSampleMask sample_mask[2];
  VkPipelineDepthStencilStateCreateInfo depth_stencil;
  VkPipelineColorBlendStateCreateInfo color_blend;
  VkPipelineColorBlendAttachmentState blend_attachments[PSC_MAX_COLOR_ATTACHMENTS];
  VkPipelineDynamicStateCreateInfo dynamic;
  VkDynamicState dynamic_states[64];
  VkPipelineRenderingCreateInfo rendering;
  VkFormat color_formats[PSC_MAX_COLOR_ATTACHMENTS];
};

struct PscComputeBuild {
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry map[PSC_MAX_SPEC_CONSTANTS];
  uint8_t spec_data[PSC_MAX_SPEC_CONSTANTS * PSC_MAX_SPEC_VALUE_BYTES];
  char name[PSC_MAX_ENTRY_NAME + 1];
};
