/* test-persist.c: persistent layer 1 (the driver pipeline-cache file) on
 * lavapipe with validation, with real files under a private
 * $XDG_CACHE_HOME: where a cache persists and
 * when it does not, the user's knobs, unsafe directories, every kind of
 * bad file (each reported with its reason, each rendering the same image as
 * a cold start), a symbolic link or a directory in the file's place,
 * failed writes, two caches saving the same file, temporary-file cleanup,
 * the age and quota rules, a driver update, and the bytes API.
 *
 * Lavapipe's VkPipelineCache data is a 32-byte header: these tests prove
 * the file handling, not a warm-start speed-up (psc-bench warm does, on
 * real hardware).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"
#include "psc-test-hooks.h"
#include "craft.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#define APP_ID "io.github.psocache.PersistTest"

static PscCache *
persist_cache (PscTestHarness *h, const char *app_id, const char *dir,
               const PscCoreTestHooks *hooks)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscCache *cache;

  options.application_id = app_id;
  options.cache_directory = dir;
  options.workers = 1;
  cache = psc_cache_new_with_hooks (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                                    &options, hooks, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cache);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

static guint64
persist_count (PscCache *cache, PscPersistCounter c)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_persist (s, c);
}

static guint64
rejections (PscCache *cache, const char *reason)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  g_autoptr(GVariant) v = psc_stats_to_variant (s);
  g_autofree char *key = g_strconcat ("persistence.rejected.", reason, NULL);
  guint64 n = 0;
  g_assert_true (g_variant_lookup (v, key, "t", &n));
  return n;
}

/* A compute pipeline with a specialization value, so every call with a new
 * value creates something (the driver cache changes). */
static VkPipeline
make_pipeline (PscCache *cache, float value)
{
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  VkPipeline p;

  float v;

  psc_test_objects_init (&o, cache);
  psc_test_compute_info_init (&ci, &spec, &entry, &v, &o);
  spec.pData = &value;     /* the caller's value, not the default */
  p = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_true (p != VK_NULL_HANDLE);
  return p;
}

/* The one driver file of a directory (its name). */
static char *
driver_file_in (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "driver-") && g_str_has_suffix (name, ".pscache"))
      {
        g_assert_null (found);
        found = g_build_filename (dir, name, NULL);
      }
  return found;
}

static char *
new_dir (const char *name)
{
  char *dir = g_build_filename (g_get_user_cache_dir (), name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* Creates a cache on @dir, makes a pipeline, closes it: @dir then holds
 * this device's driver file, whose path is returned. */
static char *
seed_dir (PscTestHarness *h, const char *dir)
{
  PscCache *cache = persist_cache (h, NULL, dir, NULL);
  make_pipeline (cache, 1.0f);
  psc_test_harness_drop_cache (h, cache);
  return driver_file_in (dir);
}

/* ------------------------------------------------------------------------ */

static void
test_off (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autoptr(GError) error = NULL;
  PscCache *cache = persist_cache (h, NULL, NULL, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PscStats) stats = NULL;

  g_assert_null (psc_cache_get_cache_directory (cache));
  g_assert_false (psc_cache_save (cache, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* The bytes API works without a directory. */
  make_pipeline (cache, 2.0f);
  bytes = psc_cache_save_to_bytes (cache, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, 96);
  g_assert_true (psc_cache_load_bytes (cache, bytes, &error));
  g_assert_no_error (error);
  stats = psc_cache_get_stats (cache);
  g_assert_false (psc_stats_get_persistence_enabled (stats));
  g_assert_cmpuint (psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 1);

  /* Nothing was written anywhere. */
  {
    g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "psocache", NULL);
    g_assert_false (g_file_test (root, G_FILE_TEST_EXISTS));
  }
  psc_test_harness_finish (h);
}

static void
test_bad_arguments (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  const char *bad_ids[] = { "not an id", "nodots", ".starts.with.dot", "a..b", "" };

  for (guint i = 0; i < G_N_ELEMENTS (bad_ids); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PscCache) cache = g_initable_new (PSC_TYPE_CACHE, NULL, &error,
                                                  "device", h->psc_device,
                                                  "application-id", bad_ids[i], NULL);
      g_assert_null (cache);
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "application-id"));
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PscCache) cache = g_initable_new (PSC_TYPE_CACHE, NULL, &error,
                                                "device", h->psc_device,
                                                "cache-directory", "relative/dir", NULL);
    g_assert_null (cache);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "cache-directory"));
  }
  psc_test_harness_finish (h);
}

static void
test_save_and_load (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *expected = g_build_filename (g_get_user_cache_dir (), "psocache", APP_ID ".Load",
                                                NULL);
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;
  PscCache *cache = persist_cache (h, APP_ID ".Load", NULL, NULL);
  struct stat st;

  g_assert_cmpstr (psc_cache_get_cache_directory (cache), ==, expected);
  g_assert_cmpint (g_stat (expected, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 0);

  make_pipeline (cache, 3.0f);
  /* The harness's device is Vulkan 1.3: the driver reports through
   * creation feedback whether its cache served the creation. */
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS) +
                    persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES), ==, 1);
  g_assert_true (psc_cache_save (cache, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES), ==, 1);
  /* Nothing changed: skipped. */
  g_assert_true (psc_cache_save (cache, &error));
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES), ==, 1);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES_SKIPPED), ==, 1);
  psc_test_harness_drop_cache (h, cache);

  file = driver_file_in (expected);
  g_assert_nonnull (file);
  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0077, ==, 0);

  cache = persist_cache (h, APP_ID ".Load", NULL, NULL);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 1);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED), >=, 32);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  /* Closing without a change writes nothing. */
  psc_cache_close (cache, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES), ==, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES_SKIPPED), ==, 1);
  psc_test_harness_finish (h);
}

