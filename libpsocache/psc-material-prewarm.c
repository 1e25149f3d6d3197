/* psc-material-prewarm.c: pass contexts (recipe providers) and the scene
 * prewarm. Above PscCache and the material layer: it turns (template,
 * flags, pass context) requests into the cache's asynchronous requests;
 * the core knows nothing of materials.
 *
 * A run calls each provider and requests its create info at once, on the
 * owner thread, so the cache canonicalizes the create info while the
 * provider's pointers are valid; a worker sees only the cache's copy.
 * Pending requests point at the prewarm's entry array, which is never
 * reallocated after the run, and each holds a reference on the prewarm
 * until its completion runs (exactly once: begin_frame or close). The
 * prewarm holds its cache weakly, so that an application dropping the
 * cache with requests pending closes it (running those completions)
 * instead of keeping it in a cycle.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"
#include "psocache/psc-material-prewarm.h"

#include <string.h>

struct _PscPassContext {
  PscPassKind kind;
  char *name;
  PscRecipeProviderFunc provider;
  PscRecipeProviderRecipeFunc recipe_provider;
  gpointer user_data;
  GDestroyNotify destroy;
};

typedef enum {
  ENTRY_CUT,
  ENTRY_PENDING,
  ENTRY_READY,
  ENTRY_FAILED,
} EntryState;

typedef struct {
  PscMaterialPrewarm *prewarm;
  PscMaterialTemplate *material_template;
  PscPassContext *pass_context;
  PscShaderVariantKey key;
  guint added_index;
  EntryState state;
  GError *error;
} Entry;

struct _PscMaterialPrewarm {
  GWeakRef cache;             /* weak: pending requests reference the prewarm */
  guint budget;
  gboolean ran;
  GArray *entries;            /* Entry: every add before the run, the unique ones after */
  guint n_added;
  guint n_requested;
  guint n_cut;
  guint n_ready;
  guint n_pending;
  GArray *failures;           /* guint: entry indices, in the order they failed */
};

G_DEFINE_BOXED_TYPE (PscPassContext, psc_pass_context, psc_pass_context_ref,
                     psc_pass_context_unref)
G_DEFINE_BOXED_TYPE (PscMaterialPrewarm, psc_material_prewarm, psc_material_prewarm_ref,
                     psc_material_prewarm_unref)

