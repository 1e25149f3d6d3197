#!/usr/bin/python3
# PyGObject tests of what a Python program watches: PscDevice's identity
# and feature properties, PscCache's signals (emitted by begin_frame on the
# owner thread) and the notify signals of its counter properties.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import struct
import sys
import threading
import time
import unittest

try:
    import gi
    gi.require_version('GLib', '2.0')
    gi.require_version('GObject', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GLib, GObject, Psc
except (ImportError, ValueError) as e:
    # Not a skip: the suite exists to prove the bindings work.
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)

VK_VENDOR_ID_MESA = 0x10005
VK_API_VERSION_1_3 = (1 << 22) | (3 << 12)
COMPUTE, STORAGE_BUFFER = 0x20, 7


def spirv_data():
    with open(os.environ['PSC_TEST_SPV'], 'rb') as f:
        return f.read()


def spirv_variant(n):
    # Word 2 of the SPIR-V header is the generator's magic number, which no
    # driver interprets: changing it gives distinct content, same shader.
    data = bytearray(spirv_data())
    data[8:12] = (0x7fff0000 + n).to_bytes(4, 'little')
    return GLib.Bytes.new(bytes(data))


def compute_recipe(n):
    # The test shader (one storage buffer, 4 bytes of push constants), a
    # content variant per pipeline.
    r = Psc.Recipe.new_compute()
    r.add_stage(COMPUTE, spirv_variant(n), 'main')
    s = r.add_set_layout(0)
    r.add_set_binding(s, 0, STORAGE_BUFFER, 1, COMPUTE, 0)
    r.add_push_constant_range(COMPUTE, 0, 4)
    return r


class DeviceTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')


class DeviceIdentityTests(DeviceTestCase):
    def test_identity_properties(self):
        d = self.device
        # lavapipe: a Mesa driver (Khronos vendor id), driver "llvmpipe".
        self.assertEqual(d.props.vendor_id, VK_VENDOR_ID_MESA)
        self.assertEqual(d.props.vendor_id, d.get_vendor_id())
        self.assertEqual(d.props.device_id, d.get_device_id())
        self.assertEqual(d.props.driver_name, 'llvmpipe')
        self.assertEqual(d.props.driver_name, d.get_driver_name())
        self.assertIn('Mesa', d.props.driver_info)
        self.assertEqual(d.props.driver_info, d.get_driver_info())
        uuid = d.props.pipeline_cache_uuid
        self.assertRegex(uuid, r'\A[0-9a-f]{32}\Z')
        self.assertEqual(uuid, d.get_pipeline_cache_uuid())

    def test_identity_matches_the_driver_file(self):
        # The driver file a cache writes carries the identity in its header
        # (docs/file-formats.md): vendorID at 24, deviceID at 28,
        # pipelineCacheUUID at 40..56.
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        data = c.save_to_bytes().get_data()
        self.assertEqual(data[:8], b'PSCDRV\r\n')
        vendor, device = struct.unpack_from('<II', data, 24)
        self.assertEqual(vendor, self.device.props.vendor_id)
        self.assertEqual(device, self.device.props.device_id)
        self.assertEqual(data[40:56].hex(), self.device.props.pipeline_cache_uuid)

    def test_feature_properties(self):
        d = self.device
        # A headless device enables what a cache can use: on lavapipe (1.3)
        # dynamic rendering, pipeline-creation cache control and feedback.
        self.assertGreaterEqual(d.props.api_version, VK_API_VERSION_1_3)
        self.assertTrue(d.props.dynamic_rendering)
        self.assertTrue(d.props.pipeline_creation_cache_control)
        self.assertTrue(d.get_pipeline_creation_cache_control())
        self.assertTrue(d.props.creation_feedback)
        self.assertTrue(d.get_creation_feedback())
        # Descriptor indexing where the driver has it (Mesa 22's lavapipe
        # has none of its features): the property and the getter agree.
        self.assertIsInstance(d.props.descriptor_indexing, bool)
        self.assertEqual(d.props.descriptor_indexing, d.get_descriptor_indexing())

    def test_properties_are_read_only(self):
        for name in ('vendor-id', 'device-id', 'driver-name', 'driver-info',
                     'pipeline-cache-uuid', 'pipeline-creation-cache-control',
                     'creation-feedback', 'descriptor-indexing'):
            pspec = self.device.find_property(name)
            self.assertIsNotNone(pspec, name)
            self.assertTrue(pspec.flags & GObject.ParamFlags.READABLE, name)
            self.assertFalse(pspec.flags & GObject.ParamFlags.WRITABLE, name)
            with self.assertRaises(TypeError):
                self.device.set_property(name, 1 if pspec.value_type != GObject.TYPE_STRING else 'x')

    def test_not_initialized(self):
        # Through the plain GObject constructor (not the override), nothing
        # is known yet.
        d = GObject.new(Psc.Device)
        self.assertEqual(d.props.vendor_id, 0)
        self.assertIsNone(d.props.driver_name)
        self.assertIsNone(d.props.pipeline_cache_uuid)
        self.assertFalse(d.props.creation_feedback)


