/* persistence.c: psocache-demo's persistence report (see persistence.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "persistence.h"

#include "scene.h"

#include <locale.h>

/* Each reason with a non-zero count, as "name": count (JSON) or name=count. */
static char *
rejections (PscStats *stats,
            gboolean  json)
{
  g_autoptr(GEnumClass) reasons = g_type_class_ref (PSC_TYPE_FILE_REJECTION);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < reasons->n_values; i++)
    {
      const GEnumValue *v = &reasons->values[i];
      guint64 n = psc_stats_get_file_rejections (stats, (PscFileRejection) v->value);

      if (n == 0)
        continue;
      if (s->len > 0)
        g_string_append (s, json ? "," : ", ");
      if (json)
        g_string_append_printf (s, "\"%s\":%" G_GUINT64_FORMAT, v->value_nick, n);
      else
        g_string_append_printf (s, "%s (%" G_GUINT64_FORMAT ")", v->value_nick, n);
    }
  return g_string_free (s, FALSE);
}

void
psc_demo_print_persistence (PscCache *cache,
                            PscStats *stats)
{
  g_autofree char *rejected = rejections (stats, FALSE);
  const char *dir = psc_cache_get_cache_directory (cache);

  if (dir == NULL)
    {
      g_print ("\nPersistence: off (in memory only)\n");
      return;
    }
  g_print ("\nPersistence: %s\n", dir);
  g_print ("  driver data loaded: %" G_GUINT64_FORMAT " bytes from %" G_GUINT64_FORMAT
           " file(s)\n",
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED));
  g_print ("  rejected: %s\n", rejected[0] != '\0' ? rejected : "nothing");
  g_print ("  recipes: %" G_GUINT64_FORMAT " loaded, %" G_GUINT64_FORMAT " prewarmed before "
           "the first frame, %" G_GUINT64_FORMAT " stale (skipped), %" G_GUINT64_FORMAT
           " recorded at close (in the JSON line)\n",
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_LOADED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_PREWARMED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_STALE),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_SAVED));
  g_print ("  driver's creation feedback: %" G_GUINT64_FORMAT " served from its pipeline cache, %"
           G_GUINT64_FORMAT " compiled\n",
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_CACHE_MISSES));
}

void
psc_demo_print_json (PscStats   *stats,
                     guint       pipelines,
                     double      first_frame_ms,
                     guint       frames,
                     const char *dbus_json,
                     const char *material_prewarm_json)
{
  g_autofree char *rejected = rejections (stats, TRUE);
  char ms[G_ASCII_DTOSTR_BUF_SIZE];

  /* The decimal point is '.', whatever the locale. */
  g_ascii_formatd (ms, sizeof ms, "%.3f", first_frame_ms);
  g_print ("{\"persistence\":{\"enabled\":%s,\"driver_bytes_loaded\":%" G_GUINT64_FORMAT
           ",\"driver_cache_hits\":%" G_GUINT64_FORMAT
           ",\"recipes_loaded\":%" G_GUINT64_FORMAT ",\"recipes_stale\":%" G_GUINT64_FORMAT
           ",\"prewarmed\":%" G_GUINT64_FORMAT ",\"artifacts_loaded\":%" G_GUINT64_FORMAT
           ",\"rejected\":{%s},\"saved\":%s},\"pipelines\":%u,\"first_frame_ms\":%s"
           ",\"frames\":%u,\"dbus\":%s,\"material_prewarm\":%s}\n",
           psc_stats_get_persistence_enabled (stats) ? "true" : "false",
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_DRIVER_CACHE_HITS),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_LOADED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_STALE),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_RECIPES_PREWARMED),
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED),
           rejected,
           psc_stats_get_persist (stats, PSC_PERSIST_COUNTER_SAVES) > 0 ? "true" : "false",
           pipelines, ms, frames, dbus_json, material_prewarm_json);
}

double
psc_demo_prewarm (PscCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) modules = g_ptr_array_new ();
  gint64 t0 = g_get_monotonic_time ();

  if (psc_cache_get_cache_directory (cache) == NULL)
    return 0;
  /* Recipes resolve only against registered shaders (exact SPIR-V). */
  for (int s = 0; s < PSC_DEMO_SHADER_COUNT; s++)
    {
      gsize size = 0;
      const guint32 *code = psc_demo_shader_spirv ((PscDemoShader) s, &size);
      VkShaderModule m = psc_cache_register_shader (cache, code, size, &error);
      if (m == VK_NULL_HANDLE)
        {
          g_printerr ("psocache-demo: prewarm: %s\n", error->message);
          return 0;
        }
      g_ptr_array_add (modules, (gpointer) m);
    }
  if (!psc_cache_prewarm (cache, &error))
    {
      g_printerr ("psocache-demo: prewarm: %s\n", error->message);
      return 0;
    }
  while (!psc_cache_get_prewarm_done (cache))
    {
      psc_cache_begin_frame (cache, 0, 0);
      g_usleep (200);
    }
  /* The scene registers its own references; these go. */
  for (guint i = 0; i < modules->len; i++)
    psc_cache_release_shader (cache, (VkShaderModule) modules->pdata[i], NULL);
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}
