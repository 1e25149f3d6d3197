/* psc-cache-recipe-export.c: PscCache's recipes of what it made: the
 * recipe of a pipeline it issued (psc_cache_get_recipe_for_pipeline) and
 * the recipes a recipes log records (psc_cache_get_recipes_for_log, what
 * `psocache-tool export` writes).
 *
 * A pipeline's canonical key is read back into its create info, and the
 * objects it names into theirs (core/readback.h); psc-recipe-import.c
 * turns them into a recipe through the recipe's setters. Then the recipe
 * is checked: built through a maker that only finds objects (a shader by
 * its SPIR-V, every other object by its key; nothing is made, registered
 * or counted) and encoded by the cache's own encoder, it must give the
 * pipeline's key byte for byte, so that psc_cache_get_pipeline_for_recipe
 * returns that pipeline and creates nothing. A pipeline whose create info
 * has no such recipe (a state a recipe cannot say) is
 * PSC_ERROR_UNSUPPORTED.
 *
 * A log's pipeline records are resolved as prewarm and the warm probe
 * resolve them (core/recipes.h), against the log's own shaders: every
 * shader record is registered for the call and released after.
 *
 * Every method here is row (a) of the threads table: owner thread, GError.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-build.h"
#include "psc-recipe-import.h"
#include "core/readback.h"
#include "core/recipes.h"
#include "core/vkobjects.h"
#include "core/formats/record-log.h"

#include <string.h>

/* @error from a core failure, named @path (the Vulkan field that holds the
 * handle) instead of the core's own path. */
static void
fail_at (GError **error, const PscCoreError *e, const char *path)
{
  const char *detail = e->message;
  const gsize n = strlen (e->path);

  if (n > 0 && strncmp (detail, e->path, n) == 0 && strncmp (detail + n, ": ", 2) == 0)
    detail += n + 2;
  g_set_error (error, PSC_ERROR, e->status >= 0 && e->status < PSC_STATUS_COUNT ? (gint) e->status
                                                                              : PSC_ERROR_FAILED,
               "%s: %s", path, detail);
}

/* ---------------------------------------------------------------------------
 * Look-ups over the core (psc-recipe-import.h): one read-back per kind.
 */

typedef struct {
  PscCache *cache;
  PscReadback slot[PSC_KIND_COUNT];
} CoreLookup;

static void
core_lookup_clear (CoreLookup *l)
{
  for (guint i = 0; i < G_N_ELEMENTS (l->slot); i++)
    psc_readback_clear (&l->slot[i]);
}

static const void *
read_object (CoreLookup *l, PscKind kind, guint64 handle, const char *path, GError **error)
{
  PscCoreError err;
  PscStatus st;

  PSC_CORE_ERROR_INIT (err);
  psc_readback_clear (&l->slot[kind]);
  st = psc_core_read_object (l->cache->core, kind, handle, &l->slot[kind], &err);
  if (st != PSC_STATUS_OK)
    {
      err.status = st;
      fail_at (error, &err, path);
      return NULL;
    }
  return l->slot[kind].ci;
}

static GBytes *
l_shader (gpointer ctx, VkShaderModule module, const char *path, GError **error)
{
  CoreLookup *l = ctx;
  const uint32_t *code;
  size_t size;
  PscCoreError err;
  PscStatus st;

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_read_shader (l->cache->core, module, &code, &size, &err);
  if (st != PSC_STATUS_OK)
    {
      err.status = st;
      fail_at (error, &err, path);
      return NULL;
    }
  return g_bytes_new (code, size);
}

static const VkSamplerCreateInfo *
l_sampler (gpointer ctx, VkSampler sampler, const char *path, GError **error)
{
  return read_object (ctx, PSC_KIND_SAMPLER, (guint64) sampler, path, error);
}

static const VkDescriptorSetLayoutCreateInfo *
l_set_layout (gpointer ctx, VkDescriptorSetLayout layout, const char *path, GError **error)
{
  return read_object (ctx, PSC_KIND_SET_LAYOUT, (guint64) layout, path, error);
}

static const VkPipelineLayoutCreateInfo *
l_pipeline_layout (gpointer ctx, VkPipelineLayout layout, const char *path, GError **error)
{
  return read_object (ctx, PSC_KIND_PIPELINE_LAYOUT, (guint64) layout, path, error);
}

