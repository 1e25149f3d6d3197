/* psc-recipe.c: PscRecipe, construction and setters. Every setter checks
 * its values (the ranges the cache's encoders accept, the fixed
 * capacities of psc-core.h) and fails naming the recipe's field path, the
 * recipe unchanged. Whole-recipe checks, equality and the Vulkan form are
 * in psc-recipe-build.c; the JSON form in psc-recipe-json.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipe-private.h"
#include "core/spirv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/**
 * PscRecipe:
 *
 * A self-contained description of one graphics or compute pipeline and
 * everything it references: its stages (SPIR-V as #GBytes, entry points,
 * specialization constants), its pipeline layout (descriptor-set layouts
 * with immutable samplers as [struct@Psc.SamplerInfo], push-constant
 * ranges), its fixed-function state and what it renders to (dynamic
 * rendering formats, or a legacy execution render pass).
 *
 * A recipe holds values, never Vulkan handles, so it is independent of any
 * device or cache: [method@Psc.Cache.get_pipeline_for_recipe] makes (or
 * finds) the objects it describes in a cache, [method@Psc.Recipe.to_json]
 * and [ctor@Psc.Recipe.new_from_json] give its documented JSON form (the
 * recipe JSON page), and [method@Psc.Recipe.equal] and
 * [method@Psc.Recipe.hash] follow the cache's canonical keys: two recipes
 * are equal exactly when a cache would give them the same pipeline.
 *
 * Recipes are for tools, tests, bindings and prewarming, not for the
 * per-draw path: there, pass Vulkan create infos to the cache directly.
 *
 * Values are Vulkan's numbers (`VkFormat`, `VkBlendFactor`, ...: #guint).
 * Each setter checks its values and fails with a #GError in the
 * %PSC_ERROR domain whose message starts with the field path of the
 * recipe's JSON form (`stages[1].specialization[3]: ...`), leaving the
 * recipe unchanged; what only the whole recipe can tell is checked by
 * [method@Psc.Recipe.validate]. Indices in paths are positions in the
 * recipe, in the order elements were added.
 *
 * A new graphics recipe has Vulkan's usual defaults: triangle lists,
 * one viewport and one scissor (always dynamic: `VK_DYNAMIC_STATE_VIEWPORT`
 * and `VK_DYNAMIC_STATE_SCISSOR` are added when the pipeline is built
 * unless their `_WITH_COUNT` forms were added), fill mode, no culling,
 * counter-clockwise front faces, line width 1, one sample with every
 * sample bit set, no depth, stencil or blending, colour write mask RGBA,
 * and no rendering formats.
 *
 * Recipes are not thread-safe: use one from one thread at a time.
 *
 * Since: 0.3
 */

G_DEFINE_FINAL_TYPE (PscRecipe, psc_recipe, G_TYPE_OBJECT)

gboolean
psc_recipe_fail (GError     **error,
                 PscError     code,
                 const char  *path,
                 const char  *fmt,
                 ...)
{
  va_list ap;
  char *detail;

  if (error == NULL)
    return FALSE;
  va_start (ap, fmt);
  detail = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, PSC_ERROR, code, "%s: %s", path, detail);
  g_free (detail);
  return FALSE;
}

void
psc_recipe_changed (PscRecipe *self)
{
  g_clear_pointer (&self->canonical, g_bytes_unref);
}

static void
stage_clear (PscRecipeStage *st)
{
  g_clear_pointer (&st->spirv, g_bytes_unref);
  g_clear_pointer (&st->entry_point, g_free);
  free (st->declared);
  st->declared = NULL;
}

static void
binding_clear (gpointer data)
{
  PscRecipeBinding *b = data;
  g_clear_pointer (&b->immutable, g_ptr_array_unref);
}

static void
set_clear (gpointer data)
{
  PscRecipeSet *s = data;
  g_clear_pointer (&s->bindings, g_array_unref);
}

static GArray *
new_bindings (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (PscRecipeBinding));
  g_array_set_clear_func (a, binding_clear);
  return a;
}

static void
psc_recipe_finalize (GObject *object)
{
  PscRecipe *self = PSC_RECIPE (object);

  for (guint i = 0; i < self->n_stages; i++)
    stage_clear (&self->stages[i]);
  g_clear_pointer (&self->sets, g_array_unref);
  g_clear_pointer (&self->canonical, g_bytes_unref);
  G_OBJECT_CLASS (psc_recipe_parent_class)->finalize (object);
}

static void
psc_recipe_class_init (PscRecipeClass *klass)
{
  psc_i18n_init ();
  G_OBJECT_CLASS (klass)->finalize = psc_recipe_finalize;
}

static void
psc_recipe_init (PscRecipe *self)
{
  self->sets = g_array_new (FALSE, TRUE, sizeof (PscRecipeSet));
  g_array_set_clear_func (self->sets, set_clear);
  self->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  self->viewport_count = 1;
  self->scissor_count = 1;
  self->polygon_mode = VK_POLYGON_MODE_FILL;
  self->cull_mode = VK_CULL_MODE_NONE;
  self->front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  self->line_width = 1.0f;
  self->samples = VK_SAMPLE_COUNT_1_BIT;
  self->sample_mask = G_MAXUINT64;
  for (guint i = 0; i < G_N_ELEMENTS (self->blend); i++)
    self->blend[i].write_mask = 0xF;
}

/**
 * psc_recipe_new_graphics:
 *
 * Creates an empty graphics recipe with the defaults [class@Psc.Recipe]
 * lists. Add its stages with [method@Psc.Recipe.add_stage].
 *
 * Returns: (transfer full): a new recipe
 *
 * Since: 0.3
 */
PscRecipe *
psc_recipe_new_graphics (void)
{
  PscRecipe *self = g_object_new (PSC_TYPE_RECIPE, NULL);
  self->kind = PSC_RECIPE_KIND_GRAPHICS;
  return self;
}

/**
 * psc_recipe_new_compute:
 *
 * Creates an empty compute recipe. Add its one stage
 * (`VK_SHADER_STAGE_COMPUTE_BIT`) with [method@Psc.Recipe.add_stage].
 *
 * Returns: (transfer full): a new recipe
 *
 * Since: 0.3
 */
PscRecipe *
psc_recipe_new_compute (void)
{
  PscRecipe *self = g_object_new (PSC_TYPE_RECIPE, NULL);
  self->kind = PSC_RECIPE_KIND_COMPUTE;
  return self;
}

/**
 * psc_recipe_copy:
 * @self: a recipe
 *
 * Copies a recipe: the copy changes independently (the SPIR-V bytes and
 * sampler descriptions are shared until then: they are immutable or
 * copied on change).
 *
 * Returns: (transfer full): a new recipe equal to @self
 *
 * Since: 0.3
 */
PscRecipe *
psc_recipe_copy (PscRecipe *self)
{
  PscRecipe *copy;

  g_return_val_if_fail (PSC_IS_RECIPE (self), NULL);

  copy = g_object_new (PSC_TYPE_RECIPE, NULL);
  {
    /* Everything after the GObject header is plain values, except the
     * owned members, fixed up below. */
    GArray *sets = copy->sets;
    memcpy ((char *) copy + sizeof (GObject), (char *) self + sizeof (GObject),
            sizeof (PscRecipe) - sizeof (GObject));
    copy->sets = sets;
  }
  copy->canonical = self->canonical != NULL ? g_bytes_ref (self->canonical) : NULL;
  for (guint i = 0; i < copy->n_stages; i++)
    {
      PscRecipeStage *st = &copy->stages[i];
      st->spirv = g_bytes_ref (st->spirv);
      st->entry_point = g_strdup (st->entry_point);
      st->declared = NULL;
      if (st->n_declared > 0)
        {
          /* stage_clear frees with free(), as spirv.c allocates */
          st->declared = malloc (st->n_declared * sizeof (PscSpecConstant));
          g_assert (st->declared != NULL);
          memcpy (st->declared, self->stages[i].declared, st->n_declared * sizeof (PscSpecConstant));
        }
    }
  for (guint s = 0; s < self->sets->len; s++)
    {
      const PscRecipeSet *from = &g_array_index (self->sets, PscRecipeSet, s);
      PscRecipeSet to = { from->flags, new_bindings () };
      for (guint b = 0; b < from->bindings->len; b++)
        {
          PscRecipeBinding bind = g_array_index (from->bindings, PscRecipeBinding, b);
          GPtrArray *imm = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_sampler_info_unref);
          for (guint k = 0; k < bind.immutable->len; k++)
            g_ptr_array_add (imm, psc_sampler_info_copy (g_ptr_array_index (bind.immutable, k)));
          bind.immutable = imm;
          g_array_append_val (to.bindings, bind);
        }
      g_array_append_val (copy->sets, to);
    }
  return copy;
}

