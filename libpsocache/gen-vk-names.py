#!/usr/bin/env python3
# gen-vk-names.py: the Vulkan name tables of the recipe JSON form.
#
# Usage: gen-vk-names.py VULKAN_CORE_H PSC_VK_NAMES_H OUTPUT_C
#
# Reads the list of types from psc-vk-names.h (the X (ID, VkType, IS_FLAGS)
# lines of PSC_VK_NAME_TYPES) and, for each, the enumerants of
# `typedef enum VkType { ... } VkType;` in vulkan_core.h; writes OUTPUT_C,
# which defines the lookups psc-vk-names.h declares. Python 3 standard
# library only. Fails (exit status 1, a message naming the type) when a
# type is missing from the header or an enumerant cannot be read.
#
# Names (docs/recipe-json.md):
#  - every enumerant is read, aliases included (NAME = OTHER_NAME, chains
#    resolved); *_MAX_ENUM* sentinels are left out;
#  - FORWARD adds names newer headers give to values these headers know
#    under another name, so a recipe written by a library built with newer
#    headers still reads;
#  - the name written for a value is the enumerant defined with a literal
#    value (the first, in header order), unless PINNED names one of the
#    value's names: so what the library writes does not change when a
#    later header promotes an extension's value to core;
#  - a flag-bits type writes only single-bit values (a set is written as
#    its bits); its zero-valued and multi-bit names (VK_CULL_MODE_NONE,
#    VK_SHADER_STAGE_ALL_GRAPHICS) are read.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import re
import sys

# Names newer Vulkan headers define that these may lack: (type, new name,
# the name these headers use). Added only where the header lacks the new
# name and has the old.
FORWARD = [
    ('VkDescriptorSetLayoutCreateFlagBits',
     'VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT',
     'VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR'),
]

# Names written whatever the header defines with a literal value.
PINNED = {
    'VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR',
}

TYPE_LINE = re.compile(r'^\s*X\s*\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(TRUE|FALSE)\s*\)')
ENTRY = re.compile(r'^\s*(VK_\w+)\s*=\s*([^,/]+?)\s*,?\s*(?://.*)?$')
INT = re.compile(r'^(-?)(0[xX][0-9a-fA-F]+|[0-9]+)[uU]?$')


def fail(msg):
    sys.stderr.write('gen-vk-names.py: ' + msg + '\n')
    sys.exit(1)


def read_types(names_h):
    types = []
    with open(names_h, encoding='utf-8') as f:
        for line in f:
            m = TYPE_LINE.match(line)
            if m:
                types.append((m.group(1), m.group(2), m.group(3) == 'TRUE'))
    if not types:
        fail('%s: no X (ID, VkType, IS_FLAGS) line' % names_h)
    return types


def read_enum(text, vk_type):
    m = re.search(r'typedef enum %s \{\n(.*?)\n\} %s;' % (vk_type, vk_type), text, re.S)
    if m is None:
        fail('typedef enum %s not found in the Vulkan header' % vk_type)
    raw = []      # (name, literal value or None, alias target or None), header order
    for line in m.group(1).split('\n'):
        if line.strip() == '' or line.strip().startswith('//'):
            continue
        e = ENTRY.match(line)
        if e is None:
            fail('%s: cannot read %r' % (vk_type, line))
        name, value = e.group(1), e.group(2)
        if '_MAX_ENUM' in name:
            continue
        i = INT.match(value)
        if i is not None:
            v = int(i.group(2), 0)
            if i.group(1):
                v = -v
            if v < 0 or v > 0xFFFFFFFF:
                fail('%s: %s = %s is outside 0..2^32-1' % (vk_type, name, value))
            raw.append((name, v, None))
        elif re.match(r'^VK_\w+$', value):
            raw.append((name, None, value))
        else:
            fail('%s: %s: cannot read the value %r' % (vk_type, name, value))
    literal = {n: v for n, v, a in raw if a is None}
    alias = {n: a for n, v, a in raw if a is not None}

    def resolve(n, seen=()):
        if n in literal:
            return literal[n]
        if n in alias and n not in seen:
            return resolve(alias[n], seen + (n,))
        fail('%s: the alias %s names no enumerant of the type' % (vk_type, n))

    values = {}   # name -> value
    for n, v, a in raw:
        values[n] = v if a is None else resolve(a)
    for t, new, old in FORWARD:
        if t == vk_type and new not in values and old in values:
            values[new] = values[old]
    # The written name per value.
    written = {}
    for n, v, a in raw:
        if a is None and v not in written:
            written[v] = n
    for n, v in values.items():
        if n in PINNED:
            written[v] = n
    return values, written


