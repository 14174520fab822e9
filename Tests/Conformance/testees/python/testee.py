#!/usr/bin/env python3
"""IMWire conformance testee on Google's Python protobuf runtime (google.protobuf, upb backend).

Speaks the conformance protocol (Schemas/imwire/conformance/v1/conformance.proto, Docs/conformance.md) on
stdin/stdout: 4-byte little-endian length, then a ConformanceRequest; one framed ConformanceResponse
per request; exit 0 at end of input. Binary and proto3 JSON (json_format) input and output; validation
and tim-rest are answered `skipped` (google.protobuf has neither).

Nothing is generated ahead of time: at start-up it compiles Schemas/imwire/v1/message.proto and the
conformance schema with protoc into a descriptor set and builds the message classes from it, so it
always tests the schema in the working tree.

    imwire conformance --testee 'python3 Tests/Conformance/testees/python/testee.py' \\
        --expected-failures Tests/Conformance/expected-failures/python.txt

Needs python3 with `protobuf` (Scripts/requirements.txt) and protoc on PATH (or $PROTOC).
Parse errors start with `unclassified:` — upb says only "Error parsing message", never which of the
IMWire error codes applies (the Recommended ParseErrorCode tests are its expected failures).
"""
import os
import struct
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message, message_factory

# The repository root: this file is Tests/Conformance/testees/python/testee.py.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
SCHEMAS = os.path.join(ROOT, "Schemas")
PROTOS = ["imwire/v1/message.proto", "imwire/conformance/v1/conformance.proto"]

# WireFormat values (conformance.proto).
BINARY, JSON, TIM_REST = 1, 2, 3


def load_classes():
    """Compiles the schemas with protoc and returns (Message, ConformanceRequest, ConformanceResponse)."""
    protoc = os.environ.get("PROTOC", "protoc")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "schemas.pb")
        subprocess.run([protoc, "--include_imports", f"--descriptor_set_out={out}", "-I", SCHEMAS, *PROTOS],
                       check=True)
        with open(out, "rb") as f:
            files = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)

    def get(name):
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))

    return (get("imwire.v1.Message"), get("imwire.conformance.v1.ConformanceRequest"),
            get("imwire.conformance.v1.ConformanceResponse"))


Message, ConformanceRequest, ConformanceResponse = load_classes()

# The contract admits 100 merger layers, 301 message levels.
JSON_RECURSION_LIMIT = 320


def handle(request):
    """Answers one ConformanceRequest."""
    response = ConformanceResponse()
    which = request.WhichOneof("payload")
    if which == "tim_rest_payload" or request.requested_output_format == TIM_REST:
        response.skipped = "google.protobuf has no tim-rest dialect"
        return response
    if request.validation_profile:
        response.skipped = "google.protobuf has no IMWire validation profiles"
        return response

    msg = Message()
    try:
        if which == "binary_payload":
            msg.ParseFromString(request.binary_payload)
        elif which == "json_payload":
            # json_format's nesting limit (100 by default), raised like every limit the runtime
            # exposes (Docs/conformance.md, "Plain use"); upb's binary limit is not reachable from Python.
            json_format.Parse(request.json_payload.decode("utf-8"), msg,
                              ignore_unknown_fields=request.json_ignore_unknown_fields,
                              max_recursion_depth=JSON_RECURSION_LIMIT)
        else:
            response.runtime_error = "the request has no payload"
            return response
    except (message.DecodeError, json_format.ParseError, UnicodeDecodeError, RecursionError, ValueError) as error:
        response.parse_error = f"unclassified: {type(error).__name__}: {error}"
        return response

    try:
        if request.requested_output_format == BINARY:
            response.binary_payload = msg.SerializeToString(deterministic=True)
        elif request.requested_output_format == JSON:
            response.json_payload = json_format.MessageToJson(msg, indent=None, ensure_ascii=False).encode("utf-8")
        else:
            response.runtime_error = f"unsupported requested_output_format {request.requested_output_format}"
    except (message.EncodeError, ValueError, RecursionError) as error:
        response.serialize_error = f"unclassified: {type(error).__name__}: {error}"
    return response


def read_exactly(stream, count):
    data = stream.read(count)
    return data if data is not None else b""


def serve(stdin, stdout, handler=handle):
    """The protocol loop: until end of input, read a framed request and write a framed response."""
    while True:
        prefix = read_exactly(stdin, 4)
        if not prefix:
            return 0
        if len(prefix) < 4:
            print("testee_python: end of input inside a length prefix", file=sys.stderr)
            return 1
        (length,) = struct.unpack("<I", prefix)
        frame = read_exactly(stdin, length)
        if len(frame) < length:
            print("testee_python: end of input inside a request frame", file=sys.stderr)
            return 1
        request = ConformanceRequest()
        try:
            request.ParseFromString(frame)
        except message.DecodeError as error:
            response = ConformanceResponse(runtime_error=f"the request frame is not a ConformanceRequest: {error}")
        else:
            try:
                response = handler(request)
            except Exception as error:  # a bug here must not end the session: report it and go on
                response = ConformanceResponse(runtime_error=f"testee_python: {type(error).__name__}: {error}")
        body = response.SerializeToString()
        stdout.write(struct.pack("<I", len(body)) + body)
        stdout.flush()


if __name__ == "__main__":
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer))