/**
 * psc_recipe_get_kind:
 * @self: a recipe
 *
 * Gets the kind of pipeline the recipe describes (set by its constructor).
 *
 * Returns: whether @self describes a graphics or a compute pipeline
 *
 * Since: 0.3
 */
PscRecipeKind
psc_recipe_get_kind (PscRecipe *self)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), PSC_RECIPE_KIND_GRAPHICS);
  return self->kind;
}

/* A graphics-only setter on a compute recipe. */
static gboolean
require_graphics (PscRecipe *self, const char *path, GError **error)
{
  if (self->kind == PSC_RECIPE_KIND_GRAPHICS)
    return TRUE;
  return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                          "a compute recipe has no graphics state");
}

/* A finite, non-negative float. */
static gboolean
check_float (gfloat v, gboolean negative_ok, const char *path, GError **error)
{
  if (!isfinite (v))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "not a finite number");
  if (!negative_ok && v < 0.0f)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "%g is negative", (double) v);
  return TRUE;
}

static gboolean
check_enum (guint v, guint max, const char *type, const char *path, GError **error)
{
  if (v <= max)
    return TRUE;
  return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "%u is not a supported %s", v, type);
}

static gboolean
check_format (guint format, gboolean undefined_ok, const char *path, GError **error)
{
  uint16_t id;
  if (format == VK_FORMAT_UNDEFINED && undefined_ok)
    return TRUE;
  if (format == VK_FORMAT_UNDEFINED)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "VK_FORMAT_UNDEFINED");
  if (!psc_enum_format ((VkFormat) format, &id))
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "%u is not a supported VkFormat", format);
  return TRUE;
}

static gboolean
check_stage_mask (guint stages, gboolean compute, const char *path, GError **error)
{
  uint32_t m;
  if (stages == 0)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "no stage");
  if (stages == VK_SHADER_STAGE_ALL || stages == VK_SHADER_STAGE_ALL_GRAPHICS)
    return TRUE;
  if (!psc_enum_stage_mask ((VkShaderStageFlags) stages, &m))
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "0x%x has an unsupported stage", stages);
  (void) compute;
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Stages
 */

/**
 * psc_recipe_add_stage:
 * @self: a recipe
 * @stage: one `VkShaderStageFlagBits` bit: vertex, tessellation control or
 *   evaluation, geometry or fragment for a graphics recipe; compute for a
 *   compute recipe
 * @spirv: the stage's SPIR-V (host byte order); it is checked as the
 *   cache checks registered SPIR-V (structure, specialization constants)
 * @entry_point: (nullable): the entry point's name; %NULL for "main"
 * @error: return location for a #GError
 *
 * Adds a shader stage. A stage can be added once; a compute recipe has
 * exactly one. The SPIR-V is kept by reference (#GBytes are immutable).
 *
 * Returns: the stage's index (its position, for
 *   [method@Psc.Recipe.set_specialization_int] and in field paths), or -1
 *   with @error set (nothing changed)
 *
 * Since: 0.3
 */
gint
psc_recipe_add_stage (PscRecipe   *self,
                      guint        stage,
                      GBytes      *spirv,
                      const char  *entry_point,
                      GError     **error)
{
  char path[48];
  guint index;
  uint8_t id;
  gsize size;
  guint32 *owned = NULL;
  const guint32 *words;
  PscSpecConstant *declared = NULL;
  uint32_t n_declared = 0;
  PscCoreError core_error;
  PscStatus st;
  PscRecipeStage *out;

  g_return_val_if_fail (PSC_IS_RECIPE (self), -1);
  g_return_val_if_fail (spirv != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  index = self->n_stages;
  g_snprintf (path, sizeof path, "stages[%u].stage", index);
  if (!psc_enum_stage ((VkShaderStageFlagBits) stage, &id))
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                            "0x%x is not one supported VkShaderStageFlagBits bit", stage), -1;
  if ((self->kind == PSC_RECIPE_KIND_COMPUTE) != (stage == VK_SHADER_STAGE_COMPUTE_BIT))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "a %s recipe has no %s stage",
                            self->kind == PSC_RECIPE_KIND_COMPUTE ? "compute" : "graphics",
                            stage == VK_SHADER_STAGE_COMPUTE_BIT ? "compute" : "graphics"), -1;
  if (index == (self->kind == PSC_RECIPE_KIND_COMPUTE ? 1u : PSC_MAX_GRAPHICS_STAGES))
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "stages", "at most %u stages",
                            self->kind == PSC_RECIPE_KIND_COMPUTE ? 1u : PSC_MAX_GRAPHICS_STAGES), -1;
  for (guint i = 0; i < index; i++)
    if (self->stages[i].stage == stage)
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "the recipe already has this stage (stages[%u])", i), -1;
  if (entry_point == NULL)
    entry_point = "main";
  if (strlen (entry_point) == 0 || strlen (entry_point) > PSC_MAX_ENTRY_NAME ||
      !g_utf8_validate (entry_point, -1, NULL))
    {
      g_snprintf (path, sizeof path, "stages[%u].entry_point", index);
      return psc_recipe_fail (error, strlen (entry_point) > PSC_MAX_ENTRY_NAME ? PSC_ERROR_CAPACITY
                                                                                 : PSC_ERROR_INVALID_ARGUMENT,
                              path, "an entry point name of 1 to %u bytes of UTF-8",
                              PSC_MAX_ENTRY_NAME), -1;
    }

  words = psc_spirv_words (spirv, &size, &owned);
  PSC_CORE_ERROR_INIT (core_error);
  st = psc_spirv_spec_constants (words, size, &declared, &n_declared, &core_error);
  g_free (owned);
  if (st != PSC_STATUS_OK)
    {
      g_snprintf (path, sizeof path, "stages[%u].spirv", index);
      return psc_recipe_fail (error, st == PSC_STATUS_FAILED ? PSC_ERROR_FAILED : PSC_ERROR_INVALID_ARGUMENT,
                              path, "not valid SPIR-V: %s",
                              core_error.message[0] ? core_error.message : core_error.path), -1;
    }

  out = &self->stages[index];
  memset (out, 0, sizeof *out);
  out->stage = stage;
  out->spirv = g_bytes_ref (spirv);
  out->entry_point = g_strdup (entry_point);
  out->declared = declared;
  out->n_declared = n_declared;
  self->n_stages++;
  psc_recipe_changed (self);
  return (gint) index;
}

/**
 * psc_recipe_get_n_stages:
 * @self: a recipe
 *
 * Gets the number of stages added with [method@Psc.Recipe.add_stage].
 *
 * Returns: the number of stages added
 *
 * Since: 0.3
 */
guint
psc_recipe_get_n_stages (PscRecipe *self)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), 0);
  return self->n_stages;
}

/**
 * psc_recipe_get_stage:
 * @self: a recipe
 * @index: a stage index, less than [method@Psc.Recipe.get_n_stages]
 *
 * Gets a stage's `VkShaderStageFlagBits` bit.
 *
 * Returns: the stage's `VkShaderStageFlagBits` bit
 *
 * Since: 0.3
 */
guint
psc_recipe_get_stage (PscRecipe *self,
                      guint      index)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), 0);
  g_return_val_if_fail (index < self->n_stages, 0);
  return self->stages[index].stage;
}

/**
 * psc_recipe_get_stage_spirv:
 * @self: a recipe
 * @index: a stage index
 *
 * Gets a stage's SPIR-V, as given to [method@Psc.Recipe.add_stage].
 *
 * Returns: (transfer none): the stage's SPIR-V
 *
 * Since: 0.3
 */
GBytes *
psc_recipe_get_stage_spirv (PscRecipe *self,
                            guint      index)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), NULL);
  g_return_val_if_fail (index < self->n_stages, NULL);
  return self->stages[index].spirv;
}

