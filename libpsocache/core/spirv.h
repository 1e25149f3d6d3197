/* spirv.h: what the cache reads from a shader's SPIR-V (internal).
 *
 * SPIR-V handed to the cache is untrusted (DESIGN decision 14): the parser
 * checks every length before it reads, never trusts a count or an id bound
 * from the module to size memory, and rejects a malformed module with the
 * word offset of the first problem.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "psc-core.h"

/* The SPIR-V numbers the parser reads (SPIR-V specification, 3.x). */
enum {
  PSC_SPIRV_MAGIC = 0x07230203u,
  PSC_SPIRV_HEADER_WORDS = 5,          /* magic, version, generator, id bound, schema */
  PSC_SPIRV_OP_TYPE_BOOL = 20,
  PSC_SPIRV_OP_TYPE_INT = 21,
  PSC_SPIRV_OP_TYPE_FLOAT = 22,
  PSC_SPIRV_OP_SPEC_CONSTANT_TRUE = 48,
  PSC_SPIRV_OP_SPEC_CONSTANT_FALSE = 49,
  PSC_SPIRV_OP_SPEC_CONSTANT = 50,
  PSC_SPIRV_OP_DECORATE = 71,
  PSC_SPIRV_DECORATION_SPEC_ID = 1,
};

/* The specialization constants a module declares: every `OpDecorate <id>
 * SpecId <n>` joined with the scalar specialization constant it decorates
 * (OpSpecConstantTrue / OpSpecConstantFalse of an OpTypeBool: 4 bytes, a
 * VkBool32; OpSpecConstant of an OpTypeInt or OpTypeFloat of width 8, 16,
 * 32 or 64: width / 8 bytes).
 *
 * code: the module's words in host byte order; size: its size in bytes
 * (VkShaderModuleCreateInfo::codeSize). Only code[0 .. size / 4) is read.
 *
 * On PSC_STATUS_OK, *out is a malloc'd array of *count entries sorted by
 * strictly increasing constant_id (NULL when the module declares none);
 * the caller frees it with free(). On failure *out is NULL, *count 0, and
 * err (may be NULL) says why:
 *  - INVALID_ARGUMENT, path "pCode" (NULL), "codeSize" (not a multiple of
 *    4, shorter than the header, more than 2^32 words) or "pCode[N]", N the
 *    word offset of the
 *    problem: the magic number (either byte order), an id bound of 0, an
 *    instruction whose word count is 0 or runs past the end, an instruction
 *    the parser reads that is too short for its operands, an id of such an
 *    instruction outside 1 .. bound - 1, a type or specialization constant
 *    result id defined twice;
 *  - INVALID_ARGUMENT for the SpecId rules, which Vulkan and SPIR-V require
 *    and a map entry's size could not be checked without: a SpecId on
 *    anything but a scalar specialization constant (a composite, an
 *    OpSpecConstantOp, a variable, a decoration group, an undefined id), a
 *    second SpecId on one constant, one SpecId value on two constants, a
 *    constant whose result type is not a bool (True / False) or not an
 *    integer or float of 8, 16, 32 or 64 bits (OpSpecConstant);
 *  - FAILED when memory runs out (or the code changed while it was read).
 * The version and schema words are not checked (the driver judges what it
 * supports); instructions the parser does not read are only framed.
 *
 * Memory: a few words per OpDecorate SpecId / type / specialization
 * constant instruction of the module, never in proportion to its id bound.
 * Any thread; no state. */
PSC_INTERNAL PscStatus psc_spirv_spec_constants (const uint32_t *code, size_t size,
                                                 PscSpecConstant **out, uint32_t *count,
                                                 PscCoreError *err);
