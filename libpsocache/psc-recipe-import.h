/* psc-recipe-import.h: a recipe from Vulkan create infos
 * (psc-recipe-import.c), the reverse of psc-recipe-build.h. Never
 * installed.
 *
 * The pipeline's create info names objects by handle; a look-up turns
 * each handle back into what it was made from: a shader module into its
 * SPIR-V, a sampler, set layout, pipeline layout or render pass into its
 * create info. psc-cache-recipe-export.c looks them up in the cache's core
 * (core/readback.h), so the create infos are the canonical ones of their
 * keys.
 *
 * What a recipe cannot say fails with PSC_ERROR_UNSUPPORTED naming the
 * Vulkan field (`pStages[1].flags`, `renderPass->pSubpasses[0].
 * preserveAttachmentCount`); a value a recipe setter refuses fails with
 * the setter's error (the recipe's path). Specialization values are set
 * with psc_recipe_set_specialization_uint from their bytes: a create info
 * (and a key) keeps bytes, not types.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-recipe-private.h"

G_BEGIN_DECLS

/* Each look-up fails with @error set (naming @path, the Vulkan field that
 * holds the handle) for a handle it does not know. A create info it
 * returns stays valid until its own next call (the import reads a
 * pipeline layout while it looks up its set layouts, and a set layout
 * while it looks up its samplers). */
typedef struct {
  gpointer ctx;
  GBytes *(*shader) (gpointer ctx, VkShaderModule module, const char *path, GError **error);
  const VkSamplerCreateInfo *(*sampler) (gpointer ctx, VkSampler sampler, const char *path,
                                         GError **error);
  const VkDescriptorSetLayoutCreateInfo *(*set_layout) (gpointer ctx, VkDescriptorSetLayout layout,
                                                        const char *path, GError **error);
  const VkPipelineLayoutCreateInfo *(*pipeline_layout) (gpointer ctx, VkPipelineLayout layout,
                                                        const char *path, GError **error);
  const VkRenderPassCreateInfo *(*render_pass) (gpointer ctx, VkRenderPass pass, const char *path,
                                                GError **error);
} PscRecipeLookup;

/* The recipe of a graphics or compute create info, or NULL with @error. */
G_GNUC_INTERNAL PscRecipe *psc_recipe_import_graphics (const VkGraphicsPipelineCreateInfo *ci,
                                                       const PscRecipeLookup *lookup,
                                                       GError **error);
G_GNUC_INTERNAL PscRecipe *psc_recipe_import_compute (const VkComputePipelineCreateInfo *ci,
                                                      const PscRecipeLookup *lookup,
                                                      GError **error);

G_END_DECLS
