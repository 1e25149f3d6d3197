/* scene-materials.c: the demo scene's material catalog and the resolution
 * of (template, variant key, pass) into pipeline state (see
 * scene-materials.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scene-materials.h"

#include <string.h>

struct _PscDemoMaterials {
  PscDevice *device;
  GPtrArray *templates;         /* PscMaterialTemplate, owned */
  GArray *shapes;               /* PscDemoMaterialShape, parallel to templates */
  GPtrArray *instances;         /* PscMaterialInstance, owned */
};

static const PscDemoPassDesc pass_descs[N_CONTEXTS] = {
  [CONTEXT_B] = { "B (RGBA16F + D32)", PASS_B, PSC_PASS_KIND_COLOR, FALSE },
  [CONTEXT_C] = { "C (RGBA8 4x MSAA + D32)", PASS_C, PSC_PASS_KIND_COLOR, FALSE },
  [CONTEXT_PRE] = { "depth prepass", PASS_PRE, PSC_PASS_KIND_DEPTH_PREPASS, FALSE },
  [CONTEXT_PRE_BIASED] = { "depth prepass, biased", PASS_PRE, PSC_PASS_KIND_DEPTH_PREPASS, TRUE },
  [CONTEXT_A] = { "A (RGBA8 + D32)", PASS_A, PSC_PASS_KIND_COLOR, FALSE },
};

const PscDemoPassDesc *
psc_demo_pass_desc (int context)
{
  g_return_val_if_fail (context >= 0 && context < N_CONTEXTS, NULL);
  return &pass_descs[context];
}

PscDemoMaterials *
psc_demo_materials_new (PscDevice *device)
{
  PscDemoMaterials *m = g_new0 (PscDemoMaterials, 1);

  m->device = g_object_ref (device);
  m->templates = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_material_template_unref);
  m->shapes = g_array_new (FALSE, TRUE, sizeof (PscDemoMaterialShape));
  m->instances = g_ptr_array_new_with_free_func ((GDestroyNotify) psc_material_instance_unref);
  return m;
}

void
psc_demo_materials_free (PscDemoMaterials *m)
{
  if (m == NULL)
    return;
  g_ptr_array_unref (m->instances);
  g_array_unref (m->shapes);
  g_ptr_array_unref (m->templates);
  g_object_unref (m->device);
  g_free (m);
}

static gboolean
shape_equal (const PscDemoMaterialShape *a, const PscDemoMaterialShape *b)
{
  if (a->vs != b->vs || a->fs != b->fs || a->n_spec != b->n_spec || a->composite != b->composite)
    return FALSE;
  for (guint i = 0; i < a->n_spec; i++)
    if (a->spec[i] != b->spec[i])
      return FALSE;
  return TRUE;
}

/* "vs+fs/spec0/spec1", or "vs" for a depth-only template: stable across
 * runs, so its variant keys are too. */
static char *
shape_base_name (const PscDemoMaterialShape *shape)
{
  GString *name = g_string_new (psc_demo_shader_name (shape->vs));

  if (shape->fs != PSC_DEMO_SHADER_COUNT)
    g_string_append_printf (name, "+%s", psc_demo_shader_name (shape->fs));
  for (guint i = 0; i < shape->n_spec; i++)
    g_string_append_printf (name, "/%d", shape->spec[i]);
  return g_string_free (name, FALSE);
}

PscMaterialTemplate *
psc_demo_materials_template (PscDemoMaterials *m, const PscDemoMaterialShape *shape,
                             GError **error)
{
  g_autofree char *name = NULL;
  PscMaterialTemplate *tmpl;

  for (guint i = 0; i < m->shapes->len; i++)
    if (shape_equal (&g_array_index (m->shapes, PscDemoMaterialShape, i), shape))
      return g_ptr_array_index (m->templates, i);

  name = shape_base_name (shape);
  tmpl = psc_material_template_new (name, PSC_MATERIAL_FLAGS_DOUBLE_SIDED,
                                    PSC_DEMO_MATERIAL_BLOCK_SIZE, error);
  if (tmpl == NULL)
    return NULL;
  g_ptr_array_add (m->templates, tmpl);
  g_array_append_val (m->shapes, *shape);
  return tmpl;
}

int
psc_demo_materials_add_instance (PscDemoMaterials *m, PscMaterialTemplate *tmpl,
                                 PscMaterialFlags flags, const float rect[4],
                                 const float params[4], GError **error)
{
  float block[8];
  g_autoptr(GBytes) bytes = NULL;
  PscMaterialInstance *instance;

  G_STATIC_ASSERT (sizeof block == PSC_DEMO_MATERIAL_BLOCK_SIZE);
  memcpy (block, rect, 4 * sizeof (float));
  memcpy (block + 4, params, 4 * sizeof (float));
  bytes = g_bytes_new (block, sizeof block);
  instance = psc_material_instance_new_inline (tmpl, m->device, flags, bytes, error);
  if (instance == NULL)
    return -1;
  g_ptr_array_add (m->instances, instance);
  return (int) m->instances->len - 1;
}

PscMaterialInstance *
psc_demo_materials_get_instance (PscDemoMaterials *m, guint index)
{
  g_return_val_if_fail (index < m->instances->len, NULL);
  return g_ptr_array_index (m->instances, index);
}

guint
psc_demo_materials_get_n_instances (PscDemoMaterials *m)
{
  return m->instances->len;
}

guint
psc_demo_materials_get_n_templates (PscDemoMaterials *m)
{
  return m->templates->len;
}

const PscDemoMaterialShape *
psc_demo_materials_shape (PscDemoMaterials *m, const PscMaterialTemplate *tmpl)
{
  for (guint i = 0; i < m->templates->len; i++)
    if (g_ptr_array_index (m->templates, i) == tmpl)
      return &g_array_index (m->shapes, PscDemoMaterialShape, i);
  return NULL;
}

void
psc_demo_material_resolve (const PscDemoMaterialShape *shape,
                           const PscShaderVariantKey *key,
                           const PscDemoPassDesc *pass,
                           PscDemoPipelineState *out)
{
  gboolean depth_only = pass->kind != PSC_PASS_KIND_COLOR;

  memset (out, 0, sizeof *out);
  out->pass = pass->pass;
  out->vs = shape->vs;
  out->vertex_layout = shape->vs == PSC_DEMO_SHADER_VS_MESH_PNU ? VERTEX_PNU
                     : shape->vs == PSC_DEMO_SHADER_VS_MESH_PC ? VERTEX_PC : VERTEX_NONE;
  out->cull = (key->flags & PSC_MATERIAL_FLAGS_DOUBLE_SIDED) != 0 ? VK_CULL_MODE_NONE
                                                                  : VK_CULL_MODE_BACK_BIT;
  out->dynamic_depth_bias = pass->depth_bias;
  if (depth_only)
    {
      /* No AlphaTest template: the depth pass needs no fragment stage. */
      out->fs = PSC_DEMO_SHADER_COUNT;
      out->pipeline_layout = LAYOUT_DEPTH;
      out->depth_test = TRUE;
      out->depth_write = TRUE;
      return;
    }
  out->fs = shape->fs;
  out->n_spec = shape->n_spec;
  memcpy (out->spec, shape->spec, sizeof out->spec);
  out->pipeline_layout = shape->composite ? LAYOUT_COMPOSITE : LAYOUT_MESH;
  out->blend = shape->fs == PSC_DEMO_SHADER_FS_COLOR_ALPHA;
  out->depth_test = !shape->composite;
  out->depth_write = !shape->composite && !out->blend;
}
