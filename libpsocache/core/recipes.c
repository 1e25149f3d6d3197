/* recipes.c: warm-up recipes, the core's part (see recipes.h): export
 * through a recording resolver, resolution through an import resolver.
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "recipes.h"

#include "formats/record-log.h"
#include "graphics-key.h"
#include "resolver.h"
#include "shaders.h"
#include "stats.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------
 * Kinds and keys.
 */
static PscKind
core_kind (uint8_t kind)
{
  switch (kind)
    {
    case PSC_RECIPE_SHADER: return PSC_KIND_SHADER;
    case PSC_RECIPE_SAMPLER: return PSC_KIND_SAMPLER;
    case PSC_RECIPE_SET_LAYOUT: return PSC_KIND_SET_LAYOUT;
    case PSC_RECIPE_PIPELINE_LAYOUT: return PSC_KIND_PIPELINE_LAYOUT;
    case PSC_RECIPE_RENDER_PASS: return PSC_KIND_RENDER_PASS;
    case PSC_RECIPE_GRAPHICS: return PSC_KIND_GRAPHICS;
    case PSC_RECIPE_COMPUTE: return PSC_KIND_COMPUTE;
    default: return PSC_KIND_COUNT;   /* sampler lists have a store of their own */
    }
}

/* Build storage for a kind with a decoder (0: none). */
static size_t
build_size (uint8_t kind)
{
  switch (kind)
    {
    case PSC_RECIPE_SAMPLER: return psc_sampler_build_size ();
    case PSC_RECIPE_SET_LAYOUT: return psc_set_layout_build_size ();
    case PSC_RECIPE_PIPELINE_LAYOUT: return psc_pipeline_layout_build_size ();
    case PSC_RECIPE_RENDER_PASS: return psc_render_pass_build_size ();
    case PSC_RECIPE_GRAPHICS: return psc_graphics_build_size ();
    case PSC_RECIPE_COMPUTE: return psc_compute_build_size ();
    default: return 0;
    }
}

/* The create info a key decodes to with resolver r, or NULL. */
static const void *
decode_key (uint8_t kind, const uint8_t *key, size_t len, const PscResolver *r, void *b)
{
  switch (kind)
    {
    case PSC_RECIPE_SAMPLER: return psc_decode_sampler (key, len, b);
    case PSC_RECIPE_SET_LAYOUT: return psc_decode_set_layout (key, len, r, b);
    case PSC_RECIPE_PIPELINE_LAYOUT: return psc_decode_pipeline_layout (key, len, r, b);
    case PSC_RECIPE_RENDER_PASS: return psc_decode_render_pass (key, len, b);
    case PSC_RECIPE_GRAPHICS: return psc_decode_graphics (key, len, r, b);
    case PSC_RECIPE_COMPUTE: return psc_decode_compute (key, len, r, b);
    default: return NULL;
    }
}

static bool
grow (uint8_t **buf, size_t *cap, size_t need)
{
  if (need <= *cap)
    return true;
  size_t cap2 = *cap ? *cap : 4096;
  while (cap2 < need)
    cap2 *= 2;
  uint8_t *p = realloc (*buf, cap2);
  if (p == NULL)
    return false;
  *buf = p;
  *cap = cap2;
  return true;
}

static PscStatus
out_of_memory (PscCoreError *err)
{
  return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
}

/* ---------------------------------------------------------------------------
 * The sink.
 */
void
psc_recipe_sink_init (PscRecipeSink *sink)
{
  *sink = (PscRecipeSink) { 0 };
}

void
psc_recipe_sink_clear (PscRecipeSink *sink)
{
  free (sink->data);
  free (sink->scratch);
  psc_recipe_map_clear (&sink->emitted);
  psc_recipe_sink_init (sink);
}

void
psc_recipe_sink_reset_bytes (PscRecipeSink *sink)
{
  sink->len = 0;
}

/* The payload in sink->scratch, appended as a log record. */
static PscStatus
append_record (PscRecipeSink *sink, uint16_t type, size_t size, uint64_t hash, PscCoreError *err)
{
  const size_t need = psc_log_record_size (size);
  if (!grow (&sink->data, &sink->cap, sink->len + need)
      || (type == PSC_RECIPE_RECORD_OBJECT && !psc_recipe_map_put (&sink->emitted, hash, 1)))
    return out_of_memory (err);
  sink->len += psc_log_write_record (sink->data + sink->len, type, sink->scratch, size);
  if (type == PSC_RECIPE_RECORD_OBJECT)
    sink->objects++;
  else
    sink->pipelines++;
  return PSC_STATUS_OK;
}

