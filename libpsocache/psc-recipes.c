/* psc-recipes.c: warm-up recipes on disk and prewarm (see psc-recipes.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-recipes.h"

#include "psc-log-store.h"
#include "psc-prewarm-guard.h"
#include "psc-pressure.h"
#include "core/probe.h"
#include "core/recipes.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The recipes file is read whole: the book's bound plus room for records
 * it deduplicates. */
#define PSC_RECIPES_FILE_LIMIT ((goffset) 64 << 20)

struct _PscRecipes
{
  /* Counters, read (added to the cache's snapshot) by psc-persist.c. */
  _Atomic guint64 counters[PSC_PERSIST_COUNTER_N];
  _Atomic guint64 rejected[PSC_FILE_REASON_COUNT];
  gboolean on_disk;
  PscLogStore log;
  PscRecipeBook book;          /* what the file held at creation */
  PscRecipeSink sink;          /* objects emitted so far (the book's included) */
  PscRecipeMap saved;          /* pipeline recipe hashes on disk (value 1) */
  /* Canonical key hashes (in this process's ids) of pipelines that are on
   * disk already: the recipes prewarm resolved and those this process
   * saved. A key names objects by per-process ids, so the same pipeline
   * recorded by another process has another recipe hash; these keep a
   * prewarmed pipeline from being recorded again. */
  PscRecipeMap known_keys;
  PscPrewarmGuard *guard;      /* NULL without a directory */
  GPtrArray *jobs;             /* PscPrewarmJob in flight (their callbacks free them) */
  gboolean strict;
  PscRecipeBounds bounds;      /* no zero left */
  gint64 pressure_checked_us;  /* PSI is read at most every second */
  gboolean pressure;
  PscCore *core;               /* set when prewarm starts (its callbacks need it) */
  GPtrArray *prewarmed;        /* strict: PscKeyCopy of each pipeline prewarm made */
  GArray *used;                /* recipe hashes prewarm made Ready: their stamps are renewed */
  guint64 *candidates;         /* recipe hashes, most recently used first */
  guint n_candidates, next_candidate, in_flight;
  gboolean prewarm_started;
};

static void
count (PscRecipes *r, PscPersistCounter c, guint64 n)
{
  atomic_fetch_add_explicit (&r->counters[c], n, memory_order_relaxed);
}

static void
reject (PscRecipes *r, PscFileReason why)
{
  if (why <= PSC_FILE_OK || why >= PSC_FILE_REASON_COUNT)
    return;
  atomic_fetch_add_explicit (&r->rejected[why], 1, memory_order_relaxed);
  count (r, PSC_PERSIST_COUNTER_REJECTED_TOTAL, 1);
}

void
psc_recipes_read_counters (const PscRecipes *r, PscPersistSnapshot *add)
{
  if (r == NULL)
    return;
  for (guint i = 0; i < PSC_PERSIST_COUNTER_N; i++)
    add->value[i] += atomic_load_explicit (&r->counters[i], memory_order_relaxed);
  for (guint i = 0; i < PSC_FILE_REASON_COUNT; i++)
    add->rejected[i] += atomic_load_explicit (&r->rejected[i], memory_order_relaxed);
}

/* Loading ------------------------------------------------------------------ */

static void
add_records (PscRecipes *r, const guint8 *data, gsize len)
{
  PscLogReader reader;
  PscLogRecord rec;
  PscFileReason why;
  PscLogNext next;

  why = psc_log_reader_init (&reader, data, len, PSC_LOG_KIND_RECIPES, 0);
  if (why != PSC_FILE_OK)
    {
      reject (r, why);
      return;
    }
  while ((next = psc_log_reader_next (&reader, &rec, &why)) != PSC_LOG_NEXT_END)
    {
      if (next == PSC_LOG_NEXT_TORN || next == PSC_LOG_NEXT_SKIPPED)
        reject (r, why);
      if (next == PSC_LOG_NEXT_TORN)
        break;
      if (next == PSC_LOG_NEXT_RECORD &&
          !psc_recipe_book_add (&r->book, rec.type, rec.payload, rec.len, &why))
        reject (r, why);
    }
}

