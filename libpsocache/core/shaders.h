/* shaders.h: shader modules registered by SPIR-V (DESIGN decision 2), and
 * the lifetime of their VkShaderModule objects. Internal to the core.
 *
 * A shader's identity is its content: the key is the SPIR-V itself,
 * compared in full, plus a hot-reload generation. Registering the same code
 * again returns the same module and takes a reference. At the last release
 * the module is destroyed (once no compile job uses it) and the handle
 * stops resolving, but the identity (id, generation, content) stays while
 * pipelines made from it are cached (state Released): registering the same
 * code again then revives it, with a new module, the same id and
 * generation, so those pipelines hit again. The identity dies with the last
 * such pipeline (retire.c retires pipelines nobody can reach any more).
 *
 * Owner thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core-private.h"

/* The live (Ready or Released) shader entry an id names, or NULL. */
PSC_INTERNAL PscEntry *psc_shader_for_id (const PscCore *core, uint32_t id);
/* True if id names a registered (Ready) shader at this generation. */
PSC_INTERNAL bool psc_shader_current (const PscCore *core, uint32_t id, uint32_t generation);
/* True if every shader a pipeline entry names is registered (Ready). */
PSC_INTERNAL bool psc_shaders_registered (const PscCore *core, const PscEntry *pipeline);
/* True if a pipeline entry is not stale and every shader it names is still
 * at the generation its key names (Ready or Released): no hot reload
 * replaced the code it was made from. */
PSC_INTERNAL bool psc_shaders_current (const PscCore *core, const PscEntry *pipeline);

/* A pipeline entry names its shaders while it lives (any state). */
PSC_INTERNAL void psc_shaders_add_pipeline (PscCore *core, const PscEntry *pipeline);
/* ... and no longer: a Released shader that no pipeline names dies. */
PSC_INTERNAL void psc_shaders_remove_pipeline (PscCore *core, const PscEntry *pipeline);

/* Compile jobs pin the modules their create info names. */
PSC_INTERNAL void psc_shaders_pin (PscCore *core, VkShaderModule module);
PSC_INTERNAL void psc_shaders_unpin (PscCore *core, VkShaderModule module);

/* Room for n more modules to doom: the operations that doom one reserve
 * first, so they never fail half-way. False if out of memory. */
PSC_INTERNAL bool psc_shaders_reserve_doomed (PscCore *core, uint32_t n);
/* A module stops being its shader's current one (hot reload): its handle
 * keeps naming the shader until the next pump, and it is destroyed once no
 * job uses it. */
PSC_INTERNAL void psc_shaders_doom (PscCore *core, uint32_t shader, VkShaderModule module);
/* The pump's part: unmaps the handles of modules doomed since the last
 * pump and destroys the modules no job uses. */
PSC_INTERNAL void psc_shaders_sweep (PscCore *core);
/* At close (workers stopped): destroys every module, doomed or current,
 * and frees what shader entries own. */
PSC_INTERNAL void psc_shaders_destroy_all (PscCore *core);

/* Reads untrusted SPIR-V (spirv.h): on success *spec (malloc'd, sorted,
 * NULL when none) holds its specialization constants; on failure the
 * rejection is counted and err says why. reload.c uses it too. */
PSC_INTERNAL PscStatus psc_shaders_read_code (PscCore *core, const uint32_t *code, size_t size,
                                              PscSpecConstant **spec, uint32_t *spec_count,
                                              PscCoreError *err);
/* Creates a module for code, counted and timed as a shader creation. */
PSC_INTERNAL PscStatus psc_shaders_create_module (PscCore *core, const uint32_t *code, size_t size,
                                                  VkShaderModule *module, PscCoreError *err);