static void
test_environment (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *root = new_dir ("elsewhere");
  g_autofree char *expected = g_build_filename (root, APP_ID, NULL);
  g_autofree char *explicit_dir = new_dir ("explicit");
  PscCache *cache;

  g_setenv ("PSOCACHE_DIR", root, TRUE);
  cache = persist_cache (h, APP_ID, NULL, NULL);
  g_assert_cmpstr (psc_cache_get_cache_directory (cache), ==, expected);
  psc_test_harness_drop_cache (h, cache);
  /* An application's own directory is not moved. */
  cache = persist_cache (h, APP_ID, explicit_dir, NULL);
  g_assert_cmpstr (psc_cache_get_cache_directory (cache), ==, explicit_dir);
  psc_test_harness_drop_cache (h, cache);
  g_unsetenv ("PSOCACHE_DIR");

  for (guint i = 0; i < 3; i++)
    {
      const char *on[] = { "1", "true", "YES" };
      g_setenv ("PSOCACHE_DISABLE", on[i], TRUE);
      cache = persist_cache (h, APP_ID, explicit_dir, NULL);
      g_assert_null (psc_cache_get_cache_directory (cache));
      psc_test_harness_drop_cache (h, cache);
    }
  g_setenv ("PSOCACHE_DISABLE", "0", TRUE);
  cache = persist_cache (h, APP_ID, explicit_dir, NULL);
  g_assert_cmpstr (psc_cache_get_cache_directory (cache), ==, explicit_dir);
  psc_test_harness_drop_cache (h, cache);
  g_unsetenv ("PSOCACHE_DISABLE");

  /* A quota smaller than our own file: other identities would go, ours stays. */
  g_setenv ("PSOCACHE_MAX_SIZE", "1K", TRUE);
  cache = persist_cache (h, APP_ID, explicit_dir, NULL);
  make_pipeline (cache, 4.0f);
  psc_test_harness_drop_cache (h, cache);
  {
    g_autofree char *ours = driver_file_in (explicit_dir);
    g_assert_nonnull (ours);
  }
  g_setenv ("PSOCACHE_MAX_SIZE", "lots", TRUE);
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*PSOCACHE_MAX_SIZE=lots*");
  cache = persist_cache (h, APP_ID, explicit_dir, NULL);
  g_test_assert_expected_messages ();
  psc_test_harness_drop_cache (h, cache);
  g_unsetenv ("PSOCACHE_MAX_SIZE");
  psc_test_harness_finish (h);
}

static void
test_unsafe_directory (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *open_dir = new_dir ("world-writable");
  g_autofree char *foreign = NULL;
  PscCache *cache;

  g_assert_cmpint (g_chmod (open_dir, 0777), ==, 0);
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*writable by its group or by others*");
  cache = persist_cache (h, NULL, open_dir, NULL);
  g_test_assert_expected_messages ();
  g_assert_null (psc_cache_get_cache_directory (cache));
  make_pipeline (cache, 5.0f);     /* works in memory */
  psc_test_harness_drop_cache (h, cache);
  g_assert_null (driver_file_in (open_dir));

  /* Owned by another user: as root, give a directory away; otherwise a
   * system directory is someone else's already. */
  if (geteuid () == 0)
    {
      foreign = new_dir ("foreign");
      g_assert_cmpint (chown (foreign, 65534, 65534), ==, 0);
    }
  else
    foreign = g_strdup ("/usr/share");
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*belongs to another user*");
  cache = persist_cache (h, NULL, foreign, NULL);
  g_test_assert_expected_messages ();
  g_assert_null (psc_cache_get_cache_directory (cache));
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

/* ------------------------------------------------------------------------
 * Render identity: the scene through a cache on each kind of directory
 * renders the image of a cold start, and each bad file is reported with its
 * reason.
 */
static void
render_on (PscTestHarness *h, const char *dir, PscDemoSceneResult *result, PscCache **out)
{
  g_autoptr(GError) error = NULL;
  PscCache *cache = persist_cache (h, NULL, dir, NULL);
  PscDemoSceneOptions options;

  psc_test_scene_options_init (&options);
  options.frames = 1;
  g_assert_true (psc_demo_scene_run (cache, &options, result, &error));
  g_assert_no_error (error);
  *out = cache;
}

static void
assert_same_image (const PscDemoSceneResult *a, const PscDemoSceneResult *b, const char *what)
{
  guint max_diff = 0;
  gsize differing;

  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  differing = psc_test_compare_images (a->pixels, b->pixels, a->width, a->height, &max_diff);
  if (differing != 0)
    g_test_message ("%s: %" G_GSIZE_FORMAT " pixels differ", what, differing);
  g_assert_cmpuint (differing, ==, 0);
}

static guint8 *
read_file (const char *path, gsize *len)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  g_assert_true (g_file_get_contents (path, &data, len, &error));
  g_assert_no_error (error);
  data = g_realloc (data, *len + 16);
  return (guint8 *) data;
}

/* A fresh directory for a condition; *file is where its driver file goes. */
static char *
condition_dir (const char *condition, const char *base, char **file)
{
  g_autofree char *name = g_strconcat ("identity-", condition, NULL);
  char *dir = new_dir (name);
  *file = g_build_filename (dir, base, NULL);
  return dir;
}