def c_string(s):
    return '"' + s + '"'


def main():
    if len(sys.argv) != 4:
        fail('usage: gen-vk-names.py VULKAN_CORE_H PSC_VK_NAMES_H OUTPUT_C')
    core_h, names_h, out_c = sys.argv[1:]
    with open(core_h, encoding='utf-8') as f:
        text = f.read()
    hv = re.search(r'#define VK_HEADER_VERSION (\d+)', text)
    header_version = hv.group(1) if hv else 'unknown'
    types = read_types(names_h)

    out = []
    out.append('/* psc-vk-names.c: generated by gen-vk-names.py from vulkan_core.h')
    out.append(' * (VK_HEADER_VERSION %s) and psc-vk-names.h. Do not edit. */' % header_version)
    out.append('#include "psc-vk-names.h"')
    out.append('')
    out.append('#include <stdlib.h>')
    out.append('#include <string.h>')
    out.append('')
    out.append('typedef struct {')
    out.append('  const char *name;')
    out.append('  guint32 value;')
    out.append('} PscVkName;')
    out.append('')
    table_rows = []
    for ident, vk_type, is_flags in types:
        values, written = read_enum(text, vk_type)
        by_name = sorted(values.items(), key=lambda kv: kv[0].encode('ascii'))
        by_value = sorted(written.items())
        if is_flags:
            by_value = [(v, n) for v, n in by_value if v != 0 and (v & (v - 1)) == 0]
        low = ident.lower()
        out.append('static const PscVkName names_%s[] = {' % low)
        for n, v in by_name:
            out.append('  { %s, 0x%08xu },' % (c_string(n), v))
        out.append('};')
        out.append('static const PscVkName values_%s[] = {' % low)
        for v, n in by_value:
            out.append('  { %s, 0x%08xu },' % (c_string(n), v))
        out.append('};')
        out.append('')
        table_rows.append('  [PSC_VK_%s] = { "%s", %s, names_%s, G_N_ELEMENTS (names_%s), '
                          'values_%s, G_N_ELEMENTS (values_%s) },'
                          % (ident, vk_type, 'TRUE' if is_flags else 'FALSE',
                             low, low, low, low))
    out.append('typedef struct {')
    out.append('  const char *type_name;')
    out.append('  gboolean flags;')
    out.append('  const PscVkName *names;')
    out.append('  gsize n_names;')
    out.append('  const PscVkName *values;')
    out.append('  gsize n_values;')
    out.append('} PscVkTable;')
    out.append('')
    out.append('static const PscVkTable tables[PSC_VK_N_TYPES] = {')
    out.extend(table_rows)
    out.append('};')
    out.append('''
const char *
psc_vk_type_name (PscVkType type)
{
  g_return_val_if_fail ((guint) type < PSC_VK_N_TYPES, NULL);
  return tables[type].type_name;
}

gboolean
psc_vk_type_is_flags (PscVkType type)
{
  g_return_val_if_fail ((guint) type < PSC_VK_N_TYPES, FALSE);
  return tables[type].flags;
}

static int
compare_name (const void *key, const void *entry)
{
  return strcmp ((const char *) key, ((const PscVkName *) entry)->name);
}

gboolean
psc_vk_name_to_value (PscVkType type, const char *name, guint32 *value)
{
  g_return_val_if_fail ((guint) type < PSC_VK_N_TYPES, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  const PscVkTable *t = &tables[type];
  const PscVkName *e = bsearch (name, t->names, t->n_names, sizeof *t->names, compare_name);
  if (e == NULL)
    return FALSE;
  *value = e->value;
  return TRUE;
}

const char *
psc_vk_value_to_name (PscVkType type, guint32 value)
{
  g_return_val_if_fail ((guint) type < PSC_VK_N_TYPES, NULL);
  const PscVkTable *t = &tables[type];
  gsize lo = 0, hi = t->n_values;
  while (lo < hi)
    {
      const gsize mid = lo + (hi - lo) / 2;
      if (t->values[mid].value < value)
        lo = mid + 1;
      else if (t->values[mid].value > value)
        hi = mid;
      else
        return t->values[mid].name;
    }
  return NULL;
}''')
    with open(out_c, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
