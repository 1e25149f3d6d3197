/* test-persist-processes.c: the driver file with several processes: a
 * process killed with SIGKILL at random points while it saves, 200 times,
 * leaves a file every later load accepts; processes saving and loading one
 * directory at once never see a corrupt file and never fail a save.
 *
 * The processes are persist-child (its path is the first argument). The
 * file is checked with the core's own parser (formats/driver-file.h), the
 * code every load runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "formats/driver-file.h"
#include "formats/record-log.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#define KILLS 200

static const char *child_path;

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

/* The reason the file at @path would be refused (PSC_FILE_OK: valid). */
static PscFileReason
check_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  uint8_t *blob = NULL;
  size_t blob_len = 0;
  PscFileReason r;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  r = psc_driver_file_read ((const uint8_t *) data, len, NULL, PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                            &blob, &blob_len, NULL);
  free (blob);
  return r;
}

static void
run_child (const char *const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (out != NULL && out[0] != '\0')
    g_test_message ("%s", g_strchomp (out));
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("%s failed: %s", argv[1], err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Starts save-loop, waits for "ready", lets it save for a random while,
 * kills it. */
static void
kill_one_saver (const char *dir, GRand *rand)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { child_path, "save-loop", dir, NULL };
  GPid pid;
  int out_fd, status;
  char buf[8] = { 0 };

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, buf, 6), ==, 6);
  g_assert_cmpstr (buf, ==, "ready\n");
  g_usleep ((gulong) g_rand_int_range (rand, 0, 20000));
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  close (out_fd);
  g_spawn_close_pid (pid);
}

static void
test_killed_savers (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "killed", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261201);
  const char *seed_argv[] = { child_path, "write", dir, NULL };
  g_autofree char *file = NULL;
  guint temporaries = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  run_child (seed_argv);
  file = driver_file_in (dir);
  g_assert_nonnull (file);
  g_assert_cmpint (check_file (file), ==, PSC_FILE_OK);

  for (guint i = 0; i < KILLS; i++)
    {
      kill_one_saver (dir, rand);
      /* Always there, always whole: an atomic replace or nothing. */
      g_assert_cmpint (check_file (file), ==, PSC_FILE_OK);
    }
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name (d)) != NULL)
      temporaries += g_str_has_prefix (name, ".goutputstream-");
  }
  g_test_message ("%u kills; %u temporary files of interrupted saves left (removed once "
                  "older than 10 minutes)", KILLS, temporaries);
}

static void
test_concurrent_processes (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "concurrent", NULL);
  const guint n = 4;
  GPid pids[4];
  g_autofree char *file = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *id = g_strdup_printf ("%u", i + 1);
      const char *argv[] = { child_path, "churn", dir, "12", id, NULL };
      g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                    NULL, NULL, &pids[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; i < n; i++)
    {
      int status = 0;
      g_assert_cmpint (waitpid (pids[i], &status, 0), ==, pids[i]);
      g_spawn_close_pid (pids[i]);
      /* Exit 1: a load rejected a file or a save failed. */
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    }
  file = driver_file_in (dir);
  g_assert_cmpint (check_file (file), ==, PSC_FILE_OK);

  /* The recipes file holds every process's pipelines: 4 processes x 12
   * rounds x 4 distinct pipelines, each recorded once, none lost to
   * another process's append. */
  {
    g_autofree char *log = g_build_filename (dir, "recipes.psclog", NULL);
    g_autofree char *data = NULL;
    gsize len = 0;
    PscLogReader r;
    PscLogRecord rec;
    PscFileReason why;
    PscLogNext next;
    guint pipelines = 0;

    g_assert_true (g_file_get_contents (log, &data, &len, NULL));
    g_assert_cmpint (psc_log_reader_init (&r, (const uint8_t *) data, len, PSC_LOG_KIND_RECIPES, 0),
                     ==, PSC_FILE_OK);
    while ((next = psc_log_reader_next (&r, &rec, &why)) == PSC_LOG_NEXT_RECORD)
      pipelines += rec.type == 2;   /* PSC_RECIPE_RECORD_PIPELINE */
    g_assert_cmpint (next, ==, PSC_LOG_NEXT_END);
    g_assert_cmpuint (pipelines, ==, n * 12 * 4);
  }
}

/* The crash guard: a process that ends while prewarm compiles (as a
 * driver crash would end it) leaves a journal; the next launch bans what it
 * lists and never tries those recipes again; the launch after that still
 * skips them. */
static void
test_prewarm_crash_guard (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "crash-guard", NULL);
  const char *record[] = { child_path, "churn", dir, "2", "7", NULL };
  const char *crash[] = { child_path, "prewarm-crash", dir, NULL };
  const char *none[] = { child_path, "prewarm", dir, "0", NULL };
  const char *four[] = { child_path, "prewarm", dir, "4", NULL };
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint journals = 0, bans = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  run_child (record);          /* 8 recipes */
  run_child (none);            /* a clean prewarm bans nothing */
  run_child (crash);           /* ends with 4 compiles in flight */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    journals += g_str_has_suffix (name, ".journal");
  g_assert_cmpuint (journals, ==, 1);
  run_child (four);            /* the 4 are banned, the other 4 prewarmed */
  run_child (four);            /* and stay banned */
  g_dir_rewind (d);
  journals = 0;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      journals += g_str_has_suffix (name, ".journal");
      bans += g_str_has_suffix (name, ".banned");
    }
  g_assert_cmpuint (journals, ==, 0);
  g_assert_cmpuint (bans, ==, 1);
}

int
main (int argc, char **argv)
{
  g_autofree char *root = g_dir_make_tmp ("psc-persist-processes-XXXXXX", NULL);
  g_autofree char *cache_home = g_build_filename (root, "cache", NULL);
  const char *argv_rm[] = { "rm", "-rf", root, NULL };
  int status;

  /* A private $XDG_CACHE_HOME (the children inherit it). */
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_test_init (&argc, &argv, NULL);
  if (argc < 2)
    g_error ("usage: test-persist-processes PERSIST-CHILD [GTEST-OPTION...]");
  child_path = argv[1];
  g_test_add_func ("/persist/killed-savers", test_killed_savers);
  g_test_add_func ("/persist/concurrent-processes", test_concurrent_processes);
  g_test_add_func ("/persist/prewarm-crash-guard", test_prewarm_crash_guard);
  status = g_test_run ();
  g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
                NULL);
  return status;
}
