/* psc-descriptor-private.h: the managed descriptor layer's structures, for
 * its files (layout, pool and set, plan, writer) and the test hooks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-resource-private.h"

G_BEGIN_DECLS

/* The Vulkan entry points the layer calls, loaded once per pool. */
typedef struct {
  VkDevice device;
  const VkAllocationCallbacks *allocator;
  PFN_vkCreateDescriptorPool CreateDescriptorPool;
  PFN_vkDestroyDescriptorPool DestroyDescriptorPool;
  PFN_vkResetDescriptorPool ResetDescriptorPool;
  PFN_vkAllocateDescriptorSets AllocateDescriptorSets;
  PFN_vkUpdateDescriptorSets UpdateDescriptorSets;
} PscDescriptorVk;

gboolean psc_descriptor_vk_load (PscDescriptorVk *vk, PscDevice *device, GError **error);

/* One binding's facts, in binding-number order. */
typedef struct {
  guint32 binding;
  VkDescriptorType type;
  guint32 count;                /* the layout's; a variable binding's maximum */
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;
  guint32 first_slot;           /* its first slot in a set's slot array */
  /* Buffer bindings: the device's offset alignment minus one (a power of
   * two by the spec) and range limit for the type (0: none). */
  VkDeviceSize align_mask;
  guint64 max_range;
} PscBindingFacts;

/* Binding numbers below this find their facts by direct index. */
#define PSC_DESCRIPTOR_DIRECT_BINDINGS 32

struct _PscDescriptorLayout {
  PscDevice *device;
  VkDescriptorSetLayout handle; /* the cache's: never evicted */
  VkDescriptorSetLayoutCreateFlags flags;
  guint n_bindings;
  PscBindingFacts *bindings;    /* n_bindings */
  guint32 n_slots;              /* sum of the counts */
  gboolean has_variable;        /* the last binding is VARIABLE_DESCRIPTOR_COUNT */
  /* Index + 1 into bindings of binding numbers below
   * PSC_DESCRIPTOR_DIRECT_BINDINGS, 0 where there is none. */
  guint8 direct[PSC_DESCRIPTOR_DIRECT_BINDINGS];
};

/* The binding facts of @binding, or NULL (a binary search beyond the
 * direct index). */
const PscBindingFacts *psc_descriptor_layout_find (const PscDescriptorLayout *layout, guint32 binding);

struct _PscDescriptorPool {
  PscDevice *device;
  PscDescriptorVk vk;
  VkDescriptorPool handle;      /* VK_NULL_HANDLE once destroyed */
  VkDescriptorPoolCreateFlags flags;
  guint64 generation;           /* advanced by a successful reset and by destruction */
  guint32 max_sets;             /* VkDescriptorPoolCreateInfo.maxSets */
  guint32 n_allocated;          /* sets allocated since creation or the last reset */
  /* Test hook (psc-test-hooks.c): when not VK_SUCCESS, the next reset
   * fails with it without calling Vulkan. */
  VkResult fail_next_reset;
};

typedef enum {
  PSC_SLOT_EMPTY,
  PSC_SLOT_BUFFER,              /* uniform / storage buffer, dynamic or not */
  PSC_SLOT_IMAGE,               /* sampled / storage image, combined image sampler */
  PSC_SLOT_SAMPLER,
  PSC_SLOT_TEXEL_BUFFER,
  PSC_SLOT_UNTRACKED,           /* written by write_raw_untracked: owns nothing */
} PscSlotKind;

struct _PscDescriptorEntry {
  PscSlotKind kind;
  VkDescriptorType type;
  PscBuffer *buffer;            /* owned references, by kind */
  VkDeviceSize offset, range;   /* buffers: range normalized (no VK_WHOLE_SIZE) */
  PscImageView *view;
  VkImageLayout layout;
  PscSampler *sampler;          /* sampler, or combined image sampler */
  PscBufferView *buffer_view;
};

struct _PscDescriptorSet {
  PscDescriptorPool *pool;      /* owned reference */
  PscDescriptorLayout *layout;  /* owned reference */
  VkDescriptorSet handle;
  guint64 generation;           /* the pool's at allocation */
  guint32 variable_count;       /* the variable binding's count (else 0) */
  PscDescriptorEntry *slots;    /* layout->n_slots */
  guint32 required_empty;       /* empty slots of bindings that are not PARTIALLY_BOUND */
};

