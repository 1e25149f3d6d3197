/* test-artifacts.c: persistent layer 2, SPIR-V artifacts keyed by exact
 * source (psc_cache_register_shader_source), on lavapipe with validation,
 * with real files under a private $XDG_CACHE_HOME.
 *
 * The compile callback is a fake compiler that counts its calls and
 * "compiles" known source texts into the demo's real SPIR-V (the source
 * "palette..." into palette-comp.glsl's words, the source "shader" into
 * the panel vertex, composite fragment or palette compute shader by
 * stage). Checked: a cold start compiles and a warm one does not, and the
 * warm module runs a compute dispatch with the right result; every part of
 * the key; damaged logs (a flipped payload byte, a record without the
 * SPIR-V magic behind valid checksums, SPIR-V the core refuses, a torn
 * tail) are refused with their reason, compile instead, and are repaired
 * by the next save; a failing callback; no persistence; the bounds with
 * least-recently-used trimming across sessions (USED records included);
 * saving on request and from the pump; the owner-thread rule.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

#include "formats/artifact-record.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#define TARGET "vulkan1.3"
#define POLICY "fake-glslang 1 -O"
#define LOG_NAME "artifacts.psclog"

/* The fake compiler ------------------------------------------------------- */

typedef enum {
  COMPILE_OK,
  COMPILE_ERROR,        /* fails with a GError */
  COMPILE_NULL,         /* returns NULL without an error */
  COMPILE_GARBAGE,      /* returns bytes that are not SPIR-V */
  COMPILE_WRONG_STAGE,  /* returns the compute shader for every stage */
} CompileMode;

typedef struct {
  guint calls;
  CompileMode mode;
} Compiler;

static GBytes *
demo_spirv (PscDemoShader which)
{
  gsize size = 0;
  const guint32 *words = psc_demo_shader_spirv (which, &size);
  return g_bytes_new_static (words, size);
}

static GBytes *
fake_compile (gpointer               context,
              const char            *source,
              gsize                  source_len,
              VkShaderStageFlagBits  stage,
              const char            *target_env,
              const char            *policy,
              GError               **error)
{
  Compiler *c = context;
  g_autofree char *text = g_strndup (source, source_len);

  c->calls++;
  g_assert_nonnull (target_env);
  g_assert_nonnull (policy);
  switch (c->mode)
    {
    case COMPILE_ERROR:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:1: syntax error", text);
      return NULL;
    case COMPILE_NULL:
      return NULL;
    case COMPILE_GARBAGE:
      return g_bytes_new_static ("not SPIR-V, not at all", 20);
    case COMPILE_WRONG_STAGE:
      return demo_spirv (PSC_DEMO_SHADER_CS_PALETTE);
    case COMPILE_OK:
      break;
    }
  if (g_str_has_prefix (text, "palette"))
    {
      g_assert_cmpuint (stage, ==, VK_SHADER_STAGE_COMPUTE_BIT);
      return demo_spirv (PSC_DEMO_SHADER_CS_PALETTE);
    }
  if (g_str_equal (text, "shader"))
    switch (stage)
      {
      case VK_SHADER_STAGE_VERTEX_BIT: return demo_spirv (PSC_DEMO_SHADER_VS_PANEL);
      case VK_SHADER_STAGE_FRAGMENT_BIT: return demo_spirv (PSC_DEMO_SHADER_FS_COMPOSITE);
      case VK_SHADER_STAGE_COMPUTE_BIT: return demo_spirv (PSC_DEMO_SHADER_CS_PALETTE);
      default: break;
      }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no such source: %s", text);
  return NULL;
}

/* Helpers ----------------------------------------------------------------- */

static PscCache *
new_cache (PscTestHarness *h, const char *dir, guint save_interval)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions options = PSC_CACHE_OPTIONS_INIT;
  PscCache *cache;

  options.cache_directory = dir;
  options.workers = 1;
  options.save_interval = save_interval;
  cache = psc_cache_new_full (h->psc_device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &options,
                              &error);
  g_assert_no_error (error);
  g_assert_nonnull (cache);
  g_ptr_array_add (h->caches, cache);
  return cache;
}

static guint64
counter (PscCache *cache, PscPersistCounter c)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_persist (s, c);
}

