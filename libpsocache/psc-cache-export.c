/* psc-cache-export.c: PscCache on D-Bus (io.github.psocache.Cache1): the
 * public export calls and the owner-thread side, which applies the queued
 * controls at psc_cache_begin_frame and feeds the export's events. The
 * bus side is psc-export-bus.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "psc-export-bus.h"
#include "psc-persist.h"

#define FLATPAK_INFO "/.flatpak-info"

/* Inside a Flatpak sandbox the name must be under the sandbox's
 * application id (the only names it may own): the one /.flatpak-info
 * names, else the cache's own. */
static char *
flatpak_application_id (const char *cache_app_id)
{
  g_autoptr(GKeyFile) info = g_key_file_new ();
  char *id = NULL;

  if (g_key_file_load_from_file (info, FLATPAK_INFO, G_KEY_FILE_NONE, NULL))
    id = g_key_file_get_string (info, "Application", "name", NULL);
  return id != NULL ? id : g_strdup (cache_app_id);
}

/* The library's own session-bus connection, shared by every export made
 * with a NULL connection (they share the process's name on it) and closed
 * with the last of them: a private connection, so exit-on-close stays off
 * and the application's g_bus_get_sync() singleton is left alone. */
static GDBusConnection *
library_session_bus (GError **error)
{
  static GMutex lock;
  static GWeakRef shared;   /* zero-initialized: a valid empty GWeakRef */
  g_autofree char *address = NULL;
  GDBusConnection *bus;

  g_mutex_lock (&lock);
  bus = g_weak_ref_get (&shared);
  if (bus == NULL)
    {
      address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, error);
      if (address != NULL)
        bus = g_dbus_connection_new_for_address_sync (address,
                                                      G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                      G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                      NULL, NULL, error);
      if (bus != NULL)
        {
          g_dbus_connection_set_exit_on_close (bus, FALSE);
          g_weak_ref_set (&shared, bus);
        }
    }
  g_mutex_unlock (&lock);
  return bus;
}

static const char *
backend_nick (PscBackend backend)
{
  return backend == PSC_BACKEND_LEGACY ? "legacy" : "dynamic-rendering";
}

/* The save counters the export last reported (Saved). */
static void
read_saves (PscCache *self, guint64 *saves, guint64 *failures, guint64 *bytes)
{
  PscPersistSnapshot snap;

  /* Only the persistence counters: this runs every frame. */
  psc_persist_read_counters (self->persist, &snap);
  *saves = snap.value[PSC_PERSIST_COUNTER_SAVES];
  *failures = snap.value[PSC_PERSIST_COUNTER_SAVE_FAILURES];
  *bytes = snap.value[PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED];
}

/**
 * psc_cache_export:
 * @self: a cache
 * @connection: (nullable): the session-bus connection to export on, or
 *   %NULL for a session-bus connection of the library's own (not the
 *   process's shared g_bus_get_sync() one, whose exit-on-close would end
 *   the application if the bus went away; every cache exported with
 *   %NULL shares it)
 * @flags: %PSC_EXPORT_FLAGS_READ_ONLY to refuse every control
 * @error: return location for a #GError
 *
 * Exports the cache on D-Bus for live inspection and control
 * (`io.github.psocache.Cache1`, described by
 * `$datadir/dbus-1/interfaces/io.github.psocache.Cache1.xml`; the
 * [D-Bus page](dbus.html) has it all): its identity and headline counters
 * as properties, the whole counter snapshot, a page of its entries and
 * its recent events, and the controls Evict, InvalidateShader,
 * InvalidateAll, Save and Trim.
 *
 * The process owns the well-known name
 * `io.github.psocache.Cache1.<application id>.pid<PID>` (see
 * %PSC_EXPORT_NAME_PREFIX; inside a Flatpak sandbox
 * `<application id>.PsoCache1`) on @connection, requested by the first
 * cache it exports there; each exported cache is an object
 * `/io/github/psocache/Cache1/<n>` (n counts from 0 per connection)
 * listed by `org.freedesktop.DBus.ObjectManager` at
 * %PSC_EXPORT_OBJECT_PATH (see [method@Psc.Cache.get_export_object_path]).
 *
 * The library answers the bus on a thread of its own, so the application
 * needs no GLib main loop; that thread never touches the cache's state.
 * Properties and `GetStatistics` read the counters; every control (and
 * `ListEntries`, which walks the entries) is queued, at most
 * %PSC_EXPORT_CONTROL_QUEUE of them, and applied by the owner thread at
 * its next [method@Psc.Cache.begin_frame] (the bus thread sends the reply); a
 * control not applied within %PSC_EXPORT_CONTROL_TIMEOUT_MS is answered
 * `io.github.psocache.Error.Timeout` and never applied. A caller whose
 * connection belongs to another Unix user than this process is refused
 * (`io.github.psocache.Error.AccessDenied`) whatever the bus allowed.
 *
 * [method@Psc.Cache.close] (and dropping the last reference) unexports:
 * queued calls are answered `io.github.psocache.Error.Closed`.
 *
 * Owner thread (rule (a)).
 *
 * Returns: %TRUE when exported; %FALSE with @error: %PSC_ERROR_IO when
 *   there is no session bus, %PSC_ERROR_FAILED when the cache is exported
 *   already or the bus name belongs to another connection,
 *   %PSC_ERROR_INVALID_ARGUMENT for unknown @flags,
 *   %PSC_ERROR_WRONG_THREAD, %PSC_ERROR_CLOSED
 *
 * Since: 0.3
 */