/* Builds a record; appends it unless it is an object the sink emitted. */
static PscStatus
emit (PscRecipeSink *sink, uint16_t type, uint8_t kind, uint64_t last_used,
      const PscRecipeRef *refs, uint32_t n, const uint8_t *key, size_t len, uint64_t *hash,
      PscCoreError *err)
{
  const size_t size = psc_recipe_record_size (type, n, len);
  if (!grow (&sink->scratch, &sink->scratch_cap, size))
    return out_of_memory (err);
  if (!psc_recipe_record_write (sink->scratch, type, kind, last_used, refs, n, key, len, hash))
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: a %s record was refused",
                          psc_recipe_kind_name (kind));
  uint64_t seen;
  if (type == PSC_RECIPE_RECORD_OBJECT && psc_recipe_map_get (&sink->emitted, *hash, &seen))
    return PSC_STATUS_OK;
  return append_record (sink, type, size, *hash, err);
}

/* ---------------------------------------------------------------------------
 * Export: the recording resolver. Decoders only call the reverse
 * direction; each call is forwarded to the core's resolver (so the decode
 * really succeeds) and its (kind, id) noted once. The sampler ids a
 * sampler list hands out belong to the list, which is a record of its
 * own.
 */
typedef struct {
  PscResolver r;
  const PscResolver *real;
  PscRecipeRef refs[PSC_RECIPE_MAX_REFS];
  uint32_t count;
  uint32_t list_left;      /* sampler_handle calls still the list's */
  bool overflow;
} Recorder;

/* A Released shader has no module, but its identity and content stay:
 * the decode (whose create info is dropped) gets a stand-in. */
#define STAND_IN_MODULE ((VkShaderModule) (uintptr_t) 1)

static void
note (Recorder *rc, uint8_t kind, uint32_t id)
{
  for (uint32_t i = 0; i < rc->count; i++)
    if (rc->refs[i].kind == kind && rc->refs[i].id == id)
      return;
  if (rc->count == PSC_RECIPE_MAX_REFS)
    {
      rc->overflow = true;
      return;
    }
  rc->refs[rc->count++] = (PscRecipeRef) { kind, id, 0 };
}

static VkShaderModule
rec_shader_handle (void *ctx, uint32_t id)
{
  Recorder *rc = ctx;
  note (rc, PSC_RECIPE_SHADER, id);
  VkShaderModule m = rc->real->shader_handle (rc->real->ctx, id);
  return m != VK_NULL_HANDLE ? m : STAND_IN_MODULE;
}

static VkSampler
rec_sampler_handle (void *ctx, uint32_t id)
{
  Recorder *rc = ctx;
  if (rc->list_left > 0)
    rc->list_left--;
  else
    note (rc, PSC_RECIPE_SAMPLER, id);
  return rc->real->sampler_handle (rc->real->ctx, id);
}

static uint32_t
rec_sampler_list_ids (void *ctx, uint32_t list_id, uint32_t *ids)
{
  Recorder *rc = ctx;
  note (rc, PSC_RECIPE_SAMPLER_LIST, list_id);
  rc->list_left = rc->real->sampler_list_ids (rc->real->ctx, list_id, ids);
  return rc->list_left;
}

static VkDescriptorSetLayout
rec_set_layout_handle (void *ctx, uint32_t id)
{
  Recorder *rc = ctx;
  note (rc, PSC_RECIPE_SET_LAYOUT, id);
  return rc->real->set_layout_handle (rc->real->ctx, id);
}

static VkPipelineLayout
rec_pipeline_layout_handle (void *ctx, uint32_t id)
{
  Recorder *rc = ctx;
  note (rc, PSC_RECIPE_PIPELINE_LAYOUT, id);
  return rc->real->pipeline_layout_handle (rc->real->ctx, id);
}