static guint64
rejections (PscCache *cache, PscFileRejection reason)
{
  g_autoptr(PscStats) s = psc_cache_get_stats (cache);
  return psc_stats_get_file_rejections (s, reason);
}

static guint64
shader_entries (PscCache *cache)
{
  return psc_cache_get_counter (cache, PSC_OBJECT_KIND_SHADER_MODULE, PSC_COUNTER_ENTRIES);
}

/* Registers @source (asserting success) with @c. */
static VkShaderModule
reg (PscCache *cache, const char *source, VkShaderStageFlagBits stage, const char *target,
     const char *policy, Compiler *c)
{
  g_autoptr(GError) error = NULL;
  VkShaderModule m = psc_cache_register_shader_source (cache, source, -1, stage, target, policy,
                                                       fake_compile, c, &error);
  g_assert_no_error (error);
  g_assert_true (m != VK_NULL_HANDLE);
  return m;
}

static VkShaderModule
reg_palette (PscCache *cache, const char *source, Compiler *c)
{
  return reg (cache, source, VK_SHADER_STAGE_COMPUTE_BIT, TARGET, POLICY, c);
}

static char *
new_dir (const char *name)
{
  char *dir = g_build_filename (g_get_user_cache_dir (), name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

static char *
log_path (const char *dir)
{
  return g_build_filename (dir, LOG_NAME, NULL);
}

/* Counts the records of @dir's log (all valid: none skipped, no tail). */
static guint
count_log_records (const char *dir, guint *spirv, guint *used)
{
  g_autofree char *path = log_path (dir);
  g_autofree char *contents = NULL;
  gsize len = 0;
  PscLogReader r;
  PscLogRecord rec;

  *spirv = *used = 0;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpint (psc_log_reader_init (&r, (const guint8 *) contents, len,
                                        PSC_LOG_KIND_ARTIFACTS, 0), ==, PSC_FILE_OK);
  for (;;)
    {
      PscLogNext n = psc_log_reader_next (&r, &rec, NULL);
      if (n == PSC_LOG_NEXT_END)
        break;
      g_assert_cmpint (n, ==, PSC_LOG_NEXT_RECORD);
      if (rec.type == PSC_ARTIFACT_RECORD_SPIRV)
        ++*spirv;
      else
        {
          g_assert_cmpuint (rec.type, ==, PSC_ARTIFACT_RECORD_USED);
          ++*used;
        }
    }
  return *spirv + *used;
}

typedef enum {
  DAMAGE_FLIP_PAYLOAD,      /* a byte of the code flipped, checks untouched */
  DAMAGE_NO_MAGIC,          /* the code's first word zeroed, checks recomputed */
  DAMAGE_CORE_REFUSES,      /* the SPIR-V id bound zeroed, checks recomputed */
  DAMAGE_TORN_TAIL,         /* the log cut inside its last record */
} Damage;

/* Damages the first record of @dir's log (or, for a torn tail, the last). */
static void
damage_log (const char *dir, Damage how)
{
  g_autofree char *path = log_path (dir);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  PscLogReader r;
  PscLogRecord rec;
  guint8 *data;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  data = (guint8 *) contents;
  if (how == DAMAGE_TORN_TAIL)
    {
      g_assert_true (g_file_set_contents (path, contents, (gssize) len - 12, &error));
      g_assert_no_error (error);
      return;
    }
  g_assert_cmpint (psc_log_reader_init (&r, data, len, PSC_LOG_KIND_ARTIFACTS, 0), ==, PSC_FILE_OK);
  g_assert_cmpint (psc_log_reader_next (&r, &rec, NULL), ==, PSC_LOG_NEXT_RECORD);
  g_assert_cmpuint (rec.type, ==, PSC_ARTIFACT_RECORD_SPIRV);
  {
    g_autofree guint8 *payload = g_memdup2 (rec.payload, rec.len);
    const gsize at = rec.offset;
    PscArtifactRecord art;

    g_assert_cmpint (psc_artifact_record_parse (payload, rec.len, &art), ==, PSC_FILE_OK);
    switch (how)
      {
      case DAMAGE_FLIP_PAYLOAD:
        data[at + PSC_LOG_RECORD_HEADER_SIZE + PSC_ARTIFACT_HEADER_SIZE + 100] ^= 0x10;
        break;
      case DAMAGE_NO_MAGIC:
        memset (payload + PSC_ARTIFACT_HEADER_SIZE, 0, 4);
        g_assert_cmpuint (psc_log_write_record (data + at, rec.type, payload, rec.len), >, 0);
        break;
      case DAMAGE_CORE_REFUSES:
        /* Word 3 of the SPIR-V header, the id bound: 0 is invalid. */
        memset (payload + PSC_ARTIFACT_HEADER_SIZE + 12, 0, 4);
        g_assert_cmpint (psc_artifact_record_parse (payload, rec.len, &art), ==, PSC_FILE_OK);
        g_assert_cmpuint (psc_log_write_record (data + at, rec.type, payload, rec.len), >, 0);
        break;
      case DAMAGE_TORN_TAIL:
        g_assert_not_reached ();
      }
  }
  g_assert_true (g_file_set_contents (path, contents, (gssize) len, &error));
  g_assert_no_error (error);
}

/* Runs @module (the palette compute shader) in a compute pipeline of
 * @cache: one group of 8 invocations, seed 0, saturation 0.5; checks the
 * first palette entry, (1, 0.5, 0.5, 1). */
static void
run_palette (PscTestHarness *h, PscCache *cache, VkShaderModule module)
{
  g_autoptr(GError) error = NULL;
  PscTestObjects o;
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry entry;
  float value;
  VkPipeline pipeline;
  const VkDeviceSize size = 256;
  VkBuffer buffer;
  VkDeviceMemory memory;
  VkMemoryRequirements req;
  VkPhysicalDeviceMemoryProperties props;
  VkDescriptorPool pool;
  VkDescriptorSet set;
  VkCommandBuffer cb;
  guint32 type = G_MAXUINT32, seed = 0;
  float *mapped;

  psc_test_objects_init (&o, cache);
  /* The artifact's code is the palette shader's, byte for byte: the core
   * gives the same module for the same content. */
  g_assert_true (o.cs == module);
  psc_test_compute_info_init (&ci, &spec, &entry, &value, &o);
  ci.stage.module = module;
  pipeline = psc_cache_get_compute_pipeline (cache, &ci, &error);
  g_assert_no_error (error);
  g_assert_true (pipeline != VK_NULL_HANDLE);

  {
    VkBufferCreateInfo bi = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
    };
    g_assert_cmpint (vkCreateBuffer (h->device, &bi, NULL, &buffer), ==, VK_SUCCESS);
  }
  vkGetBufferMemoryRequirements (h->device, buffer, &req);
  vkGetPhysicalDeviceMemoryProperties (h->physical_device, &props);
  for (guint32 i = 0; i < props.memoryTypeCount && type == G_MAXUINT32; i++)
    if ((req.memoryTypeBits & (1u << i)) &&
        (props.memoryTypes[i].propertyFlags &
         (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
          (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
      type = i;
  g_assert_cmpuint (type, !=, G_MAXUINT32);
  {
    VkMemoryAllocateInfo ai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
    };
    g_assert_cmpint (vkAllocateMemory (h->device, &ai, NULL, &memory), ==, VK_SUCCESS);
  }
  g_assert_cmpint (vkBindBufferMemory (h->device, buffer, memory, 0), ==, VK_SUCCESS);
  g_assert_cmpint (vkMapMemory (h->device, memory, 0, size, 0, (void **) &mapped), ==, VK_SUCCESS);
  memset (mapped, 0, size);
  {
    VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    VkDescriptorPoolCreateInfo pi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = 1,
      .pPoolSizes = &ps,
    };
    VkDescriptorSetAllocateInfo si = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorSetCount = 1,
      .pSetLayouts = &o.compute_set_layout,
    };
    VkDescriptorBufferInfo dbi = { buffer, 0, size };
    VkWriteDescriptorSet w = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &dbi,
    };
    g_assert_cmpint (vkCreateDescriptorPool (h->device, &pi, NULL, &pool), ==, VK_SUCCESS);
    si.descriptorPool = pool;
    g_assert_cmpint (vkAllocateDescriptorSets (h->device, &si, &set), ==, VK_SUCCESS);
    w.dstSet = set;
    vkUpdateDescriptorSets (h->device, 1, &w, 0, NULL);
  }
  cb = psc_test_harness_begin_commands (h);
  vkCmdBindPipeline (cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets (cb, VK_PIPELINE_BIND_POINT_COMPUTE, o.compute_layout, 0, 1, &set, 0, NULL);
  vkCmdPushConstants (cb, o.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &seed);
  vkCmdDispatch (cb, 1, 1, 1);
  {
    VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier (cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                          1, &barrier, 0, NULL, 0, NULL);
  }
  psc_test_harness_submit_and_wait (h, cb);
  /* palette[0] after light_dir[4] and light_color[4] (std430: 128 bytes). */
  g_assert_cmpfloat_with_epsilon (mapped[32 + 0], 1.0f, 1e-5);
  g_assert_cmpfloat_with_epsilon (mapped[32 + 1], 0.5f, 1e-5);
  g_assert_cmpfloat_with_epsilon (mapped[32 + 2], 0.5f, 1e-5);
  g_assert_cmpfloat_with_epsilon (mapped[32 + 3], 1.0f, 1e-5);
  vkUnmapMemory (h->device, memory);
  vkDestroyDescriptorPool (h->device, pool, NULL);
  vkDestroyBuffer (h->device, buffer, NULL);
  vkFreeMemory (h->device, memory, NULL);
  psc_test_harness_assert_clean (h);
}

/* Tests ------------------------------------------------------------------- */

static void
test_warm (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("warm");
  g_autofree char *path = log_path (dir);
  Compiler cold = { 0 }, warm = { 0 };
  PscCache *cache = new_cache (h, dir, 0);
  VkShaderModule m, again;

  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, 0);
  m = reg_palette (cache, "palette", &cold);
  g_assert_cmpuint (cold.calls, ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 0);
  /* Again in the same cache: the stored artifact, no compile; the same
   * module (one more registration of it). */
  again = reg_palette (cache, "palette", &cold);
  g_assert_true (again == m);
  g_assert_cmpuint (cold.calls, ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 1);
  g_assert_cmpuint (shader_entries (cache), ==, 1);
  g_assert_true (psc_cache_release_shader (cache, m, NULL));
  g_assert_true (psc_cache_release_shader (cache, again, NULL));
  /* Written at close. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  psc_test_harness_drop_cache (h, cache);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  m = reg_palette (cache, "palette", &warm);
  g_assert_cmpuint (warm.calls, ==, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, 0);
  run_palette (h, cache, m);
  {
    g_autoptr(PscStats) s = psc_cache_get_stats (cache);
    g_autoptr(GVariant) v = psc_stats_to_variant (s);
    guint64 n = 0;
    g_assert_true (g_variant_lookup (v, "persistence.artifact-hits", "t", &n));
    g_assert_cmpuint (n, ==, 1);
    g_assert_true (g_variant_lookup (v, "persistence.artifacts-loaded", "t", &n));
    g_assert_cmpuint (n, ==, 1);
  }
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

static void
test_key (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("key");
  Compiler c = { 0 }, warm = { 0 };
  PscCache *cache = new_cache (h, dir, 0);
  const struct {
    const char *source;
    VkShaderStageFlagBits stage;
    const char *target, *policy;
  } keys[] = {
    { "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, POLICY },
    { "shader", VK_SHADER_STAGE_FRAGMENT_BIT, TARGET, POLICY },     /* stage */
    { "shader", VK_SHADER_STAGE_COMPUTE_BIT, TARGET, POLICY },
    { "shader", VK_SHADER_STAGE_VERTEX_BIT, "vulkan1.2", POLICY },  /* target */
    { "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, "other" },      /* policy */
    { "shader", VK_SHADER_STAGE_VERTEX_BIT, NULL, NULL },           /* none */
    { "palette", VK_SHADER_STAGE_COMPUTE_BIT, TARGET, POLICY },     /* source */
    { "palette ", VK_SHADER_STAGE_COMPUTE_BIT, TARGET, POLICY },
    /* Length prefixes: the same bytes split differently. */
    { "palette", VK_SHADER_STAGE_COMPUTE_BIT, "ab", "c" },
    { "palette", VK_SHADER_STAGE_COMPUTE_BIT, "a", "bc" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      reg (cache, keys[i].source, keys[i].stage, keys[i].target, keys[i].policy, &c);
      g_assert_cmpuint (c.calls, ==, i + 1);
    }
  /* NULL is "": no new key. */
  reg (cache, "shader", VK_SHADER_STAGE_VERTEX_BIT, "", "", &c);
  g_assert_cmpuint (c.calls, ==, G_N_ELEMENTS (keys));
  /* Each again: served. */
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    reg (cache, keys[i].source, keys[i].stage, keys[i].target, keys[i].policy, &c);
  g_assert_cmpuint (c.calls, ==, G_N_ELEMENTS (keys));
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, G_N_ELEMENTS (keys));
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, G_N_ELEMENTS (keys) + 1);
  /* Three distinct modules (vertex, fragment, compute code). */
  g_assert_cmpuint (shader_entries (cache), ==, 3);

  /* A compiler that returns code of another stage: registered (the core
   * takes it), but not kept, so it compiles every time. */
  c.mode = COMPILE_WRONG_STAGE;
  reg (cache, "lying", VK_SHADER_STAGE_FRAGMENT_BIT, TARGET, POLICY, &c);
  reg (cache, "lying", VK_SHADER_STAGE_FRAGMENT_BIT, TARGET, POLICY, &c);
  g_assert_cmpuint (c.calls, ==, G_N_ELEMENTS (keys) + 2);
  psc_test_harness_drop_cache (h, cache);

  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    reg (cache, keys[i].source, keys[i].stage, keys[i].target, keys[i].policy, &warm);
  g_assert_cmpuint (warm.calls, ==, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, G_N_ELEMENTS (keys));
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

static void
check_damage (PscTestHarness *h, const char *name, Damage how, PscFileRejection reason)
{
  g_autofree char *dir = new_dir (name);
  Compiler c = { 0 };
  PscCache *cache = new_cache (h, dir, 0);
  guint spirv = 0, used = 0;

  /* Two artifacts: the damaged first one, and a second that stays good
   * (a torn tail damages the last one: that is "palette" then). */
  if (how == DAMAGE_TORN_TAIL)
    {
      reg (cache, "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, POLICY, &c);
      reg_palette (cache, "palette", &c);
    }
  else
    {
      reg_palette (cache, "palette", &c);
      reg (cache, "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, POLICY, &c);
    }
  psc_test_harness_drop_cache (h, cache);
  damage_log (dir, how);

  c.calls = 0;
  cache = new_cache (h, dir, 0);
  /* The core's refusal comes only when the artifact is used. */
  g_assert_cmpuint (rejections (cache, reason), ==, how == DAMAGE_CORE_REFUSES ? 0 : 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==,
                    how == DAMAGE_CORE_REFUSES ? 2 : 1);
  /* The good one is served; the damaged one compiles normally. */
  reg (cache, "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, POLICY, &c);
  g_assert_cmpuint (c.calls, ==, 0);
  run_palette (h, cache, reg_palette (cache, "palette", &c));
  g_assert_cmpuint (c.calls, ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, 1);
  g_assert_cmpuint (rejections (cache, reason), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 1);
  psc_test_harness_drop_cache (h, cache);

  /* The save repaired the log: two good artifacts, nothing refused. */
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, 2);
  c.calls = 0;
  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_REJECTED_TOTAL), ==, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, 2);
  reg_palette (cache, "palette", &c);
  g_assert_cmpuint (c.calls, ==, 0);
  psc_test_harness_drop_cache (h, cache);
}

static void
test_damaged (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);

  check_damage (h, "damaged-flip", DAMAGE_FLIP_PAYLOAD, PSC_FILE_REJECTION_BAD_RECORD);
  check_damage (h, "damaged-magic", DAMAGE_NO_MAGIC, PSC_FILE_REJECTION_BAD_MAGIC);
  check_damage (h, "damaged-core", DAMAGE_CORE_REFUSES, PSC_FILE_REJECTION_BAD_RECORD);
  check_damage (h, "damaged-torn", DAMAGE_TORN_TAIL, PSC_FILE_REJECTION_TORN_TAIL);

  /* A log of another kind, or not a log at all: refused whole, compiled,
   * replaced by the next save. */
  {
    g_autofree char *dir = new_dir ("damaged-file");
    g_autofree char *path = log_path (dir);
    Compiler c = { 0 };
    PscCache *cache;
    guint spirv, used;

    g_assert_true (g_file_set_contents (path, "PSCLOG\r\nthis is not a log at all....", -1, NULL));
    cache = new_cache (h, dir, 0);
    g_assert_cmpuint (rejections (cache, PSC_FILE_REJECTION_FORMAT_VERSION), ==, 1);
    reg_palette (cache, "palette", &c);
    g_assert_cmpuint (c.calls, ==, 1);
    psc_test_harness_drop_cache (h, cache);
    count_log_records (dir, &spirv, &used);
    g_assert_cmpuint (spirv, ==, 1);
  }
  psc_test_harness_finish (h);
}

