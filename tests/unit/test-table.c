/* test-table.c: the collision-safe table, the handle map and the private
 * dispatch, without a GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "psc-core.h"
#include "handle-map.h"
#include "table.h"

static void
test_insert_find (void)
{
  PscTable *t = psc_table_new ();
  PscCoreError err = { 0 };
  char key[32];

  for (uint32_t i = 0; i < 5000; i++)
    {
      g_snprintf (key, sizeof key, "key-%u", i);
      uint64_t h = psc_key_hash (key, strlen (key));
      g_assert_null (psc_table_find (t, h, key, strlen (key)));
      const PscTableItem *item = NULL;
      g_assert_cmpint (psc_table_insert (t, h, key, strlen (key), i, &item, &err), ==, PSC_STATUS_OK);
      g_assert_nonnull (item);
      g_assert_cmpuint (item->value, ==, i);
    }
  g_assert_cmpuint (psc_table_count (t), ==, 5000);
  /* Every key survives growth and is found with its value; the stored key is
   * a copy, not the caller's buffer. */
  for (uint32_t i = 0; i < 5000; i++)
    {
      g_snprintf (key, sizeof key, "key-%u", i);
      const PscTableItem *item = psc_table_find (t, psc_key_hash (key, strlen (key)), key, strlen (key));
      g_assert_nonnull (item);
      g_assert_cmpuint (item->value, ==, i);
      g_assert_true ((const void *) item->key != (const void *) key);
      g_assert_cmpmem (item->key, item->key_len, key, strlen (key));
    }
  /* A key that is a prefix of another is a different key. */
  g_assert_null (psc_table_find (t, psc_key_hash ("key-1", 4), "key-1", 4));
  g_assert_cmpuint (psc_table_host_bytes (t), >, 5000 * 8);
  psc_table_free (t);
}

static void
test_collision_bucket (void)
{
  PscTable *t = psc_table_new ();
  PscCoreError err = { 0 };
  const uint64_t forced = 0x1234567890abcdefull;
  char key[16];

  /* Distinct keys with one full hash coexist up to the bucket capacity. */
  for (uint32_t i = 0; i < PSC_COLLISION_BUCKET_CAPACITY; i++)
    {
      g_snprintf (key, sizeof key, "k%u", i);
      g_assert_cmpint (psc_table_insert (t, forced, key, strlen (key), i, NULL, &err), ==, PSC_STATUS_OK);
    }
  g_assert_cmpuint (psc_table_bucket_size (t, forced), ==, PSC_COLLISION_BUCKET_CAPACITY);

  /* One more is the capacity error, never an overwrite. */
  g_snprintf (key, sizeof key, "k%u", PSC_COLLISION_BUCKET_CAPACITY);
  g_assert_cmpint (psc_table_insert (t, forced, key, strlen (key), 99, NULL, &err), ==, PSC_STATUS_CAPACITY);
  g_assert_cmpint (err.status, ==, PSC_STATUS_CAPACITY);
  g_assert_nonnull (strstr (err.message, "collision bucket full"));
  g_assert_null (psc_table_find (t, forced, key, strlen (key)));

  /* The earlier ones still hit with their own values. */
  for (uint32_t i = 0; i < PSC_COLLISION_BUCKET_CAPACITY; i++)
    {
      g_snprintf (key, sizeof key, "k%u", i);
      const PscTableItem *item = psc_table_find (t, forced, key, strlen (key));
      g_assert_nonnull (item);
      g_assert_cmpuint (item->value, ==, i);
    }
  /* Other hashes are unaffected. */
  g_assert_cmpint (psc_table_insert (t, forced + 1, "other", 5, 7, NULL, &err), ==, PSC_STATUS_OK);

  /* Removing one frees its place in the bucket. */
  g_assert_true (psc_table_remove (t, forced, "k0", 2));
  g_assert_null (psc_table_find (t, forced, "k0", 2));
  g_assert_cmpint (psc_table_insert (t, forced, "k4", 2, 4, NULL, &err), ==, PSC_STATUS_OK);
  g_assert_nonnull (psc_table_find (t, forced, "k4", 2));
  /* A key already present is refused, never stored twice. */
  g_assert_cmpint (psc_table_insert (t, forced, "k4", 2, 5, NULL, &err), ==, PSC_STATUS_FAILED);
  g_assert_nonnull (psc_table_find (t, forced, "k1", 2));
  psc_table_free (t);
}

