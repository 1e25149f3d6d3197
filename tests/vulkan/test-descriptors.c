/* test-descriptors.c: managed descriptor sets (seed 001's task lists) on a
 * real driver with the validation layer (lavapipe in CI; the NVIDIA H200
 * for the descriptor-indexing cases lavapipe cannot have).
 *
 *   - layouts: binding lookup and facts; unsupported types and immutable
 *     samplers refused; malformed flags refused;
 *   - enabled, not supported, features: a device created without
 *     descriptor indexing refuses every indexing flag and the
 *     update-after-bind pool, whatever the GPU supports (the message names
 *     the feature); with it (where the GPU has it) partially bound,
 *     variable-count and update-after-bind sets work;
 *   - writes: the binding map retains its owners after the caller drops
 *     them; range/type/count/layout validation with the field path; array
 *     element replacement and later-wins; dynamic bindings' facts; sampler
 *     and texel-buffer owners; swapchain views refused for every image
 *     kind; invalidated resources refused; an invalid batch leaves every
 *     entry as it was; completeness and partial binding;
 *   - generations: after a successful reset a surviving set is stale for
 *     its handle, entries, writers (new and existing) and untracked writes;
 *     a failed reset (fault-injected) keeps the generation; destruction
 *     makes sets stale and allocation closed; a full pool is a capacity
 *     error;
 *   - the untracked routes: raw sets, raw writes (slots untracked, owners
 *     released);
 *   - the validation layer stays silent throughout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "descriptor-env.h"
#include "psc-test-hooks.h"

#include <string.h>

static const VkDescriptorSetLayoutBinding all_bindings[] = {
  { 5, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4, VK_SHADER_STAGE_ALL, NULL },
  { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
  { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 6, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 7, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
  { 8, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 9, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
};

/* The resources a full write of all_bindings uses. */
typedef struct {
  PscBuffer *ubo, *ssbo, *texel_buffer;
  PscImageView *view;
  PscSampler *sampler;
  PscBufferView *utexel, *stexel;
} Resources;

static void
resources_init (Env *e, Resources *r)
{
  r->ubo = new_buffer (e, 4096);
  r->ssbo = new_buffer (e, 4096);
  r->texel_buffer = new_buffer (e, 1024);
  r->view = new_view (e, 0);
  r->sampler = new_sampler (e);
  r->utexel = new_texel_view (e, r->texel_buffer);
  r->stexel = new_texel_view (e, r->texel_buffer);
}

static void
resources_clear (Resources *r)
{
  g_clear_pointer (&r->ubo, psc_buffer_unref);
  g_clear_pointer (&r->ssbo, psc_buffer_unref);
  g_clear_pointer (&r->texel_buffer, psc_buffer_unref);
  g_clear_pointer (&r->view, psc_image_view_unref);
  g_clear_pointer (&r->sampler, psc_sampler_unref);
  g_clear_pointer (&r->utexel, psc_buffer_view_unref);
  g_clear_pointer (&r->stexel, psc_buffer_view_unref);
}

static void
stage_all (PscDescriptorWriter *w, const Resources *r)
{
  for (guint32 i = 0; i < 4; i++)
    psc_descriptor_writer_write_buffer (w, 0, i, r->ubo, 256 * i, 256);
  psc_descriptor_writer_write_buffer (w, 1, 0, r->ssbo, 0, VK_WHOLE_SIZE);
  psc_descriptor_writer_write_buffer (w, 2, 0, r->ubo, 1024, 128);
  psc_descriptor_writer_write_buffer (w, 3, 0, r->ssbo, 2048, 512);
  psc_descriptor_writer_write_image (w, 4, 0, r->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL);
  psc_descriptor_writer_write_image (w, 5, 0, r->view, VK_IMAGE_LAYOUT_GENERAL, NULL);
  psc_descriptor_writer_write_image (w, 6, 0, r->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, r->sampler);
  psc_descriptor_writer_write_sampler (w, 7, 0, r->sampler);
  psc_descriptor_writer_write_texel_buffer (w, 8, 0, r->utexel);
  psc_descriptor_writer_write_texel_buffer (w, 9, 0, r->stexel);
}

static PscDescriptorSet *
full_set (Env *e, PscDescriptorPool *pool, PscDescriptorLayout *layout, const Resources *r)
{
  g_autoptr(GError) error = NULL;
  PscDescriptorSet *set = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
  g_autoptr(PscDescriptorWriter) w = NULL;

  g_assert_no_error (error);
  w = psc_descriptor_set_begin_write (set, &error);
  g_assert_no_error (error);
  stage_all (w, r);
  g_assert_cmpuint (psc_descriptor_writer_get_n_staged (w), ==, 13);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (psc_descriptor_writer_get_n_staged (w), ==, 0);
  assert_clean (e);
  return set;
}

static const PscDescriptorEntry *
entry (PscDescriptorSet *set, guint32 binding, guint32 element)
{
  g_autoptr(GError) error = NULL;
  const PscDescriptorEntry *en = psc_descriptor_set_get_entry (set, binding, element, &error);

  g_assert_no_error (error);
  g_assert_nonnull (en);
  return en;
}

/* A one-write batch on @set must fail with (@domain, @code) and a message
 * holding @fragment. */
#define assert_write_fails(set, domain, code, fragment, ...) G_STMT_START {     \
    g_autoptr(GError) _err = NULL;                                            \
    g_autoptr(PscDescriptorWriter) _w = psc_descriptor_set_begin_write ((set), &_err); \
    g_assert_no_error (_err);                                                 \
    __VA_ARGS__;                                                              \
    g_assert_false (psc_descriptor_writer_commit (_w, &_err));                \
    g_assert_error (_err, (domain), (code));                                  \
    if (strstr (_err->message, (fragment)) == NULL)                           \
      g_error ("'%s' does not name '%s'", _err->message, (fragment));         \
    g_test_message ("refused: %s", _err->message);                            \
  } G_STMT_END

/* ------------------------------------------------------------------------
 * Layouts
 */

