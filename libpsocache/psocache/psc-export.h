/* psc-export.h: exporting a PscCache on D-Bus (io.github.psocache.Cache1).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <gio/gio.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-cache.h>

G_BEGIN_DECLS

/**
 * PSC_EXPORT_INTERFACE:
 *
 * The D-Bus interface an exported cache implements (described by
 * `io.github.psocache.Cache1.xml`, installed to
 * `$datadir/dbus-1/interfaces`).
 *
 * Since: 0.3
 */
#define PSC_EXPORT_INTERFACE "io.github.psocache.Cache1"

/**
 * PSC_EXPORT_NAME_PREFIX:
 *
 * The prefix of the well-known bus name an exporting process owns outside
 * a Flatpak sandbox: `io.github.psocache.Cache1.<application id>.pid<PID>`
 * (the application id sanitized to bus-name elements). Inside a sandbox
 * the name is `<application id>.PsoCache1` (see %PSC_EXPORT_NAME_SUFFIX).
 *
 * Since: 0.3
 */
#define PSC_EXPORT_NAME_PREFIX "io.github.psocache.Cache1."

/**
 * PSC_EXPORT_NAME_SUFFIX:
 *
 * The last element of the bus name a process owns inside a Flatpak
 * sandbox, which lets an application own only names under its own id:
 * `<application id>.PsoCache1`.
 *
 * Since: 0.3
 */
#define PSC_EXPORT_NAME_SUFFIX ".PsoCache1"

/**
 * PSC_EXPORT_OBJECT_PATH:
 *
 * The object path under which exported caches live, one object each
 * (`/io/github/psocache/Cache1/<n>`), listed by
 * `org.freedesktop.DBus.ObjectManager` at this path.
 *
 * Since: 0.3
 */
#define PSC_EXPORT_OBJECT_PATH "/io/github/psocache/Cache1"

/**
 * PSC_EXPORT_CONTROL_TIMEOUT_MS:
 *
 * How long a control method waits for the owner thread to apply it (at
 * its next [method@Psc.Cache.begin_frame]) before the caller gets
 * `io.github.psocache.Error.Timeout`.
 *
 * Since: 0.3
 */
#define PSC_EXPORT_CONTROL_TIMEOUT_MS 5000

/**
 * PSC_EXPORT_CONTROL_QUEUE:
 *
 * How many control calls may wait for the owner thread per exported cache;
 * more get `io.github.psocache.Error.Busy`.
 *
 * Since: 0.3
 */
#define PSC_EXPORT_CONTROL_QUEUE 64

/**
 * PSC_EXPORT_PROPERTIES_INTERVAL_MS:
 *
 * The headline counter properties are sent in one `PropertiesChanged` at
 * most this often.
 *
 * Since: 0.3
 */
#define PSC_EXPORT_PROPERTIES_INTERVAL_MS 250

/**
 * PscExportFlags:
 * @PSC_EXPORT_FLAGS_NONE: inspection and control
 * @PSC_EXPORT_FLAGS_READ_ONLY: inspection only: every control method fails
 *   with `io.github.psocache.Error.ReadOnly` (the `ReadOnly` property)
 *
 * Flags for [method@Psc.Cache.export].
 *
 * Since: 0.3
 */
typedef enum { /*< flags >*/
  PSC_EXPORT_FLAGS_NONE = 0,
  PSC_EXPORT_FLAGS_READ_ONLY = 1 << 0,
} PscExportFlags PSC_AVAILABLE_TYPE_IN_0_3;

/**
 * PSC_EXPORT_ERROR:
 *
 * The error domain of the D-Bus export's own refusals, the codes of
 * [error@Psc.ExportError]. A D-Bus client sees them as the error names
 * `io.github.psocache.Error.ReadOnly`, `.Busy`, `.Timeout` and
 * `.AccessDenied`; every other failure of a control is a [error@Psc.Error]
 * (`io.github.psocache.Error.*`, for example `.Closed` while the cache
 * closes or was unexported, `.InvalidArgument` for an unknown shader id).
 *
 * Since: 0.3
 */
#define PSC_EXPORT_ERROR (psc_export_error_quark ())

/**
 * PscExportError:
 * @PSC_EXPORT_ERROR_READ_ONLY: a control method of a read-only export
 *   (`io.github.psocache.Error.ReadOnly`)
 * @PSC_EXPORT_ERROR_BUSY: the cache's control queue already holds
 *   %PSC_EXPORT_CONTROL_QUEUE calls (`io.github.psocache.Error.Busy`)
 * @PSC_EXPORT_ERROR_TIMEOUT: the owner thread did not apply the control
 *   within %PSC_EXPORT_CONTROL_TIMEOUT_MS (`io.github.psocache.Error.Timeout`);
 *   it is then never applied
 * @PSC_EXPORT_ERROR_ACCESS_DENIED: the caller's connection belongs to
 *   another Unix user than the exporting process
 *   (`io.github.psocache.Error.AccessDenied`)
 *
 * The refusals of the D-Bus export (see [method@Psc.Cache.export]), a
 * domain of their own so that [error@Psc.Error] and the counters named
 * after its codes (`rejected.<code>`) stay as they are. Later versions
 * may add codes.
 *
 * Since: 0.3
 */
typedef enum {
  PSC_EXPORT_ERROR_READ_ONLY,
  PSC_EXPORT_ERROR_BUSY,
  PSC_EXPORT_ERROR_TIMEOUT,
  PSC_EXPORT_ERROR_ACCESS_DENIED,
} PscExportError PSC_AVAILABLE_TYPE_IN_0_3;

PSC_AVAILABLE_IN_0_3
GQuark psc_export_error_quark (void);

/* A 0.3 function may take a 0.3 type: no warning for the declaration
 * itself when the API is pinned to an older version (its use warns). */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
PSC_AVAILABLE_IN_0_3
gboolean psc_cache_export (PscCache *self, GDBusConnection *connection, PscExportFlags flags,
                           GError **error);
G_GNUC_END_IGNORE_DEPRECATIONS
PSC_AVAILABLE_IN_0_3
void psc_cache_unexport (PscCache *self);
PSC_AVAILABLE_IN_0_3
const char *psc_cache_get_export_object_path (PscCache *self);
PSC_AVAILABLE_IN_0_3
const char *psc_cache_get_export_bus_name (PscCache *self);

G_END_DECLS
