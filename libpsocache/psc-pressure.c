/* psc-pressure.c: pressure-stall information (see psc-pressure.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-pressure.h"

#include <string.h>

gboolean
psc_pressure_parse (const char *text,
                    double     *some_avg10)
{
  const char *p = text != NULL ? strstr (text, "some avg10=") : NULL;
  char *end = NULL;
  double v;

  if (p == NULL)
    return FALSE;
  p += strlen ("some avg10=");
  v = g_ascii_strtod (p, &end);
  if (end == p || v < 0 || v > 100)
    return FALSE;
  *some_avg10 = v;
  return TRUE;
}

static gboolean
file_high (const char *path)
{
  g_autofree char *text = NULL;
  double v = 0;

  return g_file_get_contents (path, &text, NULL, NULL) && psc_pressure_parse (text, &v) &&
         v > PSC_PRESSURE_LIMIT;
}

gboolean
psc_pressure_high (void)
{
  return file_high ("/proc/pressure/memory") || file_high ("/proc/pressure/io");
}