/* What the book holds is on disk: the sink never emits those objects
 * again, and those pipelines are not recorded again. */
static void
remember_book (PscRecipes *r)
{
  for (guint32 i = 0; i < r->book.count; i++)
    {
      const PscRecipeRecord *rec = &r->book.records[i];
      if (rec->type == PSC_RECIPE_RECORD_OBJECT)
        psc_recipe_map_put (&r->sink.emitted, rec->hash, 1);
      else
        psc_recipe_map_put (&r->saved, rec->hash, 1);
    }
  count (r, PSC_PERSIST_COUNTER_RECIPES_LOADED, r->book.pipelines);
}

/* Compaction ------------------------------------------------------------- */

static int by_last_used (gconstpointer a, gconstpointer b);

/* Marks rec's objects (transitively) in keep. */
static void
mark_objects (const PscRecipeBook *book, const PscRecipeRecord *rec, PscRecipeMap *keep)
{
  guint64 seen;
  for (guint32 i = 0; i < rec->ref_count; i++)
    {
      const PscRecipeRef ref = psc_recipe_record_ref (rec, i);
      const PscRecipeRecord *child = psc_recipe_book_find (book, PSC_RECIPE_RECORD_OBJECT, ref.hash);
      if (child == NULL || psc_recipe_map_get (keep, ref.hash, &seen))
        continue;
      psc_recipe_map_put (keep, ref.hash, 1);
      mark_objects (book, child, keep);
    }
}

static void
append_record (GByteArray *out, const PscRecipeRecord *rec)
{
  const gsize at = out->len;
  g_byte_array_set_size (out, (guint) (at + psc_log_record_size (rec->len)));
  psc_log_write_record (out->data + at, rec->type, rec->payload, rec->len);
}

/* More pipelines than bounds.kept: rewrite the file with the most
 * recently used ones and the objects they name (children first, as in the
 * book). Another process's append between our read and this rewrite is
 * lost (an acceleration only: it is recorded again at its next save). */
static void
compact (PscRecipes *r)
{
  g_autoptr(GPtrArray) pipelines = g_ptr_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  PscRecipeMap keep = { 0 }, keep_pipelines = { 0 };
  guint64 seen;

  for (guint32 i = 0; i < r->book.count; i++)
    if (r->book.records[i].type == PSC_RECIPE_RECORD_PIPELINE)
      g_ptr_array_add (pipelines, &r->book.records[i]);
  g_ptr_array_sort (pipelines, by_last_used);
  for (guint i = 0; i < MIN (pipelines->len, r->bounds.kept); i++)
    {
      const PscRecipeRecord *rec = pipelines->pdata[i];
      psc_recipe_map_put (&keep_pipelines, rec->hash, 1);
      mark_objects (&r->book, rec, &keep);
    }
  for (guint32 i = 0; i < r->book.count; i++)
    {
      const PscRecipeRecord *rec = &r->book.records[i];
      if (psc_recipe_map_get (rec->type == PSC_RECIPE_RECORD_OBJECT ? &keep : &keep_pipelines,
                              rec->hash, &seen))
        append_record (out, rec);
    }
  if (!psc_log_store_replace (&r->log, out->data, out->len, &error))
    g_debug ("recipes not compacted: %s", error->message);
  psc_recipe_map_clear (&keep);
  psc_recipe_map_clear (&keep_pipelines);
}