static const VkRenderPassCreateInfo *
l_render_pass (gpointer ctx, VkRenderPass pass, const char *path, GError **error)
{
  return read_object (ctx, PSC_KIND_RENDER_PASS, (guint64) pass, path, error);
}

/* ---------------------------------------------------------------------------
 * The check: the recipe through a maker that only finds.
 */

static gboolean
no_recipe (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
no_recipe (GError **error, const char *fmt, ...)
{
  va_list ap;
  char *detail;

  va_start (ap, fmt);
  detail = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
               "pipeline: its create info has no exact recipe (%s)", detail);
  g_free (detail);
  return FALSE;
}

static gboolean
f_shader (void *ctx, const PscRecipeStage *stage, VkShaderModule *out, GError **error)
{
  PscCache *cache = ctx;
  gsize size;
  guint32 *owned = NULL;
  const guint32 *words = psc_spirv_words (stage->spirv, &size, &owned);

  *out = psc_core_find_shader (cache->core, words, size);
  g_free (owned);
  if (*out == VK_NULL_HANDLE)
    return no_recipe (error, "a stage's SPIR-V is no registered shader");
  return TRUE;
}

static gboolean
find (PscCache *cache, PscKind kind, const void *ci, guint64 *out, GError **error)
{
  PscCoreError err;
  PscStatus st;

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_find_object (cache->core, kind, ci, out, &err);
  if (st != PSC_STATUS_OK)
    return no_recipe (error, "%s", err.message);
  if (*out == 0)
    return no_recipe (error, "its %s would be a new one", psc_kind_name (kind));
  return TRUE;
}

static gboolean
f_sampler (void *ctx, const VkSamplerCreateInfo *ci, VkSampler *out, GError **error)
{
  guint64 h;
  gboolean ok = find (ctx, PSC_KIND_SAMPLER, ci, &h, error);
  *out = (VkSampler) (guintptr) h;
  return ok;
}

static gboolean
f_set_layout (void *ctx, const VkDescriptorSetLayoutCreateInfo *ci, VkDescriptorSetLayout *out,
              GError **error)
{
  guint64 h;
  gboolean ok = find (ctx, PSC_KIND_SET_LAYOUT, ci, &h, error);
  *out = (VkDescriptorSetLayout) (guintptr) h;
  return ok;
}

static gboolean
f_pipeline_layout (void *ctx, const VkPipelineLayoutCreateInfo *ci, VkPipelineLayout *out,
                   GError **error)
{
  guint64 h;
  gboolean ok = find (ctx, PSC_KIND_PIPELINE_LAYOUT, ci, &h, error);
  *out = (VkPipelineLayout) (guintptr) h;
  return ok;
}

static gboolean
f_render_pass (void *ctx, const VkRenderPassCreateInfo *ci, VkRenderPass *out, GError **error)
{
  guint64 h;
  gboolean ok = find (ctx, PSC_KIND_RENDER_PASS, ci, &h, error);
  *out = (VkRenderPass) (guintptr) h;
  return ok;
}

/* Whether @recipe gives exactly the key @key in @self. */
static gboolean
check_recipe (PscCache *self, PscRecipe *recipe, const guint8 *key, gsize len, GError **error)
{
  const PscRecipeMaker maker = { self, f_shader, f_sampler, f_set_layout, f_pipeline_layout,
                                 f_render_pass };
  g_autofree guint8 *mine = g_malloc (PSC_MAX_KEY_BYTES);
  const gboolean graphics = psc_recipe_get_kind (recipe) == PSC_RECIPE_KIND_GRAPHICS;
  GError *e = NULL;
  PscRecipeBuild *b;
  PscCoreError err;
  PscStatus st;
  size_t mine_len = 0;

  b = psc_recipe_build (recipe, &maker, PSC_RECIPE_BUILD_PIPELINE, &e);
  if (b == NULL)
    {
      if (e->domain == PSC_ERROR && e->code == PSC_ERROR_UNSUPPORTED)
        g_propagate_error (error, e);
      else
        {
          no_recipe (error, "%s", e->message);
          g_error_free (e);
        }
      return FALSE;
    }
  PSC_CORE_ERROR_INIT (err);
  st = psc_core_pipeline_key_of (self->core, graphics ? PSC_KIND_GRAPHICS : PSC_KIND_COMPUTE,
                                 graphics ? (const void *) psc_recipe_build_graphics (b)
                                          : (const void *) psc_recipe_build_compute (b),
                                 mine, &mine_len, &err);
  psc_recipe_build_free (b);
  if (st != PSC_STATUS_OK)
    return no_recipe (error, "%s", err.message);
  if (mine_len != len || memcmp (mine, key, len) != 0)
    {
      gsize at = 0;
      while (at < len && at < mine_len && mine[at] == key[at])
        at++;
      return no_recipe (error, "the recipe's key differs from byte %" G_GSIZE_FORMAT, at);
    }
  return TRUE;
}

