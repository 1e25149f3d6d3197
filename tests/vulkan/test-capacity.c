/* test-capacity: a full collision bucket is a capacity error, never an
 * overwrite.
 *
 * With the core's forced-hash test hook (psc_cache_new_with_hooks, linked
 * from the internal libraries: the shared library has no way to set it),
 * every key of that cache hashes to the same value. Inserting
 * PSC_COLLISION_BUCKET_CAPACITY + 1 distinct samplers: the last one fails
 * with PSC_ERROR_CAPACITY, the earlier ones still hit with their own
 * handles, and the capacity_failures counter shows it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"
#include "psc-test-hooks.h"

/* The documented capacity (psc-core.h); the public headers do not export it. */
#define BUCKET_CAPACITY 4

static VkSamplerCreateInfo
sampler_info (guint i)
{
  VkSamplerCreateInfo si = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR,
    .minFilter = VK_FILTER_LINEAR,
    .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    .maxLod = 1.0f + (float) i,          /* distinct keys */
    .borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
  };
  return si;
}

static void
test_capacity_forced_hash (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache;
  g_autoptr(GError) error = NULL;
  VkSampler samplers[BUCKET_CAPACITY];
  VkSampler overflow;
  VkSamplerCreateInfo si;
  g_autoptr(PscStats) before = NULL;
  g_autoptr(PscStats) after = NULL;

  PscCoreTestHooks hooks = { .force_hash = true, .forced_hash = 0x0123456789abcdefull };
  cache = psc_cache_new_with_hooks (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE,
                                    NULL, &hooks, &error);
  g_assert_no_error (error);
  g_ptr_array_add (h->caches, cache);

  before = psc_cache_get_stats (cache);
  for (guint i = 0; i < BUCKET_CAPACITY; i++)
    {
      si = sampler_info (i);
      samplers[i] = psc_cache_get_sampler (cache, &si, &error);
      g_assert_no_error (error);
      g_assert_true (samplers[i] != VK_NULL_HANDLE);
      for (guint j = 0; j < i; j++)
        g_assert_true (samplers[i] != samplers[j]);
    }

  si = sampler_info (BUCKET_CAPACITY);
  overflow = psc_cache_get_sampler (cache, &si, &error);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CAPACITY);
  g_assert_true (overflow == VK_NULL_HANDLE);
  g_test_message ("capacity error: %s", error->message);
  g_clear_error (&error);

  /* the bucket's members are intact and still hit */
  for (guint i = 0; i < BUCKET_CAPACITY; i++)
    {
      si = sampler_info (i);
      g_assert_true (psc_cache_get_sampler (cache, &si, &error) == samplers[i]);
      g_assert_no_error (error);
    }

  after = psc_cache_get_stats (cache);
  g_assert_cmpuint (psc_stats_get_capacity_failures (after) - psc_stats_get_capacity_failures (before), ==, 1);
  g_assert_cmpuint (psc_stats_get_rejected (after, PSC_ERROR_CAPACITY) - psc_stats_get_rejected (before, PSC_ERROR_CAPACITY), ==, 1);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_CREATIONS) -
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_CREATIONS), ==, BUCKET_CAPACITY);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_HITS) -
                    psc_stats_get_counter (before, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_HITS), ==, BUCKET_CAPACITY);
  g_assert_cmpuint (psc_stats_get_counter (after, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_ENTRIES), ==, BUCKET_CAPACITY);

  /* the same overflow again fails the same way */
  si = sampler_info (BUCKET_CAPACITY);
  overflow = psc_cache_get_sampler (cache, &si, &error);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CAPACITY);
  g_clear_error (&error);
  g_assert_cmpuint (psc_cache_get_counter (cache, PSC_OBJECT_KIND_SAMPLER, PSC_COUNTER_ENTRIES),
                    ==, BUCKET_CAPACITY);

  psc_test_harness_finish (h);
}

static void
test_capacity_unforced (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscStats) stats = NULL;

  /* without the hook the same keys all fit */
  cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  for (guint i = 0; i < 4 * BUCKET_CAPACITY; i++)
    {
      VkSamplerCreateInfo si = sampler_info (i);

      g_assert_true (psc_cache_get_sampler (cache, &si, &error) != VK_NULL_HANDLE);
      g_assert_no_error (error);
    }
  stats = psc_cache_get_stats (cache);
  g_assert_cmpuint (psc_stats_get_capacity_failures (stats), ==, 0);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/capacity/forced-hash", test_capacity_forced_hash);
  g_test_add_func ("/vulkan/capacity/unforced", test_capacity_unforced);
  return g_test_run ();
}
