/* test-recipe-api.c: PscRecipe against the C path on lavapipe (validation
 * on): a recipe and the equivalent create info give the same pipeline and
 * one driver creation; the parts (samplers, layouts, passes) are the C
 * path's objects; equality follows the cache; synchronous, asynchronous,
 * cancelled and policy requests; setter errors name the recipe's paths.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

static GBytes *
demo_spirv (PscDemoShader shader)
{
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (shader, &size);
  return g_bytes_new_static (code, size);
}

/* The sampler of psc_test_objects_init. */
static PscSamplerInfo *
harness_sampler (void)
{
  PscSamplerInfo *s = psc_sampler_info_new ();
  g_autoptr(GError) error = NULL;
  g_assert_true (psc_sampler_info_set_lod (s, 0.0f, 0.0f, 0.25f, &error));
  g_assert_no_error (error);
  return s;
}

/* The layout of psc_test_objects_init (UBO + immutable-sampler texture,
 * 32-byte push range) into @r. */
static void
add_harness_layout (PscRecipe *r)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscSamplerInfo) s = harness_sampler ();
  gint set = psc_recipe_add_set_layout (r, 0, &error);

  g_assert_no_error (error);
  g_assert_cmpint (set, ==, 0);
  g_assert_true (psc_recipe_add_set_binding (r, 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                             VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                                             0, &error));
  g_assert_true (psc_recipe_add_set_binding (r, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                             VK_SHADER_STAGE_FRAGMENT_BIT, 0, &error));
  g_assert_true (psc_recipe_add_immutable_sampler (r, 0, 1, s, &error));
  g_assert_true (psc_recipe_add_push_constant_range (r, VK_SHADER_STAGE_VERTEX_BIT |
                                                     VK_SHADER_STAGE_FRAGMENT_BIT, 0, 32, &error));
  g_assert_no_error (error);
}

/* The pipeline of psc_test_graphics_info_init, as a recipe. With
 * fs_first the stages are added in the other order. */
static PscRecipe *
harness_recipe (gboolean legacy, gboolean fs_first)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) vs = demo_spirv (PSC_DEMO_SHADER_VS_PANEL);
  g_autoptr(GBytes) fs = demo_spirv (PSC_DEMO_SHADER_FS_COLOR);
  PscRecipe *r = psc_recipe_new_graphics ();
  gint fs_index;

  if (fs_first)
    {
      fs_index = psc_recipe_add_stage (r, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", &error);
      g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_VERTEX_BIT, vs, NULL, &error), ==, 1);
    }
  else
    {
      g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_VERTEX_BIT, vs, NULL, &error), ==, 0);
      fs_index = psc_recipe_add_stage (r, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", &error);
    }
  g_assert_no_error (error);
  g_assert_cmpint (fs_index, >=, 0);
  g_assert_true (psc_recipe_set_specialization_int (r, fs_index, 0, 1, &error));
  g_assert_true (psc_recipe_set_specialization_int (r, fs_index, 1, 2, &error));
  g_assert_true (psc_recipe_set_rasterization (r, VK_POLYGON_MODE_FILL, VK_CULL_MODE_NONE,
                                               VK_FRONT_FACE_CLOCKWISE, 1.0f, &error));
  g_assert_true (psc_recipe_set_depth (r, TRUE, TRUE, VK_COMPARE_OP_LESS, &error));
  g_assert_true (psc_recipe_set_depth_bounds (r, FALSE, 0.0f, 1.0f, &error));
  g_assert_true (psc_recipe_set_blend_attachment (r, 0, FALSE, VK_BLEND_FACTOR_ONE,
                                                  VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, 0xF, &error));
  g_assert_no_error (error);
  add_harness_layout (r);
  if (legacy)
    {
      guint color = 0;
      g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM,
                                                       VK_SAMPLE_COUNT_1_BIT, &error), ==, 0);
      g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_D32_SFLOAT,
                                                       VK_SAMPLE_COUNT_1_BIT, &error), ==, 1);
      g_assert_cmpint (psc_recipe_add_subpass (r, &color, 1, NULL, 0, NULL, 0, 1, &error), ==, 0);
    }
  else
    {
      g_assert_true (psc_recipe_add_color_format (r, VK_FORMAT_R8G8B8A8_UNORM, &error));
      g_assert_true (psc_recipe_set_depth_stencil_format (r, VK_FORMAT_D32_SFLOAT,
                                                          VK_FORMAT_UNDEFINED, &error));
    }
  g_assert_no_error (error);
  return r;
}

