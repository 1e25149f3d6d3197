/* test-recipe-record.c: the recipe records and the recipe book
 * (core/formats/recipe-record.h) without a GPU: round trips of every kind,
 * every bound, every prefix and single-bit flip of a record with the
 * reason its position gives, resealed faults (hash recomputed) refused as
 * bad records, the book's deduplication and limits, and garbage.
 *
 * Also writes the seeds of tests/fuzz/corpus/recipe-record (the fuzz
 * target's input format, fuzz-recipe-record.c) with crafted keys (the
 * Vulkan test test-recipes.c writes seeds with real exported ones):
 *
 *   ./_build/tests/unit/test-recipe-record --write-corpus tests/fuzz/corpus/recipe-record
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "psc-core.h"
#include "formats/recipe-record.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define OBJ PSC_RECIPE_RECORD_OBJECT
#define PIPE PSC_RECIPE_RECORD_PIPELINE

#define assert_reason(got, want)                                                      \
  g_assert_cmpstr (psc_file_reason_name (got), ==, psc_file_reason_name (want))

/* ---------------------------------------------------------------------------
 * Crafting records.
 */
static size_t
prefix_of (uint16_t type)
{
  return type == PIPE ? 16 : 8;
}

/* A record written by the library's writer (asserting it accepts). */
static GByteArray *
record (uint16_t type, uint8_t kind, uint64_t last_used, const PscRecipeRef *refs, uint32_t n,
        const void *key, size_t key_len)
{
  GByteArray *a = g_byte_array_new ();
  g_byte_array_set_size (a, psc_recipe_record_size (type, n, key_len));
  uint64_t hash;
  g_assert_true (psc_recipe_record_write (a->data, type, kind, last_used, refs, n, key, key_len,
                                          &hash));
  g_assert_cmphex (hash, ==, psc_le64 (a->data + prefix_of (type) - 8));
  return a;
}

/* Recomputes the hash of a (possibly changed) payload. */
static void
reseal (uint16_t type, uint8_t *p, size_t len)
{
  const size_t prefix = prefix_of (type);
  if (len >= prefix)
    psc_put_le64 (p + prefix - 8, XXH3_64bits (p + prefix, len - prefix));
}

static PscFileReason
parse (uint16_t type, const GByteArray *a)
{
  PscRecipeRecord r;
  return psc_recipe_record_parse (type, a->data, a->len, &r);
}

/* A SPIR-V-shaped key of `words` words. */
static GByteArray *
spirv_key (uint32_t words, uint32_t seed)
{
  GByteArray *a = g_byte_array_new ();
  g_byte_array_set_size (a, words * 4);
  uint32_t *w = (uint32_t *) a->data;
  w[0] = 0x07230203u;
  for (uint32_t i = 1; i < words; i++)
    w[i] = seed * 2654435761u + i;
  return a;
}

/* A key of len bytes (not SPIR-V). */
static GByteArray *
plain_key (size_t len, uint32_t seed)
{
  GByteArray *a = g_byte_array_new ();
  g_byte_array_set_size (a, len);
  for (size_t i = 0; i < len; i++)
    a->data[i] = (uint8_t) (seed * 31u + i * 7u);
  return a;
}

/* One record of each kind, as an exporter would write them. */
typedef struct {
  GByteArray *rec[8];
  uint16_t type[8];
  uint64_t hash[8];
  unsigned n;
} Family;

static void
family_add (Family *f, uint16_t type, GByteArray *rec)
{
  f->type[f->n] = type;
  f->hash[f->n] = psc_le64 (rec->data + prefix_of (type) - 8);
  f->rec[f->n++] = rec;
}

