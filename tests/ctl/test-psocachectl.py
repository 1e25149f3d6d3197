#!/usr/bin/python3
# psocachectl against fake-cache.py (a Gio stand-in for an exporting
# application) on a private session bus: every command, its --json output
# checked against what the fake reports and the calls it logged, exit codes
# (0 done, 1 the remote call failed, 2 usage, 3 no such cache or no bus),
# error names of remote failures, discovery of both name forms, selection,
# watch (plain lines, JSON lines, a terminal), --help per command and the
# man page naming every command and option.
#
# Run by meson under dbus-run-session (tests/ctl/meson.build):
#   test-psocachectl.py PSOCACHECTL SOURCE_ROOT [unittest arguments]
# It refuses to run on a bus that is not private (DBUS_SESSION_BUS_ADDRESS
# must have been set by dbus-run-session: PSC_CTL_PRIVATE_BUS=1).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time
import unittest

import gi  # noqa: F401  (no gi: the suite fails, as fake-cache.py needs it)
gi.require_version('Gio', '2.0')
from gi.repository import Gio  # noqa: E402,F401

CTL = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
del sys.argv[1:3]
FAKE = os.path.join(SRC, 'tests', 'ctl', 'fake-cache.py')
XML = os.path.join(SRC, 'data', 'io.github.psocache.Cache1.xml')
PY = '/usr/bin/python3'

ERR = 'io.github.psocache.Error.'
ROOT = '/io/github/psocache/Cache1'
NAME = 'io.github.psocache.Cache1.org.example.Game.pid4242'
COMMANDS = ('list', 'status', 'watch', 'entries', 'evict', 'invalidate', 'save', 'trim')
# The fake's entries (fake-cache.py Cache.entries).
ENTRIES = [
    {'id': 1, 'kind': 'graphics-pipeline', 'key_hash': 'fedcba9876543210', 'state': 'ready',
     'generation': 1, 'last_used_frame': 41, 'host_bytes': 2048},
    {'id': 2, 'kind': 'compute-pipeline', 'key_hash': '0123456789abcdef', 'state': 'compiling',
     'generation': 0, 'last_used_frame': 42, 'host_bytes': 1024},
    {'id': 3, 'kind': 'sampler', 'key_hash': '8000000000000001', 'state': 'ready',
     'generation': 0, 'last_used_frame': 40, 'host_bytes': 1024},
]

ENV = dict(os.environ, LC_ALL='C.UTF-8', G_DEBUG='gc-friendly,fatal-criticals')
ENV.pop('LANGUAGE', None)


class Fake:
    """One fake-cache.py process owning one bus name."""

    def __init__(self, name=NAME, pid=4242, app_id='org.example.Game', objects=1, *extra):
        self.dir = tempfile.TemporaryDirectory(prefix='psc-ctl-')
        self.name = name
        self.ready = os.path.join(self.dir.name, 'ready')
        self.log = os.path.join(self.dir.name, 'log')
        self.proc = subprocess.Popen([PY, FAKE, XML, '--name', name, '--ready', self.ready,
                                      '--log', self.log, '--app-id', app_id, '--pid', str(pid),
                                      '--objects', str(objects)] + list(extra), env=ENV)
        deadline = time.monotonic() + 20
        while not (os.path.exists(self.ready) and os.path.getsize(self.ready) > 0):
            if self.proc.poll() is not None:
                raise RuntimeError('fake-cache.py exited with %d' % self.proc.returncode)
            if time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError('fake-cache.py did not own %s' % name)
            time.sleep(0.02)

    def calls(self):
        """The calls logged, discovery's GetManagedObjects left out."""
        with open(self.log) as f:
            return [line.rstrip('\n') for line in f if not line.rstrip().endswith('GetManagedObjects')]

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(10)
        self.dir.cleanup()


def ctl(*args, env=None, timeout=30):
    r = subprocess.run([CTL] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env or ENV, timeout=timeout)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


