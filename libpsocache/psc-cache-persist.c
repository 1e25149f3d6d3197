/* psc-cache-persist.c: PscCache's persistence: its construct properties,
 * opening before the core exists, saving at close, in the pump and on
 * request, and the bytes API. The policy is psc-persist.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include "psc-persist.h"
#include "psc-artifacts.h"

#include <glib/gi18n-lib.h>

/* Pump saves: at most every this many seconds, and only after a change. */
#define PSC_DEFAULT_SAVE_INTERVAL_S 30

enum {
  OFF_APPLICATION_ID,
  OFF_CACHE_DIRECTORY,
  OFF_MAX_DISK_BYTES,
  OFF_DRIVER_DATA_LIMIT,
  OFF_SAVE_INTERVAL,
  OFF_RECIPE_LIMIT,
  OFF_PREWARM_CANDIDATES,
  OFF_PREWARM_IN_FLIGHT,
  OFF_RECIPE_BYTES,
};
G_STATIC_ASSERT (OFF_RECIPE_BYTES + 1 == PSC_CACHE_PERSIST_N_PROPS);

#define CONSTRUCT_ONLY (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | \
                        G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY)

void
psc_cache_persist_class_init (GParamSpec **props,
                              guint        first)
{
  /**
   * PscCache:application-id:
   *
   * The application's id, a reverse-DNS name as #GApplication uses (for
   * example `io.github.psocache.Demo`; g_application_id_is_valid() must
   * accept it, else initialization fails with %PSC_ERROR_INVALID_ARGUMENT).
   * With an id the cache persists under
   * `$XDG_CACHE_HOME/psocache/<application-id>/` (or
   * `$PSOCACHE_DIR/<application-id>/`); without an id and without
   * [property@Psc.Cache:cache-directory] it works in memory only. See
   * docs/persistence.md for what is stored and the user's knobs
   * (`PSOCACHE_DISABLE`, `PSOCACHE_DIR`, `PSOCACHE_MAX_SIZE`).
   *
   * Since: 0.2
   */
  props[first + OFF_APPLICATION_ID] =
    g_param_spec_string ("application-id", NULL, NULL, NULL, CONSTRUCT_ONLY);

  /**
   * PscCache:cache-directory:
   *
   * Set at construction: an absolute directory to persist in, chosen by the
   * application (a sandbox's or a test's); it takes precedence over the
   * location derived from [property@Psc.Cache:application-id], and
   * `PSOCACHE_DIR` does not move it. It is created (mode 0700) if needed; a
   * directory owned by another user or writable by group or others is
   * refused, with one warning, and the cache runs in memory.
   *
   * Read: the directory the cache persists in, or %NULL when persistence is
   * off (no id or directory, `PSOCACHE_DISABLE` set, or the directory
   * refused).
   *
   * Since: 0.2
   */
  props[first + OFF_CACHE_DIRECTORY] =
    g_param_spec_string ("cache-directory", NULL, NULL, NULL, CONSTRUCT_ONLY);

  /**
   * PscCache:max-disk-bytes:
   *
   * The disk quota of the cache directory in bytes; 0 means 256 MiB.
   * `PSOCACHE_MAX_SIZE` overrides it. Over the quota, the least recently
   * used files of other device identities are deleted; the running
   * device's files never are.
   *
   * Since: 0.2
   */
  props[first + OFF_MAX_DISK_BYTES] =
    g_param_spec_uint64 ("max-disk-bytes", NULL, NULL, 0, G_MAXUINT64, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:driver-data-limit:
   *
   * The restore cap: driver pipeline-cache data above this many bytes
   * (compressed or not) is refused without being decompressed
   * (%PSC_FILE_REJECTION_OVERSIZED); 0 means 64 MiB.
   *
   * Since: 0.2
   */
  props[first + OFF_DRIVER_DATA_LIMIT] =
    g_param_spec_uint64 ("driver-data-limit", NULL, NULL, 0, G_MAXUINT64, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:save-interval:
   *
   * Seconds between saves made by [method@Psc.Cache.begin_frame] when
   * something changed (a save costs the owner thread the time to read,
   * compress and write the driver data); 0 means 30; %G_MAXUINT turns
   * them off. [method@Psc.Cache.close] and [method@Psc.Cache.save] save
   * regardless.
   *
   * Since: 0.2
   */
  props[first + OFF_SAVE_INTERVAL] =
    g_param_spec_uint ("save-interval", NULL, NULL, 0, G_MAXUINT, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:recipe-limit:
   *
   * The warm-up recipes the recipes file keeps: a file with more is
   * compacted when the cache opens, to the most recently used ones (and
   * the objects they name); 0 means 1,024 (seed 003's bound).
   *
   * Since: 0.2
   */
  props[first + OFF_RECIPE_LIMIT] =
    g_param_spec_uint ("recipe-limit", NULL, NULL, 0, 4096, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:prewarm-candidates:
   *
   * How many of the most recently used recipes prewarm takes at launch
   * (see [method@Psc.Cache.prewarm]); 0 means 32.
   * %PSC_CACHE_FLAGS_STRICT_RECIPES takes every recipe.
   *
   * Since: 0.2
   */
  props[first + OFF_PREWARM_CANDIDATES] =
    g_param_spec_uint ("prewarm-candidates", NULL, NULL, 0, 4096, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:prewarm-in-flight:
   *
   * How many prewarm requests may compile at once (they also wait behind
   * every demand job, and at most a quarter of the workers take them); 0
   * means 4.
   *
   * Since: 0.2
   */
  props[first + OFF_PREWARM_IN_FLIGHT] =
    g_param_spec_uint ("prewarm-in-flight", NULL, NULL, 0, 256, 0, CONSTRUCT_ONLY);

  /**
   * PscCache:recipe-bytes:
   *
   * At most this many bytes of recipe records are read from the recipes
   * file (the rest is refused as `oversized`); 0 means 8 MiB (seed 003's
   * bound).
   *
   * Since: 0.2
   */
  props[first + OFF_RECIPE_BYTES] =
    g_param_spec_uint64 ("recipe-bytes", NULL, NULL, 0, (guint64) 64 << 20, 0, CONSTRUCT_ONLY);
}

void
psc_cache_persist_get_property (PscCache *self,
                                guint     offset,
                                GValue   *value)
{
  switch (offset)
    {
    case OFF_APPLICATION_ID: g_value_set_string (value, self->application_id); break;
    case OFF_CACHE_DIRECTORY: g_value_set_string (value, psc_cache_get_cache_directory (self)); break;
    case OFF_MAX_DISK_BYTES: g_value_set_uint64 (value, self->max_disk_bytes); break;
    case OFF_DRIVER_DATA_LIMIT: g_value_set_uint64 (value, self->driver_data_limit); break;
    case OFF_SAVE_INTERVAL: g_value_set_uint (value, self->save_interval_s); break;
    case OFF_RECIPE_LIMIT: g_value_set_uint (value, self->recipe_limit); break;
    case OFF_PREWARM_CANDIDATES: g_value_set_uint (value, self->prewarm_candidates); break;
    case OFF_PREWARM_IN_FLIGHT: g_value_set_uint (value, self->prewarm_in_flight); break;
    case OFF_RECIPE_BYTES: g_value_set_uint64 (value, self->recipe_bytes); break;
    default: g_assert_not_reached ();
    }
}

void
psc_cache_persist_set_property (PscCache     *self,
                                guint         offset,
                                const GValue *value)
{
  switch (offset)
    {
    case OFF_APPLICATION_ID:
      g_free (self->application_id);
      self->application_id = g_value_dup_string (value);
      break;
    case OFF_CACHE_DIRECTORY:
      g_free (self->cache_directory);
      self->cache_directory = g_value_dup_string (value);
      break;
    case OFF_MAX_DISK_BYTES: self->max_disk_bytes = g_value_get_uint64 (value); break;
    case OFF_DRIVER_DATA_LIMIT: self->driver_data_limit = g_value_get_uint64 (value); break;
    case OFF_SAVE_INTERVAL: self->save_interval_s = g_value_get_uint (value); break;
    case OFF_RECIPE_LIMIT: self->recipe_limit = g_value_get_uint (value); break;
    case OFF_PREWARM_CANDIDATES: self->prewarm_candidates = g_value_get_uint (value); break;
    case OFF_PREWARM_IN_FLIGHT: self->prewarm_in_flight = g_value_get_uint (value); break;
    case OFF_RECIPE_BYTES: self->recipe_bytes = g_value_get_uint64 (value); break;
    default: g_assert_not_reached ();
    }
}

/* The core's closing callback: workers are joined and merged, nothing is
 * destroyed yet. A failure is counted and warned about (psc-persist.c). */
static void
closing (void    *ctx,
         PscCore *core)
{
  PscCache *self = ctx;

  if (psc_persist_enabled (self->persist))
    {
      psc_persist_save (self->persist, core, NULL);
      psc_cache_artifacts_save (self, NULL);
    }
}

gboolean
psc_cache_persist_open (PscCache       *self,
                        PscCoreConfig  *cfg,
                        GError        **error)
{
  PscPersistConfig pc = {
    .application_id = self->application_id,
    .directory = self->cache_directory,
    .max_disk_bytes = self->max_disk_bytes,
    .driver_data_limit = self->driver_data_limit,
    .save_interval_s = self->save_interval_s == 0 ? PSC_DEFAULT_SAVE_INTERVAL_S
                     : self->save_interval_s == G_MAXUINT ? 0 : self->save_interval_s,
  };
  gsize len = 0;

  psc_device_get_identity (self->device, &pc.identity);
  pc.strict_recipes = (self->flags & PSC_CACHE_FLAGS_STRICT_RECIPES) != 0;
  pc.recipe_limit = self->recipe_limit;
  pc.prewarm_candidates = self->prewarm_candidates;
  pc.prewarm_in_flight = self->prewarm_in_flight;
  pc.recipe_bytes = self->recipe_bytes;
  self->persist = psc_persist_new (&pc, error);
  if (self->persist == NULL)
    return FALSE;
  psc_persist_set_write_failure (self->persist, self->hooks.persist_write_error);
  psc_persist_set_always_write (self->persist, self->hooks.persist_always_write);
  cfg->initial_driver_data = psc_persist_initial_driver_data (self->persist, &len);
  cfg->initial_driver_size = len;
  cfg->closing = closing;
  cfg->closing_ctx = self;
  if (pc.strict_recipes)
    {
      cfg->demand_miss = psc_persist_demand_miss;
      cfg->demand_miss_ctx = self->persist;
    }
  return TRUE;
}

void
psc_cache_persist_opened (PscCache *self)
{
  if (self->persist == NULL)
    return;
  if (self->core == NULL)
    {
      g_clear_pointer (&self->persist, psc_persist_free);
      return;
    }
  psc_persist_core_created (self->persist, self->core);
  psc_cache_artifacts_open (self);
}

void
psc_cache_persist_pump (PscCache *self)
{
  if (self->persist != NULL)
    psc_persist_pump (self->persist, self->core);
  psc_cache_artifacts_pump (self, self->save_interval_s == 0 ? PSC_DEFAULT_SAVE_INTERVAL_S
                                  : self->save_interval_s == G_MAXUINT ? 0 : self->save_interval_s);
}

void
psc_cache_persist_free (PscCache *self)
{
  psc_cache_artifacts_free (self);
  g_clear_pointer (&self->persist, psc_persist_free);
  g_clear_pointer (&self->application_id, g_free);
  g_clear_pointer (&self->cache_directory, g_free);
}

/**
 * psc_cache_get_application_id:
 * @self: a cache
 *
 * Returns [property@Psc.Cache:application-id]. Any thread.
 *
 * Returns: (nullable): the application id, or %NULL
 *
 * Since: 0.2
 */
const char *
psc_cache_get_application_id (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);
  return self->application_id;
}

/**
 * psc_cache_get_cache_directory:
 * @self: a cache
 *
 * Returns the directory the cache persists in (see
 * [property@Psc.Cache:cache-directory]). Any thread.
 *
 * Returns: (nullable) (type filename): the directory, or %NULL when
 *   persistence is off or the cache is not open
 *
 * Since: 0.2
 */
const char *
psc_cache_get_cache_directory (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);
  return psc_persist_directory (self->persist);
}

/**
 * psc_cache_save:
 * @self: a cache
 * @error: return location for a #GError
 *
 * Saves the cache's persistent data now, on the owner thread: the driver
 * pipeline-cache data of the running device, by atomic replace of its file
 * (if another process of the application replaced the file since it was
 * read, that data is merged in first, so neither loses the other's). Only
 * what was published counts: compiles still in flight are saved by a later
 * save. The SPIR-V artifacts of [method@Psc.Cache.register_shader_source]
 * compiled or used since are written to the artifact log too. When nothing
 * changed since the last load or save, nothing is written and the call
 * succeeds. [method@Psc.Cache.close] saves too.
 *
 * Returns: %TRUE on success; %FALSE with @error: %PSC_ERROR_UNSUPPORTED when
 *   persistence is off, %PSC_ERROR_IO when writing failed (the previous
 *   file is intact), %PSC_ERROR_WRONG_THREAD, %PSC_ERROR_CLOSED
 *
 * Since: 0.2
 */
gboolean
psc_cache_save (PscCache  *self,
                GError   **error)
{
  gboolean ok;

  PSC_CACHE_CHECK (self, error, FALSE);
  if (!psc_cache_check_owner (self, error))
    return FALSE;
  /* Seed 003: writeback quiesces the producers first (the running
   * compiles finish; no new one starts until the save is written). */
  psc_core_quiesce (self->core, TRUE);
  ok = psc_persist_save (self->persist, self->core, error);
  psc_core_quiesce (self->core, FALSE);
  if (!psc_persist_enabled (self->persist))
    return ok;
  return psc_cache_artifacts_save (self, ok ? error : NULL) && ok;
}

/**
 * psc_cache_save_to_bytes:
 * @self: a cache
 * @error: return location for a #GError
 *
 * The bytes-out half of persistence for applications that keep their own
 * storage (sandboxes, consoles, tests): the running device's driver
 * pipeline-cache data in the driver-file format (validated header, zstd
 * payload, checksum; docs/file-formats.md), whether or not the cache
 * persists to a directory. Owner thread.
 *
 * Returns: (transfer full): the bytes, or %NULL with @error
 *
 * Since: 0.2
 */
GBytes *
psc_cache_save_to_bytes (PscCache  *self,
                         GError   **error)
{
  PSC_CACHE_CHECK (self, error, NULL);
  if (!psc_cache_check_owner (self, error))
    return NULL;
  return psc_persist_save_to_bytes (self->persist, self->core, error);
}

/**
 * psc_cache_load_bytes:
 * @self: a cache
 * @bytes: what [method@Psc.Cache.save_to_bytes] returned, possibly in
 *   another process
 * @error: return location for a #GError
 *
 * The bytes-in half: validates @bytes completely (structure, checksum,
 * platform, the device's identity, the size cap, the Vulkan data's own
 * header) and merges the driver data into the cache's. Bytes are untrusted:
 * anything wrong is refused with %PSC_ERROR_INVALID_DATA naming the reason
 * (see [enum@Psc.FileRejection]), counted, and leaves the cache unchanged.
 * Owner thread.
 *
 * Returns: %TRUE when the data was merged
 *
 * Since: 0.2
 */
gboolean
psc_cache_load_bytes (PscCache  *self,
                      GBytes    *bytes,
                      GError   **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);
  if (!psc_cache_check_owner (self, error))
    return FALSE;
  return psc_persist_load_bytes (self->persist, self->core, bytes, error);
}

/**
 * psc_cache_prewarm:
 * @self: a cache
 * @error: return location for a #GError
 *
 * Starts prewarm now: the most recently used warm-up recipes of the
 * recipes file (at most 32) that resolve against the shaders registered so
 * far (exact SPIR-V; the others are skipped and counted as stale) are
 * requested asynchronously, at most 4 at a time, and compiled on the
 * workers; [method@Psc.Cache.begin_frame] publishes them and requests the
 * next. Prewarm also starts by itself at the first
 * [method@Psc.Cache.begin_frame]; call this after registering the shaders
 * to start it earlier (before the first frame). A second call does
 * nothing. Closing the cache stops it at once. Owner thread.
 *
 * Returns: %TRUE when prewarm runs (or ran); %FALSE with @error:
 *   %PSC_ERROR_UNSUPPORTED when persistence is off (there are no recipes),
 *   %PSC_ERROR_WRONG_THREAD, %PSC_ERROR_CLOSED
 *
 * Since: 0.2
 */
gboolean
psc_cache_prewarm (PscCache  *self,
                   GError   **error)
{
  PSC_CACHE_CHECK (self, error, FALSE);
  if (!psc_cache_check_owner (self, error))
    return FALSE;
  if (!psc_persist_enabled (self->persist))
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                           _("prewarm needs persistence: the cache has no recipes"));
      return FALSE;
    }
  psc_persist_start_prewarm (self->persist, self->core);
  return TRUE;
}

/**
 * psc_cache_get_prewarm_done:
 * @self: a cache
 *
 * Whether prewarm (see [method@Psc.Cache.prewarm]) has requested every
 * candidate and none is still compiling. Owner thread (rule (b)).
 *
 * Returns: %TRUE once prewarm finished; %FALSE before it started, while it
 *   runs, and when persistence is off
 *
 * Since: 0.2
 */
gboolean
psc_cache_get_prewarm_done (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), FALSE);
  if (self->core == NULL || !psc_persist_enabled (self->persist))
    return FALSE;
  if (!psc_cache_enter_owner (self, G_STRFUNC))
    return FALSE;
  return psc_persist_prewarm_done (self->persist);
}