static void
check_equivalence (gboolean legacy)
{
  PscTestHarness *h = psc_test_harness_new (!legacy);
  PscCache *cache = psc_test_harness_cache (h, legacy ? PSC_BACKEND_LEGACY : PSC_BACKEND_DYNAMIC_RENDERING,
                                            PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = harness_recipe (legacy, FALSE);
  g_autoptr(PscSamplerInfo) sampler = harness_sampler ();
  PscTestObjects o;
  PscTestGraphicsInfo g;
  VkPipeline from_ci;
  guint64 from_recipe, before;

  psc_test_objects_init (&o, cache);
  psc_test_graphics_info_init (&g, &o, cache);

  g_assert_true (psc_recipe_validate (recipe, &error));
  g_assert_no_error (error);

  /* The parts are the C path's objects. */
  g_assert_cmpuint (psc_cache_get_sampler_for_info (cache, sampler, &error), ==,
                    (guint64) (guintptr) o.sampler);
  g_assert_cmpuint (psc_cache_get_set_layout_for_recipe (cache, recipe, 0, &error), ==,
                    (guint64) (guintptr) o.set_layout);
  g_assert_cmpuint (psc_cache_get_pipeline_layout_for_recipe (cache, recipe, &error), ==,
                    (guint64) (guintptr) o.layout);
  g_assert_no_error (error);
  if (legacy)
    g_assert_cmpuint (psc_cache_get_compat_render_pass_for_recipe (cache, recipe, &error), ==,
                      (guint64) (guintptr) o.compat_pass);
  else
    {
      g_assert_cmpuint (psc_cache_get_compat_render_pass_for_recipe (cache, recipe, &error), ==, 0);
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
      g_assert_true (g_str_has_prefix (error->message, "render_pass: "));
      g_clear_error (&error);
    }
  g_assert_cmpuint (psc_cache_get_set_layout_for_recipe (cache, recipe, 3, &error), ==, 0);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "layout.sets[3]: "));
  g_clear_error (&error);

  /* One creation for the create info and the recipe together. */
  before = psc_test_total_creations (cache);
  from_recipe = psc_cache_get_pipeline_for_recipe (cache, recipe, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (from_recipe, !=, 0);
  from_ci = psc_cache_get_graphics_pipeline (cache, &g.ci, &error);
  g_assert_no_error (error);
  g_assert_cmpuint ((guint64) (guintptr) from_ci, ==, from_recipe);
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, recipe, &error), ==, from_recipe);
  g_assert_cmpuint (psc_test_total_creations (cache) - before, ==, 1);

  /* A different specialization value is another pipeline. */
  g_assert_true (psc_recipe_set_specialization_int (recipe, 1, 1, 3, &error));
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, recipe, &error), !=, from_recipe);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_test_total_creations (cache) - before, ==, 2);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_equivalence_dynamic (void)
{
  check_equivalence (FALSE);
}

static void
test_equivalence_legacy (void)
{
  check_equivalence (TRUE);
}

static PscRecipe *
harness_compute_recipe (gfloat value)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) cs = demo_spirv (PSC_DEMO_SHADER_CS_PALETTE);
  PscRecipe *r = psc_recipe_new_compute ();

  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_COMPUTE_BIT, cs, "main", &error), ==, 0);
  g_assert_true (psc_recipe_set_specialization_float (r, 0, 0, value, &error));
  g_assert_cmpint (psc_recipe_add_set_layout (r, 0, &error), ==, 0);
  g_assert_true (psc_recipe_add_set_binding (r, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, 0, &error));
  g_assert_true (psc_recipe_add_push_constant_range (r, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &error));
  g_assert_no_error (error);
  return r;
}

