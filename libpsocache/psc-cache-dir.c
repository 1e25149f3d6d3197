/* psc-cache-dir.c: where a cache persists and the rules of its directory
 * (see psc-cache-dir.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-cache-dir.h"

#include "psc-env.h"
#include "psc-private.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#define QUERY_ATTRS G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_IS_SYMLINK "," \
                    G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_ETAG_VALUE "," \
                    G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_STANDARD_NAME

gboolean
psc_parse_size (const char *text,
                guint64    *out)
{
  guint64 value, unit = 1;
  char *end = NULL;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  errno = 0;
  value = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || end == text)
    return FALSE;
  switch (g_ascii_toupper (*end))
    {
    case '\0': break;
    case 'K': unit = (guint64) 1 << 10; end++; break;
    case 'M': unit = (guint64) 1 << 20; end++; break;
    case 'G': unit = (guint64) 1 << 30; end++; break;
    default: return FALSE;
    }
  if (*end != '\0' || value == 0 || value > G_MAXUINT64 / unit)
    return FALSE;
  *out = value * unit;
  return TRUE;
}

/* PSOCACHE_DISABLE: "1", "true", "yes", "on" (any case) disable. */
static gboolean
env_disabled (void)
{
  const char *v = psc_env_get (PSC_ENV_DISABLE);
  return v != NULL && (g_str_equal (v, "1") || g_ascii_strcasecmp (v, "true") == 0 ||
                       g_ascii_strcasecmp (v, "yes") == 0 || g_ascii_strcasecmp (v, "on") == 0);
}

static guint64
env_max_bytes (guint64 app_value)
{
  const char *v = psc_env_get (PSC_ENV_MAX_SIZE);
  guint64 n;

  if (v != NULL && psc_parse_size (v, &n))
    return n;
  if (v != NULL)
    g_warning ("PSOCACHE_MAX_SIZE=%s is not a size (digits with an optional K, M or G); "
               "it is ignored", v);
  return app_value != 0 ? app_value : PSC_DEFAULT_MAX_DISK_BYTES;
}

static gboolean
check_arguments (const char  *application_id,
                 const char  *directory,
                 GError     **error)
{
  if (application_id != NULL && !g_application_id_is_valid (application_id))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("application-id: “%s” is not a valid application id (a reverse-DNS "
                     "name such as io.github.psocache.Demo)"), application_id);
      return FALSE;
    }
  if (directory != NULL && !g_path_is_absolute (directory))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("cache-directory: “%s” is not an absolute path"), directory);
      return FALSE;
    }
  return TRUE;
}

/* The directory must be ours and closed to others; creates it (0700). */
static char *
check_directory (const char *path)
{
  struct stat st;

  if (g_mkdir_with_parents (path, 0700) != 0)
    return g_strdup_printf (_("%s cannot be created: %s"), path, g_strerror (errno));
  if (g_stat (path, &st) != 0)
    return g_strdup_printf (_("%s cannot be read: %s"), path, g_strerror (errno));
  if (!S_ISDIR (st.st_mode))
    return g_strdup_printf (_("%s is not a directory"), path);
  if (st.st_uid != geteuid ())
    return g_strdup_printf (_("%s belongs to another user (uid %u)"), path, (guint) st.st_uid);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return g_strdup_printf (_("%s is writable by its group or by others (mode %03o)"),
                            path, (guint) (st.st_mode & 0777));
  if (access (path, W_OK | X_OK) != 0)
    return g_strdup_printf (_("%s is not writable: %s"), path, g_strerror (errno));
  return NULL;
}

