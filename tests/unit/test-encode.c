/* test-encode.c: the core's canonical-key encoders and decoders, without a
 * GPU (DESIGN decisions 1, 3, 5, 8 and 9).
 *
 * Links the core static library directly. Handles are fake non-zero pointer
 * values that a fake PscResolver maps to ids (and back); sampler lists get an
 * identity only after a full comparison. Keys are compared byte for byte;
 * rejections are checked for their exact status, field path and message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "psc-core.h"
#include "keys.h"
#include "graphics-key.h"

/* ===========================================================================
 * Padding, at compile time.
 *
 * Including keys.h compiles its PSC_ASSERT_PACKED checks (sizeof == hand sum
 * of the members). Below is an independent check of the same records: each
 * member starts exactly where the previous one ends, the first at 0 and the
 * last ends at sizeof. A new member, a reordering that introduces a hole or a
 * forgotten member makes this fail to compile.
 */
#ifndef PSC_ASSERT_PACKED
#error "keys.h must provide PSC_ASSERT_PACKED (compile-time padding checks)"
#endif

#define END_OF(T, m) (offsetof (T, m) + sizeof (((T *) 0)->m))
#define FIRST(T, a) _Static_assert (offsetof (T, a) == 0, #T ": " #a " is not at offset 0")
#define ADJ(T, a, b) _Static_assert (offsetof (T, b) == END_OF (T, a), #T ": hole between " #a " and " #b)
#define LAST(T, z) _Static_assert (sizeof (T) == END_OF (T, z), #T ": tail padding after " #z)

/* BEGIN generated from keys.h (member order); keep in step with it. */
FIRST (PscKeySampler, tag);
ADJ (PscKeySampler, tag, flags);
ADJ (PscKeySampler, flags, mip_lod_bias);
ADJ (PscKeySampler, mip_lod_bias, max_anisotropy);
ADJ (PscKeySampler, max_anisotropy, min_lod);
ADJ (PscKeySampler, min_lod, max_lod);
ADJ (PscKeySampler, max_lod, mag_filter);
ADJ (PscKeySampler, mag_filter, min_filter);
ADJ (PscKeySampler, min_filter, mipmap_mode);
ADJ (PscKeySampler, mipmap_mode, address_u);
ADJ (PscKeySampler, address_u, address_v);
ADJ (PscKeySampler, address_v, address_w);
ADJ (PscKeySampler, address_w, anisotropy_enable);
ADJ (PscKeySampler, anisotropy_enable, compare_enable);
ADJ (PscKeySampler, compare_enable, compare_op);
ADJ (PscKeySampler, compare_op, border_color);
ADJ (PscKeySampler, border_color, unnormalized_coordinates);
ADJ (PscKeySampler, unnormalized_coordinates, reduction_mode);
LAST (PscKeySampler, reduction_mode);
FIRST (PscKeySetLayout, tag);
ADJ (PscKeySetLayout, tag, flags);
ADJ (PscKeySetLayout, flags, binding_count);
LAST (PscKeySetLayout, binding_count);
FIRST (PscKeySetBinding, binding);
ADJ (PscKeySetBinding, binding, descriptor_count);
ADJ (PscKeySetBinding, descriptor_count, stage_flags);
ADJ (PscKeySetBinding, stage_flags, binding_flags);
ADJ (PscKeySetBinding, binding_flags, sampler_list);
ADJ (PscKeySetBinding, sampler_list, descriptor_type);
ADJ (PscKeySetBinding, descriptor_type, immutable);
LAST (PscKeySetBinding, immutable);
FIRST (PscKeyPipelineLayout, tag);
ADJ (PscKeyPipelineLayout, tag, flags);
ADJ (PscKeyPipelineLayout, flags, set_count);
ADJ (PscKeyPipelineLayout, set_count, push_count);
LAST (PscKeyPipelineLayout, push_count);
FIRST (PscKeyPushRange, stage_flags);
ADJ (PscKeyPushRange, stage_flags, offset);
ADJ (PscKeyPushRange, offset, size);
LAST (PscKeyPushRange, size);
FIRST (PscKeyRenderPass, tag);
ADJ (PscKeyRenderPass, tag, flags);
ADJ (PscKeyRenderPass, flags, attachment_count);
ADJ (PscKeyRenderPass, attachment_count, subpass_count);
ADJ (PscKeyRenderPass, subpass_count, dependency_count);
ADJ (PscKeyRenderPass, dependency_count, correlation_count);
LAST (PscKeyRenderPass, correlation_count);
FIRST (PscKeyAttachment, format);
ADJ (PscKeyAttachment, format, samples);
ADJ (PscKeyAttachment, samples, flags);
LAST (PscKeyAttachment, flags);
FIRST (PscKeySubpass, flags);
ADJ (PscKeySubpass, flags, bind_point);
ADJ (PscKeySubpass, bind_point, view_mask);
ADJ (PscKeySubpass, view_mask, depth_stencil);
ADJ (PscKeySubpass, depth_stencil, input_count);
ADJ (PscKeySubpass, input_count, color_count);
ADJ (PscKeySubpass, color_count, resolve_count);
ADJ (PscKeySubpass, resolve_count, preserve_count);
LAST (PscKeySubpass, preserve_count);
FIRST (PscKeyDependency, src_subpass);
ADJ (PscKeyDependency, src_subpass, dst_subpass);
ADJ (PscKeyDependency, dst_subpass, src_stage_mask);
ADJ (PscKeyDependency, src_stage_mask, dst_stage_mask);
ADJ (PscKeyDependency, dst_stage_mask, src_access_mask);
ADJ (PscKeyDependency, src_access_mask, dst_access_mask);
ADJ (PscKeyDependency, dst_access_mask, dependency_flags);
ADJ (PscKeyDependency, dependency_flags, view_offset);
LAST (PscKeyDependency, view_offset);
FIRST (PscKeyStage, shader_id);
ADJ (PscKeyStage, shader_id, generation);
ADJ (PscKeyStage, generation, stage);
ADJ (PscKeyStage, stage, flags);
ADJ (PscKeyStage, flags, name_len);
ADJ (PscKeyStage, name_len, spec_count);
LAST (PscKeyStage, spec_count);
FIRST (PscKeySpecEntry, constant_id);
ADJ (PscKeySpecEntry, constant_id, size);
LAST (PscKeySpecEntry, size);
FIRST (PscKeyGraphics, tag);
ADJ (PscKeyGraphics, tag, flags);
ADJ (PscKeyGraphics, flags, dynamic_lo);
ADJ (PscKeyGraphics, dynamic_lo, dynamic_hi);
ADJ (PscKeyGraphics, dynamic_hi, layout_id);
ADJ (PscKeyGraphics, layout_id, depth_format);
ADJ (PscKeyGraphics, depth_format, stencil_format);
ADJ (PscKeyGraphics, stencil_format, present);
ADJ (PscKeyGraphics, present, stage_count);
ADJ (PscKeyGraphics, stage_count, color_count);
LAST (PscKeyGraphics, color_count);
FIRST (PscKeyLegacyPass, render_pass_id);
ADJ (PscKeyLegacyPass, render_pass_id, subpass);
LAST (PscKeyLegacyPass, subpass);
FIRST (PscKeyGraphicsState, line_width);
ADJ (PscKeyGraphicsState, line_width, topology);
ADJ (PscKeyGraphicsState, topology, primitive_restart);
ADJ (PscKeyGraphicsState, primitive_restart, viewport_count);
ADJ (PscKeyGraphicsState, viewport_count, scissor_count);
ADJ (PscKeyGraphicsState, scissor_count, depth_clamp);
ADJ (PscKeyGraphicsState, depth_clamp, rasterizer_discard);
ADJ (PscKeyGraphicsState, rasterizer_discard, polygon_mode);
ADJ (PscKeyGraphicsState, polygon_mode, cull_mode);
ADJ (PscKeyGraphicsState, cull_mode, front_face);
ADJ (PscKeyGraphicsState, front_face, depth_bias_enable);
ADJ (PscKeyGraphicsState, depth_bias_enable, samples);
ADJ (PscKeyGraphicsState, samples, sample_shading);
ADJ (PscKeyGraphicsState, sample_shading, alpha_to_coverage);
ADJ (PscKeyGraphicsState, alpha_to_coverage, alpha_to_one);
ADJ (PscKeyGraphicsState, alpha_to_one, binding_count);
ADJ (PscKeyGraphicsState, binding_count, attribute_count);
ADJ (PscKeyGraphicsState, attribute_count, depth_test);
ADJ (PscKeyGraphicsState, depth_test, depth_write);
ADJ (PscKeyGraphicsState, depth_write, depth_compare);
ADJ (PscKeyGraphicsState, depth_compare, depth_bounds_test);
ADJ (PscKeyGraphicsState, depth_bounds_test, stencil_test);
ADJ (PscKeyGraphicsState, stencil_test, logic_op_enable);
ADJ (PscKeyGraphicsState, logic_op_enable, logic_op);
ADJ (PscKeyGraphicsState, logic_op, blend_count);
LAST (PscKeyGraphicsState, blend_count);
FIRST (PscKeyTessellation, patch_control_points);
LAST (PscKeyTessellation, patch_control_points);
FIRST (PscKeySampleState, sample_mask);
ADJ (PscKeySampleState, sample_mask, min_sample_shading);
LAST (PscKeySampleState, min_sample_shading);
FIRST (PscKeyDepthBias, constant);
ADJ (PscKeyDepthBias, constant, clamp);
ADJ (PscKeyDepthBias, clamp, slope);
LAST (PscKeyDepthBias, slope);
FIRST (PscKeyDepthStencil, min_depth_bounds);
ADJ (PscKeyDepthStencil, min_depth_bounds, max_depth_bounds);
ADJ (PscKeyDepthStencil, max_depth_bounds, front_compare_mask);
ADJ (PscKeyDepthStencil, front_compare_mask, front_write_mask);
ADJ (PscKeyDepthStencil, front_write_mask, front_reference);
ADJ (PscKeyDepthStencil, front_reference, back_compare_mask);
ADJ (PscKeyDepthStencil, back_compare_mask, back_write_mask);
ADJ (PscKeyDepthStencil, back_write_mask, back_reference);
ADJ (PscKeyDepthStencil, back_reference, front_fail);
ADJ (PscKeyDepthStencil, front_fail, front_pass);
ADJ (PscKeyDepthStencil, front_pass, front_depth_fail);
ADJ (PscKeyDepthStencil, front_depth_fail, front_compare);
ADJ (PscKeyDepthStencil, front_compare, back_fail);
ADJ (PscKeyDepthStencil, back_fail, back_pass);
ADJ (PscKeyDepthStencil, back_pass, back_depth_fail);
ADJ (PscKeyDepthStencil, back_depth_fail, back_compare);
LAST (PscKeyDepthStencil, back_compare);
FIRST (PscKeyColorBlend, blend_constants);
LAST (PscKeyColorBlend, blend_constants);
FIRST (PscKeyBlendAttachment, blend_enable);
ADJ (PscKeyBlendAttachment, blend_enable, src_color);
ADJ (PscKeyBlendAttachment, src_color, dst_color);
ADJ (PscKeyBlendAttachment, dst_color, color_op);
ADJ (PscKeyBlendAttachment, color_op, src_alpha);
ADJ (PscKeyBlendAttachment, src_alpha, dst_alpha);
ADJ (PscKeyBlendAttachment, dst_alpha, alpha_op);
ADJ (PscKeyBlendAttachment, alpha_op, write_mask);
LAST (PscKeyBlendAttachment, write_mask);
FIRST (PscKeyVertexBinding, binding);
ADJ (PscKeyVertexBinding, binding, input_rate);
ADJ (PscKeyVertexBinding, input_rate, stride);
LAST (PscKeyVertexBinding, stride);
FIRST (PscKeyVertexAttribute, location);
ADJ (PscKeyVertexAttribute, location, binding);
ADJ (PscKeyVertexAttribute, binding, format);
ADJ (PscKeyVertexAttribute, format, offset);
LAST (PscKeyVertexAttribute, offset);
FIRST (PscKeyCompute, tag);
ADJ (PscKeyCompute, tag, flags);
ADJ (PscKeyCompute, flags, layout_id);
LAST (PscKeyCompute, layout_id);
/* END generated */

/* ===========================================================================
 * Fake resolver: handles are fake pointer values, ids are small numbers that
 * never equal a handle value.
 */
enum { FK_SHADER, FK_SAMPLER, FK_SET_LAYOUT, FK_PIPELINE_LAYOUT, FK_RENDER_PASS, FK_COUNT };
#define FAKE_CAP 64
#define FAKE_LIST_BASE 1000u

typedef struct {
  uint64_t handle;
  uint32_t id;
  uint32_t generation;
  bool alive;
  uint32_t subpass_count;
  uint32_t samples[PSC_MAX_SUBPASSES];
  /* Shaders: the specialization constants the shader declares. */
  const PscSpecConstant *spec;
  uint32_t spec_count;
} FakeObject;

typedef struct {
  FakeObject objects[FK_COUNT][FAKE_CAP];
  uint32_t counts[FK_COUNT];
  uint32_t lists[FAKE_CAP][PSC_MAX_IMMUTABLE_SAMPLERS];
  uint32_t list_lengths[FAKE_CAP];
  uint32_t list_count;
  /* What the encoder passed to the last sampler_list call. */
  uint32_t last_list[PSC_MAX_IMMUTABLE_SAMPLERS + 1];
  uint32_t last_list_count;
  uint32_t list_calls;
  /* When not OK, sampler_list fails with this status. */
  PscStatus list_fail;
  PscResolver resolver;
} Fake;

static Fake *fake;

static uint64_t
fake_handle_value (int kind, uint32_t index)
{
  return UINT64_C (0x00007f5a00000000) | ((uint64_t) (kind + 1) << 20) | ((uint64_t) (index + 1) << 4);
}

static FakeObject *
fake_find (const Fake *f, int kind, uint64_t handle)
{
  for (uint32_t i = 0; i < f->counts[kind]; i++)
    if (f->objects[kind][i].alive && f->objects[kind][i].handle == handle)
      return (FakeObject *) &f->objects[kind][i];
  return NULL;
}

static uint64_t
fake_find_handle (const Fake *f, int kind, uint32_t id)
{
  for (uint32_t i = 0; i < f->counts[kind]; i++)
    if (f->objects[kind][i].alive && f->objects[kind][i].id == id)
      return f->objects[kind][i].handle;
  return 0;
}

static FakeObject *
fake_register_handle (int kind, uint64_t handle, uint32_t id, uint32_t generation)
{
  g_assert_cmpuint (fake->counts[kind], <, FAKE_CAP);
  g_assert_null (fake_find (fake, kind, handle));
  FakeObject *o = &fake->objects[kind][fake->counts[kind]++];
  memset (o, 0, sizeof *o);
  o->handle = handle;
  o->id = id;
  o->generation = generation;
  o->alive = true;
  return o;
}

static uint64_t
fake_register (int kind, uint32_t id, uint32_t generation)
{
  uint64_t handle = fake_handle_value (kind, fake->counts[kind]);
  fake_register_handle (kind, handle, id, generation);
  return handle;
}

static void
fake_set_spec (VkShaderModule module, const PscSpecConstant *spec, uint32_t count)
{
  FakeObject *o = fake_find (fake, FK_SHADER, (uint64_t) (uintptr_t) module);
  g_assert_nonnull (o);
  o->spec = spec;
  o->spec_count = count;
}

static void
fake_forget (int kind, uint64_t handle)
{
  FakeObject *o = fake_find (fake, kind, handle);
  g_assert_nonnull (o);
  o->alive = false;
}

static bool
r_shader (void *ctx, VkShaderModule module, PscShaderInfo *info)
{
  const FakeObject *o = fake_find (ctx, FK_SHADER, (uint64_t) (uintptr_t) module);
  if (o == NULL)
    return false;
  info->id = o->id;
  info->generation = o->generation;
  info->spec = o->spec;
  info->spec_count = o->spec_count;
  return true;
}

static bool
r_lookup (void *ctx, int kind, uint64_t handle, uint32_t *id)
{
  const FakeObject *o = fake_find (ctx, kind, handle);
  if (o == NULL)
    return false;
  *id = o->id;
  return true;
}

static bool
r_sampler (void *ctx, VkSampler sampler, uint32_t *id)
{
  return r_lookup (ctx, FK_SAMPLER, (uint64_t) (uintptr_t) sampler, id);
}

static bool
r_set_layout (void *ctx, VkDescriptorSetLayout layout, uint32_t *id)
{
  return r_lookup (ctx, FK_SET_LAYOUT, (uint64_t) (uintptr_t) layout, id);
}

static bool
r_pipeline_layout (void *ctx, VkPipelineLayout layout, uint32_t *id)
{
  return r_lookup (ctx, FK_PIPELINE_LAYOUT, (uint64_t) (uintptr_t) layout, id);
}

static bool
r_render_pass (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *id,
               uint32_t *subpass_count, uint32_t *samples)
{
  const FakeObject *o = fake_find (ctx, FK_RENDER_PASS, (uint64_t) (uintptr_t) pass);
  if (o == NULL)
    return false;
  *id = o->id;
  *subpass_count = o->subpass_count;
  *samples = subpass < o->subpass_count ? o->samples[subpass] : 0;
  return true;
}

/* Get-or-create: two lists share an id only if they have the same length and
 * every element is equal. */
static PscStatus
r_sampler_list (void *ctx, const uint32_t *ids, uint32_t count, uint32_t *list_id,
                PscCoreError *err)
{
  Fake *f = ctx;
  f->list_calls++;
  g_assert_cmpuint (count, <=, PSC_MAX_IMMUTABLE_SAMPLERS);
  memcpy (f->last_list, ids, count * sizeof *ids);
  f->last_list_count = count;
  if (f->list_fail != PSC_STATUS_OK)
    return psc_core_fail (err, f->list_fail, "", "fake sampler-list failure");
  for (uint32_t i = 0; i < f->list_count; i++)
    if (f->list_lengths[i] == count && memcmp (f->lists[i], ids, count * sizeof *ids) == 0)
      {
        *list_id = FAKE_LIST_BASE + i;
        return PSC_STATUS_OK;
      }
  if (f->list_count == FAKE_CAP)
    return psc_core_fail (err, PSC_STATUS_CAPACITY, "", "fake sampler-list table full");
  memcpy (f->lists[f->list_count], ids, count * sizeof *ids);
  f->list_lengths[f->list_count] = count;
  *list_id = FAKE_LIST_BASE + f->list_count++;
  return PSC_STATUS_OK;
}

static VkShaderModule
r_shader_handle (void *ctx, uint32_t id)
{
  return (VkShaderModule) (uintptr_t) fake_find_handle (ctx, FK_SHADER, id);
}

static VkSampler
r_sampler_handle (void *ctx, uint32_t id)
{
  return (VkSampler) (uintptr_t) fake_find_handle (ctx, FK_SAMPLER, id);
}

static uint32_t
r_sampler_list_ids (void *ctx, uint32_t list_id, uint32_t *ids)
{
  Fake *f = ctx;
  if (list_id < FAKE_LIST_BASE || list_id - FAKE_LIST_BASE >= f->list_count)
    return 0;
  uint32_t i = list_id - FAKE_LIST_BASE;
  memcpy (ids, f->lists[i], f->list_lengths[i] * sizeof *ids);
  return f->list_lengths[i];
}

static VkDescriptorSetLayout
r_set_layout_handle (void *ctx, uint32_t id)
{
  return (VkDescriptorSetLayout) (uintptr_t) fake_find_handle (ctx, FK_SET_LAYOUT, id);
}

static VkPipelineLayout
r_pipeline_layout_handle (void *ctx, uint32_t id)
{
  return (VkPipelineLayout) (uintptr_t) fake_find_handle (ctx, FK_PIPELINE_LAYOUT, id);
}

static VkRenderPass
r_render_pass_handle (void *ctx, uint32_t id)
{
  return (VkRenderPass) (uintptr_t) fake_find_handle (ctx, FK_RENDER_PASS, id);
}

/* The objects every test uses. */
static struct {
  VkShaderModule vs, fs, vs_alias, vs_gen2, fs2, tcs, tes, gs, cs, cs_gen2, cs2;
  VkSampler s[5];
  VkDescriptorSetLayout sl0, sl1, sl2;
  VkPipelineLayout pl, pl2;
  VkRenderPass rp_simple, rp_main, rp_empty;
} hd;

#define H(T, v) ((T) (uintptr_t) (v))
#define FOREIGN(T) H (T, UINT64_C (0x00007f5adead0010))

/* ===========================================================================
 * Encoding helpers.
 */
typedef enum {
  KIND_SAMPLER,
  KIND_SET_LAYOUT,
  KIND_PIPELINE_LAYOUT,
  KIND_RENDER_PASS,
  KIND_GRAPHICS_DYNAMIC,
  KIND_GRAPHICS_LEGACY,
  KIND_COMPUTE,
} Kind;

#define KD KIND_GRAPHICS_DYNAMIC
#define KL KIND_GRAPHICS_LEGACY

static const char *
status_name (PscStatus s)
{
  switch (s)
    {
    case PSC_STATUS_OK: return "OK";
    case PSC_STATUS_FAILED: return "FAILED";
    case PSC_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case PSC_STATUS_UNSUPPORTED: return "UNSUPPORTED";
    case PSC_STATUS_FOREIGN_HANDLE: return "FOREIGN_HANDLE";
    case PSC_STATUS_CAPACITY: return "CAPACITY";
    case PSC_STATUS_VULKAN: return "VULKAN";
    case PSC_STATUS_WRONG_THREAD: return "WRONG_THREAD";
    case PSC_STATUS_NO_DEVICE: return "NO_DEVICE";
    default: return "?";
    }
}

/* The graphics fast path against the complete encoder. Every dynamic-backend
 * graphics request a test encodes goes through this first: where the fast
 * path accepts, the complete encoder must accept too and write the same
 * bytes; anything else the fast path must decline (it never reports an
 * error itself). The counts prove the checks ran. */
static struct {
  unsigned accepted, declined;
} fast_counts;

static void
check_fast_path (const VkGraphicsPipelineCreateInfo *ci, const PscResolver *r,
                 const PscKeyWriter *w)
{
  const size_t room = w->len <= w->cap ? w->cap - w->len : 0;
  uint8_t *fast_buf = g_malloc (PSC_MAX_KEY_BYTES), *full_buf = g_malloc (PSC_MAX_KEY_BYTES);
  PscKeyWriter fw = { fast_buf, 0, room }, cw = { full_buf, 0, room };
  PscStatus fs = psc_encode_graphics_fast (ci, PSC_RENDERING_DYNAMIC, r, &fw);
  PscStatus cs = psc_encode_graphics_full (ci, PSC_RENDERING_DYNAMIC, r, &cw, NULL);
  if (fs == PSC_STATUS_OK)
    {
      fast_counts.accepted++;
      g_assert_cmpint (cs, ==, PSC_STATUS_OK);
      g_assert_cmpuint (fw.len, ==, cw.len);
      g_assert_cmpmem (fast_buf, fw.len, full_buf, cw.len);
    }
  else
    {
      g_assert_cmpint (fs, ==, PSC_STATUS_DECLINED);
      fast_counts.declined++;
    }
  g_free (fast_buf);
  g_free (full_buf);
}

static PscStatus
encode_kind (Kind kind, const void *ci, const PscResolver *r, PscKeyWriter *w, PscCoreError *err)
{
  if (kind == KIND_GRAPHICS_DYNAMIC)
    check_fast_path (ci, r, w);
  switch (kind)
    {
    case KIND_SAMPLER: return psc_encode_sampler (ci, w, err);
    case KIND_SET_LAYOUT: return psc_encode_set_layout (ci, r, w, err);
    case KIND_PIPELINE_LAYOUT: return psc_encode_pipeline_layout (ci, r, w, err);
    case KIND_RENDER_PASS: return psc_encode_render_pass (ci, w, err);
    case KIND_GRAPHICS_DYNAMIC: return psc_encode_graphics (ci, PSC_RENDERING_DYNAMIC, r, w, err);
    case KIND_GRAPHICS_LEGACY: return psc_encode_graphics (ci, PSC_RENDERING_LEGACY, r, w, err);
    case KIND_COMPUTE: return psc_encode_compute (ci, r, w, err);
    default: g_assert_not_reached ();
    }
}

#define KEY_FILL 0xa5

/* Encodes into a buffer full of garbage; asserts success and that no byte
 * past the key was written. */
static GBytes *
key_of_impl (const char *file, int line, const char *func, Kind kind, const void *ci)
{
  uint8_t *buf = g_malloc (PSC_MAX_KEY_BYTES);
  memset (buf, KEY_FILL, PSC_MAX_KEY_BYTES);
  PscKeyWriter w = { buf, 0, PSC_MAX_KEY_BYTES };
  PscCoreError err;
  memset (&err, 0, sizeof err);
  PscStatus st = encode_kind (kind, ci, &fake->resolver, &w, &err);
  if (st != PSC_STATUS_OK)
    {
      char *m = g_strdup_printf ("encode failed: %s: %s", status_name (st), err.message);
      g_assertion_message (G_LOG_DOMAIN, file, line, func, m);
      g_free (m);
    }
  g_assert_cmpuint (w.len, >, 0);
  g_assert_cmpuint (w.len, <=, PSC_MAX_KEY_BYTES);
  for (size_t i = w.len; i < PSC_MAX_KEY_BYTES; i++)
    if (buf[i] != KEY_FILL)
      g_assertion_message (G_LOG_DOMAIN, file, line, func, "encoder wrote past the key's length");
  GBytes *b = g_bytes_new (buf, w.len);
  g_free (buf);
  return b;
}
#define key_of(kind, ci) key_of_impl (__FILE__, __LINE__, G_STRFUNC, (kind), (ci))

static void
assert_same_impl (const char *file, int line, const char *func, GBytes *a, GBytes *b)
{
  gsize la, lb;
  const uint8_t *pa = g_bytes_get_data (a, &la);
  const uint8_t *pb = g_bytes_get_data (b, &lb);
  if (la == lb && memcmp (pa, pb, la) == 0)
    return;
  size_t at = 0;
  while (at < la && at < lb && pa[at] == pb[at])
    at++;
  char *m = g_strdup_printf ("keys differ: lengths %zu and %zu, first difference at byte %zu",
                             (size_t) la, (size_t) lb, at);
  g_assertion_message (G_LOG_DOMAIN, file, line, func, m);
  g_free (m);
}
#define assert_same_key(a, b) assert_same_impl (__FILE__, __LINE__, G_STRFUNC, (a), (b))

static void
assert_different_impl (const char *file, int line, const char *func, GBytes *a, GBytes *b)
{
  if (g_bytes_equal (a, b))
    g_assertion_message (G_LOG_DOMAIN, file, line, func, "keys are equal but must differ");
}
#define assert_different_key(a, b) assert_different_impl (__FILE__, __LINE__, G_STRFUNC, (a), (b))

/* Expects a rejection with exactly this status, path and message; the message
 * is "<path>: <detail>" (just "<detail>" for an empty path). Also checks that
 * the same request with err == NULL returns the same status. */
static void G_GNUC_PRINTF (8, 9)
assert_rejects_impl (const char *file, int line, const char *func, Kind kind, const void *ci,
                     PscStatus want_status, const char *want_path, const char *detail_fmt, ...)
{
  va_list ap;
  va_start (ap, detail_fmt);
  char *detail = g_strdup_vprintf (detail_fmt, ap);
  va_end (ap);
  char *want_msg = want_path[0] ? g_strdup_printf ("%s: %s", want_path, detail) : g_strdup (detail);

  uint8_t *buf = g_malloc (PSC_MAX_KEY_BYTES);
  PscKeyWriter w = { buf, 0, PSC_MAX_KEY_BYTES };
  PscCoreError err;
  memset (&err, 0, sizeof err);
  err.status = PSC_STATUS_OK;
  err.vk_result = VK_ERROR_UNKNOWN;
  PscStatus st = encode_kind (kind, ci, &fake->resolver, &w, &err);
  if (st != want_status || err.status != want_status || strcmp (err.path, want_path) != 0
      || strcmp (err.message, want_msg) != 0 || err.vk_result != VK_SUCCESS)
    {
      char *m = g_strdup_printf ("rejection mismatch\n"
                                 "   want: %s, path \"%s\", message \"%s\"\n"
                                 "    got: %s (err.status %s, vk_result %d), path \"%s\", message \"%s\"",
                                 status_name (want_status), want_path, want_msg, status_name (st),
                                 status_name (err.status), (int) err.vk_result, err.path, err.message);
      g_assertion_message (G_LOG_DOMAIN, file, line, func, m);
      g_free (m);
    }
  w.len = 0;
  PscStatus st2 = encode_kind (kind, ci, &fake->resolver, &w, NULL);
  if (st2 != want_status)
    g_assertion_message (G_LOG_DOMAIN, file, line, func, "different status with err == NULL");
  g_free (buf);
  g_free (detail);
  g_free (want_msg);
}
#define assert_rejects(kind, ci, status, path, ...)                              \
  assert_rejects_impl (__FILE__, __LINE__, G_STRFUNC, (kind), (ci), (status), (path), __VA_ARGS__)

static void
put_u32 (uint8_t *dst, uint32_t v)
{
  memcpy (dst, &v, sizeof v);
}

static void
put_u64 (uint8_t *dst, uint64_t v)
{
  memcpy (dst, &v, sizeof v);
}

static void
put_f32 (uint8_t *dst, float v)
{
  memcpy (dst, &v, sizeof v);
}

/* Appends node (with this sType) at the end of the chain that starts at *head. */
static void
chain_append (const void **head, VkBaseInStructure *node, VkStructureType stype)
{
  node->sType = stype;
  node->pNext = NULL;
  const void **link = head;
  while (*link != NULL)
    link = (const void **) &((VkBaseOutStructure *) *link)->pNext;
  *link = node;
}

/* Allocates a fixture with every byte set to `fill` (0x00 for clean storage,
 * 0xff or a pattern for dirty storage). */
static void *
fixture_new (size_t size, int fill)
{
  void *p = g_malloc (size);
  memset (p, fill, size);
  return p;
}

/* ===========================================================================
 * Fixtures. Each *_fill assigns every field the encoder may read, one by
 * one, and nothing else: storage that held garbage (unused array slots,
 * struct padding, bytes after a string's NUL) keeps it.
 */

/* --- sampler --------------------------------------------------------------- */
typedef struct {
  VkSamplerCreateInfo ci;
  VkSamplerReductionModeCreateInfo reduction;
  VkBaseInStructure extra[2];
} SamplerFx;

static void
sampler_fill (SamplerFx *s)
{
  s->ci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  s->ci.pNext = NULL;
  s->ci.flags = 0;
  s->ci.magFilter = VK_FILTER_LINEAR;
  s->ci.minFilter = VK_FILTER_NEAREST;
  s->ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  s->ci.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  s->ci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  s->ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  s->ci.mipLodBias = 0.5f;
  s->ci.anisotropyEnable = VK_TRUE;
  s->ci.maxAnisotropy = 8.0f;
  s->ci.compareEnable = VK_FALSE;
  s->ci.compareOp = VK_COMPARE_OP_LESS;
  s->ci.minLod = 0.0f;
  s->ci.maxLod = 12.0f;
  s->ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  s->ci.unnormalizedCoordinates = VK_FALSE;
}

