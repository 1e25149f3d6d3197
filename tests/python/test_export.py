#!/usr/bin/python3
# PyGObject tests of Psc.Cache.get_recipe_for_pipeline and
# get_recipes_for_log: the recipe of a pipeline gives that pipeline back,
# creating nothing, directly and through its JSON form (graphics on both
# backends, compute); what it cannot give fails with its error; a saved
# recipes log comes back as the recipes of its pipelines. Headless lavapipe
# device with validation; SPIR-V from the build (PSC_TEST_VERT_SPV,
# PSC_TEST_FRAG_SPV, PSC_TEST_SPV).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys
import tempfile
import unittest

try:
    import gi
    gi.require_version('GLib', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GLib, Psc
except (ImportError, ValueError) as e:
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)

from recipe_fixtures import DeviceTestCase, compute_recipe, spirv_variant  # noqa: E402

# Vulkan values (vulkan_core.h).
VERTEX, FRAGMENT, COMPUTE = 0x1, 0x10, 0x20
UNIFORM_BUFFER, COMBINED_IMAGE_SAMPLER, STORAGE_BUFFER = 6, 1, 7
R8G8B8A8_UNORM, D32_SFLOAT = 37, 126
R32G32B32_SFLOAT, R32G32_SFLOAT, R32G32B32A32_SFLOAT = 106, 103, 109
POLYGON_FILL, CULL_BACK, FRONT_CCW = 0, 2, 0
COMPARE_LESS = 1
BLEND_ONE, BLEND_ZERO, BLEND_SRC_ALPHA, BLEND_ONE_MINUS_SRC_ALPHA, BLEND_ADD = 1, 0, 6, 7, 0
SAMPLE_1 = 1
LINEAR, MIPMAP_LINEAR, CLAMP_TO_EDGE = 1, 1, 2
DYNAMIC_DEPTH_BIAS = 3


def graphics_recipe(vert, frag, mode=0, legacy=False):
    r = Psc.Recipe.new_graphics()
    vs = r.add_stage(VERTEX, vert, 'main')
    fs = r.add_stage(FRAGMENT, frag, None)
    r.set_specialization_int(vs, 0, 3)
    r.set_specialization_float(vs, 1, 0.5)
    r.set_specialization_int(fs, 0, mode)
    r.set_specialization_bool(fs, 2, True)
    sampler = Psc.SamplerInfo.new()
    sampler.set_filters(LINEAR, LINEAR, MIPMAP_LINEAR)
    sampler.set_address_modes(CLAMP_TO_EDGE, CLAMP_TO_EDGE, CLAMP_TO_EDGE)
    sampler.set_lod(0.0, 0.0, 8.0)
    s = r.add_set_layout(0)
    r.add_set_binding(s, 0, UNIFORM_BUFFER, 1, VERTEX, 0)
    r.add_set_binding(s, 1, COMBINED_IMAGE_SAMPLER, 1, FRAGMENT, 0)
    r.add_immutable_sampler(s, 1, sampler)
    r.add_push_constant_range(VERTEX, 0, 64)
    r.add_vertex_binding(0, 48, 0)
    r.add_vertex_attribute(0, 0, R32G32B32_SFLOAT, 0)
    r.add_vertex_attribute(1, 0, R32G32B32_SFLOAT, 12)
    r.add_vertex_attribute(2, 0, R32G32_SFLOAT, 24)
    r.add_vertex_attribute(3, 0, R32G32B32A32_SFLOAT, 32)
    r.set_rasterization(POLYGON_FILL, CULL_BACK, FRONT_CCW, 1.0)
    r.set_depth(True, True, COMPARE_LESS)
    r.set_depth_bias(True, 1.25, 0.0, 2.0)
    r.add_dynamic_state(DYNAMIC_DEPTH_BIAS)
    r.set_blend_attachment(0, True, BLEND_SRC_ALPHA, BLEND_ONE_MINUS_SRC_ALPHA, BLEND_ADD,
                           BLEND_ONE, BLEND_ZERO, BLEND_ADD, 0xF)
    if legacy:
        color = r.add_pass_attachment(R8G8B8A8_UNORM, SAMPLE_1)
        depth = r.add_pass_attachment(D32_SFLOAT, SAMPLE_1)
        r.add_subpass([color], [], [], depth)
    else:
        r.add_color_format(R8G8B8A8_UNORM)
        r.set_depth_stencil_format(D32_SFLOAT, 0)
    return r


