/* bench-disk.c: psc-bench disk: load + validate throughput of a driver file
 * (persistent layer 1) and zstd's ratio on real driver data.
 *
 *   psc-bench disk [--source DRIVER-FILE] [--mib M]
 *
 * The real data is the Vulkan blob of --source (a driver file, e.g. one
 * `psc-bench warm --keep DIR` kept), or, without it, the blob this process
 * gets by creating 200 pipelines of the benchmark family and calling
 * psc_cache_save_to_bytes (its Vulkan data extracted with
 * psc_driver_file_read). An M MiB Vulkan payload is built by repeating that
 * blob, serialized with psc_driver_file_write (zstd level 3, the library's
 * DRIVER_ZSTD_LEVEL) into a temporary file, and timed REPS times (median):
 * read the whole file (g_file_get_contents, page cache warm: one untimed
 * read first; the process's free heap returned to the system before each,
 * so the buffers are fresh memory as in a starting process) +
 * psc_driver_file_read against the device's identity with
 * max_raw = the payload size (the whole validation: structure, cap,
 * checksum, platform, identity, decompression, the Vulkan header). The same
 * for a payload of the same size that is random after the real blob's
 * Vulkan header (incompressible), for contrast. zstd_ratio is the real
 * blob's alone (raw bytes / compressed payload bytes, not repeated).
 * MB/s = raw Vulkan megabytes (1e6 bytes) validated per second.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench.h"
#include "bench-family.h"

#include <glib/gstdio.h>

#include <malloc.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* psc-persist.c's DRIVER_ZSTD_LEVEL (what the library writes). */
#define BENCH_ZSTD_LEVEL 3
#define REPS 7
#define SAVE_PIPELINES 200

static bool
identity_reason (PscFileReason r)
{
  return r == PSC_FILE_VENDOR || r == PSC_FILE_DEVICE || r == PSC_FILE_DRIVER_VERSION ||
         r == PSC_FILE_UUID || r == PSC_FILE_VULKAN_HEADER;
}

/* The Vulkan blob of a driver file (validated against *id; a file of
 * another device is taken with its own identity, written to *id). */
static uint8_t *
blob_from_file (const char *path, PscDeviceIdentity *id, size_t *len)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents (path, &data, &size, &error))
    die (path, error);
  uint8_t *blob = NULL;
  PscDriverFileInfo info;
  PscFileReason r = psc_driver_file_read ((const uint8_t *) data, size, id,
                                          PSC_DRIVER_FILE_DEFAULT_MAX_RAW, &blob, len, &info);
  if (identity_reason (r))
    {
      fprintf (stderr, "psc-bench disk: %s is for another device (%s): measuring it with "
               "its own identity\n", path, psc_file_reason_name (r));
      r = psc_driver_file_read ((const uint8_t *) data, size, NULL,
                                PSC_DRIVER_FILE_DEFAULT_MAX_RAW, &blob, len, &info);
      if (r == PSC_FILE_OK)
        *id = info.identity;
    }
  if (r != PSC_FILE_OK)
    {
      fprintf (stderr, "psc-bench disk: %s: %s (%s)\n", path, psc_file_reason_name (r),
               psc_file_reason_describe (r));
      exit (1);
    }
  return blob;
}

/* The Vulkan blob of SAVE_PIPELINES family pipelines, through the bytes API. */
static uint8_t *
blob_from_cache (PscDevice *device, const PscDeviceIdentity *id, size_t *len)
{
  g_autoptr(GError) error = NULL;
  BenchObjects o;
  g_autoptr(PscCache) cache = async_cache_new (device, 0, 0, &o);
  AsyncInfo *infos = async_infos_new (PHASE_WARM_START, SAVE_PIPELINES, &o);
  uint64_t t0 = now_ns ();
  for (uint32_t i = 0; i < SAVE_PIPELINES; i++)
    if (!psc_cache_get_graphics_pipeline (cache, &infos[i].ci, &error))
      die ("pipeline", error);
  fprintf (stderr, "psc-bench disk: %u pipelines created in %.1f ms\n", SAVE_PIPELINES,
           (double) (now_ns () - t0) / 1e6);
  free (infos);
  g_autoptr(GBytes) bytes = psc_cache_save_to_bytes (cache, &error);
  if (bytes == NULL)
    die ("psc_cache_save_to_bytes", error);
  gsize size = 0;
  const uint8_t *data = g_bytes_get_data (bytes, &size);
  uint8_t *blob = NULL;
  PscFileReason r = psc_driver_file_read (data, size, id, PSC_DRIVER_FILE_DEFAULT_MAX_RAW,
                                          &blob, len, NULL);
  if (r != PSC_FILE_OK)
    {
      fprintf (stderr, "psc-bench disk: psc_cache_save_to_bytes gave a file that does not "
               "validate: %s\n", psc_file_reason_name (r));
      exit (1);
    }
  return blob;
}