/* Renders on @dir: the image must be @cold's; @reason (NULL: none) must be
 * the one rejection counted. Returns the cache's save failures. */
static guint64
check_condition (PscTestHarness *h, const PscDemoSceneResult *cold, const char *dir,
                 const char *what, const char *reason)
{
  PscDemoSceneResult result = { 0 };
  PscCache *cache = NULL;
  guint64 failures;

  render_on (h, dir, &result, &cache);
  assert_same_image (cold, &result, what);
  if (reason != NULL)
    g_assert_cmpuint (rejections (cache, reason), ==, 1);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, reason != NULL);
  psc_cache_close (cache, 0);
  failures = persist_count (cache, PSC_PERSIST_COUNTER_SAVE_FAILURES);
  psc_test_harness_drop_cache (h, cache);
  psc_demo_scene_result_clear (&result);
  return failures;
}

static void
test_render_identity (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *cold_dir = new_dir ("cold");
  g_autofree char *file = NULL, *base = NULL;
  g_autofree guint8 *data = NULL;
  PscDemoSceneResult cold = { 0 };
  PscCache *cache = NULL;
  gsize len = 0;

  /* Cold: nothing to load; the close saves. */
  render_on (h, cold_dir, &cold, &cache);
  g_assert_cmpuint (psc_test_count_colors (cold.pixels, cold.width, cold.height), >, 16);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  psc_test_harness_drop_cache (h, cache);
  file = driver_file_in (cold_dir);
  g_assert_nonnull (file);
  base = g_path_get_basename (file);
  data = read_file (file, &len);

  /* Warm: the file is loaded. */
  {
    PscDemoSceneResult warm = { 0 };
    render_on (h, cold_dir, &warm, &cache);
    assert_same_image (&cold, &warm, "warm");
    g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 1);
    psc_test_harness_drop_cache (h, cache);
    psc_demo_scene_result_clear (&warm);
  }

  for (const PscTestMutation *m = psc_test_mutations; m->name != NULL; m++)
    {
      g_autofree char *target = NULL;
      g_autofree char *dir = condition_dir (m->name, base, &target);
      g_autofree guint8 *copy = g_memdup2 (data, len + 16);
      gsize n = psc_test_craft_driver_file (m->name, copy, len);
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (n, !=, (gsize) -1);
      g_assert_true (g_file_set_contents (target, (const char *) copy, (gssize) n, &error));
      g_test_message ("%s: expecting %s", m->name, m->reason);
      g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*was not used*");
      check_condition (h, &cold, dir, m->name, m->reason);
      g_test_assert_expected_messages ();
    }

  /* A directory where the file should be: not read, not replaced. */
  {
    g_autofree char *target = NULL;
    g_autofree char *dir = condition_dir ("directory", base, &target);
    g_assert_cmpint (g_mkdir (target, 0700), ==, 0);
    g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*was not used*");
    g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*not a regular file*");
    g_assert_cmpuint (check_condition (h, &cold, dir, "directory", "not-regular"), ==, 1);
    g_test_assert_expected_messages ();
    g_assert_true (g_file_test (target, G_FILE_TEST_IS_DIR));
  }

  /* A symbolic link to a valid file: never followed, never written through. */
  {
    g_autofree char *target = NULL;
    g_autofree char *dir = condition_dir ("symlink", base, &target);
    g_autofree char *elsewhere = g_build_filename (dir, "elsewhere", NULL);
    g_autofree guint8 *after = NULL;
    gsize after_len = 0;

    g_assert_true (g_file_set_contents (elsewhere, (const char *) data, (gssize) len, NULL));
    g_assert_cmpint (symlink (elsewhere, target), ==, 0);
    g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*was not used*");
    g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*symbolic link*");
    g_assert_cmpuint (check_condition (h, &cold, dir, "symlink", "symlink"), ==, 1);
    g_test_assert_expected_messages ();
    g_assert_true (g_file_test (target, G_FILE_TEST_IS_SYMLINK));
    after = read_file (elsewhere, &after_len);
    g_assert_cmpmem (after, after_len, data, len);
  }

  /* Absent: a directory without the file. */
  {
    g_autofree char *target = NULL;
    g_autofree char *dir = condition_dir ("absent", base, &target);
    check_condition (h, &cold, dir, "absent", NULL);
    g_assert_true (g_file_test (target, G_FILE_TEST_IS_REGULAR));
  }

  /* Disabled: nothing read or written. */
  {
    g_autofree char *target = NULL;
    g_autofree char *dir = condition_dir ("disabled", base, &target);
    g_setenv ("PSOCACHE_DISABLE", "1", TRUE);
    check_condition (h, &cold, dir, "disabled", NULL);
    g_unsetenv ("PSOCACHE_DISABLE");
    g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
  }

  psc_demo_scene_result_clear (&cold);
  psc_test_harness_finish (h);
}

/* ------------------------------------------------------------------------
 * Writes that fail, and two caches saving one file.
 */
