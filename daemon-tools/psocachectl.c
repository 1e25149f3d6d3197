/* psocachectl: live inspection and control of the libpsocache caches that
 * running applications export on the session bus (io.github.psocache.Cache1).
 * A pure D-Bus client: GIO and json-glib, nothing of the library's Vulkan
 * side.
 *
 *   psocachectl list [--json]
 *   psocachectl status [--json] [NAME|PID]
 *   psocachectl watch [--json] [--count N] [--interval S] [--duration S] [NAME|PID]
 *   psocachectl entries [--json] [--offset N] [--limit N] [NAME|PID]
 *   psocachectl evict [--json] [--idle-frames N] [NAME|PID]
 *   psocachectl invalidate [--json] (SHADER_ID | --all) [NAME|PID]
 *   psocachectl save [--json] [NAME|PID]
 *   psocachectl trim [--json] MAX_BYTES[K|M|G] [NAME|PID]
 *
 * (every command also takes --bus-name NAME and --object-path PATH). Exit
 * codes (documented in psocachectl(1)): 0 success, 1 the remote call failed
 * (the D-Bus error name and message are printed), 2 a usage error (also:
 * several caches match), 3 no such cache, or no session bus.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ctl-discovery.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#define EXIT_REMOTE 1
#define EXIT_USAGE 2
#define EXIT_NO_CACHE 3

/* A control waits up to PSC_EXPORT_CONTROL_TIMEOUT_MS (5 s) for the
 * application's render thread; the call waits longer, so that the
 * library's own Timeout error is what the user sees. */
#define CALL_TIMEOUT_MS 15000
/* ListEntries' page cap (data/io.github.psocache.Cache1.xml). */
#define ENTRIES_PAGE_MAX 1024

typedef struct {
  const char *command;      /* "psocachectl status" */
  gboolean json;
  char *bus_name, *object_path;
  char **args;
  /* watch */
  int count;
  double interval, duration;
  /* entries */
  int offset, limit;
  /* evict */
  int idle_frames;
  /* invalidate */
  gboolean all;
} CtlOptions;

typedef struct {
  const char *name;
  const char *parameters;   /* the positional arguments, for --help */
  const char *summary;
  const GOptionEntry *entries;
  guint min_args, max_args;
  int (*run) (CtlOptions *o, GDBusConnection *bus);
} CtlCommand;

/* Output ---------------------------------------------------------------- */

static void
print_json_node (JsonNode *root)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

static void
print_json (JsonBuilder *b)
{
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  print_json_node (root);
}

static char *
hex64 (guint64 v)
{
  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", v);
}

/* The properties psocachectl shows, with their JSON member names. */
typedef struct {
  const char *property, *member, *type;
} CtlProperty;

static const CtlProperty properties[] = {
  { "ApplicationId", "application_id", "s" },
  { "Pid", "pid", "u" },
  { "DeviceName", "device_name", "s" },
  { "VendorId", "vendor_id", "u" },
  { "DeviceId", "device_id", "u" },
  { "DriverVersion", "driver_version", "u" },
  { "PipelineCacheUuid", "pipeline_cache_uuid", "s" },
  { "CacheDirectory", "cache_directory", "s" },
  { "Backend", "backend", "s" },
  { "ReadOnly", "read_only", "b" },
  { "Entries", "entries", "t" },
  { "Hits", "hits", "t" },
  { "Misses", "misses", "t" },
  { "Compiling", "compiling", "u" },
  { "QueueDepth", "queue_depth", "u" },
  { "HostBytes", "host_bytes", "t" },
};
#define FIRST_COUNTER 10    /* properties[10..]: the headline counters */

static void
add_variant_member (JsonBuilder *b, const char *member, GVariant *v)
{
  json_builder_set_member_name (b, member);
  if (v == NULL)
    json_builder_add_null_value (b);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    json_builder_add_string_value (b, g_variant_get_string (v, NULL));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    json_builder_add_boolean_value (b, g_variant_get_boolean (v));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    json_builder_add_int_value (b, g_variant_get_uint32 (v));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT64))
    json_builder_add_int_value (b, (gint64) MIN (g_variant_get_uint64 (v), (guint64) G_MAXINT64));
  else
    json_builder_add_value (b, json_gvariant_serialize (v));
}

/* The members of one cache: bus_name, object_path and every property. */
static void
add_cache_members (JsonBuilder *b, const PscCtlCache *c)
{
  json_builder_set_member_name (b, "bus_name");
  json_builder_add_string_value (b, c->bus_name);
  json_builder_set_member_name (b, "object_path");
  json_builder_add_string_value (b, c->object_path);
  for (guint i = 0; i < G_N_ELEMENTS (properties); i++)
    {
      g_autoptr(GVariant) v = psc_ctl_cache_lookup (c, properties[i].property,
                                                    G_VARIANT_TYPE (properties[i].type));
      add_variant_member (b, properties[i].member, v);
    }
}

/* A property as text ("?" when missing). */
static char *
property_text (const PscCtlCache *c, const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (properties); i++)
    if (g_str_equal (properties[i].property, name))
      {
        g_autoptr(GVariant) v = psc_ctl_cache_lookup (c, name, G_VARIANT_TYPE (properties[i].type));
        if (v == NULL)
          return g_strdup ("?");
        if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
          return g_variant_dup_string (v, NULL);
        if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
          return g_strdup (g_variant_get_boolean (v) ? _("yes") : _("no"));
        if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
          return g_strdup_printf ("%u", g_variant_get_uint32 (v));
        return g_strdup_printf ("%" G_GUINT64_FORMAT, g_variant_get_uint64 (v));
      }
  return g_strdup ("?");
}

