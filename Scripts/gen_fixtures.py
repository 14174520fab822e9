#!/usr/bin/env python3
"""Generate the golden fixtures in Fixtures/ from the hand-written sources in Fixtures/sources/.

The bytes and JSON are produced by an implementation independent of the Swift code under test:
Google's Python protobuf runtime (`google.protobuf`, upb backend) driven by the schema compiled at
run time with protoc. Nothing here imports or runs Swift.

    python3 Scripts/gen_fixtures.py          # regenerate Fixtures/manifest.json and the generated dirs
    python3 Scripts/gen_fixtures.py --check  # regenerate into a temp dir; exit 1 listing every file
                                             # that differs from, is missing from, or is extra in Fixtures/

Requirements: python3 with protobuf==7.36.2 (the version the committed fixtures were made with, pinned
in Scripts/requirements.txt so --check compares like with like; Scripts/install-deps installs it into
the virtual environment .build-venv/: run with .build-venv/bin/python3), `protoc` on PATH (or $PROTOC).

Source format (Fixtures/sources/*.json, see Fixtures/README.md): each file is
    {"category": str, "kind": "valid" | "noncanonical_binary" | "invalid_binary" | "limit", "cases": [...]}
and a case gives its input as exactly one of
    "message": proto3 JSON of imwire.v1.Message, where a bytes field may also be written as
               {"$hex": "00 01 ff"} or {"$utf8": "text"} instead of base64; limit cases may also
               use the size helpers {"$repeat": [s, n]}, {"$concat": [...]}, {"$items": [t, n]} and
               {"$nested_merger": {"layers": n, "message": m}} (see expand_size_helpers);
    "hex":     a list of lines of hex bytes; "HH*N" repeats a byte N times; 'text' (single quotes)
               is the UTF-8 of text; "#" starts a comment that runs to the end of the line;
    "recipe":  {"type": "nested_merger", "layers": N} or
               {"type": "nested_unknown_group", "depth": N} for inputs too repetitive to write out.

Notes on the oracle (checked by assertions below, so a protobuf upgrade that changes them fails loudly):
  * json_format.MessageToDict iterates Message.ListFields(), which is in field-number order, so the JSON
    keys come out in field-number order; a oneof member set to its default ("receiver": "") is listed
    because oneof members have presence.
  * MessageToDict iterates map fields in upb hash-table order; we sort map keys (by code point, which is
    UTF-8 byte order) before dumping. No other change is made to MessageToDict's output.
  * upb's deterministic serialization sorts string map keys by memcmp of the common prefix but puts the
    LONGER key first when one key is a prefix of the other ("ab" before "a", "" last), see
    protocolbuffers/protobuf PR #26621. The spec wants entries sorted by key, so `fix_map_order` reorders
    map entries (only their order; each entry's bytes are upb's) and the case is flagged
    "python_map_order_differs": true. The result is re-parsed and compared to prove only order changed.
  * upb writes unknown fields after the known ones, in the order they were read.
  * upb rejects tags and length prefixes longer than 5 bytes (values may use 10); such noncanonical
    cases carry "python_rejects": true and take their canonical form from "expected_message".
"""

import argparse
import base64
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.message import DecodeError

import fixtures_json_corpus  # the JSON corpus (sources kind "json_corpus"), Scripts/fixtures_json_corpus.py
import fixtures_tim_rest  # Tencent REST JSON (sources kinds "tim_rest*"), Scripts/fixtures_tim_rest.py

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "Schemas"
SCHEMA_FILE = "imwire/v1/message.proto"
FIXTURES = ROOT / "Fixtures"
SOURCES = FIXTURES / "sources"

# Everything under Fixtures/ that this script owns (and --check compares).
GENERATED_DIRS = ("valid", "valid_input", "noncanonical", "invalid", "limits")
GENERATED_DIRS += (fixtures_json_corpus.OUTPUT_DIR,)
GENERATED_DIRS += (fixtures_tim_rest.OUTPUT_DIR,)
MANIFEST = "manifest.json"