class CtlTestCase(unittest.TestCase):
    def setUp(self):
        self.fakes = []

    def tearDown(self):
        for f in self.fakes:
            f.close()

    def fake(self, *args, **kwargs):
        f = Fake(*args, **kwargs)
        self.fakes.append(f)
        return f

    def run_ok(self, *args):
        rc, out, err = ctl(*args)
        self.assertEqual(rc, 0, 'psocachectl %s: %s' % (' '.join(map(str, args)), err))
        self.assertNotIn('CRITICAL', err)
        self.assertNotIn('WARNING', err)
        return out, err

    def run_json(self, *args):
        out, err = self.run_ok(*(args + ('--json',)))
        return json.loads(out)

    def run_rc(self, rc, *args):
        got, out, err = ctl(*args)
        self.assertEqual(got, rc, 'psocachectl %s gave %d, not %d: %s%s' % (
            ' '.join(map(str, args)), got, rc, out, err))
        self.assertNotIn('CRITICAL', err)
        return out, err

    def assert_remote_error(self, error, message, *args):
        """A remote failure: exit 1, "psocachectl CMD: NAME: MESSAGE" on
        standard error (nothing on standard output), and with --json also
        {"error": {"name", "message"}} on standard output."""
        out, err = self.run_rc(1, *args)
        self.assertEqual(err, 'psocachectl %s: %s%s: %s\n' % (args[0], ERR, error, message))
        self.assertEqual(out, '')
        out, err = self.run_rc(1, *(args + ('--json',)))
        self.assertEqual(json.loads(out), {'error': {'name': ERR + error, 'message': message}})


class TestConstants(unittest.TestCase):
    def test_names_agree_with_library(self):
        """ctl-discovery.h repeats psc-export.h's names (psocachectl does not
        include the library); the XML names the same interface."""
        def defines(path, prefix):
            with open(path) as f:
                return dict(re.findall(r'^#define %s(\w+)\s+"([^"]*)"' % prefix, f.read(), re.M))
        lib = defines(os.path.join(SRC, 'libpsocache', 'psocache', 'psc-export.h'), 'PSC_EXPORT_')
        ours = defines(os.path.join(SRC, 'daemon-tools', 'ctl-discovery.h'), 'PSC_CTL_')
        self.assertEqual(set(ours), {'INTERFACE', 'NAME_PREFIX', 'NAME_SUFFIX', 'OBJECT_PATH'})
        for k, v in ours.items():
            self.assertEqual(lib.get(k), v, k)
        with open(XML) as f:
            self.assertIn('<interface name="%s">' % ours['INTERFACE'], f.read())


class TestNoCache(CtlTestCase):
    def test_nothing_exported(self):
        out, _ = self.run_ok('list')
        self.assertIn('No application exports a cache', out)
        self.assertEqual(self.run_json('list'), {'caches': []})
        for args in (['status'], ['entries'], ['evict'], ['invalidate', '--all'], ['save'],
                     ['trim', '1M'], ['watch', '--count', '1'], ['status', '4242']):
            out, err = self.run_rc(3, *args)
            self.assertEqual(out, '')
            self.assertTrue(err.startswith('psocachectl %s: ' % args[0]), err)

    def test_no_session_bus(self):
        env = dict(ENV, DBUS_SESSION_BUS_ADDRESS='unix:path=/nonexistent/psc-ctl-no-bus')
        for args in (['list'], ['status'], ['save']):
            rc, out, err = ctl(*args, env=env)
            self.assertEqual(rc, 3, err)
            self.assertIn('no session bus', err)

    def test_other_names_are_not_caches(self):
        """Names of neither form are not listed, even with the interface; a
        Flatpak-form name without the interface is left out silently."""
        self.fake('org.example.Unrelated', 1)
        self.fake('org.example.Impostor.PsoCache1', 2, 'org.example.Impostor', 0)
        out, err = self.run_ok('list')
        self.assertIn('No application exports a cache', out)
        self.assertEqual(err, '')
        self.run_rc(3, 'status')
        # --bus-name reaches any name.
        doc = self.run_json('status', '--bus-name', 'org.example.Unrelated')
        self.assertEqual(doc['bus_name'], 'org.example.Unrelated')
        self.assertEqual(doc['pid'], 1)


