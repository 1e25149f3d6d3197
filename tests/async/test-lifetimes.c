/* test-lifetimes.c: how long entries and identities live, on lavapipe with
 * the validation layer: memory stays flat when keys are evicted and
 * requested again for thousands of cycles; a shader's identity outlives its
 * last release while pipelines made from it are cached (the same SPIR-V
 * registered again gets the same id and generation, and those pipelines hit
 * again), and dies once nothing can reach them; ids of dead objects are
 * refused after their slot is reused; prepared keys answer the same way
 * whatever path fetched their pipeline; a replaced module's handle stops
 * working at the next begin_frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

typedef struct {
  PscTestHarness *h;
  PscCache *cache;
  PscTestObjects o;
  guint64 frame;
} Fixture;

static void
fixture_init (Fixture *f)
{
  f->h = psc_test_harness_new (TRUE);
  f->cache = psc_test_harness_cache (f->h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  psc_test_objects_init (&f->o, f->cache);
  f->frame = 1;
  psc_cache_begin_frame (f->cache, f->frame, 0);
}

/* The GPU is idle in these tests: every earlier frame is complete. */
static void
next_frames (Fixture *f, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      f->frame++;
      psc_cache_begin_frame (f->cache, f->frame, f->frame - 1);
    }
}

static guint64
counter (PscCache *cache, PscObjectKind kind, PscCounter c)
{
  return psc_cache_get_counter (cache, kind, c);
}

/* The harness's compute create info with another module and
 * specialization value (storage in *c). */
typedef struct {
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
} Compute;

static const VkComputePipelineCreateInfo *
compute_info (Compute *c, const Fixture *f, VkShaderModule module, float value)
{
  psc_test_compute_info_init (&c->ci, &c->spec, &c->entry, &c->value, &f->o);
  c->value = value;
  c->ci.stage.module = module;
  return &c->ci;
}

static VkPipeline
get_compute (Fixture *f, VkShaderModule module, float value)
{
  Compute c;
  g_autoptr(GError) error = NULL;
  VkPipeline p = psc_cache_get_compute_pipeline (f->cache, compute_info (&c, f, module, value),
                                                 &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  return p;
}

/* Evicts every idle pipeline (idle for longer than the borrowed-handle
 * window). */
static guint
evict_all (Fixture *f)
{
  next_frames (f, PSC_BORROW_FRAMES + 1);
  return psc_cache_evict (f->cache, 0);
}

/* K keys evicted and requested again, C cycles: after a warm-up the host
 * bytes of the kind stay flat (entries, keys, table and handle map reuse
 * what the evicted entries gave back), and everything retired is destroyed
 * once the timeline passes it. */
static void
churn (guint keys, guint cycles)
{
  Fixture f;
  fixture_init (&f);
  guint64 warm = 0;
  for (guint c = 0; c < cycles; c++)
    {
      for (guint k = 0; k < keys; k++)
        get_compute (&f, f.o.cs, 1.0f + (float) k);
      g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES),
                        ==, keys);
      g_assert_cmpuint (evict_all (&f), ==, keys);
      if (c == 1)
        warm = counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HOST_BYTES);
    }
  const guint64 end = counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HOST_BYTES);
  g_test_message ("%u keys x %u cycles: compute host bytes %" G_GUINT64_FORMAT
                  " after warm-up, %" G_GUINT64_FORMAT " at the end", keys, cycles, warm, end);
  g_assert_cmpuint (end, <=, warm + warm / 10);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 0);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS),
                    ==, (guint64) keys * cycles);
  next_frames (&f, PSC_BORROW_FRAMES + 2);
  g_assert_cmpuint (psc_cache_get_eviction_idle_frames (f.cache), ==, 0);
  psc_test_harness_finish (f.h);
}

static void
test_churn_one_key (void)
{
  churn (1, 3000);
}

static void
test_churn_many_keys (void)
{
  churn (1000, 4);
}

/* Registers the palette shader once more (psc_test_objects_init holds one
 * registration of the same SPIR-V: this is the same module). */
