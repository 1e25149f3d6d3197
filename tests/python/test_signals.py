#!/usr/bin/python3
# PyGObject tests of what a Python program watches: PscDevice's identity
# and feature properties, PscCache's signals (emitted by begin_frame on the
# owner thread) and the notify signals of its counter properties.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import struct
import sys
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


def spirv_data():
    with open(os.environ['PSC_TEST_SPV'], 'rb') as f:
        return f.read()


def spirv_variant(n):
    # Word 2 of the SPIR-V header is the generator's magic number, which no
    # driver interprets: changing it gives distinct content, same shader.
    data = bytearray(spirv_data())
    data[8:12] = (0x7fff0000 + n).to_bytes(4, 'little')
    return GLib.Bytes.new(bytes(data))


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


if __name__ == '__main__':
    unittest.main()
