/* psocache-tool: offline inspection of libpsocache cache directories.
 *
 *   psocache-tool inspect [--json] [--no-device] DIR|FILE...
 *   psocache-tool verify [--json] [--no-device] DIR|FILE...
 *
 * Exit codes (documented in psocache-tool(1)): 0 success (verify: every
 * file valid), 1 verify found an invalid file, 2 a usage error, 3 a path
 * that cannot be read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cache-files.h"
#include "sanitizer.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <psocache/psocache.h>

#define EXIT_INVALID 1
#define EXIT_USAGE 2
#define EXIT_UNREADABLE 3

typedef struct {
  gboolean json;
  gboolean no_device;
  gboolean probe;
  char **paths;
} ToolOptions;

typedef struct {
  gboolean ran;
  guint recorded, served, stale;
  char *error;
} ToolProbe;

typedef int (*ToolCommand) (const ToolOptions *o, GPtrArray *files, gboolean have_device);

/* The default device's identity (a headless device, as psocache-demo
 * makes), or FALSE when none can be created. */
static gboolean
default_identity (PscDeviceIdentity *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  const PscDeviceInfo *info;
  PFN_vkGetPhysicalDeviceProperties get_properties;
  VkPhysicalDeviceProperties props;

  psc_demo_keep_driver_resident ();
  device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    {
      g_printerr (_("psocache-tool: no Vulkan device (%s): files are not checked against one\n"),
                  error->message);
      return FALSE;
    }
  info = psc_device_get_info (device);
  get_properties = (PFN_vkGetPhysicalDeviceProperties)
    info->get_instance_proc_addr (info->instance, "vkGetPhysicalDeviceProperties");
  if (get_properties == NULL)
    return FALSE;
  get_properties (info->physical_device, &props);
  id->vendor_id = props.vendorID;
  id->device_id = props.deviceID;
  id->driver_version = props.driverVersion;
  memcpy (id->uuid, props.pipelineCacheUUID, VK_UUID_SIZE);
  return TRUE;
}

static char *
uuid_hex (const uint8_t *uuid)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < VK_UUID_SIZE; i++)
    g_string_append_printf (s, "%02x", uuid[i]);
  return g_string_free (s, FALSE);
}

static char *
version_text (guint32 v)
{
  return g_strdup_printf ("%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
}

/* Collects the files of every path (directories: their entries). */
static GPtrArray *
collect (char **paths, const PscDeviceIdentity *device, gboolean *unreadable)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_tool_file_free);

  for (char **p = paths; *p != NULL; p++)
    {
      g_autoptr(GError) error = NULL;
      GPtrArray *files;

      if (!g_file_test (*p, G_FILE_TEST_IS_DIR) || g_file_test (*p, G_FILE_TEST_IS_SYMLINK))
        {
          if (!g_file_test (*p, G_FILE_TEST_EXISTS) && !g_file_test (*p, G_FILE_TEST_IS_SYMLINK))
            {
              g_printerr (_("psocache-tool: %s: no such file or directory\n"), *p);
              *unreadable = TRUE;
              continue;
            }
          g_ptr_array_add (all, psc_tool_file_inspect (*p, device));
          continue;
        }
      files = psc_tool_inspect_directory (*p, device, &error);
      if (files == NULL)
        {
          g_printerr ("psocache-tool: %s\n", error->message);
          *unreadable = TRUE;
          continue;
        }
      g_ptr_array_extend_and_steal (all, files);
    }
  return all;
}

/* JSON ------------------------------------------------------------------- */

static void
add_identity (JsonBuilder *b, const PscDeviceIdentity *id)
{
  g_autofree char *uuid = uuid_hex (id->uuid);
  json_builder_set_member_name (b, "identity");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "vendor_id");
  json_builder_add_int_value (b, id->vendor_id);
  json_builder_set_member_name (b, "device_id");
  json_builder_add_int_value (b, id->device_id);
  json_builder_set_member_name (b, "driver_version");
  json_builder_add_int_value (b, id->driver_version);
  json_builder_set_member_name (b, "pipeline_cache_uuid");
  json_builder_add_string_value (b, uuid);
  json_builder_end_object (b);
}

static void
add_driver (JsonBuilder *b, const PscToolFile *f)
{
  const PscDriverFileInfo *d = &f->driver;
  g_autofree char *lib = version_text (d->library_version);

  add_identity (b, &d->identity);
  json_builder_set_member_name (b, "format_version");
  json_builder_add_int_value (b, d->format_version);
  json_builder_set_member_name (b, "library_version");
  json_builder_add_string_value (b, lib);
  json_builder_set_member_name (b, "platform");
  json_builder_add_int_value (b, d->platform);
  json_builder_set_member_name (b, "compression");
  json_builder_add_string_value (b, d->compression == PSC_DRIVER_FILE_COMPRESSION_ZSTD ? "zstd"
                                    : d->compression == 0 ? "none" : "unknown");
  json_builder_set_member_name (b, "vulkan_bytes");
  json_builder_add_int_value (b, (gint64) d->raw_size);
  json_builder_set_member_name (b, "payload_bytes");
  json_builder_add_int_value (b, (gint64) d->payload_size);
  json_builder_set_member_name (b, "written_at");
  json_builder_add_int_value (b, (gint64) d->written_at);
  if (f->device_checked)
    {
      json_builder_set_member_name (b, "this_device");
      json_builder_add_string_value (b, f->device_reason == PSC_FILE_OK ? "usable"
                                        : psc_file_reason_name (f->device_reason));
    }
}