static PscPassContext *
pass_context_new (PscPassKind                  kind,
                  const char                  *name,
                  PscRecipeProviderFunc        provider,
                  PscRecipeProviderRecipeFunc  recipe_provider,
                  gpointer                     user_data,
                  GDestroyNotify               destroy)
{
  PscPassContext *self = g_atomic_rc_box_new0 (PscPassContext);

  self->kind = kind;
  self->name = g_strdup (name);
  self->provider = provider;
  self->recipe_provider = recipe_provider;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

/**
 * psc_pass_context_new: (skip)
 * @kind: the kind of pass (which flags its variant keys keep)
 * @name: the pass's name, for reports (UTF-8)
 * @provider: the recipe provider
 * @user_data: (closure provider): its context
 * @destroy: (destroy provider) (nullable): frees @user_data when the pass
 *   context is finalized
 *
 * A pass context with a C recipe provider ([callback@Psc.RecipeProviderFunc]).
 * Bindings use [ctor@Psc.PassContext.new_for_recipes].
 *
 * Returns: (transfer full): a new pass context
 *
 * Since: 0.3
 */
PscPassContext *
psc_pass_context_new (PscPassKind            kind,
                      const char            *name,
                      PscRecipeProviderFunc  provider,
                      gpointer               user_data,
                      GDestroyNotify         destroy)
{
  g_return_val_if_fail (kind <= PSC_PASS_KIND_SHADOW, NULL);
  g_return_val_if_fail (name != NULL && g_utf8_validate (name, -1, NULL), NULL);
  g_return_val_if_fail (provider != NULL, NULL);

  return pass_context_new (kind, name, provider, NULL, user_data, destroy);
}

/**
 * psc_pass_context_new_for_recipes:
 * @kind: the kind of pass (which flags its variant keys keep)
 * @name: the pass's name, for reports (UTF-8)
 * @provider: (scope notified) (closure user_data) (destroy destroy): the
 *   recipe provider
 * @user_data: its data
 * @destroy: (nullable): frees @user_data when the pass context is finalized
 *
 * A pass context whose provider returns a graphics [class@Psc.Recipe]
 * ([callback@Psc.RecipeProviderRecipeFunc]): the form bindings use.
 *
 * Returns: (transfer full): a new pass context
 *
 * Since: 0.3
 */
PscPassContext *
psc_pass_context_new_for_recipes (PscPassKind                  kind,
                                  const char                  *name,
                                  PscRecipeProviderRecipeFunc  provider,
                                  gpointer                     user_data,
                                  GDestroyNotify               destroy)
{
  g_return_val_if_fail (kind <= PSC_PASS_KIND_SHADOW, NULL);
  g_return_val_if_fail (name != NULL && g_utf8_validate (name, -1, NULL), NULL);
  g_return_val_if_fail (provider != NULL, NULL);

  return pass_context_new (kind, name, NULL, provider, user_data, destroy);
}

/**
 * psc_pass_context_ref:
 * @self: a pass context
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscPassContext *
psc_pass_context_ref (PscPassContext *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
pass_context_clear (gpointer data)
{
  PscPassContext *self = data;

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  g_free (self->name);
}

/**
 * psc_pass_context_unref:
 * @self: (transfer full): a pass context
 *
 * Drops a reference; the last one calls the provider's destroy notify.
 *
 * Since: 0.3
 */
void
psc_pass_context_unref (PscPassContext *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, pass_context_clear);
}

/**
 * psc_pass_context_get_kind:
 * @self: a pass context
 *
 * The kind of pass the context was created with.
 *
 * Returns: the kind of pass
 *
 * Since: 0.3
 */
PscPassKind
psc_pass_context_get_kind (PscPassContext *self)
{
  g_return_val_if_fail (self != NULL, PSC_PASS_KIND_COLOR);
  return self->kind;
}

/**
 * psc_pass_context_get_name:
 * @self: a pass context
 *
 * The name the context was created with.
 *
 * Returns: (transfer none): the pass's name
 *
 * Since: 0.3
 */
const char *
psc_pass_context_get_name (PscPassContext *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

/**
 * psc_material_prewarm_new:
 * @cache: the cache the pipelines are requested from
 *
 * An empty scene prewarm on @cache, with the budget
 * %PSC_MATERIAL_PREWARM_DEFAULT_BUDGET. Owner thread of @cache only. The
 * prewarm holds @cache weakly (its pending requests hold the prewarm):
 * keep your own reference until the run.
 *
 * Returns: (transfer full): a new prewarm
 *
 * Since: 0.3
 */
PscMaterialPrewarm *
psc_material_prewarm_new (PscCache *cache)
{
  PscMaterialPrewarm *self;

  g_return_val_if_fail (PSC_IS_CACHE (cache), NULL);

  self = g_atomic_rc_box_new0 (PscMaterialPrewarm);
  g_weak_ref_init (&self->cache, cache);
  self->budget = PSC_MATERIAL_PREWARM_DEFAULT_BUDGET;
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  self->failures = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

/**
 * psc_material_prewarm_ref:
 * @self: a prewarm
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscMaterialPrewarm *
psc_material_prewarm_ref (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
entry_clear (Entry *e)
{
  g_clear_pointer (&e->material_template, psc_material_template_unref);
  g_clear_pointer (&e->pass_context, psc_pass_context_unref);
  g_clear_error (&e->error);
}

static void
prewarm_clear (gpointer data)
{
  PscMaterialPrewarm *self = data;

  for (guint i = 0; i < self->entries->len; i++)
    entry_clear (&g_array_index (self->entries, Entry, i));
  g_array_unref (self->entries);
  g_array_unref (self->failures);
  g_weak_ref_clear (&self->cache);
}

/**
 * psc_material_prewarm_unref:
 * @self: (transfer full): a prewarm
 *
 * Drops a reference. Requests still pending hold their own until their
 * completion runs.
 *
 * Since: 0.3
 */
void
psc_material_prewarm_unref (PscMaterialPrewarm *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, prewarm_clear);
}

/**
 * psc_material_prewarm_set_budget:
 * @self: a prewarm not run yet
 * @budget: the most requests the run makes (after deduplication)
 *
 * Sets the budget: the first @budget unique requests are made, the rest
 * are cut and reported ([method@Psc.MaterialPrewarm.get_n_cut]). The
 * default, %PSC_MATERIAL_PREWARM_DEFAULT_BUDGET, is the default job
 * capacity of a cache.
 *
 * Since: 0.3
 */
void
psc_material_prewarm_set_budget (PscMaterialPrewarm *self,
                                 guint               budget)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->ran);
  self->budget = budget;
}