static VkRenderPass
rec_render_pass_handle (void *ctx, uint32_t id)
{
  Recorder *rc = ctx;
  note (rc, PSC_RECIPE_RENDER_PASS, id);
  return rc->real->render_pass_handle (rc->real->ctx, id);
}

static void
recorder_init (Recorder *rc, const PscResolver *real)
{
  rc->real = real;
  rc->count = 0;
  rc->list_left = 0;
  rc->overflow = false;
  rc->r = (PscResolver) {
    .ctx = rc,
    .shader_handle = rec_shader_handle,
    .sampler_handle = rec_sampler_handle,
    .sampler_list_ids = rec_sampler_list_ids,
    .set_layout_handle = rec_set_layout_handle,
    .pipeline_layout_handle = rec_pipeline_layout_handle,
    .render_pass_handle = rec_render_pass_handle,
  };
}

/* The ids a key uses, in the order the decoder meets them. */
static PscStatus
key_refs (PscCore *core, uint8_t kind, const uint8_t *key, size_t len, Recorder *rc,
          PscCoreError *err)
{
  recorder_init (rc, &core->resolver);
  if (kind == PSC_RECIPE_SAMPLER_LIST)
    for (size_t i = 0; i + sizeof (uint32_t) <= len; i += sizeof (uint32_t))
      {
        uint32_t id;
        memcpy (&id, key + i, sizeof id);
        note (rc, PSC_RECIPE_SAMPLER, id);
      }
  else if (kind != PSC_RECIPE_SHADER && build_size (kind) > 0)
    {
      void *b = psc_build_alloc (build_size (kind));
      if (b == NULL)
        return out_of_memory (err);
      const bool decoded = decode_key (kind, key, len, &rc->r, b) != NULL;
      free (b);
      if (!decoded)
        return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: a %s key does not decode",
                              psc_recipe_kind_name (kind));
    }
  if (rc->overflow)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "", "a %s key names more than %u objects",
                          psc_recipe_kind_name (kind), PSC_RECIPE_MAX_REFS);
  return PSC_STATUS_OK;
}

/* The live entry of an object id (shaders: Ready or Released). */
static const PscEntry *
object_entry (const PscCore *core, uint8_t kind, uint32_t id)
{
  if (kind == PSC_RECIPE_SHADER)
    return psc_shader_for_id (core, id);
  const PscStore *s = kind == PSC_RECIPE_SAMPLER_LIST ? core->sampler_lists
                                                      : core->stores[core_kind (kind)];
  uint32_t i;
  if (!psc_store_index_of_id (s, id, &i) || psc_store_entry (s, i)->state != PSC_ENTRY_READY)
    return NULL;
  return psc_store_entry (s, i);
}

static PscStatus export_object (PscCore *core, PscRecipeSink *sink, uint8_t kind, uint32_t id,
                                uint64_t *hash, PscCoreError *err);

/* A record for a key: its children first, then itself. */
static PscStatus
export_key (PscCore *core, PscRecipeSink *sink, uint16_t type, uint8_t kind, uint64_t last_used,
            const uint8_t *key, size_t len, uint64_t *hash, PscCoreError *err)
{
  if (len > psc_recipe_max_key (kind))
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "", "a %s key of %zu bytes > %u",
                          psc_recipe_kind_name (kind), len, psc_recipe_max_key (kind));
  Recorder rc;
  PscStatus st = key_refs (core, kind, key, len, &rc, err);
  for (uint32_t i = 0; st == PSC_STATUS_OK && i < rc.count; i++)
    st = export_object (core, sink, rc.refs[i].kind, rc.refs[i].id, &rc.refs[i].hash, err);
  if (st != PSC_STATUS_OK)
    return st;
  return emit (sink, type, kind, last_used, rc.refs, rc.count, key, len, hash, err);
}

static PscStatus
export_object (PscCore *core, PscRecipeSink *sink, uint8_t kind, uint32_t id, uint64_t *hash,
               PscCoreError *err)
{
  const PscEntry *e = object_entry (core, kind, id);
  if (e == NULL || e->key == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: %s %u is not live",
                          psc_recipe_kind_name (kind), id);
  return export_key (core, sink, PSC_RECIPE_RECORD_OBJECT, kind, 0, e->key, e->key_len, hash, err);
}

