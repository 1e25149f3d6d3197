/* psc-material.h: material templates, their instances (inline or external
 * parameters) and the shader variant keys they resolve to.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib-object.h>
#include <psocache/psc-macros.h>
#include <psocache/psc-device.h>

G_BEGIN_DECLS

/**
 * PSC_MATERIAL_MAX_NAME_LENGTH:
 *
 * The longest shader base name [ctor@Psc.MaterialTemplate.new] accepts, in
 * bytes of UTF-8 (the terminating nul not counted): 255.
 *
 * Since: 0.3
 */
#define PSC_MATERIAL_MAX_NAME_LENGTH 255

/**
 * PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE:
 *
 * The largest parameter block a template may declare, in bytes: 65,536
 * (the `maxUniformBufferRange` of most desktop drivers; an external block
 * lives in the application's UBO or SSBO).
 *
 * Since: 0.3
 */
#define PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE 65536

/**
 * PSC_MATERIAL_MAX_INLINE_SIZE:
 *
 * The most bytes of parameters an instance carries inline, as push
 * constants, on any device: 128, the smallest `maxPushConstantsSize`
 * Vulkan guarantees. A device with a smaller limit (none conforms) lowers
 * it further: the inline bound is min (128,
 * [property@Psc.Device:max-push-constants-size]).
 *
 * Since: 0.3
 */
#define PSC_MATERIAL_MAX_INLINE_SIZE 128

/**
 * PscMaterialFlags:
 * @PSC_MATERIAL_FLAGS_NONE: no feature
 * @PSC_MATERIAL_FLAGS_ALPHA_TEST: the fragment shader discards by alpha;
 *   kept in depth-prepass and shadow variants (the depth-only discard
 *   needs it)
 * @PSC_MATERIAL_FLAGS_DOUBLE_SIDED: no back-face culling; kept in
 *   depth-prepass and shadow variants (rasterization state)
 * @PSC_MATERIAL_FLAGS_NORMAL_MAP: samples a tangent-space normal map
 * @PSC_MATERIAL_FLAGS_EMISSIVE: adds an emissive term
 * @PSC_MATERIAL_FLAGS_SKINNED: the vertex shader skins by joint weights
 * @PSC_MATERIAL_FLAGS_VERTEX_COLOR: multiplies by a per-vertex colour
 *
 * Shader features a material may use: a template says which it supports
 * ([ctor@Psc.MaterialTemplate.new]), an instance which it turns on
 * ([ctor@Psc.MaterialInstance.new_inline]). Their values are part of the
 * variant keys ([struct@Psc.ShaderVariantKey]), so they never change; later
 * versions add flags, and a version refuses the bits it does not know.
 *
 * Since: 0.3
 */
typedef enum { /*< flags >*/
  PSC_MATERIAL_FLAGS_NONE = 0,
  PSC_MATERIAL_FLAGS_ALPHA_TEST = 1 << 0,
  PSC_MATERIAL_FLAGS_DOUBLE_SIDED = 1 << 1,
  PSC_MATERIAL_FLAGS_NORMAL_MAP = 1 << 2,
  PSC_MATERIAL_FLAGS_EMISSIVE = 1 << 3,
  PSC_MATERIAL_FLAGS_SKINNED = 1 << 4,
  PSC_MATERIAL_FLAGS_VERTEX_COLOR = 1 << 5,
} PscMaterialFlags;

/**
 * PscPassKind:
 * @PSC_PASS_KIND_COLOR: the shading pass: every supported flag of the
 *   instance counts
 * @PSC_PASS_KIND_DEPTH_PREPASS: a depth-only prepass: only
 *   %PSC_MATERIAL_FLAGS_ALPHA_TEST and %PSC_MATERIAL_FLAGS_DOUBLE_SIDED
 *   count
 * @PSC_PASS_KIND_SHADOW: a shadow-map pass: as the depth prepass
 *
 * The kind of pass a variant key is resolved for
 * ([method@Psc.MaterialTemplate.resolve_variant_key]). The values are part
 * of the keys and never change.
 *
 * Since: 0.3
 */
typedef enum {
  PSC_PASS_KIND_COLOR,
  PSC_PASS_KIND_DEPTH_PREPASS,
  PSC_PASS_KIND_SHADOW,
} PscPassKind;

/**
 * PscShaderVariantKey:
 * @base_name_hash: FNV-1a (64 bits) of the template's shader base name
 *   ([method@Psc.MaterialTemplate.get_base_name_hash])
 * @flags: the [flags@Psc.MaterialFlags] the variant is compiled with: the
 *   instance's flags that the template supports, and of those only the
 *   ones the pass keeps
 * @pass: the [enum@Psc.PassKind] it was resolved for
 *
 * Which shader variant a material draws with in a pass. The key is plain
 * numbers: equal keys mean the same variant, in any process on any
 * machine, so a key can be stored or sent.
 *
 * The structure is fixed: it holds no count or size and no later version
 * adds members (new flags take bits of @flags, new passes values of
 * @pass), so applications declare keys on the stack and in arrays, and
 * compare and hash them with [method@Psc.ShaderVariantKey.equal] and
 * [method@Psc.ShaderVariantKey.hash]. It is 16 bytes with no padding.
 *
 * Since: 0.3
 */