static void
family_make (Family *f)
{
  memset (f, 0, sizeof *f);
  GByteArray *code = spirv_key (64, 1);
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data, code->len));
  GByteArray *sk = plain_key (36, 2);
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, sk->data, sk->len));
  const uint32_t list[3] = { 5, 9, 5 };
  PscRecipeRef lrefs[2] = { { PSC_RECIPE_SAMPLER, 5, f->hash[1] },
                            { PSC_RECIPE_SAMPLER, 9, f->hash[1] } };
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_SAMPLER_LIST, 0, lrefs, 2, list, sizeof list));
  GByteArray *slk = plain_key (60, 3);
  PscRecipeRef srefs[1] = { { PSC_RECIPE_SAMPLER_LIST, 2, f->hash[2] } };
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_SET_LAYOUT, 0, srefs, 1, slk->data, slk->len));
  GByteArray *plk = plain_key (32, 4);
  PscRecipeRef prefs[1] = { { PSC_RECIPE_SET_LAYOUT, 7, f->hash[3] } };
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_PIPELINE_LAYOUT, 0, prefs, 1, plk->data, plk->len));
  GByteArray *rpk = plain_key (48, 5);
  family_add (f, OBJ, record (OBJ, PSC_RECIPE_RENDER_PASS, 0, NULL, 0, rpk->data, rpk->len));
  GByteArray *gk = plain_key (201, 6);
  PscRecipeRef grefs[3] = { { PSC_RECIPE_SHADER, 1, f->hash[0] },
                            { PSC_RECIPE_PIPELINE_LAYOUT, 3, f->hash[4] },
                            { PSC_RECIPE_RENDER_PASS, 4, f->hash[5] } };
  family_add (f, PIPE, record (PIPE, PSC_RECIPE_GRAPHICS, 1700000000u, grefs, 3, gk->data, gk->len));
  GByteArray *ck = plain_key (40, 7);
  family_add (f, PIPE, record (PIPE, PSC_RECIPE_COMPUTE, 1700000001u, grefs, 2, ck->data, ck->len));
  g_byte_array_unref (code);
  g_byte_array_unref (sk);
  g_byte_array_unref (slk);
  g_byte_array_unref (plk);
  g_byte_array_unref (rpk);
  g_byte_array_unref (gk);
  g_byte_array_unref (ck);
}

static void
family_free (Family *f)
{
  for (unsigned i = 0; i < f->n; i++)
    g_byte_array_unref (f->rec[i]);
}

/* ---------------------------------------------------------------------------
 * Tests.
 */
static void
test_round_trip (void)
{
  Family f;
  family_make (&f);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  for (unsigned i = 0; i < f.n; i++)
    {
      PscRecipeRecord r;
      assert_reason (psc_recipe_record_parse (f.type[i], f.rec[i]->data, f.rec[i]->len, &r),
                     PSC_FILE_OK);
      g_assert_cmpuint (r.type, ==, f.type[i]);
      g_assert_cmphex (r.hash, ==, f.hash[i]);
      g_assert_true (r.payload == f.rec[i]->data && r.len == f.rec[i]->len);
      /* Written again from what was read: the same bytes. */
      PscRecipeRef refs[PSC_RECIPE_MAX_REFS];
      for (uint32_t j = 0; j < r.ref_count; j++)
        refs[j] = psc_recipe_record_ref (&r, j);
      GByteArray *again = record (r.type, r.kind, r.last_used, refs, r.ref_count, r.key, r.key_len);
      g_assert_cmpmem (again->data, again->len, f.rec[i]->data, f.rec[i]->len);
      g_byte_array_unref (again);

      PscFileReason why = PSC_FILE_STALE;
      g_assert_true (psc_recipe_book_add (&book, f.type[i], f.rec[i]->data, f.rec[i]->len, &why));
      assert_reason (why, PSC_FILE_OK);
      const PscRecipeRecord *got = psc_recipe_book_find (&book, f.type[i], f.hash[i]);
      g_assert_nonnull (got);
      g_assert_true (got->payload != f.rec[i]->data);   /* a copy */
      g_assert_cmpmem (got->payload, got->len, f.rec[i]->data, f.rec[i]->len);
      g_assert_cmpmem (got->key, got->key_len, r.key, r.key_len);
      g_assert_cmpuint (got->kind, ==, r.kind);
      /* Only under its own type. */
      g_assert_null (psc_recipe_book_find (&book, f.type[i] == OBJ ? PIPE : OBJ, f.hash[i]));
    }
  g_assert_cmpuint (book.count, ==, f.n);
  g_assert_cmpuint (book.pipelines, ==, 2);
  const PscRecipeRecord *g = psc_recipe_book_find (&book, PIPE, f.hash[6]);
  g_assert_cmpuint (g->last_used, ==, 1700000000u);
  uint64_t h;
  g_assert_true (psc_recipe_record_find_ref (g, PSC_RECIPE_PIPELINE_LAYOUT, 3, &h));
  g_assert_cmphex (h, ==, f.hash[4]);
  g_assert_false (psc_recipe_record_find_ref (g, PSC_RECIPE_PIPELINE_LAYOUT, 4, &h));
  g_assert_null (psc_recipe_book_find (&book, 3, f.hash[0]));
  psc_recipe_book_clear (&book);
  g_assert_cmpuint (book.count, ==, 0);
  g_assert_null (psc_recipe_book_find (&book, OBJ, f.hash[0]));
  family_free (&f);
}