/**
 * psc_material_prewarm_get_budget:
 * @self: a prewarm
 *
 * The most unique requests the run makes.
 *
 * Returns: the budget
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_budget (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->budget;
}

/**
 * psc_material_prewarm_add:
 * @self: a prewarm not run yet
 * @material_template: the material's template
 * @flags: the instance's flags (resolved against the template and the
 *   pass: [method@Psc.MaterialTemplate.resolve_variant_key])
 * @pass_context: the pass it is drawn in
 * @error: return location for a #GError
 *
 * Adds a request, after those added before. Fails with
 * %PSC_ERROR_INVALID_ARGUMENT after [method@Psc.MaterialPrewarm.run].
 *
 * Returns: %TRUE if it was added
 *
 * Since: 0.3
 */
gboolean
psc_material_prewarm_add (PscMaterialPrewarm   *self,
                          PscMaterialTemplate  *material_template,
                          PscMaterialFlags      flags,
                          PscPassContext       *pass_context,
                          GError              **error)
{
  Entry e = { 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (material_template != NULL, FALSE);
  g_return_val_if_fail (pass_context != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->ran)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "prewarm: already run, no request can be added");
      return FALSE;
    }
  e.material_template = psc_material_template_ref (material_template);
  e.pass_context = psc_pass_context_ref (pass_context);
  psc_material_template_resolve_variant_key (material_template, flags, pass_context->kind, &e.key);
  e.added_index = self->n_added++;
  e.state = ENTRY_CUT;
  g_array_append_val (self->entries, e);
  return TRUE;
}

/**
 * psc_material_prewarm_add_instance:
 * @self: a prewarm not run yet
 * @instance: a material instance (its template and flags are added)
 * @pass_context: the pass it is drawn in
 * @error: return location for a #GError
 *
 * [method@Psc.MaterialPrewarm.add] with an instance's template and flags.
 *
 * Returns: %TRUE if it was added
 *
 * Since: 0.3
 */
gboolean
psc_material_prewarm_add_instance (PscMaterialPrewarm   *self,
                                   PscMaterialInstance  *instance,
                                   PscPassContext       *pass_context,
                                   GError              **error)
{
  g_return_val_if_fail (instance != NULL, FALSE);
  return psc_material_prewarm_add (self, psc_material_instance_get_template (instance),
                                   psc_material_instance_get_flags (instance), pass_context,
                                   error);
}

static void
entry_fail (PscMaterialPrewarm *self,
            guint               i,
            GError             *error)
{
  Entry *e = &g_array_index (self->entries, Entry, i);

  e->state = ENTRY_FAILED;
  e->error = error;
  g_array_append_val (self->failures, i);
}

