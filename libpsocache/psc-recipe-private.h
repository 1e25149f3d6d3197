/* psc-recipe-private.h: what PscRecipe and PscSamplerInfo hold, for the files
 * of the recipe (psc-recipe.c: construction, setters, equality;
 * psc-recipe-build.c: Vulkan create infos; psc-recipe-json.c: the JSON
 * form; psc-cache-recipe.c: PscCache methods). Never installed.
 *
 * A recipe keeps plain values, never handles: the objects a pipeline
 * names (shaders by SPIR-V, samplers by description, layouts, a pass) are
 * described in the recipe and made when it is built. Every value stored
 * passed its setter's checks; what only the whole recipe can tell (a stage
 * missing, a blend attachment per colour attachment, what the cache's
 * encoder refuses) is checked by psc_recipe_validate.
 *
 * Field paths (errors of setters and of the JSON reader) use the JSON
 * form's names: `stages[1].specialization[3]`, `layout.sets[0].bindings[2]`.
 * Indices are positions in the recipe (insertion order), as in its JSON.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-private.h"
#include "psocache/psc-recipe.h"
#include "core/enums.h"

G_BEGIN_DECLS

struct _PscSamplerInfo {
  gint ref_count;
  guint mag_filter, min_filter, mipmap_mode;
  guint address_u, address_v, address_w;
  gfloat mip_lod_bias, min_lod, max_lod;
  gboolean anisotropy_enable;
  gfloat max_anisotropy;
  gboolean compare_enable;
  guint compare_op;
  guint border_color;
  gboolean unnormalized_coordinates;
  guint reduction_mode;
};

/* The specialization value types. */
typedef enum {
  PSC_RECIPE_SPEC_BOOL,
  PSC_RECIPE_SPEC_INT,
  PSC_RECIPE_SPEC_UINT,
  PSC_RECIPE_SPEC_FLOAT,
} PscRecipeSpecType;

typedef struct {
  guint32 constant_id;
  guint32 size;                    /* from the shader's declaration: 1, 2, 4, 8 */
  PscRecipeSpecType type;          /* as set (for the JSON form) */
  union {
    gboolean b;
    gint64 i;
    guint64 u;
    gdouble f;
  } value;                         /* as set */
  guint8 bytes[8];                 /* the value's bytes as the map entry gives them */
} PscRecipeSpec;

typedef struct {
  guint stage;                     /* one VkShaderStageFlagBits bit */
  GBytes *spirv;                   /* validated SPIR-V, host byte order */
  char *entry_point;               /* at most PSC_MAX_ENTRY_NAME bytes */
  PscSpecConstant *declared;       /* malloc'd (spirv.h), sorted by id */
  guint32 n_declared;
  guint n_spec;
  PscRecipeSpec spec[PSC_MAX_SPEC_CONSTANTS];   /* in the order set */
} PscRecipeStage;

typedef struct {
  guint binding;
  guint descriptor_type;           /* VkDescriptorType */
  guint count;
  guint stages;                    /* VkShaderStageFlags */
  guint binding_flags;             /* VkDescriptorBindingFlags */
  GPtrArray *immutable;            /* PscSamplerInfo*, owned; empty if none */
} PscRecipeBinding;

typedef struct {
  guint flags;                     /* VkDescriptorSetLayoutCreateFlags */
  GArray *bindings;                /* PscRecipeBinding, in the order added */
} PscRecipeSet;

typedef struct {
  guint stages, offset, size;
} PscRecipePush;

typedef struct {
  guint format;                    /* VkFormat */
  guint samples;                   /* VkSampleCountFlagBits */
} PscRecipeAttachment;

typedef struct {
  guint n_colors, n_resolves, n_inputs;
  guint colors[PSC_MAX_SUBPASS_REFS];     /* attachment indices or VK_ATTACHMENT_UNUSED */
  guint resolves[PSC_MAX_SUBPASS_REFS];   /* 0 or n_colors of them */
  guint inputs[PSC_MAX_SUBPASS_REFS];
  gint depth_stencil;                     /* attachment index, -1 for none */
} PscRecipeSubpass;

