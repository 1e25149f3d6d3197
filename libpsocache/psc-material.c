/* psc-material.c: material templates, instances and shader variant keys.
 * Above PscDevice only (an instance's inline limit is the device's
 * maxPushConstantsSize); it knows nothing of caches or pipelines.
 *
 * Error messages name the failing argument and give the numbers; like the
 * recipe's, they are not translated (they describe a programmer's call, not
 * something a user acts on).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psocache/psocache.h"

#include <string.h>

/* The bits this version knows. */
#define PSC_MATERIAL_FLAGS_KNOWN                                       \
  (PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED |    \
   PSC_MATERIAL_FLAGS_NORMAL_MAP | PSC_MATERIAL_FLAGS_EMISSIVE |        \
   PSC_MATERIAL_FLAGS_SKINNED | PSC_MATERIAL_FLAGS_VERTEX_COLOR)

/* What a depth-only pass keeps: alpha test for the discard, double-sided
 * for the culling state. */
#define PSC_MATERIAL_FLAGS_DEPTH_ONLY \
  (PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED)

#define FNV1A64_OFFSET_BASIS G_GUINT64_CONSTANT (0xcbf29ce484222325)
#define FNV1A64_PRIME G_GUINT64_CONSTANT (0x100000001b3)

struct _PscMaterialTemplate {
  char *base_name;
  guint64 base_name_hash;
  PscMaterialFlags supported;
  guint parameter_block_size;
};

struct _PscMaterialInstance {
  PscMaterialTemplate *material_template;
  PscMaterialFlags flags;
  gboolean external;
  guint32 record_index;
  GBytes *payload;
  guint external_size;
};

G_DEFINE_BOXED_TYPE (PscShaderVariantKey, psc_shader_variant_key,
                     psc_shader_variant_key_copy, psc_shader_variant_key_free)
G_DEFINE_BOXED_TYPE (PscMaterialTemplate, psc_material_template,
                     psc_material_template_ref, psc_material_template_unref)
G_DEFINE_BOXED_TYPE (PscMaterialInstance, psc_material_instance,
                     psc_material_instance_ref, psc_material_instance_unref)

G_STATIC_ASSERT (sizeof (PscShaderVariantKey) == 16);

static guint64
fnv1a64 (guint64 h, const guint8 *data, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      h ^= data[i];
      h *= FNV1A64_PRIME;
    }
  return h;
}

/* Shader variant keys ---------------------------------------------------- */

/**
 * psc_shader_variant_key_copy:
 * @key: a key
 *
 * Copies @key into a new allocation (what `g_boxed_copy()` does).
 *
 * Returns: (transfer full): a copy, freed with
 *   [method@Psc.ShaderVariantKey.free]
 *
 * Since: 0.3
 */
PscShaderVariantKey *
psc_shader_variant_key_copy (const PscShaderVariantKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);
  return g_memdup2 (key, sizeof *key);
}

/**
 * psc_shader_variant_key_free:
 * @key: (nullable): a key from [method@Psc.ShaderVariantKey.copy]
 *
 * Frees a copied key; %NULL is ignored.
 *
 * Since: 0.3
 */
void
psc_shader_variant_key_free (PscShaderVariantKey *key)
{
  g_free (key);
}

/**
 * psc_shader_variant_key_equal:
 * @a: a key
 * @b: another key
 *
 * Compares two keys member by member.
 *
 * Returns: %TRUE when @a and @b name the same variant
 *
 * Since: 0.3
 */
gboolean
psc_shader_variant_key_equal (const PscShaderVariantKey *a,
                              const PscShaderVariantKey *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);
  return a->base_name_hash == b->base_name_hash && a->flags == b->flags && a->pass == b->pass;
}

/**
 * psc_shader_variant_key_hash:
 * @key: a key
 *
 * Hashes @key for hash tables: FNV-1a (64 bits) over its members as
 * little-endian bytes (@base_name_hash, @flags, @pass in that order),
 * folded to 32 bits (the high half XORed into the low). The same key gives
 * the same hash in every process on every machine; equal keys
 * ([method@Psc.ShaderVariantKey.equal]) hash equally.
 *
 * Returns: the hash
 *
 * Since: 0.3
 */