static void
test_write_failure (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("full-disk");
  g_autofree char *file = seed_dir (h, dir);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *before = NULL, *after = NULL;
  gsize before_len = 0, after_len = 0;
  /* Every save writes: lavapipe's data never changes, so a save would be skipped. */
  PscCoreTestHooks hooks = { .persist_write_error = G_IO_ERROR_NO_SPACE, .persist_always_write = TRUE };
  PscCache *cache;

  before = read_file (file, &before_len);
  cache = persist_cache (h, NULL, dir, &hooks);
  make_pipeline (cache, 6.0f);
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*saving*failed*");
  g_assert_false (psc_cache_save (cache, &error));
  g_test_assert_expected_messages ();
  g_assert_error (error, PSC_ERROR, PSC_ERROR_IO);
  g_clear_error (&error);
  /* One warning only; the close's save fails too, quietly. */
  make_pipeline (cache, 7.0f);
  g_assert_false (psc_cache_save (cache, &error));
  g_clear_error (&error);
  psc_cache_close (cache, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVE_FAILURES), ==, 3);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_SAVES), ==, 0);
  psc_test_harness_drop_cache (h, cache);
  after = read_file (file, &after_len);
  g_assert_cmpmem (after, after_len, before, before_len);
  psc_test_harness_finish (h);
}

static void
test_two_writers (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("two-writers");
  g_autoptr(GError) error = NULL;
  PscCache *a = persist_cache (h, NULL, dir, NULL);
  PscCache *b = persist_cache (h, NULL, dir, NULL);

  /* Neither found a file. b creates it; a then finds one it never read. */
  make_pipeline (b, 8.0f);
  g_assert_true (psc_cache_save (b, &error));
  g_assert_no_error (error);
  g_usleep (1100 * 1000);
  make_pipeline (a, 9.0f);
  g_assert_true (psc_cache_save (a, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (persist_count (a, PSC_PERSIST_COUNTER_MERGES), ==, 1);
  g_assert_cmpuint (persist_count (a, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED), >=, 32);
  /* a replaced b's file since b wrote it. If b's data changed, b merges
   * a's file in before it replaces it; if it did not (lavapipe's Vulkan
   * data is always the same 32-byte header), b writes nothing and a's
   * file stays: either way nothing of a's is lost. */
  {
    g_autofree char *file = driver_file_in (dir);
    gsize before_len = 0, after_len = 0;
    g_autofree guint8 *before = read_file (file, &before_len);
    g_autofree guint8 *after = NULL;

    make_pipeline (b, 10.0f);
    g_assert_true (psc_cache_save (b, &error));
    g_assert_no_error (error);
    after = read_file (file, &after_len);
    if (persist_count (b, PSC_PERSIST_COUNTER_MERGES) == 0)
      {
        g_assert_cmpuint (persist_count (b, PSC_PERSIST_COUNTER_SAVES_SKIPPED), ==, 1);
        g_assert_cmpmem (after, after_len, before, before_len);
      }
    else
      g_assert_cmpuint (persist_count (b, PSC_PERSIST_COUNTER_SAVES), ==, 2);
  }
  g_assert_cmpuint (persist_count (a, PSC_PERSIST_COUNTER_REJECTED_TOTAL) +
                    persist_count (b, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  psc_test_harness_finish (h);
}

/* ------------------------------------------------------------------------
 * Housekeeping: stale temporary files, unused identities, the quota, a
 * driver update.
 */
static void
write_aged (const char *dir, const char *name, gsize size, gint64 age_s)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *zeros = g_malloc0 (size);
  const gint64 t = g_get_real_time () / G_USEC_PER_SEC - age_s;

  g_assert_true (g_file_set_contents (path, zeros, (gssize) size, NULL));
  {
    struct timespec times[2] = { { (time_t) t, 0 }, { (time_t) t, 0 } };
    g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  }
}

static gboolean
exists_in (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Our file's name with its driver-version field replaced. */
static char *
other_driver_version (const char *base)
{
  /* "driver-VVVVVVVV-DDDDDDDD-XXXXXXXX-..." */
  char *s = g_strdup (base);
  g_assert_cmpuint (strlen (s), >, 34);
  memcpy (s + 25, s[25] == 'f' ? "00000000" : "ffffffff", 8);
  return s;
}

static void
test_housekeeping (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("housekeeping");
  g_autofree char *file = seed_dir (h, dir);
  g_autofree char *base = g_path_get_basename (file);
  g_autofree char *updated = other_driver_version (base);
  const char *old_gpu = "driver-0000abcd-00001234-00000001-00112233445566778899aabbccddeeff.pscache";
  const char *big_gpu = "driver-0000abcd-00005678-00000001-00112233445566778899aabbccddeeff.pscache";
  const char *recent_gpu = "driver-0000abcd-00009abc-00000001-00112233445566778899aabbccddeeff.pscache";
  g_autofree char *old_marker = g_strconcat (old_gpu, ".used", NULL);
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscCache *cache;

  write_aged (dir, ".goutputstream-ABC123", 10, 3600);     /* stale */
  write_aged (dir, ".goutputstream-DEF456", 10, 5);        /* maybe another save: kept */
  write_aged (dir, old_gpu, 100, 9 * 24 * 3600);
  write_aged (dir, old_marker, 0, 8 * 24 * 3600);          /* unused for 8 days */
  write_aged (dir, recent_gpu, 100, 60);
  write_aged (dir, big_gpu, 64 * 1024, 120);               /* over the quota below */
  write_aged (dir, updated, 100, 60);                      /* superseded by ours */

  options.cache_directory = dir;
  options.max_disk_bytes = 16 * 1024;
  cache = psc_cache_new_full (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                              &options, &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  g_assert_false (exists_in (dir, ".goutputstream-ABC123"));
  g_assert_true (exists_in (dir, ".goutputstream-DEF456"));
  g_assert_false (exists_in (dir, old_gpu));
  g_assert_false (exists_in (dir, old_marker));
  g_assert_false (exists_in (dir, big_gpu));
  g_assert_true (exists_in (dir, recent_gpu));
  g_assert_true (exists_in (dir, base));
  /* Our file exists and is valid: the older driver's file of the same GPU
   * goes too. */
  g_assert_false (exists_in (dir, updated));
  /* The stale temporary, the old identity and its marker, the big one,
   * the superseded one. */
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_FILES_REMOVED), ==, 5);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DISK_BYTES), <, 16 * 1024);
  psc_test_harness_drop_cache (h, cache);

  /* A driver update with no file of ours yet: the old driver's file stays
   * until ours exists. */
  {
    g_autofree char *dir2 = new_dir ("driver-update");
    write_aged (dir2, updated, 100, 60);
    cache = persist_cache (h, NULL, dir2, NULL);
    g_assert_true (exists_in (dir2, updated));
    make_pipeline (cache, 11.0f);
    g_assert_true (psc_cache_save (cache, &error));
    g_assert_no_error (error);
    g_assert_true (exists_in (dir2, base));
    g_assert_false (exists_in (dir2, updated));
  }
  psc_test_harness_finish (h);
}

static void
test_bytes_untrusted (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = persist_cache (h, NULL, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) good = NULL;
  gsize len = 0;
  const guint8 *data;

  make_pipeline (cache, 12.0f);
  good = psc_cache_save_to_bytes (cache, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (good, &len);
  for (const PscTestMutation *m = psc_test_mutations; m->name != NULL; m++)
    {
      g_autofree guint8 *copy = g_malloc0 (len + 16);
      gsize n;
      g_autoptr(GBytes) bad = NULL;

      memcpy (copy, data, len);
      n = psc_test_craft_driver_file (m->name, copy, len);
      bad = g_bytes_new (copy, n);

      g_assert_false (psc_cache_load_bytes (cache, bad, &error));
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, m->reason));
      g_clear_error (&error);
      g_assert_cmpuint (rejections (cache, m->reason), >=, 1);
    }
  /* Still valid: it creates and loads good data. */
  make_pipeline (cache, 13.0f);
  g_assert_true (psc_cache_load_bytes (cache, good, &error));
  g_assert_no_error (error);
  psc_test_harness_finish (h);
}

