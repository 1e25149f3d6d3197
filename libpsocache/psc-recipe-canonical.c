/* psc-recipe-canonical.c: a recipe's canonical form, and the equality,
 * hashing and validation that follow from it.
 *
 * The recipe is built (psc-recipe-build.c) through a maker that runs the
 * cache's own encoders (core/encode-*.c) with a resolver of its own: each
 * distinct object (a shader by its SPIR-V, every other object by its
 * canonical key) gets the next number in the build's canonical order, its
 * handle is a made-up value naming that number, and the resolver maps the
 * made-up handles back to numbers. The canonical form is then
 *
 *   u32 count of shaders, then per shader: u32 length, the SPIR-V
 *   u32 count of samplers, then per sampler: u32 length, its key
 *   u32 count of sampler lists, then per list: u32 count, u32 numbers
 *   the same for set layouts, pipeline layouts and render passes (keys)
 *   u32 length, the pipeline's key
 *
 * A cache numbers objects by its own ids where this numbers them by order;
 * both number equal content equally, so two recipes have the same form
 * exactly when a cache would give them the same key, and the same
 * pipeline.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-build.h"
#include "core/graphics-key.h"

#include <string.h>

enum { CANON_SHADER, CANON_SAMPLER, CANON_SET_LAYOUT, CANON_PIPELINE_LAYOUT, CANON_PASS, CANON_N };

typedef struct {
  GPtrArray *objects[CANON_N];     /* GBytes: SPIR-V or keys, by number - 1 */
  GPtrArray *shader_spec;          /* const PscRecipeStage* of each shader */
  GArray *lists;                   /* guint32 count then ids, back to back */
  guint n_lists;
  PscResolver resolver;
  guint8 key[PSC_MAX_KEY_BYTES];
} Canon;

/* A made-up handle: the kind in the high bits, the number below. */
static guint64
handle_for (guint kind, guint number)
{
  return ((guint64) (kind + 1) << 40) | number;
}

static gboolean
number_of (guint64 handle, guint kind, guint n, guint32 *number)
{
  if ((handle >> 40) != kind + 1 || (handle & 0xFFFFFFFFu) == 0 || (handle & 0xFFFFFFFFu) > n)
    return FALSE;
  *number = (guint32) (handle & 0xFFFFFFFFu);
  return TRUE;
}

/* The number of @content among the objects of @kind, added if new. */
static guint
intern (Canon *c, guint kind, GBytes *content)
{
  GPtrArray *a = c->objects[kind];
  for (guint i = 0; i < a->len; i++)
    if (g_bytes_equal (g_ptr_array_index (a, i), content))
      {
        g_bytes_unref (content);
        return i + 1;
      }
  g_ptr_array_add (a, content);
  return a->len;
}

/* Resolver over the made-up handles. */
static bool
r_shader (void *ctx, VkShaderModule module, PscShaderInfo *info)
{
  Canon *c = ctx;
  guint32 n;
  const PscRecipeStage *st;
  if (!number_of ((guint64) (guintptr) module, CANON_SHADER, c->objects[CANON_SHADER]->len, &n))
    return false;
  st = g_ptr_array_index (c->shader_spec, n - 1);
  *info = (PscShaderInfo) { n, 0, st->declared, st->n_declared };
  return true;
}

#define R_LOOKUP(fn, Type, kind)                                                   \
  static bool fn (void *ctx, Type h, uint32_t *id)                                 \
  {                                                                                \
    Canon *c = ctx;                                                                \
    return number_of ((guint64) (guintptr) h, kind, c->objects[kind]->len, id);    \
  }
R_LOOKUP (r_sampler, VkSampler, CANON_SAMPLER)
R_LOOKUP (r_set_layout, VkDescriptorSetLayout, CANON_SET_LAYOUT)
R_LOOKUP (r_pipeline_layout, VkPipelineLayout, CANON_PIPELINE_LAYOUT)
#undef R_LOOKUP

static GBytes *
pass_key (Canon *c, VkRenderPass pass)
{
  guint32 n;
  if (!number_of ((guint64) (guintptr) pass, CANON_PASS, c->objects[CANON_PASS]->len, &n))
    return NULL;
  return g_ptr_array_index (c->objects[CANON_PASS], n - 1);
}