static void
test_compute (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = harness_compute_recipe (0.5f);
  PscTestObjects o;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  guint64 before, p;

  psc_test_objects_init (&o, cache);
  psc_test_compute_info_init (&ci, &spec, &entry, &value, &o);
  before = psc_test_total_creations (cache);
  p = psc_cache_get_pipeline_for_recipe (cache, recipe, &error);
  g_assert_no_error (error);
  g_assert_cmpuint ((guint64) (guintptr) psc_cache_get_compute_pipeline (cache, &ci, &error), ==, p);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_test_total_creations (cache) - before, ==, 1);

  /* A graphics state setter on a compute recipe names its section. */
  g_assert_false (psc_recipe_set_depth (recipe, TRUE, TRUE, VK_COMPARE_OP_LESS, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "depth_stencil: "));
  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_equal_and_hash (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) a = harness_recipe (FALSE, FALSE);
  g_autoptr(PscRecipe) b = harness_recipe (FALSE, TRUE);
  g_autoptr(PscRecipe) c = psc_recipe_copy (a);
  g_autoptr(PscRecipe) legacy = harness_recipe (TRUE, FALSE);
  g_autoptr(PscRecipe) empty = psc_recipe_new_graphics ();
  g_autoptr(PscRecipe) x = harness_compute_recipe (0.5f);
  g_autoptr(PscRecipe) y = harness_compute_recipe (0.25f);
  g_autoptr(GHashTable) set = g_hash_table_new ((GHashFunc) psc_recipe_hash, (GEqualFunc) psc_recipe_equal);

  /* Stage order does not matter, as for the cache. */
  g_assert_true (psc_recipe_equal (a, b));
  g_assert_cmpuint (psc_recipe_hash (a), ==, psc_recipe_hash (b));
  g_assert_true (psc_recipe_equal (a, c));
  g_assert_false (psc_recipe_equal (a, legacy));
  g_assert_false (psc_recipe_equal (x, y));
  g_assert_true (psc_recipe_equal (x, x));

  /* Blend factors of an attachment that does not blend do not count. */
  g_assert_true (psc_recipe_set_blend_attachment (c, 0, FALSE, VK_BLEND_FACTOR_SRC_ALPHA,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, 0xF, &error));
  g_assert_true (psc_recipe_equal (a, c));
  /* The write mask does. */
  g_assert_true (psc_recipe_set_blend_attachment (c, 0, FALSE, VK_BLEND_FACTOR_ONE,
                                                  VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, 0x7, &error));
  g_assert_no_error (error);
  g_assert_false (psc_recipe_equal (a, c));

  /* An invalid recipe is equal only to itself, hashes to 0. */
  g_assert_false (psc_recipe_validate (empty, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "stages: "));
  g_clear_error (&error);
  g_assert_true (psc_recipe_equal (empty, empty));
  g_assert_false (psc_recipe_equal (empty, a));
  g_assert_cmpuint (psc_recipe_hash (empty), ==, 0);

  g_hash_table_add (set, a);
  g_assert_true (g_hash_table_contains (set, b));
  g_assert_false (g_hash_table_contains (set, legacy));
}

static void
test_setter_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) r = harness_recipe (FALSE, FALSE);
  g_autoptr(GBytes) junk = g_bytes_new_static ("not SPIR-V at all", 16);
  g_autoptr(GBytes) vs = demo_spirv (PSC_DEMO_SHADER_VS_PANEL);
  g_autoptr(GBytes) fs = demo_spirv (PSC_DEMO_SHADER_FS_COLOR);
  g_autoptr(PscRecipe) fresh = psc_recipe_new_graphics ();
  guint hash = psc_recipe_hash (r);
  struct { gboolean ok; PscError code; const char *prefix; } cases[12];
  guint n = 0;