/**
 * psc_recipe_get_stage_entry_point:
 * @self: a recipe
 * @index: a stage index
 *
 * Gets a stage's entry point name.
 *
 * Returns: (transfer none): the stage's entry point name
 *
 * Since: 0.3
 */
const char *
psc_recipe_get_stage_entry_point (PscRecipe *self,
                                  guint      index)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), NULL);
  g_return_val_if_fail (index < self->n_stages, NULL);
  return self->stages[index].entry_point;
}

/* Finds (or makes room for) constant_id in a stage: the entry, its path. */
static PscRecipeSpec *
spec_slot (PscRecipe *self, guint stage_index, guint constant_id, guint32 *size,
           char *path, gsize path_size, GError **error)
{
  PscRecipeStage *st;
  guint j;

  if (stage_index >= self->n_stages)
    {
      g_snprintf (path, path_size, "stages[%u]", stage_index);
      psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "the recipe has %u stages",
                       self->n_stages);
      return NULL;
    }
  st = &self->stages[stage_index];
  for (j = 0; j < st->n_spec; j++)
    if (st->spec[j].constant_id == constant_id)
      break;
  g_snprintf (path, path_size, "stages[%u].specialization[%u]", stage_index, j);
  if (j == PSC_MAX_SPEC_CONSTANTS)
    {
      psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u specialization constants per stage",
                       PSC_MAX_SPEC_CONSTANTS);
      return NULL;
    }
  *size = 0;
  for (guint k = 0; k < st->n_declared; k++)
    if (st->declared[k].constant_id == constant_id)
      *size = st->declared[k].size;
  if (*size == 0)
    {
      psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                       "the stage's SPIR-V declares no specialization constant %u", constant_id);
      return NULL;
    }
  return &st->spec[j];
}

static void
spec_store (PscRecipe *self, guint stage_index, PscRecipeSpec *slot, guint constant_id,
            guint32 size, PscRecipeSpecType type, const void *bytes)
{
  PscRecipeStage *st = &self->stages[stage_index];

  if (slot == &st->spec[st->n_spec])
    st->n_spec++;
  slot->constant_id = constant_id;
  slot->size = size;
  slot->type = type;
  memset (slot->bytes, 0, sizeof slot->bytes);
  memcpy (slot->bytes, bytes, size);
  psc_recipe_changed (self);
}

/**
 * psc_recipe_set_specialization_bool:
 * @self: a recipe
 * @stage_index: the stage's index
 * @constant_id: the constant's `SpecId`
 * @value: the value
 * @error: return location for a #GError
 *
 * Sets a boolean specialization constant (a `VkBool32`). The stage's
 * SPIR-V must declare @constant_id with 4 bytes. Like Vulkan, the cache
 * checks a constant's size, not its type: a boolean given to a 32-bit
 * integer constant is its 0 or 1, and a float given to one is its bits.
 * Setting a constant again replaces its value (the JSON form keeps the
 * type it was set with).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_specialization_bool (PscRecipe *self,
                                    guint      stage_index,
                                    guint      constant_id,
                                    gboolean   value,
                                    GError   **error)
{
  char path[64];
  guint32 size;
  PscRecipeSpec *slot;
  guint32 v = value ? VK_TRUE : VK_FALSE;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = spec_slot (self, stage_index, constant_id, &size, path, sizeof path, error);
  if (slot == NULL)
    return FALSE;
  if (size != 4)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "the shader declares constant %u with %u bytes, a boolean has 4",
                            constant_id, size);
  spec_store (self, stage_index, slot, constant_id, size, PSC_RECIPE_SPEC_BOOL, &v);
  slot->value.b = value != FALSE;
  return TRUE;
}

/* Little-endian host assumed by the key encoders as well: the value's low
 * bytes are its first (x86-64, aarch64). */
G_STATIC_ASSERT (G_BYTE_ORDER == G_LITTLE_ENDIAN);

/**
 * psc_recipe_set_specialization_int:
 * @self: a recipe
 * @stage_index: the stage's index
 * @constant_id: the constant's `SpecId`
 * @value: the value
 * @error: return location for a #GError
 *
 * Sets an integer specialization constant; its size (1, 2, 4 or 8 bytes)
 * is the one the stage's SPIR-V declares, and @value must fit it as a
 * signed integer.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_specialization_int (PscRecipe *self,
                                   guint      stage_index,
                                   guint      constant_id,
                                   gint64     value,
                                   GError   **error)
{
  char path[64];
  guint32 size;
  PscRecipeSpec *slot;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = spec_slot (self, stage_index, constant_id, &size, path, sizeof path, error);
  if (slot == NULL)
    return FALSE;
  if (size < 8)
    {
      gint64 lim = (gint64) 1 << (size * 8 - 1);
      if (value < -lim || value >= lim)
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                "%" G_GINT64_FORMAT " does not fit the shader's %u-bit constant %u",
                                value, size * 8, constant_id);
    }
  spec_store (self, stage_index, slot, constant_id, size, PSC_RECIPE_SPEC_INT, &value);
  slot->value.i = value;
  return TRUE;
}

/**
 * psc_recipe_set_specialization_uint:
 * @self: a recipe
 * @stage_index: the stage's index
 * @constant_id: the constant's `SpecId`
 * @value: the value
 * @error: return location for a #GError
 *
 * Sets an unsigned integer specialization constant; its size is the one
 * the stage's SPIR-V declares, and @value must fit it.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_specialization_uint (PscRecipe *self,
                                    guint      stage_index,
                                    guint      constant_id,
                                    guint64    value,
                                    GError   **error)
{
  char path[64];
  guint32 size;
  PscRecipeSpec *slot;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = spec_slot (self, stage_index, constant_id, &size, path, sizeof path, error);
  if (slot == NULL)
    return FALSE;
  if (size < 8 && value >> (size * 8) != 0)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "%" G_GUINT64_FORMAT " does not fit the shader's %u-bit constant %u",
                            value, size * 8, constant_id);
  spec_store (self, stage_index, slot, constant_id, size, PSC_RECIPE_SPEC_UINT, &value);
  slot->value.u = value;
  return TRUE;
}

/**
 * psc_recipe_set_specialization_float:
 * @self: a recipe
 * @stage_index: the stage's index
 * @constant_id: the constant's `SpecId`
 * @value: the value
 * @error: return location for a #GError
 *
 * Sets a floating-point specialization constant: a `float` when the stage's
 * SPIR-V declares 4 bytes, a `double` for 8 (16-bit constants are
 * %PSC_ERROR_UNSUPPORTED). @value must be finite and, for a `float`, in its
 * range.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_specialization_float (PscRecipe *self,
                                     guint      stage_index,
                                     guint      constant_id,
                                     gdouble    value,
                                     GError   **error)
{
  char path[64];
  guint32 size;
  PscRecipeSpec *slot;
  gfloat f = (gfloat) value;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = spec_slot (self, stage_index, constant_id, &size, path, sizeof path, error);
  if (slot == NULL)
    return FALSE;
  if (size != 4 && size != 8)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path,
                            "the shader declares constant %u with %u bytes: only 32- and 64-bit "
                            "floats are supported", constant_id, size);
  if (!isfinite (value) || (size == 4 && !isfinite (f)))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "%g is not a finite %s", value, size == 4 ? "float" : "double");
  spec_store (self, stage_index, slot, constant_id, size, PSC_RECIPE_SPEC_FLOAT,
              size == 4 ? (const void *) &f : (const void *) &value);
  slot->value.f = value;
  return TRUE;
}

/**
 * psc_recipe_set_create_flags:
 * @self: a recipe
 * @flags: `VkPipelineCreateFlags`: the flags that change what is compiled
 *   (`DISABLE_OPTIMIZATION`, `ALLOW_DERIVATIVES`,
 *   `VIEW_INDEX_FROM_DEVICE_INDEX` for graphics,
 *   `DISPATCH_BASE` for compute); others are %PSC_ERROR_UNSUPPORTED
 * @error: return location for a #GError
 *
 * Sets the pipeline's creation flags.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_create_flags (PscRecipe *self,
                             guint      flags,
                             GError   **error)
{
  guint allowed;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  allowed = self->kind == PSC_RECIPE_KIND_GRAPHICS ? PSC_GRAPHICS_CREATE_FLAGS : PSC_COMPUTE_CREATE_FLAGS;
  if ((flags & ~allowed) != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, "flags",
                            "0x%x is not supported in a recipe", flags & ~allowed);
  self->create_flags = flags;
  psc_recipe_changed (self);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Layout
 */

