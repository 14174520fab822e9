#!/usr/bin/env python3
"""upb_bench: the Python google.protobuf (upb backend) side of Scripts/bench.

    python3 Benchmarks/Harness/upb_bench.py [--op OP]... [--sample-time S] [--samples N] [--round R]
                                            [--descriptor-set FILE] [--verify] DIR CORPUS...

binary-decode = Message.FromString(bytes) (a new message per record, dropped), binary-encode =
SerializeToString() on messages parsed untimed; --op picks and orders them (other operations are
skipped). The loop is plain Python, so its per-message overhead (tens of ns) is part of the figure, as
it is for any Python caller. Output lines are those of imwire-bench (see its --help); result lines end
in ROUND (--round, default 1). The schema is compiled at run time with protoc (or $PROTOC), or read
from --descriptor-set FILE (a FileDescriptorSet with imports; Scripts/bench writes one, so that each of
its many short runs does not start protoc).
"""

import argparse
import gc
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import api_implementation

ROOT = Path(__file__).resolve().parent.parent.parent


def compile_schema(out):
    protoc = os.environ.get("PROTOC", "protoc")
    schemas = ROOT / "Schemas"
    subprocess.run([protoc, "--include_imports", f"--descriptor_set_out={out}", "-I", str(schemas),
                    str(schemas / "imwire/v1/message.proto")], check=True)


def load_message_class(descriptor_set=None):
    if descriptor_set:
        fds = descriptor_pb2.FileDescriptorSet.FromString(Path(descriptor_set).read_bytes())
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "imwire.pb"
            compile_schema(out)
            fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("imwire.v1.Message"))


def read_records(path):
    data = Path(path).read_bytes()
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack_from("<I", data, i)
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return out


def measure(fn, sample_time, samples):
    """Same method as imwire-bench: warm-up, calibrate passes per sample, best of `samples`.
    The cyclic garbage collector is off while timing, as in timeit (no cycles are made here)."""
    now = time.perf_counter  # monotonic
    gc.disable()
    try:
        return _measure(fn, sample_time, samples, now)
    finally:
        gc.enable()


def _measure(fn, sample_time, samples, now):
    fn()
    passes = 1
    while True:
        t0 = now()
        for _ in range(passes):
            fn()
        elapsed = now() - t0
        if elapsed >= sample_time / 2:
            passes = max(1, int(passes * sample_time / elapsed + 0.999))
            break
        factor = min(100.0, max(2.0, sample_time / elapsed)) if elapsed > 0 else 100.0
        passes = int(passes * factor + 0.999)
    best = float("inf")
    for _ in range(samples):
        t0 = now()
        for _ in range(passes):
            fn()
        elapsed = now() - t0
        best = min(best, elapsed / passes)
        if elapsed < sample_time / 2:  # calibrated on an outlier: keep the samples long enough
            passes *= 2
    return best, passes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample-time", type=float, default=0.2)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--round", type=int, default=1)
    ap.add_argument("--op", action="append", default=[])
    ap.add_argument("--descriptor-set")
    ap.add_argument("--write-descriptor-set", metavar="FILE", help="compile the schema to FILE and exit")
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("dir", nargs="?")
    ap.add_argument("corpora", nargs="*")
    args = ap.parse_args()
    if args.write_descriptor_set:
        compile_schema(args.write_descriptor_set)
        return
    if not args.dir or not args.corpora:
        ap.error("DIR and CORPUS are required")
    if api_implementation.Type() != "upb":
        print(f"upb_bench: warning: google.protobuf backend is {api_implementation.Type()}, not upb", file=sys.stderr)
    Message = load_message_class(args.descriptor_set)
    from_string = Message.FromString

    for corpus in args.corpora:
        records = read_records(f"{args.dir}/{corpus}.msgs")
        nbytes = sum(map(len, records))
        if args.verify:
            mismatches, first = 0, "-"
            for i, r in enumerate(records):
                out = from_string(r).SerializeToString(deterministic=True)
                if out != r:
                    mismatches += 1
                    if first == "-":
                        first = f"message {i}: expected {len(r)} B {r[:64].hex()}, got {len(out)} B {out[:64].hex()}"
            # Fixtures: upb orders a map key before its own prefix; the fixtures sort by bytes.
            print(f"verify\t{corpus}\tupb parse+serialize (deterministic) = corpus binary\t{len(records)}\t"
                  f"{mismatches}\t{int(corpus == 'fixtures')}\t{first}")
            continue

        def decode():
            for r in records:
                from_string(r)

        messages = []

        def encode():
            for m in messages:
                m.SerializeToString()

        passes_of = {"binary-decode": decode, "binary-encode": encode}
        for op in args.op or passes_of:
            fn = passes_of.get(op)
            if fn is None:
                continue  # no JSON here
            if fn is encode and not messages:
                messages = [from_string(r) for r in records]
            seconds, passes = measure(fn, args.sample_time, args.samples)
            print(f"result\tupb\t{corpus}\t{op}\t{len(records)}\t{nbytes}\t{seconds:.9g}\t{passes}\t{args.samples}"
                  f"\t{args.round}", flush=True)


if __name__ == "__main__":
    main()
