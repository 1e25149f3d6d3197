/* psc-export-bus.h: the bus side of the D-Bus export
 * (io.github.psocache.Cache1), psc-export-bus.c. It knows D-Bus and the
 * counters, never PscCache: psc-cache-export.c (the public API, the owner
 * side) sits above it.
 *
 * Threads. One process-wide bus thread, started by the first export and
 * joined after the last, runs its own GMainContext: every skeleton, the
 * object managers, the name requests, the method handlers and the
 * batching timer live there, so a method call is answered whether or not
 * the application runs a GLib main loop. The bus thread never touches the
 * cache's state: it reads the counters (psc_stats_read, atomics) and the
 * export's own queue and event ring, under the export's mutex. Controls
 * (and ListEntries, which walks the store) are queued for the owner
 * thread, which takes them at psc_cache_begin_frame and completes them
 * with psc_export_bus_complete_* (any thread may send a D-Bus reply).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "psc-private.h"
#include "psc-export-queue.h"

G_BEGIN_DECLS

typedef struct _PscExportBus PscExportBus;

/* What identifies an exported cache: constant for the export's life. */
typedef struct {
  const char *bus_name;             /* psc_export_bus_name_for's */
  const char *application_id;       /* "" when none */
  guint32 pid;
  const char *device_name;
  guint32 vendor_id, device_id, driver_version;
  const char *pipeline_cache_uuid;  /* 32 hex digits */
  const char *cache_directory;      /* "" when not persisting */
  const char *backend;              /* "dynamic-rendering" or "legacy" */
  gboolean read_only;
} PscExportIdentity;

/* Exports one cache on @connection: the process's bus name on that
 * connection (@identity's bus_name, requested by the connection's first
 * export; later ones share it),
 * an object /io/github/psocache/Cache1/<n> listed by the connection's
 * object manager. Blocks the caller until the bus thread did it. @core and
 * @persist must outlive the export (psc_export_bus_free first). */
G_GNUC_INTERNAL PscExportBus *psc_export_bus_new (GDBusConnection          *connection,
                                                  const PscExportIdentity  *identity,
                                                  PscCore                  *core,
                                                  PscPersist               *persist,
                                                  GError                  **error);
/* Unexports: queued controls are answered Closed, the object leaves the
 * bus (the name too with the connection's last export), the bus thread
 * ends with the process's last export. Blocks until done. */
G_GNUC_INTERNAL void psc_export_bus_free (PscExportBus *bus);
G_GNUC_INTERNAL const char *psc_export_bus_object_path (PscExportBus *bus);
G_GNUC_INTERNAL const char *psc_export_bus_name (PscExportBus *bus);

/* The well-known name this process owns: PSC_EXPORT_NAME_PREFIX
 * <sanitized application id>.pid<PID>, or inside a Flatpak sandbox
 * (@in_flatpak) <application id>.PsoCache1. @application_id may be NULL or
 * "" ("unknown" then). */
G_GNUC_INTERNAL char *psc_export_bus_name_for (const char *application_id, guint32 pid,
                                               gboolean in_flatpak);

/* The export's control queue (psc-export-queue.h): the owner thread
 * takes, completes and flushes its controls. */
G_GNUC_INTERNAL PscControlQueue *psc_export_bus_controls (PscExportBus *bus);

/* Events, recorded by the owner thread: they feed GetRecentEvents (a ring
 * of the last 256), PipelineCompiled (batched with the properties) and the
 * Invalidated and Saved signals (sent at once). */
typedef enum {
  PSC_EXPORT_EVENT_PIPELINE_COMPILED,
  PSC_EXPORT_EVENT_PIPELINE_FAILED,
  PSC_EXPORT_EVENT_SHADER_RELOADED,
  PSC_EXPORT_EVENT_EVICTED,
  PSC_EXPORT_EVENT_INVALIDATED,
  PSC_EXPORT_EVENT_SAVED,
} PscExportEventKind;

typedef struct {
  PscExportEventKind kind;
  guint64 frame;
  guint64 key_hash;         /* pipeline events */
  guint32 shader_id;        /* shader-reloaded, invalidated (0: all) */
  guint32 generation;       /* shader-reloaded, invalidated */
  guint32 count;            /* evicted; invalidated: shaders; saved: success (1/0) */
  guint64 bytes;            /* saved: bytes written */
  const char *message;      /* pipeline-failed, saved when it failed; may be NULL */
} PscExportEvent;

G_GNUC_INTERNAL void psc_export_bus_record (PscExportBus *bus, const PscExportEvent *event);

G_END_DECLS