#define CASE(call, c, p)                                                    \
  G_STMT_START {                                                            \
    cases[n].ok = (call);                                                   \
    g_assert_false (cases[n].ok);                                           \
    g_assert_error (error, PSC_ERROR, (c));                                 \
    if (!g_str_has_prefix (error->message, (p)))                            \
      g_error ("expected \"%s...\", got \"%s\"", (p), error->message);      \
    g_clear_error (&error);                                                 \
    n++;                                                                    \
  } G_STMT_END

  CASE (psc_recipe_set_specialization_int (r, 1, 7, 1, &error), PSC_ERROR_INVALID_ARGUMENT,
        "stages[1].specialization[2]: the stage's SPIR-V declares no specialization constant 7");
  CASE (psc_recipe_set_specialization_int (r, 1, 0, G_GINT64_CONSTANT (1) << 40, &error),
        PSC_ERROR_INVALID_ARGUMENT, "stages[1].specialization[0]: ");
  CASE (psc_recipe_set_specialization_int (r, 5, 0, 1, &error), PSC_ERROR_INVALID_ARGUMENT,
        "stages[5]: ");
  CASE (psc_recipe_add_stage (r, VK_SHADER_STAGE_GEOMETRY_BIT, junk, NULL, &error) >= 0,
        PSC_ERROR_INVALID_ARGUMENT, "stages[2].spirv: not valid SPIR-V");
  CASE (psc_recipe_add_stage (r, VK_SHADER_STAGE_VERTEX_BIT, vs, NULL, &error) >= 0,
        PSC_ERROR_INVALID_ARGUMENT, "stages[2].stage: the recipe already has this stage");
  CASE (psc_recipe_add_stage (r, VK_SHADER_STAGE_COMPUTE_BIT, vs, NULL, &error) >= 0,
        PSC_ERROR_INVALID_ARGUMENT, "stages[2].stage: ");
  CASE (psc_recipe_add_color_format (r, 123456, &error), PSC_ERROR_UNSUPPORTED,
        "rendering.color_formats[1]: ");
  CASE (psc_recipe_add_vertex_attribute (r, 0, 3, VK_FORMAT_R32_SFLOAT, 0, &error),
        PSC_ERROR_INVALID_ARGUMENT, "vertex_input.attributes[0].binding: ");
  CASE (psc_recipe_set_blend_attachment (r, 0, TRUE, 99, 0, 0, 0, 0, 0, 0xF, &error),
        PSC_ERROR_UNSUPPORTED, "color_blend.attachments[0].src_color: ");
  CASE (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM, 1, &error) >= 0,
        PSC_ERROR_INVALID_ARGUMENT, "render_pass: the recipe uses dynamic rendering");
  CASE (psc_recipe_add_set_binding (r, 0, 1, VK_DESCRIPTOR_TYPE_SAMPLER, 1,
                                    VK_SHADER_STAGE_FRAGMENT_BIT, 0, &error),
        PSC_ERROR_INVALID_ARGUMENT, "layout.sets[0].bindings[2].binding: ");
  /* A whole-recipe rule: no vertex stage. */
  g_assert_cmpint (psc_recipe_add_stage (fresh, VK_SHADER_STAGE_FRAGMENT_BIT, fs, NULL, &error), ==, 0);
  CASE (psc_recipe_validate (fresh, &error), PSC_ERROR_INVALID_ARGUMENT, "stages: ");
#undef CASE
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (cases));

  /* Nothing changed. */
  g_assert_cmpuint (psc_recipe_get_n_stages (r), ==, 2);
  g_assert_cmpuint (psc_recipe_hash (r), ==, hash);
  g_assert_true (psc_recipe_validate (r, NULL));
}

/* Variants of the harness recipe, some of which the cache deduplicates:
 * equality must say exactly which (pairwise, against the pipelines). */
typedef void (*Variant) (PscRecipe *r);

static guint
fs_of (PscRecipe *r)
{
  return psc_recipe_get_stage (r, 0) == VK_SHADER_STAGE_FRAGMENT_BIT ? 0 : 1;
}

