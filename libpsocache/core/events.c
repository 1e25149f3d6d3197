/* events.c: the owner thread's event queue (see events.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "events.h"

#include "stats.h"

#include <stdlib.h>

/* The next free record of the current buffer, or NULL (counted as
 * dropped) when the batch is full or the buffers cannot be allocated. */
static PscCoreEvent *
next_record (PscCore *core)
{
  PscEventQueue *q = &core->events;
  if (q->buffer[0] == NULL)
    {
      q->buffer[0] = calloc (PSC_CORE_EVENT_CAPACITY, sizeof (PscCoreEvent));
      q->buffer[1] = calloc (PSC_CORE_EVENT_CAPACITY, sizeof (PscCoreEvent));
      if (q->buffer[0] == NULL || q->buffer[1] == NULL)
        {
          free (q->buffer[0]);
          free (q->buffer[1]);
          q->buffer[0] = q->buffer[1] = NULL;
        }
    }
  if (q->buffer[0] == NULL || q->count == PSC_CORE_EVENT_CAPACITY)
    {
      q->dropped++;
      psc_stat_add (&core->stats.events_dropped, 1);
      return NULL;
    }
  return &q->buffer[q->current][q->count++];
}

void
psc_events_pipeline (PscCore *core, PscCoreEventType type, const PscEntry *e, VkResult result)
{
  PscCoreEvent *ev = next_record (core);
  if (ev == NULL)
    return;
  *ev = (PscCoreEvent) {
    .type = (uint8_t) type,
    .kind = e->kind,
    .result = (int32_t) result,
    .pipeline = type == PSC_CORE_EVENT_PIPELINE_READY ? e->handle : 0,
    .key_hash = psc_core_hash (core, e->key, e->key_len),
  };
}

void
psc_events_shader_reloaded (PscCore *core, uint32_t shader_id, uint32_t generation)
{
  PscCoreEvent *ev = next_record (core);
  if (ev == NULL)
    return;
  *ev = (PscCoreEvent) {
    .type = PSC_CORE_EVENT_SHADER_RELOADED,
    .shader_id = shader_id,
    .generation = generation,
  };
}

void
psc_events_evicted (PscCore *core, uint32_t n)
{
  PscEventQueue *q = &core->events;
  q->evicted = q->evicted > UINT32_MAX - n ? UINT32_MAX : q->evicted + n;
}

bool
psc_core_take_events (PscCore *core, PscCoreEvents *out)
{
  *out = (PscCoreEvents) { 0 };
  if (!psc_core_check_thread (core, NULL))
    return false;
  PscEventQueue *q = &core->events;
  out->events = q->buffer[q->current];
  out->count = q->count;
  out->evicted = q->evicted;
  out->dropped = q->dropped;
  q->current ^= 1u;
  q->count = q->evicted = q->dropped = 0;
  return out->count > 0 || out->evicted > 0 || out->dropped > 0;
}

void
psc_events_free (PscCore *core)
{
  free (core->events.buffer[0]);
  free (core->events.buffer[1]);
  core->events.buffer[0] = core->events.buffer[1] = NULL;
}
