#!/usr/bin/env python3
"""report: turns the harnesses' lines into Scripts/bench's tables and the performance targets.

    python3 Benchmarks/Harness/report.py --manifest Corpora/out/manifest.json [--markdown FILE]
                                         [--settings TEXT] [--command TEXT] RESULTS_FILE...

Every result line carries the interleaved round it was measured in (its last column; lines without one
count as round 1). Per corpus and operation, for IMWire and each peer (IMWire's eager model, swift-protobuf,
protobuf-c, upb, C++, C++ arena, memcpy):

- MB/s (10^6 bytes of the corpus in the operation's format, binary or JSON, per second): the median over
  the rounds of each round's figure (a round's figure is the best of its samples);
- IMWire/X: the median of the per-round ratios IMWire MB/s / X MB/s, each computed from the two figures
  of the same round, with the lowest and highest of those ratios: `0.93× (0.88–0.97)`; above 1 means
  IMWire is faster. Where a peer has no such operation, the ratio is to the operation that stands for it
  (PEER_OPS below): upb has decode only (its strings are made when read), the C and C++ runtimes encode
  their parsed objects, which are their values built in code too.

Then the routing view against a full decode, the walk digests (every implementation must read the same
fields: a digest that differs is an error), allocations per message (imwire-allocs' counting allocator),
the memory 100,000 decoded chat messages hold, the tim-rest table (TIMREST_* below) and the performance
targets with PASS or FAIL (TARGETS, TIMREST_TARGETS below). FAIL does not change the exit status (targets are goals); a byte-identity or digest
mismatch or a harness error does (exit 1). A `skip` line (a peer's known limit on the fixtures corpus)
is listed as a note.
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# The earlier designs, as the harnesses Benchmarks/Harness/eager.sh builds name themselves (by commit),
# and as the tables name them: by what they were.
EAGER = "IMWire eager model"  # commit 02d391d: stored properties, a decodeField per field, before the arena decoder
ARENA = "IMWire arena model"  # commit 660b0b4: every message a node of 64-bit words in one storage
RENAMED = {"IMWire 02d391d": EAGER, "IMWire 660b0b4": ARENA}
IMPLS = ("IMWire", EAGER, "swift-protobuf", "protobuf-c", "upb", "C++", "C++ arena", "memcpy")
PEERS = IMPLS[1:]
# The user's operations first, then decode only and encode of decoded values.
OPS = ("binary-decode-read", "binary-read", "binary-encode-built", "json-decode-read", "json-encode-built",
       "binary-view-read", "json-view-read", "binary-decode", "binary-encode", "json-decode", "json-encode")
OP_LABELS = {
    "binary-decode-read": "binary decode + read", "binary-read": "binary read again",
    "binary-view-read": "binary view + read (in place)", "json-view-read": "json view + read",
    "binary-encode-built": "binary encode (built)", "json-decode-read": "json decode + read",
    "json-encode-built": "json encode (built)", "binary-decode": "binary decode only",
    "binary-encode": "binary encode (decoded)", "json-decode": "json decode only", "json-encode": "json encode (decoded)",
}
CORPORA = ("chat", "random", "merger300", "text12k", "fixtures")
# What a peer runs for an IMWire operation it has no twin of.
PEER_OPS = {
    ("upb", "binary-decode-read"): "binary-decode",
    ("protobuf-c", "binary-encode-built"): "binary-encode",
    ("C++", "binary-encode-built"): "binary-encode",
    ("upb", "binary-encode-built"): "binary-encode",
    ("C++", "json-encode-built"): "json-encode",
    # The message view reads every field in place: against the decoders that leave their strings
    # in place too (upb, C++ with an arena: decode only) and the eager ones' decode + read.
    ("upb", "binary-view-read"): "binary-decode",
    ("C++ arena", "binary-view-read"): "binary-decode",
    ("C++", "binary-view-read"): "binary-decode",
    ("protobuf-c", "binary-view-read"): "binary-decode-read",
    ("swift-protobuf", "binary-view-read"): "binary-decode-read",
    (EAGER, "binary-view-read"): "binary-decode-read",
    ("memcpy", "binary-view-read"): "binary-decode",
    # The JSON view against every JSON decode + read (no peer has a JSON view).
    ("C++", "json-view-read"): "json-decode-read",
    ("swift-protobuf", "json-view-read"): "json-decode-read",
    (EAGER, "json-view-read"): "json-decode-read",
    ("memcpy", "json-view-read"): "json-decode",
    ("memcpy", "binary-decode-read"): "binary-decode",
    ("memcpy", "binary-encode-built"): "binary-encode",
    ("memcpy", "json-decode-read"): "json-decode",
    ("memcpy", "json-encode-built"): "json-encode",
}

BINARY_CORPORA = ("chat", "random", "merger300", "fixtures")
FLOOR = 0.9
# The targets on timings: (IMWire op, peer, peer op, corpora, at least). PASS needs the median of
# the per-round ratios (IMWire throughput ÷ the peer's) at or above the target and the lowest round at
# or above FLOOR × the target.
TARGETS = (
    ("binary-decode-read", "protobuf-c", "binary-decode-read", BINARY_CORPORA, 1.0),
    ("binary-decode-read", "C++ arena", "binary-decode-read", BINARY_CORPORA, 1.0),
    # protobuf-c neither validates UTF-8 nor builds a String for its 12 KiB (a malloc and a memcpy):
    # a quarter of its speed is validation plus one copy at memory speed.
    ("binary-decode-read", "protobuf-c", "binary-decode-read", ("text12k",), 0.25),
    ("binary-decode-read", "C++ arena", "binary-decode-read", ("text12k",), 1.0),
    ("binary-decode-read", EAGER, "binary-decode-read", CORPORA, 1.3),
    ("binary-encode-built", "C++", "binary-encode", CORPORA, 1.0),
    ("binary-encode-built", "protobuf-c", "binary-encode", CORPORA, 1.0),
    ("json-decode-read", "swift-protobuf", "json-decode", CORPORA, 5.0),
    ("json-decode-read", EAGER, "json-decode-read", CORPORA, 1.3),
    # The message view and a read of every field against upb's decode and C++ arena decode.
    ("binary-view-read", "upb", "binary-decode", CORPORA, 1.0),
    ("binary-view-read", "C++ arena", "binary-decode", CORPORA, 1.5),
)
# Allocations per viewed message at most (one: the thread's buffer growing for a large input;
# none for a corpus whose messages are under that buffer's first size, 32 KiB of words).
# Validating bytes through the view at least this many times as fast as decoding and validating.
VALIDATE_TARGET = 2.0
# The bar for validate through the view is the validate of a message decoded by the design before,
# the arena model (Benchmarks/Harness/eager.sh builds its harness). Validate of a message decoded by this library is shown beside it, without a target.
ISSUE34_BASE = ARENA
VIEW_ALLOCATION_TARGETS = {"chat": 0, "random": 0, "fixtures": 0, "merger300": 1, "text12k": 1}
# A second read of a decoded value: its time ÷ the time of the same read of values built in code, at most.
READ_AGAIN_TARGET = 1.2
# Allocations per decoded-and-read message at most: the eager model's, pinned.
ALLOCATION_TARGETS = {"chat": 12540 / 3000, "random": 23089 / 2000, "merger300": 454}
# Bytes held per decoded chat message and per first elem kept alone, at most: the eager model's.
MEMORY_TARGETS = {"message": 587, "elem": 259}
# tim-rest (Docs/benchmarks.md, "tim-rest against its peers"): the tim-rest corpora Scripts/bench makes
# from chat, random and fixtures (the messages tim-rest carries as they are), each also with its keys
# shuffled; the peers a server would pick instead, on the same records; the JSON-value digest every
# tim-rest peer's walk computes must equal the reference Benchmarks/Harness/timrest_corpus.py computes.
TIMREST_BASES = ("chat", "random", "fixtures")
TIMREST_CORPORA = tuple(c for b in TIMREST_BASES for c in (f"timrest-{b}", f"timrest-{b}-shuffled"))
TIMREST_REFERENCE = "tim-rest JSON (Python)"
FOUNDATION = "Foundation Codable"
SIMDJSON = "simdjson DOM"
# (IMWire op, peer, peer op, corpora, at least), judged as TARGETS are. IMWire's proto3 JSON rows time
# the same messages as its tim-rest rows, so their ratio is per message.
TIMREST_TARGETS = (
    ("tim-rest-decode-read", "IMWire", "json-decode-read", TIMREST_CORPORA, 1.0),
    ("tim-rest-decode-read", FOUNDATION, "tim-rest-decode-read", ("timrest-chat",), 10.0),
    ("tim-rest-decode-read", SIMDJSON, "tim-rest-decode-read", ("timrest-chat", "timrest-fixtures"), 0.25),
    ("tim-rest-decode-read", SIMDJSON, "tim-rest-decode-read", ("timrest-random",), 0.2),
    ("tim-rest-encode-built", "IMWire", "json-encode-built", ("timrest-chat", "timrest-random", "timrest-fixtures"), 1.0),
)
TIMREST_OP_LABELS = {
    ("IMWire", "tim-rest-decode-read"): "tim-rest decode + read", ("IMWire", "json-decode-read"): "proto3 JSON decode + read",
    ("IMWire", "tim-rest-encode-built"): "tim-rest encode (built)", ("IMWire", "json-encode-built"): "proto3 JSON encode (built)",
    (FOUNDATION, "tim-rest-decode-read"): "JSONDecoder + read", (SIMDJSON, "tim-rest-decode-read"): "parse + walk",
}
# A walk digest a peer is known to compute differently, and why.
KNOWN_DIGEST_DIFFERENCES = {
    ("protobuf-c", "fixtures"): "protobuf-c strings are NUL-terminated `char *`: strlen stops at the U+0000 "
                                "of unicode_nul (Sources/IMWireProtobufC/KNOWN_DIFFERENCES.md, (h))",
}


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return (out.stdout or out.stderr).strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine():
    cpu, cores = "unknown", os.cpu_count()
    try:
        info = Path("/proc/cpuinfo").read_text()
        m = re.search(r"^model name\s*:\s*(.+)$", info, re.M)
        cpu = m.group(1).strip() if m else cpu
        flags = re.search(r"^flags\s*:\s*(.+)$", info, re.M)
        if flags and "hypervisor" in flags.group(1).split():
            cpu += " (virtualised)"
    except OSError:
        pass
    mem = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, AttributeError):
        pass
    try:
        import google.protobuf
        from google.protobuf.internal import api_implementation
        py_pb = f"{google.protobuf.__version__} ({api_implementation.Type()})"
    except ImportError:
        py_pb = "not installed"
    commit = run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]) or "unknown"
    if run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"]):
        commit += " + local changes"
    return [
        ("machine", f"{cpu}, {cores} logical cores{mem}, {platform.system()} {platform.release()} {platform.machine()}"),
        ("swift", run(["swift", "--version"]).splitlines()[0] if run(["swift", "--version"]) else "not found"),
        ("cc", (run(["cc", "--version"]).splitlines() or ["not found"])[0] + " (-O2)"),
        ("libprotobuf-c", run(["pkg-config", "--modversion", "libprotobuf-c"]) or "not found"),
        ("c++", (run(["g++", "--version"]).splitlines() or ["not found"])[0] + " (-O2)"),
        ("libprotobuf", (run(["pkg-config", "--modversion", "protobuf"]) or "not found")
         + " (C++; generated code: Tests/Conformance/testees/cpp/generated)"),
        ("python", f"{platform.python_version()}, google.protobuf {py_pb}"),
        ("swift-protobuf", "1.39.0 (Benchmarks/Package.swift)"),
        ("IMWire", f"commit {commit}; {EAGER}: the library before the arena decoder (commit 02d391d); {ARENA}: "
                   f"the arena decoder's values (commit 660b0b4); both built by Benchmarks/Harness/eager.sh"),
        ("date", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
    ]


def fmt_mbs(v):
    if v is None:
        return "–"
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def fmt_x(r):
    """A ratio with the precision its size deserves."""
    if r < 0.1:
        return f"{r:.3f}"
    if r < 10:
        return f"{r:.2f}"
    return f"{r:.1f}" if r < 100 else f"{r:.0f}"


def fmt_target(x):
    """A target or floor as written: 1.0×, 5.0×, 0.25×, 0.225×."""
    return f"{x:.1f}×" if x == round(x, 1) else f"{x:g}×"


def fmt_spread(stats):
    """`median× (min–max)`, or the median alone for a single round."""
    if stats is None:
        return "–"
    med, lo, hi, n = stats
    if n == 1:
        return f"{fmt_x(med)}×"
    return f"{fmt_x(med)}× ({fmt_x(lo)}–{fmt_x(hi)})"


def summarise(values):
    """(median, min, max, count) of a list of numbers, or None."""
    if not values:
        return None
    return statistics.median(values), min(values), max(values), len(values)


def table(headers, rows, markdown, left=2):
    if markdown:
        lines = ["| " + " | ".join(headers) + " |",
                 "|" + "|".join("---" if i < left else "---:" for i in range(len(headers))) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


class Results:
    """Seconds per pass by (impl, corpus, op) and round, with the corpus size each line reports."""

    def __init__(self):
        self.seconds = {}  # (impl, corpus, op) -> {round: seconds per pass}
        self.size = {}  # (impl, corpus, op) -> (messages, bytes)

    def add(self, impl, corpus, op, messages, nbytes, seconds, rnd):
        per_round = self.seconds.setdefault((impl, corpus, op), {})
        per_round[rnd] = min(seconds, per_round.get(rnd, seconds))
        self.size[(impl, corpus, op)] = (messages, nbytes)

    def has(self, impl, corpus, op):
        return (impl, corpus, op) in self.seconds

    def rounds(self):
        return sorted({r for v in self.seconds.values() for r in v})

    def mbs(self, impl, corpus, op):
        """Median over rounds of MB/s."""
        per_round = self.seconds.get((impl, corpus, op))
        if not per_round:
            return None
        nbytes = self.size[(impl, corpus, op)][1]
        return statistics.median(nbytes / s / 1e6 for s in per_round.values())

    def ns_per_message(self, impl, corpus, op):
        per_round = self.seconds.get((impl, corpus, op))
        if not per_round:
            return None
        messages = self.size[(impl, corpus, op)][0]
        return statistics.median(s / messages * 1e9 for s in per_round.values())

    def ratio(self, a, b):
        """Per-round ratios time(b) / time(a) (= a's throughput / b's when both count the same bytes),
        over the rounds where both were measured, summarised."""
        ta, tb = self.seconds.get(a), self.seconds.get(b)
        if not ta or not tb:
            return None
        return summarise([tb[r] / ta[r] for r in ta if r in tb])


def peer_op(peer, op):
    return PEER_OPS.get((peer, op), op)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True, type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--settings", default="")
    ap.add_argument("--command", default="")
    ap.add_argument("results", nargs="+", type=Path)
    args = ap.parse_args()

    res, errors, verifies, skips = Results(), [], [], []
    digests, allocs, memory = {}, {}, {}
    timrest_counts = {}  # tim-rest corpus -> (messages kept, messages of the corpus it is made from)
    for path in args.results:
        for line in path.read_text().splitlines():
            f = line.split("\t")
            if len(f) > 1:  # the earlier designs by what they were, not by commit
                for old, new in RENAMED.items():
                    if f[1] == old or f[1].startswith(old + " "):
                        f[1] = new + f[1][len(old):]
            if f[0] == "result" and len(f) >= 9:
                rnd = int(f[9]) if len(f) >= 10 else 1
                res.add(f[1], f[2], f[3], int(f[4]), int(f[5]), float(f[6]), rnd)
            elif f[0] == "error" and len(f) >= 5:
                if f[1:5] not in errors:
                    errors.append(f[1:5])
            elif f[0] == "verify":
                verifies.append(f[1:])
            elif f[0] == "skip" and len(f) >= 5:
                if f[1:5] not in skips:
                    skips.append(f[1:5])
            elif f[0] == "digest" and len(f) >= 5:
                digests[(f[1], f[2])] = int(f[4])
            elif f[0] == "allocs" and len(f) >= 6:
                allocs[(f[1], f[2], f[3])] = float(f[5])
            elif f[0] == "memory" and len(f) >= 6:
                memory[(f[1], f[2], f[3])] = float(f[5])
            elif f[0] == "timrest-corpus" and len(f) >= 4:
                timrest_counts[f[1]] = (int(f[2]), int(f[3]))
    manifest = json.loads(args.manifest.read_text())["corpora"]
    rounds = res.rounds()

    corpora = [c for c in CORPORA if any(k[1] == c for k in res.seconds)]
    headers = ["corpus", "operation"] + [f"{impl} MB/s" for impl in IMPLS] + [f"IMWire/{p}" for p in PEERS]
    # The README's table (Markdown only): IMWire's MB/s and its ratio to each codec peer.
    summary_peers = ("protobuf-c", "C++ arena", "C++", "upb", "swift-protobuf", EAGER)
    summary_headers = ["corpus", "operation", "IMWire MB/s"] + [f"÷ {p}" for p in summary_peers]
    rows, summary_rows = [], []
    for corpus in corpora:
        for op in OPS:
            if not res.has("IMWire", corpus, op):
                continue
            label = [corpus, OP_LABELS[op]]
            ratios = {p: fmt_spread(res.ratio(("IMWire", corpus, op), (p, corpus, peer_op(p, op)))) for p in PEERS}
            rows.append(label + [fmt_mbs(res.mbs(impl, corpus, op if impl == "IMWire" else peer_op(impl, op)))
                                 for impl in IMPLS] + [ratios[p] for p in PEERS])
            summary_rows.append(label + [fmt_mbs(res.mbs("IMWire", corpus, op))] + [ratios[p] for p in summary_peers])

    route_headers = ["corpus", "messages", "decode + read ns/msg", "route ns/msg", "route MB/s",
                     "decode + read time / route time", "view route ns/msg", "view route time / route time"]
    route_rows = []
    for corpus in corpora:
        if not res.has("IMWire", corpus, "binary-route"):
            continue
        route_rows.append([corpus, f"{manifest[corpus]['messages']:,}",
                           fmt_mbs(res.ns_per_message("IMWire", corpus, "binary-decode-read")),
                           fmt_mbs(res.ns_per_message("IMWire", corpus, "binary-route")),
                           fmt_mbs(res.mbs("IMWire", corpus, "binary-route")),
                           fmt_spread(res.ratio(("IMWire", corpus, "binary-route"), ("IMWire", corpus, "binary-decode-read"))),
                           fmt_mbs(res.ns_per_message("IMWire", corpus, "binary-view-route"))
                           if res.has("IMWire", corpus, "binary-view-route") else "–",
                           fmt_spread(res.ratio(("IMWire", corpus, "binary-route"), ("IMWire", corpus, "binary-view-route")))])

    # Validate through the view against both decode + validate: the arena model's (the view's bar) and this
    # library's (no target: its validate reads stored values, and on text12k both paths
    # are mostly the one UTF-8 check).
    validate_headers = ["corpus", "view ns/msg", "decode + validate ns/msg", "arena model decode + validate ns/msg",
                        "view ÷ decode + validate (speed)", "view ÷ arena model's (speed)"]
    validate_rows = []
    for corpus in corpora:
        if not res.has("IMWire", corpus, "binary-validate-view"):
            continue

        def ns(impl, op):
            return fmt_mbs(res.ns_per_message(impl, corpus, op)) if res.has(impl, corpus, op) else "–"
        view_op = ("IMWire", corpus, "binary-validate-view")
        validate_rows.append([corpus, ns("IMWire", "binary-validate-view"), ns("IMWire", "binary-decode-validate"),
                              ns(ISSUE34_BASE, "binary-decode-validate"),
                              fmt_spread(res.ratio(view_op, ("IMWire", corpus, "binary-decode-validate"))),
                              fmt_spread(res.ratio(view_op, (ISSUE34_BASE, corpus, "binary-decode-validate")))])

    # Why the binary writer has a generated walk of its own (_writeBinary, back to front) beside traverse:
    # an encoder driven by traverse front to back sizes every message before it writes (as
    # swift-protobuf's does); that pass alone, against IMWire's whole encode.
    sizing_rows = []
    for corpus in corpora:
        if not (res.has("IMWire", corpus, "binary-size-traverse") and res.has("IMWire", corpus, "binary-encode")):
            continue
        sizing_rows.append([corpus, fmt_mbs(res.ns_per_message("IMWire", corpus, "binary-encode")),
                            fmt_mbs(res.ns_per_message("IMWire", corpus, "binary-size-traverse")),
                            fmt_spread(res.ratio(("IMWire", corpus, "binary-encode"), ("IMWire", corpus, "binary-size-traverse")))])

    # Would a view pay for JSON? A view saves what building the owned values costs,
    # which binary shows as decode + read less view + read; JSON's scanning (tokens, escapes, keys,
    # numbers) stays whatever the result is made of.
    json_view_headers = ["corpus", "binary decode + read ns/msg", "binary view + read ns/msg",
                         "owned values ns/msg", "JSON decode + read ns/msg", "owned ÷ JSON",
                         "JSON view + read ns/msg", "JSON view ÷ decode, + read (speed)",
                         "tim-rest decode + read ns/msg", "owned ÷ tim-rest"]
    json_view_rows = []
    for corpus in corpora:
        ops = ("binary-decode-read", "binary-view-read", "json-decode-read")
        if not all(res.has("IMWire", corpus, op) for op in ops):
            continue
        decode, view, json_ns = (res.ns_per_message("IMWire", corpus, op) for op in ops)
        owned = decode - view
        tim = res.ns_per_message("IMWire", corpus, "tim-rest-decode-read") if res.has("IMWire", corpus, "tim-rest-decode-read") else None
        has_json_view = res.has("IMWire", corpus, "json-view-read")
        json_view = res.ns_per_message("IMWire", corpus, "json-view-read") if has_json_view else None
        json_view_rows.append([corpus, fmt_mbs(decode), fmt_mbs(view), fmt_mbs(owned), fmt_mbs(json_ns),
                               f"{owned / json_ns:.0%}", "–" if json_view is None else fmt_mbs(json_view),
                               "–" if json_view is None else
                               fmt_spread(res.ratio(("IMWire", corpus, "json-view-read"), ("IMWire", corpus, "json-decode-read"))),
                               "–" if tim is None else fmt_mbs(tim),
                               "–" if tim is None else f"{owned / tim:.0%}"])

    # tim-rest: IMWire against its proto3 JSON on the same messages, and against the JSON peers on the
    # same records; speeds per message (time ratios within each round).
    timrest_headers = ["corpus", "messages", "tim-rest B/msg", "IMWire tim-rest decode + read MB/s", "ns/msg",
                       "proto3 JSON decode + read ns/msg", "decode: tim-rest ÷ proto3 JSON",
                       f"{FOUNDATION} MB/s", f"IMWire ÷ {FOUNDATION}", f"{SIMDJSON} + walk MB/s", f"IMWire ÷ {SIMDJSON}",
                       "tim-rest encode (built) ns/msg", "proto3 JSON encode (built) ns/msg",
                       "encode: tim-rest ÷ proto3 JSON"]
    timrest_rows = []
    for corpus in TIMREST_CORPORA:
        if not any(k[1] == corpus for k in res.seconds):
            continue

        def ns(impl, op):
            return fmt_mbs(res.ns_per_message(impl, corpus, op)) if res.has(impl, corpus, op) else "–"

        def mbs(impl, op):
            return fmt_mbs(res.mbs(impl, corpus, op)) if res.has(impl, corpus, op) else "–"

        def speed(a, b):
            return fmt_spread(res.ratio(a, b))
        decode = ("IMWire", corpus, "tim-rest-decode-read")
        encode = ("IMWire", corpus, "tim-rest-encode-built")
        size = res.size.get(decode) or res.size.get((FOUNDATION, corpus, "tim-rest-decode-read")) \
            or res.size.get((SIMDJSON, corpus, "tim-rest-decode-read"))
        base = corpus.removeprefix("timrest-").removesuffix("-shuffled")
        kept = timrest_counts.get(f"timrest-{base}")
        messages = f"{kept[0]:,} of {kept[1]:,}" if kept else (f"{size[0]:,}" if size else "–")
        timrest_rows.append([corpus, messages, f"{size[1] / size[0]:.0f}" if size else "–",
                             mbs("IMWire", "tim-rest-decode-read"), ns("IMWire", "tim-rest-decode-read"),
                             ns("IMWire", "json-decode-read"), speed(decode, ("IMWire", corpus, "json-decode-read")),
                             mbs(FOUNDATION, "tim-rest-decode-read"),
                             speed(decode, (FOUNDATION, corpus, "tim-rest-decode-read")),
                             mbs(SIMDJSON, "tim-rest-decode-read"),
                             speed(decode, (SIMDJSON, corpus, "tim-rest-decode-read")),
                             ns("IMWire", "tim-rest-encode-built"), ns("IMWire", "json-encode-built"),
                             speed(encode, ("IMWire", corpus, "json-encode-built"))])

    problems = []  # (text, detail)

    # Walk digests: every implementation's must be the same per corpus.
    digest_rows = []
    order = CORPORA + TIMREST_CORPORA
    digest_corpora = sorted({c for _, c in digests}, key=lambda c: (order.index(c) if c in order else len(order), c))
    digest_impls = sorted({i for i, _ in digests}, key=lambda i: (i.replace(" json", ""), i))
    for corpus in digest_corpora:
        reference = digests.get(("IMWire", corpus), digests.get((TIMREST_REFERENCE, corpus)))
        if corpus.endswith("-shuffled"):  # the same values, in another order: the same digest
            canonical = digests.get((TIMREST_REFERENCE, corpus.removesuffix("-shuffled")))
            if canonical is not None and reference is not None and canonical != reference:
                problems.append((f"DIGEST MISMATCH: {corpus}: {reference} against {canonical} of the corpus it "
                                 "shuffles", " (the shuffle changed a value)"))
        for impl in digest_impls:
            value = digests.get((impl, corpus))
            if value is None or reference is None:
                continue
            if value != reference:
                known = KNOWN_DIGEST_DIFFERENCES.get((impl.replace(" json", ""), corpus))
                if known:
                    problems.append((f"note (known peer difference): walk digest of {impl} on {corpus} is "
                                     f"{value - reference:+d} from IMWire's", f": {known}"))
                else:
                    problems.append((f"DIGEST MISMATCH: {impl} on {corpus}: {value} against the reference {reference}",
                                     " (a walker reads a field the others do not, or a decoder differs)"))
        digest_rows.append([corpus, (str(reference) if reference is not None else "–")
                            + (" (Python)" if ("IMWire", corpus) not in digests and reference is not None else ""),
                            str(sum(1 for i in digest_impls if digests.get((i, corpus)) == reference))
                            + f" of {sum(1 for i in digest_impls if (i, corpus) in digests)}"])

    alloc_rows = []
    for corpus in CORPORA:
        if not any(k[1] == corpus for k in allocs):
            continue

        def a(impl, op):
            v = allocs.get((impl, corpus, op))
            return "–" if v is None else f"{v:.2f}" if v < 100 else f"{v:.0f}"
        pinned = ALLOCATION_TARGETS.get(corpus)
        alloc_rows.append([corpus, a("IMWire", "binary-decode-read"), a(EAGER, "binary-decode-read"),
                           "–" if pinned is None else (f"{pinned:.2f}" if pinned < 100 else f"{pinned:.0f}"),
                           a("IMWire", "json-decode-read"), a(EAGER, "json-decode-read"),
                           a("IMWire", "binary-read"), a("IMWire", "binary-view-read"), a("IMWire", "json-view-read"),
                           a("IMWire", "binary-validate-view"), a("IMWire", "binary-route")])

    memory_rows = []
    for kept in ("message", "elem"):
        if not any(k[2] == kept for k in memory):
            continue
        cells = [kept]
        for impl in ("IMWire", EAGER, "swift-protobuf", "protobuf-c", "C++"):
            v = memory.get((impl, "chat", kept))
            cells.append("–" if v is None else f"{v:.0f}")
        memory_rows.append(cells)

    # Targets: (target, corpus, measured, verdict)
    target_rows = []

    def verdict(ok):
        return "–" if ok is None else ("PASS" if ok else "FAIL")

    def op_text(op):
        return OP_LABELS[op]

    for op, peer, op_of_peer, target_corpora, target in TARGETS:
        for corpus in target_corpora:
            st = res.ratio(("IMWire", corpus, op), (peer, corpus, op_of_peer))
            ok = None if st is None else (st[0] >= target and st[1] >= FLOOR * target)
            peer_text = peer if op_of_peer == op else f"{peer} {op_text(op_of_peer)}"
            target_rows.append([f"{op_text(op)} IMWire ÷ {peer_text} ≥ {fmt_target(target)} "
                                f"(min ≥ {fmt_target(FLOOR * target)})",
                                corpus, "not measured" if st is None else fmt_spread(st), verdict(ok)])
    for corpus in CORPORA:
        # time(read of decoded) / time(read of built): at most the target, the worst round at most target / FLOOR.
        st = res.ratio(("IMWire", corpus, "built-read"), ("IMWire", corpus, "binary-read"))
        ok = None if st is None else (st[0] <= READ_AGAIN_TARGET and st[2] <= READ_AGAIN_TARGET / FLOOR)
        target_rows.append([f"read again: time of a decoded value's read ÷ a built value's ≤ {READ_AGAIN_TARGET}× "
                            f"(max ≤ {READ_AGAIN_TARGET / FLOOR:.2f}×)", corpus,
                            "not measured" if st is None else fmt_spread(st), verdict(ok)])
    for corpus, pinned in ALLOCATION_TARGETS.items():
        v = allocs.get(("IMWire", corpus, "binary-decode-read"))
        target_rows.append([f"allocations per decoded-and-read message ≤ the eager model's ({pinned:.2f})" if pinned < 100
                            else f"allocations per decoded-and-read message ≤ the eager model's ({pinned:.0f})", corpus,
                            "not measured" if v is None else f"{v:.2f}", verdict(None if v is None else v <= pinned)])
    for corpus in CORPORA:
        v = allocs.get(("IMWire", corpus, "binary-route"))
        if v is not None:
            target_rows.append(["routing view allocations per message = 0", corpus, f"{v:.2f}", verdict(v == 0)])
    for corpus in CORPORA:
        # Validate --profile tencent on bytes through the view against 660b0b4's decode + validate.
        st = res.ratio(("IMWire", corpus, "binary-validate-view"), (ISSUE34_BASE, corpus, "binary-decode-validate"))
        if st is not None:
            target_rows.append([f"validate (tencent) of bytes through the view ÷ the arena model's decode + validate "
                                f"≥ {fmt_target(VALIDATE_TARGET)} (min ≥ {fmt_target(FLOOR * VALIDATE_TARGET)})",
                                corpus, fmt_spread(st),
                                verdict(st[0] >= VALIDATE_TARGET and st[1] >= FLOOR * VALIDATE_TARGET)])
    for corpus, bound in VIEW_ALLOCATION_TARGETS.items():
        v = allocs.get(("IMWire", corpus, "binary-view-read"))
        if v is not None:
            target_rows.append([f"message view + read allocations per message ≤ {bound}", corpus, f"{v:.2f}",
                                verdict(v <= bound)])
    for kept, bound in MEMORY_TARGETS.items():
        v = memory.get(("IMWire", "chat", kept))
        target_rows.append([f"bytes held per decoded chat {kept} ≤ the eager model's ({bound})", "chat",
                            "not measured" if v is None else f"{v:.0f}", verdict(None if v is None else v <= bound)])
        peer = memory.get(("swift-protobuf", "chat", kept))
        if kept == "message":
            target_rows.append(["bytes held per decoded chat message ≤ swift-protobuf's", "chat",
                                "not measured" if v is None or peer is None else f"{v:.0f} against {peer:.0f}",
                                verdict(None if v is None or peer is None else v <= peer)])
    for op, peer, op_of_peer, target_corpora, target in TIMREST_TARGETS:
        for corpus in target_corpora:
            st = res.ratio(("IMWire", corpus, op), (peer, corpus, op_of_peer))
            ok = None if st is None else (st[0] >= target and st[1] >= FLOOR * target)
            peer_text = TIMREST_OP_LABELS[(peer, op_of_peer)] if peer == "IMWire" else \
                f"{peer} {TIMREST_OP_LABELS[(peer, op_of_peer)]}"
            target_rows.append([f"{TIMREST_OP_LABELS[('IMWire', op)]} IMWire ÷ {peer_text} ≥ {fmt_target(target)} "
                                f"(min ≥ {fmt_target(FLOOR * target)})",
                                corpus, "not measured" if st is None else fmt_spread(st), verdict(ok)])
    # A target on a corpus or operation this run left out (--corpus) is not listed, only counted.
    unmeasured = sum(r[3] == "–" for r in target_rows)
    target_rows = [r for r in target_rows if r[3] != "–"]
    passed = sum(r[3] == "PASS" for r in target_rows)

    corpus_rows = []
    for corpus in corpora:
        c = manifest[corpus]
        corpus_rows.append([corpus, f"{c['messages']:,}", f"{c['binary_bytes']:,} B ({c['binary_bytes_per_message']:g} B/msg)",
                            f"{c['json_bytes']:,} B", c["binary_sha256"][:12]])

    for corpus, check, checked, mismatches, informational, first in verifies:
        if int(mismatches):
            kind = "note (known peer difference)" if informational == "1" else "MISMATCH"
            problems.append((f"{kind}: {corpus}: {check}: {mismatches} of {checked} differ", f"; first: {first}"))
    for impl, corpus, op, message in errors:
        problems.append((f"ERROR: {impl} {corpus} {op}: {message}", ""))
    for impl, corpus, op, message in skips:
        problems.append((f"note (not timed, a known peer limit): {impl} {corpus} {op}", f": {message}"))
    checks = sum(1 for v in verifies if v[4] == "1" or int(v[3]) == 0)

    info = machine()
    if args.settings:
        info.append(("settings", args.settings))
    info.append(("rounds measured", str(len(rounds))))
    if args.command:
        info.append(("command", args.command))

    def render(markdown):
        out = []
        if markdown:
            out.append("Machine and versions:\n")
            out += [f"- {k}: `{v}`" if k == "command" else f"- {k}: {v}" for k, v in info]
        else:
            out += [f"{k:15} {v}" for k, v in info]
        out.append("")
        if markdown:
            out.append("IMWire's throughput ÷ each peer's (the median of the per-round ratios, the lowest and "
                       "highest round in brackets; above 1 = IMWire faster; – = not measured). A peer's decode + "
                       "read reads every field with the same walk; upb's column compares with its decode only "
                       "(its strings are made when read); the C and C++ runtimes' encode of their parsed "
                       "objects stands for their encode of built values:")
            out.append("")
            out.append(table(summary_headers, summary_rows, markdown))
            out.append("")
        out.append(table(["corpus", "messages", "binary", "JSON", "binary sha256"], corpus_rows, markdown))
        out.append("")
        out.append(table(headers, rows, markdown))
        out.append("")
        out.append("MB/s = 10^6 bytes of the corpus in the operation's format per second, the median over the "
                   "rounds; IMWire/X = the median over the rounds of IMWire MB/s ÷ X MB/s within the round "
                   "(> 1: IMWire is faster), in brackets the lowest and highest round; – = not measured. "
                   "Where a peer lacks the operation its stand-in is timed: upb decode only for decode + "
                   "read, the C and C++ runtimes' encode of parsed objects for encode of built values, memcpy "
                   "of the records for every operation.")
        def section(caption, headers, section_rows):
            """A captioned table, left out when it has no rows."""
            if section_rows:
                out.extend(["", caption, "", table(headers, section_rows, markdown, left=1)])

        section("Routing view (`Message.withRoutingView`: msg id, sender, target, timestamp, seq and every "
                "elem kind read) against a full decode and read, both by IMWire in the same rounds:",
                route_headers, route_rows)
        section("The binary encoder's own walk: IMWire's encode (one back-to-front pass through the generated "
                "_writeBinary) against the sizing pass alone that an encoder driven front to back by the generated "
                "traverse makes before it writes (BinarySizeVisitor), per message:",
                ["corpus", "encode ns/msg", "sizing pass ns/msg", "sizing pass ÷ encode (time)"], sizing_rows)
        section("Validate (tencent) of binary input through the message view, against decoding and validating "
                "the message, in this library and in the arena model (the validate the view was built to beat), in "
                "the same rounds:",
                validate_headers, validate_rows)
        section("Does a message view pay for JSON? At most what building the owned values costs, which "
                "binary shows as decode + read less view + read (per message, medians); the scanning of "
                "JSON text stays. Then what the JSON view gives, timed in the same rounds. tim-rest: each "
                "message tim-rest can carry, from the same corpus:",
                json_view_headers, json_view_rows)
        section("tim-rest (Tencent Cloud IM REST JSON) against proto3 JSON and the JSON peers a server would pick, "
                "per tim-rest corpus: the messages of chat, random and fixtures tim-rest carries as they are "
                "(timestamps in whole seconds), and the same records with every object's keys shuffled. "
                "IMWire's proto3 JSON rows time the same messages, so their ratios are per message (above 1: "
                "tim-rest faster); the peers read the same records: Foundation's JSONDecoder into Codable "
                "structs of Tencent's keys, every property read; simdjson's DOM parser and a walk over every "
                "value (the limit of JSON reading). Medians over rounds; ratios per round, median (min–max):",
                timrest_headers, timrest_rows)
        section("Walk digests (Docs/benchmarks.md, \"The walk\"): the sum over a corpus of what the walk "
                "reads, the same for every implementation and input format:",
                ["corpus", "reference digest (IMWire's; tim-rest: Python's)", "implementations that agree"], digest_rows)
        if alloc_rows:
            out.append("")
            out.append("Allocations per message (imwire-allocs' counting allocator; exact, not timed):")
            out.append("")
            out.append(table(["corpus", "IMWire decode + read", f"{EAGER} decode + read", "pinned (the eager model's)",
                              "IMWire JSON decode + read", f"{EAGER} JSON decode + read", "IMWire read again", "IMWire view + read", "IMWire JSON view + read", "IMWire validate (view)",
                              "IMWire routing view"], alloc_rows, markdown, left=1))
        if memory_rows:
            out.append("")
            out.append("Heap held by 100,000 decoded chat messages kept in an array, bytes per message (glibc "
                       "mallinfo2; the slot that holds each counted); `elem`: only the first elem of each kept:")
            out.append("")
            out.append(table(["kept", "IMWire", EAGER, "swift-protobuf", "protobuf-c", "C++"], memory_rows,
                             markdown, left=1))
        out.append("")
        out.append(f"Targets: {passed} of {len(target_rows)} met"
                   + (f" ({unmeasured} more not measured in this run)" if unmeasured else "") + ":")
        out.append("")
        out.append(table(["target", "corpus", "measured: median (min–max over rounds)", "verdict"], target_rows,
                         markdown, left=4))
        out.append("")
        out.append(f"Byte-identity checks: {len(verifies)} run, {len(verifies) - checks} with unexpected mismatches.")
        for text, detail in problems:  # Markdown (for the README) leaves out the hex dumps
            out.append("- " + text if markdown else "  " + text + detail)
        return "\n".join(out) + "\n"

    sys.stdout.write(render(False))
    if args.markdown:
        args.markdown.write_text(render(True))
        print(f"(Markdown written to {args.markdown})")
    return 1 if any(text.startswith(("MISMATCH", "ERROR", "DIGEST MISMATCH")) for text, _ in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