class TestOneCache(CtlTestCase):
    def setUp(self):
        super().setUp()
        self.f = self.fake()

    def test_list(self):
        doc = self.run_json('list')
        self.assertEqual(len(doc['caches']), 1)
        c = doc['caches'][0]
        self.assertEqual(c, {
            'bus_name': NAME, 'object_path': ROOT + '/0', 'application_id': 'org.example.Game',
            'pid': 4242, 'device_name': 'llvmpipe (fake 0)', 'vendor_id': 0x10005,
            'device_id': 0, 'driver_version': (24 << 22) | (2 << 12) | 8,
            'pipeline_cache_uuid': '0123456789abcdef0123456789abcdef',
            'cache_directory': '/tmp/psocache/org.example.Game', 'backend': 'dynamic-rendering',
            'read_only': False, 'entries': 3, 'hits': 0, 'misses': 7, 'compiling': 0,
            'queue_depth': 0, 'host_bytes': 4096})
        out, _ = self.run_ok('list')
        lines = out.splitlines()
        self.assertEqual(len(lines), 2)
        self.assertEqual(lines[1].split(), ['4242', 'org.example.Game', 'dynamic-rendering',
                                            '3', '0', '7', NAME, ROOT + '/0'])
        self.assertEqual(self.f.calls(), [])

    def test_status(self):
        for sel in ([], ['4242'], [NAME], ['org.example.Game'], ['--bus-name', NAME],
                    ['--object-path', ROOT + '/0']):
            doc = self.run_json('status', *sel)
            self.assertEqual(doc['bus_name'], NAME)
            self.assertEqual(doc['object_path'], ROOT + '/0')
            self.assertEqual(doc['pid'], 4242)
            self.assertEqual(doc['statistics'], {'pipelines-created': 3, 'hits': 0, 'misses': 7})
        self.assertEqual(self.f.calls(), [ROOT + '/0 GetStatistics'] * 6)
        out, _ = self.run_ok('status')
        self.assertIn('%s %s/0' % (NAME, ROOT), out)
        self.assertRegex(out, r'application +org\.example\.Game\n')
        self.assertRegex(out, r'vendor:device +10005:0000\n')
        self.assertRegex(out, r'driver version +0x06002008 \(24\.2\.8\)\n')
        self.assertRegex(out, r'read-only +no\n')
        self.assertRegex(out, r'pipelines-created +3\n')
        self.assertRegex(out, r'misses +7\n')

    def test_status_no_match(self):
        for sel in (['4243'], ['org.example.Other'], ['--bus-name', 'org.example.Nobody'],
                    ['--object-path', ROOT + '/7']):
            out, err = self.run_rc(3, 'status', *sel)
            self.assertIn('no exported cache', err)
        self.assertEqual(self.f.calls(), [])

    def test_entries(self):
        doc = self.run_json('entries')
        self.assertEqual(doc, {'bus_name': NAME, 'object_path': ROOT + '/0', 'offset': 0,
                               'total': 3, 'entries': ENTRIES})
        doc = self.run_json('entries', '--offset', '1', '--limit', '1')
        self.assertEqual(doc['offset'], 1)
        self.assertEqual(doc['total'], 3)
        self.assertEqual(doc['entries'], ENTRIES[1:2])
        out, _ = self.run_ok('entries', '--offset', '2')
        rows = out.splitlines()
        self.assertEqual(rows[1].split(), ['3', 'sampler', '8000000000000001', 'ready', '0',
                                           '40', '1024'])
        self.assertEqual(rows[-1], '1 of 3 entries (from 2)')
        self.assertEqual(len(rows), 3)
        self.assertEqual(self.f.calls(), [ROOT + '/0 ListEntries 0 1024',
                                          ROOT + '/0 ListEntries 1 1',
                                          ROOT + '/0 ListEntries 2 1024'])
        for bad in (['--limit', '0'], ['--limit', '1025'], ['--offset', '-1'],
                    ['--limit', 'many'], ['one', 'two']):
            self.run_rc(2, 'entries', *bad)
        self.assertEqual(len(self.f.calls()), 3)

    def test_evict(self):
        doc = self.run_json('evict', '--idle-frames', '7')
        self.assertEqual(doc, {'bus_name': NAME, 'object_path': ROOT + '/0', 'evicted': 2})
        out, _ = self.run_ok('evict')
        self.assertEqual(out, '2 pipelines evicted\n')
        self.assertEqual(self.f.calls(), [ROOT + '/0 Evict 7', ROOT + '/0 Evict 0'])
        self.run_rc(2, 'evict', '--idle-frames', '-1')
        self.run_rc(2, 'evict', '--idle-frames', 'x')
        self.assertEqual(len(self.f.calls()), 2)

    def test_invalidate(self):
        doc = self.run_json('invalidate', '2')
        self.assertEqual(doc, {'bus_name': NAME, 'object_path': ROOT + '/0', 'shader_id': 2})
        out, _ = self.run_ok('invalidate', '3', '4242')
        self.assertEqual(out, 'shader 3 invalidated: its pipelines are compiled again\n')
        doc = self.run_json('invalidate', '--all')
        self.assertEqual(doc['shader_id'], 0)
        out, _ = self.run_ok('invalidate', '--all', '4242')
        self.assertIn('every shader invalidated', out)
        self.assertEqual(self.f.calls(), [ROOT + '/0 InvalidateShader 2',
                                          ROOT + '/0 InvalidateShader 3',
                                          ROOT + '/0 InvalidateAll', ROOT + '/0 InvalidateAll'])
        # An unknown shader: the fake's InvalidArgument and its message.
        out, err = self.run_rc(1, 'invalidate', '9')
        self.assertEqual(err, 'psocachectl invalidate: %sInvalidArgument: shader_id: 9 is no '
                              'registered shader\n' % ERR)
        self.assert_remote_error('InvalidArgument', 'shader_id: 9 is no registered shader',
                                 'invalidate', '9')
        n = len(self.f.calls())
        for bad in ([], ['x'], ['4294967296'], ['1', '2', '3'], ['--all', '1', '2']):
            out, err = self.run_rc(2, 'invalidate', *bad)
            self.assertTrue(err.startswith('psocachectl invalidate: '), err)
        self.assertEqual(len(self.f.calls()), n)

    def test_save(self):
        doc = self.run_json('save')
        self.assertEqual(doc, {'bus_name': NAME, 'object_path': ROOT + '/0', 'saved': True})
        out, _ = self.run_ok('save')
        self.assertEqual(out, 'saved\n')
        self.assertEqual(self.f.calls(), [ROOT + '/0 Save'] * 2)

    def test_trim(self):
        doc = self.run_json('trim', '2M')
        self.assertEqual(doc, {'bus_name': NAME, 'object_path': ROOT + '/0',
                               'max_bytes': 2 << 20, 'freed': 12345})
        for size, value in (('1k', 1024), ('3G', 3 << 30), ('5', 5), ('0', 0)):
            self.run_ok('trim', size)
        out, _ = self.run_ok('trim', '100', '4242')
        self.assertEqual(out, '12345 bytes freed (the directory is trimmed to at most 100 bytes)\n')
        self.assertEqual(self.f.calls(), ['%s/0 Trim %d' % (ROOT, v)
                                          for v in (2 << 20, 1024, 3 << 30, 5, 0, 100)])
        for bad in ([], ['x'], ['1X'], ['-1'], ['1.5M'], ['18446744073709551616'],
                    ['17179869184G'], ['1M', '2', '3']):
            self.run_rc(2, 'trim', *bad)
        self.assertEqual(len(self.f.calls()), 6)

    def test_remote_errors(self):
        self.f.close()
        self.fakes.remove(self.f)
        self.fake(NAME, 4242, 'org.example.Game', 1, '--fail', 'Evict=Busy', '--fail',
                  'Save=Unsupported', '--fail', 'Trim=Timeout', '--fail', 'InvalidateAll=Closed',
                  '--fail', 'GetStatistics=AccessDenied', '--fail', 'ListEntries=InvalidArgument')
        for error, args in (('Busy', ['evict']), ('Unsupported', ['save']),
                            ('Timeout', ['trim', '1M']), ('Closed', ['invalidate', '--all']),
                            ('AccessDenied', ['status']), ('InvalidArgument', ['entries'])):
            method = {'evict': 'Evict', 'save': 'Save', 'trim': 'Trim', 'invalidate': 'InvalidateAll',
                      'status': 'GetStatistics', 'entries': 'ListEntries'}[args[0]]
            self.assert_remote_error(error, 'fake-cache: %s refused' % method, *args)
        # The others still work.
        self.assertEqual(self.run_json('invalidate', '1')['shader_id'], 1)

    def test_cache_quits_during_call(self):
        self.f.close()
        self.fakes.remove(self.f)
        self.fake(NAME, 4242, 'org.example.Game', 1, '--quit-on', 'Save')
        out, err = self.run_rc(1, 'save')
        self.assertIn('org.freedesktop.DBus.Error.NoReply', err)


