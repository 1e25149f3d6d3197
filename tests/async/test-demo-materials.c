/* test-demo-materials.c: the demo scene draws through materials, on
 * lavapipe with the validation layer.
 *
 *   - prewarm=wait (a loading screen): the scene's 106 draws are added, none
 *     is a duplicate, all are requested and Ready before frame 1, whose
 *     every draw is exact (no fallback), and the idle window does not evict
 *     them meanwhile;
 *   - prewarm=wait with a budget of 40 (legacy backend): 66 are cut,
 *     reported and listed (draws 40..43, by name); frame 1 draws exactly
 *     the 40 prewarmed pipelines exactly and the cut ones with fallbacks;
 *   - prewarm=request: the frame loop starts at once; the draws Ready at
 *     their first draw are exactly frame 1's exact draws; every request
 *     becomes Ready;
 *   - sorting: in every frame, each pass records its opaque draws first,
 *     in (pipeline key hash, material, front-to-back depth) order, then its
 *     translucent ones strictly back to front, ties in draw order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "demo-test.h"

#include <string.h>

#define WIDTH 160
#define HEIGHT 120
#define DRAWS 106
#define PHASE_TIMEOUT_US (90 * G_USEC_PER_SEC)

static PscDemoScene *
new_scene (PscCache *cache, PscDemoPrewarmMode mode, guint budget)
{
  g_autoptr(GError) error = NULL;
  PscDemoSceneOptions options;
  PscDemoScene *scene;

  psc_demo_scene_options_init (&options);
  options.width = WIDTH;
  options.height = HEIGHT;
  options.async = TRUE;
  options.prewarm = mode;
  options.prewarm_budget = budget;
  scene = psc_demo_scene_new (cache, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (scene);
  return scene;
}

/* The order rules over the last frame's recorded draws; returns how many
 * were translucent. */
static guint
assert_sorted (PscDemoScene *scene)
{
  guint n = 0, translucent = 0;
  const PscDemoDrawRecord *d = psc_demo_scene_get_last_draws (scene, &n);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 1; i < n; i++)
    {
      const PscDemoDrawRecord *a = &d[i - 1], *b = &d[i];

      g_assert_cmpuint (a->pass, <=, b->pass);
      if (a->pass != b->pass)
        continue;
      /* Opaque first, then translucent. */
      g_assert_false (a->transparent && !b->transparent);
      if (!a->transparent && !b->transparent)
        {
          g_assert_cmpuint (a->key_hash, <=, b->key_hash);
          if (a->key_hash == b->key_hash)
            {
              g_assert_cmpuint (a->material, <=, b->material);
              if (a->material == b->material)
                g_assert_cmpfloat (a->view_depth, <=, b->view_depth);
            }
        }
      else if (a->transparent && b->transparent)
        {
          g_assert_cmpfloat (a->view_depth, >=, b->view_depth);
          if (a->view_depth == b->view_depth)
            g_assert_cmpuint (a->draw, <, b->draw);
        }
    }
  for (guint i = 0; i < n; i++)
    translucent += d[i].transparent;
  return translucent;
}

static void
test_prewarm_wait (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = demo_test_async_cache (h, PSC_BACKEND_DYNAMIC_RENDERING);
  g_autoptr(PscDemoScene) scene = new_scene (cache, PSC_DEMO_PREWARM_WAIT, 0);
  PscDemoAsyncStats a = demo_test_stats (scene);
  const PscDemoAsyncFrame *f;

  g_assert_cmpint (a.prewarm.mode, ==, PSC_DEMO_PREWARM_WAIT);
  g_assert_cmpuint (a.prewarm.budget, ==, PSC_MATERIAL_PREWARM_DEFAULT_BUDGET);
  g_assert_cmpuint (a.prewarm.added, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.deduplicated, ==, 0);
  g_assert_cmpuint (a.prewarm.requested, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.cut, ==, 0);
  g_assert_cmpuint (a.prewarm.failed, ==, 0);
  g_assert_cmpuint (a.prewarm.ready, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.loading_frames, >, 0);
  /* The loading screen ran longer than the idle window: eviction waits for
   * the first frame. */
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (cache), ==, 0);

  demo_test_render (scene, PSC_DEMO_FRAME_NONE);
  f = demo_test_last_frame (scene);
  g_assert_cmpuint (f->requested, ==, DRAWS);
  g_assert_cmpuint (f->exact, ==, DRAWS);
  g_assert_cmpuint (f->fallback + f->stale + f->skipped, ==, 0);
  g_assert_cmpuint (f->evictions, ==, 0);
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.prewarm.ready_at_first_frame, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.drawn, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.ready_before_first_draw, ==, DRAWS);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (cache), ==, 4);
  /* 20 translucent tiles: B's and A's fs_color_alpha ones. */
  g_assert_cmpuint (assert_sorted (scene), ==, 20);

  psc_test_harness_assert_clean (h);
  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

