/* psc-private.h: what the GObject layer's files share, never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

#include "psocache/psocache.h"
#include "core/psc-core.h"

G_BEGIN_DECLS

/* Binds the libpsocache-1 gettext domain once per process. Called from every
 * entry point that can produce a user-visible message (the error quark, the
 * class initialisers). */
G_GNUC_INTERNAL void psc_i18n_init (void);

/* Sets @error (which may be NULL) from a core failure: domain PSC_ERROR, code =
 * core status (core numbering equals PscError), message = the core's message,
 * which already names the field path and, for driver failures, the VkResult. */
G_GNUC_INTERNAL void psc_error_from_core (GError **error, const PscCoreError *core_error);

/* Fills the device part of a core configuration: instance, physical device,
 * device, vkGetInstanceProcAddr, effective API version, debug-utils, whether
 * dynamic rendering was enabled (from the enabled-feature snapshot) and the
 * allocation callbacks. Leaves the cache-specific fields alone. */
G_GNUC_INTERNAL void psc_device_fill_core_config (PscDevice *self, PscCoreConfig *cfg);

/* Only the fields a failure report reads are initialised, so the hot path
 * pays three stores, not a 400-byte memset. */
#define PSC_CORE_ERROR_INIT(e) \
  G_STMT_START { (e).status = PSC_STATUS_FAILED; (e).path[0] = '\0'; (e).message[0] = '\0'; } G_STMT_END

/* Sets @error from a failed core call's status and detail. */
static inline void
psc_cache_fail (GError **error, PscStatus status, PscCoreError *core_error)
{
  core_error->status = status;
  psc_error_from_core (error, core_error);
}

/* psc_cache_new_full() with the core's test hooks (NULL: none). Only the
 * test-only psc_cache_new_with_hooks() (psc-test-hooks.c, not part of the
 * installed library) passes hooks. */
G_GNUC_INTERNAL PscCache *psc_cache_new_internal (PscDevice               *device,
                                                 PscBackend               backend,
                                                 PscCacheFlags            flags,
                                                 const PscCacheOptions   *options,
                                                 const PscCoreTestHooks  *hooks,
                                                 GError                 **error);

/* psc-stats.c. A snapshot is a copy of the core's counters (the core reads
 * them with atomics, from any thread). psc-cache.c also fills one on the
 * stack for the counter properties. */
struct _PscStats
{
  PscCoreStats core;
};
/* Reads @core's counters into @self (zeros when @core is NULL: a cache that
 * was never initialized). Any thread. */
G_GNUC_INTERNAL void psc_stats_read (PscStats *self, PscCore *core);
/* A new snapshot (reference count 1) of @core's counters. Any thread. */
G_GNUC_INTERNAL PscStats *psc_stats_new_snapshot (PscCore *core);

/* psc-cache.c accessors for psc-cache-async.c. */
G_GNUC_INTERNAL PscCore *psc_cache_get_core (PscCache *self);
G_GNUC_INTERNAL GPtrArray *psc_cache_get_pending (PscCache *self);
G_GNUC_INTERNAL gboolean psc_cache_is_owner_thread (PscCache *self);
/* Completes GTask requests whose GCancellable fired (called by
 * psc_cache_begin_frame after the core's pump). */
G_GNUC_INTERNAL void psc_cache_async_pump (PscCache *self);

G_END_DECLS
