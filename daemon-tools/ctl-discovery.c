/* ctl-discovery.c: finding the caches exported on the session bus
 * (ctl-discovery.h). Every reply is untrusted: a property of the wrong type
 * is treated as missing, an object path not under /io/github/psocache/Cache1
 * is ignored.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ctl-discovery.h"

#include <string.h>
#include <glib/gi18n.h>

void
psc_ctl_cache_free (PscCtlCache *cache)
{
  if (cache == NULL)
    return;
  g_free (cache->bus_name);
  g_free (cache->object_path);
  g_clear_pointer (&cache->properties, g_variant_unref);
  g_free (cache);
}

gboolean
psc_ctl_is_cache_name (const char *name)
{
  return name[0] != ':' &&
         ((g_str_has_prefix (name, PSC_CTL_NAME_PREFIX) &&
           strlen (name) > strlen (PSC_CTL_NAME_PREFIX)) ||
          (g_str_has_suffix (name, PSC_CTL_NAME_SUFFIX) &&
           strlen (name) > strlen (PSC_CTL_NAME_SUFFIX)));
}

static gboolean
path_is_ours (const char *path)
{
  return g_str_equal (path, PSC_CTL_OBJECT_PATH) ||
         (g_str_has_prefix (path, PSC_CTL_OBJECT_PATH "/") &&
          path[strlen (PSC_CTL_OBJECT_PATH "/")] != '\0');
}

static void
add_cache (GPtrArray *out, const char *bus_name, const char *path, GVariant *props)
{
  PscCtlCache *c = g_new0 (PscCtlCache, 1);
  c->bus_name = g_strdup (bus_name);
  c->object_path = g_strdup (path);
  c->properties = g_variant_ref_sink (props);
  g_ptr_array_add (out, c);
}

/* An error saying that nothing of ours is there (rather than that the
 * process misbehaved). */
static gboolean
is_absent (const GError *error)
{
  g_autofree char *name = g_dbus_error_get_remote_error (error);
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
         g_strcmp0 (name, "org.freedesktop.DBus.Error.UnknownMethod") == 0 ||
         g_strcmp0 (name, "org.freedesktop.DBus.Error.UnknownObject") == 0 ||
         g_strcmp0 (name, "org.freedesktop.DBus.Error.UnknownInterface") == 0;
}

/* The interface's properties at one path, NULL when it is not there. */
static GVariant *
get_all (GDBusConnection *bus, const char *name, const char *path, GError **error)
{
  g_autoptr(GVariant) reply = NULL;
  GVariant *props;

  reply = g_dbus_connection_call_sync (bus, name, path, "org.freedesktop.DBus.Properties", "GetAll",
                                       g_variant_new ("(s)", PSC_CTL_INTERFACE),
                                       G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE,
                                       PSC_CTL_DISCOVERY_TIMEOUT_MS, NULL, error);
  if (reply == NULL)
    return NULL;
  g_variant_get (reply, "(@a{sv})", &props);
  return props;
}

