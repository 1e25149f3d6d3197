/* psc-artifacts.c: the SPIR-V artifact store, in memory and in its record
 * log (see psc-artifacts.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-artifacts.h"

#include "psc-log-store.h"
#include "psc-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define PSC_ARTIFACTS_LOG "artifacts.psclog"

typedef enum {
  ART_NEW,        /* not in the log yet */
  ART_ON_DISK,    /* in the log, stamp as written */
  ART_TOUCHED,    /* in the log, used since: a USED record is due */
  ART_FORGOTTEN,  /* refused when used: no code, never served or merged back */
} ArtState;

typedef struct {
  guint8 key[PSC_ARTIFACT_KEY_SIZE];
  guint32 stage;
  guint32 source_len;
  guint64 stamp;
  GBytes *spirv;          /* NULL once forgotten */
  ArtState state;
} Artifact;

struct _PscArtifacts
{
  gboolean persistent;
  PscLogStore log;
  GHashTable *table;      /* key (in the Artifact) -> Artifact */
  guint live;             /* artifacts with code */
  guint64 live_bytes;     /* their psc_artifact_log_size */
  guint n_loaded;
  guint64 last_stamp;
  /* What the log holds as far as this process knows: its size and records
   * (loaded, then appended). */
  guint64 file_bytes;
  guint64 file_records;
  gboolean compact_due;   /* damage seen, or logged artifacts dropped */
  gboolean changed;       /* artifacts added or used since the last save */
  gboolean warned;        /* a failed save was warned about */
  guint max_records;
  guint64 max_bytes;
  gint64 last_save_us;
};

static guint
key_hash (gconstpointer k)
{
  return psc_le32 (k);
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, PSC_ARTIFACT_KEY_SIZE) == 0;
}

static void
artifact_free (gpointer data)
{
  Artifact *art = data;

  g_clear_pointer (&art->spirv, g_bytes_unref);
  g_free (art);
}

static guint64
artifact_bytes (const Artifact *art)
{
  return psc_artifact_log_size ((guint32) g_bytes_get_size (art->spirv));
}

/* A stamp after every stamp this store has seen: microseconds since the
 * epoch, strictly increasing within the process. */
static guint64
next_stamp (PscArtifacts *a)
{
  const gint64 now = g_get_real_time ();
  const guint64 t = now > 0 ? (guint64) now : 0;

  a->last_stamp = MAX (t, a->last_stamp + 1);
  return a->last_stamp;
}

static void
see_stamp (PscArtifacts *a,
           guint64       stamp)
{
  a->last_stamp = MAX (a->last_stamp, stamp);
}

/* Drops @art's code (trimmed, or refused). */
static void
drop_code (PscArtifacts *a,
           Artifact     *art)
{
  if (art->spirv == NULL)
    return;
  a->live--;
  a->live_bytes -= artifact_bytes (art);
  g_clear_pointer (&art->spirv, g_bytes_unref);
  if (art->state != ART_NEW)
    a->compact_due = TRUE;
}

/* Sets @key's code (a copy of @code, or @bytes when given), replacing what
 * was there; the entry is created if needed. A forgotten key stays
 * forgotten unless @revive. */
static Artifact *
put (PscArtifacts  *a,
     const guint8  *key,
     guint32        stage,
     guint32        source_len,
     guint64        stamp,
     GBytes        *bytes,
     ArtState       state,
     gboolean       revive)
{
  Artifact *art = g_hash_table_lookup (a->table, key);

  if (art == NULL)
    {
      art = g_new0 (Artifact, 1);
      memcpy (art->key, key, PSC_ARTIFACT_KEY_SIZE);
      g_hash_table_insert (a->table, art->key, art);
    }
  else if (art->state == ART_FORGOTTEN && !revive)
    return art;
  else if (art->spirv != NULL)
    {
      a->live--;
      a->live_bytes -= artifact_bytes (art);
      g_clear_pointer (&art->spirv, g_bytes_unref);
    }
  art->stage = stage;
  art->source_len = source_len;
  art->stamp = MAX (art->stamp, stamp);
  art->spirv = g_bytes_ref (bytes);
  art->state = state;
  a->live++;
  a->live_bytes += artifact_bytes (art);
  see_stamp (a, art->stamp);
  return art;
}

