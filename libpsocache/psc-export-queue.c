/* psc-export-queue.c: the bounded queue of D-Bus controls between the
 * export's bus thread and the cache's owner thread (psc-export-queue.h):
 * posting with the Busy and Closed refusals and a timeout each, taking,
 * completing, and the replies, which the bus thread builds and sends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-export-queue.h"

#include <glib/gi18n-lib.h>

struct _PscControlQueue
{
  GMainContext *context;        /* the bus thread's */
  GMutex lock;
  GQueue queue;                 /* PscControl *, oldest first */
  GQueue done;                  /* completed, their replies not sent yet */
  GSource *flush;               /* the pending reply of done, or NULL */
  gboolean closing;
};


struct _PscControl
{
  PscControlKind kind;
  guint32 u, u2;
  guint64 t;
  GDBusMethodInvocation *invocation;
  PscControlQueue *queue;       /* its queue, for the timeout */
  GSource *timeout;
  gboolean queued;              /* under queue->lock */
  /* The result, set by whoever completes it. */
  guint64 value;
  GError *error;
  PscCoreEntryInfo *page;
  guint32 count, total;
};

static void
control_clear (gpointer data)
{
  PscControl *c = data;

  /* Every path answers the invocation before the last reference goes (a
   * reply consumes it); this is only a safety net. */
  g_clear_object (&c->invocation);
  g_clear_error (&c->error);
  g_clear_pointer (&c->page, g_free);
}

static void
control_unref (PscControl *c)
{
  g_atomic_rc_box_release_full (c, control_clear);
}

static gboolean
control_timed_out (gpointer data)
{
  PscControl *c = data;
  PscControlQueue *q = c->queue;
  gboolean still_queued;

  g_mutex_lock (&q->lock);
  still_queued = c->queued;
  if (still_queued)
    {
      g_queue_remove (&q->queue, c);
      c->queued = FALSE;
    }
  g_mutex_unlock (&q->lock);
  if (still_queued)
    {
      /* Never applied: the owner thread can no longer take it. */
      g_dbus_method_invocation_return_error (g_steal_pointer (&c->invocation), PSC_EXPORT_ERROR,
                                             PSC_EXPORT_ERROR_TIMEOUT,
                                             _("the application did not apply the call within %d ms "
                                               "(it calls psc_cache_begin_frame too rarely, or not "
                                               "at all); nothing was done"),
                                             PSC_EXPORT_CONTROL_TIMEOUT_MS);
      g_source_unref (g_steal_pointer (&c->timeout));
      control_unref (c);        /* the queue's reference */
    }
  return G_SOURCE_REMOVE;
}

/* Queues a control (bus thread). Consumes nothing: the invocation is
 * answered here (Closed, Busy) or by the owner thread or the timeout. */
void
psc_control_queue_post (PscControlQueue *q, GDBusMethodInvocation *invocation,
                        PscControlKind kind, guint32 u, guint32 u2, guint64 t)
{
  PscControl *c;

  g_mutex_lock (&q->lock);
  if (q->closing || g_queue_get_length (&q->queue) >= PSC_EXPORT_CONTROL_QUEUE)
    {
      const gboolean closing = q->closing;
      g_mutex_unlock (&q->lock);
      if (closing)
        g_dbus_method_invocation_return_error_literal (invocation, PSC_ERROR, PSC_ERROR_CLOSED,
                                                       _("the cache is closing"));
      else
        g_dbus_method_invocation_return_error (invocation, PSC_EXPORT_ERROR,
                                               PSC_EXPORT_ERROR_BUSY,
                                               _("%d calls already wait for the application; "
                                                 "try again later"),
                                               PSC_EXPORT_CONTROL_QUEUE);
      return;
    }
  c = g_atomic_rc_box_new0 (PscControl);
  c->kind = kind;
  c->u = u;
  c->u2 = u2;
  c->t = t;
  c->invocation = g_object_ref (invocation);
  c->queue = q;
  c->queued = TRUE;
  /* Two references: the queue's (dropped by whoever takes the control out:
   * the owner thread, the timeout, the unexport) and the timeout source's. */
  g_queue_push_tail (&q->queue, c);
  c->timeout = g_timeout_source_new (PSC_EXPORT_CONTROL_TIMEOUT_MS);
  g_source_set_callback (c->timeout, control_timed_out, g_atomic_rc_box_acquire (c),
                         (GDestroyNotify) control_unref);
  g_source_attach (c->timeout, q->context);
  g_mutex_unlock (&q->lock);
}