/**
 * psc_cache_verify_warm:
 * @self: a cache
 * @recorded: (out) (optional): the recipes in the recipes file
 * @served: (out) (optional): those the driver would serve from its cache
 * @stale: (out) (optional): those that no longer resolve
 * @error: return location for a #GError
 *
 * Verifies without compiling how warm the cache is: every recorded recipe
 * is resolved (its recorded shaders registered for the probe and released
 * after) and created with
 * `VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT` against the
 * driver data loaded at creation: a pipeline the driver made from its
 * cache counts as served (and is destroyed at once), one it would have had
 * to compile does not. This needs a device that enabled
 * `pipelineCreationCacheControl` (Vulkan 1.3; headless devices do when
 * the driver has it). `psocache-tool verify --probe` runs it on a cache
 * directory. Owner thread.
 *
 * Returns: %TRUE with the counts; %FALSE with @error:
 *   %PSC_ERROR_UNSUPPORTED without persistence or without the feature,
 *   %PSC_ERROR_VULKAN for another driver answer
 *
 * Since: 0.2
 */
gboolean
psc_cache_verify_warm (PscCache  *self,
                       guint     *recorded,
                       guint     *served,
                       guint     *stale,
                       GError   **error)
{
  guint r = 0, s = 0, t = 0;
  gboolean ok;

  PSC_CACHE_CHECK (self, error, FALSE);
  if (!psc_cache_check_owner (self, error))
    return FALSE;
  if (!psc_persist_enabled (self->persist))
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED,
                           _("the warm probe needs persistence: the cache has no recipes"));
      return FALSE;
    }
  ok = psc_persist_verify_warm (self->persist, self->core, &r, &s, &t, error);
  if (recorded != NULL)
    *recorded = r;
  if (served != NULL)
    *served = s;
  if (stale != NULL)
    *stale = t;
  return ok;
}