typedef struct {
  guint64 base_name_hash;
  guint32 flags;
  guint32 pass;
} PscShaderVariantKey;

#define PSC_TYPE_SHADER_VARIANT_KEY (psc_shader_variant_key_get_type ())
#define PSC_TYPE_MATERIAL_TEMPLATE (psc_material_template_get_type ())
#define PSC_TYPE_MATERIAL_INSTANCE (psc_material_instance_get_type ())

/**
 * PscMaterialTemplate:
 *
 * What a family of materials shares: a shader base name, the features its
 * shaders support ([flags@Psc.MaterialFlags]) and the size of its
 * parameter block. Created by [ctor@Psc.MaterialTemplate.new], then
 * immutable; reference counted ([method@Psc.MaterialTemplate.ref],
 * [method@Psc.MaterialTemplate.unref]; `g_boxed_copy()` takes a reference)
 * and usable from any thread. See the "Materials" page.
 *
 * Since: 0.3
 */
typedef struct _PscMaterialTemplate PscMaterialTemplate;

/**
 * PscMaterialInstance:
 *
 * One material of a template: the features it turns on and its parameters,
 * either inline (push constants: the template's whole block, at most
 * min (128, `maxPushConstantsSize`) bytes; see
 * [ctor@Psc.MaterialInstance.new_inline]) or external (a record in the
 * application's UBO or SSBO, of which the instance pushes only the 4-byte
 * index; see [ctor@Psc.MaterialInstance.new_external]). Immutable once
 * created; reference counted ([method@Psc.MaterialInstance.ref],
 * [method@Psc.MaterialInstance.unref]; `g_boxed_copy()` takes a reference)
 * and usable from any thread.
 *
 * Since: 0.3
 */
typedef struct _PscMaterialInstance PscMaterialInstance;

PSC_AVAILABLE_IN_0_3
GType psc_shader_variant_key_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscShaderVariantKey *psc_shader_variant_key_copy (const PscShaderVariantKey *key);
PSC_AVAILABLE_IN_0_3
void psc_shader_variant_key_free (PscShaderVariantKey *key);
PSC_AVAILABLE_IN_0_3
gboolean psc_shader_variant_key_equal (const PscShaderVariantKey *a,
                                       const PscShaderVariantKey *b);
PSC_AVAILABLE_IN_0_3
guint psc_shader_variant_key_hash (const PscShaderVariantKey *key);

PSC_AVAILABLE_IN_0_3
GType psc_material_template_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscMaterialTemplate *psc_material_template_new (const char        *shader_base_name,
                                                PscMaterialFlags   supported,
                                                guint              parameter_block_size,
                                                GError           **error);
PSC_AVAILABLE_IN_0_3
PscMaterialTemplate *psc_material_template_ref (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
void psc_material_template_unref (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
const char *psc_material_template_get_base_name (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
guint64 psc_material_template_get_base_name_hash (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
PscMaterialFlags psc_material_template_get_supported_flags (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_template_get_parameter_block_size (PscMaterialTemplate *self);
PSC_AVAILABLE_IN_0_3
void psc_material_template_resolve_variant_key (PscMaterialTemplate *self,
                                                PscMaterialFlags     instance_flags,
                                                PscPassKind          pass,
                                                PscShaderVariantKey *out_key);

PSC_AVAILABLE_IN_0_3
GType psc_material_instance_get_type (void) G_GNUC_CONST;
PSC_AVAILABLE_IN_0_3
PscMaterialInstance *psc_material_instance_new_inline (PscMaterialTemplate  *material_template,
                                                       PscDevice            *device,
                                                       PscMaterialFlags      flags,
                                                       GBytes               *parameters,
                                                       GError              **error);
PSC_AVAILABLE_IN_0_3
PscMaterialInstance *psc_material_instance_new_external (PscMaterialTemplate  *material_template,
                                                         PscDevice            *device,
                                                         PscMaterialFlags      flags,
                                                         guint32               record_index,
                                                         GError              **error);
PSC_AVAILABLE_IN_0_3
PscMaterialInstance *psc_material_instance_ref (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
void psc_material_instance_unref (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
PscMaterialTemplate *psc_material_instance_get_template (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
PscMaterialFlags psc_material_instance_get_flags (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
gboolean psc_material_instance_is_external (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
guint32 psc_material_instance_get_record_index (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
GBytes *psc_material_instance_get_inline_payload (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_instance_get_push_constant_size (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
guint psc_material_instance_get_external_size (PscMaterialInstance *self);
PSC_AVAILABLE_IN_0_3
void psc_material_instance_resolve_variant_key (PscMaterialInstance *self,
                                                PscPassKind          pass,
                                                PscShaderVariantKey *out_key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscMaterialTemplate, psc_material_template_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscMaterialInstance, psc_material_instance_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscShaderVariantKey, psc_shader_variant_key_free)

G_END_DECLS
