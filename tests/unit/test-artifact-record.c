/* test-artifact-record.c: the SPIR-V artifact records of persistent layer 2
 * (core/formats/artifact-record.c), without a GPU: the key (what it
 * covers, length prefixes), the stages, the SPIR-V check, round trips of
 * both record types through a record log, every rejection with its
 * reason, every prefix and every single-bit flip of a record.
 *
 * The SPIR-V is real: tests/unit/spirv/spec-scalars.comp and no-spec.frag,
 * compiled by glslang at build time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "psc-core.h"
#include "formats/artifact-record.h"

#include "spec-scalars.comp.h"
#include "no-spec.frag.h"

#define COMPUTE 0x20u
#define FRAGMENT 0x10u
#define VERTEX 0x01u

static void
key_of (const char *source, gssize len, guint32 stage, const char *target, const char *policy,
        guint8 key[PSC_ARTIFACT_KEY_SIZE])
{
  psc_artifact_key (source, len < 0 ? strlen (source) : (gsize) len, stage, target,
                    target ? strlen (target) : 0, policy, policy ? strlen (policy) : 0, key);
}

static gboolean
same_key (const guint8 *a, const guint8 *b)
{
  return memcmp (a, b, PSC_ARTIFACT_KEY_SIZE) == 0;
}

static void
test_key (void)
{
  guint8 base[16], again[16], k[16];

  key_of ("void main() {}", -1, COMPUTE, "vulkan1.3", "glslang 14 -O", base);
  key_of ("void main() {}", -1, COMPUTE, "vulkan1.3", "glslang 14 -O", again);
  g_assert_true (same_key (base, again));

  /* Each part enters the key. */
  key_of ("void main() { }", -1, COMPUTE, "vulkan1.3", "glslang 14 -O", k);
  g_assert_false (same_key (base, k));
  key_of ("void main() {}", -1, FRAGMENT, "vulkan1.3", "glslang 14 -O", k);
  g_assert_false (same_key (base, k));
  key_of ("void main() {}", -1, COMPUTE, "vulkan1.2", "glslang 14 -O", k);
  g_assert_false (same_key (base, k));
  key_of ("void main() {}", -1, COMPUTE, "vulkan1.3", "glslang 14", k);
  g_assert_false (same_key (base, k));

  /* Length prefixes: moving bytes between parts changes the key. */
  {
    guint8 a[16], b[16], c[16];
    key_of ("x", -1, COMPUTE, "ab", "c", a);
    key_of ("x", -1, COMPUTE, "a", "bc", b);
    key_of ("cx", -1, COMPUTE, "ab", "", c);
    g_assert_false (same_key (a, b));
    g_assert_false (same_key (a, c));
    g_assert_false (same_key (b, c));
  }

  /* NULL with length 0 is "". */
  key_of ("x", -1, COMPUTE, NULL, NULL, k);
  key_of ("x", -1, COMPUTE, "", "", again);
  g_assert_true (same_key (k, again));

  /* The exact bytes: an embedded NUL and what follows count. */
  {
    guint8 a[16], b[16];
    key_of ("ab\0c", 4, COMPUTE, "", "", a);
    key_of ("ab\0d", 4, COMPUTE, "", "", b);
    g_assert_false (same_key (a, b));
    key_of ("ab", 2, COMPUTE, "", "", b);
    g_assert_false (same_key (a, b));
  }

  /* Large sources (the streaming hash's block boundaries). */
  {
    g_autofree char *big = g_malloc (100000);
    guint8 a[16], b[16];
    memset (big, 'g', 100000);
    psc_artifact_key (big, 100000, COMPUTE, "", 0, "", 0, a);
    big[99999] = 'h';
    psc_artifact_key (big, 100000, COMPUTE, "", 0, "", 0, b);
    g_assert_false (same_key (a, b));
  }
}

static void
test_stages (void)
{
  for (guint bit = 0; bit < 32; bit++)
    g_assert_cmpint (psc_artifact_stage_valid (1u << bit), ==, bit <= 13);
  g_assert_false (psc_artifact_stage_valid (0));
  g_assert_false (psc_artifact_stage_valid (COMPUTE | FRAGMENT));
  g_assert_false (psc_artifact_stage_valid (0x7fffffffu));
}