/**
 * psc_recipe_add_set_layout:
 * @self: a recipe
 * @flags: `VkDescriptorSetLayoutCreateFlags` (0, or flags the cache
 *   supports: `UPDATE_AFTER_BIND_POOL`, `PUSH_DESCRIPTOR`)
 * @error: return location for a #GError
 *
 * Adds the next descriptor-set layout of the pipeline layout (set numbers
 * follow the order of addition). Add its bindings with
 * [method@Psc.Recipe.add_set_binding].
 *
 * Returns: the set number, or -1 with @error set (nothing changed)
 *
 * Since: 0.3
 */
gint
psc_recipe_add_set_layout (PscRecipe *self,
                           guint      flags,
                           GError   **error)
{
  char path[48];
  PscRecipeSet set;

  g_return_val_if_fail (PSC_IS_RECIPE (self), -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (self->sets->len == PSC_MAX_SET_LAYOUTS)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "layout.sets", "at most %u sets",
                            PSC_MAX_SET_LAYOUTS), -1;
  g_snprintf (path, sizeof path, "layout.sets[%u].flags", self->sets->len);
  if ((flags & ~(guint) PSC_SET_LAYOUT_CREATE_FLAGS) != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "0x%x is not supported", flags), -1;
  set.flags = flags;
  set.bindings = new_bindings ();
  g_array_append_val (self->sets, set);
  psc_recipe_changed (self);
  return (gint) self->sets->len - 1;
}

/**
 * psc_recipe_get_n_set_layouts:
 * @self: a recipe
 *
 * Gets the number of descriptor-set layouts of the recipe's pipeline
 * layout.
 *
 * Returns: the number of descriptor-set layouts added
 *
 * Since: 0.3
 */
guint
psc_recipe_get_n_set_layouts (PscRecipe *self)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), 0);
  return self->sets->len;
}

/**
 * psc_recipe_add_set_binding:
 * @self: a recipe
 * @set: a set number from [method@Psc.Recipe.add_set_layout]
 * @binding: the binding number (unique in the set)
 * @descriptor_type: a `VkDescriptorType`
 * @count: `descriptorCount`
 * @stages: `VkShaderStageFlags` that access it (not 0)
 * @binding_flags: `VkDescriptorBindingFlags` (descriptor indexing; 0 on
 *   devices without it)
 * @error: return location for a #GError
 *
 * Adds a binding to a descriptor-set layout. For immutable samplers, add
 * @count of them with [method@Psc.Recipe.add_immutable_sampler].
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_set_binding (PscRecipe *self,
                            guint      set,
                            guint      binding,
                            guint      descriptor_type,
                            guint      count,
                            guint      stages,
                            guint      binding_flags,
                            GError   **error)
{
  char path[80];
  PscRecipeSet *s;
  PscRecipeBinding b;
  guint index;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (set >= self->sets->len)
    {
      g_snprintf (path, sizeof path, "layout.sets[%u]", set);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "the recipe has %u sets",
                              self->sets->len);
    }
  s = &g_array_index (self->sets, PscRecipeSet, set);
  index = s->bindings->len;
  if (index == PSC_MAX_SET_BINDINGS)
    {
      g_snprintf (path, sizeof path, "layout.sets[%u].bindings", set);
      return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u bindings",
                              PSC_MAX_SET_BINDINGS);
    }
  for (guint i = 0; i < index; i++)
    if (g_array_index (s->bindings, PscRecipeBinding, i).binding == binding)
      {
        g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].binding", set, index);
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                "binding %u is already bindings[%u]", binding, i);
      }
  g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].type", set, index);
  if (!check_enum (descriptor_type, PSC_ENUM_MAX_DESCRIPTOR_TYPE, "VkDescriptorType", path, error))
    return FALSE;
  g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].stages", set, index);
  if (!check_stage_mask (stages, FALSE, path, error))
    return FALSE;
  g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].flags", set, index);
  if ((binding_flags & ~(guint) PSC_BINDING_FLAGS) != 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "0x%x is not a VkDescriptorBindingFlags",
                            binding_flags);
  b.binding = binding;
  b.descriptor_type = descriptor_type;
  b.count = count;
  b.stages = stages;
  b.binding_flags = binding_flags;
  b.immutable = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_sampler_info_unref);
  g_array_append_val (s->bindings, b);
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_add_immutable_sampler:
 * @self: a recipe
 * @set: a set number
 * @binding: a binding number of that set (a sampler or combined image
 *   sampler binding)
 * @sampler: the next immutable sampler's description (copied)
 * @error: return location for a #GError
 *
 * Appends an immutable sampler to a binding. A binding with immutable
 * samplers has exactly its descriptor count of them
 * ([method@Psc.Recipe.validate] checks it).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_immutable_sampler (PscRecipe      *self,
                                  guint           set,
                                  guint           binding,
                                  PscSamplerInfo *sampler,
                                  GError        **error)
{
  char path[96];
  PscRecipeSet *s;
  PscRecipeBinding *b = NULL;
  guint index = 0;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (sampler != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (set >= self->sets->len)
    {
      g_snprintf (path, sizeof path, "layout.sets[%u]", set);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "the recipe has %u sets",
                              self->sets->len);
    }
  s = &g_array_index (self->sets, PscRecipeSet, set);
  for (index = 0; index < s->bindings->len; index++)
    if (g_array_index (s->bindings, PscRecipeBinding, index).binding == binding)
      {
        b = &g_array_index (s->bindings, PscRecipeBinding, index);
        break;
      }
  if (b == NULL)
    {
      g_snprintf (path, sizeof path, "layout.sets[%u].bindings", set);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path, "no binding %u", binding);
    }
  g_snprintf (path, sizeof path, "layout.sets[%u].bindings[%u].immutable_samplers", set, index);
  if (b->descriptor_type != VK_DESCRIPTOR_TYPE_SAMPLER &&
      b->descriptor_type != VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "only sampler and combined image sampler bindings have immutable samplers");
  if (b->immutable->len == PSC_MAX_IMMUTABLE_SAMPLERS || b->immutable->len >= b->count)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u (the descriptor count, at most %u)",
                            b->count, PSC_MAX_IMMUTABLE_SAMPLERS);
  g_ptr_array_add (b->immutable, psc_sampler_info_copy (sampler));
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_add_push_constant_range:
 * @self: a recipe
 * @stages: `VkShaderStageFlags` (not 0)
 * @offset: byte offset, a multiple of 4
 * @size: byte size, a multiple of 4, not 0
 * @error: return location for a #GError
 *
 * Adds a push-constant range to the pipeline layout (ranges are kept in
 * the order added, as the cache keys them).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_push_constant_range (PscRecipe *self,
                                    guint      stages,
                                    guint      offset,
                                    guint      size,
                                    GError   **error)
{
  char path[64];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_push == PSC_MAX_PUSH_RANGES)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "layout.push_constants", "at most %u ranges",
                            PSC_MAX_PUSH_RANGES);
  g_snprintf (path, sizeof path, "layout.push_constants[%u].stages", self->n_push);
  if (!check_stage_mask (stages, FALSE, path, error))
    return FALSE;
  g_snprintf (path, sizeof path, "layout.push_constants[%u]", self->n_push);
  if (size == 0 || size % 4 != 0 || offset % 4 != 0 || (guint64) offset + size > G_MAXUINT32)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "offset %u and size %u must be multiples of 4 (size not 0)", offset, size);
  self->push[self->n_push++] = (PscRecipePush) { stages, offset, size };
  psc_recipe_changed (self);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Graphics state
 */