/* The same record twice is stored once; a pipeline's stamp rises. */
static void
test_duplicates (void)
{
  Family f;
  family_make (&f);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  for (unsigned round = 0; round < 2; round++)
    for (unsigned i = 0; i < f.n; i++)
      g_assert_true (psc_recipe_book_add (&book, f.type[i], f.rec[i]->data, f.rec[i]->len, NULL));
  g_assert_cmpuint (book.count, ==, f.n);
  g_assert_cmpuint (book.duplicates, ==, f.n);
  const size_t bytes = book.bytes;

  GByteArray *later = g_byte_array_sized_new (f.rec[6]->len);
  g_byte_array_append (later, f.rec[6]->data, f.rec[6]->len);
  psc_put_le64 (later->data, 1800000000u);         /* the stamp is not hashed */
  g_assert_true (psc_recipe_book_add (&book, PIPE, later->data, later->len, NULL));
  const PscRecipeRecord *g = psc_recipe_book_find (&book, PIPE, f.hash[6]);
  g_assert_cmpuint (g->last_used, ==, 1800000000u);
  g_assert_cmpuint (psc_le64 (g->payload), ==, 1800000000u);
  psc_put_le64 (later->data, 1600000000u);         /* an older one keeps the newer */
  g_assert_true (psc_recipe_book_add (&book, PIPE, later->data, later->len, NULL));
  g_assert_cmpuint (g->last_used, ==, 1800000000u);
  g_assert_cmpuint (book.count, ==, f.n);
  g_assert_cmpuint (book.bytes, ==, bytes);
  g_byte_array_unref (later);
  psc_recipe_book_clear (&book);
  family_free (&f);
}

/* The writer refuses what the reader would. */
static void
test_writer_bounds (void)
{
  uint8_t *buf = g_malloc (psc_recipe_record_size (OBJ, PSC_RECIPE_MAX_REFS + 1,
                                                   PSC_RECIPE_MAX_SPIRV_BYTES + 4));
  PscRecipeRef refs[PSC_RECIPE_MAX_REFS + 1] = { 0 };
  GByteArray *code = spirv_key (PSC_RECIPE_MAX_SPIRV_BYTES / 4 + 1, 1);
  uint64_t h;
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_GRAPHICS, 0, NULL, 0, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, PIPE, PSC_RECIPE_SAMPLER, 0, NULL, 0, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, 0, 0, NULL, 0, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, 9, 0, NULL, 0, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, 3, PSC_RECIPE_SAMPLER, 0, NULL, 0, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, code->data, 0, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SET_LAYOUT, 0, refs,
                                           PSC_RECIPE_MAX_REFS + 1, code->data, 8, &h));
  g_assert_true (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SET_LAYOUT, 0, refs,
                                          PSC_RECIPE_MAX_REFS, code->data, 8, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, code->data,
                                           PSC_RECIPE_MAX_KEY_BYTES + 1, &h));
  g_assert_true (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, code->data,
                                          PSC_RECIPE_MAX_KEY_BYTES, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data,
                                           PSC_RECIPE_MAX_SPIRV_BYTES + 4, &h));
  g_assert_true (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data,
                                          PSC_RECIPE_MAX_SPIRV_BYTES, &h));
  g_assert_false (psc_recipe_record_write (buf, OBJ, PSC_RECIPE_SAMPLER_LIST, 0, NULL, 0, code->data,
                                           4 * PSC_RECIPE_MAX_LIST_SAMPLERS + 4, &h));
  g_byte_array_unref (code);
  g_free (buf);
  g_assert_cmpstr (psc_recipe_kind_name (PSC_RECIPE_PIPELINE_LAYOUT), ==, "pipeline-layout");
  g_assert_cmpstr (psc_recipe_kind_name (0), ==, "unknown");
  g_assert_cmpstr (psc_recipe_kind_name (9), ==, "unknown");
  g_assert_cmpuint (psc_recipe_max_key (0), ==, 0);
}