static void
test_spirv_check (void)
{
  const gsize cs_size = sizeof spec_scalars_comp_spv, fs_size = sizeof no_spec_frag_spv;
  g_autofree guint32 *code = g_memdup2 (spec_scalars_comp_spv, cs_size);

  g_assert_cmpint (psc_artifact_spirv_check (spec_scalars_comp_spv, cs_size, COMPUTE), ==, PSC_FILE_OK);
  g_assert_cmpint (psc_artifact_spirv_check (no_spec_frag_spv, fs_size, FRAGMENT), ==, PSC_FILE_OK);
  /* No entry point of that stage. */
  g_assert_cmpint (psc_artifact_spirv_check (spec_scalars_comp_spv, cs_size, FRAGMENT), ==, PSC_FILE_BAD_RECORD);
  g_assert_cmpint (psc_artifact_spirv_check (no_spec_frag_spv, fs_size, VERTEX), ==, PSC_FILE_BAD_RECORD);
  /* Sizes. */
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size - 2, COMPUTE), ==, PSC_FILE_BAD_HEADER);
  g_assert_cmpint (psc_artifact_spirv_check (code, 16, COMPUTE), ==, PSC_FILE_BAD_HEADER);
  g_assert_cmpint (psc_artifact_spirv_check (code, 0, COMPUTE), ==, PSC_FILE_BAD_HEADER);
  /* The size is judged before anything is read. */
  g_assert_cmpint (psc_artifact_spirv_check (code, (gsize) PSC_ARTIFACT_MAX_SPIRV + 4, COMPUTE), ==,
                   PSC_FILE_OVERSIZED);
  /* An invalid stage. */
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, 0), ==, PSC_FILE_BAD_HEADER);
  /* The magic, in either byte order. */
  code[0] = GUINT32_SWAP_LE_BE (PSC_SPIRV_MAGIC);
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, COMPUTE), ==, PSC_FILE_BAD_MAGIC);
  code[0] = 0;
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, COMPUTE), ==, PSC_FILE_BAD_MAGIC);
  code[0] = PSC_SPIRV_MAGIC;
  /* Framing: a word count of 0, an instruction past the end. */
  code[5] &= 0xffffu;
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, COMPUTE), ==, PSC_FILE_BAD_RECORD);
  code[5] = spec_scalars_comp_spv[5];
  code[5] = (code[5] & 0xffffu) | (guint32) (cs_size / 4) << 16;
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, COMPUTE), ==, PSC_FILE_BAD_RECORD);
  code[5] = spec_scalars_comp_spv[5];
  g_assert_cmpint (psc_artifact_spirv_check (code, cs_size, COMPUTE), ==, PSC_FILE_OK);
  /* Unaligned code is read as well. */
  {
    g_autofree guint8 *shifted = g_malloc (cs_size + 1);
    memcpy (shifted + 1, spec_scalars_comp_spv, cs_size);
    g_assert_cmpint (psc_artifact_spirv_check (shifted + 1, cs_size, COMPUTE), ==, PSC_FILE_OK);
  }
}

/* A valid SPIRV payload of the compute module (free with g_free). */
static guint8 *
make_payload (gsize *len, PscArtifactRecord *rec)
{
  guint8 *p;

  memset (rec, 0, sizeof *rec);
  key_of ("compute source", -1, COMPUTE, "vulkan1.3", "test", rec->key);
  rec->stage = COMPUTE;
  rec->source_len = 14;
  rec->last_used = G_GUINT64_CONSTANT (0x0123456789abcdef);
  rec->spirv = (const guint8 *) spec_scalars_comp_spv;
  rec->spirv_size = sizeof spec_scalars_comp_spv;
  *len = psc_artifact_record_size (rec->spirv_size);
  p = g_malloc (*len);
  g_assert_cmpuint (psc_artifact_record_write (p, rec), ==, *len);
  return p;
}