class TestReadOnly(CtlTestCase):
    def test_read_only(self):
        f = self.fake(NAME, 4242, 'org.example.Game', 1, '--read-only')
        self.assertIs(self.run_json('list')['caches'][0]['read_only'], True)
        self.assertIs(self.run_json('status')['read_only'], True)
        out, _ = self.run_ok('status')
        self.assertRegex(out, r'read-only +yes\n')
        self.assertEqual(len(self.run_json('entries')['entries']), 3)
        for args in (['evict'], ['invalidate', '1'], ['invalidate', '--all'], ['save'],
                     ['trim', '1M']):
            self.assert_remote_error('ReadOnly', 'the cache is exported read-only', *args)
        self.assertIn(ROOT + '/0 Evict 0', f.calls())
        self.assertIn(ROOT + '/0 Trim 1048576', f.calls())


class TestSeveral(CtlTestCase):
    def test_several_objects(self):
        f = self.fake(NAME, 4242, 'org.example.Game', 3)
        doc = self.run_json('list')
        self.assertEqual([c['object_path'] for c in doc['caches']],
                         [ROOT + '/0', ROOT + '/1', ROOT + '/2'])
        self.assertEqual([c['device_name'] for c in doc['caches']],
                         ['llvmpipe (fake 0)', 'llvmpipe (fake 1)', 'llvmpipe (fake 2)'])
        self.assertEqual([c['hits'] for c in doc['caches']], [0, 100, 200])
        for args in (['status'], ['status', '4242'], ['evict'], ['save']):
            out, err = self.run_rc(2, *args)
            self.assertIn('3 caches match', err)
            for n in range(3):
                self.assertIn('--bus-name %s --object-path %s/%d' % (NAME, ROOT, n), err)
        self.assertEqual(f.calls(), [])
        doc = self.run_json('status', '--object-path', ROOT + '/1')
        self.assertEqual(doc['device_name'], 'llvmpipe (fake 1)')
        self.assertEqual(doc['statistics']['hits'], 100)
        self.run_ok('evict', '--object-path', ROOT + '/2', '--idle-frames', '5')
        self.run_ok('entries', '--object-path', ROOT + '/0', '--limit', '2', '4242')
        self.assertEqual(f.calls(), [ROOT + '/1 GetStatistics', ROOT + '/2 Evict 5',
                                     ROOT + '/0 ListEntries 0 2'])

    def test_several_processes(self):
        a = self.fake(NAME, 4242, 'org.example.Game')
        # The name's pid999 and a Pid property that differs: both select it.
        other = 'io.github.psocache.Cache1.org.example.Other.pid999'
        b = self.fake(other, 5555, 'org.example.Other')
        doc = self.run_json('list')
        self.assertEqual([c['bus_name'] for c in doc['caches']], sorted([NAME, other]))
        out, err = self.run_rc(2, 'status')
        self.assertIn('2 caches match', err)
        self.assertIn(NAME, err)
        self.assertIn(other, err)
        self.assertEqual(self.run_json('status', '4242')['bus_name'], NAME)
        self.assertEqual(self.run_json('status', '999')['bus_name'], other)
        self.assertEqual(self.run_json('status', '5555')['bus_name'], other)
        self.assertEqual(self.run_json('status', 'org.example.Other')['bus_name'], other)
        self.assertEqual(self.run_json('status', other)['bus_name'], other)
        self.assertEqual(self.run_json('save', '--bus-name', NAME)['bus_name'], NAME)
        self.run_ok('trim', '1K', '999')
        self.assertEqual(a.calls(), [ROOT + '/0 GetStatistics', ROOT + '/0 Save'])
        self.assertEqual(b.calls(), [ROOT + '/0 GetStatistics'] * 4 + [ROOT + '/0 Trim 1024'])
        # The same application twice: its id matches both.
        self.fake('io.github.psocache.Cache1.org.example.Game.pid4343', 4343, 'org.example.Game')
        out, err = self.run_rc(2, 'status', 'org.example.Game')
        self.assertIn('2 caches match', err)
        self.assertEqual(self.run_json('status', '4343')['pid'], 4343)

    def test_flatpak_name(self):
        name = 'org.example.Flatpaked.PsoCache1'
        f = self.fake(name, 5151, 'org.example.Flatpaked')
        doc = self.run_json('list')
        self.assertEqual([(c['bus_name'], c['object_path'], c['pid']) for c in doc['caches']],
                         [(name, ROOT + '/0', 5151)])
        self.assertEqual(self.run_json('status', '5151')['application_id'], 'org.example.Flatpaked')
        self.assertEqual(self.run_json('evict', name, '--idle-frames', '3')['evicted'], 2)
        self.assertEqual(f.calls(), [ROOT + '/0 GetStatistics', ROOT + '/0 Evict 3'])
        self.fake()
        self.assertEqual(len(self.run_json('list')['caches']), 2)

    def test_root_object_without_object_manager(self):
        f = self.fake(NAME, 4242, 'org.example.Game', 1, '--root-object')
        doc = self.run_json('list')
        self.assertEqual([(c['bus_name'], c['object_path']) for c in doc['caches']],
                         [(NAME, ROOT)])
        self.assertEqual(self.run_json('save')['object_path'], ROOT)
        self.assertEqual(f.calls(), [ROOT + ' Save'])


