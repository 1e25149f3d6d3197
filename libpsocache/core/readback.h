/* readback.h: what a cache-issued object was made from, read back from
 * its canonical key, and look-ups that find an object without making one.
 * Internal to the core; the GObject layer turns a pipeline back into a
 * PscRecipe with these (psc-cache-recipe-export.c).
 *
 * Read back. A key decodes (keys.h) into the create info the object was
 * made from, with this core's resolver: the handles in it are this core's
 * objects (a pipeline's modules, layout and pass; a pipeline layout's set
 * layouts; a set layout's immutable samplers), which read back in turn. A
 * shader reads back as its SPIR-V (the shader store is keyed by the code).
 * What a key normalized (docs/architecture.md, "Identity and keys") reads
 * back normalized: the create info is the canonical one of its key, not
 * the one the application gave.
 *
 * Find. psc_core_find_object and psc_core_find_shader answer the handle an
 * existing object of a create info (or a registered shader of a SPIR-V)
 * has, and create nothing, count nothing, register nothing: a check that a
 * description names exactly the objects a pipeline uses.
 * psc_core_pipeline_key_of encodes a graphics or compute create info as a
 * request would, without requesting it.
 *
 * Owner thread only (each call checks it). In pass-through mode nothing is
 * kept, so nothing reads back (PSC_STATUS_UNSUPPORTED).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* A create info read back: kind's Vk*CreateInfo at ci, pointing into
 * build (and naming this core's objects). Valid until psc_readback_clear
 * (and while the objects it names live: samplers, layouts and passes live
 * as long as the core, shader modules while registered). */
typedef struct {
  PscKind kind;
  const void *ci;
  void *build;
} PscReadback;

PSC_INTERNAL void psc_readback_clear (PscReadback *rb);

/* The create info of a cache-issued sampler, set layout, pipeline layout
 * or compatibility render pass (kind). PSC_STATUS_FOREIGN_HANDLE (path
 * "handle") when this core did not issue handle as an object of that kind
 * (or it was destroyed); PSC_STATUS_INVALID_ARGUMENT for another kind. *out
 * is cleared in any case. */
PSC_INTERNAL PscStatus psc_core_read_object (PscCore *core, PscKind kind, uint64_t handle,
                                             PscReadback *out, PscCoreError *err);

/* The create info of a Ready graphics or compute pipeline of this core
 * (out->kind says which). Fails, path "pipeline":
 * PSC_STATUS_FOREIGN_HANDLE when pipeline is not a Ready pipeline of this
 * core, or when a shader it uses was released (registering the same
 * SPIR-V again makes it readable again); PSC_STATUS_INVALID_ARGUMENT when a
 * shader it uses was hot-reloaded since it was made (its shader entry
 * holds the new code, so no create info of the pipeline exists any more).
 * *out is cleared in any case. */
PSC_INTERNAL PscStatus psc_core_read_pipeline (PscCore *core, VkPipeline pipeline,
                                               PscReadback *out, PscCoreError *err);

/* The SPIR-V a registered (Ready) shader module of this core has: *code
 * and *size point into the shader store, valid while it stays registered.
 * PSC_STATUS_FOREIGN_HANDLE (path "module") otherwise. */
PSC_INTERNAL PscStatus psc_core_read_shader (PscCore *core, VkShaderModule module,
                                             const uint32_t **code, size_t *size,
                                             PscCoreError *err);

/* The handle of the existing object (kind: sampler, set layout, pipeline
 * layout or render pass) whose canonical key ci has, or 0 in *handle when
 * there is none; nothing is created or counted (a set layout's immutable
 * samplers are looked up as a list that exists, never made). Fails as the
 * kind's encoder does (a create info it refuses, a foreign handle in it). */
PSC_INTERNAL PscStatus psc_core_find_object (PscCore *core, PscKind kind, const void *ci,
                                             uint64_t *handle, PscCoreError *err);

/* The module of the shader registered (Ready) with exactly this SPIR-V,
 * or VK_NULL_HANDLE; nothing is registered. */
PSC_INTERNAL VkShaderModule psc_core_find_shader (PscCore *core, const uint32_t *code,
                                                  size_t size);

/* The canonical key of a graphics (kind PSC_KIND_GRAPHICS, ci a
 * VkGraphicsPipelineCreateInfo) or compute create info in this core,
 * checked by its encoder exactly as a request is: written to key (room for
 * PSC_MAX_KEY_BYTES), its length in *len. Nothing is requested, created or
 * counted. */
PSC_INTERNAL PscStatus psc_core_pipeline_key_of (PscCore *core, PscKind kind, const void *ci,
                                                 uint8_t *key, size_t *len, PscCoreError *err);
