/* test-export.c: psc_cache_export's C contract on a private bus (GTestDBus)
 * and a lavapipe device with validation (the Vulkan harness): argument and
 * thread checks, the getters before, during and after an export, and what
 * the bus must never see: a cache directory that is no UTF-8 is shown by
 * its display name (a D-Bus string is UTF-8). Runs in the sanitizer builds
 * too, where the Python tests cannot.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <unistd.h>

#define IFACE "io.github.psocache.Cache1"

typedef struct {
  PscCache *cache;
  GError *error;
  gboolean result;
} ThreadCall;

static gpointer
export_from_thread (gpointer data)
{
  ThreadCall *t = data;

  t->result = psc_cache_export (t->cache, NULL, PSC_EXPORT_FLAGS_NONE, &t->error);
  return NULL;
}

static GDBusConnection *
client_connection (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  GDBusConnection *c;

  g_assert_no_error (error);
  c = g_dbus_connection_new_for_address_sync (address,
                                              G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                              G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                              NULL, NULL, &error);
  g_assert_no_error (error);
  return c;
}

static GVariant *
get_property (GDBusConnection *c, PscCache *cache, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  GVariant *value = NULL;

  reply = g_dbus_connection_call_sync (c, psc_cache_get_export_bus_name (cache),
                                       psc_cache_get_export_object_path (cache),
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", IFACE, name), G_VARIANT_TYPE ("(v)"),
                                       G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &value);
  return value;
}

static void
test_arguments (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscCache *cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  ThreadCall t = { cache };
  GThread *thread;

  /* Programming errors: criticals, FALSE, nothing exported. */
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*PSC_IS_CACHE*");
  g_assert_false (psc_cache_export (NULL, NULL, PSC_EXPORT_FLAGS_NONE, &error));
  g_test_assert_expected_messages ();
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*G_IS_DBUS_CONNECTION*");
  g_assert_false (psc_cache_export (cache, (GDBusConnection *) cache, PSC_EXPORT_FLAGS_NONE,
                                    &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  /* Unknown flags: an error naming them. */
  g_assert_false (psc_cache_export (cache, NULL, (PscExportFlags) (1u << 7), &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "0x80"));
  g_clear_error (&error);

  /* Another thread: refused, counted like any wrong-thread call. */
  thread = g_thread_new ("not-owner", export_from_thread, &t);
  g_thread_join (thread);
  g_assert_false (t.result);
  g_assert_error (t.error, PSC_ERROR, PSC_ERROR_WRONG_THREAD);
  g_clear_error (&t.error);
  g_assert_null (psc_cache_get_export_bus_name (cache));
  g_assert_null (psc_cache_get_export_object_path (cache));

  /* Exported, twice is an error, unexported (twice is nothing). */
  g_assert_true (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_READ_ONLY, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (psc_cache_get_export_bus_name (cache), PSC_EXPORT_NAME_PREFIX));
  g_assert_cmpstr (psc_cache_get_export_object_path (cache), ==, PSC_EXPORT_OBJECT_PATH "/0");
  g_assert_false (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_FAILED);
  g_clear_error (&error);
  psc_cache_unexport (cache);
  psc_cache_unexport (cache);
  g_assert_null (psc_cache_get_export_object_path (cache));

  /* Closed: refused; a cache closed while exported unexports. */
  g_assert_true (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error));
  psc_cache_close (cache, 0);
  g_assert_null (psc_cache_get_export_object_path (cache));
  g_assert_false (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);

  psc_test_harness_finish (h);
}

static void
test_non_utf8_directory (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("psc-export-XXXXXX", &error);
  g_autofree char *dir = g_build_filename (tmp, "caf\xe9", NULL);
  g_autoptr(PscCache) cache = NULL;
  g_autoptr(GDBusConnection) client = client_connection ();
  g_autoptr(GVariant) value = NULL;
  const char *shown;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  cache = g_initable_new (PSC_TYPE_CACHE, NULL, &error, "device", h->psc_device,
                          "cache-directory", dir, NULL);
  g_assert_no_error (error);
  g_assert_true (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error));
  g_assert_no_error (error);
  value = get_property (client, cache, "CacheDirectory");
  shown = g_variant_get_string (value, NULL);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_true (g_str_has_prefix (shown, tmp));
  g_assert_nonnull (strstr (shown, "caf"));
  g_clear_pointer (&value, g_variant_unref);
  value = get_property (client, cache, "Pid");
  g_assert_cmpuint (g_variant_get_uint32 (value), ==, (guint) getpid ());
  psc_cache_close (cache, 0);
  g_clear_object (&cache);

  /* Remove what the close saved, then the directories. */
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *n;
    while (d != NULL && (n = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, n, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (dir);
  g_rmdir (tmp);
  psc_test_harness_finish (h);
}

/* The bus going away must not end the application: the library's own
 * connection (a NULL one at export) has exit-on-close off, unlike the
 * process's g_bus_get_sync() singleton. In a subprocess with a bus of its
 * own, which it takes down under the export. */
static void
test_bus_goes_away (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GTestDBus) own = g_test_dbus_new (G_TEST_DBUS_NONE);
      PscTestHarness *h;
      PscCache *cache;
      g_autoptr(GError) error = NULL;
      gint64 until;

      g_test_dbus_up (own);
      h = psc_test_harness_new (TRUE);
      cache = psc_test_harness_cache (h, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE);
      g_assert_true (psc_cache_export (cache, NULL, PSC_EXPORT_FLAGS_NONE, &error));
      g_assert_no_error (error);
      g_test_dbus_down (own);
      until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
      while (g_get_monotonic_time () < until)
        {
          g_main_context_iteration (NULL, FALSE);
          psc_cache_begin_frame (cache, 1, 0);
          g_usleep (10000);
        }
      psc_cache_unexport (cache);
      g_print ("survived\n");
      psc_test_harness_finish (h);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*survived*");
}

int
main (int argc, char **argv)
{
  g_autoptr(GTestDBus) bus = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  /* A private session bus for this test (dbus-daemon), even outside
   * dbus-run-session. */
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_test_add_func ("/export/arguments", test_arguments);
  g_test_add_func ("/export/non-utf8-directory", test_non_utf8_directory);
  g_test_add_func ("/export/bus-goes-away", test_bus_goes_away);
  rc = g_test_run ();
  g_test_dbus_down (bus);
  return rc;
}
