#!/usr/bin/env python3
"""Message streams written by Google's Python protobuf runtime (upb), for the stream readers' tests
(Tests/IMWirePeerTests/StreamCompatibilityTests.swift). Nothing here imports or runs Swift.

    python3 Scripts/gen_stream_fixtures.py           # write Fixtures/streams/
    python3 Scripts/gen_stream_fixtures.py --check   # regenerate into a temp dir; exit 1 if stale
    python3 Scripts/gen_stream_fixtures.py reencode-binary  < IN > OUT
    python3 Scripts/gen_stream_fixtures.py reencode-json    < IN > OUT
    python3 Scripts/gen_stream_fixtures.py soak-stream BYTES > OUT

Fixtures/streams/ (after Scripts/gen_fixtures.py, whose files it reads):
    python.delimited.binpb  every `valid` case of Fixtures/manifest.json and the limit cases of more
                            than 16 KiB (three-byte length prefixes), in manifest order (less those
                            nested deeper than upb parses by default, 100 levels), each parsed
                            by Python and written as `_VarintBytes(len(data)) + data` with
                            data = SerializeToString(deterministic=True): the framing of C++
                            SerializeDelimitedTo, Java writeDelimitedTo and Go protodelim
    python.ndjson           the same messages, one JSON object per line: the fixtures' canonical JSON
                            (json.dumps(MessageToDict(m)), compact, map keys sorted) and "\\n"
    python.names            the case names, one per line, in record order

reencode-binary reads a length-delimited stream on stdin (Python's _DecodeVarint32 for each prefix,
ParseFromString for each body) and writes it back, each record re-serialized by Python as above;
reencode-json reads NDJSON (json_format.Parse per non-blank line) and writes the delimited binary.
Both exit 1 with a message on the first record Python rejects. The tests use them to show that
Python reads what Swift writes.

soak-stream writes a length-delimited stream of at least BYTES bytes for Scripts/stream-soak: a block
of the golden messages that survive a JSON round trip byte for byte (no unknown fields, no NaN
payloads: Python checks each), written again and again without holding more than the block. The
same BYTES always gives the same bytes; the record count goes to stderr.

Requirements as for Scripts/gen_fixtures.py: python3 with protobuf (Scripts/requirements.txt) and
protoc on PATH (or $PROTOC).
"""

import filecmp
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_fixtures  # noqa: E402  (load_message_class, fix_map_order, canonical_json)
from google.protobuf import json_format  # noqa: E402
from google.protobuf.internal.decoder import _DecodeVarint32  # noqa: E402
from google.protobuf.internal.encoder import _VarintBytes  # noqa: E402
from google.protobuf.message import DecodeError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Fixtures"
OUT_DIR = "streams"
# Limit cases larger than this join the stream: their prefixes take three bytes.
LARGE = 16 * 1024
MAX_DEPTH = 1000


def delimited(data):
    return _VarintBytes(len(data)) + data


def serialize(msg):
    # Deterministic, so the fixture is byte-stable; map entries in key order (gen_fixtures.fix_map_order).
    return gen_fixtures.fix_map_order(msg.SerializeToString(deterministic=True), msg.DESCRIPTOR)


def to_json_line(msg, name):
    # The fixtures' canonical JSON (gen_fixtures.canonical_json): compact, so one line.
    return gen_fixtures.canonical_json(msg, name) + b"\n"


def generate(out_dir):
    message_class = gen_fixtures.load_message_class()
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    names, binary, lines = [], b"", b""
    for case in manifest["cases"]:
        if case["kind"] == "valid":
            path = case["binpb"]
        elif case["kind"] == "limit" and (FIXTURES / case["binpb"]).stat().st_size > LARGE:
            path = case["binpb"]
        else:
            continue
        msg = message_class()
        try:
            msg.ParseFromString((FIXTURES / path).read_bytes())
        except DecodeError:
            # Nested deeper than upb's default limit of 100 levels (merger_nested_100_layers): the
            # fixture itself was built from JSON with a raised limit. Left out.
            continue
        names.append(case["name"])
        binary += delimited(serialize(msg))
        lines += to_json_line(msg, case["name"])
    out = Path(out_dir) / OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / "python.delimited.binpb").write_bytes(binary)
    (out / "python.ndjson").write_bytes(lines)
    (out / "python.names").write_text("".join(name + "\n" for name in names), encoding="utf-8")
    return ["python.delimited.binpb", "python.ndjson", "python.names"]