LINE = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z entries=3 hits=(\d+) misses=7 '
                  r'compiling=0 queue_depth=0 host_bytes=4096$')


class TestWatch(CtlTestCase):
    def test_plain_lines_see_a_tick(self):
        self.fake(NAME, 4242, 'org.example.Game', 1, '--tick', '150')
        out, _ = self.run_ok('watch', '--count', '2')
        lines = out.splitlines()
        self.assertEqual(len(lines), 2, out)
        hits = [int(LINE.match(line).group(1)) for line in lines]
        # The second line is the PropertiesChanged of the next tick.
        self.assertEqual(hits[1], hits[0] + 1)

    def test_json_lines(self):
        self.fake(NAME, 4242, 'org.example.Game', 1, '--tick', '150')
        out, _ = self.run_ok('watch', '--count', '3', '--json')
        docs = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(docs), 3)
        self.assertEqual([d['type'] for d in docs], ['update'] * 3)
        self.assertEqual([d['hits'] - docs[0]['hits'] for d in docs], [0, 1, 2])
        self.assertEqual({(d['entries'], d['misses'], d['host_bytes']) for d in docs},
                         {(3, 7, 4096)})

    def test_duration_bounds_it(self):
        self.fake()
        t = time.monotonic()
        out, _ = self.run_ok('watch', '--duration', '0.6', '--count', '5')
        elapsed = time.monotonic() - t
        self.assertEqual([int(LINE.match(line).group(1)) for line in out.splitlines()], [0])
        self.assertGreaterEqual(elapsed, 0.55)
        self.assertLess(elapsed, 10)
        # --interval reads again without a change.
        out, _ = self.run_ok('watch', '--interval', '0.1', '--count', '3')
        self.assertEqual([int(LINE.match(line).group(1)) for line in out.splitlines()], [0, 0, 0])

    def test_events(self):
        """Invalidated and Saved come as event lines; they are no updates."""
        self.fake()
        for json_mode in (False, True):
            args = [CTL, 'watch', '--duration', '3'] + (['--json'] if json_mode else [])
            w = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
            first = w.stdout.readline().decode()
            self.assertTrue(first)
            self.run_ok('invalidate', '2')
            self.run_ok('save')
            out, err = w.communicate(timeout=20)
            self.assertEqual(w.returncode, 0, err)
            lines = out.decode().splitlines()
            self.assertEqual(len(lines), 2, lines)
            if json_mode:
                docs = [json.loads(line) for line in lines]
                for d in docs:
                    del d['time']
                # (The plain round invalidated once before.)
                self.assertEqual(docs, [{'type': 'invalidated', 'shader_id': 2, 'generation': 2},
                                        {'type': 'saved', 'success': True, 'bytes_written': 4096}])
            else:
                self.assertRegex(lines[0], r'Z event=invalidated shader 2 invalidated '
                                           r'\(generation 1\)$')
                self.assertRegex(lines[1], r'Z event=saved saved, 4096 bytes written$')

    def test_cache_goes_away(self):
        self.fake(NAME, 4242, 'org.example.Game', 1, '--quit-after', '800')
        out, err = self.run_rc(3, 'watch')
        self.assertEqual(len(out.splitlines()), 1)
        self.assertIn('%s went away' % NAME, err)

    def test_terminal(self):
        """On a terminal: the screen redrawn at each update."""
        self.fake(NAME, 4242, 'org.example.Game', 1, '--tick', '150')
        master, slave = pty.openpty()
        p = subprocess.Popen([CTL, 'watch', '--count', '2'], stdin=subprocess.DEVNULL,
                             stdout=slave, stderr=subprocess.PIPE, env=ENV)
        os.close(slave)
        data = b''
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 1)
            if r:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            elif p.poll() is not None:
                break
        os.close(master)
        self.assertEqual(p.wait(10), 0)
        err = p.stderr.read().decode()
        p.stderr.close()
        self.assertEqual(err, '')
        text = data.decode()
        screens = text.split('\x1b[H\x1b[2J')
        self.assertEqual(len(screens), 3, text)
        self.assertEqual(screens[0], '')
        for s in screens[1:]:
            self.assertIn('org.example.Game, pid 4242', s)
            self.assertIn(NAME, s)
            self.assertRegex(s, r'misses +7')
            self.assertIn('hit ratio', s)
        h = [int(re.search(r'hits +(\d+)', s).group(1)) for s in screens[1:]]
        self.assertEqual(h[1], h[0] + 1)
        self.assertNotIn('entries=', text)

    def test_watch_usage(self):
        self.fake()
        for bad in (['--count', '-1'], ['--interval', '-1'], ['--duration', '1e12'],
                    ['--count', 'x'], ['a', 'b']):
            self.run_rc(2, 'watch', *bad)


