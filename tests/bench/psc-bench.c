/* psc-bench: libpsocache benchmarks; each prints one JSON line.
 *
 *   psc-bench hit [--pipelines N] [--batches B]
 *
 * hit: H = median ns per graphics-pipeline hit through the public API
 * (canonicalize, hash, find, compare in full) over N distinct realistic
 * create infos visited in shuffled order, each rebuilt in one reused buffer
 * before its call (the rebuild is timed separately and subtracted); P = the
 * same through prepared keys; F = median ns to XXH3-hash a fixed 1 KiB buffer
 * (same function and flags as the library) plus a memcmp of it, measured in
 * the same run; A = heap allocations per hit (malloc is interposed); K =
 * median canonical key bytes per graphics key.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.vert.h"
#include "bench.frag.h"

/* ---- allocation counting (interposes glibc's malloc family) ---- */
extern void *__libc_malloc (size_t);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);
extern void *__libc_memalign (size_t, size_t);
static atomic_ulong alloc_count;

void *malloc (size_t n) { atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed); return __libc_malloc (n); }
void *calloc (size_t a, size_t b) { atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed); return __libc_calloc (a, b); }
void *realloc (void *p, size_t n) { atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed); return __libc_realloc (p, n); }
void *memalign (size_t a, size_t n) { atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed); return __libc_memalign (a, n); }
int posix_memalign (void **out, size_t a, size_t n)
{
  atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed);
  *out = __libc_memalign (a, n);
  return *out ? 0 : 12;
}
void *aligned_alloc (size_t a, size_t n) { atomic_fetch_add_explicit (&alloc_count, 1, memory_order_relaxed); return __libc_memalign (a, n); }

