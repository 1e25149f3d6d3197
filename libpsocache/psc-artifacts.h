/* psc-artifacts.h: persistent layer 2, the SPIR-V artifact store (seed 003
 * "Exact-source SPIR-V"): compiled stage bytes by key (the record format
 * and the key are core/formats/artifact-record.h), in memory in a hash
 * table, loaded from `artifacts.psclog` in the cache directory when the
 * cache opens, new records appended at each save, compacted by atomic
 * replace. Never installed; docs/persistence.md is the user's side.
 *
 * Bounds: at most PSC_ARTIFACT_MAX_RECORDS (4096) artifacts and
 * PSC_ARTIFACT_MAX_BYTES (64 MiB of log records) are kept. A save
 * compacts the log when the artifacts exceed a bound, when the log would
 * exceed 64 MiB or twice 4096 records (USED records and superseded copies
 * count), or when the load found damage; compaction first merges what
 * other processes appended since the load, then keeps the most recently
 * used artifacts up to three quarters of each bound (room for appends
 * before the next one). In memory (no directory) the same trimming runs
 * once a bound is exceeded by an eighth.
 *
 * Threads: the cache's owner thread only (created after the core, saved
 * inside the core's closing callback at close).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "core/formats/artifact-record.h"

G_BEGIN_DECLS

typedef struct _PscArtifacts PscArtifacts;

/* Called once per record or file refused while loading (the reason). */
typedef void (*PscArtifactsRejectFn) (gpointer ctx, PscFileReason reason);

/* Opens the store: memory only when @directory is NULL, else reads and
 * validates @directory's artifacts.psclog (a missing log is an empty
 * store; a bad one, a bad record, a torn tail: @reject, and the rest is
 * used). Never fails. */
G_GNUC_INTERNAL PscArtifacts *psc_artifacts_new (const char *directory,
                                                 PscArtifactsRejectFn reject, gpointer ctx);
G_GNUC_INTERNAL void psc_artifacts_free (PscArtifacts *a);

/* Artifacts read from the log when the store opened (distinct keys). */
G_GNUC_INTERNAL guint psc_artifacts_n_loaded (const PscArtifacts *a);
/* Artifacts held now. */
G_GNUC_INTERNAL guint psc_artifacts_count (const PscArtifacts *a);

/* The code stored for @key (validated when it was read or added, stage
 * included), or NULL; *stage receives its stage. The bytes are the
 * store's: take a reference to keep them past the next call. */
G_GNUC_INTERNAL GBytes *psc_artifacts_lookup (PscArtifacts *a,
                                              const guint8 key[PSC_ARTIFACT_KEY_SIZE],
                                              guint32 *stage);
/* A lookup served a registration: @key becomes the most recently used. */
G_GNUC_INTERNAL void psc_artifacts_used (PscArtifacts *a, const guint8 key[PSC_ARTIFACT_KEY_SIZE]);
/* The code of @key was refused when it was used: forgotten (and not
 * merged back from the log); the log loses it at the next compaction. */
G_GNUC_INTERNAL void psc_artifacts_forget (PscArtifacts *a, const guint8 key[PSC_ARTIFACT_KEY_SIZE]);
/* Adds (or replaces) @key's code, the most recently used; written at the
 * next save. FALSE (nothing kept) when @spirv would not be read back:
 * psc_artifact_spirv_check's reason in *why (may be NULL). */
G_GNUC_INTERNAL gboolean psc_artifacts_add (PscArtifacts *a, const guint8 key[PSC_ARTIFACT_KEY_SIZE],
                                            guint32 stage, gsize source_len, GBytes *spirv,
                                            PscFileReason *why);

/* Whether a save would write something. */
G_GNUC_INTERNAL gboolean psc_artifacts_dirty (const PscArtifacts *a);
/* Writes what changed since the load or the last save: new artifacts and
 * the last-used stamps of loaded ones appended to the log, or the whole
 * log replaced (compaction, see above). TRUE with *wrote FALSE when there
 * was nothing to write or no directory; FALSE with @error (a GIOError:
 * G_IO_ERROR_BUSY when another process held the log's lock) when writing
 * failed: what was not written stays for the next save. */
G_GNUC_INTERNAL gboolean psc_artifacts_save (PscArtifacts *a, gboolean *wrote, GError **error);
/* When the last save ran (g_get_monotonic_time), or the store opened. */
G_GNUC_INTERNAL gint64 psc_artifacts_last_save (const PscArtifacts *a);

/* Tests: other bounds than PSC_ARTIFACT_MAX_RECORDS / _BYTES (0: keep). */
G_GNUC_INTERNAL void psc_artifacts_set_bounds (PscArtifacts *a, guint max_records, guint64 max_bytes);
/* Test hook: writes fail with this GIOErrorEnum (0: none). */
G_GNUC_INTERNAL void psc_artifacts_set_write_failure (PscArtifacts *a, int io_error);

/* psc-cache-artifacts.c: PscCache's side (the store in PscCache.artifacts,
 * its counters in PscPersist). Opened after the core was created; saved
 * where the driver data is saved (the closing callback, psc_cache_save,
 * the pump at most every save-interval seconds); FALSE with @error only
 * when writing failed (counted as a save failure, warned about once). */
struct _PscCache;
G_GNUC_INTERNAL void psc_cache_artifacts_open (struct _PscCache *self);
G_GNUC_INTERNAL gboolean psc_cache_artifacts_save (struct _PscCache *self, GError **error);
G_GNUC_INTERNAL void psc_cache_artifacts_pump (struct _PscCache *self, guint interval_s);
G_GNUC_INTERNAL void psc_cache_artifacts_free (struct _PscCache *self);

G_END_DECLS
