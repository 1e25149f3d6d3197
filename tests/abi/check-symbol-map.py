#!/usr/bin/env python3
# check-symbol-map.py: the linker version script against what the library
# exports.
#
#   check-symbol-map.py [--update] --version X.Y.Z MAP VERSIONED.so UNVERSIONED.so
#
# Three sets are compared:
#   map          the global: lines of the version script MAP;
#   declared     the dynamic symbols of UNVERSIONED.so, the same objects
#                linked without the version script: what the code marks
#                public (default visibility: the PSC_AVAILABLE_IN_* macros);
#   exported     the dynamic symbols of VERSIONED.so, the real library,
#                with the version node each one is bound to.
# The check fails on any difference in either direction: a public function
# missing from the map (which `local: *;` would silently hide), a stale map
# line (a symbol the code no longer defines), an export bound to another node
# than the map says, or a newest node that is not PSOCACHE_<major>.<minor>
# of the project version. Only GNU-style (readelf) tools are used.
#
# With --update, MAP is rewritten instead (VERSIONED.so is not read):
# symbols that are gone leave their node, new ones join the newest node.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import re
import subprocess
import sys

NODE_PREFIX = 'PSOCACHE_'

HEADER = '''\
/* psocache-1.map: the linker version script of libpsocache-1.so.0.
 *
 * Each exported symbol is listed in the node of the release that added it
 * (PSOCACHE_<major>.<minor>, each node inheriting the one before); the
 * symbols of a released node never change. Everything else is local.
 * Written by .ci/update-abi-baseline (tests/abi/check-symbol-map.py
 * --update): keep its layout. To start a new release, append an empty node
 * `PSOCACHE_0.2 { } PSOCACHE_0.1;` and run the script: new symbols join
 * the newest node. Checked by the `abi` suite; see docs/abi.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
'''


class MapError(Exception):
    pass


