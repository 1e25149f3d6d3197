/* psc-prewarm-guard.c: prewarm's crash guard (see psc-prewarm-guard.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-prewarm-guard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

/* Lists are small (at most a few dozen hashes). */
#define MAX_LIST_BYTES (64 * 1024)

struct _PscPrewarmGuard
{
  char *journal_path, *banned_path;
  GHashTable *in_flight;   /* guint64* -> NULL */
  GHashTable *banned;
};

static GHashTable *
new_set (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

static void
add_hash (GHashTable *set, guint64 h)
{
  guint64 *k = g_new (guint64, 1);
  *k = h;
  g_hash_table_add (set, k);
}

/* Reads a list (never through a link: a list is ours, small, regular). */
static void
read_list (const char *path, GHashTable *into)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  GStatBuf st;

  if (g_lstat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > MAX_LIST_BYTES ||
      !g_file_get_contents (path, &text, &len, NULL))
    return;
  for (char *line = text, *next; line != NULL && *line != '\0'; line = next)
    {
      char *end = NULL;
      guint64 h;
      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      h = g_ascii_strtoull (line, &end, 16);
      if (end != line && *end == '\0')
        add_hash (into, h);
    }
}

/* Replaces a list atomically (g_file_set_contents renames a temporary
 * file); an empty list removes the file. */
static void
write_list (const char *path, GHashTable *set)
{
  GString *text = g_string_new (NULL);
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, set);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_string_append_printf (text, "%016" G_GINT64_MODIFIER "x\n", *(guint64 *) k);
  if (text->len == 0)
    g_unlink (path);
  else
    g_file_set_contents_full (path, text->str, (gssize) text->len,
                              G_FILE_SET_CONTENTS_NONE, 0600, NULL);
  g_string_free (text, TRUE);
}

PscPrewarmGuard *
psc_prewarm_guard_new (const char *dir,
                       const char *identity,
                       guint      *newly_banned)
{
  PscPrewarmGuard *g;
  g_autoptr(GHashTable) left = new_set ();
  g_autofree char *journal = NULL, *banned = NULL;
  GHashTableIter it;
  gpointer k;

  if (newly_banned != NULL)
    *newly_banned = 0;
  if (dir == NULL || identity == NULL)
    return NULL;
  g = g_new0 (PscPrewarmGuard, 1);
  journal = g_strconcat ("prewarm-", identity, ".journal", NULL);
  banned = g_strconcat ("prewarm-", identity, ".banned", NULL);
  g->journal_path = g_build_filename (dir, journal, NULL);
  g->banned_path = g_build_filename (dir, banned, NULL);
  g->in_flight = new_set ();
  g->banned = new_set ();
  read_list (g->banned_path, g->banned);
  read_list (g->journal_path, left);
  g_hash_table_iter_init (&it, left);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (!g_hash_table_contains (g->banned, k))
      {
        add_hash (g->banned, *(guint64 *) k);
        if (newly_banned != NULL)
          (*newly_banned)++;
      }
  if (g_hash_table_size (left) > 0)
    {
      write_list (g->banned_path, g->banned);
      g_unlink (g->journal_path);
    }
  return g;
}

void
psc_prewarm_guard_free (PscPrewarmGuard *g)
{
  if (g == NULL)
    return;
  g_hash_table_unref (g->in_flight);
  g_hash_table_unref (g->banned);
  g_free (g->journal_path);
  g_free (g->banned_path);
  g_free (g);
}

gboolean
psc_prewarm_guard_banned (const PscPrewarmGuard *g,
                          guint64                recipe)
{
  return g != NULL && g_hash_table_contains (g->banned, &recipe);
}

void
psc_prewarm_guard_begin (PscPrewarmGuard *g,
                         guint64          recipe)
{
  if (g == NULL)
    return;
  add_hash (g->in_flight, recipe);
  write_list (g->journal_path, g->in_flight);
}

void
psc_prewarm_guard_end (PscPrewarmGuard *g,
                       guint64          recipe)
{
  if (g == NULL || !g_hash_table_remove (g->in_flight, &recipe))
    return;
  write_list (g->journal_path, g->in_flight);
}

void
psc_prewarm_guard_clear (PscPrewarmGuard *g)
{
  if (g == NULL || g_hash_table_size (g->in_flight) == 0)
    return;
  g_hash_table_remove_all (g->in_flight);
  g_unlink (g->journal_path);
}
