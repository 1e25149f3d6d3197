#!/usr/bin/env python3
# check-gir-docs.py: every public symbol of the GIR is documented and says
# since when it exists, and the headers' availability macros agree.
#
#   check-gir-docs.py [--project-version X.Y.Z] [--header FILE|DIR]... GIR
#
# In GIR (the Psc-1.gir the build generates), every class, interface,
# record, union, boxed type, alias, enumeration and its members, bitfield
# and its members, function, method, constructor, property, signal,
# callback, constant, function macro and virtual method must have
#   - a non-empty <doc> (a gtk-doc comment in the headers or sources with a
#     description: a comment with only parameters and Returns: has none), and
#   - a `version` attribute (its `Since: X.Y` tag).
# An enumeration or bitfield member may inherit its type's version; one that
# says `Since: X.Y` at the end of its description has that version instead.
# Exempt: the class structures of final types (G_DECLARE_FINAL_TYPE: no
# public member) and fields (documented in their structure's comment).
# Versions must be `MAJOR.MINOR` and not newer than the project's version;
# a member never predates its type, nor a method its class.
#
# With --header (the public headers the GIR was made from, or directories
# of them), each
# `PSC_AVAILABLE_IN_X_Y` / `PSC_DEPRECATED_IN_X_Y[_FOR (f)]` before a
# declaration, `PSC_AVAILABLE_ENUMERATOR_IN_X_Y` after an enumerator and
# `PSC_AVAILABLE_TYPE_IN_X_Y` after a type name must agree with that
# symbol's Since: (a deprecation macro with its `Deprecated: X.Y`), every
# such symbol must be in the GIR, and every function of the GIR must carry
# one of the macros (without one it is not exported).
#
# Each offender is reported on its own line, by GIR name and C name, with
# its source position; the exit status is 1 if there is any. Only the
# Python standard library is used.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

CORE = '{http://www.gtk.org/introspection/core/1.0}'
C = '{http://www.gtk.org/introspection/c/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'

VERSION_RE = re.compile(r'^(\d+)\.(\d+)$')
MEMBER_SINCE_RE = re.compile(r'Since:\s*(\d+\.\d+)\s*\.?\s*$')

# Kinds of namespace-level elements, and the word used in messages.
TYPE_KINDS = {
    'class': 'class',
    'interface': 'interface',
    'record': 'record',
    'union': 'union',
    'enumeration': 'enumeration',
    'bitfield': 'flags',
    GLIB + 'boxed': 'boxed type',
    'alias': 'alias',
}
CALLABLE_KINDS = {
    'function': 'function',
    'function-macro': 'function macro',
    'callback': 'callback',
    'constant': 'constant',
}
# Kinds of children of a type, and the word used in messages.
CHILD_KINDS = {
    'method': 'method',
    'constructor': 'constructor',
    'function': 'function',
    'virtual-method': 'virtual method',
    'property': 'property',
    GLIB + 'signal': 'signal',
    'callback': 'callback',
    'constant': 'constant',
}


def parse_version(text):
    m = VERSION_RE.match(text or '')
    return (int(m.group(1)), int(m.group(2))) if m else None


def vstr(v):
    return '%d.%d' % v


class Symbol:
    """One public symbol of the GIR."""

    def __init__(self, kind, name, c_name, element, parent=None):
        self.kind = kind
        self.name = name
        self.c_name = c_name
        self.element = element
        self.parent = parent
        self.version = None        # (major, minor) once resolved
        self.deprecated = None     # deprecated-version, as given

    def where(self):
        pos = self.element.find(CORE + 'source-position')
        doc = self.element.find(CORE + 'doc')
        for e in (pos, doc):
            if e is not None and e.get('filename'):
                return '%s:%s' % (e.get('filename'), e.get('line', '?'))
        if self.parent is not None:
            return self.parent.where()
        return None

    def label(self):
        text = '%s %s' % (self.kind, self.name)
        if self.c_name and self.c_name != self.name:
            text += ' (%s)' % self.c_name
        where = self.where()
        if where:
            text += ' [%s]' % where
        return text