static char *
driver_version_text (const PscCtlCache *c)
{
  g_autoptr(GVariant) v = psc_ctl_cache_lookup (c, "DriverVersion", G_VARIANT_TYPE_UINT32);
  guint32 d;

  if (v == NULL)
    return g_strdup ("?");
  d = g_variant_get_uint32 (v);
  /* VK_MAKE_API_VERSION's layout (most drivers; NVIDIA packs it otherwise). */
  return g_strdup_printf ("0x%08x (%u.%u.%u)", d, (d >> 22) & 0x7f, (d >> 12) & 0x3ff, d & 0xfff);
}

/* Errors ---------------------------------------------------------------- */

/* A failed call: its D-Bus error name and message on standard error (with
 * --json also {"error": {"name", "message"}} on standard output). A cache
 * that went away is exit 3, any other failure exit 1. */
static int
remote_failure (const CtlOptions *o, const GError *error)
{
  g_autofree char *name = psc_ctl_error_name (error);
  g_autofree char *message = psc_ctl_error_message (error);

  g_printerr ("%s: %s: %s\n", o->command, name, message);
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "error");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, message);
      json_builder_end_object (b);
      json_builder_end_object (b);
      print_json (b);
    }
  if (g_strcmp0 (name, "org.freedesktop.DBus.Error.ServiceUnknown") == 0 ||
      g_strcmp0 (name, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0 ||
      g_strcmp0 (name, "org.freedesktop.DBus.Error.UnknownObject") == 0)
    return EXIT_NO_CACHE;
  return EXIT_REMOTE;
}

static int
usage_error (const CtlOptions *o, const char *message)
{
  g_printerr ("%s: %s\n", o->command, message);
  return EXIT_USAGE;
}

/* Finding the cache ----------------------------------------------------- */

static GPtrArray *
discover (const CtlOptions *o, GDBusConnection *bus, int *status)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *caches = psc_ctl_discover (bus, o->bus_name, o->object_path, &error);

  if (caches == NULL)
    {
      g_printerr (_("%s: the session bus cannot be asked: %s\n"), o->command, error->message);
      *status = EXIT_NO_CACHE;
    }
  return caches;
}

/* The one cache the options and @selector name; NULL with *status set
 * (none: 3; several: 2, naming them). */
static PscCtlCache *
select_one (const CtlOptions *o, GPtrArray *caches, const char *selector, int *status)
{
  g_autoptr(GPtrArray) matches = psc_ctl_select (caches, selector);

  if (matches->len == 1)
    return matches->pdata[0];
  if (matches->len == 0)
    {
      if (selector != NULL)
        g_printerr (_("%s: no exported cache matches “%s”\n"), o->command, selector);
      else if (o->bus_name != NULL || o->object_path != NULL)
        g_printerr (_("%s: no exported cache at %s %s\n"), o->command,
                    o->bus_name != NULL ? o->bus_name : _("(any name)"),
                    o->object_path != NULL ? o->object_path : _("(any path)"));
      else
        g_printerr (_("%s: no application exports a cache on the session bus\n"), o->command);
      *status = EXIT_NO_CACHE;
      return NULL;
    }
  g_printerr (_("%s: %u caches match; choose one with NAME|PID, --bus-name or --object-path:\n"),
              o->command, matches->len);
  for (guint i = 0; i < matches->len; i++)
    {
      const PscCtlCache *c = matches->pdata[i];
      g_autofree char *app = property_text (c, "ApplicationId");
      g_autofree char *pid = property_text (c, "Pid");
      g_printerr ("  --bus-name %s --object-path %s  (%s, pid %s)\n", c->bus_name, c->object_path,
                  app, pid);
    }
  *status = EXIT_USAGE;
  return NULL;
}

/* The cache the command is about, and the positional arguments after the
 * command's own (@nargs). */
static PscCtlCache *
target (const CtlOptions *o, GDBusConnection *bus, guint nargs, GPtrArray **caches, int *status)
{
  const guint given = o->args != NULL ? g_strv_length (o->args) : 0;
  *caches = discover (o, bus, status);
  if (*caches == NULL)
    return NULL;
  return select_one (o, *caches, given > nargs ? o->args[nargs] : NULL, status);
}

static GVariant *
call (const CtlOptions *o, GDBusConnection *bus, const PscCtlCache *c, const char *method,
      GVariant *args, const char *reply_type, int *status)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (bus, c->bus_name, c->object_path, PSC_CTL_INTERFACE, method,
                                       args, G_VARIANT_TYPE (reply_type),
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_TIMEOUT_MS, NULL,
                                       &error);
  if (reply == NULL)
    *status = remote_failure (o, error);
  return reply;
}

/* list -------------------------------------------------------------------- */

