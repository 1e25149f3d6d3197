/* test-descriptor-bindings.c: the managed descriptor layer's methods for
 * bindings, from C (so that the sanitizer builds check their reference
 * counting; tests/python/test_descriptors.py drives them through
 * PyGObject):
 *
 *   - a retained writer keeps what it staged alive when the caller drops
 *     its references before the commit, and drops it after (commit or
 *     failure alike);
 *   - an entry's and an access's copies outlive the set and the plan;
 *   - a layout from a recipe's set has the set's facts; a pool for a
 *     layout holds exactly max_sets sets of it;
 *   - a cache-issued sampler is flagged and is the cache's handle;
 *   - a bind plan refuses a set whose required slots were never written;
 *   - a uniform resource list looks up the same set as the array of the
 *     same resources; the framebuffer lookup with integer handles;
 *   - the handle-as-integer getters agree with the typed ones;
 *   - a writer's batches of the same shape (the plan reuses it) are
 *     checked as fully as any other;
 *   - the validation layer stays silent throughout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "descriptor-env.h"

#include <string.h>

static const VkDescriptorSetLayoutBinding bindings[] = {
  { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
  { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
};

static PscDescriptorLayout *
layout_of (Env *e)
{
  g_autoptr(GError) error = NULL;
  PscDescriptorLayout *l = new_layout (e, bindings, G_N_ELEMENTS (bindings), NULL, 0, &error);

  g_assert_no_error (error);
  return l;
}

static void
test_retained_writer (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = NULL;
  g_autoptr(PscDescriptorPool) pool = NULL;
  g_autoptr(PscDescriptorSet) set = NULL;
  g_autoptr(PscDescriptorWriter) w = NULL;
  PscBuffer *ubo;
  PscImageView *view;
  PscSampler *sampler;
  VkBuffer ubo_handle;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  layout = layout_of (&e);
  pool = psc_descriptor_pool_new_for_layout (e.psc, layout, 2, &error);
  g_assert_no_error (error);
  set = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
  g_assert_no_error (error);

  ubo = new_buffer (&e, 4096);
  view = new_view (&e, 0);
  sampler = new_sampler (&e);
  ubo_handle = psc_buffer_get_handle (ubo);
  g_assert_cmpuint (psc_buffer_get_handle_value (ubo), ==, (guint64) (guintptr) ubo_handle);

  /* A failed commit drops the staged references too (a wrong type). */
  w = psc_descriptor_set_begin_retained_write (set, &error);
  g_assert_no_error (error);
  psc_descriptor_writer_write_sampler (w, 0, 0, sampler);
  g_assert_false (psc_descriptor_writer_commit (w, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Staged, then every caller reference dropped before the commit: the
   * writer's keep them (ASan would see a use after free otherwise). */
  psc_descriptor_writer_write_buffer (w, 0, 0, ubo, 0, 256);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  psc_buffer_unref (ubo);
  psc_image_view_unref (view);
  psc_sampler_unref (sampler);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  g_assert_no_error (error);

  {
    const PscDescriptorEntry *en = psc_descriptor_set_get_entry (set, 0, 0, &error);
    g_autoptr(PscDescriptorEntry) copy = NULL;

    g_assert_no_error (error);
    copy = psc_descriptor_entry_copy (en);
    g_assert_true (psc_buffer_get_handle (psc_descriptor_entry_get_buffer (copy)) == ubo_handle);
    g_assert_cmpuint (psc_descriptor_entry_get_descriptor_type_value (copy), ==,
                      VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC);
    g_assert_cmpuint (psc_descriptor_entry_get_range (copy), ==, 256);
    /* The copy outlives the set's entry: the set goes, the buffer stays. */
    g_clear_pointer (&w, psc_descriptor_writer_unref);
    g_clear_pointer (&set, psc_descriptor_set_unref);
    g_assert_false (psc_buffer_is_invalidated (psc_descriptor_entry_get_buffer (copy)));
    g_assert_cmpuint (psc_buffer_get_size (psc_descriptor_entry_get_buffer (copy)), ==, 4096);
  }
  assert_clean (&e);
  g_clear_pointer (&pool, psc_descriptor_pool_unref);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  env_finish (&e);
}

static void
test_pool_for_layout (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = NULL;
  g_autoptr(PscDescriptorPool) pool = NULL;
  PscDescriptorSet *sets[3];

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  layout = layout_of (&e);
  g_assert_cmpuint (psc_descriptor_layout_get_handle_value (layout), ==,
                    (guint64) (guintptr) psc_descriptor_layout_get_handle (layout));
  g_assert_null (psc_descriptor_pool_new_for_layout (e.psc, layout, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  pool = psc_descriptor_pool_new_for_layout (e.psc, layout, 2, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)
    {
      sets[i] = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
      g_assert_no_error (error);
    }
  sets[2] = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
  g_assert_null (sets[2]);
  g_assert_error (error, PSC_ERROR, PSC_ERROR_CAPACITY);
  g_clear_error (&error);
  for (guint i = 0; i < 2; i++)
    psc_descriptor_set_unref (sets[i]);
  assert_clean (&e);
  g_clear_pointer (&pool, psc_descriptor_pool_unref);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  env_finish (&e);
}

static void
test_layout_for_recipe (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscRecipe) recipe = psc_recipe_new_compute ();
  g_autoptr(PscDescriptorLayout) layout = NULL;
  VkDescriptorType type;
  guint32 count;
  VkShaderStageFlags stages;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  g_assert_cmpint (psc_recipe_add_set_layout (recipe, 0, &error), ==, 0);
  g_assert_cmpint (psc_recipe_add_set_layout (recipe, 0, &error), ==, 1);
  g_assert_true (psc_recipe_add_set_binding (recipe, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, 0, &error));
  g_assert_true (psc_recipe_add_set_binding (recipe, 1, 3, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2,
                                             VK_SHADER_STAGE_COMPUTE_BIT, 0, &error));
  g_assert_true (psc_recipe_add_set_binding (recipe, 1, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, 0, &error));
  g_assert_no_error (error);

  layout = psc_descriptor_layout_new_for_recipe (e.cache, recipe, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_descriptor_layout_get_n_bindings (layout), ==, 2);
  g_assert_true (psc_descriptor_layout_get_binding (layout, 3, &type, &count, &stages, NULL));
  g_assert_cmpint (type, ==, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
  g_assert_cmpuint (count, ==, 2);
  g_assert_false (psc_descriptor_layout_get_binding (layout, 0, NULL, NULL, NULL, NULL));
  /* The cache's own layout of that set. */
  g_assert_cmpuint (psc_descriptor_layout_get_handle_value (layout), ==,
                    psc_cache_get_set_layout_for_recipe (e.cache, recipe, 1, &error));

  g_assert_null (psc_descriptor_layout_new_for_recipe (e.cache, recipe, 2, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "layout.sets[2]"));
  g_clear_error (&error);

  /* A type managed sets do not take: refused by the managed checks. */
  g_assert_true (psc_recipe_add_set_binding (recipe, 0, 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
                                             VK_SHADER_STAGE_FRAGMENT_BIT, 0, &error));
  g_assert_null (psc_descriptor_layout_new_for_recipe (e.cache, recipe, 0, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  assert_clean (&e);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  env_finish (&e);
}

static void
test_cache_sampler_and_bind (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = NULL;
  g_autoptr(PscDescriptorPool) pool = NULL;
  g_autoptr(PscDescriptorSet) set = NULL;
  g_autoptr(PscDescriptorWriter) w = NULL;
  g_autoptr(PscBindPlan) plan = psc_bind_plan_new ();
  g_autoptr(PscSampler) sampler = NULL;
  g_autoptr(PscSamplerInfo) info = psc_sampler_info_new ();
  g_autoptr(PscBuffer) ubo = NULL;
  g_autoptr(PscImageView) view = NULL;
  g_autoptr(PscDescriptorAccess) access = NULL;
  PscDynamicOffset offset = { 0, 0, 0, 256 };
  const guint64 *handles;
  guint n;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  sampler = psc_sampler_new_from_cache_info (e.cache, info, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (psc_sampler_get_flags (sampler), ==, PSC_RESOURCE_FLAGS_CACHE_ISSUED);
  g_assert_cmpuint (psc_sampler_get_handle_value (sampler), ==,
                    psc_cache_get_sampler_for_info (e.cache, info, &error));
  g_assert_null (psc_sampler_new (e.psc, psc_sampler_get_handle (sampler),
                                  PSC_RESOURCE_FLAGS_CACHE_ISSUED, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  layout = layout_of (&e);
  pool = psc_descriptor_pool_new_for_layout (e.psc, layout, 1, &error);
  g_assert_no_error (error);
  set = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
  g_assert_no_error (error);

  /* Never written whole: not bindable. */
  g_assert_false (psc_bind_plan_build (plan, 1, &set, 1, &offset, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INCOMPLETE);
  g_assert_nonnull (strstr (error->message, "sets[0]"));
  g_clear_error (&error);

  ubo = new_buffer (&e, 4096);
  view = new_view (&e, 0);
  w = psc_descriptor_set_begin_write (set, &error);
  g_assert_no_error (error);
  psc_descriptor_writer_write_buffer (w, 0, 0, ubo, 0, 256);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  g_assert_no_error (error);

  g_assert_true (psc_bind_plan_build (plan, 1, &set, 1, &offset, &error));
  g_assert_no_error (error);
  handles = psc_bind_plan_get_set_handles (plan, &n);
  g_assert_cmpuint (n, ==, 1);
  {
    VkDescriptorSet raw;
    g_assert_true (psc_descriptor_set_get_handle (set, &raw, &error));
    g_assert_cmpuint (handles[0], ==, (guint64) (guintptr) raw);
  }
  g_assert_true (psc_bind_plan_collect_accesses (plan, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (psc_bind_plan_get_n_accesses (plan), ==, 2);
  access = psc_descriptor_access_copy (psc_bind_plan_get_access (plan, 1));
  /* The plan moves on; the copy keeps its view. */
  g_clear_pointer (&plan, psc_bind_plan_unref);
  g_clear_pointer (&view, psc_image_view_unref);
  g_assert_cmpuint (psc_descriptor_access_get_descriptor_type_value (access), ==,
                    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
  g_assert_cmpuint (psc_descriptor_access_get_image_layout_value (access), ==,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  g_assert_cmpuint (psc_descriptor_access_get_access_value (access), ==,
                    VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  g_assert_cmpuint (psc_descriptor_access_get_stages_value (access), ==,
                    VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
  {
    guint32 aspect, levels, layers;
    psc_descriptor_access_get_subresource_range_values (access, &aspect, NULL, &levels, NULL, &layers);
    g_assert_cmpuint (aspect, ==, VK_IMAGE_ASPECT_COLOR_BIT);
    g_assert_cmpuint (levels, ==, 1);
    g_assert_cmpuint (layers, ==, 1);
  }
  g_assert_cmpuint (psc_descriptor_access_get_handle (access), ==,
                    psc_image_view_get_image_value (psc_descriptor_access_get_image_view (access)));
  assert_clean (&e);
  g_clear_pointer (&w, psc_descriptor_writer_unref);
  g_clear_pointer (&set, psc_descriptor_set_unref);
  g_clear_pointer (&pool, psc_descriptor_pool_unref);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  g_clear_pointer (&access, psc_descriptor_access_free);
  g_clear_pointer (&sampler, psc_sampler_unref);
  g_clear_pointer (&ubo, psc_buffer_unref);
  env_finish (&e);
}

static void
test_resource_list (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = NULL;
  g_autoptr(PscUniformSetCache) usc = NULL;
  g_autoptr(PscUniformResourceList) list = psc_uniform_resource_list_new ();
  PscBuffer *ubo;
  PscImageView *view;
  PscSampler *sampler;
  PscDescriptorSet *a, *b;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  layout = layout_of (&e);
  usc = psc_uniform_set_cache_new (e.psc, 4, &error);
  g_assert_no_error (error);
  ubo = new_buffer (&e, 4096);
  view = new_view (&e, 0);
  sampler = new_sampler (&e);
  {
    PscUniformResource r[] = {
      { .binding = 0, .buffer = ubo, .range = 256 },
      { .binding = 1, .image_view = view, .image_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .sampler = sampler },
    };
    a = psc_uniform_set_cache_lookup (usc, (VkPipelineLayout) (guintptr) 7, 0, layout, 2, r, &error);
    g_assert_no_error (error);
  }
  psc_uniform_resource_list_add_buffer (list, 0, 0, ubo, 0, 256);
  psc_uniform_resource_list_add_image (list, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  g_assert_cmpuint (psc_uniform_resource_list_get_n_resources (list), ==, 2);
  /* The list holds its own references. */
  psc_buffer_unref (ubo);
  psc_sampler_unref (sampler);
  b = psc_uniform_set_cache_lookup_list (usc, 7, 0, layout, list, &error);
  g_assert_no_error (error);
  g_assert_true (a == b);
  g_assert_cmpuint (psc_uniform_set_cache_get_hits (usc), ==, 1);
  /* Another pipeline layout: another set. */
  b = psc_uniform_set_cache_lookup_list (usc, 8, 0, layout, list, &error);
  g_assert_no_error (error);
  g_assert_true (a != b);
  g_assert_cmpuint (psc_uniform_set_cache_get_n_entries (usc), ==, 2);

  /* The framebuffer lookup with integer handles. */
  {
    g_autoptr(PscFramebufferCache) fbc = psc_framebuffer_cache_new (e.psc, &error);
    VkAttachmentDescription att = {
      .format = VK_FORMAT_R8G8B8A8_UNORM, .samples = VK_SAMPLE_COUNT_1_BIT,
      .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
      .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED, .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
    };
    VkAttachmentReference ref = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    VkSubpassDescription sub = { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                 .colorAttachmentCount = 1, .pColorAttachments = &ref };
    VkRenderPassCreateInfo rp = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .attachmentCount = 1, .pAttachments = &att,
                                  .subpassCount = 1, .pSubpasses = &sub };
    VkRenderPass pass = psc_cache_get_compat_render_pass (e.cache, &rp, &error);
    guint64 fb1, fb2;

    g_assert_no_error (error);
    fb1 = psc_framebuffer_cache_lookup_value (fbc, (guint64) (guintptr) pass, 1, &view, 8, 8, 1, &error);
    g_assert_no_error (error);
    fb2 = psc_framebuffer_cache_lookup_value (fbc, (guint64) (guintptr) pass, 1, &view, 8, 8, 1, &error);
    g_assert_cmpuint (fb1, !=, 0);
    g_assert_cmpuint (fb1, ==, fb2);
    g_assert_cmpuint (psc_framebuffer_cache_lookup_value (fbc, (guint64) (guintptr) pass, 0, &view,
                                                          8, 8, 1, &error), ==, 0);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  psc_image_view_unref (view);
  assert_clean (&e);
  g_clear_object (&usc);
  g_clear_pointer (&list, psc_uniform_resource_list_unref);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  env_finish (&e);
}

/* A writer that commits the same bindings again (the plan reuses its
 * shape): every resource check still applies, a failed batch keeps the
 * entries, a new owner replaces the old, a different shape is planned in
 * full. */
static void
test_same_shape_recommit (void)
{
  Env e;
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDescriptorLayout) layout = NULL;
  g_autoptr(PscDescriptorPool) pool = NULL;
  g_autoptr(PscDescriptorSet) set = NULL;
  g_autoptr(PscDescriptorWriter) w = NULL;
  g_autoptr(PscBuffer) a = NULL, b = NULL;
  g_autoptr(PscImageView) view = NULL;
  g_autoptr(PscSampler) sampler = NULL;
  const PscDescriptorEntry *en;

  env_init (&e, PSC_DEVICE_FLAGS_NONE);
  layout = layout_of (&e);
  pool = psc_descriptor_pool_new_for_layout (e.psc, layout, 1, &error);
  g_assert_no_error (error);
  set = psc_descriptor_pool_allocate_managed (pool, layout, 0, &error);
  g_assert_no_error (error);
  a = new_buffer (&e, 4096);
  b = new_buffer (&e, 1024);
  view = new_view (&e, 0);
  sampler = new_sampler (&e);
  w = psc_descriptor_set_begin_write (set, &error);
  g_assert_no_error (error);

  for (guint round = 0; round < 3; round++)
    {
      psc_descriptor_writer_write_buffer (w, 0, 0, a, 256 * round, 256);
      psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
      g_assert_true (psc_descriptor_writer_commit (w, &error));
      g_assert_no_error (error);
      en = psc_descriptor_set_get_entry (set, 0, 0, &error);
      g_assert_cmpuint (psc_descriptor_entry_get_offset (en), ==, 256 * round);
    }

  /* Same shape, a range past the buffer: refused, entries kept. */
  psc_descriptor_writer_write_buffer (w, 0, 0, b, 768, 512);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_GENERAL, sampler);
  g_assert_false (psc_descriptor_writer_commit (w, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "writes[0].range"));
  g_clear_error (&error);
  en = psc_descriptor_set_get_entry (set, 0, 0, &error);
  g_assert_true (psc_descriptor_entry_get_buffer (en) == a);
  g_assert_cmpuint (psc_descriptor_entry_get_offset (en), ==, 512);
  g_assert_cmpint (psc_descriptor_entry_get_image_layout (psc_descriptor_set_get_entry (set, 1, 0, &error)),
                   ==, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

  /* Same shape, a misaligned offset and a storage layout for a sampled
   * image: refused with the write named. */
  psc_descriptor_writer_write_buffer (w, 0, 0, a, 4, 256);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  g_assert_false (psc_descriptor_writer_commit (w, &error));
  g_assert_nonnull (strstr (error->message, "writes[0].offset"));
  g_clear_error (&error);
  psc_descriptor_writer_write_buffer (w, 0, 0, a, 0, 256);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, sampler);
  g_assert_false (psc_descriptor_writer_commit (w, &error));
  g_assert_nonnull (strstr (error->message, "writes[1].layout"));
  g_clear_error (&error);

  /* Same shape, another owner: the entry holds the new buffer. */
  psc_descriptor_writer_write_buffer (w, 0, 0, b, 0, VK_WHOLE_SIZE);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_GENERAL, sampler);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  g_assert_no_error (error);
  en = psc_descriptor_set_get_entry (set, 0, 0, &error);
  g_assert_true (psc_descriptor_entry_get_buffer (en) == b);
  g_assert_cmpuint (psc_descriptor_entry_get_range (en), ==, 1024);

  /* Same shape, an invalidated buffer: refused. */
  psc_buffer_invalidate (a);
  psc_descriptor_writer_write_buffer (w, 0, 0, a, 0, 256);
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_GENERAL, sampler);
  g_assert_false (psc_descriptor_writer_commit (w, &error));
  g_assert_error (error, PSC_DESCRIPTOR_ERROR, PSC_DESCRIPTOR_ERROR_INVALIDATED);
  g_clear_error (&error);

  /* Another shape (one write, then the two in reverse order): planned in
   * full, later wins. */
  psc_descriptor_writer_write_buffer (w, 0, 0, b, 256, 256);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  psc_descriptor_writer_write_image (w, 1, 0, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  psc_descriptor_writer_write_buffer (w, 0, 0, b, 512, 256);
  psc_descriptor_writer_write_buffer (w, 0, 0, b, 768, 256);
  g_assert_true (psc_descriptor_writer_commit (w, &error));
  g_assert_no_error (error);
  en = psc_descriptor_set_get_entry (set, 0, 0, &error);
  g_assert_cmpuint (psc_descriptor_entry_get_offset (en), ==, 768);
  assert_clean (&e);
  g_clear_pointer (&w, psc_descriptor_writer_unref);
  g_clear_pointer (&set, psc_descriptor_set_unref);
  g_clear_pointer (&pool, psc_descriptor_pool_unref);
  g_clear_pointer (&layout, psc_descriptor_layout_unref);
  g_clear_pointer (&a, psc_buffer_unref);
  g_clear_pointer (&b, psc_buffer_unref);
  g_clear_pointer (&view, psc_image_view_unref);
  g_clear_pointer (&sampler, psc_sampler_unref);
  env_finish (&e);
}

int
main (int argc, char **argv)
{
  env_test_init (&argc, &argv);
  g_test_add_func ("/descriptor-bindings/retained-writer", test_retained_writer);
  g_test_add_func ("/descriptor-bindings/pool-for-layout", test_pool_for_layout);
  g_test_add_func ("/descriptor-bindings/layout-for-recipe", test_layout_for_recipe);
  g_test_add_func ("/descriptor-bindings/cache-sampler-and-bind", test_cache_sampler_and_bind);
  g_test_add_func ("/descriptor-bindings/resource-list", test_resource_list);
  g_test_add_func ("/descriptor-bindings/same-shape-recommit", test_same_shape_recommit);
  return g_test_run ();
}