static void
test_compile_fails (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("fails");
  Compiler c = { 0, COMPILE_ERROR };
  PscCache *cache = new_cache (h, dir, 0);
  VkShaderModule m;

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(GError) error = NULL;
      m = psc_cache_register_shader_source (cache, "palette", -1, VK_SHADER_STAGE_COMPUTE_BIT,
                                            TARGET, POLICY, fake_compile, &c, &error);
      g_assert_true (m == VK_NULL_HANDLE);
      /* The callback's own error, as it is. */
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_cmpstr (error->message, ==, "palette:1: syntax error");
      /* Nothing registered, nothing kept: the next call compiles again. */
      g_assert_cmpuint (c.calls, ==, round + 1);
      g_assert_cmpuint (shader_entries (cache), ==, 0);
    }
  {
    g_autoptr(GError) error = NULL;
    c.mode = COMPILE_NULL;
    m = psc_cache_register_shader_source (cache, "palette", -1, VK_SHADER_STAGE_COMPUTE_BIT,
                                          TARGET, POLICY, fake_compile, &c, &error);
    g_assert_true (m == VK_NULL_HANDLE);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_FAILED);
  }
  {
    /* Bytes that are not SPIR-V: the core's refusal. */
    g_autoptr(GError) error = NULL;
    c.mode = COMPILE_GARBAGE;
    m = psc_cache_register_shader_source (cache, "palette", -1, VK_SHADER_STAGE_COMPUTE_BIT,
                                          TARGET, POLICY, fake_compile, &c, &error);
    g_assert_true (m == VK_NULL_HANDLE);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_INVALID_ARGUMENT);
    g_test_message ("%s", error->message);
    g_assert_cmpuint (shader_entries (cache), ==, 0);
  }
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, 4);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 0);
  /* The cache goes on: a good compile works. */
  c.mode = COMPILE_OK;
  reg_palette (cache, "palette", &c);
  g_assert_cmpuint (c.calls, ==, 5);
  psc_test_harness_drop_cache (h, cache);
  {
    guint spirv, used;
    count_log_records (dir, &spirv, &used);
    g_assert_cmpuint (spirv, ==, 1);
  }
  psc_test_harness_finish (h);
}

