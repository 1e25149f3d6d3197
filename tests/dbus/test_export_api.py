#!/usr/bin/python3
# The D-Bus export seen from both sides in one process, through PyGObject:
# a Psc.Cache on lavapipe exported with Psc.Cache.export (the owner thread
# is this test's main thread, which pumps with begin_frame when a test says
# so), and a client on its own connection to the same private session bus
# (dbus-run-session) calling io.github.psocache.Cache1. Every effect of a
# control is checked in the application: an evicted pipeline is created
# again, an invalidation recompiles, a save writes files.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
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

if not os.environ.get('DBUS_SESSION_BUS_ADDRESS'):
    print('no session bus: run under dbus-run-session', file=sys.stderr)
    sys.exit(1)

IFACE = 'io.github.psocache.Cache1'
ROOT = '/io/github/psocache/Cache1'
ERR = 'io.github.psocache.Error.'
COMPUTE, STORAGE_BUFFER = 0x20, 7


def spirv(n):
    with open(os.environ['PSC_TEST_SPV'], 'rb') as f:
        data = bytearray(f.read())
    # Word 2 (the generator) is not interpreted: distinct content, same code.
    data[8:12] = (0x7fff0000 + n).to_bytes(4, 'little')
    return GLib.Bytes.new(bytes(data))


def compute_recipe(n):
    r = Psc.Recipe.new_compute()
    r.add_stage(COMPUTE, spirv(n), 'main')
    s = r.add_set_layout(0)
    r.add_set_binding(s, 0, STORAGE_BUFFER, 1, COMPUTE, 0)
    r.add_push_constant_range(COMPUTE, 0, 4)
    return r


def remote_name(error):
    return Gio.DBusError.get_remote_error(error)


class Client:
    """A client on its own connection (not the one the cache exports on)."""

    def __init__(self):
        address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
        self.bus = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call_sync(self, name, path, method, params=None, iface=IFACE, reply=None):
        return self.bus.call_sync(name, path, iface, method, params,
                                  GLib.VariantType(reply) if reply else None,
                                  Gio.DBusCallFlags.NONE, 10000, None).unpack()

    def get_all(self, name, path):
        return self.call_sync(name, path, 'GetAll', GLib.Variant('(s)', (IFACE,)),
                              iface='org.freedesktop.DBus.Properties')[0]

    def has_owner(self, name):
        return self.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'NameHasOwner',
                              GLib.Variant('(s)', (name,)), iface='org.freedesktop.DBus')[0]

    def start(self, name, path, method, params, results, key):
        def done(bus, res):
            try:
                results[key] = bus.call_finish(res).unpack()
            except GLib.Error as e:
                results[key] = e
        self.bus.call(name, path, IFACE, method, params, None, Gio.DBusCallFlags.NONE, 20000,
                      None, done)


class ExportTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)
        cls.client = Client()

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')

    def setUp(self):
        self.frame = 1
        self.caches = []

    def tearDown(self):
        for c in self.caches:
            c.close(self.frame)

    def new_cache(self, **props):
        c = Psc.Cache(device=self.device, backend=Psc.Backend.DYNAMIC_RENDERING, **props)
        self.caches.append(c)
        return c

    def export(self, cache, flags=Psc.ExportFlags.NONE):
        cache.export(None, flags)
        return cache.get_export_bus_name(), cache.get_export_object_path()

    def begin_frame(self, cache):
        cache.begin_frame(self.frame, self.frame)
        self.frame += 1

    def run_loop(self, cache, done, timeout=10.0, pump=True):
        """Runs the main loop (client replies arrive there), pumping @cache
        every 2 ms when @pump, until done() or @timeout."""
        loop = GLib.MainLoop()
        deadline = time.monotonic() + timeout

        def tick():
            if pump:
                self.begin_frame(cache)
            if done() or time.monotonic() > deadline:
                loop.quit()
                return GLib.SOURCE_REMOVE
            return GLib.SOURCE_CONTINUE
        GLib.timeout_add(2, tick)
        loop.run()

    def control(self, cache, method, params=None):
        """A control: sent, applied at a begin_frame, its reply returned
        (a GLib.Error is returned, not raised)."""
        name, path = cache.get_export_bus_name(), cache.get_export_object_path()
        results = {}
        self.client.start(name, path, method, params, results, 'r')
        self.run_loop(cache, lambda: 'r' in results)
        self.assertIn('r', results, f'{method}: no reply')
        return results['r']

    def assertRemoteError(self, result, name):
        self.assertIsInstance(result, GLib.Error, f'expected {name}, got {result!r}')
        self.assertEqual(remote_name(result), name, result.message)

    def entries(self, cache, offset=0, limit=1024):
        r = self.control(cache, 'ListEntries', GLib.Variant('(uu)', (offset, limit)))
        self.assertNotIsInstance(r, GLib.Error)
        return r


