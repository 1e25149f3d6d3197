/* psc-cache-dir.h: where a cache persists, and the rules of that directory
 * (DESIGN "Names": $XDG_CACHE_HOME/psocache/<application-id>/, mode 0700;
 * the user knobs PSOCACHE_DISABLE, PSOCACHE_DIR, PSOCACHE_MAX_SIZE). Never
 * installed. docs/persistence.md states the same rules for users.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "core/formats/file-reason.h"

G_BEGIN_DECLS

/* Defaults: the per-application disk quota, how long a device identity's
 * files may go unused before they are deleted (Mesa's rule), and how old a
 * temporary file must be before it counts as stale (a younger one may be
 * another process's save in progress). */
#define PSC_DEFAULT_MAX_DISK_BYTES ((guint64) 256 << 20)
#define PSC_UNUSED_IDENTITY_AGE_S (7 * 24 * 3600)
#define PSC_STALE_TEMPORARY_AGE_S (10 * 60)

typedef enum {
  PSC_PERSIST_OFF,        /* neither an application id nor a directory */
  PSC_PERSIST_DISABLED,   /* PSOCACHE_DISABLE */
  PSC_PERSIST_REFUSED,    /* the directory is unsafe or cannot be made */
  PSC_PERSIST_ON,
} PscPersistMode;

typedef struct {
  PscPersistMode mode;
  char *path;             /* the directory (absolute); NULL unless ON */
  GFile *dir;             /* the same; NULL unless ON */
  guint64 max_bytes;      /* the quota */
  char *why;              /* REFUSED: the reason, a sentence */
} PscCacheDir;

/* Resolves the location from the cache's application id and explicit
 * directory (either may be NULL) and the environment, creates it (0700)
 * and checks it: a directory owned by another user, or writable by group
 * or others, is refused (mode REFUSED, why set, TRUE returned: the cache
 * then runs in memory). Returns FALSE with @error
 * (PSC_ERROR_INVALID_ARGUMENT) only for invalid arguments: an application
 * id that g_application_id_is_valid() refuses, or a relative directory.
 * @max_bytes: the application's quota, 0 for the default;
 * PSOCACHE_MAX_SIZE overrides it. */
G_GNUC_INTERNAL gboolean psc_cache_dir_resolve (const char   *application_id,
                                                const char   *directory,
                                                guint64       max_bytes,
                                                PscCacheDir  *out,
                                                GError      **error);
G_GNUC_INTERNAL void psc_cache_dir_clear (PscCacheDir *d);

/* "1048576", "512K", "256M", "2G" (binary multiples, as Mesa reads
 * MESA_SHADER_CACHE_MAX_SIZE). FALSE for anything else, or 0. */
G_GNUC_INTERNAL gboolean psc_parse_size (const char *text, guint64 *out);

/* What is at @file, without following a symbolic link: PSC_FILE_OK with
 * *info set (type, size, etag, modification time) for a regular file;
 * PSC_FILE_OK with *info NULL when nothing is there; PSC_FILE_SYMLINK or
 * PSC_FILE_NOT_REGULAR (never to be read or written through);
 * PSC_FILE_IO when it cannot be queried. */
G_GNUC_INTERNAL PscFileReason psc_cache_dir_query (GFile *file, GFileInfo **info);

/* Removes stale temporary files of interrupted saves (GIO's
 * ".goutputstream-*" and our "*.tmp") older than PSC_STALE_TEMPORARY_AGE_S.
 * Returns how many were removed. */
G_GNUC_INTERNAL guint psc_cache_dir_clean_temporaries (PscCacheDir *d);

/* Enforces the age and size rules on the driver files of other device
 * identities (never on @keep, the running device's file name): a file
 * whose marker (<name>.used, touched by psc_cache_dir_mark_used) is older
 * than PSC_UNUSED_IDENTITY_AGE_S is deleted; then, while the directory's
 * regular files exceed the quota, the least recently used ones. Returns
 * how many files were removed; *bytes_after (may be NULL) is what remains. */
G_GNUC_INTERNAL guint psc_cache_dir_trim (PscCacheDir *d, const char *keep,
                                          guint64 *bytes_after);
/* The size of the directory's regular files (what the quota counts). */
G_GNUC_INTERNAL guint64 psc_cache_dir_total_bytes (PscCacheDir *d);
/* Deletes the driver files (and markers) of the same vendor and device as
 * @keep but another driver version or UUID: called once @keep exists, so a
 * driver update drops the stale data. Returns how many were removed. */
G_GNUC_INTERNAL guint psc_cache_dir_drop_superseded (PscCacheDir *d, const char *keep);
/* Touches <name>.used (creating it), the marker of the age rule. */
G_GNUC_INTERNAL void psc_cache_dir_mark_used (PscCacheDir *d, const char *name);

G_END_DECLS