KINDS = ("valid", "noncanonical_binary", "invalid_binary", "limit")
ERROR_CODES = (
    "truncated",
    "varint_too_long",
    "invalid_field_number",
    "invalid_wire_type",
    "malformed_group",
    "length_out_of_bounds",
    "invalid_utf8",
    "depth_limit_exceeded",
)
# Validation profiles and codes (the ValidationProfiles article (IMWire.docc); Swift: ValidationProfile.presets,
# Violation.Code.all). Limit cases name one profile and the sorted codes `message.validate(profile:)`
# must report (duplicates kept).
PROFILES = ("none", "tencent", "tencent-sdk", "tuikit", "zim")
VALIDATION_CODES = (
    "elem_chain_empty",
    "content_too_large",
    "elem_not_appendable",
    "elem_not_standalone",
    "too_many_elems",
    "too_many_custom_elems",
    "too_many_image_elems",
    "too_many_file_elems",
    "too_many_sound_elems",
    "too_many_video_elems",
    "text_too_large",
    "barrage_too_large",
    "custom_data_too_large",
    "image_too_large",
    "sound_too_large",
    "video_too_large",
    "file_too_large",
    "sound_too_long",
    "image_format_not_allowed",
    "sound_format_not_allowed",
    "video_format_not_allowed",
    "too_many_merger_messages",
    "too_many_merger_abstracts",
    "merger_abstract_too_long",
    "merger_nesting_too_deep",
    "elem_not_allowed_in_merger",
    "at_users_require_group",
    "too_many_at_users",
    "targeted_receivers_require_group",
    "too_many_targeted_receivers",
    "at_users_with_targeted_receivers",
    "user_id_too_long",
    "group_name_too_long",
    "group_introduction_too_long",
    "group_notification_too_long",
    "group_face_url_too_long",
    "latitude_out_of_range",
    "longitude_out_of_range",
    "duplicate_image_type",
    "target_not_supported",
    "priority_not_supported",
    "elem_kind_not_supported",
    "at_users_require_text",
    "barrage_requires_room",
    "barrage_requires_text",
    "custom_data_not_tuikit",
    "platform_not_recognized",
    "signal_not_standalone",
    "signal_target_mismatch",
    "signal_msg_id_missing",
    "signal_not_allowed_in_merger",
    "merger_key_with_messages",
    "message_to_self",
)
# Limit messages may nest far deeper than upb's 100-level parse limit (a 101-layer merger is about
# 306 levels); ParseDict and our own recursive helpers get this much room instead.
LIMIT_MAX_DEPTH = 1000
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
HEX_TOKEN_RE = re.compile(r"([0-9a-fA-F]{2})(\*([0-9]+))?")


class FixtureError(Exception):
    pass


# ------------------------------------------------------------------------------------------------
# Schema



def check_case(case, src_name, names, name_re=None, name_rule="lower_snake_case", case_keys=None):
    """The checks every source case gets: a well-formed, unique name, no unknown keys (when
    `case_keys` is given; "recommended" is always allowed) and a description. Returns (name, where,
    description, level): `level` is the manifest keys of the case's conformance level, {} for
    Required (the default) or {"level": "recommended", "level_note": WHY} when the source says
    "recommended": WHY -- the case pins one of IMWire's own choices that a correct proto3 runtime
    may make differently (Docs/conformance.md, "Levels")."""
    name = case.get("name", "")
    where = f"{src_name}:{name}"
    if not (name_re or NAME_RE).match(name):
        raise FixtureError(f"{where}: name is not {name_rule}")
    if name in names:
        raise FixtureError(f"{where}: duplicate name")
    names.add(name)
    if case_keys is not None:
        extra = set(case) - case_keys - {"recommended"}
        if extra:
            raise FixtureError(f"{where}: unknown keys {sorted(extra)}")
    description = case.get("description", "").strip()
    if not description:
        raise FixtureError(f"{where}: missing description")
    level = {}
    if "recommended" in case:
        why = case["recommended"]
        if not isinstance(why, str) or not why.strip():
            raise FixtureError(f"{where}: \"recommended\" takes the reason, a non-empty string")
        level = {"level": "recommended", "level_note": why.strip()}
    return name, where, description, level