class IdentityTests(ExportTestCase):
    def test_name_path_and_properties(self):
        with tempfile.TemporaryDirectory() as d:
            c = self.new_cache(cache_directory=d)
            name, path = self.export(c)
            self.assertEqual(name, f'{IFACE}.unknown.pid{os.getpid()}')
            self.assertEqual(path, ROOT + '/0')
            p = self.client.get_all(name, path)
            self.assertEqual(p['Pid'], os.getpid())
            self.assertEqual(p['ApplicationId'], '')
            self.assertEqual(p['DeviceName'], self.device.get_name())
            self.assertEqual(p['VendorId'], self.device.props.vendor_id)
            self.assertEqual(p['DeviceId'], self.device.props.device_id)
            self.assertEqual(p['DriverVersion'], self.device.get_driver_version())
            self.assertEqual(p['PipelineCacheUuid'], self.device.props.pipeline_cache_uuid)
            self.assertEqual(p['CacheDirectory'], c.get_cache_directory())
            self.assertEqual(p['Backend'], 'dynamic-rendering')
            self.assertIs(p['ReadOnly'], False)
            objects = self.client.call_sync(name, ROOT, 'GetManagedObjects',
                                            iface='org.freedesktop.DBus.ObjectManager')[0]
            self.assertEqual(list(objects), [path])
            self.assertIn(IFACE, objects[path])
            self.assertEqual(objects[path][IFACE]['Pid'], os.getpid())
            c.close(0)

    def test_sanitized_application_id(self):
        with tempfile.TemporaryDirectory() as d:
            os.environ['XDG_CACHE_HOME'] = d
            c = self.new_cache(application_id='io.github.psocache.Dbus-Test')
            name, _ = self.export(c)
            self.assertEqual(name, f'{IFACE}.io.github.psocache.Dbus-Test.pid{os.getpid()}')
            self.assertEqual(self.client.get_all(name, ROOT + '/0')['ApplicationId'],
                             'io.github.psocache.Dbus-Test')
            c.close(0)
            self.assertFalse(self.client.has_owner(name))

    def test_export_twice_unexport_and_again(self):
        c = self.new_cache()
        name, path = self.export(c)
        with self.assertRaises(GLib.Error) as cm:
            c.export(None, Psc.ExportFlags.NONE)
        self.assertTrue(cm.exception.matches(Psc.error_quark(), Psc.Error.FAILED))
        c.unexport()
        self.assertIsNone(c.get_export_bus_name())
        self.assertIsNone(c.get_export_object_path())
        self.assertFalse(self.client.has_owner(name))
        c.unexport()   # nothing
        name2, path2 = self.export(c)
        self.assertEqual(name2, name)
        self.assertTrue(self.client.has_owner(name))

    def test_two_caches_one_name(self):
        a, b = self.new_cache(), self.new_cache()
        name, pa = self.export(a)
        name_b, pb = self.export(b)
        self.assertEqual(name, name_b)
        self.assertNotEqual(pa, pb)
        objects = self.client.call_sync(name, ROOT, 'GetManagedObjects',
                                        iface='org.freedesktop.DBus.ObjectManager')[0]
        self.assertEqual(sorted(objects), sorted([pa, pb]))
        a.unexport()
        self.assertTrue(self.client.has_owner(name))
        b.unexport()
        self.assertFalse(self.client.has_owner(name))

    def test_export_churn(self):
        # Export and unexport 300 times (each the first and last export of
        # the process: the bus thread starts and ends each time), with a
        # call answered in between: no leak of threads, names or memory.
        c = self.new_cache()
        c.get_pipeline_for_recipe(compute_recipe(7))

        def rss_kb():
            with open('/proc/self/status') as f:
                return int(next(l for l in f if l.startswith('VmRSS:')).split()[1])

        def threads():
            return len(os.listdir('/proc/self/task'))
        base_threads = threads()
        for i in range(300):
            name, path = self.export(c)
            if i % 50 == 0:
                self.assertEqual(self.client.get_all(name, path)['Entries'], c.props.entries)
            if i == 50:
                rss = rss_kb()
            c.unexport()
            # The bus thread is joined at each unexport; GLib may keep one
            # idle pool thread of its own around meanwhile. A leak would
            # add one per cycle.
            self.assertLessEqual(threads(), base_threads + 2)
        self.assertFalse(self.client.has_owner(name))
        self.assertLess(rss_kb() - rss, 4096)

    def test_closed_cache(self):
        c = self.new_cache()
        c.close(0)
        with self.assertRaises(GLib.Error) as cm:
            c.export(None, Psc.ExportFlags.NONE)
        self.assertTrue(cm.exception.matches(Psc.error_quark(), Psc.Error.CLOSED))


