#!/usr/bin/python3
# PyGObject tests of material templates, instances and shader variant keys
# (issue 12): the payload rules against a headless lavapipe device's
# maxPushConstantsSize, keys as Python values.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import struct
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

F = Psc.MaterialFlags


def fnv1a64(name):
    h = 0xcbf29ce484222325
    for b in name.encode('utf-8'):
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


class MaterialTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)
        cls.limit = min(Psc.MATERIAL_MAX_INLINE_SIZE, cls.device.get_max_push_constants_size())

    def tearDown(self):
        self.assertEqual(self.device.get_validation_error_count(), 0)

    def test_device_limit(self):
        self.assertGreaterEqual(self.device.get_max_push_constants_size(), 128)
        self.assertEqual(self.device.props.max_push_constants_size,
                         self.device.get_max_push_constants_size())

    def test_template(self):
        t = Psc.MaterialTemplate.new('pbr/standard', F.ALPHA_TEST | F.NORMAL_MAP, 64)
        self.assertEqual(t.get_base_name(), 'pbr/standard')
        self.assertEqual(t.get_base_name_hash(), 0x2fd8b88edfe82115)
        self.assertEqual(t.get_supported_flags(), F.ALPHA_TEST | F.NORMAL_MAP)
        self.assertEqual(t.get_parameter_block_size(), 64)
        for name, golden in [('a', 0xaf63dc4c8601ec8c), ('foobar', 0x85944171f73967e8),
                             ('é/ü', 0x9eb8410d30b64cd5)]:
            self.assertEqual(Psc.MaterialTemplate.new(name, 0, 0).get_base_name_hash(), golden)
            self.assertEqual(fnv1a64(name), golden)

    def test_template_errors(self):
        for args, message in [(('', 0, 0), 'shader_base_name: empty'),
                              (('x' * 256, 0, 0), 'shader_base_name: 256 bytes, more than 255'),
                              (('x', F(1 << 6), 0), 'supported: unknown flag bits 0x40'),
                              (('x', 0, 6), 'parameter_block_size: 6 is not a multiple of 4'),
                              (('x', 0, 65540), 'parameter_block_size: 65540 is more than 65536')]:
            with self.assertRaises(GLib.Error) as cm:
                Psc.MaterialTemplate.new(*args)
            self.assertTrue(cm.exception.matches(Psc.error_quark(), Psc.Error.INVALID_ARGUMENT))
            self.assertEqual(cm.exception.message, message)

    def test_inline(self):
        t = Psc.MaterialTemplate.new('unlit', F.VERTEX_COLOR, self.limit)
        params = GLib.Bytes.new(bytes(range(self.limit)))
        inst = Psc.MaterialInstance.new_inline(t, self.device, F.VERTEX_COLOR | F.SKINNED, params)
        self.assertFalse(inst.is_external())
        self.assertEqual(inst.get_flags(), F.VERTEX_COLOR | F.SKINNED)
        self.assertEqual(inst.get_inline_payload().get_data(), bytes(range(self.limit)))
        self.assertEqual(inst.get_push_constant_size(), self.limit)
        self.assertEqual(inst.get_external_size(), 0)
        self.assertEqual(inst.get_record_index(), 0)
        self.assertEqual(inst.get_template().get_base_name(), 'unlit')

        big = Psc.MaterialTemplate.new('unlit', 0, self.limit + 4)
        with self.assertRaises(GLib.Error) as cm:
            Psc.MaterialInstance.new_inline(big, self.device, 0,
                                            GLib.Bytes.new(bytes(self.limit + 4)))
        self.assertTrue(cm.exception.matches(Psc.error_quark(), Psc.Error.INVALID_ARGUMENT))
        self.assertIn('psc_material_instance_new_external', cm.exception.message)
        self.assertIn(f'inline limit of {self.limit} bytes', cm.exception.message)

        with self.assertRaises(GLib.Error) as cm:
            Psc.MaterialInstance.new_inline(t, self.device, 0, GLib.Bytes.new(bytes(4)))
        self.assertEqual(cm.exception.message,
                         f"parameters: 4 bytes, the template's parameter block is {self.limit}")

    def test_external(self):
        t = Psc.MaterialTemplate.new('terrain/splat', F.NORMAL_MAP, 4096)
        inst = Psc.MaterialInstance.new_external(t, self.device, F.NORMAL_MAP, 0x01020304)
        self.assertTrue(inst.is_external())
        self.assertEqual(inst.get_record_index(), 0x01020304)
        self.assertEqual(inst.get_inline_payload().get_data(), struct.pack('<I', 0x01020304))
        self.assertEqual(inst.get_push_constant_size(), 4)
        self.assertEqual(inst.get_external_size(), 4096)
        with self.assertRaises(GLib.Error):
            Psc.MaterialInstance.new_external(t, self.device, F(1 << 7), 0)

    def test_keys(self):
        t = Psc.MaterialTemplate.new('pbr/standard', F.ALPHA_TEST | F.DOUBLE_SIDED | F.NORMAL_MAP, 64)
        key = t.resolve_variant_key(F.ALPHA_TEST | F.DOUBLE_SIDED | F.EMISSIVE, Psc.PassKind.COLOR)
        self.assertIsInstance(key, Psc.ShaderVariantKey)
        self.assertEqual(key.base_name_hash, 0x2fd8b88edfe82115)
        self.assertEqual(key.flags, int(F.ALPHA_TEST | F.DOUBLE_SIDED))
        self.assertEqual(key.pass_, int(Psc.PassKind.COLOR))
        self.assertEqual(key.hash(), 0x12175cbe)

        shadow = t.resolve_variant_key(F.ALPHA_TEST | F.NORMAL_MAP, Psc.PassKind.SHADOW)
        self.assertEqual(shadow.flags, int(F.ALPHA_TEST))
        self.assertEqual(shadow.pass_, int(Psc.PassKind.SHADOW))
        self.assertEqual(shadow.hash(), 0x89844f98)
        self.assertFalse(key.equal(shadow))

        inst = Psc.MaterialInstance.new_external(t, self.device, F.ALPHA_TEST | F.NORMAL_MAP, 3)
        same = inst.resolve_variant_key(Psc.PassKind.SHADOW)
        self.assertTrue(same.equal(shadow))
        prepass = inst.resolve_variant_key(Psc.PassKind.DEPTH_PREPASS)
        self.assertEqual(prepass.flags, int(F.ALPHA_TEST))
        self.assertFalse(prepass.equal(shadow))
        self.assertEqual(inst.resolve_variant_key(Psc.PassKind.COLOR).flags,
                         int(F.ALPHA_TEST | F.NORMAL_MAP))


if __name__ == '__main__':
    unittest.main()