static bool
r_render_pass (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *id,
               uint32_t *subpass_count, uint32_t *samples)
{
  Canon *c = ctx;
  GBytes *key = pass_key (c, pass);
  gsize len;
  const guint8 *data;
  if (key == NULL)
    return false;
  number_of ((guint64) (guintptr) pass, CANON_PASS, c->objects[CANON_PASS]->len, id);
  data = g_bytes_get_data (key, &len);
  *subpass_count = 0;
  *samples = 0;
  if (!psc_render_pass_key_subpass_samples (data, len, subpass, subpass_count, samples))
    *samples = 0;
  return true;
}

static bool
r_render_pass_colors (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *color_count)
{
  GBytes *key = pass_key (ctx, pass);
  gsize len;
  const guint8 *data;
  if (key == NULL)
    return false;
  data = g_bytes_get_data (key, &len);
  return psc_render_pass_key_subpass_colors (data, len, subpass, color_count);
}

static PscStatus
r_sampler_list (void *ctx, const uint32_t *ids, uint32_t count, uint32_t *list_id,
                PscCoreError *err)
{
  Canon *c = ctx;
  guint pos = 0;
  (void) err;
  for (guint n = 1; n <= c->n_lists; n++)
    {
      guint32 len = g_array_index (c->lists, guint32, pos);
      if (len == count && memcmp (&g_array_index (c->lists, guint32, pos + 1), ids,
                                  count * sizeof (guint32)) == 0)
        {
          *list_id = n;
          return PSC_STATUS_OK;
        }
      pos += 1 + len;
    }
  g_array_append_val (c->lists, count);
  g_array_append_vals (c->lists, ids, count);
  *list_id = ++c->n_lists;
  return PSC_STATUS_OK;
}

/* Encoders never decode here: the reverse direction names nothing. */
static VkShaderModule r_no_shader (void *c, uint32_t id) { (void) c; (void) id; return VK_NULL_HANDLE; }
static VkSampler r_no_sampler (void *c, uint32_t id) { (void) c; (void) id; return VK_NULL_HANDLE; }
static uint32_t r_no_list (void *c, uint32_t id, uint32_t *ids) { (void) c; (void) id; (void) ids; return 0; }
static VkDescriptorSetLayout r_no_set (void *c, uint32_t id) { (void) c; (void) id; return VK_NULL_HANDLE; }
static VkPipelineLayout r_no_layout (void *c, uint32_t id) { (void) c; (void) id; return VK_NULL_HANDLE; }
static VkRenderPass r_no_pass (void *c, uint32_t id) { (void) c; (void) id; return VK_NULL_HANDLE; }

/* An encoder's failure, for the recipe's caller: the Vulkan create-info
 * path the encoder names, after "recipe". */
static gboolean
encode_failed (GError **error, PscStatus status, const PscCoreError *core_error, const char *what)
{
  int code = status >= 0 && status < PSC_STATUS_COUNT ? (int) status : PSC_ERROR_FAILED;
  g_set_error (error, PSC_ERROR, code, "%s (as Vulkan create info): %s", what,
               core_error->message[0] ? core_error->message : core_error->path);
  return FALSE;
}

/* Encodes with @fn into c->key and interns the key as @kind. */
#define CANON_ENCODE(c, kind, call, what, out, Type)                                   \
  G_STMT_START {                                                                       \
    PscKeyWriter w = { (c)->key, 0, PSC_MAX_KEY_BYTES };                               \
    PscCoreError core_error;                                                           \
    PscStatus st;                                                                      \
    memset (&core_error, 0, sizeof core_error);                                        \
    st = (call);                                                                       \
    if (st != PSC_STATUS_OK)                                                           \
      return encode_failed (error, st, &core_error, (what));                           \
    *(out) = (Type) (guintptr) handle_for ((kind),                                     \
               intern ((c), (kind), g_bytes_new ((c)->key, w.len)));                   \
    return TRUE;                                                                       \
  } G_STMT_END

static gboolean
m_shader (void *ctx, const PscRecipeStage *stage, VkShaderModule *out, GError **error)
{
  Canon *c = ctx;
  guint before = c->objects[CANON_SHADER]->len, n;
  (void) error;
  n = intern (c, CANON_SHADER, g_bytes_ref (stage->spirv));
  if (n > before)
    g_ptr_array_add (c->shader_spec, (gpointer) stage);
  *out = (VkShaderModule) (guintptr) handle_for (CANON_SHADER, n);
  return TRUE;
}

