#!/usr/bin/env python3
"""The Python peer of Tests/IMWirePeerTests/JSONPythonCrossCheckTests.swift: Google's json_format (upb).

Reads requests from stdin, one per line, and writes one response line per request to stdout, in order:

    request:   ID <TAB> OP <TAB> base64(payload)
    response:  ID <TAB> "ok" <TAB> base64(result)     or     ID <TAB> "error" <TAB> one-line reason

OPs:
    json_to_binary   payload: proto3 JSON of imwire.v1.Message (UTF-8). json_format.Parse, then the
                     canonical binary: deterministic serialization with map entries in key order
                     (Scripts/gen_fixtures.py, fix_map_order: upb puts a key after its extensions).
    binary_to_json   payload: binary. ParseFromString, then json_format.MessageToJson(msg) with its
                     default options (indent 2, lowerCamelCase names, ASCII with \\u escapes).
    binary_to_json_proto_names
                     the same with preserving_proto_field_name=True, compact, raw UTF-8
                     (json.dumps(MessageToDict(...), ensure_ascii=False, separators=(",", ":"))).

The schema is compiled with protoc once, at start-up (as the fixture generator does). One process
serves a whole test run.
"""

import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_fixtures  # noqa: E402  (load_message_class, fix_map_order)
from google.protobuf import json_format  # noqa: E402

# Merger nesting in the tests is shallow, but leave json_format room beyond its default of 100.
MAX_DEPTH = 1000


def main():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    message_class = gen_fixtures.load_message_class()
    out = sys.stdout
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        ident, op, payload = line.split("\t")
        data = base64.b64decode(payload)
        try:
            if op == "json_to_binary":
                msg = json_format.Parse(data.decode("utf-8"), message_class(), max_recursion_depth=MAX_DEPTH)
                result = gen_fixtures.fix_map_order(msg.SerializeToString(deterministic=True), msg.DESCRIPTOR)
            elif op == "binary_to_json":
                msg = message_class()
                msg.ParseFromString(data)
                result = json_format.MessageToJson(msg).encode("utf-8")
            elif op == "binary_to_json_proto_names":
                msg = message_class()
                msg.ParseFromString(data)
                obj = json_format.MessageToDict(msg, preserving_proto_field_name=True)
                result = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            else:
                raise ValueError(f"unknown op {op!r}")
            out.write(f"{ident}\tok\t{base64.b64encode(result).decode('ascii')}\n")
        except Exception as e:  # reported to the Swift side, which fails the case
            reason = f"{type(e).__name__}: {e}".replace("\n", " ").replace("\t", " ")[:500]
            out.write(f"{ident}\terror\t{reason}\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