/* A record whose header says more than the bounds: refused before the
 * hash is even read. Each case writes a valid record, then one field. */
static void
test_reader_bounds (void)
{
  GByteArray *k = plain_key (16, 1);
  GByteArray *a = record (OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, k->data, k->len);
  uint8_t *body = a->data + 8;

  psc_put_le32 (body + 4, PSC_RECIPE_MAX_KEY_BYTES + 1);
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  psc_put_le32 (body + 4, UINT32_MAX);
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  psc_put_le32 (body + 4, PSC_RECIPE_MAX_KEY_BYTES);
  assert_reason (parse (OBJ, a), PSC_FILE_TRUNCATED);
  psc_put_le32 (body + 4, 0);
  assert_reason (parse (OBJ, a), PSC_FILE_BAD_HEADER);
  psc_put_le32 (body + 4, 15);
  assert_reason (parse (OBJ, a), PSC_FILE_TRAILING_DATA);
  psc_put_le32 (body + 4, 16);
  assert_reason (parse (OBJ, a), PSC_FILE_OK);

  body[2] = PSC_RECIPE_MAX_REFS + 1;
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  body[2] = 0xff;
  body[3] = 0xff;
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  body[2] = 1;
  body[3] = 0;
  assert_reason (parse (OBJ, a), PSC_FILE_TRUNCATED);
  body[2] = 0;

  body[1] = 1;                                   /* reserved */
  assert_reason (parse (OBJ, a), PSC_FILE_BAD_HEADER);
  body[1] = 0;
  for (unsigned kind = 0; kind < 256; kind++)
    {
      body[0] = (uint8_t) kind;
      const bool object = kind >= PSC_RECIPE_SHADER && kind <= PSC_RECIPE_RENDER_PASS;
      PscFileReason why = parse (OBJ, a);
      if (!object)
        assert_reason (why, PSC_FILE_BAD_HEADER);
      else
        assert_reason (why, kind == PSC_RECIPE_SAMPLER ? PSC_FILE_OK : PSC_FILE_CHECKSUM);
    }
  /* The same bytes are no pipeline record (its kinds are 7, 8). */
  body[0] = PSC_RECIPE_SAMPLER;
  assert_reason (parse (OBJ, a), PSC_FILE_OK);
  assert_reason (parse (PIPE, a), PSC_FILE_BAD_HEADER);
  /* Unknown types are a format version this library cannot read. */
  for (unsigned type = 0; type <= UINT16_MAX; type += type < 16 ? 1 : 997)
    if (type != OBJ && type != PIPE)
      assert_reason (parse ((uint16_t) type, a), PSC_FILE_FORMAT_VERSION);
  PscRecipeRecord r;
  assert_reason (psc_recipe_record_parse (OBJ, NULL, 0, &r), PSC_FILE_TRUNCATED);
  assert_reason (psc_recipe_record_parse (OBJ, NULL, 5, &r), PSC_FILE_TRUNCATED);

  /* Per-kind key bounds: a shader takes 4 MiB, a sampler list 32 ids. */
  body[0] = PSC_RECIPE_SHADER;
  psc_put_le32 (body + 4, PSC_RECIPE_MAX_SPIRV_BYTES + 4);
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  psc_put_le32 (body + 4, PSC_RECIPE_MAX_SPIRV_BYTES);
  assert_reason (parse (OBJ, a), PSC_FILE_TRUNCATED);
  body[0] = PSC_RECIPE_SAMPLER_LIST;
  psc_put_le32 (body + 4, 4 * PSC_RECIPE_MAX_LIST_SAMPLERS + 1);
  assert_reason (parse (OBJ, a), PSC_FILE_OVERSIZED);
  psc_put_le32 (body + 4, 4 * PSC_RECIPE_MAX_LIST_SAMPLERS);
  assert_reason (parse (OBJ, a), PSC_FILE_TRUNCATED);
  g_byte_array_unref (a);
  g_byte_array_unref (k);
}