guint
psc_shader_variant_key_hash (const PscShaderVariantKey *key)
{
  g_return_val_if_fail (key != NULL, 0);

  guint8 bytes[16];
  guint64 h;
  guint64 name = GUINT64_TO_LE (key->base_name_hash);
  guint32 flags = GUINT32_TO_LE (key->flags);
  guint32 pass = GUINT32_TO_LE (key->pass);
  memcpy (bytes, &name, 8);
  memcpy (bytes + 8, &flags, 4);
  memcpy (bytes + 12, &pass, 4);
  h = fnv1a64 (FNV1A64_OFFSET_BASIS, bytes, sizeof bytes);
  return (guint) (h ^ (h >> 32));
}

/* Templates -------------------------------------------------------------- */

/**
 * psc_material_template_new:
 * @shader_base_name: the shader family's name, 1 to
 *   %PSC_MATERIAL_MAX_NAME_LENGTH bytes of UTF-8 (for example
 *   `"pbr/standard"`); variant keys carry its FNV-1a hash
 * @supported: the [flags@Psc.MaterialFlags] the template's shaders
 *   support; only these reach a variant key
 * @parameter_block_size: the size of an instance's parameters, in bytes: a
 *   multiple of 4 up to %PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE (0 for a
 *   material without parameters)
 * @error: return location for a #GError
 *
 * Creates a template. Fails with %PSC_ERROR_INVALID_ARGUMENT, the message
 * naming the argument, for an empty, non-UTF-8 or too long name, flag bits
 * this version does not know, or a block size that is not a multiple of 4
 * or is above the maximum.
 *
 * Returns: (transfer full): a new template, or %NULL with @error set
 *
 * Since: 0.3
 */
PscMaterialTemplate *
psc_material_template_new (const char        *shader_base_name,
                           PscMaterialFlags   supported,
                           guint              parameter_block_size,
                           GError           **error)
{
  g_return_val_if_fail (shader_base_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gsize len = strnlen (shader_base_name, PSC_MATERIAL_MAX_NAME_LENGTH + 1);
  if (len == 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "shader_base_name: empty");
      return NULL;
    }
  if (len > PSC_MATERIAL_MAX_NAME_LENGTH)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "shader_base_name: %zu bytes, more than %u",
                   strlen (shader_base_name), (guint) PSC_MATERIAL_MAX_NAME_LENGTH);
      return NULL;
    }
  if (!g_utf8_validate (shader_base_name, len, NULL))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "shader_base_name: not valid UTF-8");
      return NULL;
    }
  if ((supported & ~PSC_MATERIAL_FLAGS_KNOWN) != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "supported: unknown flag bits 0x%x",
                   (guint) (supported & ~PSC_MATERIAL_FLAGS_KNOWN));
      return NULL;
    }
  if (parameter_block_size % 4 != 0)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "parameter_block_size: %u is not a multiple of 4", parameter_block_size);
      return NULL;
    }
  if (parameter_block_size > PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "parameter_block_size: %u is more than %u", parameter_block_size,
                   (guint) PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE);
      return NULL;
    }

  PscMaterialTemplate *self = g_atomic_rc_box_new0 (PscMaterialTemplate);
  self->base_name = g_strndup (shader_base_name, len);
  self->base_name_hash = fnv1a64 (FNV1A64_OFFSET_BASIS, (const guint8 *) shader_base_name, len);
  self->supported = supported;
  self->parameter_block_size = parameter_block_size;
  return self;
}

/**
 * psc_material_template_ref:
 * @self: a template
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscMaterialTemplate *
psc_material_template_ref (PscMaterialTemplate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
template_clear (gpointer data)
{
  PscMaterialTemplate *self = data;
  g_free (self->base_name);
}

/**
 * psc_material_template_unref:
 * @self: (transfer full): a template
 *
 * Drops a reference to @self; the last one frees it.
 *
 * Since: 0.3
 */
void
psc_material_template_unref (PscMaterialTemplate *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, template_clear);
}

/**
 * psc_material_template_get_base_name:
 * @self: a template
 *
 * Returns the shader base name @self was created with.
 *
 * Returns: (transfer none): the name
 *
 * Since: 0.3
 */