static void
test_layout_facts (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  VkDescriptorType type;
  guint32 count;
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (psc_descriptor_layout_get_n_bindings (layout), ==, 10);
    g_assert_true (psc_descriptor_layout_get_handle (layout) != VK_NULL_HANDLE);
    /* The same layout from the cache: one handle. */
    g_autoptr(PscDescriptorLayout) again = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                       NULL, 0, &error);
    g_assert_no_error (error);
    g_assert_true (psc_descriptor_layout_get_handle (again) == psc_descriptor_layout_get_handle (layout));

    for (guint i = 0; i < G_N_ELEMENTS (all_bindings); i++)
      {
        g_assert_true (psc_descriptor_layout_get_binding (layout, all_bindings[i].binding, &type,
                                                          &count, &stages, &flags));
        g_assert_cmpint (type, ==, all_bindings[i].descriptorType);
        g_assert_cmpuint (count, ==, all_bindings[i].descriptorCount);
        g_assert_cmpuint (stages, ==, all_bindings[i].stageFlags);
        g_assert_cmpuint (flags, ==, 0);
      }
    /* Dynamic binding metadata. */
    g_assert_true (psc_descriptor_layout_get_binding (layout, 2, &type, NULL, NULL, NULL));
    g_assert_cmpint (type, ==, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC);
    g_assert_false (psc_descriptor_layout_get_binding (layout, 10, NULL, NULL, NULL, NULL));
  }
  env_finish (&e);
}

static void
assert_layout_fails (Env *e, const VkDescriptorSetLayoutBinding *b, guint n, const void *next,
                     VkDescriptorSetLayoutCreateFlags flags, GQuark domain, int code,
                     const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = new_layout (e, b, n, next, flags, &error);

  g_assert_null (layout);
  g_assert_error (error, domain, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s' does not name '%s'", error->message, fragment);
  g_test_message ("refused: %s", error->message);
}

static void
test_layout_refusals (void)
{
  Env e;
  VkSampler immutable = VK_NULL_HANDLE;
  g_autoptr(PscSampler) sampler = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  sampler = new_sampler (&e);
  immutable = psc_sampler_get_handle (sampler);
  {
    const VkDescriptorSetLayoutBinding input[] = {
      { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
      { 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
    };
    const VkDescriptorSetLayoutBinding inline_block[] = {
      { 0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, VK_SHADER_STAGE_ALL, NULL },
    };
    const VkDescriptorSetLayoutBinding with_immutable[] = {
      { 0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, &immutable },
    };
    const VkDescriptorSetLayoutBinding zero[] = {
      { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, VK_SHADER_STAGE_ALL, NULL },
    };
    const VkDescriptorSetLayoutBinding twice[] = {
      { 3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
      { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
    };
    const VkDescriptorSetLayoutBinding dynamic[] = {
      { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_ALL, NULL },
      { 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4, VK_SHADER_STAGE_ALL, NULL },
    };
    VkDescriptorBindingFlags uab_dynamic[] = { VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0 };
    VkDescriptorBindingFlags variable_low[] = { VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT, 0 };
    VkDescriptorBindingFlags unknown[] = { 1u << 20, 0 };
    VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
      .bindingCount = 2,
    };

    assert_layout_fails (&e, input, 2, NULL, 0, PSC_ERROR, PSC_ERROR_UNSUPPORTED, "pBindings[1].descriptorType");
    assert_layout_fails (&e, inline_block, 1, NULL, 0, PSC_ERROR, PSC_ERROR_UNSUPPORTED, "pBindings[0].descriptorType");
    assert_layout_fails (&e, with_immutable, 1, NULL, 0, PSC_ERROR, PSC_ERROR_UNSUPPORTED, "pImmutableSamplers");
    assert_layout_fails (&e, zero, 1, NULL, 0, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "descriptorCount");
    assert_layout_fails (&e, twice, 2, NULL, 0, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "binding 3 appears twice");
    assert_layout_fails (&e, dynamic, 2, NULL, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                         PSC_ERROR, PSC_ERROR_UNSUPPORTED, "flags");
    bf.pBindingFlags = uab_dynamic;
    assert_layout_fails (&e, dynamic, 2, &bf, VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
                         PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "dynamic buffer");
    bf.pBindingFlags = variable_low;
    assert_layout_fails (&e, dynamic, 2, &bf, 0, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                         "highest binding number (1)");
    bf.pBindingFlags = unknown;
    assert_layout_fails (&e, dynamic, 2, &bf, 0, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "unknown");
    bf.bindingCount = 1;
    assert_layout_fails (&e, dynamic, 2, &bf, 0, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "bindingCount 1");
  }
  g_clear_pointer (&sampler, psc_sampler_unref);
  assert_clean (&e);
  env_finish (&e);
}

/* ------------------------------------------------------------------------
 * Enabled features
 */

static const char *const indexing_features[] = {
  "descriptorBindingPartiallyBound",
  "descriptorBindingVariableDescriptorCount",
  "runtimeDescriptorArray",
  "descriptorBindingUpdateUnusedWhilePending",
  "descriptorBindingSampledImageUpdateAfterBind",
  "descriptorBindingStorageBufferUpdateAfterBind",
};

/* What the physical device supports (not what a device enabled). */
static gboolean
supported (VkPhysicalDevice physical, const char *name)
{
  VkPhysicalDeviceDescriptorIndexingFeatures di = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
  };
  VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &di };

  vkGetPhysicalDeviceFeatures2 (physical, &f);
  if (strcmp (name, "descriptorBindingPartiallyBound") == 0)
    return di.descriptorBindingPartiallyBound;
  if (strcmp (name, "descriptorBindingVariableDescriptorCount") == 0)
    return di.descriptorBindingVariableDescriptorCount;
  if (strcmp (name, "runtimeDescriptorArray") == 0)
    return di.runtimeDescriptorArray;
  if (strcmp (name, "descriptorBindingUpdateUnusedWhilePending") == 0)
    return di.descriptorBindingUpdateUnusedWhilePending;
  if (strcmp (name, "descriptorBindingSampledImageUpdateAfterBind") == 0)
    return di.descriptorBindingSampledImageUpdateAfterBind;
  if (strcmp (name, "descriptorBindingStorageBufferUpdateAfterBind") == 0)
    return di.descriptorBindingStorageBufferUpdateAfterBind;
  g_assert_not_reached ();
}

static const VkDescriptorSetLayoutBinding indexed_bindings[] = {
  { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
};

static void
bindings_flags (VkDescriptorSetLayoutBindingFlagsCreateInfo *bf, VkDescriptorBindingFlags *flags,
                VkDescriptorBindingFlags f0, VkDescriptorBindingFlags f1)
{
  flags[0] = f0;
  flags[1] = f1;
  *bf = (VkDescriptorSetLayoutBindingFlagsCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
    .bindingCount = 2,
    .pBindingFlags = flags,
  };
}

/* Every indexing use on a device created without descriptor indexing is
 * refused, naming the feature: whether or not the GPU supports it. */
static void
test_features_not_enabled (void)
{
  Env e;
  VkDescriptorSetLayoutBindingFlagsCreateInfo bf;
  VkDescriptorBindingFlags flags[2];
  guint n_supported = 0;

  env_init (&e, PSC_DEVICE_FLAGS_NO_DESCRIPTOR_INDEXING);
  g_assert_false (psc_device_get_descriptor_indexing (e.psc));
  for (guint i = 0; i < G_N_ELEMENTS (indexing_features); i++)
    {
      gboolean sup = supported (e.physical, indexing_features[i]);

      g_assert_false (psc_device_get_enabled_feature (e.psc, indexing_features[i]));
      n_supported += sup;
      g_test_message ("%s: %s by the GPU, not enabled", indexing_features[i],
                      sup ? "supported" : "not supported");
    }
  if (g_getenv ("PSC_TEST_REQUIRE_DESCRIPTOR_INDEXING") != NULL)
    g_assert_cmpuint (n_supported, ==, G_N_ELEMENTS (indexing_features));

  bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
  assert_layout_fails (&e, indexed_bindings, 2, &bf, 0, PSC_DESCRIPTOR_ERROR,
                       PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED, "descriptorBindingPartiallyBound");
  bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT);
  assert_layout_fails (&e, indexed_bindings, 2, &bf, 0, PSC_DESCRIPTOR_ERROR,
                       PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED, "descriptorBindingVariableDescriptorCount");
  bindings_flags (&bf, flags, VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT, 0);
  assert_layout_fails (&e, indexed_bindings, 2, &bf, 0, PSC_DESCRIPTOR_ERROR,
                       PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED, "descriptorBindingUpdateUnusedWhilePending");
  bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT);
  assert_layout_fails (&e, indexed_bindings, 2, &bf, VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
                       PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED,
                       "descriptorBindingSampledImageUpdateAfterBind");
  bindings_flags (&bf, flags, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0);
  assert_layout_fails (&e, indexed_bindings, 2, &bf, VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
                       PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED,
                       "descriptorBindingStorageBufferUpdateAfterBind");
  {
    g_autoptr(GError) error = NULL;
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8 };
    VkDescriptorPoolCreateInfo pi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT,
      .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &size,
    };
    g_autoptr(PscDescriptorPool) pool = psc_descriptor_pool_new (e.psc, &pi, &error);
    g_assert_null (pool);
    g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED);
  }
  /* An unknown feature name is a programming error. */
  if (g_test_undefined ())
    {
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*not a descriptor-indexing feature*");
      g_assert_false (psc_device_get_enabled_feature (e.psc, "geometryShader"));
      g_test_assert_expected_messages ();
    }
  env_finish (&e);
}