/* Every prefix is truncated, one byte more is trailing data. */
static void
test_truncated (void)
{
  Family f;
  family_make (&f);
  for (unsigned i = 0; i < f.n; i++)
    {
      PscRecipeRecord r;
      for (size_t len = 0; len < f.rec[i]->len; len++)
        {
          uint8_t *copy = g_memdup2 (f.rec[i]->data, len ? len : 1);
          assert_reason (psc_recipe_record_parse (f.type[i], copy, len, &r), PSC_FILE_TRUNCATED);
          g_free (copy);
        }
      GByteArray *longer = g_byte_array_new ();
      g_byte_array_append (longer, f.rec[i]->data, f.rec[i]->len);
      g_byte_array_append (longer, (const guint8 *) "", 1);
      assert_reason (parse (f.type[i], longer), PSC_FILE_TRAILING_DATA);
      reseal (f.type[i], longer->data, longer->len);
      assert_reason (parse (f.type[i], longer), PSC_FILE_TRAILING_DATA);
      g_byte_array_unref (longer);
    }
  family_free (&f);
}

/* The reason a single-bit flip at byte `at` of a record gives. */
static void
check_flip (uint16_t type, size_t at, PscFileReason why)
{
  const size_t prefix = prefix_of (type);
  if (type == PIPE && at < 8)
    {
      assert_reason (why, PSC_FILE_OK);               /* the stamp */
      return;
    }
  if (at < prefix || at >= prefix + PSC_RECIPE_BODY_HEADER)
    {
      assert_reason (why, PSC_FILE_CHECKSUM);         /* hash, refs, key */
      return;
    }
  const size_t field = at - prefix;
  if (field == 0)                                     /* kind: another kind may fit */
    g_assert_true (why == PSC_FILE_BAD_HEADER || why == PSC_FILE_OVERSIZED
                   || why == PSC_FILE_CHECKSUM);
  else if (field == 1)
    assert_reason (why, PSC_FILE_BAD_HEADER);        /* reserved */
  else
    g_assert_true (why == PSC_FILE_OVERSIZED || why == PSC_FILE_TRUNCATED
                   || why == PSC_FILE_TRAILING_DATA || why == PSC_FILE_BAD_HEADER);
}

static void
test_bit_flips (void)
{
  Family f;
  family_make (&f);
  for (unsigned i = 0; i < f.n; i++)
    {
      PscRecipeRecord r;
      GByteArray *a = f.rec[i];
      assert_reason (psc_recipe_record_parse (f.type[i], a->data, a->len, &r), PSC_FILE_OK);
      for (size_t at = 0; at < a->len; at++)
        for (unsigned bit = 0; bit < 8; bit++)
          {
            a->data[at] ^= (uint8_t) (1u << bit);
            PscRecipeRecord got;
            check_flip (f.type[i], at, psc_recipe_record_parse (f.type[i], a->data, a->len, &got));
            a->data[at] ^= (uint8_t) (1u << bit);
          }
    }
  family_free (&f);
}

/* A structural fault with a correct hash: a bad record. */
static void
expect_resealed (uint16_t type, GByteArray *a, PscFileReason want)
{
  reseal (type, a->data, a->len);
  assert_reason (parse (type, a), want);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  PscFileReason why = PSC_FILE_OK;
  g_assert_cmpint (psc_recipe_book_add (&book, type, a->data, a->len, &why), ==, want == PSC_FILE_OK);
  assert_reason (why, want);
  g_assert_cmpuint (book.count, ==, want == PSC_FILE_OK);
  psc_recipe_book_clear (&book);
}