/* ------------------------------------------------------------------------
 * A warm cache compiles asynchronously with the loaded data: its workers
 * share the main VkPipelineCache (per-worker caches would start empty), and
 * data merged meanwhile (the bytes API) waits for the running compiles.
 */
static void
ready_cb (void *context, VkPipeline pipeline, VkResult result)
{
  guint *ready = context;
  g_assert_cmpint (result, ==, VK_SUCCESS);
  g_assert_true (pipeline != VK_NULL_HANDLE);
  (*ready)++;
}

static void
test_warm_async (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("warm-async");
  g_autofree char *file = seed_dir (h, dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscTestObjects o;
  PscCache *cache;
  guint ready = 0, pending = 0;
  const guint n = 24;

  options.cache_directory = dir;
  options.workers = 2;
  cache = psc_cache_new_full (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options,
                              &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 1);
  bytes = psc_cache_save_to_bytes (cache, &error);
  g_assert_no_error (error);
  psc_test_objects_init (&o, cache);
  for (guint i = 0; i < n; i++)
    {
      VkComputePipelineCreateInfo ci;
      VkSpecializationInfo spec;
      VkSpecializationMapEntry entry;
      float v, value = 100.0f + (float) i;
      PscRequestResult result;

      psc_test_compute_info_init (&ci, &spec, &entry, &v, &o);
      spec.pData = &value;
      psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP,
                                          PSC_REQUEST_FLAGS_NONE, ready_cb, &ready, &result,
                                          &error);
      g_assert_no_error (error);
      pending += result == PSC_REQUEST_RESULT_PENDING;
      /* Merges while the workers compile with the shared cache. */
      if (i % 6 == 0)
        {
          g_assert_true (psc_cache_load_bytes (cache, bytes, &error));
          g_assert_no_error (error);
        }
    }
  g_assert_cmpuint (pending, ==, n);
  for (guint64 frame = 1; ready < n; frame++)
    {
      g_assert_cmpuint (frame, <, 100000);
      psc_cache_begin_frame (cache, frame, frame);
      g_usleep (1000);
    }
  /* The workers' creations report their feedback too. */
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS) +
                    persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES), >=, n);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED), ==, 5);
  psc_test_harness_finish (h);
}

/* ------------------------------------------------------------------------
 * Layer 3: recipes recorded at close, read back, prewarmed against the
 * registered shaders; stale ones skipped; the candidate bound; a torn tail.
 */
static PscCache *
recipes_cache (PscTestHarness *h, const char *dir)
{
  PscCache *cache = persist_cache (h, NULL, dir, NULL);
  return cache;
}

/* Pumps until prewarm is done. */
static void
pump_prewarm (PscCache *cache)
{
  for (guint64 frame = 1; !psc_cache_get_prewarm_done (cache); frame++)
    {
      g_assert_cmpuint (frame, <, 100000);
      psc_cache_begin_frame (cache, frame, frame);
      g_usleep (500);
    }
}

static guint64
creations (PscCache *cache)
{
  return psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS);
}

