/* psocache.h: the umbrella header of libpsocache-1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define __PSOCACHE_H_INSIDE__

#include <psocache/psc-macros.h>
#include <psocache/psc-version.h>
#include <psocache/psc-error.h>
#include <psocache/psc-enum-types.h>
#include <psocache/psc-enum-types-0-2.h>
#include <psocache/psc-enum-types-0-3.h>
#include <psocache/psc-recipe.h>
#include <psocache/psc-stats.h>
#include <psocache/psc-device.h>
#include <psocache/psc-cache.h>
#include <psocache/psc-export.h>
#include <psocache/psc-draw-list.h>
#include <psocache/psc-material.h>
#include <psocache/psc-material-prewarm.h>
#include <psocache/psc-resource.h>
#include <psocache/psc-descriptor.h>
#include <psocache/psc-live-caches.h>

#undef __PSOCACHE_H_INSIDE__
