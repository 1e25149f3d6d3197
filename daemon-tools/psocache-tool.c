/* psocache-tool: offline inspection of libpsocache cache directories.
 *
 *   psocache-tool inspect [--json] [--no-device] DIR|FILE...
 *   psocache-tool verify [--json] [--no-device] [--probe] DIR|FILE...
 *   psocache-tool export [--output DIR | --json-lines] [CACHE-DIR]
 *
 * Exit codes (documented in psocache-tool(1)): 0 success (verify: every
 * file valid; export: every recorded pipeline exported), 1 verify found an
 * invalid file (export: a recipe was skipped, the log is damaged, or the
 * export could not run), 2 a usage error, 3 a path that cannot be read
 * (export: or an output directory that cannot be written).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cache-files.h"
#include "sanitizer.h"

#include <errno.h>
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

/* Export ---------------------------------------------------------------- */

/* What became of one pipeline record. */
typedef struct {
  PscRecipe *recipe;          /* NULL: skipped */
  char *reason, *message;     /* why it was skipped */
} ExportItem;

typedef struct {
  GArray *order;              /* recipe hashes (guint64), in the log's order */
  GHashTable *items;          /* recipe hash -> ExportItem */
  gboolean retry;             /* the legacy pass: only records the first pass rejected */
  gboolean any_rejected;
} Export;

static void
export_item_free (gpointer data)
{
  ExportItem *it = data;
  g_clear_object (&it->recipe);
  g_free (it->reason);
  g_free (it->message);
  g_free (it);
}

static gboolean
collect_recipe (guint64      hash,
                PscRecipe   *recipe,
                const char  *reason,
                const char  *message,
                gpointer     user_data)
{
  Export *e = user_data;
  ExportItem *it = g_hash_table_lookup (e->items, &hash);

  if (!e->retry)
    {
      guint64 *key = g_new (guint64, 1);
      *key = hash;
      it = g_new0 (ExportItem, 1);
      g_hash_table_insert (e->items, key, it);
      g_array_append_val (e->order, hash);
    }
  else if (it == NULL || g_strcmp0 (it->reason, "rejected") != 0)
    return TRUE;
  /* A record another backend rejects too keeps the first pass's reason. */
  if (recipe == NULL && e->retry && g_strcmp0 (reason, "rejected") == 0)
    return TRUE;
  g_clear_pointer (&it->reason, g_free);
  g_clear_pointer (&it->message, g_free);
  if (recipe != NULL)
    it->recipe = g_object_ref (recipe);
  else
    {
      it->reason = g_strdup (reason);
      it->message = g_strdup (message);
      e->any_rejected |= g_strcmp0 (reason, "rejected") == 0;
    }
  return TRUE;
}

/* One pass over the log with a scratch cache of @backend (in memory: no
 * application id, no directory); *used receives the backend it got. */
static gboolean
export_pass (PscDevice *device, PscBackend backend, GBytes *log, Export *e, PscBackend *used,
             GError **error)
{
  g_autoptr(PscCache) cache = NULL;
  gboolean ok;

  cache = g_initable_new (PSC_TYPE_CACHE, NULL, error, "device", device, "backend", backend,
                          "workers", 1, "recipe-bytes", (guint64) 64 << 20, NULL);
  if (cache == NULL)
    return FALSE;
  *used = psc_cache_get_backend (cache);
  ok = psc_cache_get_recipes_for_log (cache, log, collect_recipe, e, error);
  psc_cache_close (cache, 0);
  return ok;
}

static int
write_exports (Export *e, const char *output, guint *exported)
{
  if (output != NULL && g_mkdir_with_parents (output, 0755) != 0)
    {
      g_printerr (_("psocache-tool export: %s: cannot create the directory (%s)\n"), output,
                  g_strerror (errno));
      return EXIT_UNREADABLE;
    }
  for (guint i = 0; i < e->order->len; i++)
    {
      const guint64 hash = g_array_index (e->order, guint64, i);
      const ExportItem *it = g_hash_table_lookup (e->items, &hash);
      g_autoptr(GError) error = NULL;
      g_autofree char *json = NULL;

      if (it->recipe == NULL)
        {
          g_printerr (_("psocache-tool export: recipe %016" G_GINT64_MODIFIER "x skipped: %s (%s)\n"),
                      hash, it->reason, it->message);
          continue;
        }
      json = psc_recipe_to_json (it->recipe, output != NULL, &error);
      if (json == NULL)
        {
          g_printerr (_("psocache-tool export: recipe %016" G_GINT64_MODIFIER "x skipped: %s\n"),
                      hash, error->message);
          continue;
        }
      if (output == NULL)
        g_print ("%s\n", json);
      else
        {
          g_autofree char *name = g_strdup_printf ("%016" G_GINT64_MODIFIER "x.json", hash);
          g_autofree char *path = g_build_filename (output, name, NULL);
          g_autofree char *text = g_strconcat (json, "\n", NULL);
          if (!g_file_set_contents (path, text, -1, &error))
            {
              g_printerr ("psocache-tool export: %s\n", error->message);
              return EXIT_UNREADABLE;
            }
        }
      (*exported)++;
    }
  return EXIT_SUCCESS;
}

