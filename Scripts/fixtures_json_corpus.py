"""The JSON corpus (Fixtures/sources/json_corpus.json -> Fixtures/json/), in the style of JSONTestSuite.

Called by Scripts/gen_fixtures.py for a source whose "kind" is "json_corpus"; it uses that script's
oracle (Python google.protobuf, upb) and writers, so the corpus is made the same way as every other
fixture and nothing here runs Swift.

Source cases (see Fixtures/README.md, "JSON corpus"):
    {"name": "y_...", "description": ..., "input": INPUT}                   must be accepted
    {"name": "n_...", "description": ..., "input": INPUT, "error": CODE}     must be rejected
with optional "options": {"ignore_unknown_fields": true}. INPUT is a string (its UTF-8 bytes are the
input, exactly) or a list of pieces that are concatenated: a string, {"repeat": STRING, "times": N},
or {"hex": HEX} (hex lines as in the other sources, for bytes that are not UTF-8).

An accept case is parsed by json_format.Parse; its canonical JSON and binary are computed from the
result exactly as for the valid fixtures. A reject case must be rejected by json_format.Parse too.
Where Python disagrees, the case says so, and the script checks that it still does:
    "python_accepts": true    (n_ only) Python accepts the input; the spec rejects it
    "python_rejects": true    (y_ only) Python rejects the input; the spec accepts it
    "python_differs": true    (y_ only) Python accepts it with another meaning
together with "python_note" (why), and for y_ cases "expected_message" (proto3 JSON, what the input
means; its canonical forms then come from that).
"""

import json
import re
import sys

SOURCE_KIND = "json_corpus"
OUTPUT_DIR = "json"
ACCEPT, REJECT = "json_accept", "json_reject"

# The JSON decoder's error codes (Sources/IMWireCore/Errors.swift).
ERROR_CODES = (
    "json_syntax",
    "duplicate_key",
    "oneof_conflict",
    "unknown_field",
    "invalid_escape",
    "invalid_number",
    "number_out_of_range",
    "invalid_base64",
    "invalid_value",
    "invalid_utf8",
    "depth_limit_exceeded",
    "input_too_large",
)
OPTIONS = ("ignore_unknown_fields",)
NAME_RE = re.compile(r"^[yn]_[a-z0-9]+(_[a-z0-9]+)*$")
CASE_KEYS = {"name", "description", "input", "error", "options", "python_accepts", "python_rejects",
             "python_differs", "python_note", "expected_message"}

# json_format.Parse stops at 100 message levels by default (a Python limit, like the binary one in
# the Reliability article (IMWire.docc)); accept cases are parsed with room for the deepest input the spec admits.
PYTHON_ACCEPT_DEPTH = 2000


def build_input(spec, where, parse_hex_lines, error):
    pieces = spec if isinstance(spec, list) else [spec]
    out = bytearray()
    for piece in pieces:
        if isinstance(piece, str):
            out += piece.encode("utf-8")
        elif isinstance(piece, dict) and set(piece) == {"repeat", "times"}:
            out += piece["repeat"].encode("utf-8") * piece["times"]
        elif isinstance(piece, dict) and set(piece) == {"hex"}:
            out += parse_hex_lines(piece["hex"], where)
        else:
            raise error(f"{where}: bad input piece {piece!r}")
    return bytes(out)


def python_parse(json_format, message_class, data, options, depth):
    """json_format.Parse on the input bytes; returns (message, None) or (None, reason)."""
    try:
        text = data.decode("utf-8")  # Parse would do the same, outside its own error handling
        msg = json_format.Parse(text, message_class(),
                                ignore_unknown_fields=options.get("ignore_unknown_fields", False),
                                max_recursion_depth=depth)
        return msg, None
    except Exception as e:  # ParseError, UnicodeDecodeError, RecursionError: all are rejections
        return None, f"{type(e).__name__}: {str(e)[:200]}"


