#!/usr/bin/env python3
# make-corpus.py: writes the recipe JSON test corpora (checked in; run it
# again only to change them):
#   tests/recipe-json/good/*.json          recipes that read (round trips)
#   tests/recipe-json/bad/*.json + .expect documents that are refused, and
#                                          the error expected (.expect: the
#                                          PscError name, then the start of
#                                          the message: path and reason)
#   tests/fuzz/corpus/recipe-json/*        the fuzz target's seeds (both; the
#                                          regress-* inputs libFuzzer found stay)
# The golden files (good/*.golden.json: the exact text psc_recipe_to_json
# writes, pretty) are written by test-recipe-json --golden, not here.
#
# Usage, from the source root, with the unit tests' shaders compiled and
# stripped of debug information into DIR:
#   for s in spec-graphics.vert no-spec.frag spec-scalars.comp spec-widths.comp; do
#     glslangValidator -V -o DIR/$s.spv tests/unit/spirv/$s
#     spirv-opt --strip-debug DIR/$s.spv -o DIR/$s.spv
#   done
#   python3 tests/recipe-json/make-corpus.py DIR
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import base64
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, '..', 'fuzz', 'corpus', 'recipe-json')


def spirv(directory, name):
    with open(os.path.join(directory, name + '.spv'), 'rb') as f:
        return base64.b64encode(f.read()).decode('ascii')


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: make-corpus.py DIR (with the compiled .spv files)')
    d = sys.argv[1]
    vert = spirv(d, 'spec-graphics.vert')
    frag = spirv(d, 'no-spec.frag')
    scalars = spirv(d, 'spec-scalars.comp')
    widths = spirv(d, 'spec-widths.comp')

    sampler_full = {
        'mag_filter': 'VK_FILTER_LINEAR', 'min_filter': 'VK_FILTER_LINEAR',
        'mipmap_mode': 'VK_SAMPLER_MIPMAP_MODE_LINEAR',
        'address_modes': ['VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE',
                          'VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT',
                          'VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER'],
        'mip_lod_bias': -0.5, 'min_lod': 0, 'max_lod': 1000.0,
        'anisotropy': {'enable': True, 'max': 16},
        'compare': {'enable': True, 'op': 'VK_COMPARE_OP_LESS_OR_EQUAL'},
        'border_color': 'VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE',
        'unnormalized_coordinates': False,
        'reduction_mode': 'VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE',
    }

    minimal_graphics = {
        'version': 1, 'kind': 'graphics',
        'stages': [
            {'stage': 'VK_SHADER_STAGE_VERTEX_BIT', 'spirv': vert},
            {'stage': 'VK_SHADER_STAGE_FRAGMENT_BIT', 'spirv': frag},
        ],
        'vertex_input': {
            'bindings': [{'binding': 0, 'stride': 12}],
            'attributes': [{'location': 0, 'binding': 0, 'format': 'VK_FORMAT_R32G32B32_SFLOAT'}],
        },
        'rendering': {'color_formats': ['VK_FORMAT_B8G8R8A8_UNORM']},
    }
    minimal_compute = {
        'version': 1, 'kind': 'compute',
        'stages': [{'stage': 'VK_SHADER_STAGE_COMPUTE_BIT', 'spirv': scalars}],
    }
    compute_spec = {
        'version': 1, 'kind': 'compute',
        'flags': ['VK_PIPELINE_CREATE_DISPATCH_BASE_BIT', 'VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT'],
        'stages': [{
            'stage': 'VK_SHADER_STAGE_COMPUTE_BIT', 'entry_point': 'main', 'spirv': scalars,
            'specialization': [
                {'id': 4, 'float': 1e-300}, {'id': 0, 'bool': False}, {'id': 1, 'int': -7},
                {'id': 2, 'uint': 3000000000}, {'id': 3, 'float': 0.25}, {'id': 10, 'bool': True},
            ],
        }],
        'layout': {
            'sets': [{'bindings': [{'binding': 0, 'type': 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
                                    'stages': ['VK_SHADER_STAGE_COMPUTE_BIT']}]}],
            'push_constants': [{'stages': ['VK_SHADER_STAGE_COMPUTE_BIT'], 'offset': 16, 'size': 32}],
        },
    }
    compute_widths = {
        'version': 1, 'kind': 'compute',
        'stages': [{
            'stage': 'VK_SHADER_STAGE_COMPUTE_BIT', 'spirv': widths,
            'specialization': [
                {'id': 5, 'int': -9223372036854775808}, {'id': 6, 'uint': 65535},
                {'id': 7, 'int': -128}, {'id': 9, 'uint': '18446744073709551615'},
            ],
        }],
    }
    full_dynamic = {
        'version': 1, 'kind': 'graphics',
        'flags': ['VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT'],
        'stages': [
            {'stage': 'VK_SHADER_STAGE_VERTEX_BIT', 'entry_point': 'main', 'spirv': vert,
             'specialization': [{'id': 3, 'float': 2.5}, {'id': 0, 'int': -3}]},
            {'stage': 'VK_SHADER_STAGE_FRAGMENT_BIT', 'spirv': frag, 'specialization': []},
        ],
        'layout': {
            'sets': [
                {'flags': [], 'bindings': [
                    {'binding': 0, 'type': 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER', 'count': 1,
                     'stages': ['VK_SHADER_STAGE_VERTEX_BIT', 'VK_SHADER_STAGE_FRAGMENT_BIT'],
                     'flags': []},
                    {'binding': 3, 'type': 'VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER', 'count': 2,
                     'stages': ['VK_SHADER_STAGE_FRAGMENT_BIT'],
                     'immutable_samplers': [sampler_full, {}]},
                ]},
                {'flags': ['VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT'], 'bindings': [
                    {'binding': 0, 'type': 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE', 'count': 64,
                     'stages': ['VK_SHADER_STAGE_FRAGMENT_BIT'],
                     'flags': ['VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT',
                               'VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT']},
                ]},
            ],
            'push_constants': [{'stages': ['VK_SHADER_STAGE_ALL'], 'offset': 0, 'size': 64}],
        },
        'vertex_input': {
            'bindings': [{'binding': 0, 'stride': 12, 'input_rate': 'VK_VERTEX_INPUT_RATE_VERTEX'},
                         {'binding': 2, 'stride': 64, 'input_rate': 'VK_VERTEX_INPUT_RATE_INSTANCE'}],
            'attributes': [{'location': 0, 'binding': 0, 'format': 'VK_FORMAT_R32G32B32_SFLOAT', 'offset': 0},
                           {'location': 4, 'binding': 2, 'format': 'VK_FORMAT_R8G8B8A8_UNORM', 'offset': 48}],
        },
        'input_assembly': {'topology': 'VK_PRIMITIVE_TOPOLOGY_LINE_STRIP', 'primitive_restart': True},
        'tessellation': {'patch_control_points': 0},
        'viewport': {'viewports': 2, 'scissors': 2},
        'rasterization': {
            'polygon_mode': 'VK_POLYGON_MODE_LINE', 'cull_mode': ['VK_CULL_MODE_BACK_BIT'],
            'front_face': 'VK_FRONT_FACE_CLOCKWISE', 'line_width': 2.5, 'depth_clamp': True,
            'rasterizer_discard': False,
            'depth_bias': {'enable': True, 'constant': 1.25, 'clamp': 0.5, 'slope': -2},
        },
        'multisample': {
            'samples': 'VK_SAMPLE_COUNT_4_BIT', 'sample_shading': True, 'min_sample_shading': 0.5,
            'alpha_to_coverage': True, 'alpha_to_one': False, 'sample_mask': [13],
        },
        'depth_stencil': {
            'depth_test': True, 'depth_write': True, 'depth_compare': 'VK_COMPARE_OP_GREATER_OR_EQUAL',
            'depth_bounds': {'enable': True, 'min': 0.125, 'max': 0.75},
            'stencil_test': True,
            'front': {'fail': 'VK_STENCIL_OP_REPLACE', 'pass': 'VK_STENCIL_OP_INCREMENT_AND_CLAMP',
                      'depth_fail': 'VK_STENCIL_OP_ZERO', 'compare': 'VK_COMPARE_OP_EQUAL',
                      'compare_mask': 255, 'write_mask': 15, 'reference': 1},
            'back': {'fail': 'VK_STENCIL_OP_KEEP', 'pass': 'VK_STENCIL_OP_INVERT',
                     'compare': 'VK_COMPARE_OP_ALWAYS', 'compare_mask': 4294967295},
        },
        'color_blend': {
            'logic_op_enable': False, 'logic_op': 'VK_LOGIC_OP_COPY',
            'constants': [0.25, 0.5, 0.75, 1],
            'attachments': [
                {'enable': True, 'src_color': 'VK_BLEND_FACTOR_SRC_ALPHA',
                 'dst_color': 'VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA', 'color_op': 'VK_BLEND_OP_ADD',
                 'src_alpha': 'VK_BLEND_FACTOR_CONSTANT_ALPHA', 'dst_alpha': 'VK_BLEND_FACTOR_ZERO',
                 'alpha_op': 'VK_BLEND_OP_MAX',
                 'write_mask': ['VK_COLOR_COMPONENT_R_BIT', 'VK_COLOR_COMPONENT_G_BIT',
                                'VK_COLOR_COMPONENT_B_BIT']},
                {'enable': False, 'write_mask': []},
            ],
        },
        'dynamic_states': ['VK_DYNAMIC_STATE_VIEWPORT', 'VK_DYNAMIC_STATE_SCISSOR',
                           'VK_DYNAMIC_STATE_LINE_WIDTH', 'VK_DYNAMIC_STATE_STENCIL_REFERENCE',
                           'VK_DYNAMIC_STATE_CULL_MODE', 'VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE'],
        'rendering': {'color_formats': ['VK_FORMAT_R16G16B16A16_SFLOAT', 'VK_FORMAT_R8G8B8A8_SRGB'],
                      'depth_format': 'VK_FORMAT_D32_SFLOAT_S8_UINT',
                      'stencil_format': 'VK_FORMAT_D32_SFLOAT_S8_UINT', 'view_mask': 0},
    }
    render_pass = {
        'version': 1, 'kind': 'graphics',
        'stages': [
            {'stage': 'VK_SHADER_STAGE_VERTEX_BIT', 'spirv': vert},
            {'stage': 'VK_SHADER_STAGE_FRAGMENT_BIT', 'spirv': frag},
        ],
        'vertex_input': copy.deepcopy(minimal_graphics['vertex_input']),
        'multisample': {'samples': 'VK_SAMPLE_COUNT_4_BIT'},
        'render_pass': {
            'attachments': [
                {'format': 'VK_FORMAT_B8G8R8A8_UNORM', 'samples': 'VK_SAMPLE_COUNT_4_BIT'},
                {'format': 'VK_FORMAT_B8G8R8A8_UNORM'},
                {'format': 'VK_FORMAT_D24_UNORM_S8_UINT', 'samples': 'VK_SAMPLE_COUNT_4_BIT'},
            ],
            'subpasses': [
                {'colors': [0, 'VK_ATTACHMENT_UNUSED'], 'depth_stencil': 2},
                {'colors': [0], 'resolves': [1], 'inputs': [], 'depth_stencil': None},
            ],
            'dependencies': [
                {'src_subpass': 'VK_SUBPASS_EXTERNAL', 'dst_subpass': 0,
                 'src_stage_mask': ['VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT'],
                 'dst_stage_mask': ['VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT',
                                    'VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT'],
                 'src_access_mask': [],
                 'dst_access_mask': ['VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT',
                                     'VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT']},
                {'src_subpass': 0, 'dst_subpass': 1,
                 'src_stage_mask': ['VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT'],
                 'dst_stage_mask': ['VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT'],
                 'src_access_mask': ['VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT'],
                 'dst_access_mask': ['VK_ACCESS_INPUT_ATTACHMENT_READ_BIT'],
                 'flags': ['VK_DEPENDENCY_BY_REGION_BIT']},
            ],
            'subpass': 1,
        },
    }
    # Names other than the ones written: aliases, multi-bit names, a name
    # newer headers use; null blend attachment; defaults spelled out.
    aliases = {
        'version': 1, 'kind': 'graphics',
        'flags': ['VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT'],
        'stages': copy.deepcopy(minimal_graphics['stages']),
        'layout': {
            'sets': [
                {'flags': ['VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT'], 'bindings': [
                    {'binding': 1, 'type': 'VK_DESCRIPTOR_TYPE_SAMPLER',
                     'stages': ['VK_SHADER_STAGE_ALL_GRAPHICS'],
                     'immutable_samplers': [{'reduction_mode': 'VK_SAMPLER_REDUCTION_MODE_MIN_EXT',
                                             'address_modes': [
                                                 'VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE_KHR',
                                                 'VK_SAMPLER_ADDRESS_MODE_REPEAT',
                                                 'VK_SAMPLER_ADDRESS_MODE_REPEAT']}]},
                ]},
            ],
        },
        'vertex_input': copy.deepcopy(minimal_graphics['vertex_input']),
        'rasterization': {'cull_mode': ['VK_CULL_MODE_FRONT_AND_BACK', 'VK_CULL_MODE_NONE']},
        'color_blend': {'attachments': [None, {'enable': True,
                                               'src_color': 'VK_BLEND_FACTOR_ONE',
                                               'dst_color': 'VK_BLEND_FACTOR_ONE'}]},
        'dynamic_states': ['VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY_EXT',
                           'VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT',
                           'VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT_EXT'],
        'rendering': {'color_formats': ['VK_FORMAT_UNDEFINED', 'VK_FORMAT_A4R4G4B4_UNORM_PACK16_EXT']},
    }

    good = {
        'minimal-graphics': minimal_graphics,
        'minimal-compute': minimal_compute,
        'compute-spec': compute_spec,
        'compute-widths': compute_widths,
        'graphics-dynamic-full': full_dynamic,
        'graphics-render-pass': render_pass,
        'graphics-aliases': aliases,
    }

    # Bad documents: (name, document or raw text, error name, message start).
    bad = []

    def mutate(name, base, fn, code, message):
        doc = copy.deepcopy(base)
        fn(doc)
        bad.append((name, doc, code, message))

    def raw(name, text, code, message):
        bad.append((name, text, code, message))

    INV, UNS, CAP = 'PSC_ERROR_INVALID_ARGUMENT', 'PSC_ERROR_UNSUPPORTED', 'PSC_ERROR_CAPACITY'
    g, c = minimal_graphics, compute_spec

    # the document
    raw('not-object', '[1, 2]', INV, 'recipe JSON: the document is an array, not an object')
    raw('empty', '', INV, 'recipe JSON: the document is empty, not an object')
    raw('trailing-comma', '{"version": 1, "kind": "compute",}', INV, 'recipe JSON: line 1, column 33: Parse error')
    raw('comment', '{"version": 1 /* one */, "kind": "compute"}', INV,
        'recipe JSON: line 1, column 15: a comment')
    raw('single-quotes', "{'version': 1}", INV, 'recipe JSON: line 1, column 2: a single-quoted string')
    raw('hex-number', '{"version": 0x1}', INV, 'recipe JSON: line 1, column 13: a number with a leading zero')
    raw('integer-overflow', '{"version": 18446744073709551617}', INV,
        'recipe JSON: line 1, column 13: an integer outside -2^63..2^63-1')
    raw('nul-escape', '{"version": 1, "kind": "compute\\u0000x"}', INV,
        'recipe JSON: line 1, column 32: \\u0000 (a NUL character) in a string')
    raw('lone-surrogate', '{"version": 1, "kind": "\\udc00"}', INV,
        'recipe JSON: line 1, column 25: a low surrogate')
    raw('bare-word', '{"version": one}', INV, 'recipe JSON: line 1, column 13: not JSON')
    raw('too-deep', '{"version": 1, "kind": "compute", "stages": ' + '[' * 16 + ']' * 16 + '}', CAP,
        'recipe JSON: line 1, column 60: nested deeper than 16 arrays and objects')
    raw('member-twice', '{"version": 1, "kind": "compute", "kind": "graphics", "stages": []}', INV,
        'kind: a member given twice')
    raw('member-twice-nested',
        '{"version": 1, "kind": "graphics", "stages": [], "viewport": {"viewports": 1, "viewports": 2}}',
        INV, 'viewport.viewports: a member given twice')
    raw('member-twice-in-array',
        '{"version": 1, "kind": "compute", "stages": [{"stage": "VK_SHADER_STAGE_COMPUTE_BIT", '
        '"layout": {"a": {}, "b": [{}, {"c": 1, "d": 2}]}, "stage": "VK_SHADER_STAGE_COMPUTE_BIT"}]}',
        INV, 'stages[0].stage: a member given twice')
    raw('member-twice-object-value',
        '{"layout": {"sets": [{"bindings": []}]}, "version": 1, "layout": {}}',
        INV, 'layout: a member given twice')
    # version and kind
    mutate('version-missing', c, lambda d: d.pop('version'), INV, 'version: a required member is missing')
    mutate('version-newer', c, lambda d: d.update(version=2), UNS, 'version: 2: this library reads version 1')
    mutate('version-zero', c, lambda d: d.update(version=0), INV, 'version: 0: this library reads version 1')
    mutate('version-string', c, lambda d: d.update(version='1'), INV,
           'version: an integer expected, not a string')
    mutate('kind-missing', c, lambda d: d.pop('kind'), INV, 'kind: a required member is missing')
    mutate('kind-unknown', c, lambda d: d.update(kind='mesh'), INV, 'kind: "mesh": "graphics" or "compute"')
    mutate('unknown-member', g, lambda d: d.update(colour_blend={}), INV, 'colour_blend: unknown member')
    mutate('graphics-state-in-compute', c, lambda d: d.update(rasterization={}), INV,
           'rasterization: a compute recipe has no graphics state')
    # stages
    mutate('stages-missing', c, lambda d: d.pop('stages'), INV, 'stages: a required member is missing')
    mutate('stages-object', c, lambda d: d.update(stages={}), INV, 'stages: an array expected, not an object')
    mutate('stages-empty', c, lambda d: d.update(stages=[]), INV, 'stages: the recipe has no stage')
    mutate('stages-too-many', g, lambda d: d.update(stages=d['stages'] * 3), CAP,
           'stages: 6 elements, at most 5')
    mutate('stage-twice', g, lambda d: d['stages'].append(copy.deepcopy(d['stages'][0])), INV,
           'stages[2].stage: the recipe already has this stage (stages[0])')
    mutate('stage-unknown-name', g, lambda d: d['stages'][1].update(stage='VK_SHADER_STAGE_PIXEL_BIT'), INV,
           'stages[1].stage: "VK_SHADER_STAGE_PIXEL_BIT" is no VkShaderStageFlagBits name')
    mutate('stage-other-type', g, lambda d: d['stages'][0].update(stage='VK_FORMAT_R8_UNORM'), INV,
           'stages[0].stage: "VK_FORMAT_R8_UNORM" is no VkShaderStageFlagBits name')
    mutate('stage-compute-in-graphics', g,
           lambda d: d['stages'][1].update(stage='VK_SHADER_STAGE_COMPUTE_BIT'), INV,
           'stages[1].stage: a graphics recipe has no compute stage')
    mutate('stage-no-vertex', g, lambda d: d['stages'].pop(0), INV,
           'stages: a graphics recipe needs a VK_SHADER_STAGE_VERTEX_BIT stage')
    mutate('spirv-missing', g, lambda d: d['stages'][1].pop('spirv'), INV,
           'stages[1].spirv: a required member is missing')
    mutate('spirv-bad-base64', g, lambda d: d['stages'][1].update(spirv='AwIj!wAA'), INV,
           'stages[1].spirv: not base64: character 4 (outside A-Z a-z 0-9 + /)')
    mutate('spirv-bad-padding', g, lambda d: d['stages'][1].update(spirv='AA=AAAAA'), INV,
           "stages[1].spirv: not base64: character 2 ('=' before the end)")
    mutate('spirv-bad-length', g, lambda d: d['stages'][1].update(spirv='AwIjB'), INV,
           'stages[1].spirv: not base64: 5 characters is not a multiple of 4')
    mutate('spirv-odd-bytes', g, lambda d: d['stages'][1].update(spirv='AwIjBwAA'), INV,
           'stages[1].spirv: 6 bytes is not a whole number of 32-bit SPIR-V words')
    mutate('spirv-not-spirv', g,
           lambda d: d['stages'][1].update(spirv=base64.b64encode(b'this is no SPIR-V, honest!!!').decode()),
           INV, 'stages[1].spirv: not valid SPIR-V')
    mutate('spirv-number', g, lambda d: d['stages'][1].update(spirv=7), INV,
           'stages[1].spirv: a string expected, not an integer')
    mutate('entry-point-long', g, lambda d: d['stages'][0].update(entry_point='m' * 64), CAP,
           'stages[0].entry_point: an entry point name of 1 to 63 bytes')
    mutate('stage-unknown-member', g, lambda d: d['stages'][0].update(spirv_words=[]), INV,
           'stages[0].spirv_words: unknown member')
    # specialization
    mutate('spec-int-fraction', c, lambda d: d['stages'][0]['specialization'][2].update(int=1.5), INV,
           'stages[0].specialization[2].int: an integer expected, not a number with a fraction or an exponent')
    mutate('spec-int-too-big', c, lambda d: d['stages'][0]['specialization'][2].update(int=2 ** 40), INV,
           'stages[0].specialization[2]: 1099511627776 does not fit the shader\'s 32-bit constant 1')
    mutate('spec-uint-negative', c, lambda d: d['stages'][0]['specialization'][3].update(uint=-1), INV,
           'stages[0].specialization[3].uint: -1 is negative')
    mutate('spec-uint-bad-string', c, lambda d: d['stages'][0]['specialization'][3].update(uint='12a'), INV,
           'stages[0].specialization[3].uint: a string here is the decimal digits')
    mutate('spec-two-values', c, lambda d: d['stages'][0]['specialization'][2].update(uint=3), INV,
           'stages[0].specialization[2]: both "int" and "uint": one value')
    mutate('spec-no-value', c, lambda d: d['stages'][0]['specialization'][2].pop('int'), INV,
           'stages[0].specialization[2]: a value is missing')
    mutate('spec-id-twice', c, lambda d: d['stages'][0]['specialization'][5].update(id=0), INV,
           'stages[0].specialization[5].id: constant 0 is already specialization[1]')
    mutate('spec-undeclared', c, lambda d: d['stages'][0]['specialization'][5].update(id=77), INV,
           "stages[0].specialization[5]: the stage's SPIR-V declares no specialization constant 77")
    mutate('spec-bool-as-int', c, lambda d: d['stages'][0]['specialization'][1].update(bool=1), INV,
           'stages[0].specialization[1].bool: a boolean expected, not an integer')
    mutate('spec-too-many', c,
           lambda d: d['stages'][0]['specialization'].extend([{'id': 20 + i, 'int': 0} for i in range(3)]),
           CAP, 'stages[0].specialization: 9 elements, at most 8')
    # layout
    mutate('binding-unknown-member', c,
           lambda d: d['layout']['sets'][0]['bindings'][0].update(bindng=0), INV,
           'layout.sets[0].bindings[0].bindng: unknown member')
    mutate('binding-type-missing', c, lambda d: d['layout']['sets'][0]['bindings'][0].pop('type'), INV,
           'layout.sets[0].bindings[0].type: a required member is missing')
    mutate('binding-stages-string', c,
           lambda d: d['layout']['sets'][0]['bindings'][0].update(stages='VK_SHADER_STAGE_COMPUTE_BIT'), INV,
           'layout.sets[0].bindings[0].stages: an array expected, not a string')
    mutate('binding-stage-unknown', c,
           lambda d: d['layout']['sets'][0]['bindings'][0].update(stages=['VK_SHADER_STAGE_COMPUTE']), INV,
           'layout.sets[0].bindings[0].stages[0]: "VK_SHADER_STAGE_COMPUTE" is no VkShaderStageFlagBits name')
    mutate('binding-type-unsupported', c,
           lambda d: d['layout']['sets'][0]['bindings'][0].update(
               type='VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR'), UNS,
           'layout.sets[0].bindings[0].type: 1000150000 is not a supported VkDescriptorType')
    mutate('binding-twice', c,
           lambda d: d['layout']['sets'][0]['bindings'].append(copy.deepcopy(d['layout']['sets'][0]['bindings'][0])),
           INV, 'layout.sets[0].bindings[1].binding: binding 0 is already bindings[0]')
    mutate('push-size-missing', c, lambda d: d['layout']['push_constants'][0].pop('size'), INV,
           'layout.push_constants[0].size: a required member is missing')
    mutate('push-misaligned', c, lambda d: d['layout']['push_constants'][0].update(offset=2), INV,
           'layout.push_constants[0]: offset 2 and size 32 must be multiples of 4')
    mutate('sets-too-many', c, lambda d: d['layout'].update(sets=[{}] * 17), CAP,
           'layout.sets: 17 elements, at most 16')
    mutate('sampler-address-modes-short', full_dynamic,
           lambda d: d['layout']['sets'][0]['bindings'][1]['immutable_samplers'][0].update(
               address_modes=['VK_SAMPLER_ADDRESS_MODE_REPEAT'] * 2), INV,
           'layout.sets[0].bindings[1].immutable_samplers[0].address_modes: 2 elements, at least 3')
    mutate('sampler-anisotropy-low', full_dynamic,
           lambda d: d['layout']['sets'][0]['bindings'][1]['immutable_samplers'][0]['anisotropy'].update(max=0.5),
           INV, 'layout.sets[0].bindings[1].immutable_samplers[0].anisotropy.max: 0.5: must be at least 1.0')
    mutate('sampler-cubic', full_dynamic,
           lambda d: d['layout']['sets'][0]['bindings'][1]['immutable_samplers'][1].update(
               mag_filter='VK_FILTER_CUBIC_EXT'), UNS,
           'layout.sets[0].bindings[1].immutable_samplers[1].mag_filter: 1000015000 is not a supported VkFilter')
    mutate('samplers-beyond-count', full_dynamic,
           lambda d: d['layout']['sets'][0]['bindings'][1]['immutable_samplers'].append({}), CAP,
           'layout.sets[0].bindings[1].immutable_samplers: at most 2')
    # graphics state
    mutate('stride-negative', g, lambda d: d['vertex_input']['bindings'][0].update(stride=-4), INV,
           'vertex_input.bindings[0].stride: -4 is outside 0..4294967295')
    mutate('stride-too-big', g, lambda d: d['vertex_input']['bindings'][0].update(stride=2 ** 32), INV,
           'vertex_input.bindings[0].stride: 4294967296 is outside 0..4294967295')
    mutate('attribute-format-missing', g, lambda d: d['vertex_input']['attributes'][0].pop('format'), INV,
           'vertex_input.attributes[0].format: a required member is missing')
    mutate('attribute-no-binding', g, lambda d: d['vertex_input']['attributes'][0].update(binding=5), INV,
           'vertex_input.attributes[0].binding: no vertex binding 5')
    mutate('topology-unknown', g, lambda d: d.update(input_assembly={'topology': 'VK_PRIMITIVE_TOPOLOGY_HEXAGONS'}),
           INV, 'input_assembly.topology: "VK_PRIMITIVE_TOPOLOGY_HEXAGONS" is no VkPrimitiveTopology name')
    mutate('restart-integer', g, lambda d: d.update(input_assembly={'primitive_restart': 0}), INV,
           'input_assembly.primitive_restart: a boolean expected, not an integer')
    mutate('cull-mode-string', g, lambda d: d.update(rasterization={'cull_mode': 'VK_CULL_MODE_BACK_BIT'}), INV,
           'rasterization.cull_mode: an array expected, not a string')
    mutate('line-width-huge', g, lambda d: d.update(rasterization={'line_width': 1e39}), INV,
           'rasterization.line_width: 1e+39 is outside a float\'s range')
    mutate('line-width-zero', g, lambda d: d.update(rasterization={'line_width': 0}), INV,
           'rasterization.line_width: 0 is not positive')
    mutate('depth-bias-null', g, lambda d: d.update(rasterization={'depth_bias': None}), INV,
           'rasterization.depth_bias: an object expected, not null')
    mutate('viewports-differ', g, lambda d: d.update(viewport={'viewports': 2, 'scissors': 1}), INV,
           'viewport.scissors: 1 differs from the viewport count 2')
    mutate('sample-mask-long', g, lambda d: d.update(multisample={'sample_mask': [1, 2, 3]}), CAP,
           'multisample.sample_mask: 3 elements, at most 2')
    mutate('samples-two-bits', g, lambda d: d.update(multisample={'samples': 'VK_SAMPLE_COUNT_FLAG_BITS_MAX_ENUM'}),
           INV, 'multisample.samples: "VK_SAMPLE_COUNT_FLAG_BITS_MAX_ENUM" is no VkSampleCountFlagBits name')
    mutate('stencil-op-unknown', g,
           lambda d: d.update(depth_stencil={'front': {'fail': 'VK_STENCIL_OP_EXPLODE'}}), INV,
           'depth_stencil.front.fail: "VK_STENCIL_OP_EXPLODE" is no VkStencilOp name')
    mutate('blend-op-advanced', g,
           lambda d: d.update(color_blend={'attachments': [{'color_op': 'VK_BLEND_OP_MULTIPLY_EXT'}]}), UNS,
           'color_blend.attachments[0].color_op: 1000148012 is not a supported VkBlendOp')
    mutate('blend-beyond-colors', g,
           lambda d: d.update(color_blend={'attachments': [None, {'enable': False}]}), INV,
           'color_blend.attachments[1]: the pipeline renders to 1 colour attachments')
    mutate('constants-short', g, lambda d: d.update(color_blend={'constants': [1, 1, 1]}), INV,
           'color_blend.constants: 3 elements, at least 4')
    mutate('dynamic-state-twice', g,
           lambda d: d.update(dynamic_states=['VK_DYNAMIC_STATE_SCISSOR', 'VK_DYNAMIC_STATE_SCISSOR']), INV,
           'dynamic_states[1]: already dynamic_states[0]')
    mutate('dynamic-state-unsupported', g,
           lambda d: d.update(dynamic_states=['VK_DYNAMIC_STATE_LINE_STIPPLE_EXT']), UNS,
           'dynamic_states[0]: 1000259000 is not a supported VkDynamicState')
    # rendering
    mutate('color-formats-too-many', g,
           lambda d: d['rendering'].update(color_formats=['VK_FORMAT_R8_UNORM'] * 9), CAP,
           'rendering.color_formats: 9 elements, at most 8')
    mutate('depth-format-color', g, lambda d: d['rendering'].update(depth_format='VK_FORMAT_R8_UNORM'), INV,
           'rendering.depth_format: 9 has no depth component')
    mutate('rendering-and-pass', g, lambda d: d.update(render_pass={}), INV,
           'render_pass: a recipe renders with dynamic rendering (rendering) or a render pass, not both')
    mutate('subpass-external-typo', render_pass,
           lambda d: d['render_pass']['dependencies'][0].update(src_subpass='VK_SUBPASS_INTERNAL'), INV,
           'render_pass.dependencies[0].src_subpass: "VK_SUBPASS_INTERNAL": an integer or "VK_SUBPASS_EXTERNAL"')
    mutate('subpass-ref-unused-typo', render_pass,
           lambda d: d['render_pass']['subpasses'][0].update(colors=[0, 'VK_ATTACHMENT_UNUSED_']), INV,
           'render_pass.subpasses[0].colors[1]: "VK_ATTACHMENT_UNUSED_": an integer or "VK_ATTACHMENT_UNUSED"')
    mutate('subpass-depth-string', render_pass,
           lambda d: d['render_pass']['subpasses'][0].update(depth_stencil='2'), INV,
           'render_pass.subpasses[0].depth_stencil: an attachment index (or null) expected, not a string')
    mutate('subpass-ref-out-of-pass', render_pass,
           lambda d: d['render_pass']['subpasses'][1].update(colors=[7]), INV,
           'render_pass.subpasses[1].colors[0]: 7 is not an attachment index (the pass has 3)')
    mutate('pass-subpass-missing', render_pass, lambda d: d['render_pass'].update(subpass=2), INV,
           'render_pass.subpass: 2: the pass has 2 subpasses')
    mutate('access-mask-unknown', render_pass,
           lambda d: d['render_pass']['dependencies'][1].update(dst_access_mask=['VK_ACCESS_EVERYTHING_BIT']),
           INV, 'render_pass.dependencies[1].dst_access_mask[0]: "VK_ACCESS_EVERYTHING_BIT" is no VkAccessFlagBits name')
    mutate('flags-unsupported', g, lambda d: d.update(flags=['VK_PIPELINE_CREATE_DERIVATIVE_BIT']), UNS,
           'flags: 0x4 is not supported in a recipe')

    for sub in ('good', 'bad'):
        path = os.path.join(HERE, sub)
        for f in os.listdir(path) if os.path.isdir(path) else []:
            if not f.endswith('.golden.json'):
                os.remove(os.path.join(path, f))
        os.makedirs(path, exist_ok=True)
    # Seeds libFuzzer found (regress-*) are kept.
    os.makedirs(FUZZ, exist_ok=True)
    for f in os.listdir(FUZZ):
        if f.startswith('good-') or f.startswith('bad-'):
            os.remove(os.path.join(FUZZ, f))

    def write(path, text):
        with open(path, 'w', encoding='utf-8', newline='\n') as f:
            f.write(text)

    for name, doc in good.items():
        text = json.dumps(doc, indent=2) + '\n'
        write(os.path.join(HERE, 'good', name + '.json'), text)
        write(os.path.join(FUZZ, 'good-' + name + '.json'), text)
    for name, doc, code, message in bad:
        text = doc if isinstance(doc, str) else json.dumps(doc, indent=2) + '\n'
        write(os.path.join(HERE, 'bad', name + '.json'), text)
        write(os.path.join(HERE, 'bad', name + '.expect'), code + '\n' + message + '\n')
        write(os.path.join(FUZZ, 'bad-' + name + '.json'), text)
    print('%d good, %d bad' % (len(good), len(bad)))


if __name__ == '__main__':
    main()