class SignalTests(DeviceTestCase):
    def setUp(self):
        self.cache = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        self.frame = 0
        self.next_frame()

    def tearDown(self):
        self.cache.close(self.frame)
        del self.cache

    def next_frame(self, cache=None):
        self.frame += 1
        (cache or self.cache).begin_frame(self.frame, self.frame - 1)

    def test_signatures(self):
        # GI-friendly: integers, and a GError for the failure.
        expected = {
            'pipeline-ready': ['guint64', 'guint64'],
            'pipeline-failed': ['guint64', 'GError'],
            'shader-reloaded': ['guint', 'guint'],
            'evicted': ['guint'],
        }
        for name, params in expected.items():
            query = GObject.signal_query(name, Psc.Cache)
            self.assertIsNotNone(query, name)
            self.assertEqual(query.signal_name, name)
            self.assertEqual([t.name for t in query.param_types], params, name)
            self.assertEqual(query.return_type, GObject.TYPE_NONE, name)

    def test_shader_reloaded_at_the_next_frame(self):
        seen = []
        self.cache.connect('shader-reloaded', lambda c, i, g: seen.append((c, i, g)))
        shader_id = self.cache.register_shader_bytes(spirv_variant(1))
        self.assertTrue(self.cache.replace_shader_bytes(shader_id, spirv_variant(2)))
        self.assertTrue(self.cache.replace_shader_bytes(shader_id, spirv_variant(3)))
        # Queued: nothing outside begin_frame.
        self.assertEqual(seen, [])
        self.next_frame()
        self.assertEqual(seen, [(self.cache, shader_id, 1), (self.cache, shader_id, 2)])
        self.next_frame()
        self.assertEqual(len(seen), 2)
        # A refused reload is none.
        with self.assertRaises(GLib.Error):
            self.cache.replace_shader_bytes(shader_id + 100, spirv_variant(4))
        self.next_frame()
        self.assertEqual(len(seen), 2)

    def test_handlers_call_back(self):
        # A handler reloads again (announced by the next frame) and closes
        # the cache (it closes when begin_frame returns; the other events of
        # that frame are still announced).
        a = self.cache.register_shader_bytes(spirv_variant(10))
        b = self.cache.register_shader_bytes(spirv_variant(11))
        seen = []

        def on_reloaded(cache, shader_id, generation):
            seen.append((shader_id, generation))
            if len(seen) == 1:
                cache.replace_shader_bytes(a, spirv_variant(12))
            elif len(seen) == 3:
                cache.close(self.frame)
                # Still open until begin_frame returns.
                self.assertGreater(cache.register_shader_bytes(spirv_variant(13)), 0)

        self.cache.connect('shader-reloaded', on_reloaded)
        self.cache.replace_shader_bytes(a, spirv_variant(14))
        self.cache.replace_shader_bytes(b, spirv_variant(15))
        self.next_frame()
        self.assertEqual(seen, [(a, 1), (b, 1)])
        self.cache.replace_shader_bytes(b, spirv_variant(16))
        self.next_frame()
        self.assertEqual(seen, [(a, 1), (b, 1), (a, 2), (b, 2)])
        # Closed now: nothing more, and requests fail.
        with self.assertRaises(GLib.Error) as cm:
            self.cache.register_shader_bytes(spirv_variant(17))
        self.assertTrue(cm.exception.matches(Psc.error_quark(), Psc.Error.CLOSED))
        self.next_frame()
        self.assertEqual(len(seen), 4)

    def test_handler_drops_its_reference(self):
        # The handler drops the program's reference (PyGObject keeps the
        # instance alive while the handler runs; the C suite drops the very
        # last one in a handler): once begin_frame returned nothing else
        # holds the cache, it is finalized at once.
        holder = [Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)]
        shader_id = holder[0].register_shader_bytes(spirv_variant(20))
        holder[0].replace_shader_bytes(shader_id, spirv_variant(21))
        finalized = []
        seen = []

        def on_reloaded(c, i, g):
            seen.append(g)
            holder.clear()

        holder[0].connect('shader-reloaded', on_reloaded)
        holder[0].weak_ref(lambda: finalized.append(True))
        holder[0].begin_frame(1, 0)
        self.assertEqual(seen, [1])
        self.assertEqual(holder, [])
        self.assertEqual(finalized, [True])

    def test_evicted_needs_an_eviction(self):
        seen = []
        self.cache.connect('evicted', lambda c, n: seen.append(n))
        # No pipeline in the cache: an eviction pass evicts nothing, and
        # nothing is announced.
        self.assertEqual(self.cache.evict(0), 0)
        self.next_frame()
        self.cache.props.eviction_idle_frames = 4
        for _ in range(10):
            self.next_frame()
        self.assertEqual(seen, [])
        self.assertEqual(self.cache.props.evictions, 0)

    def pump_until(self, done, timeout=30.0):
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            self.next_frame()
            time.sleep(0.001)
        self.assertTrue(done(), 'timed out')

    def test_pipeline_ready_after_an_asynchronous_compile(self):
        seen = []
        threads = []

        def on_ready(cache, pipeline, key_hash):
            threads.append(threading.get_ident())
            seen.append((pipeline, key_hash))
            # A handler may request again: a hit now.
            self.assertEqual(cache.get_pipeline_for_recipe(recipes[len(seen) - 1]), pipeline)

        self.cache.connect('pipeline-ready', on_ready)
        recipes = [compute_recipe(101), compute_recipe(102)]
        for r in recipes:
            p, res = self.cache.request_recipe(r, Psc.MissPolicy.SKIP, Psc.RequestFlags.NONE)
            self.assertEqual(p, 0)
            self.assertEqual(res, Psc.RequestResult.PENDING)
        self.assertEqual(seen, [])
        self.pump_until(lambda: len(seen) == 2 and self.cache.props.jobs_unpublished == 0)
        self.assertEqual(set(threads), {threading.get_ident()})
        pipelines = {self.cache.get_pipeline_for_recipe(r) for r in recipes}
        self.assertEqual({p for p, _ in seen}, pipelines)
        self.assertEqual(len({h for _, h in seen}), 2)
        self.assertEqual(self.cache.props.jobs_completed, 2)
        # A synchronous creation is not announced.
        self.cache.get_pipeline_for_recipe(compute_recipe(103))
        self.next_frame()
        self.next_frame()
        self.assertEqual(len(seen), 2)

    def test_evicted_once_per_frame(self):
        seen = []
        self.cache.connect('evicted', lambda c, n: seen.append(n))
        for v in (110, 111, 112):
            self.assertNotEqual(self.cache.get_pipeline_for_recipe(compute_recipe(v)), 0)
        for _ in range(6):
            self.next_frame()
        self.assertEqual(self.cache.evict(0), 3)
        # Queued: announced by the next frame, once, with the count.
        self.assertEqual(seen, [])
        self.next_frame()
        self.assertEqual(seen, [3])
        self.next_frame()
        self.assertEqual(seen, [3])
        self.assertEqual(self.cache.props.evictions, 3)

    def test_no_backlog_for_late_handlers(self):
        shader_id = self.cache.register_shader_bytes(spirv_variant(30))
        self.cache.replace_shader_bytes(shader_id, spirv_variant(31))
        self.next_frame()
        seen = []
        self.cache.connect('shader-reloaded', lambda c, i, g: seen.append(g))
        self.next_frame()
        self.assertEqual(seen, [])


