/* test-spirv.c: the SPIR-V specialization-constant parser (core/spirv.c)
 * on hand-built word arrays (every malformed shape, every scalar width)
 * and on real modules compiled by glslangValidator at build time.
 *
 * Every module is parsed from a heap copy of exactly its size, so that a
 * read past the end is an AddressSanitizer error in the sanitizer build.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "spirv.h"

#include "spec-scalars.comp.h"
#include "spec-widths.comp.h"
#include "spec-graphics.vert.h"
#include "no-spec.frag.h"

/* SPIR-V numbers, written out again from the specification (not taken
 * from spirv.h, so that a wrong number there fails here). */
enum {
  OP_CAPABILITY = 17, OP_MEMORY_MODEL = 14, OP_TYPE_VOID = 19,
  OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23,
  OP_CONSTANT = 43, OP_SPEC_CONSTANT_TRUE = 48, OP_SPEC_CONSTANT_FALSE = 49,
  OP_SPEC_CONSTANT = 50, OP_SPEC_CONSTANT_COMPOSITE = 51, OP_DECORATE = 71,
  OP_DECORATION_GROUP = 73, OP_GROUP_DECORATE = 74,
  DECORATION_SPEC_ID = 1, DECORATION_BINDING = 33,
  MAGIC = 0x07230203,
};

/* ===========================================================================
 * A module builder: the header, then instructions appended one by one.
 */
typedef struct {
  uint32_t w[1024];
  size_t n;
} Module;

static void
mod_init (Module *m, uint32_t bound)
{
  m->n = 0;
  m->w[m->n++] = MAGIC;
  m->w[m->n++] = 0x00010000;          /* version 1.0 */
  m->w[m->n++] = 0;                   /* generator */
  m->w[m->n++] = bound;
  m->w[m->n++] = 0;                   /* schema */
}

/* Appends an instruction of 1 + n words; returns its word offset. */
static size_t
mod_op (Module *m, uint32_t op, unsigned n, ...)
{
  g_assert_cmpuint (m->n + 1 + n, <=, G_N_ELEMENTS (m->w));
  const size_t at = m->n;
  m->w[m->n++] = (1u + n) << 16 | op;
  va_list ap;
  va_start (ap, n);
  for (unsigned i = 0; i < n; i++)
    m->w[m->n++] = va_arg (ap, uint32_t);
  va_end (ap);
  return at;
}

/* The usual preamble: OpCapability Shader, OpMemoryModel Logical GLSL450. */
static void
mod_preamble (Module *m, uint32_t bound)
{
  mod_init (m, bound);
  mod_op (m, OP_CAPABILITY, 1, 1u);
  mod_op (m, OP_MEMORY_MODEL, 2, 0u, 1u);
}

/* Parses size bytes of words from an exact-size heap copy. */
static PscStatus
parse (const uint32_t *words, size_t size, PscSpecConstant **out, uint32_t *count,
       PscCoreError *err)
{
  void *copy = size ? g_memdup2 (words, size) : g_malloc (1);
  PscStatus st = psc_spirv_spec_constants (copy, size, out, count, err);
  g_free (copy);
  return st;
}

static void
assert_table (const PscSpecConstant *got, uint32_t count, const PscSpecConstant *want,
              uint32_t want_count)
{
  g_assert_cmpuint (count, ==, want_count);
  for (uint32_t i = 0; i < count; i++)
    {
      g_assert_cmpuint (got[i].constant_id, ==, want[i].constant_id);
      g_assert_cmpuint (got[i].size, ==, want[i].size);
    }
}

/* Parses m and expects exactly this table. */
static void
assert_parses (const Module *m, const PscSpecConstant *want, uint32_t want_count)
{
  PscSpecConstant *out = (PscSpecConstant *) 1;
  uint32_t count = 99;
  PscCoreError err;
  memset (&err, 0, sizeof err);
  PscStatus st = parse (m->w, m->n * 4, &out, &count, &err);
  if (st != PSC_STATUS_OK)
    g_error ("parse failed: %s", err.message);
  if (want_count == 0)
    g_assert_null (out);
  assert_table (out, count, want, want_count);
  free (out);
}