static void v_none (PscRecipe *r) { (void) r; }
static void v_compare (PscRecipe *r) { g_assert_true (psc_recipe_set_depth (r, TRUE, TRUE, VK_COMPARE_OP_LESS_OR_EQUAL, NULL)); }
static void v_cull (PscRecipe *r) { g_assert_true (psc_recipe_set_rasterization (r, VK_POLYGON_MODE_FILL, VK_CULL_MODE_BACK_BIT, VK_FRONT_FACE_CLOCKWISE, 1.0f, NULL)); }
static void v_line (PscRecipe *r) { g_assert_true (psc_recipe_set_rasterization (r, VK_POLYGON_MODE_FILL, VK_CULL_MODE_NONE, VK_FRONT_FACE_CLOCKWISE, 2.0f, NULL)); }
static void v_dyn_line (PscRecipe *r)
{
  /* A dynamic line width: its static value no longer matters. */
  g_assert_true (psc_recipe_add_dynamic_state (r, VK_DYNAMIC_STATE_LINE_WIDTH, NULL));
  g_assert_true (psc_recipe_set_rasterization (r, VK_POLYGON_MODE_FILL, VK_CULL_MODE_NONE, VK_FRONT_FACE_CLOCKWISE, 3.0f, NULL));
}
static void v_dyn_line_other (PscRecipe *r)
{
  g_assert_true (psc_recipe_add_dynamic_state (r, VK_DYNAMIC_STATE_LINE_WIDTH, NULL));
}
static void v_explicit_viewport (PscRecipe *r)
{
  /* The viewport and scissor are dynamic anyway. */
  g_assert_true (psc_recipe_add_dynamic_state (r, VK_DYNAMIC_STATE_SCISSOR, NULL));
  g_assert_true (psc_recipe_add_dynamic_state (r, VK_DYNAMIC_STATE_VIEWPORT, NULL));
}
static void v_mask_one_sample (PscRecipe *r)
{
  /* With one sample only bit 0 of the mask matters. */
  g_assert_true (psc_recipe_set_sample_mask (r, 0x1, NULL));
}
static void v_mask_none (PscRecipe *r) { g_assert_true (psc_recipe_set_sample_mask (r, 0x0, NULL)); }
static void v_blend_on (PscRecipe *r)
{
  g_assert_true (psc_recipe_set_blend_attachment (r, 0, TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
                                                  VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                  VK_BLEND_OP_ADD, 0xF, NULL));
}
static void v_blend_off_factors (PscRecipe *r)
{
  g_assert_true (psc_recipe_set_blend_attachment (r, 0, FALSE, VK_BLEND_FACTOR_SRC_ALPHA,
                                                  VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_MAX,
                                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
                                                  VK_BLEND_OP_ADD, 0xF, NULL));
}
static void v_spec (PscRecipe *r) { g_assert_true (psc_recipe_set_specialization_int (r, fs_of (r), 1, 5, NULL)); }
static void v_spec_same (PscRecipe *r)
{
  /* Set again to its own value, and the other constant again: no change. */
  g_assert_true (psc_recipe_set_specialization_int (r, fs_of (r), 1, 2, NULL));
  g_assert_true (psc_recipe_set_specialization_int (r, fs_of (r), 0, 1, NULL));
}
static void v_bounds_off (PscRecipe *r)
{
  /* Depth bounds values without the test do not matter. */
  g_assert_true (psc_recipe_set_depth_bounds (r, FALSE, 0.25f, 0.5f, NULL));
}
static void v_depth_bias_off (PscRecipe *r)
{
  g_assert_true (psc_recipe_set_depth_bias (r, FALSE, 1.0f, 2.0f, 3.0f, NULL));
}
static void v_stencil_face_off (PscRecipe *r)
{
  /* Stencil state without the stencil test does not matter. */
  g_assert_true (psc_recipe_set_stencil_face (r, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP,
                                              VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
                                              VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 1, NULL));
}
static void v_topology_strip (PscRecipe *r)
{
  g_assert_true (psc_recipe_set_input_assembly (r, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, FALSE, NULL));
}

static const struct { const char *name; Variant fn; } variants[] = {
  { "none", v_none }, { "compare", v_compare }, { "cull", v_cull }, { "line", v_line },
  { "dyn-line", v_dyn_line }, { "dyn-line-other", v_dyn_line_other },
  { "explicit-viewport", v_explicit_viewport }, { "mask-one-sample", v_mask_one_sample },
  { "mask-none", v_mask_none }, { "blend-on", v_blend_on },
  { "blend-off-factors", v_blend_off_factors }, { "spec", v_spec }, { "spec-same", v_spec_same },
  { "bounds-off", v_bounds_off }, { "depth-bias-off", v_depth_bias_off },
  { "stencil-face-off", v_stencil_face_off }, { "topology-strip", v_topology_strip },
};

