/* table-map.h: the key table's layout and its lookup, inline because every
 * pipeline request looks its key up (table.c has the rest). Internal to the
 * core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

#include <string.h>

typedef struct PscArenaChunk {
  struct PscArenaChunk *next;
  size_t used;
  size_t size;
  uint8_t data[];
} PscArenaChunk;

/* Open addressing with linear probing over a power-of-two slot array. A slot
 * is empty when key == NULL and a tombstone when key_len == 0 (key then
 * points at a private byte): every real key is at least its 4-byte tag
 * long, so a tombstone never matches a lookup. */
struct PscTable {
  PscTableItem *slots;
  size_t mask;          /* slot count - 1 */
  size_t count;         /* live items */
  size_t used;          /* live items + tombstones */
  PscArenaChunk *chunks;
  size_t arena_bytes;   /* bytes reserved by the arena */
};

static inline const PscTableItem *
psc_table_lookup (const PscTable *t, uint64_t hash, const void *key, size_t len)
{
  size_t i = (size_t) hash & t->mask;
  for (;;)
    {
      const PscTableItem *s = &t->slots[i];
      if (s->key == NULL)
        return NULL;
      if (s->hash == hash && s->key_len == len && memcmp (s->key, key, len) == 0)
        return s;
      i = (i + 1) & t->mask;
    }
}