class ExportTestCase(DeviceTestCase):
    def new_cache(self, backend=Psc.Backend.DYNAMIC_RENDERING, **props):
        return Psc.Cache(device=self.device, backend=backend, **props)


    def assertRoundTrip(self, cache, pipeline):
        """The recipe of pipeline, checked: it gives pipeline back, creating
        nothing, directly and from its JSON form."""
        creations = cache.props.creations
        recipe = cache.get_recipe_for_pipeline(pipeline)
        self.assertIsInstance(recipe, Psc.Recipe)
        recipe.validate()
        self.assertEqual(cache.get_pipeline_for_recipe(recipe), pipeline)
        back = Psc.Recipe.new_from_json(recipe.to_json(False).encode())
        self.assertTrue(back.equal(recipe))
        self.assertEqual(cache.get_pipeline_for_recipe(back), pipeline)
        self.assertEqual(cache.props.creations, creations)
        return recipe


class RecipeForPipelineTests(ExportTestCase):
    def test_graphics(self):
        cache = self.new_cache()
        r = graphics_recipe(self.vert, self.frag)
        p = cache.get_pipeline_for_recipe(r)
        got = self.assertRoundTrip(cache, p)
        # Equal to the recipe it was made from: the same pipeline.
        self.assertTrue(got.equal(r))
        self.assertEqual(got.hash(), r.hash())
        self.assertEqual(got.get_n_stages(), 2)
        self.assertEqual(sorted(got.get_stage(i) for i in range(2)), [VERTEX, FRAGMENT])
        for i in range(2):
            want = self.vert if got.get_stage(i) == VERTEX else self.frag
            self.assertEqual(got.get_stage_spirv(i).get_data(), want.get_data())
        self.assertEqual(got.get_n_set_layouts(), 1)
        self.assertFalse(got.get_uses_render_pass())
        doc = json.loads(got.to_json(True))
        # A key keeps a value's bytes, not its type: every constant comes
        # back as the unsigned integer of its bytes.
        specs = [s for st in doc['stages'] for s in st['specialization']]
        self.assertEqual(len(specs), 4)
        self.assertTrue(all('uint' in s for s in specs), specs)
        self.assertIn(0x3f000000, [s['uint'] for s in specs])   # 0.5 as a float's bits
        self.assertIn(1, [s['uint'] for s in specs])            # True as a VkBool32
        # Another pipeline, another recipe.
        q = cache.get_pipeline_for_recipe(graphics_recipe(self.vert, self.frag, mode=2))
        self.assertFalse(self.assertRoundTrip(cache, q).equal(got))

    def test_legacy(self):
        cache = self.new_cache(Psc.Backend.LEGACY)
        r = graphics_recipe(self.vert, self.frag, legacy=True)
        p = cache.get_pipeline_for_recipe(r)
        got = self.assertRoundTrip(cache, p)
        self.assertTrue(got.get_uses_render_pass())
        self.assertTrue(got.equal(r))

    def test_compute(self):
        cache = self.new_cache()
        p = cache.get_pipeline_for_recipe(compute_recipe(self.comp))
        got = self.assertRoundTrip(cache, p)
        self.assertEqual(got.get_kind(), Psc.RecipeKind.COMPUTE)
        self.assertTrue(got.equal(compute_recipe(self.comp)))

    def test_errors(self):
        cache = self.new_cache()
        for handle in (0, 0x1234):
            with self.assertRaises(GLib.Error) as cm:
                cache.get_recipe_for_pipeline(handle)
            self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE, 'pipeline: ')
        # Another cache's pipeline is foreign here.
        other = self.new_cache()
        q = other.get_pipeline_for_recipe(compute_recipe(self.comp))
        with self.assertRaises(GLib.Error) as cm:
            cache.get_recipe_for_pipeline(q)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)
        # A layout is no pipeline.
        layout = cache.get_pipeline_layout_for_recipe(compute_recipe(self.comp))
        with self.assertRaises(GLib.Error) as cm:
            cache.get_recipe_for_pipeline(layout)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)

    def test_hot_reload(self):
        cache = self.new_cache()
        shader_id = cache.register_shader_bytes(self.frag)
        p1 = cache.get_pipeline_for_recipe(graphics_recipe(self.vert, self.frag))
        self.assertRoundTrip(cache, p1)
        frag2 = spirv_variant(self.frag, 3)
        cache.replace_shader_bytes(shader_id, frag2)
        # The old pipeline's fragment code is gone from the cache.
        with self.assertRaises(GLib.Error) as cm:
            cache.get_recipe_for_pipeline(p1)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'pipeline: ')
        self.assertIn('hot-reloaded', cm.exception.message)
        cache.begin_frame(1, 0)
        p2 = cache.get_pipeline_for_recipe(graphics_recipe(self.vert, frag2))
        got = self.assertRoundTrip(cache, p2)
        fs = [i for i in range(2) if got.get_stage(i) == FRAGMENT][0]
        self.assertEqual(got.get_stage_spirv(fs).get_data(), frag2.get_data())
        cache.release_shader_id(shader_id)

    def test_pass_through(self):
        cache = self.new_cache(flags=Psc.CacheFlags.PASS_THROUGH)
        p = cache.get_pipeline_for_recipe(compute_recipe(self.comp))
        with self.assertRaises(GLib.Error) as cm:
            cache.get_recipe_for_pipeline(p)
        self.assertPscError(cm, Psc.Error.UNSUPPORTED)


