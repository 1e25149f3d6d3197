/* recipe-record.h: the records of the warm-up recipe log (persistent
 * layer 3, seed 003) and the recipe book they are read into. In memory
 * only (parse, validate, serialize); no I/O, no core access.
 *
 * A recipe is a pipeline's canonical key plus what the key references,
 * content-addressed. Keys stay verbatim: a key names other objects by the
 * recording process's ids, so every record carries its own reference
 * table mapping each id its key uses to the content hash of the record of
 * the object it names. The records travel as payloads of a record log of
 * kind PSC_LOG_KIND_RECIPES (record-log.h); the log record's type is the
 * payload's format (a layout change takes a new type):
 *
 *   PSC_RECIPE_RECORD_OBJECT (1)          PSC_RECIPE_RECORD_PIPELINE (2)
 *     0  8 content hash                     0  8 last used (caller's stamp; not hashed)
 *     8    body                             8  8 recipe hash
 *                                          16    body
 *   body (little-endian):
 *     0  1 kind (PscRecordKind: OBJECT 1-6, PIPELINE 7-8)
 *     1  1 reserved, zero
 *     2  2 ref count (<= PSC_RECIPE_MAX_REFS)
 *     4  4 key length (1 ..; bound per kind, below)
 *     8    refs, 16 bytes each: 0 1 kind, 1 3 reserved zero, 4 4 id (> 0),
 *          8 8 content hash of the record of the object the id names
 *          the key bytes, verbatim
 *   the hash (content or recipe) is XXH3-64 of the body.
 *
 * A shader's key is its SPIR-V; a sampler list's key is its ordered
 * sampler ids (u32, host order, as the core's list key); every other key is
 * the core's canonical key (keys.h). Keys are in host byte order: the log
 * header's platform field keeps a log on the platform that wrote it.
 *
 * Which refs a record may hold, by kind: shader, sampler, render pass:
 * none; sampler list: samplers (and every id of its key has one); set
 * layout: sampler lists and samplers; pipeline layout: set layouts;
 * graphics: shaders, pipeline layout, render pass; compute: shaders,
 * pipeline layout. So references only go down and no record can reach
 * itself.
 *
 * Untrusted input (DESIGN decision 14): every length and count is bounded
 * and checked before use; psc_recipe_record_parse names one reason per
 * rejection (docs/file-formats.md, "The recipe records").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "file-reason.h"

/* Log record types (the payload formats). */
#define PSC_RECIPE_RECORD_OBJECT   1u
#define PSC_RECIPE_RECORD_PIPELINE 2u

typedef enum {
  PSC_RECIPE_SHADER = 1,
  PSC_RECIPE_SAMPLER = 2,
  PSC_RECIPE_SAMPLER_LIST = 3,
  PSC_RECIPE_SET_LAYOUT = 4,
  PSC_RECIPE_PIPELINE_LAYOUT = 5,
  PSC_RECIPE_RENDER_PASS = 6,
  PSC_RECIPE_GRAPHICS = 7,
  PSC_RECIPE_COMPUTE = 8,
} PscRecordKind;
#define PSC_RECORD_KIND_MAX 8

/* Bounds (documented in docs/file-formats.md). */
#define PSC_RECIPE_MAX_RECORDS      4096u                 /* per book */
#define PSC_RECIPE_MAX_BOOK_BYTES   ((size_t) 8 << 20)    /* payload bytes per book (seed 003) */
#define PSC_RECIPE_MAX_REFS         64u                   /* per record */
#define PSC_RECIPE_MAX_SPIRV_BYTES  ((uint32_t) 4 << 20)  /* a shader's key */
#define PSC_RECIPE_MAX_KEY_BYTES    PSC_MAX_KEY_BYTES     /* every other key */
#define PSC_RECIPE_MAX_LIST_SAMPLERS PSC_MAX_IMMUTABLE_SAMPLERS

#define PSC_RECIPE_BODY_HEADER 8u
#define PSC_RECIPE_REF_SIZE    16u

/* "shader", "sampler", "sampler-list", "set-layout", "pipeline-layout",
 * "render-pass", "graphics", "compute"; "unknown" otherwise. */
PSC_INTERNAL const char *psc_recipe_kind_name (uint8_t kind);
/* The largest key a record of `kind` may carry (0 for no such kind). */
PSC_INTERNAL uint32_t psc_recipe_max_key (uint8_t kind);

typedef struct {
  uint8_t kind;
  uint32_t id;
  uint64_t hash;
} PscRecipeRef;

/* A parsed record: views into its payload. */
typedef struct {
  uint16_t type;             /* PSC_RECIPE_RECORD_* */
  uint8_t kind;              /* PscRecordKind */
  uint16_t ref_count;
  uint32_t key_len;
  uint64_t hash;
  uint64_t last_used;        /* pipeline records; 0 for objects */
  const uint8_t *refs;       /* ref_count x 16 bytes */
  const uint8_t *key;
  const uint8_t *payload;
  uint32_t len;
} PscRecipeRecord;

