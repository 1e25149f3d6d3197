/* test-material-prewarm.c: the scene prewarm on lavapipe (validation on):
 * exact duplicates collapse and the unique requests keep their input
 * order; the budget cut is counted and its first entries listed; a pass
 * context's provider is called once per unique request within the budget;
 * every prewarmed pipeline is Ready (counted from the ready callbacks as
 * the frame loop pumps begin_frame) before its first draw, which is a hit
 * (no creation); a provider that fails and one whose create info the cache
 * refuses are reported per request, with their errors, and the others go
 * on; a request a hot reload discards is reported as discarded; the
 * validation layer stays silent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

typedef struct {
  PscCache *cache;
  PscTestObjects o;
  PscTestGraphicsInfo g;
  guint calls;
} Provider;

/* The variant's create info: the key in the specialization constants,
 * double-sided in the cull mode. Templates named "fail/..." have no
 * pipeline; "invalid/..." get a create info without stages. */
static gboolean
provide (gpointer                      context,
         const PscMaterialTemplate    *material_template,
         const PscShaderVariantKey    *key,
         VkGraphicsPipelineCreateInfo *out,
         guint32                      *out_generation)
{
  Provider *p = context;
  const char *name = psc_material_template_get_base_name ((PscMaterialTemplate *) material_template);

  p->calls++;
  if (g_str_has_prefix (name, "fail/"))
    return FALSE;
  psc_test_graphics_info_init (&p->g, &p->o, p->cache);
  p->g.spec_data[0] = (gint32) (key->flags | (key->pass << 8));
  p->g.spec_data[1] = (gint32) (key->base_name_hash & 0x7fffffff);
  p->g.raster.cullMode = (key->flags & PSC_MATERIAL_FLAGS_DOUBLE_SIDED) ? VK_CULL_MODE_NONE
                                                                        : VK_CULL_MODE_BACK_BIT;
  if (g_str_has_prefix (name, "invalid/"))
    p->g.ci.stageCount = 0;
  *out = p->g.ci;
  *out_generation = 1;
  return TRUE;
}

static PscMaterialTemplate *
new_template (const char *name)
{
  g_autoptr(GError) error = NULL;
  PscMaterialTemplate *t =
    psc_material_template_new (name, PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED |
                               PSC_MATERIAL_FLAGS_NORMAL_MAP, 16, &error);
  g_assert_no_error (error);
  return t;
}

static void
add (PscMaterialPrewarm *pw, PscMaterialTemplate *t, PscMaterialFlags flags, PscPassContext *pc)
{
  g_autoptr(GError) error = NULL;
  g_assert_true (psc_material_prewarm_add (pw, t, flags, pc, &error));
  g_assert_no_error (error);
}

/* Pumps frames until nothing is pending (bounded). */
static void
pump (PscCache *cache, PscMaterialPrewarm *pw, guint64 *frame)
{
  for (guint i = 0; i < 5000 && psc_material_prewarm_get_n_pending (pw) > 0; i++)
    {
      (*frame)++;
      psc_cache_begin_frame (cache, *frame, *frame);
      g_usleep (1000);
    }
  g_assert_cmpuint (psc_material_prewarm_get_n_pending (pw), ==, 0);
}