def reencode_binary(data, message_class):
    out, position, index = bytearray(), 0, 0
    while position < len(data):
        try:
            length, body_start = _DecodeVarint32(data, position)
        except Exception as error:  # noqa: BLE001  (IndexError on a truncated prefix, DecodeError)
            raise SystemExit(f"record {index} at byte {position}: bad length prefix: {error!r}")
        if body_start + length > len(data):
            raise SystemExit(f"record {index} at byte {position}: truncated ({length} bytes claimed)")
        msg = message_class()
        try:
            msg.ParseFromString(data[body_start:body_start + length])
        except Exception as error:  # noqa: BLE001
            raise SystemExit(f"record {index} at byte {position}: {error}")
        out += delimited(serialize(msg))
        position, index = body_start + length, index + 1
    return bytes(out)


def reencode_json(data, message_class):
    out = bytearray()
    index = 0
    for line in data.split(b"\n"):
        if not line.strip(b" \t\r"):
            continue
        try:
            msg = json_format.Parse(line.decode("utf-8"), message_class(), max_recursion_depth=MAX_DEPTH)
        except Exception as error:  # noqa: BLE001
            raise SystemExit(f"record {index}: {error}")
        out += delimited(serialize(msg))
        index += 1
    return bytes(out)


def soak_block(message_class):
    """The golden messages whose canonical binary survives binary -> JSON -> binary, delimited."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    block, count = b"", 0
    for case in manifest["cases"]:
        if case["kind"] not in ("valid", "limit"):
            continue
        data = (FIXTURES / case["binpb"]).read_bytes()
        msg = message_class()
        try:
            msg.ParseFromString(data)
        except DecodeError:
            continue
        canonical = serialize(msg)
        again = json_format.Parse(gen_fixtures.canonical_json(msg, case["name"]).decode("utf-8"), message_class())
        if canonical != data or serialize(again) != canonical:
            continue
        block += delimited(canonical)
        count += 1
    return block, count


def soak_stream(total, message_class):
    block, count = soak_block(message_class)
    out = sys.stdout.buffer
    written = records = 0
    try:
        while written < total:
            out.write(block)
            written += len(block)
            records += count
        out.flush()
    except BrokenPipeError:
        # The reader stopped early (cmp found a difference, a converter failed): not this script's error.
        sys.stderr.write(f"soak-stream: the reader closed the stream after {written} bytes\n")
        os._exit(1)
    print(f"soak-stream: {records} records, {written} bytes", file=sys.stderr)


def main(argv):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    if argv[1:2] == ["soak-stream"] and len(argv) == 3:
        soak_stream(int(argv[2]), gen_fixtures.load_message_class())
        return 0
    if argv[1:2] in (["reencode-binary"], ["reencode-json"]):
        message_class = gen_fixtures.load_message_class()
        data = sys.stdin.buffer.read()
        convert = reencode_binary if argv[1] == "reencode-binary" else reencode_json
        sys.stdout.buffer.write(convert(data, message_class))
        return 0
    if argv[1:] not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(tmp)
        if argv[1:] == ["--check"]:
            stale = [name for name in files
                     if not (FIXTURES / OUT_DIR / name).is_file()
                     or not filecmp.cmp(Path(tmp) / OUT_DIR / name, FIXTURES / OUT_DIR / name, shallow=False)]
            extra = sorted(p.name for p in (FIXTURES / OUT_DIR).glob("*") if p.name not in files) \
                if (FIXTURES / OUT_DIR).is_dir() else []
            if stale or extra:
                for name in stale:
                    print(f"stale:   Fixtures/{OUT_DIR}/{name}")
                for name in extra:
                    print(f"extra:   Fixtures/{OUT_DIR}/{name}")
                print("gen_stream_fixtures --check: run python3 Scripts/gen_stream_fixtures.py", file=sys.stderr)
                return 1
            print(f"gen_stream_fixtures --check: {len(files)} files up to date")
            return 0
        (FIXTURES / OUT_DIR).mkdir(exist_ok=True)
        for name in files:
            (FIXTURES / OUT_DIR / name).write_bytes((Path(tmp) / OUT_DIR / name).read_bytes())
        print(f"gen_stream_fixtures: wrote {len(files)} files under Fixtures/{OUT_DIR}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
