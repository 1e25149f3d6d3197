/* encode-graphics.h: the complete graphics encoder and the rules both
 * graphics encoders share (internal).
 *
 * psc_encode_graphics_full (encode-graphics.c) handles every supported
 * input and is the reference for every error: status, field path and
 * message. The fast path (encode-graphics-fast.h) must write exactly the
 * bytes it writes for every input it accepts; graphics-key.h combines the
 * two. tests/unit/test-encode.c compares them on every test input and on
 * randomized variants.
 *
 * Both run on the resolver's owner thread (the cache's owner thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "keys.h"

/* The complete encoder alone (the encoder contract of psc-core.h). */
PSC_INTERNAL PscStatus psc_encode_graphics_full (const VkGraphicsPipelineCreateInfo *ci,
                                                 PscRenderingMode mode, const PscResolver *r,
                                                 PscKeyWriter *w, PscCoreError *err);

/* Whether a pipeline can rasterize line segments, i.e. whether its static
 * lineWidth matters (both encoders key 0 for it otherwise; the decoder
 * writes 1.0). Vulkan: lineWidth is "the width of rasterized line
 * segments" (VkPipelineRasterizationStateCreateInfo). Line segments are
 * rasterized from
 *  - primitives of a line topology: LINE_LIST, LINE_STRIP and their
 *    _WITH_ADJACENCY forms (a dynamic topology keeps its class, and the
 *    class of a line topology is the line list);
 *  - polygons drawn with polygonMode VK_POLYGON_MODE_LINE (their edges; a
 *    point list in that mode draws points, but this rule keeps the width
 *    then too);
 *  - whatever a geometry shader (OutputLineStrip) or a tessellation stage
 *    (isolines) emits, whatever the input topology;
 * and from nothing when rasterization is statically discarded
 * (rasterizerDiscardEnable without the dynamic state: no primitive reaches
 * the rasterizer). Filled or point-mode triangles and point lists
 * rasterize no line.
 * stage_mask: 1 << PscStage of every stage; topology: the key's topology
 * (a VkPrimitiveTopology <= PATCH_LIST, or its class when dynamic);
 * polygon_mode: a VkPolygonMode <= POINT. */
static inline bool
psc_graphics_rasterizes_lines (uint32_t stage_mask, uint32_t topology, uint32_t polygon_mode,
                               bool static_discard)
{
  const uint32_t line_topologies = (1u << VK_PRIMITIVE_TOPOLOGY_LINE_LIST)
                                   | (1u << VK_PRIMITIVE_TOPOLOGY_LINE_STRIP)
                                   | (1u << VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY)
                                   | (1u << VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY);
  const uint32_t line_emitters = (1u << PSC_STAGE_TESS_CONTROL) | (1u << PSC_STAGE_TESS_EVAL)
                                 | (1u << PSC_STAGE_GEOMETRY);
  return !static_discard
         && (polygon_mode == VK_POLYGON_MODE_LINE || (topology < 32 && ((line_topologies >> topology) & 1))
             || (stage_mask & line_emitters) != 0);
}