static inline uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static inline void
opaque (const void *p)
{
  __asm__ volatile ("" : : "r" (p) : "memory");
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, size_t n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* xorshift64*: deterministic shuffles. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t
rng (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static void
shuffle (uint32_t *v, uint32_t n)
{
  for (uint32_t i = n - 1; i > 0; i--)
    {
      uint32_t j = rng () % (i + 1);
      uint32_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
}

/* ---- one reused buffer holding a whole graphics create info ---- */
typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineShaderStageCreateInfo stages[2];
  VkSpecializationInfo spec[2];
  VkSpecializationMapEntry entries[4];
  uint8_t spec_data[2][16];
  VkVertexInputBindingDescription binding;
  VkVertexInputAttributeDescription attrs[4];
  VkPipelineVertexInputStateCreateInfo vi;
  VkPipelineInputAssemblyStateCreateInfo ia;
  VkPipelineViewportStateCreateInfo vp;
  VkPipelineRasterizationStateCreateInfo rs;
  VkPipelineMultisampleStateCreateInfo ms;
  VkPipelineDepthStencilStateCreateInfo ds;
  VkPipelineColorBlendAttachmentState blend[4];
  VkPipelineColorBlendStateCreateInfo cb;
  VkDynamicState dyn_states[2];
  VkPipelineDynamicStateCreateInfo dyn;
  VkFormat formats[4];
  VkPipelineRenderingCreateInfo rendering;
} BenchInfo;

typedef struct {
  VkShaderModule vert, frag;
  VkPipelineLayout layout;
} BenchObjects;

static const VkFormat color_formats[2][4] = {
  { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16_SFLOAT },
  { VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT },
};

/* Variant i: 1-4 colour attachments, two format sets, blending on/off, and
 * specialization values that make every i distinct. The map entries are
 * written in a different order and at different offsets than the constant
 * ids suggest, as a real engine's reflection might. */
static void
fill (BenchInfo *b, uint32_t i, const BenchObjects *o)
{
  uint32_t colors = 1 + (i % 4);
  uint32_t fmt = (i / 4) % 2;
  VkBool32 blend = (i / 8) % 2;
  int32_t variant = (int32_t) (i / 16);
  float scale = 1.0f + (float) (i % 3);
  int32_t mode = (int32_t) (i % 5);
  VkBool32 tint = (i / 5) % 2;

  memcpy (b->spec_data[0], &scale, 4);
  memcpy (b->spec_data[0] + 4, &variant, 4);
  memcpy (b->spec_data[1], &tint, 4);
  memcpy (b->spec_data[1] + 8, &mode, 4);
  b->entries[0] = (VkSpecializationMapEntry) { 1, 0, 4 };
  b->entries[1] = (VkSpecializationMapEntry) { 0, 4, 4 };
  b->entries[2] = (VkSpecializationMapEntry) { 2, 0, 4 };
  b->entries[3] = (VkSpecializationMapEntry) { 0, 8, 4 };
  b->spec[0] = (VkSpecializationInfo) { 2, &b->entries[0], 8, b->spec_data[0] };
  b->spec[1] = (VkSpecializationInfo) { 2, &b->entries[2], 12, b->spec_data[1] };
  b->stages[0] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = o->vert, .pName = "main",
    .pSpecializationInfo = &b->spec[0] };
  b->stages[1] = (VkPipelineShaderStageCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
    .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = o->frag, .pName = "main",
    .pSpecializationInfo = &b->spec[1] };

  b->binding = (VkVertexInputBindingDescription) { 0, 48, VK_VERTEX_INPUT_RATE_VERTEX };
  b->attrs[0] = (VkVertexInputAttributeDescription) { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
  b->attrs[1] = (VkVertexInputAttributeDescription) { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12 };
  b->attrs[2] = (VkVertexInputAttributeDescription) { 2, 0, VK_FORMAT_R32G32_SFLOAT, 24 };
  b->attrs[3] = (VkVertexInputAttributeDescription) { 3, 0, VK_FORMAT_R8G8B8A8_UNORM, 32 };
  b->vi = (VkPipelineVertexInputStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
    .vertexBindingDescriptionCount = 1, .pVertexBindingDescriptions = &b->binding,
    .vertexAttributeDescriptionCount = 4, .pVertexAttributeDescriptions = b->attrs };
  b->ia = (VkPipelineInputAssemblyStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
    .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST };
  b->vp = (VkPipelineViewportStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
    .viewportCount = 1, .scissorCount = 1 };
  b->rs = (VkPipelineRasterizationStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
    .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_BACK_BIT,
    .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f };
  b->ms = (VkPipelineMultisampleStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
    .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT };
  b->ds = (VkPipelineDepthStencilStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
    .depthTestEnable = VK_TRUE, .depthWriteEnable = !blend,
    .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL, .maxDepthBounds = 1.0f };
  for (uint32_t a = 0; a < colors; a++)
    b->blend[a] = (VkPipelineColorBlendAttachmentState) {
      .blendEnable = blend,
      .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
      .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
      .colorBlendOp = VK_BLEND_OP_ADD,
      .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
      .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO,
      .alphaBlendOp = VK_BLEND_OP_ADD,
      .colorWriteMask = 0xf };
  b->cb = (VkPipelineColorBlendStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
    .attachmentCount = colors, .pAttachments = b->blend };
  b->dyn_states[0] = VK_DYNAMIC_STATE_VIEWPORT;
  b->dyn_states[1] = VK_DYNAMIC_STATE_SCISSOR;
  b->dyn = (VkPipelineDynamicStateCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
    .dynamicStateCount = 2, .pDynamicStates = b->dyn_states };
  for (uint32_t a = 0; a < colors; a++)
    b->formats[a] = color_formats[fmt][a];
  b->rendering = (VkPipelineRenderingCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
    .colorAttachmentCount = colors, .pColorAttachmentFormats = b->formats,
    .depthAttachmentFormat = VK_FORMAT_D32_SFLOAT };
  b->ci = (VkGraphicsPipelineCreateInfo) {
    .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
    .pNext = &b->rendering,
    .stageCount = 2, .pStages = b->stages,
    .pVertexInputState = &b->vi, .pInputAssemblyState = &b->ia,
    .pViewportState = &b->vp, .pRasterizationState = &b->rs,
    .pMultisampleState = &b->ms, .pDepthStencilState = &b->ds,
    .pColorBlendState = &b->cb, .pDynamicState = &b->dyn,
    .layout = o->layout };
}

static void
die (const char *what, GError *error)
{
  fprintf (stderr, "psc-bench: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

static int
bench_hit (uint32_t n, uint32_t batches)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("device", error);
  g_autoptr(PscCache) cache = psc_cache_new (device, PSC_BACKEND_DYNAMIC_RENDERING,
                                             PSC_CACHE_FLAGS_NONE, &error);
  if (cache == NULL)
    die ("cache", error);

  BenchObjects o;
  o.vert = psc_cache_register_shader (cache, bench_vert_spv, sizeof bench_vert_spv, &error);
  o.frag = psc_cache_register_shader (cache, bench_frag_spv, sizeof bench_frag_spv, &error);
  if (!o.vert || !o.frag)
    die ("shaders", error);
  VkSamplerCreateInfo sci = {
    .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
    .magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR, .maxLod = 1.0f };
  VkSampler sampler = psc_cache_get_sampler (cache, &sci, &error);
  if (!sampler)
    die ("sampler", error);
  VkDescriptorSetLayoutBinding bindings[2] = {
    { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
    { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, &sampler },
  };
  VkDescriptorSetLayoutCreateInfo dci = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 2, .pBindings = bindings };
  VkDescriptorSetLayout set_layout = psc_cache_get_descriptor_set_layout (cache, &dci, &error);
  if (!set_layout)
    die ("set layout", error);
  VkPushConstantRange push = { VK_SHADER_STAGE_VERTEX_BIT, 0, 64 };
  VkPipelineLayoutCreateInfo lci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 1, .pSetLayouts = &set_layout,
    .pushConstantRangeCount = 1, .pPushConstantRanges = &push };
  o.layout = psc_cache_get_pipeline_layout (cache, &lci, &error);
  if (!o.layout)
    die ("pipeline layout", error);

  BenchInfo *b = calloc (1, sizeof *b);
  uint32_t *order = calloc (n, sizeof *order);
  uint32_t *ids = calloc (n, sizeof *ids);
  double *key_bytes = calloc (n, sizeof *key_bytes);
  double *samples_h = calloc (batches, sizeof (double));
  double *samples_p = calloc (batches, sizeof (double));
  double *samples_f = calloc (batches, sizeof (double));
  double *samples_e = calloc (batches, sizeof (double));

  /* Create every pipeline once (misses), prepare every key. */
  uint64_t t_create = now_ns ();
  for (uint32_t i = 0; i < n; i++)
    {
      memset (b, 0xa5, sizeof *b);   /* stale bytes must not matter */
      fill (b, i, &o);
      if (!psc_cache_get_graphics_pipeline (cache, &b->ci, &error))
        die ("create", error);
      key_bytes[i] = (double) psc_cache_get_graphics_key_size (cache, &b->ci, &error);
      ids[i] = psc_cache_prepare_graphics_pipeline (cache, &b->ci, &error);
      if (!ids[i])
        die ("prepare", error);
      order[i] = i;
    }
  t_create = now_ns () - t_create;
  if (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES) != n)
    die ("distinct pipelines", NULL);

  unsigned long allocs = 0;
  uint64_t hits = 0;
  uintptr_t sink = 0;
  for (uint32_t k = 0; k < batches; k++)
    {
      shuffle (order, n);
      /* Rebuild only. */
      uint64_t t0 = now_ns ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          opaque (b);
        }
      uint64_t t_rebuild = now_ns () - t0;
      /* Rebuild + hit. */
      unsigned long a0 = atomic_load (&alloc_count);
      t0 = now_ns ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          sink ^= (uintptr_t) psc_cache_get_graphics_pipeline (cache, &b->ci, NULL);
        }
      uint64_t t_full = now_ns () - t0;
      /* Prepared. */
      uint64_t t1 = now_ns ();
      for (uint32_t j = 0; j < n; j++)
        sink ^= (uintptr_t) psc_cache_get_prepared_pipeline (cache, ids[order[j]], NULL);
      uint64_t t_prep = now_ns () - t1;
      /* Rebuild + canonicalize only (diagnostic: the encoder's share). */
      uint64_t t2 = now_ns ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          sink ^= psc_cache_get_graphics_key_size (cache, &b->ci, NULL);
        }
      samples_e[k] = ((double) (now_ns () - t2) - (double) t_rebuild) / n;
      allocs += atomic_load (&alloc_count) - a0;
      hits += 2ull * n;
      samples_h[k] = ((double) t_full - (double) t_rebuild) / n;
      samples_p[k] = (double) t_prep / n;
    }

  /* Floor: XXH3 over 1 KiB + memcmp, same function and flags. */
  uint8_t *buf = malloc (1024), *copy = malloc (1024);
  for (int i = 0; i < 1024; i++)
    buf[i] = (uint8_t) rng ();
  memcpy (copy, buf, 1024);
  const uint32_t reps = 20000;
  for (uint32_t k = 0; k < batches; k++)
    {
      uint64_t t0 = now_ns ();
      for (uint32_t r = 0; r < reps; r++)
        {
          opaque (buf);
          sink ^= (uintptr_t) XXH3_64bits (buf, 1024);
          sink ^= (uintptr_t) memcmp (buf, copy, 1024);
        }
      samples_f[k] = (double) (now_ns () - t0) / reps;
    }

  PscStats stats;
  psc_cache_get_stats (cache, &stats);
  double h = median (samples_h, batches);
  double p = median (samples_p, batches);
  double f = median (samples_f, batches);
  double kb = median (key_bytes, n);
  fprintf (stderr, "psc-bench hit: canonicalize-only %.1f ns/request\n", median (samples_e, batches));
  fprintf (stderr, "psc-bench hit: device \"%s\", %u pipelines created in %.1f ms, "
           "%" G_GUINT64_FORMAT " hits counted, sink %lx\n",
           psc_device_get_name (device), n, t_create / 1e6,
           stats.kinds[PSC_OBJECT_KIND_GRAPHICS_PIPELINE].hits, (unsigned long) (sink & 1));
  printf ("{\"bench\":\"hit\",\"hit_ns\":%.1f,\"prepared_ns\":%.1f,\"floor_ns\":%.1f,"
          "\"ratio\":%.2f,\"allocs_per_hit\":%.3f,\"key_bytes\":%.0f}\n",
          h, p, f, h / f, (double) allocs / (double) hits, kb);
  free (buf);
  free (copy);
  free (b);
  free (order);
  free (ids);
  free (key_bytes);
  free (samples_h);
  free (samples_p);
  free (samples_f);
  free (samples_e);
  return 0;
}

static void
usage (void)
{
  fprintf (stderr, "usage: psc-bench hit [--pipelines N] [--batches B]\n");
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage ();
      return 2;
    }
  uint32_t pipelines = 1024, batches = 15;
  for (int i = 2; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--pipelines") == 0)
        pipelines = (uint32_t) strtoul (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--batches") == 0)
        batches = (uint32_t) strtoul (argv[i + 1], NULL, 10);
      else
        {
          usage ();
          return 2;
        }
    }
  if (pipelines < 1 || batches < 1)
    {
      usage ();
      return 2;
    }
  /* Lavapipe by default; any driver with the usual loader variables. */
  static const char lvp[] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  if (getenv ("VK_DRIVER_FILES") == NULL && getenv ("VK_ICD_FILENAMES") == NULL &&
      g_file_test (lvp, G_FILE_TEST_EXISTS))
    setenv ("VK_DRIVER_FILES", lvp, 0);
  if (strcmp (argv[1], "hit") == 0)
    return bench_hit (pipelines, batches);
  usage ();
  return 2;
}
