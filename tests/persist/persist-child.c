/* persist-child.c: a process that uses a persistent cache, for the
 * persistence tests that need several processes or a killed one
 * (test-persist-processes.c, test-tool.sh). Headless device (lavapipe
 * through VK_DRIVER_FILES), no validation layer: it starts fast.
 *
 *   persist-child write DIR             one pipeline, save, close
 *   persist-child save-loop DIR         prints "ready", then creates and
 *                                       saves forever (until killed)
 *   persist-child churn DIR ROUNDS ID   ROUNDS times: open, create
 *                                       pipelines of its own (ID), save,
 *                                       close; exit 1 if any load rejected
 *                                       a file or any save failed
 *   persist-child prewarm-crash DIR     starts prewarm and ends the process
 *                                       at once (_exit) while its compiles are
 *                                       in flight, as a driver crash would
 *   persist-child prewarm DIR BANNED    prewarm to the end; exit 1 unless
 *                                       exactly BANNED recipes were skipped
 *                                       as banned and the rest prewarmed
 *   persist-child craft MUTATION IN OUT a damaged copy (craft.h), or with
 *                                       MUTATION "foreign": a valid file of
 *                                       another device (another
 *                                       pipelineCacheUUID in the header and
 *                                       in the Vulkan data)
 *   persist-child scene APP-ID BACKEND  the demo scene (2 frames) with a cache
 *                                       of application APP-ID (under
 *                                       $XDG_CACHE_HOME), backend auto or
 *                                       legacy; close (its recipes recorded)
 *   persist-child check-recipes BACKEND FILE...
 *                                       the demo scene with a cache in
 *                                       memory, then every recipe JSON
 *                                       document of FILE... (a .jsonl file:
 *                                       one per line) loaded and requested:
 *                                       exit 1 unless each gives a pipeline
 *                                       and none is created (each recipe is
 *                                       one of the scene's pipelines)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>
#include "psc-test-hooks.h"
#include "scene.h"
#include "sanitizer.h"
#include "craft.h"
#include "formats/driver-file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  PscCache *cache;
  VkShaderModule shader;
  VkPipelineLayout layout;
} Child;

static void
die (const char *what, GError *error)
{
  fprintf (stderr, "persist-child: %s: %s\n", what, error != NULL ? error->message : "failed");
  exit (3);
}

static void
child_open (Child *c, PscDevice *device, const char *dir, gboolean always_write)
{
  PscCoreTestHooks hooks = { .persist_always_write = always_write };
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  gsize size = 0;
  const guint32 *code = psc_demo_shader_spirv (PSC_DEMO_SHADER_CS_PALETTE, &size);
  const VkDescriptorSetLayoutBinding binding = {
    0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL
  };
  const VkDescriptorSetLayoutCreateInfo set_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1,
    .pBindings = &binding,
  };
  const VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 };
  VkDescriptorSetLayout set;

  options.cache_directory = dir;
  options.workers = 1;
  c->cache = psc_cache_new_with_hooks (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options,
                                       &hooks, &error);
  if (c->cache == NULL)
    die ("cache", error);
  c->shader = psc_cache_register_shader (c->cache, code, size, &error);
  set = psc_cache_get_descriptor_set_layout (c->cache, &set_info, &error);
  if (c->shader == VK_NULL_HANDLE || set == VK_NULL_HANDLE)
    die ("objects", error);
  {
    const VkPipelineLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
      .pSetLayouts = &set, .pushConstantRangeCount = 1, .pPushConstantRanges = &push,
    };
    c->layout = psc_cache_get_pipeline_layout (c->cache, &info, &error);
    if (c->layout == VK_NULL_HANDLE)
      die ("layout", error);
  }
}

static void
child_pipeline (Child *c, float saturation)
{
  g_autoptr(GError) error = NULL;
  const VkSpecializationMapEntry entry = { 0, 0, sizeof (float) };
  const VkSpecializationInfo spec = { 1, &entry, sizeof saturation, &saturation };
  const VkComputePipelineCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
    .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = c->shader, .pName = "main",
               .pSpecializationInfo = &spec },
    .layout = c->layout,
  };
  if (psc_cache_get_compute_pipeline (c->cache, &info, &error) == VK_NULL_HANDLE)
    die ("pipeline", error);
}

static guint64
child_counter (Child *c, PscPersistCounter counter)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (c->cache);
  return psc_stats_get_persist (s, counter);
}

static int
run_write (PscDevice *device, const char *dir)
{
  g_autoptr(GError) error = NULL;
  Child c;

  child_open (&c, device, dir, FALSE);
  child_pipeline (&c, 0.5f);
  if (!psc_cache_save (c.cache, &error))
    die ("save", error);
  g_object_unref (c.cache);
  return 0;
}

G_NORETURN static void
run_save_loop (PscDevice *device, const char *dir)
{
  Child c;

  /* Every save writes (on lavapipe the data never changes), so kills land
   * inside writes. */
  child_open (&c, device, dir, TRUE);
  printf ("ready\n");
  fflush (stdout);
  for (guint i = 0;; i++)
    {
      g_autoptr(GError) error = NULL;
      child_pipeline (&c, (float) i / 1024.0f);
      if (!psc_cache_save (c.cache, &error))
        die ("save", error);
    }
}