static int
cmd_list (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  int status = EXIT_SUCCESS;

  caches = discover (o, bus, &status);
  if (caches == NULL)
    return status;
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "caches");
      json_builder_begin_array (b);
      for (guint i = 0; i < caches->len; i++)
        {
          json_builder_begin_object (b);
          add_cache_members (b, caches->pdata[i]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
      return EXIT_SUCCESS;
    }
  if (caches->len == 0)
    {
      g_print (_("No application exports a cache on the session bus.\n"));
      return EXIT_SUCCESS;
    }
  /* TRANSLATORS: the column heads of psocachectl list. */
  g_print ("%-8s %-24s %-17s %10s %10s %10s  %s\n", _("PID"), _("APPLICATION"), _("BACKEND"),
           _("ENTRIES"), _("HITS"), _("MISSES"), _("BUS NAME AND OBJECT"));
  for (guint i = 0; i < caches->len; i++)
    {
      const PscCtlCache *c = caches->pdata[i];
      g_autofree char *pid = property_text (c, "Pid");
      g_autofree char *app = property_text (c, "ApplicationId");
      g_autofree char *backend = property_text (c, "Backend");
      g_autofree char *entries = property_text (c, "Entries");
      g_autofree char *hits = property_text (c, "Hits");
      g_autofree char *misses = property_text (c, "Misses");
      g_print ("%-8s %-24s %-17s %10s %10s %10s  %s %s\n", pid, app, backend, entries, hits, misses,
               c->bus_name, c->object_path);
    }
  return EXIT_SUCCESS;
}

/* status ------------------------------------------------------------------ */

static void
print_identity (const PscCtlCache *c)
{
  static const struct { const char *property, *label; } rows[] = {
    { "ApplicationId", N_("application") }, { "Pid", N_("pid") },
    { "DeviceName", N_("device") }, { "PipelineCacheUuid", N_("pipeline cache UUID") },
    { "Backend", N_("backend") }, { "CacheDirectory", N_("cache directory") },
    { "ReadOnly", N_("read-only") },
  };
  g_autoptr(GVariant) vendor = psc_ctl_cache_lookup (c, "VendorId", G_VARIANT_TYPE_UINT32);
  g_autoptr(GVariant) device = psc_ctl_cache_lookup (c, "DeviceId", G_VARIANT_TYPE_UINT32);
  g_autofree char *driver = driver_version_text (c);

  g_print ("%s %s\n", c->bus_name, c->object_path);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *text = property_text (c, rows[i].property);
      g_print ("  %-22s %s\n", _(rows[i].label), text[0] != '\0' ? text : _("(none)"));
    }
  if (vendor != NULL && device != NULL)
    g_print ("  %-22s %04x:%04x\n", _("vendor:device"), g_variant_get_uint32 (vendor),
             g_variant_get_uint32 (device));
  g_print ("  %-22s %s\n", _("driver version"), driver);
}

static void
print_variant_value (GVariant *v)
{
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT64))
    g_print ("%" G_GUINT64_FORMAT "\n", g_variant_get_uint64 (v));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    g_print ("%u\n", g_variant_get_uint32 (v));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    g_print ("%s\n", g_variant_get_string (v, NULL));
  else
    {
      g_autofree char *text = g_variant_print (v, FALSE);
      g_print ("%s\n", text);
    }
}

static int
cmd_status (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) stats = NULL;
  PscCtlCache *c;
  int status = EXIT_SUCCESS;

  c = target (o, bus, 0, &caches, &status);
  if (c == NULL)
    return status;
  reply = call (o, bus, c, "GetStatistics", NULL, "(a{sv})", &status);
  if (reply == NULL)
    return status;
  stats = g_variant_get_child_value (reply, 0);
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      GVariantIter it;
      const char *key;
      GVariant *v;

      json_builder_begin_object (b);
      add_cache_members (b, c);
      json_builder_set_member_name (b, "statistics");
      json_builder_begin_object (b);
      g_variant_iter_init (&it, stats);
      while (g_variant_iter_next (&it, "{&sv}", &key, &v))
        {
          add_variant_member (b, key, v);
          g_variant_unref (v);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    {
      GVariantIter it;
      const char *key;
      GVariant *v;

      print_identity (c);
      g_print (_("statistics:\n"));
      g_variant_iter_init (&it, stats);
      while (g_variant_iter_next (&it, "{&sv}", &key, &v))
        {
          g_print ("  %-34s ", key);
          print_variant_value (v);
          g_variant_unref (v);
        }
    }
  return EXIT_SUCCESS;
}

/* watch ------------------------------------------------------------------- */

typedef struct {
  CtlOptions *o;
  GDBusConnection *bus;
  PscCtlCache *cache;       /* properties kept current */
  GMainLoop *loop;
  gboolean tty;
  int status;
  int updates;
  gint64 last_time;
  guint64 last_hits;
  double hit_rate;
  char *last_event;
} Watch;

static char *
now_text (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  return g_date_time_format (now, "%FT%H:%M:%S.%fZ");
}

static guint64
counter (const PscCtlCache *c, const char *name, const char *type)
{
  g_autoptr(GVariant) v = psc_ctl_cache_lookup (c, name, G_VARIANT_TYPE (type));
  if (v == NULL)
    return 0;
  return g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32) ? g_variant_get_uint32 (v)
                                                          : g_variant_get_uint64 (v);
}