PscRecipes *
psc_recipes_new (const char            *dir,
                 const char            *identity,
                 const PscRecipeBounds *bounds)
{
  guint banned = 0;
  PscRecipes *r = g_new0 (PscRecipes, 1);
  g_autoptr(GBytes) contents = NULL;
  PscFileReason why;

  r->bounds = (PscRecipeBounds) {
    bounds != NULL && bounds->kept ? bounds->kept : PSC_RECIPES_KEPT,
    bounds != NULL && bounds->candidates ? bounds->candidates : PSC_RECIPES_CANDIDATES,
    bounds != NULL && bounds->in_flight ? bounds->in_flight : PSC_RECIPES_IN_FLIGHT,
    bounds != NULL && bounds->max_bytes ? bounds->max_bytes : PSC_RECIPE_MAX_BOOK_BYTES,
  };
  psc_recipe_book_init (&r->book);
  r->book.max_bytes = (size_t) r->bounds.max_bytes;
  psc_recipe_sink_init (&r->sink);
  r->jobs = g_ptr_array_new_with_free_func (g_free);
  r->prewarmed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  r->used = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (dir == NULL)
    return r;
  r->on_disk = TRUE;
  r->guard = psc_prewarm_guard_new (dir, identity, &banned);
  if (banned > 0)
    g_message ("psocache: %u warm-up recipe(s) were being compiled when the last run ended; "
               "prewarm skips them from now on (they still compile when asked for)", banned);
  psc_log_store_init (&r->log, dir, PSC_RECIPES_FILE, PSC_LOG_KIND_RECIPES);
  why = psc_log_store_read (&r->log, PSC_RECIPES_FILE_LIMIT, &contents);
  if (why != PSC_FILE_OK)
    reject (r, why);
  else if (contents != NULL)
    add_records (r, g_bytes_get_data (contents, NULL), g_bytes_get_size (contents));
  if (r->book.pipelines > r->bounds.kept)
    compact (r);
  remember_book (r);
  return r;
}

void
psc_recipes_free (PscRecipes *r)
{
  if (r == NULL)
    return;
  psc_recipe_book_clear (&r->book);
  psc_recipe_sink_clear (&r->sink);
  psc_recipe_map_clear (&r->saved);
  psc_recipe_map_clear (&r->known_keys);
  /* The core is gone: no compile runs and no callback comes any more (a
   * cache closed on a foreign thread drops them): nothing crashed. */
  psc_prewarm_guard_clear (r->guard);
  psc_prewarm_guard_free (r->guard);
  g_ptr_array_unref (r->jobs);
  g_ptr_array_unref (r->prewarmed);
  g_array_unref (r->used);
  if (r->on_disk)
    psc_log_store_clear (&r->log);
  g_free (r->candidates);
  g_free (r);
}

/* Prewarm ------------------------------------------------------------------ */

static int
by_last_used (gconstpointer a, gconstpointer b)
{
  const PscRecipeRecord *ra = *(const PscRecipeRecord *const *) a;
  const PscRecipeRecord *rb = *(const PscRecipeRecord *const *) b;
  return ra->last_used < rb->last_used ? 1 : ra->last_used > rb->last_used ? -1 : 0;
}

void
psc_recipes_start_prewarm (PscRecipes *r,
                           PscCore    *core)
{
  g_autoptr(GPtrArray) pipelines = g_ptr_array_new ();

  if (r->prewarm_started)
    return;
  r->prewarm_started = TRUE;
  for (guint32 i = 0; i < r->book.count; i++)
    if (r->book.records[i].type == PSC_RECIPE_RECORD_PIPELINE)
      g_ptr_array_add (pipelines, &r->book.records[i]);
  g_ptr_array_sort (pipelines, by_last_used);
  const guint max = r->strict ? pipelines->len : r->bounds.candidates;
  r->core = core;
  r->n_candidates = 0;
  r->candidates = g_new0 (guint64, MAX (max, 1));
  for (guint i = 0, j = 0; i < pipelines->len && j < max; i++)
    {
      const guint64 hash = ((const PscRecipeRecord *) pipelines->pdata[i])->hash;
      /* A recipe that was compiling when a run ended is never tried again. */
      if (psc_prewarm_guard_banned (r->guard, hash))
        {
          count (r, PSC_PERSIST_COUNTER_RECIPES_STALE, 1);
          continue;
        }
      r->candidates[j++] = hash;
      r->n_candidates = j;
    }
  psc_recipes_pump (r, core);
}