static void
sampler_add_reduction (SamplerFx *s, VkSamplerReductionMode mode)
{
  s->reduction.reductionMode = mode;
  chain_append (&s->ci.pNext, (VkBaseInStructure *) &s->reduction,
                VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
}

/* --- descriptor-set layout ----------------------------------------------- */
typedef struct {
  VkDescriptorSetLayoutCreateInfo ci;
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_ci;
  VkDescriptorBindingFlags binding_flags[PSC_MAX_SET_BINDINGS + 2];
  VkDescriptorSetLayoutBinding bindings[PSC_MAX_SET_BINDINGS + 2];
  VkSampler samplers[4][PSC_MAX_IMMUTABLE_SAMPLERS + 2];
  VkBaseInStructure extra[2];
} SetLayoutFx;

static void
set_binding (VkDescriptorSetLayoutBinding *b, uint32_t binding, VkDescriptorType type,
             uint32_t count, VkShaderStageFlags stages, const VkSampler *immutable)
{
  b->binding = binding;
  b->descriptorType = type;
  b->descriptorCount = count;
  b->stageFlags = stages;
  b->pImmutableSamplers = immutable;
}

/* Three bindings in caller order 3, 0, 1; binding 3 has immutable samplers
 * {s0, s1}; binding 1 is PARTIALLY_BOUND. */
static void
set_layout_fill (SetLayoutFx *s)
{
  s->samplers[0][0] = hd.s[0];
  s->samplers[0][1] = hd.s[1];
  set_binding (&s->bindings[0], 3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2,
               VK_SHADER_STAGE_FRAGMENT_BIT, s->samplers[0]);
  set_binding (&s->bindings[1], 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
               VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL);
  set_binding (&s->bindings[2], 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4,
               VK_SHADER_STAGE_COMPUTE_BIT, NULL);
  s->binding_flags[0] = 0;
  s->binding_flags[1] = 0;
  s->binding_flags[2] = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
  s->flags_ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO;
  s->flags_ci.pNext = NULL;
  s->flags_ci.bindingCount = 3;
  s->flags_ci.pBindingFlags = s->binding_flags;
  s->ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  s->ci.pNext = &s->flags_ci;
  s->ci.flags = 0;
  s->ci.bindingCount = 3;
  s->ci.pBindings = s->bindings;
}

/* --- pipeline layout ------------------------------------------------------- */
typedef struct {
  VkPipelineLayoutCreateInfo ci;
  VkDescriptorSetLayout sets[PSC_MAX_SET_LAYOUTS + 2];
  VkPushConstantRange ranges[PSC_MAX_PUSH_RANGES + 2];
  VkBaseInStructure extra[2];
} PipelineLayoutFx;

static void
push_range (VkPushConstantRange *r, VkShaderStageFlags stages, uint32_t offset, uint32_t size)
{
  r->stageFlags = stages;
  r->offset = offset;
  r->size = size;
}

static void
pipeline_layout_fill (PipelineLayoutFx *p)
{
  p->sets[0] = hd.sl0;
  p->sets[1] = hd.sl1;
  push_range (&p->ranges[0], VK_SHADER_STAGE_VERTEX_BIT, 0, 16);
  push_range (&p->ranges[1], VK_SHADER_STAGE_FRAGMENT_BIT, 16, 16);
  p->ci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  p->ci.pNext = NULL;
  p->ci.flags = 0;
  p->ci.setLayoutCount = 2;
  p->ci.pSetLayouts = p->sets;
  p->ci.pushConstantRangeCount = 2;
  p->ci.pPushConstantRanges = p->ranges;
}

/* --- render pass ----------------------------------------------------------- */
typedef struct {
  VkRenderPassCreateInfo ci;
  VkRenderPassMultiviewCreateInfo multiview;
  uint32_t view_masks[PSC_MAX_SUBPASSES + 1];
  int32_t view_offsets[PSC_MAX_SUBPASS_DEPENDENCIES + 1];
  uint32_t correlation[4];
  VkAttachmentDescription attachments[PSC_MAX_PASS_ATTACHMENTS + 2];
  VkSubpassDescription subpasses[PSC_MAX_SUBPASSES + 2];
  VkAttachmentReference inputs[PSC_MAX_SUBPASSES + 1][PSC_MAX_SUBPASS_REFS + 2];
  VkAttachmentReference colors[PSC_MAX_SUBPASSES + 1][PSC_MAX_SUBPASS_REFS + 2];
  VkAttachmentReference resolves[PSC_MAX_SUBPASSES + 1][PSC_MAX_SUBPASS_REFS + 2];
  VkAttachmentReference depth[PSC_MAX_SUBPASSES + 1];
  uint32_t preserve[PSC_MAX_SUBPASSES + 1][PSC_MAX_PRESERVE_REFS + 2];
  VkSubpassDependency deps[PSC_MAX_SUBPASS_DEPENDENCIES + 2];
  VkBaseInStructure extra[2];
} PassFx;

static void
attachment (VkAttachmentDescription *a, VkFormat format, VkSampleCountFlagBits samples,
            VkAttachmentLoadOp load, VkAttachmentStoreOp store,
            VkImageLayout initial, VkImageLayout final)
{
  a->flags = 0;
  a->format = format;
  a->samples = samples;
  a->loadOp = load;
  a->storeOp = store;
  a->stencilLoadOp = load;
  a->stencilStoreOp = store;
  a->initialLayout = initial;
  a->finalLayout = final;
}

static void
ref (VkAttachmentReference *r, uint32_t attachment_index, VkImageLayout layout)
{
  r->attachment = attachment_index;
  r->layout = layout;
}

static void
subpass (VkSubpassDescription *s, uint32_t inputs, const VkAttachmentReference *in,
         uint32_t colors, const VkAttachmentReference *col, const VkAttachmentReference *res,
         const VkAttachmentReference *depth, uint32_t preserves, const uint32_t *pre)
{
  s->flags = 0;
  s->pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  s->inputAttachmentCount = inputs;
  s->pInputAttachments = in;
  s->colorAttachmentCount = colors;
  s->pColorAttachments = col;
  s->pResolveAttachments = res;
  s->pDepthStencilAttachment = depth;
  s->preserveAttachmentCount = preserves;
  s->pPreserveAttachments = pre;
}

static void
dependency (VkSubpassDependency *d, uint32_t src, uint32_t dst, VkPipelineStageFlags src_stages,
            VkPipelineStageFlags dst_stages, VkAccessFlags src_access, VkAccessFlags dst_access,
            VkDependencyFlags flags)
{
  d->srcSubpass = src;
  d->dstSubpass = dst;
  d->srcStageMask = src_stages;
  d->dstStageMask = dst_stages;
  d->srcAccessMask = src_access;
  d->dstAccessMask = dst_access;
  d->dependencyFlags = flags;
}

/* The main pass:
 *   attachments: 0 RGBA8 x4 (colour), 1 RGBA8 x1 (resolve), 2 D32 x4 (depth),
 *                3 RGBA16F x1
 *   subpass 0:   colour {0}, resolve {1}, depth 2, preserve {3}
 *   subpass 1:   input {1}, colour {3}
 *   dependencies EXTERNAL->0, 0->1 (by region) */
static void
pass_fill (PassFx *p)
{
  const VkImageLayout CA = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment (&p->attachments[0], VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT,
              VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
              VK_IMAGE_LAYOUT_UNDEFINED, CA);
  attachment (&p->attachments[1], VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
              VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
              VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  attachment (&p->attachments[2], VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_4_BIT,
              VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
              VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  attachment (&p->attachments[3], VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
              VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  ref (&p->colors[0][0], 0, CA);
  ref (&p->resolves[0][0], 1, CA);
  ref (&p->depth[0], 2, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  p->preserve[0][0] = 3;
  subpass (&p->subpasses[0], 0, NULL, 1, p->colors[0], p->resolves[0], &p->depth[0], 1,
           p->preserve[0]);
  ref (&p->inputs[1][0], 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  ref (&p->colors[1][0], 3, CA);
  subpass (&p->subpasses[1], 1, p->inputs[1], 1, p->colors[1], NULL, NULL, 0, NULL);
  dependency (&p->deps[0], VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
              VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
              VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0);
  dependency (&p->deps[1], 0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
              VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
              VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT);
  p->ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  p->ci.pNext = NULL;
  p->ci.flags = 0;
  p->ci.attachmentCount = 4;
  p->ci.pAttachments = p->attachments;
  p->ci.subpassCount = 2;
  p->ci.pSubpasses = p->subpasses;
  p->ci.dependencyCount = 2;
  p->ci.pDependencies = p->deps;
}

/* A single-subpass pass with the graphics fixture's attachments: RGBA8,
 * RGBA16F, D24S8, one sample. */
static void
pass_fill_simple (PassFx *p)
{
  const VkImageLayout CA = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkImageLayout DS = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  attachment (&p->attachments[0], VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
              VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED, CA);
  attachment (&p->attachments[1], VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
              VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED, CA);
  attachment (&p->attachments[2], VK_FORMAT_D24_UNORM_S8_UINT, VK_SAMPLE_COUNT_1_BIT,
              VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED, DS);
  ref (&p->colors[0][0], 0, CA);
  ref (&p->colors[0][1], 1, CA);
  ref (&p->depth[0], 2, DS);
  subpass (&p->subpasses[0], 0, NULL, 2, p->colors[0], NULL, &p->depth[0], 0, NULL);
  p->ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  p->ci.pNext = NULL;
  p->ci.flags = 0;
  p->ci.attachmentCount = 3;
  p->ci.pAttachments = p->attachments;
  p->ci.subpassCount = 1;
  p->ci.pSubpasses = p->subpasses;
  p->ci.dependencyCount = 0;
  p->ci.pDependencies = NULL;
}

static void
pass_add_multiview (PassFx *p, uint32_t mask0, uint32_t mask1, int32_t offset1, uint32_t correlation)
{
  p->view_masks[0] = mask0;
  p->view_masks[1] = mask1;
  p->view_offsets[0] = 0;
  p->view_offsets[1] = offset1;
  p->correlation[0] = correlation;
  p->multiview.subpassCount = p->ci.subpassCount;
  p->multiview.pViewMasks = p->view_masks;
  p->multiview.dependencyCount = p->ci.dependencyCount;
  p->multiview.pViewOffsets = p->view_offsets;
  p->multiview.correlationMaskCount = correlation ? 1 : 0;
  p->multiview.pCorrelationMasks = correlation ? p->correlation : NULL;
  chain_append (&p->ci.pNext, (VkBaseInStructure *) &p->multiview,
                VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
}

/* --- stages (graphics and compute) ----------------------------------------- */
static void
set_map (VkSpecializationMapEntry *e, uint32_t id, uint32_t offset, size_t size)
{
  e->constantID = id;
  e->offset = offset;
  e->size = size;
}

static void
set_spec (VkSpecializationInfo *s, uint32_t n, const VkSpecializationMapEntry *map, size_t size,
          const void *data)
{
  s->mapEntryCount = n;
  s->pMapEntries = map;
  s->dataSize = size;
  s->pData = data;
}

static void
set_stage (VkPipelineShaderStageCreateInfo *s, VkShaderStageFlagBits stage, VkShaderModule module,
           const char *name, const VkSpecializationInfo *spec)
{
  s->sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  s->pNext = NULL;
  s->flags = 0;
  s->stage = stage;
  s->module = module;
  s->pName = name;
  s->pSpecializationInfo = spec;
}

/* --- graphics -------------------------------------------------------------- */
#define GFX_SPEC_BYTES 1024

typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineRenderingCreateInfo rendering;
  VkFormat color_formats[PSC_MAX_COLOR_ATTACHMENTS + 2];
  VkPipelineShaderStageCreateInfo stages[PSC_MAX_GRAPHICS_STAGES + 2];
  VkSpecializationInfo spec[PSC_MAX_GRAPHICS_STAGES + 2];
  VkSpecializationMapEntry map[PSC_MAX_GRAPHICS_STAGES + 2][PSC_MAX_SPEC_CONSTANTS + 2];
  uint8_t spec_data[PSC_MAX_GRAPHICS_STAGES + 2][GFX_SPEC_BYTES];
  char names[PSC_MAX_GRAPHICS_STAGES + 2][128];
  VkPipelineVertexInputStateCreateInfo vertex_input;
  VkVertexInputBindingDescription bindings[PSC_MAX_VERTEX_BINDINGS + 2];
  VkVertexInputAttributeDescription attributes[PSC_MAX_VERTEX_ATTRIBUTES + 2];
  VkPipelineInputAssemblyStateCreateInfo input_assembly;
  VkPipelineTessellationStateCreateInfo tessellation;
  VkPipelineViewportStateCreateInfo viewport;
  VkViewport viewports[2];
  VkPipelineRasterizationStateCreateInfo raster;
  VkPipelineMultisampleStateCreateInfo multisample;
  VkSampleMask sample_mask[2];
  VkPipelineDepthStencilStateCreateInfo depth_stencil;
  VkPipelineColorBlendStateCreateInfo blend;
  VkPipelineColorBlendAttachmentState attachments[PSC_MAX_COLOR_ATTACHMENTS + 2];
  VkPipelineDynamicStateCreateInfo dynamic;
  VkDynamicState dynamic_states[48];
  VkBaseInStructure extra[4];
} Gfx;

static void
set_vertex_binding (VkVertexInputBindingDescription *b, uint32_t binding, uint32_t stride,
                    VkVertexInputRate rate)
{
  b->binding = binding;
  b->stride = stride;
  b->inputRate = rate;
}

static void
set_vertex_attribute (VkVertexInputAttributeDescription *a, uint32_t location, uint32_t binding,
                      VkFormat format, uint32_t offset)
{
  a->location = location;
  a->binding = binding;
  a->format = format;
  a->offset = offset;
}

static void
set_stencil (VkStencilOpState *s, VkStencilOp fail, VkStencilOp pass, VkStencilOp depth_fail,
             VkCompareOp compare, uint32_t compare_mask, uint32_t write_mask, uint32_t reference)
{
  s->failOp = fail;
  s->passOp = pass;
  s->depthFailOp = depth_fail;
  s->compareOp = compare;
  s->compareMask = compare_mask;
  s->writeMask = write_mask;
  s->reference = reference;
}

static void
set_blend_attachment (VkPipelineColorBlendAttachmentState *a, VkBool32 enable,
                      VkBlendFactor src_color, VkBlendFactor dst_color, VkBlendOp color_op,
                      VkBlendFactor src_alpha, VkBlendFactor dst_alpha, VkBlendOp alpha_op,
                      VkColorComponentFlags mask)
{
  a->blendEnable = enable;
  a->srcColorBlendFactor = src_color;
  a->dstColorBlendFactor = dst_color;
  a->colorBlendOp = color_op;
  a->srcAlphaBlendFactor = src_alpha;
  a->dstAlphaBlendFactor = dst_alpha;
  a->alphaBlendOp = alpha_op;
  a->colorWriteMask = mask;
}

#define RGBA (VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT \
              | VK_COLOR_COMPONENT_A_BIT)

/* A realistic pipeline: vertex (2 specialization constants: id 0 u32 = 42,
 * id 7 u64) + fragment (id 3 float = 0.5); 2 vertex bindings, 4 attributes;
 * triangle list, back-face culling; depth test/write LESS_OR_EQUAL, stencil
 * on; 2 colour attachments (RGBA8 blended, RGBA16F not blended); D24S8;
 * viewport and scissor dynamic. Dynamic rendering, or (legacy) subpass 0 of
 * hd.rp_simple. */
static void
gfx_fill (Gfx *g, PscRenderingMode mode)
{
  strcpy (g->names[0], "main");
  put_u32 (&g->spec_data[0][0], 42);
  put_u64 (&g->spec_data[0][4], UINT64_C (0x1122334455667788));
  set_map (&g->map[0][0], 0, 0, 4);
  set_map (&g->map[0][1], 7, 4, 8);
  set_spec (&g->spec[0], 2, g->map[0], 12, g->spec_data[0]);
  set_stage (&g->stages[0], VK_SHADER_STAGE_VERTEX_BIT, hd.vs, g->names[0], &g->spec[0]);

  strcpy (g->names[1], "main");
  put_f32 (&g->spec_data[1][0], 0.5f);
  set_map (&g->map[1][0], 3, 0, 4);
  set_spec (&g->spec[1], 1, g->map[1], 4, g->spec_data[1]);
  set_stage (&g->stages[1], VK_SHADER_STAGE_FRAGMENT_BIT, hd.fs, g->names[1], &g->spec[1]);

  set_vertex_binding (&g->bindings[0], 0, 32, VK_VERTEX_INPUT_RATE_VERTEX);
  set_vertex_binding (&g->bindings[1], 1, 16, VK_VERTEX_INPUT_RATE_INSTANCE);
  set_vertex_attribute (&g->attributes[0], 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0);
  set_vertex_attribute (&g->attributes[1], 1, 0, VK_FORMAT_R32G32_SFLOAT, 12);
  set_vertex_attribute (&g->attributes[2], 2, 0, VK_FORMAT_R8G8B8A8_UNORM, 20);
  set_vertex_attribute (&g->attributes[3], 3, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0);
  g->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  g->vertex_input.pNext = NULL;
  g->vertex_input.flags = 0;
  g->vertex_input.vertexBindingDescriptionCount = 2;
  g->vertex_input.pVertexBindingDescriptions = g->bindings;
  g->vertex_input.vertexAttributeDescriptionCount = 4;
  g->vertex_input.pVertexAttributeDescriptions = g->attributes;

  g->input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  g->input_assembly.pNext = NULL;
  g->input_assembly.flags = 0;
  g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  g->input_assembly.primitiveRestartEnable = VK_FALSE;

  g->tessellation.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
  g->tessellation.pNext = NULL;
  g->tessellation.flags = 0;
  g->tessellation.patchControlPoints = 3;

  g->viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  g->viewport.pNext = NULL;
  g->viewport.flags = 0;
  g->viewport.viewportCount = 1;
  g->viewport.pViewports = NULL;
  g->viewport.scissorCount = 1;
  g->viewport.pScissors = NULL;

  g->raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  g->raster.pNext = NULL;
  g->raster.flags = 0;
  g->raster.depthClampEnable = VK_FALSE;
  g->raster.rasterizerDiscardEnable = VK_FALSE;
  g->raster.polygonMode = VK_POLYGON_MODE_FILL;
  g->raster.cullMode = VK_CULL_MODE_BACK_BIT;
  g->raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  g->raster.depthBiasEnable = VK_FALSE;
  g->raster.depthBiasConstantFactor = 1.25f;
  g->raster.depthBiasClamp = 0.0f;
  g->raster.depthBiasSlopeFactor = 0.75f;
  g->raster.lineWidth = 1.0f;

  g->multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  g->multisample.pNext = NULL;
  g->multisample.flags = 0;
  g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  g->multisample.sampleShadingEnable = VK_FALSE;
  g->multisample.minSampleShading = 0.25f;
  g->multisample.pSampleMask = NULL;
  g->multisample.alphaToCoverageEnable = VK_FALSE;
  g->multisample.alphaToOneEnable = VK_FALSE;

  g->depth_stencil.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  g->depth_stencil.pNext = NULL;
  g->depth_stencil.flags = 0;
  g->depth_stencil.depthTestEnable = VK_TRUE;
  g->depth_stencil.depthWriteEnable = VK_TRUE;
  g->depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  g->depth_stencil.depthBoundsTestEnable = VK_FALSE;
  g->depth_stencil.stencilTestEnable = VK_TRUE;
  set_stencil (&g->depth_stencil.front, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
               VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 1);
  set_stencil (&g->depth_stencil.back, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
               VK_STENCIL_OP_DECREMENT_AND_WRAP, VK_COMPARE_OP_EQUAL, 0x0f, 0xf0, 2);
  g->depth_stencil.minDepthBounds = 0.0f;
  g->depth_stencil.maxDepthBounds = 1.0f;

  set_blend_attachment (&g->attachments[0], VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
                        VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                        VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, RGBA);
  set_blend_attachment (&g->attachments[1], VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
                        VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                        RGBA);
  g->blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  g->blend.pNext = NULL;
  g->blend.flags = 0;
  g->blend.logicOpEnable = VK_FALSE;
  g->blend.logicOp = VK_LOGIC_OP_COPY;
  g->blend.attachmentCount = 2;
  g->blend.pAttachments = g->attachments;
  g->blend.blendConstants[0] = 0.1f;
  g->blend.blendConstants[1] = 0.2f;
  g->blend.blendConstants[2] = 0.3f;
  g->blend.blendConstants[3] = 0.4f;

  g->dynamic_states[0] = VK_DYNAMIC_STATE_VIEWPORT;
  g->dynamic_states[1] = VK_DYNAMIC_STATE_SCISSOR;
  g->dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  g->dynamic.pNext = NULL;
  g->dynamic.flags = 0;
  g->dynamic.dynamicStateCount = 2;
  g->dynamic.pDynamicStates = g->dynamic_states;

  g->color_formats[0] = VK_FORMAT_R8G8B8A8_UNORM;
  g->color_formats[1] = VK_FORMAT_R16G16B16A16_SFLOAT;
  g->rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
  g->rendering.pNext = NULL;
  g->rendering.viewMask = 0;
  g->rendering.colorAttachmentCount = 2;
  g->rendering.pColorAttachmentFormats = g->color_formats;
  g->rendering.depthAttachmentFormat = VK_FORMAT_D24_UNORM_S8_UINT;
  g->rendering.stencilAttachmentFormat = VK_FORMAT_D24_UNORM_S8_UINT;

  g->ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  g->ci.pNext = mode == PSC_RENDERING_DYNAMIC ? &g->rendering : NULL;
  g->ci.flags = 0;
  g->ci.stageCount = 2;
  g->ci.pStages = g->stages;
  g->ci.pVertexInputState = &g->vertex_input;
  g->ci.pInputAssemblyState = &g->input_assembly;
  g->ci.pTessellationState = NULL;
  g->ci.pViewportState = &g->viewport;
  g->ci.pRasterizationState = &g->raster;
  g->ci.pMultisampleState = &g->multisample;
  g->ci.pDepthStencilState = &g->depth_stencil;
  g->ci.pColorBlendState = &g->blend;
  g->ci.pDynamicState = &g->dynamic;
  g->ci.layout = hd.pl;
  g->ci.renderPass = mode == PSC_RENDERING_DYNAMIC ? VK_NULL_HANDLE : hd.rp_simple;
  g->ci.subpass = 0;
  g->ci.basePipelineHandle = VK_NULL_HANDLE;
  g->ci.basePipelineIndex = -1;
}

static Gfx *
gfx_new (PscRenderingMode mode)
{
  Gfx *g = fixture_new (sizeof (Gfx), 0);
  gfx_fill (g, mode);
  return g;
}

static void
gfx_add_dynamic (Gfx *g, VkDynamicState s)
{
  g->dynamic_states[g->dynamic.dynamicStateCount++] = s;
}

static void
gfx_remove_dynamic (Gfx *g, VkDynamicState s)
{
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->dynamic.dynamicStateCount; i++)
    if (g->dynamic_states[i] != s)
      g->dynamic_states[n++] = g->dynamic_states[i];
  g_assert_cmpuint (n + 1, ==, g->dynamic.dynamicStateCount);
  g->dynamic.dynamicStateCount = n;
}

/* Sets the number of colour attachments (rendering formats and blend states
 * together); new ones are RGBA8, not blended. */
static void
gfx_set_colors (Gfx *g, uint32_t n)
{
  for (uint32_t j = g->rendering.colorAttachmentCount; j < n; j++)
    {
      g->color_formats[j] = VK_FORMAT_R8G8B8A8_UNORM;
      set_blend_attachment (&g->attachments[j], VK_FALSE, VK_BLEND_FACTOR_ONE,
                            VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                            VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, RGBA);
    }
  g->rendering.colorAttachmentCount = n;
  g->blend.attachmentCount = n;
}

/* Appends a stage with entry point "main" and no specialization. */
static void
gfx_add_stage (Gfx *g, VkShaderStageFlagBits stage, VkShaderModule module)
{
  uint32_t i = g->ci.stageCount++;
  strcpy (g->names[i], "main");
  set_stage (&g->stages[i], stage, module, g->names[i], NULL);
}

static void
gfx_add_tessellation (Gfx *g, uint32_t patch_points)
{
  gfx_add_stage (g, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, hd.tcs);
  gfx_add_stage (g, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, hd.tes);
  g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  g->tessellation.patchControlPoints = patch_points;
  g->ci.pTessellationState = &g->tessellation;
}

/* --- compute ----------------------------------------------------------------- */
typedef struct {
  VkComputePipelineCreateInfo ci;
  VkSpecializationInfo spec;
  VkSpecializationMapEntry map[PSC_MAX_SPEC_CONSTANTS + 2];
  uint8_t data[GFX_SPEC_BYTES];
  char name[128];
  VkBaseInStructure extra[2];
} ComputeFx;

/* Compute shader "cs_main", constants id 1 = 64 (u32, local size), id 2 =
 * 1.5f; layout hd.pl. */
static void
compute_fill (ComputeFx *c)
{
  strcpy (c->name, "cs_main");
  put_u32 (&c->data[0], 64);
  put_f32 (&c->data[4], 1.5f);
  set_map (&c->map[0], 1, 0, 4);
  set_map (&c->map[1], 2, 4, 4);
  set_spec (&c->spec, 2, c->map, 8, c->data);
  set_stage (&c->ci.stage, VK_SHADER_STAGE_COMPUTE_BIT, hd.cs, c->name, &c->spec);
  c->ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  c->ci.pNext = NULL;
  c->ci.flags = 0;
  c->ci.layout = hd.pl;
  c->ci.basePipelineHandle = VK_NULL_HANDLE;
  c->ci.basePipelineIndex = -1;
}

/* Registers a fake compatibility pass whose subpass samples come from the
 * encoded key of a pass, like the core does. */
static VkRenderPass
fake_register_pass (uint32_t id, const VkRenderPassCreateInfo *ci)
{
  GBytes *k = key_of (KIND_RENDER_PASS, ci);
  gsize len;
  const uint8_t *data = g_bytes_get_data (k, &len);
  uint64_t handle = fake_register (FK_RENDER_PASS, id, 0);
  FakeObject *o = fake_find (fake, FK_RENDER_PASS, handle);
  uint32_t count = 0, samples = 0;
  g_assert_true (psc_render_pass_key_subpass_samples (data, len, 0, &count, &samples));
  o->subpass_count = count;
  for (uint32_t s = 0; s < count; s++)
    g_assert_true (psc_render_pass_key_subpass_samples (data, len, s, NULL, &o->samples[s]));
  g_bytes_unref (k);
  return H (VkRenderPass, handle);
}

/* ===========================================================================
 * Per-kind fixtures for the generic tests: the default create info, and a
 * different, bigger one built in the same storage (more array elements,
 * longer strings, extension structs) to leave stale bytes behind.
 */
static void sampler_default (void *p) { sampler_fill (p); }
static void
sampler_big (void *p)
{
  SamplerFx *s = p;
  sampler_fill (s);
  s->ci.compareEnable = VK_TRUE;
  s->ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  s->ci.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_MAX);
}

static void set_layout_default (void *p) { set_layout_fill (p); }
static void
set_layout_big (void *p)
{
  SetLayoutFx *s = p;
  set_layout_fill (s);
  for (uint32_t i = 3; i < 12; i++)
    {
      for (uint32_t j = 0; j < 4; j++)
        s->samplers[1][j] = hd.s[(i + j) % 5];
      set_binding (&s->bindings[i], 10 + i, VK_DESCRIPTOR_TYPE_SAMPLER, 4,
                   VK_SHADER_STAGE_ALL, s->samplers[1]);
      s->binding_flags[i] = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
    }
  s->ci.bindingCount = 12;
  s->flags_ci.bindingCount = 12;
  s->ci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
}

static void pipeline_layout_default (void *p) { pipeline_layout_fill (p); }
static void
pipeline_layout_big (void *p)
{
  PipelineLayoutFx *l = p;
  pipeline_layout_fill (l);
  for (uint32_t i = 2; i < 6; i++)
    l->sets[i] = i % 2 ? hd.sl2 : hd.sl0;
  for (uint32_t i = 2; i < 8; i++)
    push_range (&l->ranges[i], VK_SHADER_STAGE_COMPUTE_BIT, 32 + 4 * i, 4);
  l->ci.setLayoutCount = 6;
  l->ci.pushConstantRangeCount = 8;
}

static void pass_default (void *p) { pass_fill (p); }
static void
pass_big (void *p)
{
  PassFx *r = p;
  pass_fill (r);
  for (uint32_t i = 4; i < 10; i++)
    attachment (&r->attachments[i], VK_FORMAT_B8G8R8A8_SRGB, VK_SAMPLE_COUNT_1_BIT,
                VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
                VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
  r->ci.attachmentCount = 10;
  for (uint32_t j = 1; j < 5; j++)
    ref (&r->colors[1][j], 4 + j, VK_IMAGE_LAYOUT_GENERAL);
  r->subpasses[1].colorAttachmentCount = 5;
  for (uint32_t j = 1; j < 4; j++)
    r->preserve[0][j] = 5 + j;
  r->subpasses[0].preserveAttachmentCount = 4;
  pass_add_multiview (r, 0x3, 0x3, 1, 0x3);
}

static void gfx_default_dynamic (void *p) { gfx_fill (p, PSC_RENDERING_DYNAMIC); }
static void gfx_default_legacy (void *p) { gfx_fill (p, PSC_RENDERING_LEGACY); }

static void
gfx_big (Gfx *g, PscRenderingMode mode)
{
  gfx_fill (g, mode);
  strcpy (g->names[0], "vertex_main_with_a_much_longer_entry_point_name");
  for (uint32_t j = 2; j < PSC_MAX_SPEC_CONSTANTS; j++)
    {
      set_map (&g->map[0][j], 100 + j, 12 + 4 * (j - 2), 4);
      put_u32 (&g->spec_data[0][12 + 4 * (j - 2)], 0xabc0 + j);
    }
  g->spec[0].mapEntryCount = PSC_MAX_SPEC_CONSTANTS;
  g->spec[0].dataSize = 12 + 4 * (PSC_MAX_SPEC_CONSTANTS - 2);
  gfx_add_stage (g, VK_SHADER_STAGE_GEOMETRY_BIT, hd.gs);
  gfx_add_tessellation (g, 4);
  gfx_set_colors (g, 4);
  for (uint32_t j = 4; j < 8; j++)
    set_vertex_attribute (&g->attributes[j], j, 1, VK_FORMAT_R16G16_SFLOAT, 4 * j);
  g->vertex_input.vertexAttributeDescriptionCount = 8;
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_LINE_WIDTH);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_DEPTH_BIAS);
  g->sample_mask[0] = 0x1;
  g->multisample.pSampleMask = g->sample_mask;
  g->depth_stencil.depthBoundsTestEnable = VK_TRUE;
}
static void gfx_big_dynamic (void *p) { gfx_big (p, PSC_RENDERING_DYNAMIC); }
static void gfx_big_legacy (void *p) { gfx_big (p, PSC_RENDERING_LEGACY); }

static void compute_default (void *p) { compute_fill (p); }
static void
compute_big (void *p)
{
  ComputeFx *c = p;
  compute_fill (c);
  strcpy (c->name, "a_compute_entry_point_with_a_long_name");
  for (uint32_t j = 2; j < PSC_MAX_SPEC_CONSTANTS; j++)
    {
      set_map (&c->map[j], 50 + j, 8 + 8 * (j - 2), 8);
      put_u64 (&c->data[8 + 8 * (j - 2)], UINT64_C (0x0102030405060708) * j);
    }
  c->spec.mapEntryCount = PSC_MAX_SPEC_CONSTANTS;
  c->spec.dataSize = 8 + 8 * (PSC_MAX_SPEC_CONSTANTS - 2);
  c->ci.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
}

typedef struct {
  const char *name;
  Kind kind;
  size_t size;
  void (*fill) (void *);
  void (*big) (void *);
} KindFx;

static const KindFx kinds[] = {
  { "sampler", KIND_SAMPLER, sizeof (SamplerFx), sampler_default, sampler_big },
  { "set-layout", KIND_SET_LAYOUT, sizeof (SetLayoutFx), set_layout_default, set_layout_big },
  { "pipeline-layout", KIND_PIPELINE_LAYOUT, sizeof (PipelineLayoutFx), pipeline_layout_default,
    pipeline_layout_big },
  { "render-pass", KIND_RENDER_PASS, sizeof (PassFx), pass_default, pass_big },
  { "graphics-dynamic", KIND_GRAPHICS_DYNAMIC, sizeof (Gfx), gfx_default_dynamic, gfx_big_dynamic },
  { "graphics-legacy", KIND_GRAPHICS_LEGACY, sizeof (Gfx), gfx_default_legacy, gfx_big_legacy },
  { "compute", KIND_COMPUTE, sizeof (ComputeFx), compute_default, compute_big },
};

static GBytes *
key_of_fixture (const KindFx *k, int fill_byte, bool big)
{
  void *fx = fixture_new (k->size, fill_byte);
  (big ? k->big : k->fill) (fx);
  GBytes *key = key_of (k->kind, fx);
  g_free (fx);
  return key;
}

/* Same create info twice, from two storages, gives identical keys; the
 * default and the big create info differ; every key starts with its kind's
 * tag. */
static void
test_determinism (gconstpointer data)
{
  const KindFx *k = data;
  void *fx = fixture_new (k->size, 0);
  k->fill (fx);
  GBytes *a = key_of (k->kind, fx);
  GBytes *b = key_of (k->kind, fx);
  GBytes *c = key_of_fixture (k, 0, false);
  GBytes *big = key_of_fixture (k, 0, true);
  assert_same_key (a, b);
  assert_same_key (a, c);
  assert_different_key (a, big);

  static const uint32_t tags[] = {
    [KIND_SAMPLER] = PSC_TAG_SAMPLER, [KIND_SET_LAYOUT] = PSC_TAG_SET_LAYOUT,
    [KIND_PIPELINE_LAYOUT] = PSC_TAG_PIPELINE_LAYOUT, [KIND_RENDER_PASS] = PSC_TAG_RENDER_PASS,
    [KIND_GRAPHICS_DYNAMIC] = PSC_TAG_GRAPHICS, [KIND_GRAPHICS_LEGACY] = PSC_TAG_GRAPHICS,
    [KIND_COMPUTE] = PSC_TAG_COMPUTE,
  };
  uint32_t tag;
  gsize len;
  const uint8_t *p = g_bytes_get_data (a, &len);
  g_assert_cmpuint (len, >=, sizeof tag);
  memcpy (&tag, p, sizeof tag);
  g_assert_cmphex (tag, ==, tags[k->kind]);
  /* The key hash is a pure function of the bytes. */
  g_assert_cmphex (psc_key_hash (p, len), ==, psc_key_hash (g_bytes_get_data (b, NULL), len));

  g_bytes_unref (a);
  g_bytes_unref (b);
  g_bytes_unref (c);
  g_bytes_unref (big);
  g_free (fx);
}

/* The create info rebuilt in storage that held a different, bigger one (and
 * garbage before that), and the key rebuilt in a key buffer that held a
 * longer key, give the same bytes as a fresh build. */
static void
test_reused_buffers (gconstpointer data)
{
  const KindFx *k = data;
  GBytes *fresh = key_of_fixture (k, 0, false);
  gsize fresh_len;
  const uint8_t *fresh_bytes = g_bytes_get_data (fresh, &fresh_len);

  void *fx = fixture_new (k->size, 0x5a);
  uint8_t *buf = g_malloc (PSC_MAX_KEY_BYTES);
  memset (buf, 0x3c, PSC_MAX_KEY_BYTES);
  PscKeyWriter w = { buf, 0, PSC_MAX_KEY_BYTES };
  PscCoreError err;

  for (int round = 0; round < 3; round++)
    {
      k->big (fx);
      w.len = 0;
      g_assert_cmpint (encode_kind (k->kind, fx, &fake->resolver, &w, &err), ==, PSC_STATUS_OK);
      size_t big_len = w.len;
      g_assert_true (big_len != fresh_len || memcmp (buf, fresh_bytes, fresh_len) != 0);

      k->fill (fx);
      w.len = 0;
      g_assert_cmpint (encode_kind (k->kind, fx, &fake->resolver, &w, &err), ==, PSC_STATUS_OK);
      g_assert_cmpmem (buf, w.len, fresh_bytes, fresh_len);
    }

  GBytes *again = key_of (k->kind, fx);
  assert_same_key (fresh, again);
  g_bytes_unref (again);
  g_bytes_unref (fresh);
  g_free (buf);
  g_free (fx);
}

/* Create infos in storage filled with 0xff (every pad byte, unused slot and
 * string tail set) then assigned field by field give the key of zeroed
 * storage: no padding or unused byte is read. */
static void
test_padding_runtime (gconstpointer data)
{
  const KindFx *k = data;
  for (int big = 0; big < 2; big++)
    {
      GBytes *zero = key_of_fixture (k, 0x00, big);
      GBytes *ones = key_of_fixture (k, 0xff, big);
      GBytes *pattern = key_of_fixture (k, 0x81, big);
      assert_same_key (zero, ones);
      assert_same_key (zero, pattern);
      g_bytes_unref (zero);
      g_bytes_unref (ones);
      g_bytes_unref (pattern);
    }
}

/* The encoders build key records on their stack: a record with an
 * unassigned member or implicit padding would copy stack garbage into the
 * key. Encode after filling the stack with two different patterns. */
static void __attribute__ ((noinline))
dirty_stack (uint8_t pattern)
{
  volatile uint8_t junk[64 * 1024];
  for (size_t i = 0; i < sizeof junk; i++)
    junk[i] = pattern;
}

static void __attribute__ ((noinline))
encode_after_dirty_stack (const KindFx *k, const void *fx, uint8_t pattern, uint8_t *buf, size_t *len)
{
  PscKeyWriter w = { buf, 0, PSC_MAX_KEY_BYTES };
  PscCoreError err;
  dirty_stack (pattern);
  g_assert_cmpint (encode_kind (k->kind, fx, &fake->resolver, &w, &err), ==, PSC_STATUS_OK);
  *len = w.len;
}

static void
test_padding_stack (gconstpointer data)
{
  const KindFx *k = data;
  uint8_t *a = g_malloc (PSC_MAX_KEY_BYTES), *b = g_malloc (PSC_MAX_KEY_BYTES);
  for (int big = 0; big < 2; big++)
    {
      void *fx = fixture_new (k->size, 0);
      (big ? k->big : k->fill) (fx);
      size_t la, lb;
      encode_after_dirty_stack (k, fx, 0x00, a, &la);
      encode_after_dirty_stack (k, fx, 0xff, b, &lb);
      g_assert_cmpmem (a, la, b, lb);
      encode_after_dirty_stack (k, fx, 0x96, b, &lb);
      g_assert_cmpmem (a, la, b, lb);
      g_free (fx);
    }
  g_free (a);
  g_free (b);
}

/* A key buffer too small for the key fails with CAPACITY (empty path) for
 * every size below the key's length, and never writes past its capacity. */
static void
test_key_buffer_full (gconstpointer data)
{
  const KindFx *k = data;
  for (int big = 0; big < 2; big++)
    {
      void *fx = fixture_new (k->size, 0);
      (big ? k->big : k->fill) (fx);
      GBytes *full = key_of (k->kind, fx);
      gsize len;
      g_bytes_get_data (full, &len);
      uint8_t *buf = g_malloc (len + 64);
      for (size_t cap = 0; cap < len; cap++)
        {
          memset (buf, 0x77, len + 64);
          PscKeyWriter w = { buf, 0, cap };
          PscCoreError err;
          memset (&err, 0, sizeof err);
          PscStatus st = encode_kind (k->kind, fx, &fake->resolver, &w, &err);
          g_assert_cmpint (st, ==, PSC_STATUS_CAPACITY);
          g_assert_cmpstr (err.path, ==, "");
          char *msg = g_strdup_printf ("canonical key does not fit the %zu-byte key buffer", cap);
          g_assert_cmpstr (err.message, ==, msg);
          g_free (msg);
          for (size_t i = cap; i < len + 64; i++)
            g_assert_cmphex (buf[i], ==, 0x77);
        }
      /* Exactly the key's length fits. */
      PscKeyWriter w = { buf, 0, len };
      PscCoreError err;
      g_assert_cmpint (encode_kind (k->kind, fx, &fake->resolver, &w, &err), ==, PSC_STATUS_OK);
      g_assert_cmpmem (buf, w.len, g_bytes_get_data (full, NULL), len);
      g_free (buf);
      g_bytes_unref (full);
      g_free (fx);
    }
}

/* ===========================================================================
 * Graphics: one field changed at a time never aliases.
 */

/* Applies variant v to a default dynamic-rendering pipeline; returns its
 * name, or NULL past the last variant. *round_trip is false for variants
 * the decoder cannot reproduce by design (a stale shader generation decodes
 * to the module's current one). */
static const char *
gfx_variant (Gfx *g, unsigned v, bool *round_trip)
{
  unsigned i = 0;
  *round_trip = true;
#define VARIANT(name) if (v == i++) { const char *n_ = (name);
#define END return n_; }
  VARIANT ("base") END
  VARIANT ("flags DISABLE_OPTIMIZATION") g->ci.flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT; END
  VARIANT ("flags ALLOW_DERIVATIVES") g->ci.flags = VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT; END
  VARIANT ("layout id") g->ci.layout = hd.pl2; END
  VARIANT ("topology LINE_LIST") g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; END
  VARIANT ("topology TRIANGLE_STRIP") g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; END
  VARIANT ("primitive restart") g->input_assembly.primitiveRestartEnable = VK_TRUE; END
  VARIANT ("cull FRONT") g->raster.cullMode = VK_CULL_MODE_FRONT_BIT; END
  VARIANT ("cull NONE") g->raster.cullMode = VK_CULL_MODE_NONE; END
  VARIANT ("front face CW") g->raster.frontFace = VK_FRONT_FACE_CLOCKWISE; END
  VARIANT ("polygon LINE") g->raster.polygonMode = VK_POLYGON_MODE_LINE; END
  VARIANT ("depth clamp") g->raster.depthClampEnable = VK_TRUE; END
  VARIANT ("depth bias enable") g->raster.depthBiasEnable = VK_TRUE; END
  VARIANT ("depth bias constant 2") g->raster.depthBiasEnable = VK_TRUE; g->raster.depthBiasConstantFactor = 2.0f; END
  VARIANT ("depth bias all zero") g->raster.depthBiasEnable = VK_TRUE; g->raster.depthBiasConstantFactor = 0.0f; g->raster.depthBiasSlopeFactor = 0.0f; END
  VARIANT ("line list, line width 2") g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; g->raster.lineWidth = 2.0f; END
  VARIANT ("4 samples") g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT; END
  VARIANT ("sample shading 0.25") g->multisample.sampleShadingEnable = VK_TRUE; END
  VARIANT ("sample shading 1.0") g->multisample.sampleShadingEnable = VK_TRUE; g->multisample.minSampleShading = 1.0f; END
  VARIANT ("sample mask 0") g->sample_mask[0] = 0; g->multisample.pSampleMask = g->sample_mask; END
  VARIANT ("alpha to coverage") g->multisample.alphaToCoverageEnable = VK_TRUE; END
  VARIANT ("alpha to one") g->multisample.alphaToOneEnable = VK_TRUE; END
  VARIANT ("depth test off") g->depth_stencil.depthTestEnable = VK_FALSE; END
  VARIANT ("depth write off") g->depth_stencil.depthWriteEnable = VK_FALSE; END
  VARIANT ("depth compare GREATER") g->depth_stencil.depthCompareOp = VK_COMPARE_OP_GREATER; END
  VARIANT ("depth bounds test") g->depth_stencil.depthBoundsTestEnable = VK_TRUE; END
  VARIANT ("depth bounds min 0.5") g->depth_stencil.depthBoundsTestEnable = VK_TRUE; g->depth_stencil.minDepthBounds = 0.5f; END
  VARIANT ("stencil test off") g->depth_stencil.stencilTestEnable = VK_FALSE; END
  VARIANT ("stencil front fail ZERO") g->depth_stencil.front.failOp = VK_STENCIL_OP_ZERO; END
  VARIANT ("stencil front pass KEEP") g->depth_stencil.front.passOp = VK_STENCIL_OP_KEEP; END
  VARIANT ("stencil back depth-fail KEEP") g->depth_stencil.back.depthFailOp = VK_STENCIL_OP_KEEP; END
  VARIANT ("stencil front compare NEVER") g->depth_stencil.front.compareOp = VK_COMPARE_OP_NEVER; END
  VARIANT ("stencil front compare mask") g->depth_stencil.front.compareMask = 0x7f; END
  VARIANT ("stencil back write mask") g->depth_stencil.back.writeMask = 0; END
  VARIANT ("stencil front reference") g->depth_stencil.front.reference = 9; END
  VARIANT ("stencil back reference") g->depth_stencil.back.reference = 9; END
  VARIANT ("logic op XOR") g->blend.logicOpEnable = VK_TRUE; g->blend.logicOp = VK_LOGIC_OP_XOR; END
  VARIANT ("logic op AND") g->blend.logicOpEnable = VK_TRUE; g->blend.logicOp = VK_LOGIC_OP_AND; END
  VARIANT ("blend src color ONE") g->attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_ONE; END
  VARIANT ("blend dst color ONE") g->attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE; END
  VARIANT ("blend color op SUBTRACT") g->attachments[0].colorBlendOp = VK_BLEND_OP_SUBTRACT; END
  VARIANT ("blend src alpha SRC_ALPHA") g->attachments[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA; END
  VARIANT ("blend dst alpha ONE") g->attachments[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE; END
  VARIANT ("blend alpha op MAX") g->attachments[0].alphaBlendOp = VK_BLEND_OP_MAX; END
  VARIANT ("write mask RGB") g->attachments[0].colorWriteMask = RGBA & ~VK_COLOR_COMPONENT_A_BIT; END
  VARIANT ("blend off on 0") g->attachments[0].blendEnable = VK_FALSE; END
  VARIANT ("blend on on 1") g->attachments[1].blendEnable = VK_TRUE; END
  VARIANT ("write mask 0 on 1") g->attachments[1].colorWriteMask = 0; END
  VARIANT ("blend constants A") g->attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR; END
  VARIANT ("blend constants B") g->attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR; g->blend.blendConstants[3] = 0.9f; END
  VARIANT ("color format 0 BGRA8") g->color_formats[0] = VK_FORMAT_B8G8R8A8_UNORM; END
  VARIANT ("color format 1 R32F") g->color_formats[1] = VK_FORMAT_R32_SFLOAT; END
  VARIANT ("color formats swapped") g->color_formats[0] = VK_FORMAT_R16G16B16A16_SFLOAT; g->color_formats[1] = VK_FORMAT_R8G8B8A8_UNORM; END
  VARIANT ("color format 1 UNDEFINED") g->color_formats[1] = VK_FORMAT_UNDEFINED; END
  VARIANT ("depth/stencil D32S8") g->rendering.depthAttachmentFormat = VK_FORMAT_D32_SFLOAT_S8_UINT; g->rendering.stencilAttachmentFormat = VK_FORMAT_D32_SFLOAT_S8_UINT; END
  VARIANT ("depth only D32") g->rendering.depthAttachmentFormat = VK_FORMAT_D32_SFLOAT; g->rendering.stencilAttachmentFormat = VK_FORMAT_UNDEFINED; END
  VARIANT ("stencil only S8") g->rendering.depthAttachmentFormat = VK_FORMAT_UNDEFINED; g->rendering.stencilAttachmentFormat = VK_FORMAT_S8_UINT; END
  VARIANT ("view mask 3") g->rendering.viewMask = 0x3; END
  VARIANT ("1 color attachment") gfx_set_colors (g, 1); END
  VARIANT ("3 color attachments") gfx_set_colors (g, 3); END
  VARIANT ("binding 0 stride 48") g->bindings[0].stride = 48; END
  VARIANT ("binding 1 per vertex") g->bindings[1].inputRate = VK_VERTEX_INPUT_RATE_VERTEX; END
  VARIANT ("binding 1 renumbered 2") g->bindings[1].binding = 2; g->attributes[3].binding = 2; END
  VARIANT ("no binding 1") g->vertex_input.vertexBindingDescriptionCount = 1; END
  VARIANT ("attribute 1 offset 16") g->attributes[1].offset = 16; END
  VARIANT ("attribute 2 format SNORM") g->attributes[2].format = VK_FORMAT_R8G8B8A8_SNORM; END
  VARIANT ("attribute 3 location 5") g->attributes[3].location = 5; END
  VARIANT ("attribute 3 binding 0") g->attributes[3].binding = 0; END
  VARIANT ("3 attributes") g->vertex_input.vertexAttributeDescriptionCount = 3; END
  VARIANT ("fragment entry point") strcpy (g->names[1], "fs_main"); END
  VARIANT ("vertex entry point prefix") strcpy (g->names[0], "mai"); END
  VARIANT ("vertex module generation 2") g->stages[0].module = hd.vs_gen2; *round_trip = false; END
  VARIANT ("fragment module other id") g->stages[1].module = hd.fs2; END
  VARIANT ("vertex spec value 43") put_u32 (&g->spec_data[0][0], 43); END
  VARIANT ("vertex spec u64 top byte") g->spec_data[0][11] ^= 0x80; END
  VARIANT ("vertex spec constant id 1") g->map[0][0].constantID = 1; END
  VARIANT ("vertex spec one constant") g->spec[0].mapEntryCount = 1; END
  VARIANT ("vertex spec none") g->stages[0].pSpecializationInfo = NULL; END
  VARIANT ("fragment spec 8 bytes") put_u32 (&g->spec_data[1][4], 0); g->map[1][0].size = 8; g->spec[1].dataSize = 8; END
  VARIANT ("fragment stage flags") g->stages[1].flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT; END
  VARIANT ("dynamic LINE_WIDTH") gfx_add_dynamic (g, VK_DYNAMIC_STATE_LINE_WIDTH); END
  VARIANT ("dynamic DEPTH_BIAS") gfx_add_dynamic (g, VK_DYNAMIC_STATE_DEPTH_BIAS); END
  VARIANT ("dynamic VIEWPORT_WITH_COUNT") gfx_remove_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT); gfx_add_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT); END
  VARIANT ("2 viewports") g->viewport.viewportCount = 2; g->viewport.scissorCount = 2; END
  VARIANT ("rasterizer discard") g->raster.rasterizerDiscardEnable = VK_TRUE; END
  VARIANT ("geometry stage") gfx_add_stage (g, VK_SHADER_STAGE_GEOMETRY_BIT, hd.gs); END
  VARIANT ("tessellation 3") gfx_add_tessellation (g, 3); END
  VARIANT ("tessellation 4") gfx_add_tessellation (g, 4); END
#undef VARIANT
#undef END
  return NULL;
}

static unsigned
gfx_variant_count (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  bool rt;
  unsigned n = 0;
  while (gfx_variant (g, n, &rt) != NULL)
    n++;
  g_free (g);
  return n;
}

static GBytes *
gfx_variant_key (unsigned v, const char **name, bool *round_trip)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  *name = gfx_variant (g, v, round_trip);
  g_assert_nonnull (*name);
  GBytes *k = key_of (KIND_GRAPHICS_DYNAMIC, g);
  g_free (g);
  return k;
}

static void
assert_all_distinct (GBytes **keys, const char **names, unsigned n)
{
  for (unsigned a = 0; a < n; a++)
    for (unsigned b = a + 1; b < n; b++)
      if (g_bytes_equal (keys[a], keys[b]))
        {
          char *m = g_strdup_printf ("\"%s\" and \"%s\" give the same key", names[a], names[b]);
          g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, m);
          g_free (m);
        }
}

