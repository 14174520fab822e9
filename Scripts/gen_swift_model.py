#!/usr/bin/env python3
"""Generates IMWire's Swift model and field tables from Schemas/imwire/v1/message.proto.

The .proto is the one description of every message; this script turns it into, per module
  Sources/IMWireCore/Generated/Model/<Type>.swift          the public value types (structs, oneof and
                                                           proto enums, kind enums for configured oneofs)
  Sources/IMWireCore/Generated/Schema/<Type>+Fields.swift  the format-neutral field tables, traverse,
                                                           field numbers; Schemas.swift, the file's types
  Sources/IMWireBinary/Generated/<Type>+Binary.swift       _writeBinary, _decodeBinary, the binary codec
  Sources/IMWireJSON/Generated/<Type>+JSON.swift           _decodeJSON, the JSON codec; JSONNames.swift
  Sources/IMWireView/Generated/<Type>+View.swift           the View; ArenaLayouts.swift
  Sources/IMWire/Generated/Conformances.swift              every type an IMWireMessage (all formats)
so that each module compiles only its own format's code, and so that binary, JSON and every later format follow from the same table and cannot drift apart.
Doc comments come from the .proto comments.

The output folders hold generated files only: the script deletes them and writes them again, so a file
the schema no longer produces disappears and `Scripts/regenerate --check` reports it if it is committed.
Hand-written runtime code lives elsewhere (Sources/IMWireCore/Model, Sources/IMWireCore/Schema, the formats' modules …).

With `--target conformance` it generates the same files per type for
Schemas/imwire/conformance/v1/conformance.proto into Sources/IMWireConformance/Generated/ (public types
conforming to IMWire's package-level ProtoMessage, so the conformance framing is read and written by
IMWire's own binary codec).

Everything the generator knows beyond the .proto is in one `Config` per target (TARGETS below):
naming exceptions, which oneof members are stored inline, which oneofs get a kind enum. It checks
that every name the config mentions exists in the schema, and fails (assert) on a schema shape the
Swift runtime does not support, instead of generating code that silently misbehaves.

Usage: python3 Scripts/gen_swift_model.py [--out DIR] [--target model|conformance]
       (DIR defaults to the repo root, the target to `model`)
Run through Scripts/regenerate, which also checks that the committed output is current.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field as dataclass_field

from google.protobuf import descriptor_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FD = descriptor_pb2.FieldDescriptorProto


@dataclass(frozen=True)
class OneofKind:
    """A oneof that gets a kind enum: which member is set, as a value of its own."""
    enum: str                 # the Swift enum's name, e.g. ElemKind
    doc: str                  # its doc comment (Markdown lines, without ///)
    property: str             # the containing type's property returning the kind, e.g. kind
    number_property: str      # the member's field number under a vendor's name, e.g. v2timElemType
    number_doc: str           # that property's doc comment
    constructors: bool        # static constructors on the containing type, one per member (Elem.text(_:))


@dataclass(frozen=True)
class Config:
    """What one --target generates, and every piece of knowledge the schema itself does not carry."""
    proto: str                # the schema, relative to Schemas/
    # Where each part of a type goes, relative to --out (folders of generated files only), and the
    # modules the files of that part import. The parts are the library's modules: "model" and
    # "schema" (the value types, their field tables and `traverse`: IMWireCore), "binary"
    # (`_writeBinary`, `_decodeBinary`: IMWireBinary), "json" (`_decodeJSON`, the JSON names:
    # IMWireJSON), "view" (the `View`s and arena layouts: IMWireView) and "api" (the umbrella's
    # `IMWireMessage` conformance: IMWire), so that each module compiles only its format's code.
    dirs: dict
    imports: dict = dataclass_field(default_factory=dict)   # part -> modules its files import
    type_renames: dict = dataclass_field(default_factory=dict)   # proto name -> Swift name
    case_renames: dict = dataclass_field(default_factory=dict)   # enum value name -> Swift case
    # Oneof message members stored inline; the others are `indirect` to keep the enum small.
    inline_oneof_messages: frozenset = frozenset()
    oneof_kinds: dict = dataclass_field(default_factory=dict)    # (message, oneof) -> OneofKind
    # The global that holds this target's arena layouts (Generated/Schema/ArenaLayouts.swift).
    arena_table: str = "imwireArenaLayouts"
    # The globals of this target's schema file: its message schemas (Generated/Schema/Schemas.swift)
    # and the proto3 JSON names built from them (Generated/Schema/JSONNames.swift).
    schema_file: str = "imwireSchemaFile"
    json_names: str = "imwireJSONNames"
    # The most fields one message type may have: the JSON reader tracks the fields it has seen in a
    # FieldIndexSet of this capacity (Sources/IMWireJSON/ProtoJSON/FieldIndexSet.swift).
    max_fields: int = 128
    # Per message type, the fields most messages leave at their defaults (proto names; a oneof by all
    # its members): kept together in one copy-on-write box behind one optional reference, `nil`
    # while they are all at their defaults, so that making, copying and freeing a value touches one
    # word for them, not one per field. The type's unknown fields go there too.
    cold_fields: dict = dataclass_field(default_factory=dict)
    # Message types whose field numbers code reads by hand, without decoding: they get a
    # `FieldNumber` enum. Only the routing view does that, on the envelope; the validator's paths
    # spell proto names, which ViolationPathTests checks against the schema.
    field_number_types: frozenset = frozenset()
    # What the validator reads (Sources/IMWireValidation/Validation/ValidatedValues.swift declares the
    # protocols, the rules' vocabulary): the conformances of the owned types and of their views,
    # generated from one description so the two sides cannot drift apart. `None`: no validation.
    validated: "Validated | None" = None


@dataclass(frozen=True)
class Validated:
    """The `Validated*` conformances (part "validation"). Types are spelled as in the schema: "string",
    "bytes", a message's Swift name, "[T]" for a list; each side spells them its own way (`String`,
    `[Image]` for the model; `StringView`, `ViewList<Image.View>` for the view)."""
    conformances: dict        # message -> the protocol it conforms to
    associated: dict          # message -> {associated type: schema spelling}
    # (message, oneof) -> (property, result type, {member proto name: projection}). The result type is
    # a template: {Self} is the message's side-spelled name, {string} the side's string. A projection
    # is a tuple of (label, path): label None for an unlabelled value; path None for the member's value
    # itself, else a property path on it ("opMember?.userID"). An empty tuple: a case without payload.
    oneofs: dict


PARTS = ("model", "schema", "binary", "json", "view", "api", "validation")

TARGETS = {
    "model": Config(
        proto="imwire/v1/message.proto",
        dirs={"model": "Sources/IMWireCore/Generated/Model", "schema": "Sources/IMWireCore/Generated/Schema",
              "binary": "Sources/IMWireBinary/Generated", "json": "Sources/IMWireJSON/Generated",
              "view": "Sources/IMWireView/Generated", "api": "Sources/IMWire/Generated",
              "validation": "Sources/IMWireValidation/Generated"},
        imports={"binary": ("IMWireCore",), "json": ("IMWireCore", "IMWireJSONText"),
                 "view": ("IMWireCore", "IMWireBinary"),
                 "api": ("IMWireCore", "IMWireBinary", "IMWireJSON", "IMWireView"),
                 "validation": ("IMWireCore", "IMWireView")},
        type_renames={"IosPushType": "IOSPushType"},
        # The stripped name ("unspecified") would hide that 0 means APNs.
        case_renames={"IOS_PUSH_TYPE_UNSPECIFIED": "apns"},
        # No larger than the enum's other payloads, so inline costs no memory per elem.
        inline_oneof_messages=frozenset({"TextElem", "ImageElem", "FaceElem"}),
        field_number_types=frozenset({"Message"}),
        # The envelope (id, sender, target, times, priority) and the elems are what every message
        # carries; these are features some messages use.
        cold_fields={"Message": frozenset({
            "at_user_list", "targeted_receivers", "cloud_custom_data", "offline_push_info", "topic_id",
            "recall_notice", "group_read_receipt", "c2c_read_receipt"})},
        validated=Validated(
            conformances={
                "GroupMemberInfo": "ValidatedUser", "UserProfile": "ValidatedUser",
                "MemberChangeInfo": "ValidatedUser", "GroupChangeInfo": "ValidatedGroupChange",
                "Image": "ValidatedImageInfo", "GroupTipsElem": "ValidatedGroupTips",
                "MergerElem": "ValidatedMerger", "Elem": "ValidatedElem", "Message": "ValidatedMessage"},
            associated={
                "MergerElem": {"MessageType": "Message"},
                "Elem": {"M": "Message"},
                "Message": {"Text": "string", "Bytes": "bytes", "Texts": "[string]", "ImageInfo": "Image",
                            "Images": "[Image]", "Tips": "GroupTipsElem", "Merger": "MergerElem",
                            "ElemType": "Elem", "Elems": "[Elem]"}},
            oneofs={
                ("Elem", "content"): ("validatedContent", "ValidatedContent<{Message}>", {
                    "text": ((None, "text"),),
                    "custom": (("data", "data"),),
                    "image": (("format", "format"), ("images", "images")),
                    "sound": (("dataSize", "dataSize"), ("duration", "duration"), ("format", "format")),
                    "video": (("videoSize", "videoSize"), ("videoFormat", "videoFormat")),
                    "file": (("fileSize", "fileSize"),),
                    "location": (("longitude", "longitude"), ("latitude", "latitude")),
                    "face": (),
                    "group_tips": ((None, None),),
                    "merger": ((None, None),),
                    "group_system": (("opUser", "opUser"), ("opMemberUserID", "opMember?.userID"),
                                     ("platform", "platform"), ("opUserInfoUserID", "opUserInfo?.userID")),
                }),
                ("Message", "target"): ("validatedTarget", "ValidatedTarget<{string}>", {
                    "receiver": ((None, None),), "group_id": ((None, None),), "room_id": ((None, None),)}),
                ("Message", "signal"): ("validatedSignal", "ValidatedSignal<{string}>", {
                    "recall_notice": (("msgID", "msgID"), ("recalledBy", "recalledBy")),
                    "group_read_receipt": (("msgID", "msgID"),),
                    "c2c_read_receipt": (("userID", "userID"),)}),
            }),
        oneof_kinds={
            ("Elem", "content"): OneofKind(
                enum="ElemKind",
                doc=("The kind of an ``Elem``: which member of its `content` oneof is set.\n\n"
                     "The raw value is the proto name of the oneof member (`group_tips`), as it appears in\n"
                     "validation paths; ``v2timElemType`` is V2TIM's `V2TIMElemType` number, which is also the\n"
                     "oneof field number (the schema pins it)."),
                property="kind",
                number_property="v2timElemType",
                number_doc=("V2TIM's `V2TIMElemType` value, which is also the `Elem.content` field number: text 1 …\n"
                            "merger 10, and 12 for group system (11 is V2TIM's stream elem, which has no kind here)."),
                constructors=True),
        },
    ),
    "conformance": Config(
        proto="imwire/conformance/v1/conformance.proto",
        dirs={part: "Sources/IMWireConformance/Generated" for part in PARTS},
        imports={part: ("IMWire", "IMWireCore", "IMWireBinary", "IMWireJSON", "IMWireView") for part in PARTS},
        arena_table="conformanceArenaLayouts",
        schema_file="conformanceSchemaFile",
        json_names="conformanceJSONNames",
    ),
}

SCALARS = {
    FD.TYPE_STRING: ("String", '""', "string", "String"),
    FD.TYPE_BYTES: ("[UInt8]", "[]", "bytes", "Bytes"),
    FD.TYPE_UINT64: ("UInt64", "0", "uint64", "UInt64"),
    FD.TYPE_UINT32: ("UInt32", "0", "uint32", "UInt32"),
    FD.TYPE_INT32: ("Int32", "0", "int32", "Int32"),
    FD.TYPE_BOOL: ("Bool", "false", "bool", "Bool"),
    FD.TYPE_DOUBLE: ("Double", "0", "double", "Double"),
}
# Swift's conventions for the words of a name (Swift API Design Guidelines), not schema knowledge.
ACRONYMS = {"id": "ID", "url": "URL", "uuid": "UUID", "ios": "IOS"}
SWIFT_KEYWORDS = {"default", "private", "public", "internal", "class", "struct", "enum", "case", "type",
                  "protocol", "extension", "func", "var", "let", "in", "is", "as", "self", "Self"}


def camel(snake, upper_first=False):
    words = snake.lower().split("_")
    out = []
    for i, word in enumerate(words):
        if i == 0 and not upper_first:
            out.append(word)
        else:
            out.append(ACRONYMS.get(word, word.capitalize()))
    return "".join(out)


def json_name(snake):
    parts = snake.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def upper_snake(camel_name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel_name).upper()


def escape(name):
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


def doc(comments, indent):
    text = (comments or "").strip("\n")
    if not text.strip():
        return ""
    lines = [line[1:] if line.startswith(" ") else line for line in text.split("\n")]
    return "".join(f"{indent}///{(' ' + line) if line.strip() else ''}\n" for line in lines)


class Context:
    """One run's inputs: the target's Config and what the schema file says about itself."""

    def __init__(self, config, package):
        self.config = config
        self.package = package
        self.header = (f"// Generated by Scripts/gen_swift_model.py from Schemas/{config.proto}.\n"
                       "// Do not edit: change the schema or the generator and run Scripts/regenerate.\n")

    def head(self, part):
        """The header of a file of `part`, with the imports of that part's module."""
        imports = self.config.imports.get(part, ())
        return self.header + ("\n" + "".join(f"import {module}\n" for module in imports) if imports else "")

    def swift_type_name(self, proto_type_name):
        short = proto_type_name.rsplit(".", 1)[-1]
        return self.config.type_renames.get(short, short)