static void
watch_draw (Watch *w)
{
  const PscCtlCache *c = w->cache;
  g_autofree char *time = now_text ();
  const gint64 now = g_get_monotonic_time ();
  const guint64 hits = counter (c, "Hits", "t");

  if (w->last_time != 0 && now > w->last_time && hits >= w->last_hits)
    w->hit_rate = (double) (hits - w->last_hits) * G_USEC_PER_SEC / (double) (now - w->last_time);
  w->last_time = now;
  w->last_hits = hits;

  if (w->o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "update");
      json_builder_set_member_name (b, "time");
      json_builder_add_string_value (b, time);
      for (guint i = FIRST_COUNTER; i < G_N_ELEMENTS (properties); i++)
        {
          g_autoptr(GVariant) v = psc_ctl_cache_lookup (c, properties[i].property,
                                                        G_VARIANT_TYPE (properties[i].type));
          add_variant_member (b, properties[i].member, v);
        }
      json_builder_end_object (b);
      print_json (b);
    }
  else if (!w->tty)
    {
      g_print ("%s", time);
      for (guint i = FIRST_COUNTER; i < G_N_ELEMENTS (properties); i++)
        {
          g_autofree char *text = property_text (c, properties[i].property);
          g_print (" %s=%s", properties[i].member, text);
        }
      g_print ("\n");
    }
  else
    {
      static const struct { const char *property, *label; } rows[] = {
        { "Entries", N_("entries") }, { "Hits", N_("hits") }, { "Misses", N_("misses") },
        { "Compiling", N_("compiling") }, { "QueueDepth", N_("queue depth") },
        { "HostBytes", N_("host bytes") },
      };
      g_autofree char *app = property_text (c, "ApplicationId");
      g_autofree char *pid = property_text (c, "Pid");
      g_autofree char *device = property_text (c, "DeviceName");
      g_autofree char *backend = property_text (c, "Backend");
      const guint64 misses = counter (c, "Misses", "t");

      /* Home, clear the screen. */
      g_print ("\033[H\033[2J");
      g_print ("%s, pid %s — %s, %s\n", app, pid, device, backend);
      g_print ("%s %s\n\n", c->bus_name, c->object_path);
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        {
          g_autofree char *text = property_text (c, rows[i].property);
          g_print ("  %-14s %16s", _(rows[i].label), text);
          if (g_str_equal (rows[i].property, "Hits"))
            g_print (_("   %.0f/s"), w->hit_rate);
          g_print ("\n");
        }
      if (hits + misses > 0)
        g_print (_("  %-14s %15.1f%%\n"), _("hit ratio"), 100.0 * hits / (double) (hits + misses));
      g_print ("\n%s %s\n", _("last event:"), w->last_event != NULL ? w->last_event : _("none"));
      g_print (_("updated %s; Ctrl+C stops\n"), time);
    }
  fflush (stdout);
  w->updates++;
  if (w->o->count > 0 && w->updates >= w->o->count)
    g_main_loop_quit (w->loop);
}

static void
watch_set_properties (Watch *w, GVariant *changed)
{
  GVariantDict d;
  GVariantIter it;
  const char *key;
  GVariant *v;

  g_variant_dict_init (&d, w->cache->properties);
  g_variant_iter_init (&it, changed);
  while (g_variant_iter_next (&it, "{&sv}", &key, &v))
    {
      g_variant_dict_insert_value (&d, key, v);
      g_variant_unref (v);
    }
  g_variant_unref (w->cache->properties);
  w->cache->properties = g_variant_ref_sink (g_variant_dict_end (&d));
}

/* Reads every property again (an interval, or invalidated properties). */
static gboolean
watch_refresh (Watch *w)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) props = NULL;

  reply = g_dbus_connection_call_sync (w->bus, w->cache->bus_name, w->cache->object_path,
                                       "org.freedesktop.DBus.Properties", "GetAll",
                                       g_variant_new ("(s)", PSC_CTL_INTERFACE),
                                       G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       CALL_TIMEOUT_MS, NULL, &error);
  if (reply == NULL)
    {
      w->status = remote_failure (w->o, error);
      g_main_loop_quit (w->loop);
      return FALSE;
    }
  props = g_variant_get_child_value (reply, 0);
  watch_set_properties (w, props);
  return TRUE;
}

static void
on_properties_changed (GDBusConnection *bus, const char *sender, const char *path,
                       const char *iface, const char *signal, GVariant *params, gpointer data)
{
  Watch *w = data;
  g_autoptr(GVariant) changed = NULL;
  g_autofree const char **invalidated = NULL;
  const char *name;

  if (!g_variant_is_of_type (params, G_VARIANT_TYPE ("(sa{sv}as)")))
    return;
  g_variant_get (params, "(&s@a{sv}^a&s)", &name, &changed, &invalidated);
  if (!g_str_equal (name, PSC_CTL_INTERFACE))
    return;
  watch_set_properties (w, changed);
  if (invalidated[0] != NULL && !watch_refresh (w))
    return;
  watch_draw (w);
}