class CounterTests(ExportTestCase):
    def test_fresh_properties_and_statistics(self):
        c = self.new_cache()
        c.get_pipeline_for_recipe(compute_recipe(99))
        name, path = self.export(c)
        # The listing starts with the counters as they are, not zeros.
        objects = self.client.call_sync(name, ROOT, 'GetManagedObjects',
                                        iface='org.freedesktop.DBus.ObjectManager')[0]
        self.assertEqual(objects[path][IFACE]['Entries'], c.props.entries)
        self.assertGreater(c.props.entries, 0)
        for i in range(3):
            c.get_pipeline_for_recipe(compute_recipe(i))
        c.get_pipeline_for_recipe(compute_recipe(0))
        # No frame was pumped: a Get reads the counters themselves.
        p = self.client.get_all(name, path)
        self.assertEqual(p['Entries'], c.props.entries)
        self.assertEqual(p['Hits'], c.props.hits)
        self.assertEqual(p['Misses'], c.props.misses)
        self.assertEqual(p['HostBytes'], c.props.host_bytes)
        self.assertEqual(p['Compiling'], 0)
        self.assertEqual(p['QueueDepth'], 0)
        self.assertGreaterEqual(p['Hits'], 1)
        stats = self.client.call_sync(name, path, 'GetStatistics')[0]
        mine = c.get_stats().to_variant().unpack()
        self.assertEqual(sorted(stats), sorted(mine))
        self.assertEqual(stats['compute-pipeline.entries'], 4)
        self.assertEqual(stats['compute-pipeline.hits'], mine['compute-pipeline.hits'])

    def test_properties_changed_is_batched(self):
        c = self.new_cache()
        name, path = self.export(c)
        proxy = Gio.DBusProxy.new_sync(self.client.bus, Gio.DBusProxyFlags.NONE, None, name,
                                       path, IFACE, None)
        seen = []
        proxy.connect('g-properties-changed',
                      lambda p, changed, inval: seen.append((time.monotonic(), changed.unpack())))
        n = [0]
        start = time.monotonic()

        def busy():
            # Counters move every 2 ms (a new pipeline, hits), far faster
            # than the 250 ms batching.
            c.get_pipeline_for_recipe(compute_recipe(100 + n[0] % 40))
            n[0] += 1
            return time.monotonic() - start > 2.2
        self.run_loop(c, busy, timeout=5)
        self.assertGreaterEqual(len(seen), 4, seen)
        self.assertLessEqual(len(seen), 2.2 / 0.25 + 2, seen)
        self.assertLess(seen[0][0] - start, 0.6)
        gaps = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
        self.assertGreater(min(gaps), 0.2, gaps)
        for _, changed in seen:
            self.assertTrue(set(changed) <= {'Entries', 'Hits', 'Misses', 'Compiling',
                                              'QueueDepth', 'HostBytes'}, changed)
        self.assertTrue(any('Hits' in ch for _, ch in seen))


