/* psc-bench: libpsocache benchmarks; each prints one JSON line.
 *
 *   psc-bench hit [--pipelines N] [--batches B]
 *   psc-bench async [--workers W] [--pipelines P] [--batch N] [--validate]
 *   (churn, scale, warm, disk and dbus: in bench-churn.c, bench-scale.c,
 *   bench-warm.c, bench-disk.c and bench-dbus.c; the pipeline family of
 *   async, warm and disk: bench-family.c)
 *
 * hit: H = median ns per graphics-pipeline hit through the public API
 * (canonicalize, hash, find, compare in full) over N distinct realistic
 * create infos visited in shuffled order, each rebuilt in one reused buffer
 * before its call (the rebuild is timed separately and subtracted); P = the
 * same through prepared keys; F = median ns to XXH3-hash a fixed 1 KiB buffer
 * (same function and flags as the library) plus a memcmp of it, measured in
 * the same run. Each figure is a median over batches of one timed loop over
 * all N requests; A = heap allocations per hit (malloc is interposed); K =
 * median canonical key bytes per graphics key.
 *
 * async: P distinct, equally expensive graphics pipelines compiled three
 * ways in one run, each phase on its own disjoint but equivalent pipeline
 * set (specialization values differ, costs do not) with fresh
 * VkPipelineCache objects and the driver's disk cache off: S = serially
 * through psc_cache_get_graphics_pipeline; A = through
 * psc_cache_request_graphics_pipeline (PSC_MISS_POLICY_SKIP) with W
 * workers, from the first request to the last callback, while the render
 * thread runs paced frames (psc_cache_begin_frame, re-requests of the
 * still-pending pipelines, a batch of new requests); R = by W plain threads
 * calling vkCreateGraphicsPipelines directly (the ceiling). U = 99th
 * percentile of one frame's begin_frame + requests while compiles are in
 * flight. See docs/benchmarks.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench-family.h"
#include "bench.vert.h"
#include "bench.frag.h"

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

  FILL_FIXED_STATE (b, colors, fmt, blend, o->layout);
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

  /* Floor buffers: XXH3 over 1 KiB + memcmp, same function and flags. */
  uint8_t *buf = malloc (1024), *copy = malloc (1024);
  for (int i = 0; i < 1024; i++)
    buf[i] = (uint8_t) rng ();
  memcpy (copy, buf, 1024);

  unsigned long allocs = 0;
  uint64_t hits = 0;
  uintptr_t sink = 0;
  /* Batch timing: each figure of a batch is one loop over all n requests
   * between two time-stamp-counter reads (fenced, calibrated against
   * CLOCK_MONOTONIC), divided by n; the figures are medians over the
   * batches, so a burst of load on the machine moves a batch or two, not
   * the median. (This VM's counter advances in ~10 ns steps, too coarse for
   * one call, fine for a loop.) H's loop rebuilds each create info before
   * its call; the same loop with the call left out, run right before it in
   * the same batch, is subtracted. The floor is timed the same way in the
   * same batches. Per-call medians are printed on stderr as a cross-check. */
  calibrate_ticks ();
  size_t total = (size_t) n * batches, at = 0;
  double *call_h = malloc (total * sizeof *call_h);
  double *call_p = malloc (total * sizeof *call_p);
  double *call_0 = malloc (total * sizeof *call_0);
  if (!call_h || !call_p || !call_0)
    die ("out of memory", NULL);
  for (uint32_t k = 0; k < batches; k++)
    {
      shuffle (order, n);
      /* Rebuild only. */
      uint64_t c0 = ticks ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          opaque (b);
        }
      uint64_t c1 = ticks ();
      const double t_rebuild = (double) (c1 - c0) * ns_per_tick;
      /* Rebuild, then the hit. */
      unsigned long a0 = atomic_load (&bench_alloc_count);
      c0 = ticks ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          sink ^= (uintptr_t) psc_cache_get_graphics_pipeline (cache, &b->ci, NULL);
        }
      c1 = ticks ();
      samples_h[k] = ((double) (c1 - c0) * ns_per_tick - t_rebuild) / n;
      /* Prepared. */
      c0 = ticks ();
      for (uint32_t j = 0; j < n; j++)
        sink ^= (uintptr_t) psc_cache_get_prepared_pipeline (cache, ids[order[j]], NULL);
      c1 = ticks ();
      samples_p[k] = (double) (c1 - c0) * ns_per_tick / n;
      allocs += atomic_load (&bench_alloc_count) - a0;
      hits += 2ull * n;
      /* The floor: XXH3 over 1 KiB + memcmp, n times. */
      c0 = ticks ();
      for (uint32_t j = 0; j < n; j++)
        {
          opaque (buf);
          sink ^= (uintptr_t) XXH3_64bits (buf, 1024);
          sink ^= (uintptr_t) memcmp (buf, copy, 1024);
        }
      c1 = ticks ();
      samples_f[k] = (double) (c1 - c0) * ns_per_tick / n;
      /* Rebuild + canonicalize only (diagnostic: the encoder's share). */
      c0 = ticks ();
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          sink ^= psc_cache_get_graphics_key_size (cache, &b->ci, NULL);
        }
      c1 = ticks ();
      samples_e[k] = ((double) (c1 - c0) * ns_per_tick - t_rebuild) / n;
      /* Cross-check: every call timed on its own. */
      for (uint32_t j = 0; j < n; j++)
        {
          fill (b, order[j], &o);
          c0 = ticks ();
          sink ^= (uintptr_t) psc_cache_get_graphics_pipeline (cache, &b->ci, NULL);
          c1 = ticks ();
          call_h[at + j] = (double) (c1 - c0) * ns_per_tick;
          c0 = ticks ();
          sink ^= (uintptr_t) psc_cache_get_prepared_pipeline (cache, ids[order[j]], NULL);
          c1 = ticks ();
          call_p[at + j] = (double) (c1 - c0) * ns_per_tick;
          c0 = ticks ();
          opaque (buf);
          c1 = ticks ();
          call_0[at + j] = (double) (c1 - c0) * ns_per_tick;
        }
      at += n;
    }

  double h = median (samples_h, batches);
  double p = median (samples_p, batches);
  double f = median (samples_f, batches);
  double overhead = median (call_0, total);
  fprintf (stderr, "psc-bench hit: per-call cross-check (timer pair %.1f ns subtracted, ~10 ns "
           "grain): hit %.1f ns, prepared %.1f ns\n", overhead,
           median (call_h, total) - overhead, median (call_p, total) - overhead);
  free (call_h);
  free (call_p);
  free (call_0);

  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
  double kb = median (key_bytes, n);
  fprintf (stderr, "psc-bench hit: canonicalize-only %.1f ns/request\n", median (samples_e, batches));
  fprintf (stderr, "psc-bench hit: device \"%s\", %u pipelines created in %.1f ms, "
           "%" G_GUINT64_FORMAT " hits counted, sink %lx\n",
           psc_device_get_name (device), n, t_create / 1e6,
           psc_stats_get_counter (stats, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_HITS), (unsigned long) (sink & 1));
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