typedef struct {
  guint src_subpass, dst_subpass;
  guint src_stage_mask, dst_stage_mask;
  guint src_access_mask, dst_access_mask;
  guint dependency_flags;
} PscRecipeDependency;

typedef struct {
  gboolean enable;
  guint src_color, dst_color, color_op;
  guint src_alpha, dst_alpha, alpha_op;
  guint write_mask;                /* VkColorComponentFlags */
  gboolean set;                    /* set explicitly (else: disabled, RGBA) */
} PscRecipeBlend;

struct _PscRecipe {
  GObject parent_instance;

  PscRecipeKind kind;
  guint create_flags;              /* VkPipelineCreateFlags */

  guint n_stages;
  PscRecipeStage stages[PSC_MAX_GRAPHICS_STAGES];   /* compute: 1 */

  /* Layout */
  GArray *sets;                    /* PscRecipeSet, set index = position */
  guint n_push;
  PscRecipePush push[PSC_MAX_PUSH_RANGES];

  /* Graphics: vertex input */
  guint n_vertex_bindings, n_vertex_attributes;
  struct { guint binding, stride, input_rate; } vertex_bindings[PSC_MAX_VERTEX_BINDINGS];
  struct { guint location, binding, format, offset; } vertex_attributes[PSC_MAX_VERTEX_ATTRIBUTES];

  /* Graphics: fixed function */
  guint topology;
  gboolean primitive_restart;
  guint patch_control_points;      /* 0: not set */
  guint viewport_count, scissor_count;
  guint polygon_mode, cull_mode, front_face;
  gfloat line_width;
  gboolean depth_clamp, rasterizer_discard;
  gboolean depth_bias_enable;
  gfloat depth_bias_constant, depth_bias_clamp, depth_bias_slope;
  guint samples;                   /* VkSampleCountFlagBits */
  gboolean sample_shading;
  gfloat min_sample_shading;
  gboolean alpha_to_coverage, alpha_to_one;
  guint64 sample_mask;             /* G_MAXUINT64: all samples */
  gboolean depth_test, depth_write;
  guint depth_compare;
  gboolean depth_bounds_test;
  gfloat min_depth_bounds, max_depth_bounds;
  gboolean stencil_test;
  struct {
    guint fail_op, pass_op, depth_fail_op, compare_op;
    guint compare_mask, write_mask, reference;
  } stencil[2];                    /* front, back */
  gboolean logic_op_enable;
  guint logic_op;
  gfloat blend_constants[4];
  PscRecipeBlend blend[PSC_MAX_COLOR_ATTACHMENTS];
  guint n_dynamic;
  guint dynamic[PSC_DYN_COUNT];           /* VkDynamicState, in the order added */

  /* Graphics: rendering (dynamic rendering) */
  guint n_color_formats;
  guint color_formats[PSC_MAX_COLOR_ATTACHMENTS];
  guint depth_format, stencil_format;            /* VkFormat; 0: none */
  guint view_mask;

  /* Graphics: rendering (legacy execution pass) */
  guint n_attachments, n_subpasses, n_dependencies;
  PscRecipeAttachment attachments[PSC_MAX_PASS_ATTACHMENTS];
  PscRecipeSubpass subpasses[PSC_MAX_SUBPASSES];
  PscRecipeDependency dependencies[PSC_MAX_SUBPASS_DEPENDENCIES];
  guint subpass;

  /* The canonical form (psc_recipe_canonical), NULL until asked for and
   * after every change. */
  GBytes *canonical;
};

/* Every setter calls this: the canonical form is stale. */
G_GNUC_INTERNAL void psc_recipe_changed (PscRecipe *self);

/* Sets @error: domain PSC_ERROR, @code, "@path: message"; returns FALSE. */
G_GNUC_INTERNAL gboolean psc_recipe_fail (GError **error, PscError code, const char *path,
                                      const char *fmt, ...) G_GNUC_PRINTF (4, 5);

/* psc-sampler-info.c: the Vulkan form of a description (reduction is
 * chained when it is not the weighted average). */
G_GNUC_INTERNAL void psc_sampler_info_to_vk (const PscSamplerInfo *self, VkSamplerCreateInfo *ci,
                                             VkSamplerReductionModeCreateInfo *reduction);

G_END_DECLS
