/* psc-error.h: the PSC_ERROR GError domain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__PSOCACHE_H_INSIDE__) && !defined(PSOCACHE_COMPILATION)
#error "Only <psocache/psocache.h> can be included directly."
#endif

#include <glib.h>
#include <psocache/psc-macros.h>

G_BEGIN_DECLS

/**
 * PSC_ERROR:
 *
 * Error domain for libpsocache. Errors in this domain are from the
 * [error@Psc.Error] enumeration.
 *
 * Since: 0.1
 */
#define PSC_ERROR (psc_error_quark ())

/**
 * PscError:
 * @PSC_ERROR_FAILED: an unspecified failure
 * @PSC_ERROR_INVALID_ARGUMENT: a request is malformed: a required pointer is
 *   missing, a count is inconsistent, a state that must be dynamic is static.
 *   The message names the field path.
 * @PSC_ERROR_UNSUPPORTED: a request uses a Vulkan value, flag or pNext
 *   structure the cache does not support. The message names the field path.
 * @PSC_ERROR_FOREIGN_HANDLE: a request names a shader module, layout, sampler
 *   or render pass that this cache did not issue (or that was destroyed).
 * @PSC_ERROR_CAPACITY: a fixed capacity was exceeded: too many specialization
 *   constants, bindings, attachments, or distinct keys sharing one 64-bit hash.
 * @PSC_ERROR_VULKAN: the Vulkan driver failed the call; the message carries the
 *   `VkResult`.
 * @PSC_ERROR_WRONG_THREAD: a call that mutates the cache was made from a
 *   thread other than the cache's owner thread.
 * @PSC_ERROR_NO_DEVICE: no suitable Vulkan device or loader could be found.
 * @PSC_ERROR_QUEUE_FULL: a bounded queue (compile jobs or waiters) was full
 *   and the request was not marked critical: it was skipped (and counted),
 *   nothing was queued, and no callback will come. Request it again later,
 *   or mark it %PSC_REQUEST_FLAGS_CRITICAL to create it synchronously.
 * @PSC_ERROR_CLOSED: the cache is closing or closed (see
 *   [method@Psc.Cache.close]), or it was never opened (its initialization
 *   failed or never ran, see [class@Psc.Cache]): the call started nothing.
 *   Requests still pending when a cache closes complete with this error too.
 * @PSC_ERROR_DISCARDED: a pending request was discarded before its
 *   pipeline was ready: a hot reload replaced a shader it uses. Request the
 *   pipeline again (it is compiled from the new shader).
 * @PSC_ERROR_INVALID_DATA: persistent cache data was refused: a file or
 *   bytes that are corrupt, truncated, written for another device, driver or
 *   platform, or above a size cap. The message names the reason by its
 *   stable name (see [enum@Psc.FileRejection]). The cache is unchanged.
 *   Since: 0.2
 * @PSC_ERROR_IO: persistent cache data could not be read or written (a full
 *   disk, an unwritable or unsafe directory, a symbolic link where a cache
 *   file should be). The previous file is intact. Since: 0.2
 *
 * Error codes in the %PSC_ERROR domain. Every failed request leaves the cache
 * valid and unchanged except for its counters. Later versions may add codes.
 *
 * Since: 0.1
 */
typedef enum {
  PSC_ERROR_FAILED,
  PSC_ERROR_INVALID_ARGUMENT,
  PSC_ERROR_UNSUPPORTED,
  PSC_ERROR_FOREIGN_HANDLE,
  PSC_ERROR_CAPACITY,
  PSC_ERROR_VULKAN,
  PSC_ERROR_WRONG_THREAD,
  PSC_ERROR_NO_DEVICE,
  PSC_ERROR_QUEUE_FULL,
  PSC_ERROR_CLOSED,
  PSC_ERROR_DISCARDED,
  PSC_ERROR_INVALID_DATA PSC_AVAILABLE_ENUMERATOR_IN_0_2,
  PSC_ERROR_IO PSC_AVAILABLE_ENUMERATOR_IN_0_2,
} PscError;

PSC_AVAILABLE_IN_0_1
GQuark psc_error_quark (void);

G_END_DECLS
