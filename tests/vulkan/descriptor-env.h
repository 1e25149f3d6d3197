/* descriptor-env.h: a headless device with validation (and a cache on
 * it) and real resources wrapped, for the managed descriptor tests
 * (test-descriptors.c, test-live-caches.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "harness.h"

G_BEGIN_DECLS

typedef struct {
  PscDevice *psc;
  VkDevice device;
  VkPhysicalDevice physical;
  PscCache *cache;
  GPtrArray *memories;          /* VkDeviceMemory to free at the end */
  GPtrArray *images;            /* VkImage */
} Env;

/* g_test_init, and lavapipe unless the environment names a driver. */
void env_test_init (int *argc, char ***argv);

/* A headless device with validation (and @flags), a cache on it. */
void env_init (Env *e, PscDeviceFlags flags);
/* Everything the test made is gone before this (wrappers, sets, pools);
 * asserts that the validation layer stayed silent. */
void env_finish (Env *e);
#define assert_clean(e) g_assert_cmpuint (psc_device_get_validation_error_count ((e)->psc), ==, 0)

/* Owned wrappers of new objects (memory bound; freed by env_finish). */
PscBuffer *new_buffer (Env *e, VkDeviceSize size);
/* An 8x8 RGBA8 image (sampled, storage, colour attachment) and its view. */
PscImageView *new_view (Env *e, PscResourceFlags extra);
PscSampler *new_sampler (Env *e);
PscBufferView *new_texel_view (Env *e, PscBuffer *buffer);
PscDescriptorPool *new_pool (Env *e, guint32 max_sets, VkDescriptorPoolCreateFlags flags);
PscDescriptorLayout *new_layout (Env *e, const VkDescriptorSetLayoutBinding *b, guint n,
                                 const void *next, VkDescriptorSetLayoutCreateFlags flags,
                                 GError **error);

G_END_DECLS