/* Strict mode keeps the key of each pipeline prewarm made (kind first),
 * to say how a demand miss differs from the nearest. */
static void
remember_prewarmed (PscRecipes *r, VkPipeline pipeline)
{
  const uint8_t *key = NULL;
  size_t len = 0;
  PscKind kind;
  guint8 *copy;

  if (!r->strict || r->core == NULL || !psc_core_pipeline_key (r->core, pipeline, &kind, &key, &len))
    return;
  copy = g_malloc (len + 1);
  copy[0] = (guint8) kind;
  memcpy (copy + 1, key, len);
  g_ptr_array_add (r->prewarmed, g_bytes_new_take (copy, len + 1));
}

/* One prewarm request in flight: its recipe leaves the crash guard's
 * journal when the compile is over. */
typedef struct {
  PscRecipes *recipes;
  guint64 hash;
} PscPrewarmJob;

static void
prewarm_done (void      *context,
              VkPipeline pipeline,
              VkResult   result)
{
  PscPrewarmJob *job = context;
  PscRecipes *r = job->recipes;
  const guint64 hash = job->hash;

  psc_prewarm_guard_end (r->guard, hash);
  g_ptr_array_remove_fast (r->jobs, job);   /* frees it */
  r->in_flight--;
  if (result == VK_SUCCESS)
    {
      count (r, PSC_PERSIST_COUNTER_RECIPES_PREWARMED, 1);
      remember_prewarmed (r, pipeline);
      g_array_append_val (r->used, hash);
    }
  else if (result != VK_INCOMPLETE)
    count (r, PSC_PERSIST_COUNTER_RECIPES_STALE, 1);   /* the driver refused it here */
}

/* Requests one candidate; FALSE when the queue is full (try again later)
 * or the cache is closing. */
static gboolean
request_one (PscRecipes *r,
             PscCore    *core,
             guint64     hash)
{
  PscCoreRequestState state = PSC_CORE_PENDING;
  PscRecipeStale stale = PSC_RECIPE_FRESH;
  PscRecipeResolved res;
  PscCoreError err;
  PscStatus st;
  VkPipeline out = VK_NULL_HANDLE;

  PSC_CORE_ERROR_INIT (err);
  st = psc_core_resolve_recipe (core, &r->book, hash, &res, &err);
  stale = res.stale;
  if (st == PSC_STATUS_OK)
    {
      PscPrewarmJob *job = g_new (PscPrewarmJob, 1);
      *job = (PscPrewarmJob) { r, hash };
      g_ptr_array_add (r->jobs, job);
      psc_recipe_map_put (&r->known_keys, res.key_hash, 1);
      psc_prewarm_guard_begin (r->guard, hash);
      st = res.kind == PSC_KIND_GRAPHICS
         ? psc_core_request_graphics (core, res.graphics, PSC_CORE_MISS_SKIP,
                                      PSC_CORE_REQUEST_PREWARM, prewarm_done, job, &out, &state,
                                      &err)
         : psc_core_request_compute (core, res.compute, PSC_CORE_MISS_SKIP,
                                     PSC_CORE_REQUEST_PREWARM, prewarm_done, job, &out, &state,
                                     &err);
      /* No callback comes for a Ready answer or a refused request. */
      if (st != PSC_STATUS_OK || state == PSC_CORE_READY)
        {
          psc_prewarm_guard_end (r->guard, hash);
          g_ptr_array_remove_fast (r->jobs, job);
        }
    }
  psc_recipe_resolved_clear (&res);
  if (st == PSC_STATUS_QUEUE_FULL || st == PSC_STATUS_CLOSED || st == PSC_STATUS_WRONG_THREAD)
    return FALSE;
  if (st == PSC_STATUS_OK && state == PSC_CORE_READY)
    {
      count (r, PSC_PERSIST_COUNTER_RECIPES_PREWARMED, 1);
      remember_prewarmed (r, out);
      g_array_append_val (r->used, hash);
    }
  else if (st == PSC_STATUS_OK)
    r->in_flight++;
  else
    {
      count (r, PSC_PERSIST_COUNTER_RECIPES_STALE, 1);
      g_debug ("recipe %016" G_GINT64_MODIFIER "x skipped (%s): %s", hash,
               psc_recipe_stale_name (stale), err.message);
    }
  return TRUE;
}