/* Whether a slot of @b must be filled before a commit completes. */
static inline gboolean
psc_binding_requires_fill (const PscBindingFacts *b)
{
  return (b->flags & VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT) == 0;
}

/* The count of @b in @set (the variable count for a variable binding). */
static inline guint32
psc_descriptor_set_binding_count (const PscDescriptorSet *set, const PscBindingFacts *b)
{
  return (b->flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0
         ? set->variable_count : b->count;
}
/* FALSE with PSC_DESCRIPTOR_ERROR_STALE_SET if the pool moved on. */
gboolean psc_descriptor_set_check_fresh (const PscDescriptorSet *set, GError **error);
/* Drops what @e retains and empties it. */
void psc_descriptor_entry_clear (PscDescriptorEntry *e);

/* What a bind plan reports per slot (psc-descriptor-bind.c); a copy made
 * for bindings (psc-descriptor-bindings.c) holds references instead. */
struct _PscDescriptorAccess {
  guint set;
  guint32 binding, array_element;
  VkDescriptorType type;
  PscBuffer *buffer;            /* borrowed from the set's entry */
  PscImageView *view;           /* borrowed */
  guint64 handle;               /* VkBuffer or VkImage */
  VkDeviceSize offset, range;
  VkImageLayout layout;
  VkImageSubresourceRange subresource;
  VkPipelineStageFlags2 stages;
  VkAccessFlags2 access;
};

/* ---------------------------------------------------------------------------
 * The write plan (psc-descriptor-plan.c): the one validation of managed
 * writes, graph-agnostic. A staged write names a slot and what it should
 * bind (borrowed: the caller keeps the resources alive until the commit); the plan checks every write
 * against the layout facts and the device, then the completeness of the set
 * as it would be after them, and gives the Vulkan writes and the new
 * entries; nothing is applied.
 */
typedef struct {
  guint32 binding;
  guint32 array_element;
  PscSlotKind kind;             /* PSC_SLOT_EMPTY: a clear */
  PscBuffer *buffer;
  VkDeviceSize offset, range;
  PscImageView *view;
  VkImageLayout layout;
  PscSampler *sampler;
  PscBufferView *buffer_view;
} PscStagedWrite;


/* One slot the plan changes: the staged write that wins it (the last one
 * naming the slot) and the range it binds (buffers: normalized). */
typedef struct {
  guint32 slot;
  guint write;                  /* index into the staged writes */
  VkDeviceSize range;
  const PscBindingFacts *facts; /* the slot's binding */
} PscPlannedSlot;

/* Reused from build to build (a writer keeps one): no allocation once the
 * arrays have grown to a commit's size (plain arrays: the hot path copies
 * structures by assignment). */
typedef struct {
  guint capacity;               /* of every array below */
  guint n_writes;               /* Vulkan writes (clears make none) */
  VkWriteDescriptorSet *writes;
  VkDescriptorBufferInfo *buffer_infos;   /* one per planned slot */
  VkDescriptorImageInfo *image_infos;     /* one per planned slot */
  VkBufferView *texel_views;              /* one per planned slot */
  guint n_slots;
  PscPlannedSlot *slots;        /* in slot order */
  gint64 required_empty_delta;  /* change of the set's required-but-empty slots */
  /* The write count of the last plan when it had the simple shape (no
   * clear, no slot twice, staged in slot order: write i is slot i and
   * Vulkan write i), else 0: a batch of the same bindings, elements and
   * kinds (read back from the slots) reuses its slots and Vulkan writes,
   * and only its resources are checked and filled in. */
  guint shape_n;
} PscDescriptorPlan;

void psc_descriptor_plan_init (PscDescriptorPlan *plan);
void psc_descriptor_plan_clear (PscDescriptorPlan *plan);
/* Validates @writes against @set (not changed) and fills @plan; FALSE with
 * @error naming writes[i] and the field, or the incompleteness. */
gboolean psc_descriptor_plan_build (PscDescriptorPlan *plan, const PscDescriptorSet *set,
                                    const PscStagedWrite *writes, guint n_writes, GError **error);

G_END_DECLS
