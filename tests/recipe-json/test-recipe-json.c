/* test-recipe-json.c: the recipe JSON form (docs/recipe-json.md), no GPU.
 *
 *  /recipe-json/good/NAME   each good/NAME.json reads; recipe -> JSON -> recipe
 *                           gives an equal recipe and the same text (pretty
 *                           and compact); NAME.golden.json files are the
 *                           exact pretty text psc_recipe_to_json writes
 *  /recipe-json/bad/NAME    each bad/NAME.json is refused with the error of its
 *                           .expect file (the PscError name, then the start
 *                           of the message: the JSON path and the reason)
 *  /recipe-json/api/...     recipes made with the setters round-trip
 *                           (64-bit constants, VK_SHADER_STAGE_ALL, every
 *                           supported format and dynamic state); values
 *                           without a Vulkan name are refused by to_json
 *  /recipe-json/limits/...  the bounds: document size, SPIR-V size, explicit
 *                           lengths, NUL bytes, nesting, number of values
 *
 * `test-recipe-json --golden FILE` prints FILE's pretty JSON as
 * psc_recipe_to_json writes it (to make a golden file).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <psocache/psocache.h>

#include "spec-widths.comp.h"
#include "spec-graphics.vert.h"
#include "no-spec.frag.h"

static char *
read_file (const char *path, gsize *length)
{
  char *data = NULL;
  GError *error = NULL;

  if (!g_file_get_contents (path, &data, length, &error))
    g_error ("%s: %s", path, error->message);
  return data;
}

static PscRecipe *
from_json_or_die (const char *json, gssize length, const char *what)
{
  GError *error = NULL;
  PscRecipe *r = psc_recipe_new_from_json (json, length, &error);

  if (r == NULL)
    g_error ("%s: %s", what, error->message);
  return r;
}

static char *
to_json_or_die (PscRecipe *r, gboolean pretty)
{
  GError *error = NULL;
  char *json = psc_recipe_to_json (r, pretty, &error);

  if (json == NULL)
    g_error ("to_json: %s", error->message);
  return json;
}

/* recipe -> JSON -> recipe -> JSON: equal recipes, the same text. */
static void
check_round_trip (PscRecipe *r)
{
  g_autofree char *pretty = to_json_or_die (r, TRUE);
  g_autofree char *compact = to_json_or_die (r, FALSE);
  g_autoptr (PscRecipe) from_pretty = from_json_or_die (pretty, -1, "pretty output");
  g_autoptr (PscRecipe) from_compact = from_json_or_die (compact, (gssize) strlen (compact),
                                                         "compact output");
  g_autofree char *pretty2 = to_json_or_die (from_pretty, TRUE);
  g_autofree char *compact2 = to_json_or_die (from_compact, FALSE);
  g_autofree char *pretty3 = to_json_or_die (from_compact, TRUE);
  g_autoptr (PscRecipe) copy = psc_recipe_copy (r);
  g_autofree char *copied = to_json_or_die (copy, TRUE);

  g_assert_true (psc_recipe_validate (from_pretty, NULL));
  g_assert_true (psc_recipe_equal (r, from_pretty));
  g_assert_true (psc_recipe_equal (r, from_compact));
  g_assert_cmpuint (psc_recipe_hash (r), ==, psc_recipe_hash (from_pretty));
  g_assert_cmpstr (pretty, ==, pretty2);
  g_assert_cmpstr (compact, ==, compact2);
  g_assert_cmpstr (pretty, ==, pretty3);
  g_assert_cmpstr (pretty, ==, copied);
  g_assert_null (strchr (compact, '\n'));
}

static void
test_good (gconstpointer data)
{
  const char *path = data;
  gsize length;
  g_autofree char *text = read_file (path, &length);
  g_autoptr (PscRecipe) r = from_json_or_die (text, (gssize) length, path);

  check_round_trip (r);
  if (g_str_has_suffix (path, ".golden.json"))
    {
      g_autofree char *pretty = to_json_or_die (r, TRUE);
      g_autofree char *expected = g_strconcat (pretty, "\n", NULL);
      g_assert_cmpstr (text, ==, expected);
    }
}

