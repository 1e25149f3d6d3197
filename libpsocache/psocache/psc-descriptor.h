/* psc-descriptor.h: managed descriptor sets that retain what they bind:
 * layouts with their binding facts, pools with generations, sets with
 * binding maps, and the writer that validates before it updates.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <vulkan/vulkan.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-cache.h>
#include <psocache/psc-resource.h>

G_BEGIN_DECLS

/**
 * PSC_DESCRIPTOR_ERROR:
 *
 * The error domain of the managed descriptor layer's own refusals, the
 * codes of [error@Psc.DescriptorError]. Malformed arguments are
 * %PSC_ERROR_INVALID_ARGUMENT and descriptor types the layer does not manage
 * %PSC_ERROR_UNSUPPORTED, each with the field path.
 *
 * Since: 0.3
 */
#define PSC_DESCRIPTOR_ERROR (psc_descriptor_error_quark ())

/**
 * PscDescriptorError:
 * @PSC_DESCRIPTOR_ERROR_STALE_SET: the set's pool was reset or destroyed
 *   after the set was allocated: its handle is no longer a valid set
 * @PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED: a binding flag or descriptor
 *   type needs a descriptor-indexing feature the device was not created
 *   with (whatever the physical device supports); the message names it
 * @PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE: a managed image write named a
 *   view of a swapchain image, which a wrapper cannot keep alive
 * @PSC_DESCRIPTOR_ERROR_INVALIDATED: a write named an invalidated resource
 * @PSC_DESCRIPTOR_ERROR_INCOMPLETE: a commit would leave an empty slot in
 *   a binding that is not `VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT`
 *
 * The refusals of managed descriptor sets (see [struct@Psc.DescriptorSet]).
 * Later versions may add codes.
 *
 * Since: 0.3
 */
typedef enum {
  PSC_DESCRIPTOR_ERROR_STALE_SET,
  PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED,
  PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE,
  PSC_DESCRIPTOR_ERROR_INVALIDATED,
  PSC_DESCRIPTOR_ERROR_INCOMPLETE,
} PscDescriptorError PSC_AVAILABLE_TYPE_IN_0_3;

/**
 * PSC_DESCRIPTOR_MAX_BINDINGS:
 *
 * The most bindings a managed layout may have.
 *
 * Since: 0.3
 */
#define PSC_DESCRIPTOR_MAX_BINDINGS 64

/**
 * PSC_DESCRIPTOR_MAX_ARRAY:
 *
 * The largest `descriptorCount` of one binding of a managed layout.
 *
 * Since: 0.3
 */
#define PSC_DESCRIPTOR_MAX_ARRAY 65536

#define PSC_TYPE_DESCRIPTOR_LAYOUT (psc_descriptor_layout_get_type ())
#define PSC_TYPE_DESCRIPTOR_POOL (psc_descriptor_pool_get_type ())
#define PSC_TYPE_DESCRIPTOR_SET (psc_descriptor_set_get_type ())
#define PSC_TYPE_DESCRIPTOR_ENTRY (psc_descriptor_entry_get_type ())
#define PSC_TYPE_DESCRIPTOR_WRITER (psc_descriptor_writer_get_type ())
#define PSC_TYPE_DYNAMIC_OFFSET (psc_dynamic_offset_get_type ())
#define PSC_TYPE_BIND_PLAN (psc_bind_plan_get_type ())
#define PSC_TYPE_DESCRIPTOR_ACCESS (psc_descriptor_access_get_type ())