static void
test_graphics_no_alias (void)
{
  unsigned n = gfx_variant_count ();
  g_assert_cmpuint (n, >=, 80);
  GBytes **keys = g_new0 (GBytes *, n);
  const char **names = g_new0 (const char *, n);
  for (unsigned v = 0; v < n; v++)
    {
      bool rt;
      keys[v] = gfx_variant_key (v, &names[v], &rt);
    }
  assert_all_distinct (keys, names, n);
  for (unsigned v = 0; v < n; v++)
    g_bytes_unref (keys[v]);
  g_free (keys);
  g_free (names);
}

/* Legacy backend: the blend state must describe exactly the subpass's colour
 * attachments (the resolver reports their count). */
static uint32_t fake_pass_colors = 1;

static bool
r_render_pass_colors (void *ctx, VkRenderPass pass, uint32_t subpass, uint32_t *color_count)
{
  if (fake_find (ctx, FK_RENDER_PASS, (uint64_t) (uintptr_t) pass) == NULL)
    return false;
  *color_count = fake_pass_colors;
  return true;
}

static void
test_graphics_legacy_blend_count (void)
{
  fake->resolver.render_pass_colors = r_render_pass_colors;
  Gfx *g = gfx_new (PSC_RENDERING_LEGACY);
  fake_pass_colors = g->ci.pColorBlendState ? g->ci.pColorBlendState->attachmentCount : 0;
  GBytes *k = key_of (KL, g);   /* matching counts: accepted */
  g_bytes_unref (k);
  uint32_t have = fake_pass_colors;
  fake_pass_colors = have + 1;
  assert_rejects (KL, g, PSC_STATUS_INVALID_ARGUMENT, "pColorBlendState->attachmentCount",
                  "%u, but subpass %u of renderPass has %u colour attachments",
                  have, g->ci.subpass, have + 1);
  g->ci.pColorBlendState = NULL;
  assert_rejects (KL, g, PSC_STATUS_INVALID_ARGUMENT, "pColorBlendState",
                  "NULL, but subpass %u of renderPass has %u colour attachments",
                  g->ci.subpass, have + 1);
  g_free (g);
  fake->resolver.render_pass_colors = NULL;
}

/* Legacy backend: the compatibility pass and subpass enter the key; legacy
 * and dynamic keys never alias. */
static void
test_graphics_legacy_no_alias (void)
{
  enum { N = 8 };
  GBytes *keys[N];
  const char *names[N] = {
    "dynamic base", "legacy base", "legacy rp_main subpass 1", "legacy rp_main subpass 0 x4",
    "legacy no depth/stencil state", "legacy no colour blend state", "legacy rp_empty",
    "legacy rp_empty x8",
  };
  for (unsigned v = 0; v < N; v++)
    {
      Gfx *g = gfx_new (v == 0 ? PSC_RENDERING_DYNAMIC : PSC_RENDERING_LEGACY);
      switch (v)
        {
        case 2: g->ci.renderPass = hd.rp_main; g->ci.subpass = 1; break;
        case 3: g->ci.renderPass = hd.rp_main; g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT; break;
        case 4: g->ci.pDepthStencilState = NULL; break;
        case 5: g->ci.pColorBlendState = NULL; break;
        case 6: g->ci.renderPass = hd.rp_empty; break;
        case 7: g->ci.renderPass = hd.rp_empty; g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_8_BIT; break;
        default: break;
        }
      keys[v] = key_of (v == 0 ? KIND_GRAPHICS_DYNAMIC : KIND_GRAPHICS_LEGACY, g);
      g_free (g);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);
}

/* ===========================================================================
 * Decoding: encode (decode (encode (x))) == encode (x), byte for byte.
 */
static const void *
decode_kind (Kind kind, GBytes *key, void **build)
{
  gsize len;
  const uint8_t *k = g_bytes_get_data (key, &len);
  size_t size = 0;
  switch (kind)
    {
    case KIND_SAMPLER: size = psc_sampler_build_size (); break;
    case KIND_SET_LAYOUT: size = psc_set_layout_build_size (); break;
    case KIND_PIPELINE_LAYOUT: size = psc_pipeline_layout_build_size (); break;
    case KIND_RENDER_PASS: size = psc_render_pass_build_size (); break;
    case KIND_GRAPHICS_DYNAMIC:
    case KIND_GRAPHICS_LEGACY: size = psc_graphics_build_size (); break;
    case KIND_COMPUTE: size = psc_compute_build_size (); break;
    }
  g_assert_cmpuint (size, >, 0);
  *build = psc_build_alloc (size);
  g_assert_nonnull (*build);
  /* The decoder must not depend on the storage being clean. */
  memset (*build, 0xcd, size);
  const PscResolver *r = &fake->resolver;
  switch (kind)
    {
    case KIND_SAMPLER: return psc_decode_sampler (k, len, *build);
    case KIND_SET_LAYOUT: return psc_decode_set_layout (k, len, r, *build);
    case KIND_PIPELINE_LAYOUT: return psc_decode_pipeline_layout (k, len, r, *build);
    case KIND_RENDER_PASS: return psc_decode_render_pass (k, len, *build);
    case KIND_GRAPHICS_DYNAMIC:
    case KIND_GRAPHICS_LEGACY: return psc_decode_graphics (k, len, r, *build);
    case KIND_COMPUTE: return psc_decode_compute (k, len, r, *build);
    }
  g_assert_not_reached ();
}

static void
assert_round_trip_impl (const char *file, int line, const char *func, Kind kind, GBytes *key,
                        const char *what)
{
  void *build = NULL;
  const void *ci = decode_kind (kind, key, &build);
  if (ci == NULL)
    {
      char *m = g_strdup_printf ("decode failed for %s", what);
      g_assertion_message (G_LOG_DOMAIN, file, line, func, m);
      g_free (m);
    }
  if (kind == KIND_GRAPHICS_DYNAMIC || kind == KIND_GRAPHICS_LEGACY)
    {
      /* The other readers of a graphics key walk the same optional records:
       * the shader references (each generation found at its offset) and the
       * rendering signature. */
      gsize len;
      const uint8_t *k = g_bytes_get_data (key, &len);
      uint32_t ids[PSC_MAX_GRAPHICS_STAGES], gens[PSC_MAX_GRAPHICS_STAGES];
      size_t offs[PSC_MAX_GRAPHICS_STAGES];
      const VkGraphicsPipelineCreateInfo *g = ci;
      int n = psc_pipeline_key_shaders (k, len, ids, gens, offs);
      if (n != (int) g->stageCount)
        g_assertion_message (G_LOG_DOMAIN, file, line, func, "shader reference count");
      for (int j = 0; j < n; j++)
        {
          uint32_t at;
          memcpy (&at, k + offs[j], sizeof at);
          if (at != gens[j])
            g_assertion_message (G_LOG_DOMAIN, file, line, func, "generation offset");
        }
      uint8_t sig[128];
      size_t sig_len = 0;
      if (!psc_graphics_key_rendering_signature (k, len, sig, &sig_len) || sig_len == 0)
        g_assertion_message (G_LOG_DOMAIN, file, line, func, "rendering signature");
    }
  GBytes *again = key_of_impl (file, line, func, kind, ci);
  if (!g_bytes_equal (key, again))
    {
      char *m = g_strdup_printf ("round trip changed the key of %s", what);
      assert_same_impl (file, line, func, key, again);
      g_assertion_message (G_LOG_DOMAIN, file, line, func, m);
      g_free (m);
    }
  g_bytes_unref (again);
  free (build);
}
#define assert_round_trip(kind, key, what) \
  assert_round_trip_impl (__FILE__, __LINE__, G_STRFUNC, (kind), (key), (what))

static void
test_round_trip_kinds (gconstpointer data)
{
  const KindFx *k = data;
  for (int big = 0; big < 2; big++)
    {
      GBytes *key = key_of_fixture (k, 0, big);
      assert_round_trip (k->kind, key, big ? "big" : "default");
      g_bytes_unref (key);
    }
}

static void
test_round_trip_graphics_variants (void)
{
  unsigned n = gfx_variant_count ();
  unsigned checked = 0;
  for (unsigned v = 0; v < n; v++)
    {
      const char *name;
      bool rt;
      GBytes *key = gfx_variant_key (v, &name, &rt);
      if (rt)
        {
          assert_round_trip (KIND_GRAPHICS_DYNAMIC, key, name);
          checked++;
        }
      g_bytes_unref (key);
    }
  g_assert_cmpuint (checked, ==, n - 1);
}