char *
psc_ctl_error_name (const GError *error)
{
  char *name = g_dbus_error_get_remote_error (error);

  if (name != NULL)
    return name;
  /* Local failures: the reply did not come in time, or the connection. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_strdup ("org.freedesktop.DBus.Error.NoReply");
  if (error->domain == G_DBUS_ERROR)
    return g_dbus_error_encode_gerror (error);
  return g_strdup ("org.freedesktop.DBus.Error.Failed");
}

char *
psc_ctl_error_message (const GError *error)
{
  g_autoptr(GError) copy = g_error_copy (error);

  g_dbus_error_strip_remote_error (copy);
  return g_strdup (copy->message);
}

static void
warn (const char *name, const GError *error)
{
  g_autofree char *remote = psc_ctl_error_name (error);
  g_autofree char *message = psc_ctl_error_message (error);

  g_printerr (_("psocachectl: %s does not answer, left out: %s: %s\n"), name, remote, message);
}

/* The caches one name exports (ObjectManager first; a name without one: the
 * object at the root path). */
static void
discover_name (GDBusConnection *bus, const char *name, const char *only_path, gboolean warn_absent,
               GPtrArray *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint before = out->len;

  reply = g_dbus_connection_call_sync (bus, name, PSC_CTL_OBJECT_PATH,
                                       "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                                       NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       PSC_CTL_DISCOVERY_TIMEOUT_MS, NULL, &error);
  if (reply != NULL)
    {
      g_autoptr(GVariantIter) objects = NULL;
      const char *path;
      GVariant *ifaces;

      g_variant_get (reply, "(a{oa{sa{sv}}})", &objects);
      while (g_variant_iter_next (objects, "{&o@a{sa{sv}}}", &path, &ifaces))
        {
          GVariant *props = g_variant_lookup_value (ifaces, PSC_CTL_INTERFACE,
                                                    G_VARIANT_TYPE ("a{sv}"));
          if (props != NULL && path_is_ours (path) &&
              (only_path == NULL || g_str_equal (only_path, path)))
            add_cache (out, name, path, props);
          else if (props != NULL)
            g_variant_unref (props);
          g_variant_unref (ifaces);
        }
    }
  else if (!is_absent (error))
    {
      warn (name, error);
      return;
    }
  /* Not listed: the object itself (the one-cache form, or a path asked for). */
  if (out->len == before && (reply == NULL || only_path != NULL))
    {
      const char *path = only_path != NULL ? only_path : PSC_CTL_OBJECT_PATH;
      GVariant *props;

      g_clear_error (&error);
      props = get_all (bus, name, path, &error);
      if (props != NULL)
        add_cache (out, name, path, props);
      else if (!is_absent (error) || warn_absent)
        warn (name, error);
    }
}

static int
compare_caches (gconstpointer a, gconstpointer b)
{
  const PscCtlCache *x = *(PscCtlCache * const *) a, *y = *(PscCtlCache * const *) b;
  int c = strcmp (x->bus_name, y->bus_name);
  return c != 0 ? c : strcmp (x->object_path, y->object_path);
}

GPtrArray *
psc_ctl_discover (GDBusConnection  *bus,
                  const char       *bus_name,
                  const char       *object_path,
                  GError          **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_ctl_cache_free);
  g_autoptr(GVariant) reply = NULL;
  g_autofree const char **names = NULL;

  if (bus_name != NULL)
    {
      discover_name (bus, bus_name, object_path, FALSE, out);
      return g_steal_pointer (&out);
    }
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "ListNames", NULL,
                                       G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE,
                                       PSC_CTL_DISCOVERY_TIMEOUT_MS, NULL, error);
  if (reply == NULL)
    return NULL;
  g_variant_get (reply, "(^a&s)", &names);
  for (guint i = 0; names[i] != NULL; i++)
    if (psc_ctl_is_cache_name (names[i]))
      discover_name (bus, names[i], object_path,
                     g_str_has_prefix (names[i], PSC_CTL_NAME_PREFIX), out);
  g_ptr_array_sort (out, compare_caches);
  return g_steal_pointer (&out);
}

GVariant *
psc_ctl_cache_lookup (const PscCtlCache  *cache,
                      const char         *name,
                      const GVariantType *type)
{
  return g_variant_lookup_value (cache->properties, name, type);
}

/* The PID a name of the first form ends with (".pid<PID>"), 0 if none. */
static guint64
name_pid (const char *name)
{
  const char *last = strrchr (name, '.');
  guint64 pid = 0;

  if (!g_str_has_prefix (name, PSC_CTL_NAME_PREFIX) || last == NULL ||
      !g_str_has_prefix (last, ".pid") ||
      !g_ascii_string_to_unsigned (last + 4, 10, 1, G_MAXUINT32, &pid, NULL))
    return 0;
  return pid;
}

GPtrArray *
psc_ctl_select (GPtrArray  *caches,
                const char *selector)
{
  GPtrArray *out = g_ptr_array_new ();
  guint64 pid = 0;
  gboolean by_pid = selector != NULL &&
                    g_ascii_string_to_unsigned (selector, 10, 1, G_MAXUINT32, &pid, NULL);

  for (guint i = 0; i < caches->len; i++)
    {
      PscCtlCache *c = caches->pdata[i];
      g_autoptr(GVariant) app = psc_ctl_cache_lookup (c, "ApplicationId", G_VARIANT_TYPE_STRING);
      g_autoptr(GVariant) p = psc_ctl_cache_lookup (c, "Pid", G_VARIANT_TYPE_UINT32);

      if (selector == NULL ||
          (by_pid && ((p != NULL && g_variant_get_uint32 (p) == pid) ||
                      name_pid (c->bus_name) == pid)) ||
          (!by_pid && (g_str_equal (c->bus_name, selector) ||
                       (app != NULL && g_str_equal (g_variant_get_string (app, NULL), selector)))))
        g_ptr_array_add (out, c);
    }
  return out;
}
