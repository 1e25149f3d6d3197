/* test-material.c: material instances' payload rules against a real
 * device's limit on lavapipe (validation on): the limit a PscDevice reads
 * is the driver's maxPushConstantsSize (wrapped and headless devices);
 * inline parameters are accepted at exactly min (128, limit) bytes and
 * refused one word more, naming the external path; external instances for
 * any block size, their payload the little-endian record index; parameters
 * of the wrong size refused; unknown flags refused; the instance's key is
 * its template's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include <string.h>

static PscMaterialTemplate *
new_template (const char *name, PscMaterialFlags supported, guint size)
{
  g_autoptr(GError) error = NULL;
  PscMaterialTemplate *t = psc_material_template_new (name, supported, size, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static GBytes *
pattern (gsize size)
{
  guint8 *data = g_malloc (size + 1);
  for (gsize i = 0; i < size; i++)
    data[i] = (guint8) (i * 7 + 1);
  return g_bytes_new_take (data, size);
}

static guint
inline_limit (PscDevice *device)
{
  return MIN (PSC_MATERIAL_MAX_INLINE_SIZE, psc_device_get_max_push_constants_size (device));
}

static void
test_device_limit (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  guint32 driver = h->properties.limits.maxPushConstantsSize;
  guint value = 0;

  g_assert_cmpuint (driver, >=, 128);
  g_assert_cmpuint (psc_device_get_max_push_constants_size (h->psc_device), ==, driver);
  g_object_get (h->psc_device, "max-push-constants-size", &value, NULL);
  g_assert_cmpuint (value, ==, driver);

  /* A headless device of the same driver reads the same limit. */
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) headless = psc_device_new_headless (PSC_DEVICE_FLAGS_VALIDATION, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_device_get_vendor_id (headless), ==, h->properties.vendorID);
  g_assert_cmpuint (psc_device_get_max_push_constants_size (headless), ==, driver);
  g_assert_cmpuint (psc_device_get_validation_error_count (headless), ==, 0);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_inline (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscDevice *device = h->psc_device;
  guint limit = inline_limit (device);
  g_autoptr(GError) error = NULL;

  /* Every size up to the bound, the bound itself included. */
  for (guint size = 0; size <= limit; size += 4)
    {
      g_autoptr(PscMaterialTemplate) t = new_template ("pbr/standard", PSC_MATERIAL_FLAGS_ALPHA_TEST, size);
      g_autoptr(GBytes) params = pattern (size);
      g_autoptr(PscMaterialInstance) inst =
        psc_material_instance_new_inline (t, device, PSC_MATERIAL_FLAGS_ALPHA_TEST |
                                          PSC_MATERIAL_FLAGS_SKINNED, params, &error);
      g_assert_no_error (error);
      g_assert_nonnull (inst);
      g_assert_true (psc_material_instance_get_template (inst) == t);
      g_assert_cmphex (psc_material_instance_get_flags (inst), ==,
                       PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_SKINNED);
      g_assert_false (psc_material_instance_is_external (inst));
      g_assert_cmpuint (psc_material_instance_get_record_index (inst), ==, 0);
      g_assert_cmpuint (psc_material_instance_get_push_constant_size (inst), ==, size);
      g_assert_cmpuint (psc_material_instance_get_external_size (inst), ==, 0);
      GBytes *payload = psc_material_instance_get_inline_payload (inst);
      g_assert_true (g_bytes_equal (payload, params));
      /* Its own copy. */
      g_assert_true (size == 0 || g_bytes_get_data (payload, NULL) != g_bytes_get_data (params, NULL));
    }

  /* One word more: refused, with the numbers and the way out. */
  g_autoptr(PscMaterialTemplate) big = new_template ("pbr/standard", 0, limit + 4);
  g_autoptr(GBytes) big_params = pattern (limit + 4);
  g_assert_null (psc_material_instance_new_inline (big, device, 0, big_params, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_autofree char *expected =
    g_strdup_printf ("parameters: the template's %u-byte parameter block is larger than the "
                     "inline limit of %u bytes (min (128, maxPushConstantsSize %u)): use "
                     "psc_material_instance_new_external",
                     limit + 4, limit, psc_device_get_max_push_constants_size (device));
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  /* ... whatever bytes are offered. */
  g_autoptr(GBytes) limit_params = pattern (limit);
  g_assert_null (psc_material_instance_new_inline (big, device, 0, limit_params, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Bytes of the wrong size. */
  g_autoptr(PscMaterialTemplate) t16 = new_template ("unlit", 0, 16);
  static const gsize wrong[] = { 0, 4, 12, 15, 17, 20, 128 };
  for (gsize i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_autoptr(GBytes) params = pattern (wrong[i]);
      g_assert_null (psc_material_instance_new_inline (t16, device, 0, params, &error));
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
      g_autofree char *msg =
        g_strdup_printf ("parameters: %zu bytes, the template's parameter block is 16", wrong[i]);
      g_assert_cmpstr (error->message, ==, msg);
      g_clear_error (&error);
    }

  /* Unknown flags. */
  g_autoptr(GBytes) p16 = pattern (16);
  g_assert_null (psc_material_instance_new_inline (t16, device, 1u << 6, p16, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "flags: unknown flag bits 0x40");
  g_clear_error (&error);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_external (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  PscDevice *device = h->psc_device;
  guint limit = inline_limit (device);
  g_autoptr(GError) error = NULL;
  static const guint32 indices[] = { 0, 1, 0x01020304u, G_MAXUINT32 };
  const guint sizes[] = { 0, 4, limit, limit + 4, 4096, PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE };

  for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (gsize i = 0; i < G_N_ELEMENTS (indices); i++)
      {
        g_autoptr(PscMaterialTemplate) t =
          new_template ("terrain/splat", PSC_MATERIAL_FLAGS_NORMAL_MAP, sizes[s]);
        g_autoptr(PscMaterialInstance) inst =
          psc_material_instance_new_external (t, device, PSC_MATERIAL_FLAGS_NORMAL_MAP, indices[i], &error);
        g_assert_no_error (error);
        g_assert_true (psc_material_instance_is_external (inst));
        g_assert_cmpuint (psc_material_instance_get_record_index (inst), ==, indices[i]);
        g_assert_cmpuint (psc_material_instance_get_push_constant_size (inst), ==, 4);
        g_assert_cmpuint (psc_material_instance_get_external_size (inst), ==, sizes[s]);
        gsize n;
        const guint8 *b = g_bytes_get_data (psc_material_instance_get_inline_payload (inst), &n);
        g_assert_cmpuint (n, ==, 4);
        /* Little-endian, as the GPU reads a uint push constant. */
        g_assert_cmpuint (b[0] | (guint32) b[1] << 8 | (guint32) b[2] << 16 | (guint32) b[3] << 24,
                          ==, indices[i]);
      }

  g_autoptr(PscMaterialTemplate) t = new_template ("x", 0, 256);
  g_assert_null (psc_material_instance_new_external (t, device, 0x80, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "flags: unknown flag bits 0x80");
  g_clear_error (&error);

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

static void
test_instance_keys (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autoptr(PscMaterialTemplate) t =
    new_template ("pbr/standard", PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_NORMAL_MAP |
                  PSC_MATERIAL_FLAGS_EMISSIVE, 32);
  g_autoptr(GBytes) params = pattern (32);
  g_autoptr(GError) error = NULL;
  PscMaterialFlags flags = PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED |
                           PSC_MATERIAL_FLAGS_EMISSIVE;
  g_autoptr(PscMaterialInstance) in = psc_material_instance_new_inline (t, h->psc_device, flags, params, &error);
  g_assert_no_error (error);
  g_autoptr(PscMaterialInstance) ex = psc_material_instance_new_external (t, h->psc_device, flags, 9, &error);
  g_assert_no_error (error);

  for (guint pass = PSC_PASS_KIND_COLOR; pass <= PSC_PASS_KIND_SHADOW; pass++)
    {
      PscShaderVariantKey a, b, c;
      psc_material_instance_resolve_variant_key (in, pass, &a);
      psc_material_instance_resolve_variant_key (ex, pass, &b);
      psc_material_template_resolve_variant_key (t, flags, pass, &c);
      g_assert_true (psc_shader_variant_key_equal (&a, &c));
      g_assert_true (psc_shader_variant_key_equal (&b, &c));
      g_assert_cmphex (a.base_name_hash, ==, G_GUINT64_CONSTANT (0x2fd8b88edfe82115));
      g_assert_cmphex (a.flags, ==, pass == PSC_PASS_KIND_COLOR
                       ? PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_EMISSIVE
                       : PSC_MATERIAL_FLAGS_ALPHA_TEST);
    }

  /* Boxed: a copy is a reference; the instance keeps its template. */
  PscMaterialInstance *copy = g_boxed_copy (PSC_TYPE_MATERIAL_INSTANCE, in);
  g_assert_true (copy == in);
  g_boxed_free (PSC_TYPE_MATERIAL_INSTANCE, copy);
  PscMaterialTemplate *held = psc_material_template_ref (t);
  g_clear_pointer (&t, psc_material_template_unref);
  g_assert_true (psc_material_instance_get_template (in) == held);
  psc_material_template_unref (held);
  g_assert_cmpstr (psc_material_template_get_base_name (psc_material_instance_get_template (ex)), ==,
                   "pbr/standard");

  /* The one check that needs a device. */
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*parameters != NULL*");
  g_assert_null (psc_material_instance_new_inline (psc_material_instance_get_template (in),
                                                   h->psc_device, 0, NULL, NULL));
  g_test_assert_expected_messages ();
  g_autoptr(GError) set = g_error_new_literal (PSC_ERROR, PSC_ERROR_FAILED, "set");
  g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*error == NULL*");
  g_assert_null (psc_material_instance_new_external (psc_material_instance_get_template (in),
                                                     h->psc_device, 0, 0, &set));
  g_test_assert_expected_messages ();

  psc_test_harness_assert_clean (h);
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/material/device-limit", test_device_limit);
  g_test_add_func ("/material/inline", test_inline);
  g_test_add_func ("/material/external", test_external);
  g_test_add_func ("/material/instance-keys", test_instance_keys);
  return g_test_run ();
}
