#!/usr/bin/python3
# fake-cache.py: a stand-in for an application exporting
# io.github.psocache.Cache1 (data/io.github.psocache.Cache1.xml), for
# psocachectl's argument, format, exit-code and error-reply tests only (the
# real export is tested against the library). It owns one bus name, exports
# COUNT objects /io/github/psocache/Cache1/<n> listed by an ObjectManager at
# /io/github/psocache/Cache1 (with --root-object: one object at
# /io/github/psocache/Cache1 itself and no ObjectManager), logs every call it
# gets (one line: path, method, arguments), and with --tick MS bumps Hits and
# sends PropertiesChanged every MS milliseconds. InvalidateShader,
# InvalidateAll and Save emit Invalidated (generation 1, 2, ...) and Saved
# (TRUE, 4096). --fail METHOD=ERROR answers METHOD with
# io.github.psocache.Error.ERROR; --quit-on METHOD exits when METHOD is
# called, without replying; --quit-after MS exits after MS milliseconds.
#
# usage: fake-cache.py XML --name NAME --ready FILE --log FILE [--app-id ID]
#        [--pid PID] [--objects COUNT] [--root-object] [--read-only]
#        [--tick MS] [--fail METHOD=ERROR]... [--quit-on METHOD]
#        [--quit-after MS]
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import os
import sys

import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

IFACE = 'io.github.psocache.Cache1'
ROOT = '/io/github/psocache/Cache1'
ERR = 'io.github.psocache.Error.'
OM_XML = '''<node><interface name="org.freedesktop.DBus.ObjectManager">
  <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" direction="out"/></method>
  <signal name="InterfacesAdded"><arg type="o"/><arg type="a{sa{sv}}"/></signal>
  <signal name="InterfacesRemoved"><arg type="o"/><arg type="as"/></signal>
</interface></node>'''
CONTROLS = ('Evict', 'InvalidateShader', 'InvalidateAll', 'Save', 'Trim')
SHADERS = (1, 2, 3)

p = argparse.ArgumentParser()
p.add_argument('xml')
p.add_argument('--name', required=True)
p.add_argument('--ready', required=True)
p.add_argument('--log', required=True)
p.add_argument('--app-id', default='org.example.Game')
p.add_argument('--pid', type=int, default=0)
p.add_argument('--objects', type=int, default=1)
p.add_argument('--read-only', action='store_true')
p.add_argument('--tick', type=int, default=0)
p.add_argument('--root-object', action='store_true')
p.add_argument('--fail', action='append', default=[])
p.add_argument('--quit-on')
p.add_argument('--quit-after', type=int, default=0)
a = p.parse_args()
fail = dict(f.split('=', 1) for f in a.fail)
generation = [0]

with open(a.xml) as f:
    iface_info = Gio.DBusNodeInfo.new_for_xml(f.read()).lookup_interface(IFACE)
om_info = Gio.DBusNodeInfo.new_for_xml(OM_XML).interfaces[0]
log = open(a.log, 'a', buffering=1)


class Cache:
    def __init__(self, n):
        self.path = ROOT if a.root_object else '%s/%d' % (ROOT, n)
        self.props = {
            'ApplicationId': GLib.Variant('s', a.app_id),
            'Pid': GLib.Variant('u', a.pid),
            'DeviceName': GLib.Variant('s', 'llvmpipe (fake %d)' % n),
            'VendorId': GLib.Variant('u', 0x10005),
            'DeviceId': GLib.Variant('u', 0),
            'DriverVersion': GLib.Variant('u', (24 << 22) | (2 << 12) | 8),
            'PipelineCacheUuid': GLib.Variant('s', '0123456789abcdef0123456789abcdef'),
            'CacheDirectory': GLib.Variant('s', '/tmp/psocache/%s' % a.app_id),
            'Backend': GLib.Variant('s', 'dynamic-rendering'),
            'ReadOnly': GLib.Variant('b', a.read_only),
            'Entries': GLib.Variant('t', 3),
            'Hits': GLib.Variant('t', 100 * n),
            'Misses': GLib.Variant('t', 7),
            'Compiling': GLib.Variant('u', 0),
            'QueueDepth': GLib.Variant('u', 0),
            'HostBytes': GLib.Variant('t', 4096),
        }

    def entries(self):
        return [(1, 'graphics-pipeline', 0xfedcba9876543210, 'ready', 1, 41, 2048),
                (2, 'compute-pipeline', 0x0123456789abcdef, 'compiling', 0, 42, 1024),
                (3, 'sampler', 0x8000000000000001, 'ready', 0, 40, 1024)]


