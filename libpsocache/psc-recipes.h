/* psc-recipes.h: persistent layer 3, warm-up recipes (seed 003), the
 * GObject layer's part: the recipes file (recipes.psclog, a record log:
 * psc-log-store.h) read into a book when the cache is created, the
 * pipelines created since recorded at each save, and prewarm: the most
 * recently used recipes resolved against the shaders this process
 * registered and compiled asynchronously before they are asked for. The
 * records and their resolution are the core's (core/recipes.h). Never
 * installed; docs/persistence.md is the user's side.
 *
 * Bounds (seed 003): the book holds at most PSC_RECIPE_MAX_RECORDS records
 * and PSC_RECIPE_MAX_BOOK_BYTES; the file keeps the PSC_RECIPES_KEPT most
 * recently used recipes when it is compacted; prewarm takes at most
 * PSC_RECIPES_CANDIDATES of them, PSC_RECIPES_IN_FLIGHT at a time.
 *
 * Threads: owner thread only (prewarm's callbacks come from the core's
 * pump, on the owner thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-private.h"

G_BEGIN_DECLS

#define PSC_RECIPES_KEPT 1024
#define PSC_RECIPES_CANDIDATES 32
#define PSC_RECIPES_IN_FLIGHT 4
#define PSC_RECIPES_FILE "recipes.psclog"

typedef struct _PscRecipes PscRecipes;

/* Reads @dir's recipes file (NULL: memory only, nothing is read or
 * written) and prewarm's crash guard for @identity (the driver file's name:
 * psc-prewarm-guard.h). Rejected records and torn tails are counted in
 * the recipes' own counters. */
typedef struct {
  guint kept;          /* recipes the file keeps at compaction (0: PSC_RECIPES_KEPT) */
  guint candidates;    /* prewarm's candidates (0: PSC_RECIPES_CANDIDATES) */
  guint in_flight;     /* prewarm's requests at once (0: PSC_RECIPES_IN_FLIGHT) */
  guint64 max_bytes;   /* record bytes read from the file (0: PSC_RECIPE_MAX_BOOK_BYTES) */
} PscRecipeBounds;

G_GNUC_INTERNAL PscRecipes *psc_recipes_new (const char *dir, const char *identity,
                                             const PscRecipeBounds *bounds);
/* Strict mode (PSC_CACHE_FLAGS_STRICT_RECIPES): prewarm takes every
 * recipe, and psc_recipes_demand_miss reports and counts each pipeline
 * compiled on demand that no recipe covered. */
G_GNUC_INTERNAL void psc_recipes_set_strict (PscRecipes *r, gboolean strict);
/* The core's demand-miss callback (PscCoreConfig.demand_miss). */
G_GNUC_INTERNAL void psc_recipes_demand_miss (PscRecipes *r, PscKind kind, const uint8_t *key,
                                              size_t len);

/* Adds the recipes' counters (loaded, stale, prewarmed, saved, their
 * rejections) to @add. Any thread; r may be NULL. */
G_GNUC_INTERNAL void psc_recipes_read_counters (const PscRecipes *r, PscPersistSnapshot *add);
G_GNUC_INTERNAL void psc_recipes_free (PscRecipes *r);

/* Chooses the candidates (most recently used first) and starts prewarm;
 * later calls do nothing. */
G_GNUC_INTERNAL void psc_recipes_start_prewarm (PscRecipes *r, PscCore *core);
/* From the pump: resolves and requests candidates while fewer than
 * PSC_RECIPES_IN_FLIGHT are compiling. */
G_GNUC_INTERNAL void psc_recipes_pump (PscRecipes *r, PscCore *core);
/* Whether prewarm has requested every candidate and none is compiling. */
G_GNUC_INTERNAL gboolean psc_recipes_prewarm_done (const PscRecipes *r);

/* Records every Ready pipeline not recorded yet and appends them to the
 * file (compacting it first when it holds more than the bounds allow).
 * FALSE with @error (G_IO_ERROR_BUSY: another process holds the lock; the
 * records wait for the next save). */
G_GNUC_INTERNAL gboolean psc_recipes_save (PscRecipes *r, PscCore *core, GError **error);

/* The warm probe over every recipe of the book: the recorded shaders are
 * registered (their recorded SPIR-V) for the probe and released after,
 * then each recipe is created with FAIL_ON_PIPELINE_COMPILE_REQUIRED: how
 * many the driver serves from its cache (see core/probe.h). FALSE with
 * @error (PSC_ERROR_UNSUPPORTED without pipeline-creation cache control). */
G_GNUC_INTERNAL gboolean psc_recipes_verify (PscRecipes *r, PscCore *core, guint *recorded,
                                             guint *served, guint *stale, GError **error);

G_END_DECLS