guint
psc_control_queue_length (PscControlQueue *q)
{
  guint n;

  g_mutex_lock (&q->lock);
  n = g_queue_get_length (&q->queue);
  g_mutex_unlock (&q->lock);
  return n;
}

PscControl *
psc_control_queue_take (PscControlQueue *q)
{
  PscControl *c;

  g_mutex_lock (&q->lock);
  c = g_queue_pop_head (&q->queue);
  if (c != NULL)
    c->queued = FALSE;
  g_mutex_unlock (&q->lock);
  return c;
}

PscControlKind
psc_control_kind (const PscControl *c)
{
  return c->kind;
}

guint32
psc_control_u (const PscControl *c)
{
  return c->u;
}

guint32
psc_control_u2 (const PscControl *c)
{
  return c->u2;
}

guint64
psc_control_t (const PscControl *c)
{
  return c->t;
}

/* PscObjectKind's nicks, by the core's kind. */
static const char *const kind_nicks[PSC_KIND_COUNT] = {
  [PSC_KIND_SAMPLER] = "sampler",
  [PSC_KIND_SET_LAYOUT] = "descriptor-set-layout",
  [PSC_KIND_PIPELINE_LAYOUT] = "pipeline-layout",
  [PSC_KIND_RENDER_PASS] = "render-pass",
  [PSC_KIND_GRAPHICS] = "graphics-pipeline",
  [PSC_KIND_COMPUTE] = "compute-pipeline",
  [PSC_KIND_SHADER] = "shader-module",
};

static const char *
kind_nick (guint8 kind)
{
  return kind < PSC_KIND_COUNT ? kind_nicks[kind] : "unknown";
}

static const char *
state_nick (const PscCoreEntryInfo *e)
{
  switch (e->state)
    {
    case 1:
      return e->stale ? "stale" : "ready";
    case 2:
      return "compiling";
    case 3:
      return "failed";
    case 4:
      return "released";
    default:
      return "unknown";
    }
}

/* The reply of a completed control (bus thread). */
static GVariant *
control_reply (PscControl *c)
{
  GVariantBuilder b;

  switch (c->kind)
    {
    case PSC_CONTROL_EVICT:
      return g_variant_new ("(u)", (guint32) MIN (c->value, G_MAXUINT32));
    case PSC_CONTROL_TRIM:
      return g_variant_new ("(t)", c->value);
    case PSC_CONTROL_LIST_ENTRIES:
      g_variant_builder_init (&b, G_VARIANT_TYPE ("a(ustsutt)"));
      for (guint32 i = 0; i < c->count; i++)
        {
          const PscCoreEntryInfo *e = &c->page[i];
          g_variant_builder_add (&b, "(ustsutt)", e->id, kind_nick (e->kind), e->key_hash,
                                 state_nick (e), e->generation, e->last_used_frame,
                                 e->host_bytes);
        }
      return g_variant_new ("(a(ustsutt)u)", &b, c->total);
    default:
      return g_variant_new ("()");
    }
}

/* Completion. The owner thread only records the result and hands the
 * completed controls to the bus thread, all of a frame at once
 * (psc_export_bus_flush: one wake-up), which builds the replies and sends
 * them: a ListEntries page as GVariant and its serialization cost the
 * owner thread some 0.5 ms a call (psc-bench dbus); copying the page
 * costs it next to nothing. */