/* ------------------------------------------------------------------------
 * psc-bench async
 */

static void
sleep_us (uint32_t us)
{
  struct timespec ts = { 0, (long) us * 1000l };
  while (nanosleep (&ts, &ts) != 0)
    ;
}

/* One asynchronous request's completion, written by its callback. */
typedef struct {
  VkPipeline pipeline;
  VkResult result;
  uint32_t fired;
  bool requested;
} AsyncSlot;

static uint32_t async_fired_total;
static uint64_t async_last_fire_ns;

static void
async_ready_cb (void *context, VkPipeline pipeline, VkResult result)
{
  AsyncSlot *slot = context;
  slot->fired++;
  slot->pipeline = pipeline;
  slot->result = result;
  async_fired_total++;
  async_last_fire_ns = now_ns ();
}

/* Raw phase: W threads, each with its own VkPipelineCache. */
typedef struct {
  VkDevice device;
  PFN_vkCreateGraphicsPipelines create;
  VkPipelineCache cache;
  const VkAllocationCallbacks *allocator;
  const AsyncInfo *infos;
  VkPipeline *out;
  VkResult *results;
  uint32_t begin, end;
  pthread_barrier_t *start;
  uint64_t done_ns;
} RawThread;

static void *
raw_thread_main (void *data)
{
  RawThread *t = data;
  pthread_barrier_wait (t->start);
  for (uint32_t i = t->begin; i < t->end; i++)
    t->results[i] = t->create (t->device, t->cache, 1, &t->infos[i].ci, t->allocator,
                               &t->out[i]);
  t->done_ns = now_ns ();
  return NULL;
}