def load_message_class():
    protoc = os.environ.get("PROTOC", "protoc")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "imwire.pb"
        subprocess.run(
            [protoc, "--include_imports", f"--descriptor_set_out={out}", "-I", str(SCHEMA_DIR),
             str(SCHEMA_DIR / SCHEMA_FILE)],
            check=True,
        )
        fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("imwire.v1.Message"))


# ------------------------------------------------------------------------------------------------
# Source helpers


def parse_hex_lines(lines, where):
    """Hex lines -> bytes. Tokens: HH, HH*N, 'utf-8 text'; '#' comments to end of line."""
    if isinstance(lines, str):
        lines = [lines]
    out = bytearray()
    for lineno, line in enumerate(lines, 1):
        i = 0
        n = len(line)
        while i < n:
            c = line[i]
            if c.isspace():
                i += 1
            elif c == "#":
                break
            elif c == "'":
                j = line.find("'", i + 1)
                if j < 0:
                    raise FixtureError(f"{where}: line {lineno}: unterminated '...' literal")
                out += line[i + 1:j].encode("utf-8")
                i = j + 1
            else:
                m = HEX_TOKEN_RE.match(line, i)
                if not m:
                    raise FixtureError(f"{where}: line {lineno}: bad hex token at column {i + 1}: {line!r}")
                count = int(m.group(3)) if m.group(3) else 1
                out += bytes([int(m.group(1), 16)]) * count
                i = m.end()
    return bytes(out)


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def ld(field, payload):
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def recipe_json(spec, where):
    """The proto3 JSON of the message a nested_merger recipe builds, for messages nested deeper than
    upb's binary parser admits: json_format.Parse takes a depth limit, so Python can still read the
    message (from JSON) and serialise it, and its bytes are checked against the recipe's."""
    if spec.get("type") != "nested_merger":
        raise FixtureError(f"{where}: only nested_merger recipes have a JSON form")
    layers = spec["layers"]
    return ('{"elems":[{"merger":{"messages":[' * layers + '{"elems":[{"text":{"text":"x"}}]}'
            + ']}}]}' * layers)


def build_recipe(spec, where):
    kind = spec.get("type")
    if kind == "nested_merger":
        # Innermost: Message{elems: [{text: {text: "x"}}]}. Each layer wraps it as
        # Message.elems(10) -> Elem.merger(10) -> MergerElem.messages(5) -> Message.
        msg = ld(10, ld(1, ld(1, b"x")))
        for _ in range(spec["layers"]):
            msg = ld(10, ld(10, ld(5, msg)))
        return msg
    if kind == "nested_unknown_group":
        # Message field 100 (unknown) as a group, holding groups of field 1 nested to the given depth.
        depth = spec["depth"]
        return (varint(100 << 3 | 3) + bytes([1 << 3 | 3]) * (depth - 1)
                + bytes([1 << 3 | 4]) * (depth - 1) + varint(100 << 3 | 4))
    raise FixtureError(f"{where}: unknown recipe type {kind!r}")


def expand_bytes_helpers(value):
    """Replace {"$hex": ...} / {"$utf8": ...} with standard padded base64 (what ParseDict expects)."""
    if isinstance(value, dict):
        if len(value) == 1 and "$hex" in value:
            return base64.b64encode(parse_hex_lines(value["$hex"], "$hex")).decode("ascii")
        if len(value) == 1 and "$utf8" in value:
            return base64.b64encode(value["$utf8"].encode("utf-8")).decode("ascii")
        return {k: expand_bytes_helpers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand_bytes_helpers(v) for v in value]
    return value


