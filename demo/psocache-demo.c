/* psocache-demo: renders the demo scene offscreen through a PscCache and
 * prints what the cache did.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scene.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#define LAVAPIPE_ICD "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"

static const char *const kind_names[PSC_OBJECT_KIND_COUNT] = {
  [PSC_OBJECT_KIND_SAMPLER] = "sampler",
  [PSC_OBJECT_KIND_DESCRIPTOR_SET_LAYOUT] = "descriptor-set layout",
  [PSC_OBJECT_KIND_PIPELINE_LAYOUT] = "pipeline layout",
  [PSC_OBJECT_KIND_RENDER_PASS] = "compatibility pass",
  [PSC_OBJECT_KIND_GRAPHICS_PIPELINE] = "graphics pipeline",
  [PSC_OBJECT_KIND_COMPUTE_PIPELINE] = "compute pipeline",
  [PSC_OBJECT_KIND_SHADER_MODULE] = "shader module",
};

static const char *
backend_name (PscBackend backend)
{
  switch (backend)
    {
    case PSC_BACKEND_DYNAMIC_RENDERING:
      return "dynamic rendering";
    case PSC_BACKEND_LEGACY:
      return "legacy (render passes)";
    case PSC_BACKEND_AUTO:
    default:
      return "auto";
    }
}

static gboolean
parse_backend (const char *name, PscBackend *backend, GError **error)
{
  if (g_strcmp0 (name, "auto") == 0)
    *backend = PSC_BACKEND_AUTO;
  else if (g_strcmp0 (name, "dynamic") == 0)
    *backend = PSC_BACKEND_DYNAMIC_RENDERING;
  else if (g_strcmp0 (name, "legacy") == 0)
    *backend = PSC_BACKEND_LEGACY;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unknown backend '%s' (expected auto, dynamic or legacy)", name);
      return FALSE;
    }
  return TRUE;
}

static double
ms (guint64 ns)
{
  return (double) ns / 1e6;
}

static void
print_report (PscCache *cache, const PscDemoSceneResult *r)
{
  PscStats stats;
  guint64 rejected = 0;

  psc_cache_get_stats (cache, &stats);

  g_print ("\nScene: %u graphics + %u compute pipelines, %u shader modules, "
           "%u frames, final image %ux%u\n",
           r->graphics_pipelines, r->compute_pipelines, r->shader_modules,
           r->frames, r->width, r->height);
  g_print ("Frame 1: %.1f ms (CPU + GPU; on lavapipe the first draw of each new "
           "pipeline compiles it)\n", ms (r->first_frame_ns));
  if (r->frames > 1)
    g_print ("Later frames: %.1f ms on average\n", ms (r->later_frames_ns) / (r->frames - 1));

  g_print ("\nWhat the cache did for the scene's calls:\n");
  g_print ("  %-28s %8s %12s %14s\n", "", "calls", "total ms", "per call");
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.1f us\n", "created an object",
           r->created.calls, ms (r->created.ns),
           r->created.calls ? (double) r->created.ns / r->created.calls / 1e3 : 0.0);
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.0f ns\n", "answered from the cache",
           r->hit.calls, ms (r->hit.ns),
           r->hit.calls ? (double) r->hit.ns / r->hit.calls : 0.0);
  g_print ("  %-28s %8" G_GUINT64_FORMAT " %12.3f %11.0f ns\n", "  of which pipeline hits",
           r->pipeline_hit.calls, ms (r->pipeline_hit.ns),
           r->pipeline_hit.calls ? (double) r->pipeline_hit.ns / r->pipeline_hit.calls : 0.0);
  g_print ("  objects created after frame 1: %" G_GUINT64_FORMAT "\n",
           r->creations_at_end - r->creations_after_frame_1);

  g_print ("\nCache counters per kind:\n");
  g_print ("  %-22s %8s %8s %8s %9s %12s %10s\n",
           "kind", "entries", "created", "hits", "misses", "create ms", "host KiB");
  for (int k = 0; k < PSC_OBJECT_KIND_COUNT; k++)
    {
      const PscKindStats *ks = &stats.kinds[k];

      g_print ("  %-22s %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT
               " %9" G_GUINT64_FORMAT " %12.3f %10.1f\n",
               kind_names[k], ks->entries, ks->creations, ks->hits, ks->misses,
               ms (ks->creation_ns), (double) ks->host_bytes / 1024.0);
    }
  for (int i = 0; i < PSC_REJECT_REASON_COUNT; i++)
    rejected += stats.rejected[i];
  g_print ("  capacity failures: %" G_GUINT64_FORMAT ", rejected requests: %" G_GUINT64_FORMAT "\n",
           stats.capacity_failures, rejected);

  if (r->render_pass_begins > 0 || r->rendering_begins > 0)
    g_print ("\nRecorded %u render-pass begins and %u dynamic-rendering begins; "
             "compatibility passes begun: %u\n",
             r->render_pass_begins, r->rendering_begins, r->violations);
}

int
main (int argc, char **argv)
{
  g_autofree char *backend_arg = NULL;
  g_autofree char *output = NULL;
  int frames = 6, width = 320, height = 240;
  gboolean validate = FALSE, pass_through = FALSE, prepared = FALSE;
  GOptionEntry entries[] = {
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_arg,
      "Rendering backend: auto, dynamic or legacy (default: auto)", "BACKEND" },
    { "frames", 'n', 0, G_OPTION_ARG_INT, &frames,
      "Frames to render (default: 6); the targets are resized at the middle frame", "N" },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, "Initial target width (default: 320)", "PIXELS" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, "Initial target height (default: 240)", "PIXELS" },
    { "validate", 0, 0, G_OPTION_ARG_NONE, &validate,
      "Enable VK_LAYER_KHRONOS_validation; exit with an error if it reports any", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the final image to FILE (binary PPM)", "FILE" },
    { "pass-through", 0, 0, G_OPTION_ARG_NONE, &pass_through,
      "Cache off: every request creates a new object (for comparison)", NULL },
    { "prepared", 0, 0, G_OPTION_ARG_NONE, &prepared,
      "Request pipelines through prepared key ids instead of create infos", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  g_autoptr(PscCache) cache = NULL;
  PscDemoSceneOptions options;
  PscDemoSceneResult result = { 0 };
  PscBackend backend = PSC_BACKEND_AUTO;
  PscDeviceFlags device_flags = PSC_DEVICE_FLAGS_NONE;
  guint validation_errors = 0;

  setlocale (LC_ALL, "");

  context = g_option_context_new ("- render a scene through libpsocache");
  g_option_context_set_summary (context,
    "Brings up a headless Vulkan device (Mesa lavapipe unless VK_DRIVER_FILES or\n"
    "VK_ICD_FILENAMES selects another driver), renders a scene of more than 100\n"
    "pipelines offscreen through a PscCache for several frames, resizing its\n"
    "targets once, and prints what the cache did.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      (backend_arg != NULL && !parse_backend (backend_arg, &backend, &error)))
    {
      g_printerr ("psocache-demo: %s\n", error->message);
      return 2;
    }
  if (frames < 1 || width < 16 || height < 16 || width > 8192 || height > 8192)
    {
      g_printerr ("psocache-demo: --frames must be at least 1 and the size between 16 and 8192\n");
      return 2;
    }

  if (g_getenv ("VK_DRIVER_FILES") == NULL && g_getenv ("VK_ICD_FILENAMES") == NULL &&
      g_file_test (LAVAPIPE_ICD, G_FILE_TEST_EXISTS))
    g_setenv ("VK_DRIVER_FILES", LAVAPIPE_ICD, TRUE);

  if (validate)
    device_flags |= PSC_DEVICE_FLAGS_VALIDATION;
  if (backend == PSC_BACKEND_LEGACY)
    device_flags |= PSC_DEVICE_FLAGS_NO_DYNAMIC_RENDERING;

  device = psc_device_new_headless (device_flags, &error);
  if (device == NULL)
    {
      g_printerr ("psocache-demo: cannot create a Vulkan device: %s\n", error->message);
      return 1;
    }
  cache = psc_cache_new (device, backend,
                         pass_through ? PSC_CACHE_FLAGS_PASS_THROUGH : PSC_CACHE_FLAGS_NONE,
                         &error);
  if (cache == NULL)
    {
      g_printerr ("psocache-demo: cannot create the cache: %s\n", error->message);
      return 1;
    }

  psc_demo_scene_options_init (&options);
  options.width = (guint) width;
  options.height = (guint) height;
  options.frames = (guint) frames;
  options.resize_at_frame = frames >= 2 ? (guint) frames / 2 + 1 : 0;
  options.prepared = prepared;

  g_print ("psocache-demo: %s, %s backend%s%s\n",
           psc_device_get_name (device),
           backend_name (psc_cache_get_backend (cache) == PSC_BACKEND_AUTO
                         ? (psc_device_get_dynamic_rendering (device)
                            ? PSC_BACKEND_DYNAMIC_RENDERING : PSC_BACKEND_LEGACY)
                         : psc_cache_get_backend (cache)),
           pass_through ? ", pass-through (cache off)" : "",
           validate ? ", validation on" : "");
  if (options.resize_at_frame != 0)
    g_print ("Rendering %d frames at %dx%d, resizing to %ux%u at frame %u\n",
             frames, width, height, (guint) width * 3 / 2, (guint) height * 3 / 2,
             options.resize_at_frame);
  else
    g_print ("Rendering %d frame at %dx%d\n", frames, width, height);

  if (!psc_demo_scene_run (cache, &options, &result, &error))
    {
      g_printerr ("psocache-demo: %s\n", error->message);
      return 1;
    }

  print_report (cache, &result);

  if (output != NULL)
    {
      if (!psc_demo_write_ppm (output, result.pixels, result.width, result.height, &error))
        {
          g_printerr ("psocache-demo: %s\n", error->message);
          psc_demo_scene_result_clear (&result);
          return 1;
        }
      g_print ("\nWrote %s\n", output);
    }
  psc_demo_scene_result_clear (&result);

  /* The scene waited for the device before it went away: nothing the cache
   * owns is in use, so the cache may destroy everything. */
  g_clear_object (&cache);

  validation_errors = psc_device_get_validation_error_count (device);
  if (validate)
    {
      g_print ("Validation errors: %u\n", validation_errors);
      if (validation_errors > 0)
        return 1;
    }
  return 0;
}
