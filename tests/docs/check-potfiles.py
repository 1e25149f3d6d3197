#!/usr/bin/env python3
# check-potfiles.py SRCROOT: every C source of the library, the demo and
# the tools that marks a string for translation (_("...") or N_("...")) is
# listed in po/POTFILES, and every listed file exists, so xgettext never
# misses a message.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys

root = sys.argv[1]
with open(os.path.join(root, 'po', 'POTFILES')) as f:
    listed = {l.strip() for l in f if l.strip() and not l.startswith('#')}
marked = set()
mark = re.compile(r'\bN?_ ?\("')
for top in ('libpsocache', 'demo', 'daemon-tools'):
    for d, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if name.endswith('.c'):
                path = os.path.join(d, name)
                with open(path, encoding='utf-8') as f:
                    if mark.search(f.read()):
                        marked.add(os.path.relpath(path, root))
bad = False
for p in sorted(marked - listed):
    print(f'po/POTFILES lacks {p}, which marks strings for translation')
    bad = True
for p in sorted(listed):
    if not os.path.exists(os.path.join(root, p)):
        print(f'po/POTFILES lists {p}, which does not exist')
        bad = True
if bad:
    sys.exit(1)
print(f'po/POTFILES: {len(listed)} files, every marked source listed')
