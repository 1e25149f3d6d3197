/* psc-material-prewarm.h: pass contexts (recipe providers) and the scene
 * prewarm that turns materials into asynchronous pipeline requests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-cache.h>
#include <psocache/psc-recipe.h>
#include <psocache/psc-material.h>

G_BEGIN_DECLS

/**
 * PSC_MATERIAL_PREWARM_DEFAULT_BUDGET:
 *
 * The budget of a new [struct@Psc.MaterialPrewarm]: 256 requests, the
 * default capacity of the cache's compile-job queue
 * ([property@Psc.Cache:job-capacity]).
 *
 * Since: 0.3
 */
#define PSC_MATERIAL_PREWARM_DEFAULT_BUDGET 256

/**
 * PSC_MATERIAL_PREWARM_MAX_CUT_ENTRIES:
 *
 * How many of the requests the budget cut a prewarm lists
 * ([method@Psc.MaterialPrewarm.get_cut_entry]): the first 16, in input
 * order; [method@Psc.MaterialPrewarm.get_n_cut] counts them all.
 *
 * Since: 0.3
 */
#define PSC_MATERIAL_PREWARM_MAX_CUT_ENTRIES 16

/**
 * PscRecipeProviderFunc:
 * @context: the user data given to [ctor@Psc.PassContext.new]
 * @material_template: the template of the request
 * @key: the variant key the request resolved to
 * @out: (out caller-allocates): the create info to fill
 * @out_generation: (out): the application's generation of the recipe
 *   (its shader or asset revision); 0 if it has none
 *
 * A pass context's C recipe provider: fills @out with the graphics
 * pipeline create info of the variant @key of @material_template in the
 * pass. The pointers @out holds must stay valid until the provider is
 * called again or [method@Psc.MaterialPrewarm.run] returns, whichever is
 * first: the prewarm requests the pipeline at once, and the cache
 * canonicalizes (copies) the create info before that request returns; no
 * worker keeps the provider's pointers. Called on the cache's owner thread
 * from [method@Psc.MaterialPrewarm.run].
 *
 * Returns: %TRUE if @out was filled; %FALSE if the provider has no
 *   pipeline for the variant (the request is reported as failed)
 *
 * Since: 0.3
 */
typedef gboolean (*PscRecipeProviderFunc) (gpointer                      context,
                                           const PscMaterialTemplate    *material_template,
                                           const PscShaderVariantKey    *key,
                                           VkGraphicsPipelineCreateInfo *out,
                                           guint32                      *out_generation);

/**
 * PscRecipeProviderRecipeFunc:
 * @material_template: the template of the request
 * @key: the variant key the request resolved to
 * @user_data: the user data given to [ctor@Psc.PassContext.new_for_recipes]
 *
 * A pass context's recipe provider for bindings: returns the graphics
 * [class@Psc.Recipe] of the variant @key of @material_template in the
 * pass. Called on the cache's owner thread from
 * [method@Psc.MaterialPrewarm.run].
 *
 * Returns: (transfer full) (nullable): the recipe, or %NULL if the
 *   provider has no pipeline for the variant (the request is reported as
 *   failed)
 *
 * Since: 0.3
 */
typedef PscRecipe *(*PscRecipeProviderRecipeFunc) (PscMaterialTemplate       *material_template,
                                                   const PscShaderVariantKey *key,
                                                   gpointer                   user_data);

#define PSC_TYPE_PASS_CONTEXT (psc_pass_context_get_type ())
#define PSC_TYPE_MATERIAL_PREWARM (psc_material_prewarm_get_type ())

/**
 * PscPassContext:
 *
 * A pass of the application's renderer as the material layer sees it: a
 * [enum@Psc.PassKind] (which flags its variant keys keep), a name, and the
 * recipe provider that turns a template's variant into a pipeline create
 * info ([ctor@Psc.PassContext.new], C) or a [class@Psc.Recipe]
 * ([ctor@Psc.PassContext.new_for_recipes], bindings). Immutable; reference
 * counted; created and released on any thread, its provider called only
 * on the owner thread of the cache a prewarm runs on. See the "Materials"
 * page.
 *
 * Since: 0.3
 */
typedef struct _PscPassContext PscPassContext;

/**
 * PscMaterialPrewarm:
 *
 * A scene prewarm: the (template, flags, pass context) requests of a
 * scene, added in order, then run once on a cache's owner thread
 * ([method@Psc.MaterialPrewarm.run]): exact duplicates are collapsed
 * (the first kept), the budget cuts the rest, each remaining request's
 * pipeline is requested asynchronously, and the report says what was
 * requested, deduplicated, cut, failed and Ready. Owner thread only, from
 * the first add to the last getter; reference counted (a pending request
 * holds a reference until its completion runs in
 * [method@Psc.Cache.begin_frame] or [method@Psc.Cache.close]).
 *
 * Since: 0.3
 */
typedef struct _PscMaterialPrewarm PscMaterialPrewarm;

PSC_AVAILABLE_IN_0_3
GType psc_pass_context_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscPassContext *psc_pass_context_new (PscPassKind            kind,
                                      const char            *name,
                                      PscRecipeProviderFunc  provider,
                                      gpointer               user_data,
                                      GDestroyNotify         destroy);
PSC_AVAILABLE_IN_0_3
PscPassContext *psc_pass_context_new_for_recipes (PscPassKind                  kind,
                                                  const char                  *name,
                                                  PscRecipeProviderRecipeFunc  provider,
                                                  gpointer                     user_data,
                                                  GDestroyNotify               destroy);
PSC_AVAILABLE_IN_0_3
PscPassContext *psc_pass_context_ref (PscPassContext *self);
PSC_AVAILABLE_IN_0_3
void psc_pass_context_unref (PscPassContext *self);
PSC_AVAILABLE_IN_0_3
PscPassKind psc_pass_context_get_kind (PscPassContext *self);
PSC_AVAILABLE_IN_0_3
const char *psc_pass_context_get_name (PscPassContext *self);

PSC_AVAILABLE_IN_0_3
GType psc_material_prewarm_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscMaterialPrewarm *psc_material_prewarm_new (PscCache *cache);
PSC_AVAILABLE_IN_0_3
PscMaterialPrewarm *psc_material_prewarm_ref (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
void psc_material_prewarm_unref (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
void psc_material_prewarm_set_budget (PscMaterialPrewarm *self, guint budget);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_budget (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_material_prewarm_add (PscMaterialPrewarm   *self,
                                   PscMaterialTemplate  *material_template,
                                   PscMaterialFlags      flags,
                                   PscPassContext       *pass_context,
                                   GError              **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_material_prewarm_add_instance (PscMaterialPrewarm   *self,
                                            PscMaterialInstance  *instance,
                                            PscPassContext       *pass_context,
                                            GError              **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_material_prewarm_run (PscMaterialPrewarm *self, GError **error);

PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_added (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_deduplicated (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_requested (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_cut (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_cut_entry (PscMaterialPrewarm *self, guint i);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_failed (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_failure_entry (PscMaterialPrewarm *self, guint i);
PSC_AVAILABLE_IN_0_3
const GError *psc_material_prewarm_get_failure_error (PscMaterialPrewarm *self, guint i);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_ready (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_pending (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_n_entries (PscMaterialPrewarm *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_prewarm_get_entry (PscMaterialPrewarm  *self,
                                      guint                i,
                                      PscShaderVariantKey *out_key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscPassContext, psc_pass_context_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscMaterialPrewarm, psc_material_prewarm_unref)

G_END_DECLS