/* The log of a cache directory (or the log itself), exported. */
static int
cmd_export (const char *path, const char *output)
{
  g_autofree char *log_path = NULL;
  g_autoptr(GBytes) log = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  g_autoptr(PscToolFile) file = NULL;
  Export e = { 0 };
  PscBackend used = PSC_BACKEND_AUTO;
  PscFileReason why;
  guint exported = 0;
  int status = EXIT_SUCCESS;
  gboolean damaged;

  log_path = g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK)
             ? g_build_filename (path, "recipes.psclog", NULL) : g_strdup (path);
  log = psc_tool_read_file (log_path, &why);
  if (log == NULL)
    {
      g_printerr (_("psocache-tool export: %s: %s (%s)\n"), log_path, psc_file_reason_name (why),
                  why == PSC_FILE_IO ? _("no such file, or it cannot be read")
                                     : psc_file_reason_describe (why));
      return EXIT_UNREADABLE;
    }
  file = psc_tool_file_inspect (log_path, NULL);
  damaged = file->kind == PSC_TOOL_FILE_RECIPES && (file->skipped > 0 || file->torn);
  if (damaged)
    g_printerr (_("psocache-tool export: %s: %" G_GUINT64_FORMAT " damaged records skipped%s\n"),
                log_path, file->skipped, file->torn ? _(", torn tail ignored") : "");

  psc_demo_keep_driver_resident ();
  device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    {
      g_printerr (_("psocache-tool export: no Vulkan device (%s): recipes resolve against one\n"),
                  error->message);
      return EXIT_INVALID;
    }
  e.order = g_array_new (FALSE, FALSE, sizeof (guint64));
  e.items = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, export_item_free);
  if (!export_pass (device, PSC_BACKEND_AUTO, log, &e, &used, &error))
    status = EXIT_INVALID;
  /* Graphics records of a legacy-backend cache resolve on that backend. */
  else if (e.any_rejected && used != PSC_BACKEND_LEGACY)
    {
      e.retry = TRUE;
      if (!export_pass (device, PSC_BACKEND_LEGACY, log, &e, &used, &error))
        status = EXIT_INVALID;
    }
  if (status != EXIT_SUCCESS)
    g_printerr ("psocache-tool export: %s: %s\n", log_path, error->message);
  else
    {
      status = write_exports (&e, output, &exported);
      if (output != NULL)
        g_print (_("%u of %u recorded pipelines exported to %s\n"), exported, e.order->len, output);
      else
        g_printerr (_("%u of %u recorded pipelines exported\n"), exported, e.order->len);
      if (status == EXIT_SUCCESS && (exported < e.order->len || damaged))
        status = EXIT_INVALID;
    }
  g_array_unref (e.order);
  g_hash_table_unref (e.items);
  return status;
}

/* export's own options: an output choice and at most one directory. */
static int
run_export (int argc, char **argv)
{
  g_autofree char *output = NULL;
  gboolean json_lines = FALSE;
  char **paths = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write one recipe JSON document per recorded pipeline into DIR, named by its recipe "
         "hash (DIR/HASH.json; DIR is created)"), N_("DIR") },
    { "json-lines", 0, 0, G_OPTION_ARG_NONE, &json_lines,
      N_("Print one recipe JSON document per line on standard output (the default)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, N_("[CACHE-DIR]") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  int status;

  g_set_prgname ("psocache-tool export");
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _("Export the warm-up recipes a cache directory recorded "
                                       "(its recipes.psclog; the current directory when none is "
                                       "given) as recipe JSON documents. Each recipe is resolved "
                                       "against this machine's default Vulkan device; recipes "
                                       "that no longer resolve are reported and skipped."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("psocache-tool export: %s\n", error->message);
      g_strfreev (paths);
      return EXIT_USAGE;
    }
  if (output != NULL && json_lines)
    {
      g_printerr (_("psocache-tool export: --output and --json-lines exclude each other\n"));
      g_strfreev (paths);
      return EXIT_USAGE;
    }
  if (paths != NULL && paths[0] != NULL && paths[1] != NULL)
    {
      g_printerr (_("psocache-tool export: give at most one cache directory\n"));
      g_strfreev (paths);
      return EXIT_USAGE;
    }
  status = cmd_export (paths != NULL && paths[0] != NULL ? paths[0] : ".", output);
  g_strfreev (paths);
  return status;
}

typedef struct {
  const char *name;
  const char *summary;
  ToolCommand run;
  int (*own_main) (int argc, char **argv);   /* a command with options of its own */
} ToolSubcommand;

static const ToolSubcommand subcommands[] = {
  { "inspect", N_("Show every file's kind, identity, sizes and counts, and whether this "
                  "device would use it"), cmd_inspect, NULL },
  { "verify", N_("Check the structure and checksums of every file; exit 1 if any is "
                 "invalid, naming the file and the reason"), cmd_verify, NULL },
  { "export", N_("Write the recorded warm-up recipes of a cache directory as recipe JSON "
                 "documents (files or JSON lines)"), NULL, run_export },
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
  g_autofree char *prgname = g_strdup_printf ("psocache-tool %s", sc->name);
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  PscDeviceIdentity id;
  gboolean have_device = FALSE, unreadable = FALSE;
  int status;

  g_set_prgname (prgname);
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
      return subcommands[i].own_main != NULL ? subcommands[i].own_main (argc - 1, argv + 1)
                                             : run_subcommand (&subcommands[i], argc - 1, argv + 1);
  g_printerr (_("psocache-tool: unknown command “%s”\n"), argv[1]);
  return usage ();
}
