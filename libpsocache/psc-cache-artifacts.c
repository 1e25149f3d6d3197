/* psc-cache-artifacts.c: PscCache's persistent layer 2, SPIR-V artifacts
 * keyed by exact source (seed 003 #70): psc_cache_register_shader_source,
 * and the store's opening, saving and counters (the store itself is
 * psc-artifacts.c, the record format core/formats/artifact-record.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-private.h"

#include "psc-artifacts.h"
#include "psc-persist.h"

#include <string.h>
#include <glib/gi18n-lib.h>

static void
count_rejection (gpointer      ctx,
                 PscFileReason reason)
{
  psc_persist_count_rejection (ctx, reason);
}

void
psc_cache_artifacts_open (PscCache *self)
{
  if (self->persist == NULL || self->core == NULL)
    return;
  self->artifacts = psc_artifacts_new (psc_persist_directory (self->persist), count_rejection,
                                       self->persist);
  psc_artifacts_set_write_failure (self->artifacts, self->hooks.persist_write_error);
  psc_persist_count (self->persist, PSC_PERSIST_COUNTER_ARTIFACTS_LOADED,
                     psc_artifacts_n_loaded (self->artifacts));
}

gboolean
psc_cache_artifacts_save (PscCache  *self,
                          GError   **error)
{
  gboolean wrote = FALSE;

  if (self->artifacts == NULL)
    return TRUE;
  if (!psc_artifacts_save (self->artifacts, &wrote, error))
    {
      psc_persist_count (self->persist, PSC_PERSIST_COUNTER_SAVE_FAILURES, 1);
      return FALSE;
    }
  if (wrote)
    psc_persist_count (self->persist, PSC_PERSIST_COUNTER_SAVES, 1);
  return TRUE;
}

void
psc_cache_artifacts_pump (PscCache *self,
                          guint     interval_s)
{
  if (self->artifacts == NULL || interval_s == 0 || !psc_artifacts_dirty (self->artifacts) ||
      g_get_monotonic_time () - psc_artifacts_last_save (self->artifacts) <
        (gint64) interval_s * G_USEC_PER_SEC)
    return;
  psc_cache_artifacts_save (self, NULL);
}

void
psc_cache_artifacts_free (PscCache *self)
{
  g_clear_pointer (&self->artifacts, psc_artifacts_free);
}

/* Registers @spirv with the core (which reads the module again and creates
 * it): the module, or VK_NULL_HANDLE with *status and @core_error. */
static VkShaderModule
register_spirv (PscCache     *self,
                GBytes       *spirv,
                PscStatus    *status,
                PscCoreError *core_error)
{
  g_autofree guint32 *owned = NULL;
  VkShaderModule module = VK_NULL_HANDLE;
  uint32_t id = 0;
  gsize size = 0;
  const guint32 *code = psc_spirv_words (spirv, &size, &owned);

  PSC_CORE_ERROR_INIT (*core_error);
  *status = psc_core_register_shader (self->core, code, size, &module, &id, core_error);
  return *status == PSC_STATUS_OK ? module : VK_NULL_HANDLE;
}

/* A stored artifact for @key, registered: the module, or VK_NULL_HANDLE
 * when there is none or it was refused (counted, forgotten: the caller
 * compiles). FALSE with @error only for a failure that is not the
 * artifact's (the core out of memory, a full table). */
static gboolean
register_stored (PscCache       *self,
                 const guint8   *key,
                 guint32         stage,
                 VkShaderModule *module,
                 GError        **error)
{
  PscCoreError core_error;
  PscStatus status;
  guint32 stored_stage = 0;
  GBytes *stored = psc_artifacts_lookup (self->artifacts, key, &stored_stage);

  *module = VK_NULL_HANDLE;
  if (stored == NULL)
    return TRUE;
  if (stored_stage != stage)
    {
      /* The key covers the stage: only a 128-bit collision gets here. */
      psc_persist_count_rejection (self->persist, PSC_FILE_BAD_RECORD);
      psc_artifacts_forget (self->artifacts, key);
      return TRUE;
    }
  *module = register_spirv (self, stored, &status, &core_error);
  if (*module != VK_NULL_HANDLE)
    {
      psc_artifacts_used (self->artifacts, key);
      psc_persist_count (self->persist, PSC_PERSIST_COUNTER_ARTIFACT_HITS, 1);
      return TRUE;
    }
  if (status != PSC_STATUS_INVALID_ARGUMENT && status != PSC_STATUS_VULKAN)
    {
      psc_cache_fail (error, status, &core_error);
      return FALSE;
    }
  /* The core's SPIR-V reader or the driver refused it: compile instead. */
  g_debug ("psocache: a stored SPIR-V artifact was refused (%s); compiling", core_error.message);
  psc_persist_count_rejection (self->persist, status == PSC_STATUS_VULKAN
                                              ? PSC_FILE_DRIVER_REJECTED : PSC_FILE_BAD_RECORD);
  psc_artifacts_forget (self->artifacts, key);
  return TRUE;
}

