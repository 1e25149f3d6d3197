/* psc-pressure.h: Linux pressure-stall information (PSI), so prewarm holds
 * back while the system is short of memory or IO (as Steam's background
 * shader replay does). Reads /proc/pressure/memory and /proc/pressure/io;
 * a kernel without PSI (or a file that cannot be read) means no pressure.
 * Never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Prewarm issues nothing while a "some avg10" share is above this. */
#define PSC_PRESSURE_LIMIT 10.0

/* The "some avg10=" value of a PSI file's text; FALSE if it has none. */
G_GNUC_INTERNAL gboolean psc_pressure_parse (const char *text, double *some_avg10);
/* Whether memory or IO pressure is above PSC_PRESSURE_LIMIT now. */
G_GNUC_INTERNAL gboolean psc_pressure_high (void);

G_END_DECLS
