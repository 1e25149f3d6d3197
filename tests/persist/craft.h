/* craft.h: damaged driver pipeline-cache files for the persistence tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *name;       /* the mutation */
  const char *reason;     /* the stable name of the rejection it provokes */
} PscTestMutation;

/* Every mutation, ending with { NULL, NULL }. */
extern const PscTestMutation psc_test_mutations[];

/* Damages the valid driver file at data (len bytes; the buffer holds at
 * least len + 16) in place by the named mutation; returns the new length,
 * or (size_t) -1 for an unknown name. */
size_t psc_test_craft_driver_file (const char *mutation, uint8_t *data, size_t len);