class TestUsage(unittest.TestCase):
    def run_rc(self, rc, *args):
        got, out, err = ctl(*args)
        self.assertEqual(got, rc, 'psocachectl %s: %s%s' % (' '.join(args), out, err))
        return out, err

    def test_help_per_command(self):
        own = {'watch': ['--count', '--interval', '--duration'],
               'entries': ['--offset', '--limit'], 'evict': ['--idle-frames'],
               'invalidate': ['--all']}
        for cmd in COMMANDS:
            out, err = self.run_rc(0, cmd, '--help')
            self.assertIn('psocachectl %s [OPTION…]' % cmd, out)
            for opt in own.get(cmd, []) + ['--json', '--bus-name', '--object-path']:
                self.assertIn(opt, out, cmd)
            for other, opts in own.items():
                if other != cmd:
                    for opt in opts:
                        self.assertNotIn(opt + ' ', out.replace('=', ' '), cmd)

    def test_top_level(self):
        out, err = self.run_rc(0, '--help')
        for cmd in COMMANDS:
            self.assertRegex(out, r'\n  %s +\S' % cmd)
        self.assertEqual(err, '')
        out, err = self.run_rc(2)
        self.assertEqual(out, '')
        self.assertIn('Usage: psocachectl COMMAND', err)
        out, err = self.run_rc(2, 'frobnicate')
        self.assertIn('unknown command “frobnicate”', err)

    def test_usage_errors(self):
        for args in (['status', '--frob'], ['status', 'a', 'b'], ['list', 'extra'],
                     ['save', 'a', 'b'], ['status', '--bus-name', 'not a name'],
                     ['status', '--object-path', 'relative/path']):
            out, err = self.run_rc(2, *args)
            self.assertTrue(err.startswith('psocachectl %s: ' % args[0]), err)
            self.assertEqual(out, '')

    def test_man_page(self):
        """psocachectl(1) names every command, every option of every
        command's --help and every exit code."""
        with open(os.path.join(SRC, 'daemon-tools', 'psocachectl.1')) as f:
            man = f.read()
        text = man.replace('\\-', '-')
        self.assertTrue(man.startswith('.TH PSOCACHECTL 1 '))
        for cmd in COMMANDS:
            self.assertIn('.B psocachectl %s' % cmd, man)
            out, _ = self.run_rc(0, cmd, '--help')
            for opt in re.findall(r'^\s+(?:-\w, )?(--[a-z-]+)', out, re.M):
                if opt != '--help':
                    self.assertIn(opt, text, '%s %s' % (cmd, opt))
        for code in ('0', '1', '2', '3'):
            self.assertRegex(man, r'\.B %s\n' % code)
        for error in ('ReadOnly', 'Busy', 'Timeout', 'AccessDenied', 'Closed', 'InvalidArgument',
                      'Unsupported'):
            self.assertIn(error, man)
        self.assertIn('PsoCache1', man)


if __name__ == '__main__':
    if os.environ.get('PSC_CTL_PRIVATE_BUS') != '1' or 'DBUS_SESSION_BUS_ADDRESS' not in os.environ:
        sys.exit('test-psocachectl.py: run it under dbus-run-session with PSC_CTL_PRIVATE_BUS=1 '
                 '(tests/ctl/meson.build)')
    unittest.main(verbosity=2)