static void
on_cache_signal (GDBusConnection *bus, const char *sender, const char *path, const char *iface,
                 const char *signal, GVariant *params, gpointer data)
{
  Watch *w = data;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *time = now_text ();
  g_autofree char *text = NULL;
  const char *type;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  if (g_str_equal (signal, "PipelineCompiled") &&
      g_variant_is_of_type (params, G_VARIANT_TYPE ("(uat)")))
    {
      g_autoptr(GVariantIter) hashes = NULL;
      guint32 count;
      guint64 hash;

      g_variant_get (params, "(uat)", &count, &hashes);
      type = "pipeline-compiled";
      json_builder_add_string_value (b, type);
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, count);
      json_builder_set_member_name (b, "key_hashes");
      json_builder_begin_array (b);
      while (g_variant_iter_next (hashes, "t", &hash))
        {
          g_autofree char *h = hex64 (hash);
          json_builder_add_string_value (b, h);
        }
      json_builder_end_array (b);
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pipeline compiled",
                                           "%u pipelines compiled", count), count);
    }
  else if (g_str_equal (signal, "Invalidated") &&
           g_variant_is_of_type (params, G_VARIANT_TYPE ("(uu)")))
    {
      guint32 shader, generation;

      g_variant_get (params, "(uu)", &shader, &generation);
      type = "invalidated";
      json_builder_add_string_value (b, type);
      json_builder_set_member_name (b, "shader_id");
      json_builder_add_int_value (b, shader);
      json_builder_set_member_name (b, "generation");
      json_builder_add_int_value (b, generation);
      text = shader == 0 ? g_strdup (_("every shader invalidated"))
                         : g_strdup_printf (_("shader %u invalidated (generation %u)"), shader,
                                            generation);
    }
  else if (g_str_equal (signal, "Saved") && g_variant_is_of_type (params, G_VARIANT_TYPE ("(bt)")))
    {
      gboolean success;
      guint64 bytes;

      g_variant_get (params, "(bt)", &success, &bytes);
      type = "saved";
      json_builder_add_string_value (b, type);
      json_builder_set_member_name (b, "success");
      json_builder_add_boolean_value (b, success);
      json_builder_set_member_name (b, "bytes_written");
      json_builder_add_int_value (b, (gint64) MIN (bytes, (guint64) G_MAXINT64));
      if (success)
        {
          g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
          /* TRANSLATORS: %s is a number of bytes. */
          text = g_strdup_printf (_("saved, %s bytes written"), n);
        }
      else
        text = g_strdup (_("a save failed"));
    }
  else
    return;
  json_builder_set_member_name (b, "time");
  json_builder_add_string_value (b, time);
  json_builder_end_object (b);

  if (w->o->json)
    print_json (b);
  else if (!w->tty)
    g_print ("%s event=%s %s\n", time, type, text);
  else
    {
      g_free (w->last_event);
      w->last_event = g_strdup_printf ("%s (%s)", text, time);
      /* Shown at the next redraw. */
      return;
    }
  fflush (stdout);
}

static void
on_name_vanished (GDBusConnection *bus, const char *name, gpointer data)
{
  Watch *w = data;
  if (w->tty && !w->o->json)
    g_print ("\n");
  g_printerr (_("%s: %s went away\n"), w->o->command, name);
  w->status = EXIT_NO_CACHE;
  g_main_loop_quit (w->loop);
}

static gboolean
on_interval (gpointer data)
{
  Watch *w = data;
  if (!watch_refresh (w))
    return G_SOURCE_REMOVE;
  watch_draw (w);
  return G_SOURCE_CONTINUE;
}

/* --duration, SIGINT and SIGTERM. */
static gboolean
on_stop (gpointer data)
{
  Watch *w = data;
  g_main_loop_quit (w->loop);
  return G_SOURCE_CONTINUE;
}

static int
cmd_watch (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) owner = NULL;
  g_autoptr(GError) error = NULL;
  Watch w = { .o = o, .bus = bus, .status = EXIT_SUCCESS };
  const char *unique;
  guint props_id, signals_id, name_id, interval_id = 0, duration_id = 0, int_id, term_id;

  if (o->count < 0 || o->interval < 0 || o->duration < 0)
    return usage_error (o, _("--count, --interval and --duration cannot be negative"));
  /* (Milliseconds in a guint.) */
  if (o->interval > G_MAXUINT / 1000 || o->duration > G_MAXUINT / 1000)
    return usage_error (o, _("--interval and --duration are at most 4294967 seconds"));
  w.cache = target (o, bus, 0, &caches, &w.status);
  if (w.cache == NULL)
    return w.status;
  /* Signals are matched on the name's owner (a unique name). */
  owner = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "GetNameOwner",
                                       g_variant_new ("(s)", w.cache->bus_name),
                                       G_VARIANT_TYPE ("(s)"), G_DBUS_CALL_FLAGS_NONE,
                                       CALL_TIMEOUT_MS, NULL, &error);
  if (owner == NULL)
    return remote_failure (o, error);
  g_variant_get (owner, "(&s)", &unique);

  w.tty = isatty (STDOUT_FILENO);
  w.loop = g_main_loop_new (NULL, FALSE);
  props_id = g_dbus_connection_signal_subscribe (bus, unique, "org.freedesktop.DBus.Properties",
                                                 "PropertiesChanged", w.cache->object_path,
                                                 PSC_CTL_INTERFACE, G_DBUS_SIGNAL_FLAGS_NONE,
                                                 on_properties_changed, &w, NULL);
  signals_id = g_dbus_connection_signal_subscribe (bus, unique, PSC_CTL_INTERFACE, NULL,
                                                   w.cache->object_path, NULL,
                                                   G_DBUS_SIGNAL_FLAGS_NONE, on_cache_signal, &w,
                                                   NULL);
  name_id = g_bus_watch_name_on_connection (bus, w.cache->bus_name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                            NULL, on_name_vanished, &w, NULL);
  int_id = g_unix_signal_add (SIGINT, on_stop, &w);
  term_id = g_unix_signal_add (SIGTERM, on_stop, &w);
  if (o->interval > 0)
    interval_id = g_timeout_add ((guint) MAX (1.0, o->interval * 1000.0), on_interval, &w);
  if (o->duration > 0)
    duration_id = g_timeout_add ((guint) MAX (1.0, o->duration * 1000.0), on_stop, &w);
  /* (Past the first draw, --count also stops in watch_draw.) */

  /* The first view: fresh values (after subscribing, so no change is lost). */
  if (watch_refresh (&w))
    {
      watch_draw (&w);
      if (o->count == 0 || w.updates < o->count)
        g_main_loop_run (w.loop);
    }

  g_dbus_connection_signal_unsubscribe (bus, props_id);
  g_dbus_connection_signal_unsubscribe (bus, signals_id);
  g_bus_unwatch_name (name_id);
  g_source_remove (int_id);
  g_source_remove (term_id);
  /* The interval source removes itself when a read fails. */
  if (interval_id != 0 && g_main_context_find_source_by_id (NULL, interval_id) != NULL)
    g_source_remove (interval_id);
  if (duration_id != 0)
    g_source_remove (duration_id);
  g_main_loop_unref (w.loop);
  g_free (w.last_event);
  return w.status;
}