caches = [Cache(i) for i in range(1 if a.root_object else a.objects)]


def emit(cache, name, signature, values):
    bus.emit_signal(None, cache.path, IFACE, name, GLib.Variant(signature, values))


def on_call(conn, sender, path, iface, method, params, inv, cache=None):
    args = ' '.join(str(x) for x in params.unpack())
    log.write(('%s %s %s' % (path, method, args)).rstrip() + '\n')
    if method == a.quit_on:
        log.close()
        os._exit(0)
    if method == 'GetManagedObjects':
        objs = {c.path: {IFACE: c.props} for c in caches}
        inv.return_value(GLib.Variant('(a{oa{sa{sv}}})', (objs,)))
        return
    if method in CONTROLS and a.read_only:
        inv.return_dbus_error(ERR + 'ReadOnly', 'the cache is exported read-only')
        return
    if method in fail:
        inv.return_dbus_error(ERR + fail[method], 'fake-cache: %s refused' % method)
        return
    if method == 'GetStatistics':
        stats = {'pipelines-created': GLib.Variant('t', 3),
                 'hits': cache.props['Hits'],
                 'misses': cache.props['Misses']}
        inv.return_value(GLib.Variant('(a{sv})', (stats,)))
    elif method == 'Evict':
        inv.return_value(GLib.Variant('(u)', (2,)))
    elif method == 'InvalidateShader':
        if params.unpack()[0] not in SHADERS:
            inv.return_dbus_error(ERR + 'InvalidArgument',
                                  'shader_id: %d is no registered shader' % params.unpack()[0])
        else:
            generation[0] += 1
            inv.return_value(None)
            emit(cache, 'Invalidated', '(uu)', (params.unpack()[0], generation[0]))
    elif method == 'InvalidateAll':
        generation[0] += 1
        inv.return_value(None)
        emit(cache, 'Invalidated', '(uu)', (0, generation[0]))
    elif method == 'Save':
        inv.return_value(None)
        emit(cache, 'Saved', '(bt)', (True, 4096))
    elif method == 'Trim':
        inv.return_value(GLib.Variant('(t)', (12345,)))
    elif method == 'ListEntries':
        off, lim = params.unpack()
        e = cache.entries()
        inv.return_value(GLib.Variant('(a(ustsutt)u)', (e[off:off + min(lim, 1024)], len(e))))
    elif method == 'GetRecentEvents':
        inv.return_value(GLib.Variant('(aa{sv})', ([],)))
    else:
        inv.return_dbus_error('org.freedesktop.DBus.Error.UnknownMethod', method)


def on_get(conn, sender, path, iface, prop, cache=None):
    return cache.props[prop]


def tick():
    for c in caches:
        c.props['Hits'] = GLib.Variant('t', c.props['Hits'].unpack() + 1)
        bus.emit_signal(None, c.path, 'org.freedesktop.DBus.Properties', 'PropertiesChanged',
                        GLib.Variant('(sa{sv}as)', (IFACE, {'Hits': c.props['Hits']}, [])))
    return True


def acquired(conn, name):
    with open(a.ready, 'w') as f:
        f.write(name + '\n')


def lost(conn, name):
    sys.stderr.write('fake-cache: lost or could not own %s\n' % name)
    os._exit(1)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
if not a.root_object:
    bus.register_object(ROOT, om_info, on_call, None, None)
for c in caches:
    bus.register_object(c.path, iface_info,
                        lambda *x, c=c: on_call(*x, cache=c),
                        lambda *x, c=c: on_get(*x, cache=c), None)
Gio.bus_own_name_on_connection(bus, a.name, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, acquired, lost)
if a.tick:
    GLib.timeout_add(a.tick, tick)
if a.quit_after:
    GLib.timeout_add(a.quit_after, lambda: os._exit(0))
GLib.MainLoop().run()