/* Expects a rejection with this status, path and message "<path>: <detail>";
 * *out and *count are cleared; err == NULL gives the same status. */
static void G_GNUC_PRINTF (6, 7)
assert_rejects_impl (int line, const uint32_t *words, size_t size, PscStatus want_status,
                     const char *want_path, const char *detail_fmt, ...)
{
  va_list ap;
  va_start (ap, detail_fmt);
  char *detail = g_strdup_vprintf (detail_fmt, ap);
  va_end (ap);
  char *want = g_strdup_printf ("%s: %s", want_path, detail);
  PscSpecConstant *out = (PscSpecConstant *) 1;
  uint32_t count = 99;
  PscCoreError err;
  memset (&err, 0, sizeof err);
  PscStatus st = parse (words, size, &out, &count, &err);
  if (st != want_status || err.status != want_status || strcmp (err.path, want_path) != 0
      || strcmp (err.message, want) != 0)
    g_error ("line %d: want %d \"%s\", got %d \"%s\"", line, want_status, want, st, err.message);
  g_assert_null (out);
  g_assert_cmpuint (count, ==, 0);
  g_assert_cmpint (parse (words, size, &out, &count, NULL), ==, want_status);
  g_free (detail);
  g_free (want);
}
#define assert_rejects(m, path, ...)                                             \
  assert_rejects_impl (__LINE__, (m)->w, (m)->n * 4, PSC_STATUS_INVALID_ARGUMENT, (path),   \
                       __VA_ARGS__)

static char *
at (size_t offset)
{
  static char buf[32];
  snprintf (buf, sizeof buf, "pCode[%zu]", offset);
  return buf;
}

/* ===========================================================================
 * The header and the framing of instructions.
 */
static void
test_header (void)
{
  g_assert_cmpuint (PSC_SPIRV_MAGIC, ==, MAGIC);
  Module m;
  mod_preamble (&m, 10);
  assert_parses (&m, NULL, 0);

  PscSpecConstant *out;
  uint32_t count;
  assert_rejects_impl (__LINE__, NULL, 20, PSC_STATUS_INVALID_ARGUMENT, "pCode", "NULL");
  g_assert_cmpint (psc_spirv_spec_constants (NULL, 20, &out, &count, NULL), ==,
                   PSC_STATUS_INVALID_ARGUMENT);
  assert_rejects_impl (__LINE__, m.w, 21, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                       "21 is not a multiple of 4");
  /* A truncated header, down to nothing. */
  for (size_t words = 0; words < 5; words++)
    assert_rejects_impl (__LINE__, m.w, words * 4, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                         "%zu is shorter than the 20-byte SPIR-V header", words * 4);
  /* The header alone is a module without instructions. */
  Module h;
  mod_init (&h, 1);
  assert_parses (&h, NULL, 0);

  m.w[0] = 0x07230204;
  assert_rejects (&m, "pCode[0]", "0x07230204 is not the SPIR-V magic number 0x07230203");
  m.w[0] = 0x03022307;
  assert_rejects (&m, "pCode[0]",
                  "0x03022307 is the SPIR-V magic number in the other byte order (not supported)");
  m.w[0] = MAGIC;
  m.w[3] = 0;
  assert_rejects (&m, "pCode[3]", "id bound 0 (every id must be below it)");
  /* Version, generator and schema are not judged. */
  mod_preamble (&m, 10);
  m.w[1] = 0xffffffff;
  m.w[2] = 0x12345678;
  m.w[4] = 7;
  assert_parses (&m, NULL, 0);
}