/* The recipe of a create info read back in @self, checked against @key. */
static PscRecipe *
recipe_of (PscCache *self, PscKind kind, const void *ci, const guint8 *key, gsize len,
           GError **error)
{
  CoreLookup l = { self, { { 0 } } };
  const PscRecipeLookup lookup = { &l, l_shader, l_sampler, l_set_layout, l_pipeline_layout,
                                   l_render_pass };
  g_autoptr(PscRecipe) recipe = NULL;

  recipe = kind == PSC_KIND_GRAPHICS ? psc_recipe_import_graphics (ci, &lookup, error)
                                     : psc_recipe_import_compute (ci, &lookup, error);
  core_lookup_clear (&l);
  if (recipe == NULL || !check_recipe (self, recipe, key, len, error))
    return NULL;
  return g_steal_pointer (&recipe);
}

/**
 * psc_cache_get_recipe_for_pipeline:
 * @self: a cache
 * @pipeline: a `VkPipeline` handle as an integer: a Ready graphics or
 *   compute pipeline the cache returned
 * @error: return location for a #GError
 *
 * Gets the recipe of a pipeline the cache made: its stages (the SPIR-V of
 * each shader module, entry point, specialization constants), its layout
 * (set layouts with their immutable samplers, push-constant ranges), its
 * fixed-function state and what it renders to, read back from the
 * pipeline's canonical key (the cache keeps no create info). So the recipe
 * describes the pipeline as the cache keys it: state Vulkan ignores is
 * normalized (see the architecture notes), and
 * [method@Psc.Cache.get_pipeline_for_recipe] with it returns @pipeline
 * itself, creating nothing (the recipe is checked for that before it is
 * returned). [method@Psc.Recipe.to_json] gives its JSON form.
 *
 * Specialization values come back as unsigned integers of their bytes
 * (set with [method@Psc.Recipe.set_specialization_uint]): a key keeps a
 * value's bytes, not its type, so a boolean, a signed integer or a float
 * comes back as the unsigned integer with the same bytes (the same
 * pipeline: recipes with the same bytes are equal).
 *
 * Errors: %PSC_ERROR_FOREIGN_HANDLE when @pipeline is not a Ready pipeline
 * of this cache (0, another cache's, one that is still compiling, failed
 * or retired) or a shader it uses was released (register the same SPIR-V
 * again); %PSC_ERROR_INVALID_ARGUMENT when a shader it uses was
 * hot-reloaded since it was made (the cache no longer has the code it was
 * made from: ask for the new generation's pipeline);
 * %PSC_ERROR_UNSUPPORTED, naming the Vulkan field, when its create info
 * has no exact recipe: stage, attachment, subpass or render-pass flags,
 * preserve attachments, a multiview render pass, specialization entries
 * for constants the shader does not declare, static viewports or scissors
 * (rasterizer discard), or, on the legacy backend, a %NULL
 * `pDepthStencilState` or `pColorBlendState` (a recipe always describes
 * them); %PSC_ERROR_UNSUPPORTED in a cache in pass-through mode.
 *
 * Returns: (transfer full): the pipeline's recipe, or %NULL with @error
 *   set
 *
 * Since: 0.3
 */
PscRecipe *
psc_cache_get_recipe_for_pipeline (PscCache  *self,
                                   guint64    pipeline,
                                   GError   **error)
{
  PscReadback rb;
  PscCoreError err;
  PscStatus st;
  PscKind kind;
  const uint8_t *key = NULL;
  size_t len = 0;
  PscRecipe *recipe;

  PSC_CACHE_CHECK (self, error, NULL);

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_read_pipeline (self->core, (VkPipeline) (guintptr) pipeline, &rb, &err);
  if (st != PSC_STATUS_OK)
    {
      psc_cache_fail (error, st, &err);
      return NULL;
    }
  if (!psc_core_pipeline_key (self->core, (VkPipeline) (guintptr) pipeline, &kind, &key, &len))
    {
      psc_readback_clear (&rb);
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_FAILED, "pipeline: its key was lost");
      return NULL;
    }
  recipe = recipe_of (self, rb.kind, rb.ci, key, len, error);
  psc_readback_clear (&rb);
  return recipe;
}