static void
test_prewarm (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  Provider p = { 0 };
  g_autoptr(GError) error = NULL;
  guint64 frame = 0;

  p.cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  psc_test_objects_init (&p.o, p.cache);

  g_autoptr(PscPassContext) color = psc_pass_context_new (PSC_PASS_KIND_COLOR, "color", provide, &p, NULL);
  g_autoptr(PscPassContext) depth = psc_pass_context_new (PSC_PASS_KIND_DEPTH_PREPASS, "depth", provide, &p, NULL);
  g_assert_cmpint (psc_pass_context_get_kind (depth), ==, PSC_PASS_KIND_DEPTH_PREPASS);
  g_assert_cmpstr (psc_pass_context_get_name (color), ==, "color");

  g_autoptr(PscMaterialTemplate) a = new_template ("pbr/a");
  g_autoptr(PscMaterialTemplate) b = new_template ("pbr/b");
  g_autoptr(PscMaterialTemplate) bad = new_template ("fail/x");
  g_autoptr(PscMaterialTemplate) inv = new_template ("invalid/y");
  g_autoptr(PscMaterialPrewarm) pw = psc_material_prewarm_new (p.cache);
  g_assert_cmpuint (psc_material_prewarm_get_budget (pw), ==, PSC_MATERIAL_PREWARM_DEFAULT_BUDGET);
  g_assert_cmpuint (PSC_MATERIAL_PREWARM_DEFAULT_BUDGET, ==, 256);

  /* 0 a color AT          unique 0
   * 1 b color NM          unique 1
   * 2 a color AT          dup of 0
   * 3 a depth AT|NM       unique 2 (depth keeps AT)
   * 4 a depth AT          dup of 3 (same key: NM dropped by the pass)
   * 5 fail color          unique 3: provider fails
   * 6 b color NM|SKINNED  dup of 1 (SKINNED unsupported)
   * 7 inv color           unique 4: create info refused
   * 8 b depth DS          unique 5
   * 9 b color 0           unique 6 */
  add (pw, a, PSC_MATERIAL_FLAGS_ALPHA_TEST, color);
  add (pw, b, PSC_MATERIAL_FLAGS_NORMAL_MAP, color);
  add (pw, a, PSC_MATERIAL_FLAGS_ALPHA_TEST, color);
  add (pw, a, PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_NORMAL_MAP, depth);
  add (pw, a, PSC_MATERIAL_FLAGS_ALPHA_TEST, depth);
  add (pw, bad, PSC_MATERIAL_FLAGS_NONE, color);
  add (pw, b, PSC_MATERIAL_FLAGS_NORMAL_MAP | PSC_MATERIAL_FLAGS_SKINNED, color);
  add (pw, inv, PSC_MATERIAL_FLAGS_NONE, color);
  add (pw, b, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, depth);
  add (pw, b, PSC_MATERIAL_FLAGS_NONE, color);
  g_assert_cmpuint (psc_material_prewarm_get_n_added (pw), ==, 10);

  psc_test_harness_reset_errors (h);
  h->quiet = FALSE;
  guint64 before = psc_test_total_creations (p.cache);
  g_assert_true (psc_material_prewarm_run (pw, &error));
  g_assert_no_error (error);

  /* Deduplicated, in input order. */
  static const guint expected_added[] = { 0, 1, 3, 5, 7, 8, 9 };
  g_assert_cmpuint (psc_material_prewarm_get_n_entries (pw), ==, G_N_ELEMENTS (expected_added));
  g_assert_cmpuint (psc_material_prewarm_get_n_deduplicated (pw), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (expected_added); i++)
    {
      PscShaderVariantKey key;
      g_assert_cmpuint (psc_material_prewarm_get_entry (pw, i, &key), ==, expected_added[i]);
    }
  PscShaderVariantKey k;
  psc_material_prewarm_get_entry (pw, 2, &k);
  g_assert_cmpuint (k.flags, ==, PSC_MATERIAL_FLAGS_ALPHA_TEST);
  g_assert_cmpuint (k.pass, ==, PSC_PASS_KIND_DEPTH_PREPASS);

  g_assert_cmpuint (psc_material_prewarm_get_n_requested (pw), ==, 7);
  g_assert_cmpuint (psc_material_prewarm_get_n_cut (pw), ==, 0);
  g_assert_cmpuint (p.calls, ==, 7);

  /* The two failures, per request, with their errors; the rest went on. */
  g_assert_cmpuint (psc_material_prewarm_get_n_failed (pw), ==, 2);
  g_assert_cmpuint (psc_material_prewarm_get_failure_entry (pw, 0), ==, 3);
  g_assert_cmpuint (psc_material_prewarm_get_failure_entry (pw, 1), ==, 4);
  const GError *e0 = psc_material_prewarm_get_failure_error (pw, 0);
  const GError *e1 = psc_material_prewarm_get_failure_error (pw, 1);
  g_assert_nonnull (e0);
  g_assert_nonnull (e1);
  g_assert_true (e0->domain == PSC_ERROR);
  g_assert_true (e1->domain == PSC_ERROR);
  g_assert_nonnull (strstr (e0->message, "fail/x"));
  g_test_message ("provider failure: %s", e0->message);
  g_test_message ("invalid create info: %s", e1->message);

  /* The frame loop: Ready before the first draw. */
  pump (p.cache, pw, &frame);
  g_assert_cmpuint (psc_material_prewarm_get_n_ready (pw), ==, 5);
  g_assert_cmpuint (psc_material_prewarm_get_n_failed (pw), ==, 2);
  guint64 warmed = psc_test_total_creations (p.cache);
  g_assert_cmpuint (warmed - before, ==, 5);

  /* First draws: each unique valid request, through the synchronous path,
   * is a hit. */
  const struct { PscMaterialTemplate **t; PscMaterialFlags f; PscPassKind pass; } draws[] = {
    { &a, PSC_MATERIAL_FLAGS_ALPHA_TEST, PSC_PASS_KIND_COLOR },
    { &b, PSC_MATERIAL_FLAGS_NORMAL_MAP, PSC_PASS_KIND_COLOR },
    { &a, PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_NORMAL_MAP, PSC_PASS_KIND_DEPTH_PREPASS },
    { &b, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, PSC_PASS_KIND_DEPTH_PREPASS },
    { &b, PSC_MATERIAL_FLAGS_NONE, PSC_PASS_KIND_COLOR },
  };
  for (guint i = 0; i < G_N_ELEMENTS (draws); i++)
    {
      VkGraphicsPipelineCreateInfo ci;
      guint32 gen;
      PscShaderVariantKey key;

      frame++;
      psc_cache_begin_frame (p.cache, frame, frame);
      psc_material_template_resolve_variant_key (*draws[i].t, draws[i].f, draws[i].pass, &key);
      g_assert_true (provide (&p, *draws[i].t, &key, &ci, &gen));
      VkPipeline pipeline = psc_cache_get_graphics_pipeline (p.cache, &ci, &error);
      g_assert_no_error (error);
      g_assert_true (pipeline != VK_NULL_HANDLE);
      g_assert_cmpuint (psc_test_total_creations (p.cache), ==, warmed);
    }

  /* Run once; adds after the run are refused. */
  g_assert_false (psc_material_prewarm_run (pw, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (psc_material_prewarm_add (pw, a, 0, color, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_budget (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  Provider p = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) templates = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_material_template_unref);
  guint64 frame = 0;

  p.cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  psc_test_objects_init (&p.o, p.cache);
  g_autoptr(PscPassContext) color = psc_pass_context_new (PSC_PASS_KIND_COLOR, "color", provide, &p, NULL);
  g_autoptr(PscMaterialPrewarm) pw = psc_material_prewarm_new (p.cache);
  psc_material_prewarm_set_budget (pw, 10);
  g_assert_cmpuint (psc_material_prewarm_get_budget (pw), ==, 10);

  /* 40 unique requests, each added twice: 10 made, 30 cut. */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("scene/m%02u", i);
      g_ptr_array_add (templates, new_template (name));
    }
  for (guint r = 0; r < 2; r++)
    for (guint i = 0; i < 40; i++)
      add (pw, templates->pdata[i], PSC_MATERIAL_FLAGS_NONE, color);

  g_assert_true (psc_material_prewarm_run (pw, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (psc_material_prewarm_get_n_deduplicated (pw), ==, 40);
  g_assert_cmpuint (psc_material_prewarm_get_n_requested (pw), ==, 10);
  g_assert_cmpuint (psc_material_prewarm_get_n_cut (pw), ==, 30);
  g_assert_cmpuint (p.calls, ==, 10);
  /* The first 16 cut entries: unique requests 10 .. 25, in input order. */
  for (guint i = 0; i < PSC_MATERIAL_PREWARM_MAX_CUT_ENTRIES; i++)
    {
      PscShaderVariantKey key;
      guint entry = psc_material_prewarm_get_cut_entry (pw, i);
      g_assert_cmpuint (entry, ==, 10 + i);
      g_assert_cmpuint (psc_material_prewarm_get_entry (pw, entry, &key), ==, 10 + i);
      g_assert_cmpuint (key.base_name_hash, ==,
                        psc_material_template_get_base_name_hash (templates->pdata[10 + i]));
    }
  pump (p.cache, pw, &frame);
  g_assert_cmpuint (psc_material_prewarm_get_n_ready (pw), ==, 10);
  g_assert_cmpuint (psc_material_prewarm_get_n_failed (pw), ==, 0);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

/* A prewarm released with requests pending: their references keep it until
 * the completions run (at the cache's close). */
static void
test_release_pending (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  Provider p = { 0 };
  g_autoptr(GError) error = NULL;

  p.cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  psc_test_objects_init (&p.o, p.cache);
  g_autoptr(PscPassContext) color = psc_pass_context_new (PSC_PASS_KIND_COLOR, "color", provide, &p, NULL);
  g_autoptr(PscMaterialTemplate) a = new_template ("pbr/a");
  PscMaterialPrewarm *pw = psc_material_prewarm_new (p.cache);
  add (pw, a, PSC_MATERIAL_FLAGS_NONE, color);
  add (pw, a, PSC_MATERIAL_FLAGS_ALPHA_TEST, color);
  g_assert_true (psc_material_prewarm_run (pw, &error));
  g_assert_no_error (error);
  psc_material_prewarm_unref (pw);
  psc_test_harness_finish (h);
}

/* A hot reload of a shader the prewarmed pipelines use, before the pump
 * that would publish them: each request is a failure with
 * PSC_ERROR_DISCARDED (not a compile failure), and the same variants
 * prewarmed again from the new shader become Ready. */
static void
test_discarded_by_reload (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  Provider p = { 0 };
  g_autoptr(GError) error = NULL;
  guint64 frame = 0;
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_COLOR_ALPHA, &size);

  p.cache = psc_test_harness_cache (h, PSC_BACKEND_DYNAMIC_RENDERING, PSC_CACHE_FLAGS_NONE);
  psc_test_objects_init (&p.o, p.cache);
  g_autoptr(PscPassContext) color = psc_pass_context_new (PSC_PASS_KIND_COLOR, "color", provide, &p, NULL);
  g_autoptr(PscMaterialTemplate) a = new_template ("pbr/a");
  g_autoptr(PscMaterialPrewarm) pw = psc_material_prewarm_new (p.cache);
  add (pw, a, PSC_MATERIAL_FLAGS_NONE, color);
  add (pw, a, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, color);
  g_assert_true (psc_material_prewarm_run (pw, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (psc_material_prewarm_get_n_pending (pw), ==, 2);

  VkShaderModule fs = psc_cache_replace_shader (p.cache, p.o.fs, code, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  g_assert_true (fs != VK_NULL_HANDLE);
  pump (p.cache, pw, &frame);
  g_assert_cmpuint (psc_material_prewarm_get_n_ready (pw), ==, 0);
  g_assert_cmpuint (psc_material_prewarm_get_n_failed (pw), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const GError *e = psc_material_prewarm_get_failure_error (pw, i);
      g_assert_error ((GError *) e, PSC_ERROR, PSC_ERROR_DISCARDED);
      g_assert_nonnull (strstr (e->message, "hot reload"));
      g_test_message ("discarded: %s", e->message);
    }

  /* The provider builds with the new module from now on. */
  p.o.fs = fs;
  g_autoptr(PscMaterialPrewarm) again = psc_material_prewarm_new (p.cache);
  add (again, a, PSC_MATERIAL_FLAGS_NONE, color);
  add (again, a, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, color);
  g_assert_true (psc_material_prewarm_run (again, &error));
  g_assert_no_error (error);
  pump (p.cache, again, &frame);
  g_assert_cmpuint (psc_material_prewarm_get_n_ready (again), ==, 2);
  g_assert_cmpuint (psc_material_prewarm_get_n_failed (again), ==, 0);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/material-prewarm/prewarm", test_prewarm);
  g_test_add_func ("/vulkan/material-prewarm/budget", test_budget);
  g_test_add_func ("/vulkan/material-prewarm/release-pending", test_release_pending);
  g_test_add_func ("/vulkan/material-prewarm/discarded-by-reload", test_discarded_by_reload);
  return g_test_run ();
}