/* Memory or IO pressure (read at most once a second): prewarm holds
 * back; what is in flight goes on. */
static gboolean
under_pressure (PscRecipes *r)
{
  const gint64 now = g_get_monotonic_time ();
  if (now - r->pressure_checked_us >= G_USEC_PER_SEC)
    {
      r->pressure_checked_us = now;
      r->pressure = psc_pressure_high ();
    }
  return r->pressure;
}

void
psc_recipes_pump (PscRecipes *r,
                  PscCore    *core)
{
  if (r->prewarm_started && r->next_candidate < r->n_candidates && under_pressure (r))
    return;
  while (r->prewarm_started && r->next_candidate < r->n_candidates &&
         r->in_flight < r->bounds.in_flight)
    {
      if (!request_one (r, core, r->candidates[r->next_candidate]))
        return;
      r->next_candidate++;
    }
}

gboolean
psc_recipes_prewarm_done (const PscRecipes *r)
{
  return r->prewarm_started && r->next_candidate == r->n_candidates && r->in_flight == 0;
}

/* Saving ------------------------------------------------------------------- */

/* Copies the sink's records to out, leaving out pipeline records already on
 * disk; *pipelines counts those kept. */
static void
filter_new (PscRecipes *r, GByteArray *out, guint *pipelines)
{
  g_autofree guint8 *framed = g_malloc (PSC_LOG_HEADER_SIZE + r->sink.len);
  PscLogReader reader;
  PscLogRecord rec;
  PscFileReason why;
  PscRecipeRecord parsed;
  guint64 seen;

  if (r->sink.len == 0)
    return;
  /* The sink holds bare records: frame them to read them back. */
  psc_log_write_header (framed, PSC_LOG_KIND_RECIPES);
  memcpy (framed + PSC_LOG_HEADER_SIZE, r->sink.data, r->sink.len);
  if (psc_log_reader_init (&reader, framed, PSC_LOG_HEADER_SIZE + r->sink.len,
                           PSC_LOG_KIND_RECIPES, 0) != PSC_FILE_OK)
    return;
  while (psc_log_reader_next (&reader, &rec, &why) == PSC_LOG_NEXT_RECORD)
    {
      if (psc_recipe_record_parse (rec.type, rec.payload, rec.len, &parsed) != PSC_FILE_OK)
        continue;
      if (rec.type == PSC_RECIPE_RECORD_PIPELINE &&
          (psc_recipe_map_get (&r->saved, parsed.hash, &seen) ||
           psc_recipe_map_get (&r->known_keys, XXH3_64bits (parsed.key, parsed.key_len), &seen)))
        continue;
      *pipelines += rec.type == PSC_RECIPE_RECORD_PIPELINE;
      g_byte_array_append (out, framed + rec.offset, (guint) psc_log_record_size (rec.len));
    }
}

/* The records written: pipelines are on disk now. */
static void
mark_saved (PscRecipes *r, const GByteArray *out)
{
  gsize at = 0;
  while (at + PSC_LOG_RECORD_HEADER_SIZE <= out->len)
    {
      const guint8 *h = out->data + at;
      const guint32 len = psc_le32 (h + 8);
      PscRecipeRecord parsed;
      if ((guint) (h[4] | h[5] << 8) == PSC_RECIPE_RECORD_PIPELINE &&
          psc_recipe_record_parse (PSC_RECIPE_RECORD_PIPELINE, h + PSC_LOG_RECORD_HEADER_SIZE, len,
                                   &parsed) == PSC_FILE_OK)
        {
          psc_recipe_map_put (&r->saved, parsed.hash, 1);
          psc_recipe_map_put (&r->known_keys, XXH3_64bits (parsed.key, parsed.key_len), 1);
        }
      at += psc_log_record_size (len);
    }
}