static int
run_churn (PscDevice *device, const char *dir, guint rounds, guint id)
{
  guint64 rejected = 0, failures = 0, saves = 0, skipped = 0, merges = 0;

  for (guint r = 0; r < rounds; r++)
    {
      Child c;

      child_open (&c, device, dir, FALSE);
      rejected += child_counter (&c, PSC_PERSIST_COUNTER_REJECTED_TOTAL);
      for (guint p = 0; p < 4; p++)
        child_pipeline (&c, (float) (id * 1000 + r * 4 + p) / 65536.0f);
      psc_cache_close (c.cache, 0);
      failures += child_counter (&c, PSC_PERSIST_COUNTER_SAVE_FAILURES);
      saves += child_counter (&c, PSC_PERSIST_COUNTER_SAVES);
      skipped += child_counter (&c, PSC_PERSIST_COUNTER_SAVES_SKIPPED);
      merges += child_counter (&c, PSC_PERSIST_COUNTER_MERGES);
      g_object_unref (c.cache);
    }
  fprintf (stderr, "child %u: %u rounds, %" G_GUINT64_FORMAT " saves (%" G_GUINT64_FORMAT
          " with nothing new to write), %" G_GUINT64_FORMAT " merges, %" G_GUINT64_FORMAT
          " rejected loads, %" G_GUINT64_FORMAT " failed saves\n",
          id, rounds, saves, skipped, merges, rejected, failures);
  return rejected == 0 && failures == 0 && saves + skipped == rounds ? 0 : 1;
}

/* Another device's consistent file: the UUID changed in both headers. */
static int
write_foreign (const guint8 *data, gsize len, const char *out)
{
  g_autoptr(GError) error = NULL;
  PscDriverFileInfo info;
  uint8_t *blob = NULL, *file = NULL;
  size_t blob_len = 0, file_len = 0;

  if (psc_driver_file_read (data, len, NULL, PSC_DRIVER_FILE_DEFAULT_MAX_RAW, &blob, &blob_len,
                            &info) != PSC_FILE_OK || blob_len < 32)
    die ("foreign: the input is not a valid driver file", NULL);
  info.identity.uuid[0] ^= 0xff;
  blob[16] ^= 0xff;
  if (psc_driver_file_write (&info.identity, blob, blob_len, TRUE, 3, info.written_at,
                             &file, &file_len) != PSC_FILE_OK)
    die ("foreign: write", NULL);
  if (!g_file_set_contents (out, (const char *) file, (gssize) file_len, &error))
    die (out, error);
  free (blob);
  free (file);
  return 0;
}

static int
run_prewarm (PscDevice *device, const char *dir, gboolean crash, guint expect_banned)
{
  g_autoptr(GError) error = NULL;
  guint64 loaded, stale, prewarmed;
  Child c;

  child_open (&c, device, dir, FALSE);   /* registers the shader */
  if (!psc_cache_prewarm (c.cache, &error))
    die ("prewarm", error);
  if (crash)
    _exit (0);
  for (guint64 frame = 1; !psc_cache_get_prewarm_done (c.cache); frame++)
    {
      psc_cache_begin_frame (c.cache, frame, frame);
      g_usleep (500);
    }
  loaded = child_counter (&c, PSC_PERSIST_COUNTER_RECIPES_LOADED);
  stale = child_counter (&c, PSC_PERSIST_COUNTER_RECIPES_STALE);
  prewarmed = child_counter (&c, PSC_PERSIST_COUNTER_RECIPES_PREWARMED);
  fprintf (stderr, "prewarm: %" G_GUINT64_FORMAT " loaded, %" G_GUINT64_FORMAT " skipped, %"
           G_GUINT64_FORMAT " prewarmed\n", loaded, stale, prewarmed);
  g_object_unref (c.cache);
  return stale == expect_banned && prewarmed + stale == MIN (loaded, 32) ? 0 : 1;
}

static PscBackend
backend_arg (const char *name)
{
  return g_str_equal (name, "legacy") ? PSC_BACKEND_LEGACY : PSC_BACKEND_AUTO;
}

