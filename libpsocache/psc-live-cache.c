/* psc-live-cache.c: the live-resource caches' shared table, dependency
 * invalidation and timeline retirement (see psc-live-cache.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-live-cache.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include <string.h>

struct _PscLiveEntry {
  PscLiveCache *cache;
  guint8 *key;
  gsize len;
  guint hash;
  gpointer payload;
  guint64 last_used;            /* the frame of its last lookup or insertion */
  PscResource **deps;           /* references */
  guint n_deps;
};

/* A lookup's probe has the same head as an entry. */
typedef struct {
  PscLiveCache *cache;
  const guint8 *key;
  gsize len;
  guint hash;
} Probe;

static guint
entry_hash (gconstpointer p)
{
  return ((const Probe *) p)->hash;
}

static gboolean
entry_equal (gconstpointer a, gconstpointer b)
{
  const Probe *x = a, *y = b;
  return x->len == y->len && memcmp (x->key, y->key, x->len) == 0;
}

static guint
hash_bytes (const void *key, gsize len)
{
  guint64 h = XXH3_64bits (key, len);
  return (guint) (h ^ (h >> 32));
}

static void on_invalidated (gpointer data, gconstpointer resource);

/* Drops the entry's dependencies (and their listeners). */
static void
entry_release_deps (PscLiveEntry *e)
{
  for (guint i = 0; i < e->n_deps; i++)
    {
      psc_resource_remove_listener (e->deps[i], on_invalidated, e);
      psc_resource_unref (e->deps[i]);
    }
  g_clear_pointer (&e->deps, g_free);
  e->n_deps = 0;
}

static void
entry_free (PscLiveEntry *e)
{
  entry_release_deps (e);
  if (e->payload != NULL)
    e->cache->destroy (e->payload);
  g_free (e->key);
  g_free (e);
}

/* Out of the table, onto the retire list (destroyed once the GPU timeline
 * passes its last use). */
static void
entry_retire (PscLiveEntry *e)
{
  PscLiveCache *c = e->cache;

  g_hash_table_remove (c->table, e);
  entry_release_deps (e);
  g_array_append_val (c->retired, e);
}

static void
on_invalidated (gpointer data, gconstpointer resource)
{
  PscLiveEntry *e = data;

  if (g_thread_self () != e->cache->owner)
    {
      g_critical ("a resource a live cache depends on was invalidated on another thread than "
                  "the cache's; the entry stays (invalidate on the cache's thread)");
      return;
    }
  entry_retire (e);
}

void
psc_live_cache_init (PscLiveCache *c, GDestroyNotify destroy_payload)
{
  memset (c, 0, sizeof *c);
  c->owner = g_thread_self ();
  c->destroy = destroy_payload;
  c->table = g_hash_table_new (entry_hash, entry_equal);
  c->retired = g_array_new (FALSE, FALSE, sizeof (PscLiveEntry *));
}

void
psc_live_cache_clear (PscLiveCache *c)
{
  GHashTableIter it;
  gpointer key;

  if (c->table == NULL)
    return;
  g_hash_table_iter_init (&it, c->table);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      g_hash_table_iter_steal (&it);
      entry_free (key);
    }
  for (guint i = 0; i < c->retired->len; i++)
    entry_free (g_array_index (c->retired, PscLiveEntry *, i));
  g_clear_pointer (&c->table, g_hash_table_unref);
  g_clear_pointer (&c->retired, g_array_unref);
}

gpointer
psc_live_cache_lookup (PscLiveCache *c, const void *key, gsize len)
{
  Probe probe = { c, key, len, hash_bytes (key, len) };
  PscLiveEntry *e = g_hash_table_lookup (c->table, &probe);

  if (e == NULL)
    {
      c->misses++;
      return NULL;
    }
  c->hits++;
  e->last_used = c->frame;
  return e->payload;
}

void
psc_live_cache_insert (PscLiveCache *c, const void *key, gsize len, gpointer payload,
                       PscResource *const *deps, guint n_deps)
{
  PscLiveEntry *e = g_new0 (PscLiveEntry, 1);

  e->cache = c;
  e->key = g_memdup2 (key, len);
  e->len = len;
  e->hash = hash_bytes (key, len);
  e->payload = payload;
  e->last_used = c->frame;
  e->deps = g_new (PscResource *, MAX (n_deps, 1));
  g_hash_table_add (c->table, e);
  for (guint i = 0; i < n_deps; i++)
    {
      e->deps[e->n_deps++] = psc_resource_ref (deps[i]);
      /* Already invalidated: the listener retires it at once (and the
       * dependencies go with it). */
      if (!psc_resource_add_listener (deps[i], on_invalidated, e))
        return;
    }
}

void
psc_live_cache_begin_frame (PscLiveCache *c, guint64 frame, guint64 completed)
{
  guint kept = 0;

  c->frame = MAX (c->frame, frame);
  c->completed = MAX (c->completed, completed);
  for (guint i = 0; i < c->retired->len; i++)
    {
      PscLiveEntry *e = g_array_index (c->retired, PscLiveEntry *, i);

      if (e->last_used <= c->completed)
        entry_free (e);
      else
        g_array_index (c->retired, PscLiveEntry *, kept++) = e;
    }
  g_array_set_size (c->retired, kept);
}

guint
psc_live_cache_n_entries (PscLiveCache *c)
{
  return g_hash_table_size (c->table);
}

guint
psc_live_cache_n_retiring (PscLiveCache *c)
{
  return c->retired->len;
}
