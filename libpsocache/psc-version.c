/* psc-version.c: the version of the library the program runs against.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

/**
 * psc_get_major_version:
 *
 * Returns the major version of the libpsocache library the program runs
 * against, which may differ from [const@Psc.MAJOR_VERSION] the program was
 * compiled with.
 *
 * Returns: the run-time major version
 *
 * Since: 0.1
 */
guint
psc_get_major_version (void)
{
  return PSC_MAJOR_VERSION;
}

/**
 * psc_get_minor_version:
 *
 * Returns the minor version of the libpsocache library the program runs
 * against.
 *
 * Returns: the run-time minor version
 *
 * Since: 0.1
 */
guint
psc_get_minor_version (void)
{
  return PSC_MINOR_VERSION;
}

/**
 * psc_get_micro_version:
 *
 * Returns the micro version of the libpsocache library the program runs
 * against.
 *
 * Returns: the run-time micro version
 *
 * Since: 0.1
 */
guint
psc_get_micro_version (void)
{
  return PSC_MICRO_VERSION;
}

/**
 * psc_check_version:
 * @major: the required major version
 * @minor: the required minor version
 * @micro: the required micro version
 *
 * Checks at run time that the library the program runs against is at least
 * the given version. This is the run-time counterpart of
 * [func@Psc.CHECK_VERSION], which checks the headers at compile time.
 *
 * Returns: %TRUE if the run-time library is the given version or newer
 *
 * Since: 0.1
 */
gboolean
psc_check_version (guint major,
                   guint minor,
                   guint micro)
{
  /* Through variables: with a 0.x release the constants would make some
   * comparisons trivially false, which is correct but draws warnings. */
  guint have_major = psc_get_major_version ();
  guint have_minor = psc_get_minor_version ();
  guint have_micro = psc_get_micro_version ();

  if (major != have_major)
    return major < have_major;
  if (minor != have_minor)
    return minor < have_minor;
  return micro <= have_micro;
}