/* entries ----------------------------------------------------------------- */

static int
cmd_entries (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariantIter) it = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  PscCtlCache *c;
  int status = EXIT_SUCCESS;
  guint32 total, id, generation, shown = 0;
  guint64 hash, frame, bytes;
  const char *kind, *state;

  if (o->offset < 0)
    return usage_error (o, _("--offset cannot be negative"));
  if (o->limit < 1 || o->limit > ENTRIES_PAGE_MAX)
    return usage_error (o, _("--limit must be between 1 and 1024"));
  c = target (o, bus, 0, &caches, &status);
  if (c == NULL)
    return status;
  reply = call (o, bus, c, "ListEntries", g_variant_new ("(uu)", (guint32) o->offset,
                                                         (guint32) o->limit),
                "(a(ustsutt)u)", &status);
  if (reply == NULL)
    return status;
  g_variant_get (reply, "(a(ustsutt)u)", &it, &total);

  if (o->json)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "bus_name");
      json_builder_add_string_value (b, c->bus_name);
      json_builder_set_member_name (b, "object_path");
      json_builder_add_string_value (b, c->object_path);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, o->offset);
      json_builder_set_member_name (b, "total");
      json_builder_add_int_value (b, total);
      json_builder_set_member_name (b, "entries");
      json_builder_begin_array (b);
    }
  else
    /* TRANSLATORS: the column heads of psocachectl entries. */
    g_print ("%10s %-22s %-16s %-10s %10s %12s %12s\n", _("ID"), _("KIND"), _("KEY HASH"),
             _("STATE"), _("GENERATION"), _("LAST FRAME"), _("HOST BYTES"));
  while (g_variant_iter_next (it, "(u&st&sutt)", &id, &kind, &hash, &state, &generation, &frame,
                              &bytes))
    {
      g_autofree char *h = hex64 (hash);
      shown++;
      if (!o->json)
        {
          g_print ("%10u %-22s %-16s %-10s %10u %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n",
                   id, kind, h, state, generation, frame, bytes);
          continue;
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, id);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, kind);
      json_builder_set_member_name (b, "key_hash");
      json_builder_add_string_value (b, h);
      json_builder_set_member_name (b, "state");
      json_builder_add_string_value (b, state);
      json_builder_set_member_name (b, "generation");
      json_builder_add_int_value (b, generation);
      json_builder_set_member_name (b, "last_used_frame");
      json_builder_add_int_value (b, (gint64) MIN (frame, (guint64) G_MAXINT64));
      json_builder_set_member_name (b, "host_bytes");
      json_builder_add_int_value (b, (gint64) MIN (bytes, (guint64) G_MAXINT64));
      json_builder_end_object (b);
    }
  if (o->json)
    {
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    g_print (_("%u of %u entries (from %d)\n"), shown, total, o->offset);
  return EXIT_SUCCESS;
}

/* controls ---------------------------------------------------------------- */

/* Parses a u32 positional argument. */
static gboolean
parse_u32 (const CtlOptions *o, const char *text, const char *what, guint32 *out)
{
  guint64 v;
  g_autoptr(GError) error = NULL;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, &error))
    {
      g_printerr (_("%s: %s: %s\n"), o->command, what, error->message);
      return FALSE;
    }
  *out = (guint32) v;
  return TRUE;
}

/* Bytes, with an optional K, M or G (binary: 1024, 1024², 1024³), as
 * PSOCACHE_MAX_SIZE; 0 is allowed. */
static gboolean
parse_size (const char *text, guint64 *out)
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
  if (*end != '\0' || value > G_MAXUINT64 / unit)
    return FALSE;
  *out = value * unit;
  return TRUE;
}

/* Prints a control's result: @json_member = @value (a u32/u64; NULL: just
 * "done"), and the human line. */
static void
print_result (const CtlOptions *o, const PscCtlCache *c, const char *member, GVariant *value,
              const char *line)
{
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "bus_name");
      json_builder_add_string_value (b, c->bus_name);
      json_builder_set_member_name (b, "object_path");
      json_builder_add_string_value (b, c->object_path);
      if (member != NULL)
        add_variant_member (b, member, value);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    g_print ("%s\n", line);
}

