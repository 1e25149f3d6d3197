/* file-reason.c: the stable names and sentences of the reasons a cache file
 * is not used, and the platform code of the build target (contract in
 * file-reason.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "file-reason.h"

#include <stdlib.h>
#include <sys/mman.h>

#include <limits.h>

/* Indexed by PscFileReason; every entry is set (checked below). */
static const char *const reason_names[PSC_FILE_REASON_COUNT] = {
  [PSC_FILE_OK] = "ok",
  [PSC_FILE_EMPTY] = "empty",
  [PSC_FILE_TRUNCATED] = "truncated",
  [PSC_FILE_TRAILING_DATA] = "trailing-data",
  [PSC_FILE_BAD_MAGIC] = "bad-magic",
  [PSC_FILE_FORMAT_VERSION] = "format-version",
  [PSC_FILE_BAD_HEADER] = "bad-header",
  [PSC_FILE_PLATFORM] = "platform",
  [PSC_FILE_VENDOR] = "vendor",
  [PSC_FILE_DEVICE] = "device",
  [PSC_FILE_DRIVER_VERSION] = "driver-version",
  [PSC_FILE_UUID] = "uuid",
  [PSC_FILE_OVERSIZED] = "oversized",
  [PSC_FILE_CHECKSUM] = "checksum",
  [PSC_FILE_DECOMPRESS] = "decompress",
  [PSC_FILE_VULKAN_HEADER] = "vulkan-header",
  [PSC_FILE_DRIVER_REJECTED] = "driver-rejected",
  [PSC_FILE_BAD_RECORD] = "bad-record",
  [PSC_FILE_TORN_TAIL] = "torn-tail",
  [PSC_FILE_NOT_REGULAR] = "not-regular",
  [PSC_FILE_SYMLINK] = "symlink",
  [PSC_FILE_IO] = "io",
  [PSC_FILE_OUT_OF_MEMORY] = "out-of-memory",
  [PSC_FILE_STALE] = "stale",
};

static const char *const reason_sentences[PSC_FILE_REASON_COUNT] = {
  [PSC_FILE_OK] = "the file is valid",
  [PSC_FILE_EMPTY] = "the file is empty",
  [PSC_FILE_TRUNCATED] = "the file is shorter than its header or sizes say",
  [PSC_FILE_TRAILING_DATA] = "the file is longer than its sizes say",
  [PSC_FILE_BAD_MAGIC] = "the file is not of the expected kind",
  [PSC_FILE_FORMAT_VERSION] = "the file has a format version this library cannot read",
  [PSC_FILE_BAD_HEADER] = "a header field is out of range",
  [PSC_FILE_PLATFORM] = "the file was written on another CPU architecture or ABI",
  [PSC_FILE_VENDOR] = "the data belongs to another GPU vendor",
  [PSC_FILE_DEVICE] = "the data belongs to another GPU model",
  [PSC_FILE_DRIVER_VERSION] = "the data belongs to another driver version",
  [PSC_FILE_UUID] = "the data belongs to another pipeline cache UUID",
  [PSC_FILE_OVERSIZED] = "the data is larger than the restore cap",
  [PSC_FILE_CHECKSUM] = "the checksum does not match",
  [PSC_FILE_DECOMPRESS] = "the compressed data is damaged or has another size",
  [PSC_FILE_VULKAN_HEADER] = "the Vulkan pipeline cache header disagrees",
  [PSC_FILE_DRIVER_REJECTED] = "the driver refused the pipeline cache data",
  [PSC_FILE_BAD_RECORD] = "a damaged record was skipped",
  [PSC_FILE_TORN_TAIL] = "the log ends inside a record",
  [PSC_FILE_NOT_REGULAR] = "the path is not a regular file",
  [PSC_FILE_SYMLINK] = "the path is a symbolic link",
  [PSC_FILE_IO] = "the file could not be read",
  [PSC_FILE_OUT_OF_MEMORY] = "out of memory",
  [PSC_FILE_STALE] = "the file names content that no longer exists",
};

_Static_assert (PSC_FILE_STALE + 1 == PSC_FILE_REASON_COUNT,
                "a new reason needs a name and a sentence here");

const char *
psc_file_reason_name (PscFileReason reason)
{
  if ((unsigned) reason >= PSC_FILE_REASON_COUNT)
    return "unknown";
  return reason_names[reason];
}

const char *
psc_file_reason_describe (PscFileReason reason)
{
  if ((unsigned) reason >= PSC_FILE_REASON_COUNT)
    return "an unknown reason";
  return reason_sentences[reason];
}

/* The ELF machine number (e_machine) of the target; 0 if not listed. */
#if defined(__x86_64__)
#define PSC_ELF_MACHINE 62u    /* EM_X86_64 (also the x32 ABI: see the width) */
#elif defined(__aarch64__)
#define PSC_ELF_MACHINE 183u   /* EM_AARCH64 */
#elif defined(__i386__)
#define PSC_ELF_MACHINE 3u     /* EM_386 */
#elif defined(__arm__)
#define PSC_ELF_MACHINE 40u    /* EM_ARM */
#elif defined(__riscv)
#define PSC_ELF_MACHINE 243u   /* EM_RISCV */
#elif defined(__powerpc64__)
#define PSC_ELF_MACHINE 21u    /* EM_PPC64 */
#elif defined(__powerpc__)
#define PSC_ELF_MACHINE 20u    /* EM_PPC */
#elif defined(__s390x__)
#define PSC_ELF_MACHINE 22u    /* EM_S390 */
#elif defined(__mips__)
#define PSC_ELF_MACHINE 8u     /* EM_MIPS */
#elif defined(__loongarch__)
#define PSC_ELF_MACHINE 258u   /* EM_LOONGARCH */
#else
#define PSC_ELF_MACHINE 0u
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PSC_BIG_ENDIAN_BIT (1u << 24)
#else
#define PSC_BIG_ENDIAN_BIT 0u
#endif

uint32_t
psc_file_platform (void)
{
  const uint32_t pointer_bits = (uint32_t) (sizeof (void *) * CHAR_BIT);
  return PSC_ELF_MACHINE | pointer_bits << 16 | PSC_BIG_ENDIAN_BIT;
}

#define HUGE_PAGE ((size_t) 2 << 20)

void *
psc_file_buffer_new (size_t size)
{
  if (size < HUGE_PAGE)
    return malloc (size > 0 ? size : 1);
  const size_t rounded = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  void *p = NULL;
  if (rounded < size || posix_memalign (&p, HUGE_PAGE, rounded) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  (void) madvise (p, rounded, MADV_HUGEPAGE);   /* advice only: failure is harmless */
#endif
  return p;
}
