/* recipe-record.c: the recipe records, parsed, validated and serialized
 * in memory, and the book of validated records (contract and layout in
 * recipe-record.h).
 *
 * Nothing is read before the length that covers it was checked, and the
 * only lengths taken from a payload (ref count, key length) are bounded
 * before they are used.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "recipe-record.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define SPIRV_MAGIC 0x07230203u
#define SPIRV_MIN_BYTES 20u

const char *
psc_recipe_kind_name (uint8_t kind)
{
  static const char *const names[] = {
    NULL, "shader", "sampler", "sampler-list", "set-layout", "pipeline-layout",
    "render-pass", "graphics", "compute",
  };
  return kind >= 1 && kind <= PSC_RECORD_KIND_MAX ? names[kind] : "unknown";
}

uint32_t
psc_recipe_max_key (uint8_t kind)
{
  switch (kind)
    {
    case PSC_RECIPE_SHADER:
      return PSC_RECIPE_MAX_SPIRV_BYTES;
    case PSC_RECIPE_SAMPLER_LIST:
      return PSC_RECIPE_MAX_LIST_SAMPLERS * (uint32_t) sizeof (uint32_t);
    case PSC_RECIPE_SAMPLER: case PSC_RECIPE_SET_LAYOUT: case PSC_RECIPE_PIPELINE_LAYOUT:
    case PSC_RECIPE_RENDER_PASS: case PSC_RECIPE_GRAPHICS: case PSC_RECIPE_COMPUTE:
      return PSC_RECIPE_MAX_KEY_BYTES;
    default:
      return 0;
    }
}

/* Bytes before the body: the hash, and for pipelines the stamp. */
static size_t
prefix_size (uint16_t type)
{
  return type == PSC_RECIPE_RECORD_PIPELINE ? 16u : 8u;
}

static bool
kind_fits_type (uint16_t type, uint8_t kind)
{
  if (type == PSC_RECIPE_RECORD_OBJECT)
    return kind >= PSC_RECIPE_SHADER && kind <= PSC_RECIPE_RENDER_PASS;
  return kind == PSC_RECIPE_GRAPHICS || kind == PSC_RECIPE_COMPUTE;
}

/* The kinds a record of `kind` may reference, as a bit mask. */
static uint32_t
allowed_refs (uint8_t kind)
{
#define BIT(k) (1u << (k))
  switch (kind)
    {
    case PSC_RECIPE_SAMPLER_LIST:
      return BIT (PSC_RECIPE_SAMPLER);
    case PSC_RECIPE_SET_LAYOUT:
      return BIT (PSC_RECIPE_SAMPLER_LIST) | BIT (PSC_RECIPE_SAMPLER);
    case PSC_RECIPE_PIPELINE_LAYOUT:
      return BIT (PSC_RECIPE_SET_LAYOUT);
    case PSC_RECIPE_GRAPHICS:
      return BIT (PSC_RECIPE_SHADER) | BIT (PSC_RECIPE_PIPELINE_LAYOUT) | BIT (PSC_RECIPE_RENDER_PASS);
    case PSC_RECIPE_COMPUTE:
      return BIT (PSC_RECIPE_SHADER) | BIT (PSC_RECIPE_PIPELINE_LAYOUT);
    default:
      return 0;
    }
#undef BIT
}

bool
psc_recipe_record_find_ref (const PscRecipeRecord *r, uint8_t kind, uint32_t id, uint64_t *hash)
{
  for (uint32_t i = 0; i < r->ref_count; i++)
    {
      const PscRecipeRef ref = psc_recipe_record_ref (r, i);
      if (ref.kind == kind && ref.id == id)
        {
          *hash = ref.hash;
          return true;
        }
    }
  return false;
}

/* ---------------------------------------------------------------------------
 * Parsing.
 */

