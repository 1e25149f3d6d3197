/* ctl-discovery.h: finding the caches exported on the session bus
 * (io.github.psocache.Cache1), without a central daemon, for psocachectl.
 *
 * A process exporting caches owns io.github.psocache.Cache1.<app id>.pid<PID>
 * (inside a Flatpak sandbox <app id>.PsoCache1) and lists one object per
 * cache, /io/github/psocache/Cache1/<n>, with org.freedesktop.DBus.ObjectManager
 * at /io/github/psocache/Cache1. The names and paths below are those of
 * libpsocache/psocache/psc-export.h (psocachectl is a pure D-Bus client and
 * does not include the library's headers; tests/ctl checks they agree).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#define PSC_CTL_INTERFACE "io.github.psocache.Cache1"
#define PSC_CTL_NAME_PREFIX "io.github.psocache.Cache1."
#define PSC_CTL_NAME_SUFFIX ".PsoCache1"
#define PSC_CTL_OBJECT_PATH "/io/github/psocache/Cache1"

/* How long one discovery call may take: a process that does not answer
 * is left out (and named on standard error), the others still listed. */
#define PSC_CTL_DISCOVERY_TIMEOUT_MS 3000

/* One exported cache. */
typedef struct {
  char *bus_name;           /* the well-known name it was found under */
  char *object_path;
  GVariant *properties;     /* a{sv}: its io.github.psocache.Cache1 properties, as listed */
} PscCtlCache;

void psc_ctl_cache_free (PscCtlCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscCtlCache, psc_ctl_cache_free)

/* Whether a bus name has one of the two exported forms. */
gboolean psc_ctl_is_cache_name (const char *name);

/* Every cache exported on @bus, ordered by bus name and object path. With
 * @bus_name, only that name's caches (it need not have either form); with
 * @object_path, only that object (probed directly when the name's object
 * manager does not list it). NULL with @error set when the bus itself could
 * not be asked; a name that does not answer is left out with a warning on
 * standard error. */
GPtrArray *psc_ctl_discover (GDBusConnection  *bus,
                             const char       *bus_name,
                             const char       *object_path,
                             GError          **error);

/* The caches of @caches that @selector names (NULL: all of them): a PID
 * (digits: the Pid property, or the pid<PID> that ends a name of the first
 * form), a bus name, or an application id. A new array of borrowed
 * pointers. */
GPtrArray *psc_ctl_select (GPtrArray  *caches,
                           const char *selector);

/* A D-Bus error's name (the remote name, or the name GDBus gives a local
 * failure) and its message without GDBus's "GDBus.Error:NAME: " prefix. */
char *psc_ctl_error_name (const GError *error);
char *psc_ctl_error_message (const GError *error);

/* A property of @cache, NULL when missing or not of @type. */
GVariant *psc_ctl_cache_lookup (const PscCtlCache  *cache,
                                const char         *name,
                                const GVariantType *type);