gboolean
psc_cache_dir_resolve (const char   *application_id,
                       const char   *directory,
                       guint64       max_bytes,
                       PscCacheDir  *out,
                       GError      **error)
{
  g_autofree char *path = NULL;
  const char *root;

  memset (out, 0, sizeof *out);
  if (!check_arguments (application_id, directory, error))
    return FALSE;
  out->max_bytes = env_max_bytes (max_bytes);
  if (application_id == NULL && directory == NULL)
    return (out->mode = PSC_PERSIST_OFF), TRUE;
  if (env_disabled ())
    return (out->mode = PSC_PERSIST_DISABLED), TRUE;

  if (directory != NULL)
    path = g_canonicalize_filename (directory, NULL);
  else if ((root = psc_env_get (PSC_ENV_DIR)) != NULL && root[0] != '\0')
    path = g_build_filename (root, application_id, NULL);
  else
    path = g_build_filename (g_get_user_cache_dir (), "psocache", application_id, NULL);

  out->why = check_directory (path);
  if (out->why != NULL)
    return (out->mode = PSC_PERSIST_REFUSED), TRUE;
  out->mode = PSC_PERSIST_ON;
  out->path = g_steal_pointer (&path);
  out->dir = g_file_new_for_path (out->path);
  return TRUE;
}

void
psc_cache_dir_clear (PscCacheDir *d)
{
  g_clear_pointer (&d->path, g_free);
  g_clear_object (&d->dir);
  g_clear_pointer (&d->why, g_free);
}

PscFileReason
psc_cache_dir_query (GFile      *file,
                     GFileInfo **info)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInfo) fi = NULL;

  *info = NULL;
  fi = g_file_query_info (file, QUERY_ATTRS, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  if (fi == NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ? PSC_FILE_OK : PSC_FILE_IO;
  if (g_file_info_get_is_symlink (fi) ||
      g_file_info_get_file_type (fi) == G_FILE_TYPE_SYMBOLIC_LINK)
    return PSC_FILE_SYMLINK;
  if (g_file_info_get_file_type (fi) != G_FILE_TYPE_REGULAR)
    return PSC_FILE_NOT_REGULAR;
  *info = g_steal_pointer (&fi);
  return PSC_FILE_OK;
}

/* The directory's entries (name, type, size, modification time), without
 * following links. NULL if it cannot be listed. */
static GPtrArray *
list_entries (PscCacheDir *d)
{
  g_autoptr(GFileEnumerator) en = NULL;
  GPtrArray *items;
  GFileInfo *fi;

  en = g_file_enumerate_children (d->dir, QUERY_ATTRS, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                  NULL, NULL);
  if (en == NULL)
    return NULL;
  items = g_ptr_array_new_with_free_func (g_object_unref);
  while ((fi = g_file_enumerator_next_file (en, NULL, NULL)) != NULL)
    g_ptr_array_add (items, fi);
  return items;
}

static gint64
modified_s (GFileInfo *fi)
{
  return (gint64) g_file_info_get_attribute_uint64 (fi, G_FILE_ATTRIBUTE_TIME_MODIFIED);
}

static gboolean
is_regular (GFileInfo *fi)
{
  return g_file_info_get_file_type (fi) == G_FILE_TYPE_REGULAR && !g_file_info_get_is_symlink (fi);
}

static gboolean
remove_name (PscCacheDir *d,
             const char  *name)
{
  g_autoptr(GFile) f = g_file_get_child (d->dir, name);
  return g_file_delete (f, NULL, NULL);
}

guint
psc_cache_dir_clean_temporaries (PscCacheDir *d)
{
  g_autoptr(GPtrArray) items = list_entries (d);
  const gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint removed = 0;

  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      GFileInfo *fi = items->pdata[i];
      const char *name = g_file_info_get_name (fi);
      if (is_regular (fi) && now - modified_s (fi) > PSC_STALE_TEMPORARY_AGE_S &&
          (g_str_has_prefix (name, ".goutputstream-") || g_str_has_suffix (name, ".tmp")) &&
          remove_name (d, name))
        removed++;
    }
  return removed;
}