static void
test_bad (gconstpointer data)
{
  const char *path = data;
  g_autofree char *expect_path = NULL;
  g_autofree char *text = NULL, *expect = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GEnumClass) codes = g_type_class_ref (PSC_TYPE_ERROR);
  GEnumValue *code;
  gsize length, expect_length;
  PscRecipe *r;

  {
    g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".json"));
    expect_path = g_strconcat (stem, ".expect", NULL);
  }
  text = read_file (path, &length);
  expect = read_file (expect_path, &expect_length);
  lines = g_strsplit (expect, "\n", 3);
  g_assert_nonnull (lines[0]);
  g_assert_nonnull (lines[1]);
  code = g_enum_get_value_by_name (codes, lines[0]);
  if (code == NULL)
    g_error ("%s: %s is no PscError", expect_path, lines[0]);

  r = psc_recipe_new_from_json (text, (gssize) length, &error);
  if (r != NULL)
    {
      g_autofree char *json = psc_recipe_to_json (r, TRUE, NULL);
      g_error ("%s was read: %s", path, json);
    }
  g_assert_nonnull (error);
  g_assert_true (error->domain == PSC_ERROR);
  if (error->code != code->value || !g_str_has_prefix (error->message, lines[1]))
    g_error ("%s: expected %s \"%s...\", got %s \"%s\"", path, lines[0], lines[1],
             g_enum_get_value (codes, error->code) ? g_enum_get_value (codes, error->code)->value_name : "?",
             error->message);
  /* Without a GError too. */
  g_assert_null (psc_recipe_new_from_json (text, (gssize) length, NULL));
}

static GBytes *
words (const guint32 *w, gsize size)
{
  return g_bytes_new (w, size);
}

static void
assert_ok (gboolean ok, GError *error)
{
  if (!ok)
    g_error ("%s", error ? error->message : "(no error)");
}

/* 64-bit constants: the largest uint as a string, the smallest int. */
static void
test_api_wide_constants (void)
{
  g_autoptr (PscRecipe) r = psc_recipe_new_compute ();
  g_autoptr (GBytes) spv = words (spec_widths_comp_spv, sizeof spec_widths_comp_spv);
  g_autofree char *json = NULL;
  g_autoptr (PscRecipe) back = NULL;
  GError *error = NULL;

  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_COMPUTE_BIT, spv, NULL, &error), ==, 0);
  assert_ok (psc_recipe_set_specialization_uint (r, 0, 9, G_MAXUINT64, &error), error);
  assert_ok (psc_recipe_set_specialization_int (r, 0, 5, G_MININT64, &error), error);
  assert_ok (psc_recipe_set_specialization_uint (r, 0, 6, 65535, &error), error);
  json = to_json_or_die (r, FALSE);
  g_assert_nonnull (strstr (json, "{\"id\":9,\"uint\":\"18446744073709551615\"}"));
  g_assert_nonnull (strstr (json, "{\"id\":5,\"int\":-9223372036854775808}"));
  g_assert_nonnull (strstr (json, "{\"id\":6,\"uint\":65535}"));
  check_round_trip (r);
  back = from_json_or_die (json, -1, "wide constants");
  g_assert_true (psc_recipe_equal (r, back));
}

static PscRecipe *
new_graphics (void)
{
  PscRecipe *r = psc_recipe_new_graphics ();
  g_autoptr (GBytes) vert = words (spec_graphics_vert_spv, sizeof spec_graphics_vert_spv);
  g_autoptr (GBytes) frag = words (no_spec_frag_spv, sizeof no_spec_frag_spv);
  GError *error = NULL;

  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_VERTEX_BIT, vert, "main", &error), ==, 0);
  g_assert_cmpint (psc_recipe_add_stage (r, VK_SHADER_STAGE_FRAGMENT_BIT, frag, NULL, &error), ==, 1);
  assert_ok (psc_recipe_add_vertex_binding (r, 0, 12, VK_VERTEX_INPUT_RATE_VERTEX, &error), error);
  assert_ok (psc_recipe_add_vertex_attribute (r, 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0, &error), error);
  return r;
}

