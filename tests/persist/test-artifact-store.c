/* test-artifact-store.c: layer 2's store (psc-artifacts.c) with real files
 * and no GPU, where the bounds can be made small: the byte bound trims
 * the least recently used at compaction; in memory, trimming waits for an
 * eighth over a bound; compaction merges what another process appended
 * meanwhile and never brings back an artifact refused at use; an oversized
 * log is refused without being read and replaced; a symbolic link in the
 * log's place is never read or written through (the save fails, warned
 * once); a failed write keeps everything for the next save; code that
 * could not be read back is not kept.
 *
 * (test-artifacts.c tests the same store through the public API on
 * lavapipe, with the real bounds.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-artifacts.h"

#include "psc-private.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#define COMPUTE 0x20u

static char *root;

static char *
fresh_dir (const char *name)
{
  char *dir = g_build_filename (root, name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* A minimal compute module: OpCapability Shader, OpMemoryModel Logical
 * GLSL450, OpEntryPoint GLCompute %1 "main", LocalSize 1 1 1, an empty
 * main; @nops OpNop words before the types (another size, the same
 * meaning). */
static GBytes *
module (guint nops)
{
  static const guint32 head[] = {
    0x07230203, 0x00010000, 0, 5, 0,
    (2u << 16) | 17, 1,
    (3u << 16) | 14, 0, 1,
    (5u << 16) | 15, 5, 1, 0x6e69616d, 0,
    (6u << 16) | 16, 1, 17, 1, 1, 1,
  };
  static const guint32 tail[] = {
    (2u << 16) | 19, 2,
    (3u << 16) | 33, 3, 2,
    (5u << 16) | 54, 2, 1, 0, 3,
    (2u << 16) | 248, 4,
    (1u << 16) | 253,
    (1u << 16) | 56,
  };
  GByteArray *out = g_byte_array_new ();
  const guint32 nop = 1u << 16;

  g_byte_array_append (out, (const guint8 *) head, sizeof head);
  for (guint i = 0; i < nops; i++)
    g_byte_array_append (out, (const guint8 *) &nop, 4);
  g_byte_array_append (out, (const guint8 *) tail, sizeof tail);
  return g_byte_array_free_to_bytes (out);
}

static void
key (guint i, guint8 out[PSC_ARTIFACT_KEY_SIZE])
{
  g_autofree char *source = g_strdup_printf ("source %u", i);
  psc_artifact_key (source, strlen (source), COMPUTE, "", 0, "", 0, out);
}

static gboolean
has (PscArtifacts *a, guint i)
{
  guint8 k[PSC_ARTIFACT_KEY_SIZE];
  guint32 stage = 0;

  key (i, k);
  return psc_artifacts_lookup (a, k, &stage) != NULL;
}

static void
add (PscArtifacts *a, guint i, GBytes *code)
{
  guint8 k[PSC_ARTIFACT_KEY_SIZE];

  key (i, k);
  g_assert_true (psc_artifacts_add (a, k, COMPUTE, 8, code, NULL));
}