/**
 * PscDescriptorLayout:
 *
 * A descriptor-set layout the cache issued, with the facts of each binding
 * (number, type, count, stages, binding flags) retained, checked against
 * the device's enabled features. Immutable; reference counted
 * (atomically); any thread.
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorLayout PscDescriptorLayout;

/**
 * PscDescriptorPool:
 *
 * A `VkDescriptorPool` the library creates, and its generation: a counter
 * that a successful reset or the destruction advances, so every managed
 * set allocated before is detectably stale. A pool and its sets are
 * externally synchronized, as Vulkan's are: one thread at a time.
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorPool PscDescriptorPool;

/**
 * PscDescriptorSet:
 *
 * A managed descriptor set: its handle, its layout, the pool generation it
 * was allocated in, and a binding map keyed by (binding, array element)
 * whose entries retain the resources they bind.
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorSet PscDescriptorSet;

/**
 * PscDescriptorEntry:
 *
 * One slot of a managed set's binding map: what (binding, array element)
 * binds, read with the `psc_descriptor_entry_*` getters. It belongs to the
 * set and is valid until the set's next commit, untracked write or
 * release; a copy ([method@Psc.DescriptorEntry.copy], what bindings get)
 * holds references of its own.
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorEntry PscDescriptorEntry;

/**
 * PscDescriptorWriter:
 *
 * Stages writes to a managed set and commits them together: the shared
 * validation builds a write plan first, and only a valid plan updates the
 * set and then its retained owners. Used on the set's thread; reference
 * counted (psc_descriptor_writer_unref()).
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorWriter PscDescriptorWriter;

/**
 * PscDynamicOffset:
 * @set: the set, as an index into the sets given to
 *   psc_bind_plan_build()
 * @binding: a dynamic uniform or storage buffer binding of that set
 * @array_element: its element
 * @offset: the dynamic offset, in bytes
 *
 * One dynamic offset, named by where it applies; psc_bind_plan_build()
 * puts them in the order `vkCmdBindDescriptorSets` wants.
 *
 * Since: 0.3
 */
typedef struct {
  guint32 set;
  guint32 binding;
  guint32 array_element;
  guint32 offset;
} PscDynamicOffset;

/**
 * PscBindPlan:
 *
 * What one `vkCmdBindDescriptorSets` binds: the sets' handles and their
 * dynamic offsets in Vulkan's order, validated; and on request the memory
 * accesses a draw with them performs, per binding (for a render graph).
 * Reused from draw to draw (no allocation once grown); one thread at a
 * time; reference counted (psc_bind_plan_unref()).
 *
 * Since: 0.3
 */
typedef struct _PscBindPlan PscBindPlan;

/**
 * PscDescriptorAccess:
 *
 * One memory access a bound descriptor performs: the resource (its
 * wrapper, and its raw `VkBuffer` or `VkImage` handle for identity when a
 * graph also knows it by handle), the range, for images the layout and
 * subresource range, the pipeline stages and the access flags. Read with
 * the `psc_descriptor_access_*` getters; it belongs to its plan and is
 * valid until the plan's next build.
 *
 * Since: 0.3
 */
typedef struct _PscDescriptorAccess PscDescriptorAccess;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

PSC_AVAILABLE_IN_0_3
GQuark psc_descriptor_error_quark (void);