/* VK_SHADER_STAGE_ALL is written as itself, ALL_GRAPHICS as its bits. */
static void
test_api_stage_masks (void)
{
  g_autoptr (PscRecipe) r = new_graphics ();
  g_autofree char *json = NULL;
  GError *error = NULL;

  assert_ok (psc_recipe_add_push_constant_range (r, VK_SHADER_STAGE_ALL, 0, 16, &error), error);
  assert_ok (psc_recipe_add_push_constant_range (r, VK_SHADER_STAGE_ALL_GRAPHICS, 16, 16, &error), error);
  assert_ok (psc_recipe_add_color_format (r, VK_FORMAT_R8G8B8A8_UNORM, &error), error);
  json = to_json_or_die (r, FALSE);
  g_assert_nonnull (strstr (json, "\"stages\":[\"VK_SHADER_STAGE_ALL\"]"));
  g_assert_nonnull (strstr (json, "\"stages\":[\"VK_SHADER_STAGE_VERTEX_BIT\","
                                  "\"VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT\","
                                  "\"VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT\","
                                  "\"VK_SHADER_STAGE_GEOMETRY_BIT\",\"VK_SHADER_STAGE_FRAGMENT_BIT\"]"));
  check_round_trip (r);
}

/* Every format the cache supports has a name and round-trips. */
static void
test_api_formats (void)
{
  static const struct { guint first, count; } ranges[] = {
    { 0, 185 }, { 1000156000, 34 }, { 1000066000, 14 }, { 1000330000, 4 }, { 1000340000, 2 },
  };
  guint n = 0;

  for (guint k = 0; k < G_N_ELEMENTS (ranges); k++)
    for (guint i = 0; i < ranges[k].count; i++)
      {
        g_autoptr (PscRecipe) r = new_graphics ();
        GError *error = NULL;
        assert_ok (psc_recipe_add_color_format (r, ranges[k].first + i, &error), error);
        check_round_trip (r);
        n++;
      }
  g_assert_cmpuint (n, ==, 239);
}

/* Every dynamic state the cache supports, at once (in the order added). */
static void
test_api_dynamic_states (void)
{
  static const guint states[] = {
    VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_LINE_WIDTH,
    VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_DEPTH_BOUNDS,
    VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
    VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
    VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
    VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
    VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
    VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_OP,
    VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
    VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
  };
  g_autoptr (PscRecipe) r = new_graphics ();
  g_autofree char *json = NULL;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    assert_ok (psc_recipe_add_dynamic_state (r, states[i], &error), error);
  assert_ok (psc_recipe_add_color_format (r, VK_FORMAT_R8G8B8A8_UNORM, &error), error);
  json = to_json_or_die (r, FALSE);
  g_assert_nonnull (strstr (json, "\"VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE\"]"));
  check_round_trip (r);
}

/* A render pass with every reference form; a blend attachment set after
 * one that is not (null in the JSON). */
static void
test_api_render_pass (void)
{
  g_autoptr (PscRecipe) r = new_graphics ();
  const guint colors[] = { VK_ATTACHMENT_UNUSED, 0 };
  const guint resolves[] = { VK_ATTACHMENT_UNUSED, 1 };
  g_autofree char *json = NULL;
  GError *error = NULL;

  g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                                                   &error), ==, 0);
  g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                                                   &error), ==, 1);
  g_assert_cmpint (psc_recipe_add_subpass (r, colors, 2, resolves, 2, NULL, 0, -1, &error), ==, 0);
  assert_ok (psc_recipe_add_subpass_dependency (r, VK_SUBPASS_EXTERNAL, 0,
                                                VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                                VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                                                VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0, &error), error);
  assert_ok (psc_recipe_set_blend_attachment (r, 1, TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
                                              VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                              VK_BLEND_OP_ADD, 0xF, &error), error);
  json = to_json_or_die (r, FALSE);
  g_assert_nonnull (strstr (json, "\"colors\":[\"VK_ATTACHMENT_UNUSED\",0]"));
  g_assert_nonnull (strstr (json, "\"src_subpass\":\"VK_SUBPASS_EXTERNAL\",\"dst_subpass\":0"));
  g_assert_nonnull (strstr (json, "\"depth_stencil\":null"));
  g_assert_nonnull (strstr (json, "\"attachments\":[null,{\"enable\":true"));
  check_round_trip (r);
}

/* A mask bit the headers have no name for cannot be written. */
static void
test_api_unnamed_bit (void)
{
  g_autoptr (PscRecipe) r = new_graphics ();
  const guint colors[] = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (psc_recipe_add_pass_attachment (r, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                                                   NULL), ==, 0);
  g_assert_cmpint (psc_recipe_add_subpass (r, colors, 1, NULL, 0, NULL, 0, -1, NULL), ==, 0);
  g_assert_true (psc_recipe_add_subpass_dependency (r, VK_SUBPASS_EXTERNAL, 0,
                                                    VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                                    VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0x80000000u, 0, 0,
                                                    NULL));
  g_assert_null (psc_recipe_to_json (r, TRUE, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "render_pass.dependencies[0].src_access_mask: bit 0x80000000"));
  g_assert_null (psc_recipe_to_json (r, FALSE, NULL));
}