static void
test_memory_only (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "psocache", NULL);
  Compiler c = { 0 };
  PscCache *cache = new_cache (h, NULL, 0);
  g_autoptr(GError) error = NULL;

  reg_palette (cache, "palette", &c);
  reg_palette (cache, "palette", &c);
  reg (cache, "shader", VK_SHADER_STAGE_VERTEX_BIT, TARGET, POLICY, &c);
  g_assert_cmpuint (c.calls, ==, 2);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_MISSES), ==, 2);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACT_HITS), ==, 1);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, 0);
  g_assert_false (psc_cache_save (cache, &error));
  g_assert_error (error, PSC_ERROR, PSC_ERROR_UNSUPPORTED);
  psc_test_harness_drop_cache (h, cache);
  /* A new cache compiles again: nothing was kept anywhere. */
  cache = new_cache (h, NULL, 0);
  reg_palette (cache, "palette", &c);
  g_assert_cmpuint (c.calls, ==, 3);
  psc_test_harness_drop_cache (h, cache);
  g_assert_false (g_file_test (root, G_FILE_TEST_EXISTS));
  psc_test_harness_finish (h);
}

/* "palette#<i>" for i in [from, to), each expected to compile or not. */
static void
reg_range (PscCache *cache, guint from, guint to, Compiler *c, gboolean compiles)
{
  const guint before = c->calls;

  for (guint i = from; i < to; i++)
    {
      g_autofree char *source = g_strdup_printf ("palette#%u", i);
      reg_palette (cache, source, c);
    }
  g_assert_cmpuint (c->calls - before, ==, compiles ? to - from : 0);
}