/* With descriptor indexing enabled (where the GPU has it): partially bound
 * slots, a variable count and update-after-bind work; without it (lavapipe)
 * the same requests are the refusals above. */
static void
test_features_enabled (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  VkDescriptorSetLayoutBindingFlagsCreateInfo bf;
  VkDescriptorBindingFlags flags[2];
  gboolean all = TRUE;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  for (guint i = 0; i < G_N_ELEMENTS (indexing_features); i++)
    {
      /* The headless device enables what the GPU supports: enabled ==
       * supported here, and the layer reads the enabled snapshot. */
      g_assert_cmpint (psc_device_get_enabled_feature (e.psc, indexing_features[i]), ==,
                       supported (e.physical, indexing_features[i]));
      all &= psc_device_get_enabled_feature (e.psc, indexing_features[i]);
    }
  if (g_getenv ("PSC_TEST_REQUIRE_DESCRIPTOR_INDEXING") != NULL)
    g_assert_true (all);
  if (!all)
    {
      g_test_message ("%s lacks descriptor indexing: the positive cases are the refusals "
                      "of /descriptors/features-not-enabled here", psc_device_get_name (e.psc));
      bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
      assert_layout_fails (&e, indexed_bindings, 2, &bf, 0, PSC_DESCRIPTOR_ERROR,
                           PSC_DESCRIPTOR_ERROR_FEATURE_NOT_ENABLED, "descriptorBindingPartiallyBound");
      env_finish (&e);
      return;
    }

  {
    g_autoptr(PscBuffer) ssbo = new_buffer (&e, 256);
    g_autoptr(PscImageView) view = new_view (&e, 0);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 8, VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT);
    g_autoptr(PscDescriptorLayout) partial = NULL, variable = NULL, uab = NULL;
    g_autoptr(PscDescriptorSet) set = NULL, vset = NULL, uset = NULL;
    g_autoptr(PscDescriptorWriter) w = NULL;

    /* Partially bound: elements 0 and 5 of 8 only, then 5 emptied. */
    bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
    partial = new_layout (&e, indexed_bindings, 2, &bf, 0, &error);
    g_assert_no_error (error);
    set = psc_descriptor_pool_allocate_managed (pool, partial, 0, &error);
    g_assert_no_error (error);
    w = psc_descriptor_set_begin_write (set, &error);
    g_assert_no_error (error);
    psc_descriptor_writer_write_buffer (w, 0, 0, ssbo, 0, VK_WHOLE_SIZE);
    psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL);
    psc_descriptor_writer_write_image (w, 1, 5, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL);
    g_assert_true (psc_descriptor_writer_commit (w, &error));
    g_assert_no_error (error);
    g_assert_false (psc_descriptor_entry_is_filled (entry (set, 1, 3)));
    g_assert_true (psc_descriptor_entry_is_filled (entry (set, 1, 5)));
    psc_descriptor_writer_clear (w, 1, 5);
    g_assert_true (psc_descriptor_writer_commit (w, &error));
    g_assert_no_error (error);
    g_assert_false (psc_descriptor_entry_is_filled (entry (set, 1, 5)));
    g_clear_pointer (&w, psc_descriptor_writer_unref);

    /* Variable count: 3 of at most 8. */
    bindings_flags (&bf, flags, 0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT |
                                   VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
    variable = new_layout (&e, indexed_bindings, 2, &bf, 0, &error);
    g_assert_no_error (error);
    g_assert_null (psc_descriptor_pool_allocate_managed (pool, variable, 9, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    vset = psc_descriptor_pool_allocate_managed (pool, variable, 3, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (psc_descriptor_set_get_variable_count (vset), ==, 3);
    assert_write_fails (vset, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].array_element: 3 >= binding 1's count 3",
                        psc_descriptor_writer_write_buffer (_w, 0, 0, ssbo, 0, VK_WHOLE_SIZE);
                        psc_descriptor_writer_write_image (_w, 1, 3, view, VK_IMAGE_LAYOUT_GENERAL, NULL));

    /* Update after bind: the pool flag and the layout flag. */
    bindings_flags (&bf, flags, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
                    VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
    uab = new_layout (&e, indexed_bindings, 2, &bf, VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
                      &error);
    g_assert_no_error (error);
    uset = psc_descriptor_pool_allocate_managed (pool, uab, 0, &error);
    g_assert_no_error (error);
    w = psc_descriptor_set_begin_write (uset, &error);
    psc_descriptor_writer_write_buffer (w, 0, 0, ssbo, 0, VK_WHOLE_SIZE);
    g_assert_true (psc_descriptor_writer_commit (w, &error));
    g_assert_no_error (error);
    {
      g_autoptr(PscDescriptorPool) plain = new_pool (&e, 1, 0);
      g_assert_null (psc_descriptor_pool_allocate_managed (plain, uab, 0, &error));
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
    assert_clean (&e);
    g_test_message ("%s (driver 0x%x): partially bound, variable count and update-after-bind "
                    "managed sets work", psc_device_get_name (e.psc), psc_device_get_driver_version (e.psc));
  }
  env_finish (&e);
}

/* ------------------------------------------------------------------------
 * Writes
 */

static void
test_write_entries (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    VkBuffer ubo_handle = psc_buffer_get_handle (r.ubo);
    VkSampler sampler_handle = psc_sampler_get_handle (r.sampler);
    VkBufferView texel_handle = psc_buffer_view_get_handle (r.utexel);
    const PscDescriptorEntry *en;
    VkDescriptorSet handle;

    g_assert_true (psc_descriptor_set_get_handle (set, &handle, &error));
    g_assert_true (handle != VK_NULL_HANDLE);
    g_assert_true (psc_descriptor_set_get_layout (set) == layout);
    g_assert_cmpuint (psc_descriptor_set_get_generation (set), ==, 1);

    /* The caller drops every reference: the set's entries keep them. */
    resources_clear (&r);
    for (guint32 i = 0; i < 4; i++)
      {
        en = entry (set, 0, i);
        g_assert_true (psc_descriptor_entry_is_filled (en));
        g_assert_cmpint (psc_descriptor_entry_get_descriptor_type (en), ==, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
        g_assert_true (psc_buffer_get_handle (psc_descriptor_entry_get_buffer (en)) == ubo_handle);
        g_assert_cmpuint (psc_descriptor_entry_get_offset (en), ==, 256 * i);
        g_assert_cmpuint (psc_descriptor_entry_get_range (en), ==, 256);
      }
    /* VK_WHOLE_SIZE kept resolved. */
    en = entry (set, 1, 0);
    g_assert_cmpuint (psc_descriptor_entry_get_range (en), ==, 4096);
    /* Dynamic: the base offset and range. */
    en = entry (set, 2, 0);
    g_assert_cmpint (psc_descriptor_entry_get_descriptor_type (en), ==, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC);
    g_assert_cmpuint (psc_descriptor_entry_get_offset (en), ==, 1024);
    g_assert_cmpuint (psc_descriptor_entry_get_range (en), ==, 128);
    en = entry (set, 6, 0);
    g_assert_nonnull (psc_descriptor_entry_get_image_view (en));
    g_assert_cmpint (psc_descriptor_entry_get_image_layout (en), ==, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    g_assert_true (psc_sampler_get_handle (psc_descriptor_entry_get_sampler (en)) == sampler_handle);
    /* Sampler-only: no image. */
    en = entry (set, 7, 0);
    g_assert_null (psc_descriptor_entry_get_image_view (en));
    g_assert_true (psc_sampler_get_handle (psc_descriptor_entry_get_sampler (en)) == sampler_handle);
    /* Texel buffer: the view, and through it its buffer. */
    en = entry (set, 8, 0);
    g_assert_true (psc_buffer_view_get_handle (psc_descriptor_entry_get_buffer_view (en)) == texel_handle);
    g_assert_cmpuint (psc_buffer_get_size (psc_buffer_view_get_buffer (psc_descriptor_entry_get_buffer_view (en))),
                      ==, 1024);
    g_assert_null (psc_descriptor_set_get_entry (set, 0, 4, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_null (psc_descriptor_set_get_entry (set, 11, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    assert_clean (&e);
    /* The set is the last owner: releasing it destroys the owned objects
     * (the layer's leak check at device destruction would see them). */
  }
  env_finish (&e);
}

static void
test_write_replacement (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    g_autoptr(PscBuffer) other = new_buffer (&e, 512);
    g_autoptr(PscBuffer) third = new_buffer (&e, 512);
    g_autoptr(PscDescriptorWriter) w = psc_descriptor_set_begin_write (set, &error);

    /* Element 2 replaced; in one batch the later write of element 3 wins. */
    psc_descriptor_writer_write_buffer (w, 0, 2, other, 0, 256);
    psc_descriptor_writer_write_buffer (w, 0, 3, other, 256, 256);
    psc_descriptor_writer_write_buffer (w, 0, 3, third, 0, 128);
    g_assert_true (psc_descriptor_writer_commit (w, &error));
    g_assert_no_error (error);
    g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 0, 0)) == r.ubo);
    g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 0, 1)) == r.ubo);
    g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 0, 2)) == other);
    g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 0, 3)) == third);
    g_assert_cmpuint (psc_descriptor_entry_get_range (entry (set, 0, 3)), ==, 128);
    assert_clean (&e);
  }
  resources_clear (&r);
  env_finish (&e);
}

