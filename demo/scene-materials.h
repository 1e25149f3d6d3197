/* scene-materials.h: the demo scene's materials (internal to psc_demo_scene).
 *
 * The scene draws through libpsocache's material layer, the way an engine
 * would:
 *
 *   - a PscMaterialTemplate per shader permutation the scene draws (a
 *     shader pair and its specialization constants: "vs_mesh_pnu+fs_lit/2/3"
 *     is fs_lit with material variant 2 and 3 lights), supporting
 *     DoubleSided, with a 32-byte parameter block (rect, params: the
 *     shaders' push constants);
 *   - a PscMaterialInstance per draw: DoubleSided or not, and its inline
 *     parameter block;
 *   - a PscPassContext per pass the scene draws with (B, C, A, the depth
 *     prepass, and the depth prepass with a dynamic depth bias), whose
 *     provider (scene.c) builds the create info of (template, variant key)
 *     for its pass.
 *
 * What belongs to whom: the template fixes the shaders, the vertex layout
 * and specialization, and whether it is translucent (fs_color_alpha: blended,
 * no depth write) or a composite panel (its own layout, no depth test); the
 * variant key's DoubleSided turns culling off; the pass fixes the targets,
 * samples, the depth-only state (no fragment stage, the depth layout) and
 * the depth bias. psc_demo_material_resolve() is the one place that combines
 * them, for the provider and for the draw.
 *
 * The templates do not support AlphaTest: the scene has no alpha-tested
 * shader, so a depth context never needs a fragment stage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "scene.h"

G_BEGIN_DECLS

enum { PASS_B, PASS_C, PASS_PRE, PASS_A, N_PASSES };
enum { VERTEX_PNU, VERTEX_PC, VERTEX_NONE };
enum { LAYOUT_MESH, LAYOUT_DEPTH, LAYOUT_COMPOSITE, LAYOUT_COMPUTE, N_PIPELINE_LAYOUTS };

/* The pass contexts: the colour passes, the depth prepass, and the depth
 * prepass with a dynamic depth bias (both draw into PASS_PRE). */
enum { CONTEXT_B, CONTEXT_C, CONTEXT_PRE, CONTEXT_PRE_BIASED, CONTEXT_A, N_CONTEXTS };

/* The demo's material parameter block: vec4 rect, vec4 params (see
 * mesh-vert.glsl), pushed as push constants. */
#define PSC_DEMO_MATERIAL_BLOCK_SIZE 32

/* What a template stands for. */
typedef struct {
  PscDemoShader vs;
  PscDemoShader fs;             /* PSC_DEMO_SHADER_COUNT: depth only */
  guint n_spec;                 /* the fragment stage's specialization */
  gint32 spec[2];
  gboolean composite;           /* a composite panel (LAYOUT_COMPOSITE) */
} PscDemoMaterialShape;

/* What a pass context stands for. */
typedef struct {
  const char *name;
  int pass;                     /* PASS_* */
  PscPassKind kind;
  gboolean depth_bias;          /* a dynamic depth bias */
} PscDemoPassDesc;

/* The pipeline state the scene builds a create info from (fallbacks fill
 * one themselves; every draw's comes from psc_demo_material_resolve). */
typedef struct {
  int pass;
  PscDemoShader vs;
  int fs;                       /* a PscDemoShader, PSC_DEMO_SHADER_COUNT (no
                                 * fragment stage) or the scene's fallback slot */
  int vertex_layout;
  int pipeline_layout;
  gboolean blend;
  guint n_spec;
  gint32 spec[2];
  VkCullModeFlags cull;
  gboolean dynamic_depth_bias;
  gboolean depth_test;
  gboolean depth_write;
} PscDemoPipelineState;

const PscDemoPassDesc *psc_demo_pass_desc (int context);

typedef struct _PscDemoMaterials PscDemoMaterials;

PscDemoMaterials *psc_demo_materials_new (PscDevice *device);
void psc_demo_materials_free (PscDemoMaterials *m);
/* The template of @shape, created on first use (borrowed: the catalog
 * holds it). */
PscMaterialTemplate *psc_demo_materials_template (PscDemoMaterials *m,
                                                  const PscDemoMaterialShape *shape,
                                                  GError **error);
/* A new instance of @tmpl with @flags and the parameter block (rect,
 * params); returns its index (the draw's material index), or -1 with
 * @error set. */
int psc_demo_materials_add_instance (PscDemoMaterials *m, PscMaterialTemplate *tmpl,
                                     PscMaterialFlags flags, const float rect[4],
                                     const float params[4], GError **error);
PscMaterialInstance *psc_demo_materials_get_instance (PscDemoMaterials *m, guint index);
guint psc_demo_materials_get_n_instances (PscDemoMaterials *m);
guint psc_demo_materials_get_n_templates (PscDemoMaterials *m);
/* The shape a template of this catalog stands for; NULL for another. */
const PscDemoMaterialShape *psc_demo_materials_shape (PscDemoMaterials *m,
                                                      const PscMaterialTemplate *tmpl);

/* The pipeline state of (@shape, @key) in @pass. */
void psc_demo_material_resolve (const PscDemoMaterialShape *shape,
                                const PscShaderVariantKey *key,
                                const PscDemoPassDesc *pass,
                                PscDemoPipelineState *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PscDemoMaterials, psc_demo_materials_free)

G_END_DECLS
