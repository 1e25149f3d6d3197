#!/usr/bin/python3
# PyGObject tests of PscRecipe and the recipe methods of PscCache: Python
# drives the library on a headless lavapipe device with validation. The
# SPIR-V is compiled in the build (PSC_TEST_VERT_SPV, PSC_TEST_FRAG_SPV,
# PSC_TEST_SPV).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import sys
import tempfile
import time
import unittest

try:
    import gi
    gi.require_version('GLib', '2.0')
    gi.require_version('Gio', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GLib, Gio, Psc
except (ImportError, ValueError) as e:
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)

from recipe_fixtures import DeviceTestCase, compute_recipe, spirv_variant  # noqa: E402

# Vulkan values (vulkan_core.h).
VERTEX, FRAGMENT, COMPUTE = 0x1, 0x10, 0x20
UNIFORM_BUFFER, COMBINED_IMAGE_SAMPLER, STORAGE_BUFFER = 6, 1, 7
R8G8B8A8_UNORM, D32_SFLOAT = 37, 126
R32G32B32_SFLOAT, R32G32_SFLOAT, R32G32B32A32_SFLOAT = 106, 103, 109
VERTEX_RATE = 0
POLYGON_FILL, CULL_BACK, FRONT_CCW = 0, 2, 0
COMPARE_LESS = 1
BLEND_ONE, BLEND_ZERO, BLEND_SRC_ALPHA, BLEND_ONE_MINUS_SRC_ALPHA, BLEND_ADD = 1, 0, 6, 7, 0
SAMPLE_1 = 1
LINEAR, MIPMAP_LINEAR, CLAMP_TO_EDGE = 1, 1, 2


def graphics_recipe(vert, frag, mode=0, tint=False, blend=False):
    r = Psc.Recipe.new_graphics()
    vs = r.add_stage(VERTEX, vert, 'main')
    fs = r.add_stage(FRAGMENT, frag, None)
    r.set_specialization_int(vs, 0, 3)
    r.set_specialization_float(vs, 1, 0.5)
    r.set_specialization_int(fs, 0, mode)
    r.set_specialization_bool(fs, 2, tint)
    sampler = Psc.SamplerInfo.new()
    sampler.set_filters(LINEAR, LINEAR, MIPMAP_LINEAR)
    sampler.set_address_modes(CLAMP_TO_EDGE, CLAMP_TO_EDGE, CLAMP_TO_EDGE)
    sampler.set_lod(0.0, 0.0, 8.0)
    s = r.add_set_layout(0)
    r.add_set_binding(s, 0, UNIFORM_BUFFER, 1, VERTEX, 0)
    r.add_set_binding(s, 1, COMBINED_IMAGE_SAMPLER, 1, FRAGMENT, 0)
    r.add_immutable_sampler(s, 1, sampler)
    r.add_push_constant_range(VERTEX, 0, 64)
    r.add_vertex_binding(0, 48, VERTEX_RATE)
    r.add_vertex_attribute(0, 0, R32G32B32_SFLOAT, 0)
    r.add_vertex_attribute(1, 0, R32G32B32_SFLOAT, 12)
    r.add_vertex_attribute(2, 0, R32G32_SFLOAT, 24)
    r.add_vertex_attribute(3, 0, R32G32B32A32_SFLOAT, 32)
    r.set_rasterization(POLYGON_FILL, CULL_BACK, FRONT_CCW, 1.0)
    r.set_depth(True, True, COMPARE_LESS)
    r.add_color_format(R8G8B8A8_UNORM)
    r.set_depth_stencil_format(D32_SFLOAT, 0)
    if blend:
        r.set_blend_attachment(0, True, BLEND_SRC_ALPHA, BLEND_ONE_MINUS_SRC_ALPHA, BLEND_ADD,
                               BLEND_ONE, BLEND_ZERO, BLEND_ADD, 0xF)
    return r


class RecipeTestCase(DeviceTestCase):
    def new_cache(self, **props):
        return Psc.Cache(device=self.device, backend=Psc.Backend.DYNAMIC_RENDERING, **props)


    def pump_until(self, cache, done, timeout=30.0):
        frame = [1000]
        loop = GLib.MainLoop()
        deadline = time.monotonic() + timeout

        def tick():
            cache.begin_frame(frame[0], frame[0])
            frame[0] += 1
            if done() or time.monotonic() > deadline:
                loop.quit()
                return GLib.SOURCE_REMOVE
            return GLib.SOURCE_CONTINUE
        GLib.timeout_add(1, tick)
        loop.run()
        self.assertTrue(done(), 'timed out')


