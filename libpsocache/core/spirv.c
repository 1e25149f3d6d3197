/* spirv.c: the specialization constants a SPIR-V module declares, from
 * untrusted bytes (contract in spirv.h).
 *
 * Two passes over the instructions. The first frames every instruction
 * (word count, bounds), checks the operands of those it reads and counts
 * them; the second, with arrays of exactly those counts, records them. The
 * records are then joined: decoration -> constant -> type. Nothing is
 * indexed by id, so memory follows the instruction count, not the id bound
 * the module claims.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "spirv.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* OpDecorate <target> SpecId <spec_id> */
typedef struct {
  uint32_t target, spec_id;
  size_t at;                    /* word offset of the instruction */
} Decoration;

/* OpTypeBool / OpTypeInt / OpTypeFloat */
typedef struct {
  uint32_t id, op, width;       /* width: 0 for a bool */
  size_t at;
} Type;

/* OpSpecConstantTrue / OpSpecConstantFalse / OpSpecConstant */
typedef struct {
  uint32_t id, type, op;
  size_t at;
} Constant;

/* A joined constant, before the output. */
typedef struct {
  uint32_t spec_id, size;
  size_t at;                    /* its OpDecorate */
} Joined;

/* bsearch finds types and constants by their first member. */
_Static_assert (offsetof (Type, id) == 0 && offsetof (Constant, id) == 0, "find_id");

typedef struct {
  const uint32_t *code;
  size_t words;
  uint32_t bound;
  /* NULL in the counting pass; then arrays of the counts it found. */
  Decoration *decorations;
  Type *types;
  Constant *constants;
  size_t n_decorations, n_types, n_constants;
  size_t cap_decorations, cap_types, cap_constants;
} Module;

static __attribute__((cold, format (printf, 3, 4))) PscStatus
fail_at (PscCoreError *err, size_t at, const char *fmt, ...)
{
  char path[32], detail[192];
  snprintf (path, sizeof path, "pCode[%zu]", at);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (detail, sizeof detail, fmt, ap);
  va_end (ap);
  return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, path, "%s", detail);
}

static const char *
op_name (uint32_t op)
{
  switch (op)
    {
    case PSC_SPIRV_OP_TYPE_BOOL: return "OpTypeBool";
    case PSC_SPIRV_OP_TYPE_INT: return "OpTypeInt";
    case PSC_SPIRV_OP_TYPE_FLOAT: return "OpTypeFloat";
    case PSC_SPIRV_OP_SPEC_CONSTANT_TRUE: return "OpSpecConstantTrue";
    case PSC_SPIRV_OP_SPEC_CONSTANT_FALSE: return "OpSpecConstantFalse";
    case PSC_SPIRV_OP_SPEC_CONSTANT: return "OpSpecConstant";
    case PSC_SPIRV_OP_DECORATE: return "OpDecorate";
    default: return "?";
    }
}

/* The fewest words an instruction the parser reads must have (its operands
 * up to the last one read); 0 for instructions it does not read. */
static uint32_t
min_words (uint32_t op)
{
  switch (op)
    {
    case PSC_SPIRV_OP_TYPE_BOOL: return 2;             /* result */
    case PSC_SPIRV_OP_TYPE_INT: return 4;              /* result, width, signedness */
    case PSC_SPIRV_OP_TYPE_FLOAT: return 3;            /* result, width */
    case PSC_SPIRV_OP_SPEC_CONSTANT_TRUE:
    case PSC_SPIRV_OP_SPEC_CONSTANT_FALSE: return 3;   /* result type, result */
    case PSC_SPIRV_OP_SPEC_CONSTANT: return 4;         /* result type, result, value */
    case PSC_SPIRV_OP_DECORATE: return 3;              /* target, decoration */
    default: return 0;
    }
}

/* The second pass found more than the first: the code changed under the
 * parser (the caller broke the contract; never write past the arrays). */
static __attribute__((cold)) PscStatus
changed (PscCoreError *err)
{
  return psc_core_fail (err, PSC_STATUS_FAILED, "pCode", "changed while it was parsed");
}