class Field:
    def __init__(self, ctx, proto, comments, maps):
        self.proto = proto
        self.number = proto.number
        self.name = proto.name
        self.swift = escape(camel(proto.name))
        self.json = json_name(proto.name)
        self.comments = comments
        self.repeated = proto.label == FD.LABEL_REPEATED
        self.oneof = proto.oneof_index if proto.HasField("oneof_index") else None
        assert not proto.proto3_optional, f"field {proto.name}: proto3 `optional` is not supported"
        self.map = maps.get(proto.type_name)
        self.type = proto.type
        self.type_name = ctx.swift_type_name(proto.type_name) if proto.type_name else None
        assert self.map or self.is_message or self.is_enum or self.type in SCALARS, \
            f"field {proto.name}: type {proto.type} has no Swift mapping in the generator"
        self.closes_cycle = False  # set by mark_cycle_closing_fields

    @property
    def is_message(self):
        return self.type == FD.TYPE_MESSAGE and not self.map

    @property
    def is_enum(self):
        return self.type == FD.TYPE_ENUM

    def base_type(self):
        if self.is_message or self.is_enum:
            return self.type_name
        return SCALARS[self.type][0]

    def name_plain(self):
        return self.swift.strip("`")

    def swift_decl_type(self):
        if self.map:
            return "StringBytesMap"
        if self.repeated:
            return f"[{self.base_type()}]"
        if self.is_message:
            return f"{self.base_type()}?"
        return self.base_type()

    def default(self, enums):
        if self.map:
            return "[:]"
        if self.repeated:
            return "[]"
        if self.is_message:
            return "nil"
        if self.is_enum:
            return "." + enums[self.type_name].zero_case
        return SCALARS[self.type][1]

    def kind_expr(self):
        if self.map:
            return ".stringToBytesMap"
        if self.is_message:
            return f".message({{ {self.type_name}.schema }})"
        if self.is_enum:
            return f".enumeration({self.type_name}.schema)"
        return "." + SCALARS[self.type][2]


class Enum:
    def __init__(self, ctx, proto, comments, comments_at):
        self.proto = proto
        self.name = ctx.swift_type_name(proto.name)
        self.full_name = f"{ctx.package}.{proto.name}"
        self.comments = comments
        prefix = upper_snake(proto.name) + "_"
        self.values = []
        for index, value in enumerate(proto.value):
            assert value.name.startswith(prefix), (value.name, prefix)
            case = ctx.config.case_renames.get(value.name) or camel(value.name[len(prefix):])
            self.values.append((escape(case), case, value.number, value.name, comments_at(index)))
        assert self.values[0][2] == 0
        self.zero_case = self.values[0][1]


def load_descriptor(config):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.pb")
        subprocess.run(["protoc", "--include_source_info", f"--descriptor_set_out={out}",
                        "-I", os.path.join(ROOT, "Schemas"), config.proto], check=True)
        fds = descriptor_pb2.FileDescriptorSet()
        with open(out, "rb") as f:
            fds.ParseFromString(f.read())
    return fds.file[0]


def comments_index(file):
    index = {}
    for loc in file.source_code_info.location:
        index[tuple(loc.path)] = loc.leading_comments
    return index


def gen_enum(ctx, enum):
    out = [ctx.head("model"), "\n", doc(enum.comments, ""), f"public enum {enum.name}: Hashable, Sendable, RawRepresentable, CustomStringConvertible {{\n"]
    for decl, _, number, proto_name, comments in enum.values:
        out.append(doc(comments, "    ") or "")
        out.append(f"    /// `{proto_name}` = {number}.\n")
        out.append(f"    case {decl}\n")
    out.append("    /// A number this schema does not name, kept as it came (proto3 enums are open).\n")
    out.append("    case unrecognized(Int32)\n\n")
    out.append("    /// The value for `rawValue`; numbers without a name become ``unrecognized(_:)``.\n")
    out.append("    public init(rawValue: Int32) {\n        switch rawValue {\n")
    for _, case, number, _, _ in enum.values:
        out.append(f"        case {number}: self = .{case}\n")
    out.append("        default: self = .unrecognized(rawValue)\n        }\n    }\n\n")
    out.append("    /// The number on the wire.\n    public var rawValue: Int32 {\n        switch self {\n")
    for _, case, number, _, _ in enum.values:
        out.append(f"        case .{case}: {number}\n")
    out.append("        case .unrecognized(let number): number\n        }\n    }\n\n")
    out.append("    /// Every named value, in declaration order.\n")
    out.append(f"    public static let allKnownCases: [{enum.name}] = [{', '.join('.' + c for _, c, _, _, _ in enum.values)}]\n\n")
    out.append("    /// The proto name (e.g. `" + enum.values[-1][3] + "`), or the number for an unrecognized value.\n")
    out.append("    public var description: String {\n        switch self {\n")
    for _, case, _, proto_name, _ in enum.values:
        out.append(f"        case .{case}: \"{proto_name}\"\n")
    out.append("        case .unrecognized(let number): String(number)\n        }\n    }\n\n")
    out.append("    // `.unrecognized(n)` with a named number is the same value as the named case.\n")
    out.append(f"    public static func == (lhs: {enum.name}, rhs: {enum.name}) -> Bool {{ lhs.rawValue == rhs.rawValue }}\n")
    out.append("    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }\n}\n")
    return "".join(out)


def gen_enum_schema(ctx, enum):
    values = ",\n".join(f'            ({number}, "{proto_name}")' for _, _, number, proto_name, _ in enum.values)
    return (f"{ctx.head('schema')}\nextension {enum.name}: ProtoEnum {{\n"
            f"    @usableFromInline package static let schema: EnumSchema = EnumSchema(\n        fullName: \"{enum.full_name}\",\n"
            f"        values: [\n{values},\n        ])\n}}\n")