class RecipeTests(RecipeTestCase):
    def test_sync_dedup_and_counters(self):
        cache = self.new_cache()
        r = graphics_recipe(self.vert, self.frag)
        self.assertEqual(r.get_kind(), Psc.RecipeKind.GRAPHICS)
        self.assertEqual(r.get_n_stages(), 2)
        self.assertEqual(r.get_stage(1), FRAGMENT)
        self.assertEqual(r.get_stage_entry_point(1), 'main')
        self.assertEqual(r.get_stage_spirv(0).get_data(), self.vert.get_data())
        r.validate()
        creations = cache.props.creations
        p = cache.get_pipeline_for_recipe(r)
        self.assertIsInstance(p, int)
        self.assertNotEqual(p, 0)
        after_first = cache.props.creations
        self.assertGreater(after_first, creations)
        hits = cache.props.hits
        # An equal recipe built separately: the same pipeline, no creation.
        same = graphics_recipe(self.vert, self.frag)
        self.assertTrue(r.equal(same))
        self.assertEqual(r.hash(), same.hash())
        self.assertEqual(cache.get_pipeline_for_recipe(same), p)
        self.assertEqual(cache.props.creations, after_first)
        self.assertGreater(cache.props.hits, hits)
        stats = cache.get_stats()
        self.assertEqual(stats.get_total(Psc.Counter.CREATIONS), after_first)
        # Another specialization: another pipeline.
        other = graphics_recipe(self.vert, self.frag, mode=2)
        self.assertFalse(r.equal(other))
        q = cache.get_pipeline_for_recipe(other)
        self.assertNotIn(q, (0, p))
        # Parts: the layout is shared, the sampler is the layout's.
        layout = cache.get_pipeline_layout_for_recipe(r)
        self.assertNotEqual(layout, 0)
        self.assertEqual(cache.get_pipeline_layout_for_recipe(other), layout)
        self.assertNotEqual(cache.get_set_layout_for_recipe(r, 0), 0)
        info = Psc.SamplerInfo.new()
        info.set_filters(LINEAR, LINEAR, MIPMAP_LINEAR)
        info.set_address_modes(CLAMP_TO_EDGE, CLAMP_TO_EDGE, CLAMP_TO_EDGE)
        info.set_lod(0.0, 0.0, 8.0)
        self.assertEqual(cache.get_sampler_for_info(info), cache.get_sampler_for_info(info.copy()))

    def test_compute(self):
        cache = self.new_cache()
        r = compute_recipe(self.comp)
        self.assertEqual(r.get_kind(), Psc.RecipeKind.COMPUTE)
        p = cache.get_pipeline_for_recipe(r)
        self.assertNotEqual(p, 0)
        self.assertEqual(cache.get_pipeline_for_recipe(compute_recipe(self.comp)), p)

    def test_async(self):
        cache = self.new_cache()
        r = graphics_recipe(self.vert, self.frag, blend=True)
        result = {}

        def done(source, res):
            try:
                result['pipeline'] = source.get_pipeline_for_recipe_finish(res)
            except GLib.Error as e:
                result['error'] = e
        cache.get_pipeline_for_recipe_async(r, None, done)
        self.pump_until(cache, lambda: result)
        self.assertNotIn('error', result)
        self.assertNotEqual(result['pipeline'], 0)
        self.assertEqual(cache.get_pipeline_for_recipe(r), result['pipeline'])

        cancelled = {}
        cancellable = Gio.Cancellable()

        def done2(source, res):
            try:
                cancelled['pipeline'] = source.get_pipeline_for_recipe_finish(res)
            except GLib.Error as e:
                cancelled['error'] = e
        cache.get_pipeline_for_recipe_async(graphics_recipe(self.vert, self.frag, mode=5),
                                            cancellable, done2)
        cancellable.cancel()
        self.pump_until(cache, lambda: cancelled)
        self.assertTrue(cancelled['error'].matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED))

    def test_request_policies(self):
        cache = self.new_cache()
        r = graphics_recipe(self.vert, self.frag, mode=3)
        p, res = cache.request_recipe(r, Psc.MissPolicy.SKIP, Psc.RequestFlags.NONE)
        self.assertEqual(p, 0)
        self.assertEqual(res, Psc.RequestResult.PENDING)
        state = {}

        def ready():
            state['p'], state['res'] = cache.request_recipe(r, Psc.MissPolicy.SKIP,
                                                            Psc.RequestFlags.NONE)
            return state['res'] == Psc.RequestResult.READY
        self.pump_until(cache, ready)
        self.assertNotEqual(state['p'], 0)
        self.assertEqual(cache.get_pipeline_for_recipe(r), state['p'])

    def test_pipeline_ready_signal(self):
        cache = self.new_cache()
        r = graphics_recipe(self.vert, self.frag, mode=9)
        key_hash = cache.get_recipe_key_hash(r)
        self.assertIsInstance(key_hash, int)
        self.assertEqual(cache.get_recipe_key_hash(graphics_recipe(self.vert, self.frag, mode=9)),
                         key_hash)
        self.assertNotEqual(cache.get_recipe_key_hash(graphics_recipe(self.vert, self.frag, mode=10)),
                            key_hash)
        ready = []
        cache.connect('pipeline-ready', lambda c, p, h: ready.append((p, h)))
        p, res = cache.request_recipe(r, Psc.MissPolicy.SKIP, Psc.RequestFlags.NONE)
        self.assertEqual(res, Psc.RequestResult.PENDING)
        self.assertEqual(ready, [], 'signals come from begin_frame only')
        self.pump_until(cache, lambda: any(h == key_hash for _, h in ready))
        pipeline = [p for p, h in ready if h == key_hash][0]
        got, res = cache.request_recipe(r, Psc.MissPolicy.SKIP, Psc.RequestFlags.NONE)
        self.assertEqual(res, Psc.RequestResult.READY)
        self.assertEqual(got, pipeline)

    def test_bad_recipes(self):
        r = Psc.Recipe.new_graphics()
        with self.assertRaises(GLib.Error) as cm:
            r.add_stage(VERTEX, GLib.Bytes.new(b'\x00' * 16), None)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'stages[0].spirv: ')
        fs = r.add_stage(FRAGMENT, self.frag, None)
        with self.assertRaises(GLib.Error) as cm:
            r.set_specialization_int(fs, 9, 1)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'stages[0].specialization[0]: ')
        with self.assertRaises(GLib.Error) as cm:
            r.set_specialization_int(fs, 0, 1 << 40)   # MODE is a 32-bit int
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'stages[0].specialization[0]: ')
        with self.assertRaises(GLib.Error) as cm:
            r.add_color_format(0x7fffffff)
        self.assertPscError(cm, Psc.Error.UNSUPPORTED, 'rendering.color_formats[0]: ')
        with self.assertRaises(GLib.Error) as cm:
            r.validate()
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'stages: ')
        cache = self.new_cache()
        with self.assertRaises(GLib.Error) as cm:
            cache.get_pipeline_for_recipe(r)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'stages: ')
        # A compute recipe has no graphics state.
        c = Psc.Recipe.new_compute()
        with self.assertRaises(GLib.Error) as cm:
            c.add_vertex_binding(0, 16, VERTEX_RATE)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT, 'vertex_input: ')

    def test_json_round_trip(self):
        r = graphics_recipe(self.vert, self.frag, mode=1, tint=True, blend=True)
        text = r.to_json(True)
        doc = json.loads(text)
        self.assertEqual(doc['version'], Psc.RECIPE_JSON_VERSION)
        self.assertEqual(doc['kind'], 'graphics')
        back = Psc.Recipe.new_from_json(text.encode())
        self.assertTrue(back.equal(r))
        self.assertEqual(back.to_json(True), text)
        cache = self.new_cache()
        self.assertEqual(cache.get_pipeline_for_recipe(back), cache.get_pipeline_for_recipe(r))
        doc['stages'][1]['specialization'][0]['bogus'] = 1
        with self.assertRaises(GLib.Error) as cm:
            Psc.Recipe.new_from_json(json.dumps(doc).encode())
        self.assertIn('stages[1].specialization[0]', cm.exception.message)
        with self.assertRaises(GLib.Error):
            Psc.Recipe.new_from_json(b'{"version": 1, "kind": "graphics"')

    def test_hot_reload(self):
        cache = self.new_cache()
        shader_id = cache.register_shader_bytes(self.frag)
        r = graphics_recipe(self.vert, self.frag)
        p1 = cache.get_pipeline_for_recipe(r)
        frag2 = spirv_variant(self.frag, 1)
        cache.replace_shader_bytes(shader_id, frag2)
        cache.begin_frame(1, 0)
        r2 = graphics_recipe(self.vert, frag2)
        p2 = cache.get_pipeline_for_recipe(r2)
        self.assertNotIn(p2, (0, p1))
        # The new content is the registered shader's next generation: the
        # recipe with it finds the same pipeline again.
        self.assertEqual(cache.get_pipeline_for_recipe(graphics_recipe(self.vert, frag2)), p2)
        cache.release_shader_id(shader_id)

    def test_evict(self):
        cache = self.new_cache()
        cache.get_pipeline_for_recipe(graphics_recipe(self.vert, self.frag, mode=4))
        entries = cache.props.entries
        for f in range(1, 10):
            cache.begin_frame(f, f)
        self.assertGreater(cache.evict(2), 0)
        self.assertLess(cache.props.entries, entries)

    def test_pin_and_fallback(self):
        cache = self.new_cache()
        p = cache.get_pipeline_for_recipe(graphics_recipe(self.vert, self.frag, mode=6))
        cache.pin_object(Psc.ObjectKind.GRAPHICS_PIPELINE, p)
        for f in range(1, 10):
            cache.begin_frame(f, f)
        self.assertEqual(cache.evict(2), 0)
        cache.unpin_object(Psc.ObjectKind.GRAPHICS_PIPELINE, p)
        for f in range(10, 16):
            cache.begin_frame(f, f)
        self.assertEqual(cache.evict(2), 1)
        with self.assertRaises(GLib.Error) as cm:
            cache.pin_object(Psc.ObjectKind.SAMPLER, 0x1234)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)

        fallback = cache.get_pipeline_for_recipe(graphics_recipe(self.vert, self.frag, mode=7))
        cache.set_fallback_pipeline(fallback)
        got, res = cache.request_recipe(graphics_recipe(self.vert, self.frag, mode=8),
                                        Psc.MissPolicy.FALLBACK, Psc.RequestFlags.NONE)
        self.assertEqual(res, Psc.RequestResult.FALLBACK)
        self.assertEqual(got, fallback)
        with self.assertRaises(GLib.Error) as cm:
            cache.set_fallback_pipeline(0x5678)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)
        # Let the pending compile finish before the cache goes.
        state = {}

        def ready():
            state['p'], state['res'] = cache.request_recipe(
                graphics_recipe(self.vert, self.frag, mode=8), Psc.MissPolicy.SKIP,
                Psc.RequestFlags.NONE)
            return state['res'] == Psc.RequestResult.READY
        self.pump_until(cache, ready)

    def test_persist_and_prewarm(self):
        with tempfile.TemporaryDirectory() as d:
            cache = self.new_cache(cache_directory=d)
            recipes = [graphics_recipe(self.vert, self.frag, mode=m) for m in range(3)]
            pipelines = [cache.get_pipeline_for_recipe(r) for r in recipes]
            self.assertEqual(len(set(pipelines)), 3)
            cache.save()
            cache.close(0)
            del cache
            warm = self.new_cache(cache_directory=d)
            # Prewarm resolves recipes against registered shaders.
            v = warm.register_shader_bytes(self.vert)
            f = warm.register_shader_bytes(self.frag)
            warm.prewarm()
            self.pump_until(warm, warm.get_prewarm_done)
            stats = warm.get_stats()
            self.assertGreaterEqual(stats.get_persist(Psc.PersistCounter.RECIPES_LOADED), 3)
            created = warm.props.creations
            hits = warm.props.hits
            for r in recipes:
                self.assertNotEqual(warm.get_pipeline_for_recipe(r), 0)
            self.assertEqual(warm.props.creations, created, 'prewarmed pipelines were created again')
            self.assertGreater(warm.props.hits, hits)
            warm.release_shader_id(v)
            warm.release_shader_id(f)
            warm.close(0)


if __name__ == '__main__':
    unittest.main()
