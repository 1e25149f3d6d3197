/* bench-warm.c: psc-bench warm: seed 003's warm start, every measurement
 * in a fresh process.
 *
 *   psc-bench warm [--pipelines P] [--reps R]   (hidden: --keep DIR)
 *   psc-bench warm-role ROLE DIR P              (hidden: one measurement)
 *
 * The parent re-executes itself (/proc/self/exe) once per measurement with
 * `warm-role ROLE DIR P` and reads one JSON line from the child's stdout.
 * Each child creates a device, a cache and the family's shaders and layout
 * (untimed), then times only the loop creating P pipelines of the
 * benchmark family (PHASE_WARM_START: the same create infos in every
 * process). Roles:
 *
 *   cold           a PscCache persisting in DIR (empty), save_interval
 *                  G_MAXUINT; psc_cache_close writes the driver file
 *                  (checked: saves == 1)
 *   warm           the same on the same DIR in a fresh process: the cache
 *                  loads the file at creation (checked: driver files
 *                  loaded == 1, rejected == 0)
 *   driver         the floor: DIR's driver file read and validated with
 *                  psc_driver_file_read against the device's identity,
 *                  given to vkCreatePipelineCache, the same P create infos
 *                  created with raw vkCreateGraphicsPipelines (shader
 *                  modules and layout from a cache without persistence)
 *   implicit-fill  no library persistence: the driver's own disk cache only,
 *                  in a directory of its own per repetition; fills it
 *   implicit       the same in a fresh process, measured
 *
 * Driver disk caches are off for every role but implicit*, whose cache is
 * isolated in its own directory (MESA_SHADER_CACHE_DIR,
 * __GL_SHADER_DISK_CACHE_PATH); the library's knobs (PSOCACHE_DIR,
 * PSOCACHE_DISABLE, PSOCACHE_MAX_SIZE) are unset in every child.
 *
 * Per repetition: cold, implicit-fill, then the measured roles in an ABBA
 * order that flips between repetitions (even: warm driver implicit implicit
 * driver warm; odd: implicit driver warm warm driver implicit). Medians per
 * role. See docs/benchmarks.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"
#include "bench-family.h"

#include <glib/gstdio.h>

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the child: one role, one JSON line ---- */