/* ---------------------------------------------------------------------------
 * A recipes log.
 */

/* Registers every shader record of @book; the modules to release. */
static GArray *
register_shaders (PscCore *core, const PscRecipeBook *book)
{
  GArray *modules = g_array_new (FALSE, FALSE, sizeof (VkShaderModule));

  for (guint32 i = 0; i < book->count; i++)
    {
      const PscRecipeRecord *rec = &book->records[i];
      VkShaderModule m = VK_NULL_HANDLE;
      uint32_t id = 0;
      PscCoreError err;

      PSC_CORE_ERROR_INIT (err);
      /* The key is the SPIR-V, 8-aligned in the book's copy of the payload. */
      if (rec->type == PSC_RECIPE_RECORD_OBJECT && rec->kind == PSC_RECIPE_SHADER &&
          psc_core_register_shader (core, (const uint32_t *) (const void *) rec->key, rec->key_len,
                                    &m, &id, &err) == PSC_STATUS_OK)
        g_array_append_val (modules, m);
    }
  return modules;
}

static void
release_shaders (PscCore *core, GArray *modules)
{
  for (guint i = 0; i < modules->len; i++)
    {
      PscCoreError err;
      PSC_CORE_ERROR_INIT (err);
      psc_core_release_shader (core, g_array_index (modules, VkShaderModule, i), &err);
    }
  g_array_unref (modules);
}

/* One pipeline record: FALSE with @error for a failure of the call; else
 * *go_on says what the callback said. */
static gboolean
export_record (PscCache *self, const PscRecipeBook *book, guint64 hash, PscRecipeLogFunc func,
               gpointer user_data, gboolean *go_on, GError **error)
{
  PscRecipeResolved res;
  PscCoreError err;
  PscStatus st;
  g_autoptr(PscRecipe) recipe = NULL;
  g_autoptr(GError) why = NULL;
  g_autofree guint8 *key = NULL;
  size_t len = 0;

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_resolve_recipe (self->core, book, hash, &res, &err);
  if (st == PSC_STATUS_INVALID_DATA)
    {
      *go_on = func (hash, NULL, psc_recipe_stale_name (res.stale), err.message, user_data);
      psc_recipe_resolved_clear (&res);
      return TRUE;
    }
  if (st != PSC_STATUS_OK)
    {
      psc_recipe_resolved_clear (&res);
      psc_cache_fail (error, st, &err);
      return FALSE;
    }
  key = g_malloc (PSC_MAX_KEY_BYTES);
  st = psc_core_pipeline_key_of (self->core, res.kind,
                                 res.kind == PSC_KIND_GRAPHICS ? (const void *) res.graphics
                                                               : (const void *) res.compute,
                                 key, &len, &err);
  if (st == PSC_STATUS_OK)
    recipe = recipe_of (self, res.kind,
                        res.kind == PSC_KIND_GRAPHICS ? (const void *) res.graphics
                                                      : (const void *) res.compute,
                        key, len, &why);
  else
    psc_cache_fail (&why, st, &err);
  psc_recipe_resolved_clear (&res);
  if (recipe != NULL)
    *go_on = func (hash, recipe, NULL, NULL, user_data);
  else
    *go_on = func (hash, NULL, "no-recipe", why->message, user_data);
  return TRUE;
}