gboolean
psc_cache_export (PscCache         *self,
                  GDBusConnection  *connection,
                  PscExportFlags    flags,
                  GError          **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autofree char *app_id = NULL, *name = NULL, *dir_text = NULL;
  const gboolean in_flatpak = g_file_test (FLATPAK_INFO, G_FILE_TEST_EXISTS);
  const char *dir;
  PscExportIdentity id = { 0 };

  PSC_CACHE_CHECK (self, error, FALSE);
  g_return_val_if_fail (connection == NULL || G_IS_DBUS_CONNECTION (connection), FALSE);
  if (!psc_cache_check_owner (self, error))
    return FALSE;
  if ((flags & ~PSC_EXPORT_FLAGS_READ_ONLY) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, _("flags: unknown bits 0x%x"),
                   (guint) (flags & ~PSC_EXPORT_FLAGS_READ_ONLY));
      return FALSE;
    }
  if (self->export != NULL)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_FAILED, _("the cache is exported already (at %s)"),
                   psc_export_bus_object_path (self->export));
      return FALSE;
    }
  if (connection != NULL)
    bus = g_object_ref (connection);
  else
    {
      g_autoptr(GError) local = NULL;
      bus = library_session_bus (&local);
      if (bus == NULL)
        {
          g_set_error (error, PSC_ERROR, PSC_ERROR_IO, _("no session bus: %s"), local->message);
          return FALSE;
        }
    }

  app_id = in_flatpak ? flatpak_application_id (self->application_id)
                      : g_strdup (self->application_id);
  name = psc_export_bus_name_for (app_id, (guint32) getpid (), in_flatpak);
  dir = psc_persist_directory (self->persist);
  id.bus_name = name;
  id.application_id = app_id != NULL ? app_id : "";
  id.pid = (guint32) getpid ();
  id.device_name = psc_device_get_name (self->device);
  id.vendor_id = psc_device_get_vendor_id (self->device);
  id.device_id = psc_device_get_device_id (self->device);
  id.driver_version = psc_device_get_driver_version (self->device);
  id.pipeline_cache_uuid = psc_device_get_pipeline_cache_uuid (self->device);
  /* A D-Bus string is UTF-8; a path need not be. */
  dir_text = dir != NULL ? g_filename_display_name (dir) : g_strdup ("");
  id.cache_directory = dir_text;
  id.backend = backend_nick (self->backend);
  id.read_only = (flags & PSC_EXPORT_FLAGS_READ_ONLY) != 0;

  self->export = psc_export_bus_new (bus, &id, self->core, self->persist, error);
  if (self->export == NULL)
    return FALSE;
  read_saves (self, &self->export_saves, &self->export_save_failures, &(guint64){ 0 });
  return TRUE;
}