class MessageType:
    def __init__(self, ctx, proto, path, comments, maps):
        self.proto = proto
        self.name = ctx.swift_type_name(proto.name)
        self.full_name = f"{ctx.package}.{proto.name}"
        self.comments = comments.get(tuple(path), "")
        self.fields = [Field(ctx, f, comments.get(tuple(path + [2, i]), ""), maps) for i, f in enumerate(proto.field)]
        self.fields.sort(key=lambda f: f.number)
        assert len(self.fields) <= ctx.config.max_fields, \
            f"{proto.name} has {len(self.fields)} fields; the JSON reader's FieldIndexSet holds {ctx.config.max_fields}"
        cold = ctx.config.cold_fields.get(self.name, frozenset())
        for f in self.fields:
            f.cold = f.name in cold
        self.has_cold = bool(cold)
        self.oneofs = []
        for i, oneof in enumerate(proto.oneof_decl):
            members = [f for f in self.fields if f.oneof == i]
            numbers = [f.number for f in self.fields]
            first = numbers.index(members[0].number)
            assert numbers[first:first + len(members)] == [m.number for m in members], \
                f"oneof {oneof.name} members must be contiguous in field-number order"
            assert len({m.cold for m in members}) == 1, f"oneof {oneof.name}: all members cold or none"
            self.oneofs.append((oneof.name, camel(oneof.name, upper_first=True), members,
                                comments.get(tuple(path + [8, i]), ""),
                                ctx.config.oneof_kinds.get((self.name, oneof.name))))

        # The arena layout (Sources/IMWireView/Arena/ArenaLayout.swift): word 0 heads the unknown-field list;
        # then, in field-number order, one word per uint64, double,
        # string, bytes or singular message, one per repeated field or map (its list's links), two
        # per oneof (shared by its members); last the words the 32-bit scalars and the bools share
        # (two 32-bit values, or 64 bools, a word).
        slot = 1
        oneof_slots = {}
        packed32, packed_bools = [], []
        for f in self.fields:
            f.shift = 0
            f.packed = False
            if f.oneof is not None:
                if f.oneof not in oneof_slots:
                    oneof_slots[f.oneof] = slot
                    slot += 2
                f.slot = oneof_slots[f.oneof]
            elif not f.repeated and (f.type == FD.TYPE_BOOL or f.type in (FD.TYPE_UINT32, FD.TYPE_INT32, FD.TYPE_ENUM)):
                f.packed = True
                (packed_bools if f.type == FD.TYPE_BOOL else packed32).append(f)
            else:
                f.slot = slot
                slot += 1
        bit = 64  # the next free bit of the current shared word; 64: none open
        for f in packed32:
            if bit > 32:
                shared, bit = slot, 0
                slot += 1
            f.slot, f.shift = shared, bit
            bit += 32
        for f in packed_bools:
            if bit >= 64:
                shared, bit = slot, 0
                slot += 1
            f.slot, f.shift = shared, bit
            bit += 1
        self.slot_count = slot

    def has_double(self):
        return any(f.type == FD.TYPE_DOUBLE for f in self.fields)


def mark_cycle_closing_fields(messages):
    """Marks the fields that close a cycle of message types (Message -> elems -> Elem -> merger ->
    MergerElem -> messages -> Message): the back edges of a depth-first walk of the type graph, from
    each type in declaration order and through its message-typed fields in field-number order. Every
    cycle has at least one, so storing these fields without recursion (`nested_storage_type`) makes
    every value finite-depth to the compiler-written code: a value built in code can nest as deep as
    memory allows, and comparing, hashing or freeing it must not recurse once per level.
    Returns the marked fields."""
    by_name = {msg.name: msg for msg in messages}
    state = {}  # name -> "open" while on the walk's stack, "done" after
    marked = []

    def walk(msg):
        state[msg.name] = "open"
        for field in msg.fields:
            if not field.is_message or field.type_name not in by_name:
                continue
            target = state.get(field.type_name)
            if target == "open":
                field.closes_cycle = True
                marked.append((msg, field))
            elif target is None:
                walk(by_name[field.type_name])
        state[msg.name] = "done"

    for msg in messages:
        if msg.name not in state:
            walk(msg)
    for msg, field in marked:
        assert not field.cold, f"{msg.name}.{field.name} closes a cycle: it cannot be a cold field"
        # The shape the runtime supports: a repeated field outside any oneof, whose storage type
        # (`Nested<Type>s`, hand-written next to the model) keeps its elements in an array.
        assert field.repeated and field.oneof is None and not field.map, \
            f"{msg.name}.{field.name} closes a cycle of message types; only repeated fields outside a oneof can"
    return marked


def mark_class_backed_types(messages, config):
    """Marks the message types the model always keeps behind a pointer — every field of that type is
    a oneof member not stored inline (Config.inline_oneof_messages) or a singular field — as
    class-backed: their fields go in one copy-on-write object, which is then that pointer, so copying
    such a value is one retain instead of one per field, for no allocation more. A type that is also
    an element of a repeated field, or has cold fields, stays a plain struct."""
    uses = {msg.name: [] for msg in messages}
    for msg in messages:
        for f in msg.fields:
            if f.is_message and f.type_name in uses:
                uses[f.type_name].append(f)
    for msg in messages:
        fields = uses[msg.name]
        msg.class_backed = bool(fields) and not msg.has_cold and all(
            (f.oneof is not None and f.type_name not in config.inline_oneof_messages)
            or (f.oneof is None and not f.repeated) for f in fields)
    by_name = {msg.name: msg for msg in messages}
    for msg in messages:
        for f in msg.fields:
            f.target_class_backed = f.is_message and f.type_name in by_name and by_name[f.type_name].class_backed
            f.container_class_backed = msg.class_backed


def nested_storage_type(field):
    """The hand-written storage of a cycle-closing field (Sources/IMWireCore/Model/NestedMessages.swift
    for `[Message]`): copy-on-write, and comparing, hashing and freeing without recursion."""
    return f"Nested{field.type_name}s"


def stored(field):
    """The stored property behind a field whose public property is computed (a boxed singular
    message, a cycle-closing field)."""
    return f"_{field.name_plain()}"


def is_boxed(field):
    """A singular message field kept behind an `Indirect` box: one allocation when present, 8 bytes
    inline — in a plain type's fields, and in a class-backed type's storage, where an optional kept
    inline would hold the whole sub-message's size in every value, set or not (a group tip's
    operator's profile). (A class-backed message type is 8 bytes already: it needs no box.)"""
    return field.is_message and not field.repeated and field.oneof is None and not field.cold \
        and not field.target_class_backed


def cold_default_test(kind, value):
    """Whether `value` is not the default, for a cold field's setter (no box is made for a default)."""
    if kind in ("oneof", "message"):
        return f"{value} != nil"
    return f"!{value}.isEmpty"


def cold_accessor(name, type_name, default, kind, doc_text):
    """A public property kept in the cold box: read through the optional box, written into it (made,
    or copied when shared, only for a value that is not the default)."""
    return (f"{doc_text}    @_alwaysEmitIntoClient\n    public var {name}: {type_name} {{\n"
            f"        get {{ _cold?.{name} ?? {default} }}\n"
            f"        set {{ if _cold != nil || {cold_default_test(kind, 'newValue')} {{ _coldForWriting().{name} = newValue }} }}\n"
            f"        _modify {{ yield &_coldForWriting().{name} }}\n    }}\n")


def storage_accessor(name, type_name, inner, doc_text, inlinable=True):
    """A public property of a class-backed type: read from its storage, written into it (copied
    first when another value shares it)."""
    attribute = "    @_alwaysEmitIntoClient\n" if inlinable else ""
    return (f"{doc_text}{attribute}    public var {name}: {type_name} {{\n"
            f"        get {{ _storage.{inner} }}\n"
            f"        set {{ _uniqueStorage().{inner} = newValue }}\n"
            f"        _modify {{ yield &_uniqueStorage().{inner} }}\n    }}\n")


def box_class(name, doc_lines, storage_lines):
    """A copy-on-write box class (a type's cold fields, or a class-backed type's fields).

    Each field is stored as `_f` and read and written through `f`, an `@inlinable` accessor: the
    compiler honours `@exclusivity(unchecked)` only in the module that declares the field, so code
    of another module (the formats' generated code) that touched `_f` directly would pay a run-time
    exclusivity check per access; through the accessor, compiled here and inlined there, it pays none. (`_read`, not `get`: a read
    borrows the field where it is, as a direct access did, instead of retaining a copy.)"""
    fields = []
    for line in storage_lines:
        decl, default = [part.strip() for part in line[len("var "):].split("=", 1)]
        if ":" in decl:
            field, type_name = [part.strip() for part in decl.split(":", 1)]
        else:
            field = decl
            type_name = default[:-2] if default.endswith("()") else default[:-len(".none")]
            assert default.endswith("()") or default.endswith(".none"), f"{name}.{field}: no type for {default}"
        fields.append((field, type_name, default))
    out = [doc_lines,
           "    /// Copied on write, as an array's buffer is ([unsafe: model-storage] `@unchecked Sendable`: a box\n"
           "    /// reachable from more than one value is never written, so its fields need no run-time\n"
           "    /// exclusivity check;\n"
           "    /// `@usableFromInline`, as the properties that read it are `@inlinable`: a read in the\n"
           "    /// caller's module is a load, not a call).\n",
           f"    @usableFromInline package final class {name}: @unchecked Sendable {{\n"]
    for field, type_name, default in fields:
        out.append(f"        @usableFromInline @exclusivity(unchecked) package var _{field.strip('`')}: {type_name} = {default}\n")
    out.append("\n")
    for field, type_name, _ in fields:
        out.append(f"        @inlinable package var {field}: {type_name} {{\n"
                   f"            _read {{ yield _{field.strip('`')} }}\n"
                   f"            _modify {{ yield &_{field.strip('`')} }}\n        }}\n")
    out.append(f"\n        @inlinable package init() {{}}\n\n        @usableFromInline package init(copying other: {name}) {{\n")
    out.extend(f"            _{field.strip('`')} = other._{field.strip('`')}\n" for field, _, _ in fields)
    out.append("        }\n    }\n\n")
    return "".join(out)