static PscStatus
export_entry (PscCore *core, const PscEntry *e, uint64_t last_used, PscRecipeSink *sink,
              PscCoreError *err)
{
  if (e->key == NULL)
    return psc_core_fail (err, PSC_STATUS_FAILED, "pipeline", "its key was lost (out of memory)");
  if (!psc_shaders_current (core, e))
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pipeline",
                          "a shader it uses was reloaded since it was made");
  const uint8_t kind = e->kind == PSC_KIND_GRAPHICS ? PSC_RECIPE_GRAPHICS : PSC_RECIPE_COMPUTE;
  uint64_t hash;
  return export_key (core, sink, PSC_RECIPE_RECORD_PIPELINE, kind, last_used, e->key, e->key_len,
                     &hash, err);
}

PscStatus
psc_core_export_recipe (PscCore *core, VkPipeline pipeline, uint64_t last_used,
                        PscRecipeSink *sink, PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  const PscEntry *e = psc_core_entry_for_handle (core, PSC_KIND_GRAPHICS, (uint64_t) pipeline);
  if (e == NULL)
    e = psc_core_entry_for_handle (core, PSC_KIND_COMPUTE, (uint64_t) pipeline);
  if (e == NULL || pipeline == VK_NULL_HANDLE)
    return psc_core_reject (core, psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, "pipeline",
                                                 "is not a Ready pipeline of this cache"));
  return export_entry (core, e, last_used, sink, err);
}

PscStatus
psc_core_export_all_recipes (PscCore *core, uint64_t last_used, PscRecipeSink *sink,
                             PscCoreError *err)
{
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  const PscKind kinds[] = { PSC_KIND_GRAPHICS, PSC_KIND_COMPUTE };
  PscStatus result = PSC_STATUS_OK;
  for (unsigned k = 0; k < 2; k++)
    {
      const PscStore *s = core->stores[kinds[k]];
      for (uint32_t i = 0; i < psc_store_live_count (s); i++)
        {
          const PscEntry *e = psc_store_entry (s, psc_store_live_at (s, i));
          if (e->state != PSC_ENTRY_READY)
            continue;
          PscCoreError sub = { 0 };
          const PscStatus st = export_entry (core, e, last_used, sink, &sub);
          sink->skipped += st != PSC_STATUS_OK;
          if (st == PSC_STATUS_FAILED && result == PSC_STATUS_OK)
            {
              result = st;
              if (err != NULL)
                *err = sub;
            }
        }
    }
  return result;
}

/* ---------------------------------------------------------------------------
 * Resolution.
 */
typedef struct {
  PscCore *core;
  const PscRecipeBook *book;
  PscRecipeMap made;          /* content hash -> handle in this core (sampler lists: 1) */
  PscRecipeResolved *out;
  PscCoreError *err;
} Resolution;

const char *
psc_recipe_stale_name (PscRecipeStale stale)
{
  static const char *const names[] = {
    "fresh", "shader-not-registered", "missing-record", "undecodable", "rejected",
  };
  return (unsigned) stale < PSC_RECIPE_STALE_COUNT ? names[stale] : "unknown";
}

/* The recipe is stale: the reason, and "<kind> 0x<hash>: <detail>". */
static PscStatus __attribute__((format (printf, 5, 6)))
stale (Resolution *res, PscRecipeStale why, uint8_t kind, uint64_t hash, const char *fmt, ...)
{
  char path[64], detail[200];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (detail, sizeof detail, fmt, ap);
  va_end (ap);
  snprintf (path, sizeof path, "%s 0x%016llx", kind ? psc_recipe_kind_name (kind) : "recipe",
            (unsigned long long) hash);
  res->out->stale = why;
  return psc_core_fail (res->err, PSC_STATUS_INVALID_DATA, path, "%s", detail);
}

/* What a core call that made an object from a record said: errors of the
 * call stay errors; a refusal of the content makes the recipe stale. */
static PscStatus
made_status (Resolution *res, PscStatus st, const PscCoreError *sub, const PscRecipeRecord *rec)
{
  switch (st)
    {
    case PSC_STATUS_OK:
      return st;
    case PSC_STATUS_FAILED: case PSC_STATUS_VULKAN: case PSC_STATUS_WRONG_THREAD:
    case PSC_STATUS_CLOSED:
      if (res->err != NULL)
        *res->err = *sub;
      return st;
    default:
      return stale (res, PSC_RECIPE_STALE_REJECTED, rec->kind, rec->hash, "%s", sub->message);
    }
}

