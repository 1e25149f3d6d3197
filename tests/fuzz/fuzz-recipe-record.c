/* fuzz-recipe-record.c: libFuzzer target for the recipe records and the
 * recipe book (core/formats/recipe-record.c, DESIGN decision 14). Also
 * built without libFuzzer and driven over the checked-in corpus by
 * corpus-main.c (unit suite).
 *
 * Input: byte 0 selects the mode, then records, each a u32 little-endian
 * length and that many payload bytes (a length beyond the input takes the
 * rest). Mode bit 0: each payload gets a correct hash for the type it is
 * fed as (so mutations reach the refs and key checks past the hash);
 * bit 1: the key of every record the book accepted is decoded into a
 * create info by its kind's decoder (psc_decode_*, with a resolver that
 * answers every id but 0), as a resolution would (core/recipes.c: the
 * decoders read untrusted keys there); bits 2-7: added to 3, an unknown
 * record type also fed. Every payload is fed to one book as an object
 * record, as a pipeline record and as the unknown type, each from a heap
 * copy of exactly its size.
 *
 * Besides not crashing: a payload the parser accepts is in the book under
 * its hash afterwards (unless the book was full), and written again from
 * what was read it gives the same bytes; a refused one gives a reason the
 * contract lists; the unknown type is always a format version; the book
 * stays within its bounds and every record in it parses again; a decoded
 * create info has its structure type. Anything else aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/recipe-record.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond))                                                                 \
      abort ();                                                                  \
  } while (0)

static size_t
prefix_of (uint16_t type)
{
  return type == PSC_RECIPE_RECORD_PIPELINE ? 16 : 8;
}

static bool
reason_listed (PscFileReason why)
{
  return why == PSC_FILE_TRUNCATED || why == PSC_FILE_TRAILING_DATA || why == PSC_FILE_BAD_HEADER
         || why == PSC_FILE_OVERSIZED || why == PSC_FILE_CHECKSUM || why == PSC_FILE_BAD_RECORD;
}

/* What was read, written again: the same bytes. */
static void
check_rewrite (const PscRecipeRecord *r)
{
  CHECK (r->ref_count <= PSC_RECIPE_MAX_REFS && r->key_len > 0
         && r->key_len <= psc_recipe_max_key (r->kind));
  CHECK (r->key + r->key_len == r->payload + r->len);
  PscRecipeRef refs[PSC_RECIPE_MAX_REFS];
  for (uint32_t i = 0; i < r->ref_count; i++)
    refs[i] = psc_recipe_record_ref (r, i);
  const size_t size = psc_recipe_record_size (r->type, r->ref_count, r->key_len);
  CHECK (size == r->len);
  uint8_t *out = malloc (size);
  CHECK (out != NULL);
  uint64_t hash;
  CHECK (psc_recipe_record_write (out, r->type, r->kind, r->last_used, refs, r->ref_count,
                                  r->key, r->key_len, &hash));
  CHECK (hash == r->hash && memcmp (out, r->payload, size) == 0);
  free (out);
}

static void
feed (PscRecipeBook *book, uint16_t type, const uint8_t *payload, size_t len, bool seal)
{
  uint8_t *p = malloc (len ? len : 1);
  CHECK (p != NULL);
  memcpy (p, payload, len);
  const size_t prefix = prefix_of (type);
  if (seal && len >= prefix)
    psc_put_le64 (p + prefix - 8, XXH3_64bits (p + prefix, len - prefix));
  PscRecipeRecord r;
  const PscFileReason parsed = psc_recipe_record_parse (type, p, len, &r);
  const uint32_t count = book->count;
  PscFileReason why = PSC_FILE_STALE;
  const bool added = psc_recipe_book_add (book, type, p, len, &why);
  if (type != PSC_RECIPE_RECORD_OBJECT && type != PSC_RECIPE_RECORD_PIPELINE)
    CHECK (parsed == PSC_FILE_FORMAT_VERSION && !added && why == parsed);
  else if (parsed != PSC_FILE_OK)
    CHECK (reason_listed (parsed) && !added && why == parsed);
  else
    {
      check_rewrite (&r);
      CHECK (added ? why == PSC_FILE_OK
                   : (why == PSC_FILE_OVERSIZED || why == PSC_FILE_BAD_RECORD));
      const PscRecipeRecord *got = psc_recipe_book_find (book, type, r.hash);
      CHECK (!added || (got != NULL && got->len == len && got->kind == r.kind
                        && memcmp (got->payload + prefix, p + prefix, len - prefix) == 0));
    }
  CHECK (book->count == count || (added && book->count == count + 1));
  CHECK (book->count <= PSC_RECIPE_MAX_RECORDS && book->bytes <= PSC_RECIPE_MAX_BOOK_BYTES);
  free (p);
}

/* ---------------------------------------------------------------------------
 * Decoding: a resolver that answers every id but 0 with a stand-in handle,
 * and a sampler list of (id % 33) samplers.
 */
#define STAND_IN(T, id) ((T) (uintptr_t) ((id) != 0))

static VkShaderModule
f_shader (void *ctx, uint32_t id)
{
  return STAND_IN (VkShaderModule, id);
}