def gen_message(ctx, msg, enums):
    """The public value type, a decoded value and a value built in code alike, so that a read is a
    load: a plain struct of stored properties (a oneof is one optional enum; the type's cold fields,
    Config.cold_fields, behind one optional copy-on-write box), or, for a type the model always keeps
    behind a pointer (`class_backed`), a struct whose one stored property is a copy-on-write class
    holding the fields, so that the pointer is the storage and a copy is one retain."""
    out = [ctx.head("model"), "\n", doc(msg.comments, ""), f"public struct {msg.name}: Sendable {{\n"]
    emitted_oneofs = set()
    init_params, init_body, storage, box_storage = [], [], [], []
    cb = msg.class_backed
    for field in msg.fields:
        if field.oneof is not None:
            if field.oneof in emitted_oneofs:
                continue
            emitted_oneofs.add(field.oneof)
            name, type_name, members, comments, _ = msg.oneofs[field.oneof]
            prop = camel(name)
            doc_text = doc(comments, "    ") or f"    /// The `{name}` oneof: at most one member is set.\n"
            if cb:
                out.append(storage_accessor(prop, f"{type_name}?", prop, doc_text))
                box_storage.append(f"var {prop}: {type_name}? = nil")
            elif field.cold:
                out.append(cold_accessor(prop, f"{type_name}?", "nil", "oneof", doc_text))
                box_storage.append(f"var {prop}: {type_name}? = nil")
            else:
                out.append(doc_text)
                out.append(f"    public var {prop}: {type_name}? = nil\n")
            init_params.append(f"{prop}: {type_name}? = nil")
            init_body.append(f"self.{prop} = {prop}")
            continue
        store = stored(field)
        doc_text = doc(field.comments, "    ")
        decl, default = field.swift_decl_type(), field.default(enums)
        if cb and field.closes_cycle:
            out.append(doc_text)
            out.append(f"    public var {field.swift}: {decl} {{\n"
                       f"        get {{ _storage.{store}.messages }}\n"
                       f"        set {{ _uniqueStorage().{store}.messages = newValue }}\n"
                       f"        _modify {{ yield &_uniqueStorage().{store}.messages }}\n    }}\n")
            box_storage.append(f"var {store} = {nested_storage_type(field)}()")
            storage.append(f"    /// ``{field.name_plain()}``'s storage, which closes the cycle {msg.name} → {field.type_name} → …"
                           f" → {msg.name} (see ``{nested_storage_type(field)}``).\n"
                           f"    package var {store}: {nested_storage_type(field)} {{ _storage.{store} }}\n")
            storage.append(f"    /// ``{field.name_plain()}``'s messages, moved out when nothing else shares this value's storage or\n"
                           f"    /// theirs (``{nested_storage_type(field)}`` frees deep values level by level with it).\n"
                           f"    package mutating func _take{store[1].upper()}{store[2:]}IfUnique() -> [{field.type_name}]? {{\n"
                           f"        guard isKnownUniquelyReferenced(&_storage) else {{ return nil }}\n"
                           f"        return _storage.{store}.takeMessagesIfUnique()\n    }}\n")
            init_body.append(f"self.{field.swift} = {field.swift}")
        elif cb and is_boxed(field):
            out.append(f"{doc_text}    @_alwaysEmitIntoClient\n    public var {field.swift}: {decl} {{\n"
                       f"        get {{ _storage.{store}.value }}\n"
                       f"        set {{ _uniqueStorage().{store} = Indirect(newValue) }}\n    }}\n")
            box_storage.append(f"var {store} = Indirect<{field.base_type()}>.none")
            init_body.append(f"self.{field.swift} = {field.swift}")
        elif cb:
            out.append(storage_accessor(field.swift, decl, field.swift, doc_text))
            box_storage.append(f"var {field.swift}: {decl} = {default}")
            init_body.append(f"self.{field.swift} = {field.swift}")
        elif field.cold:
            kind = "message" if field.is_message and not field.repeated else "collection"
            out.append(cold_accessor(field.swift, decl, default, kind, doc_text))
            box_storage.append(f"var {field.swift}: {decl} = {default}")
            init_body.append(f"self.{field.swift} = {field.swift}")
        elif is_boxed(field):
            out.append(doc_text)
            out.append(f"    @_alwaysEmitIntoClient\n    public var {field.swift}: {decl} {{\n"
                       f"        get {{ {store}.value }}\n"
                       f"        set {{ {store} = Indirect(newValue) }}\n    }}\n")
            storage.append(f"    @usableFromInline package var {store} = Indirect<{field.base_type()}>.none\n")
            init_body.append(f"self.{store} = Indirect({field.swift})")
        elif field.closes_cycle:
            # Closes a cycle of message types: stored where deep nesting built in code is compared,
            # hashed and freed without recursion.
            out.append(doc_text)
            out.append(f"    public var {field.swift}: {decl} {{\n"
                       f"        get {{ {store}.messages }}\n"
                       f"        set {{ {store}.messages = newValue }}\n"
                       f"        _modify {{ yield &{store}.messages }}\n    }}\n")
            storage.append(f"    /// Storage of ``{field.name_plain()}``, which closes the cycle {msg.name} → {field.type_name} → …"
                           f" → {msg.name}: see ``{nested_storage_type(field)}``.\n")
            storage.append(f"    package var {store} = {nested_storage_type(field)}()\n")
            init_body.append(f"self.{store} = {nested_storage_type(field)}({field.swift})")
        else:
            out.append(doc_text)
            out.append(f"    public var {field.swift}: {decl} = {default}\n")
            init_body.append(f"self.{field.swift} = {field.swift}")
        init_params.append(f"{field.swift}: {decl} = {default}")
    unknown_doc = "    /// Fields this schema does not know, kept and re-emitted after the known ones.\n"
    if cb:
        out.append(storage_accessor("unknownFields", "UnknownFields", "unknownFields", unknown_doc))
        box_storage.append("var unknownFields = UnknownFields()")
    elif msg.has_cold:
        out.append(cold_accessor("unknownFields", "UnknownFields", "UnknownFields()", "collection", unknown_doc))
        box_storage.append("var unknownFields = UnknownFields()")
    else:
        out.append(unknown_doc)
        out.append("    public var unknownFields = UnknownFields()\n")
    out.extend(storage)
    if cb:
        out.append("\n" + box_class(
            "_Storage",
            "    /// The fields, in one object: the model keeps a value of this type behind a pointer anyway (a\n"
            "    /// oneof member or a singular field of another message), so that pointer is this storage, and\n"
            "    /// copying the value (reading it out of an elem, say) is one retain, not one per field.\n",
            box_storage))
        out.append("    @usableFromInline package var _storage: _Storage\n\n")
        out.append("    /// The storage, copied first when another value shares it.\n"
                   "    @inlinable\n    package mutating func _uniqueStorage() -> _Storage {\n"
                   "        if !isKnownUniquelyReferenced(&_storage) { _storage = _Storage(copying: _storage) }\n"
                   "        return _storage\n    }\n")
    elif msg.has_cold:
        out.append("\n" + box_class(
            "_Cold",
            "    /// The fields most messages leave at their defaults, out of line: `nil` while they all are, so\n"
            "    /// that making, copying and freeing a value costs one word for them, not one per field.\n",
            box_storage))
        out.append("    @usableFromInline package var _cold: _Cold? = nil\n\n")
        out.append("    /// The cold box, made or (when another value shares it) copied first.\n"
                   "    @inlinable\n    package mutating func _coldForWriting() -> _Cold {\n"
                   "        // [unsafe: model-storage] `_cold` is not `nil` after either branch.\n"
                   "        if _cold == nil {\n            _cold = _Cold()\n"
                   "        } else if !isKnownUniquelyReferenced(&_cold) {\n            _cold = _Cold(copying: _cold!)\n        }\n"
                   "        return _cold.unsafelyUnwrapped\n    }\n")
    out.append("\n")
    for name, type_name, members, comments, _ in msg.oneofs:
        out.append(f"    /// The members of the `{name}` oneof.\n")
        out.append(f"    public enum {type_name}: {'Sendable' if any(m.type == FD.TYPE_DOUBLE for m in members) else 'Hashable, Sendable'} {{\n")
        for m in members:
            out.append(doc(m.comments, "        "))
            indirect = "indirect " if m.is_message and m.type_name not in ctx.config.inline_oneof_messages \
                and not m.target_class_backed else ""
            out.append(f"        {indirect}case {m.swift}({m.base_type()})\n")
        out.append("    }\n\n")
    empty = "_storage = _Storage()" if cb else ""
    out.append(f"    /// An empty value: every field at its proto3 default.\n    @inlinable\n    public init() {{ {empty} }}\n\n".replace("{  }", "{}"))
    out.append("    @_alwaysEmitIntoClient\n    public init(\n")
    out.append(",\n".join("        " + p for p in init_params))
    out.append("\n    ) {\n")
    if cb:
        out.append("        _storage = _Storage()\n")
    out.append("".join(f"        {line}\n" for line in init_body))
    out.append("    }\n")
    for name, type_name, members, _, kind in msg.oneofs:
        if kind and kind.constructors:
            out.append("\n")
            for m in members:
                out.append(f"    /// {article(msg.name)} holding `{m.swift}` content.\n")
                out.append(f"    @_alwaysEmitIntoClient\n    public static func {m.swift}(_ value: {m.base_type()}) -> {msg.name} {{ {msg.name}({camel(name)}: .{m.swift}(value)) }}\n")
    out.append("}\n")
    out.append(gen_equality(msg))
    return "".join(out)


