/* reload.h: hot reload of a shader, one ordered operation (seed 000,
 * "Lifetime, eviction, and hot reload"). Internal to the core; the function
 * is psc_core_replace_shader in psc-core.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"