static void
test_round_trip (void)
{
  PscArtifactRecord rec, back;
  gsize len = 0;
  g_autofree guint8 *p = make_payload (&len, &rec);
  guint8 used[PSC_ARTIFACT_USED_SIZE], key[16];
  guint64 stamp = 0;

  g_assert_cmpuint (len, ==, PSC_ARTIFACT_HEADER_SIZE + sizeof spec_scalars_comp_spv);
  g_assert_cmpuint (psc_artifact_log_size (rec.spirv_size), ==, psc_log_record_size (len));
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_OK);
  g_assert_true (same_key (back.key, rec.key));
  g_assert_cmpuint (back.stage, ==, COMPUTE);
  g_assert_cmpuint (back.source_len, ==, 14);
  g_assert_cmpuint (back.last_used, ==, rec.last_used);
  g_assert_cmpuint (back.spirv_size, ==, rec.spirv_size);
  g_assert_true (back.spirv == p + PSC_ARTIFACT_HEADER_SIZE);
  g_assert_cmpmem (back.spirv, back.spirv_size, spec_scalars_comp_spv, sizeof spec_scalars_comp_spv);

  psc_artifact_used_write (used, rec.key, 42);
  g_assert_cmpint (psc_artifact_used_parse (used, sizeof used, key, &stamp), ==, PSC_FILE_OK);
  g_assert_true (same_key (key, rec.key));
  g_assert_cmpuint (stamp, ==, 42);

  /* Through a record log, as the store writes them. */
  {
    const gsize total = PSC_LOG_HEADER_SIZE + psc_log_record_size (len) + psc_log_record_size (sizeof used);
    g_autofree guint8 *log = g_malloc0 (total);
    gsize at = PSC_LOG_HEADER_SIZE;
    PscLogReader r;
    PscLogRecord lr;

    psc_log_write_header (log, PSC_LOG_KIND_ARTIFACTS);
    at += psc_log_write_record (log + at, PSC_ARTIFACT_RECORD_SPIRV, p, len);
    at += psc_log_write_record (log + at, PSC_ARTIFACT_RECORD_USED, used, sizeof used);
    g_assert_cmpuint (at, ==, total);
    g_assert_cmpint (psc_log_reader_init (&r, log, total, PSC_LOG_KIND_ARTIFACTS, 0), ==, PSC_FILE_OK);
    g_assert_cmpint (psc_log_reader_next (&r, &lr, NULL), ==, PSC_LOG_NEXT_RECORD);
    g_assert_cmpuint (lr.type, ==, PSC_ARTIFACT_RECORD_SPIRV);
    g_assert_cmpint (psc_artifact_record_parse (lr.payload, lr.len, &back), ==, PSC_FILE_OK);
    /* The code is word-aligned inside the log. */
    g_assert_cmpuint ((guintptr) back.spirv % 4, ==, 0);
    g_assert_cmpint (psc_log_reader_next (&r, &lr, NULL), ==, PSC_LOG_NEXT_RECORD);
    g_assert_cmpuint (lr.type, ==, PSC_ARTIFACT_RECORD_USED);
    g_assert_cmpint (psc_artifact_used_parse (lr.payload, lr.len, key, &stamp), ==, PSC_FILE_OK);
    g_assert_cmpint (psc_log_reader_next (&r, &lr, NULL), ==, PSC_LOG_NEXT_END);
  }
}

static void
put32 (guint8 *p, guint32 v)
{
  psc_put_le32 (p, v);
}