static void
test_prewarm_budget (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);
  PscCache *cache = demo_test_async_cache (h, PSC_BACKEND_LEGACY);
  g_autoptr(PscDemoScene) scene = new_scene (cache, PSC_DEMO_PREWARM_WAIT, 40);
  PscDemoAsyncStats a = demo_test_stats (scene);
  const PscDemoAsyncFrame *f;

  g_assert_cmpuint (a.prewarm.budget, ==, 40);
  g_assert_cmpuint (a.prewarm.added, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.requested, ==, 40);
  g_assert_cmpuint (a.prewarm.cut, ==, DRAWS - 40);
  g_assert_cmpuint (a.prewarm.n_cut_listed, ==, PSC_DEMO_PREWARM_LISTED_CUTS);
  for (guint k = 0; k < a.prewarm.n_cut_listed; k++)
    {
      g_assert_cmpuint (a.prewarm.cut_draws[k], ==, 40 + k);
      g_assert_nonnull (strstr (a.prewarm.cut_names[k], " in pass C "));
    }
  g_assert_cmpuint (a.prewarm.ready, ==, 40);

  demo_test_render (scene, PSC_DEMO_FRAME_NONE);
  f = demo_test_last_frame (scene);
  g_assert_cmpuint (f->exact, ==, 40);
  g_assert_cmpuint (f->fallback, ==, DRAWS - 40);
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.prewarm.drawn, ==, 40);
  g_assert_cmpuint (a.prewarm.ready_before_first_draw, ==, 40);
  assert_sorted (scene);

  psc_test_harness_assert_clean (h);
  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

static void
test_prewarm_request (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = demo_test_async_cache (h, PSC_BACKEND_DYNAMIC_RENDERING);
  g_autoptr(PscDemoScene) scene = new_scene (cache, PSC_DEMO_PREWARM_REQUEST, 0);
  PscDemoAsyncStats a = demo_test_stats (scene);
  const PscDemoAsyncFrame *f;
  gint64 deadline;

  g_assert_cmpuint (a.prewarm.requested, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.loading_frames, ==, 0);

  demo_test_render (scene, PSC_DEMO_FRAME_NONE);
  f = demo_test_last_frame (scene);
  a = demo_test_stats (scene);
  g_assert_cmpuint (a.prewarm.drawn, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.ready_before_first_draw, ==, f->exact);
  g_assert_cmpuint (f->exact + f->fallback, ==, DRAWS);
  g_test_message ("frame 1: %u of %u Ready", f->exact, DRAWS);

  /* Every prewarmed request becomes Ready; the sort holds each frame. */
  deadline = g_get_monotonic_time () + PHASE_TIMEOUT_US;
  do
    {
      demo_test_render (scene, PSC_DEMO_FRAME_ALL_LODS);
      assert_sorted (scene);
      a = demo_test_stats (scene);
    }
  while (!(a.prewarm.ready == DRAWS && a.last_frame_exact) && g_get_monotonic_time () < deadline);
  g_assert_cmpuint (a.prewarm.ready, ==, DRAWS);
  g_assert_cmpuint (a.prewarm.failed, ==, 0);
  g_assert_true (a.last_frame_exact);

  psc_test_harness_assert_clean (h);
  g_clear_pointer (&scene, psc_demo_scene_free);
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/demo-materials/prewarm-wait", test_prewarm_wait);
  g_test_add_func ("/demo-materials/prewarm-budget", test_prewarm_budget);
  g_test_add_func ("/demo-materials/prewarm-request", test_prewarm_request);
  return g_test_run ();
}