static void
expect (PscCache *cache, guint i, gboolean compiles)
{
  Compiler c = { 0 };
  reg_range (cache, i, i + 1, &c, compiles);
}

static void
test_bounds (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("bounds");
  const guint max = PSC_ARTIFACT_MAX_RECORDS, keep = max - max / 4, over = max + 100;
  Compiler c = { 0 };
  PscCache *cache;
  guint spirv, used;

  /* Session 1: more artifacts than the bound; #0 used again last. */
  cache = new_cache (h, dir, 0);
  reg_range (cache, 0, over, &c, TRUE);
  reg_range (cache, 0, 1, &c, FALSE);
  psc_test_harness_drop_cache (h, cache);
  /* Compaction kept the most recently used three quarters of the bound:
   * #0, and the newest keep - 1. */
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, keep);
  g_assert_cmpuint (used, ==, 0);

  /* Session 2: #(over - keep + 1) used: a USED record is appended. */
  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, keep);
  expect (cache, over - keep + 1, FALSE);
  psc_test_harness_drop_cache (h, cache);
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, keep);
  g_assert_cmpuint (used, ==, 1);

  /* Session 3: max - keep + 1 new ones: over the bound again. The oldest
   * go: the session-1 ones other than #0 and the one used in session 2. */
  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, keep);
  c.calls = 0;
  reg_range (cache, over, over + (max - keep + 1), &c, TRUE);
  psc_test_harness_drop_cache (h, cache);
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, keep);
  g_assert_cmpuint (used, ==, 0);

  /* Session 4: what is left. */
  cache = new_cache (h, dir, 0);
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED), ==, keep);
  {
    /* Session 1 kept [over - keep + 1, over) and #0; session 3 dropped the
     * oldest max - keep + 1 of them (not #0, not the one used). */
    const guint first_kept_1 = over - keep + 1;
    const guint dropped = max - keep + 1;
    const guint first_kept_3 = first_kept_1 + 1 + dropped;   /* + the used one */

    expect (cache, 0, FALSE);
    expect (cache, first_kept_1, FALSE);         /* used in session 2 */
    expect (cache, first_kept_1 + 1, TRUE);      /* the oldest: dropped */
    expect (cache, first_kept_3 - 1, TRUE);      /* the newest dropped */
    expect (cache, first_kept_3, FALSE);
    expect (cache, over - 1, FALSE);
    expect (cache, over, FALSE);                 /* session 3's */
    expect (cache, first_kept_1 - 1, TRUE);      /* trimmed in session 1 */
    expect (cache, 1, TRUE);
  }
  psc_test_harness_drop_cache (h, cache);
  psc_test_harness_finish (h);
}