static void
test_framing (void)
{
  Module m;
  /* A word count of 0, anywhere (here the third instruction). */
  mod_preamble (&m, 10);
  const size_t zero = m.n;
  m.w[m.n++] = 0u << 16 | OP_TYPE_VOID;
  mod_op (&m, OP_TYPE_BOOL, 1, 2u);
  assert_rejects (&m, at (zero), "instruction with a word count of 0 (opcode 19)");

  /* The last instruction runs past the end, by one word or by far. */
  mod_preamble (&m, 10);
  size_t last = mod_op (&m, OP_TYPE_INT, 3, 2u, 32u, 1u);
  m.n--;                                 /* drop its last word */
  assert_rejects (&m, at (last), "instruction of 4 words runs past the end of the code (%zu words)",
                  m.n);
  m.n++;
  m.w[last] = 0xffffu << 16 | OP_TYPE_INT;
  assert_rejects (&m, at (last),
                  "instruction of 65535 words runs past the end of the code (%zu words)", m.n);
  /* ... also an instruction the parser does not read. */
  mod_preamble (&m, 10);
  last = mod_op (&m, 9999, 2, 1u, 2u);
  m.w[last] = 4u << 16 | 9999;
  assert_rejects (&m, at (last), "instruction of 4 words runs past the end of the code (%zu words)",
                  m.n);

  /* Instructions the parser does not read are skipped whole, whatever
   * their operands look like. */
  mod_preamble (&m, 10);
  mod_op (&m, 9999, 3, 0u, 0xffffffffu, (7u << 16) | OP_DECORATE);
  mod_op (&m, OP_TYPE_VOID, 1, 1u);
  mod_op (&m, OP_TYPE_INT, 3, 2u, 32u, 0u);
  mod_op (&m, OP_DECORATE, 2, 3u, DECORATION_BINDING);   /* Binding without its operand: not read */
  mod_op (&m, OP_DECORATE, 3, 3u, DECORATION_SPEC_ID, 4u);
  mod_op (&m, OP_SPEC_CONSTANT, 3, 2u, 3u, 5u);
  static const PscSpecConstant one[] = { { 4, 4 } };
  assert_parses (&m, one, 1);
}

/* Each instruction the parser reads, one word too short. */
static void
test_short_instructions (void)
{
  static const struct {
    uint32_t op;
    unsigned operands;           /* one fewer than it needs */
    const char *name;
    unsigned needs;
  } cases[] = {
    { OP_TYPE_BOOL, 0, "OpTypeBool", 2 },
    { OP_TYPE_INT, 2, "OpTypeInt", 4 },
    { OP_TYPE_FLOAT, 1, "OpTypeFloat", 3 },
    { OP_SPEC_CONSTANT_TRUE, 1, "OpSpecConstantTrue", 3 },
    { OP_SPEC_CONSTANT_FALSE, 1, "OpSpecConstantFalse", 3 },
    { OP_SPEC_CONSTANT, 2, "OpSpecConstant", 4 },
    { OP_DECORATE, 1, "OpDecorate", 3 },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Module m;
      mod_preamble (&m, 10);
      const size_t where = m.n;
      m.w[m.n++] = (1u + cases[i].operands) << 16 | cases[i].op;
      for (unsigned j = 0; j < cases[i].operands; j++)
        m.w[m.n++] = 1 + j;
      mod_op (&m, OP_TYPE_VOID, 1, 9u);    /* something after it */
      assert_rejects (&m, at (where), "%s of %u words (at least %u)", cases[i].name,
                      1 + cases[i].operands, cases[i].needs);
    }
  Module m;
  mod_preamble (&m, 10);
  const size_t where = mod_op (&m, OP_DECORATE, 2, 3u, DECORATION_SPEC_ID);
  mod_op (&m, OP_TYPE_VOID, 1, 9u);
  assert_rejects (&m, at (where), "OpDecorate SpecId of 3 words (at least 4)");
}