/* The body's fixed fields, bounds and length. */
static PscFileReason
parse_body_header (uint16_t type, const uint8_t *payload, size_t len, PscRecipeRecord *out)
{
  const size_t prefix = prefix_size (type);
  if (len < prefix + PSC_RECIPE_BODY_HEADER)
    return PSC_FILE_TRUNCATED;
  const uint8_t *body = payload + prefix;
  out->kind = body[0];
  out->ref_count = (uint16_t) (body[2] | body[3] << 8);
  out->key_len = psc_le32 (body + 4);
  if (!kind_fits_type (type, out->kind) || body[1] != 0 || out->key_len == 0)
    return PSC_FILE_BAD_HEADER;
  if (out->ref_count > PSC_RECIPE_MAX_REFS || out->key_len > psc_recipe_max_key (out->kind))
    return PSC_FILE_OVERSIZED;
  const size_t want = prefix + PSC_RECIPE_BODY_HEADER
                      + (size_t) out->ref_count * PSC_RECIPE_REF_SIZE + out->key_len;
  if (len < want)
    return PSC_FILE_TRUNCATED;
  if (len > want)
    return PSC_FILE_TRAILING_DATA;
  out->refs = body + PSC_RECIPE_BODY_HEADER;
  out->key = out->refs + (size_t) out->ref_count * PSC_RECIPE_REF_SIZE;
  return PSC_FILE_OK;
}

/* Each ref: an allowed kind, reserved bytes zero, an id, no kind + id twice. */
static bool
refs_valid (const PscRecipeRecord *r)
{
  const uint32_t allowed = allowed_refs (r->kind);
  for (uint32_t i = 0; i < r->ref_count; i++)
    {
      const uint8_t *p = r->refs + (size_t) i * PSC_RECIPE_REF_SIZE;
      const PscRecipeRef ref = psc_recipe_record_ref (r, i);
      if (ref.kind > PSC_RECORD_KIND_MAX || !(allowed & (1u << ref.kind))
          || p[1] != 0 || p[2] != 0 || p[3] != 0 || ref.id == 0)
        return false;
      for (uint32_t j = 0; j < i; j++)
        {
          const PscRecipeRef other = psc_recipe_record_ref (r, j);
          if (other.kind == ref.kind && other.id == ref.id)
            return false;
        }
    }
  return true;
}

static bool
spirv_shaped (const PscRecipeRecord *r)
{
  uint32_t magic;
  if (r->key_len % 4 != 0 || r->key_len < SPIRV_MIN_BYTES)
    return false;
  memcpy (&magic, r->key, sizeof magic);
  return magic == SPIRV_MAGIC;
}

/* A sampler list: 1..32 non-zero ids, each with a sampler ref. */
static bool
sampler_list_shaped (const PscRecipeRecord *r)
{
  if (r->key_len % sizeof (uint32_t) != 0)
    return false;
  for (uint32_t i = 0; i < r->key_len / sizeof (uint32_t); i++)
    {
      uint32_t id;
      uint64_t hash;
      memcpy (&id, r->key + i * sizeof id, sizeof id);
      if (id == 0 || !psc_recipe_record_find_ref (r, PSC_RECIPE_SAMPLER, id, &hash))
        return false;
    }
  return true;
}

static bool
key_shaped (const PscRecipeRecord *r)
{
  if (r->kind == PSC_RECIPE_SHADER)
    return spirv_shaped (r);
  if (r->kind == PSC_RECIPE_SAMPLER_LIST)
    return sampler_list_shaped (r);
  return true;
}

PscFileReason
psc_recipe_record_parse (uint16_t type, const uint8_t *payload, size_t len, PscRecipeRecord *out)
{
  memset (out, 0, sizeof *out);
  if (type != PSC_RECIPE_RECORD_OBJECT && type != PSC_RECIPE_RECORD_PIPELINE)
    return PSC_FILE_FORMAT_VERSION;
  if (payload == NULL && len > 0)
    return PSC_FILE_TRUNCATED;
  PscFileReason why = parse_body_header (type, payload, len, out);
  if (why != PSC_FILE_OK)
    return why;
  const size_t prefix = prefix_size (type);
  out->type = type;
  out->payload = payload;
  out->len = (uint32_t) len;
  out->hash = psc_le64 (payload + prefix - 8);
  out->last_used = type == PSC_RECIPE_RECORD_PIPELINE ? psc_le64 (payload) : 0;
  if (XXH3_64bits (payload + prefix, len - prefix) != out->hash)
    return PSC_FILE_CHECKSUM;
  if (!refs_valid (out) || !key_shaped (out))
    return PSC_FILE_BAD_RECORD;
  return PSC_FILE_OK;
}

