/* psc-persist.c: a cache's persistence: policy, counters, saving (see
 * psc-persist.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-persist.h"

#include "psc-driver-store.h"
#include "psc-recipes.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* Merge-and-retry rounds when other processes keep replacing the file. */
#define SAVE_ATTEMPTS 4
/* zstd level of driver files: fast to write at close, fast to read. */
#define DRIVER_ZSTD_LEVEL 3

struct _PscPersist
{
  PscPersistConfig cfg;
  char *application_id, *directory;   /* cfg's strings, owned */
  PscCacheDir dir;
  PscDriverStore driver;
  GBytes *initial;            /* validated Vulkan data until the core exists */
  guint64 saved_changes;      /* psc_core_driver_cache_changes at the last load/save */
  /* XXH3 of the Vulkan data last loaded or saved: a save whose data has
   * not changed (pipelines created, but served by the loaded data) writes
   * nothing. */
  guint64 saved_data_hash;
  gboolean saved_data_known;
  gint64 last_save_us;
  guint warned;               /* WARN_* bits: one warning per kind of failure */
  int inject_write_error;     /* test hook: a GIOErrorEnum, 0 = none */
  gboolean always_write;      /* test hook */
  PscRecipes *recipes;        /* layer 3 */
  _Atomic guint64 counters[PSC_PERSIST_COUNTER_N];
  _Atomic guint64 rejected[PSC_FILE_REASON_COUNT];
};

enum { WARN_DIRECTORY = 1, WARN_SAVE = 2, WARN_LOAD = 4 };

static void
count (PscPersist        *p,
       PscPersistCounter  c,
       guint64            n)
{
  atomic_fetch_add_explicit (&p->counters[c], n, memory_order_relaxed);
}

void
psc_persist_count (PscPersist        *p,
                   PscPersistCounter  c,
                   guint64            n)
{
  if (p != NULL && (guint) c < PSC_PERSIST_COUNTER_N)
    count (p, c, n);
}

static void
set_gauge (PscPersist        *p,
           PscPersistCounter  c,
           guint64            v)
{
  atomic_store_explicit (&p->counters[c], v, memory_order_relaxed);
}

void
psc_persist_count_rejection (PscPersist    *p,
                             PscFileReason  reason)
{
  if (p == NULL || reason <= PSC_FILE_OK || reason >= PSC_FILE_REASON_COUNT)
    return;
  atomic_fetch_add_explicit (&p->rejected[reason], 1, memory_order_relaxed);
  count (p, PSC_PERSIST_COUNTER_REJECTED_TOTAL, 1);
}

static void
warn_once (PscPersist *p,
           guint       kind,
           const char *format,
           ...) G_GNUC_PRINTF (3, 4);

static void
warn_once (PscPersist *p,
           guint       kind,
           const char *format,
           ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  if ((p->warned & kind) != 0)
    return;
  p->warned |= kind;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_warning ("%s", msg);
}

/* Loading ------------------------------------------------------------------ */

/* Validates a driver file's bytes for this device: the Vulkan data, or
 * NULL with *reason. */
static GBytes *
validate_driver_bytes (PscPersist    *p,
                       GBytes        *file,
                       PscFileReason *reason)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (file, &len);
  uint8_t *blob = NULL;
  size_t blob_len = 0;

  *reason = psc_driver_file_read (data, len, &p->cfg.identity, p->cfg.driver_data_limit,
                                  &blob, &blob_len, NULL);
  if (*reason != PSC_FILE_OK)
    return NULL;
  /* The core's allocation: handed to GLib with its own free function. */
  return g_bytes_new_with_free_func (blob, blob_len, free, blob);
}

/* Reads the running identity's file: its validated Vulkan data, or NULL
 * (no file, or rejected: counted, warned about once). */