static void
test_remove_and_reinsert (void)
{
  PscTable *t = psc_table_new ();
  PscCoreError err = { 0 };
  char key[32];
  /* Churn through tombstones: the table must keep finding live keys. */
  for (uint32_t round = 0; round < 20; round++)
    {
      for (uint32_t i = 0; i < 200; i++)
        {
          g_snprintf (key, sizeof key, "r%u-%u", round, i);
          g_assert_cmpint (psc_table_insert (t, psc_key_hash (key, strlen (key)), key, strlen (key),
                                             i, NULL, &err), ==, PSC_STATUS_OK);
        }
      for (uint32_t i = 0; i < 200; i += 2)
        {
          g_snprintf (key, sizeof key, "r%u-%u", round, i);
          g_assert_true (psc_table_remove (t, psc_key_hash (key, strlen (key)), key, strlen (key)));
        }
    }
  g_assert_cmpuint (psc_table_count (t), ==, 20 * 100);
  for (uint32_t round = 0; round < 20; round++)
    for (uint32_t i = 0; i < 200; i++)
      {
        g_snprintf (key, sizeof key, "r%u-%u", round, i);
        const PscTableItem *item = psc_table_find (t, psc_key_hash (key, strlen (key)), key, strlen (key));
        if (i % 2)
          g_assert_nonnull (item);
        else
          g_assert_null (item);
      }
  psc_table_free (t);
}

static void
test_handle_map (void)
{
  PscHandleMap *m = psc_handle_map_new ();
  uint32_t v = 0;
  for (uint64_t i = 1; i <= 3000; i++)
    g_assert_true (psc_handle_map_set (m, i * 0x1000, (uint32_t) i));
  for (uint64_t i = 1; i <= 3000; i++)
    {
      g_assert_true (psc_handle_map_lookup (m, i * 0x1000, &v));
      g_assert_cmpuint (v, ==, i);
    }
  g_assert_false (psc_handle_map_lookup (m, 0x1001, &v));
  g_assert_false (psc_handle_map_lookup (m, 0, &v));
  g_assert_false (psc_handle_map_set (m, 0, 1));
  g_assert_true (psc_handle_map_remove (m, 0x1000));
  g_assert_false (psc_handle_map_lookup (m, 0x1000, &v));
  g_assert_false (psc_handle_map_remove (m, 0x1000));
  /* A handle value reused by the driver maps to its new value. */
  g_assert_true (psc_handle_map_set (m, 0x1000, 77));
  g_assert_true (psc_handle_map_lookup (m, 0x1000, &v));
  g_assert_cmpuint (v, ==, 77);
  psc_handle_map_free (m);
}

static void
test_volk_globals (void)
{
  /* The core links volk privately and never writes its globals. */
  g_assert_true (psc_dispatch_volk_globals_untouched ());
}

static void
test_error_format (void)
{
  PscCoreError err = { 0 };
  g_assert_cmpint (psc_core_fail (&err, PSC_STATUS_CAPACITY,
                                  "pStages[1].pSpecializationInfo->mapEntryCount", "%u > %u", 9u, 8u),
                   ==, PSC_STATUS_CAPACITY);
  g_assert_cmpstr (err.message, ==, "pStages[1].pSpecializationInfo->mapEntryCount: 9 > 8");
  g_assert_cmpstr (err.path, ==, "pStages[1].pSpecializationInfo->mapEntryCount");
  g_assert_cmpint (psc_core_fail_vk (&err, VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkCreateSampler"),
                   ==, PSC_STATUS_VULKAN);
  g_assert_cmpint (err.vk_result, ==, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  g_assert_nonnull (strstr (err.message, "VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  /* A NULL error pointer is allowed. */
  g_assert_cmpint (psc_core_fail (NULL, PSC_STATUS_FAILED, "x", "y"), ==, PSC_STATUS_FAILED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table/insert-find", test_insert_find);
  g_test_add_func ("/table/collision-bucket", test_collision_bucket);
  g_test_add_func ("/table/remove-reinsert", test_remove_and_reinsert);
  g_test_add_func ("/table/handle-map", test_handle_map);
  g_test_add_func ("/dispatch/volk-globals-untouched", test_volk_globals);
  g_test_add_func ("/errors/format", test_error_format);
  return g_test_run ();
}