static VkSampler
f_sampler (void *ctx, uint32_t id)
{
  return STAND_IN (VkSampler, id);
}

static uint32_t
f_sampler_list_ids (void *ctx, uint32_t list_id, uint32_t *ids)
{
  const uint32_t n = list_id % (PSC_MAX_IMMUTABLE_SAMPLERS + 1);
  for (uint32_t i = 0; i < n; i++)
    ids[i] = list_id + i;
  return n;
}

static VkDescriptorSetLayout
f_set_layout (void *ctx, uint32_t id)
{
  return STAND_IN (VkDescriptorSetLayout, id);
}

static VkPipelineLayout
f_pipeline_layout (void *ctx, uint32_t id)
{
  return STAND_IN (VkPipelineLayout, id);
}

static VkRenderPass
f_render_pass (void *ctx, uint32_t id)
{
  return STAND_IN (VkRenderPass, id);
}

static const PscResolver stand_in = {
  .shader_handle = f_shader,
  .sampler_handle = f_sampler,
  .sampler_list_ids = f_sampler_list_ids,
  .set_layout_handle = f_set_layout,
  .pipeline_layout_handle = f_pipeline_layout,
  .render_pass_handle = f_render_pass,
};

/* Build storage large enough for every kind. */
static size_t
largest_build (void)
{
  const size_t sizes[] = { psc_sampler_build_size (), psc_set_layout_build_size (),
                           psc_pipeline_layout_build_size (), psc_render_pass_build_size (),
                           psc_graphics_build_size (), psc_compute_build_size () };
  size_t n = 0;
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    n = sizes[i] > n ? sizes[i] : n;
  return n;
}

/* The structure type of what the record's key decodes to, or 0 if it does
 * not decode (or its kind has no decoder). */
static VkStructureType
decode (const PscRecipeRecord *r)
{
  void *b = psc_build_alloc (largest_build ());
  CHECK (b != NULL);
  const void *ci = NULL;
  switch (r->kind)
    {
    case PSC_RECIPE_SAMPLER:
      ci = psc_decode_sampler (r->key, r->key_len, b);
      break;
    case PSC_RECIPE_SET_LAYOUT:
      ci = psc_decode_set_layout (r->key, r->key_len, &stand_in, b);
      break;
    case PSC_RECIPE_PIPELINE_LAYOUT:
      ci = psc_decode_pipeline_layout (r->key, r->key_len, &stand_in, b);
      break;
    case PSC_RECIPE_RENDER_PASS:
      ci = psc_decode_render_pass (r->key, r->key_len, b);
      break;
    case PSC_RECIPE_GRAPHICS:
      ci = psc_decode_graphics (r->key, r->key_len, &stand_in, b);
      break;
    case PSC_RECIPE_COMPUTE:
      ci = psc_decode_compute (r->key, r->key_len, &stand_in, b);
      break;
    default:
      break;
    }
  const VkStructureType type = ci != NULL ? ((const VkBaseInStructure *) ci)->sType
                                          : (VkStructureType) 0;
  free (b);
  return type;
}

static void
check_decode (const PscRecipeRecord *r)
{
  static const VkStructureType want[PSC_RECORD_KIND_MAX + 1] = {
    [PSC_RECIPE_SAMPLER] = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    [PSC_RECIPE_SET_LAYOUT] = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    [PSC_RECIPE_PIPELINE_LAYOUT] = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    [PSC_RECIPE_RENDER_PASS] = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
    [PSC_RECIPE_GRAPHICS] = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    [PSC_RECIPE_COMPUTE] = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
  };
  const VkStructureType got = decode (r);
  CHECK (got == 0 || got == want[r->kind]);
}

/* Every record in the book parses again, under its own hash. */
static void
check_book (const PscRecipeBook *book, bool decode_keys)
{
  size_t bytes = 0;
  uint32_t pipelines = 0;
  for (uint32_t i = 0; i < book->count; i++)
    {
      const PscRecipeRecord *have = &book->records[i];
      PscRecipeRecord r;
      CHECK (psc_recipe_record_parse (have->type, have->payload, have->len, &r) == PSC_FILE_OK);
      CHECK (r.hash == have->hash && r.last_used == have->last_used);
      CHECK (psc_recipe_book_find (book, have->type, have->hash) == have);
      bytes += have->len;
      pipelines += have->type == PSC_RECIPE_RECORD_PIPELINE;
      if (decode_keys)
        check_decode (have);
    }
  CHECK (bytes == book->bytes && pipelines == book->pipelines);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  const unsigned mode = data[0];
  const uint16_t unknown = (uint16_t) (3u + (mode >> 2));
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  size_t at = 1;
  while (at < size)
    {
      size_t len = size - at >= 4 ? psc_le32 (data + at) : 0;
      at += size - at >= 4 ? 4 : size - at;
      if (len > size - at)
        len = size - at;
      feed (&book, PSC_RECIPE_RECORD_OBJECT, data + at, len, mode & 1);
      feed (&book, PSC_RECIPE_RECORD_PIPELINE, data + at, len, mode & 1);
      feed (&book, unknown, data + at, len, mode & 1);
      at += len;
    }
  check_book (&book, mode & 2);
  psc_recipe_book_clear (&book);
  return 0;
}