static int
cmd_evict (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) evicted = NULL;
  g_autofree char *line = NULL;
  PscCtlCache *c;
  int status = EXIT_SUCCESS;

  if (o->idle_frames < 0)
    return usage_error (o, _("--idle-frames cannot be negative"));
  c = target (o, bus, 0, &caches, &status);
  if (c == NULL)
    return status;
  reply = call (o, bus, c, "Evict", g_variant_new ("(u)", (guint32) o->idle_frames), "(u)", &status);
  if (reply == NULL)
    return status;
  evicted = g_variant_get_child_value (reply, 0);
  line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pipeline evicted",
                                       "%u pipelines evicted", g_variant_get_uint32 (evicted)),
                          g_variant_get_uint32 (evicted));
  print_result (o, c, "evicted", evicted, line);
  return EXIT_SUCCESS;
}

static int
cmd_invalidate (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) id_value = NULL;
  g_autofree char *line = NULL;
  const guint given = o->args != NULL ? g_strv_length (o->args) : 0;
  PscCtlCache *c;
  guint32 shader = 0;
  int status = EXIT_SUCCESS;

  if (o->all && given > 1)
    return usage_error (o, _("--all takes no shader id (only NAME|PID)"));
  if (!o->all && given == 0)
    return usage_error (o, _("give a SHADER_ID or --all"));
  if (!o->all && !parse_u32 (o, o->args[0], "SHADER_ID", &shader))
    return EXIT_USAGE;
  c = target (o, bus, o->all ? 0 : 1, &caches, &status);
  if (c == NULL)
    return status;
  if (o->all)
    reply = call (o, bus, c, "InvalidateAll", NULL, "()", &status);
  else
    reply = call (o, bus, c, "InvalidateShader", g_variant_new ("(u)", shader), "()", &status);
  if (reply == NULL)
    return status;
  if (o->all)
    line = g_strdup (_("every shader invalidated: their pipelines are compiled again"));
  else
    line = g_strdup_printf (_("shader %u invalidated: its pipelines are compiled again"), shader);
  id_value = g_variant_ref_sink (g_variant_new_uint32 (shader));
  /* {"shader_id": N}, 0 for --all (as the Invalidated signal). */
  print_result (o, c, "shader_id", id_value, line);
  return EXIT_SUCCESS;
}

static int
cmd_save (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) yes = g_variant_ref_sink (g_variant_new_boolean (TRUE));
  PscCtlCache *c;
  int status = EXIT_SUCCESS;

  c = target (o, bus, 0, &caches, &status);
  if (c == NULL)
    return status;
  reply = call (o, bus, c, "Save", NULL, "()", &status);
  if (reply == NULL)
    return status;
  print_result (o, c, "saved", yes, _("saved"));
  return EXIT_SUCCESS;
}

static int
cmd_trim (CtlOptions *o, GDBusConnection *bus)
{
  g_autoptr(GPtrArray) caches = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) freed = NULL;
  g_autofree char *line = NULL;
  PscCtlCache *c;
  guint64 max_bytes;
  int status = EXIT_SUCCESS;

  if (o->args == NULL || o->args[0] == NULL)
    return usage_error (o, _("give MAX_BYTES"));
  if (!parse_size (o->args[0], &max_bytes))
    {
      g_printerr (_("%s: “%s” is not a size (digits with an optional K, M or G)\n"), o->command,
                  o->args[0]);
      return EXIT_USAGE;
    }
  c = target (o, bus, 1, &caches, &status);
  if (c == NULL)
    return status;
  reply = call (o, bus, c, "Trim", g_variant_new ("(t)", max_bytes), "(t)", &status);
  if (reply == NULL)
    return status;
  freed = g_variant_get_child_value (reply, 0);
  {
    g_autofree char *freed_text = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                   g_variant_get_uint64 (freed));
    g_autofree char *max_text = g_strdup_printf ("%" G_GUINT64_FORMAT, max_bytes);
    /* TRANSLATORS: both %s are numbers of bytes. */
    line = g_strdup_printf (_("%s bytes freed (the directory is trimmed to at most %s bytes)"),
                            freed_text, max_text);
  }
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "bus_name");
      json_builder_add_string_value (b, c->bus_name);
      json_builder_set_member_name (b, "object_path");
      json_builder_add_string_value (b, c->object_path);
      json_builder_set_member_name (b, "max_bytes");
      json_builder_add_int_value (b, (gint64) MIN (max_bytes, (guint64) G_MAXINT64));
      add_variant_member (b, "freed", freed);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    g_print ("%s\n", line);
  return EXIT_SUCCESS;
}

/* The command table ------------------------------------------------------- */

static CtlOptions opts = { .limit = ENTRIES_PAGE_MAX };

static const GOptionEntry common_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opts.json,
    N_("Print JSON (watch: one JSON object per line)"), NULL },
  { "bus-name", 0, 0, G_OPTION_ARG_STRING, &opts.bus_name,
    N_("The cache's bus name (when several match)"), N_("NAME") },
  { "object-path", 0, 0, G_OPTION_ARG_STRING, &opts.object_path,
    N_("The cache's object path (when a process exports several)"), N_("PATH") },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.args, NULL, NULL },
  { NULL }
};

