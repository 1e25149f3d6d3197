/* psc-live-cache.h: what the live-resource caches (uniform sets,
 * framebuffers) share: a table keyed by bytes, entries that depend on
 * resource wrappers and die when one is invalidated, and retirement on the
 * GPU timeline. Internal; single-threaded (the caches' thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-resource-private.h"

G_BEGIN_DECLS

typedef struct _PscLiveCache PscLiveCache;
typedef struct _PscLiveEntry PscLiveEntry;

struct _PscLiveCache {
  GThread *owner;               /* the thread that made it */
  GDestroyNotify destroy;       /* an entry's payload */
  GHashTable *table;            /* PscLiveEntry (its key) -> itself */
  GArray *retired;              /* PscLiveEntry *, waiting for the timeline */
  guint64 frame;                /* the last begin_frame's */
  guint64 completed;
  guint64 hits, misses;
};

void psc_live_cache_init (PscLiveCache *c, GDestroyNotify destroy_payload);
/* Destroys every entry and retired payload now (the caller knows the GPU
 * is done with them). */
void psc_live_cache_clear (PscLiveCache *c);
/* The payload stored under @key, or NULL; a hit marks it used this frame. */
gpointer psc_live_cache_lookup (PscLiveCache *c, const void *key, gsize len);
/* Stores @payload under @key (copied), dead once any of @deps is
 * invalidated. */
void psc_live_cache_insert (PscLiveCache *c, const void *key, gsize len, gpointer payload,
                            PscResource *const *deps, guint n_deps);
/* Records the frame, then destroys the retired payloads whose last use
 * the GPU has completed. */
void psc_live_cache_begin_frame (PscLiveCache *c, guint64 frame, guint64 completed);
guint psc_live_cache_n_entries (PscLiveCache *c);
guint psc_live_cache_n_retiring (PscLiveCache *c);

G_END_DECLS