static char *
good_text (const char *name, gsize *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "recipe-json", "good", name, NULL);
  return read_file (path, length);
}

static void
assert_refused (const char *json, gssize length, PscError code, const char *prefix)
{
  g_autoptr (GError) error = NULL;
  g_assert_null (psc_recipe_new_from_json (json, length, &error));
  g_assert_nonnull (error);
  if (error->domain != PSC_ERROR || error->code != (int) code || !g_str_has_prefix (error->message, prefix))
    g_error ("expected %d \"%s...\", got %d \"%s\"", code, prefix, error->code, error->message);
}

static void
test_limits_document_size (void)
{
  const gsize max = PSC_RECIPE_JSON_MAX_BYTES;
  gsize length;
  g_autofree char *text = good_text ("minimal-compute.json", &length);
  char *big = g_malloc (max + 2);
  g_autoptr (PscRecipe) r = NULL;

  /* A good document padded with spaces to exactly the bound is read. */
  g_assert_cmpuint (length, <, max);
  memcpy (big, text, length);
  memset (big + length, ' ', max - length);
  big[max] = '\0';
  r = from_json_or_die (big, -1, "padded to the bound");
  g_clear_object (&r);
  r = from_json_or_die (big, (gssize) max, "padded to the bound, with its length");
  /* One byte more is refused before it is read. */
  big[max] = ' ';
  big[max + 1] = '\0';
  assert_refused (big, (gssize) max + 1, PSC_ERROR_CAPACITY, "recipe JSON: 16777217 bytes, more than 16777216");
  assert_refused (big, -1, PSC_ERROR_CAPACITY, "recipe JSON: more than 16777216 bytes");
  g_free (big);
}

static void
test_limits_spirv_size (void)
{
  /* 8 MiB + 4 bytes of SPIR-V in one stage (a multiple of 3: no padding):
   * refused before it is decoded. */
  const gsize bytes = 8u * 1024 * 1024 + 4;
  const gsize b64 = bytes / 3 * 4;
  GString *s = g_string_new ("{\"version\": 1, \"kind\": \"compute\", \"stages\": "
                             "[{\"stage\": \"VK_SHADER_STAGE_COMPUTE_BIT\", \"spirv\": \"");
  char *json;

  g_assert_cmpuint (bytes % 3, ==, 0);
  for (gsize i = 0; i < b64; i++)
    g_string_append_c (s, 'A');
  g_string_append (s, "\"}]}");
  json = g_string_free (s, FALSE);
  assert_refused (json, -1, PSC_ERROR_CAPACITY, "stages[0].spirv: the recipe's SPIR-V would exceed 8388608 bytes");
  g_free (json);
}

static void
test_limits_lengths (void)
{
  gsize length;
  g_autofree char *text = good_text ("minimal-graphics.json", &length);
  char *copy = g_malloc (length + 8);
  g_autoptr (PscRecipe) r = NULL;

  /* An explicit length: no NUL needed, what follows is not read. */
  memcpy (copy, text, length);
  memcpy (copy + length, "garbage!", 8);
  r = from_json_or_die (copy, (gssize) length, "explicit length");
  g_clear_object (&r);
  /* A NUL byte inside the length. */
  copy[10] = '\0';
  assert_refused (copy, (gssize) length, PSC_ERROR_INVALID_ARGUMENT, "recipe JSON: line 2, column ");
  g_free (copy);
  /* Not UTF-8. */
  assert_refused ("{\"kind\": \"\xff\"}", -1, PSC_ERROR_INVALID_ARGUMENT,
                  "recipe JSON: line 1, column 11: not UTF-8");
  /* An empty document, a whitespace document. */
  assert_refused ("", 0, PSC_ERROR_INVALID_ARGUMENT, "recipe JSON: the document is empty");
  assert_refused (" \n ", -1, PSC_ERROR_INVALID_ARGUMENT, "recipe JSON: the document is empty");
}

/* Nesting: 16 levels pass the lexical check (and then fail on what they
 * are), 17 do not. */