class RecipesForLogTests(ExportTestCase):
    def saved_log(self, backend=Psc.Backend.DYNAMIC_RENDERING, legacy=False):
        with tempfile.TemporaryDirectory() as d:
            cache = self.new_cache(backend, cache_directory=d)
            recipes = [graphics_recipe(self.vert, self.frag, mode=m, legacy=legacy)
                       for m in range(3)]
            recipes.append(compute_recipe(self.comp))
            for r in recipes:
                self.assertNotEqual(cache.get_pipeline_for_recipe(r), 0)
            cache.save()
            cache.close(0)
            with open(os.path.join(d, 'recipes.psclog'), 'rb') as f:
                return recipes, GLib.Bytes.new(f.read())

    def export(self, cache, log):
        got = []

        def each(recipe_hash, recipe, reason, message, *data):
            got.append((recipe_hash, recipe, reason, message))
            return True
        self.assertTrue(cache.get_recipes_for_log(log, each))
        return got

    def test_log(self):
        recipes, log = self.saved_log()
        cache = self.new_cache()   # in memory, nothing registered
        got = self.export(cache, log)
        self.assertEqual(len(got), len(recipes))
        self.assertEqual(len({h for h, _, _, _ in got}), len(recipes))
        for recipe_hash, recipe, reason, message in got:
            self.assertIsInstance(recipe_hash, int)
            self.assertIsNone(reason, message)
            self.assertEqual(sum(1 for r in recipes if r.equal(recipe)), 1)
        # Its recipes make the pipelines the log recorded (now compiled).
        pipelines = {cache.get_pipeline_for_recipe(r) for _, r, _, _ in got}
        self.assertEqual(len(pipelines), len(recipes))
        for p in pipelines:
            self.assertRoundTrip(cache, p)

    def test_legacy_log(self):
        recipes, log = self.saved_log(Psc.Backend.LEGACY, legacy=True)
        got = self.export(self.new_cache(Psc.Backend.LEGACY), log)
        self.assertTrue(all(reason is None for _, _, reason, _ in got))
        # On the dynamic backend the graphics records are rejected.
        got = self.export(self.new_cache(), log)
        reasons = sorted(reason or 'ok' for _, _, reason, _ in got)
        self.assertEqual(reasons, ['ok', 'rejected', 'rejected', 'rejected'])

    def test_stop_and_bad_logs(self):
        _, log = self.saved_log()
        cache = self.new_cache()
        seen = []
        self.assertTrue(cache.get_recipes_for_log(log, lambda *a: seen.append(a) and False))
        self.assertEqual(len(seen), 1)
        for bad in (b'', b'PSCLOG\r\n' + b'\x00' * 24, log.get_data()[:20]):
            with self.assertRaises(GLib.Error) as cm:
                cache.get_recipes_for_log(GLib.Bytes.new(bad), lambda *a: True)
            self.assertPscError(cm, Psc.Error.INVALID_DATA, 'log: ')


if __name__ == '__main__':
    unittest.main()