def expand_size_helpers(value, where):
    """Expand the helpers that keep big limit messages short in the source (bottom-up, so they nest):

    {"$repeat": [s, n]}     the string s repeated n times ("字" * 4096 is 12288 UTF-8 bytes);
    {"$concat": [a, b, ...]}  the strings (after expansion) joined, or the lists concatenated;
    {"$items": [t, n]}      a list of n copies of template t, with "{i}" in every string of the
                            copy replaced by its index 0..n-1 (31 user IDs: ["user_{i}", 31]);
    {"$nested_merger": {"layers": n, "message": m}}
                            m wrapped n times as {"elems": [{"merger": {"messages": [...]}}]}.
    The result is plain proto3 JSON (plus the $hex / $utf8 bytes helpers).
    """
    if isinstance(value, list):
        return [expand_size_helpers(v, where) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        (key, arg), = value.items()
        if key == "$repeat":
            piece, count = expand_size_helpers(arg, where)
            if not isinstance(piece, str) or not isinstance(count, int) or count < 0:
                raise FixtureError(f"{where}: $repeat needs [string, count >= 0]")
            return piece * count
        if key == "$concat":
            parts = expand_size_helpers(arg, where)
            if all(isinstance(p, str) for p in parts):
                return "".join(parts)
            if all(isinstance(p, list) for p in parts):
                return [item for p in parts for item in p]
            raise FixtureError(f"{where}: $concat needs a list of strings or a list of lists")
        if key == "$items":
            template, count = arg
            if not isinstance(count, int) or count < 0:
                raise FixtureError(f"{where}: $items needs [template, count >= 0]")
            return [expand_size_helpers(substitute_index(template, i), where) for i in range(count)]
        if key == "$nested_merger":
            message = expand_size_helpers(arg["message"], where)
            for _ in range(arg["layers"]):
                message = {"elems": [{"merger": {"messages": [message]}}]}
            return message
        if key.startswith("$") and key not in ("$hex", "$utf8"):
            raise FixtureError(f"{where}: unknown helper {key}")
    return {k: expand_size_helpers(v, where) for k, v in value.items()}


def substitute_index(template, index):
    if isinstance(template, str):
        return template.replace("{i}", str(index))
    if isinstance(template, list):
        return [substitute_index(t, index) for t in template]
    if isinstance(template, dict):
        return {k: substitute_index(v, index) for k, v in template.items()}
    return template


# ------------------------------------------------------------------------------------------------
# Canonical forms


def read_varint(buf, i):
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, i


def skip_field(buf, i, wire_type):
    if wire_type == 0:
        return read_varint(buf, i)[1]
    if wire_type == 1:
        return i + 8
    if wire_type == 5:
        return i + 4
    if wire_type == 2:
        n, i = read_varint(buf, i)
        return i + n
    if wire_type == 3:
        while True:
            tag, i = read_varint(buf, i)
            if tag & 7 == 4:
                return i
            i = skip_field(buf, i, tag & 7)
    raise AssertionError(f"unexpected wire type {wire_type} in upb output")


def fix_map_order(buf, desc):
    """Reorder the entries of every map field (recursively) into UTF-8 byte order of their keys.

    Works on upb's deterministic output only: every other byte is copied unchanged, nested messages
    are rewritten recursively and their length prefixes recomputed (the lengths do not change).
    """
    fields = []  # (field number, raw bytes, map key or None)
    i = 0
    while i < len(buf):
        start = i
        tag, i = read_varint(buf, i)
        num, wt = tag >> 3, tag & 7
        fd = desc.fields_by_number.get(num)
        if wt == 2 and fd is not None and fd.message_type is not None:
            n, j = read_varint(buf, i)
            inner = fix_map_order(buf[j:j + n], fd.message_type)
            i = j + n
            key = None
            if fd.message_type.GetOptions().map_entry:
                key = b""
                k = 0
                while k < len(inner):
                    t, k = read_varint(inner, k)
                    if t == (1 << 3 | 2):
                        kn, k = read_varint(inner, k)
                        key = inner[k:k + kn]
                        k += kn
                    else:
                        k = skip_field(inner, k, t & 7)
            fields.append((num, varint(tag) + varint(len(inner)) + inner, key))
        else:
            i = skip_field(buf, i, wt)
            fields.append((num, buf[start:i], None))
    out = bytearray()
    k = 0
    while k < len(fields):
        num, raw, key = fields[k]
        if key is None:
            out += raw
            k += 1
            continue
        run = []
        while k < len(fields) and fields[k][0] == num and fields[k][2] is not None:
            run.append(fields[k])
            k += 1
        for _, raw, _ in sorted(run, key=lambda f: f[2]):
            out += raw
    return bytes(out)


def is_repeated(fd):
    # FieldDescriptor.label is gone in protobuf 7; is_repeated is missing in old releases.
    flag = getattr(fd, "is_repeated", None)
    return flag if flag is not None else fd.label == fd.LABEL_REPEATED


def sort_json_maps(msg, obj):
    """Sort the keys of every map in MessageToDict output; recurse into sub-messages."""
    for fd, value in msg.ListFields():
        name = fd.json_name
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            obj[name] = dict(sorted(obj[name].items()))
            vfd = fd.message_type.fields_by_name["value"]
            if vfd.message_type is not None:
                for key in value:
                    sort_json_maps(value[key], obj[name][str(key)])
        elif fd.message_type is not None and is_repeated(fd):
            for sub, sub_obj in zip(value, obj[name]):
                sort_json_maps(sub, sub_obj)
        elif fd.message_type is not None:
            sort_json_maps(value, obj[name])


def check_key_order(msg, obj, where):
    """Assert that MessageToDict's keys follow field-number order (what ListFields promises)."""
    names = [fd.json_name for fd, _ in msg.ListFields()]
    numbers = [fd.number for fd, _ in msg.ListFields()]
    if list(obj.keys()) != names or numbers != sorted(numbers):
        raise FixtureError(f"{where}: MessageToDict key order {list(obj.keys())} is not field-number order")
    for fd, value in msg.ListFields():
        if fd.message_type is None or fd.message_type.GetOptions().map_entry:
            continue
        subs = value if is_repeated(fd) else [value]
        objs = obj[fd.json_name] if is_repeated(fd) else [obj[fd.json_name]]
        for sub, sub_obj in zip(subs, objs):
            check_key_order(sub, sub_obj, where)


def canonical_json(msg, where):
    obj = json_format.MessageToDict(msg, preserving_proto_field_name=False)
    check_key_order(msg, obj, where)
    sort_json_maps(msg, obj)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


class Oracle:
    def __init__(self):
        self.Message = load_message_class()

    def parse(self, data):
        """Parse binary; returns (message, None) or (None, error description)."""
        msg = self.Message()
        try:
            msg.ParseFromString(data)
        except (DecodeError, RecursionError, ValueError) as e:  # ValueError: defensive, never seen
            return None, f"{type(e).__name__}: {e}"
        return msg, None

    def from_json(self, obj, where, max_depth=100):
        try:
            return json_format.ParseDict(expand_bytes_helpers(obj), self.Message(),
                                         max_recursion_depth=max_depth)
        except json_format.ParseError as e:
            raise FixtureError(f"{where}: ParseDict failed: {e}") from e

    def canonical_binary(self, msg, where):
        """Deterministic upb serialization with map entries in key order. Returns (bytes, reordered)."""
        raw = msg.SerializeToString(deterministic=True)
        fixed = fix_map_order(raw, msg.DESCRIPTOR)
        if fixed != raw:
            back, err = self.parse(fixed)
            if err or back.SerializeToString(deterministic=True) != raw:
                raise FixtureError(f"{where}: map reordering changed the message")
        return fixed, fixed != raw

    @staticmethod
    def has_unknown_fields(msg):
        known = type(msg)()
        known.CopyFrom(msg)
        known.DiscardUnknownFields()
        return known.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True), known