/* Reading the log --------------------------------------------------------- */

/* Reads the log's records into the table. @reject: NULL when merging
 * before a compaction (what is refused there was counted at load, or is
 * another process's append in progress). @loading: records are taken as
 * they come (a later copy of a key replaces an earlier one); otherwise
 * only keys this store does not hold are added, and stamps move forward. */
static void
read_log (PscArtifacts         *a,
          PscArtifactsRejectFn  reject,
          gpointer              ctx,
          gboolean              loading)
{
  g_autoptr(GBytes) contents = NULL;
  const goffset limit = (goffset) (2 * PSC_ARTIFACT_MAX_BYTES);
  PscFileReason why = psc_log_store_read (&a->log, limit, &contents);
  PscLogReader r;
  PscLogRecord rec;
  const guint8 *data;
  gsize len = 0;

#define REFUSE(reason) \
  G_STMT_START { if (reject != NULL) reject (ctx, (reason)); a->compact_due = TRUE; } G_STMT_END

  if (why != PSC_FILE_OK)
    {
      /* A link or special file is never written through, and a log that
       * could not be read may be fine: only an oversized one is replaced. */
      if (reject != NULL)
        reject (ctx, why);
      a->compact_due = a->compact_due || why == PSC_FILE_OVERSIZED;
      return;
    }
  if (contents == NULL)
    return;
  data = g_bytes_get_data (contents, &len);
  why = psc_log_reader_init (&r, data, len, PSC_LOG_KIND_ARTIFACTS, 0);
  if (why != PSC_FILE_OK)
    {
      REFUSE (why);
      return;
    }
  for (;;)
    {
      PscLogNext next = psc_log_reader_next (&r, &rec, &why);
      PscArtifactRecord art;
      guint8 key[PSC_ARTIFACT_KEY_SIZE];
      guint64 stamp = 0;

      if (next == PSC_LOG_NEXT_END)
        break;
      if (next == PSC_LOG_NEXT_TORN)
        {
          /* The next append cuts it; a concurrent append looks the same. */
          if (reject != NULL)
            reject (ctx, why);
          break;
        }
      if (next == PSC_LOG_NEXT_SKIPPED)
        {
          REFUSE (why);
          continue;
        }
      if (rec.type == PSC_ARTIFACT_RECORD_SPIRV)
        {
          Artifact *have;

          why = psc_artifact_record_parse (rec.payload, rec.len, &art);
          if (why != PSC_FILE_OK)
            {
              REFUSE (why);
              continue;
            }
          have = g_hash_table_lookup (a->table, art.key);
          if (!loading && have != NULL)
            {
              have->stamp = MAX (have->stamp, art.last_used);
              see_stamp (a, art.last_used);
              continue;
            }
          {
            g_autoptr(GBytes) code = g_bytes_new (art.spirv, art.spirv_size);
            put (a, art.key, art.stage, art.source_len, art.last_used, code, ART_ON_DISK, FALSE);
          }
        }
      else if (rec.type == PSC_ARTIFACT_RECORD_USED)
        {
          Artifact *have;

          why = psc_artifact_used_parse (rec.payload, rec.len, key, &stamp);
          if (why != PSC_FILE_OK)
            {
              REFUSE (why);
              continue;
            }
          have = g_hash_table_lookup (a->table, key);
          if (have != NULL)
            {
              have->stamp = MAX (have->stamp, stamp);
              see_stamp (a, stamp);
            }
        }
      else
        REFUSE (PSC_FILE_BAD_RECORD);
    }
  if (loading)
    {
      a->file_bytes = len;
      a->file_records = r.records + r.skipped;
    }
#undef REFUSE
}

