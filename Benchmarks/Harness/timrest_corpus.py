#!/usr/bin/env python3
"""timrest_corpus: the shuffled-key tim-rest corpora and the reference JSON digest (Scripts/bench).

    python3 Benchmarks/Harness/timrest_corpus.py --shuffle DIR NAME...   # NAME: chat, random, fixtures
    python3 Benchmarks/Harness/timrest_corpus.py --digest DIR CORPUS...  # CORPUS: timrest-chat, ...

`imwire-bench timrest-corpus` writes DIR/timrest-NAME.msgs, .json.msgs (proto3 JSON) and .timrest.msgs
(tim-rest), records of a 4-byte little-endian length and the bytes. --shuffle writes
timrest-NAME-shuffled with the same binary records and both JSON texts with the keys of every object in
another order: a shuffle seeded by the record's index (deterministic), then in tim-rest every
`MsgContent` before its `MsgType` and an object's `MsgBody` before every other key of it (the envelope
after the body), and an object whose order came out unchanged rotated by one. Values are written back
as they were read (strings unescaped and escaped again, numbers as Python reads them: the same values).

--digest prints, per corpus, the reference of the JSON-value digest every tim-rest peer's walk computes
over the corpus's tim-rest records (Docs/benchmarks.md, "The tim-rest corpora"):

    digest  tim-rest JSON (Python)  CORPUS  MESSAGES  SUM

J(object) = 1 + sum of (UTF-8 bytes of the key + J(value)); J(array) = 1 + sum of J(element);
J(string) = its UTF-8 byte count (unescaped); J(true) = 1, J(false) = J(null) = 0; J(number) = its value
modulo 2^64 when it is a whole number in [-2^63, 2^64), else the bit pattern of the double; summed over
the messages modulo 2^64. Key order does not change it: a corpus and its shuffled variant agree.
"""

import json
import random
import struct
import sys
from pathlib import Path

MASK = (1 << 64) - 1


def read_records(path):
    data = Path(path).read_bytes()
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack_from("<I", data, i)
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return out


def write_records(path, records):
    Path(path).write_bytes(b"".join(struct.pack("<I", len(r)) + r for r in records))


def load(text):
    # Objects as lists of pairs: the order is kept, and no key is lost.
    return json.loads(text.decode("utf-8"), object_pairs_hook=lambda pairs: ("object", pairs))


def dump(value):
    if isinstance(value, tuple) and value[0] == "object":
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dump(v) for k, v in value[1]) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def shuffled(value, rng, tim_rest):
    if isinstance(value, tuple) and value[0] == "object":
        pairs = [(k, shuffled(v, rng, tim_rest)) for k, v in value[1]]
        keys = [k for k, _ in pairs]
        order = pairs[:]
        rng.shuffle(order)
        if len(order) > 1 and [k for k, _ in order] == keys:
            order = order[1:] + order[:1]
        if tim_rest:
            new_keys = [k for k, _ in order]
            if "MsgType" in new_keys and "MsgContent" in new_keys and \
                    new_keys.index("MsgContent") > new_keys.index("MsgType"):
                a, b = new_keys.index("MsgType"), new_keys.index("MsgContent")
                order[a], order[b] = order[b], order[a]
            body = [p for p in order if p[0] == "MsgBody"]
            order = body + [p for p in order if p[0] != "MsgBody"]
        return ("object", order)
    if isinstance(value, list):
        return [shuffled(v, rng, tim_rest) for v in value]
    return value


def digest(value):
    if isinstance(value, tuple) and value[0] == "object":
        return (1 + sum(len(k.encode("utf-8")) + digest(v) for k, v in value[1])) & MASK
    if isinstance(value, list):
        return (1 + sum(digest(v) for v in value)) & MASK
    if isinstance(value, bool):
        return int(value)
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    if isinstance(value, int):
        return value & MASK
    if isinstance(value, float):
        if value == int(value) and -(1 << 63) <= value < (1 << 64):
            return int(value) & MASK
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    raise TypeError(f"not a JSON value: {value!r}")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("--shuffle", "--digest"):
        sys.exit(__doc__)
    mode, directory, names = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    for name in names:
        if mode == "--shuffle":
            base = directory / f"timrest-{name}"
            out = directory / f"timrest-{name}-shuffled"
            write_records(f"{out}.msgs", read_records(f"{base}.msgs"))
            for suffix, tim_rest in ((".json.msgs", False), (".timrest.msgs", True)):
                records = read_records(f"{base}{suffix}")
                write_records(f"{out}{suffix}", [
                    dump(shuffled(load(r), random.Random(i), tim_rest)).encode("utf-8") for i, r in enumerate(records)])
        else:
            records = read_records(directory / f"{name}.timrest.msgs")
            total = sum(digest(load(r)) for r in records) & MASK
            print(f"digest\ttim-rest JSON (Python)\t{name}\t{len(records)}\t{total}")


if __name__ == "__main__":
    main()