# ------------------------------------------------------------------------------------------------
# Generation


def case_input(case, where):
    present = [k for k in ("message", "hex", "recipe") if k in case]
    if len(present) != 1:
        raise FixtureError(f"{where}: give exactly one of message / hex / recipe, got {present}")
    if "hex" in case:
        return parse_hex_lines(case["hex"], where)
    if "recipe" in case:
        return build_recipe(case["recipe"], where)
    return None


def generate(out_dir):
    oracle = Oracle()
    out_dir = Path(out_dir)
    for d in GENERATED_DIRS:
        (out_dir / d).mkdir(parents=True, exist_ok=True)
    files = {}  # relative path -> bytes
    cases = []
    names = set()

    def emit(rel, data):
        if rel in files:
            raise FixtureError(f"duplicate output path {rel}")
        files[rel] = data
        return rel

    def json_roundtrip(msg, json_bytes, where):
        """JSON -> Python must give back msg (which has no unknown fields); returns its canonical binary."""
        back = json_format.Parse(json_bytes.decode("utf-8"), oracle.Message())
        if back.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True):
            raise FixtureError(f"{where}: canonical JSON does not round-trip")
        b, _ = oracle.canonical_binary(back, where)
        return b

    for src in sorted(SOURCES.glob("*.json")):
        doc = json.loads(src.read_text(encoding="utf-8"))
        category, kind = doc["category"], doc["kind"]
        if kind == fixtures_json_corpus.SOURCE_KIND:
            cases += fixtures_json_corpus.generate(doc, src.name, SimpleNamespace(
                FixtureError=FixtureError, oracle=oracle, emit=emit, names=names, json_format=json_format,
                parse_hex_lines=parse_hex_lines, canonical_json=canonical_json, check_case=check_case))
            continue
        if kind in fixtures_tim_rest.SOURCE_KINDS:
            cases += fixtures_tim_rest.generate(doc, src.name, SimpleNamespace(
                FixtureError=FixtureError, oracle=oracle, emit=emit, names=names,
                parse_hex_lines=parse_hex_lines, canonical_json=canonical_json, check_case=check_case))
            continue
        if kind not in KINDS:
            raise FixtureError(f"{src.name}: unknown kind {kind!r}")
        for case in doc["cases"]:
            name, where, description, level = check_case(case, src.name, names)
            entry = {"name": name, "category": category, "kind": kind, "description": description, **level}
            raw = case_input(case, where)
            if "parse_error_allowed" in case and kind != "valid":
                raise FixtureError(f"{where}: parse_error_allowed is for valid cases only")

            python_rejects = bool(case.get("python_rejects", False))
            if kind == "valid" and python_rejects:
                # Deeper than upb's binary parser admits (100 levels): the message comes from the
                # recipe's JSON form, read with a raised depth limit, and upb's serialisation of it
                # must be the recipe's bytes exactly; upb cannot read the bytes back.
                if "recipe" not in case:
                    raise FixtureError(f"{where}: python_rejects valid cases are built by a recipe")
                if oracle.parse(raw)[1] is None:
                    raise FixtureError(f"{where}: marked python_rejects but Python accepts it")
                msg = json_format.Parse(recipe_json(case["recipe"], where), oracle.Message(),
                                        max_recursion_depth=LIMIT_MAX_DEPTH)
                binpb, reordered = oracle.canonical_binary(msg, where)
                if binpb != raw or reordered:
                    raise FixtureError(f"{where}: the recipe's bytes are not upb's canonical serialisation")
                js = canonical_json(msg, where)
                back = json_format.Parse(js.decode("utf-8"), oracle.Message(), max_recursion_depth=LIMIT_MAX_DEPTH)
                if back.SerializeToString(deterministic=True) != binpb:
                    raise FixtureError(f"{where}: canonical JSON does not round-trip")
                entry["binpb"] = emit(f"valid/{name}.binpb", binpb)
                entry["json"] = emit(f"valid/{name}.json", js)
                entry["has_unknown_fields"] = False
                entry["python_rejects"] = True
            elif kind == "valid":
                if raw is None:
                    msg = oracle.from_json(case["message"], where)
                else:
                    msg, err = oracle.parse(raw)
                    if err:
                        raise FixtureError(f"{where}: Python rejects the input: {err}")
                unknown, known = oracle.has_unknown_fields(msg)
                if "expected_message" in case:
                    exp = oracle.from_json(case["expected_message"], where)
                    if exp.SerializeToString(deterministic=True) != known.SerializeToString(deterministic=True):
                        raise FixtureError(f"{where}: parsed known fields differ from expected_message")
                binpb, reordered = oracle.canonical_binary(msg, where)
                js = canonical_json(msg, where)
                # Python must read its own canonical bytes back to the same message.
                again, err = oracle.parse(binpb)
                if err or again.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True):
                    raise FixtureError(f"{where}: canonical binary does not round-trip")
                known_bin, _ = oracle.canonical_binary(known, where)
                if json_roundtrip(known, js, where) != known_bin:
                    raise FixtureError(f"{where}: JSON -> binary differs from canonical")
                entry["binpb"] = emit(f"valid/{name}.binpb", binpb)
                entry["json"] = emit(f"valid/{name}.json", js)
                entry["has_unknown_fields"] = unknown
                if raw is not None and raw != binpb:
                    if not unknown:
                        raise FixtureError(f"{where}: binary input is not canonical; move it to a "
                                           "noncanonical_binary source")
                    entry["input"] = emit(f"valid_input/{name}.binpb", raw)
                if reordered:
                    entry["python_map_order_differs"] = True
                if "parse_error_allowed" in case:
                    # Read as the message by IMWire and Python (upb), but a correct runtime may
                    # refuse it instead (Docs/conformance.md, "Principles"): the Required tests
                    # accept a parse error too, the Recommended ones want the message.
                    why = case["parse_error_allowed"]
                    if not isinstance(why, str) or not why.strip():
                        raise FixtureError(f"{where}: \"parse_error_allowed\" takes the reason, a non-empty string")
                    if raw is None:
                        raise FixtureError(f"{where}: parse_error_allowed needs a binary input (hex or recipe)")
                    if level:
                        raise FixtureError(f"{where}: a recommended case needs no parse_error_allowed")
                    entry["parse_error_allowed"] = True
                    entry["parse_error_note"] = why.strip()
                if category == "unknown_fields" and not unknown:
                    raise FixtureError(f"{where}: expected unknown fields, Python found none")
                if category != "unknown_fields" and unknown:
                    raise FixtureError(f"{where}: unexpected unknown fields")

            elif kind == "noncanonical_binary":
                if raw is None:
                    raise FixtureError(f"{where}: noncanonical cases need hex or recipe input")
                if "expected_message" not in case:
                    raise FixtureError(f"{where}: noncanonical cases need expected_message")
                expected = oracle.from_json(case["expected_message"], where)
                msg, err = oracle.parse(raw)
                if python_rejects:
                    if msg is not None:
                        raise FixtureError(f"{where}: marked python_rejects but Python accepts it")
                    msg = expected
                    entry["python_rejects"] = True
                else:
                    if err:
                        raise FixtureError(f"{where}: Python rejects the input: {err}")
                    if oracle.has_unknown_fields(msg)[0]:
                        raise FixtureError(f"{where}: noncanonical inputs must not have unknown fields")
                    if msg.SerializeToString(deterministic=True) != expected.SerializeToString(deterministic=True):
                        raise FixtureError(
                            f"{where}: Python parses to {json_format.MessageToDict(msg)}, "
                            f"expected {json_format.MessageToDict(expected)}")
                binpb, reordered = oracle.canonical_binary(msg, where)
                if binpb == raw:
                    raise FixtureError(f"{where}: input is already canonical")
                js = canonical_json(msg, where)
                json_roundtrip(msg, js, where)
                entry["input"] = emit(f"noncanonical/{name}.binpb", raw)
                entry["binpb"] = emit(f"noncanonical/{name}.canonical.binpb", binpb)
                entry["json"] = emit(f"noncanonical/{name}.canonical.json", js)
                if reordered:
                    entry["python_map_order_differs"] = True

            elif kind == "limit":
                if "message" not in case:
                    raise FixtureError(f"{where}: limit cases need a message")
                profile = case.get("profile")
                if profile not in PROFILES:
                    raise FixtureError(f"{where}: unknown profile {profile!r}")
                codes = case.get("expected_codes")
                if not isinstance(codes, list) or codes != sorted(codes):
                    raise FixtureError(f"{where}: expected_codes must be a sorted list")
                for code in codes:
                    if code not in VALIDATION_CODES:
                        raise FixtureError(f"{where}: unknown validation code {code!r}")
                msg = oracle.from_json(expand_size_helpers(case["message"], where), where, LIMIT_MAX_DEPTH)
                if oracle.has_unknown_fields(msg)[0]:
                    raise FixtureError(f"{where}: limit messages carry no unknown fields")
                binpb, reordered = oracle.canonical_binary(msg, where)
                js = canonical_json(msg, where)
                # JSON must mean the same message; ParseDict gets the depth the message needs.
                back = json_format.Parse(js.decode("utf-8"), oracle.Message(), max_recursion_depth=LIMIT_MAX_DEPTH)
                if back.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True):
                    raise FixtureError(f"{where}: canonical JSON does not round-trip")
                # upb's binary parser stops at 100 message levels; deeper limit messages are
                # flagged like the noncanonical inputs it refuses.
                again, err = oracle.parse(binpb)
                if python_rejects != (err is not None):
                    raise FixtureError(f"{where}: python_rejects is {python_rejects} but upb says {err or 'ok'}")
                if again is not None and again.SerializeToString(deterministic=True) != msg.SerializeToString(
                        deterministic=True):
                    raise FixtureError(f"{where}: canonical binary does not round-trip")
                entry["binpb"] = emit(f"limits/{name}.binpb", binpb)
                entry["json"] = emit(f"limits/{name}.json", js)
                entry["profile"] = profile
                entry["expected_codes"] = codes
                if python_rejects:
                    entry["python_rejects"] = True
                if reordered:
                    entry["python_map_order_differs"] = True

            else:  # invalid_binary
                if raw is None:
                    raise FixtureError(f"{where}: invalid cases need hex or recipe input")
                code = case.get("error")
                if code not in ERROR_CODES:
                    raise FixtureError(f"{where}: unknown error code {code!r}")
                msg, err = oracle.parse(raw)
                python_accepts = bool(case.get("python_accepts", False))
                if python_accepts and err:
                    raise FixtureError(f"{where}: marked python_accepts but Python rejects it: {err}")
                if not python_accepts and msg is not None:
                    raise FixtureError(f"{where}: Python accepts this input; mark python_accepts or fix it")
                entry["input"] = emit(f"invalid/{name}.binpb", raw)
                entry["error"] = code
                if python_accepts:
                    entry["python_accepts"] = True

            cases.append(entry)

    cases.sort(key=lambda c: c["name"])
    manifest = {"version": 1, "cases": cases}
    files[MANIFEST] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    for rel, data in files.items():
        (out_dir / rel).write_bytes(data)
    return files


