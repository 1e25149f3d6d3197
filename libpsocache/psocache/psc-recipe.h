/* psc-recipe.h: PscRecipe, a self-contained description of one pipeline, and
 * PscSamplerInfo, a sampler description.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <gio/gio.h>
#include <psocache/psc-macros.h>

G_BEGIN_DECLS

/**
 * PscRecipeKind:
 * @PSC_RECIPE_KIND_GRAPHICS: a graphics pipeline
 * @PSC_RECIPE_KIND_COMPUTE: a compute pipeline
 *
 * What a [class@Psc.Recipe] describes.
 *
 * Since: 0.3
 */
typedef enum {
  PSC_RECIPE_KIND_GRAPHICS,
  PSC_RECIPE_KIND_COMPUTE,
} PscRecipeKind PSC_AVAILABLE_TYPE_IN_0_3;

/**
 * PSC_RECIPE_JSON_VERSION:
 *
 * The version of the recipe JSON form that [method@Psc.Recipe.to_json]
 * writes (its `"version"` member) and the newest that
 * [ctor@Psc.Recipe.new_from_json] reads. See the recipe JSON page.
 *
 * Since: 0.3
 */
#define PSC_RECIPE_JSON_VERSION 1

/**
 * PSC_RECIPE_JSON_MAX_BYTES:
 *
 * The largest recipe JSON document [ctor@Psc.Recipe.new_from_json] reads:
 * 16 MiB (SPIR-V inline as base64 included). Longer input is refused with
 * %PSC_ERROR_CAPACITY before it is parsed.
 *
 * Since: 0.3
 */
#define PSC_RECIPE_JSON_MAX_BYTES (16u * 1024u * 1024u)

/* ------------------------------------------------------------------------ */

#define PSC_TYPE_SAMPLER_INFO (psc_sampler_info_get_type ())

/**
 * PscSamplerInfo:
 *
 * A sampler description: what `VkSamplerCreateInfo` (and its chained
 * `VkSamplerReductionModeCreateInfo`) says, without pointers, for
 * immutable samplers in a [class@Psc.Recipe] and for
 * [method@Psc.Cache.get_sampler_for_info].
 *
 * A new description is Vulkan's zero-initialised sampler: nearest
 * filtering, repeat addressing, no anisotropy, no compare, LOD 0..0,
 * border `VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK`, normalized
 * coordinates, reduction `VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE`.
 * Setters check their values against what the cache supports and fail
 * with %PSC_ERROR_UNSUPPORTED (or %PSC_ERROR_INVALID_ARGUMENT for a value
 * Vulkan forbids), naming the field, leaving the description unchanged.
 *
 * A description is reference counted and not thread-safe: share it
 * between threads only once nobody changes it.
 *
 * Since: 0.3
 */
typedef struct _PscSamplerInfo PscSamplerInfo;