/* Every refusal of the plan, each with a valid write beside it in the
 * batch: the batch fails as a whole and every entry stays as it was. */
static void
test_write_refusals (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;
  const VkPhysicalDeviceLimits *limits;
  VkPhysicalDeviceProperties props;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  vkGetPhysicalDeviceProperties (e.physical, &props);
  limits = &props.limits;
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    g_autoptr(PscBuffer) other = new_buffer (&e, 512);
    g_autoptr(PscBuffer) big = new_buffer (&e, (VkDeviceSize) limits->maxUniformBufferRange + 1024);
    g_autoptr(PscBuffer) dead = new_buffer (&e, 512);
    g_autoptr(PscImageView) swapchain_view = new_view (&e, PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE);
    g_autoptr(PscSampler) dead_sampler = new_sampler (&e);

    psc_buffer_invalidate (dead);
    g_assert_true (psc_buffer_is_invalidated (dead));
    psc_sampler_invalidate (dead_sampler);

#define VALID psc_descriptor_writer_write_buffer (_w, 0, 1, other, 0, 256)
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].binding: 12",
                        VALID; psc_descriptor_writer_write_buffer (_w, 12, 0, other, 0, 16));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].array_element: 4 >= binding 0's count 4",
                        VALID; psc_descriptor_writer_write_buffer (_w, 0, 4, other, 0, 16));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "takes a buffer, not an image view",
                        VALID; psc_descriptor_writer_write_image (_w, 0, 0, r.view, VK_IMAGE_LAYOUT_GENERAL, NULL));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "takes an image view, not a buffer",
                        VALID; psc_descriptor_writer_write_buffer (_w, 4, 0, other, 0, 16));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "takes a sampler, not a buffer view",
                        VALID; psc_descriptor_writer_write_texel_buffer (_w, 7, 0, r.utexel));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].offset: 512 >= the buffer's size 512",
                        VALID; psc_descriptor_writer_write_buffer (_w, 0, 0, other, 512, 16));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].range: 300 bytes from offset 256",
                        VALID; psc_descriptor_writer_write_buffer (_w, 0, 0, other, 256, 300));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].range: 0 bytes",
                        VALID; psc_descriptor_writer_write_buffer (_w, 1, 0, other, 0, 0));
    /* Overflow of offset + range. */
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "writes[1].range",
                        VALID; psc_descriptor_writer_write_buffer (_w, 1, 0, other, 256, G_MAXUINT64 - 128));
    g_assert_cmpuint (limits->minUniformBufferOffsetAlignment, >, 1);
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "minUniformBufferOffsetAlignment",
                        VALID; psc_descriptor_writer_write_buffer (_w, 0, 0, other, 1, 16));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "maxUniformBufferRange",
                        VALID; psc_descriptor_writer_write_buffer (_w, 0, 0, big, 0, VK_WHOLE_SIZE));
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED, "writes[1].buffer",
                        VALID; psc_descriptor_writer_write_buffer (_w, 1, 0, dead, 0, 16));
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED, "writes[1].sampler",
                        VALID; psc_descriptor_writer_write_sampler (_w, 7, 0, dead_sampler));
    /* A swapchain view, for every managed image kind. */
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE, "swapchain",
                        VALID; psc_descriptor_writer_write_image (_w, 4, 0, swapchain_view,
                                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL));
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE, "swapchain",
                        VALID; psc_descriptor_writer_write_image (_w, 5, 0, swapchain_view,
                                                                  VK_IMAGE_LAYOUT_GENERAL, NULL));
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_SWAPCHAIN_IMAGE, "swapchain",
                        VALID; psc_descriptor_writer_write_image (_w, 6, 0, swapchain_view,
                                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, r.sampler));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "needs a sampler",
                        VALID; psc_descriptor_writer_write_image (_w, 6, 0, r.view,
                                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "takes no sampler",
                        VALID; psc_descriptor_writer_write_image (_w, 4, 0, r.view,
                                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, r.sampler));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "VK_IMAGE_LAYOUT_GENERAL",
                        VALID; psc_descriptor_writer_write_image (_w, 5, 0, r.view,
                                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL));
    assert_write_fails (set, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "sample in",
                        VALID; psc_descriptor_writer_write_image (_w, 4, 0, r.view,
                                                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL));
    assert_write_fails (set, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE, "not PARTIALLY_BOUND",
                        VALID; psc_descriptor_writer_clear (_w, 0, 2));