static VkShaderModule
register_palette (Fixture *f)
{
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autoptr(GError) error = NULL;
  VkShaderModule m = psc_cache_register_shader (f->cache, code, size, &error);
  g_assert_no_error (error);
  return m;
}

/* Drops every registration of the palette shader. */
static void
release_palette (Fixture *f, VkShaderModule m, guint registrations)
{
  for (guint i = 0; i < registrations; i++)
    {
      g_autoptr(GError) error = NULL;
      g_assert_true (psc_cache_release_shader (f->cache, m, &error));
      g_assert_no_error (error);
    }
}

/* After the last release, the same SPIR-V registered again is the same
 * shader (id, generation): the pipelines made from it hit again, nothing
 * is created. */
static void
test_shader_revival (void)
{
  Fixture f;
  fixture_init (&f);
  VkShaderModule m = register_palette (&f);
  g_assert_true (m == f.o.cs);
  const guint id = psc_cache_get_shader_id (f.cache, m);
  VkPipeline p = get_compute (&f, m, 3.0f);
  const guint64 pipelines = counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS);
  release_palette (&f, m, 2);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, m), ==, 0);   /* the handle is gone */
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES), ==,
                    counter (f.cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_CREATIONS) - 1);

  VkShaderModule again = register_palette (&f);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, again), ==, id);
  f.o.cs = again;
  g_assert_true (get_compute (&f, again, 3.0f) == p);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS),
                    ==, pipelines);
  psc_test_harness_finish (f.h);
}

/* Once the last registration is gone, pipelines made from the shader can no
 * longer be requested: they are retired after the borrowed-handle window
 * (destroyed once the timeline passes), and then the identity dies with
 * them: the same SPIR-V is a new shader, with a new id. */
static void
test_unreachable_retired (void)
{
  Fixture f;
  fixture_init (&f);
  VkShaderModule m = register_palette (&f);
  const guint id = psc_cache_get_shader_id (f.cache, m);
  get_compute (&f, m, 4.0f);
  get_compute (&f, m, 5.0f);
  release_palette (&f, m, 2);
  /* Within the window they stay (a handle borrowed this frame is valid). */
  next_frames (&f, PSC_BORROW_FRAMES);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 2);
  next_frames (&f, 2);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES), ==, 0);
  next_frames (&f, PSC_BORROW_FRAMES + 1);

  VkShaderModule again = register_palette (&f);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, again), !=, id);
  f.o.cs = again;
  const guint64 before = counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS);
  get_compute (&f, again, 4.0f);
  g_assert_cmpuint (counter (f.cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS),
                    ==, before + 1);
  psc_test_harness_finish (f.h);
}

