/* dbus-export.h: psocache-demo's D-Bus export (--dbus=off|read-only|control):
 * which mode, the session bus, psc_cache_export and what it is called.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>

G_BEGIN_DECLS

typedef enum {
  PSC_DEMO_DBUS_DEFAULT,     /* no --dbus: control when a session bus exists, else off */
  PSC_DEMO_DBUS_OFF,
  PSC_DEMO_DBUS_READ_ONLY,
  PSC_DEMO_DBUS_CONTROL,
} PscDemoDBusMode;

gboolean psc_demo_dbus_parse_mode (const char *name, PscDemoDBusMode *mode, GError **error);
/* "off", "read-only" or "control" ("default" for PSC_DEMO_DBUS_DEFAULT). */
const char *psc_demo_dbus_mode_name (PscDemoDBusMode mode);

typedef struct {
  PscDemoDBusMode mode;          /* what happened: OFF, READ_ONLY or CONTROL */
  GDBusConnection *connection;   /* (nullable) the session bus while exported */
  PscCache *cache;               /* (nullable) the exported cache (a reference) */
  char *bus_name;                /* (nullable) kept after the export is removed */
  char *object_path;             /* (nullable) likewise */
} PscDemoExport;

/* Exports @cache as @requested says. PSC_DEMO_DBUS_DEFAULT without a
 * session bus (g_bus_get_sync fails) is not an error: the export is off and
 * one line says why. An explicit read-only or control mode without a bus,
 * and a failing export, are errors. Prints the bus name and object path. */
gboolean psc_demo_export_start (PscDemoExport *self, PscCache *cache, PscDemoDBusMode requested,
                                GError **error);
/* Removes the export (the bus name is released) and drops the connection;
 * the names stay for the --json line. Idempotent. */
void psc_demo_export_stop (PscDemoExport *self);
void psc_demo_export_clear (PscDemoExport *self);

/* The "dbus" member of the --json line: {"mode":...,"bus_name":...,"object_path":...}. */
char *psc_demo_export_to_json (const PscDemoExport *self);

G_END_DECLS