static GBytes *
load_driver_file (PscPersist *p)
{
  g_autoptr(GBytes) file = NULL;
  const goffset limit = (goffset) (p->cfg.driver_data_limit + PSC_DRIVER_FILE_HEADER_SIZE);
  PscFileReason reason = psc_driver_store_read (&p->driver, limit, &file);
  GBytes *vulkan;

  if (reason == PSC_FILE_OK && file == NULL)
    return NULL;
  vulkan = reason == PSC_FILE_OK ? validate_driver_bytes (p, file, &reason) : NULL;
  if (vulkan == NULL)
    {
      psc_persist_count_rejection (p, reason);
      warn_once (p, WARN_LOAD, _("psocache: %s was not used (%s: %s); the cache starts cold"),
                 g_file_peek_path (p->driver.file), psc_file_reason_name (reason),
                 psc_file_reason_describe (reason));
    }
  return vulkan;
}

static void
open_directory (PscPersist *p)
{
  guint removed;

  if (p->dir.mode == PSC_PERSIST_REFUSED)
    {
      warn_once (p, WARN_DIRECTORY, _("psocache: persistence is off: %s"), p->dir.why);
      return;
    }
  if (p->dir.mode != PSC_PERSIST_ON)
    return;
  psc_driver_store_init (&p->driver, p->dir.dir, &p->cfg.identity);
  removed = psc_cache_dir_clean_temporaries (&p->dir);
  count (p, PSC_PERSIST_COUNTER_FILES_REMOVED, removed);
  p->initial = load_driver_file (p);
  if (p->initial != NULL)
    {
      gsize len = 0;
      const void *data = g_bytes_get_data (p->initial, &len);
      p->saved_data_hash = XXH3_64bits (data, len);
      p->saved_data_known = TRUE;
    }
  psc_cache_dir_mark_used (&p->dir, p->driver.name);
}

PscPersist *
psc_persist_new (const PscPersistConfig  *cfg,
                 GError                 **error)
{
  PscPersist *p = g_new0 (PscPersist, 1);

  p->cfg = *cfg;
  p->application_id = g_strdup (cfg->application_id);
  p->directory = g_strdup (cfg->directory);
  p->cfg.application_id = p->application_id;
  p->cfg.directory = p->directory;
  if (p->cfg.driver_data_limit == 0)
    p->cfg.driver_data_limit = PSC_DRIVER_FILE_DEFAULT_MAX_RAW;
  if (!psc_cache_dir_resolve (cfg->application_id, cfg->directory, cfg->max_disk_bytes,
                              &p->dir, error))
    {
      psc_persist_free (p);
      return NULL;
    }
  open_directory (p);
  {
    const PscRecipeBounds bounds = {
      cfg->recipe_limit, cfg->prewarm_candidates, cfg->prewarm_in_flight, cfg->recipe_bytes,
    };
    p->recipes = psc_recipes_new (p->dir.mode == PSC_PERSIST_ON ? p->dir.path : NULL,
                                  p->dir.mode == PSC_PERSIST_ON ? p->driver.name : NULL, &bounds);
  }
  psc_recipes_set_strict (p->recipes, cfg->strict_recipes);
  return p;
}

void
psc_persist_free (PscPersist *p)
{
  if (p == NULL)
    return;
  g_clear_pointer (&p->initial, g_bytes_unref);
  g_clear_pointer (&p->recipes, psc_recipes_free);
  psc_driver_store_clear (&p->driver);
  psc_cache_dir_clear (&p->dir);
  g_free (p->application_id);
  g_free (p->directory);
  g_free (p);
}

const void *
psc_persist_initial_driver_data (PscPersist *p,
                                 gsize      *len)
{
  *len = 0;
  return p->initial != NULL ? g_bytes_get_data (p->initial, len) : NULL;
}

void
psc_persist_core_created (PscPersist *p,
                          PscCore    *core)
{
  guint64 left = 0;

  if (p->initial != NULL && psc_core_driver_data_rejected (core))
    psc_persist_count_rejection (p, PSC_FILE_DRIVER_REJECTED);
  else if (p->initial != NULL)
    {
      count (p, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED, psc_core_driver_data_loaded (core));
      count (p, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED, 1);
    }
  g_clear_pointer (&p->initial, g_bytes_unref);
  p->saved_changes = psc_core_driver_cache_changes (core);
  p->last_save_us = g_get_monotonic_time ();
  if (p->dir.mode == PSC_PERSIST_ON)
    {
      /* Our file exists and is valid: a driver update's stale one goes. */
      if (p->saved_data_known)
        count (p, PSC_PERSIST_COUNTER_FILES_REMOVED,
               psc_cache_dir_drop_superseded (&p->dir, p->driver.name));
      count (p, PSC_PERSIST_COUNTER_FILES_REMOVED,
             psc_cache_dir_trim (&p->dir, p->driver.name, &left));
      set_gauge (p, PSC_PERSIST_COUNTER_DISK_BYTES, left);
    }
}