static void
test_equal_iff_same_pipeline (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  enum { N = G_N_ELEMENTS (variants) };
  PscRecipe *r[N];
  guint64 p[N];
  guint equal_pairs = 0, distinct_pairs = 0;

  for (guint i = 0; i < N; i++)
    {
      g_autoptr(GError) error = NULL;
      r[i] = harness_recipe (FALSE, i % 2 == 1);
      variants[i].fn (r[i]);
      p[i] = psc_cache_get_pipeline_for_recipe (cache, r[i], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (p[i], !=, 0);
    }
  for (guint i = 0; i < N; i++)
    for (guint j = i + 1; j < N; j++)
      {
        gboolean eq = psc_recipe_equal (r[i], r[j]);
        if (eq != (p[i] == p[j]))
          g_error ("%s vs %s: psc_recipe_equal says %s, the cache gave %s pipelines",
                   variants[i].name, variants[j].name, eq ? "equal" : "different",
                   p[i] == p[j] ? "one" : "two");
        if (eq)
          g_assert_cmpuint (psc_recipe_hash (r[i]), ==, psc_recipe_hash (r[j]));
        eq ? equal_pairs++ : distinct_pairs++;
      }
  /* Both outcomes occur: the check can fail either way. */
  g_assert_cmpuint (equal_pairs, >=, 8);
  g_assert_cmpuint (distinct_pairs, >=, 8);
  for (guint i = 0; i < N; i++)
    g_object_unref (r[i]);
  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

/* Many recipes through one cache, each made, requested, dropped: what the
 * recipes allocate goes with them (LeakSanitizer in the ASan build), and
 * the cache's entries follow what is alive once evicted. */
static void
test_churn (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  guint64 frame = 1, entries_after_first = 0;

  for (guint round = 0; round < 4; round++)
    {
      for (guint i = 0; i < 64; i++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(PscRecipe) r = harness_recipe (FALSE, FALSE);
          g_autoptr(PscRecipe) copy = NULL;
          g_assert_true (psc_recipe_set_specialization_int (r, 1, 1, (gint64) i, &error));
          copy = psc_recipe_copy (r);
          g_assert_true (psc_recipe_equal (r, copy));
          g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, copy, &error), !=, 0);
          g_assert_no_error (error);
        }
      for (guint f = 0; f < PSC_BORROW_FRAMES + 2; f++, frame++)
        psc_cache_begin_frame (cache, frame, frame);
      g_assert_cmpuint (psc_cache_evict (cache, 0), ==, 64);
      for (guint f = 0; f < PSC_BORROW_FRAMES + 2; f++, frame++)
        psc_cache_begin_frame (cache, frame, frame);
      if (round == 0)
        entries_after_first = psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES);
      else
        g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES),
                          ==, entries_after_first);
    }
  g_assert_cmpuint (entries_after_first, ==, 0);
  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

/* Closing the cache with a recipe request pending: the task completes once,
 * with PSC_ERROR_CLOSED. */
static void async_done (GObject *source, GAsyncResult *res, gpointer data);

typedef struct {
  GMainLoop *loop;
  guint64 pipeline;
  GError *error;
  gboolean done;
} AsyncResult;

static void
async_done (GObject *source, GAsyncResult *res, gpointer data)
{
  AsyncResult *r = data;
  r->pipeline = psc_cache_get_pipeline_for_recipe_finish (PSC_CACHE (source), res, &r->error);
  r->done = TRUE;
}

/* Pumps the cache from the main loop until @r is done. */
static void
pump_until (PscCache *cache, AsyncResult *r)
{
  guint64 frame = 1;
  while (!r->done)
    {
      psc_cache_begin_frame (cache, frame, frame);
      frame++;
      g_main_context_iteration (NULL, FALSE);
      if (!r->done)
        g_usleep (1000);
    }
}

