/* recipes.h: warm-up recipes (persistent layer 3, seed 003), the core's
 * part. Internal to the core; no I/O: the GObject layer appends the bytes
 * a sink collects to a record log (formats/record-log.h) and hands back
 * the records it read, as a book (formats/recipe-record.h).
 *
 * Export. Every Ready pipeline entry is recorded as a resolvable recipe:
 * its canonical key verbatim, plus a reference table mapping each id the
 * key uses to the content hash of the referenced object's record. Which ids
 * a key uses is learnt by decoding it with a recording resolver (the
 * core's own, each reverse call forwarded and noted). Objects are records
 * of their own, children first: a shader (its SPIR-V), a sampler, a
 * sampler list (its ordered sampler ids, refs to the samplers), a set
 * layout, a pipeline layout, a compatibility render pass. A sink emits
 * each object once.
 *
 * Resolution. Bottom-up against exact content: a shader ref must name a
 * shader registered in this core with exactly that SPIR-V (the store is
 * keyed by the code; shaders are never registered here); every other
 * object is decoded from its record with an import resolver (ids ->
 * the record's refs -> content hash -> the handle made for that hash in
 * this core) and made with the core's own get-or-create, so it is the same
 * canonical key as the application's own request and deduplicates with
 * it. The pipeline key is decoded the same way into a create info, checked
 * by this core's encoder, for psc_core_request_graphics / _compute.
 *
 * A recipe that cannot be resolved is stale (PSC_STATUS_INVALID_DATA, the
 * reason in PscRecipeResolved.stale, the detail in err): for the caller to
 * count and skip. Other statuses are errors of the call. In pass-through
 * mode nothing is reused, so recipes are not resolved
 * (PSC_STATUS_UNSUPPORTED).
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"
#include "formats/recipe-record.h"

/* Log records (psc_log_write_record, no file header) for a recipes log. */
typedef struct {
  uint8_t *data;
  size_t len, cap;
  PscRecipeMap emitted;      /* content hashes of the objects already emitted */
  uint8_t *scratch;          /* one record payload being built */
  size_t scratch_cap;
  uint32_t objects;          /* object records appended */
  uint32_t pipelines;        /* pipeline records appended */
  uint32_t skipped;          /* pipelines psc_core_export_all_recipes left out */
} PscRecipeSink;

PSC_INTERNAL void psc_recipe_sink_init (PscRecipeSink *sink);
/* Frees everything; the sink is as after init. */
PSC_INTERNAL void psc_recipe_sink_clear (PscRecipeSink *sink);
/* Drops the bytes (the caller appended them to its log) and keeps the set
 * of objects emitted, so later exports do not emit them again. */
PSC_INTERNAL void psc_recipe_sink_reset_bytes (PscRecipeSink *sink);

/* Appends to sink the object records the pipeline's recipe needs that the
 * sink has not emitted yet, then its pipeline record (always, stamped
 * last_used). pipeline must be a Ready graphics or compute pipeline of this
 * cache (else PSC_STATUS_FOREIGN_HANDLE) whose shaders were not reloaded
 * since it was made (else PSC_STATUS_INVALID_ARGUMENT). A SPIR-V above
 * PSC_RECIPE_MAX_SPIRV_BYTES is PSC_STATUS_CAPACITY; out of memory
 * PSC_STATUS_FAILED. On failure the sink holds whole records only. */
PSC_INTERNAL PscStatus psc_core_export_recipe (PscCore *core, VkPipeline pipeline,
                                               uint64_t last_used, PscRecipeSink *sink,
                                               PscCoreError *err);
/* The same for every Ready graphics and compute pipeline; one that cannot
 * be exported is left out and counted in sink->skipped. Returns
 * PSC_STATUS_FAILED (err: the first such failure) when one was left out
 * for out of memory or an internal error, after exporting all the others;
 * a reloaded shader or a capacity is no failure of the call. */
PSC_INTERNAL PscStatus psc_core_export_all_recipes (PscCore *core, uint64_t last_used,
                                                    PscRecipeSink *sink, PscCoreError *err);

/* Why a recipe is stale. */
typedef enum {
  PSC_RECIPE_FRESH = 0,           /* "fresh": resolved */
  PSC_RECIPE_STALE_SHADER,        /* "shader-not-registered": no shader of this core has that SPIR-V */
  PSC_RECIPE_STALE_MISSING,       /* "missing-record": the book lacks a record it references */
  PSC_RECIPE_STALE_UNDECODABLE,   /* "undecodable": a key does not decode with its refs */
  PSC_RECIPE_STALE_REJECTED,      /* "rejected": this core refuses the decoded create info */
  PSC_RECIPE_STALE_COUNT
} PscRecipeStale;

/* The stable name above; "unknown" outside the enumeration. */
PSC_INTERNAL const char *psc_recipe_stale_name (PscRecipeStale stale);

/* A resolved recipe. The create info points into `build` and names this
 * core's objects; it stays valid until psc_recipe_resolved_clear (and
 * while the objects live: layouts and passes live as long as the core,
 * shader modules while registered). */
typedef struct {
  PscKind kind;                                  /* PSC_KIND_GRAPHICS or PSC_KIND_COMPUTE */
  const VkGraphicsPipelineCreateInfo *graphics;  /* kind GRAPHICS */
  const VkComputePipelineCreateInfo *compute;    /* kind COMPUTE */
  uint64_t last_used;                            /* the recipe's stamp */
  uint64_t key_hash;                             /* this core's canonical key for it */
  uint32_t key_len;
  PscRecipeStale stale;
  void *build;
} PscRecipeResolved;

PSC_INTERNAL void psc_recipe_resolved_clear (PscRecipeResolved *resolved);

/* Resolves the pipeline record recipe_hash of book against this core
 * (see above). *out is filled in any case (clear it after use). */
PSC_INTERNAL PscStatus psc_core_resolve_recipe (PscCore *core, const PscRecipeBook *book,
                                                uint64_t recipe_hash, PscRecipeResolved *out,
                                                PscCoreError *err);
/* Resolves and requests the recipe with PSC_CORE_MISS_SKIP: *state as
 * psc_core_request_*; fn (may be NULL) is called as the request path says
 * (not for READY). *stale (may be NULL) says why on
 * PSC_STATUS_INVALID_DATA, FRESH otherwise. PSC_STATUS_QUEUE_FULL: try
 * again later. */
PSC_INTERNAL PscStatus psc_core_prewarm_recipe (PscCore *core, const PscRecipeBook *book,
                                                uint64_t recipe_hash, PscCoreReadyFn fn,
                                                void *context, PscCoreRequestState *state,
                                                PscRecipeStale *stale, PscCoreError *err);
