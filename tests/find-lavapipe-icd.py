#!/usr/bin/env python3
# find-lavapipe-icd.py: prints the path of Mesa lavapipe's ICD manifest, for
# the test environment's VK_DRIVER_FILES.
#
#   find-lavapipe-icd.py HOST_CPU
#
# Mesa installs the manifest as lvp_icd.<cpu>.json (x86_64, aarch64, i686,
# ...) in a Vulkan ICD directory. The directories are searched in the
# loader's order for system manifests ($XDG_CONFIG_DIRS, /etc,
# $XDG_DATA_DIRS; the user's own $HOME directories are left out so that a
# build does not depend on who configures it). One lvp_icd.*.json is taken as
# is; of several (a multiarch system), the one named for HOST_CPU. Nothing
# found, or several with none for HOST_CPU, is an error (exit 1, the reason
# on stderr): the test suites never run on a guessed driver.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import json
import os
import sys


def icd_directories():
    config_dirs = os.environ.get('XDG_CONFIG_DIRS') or '/etc/xdg'
    data_dirs = os.environ.get('XDG_DATA_DIRS') or '/usr/local/share:/usr/share'
    dirs = [os.path.join(d, 'vulkan', 'icd.d') for d in config_dirs.split(':') if d]
    dirs.append('/etc/vulkan/icd.d')
    dirs += [os.path.join(d, 'vulkan', 'icd.d') for d in data_dirs.split(':') if d]
    return dirs


def is_manifest(path):
    try:
        with open(path) as f:
            return 'library_path' in json.load(f).get('ICD', {})
    except (OSError, ValueError, AttributeError):
        return False


def main():
    if len(sys.argv) != 2:
        print('usage: find-lavapipe-icd.py HOST_CPU', file=sys.stderr)
        return 2
    host_cpu = sys.argv[1]
    dirs = icd_directories()
    found, seen = [], set()
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, 'lvp_icd.*.json'))):
            real = os.path.realpath(path)
            if real not in seen and is_manifest(path):
                seen.add(real)
                found.append(path)

    if len(found) == 1:
        print(found[0])
        return 0
    if not found:
        print('no lavapipe ICD manifest (lvp_icd.*.json) in ' + ', '.join(dirs) +
              ': install mesa-vulkan-drivers, or name one with -Dlavapipe_icd=PATH',
              file=sys.stderr)
        return 1
    for path in found:
        if os.path.basename(path) == f'lvp_icd.{host_cpu}.json':
            print(path)
            return 0
    print(f'several lavapipe ICD manifests and none for {host_cpu}: ' + ', '.join(found) +
          ': choose one with -Dlavapipe_icd=PATH', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