def gen_equality(msg):
    """== and hash(into:) over the fields, as the compiler's synthesized conformance would write them,
    except that doubles compare by bit pattern (every NaN equal) and a cycle-closing field compares
    and hashes through its storage, without recursion; and a mirror of the public fields."""
    emitted, terms, hashed, mirrored = set(), [], [], []
    for f in msg.fields:
        if f.oneof is not None:
            if f.oneof in emitted:
                continue
            emitted.add(f.oneof)
            prop = camel(msg.oneofs[f.oneof][0])
            terms.append(f"lhs.{prop} == rhs.{prop}")
            hashed.append(f"hasher.combine({prop})")
            mirrored.append(prop)
        elif f.closes_cycle or (is_boxed(f) and not msg.class_backed):
            terms.append(f"lhs.{stored(f)} == rhs.{stored(f)}")
            hashed.append(f"hasher.combine({stored(f)})")
            mirrored.append(f.swift)
        elif f.type == FD.TYPE_DOUBLE:
            terms.append(f"sameDouble(lhs.{f.swift}, rhs.{f.swift})")
            hashed.append(f"hasher.combine(doubleHashKey({f.swift}))")
            mirrored.append(f.swift)
        else:
            terms.append(f"lhs.{f.swift} == rhs.{f.swift}")
            hashed.append(f"hasher.combine({f.swift})")
            mirrored.append(f.swift)
    terms.append("lhs.unknownFields == rhs.unknownFields")
    hashed.append("hasher.combine(unknownFields)")
    out = ["\n"]
    if msg.has_double():
        out.append("// Doubles compare by bit pattern, so -0.0 differs from 0.0 as the bytes (and the JSON) do, except\n"
                   "// that every NaN equals every NaN: equality is reflexive, and JSON, which has one \"NaN\", round-trips.\n")
    out.append(f"extension {msg.name}: Hashable {{\n")
    out.append(f"    public static func == (lhs: {msg.name}, rhs: {msg.name}) -> Bool {{\n")
    if msg.class_backed:
        out.append("        if lhs._storage === rhs._storage { return true }\n")
    out.append("        return " + "\n            && ".join(terms) + "\n    }\n\n")
    out.append("    public func hash(into hasher: inout Hasher) {\n")
    out.append("".join(f"        {line}\n" for line in hashed))
    out.append("    }\n}\n\n")
    msg.mirrored = mirrored
    return "".join(out)


def article(name):
    return ("An " if name[:1] in "AEIOU" else "A ") + name.lower()


def gen_oneof_kind(ctx, msg, oneof):
    """The kind enum of a configured oneof (ElemKind): one case per member, its raw value the member's
    proto name, and the member's field number under the configured name, both ways."""
    name, type_name, members, _, kind = oneof
    prop = camel(name)
    out = [ctx.head("model"), "\n", doc(kind.doc, ""),
           f"public enum {kind.enum}: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {{\n"]
    for m in members:
        out.append(doc(m.comments, "    ") or f"    /// `{m.name}` (field {m.number}).\n")
        out.append(f"    case {m.swift}" + (f" = \"{m.name}\"" if m.name_plain() != m.name else "") + "\n")
    out.append(f"\n    /// The proto name of the `{name}` oneof member, e.g. `{members[-1].name}`.\n")
    out.append("    public var description: String { rawValue }\n\n")
    out.append(doc(kind.number_doc, "    "))
    out.append(f"    public var {kind.number_property}: Int {{\n        switch self {{\n")
    for m in members:
        out.append(f"        case .{m.swift}: {m.number}\n")
    out.append("        }\n    }\n\n")
    out.append(f"    /// The kind whose ``{kind.number_property}`` is `{kind.number_property}`; `nil` for numbers no member has.\n")
    out.append(f"    public init?({kind.number_property}: Int) {{\n        switch {kind.number_property} {{\n")
    for m in members:
        out.append(f"        case {m.number}: self = .{m.swift}\n")
    out.append("        default: return nil\n        }\n    }\n}\n\n")
    out.append(f"extension {msg.name} {{\n")
    out.append(f"    /// Which `{name}` member is set; `nil` when none is (for example a member from a newer\n"
               f"    /// schema, kept only as unknown fields).\n")
    out.append(f"    public var {kind.property}: {kind.enum}? {{\n")
    out.append(f"        switch {prop} {{\n")
    for m in members:
        out.append(f"        case .{m.swift}?: return .{m.swift}\n")
    out.append("        case nil: return nil\n        }\n    }\n}\n")
    return "".join(out)


# How the generated function bodies reach a field. A plain type's fields are read through `self`;
# its cold ones through the box bound to `c` by `presence`. A class-backed type binds its storage to
# `storage` first (`body_prelude`) and reaches every field there.

def owner(msg):
    return "storage" if msg.class_backed else "self"


def body_prelude(msg, writing):
    if not msg.class_backed:
        return ""
    return "        let storage = _uniqueStorage()\n" if writing else "        let storage = self._storage\n"


def value_of(msg, field):
    """The value of a non-oneof field, as a function body reads it."""
    o = owner(msg)
    if msg.class_backed:
        if field.closes_cycle:
            return f"storage.{stored(field)}.messages"
        return f"storage.{stored(field)}.value" if is_boxed(field) else f"storage.{field.swift}"
    if field.cold:
        return f"c.{field.swift}"
    if is_boxed(field):
        return f"self.{stored(field)}.value"
    if field.closes_cycle:
        return f"self.{stored(field)}.messages"
    return f"{o}.{field.swift}"


def presence(msg, field):
    """Whether a non-oneof field is present (proto3: not its default). For a singular message the
    condition binds the message to `value`; for a cold field, its box to `c`."""
    if field.cold:
        if field.is_message and not field.repeated:
            return f"let c = self._cold, let value = c.{field.swift}"
        return f"let c = self._cold, !c.{field.swift}.isEmpty"
    if field.is_message and not field.repeated:
        return f"let value = {value_of(msg, field)}"
    if field.closes_cycle:
        return f"!{owner(msg)}.{stored(field)}.isEmpty"
    v = value_of(msg, field)
    if field.map or field.repeated or field.type in (FD.TYPE_STRING, FD.TYPE_BYTES):
        return f"!{v}.isEmpty"
    if field.type == FD.TYPE_BOOL:
        return v
    if field.type == FD.TYPE_DOUBLE:
        return f"{v}.bitPattern != 0"
    if field.is_enum:
        return f"{v}.rawValue != 0"
    return f"{v} != 0"


def oneof_value(msg, members, name):
    """How a function body reads a oneof's value (a cold one through its box)."""
    if msg.class_backed:
        return f"storage.{camel(name)}"
    return f"self._cold?.{camel(name)}" if members[0].cold else f"self.{camel(name)}"


def unknown_presence(msg):
    if msg.class_backed:
        return "!storage.unknownFields.isEmpty"
    return "let c = self._cold, !c.unknownFields.isEmpty" if msg.has_cold else "!self.unknownFields.isEmpty"


def unknown_value(msg):
    if msg.class_backed:
        return "storage.unknownFields"
    return "c.unknownFields" if msg.has_cold else "self.unknownFields"


def visit_call(field, value):
    if field.map:
        return f"try visitor.visitStringToBytesMap({value}, field: {field.number})"
    if field.closes_cycle:
        return f"try visitor.visit{nested_storage_type(field)}({value}, field: {field.number})"
    if field.repeated:
        kind = "Message" if field.is_message else "String"
        return f"try visitor.visitRepeated{kind}({value}, field: {field.number})"
    if field.is_message:
        return f"try visitor.visitMessage({value}, field: {field.number})"
    if field.is_enum:
        return f"try visitor.visitEnum({value}, field: {field.number})"
    return f"try visitor.visit{SCALARS[field.type][3]}({value}, field: {field.number})"


def field_groups(msg):
    """The fields in number order as (field, None) or, for a oneof, once as (None, oneof)."""
    done = set()
    for f in msg.fields:
        if f.oneof is None:
            yield f, None
        elif f.oneof not in done:
            done.add(f.oneof)
            yield None, msg.oneofs[f.oneof]


def gen_traverse(msg):
    out = ["    @inlinable\n    package func traverse<V: FieldVisitor>(_ visitor: inout V) throws(V.Failure) {\n", body_prelude(msg, False)]
    for f, oneof in field_groups(msg):
        if oneof:
            name, _, members, _, _ = oneof
            out.append(f"        try {oneof_value(msg, members, name)}?._traverse(&visitor)\n")
        elif f.is_message and not f.repeated:
            out.append(f"        if {presence(msg, f)} {{ {visit_call(f, 'value')} }}\n")
        else:
            out.append(f"        if {presence(msg, f)} {{ {visit_call(f, value_of(msg, f))} }}\n")
    out.append(f"        if {unknown_presence(msg)} {{ try visitor.visitUnknownFields({unknown_value(msg)}) }}\n    }}\n\n")
    return "".join(out)


WRITER_METHODS = {FD.TYPE_STRING: "string", FD.TYPE_BYTES: "bytes", FD.TYPE_UINT64: "uint64", FD.TYPE_UINT32: "uint32",
                  FD.TYPE_INT32: "int32", FD.TYPE_BOOL: "bool", FD.TYPE_DOUBLE: "double"}


def write_call(field, value):
    """The BinaryWriter call that prepends `field` holding `value`."""
    n = field.number
    if field.map:
        return f"writer.stringToBytesMap({value}, field: {n})"
    if field.repeated:
        if field.is_message:
            return f"try writer.repeatedMessage({value}, field: {n})"
        return f"writer.repeatedString({value}, field: {n})"
    if field.is_message:
        return f"try writer.message({value}, field: {n})"
    if field.is_enum:
        return f"writer.enumeration({value}, field: {n})"
    return f"writer.{WRITER_METHODS[field.type]}({value}, field: {n})"


def gen_write_binary(msg):
    """_writeBinary: the fields, last first, for the back-to-front writer."""
    out = ["    /// Writes the value's canonical encoding in front of what `writer` holds (fields last to first).\n",
           "    @usableFromInline package borrowing func _writeBinary(_ writer: inout BinaryWriter) throws(IMWireError) {\n",
           body_prelude(msg, False),
           f"        if {unknown_presence(msg)} {{ writer.unknownFields({unknown_value(msg)}) }}\n"]
    for f, oneof in reversed(list(field_groups(msg))):
        if oneof:
            name, _, members, _, _ = oneof
            out.append(f"        try {oneof_value(msg, members, name)}?._writeBinary(&writer)\n")
        elif f.is_message and not f.repeated:
            out.append(f"        if {presence(msg, f)} {{ {write_call(f, 'value')} }}\n")
        else:
            out.append(f"        if {presence(msg, f)} {{ {write_call(f, value_of(msg, f))} }}\n")
    out.append("    }\n\n")
    return "".join(out)