static void
save (PscArtifacts *a, gboolean expect_write)
{
  g_autoptr(GError) error = NULL;
  gboolean wrote = !expect_write;

  g_assert_true (psc_artifacts_save (a, &wrote, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wrote, ==, expect_write);
}

typedef struct {
  guint n[PSC_FILE_REASON_COUNT];
} Rejections;

static void
count_rejection (gpointer ctx, PscFileReason reason)
{
  Rejections *r = ctx;
  r->n[reason]++;
}

static guint
total (const Rejections *r)
{
  guint n = 0;
  for (guint i = 0; i < PSC_FILE_REASON_COUNT; i++)
    n += r->n[i];
  return n;
}

static void
test_byte_bound (void)
{
  g_autofree char *dir = fresh_dir ("bytes");
  g_autoptr(GBytes) code = module (10);
  const guint64 one = psc_artifact_log_size ((guint32) g_bytes_get_size (code));
  Rejections rej = { 0 };
  PscArtifacts *a = psc_artifacts_new (dir, count_rejection, &rej);

  /* 10 artifacts' worth of bytes; 11 given. */
  psc_artifacts_set_bounds (a, 1000, 10 * one);
  for (guint i = 0; i < 11; i++)
    add (a, i, code);
  g_assert_cmpuint (psc_artifacts_count (a), ==, 11);
  save (a, TRUE);
  /* Three quarters of the bound: 7 whole artifacts, the newest. */
  g_assert_cmpuint (psc_artifacts_count (a), ==, 7);
  psc_artifacts_free (a);

  a = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (psc_artifacts_n_loaded (a), ==, 7);
  for (guint i = 0; i < 11; i++)
    g_assert_cmpint (has (a, i), ==, i >= 4);
  g_assert_cmpuint (total (&rej), ==, 0);
  psc_artifacts_free (a);
}

static void
test_memory_trim (void)
{
  g_autoptr(GBytes) code = module (0);
  PscArtifacts *a = psc_artifacts_new (NULL, NULL, NULL);
  g_autoptr(GError) error = NULL;
  gboolean wrote = TRUE;

  psc_artifacts_set_bounds (a, 8, 0);
  for (guint i = 0; i < 9; i++)
    add (a, i, code);
  /* An eighth over (9 > 8 + 1 only at 10): not yet. */
  g_assert_cmpuint (psc_artifacts_count (a), ==, 9);
  add (a, 9, code);
  g_assert_cmpuint (psc_artifacts_count (a), ==, 6);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (has (a, i), ==, i >= 4);
  /* A lookup that served a registration keeps its artifact. */
  {
    guint8 k[PSC_ARTIFACT_KEY_SIZE];
    key (4, k);
    psc_artifacts_used (a, k);
  }
  for (guint i = 10; i < 14; i++)
    add (a, i, code);
  g_assert_true (has (a, 4));
  g_assert_false (has (a, 5));
  /* Nothing to save in memory. */
  g_assert_false (psc_artifacts_dirty (a));
  g_assert_true (psc_artifacts_save (a, &wrote, &error));
  g_assert_false (wrote);
  psc_artifacts_free (a);
}

static void
test_merge (void)
{
  g_autofree char *dir = fresh_dir ("merge");
  g_autoptr(GBytes) code = module (0);
  Rejections rej = { 0 };
  PscArtifacts *a = psc_artifacts_new (dir, count_rejection, &rej);
  PscArtifacts *b = psc_artifacts_new (dir, count_rejection, &rej);
  PscArtifacts *c;
  guint8 k1[PSC_ARTIFACT_KEY_SIZE];

  /* Two processes append to one log. */
  add (a, 1, code);
  save (a, TRUE);
  add (b, 2, code);
  save (b, TRUE);
  c = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (psc_artifacts_n_loaded (c), ==, 2);
  psc_artifacts_free (c);

  /* a refuses 1 at use and compacts: b's 2 is merged in, 1 not brought
   * back. */
  key (1, k1);
  psc_artifacts_forget (a, k1);
  add (a, 3, code);
  save (a, TRUE);
  c = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (psc_artifacts_n_loaded (c), ==, 2);
  g_assert_false (has (c, 1));
  g_assert_true (has (c, 2));
  g_assert_true (has (c, 3));
  g_assert_cmpuint (total (&rej), ==, 0);
  /* Nothing changed: nothing written. */
  save (c, FALSE);
  psc_artifacts_free (c);
  psc_artifacts_free (a);
  psc_artifacts_free (b);
}

static void
test_oversized (void)
{
  g_autofree char *dir = fresh_dir ("oversized");
  g_autofree char *path = g_build_filename (dir, "artifacts.psclog", NULL);
  g_autoptr(GBytes) code = module (0);
  Rejections rej = { 0 };
  PscArtifacts *a;
  FILE *f = fopen (path, "w");

  /* Sparse: 129 MiB claimed, nothing read. */
  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), (off_t) 129 << 20), ==, 0);
  fclose (f);
  a = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (rej.n[PSC_FILE_OVERSIZED], ==, 1);
  /* Replaced at the next save, even with nothing new. */
  g_assert_true (psc_artifacts_dirty (a));
  add (a, 1, code);
  save (a, TRUE);
  psc_artifacts_free (a);
  {
    GStatBuf st;
    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpint (st.st_size, <, 4096);
  }
  memset (&rej, 0, sizeof rej);
  a = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (psc_artifacts_n_loaded (a), ==, 1);
  g_assert_cmpuint (total (&rej), ==, 0);
  psc_artifacts_free (a);
}