const char *
psc_material_template_get_base_name (PscMaterialTemplate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->base_name;
}

/**
 * psc_material_template_get_base_name_hash:
 * @self: a template
 *
 * Returns the hash variant keys carry for @self's shader base name:
 * 64-bit FNV-1a over the name's UTF-8 bytes (offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3; no terminating nul, no
 * normalization). It is the same in every process on every machine: for
 * example `"a"` hashes to 0xaf63dc4c8601ec8c and `"foobar"` to
 * 0x85944171f73967e8.
 *
 * Returns: the hash
 *
 * Since: 0.3
 */
guint64
psc_material_template_get_base_name_hash (PscMaterialTemplate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base_name_hash;
}

/**
 * psc_material_template_get_supported_flags:
 * @self: a template
 *
 * Returns the features @self's shaders support.
 *
 * Returns: the supported flags
 *
 * Since: 0.3
 */
PscMaterialFlags
psc_material_template_get_supported_flags (PscMaterialTemplate *self)
{
  g_return_val_if_fail (self != NULL, PSC_MATERIAL_FLAGS_NONE);
  return self->supported;
}

/**
 * psc_material_template_get_parameter_block_size:
 * @self: a template
 *
 * Returns the size of @self's parameter block.
 *
 * Returns: the size in bytes, a multiple of 4
 *
 * Since: 0.3
 */
guint
psc_material_template_get_parameter_block_size (PscMaterialTemplate *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->parameter_block_size;
}

/**
 * psc_material_template_resolve_variant_key:
 * @self: a template
 * @instance_flags: the features an instance turns on (bits @self does not
 *   support, known or not, are dropped)
 * @pass: the pass the key is for
 * @out_key: (out caller-allocates): the key
 *
 * Resolves the shader variant that an instance with @instance_flags draws
 * with in @pass: the base name's hash
 * ([method@Psc.MaterialTemplate.get_base_name_hash]), the flags
 * @instance_flags & the supported flags, of which %PSC_PASS_KIND_DEPTH_PREPASS
 * and %PSC_PASS_KIND_SHADOW keep only %PSC_MATERIAL_FLAGS_ALPHA_TEST
 * (the depth-only discard needs it) and %PSC_MATERIAL_FLAGS_DOUBLE_SIDED
 * (culling is rasterization state), and @pass.
 *
 * Since: 0.3
 */
void
psc_material_template_resolve_variant_key (PscMaterialTemplate *self,
                                           PscMaterialFlags     instance_flags,
                                           PscPassKind          pass,
                                           PscShaderVariantKey *out_key)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail ((guint) pass <= PSC_PASS_KIND_SHADOW);
  g_return_if_fail (out_key != NULL);

  guint32 flags = (guint32) (instance_flags & self->supported);
  if (pass != PSC_PASS_KIND_COLOR)
    flags &= PSC_MATERIAL_FLAGS_DEPTH_ONLY;
  *out_key = (PscShaderVariantKey) {
    .base_name_hash = self->base_name_hash,
    .flags = flags,
    .pass = (guint32) pass,
  };
}

/* Instances -------------------------------------------------------------- */

static gboolean
check_instance_flags (PscMaterialFlags flags, GError **error)
{
  if ((flags & ~PSC_MATERIAL_FLAGS_KNOWN) == 0)
    return TRUE;
  g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
               "flags: unknown flag bits 0x%x", (guint) (flags & ~PSC_MATERIAL_FLAGS_KNOWN));
  return FALSE;
}

static PscMaterialInstance *
instance_new (PscMaterialTemplate *material_template,
              PscMaterialFlags     flags,
              gboolean             external,
              guint32              record_index,
              GBytes              *payload,
              guint                external_size)
{
  PscMaterialInstance *self = g_atomic_rc_box_new0 (PscMaterialInstance);
  self->material_template = psc_material_template_ref (material_template);
  self->flags = flags;
  self->external = external;
  self->record_index = record_index;
  self->payload = payload;
  self->external_size = external_size;
  return self;
}