static void
add_file (JsonBuilder *b, const PscToolFile *f)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "path");
  json_builder_add_string_value (b, f->path);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, psc_tool_file_kind_name (f->kind));
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, (gint64) f->size);
  json_builder_set_member_name (b, "valid");
  json_builder_add_boolean_value (b, !psc_tool_file_invalid (f));
  json_builder_set_member_name (b, "reason");
  json_builder_add_string_value (b, psc_file_reason_name (f->reason));
  if (f->kind == PSC_TOOL_FILE_DRIVER && f->reason != PSC_FILE_SYMLINK &&
      f->reason != PSC_FILE_NOT_REGULAR)
    add_driver (b, f);
  if (f->kind == PSC_TOOL_FILE_RECIPES || f->kind == PSC_TOOL_FILE_ARTIFACTS)
    {
      json_builder_set_member_name (b, "records");
      json_builder_add_int_value (b, (gint64) f->records);
      json_builder_set_member_name (b, "skipped");
      json_builder_add_int_value (b, (gint64) f->skipped);
      json_builder_set_member_name (b, "torn_tail");
      json_builder_add_boolean_value (b, f->torn);
    }
  json_builder_end_object (b);
}

static void
add_probe (JsonBuilder *b, const ToolProbe *p)
{
  json_builder_set_member_name (b, "probe");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "ran");
  json_builder_add_boolean_value (b, p->ran);
  if (p->ran)
    {
      json_builder_set_member_name (b, "recorded");
      json_builder_add_int_value (b, p->recorded);
      json_builder_set_member_name (b, "served");
      json_builder_add_int_value (b, p->served);
      json_builder_set_member_name (b, "stale");
      json_builder_add_int_value (b, p->stale);
    }
  else
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, p->error);
    }
  json_builder_end_object (b);
}