static void
on_ready (void       *context,
          VkPipeline  pipeline,
          VkResult    result)
{
  Entry *e = context;
  PscMaterialPrewarm *self = e->prewarm;
  guint i = e - &g_array_index (self->entries, Entry, 0);

  e->prewarm = NULL;
  self->n_pending--;
  if (pipeline != VK_NULL_HANDLE && result == VK_SUCCESS)
    {
      e->state = ENTRY_READY;
      self->n_ready++;
    }
  else if (result == VK_INCOMPLETE)
    entry_fail (self, i, g_error_new (PSC_ERROR, PSC_ERROR_DISCARDED,
                                      "prewarm: the request of pass '%s' was discarded before "
                                      "it was Ready: a hot reload replaced one of its shaders "
                                      "(or the cache closed); request it again",
                                      e->pass_context->name));
  else
    entry_fail (self, i, g_error_new (PSC_ERROR, PSC_ERROR_VULKAN,
                                      "prewarm: the pipeline of pass '%s' failed to compile "
                                      "(VkResult %d)",
                                      e->pass_context->name, (int) result));
  psc_material_prewarm_unref (self);
}

static guint
entry_hash (gconstpointer p)
{
  const Entry *e = p;

  return psc_shader_variant_key_hash (&e->key) ^ g_direct_hash (e->material_template) ^
         (g_direct_hash (e->pass_context) * 31u);
}

static gboolean
entry_equal (gconstpointer a,
             gconstpointer b)
{
  const Entry *x = a, *y = b;

  return x->material_template == y->material_template &&
         x->pass_context == y->pass_context && psc_shader_variant_key_equal (&x->key, &y->key);
}

/* Unique entries, the first of each (template, key, pass context) kept, in
 * input order. The table points into @unique, sized so it never moves. */
static void
deduplicate (PscMaterialPrewarm *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (entry_hash, entry_equal);
  GArray *unique = g_array_sized_new (FALSE, TRUE, sizeof (Entry), self->entries->len);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = &g_array_index (self->entries, Entry, i);

      if (g_hash_table_contains (seen, e))
        entry_clear (e);
      else
        {
          g_array_append_val (unique, *e);
          g_hash_table_add (seen, &g_array_index (unique, Entry, unique->len - 1));
        }
    }
  g_array_set_size (self->entries, 0);
  g_array_unref (self->entries);
  self->entries = unique;
}

static gboolean
request_entry (PscMaterialPrewarm *self,
               PscCache           *cache,
               guint               i,
               GError            **error)
{
  Entry *e = &g_array_index (self->entries, Entry, i);
  PscPassContext *pc = e->pass_context;
  PscRequestResult result = PSC_REQUEST_RESULT_PENDING;
  GError *local = NULL;
  guint64 pipeline;

  /* The completion's reference, given back by on_ready (or here). */
  e->prewarm = psc_material_prewarm_ref (self);
  if (pc->provider != NULL)
    {
      VkGraphicsPipelineCreateInfo ci = { 0 };
      guint32 generation = 0;

      if (!pc->provider (pc->user_data, e->material_template, &e->key, &ci, &generation))
        {
          local = g_error_new (PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                               "prewarm: the provider of pass '%s' has no pipeline for "
                               "template '%s' (flags 0x%x)", pc->name,
                               psc_material_template_get_base_name (e->material_template),
                               e->key.flags);
          goto failed;
        }
      pipeline = (guint64) (guintptr)
        psc_cache_request_graphics_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP,
                                             PSC_REQUEST_FLAGS_NONE, on_ready, e, &result,
                                             &local);
    }
  else
    {
      g_autoptr(PscRecipe) recipe =
        pc->recipe_provider (e->material_template, &e->key, pc->user_data);

      if (recipe == NULL)
        {
          local = g_error_new (PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                               "prewarm: the provider of pass '%s' has no recipe for "
                               "template '%s' (flags 0x%x)", pc->name,
                               psc_material_template_get_base_name (e->material_template),
                               e->key.flags);
          goto failed;
        }
      pipeline = psc_cache_request_recipe_with_callback (cache, recipe,
                                                         PSC_MISS_POLICY_SKIP,
                                                         PSC_REQUEST_FLAGS_NONE, on_ready, e,
                                                         &result, &local);
    }
  if (local != NULL)
    {
      /* Closed or another thread stop the run; a refused create info is
       * this request's failure. */
      if (g_error_matches (local, PSC_ERROR, PSC_ERROR_CLOSED) ||
          g_error_matches (local, PSC_ERROR, PSC_ERROR_WRONG_THREAD))
        {
          e->prewarm = NULL;
          psc_material_prewarm_unref (self);
          g_propagate_error (error, local);
          return FALSE;
        }
      goto failed;
    }
  self->n_requested++;
  if (result == PSC_REQUEST_RESULT_READY && pipeline != 0)
    {
      e->prewarm = NULL;
      e->state = ENTRY_READY;
      self->n_ready++;
      psc_material_prewarm_unref (self);
    }
  else
    {
      e->state = ENTRY_PENDING;
      self->n_pending++;
    }
  return TRUE;

