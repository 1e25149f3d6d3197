#!/usr/bin/env python3
# Regenerates the hand-built seeds of corpus/spirv (the "body-*" files and
# the malformed headers). The three real modules ("scalars", "widths",
# "graphics-vert") are tests/unit/spirv/spec-scalars.comp, spec-widths.comp
# and spec-graphics.vert compiled with `glslangValidator -V`, then
# `spirv-opt --strip-debug`, behind a mode byte 0.
#
# Seed format (fuzz-spirv.c): byte 0 is the mode; 0: the rest is the whole
# module; 1: the target puts a valid header (id bound 4096) before the rest.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import struct
import sys

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'spirv')


def words(*ws):
    return struct.pack('<%dI' % len(ws), *ws)


def op(opcode, *operands):
    return words(((1 + len(operands)) << 16) | opcode, *operands)


def put(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


# OpCapability Shader, OpMemoryModel Logical GLSL450
PRE = op(17, 1) + op(14, 0, 1)
# %1 bool, %2 int8, %3 uint16, %4 int32, %5 uint64, %6 half, %7 float, %8 double
TYPES = (op(20, 1) + op(21, 2, 8, 1) + op(21, 3, 16, 0) + op(21, 4, 32, 1) + op(21, 5, 64, 0)
         + op(22, 6, 16) + op(22, 7, 32) + op(22, 8, 64))
CONSTANTS = (op(48, 1, 20) + op(49, 1, 21) + op(50, 2, 22, 1) + op(50, 3, 23, 1) + op(50, 4, 24, 1)
             + op(50, 5, 25, 1, 0) + op(50, 6, 26, 0x3800) + op(50, 7, 27, 0x3f800000)
             + op(50, 8, 28, 0, 0x3ff00000))
DECORATIONS = b''.join(op(71, target, 1, spec_id) for target, spec_id in
                       [(20, 9), (21, 2), (22, 1000), (23, 0), (24, 7), (25, 3),
                        (26, 0xffffffff), (27, 5), (28, 4)])

put('body-all-types', b'\x01' + PRE + DECORATIONS[:32] + TYPES + CONSTANTS + DECORATIONS[32:])
put('body-duplicate-specid',
    b'\x01' + PRE + TYPES + op(50, 4, 30, 1) + op(50, 8, 31, 0, 0) + op(71, 30, 1, 3) + op(71, 31, 1, 3))
put('body-twice-decorated', b'\x01' + PRE + TYPES + op(50, 4, 30, 1) + op(71, 30, 1, 3) + op(71, 30, 1, 4))
put('body-not-scalar', b'\x01' + PRE + TYPES + op(23, 40, 7, 4) + op(51, 40, 41, 41) + op(71, 41, 1, 2)
    + op(73, 42) + op(71, 42, 1, 5) + op(74, 42, 30))
put('body-bad-width', b'\x01' + PRE + op(21, 9, 24, 0) + op(50, 9, 30, 1) + op(71, 30, 1, 6))
put('body-bool-type-mismatch',
    b'\x01' + PRE + TYPES + op(48, 4, 30) + op(50, 1, 31, 1) + op(71, 30, 1, 1) + op(71, 31, 1, 2))
put('body-zero-word-count', b'\x01' + PRE + words(0x00000013) + op(20, 1))
put('body-past-end', b'\x01' + PRE + words((5 << 16) | 21, 2, 32))
put('body-ids-out-of-range', b'\x01' + PRE + op(21, 0, 32, 0) + op(71, 5000, 1, 1))
put('short-header', b'\x00' + words(0x07230203, 0x10000, 0))
put('swapped-magic', b'\x00' + words(0x03022307, 0x10000, 0, 10, 0))
put('odd-size', b'\x00' + words(0x07230203, 0x10000, 0, 10, 0) + b'\x13\x00\x02')
sys.exit(0)