/* Saving ------------------------------------------------------------------- */

/* The core's driver data as a driver file's bytes. */
static GBytes *
serialize_driver_data (PscPersist  *p,
                       PscCore     *core,
                       gsize       *vulkan_len,
                       guint64     *vulkan_hash,
                       GError     **error)
{
  PscCoreError core_error;
  void *data = NULL;
  size_t len = 0;
  uint8_t *file = NULL;
  size_t file_len = 0;
  PscStatus st;
  PscFileReason reason;

  PSC_CORE_ERROR_INIT (core_error);
  st = psc_core_get_driver_data (core, &data, &len, &core_error);
  if (st != PSC_STATUS_OK)
    {
      psc_cache_fail (error, st, &core_error);
      return NULL;
    }
  *vulkan_hash = XXH3_64bits (data, len);
  reason = psc_driver_file_write (&p->cfg.identity, data, len, TRUE, DRIVER_ZSTD_LEVEL,
                                  (uint64_t) (g_get_real_time () / G_USEC_PER_SEC),
                                  &file, &file_len);
  free (data);
  if (reason != PSC_FILE_OK)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_FAILED, _("driver data: %s"),
                   psc_file_reason_describe (reason));
      return NULL;
    }
  *vulkan_len = len;
  return g_bytes_new_with_free_func (file, file_len, free, file);
}

/* Another process replaced the file since we read it: read it again and
 * merge its data (if valid for this device) into the core. */
static void
merge_other (PscPersist *p,
             PscCore    *core)
{
  g_autoptr(GBytes) vulkan = load_driver_file (p);
  PscCoreError core_error;
  gsize len = 0;
  const void *data;

  count (p, PSC_PERSIST_COUNTER_MERGES, 1);
  if (vulkan == NULL)
    return;
  data = g_bytes_get_data (vulkan, &len);
  PSC_CORE_ERROR_INIT (core_error);
  if (psc_core_merge_driver_data (core, data, len, &core_error) == PSC_STATUS_OK)
    count (p, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED, len);
  else
    psc_persist_count_rejection (p, PSC_FILE_DRIVER_REJECTED);
}

static gboolean
write_driver_file (PscPersist  *p,
                   PscCore     *core,
                   GError     **error)
{
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      gsize vulkan_len = 0;
      guint64 hash = 0;
      g_autoptr(GBytes) bytes = serialize_driver_data (p, core, &vulkan_len, &hash, error);

      if (bytes == NULL)
        return FALSE;
      if (psc_driver_store_replace (&p->driver, bytes, p->inject_write_error, &local))
        {
          set_gauge (p, PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED, vulkan_len);
          p->saved_data_hash = hash;
          p->saved_data_known = TRUE;
          return TRUE;
        }
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG) ||
          attempt + 1 == SAVE_ATTEMPTS)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_IO, _("saving %s failed: %s"),
                       g_file_peek_path (p->driver.file), local->message);
          return FALSE;
        }
      merge_other (p, core);
    }
}

static void
after_save (PscPersist *p)
{
  guint64 left = 0;
  guint removed = psc_cache_dir_drop_superseded (&p->dir, p->driver.name);

  removed += psc_cache_dir_trim (&p->dir, p->driver.name, &left);
  count (p, PSC_PERSIST_COUNTER_FILES_REMOVED, removed);
  set_gauge (p, PSC_PERSIST_COUNTER_DISK_BYTES, left);
}

