/* psc-log-store.h: an append-only record log on disk (the recipe and
 * artifact files of persistent layers 2 and 3; the record format is
 * core/formats/record-log.h). Never installed.
 *
 * Each process appends under an exclusive lock on a lock file beside the
 * log (<name>.lock), taken for at most PSC_LOG_LOCK_WAIT_MS: a busy log
 * means this append waits for the next save, never a stall. Before it
 * appends, a torn tail (a process killed while appending) is cut back to
 * the last whole record, so new records are never hidden behind it.
 * Compaction replaces the whole log atomically (GIO temporary file +
 * rename) under the same lock. Readers take the lock shared (waited as
 * long), so they see whole appends; when it cannot be had they read
 * anyway, and an append in progress shows at most as a torn tail, which
 * the reader ignores. A symbolic link
 * or a non-regular file in the log's place is never read or written.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "core/formats/record-log.h"

G_BEGIN_DECLS

#define PSC_LOG_LOCK_WAIT_MS 100

typedef struct {
  char *path;
  char *lock_path;
  uint32_t kind;        /* PSC_LOG_KIND_* */
  int inject_error;     /* test hook: appends and replaces fail with this GIOErrorEnum */
} PscLogStore;

G_GNUC_INTERNAL void psc_log_store_init (PscLogStore *s, const char *dir, const char *name,
                                         uint32_t kind);
G_GNUC_INTERNAL void psc_log_store_clear (PscLogStore *s);

/* The whole log (at most @limit bytes) in *contents; PSC_FILE_OK with
 * *contents NULL when there is none; PSC_FILE_SYMLINK, PSC_FILE_NOT_REGULAR,
 * PSC_FILE_OVERSIZED, PSC_FILE_IO otherwise. The records are the caller's to
 * validate (psc_log_reader_init / _next). */
G_GNUC_INTERNAL PscFileReason psc_log_store_read (PscLogStore *s, goffset limit,
                                                  GBytes **contents);

/* Appends @len bytes of whole records (psc_log_write_record output),
 * creating the log with its header if needed. *repaired (may be NULL) is
 * set when a torn tail or a damaged header was cut first. FALSE with
 * @error: G_IO_ERROR_BUSY when the lock could not be taken in time, or the
 * I/O error (the log is left as it was: a short write is cut back). */
G_GNUC_INTERNAL gboolean psc_log_store_append (PscLogStore *s, const guint8 *records, gsize len,
                                               gboolean *repaired, GError **error);

/* Replaces the log by a header and these records, atomically, under the
 * lock (compaction). */
G_GNUC_INTERNAL gboolean psc_log_store_replace (PscLogStore *s, const guint8 *records, gsize len,
                                                GError **error);

G_END_DECLS
