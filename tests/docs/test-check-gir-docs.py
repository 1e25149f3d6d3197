#!/usr/bin/env python3
# test-check-gir-docs.py: check-gir-docs.py can fail. It runs the check on
# two crafted GIRs with their headers (next to this script): good.gir must
# pass, bad.gir must fail and name each offender. TAP output.
#
#   test-check-gir-docs.py CHECK-GIR-DOCS.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (what the output must say, why): one line of the check's report each.
BAD_EXPECTED = [
    ('function Psc.undocumented_function (psc_undocumented_function)',
     'undocumented: no gtk-doc comment', 'an undocumented function'),
    ('function Psc.unversioned_function (psc_unversioned_function)',
     'no Since: tag', 'a function without Since:'),
    ('method Psc.Thing.returns_only (psc_thing_returns_only)', 'no description',
     'a method whose comment has only Returns:'),
    ('member Psc.Mood.undocumented_member (PSC_MOOD_UNDOCUMENTED_MEMBER)',
     'undocumented', 'an undocumented enumeration member'),
    ('property Psc.Thing:unversioned-size', 'no Since: tag', 'a property without Since:'),
    ('signal Psc.Thing::undocumented-poked', 'undocumented', 'an undocumented signal'),
    ('psc_thing_mismatch: PSC_AVAILABLE_IN_0_2', 'documentation says Since: 0.1',
     'a macro that disagrees with Since:'),
    ('method Psc.Thing.future (psc_thing_future)', 'newer than the project version 0.3',
     'a Since: newer than the project'),
    ('psc_thing_future: PSC_AVAILABLE_IN_0_1', 'documentation says Since: 0.9',
     'the same method\'s macro disagreeing'),
    ('psc_not_in_gir carries PSC_AVAILABLE_IN_0_1', 'not in the GIR',
     'a marked declaration missing from the GIR'),
    ('function Psc.unmarked_function (psc_unmarked_function)',
     'declared without PSC_AVAILABLE_IN_X_Y', 'a function without an availability macro'),
]


def run(check, name):
    proc = subprocess.run(
        [sys.executable, check, '--project-version', '0.3.0',
         '--header', os.path.join(HERE, name + '.h'), os.path.join(HERE, name + '.gir')],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def main():
    check = sys.argv[1]
    results = []

    rc, out = run(check, 'good')
    results.append((rc == 0, 'good.gir passes (exit %d)' % rc, out))

    rc, out = run(check, 'bad')
    results.append((rc == 1, 'bad.gir fails with exit 1 (exit %d)' % rc, out))
    lines = out.splitlines()
    for subject, reason, what in BAD_EXPECTED:
        found = any(subject in line and reason in line for line in lines)
        results.append((found, 'bad.gir: reported %s: %s ... %s' % (what, subject, reason), out))
    errors = [line for line in lines if line.startswith('error: ')]
    results.append((len(errors) == len(BAD_EXPECTED),
                    'bad.gir: %d offenders reported, %d expected' % (len(errors), len(BAD_EXPECTED)),
                    out))

    print('1..%d' % len(results))
    failed = 0
    for i, (ok, name, out) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
        if not ok:
            failed += 1
            for line in out.splitlines():
                print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