static const GOptionEntry no_entries[] = { { NULL } };

static const GOptionEntry watch_entries[] = {
  { "count", 'n', 0, G_OPTION_ARG_INT, &opts.count,
    N_("Stop after N updates (default: run until interrupted)"), N_("N") },
  { "interval", 'i', 0, G_OPTION_ARG_DOUBLE, &opts.interval,
    N_("Also read the counters every S seconds (default: update on changes only)"), N_("S") },
  { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &opts.duration,
    N_("Stop after S seconds"), N_("S") },
  { NULL }
};

static const GOptionEntry entries_entries[] = {
  { "offset", 0, 0, G_OPTION_ARG_INT, &opts.offset,
    N_("Skip the first N entries (default 0)"), N_("N") },
  { "limit", 0, 0, G_OPTION_ARG_INT, &opts.limit,
    N_("Show at most N entries, 1 to 1024 (default 1024)"), N_("N") },
  { NULL }
};

static const GOptionEntry evict_entries[] = {
  { "idle-frames", 0, 0, G_OPTION_ARG_INT, &opts.idle_frames,
    N_("Evict pipelines idle for more than N frames (default 0: the library's minimum, "
       "PSC_BORROW_FRAMES)"), N_("N") },
  { NULL }
};

static const GOptionEntry invalidate_entries[] = {
  { "all", 'a', 0, G_OPTION_ARG_NONE, &opts.all, N_("Invalidate every shader"), NULL },
  { NULL }
};

static const CtlCommand commands[] = {
  { "list", "", N_("List the caches that running applications export on the session bus"),
    no_entries, 0, 0, cmd_list },
  { "status", N_("[NAME|PID]"), N_("Show a cache's identity and every counter"),
    no_entries, 0, 1, cmd_status },
  { "watch", N_("[NAME|PID]"), N_("Follow a cache's counters live (plain lines when standard "
                                  "output is not a terminal)"),
    watch_entries, 0, 1, cmd_watch },
  { "entries", N_("[NAME|PID]"), N_("List a page of a cache's live entries"),
    entries_entries, 0, 1, cmd_entries },
  { "evict", N_("[NAME|PID]"), N_("Evict idle pipelines now"),
    evict_entries, 0, 1, cmd_evict },
  { "invalidate", N_("SHADER_ID|--all [NAME|PID]"),
    N_("Compile again every pipeline made from a shader (or from every shader)"),
    invalidate_entries, 0, 2, cmd_invalidate },
  { "save", N_("[NAME|PID]"), N_("Save the cache's persistent layers now"),
    no_entries, 0, 1, cmd_save },
  { "trim", N_("MAX_BYTES[K|M|G] [NAME|PID]"),
    N_("Trim the cache's directory to at most MAX_BYTES (least recently used files first)"),
    no_entries, 1, 2, cmd_trim },
};

/* The list of commands: on standard output for --help (exit 0), on
 * standard error after a usage error (exit 2). */
static int
usage (gboolean asked)
{
  GString *text = g_string_new (NULL);

  g_string_append (text, _("Usage: psocachectl COMMAND [OPTION…] [ARGUMENT…]\n\n"
                           "Inspect and control the libpsocache caches that running applications "
                           "export on the session bus.\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "  %-11s %s\n", commands[i].name, _(commands[i].summary));
  g_string_append (text, _("\nRun psocachectl COMMAND --help for a command's options.\n"));
  if (asked)
    g_print ("%s", text->str);
  else
    g_printerr ("%s", text->str);
  g_string_free (text, TRUE);
  return asked ? EXIT_SUCCESS : EXIT_USAGE;
}

static int
run_command (const CtlCommand *cmd, int argc, char **argv)
{
  g_autofree char *prgname = g_strdup_printf ("psocachectl %s", cmd->name);
  g_autoptr(GOptionContext) ctx = g_option_context_new (_(cmd->parameters));
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  guint given;
  int status;

  g_set_prgname (prgname);
  opts.command = prgname;
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _(cmd->summary));
  g_option_context_add_main_entries (ctx, cmd->entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (ctx, common_entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error (&opts, error->message);
  given = opts.args != NULL ? g_strv_length (opts.args) : 0;
  if (given < cmd->min_args || given > cmd->max_args)
    {
      g_printerr (_("%s: wrong number of arguments (usage: %s %s)\n"), prgname, prgname,
                  _(cmd->parameters));
      return EXIT_USAGE;
    }
  if (opts.bus_name != NULL && !g_dbus_is_name (opts.bus_name))
    return usage_error (&opts, _("--bus-name: not a D-Bus bus name"));
  if (opts.object_path != NULL && !g_variant_is_object_path (opts.object_path))
    return usage_error (&opts, _("--object-path: not a D-Bus object path"));

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      g_printerr (_("%s: no session bus: %s\n"), prgname, error->message);
      return EXIT_NO_CACHE;
    }
  status = cmd->run (&opts, bus);
  g_strfreev (opts.args);
  g_free (opts.bus_name);
  g_free (opts.object_path);
  return status;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, PSC_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    return usage (argc >= 2);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return run_command (&commands[i], argc - 1, argv + 1);
  g_printerr (_("psocachectl: unknown command “%s”\n"), argv[1]);
  return usage (FALSE);
}