PscArtifacts *
psc_artifacts_new (const char           *directory,
                   PscArtifactsRejectFn  reject,
                   gpointer              ctx)
{
  PscArtifacts *a = g_new0 (PscArtifacts, 1);

  a->table = g_hash_table_new_full (key_hash, key_equal, NULL, artifact_free);
  a->max_records = PSC_ARTIFACT_MAX_RECORDS;
  a->max_bytes = PSC_ARTIFACT_MAX_BYTES;
  a->last_save_us = g_get_monotonic_time ();
  if (directory != NULL)
    {
      a->persistent = TRUE;
      psc_log_store_init (&a->log, directory, PSC_ARTIFACTS_LOG, PSC_LOG_KIND_ARTIFACTS);
      read_log (a, reject, ctx, TRUE);
      a->n_loaded = a->live;
    }
  return a;
}

void
psc_artifacts_free (PscArtifacts *a)
{
  if (a == NULL)
    return;
  g_hash_table_unref (a->table);
  if (a->persistent)
    psc_log_store_clear (&a->log);
  g_free (a);
}

guint
psc_artifacts_n_loaded (const PscArtifacts *a)
{
  return a->n_loaded;
}

guint
psc_artifacts_count (const PscArtifacts *a)
{
  return a->live;
}

/* Trimming ---------------------------------------------------------------- */

static gint
by_stamp_newest_first (gconstpointer pa,
                       gconstpointer pb)
{
  const Artifact *a = *(Artifact *const *) pa, *b = *(Artifact *const *) pb;

  if (a->stamp != b->stamp)
    return a->stamp > b->stamp ? -1 : 1;
  return memcmp (a->key, b->key, PSC_ARTIFACT_KEY_SIZE);
}

/* The artifacts with code, most recently used first. */
static GPtrArray *
live_by_stamp (PscArtifacts *a)
{
  GPtrArray *all = g_ptr_array_sized_new (a->live);
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, a->table);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (((Artifact *) value)->spirv != NULL)
      g_ptr_array_add (all, value);
  g_ptr_array_sort (all, by_stamp_newest_first);
  return all;
}

static gboolean
over_bounds (const PscArtifacts *a)
{
  return a->live > a->max_records || a->live_bytes > a->max_bytes;
}

/* Keeps the most recently used artifacts up to three quarters of each
 * bound; the others lose their code (and their entry, unless forgotten:
 * a forgotten key stays so that no merge brings its code back). */
static void
trim (PscArtifacts *a)
{
  g_autoptr(GPtrArray) all = live_by_stamp (a);
  const guint keep_records = a->max_records - a->max_records / 4;
  const guint64 keep_bytes = a->max_bytes - a->max_bytes / 4;
  guint64 bytes = 0;
  guint i = 0;

  for (; i < all->len; i++)
    {
      const guint64 size = artifact_bytes (g_ptr_array_index (all, i));
      if (i >= keep_records || bytes + size > keep_bytes)
        break;
      bytes += size;
    }
  for (; i < all->len; i++)
    {
      Artifact *art = g_ptr_array_index (all, i);
      drop_code (a, art);
      g_hash_table_remove (a->table, art->key);
    }
}

/* In memory, trimming waits until a bound is exceeded by an eighth. */
static void
trim_if_far_over (PscArtifacts *a)
{
  if (a->live > a->max_records + a->max_records / 8 ||
      a->live_bytes > a->max_bytes + a->max_bytes / 8)
    trim (a);
}

/* Lookups ----------------------------------------------------------------- */

GBytes *
psc_artifacts_lookup (PscArtifacts *a,
                      const guint8  key[PSC_ARTIFACT_KEY_SIZE],
                      guint32      *stage)
{
  Artifact *art = g_hash_table_lookup (a->table, key);

  if (art == NULL || art->spirv == NULL)
    return NULL;
  *stage = art->stage;
  return art->spirv;
}