failed:
  self->n_requested++;
  e->prewarm = NULL;
  psc_material_prewarm_unref (self);
  entry_fail (self, i, local);
  return TRUE;
}

/**
 * psc_material_prewarm_run:
 * @self: a prewarm not run yet
 * @error: return location for a #GError
 *
 * Runs the prewarm, once, on the cache's owner thread: collapses exact
 * duplicates (same template, variant key and pass context: the first is
 * kept, in input order), cuts the unique requests beyond the budget
 * (reported, [method@Psc.MaterialPrewarm.get_n_cut]), and for each of the
 * others in input order calls its pass context's provider and requests
 * the pipeline asynchronously (%PSC_MISS_POLICY_SKIP), the create info
 * canonicalized before the provider's next call. A provider that fails, a
 * create info or recipe the cache refuses, a compile that fails
 * (%PSC_ERROR_VULKAN) and a request discarded before it was Ready
 * (%PSC_ERROR_DISCARDED: a hot reload replaced one of its shaders, or the
 * cache closed) are reported for their request
 * ([method@Psc.MaterialPrewarm.get_failure_error]),
 * and the rest goes on. The requests become Ready as the application
 * pumps [method@Psc.Cache.begin_frame]
 * ([method@Psc.MaterialPrewarm.get_n_ready]).
 *
 * Fails with %PSC_ERROR_INVALID_ARGUMENT if already run, and with the
 * cache's error if it is closed or this is not its owner thread (the
 * requests made before stay made).
 *
 * Returns: %TRUE if the run went through
 *
 * Since: 0.3
 */
gboolean
psc_material_prewarm_run (PscMaterialPrewarm  *self,
                          GError             **error)
{
  g_autoptr(PscCache) cache = NULL;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->ran)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "prewarm: already run");
      return FALSE;
    }
  cache = g_weak_ref_get (&self->cache);
  if (cache == NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_CLOSED,
                   "prewarm: the cache was finalized");
      return FALSE;
    }
  if (!psc_cache_check_owner (cache, error))
    return FALSE;
  self->ran = TRUE;
  deduplicate (self);
  n = MIN (self->entries->len, self->budget);
  self->n_cut = self->entries->len - n;
  for (guint i = 0; i < n; i++)
    if (!request_entry (self, cache, i, error))
      return FALSE;
  return TRUE;
}