static void
reply_control (PscControl *c)
{
  GDBusMethodInvocation *inv = g_steal_pointer (&c->invocation);

  /* Taken out of the queue: its timeout no longer matters. */
  g_source_destroy (c->timeout);
  g_clear_pointer (&c->timeout, g_source_unref);
  if (c->error != NULL)
    g_dbus_method_invocation_return_gerror (inv, c->error);
  else
    g_dbus_method_invocation_return_value (inv, control_reply (c));
  control_unref (c);
}

/* Takes the completed controls out (bus thread); reply them after. */
static GQueue
take_done (PscControlQueue *q)
{
  GQueue done;

  g_mutex_lock (&q->lock);
  done = q->done;
  g_queue_init (&q->done);
  if (q->flush != NULL)
    {
      g_source_destroy (q->flush);
      g_clear_pointer (&q->flush, g_source_unref);
    }
  g_mutex_unlock (&q->lock);
  return done;
}

void
psc_control_queue_reply_done (PscControlQueue *q)
{
  GQueue done = take_done (q);
  PscControl *c;

  while ((c = g_queue_pop_head (&done)) != NULL)
    reply_control (c);
}

static gboolean
flush_on_bus (gpointer data)
{
  psc_control_queue_reply_done (data);
  return G_SOURCE_REMOVE;
}

void
psc_control_queue_flush (PscControlQueue *q)
{
  g_mutex_lock (&q->lock);
  if (q->flush == NULL && !g_queue_is_empty (&q->done))
    {
      q->flush = g_idle_source_new ();
      /* The priority of the bus's own dispatch: an idle-priority flush
       * would starve while clients keep the thread busy. Sources of one
       * priority run in the order they were attached, so the signals a
       * frame's controls caused go out before their replies. */
      g_source_set_priority (q->flush, G_PRIORITY_DEFAULT);
      g_source_set_callback (q->flush, flush_on_bus, q, NULL);
      g_source_attach (q->flush, q->context);
    }
  g_mutex_unlock (&q->lock);
}

static void
control_finish (PscControl *c)
{
  PscControlQueue *q = c->queue;

  g_mutex_lock (&q->lock);
  g_queue_push_tail (&q->done, c);
  g_mutex_unlock (&q->lock);
}

void
psc_control_complete (PscControl *c, guint64 value)
{
  c->value = value;
  control_finish (c);
}

void
psc_control_complete_entries (PscControl *c, PscCoreEntryInfo *entries, guint32 count,
                              guint32 total)
{
  c->page = entries;
  c->count = count;
  c->total = total;
  control_finish (c);
}

void
psc_control_fail (PscControl *c, const GError *error)
{
  c->error = g_error_copy (error);
  control_finish (c);
}

PscControlQueue *
psc_control_queue_new (GMainContext *bus_context)
{
  PscControlQueue *q = g_new0 (PscControlQueue, 1);

  q->context = g_main_context_ref (bus_context);
  g_mutex_init (&q->lock);
  g_queue_init (&q->queue);
  g_queue_init (&q->done);
  return q;
}

void
psc_control_queue_close (PscControlQueue *q)
{
  GQueue taken;
  PscControl *c;
  g_autoptr(GError) closed = g_error_new_literal (PSC_ERROR, PSC_ERROR_CLOSED,
                                                  _("the cache was unexported or is closing"));

  g_mutex_lock (&q->lock);
  q->closing = TRUE;
  taken = q->queue;
  g_queue_init (&q->queue);
  for (GList *l = taken.head; l != NULL; l = l->next)
    ((PscControl *) l->data)->queued = FALSE;
  g_mutex_unlock (&q->lock);
  while ((c = g_queue_pop_head (&taken)) != NULL)
    psc_control_fail (c, closed);
}

void
psc_control_queue_free (PscControlQueue *q)
{
  g_assert (g_queue_is_empty (&q->queue) && g_queue_is_empty (&q->done) && q->flush == NULL);
  g_mutex_clear (&q->lock);
  g_main_context_unref (q->context);
  g_free (q);
}
