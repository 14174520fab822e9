"""The tim-rest fixtures (Fixtures/sources/tim_rest*.json -> Fixtures/tim_rest/): Tencent Cloud IM REST JSON.

Called by Scripts/gen_fixtures.py for a source whose "kind" is "tim_rest" or "tim_rest_reject"; it uses
that script's oracle (Python google.protobuf, upb) for everything protobuf, so the expected messages are
checked against the schema and their canonical JSON and binary are made exactly like every other
fixture's. Nothing here runs Swift, and nothing here maps REST to the model: the REST inputs are written
from Tencent's documented field tables and examples, and the message each must decode to (and the
canonical tim-rest output it must encode back to) are written by hand in the source and reviewed.

Source cases (see Fixtures/README.md, "tim-rest"):
  kind "tim_rest" (must decode):
    {"name", "description",
     "input": JSON value | "input_text": exact text | "input_recipe": {"type": "nested_relay", "layers": N},
     "message": proto3 JSON of the imwire.v1.Message the input decodes to,
     "output": JSON value | "output_is_input": true   -- the canonical tim-rest encoding of that message}
        (a relay's JsonMsgKey and MsgNum are MergerElem.json_msg_key / msg_num, stated in "message" like
         every other field; proto3 JSON cannot give unknown fields, so no tim-rest case has any)
  kind "tim_rest_reject", one of:
    {"name", "description", "input" | "input_text" | "input_hex" | "input_recipe", "error": CODE, "path": P}
        decoding the input must fail with CODE (at REST path P, "" for none)
    {"name", "description", "message": proto3 JSON, "error": CODE, "path": P}
        encoding that message as tim-rest must fail with CODE (at model path P)

Inputs given as a JSON value are written with json.dumps(indent=4, ensure_ascii=False), the layout of
Tencent's examples; "input_text" is written byte for byte; recipes compactly (a 2000-layer relay stays
small). The canonical output is
json.dumps(output, separators=(",", ":"), ensure_ascii=False): compact, keys in the order written,
only '"', '\\' and U+0000-U+001F escaped (lowercase \\u00XX), doubles in repr form.
"""

import json
import re

SOURCE_KINDS = ("tim_rest", "tim_rest_reject")
OUTPUT_DIR = "tim_rest"
ACCEPT, DECODE_REJECT, ENCODE_REJECT = "tim_rest", "tim_rest_reject", "tim_rest_export_reject"

# The tim-rest decoder's and encoder's error codes (Sources/IMWireCore/Errors.swift).
ERROR_CODES = (
    "json_syntax",
    "duplicate_key",
    "invalid_utf8",
    "invalid_escape",
    "invalid_value",
    "invalid_number",
    "number_out_of_range",
    "missing_field",
    "unknown_msg_type",
    "oneof_conflict",
    "not_representable",
    "depth_limit_exceeded",
    "input_too_large",
)
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
CASE_KEYS = {"name", "description", "input", "input_text", "input_hex", "input_recipe", "message", "output",
             "output_is_input", "error", "path"}
INPUT_KEYS = ("input", "input_text", "input_hex", "input_recipe")
# Deep relay recipes nest far past upb's default 100 levels.
MAX_DEPTH = 1000


def relay_recipe(spec, where, error):
    """{"type": "nested_relay", "layers": N}: the REST input, its message (proto3 JSON) and its canonical
    output for a text message wrapped N times in a TIMRelayElem's MsgList."""
    if spec.get("type") != "nested_relay" or not isinstance(spec.get("layers"), int) or spec["layers"] < 0:
        raise error(f"{where}: input_recipe must be {{\"type\": \"nested_relay\", \"layers\": N}}")
    rest = {"MsgBody": [{"MsgType": "TIMTextElem", "MsgContent": {"Text": "x"}}]}
    message = {"elems": [{"text": {"text": "x"}}]}
    for _ in range(spec["layers"]):
        rest = {"MsgBody": [{"MsgType": "TIMRelayElem", "MsgContent": {
            "Title": "", "MsgNum": 1, "CompatibleText": "", "AbstractList": [], "MsgList": [rest]}}]}
        message = {"elems": [{"merger": {"messages": [message]}}]}
    return rest, message


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def no_duplicate_keys(pairs, where, error):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise error(f"{where}: duplicate key in a JSON object")
    return dict(pairs)


def build_input(case, where, ctx):
    present = [k for k in INPUT_KEYS if k in case]
    if len(present) != 1:
        raise ctx.FixtureError(f"{where}: give exactly one of {INPUT_KEYS}, got {present}")
    key = present[0]
    if key == "input":
        return json.dumps(case["input"], indent=4, ensure_ascii=False, allow_nan=False).encode("utf-8"), None
    if key == "input_text":
        return case["input_text"].encode("utf-8"), None
    if key == "input_hex":
        return ctx.parse_hex_lines(case["input_hex"], where), None
    rest, message = relay_recipe(case["input_recipe"], where, ctx.FixtureError)
    return compact(rest), (rest, message)


