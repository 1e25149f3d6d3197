/* psc-recipe-build.h: a recipe's Vulkan form (psc-recipe-build.c), made
 * through a maker that turns each object's create info into a handle: the
 * cache's get-or-create (psc-cache-recipe.c), or the canonical maker that
 * gives equality and hashing (psc-recipe-canonical.c). Never installed.
 *
 * The build walks a recipe in a canonical order, so that a maker that
 * numbers objects in the order it is asked for them numbers equal recipes
 * equally: shaders by stage bit; per set (in set order) the immutable
 * samplers of its bindings by binding number, then the set layout; the
 * pipeline layout; the render pass; then the pipeline's create info.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-recipe-private.h"

G_BEGIN_DECLS

typedef struct {
  void *ctx;
  /* The module for a stage's SPIR-V (stage index into recipe->stages). */
  gboolean (*shader) (void *ctx, const PscRecipeStage *stage, VkShaderModule *out, GError **error);
  gboolean (*sampler) (void *ctx, const VkSamplerCreateInfo *ci, VkSampler *out, GError **error);
  gboolean (*set_layout) (void *ctx, const VkDescriptorSetLayoutCreateInfo *ci,
                          VkDescriptorSetLayout *out, GError **error);
  gboolean (*pipeline_layout) (void *ctx, const VkPipelineLayoutCreateInfo *ci,
                               VkPipelineLayout *out, GError **error);
  gboolean (*render_pass) (void *ctx, const VkRenderPassCreateInfo *ci, VkRenderPass *out,
                           GError **error);
} PscRecipeMaker;

/* How far a build goes. */
typedef enum {
  PSC_RECIPE_BUILD_LAYOUT,     /* samplers, set layouts, the pipeline layout */
  PSC_RECIPE_BUILD_PASS,       /* the render pass only */
  PSC_RECIPE_BUILD_PIPELINE,   /* everything, and the pipeline's create info */
} PscRecipeBuildWhat;

typedef struct _PscRecipeBuild PscRecipeBuild;

/* Builds @recipe (checked with psc_recipe_check first for PIPELINE) through
 * @maker. NULL with @error set if a check or the maker failed. The create
 * infos point into the build: free it with psc_recipe_build_free. */
G_GNUC_INTERNAL PscRecipeBuild *psc_recipe_build (PscRecipe *recipe, const PscRecipeMaker *maker,
                                                  PscRecipeBuildWhat what, GError **error);
G_GNUC_INTERNAL void psc_recipe_build_free (PscRecipeBuild *build);

/* After PIPELINE, one of these (by the recipe's kind). */
G_GNUC_INTERNAL const VkGraphicsPipelineCreateInfo *psc_recipe_build_graphics (PscRecipeBuild *build);
G_GNUC_INTERNAL const VkComputePipelineCreateInfo *psc_recipe_build_compute (PscRecipeBuild *build);
/* After LAYOUT or PIPELINE. */
G_GNUC_INTERNAL VkPipelineLayout psc_recipe_build_layout (PscRecipeBuild *build);
G_GNUC_INTERNAL VkDescriptorSetLayout psc_recipe_build_set_layout (PscRecipeBuild *build, guint set);
/* After PASS or PIPELINE (VK_NULL_HANDLE when the recipe has no pass). */
G_GNUC_INTERNAL VkRenderPass psc_recipe_build_render_pass (PscRecipeBuild *build);

/* The whole-recipe checks no setter can make (a stage missing, blend
 * attachments beyond the colour attachments, immutable-sampler counts,
 * subpass indices); field paths as the setters'. */
G_GNUC_INTERNAL gboolean psc_recipe_check (PscRecipe *recipe, GError **error);

/* psc-recipe-canonical.c: the canonical form: the cache's canonical keys of
 * the pipeline and of every object it references, with objects numbered
 * by the build's order instead of by a cache's ids, length-prefixed.
 * Cached in recipe->canonical until the next change. NULL with @error set
 * if the recipe is not complete or the cache's encoders refuse it. */
G_GNUC_INTERNAL GBytes *psc_recipe_canonical (PscRecipe *recipe, GError **error);

G_END_DECLS
