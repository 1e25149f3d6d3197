/* test-log-store.c: the append-only record log on disk (psc-log-store.c),
 * with real files and no GPU: appends create the header once, a torn tail
 * is cut before the next append and never hides new records, a damaged
 * header is replaced, a held lock makes an append fail fast (busy) rather
 * than wait, threads appending at once lose nothing, compaction replaces
 * the log, and a symbolic link or a FIFO in the log's place is never read
 * or written through.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-log-store.h"

#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

static char *root;

static char *
fresh_dir (const char *name)
{
  char *dir = g_build_filename (root, name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* n records "<tag>-<i>" of varied sizes, as one buffer. */
static GByteArray *
records (const char *tag, guint first, guint n)
{
  GByteArray *out = g_byte_array_new ();
  for (guint i = first; i < first + n; i++)
    {
      g_autofree char *payload = g_strdup_printf ("%s-%u-%0*u", tag, i, (int) (i % 50), 0);
      gsize len = strlen (payload);
      gsize at = out->len;
      g_byte_array_set_size (out, at + psc_log_record_size (len));
      g_assert_cmpuint (psc_log_write_record (out->data + at, 1, payload, len), ==,
                        psc_log_record_size (len));
    }
  return out;
}

/* The payloads of a log, in order; *torn set if it ends in a torn tail. */
static GPtrArray *
read_all (PscLogStore *s, gboolean *torn)
{
  g_autoptr(GBytes) contents = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  PscLogReader r;
  PscLogRecord rec;
  PscFileReason why;
  PscLogNext next;
  gsize len = 0;
  const guint8 *data;

  *torn = FALSE;
  g_assert_cmpint (psc_log_store_read (s, 1 << 24, &contents), ==, PSC_FILE_OK);
  if (contents == NULL)
    return out;
  data = g_bytes_get_data (contents, &len);
  g_assert_cmpint (psc_log_reader_init (&r, data, len, PSC_LOG_KIND_RECIPES, 0), ==, PSC_FILE_OK);
  while ((next = psc_log_reader_next (&r, &rec, &why)) != PSC_LOG_NEXT_END)
    {
      if (next == PSC_LOG_NEXT_TORN)
        {
          *torn = TRUE;
          break;
        }
      g_assert_cmpint (next, ==, PSC_LOG_NEXT_RECORD);
      g_ptr_array_add (out, g_strndup ((const char *) rec.payload, rec.len));
    }
  return out;
}

static void
append (PscLogStore *s, GByteArray *recs, gboolean expect_repair)
{
  g_autoptr(GError) error = NULL;
  gboolean repaired = !expect_repair;
  g_assert_true (psc_log_store_append (s, recs->data, recs->len, &repaired, &error));
  g_assert_no_error (error);
  g_assert_cmpint (repaired, ==, expect_repair);
}

static void
test_append_and_read (void)
{
  g_autofree char *dir = fresh_dir ("append");
  g_autoptr(GByteArray) a = records ("a", 0, 5), b = records ("b", 0, 3);
  g_autoptr(GPtrArray) got = NULL;
  PscLogStore s;
  gboolean torn;
  struct stat st;

  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  got = read_all (&s, &torn);
  g_assert_cmpuint (got->len, ==, 0);
  g_clear_pointer (&got, g_ptr_array_unref);
  append (&s, a, FALSE);
  append (&s, b, FALSE);
  got = read_all (&s, &torn);
  g_assert_false (torn);
  g_assert_cmpuint (got->len, ==, 8);
  g_assert_cmpstr (got->pdata[0], ==, "a-0-0");
  g_assert_cmpstr (got->pdata[7], ==, "b-2-00");
  g_assert_cmpint (g_stat (s.path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0077, ==, 0);
  psc_log_store_clear (&s);
}

static void
test_torn_tail_repaired (void)
{
  g_autofree char *dir = fresh_dir ("torn");
  g_autoptr(GByteArray) a = records ("a", 0, 4), b = records ("b", 0, 2);
  PscLogStore s;
  struct stat st;
  gboolean torn;

  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  append (&s, a, FALSE);
  /* A process killed mid-append: the last record is cut in half. */
  g_assert_cmpint (g_stat (s.path, &st), ==, 0);
  g_assert_cmpint (truncate (s.path, st.st_size - 7), ==, 0);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_true (torn);
    g_assert_cmpuint (got->len, ==, 3);
  }
  append (&s, b, TRUE);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_false (torn);
    g_assert_cmpuint (got->len, ==, 5);
    g_assert_cmpstr (got->pdata[3], ==, "b-0-0");
  }
  /* A damaged header: the log starts over, never appended to blindly. */
  {
    int fd = g_open (s.path, O_WRONLY, 0);
    g_assert_cmpint (pwrite (fd, "XXXX", 4, 0), ==, 4);
    close (fd);
  }
  append (&s, b, TRUE);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_cmpuint (got->len, ==, 2);
  }
  psc_log_store_clear (&s);
}