void
psc_artifacts_used (PscArtifacts *a,
                    const guint8  key[PSC_ARTIFACT_KEY_SIZE])
{
  Artifact *art = g_hash_table_lookup (a->table, key);

  if (art == NULL || art->spirv == NULL)
    return;
  art->stamp = next_stamp (a);
  if (art->state == ART_ON_DISK)
    art->state = ART_TOUCHED;
  a->changed = TRUE;
}

void
psc_artifacts_forget (PscArtifacts *a,
                      const guint8  key[PSC_ARTIFACT_KEY_SIZE])
{
  Artifact *art = g_hash_table_lookup (a->table, key);

  if (art == NULL)
    return;
  drop_code (a, art);
  art->state = ART_FORGOTTEN;
}

gboolean
psc_artifacts_add (PscArtifacts  *a,
                   const guint8   key[PSC_ARTIFACT_KEY_SIZE],
                   guint32        stage,
                   gsize          source_len,
                   GBytes        *spirv,
                   PscFileReason *why)
{
  gsize size = 0;
  const void *code = g_bytes_get_data (spirv, &size);
  PscFileReason reason = psc_artifact_spirv_check (code, size, stage);
  Artifact *art;

  if (why != NULL)
    *why = reason;
  if (reason != PSC_FILE_OK)
    return FALSE;
  art = g_hash_table_lookup (a->table, key);
  if (art != NULL && art->state != ART_NEW && art->state != ART_FORGOTTEN)
    a->compact_due = TRUE;    /* the log's copy is superseded */
  put (a, key, stage, (guint32) MIN (source_len, G_MAXUINT32), next_stamp (a), spirv, ART_NEW,
       TRUE);
  a->changed = TRUE;
  trim_if_far_over (a);
  return TRUE;
}

/* Saving ------------------------------------------------------------------ */

gboolean
psc_artifacts_dirty (const PscArtifacts *a)
{
  return a->persistent && (a->changed || a->compact_due || over_bounds (a));
}

static gsize
write_spirv_record (guint8         *out,
                    const Artifact *art)
{
  gsize size = 0;
  const guint8 *code = g_bytes_get_data (art->spirv, &size);
  PscArtifactRecord rec = {
    .stage = art->stage,
    .source_len = art->source_len,
    .last_used = art->stamp,
    .spirv = code,
    .spirv_size = (guint32) size,
  };
  g_autofree guint8 *payload = g_malloc (psc_artifact_record_size (rec.spirv_size));
  gsize len;

  memcpy (rec.key, art->key, PSC_ARTIFACT_KEY_SIZE);
  len = psc_artifact_record_write (payload, &rec);
  g_assert (len > 0);     /* every stored artifact passed the same check */
  return psc_log_write_record (out, PSC_ARTIFACT_RECORD_SPIRV, payload, len);
}

/* The new artifacts and due stamps, as log records (*n of them). */
static GByteArray *
pending_records (PscArtifacts *a,
                 guint64      *n)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GPtrArray) all = live_by_stamp (a);

  *n = 0;
  /* Oldest first: the log stays in the order things happened. */
  for (guint i = all->len; i-- > 0;)
    {
      const Artifact *art = g_ptr_array_index (all, i);
      const guint at = out->len;

      if (art->state == ART_NEW)
        {
          g_byte_array_set_size (out, at + (guint) artifact_bytes (art));
          write_spirv_record (out->data + at, art);
          ++*n;
        }
      else if (art->state == ART_TOUCHED)
        {
          guint8 payload[PSC_ARTIFACT_USED_SIZE];

          psc_artifact_used_write (payload, art->key, art->stamp);
          g_byte_array_set_size (out, at + (guint) psc_log_record_size (sizeof payload));
          psc_log_write_record (out->data + at, PSC_ARTIFACT_RECORD_USED, payload, sizeof payload);
          ++*n;
        }
    }
  return out;
}