class Checker:
    def __init__(self, project_version):
        self.errors = []
        self.project = project_version
        self.symbols = []
        self.by_c_name = {}
        self.headers = []

    def error(self, sym, message):
        self.errors.append('%s: %s' % (sym.label(), message))

    def add(self, sym):
        self.symbols.append(sym)
        if sym.c_name:
            self.by_c_name.setdefault(sym.c_name, sym)
        return sym

    # -- the GIR -------------------------------------------------------------

    def doc_text(self, element):
        doc = element.find(CORE + 'doc')
        return (doc.text or '').strip() if doc is not None else ''

    def check_doc(self, sym):
        if self.doc_text(sym.element):
            return
        if any((d.text or '').strip() for d in sym.element.iter(CORE + 'doc')):
            self.error(sym, 'undocumented: its gtk-doc comment has parameters or Returns: but '
                       'no description (no <doc> of its own; gi-docgen shows "No description '
                       'available"): add a line saying what it does')
        else:
            self.error(sym, 'undocumented: no gtk-doc comment (<doc>) in the GIR')

    def check_version(self, sym, inherited=None, what='Since:'):
        raw = sym.element.get('version')
        if raw is None and inherited is not None:
            sym.version = inherited
        elif raw is None:
            self.error(sym, 'no Since: tag (no version attribute in the GIR)')
            return
        else:
            sym.version = parse_version(raw)
            if sym.version is None:
                self.error(sym, 'Since: %r is not MAJOR.MINOR' % raw)
                return
        if self.project and sym.version > self.project:
            self.error(sym, 'Since: %s is newer than the project version %s'
                       % (vstr(sym.version), vstr(self.project)))
        if sym.parent is not None and sym.parent.version and sym.version < sym.parent.version:
            self.error(sym, 'Since: %s is older than its %s %s (Since: %s)'
                       % (vstr(sym.version), sym.parent.kind, sym.parent.name,
                          vstr(sym.parent.version)))
        dep = sym.element.get('deprecated-version')
        if sym.element.get('deprecated') == '1' and dep is None:
            self.error(sym, 'deprecated without a version (Deprecated: X.Y)')
        sym.deprecated = dep

    def check_member(self, sym, type_sym):
        self.check_doc(sym)
        raw = sym.element.get('version')
        if raw is None:
            # gtk-doc has no per-member tag: a trailing "Since: X.Y" in the
            # member's description is its version, else its type's.
            m = MEMBER_SINCE_RE.search(self.doc_text(sym.element))
            if m:
                sym.element.set('version', m.group(1))
        self.check_version(sym, inherited=type_sym.version)

    def is_final_class_struct(self, element, finals):
        owner = element.get(GLIB + 'is-gtype-struct-for')
        return owner is not None and owner in finals

    def load_gir(self, path):
        tree = ET.parse(path)
        ns = tree.getroot().find(CORE + 'namespace')
        if ns is None:
            raise SystemExit('%s: no <namespace>' % path)
        prefix = ns.get('name')
        finals = {e.get('name') for e in ns.findall(CORE + 'class') if e.get('final') == '1'}
        for element in ns:
            tag = element.tag
            local = tag[len(CORE):] if tag.startswith(CORE) else tag
            if local in TYPE_KINDS or tag in TYPE_KINDS:
                kind = TYPE_KINDS.get(local, TYPE_KINDS.get(tag))
                if local == 'record' and self.is_final_class_struct(element, finals):
                    continue
                self.load_type(prefix, kind, element)
            elif local in CALLABLE_KINDS:
                sym = self.add(Symbol(CALLABLE_KINDS[local], '%s.%s' % (prefix, element.get('name')),
                                      element.get(C + 'identifier') or element.get(C + 'type'),
                                      element))
                self.check_doc(sym)
                self.check_version(sym)

    def load_type(self, prefix, kind, element):
        name = '%s.%s' % (prefix, element.get('name'))
        c_type = element.get(C + 'type') or element.get(GLIB + 'type-name')
        type_sym = self.add(Symbol(kind, name, c_type, element))
        self.check_doc(type_sym)
        self.check_version(type_sym)
        get_type = element.get(GLIB + 'get-type')
        if get_type and get_type != 'intern':
            # The get_type function is the type's own: same version.
            alias = Symbol(kind, name, get_type, element)
            alias.version = type_sym.version
            self.by_c_name.setdefault(get_type, alias)
        for child in element:
            tag = child.tag
            local = tag[len(CORE):] if tag.startswith(CORE) else tag
            if local == 'member':
                sym = self.add(Symbol('member', '%s.%s' % (name, child.get('name')),
                                      child.get(C + 'identifier'), child, type_sym))
                self.check_member(sym, type_sym)
                continue
            ckind = CHILD_KINDS.get(local, CHILD_KINDS.get(tag))
            if ckind is None:
                continue
            if local == 'property':
                cname = '%s:%s' % (c_type, child.get('name'))
                gname = '%s:%s' % (name, child.get('name'))
            elif tag == GLIB + 'signal':
                cname = '%s::%s' % (c_type, child.get('name'))
                gname = '%s::%s' % (name, child.get('name'))
            elif local == 'virtual-method':
                cname = '%s.%s()' % (c_type, child.get('name'))
                gname = '%s.%s' % (name, child.get('name'))
            else:
                cname = child.get(C + 'identifier') or child.get(C + 'type')
                gname = '%s.%s' % (name, child.get('name'))
            sym = self.add(Symbol(ckind, gname, cname, child, type_sym))
            self.check_doc(sym)
            self.check_version(sym)

    # -- the headers ---------------------------------------------------------

    def check_headers(self, paths):
        seen_macro = {}
        headers = []
        for p in paths:
            if os.path.isdir(p):
                found = sorted(glob.glob(os.path.join(p, '*.h')))
                if not found:
                    self.errors.append('no header found in %s' % p)
                headers += found
            else:
                headers.append(p)
        self.headers = headers
        for path in headers:
            with open(path, encoding='utf-8') as f:
                text = f.read()
            for c_name, macro, version, deprecated, line in scan_header(text):
                where = '%s:%d' % (os.path.relpath(path), line)
                seen_macro[c_name] = macro
                sym = self.by_c_name.get(c_name)
                if sym is None:
                    self.errors.append('%s: %s carries %s but is not in the GIR (undocumented, '
                                       'or hidden from the scanner)' % (where, c_name, macro))
                    continue
                if self.project and version > self.project:
                    self.errors.append('%s: %s: %s is newer than the project version %s'
                                       % (where, c_name, macro, vstr(self.project)))
                if deprecated:
                    dep = parse_version(sym.deprecated or '')
                    if dep != version:
                        self.errors.append('%s: %s: %s, but its documentation says %s'
                                           % (where, c_name, macro,
                                              'Deprecated: ' + sym.deprecated if sym.deprecated
                                              else 'no Deprecated: X.Y'))
                elif sym.version is not None and sym.version != version:
                    self.errors.append('%s: %s: %s, but its documentation says Since: %s'
                                       % (where, c_name, macro, vstr(sym.version)))
        if not paths:
            return
        for sym in self.symbols:
            if sym.kind in ('function', 'method', 'constructor') and sym.c_name \
                    and sym.c_name not in seen_macro:
                self.error(sym, 'declared without PSC_AVAILABLE_IN_X_Y (or PSC_DEPRECATED_IN_X_Y): '
                           'it is not exported')