static PscStatus
check_id (const Module *m, size_t at, uint32_t id, PscCoreError *err)
{
  if (id == 0 || id >= m->bound)
    return fail_at (err, at, "id %u is outside 1..%u (the header's id bound is %u)", id,
                    m->bound - 1, m->bound);
  return PSC_STATUS_OK;
}

/* One instruction the parser reads, at word `at`, of `wc` words (framed by
 * the caller): operands checked; recorded in the second pass. */
static PscStatus
read_instruction (Module *m, size_t at, uint32_t op, uint32_t wc, PscCoreError *err)
{
  const uint32_t *w = m->code + at;
  PscStatus st;
  if (wc < min_words (op))
    return fail_at (err, at, "%s of %u words (at least %u)", op_name (op), wc, min_words (op));
  switch (op)
    {
    case PSC_SPIRV_OP_DECORATE:
      if (w[2] != PSC_SPIRV_DECORATION_SPEC_ID)
        return PSC_STATUS_OK;
      if (wc < 4)
        return fail_at (err, at, "OpDecorate SpecId of %u words (at least 4)", wc);
      if ((st = check_id (m, at, w[1], err)) != PSC_STATUS_OK)
        return st;
      if (m->decorations != NULL)
        {
          if (m->n_decorations == m->cap_decorations)
            return changed (err);
          m->decorations[m->n_decorations] = (Decoration) { w[1], w[3], at };
        }
      m->n_decorations++;
      return PSC_STATUS_OK;
    case PSC_SPIRV_OP_TYPE_BOOL:
    case PSC_SPIRV_OP_TYPE_INT:
    case PSC_SPIRV_OP_TYPE_FLOAT:
      if ((st = check_id (m, at, w[1], err)) != PSC_STATUS_OK)
        return st;
      if (m->types != NULL)
        {
          if (m->n_types == m->cap_types)
            return changed (err);
          m->types[m->n_types] = (Type) { w[1], op, op == PSC_SPIRV_OP_TYPE_BOOL ? 0 : w[2], at };
        }
      m->n_types++;
      return PSC_STATUS_OK;
    default:                  /* the three specialization constants */
      if ((st = check_id (m, at, w[1], err)) != PSC_STATUS_OK
          || (st = check_id (m, at, w[2], err)) != PSC_STATUS_OK)
        return st;
      if (m->constants != NULL)
        {
          if (m->n_constants == m->cap_constants)
            return changed (err);
          m->constants[m->n_constants] = (Constant) { w[2], w[1], op, at };
        }
      m->n_constants++;
      return PSC_STATUS_OK;
    }
}

/* Frames every instruction after the header: a word count of at least 1
 * that stays inside the code. */
static PscStatus
walk (Module *m, PscCoreError *err)
{
  m->n_decorations = m->n_types = m->n_constants = 0;
  size_t at = PSC_SPIRV_HEADER_WORDS;
  while (at < m->words)
    {
      const uint32_t wc = m->code[at] >> 16, op = m->code[at] & 0xffffu;
      if (wc == 0)
        return fail_at (err, at, "instruction with a word count of 0 (opcode %u)", op);
      if (wc > m->words - at)
        return fail_at (err, at, "instruction of %u words runs past the end of the code "
                        "(%zu words)", wc, m->words);
      if (min_words (op) != 0)
        {
          PscStatus st = read_instruction (m, at, op, wc, err);
          if (st != PSC_STATUS_OK)
            return st;
        }
      at += wc;
    }
  return PSC_STATUS_OK;
}

static PscStatus
check_header (const uint32_t *code, size_t size, PscCoreError *err)
{
  if (code == NULL)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "pCode", "NULL");
  if (size % 4 != 0)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                          "%zu is not a multiple of 4", size);
  if (size / 4 > UINT32_MAX)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                          "%zu is more than 2^32 words", size);
  if (size < PSC_SPIRV_HEADER_WORDS * 4)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "codeSize",
                          "%zu is shorter than the %d-byte SPIR-V header", size,
                          PSC_SPIRV_HEADER_WORDS * 4);
  if (code[0] == __builtin_bswap32 (PSC_SPIRV_MAGIC))
    return fail_at (err, 0, "0x%08x is the SPIR-V magic number in the other byte order "
                    "(not supported)", code[0]);
  if (code[0] != PSC_SPIRV_MAGIC)
    return fail_at (err, 0, "0x%08x is not the SPIR-V magic number 0x%08x", code[0],
                    PSC_SPIRV_MAGIC);
  if (code[3] == 0)
    return fail_at (err, 3, "id bound 0 (every id must be below it)");
  return PSC_STATUS_OK;
}