static void
test_resealed_faults (void)
{
  Family f;
  family_make (&f);
  /* Refs: index of the record, byte in its first ref, value. */
  struct { unsigned rec; size_t at; uint8_t value; } faults[] = {
    { 6, 0, PSC_RECIPE_SAMPLER },        /* graphics names no sampler */
    { 6, 0, PSC_RECIPE_GRAPHICS },       /* nor a pipeline */
    { 6, 0, 0 },
    { 6, 0, 200 },
    { 7, 16, PSC_RECIPE_RENDER_PASS },   /* compute names no pass (second ref) */
    { 6, 1, 1 }, { 6, 2, 1 }, { 6, 3, 0x80 },   /* reserved */
    { 3, 0, PSC_RECIPE_SET_LAYOUT },     /* a set layout names no set layout */
    { 4, 0, PSC_RECIPE_SAMPLER },        /* a pipeline layout names no sampler */
    { 2, 0, PSC_RECIPE_SHADER },         /* a list names samplers only */
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      const unsigned n = faults[i].rec;
      GByteArray *a = g_byte_array_new ();
      g_byte_array_append (a, f.rec[n]->data, f.rec[n]->len);
      a->data[prefix_of (f.type[n]) + PSC_RECIPE_BODY_HEADER + faults[i].at] = faults[i].value;
      expect_resealed (f.type[n], a, PSC_FILE_BAD_RECORD);
      g_byte_array_unref (a);
    }

  /* A ref id of 0; the same kind + id twice. */
  PscRecipeRef refs[3] = { { PSC_RECIPE_SHADER, 1, 1 }, { PSC_RECIPE_SHADER, 0, 2 },
                           { PSC_RECIPE_SHADER, 1, 3 } };
  GByteArray *k = plain_key (40, 1);
  GByteArray *a = record (PIPE, PSC_RECIPE_COMPUTE, 0, refs, 2, k->data, k->len);
  expect_resealed (PIPE, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  refs[1].id = 2;
  a = record (PIPE, PSC_RECIPE_COMPUTE, 0, refs, 3, k->data, k->len);
  expect_resealed (PIPE, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  a = record (PIPE, PSC_RECIPE_COMPUTE, 0, refs, 2, k->data, k->len);
  expect_resealed (PIPE, a, PSC_FILE_OK);
  g_byte_array_unref (a);

  /* Shaders: SPIR-V-shaped keys only. */
  GByteArray *code = spirv_key (5, 1);
  a = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data, code->len);
  expect_resealed (OBJ, a, PSC_FILE_OK);
  g_byte_array_unref (a);
  a = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data, 16);      /* < 20 bytes */
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  a = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data, 19);      /* not words */
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  code->data[0] ^= 1;                                                    /* magic */
  a = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, code->data, code->len);
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);

  /* Sampler lists: non-zero ids, each with a sampler ref, whole words. */
  PscRecipeRef lrefs[1] = { { PSC_RECIPE_SAMPLER, 5, 9 } };
  uint32_t ids[2] = { 5, 5 };
  a = record (OBJ, PSC_RECIPE_SAMPLER_LIST, 0, lrefs, 1, ids, 8);
  expect_resealed (OBJ, a, PSC_FILE_OK);
  g_byte_array_unref (a);
  a = record (OBJ, PSC_RECIPE_SAMPLER_LIST, 0, lrefs, 1, ids, 7);
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  ids[1] = 6;                                                            /* no ref */
  a = record (OBJ, PSC_RECIPE_SAMPLER_LIST, 0, lrefs, 1, ids, 8);
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  ids[1] = 0;
  a = record (OBJ, PSC_RECIPE_SAMPLER_LIST, 0, lrefs, 1, ids, 8);
  expect_resealed (OBJ, a, PSC_FILE_BAD_RECORD);
  g_byte_array_unref (a);
  g_byte_array_unref (code);
  g_byte_array_unref (k);
  family_free (&f);
}