class ControlTests(ExportTestCase):
    def test_applied_only_at_begin_frame(self):
        c = self.new_cache()
        name, path = self.export(c)
        results = {}
        self.client.start(name, path, 'Evict', GLib.Variant('(u)', (0,)), results, 'r')
        self.run_loop(c, lambda: 'r' in results, timeout=0.5, pump=False)
        self.assertNotIn('r', results)
        self.run_loop(c, lambda: 'r' in results)
        self.assertEqual(results['r'], (0,))

    def test_evicted_pipeline_is_created_again(self):
        c = self.new_cache()
        self.export(c)
        hot, cold = compute_recipe(1), compute_recipe(2)
        c.get_pipeline_for_recipe(cold)
        for _ in range(8):
            self.begin_frame(c)
            c.get_pipeline_for_recipe(hot)
        creations = c.props.creations
        self.assertEqual(self.control(c, 'Evict', GLib.Variant('(u)', (4,))), (1,))
        self.assertEqual(c.props.creations, creations)
        c.get_pipeline_for_recipe(hot)
        self.assertEqual(c.props.creations, creations)
        c.get_pipeline_for_recipe(cold)
        self.assertEqual(c.props.creations, creations + 1)
        events = self.client.call_sync(c.get_export_bus_name(), c.get_export_object_path(),
                                       'GetRecentEvents', GLib.Variant('(u)', (10,)))[0]
        self.assertIn({'kind': 'evicted', 'count': 1},
                      [{k: e[k] for k in ('kind', 'count') if k in e} for e in events])

    def test_invalidate_shader_recompiles(self):
        c = self.new_cache()
        name, path = self.export(c)
        r = compute_recipe(3)
        c.get_pipeline_for_recipe(r)
        shaders = [e for e in self.entries(c)[0] if e[1] == 'shader-module']
        self.assertEqual(len(shaders), 1)
        sid, generation = shaders[0][0], shaders[0][4]
        signals = []
        self.client.bus.signal_subscribe(name, IFACE, 'Invalidated', path, None,
                                         Gio.DBusSignalFlags.NONE,
                                         lambda *a: signals.append(a[5].unpack()))
        creations = c.props.creations
        self.assertEqual(self.control(c, 'InvalidateShader', GLib.Variant('(u)', (sid,))), ())
        shader = [e for e in self.entries(c)[0] if e[0] == sid and e[1] == 'shader-module']
        self.assertEqual(shader[0][4], generation + 1)
        c.get_pipeline_for_recipe(r)
        self.assertEqual(c.props.creations, creations + 1)
        self.run_loop(c, lambda: signals, timeout=2)
        self.assertEqual(signals, [(sid, generation + 1)])

        bad = self.control(c, 'InvalidateShader', GLib.Variant('(u)', (sid + 1000,)))
        self.assertRemoteError(bad, ERR + 'InvalidArgument')
        self.assertIn('shader_id', bad.message)
        zero = self.control(c, 'InvalidateShader', GLib.Variant('(u)', (0,)))
        self.assertRemoteError(zero, ERR + 'InvalidArgument')

        c.get_pipeline_for_recipe(compute_recipe(4))
        before = {e[0]: e[4] for e in self.entries(c)[0] if e[1] == 'shader-module'}
        self.assertEqual(len(before), 2)
        creations = c.props.creations
        self.assertEqual(self.control(c, 'InvalidateAll'), ())
        after = {e[0]: e[4] for e in self.entries(c)[0] if e[1] == 'shader-module'}
        self.assertEqual(after, {k: v + 1 for k, v in before.items()})
        c.get_pipeline_for_recipe(r)
        c.get_pipeline_for_recipe(compute_recipe(4))
        self.assertEqual(c.props.creations, creations + 2)
        self.run_loop(c, lambda: len(signals) >= 2, timeout=2)
        self.assertEqual(signals[-1], (0, 0))

    def test_save_writes_files_and_trim(self):
        with tempfile.TemporaryDirectory() as d:
            c = self.new_cache(cache_directory=d)
            name, path = self.export(c)
            saved = []
            self.client.bus.signal_subscribe(name, IFACE, 'Saved', path, None,
                                             Gio.DBusSignalFlags.NONE,
                                             lambda *a: saved.append(a[5].unpack()))
            c.get_pipeline_for_recipe(compute_recipe(5))
            before = set(os.listdir(d))
            self.assertEqual(self.control(c, 'Save'), ())
            after = set(os.listdir(d))
            driver = [f for f in after if f.startswith('driver-') and f.endswith('.pscache')]
            self.assertEqual(len(driver), 1, after)
            self.assertNotIn(driver[0], before)
            self.run_loop(c, lambda: saved, timeout=2)
            self.assertEqual(len(saved), 1)
            self.assertIs(saved[0][0], True)
            self.assertGreater(saved[0][1], 0)
            freed = self.control(c, 'Trim', GLib.Variant('(t)', (0,)))
            self.assertIsInstance(freed[0], int)
            self.assertIn(driver[0], os.listdir(d))   # never the running device's file
            c.close(0)

    def test_save_and_trim_without_persistence(self):
        c = self.new_cache()
        self.export(c)
        self.assertRemoteError(self.control(c, 'Save'), ERR + 'Unsupported')
        self.assertRemoteError(self.control(c, 'Trim', GLib.Variant('(t)', (1,))),
                               ERR + 'Unsupported')

    def test_list_entries_pages(self):
        c = self.new_cache()
        self.export(c)
        for i in range(6):
            c.get_pipeline_for_recipe(compute_recipe(10 + i))
        everything, total = self.entries(c)
        self.assertEqual(total, c.props.entries)
        self.assertEqual(len(everything), total)
        page, total2 = self.entries(c, 2, 3)
        self.assertEqual(total2, total)
        self.assertEqual(page, everything[2:5])
        self.assertEqual(self.entries(c, 2 ** 32 - 1, 10), ([], total))
        self.assertEqual(self.entries(c, 0, 2 ** 32 - 1)[0], everything)   # capped, not refused
        kinds = {e[1] for e in everything}
        self.assertEqual(kinds, {'descriptor-set-layout', 'pipeline-layout',
                                 'compute-pipeline', 'shader-module'})
        for e in everything:
            self.assertIn(e[3], ('ready', 'stale', 'compiling', 'failed', 'released'))
            self.assertGreater(e[6], 0)
        pipelines = [e for e in everything if e[1] == 'compute-pipeline']
        self.assertEqual(sorted(e[2] for e in pipelines),
                         sorted(c.get_recipe_key_hash(compute_recipe(10 + i)) for i in range(6)))


