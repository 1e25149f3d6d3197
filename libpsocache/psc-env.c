/* psc-env.c: the user knobs (see psc-env.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-env.h"

static const char *const names[] = {
  [PSC_ENV_DISABLE] = "PSOCACHE_DISABLE",
  [PSC_ENV_DIR] = "PSOCACHE_DIR",
  [PSC_ENV_MAX_SIZE] = "PSOCACHE_MAX_SIZE",
};

const char *
psc_env_name (PscEnvKnob knob)
{
  g_return_val_if_fail ((guint) knob < G_N_ELEMENTS (names), NULL);
  return names[knob];
}

const char *
psc_env_get (PscEnvKnob knob)
{
  g_return_val_if_fail ((guint) knob < G_N_ELEMENTS (names), NULL);
  return g_getenv (names[knob]);
}