/**
 * psc_cache_unexport:
 * @self: a cache
 *
 * Ends the cache's export (see [method@Psc.Cache.export]): calls still
 * queued are answered `io.github.psocache.Error.Closed`, its object leaves
 * the bus, and with the connection's last exported cache the process's
 * bus name is released. Does nothing when the cache is not exported.
 * [method@Psc.Cache.close] calls it. Owner thread (rule (b)).
 *
 * Since: 0.3
 */
void
psc_cache_unexport (PscCache *self)
{
  g_return_if_fail (PSC_IS_CACHE (self));
  if (self->core == NULL)
    return;
  if (self->owner != g_thread_self ())
    {
      g_return_if_fail_warning (G_LOG_DOMAIN, G_STRFUNC,
                                "the calling thread is the cache's owner thread");
      return;
    }
  psc_cache_export_drop (self);
}

void
psc_cache_export_drop (PscCache *self)
{
  if (self->export != NULL)
    psc_export_bus_free (g_steal_pointer (&self->export));
}

/**
 * psc_cache_get_export_object_path:
 * @self: a cache
 *
 * Returns the object path of the cache's export. Owner thread.
 *
 * Returns: (nullable): `/io/github/psocache/Cache1/<n>`, or %NULL when
 *   the cache is not exported
 *
 * Since: 0.3
 */
const char *
psc_cache_get_export_object_path (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);
  return self->export != NULL ? psc_export_bus_object_path (self->export) : NULL;
}

/**
 * psc_cache_get_export_bus_name:
 * @self: a cache
 *
 * Returns the well-known bus name under which the cache is exported (the
 * process's, see [method@Psc.Cache.export]). Owner thread.
 *
 * Returns: (nullable): the name, or %NULL when the cache is not exported
 *   or was exported on a peer-to-peer connection (no names there)
 *
 * Since: 0.3
 */
const char *
psc_cache_get_export_bus_name (PscCache *self)
{
  g_return_val_if_fail (PSC_IS_CACHE (self), NULL);
  return self->export != NULL ? psc_export_bus_name (self->export) : NULL;
}

/* The owner side ----------------------------------------------------------- */

static void
record (PscCache *self, PscExportEventKind kind, guint32 shader_id, guint32 generation,
        guint32 count, guint64 bytes, const char *message)
{
  PscExportEvent ev = { kind, self->export_frame, 0, shader_id, generation, count, bytes, message };

  psc_export_bus_record (self->export, &ev);
}

/* Saved, for every save that wrote or failed since the last report (the
 * application's own, the periodic ones, the Save control); @forced
 * reports the Save control's even when it had nothing to write. */
static void
report_saves (PscCache *self, gboolean forced, const GError *error)
{
  guint64 saves, failures, bytes;

  read_saves (self, &saves, &failures, &bytes);
  if (!forced && saves == self->export_saves && failures == self->export_save_failures)
    return;
  record (self, PSC_EXPORT_EVENT_SAVED, 0, 0, failures == self->export_save_failures && error == NULL,
          saves != self->export_saves ? bytes : 0, error != NULL ? error->message : NULL);
  self->export_saves = saves;
  self->export_save_failures = failures;
}

static void
apply_invalidate (PscCache *self, PscControl *c)
{
  g_autoptr(GError) error = NULL;
  PscCoreError core_error;
  uint32_t generation = 0;
  PscStatus status;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_invalidate_shader (self->core, psc_control_u (c), &generation, &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (&error, status, &core_error);
      psc_control_fail (c, error);
      return;
    }
  record (self, PSC_EXPORT_EVENT_INVALIDATED, psc_control_u (c), generation, 1, 0, NULL);
  psc_control_complete (c, 0);
}