#undef VALID

    /* Nothing of those batches reached the set. */
    for (guint32 i = 0; i < 4; i++)
      {
        g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 0, i)) == r.ubo);
        g_assert_cmpuint (psc_descriptor_entry_get_offset (entry (set, 0, i)), ==, 256 * i);
      }
    g_assert_true (psc_descriptor_entry_get_buffer (entry (set, 1, 0)) == r.ssbo);
    g_assert_true (psc_descriptor_entry_get_image_view (entry (set, 4, 0)) == r.view);
    g_assert_true (psc_descriptor_entry_get_sampler (entry (set, 7, 0)) == r.sampler);

    /* Completeness: a fresh set's first commit must fill every slot. */
    {
      g_autoptr(PscDescriptorSet) fresh = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
      g_assert_no_error (error);
      assert_write_fails (fresh, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE,
                          "12 empty slots in bindings that are not PARTIALLY_BOUND, the first binding 0 element 1",
                          psc_descriptor_writer_write_buffer (_w, 0, 0, other, 0, 256));
      g_assert_false (psc_descriptor_entry_is_filled (entry (fresh, 0, 0)));
    }
    assert_clean (&e);
  }
  resources_clear (&r);
  env_finish (&e);
}

/* ------------------------------------------------------------------------
 * Generations, reset, destruction, capacity
 */

