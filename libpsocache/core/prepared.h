/* prepared.h: prepared keys, the cheapest way to request a pipeline every
 * frame. Internal to the core; the functions are in psc-core.h.
 *
 * `prepare` canonicalizes a create info once and stores its key
 * (deduplicated: preparing an equal create info again gives the same id);
 * ids are index + 1 and are never reused (prepared keys are never removed).
 * A request answers from its record alone (one 32-byte read) while nothing
 * has left the Ready state since the record cached its handle; otherwise
 * it checks its entry, and otherwise goes through the request path. A
 * prepared key answers the same way whatever path created its pipeline:
 * it names shaders by id, so once one of them is released (or reloaded)
 * the key is refused until the shader is registered again (or the key is
 * prepared again).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

PSC_INTERNAL void psc_prepared_free (PscCore *core);