static inline PscRecipeRef
psc_recipe_record_ref (const PscRecipeRecord *r, uint32_t i)
{
  const uint8_t *p = r->refs + (size_t) i * PSC_RECIPE_REF_SIZE;
  return (PscRecipeRef) { p[0], psc_le32 (p + 4), psc_le64 (p + 8) };
}

/* The hash a record of `kind` with this id in its ref table names; false
 * if the table has no such ref. */
PSC_INTERNAL bool psc_recipe_record_find_ref (const PscRecipeRecord *r, uint8_t kind,
                                              uint32_t id, uint64_t *hash);

/* Validates a payload of log record `type` and fills *out (views into
 * payload). Checks, in this order: the type (PSC_FILE_FORMAT_VERSION for
 * one this library cannot read); the length against the fixed part
 * (PSC_FILE_TRUNCATED); kind allowed for the type, reserved byte, key
 * length not 0 (PSC_FILE_BAD_HEADER); ref count and key length against
 * their bounds (PSC_FILE_OVERSIZED); the length against header + refs +
 * key (PSC_FILE_TRUNCATED, PSC_FILE_TRAILING_DATA); the hash
 * (PSC_FILE_CHECKSUM); each ref (kind allowed for the record's kind,
 * reserved bytes zero, id not 0, no kind + id twice) and the key's shape
 * where the format knows it (SPIR-V: a multiple of 4, at least 20 bytes,
 * its magic; a sampler list: 1 to 32 non-zero ids, each with a ref)
 * (PSC_FILE_BAD_RECORD). */
PSC_INTERNAL PscFileReason psc_recipe_record_parse (uint16_t type, const uint8_t *payload,
                                                    size_t len, PscRecipeRecord *out);

/* Bytes a record payload takes. */
PSC_INTERNAL size_t psc_recipe_record_size (uint16_t type, uint32_t ref_count, size_t key_len);
/* Writes a record payload (psc_recipe_record_size bytes) at out and its
 * hash into *hash. last_used is written only into pipeline records. False
 * (nothing written) for a kind the type does not take, more refs than
 * PSC_RECIPE_MAX_REFS, or a key of 0 bytes or above the kind's bound. The
 * refs are written as given: the writer does not check them. */
PSC_INTERNAL bool psc_recipe_record_write (uint8_t *out, uint16_t type, uint8_t kind,
                                           uint64_t last_used, const PscRecipeRef *refs,
                                           uint32_t ref_count, const uint8_t *key, size_t key_len,
                                           uint64_t *hash);

/* ---------------------------------------------------------------------------
 * A small map of 64-bit keys (hashes) to 64-bit values, open addressing.
 * Zero-initialized is empty.
 */
typedef struct {
  uint64_t *keys;
  uint64_t *values;
  uint8_t *used;
  uint32_t cap, count;
} PscRecipeMap;

PSC_INTERNAL bool psc_recipe_map_get (const PscRecipeMap *m, uint64_t key, uint64_t *value);
/* Sets key's value (adding it if absent). False if out of memory. */
PSC_INTERNAL bool psc_recipe_map_put (PscRecipeMap *m, uint64_t key, uint64_t value);
/* Frees the map; it is empty again. */
PSC_INTERNAL void psc_recipe_map_clear (PscRecipeMap *m);

/* ---------------------------------------------------------------------------
 * The recipe book: records read back, validated and deduplicated by
 * (type, hash). Plain memory, independent of any core; a record's payload
 * is copied. Zero-initialized (or psc_recipe_book_init) is empty.
 */
typedef struct {
  PscRecipeRecord *records;  /* in the order added */
  uint32_t count, cap;
  uint32_t pipelines;        /* pipeline records among them */
  uint64_t duplicates;       /* adds that found their record already there */
  size_t bytes;              /* payload bytes held (<= the byte bound) */
  size_t max_bytes;          /* the byte bound; 0: PSC_RECIPE_MAX_BOOK_BYTES */
  PscRecipeMap index[2];     /* hash -> record index, per type */
} PscRecipeBook;

PSC_INTERNAL void psc_recipe_book_init (PscRecipeBook *book);
PSC_INTERNAL void psc_recipe_book_clear (PscRecipeBook *book);
/* Validates the payload of a log record of `type` (psc_recipe_record_parse)
 * and stores it. A record whose (type, hash) is already in the book is
 * not stored again (a pipeline record's last-used stamp is raised to the
 * larger); true in both cases. False with *why (may be NULL): the parse's
 * reason; PSC_FILE_BAD_RECORD for a record whose hash is already in the
 * book with another body; PSC_FILE_OVERSIZED when the book holds
 * PSC_RECIPE_MAX_RECORDS records or the payload would take it above
 * book->max_bytes (PSC_RECIPE_MAX_BOOK_BYTES when 0); PSC_FILE_OUT_OF_MEMORY. */
PSC_INTERNAL bool psc_recipe_book_add (PscRecipeBook *book, uint16_t type, const uint8_t *payload,
                                       size_t len, PscFileReason *why);
/* The record of (type, hash), or NULL; valid until the next add. */
PSC_INTERNAL const PscRecipeRecord *psc_recipe_book_find (const PscRecipeBook *book, uint16_t type,
                                                          uint64_t hash);
