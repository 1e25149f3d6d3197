/* psc-uniform-set-cache.c: PscUniformSetCache, managed sets keyed by
 * (pipeline layout, set index, layout, resources), from pools of its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-descriptor-private.h"
#include "psc-live-cache.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* One pool of the cache and how many of its sets are alive (cached or
 * retiring); a pool with none is reset and used again. */
typedef struct {
  PscDescriptorPool *pool;
  guint live;
} Pool;

struct _PscUniformSetCache {
  GObject parent_instance;
  PscLiveCache live;            /* payloads are Payload */
  PscDevice *device;
  guint32 sets_per_pool;
  GPtrArray *pools;             /* Pool */
  GByteArray *key;              /* scratch */
};

typedef struct {
  Pool *pool;
  PscDescriptorSet *set;
} Payload;

/* The key's packed records: no padding left uninitialized (the scratch is
 * zeroed before each record is written). */
typedef struct {
  guint64 pipeline_layout;
  guint64 layout;               /* the PscDescriptorLayout's identity */
  guint32 set_index;
  guint32 n;
} KeyHead;

/* A slot binds one of a buffer, an image view or a buffer view (@kind
 * says which, @resource is its identity), and maybe a sampler. */
typedef struct {
  guint32 binding, array_element;
  guint32 image_layout, kind;
  guint64 offset, range;
  guint64 resource, sampler;    /* wrapper identities */
} KeyItem;

static void
payload_destroy (gpointer data)
{
  Payload *p = data;

  psc_descriptor_set_unref (p->set);
  if (--p->pool->live == 0)
    {
      g_autoptr(GError) error = NULL;

      /* Every set of the pool is gone and past the GPU: reuse it. */
      if (!psc_descriptor_pool_reset_unlocked (p->pool->pool, &error))
        g_warning ("uniform-set cache: a pool reset failed (%s); it stays full", error->message);
    }
  g_free (p);
}

static void
pool_free (gpointer data)
{
  Pool *p = data;

  psc_descriptor_pool_unref (p->pool);
  g_free (p);
}

G_DEFINE_FINAL_TYPE (PscUniformSetCache, psc_uniform_set_cache, G_TYPE_OBJECT)

static void
psc_uniform_set_cache_finalize (GObject *object)
{
  PscUniformSetCache *self = PSC_UNIFORM_SET_CACHE (object);

  psc_live_cache_clear (&self->live);
  g_ptr_array_unref (self->pools);
  g_byte_array_unref (self->key);
  g_object_unref (self->device);
  G_OBJECT_CLASS (psc_uniform_set_cache_parent_class)->finalize (object);
}

static void
psc_uniform_set_cache_class_init (PscUniformSetCacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = psc_uniform_set_cache_finalize;
}

static void
psc_uniform_set_cache_init (PscUniformSetCache *self)
{
  (void) self;
}

/**
 * psc_uniform_set_cache_new:
 * @device: a device
 * @sets_per_pool: how many sets each of the cache's pools holds (it adds
 *   pools as needed); its descriptor counts are 8 per set of each
 *   supported type
 * @error: return location for a #GError
 *
 * A cache of managed uniform sets. It is single-threaded: every call, the
 * invalidation of every resource its sets bind, and the last reference's
 * release happen on the thread that created it. That release frees every
 * set (cached and retiring) and the pools at once: the caller guarantees
 * the GPU no longer uses them. Frames are given with
 * psc_uniform_set_cache_begin_frame() (the same timeline values as
 * [method@Psc.Cache.begin_frame]).
 *
 * Returns: (transfer full): a new cache, or %NULL with @error set
 *
 * Since: 0.3
 */
PscUniformSetCache *
psc_uniform_set_cache_new (PscDevice  *device,
                           guint32     sets_per_pool,
                           GError    **error)
{
  PscUniformSetCache *self;

  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (sets_per_pool == 0 || sets_per_pool > 65536)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   _("sets_per_pool: %u is not between 1 and 65536"), sets_per_pool);
      return NULL;
    }
  self = g_object_new (PSC_TYPE_UNIFORM_SET_CACHE, NULL);
  psc_live_cache_init (&self->live, payload_destroy);
  self->device = g_object_ref (device);
  self->sets_per_pool = sets_per_pool;
  self->pools = g_ptr_array_new_with_free_func (pool_free);
  self->key = g_byte_array_new ();
  return self;
}

static guint64
identity (gconstpointer p)
{
  return (guint64) (uintptr_t) p;
}

