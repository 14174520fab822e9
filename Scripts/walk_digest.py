#!/usr/bin/env python3
"""The benchmarks' walk digest (Docs/benchmarks.md, "The walk"), computed by Google's Python runtime from
the schema's descriptors: the independent side of Tests/IMWirePeerTests/WalkDigestTests.swift, which
compares it with the walks the benchmarks time (Benchmarks/Sources/BenchSupport/Walk+IMWire.swift and
Walk+IMWireView.swift), so a walk that leaves out a field, or a field added to the schema and not to
the walks, fails `Scripts/test` and not only `Scripts/bench`.

    W(message) = 1 + sum of F(field): a string its UTF-8 byte count, bytes their count, integers and
    enums their value (int32 sign-extended), a bool 0 or 1, a double its bit pattern, a present
    sub-message W of it, a repeated field the sum over its elements, a map the sum of key bytes +
    value bytes, a oneof F of its member; unknown fields are not read. Arithmetic modulo 2^64.

Reads base64 imwire.v1.Message binaries from stdin, one per line, and writes each one's digest, in
order, one decimal per line (or `error<TAB>REASON` where upb refuses the input: it nests deeper
than upb's 100 levels); then a last line `uncovered<TAB>NAMES`: the fields (full proto names,
space-separated, or "-") whose F was 0 in every input. A walk that skipped one of those would still
agree, so the test asks for none.
"""

import base64
import struct
import sys
from pathlib import Path

from google.protobuf.descriptor import FieldDescriptor as FD

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_fixtures  # noqa: E402  (load_message_class)

MASK = (1 << 64) - 1


def scalar(field, value):
    if field.type == FD.TYPE_STRING:
        return len(value.encode("utf-8"))
    if field.type == FD.TYPE_BYTES:
        return len(value)
    if field.type == FD.TYPE_DOUBLE:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if field.type == FD.TYPE_BOOL:
        return 1 if value else 0
    # Integers and enums: their value; a negative int32 or enum sign-extended to 64 bits.
    return value & MASK


def walk(msg, covered):
    digest = 1
    for field in msg.DESCRIPTOR.fields:
        value = getattr(msg, field.name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            key, item = field.message_type.fields
            f = sum(scalar(key, k) + scalar(item, v) for k, v in value.items())
        elif field.is_repeated:
            if field.message_type is not None:
                f = sum(walk(element, covered) for element in value)
            else:
                f = sum(scalar(field, element) for element in value)
        elif field.message_type is not None:
            f = walk(value, covered) if msg.HasField(field.name) else 0
        else:
            f = scalar(field, value)
        f &= MASK
        if f:
            covered.add(field.full_name)
        digest = (digest + f) & MASK
    return digest


def all_fields(descriptor, seen):
    if descriptor.full_name in seen:
        return []
    seen.add(descriptor.full_name)
    names = []
    for field in descriptor.fields:
        names.append(field.full_name)
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            names += all_fields(field.message_type, seen)
    return names


def main():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    message_class = gen_fixtures.load_message_class()
    covered = set()
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()  # an empty line is the empty message
        msg = message_class()
        try:
            msg.ParseFromString(base64.b64decode(line))
        except Exception as error:  # upb refuses nesting beyond 100 levels
            out.write("error\t" + str(error).replace("\n", " ") + "\n")
            continue
        out.write(f"{walk(msg, covered)}\n")
    uncovered = [name for name in all_fields(message_class.DESCRIPTOR, set()) if name not in covered]
    out.write("uncovered\t" + (" ".join(uncovered) if uncovered else "-") + "\n")


if __name__ == "__main__":
    main()
