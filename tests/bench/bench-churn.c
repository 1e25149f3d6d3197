/* bench-churn.c: psc-bench churn, host memory while keys are evicted and
 * requested again.
 *
 *   psc-bench churn [--keys K] [--cycles C]
 *
 * K compute pipelines (one specialization value each; default 1,000) are
 * requested, evicted (idle past the borrowed-handle window, then
 * psc_cache_evict) and requested again, C times (default 100 cycles, each
 * of all K keys). host_bytes_after_warmup (B0) is the cache's host bytes
 * (every kind) after the second cycle's requests, host_bytes_end (B1) after
 * the last cycle's; growth = B1 / B0 (the goal: at most 1.10). ns_per_cycle
 * is the wall time of one cycle of all K keys after the warm-up, driver
 * compiles included (on lavapipe they dominate: a cycle of 1,000 keys takes
 * about 2 s there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <psocache/psocache.h>

#include "bench.h"
#include "churn.comp.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  PscCache *cache;
  VkShaderModule module;
  VkPipelineLayout layout;
  guint64 frame;
} Churn;

static void
churn_setup (Churn *c, PscDevice *device)
{
  g_autoptr(GError) error = NULL;
  c->cache = psc_cache_new (device, PSC_BACKEND_AUTO, PSC_CACHE_FLAGS_NONE, &error);
  if (c->cache == NULL)
    die ("cache", error);
  c->module = psc_cache_register_shader (c->cache, churn_comp_spv, sizeof churn_comp_spv, &error);
  if (c->module == VK_NULL_HANDLE)
    die ("shader", error);
  VkDescriptorSetLayoutBinding binding = {
    0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL
  };
  VkDescriptorSetLayoutCreateInfo set_info = {
    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
    .bindingCount = 1,
    .pBindings = &binding,
  };
  VkDescriptorSetLayout set = psc_cache_get_descriptor_set_layout (c->cache, &set_info, &error);
  if (set == VK_NULL_HANDLE)
    die ("set layout", error);
  VkPipelineLayoutCreateInfo layout_info = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
    .setLayoutCount = 1,
    .pSetLayouts = &set,
  };
  c->layout = psc_cache_get_pipeline_layout (c->cache, &layout_info, &error);
  if (c->layout == VK_NULL_HANDLE)
    die ("pipeline layout", error);
  c->frame = 1;
  psc_cache_begin_frame (c->cache, c->frame, 0);
}

static void
request_all (Churn *c, uint32_t keys)
{
  for (uint32_t k = 0; k < keys; k++)
    {
      g_autoptr(GError) error = NULL;
      VkSpecializationMapEntry entry = { 0, 0, sizeof (uint32_t) };
      VkSpecializationInfo spec = { 1, &entry, sizeof k, &k };
      VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = VK_SHADER_STAGE_COMPUTE_BIT,
          .module = c->module,
          .pName = "main",
          .pSpecializationInfo = &spec,
        },
        .layout = c->layout,
        .basePipelineIndex = -1,
      };
      if (psc_cache_get_compute_pipeline (c->cache, &ci, &error) == VK_NULL_HANDLE)
        die ("compute pipeline", error);
    }
}

/* Every key goes idle past the window and is evicted; nothing uses the GPU,
 * so every frame before the current one is complete. */
static void
evict_all (Churn *c, uint32_t keys)
{
  for (int i = 0; i <= PSC_BORROW_FRAMES; i++)
    {
      c->frame++;
      psc_cache_begin_frame (c->cache, c->frame, c->frame - 1);
    }
  if (psc_cache_evict (c->cache, 0) != keys)
    die ("eviction left keys behind", NULL);
}

static guint64
host_bytes (PscCache *cache)
{
  g_autoptr(PscStats) stats = psc_cache_get_stats (cache);
  return psc_stats_get_total (stats, PSC_COUNTER_HOST_BYTES);
}

int
bench_churn (int argc, char **argv)
{
  uint32_t keys = 1000, cycles = 100;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = value != NULL;
      if (ok && strcmp (argv[i], "--keys") == 0)
        ok = parse_u32 (value, &keys) && keys >= 1;
      else if (ok && strcmp (argv[i], "--cycles") == 0)
        ok = parse_u32 (value, &cycles) && cycles >= 3;
      else
        ok = false;
      if (!ok)
        {
          fprintf (stderr, "usage: psc-bench churn [--keys K] [--cycles C (>= 3)]\n");
          return 2;
        }
      i++;
    }
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("device", error);
  Churn c;
  churn_setup (&c, device);
  guint64 b0 = 0;
  uint64_t t0 = 0;
  for (uint32_t cycle = 0; cycle < cycles; cycle++)
    {
      if (cycle == 2)
        t0 = now_ns ();
      request_all (&c, keys);
      if (cycle == 1)
        b0 = host_bytes (c.cache);
      if (cycle + 1 < cycles)
        evict_all (&c, keys);
    }
  const double ns_per_cycle = (double) (now_ns () - t0) / (cycles - 2);
  const guint64 b1 = host_bytes (c.cache);
  fprintf (stderr, "churn: %s, %u keys x %u cycles\n", psc_device_get_name (device), keys, cycles);
  printf ("{\"bench\":\"churn\",\"keys\":%u,\"cycles\":%u,\"host_bytes_after_warmup\":%" G_GUINT64_FORMAT
          ",\"host_bytes_end\":%" G_GUINT64_FORMAT ",\"growth\":%.3f,\"ns_per_cycle\":%.0f}\n",
          keys, cycles, b0, b1, (double) b1 / (double) b0, ns_per_cycle);
  g_object_unref (c.cache);
  return 0;
}
