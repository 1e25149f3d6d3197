/* psc-persist.h: a cache's persistence (seed 003's three layers; layer 1,
 * the driver pipeline-cache data, so far): where it lives
 * (psc-cache-dir.h), what was loaded and rejected, saving (at close, on
 * request, debounced from the pump), and its counters. Never installed;
 * docs/persistence.md is the user's side of the same rules.
 *
 * Threads: created, used and freed on the cache's owner thread; the
 * counters are atomics any thread reads (psc_persist_read_counters).
 *
 * A persistence failure never fails the cache: it is counted, warned about
 * once per kind of failure, and the cache goes on in memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-cache-dir.h"
#include "psc-private.h"

G_BEGIN_DECLS



typedef struct {
  const char *application_id;      /* may be NULL */
  const char *directory;           /* may be NULL */
  guint64 max_disk_bytes;          /* 0: default */
  guint64 driver_data_limit;       /* 0: PSC_DRIVER_FILE_DEFAULT_MAX_RAW */
  guint save_interval_s;           /* debounce of pump saves; 0: only close and on request */
  gboolean strict_recipes;         /* PSC_CACHE_FLAGS_STRICT_RECIPES */
  guint recipe_limit, prewarm_candidates, prewarm_in_flight;   /* 0: defaults */
  guint64 recipe_bytes;                                        /* 0: default */
  PscDeviceIdentity identity;
} PscPersistConfig;

/* Resolves the directory (FALSE only for invalid arguments, see
 * psc_cache_dir_resolve), cleans stale temporary files, and reads and
 * validates the running device's driver file. Never fails for a missing,
 * bad or unsafe file or directory: those are counted. */
G_GNUC_INTERNAL PscPersist *psc_persist_new (const PscPersistConfig *cfg, GError **error);
G_GNUC_INTERNAL void psc_persist_free (PscPersist *p);

/* The validated Vulkan data for PscCoreConfig (NULL when there is none);
 * owned by p until psc_persist_core_created. */
G_GNUC_INTERNAL const void *psc_persist_initial_driver_data (PscPersist *p, gsize *len);
/* After psc_core_new: records whether the driver took the data, releases
 * it, and trims the directory. */
G_GNUC_INTERNAL void psc_persist_core_created (PscPersist *p, PscCore *core);

/* Saves what changed since the last load or save: the driver file by
 * atomic replace (GIO, with the etag read at load; if another process
 * replaced it meanwhile, its data is merged into the core and the save
 * retried). Owner thread, or inside the core's closing callback. FALSE
 * with @error (PSC_ERROR_IO) when writing failed; the previous file is
 * intact. A save with nothing changed (no pipeline created or data merged,
 * or driver data identical to what was loaded or last saved: pipelines the
 * loaded data served) writes nothing (counted as skipped) and succeeds. */
G_GNUC_INTERNAL gboolean psc_persist_save (PscPersist *p, PscCore *core, GError **error);
/* From the pump: saves when save_interval_s passed since the last save and
 * something changed. Failures are only counted and warned about. */
G_GNUC_INTERNAL void psc_persist_pump (PscPersist *p, PscCore *core);

/* The bytes-in/bytes-out form (applications that keep their own storage):
 * the running device's driver file as bytes, and bytes validated
 * (PSC_ERROR_INVALID_DATA naming the reason) and merged into the core. */
G_GNUC_INTERNAL GBytes *psc_persist_save_to_bytes (PscPersist *p, PscCore *core, GError **error);
G_GNUC_INTERNAL gboolean psc_persist_load_bytes (PscPersist *p, PscCore *core, GBytes *bytes,
                                                 GError **error);

/* The D-Bus Trim control: the quota rules of psc_cache_dir_trim applied
 * once with max_bytes as the quota (the age rule too): other device
 * identities' driver files (and markers) go, least recently used first,
 * never the running device's file nor the logs. *freed receives how many
 * bytes the directory's regular files shrank by. PSC_ERROR_UNSUPPORTED
 * when persistence is off. Owner thread. */
G_GNUC_INTERNAL gboolean psc_persist_trim (PscPersist *p, guint64 max_bytes, guint64 *freed,
                                           GError **error);
G_GNUC_INTERNAL gboolean psc_persist_enabled (const PscPersist *p);
/* The directory, NULL when persistence is off. */
G_GNUC_INTERNAL const char *psc_persist_directory (const PscPersist *p);
/* Any thread. p may be NULL (zeros). */
G_GNUC_INTERNAL void psc_persist_read_counters (const PscPersist *p, PscPersistSnapshot *out);
/* Counts one rejection (for the layers above, e.g. the bytes API). */
G_GNUC_INTERNAL void psc_persist_count_rejection (PscPersist *p, PscFileReason reason);
/* Adds n to a counter (for the layers above, e.g. the artifacts). */
G_GNUC_INTERNAL void psc_persist_count (PscPersist *p, PscPersistCounter c, guint64 n);

/* Layer 3 (psc-recipes.c): starts prewarm now (it starts by itself at the
 * first pump); whether it has finished. */
G_GNUC_INTERNAL void psc_persist_start_prewarm (PscPersist *p, PscCore *core);
G_GNUC_INTERNAL gboolean psc_persist_prewarm_done (const PscPersist *p);
/* The core's demand-miss callback (strict recipes mode). */
G_GNUC_INTERNAL void psc_persist_demand_miss (void *p, PscKind kind, const uint8_t *key,
                                              size_t len);
G_GNUC_INTERNAL gboolean psc_persist_verify_warm (PscPersist *p, PscCore *core, guint *recorded,
                                                  guint *served, guint *stale, GError **error);

/* Test hook (libpsocache-1-testing.so): every write fails with this
 * GIOErrorEnum (0: none), as a full disk or a failed rename would. */
G_GNUC_INTERNAL void psc_persist_set_write_failure (PscPersist *p, int io_error);
/* Test hook: every save writes, even with nothing changed. */
G_GNUC_INTERNAL void psc_persist_set_always_write (PscPersist *p, gboolean always);

G_END_DECLS