/**
 * psc_material_instance_new_inline:
 * @material_template: the instance's template
 * @device: the device the instance draws on: its
 *   [property@Psc.Device:max-push-constants-size] bounds the payload
 * @flags: the features the instance turns on ([flags@Psc.MaterialFlags];
 *   kept as given, the variant key keeps those @material_template supports)
 * @parameters: the parameter block: exactly the template's
 *   [method@Psc.MaterialTemplate.get_parameter_block_size] bytes (copied)
 * @error: return location for a #GError
 *
 * Creates an instance whose parameters are pushed as push constants: its
 * inline payload is @parameters, its push-constant size the block size,
 * its external size 0.
 *
 * The block must fit min (%PSC_MATERIAL_MAX_INLINE_SIZE,
 * `maxPushConstantsSize`) bytes; a larger template is refused with
 * %PSC_ERROR_INVALID_ARGUMENT (the message gives both sizes and names
 * [ctor@Psc.MaterialInstance.new_external], the path for it), never
 * turned into a push-constant write the device cannot take. Unknown bits
 * in @flags and a @parameters of another size fail the same way.
 *
 * Returns: (transfer full): a new instance, or %NULL with @error set
 *
 * Since: 0.3
 */
PscMaterialInstance *
psc_material_instance_new_inline (PscMaterialTemplate  *material_template,
                                  PscDevice            *device,
                                  PscMaterialFlags      flags,
                                  GBytes               *parameters,
                                  GError              **error)
{
  g_return_val_if_fail (material_template != NULL, NULL);
  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (parameters != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_instance_flags (flags, error))
    return NULL;

  guint32 device_limit = psc_device_get_max_push_constants_size (device);
  guint limit = MIN ((guint32) PSC_MATERIAL_MAX_INLINE_SIZE, device_limit);
  guint block = material_template->parameter_block_size;
  if (block > limit)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "parameters: the template's %u-byte parameter block is larger than the "
                   "inline limit of %u bytes (min (%u, maxPushConstantsSize %u)): use "
                   "psc_material_instance_new_external",
                   block, limit, (guint) PSC_MATERIAL_MAX_INLINE_SIZE, device_limit);
      return NULL;
    }
  gsize size = g_bytes_get_size (parameters);
  if (size != block)
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "parameters: %" G_GSIZE_FORMAT " bytes, the template's parameter block is %u",
                   size, block);
      return NULL;
    }

  /* A copy: the instance owns what it pushes, whatever memory the caller's
   * bytes wrap. */
  GBytes *payload = g_bytes_new (g_bytes_get_data (parameters, NULL), size);
  return instance_new (material_template, flags, FALSE, 0, payload, 0);
}

/**
 * psc_material_instance_new_external:
 * @material_template: the instance's template
 * @device: the device the instance draws on: the 4-byte push constant must
 *   fit its [property@Psc.Device:max-push-constants-size]
 * @flags: the features the instance turns on (as for
 *   [ctor@Psc.MaterialInstance.new_inline])
 * @record_index: the index of the instance's record (its parameter block)
 *   in the application's UBO or SSBO of material records
 * @error: return location for a #GError
 *
 * Creates an instance whose parameters live outside it, in a record the
 * application writes: its inline payload is @record_index as 4 bytes,
 * little-endian (as the GPU reads a `uint` push constant), its
 * push-constant size 4 and its external size the template's block size.
 * Any template may be external, small ones included.
 *
 * Fails with %PSC_ERROR_INVALID_ARGUMENT for unknown bits in @flags, or on
 * a device whose `maxPushConstantsSize` is below 4.
 *
 * Returns: (transfer full): a new instance, or %NULL with @error set
 *
 * Since: 0.3
 */
PscMaterialInstance *
psc_material_instance_new_external (PscMaterialTemplate  *material_template,
                                    PscDevice            *device,
                                    PscMaterialFlags      flags,
                                    guint32               record_index,
                                    GError              **error)
{
  g_return_val_if_fail (material_template != NULL, NULL);
  g_return_val_if_fail (PSC_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_instance_flags (flags, error))
    return NULL;

  guint32 device_limit = psc_device_get_max_push_constants_size (device);
  if (device_limit < sizeof (guint32))
    {
      g_set_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                   "device: the 4-byte record index is larger than its maxPushConstantsSize of %u",
                   device_limit);
      return NULL;
    }

  guint32 le = GUINT32_TO_LE (record_index);
  GBytes *payload = g_bytes_new (&le, sizeof le);
  return instance_new (material_template, flags, TRUE, record_index, payload,
                       material_template->parameter_block_size);
}