class QueueTests(ExportTestCase):
    def test_busy_then_timeout_never_applied(self):
        c = self.new_cache()
        name, path = self.export(c)
        c.get_pipeline_for_recipe(compute_recipe(20))
        results = {}
        for i in range(70):
            self.client.start(name, path, 'Evict', GLib.Variant('(u)', (0,)), results, i)
        # Nobody pumps: 64 wait for the owner thread, 6 are refused at once.
        self.run_loop(c, lambda: len(results) >= 6, timeout=3, pump=False)
        busy = [k for k, v in results.items() if isinstance(v, GLib.Error)]
        self.assertEqual(len(busy), 6, results)
        for k in busy:
            self.assertRemoteError(results[k], ERR + 'Busy')
        t0 = time.monotonic()
        self.run_loop(c, lambda: len(results) == 70, timeout=10, pump=False)
        self.assertEqual(len(results), 70)
        self.assertGreater(time.monotonic() - t0, 3.5)
        for k, v in results.items():
            if k not in busy:
                self.assertRemoteError(v, ERR + 'Timeout')
        evictions = c.get_stats().get_async(Psc.AsyncCounter.EVICTIONS)
        for _ in range(10):
            self.begin_frame(c)
        self.assertEqual(c.get_stats().get_async(Psc.AsyncCounter.EVICTIONS), evictions)
        # And the queue works again: the pipeline, idle for 10 frames now,
        # is evicted by the next Evict.
        self.assertEqual(self.control(c, 'Evict', GLib.Variant('(u)', (0,))), (1,))

    def test_close_answers_queued_calls(self):
        c = self.new_cache()
        name, path = self.export(c)
        results = {}
        for i in range(3):
            self.client.start(name, path, 'Evict', GLib.Variant('(u)', (0,)), results, i)
        self.run_loop(c, lambda: False, timeout=0.3, pump=False)
        c.close(0)
        self.run_loop(c, lambda: len(results) == 3, timeout=3, pump=False)
        for v in results.values():
            self.assertRemoteError(v, ERR + 'Closed')
        self.assertFalse(self.client.has_owner(name))