static void
build_key (PscUniformSetCache *self, VkPipelineLayout pipeline_layout, guint32 set_index,
           PscDescriptorLayout *layout, guint n, const PscUniformResource *r)
{
  KeyHead *head;
  KeyItem *items;

  g_byte_array_set_size (self->key, sizeof (KeyHead) + n * sizeof (KeyItem));
  memset (self->key->data, 0, self->key->len);
  head = (KeyHead *) self->key->data;
  head->pipeline_layout = (guint64) (uintptr_t) pipeline_layout;
  head->layout = identity (layout);
  head->set_index = set_index;
  head->n = n;
  items = (KeyItem *) (self->key->data + sizeof (KeyHead));
  for (guint i = 0; i < n; i++)
    {
      /* A slot naming several of them is refused by the writer (it takes
       * the first in this order), so the key follows the same order. */
      guint32 kind = r[i].buffer != NULL ? 1 : r[i].image_view != NULL ? 2 : r[i].buffer_view != NULL ? 3 : 0;
      gconstpointer res = kind == 1 ? (gconstpointer) r[i].buffer
                        : kind == 2 ? (gconstpointer) r[i].image_view
                        : (gconstpointer) r[i].buffer_view;

      items[i] = (KeyItem) {
        .binding = r[i].binding, .array_element = r[i].array_element,
        .image_layout = (guint32) r[i].image_layout, .kind = kind,
        .offset = r[i].offset, .range = r[i].range,
        .resource = identity (res), .sampler = identity (r[i].sampler),
      };
    }
}

/* A pool with room, made if needed. */
static Pool *
pool_with_room (PscUniformSetCache *self, GError **error)
{
  const VkDescriptorType types[] = {
    VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
  };
  VkDescriptorPoolSize sizes[G_N_ELEMENTS (types)];
  VkDescriptorPoolCreateInfo info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
    .maxSets = self->sets_per_pool,
    .poolSizeCount = G_N_ELEMENTS (types),
    .pPoolSizes = sizes,
  };
  Pool *p;

  for (guint i = 0; i < self->pools->len; i++)
    {
      p = g_ptr_array_index (self->pools, i);
      if (p->pool->n_allocated < p->pool->max_sets)
        return p;
    }
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    sizes[i] = (VkDescriptorPoolSize) { types[i], 8 * self->sets_per_pool };
  p = g_new0 (Pool, 1);
  p->pool = psc_descriptor_pool_new (self->device, &info, error);
  if (p->pool == NULL)
    {
      g_free (p);
      return NULL;
    }
  g_ptr_array_add (self->pools, p);
  return p;
}

static void
stage_resource (PscDescriptorWriter *w, const PscUniformResource *r)
{
  if (r->buffer != NULL)
    psc_descriptor_writer_write_buffer (w, r->binding, r->array_element, r->buffer, r->offset, r->range);
  else if (r->image_view != NULL)
    psc_descriptor_writer_write_image (w, r->binding, r->array_element, r->image_view,
                                       r->image_layout, r->sampler);
  else if (r->sampler != NULL)
    psc_descriptor_writer_write_sampler (w, r->binding, r->array_element, r->sampler);
  else if (r->buffer_view != NULL)
    psc_descriptor_writer_write_texel_buffer (w, r->binding, r->array_element, r->buffer_view);
  else
    psc_descriptor_writer_clear (w, r->binding, r->array_element);
}

/* A new set written with @resources (the shared write plan checks them). */
static Payload *
create_set (PscUniformSetCache *self, PscDescriptorLayout *layout, guint n,
            const PscUniformResource *resources, GError **error)
{
  g_autoptr(PscDescriptorWriter) w = NULL;
  Pool *pool = pool_with_room (self, error);
  Payload *p;

  if (pool == NULL)
    return NULL;
  p = g_new0 (Payload, 1);
  p->pool = pool;
  p->set = psc_descriptor_pool_allocate_managed (pool->pool, layout, 0, error);
  if (p->set == NULL)
    {
      g_free (p);
      return NULL;
    }
  pool->live++;
  w = psc_descriptor_set_begin_write (p->set, error);
  for (guint i = 0; i < n; i++)
    stage_resource (w, &resources[i]);
  if (!psc_descriptor_writer_commit (w, error))
    {
      payload_destroy (p);
      return NULL;
    }
  return p;
}

/* Every wrapper the set binds (a buffer view's buffer too). */
static guint
collect_deps (guint n, const PscUniformResource *r, PscResource **deps)
{
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      if (r[i].buffer != NULL)
        deps[k++] = &r[i].buffer->base;
      if (r[i].image_view != NULL)
        deps[k++] = &r[i].image_view->base;
      if (r[i].sampler != NULL)
        deps[k++] = &r[i].sampler->base;
      if (r[i].buffer_view != NULL)
        {
          deps[k++] = &r[i].buffer_view->base;
          deps[k++] = &r[i].buffer_view->buffer->base;
        }
    }
  return k;
}

