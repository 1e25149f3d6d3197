/* keyheap.h: storage for a table's key copies (internal to the core).
 *
 * Why not malloc per key: a hit compares its key with the stored copy, so
 * the copies of a table's keys should sit close together (a lookup in
 * shuffled order then touches few pages), not between whatever else the
 * process allocated meanwhile (a driver compiling a pipeline allocates a
 * lot). Measured: about 5% of a hit's time on the dev VM.
 *
 * Small keys (up to PSC_KEYHEAP_SMALL bytes) are carved from 16 KiB chunks
 * in 16-byte units; a freed block goes on the free list of its size and is
 * reused by the next key of that size, and a chunk whose blocks are all free
 * is given back. So memory follows what is alive: churn of the same keys
 * reuses the same blocks, and what stays is bounded by what was alive at
 * once per size. Larger keys (shader code) are malloc'd.
 *
 * The caller remembers each key's length: allocation and release take it.
 *
 * Threads: owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

#define PSC_KEYHEAP_SMALL 2048u
#define PSC_KEYHEAP_UNIT 16u
#define PSC_KEYHEAP_CLASSES (PSC_KEYHEAP_SMALL / PSC_KEYHEAP_UNIT + 1)

typedef struct PscKeyChunk PscKeyChunk;
typedef struct PscFreeBlock PscFreeBlock;

typedef struct {
  PscFreeBlock *free[PSC_KEYHEAP_CLASSES];   /* by size in units */
  PscKeyChunk *chunks;                       /* every chunk, the current first */
  size_t bytes;                              /* chunks and large copies */
} PscKeyHeap;

PSC_INTERNAL void psc_keyheap_init (PscKeyHeap *h);
/* Frees every chunk. Large copies must have been released before. */
PSC_INTERNAL void psc_keyheap_fini (PscKeyHeap *h);
/* A copy of len (> 0) bytes of key; NULL when out of memory. */
PSC_INTERNAL uint8_t *psc_keyheap_copy (PscKeyHeap *h, const void *key, size_t len);
/* Gives back a copy of len bytes. */
PSC_INTERNAL void psc_keyheap_release (PscKeyHeap *h, const uint8_t *copy, size_t len);