/* Every artifact with code, as log records, oldest first. */
static GByteArray *
all_records (PscArtifacts *a,
             guint64      *n)
{
  GByteArray *out = g_byte_array_sized_new ((guint) MIN (a->live_bytes, G_MAXUINT));
  g_autoptr(GPtrArray) all = live_by_stamp (a);

  *n = all->len;
  for (guint i = all->len; i-- > 0;)
    {
      const Artifact *art = g_ptr_array_index (all, i);
      const guint at = out->len;

      g_byte_array_set_size (out, at + (guint) artifact_bytes (art));
      write_spirv_record (out->data + at, art);
    }
  return out;
}

static void
mark_written (PscArtifacts *a)
{
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, a->table);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      Artifact *art = value;
      if (art->spirv != NULL && (art->state == ART_NEW || art->state == ART_TOUCHED))
        art->state = ART_ON_DISK;
    }
  a->changed = FALSE;
}

static gboolean
compact (PscArtifacts  *a,
         GError       **error)
{
  g_autoptr(GByteArray) records = NULL;
  guint64 n = 0;

  /* What other processes appended since the load is kept too, if recent
   * enough. */
  read_log (a, NULL, NULL, FALSE);
  trim (a);
  records = all_records (a, &n);
  if (!psc_log_store_replace (&a->log, records->data, records->len, error))
    return FALSE;
  mark_written (a);
  a->file_bytes = PSC_LOG_HEADER_SIZE + (guint64) records->len;
  a->file_records = n;
  a->compact_due = FALSE;
  return TRUE;
}

/* Sets @error (PSC_ERROR_IO) from the log's failure, warning once. */
static gboolean
save_failed (PscArtifacts  *a,
             GError        *local,
             GError       **error)
{
  if (!a->warned)
    {
      a->warned = TRUE;
      g_warning (_("psocache: saving %s failed: %s"), a->log.path, local->message);
    }
  g_set_error (error, PSC_ERROR, PSC_ERROR_IO, _("saving %s failed: %s"), a->log.path,
               local->message);
  g_error_free (local);
  return FALSE;
}

gboolean
psc_artifacts_save (PscArtifacts  *a,
                    gboolean      *wrote,
                    GError       **error)
{
  g_autoptr(GByteArray) pending = NULL;
  GError *local = NULL;
  guint64 n = 0;
  gboolean repaired = FALSE;

  *wrote = FALSE;
  a->last_save_us = g_get_monotonic_time ();
  if (!psc_artifacts_dirty (a))
    return TRUE;
  pending = pending_records (a, &n);
  if (a->compact_due || over_bounds (a) ||
      a->file_bytes + pending->len > a->max_bytes ||
      a->file_records + n > 2 * (guint64) a->max_records)
    {
      if (!compact (a, &local))
        return save_failed (a, local, error);
      *wrote = TRUE;
      return TRUE;
    }
  if (n == 0)
    {
      /* What changed was trimmed before it was written. */
      a->changed = FALSE;
      return TRUE;
    }
  if (!psc_log_store_append (&a->log, pending->data, pending->len, &repaired, &local))
    return save_failed (a, local, error);
  mark_written (a);
  /* A repaired log lost its torn tail (or restarted from a new header):
   * the size below is an upper bound, and the next load learns it. */
  a->file_bytes = MAX (a->file_bytes, PSC_LOG_HEADER_SIZE) + pending->len;
  a->file_records += n;
  *wrote = TRUE;
  return TRUE;
}

gint64
psc_artifacts_last_save (const PscArtifacts *a)
{
  return a->last_save_us;
}

void
psc_artifacts_set_bounds (PscArtifacts *a,
                          guint         max_records,
                          guint64       max_bytes)
{
  if (max_records > 0)
    a->max_records = max_records;
  if (max_bytes > 0)
    a->max_bytes = max_bytes;
}

void
psc_artifacts_set_write_failure (PscArtifacts *a,
                                 int           io_error)
{
  if (a->persistent)
    a->log.inject_error = io_error;
}
