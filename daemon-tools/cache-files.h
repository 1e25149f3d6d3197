/* cache-files.h: what psocache-tool knows of the files in a cache
 * directory: each file's kind, its structure and checksums, and why a
 * given device would reject it. Reads files only; never writes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "formats/driver-file.h"
#include "formats/record-log.h"

G_BEGIN_DECLS

typedef enum {
  PSC_TOOL_FILE_DRIVER,       /* driver pipeline-cache data (layer 1) */
  PSC_TOOL_FILE_RECIPES,      /* warm-up recipes (layer 3) */
  PSC_TOOL_FILE_ARTIFACTS,    /* SPIR-V artifacts (layer 2) */
  PSC_TOOL_FILE_MARKER,       /* <file>.used: last use of an identity */
  PSC_TOOL_FILE_TEMPORARY,    /* an interrupted save's temporary file */
  PSC_TOOL_FILE_LOCK,         /* <log>.lock: the lock file of a record log */
  PSC_TOOL_FILE_UNKNOWN,      /* not a libpsocache file */
} PscToolFileKind;

typedef struct {
  char *path;
  char *name;
  PscToolFileKind kind;
  guint64 size;
  /* The file's own validity (structure, checksums), PSC_FILE_OK if valid;
   * for markers, temporaries and unknown files always PSC_FILE_OK. */
  PscFileReason reason;
  /* Against the device given to psc_tool_file_inspect: why it would
   * refuse the file (PSC_FILE_OK: it would use it); only for driver files
   * with a device. */
  gboolean device_checked;
  PscFileReason device_reason;
  /* Driver files: the header as read. */
  PscDriverFileInfo driver;
  /* Record logs: records read, damaged records skipped, torn tail. */
  guint64 records, skipped;
  gboolean torn;
} PscToolFile;

/* The kind's stable name ("driver", "recipes", ...). */
const char *psc_tool_file_kind_name (PscToolFileKind kind);

/* Inspects one file (never through a symbolic link: a link or a
 * non-regular file gets PSC_FILE_SYMLINK or PSC_FILE_NOT_REGULAR). @device
 * (NULL: none) is the identity to check driver files against. */
PscToolFile *psc_tool_file_inspect (const char *path, const PscDeviceIdentity *device);
void psc_tool_file_free (PscToolFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscToolFile, psc_tool_file_free)

/* The contents of a regular file, read without following a link, or NULL
 * with *why: PSC_FILE_SYMLINK, PSC_FILE_NOT_REGULAR, PSC_FILE_OVERSIZED
 * (above 1 GiB) or PSC_FILE_IO (missing or unreadable). */
GBytes *psc_tool_read_file (const char *path, PscFileReason *why);

/* Every entry of @dir (sorted by name), or NULL with @error. */
GPtrArray *psc_tool_inspect_directory (const char *dir, const PscDeviceIdentity *device,
                                       GError **error);

/* Whether a file counts as invalid for `verify`. */
gboolean psc_tool_file_invalid (const PscToolFile *f);

G_END_DECLS
