/* psc-driver-store.c: the driver file on disk (see psc-driver-store.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-driver-store.h"

#include "psc-cache-dir.h"

#include <stdlib.h>
#include <glib/gi18n-lib.h>

char *
psc_driver_file_name (const PscDeviceIdentity *id)
{
  g_autofree char *uuid = g_malloc (2 * VK_UUID_SIZE + 1);

  for (guint i = 0; i < VK_UUID_SIZE; i++)
    g_snprintf (uuid + 2 * i, 3, "%02x", id->uuid[i]);
  return g_strdup_printf ("driver-%08x-%08x-%08x-%s.pscache",
                          id->vendor_id, id->device_id, id->driver_version, uuid);
}

void
psc_driver_store_init (PscDriverStore          *s,
                       GFile                   *dir,
                       const PscDeviceIdentity *id)
{
  s->name = psc_driver_file_name (id);
  s->file = g_file_get_child (dir, s->name);
  s->etag = NULL;
}

/* The checksum field of a driver file's header (0 if it has none). */
static guint64
header_checksum (const guint8 *data, gsize len)
{
  return len >= PSC_DRIVER_FILE_HEADER_SIZE ? psc_le64 (data + 88) : 0;
}

void
psc_driver_store_clear (PscDriverStore *s)
{
  g_clear_object (&s->file);
  g_clear_pointer (&s->name, g_free);
  g_clear_pointer (&s->etag, g_free);
}

/* Reads the whole opened file into a buffer of psc_file_buffer_new (few
 * page faults for tens of MiB); its size and etag come from the open
 * stream, so they describe what was read. */
static PscFileReason
read_stream (GFileInputStream  *in,
             goffset            limit,
             GBytes           **contents,
             char             **etag)
{
  g_autoptr(GFileInfo) info = NULL;
  guint8 *buf;
  gsize got = 0;
  goffset size;

  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                         G_FILE_ATTRIBUTE_ETAG_VALUE, NULL, NULL);
  if (info == NULL)
    return PSC_FILE_IO;
  size = g_file_info_get_size (info);
  if (size > limit)
    return PSC_FILE_OVERSIZED;
  buf = psc_file_buffer_new ((size_t) size);
  if (buf == NULL)
    return PSC_FILE_OUT_OF_MEMORY;
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), buf, (gsize) size, &got, NULL, NULL) ||
      got != (gsize) size)
    {
      free (buf);
      return PSC_FILE_IO;
    }
  *etag = g_strdup (g_file_info_get_etag (info));
  *contents = g_bytes_new_with_free_func (buf, got, free, buf);
  return PSC_FILE_OK;
}

PscFileReason
psc_driver_store_read (PscDriverStore  *s,
                       goffset          limit,
                       GBytes         **contents)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  char *etag = NULL;
  PscFileReason reason;
  gsize len = 0;

  *contents = NULL;
  g_clear_pointer (&s->etag, g_free);
  s->known = FALSE;
  reason = psc_cache_dir_query (s->file, &info);
  if (reason != PSC_FILE_OK || info == NULL)
    return reason;
  if (g_file_info_get_size (info) > limit)
    return PSC_FILE_OVERSIZED;
  in = g_file_read (s->file, NULL, &error);
  if (in == NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ? PSC_FILE_OK : PSC_FILE_IO;
  reason = read_stream (in, limit, contents, &etag);
  if (reason != PSC_FILE_OK)
    return reason;
  s->etag = etag;
  s->checksum = header_checksum (g_bytes_get_data (*contents, &len), g_bytes_get_size (*contents));
  s->known = TRUE;
  return PSC_FILE_OK;
}

/* The checksum in the header of the file there now (0 if unreadable). */
static guint64
current_checksum (PscDriverStore *s)
{
  g_autoptr(GFileInputStream) in = g_file_read (s->file, NULL, NULL);
  guint8 header[PSC_DRIVER_FILE_HEADER_SIZE];
  gsize got = 0;

  if (in == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (in), header, sizeof header, &got, NULL, NULL))
    return 0;
  return header_checksum (header, got);
}

static gboolean
check_target (PscDriverStore  *s,
              GError         **error)
{
  g_autoptr(GFileInfo) info = NULL;
  PscFileReason reason = psc_cache_dir_query (s->file, &info);

  if (reason == PSC_FILE_SYMLINK || reason == PSC_FILE_NOT_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is a %s, not a regular file: it is never written through"),
                   g_file_peek_path (s->file),
                   reason == PSC_FILE_SYMLINK ? _("symbolic link") : _("special file"));
      return FALSE;
    }
  /* A file created since we found none, or replaced since we read or
   * wrote it, is another process's: merge it. */
  if (reason == PSC_FILE_OK && info != NULL && (!s->known || current_checksum (s) != s->checksum))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                   _("%s was replaced by another process"), g_file_peek_path (s->file));
      return FALSE;
    }
  return TRUE;
}

gboolean
psc_driver_store_replace (PscDriverStore  *s,
                          GBytes          *contents,
                          int              fail_with,
                          GError         **error)
{
  char *new_etag = NULL;
  gsize len = 0;
  const char *data = g_bytes_get_data (contents, &len);

  if (!check_target (s, error))
    return FALSE;
  if (fail_with != 0)
    {
      g_set_error (error, G_IO_ERROR, fail_with, _("%s: injected failure"),
                   g_file_peek_path (s->file));
      return FALSE;
    }
  /* REPLACE_DESTINATION: the temporary file replaces whatever is there
   * (checked regular above) rather than writing into it. */
  if (!g_file_replace_contents (s->file, data, len, s->etag, FALSE,
                                G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                &new_etag, NULL, error))
    return FALSE;
  g_free (s->etag);
  s->etag = new_etag;
  s->checksum = header_checksum ((const guint8 *) data, len);
  s->known = TRUE;
  return TRUE;
}