/**
 * psc_uniform_set_cache_lookup: (skip)
 * @self: a cache
 * @pipeline_layout: the pipeline layout the set is bound with (a key
 *   part: the same resources for another pipeline layout are another set)
 * @set_index: the set index it is bound at (a key part)
 * @layout: the set's layout
 * @n_resources: how many resources
 * @resources: (array length=n_resources): what each slot binds; together
 *   they must fill the set (the first commit's completeness rule)
 * @error: return location for a #GError
 *
 * The managed set binding @resources: the cached one when the same
 * pipeline layout, set index, layout and resources (the same wrappers,
 * offsets, ranges, image layouts, in the same order) were looked up
 * before and none of the resources was invalidated since; otherwise a new
 * set, written through the shared write plan (its errors are this call's:
 * an invalidated resource is %PSC_DESCRIPTOR_ERROR_INVALIDATED) and
 * cached. A hit allocates nothing.
 *
 * When a resource a cached set binds is invalidated, the set leaves the
 * cache at once; it is released (with its references) once the GPU
 * timeline passes the last frame it was looked up in, as
 * psc_uniform_set_cache_begin_frame() reports it.
 *
 * Returns: (transfer none): the set, valid for the frame it was looked up
 *   in (retired sets live until the timeline passes it), or %NULL with
 *   @error set
 *
 * Since: 0.3
 */
PscDescriptorSet *
psc_uniform_set_cache_lookup (PscUniformSetCache        *self,
                              VkPipelineLayout           pipeline_layout,
                              guint32                    set_index,
                              PscDescriptorLayout       *layout,
                              guint                      n_resources,
                              const PscUniformResource  *resources,
                              GError                   **error)
{
  Payload *p;
  g_autofree PscResource **deps = NULL;

  g_return_val_if_fail (PSC_IS_UNIFORM_SET_CACHE (self), NULL);
  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (n_resources == 0 || resources != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_thread_self () != self->live.owner)
    {
      g_set_error_literal (error, PSC_ERROR, PSC_ERROR_WRONG_THREAD,
                           _("the uniform-set cache is used on the thread that made it"));
      return NULL;
    }
  build_key (self, pipeline_layout, set_index, layout, n_resources, resources);
  p = psc_live_cache_lookup (&self->live, self->key->data, self->key->len);
  if (p != NULL)
    return p->set;

  p = create_set (self, layout, n_resources, resources, error);
  if (p == NULL)
    return NULL;
  deps = g_new (PscResource *, 2 * n_resources + 1);
  psc_live_cache_insert (&self->live, self->key->data, self->key->len, p, deps,
                         collect_deps (n_resources, resources, deps));
  return p->set;
}

/**
 * psc_uniform_set_cache_begin_frame:
 * @self: a cache
 * @frame: the frame that begins (lookups from now on are its uses)
 * @completed_timeline_value: the latest frame the GPU has completed
 *
 * Releases the retired sets whose last use the GPU has completed, and
 * starts a frame.
 *
 * Since: 0.3
 */
void
psc_uniform_set_cache_begin_frame (PscUniformSetCache *self,
                                   guint64             frame,
                                   guint64             completed_timeline_value)
{
  g_return_if_fail (PSC_IS_UNIFORM_SET_CACHE (self));
  psc_live_cache_begin_frame (&self->live, frame, completed_timeline_value);
}

/**
 * psc_uniform_set_cache_get_n_entries:
 * @self: a cache
 *
 * Counts the cached sets.
 *
 * Returns: how many sets the cache holds
 *
 * Since: 0.3
 */
guint
psc_uniform_set_cache_get_n_entries (PscUniformSetCache *self)
{
  g_return_val_if_fail (PSC_IS_UNIFORM_SET_CACHE (self), 0);
  return psc_live_cache_n_entries (&self->live);
}

/**
 * psc_uniform_set_cache_get_n_retiring:
 * @self: a cache
 *
 * Counts the sets removed by an invalidation that wait for the timeline.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint
psc_uniform_set_cache_get_n_retiring (PscUniformSetCache *self)
{
  g_return_val_if_fail (PSC_IS_UNIFORM_SET_CACHE (self), 0);
  return psc_live_cache_n_retiring (&self->live);
}

/**
 * psc_uniform_set_cache_get_hits:
 * @self: a cache
 *
 * Counts the lookups answered from the cache.
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint64
psc_uniform_set_cache_get_hits (PscUniformSetCache *self)
{
  g_return_val_if_fail (PSC_IS_UNIFORM_SET_CACHE (self), 0);
  return self->live.hits;
}

/**
 * psc_uniform_set_cache_get_misses:
 * @self: a cache
 *
 * Counts the lookups that made a set (or failed).
 *
 * Returns: how many
 *
 * Since: 0.3
 */
guint64
psc_uniform_set_cache_get_misses (PscUniformSetCache *self)
{
  g_return_val_if_fail (PSC_IS_UNIFORM_SET_CACHE (self), 0);
  return self->live.misses;
}