/**
 * psc_recipe_add_vertex_binding:
 * @self: a graphics recipe
 * @binding: the binding number (unique)
 * @stride: the stride in bytes
 * @input_rate: a `VkVertexInputRate`
 * @error: return location for a #GError
 *
 * Adds a vertex-input binding.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_vertex_binding (PscRecipe *self,
                               guint      binding,
                               guint      stride,
                               guint      input_rate,
                               GError   **error)
{
  char path[64];
  guint n;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "vertex_input", error))
    return FALSE;
  n = self->n_vertex_bindings;
  if (n == PSC_MAX_VERTEX_BINDINGS)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "vertex_input.bindings", "at most %u bindings",
                            PSC_MAX_VERTEX_BINDINGS);
  g_snprintf (path, sizeof path, "vertex_input.bindings[%u].binding", n);
  if (binding > G_MAXUINT16)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "%u > %u", binding, G_MAXUINT16);
  for (guint i = 0; i < n; i++)
    if (self->vertex_bindings[i].binding == binding)
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "binding %u is already bindings[%u]", binding, i);
  g_snprintf (path, sizeof path, "vertex_input.bindings[%u].input_rate", n);
  if (!check_enum (input_rate, PSC_ENUM_MAX_VERTEX_INPUT_RATE, "VkVertexInputRate", path, error))
    return FALSE;
  self->vertex_bindings[n].binding = binding;
  self->vertex_bindings[n].stride = stride;
  self->vertex_bindings[n].input_rate = input_rate;
  self->n_vertex_bindings++;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_add_vertex_attribute:
 * @self: a graphics recipe
 * @location: the shader location (unique)
 * @binding: a binding added with [method@Psc.Recipe.add_vertex_binding]
 * @format: the attribute's `VkFormat`
 * @offset: byte offset in the binding's element
 * @error: return location for a #GError
 *
 * Adds a vertex attribute.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_vertex_attribute (PscRecipe *self,
                                 guint      location,
                                 guint      binding,
                                 guint      format,
                                 guint      offset,
                                 GError   **error)
{
  char path[64];
  guint n;
  gboolean found = FALSE;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "vertex_input", error))
    return FALSE;
  n = self->n_vertex_attributes;
  if (n == PSC_MAX_VERTEX_ATTRIBUTES)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "vertex_input.attributes",
                            "at most %u attributes", PSC_MAX_VERTEX_ATTRIBUTES);
  g_snprintf (path, sizeof path, "vertex_input.attributes[%u].location", n);
  if (location > 255)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "%u > 255", location);
  for (guint i = 0; i < n; i++)
    if (self->vertex_attributes[i].location == location)
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "location %u is already attributes[%u]", location, i);
  for (guint i = 0; i < self->n_vertex_bindings; i++)
    found |= self->vertex_bindings[i].binding == binding;
  g_snprintf (path, sizeof path, "vertex_input.attributes[%u].binding", n);
  if (!found)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "no vertex binding %u (add it first)", binding);
  g_snprintf (path, sizeof path, "vertex_input.attributes[%u].format", n);
  if (!check_format (format, FALSE, path, error))
    return FALSE;
  self->vertex_attributes[n].location = location;
  self->vertex_attributes[n].binding = binding;
  self->vertex_attributes[n].format = format;
  self->vertex_attributes[n].offset = offset;
  self->n_vertex_attributes++;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_input_assembly:
 * @self: a graphics recipe
 * @topology: a `VkPrimitiveTopology`
 * @primitive_restart: `primitiveRestartEnable`
 * @error: return location for a #GError
 *
 * Sets the input assembly.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_input_assembly (PscRecipe *self,
                               guint      topology,
                               gboolean   primitive_restart,
                               GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "input_assembly", error) ||
      !check_enum (topology, PSC_ENUM_MAX_TOPOLOGY, "VkPrimitiveTopology", "input_assembly.topology", error))
    return FALSE;
  self->topology = topology;
  self->primitive_restart = primitive_restart != FALSE;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_patch_control_points:
 * @self: a graphics recipe
 * @points: `patchControlPoints`, 1 to 32 (used with tessellation stages)
 * @error: return location for a #GError
 *
 * Sets the tessellation state.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_patch_control_points (PscRecipe *self,
                                     guint      points,
                                     GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "tessellation", error))
    return FALSE;
  if (points == 0 || points > 32)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "tessellation.patch_control_points",
                            "%u is not in 1..32", points);
  self->patch_control_points = points;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_viewport_count:
 * @self: a graphics recipe
 * @viewports: the viewport count, 1 to 16 (their contents are dynamic)
 * @scissors: the scissor count, equal to @viewports
 * @error: return location for a #GError
 *
 * Sets the viewport and scissor counts (the cache requires viewports and
 * scissors to be dynamic state: only their counts are part of a pipeline).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_viewport_count (PscRecipe *self,
                               guint      viewports,
                               guint      scissors,
                               GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "viewport", error))
    return FALSE;
  if (viewports == 0 || viewports > PSC_MAX_VIEWPORTS)
    return psc_recipe_fail (error, viewports == 0 ? PSC_ERROR_INVALID_ARGUMENT : PSC_ERROR_CAPACITY,
                            "viewport.viewports", "%u is not in 1..%u", viewports, PSC_MAX_VIEWPORTS);
  if (scissors != viewports)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "viewport.scissors",
                            "%u differs from the viewport count %u", scissors, viewports);
  self->viewport_count = viewports;
  self->scissor_count = scissors;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_rasterization:
 * @self: a graphics recipe
 * @polygon_mode: a `VkPolygonMode`
 * @cull_mode: `VkCullModeFlags`
 * @front_face: a `VkFrontFace`
 * @line_width: the line width (finite, positive)
 * @error: return location for a #GError
 *
 * Sets the rasterization state.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_rasterization (PscRecipe *self,
                              guint      polygon_mode,
                              guint      cull_mode,
                              guint      front_face,
                              gfloat     line_width,
                              GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "rasterization", error) ||
      !check_enum (polygon_mode, PSC_ENUM_MAX_POLYGON_MODE, "VkPolygonMode", "rasterization.polygon_mode", error) ||
      !check_enum (cull_mode, PSC_ENUM_MAX_CULL_MODE, "VkCullModeFlags", "rasterization.cull_mode", error) ||
      !check_enum (front_face, PSC_ENUM_MAX_FRONT_FACE, "VkFrontFace", "rasterization.front_face", error) ||
      !check_float (line_width, FALSE, "rasterization.line_width", error))
    return FALSE;
  if (line_width == 0.0f)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "rasterization.line_width", "0 is not positive");
  self->polygon_mode = polygon_mode;
  self->cull_mode = cull_mode;
  self->front_face = front_face;
  self->line_width = line_width;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_rasterization_flags:
 * @self: a graphics recipe
 * @depth_clamp: `depthClampEnable`
 * @rasterizer_discard: `rasterizerDiscardEnable`
 * @error: return location for a #GError
 *
 * Sets depth clamping and rasterizer discard.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_rasterization_flags (PscRecipe *self,
                                    gboolean   depth_clamp,
                                    gboolean   rasterizer_discard,
                                    GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "rasterization", error))
    return FALSE;
  self->depth_clamp = depth_clamp != FALSE;
  self->rasterizer_discard = rasterizer_discard != FALSE;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_depth_bias:
 * @self: a graphics recipe
 * @enable: `depthBiasEnable`
 * @constant_factor: `depthBiasConstantFactor`
 * @clamp: `depthBiasClamp`
 * @slope_factor: `depthBiasSlopeFactor`
 * @error: return location for a #GError
 *
 * Sets the depth bias (the factors must be finite).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_depth_bias (PscRecipe *self,
                           gboolean   enable,
                           gfloat     constant_factor,
                           gfloat     clamp,
                           gfloat     slope_factor,
                           GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "rasterization.depth_bias", error) ||
      !check_float (constant_factor, TRUE, "rasterization.depth_bias.constant", error) ||
      !check_float (clamp, TRUE, "rasterization.depth_bias.clamp", error) ||
      !check_float (slope_factor, TRUE, "rasterization.depth_bias.slope", error))
    return FALSE;
  self->depth_bias_enable = enable != FALSE;
  self->depth_bias_constant = constant_factor;
  self->depth_bias_clamp = clamp;
  self->depth_bias_slope = slope_factor;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_multisample:
 * @self: a graphics recipe
 * @samples: `VkSampleCountFlagBits` (one bit, 1 to 64)
 * @sample_shading: `sampleShadingEnable`
 * @min_sample_shading: `minSampleShading`, 0 to 1
 * @alpha_to_coverage: `alphaToCoverageEnable`
 * @alpha_to_one: `alphaToOneEnable`
 * @error: return location for a #GError
 *
 * Sets the multisample state. With dynamic rendering @samples is the
 * sample count of the attachments; with a render pass it must match the
 * subpass's attachments ([method@Psc.Recipe.validate]).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_multisample (PscRecipe *self,
                            guint      samples,
                            gboolean   sample_shading,
                            gfloat     min_sample_shading,
                            gboolean   alpha_to_coverage,
                            gboolean   alpha_to_one,
                            GError   **error)
{
  uint8_t s;

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "multisample", error))
    return FALSE;
  if (!psc_enum_samples ((VkSampleCountFlagBits) samples, &s))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "multisample.samples",
                            "%u is not one VkSampleCountFlagBits bit", samples);
  if (!isfinite (min_sample_shading) || min_sample_shading < 0.0f || min_sample_shading > 1.0f)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "multisample.min_sample_shading",
                            "%g is not in 0..1", (double) min_sample_shading);
  self->samples = samples;
  self->sample_shading = sample_shading != FALSE;
  self->min_sample_shading = min_sample_shading;
  self->alpha_to_coverage = alpha_to_coverage != FALSE;
  self->alpha_to_one = alpha_to_one != FALSE;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_sample_mask:
 * @self: a graphics recipe
 * @mask: the sample mask: bit N enables sample N (bits beyond the sample
 *   count do not matter); %G_MAXUINT64 for all
 * @error: return location for a #GError
 *
 * Sets the sample mask.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_sample_mask (PscRecipe *self,
                            guint64    mask,
                            GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "multisample.sample_mask", error))
    return FALSE;
  self->sample_mask = mask;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_depth:
 * @self: a graphics recipe
 * @test: `depthTestEnable`
 * @write: `depthWriteEnable`
 * @compare_op: `depthCompareOp`, a `VkCompareOp`
 * @error: return location for a #GError
 *
 * Sets the depth test.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_depth (PscRecipe *self,
                      gboolean   test,
                      gboolean   write,
                      guint      compare_op,
                      GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "depth_stencil", error) ||
      !check_enum (compare_op, PSC_ENUM_MAX_COMPARE_OP, "VkCompareOp", "depth_stencil.depth_compare", error))
    return FALSE;
  self->depth_test = test != FALSE;
  self->depth_write = write != FALSE;
  self->depth_compare = compare_op;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_depth_bounds:
 * @self: a graphics recipe
 * @enable: `depthBoundsTestEnable` (the device must support depth bounds)
 * @min_bounds: `minDepthBounds`
 * @max_bounds: `maxDepthBounds`
 * @error: return location for a #GError
 *
 * Sets the depth-bounds test.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_depth_bounds (PscRecipe *self,
                             gboolean   enable,
                             gfloat     min_bounds,
                             gfloat     max_bounds,
                             GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "depth_stencil.depth_bounds", error) ||
      !check_float (min_bounds, TRUE, "depth_stencil.depth_bounds.min", error) ||
      !check_float (max_bounds, TRUE, "depth_stencil.depth_bounds.max", error))
    return FALSE;
  self->depth_bounds_test = enable != FALSE;
  self->min_depth_bounds = min_bounds;
  self->max_depth_bounds = max_bounds;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_stencil_test:
 * @self: a graphics recipe
 * @enable: `stencilTestEnable`
 * @error: return location for a #GError
 *
 * Turns the stencil test on or off; set each face's state with
 * [method@Psc.Recipe.set_stencil_face].
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_stencil_test (PscRecipe *self,
                             gboolean   enable,
                             GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "depth_stencil.stencil_test", error))
    return FALSE;
  self->stencil_test = enable != FALSE;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_stencil_face:
 * @self: a graphics recipe
 * @faces: `VkStencilFaceFlags`: front (1), back (2) or both (3)
 * @fail_op: `failOp`, a `VkStencilOp`
 * @pass_op: `passOp`
 * @depth_fail_op: `depthFailOp`
 * @compare_op: `compareOp`, a `VkCompareOp`
 * @compare_mask: `compareMask`
 * @write_mask: `writeMask`
 * @reference: `reference`
 * @error: return location for a #GError
 *
 * Sets the stencil state of one face or both.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_stencil_face (PscRecipe *self,
                             guint      faces,
                             guint      fail_op,
                             guint      pass_op,
                             guint      depth_fail_op,
                             guint      compare_op,
                             guint      compare_mask,
                             guint      write_mask,
                             guint      reference,
                             GError   **error)
{
  const char *face = faces == VK_STENCIL_FACE_BACK_BIT ? "back" : "front";
  const guint ops[3] = { fail_op, pass_op, depth_fail_op };
  static const char *const names[3] = { "fail", "pass", "depth_fail" };
  char path[64];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "depth_stencil", error))
    return FALSE;
  if (faces == 0 || (faces & ~(guint) VK_STENCIL_FACE_FRONT_AND_BACK) != 0)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "depth_stencil",
                            "faces 0x%x: front (1), back (2) or both (3)", faces);
  for (guint i = 0; i < 3; i++)
    {
      g_snprintf (path, sizeof path, "depth_stencil.%s.%s", face, names[i]);
      if (!check_enum (ops[i], PSC_ENUM_MAX_STENCIL_OP, "VkStencilOp", path, error))
        return FALSE;
    }
  g_snprintf (path, sizeof path, "depth_stencil.%s.compare", face);
  if (!check_enum (compare_op, PSC_ENUM_MAX_COMPARE_OP, "VkCompareOp", path, error))
    return FALSE;
  for (guint f = 0; f < 2; f++)
    if (faces & (1u << f))
      {
        self->stencil[f].fail_op = fail_op;
        self->stencil[f].pass_op = pass_op;
        self->stencil[f].depth_fail_op = depth_fail_op;
        self->stencil[f].compare_op = compare_op;
        self->stencil[f].compare_mask = compare_mask;
        self->stencil[f].write_mask = write_mask;
        self->stencil[f].reference = reference;
      }
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_logic_op:
 * @self: a graphics recipe
 * @enable: `logicOpEnable`
 * @op: a `VkLogicOp`
 * @error: return location for a #GError
 *
 * Sets the colour-blend logic operation.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_logic_op (PscRecipe *self,
                         gboolean   enable,
                         guint      op,
                         GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "color_blend", error) ||
      !check_enum (op, PSC_ENUM_MAX_LOGIC_OP, "VkLogicOp", "color_blend.logic_op", error))
    return FALSE;
  self->logic_op_enable = enable != FALSE;
  self->logic_op = op;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_blend_constants:
 * @self: a graphics recipe
 * @red: `blendConstants[0]`
 * @green: `blendConstants[1]`
 * @blue: `blendConstants[2]`
 * @alpha: `blendConstants[3]`
 * @error: return location for a #GError
 *
 * Sets the blend constants (finite values).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_blend_constants (PscRecipe *self,
                                gfloat     red,
                                gfloat     green,
                                gfloat     blue,
                                gfloat     alpha,
                                GError   **error)
{
  const gfloat c[4] = { red, green, blue, alpha };

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "color_blend", error))
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      char path[40];
      g_snprintf (path, sizeof path, "color_blend.constants[%u]", i);
      if (!check_float (c[i], TRUE, path, error))
        return FALSE;
    }
  memcpy (self->blend_constants, c, sizeof c);
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_blend_attachment:
 * @self: a graphics recipe
 * @attachment: the colour attachment's index (below 8)
 * @enable: `blendEnable`
 * @src_color: `srcColorBlendFactor`, a `VkBlendFactor`
 * @dst_color: `dstColorBlendFactor`
 * @color_op: `colorBlendOp`, a `VkBlendOp` (advanced blend operations are
 *   %PSC_ERROR_UNSUPPORTED)
 * @src_alpha: `srcAlphaBlendFactor`
 * @dst_alpha: `dstAlphaBlendFactor`
 * @alpha_op: `alphaBlendOp`
 * @write_mask: `colorWriteMask`, `VkColorComponentFlags`
 * @error: return location for a #GError
 *
 * Sets one colour attachment's blend state. Attachments whose state is not
 * set do not blend and write RGBA.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_blend_attachment (PscRecipe *self,
                                 guint      attachment,
                                 gboolean   enable,
                                 guint      src_color,
                                 guint      dst_color,
                                 guint      color_op,
                                 guint      src_alpha,
                                 guint      dst_alpha,
                                 guint      alpha_op,
                                 guint      write_mask,
                                 GError   **error)
{
  const guint factors[4] = { src_color, dst_color, src_alpha, dst_alpha };
  static const char *const names[4] = { "src_color", "dst_color", "src_alpha", "dst_alpha" };
  char path[64];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "color_blend", error))
    return FALSE;
  if (attachment >= PSC_MAX_COLOR_ATTACHMENTS)
    {
      g_snprintf (path, sizeof path, "color_blend.attachments[%u]", attachment);
      return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u colour attachments",
                              PSC_MAX_COLOR_ATTACHMENTS);
    }
  for (guint i = 0; i < 4; i++)
    {
      g_snprintf (path, sizeof path, "color_blend.attachments[%u].%s", attachment, names[i]);
      if (!check_enum (factors[i], PSC_ENUM_MAX_BLEND_FACTOR, "VkBlendFactor", path, error))
        return FALSE;
    }
  g_snprintf (path, sizeof path, "color_blend.attachments[%u].color_op", attachment);
  if (!check_enum (color_op, PSC_ENUM_MAX_BLEND_OP, "VkBlendOp", path, error))
    return FALSE;
  g_snprintf (path, sizeof path, "color_blend.attachments[%u].alpha_op", attachment);
  if (!check_enum (alpha_op, PSC_ENUM_MAX_BLEND_OP, "VkBlendOp", path, error))
    return FALSE;
  g_snprintf (path, sizeof path, "color_blend.attachments[%u].write_mask", attachment);
  if (!check_enum (write_mask, PSC_ENUM_MAX_COLOR_COMPONENTS, "VkColorComponentFlags", path, error))
    return FALSE;
  self->blend[attachment] = (PscRecipeBlend) {
    .enable = enable != FALSE,
    .src_color = src_color, .dst_color = dst_color, .color_op = color_op,
    .src_alpha = src_alpha, .dst_alpha = dst_alpha, .alpha_op = alpha_op,
    .write_mask = write_mask, .set = TRUE,
  };
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_add_dynamic_state:
 * @self: a graphics recipe
 * @state: a `VkDynamicState` the cache supports (core 1.0 to 1.3 states)
 * @error: return location for a #GError
 *
 * Makes a state dynamic. Adding a state twice is an error.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_dynamic_state (PscRecipe *self,
                              guint      state,
                              GError   **error)
{
  char path[40];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_graphics (self, "dynamic_states", error))
    return FALSE;
  g_snprintf (path, sizeof path, "dynamic_states[%u]", self->n_dynamic);
  if (psc_enum_dynamic_state ((VkDynamicState) state) < 0)
    return psc_recipe_fail (error, PSC_ERROR_UNSUPPORTED, path, "%u is not a supported VkDynamicState", state);
  for (guint i = 0; i < self->n_dynamic; i++)
    if (self->dynamic[i] == state)
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "already dynamic_states[%u]", i);
  self->dynamic[self->n_dynamic++] = state;
  psc_recipe_changed (self);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Rendering
 */