/* ---------------------------------------------------------------------------
 * Writing.
 */
size_t
psc_recipe_record_size (uint16_t type, uint32_t ref_count, size_t key_len)
{
  return prefix_size (type) + PSC_RECIPE_BODY_HEADER + (size_t) ref_count * PSC_RECIPE_REF_SIZE
         + key_len;
}

bool
psc_recipe_record_write (uint8_t *out, uint16_t type, uint8_t kind, uint64_t last_used,
                         const PscRecipeRef *refs, uint32_t ref_count, const uint8_t *key,
                         size_t key_len, uint64_t *hash)
{
  if ((type != PSC_RECIPE_RECORD_OBJECT && type != PSC_RECIPE_RECORD_PIPELINE)
      || !kind_fits_type (type, kind) || ref_count > PSC_RECIPE_MAX_REFS
      || key_len == 0 || key_len > psc_recipe_max_key (kind))
    return false;
  const size_t prefix = prefix_size (type);
  uint8_t *body = out + prefix;
  body[0] = kind;
  body[1] = 0;
  body[2] = (uint8_t) ref_count;
  body[3] = (uint8_t) (ref_count >> 8);
  psc_put_le32 (body + 4, (uint32_t) key_len);
  uint8_t *p = body + PSC_RECIPE_BODY_HEADER;
  for (uint32_t i = 0; i < ref_count; i++, p += PSC_RECIPE_REF_SIZE)
    {
      memset (p, 0, 4);
      p[0] = refs[i].kind;
      psc_put_le32 (p + 4, refs[i].id);
      psc_put_le64 (p + 8, refs[i].hash);
    }
  memcpy (p, key, key_len);
  const size_t body_len = psc_recipe_record_size (type, ref_count, key_len) - prefix;
  *hash = XXH3_64bits (body, body_len);
  if (type == PSC_RECIPE_RECORD_PIPELINE)
    psc_put_le64 (out, last_used);
  psc_put_le64 (out + prefix - 8, *hash);
  return true;
}

/* ---------------------------------------------------------------------------
 * The map.
 */