/* qsort orders: by id (or target, or SpecId), then by position, so every
 * report names the same two instructions whatever qsort does with ties. */
#define BY_KEY_THEN_AT(name, T, key)                                             \
  static int name (const void *pa, const void *pb)                               \
  {                                                                              \
    const T *a = pa, *b = pb;                                                    \
    if (a->key != b->key)                                                        \
      return a->key < b->key ? -1 : 1;                                           \
    return (a->at > b->at) - (a->at < b->at);                                    \
  }
BY_KEY_THEN_AT (type_order, Type, id)
BY_KEY_THEN_AT (constant_order, Constant, id)
BY_KEY_THEN_AT (decoration_order, Decoration, target)
BY_KEY_THEN_AT (joined_order, Joined, spec_id)

static int
decoration_position (const void *pa, const void *pb)
{
  const Decoration *a = pa, *b = pb;
  return (a->at > b->at) - (a->at < b->at);
}

/* Sorts the types and constants by id and refuses an id defined twice. */
static PscStatus
index_definitions (Module *m, PscCoreError *err)
{
  qsort (m->types, m->n_types, sizeof *m->types, type_order);
  qsort (m->constants, m->n_constants, sizeof *m->constants, constant_order);
  for (size_t i = 1; i < m->n_types; i++)
    if (m->types[i].id == m->types[i - 1].id)
      return fail_at (err, m->types[i].at, "result id %u is defined twice (first at pCode[%zu])",
                      m->types[i].id, m->types[i - 1].at);
  for (size_t i = 1; i < m->n_constants; i++)
    if (m->constants[i].id == m->constants[i - 1].id)
      return fail_at (err, m->constants[i].at,
                      "result id %u is defined twice (first at pCode[%zu])",
                      m->constants[i].id, m->constants[i - 1].at);
  return PSC_STATUS_OK;
}

static int
find_id (const void *key, const void *elem)
{
  const uint32_t id = *(const uint32_t *) key;
  const uint32_t other = *(const uint32_t *) elem;   /* the first member of Type and Constant */
  return (id > other) - (id < other);
}

/* The map-entry size of the constant decoration d names. */
static PscStatus
constant_size (const Module *m, const Decoration *d, uint32_t *size, PscCoreError *err)
{
  const Constant *c = bsearch (&d->target, m->constants, m->n_constants, sizeof *c, find_id);
  if (c == NULL)
    return fail_at (err, d->at, "SpecId %u decorates %%%u, which is not a scalar "
                    "specialization constant (OpSpecConstantTrue, OpSpecConstantFalse or "
                    "OpSpecConstant)", d->spec_id, d->target);
  const Type *t = bsearch (&c->type, m->types, m->n_types, sizeof *t, find_id);
  if (c->op != PSC_SPIRV_OP_SPEC_CONSTANT)
    {
      if (t == NULL || t->op != PSC_SPIRV_OP_TYPE_BOOL)
        return fail_at (err, c->at, "the result type %%%u of %s %%%u is not an OpTypeBool",
                        c->type, op_name (c->op), c->id);
      *size = 4;                /* a VkBool32 */
      return PSC_STATUS_OK;
    }
  if (t == NULL || t->op == PSC_SPIRV_OP_TYPE_BOOL)
    return fail_at (err, c->at, "the result type %%%u of OpSpecConstant %%%u is not an "
                    "OpTypeInt or OpTypeFloat", c->type, c->id);
  if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
    return fail_at (err, t->at, "%s of width %u: specialization constant %%%u (SpecId %u) "
                    "must be 8, 16, 32 or 64 bits", op_name (t->op), t->width, c->id,
                    d->spec_id);
  *size = t->width / 8;
  return PSC_STATUS_OK;
}