void
psc_cache_dir_mark_used (PscCacheDir *d,
                         const char  *name)
{
  g_autofree char *marker = g_strconcat (name, ".used", NULL);
  g_autoptr(GFile) f = g_file_get_child (d->dir, marker);
  g_autoptr(GFileInfo) fi = NULL;

  /* Never through a link: psc_cache_dir_query refuses one. */
  if (psc_cache_dir_query (f, &fi) != PSC_FILE_OK)
    return;
  if (fi == NULL)
    {
      GFileOutputStream *s = g_file_create (f, G_FILE_CREATE_PRIVATE, NULL, NULL);
      g_clear_object (&s);
      return;
    }
  g_file_set_attribute_uint64 (f, G_FILE_ATTRIBUTE_TIME_MODIFIED,
                               (guint64) (g_get_real_time () / G_USEC_PER_SEC),
                               G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
}

/* A driver file's name: "driver-<vendor>-<device>-<driver>-<uuid>.pscache". */
static gboolean
is_driver_file (const char *name)
{
  return g_str_has_prefix (name, "driver-") && g_str_has_suffix (name, ".pscache");
}

/* When a driver file was last used: its marker's time, else its own. */
static gint64
last_used_s (GPtrArray  *items,
             GFileInfo  *file)
{
  g_autofree char *marker = g_strconcat (g_file_info_get_name (file), ".used", NULL);
  for (guint i = 0; i < items->len; i++)
    if (g_str_equal (g_file_info_get_name (items->pdata[i]), marker))
      return MAX (modified_s (items->pdata[i]), modified_s (file));
  return modified_s (file);
}

static guint
remove_driver_file (PscCacheDir *d,
                    const char  *name)
{
  g_autofree char *marker = g_strconcat (name, ".used", NULL);
  guint n = remove_name (d, name) ? 1 : 0;
  return n + (remove_name (d, marker) ? 1 : 0);
}

/* The least recently used driver file other than @keep, or NULL. */
static GFileInfo *
oldest_other (GPtrArray  *items,
              const char *keep)
{
  GFileInfo *best = NULL;
  gint64 best_time = G_MAXINT64;
  for (guint i = 0; i < items->len; i++)
    {
      GFileInfo *fi = items->pdata[i];
      const char *name = g_file_info_get_name (fi);
      if (!is_regular (fi) || !is_driver_file (name) || g_strcmp0 (name, keep) == 0)
        continue;
      if (last_used_s (items, fi) < best_time)
        best = fi, best_time = last_used_s (items, fi);
    }
  return best;
}

static guint64
total_bytes (GPtrArray *items)
{
  guint64 sum = 0;
  for (guint i = 0; i < items->len; i++)
    if (is_regular (items->pdata[i]))
      sum += (guint64) g_file_info_get_size (items->pdata[i]);
  return sum;
}

guint
psc_cache_dir_trim (PscCacheDir *d,
                    const char  *keep,
                    guint64     *bytes_after)
{
  g_autoptr(GPtrArray) items = list_entries (d);
  const gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint removed = 0;
  GFileInfo *fi;

  if (items == NULL)
    return 0;
  /* Oldest first; the age rule, then the quota. */
  while ((fi = oldest_other (items, keep)) != NULL &&
         (now - last_used_s (items, fi) > PSC_UNUSED_IDENTITY_AGE_S ||
          total_bytes (items) > d->max_bytes))
    {
      g_autofree char *name = g_strdup (g_file_info_get_name (fi));
      g_autofree char *marker = g_strconcat (name, ".used", NULL);
      removed += remove_driver_file (d, name);
      for (guint i = items->len; i-- > 0;)
        {
          const char *n = g_file_info_get_name (items->pdata[i]);
          if (g_str_equal (n, name) || g_str_equal (n, marker))
            g_ptr_array_remove_index_fast (items, i);
        }
    }
  if (bytes_after != NULL)
    *bytes_after = total_bytes (items);
  return removed;
}

guint
psc_cache_dir_drop_superseded (PscCacheDir *d,
                               const char  *keep)
{
  g_autoptr(GPtrArray) items = list_entries (d);
  /* "driver-VVVVVVVV-DDDDDDDD-": vendor and device. */
  const gsize prefix = strlen ("driver-") + 18;
  guint removed = 0;

  if (items == NULL || strlen (keep) <= prefix)
    return 0;
  for (guint i = 0; i < items->len; i++)
    {
      const char *name = g_file_info_get_name (items->pdata[i]);
      if (is_regular (items->pdata[i]) && is_driver_file (name) && !g_str_equal (name, keep) &&
          strncmp (name, keep, prefix) == 0)
        removed += remove_driver_file (d, name);
    }
  return removed;
}

guint64
psc_cache_dir_total_bytes (PscCacheDir *d)
{
  g_autoptr(GPtrArray) items = list_entries (d);

  return items != NULL ? total_bytes (items) : 0;
}