static void
test_recipes (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("recipes");
  g_autofree char *log = g_build_filename (dir, "recipes.psclog", NULL);
  g_autoptr(GError) error = NULL;
  PscCache *cache;
  goffset size_before_prewarm = 0;
  const guint n = 40;

  /* Record: 40 compute pipelines, saved at close. */
  cache = recipes_cache (h, dir);
  for (guint i = 0; i < n; i++)
    make_pipeline (cache, 200.0f + (float) i);
  psc_cache_close (cache, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_SAVED), ==, n);
  psc_test_harness_drop_cache (h, cache);
  g_assert_true (g_file_test (log, G_FILE_TEST_IS_REGULAR));

  /* A torn tail (a process killed while appending) costs its record only:
   * a copy of the log as the first run wrote it, its last record cut. */
  {
    g_autofree char *torn_dir = new_dir ("recipes-torn");
    g_autofree char *torn_log = g_build_filename (torn_dir, "recipes.psclog", NULL);
    g_autofree char *data = NULL;
    gsize len = 0;
    PscCache *torn;

    g_assert_true (g_file_get_contents (log, &data, &len, NULL));
    g_assert_true (g_file_set_contents (torn_log, data, (gssize) len - 5, NULL));
    torn = recipes_cache (h, torn_dir);
    g_assert_cmpuint (persist_count (torn, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, n - 1);
    g_assert_cmpuint (rejections (torn, "torn-tail"), ==, 1);
    psc_test_harness_drop_cache (h, torn);
  }

  /* The warm probe, without compiling: every recipe resolves (its
   * recorded shaders registered for the probe); lavapipe's pipeline cache
   * holds nothing, so it serves none (on real hardware: all). */
  cache = recipes_cache (h, dir);
  {
    guint recorded = 0, served = G_MAXUINT, stale = G_MAXUINT;
    g_assert_true (psc_cache_verify_warm (cache, &recorded, &served, &stale, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (recorded, ==, n);
    g_assert_cmpuint (stale, ==, 0);
    g_assert_cmpuint (served, <=, recorded);
    g_test_message ("warm probe: %u of %u served from the driver's cache", served, recorded);
    g_assert_cmpuint (creations (cache), ==, 0);
  }
  psc_test_harness_drop_cache (h, cache);

  /* (A second later, so the stamps this session renews are newer.) */
  g_usleep (1100 * 1000);
  {
    struct stat st;
    g_assert_cmpint (g_stat (log, &st), ==, 0);
    size_before_prewarm = st.st_size;
  }

  /* Restart: read back; prewarm resolves against the registered shaders
   * and compiles the 32 most recently used before they are asked for. */
  cache = recipes_cache (h, dir);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, n);
  {
    PscTestObjects o;
    psc_test_objects_init (&o, cache);   /* registers the shaders */
  }
  g_assert_true (psc_cache_prewarm (cache, &error));
  g_assert_no_error (error);
  pump_prewarm (cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED), ==, 32);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_STALE), ==, 0);
  g_assert_cmpuint (creations (cache), ==, 32);
  /* The demand requests of the prewarmed ones hit: no creation. */
  {
    guint64 before = creations (cache), hits = 0;
    for (guint i = 0; i < n; i++)
      make_pipeline (cache, 200.0f + (float) i);
    hits = psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HITS);
    g_assert_cmpuint (creations (cache) - before, ==, n - 32);
    g_assert_cmpuint (hits, >=, 32);
  }
  /* Nothing new to record: no pipeline is recorded again; only the 32
   * prewarmed recipes are appended once more with today's stamp (the most
   * recently used come first at the next launch). */
  psc_cache_close (cache, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_SAVED), ==, 0);
  psc_test_harness_drop_cache (h, cache);
  {
    struct stat st;
    g_assert_cmpint (g_stat (log, &st), ==, 0);
    g_assert_cmpint (st.st_size, >, size_before_prewarm);
  }
  cache = recipes_cache (h, dir);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, n);
  psc_test_harness_drop_cache (h, cache);

  /* Stale: prewarm before any shader is registered. */
  cache = recipes_cache (h, dir);
  g_assert_true (psc_cache_prewarm (cache, &error));
  pump_prewarm (cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_STALE), ==, 32);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED), ==, 0);
  g_assert_cmpuint (creations (cache), ==, 0);
  psc_test_harness_drop_cache (h, cache);

  psc_test_harness_finish (h);
}

/* More recipes than the file keeps: the next open compacts it to the most
 * recently used PSC_RECIPES_KEPT (1024) and the objects they name. */
static void
test_recipes_compaction (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("recipes-compaction");
  g_autofree char *log = g_build_filename (dir, "recipes.psclog", NULL);
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  PscCache *cache;
  struct stat before, after;
  const guint n = 1030;

  cache = persist_cache (h, NULL, dir, NULL);
  psc_test_objects_init (&o, cache);
  for (guint i = 0; i < n; i++)
    {
      VkComputePipelineCreateInfo ci;
      VkSpecializationInfo spec;
      VkSpecializationMapEntry entry;
      float v, value = 5000.0f + (float) i;
      psc_test_compute_info_init (&ci, &spec, &entry, &v, &o);
      spec.pData = &value;
      g_assert_true (psc_cache_get_compute_pipeline (cache, &ci, &error) != VK_NULL_HANDLE);
      g_assert_no_error (error);
    }
  psc_cache_close (cache, 0);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_SAVED), ==, n);
  psc_test_harness_drop_cache (h, cache);
  g_assert_cmpint (g_stat (log, &before), ==, 0);

  cache = persist_cache (h, NULL, dir, NULL);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, n);
  psc_test_harness_drop_cache (h, cache);
  g_assert_cmpint (g_stat (log, &after), ==, 0);
  g_assert_cmpint (after.st_size, <, before.st_size);

  cache = persist_cache (h, NULL, dir, NULL);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, 1024);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  psc_test_harness_finish (h);
}