static uint32_t
default_workers (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 1 ? (uint32_t) (n - 1) : 1;
}

static int
bench_async (uint32_t workers, uint32_t pipelines, uint32_t batch, bool validate)
{
  g_autoptr(GError) error = NULL;

  /* The driver's own disk caches must not warm one phase with another's
   * work (nor carry anything over between runs). */
  setenv ("MESA_SHADER_CACHE_DISABLE", "true", 1);
  setenv ("__GL_SHADER_DISK_CACHE", "0", 1);
  setenv ("__GL_SHADER_DISK_CACHE_SKIP_CLEANUP", "1", 1);

  g_autoptr(PscDevice) device = psc_device_new_headless (validate ? PSC_DEVICE_FLAGS_VALIDATION
                                                                  : PSC_DEVICE_FLAGS_NONE,
                                                         &error);
  if (device == NULL)
    die ("device", error);
  const char *name = psc_device_get_name (device);
  uint32_t w = workers ? workers : default_workers ();
  uint32_t n = pipelines ? pipelines : (strstr (name, "llvmpipe") != NULL ? 64 : 256);
  uint32_t per_frame = batch ? batch : (4 * w > 16 ? 4 * w : 16);
  char driver[2048];
  driver_string (device, driver, sizeof driver);
  fprintf (stderr, "psc-bench async: device \"%s\", %u pipelines per phase, %u workers, "
           "%u new requests per frame\n", name, n, w, per_frame);

  const PscDeviceInfo *dinfo = psc_device_get_info (device);
  PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)
    dinfo->get_instance_proc_addr (dinfo->instance, "vkGetDeviceProcAddr");
  if (gdpa == NULL)
    die ("vkGetDeviceProcAddr", NULL);
  PFN_vkCreateGraphicsPipelines create_gp = (PFN_vkCreateGraphicsPipelines)
    gdpa (dinfo->device, "vkCreateGraphicsPipelines");
  PFN_vkDestroyPipeline destroy_p = (PFN_vkDestroyPipeline) gdpa (dinfo->device, "vkDestroyPipeline");
  PFN_vkCreatePipelineCache create_pc = (PFN_vkCreatePipelineCache)
    gdpa (dinfo->device, "vkCreatePipelineCache");
  PFN_vkDestroyPipelineCache destroy_pc = (PFN_vkDestroyPipelineCache)
    gdpa (dinfo->device, "vkDestroyPipelineCache");
  if (!create_gp || !destroy_p || !create_pc || !destroy_pc)
    die ("device entry points", NULL);

  int failures = 0;

  /* 0. Warm-up, a fourth disjoint set: one-time driver and compiler
   * initialization on this thread must not count against the first phase. */
  {
    BenchObjects o;
    g_autoptr(PscCache) cache = async_cache_new (device, 1, 0, &o);
    AsyncInfo *infos = async_infos_new (PHASE_WARMUP, 2, &o);
    for (uint32_t i = 0; i < 2; i++)
      if (!psc_cache_get_graphics_pipeline (cache, &infos[i].ci, &error))
        die ("warm-up pipeline", error);
    free (infos);
  }

  /* 1. Serial, through the cache, on this thread. */
  double serial_ms;
  {
    BenchObjects o;
    g_autoptr(PscCache) cache = async_cache_new (device, w, n, &o);
    AsyncInfo *infos = async_infos_new (PHASE_SERIAL, n, &o);
    uint32_t made = 0;
    uint64_t t0 = now_ns ();
    for (uint32_t i = 0; i < n; i++)
      {
        VkPipeline p = psc_cache_get_graphics_pipeline (cache, &infos[i].ci, &error);
        if (p == VK_NULL_HANDLE)
          {
            fprintf (stderr, "psc-bench async: serial pipeline %u: %s\n", i,
                     error ? error->message : "null");
            g_clear_error (&error);
            failures++;
          }
        else
          made++;
      }
    serial_ms = (double) (now_ns () - t0) / 1e6;
    if (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES) != made)
      {
        fprintf (stderr, "psc-bench async: serial set is not %u distinct pipelines\n", n);
        failures++;
      }
    free (infos);
  }

  /* 2. Asynchronous, W workers, the render thread pacing frames. Twice, on
   * two more disjoint sets: first with the per-frame requests an engine
   * makes through prepared keys (canonicalized once, before the frames: the
   * library's per-frame path), then with every request canonicalizing its
   * create info again (psc_cache_request_graphics_pipeline). U is the first;
   * the second is reported as render_thread_p99_direct_us. */
  double async_ms = 0, p99_us = 0, p99_direct_us = 0;
  for (int variant = 0; variant < 2; variant++)
  {
    const bool prepared = variant == 0;
    const char *vname = prepared ? "prepared" : "direct";
    BenchObjects o;
    g_autoptr(PscCache) cache = async_cache_new (device, w, n, &o);
    AsyncInfo *infos = async_infos_new (prepared ? PHASE_ASYNC : PHASE_ASYNC_DIRECT, n, &o);
    uint32_t *keys = calloc (n, sizeof *keys);
    if (keys == NULL)
      die ("out of memory", NULL);
    uint64_t t_prep = now_ns ();
    for (uint32_t i = 0; prepared && i < n; i++)
      {
        keys[i] = psc_cache_prepare_graphics_pipeline (cache, &infos[i].ci, &error);
        if (keys[i] == 0)
          die ("prepare", error);
      }
    if (prepared)
      fprintf (stderr, "psc-bench async: prepared %u keys in %.1f us (before the frames)\n", n,
               (double) (now_ns () - t_prep) / 1e3);
#define ASYNC_REQUEST(i, cb, ctx, res, err) \
    (prepared ? psc_cache_request_prepared_pipeline (cache, keys[i], PSC_MISS_POLICY_SKIP, \
                                                     PSC_REQUEST_FLAGS_NONE, (cb), (ctx), (res), (err)) \
              : psc_cache_request_graphics_pipeline (cache, &infos[i].ci, PSC_MISS_POLICY_SKIP, \
                                                     PSC_REQUEST_FLAGS_NONE, (cb), (ctx), (res), (err)))
    AsyncSlot *slots = calloc (n, sizeof *slots);
    uint32_t *pending = calloc (n, sizeof *pending);
    size_t frame_cap = 1024, frame_count = 0;
    double *frame_us = malloc (frame_cap * sizeof *frame_us);
    double *pump_us = malloc (frame_cap * sizeof *pump_us);
    if (!slots || !pending || !frame_us || !pump_us)
      die ("out of memory", NULL);
    uint32_t pending_count = 0, next = 0, requested = 0;
    uint64_t frame = 0, t_first = 0, rerequests = 0, queue_full = 0;
    uint64_t max_in_flight = 0, in_flight_sum = 0, max_queued = 0;
    uint32_t anomalies = 0;
    double *publish_us = NULL;
    size_t publish_count = 0, publish_cap = 0;
    uint32_t fired_seen = 0;
    uint64_t progress_ns = now_ns ();
    async_fired_total = 0;

    while (async_fired_total < n)
      {
        frame++;
        uint32_t fired_before = async_fired_total;
        uint64_t t0 = now_ns ();
        psc_cache_begin_frame (cache, frame, frame);
        uint64_t t_pump = now_ns ();
        if (async_fired_total != fired_before)
          {
            /* begin_frame of a frame that published something */
            if (publish_count == publish_cap)
              {
                publish_cap = publish_cap ? 2 * publish_cap : 256;
                publish_us = realloc (publish_us, publish_cap * sizeof *publish_us);
                if (publish_us == NULL)
                  die ("out of memory", NULL);
              }
            publish_us[publish_count++] = (double) (t_pump - t0) / 1e3 /
                                          (double) (async_fired_total - fired_before);
          }
        /* Draws of pipelines requested earlier: a real engine asks again
         * every frame (no callback: the first request's one is pending). */
        uint32_t kept = 0;
        for (uint32_t k = 0; k < pending_count; k++)
          {
            uint32_t i = pending[k];
            if (slots[i].fired)
              continue;
            PscRequestResult res = PSC_REQUEST_RESULT_PENDING;
            VkPipeline p = ASYNC_REQUEST (i, NULL, NULL, &res, &error);
            rerequests++;
            if (error != NULL || res != PSC_REQUEST_RESULT_PENDING || p != VK_NULL_HANDLE)
              anomalies++;   /* Ready without its callback, or an error */
            g_clear_error (&error);
            pending[kept++] = i;
          }
        pending_count = kept;
        /* This frame's new draws. */
        for (uint32_t k = 0; k < per_frame && next < n; k++)
          {
            uint32_t i = next;
            PscRequestResult res = PSC_REQUEST_RESULT_PENDING;
            if (t_first == 0)
              t_first = now_ns ();
            VkPipeline p = ASYNC_REQUEST (i, async_ready_cb, &slots[i], &res, &error);
            if (error != NULL && g_error_matches (error, PSC_ERROR, PSC_ERROR_QUEUE_FULL))
              {
                /* Skipped, never lost: ask again next frame. */
                g_clear_error (&error);
                queue_full++;
                break;
              }
            if (error != NULL || res != PSC_REQUEST_RESULT_PENDING || p != VK_NULL_HANDLE)
              {
                fprintf (stderr, "psc-bench async: request %u: %s (result %d)\n", i,
                         error ? error->message : "not pending", (int) res);
                g_clear_error (&error);
                return 1;
              }
            slots[i].requested = true;
            pending[pending_count++] = i;
            requested++;
            next++;
          }
        uint64_t t1 = now_ns ();
        /* Every frame of this loop has compiles in flight: it runs from the
         * first request until the last callback. */
        if (frame_count == frame_cap)
          {
            frame_cap *= 2;
            frame_us = realloc (frame_us, frame_cap * sizeof *frame_us);
            pump_us = realloc (pump_us, frame_cap * sizeof *pump_us);
            if (frame_us == NULL || pump_us == NULL)
              die ("out of memory", NULL);
          }
        pump_us[frame_count] = (double) (t_pump - t0) / 1e3;
        frame_us[frame_count++] = (double) (t1 - t0) / 1e3;

        g_autoptr(PscStats) st = psc_cache_get_stats (cache);
        if (psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT) > max_in_flight)
          max_in_flight = psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT);
        if (psc_stats_get_async (st, PSC_ASYNC_COUNTER_QUEUED) > max_queued)
          max_queued = psc_stats_get_async (st, PSC_ASYNC_COUNTER_QUEUED);
        in_flight_sum += psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT);
        if (async_fired_total < n)
          sleep_us (750);   /* frame pacing: the rest of the frame */
        /* A callback that never fires must not hang the run. */
        if (async_fired_total != fired_seen)
          {
            fired_seen = async_fired_total;
            progress_ns = now_ns ();
          }
        else if (now_ns () - progress_ns > 120ull * 1000000000ull)
          {
            fprintf (stderr, "psc-bench async: no callback for 120 s: %u of %u fired, "
                     "%u requested, %" G_GUINT64_FORMAT " queued, %" G_GUINT64_FORMAT
                     " in flight\n", async_fired_total, n, requested, psc_stats_get_async (st, PSC_ASYNC_COUNTER_QUEUED),
                     psc_stats_get_async (st, PSC_ASYNC_COUNTER_IN_FLIGHT));
            return 1;
          }
      }
    double a_ms = (double) (async_last_fire_ns - t_first) / 1e6;

    /* A few more frames: no callback may fire again. */
    for (int k = 0; k < 4; k++)
      {
        frame++;
        psc_cache_begin_frame (cache, frame, frame);
      }
    g_autoptr(PscStats) st = psc_cache_get_stats (cache);
    uint32_t ready = 0;
    for (uint32_t i = 0; i < n; i++)
      {
        AsyncSlot *s = &slots[i];
        if (s->fired != 1 || s->result != VK_SUCCESS || s->pipeline == VK_NULL_HANDLE)
          {
            fprintf (stderr, "psc-bench async: pipeline %u: callback fired %u times, "
                     "VkResult %d, pipeline %s\n", i, s->fired, (int) s->result,
                     s->pipeline ? "set" : "null");
            failures++;
            continue;
          }
        /* Now a hit, returning the pipeline the callback got. */
        PscRequestResult res;
        VkPipeline p = psc_cache_request_graphics_pipeline (cache, &infos[i].ci,
                                                            PSC_MISS_POLICY_SKIP,
                                                            PSC_REQUEST_FLAGS_NONE,
                                                            NULL, NULL, &res, NULL);
        if (p != s->pipeline || res != PSC_REQUEST_RESULT_READY)
          {
            fprintf (stderr, "psc-bench async: pipeline %u: a request after its callback "
                     "returned %s (result %d)\n", i,
                     p == s->pipeline ? "the same pipeline" : "another pipeline", (int) res);
            failures++;
          }
        else
          ready++;
      }
    if (psc_stats_get_async (st, PSC_ASYNC_COUNTER_COMPLETED) != n || psc_stats_get_async (st, PSC_ASYNC_COUNTER_FAILED) != 0 || psc_stats_get_async (st, PSC_ASYNC_COUNTER_WAITERS_SERVED) != n ||
        psc_stats_get_counter (st, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES) != n)
      {
        fprintf (stderr, "psc-bench async: counters: completed %" G_GUINT64_FORMAT
                 ", failed %" G_GUINT64_FORMAT ", waiters served %" G_GUINT64_FORMAT
                 ", entries %" G_GUINT64_FORMAT " (expected %u, 0, %u, %u)\n",
                 psc_stats_get_async (st, PSC_ASYNC_COUNTER_COMPLETED), psc_stats_get_async (st, PSC_ASYNC_COUNTER_FAILED), psc_stats_get_async (st, PSC_ASYNC_COUNTER_WAITERS_SERVED),
                 psc_stats_get_counter (st, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES), n, n, n);
        failures++;
      }
    if (anomalies)
      {
        fprintf (stderr, "psc-bench async: %u re-requests returned a pipeline before its "
                 "callback, or an error\n", anomalies);
        failures++;
      }

    double first_us = frame_us[0];   /* starts the workers */
    double med = median (frame_us, frame_count);   /* sorts */
    double a_p99 = percentile (frame_us, frame_count, 0.99);
    if (prepared)
      {
        async_ms = a_ms;
        p99_us = a_p99;
      }
    else
      p99_direct_us = a_p99;
    fprintf (stderr, "psc-bench async (%s requests): %u pipelines Ready in %.1f ms\n", vname, n,
             a_ms);
    double pump_med = median (pump_us, frame_count);
    double pump_p99 = percentile (pump_us, frame_count, 0.99);
    fprintf (stderr, "psc-bench async (%s requests): begin_frame alone: median %.1f us, p99 %.1f us, "
             "max %.1f us; per published pipeline (frames that published): median %.1f us\n",
             vname, pump_med, pump_p99, pump_us[frame_count - 1],
             publish_count ? median (publish_us, publish_count) : 0.0);
    fprintf (stderr, "psc-bench async (%s requests): %" G_GUINT64_FORMAT " frames with compiles in flight: "
             "frame (begin_frame + requests) median %.1f us, p99 %.1f us, max %.1f us "
             "(first %.1f us); "
             "%" G_GUINT64_FORMAT " re-requests, %" G_GUINT64_FORMAT " queue-full retries; "
             "in flight max %" G_GUINT64_FORMAT " (mean %.2f), queued max %" G_GUINT64_FORMAT
             "; %u/%u Ready; owner wait %" G_GUINT64_FORMAT " ns, overflow skips %"
             G_GUINT64_FORMAT ", stale discards %" G_GUINT64_FORMAT "\n",
             vname, (guint64) frame_count, med, a_p99, frame_us[frame_count - 1], first_us, rerequests,
             queue_full, max_in_flight, (double) in_flight_sum / (double) frame_count,
             max_queued, ready, n, psc_stats_get_async (st, PSC_ASYNC_COUNTER_OWNER_WAIT_NS), psc_stats_get_async (st, PSC_ASYNC_COUNTER_OVERFLOW_SKIPS),
             psc_stats_get_async (st, PSC_ASYNC_COUNTER_STALE_DISCARDS));

    g_clear_object (&cache);
    /* Destroying the cache must not call a waiter again. */
    for (uint32_t i = 0; i < n; i++)
      if (slots[i].fired != 1)
        {
          fprintf (stderr, "psc-bench async: pipeline %u: callback fired %u times after "
                   "the cache was destroyed\n", i, slots[i].fired);
          failures++;
          break;
        }