/* Serializes payload into path; returns the file's size. */
static size_t
write_file (const char *path, const PscDeviceIdentity *id, const uint8_t *payload, size_t len,
            double *ms)
{
  g_autoptr(GError) error = NULL;
  uint8_t *file = NULL;
  size_t file_len = 0;
  uint64_t t0 = now_ns ();
  PscFileReason r = psc_driver_file_write (id, payload, len, true, BENCH_ZSTD_LEVEL,
                                           (uint64_t) (g_get_real_time () / G_USEC_PER_SEC),
                                           &file, &file_len);
  *ms = (double) (now_ns () - t0) / 1e6;
  if (r != PSC_FILE_OK)
    {
      fprintf (stderr, "psc-bench disk: psc_driver_file_write: %s\n", psc_file_reason_name (r));
      exit (1);
    }
  if (!g_file_set_contents (path, (const char *) file, (gssize) file_len, &error))
    die (path, error);
  free (file);
  return file_len;
}

/* Median ms of REPS loads + validations of path (one untimed first). */
/* Reads a whole file as the library does (psc-driver-store.c): one read
 * into a buffer of psc_file_buffer_new (huge-page advised above 2 MiB). */
static uint8_t *
read_like_library (const char *path, size_t *size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0)
    die (path, NULL);
  uint8_t *buf = psc_file_buffer_new ((size_t) st.st_size);
  size_t got = 0;
  while (buf != NULL && got < (size_t) st.st_size)
    {
      ssize_t n = read (fd, buf + got, (size_t) st.st_size - got);
      if (n <= 0)
        die (path, NULL);
      got += (size_t) n;
    }
  close (fd);
  if (buf == NULL)
    die ("out of memory", NULL);
  *size = got;
  return buf;
}

static double
time_load (const char *path, const PscDeviceIdentity *id, size_t raw_len)
{
  double ms[REPS];
  for (int k = -1; k < REPS; k++)
    {
      g_autoptr(GError) error = NULL;
      uint8_t *data = NULL;
      size_t size = 0;
      uint8_t *blob = NULL;
      size_t blob_len = 0;
      /* Fresh memory for the file and the Vulkan data, as in a starting
       * process: without this, glibc reuses the previous repetition's heap
       * pages below its 32 MiB mmap threshold (no page faults) and maps
       * fresh ones above it, a cliff of about 8x on this VM. */
      malloc_trim (0);
      uint64_t t0 = now_ns ();
      data = read_like_library (path, &size);
      PscFileReason r = psc_driver_file_read ((const uint8_t *) data, size, id, raw_len,
                                              &blob, &blob_len, NULL);
      uint64_t t1 = now_ns ();
      if (r != PSC_FILE_OK || blob_len != raw_len)
        {
          fprintf (stderr, "psc-bench disk: %s does not validate: %s (%zu of %zu bytes)\n",
                   path, psc_file_reason_name (r), blob_len, raw_len);
          exit (1);
        }
      opaque (blob);
      free (blob);
      free (data);
      if (k >= 0)
        ms[k] = (double) (t1 - t0) / 1e6;
    }
  return median (ms, REPS);
}

