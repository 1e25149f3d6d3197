# Psc.py: PyGObject overrides for the Psc namespace (libpsocache).
#
# PscDevice and PscCache implement GInitable: construction that can fail
# goes through g_initable_init (). PyGObject (3.42) does not call it for
# Psc.Cache (...) or Psc.Device (...), which would leave an object that is
# not open. These overrides call it, so construction with keyword
# properties works as Python users expect and fails with GLib.Error:
#
#     device = Psc.Device(headless=True, flags=Psc.DeviceFlags.VALIDATION)
#     cache = Psc.Cache(device=device, workers=2)
#     Psc.Cache()          # raises GLib.Error (PSC_ERROR_INVALID_ARGUMENT)
#
# Objects from the constructors (Psc.Cache.new, Psc.Device.new_headless)
# are initialized by the library and never pass through __init__.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ..module import get_introspection_module
from ..overrides import override

Psc = get_introspection_module('Psc')

__all__ = []


class Device(Psc.Device):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.init(None)


Device = override(Device)
__all__.append('Device')


class Cache(Psc.Cache):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.init(None)


Cache = override(Cache)
__all__.append('Cache')
