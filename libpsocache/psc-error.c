/* psc-error.c: the PSC_ERROR domain, its D-Bus names and core-error mapping.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <locale.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

/* Every code gets a D-Bus name so errors survive the bus unchanged (a
 * remote psocachectl sees PSC_ERROR_FOREIGN_HANDLE, not a generic error). */
static const GDBusErrorEntry psc_error_entries[] = {
  { PSC_ERROR_FAILED, "io.github.psocache.Error.Failed" },
  { PSC_ERROR_INVALID_ARGUMENT, "io.github.psocache.Error.InvalidArgument" },
  { PSC_ERROR_UNSUPPORTED, "io.github.psocache.Error.Unsupported" },
  { PSC_ERROR_FOREIGN_HANDLE, "io.github.psocache.Error.ForeignHandle" },
  { PSC_ERROR_CAPACITY, "io.github.psocache.Error.Capacity" },
  { PSC_ERROR_VULKAN, "io.github.psocache.Error.Vulkan" },
  { PSC_ERROR_WRONG_THREAD, "io.github.psocache.Error.WrongThread" },
  { PSC_ERROR_NO_DEVICE, "io.github.psocache.Error.NoDevice" },
  { PSC_ERROR_QUEUE_FULL, "io.github.psocache.Error.QueueFull" },
  { PSC_ERROR_CLOSED, "io.github.psocache.Error.Closed" },
  { PSC_ERROR_DISCARDED, "io.github.psocache.Error.Discarded" },
  { PSC_ERROR_INVALID_DATA, "io.github.psocache.Error.InvalidData" },
  { PSC_ERROR_IO, "io.github.psocache.Error.IO" },
};
G_STATIC_ASSERT (G_N_ELEMENTS (psc_error_entries) == PSC_STATUS_COUNT);
G_STATIC_ASSERT (PSC_STATUS_COUNT == PSC_ERROR_IO + 1);

void
psc_i18n_init (void)
{
  static gsize bound = 0;

  if (g_once_init_enter (&bound))
    {
      bindtextdomain (GETTEXT_PACKAGE, PSC_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&bound, 1);
    }
}

/**
 * psc_error_quark:
 *
 * The error domain of libpsocache, also reachable as %PSC_ERROR. Its codes
 * are registered as the D-Bus error names `io.github.psocache.Error.Failed`,
 * `.InvalidArgument`, `.Unsupported`, `.ForeignHandle`, `.Capacity`,
 * `.Vulkan`, `.WrongThread`, `.NoDevice`, `.QueueFull`, `.Closed`,
 * `.Discarded`, `.InvalidData` and `.IO`, so that they cross the bus
 * unchanged. The [Errors](errors.html) page says when each code happens.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
GQuark
psc_error_quark (void)
{
  /* Not G_DEFINE_QUARK: the D-Bus names must be registered before the first
   * error of the domain exists, and g_dbus_error_register_error_domain() does
   * both in one thread-safe step. The quark string is the one G_DEFINE_QUARK
   * would give ("psc-error-quark"). */
  static gsize quark = 0;

  psc_i18n_init ();
  g_dbus_error_register_error_domain ("psc-error-quark", &quark,
                                      psc_error_entries,
                                      G_N_ELEMENTS (psc_error_entries));
  return (GQuark) quark;
}

static const GDBusErrorEntry psc_export_error_entries[] = {
  { PSC_EXPORT_ERROR_READ_ONLY, "io.github.psocache.Error.ReadOnly" },
  { PSC_EXPORT_ERROR_BUSY, "io.github.psocache.Error.Busy" },
  { PSC_EXPORT_ERROR_TIMEOUT, "io.github.psocache.Error.Timeout" },
  { PSC_EXPORT_ERROR_ACCESS_DENIED, "io.github.psocache.Error.AccessDenied" },
};

/**
 * psc_export_error_quark:
 *
 * The error domain of the D-Bus export's own refusals, also reachable as
 * %PSC_EXPORT_ERROR (see [error@Psc.ExportError]). Its codes are registered
 * as the D-Bus error names `io.github.psocache.Error.ReadOnly`, `.Busy`,
 * `.Timeout` and `.AccessDenied`.
 *
 * Returns: the error quark
 *
 * Since: 0.3
 */
GQuark
psc_export_error_quark (void)
{
  static gsize quark = 0;

  psc_i18n_init ();
  g_dbus_error_register_error_domain ("psc-export-error-quark", &quark,
                                      psc_export_error_entries,
                                      G_N_ELEMENTS (psc_export_error_entries));
  return (GQuark) quark;
}

void
psc_error_from_core (GError           **error,
                     const PscCoreError *core_error)
{
  int code = PSC_ERROR_FAILED;

  if (error == NULL)
    return;

  if (core_error->status >= 0 && core_error->status < PSC_STATUS_COUNT)
    code = (int) core_error->status;

  if (core_error->message[0] != '\0')
    g_set_error_literal (error, PSC_ERROR, code, core_error->message);
  else if (core_error->path[0] != '\0')
    g_set_error (error, PSC_ERROR, code, _("%s: request failed"), core_error->path);
  else
    g_set_error_literal (error, PSC_ERROR, code, _("Request failed"));
}

void
psc_error_set_not_open (GError       **error,
                        const GError  *init_error)
{
  if (init_error != NULL)
    g_set_error (error, PSC_ERROR, PSC_ERROR_CLOSED,
                 _("The cache is not open: its initialization failed (%s)"),
                 init_error->message);
  else
    g_set_error_literal (error, PSC_ERROR, PSC_ERROR_CLOSED,
                         _("The cache is not open: it was never initialized (construct it with "
                           "psc_cache_new () or g_initable_new ())"));
}