static gboolean
m_sampler (void *ctx, const VkSamplerCreateInfo *ci, VkSampler *out, GError **error)
{
  Canon *c = ctx;
  CANON_ENCODE (c, CANON_SAMPLER, psc_encode_sampler (ci, &w, &core_error),
                "layout: an immutable sampler", out, VkSampler);
}

static gboolean
m_set_layout (void *ctx, const VkDescriptorSetLayoutCreateInfo *ci, VkDescriptorSetLayout *out,
              GError **error)
{
  Canon *c = ctx;
  CANON_ENCODE (c, CANON_SET_LAYOUT, psc_encode_set_layout (ci, &c->resolver, &w, &core_error),
                "layout: a descriptor-set layout", out, VkDescriptorSetLayout);
}

static gboolean
m_pipeline_layout (void *ctx, const VkPipelineLayoutCreateInfo *ci, VkPipelineLayout *out,
                   GError **error)
{
  Canon *c = ctx;
  CANON_ENCODE (c, CANON_PIPELINE_LAYOUT,
                psc_encode_pipeline_layout (ci, &c->resolver, &w, &core_error),
                "layout", out, VkPipelineLayout);
}

static gboolean
m_render_pass (void *ctx, const VkRenderPassCreateInfo *ci, VkRenderPass *out, GError **error)
{
  Canon *c = ctx;
  CANON_ENCODE (c, CANON_PASS, psc_encode_render_pass (ci, &w, &core_error),
                "render_pass", out, VkRenderPass);
}

static void
canon_init (Canon *c)
{
  for (guint k = 0; k < CANON_N; k++)
    c->objects[k] = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  c->shader_spec = g_ptr_array_new ();
  c->lists = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->n_lists = 0;
  c->resolver = (PscResolver) {
    .ctx = c,
    .shader = r_shader,
    .sampler = r_sampler,
    .set_layout = r_set_layout,
    .pipeline_layout = r_pipeline_layout,
    .render_pass = r_render_pass,
    .sampler_list = r_sampler_list,
    .render_pass_colors = r_render_pass_colors,
    .shader_handle = r_no_shader,
    .sampler_handle = r_no_sampler,
    .sampler_list_ids = r_no_list,
    .set_layout_handle = r_no_set,
    .pipeline_layout_handle = r_no_layout,
    .render_pass_handle = r_no_pass,
  };
}

static void
canon_clear (Canon *c)
{
  for (guint k = 0; k < CANON_N; k++)
    g_ptr_array_unref (c->objects[k]);
  g_ptr_array_unref (c->shader_spec);
  g_array_unref (c->lists);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  g_byte_array_append (out, (const guint8 *) &v, sizeof v);
}

static void
put_objects (GByteArray *out, GPtrArray *objects)
{
  put_u32 (out, objects->len);
  for (guint i = 0; i < objects->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (objects, i), &len);
      put_u32 (out, (guint32) len);
      g_byte_array_append (out, data, (guint) len);
    }
}

static GBytes *
canon_form (Canon *c, const guint8 *key, gsize key_len)
{
  GByteArray *out = g_byte_array_new ();

  put_objects (out, c->objects[CANON_SHADER]);
  put_objects (out, c->objects[CANON_SAMPLER]);
  put_u32 (out, c->n_lists);
  g_byte_array_append (out, (const guint8 *) c->lists->data, c->lists->len * sizeof (guint32));
  put_objects (out, c->objects[CANON_SET_LAYOUT]);
  put_objects (out, c->objects[CANON_PIPELINE_LAYOUT]);
  put_objects (out, c->objects[CANON_PASS]);
  put_u32 (out, (guint32) key_len);
  g_byte_array_append (out, key, (guint) key_len);
  return g_byte_array_free_to_bytes (out);
}

