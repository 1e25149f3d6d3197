/* psc-draw-list.h: PscDrawList, a bounded per-frame list of draws sorted
 * into draw order (opaque by state, transparent back to front).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <psocache/psc-macros.h>

G_BEGIN_DECLS

/**
 * PSC_DRAW_LIST_MAX_CAPACITY:
 *
 * The largest capacity [ctor@Psc.DrawList.new] accepts: 4,194,304 draws
 * (a list takes 68 bytes per draw of capacity, so about 272 MiB at this
 * size).
 *
 * Since: 0.3
 */
#define PSC_DRAW_LIST_MAX_CAPACITY (1u << 22)

#define PSC_TYPE_DRAW_LIST (psc_draw_list_get_type ())

/**
 * PscDrawList:
 *
 * A bounded list of one frame's draws, sorted into draw order without
 * allocating: everything it needs is allocated once, by
 * [ctor@Psc.DrawList.new]. A frame clears it
 * ([method@Psc.DrawList.clear]), adds its draws
 * ([method@Psc.DrawList.add_opaque], [method@Psc.DrawList.add_transparent]),
 * sorts them ([method@Psc.DrawList.sort]) and reads the draw ids in draw
 * order ([method@Psc.DrawList.get_opaque_order],
 * [method@Psc.DrawList.get_transparent_order]).
 *
 * Opaque draws are ordered by pipeline key hash, then material index, then
 * view depth front to back (ascending), then submission order.
 * Transparent draws are ordered strictly back to front (descending view
 * depth), submission order being the only tie-breaker: never by pipeline
 * or material. A NaN depth counts as farther than +infinity (opaque: drawn
 * after every other depth of its pipeline and material; transparent:
 * drawn first), all NaNs are equal, and -0.0 equals +0.0. See the "Draw
 * sorting" page.
 *
 * The capacity is shared: opaque and transparent draws together. A full
 * list refuses further draws and counts them
 * ([method@Psc.DrawList.get_dropped]); it never grows.
 *
 * A list is reference counted ([method@Psc.DrawList.ref],
 * [method@Psc.DrawList.unref]; `g_boxed_copy()` takes a reference) and not
 * thread-safe: one thread fills and sorts it at a time.
 *
 * Since: 0.3
 */
typedef struct _PscDrawList PscDrawList;

PSC_AVAILABLE_IN_0_3
GType psc_draw_list_get_type (void) G_GNUC_CONST;

PSC_AVAILABLE_IN_0_3
PscDrawList *psc_draw_list_new (guint capacity);
PSC_AVAILABLE_IN_0_3
PscDrawList *psc_draw_list_ref (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
void psc_draw_list_unref (PscDrawList *self);

PSC_AVAILABLE_IN_0_3
void psc_draw_list_clear (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_draw_list_add_opaque (PscDrawList *self,
                                   guint64      pipeline_key_hash,
                                   guint32      material_index,
                                   gfloat       view_depth,
                                   guint32      draw_id);
PSC_AVAILABLE_IN_0_3
gboolean psc_draw_list_add_transparent (PscDrawList *self,
                                        gfloat       view_depth,
                                        guint32      draw_id);
PSC_AVAILABLE_IN_0_3
void psc_draw_list_sort (PscDrawList *self);

PSC_AVAILABLE_IN_0_3
const guint32 *psc_draw_list_get_opaque_order (PscDrawList *self,
                                               guint       *n_draws);
PSC_AVAILABLE_IN_0_3
const guint32 *psc_draw_list_get_transparent_order (PscDrawList *self,
                                                    guint       *n_draws);

PSC_AVAILABLE_IN_0_3
guint psc_draw_list_get_capacity (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
guint psc_draw_list_get_n_opaque (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
guint psc_draw_list_get_n_transparent (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
guint psc_draw_list_get_dropped (PscDrawList *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_draw_list_is_sorted (PscDrawList *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDrawList, psc_draw_list_unref)

G_END_DECLS
