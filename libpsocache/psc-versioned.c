/* psc-versioned.c: the rules of public structures that carry their own size
 * (PscCacheOptions, PscDeviceInfo), so that they can grow without breaking
 * programs compiled against an older or a newer header.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

gboolean
psc_versioned_copy (const void  *given,
                    gsize        min_size,
                    gsize        known_size,
                    const char  *type_name,
                    const char  *arg,
                    void        *known,
                    GError     **error)
{
  const guint8 *bytes = given;
  gsize size;

  g_assert (min_size >= sizeof (gsize) && min_size <= known_size);

  /* The size is the first member: read it before trusting anything else. */
  memcpy (&size, given, sizeof size);
  if (size < min_size)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("%s->size: %" G_GSIZE_FORMAT " is smaller than the first version of %s "
                     "(%" G_GSIZE_FORMAT " bytes); initialize it with its _INIT macro"),
                   arg, size, type_name, min_size);
      return FALSE;
    }
  /* Reading the tail below trusts @size; no version will be this large. */
  if (size > PSC_VERSIONED_MAX_SIZE)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("%s->size: %" G_GSIZE_FORMAT " is larger than any version of %s can be"),
                   arg, size, type_name);
      return FALSE;
    }
  /* A caller compiled against a newer header asks, in members this library
   * does not have, for something it cannot do: refuse rather than ignore. */
  for (gsize offset = known_size; offset < size; offset++)
    if (bytes[offset] != 0)
      {
        g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                     _("%s: the byte at offset %" G_GSIZE_FORMAT " is not zero, but this "
                       "version of libpsocache knows only the first %" G_GSIZE_FORMAT
                       " bytes of %s (a member of a newer version is set)"),
                     arg, offset, known_size, type_name);
        return FALSE;
      }

  memset (known, 0, known_size);
  memcpy (known, given, MIN (size, known_size));
  memcpy (known, &known_size, sizeof known_size);
  return TRUE;
}