#undef ASYNC_REQUEST
    free (keys);
    free (frame_us);
    free (pump_us);
    free (publish_us);
    free (pending);
    free (slots);
    free (infos);
  }

  /* 3. Raw: W plain threads calling the driver, one VkPipelineCache each,
   * the set split evenly in contiguous runs. */
  double raw_ms;
  {
    BenchObjects o;
    g_autoptr(PscCache) cache = async_cache_new (device, 1, 0, &o);   /* owns modules, layout */
    AsyncInfo *infos = async_infos_new (PHASE_RAW, n, &o);
    VkPipeline *out = calloc (n, sizeof *out);
    VkResult *results = calloc (n, sizeof *results);
    RawThread *threads = calloc (w, sizeof *threads);
    pthread_t *tids = calloc (w, sizeof *tids);
    if (!out || !results || !threads || !tids)
      die ("out of memory", NULL);
    pthread_barrier_t start;
    pthread_barrier_init (&start, NULL, w + 1);
    for (uint32_t t = 0; t < w; t++)
      {
        VkPipelineCacheCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
        threads[t] = (RawThread) {
          .device = dinfo->device, .create = create_gp, .allocator = dinfo->allocator,
          .infos = infos, .out = out,
          .results = results,
          .begin = (uint32_t) ((uint64_t) n * t / w),
          .end = (uint32_t) ((uint64_t) n * (t + 1) / w),
          .start = &start };
        if (create_pc (dinfo->device, &pci, dinfo->allocator, &threads[t].cache) != VK_SUCCESS)
          die ("vkCreatePipelineCache", NULL);
        if (pthread_create (&tids[t], NULL, raw_thread_main, &threads[t]) != 0)
          die ("pthread_create", NULL);
      }
    pthread_barrier_wait (&start);
    uint64_t t0 = now_ns ();
    for (uint32_t t = 0; t < w; t++)
      pthread_join (tids[t], NULL);
    uint64_t t_end = t0;
    for (uint32_t t = 0; t < w; t++)
      if (threads[t].done_ns > t_end)
        t_end = threads[t].done_ns;
    raw_ms = (double) (t_end - t0) / 1e6;
    pthread_barrier_destroy (&start);
    for (uint32_t i = 0; i < n; i++)
      {
        if (results[i] != VK_SUCCESS || out[i] == VK_NULL_HANDLE)
          {
            fprintf (stderr, "psc-bench async: raw pipeline %u: VkResult %d\n", i, (int) results[i]);
            failures++;
          }
        if (out[i] != VK_NULL_HANDLE)
          destroy_p (dinfo->device, out[i], dinfo->allocator);
      }
    for (uint32_t t = 0; t < w; t++)
      destroy_pc (dinfo->device, threads[t].cache, dinfo->allocator);
    free (tids);
    free (threads);
    free (results);
    free (out);
    free (infos);
  }

  if (validate)
    {
      guint v = psc_device_get_validation_error_count (device);
      fprintf (stderr, "psc-bench async: %u validation errors\n", v);
      if (v != 0)
        failures++;
    }
  fprintf (stderr, "psc-bench async: per pipeline: serial %.3f ms, async %.3f ms, raw %.3f ms\n",
           serial_ms / n, async_ms / n, raw_ms / n);
  printf ("{\"bench\":\"async\",\"pipelines\":%u,\"workers\":%u,\"serial_ms\":%.1f,"
          "\"async_ms\":%.1f,\"raw_threads_ms\":%.1f,\"speedup\":%.2f,\"vs_raw\":%.2f,"
          "\"render_thread_p99_us\":%.1f,\"render_thread_p99_direct_us\":%.1f,"
          "\"driver\":\"%s\"}\n",
          n, w, serial_ms, async_ms, raw_ms, serial_ms / async_ms, raw_ms / async_ms,
          p99_us, p99_direct_us, driver);
  if (failures)
    fprintf (stderr, "psc-bench async: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}

static void
usage (void)
{
  fprintf (stderr, "usage: psc-bench hit [--pipelines N] [--batches B]\n"
                   "       psc-bench async [--workers W] [--pipelines P] [--batch N] [--validate]\n"
                   "       psc-bench churn [--keys K] [--cycles C]\n"
                   "       psc-bench scale [--sizes N,N,...] [--key-bytes L] [--passes P]\n"
                   "       psc-bench warm [--pipelines P] [--reps R]\n"
                   "       psc-bench disk [--source DRIVER-FILE] [--mib M]\n"
                   "       psc-bench dbus [--pipelines P] [--in-flight K] [--frames F] [--pairs N]\n"
                   "                      [--calls C] [--period-us T] [--mix both|stats|list]\n"
                   "                      (under dbus-run-session)\n"
                   "       psc-bench sort [--draws N] [--frames F] [--pipelines P] [--materials M]\n"
                   "       psc-bench descriptors [--sets N] [--batches B]\n");
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage ();
      return 2;
    }
  if (strcmp (argv[1], "churn") == 0)
    return bench_churn (argc, argv);
  if (strcmp (argv[1], "scale") == 0)
    return bench_scale (argc, argv);
  if (strcmp (argv[1], "sort") == 0)
    return bench_sort (argc, argv);
  if (strcmp (argv[1], "descriptors") == 0)
    return bench_descriptors (argc, argv);
  bool async = strcmp (argv[1], "async") == 0;
  bool own_options = strcmp (argv[1], "warm") == 0 || strcmp (argv[1], "warm-role") == 0 ||
                     strcmp (argv[1], "disk") == 0 || strcmp (argv[1], "dbus") == 0;
  if (!async && !own_options && strcmp (argv[1], "hit") != 0)
    {
      usage ();
      return 2;
    }
  /* 0 for async's workers, pipelines and batch: pick the default. */
  uint32_t pipelines = async ? 0 : 1024, batches = 15, workers = 0, batch = 0;
  bool validate = false;
  for (int i = 2; !own_options && i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok;
      if (async && strcmp (argv[i], "--validate") == 0)
        {
          validate = true;
          continue;
        }
      if (value == NULL)
        ok = false;
      else if (strcmp (argv[i], "--pipelines") == 0)
        ok = parse_u32 (value, &pipelines) && pipelines >= 1;
      else if (!async && strcmp (argv[i], "--batches") == 0)
        ok = parse_u32 (value, &batches) && batches >= 1;
      else if (async && strcmp (argv[i], "--workers") == 0)
        ok = parse_u32 (value, &workers) && workers >= 1;
      else if (async && strcmp (argv[i], "--batch") == 0)
        ok = parse_u32 (value, &batch) && batch >= 1;
      else
        ok = false;
      if (!ok)
        {
          usage ();
          return 2;
        }
      i++;
    }
  /* Lavapipe by default; any driver with the usual loader variables. */
  static const char lvp[] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  if (getenv ("VK_DRIVER_FILES") == NULL && getenv ("VK_ICD_FILENAMES") == NULL &&
      g_file_test (lvp, G_FILE_TEST_EXISTS))
    setenv ("VK_DRIVER_FILES", lvp, 0);
  if (strcmp (argv[1], "warm") == 0)
    return bench_warm (argc, argv);
  if (strcmp (argv[1], "warm-role") == 0)
    return bench_warm_role (argc, argv);
  if (strcmp (argv[1], "disk") == 0)
    return bench_disk (argc, argv);
  if (strcmp (argv[1], "dbus") == 0)
    return bench_dbus (argc, argv);
  if (async)
    return bench_async (workers, pipelines, batch, validate);
  return bench_hit (pipelines, batches);
}
