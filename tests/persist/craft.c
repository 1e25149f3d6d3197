/* craft.c: damaged copies of a driver pipeline-cache file, for the
 * persistence tests (see craft.h).
 *
 * Each mutation of a valid driver file (docs/file-formats.md) damages
 * one thing and, where the reason to provoke comes after the checksum in
 * the reader's order, recomputes the checksum so that exactly that reason
 * is reported:
 *   truncated       the first half of the file
 *   trailing-data   the file plus 16 zero bytes
 *   header-bitflip  one bit of the device id flipped (checksum)
 *   payload-bitflip one bit of the last payload byte flipped (checksum)
 *   checksum        the checksum field changed
 *   bad-magic       the magic changed
 *   format-version  format version 99
 *   platform        another platform code (checksum recomputed)
 *   vendor, device, driver-version, uuid   another value (checksum recomputed)
 *   oversized       raw size 1 GiB (checksum recomputed)
 *   garbage         as many pseudo-random bytes as IN has
 *   empty           zero bytes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "craft.h"

#include "formats/driver-file.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <string.h>

const PscTestMutation psc_test_mutations[] = {
  { "truncated", "truncated" },
  { "trailing-data", "trailing-data" },
  { "header-bitflip", "checksum" },
  { "payload-bitflip", "checksum" },
  { "checksum", "checksum" },
  { "bad-magic", "bad-magic" },
  { "format-version", "format-version" },
  { "platform", "platform" },
  { "vendor", "vendor" },
  { "device", "device" },
  { "driver-version", "driver-version" },
  { "uuid", "uuid" },
  { "oversized", "oversized" },
  { "garbage", "bad-magic" },
  { "empty", "empty" },
  { NULL, NULL },
};

static void
rechecksum (uint8_t *data, size_t len)
{
  XXH3_state_t *st = XXH3_createState ();
  XXH3_64bits_reset (st);
  XXH3_64bits_update (st, data, 88);
  XXH3_64bits_update (st, data + PSC_DRIVER_FILE_HEADER_SIZE, len - PSC_DRIVER_FILE_HEADER_SIZE);
  psc_put_le64 (data + 88, XXH3_64bits_digest (st));
  XXH3_freeState (st);
}

/* Returns the new length. */
size_t
psc_test_craft_driver_file (const char *m, uint8_t *d, size_t len)
{
  if (strcmp (m, "truncated") == 0)
    return len / 2;
  if (strcmp (m, "trailing-data") == 0)
    return memset (d + len, 0, 16), len + 16;
  if (strcmp (m, "header-bitflip") == 0)
    return d[28] ^= 0x10, len;
  if (strcmp (m, "payload-bitflip") == 0)
    return d[len - 1] ^= 0x01, len;
  if (strcmp (m, "checksum") == 0)
    return d[90] ^= 0xff, len;
  if (strcmp (m, "bad-magic") == 0)
    return memcpy (d, "NOTPSC\r\n", 8), len;
  if (strcmp (m, "format-version") == 0)
    return psc_put_le32 (d + 8, 99), len;
  if (strcmp (m, "empty") == 0)
    return 0;
  if (strcmp (m, "garbage") == 0)
    {
      uint32_t x = 2463534242u;
      for (size_t i = 0; i < len; i++)
        x ^= x << 13, x ^= x >> 17, x ^= x << 5, d[i] = (uint8_t) x;
      return len;
    }
  if (strcmp (m, "platform") == 0)
    psc_put_le32 (d + 20, psc_le32 (d + 20) ^ 0x00ff0000u);
  else if (strcmp (m, "vendor") == 0)
    psc_put_le32 (d + 24, psc_le32 (d + 24) + 1);
  else if (strcmp (m, "device") == 0)
    psc_put_le32 (d + 28, psc_le32 (d + 28) + 1);
  else if (strcmp (m, "driver-version") == 0)
    psc_put_le32 (d + 32, psc_le32 (d + 32) + 1);
  else if (strcmp (m, "uuid") == 0)
    d[40] ^= 0xff;
  else if (strcmp (m, "oversized") == 0)
    psc_put_le64 (d + 64, (uint64_t) 1 << 30);
  else
    {
      return (size_t) -1;
    }
  rechecksum (d, len);
  return len;
}