/**
 * psc_material_instance_ref:
 * @self: an instance
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.3
 */
PscMaterialInstance *
psc_material_instance_ref (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
instance_clear (gpointer data)
{
  PscMaterialInstance *self = data;
  g_bytes_unref (self->payload);
  psc_material_template_unref (self->material_template);
}

/**
 * psc_material_instance_unref:
 * @self: (transfer full): an instance
 *
 * Drops a reference to @self; the last one frees it (and drops its
 * reference to the template).
 *
 * Since: 0.3
 */
void
psc_material_instance_unref (PscMaterialInstance *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, instance_clear);
}

/**
 * psc_material_instance_get_template:
 * @self: an instance
 *
 * Returns the template @self was created from (the instance holds a
 * reference).
 *
 * Returns: (transfer none): the template
 *
 * Since: 0.3
 */
PscMaterialTemplate *
psc_material_instance_get_template (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->material_template;
}

/**
 * psc_material_instance_get_flags:
 * @self: an instance
 *
 * Returns the features @self turns on, as given when it was created
 * (including those its template does not support; variant keys drop them).
 *
 * Returns: the flags
 *
 * Since: 0.3
 */
PscMaterialFlags
psc_material_instance_get_flags (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, PSC_MATERIAL_FLAGS_NONE);
  return self->flags;
}

/**
 * psc_material_instance_is_external:
 * @self: an instance
 *
 * Returns whether @self's parameters live in an external record
 * ([ctor@Psc.MaterialInstance.new_external]).
 *
 * Returns: %TRUE for an external instance, %FALSE for an inline one
 *
 * Since: 0.3
 */
gboolean
psc_material_instance_is_external (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->external;
}

/**
 * psc_material_instance_get_record_index:
 * @self: an instance
 *
 * Returns the record index of an external instance.
 *
 * Returns: the record index; 0 for an inline instance
 *
 * Since: 0.3
 */
guint32
psc_material_instance_get_record_index (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->record_index;
}

/**
 * psc_material_instance_get_inline_payload:
 * @self: an instance
 *
 * Returns what a draw with @self pushes as push constants: the parameter
 * block of an inline instance, the 4-byte little-endian record index of an
 * external one. Its size is [method@Psc.MaterialInstance.get_push_constant_size].
 *
 * Returns: (transfer none): the payload
 *
 * Since: 0.3
 */
GBytes *
psc_material_instance_get_inline_payload (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->payload;
}

/**
 * psc_material_instance_get_push_constant_size:
 * @self: an instance
 *
 * Returns how many bytes of push constants a draw with @self pushes: the
 * block size of an inline instance, 4 for an external one.
 *
 * Returns: the size in bytes
 *
 * Since: 0.3
 */
guint
psc_material_instance_get_push_constant_size (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return (guint) g_bytes_get_size (self->payload);
}

/**
 * psc_material_instance_get_external_size:
 * @self: an instance
 *
 * Returns the size of @self's external record: the template's block size
 * for an external instance.
 *
 * Returns: the size in bytes; 0 for an inline instance
 *
 * Since: 0.3
 */
guint
psc_material_instance_get_external_size (PscMaterialInstance *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->external_size;
}

/**
 * psc_material_instance_resolve_variant_key:
 * @self: an instance
 * @pass: the pass the key is for
 * @out_key: (out caller-allocates): the key
 *
 * Resolves the variant @self draws with in @pass:
 * [method@Psc.MaterialTemplate.resolve_variant_key] of its template with
 * its flags.
 *
 * Since: 0.3
 */
void
psc_material_instance_resolve_variant_key (PscMaterialInstance *self,
                                           PscPassKind          pass,
                                           PscShaderVariantKey *out_key)
{
  g_return_if_fail (self != NULL);
  psc_material_template_resolve_variant_key (self->material_template, self->flags, pass, out_key);
}