/* The import resolver: a record's ids -> its refs -> content hash -> the
 * handle made for that hash. The ids of a sampler list are the list
 * record's: sampler_handle looks there first. */
typedef struct {
  PscResolver r;
  Resolution *res;
  const PscRecipeRecord *rec;
  const PscRecipeRecord *list;
} Importer;

static uint64_t
made_for (const Importer *im, const PscRecipeRecord *rec, uint8_t kind, uint32_t id)
{
  uint64_t hash, handle;
  if (rec == NULL || !psc_recipe_record_find_ref (rec, kind, id, &hash)
      || !psc_recipe_map_get (&im->res->made, hash, &handle))
    return 0;
  return handle;
}

static VkShaderModule
imp_shader_handle (void *ctx, uint32_t id)
{
  const Importer *im = ctx;
  return (VkShaderModule) made_for (im, im->rec, PSC_RECIPE_SHADER, id);
}

static VkSampler
imp_sampler_handle (void *ctx, uint32_t id)
{
  const Importer *im = ctx;
  const uint64_t h = made_for (im, im->list, PSC_RECIPE_SAMPLER, id);
  return (VkSampler) (h != 0 ? h : made_for (im, im->rec, PSC_RECIPE_SAMPLER, id));
}

static uint32_t
imp_sampler_list_ids (void *ctx, uint32_t list_id, uint32_t *ids)
{
  Importer *im = ctx;
  uint64_t hash;
  if (!psc_recipe_record_find_ref (im->rec, PSC_RECIPE_SAMPLER_LIST, list_id, &hash))
    return 0;
  const PscRecipeRecord *list = psc_recipe_book_find (im->res->book, PSC_RECIPE_RECORD_OBJECT, hash);
  if (list == NULL || list->kind != PSC_RECIPE_SAMPLER_LIST)
    return 0;
  /* Parsed: 1..PSC_RECIPE_MAX_LIST_SAMPLERS ids, each with a ref. */
  memcpy (ids, list->key, list->key_len);
  im->list = list;
  return list->key_len / (uint32_t) sizeof (uint32_t);
}

static VkDescriptorSetLayout
imp_set_layout_handle (void *ctx, uint32_t id)
{
  const Importer *im = ctx;
  return (VkDescriptorSetLayout) made_for (im, im->rec, PSC_RECIPE_SET_LAYOUT, id);
}

static VkPipelineLayout
imp_pipeline_layout_handle (void *ctx, uint32_t id)
{
  const Importer *im = ctx;
  return (VkPipelineLayout) made_for (im, im->rec, PSC_RECIPE_PIPELINE_LAYOUT, id);
}

static VkRenderPass
imp_render_pass_handle (void *ctx, uint32_t id)
{
  const Importer *im = ctx;
  return (VkRenderPass) made_for (im, im->rec, PSC_RECIPE_RENDER_PASS, id);
}

static void
importer_init (Importer *im, Resolution *res, const PscRecipeRecord *rec)
{
  im->res = res;
  im->rec = rec;
  im->list = NULL;
  im->r = (PscResolver) {
    .ctx = im,
    .shader_handle = imp_shader_handle,
    .sampler_handle = imp_sampler_handle,
    .sampler_list_ids = imp_sampler_list_ids,
    .set_layout_handle = imp_set_layout_handle,
    .pipeline_layout_handle = imp_pipeline_layout_handle,
    .render_pass_handle = imp_render_pass_handle,
  };
}

/* A shader of this core registered (Ready) with exactly this SPIR-V. */
static const PscEntry *
registered_shader (const PscCore *core, const uint8_t *code, size_t len)
{
  const PscStore *s = core->stores[PSC_KIND_SHADER];
  PscProbe probe;
  const PscTableItem *item = psc_store_find (s, psc_core_hash (core, code, len), code, len, &probe);
  if (item == NULL || psc_store_entry (s, item->value)->state != PSC_ENTRY_READY)
    return NULL;
  return psc_store_entry (s, item->value);
}

