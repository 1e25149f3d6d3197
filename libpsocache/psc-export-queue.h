/* psc-export-queue.h: the bounded queue of D-Bus controls (and
 * ListEntries) between the export's bus thread, which posts them, and the
 * cache's owner thread, which takes and applies them at begin_frame
 * (psc-export-queue.c). The owner thread only records a result; the bus
 * thread builds and sends every reply. Under the queue's own mutex; a
 * control is reference-counted (the queue's or its taker's reference, and
 * its timeout's).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "psc-private.h"

G_BEGIN_DECLS

/* Controls, queued by the bus thread, taken by the owner thread. */
typedef enum {
  PSC_CONTROL_EVICT,              /* u: idle frames */
  PSC_CONTROL_INVALIDATE_SHADER,  /* u: shader id */
  PSC_CONTROL_INVALIDATE_ALL,
  PSC_CONTROL_SAVE,
  PSC_CONTROL_TRIM,               /* t: max bytes */
  PSC_CONTROL_LIST_ENTRIES,       /* u: offset, u2: limit (capped) */
} PscControlKind;

typedef struct _PscControl PscControl;

typedef struct _PscControlQueue PscControlQueue;

/* A queue whose timeouts and replies run on @bus_context (the bus
 * thread's). Free it once closed and its replies sent. */
G_GNUC_INTERNAL PscControlQueue *psc_control_queue_new (GMainContext *bus_context);
G_GNUC_INTERNAL void psc_control_queue_free (PscControlQueue *q);

/* Bus thread. Queues a control for @invocation, or answers it at once:
 * io.github.psocache.Error.Closed once closed, .Busy when
 * PSC_EXPORT_CONTROL_QUEUE wait already. A queued control not taken
 * within PSC_EXPORT_CONTROL_TIMEOUT_MS is answered .Timeout and dropped
 * (never applied). */
G_GNUC_INTERNAL void psc_control_queue_post (PscControlQueue *q,
                                             GDBusMethodInvocation *invocation,
                                             PscControlKind kind, guint32 u, guint32 u2,
                                             guint64 t);
/* Bus thread: sends the replies of the controls completed so far
 * (psc_control_queue_flush schedules it; the unexport calls it). */
G_GNUC_INTERNAL void psc_control_queue_reply_done (PscControlQueue *q);
/* Owner thread (the unexport): refuses what comes from now on and
 * completes every queued control with PSC_ERROR_CLOSED; their replies go
 * out at the next psc_control_queue_reply_done. */
G_GNUC_INTERNAL void psc_control_queue_close (PscControlQueue *q);

/* Owner thread. How many controls are queued now; the oldest, now the
 * caller's, or NULL (each one taken must be completed exactly once). */
G_GNUC_INTERNAL guint psc_control_queue_length (PscControlQueue *q);
G_GNUC_INTERNAL PscControl *psc_control_queue_take (PscControlQueue *q);
G_GNUC_INTERNAL PscControlKind psc_control_kind (const PscControl *c);
G_GNUC_INTERNAL guint32 psc_control_u (const PscControl *c);
G_GNUC_INTERNAL guint32 psc_control_u2 (const PscControl *c);
G_GNUC_INTERNAL guint64 psc_control_t (const PscControl *c);
/* Completions (owner thread; each consumes @c): the result is recorded,
 * and the reply goes out from the bus thread after the next
 * psc_export_bus_flush. complete: Evict (u), Trim (t),
 * InvalidateShader/InvalidateAll/Save (value unused); entries: ListEntries
 * (takes @entries, g_malloc'd). */
G_GNUC_INTERNAL void psc_control_complete (PscControl *c, guint64 value);
G_GNUC_INTERNAL void psc_control_complete_entries (PscControl *c, PscCoreEntryInfo *entries,
                                                   guint32 count, guint32 total);
G_GNUC_INTERNAL void psc_control_fail (PscControl *c, const GError *error);
/* Hands the controls completed since the last flush to the bus thread,
 * which sends their replies (one wake-up for all). Owner thread. */
G_GNUC_INTERNAL void psc_control_queue_flush (PscControlQueue *q);

G_END_DECLS