static GBytes *
canonical_of (PscRecipe *recipe, GError **error)
{
  static const PscRecipeMaker maker_fns = {
    NULL, m_shader, m_sampler, m_set_layout, m_pipeline_layout, m_render_pass,
  };
  PscRecipeMaker maker = maker_fns;
  Canon *c = g_new (Canon, 1);
  PscRecipeBuild *b;
  PscKeyWriter w;
  PscCoreError core_error;
  PscStatus st;
  GBytes *form = NULL;

  canon_init (c);
  maker.ctx = c;
  b = psc_recipe_build (recipe, &maker, PSC_RECIPE_BUILD_PIPELINE, error);
  if (b == NULL)
    goto out;
  w = (PscKeyWriter) { c->key, 0, PSC_MAX_KEY_BYTES };
  memset (&core_error, 0, sizeof core_error);
  if (recipe->kind == PSC_RECIPE_KIND_GRAPHICS)
    st = psc_encode_graphics (psc_recipe_build_graphics (b),
                              psc_recipe_get_uses_render_pass (recipe) ? PSC_RENDERING_LEGACY
                                                                       : PSC_RENDERING_DYNAMIC,
                              &c->resolver, &w, &core_error);
  else
    st = psc_encode_compute (psc_recipe_build_compute (b), &c->resolver, &w, &core_error);
  if (st != PSC_STATUS_OK)
    encode_failed (error, st, &core_error, "the pipeline");
  else
    form = canon_form (c, c->key, w.len);
  psc_recipe_build_free (b);
out:
  canon_clear (c);
  g_free (c);
  return form;
}

GBytes *
psc_recipe_canonical (PscRecipe *recipe, GError **error)
{
  if (recipe->canonical == NULL)
    recipe->canonical = canonical_of (recipe, error);
  return recipe->canonical;
}

/**
 * psc_recipe_validate:
 * @self: a recipe
 * @error: return location for a #GError
 *
 * Checks that the recipe is complete and that a cache would accept it:
 * the whole-recipe rules no setter can check (a graphics recipe has a
 * vertex stage; a binding with immutable samplers has one per descriptor;
 * blend state only for colour attachments the pipeline renders to; the
 * subpass exists; tessellation has its patch size), then everything the
 * cache's encoders check for the equivalent Vulkan create infos (errors of
 * the latter name the Vulkan create-info field, for example
 * `the pipeline (as Vulkan create info): pStages[1].pName: ...`).
 *
 * Device features are not checked: a device may still refuse a valid
 * recipe (the cache then fails with %PSC_ERROR_VULKAN).
 *
 * Returns: %TRUE if @self is valid, else %FALSE with @error set
 *
 * Since: 0.3
 */
gboolean
psc_recipe_validate (PscRecipe *self,
                     GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return psc_recipe_canonical (self, error) != NULL;
}

/**
 * psc_recipe_equal:
 * @a: a recipe
 * @b: another recipe
 *
 * Compares two recipes as the cache does: they are equal exactly when a
 * cache would give them the same canonical key, and so the same pipeline
 * (values that do not matter, such as the blend factors of an attachment
 * that does not blend, or the order in which stages or bindings were added,
 * do not count; SPIR-V is compared in full). A recipe that is not valid
 * ([method@Psc.Recipe.validate]) is equal only to itself.
 *
 * Returns: whether @a and @b describe the same pipeline
 *
 * Since: 0.3
 */
gboolean
psc_recipe_equal (PscRecipe *a,
                  PscRecipe *b)
{
  GBytes *x, *y;

  g_return_val_if_fail (PSC_IS_RECIPE (a), FALSE);
  g_return_val_if_fail (PSC_IS_RECIPE (b), FALSE);

  if (a == b)
    return TRUE;
  x = psc_recipe_canonical (a, NULL);
  y = psc_recipe_canonical (b, NULL);
  return x != NULL && y != NULL && g_bytes_equal (x, y);
}

/**
 * psc_recipe_hash:
 * @self: a recipe
 *
 * A hash that agrees with [method@Psc.Recipe.equal] (for #GHashTable
 * with psc_recipe_equal). An invalid recipe hashes to 0. Changing a recipe
 * changes its hash: do not change recipes used as keys.
 *
 * Returns: the hash
 *
 * Since: 0.3
 */
guint
psc_recipe_hash (PscRecipe *self)
{
  GBytes *form;
  gsize len;
  const void *data;
  guint64 h;

  g_return_val_if_fail (PSC_IS_RECIPE (self), 0);

  form = psc_recipe_canonical (self, NULL);
  if (form == NULL)
    return 0;
  data = g_bytes_get_data (form, &len);
  h = psc_key_hash (data, len);
  return (guint) (h ^ (h >> 32));
}