static PscStatus
get_object (PscCore *core, uint8_t kind, const void *ci, uint64_t *handle, PscCoreError *err)
{
  switch (kind)
    {
    case PSC_RECIPE_SAMPLER:
      return psc_core_get_sampler (core, ci, (VkSampler *) handle, err);
    case PSC_RECIPE_SET_LAYOUT:
      return psc_core_get_set_layout (core, ci, (VkDescriptorSetLayout *) handle, err);
    case PSC_RECIPE_PIPELINE_LAYOUT:
      return psc_core_get_pipeline_layout (core, ci, (VkPipelineLayout *) handle, err);
    case PSC_RECIPE_RENDER_PASS:
      return psc_core_get_render_pass (core, ci, (VkRenderPass *) handle, err);
    default:
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "internal error: kind %u", kind);
    }
}

/* An object decoded from its record's key and made by get-or-create. */
static PscStatus
make_from_key (Resolution *res, const PscRecipeRecord *rec, uint64_t *handle)
{
  void *b = psc_build_alloc (build_size (rec->kind));
  if (b == NULL)
    return out_of_memory (res->err);
  Importer im;
  importer_init (&im, res, rec);
  const void *ci = decode_key (rec->kind, rec->key, rec->key_len, &im.r, b);
  PscCoreError sub = { 0 };
  PscStatus st = ci != NULL ? get_object (res->core, rec->kind, ci, handle, &sub)
                            : PSC_STATUS_INVALID_DATA;
  free (b);
  if (ci == NULL)
    return stale (res, PSC_RECIPE_STALE_UNDECODABLE, rec->kind, rec->hash,
                  "its key does not decode with its refs");
  return made_status (res, st, &sub, rec);
}

static PscStatus
make_object (Resolution *res, const PscRecipeRecord *rec, uint64_t *handle)
{
  if (rec->kind == PSC_RECIPE_SAMPLER_LIST)
    {
      *handle = 1;   /* its samplers exist; set layouts name the list through them */
      return PSC_STATUS_OK;
    }
  if (rec->kind != PSC_RECIPE_SHADER)
    return make_from_key (res, rec, handle);
  const PscEntry *e = registered_shader (res->core, rec->key, rec->key_len);
  if (e == NULL)
    return stale (res, PSC_RECIPE_STALE_SHADER, rec->kind, rec->hash,
                  "no shader of this cache is registered with this SPIR-V (%u bytes)",
                  rec->key_len);
  *handle = e->handle;
  return PSC_STATUS_OK;
}

static PscStatus resolve_refs (Resolution *res, const PscRecipeRecord *rec);

/* The handle made for ref's record (made now if needed, children first).
 * The record's kind is checked before the memo is read, so a handle is
 * only ever handed out for its own kind. Refs only go down
 * (recipe-record.h), so the recursion is at most four deep. */
static PscStatus
resolve_object (Resolution *res, const PscRecipeRef *ref)
{
  const PscRecipeRecord *rec = psc_recipe_book_find (res->book, PSC_RECIPE_RECORD_OBJECT, ref->hash);
  if (rec == NULL)
    return stale (res, PSC_RECIPE_STALE_MISSING, ref->kind, ref->hash, "the book has no record of it");
  if (rec->kind != ref->kind)
    return stale (res, PSC_RECIPE_STALE_UNDECODABLE, ref->kind, ref->hash, "its record is a %s",
                  psc_recipe_kind_name (rec->kind));
  uint64_t handle;
  if (psc_recipe_map_get (&res->made, ref->hash, &handle))
    return PSC_STATUS_OK;
  PscStatus st = resolve_refs (res, rec);
  if (st == PSC_STATUS_OK)
    st = make_object (res, rec, &handle);
  if (st == PSC_STATUS_OK && !psc_recipe_map_put (&res->made, ref->hash, handle))
    st = out_of_memory (res->err);
  return st;
}

static PscStatus
resolve_refs (Resolution *res, const PscRecipeRecord *rec)
{
  for (uint32_t i = 0; i < rec->ref_count; i++)
    {
      const PscRecipeRef ref = psc_recipe_record_ref (rec, i);
      PscStatus st = resolve_object (res, &ref);
      if (st != PSC_STATUS_OK)
        return st;
    }
  return PSC_STATUS_OK;
}