PSC_AVAILABLE_IN_0_3
GType psc_sampler_info_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscSamplerInfo *psc_sampler_info_new (void);
PSC_AVAILABLE_IN_0_3
PscSamplerInfo *psc_sampler_info_ref (PscSamplerInfo *self);
PSC_AVAILABLE_IN_0_3
void psc_sampler_info_unref (PscSamplerInfo *self);
PSC_AVAILABLE_IN_0_3
PscSamplerInfo *psc_sampler_info_copy (const PscSamplerInfo *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_equal (const PscSamplerInfo *a, const PscSamplerInfo *b);

PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_filters (PscSamplerInfo *self, guint mag_filter, guint min_filter,
                                       guint mipmap_mode, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_address_modes (PscSamplerInfo *self, guint u, guint v, guint w,
                                             GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_lod (PscSamplerInfo *self, gfloat mip_lod_bias, gfloat min_lod,
                                   gfloat max_lod, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_anisotropy (PscSamplerInfo *self, gboolean enable,
                                          gfloat max_anisotropy, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_compare (PscSamplerInfo *self, gboolean enable, guint compare_op,
                                       GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_border_color (PscSamplerInfo *self, guint border_color,
                                            GError **error);
PSC_AVAILABLE_IN_0_3
void psc_sampler_info_set_unnormalized_coordinates (PscSamplerInfo *self, gboolean unnormalized);
PSC_AVAILABLE_IN_0_3
gboolean psc_sampler_info_set_reduction_mode (PscSamplerInfo *self, guint reduction_mode,
                                              GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscSamplerInfo, psc_sampler_info_unref)

/* ------------------------------------------------------------------------ */

#define PSC_TYPE_RECIPE (psc_recipe_get_type ())
PSC_AVAILABLE_IN_0_3
G_DECLARE_FINAL_TYPE (PscRecipe, psc_recipe, PSC, RECIPE, GObject)

PSC_AVAILABLE_IN_0_3
PscRecipe *psc_recipe_new_graphics (void);
PSC_AVAILABLE_IN_0_3
PscRecipe *psc_recipe_new_compute (void);
PSC_AVAILABLE_IN_0_3
PscRecipe *psc_recipe_new_from_json (const char *json, gssize length, GError **error);
PSC_AVAILABLE_IN_0_3
PscRecipe *psc_recipe_copy (PscRecipe *self);

PSC_AVAILABLE_IN_0_3
PscRecipeKind psc_recipe_get_kind (PscRecipe *self);
PSC_AVAILABLE_IN_0_3
char *psc_recipe_to_json (PscRecipe *self, gboolean pretty, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_validate (PscRecipe *self, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_equal (PscRecipe *a, PscRecipe *b);
PSC_AVAILABLE_IN_0_3
guint psc_recipe_hash (PscRecipe *self);

/* Stages */
PSC_AVAILABLE_IN_0_3
gint psc_recipe_add_stage (PscRecipe *self, guint stage, GBytes *spirv,
                           const char *entry_point, GError **error);
PSC_AVAILABLE_IN_0_3
guint psc_recipe_get_n_stages (PscRecipe *self);
PSC_AVAILABLE_IN_0_3
guint psc_recipe_get_stage (PscRecipe *self, guint index);
PSC_AVAILABLE_IN_0_3
GBytes *psc_recipe_get_stage_spirv (PscRecipe *self, guint index);
PSC_AVAILABLE_IN_0_3
const char *psc_recipe_get_stage_entry_point (PscRecipe *self, guint index);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_specialization_bool (PscRecipe *self, guint stage_index,
                                             guint constant_id, gboolean value,
                                             GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_specialization_int (PscRecipe *self, guint stage_index,
                                            guint constant_id, gint64 value,
                                            GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_specialization_uint (PscRecipe *self, guint stage_index,
                                             guint constant_id, guint64 value,
                                             GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_specialization_float (PscRecipe *self, guint stage_index,
                                              guint constant_id, gdouble value,
                                              GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_create_flags (PscRecipe *self, guint flags, GError **error);

/* Layout */
PSC_AVAILABLE_IN_0_3
gint psc_recipe_add_set_layout (PscRecipe *self, guint flags, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_set_binding (PscRecipe *self, guint set, guint binding,
                                     guint descriptor_type, guint count, guint stages,
                                     guint binding_flags, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_immutable_sampler (PscRecipe *self, guint set, guint binding,
                                           PscSamplerInfo *sampler, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_push_constant_range (PscRecipe *self, guint stages, guint offset,
                                             guint size, GError **error);
PSC_AVAILABLE_IN_0_3
guint psc_recipe_get_n_set_layouts (PscRecipe *self);

/* Graphics state */
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_vertex_binding (PscRecipe *self, guint binding, guint stride,
                                        guint input_rate, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_vertex_attribute (PscRecipe *self, guint location, guint binding,
                                          guint format, guint offset, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_input_assembly (PscRecipe *self, guint topology,
                                        gboolean primitive_restart, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_patch_control_points (PscRecipe *self, guint points, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_viewport_count (PscRecipe *self, guint viewports, guint scissors,
                                        GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_rasterization (PscRecipe *self, guint polygon_mode, guint cull_mode,
                                       guint front_face, gfloat line_width, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_rasterization_flags (PscRecipe *self, gboolean depth_clamp,
                                             gboolean rasterizer_discard, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_depth_bias (PscRecipe *self, gboolean enable, gfloat constant_factor,
                                    gfloat clamp, gfloat slope_factor, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_multisample (PscRecipe *self, guint samples, gboolean sample_shading,
                                     gfloat min_sample_shading, gboolean alpha_to_coverage,
                                     gboolean alpha_to_one, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_sample_mask (PscRecipe *self, guint64 mask, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_depth (PscRecipe *self, gboolean test, gboolean write,
                               guint compare_op, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_depth_bounds (PscRecipe *self, gboolean enable, gfloat min_bounds,
                                      gfloat max_bounds, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_stencil_test (PscRecipe *self, gboolean enable, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_stencil_face (PscRecipe *self, guint faces, guint fail_op,
                                      guint pass_op, guint depth_fail_op, guint compare_op,
                                      guint compare_mask, guint write_mask, guint reference,
                                      GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_logic_op (PscRecipe *self, gboolean enable, guint op, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_blend_constants (PscRecipe *self, gfloat red, gfloat green,
                                         gfloat blue, gfloat alpha, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_blend_attachment (PscRecipe *self, guint attachment, gboolean enable,
                                          guint src_color, guint dst_color, guint color_op,
                                          guint src_alpha, guint dst_alpha, guint alpha_op,
                                          guint write_mask, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_dynamic_state (PscRecipe *self, guint state, GError **error);

/* Rendering: dynamic rendering formats, or a legacy execution pass */
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_color_format (PscRecipe *self, guint format, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_depth_stencil_format (PscRecipe *self, guint depth_format,
                                              guint stencil_format, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_view_mask (PscRecipe *self, guint view_mask, GError **error);
PSC_AVAILABLE_IN_0_3
gint psc_recipe_add_pass_attachment (PscRecipe *self, guint format, guint samples,
                                     GError **error);
PSC_AVAILABLE_IN_0_3
gint psc_recipe_add_subpass (PscRecipe *self, const guint *colors, guint n_colors,
                             const guint *resolves, guint n_resolves,
                             const guint *inputs, guint n_inputs,
                             gint depth_stencil, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_add_subpass_dependency (PscRecipe *self, guint src_subpass,
                                            guint dst_subpass, guint src_stage_mask,
                                            guint dst_stage_mask, guint src_access_mask,
                                            guint dst_access_mask, guint dependency_flags,
                                            GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_set_subpass (PscRecipe *self, guint subpass, GError **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_recipe_get_uses_render_pass (PscRecipe *self);

G_END_DECLS
