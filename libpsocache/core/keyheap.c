/* keyheap.c: storage for a table's key copies (see keyheap.h).
 *
 * A chunk is CHUNK bytes aligned to CHUNK, so a block finds its chunk by
 * masking its address. Blocks are at least two units: a free block holds
 * its list links and its size, which is what lets an empty chunk be walked
 * (every block in it is then free) and unlinked before it is given back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "keyheap.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t) 16 * 1024)

struct PscKeyChunk {
  PscKeyChunk *prev, *next;
  size_t used;                  /* bytes carved so far, header included */
  uint32_t live;                /* blocks handed out and not released */
};

struct PscFreeBlock {
  PscFreeBlock *prev, *next;
  size_t units;
};

#define HEADER (((sizeof (PscKeyChunk) + PSC_KEYHEAP_UNIT - 1) / PSC_KEYHEAP_UNIT) * PSC_KEYHEAP_UNIT)
_Static_assert (sizeof (PscFreeBlock) <= 2 * PSC_KEYHEAP_UNIT, "a free block fits two units");

static size_t
units_for (size_t len)
{
  const size_t u = (len + PSC_KEYHEAP_UNIT - 1) / PSC_KEYHEAP_UNIT;
  return u < 2 ? 2 : u;
}

static PscKeyChunk *
chunk_of (const void *block)
{
  return (PscKeyChunk *) ((uintptr_t) block & ~(uintptr_t) (CHUNK - 1));
}

void
psc_keyheap_init (PscKeyHeap *h)
{
  memset (h, 0, sizeof *h);
}

void
psc_keyheap_fini (PscKeyHeap *h)
{
  PscKeyChunk *c = h->chunks;
  while (c != NULL)
    {
      PscKeyChunk *next = c->next;
      free (c);
      c = next;
    }
  memset (h, 0, sizeof *h);
}

static void
unlink_block (PscKeyHeap *h, PscFreeBlock *b)
{
  if (b->prev != NULL)
    b->prev->next = b->next;
  else
    h->free[b->units] = b->next;
  if (b->next != NULL)
    b->next->prev = b->prev;
}

/* A new current chunk at the head of the list. */
static PscKeyChunk *
new_chunk (PscKeyHeap *h)
{
  PscKeyChunk *c = aligned_alloc (CHUNK, CHUNK);
  if (c == NULL)
    return NULL;
  *c = (PscKeyChunk) { .next = h->chunks, .used = HEADER };
  if (h->chunks != NULL)
    h->chunks->prev = c;
  h->chunks = c;
  h->bytes += CHUNK;
  return c;
}

static uint8_t *
small_block (PscKeyHeap *h, size_t units)
{
  PscFreeBlock *b = h->free[units];
  if (b != NULL)
    {
      unlink_block (h, b);
      chunk_of (b)->live++;
      return (uint8_t *) b;
    }
  PscKeyChunk *c = h->chunks;
  const size_t bytes = units * PSC_KEYHEAP_UNIT;
  if (c == NULL || CHUNK - c->used < bytes)
    c = new_chunk (h);
  if (c == NULL)
    return NULL;
  uint8_t *p = (uint8_t *) c + c->used;
  c->used += bytes;
  c->live++;
  return p;
}

uint8_t *
psc_keyheap_copy (PscKeyHeap *h, const void *key, size_t len)
{
  uint8_t *p;
  if (len > PSC_KEYHEAP_SMALL)
    {
      p = malloc (len);
      if (p != NULL)
        h->bytes += len;
    }
  else
    p = small_block (h, units_for (len));
  if (p != NULL)
    memcpy (p, key, len);
  return p;
}

/* Every block of an empty chunk is free: unlink them all, then give the
 * chunk back (the current chunk is only rewound: the next key starts it
 * again). */
static void
drop_chunk (PscKeyHeap *h, PscKeyChunk *c)
{
  for (size_t at = HEADER; at < c->used;)
    {
      PscFreeBlock *b = (PscFreeBlock *) ((uint8_t *) c + at);
      at += b->units * PSC_KEYHEAP_UNIT;
      unlink_block (h, b);
    }
  if (c == h->chunks)
    {
      c->used = HEADER;
      return;
    }
  c->prev->next = c->next;
  if (c->next != NULL)
    c->next->prev = c->prev;
  h->bytes -= CHUNK;
  free (c);
}

void
psc_keyheap_release (PscKeyHeap *h, const uint8_t *copy, size_t len)
{
  if (copy == NULL)
    return;
  if (len > PSC_KEYHEAP_SMALL)
    {
      h->bytes -= len;
      free ((void *) copy);
      return;
    }
  const size_t units = units_for (len);
  PscFreeBlock *b = (PscFreeBlock *) copy;
  *b = (PscFreeBlock) { .next = h->free[units], .units = units };
  if (b->next != NULL)
    b->next->prev = b;
  h->free[units] = b;
  PscKeyChunk *c = chunk_of (b);
  if (--c->live == 0)
    drop_chunk (h, c);
}