/**
 * PscRecipeLogFunc:
 * @recipe_hash: the pipeline record's recipe hash (its name in the log)
 * @recipe: (nullable): the record's recipe, or %NULL when it has none
 * @reason: (nullable): %NULL with a recipe; otherwise why there is none,
 *   a stable name: `shader-not-registered` (a shader record of the log
 *   that this cache refused), `missing-record` (the log lacks a record the
 *   recipe references), `undecodable` (a damaged or forged record),
 *   `rejected` (this cache refuses the pipeline: another backend, another
 *   device's limits or another library's key format), or `no-recipe` (it
 *   resolved, but has no exact recipe: see
 *   [method@Psc.Cache.get_recipe_for_pipeline])
 * @message: (nullable): %NULL with a recipe; otherwise the details, for
 *   people
 * @user_data: the data given to [method@Psc.Cache.get_recipes_for_log]
 *
 * Receives the recipes of a recipes log, one pipeline record at a time,
 * from [method@Psc.Cache.get_recipes_for_log].
 *
 * Returns: %TRUE to go on with the next record, %FALSE to stop
 *
 * Since: 0.3
 */

/**
 * psc_cache_get_recipes_for_log:
 * @self: a cache
 * @log: the bytes of a recipes log (the `recipes.psclog` file of a cache
 *   directory, see the persistence notes)
 * @func: (scope call) (closure user_data): called for each pipeline record
 * @user_data: data for @func
 * @error: return location for a #GError
 *
 * Gets the recipes a recipes log records, as [class@Psc.Recipe]s: what
 * `psocache-tool export` writes. The log is validated as the cache
 * validates its own file (damaged records and a torn tail are skipped;
 * at most 4,096 records and the cache's `recipe-bytes` of them are read),
 * then every shader record is registered in @self for the call (and
 * released after) and each pipeline record, in the log's order, resolved
 * against @self as prewarm resolves it: its samplers, layouts and render
 * pass are made or found with the cache's get-or-create (they stay in the
 * cache), no pipeline is created. @func receives each record's recipe
 * (the one [method@Psc.Cache.get_recipe_for_pipeline] gives for that
 * pipeline), or why it has none.
 *
 * A record names the backend it was made on: a log of a legacy-backend
 * cache resolves in a cache on the legacy backend (elsewhere its graphics
 * records are `rejected`).
 *
 * Errors: %PSC_ERROR_INVALID_DATA when @log is not a recipes log (its
 * header's reason: `empty`, `truncated`, `bad-magic`, `format-version`,
 * `bad-header`, `checksum`, `platform`); %PSC_ERROR_UNSUPPORTED in a cache
 * in pass-through mode; failures of the cache itself (%PSC_ERROR_VULKAN,
 * %PSC_ERROR_WRONG_THREAD, %PSC_ERROR_CLOSED), which stop the call. Records
 * without a recipe are no error of the call.
 *
 * Returns: %TRUE once every record was given to @func (or @func stopped),
 *   %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_cache_get_recipes_for_log (PscCache          *self,
                               GBytes            *log,
                               PscRecipeLogFunc   func,
                               gpointer           user_data,
                               GError           **error)
{
  PscRecipeBook book;
  PscLogReader reader;
  PscLogRecord rec;
  PscFileReason why;
  PscLogNext next;
  PscCoreError err;
  PscStatus st;
  GArray *modules;
  gboolean ok = TRUE, go_on = TRUE;
  gsize size = 0;
  const guint8 *data;

  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (log != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_check_owner (self->core, &err);
  if (st != PSC_STATUS_OK)
    {
      psc_cache_fail (error, st, &err);
      return FALSE;
    }
  data = g_bytes_get_data (log, &size);
  why = psc_log_reader_init (&reader, data, size, PSC_LOG_KIND_RECIPES, 0);
  if (why != PSC_FILE_OK)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_DATA, "log: %s: %s",
                   psc_file_reason_name (why), psc_file_reason_describe (why));
      return FALSE;
    }
  psc_recipe_book_init (&book);
  book.max_bytes = self->recipe_bytes != 0 ? (size_t) self->recipe_bytes : 0;
  while ((next = psc_log_reader_next (&reader, &rec, &why)) != PSC_LOG_NEXT_END &&
         next != PSC_LOG_NEXT_TORN)
    if (next == PSC_LOG_NEXT_RECORD)
      psc_recipe_book_add (&book, rec.type, rec.payload, rec.len, NULL);

  modules = register_shaders (self->core, &book);
  for (guint32 i = 0; ok && go_on && i < book.count; i++)
    if (book.records[i].type == PSC_RECIPE_RECORD_PIPELINE)
      ok = export_record (self, &book, book.records[i].hash, func, user_data, &go_on, error);
  release_shaders (self->core, modules);
  psc_recipe_book_clear (&book);
  return ok;
}