WIRE_TYPES = {FD.TYPE_STRING: 2, FD.TYPE_BYTES: 2, FD.TYPE_MESSAGE: 2, FD.TYPE_DOUBLE: 1, FD.TYPE_UINT64: 0,
              FD.TYPE_UINT32: 0, FD.TYPE_INT32: 0, FD.TYPE_BOOL: 0, FD.TYPE_ENUM: 0}


def field_tag(f):
    """The tag a field is written with: its number and wire type."""
    return f.number << 3 | (2 if (f.map or f.is_message) else WIRE_TYPES[f.type])


def binary_scalar(field):
    """The expression that reads one value of a scalar, string, bytes or enum field from `reader`."""
    if field.is_enum:
        return f"{field.type_name}(rawValue: Int32(truncatingIfNeeded: try reader.readVarint()))"
    return {
        FD.TYPE_STRING: "try reader.readString()",
        FD.TYPE_BYTES: "try reader.readBytes()",
        FD.TYPE_UINT64: "try reader.readVarint()",
        FD.TYPE_UINT32: "UInt32(truncatingIfNeeded: try reader.readVarint())",
        FD.TYPE_INT32: "Int32(truncatingIfNeeded: try reader.readVarint())",
        FD.TYPE_BOOL: "try reader.readVarint() != 0",
        FD.TYPE_DOUBLE: "Double(bitPattern: try reader.readFixed64())",
    }[field.type]


def write_target(msg, field):
    """Where a decoder writes a field: its property (a cold one through its public accessor, which
    makes the box), or its place in a class-backed type's storage."""
    if field.closes_cycle:
        return f"{owner(msg)}.{stored(field)}.messages"
    if is_boxed(field):
        return f"{owner(msg)}.{stored(field)}"
    return f"{owner(msg)}.{field.swift}"


def binary_decode_lines(msg, f, oneof_prop=None):
    """The statements that read one occurrence of `f` (a oneof member when `oneof_prop` is given)."""
    if oneof_prop:
        prop = f"{owner(msg)}.{oneof_prop}"
        if f.is_message:
            # A repeated occurrence of the same member merges into it, as any parser does.
            return [f"var value: {f.type_name}",
                    f"if case .{f.swift}(let existing)? = {prop} {{ value = existing; {prop} = nil }} else {{ value = {f.type_name}() }}",
                    "try reader.readMessage(&value)",
                    f"{prop} = .{f.swift}(value)"]
        return [f"{prop} = .{f.swift}({binary_scalar(f)})"]
    target = write_target(msg, f)
    if f.map:
        return [f"try reader.readMapEntry(into: &{target})"]
    tag = field_tag(f)
    if f.repeated:
        if f.is_message:
            return [f"try reader.appendMessage(to: &{target}, tag: {tag})"]
        assert f.type == FD.TYPE_STRING, f"{msg.name}.{f.name}: only repeated strings and messages are supported"
        return [f"try reader.appendString(to: &{target}, tag: {tag})"]
    if f.is_message:
        return [f"try reader.mergeMessage(into: &{target})"]
    return [f"{target} = {binary_scalar(f)}"]


def gen_decode_binary(msg):
    """_decodeBinary: one switch over the tags the type knows (number and wire type: a known field with
    another wire type, like a field the schema does not know, is kept as an unknown field). (Expecting
    the fields in number order first, a compare each, was measured slower: Docs/architecture.md.)"""
    out = ["    /// Reads the fields of one message body from `reader` (to the end of the message it is in),\n",
           "    /// merging them into this value as protobuf's rules say.\n",
           "    @usableFromInline package mutating func _decodeBinary(_ reader: inout BinaryReader) throws(IMWireError) {\n",
           body_prelude(msg, True),
           "        var tag = try reader.nextTag()\n",
           "        while tag != 0 {\n",
           "            switch tag {\n"]
    for f in msg.fields:
        oneof_prop = camel(msg.oneofs[f.oneof][0]) if f.oneof is not None else None
        lines = binary_decode_lines(msg, f, oneof_prop)
        if len(lines) == 1:
            out.append(f"            case {field_tag(f)}: {lines[0]}\n")
        else:
            out.append(f"            case {field_tag(f)}:\n")
            out.extend(f"                {line}\n" for line in lines)
    unknown = "storage.unknownFields" if msg.class_backed else "self.unknownFields"
    out.append(f"            default: try reader.readUnknownField(tag, into: &{unknown})\n")
    out.append("            }\n            tag = try reader.nextTag()\n        }\n")
    for f in msg.fields:
        if f.map:
            # Entries come in wire order (and may repeat a key): ordered once, at the end.
            out.append(f"        {write_target(msg, f)}.finishDecoding()\n")
    out.append("    }\n\n")
    return "".join(out)


def json_scalar(field):
    """The expression that reads one JSON value of a scalar, string or bytes field from `reader`."""
    return {
        FD.TYPE_STRING: "try reader.readString()",
        FD.TYPE_BYTES: "try reader.readBytes()",
        FD.TYPE_UINT64: "try reader.readUInt64()",
        FD.TYPE_UINT32: "try reader.readUInt32()",
        FD.TYPE_INT32: "try reader.readInt32()",
        FD.TYPE_BOOL: "try reader.readBool()",
        FD.TYPE_DOUBLE: "try reader.readDouble()",
    }[field.type]


def json_decode_line(msg, f):
    """The statement that reads the JSON value of `f` (its key was just read: a field appears once)."""
    if f.oneof is not None:
        prop = f"{owner(msg)}.{camel(msg.oneofs[f.oneof][0])}"
        if f.is_message:
            return f"{prop} = .{f.swift}(try reader.readMessage({f.type_name}.self))"
        if f.is_enum:
            return f"if let value = try reader.readEnum({f.type_name}.self) {{ {prop} = .{f.swift}(value) }}"
        return f"{prop} = .{f.swift}({json_scalar(f)})"
    target = write_target(msg, f)
    if f.map:
        return f"try reader.readMap(into: &{target})"
    if f.repeated:
        if f.is_message:
            return f"try reader.readRepeatedMessages(into: &{target})"
        assert f.type == FD.TYPE_STRING, f"{msg.name}.{f.name}: only repeated strings and messages are supported"
        return f"try reader.readRepeatedStrings(into: &{target})"
    if f.is_message:
        value = f"try reader.readMessage({f.type_name}.self)"
        return f"{target} = .some({value})" if is_boxed(f) else f"{target} = {value}"
    if f.is_enum:
        # An enum name the schema does not know, when unknown names are ignored, leaves the field unset.
        return f"if let value = try reader.readEnum({f.type_name}.self) {{ {target} = value }}"
    return f"{target} = {json_scalar(f)}"


def gen_decode_json(msg):
    """_decodeJSON: the value of the member whose key named schema field `index`."""
    out = ["    /// Reads the JSON value of schema field `index` (its key just read by `reader`) into this value.\n",
           "    @usableFromInline package mutating func _decodeJSON(field index: Int, _ reader: inout JSONReader) throws(IMWireError) {\n",
           body_prelude(msg, True),
           "        switch index {\n"]
    for index, f in enumerate(msg.fields):
        out.append(f"        case {index}: {json_decode_line(msg, f)}\n")
    out.append("        default: break\n        }\n    }\n")
    return "".join(out)


def gen_fields(ctx, msg, type_index):
    """The format-neutral part (IMWireCore): the field table, the type's place in its file, `traverse`."""
    out = [ctx.head("schema"), "\n", f"extension {msg.name}: IMWireModel, ProtoMessage {{\n"]
    out.append(f"    @usableFromInline package static let schema: MessageSchema = MessageSchema(\n        fullName: \"{msg.full_name}\",\n        fields: [\n")
    for f in msg.fields:
        extra = ""
        if f.repeated and not f.map:
            extra += ", repeated: true"
        if f.oneof is not None:
            extra += f", oneof: \"{msg.oneofs[f.oneof][0]}\""
        if f.name_plain() != f.name:
            extra += f", swift: \"{f.name_plain()}\""
        out.append(f"            FieldSchema({f.number}, \"{f.name}\", {f.kind_expr()}{extra}),\n")
    out.append("        ])\n\n")
    out.append(f"    @usableFromInline package static var _schemaFile: SchemaFile {{ {ctx.config.schema_file} }}\n")
    out.append(f"    @usableFromInline package static var _typeIndex: Int {{ {type_index} }}\n\n")
    if msg.name in ctx.config.field_number_types:
        out.append("    /// The schema's field numbers, for code that reads the wire without decoding (the routing view).\n")
        out.append("    package enum FieldNumber {\n")
        for f in msg.fields:
            out.append(f"        package static let {f.swift} = {f.number}\n")
        out.append("    }\n\n")
    out.append(gen_traverse(msg))
    out.append("}\n")
    for oneof in msg.oneofs:
        out.append(gen_oneof_walk(msg, oneof, "traverse"))
    return "".join(out)


def gen_binary(ctx, msg):
    """The binary part (IMWireBinary): the type's binary codec, `_writeBinary`, `_decodeBinary`."""
    out = [ctx.head("binary"), "\n", f"extension {msg.name}: BinaryMessage, BinaryFieldCoding {{\n",
           f"    public static let _binaryCodec = _BinaryCodec<{msg.name}>()\n\n"]
    out.append(gen_write_binary(msg))
    out.append(gen_decode_binary(msg))
    out.append("}\n")
    for oneof in msg.oneofs:
        out.append(gen_oneof_walk(msg, oneof, "binary"))
    return "".join(out)


def gen_json(ctx, msg):
    """The proto3 JSON part (IMWireJSON): the type's JSON codec, its names, `_decodeJSON`."""
    return "".join([ctx.head("json"), "\n", f"extension {msg.name}: JSONMessage, JSONFieldReading {{\n",
                    f"    public static let _jsonCodec = _JSONCodec<{msg.name}>()\n",
                    f"    @usableFromInline package static var _jsonNames: JSONNameTable {{ {ctx.config.json_names} }}\n\n",
                    gen_decode_json(msg), "}\n"])