static uint32_t
map_home (uint64_t key, uint32_t cap)
{
  /* Keys are hashes already; mix anyway, they may be chosen. */
  return (uint32_t) ((key * UINT64_C (0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

static bool
map_find (const PscRecipeMap *m, uint64_t key, uint32_t *slot)
{
  if (m->cap == 0)
    return false;
  for (uint32_t i = map_home (key, m->cap);; i = (i + 1) & (m->cap - 1))
    {
      *slot = i;
      if (!m->used[i])
        return false;
      if (m->keys[i] == key)
        return true;
    }
}

bool
psc_recipe_map_get (const PscRecipeMap *m, uint64_t key, uint64_t *value)
{
  uint32_t i;
  if (!map_find (m, key, &i))
    return false;
  *value = m->values[i];
  return true;
}

/* Doubles the map (at least 16 slots), keeping every item. */
static bool
map_grow (PscRecipeMap *m)
{
  PscRecipeMap g = { .cap = m->cap ? m->cap * 2 : 16 };
  g.keys = malloc ((size_t) g.cap * sizeof *g.keys);
  g.values = malloc ((size_t) g.cap * sizeof *g.values);
  g.used = calloc (g.cap, 1);
  if (g.keys == NULL || g.values == NULL || g.used == NULL)
    {
      psc_recipe_map_clear (&g);
      return false;
    }
  for (uint32_t i = 0; i < m->cap; i++)
    if (m->used[i])
      {
        uint32_t at;
        map_find (&g, m->keys[i], &at);
        g.used[at] = 1;
        g.keys[at] = m->keys[i];
        g.values[at] = m->values[i];
      }
  g.count = m->count;
  psc_recipe_map_clear (m);
  *m = g;
  return true;
}

bool
psc_recipe_map_put (PscRecipeMap *m, uint64_t key, uint64_t value)
{
  uint32_t i;
  if (map_find (m, key, &i))
    {
      m->values[i] = value;
      return true;
    }
  if ((m->count + 1) * 2 > m->cap)
    {
      if (!map_grow (m))
        return false;
      map_find (m, key, &i);
    }
  m->used[i] = 1;
  m->keys[i] = key;
  m->values[i] = value;
  m->count++;
  return true;
}

void
psc_recipe_map_clear (PscRecipeMap *m)
{
  free (m->keys);
  free (m->values);
  free (m->used);
  *m = (PscRecipeMap) { 0 };
}

/* ---------------------------------------------------------------------------
 * The book.
 */
void
psc_recipe_book_init (PscRecipeBook *book)
{
  *book = (PscRecipeBook) { 0 };
}

void
psc_recipe_book_clear (PscRecipeBook *book)
{
  for (uint32_t i = 0; i < book->count; i++)
    free ((void *) book->records[i].payload);
  free (book->records);
  psc_recipe_map_clear (&book->index[0]);
  psc_recipe_map_clear (&book->index[1]);
  psc_recipe_book_init (book);
}

const PscRecipeRecord *
psc_recipe_book_find (const PscRecipeBook *book, uint16_t type, uint64_t hash)
{
  uint64_t i;
  if ((type != PSC_RECIPE_RECORD_OBJECT && type != PSC_RECIPE_RECORD_PIPELINE)
      || !psc_recipe_map_get (&book->index[type - 1], hash, &i))
    return NULL;
  return &book->records[i];
}

/* The same (type, hash) again: the same body, or a conflict. */
static bool
merge_duplicate (PscRecipeBook *book, PscRecipeRecord *have, const PscRecipeRecord *rec,
                 PscFileReason *why)
{
  const size_t prefix = prefix_size (rec->type);
  if (have->len != rec->len
      || memcmp (have->payload + prefix, rec->payload + prefix, rec->len - prefix) != 0)
    {
      *why = PSC_FILE_BAD_RECORD;
      return false;
    }
  if (rec->last_used > have->last_used)
    {
      have->last_used = rec->last_used;
      psc_put_le64 ((uint8_t *) have->payload, rec->last_used);
    }
  book->duplicates++;
  return true;
}

/* A copy of the record's payload, its views moved onto the copy. */
static bool
store_record (PscRecipeBook *book, const PscRecipeRecord *rec)
{
  if (book->count == book->cap)
    {
      const uint32_t cap = book->cap ? book->cap * 2 : 64;
      PscRecipeRecord *grown = realloc (book->records, (size_t) cap * sizeof *grown);
      if (grown == NULL)
        return false;
      book->records = grown;
      book->cap = cap;
    }
  uint8_t *copy = malloc (rec->len);
  if (copy == NULL || !psc_recipe_map_put (&book->index[rec->type - 1], rec->hash, book->count))
    {
      free (copy);
      return false;
    }
  memcpy (copy, rec->payload, rec->len);
  PscRecipeRecord *r = &book->records[book->count++];
  *r = *rec;
  r->payload = copy;
  r->refs = copy + (rec->refs - rec->payload);
  r->key = copy + (rec->key - rec->payload);
  book->bytes += rec->len;
  book->pipelines += rec->type == PSC_RECIPE_RECORD_PIPELINE;
  return true;
}

bool
psc_recipe_book_add (PscRecipeBook *book, uint16_t type, const uint8_t *payload, size_t len,
                     PscFileReason *why)
{
  PscFileReason ignored;
  if (why == NULL)
    why = &ignored;
  PscRecipeRecord rec;
  *why = psc_recipe_record_parse (type, payload, len, &rec);
  if (*why != PSC_FILE_OK)
    return false;
  PscRecipeRecord *have = (PscRecipeRecord *) psc_recipe_book_find (book, type, rec.hash);
  if (have != NULL)
    return merge_duplicate (book, have, &rec, why);
  const size_t max = book->max_bytes != 0 ? book->max_bytes : PSC_RECIPE_MAX_BOOK_BYTES;
  if (book->count >= PSC_RECIPE_MAX_RECORDS || book->bytes > max || len > max - book->bytes)
    {
      *why = PSC_FILE_OVERSIZED;
      return false;
    }
  if (!store_record (book, &rec))
    {
      *why = PSC_FILE_OUT_OF_MEMORY;
      return false;
    }
  return true;
}