static void
apply_list_entries (PscCache *self, PscControl *c)
{
  const guint32 limit = psc_control_u2 (c);
  g_autofree PscCoreEntryInfo *page = g_new0 (PscCoreEntryInfo, MAX (limit, 1));
  g_autoptr(GError) error = NULL;
  PscCoreError core_error;
  uint32_t count, total;
  PscStatus status;

  PSC_CORE_ERROR_INIT (core_error);
  status = psc_core_list_entries (self->core, psc_control_u (c), limit, page, &count, &total,
                                  &core_error);
  if (status != PSC_STATUS_OK)
    {
      psc_cache_fail (&error, status, &core_error);
      psc_control_fail (c, error);
      return;
    }
  psc_control_complete_entries (c, g_steal_pointer (&page), count, total);
}

static void
apply (PscCache *self, PscControl *c)
{
  g_autoptr(GError) error = NULL;
  guint64 freed = 0;
  guint32 n;

  switch (psc_control_kind (c))
    {
    case PSC_CONTROL_EVICT:
      psc_control_complete (c, psc_cache_evict (self, psc_control_u (c)));
      return;
    case PSC_CONTROL_INVALIDATE_SHADER:
      apply_invalidate (self, c);
      return;
    case PSC_CONTROL_INVALIDATE_ALL:
      n = psc_core_invalidate_all (self->core);
      record (self, PSC_EXPORT_EVENT_INVALIDATED, 0, 0, n, 0, NULL);
      psc_control_complete (c, 0);
      return;
    case PSC_CONTROL_SAVE:
      if (psc_cache_save (self, &error))
        {
          report_saves (self, TRUE, NULL);
          psc_control_complete (c, 0);
        }
      else
        {
          if (!g_error_matches (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED))
            report_saves (self, TRUE, error);
          psc_control_fail (c, error);
        }
      return;
    case PSC_CONTROL_TRIM:
      if (psc_persist_trim (self->persist, psc_control_t (c), &freed, &error))
        psc_control_complete (c, freed);
      else
        psc_control_fail (c, error);
      return;
    case PSC_CONTROL_LIST_ENTRIES:
      apply_list_entries (self, c);
      return;
    }
  g_assert_not_reached ();
}

void
psc_cache_export_pump (PscCache *self,
                       guint64   frame)
{
  PscControlQueue *q;
  PscControl *c;
  guint queued;

  if (self->export == NULL)
    return;
  q = psc_export_bus_controls (self->export);
  self->export_frame = frame;
  /* What is queued now (at most PSC_EXPORT_CONTROL_QUEUE); a control
   * queued while these run waits for the next frame, so a flood cannot
   * hold the frame. */
  queued = psc_control_queue_length (q);
  for (guint n = 0; n < queued && (c = psc_control_queue_take (q)) != NULL; n++)
    apply (self, c);
  if (queued > 0)
    psc_control_queue_flush (q);
  report_saves (self, FALSE, NULL);
}

void
psc_cache_export_events (PscCache            *self,
                         const PscCoreEvents *batch)
{
  if (self->export == NULL)
    return;
  for (guint32 i = 0; i < batch->count; i++)
    {
      const PscCoreEvent *ev = &batch->events[i];
      PscExportEvent out = { .frame = self->export_frame, .key_hash = ev->key_hash };
      PscCoreError core_error;

      switch (ev->type)
        {
        case PSC_CORE_EVENT_PIPELINE_READY:
          out.kind = PSC_EXPORT_EVENT_PIPELINE_COMPILED;
          break;
        case PSC_CORE_EVENT_PIPELINE_FAILED:
          PSC_CORE_ERROR_INIT (core_error);
          psc_core_fail_vk (&core_error, (VkResult) ev->result,
                            ev->kind == PSC_KIND_GRAPHICS ? "vkCreateGraphicsPipelines"
                                                          : "vkCreateComputePipelines");
          out.kind = PSC_EXPORT_EVENT_PIPELINE_FAILED;
          out.message = core_error.message;
          break;
        case PSC_CORE_EVENT_SHADER_RELOADED:
          out.kind = PSC_EXPORT_EVENT_SHADER_RELOADED;
          out.shader_id = ev->shader_id;
          out.generation = ev->generation;
          break;
        default:
          continue;
        }
      psc_export_bus_record (self->export, &out);
    }
  if (batch->evicted > 0)
    record (self, PSC_EXPORT_EVENT_EVICTED, 0, 0, batch->evicted, 0, NULL);
}