static void
test_rejections (void)
{
  PscArtifactRecord rec, back;
  gsize len = 0;
  g_autofree guint8 *good = make_payload (&len, &rec);
  g_autofree guint8 *p = g_malloc (len + 8);
  guint8 used[PSC_ARTIFACT_USED_SIZE + 1] = { 0 }, key[16];
  guint64 stamp;

#define RESET() memcpy (p, good, len)
  RESET ();
  g_assert_cmpint (psc_artifact_record_parse (p, 39, &back), ==, PSC_FILE_TRUNCATED);
  g_assert_cmpint (psc_artifact_record_parse (p, 0, &back), ==, PSC_FILE_TRUNCATED);
  put32 (p + 16, 0);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_HEADER);
  put32 (p + 16, COMPUTE | FRAGMENT);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_HEADER);
  put32 (p + 16, 0x4000);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_HEADER);
  RESET ();
  put32 (p + 36, 1);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_HEADER);
  RESET ();
  put32 (p + 32, PSC_ARTIFACT_MAX_SPIRV + 4);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_OVERSIZED);
  put32 (p + 32, G_MAXUINT32);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_OVERSIZED);
  RESET ();
  put32 (p + 32, rec.spirv_size + 4);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_TRUNCATED);
  RESET ();
  g_assert_cmpint (psc_artifact_record_parse (p, len - 4, &back), ==, PSC_FILE_TRUNCATED);
  p[len] = 0;
  g_assert_cmpint (psc_artifact_record_parse (p, len + 1, &back), ==, PSC_FILE_TRAILING_DATA);
  put32 (p + 32, rec.spirv_size - 4);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_TRAILING_DATA);
  /* A size that is not whole words, or below the SPIR-V header. */
  put32 (p + 32, rec.spirv_size - 2);
  g_assert_cmpint (psc_artifact_record_parse (p, len - 2, &back), ==, PSC_FILE_BAD_HEADER);
  put32 (p + 32, 16);
  g_assert_cmpint (psc_artifact_record_parse (p, 56, &back), ==, PSC_FILE_BAD_HEADER);
  RESET ();
  /* The magic. */
  put32 (p + 40, 0x03022307);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_MAGIC);
  RESET ();
  /* The stage against the entry point. */
  put32 (p + 16, FRAGMENT);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_RECORD);
  RESET ();
  /* Framing. */
  put32 (p + 40 + 20, 0);
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_BAD_RECORD);
  RESET ();
  g_assert_cmpint (psc_artifact_record_parse (p, len, &back), ==, PSC_FILE_OK);

  /* The writer refuses what would not parse back. */
  rec.stage = FRAGMENT;
  g_assert_cmpuint (psc_artifact_record_write (p, &rec), ==, 0);
  rec.stage = 0;
  g_assert_cmpuint (psc_artifact_record_write (p, &rec), ==, 0);
  rec.stage = COMPUTE;
  rec.spirv_size -= 2;
  g_assert_cmpuint (psc_artifact_record_write (p, &rec), ==, 0);
  rec.spirv = NULL;
  g_assert_cmpuint (psc_artifact_record_write (p, &rec), ==, 0);

  /* USED records: exactly 24 bytes. */
  g_assert_cmpint (psc_artifact_used_parse (used, 23, key, &stamp), ==, PSC_FILE_TRUNCATED);
  g_assert_cmpint (psc_artifact_used_parse (used, 0, key, &stamp), ==, PSC_FILE_TRUNCATED);
  g_assert_cmpint (psc_artifact_used_parse (used, 25, key, &stamp), ==, PSC_FILE_TRAILING_DATA);
  g_assert_cmpint (psc_artifact_used_parse (used, 24, key, &stamp), ==, PSC_FILE_OK);
#undef RESET
}

/* Every prefix is refused (truncated, or for a cut inside the code: the
 * size no longer fits). */
static void
test_prefixes (void)
{
  PscArtifactRecord rec, back;
  gsize len = 0;
  g_autofree guint8 *good = make_payload (&len, &rec);

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (good, cut ? cut : 1);
      g_assert_cmpint (psc_artifact_record_parse (copy, cut, &back), ==, PSC_FILE_TRUNCATED);
    }
}

/* Every single-bit flip: the key, the source length and the stamp are
 * opaque (still valid, read back as flipped), everything else is refused
 * or still a valid record that writes back as the same bytes. */
static void
test_bit_flips (void)
{
  PscArtifactRecord rec, back;
  gsize len = 0;
  g_autofree guint8 *good = make_payload (&len, &rec);
  g_autofree guint8 *p = g_malloc (len);
  g_autofree guint8 *again = g_malloc (len);
  guint rejected = 0, header_rejected = 0;

  for (gsize bit = 0; bit < len * 8; bit++)
    {
      PscFileReason why;

      memcpy (p, good, len);
      p[bit / 8] ^= (guint8) (1u << (bit % 8));
      why = psc_artifact_record_parse (p, len, &back);
      if (bit / 8 < 16 || (bit / 8 >= 20 && bit / 8 < 32))
        g_assert_cmpint (why, ==, PSC_FILE_OK);
      else if (bit / 8 < PSC_ARTIFACT_HEADER_SIZE + 4)
        {
          /* stage, size, reserved, magic: always refused */
          g_assert_cmpint (why, !=, PSC_FILE_OK);
          header_rejected++;
        }
      if (why == PSC_FILE_OK)
        {
          g_assert_cmpuint (psc_artifact_record_write (again, &back), ==, len);
          g_assert_cmpmem (again, len, p, len);
        }
      else
        rejected++;
    }
  g_assert_cmpuint (header_rejected, ==, (4 + 4 + 4 + 4) * 8);
  g_test_message ("%u of %" G_GSIZE_FORMAT " flips refused", rejected, len * 8);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/artifact-record/key", test_key);
  g_test_add_func ("/artifact-record/stages", test_stages);
  g_test_add_func ("/artifact-record/spirv-check", test_spirv_check);
  g_test_add_func ("/artifact-record/round-trip", test_round_trip);
  g_test_add_func ("/artifact-record/rejections", test_rejections);
  g_test_add_func ("/artifact-record/prefixes", test_prefixes);
  g_test_add_func ("/artifact-record/bit-flips", test_bit_flips);
  return g_test_run ();
}