class NotifyTests(DeviceTestCase):
    def test_every_counter_is_a_property(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        stats = c.get_stats()
        names = {
            'hits': Psc.Counter.HITS, 'misses': Psc.Counter.MISSES,
            'creations': Psc.Counter.CREATIONS, 'creation-time-ns': Psc.Counter.CREATION_NS,
            'entries': Psc.Counter.ENTRIES, 'host-bytes': Psc.Counter.HOST_BYTES,
        }
        # Every PscCounter has its total.
        self.assertEqual(sorted(names.values()), sorted(Psc.Counter.__enum_values__.values()))
        for name, counter in names.items():
            self.assertEqual(c.get_property(name), stats.get_total(counter), name)
        # Every PscPersistCounter: "persistence-" + its nick.
        for value in Psc.PersistCounter.__enum_values__.values():
            name = 'persistence-' + value.value_nick
            pspec = c.find_property(name)
            self.assertIsNotNone(pspec, name)
            self.assertEqual(pspec.value_type, GObject.TYPE_UINT64, name)
            self.assertFalse(pspec.flags & GObject.ParamFlags.WRITABLE, name)
            self.assertEqual(c.get_property(name), stats.get_persist(value), name)
        # The asynchronous counters that had no property before 0.3.
        for name, counter in (('retired', Psc.AsyncCounter.RETIRED),
                              ('fallbacks-returned', Psc.AsyncCounter.FALLBACKS_RETURNED),
                              ('stale-returned', Psc.AsyncCounter.STALE_RETURNED),
                              ('jobs-unpublished', Psc.AsyncCounter.UNPUBLISHED)):
            self.assertEqual(c.get_property(name), stats.get_async(counter), name)
        self.assertEqual(c.props.signals_dropped, 0)
        self.assertEqual(c.props.frame, 0)
        c.close(0)

    def test_notify_from_begin_frame(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        c.begin_frame(1, 0)
        notified = []
        thread = []
        c.connect('notify::entries', lambda o, p: notified.append((p.name, o.props.entries)))
        c.connect('notify::creations', lambda o, p: notified.append((p.name, o.props.creations)))
        c.connect('notify', lambda o, p: thread.append(threading.get_ident()))
        c.register_shader_bytes(spirv_variant(40))
        c.register_shader_bytes(spirv_variant(41))
        # Counted at once, notified by the next begin_frame only.
        self.assertEqual(c.props.entries, 2)
        self.assertEqual(notified, [])
        c.begin_frame(2, 1)
        # Once each, however many changes the frame saw.
        self.assertEqual(sorted(notified), [('creations', 2), ('entries', 2)])
        # On the owner thread (this one), from begin_frame.
        self.assertTrue(thread)
        self.assertEqual(set(thread), {threading.get_ident()})
        # Only the frame changed.
        del notified[:]
        n = len(thread)
        c.begin_frame(3, 2)
        self.assertEqual(notified, [])
        self.assertEqual(len(thread), n + 1)    # notify::frame
        c.close(3)

    def test_persistence_notify(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            c = Psc.Cache(device=self.device, cache_directory=tmp)
            c.begin_frame(1, 0)
            saves = []
            c.connect('notify::persistence-saves', lambda o, p: saves.append(o.get_property(p.name)))
            self.assertTrue(c.save())
            self.assertEqual(saves, [])
            c.begin_frame(2, 1)
            self.assertEqual(saves, [1])
            self.assertEqual(c.props.persistence_saves, c.get_stats().get_persist(Psc.PersistCounter.SAVES))
            c.close(2)


if __name__ == '__main__':
    unittest.main()