def gen_api(ctx, messages):
    """The umbrella's part (IMWire): every type is an `IMWireMessage`, which brings all formats."""
    out = [ctx.head("api"), "\n", "// Every message type of the schema file: all formats, the view and the debug description.\n"]
    for msg in messages:
        # Reflection (`dump`, debuggers) shows the fields, not the storage behind them; here, not in
        # the model's module, so that a program that never reflects links none of it.
        children = ", ".join(f'"{m.strip("`")}": {m} as Any' for m in msg.mirrored + ["unknownFields"])
        out.append(f"extension {msg.name}: CustomReflectable {{\n    public var customMirror: Mirror {{\n"
                   f"        Mirror(self, children: [{children}], displayStyle: .struct)\n    }}\n}}\n")
        out.append(f"extension {msg.name}: IMWireMessage {{\n"
                   f"    public static let _imwireCodec = _IMWireCodec<{msg.name}>()\n}}\n")
    return "".join(out)


def gen_oneof_walk(msg, oneof, part):
    """traverse (part "traverse") or _writeBinary (part "binary") of a oneof's enum, which the message's own
    call through the optional enum (`self.content?._writeBinary(&writer)`): a method of the enum has the
    enum borrowed, so its switch binds the member's value in place, where a switch over the message's
    property would copy it first (a retain and a release of every reference the member holds)."""
    name, type_name, members, _, _ = oneof
    out = [f"\nextension {msg.name}.{type_name} {{\n", "    @inline(__always)\n"]
    if part == "traverse":
        out.append("    @inlinable\n    package borrowing func _traverse<V: FieldVisitor>(_ visitor: inout V) throws(V.Failure) {\n")
        out.append("        switch self {\n")
        for m in members:
            out.append(f"        case .{m.swift}(let value): {visit_call(m, 'value')}\n")
    else:
        out.append("    @usableFromInline package borrowing func _writeBinary(_ writer: inout BinaryWriter) throws(IMWireError) {\n")
        out.append("        switch self {\n")
        for m in members:
            out.append(f"        case .{m.swift}(let value): {write_call(m, 'value')}\n")
    out.append("        }\n    }\n}\n")
    return "".join(out)


ARENA_KINDS = {FD.TYPE_STRING: ".string", FD.TYPE_BYTES: ".bytes", FD.TYPE_DOUBLE: ".fixed64", FD.TYPE_UINT64: ".uint64",
               FD.TYPE_UINT32: ".uint32", FD.TYPE_INT32: ".int32", FD.TYPE_BOOL: ".bool", FD.TYPE_ENUM: ".enumeration"}


def gen_schema_file(ctx, messages):
    """The schema file's registry: every message type's schema, in the order of `messages` (the types'
    _typeIndex)."""
    out = [ctx.head("schema"), "\n",
           "/// Every message type of this schema file, indexed by each type's `_typeIndex`: what a format\n"
           "/// builds its per-file tables from (the proto3 JSON names, ``JSONNameTable``).\n",
           f"package let {ctx.config.schema_file} = SchemaFile([\n"]
    for i, msg in enumerate(messages):
        out.append(f"    {msg.name}.schema,  // {i}\n")
    out.append("])\n")
    return "".join(out)


def gen_json_names(ctx):
    """The proto3 JSON names of the schema file's types, built once from its registry."""
    return "".join([ctx.head("json"), "\n",
                    "/// The proto3 JSON names of this schema file's message types, indexed like its ``SchemaFile``.\n",
                    f"package let {ctx.config.json_names} = JSONNameTable({ctx.config.schema_file})\n"])


def gen_arena_layouts(ctx, messages):
    """Every message type's ArenaLayout, in the order of `messages` (the types' _typeIndex)."""
    index = {msg.name: i for i, msg in enumerate(messages)}
    out = [ctx.head("view"), "\n",
           "/// The arena layouts of every message type of this schema (see ``ArenaLayout``), indexed by each\n"
           "/// type's `_typeIndex`; their slots are the ones the types' accessors read.\n",
           f"package let {ctx.config.arena_table} = ArenaLayoutTable([\n"]
    for msg in messages:
        out.append(f"    // {index[msg.name]}: {msg.name}\n    (slotCount: {msg.slot_count}, schema: {msg.name}.schema, fields: [\n")
        for position, f in enumerate(msg.fields):
            if f.map:
                kind, container = ".stringToBytesMap", ".repeated"
            else:
                if f.is_message:
                    assert f.type_name in index, f"{msg.name}.{f.name}: message types from other files have no arena layout here"
                    kind = ".message"
                else:
                    kind = ARENA_KINDS[f.type]
                container = ".oneof" if f.oneof is not None else ".repeated" if f.repeated else ".single"
            if f.packed:
                container = ".bits"
            args = f"{kind}, {container}, slot: {f.slot}, index: {position}"
            if f.is_message:
                args += f", sub: {index[f.type_name]}"
            if f.packed:
                args += f", shift: {f.shift}"
            out.append(f"        ({f.number}, ArenaField({args})),\n")
        out.append("    ]),\n")
    # The binary view decoder's wire-type table is the binary format's (`ArenaField.wireType`, in
    # Binary/): the storage layer knows no format.
    out.append("], wireType: \\.wireType)\n")
    return "".join(out)


def view_value(field, slot_expr, in_oneof=False):
    """The expression a view reads field `field`'s value with (a oneof member's value is the word
    after the member's number), and its Swift type."""
    if field.map:
        return f"_node.map({slot_expr})", "StringBytesMapView"
    if field.repeated:
        if field.is_message:
            return f"_node.list({slot_expr})", f"ViewList<{field.type_name}.View>"
        assert field.type == FD.TYPE_STRING, f"{field.name}: a view has repeated messages and strings only"
        return f"_node.list({slot_expr})", "ViewList<StringView>"
    if field.is_message:
        if in_oneof:
            return f"_node.messageMember({slot_expr})", f"{field.type_name}.View"
        return f"_node.message({slot_expr})", f"{field.type_name}.View?"
    shift = f", {field.shift}" if field.packed else ""
    if field.is_enum:
        return f"{field.type_name}(rawValue: _node.int32({slot_expr}{shift}))", field.type_name
    kind = {FD.TYPE_STRING: ("string", "StringView"), FD.TYPE_BYTES: ("bytesValue", "BytesView"),
            FD.TYPE_UINT64: ("uint64", "UInt64"), FD.TYPE_UINT32: ("uint32", "UInt32"),
            FD.TYPE_INT32: ("int32", "Int32"), FD.TYPE_BOOL: ("bool", "Bool"),
            FD.TYPE_DOUBLE: ("double", "Double")}[field.type]
    return f"_node.{kind[0]}({slot_expr}{shift})", kind[1]


def owned_value(field, value):
    """An owned copy of a view's value `value` of field `field` (a oneof member's, or a field's)."""
    if field.map:
        return f"StringBytesMap({value})"
    if field.repeated:
        return f"{value}.map({field.type_name}.init)" if field.is_message else f"{value}.map(String.init)"
    if field.is_message:
        return f"{field.type_name}({value})"
    if field.type == FD.TYPE_STRING:
        return f"String({value})"
    if field.type == FD.TYPE_BYTES:
        return f"Array({value})"
    return value


def gen_view(ctx, msg):
    """`T.View`: the type's fields read in place from a view decode's node (Sources/IMWireView/View),
    at the slots of the type's arena layout; and `T.init(_ view:)`, an owned copy."""
    name = msg.name
    out = [ctx.head("view"), "\n",
           f"extension {name}: ViewableMessage, ArenaLaidOut {{\n",
           f"    public static let _viewCodec = _ViewCodec<{name}>()\n",
           f"    @usableFromInline package static var _arenaTable: ArenaLayoutTable {{ {ctx.config.arena_table} }}\n\n",
           f"    /// A read-only view of a binary ``{name}``: every field read in place from the input, valid only\n",
           f"    /// inside the closure of ``ViewableMessage/withView(serializedBytes:options:_:)``. Strings are\n",
           f"    /// ``StringView``s, bytes ``BytesView``s, sub-messages views, repeated fields ``ViewList``s;\n",
           f"    /// `{name}(view)` makes an owned copy.\n",
           f"    public struct View: IMWireMessageView {{\n",
           f"        public typealias Owned = {name}\n",
           "        @usableFromInline package let _node: _ViewNode\n",
           "        @inlinable public init(_viewNode: _ViewNode) { _node = _viewNode }\n"]
    for f in msg.fields:
        if f.oneof is not None:
            continue
        expr, type_ = view_value(f, str(f.slot))
        out.append(f"\n        /// `{f.name}` (field {f.number}).\n")
        out.append(f"        @_alwaysEmitIntoClient public var {f.swift}: {type_} {{ {expr} }}\n")
    for oneof_name, type_name, members, _, kind in msg.oneofs:
        slot = members[0].slot
        prop = escape(camel(oneof_name))
        out.append(f"\n        /// The `{oneof_name}` oneof: the member that is set, or `nil`.\n")
        out.append(f"        public enum {type_name} {{\n")
        for m in members:
            _, type_ = view_value(m, "0", in_oneof=True)
            out.append(f"            /// `{m.name}` (field {m.number}).\n            case {m.swift}({type_})\n")
        out.append("        }\n\n")
        out.append(f"        @_alwaysEmitIntoClient public var {prop}: {type_name}? {{\n")
        out.append(f"            switch _node.oneofCase({slot}) {{\n")
        for m in members:
            expr, _ = view_value(m, str(slot + 1), in_oneof=True)
            out.append(f"            case {m.number}: .{m.swift}({expr})\n")
        out.append("            default: nil\n            }\n        }\n")
        if kind:
            out.append(f"\n        /// Which `{oneof_name}` member is set (``{name}/{kind.property}``).\n")
            out.append(f"        @_alwaysEmitIntoClient public var {kind.property}: {kind.enum}? {{ {kind.enum}({kind.number_property}: _node.oneofCase({slot})) }}\n")
    out.append("\n        /// Fields this schema does not know, each field's bytes in wire order.\n")
    out.append("        @_alwaysEmitIntoClient public var unknownFields: UnknownFieldsView { _node.unknownFields }\n")
    out.append("    }\n\n")
    out.append(f"    /// An owned copy of a view's fields: the value ``init(serializedBytes:options:)-(Bytes,_)`` decodes\n"
               f"    /// from the same bytes.\n")
    out.append("    public init(_ view: View) {\n        self.init()\n")
    for f in msg.fields:
        if f.oneof is not None:
            continue
        value = owned_value(f, f"view.{f.swift}")
        if f.is_message and not f.repeated:
            out.append(f"        if let value = view.{f.swift} {{ self.{f.swift} = {f.type_name}(value) }}\n")
        elif (f.repeated or f.map or f.type in (FD.TYPE_STRING, FD.TYPE_BYTES)):
            out.append(f"        if !view.{f.swift}.isEmpty {{ self.{f.swift} = {value} }}\n")
        else:
            out.append(f"        self.{f.swift} = {value}\n")
    for oneof_name, type_name, members, _, _ in msg.oneofs:
        prop = escape(camel(oneof_name))
        out.append(f"        switch view.{prop} {{\n")
        for m in members:
            out.append(f"        case .{m.swift}(let value)?: self.{prop} = .{m.swift}({owned_value(m, 'value')})\n")
        out.append("        case nil: break\n        }\n")
    out.append("        if !view.unknownFields.isEmpty { self.unknownFields = view.unknownFields.owned }\n")
    out.append("    }\n}\n\n")
    out.append(f"@available(*, unavailable) extension {name}.View: Sendable {{}}\n")
    for oneof_name, type_name, members, _, _ in msg.oneofs:
        out.append(f"@available(*, unavailable) extension {name}.View.{type_name}: Sendable {{}}\n")
    return "".join(out)