static void
test_save (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  g_autofree char *dir = new_dir ("save");
  g_autofree char *path = log_path (dir);
  g_autoptr(GError) error = NULL;
  Compiler c = { 0 };
  PscCache *cache = new_cache (h, dir, 0);
  guint spirv, used;
  guint64 saves;

  reg_palette (cache, "palette", &c);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  saves = counter (cache, PSC_PERSIST_COUNTER_SAVES);
  g_assert_true (psc_cache_save (cache, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (counter (cache, PSC_PERSIST_COUNTER_SAVES), >, saves);
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, 1);
  /* A hit in the same session after the save: one USED record. */
  reg_palette (cache, "palette", &c);
  g_assert_true (psc_cache_save (cache, &error));
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv, ==, 1);
  g_assert_cmpuint (used, ==, 1);
  /* Nothing changed: nothing appended. */
  g_assert_true (psc_cache_save (cache, &error));
  psc_test_harness_drop_cache (h, cache);
  count_log_records (dir, &spirv, &used);
  g_assert_cmpuint (spirv + used, ==, 2);

  /* From the pump, once the save interval passed. */
  {
    g_autofree char *dir2 = new_dir ("save-pump");
    g_autofree char *path2 = log_path (dir2);

    cache = new_cache (h, dir2, 1);
    reg_palette (cache, "palette", &c);
    psc_cache_begin_frame (cache, 1, 0);
    g_assert_false (g_file_test (path2, G_FILE_TEST_EXISTS));
    g_usleep (1100 * 1000);
    psc_cache_begin_frame (cache, 2, 0);
    g_assert_true (g_file_test (path2, G_FILE_TEST_IS_REGULAR));
    psc_test_harness_drop_cache (h, cache);
  }
  psc_test_harness_finish (h);
}