static void
assert_stale (PscDescriptorSet *set, PscDescriptorWriter *old_writer, PscBuffer *buffer)
{
  g_autoptr(GError) error = NULL;
  VkDescriptorSet handle = (VkDescriptorSet) 1;
  VkWriteDescriptorSet raw = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET };

  g_assert_true (psc_descriptor_set_is_stale (set));
  g_assert_false (psc_descriptor_set_get_handle (set, &handle, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
  g_assert_true (handle == VK_NULL_HANDLE);
  g_test_message ("stale: %s", error->message);
  g_clear_error (&error);
  g_assert_null (psc_descriptor_set_get_entry (set, 0, 0, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
  g_clear_error (&error);
  g_assert_null (psc_descriptor_set_begin_write (set, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
  g_clear_error (&error);
  /* A writer made before the reset: its commit is refused too. */
  psc_descriptor_writer_write_buffer (old_writer, 0, 0, buffer, 0, 256);
  g_assert_false (psc_descriptor_writer_commit (old_writer, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
  g_clear_error (&error);
  g_assert_false (psc_descriptor_set_write_raw_untracked (set, 1, &raw, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
}

static void
test_generations (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    g_autoptr(PscDescriptorWriter) w = psc_descriptor_set_begin_write (set, &error);
    g_autoptr(PscDescriptorSet) next = NULL;
    VkDescriptorSet handle;

    /* A failed reset (fault-injected) changes nothing. */
    psc_descriptor_pool_fail_next_reset (pool, VK_ERROR_OUT_OF_HOST_MEMORY);
    g_assert_false (psc_descriptor_pool_reset_unlocked (pool, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_VULKAN);
    g_clear_error (&error);
    g_assert_cmpuint (psc_descriptor_pool_get_generation (pool), ==, 1);
    g_assert_false (psc_descriptor_set_is_stale (set));
    g_assert_true (psc_descriptor_set_get_handle (set, &handle, &error));
    g_assert_no_error (error);

    /* A successful reset: the set survives as a wrapper, and is stale for
     * every operation that would expose or use its handle. (The test's own
     * GPU work is none: the external synchronization holds trivially.) */
    g_assert_true (psc_descriptor_pool_reset_unlocked (pool, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (psc_descriptor_pool_get_generation (pool), ==, 2);
    assert_stale (set, w, r.ubo);

    /* The pool allocates again, in the new generation. */
    next = full_set (&e, pool, layout, &r);
    g_assert_cmpuint (psc_descriptor_set_get_generation (next), ==, 2);
    g_assert_false (psc_descriptor_set_is_stale (next));

    /* Destruction: stale again, allocation closed. */
    psc_descriptor_pool_destroy_unlocked (pool);
    g_assert_cmpuint (psc_descriptor_pool_get_generation (pool), ==, 3);
    g_assert_true (psc_descriptor_set_is_stale (next));
    g_assert_null (psc_descriptor_pool_allocate_managed (pool, layout, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);
    g_clear_error (&error);
    g_assert_false (psc_descriptor_pool_reset_unlocked (pool, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);
    g_clear_error (&error);
    psc_descriptor_pool_destroy_unlocked (pool);
    g_assert_cmpuint (psc_descriptor_pool_get_generation (pool), ==, 3);
    assert_clean (&e);
  }
  resources_clear (&r);
  env_finish (&e);
}

static void
test_capacity_and_untracked (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 2, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    g_autoptr(PscImageView) swapchain_view = new_view (&e, PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE);
    VkDescriptorSet raw = VK_NULL_HANDLE;
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, psc_image_view_get_handle (swapchain_view),
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkWriteDescriptorSet w = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstBinding = 4,
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
      .pImageInfo = &ii,
    };
    VkWriteDescriptorSet out_of_range = w;

    /* A raw set: owns nothing; the pool is then full. */
    g_assert_true (psc_descriptor_pool_allocate_untracked (pool, psc_descriptor_layout_get_handle (layout),
                                                           &raw, &error));
    g_assert_no_error (error);
    g_assert_true (raw != VK_NULL_HANDLE);
    g_assert_null (psc_descriptor_pool_allocate_managed (pool, layout, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_CAPACITY);
    g_clear_error (&error);

    /* The raw route takes what managed writes refuse; the slot becomes
     * untracked and releases its owner. */
    out_of_range.dstBinding = 4;
    out_of_range.dstArrayElement = 1;
    g_assert_false (psc_descriptor_set_write_raw_untracked (set, 1, &out_of_range, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_true (psc_descriptor_set_write_raw_untracked (set, 1, &w, &error));
    g_assert_no_error (error);
    g_assert_true (psc_descriptor_entry_is_untracked (entry (set, 4, 0)));
    g_assert_null (psc_descriptor_entry_get_image_view (entry (set, 4, 0)));
    g_assert_true (psc_descriptor_entry_is_filled (entry (set, 4, 0)));
    /* An untracked slot counts as filled: managed commits go on. */
    {
      g_autoptr(PscDescriptorWriter) wr = psc_descriptor_set_begin_write (set, &error);
      psc_descriptor_writer_write_buffer (wr, 0, 0, r.ssbo, 0, 256);
      g_assert_true (psc_descriptor_writer_commit (wr, &error));
      g_assert_no_error (error);
    }
    assert_clean (&e);
    /* The swapchain "image" outlives the set's use: the caller's duty on
     * the raw route (here: the test's own image, destroyed at the end). */
  }
  resources_clear (&r);
  env_finish (&e);
}

static void
test_wrappers (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  VkImageSubresourceRange bad = { VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 0, 1 };

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  g_assert_null (psc_buffer_new (e.psc, VK_NULL_HANDLE, 16, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (psc_buffer_new (e.psc, (VkBuffer) 1, 0, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (psc_buffer_new (e.psc, (VkBuffer) 1, 16, PSC_RESOURCE_FLAGS_SWAPCHAIN_IMAGE, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (psc_image_view_new (e.psc, (VkImageView) 1, (VkImage) 1, &bad, 1, 1, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "baseMipLevel"));
  g_clear_error (&error);
  {
    g_autoptr(PscBuffer) b = new_buffer (&e, 256);
    g_autoptr(PscBufferView) v = NULL;
    VkBufferView handle = (VkBufferView) 1;

    g_assert_null (psc_buffer_view_new (b, handle, VK_FORMAT_R32_SFLOAT, 256, VK_WHOLE_SIZE, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_null (psc_buffer_view_new (b, handle, VK_FORMAT_R32_SFLOAT, 128, 256, 0, &error));
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    /* Not owned: the wrapper never destroys the (fake) handle. */
    v = psc_buffer_view_new (b, handle, VK_FORMAT_R32_SFLOAT, 64, VK_WHOLE_SIZE, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (psc_buffer_view_get_offset (v), ==, 64);
    g_assert_cmpuint (psc_buffer_view_get_range (v), ==, 192);
    g_assert_true (psc_buffer_view_get_buffer (v) == b);
    g_assert_false (psc_buffer_view_is_invalidated (v));
    psc_buffer_view_invalidate (v);
    psc_buffer_view_invalidate (v);
    g_assert_true (psc_buffer_view_is_invalidated (v));
    /* The view's buffer is not invalidated with it. */
    g_assert_false (psc_buffer_is_invalidated (b));
  }
  assert_clean (&e);
  env_finish (&e);
}

/* ------------------------------------------------------------------------
 * Bind-time data: dynamic offsets and accesses
 */

/* Set 0: binding 0 uniform dynamic x2, 1 uniform, 3 storage dynamic.
 * Set 1: binding 2 storage dynamic, 0 uniform dynamic. */
static const VkDescriptorSetLayoutBinding dyn0_bindings[] = {
  { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
};
static const VkDescriptorSetLayoutBinding dyn1_bindings[] = {
  { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
};

static void
assert_plan_fails (PscBindPlan *plan, PscDescriptorSet **sets, guint n_sets,
                   const PscDynamicOffset *offsets, guint n, GQuark domain, int code,
                   const char *fragment)
{
  g_autoptr(GError) error = NULL;
  guint n_out = 1;

  g_assert_false (psc_bind_plan_build (plan, n_sets, sets, n, offsets, &error));
  g_assert_error (error, domain, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s' does not name '%s'", error->message, fragment);
  g_test_message ("refused: %s", error->message);
  psc_bind_plan_get_sets (plan, &n_out);
  g_assert_cmpuint (n_out, ==, 0);
}

static void
test_dynamic_offsets (void)
{
  Env e;
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  {
    g_autoptr(PscDescriptorLayout) l0 = new_layout (&e, dyn0_bindings, 3, NULL, 0, &error);
    g_autoptr(PscDescriptorLayout) l1 = new_layout (&e, dyn1_bindings, 2, NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) s0 = psc_descriptor_pool_allocate_managed (pool, l0, 0, &error);
    g_autoptr(PscDescriptorSet) s1 = psc_descriptor_pool_allocate_managed (pool, l1, 0, &error);
    g_autoptr(PscBuffer) buf = new_buffer (&e, 4096);
    g_autoptr(PscBindPlan) plan = psc_bind_plan_new ();
    PscDescriptorSet *sets[] = { s0, s1 };
    /* In no particular order; multiples of 256, which every device's
     * alignments divide. */
    const PscDynamicOffset offsets[] = {
      { 1, 0, 0, 1280 }, { 0, 3, 0, 768 }, { 0, 0, 1, 512 }, { 1, 2, 0, 1024 }, { 0, 0, 0, 256 },
    };
    const guint32 expected[] = { 256, 512, 768, 1280, 1024 };
    VkPhysicalDeviceProperties props;
    PscDynamicOffset bad[G_N_ELEMENTS (offsets)];
    const guint32 *out;
    const VkDescriptorSet *handles;
    guint n = 0;

    g_assert_no_error (error);
    {
      g_autoptr(PscDescriptorWriter) w = psc_descriptor_set_begin_write (s0, &error);
      psc_descriptor_writer_write_buffer (w, 0, 0, buf, 0, 256);
      psc_descriptor_writer_write_buffer (w, 0, 1, buf, 256, 256);
      psc_descriptor_writer_write_buffer (w, 1, 0, buf, 0, 64);
      psc_descriptor_writer_write_buffer (w, 3, 0, buf, 1024, 1024);
      g_assert_true (psc_descriptor_writer_commit (w, &error));
      g_assert_no_error (error);
    }
    {
      g_autoptr(PscDescriptorWriter) w = psc_descriptor_set_begin_write (s1, &error);
      psc_descriptor_writer_write_buffer (w, 2, 0, buf, 2048, 1024);
      psc_descriptor_writer_write_buffer (w, 0, 0, buf, 0, 128);
      g_assert_true (psc_descriptor_writer_commit (w, &error));
      g_assert_no_error (error);
    }

    /* Set order, then binding number, then element. */
    g_assert_true (psc_bind_plan_build (plan, 2, sets, G_N_ELEMENTS (offsets), offsets, &error));
    g_assert_no_error (error);
    out = psc_bind_plan_get_dynamic_offsets (plan, &n);
    g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));
    for (guint i = 0; i < n; i++)
      g_assert_cmpuint (out[i], ==, expected[i]);
    handles = psc_bind_plan_get_sets (plan, &n);
    g_assert_cmpuint (n, ==, 2);

    /* Recorded for real: the validation layer checks count, alignment and
     * ranges against the pipeline layout. */
    {
      const PscDeviceInfo *info = psc_device_get_info (e.psc);
      VkDescriptorSetLayout sl[] = { psc_descriptor_layout_get_handle (l0), psc_descriptor_layout_get_handle (l1) };
      VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 2, .pSetLayouts = sl,
      };
      VkPipelineLayout pl = psc_cache_get_pipeline_layout (e.cache, &pli, &error);
      VkCommandPoolCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = info->queue_family_index,
      };
      VkCommandPool cp;
      VkCommandBuffer cb;
      VkCommandBufferAllocateInfo cai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
      };
      VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
      const guint32 *dyn = psc_bind_plan_get_dynamic_offsets (plan, &n);

      g_assert_no_error (error);
      g_assert_cmpint (vkCreateCommandPool (e.device, &cpi, NULL, &cp), ==, VK_SUCCESS);
      cai.commandPool = cp;
      g_assert_cmpint (vkAllocateCommandBuffers (e.device, &cai, &cb), ==, VK_SUCCESS);
      g_assert_cmpint (vkBeginCommandBuffer (cb, &bi), ==, VK_SUCCESS);
      vkCmdBindDescriptorSets (cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 2, handles, n, dyn);
      g_assert_cmpint (vkEndCommandBuffer (cb), ==, VK_SUCCESS);
      vkDestroyCommandPool (e.device, cp, NULL);
      assert_clean (&e);
    }

    /* Count, set, binding, element, duplicates. */
    assert_plan_fails (plan, sets, 2, offsets, 4, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       "n_offsets: 4, but the sets hold 5 dynamic descriptors");
    memcpy (bad, offsets, sizeof offsets);
    bad[0].set = 2;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "offsets[0].set: 2 >= n_sets 2");
    memcpy (bad, offsets, sizeof offsets);
    bad[1].binding = 1;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "not a dynamic buffer");
    memcpy (bad, offsets, sizeof offsets);
    bad[1].binding = 7;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "offsets[1].binding: 7");
    memcpy (bad, offsets, sizeof offsets);
    bad[2].array_element = 2;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "offsets[2].array_element: 2");
    memcpy (bad, offsets, sizeof offsets);
    bad[2].array_element = 0;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "given twice");
    /* Alignment, effective range, overflow. */
    vkGetPhysicalDeviceProperties (e.physical, &props);
    g_assert_cmpuint (props.limits.minStorageBufferOffsetAlignment, >, 1);
    memcpy (bad, offsets, sizeof offsets);
    bad[1].offset = 769;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "minStorageBufferOffsetAlignment");
    memcpy (bad, offsets, sizeof offsets);
    bad[1].offset = 2048 + 256;  /* 1024 + 2304 + 1024 > 4096 */
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT,
                       "base 1024 + 2304 + range 1024 > the buffer's size 4096");
    memcpy (bad, offsets, sizeof offsets);
    bad[1].offset = 2048;        /* exactly the end: allowed */
    g_assert_true (psc_bind_plan_build (plan, 2, sets, 5, bad, &error));
    g_assert_no_error (error);
    memcpy (bad, offsets, sizeof offsets);
    bad[3].offset = G_MAXUINT32 & ~255u;
    assert_plan_fails (plan, sets, 2, bad, 5, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT, "offsets[3].offset");

    /* A stale set. */
    g_assert_true (psc_descriptor_pool_reset_unlocked (pool, &error));
    g_assert_no_error (error);
    assert_plan_fails (plan, sets, 2, offsets, 5, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET, "sets[0]: ");
    assert_clean (&e);
  }
  env_finish (&e);
}

static const PscDescriptorAccess *
find_access (PscBindPlan *plan, guint32 binding, guint32 element)
{
  for (guint i = 0; i < psc_bind_plan_get_n_accesses (plan); i++)
    {
      const PscDescriptorAccess *a = psc_bind_plan_get_access (plan, i);
      if (psc_descriptor_access_get_binding (a) == binding &&
          psc_descriptor_access_get_array_element (a) == element)
        return a;
    }
  return NULL;
}

static void
test_accesses (void)
{
  Env e;
  Resources r = { 0 };
  g_autoptr(GError) error = NULL;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  resources_init (&e, &r);
  {
    g_autoptr(PscDescriptorLayout) layout = new_layout (&e, all_bindings, G_N_ELEMENTS (all_bindings),
                                                        NULL, 0, &error);
    g_autoptr(PscDescriptorPool) pool = new_pool (&e, 4, 0);
    g_autoptr(PscDescriptorSet) set = full_set (&e, pool, layout, &r);
    g_autoptr(PscBindPlan) plan = psc_bind_plan_new ();
    PscDescriptorSet *sets[] = { set };
    const PscDynamicOffset offsets[] = { { 0, 3, 0, 256 }, { 0, 2, 0, 512 } };
    const VkAccessFlags2 storage = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    const PscDescriptorAccess *a;
    VkImageSubresourceRange range;
    guint64 ubo_handle = (guint64) (uintptr_t) psc_buffer_get_handle (r.ubo);

    g_assert_true (psc_bind_plan_build (plan, 1, sets, 2, offsets, &error));
    g_assert_no_error (error);
    g_assert_true (psc_bind_plan_collect_accesses (plan, &error));
    g_assert_no_error (error);
    /* 13 slots, the sampler has no memory access. */
    g_assert_cmpuint (psc_bind_plan_get_n_accesses (plan), ==, 12);
    g_assert_null (find_access (plan, 7, 0));

    for (guint32 i = 0; i < 4; i++)
      {
        a = find_access (plan, 0, i);
        g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, VK_ACCESS_2_UNIFORM_READ_BIT);
        g_assert_cmpuint (psc_descriptor_access_get_offset (a), ==, 256 * i);
        g_assert_cmpuint (psc_descriptor_access_get_range (a), ==, 256);
        /* ALL: every shader stage. */
        g_assert_true ((psc_descriptor_access_get_stages (a) & VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT) != 0);
        g_assert_true ((psc_descriptor_access_get_stages (a) & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) != 0);
        g_assert_true (psc_descriptor_access_get_buffer (a) == r.ubo);
        g_assert_cmpuint (psc_descriptor_access_get_handle (a), ==, ubo_handle);
      }
    /* Dynamic: base + dynamic offset; the same buffer as binding 0, by
     * wrapper and by handle (a graph merges them). */
    a = find_access (plan, 2, 0);
    g_assert_cmpuint (psc_descriptor_access_get_offset (a), ==, 1024 + 512);
    g_assert_cmpuint (psc_descriptor_access_get_range (a), ==, 128);
    g_assert_cmpuint (psc_descriptor_access_get_stages (a), ==, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT);
    g_assert_true (psc_descriptor_access_get_buffer (a) == r.ubo);
    g_assert_cmpuint (psc_descriptor_access_get_handle (a), ==, ubo_handle);
    a = find_access (plan, 3, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, storage);
    g_assert_cmpuint (psc_descriptor_access_get_offset (a), ==, 2048 + 256);
    a = find_access (plan, 1, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, storage);
    g_assert_cmpuint (psc_descriptor_access_get_range (a), ==, 4096);
    /* Images: the layout and the normalized range; the image's handle. */
    a = find_access (plan, 4, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    g_assert_cmpint (psc_descriptor_access_get_image_layout (a), ==, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    g_assert_cmpuint (psc_descriptor_access_get_stages (a), ==, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    g_assert_cmpuint (psc_descriptor_access_get_handle (a), ==,
                      (guint64) (uintptr_t) psc_image_view_get_image (r.view));
    g_assert_null (psc_descriptor_access_get_buffer (a));
    psc_descriptor_access_get_subresource_range (a, &range);
    g_assert_cmpuint (range.levelCount, ==, 1);
    g_assert_cmpuint (range.aspectMask, ==, VK_IMAGE_ASPECT_COLOR_BIT);
    a = find_access (plan, 5, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, storage);
    g_assert_cmpint (psc_descriptor_access_get_image_layout (a), ==, VK_IMAGE_LAYOUT_GENERAL);
    g_assert_cmpuint (psc_descriptor_access_get_stages (a), ==, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    a = find_access (plan, 6, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    g_assert_true (psc_descriptor_access_get_image_view (a) == r.view);
    /* Texel buffers: the view's range of its buffer. */
    a = find_access (plan, 8, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    g_assert_true (psc_descriptor_access_get_buffer (a) == r.texel_buffer);
    g_assert_cmpuint (psc_descriptor_access_get_range (a), ==, 1024);
    a = find_access (plan, 9, 0);
    g_assert_cmpuint (psc_descriptor_access_get_access (a), ==, storage);

    /* An untracked slot has no owner to report: an error, never left out. */
    {
      VkDescriptorImageInfo ii = { VK_NULL_HANDLE, psc_image_view_get_handle (r.view),
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
      VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 4, .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &ii,
      };
      g_assert_true (psc_descriptor_set_write_raw_untracked (set, 1, &w, &error));
      g_assert_no_error (error);
      g_assert_false (psc_bind_plan_collect_accesses (plan, &error));
      g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "binding 4 element 0 was written untracked"));
      g_clear_error (&error);
      g_assert_cmpuint (psc_bind_plan_get_n_accesses (plan), ==, 0);
    }
    /* Stale after a reset. */
    g_assert_true (psc_descriptor_pool_reset_unlocked (pool, &error));
    g_assert_false (psc_bind_plan_collect_accesses (plan, &error));
    g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_STALE_SET);
    g_clear_error (&error);
    assert_clean (&e);
  }
  resources_clear (&r);
  env_finish (&e);
}

int
main (int argc, char **argv)
{
  env_test_init (&argc, &argv);
  g_test_add_func ("/descriptors/layout-facts", test_layout_facts);
  g_test_add_func ("/descriptors/layout-refusals", test_layout_refusals);
  g_test_add_func ("/descriptors/features-not-enabled", test_features_not_enabled);
  g_test_add_func ("/descriptors/features-enabled", test_features_enabled);
  g_test_add_func ("/descriptors/wrappers", test_wrappers);
  g_test_add_func ("/descriptors/write-entries", test_write_entries);
  g_test_add_func ("/descriptors/write-replacement", test_write_replacement);
  g_test_add_func ("/descriptors/write-refusals", test_write_refusals);
  g_test_add_func ("/descriptors/generations", test_generations);
  g_test_add_func ("/descriptors/capacity-and-untracked", test_capacity_and_untracked);
  g_test_add_func ("/descriptors/dynamic-offsets", test_dynamic_offsets);
  g_test_add_func ("/descriptors/accesses", test_accesses);
  return g_test_run ();
}