/* Every SpecId decoration joined with its constant, sorted by SpecId; a
 * constant decorated twice or a SpecId used twice is refused. */
static PscStatus
join (Module *m, Joined *joined, PscCoreError *err)
{
  qsort (m->decorations, m->n_decorations, sizeof *m->decorations, decoration_order);
  for (size_t i = 1; i < m->n_decorations; i++)
    if (m->decorations[i].target == m->decorations[i - 1].target)
      return fail_at (err, m->decorations[i].at, "%%%u has a second SpecId decoration (the "
                      "first is at pCode[%zu])", m->decorations[i].target,
                      m->decorations[i - 1].at);
  /* In code order from here, so the first bad decoration is the one named. */
  qsort (m->decorations, m->n_decorations, sizeof *m->decorations, decoration_position);
  for (size_t i = 0; i < m->n_decorations; i++)
    {
      const Decoration *d = &m->decorations[i];
      joined[i] = (Joined) { d->spec_id, 0, d->at };
      PscStatus st = constant_size (m, d, &joined[i].size, err);
      if (st != PSC_STATUS_OK)
        return st;
    }
  qsort (joined, m->n_decorations, sizeof *joined, joined_order);
  for (size_t i = 1; i < m->n_decorations; i++)
    if (joined[i].spec_id == joined[i - 1].spec_id)
      return fail_at (err, joined[i].at, "SpecId %u is used twice (first at pCode[%zu])",
                      joined[i].spec_id, joined[i - 1].at);
  return PSC_STATUS_OK;
}

/* The second pass and the join, with arrays of the sizes the first pass
 * counted (one allocation, freed before returning; the result is a
 * second one). */
static PscStatus
collect (Module *m, PscSpecConstant **out, uint32_t *count, PscCoreError *err)
{
  const size_t nd = m->n_decorations, nt = m->n_types, nc = m->n_constants;
  if (nd + nt + nc == 0)
    return PSC_STATUS_OK;
  void *block = malloc (nd * (sizeof (Decoration) + sizeof (Joined)) + nt * sizeof (Type)
                        + nc * sizeof (Constant) + 1);
  PscSpecConstant *result = nd ? malloc (nd * sizeof *result) : NULL;
  if (block == NULL || (nd && result == NULL))
    {
      free (block);
      free (result);
      return psc_core_fail (err, PSC_STATUS_FAILED, "", "out of memory");
    }
  m->decorations = block;
  Joined *joined = (Joined *) (m->decorations + nd);
  m->types = (Type *) (joined + nd);
  m->constants = (Constant *) (m->types + nt);
  m->cap_decorations = nd;
  m->cap_types = nt;
  m->cap_constants = nc;
  PscStatus st = walk (m, err);
  if (st == PSC_STATUS_OK
      && (m->n_decorations != nd || m->n_types != nt || m->n_constants != nc))
    st = changed (err);
  if (st == PSC_STATUS_OK)
    st = index_definitions (m, err);
  if (st == PSC_STATUS_OK)
    st = join (m, joined, err);
  for (size_t i = 0; st == PSC_STATUS_OK && i < nd; i++)
    result[i] = (PscSpecConstant) { joined[i].spec_id, joined[i].size };
  free (block);
  if (st != PSC_STATUS_OK)
    {
      free (result);
      return st;
    }
  *out = result;
  *count = (uint32_t) nd;
  return PSC_STATUS_OK;
}

PscStatus
psc_spirv_spec_constants (const uint32_t *code, size_t size, PscSpecConstant **out,
                          uint32_t *count, PscCoreError *err)
{
  *out = NULL;
  *count = 0;
  PscStatus st = check_header (code, size, err);
  if (st != PSC_STATUS_OK)
    return st;
  Module m = { .code = code, .words = size / 4, .bound = code[3] };
  st = walk (&m, err);
  if (st != PSC_STATUS_OK)
    return st;
  return collect (&m, out, count, err);
}