/* Layouts */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_layout_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorLayout *psc_descriptor_layout_new (PscCache                              *cache,
                                                const VkDescriptorSetLayoutCreateInfo *info,
                                                GError                               **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorLayout *psc_descriptor_layout_new_for_recipe (PscCache   *cache,
                                                           PscRecipe  *recipe,
                                                           guint       set,
                                                           GError    **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorLayout *psc_descriptor_layout_ref (PscDescriptorLayout *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_layout_unref (PscDescriptorLayout *self);
PSC_AVAILABLE_IN_0_3
VkDescriptorSetLayout psc_descriptor_layout_get_handle (PscDescriptorLayout *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_layout_get_handle_value (PscDescriptorLayout *self);
PSC_AVAILABLE_IN_0_3
guint psc_descriptor_layout_get_n_bindings (PscDescriptorLayout *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_layout_get_binding (PscDescriptorLayout       *self,
                                            guint32                    binding,
                                            VkDescriptorType          *out_type,
                                            guint32                   *out_count,
                                            VkShaderStageFlags        *out_stages,
                                            VkDescriptorBindingFlags  *out_flags);

/* Pools */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_pool_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorPool *psc_descriptor_pool_new (PscDevice                        *device,
                                            const VkDescriptorPoolCreateInfo *info,
                                            GError                          **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorPool *psc_descriptor_pool_new_for_layout (PscDevice            *device,
                                                       PscDescriptorLayout  *layout,
                                                       guint32               max_sets,
                                                       GError              **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorPool *psc_descriptor_pool_ref (PscDescriptorPool *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_pool_unref (PscDescriptorPool *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_pool_get_generation (PscDescriptorPool *self);
PSC_AVAILABLE_IN_0_3
PscDescriptorSet *psc_descriptor_pool_allocate_managed (PscDescriptorPool    *self,
                                                        PscDescriptorLayout  *layout,
                                                        guint32               variable_count,
                                                        GError              **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_pool_allocate_untracked (PscDescriptorPool      *self,
                                                 VkDescriptorSetLayout   layout,
                                                 VkDescriptorSet        *out_set,
                                                 GError                **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_pool_reset_unlocked (PscDescriptorPool  *self,
                                             GError            **error);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_pool_destroy_unlocked (PscDescriptorPool *self);

/* Sets */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_set_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorSet *psc_descriptor_set_ref (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_set_unref (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_set_get_handle (PscDescriptorSet  *self,
                                        VkDescriptorSet   *out_set,
                                        GError           **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorLayout *psc_descriptor_set_get_layout (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_set_get_generation (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_set_is_stale (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_set_get_variable_count (PscDescriptorSet *self);
PSC_AVAILABLE_IN_0_3
const PscDescriptorEntry *psc_descriptor_set_get_entry (PscDescriptorSet  *self,
                                                        guint32            binding,
                                                        guint32            array_element,
                                                        GError           **error);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_set_write_raw_untracked (PscDescriptorSet            *self,
                                                 guint32                      n_writes,
                                                 const VkWriteDescriptorSet  *writes,
                                                 GError                     **error);

/* Entries */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_entry_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorEntry *psc_descriptor_entry_copy (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_entry_free (PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_entry_is_filled (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_entry_is_untracked (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
VkDescriptorType psc_descriptor_entry_get_descriptor_type (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_entry_get_descriptor_type_value (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
PscBuffer *psc_descriptor_entry_get_buffer (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_entry_get_offset (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_entry_get_range (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
PscImageView *psc_descriptor_entry_get_image_view (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
VkImageLayout psc_descriptor_entry_get_image_layout (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_entry_get_image_layout_value (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
PscSampler *psc_descriptor_entry_get_sampler (const PscDescriptorEntry *self);
PSC_AVAILABLE_IN_0_3
PscBufferView *psc_descriptor_entry_get_buffer_view (const PscDescriptorEntry *self);

/* Writers */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_writer_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorWriter *psc_descriptor_set_begin_write (PscDescriptorSet  *self,
                                                     GError           **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorWriter *psc_descriptor_set_begin_retained_write (PscDescriptorSet  *self,
                                                              GError           **error);
PSC_AVAILABLE_IN_0_3
PscDescriptorWriter *psc_descriptor_writer_ref (PscDescriptorWriter *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_unref (PscDescriptorWriter *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_write_buffer (PscDescriptorWriter *self,
                                         guint32              binding,
                                         guint32              array_element,
                                         PscBuffer           *buffer,
                                         VkDeviceSize         offset,
                                         VkDeviceSize         range);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_write_image (PscDescriptorWriter *self,
                                        guint32              binding,
                                        guint32              array_element,
                                        PscImageView        *view,
                                        VkImageLayout        layout,
                                        PscSampler          *sampler);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_write_sampler (PscDescriptorWriter *self,
                                          guint32              binding,
                                          guint32              array_element,
                                          PscSampler          *sampler);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_write_texel_buffer (PscDescriptorWriter *self,
                                               guint32              binding,
                                               guint32              array_element,
                                               PscBufferView       *view);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_writer_clear (PscDescriptorWriter *self,
                                  guint32              binding,
                                  guint32              array_element);
PSC_AVAILABLE_IN_0_3
guint psc_descriptor_writer_get_n_staged (PscDescriptorWriter *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_descriptor_writer_commit (PscDescriptorWriter  *self,
                                       GError              **error);

/* Binding */
PSC_AVAILABLE_IN_0_3
GType psc_dynamic_offset_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
GType psc_bind_plan_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscBindPlan *psc_bind_plan_new (void);
PSC_AVAILABLE_IN_0_3
PscBindPlan *psc_bind_plan_ref (PscBindPlan *self);
PSC_AVAILABLE_IN_0_3
void psc_bind_plan_unref (PscBindPlan *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_bind_plan_build (PscBindPlan                  *self,
                              guint                         n_sets,
                              PscDescriptorSet *const      *sets,
                              guint                         n_offsets,
                              const PscDynamicOffset       *offsets,
                              GError                      **error);
PSC_AVAILABLE_IN_0_3
const VkDescriptorSet *psc_bind_plan_get_sets (PscBindPlan *self,
                                               guint       *n_sets);
PSC_AVAILABLE_IN_0_3
const guint64 *psc_bind_plan_get_set_handles (PscBindPlan *self,
                                              guint       *n_sets);
PSC_AVAILABLE_IN_0_3
const guint32 *psc_bind_plan_get_dynamic_offsets (PscBindPlan *self,
                                                  guint       *n_offsets);
PSC_AVAILABLE_IN_0_3
gboolean psc_bind_plan_collect_accesses (PscBindPlan  *self,
                                         GError      **error);
PSC_AVAILABLE_IN_0_3
guint psc_bind_plan_get_n_accesses (PscBindPlan *self);
PSC_AVAILABLE_IN_0_3
const PscDescriptorAccess *psc_bind_plan_get_access (PscBindPlan *self,
                                                     guint        i);

/* Accesses */
PSC_AVAILABLE_IN_0_3
GType psc_descriptor_access_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscDescriptorAccess *psc_descriptor_access_copy (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_access_free (PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint psc_descriptor_access_get_set (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_access_get_binding (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_access_get_array_element (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
VkDescriptorType psc_descriptor_access_get_descriptor_type (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_access_get_descriptor_type_value (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
PscBuffer *psc_descriptor_access_get_buffer (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
PscImageView *psc_descriptor_access_get_image_view (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_access_get_handle (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_access_get_offset (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_access_get_range (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
VkImageLayout psc_descriptor_access_get_image_layout (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_descriptor_access_get_image_layout_value (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_access_get_subresource_range (const PscDescriptorAccess *self,
                                                  VkImageSubresourceRange   *out_range);
PSC_AVAILABLE_IN_0_3
void psc_descriptor_access_get_subresource_range_values (const PscDescriptorAccess *self,
                                                         guint32                   *aspect_mask,
                                                         guint32                   *base_mip_level,
                                                         guint32                   *level_count,
                                                         guint32                   *base_array_layer,
                                                         guint32                   *layer_count);
PSC_AVAILABLE_IN_0_3
VkPipelineStageFlags2 psc_descriptor_access_get_stages (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_access_get_stages_value (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
VkAccessFlags2 psc_descriptor_access_get_access (const PscDescriptorAccess *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_descriptor_access_get_access_value (const PscDescriptorAccess *self);

G_GNUC_END_IGNORE_DEPRECATIONS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscBindPlan, psc_bind_plan_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorLayout, psc_descriptor_layout_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorPool, psc_descriptor_pool_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorSet, psc_descriptor_set_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorWriter, psc_descriptor_writer_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorEntry, psc_descriptor_entry_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDescriptorAccess, psc_descriptor_access_free)

G_END_DECLS