/**
 * psc_cache_register_shader_source: (skip)
 * @self: a cache
 * @source: the exact source text (GLSL, HLSL, or anything @compile reads)
 * @source_len: the length of @source in bytes, or -1 when it is
 *   nul-terminated
 * @stage: the shader stage, exactly one `VkShaderStageFlagBits` bit with a
 *   SPIR-V execution model (vertex to compute, task, mesh, ray tracing)
 * @target_env: (nullable): the target environment the code is compiled for
 *   (for example `vulkan1.3`); %NULL is the same as ""
 * @policy: (nullable): the compiler policy: whatever else changes the
 *   output (the compiler and its version, options, defines, the
 *   application's own generator version); %NULL is the same as ""
 * @compile: the application's compiler, called when no valid artifact is
 *   stored for the key
 * @context: passed to @compile
 * @error: return location for a #GError
 *
 * Registers a shader by its source: persistent layer 2, SPIR-V artifacts
 * keyed by exact source. The key is a 128-bit hash of the exact bytes of
 * @source, @stage, the library's artifact-key version, @target_env and
 * @policy (each length-prefixed, so no two different tuples share a key).
 * When the cache holds an artifact for the key (from the cache
 * directory's `artifacts.psclog`, read and validated when the cache was
 * created, or compiled earlier by this cache), its SPIR-V is registered as
 * [method@Psc.Cache.register_shader] does (the module is read and
 * validated again) and @compile is not called. Otherwise, or when the
 * stored artifact is refused (counted by its reason; the artifact is
 * dropped), @compile is called and its SPIR-V registered and kept: written
 * to the log at the next save ([method@Psc.Cache.save], the saves of
 * [method@Psc.Cache.begin_frame] every
 * [property@Psc.Cache:save-interval] seconds, [method@Psc.Cache.close]).
 * Compiled SPIR-V that could not be read back as an artifact of @stage (no
 * entry point of that stage, not SPIR-V) is registered if the core
 * accepts it, but not kept.
 *
 * Without persistence (no [property@Psc.Cache:cache-directory]) the
 * artifacts live in memory only: each source compiles once per cache. The
 * store is bounded (4096 artifacts, 64 MiB) and keeps the most recently
 * used; see docs/persistence.md. Counted as
 * %PSC_PERSIST_COUNTER_ARTIFACT_HITS or %PSC_PERSIST_COUNTER_ARTIFACT_MISSES.
 *
 * The module is the cache's, as from [method@Psc.Cache.register_shader]:
 * balance each successful call with one [method@Psc.Cache.release_shader].
 * Owner thread (rule (a)).
 *
 * Not introspectable: the stage and the module are Vulkan types, and the
 * callback takes a Vulkan stage. Bindings compile themselves and call
 * [method@Psc.Cache.register_shader_bytes].
 *
 * Returns: the module, or `VK_NULL_HANDLE` with @error set: the error
 *   @compile reported (as it is), the core's error for SPIR-V it refused,
 *   %PSC_ERROR_WRONG_THREAD, %PSC_ERROR_CLOSED
 *
 * Since: 0.2
 */
VkShaderModule
psc_cache_register_shader_source (PscCache              *self,
                                  const char            *source,
                                  gssize                 source_len,
                                  VkShaderStageFlagBits  stage,
                                  const char            *target_env,
                                  const char            *policy,
                                  PscCompileFn           compile,
                                  gpointer               context,
                                  GError               **error)
{
  g_autoptr(PscCache) hold = NULL;
  g_autoptr(GBytes) compiled = NULL;
  GError *local = NULL;
  PscCoreError core_error;
  PscStatus status;
  VkShaderModule module = VK_NULL_HANDLE;
  PscFileReason why = PSC_FILE_OK;
  guint8 key[PSC_ARTIFACT_KEY_SIZE];
  gsize len;

  PSC_CACHE_CHECK (self, error, VK_NULL_HANDLE);
  PSC_CACHE_CHECK_INFO (self, source, VK_NULL_HANDLE);
  g_return_val_if_fail (psc_artifact_stage_valid ((guint32) stage), VK_NULL_HANDLE);
  g_return_val_if_fail (compile != NULL, VK_NULL_HANDLE);

  PSC_CORE_ERROR_INIT (core_error);
  if (psc_core_check_owner (self->core, &core_error) != PSC_STATUS_OK)
    {
      psc_error_from_core (error, &core_error);
      return VK_NULL_HANDLE;
    }
  len = source_len < 0 ? strlen (source) : (gsize) source_len;
  if (target_env == NULL)
    target_env = "";
  if (policy == NULL)
    policy = "";
  psc_artifact_key (source, len, (guint32) stage, target_env, strlen (target_env), policy,
                    strlen (policy), key);

  if (!register_stored (self, key, (guint32) stage, &module, error))
    return VK_NULL_HANDLE;
  if (module != VK_NULL_HANDLE)
    return module;

  psc_persist_count (self->persist, PSC_PERSIST_COUNTER_ARTIFACT_MISSES, 1);
  /* The callback may drop the application's last reference. */
  hold = g_object_ref (self);
  compiled = compile (context, source, len, stage, target_env, policy, &local);
  if (compiled == NULL)
    {
      if (local == NULL)
        g_set_error_literal (&local, PSC_ERROR, PSC_ERROR_FAILED,
                             _("the compile callback returned no SPIR-V and no error"));
      g_propagate_error (error, local);
      return VK_NULL_HANDLE;
    }
  g_clear_error (&local);    /* SPIR-V and an error: the SPIR-V counts */
  module = register_spirv (self, compiled, &status, &core_error);
  if (module == VK_NULL_HANDLE)
    {
      psc_cache_fail (error, status, &core_error);
      return VK_NULL_HANDLE;
    }
  if (self->artifacts != NULL &&
      !psc_artifacts_add (self->artifacts, key, (guint32) stage, len, compiled, &why))
    g_debug ("psocache: compiled SPIR-V not kept as an artifact (%s)", psc_file_reason_describe (why));
  return module;
}