static gboolean
require_no_pass (PscRecipe *self, const char *path, GError **error)
{
  if (!require_graphics (self, path, error))
    return FALSE;
  if (self->n_attachments == 0 && self->n_subpasses == 0)
    return TRUE;
  return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                          "the recipe renders with a render pass (render_pass)");
}

static gboolean
require_no_rendering (PscRecipe *self, const char *path, GError **error)
{
  if (!require_graphics (self, path, error))
    return FALSE;
  if (self->n_color_formats == 0 && self->depth_format == 0 && self->stencil_format == 0 &&
      self->view_mask == 0)
    return TRUE;
  return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                          "the recipe uses dynamic rendering (rendering)");
}

/**
 * psc_recipe_add_color_format:
 * @self: a graphics recipe
 * @format: the next colour attachment's `VkFormat` (`VK_FORMAT_UNDEFINED`
 *   for an unused attachment)
 * @error: return location for a #GError
 *
 * Adds a colour attachment for dynamic rendering
 * (`VkPipelineRenderingCreateInfo`). A recipe uses dynamic rendering or a
 * render pass, not both.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_color_format (PscRecipe *self,
                             guint      format,
                             GError   **error)
{
  char path[48];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_no_pass (self, "rendering", error))
    return FALSE;
  if (self->n_color_formats == PSC_MAX_COLOR_ATTACHMENTS)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "rendering.color_formats",
                            "at most %u colour attachments", PSC_MAX_COLOR_ATTACHMENTS);
  g_snprintf (path, sizeof path, "rendering.color_formats[%u]", self->n_color_formats);
  if (!check_format (format, TRUE, path, error))
    return FALSE;
  self->color_formats[self->n_color_formats++] = format;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_depth_stencil_format:
 * @self: a graphics recipe
 * @depth_format: the depth attachment's `VkFormat`, or `VK_FORMAT_UNDEFINED`
 * @stencil_format: the stencil attachment's `VkFormat`, or
 *   `VK_FORMAT_UNDEFINED`
 * @error: return location for a #GError
 *
 * Sets the depth and stencil formats for dynamic rendering.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_depth_stencil_format (PscRecipe *self,
                                     guint      depth_format,
                                     guint      stencil_format,
                                     GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_no_pass (self, "rendering", error) ||
      !check_format (depth_format, TRUE, "rendering.depth_format", error) ||
      !check_format (stencil_format, TRUE, "rendering.stencil_format", error))
    return FALSE;
  if (depth_format != 0 && !psc_format_has_depth ((VkFormat) depth_format))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "rendering.depth_format",
                            "%u has no depth component", depth_format);
  if (stencil_format != 0 && !psc_format_has_stencil ((VkFormat) stencil_format))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "rendering.stencil_format",
                            "%u has no stencil component", stencil_format);
  self->depth_format = depth_format;
  self->stencil_format = stencil_format;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_view_mask:
 * @self: a graphics recipe
 * @view_mask: the multiview view mask for dynamic rendering (0: no
 *   multiview)
 * @error: return location for a #GError
 *
 * Sets the view mask for dynamic rendering.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_view_mask (PscRecipe *self,
                          guint      view_mask,
                          GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_no_pass (self, "rendering", error))
    return FALSE;
  self->view_mask = view_mask;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_add_pass_attachment:
 * @self: a graphics recipe
 * @format: the attachment's `VkFormat`
 * @samples: its `VkSampleCountFlagBits`
 * @error: return location for a #GError
 *
 * Adds an attachment to the recipe's execution render pass (legacy
 * rendering: the cache makes the compatibility pass of this description,
 * see [method@Psc.Cache.get_compat_render_pass]). Load and store
 * operations and layouts do not matter for compatibility and are not part
 * of a recipe.
 *
 * Returns: the attachment's index, or -1 with @error set (nothing changed)
 *
 * Since: 0.3
 */