/* The driver file in dir (driver-*.pscache), or NULL. */
static char *
find_driver_file (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "driver-") && g_str_has_suffix (name, ".pscache"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

static guint64
file_size (const char *path)
{
  GStatBuf st;
  return path != NULL && g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

typedef struct {
  const char *role;
  bool ok;
  char why[256];
  double ms, setup_ms;
  guint64 saves, files_loaded, bytes_loaded, rejected, blob_bytes, file_bytes;
} RoleOut;

static int
role_print (const RoleOut *r)
{
  char why[600];
  json_escape (why, sizeof why, r->why);
  printf ("{\"role\":\"%s\",\"ok\":%s,\"ms\":%.3f,\"setup_ms\":%.3f,\"saves\":%" G_GUINT64_FORMAT
          ",\"files_loaded\":%" G_GUINT64_FORMAT ",\"bytes_loaded\":%" G_GUINT64_FORMAT
          ",\"rejected\":%" G_GUINT64_FORMAT ",\"blob_bytes\":%" G_GUINT64_FORMAT
          ",\"file_bytes\":%" G_GUINT64_FORMAT ",\"why\":\"%s\"}\n",
          r->role, r->ok ? "true" : "false", r->ms, r->setup_ms, r->saves, r->files_loaded,
          r->bytes_loaded, r->rejected, r->blob_bytes, r->file_bytes, why);
  fflush (stdout);
  return r->ok ? 0 : 1;
}

#define ROLE_FAIL(r, ...) \
  do { (r)->ok = false; snprintf ((r)->why, sizeof (r)->why, __VA_ARGS__); } while (0)

/* cold, warm, implicit-fill, implicit: through psc_cache_get_graphics_pipeline. */
static void
role_cache (RoleOut *r, PscDevice *device, const char *dir, uint32_t n, bool persist)
{
  g_autoptr(GError) error = NULL;
  PscCacheOptions opts = PSC_CACHE_OPTIONS_INIT;
  if (persist)
    {
      opts.cache_directory = dir;
      opts.save_interval = G_MAXUINT;
    }
  BenchObjects o;
  uint64_t t_setup = now_ns ();
  g_autoptr(PscCache) cache = async_cache_new_full (device, &opts, &o);
  r->setup_ms = (double) (now_ns () - t_setup) / 1e6;
  if (persist && psc_cache_get_cache_directory (cache) == NULL)
    {
      ROLE_FAIL (r, "the cache refused %s as its directory", dir);
      return;
    }
  AsyncInfo *infos = async_infos_new (PHASE_WARM_START, n, &o);

  uint32_t made = 0;
  uint64_t t0 = now_ns ();
  for (uint32_t i = 0; i < n; i++)
    {
      VkPipeline p = psc_cache_get_graphics_pipeline (cache, &infos[i].ci, &error);
      if (p == VK_NULL_HANDLE)
        {
          if (r->ok)
            ROLE_FAIL (r, "pipeline %u: %s", i, error ? error->message : "null");
          g_clear_error (&error);
        }
      else
        made++;
    }
  r->ms = (double) (now_ns () - t0) / 1e6;
  free (infos);

  if (psc_cache_get_counter (cache, PSC_OBJECT_KIND_GRAPHICS_PIPELINE, PSC_COUNTER_ENTRIES) != n && r->ok)
    ROLE_FAIL (r, "%u of %u pipelines made, not %u distinct entries", made, n, n);
  psc_cache_close (cache, 0);   /* saves the driver file (cold, warm) */

  g_autoptr(PscStats) st = psc_cache_get_stats (cache);
  r->saves = psc_stats_get_persist (st, PSC_PERSIST_COUNTER_SAVES);
  r->files_loaded = psc_stats_get_persist (st, PSC_PERSIST_COUNTER_DRIVER_FILES_LOADED);
  r->bytes_loaded = psc_stats_get_persist (st, PSC_PERSIST_COUNTER_DRIVER_BYTES_LOADED);
  r->rejected = psc_stats_get_persist (st, PSC_PERSIST_COUNTER_REJECTED_TOTAL);
  r->blob_bytes = psc_stats_get_persist (st, PSC_PERSIST_COUNTER_DRIVER_BYTES_SAVED);
  if (persist)
    {
      g_autofree char *file = find_driver_file (dir);
      r->file_bytes = file_size (file);
    }
  if (!persist && psc_stats_get_persistence_enabled (st) && r->ok)
    ROLE_FAIL (r, "persistence is on in a cache given no directory");
  if (strcmp (r->role, "cold") == 0 && r->ok)
    {
      if (r->saves != 1)
        ROLE_FAIL (r, "cold saved %" G_GUINT64_FORMAT " files, not 1", r->saves);
      else if (r->file_bytes == 0)
        ROLE_FAIL (r, "cold left no driver file in %s", dir);
      else if (r->files_loaded != 0)
        ROLE_FAIL (r, "cold loaded a driver file: the directory was not empty");
    }
  if (strcmp (r->role, "warm") == 0 && r->ok)
    {
      if (r->files_loaded != 1)
        ROLE_FAIL (r, "warm loaded %" G_GUINT64_FORMAT " driver files, not 1", r->files_loaded);
      else if (r->rejected != 0)
        ROLE_FAIL (r, "warm rejected %" G_GUINT64_FORMAT " files or blobs", r->rejected);
    }
}

/* driver: the floor, raw Vulkan on the same blob. */
static void
role_driver (RoleOut *r, PscDevice *device, const char *dir, uint32_t n)
{
  g_autoptr(GError) error = NULL;
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

  /* Shader modules and layout from a cache without persistence. */
  BenchObjects o;
  g_autoptr(PscCache) cache = async_cache_new (device, 1, 0, &o);
  AsyncInfo *infos = async_infos_new (PHASE_WARM_START, n, &o);

  uint64_t t_setup = now_ns ();
  g_autofree char *path = find_driver_file (dir);
  g_autofree char *data = NULL;
  gsize len = 0;
  if (path == NULL || !g_file_get_contents (path, &data, &len, &error))
    {
      ROLE_FAIL (r, "no driver file in %s%s%s", dir, error ? ": " : "",
                 error ? error->message : "");
      free (infos);
      return;
    }
  r->file_bytes = len;
  PscDeviceIdentity id;
  bench_device_identity (device, &id);
  uint8_t *blob = NULL;
  size_t blob_len = 0;
  PscFileReason reason = psc_driver_file_read ((const uint8_t *) data, len, &id,
                                               PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                                               &blob, &blob_len, NULL);
  if (reason != PSC_FILE_OK)
    {
      ROLE_FAIL (r, "%s: %s", path, psc_file_reason_name (reason));
      free (infos);
      return;
    }
  r->blob_bytes = blob_len;
  VkPipelineCacheCreateInfo pci = {
    .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
    .initialDataSize = blob_len, .pInitialData = blob };
  VkPipelineCache pc = VK_NULL_HANDLE;
  VkResult vr = create_pc (dinfo->device, &pci, dinfo->allocator, &pc);
  free (blob);
  r->setup_ms = (double) (now_ns () - t_setup) / 1e6;
  if (vr != VK_SUCCESS)
    {
      ROLE_FAIL (r, "vkCreatePipelineCache with the file's data: VkResult %d", (int) vr);
      free (infos);
      return;
    }

  VkPipeline *out = calloc (n, sizeof *out);
  VkResult *results = calloc (n, sizeof *results);
  if (!out || !results)
    die ("out of memory", NULL);
  uint64_t t0 = now_ns ();
  for (uint32_t i = 0; i < n; i++)
    results[i] = create_gp (dinfo->device, pc, 1, &infos[i].ci, dinfo->allocator, &out[i]);
  r->ms = (double) (now_ns () - t0) / 1e6;
  for (uint32_t i = 0; i < n; i++)
    {
      if ((results[i] != VK_SUCCESS || out[i] == VK_NULL_HANDLE) && r->ok)
        ROLE_FAIL (r, "raw pipeline %u: VkResult %d", i, (int) results[i]);
      if (out[i] != VK_NULL_HANDLE)
        destroy_p (dinfo->device, out[i], dinfo->allocator);
    }
  destroy_pc (dinfo->device, pc, dinfo->allocator);
  free (out);
  free (results);
  free (infos);
}

int
bench_warm_role (int argc, char **argv)
{
  uint32_t n = 0;
  if (argc != 5 || !parse_u32 (argv[4], &n) || n == 0)
    {
      fprintf (stderr, "usage: psc-bench warm-role ROLE DIR P (run by psc-bench warm)\n");
      return 2;
    }
  const char *role = argv[2], *dir = argv[3];
  bool cache_role = strcmp (role, "cold") == 0 || strcmp (role, "warm") == 0;
  bool implicit = strcmp (role, "implicit-fill") == 0 || strcmp (role, "implicit") == 0;
  if (!cache_role && !implicit && strcmp (role, "driver") != 0)
    {
      fprintf (stderr, "psc-bench warm-role: unknown role \"%s\"\n", role);
      return 2;
    }
  RoleOut r = { .role = role, .ok = true };
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    {
      ROLE_FAIL (&r, "device: %s", error->message);
      return role_print (&r);
    }
  if (strcmp (role, "driver") == 0)
    role_driver (&r, device, dir, n);
  else
    role_cache (&r, device, dir, n, cache_role);
  return role_print (&r);
}

/* ---- the parent ---- */

/* The number after "key": in a JSON line; NAN when absent. */
static double
json_number (const char *line, const char *key)
{
  char pat[64];
  snprintf (pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr (line, pat);
  if (p == NULL)
    return NAN;
  p += strlen (pat);
  char *end = NULL;
  double v = g_ascii_strtod (p, &end);
  return end == p ? NAN : v;
}

typedef struct {
  bool ok;
  double ms, setup_ms, saves, files_loaded, rejected, blob_bytes, file_bytes;
} RoleResult;

/* Runs `exe warm-role role dir n` with the role's environment and parses
 * its line. implicit_dir: the driver disk cache directory of implicit*. */
static RoleResult
run_role (const char *exe, const char *role, const char *dir, const char *implicit_dir,
          uint32_t n)
{
  RoleResult res = { .ok = false, .ms = NAN };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  /* The library's knobs must not move, disable or cap anything. */
  g_subprocess_launcher_unsetenv (l, "PSOCACHE_DIR");
  g_subprocess_launcher_unsetenv (l, "PSOCACHE_DISABLE");
  g_subprocess_launcher_unsetenv (l, "PSOCACHE_MAX_SIZE");
  g_subprocess_launcher_setenv (l, "__GL_SHADER_DISK_CACHE_SKIP_CLEANUP", "1", TRUE);
  if (g_str_has_prefix (role, "implicit"))
    {
      g_subprocess_launcher_unsetenv (l, "MESA_SHADER_CACHE_DISABLE");
      g_subprocess_launcher_unsetenv (l, "MESA_GLSL_CACHE_DISABLE");
      g_subprocess_launcher_setenv (l, "MESA_SHADER_CACHE_DIR", implicit_dir, TRUE);
      g_subprocess_launcher_setenv (l, "__GL_SHADER_DISK_CACHE", "1", TRUE);
      g_subprocess_launcher_setenv (l, "__GL_SHADER_DISK_CACHE_PATH", implicit_dir, TRUE);
      dir = implicit_dir;
    }
  else
    {
      g_subprocess_launcher_setenv (l, "MESA_SHADER_CACHE_DISABLE", "true", TRUE);
      g_subprocess_launcher_setenv (l, "__GL_SHADER_DISK_CACHE", "0", TRUE);
      g_subprocess_launcher_unsetenv (l, "MESA_SHADER_CACHE_DIR");
      g_subprocess_launcher_unsetenv (l, "__GL_SHADER_DISK_CACHE_PATH");
    }
  char count[16];
  snprintf (count, sizeof count, "%u", n);
  g_autoptr(GSubprocess) sp = g_subprocess_launcher_spawn (l, &error, exe, "warm-role", role,
                                                           dir, count, NULL);
  g_autofree char *out = NULL;
  if (sp == NULL || !g_subprocess_communicate_utf8 (sp, NULL, NULL, &out, NULL, &error))
    {
      fprintf (stderr, "psc-bench warm: %s: %s\n", role, error->message);
      return res;
    }
  const char *line = out ? strstr (out, "{\"role\":") : NULL;
  if (line == NULL)
    {
      fprintf (stderr, "psc-bench warm: %s: no result line (exit status %d)\n", role,
               g_subprocess_get_if_exited (sp) ? g_subprocess_get_exit_status (sp) : -1);
      return res;
    }
  res.ms = json_number (line, "ms");
  res.setup_ms = json_number (line, "setup_ms");
  res.saves = json_number (line, "saves");
  res.files_loaded = json_number (line, "files_loaded");
  res.rejected = json_number (line, "rejected");
  res.blob_bytes = json_number (line, "blob_bytes");
  res.file_bytes = json_number (line, "file_bytes");
  res.ok = strstr (line, "\"ok\":true") != NULL && g_subprocess_get_successful (sp) &&
           isfinite (res.ms);
  const char *why = strstr (line, "\"why\":\"");
  fprintf (stderr, "psc-bench warm:   %-13s %9.2f ms (setup %.1f ms)%s%.*s\n", role, res.ms,
           res.setup_ms, res.ok ? "" : "  FAILED: ",
           res.ok || why == NULL ? 0 : (int) strcspn (why + 7, "\"\n"),
           why ? why + 7 : "");
  return res;
}

static int
rm_entry (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void) sb;
  (void) flag;
  (void) ftw;
  return remove (path);
}

static guint64 du_total;

static int
du_entry (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void) path;
  (void) ftw;
  if (flag == FTW_F)
    du_total += (guint64) sb->st_size;
  return 0;
}

/* Bytes in the regular files under dir. */
static guint64
dir_bytes (const char *dir)
{
  du_total = 0;
  if (nftw (dir, du_entry, 16, FTW_PHYS) != 0)
    return 0;
  return du_total;
}

static double
median_or_nan (double *v, size_t n)
{
  return n ? median (v, n) : NAN;
}

/* A JSON number, or null when not finite. */
static const char *
num (char *buf, size_t size, const char *fmt, double v)
{
  if (!isfinite (v))
    return "null";
  snprintf (buf, size, fmt, v);
  return buf;
}

enum { ROLE_WARM, ROLE_DRIVER, ROLE_IMPLICIT, ROLE_COLD, N_ROLES };
static const char *const role_names[N_ROLES] = { "warm", "driver", "implicit", "cold" };

int
bench_warm (int argc, char **argv)
{
  uint32_t pipelines = 0, reps = 3;
  const char *keep = NULL;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok;
      if (value == NULL)
        ok = false;
      else if (strcmp (argv[i], "--pipelines") == 0)
        ok = parse_u32 (value, &pipelines) && pipelines >= 1;
      else if (strcmp (argv[i], "--reps") == 0)
        ok = parse_u32 (value, &reps) && reps >= 1 && reps <= 1000;
      else if (strcmp (argv[i], "--keep") == 0)
        ok = (keep = value) != NULL;
      else
        ok = false;
      if (!ok)
        {
          fprintf (stderr, "usage: psc-bench warm [--pipelines P] [--reps R]\n");
          return 2;
        }
      i++;
    }

  /* This process only names the device; the children measure. */
  setenv ("MESA_SHADER_CACHE_DISABLE", "true", 1);
  setenv ("__GL_SHADER_DISK_CACHE", "0", 1);
  setenv ("__GL_SHADER_DISK_CACHE_SKIP_CLEANUP", "1", 1);
  char driver[2048];
  bool llvmpipe;
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
    if (device == NULL)
      die ("device", error);
    llvmpipe = strstr (psc_device_get_name (device), "llvmpipe") != NULL;
    driver_string (device, driver, sizeof driver);
  }
  uint32_t n = pipelines ? pipelines : (llvmpipe ? 32 : 200);
  fprintf (stderr, "psc-bench warm: device \"%s\", %u pipelines, %u repetitions, every "
           "measurement in a fresh process\n", driver, n, reps);
  if (llvmpipe)
    fprintf (stderr, "psc-bench warm: llvmpipe (lavapipe): its VkPipelineCache data is a "
             "bare 32-byte header (nothing to warm: warm equals cold up to noise) and its "
             "compile costs are nothing like a GPU driver's, so these figures prove the "
             "method, not the speed-up; measure on real hardware\n");

  g_autoptr(GError) error = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", &error);
  if (exe == NULL)
    die ("/proc/self/exe", error);
  g_autofree char *root = g_dir_make_tmp ("psc-bench-warm-XXXXXX", &error);
  if (root == NULL)
    die ("temporary directory", error);

  size_t cap = 2 * (size_t) reps;
  double *samples[N_ROLES];
  size_t count[N_ROLES] = { 0 };
  for (int k = 0; k < N_ROLES; k++)
    samples[k] = calloc (cap, sizeof (double));
  double setup_warm = 0, setup_driver = 0, blob_bytes = NAN, file_bytes = NAN;
  int failures = 0;
  GString *order = g_string_new (NULL);
  static const int abba[2][6] = {
    { ROLE_WARM, ROLE_DRIVER, ROLE_IMPLICIT, ROLE_IMPLICIT, ROLE_DRIVER, ROLE_WARM },
    { ROLE_IMPLICIT, ROLE_DRIVER, ROLE_WARM, ROLE_WARM, ROLE_DRIVER, ROLE_IMPLICIT },
  };

  for (uint32_t r = 0; r < reps; r++)
    {
      g_autofree char *rep = g_strdup_printf ("%s/rep%u", root, r);
      g_autofree char *dir = g_build_filename (rep, "psocache", NULL);
      g_autofree char *implicit = g_build_filename (rep, "driver-disk-cache", NULL);
      if (g_mkdir_with_parents (dir, 0700) != 0 || g_mkdir_with_parents (implicit, 0700) != 0)
        die ("mkdir", NULL);
      fprintf (stderr, "psc-bench warm: repetition %u\n", r);

      RoleResult c = run_role (exe, "cold", dir, implicit, n);
      g_string_append_printf (order, "%scold,implicit-fill", r ? "|" : "");
      if (!c.ok)
        failures++;
      else
        {
          samples[ROLE_COLD][count[ROLE_COLD]++] = c.ms;
          blob_bytes = c.blob_bytes;
          file_bytes = c.file_bytes;
        }
      if (r == 0 && keep != NULL && c.ok)
        {
          g_autofree char *src = find_driver_file (dir);
          g_autofree char *contents = NULL;
          gsize len = 0;
          g_autofree char *base = src ? g_path_get_basename (src) : NULL;
          g_autofree char *dst = base ? g_build_filename (keep, base, NULL) : NULL;
          if (src == NULL || g_mkdir_with_parents (keep, 0700) != 0 ||
              !g_file_get_contents (src, &contents, &len, &error) ||
              !g_file_set_contents (dst, contents, (gssize) len, &error))
            {
              fprintf (stderr, "psc-bench warm: --keep %s: %s\n", keep,
                       error ? error->message : "failed");
              g_clear_error (&error);
              failures++;
            }
          else
            fprintf (stderr, "psc-bench warm: kept the cold driver file as %s\n", dst);
        }
      RoleResult f = run_role (exe, "implicit-fill", dir, implicit, n);
      if (!f.ok)
        failures++;
      fprintf (stderr, "psc-bench warm:   (the driver's disk cache holds %" G_GUINT64_FORMAT
               " bytes after implicit-fill)\n", dir_bytes (implicit));

      for (int k = 0; k < 6; k++)
        {
          int role = abba[r % 2][k];
          g_string_append_printf (order, ",%s", role_names[role]);
          RoleResult m = run_role (exe, role_names[role], dir, implicit, n);
          if (!m.ok)
            {
              failures++;
              continue;
            }
          samples[role][count[role]++] = m.ms;
          if (role == ROLE_WARM)
            {
              setup_warm += m.setup_ms;
              if (m.saves != 0)
                fprintf (stderr, "psc-bench warm:   (warm rewrote the driver file at close: "
                         "%.0f save)\n", m.saves);
            }
          if (role == ROLE_DRIVER)
            setup_driver += m.setup_ms;
        }
    }
  if (nftw (root, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    fprintf (stderr, "psc-bench warm: could not remove %s\n", root);

  double med[N_ROLES];
  for (int k = 0; k < N_ROLES; k++)
    {
      fprintf (stderr, "psc-bench warm: %-8s ms:", role_names[k]);
      for (size_t j = 0; j < count[k]; j++)
        fprintf (stderr, " %.2f", samples[k][j]);
      med[k] = median_or_nan (samples[k], count[k]);
      fprintf (stderr, "  (median %.2f)\n", med[k]);
      free (samples[k]);
    }
  if (count[ROLE_WARM] && count[ROLE_DRIVER])
    fprintf (stderr, "psc-bench warm: untimed setup, mean: warm cache creation (loads the file) "
             "%.2f ms, driver floor's read + validate + vkCreatePipelineCache %.2f ms\n",
             setup_warm / (double) count[ROLE_WARM], setup_driver / (double) count[ROLE_DRIVER]);

  char b[12][32];
  printf ("{\"bench\":\"warm\",\"pipelines\":%u,\"cold_ms\":%s,\"warm_ms\":%s,"
          "\"driver_warm_ms\":%s,\"implicit_ms\":%s,\"overhead\":%s,\"speedup\":%s,"
          "\"vs_implicit\":%s,\"blob_bytes\":%s,\"file_bytes\":%s,\"order\":\"%s\","
          "\"reps\":%u,\"driver\":\"%s\"}\n",
          n, num (b[0], 32, "%.2f", med[ROLE_COLD]), num (b[1], 32, "%.2f", med[ROLE_WARM]),
          num (b[2], 32, "%.2f", med[ROLE_DRIVER]), num (b[3], 32, "%.2f", med[ROLE_IMPLICIT]),
          num (b[4], 32, "%.3f", med[ROLE_WARM] / med[ROLE_DRIVER]),
          num (b[5], 32, "%.2f", med[ROLE_COLD] / med[ROLE_WARM]),
          num (b[6], 32, "%.2f", med[ROLE_IMPLICIT] / med[ROLE_WARM]),
          num (b[7], 32, "%.0f", blob_bytes), num (b[8], 32, "%.0f", file_bytes),
          order->str, reps, driver);
  fflush (stdout);
  g_string_free (order, TRUE);
  if (failures)
    fprintf (stderr, "psc-bench warm: %d measurement(s) failed their checks\n", failures);
  return failures ? 1 : 0;
}