/* Decoded create infos say what the key says. */
static void
test_decode_contents (void)
{
  /* Graphics, dynamic rendering: stages sorted by stage bit, specialization
   * packed and sorted by constant ID, handles from the resolver. */
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  g->stages[0] = g->stages[1];           /* caller order: fragment, vertex */
  set_stage (&g->stages[1], VK_SHADER_STAGE_VERTEX_BIT, hd.vs, g->names[0], &g->spec[0]);
  set_map (&g->map[0][0], 7, 16, 8);     /* constants in another order and place */
  set_map (&g->map[0][1], 0, 4, 4);
  put_u64 (&g->spec_data[0][16], UINT64_C (0x1122334455667788));
  put_u32 (&g->spec_data[0][4], 42);
  g->spec[0].dataSize = 24;
  GBytes *key = key_of (KIND_GRAPHICS_DYNAMIC, g);
  void *build;
  const VkGraphicsPipelineCreateInfo *ci = decode_kind (KIND_GRAPHICS_DYNAMIC, key, &build);
  g_assert_nonnull (ci);
  g_assert_cmpint (ci->sType, ==, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  g_assert_cmpuint (ci->stageCount, ==, 2);
  g_assert_cmpint (ci->pStages[0].stage, ==, VK_SHADER_STAGE_VERTEX_BIT);
  g_assert_true (ci->pStages[0].module == hd.vs);
  g_assert_cmpstr (ci->pStages[0].pName, ==, "main");
  const VkSpecializationInfo *si = ci->pStages[0].pSpecializationInfo;
  g_assert_nonnull (si);
  g_assert_cmpuint (si->mapEntryCount, ==, 2);
  g_assert_cmpuint (si->pMapEntries[0].constantID, ==, 0);
  g_assert_cmpuint (si->pMapEntries[0].offset, ==, 0);
  g_assert_cmpuint (si->pMapEntries[0].size, ==, 4);
  g_assert_cmpuint (si->pMapEntries[1].constantID, ==, 7);
  g_assert_cmpuint (si->pMapEntries[1].offset, ==, 4);
  g_assert_cmpuint (si->pMapEntries[1].size, ==, 8);
  g_assert_cmpuint (si->dataSize, ==, 12);
  uint32_t u32;
  uint64_t u64;
  memcpy (&u32, si->pData, 4);
  memcpy (&u64, (const uint8_t *) si->pData + 4, 8);
  g_assert_cmpuint (u32, ==, 42);
  g_assert_cmphex (u64, ==, UINT64_C (0x1122334455667788));
  g_assert_cmpint (ci->pStages[1].stage, ==, VK_SHADER_STAGE_FRAGMENT_BIT);
  g_assert_true (ci->pStages[1].module == hd.fs);
  g_assert_true (ci->layout == hd.pl);
  g_assert_true (ci->renderPass == VK_NULL_HANDLE);
  g_assert_true (ci->basePipelineHandle == VK_NULL_HANDLE);
  const VkPipelineRenderingCreateInfo *ri = ci->pNext;
  g_assert_nonnull (ri);
  g_assert_cmpint (ri->sType, ==, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  g_assert_null (ri->pNext);
  g_assert_cmpuint (ri->colorAttachmentCount, ==, 2);
  g_assert_cmpint (ri->pColorAttachmentFormats[0], ==, VK_FORMAT_R8G8B8A8_UNORM);
  g_assert_cmpint (ri->pColorAttachmentFormats[1], ==, VK_FORMAT_R16G16B16A16_SFLOAT);
  g_assert_cmpint (ri->depthAttachmentFormat, ==, VK_FORMAT_D24_UNORM_S8_UINT);
  g_assert_cmpint (ri->stencilAttachmentFormat, ==, VK_FORMAT_D24_UNORM_S8_UINT);
  g_assert_nonnull (ci->pDynamicState);
  g_assert_cmpuint (ci->pDynamicState->dynamicStateCount, ==, 2);
  g_assert_nonnull (ci->pViewportState);
  g_assert_cmpuint (ci->pViewportState->viewportCount, ==, 1);
  g_assert_cmpuint (ci->pViewportState->scissorCount, ==, 1);
  g_assert_cmpint (ci->pRasterizationState->cullMode, ==, VK_CULL_MODE_BACK_BIT);
  g_assert_cmpfloat (ci->pRasterizationState->lineWidth, ==, 1.0f);
  g_assert_cmpuint (ci->pVertexInputState->vertexAttributeDescriptionCount, ==, 4);
  g_assert_cmpint (ci->pVertexInputState->pVertexAttributeDescriptions[3].format, ==,
                   VK_FORMAT_R32G32B32A32_SFLOAT);
  g_assert_cmpint (ci->pDepthStencilState->depthCompareOp, ==, VK_COMPARE_OP_LESS_OR_EQUAL);
  g_assert_cmpint (ci->pDepthStencilState->back.passOp, ==, VK_STENCIL_OP_INCREMENT_AND_CLAMP);
  g_assert_cmpuint (ci->pColorBlendState->attachmentCount, ==, 2);
  g_assert_cmpint (ci->pColorBlendState->pAttachments[0].dstColorBlendFactor, ==,
                   VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
  free (build);
  g_bytes_unref (key);
  g_free (g);

  /* Legacy: the compatibility pass and subpass, no rendering struct. */
  g = gfx_new (PSC_RENDERING_LEGACY);
  g->ci.renderPass = hd.rp_main;
  g->ci.subpass = 1;
  key = key_of (KIND_GRAPHICS_LEGACY, g);
  ci = decode_kind (KIND_GRAPHICS_LEGACY, key, &build);
  g_assert_nonnull (ci);
  g_assert_null (ci->pNext);
  g_assert_true (ci->renderPass == hd.rp_main);
  g_assert_cmpuint (ci->subpass, ==, 1);
  free (build);
  g_bytes_unref (key);
  g_free (g);

  /* Set layout: bindings sorted, immutable samplers back as handles. */
  SetLayoutFx *s = fixture_new (sizeof *s, 0);
  set_layout_fill (s);
  key = key_of (KIND_SET_LAYOUT, s);
  const VkDescriptorSetLayoutCreateInfo *sl = decode_kind (KIND_SET_LAYOUT, key, &build);
  g_assert_nonnull (sl);
  g_assert_cmpuint (sl->bindingCount, ==, 3);
  g_assert_cmpuint (sl->pBindings[0].binding, ==, 0);
  g_assert_cmpuint (sl->pBindings[1].binding, ==, 1);
  g_assert_cmpuint (sl->pBindings[2].binding, ==, 3);
  g_assert_null (sl->pBindings[0].pImmutableSamplers);
  g_assert_nonnull (sl->pBindings[2].pImmutableSamplers);
  g_assert_true (sl->pBindings[2].pImmutableSamplers[0] == hd.s[0]);
  g_assert_true (sl->pBindings[2].pImmutableSamplers[1] == hd.s[1]);
  const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = sl->pNext;
  g_assert_nonnull (bf);
  g_assert_cmpuint (bf->bindingCount, ==, 3);
  g_assert_cmphex (bf->pBindingFlags[1], ==, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT);
  g_assert_cmphex (bf->pBindingFlags[0] | bf->pBindingFlags[2], ==, 0);
  free (build);
  g_bytes_unref (key);
  g_free (s);

  /* Sampler: a disabled anisotropy decodes to a valid 1.0. */
  SamplerFx *sm = fixture_new (sizeof *sm, 0);
  sampler_fill (sm);
  sm->ci.anisotropyEnable = VK_FALSE;
  sm->ci.maxAnisotropy = 0.0f;
  key = key_of (KIND_SAMPLER, sm);
  const VkSamplerCreateInfo *sci = decode_kind (KIND_SAMPLER, key, &build);
  g_assert_nonnull (sci);
  g_assert_cmpfloat (sci->maxAnisotropy, ==, 1.0f);
  g_assert_cmpint (sci->magFilter, ==, VK_FILTER_LINEAR);
  g_assert_null (sci->pNext);
  free (build);
  g_bytes_unref (key);
  g_free (sm);
}

/* A truncated or extended key is malformed: the decoder returns NULL (and
 * reads nothing outside the key: ASan checks that). So does a key naming
 * an id the resolver no longer knows. */
static void
test_decode_malformed (gconstpointer data)
{
  const KindFx *k = data;
  GBytes *key = key_of_fixture (k, 0, true);
  gsize len;
  const uint8_t *bytes = g_bytes_get_data (key, &len);
  for (gsize cut = 0; cut < len; cut++)
    {
      uint8_t *copy = g_memdup2 (bytes, cut ? cut : 1);
      GBytes *prefix = g_bytes_new_take (copy, cut);
      void *build;
      const void *ci = decode_kind (k->kind, prefix, &build);
      if (ci != NULL)
        {
          char *m = g_strdup_printf ("%s: a %zu-byte prefix of a %zu-byte key decoded",
                                     k->name, (size_t) cut, (size_t) len);
          g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, m);
          g_free (m);
        }
      free (build);
      g_bytes_unref (prefix);
    }
  uint8_t *longer = g_malloc0 (len + 4);
  memcpy (longer, bytes, len);
  GBytes *extended = g_bytes_new_take (longer, len + 4);
  void *build;
  g_assert_null (decode_kind (k->kind, extended, &build));
  free (build);
  g_bytes_unref (extended);

  /* A key of another kind. */
  GBytes *other = key_of_fixture (&kinds[k->kind == KIND_SAMPLER ? KIND_COMPUTE : KIND_SAMPLER], 0, false);
  g_assert_null (decode_kind (k->kind, other, &build));
  free (build);
  g_bytes_unref (other);
  g_bytes_unref (key);
}

static void
test_decode_unknown_id (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  GBytes *key = key_of (KIND_GRAPHICS_DYNAMIC, g);
  void *build;
  fake_forget (FK_SHADER, (uint64_t) (uintptr_t) hd.fs);
  g_assert_null (decode_kind (KIND_GRAPHICS_DYNAMIC, key, &build));
  free (build);
  fake->objects[FK_SHADER][1].alive = true;     /* hd.fs is the second shader registered */
  g_assert_true (fake_find (fake, FK_SHADER, (uint64_t) (uintptr_t) hd.fs) != NULL);
  fake_forget (FK_PIPELINE_LAYOUT, (uint64_t) (uintptr_t) hd.pl);
  g_assert_null (decode_kind (KIND_GRAPHICS_DYNAMIC, key, &build));
  free (build);
  fake->objects[FK_PIPELINE_LAYOUT][0].alive = true;
  g_assert_true (fake_find (fake, FK_PIPELINE_LAYOUT, (uint64_t) (uintptr_t) hd.pl) != NULL);
  assert_round_trip (KIND_GRAPHICS_DYNAMIC, key, "restored");
  g_bytes_unref (key);
  g_free (g);

  SetLayoutFx *s = fixture_new (sizeof *s, 0);
  set_layout_fill (s);
  key = key_of (KIND_SET_LAYOUT, s);
  fake_forget (FK_SAMPLER, (uint64_t) (uintptr_t) hd.s[1]);
  g_assert_null (decode_kind (KIND_SET_LAYOUT, key, &build));
  free (build);
  fake->objects[FK_SAMPLER][1].alive = true;
  assert_round_trip (KIND_SET_LAYOUT, key, "restored");
  g_bytes_unref (key);
  g_free (s);
}

/* ===========================================================================
 * Specialization: canonical by constant ID, never by byte offset.
 */
static void
test_spec_canonical (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  GBytes *base = key_of (KIND_GRAPHICS_DYNAMIC, g);

  /* Same constants, map entries in reverse order, values at other offsets,
   * garbage in between and after. */
  Gfx *moved = gfx_new (PSC_RENDERING_DYNAMIC);
  memset (moved->spec_data[0], 0xee, 64);
  put_u64 (&moved->spec_data[0][40], UINT64_C (0x1122334455667788));
  put_u32 (&moved->spec_data[0][9], 42);          /* unaligned on purpose */
  set_map (&moved->map[0][0], 7, 40, 8);
  set_map (&moved->map[0][1], 0, 9, 4);
  moved->spec[0].dataSize = 64;
  memset (moved->spec_data[1], 0x11, 16);
  put_f32 (&moved->spec_data[1][12], 0.5f);
  set_map (&moved->map[1][0], 3, 12, 4);
  moved->spec[1].dataSize = 16;
  GBytes *k_moved = key_of (KIND_GRAPHICS_DYNAMIC, moved);
  assert_same_key (base, k_moved);

  /* ... with one value changed: different. */
  put_u32 (&moved->spec_data[0][9], 43);
  GBytes *k_value = key_of (KIND_GRAPHICS_DYNAMIC, moved);
  assert_different_key (base, k_value);
  /* ... with the garbage between values changed: the same again. */
  put_u32 (&moved->spec_data[0][9], 42);
  memset (moved->spec_data[0], 0x01, 9);
  memset (&moved->spec_data[0][13], 0x02, 27);
  memset (&moved->spec_data[0][48], 0x03, 16);
  GBytes *k_garbage = key_of (KIND_GRAPHICS_DYNAMIC, moved);
  assert_same_key (base, k_garbage);
  /* Two entries sharing bytes are still two constants. */
  set_map (&moved->map[0][1], 0, 40, 4);
  put_u32 (&moved->spec_data[0][40], 42);
  put_u32 (&g->spec_data[0][4], 42);              /* base: u64 with low word 42 */
  GBytes *k_shared = key_of (KIND_GRAPHICS_DYNAMIC, moved);
  GBytes *k_same_values = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_same_key (k_shared, k_same_values);
  assert_different_key (base, k_shared);

  /* All 6 orders of 3 constants give one key. */
  ComputeFx *c = fixture_new (sizeof *c, 0);
  GBytes *first = NULL;
  static const uint8_t perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
                                       { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
  for (int p = 0; p < 6; p++)
    {
      compute_fill (c);
      static const uint32_t ids[3] = { 9, 2, 5 };
      static const uint32_t values[3] = { 900, 200, 500 };
      for (int j = 0; j < 3; j++)
        {
          uint32_t which = perms[p][j];
          set_map (&c->map[j], ids[which], 8 * (uint32_t) j + 4, 4);
          put_u32 (&c->data[8 * j + 4], values[which]);
        }
      c->spec.mapEntryCount = 3;
      c->spec.dataSize = 32;
      GBytes *k = key_of (KIND_COMPUTE, c);
      if (first == NULL)
        first = k;
      else
        {
          assert_same_key (first, k);
          g_bytes_unref (k);
        }
    }
  /* A value moved to another constant ID: different. */
  compute_fill (c);
  set_map (&c->map[0], 9, 0, 4);
  set_map (&c->map[1], 2, 4, 4);
  set_map (&c->map[2], 5, 8, 4);
  put_u32 (&c->data[0], 200);
  put_u32 (&c->data[4], 900);
  put_u32 (&c->data[8], 500);
  c->spec.mapEntryCount = 3;
  c->spec.dataSize = 12;
  GBytes *swapped = key_of (KIND_COMPUTE, c);
  assert_different_key (first, swapped);

  g_bytes_unref (first);
  g_bytes_unref (swapped);
  g_bytes_unref (base);
  g_bytes_unref (k_moved);
  g_bytes_unref (k_value);
  g_bytes_unref (k_garbage);
  g_bytes_unref (k_shared);
  g_bytes_unref (k_same_values);
  g_free (c);
  g_free (g);
  g_free (moved);
}

/* Fills stage `s`'s specialization with n 4-byte constants (ids 100..). */
static void
gfx_spec_n (Gfx *g, uint32_t s, uint32_t n)
{
  for (uint32_t j = 0; j < n; j++)
    {
      set_map (&g->map[s][j], 100 + j, 4 * j, 4);
      put_u32 (&g->spec_data[s][4 * j], j);
    }
  g->spec[s].mapEntryCount = n;
  g->spec[s].dataSize = 4 * n;
  g->spec[s].pMapEntries = g->map[s];
  g->spec[s].pData = g->spec_data[s];
  g->stages[s].pSpecializationInfo = &g->spec[s];
}

static void
test_spec_limits (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);

  /* 8 constants per stage fit; 9 in the second stage do not. */
  gfx_spec_n (g, 1, PSC_MAX_SPEC_CONSTANTS);
  g_bytes_unref (key_of (KD, g));
  gfx_spec_n (g, 1, PSC_MAX_SPEC_CONSTANTS + 1);
  assert_rejects (KD, g, PSC_STATUS_CAPACITY, "pStages[1].pSpecializationInfo->mapEntryCount", "9 > 8");
  {
    /* The exact sentence of DESIGN decision 9. */
    PscCoreError err;
    uint8_t buf[PSC_MAX_KEY_BYTES];
    PscKeyWriter w = { buf, 0, sizeof buf };
    g_assert_cmpint (psc_encode_graphics (&g->ci, PSC_RENDERING_DYNAMIC, &fake->resolver, &w, &err),
                     ==, PSC_STATUS_CAPACITY);
    g_assert_cmpstr (err.message, ==, "pStages[1].pSpecializationInfo->mapEntryCount: 9 > 8");
  }
  /* The path names the caller's index, not the sorted position: the vertex
   * stage given second is pStages[1]. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  VkPipelineShaderStageCreateInfo tmp = g->stages[0];
  g->stages[0] = g->stages[1];
  g->stages[1] = tmp;
  gfx_spec_n (g, 1, 9);
  g_assert_cmpint (g->stages[1].stage, ==, VK_SHADER_STAGE_VERTEX_BIT);
  assert_rejects (KD, g, PSC_STATUS_CAPACITY, "pStages[1].pSpecializationInfo->mapEntryCount", "9 > 8");
  gfx_spec_n (g, 1, 2);
  gfx_spec_n (g, 0, 9);
  assert_rejects (KD, g, PSC_STATUS_CAPACITY, "pStages[0].pSpecializationInfo->mapEntryCount", "9 > 8");

  /* A 64-byte value fits, 65 bytes do not. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  memset (g->spec_data[1], 0x42, 65);
  set_map (&g->map[1][0], 3, 0, PSC_MAX_SPEC_VALUE_BYTES);
  g->spec[1].dataSize = 65;
  g_bytes_unref (key_of (KD, g));
  set_map (&g->map[1][0], 3, 0, PSC_MAX_SPEC_VALUE_BYTES + 1);
  assert_rejects (KD, g, PSC_STATUS_CAPACITY, "pStages[1].pSpecializationInfo->pMapEntries[0].size",
                  "65 > 64");

  /* Entries outside dataSize. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->spec[0].dataSize = 8;
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT, "pStages[0].pSpecializationInfo->pMapEntries[1]",
                  "offset 4 + size 8 > dataSize 8");
  g->spec[0].dataSize = 12;
  set_map (&g->map[0][1], 7, 16, 8);
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT, "pStages[0].pSpecializationInfo->pMapEntries[1]",
                  "offset 16 + size 8 > dataSize 12");
  set_map (&g->map[0][1], 7, UINT32_MAX, 8);
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT, "pStages[0].pSpecializationInfo->pMapEntries[1]",
                  "offset 4294967295 + size 8 > dataSize 12");
  set_map (&g->map[0][1], 7, 4, SIZE_MAX);
  assert_rejects (KD, g, PSC_STATUS_CAPACITY, "pStages[0].pSpecializationInfo->pMapEntries[1].size",
                  "%zu > 64", (size_t) SIZE_MAX);

  /* Duplicate constant IDs (the later entry is named). */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  set_map (&g->map[0][0], 5, 0, 4);
  set_map (&g->map[0][1], 9, 4, 4);
  set_map (&g->map[0][2], 5, 8, 4);
  g->spec[0].mapEntryCount = 3;
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT,
                  "pStages[0].pSpecializationInfo->pMapEntries[2].constantID",
                  "constant ID 5 appears twice");

  /* NULL arrays. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->spec[0].pMapEntries = NULL;
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT, "pStages[0].pSpecializationInfo->pMapEntries",
                  "NULL with mapEntryCount > 0");
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->spec[1].pData = NULL;
  assert_rejects (KD, g, PSC_STATUS_INVALID_ARGUMENT, "pStages[1].pSpecializationInfo->pData",
                  "NULL with non-empty map entries");
  /* No entries: pMapEntries and pData are not read. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  GBytes *none = NULL, *empty = NULL;
  g->stages[1].pSpecializationInfo = NULL;
  none = key_of (KD, g);
  g->stages[1].pSpecializationInfo = &g->spec[1];
  g->spec[1].mapEntryCount = 0;
  g->spec[1].pMapEntries = H (const VkSpecializationMapEntry *, 0x10);
  g->spec[1].pData = NULL;
  empty = key_of (KD, g);
  assert_same_key (none, empty);
  g_bytes_unref (none);
  g_bytes_unref (empty);

  /* Compute uses the same rules and names "stage". */
  ComputeFx *c = fixture_new (sizeof *c, 0);
  compute_fill (c);
  for (uint32_t j = 0; j < 9; j++)
    {
      set_map (&c->map[j], j, 4 * j, 4);
      put_u32 (&c->data[4 * j], j);
    }
  c->spec.mapEntryCount = 9;
  c->spec.dataSize = 36;
  assert_rejects (KIND_COMPUTE, c, PSC_STATUS_CAPACITY, "stage.pSpecializationInfo->mapEntryCount",
                  "9 > 8");
  c->spec.mapEntryCount = 8;
  g_bytes_unref (key_of (KIND_COMPUTE, c));
  set_map (&c->map[7], 7, 4 * 7, 65);
  c->spec.dataSize = 256;
  assert_rejects (KIND_COMPUTE, c, PSC_STATUS_CAPACITY,
                  "stage.pSpecializationInfo->pMapEntries[7].size", "65 > 64");
  set_map (&c->map[7], 3, 4 * 7, 4);
  assert_rejects (KIND_COMPUTE, c, PSC_STATUS_INVALID_ARGUMENT,
                  "stage.pSpecializationInfo->pMapEntries[7].constantID", "constant ID 3 appears twice");
  set_map (&c->map[7], 7, 254, 4);
  assert_rejects (KIND_COMPUTE, c, PSC_STATUS_INVALID_ARGUMENT,
                  "stage.pSpecializationInfo->pMapEntries[7]", "offset 254 + size 4 > dataSize 256");
  g_free (c);
  g_free (g);
}

/* ===========================================================================
 * Dynamic state (DESIGN decision 8).
 */
static const VkDynamicState widening_states[] = {
  VK_DYNAMIC_STATE_LINE_WIDTH, VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_BLEND_CONSTANTS,
  VK_DYNAMIC_STATE_DEPTH_BOUNDS, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
  VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
  VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
  VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
  VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
  VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
  VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
  VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
};

/* Each supported dynamic state, alone, changes the key; no two alias; the
 * _WITH_COUNT forms differ from the plain ones. Every such key round-trips. */
static void
test_dynamic_widens (void)
{
  enum { NW = G_N_ELEMENTS (widening_states) };
  GBytes *keys[NW + 4];
  const char *names[NW + 4];
  Gfx *g = fixture_new (sizeof (Gfx), 0);
  for (unsigned i = 0; i < NW + 4; i++)
    {
      gfx_fill (g, PSC_RENDERING_DYNAMIC);
      if (i < NW)
        {
          gfx_add_dynamic (g, widening_states[i]);
          names[i] = psc_enum_dynamic_state_name ((unsigned) psc_enum_dynamic_state (widening_states[i]));
        }
      else if (i == NW)
        names[i] = "base";
      else if (i == NW + 1)
        {
          gfx_remove_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT);
          gfx_add_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
          names[i] = "VIEWPORT_WITH_COUNT";
        }
      else if (i == NW + 2)
        {
          gfx_remove_dynamic (g, VK_DYNAMIC_STATE_SCISSOR);
          gfx_add_dynamic (g, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
          names[i] = "SCISSOR_WITH_COUNT";
        }
      else
        {
          gfx_remove_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT);
          gfx_remove_dynamic (g, VK_DYNAMIC_STATE_SCISSOR);
          gfx_add_dynamic (g, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
          gfx_add_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
          names[i] = "both _WITH_COUNT";
        }
      keys[i] = key_of (KIND_GRAPHICS_DYNAMIC, g);
      assert_round_trip (KIND_GRAPHICS_DYNAMIC, keys[i], names[i]);
    }
  assert_all_distinct (keys, names, NW + 4);
  for (unsigned i = 0; i < NW + 4; i++)
    g_bytes_unref (keys[i]);

  /* All of them at once (and the order of the list does not matter). */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  for (unsigned i = 0; i < NW; i++)
    gfx_add_dynamic (g, widening_states[i]);
  GBytes *all = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_round_trip (KIND_GRAPHICS_DYNAMIC, all, "all dynamic");
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->dynamic.dynamicStateCount = 0;
  for (unsigned i = NW; i-- > 0;)
    gfx_add_dynamic (g, widening_states[i]);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_SCISSOR);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT);
  GBytes *reversed = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_same_key (all, reversed);
  g_bytes_unref (all);
  g_bytes_unref (reversed);
  g_free (g);
}

/* Values that are dynamic are not keyed: two create infos that differ only
 * in such a value give one key with the state dynamic and two keys with it
 * static. */
typedef struct {
  VkDynamicState state;
  void (*prepare) (Gfx *g);
  void (*change) (Gfx *g);
} DynamicNormalization;

static void prep_none (Gfx *g) { (void) g; }
static void prep_bias (Gfx *g) { g->raster.depthBiasEnable = VK_TRUE; }
static void prep_constants (Gfx *g) { g->attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA; }
static void prep_bounds (Gfx *g) { g->depth_stencil.depthBoundsTestEnable = VK_TRUE; }
static void prep_lines (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; }
static void chg_line_width (Gfx *g) { g->raster.lineWidth = 3.0f; }
static void chg_bias (Gfx *g) { g->raster.depthBiasConstantFactor = 4.0f; g->raster.depthBiasClamp = 1.0f; g->raster.depthBiasSlopeFactor = 2.0f; }
static void chg_constants (Gfx *g) { g->blend.blendConstants[3] = 0.75f; }
static void chg_bounds (Gfx *g) { g->depth_stencil.minDepthBounds = 0.5f; g->depth_stencil.maxDepthBounds = 0.75f; }
static void chg_compare_mask (Gfx *g) { g->depth_stencil.front.compareMask = 1; g->depth_stencil.back.compareMask = 2; }
static void chg_write_mask (Gfx *g) { g->depth_stencil.back.writeMask = 3; }
static void chg_reference (Gfx *g) { g->depth_stencil.front.reference = 200; }
static void chg_cull (Gfx *g) { g->raster.cullMode = VK_CULL_MODE_NONE; }
static void chg_front_face (Gfx *g) { g->raster.frontFace = VK_FRONT_FACE_CLOCKWISE; }
static void chg_topology_same_class (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN; }
static void chg_stride (Gfx *g) { g->bindings[0].stride = 64; g->bindings[1].stride = 4; }
static void chg_depth_test (Gfx *g) { g->depth_stencil.depthTestEnable = VK_FALSE; }
static void chg_depth_write (Gfx *g) { g->depth_stencil.depthWriteEnable = VK_FALSE; }
static void chg_depth_compare (Gfx *g) { g->depth_stencil.depthCompareOp = VK_COMPARE_OP_GREATER; }
static void chg_bounds_test (Gfx *g) { g->depth_stencil.depthBoundsTestEnable = VK_TRUE; }
static void chg_stencil_test (Gfx *g) { g->depth_stencil.stencilTestEnable = VK_FALSE; }
static void chg_stencil_op (Gfx *g) { g->depth_stencil.front.failOp = VK_STENCIL_OP_ZERO; g->depth_stencil.back.compareOp = VK_COMPARE_OP_NEVER; }
static void chg_discard (Gfx *g) { g->raster.rasterizerDiscardEnable = VK_TRUE; }
static void chg_bias_enable (Gfx *g) { g->raster.depthBiasEnable = VK_TRUE; }
static void chg_restart (Gfx *g) { g->input_assembly.primitiveRestartEnable = VK_TRUE; }

static const DynamicNormalization dynamic_normalizations[] = {
  { VK_DYNAMIC_STATE_LINE_WIDTH, prep_lines, chg_line_width },
  { VK_DYNAMIC_STATE_DEPTH_BIAS, prep_bias, chg_bias },
  { VK_DYNAMIC_STATE_BLEND_CONSTANTS, prep_constants, chg_constants },
  { VK_DYNAMIC_STATE_DEPTH_BOUNDS, prep_bounds, chg_bounds },
  { VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, prep_none, chg_compare_mask },
  { VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, prep_none, chg_write_mask },
  { VK_DYNAMIC_STATE_STENCIL_REFERENCE, prep_none, chg_reference },
  { VK_DYNAMIC_STATE_CULL_MODE, prep_none, chg_cull },
  { VK_DYNAMIC_STATE_FRONT_FACE, prep_none, chg_front_face },
  { VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, prep_none, chg_topology_same_class },
  { VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, prep_none, chg_stride },
  { VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, prep_none, chg_depth_test },
  { VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, prep_none, chg_depth_write },
  { VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, prep_none, chg_depth_compare },
  { VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, prep_none, chg_bounds_test },
  { VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, prep_none, chg_stencil_test },
  { VK_DYNAMIC_STATE_STENCIL_OP, prep_none, chg_stencil_op },
  { VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, prep_none, chg_discard },
  { VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, prep_none, chg_bias_enable },
  { VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, prep_none, chg_restart },
};