static void
test_symlink (void)
{
  g_autofree char *dir = fresh_dir ("symlink");
  g_autofree char *path = g_build_filename (dir, "artifacts.psclog", NULL);
  g_autofree char *target = g_build_filename (dir, "elsewhere", NULL);
  g_autoptr(GBytes) code = module (0);
  g_autoptr(GError) error = NULL;
  Rejections rej = { 0 };
  PscArtifacts *a;
  gboolean wrote = TRUE;
  g_autofree char *contents = NULL;

  g_assert_true (g_file_set_contents (target, "someone else's", -1, NULL));
  g_assert_cmpint (symlink (target, path), ==, 0);
  a = psc_artifacts_new (dir, count_rejection, &rej);
  g_assert_cmpuint (rej.n[PSC_FILE_SYMLINK], ==, 1);
  /* Not replaced for being a link: only new artifacts make a save. */
  g_assert_false (psc_artifacts_dirty (a));
  add (a, 1, code);
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*saving*failed*");
  g_assert_false (psc_artifacts_save (a, &wrote, &error));
  g_test_assert_expected_messages ();
  g_assert_error (error, PSC_ERROR, PSC_ERROR_IO);
  g_clear_error (&error);
  /* Warned once. */
  g_assert_false (psc_artifacts_save (a, &wrote, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_IO);
  psc_artifacts_free (a);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "someone else's");
}

static void
test_write_failure (void)
{
  g_autofree char *dir = fresh_dir ("failure");
  g_autoptr(GBytes) code = module (0);
  g_autoptr(GError) error = NULL;
  PscArtifacts *a = psc_artifacts_new (dir, NULL, NULL);
  gboolean wrote = TRUE;

  add (a, 1, code);
  psc_artifacts_set_write_failure (a, G_IO_ERROR_NO_SPACE);
  g_test_expect_message ("Psc", G_LOG_LEVEL_WARNING, "*saving*failed*");
  g_assert_false (psc_artifacts_save (a, &wrote, &error));
  g_test_assert_expected_messages ();
  g_assert_error (error, PSC_ERROR, PSC_ERROR_IO);
  g_assert_false (wrote);
  g_assert_true (psc_artifacts_dirty (a));
  psc_artifacts_set_write_failure (a, 0);
  save (a, TRUE);
  psc_artifacts_free (a);
  a = psc_artifacts_new (dir, NULL, NULL);
  g_assert_cmpuint (psc_artifacts_n_loaded (a), ==, 1);
  psc_artifacts_free (a);
}

static void
test_not_kept (void)
{
  g_autoptr(GBytes) code = module (0);
  g_autoptr(GBytes) odd = g_bytes_new_from_bytes (code, 0, g_bytes_get_size (code) - 2);
  PscArtifacts *a = psc_artifacts_new (NULL, NULL, NULL);
  guint8 k[PSC_ARTIFACT_KEY_SIZE];
  PscFileReason why = PSC_FILE_OK;

  key (1, k);
  g_assert_false (psc_artifacts_add (a, k, 0x10u, 8, code, &why));    /* no fragment entry */
  g_assert_cmpint (why, ==, PSC_FILE_BAD_RECORD);
  g_assert_false (psc_artifacts_add (a, k, COMPUTE, 8, odd, &why));
  g_assert_cmpint (why, ==, PSC_FILE_BAD_HEADER);
  g_assert_cmpuint (psc_artifacts_count (a), ==, 0);
  g_assert_true (psc_artifacts_add (a, k, COMPUTE, 8, code, &why));
  g_assert_cmpint (why, ==, PSC_FILE_OK);
  psc_artifacts_free (a);
}

int
main (int argc, char **argv)
{
  int status;

  root = g_dir_make_tmp ("psc-artifact-store-XXXXXX", NULL);
  g_assert_nonnull (root);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/artifact-store/byte-bound", test_byte_bound);
  g_test_add_func ("/artifact-store/memory-trim", test_memory_trim);
  g_test_add_func ("/artifact-store/merge", test_merge);
  g_test_add_func ("/artifact-store/oversized", test_oversized);
  g_test_add_func ("/artifact-store/symlink", test_symlink);
  g_test_add_func ("/artifact-store/write-failure", test_write_failure);
  g_test_add_func ("/artifact-store/not-kept", test_not_kept);
  status = g_test_run ();
  {
    const char *argv_rm[] = { "rm", "-rf", root, NULL };
    g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
  g_free (root);
  return status;
}