static void
scene_on (PscCache *cache, PscBackend backend)
{
  g_autoptr(GError) error = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult result = { 0 };

  psc_demo_scene_options_init (&options);
  options.backend = backend;
  options.frames = 2;
  options.resize_at_frame = 0;
  if (!psc_demo_scene_run (cache, &options, &result, &error))
    die ("scene", error);
  psc_demo_scene_result_clear (&result);
}

static int
run_scene (PscDevice *device, const char *app_id, const char *backend)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscCache) cache = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;

  options.application_id = app_id;
  options.workers = 1;
  cache = psc_cache_new_full (device, backend_arg (backend), PSC_CACHE_FLAGS_NONE, &options,
                              &error);
  if (cache == NULL)
    die ("cache", error);
  scene_on (cache, backend_arg (backend));
  psc_cache_close (cache, 0);
  return 0;
}

static guint64
pipeline_creations (PscCache *cache)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_counter (s, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_CREATIONS) +
         psc_stats_get_counter (s, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS);
}

static gboolean
check_recipe (PscCache *cache, const char *json, gssize len, const char *where, guint *n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = psc_recipe_new_from_json (json, len, &error);

  if (recipe == NULL || psc_cache_get_pipeline_for_recipe (cache, recipe, &error) == 0)
    {
      fprintf (stderr, "persist-child: %s: %s\n", where, error->message);
      return FALSE;
    }
  (*n)++;
  return TRUE;
}

static int
run_check_recipes (PscDevice *device, const char *backend, char **files)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscCache) cache = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  guint64 before, after;
  guint n = 0;
  gboolean ok = TRUE;

  options.workers = 1;
  cache = psc_cache_new_full (device, backend_arg (backend), PSC_CACHE_FLAGS_NONE, &options,
                              &error);
  if (cache == NULL)
    die ("cache", error);
  scene_on (cache, backend_arg (backend));
  before = pipeline_creations (cache);
  for (char **f = files; *f != NULL; f++)
    {
      g_autofree char *data = NULL;
      gsize len = 0;

      if (!g_file_get_contents (*f, &data, &len, &error))
        die (*f, error);
      if (!g_str_has_suffix (*f, ".jsonl"))
        ok &= check_recipe (cache, data, (gssize) len, *f, &n);
      else
        {
          g_auto(GStrv) lines = g_strsplit (data, "\n", -1);
          for (guint i = 0; lines[i] != NULL; i++)
            if (lines[i][0] != '\0')
              ok &= check_recipe (cache, lines[i], -1, *f, &n);
        }
    }
  after = pipeline_creations (cache);
  fprintf (stderr, "check-recipes: %u recipes, %" G_GUINT64_FORMAT " pipelines created by the "
           "scene, %" G_GUINT64_FORMAT " by the recipes\n", n, before, after - before);
  psc_cache_close (cache, 0);
  return ok && n > 0 && after == before ? 0 : 1;
}

static int
run_craft (const char *mutation, const char *in, const char *out)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0, n;

  if (!g_file_get_contents (in, &data, &len, &error))
    die (in, error);
  if (g_str_equal (mutation, "foreign"))
    {
      int status = write_foreign ((const guint8 *) data, len, out);
      g_free (data);
      return status;
    }
  data = g_realloc (data, len + 16);
  n = psc_test_craft_driver_file (mutation, (guint8 *) data, len);
  if (n == (gsize) -1)
    die (mutation, NULL);
  if (!g_file_set_contents (out, data, (gssize) n, &error))
    die (out, error);
  g_free (data);
  return 0;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;

  if (argc == 5 && g_str_equal (argv[1], "craft"))
    return run_craft (argv[2], argv[3], argv[4]);
  if (argc < 3)
    {
      fprintf (stderr, "usage: persist-child write|save-loop|churn|craft ...\n");
      return 2;
    }
  psc_demo_keep_driver_resident ();
  device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("device", error);
  if (g_str_equal (argv[1], "write"))
    return run_write (device, argv[2]);
  if (g_str_equal (argv[1], "save-loop"))
    run_save_loop (device, argv[2]);
  if (g_str_equal (argv[1], "prewarm-crash"))
    return run_prewarm (device, argv[2], TRUE, 0);
  if (g_str_equal (argv[1], "prewarm") && argc == 4)
    return run_prewarm (device, argv[2], FALSE, (guint) atoi (argv[3]));
  if (g_str_equal (argv[1], "scene") && argc == 4)
    return run_scene (device, argv[2], argv[3]);
  if (g_str_equal (argv[1], "check-recipes") && argc >= 4)
    return run_check_recipes (device, argv[2], argv + 3);
  if (g_str_equal (argv[1], "churn") && argc == 5)
    return run_churn (device, argv[2], (guint) atoi (argv[3]), (guint) atoi (argv[4]));
  fprintf (stderr, "persist-child: unknown mode %s\n", argv[1]);
  return 2;
}