/* An id from before its slot was reused is refused, never aliased. */
static void
test_stale_shader_id (void)
{
  Fixture f;
  fixture_init (&f);
  gsize size_a, size_b;
  const guint32 *a = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_LIT, &size_a);
  const guint32 *b = psc_demo_shader_spirv (PSC_DEMO_SHADER_FS_TEXTURED, &size_b);
  g_autoptr(GBytes) bytes_a = g_bytes_new (a, size_a);
  g_autoptr(GBytes) bytes_b = g_bytes_new (b, size_b);
  g_autoptr(GError) error = NULL;
  /* psc_test_objects_init did not register these two. */
  const guint id_a = psc_cache_register_shader_bytes (f.cache, bytes_a, &error);
  g_assert_no_error (error);
  g_assert_true (psc_cache_release_shader_id (f.cache, id_a, &error));
  const guint id_b = psc_cache_register_shader_bytes (f.cache, bytes_b, &error);
  g_assert_no_error (error);
  /* The same slot, another generation. */
  g_assert_cmpuint (id_b, !=, id_a);
  g_assert_false (psc_cache_release_shader_id (f.cache, id_a, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_clear_error (&error);
  g_assert_true (psc_cache_release_shader_id (f.cache, id_b, &error));
  g_assert_no_error (error);
  psc_test_harness_finish (f.h);
}

static guint32
prepare_compute (Fixture *f, VkShaderModule module, float value)
{
  Compute c;
  g_autoptr(GError) error = NULL;
  guint32 key = psc_cache_prepare_compute_pipeline (f->cache, compute_info (&c, f, module, value),
                                                    &error);
  g_assert_no_error (error);
  return key;
}

/* A prepared key answers the same way whatever path fetched its pipeline
 * before the shader's last release: refused while the shader is released,
 * the same pipeline once the same SPIR-V is registered again. */
static void
prepared_after_release (gboolean fetched_prepared)
{
  Fixture f;
  fixture_init (&f);
  VkShaderModule m = register_palette (&f);
  const guint32 key = prepare_compute (&f, m, 6.0f);
  g_autoptr(GError) error = NULL;
  VkPipeline p;
  if (fetched_prepared)
    p = psc_cache_get_prepared_pipeline (f.cache, key, &error);
  else
    p = get_compute (&f, m, 6.0f);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  g_assert_true (psc_cache_get_prepared_pipeline (f.cache, key, &error) == p);
  g_assert_no_error (error);

  release_palette (&f, m, 2);
  g_assert_true (psc_cache_get_prepared_pipeline (f.cache, key, &error) == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  g_assert_nonnull (strstr (error->message, "register the same SPIR-V again"));
  g_clear_error (&error);

  VkShaderModule again = register_palette (&f);
  f.o.cs = again;
  g_assert_true (psc_cache_get_prepared_pipeline (f.cache, key, &error) == p);
  g_assert_no_error (error);
  psc_test_harness_finish (f.h);
}

static void
test_prepared_after_release_direct (void)
{
  prepared_after_release (FALSE);
}

static void
test_prepared_after_release_prepared (void)
{
  prepared_after_release (TRUE);
}

/* After a hot reload the replaced module's handle names the shader at its
 * new generation until the next begin_frame; from then on it is foreign. */
static void
test_reload_old_handle (void)
{
  Fixture f;
  fixture_init (&f);
  gsize size;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  g_autofree guint32 *changed = g_memdup2 (code, size);
  changed[size / 4 - 1] ^= 0;   /* same words: a reload may keep the code */
  g_autoptr(GError) error = NULL;
  VkShaderModule old = f.o.cs;
  const guint id = psc_cache_get_shader_id (f.cache, old);
  VkShaderModule m = psc_cache_replace_shader (f.cache, old, changed, size, VK_NULL_HANDLE, &error);
  g_assert_no_error (error);
  g_assert_true (m != old);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, m), ==, id);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, old), ==, id);
  VkPipeline by_old = get_compute (&f, old, 7.0f);
  g_assert_true (get_compute (&f, m, 7.0f) == by_old);

  next_frames (&f, 1);
  g_assert_cmpuint (psc_cache_get_shader_id (f.cache, old), ==, 0);
  Compute c;
  g_assert_true (psc_cache_get_compute_pipeline (f.cache, compute_info (&c, &f, old, 7.0f), &error)
                 == VK_NULL_HANDLE);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FOREIGN_HANDLE);
  f.o.cs = m;
  psc_test_harness_finish (f.h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lifetimes/churn-one-key", test_churn_one_key);
  g_test_add_func ("/lifetimes/churn-many-keys", test_churn_many_keys);
  g_test_add_func ("/lifetimes/shader-revival", test_shader_revival);
  g_test_add_func ("/lifetimes/unreachable-retired", test_unreachable_retired);
  g_test_add_func ("/lifetimes/stale-shader-id", test_stale_shader_id);
  g_test_add_func ("/lifetimes/prepared-after-release-direct", test_prepared_after_release_direct);
  g_test_add_func ("/lifetimes/prepared-after-release-prepared", test_prepared_after_release_prepared);
  g_test_add_func ("/lifetimes/reload-old-handle", test_reload_old_handle);
  return g_test_run ();
}
