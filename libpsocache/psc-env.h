/* psc-env.h: the only environment variables the library reads: the user
 * knobs of DESIGN "Names" (README "Environment" documents them). Every read
 * goes through psc_env_get, the library's one call of g_getenv
 * (tests/api/check-no-environment.sh checks both the binary and the
 * sources). GLib itself reads XDG_CACHE_HOME for g_get_user_cache_dir().
 * Never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  PSC_ENV_DISABLE,      /* PSOCACHE_DISABLE */
  PSC_ENV_DIR,          /* PSOCACHE_DIR */
  PSC_ENV_MAX_SIZE,     /* PSOCACHE_MAX_SIZE */
} PscEnvKnob;

/* The knob's name ("PSOCACHE_DIR"). */
G_GNUC_INTERNAL const char *psc_env_name (PscEnvKnob knob);
/* Its value, or NULL when unset. */
G_GNUC_INTERNAL const char *psc_env_get (PscEnvKnob knob);

G_END_DECLS