/* PSC_RECIPE_MAX_RECORDS records, then no more; PSC_RECIPE_MAX_BOOK_BYTES. */
static void
test_book_limits (void)
{
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  GByteArray *k = plain_key (24, 0);
  for (uint32_t i = 0; i <= PSC_RECIPE_MAX_RECORDS; i++)
    {
      memcpy (k->data, &i, sizeof i);
      GByteArray *a = record (OBJ, PSC_RECIPE_SAMPLER, 0, NULL, 0, k->data, k->len);
      PscFileReason why = PSC_FILE_OK;
      const bool added = psc_recipe_book_add (&book, OBJ, a->data, a->len, &why);
      g_assert_cmpint (added, ==, i < PSC_RECIPE_MAX_RECORDS);
      assert_reason (why, i < PSC_RECIPE_MAX_RECORDS ? PSC_FILE_OK : PSC_FILE_OVERSIZED);
      g_byte_array_unref (a);
    }
  g_assert_cmpuint (book.count, ==, PSC_RECIPE_MAX_RECORDS);
  /* Every one is found (the index grew with them). */
  for (uint32_t i = 0; i < PSC_RECIPE_MAX_RECORDS; i += 97)
    {
      const PscRecipeRecord *r = &book.records[i];
      g_assert_true (psc_recipe_book_find (&book, OBJ, r->hash) == r);
    }
  /* A duplicate of a stored record is still accepted when full. */
  g_assert_true (psc_recipe_book_add (&book, OBJ, book.records[5].payload, book.records[5].len, NULL));
  psc_recipe_book_clear (&book);
  g_byte_array_unref (k);

  /* Bytes: two 4 MiB shaders do not fit in 8 MiB. */
  GByteArray *c1 = spirv_key (PSC_RECIPE_MAX_SPIRV_BYTES / 4, 1);
  GByteArray *a1 = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, c1->data, c1->len);
  GByteArray *c2 = spirv_key (PSC_RECIPE_MAX_SPIRV_BYTES / 4, 2);
  GByteArray *a2 = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, c2->data, c2->len);
  GByteArray *c3 = spirv_key (PSC_RECIPE_MAX_SPIRV_BYTES / 4 - 8, 3);
  GByteArray *a3 = record (OBJ, PSC_RECIPE_SHADER, 0, NULL, 0, c3->data, c3->len);
  PscFileReason why;
  g_assert_true (psc_recipe_book_add (&book, OBJ, a1->data, a1->len, &why));
  g_assert_false (psc_recipe_book_add (&book, OBJ, a2->data, a2->len, &why));
  assert_reason (why, PSC_FILE_OVERSIZED);
  g_assert_true (psc_recipe_book_add (&book, OBJ, a3->data, a3->len, &why));
  g_assert_cmpuint (book.bytes, <=, PSC_RECIPE_MAX_BOOK_BYTES);
  g_assert_cmpuint (book.count, ==, 2);
  psc_recipe_book_clear (&book);
  g_byte_array_unref (a1);
  g_byte_array_unref (a2);
  g_byte_array_unref (a3);
  g_byte_array_unref (c1);
  g_byte_array_unref (c2);
  g_byte_array_unref (c3);
}

/* Random payloads of every length up to 300 bytes, random lengths in the
 * header, resealed or not: never OK by accident when unsealed, never a
 * crash, only the reasons the header comment lists. */
static void
test_garbage (void)
{
  GRand *rng = g_rand_new_with_seed (3);
  PscRecipeBook book;
  psc_recipe_book_init (&book);
  for (unsigned round = 0; round < 20000; round++)
    {
      const size_t len = g_rand_int_range (rng, 0, 300);
      uint8_t *p = g_malloc (len ? len : 1);
      for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t) g_rand_int (rng);
      const uint16_t type = (uint16_t) g_rand_int_range (rng, 0, 4);
      const size_t prefix = prefix_of (type);
      if (len >= prefix + PSC_RECIPE_BODY_HEADER && (round & 1))
        {
          /* Plausible headers, so the checks after them are reached. */
          uint8_t *body = p + prefix;
          body[0] = (uint8_t) g_rand_int_range (rng, 1, 9);
          body[1] = 0;
          const size_t room = len - prefix - PSC_RECIPE_BODY_HEADER;
          body[2] = (uint8_t) g_rand_int_range (rng, 0, (gint32) (room / 16 + 1));
          body[3] = 0;
          psc_put_le32 (body + 4, (uint32_t) (room - body[2] * 16u));
          if (round & 2)
            reseal (type, p, len);
        }
      PscRecipeRecord r;
      const PscFileReason why = psc_recipe_record_parse (type, p, len, &r);
      g_assert_true (why == PSC_FILE_OK || why == PSC_FILE_FORMAT_VERSION
                     || why == PSC_FILE_TRUNCATED || why == PSC_FILE_TRAILING_DATA
                     || why == PSC_FILE_BAD_HEADER || why == PSC_FILE_OVERSIZED
                     || why == PSC_FILE_CHECKSUM || why == PSC_FILE_BAD_RECORD);
      if (why == PSC_FILE_OK)
        {
          g_assert_true (round & 2);
          g_assert_true (r.key >= p && r.key + r.key_len == p + len);
          g_assert_true (psc_recipe_book_add (&book, type, p, len, NULL));
        }
      g_free (p);
    }
  g_assert_cmpuint (book.count, >, 0);
  psc_recipe_book_clear (&book);
  g_rand_free (rng);
}