typedef struct {
  PscCache *cache;
  Compiler *c;
  GError *error;
  VkShaderModule module;
} ForeignCall;

static gpointer
foreign_register (gpointer data)
{
  ForeignCall *f = data;
  f->module = psc_cache_register_shader_source (f->cache, "palette", -1,
                                                VK_SHADER_STAGE_COMPUTE_BIT, TARGET, POLICY,
                                                fake_compile, f->c, &f->error);
  return NULL;
}

static void
test_threads_and_arguments (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  Compiler c = { 0 };
  PscCache *cache = new_cache (h, NULL, 0);
  ForeignCall f = { cache, &c, NULL, VK_NULL_HANDLE };
  GThread *t;

  /* Rule (a): another thread gets PSC_ERROR_WRONG_THREAD, counted, and
   * the compiler is not called. */
  t = g_thread_new ("foreign", foreign_register, &f);
  g_thread_join (t);
  g_assert_error (f.error, PSC_ERROR, PSC_ERROR_WRONG_THREAD);
  g_clear_error (&f.error);
  g_assert_true (f.module == VK_NULL_HANDLE);
  g_assert_cmpuint (c.calls, ==, 0);
  {
    g_autoptr(PscStats) s = psc_cache_get_stats (cache);
    g_assert_cmpuint (psc_stats_get_rejected (s, PSC_ERROR_WRONG_THREAD), ==, 1);
  }

  /* Programming errors: criticals, nothing called. */
  if (g_test_undefined ())
    {
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*source*");
      g_assert_true (psc_cache_register_shader_source (cache, NULL, -1, VK_SHADER_STAGE_COMPUTE_BIT,
                                                       NULL, NULL, fake_compile, &c, NULL)
                     == VK_NULL_HANDLE);
      g_test_assert_expected_messages ();
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*stage*");
      g_assert_true (psc_cache_register_shader_source (cache, "palette", -1,
                                                       VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT,
                                                       NULL, NULL, fake_compile, &c, NULL)
                     == VK_NULL_HANDLE);
      g_test_assert_expected_messages ();
      g_test_expect_message ("Psc", G_LOG_LEVEL_CRITICAL, "*compile*");
      g_assert_true (psc_cache_register_shader_source (cache, "palette", -1,
                                                       VK_SHADER_STAGE_COMPUTE_BIT, NULL, NULL,
                                                       NULL, &c, NULL) == VK_NULL_HANDLE);
      g_test_assert_expected_messages ();
      g_assert_cmpuint (c.calls, ==, 0);
    }

  /* A closed cache: PSC_ERROR_CLOSED, no compile. */
  psc_cache_close (cache, 0);
  {
    g_autoptr(GError) error = NULL;
    g_assert_true (psc_cache_register_shader_source (cache, "palette", -1,
                                                     VK_SHADER_STAGE_COMPUTE_BIT, NULL, NULL,
                                                     fake_compile, &c, &error) == VK_NULL_HANDLE);
    g_assert_error (error, PSC_ERROR, PSC_ERROR_CLOSED);
    g_assert_cmpuint (c.calls, ==, 0);
  }
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  /* One private $XDG_CACHE_HOME for the whole run (see test-persist.c). */
  g_autofree char *root = g_dir_make_tmp ("psc-artifacts-XXXXXX", NULL);
  g_autofree char *cache_home = g_build_filename (root, "cache", NULL);
  int status;

  g_assert_nonnull (root);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_unsetenv ("PSOCACHE_DIR");
  g_unsetenv ("PSOCACHE_DISABLE");
  g_unsetenv ("PSOCACHE_MAX_SIZE");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/artifacts/warm", test_warm);
  g_test_add_func ("/artifacts/key", test_key);
  g_test_add_func ("/artifacts/damaged", test_damaged);
  g_test_add_func ("/artifacts/compile-fails", test_compile_fails);
  g_test_add_func ("/artifacts/memory-only", test_memory_only);
  g_test_add_func ("/artifacts/bounds", test_bounds);
  g_test_add_func ("/artifacts/save", test_save);
  g_test_add_func ("/artifacts/threads-and-arguments", test_threads_and_arguments);
  status = g_test_run ();
  {
    const char *argv_rm[] = { "rm", "-rf", root, NULL };
    g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
  return status;
}