/* Strict mode: after prewarm, a pipeline compiled on demand that no recipe
 * covered is reported (with the nearest prewarmed key) and counted; the
 * recorded ones are hits and report nothing. */
static void
test_strict_recipes (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("strict");
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscCache *cache;

  cache = persist_cache (h, NULL, dir, NULL);
  for (guint i = 0; i < 3; i++)
    make_pipeline (cache, 7000.0f + (float) i);
  psc_test_harness_drop_cache (h, cache);

  options.cache_directory = dir;
  options.workers = 1;
  cache = psc_cache_new_full (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_STRICT_RECIPES,
                              &options, &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  {
    PscTestObjects o;
    psc_test_objects_init (&o, cache);
  }
  g_assert_true (psc_cache_prewarm (cache, &error));
  pump_prewarm (cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED), ==, 3);
  for (guint i = 0; i < 3; i++)
    make_pipeline (cache, 7000.0f + (float) i);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_STRICT_MISSES), ==, 0);
  /* The planted miss: a fourth specialization no recipe has. */
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING,
                         "*compute pipeline was compiled on demand that no warm-up recipe covered*"
                         "nearest prewarmed one*differs from byte*");
  make_pipeline (cache, 7003.0f);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_STRICT_MISSES), ==, 1);
  psc_test_harness_finish (h);
}

/* Prewarm never delays a demand request: its jobs wait behind demand jobs
 * (and compile in the idle class, at most a quarter of the workers). With
 * one worker and four prewarm jobs queued, a demand compile requested
 * after them is done second, not fifth. */
typedef struct {
  PscCache *cache;
  guint64 prewarmed_then;
  gboolean ready;
} DemandWatch;

static void
demand_ready (void *context, VkPipeline pipeline, VkResult result)
{
  DemandWatch *w = context;
  g_assert_cmpint (result, ==, VK_SUCCESS);
  w->prewarmed_then = persist_count (w->cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED);
  w->ready = TRUE;
}

static void
test_prewarm_yields (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("prewarm-yields");
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscTestObjects o;
  DemandWatch watch = { 0 };
  PscCache *cache;

  cache = persist_cache (h, NULL, dir, NULL);
  for (guint i = 0; i < 12; i++)
    make_pipeline (cache, 9000.0f + (float) i);
  psc_test_harness_drop_cache (h, cache);

  options.cache_directory = dir;
  options.workers = 1;
  cache = psc_cache_new_full (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options,
                              &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  watch.cache = cache;
  psc_test_objects_init (&o, cache);
  g_assert_true (psc_cache_prewarm (cache, &error));   /* 4 prewarm jobs queued */
  {
    VkComputePipelineCreateInfo ci;
    VkSpecializationInfo spec;
    VkSpecializationMapEntry entry;
    float v, value = 9100.0f;
    PscRequestResult result;
    psc_test_compute_info_init (&ci, &spec, &entry, &v, &o);
    spec.pData = &value;
    psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP, PSC_REQUEST_FLAGS_NONE,
                                        demand_ready, &watch, &result, &error);
    g_assert_no_error (error);
    g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
  }
  for (guint64 frame = 1; !watch.ready; frame++)
    {
      g_assert_cmpuint (frame, <, 100000);
      psc_cache_begin_frame (cache, frame, frame);
      g_usleep (200);
    }
  g_test_message ("prewarmed before the demand compile was done: %" G_GUINT64_FORMAT,
                  watch.prewarmed_then);
  /* The one the worker had started, perhaps one more it finished before
   * the pump ran: never the four. */
  g_assert_cmpuint (watch.prewarmed_then, <=, 2);
  pump_prewarm (cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED), ==, 12);
  psc_test_harness_finish (h);
}

/* The application's own VkPipelineCreationFeedbackCreateInfo: accepted,
 * never keyed, filled: the driver's feedback when the request created the
 * pipeline, VALID | APPLICATION_PIPELINE_CACHE_HIT when the cache answered
 * with a Ready one, not valid while it compiles on a worker. */
static void
test_app_feedback (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autoptr(GError) error = NULL;
  PscCache *cache = persist_cache (h, NULL, NULL, NULL);
  PscTestObjects o;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  VkPipelineCreationFeedback pipe_fb, stage_fb;
  VkPipelineCreationFeedbackCreateInfo fb = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
    .pipelineStageCreationFeedbackCount = 1,
    .pPipelineCreationFeedback = &pipe_fb,
    .pPipelineStageCreationFeedbacks = &stage_fb,
  };
  float v, value = 11000.0f;
  VkPipeline first, again;
  PscRequestResult result;
  const VkPipelineCreationFeedbackFlags hit =
    VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
    VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;

  psc_test_objects_init (&o, cache);
  psc_test_compute_info_init (&ci, &spec, &entry, &v, &o);
  spec.pData = &value;
  ci.pNext = &fb;
  memset (&pipe_fb, 0xff, sizeof pipe_fb);
  first = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  /* Created now: what lavapipe said (valid, compiled). */
  g_assert_true (pipe_fb.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  g_assert_cmpuint (stage_fb.flags, ==, 0);
  memset (&pipe_fb, 0, sizeof pipe_fb);
  again = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_true (again == first);
  g_assert_cmpuint (pipe_fb.flags, ==, hit);
  g_assert_cmpuint (pipe_fb.duration, ==, 0);
  /* The same create info without the structure is the same key. */
  ci.pNext = NULL;
  g_assert_true (psc_cache_get_compute_pipeline (cache, &ci, &error) == first);
  /* Pending on a worker: not valid (yet). */
  ci.pNext = &fb;
  value = 11001.0f;
  memset (&pipe_fb, 0xff, sizeof pipe_fb);
  psc_cache_request_compute_pipeline (cache, &ci, PSC_MISS_POLICY_SKIP, PSC_REQUEST_FLAGS_NONE,
                                      NULL, NULL, &result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result, ==, PSC_REQUEST_RESULT_PENDING);
  g_assert_cmpuint (pipe_fb.flags, ==, 0);
  psc_test_harness_finish (h);
}

