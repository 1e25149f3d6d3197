/* dbus-export.c: psocache-demo's D-Bus export (see dbus-export.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dbus-export.h"

#include <stdio.h>
#include <string.h>

gboolean
psc_demo_dbus_parse_mode (const char *name, PscDemoDBusMode *mode, GError **error)
{
  if (g_strcmp0 (name, "off") == 0)
    *mode = PSC_DEMO_DBUS_OFF;
  else if (g_strcmp0 (name, "read-only") == 0)
    *mode = PSC_DEMO_DBUS_READ_ONLY;
  else if (g_strcmp0 (name, "control") == 0)
    *mode = PSC_DEMO_DBUS_CONTROL;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unknown D-Bus mode '%s' (expected off, read-only or control)", name);
      return FALSE;
    }
  return TRUE;
}

const char *
psc_demo_dbus_mode_name (PscDemoDBusMode mode)
{
  switch (mode)
    {
    case PSC_DEMO_DBUS_OFF:
      return "off";
    case PSC_DEMO_DBUS_READ_ONLY:
      return "read-only";
    case PSC_DEMO_DBUS_CONTROL:
      return "control";
    case PSC_DEMO_DBUS_DEFAULT:
    default:
      return "default";
    }
}

gboolean
psc_demo_export_start (PscDemoExport *self, PscCache *cache, PscDemoDBusMode requested,
                       GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GDBusConnection) connection = NULL;
  PscDemoDBusMode mode = requested == PSC_DEMO_DBUS_DEFAULT ? PSC_DEMO_DBUS_CONTROL : requested;

  memset (self, 0, sizeof *self);
  self->mode = PSC_DEMO_DBUS_OFF;
  if (requested == PSC_DEMO_DBUS_OFF)
    {
      g_print ("D-Bus: off (--dbus=off)\n");
      return TRUE;
    }

  connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &local);
  if (connection == NULL)
    {
      if (requested == PSC_DEMO_DBUS_DEFAULT)
        {
          g_print ("D-Bus: off (no session bus: %s)\n", local->message);
          return TRUE;
        }
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "--dbus=%s needs a session bus: %s", psc_demo_dbus_mode_name (requested),
                   local->message);
      return FALSE;
    }
  /* The demo decides when it ends, not the bus going away. */
  g_dbus_connection_set_exit_on_close (connection, FALSE);

  if (!psc_cache_export (cache, connection,
                         mode == PSC_DEMO_DBUS_READ_ONLY ? PSC_EXPORT_FLAGS_READ_ONLY
                                                         : PSC_EXPORT_FLAGS_NONE,
                         &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot export the cache on D-Bus: %s",
                   local->message);
      return FALSE;
    }
  self->mode = mode;
  self->connection = g_steal_pointer (&connection);
  self->cache = g_object_ref (cache);
  self->bus_name = g_strdup (psc_cache_get_export_bus_name (cache));
  self->object_path = g_strdup (psc_cache_get_export_object_path (cache));
  g_print ("D-Bus: exported (%s) as %s, object %s\n", psc_demo_dbus_mode_name (mode),
           self->bus_name, self->object_path);
  fflush (stdout);
  return TRUE;
}

void
psc_demo_export_stop (PscDemoExport *self)
{
  if (self->cache != NULL)
    {
      psc_cache_unexport (self->cache);
      g_clear_object (&self->cache);
    }
  if (self->connection != NULL)
    {
      /* Whatever the export sent last (the name's release) goes out. */
      g_dbus_connection_flush_sync (self->connection, NULL, NULL);
      g_clear_object (&self->connection);
    }
}

void
psc_demo_export_clear (PscDemoExport *self)
{
  psc_demo_export_stop (self);
  g_clear_pointer (&self->bus_name, g_free);
  g_clear_pointer (&self->object_path, g_free);
}

static void
append_json_string (GString *s, const char *value)
{
  g_string_append_c (s, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if ((guchar) *p < 0x20)
        g_string_append_printf (s, "\\u%04x", (guchar) *p);
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

char *
psc_demo_export_to_json (const PscDemoExport *self)
{
  GString *s = g_string_new ("{\"mode\":");

  append_json_string (s, psc_demo_dbus_mode_name (self->mode));
  if (self->bus_name != NULL)
    {
      g_string_append (s, ",\"bus_name\":");
      append_json_string (s, self->bus_name);
    }
  if (self->object_path != NULL)
    {
      g_string_append (s, ",\"object_path\":");
      append_json_string (s, self->object_path);
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}