def generate(doc, src_name, ctx):
    """Manifest entries for one tim-rest source. ctx provides: FixtureError, oracle, emit(rel, bytes),
    names (a set shared with the other sources), parse_hex_lines, canonical_json, check_case."""
    error = ctx.FixtureError
    oracle = ctx.oracle
    entries = []
    for case in doc["cases"]:
        name, where, description, level = ctx.check_case(
            case, src_name, ctx.names, name_re=NAME_RE, name_rule="lower_snake_case", case_keys=CASE_KEYS)

        if doc["kind"] == "tim_rest":
            if "error" in case or "path" in case:
                raise error(f"{where}: tim_rest cases are accepted; rejects go in a tim_rest_reject source")
            data, recipe = build_input(case, where, ctx)
            try:
                json.loads(data.decode("utf-8"), object_pairs_hook=lambda p: no_duplicate_keys(p, where, error))
            except ValueError as e:
                raise error(f"{where}: an accepted input must be JSON: {e}") from e
            if recipe is not None:
                if "message" in case or "output" in case or "output_is_input" in case:
                    raise error(f"{where}: a recipe makes its own message and output")
                expected, output = recipe[1], compact(recipe[0])
            else:
                if "message" not in case:
                    raise error(f"{where}: missing message")
                expected = case["message"]
                if case.get("output_is_input") is True:
                    if "output" in case or "input" not in case:
                        raise error(f"{where}: output_is_input needs a JSON-value input and no output")
                    output = compact(case["input"])
                elif "output" in case:
                    output = compact(case["output"])
                else:
                    raise error(f"{where}: give output or output_is_input")
            msg = oracle.from_json(expected, where, MAX_DEPTH)
            if oracle.has_unknown_fields(msg)[0]:
                raise error(f"{where}: proto3 JSON cannot give unknown fields")
            binpb, reordered = oracle.canonical_binary(msg, where)
            js = ctx.canonical_json(msg, where)
            again, err = oracle.parse(binpb)
            if err is None and again.SerializeToString(deterministic=True) != msg.SerializeToString(deterministic=True):
                raise error(f"{where}: canonical binary does not round-trip")
            # binary -> proto3 JSON -> binary keeps every value: the canonical JSON means the same message.
            back = oracle.from_json(json.loads(js.decode("utf-8")), where, MAX_DEPTH)
            if oracle.canonical_binary(back, where)[0] != binpb:
                raise error(f"{where}: canonical JSON does not round-trip to the canonical binary")
            entry = {"name": name, "category": doc["category"], "kind": ACCEPT, "description": description, **level}
            entry["input"] = ctx.emit(f"{OUTPUT_DIR}/{name}.input.json", data)
            entry["json"] = ctx.emit(f"{OUTPUT_DIR}/{name}.json", js)
            entry["binpb"] = ctx.emit(f"{OUTPUT_DIR}/{name}.binpb", binpb)
            entry["tim_rest"] = ctx.emit(f"{OUTPUT_DIR}/{name}.tim_rest.json", output)
            if err is not None:
                entry["python_rejects"] = True  # upb's 100-level limit; the spec admits the depth
            if reordered:
                entry["python_map_order_differs"] = True
        elif doc["kind"] == "tim_rest_reject":
            code = case.get("error")
            if code not in ERROR_CODES:
                raise error(f"{where}: unknown error code {code!r}")
            if not isinstance(case.get("path"), str):
                raise error(f"{where}: give the error's path (\"\" when it has none)")
            if "output" in case or "output_is_input" in case:
                raise error(f"{where}: rejects have no output")
            if "message" in case:
                if any(k in case for k in INPUT_KEYS):
                    raise error(f"{where}: give a REST input (decode reject) or a message (export reject), not both")
                msg = oracle.from_json(case["message"], where, MAX_DEPTH)
                binpb, reordered = oracle.canonical_binary(msg, where)
                entry = {"name": name, "category": doc["category"], "kind": ENCODE_REJECT, "description": description, **level}
                entry["json"] = ctx.emit(f"{OUTPUT_DIR}/{name}.json", ctx.canonical_json(msg, where))
                entry["binpb"] = ctx.emit(f"{OUTPUT_DIR}/{name}.binpb", binpb)
                if reordered:
                    entry["python_map_order_differs"] = True
            else:
                data, _ = build_input(case, where, ctx)
                entry = {"name": name, "category": doc["category"], "kind": DECODE_REJECT, "description": description, **level}
                entry["input"] = ctx.emit(f"{OUTPUT_DIR}/{name}.input.json", data)
            entry["error"] = code
            entry["error_path"] = case["path"]
        else:
            raise error(f"{src_name}: unknown kind {doc['kind']!r}")
        entries.append(entry)
    return entries