/* The bounds are the application's to set: recipe-limit (what the file
 * keeps), prewarm-candidates, prewarm-in-flight. */
static PscCache *
bounded_cache (PscTestHarness *h, const char *dir)
{
  g_autoptr(GError) error = NULL;
  PscCache *cache = g_initable_new (PSC_TYPE_CACHE, NULL, &error,
                                    "device", h->psc_device, "cache-directory", dir,
                                    "recipe-limit", 8, "prewarm-candidates", 5,
                                    "prewarm-in-flight", 1, NULL);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

static void
test_recipe_bounds (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("recipe-bounds");
  g_autoptr(GError) error = NULL;
  PscCache *cache;
  guint limit = 0;

  cache = persist_cache (h, NULL, dir, NULL);
  for (guint i = 0; i < 12; i++)
    make_pipeline (cache, 12000.0f + (float) i);
  psc_test_harness_drop_cache (h, cache);

  cache = bounded_cache (h, dir);   /* 12 read, the file compacted to 8 */
  g_object_get (cache, "recipe-limit", &limit, NULL);
  g_assert_cmpuint (limit, ==, 8);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, 12);
  {
    PscTestObjects o;
    psc_test_objects_init (&o, cache);
  }
  g_assert_true (psc_cache_prewarm (cache, &error));
  pump_prewarm (cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_PREWARMED), ==, 5);
  psc_test_harness_drop_cache (h, cache);

  cache = bounded_cache (h, dir);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), ==, 8);
  psc_test_harness_drop_cache (h, cache);

  /* A byte bound below the file: what does not fit is refused, counted. */
  cache = g_initable_new (PSC_TYPE_CACHE, NULL, &error, "device", h->psc_device,
                          "cache-directory", dir, "recipe-bytes", (guint64) 512, NULL);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);
  g_assert_cmpuint (persist_count (cache, PSC_PERSIST_COUNTER_RECIPES_LOADED), <, 8);
  g_assert_cmpuint (rejections (cache, "oversized"), >=, 1);
  psc_test_harness_finish (h);
}

/* Without a directory there are no recipes: prewarm says so. */
static void
test_prewarm_off (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autoptr(GError) error = NULL;
  PscCache *cache = persist_cache (h, NULL, NULL, NULL);

  g_assert_false (psc_cache_prewarm (cache, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_assert_false (psc_cache_get_prewarm_done (cache));
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  /* One private $XDG_CACHE_HOME for the whole run, set before GLib reads
   * it (each test uses directories and application ids of its own).
   * G_TEST_OPTION_ISOLATE_DIRS would also move the data and config
   * directories, where the Vulkan loader finds the validation layer, and
   * GLib keeps the strings of every reloaded directory (leaks). */
  g_autofree char *root = g_dir_make_tmp ("psc-persist-XXXXXX", NULL);
  g_autofree char *cache_home = g_build_filename (root, "cache", NULL);
  int status;

  g_assert_nonnull (root);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_unsetenv ("PSOCACHE_DIR");
  g_unsetenv ("PSOCACHE_DISABLE");
  g_unsetenv ("PSOCACHE_MAX_SIZE");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/persist/off", test_off);
  g_test_add_func ("/persist/bad-arguments", test_bad_arguments);
  g_test_add_func ("/persist/save-and-load", test_save_and_load);
  g_test_add_func ("/persist/environment", test_environment);
  g_test_add_func ("/persist/unsafe-directory", test_unsafe_directory);
  g_test_add_func ("/persist/render-identity", test_render_identity);
  g_test_add_func ("/persist/write-failure", test_write_failure);
  g_test_add_func ("/persist/two-writers", test_two_writers);
  g_test_add_func ("/persist/housekeeping", test_housekeeping);
  g_test_add_func ("/persist/bytes-untrusted", test_bytes_untrusted);
  g_test_add_func ("/persist/warm-async", test_warm_async);
  g_test_add_func ("/persist/recipes", test_recipes);
  g_test_add_func ("/persist/prewarm-off", test_prewarm_off);
  g_test_add_func ("/persist/recipes-compaction", test_recipes_compaction);
  g_test_add_func ("/persist/strict-recipes", test_strict_recipes);
  g_test_add_func ("/persist/prewarm-yields", test_prewarm_yields);
  g_test_add_func ("/persist/app-feedback", test_app_feedback);
  g_test_add_func ("/persist/recipe-bounds", test_recipe_bounds);
  status = g_test_run ();
  {
    const char *argv_rm[] = { "rm", "-rf", root, NULL };
    g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
  return status;
}
