/* cache-files.c: inspecting the files of a cache directory (see
 * cache-files.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cache-files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

/* Larger files are not read whole (driver data is capped at 64 MiB). */
#define MAX_READ ((goffset) 1 << 30)

const char *
psc_tool_file_kind_name (PscToolFileKind kind)
{
  static const char *const names[] = {
    "driver", "recipes", "artifacts", "marker", "temporary", "lock", "unknown",
  };
  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}

static PscToolFileKind
kind_by_name (const char *name)
{
  if (g_str_has_suffix (name, ".used"))
    return PSC_TOOL_FILE_MARKER;
  if (g_str_has_suffix (name, ".lock"))
    return PSC_TOOL_FILE_LOCK;
  if (g_str_has_prefix (name, ".goutputstream-") || g_str_has_suffix (name, ".tmp"))
    return PSC_TOOL_FILE_TEMPORARY;
  if (g_str_has_suffix (name, ".pscache"))
    return PSC_TOOL_FILE_DRIVER;
  return PSC_TOOL_FILE_UNKNOWN;
}

/* The kind by content: the magic, and for logs the kind field. */
static PscToolFileKind
kind_by_magic (const guint8 *data, gsize len)
{
  if (len >= 8 && memcmp (data, PSC_DRIVER_FILE_MAGIC, 8) == 0)
    return PSC_TOOL_FILE_DRIVER;
  if (len >= 20 && memcmp (data, PSC_LOG_MAGIC, 8) == 0)
    {
      const uint32_t k = psc_le32 (data + 16);
      if (k == PSC_LOG_KIND_RECIPES)
        return PSC_TOOL_FILE_RECIPES;
      if (k == PSC_LOG_KIND_ARTIFACTS)
        return PSC_TOOL_FILE_ARTIFACTS;
    }
  return PSC_TOOL_FILE_UNKNOWN;
}

static void
inspect_driver (PscToolFile *f, const guint8 *data, gsize len, const PscDeviceIdentity *device)
{
  uint8_t *blob = NULL;
  size_t blob_len = 0;

  f->reason = psc_driver_file_read (data, len, NULL, PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                                    &blob, &blob_len, &f->driver);
  free (blob);
  if (f->reason == PSC_FILE_OK)
    psc_driver_file_read_header (data, len, &f->driver);
  if (device == NULL)
    return;
  f->device_checked = TRUE;
  blob = NULL;
  f->device_reason = psc_driver_file_read (data, len, device, PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                                           &blob, &blob_len, NULL);
  free (blob);
}

static void
inspect_log (PscToolFile *f, const guint8 *data, gsize len, uint32_t kind)
{
  PscLogReader r;
  PscLogRecord rec;
  PscFileReason why = PSC_FILE_OK;
  PscLogNext next;

  f->reason = psc_log_reader_init (&r, data, len, kind, 0);
  if (f->reason != PSC_FILE_OK)
    return;
  while ((next = psc_log_reader_next (&r, &rec, &why)) != PSC_LOG_NEXT_END)
    {
      if (next == PSC_LOG_NEXT_TORN)
        {
          f->torn = TRUE;
          break;
        }
    }
  f->records = r.records;
  f->skipped = r.skipped;
  /* A log with a torn tail or damaged records is still usable, but not
   * valid as written. */
  if (f->skipped > 0)
    f->reason = PSC_FILE_BAD_RECORD;
  else if (f->torn)
    f->reason = PSC_FILE_TORN_TAIL;
}

/* Reads a regular file, without following a link. */
static guint8 *
read_regular (PscToolFile *f, gsize *len)
{
  GStatBuf st;
  char *data = NULL;

  if (g_lstat (f->path, &st) != 0)
    return (f->reason = PSC_FILE_IO), NULL;
  if (S_ISLNK (st.st_mode))
    return (f->reason = PSC_FILE_SYMLINK), NULL;
  if (!S_ISREG (st.st_mode))
    return (f->reason = PSC_FILE_NOT_REGULAR), NULL;
  f->size = (guint64) st.st_size;
  if ((goffset) st.st_size > MAX_READ)
    return (f->reason = PSC_FILE_OVERSIZED), NULL;
  if (!g_file_get_contents (f->path, &data, len, NULL))
    return (f->reason = PSC_FILE_IO), NULL;
  return (guint8 *) data;
}

GBytes *
psc_tool_read_file (const char *path, PscFileReason *why)
{
  PscToolFile f = { .path = (char *) path, .reason = PSC_FILE_OK };
  gsize len = 0;
  guint8 *data = read_regular (&f, &len);

  *why = f.reason;
  return data != NULL ? g_bytes_new_take (data, len) : NULL;
}

PscToolFile *
psc_tool_file_inspect (const char *path, const PscDeviceIdentity *device)
{
  PscToolFile *f = g_new0 (PscToolFile, 1);
  g_autofree guint8 *data = NULL;
  gsize len = 0;

  f->path = g_strdup (path);
  f->name = g_path_get_basename (path);
  f->kind = kind_by_name (f->name);
  data = read_regular (f, &len);
  if (data == NULL || f->kind == PSC_TOOL_FILE_MARKER || f->kind == PSC_TOOL_FILE_TEMPORARY ||
      f->kind == PSC_TOOL_FILE_LOCK)
    return f;
  /* By content; a file named like a driver file stays one (and is judged
   * as one: a damaged magic is then "bad-magic"). */
  if (kind_by_magic (data, len) != PSC_TOOL_FILE_UNKNOWN || f->kind == PSC_TOOL_FILE_UNKNOWN)
    f->kind = kind_by_magic (data, len);
  switch (f->kind)
    {
    case PSC_TOOL_FILE_DRIVER: inspect_driver (f, data, len, device); break;
    case PSC_TOOL_FILE_RECIPES: inspect_log (f, data, len, PSC_LOG_KIND_RECIPES); break;
    case PSC_TOOL_FILE_ARTIFACTS: inspect_log (f, data, len, PSC_LOG_KIND_ARTIFACTS); break;
    default: break;
    }
  return f;
}

void
psc_tool_file_free (PscToolFile *f)
{
  if (f == NULL)
    return;
  g_free (f->path);
  g_free (f->name);
  g_free (f);
}

static int
by_name (gconstpointer a, gconstpointer b)
{
  const PscToolFile *fa = *(PscToolFile *const *) a, *fb = *(PscToolFile *const *) b;
  return strcmp (fa->name, fb->name);
}

GPtrArray *
psc_tool_inspect_directory (const char *dir, const PscDeviceIdentity *device, GError **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, error);
  GPtrArray *files;
  const char *name;

  if (d == NULL)
    return NULL;
  files = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_tool_file_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_ptr_array_add (files, psc_tool_file_inspect (path, device));
    }
  g_ptr_array_sort (files, by_name);
  return files;
}

gboolean
psc_tool_file_invalid (const PscToolFile *f)
{
  switch (f->kind)
    {
    case PSC_TOOL_FILE_MARKER:
    case PSC_TOOL_FILE_TEMPORARY:
    case PSC_TOOL_FILE_LOCK:
    case PSC_TOOL_FILE_UNKNOWN:
      /* Not ours to judge, unless it is a link or special file. */
      return f->reason == PSC_FILE_SYMLINK || f->reason == PSC_FILE_NOT_REGULAR ||
             f->reason == PSC_FILE_IO;
    default:
      return f->reason != PSC_FILE_OK;
    }
}