gint
psc_recipe_add_pass_attachment (PscRecipe *self,
                                guint      format,
                                guint      samples,
                                GError   **error)
{
  char path[48];
  uint8_t s;
  guint n;

  g_return_val_if_fail (PSC_IS_RECIPE (self), -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (!require_no_rendering (self, "render_pass", error))
    return -1;
  n = self->n_attachments;
  if (n == PSC_MAX_PASS_ATTACHMENTS)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "render_pass.attachments",
                            "at most %u attachments", PSC_MAX_PASS_ATTACHMENTS), -1;
  g_snprintf (path, sizeof path, "render_pass.attachments[%u].format", n);
  if (!check_format (format, FALSE, path, error))
    return -1;
  g_snprintf (path, sizeof path, "render_pass.attachments[%u].samples", n);
  if (!psc_enum_samples ((VkSampleCountFlagBits) samples, &s))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "%u is not one VkSampleCountFlagBits bit", samples), -1;
  self->attachments[n] = (PscRecipeAttachment) { format, samples };
  self->n_attachments++;
  psc_recipe_changed (self);
  return (gint) n;
}

static gboolean
check_refs (PscRecipe *self, const guint *refs, guint n, guint subpass, const char *what,
            gboolean unused_ok, GError **error)
{
  char path[64];

  if (n > PSC_MAX_SUBPASS_REFS)
    {
      g_snprintf (path, sizeof path, "render_pass.subpasses[%u].%s", subpass, what);
      return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u references",
                              PSC_MAX_SUBPASS_REFS);
    }
  for (guint i = 0; i < n; i++)
    if (!(refs[i] < self->n_attachments || (unused_ok && refs[i] == VK_ATTACHMENT_UNUSED)))
      {
        g_snprintf (path, sizeof path, "render_pass.subpasses[%u].%s[%u]", subpass, what, i);
        return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                                "%u is not an attachment index (the pass has %u)", refs[i],
                                self->n_attachments);
      }
  return TRUE;
}

