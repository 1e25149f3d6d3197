/* errors.c: request failures with field paths (DESIGN decision 9).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Messages are bounded on purpose: a request failure never allocates.
 * (GCC warns about the truncation it sees; clang has no such warning.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

PscStatus
psc_core_fail (PscCoreError *err, PscStatus status, const char *path,
               const char *fmt, ...)
{
  if (err == NULL)
    return status;

  err->status = status;
  err->vk_result = VK_SUCCESS;
  snprintf (err->path, sizeof err->path, "%s", path ? path : "");

  char detail[sizeof err->message];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (detail, sizeof detail, fmt, ap);
  va_end (ap);

  if (path != NULL && path[0] != '\0')
    snprintf (err->message, sizeof err->message, "%s: %s", path, detail);
  else
    snprintf (err->message, sizeof err->message, "%s", detail);
  return status;
}

const char *
psc_vk_result_name (VkResult r)
{
  switch (r)
    {
#define C(x) case x: return #x
      C (VK_SUCCESS); C (VK_NOT_READY); C (VK_TIMEOUT); C (VK_INCOMPLETE);
      C (VK_ERROR_OUT_OF_HOST_MEMORY); C (VK_ERROR_OUT_OF_DEVICE_MEMORY);
      C (VK_ERROR_INITIALIZATION_FAILED); C (VK_ERROR_DEVICE_LOST);
      C (VK_ERROR_MEMORY_MAP_FAILED); C (VK_ERROR_LAYER_NOT_PRESENT);
      C (VK_ERROR_EXTENSION_NOT_PRESENT); C (VK_ERROR_FEATURE_NOT_PRESENT);
      C (VK_ERROR_INCOMPATIBLE_DRIVER); C (VK_ERROR_TOO_MANY_OBJECTS);
      C (VK_ERROR_FORMAT_NOT_SUPPORTED); C (VK_ERROR_FRAGMENTED_POOL);
      C (VK_ERROR_UNKNOWN); C (VK_ERROR_OUT_OF_POOL_MEMORY);
      C (VK_ERROR_INVALID_EXTERNAL_HANDLE); C (VK_ERROR_FRAGMENTATION);
      C (VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
      C (VK_PIPELINE_COMPILE_REQUIRED); C (VK_ERROR_INVALID_SHADER_NV);
#undef C
    default:
      return "VkResult(unknown)";
    }
}

PscStatus
psc_core_fail_vk (PscCoreError *err, VkResult r, const char *what)
{
  psc_core_fail (err, PSC_STATUS_VULKAN, "", "%s failed: %s (%d)", what,
                 psc_vk_result_name (r), (int) r);
  if (err != NULL)
    err->vk_result = r;
  return PSC_STATUS_VULKAN;
}
