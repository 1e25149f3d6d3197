/* psc-prewarm-guard.h: the crash guard of prewarm (seed 003; as
 * fossilize-replay bans what faulted). Before prewarm requests a recipe it
 * is written into a small journal, and it leaves the journal when its
 * compile is over (done, failed or discarded). A journal found at the next
 * launch lists what was compiling when the process ended: those recipes
 * are banned, and prewarm skips them from then on. One journal and one ban
 * list per device identity (their names carry it), so a driver update
 * starts with no ban; a recipe whose content changed has another hash.
 * An application that crashed for another reason while prewarm compiled
 * bans those recipes too: it errs on the safe side (they still compile
 * when the application asks for them). Never installed.
 *
 * Files: prewarm-<identity>.journal (the recipe hashes in flight, one per
 * line, in hex; replaced atomically at each change; absent when none) and
 * prewarm-<identity>.banned (likewise). Owner thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PscPrewarmGuard PscPrewarmGuard;

/* Reads dir's journal and ban list for identity (the driver file's name);
 * a journal left behind is added to the bans (and then removed). NULL dir:
 * no guard (every call does nothing, nothing is banned). *newly_banned
 * (may be NULL): how many recipes the left-behind journal banned. */
G_GNUC_INTERNAL PscPrewarmGuard *psc_prewarm_guard_new (const char *dir, const char *identity,
                                                       guint *newly_banned);
G_GNUC_INTERNAL void psc_prewarm_guard_free (PscPrewarmGuard *g);
G_GNUC_INTERNAL gboolean psc_prewarm_guard_banned (const PscPrewarmGuard *g, guint64 recipe);
/* Nothing is compiling any more (the core is closed: its workers are
 * joined): the journal goes. */
G_GNUC_INTERNAL void psc_prewarm_guard_clear (PscPrewarmGuard *g);
/* The recipe starts / stops compiling. */
G_GNUC_INTERNAL void psc_prewarm_guard_begin (PscPrewarmGuard *g, guint64 recipe);
G_GNUC_INTERNAL void psc_prewarm_guard_end (PscPrewarmGuard *g, guint64 recipe);

G_END_DECLS
