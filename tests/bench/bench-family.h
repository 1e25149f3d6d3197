/* bench-family.h: the benchmark pipeline family: the graphics create
 * infos psc-bench's async, warm and disk benchmarks create (two shaders of
 * tests/bench/async.{vert,frag}, one layout, specialization and fixed state
 * that vary by index), the caches that own their shaders and layout, and
 * the facts about the device they run on that the JSON lines report.
 * The hit benchmark shares the fixed state (FILL_FIXED_STATE).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <psocache/psocache.h>

#include "bench.h"
#include "formats/driver-file.h"   /* PscDeviceIdentity (the core's) */

#include <string.h>

/* Everything but the shader stages: 4 vertex attributes, depth, dynamic
 * viewport and scissor, `colors` attachments of format set `fmt`, blending
 * on or off. Shared by every create info the bench builds (B is any struct
 * with the members below). */
#define FILL_FIXED_STATE(b, colors, fmt, blend, layout_)                        \
  do {                                                                         \
    b->binding = (VkVertexInputBindingDescription) { 0, 48, VK_VERTEX_INPUT_RATE_VERTEX };\
    b->attrs[0] = (VkVertexInputAttributeDescription) { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };\
    b->attrs[1] = (VkVertexInputAttributeDescription) { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12 };\
    b->attrs[2] = (VkVertexInputAttributeDescription) { 2, 0, VK_FORMAT_R32G32_SFLOAT, 24 };\
    b->attrs[3] = (VkVertexInputAttributeDescription) { 3, 0, VK_FORMAT_R8G8B8A8_UNORM, 32 };\
    b->vi = (VkPipelineVertexInputStateCreateInfo) {                          \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,     \
      .vertexBindingDescriptionCount = 1, .pVertexBindingDescriptions = &b->binding,\
      .vertexAttributeDescriptionCount = 4, .pVertexAttributeDescriptions = b->attrs };\
    b->ia = (VkPipelineInputAssemblyStateCreateInfo) {                        \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,   \
      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST };                      \
    b->vp = (VkPipelineViewportStateCreateInfo) {                             \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,         \
      .viewportCount = 1, .scissorCount = 1 };                                \
    b->rs = (VkPipelineRasterizationStateCreateInfo) {                        \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,    \
      .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_BACK_BIT, \
      .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f };      \
    b->ms = (VkPipelineMultisampleStateCreateInfo) {                          \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,      \
      .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT };                        \
    b->ds = (VkPipelineDepthStencilStateCreateInfo) {                         \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,    \
      .depthTestEnable = VK_TRUE, .depthWriteEnable = !blend,                 \
      .depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL, .maxDepthBounds = 1.0f };\
    for (uint32_t a = 0; a < colors; a++)                                     \
      b->blend[a] = (VkPipelineColorBlendAttachmentState) {                   \
        .blendEnable = blend,                                                 \
        .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,                     \
        .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,           \
        .colorBlendOp = VK_BLEND_OP_ADD,                                      \
        .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,                           \
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO,                          \
        .alphaBlendOp = VK_BLEND_OP_ADD,                                      \
        .colorWriteMask = 0xf };                                              \
    b->cb = (VkPipelineColorBlendStateCreateInfo) {                           \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,      \
      .attachmentCount = colors, .pAttachments = b->blend };                  \
    b->dyn_states[0] = VK_DYNAMIC_STATE_VIEWPORT;                             \
    b->dyn_states[1] = VK_DYNAMIC_STATE_SCISSOR;                              \
    b->dyn = (VkPipelineDynamicStateCreateInfo) {                             \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,          \
      .dynamicStateCount = 2, .pDynamicStates = b->dyn_states };              \
    for (uint32_t a = 0; a < colors; a++)                                     \
      b->formats[a] = color_formats[fmt][a];                                  \
    b->rendering = (VkPipelineRenderingCreateInfo) {                          \
      .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,              \
      .colorAttachmentCount = colors, .pColorAttachmentFormats = b->formats,  \
      .depthAttachmentFormat = VK_FORMAT_D32_SFLOAT };                        \
    b->ci = (VkGraphicsPipelineCreateInfo) {                                  \
      .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,               \
      .pNext = &b->rendering,                                                 \
      .stageCount = 2, .pStages = b->stages,                                  \
      .pVertexInputState = &b->vi, .pInputAssemblyState = &b->ia,             \
      .pViewportState = &b->vp, .pRasterizationState = &b->rs,                \
      .pMultisampleState = &b->ms, .pDepthStencilState = &b->ds,              \
      .pColorBlendState = &b->cb, .pDynamicState = &b->dyn,                   \
      .layout = (layout_) };                                                  \
  } while (0)