static void
test_async_and_policies (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = harness_recipe (FALSE, FALSE);
  g_autoptr(PscRecipe) other = harness_recipe (FALSE, FALSE);
  g_autoptr(PscRecipe) third = harness_recipe (FALSE, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncResult a = { 0 }, c = { 0 };
  PscRequestResult result = PSC_REQUEST_RESULT_READY;
  guint64 p, frame = 100;

  /* Asynchronous, then the same recipe synchronously: the same pipeline. */
  psc_cache_get_pipeline_for_recipe_async (cache, recipe, NULL, async_done, &a);
  pump_until (cache, &a);
  g_assert_no_error (a.error);
  g_assert_cmpuint (a.pipeline, !=, 0);
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, recipe, &error), ==, a.pipeline);
  g_assert_no_error (error);

  /* SKIP: pending, compiled on a worker, then Ready. */
  g_assert_true (psc_recipe_set_specialization_int (other, 1, 0, 7, &error));
  p = psc_cache_request_recipe (cache, other, PSC_MISS_POLICY_SKIP, PSC_REQUEST_FLAGS_NONE, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p, ==, 0);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
  for (guint i = 0; i < 10000 && result != PSC_REQUEST_RESULT_READY; i++)
    {
      psc_cache_begin_frame (cache, frame, frame);
      frame++;
      p = psc_cache_request_recipe (cache, other, PSC_MISS_POLICY_SKIP, PSC_REQUEST_FLAGS_NONE,
                                    &result, &error);
      g_assert_no_error (error);
      if (result != PSC_REQUEST_RESULT_READY)
        g_usleep (1000);
    }
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_READY);
  g_assert_cmpuint (p, !=, 0);
  g_assert_cmpuint (p, !=, a.pipeline);

  /* Cancelled before the next pump: the task fails with CANCELLED. */
  g_assert_true (psc_recipe_set_specialization_int (third, 1, 0, 9, &error));
  psc_cache_get_pipeline_for_recipe_async (cache, third, cancellable, async_done, &c);
  g_cancellable_cancel (cancellable);
  pump_until (cache, &c);
  g_assert_error (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (c.pipeline, ==, 0);
  g_clear_error (&c.error);

  /* An invalid recipe fails the task, not the call. */
  {
    g_autoptr(PscRecipe) empty = psc_recipe_new_graphics ();
    AsyncResult e = { 0 };
    psc_cache_get_pipeline_for_recipe_async (cache, empty, NULL, async_done, &e);
    pump_until (cache, &e);
    g_assert_error (e.error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&e.error);
  }

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_close_pending (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  g_autoptr(PscRecipe) recipe = harness_recipe (FALSE, FALSE);
  AsyncResult a = { 0 };

  g_assert_true (psc_recipe_set_specialization_int (recipe, 1, 0, 11, NULL));
  psc_cache_get_pipeline_for_recipe_async (cache, recipe, NULL, async_done, &a);
  psc_cache_close (cache, 0);
  while (!a.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (a.error, PSC_ERROR, PSC_ERROR_CLOSED);
  g_clear_error (&a.error);
  g_assert_cmpuint (psc_cache_get_pipeline_for_recipe (cache, recipe, &a.error), ==, 0);
  g_assert_error (a.error, PSC_ERROR, PSC_ERROR_CLOSED);
  g_clear_error (&a.error);
  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recipe-api/equivalence/dynamic", test_equivalence_dynamic);
  g_test_add_func ("/recipe-api/equivalence/legacy", test_equivalence_legacy);
  g_test_add_func ("/recipe-api/compute", test_compute);
  g_test_add_func ("/recipe-api/equal-and-hash", test_equal_and_hash);
  g_test_add_func ("/recipe-api/setter-errors", test_setter_errors);
  g_test_add_func ("/recipe-api/async-and-policies", test_async_and_policies);
  g_test_add_func ("/recipe-api/equal-iff-same-pipeline", test_equal_iff_same_pipeline);
  g_test_add_func ("/recipe-api/churn", test_churn);
  g_test_add_func ("/recipe-api/close-pending", test_close_pending);
  return g_test_run ();
}