def parse_map(text):
    """Returns [(node, parent, [symbols])] in file order, and whether a
    `local: *;` is present. Wildcards are refused in global: sections, since
    they would export new symbols unnoticed."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    tokens = re.findall(r'[{};:]|[^\s{};:]+', text)
    nodes, has_local_star, i = [], False, 0

    def expect(tok):
        nonlocal i
        if i >= len(tokens) or tokens[i] != tok:
            got = tokens[i] if i < len(tokens) else 'end of file'
            raise MapError(f'expected "{tok}", got "{got}"')
        i += 1

    while i < len(tokens):
        name = tokens[i]
        i += 1
        expect('{')
        symbols, section = [], None
        while i < len(tokens) and tokens[i] != '}':
            if i + 1 < len(tokens) and tokens[i + 1] == ':':
                section = tokens[i]
                if section not in ('global', 'local'):
                    raise MapError(f'{name}: unknown section "{section}:"')
                i += 2
                continue
            sym = tokens[i]
            i += 1
            expect(';')
            if section == 'local':
                if sym != '*':
                    raise MapError(f'{name}: only "local: *;" is used, not "{sym}"')
                has_local_star = True
            elif any(c in sym for c in '*?['):
                raise MapError(f'{name}: wildcard "{sym}" in global: (list symbols one by one)')
            else:
                symbols.append(sym)
        expect('}')
        parent = None
        if i < len(tokens) and tokens[i] != ';':
            parent = tokens[i]
            i += 1
        expect(';')
        nodes.append((name, parent, symbols))
    return nodes, has_local_star


def dynamic_symbols(lib):
    """{name: (version, is_default)} of the symbols LIB defines and exports."""
    out = subprocess.run(['readelf', '-W', '--dyn-syms', lib], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name [(n)]
        if len(fields) < 8 or not fields[0].endswith(':') or not fields[0][:-1].isdigit():
            continue
        kind, bind, ndx, name = fields[3], fields[4], fields[6], fields[7]
        if ndx in ('UND', 'ABS') or bind not in ('GLOBAL', 'WEAK'):
            continue  # imports; version-node marker symbols
        if kind not in ('FUNC', 'OBJECT', 'IFUNC', 'TLS', 'NOTYPE'):
            continue
        version, default = None, False
        if '@@' in name:
            name, version = name.split('@@', 1)
            default = True
        elif '@' in name:
            name, version = name.split('@', 1)
        symbols[name] = (version, default)
    return symbols


def check(nodes, has_local_star, version, exported, declared):
    errors = []
    if not nodes:
        return ['the map has no version node']
    if not has_local_star:
        errors.append('the map has no "local: *;": symbols outside it would be exported')

    map_node = {}
    for idx, (name, parent, symbols) in enumerate(nodes):
        if not name.startswith(NODE_PREFIX):
            errors.append(f'node {name}: names are {NODE_PREFIX}<major>.<minor>')
        expected_parent = nodes[idx - 1][0] if idx > 0 else None
        if parent != expected_parent:
            errors.append(f'node {name} must inherit {expected_parent or "nothing"}, not {parent}')
        for sym in symbols:
            if sym in map_node:
                errors.append(f'{sym} is listed in {map_node[sym]} and again in {name}')
            map_node.setdefault(sym, name)

    major, minor = version.split('.')[:2]
    newest = f'{NODE_PREFIX}{major}.{minor}'
    if nodes[-1][0] != newest:
        errors.append(f'the newest node is {nodes[-1][0]}, but the project version {version} '
                      f'needs {newest} (append "{newest} {{ }} {nodes[-1][0]};")')

    for sym in sorted(set(declared) - set(map_node)):
        errors.append(f'{sym} is public in the code (default visibility) but not in the map: '
                      f'run .ci/update-abi-baseline (it joins {nodes[-1][0]})')
    for sym in sorted(set(map_node) - set(declared)):
        errors.append(f'stale map line: {sym} ({map_node[sym]}) is not a public symbol of the code')
    for sym in sorted(set(declared)):
        if not sym.startswith('psc_'):
            errors.append(f'{sym} is public but outside the psc_ namespace')

    if exported is not None:
        for sym in sorted(set(map_node) & set(declared)):
            if sym not in exported:
                errors.append(f'{sym} is in the map but the library does not export it')
                continue
            got, default = exported[sym]
            if got is None:
                errors.append(f'{sym} is exported without a version, the map says {sym}@@{map_node[sym]} '
                              '(is the version script passed to the linker?)')
            elif got != map_node[sym] or not default:
                errors.append(f'{sym} is exported as {sym}{"@@" if default else "@"}{got}, '
                              f'the map says {sym}@@{map_node[sym]}')
        for sym in sorted(set(exported) - set(map_node)):
            errors.append(f'the library exports {sym}, which the map does not list '
                          '(is the version script passed to the linker?)')
    return errors


def render(nodes):
    out = [HEADER]
    for idx, (name, parent, symbols) in enumerate(nodes):
        out.append(f'{name} {{\n')
        if symbols:
            out.append('  global:\n')
            out.extend(f'    {sym};\n' for sym in sorted(symbols))
        if idx == 0:
            out.append('  local:\n    *;\n')
        out.append('}' + (f' {parent}' if parent else '') + ';\n')
    return ''.join(out)


def update(nodes, declared):
    declared = set(declared)
    listed = {sym for _, _, symbols in nodes for sym in symbols}
    kept = [(name, parent, [s for s in symbols if s in declared])
            for name, parent, symbols in nodes]
    name, parent, symbols = kept[-1]
    kept[-1] = (name, parent, symbols + sorted(declared - listed))
    for sym in sorted(listed - declared):
        print(f'removed from the map: {sym}')
    for sym in sorted(declared - listed):
        print(f'added to {name}: {sym}')
    return kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--update', action='store_true')
    ap.add_argument('--version', required=True, help='the project version, X.Y.Z')
    ap.add_argument('map')
    ap.add_argument('versioned')
    ap.add_argument('unversioned')
    args = ap.parse_args()

    with open(args.map) as f:
        try:
            nodes, has_local_star = parse_map(f.read())
        except MapError as e:
            print(f'{args.map}: {e}', file=sys.stderr)
            return 1
    declared = dynamic_symbols(args.unversioned)
    if not declared:
        print(f'{args.unversioned} exports nothing: not the unversioned twin?', file=sys.stderr)
        return 1

    if args.update:
        with open(args.map, 'w') as f:
            f.write(render(update(nodes, declared)))
        return 0

    exported = dynamic_symbols(args.versioned)
    errors = check(nodes, has_local_star, args.version, exported, declared)
    for e in errors:
        print(f'error: {e}', file=sys.stderr)
    if errors:
        print(f'{len(errors)} difference(s) between {args.map} and the library', file=sys.stderr)
        return 1
    print(f'ok: {len(declared)} public symbols, all in the map, all exported with their version')
    return 0


if __name__ == '__main__':
    sys.exit(main())