/**
 * psc_material_prewarm_get_n_added:
 * @self: a prewarm
 *
 * How many requests were added.
 *
 * Returns: how many requests were added
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_added (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_added;
}

/**
 * psc_material_prewarm_get_n_deduplicated:
 * @self: a prewarm
 *
 * How many added requests were duplicates.
 *
 * Returns: how many added requests the run collapsed into an earlier
 *   identical one (0 before the run)
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_deduplicated (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->ran ? self->n_added - self->entries->len : 0;
}

/**
 * psc_material_prewarm_get_n_requested:
 * @self: a prewarm
 *
 * How many requests the run made.
 *
 * Returns: how many unique requests the run made within the budget
 *   (providers called), failed ones included
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_requested (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_requested;
}

/**
 * psc_material_prewarm_get_n_cut:
 * @self: a prewarm
 *
 * How many requests the budget cut.
 *
 * Returns: how many unique requests the budget cut (not requested)
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_cut (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_cut;
}

/**
 * psc_material_prewarm_get_cut_entry:
 * @self: a prewarm
 * @i: which cut request: less than min (get_n_cut(),
 *   %PSC_MATERIAL_PREWARM_MAX_CUT_ENTRIES)
 *
 * The @i-th request the budget cut, in input order, as an entry index
 * ([method@Psc.MaterialPrewarm.get_entry]).
 *
 * Returns: the entry index
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_cut_entry (PscMaterialPrewarm *self,
                                    guint               i)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (i < MIN (self->n_cut, PSC_MATERIAL_PREWARM_MAX_CUT_ENTRIES), 0);
  return self->entries->len - self->n_cut + i;
}

/**
 * psc_material_prewarm_get_n_failed:
 * @self: a prewarm
 *
 * How many requests failed.
 *
 * Returns: how many requests failed so far: providers with no pipeline,
 *   create infos or recipes the cache refused, compiles that failed
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_failed (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->failures->len;
}

/**
 * psc_material_prewarm_get_failure_entry:
 * @self: a prewarm
 * @i: which failure, less than [method@Psc.MaterialPrewarm.get_n_failed]
 *
 * Which request failed.
 *
 * Returns: the entry index of the @i-th failure, in the order they
 *   happened
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_failure_entry (PscMaterialPrewarm *self,
                                        guint               i)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (i < self->failures->len, 0);
  return g_array_index (self->failures, guint, i);
}

/**
 * psc_material_prewarm_get_failure_error:
 * @self: a prewarm
 * @i: which failure, less than [method@Psc.MaterialPrewarm.get_n_failed]
 *
 * Why a request failed.
 *
 * Returns: (transfer none): why the @i-th failure failed
 *
 * Since: 0.3
 */
const GError *
psc_material_prewarm_get_failure_error (PscMaterialPrewarm *self,
                                        guint               i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->failures->len, NULL);
  return g_array_index (self->entries, Entry, g_array_index (self->failures, guint, i)).error;
}

/**
 * psc_material_prewarm_get_n_ready:
 * @self: a prewarm
 *
 * How many requested pipelines are Ready.
 *
 * Returns: how many requested pipelines are Ready: at the request, or
 *   since their completion ran in [method@Psc.Cache.begin_frame]
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_ready (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_ready;
}

/**
 * psc_material_prewarm_get_n_pending:
 * @self: a prewarm
 *
 * How many requested pipelines are still pending.
 *
 * Returns: how many requested pipelines are still compiling or waiting
 *   for [method@Psc.Cache.begin_frame] to publish them
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_pending (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_pending;
}

/**
 * psc_material_prewarm_get_n_entries:
 * @self: a prewarm
 *
 * How many entries the prewarm holds.
 *
 * Returns: the added requests before the run; the unique ones after it
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_n_entries (PscMaterialPrewarm *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->entries->len;
}

/**
 * psc_material_prewarm_get_entry:
 * @self: a prewarm
 * @i: an entry index, less than [method@Psc.MaterialPrewarm.get_n_entries]
 * @out_key: (out caller-allocates): the entry's variant key
 *
 * One request: after the run, the unique requests in input order (the
 * first of each set of duplicates).
 *
 * Returns: the index of the add that made it (0 for the first add)
 *
 * Since: 0.3
 */
guint
psc_material_prewarm_get_entry (PscMaterialPrewarm  *self,
                                guint                i,
                                PscShaderVariantKey *out_key)
{
  Entry *e;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (i < self->entries->len, 0);
  g_return_val_if_fail (out_key != NULL, 0);

  e = &g_array_index (self->entries, Entry, i);
  *out_key = e->key;
  return e->added_index;
}