MACRO_RE = re.compile(
    r'\bPSC_(AVAILABLE|DEPRECATED)(_TYPE|_ENUMERATOR)?_IN_(\d+)_(\d+)(_FOR\s*\([^()]*\))?')
DECLARE_RE = re.compile(
    r'\s*G_DECLARE_(?:FINAL|DERIVABLE|INTERFACE)_TYPE\s*\(\s*(\w+)\s*,\s*(\w+)\s*,')


def strip_comments(text):
    """Comments and preprocessor lines become spaces (newlines kept), so that
    offsets still give line numbers."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    text = re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)
    return re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', blank, text, flags=re.M)


def scan_header(text):
    """Yields (c_name, macro, (major, minor), deprecated, line) for each
    availability macro used in a header."""
    text = strip_comments(text)
    for m in MACRO_RE.finditer(text):
        macro = m.group(0)
        version = (int(m.group(3)), int(m.group(4)))
        deprecated = m.group(1) == 'DEPRECATED'
        line = text.count('\n', 0, m.start()) + 1
        if m.group(2):
            # After the name it marks: the enumerator or the typedef's name.
            before = re.findall(r'\w+', text[max(0, m.start() - 200):m.start()])
            if before:
                yield before[-1], macro, version, deprecated, line
            continue
        rest = text[m.end():]
        d = DECLARE_RE.match(rest)
        if d:
            yield d.group(1), macro, version, deprecated, line
            yield d.group(2) + '_get_type', macro, version, deprecated, line
            continue
        decl = rest.split(';', 1)[0]
        f = re.search(r'(\w+)\s*\(', decl)
        if f:
            yield f.group(1), macro, version, deprecated, line


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--project-version', help='X.Y.Z: no Since: may be newer than X.Y')
    ap.add_argument('--header', action='append', default=[], dest='headers',
                    help='a public header, or a directory of them (repeatable)')
    ap.add_argument('gir')
    args = ap.parse_args()
    project = None
    if args.project_version:
        project = parse_version('.'.join(args.project_version.split('.')[:2]))
        if project is None:
            ap.error('--project-version %r' % args.project_version)

    checker = Checker(project)
    checker.load_gir(args.gir)
    checker.check_headers(args.headers)
    gir = os.path.basename(args.gir)
    if checker.errors:
        for e in checker.errors:
            print('error: %s' % e)
        print('%s: %d problem(s) in the documentation of %d public symbols. Every public '
              'symbol needs a gtk-doc comment with a "Since: X.Y" tag matching its '
              'PSC_AVAILABLE_IN_X_Y macro.' % (gir, len(checker.errors), len(checker.symbols)))
        return 1
    kinds = {}
    for sym in checker.symbols:
        kinds[sym.kind] = kinds.get(sym.kind, 0) + 1
    print('%s: %d public symbols, each documented with a Since: tag%s (%s)' % (
        gir, len(checker.symbols),
        '; the availability macros of %d headers agree' % len(checker.headers)
        if args.headers else '',
        ', '.join('%d %s' % (n, k) for k, n in sorted(kinds.items()))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