/* This core's encoder checks the create info as a request will, and names
 * its canonical key. */
static PscStatus
check_key (Resolution *res, const PscRecipeRecord *rec)
{
  PscCore *core = res->core;
  PscRecipeResolved *out = res->out;
  KEY_BUFFER (w);
  PscCoreError sub = { 0 };
  PscStatus st = out->kind == PSC_KIND_GRAPHICS
                 ? psc_encode_graphics (out->graphics, core->cfg.rendering, &core->resolver, &w, &sub)
                 : psc_encode_compute (out->compute, &core->resolver, &w, &sub);
  if (st != PSC_STATUS_OK)
    return made_status (res, st, &sub, rec);
  out->key_hash = psc_core_hash (core, w.data, w.len);
  out->key_len = (uint32_t) w.len;
  return PSC_STATUS_OK;
}

/* The pipeline key decoded into a create info over the objects made. */
static PscStatus
build_pipeline (Resolution *res, const PscRecipeRecord *rec)
{
  PscRecipeResolved *out = res->out;
  out->build = psc_build_alloc (build_size (rec->kind));
  if (out->build == NULL)
    return out_of_memory (res->err);
  Importer im;
  importer_init (&im, res, rec);
  const void *ci = decode_key (rec->kind, rec->key, rec->key_len, &im.r, out->build);
  if (ci == NULL)
    return stale (res, PSC_RECIPE_STALE_UNDECODABLE, rec->kind, rec->hash,
                  "its key does not decode with its refs");
  out->kind = core_kind (rec->kind);
  if (out->kind == PSC_KIND_GRAPHICS)
    out->graphics = ci;
  else
    out->compute = ci;
  return check_key (res, rec);
}

void
psc_recipe_resolved_clear (PscRecipeResolved *resolved)
{
  free (resolved->build);
  *resolved = (PscRecipeResolved) { 0 };
}

PscStatus
psc_core_resolve_recipe (PscCore *core, const PscRecipeBook *book, uint64_t recipe_hash,
                         PscRecipeResolved *out, PscCoreError *err)
{
  *out = (PscRecipeResolved) { 0 };
  if (!psc_core_check_thread (core, err))
    return psc_core_refused (core);
  if (core->cfg.pass_through)
    return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, "",
                          "the cache is in pass-through mode: recipes are not resolved");
  Resolution res = { .core = core, .book = book, .out = out, .err = err };
  const PscRecipeRecord *rec = psc_recipe_book_find (book, PSC_RECIPE_RECORD_PIPELINE, recipe_hash);
  if (rec == NULL)
    return stale (&res, PSC_RECIPE_STALE_MISSING, 0, recipe_hash,
                  "the book has no such recipe");
  out->last_used = rec->last_used;
  PscStatus st = resolve_refs (&res, rec);
  if (st == PSC_STATUS_OK)
    st = build_pipeline (&res, rec);
  psc_recipe_map_clear (&res.made);
  if (st != PSC_STATUS_OK)
    {
      const PscRecipeStale why = out->stale;
      const uint64_t last_used = out->last_used;
      psc_recipe_resolved_clear (out);
      out->stale = why;
      out->last_used = last_used;
    }
  return st;
}

PscStatus
psc_core_prewarm_recipe (PscCore *core, const PscRecipeBook *book, uint64_t recipe_hash,
                         PscCoreReadyFn fn, void *context, PscCoreRequestState *state,
                         PscRecipeStale *stale_out, PscCoreError *err)
{
  *state = PSC_CORE_PENDING;
  PscRecipeResolved r;
  PscStatus st = psc_core_resolve_recipe (core, book, recipe_hash, &r, err);
  if (stale_out != NULL)
    *stale_out = r.stale;
  if (st != PSC_STATUS_OK)
    return st;
  VkPipeline pipeline;
  if (r.kind == PSC_KIND_GRAPHICS)
    st = psc_core_request_graphics (core, r.graphics, PSC_CORE_MISS_SKIP, 0, fn, context,
                                    &pipeline, state, err);
  else
    st = psc_core_request_compute (core, r.compute, PSC_CORE_MISS_SKIP, 0, fn, context,
                                   &pipeline, state, err);
  psc_recipe_resolved_clear (&r);
  return st;
}