/* Ids the parser reads must be 1 .. bound - 1. */
static void
test_ids (void)
{
  Module m;
  mod_preamble (&m, 8);
  size_t where = mod_op (&m, OP_TYPE_INT, 3, 8u, 32u, 0u);
  assert_rejects (&m, at (where), "id 8 is outside 1..7 (the header's id bound is 8)");
  mod_preamble (&m, 8);
  where = mod_op (&m, OP_TYPE_BOOL, 1, 0u);
  assert_rejects (&m, at (where), "id 0 is outside 1..7 (the header's id bound is 8)");
  mod_preamble (&m, 8);
  mod_op (&m, OP_TYPE_INT, 3, 2u, 32u, 0u);
  where = mod_op (&m, OP_SPEC_CONSTANT, 3, 9u, 3u, 1u);       /* result type */
  assert_rejects (&m, at (where), "id 9 is outside 1..7 (the header's id bound is 8)");
  mod_preamble (&m, 8);
  where = mod_op (&m, OP_DECORATE, 3, 0xffffffffu, DECORATION_SPEC_ID, 1u);
  assert_rejects (&m, at (where),
                  "id 4294967295 is outside 1..7 (the header's id bound is 8)");
  /* A decoration other than SpecId is not read, whatever its target. */
  mod_preamble (&m, 8);
  mod_op (&m, OP_DECORATE, 3, 0xffffffffu, DECORATION_BINDING, 1u);
  assert_parses (&m, NULL, 0);

  /* A huge id bound is only a number: nothing is sized by it. */
  mod_preamble (&m, 0xffffffffu);
  mod_op (&m, OP_TYPE_INT, 3, 0xfffffff0u, 32u, 0u);
  mod_op (&m, OP_DECORATE, 3, 0xfffffffeu, DECORATION_SPEC_ID, 1u);
  mod_op (&m, OP_SPEC_CONSTANT, 3, 0xfffffff0u, 0xfffffffeu, 1u);
  static const PscSpecConstant one[] = { { 1, 4 } };
  assert_parses (&m, one, 1);
}

/* ===========================================================================
 * Joining decorations, constants and types.
 */

/* Types %1 bool, %2 int8, %3 uint16, %4 int32, %5 uint64, %6 half,
 * %7 float, %8 double. */
static void
mod_types (Module *m)
{
  mod_op (m, OP_TYPE_BOOL, 1, 1u);
  mod_op (m, OP_TYPE_INT, 3, 2u, 8u, 1u);
  mod_op (m, OP_TYPE_INT, 3, 3u, 16u, 0u);
  mod_op (m, OP_TYPE_INT, 3, 4u, 32u, 1u);
  mod_op (m, OP_TYPE_INT, 3, 5u, 64u, 0u);
  mod_op (m, OP_TYPE_FLOAT, 2, 6u, 16u);
  mod_op (m, OP_TYPE_FLOAT, 2, 7u, 32u);
  mod_op (m, OP_TYPE_FLOAT, 2, 8u, 64u);
}

static void
test_scalar_types (void)
{
  Module m;
  mod_preamble (&m, 100);
  /* Decorations before and after the constants, IDs in no order. */
  mod_op (&m, OP_DECORATE, 3, 20u, DECORATION_SPEC_ID, 9u);
  mod_op (&m, OP_DECORATE, 3, 21u, DECORATION_SPEC_ID, 2u);
  mod_types (&m);
  mod_op (&m, OP_SPEC_CONSTANT_TRUE, 2, 1u, 20u);
  mod_op (&m, OP_SPEC_CONSTANT_FALSE, 2, 1u, 21u);
  mod_op (&m, OP_SPEC_CONSTANT, 3, 2u, 22u, 1u);            /* int8 */
  mod_op (&m, OP_SPEC_CONSTANT, 3, 3u, 23u, 1u);            /* uint16 */
  mod_op (&m, OP_SPEC_CONSTANT, 3, 4u, 24u, 1u);            /* int32 */
  mod_op (&m, OP_SPEC_CONSTANT, 4, 5u, 25u, 1u, 0u);        /* uint64: two value words */
  mod_op (&m, OP_SPEC_CONSTANT, 3, 6u, 26u, 0x3800u);       /* half */
  mod_op (&m, OP_SPEC_CONSTANT, 3, 7u, 27u, 0x3f800000u);   /* float */
  mod_op (&m, OP_SPEC_CONSTANT, 4, 8u, 28u, 0u, 0x3ff00000u); /* double */
  mod_op (&m, OP_SPEC_CONSTANT, 3, 4u, 29u, 5u);            /* no SpecId: not a map target */
  mod_op (&m, OP_DECORATE, 3, 22u, DECORATION_SPEC_ID, 1000u);
  mod_op (&m, OP_DECORATE, 3, 23u, DECORATION_SPEC_ID, 0u);
  mod_op (&m, OP_DECORATE, 3, 24u, DECORATION_SPEC_ID, 7u);
  mod_op (&m, OP_DECORATE, 3, 25u, DECORATION_SPEC_ID, 3u);
  mod_op (&m, OP_DECORATE, 3, 26u, DECORATION_SPEC_ID, 0xffffffffu);
  mod_op (&m, OP_DECORATE, 3, 27u, DECORATION_SPEC_ID, 5u);
  mod_op (&m, OP_DECORATE, 3, 28u, DECORATION_SPEC_ID, 4u);
  static const PscSpecConstant want[] = {
    { 0, 2 }, { 2, 4 }, { 3, 8 }, { 4, 8 }, { 5, 4 }, { 7, 4 }, { 9, 4 }, { 1000, 1 },
    { 0xffffffffu, 2 },
  };
  assert_parses (&m, want, G_N_ELEMENTS (want));
}

