#!/usr/bin/env python3
# Regenerates corpus/artifact-record, the seeds of fuzz-artifact-record.c:
# valid SPIRV and USED payloads, a log of both, and one seed per rejection
# reason of core/formats/artifact-record.h. The SPIR-V is a hand-built
# minimal compute module (and a fragment one), so no compiler is needed.
#
# Seed format: byte 0 is the mode (mode & 3: 0 a SPIRV payload, 1 a USED
# payload, 2 the records of an artifact log, whose checks the target
# recomputes, 3 SPIR-V code alone checked for stage 1 << (mode >> 2) % 14),
# then the data.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'artifact-record')

COMPUTE, FRAGMENT = 0x20, 0x10


def words(*ws):
    return struct.pack('<%dI' % len(ws), *ws)


def op(opcode, *operands):
    return words(((1 + len(operands)) << 16) | opcode, *operands)


def module(model, *modes):
    # OpCapability Shader; OpMemoryModel Logical GLSL450;
    # OpEntryPoint <model> %1 "main"; execution modes;
    # %2 void, %3 fn void; %1 = OpFunction; %4 = OpLabel; OpReturn; OpFunctionEnd
    body = (op(17, 1) + op(14, 0, 1) + op(15, model, 1, 0x6e69616d, 0)
            + b''.join(modes)
            + op(19, 2) + op(33, 3, 2) + op(54, 2, 1, 0, 3) + op(248, 4) + op(253) + op(56))
    return words(0x07230203, 0x00010000, 0, 5, 0) + body


CS = module(5, op(16, 1, 17, 1, 1, 1))          # GLCompute, LocalSize 1 1 1
FS = module(4, op(16, 1, 7))                     # Fragment, OriginUpperLeft
KEY = bytes(range(16))


def spirv_payload(code, stage=COMPUTE, size=None, reserved=0, source_len=7, stamp=1234567):
    size = len(code) if size is None else size
    return KEY + struct.pack('<IIQII', stage, source_len, stamp, size, reserved) + code


def used_payload(stamp=99):
    return KEY + struct.pack('<Q', stamp)


def log_record(rtype, payload):
    head = struct.pack('<IHHIIQ', 0x44435250, rtype, 0, len(payload), 0, 0)
    pad = b'\0' * (-len(payload) % 8)
    return head + payload + pad


def put(name, mode, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(bytes([mode]) + data)


os.makedirs(out, exist_ok=True)
put('spirv-compute', 0, spirv_payload(CS))
put('spirv-fragment', 0, spirv_payload(FS, FRAGMENT))
put('used', 1, used_payload())
put('used-short', 1, used_payload()[:20])
put('used-long', 1, used_payload() + b'\0')
put('log', 2, log_record(1, spirv_payload(CS)) + log_record(2, used_payload())
    + log_record(1, spirv_payload(FS, FRAGMENT)))
put('log-unknown-type', 2, log_record(3, used_payload()) + log_record(1, spirv_payload(CS)))
put('code-compute', 3 | (5 << 2), CS)
put('code-fragment', 3 | (4 << 2), FS)
# One per reason of psc_artifact_record_parse.
put('truncated-header', 0, spirv_payload(CS)[:39])
put('bad-stage', 0, spirv_payload(CS, stage=0x30))
put('bad-stage-unknown', 0, spirv_payload(CS, stage=0x4000))
put('reserved', 0, spirv_payload(CS, reserved=1))
put('oversized', 0, spirv_payload(CS, size=(16 << 20)))
put('truncated-code', 0, spirv_payload(CS, size=len(CS) + 4))
put('trailing-data', 0, spirv_payload(CS, size=len(CS) - 4))
put('odd-size', 0, spirv_payload(CS[:-2], size=len(CS) - 2))
put('short-code', 0, spirv_payload(CS[:16]))
put('bad-magic', 0, spirv_payload(b'\0\0\0\0' + CS[4:]))
put('swapped-magic', 0, spirv_payload(struct.pack('>I', 0x07230203) + CS[4:]))
put('wrong-stage', 0, spirv_payload(CS, FRAGMENT))
put('zero-word-count', 0, spirv_payload(CS[:20] + words(0) + CS[24:]))
# The last instruction (OpFunctionEnd) claims 9 words.
put('past-end', 0, spirv_payload(CS[:-4] + words((9 << 16) | 56)))