class InputTests(ExportTestCase):
    def test_read_only(self):
        c = self.new_cache()
        name, path = self.export(c, Psc.ExportFlags.READ_ONLY)
        self.assertIs(self.client.get_all(name, path)['ReadOnly'], True)
        for method, params in (('Evict', GLib.Variant('(u)', (0,))),
                               ('InvalidateShader', GLib.Variant('(u)', (1,))),
                               ('InvalidateAll', None), ('Save', None),
                               ('Trim', GLib.Variant('(t)', (0,)))):
            self.assertRemoteError(self.control(c, method, params), ERR + 'ReadOnly')
        self.assertEqual(self.entries(c)[1], c.props.entries)
        self.assertIn('frame', self.client.call_sync(name, path, 'GetStatistics')[0])

    def test_wrong_arguments(self):
        c = self.new_cache()
        name, path = self.export(c)
        table = (
            ('Evict', GLib.Variant('(s)', ('x',)), 'org.freedesktop.DBus.Error.InvalidArgs'),
            ('Evict', GLib.Variant('(t)', (2 ** 40,)), 'org.freedesktop.DBus.Error.InvalidArgs'),
            ('Evict', None, 'org.freedesktop.DBus.Error.InvalidArgs'),
            ('ListEntries', GLib.Variant('(u)', (1,)), 'org.freedesktop.DBus.Error.InvalidArgs'),
            ('Trim', GLib.Variant('(i)', (-1,)), 'org.freedesktop.DBus.Error.InvalidArgs'),
            ('GetRecentEvents', GLib.Variant('(s)', ('9',)),
             'org.freedesktop.DBus.Error.InvalidArgs'),
            ('Explode', None, 'org.freedesktop.DBus.Error.UnknownMethod'),
        )
        for method, params, error in table:
            with self.subTest(method=method, params=params):
                self.assertRemoteError(self.control(c, method, params), error)
        # Extremes are values, not errors.
        self.assertEqual(self.control(c, 'Evict', GLib.Variant('(u)', (2 ** 32 - 1,))), (0,))
        self.assertRemoteError(self.control(c, 'Trim', GLib.Variant('(t)', (2 ** 64 - 1,))),
                               ERR + 'Unsupported')
        events = self.client.call_sync(name, path, 'GetRecentEvents',
                                       GLib.Variant('(u)', (2 ** 32 - 1,)))[0]
        self.assertLessEqual(len(events), 256)
        # The cache still works.
        c.get_pipeline_for_recipe(compute_recipe(30))
        self.begin_frame(c)

    def test_recent_events_and_pipeline_compiled(self):
        c = self.new_cache()
        name, path = self.export(c)
        compiled = []
        self.client.bus.signal_subscribe(name, IFACE, 'PipelineCompiled', path, None,
                                         Gio.DBusSignalFlags.NONE,
                                         lambda *a: compiled.append(a[5].unpack()))
        recipes = [compute_recipe(40 + i) for i in range(3)]
        want = sorted(c.get_recipe_key_hash(r) for r in recipes)
        pending = list(recipes)

        def requested():
            for r in list(pending):
                _, result = c.request_recipe(r, Psc.MissPolicy.SKIP, Psc.RequestFlags.NONE)
                if result == Psc.RequestResult.READY:
                    pending.remove(r)
            return not pending and sum(n for n, _ in compiled) >= 3
        self.run_loop(c, requested, timeout=20)
        self.assertEqual(sum(n for n, _ in compiled), 3)
        self.assertEqual(sorted(h for _, hs in compiled for h in hs), want)
        events = self.client.call_sync(name, path, 'GetRecentEvents', GLib.Variant('(u)', (256,)))[0]
        got = sorted(e['key-hash'] for e in events if e['kind'] == 'pipeline-compiled')
        self.assertEqual(got, want)
        for e in events:
            self.assertIn('frame', e)
            self.assertIn('time-us', e)
        self.assertEqual(len(self.client.call_sync(name, path, 'GetRecentEvents',
                                                   GLib.Variant('(u)', (1,)))[0]), 1)


if __name__ == '__main__':
    unittest.main()
