#!/usr/bin/python3
# PyGObject tests of the Psc-1 typelib from the build tree.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys
import threading
import unittest

try:
    import gi
    gi.require_version('GLib', '2.0')
    gi.require_version('Gio', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GLib, GObject, Gio, Psc
except (ImportError, ValueError) as e:
    # Not a skip: the suite exists to prove the bindings work.
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)


def spirv_data():
    with open(os.environ['PSC_TEST_SPV'], 'rb') as f:
        return f.read()


def spirv_bytes():
    return GLib.Bytes.new(spirv_data())


def spirv_variant(n):
    # Word 2 of the SPIR-V header is the generator's magic number, which no
    # driver interprets: changing it gives distinct content, same shader.
    data = bytearray(spirv_data())
    data[8:12] = (0x7fff0000 + n).to_bytes(4, 'little')
    return GLib.Bytes.new(bytes(data))


def headless_error_in_subprocess(flags, **env):
    # The loader reads its variables once per process: try in a fresh one.
    code = '''
import gi, sys
gi.require_version('Psc', '1')
from gi.repository import GLib, Psc
try:
    Psc.Device.new_headless(Psc.DeviceFlags(%d))
except GLib.Error as e:
    print(e.domain, e.code, e.message)
    sys.exit(0)
print('no error')
''' % int(flags)
    full_env = dict(os.environ)
    full_env.update(env)
    out = subprocess.run([sys.executable, '-c', code], env=full_env, check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    return out


class PscTestCase(unittest.TestCase):
    def assertPscError(self, cm, code):
        err = cm.exception
        self.assertEqual(err.domain, 'psc-error-quark', err.message)
        self.assertTrue(err.matches(Psc.error_quark(), code),
                        f'expected {code!r}, got code {err.code}: {err.message}')
        self.assertTrue(err.message)


class VersionTests(PscTestCase):
    def test_runtime_matches_headers(self):
        self.assertEqual(Psc.get_major_version(), Psc.MAJOR_VERSION)
        self.assertEqual(Psc.get_minor_version(), Psc.MINOR_VERSION)
        self.assertEqual(Psc.get_micro_version(), Psc.MICRO_VERSION)
        expected = os.environ.get('PSC_EXPECTED_VERSION')
        if expected:
            self.assertEqual(Psc.VERSION_S, expected)
            self.assertEqual('%d.%d.%d' % (Psc.get_major_version(),
                                           Psc.get_minor_version(),
                                           Psc.get_micro_version()), expected)

    def test_check_version(self):
        major, minor, micro = (Psc.get_major_version(), Psc.get_minor_version(),
                               Psc.get_micro_version())
        self.assertTrue(Psc.check_version(major, minor, micro))
        self.assertTrue(Psc.check_version(0, 0, 0))
        self.assertFalse(Psc.check_version(major + 1, 0, 0))
        self.assertFalse(Psc.check_version(major, minor + 1, 0))
        self.assertFalse(Psc.check_version(major, minor, micro + 1))


class TypelibTests(PscTestCase):
    def test_no_count_members(self):
        # Enumerations that grow have no COUNT member (it would be a value
        # that is not a kind): kinds are iterated from the enum type.
        kinds = sorted(int(v) for v in Psc.ObjectKind.__enum_values__)
        self.assertEqual(kinds, list(range(7)))
        for enum in (Psc.ObjectKind, Psc.Counter, Psc.AsyncCounter, Psc.Error):
            self.assertFalse(hasattr(enum, 'COUNT'), enum)
        self.assertFalse(hasattr(Psc, 'REJECT_REASON_COUNT'))

    def test_stats_is_opaque(self):
        # An opaque boxed type: no fields to read, only getters.
        self.assertEqual(len(Psc.Stats.__info__.get_fields()), 0)
        self.assertEqual(Psc.Stats.__info__.get_size(), 0)
        self.assertTrue(Psc.Stats.__gtype__.is_a(GObject.TYPE_BOXED))


class ErrorTests(PscTestCase):
    def test_domain(self):
        self.assertEqual(Psc.error_quark(), GLib.quark_from_string('psc-error-quark'))

    def test_dbus_names(self):
        names = {
            Psc.Error.FAILED: 'Failed',
            Psc.Error.INVALID_ARGUMENT: 'InvalidArgument',
            Psc.Error.UNSUPPORTED: 'Unsupported',
            Psc.Error.FOREIGN_HANDLE: 'ForeignHandle',
            Psc.Error.CAPACITY: 'Capacity',
            Psc.Error.VULKAN: 'Vulkan',
            Psc.Error.WRONG_THREAD: 'WrongThread',
            Psc.Error.NO_DEVICE: 'NoDevice',
            Psc.Error.QUEUE_FULL: 'QueueFull',
            Psc.Error.CLOSED: 'Closed',
            Psc.Error.DISCARDED: 'Discarded',
        }
        for code, name in names.items():
            err = GLib.Error.new_literal(Psc.error_quark(), 'x', int(code))
            self.assertEqual(Gio.DBusError.encode_gerror(err),
                             'io.github.psocache.Error.' + name)
            back = Gio.DBusError.new_for_dbus_error('io.github.psocache.Error.' + name, 'y')
            self.assertTrue(back.matches(Psc.error_quark(), code))


class DeviceCacheTests(PscTestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')

    def test_device_properties(self):
        d = self.device
        self.assertTrue(d.props.name)
        self.assertEqual(d.props.name, d.get_name())
        self.assertTrue(d.props.headless)
        self.assertTrue(d.get_headless())
        api = d.props.api_version
        self.assertGreaterEqual(api >> 22 & 0x7f, 1)   # VK_API_VERSION_MAJOR
        self.assertEqual(api, d.get_api_version())
        self.assertEqual(d.props.driver_version, d.get_driver_version())
        self.assertEqual(d.props.validation_error_count, 0)
        # lavapipe is a Vulkan 1.3 driver with dynamic rendering.
        self.assertTrue(d.props.dynamic_rendering)

    def test_headless_errors(self):
        # The library reads no environment variable: the index that the
        # removed PSC_DEVICE_INDEX variable used to give changes nothing.
        out = headless_error_in_subprocess(Psc.DeviceFlags.NONE, PSC_DEVICE_INDEX='99')
        self.assertEqual(out, 'no error')
        out = headless_error_in_subprocess(Psc.DeviceFlags.VALIDATION,
                                           VK_LAYER_PATH='/nonexistent', VK_INSTANCE_LAYERS='')
        self.assertTrue(out.startswith('psc-error-quark %d ' % Psc.Error.NO_DEVICE), out)
        self.assertIn('VK_LAYER_KHRONOS_validation', out)
        out = headless_error_in_subprocess(Psc.DeviceFlags.NONE,
                                           VK_DRIVER_FILES='/nonexistent/icd.json')
        self.assertTrue(out.startswith('psc-error-quark %d ' % Psc.Error.NO_DEVICE), out)

    def test_no_dynamic_rendering_device(self):
        d = Psc.Device.new_headless(Psc.DeviceFlags.NO_DYNAMIC_RENDERING)
        self.assertFalse(d.props.dynamic_rendering)
        c = Psc.Cache.new(d, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        self.assertEqual(c.props.backend, Psc.Backend.LEGACY)
        with self.assertRaises(GLib.Error) as cm:
            Psc.Cache.new(d, Psc.Backend.DYNAMIC_RENDERING, Psc.CacheFlags.NONE)
        self.assertPscError(cm, Psc.Error.UNSUPPORTED)

    def test_cache_properties(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.PASS_THROUGH)
        self.assertIs(c.props.device, self.device)
        self.assertIs(c.get_device(), self.device)
        self.assertEqual(c.props.backend, Psc.Backend.DYNAMIC_RENDERING)
        self.assertEqual(c.get_backend(), Psc.Backend.DYNAMIC_RENDERING)
        self.assertEqual(c.props.flags, Psc.CacheFlags.PASS_THROUGH)
        for name in ('hits', 'misses', 'creations', 'creation_time_ns', 'entries',
                     'capacity_failures', 'rejected'):
            self.assertEqual(getattr(c.props, name), 0, name)
        # Empty tables already hold some memory.
        self.assertGreaterEqual(c.props.host_bytes, 0)

    def test_register_shader_and_counters(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        c.begin_frame(1, 0)
        spirv = spirv_bytes()
        shader_id = c.register_shader_bytes(spirv)
        self.assertGreater(shader_id, 0)
        # Identity is content: the same SPIR-V is the same module.
        self.assertEqual(c.register_shader_bytes(spirv_bytes()), shader_id)

        kind = Psc.ObjectKind.SHADER_MODULE
        self.assertEqual(c.get_counter(kind, Psc.Counter.ENTRIES), 1)
        self.assertEqual(c.get_counter(kind, Psc.Counter.CREATIONS), 1)
        self.assertGreater(c.get_counter(kind, Psc.Counter.HOST_BYTES), 0)
        self.assertEqual(c.get_counter(Psc.ObjectKind.GRAPHICS_PIPELINE, Psc.Counter.ENTRIES), 0)
        self.assertEqual(c.props.entries, 1)
        self.assertEqual(c.props.creations, 1)
        self.assertGreater(c.props.host_bytes, 0)
        self.assertEqual(c.props.rejected, 0)

        stats = c.get_stats()
        self.assertEqual(stats.get_frame(), 1)
        self.assertEqual(stats.get_capacity_failures(), 0)
        self.assertEqual(stats.get_counter(kind, Psc.Counter.ENTRIES), 1)
        self.assertEqual(stats.get_total(Psc.Counter.CREATIONS), 1)
        # The dictionary the D-Bus interface exports, with stable names.
        d = stats.to_variant().unpack()
        self.assertEqual(d['shader-module.entries'], 1)
        self.assertEqual(d['frame'], 1)
        self.assertEqual(d['rejected.invalid-argument'], 0)
        self.assertIn('async.queued', d)
        # Every kind x counter is there, named by the enums' nicks.
        for kind_value in Psc.ObjectKind.__enum_values__.values():
            for counter_value in Psc.Counter.__enum_values__.values():
                name = kind_value.value_nick + '.' + counter_value.value_nick
                self.assertEqual(d[name], stats.get_counter(kind_value, counter_value), name)
        # A snapshot does not change afterwards.
        c.begin_frame(2, 0)
        self.assertEqual(stats.get_frame(), 1)
        self.assertEqual(c.get_stats().get_frame(), 2)

        # Each registration takes a reference; the module dies with the last.
        self.assertTrue(c.release_shader_id(shader_id))
        self.assertEqual(c.get_counter(kind, Psc.Counter.ENTRIES), 1)
        self.assertTrue(c.release_shader_id(shader_id))
        self.assertEqual(c.get_counter(kind, Psc.Counter.ENTRIES), 0)
        with self.assertRaises(GLib.Error) as cm:
            c.release_shader_id(shader_id)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)
        self.assertIn('shader_id', cm.exception.message)

    def test_bad_spirv(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        with self.assertRaises(GLib.Error) as cm:
            c.register_shader_bytes(GLib.Bytes.new(b''))
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        with self.assertRaises(GLib.Error) as cm:
            c.register_shader_bytes(GLib.Bytes.new(b'\x03\x02\x23'))   # not whole words
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        with self.assertRaises(GLib.Error) as cm:
            c.register_shader_bytes(GLib.Bytes.new(b'\0' * 64))        # no SPIR-V magic
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        self.assertEqual(c.props.rejected, 3)
        stats = c.get_stats()
        self.assertEqual(stats.get_rejected(Psc.Error.INVALID_ARGUMENT), 3)
        self.assertEqual(stats.get_rejected_total(), 3)
        self.assertEqual(c.props.entries, 0)

    def test_unknown_shader_id(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        with self.assertRaises(GLib.Error) as cm:
            c.release_shader_id(4242)
        self.assertPscError(cm, Psc.Error.FOREIGN_HANDLE)

    def test_wrong_thread(self):
        c = Psc.Cache.new(self.device, Psc.Backend.AUTO, Psc.CacheFlags.NONE)
        spirv = spirv_bytes()
        result = {}

        def worker():
            try:
                c.register_shader_bytes(spirv)
                result['error'] = None
            except GLib.Error as e:
                result['error'] = e

        t = threading.Thread(target=worker)
        t.start()
        t.join()
        err = result['error']
        self.assertIsNotNone(err, 'a call from another thread succeeded')
        self.assertTrue(err.matches(Psc.error_quark(), Psc.Error.WRONG_THREAD), err.message)
        # Counters may be read from any thread; nothing was created.
        self.assertEqual(c.props.entries, 0)
        self.assertGreater(c.register_shader_bytes(spirv), 0)


class ConstructionTests(PscTestCase):
    # PscDevice and PscCache are GInitable. PyGObject does not call
    # g_initable_init (); the Psc override does, so keyword construction
    # initializes and raises GLib.Error instead of giving an object that is
    # not open.
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')

    def test_override_is_loaded(self):
        self.assertEqual(Psc.Cache.__module__, 'gi.overrides.Psc')
        self.assertEqual(Psc.Device.__module__, 'gi.overrides.Psc')

    def test_cache_without_device_raises(self):
        with self.assertRaises(GLib.Error) as cm:
            Psc.Cache()
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        self.assertIn('device', cm.exception.message)

    def test_device_without_mode_raises(self):
        with self.assertRaises(GLib.Error) as cm:
            Psc.Device()
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        self.assertIn('headless', cm.exception.message)

    def test_cache_with_properties(self):
        c = Psc.Cache(device=self.device, workers=2, job_capacity=8)
        # The backend asked for was AUTO; read back, the one in use.
        self.assertEqual(c.props.backend, Psc.Backend.DYNAMIC_RENDERING)
        self.assertEqual(c.props.workers, 2)
        self.assertEqual(c.props.job_capacity, 8)
        self.assertEqual(c.props.waiter_capacity, 0)
        self.assertIs(c.props.device, self.device)
        self.assertGreater(c.register_shader_bytes(spirv_bytes()), 0)
        c.close(0)
        with self.assertRaises(GLib.Error) as cm:
            c.register_shader_bytes(spirv_bytes())
        self.assertPscError(cm, Psc.Error.CLOSED)

    def test_cache_unsupported_backend_raises(self):
        d = Psc.Device(headless=True, flags=Psc.DeviceFlags.NO_DYNAMIC_RENDERING)
        with self.assertRaises(GLib.Error) as cm:
            Psc.Cache(device=d, backend=Psc.Backend.DYNAMIC_RENDERING)
        self.assertPscError(cm, Psc.Error.UNSUPPORTED)
        self.assertEqual(Psc.Cache(device=d).props.backend, Psc.Backend.LEGACY)

    def test_headless_properties(self):
        d = Psc.Device(headless=True, physical_device_index=0)
        self.assertTrue(d.props.headless)
        self.assertTrue(d.props.name)
        with self.assertRaises(GLib.Error) as cm:
            Psc.Device(headless=True, physical_device_index=99)
        self.assertPscError(cm, Psc.Error.NO_DEVICE)
        self.assertIn('physical-device-index', cm.exception.message)

    def test_not_initialized_is_inert(self):
        # Without the override's __init__ (GObject.new skips it): an object
        # that is not open. Its methods raise CLOSED (no critical: the suite
        # runs with fatal criticals), the rest do nothing.
        c = GObject.new(Psc.Cache, device=self.device)
        with self.assertRaises(GLib.Error) as cm:
            c.register_shader_bytes(spirv_bytes())
        self.assertPscError(cm, Psc.Error.CLOSED)
        self.assertIn('never initialized', cm.exception.message)
        c.begin_frame(1, 0)
        c.close(0)
        self.assertEqual(c.get_stats().get_frame(), 0)
        self.assertEqual(c.props.entries, 0)
        self.assertEqual(c.props.backend, Psc.Backend.AUTO)
        # Initialized now: it works.
        c.init(None)
        self.assertGreater(c.register_shader_bytes(spirv_bytes()), 0)

        raw = GObject.new(Psc.Cache)
        with self.assertRaises(GLib.Error) as cm:
            raw.init(None)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        # The same answer again, and every method says why.
        with self.assertRaises(GLib.Error) as cm:
            raw.init(None)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)
        with self.assertRaises(GLib.Error) as cm:
            raw.register_shader_bytes(spirv_bytes())
        self.assertPscError(cm, Psc.Error.CLOSED)
        self.assertIn('initialization failed', cm.exception.message)

        d = GObject.new(Psc.Device)
        self.assertIsNone(d.get_name())
        with self.assertRaises(GLib.Error) as cm:
            Psc.Cache(device=d)
        self.assertPscError(cm, Psc.Error.INVALID_ARGUMENT)


if __name__ == '__main__':
    unittest.main()