def listing(root):
    root = Path(root)
    out = set()
    if (root / MANIFEST).is_file():
        out.add(MANIFEST)
    for d in GENERATED_DIRS:
        base = root / d
        if base.is_dir():
            for p in base.rglob("*"):
                if p.is_file() or p.is_symlink():
                    out.add(p.relative_to(root).as_posix())
    return out


def main():
    # MessageToDict and the JSON helpers recurse once per nesting level; a 101-layer merger needs
    # more than Python's default 1000 frames.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * LIMIT_MAX_DEPTH))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temp dir and fail if Fixtures/ differs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            generate(tmp)
        except FixtureError as e:
            print(f"gen_fixtures: {e}", file=sys.stderr)
            return 2
        fresh, current = listing(tmp), listing(FIXTURES)
        if args.check:
            problems = []
            for rel in sorted(fresh | current):
                if rel not in current:
                    problems.append(f"missing: Fixtures/{rel}")
                elif rel not in fresh:
                    problems.append(f"extra:   Fixtures/{rel}")
                elif not filecmp.cmp(Path(tmp) / rel, FIXTURES / rel, shallow=False):
                    problems.append(f"differs: Fixtures/{rel}")
            if problems:
                print("\n".join(problems))
                print(f"gen_fixtures --check: {len(problems)} file(s) stale; "
                      "run python3 Scripts/gen_fixtures.py", file=sys.stderr)
                return 1
            print(f"gen_fixtures --check: {len(fresh)} files up to date")
            return 0
        for d in GENERATED_DIRS:
            shutil.rmtree(FIXTURES / d, ignore_errors=True)
            shutil.copytree(Path(tmp) / d, FIXTURES / d)
        shutil.copyfile(Path(tmp) / MANIFEST, FIXTURES / MANIFEST)
        print(f"gen_fixtures: wrote {len(fresh)} files under {FIXTURES.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