/* The colour formats of FILL_FIXED_STATE: two sets of four. */
static const VkFormat color_formats[2][4] = {
  { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16_SFLOAT },
  { VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT },
};

/* The shaders and layout a create info names. */
typedef struct {
  VkShaderModule vert, frag;
  VkPipelineLayout layout;
} BenchObjects;

/* One graphics create info of the async family, built up front. */
typedef struct {
  VkGraphicsPipelineCreateInfo ci;
  VkPipelineShaderStageCreateInfo stages[2];
  VkSpecializationInfo spec[2];
  VkSpecializationMapEntry vs_entries[3];
  VkSpecializationMapEntry fs_entries[4];
  uint8_t vs_data[12];
  uint8_t fs_data[16];
  VkVertexInputBindingDescription binding;
  VkVertexInputAttributeDescription attrs[4];
  VkPipelineVertexInputStateCreateInfo vi;
  VkPipelineInputAssemblyStateCreateInfo ia;
  VkPipelineViewportStateCreateInfo vp;
  VkPipelineRasterizationStateCreateInfo rs;
  VkPipelineMultisampleStateCreateInfo ms;
  VkPipelineDepthStencilStateCreateInfo ds;
  VkPipelineColorBlendAttachmentState blend[4];
  VkPipelineColorBlendStateCreateInfo cb;
  VkDynamicState dyn_states[2];
  VkPipelineDynamicStateCreateInfo dyn;
  VkFormat formats[4];
  VkPipelineRenderingCreateInfo rendering;
} AsyncInfo;

/* Phases: each gets its own disjoint pipeline set (async uses the first
 * five; warm and disk create PHASE_WARM_START's, identical in every
 * process). */
enum { PHASE_SERIAL, PHASE_ASYNC, PHASE_RAW, PHASE_WARMUP, PHASE_ASYNC_DIRECT,
       PHASE_WARM_START };

/* Pipeline i of a phase (see bench-family.c). */
void fill_async (AsyncInfo *b, uint32_t phase, uint32_t i, const BenchObjects *o);
/* A fresh cache made with *opts (its shaders and layout written to *o);
 * dies on failure. */
PscCache *async_cache_new_full (PscDevice *device, const PscCacheOptions *opts, BenchObjects *o);
/* The same with default options but workers and job_capacity. */
PscCache *async_cache_new (PscDevice *device, uint32_t workers, uint32_t job_capacity,
                           BenchObjects *o);
/* n create infos, pipelines 0..n-1 of phase (calloc'd; free with free()). */
AsyncInfo *async_infos_new (uint32_t phase, uint32_t n, const BenchObjects *o);

/* Appends s to a JSON string body (quotes, backslashes, control bytes). */
void json_escape (char *out, size_t size, const char *s);
/* "<device name> / <driver name> <driver info>", JSON-escaped. */
void driver_string (PscDevice *device, char *out, size_t size);
/* The identity a driver file of this device carries (vendorID, deviceID,
 * driverVersion, pipelineCacheUUID from vkGetPhysicalDeviceProperties). */
void bench_device_identity (PscDevice *device, PscDeviceIdentity *id);