/**
 * psc_recipe_add_subpass:
 * @self: a graphics recipe
 * @colors: (array length=n_colors) (nullable): colour attachment indices
 *   (`VK_ATTACHMENT_UNUSED` allowed)
 * @n_colors: their number
 * @resolves: (array length=n_resolves) (nullable): resolve attachment
 *   indices: none, or one per colour attachment
 * @n_resolves: their number (0 or @n_colors)
 * @inputs: (array length=n_inputs) (nullable): input attachment indices
 * @n_inputs: their number
 * @depth_stencil: the depth/stencil attachment's index, or -1 for none
 * @error: return location for a #GError
 *
 * Adds a subpass (graphics bind point) to the recipe's execution render
 * pass; its attachments must have been added.
 *
 * Returns: the subpass index, or -1 with @error set (nothing changed)
 *
 * Since: 0.3
 */
gint
psc_recipe_add_subpass (PscRecipe   *self,
                        const guint *colors,
                        guint        n_colors,
                        const guint *resolves,
                        guint        n_resolves,
                        const guint *inputs,
                        guint        n_inputs,
                        gint         depth_stencil,
                        GError     **error)
{
  char path[64];
  guint n;
  PscRecipeSubpass *sp;

  g_return_val_if_fail (PSC_IS_RECIPE (self), -1);
  g_return_val_if_fail (n_colors == 0 || colors != NULL, -1);
  g_return_val_if_fail (n_resolves == 0 || resolves != NULL, -1);
  g_return_val_if_fail (n_inputs == 0 || inputs != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (!require_no_rendering (self, "render_pass", error))
    return -1;
  n = self->n_subpasses;
  if (n == PSC_MAX_SUBPASSES)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "render_pass.subpasses",
                            "at most %u subpasses", PSC_MAX_SUBPASSES), -1;
  if (n_colors > PSC_MAX_COLOR_ATTACHMENTS)
    {
      g_snprintf (path, sizeof path, "render_pass.subpasses[%u].colors", n);
      return psc_recipe_fail (error, PSC_ERROR_CAPACITY, path, "at most %u colour attachments",
                              PSC_MAX_COLOR_ATTACHMENTS), -1;
    }
  if (!check_refs (self, colors, n_colors, n, "colors", TRUE, error) ||
      !check_refs (self, resolves, n_resolves, n, "resolves", TRUE, error) ||
      !check_refs (self, inputs, n_inputs, n, "inputs", TRUE, error))
    return -1;
  if (n_resolves != 0 && n_resolves != n_colors)
    {
      g_snprintf (path, sizeof path, "render_pass.subpasses[%u].resolves", n);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "%u resolve attachments for %u colour attachments", n_resolves, n_colors), -1;
    }
  if (depth_stencil < -1 || (depth_stencil >= 0 && (guint) depth_stencil >= self->n_attachments))
    {
      g_snprintf (path, sizeof path, "render_pass.subpasses[%u].depth_stencil", n);
      return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                              "%d is not an attachment index (the pass has %u)", depth_stencil,
                              self->n_attachments), -1;
    }
  sp = &self->subpasses[n];
  memset (sp, 0, sizeof *sp);
  sp->n_colors = n_colors;
  sp->n_resolves = n_resolves;
  sp->n_inputs = n_inputs;
  if (n_colors)
    memcpy (sp->colors, colors, n_colors * sizeof (guint));
  if (n_resolves)
    memcpy (sp->resolves, resolves, n_resolves * sizeof (guint));
  if (n_inputs)
    memcpy (sp->inputs, inputs, n_inputs * sizeof (guint));
  sp->depth_stencil = depth_stencil;
  self->n_subpasses++;
  psc_recipe_changed (self);
  return (gint) n;
}

/**
 * psc_recipe_add_subpass_dependency:
 * @self: a graphics recipe
 * @src_subpass: `srcSubpass` (a subpass index or `VK_SUBPASS_EXTERNAL`)
 * @dst_subpass: `dstSubpass`
 * @src_stage_mask: `srcStageMask`, `VkPipelineStageFlags`
 * @dst_stage_mask: `dstStageMask`
 * @src_access_mask: `srcAccessMask`, `VkAccessFlags`
 * @dst_access_mask: `dstAccessMask`
 * @dependency_flags: `dependencyFlags`
 * @error: return location for a #GError
 *
 * Adds a subpass dependency to the recipe's execution render pass
 * (dependencies are part of render-pass compatibility).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_add_subpass_dependency (PscRecipe *self,
                                   guint      src_subpass,
                                   guint      dst_subpass,
                                   guint      src_stage_mask,
                                   guint      dst_stage_mask,
                                   guint      src_access_mask,
                                   guint      dst_access_mask,
                                   guint      dependency_flags,
                                   GError   **error)
{
  char path[48];

  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_no_rendering (self, "render_pass", error))
    return FALSE;
  if (self->n_dependencies == PSC_MAX_SUBPASS_DEPENDENCIES)
    return psc_recipe_fail (error, PSC_ERROR_CAPACITY, "render_pass.dependencies",
                            "at most %u dependencies", PSC_MAX_SUBPASS_DEPENDENCIES);
  g_snprintf (path, sizeof path, "render_pass.dependencies[%u]", self->n_dependencies);
  if ((src_subpass != VK_SUBPASS_EXTERNAL && src_subpass >= PSC_MAX_SUBPASSES) ||
      (dst_subpass != VK_SUBPASS_EXTERNAL && dst_subpass >= PSC_MAX_SUBPASSES) ||
      (src_subpass == VK_SUBPASS_EXTERNAL && dst_subpass == VK_SUBPASS_EXTERNAL))
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, path,
                            "subpasses %u -> %u: each a subpass index or VK_SUBPASS_EXTERNAL, not both external",
                            src_subpass, dst_subpass);
  self->dependencies[self->n_dependencies++] = (PscRecipeDependency) {
    src_subpass, dst_subpass, src_stage_mask, dst_stage_mask,
    src_access_mask, dst_access_mask, dependency_flags,
  };
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_set_subpass:
 * @self: a graphics recipe
 * @subpass: the subpass of the render pass the pipeline is used in
 * @error: return location for a #GError
 *
 * Sets the pipeline's subpass (default 0; [method@Psc.Recipe.validate]
 * checks that the pass has it).
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing changed)
 *
 * Since: 0.3
 */
gboolean
psc_recipe_set_subpass (PscRecipe *self,
                        guint      subpass,
                        GError   **error)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!require_no_rendering (self, "render_pass", error))
    return FALSE;
  if (subpass >= PSC_MAX_SUBPASSES)
    return psc_recipe_fail (error, PSC_ERROR_INVALID_ARGUMENT, "render_pass.subpass",
                            "%u is not below %u", subpass, PSC_MAX_SUBPASSES);
  self->subpass = subpass;
  psc_recipe_changed (self);
  return TRUE;
}

/**
 * psc_recipe_get_uses_render_pass:
 * @self: a recipe
 *
 * Tells whether the recipe renders with a legacy execution render pass.
 *
 * Returns: whether @self describes a legacy render pass (attachments or
 *   subpasses were added) rather than dynamic rendering
 *
 * Since: 0.3
 */
gboolean
psc_recipe_get_uses_render_pass (PscRecipe *self)
{
  g_return_val_if_fail (PSC_IS_RECIPE (self), FALSE);
  return self->n_attachments > 0 || self->n_subpasses > 0;
}
