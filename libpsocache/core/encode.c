/* encode.c: the key writer, the key hash, decode storage and the failure
 * helpers shared by the encoders (DESIGN decisions 5 and 9).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "keys.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Plain XXH3_64bits: no seed, no custom secret (the benchmark's floor uses
 * exactly this function). */
uint64_t
psc_key_hash (const void *data, size_t len)
{
  return XXH3_64bits (data, len);
}

void *
psc_build_alloc (size_t size)
{
  return calloc (1, size);
}

size_t psc_sampler_build_size (void) { return sizeof (PscSamplerBuild); }
size_t psc_set_layout_build_size (void) { return sizeof (PscSetLayoutBuild); }
size_t psc_pipeline_layout_build_size (void) { return sizeof (PscPipelineLayoutBuild); }
size_t psc_render_pass_build_size (void) { return sizeof (PscRenderPassBuild); }
size_t psc_graphics_build_size (void) { return sizeof (PscGraphicsBuild); }
size_t psc_compute_build_size (void) { return sizeof (PscComputeBuild); }

/* ---------------------------------------------------------------------------
 * Failure helpers.
 */
#define PATH_MAX_LEN sizeof (((PscCoreError *) 0)->path)

const char *
psc_pathf (char *buf, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, PATH_MAX_LEN, fmt, ap);
  va_end (ap);
  return buf;
}

#define FORMAT_PATH(buf, fmt)                                                    \
  char buf[PATH_MAX_LEN];                                                        \
  do {                                                                           \
    va_list ap_;                                                                 \
    va_start (ap_, fmt);                                                         \
    vsnprintf (buf, sizeof buf, fmt, ap_);                                       \
    va_end (ap_);                                                                \
  } while (0)

PscStatus
psc_fail_at (PscCoreError *err, PscStatus status, const char *detail,
             const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, status, path, "%s", detail);
}

PscStatus
psc_fail_enum (PscCoreError *err, int32_t value, const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, path, "unsupported value %d", (int) value);
}

PscStatus
psc_fail_flags (PscCoreError *err, uint32_t flags, const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, path, "unsupported flags 0x%x",
                        (unsigned) flags);
}

PscStatus
psc_fail_stype (PscCoreError *err, uint32_t stype, const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, PSC_STATUS_UNSUPPORTED, path, "%u (unsupported structure)",
                        (unsigned) stype);
}

PscStatus
psc_fail_capacity (PscCoreError *err, uint64_t value, uint64_t max, const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, PSC_STATUS_CAPACITY, path, "%llu > %llu",
                        (unsigned long long) value, (unsigned long long) max);
}

PscStatus
psc_fail_key_full (PscCoreError *err, const PscKeyWriter *w)
{
  return psc_core_fail (err, PSC_STATUS_CAPACITY, "",
                        "canonical key does not fit the %zu-byte key buffer", w->cap);
}

PscStatus
psc_fail_foreign (PscCoreError *err, const char *path_fmt, ...)
{
  FORMAT_PATH (path, path_fmt);
  return psc_core_fail (err, PSC_STATUS_FOREIGN_HANDLE, path,
                        "handle not issued by this cache (or already destroyed)");
}

PscStatus
psc_fail_detailf (PscCoreError *err, PscStatus status, const char *path,
                  const char *detail_fmt, ...)
{
  char detail[sizeof (((PscCoreError *) 0)->message)];
  va_list ap;
  va_start (ap, detail_fmt);
  vsnprintf (detail, sizeof detail, detail_fmt, ap);
  va_end (ap);
  return psc_core_fail (err, status, path, "%s", detail);
}

PscStatus
psc_check_feedback (const VkPipelineCreationFeedbackCreateInfo *fb, uint32_t stage_count,
                    uint32_t index, PscCoreError *err)
{
  if (fb->pPipelineCreationFeedback == NULL)
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "",
                          "pNext[%u].pPipelineCreationFeedback: NULL", index);
  if (fb->pipelineStageCreationFeedbackCount != 0 &&
      (fb->pipelineStageCreationFeedbackCount != stage_count ||
       fb->pPipelineStageCreationFeedbacks == NULL))
    return psc_core_fail (err, PSC_STATUS_INVALID_ARGUMENT, "",
                          "pNext[%u].pipelineStageCreationFeedbackCount: %u, not 0 or the "
                          "stage count %u (with an array)", index,
                          fb->pipelineStageCreationFeedbackCount, stage_count);
  return PSC_STATUS_OK;
}