static void
test_not_scalar_constants (void)
{
  Module m;
  /* SpecId on an undefined id. */
  mod_preamble (&m, 100);
  mod_types (&m);
  size_t where = mod_op (&m, OP_DECORATE, 3, 40u, DECORATION_SPEC_ID, 3u);
  const char *const not_scalar = "SpecId %u decorates %%%u, which is not a scalar specialization "
                                 "constant (OpSpecConstantTrue, OpSpecConstantFalse or "
                                 "OpSpecConstant)";
  assert_rejects (&m, at (where), not_scalar, 3u, 40u);
  /* ... on a type, a plain constant, a composite, a decoration group. */
  static const struct { uint32_t op; unsigned n; uint32_t a, b, c; } targets[] = {
    { OP_TYPE_VECTOR, 3, 40, 7, 4 },
    { OP_CONSTANT, 3, 4, 40, 1 },
    { OP_SPEC_CONSTANT_COMPOSITE, 3, 7, 40, 41 },
    { OP_DECORATION_GROUP, 1, 40, 0, 0 },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      mod_preamble (&m, 100);
      where = mod_op (&m, OP_DECORATE, 3, 40u, DECORATION_SPEC_ID, 3u);
      mod_types (&m);
      mod_op (&m, OP_SPEC_CONSTANT, 3, 7u, 41u, 0u);
      if (targets[i].n == 1)
        mod_op (&m, targets[i].op, 1, targets[i].a);
      else
        mod_op (&m, targets[i].op, 3, targets[i].a, targets[i].b, targets[i].c);
      if (targets[i].op == OP_DECORATION_GROUP)
        mod_op (&m, OP_GROUP_DECORATE, 2, 40u, 41u);
      assert_rejects (&m, at (where), not_scalar, 3u, 40u);
    }

  /* Result types that do not fit the constant. */
  mod_preamble (&m, 100);
  mod_types (&m);
  mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 1u);
  where = mod_op (&m, OP_SPEC_CONSTANT_TRUE, 2, 4u, 30u);
  assert_rejects (&m, at (where), "the result type %%4 of OpSpecConstantTrue %%30 is not an OpTypeBool");
  mod_preamble (&m, 100);
  mod_types (&m);
  mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 1u);
  where = mod_op (&m, OP_SPEC_CONSTANT_FALSE, 2, 50u, 30u);   /* undefined type */
  assert_rejects (&m, at (where), "the result type %%50 of OpSpecConstantFalse %%30 is not an OpTypeBool");
  mod_preamble (&m, 100);
  mod_types (&m);
  mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 1u);
  where = mod_op (&m, OP_SPEC_CONSTANT, 3, 1u, 30u, 1u);       /* a bool OpSpecConstant */
  assert_rejects (&m, at (where),
                  "the result type %%1 of OpSpecConstant %%30 is not an OpTypeInt or OpTypeFloat");
  mod_preamble (&m, 100);
  mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 1u);
  where = mod_op (&m, OP_SPEC_CONSTANT, 3, 60u, 30u, 1u);      /* undefined type */
  assert_rejects (&m, at (where),
                  "the result type %%60 of OpSpecConstant %%30 is not an OpTypeInt or OpTypeFloat");
  /* Widths that are not 8, 16, 32 or 64 bits. */
  static const struct { uint32_t op, width; const char *name; } widths[] = {
    { OP_TYPE_INT, 24, "OpTypeInt" }, { OP_TYPE_INT, 0, "OpTypeInt" },
    { OP_TYPE_INT, 128, "OpTypeInt" }, { OP_TYPE_FLOAT, 1, "OpTypeFloat" },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      mod_preamble (&m, 100);
      where = widths[i].op == OP_TYPE_INT ? mod_op (&m, OP_TYPE_INT, 3, 9u, widths[i].width, 0u)
                                          : mod_op (&m, OP_TYPE_FLOAT, 2, 9u, widths[i].width);
      mod_op (&m, OP_SPEC_CONSTANT, 3, 9u, 30u, 1u);
      mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 6u);
      assert_rejects (&m, at (where), "%s of width %u: specialization constant %%30 (SpecId 6) "
                      "must be 8, 16, 32 or 64 bits", widths[i].name, widths[i].width);
    }
  /* ... which matter only for a constant with a SpecId. */
  mod_preamble (&m, 100);
  mod_op (&m, OP_TYPE_INT, 3, 9u, 24u, 0u);
  mod_op (&m, OP_SPEC_CONSTANT, 3, 9u, 30u, 1u);
  assert_parses (&m, NULL, 0);
}