static void
test_busy_lock (void)
{
  g_autofree char *dir = fresh_dir ("busy");
  g_autoptr(GByteArray) a = records ("a", 0, 1);
  g_autoptr(GError) error = NULL;
  PscLogStore s;
  gint64 t0;
  int fd;

  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  fd = g_open (s.lock_path, O_RDWR | O_CREAT, 0600);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);
  t0 = g_get_monotonic_time ();
  g_assert_false (psc_log_store_append (&s, a->data, a->len, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  /* About PSC_LOG_LOCK_WAIT_MS, never a stall. */
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, (PSC_LOG_LOCK_WAIT_MS - 10) * 1000);
  flock (fd, LOCK_UN);
  close (fd);
  g_clear_error (&error);
  g_assert_true (psc_log_store_append (&s, a->data, a->len, NULL, &error));
  psc_log_store_clear (&s);
}

typedef struct {
  const char *dir;
  guint id;
  guint appended;
} Appender;

static gpointer
appender_main (gpointer data)
{
  Appender *a = data;
  PscLogStore s;
  g_autofree char *tag = g_strdup_printf ("t%u", a->id);

  psc_log_store_init (&s, a->dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  for (guint i = 0; i < 50; i++)
    {
      g_autoptr(GByteArray) r = records (tag, i * 2, 2);
      g_autoptr(GError) error = NULL;
      /* Busy is allowed (then the records wait for the next save): retry. */
      while (!psc_log_store_append (&s, r->data, r->len, NULL, &error))
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
          g_clear_error (&error);
        }
      a->appended += 2;
    }
  psc_log_store_clear (&s);
  return NULL;
}

static void
test_concurrent_appends (void)
{
  g_autofree char *dir = fresh_dir ("concurrent");
  Appender a[4];
  GThread *t[4];
  PscLogStore s;
  gboolean torn;

  for (guint i = 0; i < 4; i++)
    {
      a[i] = (Appender) { dir, i, 0 };
      t[i] = g_thread_new ("appender", appender_main, &a[i]);
    }
  for (guint i = 0; i < 4; i++)
    g_thread_join (t[i]);
  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_false (torn);
    g_assert_cmpuint (got->len, ==, 400);
    for (guint i = 0; i < 4; i++)
      {
        guint mine = 0;
        g_autofree char *prefix = g_strdup_printf ("t%u-", i);
        for (guint k = 0; k < got->len; k++)
          mine += g_str_has_prefix (got->pdata[k], prefix);
        g_assert_cmpuint (mine, ==, 100);
      }
  }
  psc_log_store_clear (&s);
}

static void
test_replace (void)
{
  g_autofree char *dir = fresh_dir ("replace");
  g_autoptr(GByteArray) a = records ("a", 0, 6), b = records ("b", 0, 2);
  g_autoptr(GError) error = NULL;
  PscLogStore s;
  gboolean torn;

  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  append (&s, a, FALSE);
  g_assert_true (psc_log_store_replace (&s, b->data, b->len, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_cmpuint (got->len, ==, 2);
  }
  append (&s, a, FALSE);
  {
    g_autoptr(GPtrArray) got = read_all (&s, &torn);
    g_assert_cmpuint (got->len, ==, 8);
  }
  psc_log_store_clear (&s);
}

static void
test_not_followed (void)
{
  g_autofree char *dir = fresh_dir ("links");
  g_autofree char *target = g_build_filename (dir, "elsewhere", NULL);
  g_autofree char *fifo_dir = fresh_dir ("fifo");
  g_autoptr(GByteArray) a = records ("a", 0, 1);
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) error = NULL;
  PscLogStore s, f;
  struct stat st;

  g_assert_true (g_file_set_contents (target, "precious", -1, NULL));
  psc_log_store_init (&s, dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  g_assert_cmpint (symlink (target, s.path), ==, 0);
  g_assert_cmpint (psc_log_store_read (&s, 1 << 20, &contents), ==, PSC_FILE_SYMLINK);
  g_assert_false (psc_log_store_append (&s, a->data, a->len, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (psc_log_store_replace (&s, a->data, a->len, &error));
  g_clear_error (&error);
  g_assert_cmpint (g_stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 8);
  g_assert_cmpint (lstat (s.path, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));

  psc_log_store_init (&f, fifo_dir, "recipes.psclog", PSC_LOG_KIND_RECIPES);
  g_assert_cmpint (mkfifo (f.path, 0600), ==, 0);
  g_assert_cmpint (psc_log_store_read (&f, 1 << 20, &contents), ==, PSC_FILE_NOT_REGULAR);
  g_assert_false (psc_log_store_append (&f, a->data, a->len, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  psc_log_store_clear (&s);
  psc_log_store_clear (&f);
}

int
main (int argc, char **argv)
{
  const char *argv_rm[] = { "rm", "-rf", NULL, NULL };
  int status;

  g_test_init (&argc, &argv, NULL);
  root = g_dir_make_tmp ("psc-log-store-XXXXXX", NULL);
  g_test_add_func ("/log-store/append-and-read", test_append_and_read);
  g_test_add_func ("/log-store/torn-tail-repaired", test_torn_tail_repaired);
  g_test_add_func ("/log-store/busy-lock", test_busy_lock);
  g_test_add_func ("/log-store/concurrent-appends", test_concurrent_appends);
  g_test_add_func ("/log-store/replace", test_replace);
  g_test_add_func ("/log-store/not-followed", test_not_followed);
  status = g_test_run ();
  argv_rm[2] = root;
  g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
                NULL);
  g_free (root);
  return status;
}