static void
print_json (GPtrArray *files, guint invalid, const ToolProbe *probe)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < files->len; i++)
    add_file (b, files->pdata[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "invalid");
  json_builder_add_int_value (b, invalid);
  if (probe != NULL)
    add_probe (b, probe);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

/* Text ------------------------------------------------------------------- */

static void
print_driver (const PscToolFile *f)
{
  const PscDriverFileInfo *d = &f->driver;
  g_autofree char *uuid = uuid_hex (d->identity.uuid);
  g_autofree char *lib = version_text (d->library_version);

  g_print (_("  device %04x:%04x, driver version 0x%08x, pipelineCacheUUID %s\n"),
           d->identity.vendor_id, d->identity.device_id, d->identity.driver_version, uuid);
  g_print (_("  %" G_GUINT64_FORMAT " bytes of Vulkan data, %" G_GUINT64_FORMAT
             " stored (%s); written by libpsocache %s\n"),
           d->raw_size, d->payload_size,
           d->compression == PSC_DRIVER_FILE_COMPRESSION_ZSTD ? "zstd" : _("uncompressed"), lib);
  if (f->device_checked && f->device_reason == PSC_FILE_OK)
    g_print (_("  this device would use it\n"));
  else if (f->device_checked)
    g_print (_("  this device would reject it: %s (%s)\n"),
             psc_file_reason_name (f->device_reason), psc_file_reason_describe (f->device_reason));
}

static void
print_file (const PscToolFile *f)
{
  g_print ("%s: %s, %" G_GUINT64_FORMAT " bytes, %s\n", f->path, psc_tool_file_kind_name (f->kind),
           f->size, psc_tool_file_invalid (f) ? _("INVALID") : _("valid"));
  if (f->reason != PSC_FILE_OK)
    g_print ("  %s: %s\n", psc_file_reason_name (f->reason), psc_file_reason_describe (f->reason));
  if (f->kind == PSC_TOOL_FILE_DRIVER && f->driver.format_version != 0)
    print_driver (f);
  if (f->kind == PSC_TOOL_FILE_RECIPES || f->kind == PSC_TOOL_FILE_ARTIFACTS)
    g_print (_("  %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " damaged%s\n"),
             f->records, f->skipped, f->torn ? _(", torn tail") : "");
}

/* Commands --------------------------------------------------------------- */

static guint
count_invalid (GPtrArray *files)
{
  guint n = 0;
  for (guint i = 0; i < files->len; i++)
    n += psc_tool_file_invalid (files->pdata[i]);
  return n;
}

static int
cmd_inspect (const ToolOptions *o, GPtrArray *files, gboolean have_device)
{
  if (o->json)
    print_json (files, count_invalid (files), NULL);
  else
    for (guint i = 0; i < files->len; i++)
      print_file (files->pdata[i]);
  return EXIT_SUCCESS;
}

/* The warm probe on a directory: a cache opened on it as the application
 * would (it loads the driver file and the recipes; opening touches the
 * running identity's marker), psc_cache_verify_warm, closed without a
 * change to save. */
static void
run_probe (const char *dir, ToolProbe *p)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  g_autoptr(PscCache) cache = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;

  psc_demo_keep_driver_resident ();
  device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  options.cache_directory = dir;
  options.save_interval = G_MAXUINT;
  if (device != NULL)
    cache = psc_cache_new_full (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options, &error);
  if (cache != NULL && psc_cache_verify_warm (cache, &p->recorded, &p->served, &p->stale, &error))
    p->ran = TRUE;
  else
    p->error = g_strdup (error->message);
  if (cache != NULL)
    psc_cache_close (cache, 0);
}

static void
print_probe (const ToolProbe *p)
{
  if (p->ran)
    g_print (_("warm probe: %u of %u recorded pipelines would be served from the driver's "
               "cache (%u no longer resolve)\n"), p->served, p->recorded, p->stale);
  else
    g_print (_("warm probe: not run: %s\n"), p->error);
}

static int
cmd_verify (const ToolOptions *o, GPtrArray *files, gboolean have_device)
{
  const guint invalid = count_invalid (files);
  ToolProbe probe = { 0 };

  if (o->probe)
    {
      if (o->paths[0] == NULL || o->paths[1] != NULL || !g_file_test (o->paths[0], G_FILE_TEST_IS_DIR))
        {
          g_printerr (_("psocache-tool verify --probe: give exactly one cache directory\n"));
          return EXIT_USAGE;
        }
      run_probe (o->paths[0], &probe);
    }
  if (o->json)
    print_json (files, invalid, o->probe ? &probe : NULL);
  else
    {
      for (guint i = 0; i < files->len; i++)
        {
          const PscToolFile *f = files->pdata[i];
          if (psc_tool_file_invalid (f))
            g_print (_("%s: invalid: %s (%s)\n"), f->path, psc_file_reason_name (f->reason),
                     psc_file_reason_describe (f->reason));
        }
      g_print (_("%u of %u files invalid\n"), invalid, files->len);
      if (o->probe)
        print_probe (&probe);
    }
  g_free (probe.error);
  if (o->probe && !probe.ran)
    return EXIT_INVALID;
  return invalid > 0 ? EXIT_INVALID : EXIT_SUCCESS;
}

typedef struct {
  const char *name;
  const char *summary;
  ToolCommand run;
} ToolSubcommand;

static const ToolSubcommand subcommands[] = {
  { "inspect", N_("Show every file's kind, identity, sizes and counts, and whether this "
                  "device would use it"), cmd_inspect },
  { "verify", N_("Check the structure and checksums of every file; exit 1 if any is "
                 "invalid, naming the file and the reason"), cmd_verify },
};

static int
usage (void)
{
  g_printerr (_("Usage: psocache-tool COMMAND [OPTION...] DIR|FILE...\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    g_printerr ("  %-10s %s\n", subcommands[i].name, _(subcommands[i].summary));
  g_printerr (_("\nRun psocache-tool COMMAND --help for a command's options.\n"));
  return EXIT_USAGE;
}

static int
run_subcommand (const ToolSubcommand *sc, int argc, char **argv)
{
  ToolOptions o = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print one JSON document"), NULL },
    { "no-device", 0, 0, G_OPTION_ARG_NONE, &o.no_device,
      N_("Do not check driver files against this machine's default Vulkan device"), NULL },
    { "probe", 0, 0, G_OPTION_ARG_NONE, &o.probe,
      N_("verify: also ask the default device how many recorded pipelines its cache would "
         "serve, without compiling (one cache directory)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.paths, NULL, N_("DIR|FILE…") },
    { NULL }
  };
  g_autofree char *param = g_strdup_printf ("%s %s", sc->name, _("DIR|FILE…"));
  g_autoptr(GOptionContext) ctx = g_option_context_new (param);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  PscDeviceIdentity id;
  gboolean have_device = FALSE, unreadable = FALSE;
  int status;

  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _(sc->summary));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("psocache-tool %s: %s\n", sc->name, error->message);
      return EXIT_USAGE;
    }
  if (o.paths == NULL || o.paths[0] == NULL)
    {
      g_printerr (_("psocache-tool %s: no directory or file given\n"), sc->name);
      return EXIT_USAGE;
    }
  if (!o.no_device)
    have_device = default_identity (&id);
  files = collect (o.paths, have_device ? &id : NULL, &unreadable);
  status = sc->run (&o, files, have_device);
  g_strfreev (o.paths);
  return unreadable ? EXIT_UNREADABLE : status;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, PSC_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    return argc < 2 ? usage () : (usage (), EXIT_SUCCESS);
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    if (g_str_equal (argv[1], subcommands[i].name))
      return run_subcommand (&subcommands[i], argc - 1, argv + 1);
  g_printerr (_("psocache-tool: unknown command “%s”\n"), argv[1]);
  return usage ();
}
