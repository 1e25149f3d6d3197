#!/usr/bin/python3
# PyGObject tests of managed descriptor sets and the live caches (issue 13):
# real buffers, images, views, samplers and a render pass made with ctypes
# (vk_resources.py) on a headless lavapipe device with the validation
# layer, wrapped and bound through Psc: layouts from recipes, pools,
# retained writers, entries, bind plans with dynamic offsets and accesses,
# generations, the uniform-set and framebuffer caches. The layer stays
# silent throughout.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gc
import sys
import unittest

try:
    import gi
    gi.require_version('GLib', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GLib, Psc
except (ImportError, ValueError) as e:
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)

import vk_resources as vk

NONE = Psc.ResourceFlags.NONE
STAGE_VERTEX, STAGE_FRAGMENT = vk.VK_SHADER_STAGE_VERTEX_BIT, vk.VK_SHADER_STAGE_FRAGMENT_BIT
READ_ONLY, GENERAL = vk.VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, vk.VK_IMAGE_LAYOUT_GENERAL
# VkPipelineStageFlagBits2 and VkAccessFlagBits2 (vulkan_core.h).
PS2_VERTEX, PS2_FRAGMENT = 0x8, 0x80
ACCESS2_UNIFORM_READ, ACCESS2_SAMPLED_READ = 0x8, 0x100000000
ACCESS2_STORAGE_RW = 0x200000000 | 0x400000000
PARTIALLY_BOUND = 0x4

# The typical set: a uniform buffer, a storage buffer, a combined image
# sampler, a dynamic uniform buffer.
TYPICAL = [
    (0, vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, STAGE_VERTEX),
    (1, vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, STAGE_FRAGMENT),
    (2, vk.VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, STAGE_FRAGMENT),
    (3, vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, STAGE_VERTEX),
]


def recipe_with_set(bindings, binding_flags=0):
    r = Psc.Recipe.new_graphics()
    s = r.add_set_layout(0)
    for binding, dtype, stages in bindings:
        r.add_set_binding(s, binding, dtype, 1, stages, binding_flags)
    return r


def raises(test, domain, code, fragment, fn, *args):
    with test.assertRaises(GLib.Error) as cm:
        fn(*args)
    test.assertTrue(cm.exception.matches(domain, code), cm.exception.message)
    test.assertIn(fragment, cm.exception.message)
    return cm.exception


class DescriptorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)
        cls.cache = Psc.Cache.new(cls.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        cls.vk = vk.Resources(cls.device.get_vk_device())
        cls.layout = Psc.DescriptorLayout.new_for_recipe(cls.cache, recipe_with_set(TYPICAL), 0)

    @classmethod
    def tearDownClass(cls):
        # Every wrapper, set and pool goes before the objects they name.
        del cls.layout
        gc.collect()
        cls.vk.close()

    def tearDown(self):
        gc.collect()
        self.assertEqual(self.device.get_validation_error_count(), 0)

    def buffer(self, size=4096):
        return Psc.Buffer.new(self.device, self.vk.buffer(size), size, NONE)

    def view(self, flags=NONE):
        image = self.vk.image()
        return Psc.ImageView.new(self.device, self.vk.image_view(image), image,
                                 vk.VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, 1, 1, flags)

    def sampler(self):
        return Psc.Sampler.new_from_cache(self.cache, Psc.SamplerInfo.new())

    def full_set(self, pool, ubo, ssbo, view, sampler, dynamic_range=256):
        s = pool.allocate_managed(self.layout, 0)
        w = s.begin_write()
        w.write_buffer(0, 0, ubo, 0, 256)
        w.write_buffer(1, 0, ssbo, 0, vk.VK_WHOLE_SIZE)
        w.write_image(2, 0, view, READ_ONLY, sampler)
        w.write_buffer(3, 0, ubo, 0, dynamic_range)
        self.assertEqual(w.get_n_staged(), 4)
        w.commit()
        self.assertEqual(w.get_n_staged(), 0)
        return s

    def test_wrappers(self):
        handle = self.vk.buffer(1024)
        b = Psc.Buffer.new(self.device, handle, 1024, NONE)
        self.assertEqual(b.get_handle(), handle)
        self.assertEqual(b.get_size(), 1024)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'size: 0',
               Psc.Buffer.new, self.device, handle, 0, NONE)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'buffer: VK_NULL_HANDLE',
               Psc.Buffer.new, self.device, 0, 16, NONE)

        image = self.vk.image(mip_levels=2, array_layers=3)
        vh = self.vk.image_view(image, base_mip=1, levels=1, base_layer=1, layers=2)
        v = Psc.ImageView.new(self.device, vh, image, vk.VK_IMAGE_ASPECT_COLOR_BIT,
                              1, 0xFFFFFFFF, 1, 0xFFFFFFFF, 2, 3, NONE)
        self.assertEqual((v.get_handle(), v.get_image()), (vh, image))
        # VK_REMAINING_* normalized against the image.
        self.assertEqual(v.get_range(), (vk.VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1, 2))

        tv = Psc.BufferView.new(b, self.vk.buffer_view(handle), vk.VK_FORMAT_R32_SFLOAT,
                                0, vk.VK_WHOLE_SIZE, NONE)
        self.assertEqual(tv.get_format(), vk.VK_FORMAT_R32_SFLOAT)
        self.assertEqual(tv.get_range(), 1024)
        self.assertEqual(tv.get_buffer().get_handle(), handle)

        s = self.sampler()
        self.assertEqual(s.get_flags(), Psc.ResourceFlags.CACHE_ISSUED)
        self.assertEqual(s.get_handle(), self.cache.get_sampler_for_info(Psc.SamplerInfo.new()))

        self.assertFalse(b.is_invalidated())
        b.invalidate()
        self.assertTrue(b.is_invalidated())

    def test_layout_facts(self):
        self.assertEqual(self.layout.get_n_bindings(), 4)
        for binding, dtype, stages in TYPICAL:
            self.assertEqual(self.layout.get_binding(binding), (True, dtype, 1, stages, 0))
        self.assertFalse(self.layout.get_binding(7)[0])
        raises(self, Psc.error_quark(), Psc.Error.UNSUPPORTED, 'pBindings',
               Psc.DescriptorLayout.new_for_recipe, self.cache,
               recipe_with_set([(0, vk.VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, STAGE_FRAGMENT)]), 0)

    def test_feature_not_enabled(self):
        # Lavapipe has no descriptor indexing; a device without it enabled
        # refuses the flag whatever the GPU supports.
        device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION |
                                         Psc.DeviceFlags.NO_DESCRIPTOR_INDEXING)
        cache = Psc.Cache.new(device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        self.assertFalse(device.get_enabled_feature('descriptorBindingPartiallyBound'))
        raises(self, Psc.descriptor_error_quark(), Psc.DescriptorError.FEATURE_NOT_ENABLED,
               'descriptorBindingPartiallyBound', Psc.DescriptorLayout.new_for_recipe, cache,
               recipe_with_set(TYPICAL[:1], PARTIALLY_BOUND), 0)
        self.assertEqual(device.get_validation_error_count(), 0)

    def test_writes_and_entries(self):
        pool = Psc.DescriptorPool.new_for_layout(self.device, self.layout, 2)
        s = self.full_set(pool, self.buffer(), self.buffer(1024), self.view(), self.sampler())
        gc.collect()
        # The set retains its owners; entries are copies with their own
        # references.
        e = s.get_entry(1, 0)
        self.assertTrue(e.is_filled())
        self.assertEqual(e.get_descriptor_type(), vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
        self.assertEqual((e.get_offset(), e.get_range()), (0, 1024))
        self.assertEqual(e.get_buffer().get_size(), 1024)
        img = s.get_entry(2, 0)
        self.assertEqual(img.get_image_layout(), READ_ONLY)
        self.assertEqual(img.get_sampler().get_flags(), Psc.ResourceFlags.CACHE_ISSUED)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'binding',
               s.get_entry, 9, 0)
        handle = s.get_handle()
        self.assertNotEqual(handle, 0)
        del s
        gc.collect()
        self.assertEqual(e.get_buffer().get_size(), 1024)

        # An invalid batch leaves every entry as it was.
        s = self.full_set(pool, self.buffer(), self.buffer(), self.view(), self.sampler())
        before = s.get_entry(0, 0).get_buffer().get_handle()
        w = s.begin_write()
        w.write_buffer(0, 0, self.buffer(512), 0, 256)
        w.write_buffer(1, 0, self.buffer(512), 256, 512)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'writes[1].range', w.commit)
        w.write_image(2, 0, self.view(), GENERAL, None)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'writes[0].sampler', w.commit)
        w.write_image(2, 0, self.view(Psc.ResourceFlags.SWAPCHAIN_IMAGE), READ_ONLY, self.sampler())
        raises(self, Psc.descriptor_error_quark(), Psc.DescriptorError.SWAPCHAIN_IMAGE,
               'writes[0].view', w.commit)
        self.assertEqual(s.get_entry(0, 0).get_buffer().get_handle(), before)
        self.assertEqual(s.get_entry(0, 0).get_range(), 256)

    def test_generations(self):
        pool = Psc.DescriptorPool.new_for_layout(self.device, self.layout, 1)
        s = self.full_set(pool, self.buffer(), self.buffer(), self.view(), self.sampler())
        generation = pool.get_generation()
        self.assertEqual(s.get_generation(), generation)
        pool.reset_unlocked()
        self.assertEqual(pool.get_generation(), generation + 1)
        self.assertTrue(s.is_stale())
        stale = (Psc.descriptor_error_quark(), Psc.DescriptorError.STALE_SET, 'stale')
        raises(self, *stale, s.get_handle)
        raises(self, *stale, s.get_entry, 0, 0)
        raises(self, *stale, s.begin_write)
        plan = Psc.BindPlan.new()
        raises(self, *stale, plan.build, [s], [])
        # The pool is usable again at the new generation.
        fresh = self.full_set(pool, self.buffer(), self.buffer(), self.view(), self.sampler())
        self.assertEqual(fresh.get_generation(), generation + 1)

    def offset(self, set_index, binding, offset):
        o = Psc.DynamicOffset()
        o.set, o.binding, o.array_element, o.offset = set_index, binding, 0, offset
        return o

    def test_bind_plan(self):
        pool = Psc.DescriptorPool.new_for_layout(self.device, self.layout, 2)
        ubo = self.buffer(4096)
        a = self.full_set(pool, ubo, self.buffer(), self.view(), self.sampler())
        b = self.full_set(pool, ubo, self.buffer(), self.view(), self.sampler(), dynamic_range=512)
        plan = Psc.BindPlan.new()
        # Given in any order, returned in set order.
        plan.build([a, b], [self.offset(1, 3, 1024), self.offset(0, 3, 256)])
        self.assertEqual(plan.get_sets(), [a.get_handle(), b.get_handle()])
        self.assertEqual(plan.get_dynamic_offsets(), [256, 1024])

        align = 256  # a multiple of every driver's minUniformBufferOffsetAlignment
        bad = [
            ([self.offset(0, 3, 0)], 'n_offsets'),
            ([self.offset(0, 3, 0), self.offset(0, 3, 0)], 'given twice'),
            ([self.offset(0, 3, 0), self.offset(2, 3, 0)], 'offsets[1].set'),
            ([self.offset(0, 3, 0), self.offset(1, 0, 0)], 'offsets[1]'),
            ([self.offset(0, 3, 1), self.offset(1, 3, 0)], 'offsets[0]'),
            ([self.offset(0, 3, 0), self.offset(1, 3, 4096 - 512 + align)], 'offsets[1]'),
        ]
        for offsets, fragment in bad:
            raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, fragment,
                   plan.build, [a, b], offsets)

        plan.build([a, b], [self.offset(0, 3, 0), self.offset(1, 3, 4096 - 512)])
        plan.collect_accesses()
        self.assertEqual(plan.get_n_accesses(), 8)
        accesses = [plan.get_access(i) for i in range(plan.get_n_accesses())]
        by_slot = {(x.get_set(), x.get_binding()): x for x in accesses}
        dyn = by_slot[(1, 3)]
        self.assertEqual(dyn.get_descriptor_type(), vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
        self.assertEqual((dyn.get_offset(), dyn.get_range()), (4096 - 512, 512))
        self.assertEqual((dyn.get_stages(), dyn.get_access()), (PS2_VERTEX, ACCESS2_UNIFORM_READ))
        # One buffer through two sets: one identity for a render graph.
        self.assertEqual(by_slot[(0, 0)].get_handle(), by_slot[(1, 0)].get_handle())
        self.assertEqual(by_slot[(0, 0)].get_buffer().get_handle(), ubo.get_handle())
        self.assertEqual(by_slot[(0, 1)].get_access(), ACCESS2_STORAGE_RW)
        image = by_slot[(0, 2)]
        self.assertEqual(image.get_access(), ACCESS2_SAMPLED_READ)
        self.assertEqual(image.get_stages(), PS2_FRAGMENT)
        self.assertEqual(image.get_image_layout(), READ_ONLY)
        self.assertEqual(image.get_subresource_range(), (vk.VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1))
        self.assertEqual(image.get_handle(), image.get_image_view().get_image())

        # A set never written whole cannot be bound.
        empty = Psc.DescriptorPool.new_for_layout(self.device, self.layout, 1).allocate_managed(self.layout, 0)
        raises(self, Psc.descriptor_error_quark(), Psc.DescriptorError.INCOMPLETE, 'sets[0]',
               plan.build, [empty], [self.offset(0, 3, 0)])

    def test_uniform_set_cache(self):
        usc = Psc.UniformSetCache.new(self.device, 4)
        pipeline_layout = self.cache.get_pipeline_layout_for_recipe(recipe_with_set(TYPICAL))
        ubo, ssbo, view, sampler = self.buffer(), self.buffer(), self.view(), self.sampler()

        def resources(offset):
            r = Psc.UniformResourceList.new()
            r.add_buffer(0, 0, ubo, offset, 256)
            r.add_buffer(1, 0, ssbo, 0, vk.VK_WHOLE_SIZE)
            r.add_image(2, 0, view, READ_ONLY, sampler)
            r.add_buffer(3, 0, ubo, 0, 256)
            return r

        usc.begin_frame(1, 0)
        first = usc.lookup(pipeline_layout, 0, self.layout, resources(0))
        self.assertEqual(usc.lookup(pipeline_layout, 0, self.layout, resources(0)).get_handle(),
                         first.get_handle())
        other = usc.lookup(pipeline_layout, 0, self.layout, resources(256))
        self.assertNotEqual(other.get_handle(), first.get_handle())
        self.assertEqual((usc.get_hits(), usc.get_misses(), usc.get_n_entries()), (1, 2, 2))

        # A dependency goes: both sets leave the cache and wait for the GPU.
        view.invalidate()
        self.assertEqual((usc.get_n_entries(), usc.get_n_retiring()), (0, 2))
        raises(self, Psc.descriptor_error_quark(), Psc.DescriptorError.INVALIDATED, 'view',
               usc.lookup, pipeline_layout, 0, self.layout, resources(0))
        usc.begin_frame(2, 0)
        self.assertEqual(usc.get_n_retiring(), 2)
        usc.begin_frame(3, 1)
        self.assertEqual(usc.get_n_retiring(), 0)

    def test_framebuffer_cache(self):
        fbc = Psc.FramebufferCache.new(self.device)
        render_pass = self.vk.render_pass()
        view = self.view()
        fbc.begin_frame(1, 0)
        fb = fbc.lookup(render_pass, [view], 8, 8, 1)
        self.assertNotEqual(fb, 0)
        self.assertEqual(fbc.lookup(render_pass, [view], 8, 8, 1), fb)
        self.assertNotEqual(fbc.lookup(render_pass, [view], 4, 4, 1), fb)
        self.assertEqual(fbc.get_n_entries(), 2)
        raises(self, Psc.error_quark(), Psc.Error.INVALID_ARGUMENT, 'n_attachments',
               fbc.lookup, render_pass, [], 8, 8, 1)
        view.invalidate()
        self.assertEqual((fbc.get_n_entries(), fbc.get_n_retiring()), (0, 2))
        fbc.begin_frame(2, 1)
        self.assertEqual(fbc.get_n_retiring(), 0)
        del fbc
        gc.collect()
        self.vk.destroy(render_pass)


if __name__ == '__main__':
    unittest.main()
