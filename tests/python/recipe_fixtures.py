# recipe_fixtures.py: what test_recipes.py and test_export.py share: the
# test SPIR-V, a content variant of it, the compute recipe of the test
# shader, and a TestCase base with a headless device under the validation
# layer (any validation error fails the class) and a PscError assertion.
# Imported after Psc was required by the test module.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import unittest

from gi.repository import GLib, Psc

COMPUTE, STORAGE_BUFFER = 0x20, 7


def read_bytes(var):
    with open(os.environ[var], 'rb') as f:
        return GLib.Bytes.new(f.read())


def spirv_variant(data, n):
    # Word 2 of the header is the generator's magic: other content, same shader.
    b = bytearray(data.get_data())
    b[8:12] = (0x7fff0000 + n).to_bytes(4, 'little')
    return GLib.Bytes.new(bytes(b))


def compute_recipe(comp):
    r = Psc.Recipe.new_compute()
    r.add_stage(COMPUTE, comp, 'main')
    s = r.add_set_layout(0)
    r.add_set_binding(s, 0, STORAGE_BUFFER, 1, COMPUTE, 0)
    r.add_push_constant_range(COMPUTE, 0, 4)
    return r


class DeviceTestCase(unittest.TestCase):
    """A headless device with validation and the test shaders, per class."""

    @classmethod
    def setUpClass(cls):
        cls.device = Psc.Device.new_headless(Psc.DeviceFlags.VALIDATION)
        cls.vert = read_bytes('PSC_TEST_VERT_SPV')
        cls.frag = read_bytes('PSC_TEST_FRAG_SPV')
        cls.comp = read_bytes('PSC_TEST_SPV')

    @classmethod
    def tearDownClass(cls):
        count = cls.device.props.validation_error_count
        del cls.device
        if count:
            raise AssertionError(f'{count} Vulkan validation errors')

    def assertPscError(self, cm, code, prefix=None):
        err = cm.exception
        self.assertTrue(err.matches(Psc.error_quark(), code),
                        f'expected {code!r}, got {err.domain} {err.code}: {err.message}')
        if prefix is not None:
            self.assertTrue(err.message.startswith(prefix), err.message)
