/* test-material.c: material templates and shader variant keys (FNV-1a
 * golden values, flag intersection, what each pass keeps, key equality and
 * hashing, every template error), and the argument checks of templates,
 * instances and keys. No GPU: the payload rules against a real device's
 * limit are tests/vulkan/test-material.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#include <string.h>

#define ALL_FLAGS                                                          \
  (PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED |        \
   PSC_MATERIAL_FLAGS_NORMAL_MAP | PSC_MATERIAL_FLAGS_EMISSIVE |            \
   PSC_MATERIAL_FLAGS_SKINNED | PSC_MATERIAL_FLAGS_VERTEX_COLOR)

/* The reference the library's hash is checked against, itself checked
 * against the published FNV-1a 64 vectors (the empty string included,
 * which no template may be named). */
static guint64
reference_fnv1a64 (const char *s)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);
  for (const guint8 *p = (const guint8 *) s; *p != '\0'; p++)
    {
      h ^= *p;
      h *= G_GUINT64_CONSTANT (0x100000001b3);
    }
  return h;
}

static PscMaterialTemplate *
new_template (const char *name, PscMaterialFlags supported, guint size)
{
  g_autoptr(GError) error = NULL;
  PscMaterialTemplate *t = psc_material_template_new (name, supported, size, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
test_hash_golden (void)
{
  static const struct { const char *name; guint64 hash; } golden[] = {
    { "a", G_GUINT64_CONSTANT (0xaf63dc4c8601ec8c) },
    { "foobar", G_GUINT64_CONSTANT (0x85944171f73967e8) },
    { "pbr/standard", G_GUINT64_CONSTANT (0x2fd8b88edfe82115) },
    { "unlit", G_GUINT64_CONSTANT (0x6475bb4ea8b1d5bf) },
    { "terrain/splat", G_GUINT64_CONSTANT (0x2b36bae12ebf6061) },
    { "skin/hair", G_GUINT64_CONSTANT (0x69cc0aec295f3489) },
    { "\xc3\xa9/\xc3\xbc", G_GUINT64_CONSTANT (0x9eb8410d30b64cd5) },  /* "é/ü" */
  };

  g_assert_cmphex (reference_fnv1a64 (""), ==, G_GUINT64_CONSTANT (0xcbf29ce484222325));
  g_assert_cmphex (reference_fnv1a64 ("a"), ==, G_GUINT64_CONSTANT (0xaf63dc4c8601ec8c));
  g_assert_cmphex (reference_fnv1a64 ("foobar"), ==, G_GUINT64_CONSTANT (0x85944171f73967e8));

  for (gsize i = 0; i < G_N_ELEMENTS (golden); i++)
    {
      g_autoptr(PscMaterialTemplate) t = new_template (golden[i].name, 0, 0);
      g_assert_cmpstr (psc_material_template_get_base_name (t), ==, golden[i].name);
      g_assert_cmphex (psc_material_template_get_base_name_hash (t), ==, golden[i].hash);
      g_assert_cmphex (psc_material_template_get_base_name_hash (t), ==,
                       reference_fnv1a64 (golden[i].name));
    }

  /* The longest name, every byte counted. */
  char name[PSC_MATERIAL_MAX_NAME_LENGTH + 1];
  memset (name, 'x', PSC_MATERIAL_MAX_NAME_LENGTH);
  name[PSC_MATERIAL_MAX_NAME_LENGTH] = '\0';
  g_autoptr(PscMaterialTemplate) t = new_template (name, 0, 0);
  g_assert_cmphex (psc_material_template_get_base_name_hash (t), ==, reference_fnv1a64 (name));
}

static void
test_template_getters (void)
{
  g_autoptr(PscMaterialTemplate) t =
    new_template ("pbr/standard", PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_NORMAL_MAP, 64);
  g_assert_cmpstr (psc_material_template_get_base_name (t), ==, "pbr/standard");
  g_assert_cmphex (psc_material_template_get_supported_flags (t), ==,
                   PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_NORMAL_MAP);
  g_assert_cmpuint (psc_material_template_get_parameter_block_size (t), ==, 64);

  /* The extremes that are allowed. */
  g_autoptr(PscMaterialTemplate) all = new_template ("all", ALL_FLAGS, PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE);
  g_assert_cmphex (psc_material_template_get_supported_flags (all), ==, ALL_FLAGS);
  g_assert_cmpuint (psc_material_template_get_parameter_block_size (all), ==, 65536);
  g_autoptr(PscMaterialTemplate) none = new_template ("none", 0, 0);
  g_assert_cmpuint (psc_material_template_get_parameter_block_size (none), ==, 0);

  /* Boxed: a copy is a reference. */
  PscMaterialTemplate *copy = g_boxed_copy (PSC_TYPE_MATERIAL_TEMPLATE, t);
  g_assert_true (copy == t);
  g_boxed_free (PSC_TYPE_MATERIAL_TEMPLATE, copy);
  g_assert_true (psc_material_template_ref (t) == t);
  psc_material_template_unref (t);
  g_assert_cmpstr (psc_material_template_get_base_name (t), ==, "pbr/standard");
}

static void
expect_template_error (const char *name, PscMaterialFlags supported, guint size,
                       const char *message)
{
  g_autoptr(GError) error = NULL;
  g_assert_null (psc_material_template_new (name, supported, size, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
  /* No error location: still refused. */
  g_assert_null (psc_material_template_new (name, supported, size, NULL));
}

static void
test_template_errors (void)
{
  char name[PSC_MATERIAL_MAX_NAME_LENGTH + 2];
  memset (name, 'x', PSC_MATERIAL_MAX_NAME_LENGTH + 1);
  name[PSC_MATERIAL_MAX_NAME_LENGTH + 1] = '\0';

  expect_template_error ("", 0, 0, "shader_base_name: empty");
  expect_template_error (name, 0, 0, "shader_base_name: 256 bytes, more than 255");
  expect_template_error ("bad\xff", 0, 0, "shader_base_name: not valid UTF-8");
  expect_template_error ("cut\xc3", 0, 0, "shader_base_name: not valid UTF-8");
  expect_template_error ("x", 1u << 6, 0, "supported: unknown flag bits 0x40");
  expect_template_error ("x", ALL_FLAGS | 0x80000000u, 0, "supported: unknown flag bits 0x80000000");
  expect_template_error ("x", 0, 2, "parameter_block_size: 2 is not a multiple of 4");
  expect_template_error ("x", 0, 130, "parameter_block_size: 130 is not a multiple of 4");
  expect_template_error ("x", 0, PSC_MATERIAL_MAX_PARAMETER_BLOCK_SIZE + 4,
                         "parameter_block_size: 65540 is more than 65536");
  expect_template_error ("x", 0, G_MAXUINT - 3, "parameter_block_size: 4294967292 is more than 65536");
}

static const PscMaterialFlags every_flag[] = {
  PSC_MATERIAL_FLAGS_ALPHA_TEST, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, PSC_MATERIAL_FLAGS_NORMAL_MAP,
  PSC_MATERIAL_FLAGS_EMISSIVE, PSC_MATERIAL_FLAGS_SKINNED, PSC_MATERIAL_FLAGS_VERTEX_COLOR,
};

static void
test_key_flags (void)
{
  /* Every supported mask against every instance mask (unknown bits too),
   * in every pass. */
  for (guint supported = 0; supported <= ALL_FLAGS; supported++)
    {
      g_autoptr(PscMaterialTemplate) t = new_template ("pbr/standard", supported, 16);
      for (guint instance = 0; instance <= 0xff; instance++)
        for (guint pass = PSC_PASS_KIND_COLOR; pass <= PSC_PASS_KIND_SHADOW; pass++)
          {
            PscShaderVariantKey key;
            memset (&key, 0xa5, sizeof key);
            psc_material_template_resolve_variant_key (t, instance, pass, &key);
            g_assert_cmphex (key.base_name_hash, ==, G_GUINT64_CONSTANT (0x2fd8b88edfe82115));
            g_assert_cmpuint (key.pass, ==, pass);
            for (gsize f = 0; f < G_N_ELEMENTS (every_flag); f++)
              {
                guint bit = every_flag[f];
                gboolean kept_by_pass = pass == PSC_PASS_KIND_COLOR ||
                  bit == PSC_MATERIAL_FLAGS_ALPHA_TEST || bit == PSC_MATERIAL_FLAGS_DOUBLE_SIDED;
                gboolean expected = (instance & bit) && (supported & bit) && kept_by_pass;
                g_assert_cmpint (!!(key.flags & bit), ==, expected);
              }
            g_assert_cmphex (key.flags & ~(guint32) ALL_FLAGS, ==, 0);
          }
    }
}

static void
test_key_golden (void)
{
  g_autoptr(PscMaterialTemplate) t =
    new_template ("pbr/standard",
                  PSC_MATERIAL_FLAGS_ALPHA_TEST | PSC_MATERIAL_FLAGS_DOUBLE_SIDED |
                  PSC_MATERIAL_FLAGS_NORMAL_MAP, 64);
  PscShaderVariantKey key;

  /* Stable across runs and machines: fixed members, fixed hash. */
  psc_material_template_resolve_variant_key (t, PSC_MATERIAL_FLAGS_ALPHA_TEST |
                                             PSC_MATERIAL_FLAGS_DOUBLE_SIDED |
                                             PSC_MATERIAL_FLAGS_EMISSIVE,
                                             PSC_PASS_KIND_COLOR, &key);
  g_assert_cmphex (key.base_name_hash, ==, G_GUINT64_CONSTANT (0x2fd8b88edfe82115));
  g_assert_cmphex (key.flags, ==, 0x3);
  g_assert_cmpuint (key.pass, ==, 0);
  g_assert_cmphex (psc_shader_variant_key_hash (&key), ==, 0x12175cbe);

  psc_material_template_resolve_variant_key (t, PSC_MATERIAL_FLAGS_ALPHA_TEST |
                                             PSC_MATERIAL_FLAGS_NORMAL_MAP,
                                             PSC_PASS_KIND_SHADOW, &key);
  g_assert_cmphex (key.flags, ==, 0x1);
  g_assert_cmpuint (key.pass, ==, 2);
  g_assert_cmphex (psc_shader_variant_key_hash (&key), ==, 0x89844f98);

  g_autoptr(PscMaterialTemplate) unlit = new_template ("unlit", 0, 0);
  psc_material_template_resolve_variant_key (unlit, ALL_FLAGS, PSC_PASS_KIND_COLOR, &key);
  g_assert_cmphex (key.base_name_hash, ==, G_GUINT64_CONSTANT (0x6475bb4ea8b1d5bf));
  g_assert_cmphex (key.flags, ==, 0);
  g_assert_cmphex (psc_shader_variant_key_hash (&key), ==, 0x326445b);
}

static void
test_key_equal_hash (void)
{
  g_autoptr(PscMaterialTemplate) a = new_template ("pbr/standard", ALL_FLAGS, 16);
  g_autoptr(PscMaterialTemplate) a2 = new_template ("pbr/standard", PSC_MATERIAL_FLAGS_ALPHA_TEST, 64);
  g_autoptr(PscMaterialTemplate) b = new_template ("unlit", ALL_FLAGS, 16);
  PscShaderVariantKey k1, k2, k3;

  /* Same name, same resulting flags, same pass: equal, whatever else the
   * templates differ in. */
  psc_material_template_resolve_variant_key (a, PSC_MATERIAL_FLAGS_ALPHA_TEST, PSC_PASS_KIND_COLOR, &k1);
  psc_material_template_resolve_variant_key (a2, ALL_FLAGS, PSC_PASS_KIND_COLOR, &k2);
  g_assert_true (psc_shader_variant_key_equal (&k1, &k2));
  g_assert_cmpuint (psc_shader_variant_key_hash (&k1), ==, psc_shader_variant_key_hash (&k2));

  /* Each member on its own tells keys apart. */
  k3 = k1;
  k3.pass = PSC_PASS_KIND_SHADOW;
  g_assert_false (psc_shader_variant_key_equal (&k1, &k3));
  g_assert_cmpuint (psc_shader_variant_key_hash (&k1), !=, psc_shader_variant_key_hash (&k3));
  k3 = k1;
  k3.flags ^= PSC_MATERIAL_FLAGS_SKINNED;
  g_assert_false (psc_shader_variant_key_equal (&k1, &k3));
  g_assert_cmpuint (psc_shader_variant_key_hash (&k1), !=, psc_shader_variant_key_hash (&k3));
  psc_material_template_resolve_variant_key (b, PSC_MATERIAL_FLAGS_ALPHA_TEST, PSC_PASS_KIND_COLOR, &k3);
  g_assert_false (psc_shader_variant_key_equal (&k1, &k3));
  g_assert_cmpuint (psc_shader_variant_key_hash (&k1), !=, psc_shader_variant_key_hash (&k3));

  /* Colour and depth-only keys of one instance differ by pass even when
   * the flags agree. */
  psc_material_template_resolve_variant_key (a, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, PSC_PASS_KIND_COLOR, &k1);
  psc_material_template_resolve_variant_key (a, PSC_MATERIAL_FLAGS_DOUBLE_SIDED, PSC_PASS_KIND_DEPTH_PREPASS, &k2);
  g_assert_cmphex (k1.flags, ==, k2.flags);
  g_assert_false (psc_shader_variant_key_equal (&k1, &k2));

  /* In a hash table: every distinct key of one template counted once. */
  g_autoptr(GHashTable) set = g_hash_table_new_full ((GHashFunc) psc_shader_variant_key_hash,
                                                     (GEqualFunc) psc_shader_variant_key_equal,
                                                     (GDestroyNotify) psc_shader_variant_key_free, NULL);
  for (guint flags = 0; flags <= 0xff; flags++)
    for (guint pass = PSC_PASS_KIND_COLOR; pass <= PSC_PASS_KIND_SHADOW; pass++)
      {
        PscShaderVariantKey key;
        psc_material_template_resolve_variant_key (a, flags, pass, &key);
        g_hash_table_add (set, psc_shader_variant_key_copy (&key));
      }
  /* 64 colour variants, 4 depth-prepass ones, 4 shadow ones. */
  g_assert_cmpuint (g_hash_table_size (set), ==, 64 + 4 + 4);

  /* Boxed copy and free. */
  PscShaderVariantKey *copy = g_boxed_copy (PSC_TYPE_SHADER_VARIANT_KEY, &k1);
  g_assert_true (copy != &k1);
  g_assert_true (psc_shader_variant_key_equal (copy, &k1));
  g_boxed_free (PSC_TYPE_SHADER_VARIANT_KEY, copy);
  psc_shader_variant_key_free (NULL);
  g_assert_cmpuint (sizeof (PscShaderVariantKey), ==, 16);
}

static void
test_enum_types (void)
{
  g_assert_true (G_TYPE_IS_FLAGS (PSC_TYPE_MATERIAL_FLAGS));
  g_assert_true (G_TYPE_IS_ENUM (PSC_TYPE_PASS_KIND));
  g_autoptr(GFlagsClass) flags = g_type_class_ref (PSC_TYPE_MATERIAL_FLAGS);
  g_assert_cmphex (flags->mask, ==, ALL_FLAGS);
  g_autoptr(GEnumClass) passes = g_type_class_ref (PSC_TYPE_PASS_KIND);
  g_assert_cmpint (passes->maximum, ==, PSC_PASS_KIND_SHADOW);
  g_assert_cmpstr (g_enum_get_value (passes, PSC_PASS_KIND_DEPTH_PREPASS)->value_nick, ==, "depth-prepass");
}

/* A device that was never initialized reports a limit of 0, the one way to
 * see a device limit below 128 without a driver that has one: the inline
 * bound is then the device's, and the 4-byte record index does not fit. */
static void
test_small_device_limit (void)
{
  g_autoptr(PscDevice) device = g_object_new (PSC_TYPE_DEVICE, NULL);
  g_autoptr(PscMaterialTemplate) empty = new_template ("empty", 0, 0);
  g_autoptr(PscMaterialTemplate) four = new_template ("four", 0, 4);
  g_autoptr(GBytes) none = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) word = g_bytes_new_static ("\1\2\3\4", 4);
  g_autoptr(GError) error = NULL;
  guint value = 1;

  g_assert_cmpuint (psc_device_get_max_push_constants_size (device), ==, 0);
  g_object_get (device, "max-push-constants-size", &value, NULL);
  g_assert_cmpuint (value, ==, 0);

  g_autoptr(PscMaterialInstance) inst = psc_material_instance_new_inline (empty, device, 0, none, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_material_instance_get_push_constant_size (inst), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (psc_material_instance_get_inline_payload (inst)), ==, 0);

  g_assert_null (psc_material_instance_new_inline (four, device, 0, word, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "parameters: the template's 4-byte parameter block is larger than the inline "
                   "limit of 0 bytes (min (128, maxPushConstantsSize 0)): use "
                   "psc_material_instance_new_external");
  g_clear_error (&error);
  g_assert_null (psc_material_instance_new_external (empty, device, 0, 7, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "device: the 4-byte record index is larger than its maxPushConstantsSize of 0");
}

#define EXPECT_CRITICAL(call, what)                                            \
  G_STMT_START {                                                               \
    g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*" what "*");       \
    call;                                                                      \
    g_test_assert_expected_messages ();                                        \
  } G_STMT_END

static void
test_arguments (void)
{
  g_autoptr(PscMaterialTemplate) t = new_template ("x", ALL_FLAGS, 16);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("0123456789abcdef", 16);
  g_autoptr(GError) error = g_error_new_literal (PSC_ERROR, PSC_ERROR_FAILED, "set");
  PscShaderVariantKey key = { 1, 2, 3 }, other = { 1, 2, 3 };

  EXPECT_CRITICAL (g_assert_null (psc_material_template_new (NULL, 0, 0, NULL)), "shader_base_name != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_template_new ("x", 0, 0, &error)), "*error == NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_template_ref (NULL)), "self != NULL");
  EXPECT_CRITICAL (psc_material_template_unref (NULL), "self != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_template_get_base_name (NULL)), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmphex (psc_material_template_get_base_name_hash (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmphex (psc_material_template_get_supported_flags (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_material_template_get_parameter_block_size (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (psc_material_template_resolve_variant_key (NULL, 0, PSC_PASS_KIND_COLOR, &key), "self != NULL");
  EXPECT_CRITICAL (psc_material_template_resolve_variant_key (t, 0, PSC_PASS_KIND_COLOR, NULL), "out_key != NULL");
  EXPECT_CRITICAL (psc_material_template_resolve_variant_key (t, 0, 3, &key), "pass <= PSC_PASS_KIND_SHADOW");
  EXPECT_CRITICAL (psc_material_template_resolve_variant_key (t, 0, (PscPassKind) -1, &key),
                   "pass <= PSC_PASS_KIND_SHADOW");
  /* A refused call leaves the key as it was. */
  g_assert_true (psc_shader_variant_key_equal (&key, &other));

  /* Instances: every check that needs no device. */
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_new_inline (NULL, NULL, 0, bytes, NULL)),
                   "material_template != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_new_inline (t, NULL, 0, bytes, NULL)),
                   "PSC_IS_DEVICE (device)");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_new_external (NULL, NULL, 0, 0, NULL)),
                   "material_template != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_new_external (t, NULL, 0, 0, NULL)),
                   "PSC_IS_DEVICE (device)");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_ref (NULL)), "self != NULL");
  EXPECT_CRITICAL (psc_material_instance_unref (NULL), "self != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_get_template (NULL)), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmphex (psc_material_instance_get_flags (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_material_instance_is_external (NULL)), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_material_instance_get_record_index (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_null (psc_material_instance_get_inline_payload (NULL)), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_material_instance_get_push_constant_size (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_material_instance_get_external_size (NULL), ==, 0), "self != NULL");
  EXPECT_CRITICAL (psc_material_instance_resolve_variant_key (NULL, PSC_PASS_KIND_COLOR, &key), "self != NULL");

  /* Keys. */
  EXPECT_CRITICAL (g_assert_null (psc_shader_variant_key_copy (NULL)), "key != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_shader_variant_key_equal (NULL, &key)), "a != NULL");
  EXPECT_CRITICAL (g_assert_false (psc_shader_variant_key_equal (&key, NULL)), "b != NULL");
  EXPECT_CRITICAL (g_assert_cmpuint (psc_shader_variant_key_hash (NULL), ==, 0), "key != NULL");

  /* The device's limit getter. */
  EXPECT_CRITICAL (g_assert_cmpuint (psc_device_get_max_push_constants_size (NULL), ==, 0),
                   "PSC_IS_DEVICE (self)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/material/hash-golden", test_hash_golden);
  g_test_add_func ("/material/template", test_template_getters);
  g_test_add_func ("/material/template-errors", test_template_errors);
  g_test_add_func ("/material/key-flags", test_key_flags);
  g_test_add_func ("/material/key-golden", test_key_golden);
  g_test_add_func ("/material/key-equal-hash", test_key_equal_hash);
  g_test_add_func ("/material/enum-types", test_enum_types);
  g_test_add_func ("/material/small-device-limit", test_small_device_limit);
  g_test_add_func ("/material/arguments", test_arguments);
  return g_test_run ();
}