static void
test_limits_nesting (void)
{
  GString *ok = g_string_new ("{\"version\": 1, \"kind\": \"compute\", \"stages\": ");
  GString *deep;
  char *text;

  for (guint i = 0; i < 15; i++)
    g_string_append_c (ok, '[');
  for (guint i = 0; i < 15; i++)
    g_string_append_c (ok, ']');
  deep = g_string_new (ok->str);
  g_string_append_c (ok, '}');
  text = g_string_free (ok, FALSE);
  assert_refused (text, -1, PSC_ERROR_INVALID_ARGUMENT, "stages[0]: an object expected, not an array");
  g_free (text);
  g_string_insert_c (deep, (gssize) strlen ("{\"version\": 1, \"kind\": \"compute\", \"stages\": "), '[');
  g_string_append (deep, "]}");
  text = g_string_free (deep, FALSE);
  assert_refused (text, -1, PSC_ERROR_CAPACITY, "recipe JSON: line 1, column 60: nested deeper than 16");
  g_free (text);
}

/* At most 2^20 values (member names not counted): the 2^20th passes the
 * lexical check (and then fails on what it is), one more does not. */
static void
test_limits_values (void)
{
  const char *head = "{\"version\": 1, \"kind\": \"compute\", \"stages\": [";
  const guint max = 1u << 20;
  GString *s = g_string_new (head);
  char *text;

  /* {, 1, "compute", [ are 4 values */
  for (guint i = 0; i < max - 4; i++)
    g_string_append (s, i == 0 ? "0" : ",0");
  g_string_append (s, "]}");
  text = g_string_free (s, FALSE);
  assert_refused (text, -1, PSC_ERROR_CAPACITY, "stages: 1048572 elements, at most 5");
  g_free (text);
  s = g_string_new (head);
  for (guint i = 0; i < max - 3; i++)
    g_string_append (s, i == 0 ? "0" : ",0");
  g_string_append (s, "]}");
  text = g_string_free (s, FALSE);
  assert_refused (text, -1, PSC_ERROR_CAPACITY, "recipe JSON: line 1, column 2097190: more than 1048576 values");
  g_free (text);
}

static GPtrArray *
list_dir (const char *sub, const char *suffix)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "recipe-json", sub, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (files, (GCompareFunc) g_strcmp0);
  return files;
}

static int
print_golden (const char *path)
{
  gsize length;
  g_autofree char *text = read_file (path, &length);
  g_autoptr (PscRecipe) r = from_json_or_die (text, (gssize) length, path);
  g_autofree char *pretty = to_json_or_die (r, TRUE);
  g_print ("%s\n", pretty);
  return 0;
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) good = NULL, bad = NULL;

  if (argc == 3 && strcmp (argv[1], "--golden") == 0)
    return print_golden (argv[2]);

  g_test_init (&argc, &argv, NULL);
  good = list_dir ("good", ".json");
  bad = list_dir ("bad", ".json");
  g_assert_cmpuint (good->len, >, 0);
  g_assert_cmpuint (bad->len, >, 0);
  for (guint i = 0; i < good->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (good, i));
      g_autofree char *test = g_strconcat ("/recipe-json/good/", base, NULL);
      g_test_add_data_func (test, g_ptr_array_index (good, i), test_good);
    }
  for (guint i = 0; i < bad->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (bad, i));
      g_autofree char *test = g_strconcat ("/recipe-json/bad/", base, NULL);
      g_test_add_data_func (test, g_ptr_array_index (bad, i), test_bad);
    }
  g_test_add_func ("/recipe-json/api/wide-constants", test_api_wide_constants);
  g_test_add_func ("/recipe-json/api/stage-masks", test_api_stage_masks);
  g_test_add_func ("/recipe-json/api/formats", test_api_formats);
  g_test_add_func ("/recipe-json/api/dynamic-states", test_api_dynamic_states);
  g_test_add_func ("/recipe-json/api/render-pass", test_api_render_pass);
  g_test_add_func ("/recipe-json/api/unnamed-bit", test_api_unnamed_bit);
  g_test_add_func ("/recipe-json/limits/document-size", test_limits_document_size);
  g_test_add_func ("/recipe-json/limits/spirv-size", test_limits_spirv_size);
  g_test_add_func ("/recipe-json/limits/lengths", test_limits_lengths);
  g_test_add_func ("/recipe-json/limits/nesting", test_limits_nesting);
  g_test_add_func ("/recipe-json/limits/values", test_limits_values);
  return g_test_run ();
}