static gboolean
not_persisting (PscPersist  *p,
                GError     **error)
{
  const char *why;

  switch (p->dir.mode)
    {
    case PSC_PERSIST_DISABLED: why = _("PSOCACHE_DISABLE is set"); break;
    case PSC_PERSIST_REFUSED: why = p->dir.why; break;
    default: why = _("the cache has neither an application id nor a cache directory"); break;
    }
  g_set_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED, _("persistence is off: %s"), why);
  return FALSE;
}

/* Whether the core's driver data is what was last loaded or saved (the
 * file on disk, unless another process replaced it: the replace's own
 * check would then have seen it only at the next real change). */
static gboolean
unchanged_data (PscPersist *p,
                PscCore    *core)
{
  PscCoreError core_error;
  void *data = NULL;
  size_t len = 0;
  gboolean same;

  if (!p->saved_data_known)
    return FALSE;
  PSC_CORE_ERROR_INIT (core_error);
  if (psc_core_get_driver_data (core, &data, &len, &core_error) != PSC_STATUS_OK)
    return FALSE;
  same = XXH3_64bits (data, len) == p->saved_data_hash;
  free (data);
  return same;
}

static gboolean
save_driver (PscPersist  *p,
             PscCore     *core,
             GError     **error)
{
  g_autoptr(GError) local = NULL;
  const guint64 changes = psc_core_driver_cache_changes (core);

  if (p->dir.mode != PSC_PERSIST_ON)
    return not_persisting (p, error);
  p->last_save_us = g_get_monotonic_time ();
  if (!p->always_write && (changes == p->saved_changes || unchanged_data (p, core)) &&
      p->driver.known)
    {
      p->saved_changes = changes;
      count (p, PSC_PERSIST_COUNTER_SAVES_SKIPPED, 1);
      return TRUE;
    }
  if (!write_driver_file (p, core, &local))
    {
      count (p, PSC_PERSIST_COUNTER_SAVE_FAILURES, 1);
      warn_once (p, WARN_SAVE, "psocache: %s", local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  count (p, PSC_PERSIST_COUNTER_SAVES, 1);
  /* Merges during the save changed the core: what was written includes them. */
  p->saved_changes = psc_core_driver_cache_changes (core);
  after_save (p);
  return TRUE;
}

/* The recipes: a busy or failed append is retried at the next save (the
 * records stay in memory), so it only warns once. */
static void
save_recipes (PscPersist *p,
              PscCore    *core)
{
  g_autoptr(GError) error = NULL;

  if (!psc_recipes_save (p->recipes, core, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
    {
      count (p, PSC_PERSIST_COUNTER_SAVE_FAILURES, 1);
      warn_once (p, WARN_SAVE, "psocache: %s", error->message);
    }
}

gboolean
psc_persist_save (PscPersist  *p,
                  PscCore     *core,
                  GError     **error)
{
  gboolean ok = save_driver (p, core, error);

  if (p->dir.mode == PSC_PERSIST_ON)
    save_recipes (p, core);
  return ok;
}

void
psc_persist_start_prewarm (PscPersist *p,
                           PscCore    *core)
{
  psc_recipes_start_prewarm (p->recipes, core);
}

void
psc_persist_demand_miss (void          *p,
                         PscKind        kind,
                         const uint8_t *key,
                         size_t         len)
{
  psc_recipes_demand_miss (((PscPersist *) p)->recipes, kind, key, len);
}

gboolean
psc_persist_prewarm_done (const PscPersist *p)
{
  return psc_recipes_prewarm_done (p->recipes);
}

gboolean
psc_persist_verify_warm (PscPersist  *p,
                         PscCore     *core,
                         guint       *recorded,
                         guint       *served,
                         guint       *stale,
                         GError     **error)
{
  return psc_recipes_verify (p->recipes, core, recorded, served, stale, error);
}

void
psc_persist_pump (PscPersist *p,
                  PscCore    *core)
{
  /* Prewarm starts at the first pump: the application registered its
   * shaders by then (recipes resolve only against those). */
  psc_recipes_start_prewarm (p->recipes, core);
  psc_recipes_pump (p->recipes, core);
  if (p->dir.mode != PSC_PERSIST_ON || p->cfg.save_interval_s == 0 ||
      g_get_monotonic_time () - p->last_save_us < (gint64) p->cfg.save_interval_s * G_USEC_PER_SEC ||
      psc_core_driver_cache_changes (core) == p->saved_changes)
    return;
  psc_persist_save (p, core, NULL);
}

/* Bytes in, bytes out ------------------------------------------------------ */

GBytes *
psc_persist_save_to_bytes (PscPersist  *p,
                           PscCore     *core,
                           GError     **error)
{
  gsize vulkan_len = 0;
  guint64 hash = 0;
  return serialize_driver_data (p, core, &vulkan_len, &hash, error);
}

gboolean
psc_persist_load_bytes (PscPersist  *p,
                        PscCore     *core,
                        GBytes      *bytes,
                        GError     **error)
{
  g_autoptr(GBytes) vulkan = NULL;
  PscFileReason reason;
  PscCoreError core_error;
  gsize len = 0;
  const void *data;

  vulkan = validate_driver_bytes (p, bytes, &reason);
  if (vulkan == NULL)
    {
      psc_persist_count_rejection (p, reason);
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_DATA, _("driver data: %s: %s"),
                   psc_file_reason_name (reason), psc_file_reason_describe (reason));
      return FALSE;
    }
  data = g_bytes_get_data (vulkan, &len);
  PSC_CORE_ERROR_INIT (core_error);
  if (psc_core_merge_driver_data (core, data, len, &core_error) != PSC_STATUS_OK)
    {
      if (core_error.status == PSC_STATUS_VULKAN)
        psc_persist_count_rejection (p, PSC_FILE_DRIVER_REJECTED);
      psc_error_from_core (error, &core_error);
      return FALSE;
    }
  count (p, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED, len);
  count (p, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED, 1);
  return TRUE;
}

/* State -------------------------------------------------------------------- */

gboolean
psc_persist_enabled (const PscPersist *p)
{
  return p != NULL && p->dir.mode == PSC_PERSIST_ON;
}

const char *
psc_persist_directory (const PscPersist *p)
{
  return p != NULL ? p->dir.path : NULL;
}

void
psc_persist_read_counters (const PscPersist   *p,
                           PscPersistSnapshot *out)
{
  memset (out, 0, sizeof *out);
  if (p == NULL)
    return;
  out->enabled = p->dir.mode == PSC_PERSIST_ON;
  for (guint i = 0; i < PSC_PERSIST_COUNTER_N; i++)
    out->value[i] = atomic_load_explicit (&p->counters[i], memory_order_relaxed);
  for (guint r = 0; r < PSC_FILE_REASON_COUNT; r++)
    out->rejected[r] = atomic_load_explicit (&p->rejected[r], memory_order_relaxed);
  psc_recipes_read_counters (p->recipes, out);
}

void
psc_persist_set_always_write (PscPersist *p,
                              gboolean    always)
{
  p->always_write = always;
}

void
psc_persist_set_write_failure (PscPersist *p,
                               int         io_error)
{
  p->inject_write_error = io_error;
}

gboolean
psc_persist_trim (PscPersist  *p,
                  guint64      max_bytes,
                  guint64     *freed,
                  GError     **error)
{
  PscCacheDir quota;
  guint64 before, after = 0;

  *freed = 0;
  if (p == NULL || p->dir.mode != PSC_PERSIST_ON)
    {
      if (p == NULL)
        {
          g_set_error_literal (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED, _("persistence is off"));
          return FALSE;
        }
      return not_persisting (p, error);
    }
  before = psc_cache_dir_total_bytes (&p->dir);
  quota = p->dir;
  quota.max_bytes = MIN (max_bytes, p->dir.max_bytes);
  count (p, PSC_PERSIST_COUNTER_FILES_REMOVED, psc_cache_dir_trim (&quota, p->driver.name, &after));
  set_gauge (p, PSC_PERSIST_COUNTER_DISK_BYTES, after);
  *freed = before > after ? before - after : 0;
  return TRUE;
}