static void
test_duplicates (void)
{
  Module m;
  /* One constant, two SpecIds. */
  mod_preamble (&m, 100);
  mod_types (&m);
  const size_t first = mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 1u);
  mod_op (&m, OP_SPEC_CONSTANT, 3, 4u, 30u, 1u);
  size_t second = mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 2u);
  char *msg = g_strdup_printf ("%%30 has a second SpecId decoration (the first is at pCode[%zu])",
                               first);
  assert_rejects (&m, at (second), "%s", msg);
  g_free (msg);
  /* ... even with the same value. */
  m.w[second + 3] = 1;
  msg = g_strdup_printf ("%%30 has a second SpecId decoration (the first is at pCode[%zu])", first);
  assert_rejects (&m, at (second), "%s", msg);
  g_free (msg);

  /* One SpecId, two constants (of different sizes, or the same). */
  for (int same = 0; same < 2; same++)
    {
      mod_preamble (&m, 100);
      mod_types (&m);
      mod_op (&m, OP_SPEC_CONSTANT, 3, 4u, 30u, 1u);
      mod_op (&m, OP_SPEC_CONSTANT, 3, same ? 4u : 8u, 31u, 1u);
      const size_t a = mod_op (&m, OP_DECORATE, 3, 30u, DECORATION_SPEC_ID, 3u);
      const size_t b = mod_op (&m, OP_DECORATE, 3, 31u, DECORATION_SPEC_ID, 3u);
      msg = g_strdup_printf ("SpecId 3 is used twice (first at pCode[%zu])", a);
      assert_rejects (&m, at (b), "%s", msg);
      g_free (msg);
    }

  /* A result id defined twice (types, constants). */
  mod_preamble (&m, 100);
  const size_t t1 = mod_op (&m, OP_TYPE_INT, 3, 4u, 32u, 0u);
  const size_t t2 = mod_op (&m, OP_TYPE_FLOAT, 2, 4u, 64u);
  msg = g_strdup_printf ("result id 4 is defined twice (first at pCode[%zu])", t1);
  assert_rejects (&m, at (t2), "%s", msg);
  g_free (msg);
  mod_preamble (&m, 100);
  mod_types (&m);
  const size_t c1 = mod_op (&m, OP_SPEC_CONSTANT, 3, 4u, 30u, 1u);
  const size_t c2 = mod_op (&m, OP_SPEC_CONSTANT_TRUE, 2, 1u, 30u);
  msg = g_strdup_printf ("result id 30 is defined twice (first at pCode[%zu])", c1);
  assert_rejects (&m, at (c2), "%s", msg);
  g_free (msg);
}

/* ===========================================================================
 * Real modules from glslangValidator.
 */
typedef struct {
  const char *name;
  const uint32_t *code;
  size_t size;
  PscSpecConstant want[12];
  uint32_t want_count;
} RealModule;