int
bench_disk (int argc, char **argv)
{
  const char *source = NULL;
  uint32_t mib = 64;
  for (int i = 2; i < argc; i++)
    {
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok;
      if (value == NULL)
        ok = false;
      else if (strcmp (argv[i], "--source") == 0)
        ok = (source = value) != NULL;
      else if (strcmp (argv[i], "--mib") == 0)
        /* psc_driver_file_write refuses blobs above 4 * 64 MiB. */
        ok = parse_u32 (value, &mib) && mib >= 1 && mib <= 256;
      else
        ok = false;
      if (!ok)
        {
          fprintf (stderr, "usage: psc-bench disk [--source DRIVER-FILE] [--mib M]\n");
          return 2;
        }
      i++;
    }

  setenv ("MESA_SHADER_CACHE_DISABLE", "true", 1);
  setenv ("__GL_SHADER_DISK_CACHE", "0", 1);
  setenv ("__GL_SHADER_DISK_CACHE_SKIP_CLEANUP", "1", 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(PscDevice) device = psc_device_new_headless (PSC_DEVICE_FLAGS_NONE, &error);
  if (device == NULL)
    die ("device", error);
  char driver[2048];
  driver_string (device, driver, sizeof driver);
  bool llvmpipe = strstr (psc_device_get_name (device), "llvmpipe") != NULL;
  PscDeviceIdentity id;
  bench_device_identity (device, &id);

  size_t blob_len = 0;
  uint8_t *blob = source ? blob_from_file (source, &id, &blob_len)
                         : blob_from_cache (device, &id, &blob_len);
  fprintf (stderr, "psc-bench disk: device \"%s\"; real blob %zu bytes from %s\n", driver,
           blob_len, source ? source : "psc_cache_save_to_bytes");
  if (llvmpipe || blob_len <= 32)
    fprintf (stderr, "psc-bench disk: %s: the blob is %s, so the ratio and the repeated "
             "payload say nothing about real driver data; use --source with a driver file "
             "from real hardware\n", llvmpipe ? "llvmpipe (lavapipe)" : "this driver",
             blob_len <= 32 ? "a bare 32-byte Vulkan header" : "lavapipe's");

  /* zstd on the real blob alone. */
  uint8_t *file = NULL;
  size_t file_len = 0;
  if (psc_driver_file_write (&id, blob, blob_len, true, BENCH_ZSTD_LEVEL, 0, &file, &file_len) !=
      PSC_FILE_OK)
    die ("psc_driver_file_write (the real blob)", NULL);
  PscDriverFileInfo info;
  if (psc_driver_file_read_header (file, file_len, &info) != PSC_FILE_OK)
    die ("psc_driver_file_read_header", NULL);
  double ratio = (double) blob_len / (double) info.payload_size;
  free (file);

  /* The M MiB payloads: the real blob repeated; random after its header. */
  const size_t raw = (size_t) mib << 20;
  uint8_t *payload = malloc (raw);
  if (payload == NULL)
    die ("out of memory", NULL);
  for (size_t at = 0; at < raw; at += blob_len)
    memcpy (payload + at, blob, MIN (blob_len, raw - at));
  size_t header = blob_len >= 4 ? psc_le32 (blob) : 32;
  header = MIN (MAX (header, (size_t) 32), MIN (blob_len, raw));

  g_autofree char *dir = g_dir_make_tmp ("psc-bench-disk-XXXXXX", &error);
  if (dir == NULL)
    die ("temporary directory", error);
  g_autofree char *real_path = g_build_filename (dir, "repeated.pscache", NULL);
  g_autofree char *random_path = g_build_filename (dir, "random.pscache", NULL);

  double write_ms = 0, random_write_ms = 0;
  size_t real_file = write_file (real_path, &id, payload, raw, &write_ms);
  double t = time_load (real_path, &id, raw);

  for (size_t at = header; at < raw; at += 4)
    {
      uint32_t v = rng ();
      memcpy (payload + at, &v, MIN ((size_t) 4, raw - at));
    }
  size_t random_file = write_file (random_path, &id, payload, raw, &random_write_ms);
  double t_random = time_load (random_path, &id, raw);
  free (payload);
  free (blob);
  g_remove (real_path);
  g_remove (random_path);
  g_rmdir (dir);

  const double mb = (double) raw / 1e6;
  fprintf (stderr, "psc-bench disk: repeated payload: %zu raw -> %zu file bytes (%.1fx), "
           "serialized in %.1f ms, loaded + validated in %.2f ms (median of %d)\n",
           raw, real_file, (double) raw / (double) real_file, write_ms, t, REPS);
  fprintf (stderr, "psc-bench disk: random payload: %zu raw -> %zu file bytes, serialized "
           "in %.1f ms, loaded + validated in %.2f ms (median of %d)\n",
           raw, random_file, random_write_ms, t_random, REPS);
  printf ("{\"bench\":\"disk\",\"file_mib\":%u,\"file_bytes\":%zu,\"load_validate_ms\":%.3f,"
          "\"load_validate_mb_s\":%.0f,\"random_mb_s\":%.0f,\"zstd_ratio\":%.3f,"
          "\"source_bytes\":%zu,\"payload\":\"real blob repeated\",\"driver\":\"%s\"}\n",
          mib, real_file, t, mb / (t / 1e3), mb / (t_random / 1e3), ratio, blob_len, driver);
  return 0;
}
