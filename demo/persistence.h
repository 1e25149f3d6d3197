/* persistence.h: what psocache-demo reports about its cache's persistence
 * (a human-readable summary, and the one JSON line of --json).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>

G_BEGIN_DECLS

/* Prewarm before the first frame: registers every shader the scene uses
 * (the scene's own registration later returns the same modules), starts
 * prewarm and pumps frame 0 until it is done. Returns the milliseconds it
 * took (0 when persistence is off). */
double psc_demo_prewarm (PscCache *cache);

/* Prints where the cache persists and what it loaded and rejected. */
void psc_demo_print_persistence (PscCache *cache, PscStats *stats);

/* The --json line: persistence counters from @stats (read after the
 * cache was closed, so its save at close is counted), the scene's pipeline
 * count, the time to the first frame, the frames rendered and @dbus_json,
 * the "dbus" member (a JSON object, see psc_demo_export_to_json), and
 * @material_prewarm_json, the "material_prewarm" member (an object, or null
 * without --async). */
void psc_demo_print_json (PscStats *stats, guint pipelines, double first_frame_ms,
                          guint frames, const char *dbus_json,
                          const char *material_prewarm_json);

G_END_DECLS