static const RealModule real[] = {
  { "spec-scalars.comp", spec_scalars_comp_spv, sizeof spec_scalars_comp_spv,
    { { 0, 4 }, { 1, 4 }, { 2, 4 }, { 3, 4 }, { 4, 8 }, { 10, 4 } }, 6 },
  { "spec-widths.comp", spec_widths_comp_spv, sizeof spec_widths_comp_spv,
    { { 5, 8 }, { 6, 2 }, { 7, 1 }, { 8, 2 }, { 9, 8 } }, 5 },
  { "spec-graphics.vert", spec_graphics_vert_spv, sizeof spec_graphics_vert_spv,
    { { 0, 4 }, { 3, 4 } }, 2 },
  { "no-spec.frag", no_spec_frag_spv, sizeof no_spec_frag_spv, { { 0, 0 } }, 0 },
};

static void
test_real_modules (void)
{
  for (unsigned i = 0; i < G_N_ELEMENTS (real); i++)
    {
      const RealModule *r = &real[i];
      g_test_message ("%s", r->name);
      PscSpecConstant *out = NULL;
      uint32_t count = 0;
      PscCoreError err;
      if (parse (r->code, r->size, &out, &count, &err) != PSC_STATUS_OK)
        g_error ("%s: %s", r->name, err.message);
      assert_table (out, count, r->want, r->want_count);
      free (out);
    }
}

/* Every prefix of every real module, and every word of it overwritten with
 * a few patterns: each either parses or is refused with a pCode/codeSize
 * path, and never reads outside the code (ASan build). */
static void
test_real_modules_damaged (void)
{
  static const uint32_t patterns[] = { 0, 0xffffffffu, 0x00010000u, 0x00040047u, 0x00040032u };
  unsigned refused = 0, parsed = 0;
  for (unsigned i = 0; i < G_N_ELEMENTS (real); i++)
    {
      const RealModule *r = &real[i];
      for (size_t size = 0; size < r->size; size++)
        {
          PscSpecConstant *out;
          uint32_t count;
          PscCoreError err;
          PscStatus st = parse (r->code, size, &out, &count, &err);
          g_assert_true (st == PSC_STATUS_OK || st == PSC_STATUS_INVALID_ARGUMENT);
          if (st == PSC_STATUS_OK)
            free (out);
          else
            g_assert_true (g_str_has_prefix (err.path, "pCode") || strcmp (err.path, "codeSize") == 0);
          refused += st != PSC_STATUS_OK;
        }
      uint32_t *copy = g_memdup2 (r->code, r->size);
      for (size_t w = 0; w < r->size / 4; w++)
        for (unsigned p = 0; p < G_N_ELEMENTS (patterns); p++)
          {
            const uint32_t saved = copy[w];
            copy[w] = patterns[p];
            PscSpecConstant *out;
            uint32_t count;
            PscStatus st = parse (copy, r->size, &out, &count, NULL);
            g_assert_true (st == PSC_STATUS_OK || st == PSC_STATUS_INVALID_ARGUMENT);
            if (st == PSC_STATUS_OK)
              {
                for (uint32_t k = 1; k < count; k++)
                  g_assert_cmpuint (out[k - 1].constant_id, <, out[k].constant_id);
                free (out);
                parsed++;
              }
            copy[w] = saved;
          }
      g_free (copy);
    }
  g_test_message ("%u prefixes refused, %u damaged modules parsed", refused, parsed);
  g_assert_cmpuint (refused, >, 0);
  g_assert_cmpuint (parsed, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spirv/header", test_header);
  g_test_add_func ("/spirv/framing", test_framing);
  g_test_add_func ("/spirv/short-instructions", test_short_instructions);
  g_test_add_func ("/spirv/ids", test_ids);
  g_test_add_func ("/spirv/scalar-types", test_scalar_types);
  g_test_add_func ("/spirv/not-scalar-constants", test_not_scalar_constants);
  g_test_add_func ("/spirv/duplicates", test_duplicates);
  g_test_add_func ("/spirv/real-modules", test_real_modules);
  g_test_add_func ("/spirv/real-modules-damaged", test_real_modules_damaged);
  return g_test_run ();
}
