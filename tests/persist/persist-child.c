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
  if (g_str_equal (argv[1], "churn") && argc == 5)
    return run_churn (device, argv[2], (guint) atoi (argv[3]), (guint) atoi (argv[4]));
  fprintf (stderr, "persist-child: unknown mode %s\n", argv[1]);
  return 2;
}
