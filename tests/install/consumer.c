/* consumer.c: a program outside the tree, built against libpsocache-1 as an
 * application would: by the install test with nothing but `pkg-config
 * --cflags --libs psocache-1`, by the subproject test through meson.
 *
 * usage: consumer LIBDIR SHADER.spv  (LIBDIR: where the library under test
 * must be loaded from: the DESTDIR install, or a subproject build)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <psocache/psocache.h>

#if !PSC_CHECK_VERSION (0, 1, 0)
#error "PSC_CHECK_VERSION (0, 1, 0) must hold for this release"
#endif
#if PSC_CHECK_VERSION (PSC_MAJOR_VERSION + 1, 0, 0)
#error "PSC_CHECK_VERSION accepts a newer major version"
#endif
#if PSC_CHECK_VERSION (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION + 1)
#error "PSC_CHECK_VERSION accepts a newer micro version"
#endif

#define CHECK(cond) \
  do { \
    if (!(cond)) \
      { \
        fprintf (stderr, "consumer: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        return 1; \
      } \
  } while (0)

#define CHECK_NO_ERROR(error) \
  do { \
    if ((error) != NULL) \
      { \
        fprintf (stderr, "consumer: %s:%d: %s\n", __FILE__, __LINE__, (error)->message); \
        return 1; \
      } \
  } while (0)

/* Under LeakSanitizer (sanitizer builds): the loader unloads lavapipe and
 * LLVM at vkDestroyInstance, after which their one-time initialisation shows
 * up as leaks that no driver-only suppression can match. Keep it resident. */
static void
keep_driver_resident (void)
{
#if defined(__SANITIZE_ADDRESS__)
  const char *icd = g_getenv ("VK_DRIVER_FILES");

  if (icd != NULL && strstr (icd, "lvp_icd") != NULL)
    (void) dlopen ("libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = NULL;
  g_autoptr(PscCache) cache = NULL;
  g_autofree char *spirv = NULL;
  gsize spirv_size = 0;
  Dl_info dli;
  VkShaderModule module;
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkPipeline first, second;

  CHECK (argc == 3);
  keep_driver_resident ();

  /* Run-time version: the library loaded is the one the headers describe. */
  CHECK (psc_check_version (PSC_MAJOR_VERSION, PSC_MINOR_VERSION, PSC_MICRO_VERSION));
  CHECK (!psc_check_version (PSC_MAJOR_VERSION + 1, 0, 0));
  CHECK (psc_get_major_version () == PSC_MAJOR_VERSION);
  CHECK (psc_get_minor_version () == PSC_MINOR_VERSION);
  CHECK (psc_get_micro_version () == PSC_MICRO_VERSION);

  /* ...and it is the copy under test (installed, or the subproject's), not
   * another one found first. */
  CHECK (dladdr ((void *) psc_cache_new, &dli) != 0 && dli.dli_fname != NULL);
  if (strncmp (dli.dli_fname, argv[1], strlen (argv[1])) != 0)
    {
      fprintf (stderr, "consumer: libpsocache loaded from %s, not from %s\n",
               dli.dli_fname, argv[1]);
      return 1;
    }

  CHECK (g_file_get_contents (argv[2], &spirv, &spirv_size, NULL));

  device = psc_device_new_headless (PSC_DEVICE_FLAGS_VALIDATION, &error);
  CHECK_NO_ERROR (error);
  printf ("# device: %s\n", psc_device_get_name (device));

  cache = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  CHECK_NO_ERROR (error);
  psc_cache_begin_frame (cache, 1, 0);

  /* g_file_get_contents' buffer comes from malloc, so it is word-aligned. */
  module = psc_cache_register_shader (cache, (const guint32 *) spirv, spirv_size, &error);
  CHECK_NO_ERROR (error);
  CHECK (module != VK_NULL_HANDLE);

  {
    VkDescriptorSetLayoutBinding binding = {
      .binding = 0,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
    VkDescriptorSetLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 1,
      .pBindings = &binding,
    };
    set_layout = psc_cache_get_descriptor_set_layout (cache, &info, &error);
    CHECK_NO_ERROR (error);
  }
  {
    VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .offset = 0,
      .size = 4,
    };
    VkPipelineLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
    };
    layout = psc_cache_get_pipeline_layout (cache, &info, &error);
    CHECK_NO_ERROR (error);
  }
  {
    VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_COMPUTE_BIT,
        .module = module,
        .pName = "main",
      },
      .layout = layout,
      .basePipelineIndex = -1,
    };
    first = psc_cache_get_compute_pipeline (cache, &info, &error);
    CHECK_NO_ERROR (error);
    second = psc_cache_get_compute_pipeline (cache, &info, &error);
    CHECK_NO_ERROR (error);
  }

  CHECK (first != VK_NULL_HANDLE);
  CHECK (first == second);
  CHECK (psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_CREATIONS) == 1);
  CHECK (psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_HITS) == 1);
  CHECK (psc_cache_get_counter (cache, PSC_OBJECT_KIND_COMPUTE_PIPELINE, PSC_COUNTER_ENTRIES) == 1);

  g_clear_object (&cache);
  CHECK (psc_device_get_validation_error_count (device) == 0);
  printf ("# ok: compute pipeline from libpsocache-1 %s in %s\n", PSC_VERSION_S, argv[1]);
  return 0;
}