/* After a failed append, the objects the sink emitted are not on disk:
 * forget them, keep those that are (the book's and earlier saves'). */
static void
forget_unwritten (PscRecipes *r, const PscRecipeMap *on_disk)
{
  psc_recipe_sink_clear (&r->sink);
  psc_recipe_sink_init (&r->sink);
  for (guint32 i = 0; i < on_disk->cap; i++)
    if (on_disk->used[i])
      psc_recipe_map_put (&r->sink.emitted, on_disk->keys[i], 1);
}

static PscRecipeMap
copy_map (const PscRecipeMap *m)
{
  PscRecipeMap c = { 0 };
  for (guint32 i = 0; i < m->cap; i++)
    if (m->used[i])
      psc_recipe_map_put (&c, m->keys[i], m->values[i]);
  return c;
}

/* The recipes prewarm made Ready are appended again with today's stamp
 * (the book keeps the larger), so the most recently used come first at
 * the next launch and survive compaction. */
static void
renew_used (PscRecipes *r, GByteArray *out, guint64 now)
{
  for (guint i = 0; i < r->used->len; i++)
    {
      const PscRecipeRecord *rec = psc_recipe_book_find (&r->book, PSC_RECIPE_RECORD_PIPELINE,
                                                         g_array_index (r->used, guint64, i));
      g_autofree guint8 *copy = NULL;
      gsize at;
      if (rec == NULL || rec->last_used >= now)
        continue;
      copy = g_memdup2 (rec->payload, rec->len);
      psc_put_le64 (copy, now);   /* the stamp leads a pipeline record, outside its hash */
      at = out->len;
      g_byte_array_set_size (out, (guint) (at + psc_log_record_size (rec->len)));
      psc_log_write_record (out->data + at, PSC_RECIPE_RECORD_PIPELINE, copy, rec->len);
    }
  g_array_set_size (r->used, 0);
}

gboolean
psc_recipes_save (PscRecipes  *r,
                  PscCore     *core,
                  GError     **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  PscRecipeMap on_disk = copy_map (&r->sink.emitted);
  const guint64 now = (guint64) (g_get_real_time () / G_USEC_PER_SEC);
  PscCoreError err;
  guint pipelines = 0;
  gboolean ok = TRUE;

  if (!r->on_disk)
    {
      psc_recipe_map_clear (&on_disk);
      return TRUE;
    }
  PSC_CORE_ERROR_INIT (err);
  if (psc_core_export_all_recipes (core, now, &r->sink, &err) != PSC_STATUS_OK)
    {
      /* Objects it marked emitted are not on disk. */
      forget_unwritten (r, &on_disk);
      psc_recipe_map_clear (&on_disk);
      psc_cache_fail (error, err.status, &err);
      return FALSE;
    }
  filter_new (r, out, &pipelines);
  renew_used (r, out, now);
  if (out->len > 0)
    ok = psc_log_store_append (&r->log, out->data, out->len, NULL, error);
  if (ok)
    {
      mark_saved (r, out);
      count (r, PSC_PERSIST_COUNTER_RECIPES_SAVED, pipelines);
      psc_recipe_sink_reset_bytes (&r->sink);
    }
  else
    forget_unwritten (r, &on_disk);
  psc_recipe_map_clear (&on_disk);
  return ok;
}

/* Verify ------------------------------------------------------------------- */