static void
test_dynamic_normalizes (void)
{
  Gfx *a = fixture_new (sizeof (Gfx), 0), *b = fixture_new (sizeof (Gfx), 0);
  for (unsigned i = 0; i < G_N_ELEMENTS (dynamic_normalizations); i++)
    {
      const DynamicNormalization *d = &dynamic_normalizations[i];
      const char *name = psc_enum_dynamic_state_name ((unsigned) psc_enum_dynamic_state (d->state));
      g_test_message ("%s", name);
      gfx_fill (a, PSC_RENDERING_DYNAMIC);
      gfx_fill (b, PSC_RENDERING_DYNAMIC);
      d->prepare (a);
      d->prepare (b);
      d->change (b);
      GBytes *sa = key_of (KIND_GRAPHICS_DYNAMIC, a), *sb = key_of (KIND_GRAPHICS_DYNAMIC, b);
      if (g_bytes_equal (sa, sb))
        g_error ("%s: the change must matter while the state is static", name);
      gfx_add_dynamic (a, d->state);
      gfx_add_dynamic (b, d->state);
      GBytes *da = key_of (KIND_GRAPHICS_DYNAMIC, a), *db = key_of (KIND_GRAPHICS_DYNAMIC, b);
      if (!g_bytes_equal (da, db))
        g_error ("%s: a dynamic value entered the key", name);
      assert_different_key (sa, da);
      assert_round_trip (KIND_GRAPHICS_DYNAMIC, da, name);
      g_bytes_unref (sa);
      g_bytes_unref (sb);
      g_bytes_unref (da);
      g_bytes_unref (db);
    }

  /* A dynamic topology keeps its class: a line list is still different. */
  gfx_fill (a, PSC_RENDERING_DYNAMIC);
  gfx_fill (b, PSC_RENDERING_DYNAMIC);
  b->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  gfx_add_dynamic (a, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
  gfx_add_dynamic (b, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
  GBytes *ta = key_of (KIND_GRAPHICS_DYNAMIC, a), *tb = key_of (KIND_GRAPHICS_DYNAMIC, b);
  assert_different_key (ta, tb);
  b->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  GBytes *tc = key_of (KIND_GRAPHICS_DYNAMIC, b);
  assert_different_key (ta, tc);
  assert_different_key (tb, tc);
  g_bytes_unref (ta);
  g_bytes_unref (tb);
  g_bytes_unref (tc);
  g_free (a);
  g_free (b);
}

/* Static values that Vulkan ignores are normalized; viewport and scissor
 * contents are never read. */
static void
test_static_normalizes (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  GBytes *base = key_of (KIND_GRAPHICS_DYNAMIC, g);
  static const char *const names[] = {
    "depth bias constants without depth bias", "blend factors of a non-blended attachment",
    "blend constants no factor reads", "min sample shading without sample shading",
    "logic op without logic op enable", "pSampleMask of all ones", "viewport contents",
    "NaN viewports, garbage scissor pointer", "depth bounds without the bounds test",
    "basePipelineIndex without a base", "subpass on the dynamic backend",
    "tessellation state without tessellation stages", "-0.0 for 0.0 (depth bias clamp)",
    "stale bytes in unused array slots", "vertex bindings in another order",
    "vertex attributes in another order", "stages in another order",
    "another handle with the same id and generation", "pNext-free spec info with zero entries",
    "blend constant of a non-reading attachment",
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gfx_fill (g, PSC_RENDERING_DYNAMIC);
      switch (i)
        {
        case 0: g->raster.depthBiasConstantFactor = 9.0f; g->raster.depthBiasSlopeFactor = 3.0f; break;
        case 1: g->attachments[1].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
                g->attachments[1].colorBlendOp = VK_BLEND_OP_MAX; break;
        case 2: g->blend.blendConstants[0] = 0.9f; g->blend.blendConstants[2] = 7.0f; break;
        case 3: g->multisample.minSampleShading = 0.75f; break;
        case 4: g->blend.logicOp = VK_LOGIC_OP_XOR; break;
        case 5: g->sample_mask[0] = 0xffffffffu; g->multisample.pSampleMask = g->sample_mask; break;
        case 6: g->viewports[0].width = 640.0f; g->viewport.pViewports = g->viewports; break;
        case 7:
          g->viewports[0].x = NAN;
          g->viewport.pViewports = g->viewports;
          g->viewport.pScissors = H (const VkRect2D *, 0x8);
          break;
        case 8: g->depth_stencil.minDepthBounds = 0.3f; g->depth_stencil.maxDepthBounds = 0.6f; break;
        case 9: g->ci.basePipelineIndex = 7; break;
        case 10: g->ci.subpass = 3; break;
        case 11: g->ci.pTessellationState = H (const VkPipelineTessellationStateCreateInfo *, 0x8); break;
        case 12: g->raster.depthBiasEnable = VK_TRUE; break;
        case 13:
          memset (&g->attachments[2], 0x3f, sizeof g->attachments[2]);
          memset (&g->bindings[2], 0x3f, sizeof g->bindings[2]);
          memset (&g->attributes[4], 0x3f, sizeof g->attributes[4]);
          memset (&g->map[0][2], 0x3f, sizeof g->map[0][2]);
          g->color_formats[2] = VK_FORMAT_R8_UNORM;
          g->dynamic_states[2] = VK_DYNAMIC_STATE_LINE_WIDTH;
          memset (&g->spec_data[0][12], 0x3f, 64);
          memset (&g->names[0][5], 0x3f, 32);
          break;
        case 14:
          set_vertex_binding (&g->bindings[0], 1, 16, VK_VERTEX_INPUT_RATE_INSTANCE);
          set_vertex_binding (&g->bindings[1], 0, 32, VK_VERTEX_INPUT_RATE_VERTEX);
          break;
        case 15:
          set_vertex_attribute (&g->attributes[0], 3, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0);
          set_vertex_attribute (&g->attributes[3], 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0);
          set_vertex_attribute (&g->attributes[1], 2, 0, VK_FORMAT_R8G8B8A8_UNORM, 20);
          set_vertex_attribute (&g->attributes[2], 1, 0, VK_FORMAT_R32G32_SFLOAT, 12);
          break;
        case 16:
          {
            VkPipelineShaderStageCreateInfo t = g->stages[0];
            g->stages[0] = g->stages[1];
            g->stages[1] = t;
          }
          break;
        case 17: g->stages[0].module = hd.vs_alias; break;
        case 18: break;
        case 19: g->attachments[1].dstAlphaBlendFactor = VK_BLEND_FACTOR_CONSTANT_ALPHA; break;
        }
      GBytes *k;
      if (i == 12)
        {
          /* -0.0 and +0.0 are one value. */
          g->raster.depthBiasClamp = 0.0f;
          GBytes *pos = key_of (KIND_GRAPHICS_DYNAMIC, g);
          g->raster.depthBiasClamp = -0.0f;
          k = key_of (KIND_GRAPHICS_DYNAMIC, g);
          assert_same_key (pos, k);
          g_bytes_unref (pos);
        }
      else
        {
          k = key_of (KIND_GRAPHICS_DYNAMIC, g);
          if (!g_bytes_equal (base, k))
            g_error ("%s: changed the key", names[i]);
        }
      g_bytes_unref (k);
    }

  /* Rasterizer discard (static): viewport, multisample, depth/stencil and
   * colour blend state are ignored, even NULL. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->raster.rasterizerDiscardEnable = VK_TRUE;
  GBytes *discard = key_of (KIND_GRAPHICS_DYNAMIC, g);
  g->ci.pViewportState = NULL;
  g->ci.pMultisampleState = NULL;
  g->ci.pDepthStencilState = NULL;
  g->ci.pColorBlendState = NULL;
  g->dynamic.dynamicStateCount = 0;
  GBytes *discard_null = key_of (KIND_GRAPHICS_DYNAMIC, g);
  /* (the dynamic-state set still counts) */
  assert_different_key (discard, discard_null);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_VIEWPORT);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_SCISSOR);
  g_bytes_unref (discard_null);
  discard_null = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_same_key (discard, discard_null);
  assert_round_trip (KIND_GRAPHICS_DYNAMIC, discard, "discard");
  g_bytes_unref (discard);
  g_bytes_unref (discard_null);

  /* Dynamic rendering without colour attachments ignores pColorBlendState;
   * without depth/stencil formats it ignores pDepthStencilState. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  g->rendering.colorAttachmentCount = 0;
  g->rendering.depthAttachmentFormat = VK_FORMAT_UNDEFINED;
  g->rendering.stencilAttachmentFormat = VK_FORMAT_UNDEFINED;
  GBytes *bare = key_of (KIND_GRAPHICS_DYNAMIC, g);
  g->ci.pColorBlendState = NULL;
  g->ci.pDepthStencilState = NULL;
  GBytes *bare_null = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_same_key (bare, bare_null);
  assert_round_trip (KIND_GRAPHICS_DYNAMIC, bare, "no attachments");
  g_bytes_unref (bare);
  g_bytes_unref (bare_null);

  g_bytes_unref (base);
  g_free (g);
}

/* ===========================================================================
 * lineWidth: keyed only where lines are rasterized.
 *
 * Two create infos that differ only in a static lineWidth give one key
 * where nothing rasterizes lines and one key each where lines are
 * rasterized, in every case below (psc_graphics_rasterizes_lines gives the
 * rule), on both backends; on the dynamic backend check_fast_path also
 * compares the fast path (run once with the stencil test, which it leaves
 * to the complete encoder, and once without). The decoder writes 1.0 where
 * the width is not keyed, the width itself where it is.
 */
typedef struct {
  const char *name;
  bool lines;
  void (*setup) (Gfx *g);
} LineCase;

static void lc_triangles (Gfx *g) { (void) g; }
static void lc_strip_as_points (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; g->raster.polygonMode = VK_POLYGON_MODE_POINT; }
static void lc_points (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; }
static void lc_fan_dynamic (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN; gfx_add_dynamic (g, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY); }
static void lc_discarded_lines (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; g->raster.rasterizerDiscardEnable = VK_TRUE; }
static void lc_line_list (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; }
static void lc_line_strip (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; }
static void lc_line_list_adjacency (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY; }
static void lc_line_strip_adjacency (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY; }
static void lc_line_dynamic (Gfx *g) { g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; gfx_add_dynamic (g, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY); }
static void lc_wireframe (Gfx *g) { g->raster.polygonMode = VK_POLYGON_MODE_LINE; }
static void lc_geometry (Gfx *g) { gfx_add_stage (g, VK_SHADER_STAGE_GEOMETRY_BIT, hd.gs); }
static void lc_geometry_points (Gfx *g) { lc_points (g); lc_geometry (g); }
static void lc_tessellation (Gfx *g) { gfx_add_tessellation (g, 3); }
static void lc_discard_dynamic (Gfx *g) { lc_discarded_lines (g); gfx_add_dynamic (g, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE); }

static const LineCase line_cases[] = {
  { "filled triangles", false, lc_triangles },
  { "triangle strip as points", false, lc_strip_as_points },
  { "point list", false, lc_points },
  { "dynamic topology of the triangle class", false, lc_fan_dynamic },
  { "line list, rasterizer discard", false, lc_discarded_lines },
  { "line list", true, lc_line_list },
  { "line strip", true, lc_line_strip },
  { "line list with adjacency", true, lc_line_list_adjacency },
  { "line strip with adjacency", true, lc_line_strip_adjacency },
  { "dynamic topology of the line class", true, lc_line_dynamic },
  { "polygon mode LINE", true, lc_wireframe },
  { "geometry stage", true, lc_geometry },
  { "geometry stage, point list", true, lc_geometry_points },
  { "tessellation", true, lc_tessellation },
  { "line list, dynamic rasterizer discard", true, lc_discard_dynamic },
};

static GBytes *
line_key (Kind kind, const LineCase *c, bool stencil, float width)
{
  Gfx *g = gfx_new (kind == KL ? PSC_RENDERING_LEGACY : PSC_RENDERING_DYNAMIC);
  g->depth_stencil.stencilTestEnable = stencil;
  c->setup (g);
  g->raster.lineWidth = width;
  GBytes *k = key_of (kind, g);
  g_free (g);
  return k;
}

static void
test_line_width (void)
{
  static const float widths[] = { 1.0f, 2.0f, 0.5f, 8.0f };
  const unsigned accepted_before = fast_counts.accepted;
  for (unsigned i = 0; i < G_N_ELEMENTS (line_cases); i++)
    for (int mode = 0; mode < 2; mode++)
      for (int stencil = 0; stencil < 2; stencil++)
        {
          const LineCase *c = &line_cases[i];
          const Kind kind = mode ? KL : KD;
          g_test_message ("%s, %s, stencil %s", c->name, mode ? "legacy" : "dynamic",
                          stencil ? "on" : "off");
          GBytes *keys[G_N_ELEMENTS (widths)];
          for (unsigned w = 0; w < G_N_ELEMENTS (widths); w++)
            {
              keys[w] = line_key (kind, c, stencil, widths[w]);
              if (w > 0 && g_bytes_equal (keys[0], keys[w]) == c->lines)
                g_error ("%s: line widths 1 and %g give %s", c->name, widths[w],
                         c->lines ? "one key" : "two keys");
            }
          if (c->lines)
            assert_all_distinct (keys, (const char *[]) { "1", "2", "0.5", "8" },
                                 G_N_ELEMENTS (widths));
          else
            {
              /* Not read at all: NaN is accepted too, and changes nothing. */
              GBytes *nan_key = line_key (kind, c, stencil, NAN);
              assert_same_key (keys[0], nan_key);
              g_bytes_unref (nan_key);
            }
          for (unsigned w = 0; w < G_N_ELEMENTS (widths); w++)
            {
              void *build = NULL;
              const VkGraphicsPipelineCreateInfo *ci = decode_kind (kind, keys[w], &build);
              g_assert_nonnull (ci);
              g_assert_cmpfloat (ci->pRasterizationState->lineWidth, ==,
                                 c->lines ? widths[w] : 1.0f);
              free (build);
              assert_round_trip (kind, keys[w], c->name);
              g_bytes_unref (keys[w]);
            }
        }
  /* The fast path took part (the shapes it handles: no stencil, discard or
   * tessellation). */
  g_assert_cmpuint (fast_counts.accepted - accepted_before, >=, 10 * 2 * G_N_ELEMENTS (widths));

  /* A dynamic line width is not keyed either way; the key says which. */
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  lc_line_list (g);
  gfx_add_dynamic (g, VK_DYNAMIC_STATE_LINE_WIDTH);
  GBytes *a = key_of (KD, g);
  g->raster.lineWidth = 3.0f;
  GBytes *b = key_of (KD, g);
  assert_same_key (a, b);
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (g);
}

/* ===========================================================================
 * Graphics rejections: status, field path and message.
 */
#define INVALID PSC_STATUS_INVALID_ARGUMENT
#define UNSUPPORTED PSC_STATUS_UNSUPPORTED
#define FOREIGN_HANDLE PSC_STATUS_FOREIGN_HANDLE
#define CAPACITY PSC_STATUS_CAPACITY
#define NOT_ISSUED "handle not issued by this cache (or already destroyed)"
#define NOT_STRUCT "%u (unsupported structure)"

static Gfx *
gfx_reset (Gfx *g, PscRenderingMode mode)
{
  gfx_fill (g, mode);
  return g;
}

static void
test_reject_graphics_top (void)
{
  Gfx *g = fixture_new (sizeof (Gfx), 0);
  PscCoreError err;
  uint8_t buf[256];
  PscKeyWriter w = { buf, 0, sizeof buf };

  assert_rejects (KD, NULL, INVALID, "pCreateInfo", "NULL");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  assert_rejects (KD, g, INVALID, "sType", "not VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO");

  /* No resolver, or an unknown rendering mode. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  memset (&err, 0, sizeof err);
  g_assert_cmpint (psc_encode_graphics (&g->ci, PSC_RENDERING_DYNAMIC, NULL, &w, &err), ==,
                   PSC_STATUS_FAILED);
  g_assert_cmpstr (err.path, ==, "");
  g_assert_cmpstr (err.message, ==, "no resolver");
  gfx_reset (g, PSC_RENDERING_LEGACY);
  memset (&err, 0, sizeof err);
  g_assert_cmpint (psc_encode_graphics (&g->ci, (PscRenderingMode) 0, &fake->resolver, &w, &err), ==,
                   INVALID);
  g_assert_cmpstr (err.path, ==, "");
  g_assert_cmpstr (err.message, ==, "unknown rendering mode 0");

  /* Unknown pNext on the create info, before and after the rendering struct. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  chain_append (&g->ci.pNext, &g->extra[0], VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  assert_rejects (KD, g, UNSUPPORTED, "pNext[1].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);

  /* The application's creation feedback: an output structure, accepted,
   * never keyed; its pointers checked. */
  {
    VkPipelineCreationFeedback pipe_fb, stage_fb[2];
    VkPipelineCreationFeedbackCreateInfo fb = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
      .pPipelineCreationFeedback = &pipe_fb,
    };
    gfx_reset (g, PSC_RENDERING_DYNAMIC);
    GBytes *plain = key_of (KD, g);
    chain_append (&g->ci.pNext, (VkBaseInStructure *) &fb,
                  VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
    GBytes *with = key_of (KD, g);
    assert_same_key (plain, with);
    g_bytes_unref (with);
    fb.pipelineStageCreationFeedbackCount = g->ci.stageCount;
    fb.pPipelineStageCreationFeedbacks = stage_fb;
    with = key_of (KD, g);
    assert_same_key (plain, with);
    g_bytes_unref (with);
    fb.pipelineStageCreationFeedbackCount = g->ci.stageCount + 1;
    assert_rejects (KD, g, INVALID, "", "pNext[1].pipelineStageCreationFeedbackCount: %u, not 0 "
                    "or the stage count %u (with an array)", g->ci.stageCount + 1, g->ci.stageCount);
    fb.pipelineStageCreationFeedbackCount = 0;
    fb.pPipelineCreationFeedback = NULL;
    assert_rejects (KD, g, INVALID, "", "pNext[1].pPipelineCreationFeedback: NULL");
    g_bytes_unref (plain);
  }
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  g->ci.pNext = NULL;
  chain_append (&g->ci.pNext, &g->extra[0], VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT);
  chain_append (&g->ci.pNext, (VkBaseInStructure *) &g->rendering,
                VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  assert_rejects (KD, g, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT);
  gfx_reset (g, PSC_RENDERING_LEGACY);
  chain_append (&g->ci.pNext, &g->extra[0], VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  assert_rejects (KL, g, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  chain_append (&g->ci.pNext, &g->extra[0], VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  assert_rejects (KD, g, INVALID, "pNext[1].sType", "structure appears twice in the chain");

  /* Flags: derivatives and anything not known to be compile-affecting. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.flags = VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  assert_rejects (KD, g, UNSUPPORTED, "flags", "unsupported flags 0x4");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.flags =
    VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT | VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  assert_rejects (KD, g, UNSUPPORTED, "flags", "unsupported flags 0x6");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
  assert_rejects (KD, g, UNSUPPORTED, "flags", "unsupported flags 0x800");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.basePipelineHandle = H (VkPipeline, 0x7f5a12345670);
  assert_rejects (KD, g, INVALID, "basePipelineHandle",
                  "must be VK_NULL_HANDLE (derivative pipelines are not supported)");

  /* Layout: required, and cache-issued. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.layout = VK_NULL_HANDLE;
  assert_rejects (KD, g, INVALID, "layout", "VK_NULL_HANDLE");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.layout = FOREIGN (VkPipelineLayout);
  assert_rejects (KD, g, FOREIGN_HANDLE, "layout", NOT_ISSUED);
  /* A handle the cache issued, but of another kind. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.layout = H (VkPipelineLayout, hd.sl0);
  assert_rejects (KD, g, FOREIGN_HANDLE, "layout", NOT_ISSUED);

  /* Dynamic rendering backend. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.renderPass = hd.rp_simple;
  assert_rejects (KD, g, INVALID, "renderPass", "must be VK_NULL_HANDLE on the dynamic rendering backend");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.pNext = NULL;
  assert_rejects (KD, g, INVALID, "pNext",
                  "VkPipelineRenderingCreateInfo is required on the dynamic rendering backend");
  gfx_set_colors (gfx_reset (g, PSC_RENDERING_DYNAMIC), PSC_MAX_COLOR_ATTACHMENTS);
  g_bytes_unref (key_of (KD, g));
  gfx_set_colors (g, PSC_MAX_COLOR_ATTACHMENTS + 1);
  assert_rejects (KD, g, CAPACITY, "pNext[0].colorAttachmentCount", "9 > 8");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->rendering.pColorAttachmentFormats = NULL;
  assert_rejects (KD, g, INVALID, "pNext[0].pColorAttachmentFormats", "NULL with colorAttachmentCount > 0");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->color_formats[1] = VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG;
  assert_rejects (KD, g, UNSUPPORTED, "pNext[0].pColorAttachmentFormats[1]", "unsupported value %d",
                  (int) VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->color_formats[0] = VK_FORMAT_R16G16_S10_5_NV;
  assert_rejects (KD, g, UNSUPPORTED, "pNext[0].pColorAttachmentFormats[0]", "unsupported value %d",
                  (int) VK_FORMAT_R16G16_S10_5_NV);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->color_formats[0] = (VkFormat) 185;
  assert_rejects (KD, g, UNSUPPORTED, "pNext[0].pColorAttachmentFormats[0]", "unsupported value 185");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->rendering.depthAttachmentFormat = VK_FORMAT_R8G8B8A8_UNORM;
  assert_rejects (KD, g, INVALID, "pNext[0].depthAttachmentFormat", "not a depth format");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->rendering.depthAttachmentFormat = (VkFormat) 1000999000;
  assert_rejects (KD, g, UNSUPPORTED, "pNext[0].depthAttachmentFormat", "unsupported value 1000999000");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->rendering.stencilAttachmentFormat = VK_FORMAT_D32_SFLOAT;
  assert_rejects (KD, g, INVALID, "pNext[0].stencilAttachmentFormat", "not a stencil format");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->rendering.stencilAttachmentFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
  assert_rejects (KD, g, INVALID, "pNext[0].stencilAttachmentFormat",
                  "must equal depthAttachmentFormat when both are set");
  /* On dynamic rendering the attachments' sample count is the rasterization
   * sample count; the only structure that could name another one is
   * rejected. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  chain_append (&g->ci.pNext, &g->extra[0], VK_STRUCTURE_TYPE_ATTACHMENT_SAMPLE_COUNT_INFO_AMD);
  assert_rejects (KD, g, UNSUPPORTED, "pNext[1].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_ATTACHMENT_SAMPLE_COUNT_INFO_AMD);

  /* Legacy backend. */
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.pNext = &g->rendering;
  assert_rejects (KL, g, INVALID, "pNext[0].sType",
                  "VkPipelineRenderingCreateInfo is not allowed on the legacy rendering backend "
                  "(name a compatibility renderPass)");
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = VK_NULL_HANDLE;
  assert_rejects (KL, g, INVALID, "renderPass",
                  "VK_NULL_HANDLE (the legacy rendering backend needs a compatibility render pass "
                  "from the cache)");
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = FOREIGN (VkRenderPass);
  assert_rejects (KL, g, FOREIGN_HANDLE, "renderPass", NOT_ISSUED);
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = H (VkRenderPass, hd.pl);
  assert_rejects (KL, g, FOREIGN_HANDLE, "renderPass", NOT_ISSUED);
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.subpass = 1;
  assert_rejects (KL, g, INVALID, "subpass", "1 >= the render pass's subpass count 1");
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = hd.rp_main;
  g->ci.subpass = 2;
  assert_rejects (KL, g, INVALID, "subpass", "2 >= the render pass's subpass count 2");

  /* Legacy: rasterization samples must match the subpass's attachments
   * (the resolver reports them). rp_main: subpass 0 x4, subpass 1 x1. */
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = hd.rp_main;
  assert_rejects (KL, g, INVALID, "pMultisampleState->rasterizationSamples",
                  "1, but subpass 0 of renderPass uses 4 samples");
  g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
  g_bytes_unref (key_of (KL, g));
  g->ci.subpass = 1;
  assert_rejects (KL, g, INVALID, "pMultisampleState->rasterizationSamples",
                  "4, but subpass 1 of renderPass uses 1 samples");
  g->multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  g_bytes_unref (key_of (KL, g));
  gfx_reset (g, PSC_RENDERING_LEGACY)->multisample.rasterizationSamples = VK_SAMPLE_COUNT_2_BIT;
  assert_rejects (KL, g, INVALID, "pMultisampleState->rasterizationSamples",
                  "2, but subpass 0 of renderPass uses 1 samples");
  /* A subpass without attachments accepts any count. */
  g->ci.renderPass = hd.rp_empty;
  g_bytes_unref (key_of (KL, g));
  /* With rasterization statically discarded there is nothing to compare. */
  gfx_reset (g, PSC_RENDERING_LEGACY)->ci.renderPass = hd.rp_main;
  g->raster.rasterizerDiscardEnable = VK_TRUE;
  g_bytes_unref (key_of (KL, g));

  g_free (g);
}

/* Unknown pNext on every sub-state, and each sub-state's own checks. */
static void
test_reject_graphics_states (void)
{
  Gfx *g = fixture_new (sizeof (Gfx), 0);
  struct {
    const void **pnext;
    const char *path;
    VkStructureType stype;
  } chains[] = {
    { &g->raster.pNext, "pRasterizationState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT },
    { &g->input_assembly.pNext, "pInputAssemblyState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT },
    { &g->viewport.pNext, "pViewportState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT },
    { &g->multisample.pNext, "pMultisampleState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT },
    { &g->depth_stencil.pNext, "pDepthStencilState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT },
    { &g->blend.pNext, "pColorBlendState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT },
    { &g->dynamic.pNext, "pDynamicState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT },
    { &g->vertex_input.pNext, "pVertexInputState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT },
    { &g->stages[1].pNext, "pStages[1].pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO },
    { &g->stages[0].pNext, "pStages[0].pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO },
    { &g->tessellation.pNext, "pTessellationState->pNext[0].sType",
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (chains); i++)
    for (int legacy = 0; legacy < 2; legacy++)
      {
        gfx_reset (g, legacy ? PSC_RENDERING_LEGACY : PSC_RENDERING_DYNAMIC);
        if (chains[i].pnext == &g->tessellation.pNext)
          gfx_add_tessellation (g, 3);
        chain_append (chains[i].pnext, &g->extra[1], chains[i].stype);
        assert_rejects (legacy ? KL : KD, g, UNSUPPORTED, chains[i].path, NOT_STRUCT, chains[i].stype);
      }

  /* Wrong sType and non-zero flags on each sub-state. */
  struct {
    VkStructureType *stype;
    VkFlags *flags;
    const char *name;
    const char *expected;
  } subs[] = {
    { &g->raster.sType, &g->raster.flags, "pRasterizationState",
      "VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO" },
    { &g->input_assembly.sType, &g->input_assembly.flags, "pInputAssemblyState",
      "VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO" },
    { &g->viewport.sType, &g->viewport.flags, "pViewportState",
      "VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO" },
    { &g->multisample.sType, &g->multisample.flags, "pMultisampleState",
      "VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO" },
    { &g->depth_stencil.sType, &g->depth_stencil.flags, "pDepthStencilState",
      "VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO" },
    { &g->blend.sType, &g->blend.flags, "pColorBlendState",
      "VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO" },
    { &g->dynamic.sType, &g->dynamic.flags, "pDynamicState",
      "VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO" },
    { &g->vertex_input.sType, &g->vertex_input.flags, "pVertexInputState",
      "VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO" },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (subs); i++)
    {
      char *path = g_strdup_printf ("%s->sType", subs[i].name);
      gfx_reset (g, PSC_RENDERING_DYNAMIC);
      *subs[i].stype = VK_STRUCTURE_TYPE_APPLICATION_INFO;
      assert_rejects (KD, g, INVALID, path, "not %s", subs[i].expected);
      g_free (path);
      path = g_strdup_printf ("%s->flags", subs[i].name);
      gfx_reset (g, PSC_RENDERING_DYNAMIC);
      *subs[i].flags = 0x10;
      assert_rejects (KD, g, UNSUPPORTED, path, "unsupported flags 0x10");
      g_free (path);
    }

  /* NULL required states. */
  struct { const void **ptr; const char *path; const char *detail; } nulls[] = {
    { (const void **) &g->ci.pRasterizationState, "pRasterizationState", "NULL" },
    { (const void **) &g->ci.pInputAssemblyState, "pInputAssemblyState", "NULL" },
    { (const void **) &g->ci.pViewportState, "pViewportState", "NULL" },
    { (const void **) &g->ci.pMultisampleState, "pMultisampleState", "NULL" },
    { (const void **) &g->ci.pVertexInputState, "pVertexInputState", "NULL" },
    { (const void **) &g->ci.pStages, "pStages", "NULL" },
    { (const void **) &g->ci.pDepthStencilState, "pDepthStencilState",
      "NULL, but the rendering has a depth/stencil format" },
    { (const void **) &g->ci.pColorBlendState, "pColorBlendState",
      "NULL, but the rendering has colour attachments" },
    { (const void **) &g->stages[1].pName, "pStages[1].pName", "NULL" },
    { (const void **) &g->vertex_input.pVertexBindingDescriptions,
      "pVertexInputState->pVertexBindingDescriptions", "NULL with a non-zero count" },
    { (const void **) &g->vertex_input.pVertexAttributeDescriptions,
      "pVertexInputState->pVertexAttributeDescriptions", "NULL with a non-zero count" },
    { (const void **) &g->dynamic.pDynamicStates, "pDynamicState->pDynamicStates",
      "NULL with dynamicStateCount > 0" },
    { (const void **) &g->blend.pAttachments, "pColorBlendState->pAttachments",
      "NULL with attachmentCount > 0" },
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (nulls); i++)
    {
      gfx_reset (g, PSC_RENDERING_DYNAMIC);
      *nulls[i].ptr = NULL;
      assert_rejects (KD, g, INVALID, nulls[i].path, "%s", nulls[i].detail);
    }
  /* Tessellation stages need a tessellation state. */
  gfx_add_tessellation (gfx_reset (g, PSC_RENDERING_DYNAMIC), 3);
  g->ci.pTessellationState = NULL;
  assert_rejects (KD, g, INVALID, "pTessellationState", "NULL");
  /* Without a pDynamicState, the viewport is static. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.pDynamicState = NULL;
  assert_rejects (KD, g, INVALID, "pDynamicState", "VK_DYNAMIC_STATE_VIEWPORT must be dynamic");

  g_free (g);
}

static void
test_reject_graphics_values (void)
{
  Gfx *g = fixture_new (sizeof (Gfx), 0);

  /* Static viewport or scissor (DESIGN decision 8). */
  gfx_remove_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_VIEWPORT);
  assert_rejects (KD, g, INVALID, "pDynamicState", "VK_DYNAMIC_STATE_VIEWPORT must be dynamic");
  gfx_remove_dynamic (gfx_reset (g, PSC_RENDERING_LEGACY), VK_DYNAMIC_STATE_SCISSOR);
  assert_rejects (KL, g, INVALID, "pDynamicState", "VK_DYNAMIC_STATE_SCISSOR must be dynamic");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->dynamic.dynamicStateCount = 0;
  assert_rejects (KD, g, INVALID, "pDynamicState", "VK_DYNAMIC_STATE_VIEWPORT must be dynamic");
  gfx_add_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
  assert_rejects (KD, g, INVALID, "pDynamicState",
                  "VK_DYNAMIC_STATE_VIEWPORT and VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT are mutually exclusive");
  gfx_add_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
  assert_rejects (KD, g, INVALID, "pDynamicState",
                  "VK_DYNAMIC_STATE_SCISSOR and VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT are mutually exclusive");
  gfx_add_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_VIEWPORT);
  assert_rejects (KD, g, INVALID, "pDynamicState->pDynamicStates[2]",
                  "VK_DYNAMIC_STATE_VIEWPORT listed twice");
  gfx_add_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
  assert_rejects (KD, g, UNSUPPORTED, "pDynamicState->pDynamicStates[2]", "unsupported value %d",
                  (int) VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
  gfx_add_dynamic (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
  assert_rejects (KD, g, UNSUPPORTED, "pDynamicState->pDynamicStates[2]", "unsupported value %d",
                  (int) VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->viewport.viewportCount = 0;
  assert_rejects (KD, g, INVALID, "pViewportState->viewportCount", "0 (at least one viewport is required)");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->viewport.scissorCount = 0;
  assert_rejects (KD, g, INVALID, "pViewportState->scissorCount", "0 (at least one scissor is required)");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->viewport.viewportCount = PSC_MAX_VIEWPORTS;
  g->viewport.scissorCount = PSC_MAX_VIEWPORTS;
  g_bytes_unref (key_of (KD, g));
  g->viewport.viewportCount = PSC_MAX_VIEWPORTS + 1;
  assert_rejects (KD, g, CAPACITY, "pViewportState->viewportCount", "17 > 16");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->viewport.scissorCount = PSC_MAX_VIEWPORTS + 1;
  assert_rejects (KD, g, CAPACITY, "pViewportState->scissorCount", "17 > 16");

  /* Stages. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.stageCount = 0;
  assert_rejects (KD, g, INVALID, "stageCount", "0");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->ci.stageCount = PSC_MAX_GRAPHICS_STAGES + 1;
  assert_rejects (KD, g, CAPACITY, "stageCount", "6 > 5");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].stage = VK_SHADER_STAGE_TASK_BIT_EXT;
  assert_rejects (KD, g, UNSUPPORTED, "pStages[1].stage", "unsupported value %d",
                  (int) VK_SHADER_STAGE_TASK_BIT_EXT);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].stage =
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  assert_rejects (KD, g, UNSUPPORTED, "pStages[1].stage", "unsupported value 17");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].stage = VK_SHADER_STAGE_COMPUTE_BIT;
  assert_rejects (KD, g, INVALID, "pStages[1].stage", "VK_SHADER_STAGE_COMPUTE_BIT in a graphics pipeline");
  gfx_add_stage (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_SHADER_STAGE_FRAGMENT_BIT, hd.fs2);
  assert_rejects (KD, g, INVALID, "pStages[2].stage", "stage listed twice");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[0].stage = VK_SHADER_STAGE_GEOMETRY_BIT;
  assert_rejects (KD, g, INVALID, "pStages", "a VK_SHADER_STAGE_VERTEX_BIT stage is required");
  gfx_add_stage (gfx_reset (g, PSC_RENDERING_DYNAMIC), VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, hd.tcs);
  assert_rejects (KD, g, INVALID, "pStages",
                  "tessellation control and evaluation stages must be used together");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  assert_rejects (KD, g, INVALID, "pStages[1].sType", "not VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].flags = 0x4;
  assert_rejects (KD, g, UNSUPPORTED, "pStages[1].flags", "unsupported flags 0x4");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].module = VK_NULL_HANDLE;
  assert_rejects (KD, g, INVALID, "pStages[1].module", "VK_NULL_HANDLE (register the SPIR-V with the cache)");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[1].module = FOREIGN (VkShaderModule);
  assert_rejects (KD, g, FOREIGN_HANDLE, "pStages[1].module", NOT_ISSUED);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->stages[0].module = H (VkShaderModule, hd.s[0]);
  assert_rejects (KD, g, FOREIGN_HANDLE, "pStages[0].module", NOT_ISSUED);
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  memset (g->names[1], 'x', PSC_MAX_ENTRY_NAME);
  g->names[1][PSC_MAX_ENTRY_NAME] = '\0';
  g_bytes_unref (key_of (KD, g));
  memset (g->names[1], 'x', PSC_MAX_ENTRY_NAME + 1);
  g->names[1][PSC_MAX_ENTRY_NAME + 1] = '\0';
  assert_rejects (KD, g, CAPACITY, "pStages[1].pName", "64 > 63");

  /* Rasterization values. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->raster.polygonMode = VK_POLYGON_MODE_FILL_RECTANGLE_NV;
  assert_rejects (KD, g, UNSUPPORTED, "pRasterizationState->polygonMode", "unsupported value %d",
                  (int) VK_POLYGON_MODE_FILL_RECTANGLE_NV);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->raster.cullMode = 4;
  assert_rejects (KD, g, UNSUPPORTED, "pRasterizationState->cullMode", "unsupported value 4");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->raster.frontFace = (VkFrontFace) 2;
  assert_rejects (KD, g, UNSUPPORTED, "pRasterizationState->frontFace", "unsupported value 2");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->raster.lineWidth = NAN;
  g->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;   /* where it is read */
  assert_rejects (KD, g, INVALID, "pRasterizationState->lineWidth", "NaN");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->raster.depthBiasEnable = VK_TRUE;
  g->raster.depthBiasSlopeFactor = NAN;
  assert_rejects (KD, g, INVALID, "pRasterizationState->depthBiasSlopeFactor", "NaN");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->input_assembly.topology = (VkPrimitiveTopology) 11;
  assert_rejects (KD, g, UNSUPPORTED, "pInputAssemblyState->topology", "unsupported value 11");

  /* Multisample values. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->multisample.rasterizationSamples = (VkSampleCountFlagBits) 3;
  assert_rejects (KD, g, UNSUPPORTED, "pMultisampleState->rasterizationSamples", "unsupported value 3");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->multisample.rasterizationSamples = (VkSampleCountFlagBits) 128;
  assert_rejects (KD, g, UNSUPPORTED, "pMultisampleState->rasterizationSamples", "unsupported value 128");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->multisample.rasterizationSamples = (VkSampleCountFlagBits) 0;
  assert_rejects (KD, g, UNSUPPORTED, "pMultisampleState->rasterizationSamples", "unsupported value 0");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->multisample.sampleShadingEnable = VK_TRUE;
  g->multisample.minSampleShading = 1.5f;
  assert_rejects (KD, g, INVALID, "pMultisampleState->minSampleShading", "outside [0, 1]");
  g->multisample.minSampleShading = NAN;
  assert_rejects (KD, g, INVALID, "pMultisampleState->minSampleShading", "NaN");

  /* Depth/stencil values. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->depth_stencil.depthCompareOp = (VkCompareOp) 8;
  assert_rejects (KD, g, UNSUPPORTED, "pDepthStencilState->depthCompareOp", "unsupported value 8");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->depth_stencil.back.passOp = (VkStencilOp) 8;
  assert_rejects (KD, g, UNSUPPORTED, "pDepthStencilState->back.passOp", "unsupported value 8");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->depth_stencil.front.compareOp = (VkCompareOp) 9;
  assert_rejects (KD, g, UNSUPPORTED, "pDepthStencilState->front.compareOp", "unsupported value 9");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->depth_stencil.depthBoundsTestEnable = VK_TRUE;
  g->depth_stencil.maxDepthBounds = NAN;
  assert_rejects (KD, g, INVALID, "pDepthStencilState->maxDepthBounds", "NaN");

  /* Colour blend values. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attachments[0].colorBlendOp = VK_BLEND_OP_MULTIPLY_EXT;
  assert_rejects (KD, g, UNSUPPORTED, "pColorBlendState->pAttachments[0].colorBlendOp",
                  "unsupported value %d", (int) VK_BLEND_OP_MULTIPLY_EXT);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attachments[0].alphaBlendOp = VK_BLEND_OP_ZERO_EXT;
  assert_rejects (KD, g, UNSUPPORTED, "pColorBlendState->pAttachments[0].alphaBlendOp",
                  "unsupported value %d", (int) VK_BLEND_OP_ZERO_EXT);
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attachments[1].blendEnable = VK_TRUE;
  g->attachments[1].dstAlphaBlendFactor = (VkBlendFactor) 19;
  assert_rejects (KD, g, UNSUPPORTED, "pColorBlendState->pAttachments[1].dstAlphaBlendFactor",
                  "unsupported value 19");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attachments[1].colorWriteMask = 0x10;
  assert_rejects (KD, g, UNSUPPORTED, "pColorBlendState->pAttachments[1].colorWriteMask",
                  "unsupported value 16");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->blend.logicOpEnable = VK_TRUE;
  g->blend.logicOp = (VkLogicOp) 16;
  assert_rejects (KD, g, UNSUPPORTED, "pColorBlendState->logicOp", "unsupported value 16");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR;
  g->blend.blendConstants[2] = NAN;
  assert_rejects (KD, g, INVALID, "pColorBlendState->blendConstants[2]", "NaN");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->blend.attachmentCount = 1;
  assert_rejects (KD, g, INVALID, "pColorBlendState->attachmentCount", "1, but colorAttachmentCount is 2");
  gfx_set_colors (gfx_reset (g, PSC_RENDERING_LEGACY), PSC_MAX_COLOR_ATTACHMENTS);
  g_bytes_unref (key_of (KL, g));
  g->blend.attachmentCount = PSC_MAX_COLOR_ATTACHMENTS + 1;
  assert_rejects (KL, g, CAPACITY, "pColorBlendState->attachmentCount", "9 > 8");

  /* Vertex input values and capacities. */
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  for (uint32_t j = 0; j <= PSC_MAX_VERTEX_BINDINGS; j++)
    set_vertex_binding (&g->bindings[j], j, 16, VK_VERTEX_INPUT_RATE_VERTEX);
  g->vertex_input.vertexBindingDescriptionCount = PSC_MAX_VERTEX_BINDINGS;
  g_bytes_unref (key_of (KD, g));
  g->vertex_input.vertexBindingDescriptionCount = PSC_MAX_VERTEX_BINDINGS + 1;
  assert_rejects (KD, g, CAPACITY, "pVertexInputState->vertexBindingDescriptionCount", "17 > 16");
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  for (uint32_t j = 0; j <= PSC_MAX_VERTEX_ATTRIBUTES; j++)
    set_vertex_attribute (&g->attributes[j], j, 0, VK_FORMAT_R32_SFLOAT, 4 * j);
  g->vertex_input.vertexAttributeDescriptionCount = PSC_MAX_VERTEX_ATTRIBUTES;
  g_bytes_unref (key_of (KD, g));
  g->vertex_input.vertexAttributeDescriptionCount = PSC_MAX_VERTEX_ATTRIBUTES + 1;
  assert_rejects (KD, g, CAPACITY, "pVertexInputState->vertexAttributeDescriptionCount", "33 > 32");
  gfx_reset (g, PSC_RENDERING_DYNAMIC);
  set_vertex_binding (&g->bindings[2], 0, 8, VK_VERTEX_INPUT_RATE_VERTEX);
  g->vertex_input.vertexBindingDescriptionCount = 3;
  assert_rejects (KD, g, INVALID, "pVertexInputState->pVertexBindingDescriptions[2].binding",
                  "binding 0 appears twice");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attributes[3].location = 1;
  assert_rejects (KD, g, INVALID, "pVertexInputState->pVertexAttributeDescriptions[3].location",
                  "location 1 appears twice");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->bindings[1].inputRate = (VkVertexInputRate) 2;
  assert_rejects (KD, g, UNSUPPORTED, "pVertexInputState->pVertexBindingDescriptions[1].inputRate",
                  "unsupported value 2");
  /* Numbers the key stores narrowly are capacities, never truncated into an
   * alias (location/binding 256 would otherwise read as 0). */
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attributes[1].location = UINT8_MAX;
  g_bytes_unref (key_of (KD, g));
  g->attributes[1].location = UINT8_MAX + 1;
  assert_rejects (KD, g, CAPACITY, "pVertexInputState->pVertexAttributeDescriptions[1].location",
                  "256 > 255");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attributes[2].binding = UINT8_MAX + 1;
  assert_rejects (KD, g, CAPACITY, "pVertexInputState->pVertexAttributeDescriptions[2].binding",
                  "256 > 255");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->bindings[1].binding = UINT16_MAX;
  g_bytes_unref (key_of (KD, g));
  g->bindings[1].binding = UINT16_MAX + 1;
  assert_rejects (KD, g, CAPACITY, "pVertexInputState->pVertexBindingDescriptions[1].binding",
                  "65536 > 65535");
  gfx_reset (g, PSC_RENDERING_DYNAMIC)->attributes[2].format = VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG;
  assert_rejects (KD, g, UNSUPPORTED, "pVertexInputState->pVertexAttributeDescriptions[2].format",
                  "unsupported value %d", (int) VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG);

  g_free (g);
}

/* Map entries against the constants the shader declares (the fake vertex
 * shader: u32 0, bool 5, u64 7; the compute shader: 32-bit 1 and 2):
 * a declared constant's entry must give its size (a bool's is a VkBool32:
 * 4 bytes), an entry for an undeclared ID is accepted. Both graphics
 * encoders (check_fast_path runs inside assert_rejects and key_of: the fast
 * path must decline where the complete encoder reports) and compute. */
#define SIZE_MISMATCH "%u does not match the %u-byte specialization constant %u the shader declares"

/* The graphics fixture in the fast path's shape (no stencil test), so that
 * check_fast_path compares both encoders on every input below. */
static Gfx *
spec_gfx (Gfx *g, PscRenderingMode mode)
{
  gfx_fill (g, mode);
  g->depth_stencil.stencilTestEnable = VK_FALSE;
  return g;
}

static void
test_spec_declared (void)
{
  Gfx *g = spec_gfx (gfx_new (PSC_RENDERING_DYNAMIC), PSC_RENDERING_DYNAMIC);
  const char *const P0 = "pStages[0].pSpecializationInfo->pMapEntries[0].size";
  const char *const P1 = "pStages[0].pSpecializationInfo->pMapEntries[1].size";

  /* The fixture agrees with the declarations: accepted by both encoders. */
  {
    uint8_t buf[PSC_MAX_KEY_BYTES];
    PscKeyWriter w = { buf, 0, sizeof buf };
    g_assert_cmpint (psc_encode_graphics_fast (&g->ci, PSC_RENDERING_DYNAMIC, &fake->resolver, &w),
                     ==, PSC_STATUS_OK);
  }
  for (int mode = 0; mode < 2; mode++)
    {
      const Kind kind = mode ? KL : KD;
      spec_gfx (g, mode ? PSC_RENDERING_LEGACY : PSC_RENDERING_DYNAMIC);
      g->map[0][0].size = 8;                       /* u32 0 given 8 bytes */
      assert_rejects (kind, g, INVALID, P0, SIZE_MISMATCH, 8, 4, 0);
      spec_gfx (g, mode ? PSC_RENDERING_LEGACY : PSC_RENDERING_DYNAMIC);
      g->map[0][1].size = 4;                       /* u64 7 given 4 bytes */
      assert_rejects (kind, g, INVALID, P1, SIZE_MISMATCH, 4, 8, 7);
      g->map[0][1].size = 0;
      assert_rejects (kind, g, INVALID, P1, SIZE_MISMATCH, 0, 8, 7);
    }

  /* The first mismatched entry in the caller's order is named (here the
   * entry of the higher ID), and the vertex stage given second is
   * pStages[1]. */
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  set_map (&g->map[0][0], 7, 0, 4);
  set_map (&g->map[0][1], 0, 4, 8);
  assert_rejects (KD, g, INVALID, P0, SIZE_MISMATCH, 4, 8, 7);
  VkPipelineShaderStageCreateInfo t = g->stages[0];
  g->stages[0] = g->stages[1];
  g->stages[1] = t;
  assert_rejects (KD, g, INVALID, "pStages[1].pSpecializationInfo->pMapEntries[0].size",
                  SIZE_MISMATCH, 4, 8, 7);

  /* A boolean constant takes a VkBool32 (generation 2 of the vertex
   * shader declares one; the table is then longer than the entries). */
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  g->stages[0].module = hd.vs_gen2;
  g->map[0][0].size = 8;
  assert_rejects (KD, g, INVALID, P0, SIZE_MISMATCH, 8, 4, 0);
  g->map[0][0].size = 4;
  g_bytes_unref (key_of (KD, g));
  set_map (&g->map[0][2], 5, 0, 4);
  g->spec[0].mapEntryCount = 3;
  GBytes *with_bool = key_of (KD, g);
  g->map[0][2].size = 1;
  assert_rejects (KD, g, INVALID, "pStages[0].pSpecializationInfo->pMapEntries[2].size",
                  SIZE_MISMATCH, 1, 4, 5);
  g_bytes_unref (with_bool);

  /* Earlier checks come first: a repeated ID, a range or a capacity. */
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  set_map (&g->map[0][0], 7, 0, 4);
  set_map (&g->map[0][1], 0, 4, 4);
  set_map (&g->map[0][2], 7, 4, 8);
  g->spec[0].mapEntryCount = 3;
  assert_rejects (KD, g, INVALID, "pStages[0].pSpecializationInfo->pMapEntries[2].constantID",
                  "constant ID 7 appears twice");
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  set_map (&g->map[0][0], 0, 8, 8);
  assert_rejects (KD, g, INVALID, "pStages[0].pSpecializationInfo->pMapEntries[0]",
                  "offset 8 + size 8 > dataSize 12");

  /* IDs the shader does not declare are accepted at any size, by both
   * encoders, and still enter the key. */
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  GBytes *base = key_of (KD, g);
  set_map (&g->map[0][2], 3, 0, 8);
  set_map (&g->map[0][3], 200, 4, 1);
  g->spec[0].mapEntryCount = 4;
  {
    uint8_t buf[PSC_MAX_KEY_BYTES];
    PscKeyWriter w = { buf, 0, sizeof buf };
    g_assert_cmpint (psc_encode_graphics_fast (&g->ci, PSC_RENDERING_DYNAMIC, &fake->resolver, &w),
                     ==, PSC_STATUS_OK);
  }
  GBytes *extra = key_of (KD, g);
  assert_different_key (base, extra);
  /* ... and so is a stage whose shader declares nothing (the fragment
   * shader: its constant 3 may be 8 bytes). */
  spec_gfx (g, PSC_RENDERING_DYNAMIC);
  g->map[1][0].size = 8;
  g->spec[1].dataSize = 8;
  g_bytes_unref (key_of (KD, g));

  /* The fast path declines each mismatch itself (not only through the
   * complete encoder's report), with and without the resolver's memo. */
  static uint32_t epoch = 1;
  static PscResolverMemo memo;
  memset (&memo, 0, sizeof memo);
  memo.epoch = &epoch;
  PscResolver with_memo = fake->resolver;
  with_memo.memo = &memo;
  for (int round = 0; round < 12; round++)
    {
      /* Entries exactly the table's (hd.vs), the table longer (hd.vs_gen2),
       * entries beyond the table (an undeclared ID 3 added); each with one
       * size wrong. */
      spec_gfx (g, PSC_RENDERING_DYNAMIC);
      if ((round / 2) % 3 == 1)
        g->stages[0].module = hd.vs_gen2;
      if ((round / 2) % 3 == 2)
        {
          set_map (&g->map[0][2], 3, 0, 4);
          g->spec[0].mapEntryCount = 3;
        }
      if (round < 6)
        g->map[0][0].size = 8;
      else
        g->map[0][1].size = 4;
      uint8_t buf[PSC_MAX_KEY_BYTES];
      PscKeyWriter w = { buf, 0, sizeof buf };
      g_assert_cmpint (psc_encode_graphics_fast (&g->ci, PSC_RENDERING_DYNAMIC,
                                                 (round & 1) ? &with_memo : &fake->resolver, &w),
                       ==, PSC_STATUS_DECLINED);
    }

  /* Compute: the same rule, named "stage". */
  ComputeFx *c = fixture_new (sizeof *c, 0);
  compute_fill (c);
  g_bytes_unref (key_of (KIND_COMPUTE, c));
  c->map[0].size = 8;
  assert_rejects (KIND_COMPUTE, c, INVALID, "stage.pSpecializationInfo->pMapEntries[0].size",
                  SIZE_MISMATCH, 8, 4, 1);
  compute_fill (c);
  c->map[1].size = 2;
  assert_rejects (KIND_COMPUTE, c, INVALID, "stage.pSpecializationInfo->pMapEntries[1].size",
                  SIZE_MISMATCH, 2, 4, 2);
  compute_fill (c);
  set_map (&c->map[2], 9, 0, 8);
  c->spec.mapEntryCount = 3;
  g_bytes_unref (key_of (KIND_COMPUTE, c));
  /* A compute shader that declares nothing takes any size. */
  compute_fill (c);
  c->ci.stage.module = hd.cs2;
  c->map[0].size = 8;
  g_bytes_unref (key_of (KIND_COMPUTE, c));

  g_bytes_unref (base);
  g_bytes_unref (extra);
  g_free (c);
  g_free (g);
}

/* ===========================================================================
 * Compute.
 */
static void
test_compute (void)
{
  ComputeFx *c = fixture_new (sizeof *c, 0);
  enum { N = 10 };
  GBytes *keys[N];
  const char *names[N] = {
    "base", "shader id", "shader generation", "entry point", "spec value", "spec constant id",
    "layout id", "flags DISABLE_OPTIMIZATION", "flags DISPATCH_BASE", "stage flags",
  };
  for (unsigned v = 0; v < N; v++)
    {
      compute_fill (c);
      switch (v)
        {
        case 1: c->ci.stage.module = hd.cs2; break;
        case 2: c->ci.stage.module = hd.cs_gen2; break;
        case 3: strcpy (c->name, "cs_main2"); break;
        case 4: put_f32 (&c->data[4], 1.25f); break;
        case 5: c->map[1].constantID = 3; break;
        case 6: c->ci.layout = hd.pl2; break;
        case 7: c->ci.flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT; break;
        case 8: c->ci.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT; break;
        case 9: c->ci.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT; break;
        }
      keys[v] = key_of (KIND_COMPUTE, c);
      if (v != 2)
        assert_round_trip (KIND_COMPUTE, keys[v], names[v]);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);

  const Kind C = KIND_COMPUTE;
  assert_rejects (C, NULL, INVALID, "pCreateInfo", "NULL");
  compute_fill (c);
  c->ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  assert_rejects (C, c, INVALID, "sType", "not VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO");
  compute_fill (c);
  chain_append (&c->ci.pNext, &c->extra[0], VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  assert_rejects (C, c, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  {
    VkPipelineCreationFeedback pipe_fb;
    VkPipelineCreationFeedbackCreateInfo fb = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
      .pPipelineCreationFeedback = &pipe_fb,
    };
    compute_fill (c);
    GBytes *plain = key_of (C, c);
    chain_append (&c->ci.pNext, (VkBaseInStructure *) &fb,
                  VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
    GBytes *with = key_of (C, c);
    assert_same_key (plain, with);
    g_bytes_unref (plain);
    g_bytes_unref (with);
  }
  compute_fill (c);
  chain_append (&c->ci.stage.pNext, &c->extra[0],
                VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  assert_rejects (C, c, UNSUPPORTED, "stage.pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  compute_fill (c);
  c->ci.flags = VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  assert_rejects (C, c, UNSUPPORTED, "flags", "unsupported flags 0x4");
  compute_fill (c);
  c->ci.basePipelineHandle = H (VkPipeline, 0x7f5a12345670);
  assert_rejects (C, c, INVALID, "basePipelineHandle",
                  "must be VK_NULL_HANDLE (derivative pipelines are not supported)");
  compute_fill (c);
  c->ci.layout = VK_NULL_HANDLE;
  assert_rejects (C, c, INVALID, "layout", "VK_NULL_HANDLE");
  compute_fill (c);
  c->ci.layout = FOREIGN (VkPipelineLayout);
  assert_rejects (C, c, FOREIGN_HANDLE, "layout", NOT_ISSUED);
  compute_fill (c);
  c->ci.stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  assert_rejects (C, c, INVALID, "stage.stage", "a compute pipeline needs VK_SHADER_STAGE_COMPUTE_BIT");
  compute_fill (c);
  c->ci.stage.stage = VK_SHADER_STAGE_RAYGEN_BIT_KHR;
  assert_rejects (C, c, UNSUPPORTED, "stage.stage", "unsupported value %d", (int) VK_SHADER_STAGE_RAYGEN_BIT_KHR);
  compute_fill (c);
  c->ci.stage.module = FOREIGN (VkShaderModule);
  assert_rejects (C, c, FOREIGN_HANDLE, "stage.module", NOT_ISSUED);
  compute_fill (c);
  c->ci.stage.module = VK_NULL_HANDLE;
  assert_rejects (C, c, INVALID, "stage.module", "VK_NULL_HANDLE (register the SPIR-V with the cache)");
  compute_fill (c);
  c->ci.stage.pName = NULL;
  assert_rejects (C, c, INVALID, "stage.pName", "NULL");
  compute_fill (c);
  c->ci.stage.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  assert_rejects (C, c, INVALID, "stage.sType", "not VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO");
  compute_fill (c);
  c->ci.stage.flags = 0x100;
  assert_rejects (C, c, UNSUPPORTED, "stage.flags", "unsupported flags 0x100");
  compute_fill (c);
  memset (c->name, 'y', 100);
  c->name[100] = '\0';
  assert_rejects (C, c, CAPACITY, "stage.pName", "100 > 63");
  /* basePipelineIndex is ignored without a base. */
  compute_fill (c);
  GBytes *a = key_of (C, c);
  c->ci.basePipelineIndex = 3;
  GBytes *b = key_of (C, c);
  assert_same_key (a, b);
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (c);
}

/* ===========================================================================
 * Identity (DESIGN decision 1): ids, never handle values, enter keys.
 */
static void
test_identity (void)
{
  Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
  GBytes *base = key_of (KIND_GRAPHICS_DYNAMIC, g);
  /* Another handle value with the same id and generation: same key. */
  g->stages[0].module = hd.vs_alias;
  GBytes *alias = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_same_key (base, alias);

  /* A module destroyed and its handle value reused by the driver for a new
   * module (new id): the old key is not produced. */
  uint64_t reused = UINT64_C (0x00007f5a0bad0040);
  FakeObject *o = fake_register_handle (FK_SHADER, reused, 70, 1);
  g->stages[1].module = H (VkShaderModule, reused);
  GBytes *before = key_of (KIND_GRAPHICS_DYNAMIC, g);
  o->alive = false;
  assert_rejects (KIND_GRAPHICS_DYNAMIC, g, FOREIGN_HANDLE, "pStages[1].module", NOT_ISSUED);
  fake_register_handle (FK_SHADER, reused, 71, 1);
  GBytes *after = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_different_key (before, after);
  fake_forget (FK_SHADER, reused);

  /* Same for layouts. */
  gfx_fill (g, PSC_RENDERING_DYNAMIC);
  uint64_t reused_layout = UINT64_C (0x00007f5a0bad0080);
  o = fake_register_handle (FK_PIPELINE_LAYOUT, reused_layout, 80, 0);
  g->ci.layout = H (VkPipelineLayout, reused_layout);
  GBytes *l1 = key_of (KIND_GRAPHICS_DYNAMIC, g);
  o->alive = false;
  fake_register_handle (FK_PIPELINE_LAYOUT, reused_layout, 81, 0);
  GBytes *l2 = key_of (KIND_GRAPHICS_DYNAMIC, g);
  assert_different_key (l1, l2);
  fake_forget (FK_PIPELINE_LAYOUT, reused_layout);

  /* A set layout's samplers and a pipeline layout's set layouts too. */
  PipelineLayoutFx *p = fixture_new (sizeof *p, 0);
  pipeline_layout_fill (p);
  uint64_t reused_set = UINT64_C (0x00007f5a0bad00c0);
  o = fake_register_handle (FK_SET_LAYOUT, reused_set, 90, 0);
  p->sets[1] = H (VkDescriptorSetLayout, reused_set);
  GBytes *p1 = key_of (KIND_PIPELINE_LAYOUT, p);
  o->alive = false;
  assert_rejects (KIND_PIPELINE_LAYOUT, p, FOREIGN_HANDLE, "pSetLayouts[1]", NOT_ISSUED);
  fake_register_handle (FK_SET_LAYOUT, reused_set, 91, 0);
  GBytes *p2 = key_of (KIND_PIPELINE_LAYOUT, p);
  assert_different_key (p1, p2);
  fake_forget (FK_SET_LAYOUT, reused_set);

  g_bytes_unref (p1);
  g_bytes_unref (p2);
  g_bytes_unref (l1);
  g_bytes_unref (l2);
  g_bytes_unref (before);
  g_bytes_unref (after);
  g_bytes_unref (alias);
  g_bytes_unref (base);
  g_free (p);
  g_free (g);
}

/* ===========================================================================
 * Samplers.
 */
static void
test_sampler (void)
{
  SamplerFx *s = fixture_new (sizeof *s, 0);
  sampler_fill (s);
  GBytes *base = key_of (KIND_SAMPLER, s);

  /* Normalizations. */
  static const char *const same_names[] = {
    "maxAnisotropy without anisotropy", "compareOp without compare",
    "border colour without CLAMP_TO_BORDER", "reduction WEIGHTED_AVERAGE",
    "-0.0 minLod",
  };
  GBytes *no_aniso = NULL;
  for (unsigned i = 0; i < G_N_ELEMENTS (same_names); i++)
    {
      sampler_fill (s);
      GBytes *ref_key = NULL;
      switch (i)
        {
        case 0:
          s->ci.anisotropyEnable = VK_FALSE;
          no_aniso = key_of (KIND_SAMPLER, s);
          ref_key = g_bytes_ref (no_aniso);
          s->ci.maxAnisotropy = 16.0f;
          break;
        case 1: s->ci.compareOp = VK_COMPARE_OP_ALWAYS; break;
        case 2: s->ci.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE; break;
        case 3: sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE); break;
        case 4: s->ci.minLod = -0.0f; break;
        }
      GBytes *k = key_of (KIND_SAMPLER, s);
      if (!g_bytes_equal (ref_key ? ref_key : base, k))
        g_error ("sampler: %s changed the key", same_names[i]);
      g_bytes_unref (k);
      if (ref_key)
        g_bytes_unref (ref_key);
    }
  assert_different_key (base, no_aniso);
  g_bytes_unref (no_aniso);

  /* One field at a time never aliases. */
  enum { N = 21 };
  GBytes *keys[N];
  const char *names[N] = {
    "base", "magFilter", "minFilter", "mipmapMode", "addressModeU", "addressModeV", "addressModeW",
    "mipLodBias", "maxAnisotropy", "anisotropy off", "compare LESS", "compare GREATER", "minLod",
    "maxLod", "border (clamp to border) black", "border (clamp to border) white",
    "unnormalized", "reduction MIN", "reduction MAX", "mirror clamp to edge", "maxLod LOD_CLAMP_NONE",
  };
  for (unsigned v = 0; v < N; v++)
    {
      sampler_fill (s);
      switch (v)
        {
        case 1: s->ci.magFilter = VK_FILTER_NEAREST; break;
        case 2: s->ci.minFilter = VK_FILTER_LINEAR; break;
        case 3: s->ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST; break;
        case 4: s->ci.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE; break;
        case 5: s->ci.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT; break;
        case 6: s->ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT; break;
        case 7: s->ci.mipLodBias = -0.5f; break;
        case 8: s->ci.maxAnisotropy = 16.0f; break;
        case 9: s->ci.anisotropyEnable = VK_FALSE; break;
        case 10: s->ci.compareEnable = VK_TRUE; break;
        case 11: s->ci.compareEnable = VK_TRUE; s->ci.compareOp = VK_COMPARE_OP_GREATER; break;
        case 12: s->ci.minLod = 1.0f; break;
        case 13: s->ci.maxLod = 11.0f; break;
        case 14: s->ci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER; break;
        case 15: s->ci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
                 s->ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE; break;
        case 16: s->ci.unnormalizedCoordinates = VK_TRUE; break;
        case 17: sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_MIN); break;
        case 18: sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_MAX); break;
        case 19: s->ci.addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE; break;
        case 20: s->ci.maxLod = VK_LOD_CLAMP_NONE; break;
        }
      keys[v] = key_of (KIND_SAMPLER, s);
      assert_round_trip (KIND_SAMPLER, keys[v], names[v]);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);

  /* Rejections. */
  const Kind S = KIND_SAMPLER;
  assert_rejects (S, NULL, INVALID, "pCreateInfo", "NULL");
  sampler_fill (s);
  s->ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  assert_rejects (S, s, INVALID, "sType", "%u is not VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO",
                  (unsigned) VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  sampler_fill (s);
  s->ci.magFilter = VK_FILTER_CUBIC_EXT;
  assert_rejects (S, s, UNSUPPORTED, "magFilter", "unsupported value %d", (int) VK_FILTER_CUBIC_EXT);
  sampler_fill (s);
  s->ci.minFilter = VK_FILTER_CUBIC_EXT;
  assert_rejects (S, s, UNSUPPORTED, "minFilter", "unsupported value %d", (int) VK_FILTER_CUBIC_EXT);
  sampler_fill (s);
  s->ci.mipmapMode = (VkSamplerMipmapMode) 2;
  assert_rejects (S, s, UNSUPPORTED, "mipmapMode", "unsupported value 2");
  sampler_fill (s);
  s->ci.addressModeW = (VkSamplerAddressMode) 5;
  assert_rejects (S, s, UNSUPPORTED, "addressModeW", "unsupported value 5");
  sampler_fill (s);
  s->ci.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  s->ci.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  assert_rejects (S, s, UNSUPPORTED, "borderColor", "unsupported value %d",
                  (int) VK_BORDER_COLOR_FLOAT_CUSTOM_EXT);
  sampler_fill (s);
  s->ci.compareEnable = VK_TRUE;
  s->ci.compareOp = (VkCompareOp) 8;
  assert_rejects (S, s, UNSUPPORTED, "compareOp", "unsupported value 8");
  sampler_fill (s);
  s->ci.mipLodBias = NAN;
  assert_rejects (S, s, INVALID, "mipLodBias", "NaN");
  sampler_fill (s);
  s->ci.maxAnisotropy = NAN;
  assert_rejects (S, s, INVALID, "maxAnisotropy", "NaN");
  sampler_fill (s);
  s->ci.flags = VK_SAMPLER_CREATE_SUBSAMPLED_BIT_EXT;
  assert_rejects (S, s, UNSUPPORTED, "flags", "unsupported flags 0x1");
  sampler_fill (s);
  chain_append (&s->ci.pNext, &s->extra[0], VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT);
  assert_rejects (S, s, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT);
  sampler_fill (s);
  sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_MIN);
  chain_append (&s->ci.pNext, &s->extra[0], VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO);
  assert_rejects (S, s, UNSUPPORTED, "pNext[1].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO);
  sampler_fill (s);
  sampler_add_reduction (s, (VkSamplerReductionMode) 3);
  assert_rejects (S, s, UNSUPPORTED, "pNext[0].reductionMode", "unsupported value 3");
  sampler_fill (s);
  sampler_add_reduction (s, VK_SAMPLER_REDUCTION_MODE_MIN);
  chain_append (&s->ci.pNext, &s->extra[0], VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
  assert_rejects (S, s, INVALID, "pNext[1].sType", "structure appears twice in the chain");

  g_bytes_unref (base);
  g_free (s);
}

/* ===========================================================================
 * Descriptor-set layouts and the immutable-sampler list identity.
 */
static void
test_set_layout (void)
{
  SetLayoutFx *s = fixture_new (sizeof *s, 0);
  set_layout_fill (s);
  uint32_t calls = fake->list_calls;
  GBytes *base = key_of (KIND_SET_LAYOUT, s);
  /* The encoder hands the resolver every sampler id, in order. */
  g_assert_cmpuint (fake->list_calls, ==, calls + 1);
  g_assert_cmpuint (fake->last_list_count, ==, 2);
  g_assert_cmpuint (fake->last_list[0], ==, 51);
  g_assert_cmpuint (fake->last_list[1], ==, 52);

  /* Normalizations. */
  static const char *const same_names[] = {
    "bindings in another order", "all-zero binding flags equal no struct",
    "immutable samplers of a non-sampler binding", "another array with the same samplers",
    "binding flags struct with bindingCount 0",
  };
  for (unsigned i = 0; i < G_N_ELEMENTS (same_names); i++)
    {
      set_layout_fill (s);
      GBytes *a = NULL, *b = NULL;
      switch (i)
        {
        case 0:
          a = g_bytes_ref (base);
          {
            VkDescriptorSetLayoutBinding t = s->bindings[0];
            s->bindings[0] = s->bindings[2];
            s->bindings[2] = t;
            VkDescriptorBindingFlags f = s->binding_flags[0];
            s->binding_flags[0] = s->binding_flags[2];
            s->binding_flags[2] = f;
          }
          break;
        case 1:
          s->binding_flags[2] = 0;
          a = key_of (KIND_SET_LAYOUT, s);
          s->ci.pNext = NULL;
          break;
        case 2:
          s->samplers[2][0] = FOREIGN (VkSampler);
          a = g_bytes_ref (base);
          s->bindings[1].pImmutableSamplers = s->samplers[2];
          break;
        case 3:
          a = g_bytes_ref (base);
          s->samplers[3][0] = hd.s[0];
          s->samplers[3][1] = hd.s[1];
          s->bindings[0].pImmutableSamplers = s->samplers[3];
          break;
        case 4:
          s->binding_flags[2] = 0;
          a = key_of (KIND_SET_LAYOUT, s);
          s->flags_ci.bindingCount = 0;
          s->flags_ci.pBindingFlags = NULL;
          break;
        }
      b = key_of (KIND_SET_LAYOUT, s);
      if (!g_bytes_equal (a, b))
        g_error ("set layout: %s changed the key", same_names[i]);
      g_bytes_unref (a);
      g_bytes_unref (b);
    }

  /* One thing at a time never aliases, including the sampler lists: every
   * element, the order and the length count. */
  enum { N = 14 };
  GBytes *keys[N];
  const char *names[N] = {
    "base", "binding number", "descriptor type", "descriptor count", "stage flags", "binding flags",
    "create flags", "one binding fewer", "sampler list: other second sampler",
    "sampler list: swapped", "sampler list: longer", "no immutable samplers", "SAMPLER type",
    "stage ALL",
  };
  for (unsigned v = 0; v < N; v++)
    {
      set_layout_fill (s);
      switch (v)
        {
        case 1: s->bindings[2].binding = 2; break;
        case 2: s->bindings[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC; break;
        case 3: s->bindings[2].descriptorCount = 5; break;
        case 4: s->bindings[1].stageFlags = VK_SHADER_STAGE_VERTEX_BIT; break;
        case 5: s->binding_flags[2] = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT; break;
        case 6: s->ci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR; break;
        case 7: s->ci.bindingCount = 2; s->flags_ci.bindingCount = 2; break;
        case 8: s->samplers[0][1] = hd.s[2]; break;
        case 9: s->samplers[0][0] = hd.s[1]; s->samplers[0][1] = hd.s[0]; break;
        case 10: s->samplers[0][2] = hd.s[2]; s->bindings[0].descriptorCount = 3; break;
        case 11: s->bindings[0].pImmutableSamplers = NULL; break;
        case 12: s->bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER; break;
        case 13: s->bindings[2].stageFlags = VK_SHADER_STAGE_ALL; break;
        }
      keys[v] = key_of (KIND_SET_LAYOUT, s);
      if (v == 10)
        {
          g_assert_cmpuint (fake->last_list_count, ==, 3);
          g_assert_cmpuint (fake->last_list[2], ==, 53);
        }
      assert_round_trip (KIND_SET_LAYOUT, keys[v], names[v]);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);

  /* Rejections. */
  const Kind SL = KIND_SET_LAYOUT;
  assert_rejects (SL, NULL, INVALID, "pCreateInfo", "NULL");
  set_layout_fill (s);
  s->ci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  assert_rejects (SL, s, INVALID, "sType", "%u is not VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO",
                  (unsigned) VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  set_layout_fill (s);
  s->bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
  assert_rejects (SL, s, UNSUPPORTED, "pBindings[1].descriptorType", "unsupported value %d",
                  (int) VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK);
  set_layout_fill (s);
  s->bindings[2].descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
  assert_rejects (SL, s, UNSUPPORTED, "pBindings[2].descriptorType", "unsupported value %d",
                  (int) VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR);
  set_layout_fill (s);
  s->bindings[0].stageFlags = 0x80000000u;
  assert_rejects (SL, s, UNSUPPORTED, "pBindings[0].stageFlags", "unsupported flags 0x80000000");
  set_layout_fill (s);
  s->bindings[2].binding = 3;
  assert_rejects (SL, s, INVALID, "pBindings[2].binding", "binding 3 appears twice");
  set_layout_fill (s);
  s->samplers[0][1] = FOREIGN (VkSampler);
  assert_rejects (SL, s, FOREIGN_HANDLE, "pBindings[0].pImmutableSamplers[1]", NOT_ISSUED);
  set_layout_fill (s);
  s->samplers[0][0] = H (VkSampler, hd.vs);
  assert_rejects (SL, s, FOREIGN_HANDLE, "pBindings[0].pImmutableSamplers[0]", NOT_ISSUED);
  set_layout_fill (s);
  s->samplers[0][1] = VK_NULL_HANDLE;
  assert_rejects (SL, s, INVALID, "pBindings[0].pImmutableSamplers[1]", "VK_NULL_HANDLE");
  set_layout_fill (s);
  for (uint32_t j = 0; j <= PSC_MAX_IMMUTABLE_SAMPLERS; j++)
    s->samplers[0][j] = hd.s[j % 5];
  s->bindings[0].descriptorCount = PSC_MAX_IMMUTABLE_SAMPLERS;
  g_bytes_unref (key_of (SL, s));
  g_assert_cmpuint (fake->last_list_count, ==, PSC_MAX_IMMUTABLE_SAMPLERS);
  s->bindings[0].descriptorCount = PSC_MAX_IMMUTABLE_SAMPLERS + 1;
  assert_rejects (SL, s, CAPACITY, "pBindings[0].descriptorCount", "33 > 32");
  set_layout_fill (s);
  for (uint32_t j = 0; j <= PSC_MAX_SET_BINDINGS; j++)
    {
      set_binding (&s->bindings[j], 100 - j, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                   VK_SHADER_STAGE_VERTEX_BIT, NULL);
      s->binding_flags[j] = 0;
    }
  s->ci.bindingCount = PSC_MAX_SET_BINDINGS;
  s->flags_ci.bindingCount = PSC_MAX_SET_BINDINGS;
  g_bytes_unref (key_of (SL, s));
  s->ci.bindingCount = PSC_MAX_SET_BINDINGS + 1;
  s->flags_ci.bindingCount = PSC_MAX_SET_BINDINGS + 1;
  assert_rejects (SL, s, CAPACITY, "bindingCount", "65 > 64");
  set_layout_fill (s);
  s->ci.pBindings = NULL;
  assert_rejects (SL, s, INVALID, "pBindings", "NULL with bindingCount > 0");
  set_layout_fill (s);
  s->ci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT;
  assert_rejects (SL, s, UNSUPPORTED, "flags", "unsupported flags 0x%x",
                  (unsigned) VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT);
  set_layout_fill (s);
  chain_append (&s->ci.pNext, &s->extra[0], VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
  assert_rejects (SL, s, UNSUPPORTED, "pNext[1].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
  set_layout_fill (s);
  s->flags_ci.bindingCount = 2;
  assert_rejects (SL, s, INVALID, "pNext[0].bindingCount", "2, but bindingCount is 3 (must be 0 or equal)");
  set_layout_fill (s);
  s->flags_ci.pBindingFlags = NULL;
  assert_rejects (SL, s, INVALID, "pNext[0].pBindingFlags", "NULL with bindingCount > 0");
  set_layout_fill (s);
  s->binding_flags[1] = 0x100;
  assert_rejects (SL, s, UNSUPPORTED, "pNext[0].pBindingFlags[1]", "unsupported flags 0x100");

  /* The resolver's failure is kept, with the field named. */
  set_layout_fill (s);
  fake->list_fail = PSC_STATUS_CAPACITY;
  assert_rejects (SL, s, CAPACITY, "pBindings[0].pImmutableSamplers", "fake sampler-list failure");
  fake->list_fail = PSC_STATUS_OK;

  g_bytes_unref (base);
  g_free (s);
}

/* ===========================================================================
 * Pipeline layouts.
 */
static void
test_pipeline_layout (void)
{
  PipelineLayoutFx *p = fixture_new (sizeof *p, 0);
  enum { N = 10 };
  GBytes *keys[N];
  const char *names[N] = {
    "base", "set layouts swapped", "other set layout", "one set layout fewer",
    "push stage", "push offset", "push size", "push ranges swapped", "no push ranges",
    "no set layouts",
  };
  for (unsigned v = 0; v < N; v++)
    {
      pipeline_layout_fill (p);
      switch (v)
        {
        case 1: p->sets[0] = hd.sl1; p->sets[1] = hd.sl0; break;
        case 2: p->sets[1] = hd.sl2; break;
        case 3: p->ci.setLayoutCount = 1; break;
        case 4: p->ranges[1].stageFlags = VK_SHADER_STAGE_ALL_GRAPHICS; break;
        case 5: p->ranges[1].offset = 20; break;
        case 6: p->ranges[1].size = 12; break;
        case 7: push_range (&p->ranges[0], VK_SHADER_STAGE_FRAGMENT_BIT, 16, 16);
                push_range (&p->ranges[1], VK_SHADER_STAGE_VERTEX_BIT, 0, 16); break;
        case 8: p->ci.pushConstantRangeCount = 0; p->ci.pPushConstantRanges = NULL; break;
        case 9: p->ci.setLayoutCount = 0; p->ci.pSetLayouts = NULL; break;
        }
      keys[v] = key_of (KIND_PIPELINE_LAYOUT, p);
      assert_round_trip (KIND_PIPELINE_LAYOUT, keys[v], names[v]);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);

  const Kind PL = KIND_PIPELINE_LAYOUT;
  assert_rejects (PL, NULL, INVALID, "pCreateInfo", "NULL");
  pipeline_layout_fill (p);
  p->ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  assert_rejects (PL, p, INVALID, "sType", "%u is not VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO",
                  (unsigned) VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  pipeline_layout_fill (p);
  p->sets[1] = FOREIGN (VkDescriptorSetLayout);
  assert_rejects (PL, p, FOREIGN_HANDLE, "pSetLayouts[1]", NOT_ISSUED);
  pipeline_layout_fill (p);
  p->sets[0] = H (VkDescriptorSetLayout, hd.pl);
  assert_rejects (PL, p, FOREIGN_HANDLE, "pSetLayouts[0]", NOT_ISSUED);
  pipeline_layout_fill (p);
  p->sets[1] = VK_NULL_HANDLE;
  assert_rejects (PL, p, INVALID, "pSetLayouts[1]", "VK_NULL_HANDLE");
  pipeline_layout_fill (p);
  for (uint32_t i = 0; i <= PSC_MAX_SET_LAYOUTS; i++)
    p->sets[i] = hd.sl0;
  p->ci.setLayoutCount = PSC_MAX_SET_LAYOUTS;
  g_bytes_unref (key_of (PL, p));
  p->ci.setLayoutCount = PSC_MAX_SET_LAYOUTS + 1;
  assert_rejects (PL, p, CAPACITY, "setLayoutCount", "17 > 16");
  pipeline_layout_fill (p);
  for (uint32_t i = 0; i <= PSC_MAX_PUSH_RANGES; i++)
    push_range (&p->ranges[i], VK_SHADER_STAGE_VERTEX_BIT, 4 * i, 4);
  p->ci.pushConstantRangeCount = PSC_MAX_PUSH_RANGES;
  g_bytes_unref (key_of (PL, p));
  p->ci.pushConstantRangeCount = PSC_MAX_PUSH_RANGES + 1;
  assert_rejects (PL, p, CAPACITY, "pushConstantRangeCount", "9 > 8");
  pipeline_layout_fill (p);
  p->ci.pSetLayouts = NULL;
  assert_rejects (PL, p, INVALID, "pSetLayouts", "NULL with setLayoutCount > 0");
  pipeline_layout_fill (p);
  p->ci.pPushConstantRanges = NULL;
  assert_rejects (PL, p, INVALID, "pPushConstantRanges", "NULL with pushConstantRangeCount > 0");
  pipeline_layout_fill (p);
  p->ranges[1].stageFlags = 0x80000000u;
  assert_rejects (PL, p, UNSUPPORTED, "pPushConstantRanges[1].stageFlags", "unsupported flags 0x80000000");
  pipeline_layout_fill (p);
  p->ci.flags = 0x2;
  assert_rejects (PL, p, UNSUPPORTED, "flags", "unsupported flags 0x2");
  pipeline_layout_fill (p);
  chain_append (&p->ci.pNext, &p->extra[0], VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT);
  assert_rejects (PL, p, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT);
  g_free (p);
}

/* ===========================================================================
 * Compatibility render passes (DESIGN decision 3).
 */
static void
test_render_pass_normalization (void)
{
  PassFx *p = fixture_new (sizeof *p, 0);
  pass_fill (p);
  GBytes *base = key_of (KIND_RENDER_PASS, p);

  /* Load/store ops and every layout are not part of compatibility. */
  pass_fill (p);
  for (uint32_t i = 0; i < 4; i++)
    {
      VkAttachmentDescription *a = &p->attachments[i];
      a->loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
      a->storeOp = VK_ATTACHMENT_STORE_OP_NONE;
      a->stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      a->stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
      a->initialLayout = VK_IMAGE_LAYOUT_GENERAL;
      a->finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    }
  p->colors[0][0].layout = VK_IMAGE_LAYOUT_GENERAL;
  p->resolves[0][0].layout = VK_IMAGE_LAYOUT_GENERAL;
  p->depth[0].layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  p->inputs[1][0].layout = VK_IMAGE_LAYOUT_GENERAL;
  p->colors[1][0].layout = VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL;
  GBytes *ops = key_of (KIND_RENDER_PASS, p);
  assert_same_key (base, ops);

  /* NULL resolve array == all VK_ATTACHMENT_UNUSED; NULL depth == UNUSED. */
  pass_fill (p);
  p->subpasses[0].pResolveAttachments = NULL;
  p->subpasses[1].pDepthStencilAttachment = NULL;
  GBytes *null_refs = key_of (KIND_RENDER_PASS, p);
  ref (&p->resolves[0][0], VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL);
  p->subpasses[0].pResolveAttachments = p->resolves[0];
  ref (&p->depth[1], VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL);
  p->subpasses[1].pDepthStencilAttachment = &p->depth[1];
  GBytes *unused_refs = key_of (KIND_RENDER_PASS, p);
  assert_same_key (null_refs, unused_refs);
  assert_different_key (base, null_refs);

  /* A multiview struct of zeros equals none. */
  pass_fill (p);
  pass_add_multiview (p, 0, 0, 0, 0);
  GBytes *mv0 = key_of (KIND_RENDER_PASS, p);
  assert_same_key (base, mv0);

  /* Everything compatibility compares makes a difference. */
  enum { N = 19 };
  GBytes *keys[N];
  const char *names[N] = {
    "base", "dependency src stage", "dependency dst access", "dependency flags",
    "dependency src subpass", "format of attachment 3", "samples 4 -> 8 (colour and depth)",
    "colour reference 3 -> 1 in subpass 1", "no resolve", "no depth", "depth reference unused",
    "no preserve", "attachment flags MAY_ALIAS", "input reference unused", "multiview masks",
    "multiview view offset", "multiview correlation", "one dependency fewer", "extra attachment",
  };
  for (unsigned v = 0; v < N; v++)
    {
      pass_fill (p);
      switch (v)
        {
        case 1: p->deps[1].srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT; break;
        case 2: p->deps[1].dstAccessMask |= VK_ACCESS_SHADER_READ_BIT; break;
        case 3: p->deps[1].dependencyFlags = 0; break;
        case 4: p->deps[1].srcSubpass = VK_SUBPASS_EXTERNAL; break;
        case 5: p->attachments[3].format = VK_FORMAT_R16G16B16A16_UNORM; break;
        case 6: p->attachments[0].samples = VK_SAMPLE_COUNT_8_BIT;
                p->attachments[2].samples = VK_SAMPLE_COUNT_8_BIT; break;
        case 7: p->colors[1][0].attachment = 1; p->inputs[1][0].attachment = 3; break;
        case 8: p->subpasses[0].pResolveAttachments = NULL; break;
        case 9: p->subpasses[0].pDepthStencilAttachment = NULL; break;
        case 10: p->depth[0].attachment = VK_ATTACHMENT_UNUSED; p->subpasses[0].preserveAttachmentCount = 0; break;
        case 11: p->subpasses[0].preserveAttachmentCount = 0; break;
        case 12: p->attachments[3].flags = VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT; break;
        case 13: p->inputs[1][0].attachment = VK_ATTACHMENT_UNUSED; break;
        case 14: pass_add_multiview (p, 0x3, 0x3, 0, 0); break;
        case 15: pass_add_multiview (p, 0x3, 0x3, 1, 0); break;
        case 16: pass_add_multiview (p, 0x3, 0x3, 0, 0x3); break;
        case 17: p->ci.dependencyCount = 1; break;
        case 18:
          attachment (&p->attachments[4], VK_FORMAT_R8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                      VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
                      VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
          p->ci.attachmentCount = 5;
          break;
        }
      keys[v] = key_of (KIND_RENDER_PASS, p);
      assert_round_trip (KIND_RENDER_PASS, keys[v], names[v]);
    }
  assert_all_distinct (keys, names, N);
  for (unsigned v = 0; v < N; v++)
    g_bytes_unref (keys[v]);

  g_bytes_unref (base);
  g_bytes_unref (ops);
  g_bytes_unref (null_refs);
  g_bytes_unref (unused_refs);
  g_bytes_unref (mv0);
  g_free (p);
}

/* The decoded pass is valid to create: no load/store, UNDEFINED -> GENERAL,
 * references in the layout of their use. */
static void
test_render_pass_decode (void)
{
  PassFx *p = fixture_new (sizeof *p, 0xff);
  pass_fill (p);
  pass_add_multiview (p, 0x3, 0x1, 1, 0x3);
  GBytes *key = key_of (KIND_RENDER_PASS, p);
  void *build;
  const VkRenderPassCreateInfo *ci = decode_kind (KIND_RENDER_PASS, key, &build);
  g_assert_nonnull (ci);
  g_assert_cmpint (ci->sType, ==, VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  g_assert_cmpuint (ci->attachmentCount, ==, 4);
  static const VkFormat formats[4] = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM,
                                       VK_FORMAT_D32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT };
  static const VkSampleCountFlagBits samples[4] = { VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_1_BIT,
                                                    VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_1_BIT };
  for (uint32_t i = 0; i < ci->attachmentCount; i++)
    {
      const VkAttachmentDescription *a = &ci->pAttachments[i];
      g_assert_cmpuint (a->flags, ==, 0);
      g_assert_cmpint (a->format, ==, formats[i]);
      g_assert_cmpint (a->samples, ==, samples[i]);
      g_assert_cmpint (a->loadOp, ==, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
      g_assert_cmpint (a->storeOp, ==, VK_ATTACHMENT_STORE_OP_DONT_CARE);
      g_assert_cmpint (a->stencilLoadOp, ==, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
      g_assert_cmpint (a->stencilStoreOp, ==, VK_ATTACHMENT_STORE_OP_DONT_CARE);
      g_assert_cmpint (a->initialLayout, ==, VK_IMAGE_LAYOUT_UNDEFINED);
      g_assert_cmpint (a->finalLayout, ==, VK_IMAGE_LAYOUT_GENERAL);
    }
  g_assert_cmpuint (ci->subpassCount, ==, 2);
  const VkSubpassDescription *s0 = &ci->pSubpasses[0], *s1 = &ci->pSubpasses[1];
  g_assert_cmpint (s0->pipelineBindPoint, ==, VK_PIPELINE_BIND_POINT_GRAPHICS);
  g_assert_cmpuint (s0->inputAttachmentCount, ==, 0);
  g_assert_cmpuint (s0->colorAttachmentCount, ==, 1);
  g_assert_cmpuint (s0->pColorAttachments[0].attachment, ==, 0);
  g_assert_cmpint (s0->pColorAttachments[0].layout, ==, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  g_assert_nonnull (s0->pResolveAttachments);
  g_assert_cmpuint (s0->pResolveAttachments[0].attachment, ==, 1);
  g_assert_cmpint (s0->pResolveAttachments[0].layout, ==, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  g_assert_nonnull (s0->pDepthStencilAttachment);
  g_assert_cmpuint (s0->pDepthStencilAttachment->attachment, ==, 2);
  g_assert_cmpint (s0->pDepthStencilAttachment->layout, ==, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  g_assert_cmpuint (s0->preserveAttachmentCount, ==, 1);
  g_assert_cmpuint (s0->pPreserveAttachments[0], ==, 3);
  g_assert_cmpuint (s1->inputAttachmentCount, ==, 1);
  g_assert_cmpuint (s1->pInputAttachments[0].attachment, ==, 1);
  g_assert_cmpint (s1->pInputAttachments[0].layout, ==, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  g_assert_cmpuint (s1->colorAttachmentCount, ==, 1);
  g_assert_cmpuint (s1->pColorAttachments[0].attachment, ==, 3);
  g_assert_cmpint (s1->pColorAttachments[0].layout, ==, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  g_assert_null (s1->pResolveAttachments);
  g_assert_null (s1->pDepthStencilAttachment);
  g_assert_cmpuint (ci->dependencyCount, ==, 2);
  g_assert_cmpuint (ci->pDependencies[0].srcSubpass, ==, VK_SUBPASS_EXTERNAL);
  g_assert_cmpuint (ci->pDependencies[1].dstAccessMask, ==, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT);
  g_assert_cmpuint (ci->pDependencies[1].dependencyFlags, ==, VK_DEPENDENCY_BY_REGION_BIT);
  const VkRenderPassMultiviewCreateInfo *mv = ci->pNext;
  g_assert_nonnull (mv);
  g_assert_cmpint (mv->sType, ==, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
  g_assert_null (mv->pNext);
  g_assert_cmpuint (mv->subpassCount, ==, 2);
  g_assert_cmphex (mv->pViewMasks[0], ==, 0x3);
  g_assert_cmphex (mv->pViewMasks[1], ==, 0x1);
  g_assert_cmpuint (mv->dependencyCount, ==, 2);
  g_assert_cmpint (mv->pViewOffsets[1], ==, 1);
  g_assert_cmpuint (mv->correlationMaskCount, ==, 1);
  g_assert_cmphex (mv->pCorrelationMasks[0], ==, 0x3);
  free (build);
  g_bytes_unref (key);

  /* An attachment read as input and written in one subpass: GENERAL. */
  pass_fill (p);
  ref (&p->inputs[1][0], 3, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  key = key_of (KIND_RENDER_PASS, p);
  ci = decode_kind (KIND_RENDER_PASS, key, &build);
  g_assert_nonnull (ci);
  g_assert_null (ci->pNext);
  g_assert_cmpint (ci->pSubpasses[1].pInputAttachments[0].layout, ==, VK_IMAGE_LAYOUT_GENERAL);
  g_assert_cmpint (ci->pSubpasses[1].pColorAttachments[0].layout, ==, VK_IMAGE_LAYOUT_GENERAL);
  assert_round_trip (KIND_RENDER_PASS, key, "feedback");
  free (build);
  g_bytes_unref (key);
  g_free (p);
}

static void
assert_subpass_samples (GBytes *key, uint32_t subpass, bool ok, uint32_t count, uint32_t samples)
{
  gsize len;
  const uint8_t *k = g_bytes_get_data (key, &len);
  uint32_t c = 0xdead, s = 0xdead;
  g_assert_cmpint (psc_render_pass_key_subpass_samples (k, len, subpass, &c, &s), ==, ok);
  g_assert_cmpuint (c, ==, count);
  if (ok)
    g_assert_cmpuint (s, ==, samples);
}

static void
test_render_pass_subpass_samples (void)
{
  PassFx *p = fixture_new (sizeof *p, 0);
  pass_fill (p);
  GBytes *key = key_of (KIND_RENDER_PASS, p);
  assert_subpass_samples (key, 0, true, 2, 4);
  assert_subpass_samples (key, 1, true, 2, 1);
  assert_subpass_samples (key, 2, false, 2, 0);
  assert_subpass_samples (key, UINT32_MAX, false, 2, 0);
  g_bytes_unref (key);

  /* Depth-only subpass: the depth attachment's count; unused colour
   * references are skipped; a subpass with neither: 0. */
  pass_fill (p);
  p->attachments[2].samples = VK_SAMPLE_COUNT_8_BIT;
  ref (&p->colors[1][0], VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL);
  ref (&p->depth[1], 2, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  subpass (&p->subpasses[1], 0, NULL, 1, p->colors[1], NULL, &p->depth[1], 0, NULL);
  p->subpasses[0].pDepthStencilAttachment = NULL;
  ref (&p->inputs[2][0], 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  subpass (&p->subpasses[2], 1, p->inputs[2], 0, NULL, NULL, NULL, 0, NULL);
  p->ci.subpassCount = 3;
  key = key_of (KIND_RENDER_PASS, p);
  assert_subpass_samples (key, 0, true, 3, 4);
  assert_subpass_samples (key, 1, true, 3, 8);
  assert_subpass_samples (key, 2, true, 3, 0);
  assert_subpass_samples (key, 3, false, 3, 0);
  assert_round_trip (KIND_RENDER_PASS, key, "depth-only subpass");

  /* A malformed key. */
  gsize len;
  const uint8_t *k = g_bytes_get_data (key, &len);
  uint32_t c = 0, s = 0;
  g_assert_false (psc_render_pass_key_subpass_samples (k, len - 1, 0, &c, &s));
  g_assert_false (psc_render_pass_key_subpass_samples (NULL, 0, 0, &c, &s));
  g_bytes_unref (key);
  g_free (p);
}

static void
test_render_pass_reject (void)
{
  PassFx *p = fixture_new (sizeof *p, 0);
  const Kind R = KIND_RENDER_PASS;
  assert_rejects (R, NULL, INVALID, "pCreateInfo", "NULL");
  pass_fill (p);
  p->ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2;
  assert_rejects (R, p, INVALID, "sType", "%u is not VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO",
                  (unsigned) VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2);
  pass_fill (p);
  chain_append (&p->ci.pNext, &p->extra[0], VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO);
  assert_rejects (R, p, UNSUPPORTED, "pNext[0].sType", NOT_STRUCT,
                  VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO);
  pass_fill (p);
  pass_add_multiview (p, 1, 1, 0, 0);
  chain_append (&p->ci.pNext, &p->extra[0], VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
  assert_rejects (R, p, INVALID, "pNext[1].sType", "structure appears twice in the chain");
  pass_fill (p);
  p->ci.flags = VK_RENDER_PASS_CREATE_TRANSFORM_BIT_QCOM;
  assert_rejects (R, p, UNSUPPORTED, "flags", "unsupported flags 0x2");
  pass_fill (p);
  p->attachments[3].format = VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG;
  assert_rejects (R, p, UNSUPPORTED, "pAttachments[3].format", "unsupported value %d",
                  (int) VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG);
  pass_fill (p);
  p->attachments[1].format = VK_FORMAT_UNDEFINED;
  assert_rejects (R, p, INVALID, "pAttachments[1].format", "VK_FORMAT_UNDEFINED");
  pass_fill (p);
  p->attachments[1].samples = (VkSampleCountFlagBits) 6;
  assert_rejects (R, p, UNSUPPORTED, "pAttachments[1].samples", "unsupported value 6");
  pass_fill (p);
  p->attachments[2].flags = 0x2;
  assert_rejects (R, p, UNSUPPORTED, "pAttachments[2].flags", "unsupported flags 0x2");
  pass_fill (p);
  p->attachments[2].samples = VK_SAMPLE_COUNT_1_BIT;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pDepthStencilAttachment",
                  "attachment 2 has 1 samples, but the subpass's colour attachments have 4 "
                  "(a common sample count is required)");
  pass_fill (p);
  ref (&p->colors[0][1], 3, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  ref (&p->resolves[0][1], VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL);
  p->subpasses[0].colorAttachmentCount = 2;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pColorAttachments[1]",
                  "attachment 3 has 1 samples, but the subpass's other attachments have 4 "
                  "(a common sample count is required)");
  pass_fill (p);
  p->colors[1][0].attachment = 4;
  assert_rejects (R, p, INVALID, "pSubpasses[1].pColorAttachments[0].attachment",
                  "4 >= attachmentCount 4");
  pass_fill (p);
  p->inputs[1][0].attachment = 9;
  assert_rejects (R, p, INVALID, "pSubpasses[1].pInputAttachments[0].attachment",
                  "9 >= attachmentCount 4");
  pass_fill (p);
  p->depth[0].attachment = 4;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pDepthStencilAttachment->attachment",
                  "4 >= attachmentCount 4");
  pass_fill (p);
  p->resolves[0][0].attachment = 0;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pResolveAttachments[0]",
                  "resolve attachment 0 has 4 samples (must be 1)");
  pass_fill (p);
  p->preserve[0][0] = 7;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pPreserveAttachments[0]", "7 >= attachmentCount 4");
  pass_fill (p);
  p->subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  assert_rejects (R, p, UNSUPPORTED, "pSubpasses[1].pipelineBindPoint", "unsupported value 1");
  pass_fill (p);
  p->subpasses[1].flags = 0x1;
  assert_rejects (R, p, UNSUPPORTED, "pSubpasses[1].flags", "unsupported flags 0x1");
  pass_fill (p);
  p->subpasses[0].pColorAttachments = NULL;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pColorAttachments", "NULL with colorAttachmentCount > 0");
  pass_fill (p);
  p->subpasses[1].pInputAttachments = NULL;
  assert_rejects (R, p, INVALID, "pSubpasses[1].pInputAttachments", "NULL with inputAttachmentCount > 0");
  pass_fill (p);
  p->subpasses[0].pPreserveAttachments = NULL;
  assert_rejects (R, p, INVALID, "pSubpasses[0].pPreserveAttachments",
                  "NULL with preserveAttachmentCount > 0");
  pass_fill (p);
  p->ci.subpassCount = 0;
  assert_rejects (R, p, INVALID, "subpassCount", "a render pass needs a subpass");
  pass_fill (p);
  p->ci.pSubpasses = NULL;
  assert_rejects (R, p, INVALID, "pSubpasses", "NULL");
  pass_fill (p);
  p->ci.pAttachments = NULL;
  assert_rejects (R, p, INVALID, "pAttachments", "NULL with attachmentCount > 0");
  pass_fill (p);
  p->ci.pDependencies = NULL;
  assert_rejects (R, p, INVALID, "pDependencies", "NULL with dependencyCount > 0");
  pass_fill (p);
  p->deps[1].dstSubpass = 2;
  assert_rejects (R, p, INVALID, "pDependencies[1].dstSubpass", "2 >= subpassCount 2");
  pass_fill (p);
  p->deps[0].srcSubpass = 5;
  assert_rejects (R, p, INVALID, "pDependencies[0].srcSubpass", "5 >= subpassCount 2");
  pass_fill (p);
  p->deps[1].dependencyFlags = VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT;
  assert_rejects (R, p, UNSUPPORTED, "pDependencies[1].dependencyFlags", "unsupported flags 0x%x",
                  (unsigned) VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT);
  pass_fill (p);
  pass_add_multiview (p, 1, 1, 0, 0);
  p->multiview.subpassCount = 1;
  assert_rejects (R, p, INVALID, "pNext[0].subpassCount", "1, but subpassCount is 2 (must be 0 or equal)");
  pass_fill (p);
  pass_add_multiview (p, 1, 1, 0, 0);
  p->multiview.dependencyCount = 3;
  assert_rejects (R, p, INVALID, "pNext[0].dependencyCount",
                  "3, but dependencyCount is 2 (must be 0 or equal)");
  pass_fill (p);
  pass_add_multiview (p, 1, 1, 0, 0);
  p->multiview.pViewMasks = NULL;
  assert_rejects (R, p, INVALID, "pNext[0]", "NULL array with a non-zero count");

  /* Capacities. */
  pass_fill (p);
  for (uint32_t i = 4; i <= PSC_MAX_PASS_ATTACHMENTS; i++)
    attachment (&p->attachments[i], VK_FORMAT_R8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
                VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
  p->ci.attachmentCount = PSC_MAX_PASS_ATTACHMENTS;
  g_bytes_unref (key_of (R, p));
  p->ci.attachmentCount = PSC_MAX_PASS_ATTACHMENTS + 1;
  assert_rejects (R, p, CAPACITY, "attachmentCount", "17 > 16");
  pass_fill (p);
  for (uint32_t s = 2; s <= PSC_MAX_SUBPASSES; s++)
    subpass (&p->subpasses[s], 0, NULL, 0, NULL, NULL, NULL, 0, NULL);
  p->ci.subpassCount = PSC_MAX_SUBPASSES;
  g_bytes_unref (key_of (R, p));
  p->ci.subpassCount = PSC_MAX_SUBPASSES + 1;
  assert_rejects (R, p, CAPACITY, "subpassCount", "9 > 8");
  pass_fill (p);
  for (uint32_t i = 2; i <= PSC_MAX_SUBPASS_DEPENDENCIES; i++)
    p->deps[i] = p->deps[1];
  p->ci.dependencyCount = PSC_MAX_SUBPASS_DEPENDENCIES;
  g_bytes_unref (key_of (R, p));
  p->ci.dependencyCount = PSC_MAX_SUBPASS_DEPENDENCIES + 1;
  assert_rejects (R, p, CAPACITY, "dependencyCount", "17 > 16");
  pass_fill (p);
  for (uint32_t j = 0; j <= PSC_MAX_SUBPASS_REFS; j++)
    ref (&p->colors[1][j], 3, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  p->subpasses[1].colorAttachmentCount = PSC_MAX_SUBPASS_REFS;
  g_bytes_unref (key_of (R, p));
  p->subpasses[1].colorAttachmentCount = PSC_MAX_SUBPASS_REFS + 1;
  assert_rejects (R, p, CAPACITY, "pSubpasses[1].colorAttachmentCount", "17 > 16");
  pass_fill (p);
  for (uint32_t j = 0; j <= PSC_MAX_SUBPASS_REFS; j++)
    ref (&p->inputs[1][j], 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  p->subpasses[1].inputAttachmentCount = PSC_MAX_SUBPASS_REFS + 1;
  assert_rejects (R, p, CAPACITY, "pSubpasses[1].inputAttachmentCount", "17 > 16");
  pass_fill (p);
  for (uint32_t j = 0; j <= PSC_MAX_PRESERVE_REFS; j++)
    p->preserve[0][j] = 3;
  p->subpasses[0].preserveAttachmentCount = PSC_MAX_PRESERVE_REFS + 1;
  assert_rejects (R, p, CAPACITY, "pSubpasses[0].preserveAttachmentCount", "17 > 16");
  g_free (p);
}

/* ===========================================================================
 * Setup.
 */
static void
setup_fake (void)
{
  fake = g_new0 (Fake, 1);
  fake->list_fail = PSC_STATUS_OK;
  fake->resolver = (PscResolver) {
    .ctx = fake,
    .shader = r_shader,
    .sampler = r_sampler,
    .set_layout = r_set_layout,
    .pipeline_layout = r_pipeline_layout,
    .render_pass = r_render_pass,
    .sampler_list = r_sampler_list,
    .shader_handle = r_shader_handle,
    .sampler_handle = r_sampler_handle,
    .sampler_list_ids = r_sampler_list_ids,
    .set_layout_handle = r_set_layout_handle,
    .pipeline_layout_handle = r_pipeline_layout_handle,
    .render_pass_handle = r_render_pass_handle,
  };
  /* Order matters for test_decode_unknown_id: vs first, fs second; pl first. */
  hd.vs = H (VkShaderModule, fake_register (FK_SHADER, 11, 1));
  hd.fs = H (VkShaderModule, fake_register (FK_SHADER, 12, 1));
  hd.vs_alias = H (VkShaderModule, fake_register (FK_SHADER, 11, 1));
  hd.vs_gen2 = H (VkShaderModule, fake_register (FK_SHADER, 11, 2));
  hd.fs2 = H (VkShaderModule, fake_register (FK_SHADER, 13, 1));
  hd.tcs = H (VkShaderModule, fake_register (FK_SHADER, 14, 1));
  hd.tes = H (VkShaderModule, fake_register (FK_SHADER, 15, 1));
  hd.gs = H (VkShaderModule, fake_register (FK_SHADER, 16, 1));
  hd.cs = H (VkShaderModule, fake_register (FK_SHADER, 20, 1));
  hd.cs_gen2 = H (VkShaderModule, fake_register (FK_SHADER, 20, 2));
  hd.cs2 = H (VkShaderModule, fake_register (FK_SHADER, 21, 1));
  /* What the shaders declare (the fixtures' map entries agree): the vertex
   * shader a u32 (0) and a u64 (7), exactly the fixture's entries (the fast
   * path's usual case); its generation 2 also a bool (5), which the fixture
   * does not set; the compute shader two 32-bit constants (1, 2); the
   * fragment shader and the others declare none, so any entry is accepted
   * there. */
  static const PscSpecConstant vs_spec[] = { { 0, 4 }, { 7, 8 } };
  static const PscSpecConstant vs_gen2_spec[] = { { 0, 4 }, { 5, 4 }, { 7, 8 } };
  static const PscSpecConstant cs_spec[] = { { 1, 4 }, { 2, 4 } };
  fake_set_spec (hd.vs, vs_spec, G_N_ELEMENTS (vs_spec));
  fake_set_spec (hd.vs_alias, vs_spec, G_N_ELEMENTS (vs_spec));
  fake_set_spec (hd.vs_gen2, vs_gen2_spec, G_N_ELEMENTS (vs_gen2_spec));
  fake_set_spec (hd.cs, cs_spec, G_N_ELEMENTS (cs_spec));
  fake_set_spec (hd.cs_gen2, cs_spec, G_N_ELEMENTS (cs_spec));
  for (uint32_t i = 0; i < 5; i++)
    hd.s[i] = H (VkSampler, fake_register (FK_SAMPLER, 51 + i, 0));
  hd.pl = H (VkPipelineLayout, fake_register (FK_PIPELINE_LAYOUT, 31, 0));
  hd.pl2 = H (VkPipelineLayout, fake_register (FK_PIPELINE_LAYOUT, 32, 0));
  hd.sl0 = H (VkDescriptorSetLayout, fake_register (FK_SET_LAYOUT, 41, 0));
  hd.sl1 = H (VkDescriptorSetLayout, fake_register (FK_SET_LAYOUT, 42, 0));
  hd.sl2 = H (VkDescriptorSetLayout, fake_register (FK_SET_LAYOUT, 43, 0));

  PassFx *p = fixture_new (sizeof *p, 0);
  pass_fill_simple (p);
  hd.rp_simple = fake_register_pass (61, &p->ci);
  pass_fill (p);
  hd.rp_main = fake_register_pass (62, &p->ci);
  subpass (&p->subpasses[0], 0, NULL, 0, NULL, NULL, NULL, 0, NULL);
  p->ci.subpassCount = 1;
  p->ci.dependencyCount = 0;
  hd.rp_empty = fake_register_pass (63, &p->ci);
  g_free (p);

  /* What the passes report, as the core would. */
  const FakeObject *o = fake_find (fake, FK_RENDER_PASS, (uint64_t) (uintptr_t) hd.rp_main);
  g_assert_cmpuint (o->subpass_count, ==, 2);
  g_assert_cmpuint (o->samples[0], ==, 4);
  g_assert_cmpuint (o->samples[1], ==, 1);
  o = fake_find (fake, FK_RENDER_PASS, (uint64_t) (uintptr_t) hd.rp_simple);
  g_assert_cmpuint (o->subpass_count, ==, 1);
  g_assert_cmpuint (o->samples[0], ==, 1);
  o = fake_find (fake, FK_RENDER_PASS, (uint64_t) (uintptr_t) hd.rp_empty);
  g_assert_cmpuint (o->subpass_count, ==, 1);
  g_assert_cmpuint (o->samples[0], ==, 0);
}

/* ===========================================================================
 * The graphics fast path, randomized: a create info in the fast path's shape
 * (no stencil test), then 1-4 random mutations drawn from valid, unusual and
 * invalid values of every field the fast path reads; check_fast_path (through
 * encode_kind) compares it with the complete encoder each time. The seed is
 * printed; the counts must show that all three outcomes happened often.
 */
static uint32_t fuzz_state;

static uint32_t
fuzz (uint32_t n)
{
  fuzz_state ^= fuzz_state << 13;
  fuzz_state ^= fuzz_state >> 17;
  fuzz_state ^= fuzz_state << 5;
  return fuzz_state % n;
}

#define PICK_FIRST(a, ...) a
#define PICK(...)                                                                \
  ({                                                                             \
    const __typeof__ (PICK_FIRST (__VA_ARGS__, 0)) pick_[] = { __VA_ARGS__ };    \
    pick_[fuzz (G_N_ELEMENTS (pick_))];                                          \
  })

static uint32_t
fuzz_u32 (void)
{
  return PICK (0u, 1u, 2u, 3u, 4u, 7u, 8u, 10u, 13u, 15u, 16u, 18u, 19u, 20u, 255u, 256u,
               0x7fffffffu, 1000156000u);
}

static float
fuzz_float (void)
{
  return PICK (0.0f, -0.0f, 1.0f, 1.25f, -3.5f, 0.5f, NAN, INFINITY);
}

static void
fuzz_mutate (Gfx *g)
{
  static VkBaseInStructure extra = { VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT, NULL };
  const uint32_t stages = g->ci.stageCount;
  VkPipelineShaderStageCreateInfo *st =
    &g->stages[fuzz (stages == 0 || stages > G_N_ELEMENTS (g->stages) ? 1 : stages)];
  VkPipelineColorBlendAttachmentState *a = &g->attachments[fuzz (PSC_MAX_COLOR_ATTACHMENTS)];
  VkVertexInputAttributeDescription *at = &g->attributes[fuzz (4)];
  switch (fuzz (64))
    {
    case 0: g->ci.flags = PICK (0u, 1u, 2u, 8u, 0x10u, 0x200u); break;
    case 1: g->ci.basePipelineHandle = PICK (H (VkPipeline, 0), H (VkPipeline, 0x1234)); break;
    case 2: g->ci.layout = PICK (hd.pl, hd.pl2, H (VkPipelineLayout, 0), FOREIGN (VkPipelineLayout)); break;
    case 3: g->ci.renderPass = PICK (H (VkRenderPass, 0), hd.rp_simple); break;
    case 4: gfx_set_colors (g, fuzz (PSC_MAX_COLOR_ATTACHMENTS + 1)); break;
    case 5: g->color_formats[fuzz (PSC_MAX_COLOR_ATTACHMENTS)] =
              PICK (VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16_SFLOAT,
                    VK_FORMAT_G8B8G8R8_422_UNORM, VK_FORMAT_UNDEFINED, (VkFormat) 0x7fffffff); break;
    case 6: g->rendering.depthAttachmentFormat =
              PICK (VK_FORMAT_UNDEFINED, VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT, VK_FORMAT_S8_UINT,
                    VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_R8_UNORM,
                    VK_FORMAT_X8_D24_UNORM_PACK32); break;
    case 7: g->rendering.stencilAttachmentFormat =
              PICK (VK_FORMAT_UNDEFINED, VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT,
                    VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D32_SFLOAT); break;
    case 8: g->rendering.viewMask = PICK (0u, 3u); break;
    case 9: g->rendering.pNext = fuzz (4) ? NULL : &extra; break;
    case 10: g->rendering.colorAttachmentCount = PICK (0u, 1u, 9u); break;
    case 11:
      if (g->dynamic.dynamicStateCount < 40)
        gfx_add_dynamic (g, PICK (VK_DYNAMIC_STATE_LINE_WIDTH, VK_DYNAMIC_STATE_DEPTH_BIAS,
                                  VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_DEPTH_BOUNDS,
                                  VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_CULL_MODE,
                                  VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
                                  VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
                                  VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
                                  VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
                                  VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
                                  VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
                                  VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
                                  VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
                                  VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_OP,
                                  VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
                                  VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
                                  VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
                                  VK_DYNAMIC_STATE_VIEWPORT, (VkDynamicState) 0x7fffffff));
      break;
    case 12: g->dynamic.dynamicStateCount = fuzz (3); break;
    case 13: g->ci.pDynamicState = fuzz (4) ? &g->dynamic : NULL; break;
    case 14: g->dynamic.flags = fuzz (2); break;
    case 15:
      {
        VkPipelineShaderStageCreateInfo t = g->stages[0];
        g->stages[0] = g->stages[1];
        g->stages[1] = t;
      }
      break;
    case 16:
      if (g->ci.stageCount < PSC_MAX_GRAPHICS_STAGES)
        gfx_add_stage (g, PICK (VK_SHADER_STAGE_GEOMETRY_BIT, VK_SHADER_STAGE_VERTEX_BIT,
                                VK_SHADER_STAGE_COMPUTE_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT),
                       PICK (hd.gs, hd.vs, hd.tcs));
      break;
    case 17: if (g->ci.stageCount <= 3) gfx_add_tessellation (g, fuzz (40)); break;
    case 18: st->stage = PICK (VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT,
                               VK_SHADER_STAGE_GEOMETRY_BIT, (VkShaderStageFlagBits) 3,
                               (VkShaderStageFlagBits) 0); break;
    case 19: g->ci.stageCount = PICK (0u, 1u, 6u); break;
    case 20: st->sType = PICK (VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                               VK_STRUCTURE_TYPE_APPLICATION_INFO); break;
    case 21: st->pNext = fuzz (3) ? NULL : &extra; break;
    case 22: st->flags = PICK (0u, 1u, 2u, 0x100u); break;
    case 23: st->module = PICK (hd.vs, hd.fs, hd.vs_gen2, hd.fs2, hd.vs_alias,
                                H (VkShaderModule, 0), FOREIGN (VkShaderModule)); break;
    case 24:
      {
        char *name = g->names[st - g->stages];
        switch (fuzz (7))
          {
          case 0: strcpy (name, "main"); break;
          case 1: strcpy (name, ""); break;
          case 2: strcpy (name, "vs_main_long_entry_point"); break;
          case 3: memset (name, 'x', 63); name[63] = '\0'; break;
          /* Near misses of the fast path's "main" match. */
          case 4: strcpy (name, fuzz (2) ? "main2" : "mai"); break;
          case 5: strcpy (name, fuzz (2) ? "maim" : "Main"); break;
          default: memset (name, 'y', 64); name[64] = '\0'; break;
          }
        st->pName = fuzz (16) ? name : NULL;
      }
      break;
    case 25: case 26: case 27:
      {
        const uint32_t i = (uint32_t) (st - g->stages);
        VkSpecializationMapEntry *e = &g->map[i][fuzz (PSC_MAX_SPEC_CONSTANTS)];
        switch (fuzz (8))
          {
          case 0: e->constantID = fuzz (10); break;
          /* An ID the vertex shader declares (u32 0, bool 5, u64 7), at a
           * size that may or may not be its own. */
          case 6: case 7:
            e = &g->map[0][fuzz (2)];   /* an entry of the vertex stage in use */
            e->constantID = PICK (0u, 5u, 7u);
            e->size = PICK ((size_t) 1, (size_t) 4, (size_t) 8);
            break;
          case 1: e->size = PICK ((size_t) 0, (size_t) 1, (size_t) 4, (size_t) 8, (size_t) 64,
                                  (size_t) 65); break;
          case 2: e->offset = PICK (0u, 4u, 8u, 60u, 1020u, 2000u); break;
          case 3: g->spec[i].mapEntryCount = fuzz (PSC_MAX_SPEC_CONSTANTS + 2); break;
          case 4: g->spec[i].dataSize = PICK ((size_t) 0, (size_t) 12, (size_t) 64,
                                              (size_t) GFX_SPEC_BYTES); break;
          default:
            if (fuzz (2))
              g->spec[i].pData = fuzz (4) ? g->spec_data[i] : NULL;
            else
              g->spec[i].pMapEntries = fuzz (4) ? g->map[i] : NULL;
            break;
          }
        st->pSpecializationInfo = fuzz (8) ? &g->spec[i] : NULL;
      }
      break;
    case 28: g->raster.depthClampEnable = fuzz (2); break;
    case 29: g->raster.rasterizerDiscardEnable = fuzz (2); break;
    case 30: g->raster.polygonMode = (VkPolygonMode) fuzz (4); break;
    case 31: g->raster.cullMode = fuzz (5); break;
    case 32: g->raster.frontFace = (VkFrontFace) fuzz (3); break;
    case 33: g->raster.depthBiasEnable = fuzz (2); break;
    case 34:
      switch (fuzz (3))
        {
        case 0: g->raster.depthBiasConstantFactor = fuzz_float (); break;
        case 1: g->raster.depthBiasClamp = fuzz_float (); break;
        default: g->raster.depthBiasSlopeFactor = fuzz_float (); break;
        }
      break;
    case 35: g->raster.lineWidth = fuzz_float (); break;
    case 36: g->raster.flags = fuzz (2); g->raster.pNext = fuzz (3) ? NULL : &extra; break;
    case 37: g->input_assembly.topology = (VkPrimitiveTopology) fuzz (12); break;
    case 38: g->input_assembly.primitiveRestartEnable = fuzz (2); break;
    case 39: g->viewport.viewportCount = PICK (0u, 1u, 2u, 16u, 17u); break;
    case 40: g->viewport.scissorCount = PICK (0u, 1u, 3u, 16u, 17u); break;
    case 41: g->multisample.rasterizationSamples = PICK (1u, 2u, 3u, 4u, 8u, 64u, 128u, 0u); break;
    case 42: g->multisample.sampleShadingEnable = fuzz (2);
             g->multisample.minSampleShading = fuzz_float (); break;
    case 43:
      g->sample_mask[0] = fuzz (2) ? 0x5u : 0xffffffffu;
      g->sample_mask[1] = 0x3u;
      g->multisample.pSampleMask = fuzz (2) ? g->sample_mask : NULL;
      break;
    case 44: g->multisample.alphaToCoverageEnable = fuzz (2);
             g->multisample.alphaToOneEnable = fuzz (2); break;
    case 45: g->depth_stencil.depthTestEnable = fuzz (2);
             g->depth_stencil.depthWriteEnable = fuzz (2); break;
    case 46: g->depth_stencil.depthCompareOp = (VkCompareOp) fuzz (9); break;
    case 47: g->depth_stencil.depthBoundsTestEnable = fuzz (2);
             g->depth_stencil.minDepthBounds = fuzz_float (); break;
    case 48: g->depth_stencil.stencilTestEnable = fuzz (4) == 0; break;
    case 49: g->ci.pDepthStencilState = fuzz (6) ? &g->depth_stencil : NULL; break;
    case 50: g->blend.logicOpEnable = fuzz (4) == 0; g->blend.logicOp = (VkLogicOp) fuzz (17); break;
    case 51: g->blend.attachmentCount = fuzz (PSC_MAX_COLOR_ATTACHMENTS + 2); break;
    case 52: a->blendEnable = fuzz (2); break;
    case 53:
      switch (fuzz (4))
        {
        case 0: a->srcColorBlendFactor = (VkBlendFactor) fuzz (21); break;
        case 1: a->dstColorBlendFactor = (VkBlendFactor) fuzz (21); break;
        case 2: a->srcAlphaBlendFactor = (VkBlendFactor) fuzz (21); break;
        default: a->dstAlphaBlendFactor = (VkBlendFactor) fuzz (21); break;
        }
      break;
    case 54: a->colorBlendOp = (VkBlendOp) fuzz (6); a->alphaBlendOp = (VkBlendOp) fuzz (6); break;
    case 55: a->colorWriteMask = fuzz (17); break;
    case 56: g->blend.blendConstants[fuzz (4)] = fuzz_float (); break;
    case 57: g->ci.pColorBlendState = fuzz (6) ? &g->blend : NULL; break;
    case 58: g->vertex_input.vertexBindingDescriptionCount = PICK (0u, 1u, 2u, 17u);
             g->vertex_input.vertexAttributeDescriptionCount = PICK (0u, 1u, 3u, 4u, 33u); break;
    case 59:
      {
        VkVertexInputBindingDescription *b = &g->bindings[fuzz (2)];
        switch (fuzz (3))
          {
          case 0: b->binding = PICK (0u, 1u, 5u, 70000u); break;
          case 1: b->inputRate = (VkVertexInputRate) fuzz (3); break;
          default: b->stride = fuzz_u32 (); break;
          }
      }
      break;
    case 60: at->location = PICK (0u, 1u, 2u, 3u, 9u, 300u); break;
    case 61: at->binding = PICK (0u, 1u, 300u); at->offset = fuzz_u32 (); break;
    case 62: at->format = PICK (VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM,
                                VK_FORMAT_G8B8G8R8_422_UNORM, (VkFormat) 0x7fffffff); break;
    default:
      if (fuzz (2))
        g->vertex_input.pVertexBindingDescriptions = fuzz (4) ? g->bindings : NULL;
      else
        g->vertex_input.pVertexAttributeDescriptions = fuzz (4) ? g->attributes : NULL;
      break;
    }
}

static void
test_graphics_fast_path_random (void)
{
  fuzz_state = g_test_rand_int () | 1u;
  g_test_message ("fast-path fuzz seed %u", fuzz_state);
  memset (&fast_counts, 0, sizeof fast_counts);
  const unsigned rounds = 6000;
  unsigned size_mismatches = 0;
  /* The fast path resolves through a memo here (as in the core); the fakes
   * do not change during this test, so one epoch stays valid, and the
   * complete encoder (callbacks only) is the reference. */
  static uint32_t memo_epoch = 1;
  static PscResolverMemo memo;
  memset (&memo, 0, sizeof memo);
  memo.epoch = &memo_epoch;
  PscResolver with_memo = fake->resolver;
  with_memo.memo = &memo;
  for (unsigned i = 0; i < rounds; i++)
    {
      g_autofree Gfx *g = gfx_new (PSC_RENDERING_DYNAMIC);
      g->depth_stencil.stencilTestEnable = VK_FALSE;
      if (i == 0)
        {
          /* The base shape itself is accepted, and agrees. */
          uint8_t buf[PSC_MAX_KEY_BYTES];
          PscKeyWriter w = { buf, 0, sizeof buf };
          g_assert_cmpint (psc_encode_graphics_fast (&g->ci, PSC_RENDERING_DYNAMIC,
                                                     &with_memo, &w), ==, PSC_STATUS_OK);
        }
      else
        for (uint32_t m = 1 + fuzz (4); m > 0; m--)
          fuzz_mutate (g);
      uint8_t buf[PSC_MAX_KEY_BYTES];
      PscKeyWriter w = { buf, 0, sizeof buf };
      PscCoreError err = { .status = PSC_STATUS_OK };
      encode_kind (KD, &g->ci, &with_memo, &w, (i & 1) ? &err : NULL);
      if (!(i & 1))
        {
          w.len = 0;
          psc_encode_graphics_full (&g->ci, PSC_RENDERING_DYNAMIC, &fake->resolver, &w, &err);
        }
      if (err.status == PSC_STATUS_INVALID_ARGUMENT
          && strstr (err.message, "-byte specialization constant") != NULL)
        size_mismatches++;
      /* The same create info with little room left in the writer. */
      if (i % 16 == 0)
        {
          PscKeyWriter small = { buf, 0, 64 };
          encode_kind (KD, &g->ci, &with_memo, &small, &err);
        }
    }
  g_test_message ("fast path: %u accepted, %u declined; %u map entries of the wrong size "
                  "for a declared constant", fast_counts.accepted, fast_counts.declined,
                  size_mismatches);
  g_assert_cmpuint (size_mismatches, >=, 10);
  g_assert_cmpuint (fast_counts.accepted, >=, rounds / 5);
  g_assert_cmpuint (fast_counts.declined, >=, rounds / 5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  setup_fake ();

  for (unsigned i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      static const struct {
        const char *name;
        GTestDataFunc fn;
      } generic[] = {
        { "determinism", test_determinism },
        { "reused-buffers", test_reused_buffers },
        { "padding-memset", test_padding_runtime },
        { "padding-stack", test_padding_stack },
        { "key-buffer-full", test_key_buffer_full },
        { "round-trip", test_round_trip_kinds },
        { "decode-malformed", test_decode_malformed },
      };
      for (unsigned j = 0; j < G_N_ELEMENTS (generic); j++)
        {
          char *path = g_strdup_printf ("/encode/%s/%s", generic[j].name, kinds[i].name);
          g_test_add_data_func (path, &kinds[i], generic[j].fn);
          g_free (path);
        }
    }
  g_test_add_func ("/encode/graphics/no-alias", test_graphics_no_alias);
  g_test_add_func ("/encode/graphics/fast-path-random", test_graphics_fast_path_random);
  g_test_add_func ("/encode/graphics/legacy-blend-count", test_graphics_legacy_blend_count);
  g_test_add_func ("/encode/graphics/legacy-no-alias", test_graphics_legacy_no_alias);
  g_test_add_func ("/encode/graphics/round-trip-variants", test_round_trip_graphics_variants);
  g_test_add_func ("/encode/graphics/decode-contents", test_decode_contents);
  g_test_add_func ("/encode/graphics/decode-unknown-id", test_decode_unknown_id);
  g_test_add_func ("/encode/graphics/spec-canonical", test_spec_canonical);
  g_test_add_func ("/encode/graphics/spec-limits", test_spec_limits);
  g_test_add_func ("/encode/spec-declared", test_spec_declared);
  g_test_add_func ("/encode/graphics/dynamic-widens", test_dynamic_widens);
  g_test_add_func ("/encode/graphics/dynamic-normalizes", test_dynamic_normalizes);
  g_test_add_func ("/encode/graphics/static-normalizes", test_static_normalizes);
  g_test_add_func ("/encode/graphics/line-width", test_line_width);
  g_test_add_func ("/encode/graphics/reject-top", test_reject_graphics_top);
  g_test_add_func ("/encode/graphics/reject-states", test_reject_graphics_states);
  g_test_add_func ("/encode/graphics/reject-values", test_reject_graphics_values);
  g_test_add_func ("/encode/graphics/identity", test_identity);
  g_test_add_func ("/encode/compute", test_compute);
  g_test_add_func ("/encode/sampler", test_sampler);
  g_test_add_func ("/encode/set-layout", test_set_layout);
  g_test_add_func ("/encode/pipeline-layout", test_pipeline_layout);
  g_test_add_func ("/encode/render-pass/normalization", test_render_pass_normalization);
  g_test_add_func ("/encode/render-pass/decode", test_render_pass_decode);
  g_test_add_func ("/encode/render-pass/subpass-samples", test_render_pass_subpass_samples);
  g_test_add_func ("/encode/render-pass/reject", test_render_pass_reject);

  int rc = g_test_run ();
  g_free (fake);
  return rc;
}