VALIDATED_SIDES = (
    # (comment, type suffix, spelling of string, bytes, [T] given T's spelling)
    ("The owned model", "", "String", "[UInt8]", lambda t: f"[{t}]"),
    ("The message view", ".View", "StringView", "BytesView", lambda t: f"ViewList<{t}>"),
)


def gen_validated(ctx, messages):
    """The `Validated*` conformances of the owned types and of their views (IMWireValidation)."""
    validated = ctx.config.validated
    by_name = {m.name: m for m in messages}
    out = [ctx.head("validation"),
           "\n// What the validator reads of a message, for the owned model and for the view alike: the\n"
           "// conformances to the protocols of Validation/ValidatedValues.swift. Their description is\n"
           "// `Config.validated` of Scripts/gen_swift_model.py.\n"]
    for comment, suffix, string, bytes_, list_of in VALIDATED_SIDES:
        def spell(schema_type):
            if schema_type.startswith("["):
                return list_of(spell(schema_type[1:-1]))
            return {"string": string, "bytes": bytes_}.get(schema_type, schema_type + suffix)
        out.append(f"\n// MARK: - {comment}\n")
        for name, protocol in validated.conformances.items():
            members = []
            for alias, schema_type in validated.associated.get(name, {}).items():
                members.append(f"    typealias {alias} = {spell(schema_type)}\n")
            for (type_name, oneof_name), (prop, result, projections) in validated.oneofs.items():
                if type_name != name:
                    continue
                oneof = next(o for o in by_name[name].oneofs if o[0] == oneof_name)
                result = result.format(Message=spell("Message"), string=string)
                # Inlined into the rule that reads it, as a switch written there would be.
                lines = [f"    @inline(__always)\n    var {prop}: {result}? {{\n", f"        switch {escape(camel(oneof_name))} {{\n"]
                for m in oneof[2]:
                    projection = projections[m.name]
                    if not projection:
                        lines.append(f"        case .{m.swift}?: .{m.swift}\n")
                        continue
                    values = ", ".join((f"{label}: " if label else "") + ("v" if path is None else f"v.{path}")
                                       for label, path in projection)
                    lines.append(f"        case .{m.swift}(let v)?: .{m.swift}({values})\n")
                lines.append("        case nil: nil\n        }\n    }\n")
                if members:
                    members.append("\n")
                members += lines
            body = "{\n" + "".join(members) + "}" if members else "{}"
            out.append(f"\nextension {name}{suffix}: {protocol} {body}\n")
    return "".join(out)


def check_config(config, file, messages, enums):
    """Every name the config mentions must exist in the schema: a stale entry is a silent no-op."""
    proto_names = {m.name for m in file.message_type} | {e.name for e in file.enum_type}
    for name in config.type_renames:
        assert name in proto_names, f"type_renames: no type {name} in {config.proto}"
    values = {v.name for e in file.enum_type for v in e.value}
    for name in config.case_renames:
        assert name in values, f"case_renames: no enum value {name} in {config.proto}"
    oneof_members = {m.type_name for msg in messages for _, _, members, _, _ in msg.oneofs for m in members}
    for name in config.inline_oneof_messages:
        assert name in oneof_members, f"inline_oneof_messages: {name} is not a oneof member in {config.proto}"
    for type_name, names in config.cold_fields.items():
        fields = {f.name for msg in messages if msg.name == type_name for f in msg.fields}
        assert fields, f"cold_fields: no message {type_name} in {config.proto}"
        for name in names:
            assert name in fields, f"cold_fields: {type_name} has no field {name}"
    oneofs = {(msg.name, oneof[0]) for msg in messages for oneof in msg.oneofs}
    for key in config.oneof_kinds:
        assert key in oneofs, f"oneof_kinds: no oneof {key[1]} in message {key[0]} of {config.proto}"
    if config.validated:
        by_name = {m.name: m for m in messages}
        for name in list(config.validated.conformances) + list(config.validated.associated):
            assert name in by_name, f"validated: no message {name} in {config.proto}"
        for (type_name, oneof_name), (_, _, projections) in config.validated.oneofs.items():
            assert (type_name, oneof_name) in oneofs, f"validated: no oneof {oneof_name} in message {type_name}"
            members = {m.name: m for oneof in by_name[type_name].oneofs if oneof[0] == oneof_name for m in oneof[2]}
            assert set(projections) == set(members), \
                f"validated: {type_name}.{oneof_name} maps {sorted(projections)}, its members are {sorted(members)}"
            for member, projection in projections.items():
                fields = {f.swift for msg in messages if msg.name == members[member].type_name for f in msg.fields}
                for _, path in projection:
                    if path is not None:
                        head = path.split(".")[0].rstrip("?")
                        assert head in fields, f"validated: {type_name}.{oneof_name}.{member} has no field {head}"
    swift_names = [m.name for m in messages] + list(enums)
    swift_names += [kind.enum for kind in config.oneof_kinds.values()]
    assert len(set(swift_names)) == len(swift_names), f"two generated types share a name: {sorted(swift_names)}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=ROOT)
    parser.add_argument("--target", choices=sorted(TARGETS), default="model")
    args = parser.parse_args()
    config = TARGETS[args.target]
    file = load_descriptor(config)
    ctx = Context(config, file.package)
    comments = comments_index(file)
    maps = {}
    for msg in file.message_type:
        assert not msg.enum_type, f"{msg.name}: nested enums are not supported; declare them at file level"
        for nested in msg.nested_type:
            assert nested.options.map_entry, \
                f"{msg.name}.{nested.name}: nested messages are not supported; declare them at file level"
            key, value = nested.field
            # The runtime has one map type, StringBytesMap.
            assert (key.type, value.type) == (FD.TYPE_STRING, FD.TYPE_BYTES), \
                f"{msg.name}.{nested.name}: only map<string, bytes> is supported"
            maps[f".{ctx.package}.{msg.name}.{nested.name}"] = True
    enums = {}
    for i, e in enumerate(file.enum_type):
        enum = Enum(ctx, e, comments.get((5, i), ""), lambda v, i=i: comments.get((5, i, 2, v), ""))
        enums[enum.name] = enum
    messages = [MessageType(ctx, m, [4, i], comments, maps) for i, m in enumerate(file.message_type)]
    check_config(config, file, messages, enums)
    mark_cycle_closing_fields(messages)
    mark_class_backed_types(messages, config)
    outputs = {}
    dirs = config.dirs
    for enum in enums.values():
        outputs[f"{dirs['model']}/{enum.name}.swift"] = gen_enum(ctx, enum)
        outputs[f"{dirs['schema']}/{enum.name}+Schema.swift"] = gen_enum_schema(ctx, enum)
    for type_index, msg in enumerate(messages):
        outputs[f"{dirs['model']}/{msg.name}.swift"] = gen_message(ctx, msg, enums)
        outputs[f"{dirs['schema']}/{msg.name}+Fields.swift"] = gen_fields(ctx, msg, type_index)
        outputs[f"{dirs['binary']}/{msg.name}+Binary.swift"] = gen_binary(ctx, msg)
        outputs[f"{dirs['json']}/{msg.name}+JSON.swift"] = gen_json(ctx, msg)
        outputs[f"{dirs['view']}/{msg.name}+View.swift"] = gen_view(ctx, msg)
        for oneof in msg.oneofs:
            if oneof[4]:
                outputs[f"{dirs['model']}/{oneof[4].enum}.swift"] = gen_oneof_kind(ctx, msg, oneof)
    outputs[f"{dirs['view']}/ArenaLayouts.swift"] = gen_arena_layouts(ctx, messages)
    outputs[f"{dirs['schema']}/Schemas.swift"] = gen_schema_file(ctx, messages)
    outputs[f"{dirs['json']}/JSONNames.swift"] = gen_json_names(ctx)
    outputs[f"{dirs['api']}/Conformances.swift"] = gen_api(ctx, messages)
    if config.validated:
        outputs[f"{dirs['validation']}/ValidatedConformances.swift"] = gen_validated(ctx, messages)
    # The output folders are the generator's alone: wipe them, so nothing the schema no longer
    # produces survives.
    for directory in sorted(set(dirs.values())):
        shutil.rmtree(os.path.join(args.out, directory), ignore_errors=True)
    for rel, text in sorted(outputs.items()):
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"wrote {len(outputs)} files")


if __name__ == "__main__":
    sys.exit(main())