/* Registers every recorded shader; the modules to release. */
static GArray *
register_recorded_shaders (PscRecipes *r, PscCore *core)
{
  GArray *modules = g_array_new (FALSE, FALSE, sizeof (VkShaderModule));
  for (guint32 i = 0; i < r->book.count; i++)
    {
      const PscRecipeRecord *rec = &r->book.records[i];
      VkShaderModule m = VK_NULL_HANDLE;
      uint32_t id = 0;
      PscCoreError err;
      PSC_CORE_ERROR_INIT (err);
      if (rec->type == PSC_RECIPE_RECORD_OBJECT && rec->kind == PSC_RECIPE_SHADER &&
          psc_core_register_shader (core, (const uint32_t *) rec->key, rec->key_len, &m, &id,
                                    &err) == PSC_STATUS_OK)
        g_array_append_val (modules, m);
    }
  return modules;
}

gboolean
psc_recipes_verify (PscRecipes  *r,
                    PscCore     *core,
                    guint       *recorded,
                    guint       *served,
                    guint       *stale,
                    GError     **error)
{
  g_autoptr(GArray) modules = register_recorded_shaders (r, core);
  gboolean ok = TRUE;

  *recorded = *served = *stale = 0;
  for (guint32 i = 0; ok && i < r->book.count; i++)
    {
      const PscRecipeRecord *rec = &r->book.records[i];
      PscCoreError err;
      bool hit = false;
      PscStatus st;

      if (rec->type != PSC_RECIPE_RECORD_PIPELINE)
        continue;
      (*recorded)++;
      PSC_CORE_ERROR_INIT (err);
      st = psc_core_probe_recipe (core, &r->book, rec->hash, &hit, NULL, &err);
      if (st == PSC_STATUS_OK)
        *served += hit;
      else if (st == PSC_STATUS_INVALID_DATA)
        (*stale)++;
      else
        {
          psc_cache_fail (error, st, &err);
          ok = FALSE;
        }
    }
  for (guint i = 0; i < modules->len; i++)
    {
      PscCoreError err;
      PSC_CORE_ERROR_INIT (err);
      psc_core_release_shader (core, g_array_index (modules, VkShaderModule, i), &err);
    }
  return ok;
}

/* Strict mode -------------------------------------------------------------- */

void
psc_recipes_set_strict (PscRecipes *r,
                        gboolean    strict)
{
  r->strict = strict;
}

static gsize
common_prefix (const guint8 *a, gsize alen, const guint8 *b, gsize blen)
{
  gsize n = 0;
  while (n < alen && n < blen && a[n] == b[n])
    n++;
  return n;
}

void
psc_recipes_demand_miss (PscRecipes    *r,
                         PscKind        kind,
                         const uint8_t *key,
                         size_t         len)
{
  const char *what = kind == PSC_KIND_GRAPHICS ? "graphics" : "compute";
  const guint8 *best = NULL;
  gsize best_len = 0, best_prefix = 0;

  if (!r->strict || r->book.pipelines == 0)
    return;
  count (r, PSC_PERSIST_COUNTER_STRICT_MISSES, 1);
  for (guint i = 0; i < r->prewarmed->len; i++)
    {
      gsize n = 0;
      const guint8 *k = g_bytes_get_data (r->prewarmed->pdata[i], &n);
      gsize prefix;
      if (k[0] != (guint8) kind)
        continue;
      prefix = common_prefix (k + 1, n - 1, key, len);
      if (best == NULL || prefix > best_prefix)
        best = k + 1, best_len = n - 1, best_prefix = prefix;
    }
  if (best == NULL)
    g_warning ("psocache strict: a %s pipeline was compiled on demand that no warm-up recipe "
               "covered (key %016" G_GINT64_MODIFIER "x, %zu bytes); prewarm made no %s "
               "pipeline", what, XXH3_64bits (key, len), len, what);
  else
    g_warning ("psocache strict: a %s pipeline was compiled on demand that no warm-up recipe "
               "covered (key %016" G_GINT64_MODIFIER "x, %zu bytes); the nearest prewarmed one "
               "(key %016" G_GINT64_MODIFIER "x, %zu bytes) differs from byte %zu on",
               what, XXH3_64bits (key, len), len, XXH3_64bits (best, best_len), best_len,
               best_prefix);
}
