/* shaders.c: the scene's SPIR-V, compiled from demo/shaders/ at build time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scene.h"

#include "vs_mesh_pnu.spv.h"
#include "vs_mesh_pc.spv.h"
#include "vs_panel.spv.h"
#include "fs_lit.spv.h"
#include "fs_lit_hdr.spv.h"
#include "fs_textured.spv.h"
#include "fs_color.spv.h"
#include "fs_color_alpha.spv.h"
#include "fs_composite.spv.h"
#include "cs_palette.spv.h"
#include "fs_lit_tinted.spv.h"
#include "fs_fallback.spv.h"

static const struct {
  const char *name;
  const guint32 *words;
  gsize size;
} shaders[PSC_DEMO_SHADER_COUNT] = {
#define SHADER(id, name) \
  [id] = { #name, psc_demo_spirv_##name, sizeof (psc_demo_spirv_##name) }
  SHADER (PSC_DEMO_SHADER_VS_MESH_PNU, vs_mesh_pnu),
  SHADER (PSC_DEMO_SHADER_VS_MESH_PC, vs_mesh_pc),
  SHADER (PSC_DEMO_SHADER_VS_PANEL, vs_panel),
  SHADER (PSC_DEMO_SHADER_FS_LIT, fs_lit),
  SHADER (PSC_DEMO_SHADER_FS_LIT_HDR, fs_lit_hdr),
  SHADER (PSC_DEMO_SHADER_FS_TEXTURED, fs_textured),
  SHADER (PSC_DEMO_SHADER_FS_COLOR, fs_color),
  SHADER (PSC_DEMO_SHADER_FS_COLOR_ALPHA, fs_color_alpha),
  SHADER (PSC_DEMO_SHADER_FS_COMPOSITE, fs_composite),
  SHADER (PSC_DEMO_SHADER_CS_PALETTE, cs_palette),
#undef SHADER
};

const guint32 *
psc_demo_shader_spirv (PscDemoShader shader, gsize *size)
{
  g_return_val_if_fail (shader < PSC_DEMO_SHADER_COUNT, NULL);
  if (size != NULL)
    *size = shaders[shader].size;
  return shaders[shader].words;
}

const char *
psc_demo_shader_name (PscDemoShader shader)
{
  g_return_val_if_fail (shader < PSC_DEMO_SHADER_COUNT, NULL);
  return shaders[shader].name;
}

static const struct {
  const char *name;
  const guint32 *words;
  gsize size;
} extra_shaders[PSC_DEMO_EXTRA_SHADER_COUNT] = {
#define SHADER(id, name) \
  [id] = { #name, psc_demo_spirv_##name, sizeof (psc_demo_spirv_##name) }
  SHADER (PSC_DEMO_EXTRA_SHADER_FS_LIT_TINTED, fs_lit_tinted),
  SHADER (PSC_DEMO_EXTRA_SHADER_FS_FALLBACK, fs_fallback),
#undef SHADER
};

const guint32 *
psc_demo_extra_shader_spirv (PscDemoExtraShader shader, gsize *size)
{
  g_return_val_if_fail (shader < PSC_DEMO_EXTRA_SHADER_COUNT, NULL);
  if (size != NULL)
    *size = extra_shaders[shader].size;
  return extra_shaders[shader].words;
}

const char *
psc_demo_extra_shader_name (PscDemoExtraShader shader)
{
  g_return_val_if_fail (shader < PSC_DEMO_EXTRA_SHADER_COUNT, NULL);
  return extra_shaders[shader].name;
}