static void
test_map (void)
{
  PscRecipeMap m = { 0 };
  uint64_t v;
  g_assert_false (psc_recipe_map_get (&m, 0, &v));
  for (uint64_t i = 0; i < 10000; i++)
    g_assert_true (psc_recipe_map_put (&m, i * UINT64_C (0x100000000), i + 1));
  g_assert_true (psc_recipe_map_put (&m, 0, 77));
  g_assert_cmpuint (m.count, ==, 10000);
  g_assert_true (psc_recipe_map_get (&m, 0, &v) && v == 77);
  for (uint64_t i = 1; i < 10000; i++)
    g_assert_true (psc_recipe_map_get (&m, i * UINT64_C (0x100000000), &v) && v == i + 1);
  g_assert_false (psc_recipe_map_get (&m, 12345, &v));
  psc_recipe_map_clear (&m);
  g_assert_false (psc_recipe_map_get (&m, 0, &v));
}

/* ---------------------------------------------------------------------------
 * The fuzz corpus (see fuzz-recipe-record.c for the input format): byte 0
 * the mode, then records as u32 length + payload, each fed as every type.
 */
static void
seed_append (GByteArray *seed, const GByteArray *payload)
{
  uint8_t len[4];
  psc_put_le32 (len, payload->len);
  g_byte_array_append (seed, len, 4);
  g_byte_array_append (seed, payload->data, payload->len);
}

static void
seed_write (const char *dir, const char *name, unsigned mode, GByteArray *const *recs, unsigned n)
{
  GByteArray *seed = g_byte_array_new ();
  const uint8_t m = (uint8_t) mode;
  g_byte_array_append (seed, &m, 1);
  for (unsigned i = 0; i < n; i++)
    seed_append (seed, recs[i]);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_file_set_contents (path, (const char *) seed->data, seed->len, &error))
    g_error ("%s", error->message);
  g_byte_array_unref (seed);
}

static int
write_corpus (const char *dir)
{
  Family f;
  family_make (&f);
  seed_write (dir, "family", 0, f.rec, f.n);
  seed_write (dir, "family-decoded", 2, f.rec, f.n);
  for (unsigned i = 0; i < f.n; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "one-%s", psc_recipe_kind_name (f.rec[i]->data[prefix_of (f.type[i])]));
      seed_write (dir, name, 0, &f.rec[i], 1);
    }
  GByteArray *twice[2] = { f.rec[6], f.rec[6] };
  seed_write (dir, "duplicate", 0, twice, 2);
  GByteArray *cut = g_byte_array_new ();
  g_byte_array_append (cut, f.rec[3]->data, f.rec[3]->len - 3);
  seed_write (dir, "truncated", 0, &cut, 1);
  GByteArray *bad = g_byte_array_new ();
  g_byte_array_append (bad, f.rec[6]->data, f.rec[6]->len);
  bad->data[16 + PSC_RECIPE_BODY_HEADER] = PSC_RECIPE_SAMPLER;
  seed_write (dir, "bad-ref-resealed", 1, &bad, 1);
  seed_write (dir, "bad-ref-checksum", 0, &bad, 1);
  psc_put_le32 (bad->data + 16 + 4, PSC_RECIPE_MAX_KEY_BYTES + 1);
  seed_write (dir, "oversized-key", 1, &bad, 1);
  seed_write (dir, "empty", 0, NULL, 0);
  g_byte_array_unref (cut);
  g_byte_array_unref (bad);
  family_free (&f);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-corpus") == 0)
    return write_corpus (argv[2]);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recipe-record/round-trip", test_round_trip);
  g_test_add_func ("/recipe-record/duplicates", test_duplicates);
  g_test_add_func ("/recipe-record/writer-bounds", test_writer_bounds);
  g_test_add_func ("/recipe-record/reader-bounds", test_reader_bounds);
  g_test_add_func ("/recipe-record/truncated", test_truncated);
  g_test_add_func ("/recipe-record/bit-flips", test_bit_flips);
  g_test_add_func ("/recipe-record/resealed-faults", test_resealed_faults);
  g_test_add_func ("/recipe-record/book-limits", test_book_limits);
  g_test_add_func ("/recipe-record/garbage", test_garbage);
  g_test_add_func ("/recipe-record/map", test_map);
  return g_test_run ();
}
