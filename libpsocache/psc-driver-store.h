/* psc-driver-store.h: the driver file of one device identity on disk, read
 * and replaced through GIO (persistent layer 1's I/O; the bytes' format is
 * core/formats/driver-file.h). A whole-file snapshot: every write is an
 * atomic replace (GIO writes a temporary file in the same directory and
 * renames it), guarded by the etag read, so a save never overwrites another
 * process's newer file unseen. Never follows a symbolic link, never reads or
 * writes a non-regular file. Never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "core/formats/driver-file.h"

G_BEGIN_DECLS

typedef struct {
  GFile *file;
  char *name;        /* "driver-<vendor>-<device>-<driver>-<uuid>.pscache" */
  char *etag;        /* of the file as last read or written; NULL: there was none */
  /* The header checksum of that file (bytes 88..95), valid when known:
   * file timestamps (GIO's local etags) have the kernel's coarse
   * granularity, so two saves within a few milliseconds can share an etag;
   * the checksum tells them apart. */
  guint64 checksum;
  gboolean known;
} PscDriverStore;

/* The file name of an identity (all fields in lower-case hex). */
G_GNUC_INTERNAL char *psc_driver_file_name (const PscDeviceIdentity *id);
G_GNUC_INTERNAL void psc_driver_store_init (PscDriverStore *s, GFile *dir,
                                            const PscDeviceIdentity *id);
G_GNUC_INTERNAL void psc_driver_store_clear (PscDriverStore *s);

/* Reads the whole file into *contents and its etag into s->etag.
 * PSC_FILE_OK with *contents NULL (and s->etag NULL) when there is no
 * file; PSC_FILE_SYMLINK, PSC_FILE_NOT_REGULAR (nothing read),
 * PSC_FILE_OVERSIZED (larger than @limit bytes: nothing read), PSC_FILE_IO. */
G_GNUC_INTERNAL PscFileReason psc_driver_store_read (PscDriverStore *s, goffset limit,
                                                     GBytes **contents);

/* Replaces the file by @contents, atomically, if it is still the one
 * s->etag describes (or still absent when s->etag is NULL); s->etag then
 * describes the new file. Fails with G_IO_ERROR_WRONG_ETAG when another
 * process replaced or created it meanwhile (read it, merge, retry), with
 * G_IO_ERROR_NOT_REGULAR_FILE for a link or non-regular file in its place
 * (never written through), or with the write's own error; the previous
 * file is then intact. @fail_with: a GIOErrorEnum to fail with instead of
 * writing (fault injection for tests), or 0. */
G_GNUC_INTERNAL gboolean psc_driver_store_replace (PscDriverStore *s, GBytes *contents,
                                                   int fail_with, GError **error);

G_END_DECLS