def generate(doc, src_name, ctx):
    """Manifest entries for one json_corpus source. ctx provides: FixtureError, oracle, emit(rel, bytes),
    names (a set shared with the other sources), parse_hex_lines, canonical_json, json_format, check_case."""
    # json.loads and ParseDict recurse per nesting level; the deep cases need more than 1000 frames.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    error = ctx.FixtureError
    json_format = ctx.json_format
    oracle = ctx.oracle
    entries = []
    for case in doc["cases"]:
        name, where, description, level = ctx.check_case(
            case, src_name, ctx.names, name_re=NAME_RE, name_rule="y_... or n_... in lower_snake_case", case_keys=CASE_KEYS)
        options = case.get("options", {})
        if set(options) - set(OPTIONS) or not all(v is True for v in options.values()):
            raise error(f"{where}: options may only set {OPTIONS} to true")
        if "input" not in case:
            raise error(f"{where}: missing input")
        data = build_input(case["input"], where, ctx.parse_hex_lines, error)
        flags = [f for f in ("python_accepts", "python_rejects", "python_differs") if case.get(f)]
        if len(flags) > 1:
            raise error(f"{where}: at most one of {flags}")
        flag = flags[0] if flags else None
        if bool(flag) != bool(case.get("python_note", "").strip()):
            raise error(f"{where}: python_note goes with (and only with) a python_* flag")

        kind = ACCEPT if name.startswith("y_") else REJECT
        entry = {"name": name, "category": doc["category"], "kind": kind, "description": description, **level}
        entry["input"] = ctx.emit(f"{OUTPUT_DIR}/{name}.input.json", data)
        if options:
            entry["options"] = dict(sorted(options.items()))

        if kind == ACCEPT:
            if "error" in case or flag == "python_accepts":
                raise error(f"{where}: y_ cases have no error and cannot be python_accepts")
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                raise error(f"{where}: an accepted input must be UTF-8")
            msg, err = python_parse(json_format, oracle.Message, data, options, PYTHON_ACCEPT_DEPTH)
            if flag is None:
                if "expected_message" in case:
                    raise error(f"{where}: expected_message only with python_rejects / python_differs")
                if err:
                    raise error(f"{where}: Python rejects this input: {err}")
            else:
                if "expected_message" not in case:
                    raise error(f"{where}: {flag} needs expected_message")
                expected = oracle.from_json(case["expected_message"], where)
                if flag == "python_rejects" and msg is not None:
                    raise error(f"{where}: marked python_rejects but Python accepts it")
                if flag == "python_differs":
                    if err:
                        raise error(f"{where}: marked python_differs but Python rejects it: {err}")
                    if msg.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True):
                        raise error(f"{where}: marked python_differs but Python gives expected_message")
                msg = expected
                entry[flag] = True
                entry["python_note"] = case["python_note"].strip()
            if oracle.has_unknown_fields(msg)[0]:
                raise error(f"{where}: JSON cannot produce unknown fields")
            binpb, reordered = oracle.canonical_binary(msg, where)
            js = ctx.canonical_json(msg, where)
            back, err = python_parse(json_format, oracle.Message, js, {}, PYTHON_ACCEPT_DEPTH)
            if err or back.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True):
                raise error(f"{where}: canonical JSON does not round-trip: {err or 'another message'}")
            entry["json"] = ctx.emit(f"{OUTPUT_DIR}/{name}.json", js)
            entry["binpb"] = ctx.emit(f"{OUTPUT_DIR}/{name}.binpb", binpb)
            if reordered:
                entry["python_map_order_differs"] = True
        else:
            code = case.get("error")
            if code not in ERROR_CODES:
                raise error(f"{where}: unknown error code {code!r}")
            if flag not in (None, "python_accepts") or "expected_message" in case:
                raise error(f"{where}: n_ cases take only python_accepts")
            msg, err = python_parse(json_format, oracle.Message, data, options, 100)
            if flag and err:
                raise error(f"{where}: marked python_accepts but Python rejects it: {err}")
            if not flag and msg is not None:
                raise error(f"{where}: Python accepts this input "
                            f"({json.dumps(json_format.MessageToDict(msg), ensure_ascii=False)[:120]}); "
                            "mark python_accepts with a python_note, or fix it")
            entry["error"] = code
            if flag:
                entry["python_accepts"] = True
                entry["python_note"] = case["python_note"].strip()
        entries.append(entry)
    return entries
