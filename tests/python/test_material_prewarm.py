#!/usr/bin/python3
# PyGObject tests of the scene prewarm (issue 12): a pass context whose
# recipe provider is Python (Psc.PassContext.new_for_recipes), duplicates
# collapsed in input order, the budget cut reported with its first
# entries, a provider returning None and a recipe the cache refuses
# reported per request while the rest goes on, every prewarmed pipeline
# Ready (a hit of request_recipe) after pumping begin_frame; headless
# lavapipe with validation, which stays silent.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recipe_fixtures import read_bytes  # noqa: E402
from test_recipes import GLib, Psc, graphics_recipe  # noqa: E402

F = Psc.MaterialFlags


class PrewarmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)
        cls.vert = read_bytes('PSC_TEST_VERT_SPV')
        cls.frag = read_bytes('PSC_TEST_FRAG_SPV')

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')

    def new_cache(self):
        return Psc.Cache(device=self.device, backend=Psc.Backend.DYNAMIC_RENDERING)

    def recipe_for(self, template, key):
        name = template.get_base_name()
        if name.startswith('fail/'):
            return None
        r = graphics_recipe(self.vert, self.frag, mode=key.flags | (key.pass_ << 8),
                            tint=bool(key.flags & F.DOUBLE_SIDED))
        if name.startswith('invalid/'):
            r = Psc.Recipe.new_graphics()  # no stages: refused by the cache
        return r

    def pump(self, cache, pw, timeout=30.0):
        deadline = time.monotonic() + timeout
        frame = 1
        while pw.get_n_pending() > 0 and time.monotonic() < deadline:
            cache.begin_frame(frame, frame)
            frame += 1
            time.sleep(0.001)
        self.assertEqual(pw.get_n_pending(), 0)

    def test_python_provider(self):
        cache = self.new_cache()
        calls = []

        def provide(template, key, *data):
            calls.append((template.get_base_name(), key.flags, key.pass_))
            return self.recipe_for(template, key)

        color = Psc.PassContext.new_for_recipes(Psc.PassKind.COLOR, 'color', provide)
        shadow = Psc.PassContext.new_for_recipes(Psc.PassKind.SHADOW, 'shadow', provide)
        self.assertEqual(color.get_name(), 'color')
        self.assertEqual(shadow.get_kind(), Psc.PassKind.SHADOW)
        supported = F.ALPHA_TEST | F.DOUBLE_SIDED | F.NORMAL_MAP
        a = Psc.MaterialTemplate.new('py/a', supported, 16)
        b = Psc.MaterialTemplate.new('py/b', supported, 16)
        bad = Psc.MaterialTemplate.new('fail/x', supported, 16)
        inv = Psc.MaterialTemplate.new('invalid/y', supported, 16)
        inst = Psc.MaterialInstance.new_inline(b, self.device, F.NORMAL_MAP, GLib.Bytes.new(bytes(16)))

        pw = Psc.MaterialPrewarm.new(cache)
        self.assertEqual(pw.get_budget(), Psc.MATERIAL_PREWARM_DEFAULT_BUDGET)
        pw.add(a, F.ALPHA_TEST, color)                  # unique 0
        pw.add_instance(inst, color)                    # unique 1
        pw.add(a, F.ALPHA_TEST, color)                  # dup of 0
        pw.add(a, F.ALPHA_TEST | F.NORMAL_MAP, shadow)  # unique 2
        pw.add(a, F.ALPHA_TEST, shadow)                 # dup of 2
        pw.add(bad, F.NONE, color)                      # unique 3: provider returns None
        pw.add(inv, F.NONE, color)                      # unique 4: recipe refused
        pw.add(b, F.NORMAL_MAP | F.SKINNED, color)      # dup of 1
        pw.add(b, F.DOUBLE_SIDED, shadow)               # unique 5
        pw.run()

        self.assertEqual(pw.get_n_added(), 9)
        self.assertEqual(pw.get_n_deduplicated(), 3)
        self.assertEqual(pw.get_n_requested(), 6)
        self.assertEqual(pw.get_n_cut(), 0)
        self.assertEqual(len(calls), 6)
        order = [pw.get_entry(i)[0] for i in range(pw.get_n_entries())]
        self.assertEqual(order, [0, 1, 3, 5, 6, 8])
        self.assertEqual(pw.get_n_failed(), 2)
        self.assertEqual([pw.get_failure_entry(i) for i in range(2)], [3, 4])
        err = pw.get_failure_error(0)
        self.assertIn('fail/x', err.message)
        self.assertTrue(pw.get_failure_error(1).matches(Psc.error_quark(),
                                                        Psc.Error.INVALID_ARGUMENT))

        self.pump(cache, pw)
        self.assertEqual(pw.get_n_ready(), 4)
        # Every prewarmed pipeline is Ready: the request is a hit.
        for i in (0, 1, 2, 5):
            index, key = pw.get_entry(i)
            t = [a, b, a, None, None, b][i]
            handle, result = cache.request_recipe(self.recipe_for(t, key), Psc.MissPolicy.SKIP,
                                                  Psc.RequestFlags.NONE)
            self.assertEqual(result, Psc.RequestResult.READY)
            self.assertNotEqual(handle, 0)
        cache.close(0)

    def test_budget(self):
        cache = self.new_cache()
        ctx = Psc.PassContext.new_for_recipes(Psc.PassKind.COLOR, 'color',
                                              lambda t, k, *d: self.recipe_for(t, k))
        templates = [Psc.MaterialTemplate.new(f'py/m{i:02}', F.NONE, 0) for i in range(30)]
        pw = Psc.MaterialPrewarm.new(cache)
        pw.set_budget(4)
        for t in templates + templates:
            pw.add(t, F.NONE, ctx)
        pw.run()
        self.assertEqual(pw.get_n_deduplicated(), 30)
        self.assertEqual(pw.get_n_requested(), 4)
        self.assertEqual(pw.get_n_cut(), 26)
        cut = [pw.get_cut_entry(i) for i in range(Psc.MATERIAL_PREWARM_MAX_CUT_ENTRIES)]
        self.assertEqual(cut, list(range(4, 20)))
        self.pump(cache, pw)
        self.assertEqual(pw.get_n_ready(), 4)
        with self.assertRaises(GLib.Error):
            pw.run()
        cache.close(0)


if __name__ == '__main__':
    unittest.main()
