#!/usr/bin/python3
# test-demo-persist.py: psocache-demo's persistence, as a user runs it: the
# first run saves under an isolated $XDG_CACHE_HOME, the second loads, a
# damaged file is reported with its reason and changes nothing in the
# image, --no-persist and PSOCACHE_DISABLE=1 read and write nothing. Each run
# ends with the --json line (docs/persistence.md). TAP output.
#
# usage: test-demo-persist.py PSOCACHE-DEMO
import glob
import json
import os
import subprocess
import sys
import tempfile

demo = sys.argv[1]
n = 0
failures = 0


def check(ok, what):
    global n, failures
    n += 1
    print(('ok %d - %s' if ok else 'not ok %d - %s') % (n, what))
    if not ok:
        failures += 1


def run(home, out, *args, env_extra=None):
    env = dict(os.environ, XDG_CACHE_HOME=home)
    env.pop('PSOCACHE_DISABLE', None)
    env.pop('PSOCACHE_DIR', None)
    env.update(env_extra or {})
    p = subprocess.run([demo, '--frames', '2', '--validate', '--json', '-o', out] + list(args),
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print('# exit %d\n# %s' % (p.returncode, p.stderr.replace('\n', '\n# ')))
    check(p.returncode == 0, 'psocache-demo %s exits 0' % ' '.join(args))
    last = p.stdout.strip().splitlines()[-1]
    return json.loads(last), p.stderr


def same(a, b):
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


with tempfile.TemporaryDirectory() as tmp:
    home = os.path.join(tmp, 'cache')
    cold_ppm = os.path.join(tmp, 'cold.ppm')
    j, _ = run(home, cold_ppm)
    p = j['persistence']
    check(p['enabled'] and p['saved'] and p['rejected'] == {} and p['driver_bytes_loaded'] == 0,
          'first run: persistence on, nothing loaded, saved')
    check(j['pipelines'] > 100 and j['first_frame_ms'] > 0, 'the JSON line names the scene')
    appdir = os.path.join(home, 'psocache', 'io.github.psocache.Demo')
    files = glob.glob(os.path.join(appdir, 'driver-*.pscache'))
    check(len(files) == 1, 'one driver file under $XDG_CACHE_HOME/psocache/io.github.psocache.Demo')
    check(os.stat(appdir).st_mode & 0o777 == 0o700, 'the directory is private (0700)')

    warm_ppm = os.path.join(tmp, 'warm.ppm')
    j, _ = run(home, warm_ppm)
    p = j['persistence']
    check(p['driver_bytes_loaded'] > 0 and p['rejected'] == {}, 'second run: the file is loaded')
    check(p['recipes_loaded'] >= j['pipelines'] and p['prewarmed'] > 0 and p['recipes_stale'] == 0,
          'second run: recipes loaded and prewarmed before the first frame')
    check(all(k in p for k in ('artifacts_loaded', 'driver_cache_hits')),
          'the JSON line carries every documented field')
    check(same(cold_ppm, warm_ppm), 'second run: the same image')

    with open(files[0], 'r+b') as f:
        f.truncate(40)
    bad_ppm = os.path.join(tmp, 'bad.ppm')
    j, err = run(home, bad_ppm)
    p = j['persistence']
    check(p['rejected'] == {'truncated': 1} and p['driver_bytes_loaded'] == 0,
          'a truncated file: rejected with its reason')
    check('was not used (truncated' in err, 'a truncated file: one warning naming the reason')
    check(same(cold_ppm, bad_ppm), 'a truncated file: the same image')

    off_ppm = os.path.join(tmp, 'off.ppm')
    other = os.path.join(tmp, 'other-cache')
    j, _ = run(other, off_ppm, '--no-persist')
    check(not j['persistence']['enabled'] and not j['persistence']['saved'], '--no-persist: off')
    check(not os.path.exists(os.path.join(other, 'psocache')), '--no-persist: nothing written')
    j, _ = run(other, off_ppm, env_extra={'PSOCACHE_DISABLE': '1'})
    check(not j['persistence']['enabled'], 'PSOCACHE_DISABLE=1: off')
    check(not os.path.exists(os.path.join(other, 'psocache')), 'PSOCACHE_DISABLE=1: nothing written')
    check(same(cold_ppm, off_ppm), 'persistence off: the same image')

print('1..%d' % n)
sys.exit(1 if failures else 0)
