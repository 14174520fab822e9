#!/usr/bin/env python3
"""report: turns the harnesses' result/error/verify lines into Scripts/bench's table.

    python3 Benchmarks/Harness/report.py --manifest Corpora/out/manifest.json [--markdown FILE]
                                         [--settings TEXT] RESULTS_FILE...

Rows are corpus x operation; per implementation the columns are MB/s (10^6 bytes of the corpus in the
operation's format, binary or JSON, per second) and messages/s; then IMWire's ratio to each peer and to
the memcpy baseline (IMWire MB/s / peer MB/s: above 1 means IMWire is faster).
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
IMPLS = ("IMWire", "swift-protobuf", "protobuf-c", "upb", "memcpy")
PEERS = ("swift-protobuf", "protobuf-c", "upb", "memcpy")
OPS = ("binary-decode", "binary-encode", "json-decode", "json-encode")
CORPORA = ("chat", "random", "merger300", "text12k", "fixtures")


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
        ("python", f"{platform.python_version()}, google.protobuf {py_pb}"),
        ("swift-protobuf", "1.39.0 (Benchmarks/Package.swift)"),
        ("IMWire", f"commit {commit}"),
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


def fmt_rate(v):
    if v is None:
        return "–"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if v >= div:
            x = v / div
            return f"{x:.3g}{unit}" if x < 100 else f"{x:.0f}{unit}"
    return f"{v:.3g}"


def fmt_ratio(a, b):
    if a is None or b is None or b == 0:
        return "–"
    r = a / b
    if r < 0.1:
        return f"{r:.3f}×"
    return f"{r:.2f}×" if r < 10 else f"{r:.1f}×"


def table(headers, rows, markdown):
    if markdown:
        lines = ["| " + " | ".join(headers) + " |",
                 "|" + "|".join("---" if i < 2 else "---:" for i in range(len(headers))) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    def line(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True, type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--settings", default="")
    ap.add_argument("results", nargs="+", type=Path)
    args = ap.parse_args()

    results, errors, verifies = {}, [], []
    for path in args.results:
        for line in path.read_text().splitlines():
            f = line.split("\t")
            if f[0] == "result" and len(f) >= 9:
                impl, corpus, op = f[1], f[2], f[3]
                msgs, nbytes, secs = int(f[4]), int(f[5]), float(f[6])
                results[(impl, corpus, op)] = (nbytes / secs / 1e6, msgs / secs)
            elif f[0] == "error":
                errors.append(f[1:])
            elif f[0] == "verify":
                verifies.append(f[1:])
    manifest = json.loads(args.manifest.read_text())["corpora"]

    corpora = [c for c in CORPORA if any(k[1] == c for k in results)]
    headers = ["corpus", "operation"]
    for impl in IMPLS:
        headers += [f"{impl} MB/s", f"{impl} msg/s"]
    headers += [f"IMWire/{p}" for p in PEERS]
    rows = []
    for corpus in corpora:
        for op in OPS:
            cells = {impl: results.get((impl, corpus, op)) for impl in IMPLS}
            if not any(cells.values()):
                continue
            row = [corpus, op.replace("-", " ")]
            for impl in IMPLS:
                v = cells[impl]
                row += [fmt_mbs(v[0] if v else None), fmt_rate(v[1] if v else None)]
            mine = cells["IMWire"][0] if cells["IMWire"] else None
            row += [fmt_ratio(mine, cells[p][0] if cells[p] else None) for p in PEERS]
            rows.append(row)

    corpus_rows = []
    for corpus in corpora:
        c = manifest[corpus]
        corpus_rows.append([corpus, f"{c['messages']:,}", f"{c['binary_bytes']:,} B ({c['binary_bytes_per_message']:g} B/msg)",
                            f"{c['json_bytes']:,} B", c["binary_sha256"][:12]])

    problems = []  # (text, detail)
    for corpus, check, checked, mismatches, informational, first in verifies:
        if int(mismatches):
            kind = "note (known peer difference)" if informational == "1" else "MISMATCH"
            problems.append((f"{kind}: {corpus}: {check}: {mismatches} of {checked} differ", f"; first: {first}"))
    for impl, corpus, op, message in errors:
        problems.append((f"ERROR: {impl} {corpus} {op}: {message}", ""))
    checks = sum(1 for v in verifies if v[4] == "1" or int(v[3]) == 0)

    info = machine()

    def render(markdown):
        out = []
        if markdown:
            out.append("Machine and versions:\n")
            out += [f"- {k}: {v}" for k, v in info] + ([f"- settings: {args.settings}"] if args.settings else [])
            out.append("")
        else:
            out += [f"{k:15} {v}" for k, v in info] + ([f"{'settings':15} {args.settings}"] if args.settings else [])
            out.append("")
        out.append(table(["corpus", "messages", "binary", "JSON", "binary sha256"], corpus_rows, markdown))
        out.append("")
        out.append(table(headers, rows, markdown))
        out.append("")
        out.append("MB/s = 10^6 bytes of the corpus in the operation's format per second (best of the samples); "
                   "IMWire/X = IMWire MB/s ÷ X MB/s (> 1: IMWire is faster); – = not measured.")
        out.append("")
        out.append(f"Byte-identity checks: {len(verifies)} run, {len(verifies) - checks} with unexpected mismatches.")
        for text, detail in problems:  # Markdown (for the README) leaves out the hex dumps
            out.append("- " + text if markdown else "  " + text + detail)
        return "\n".join(out) + "\n"

    sys.stdout.write(render(False))
    if args.markdown:
        args.markdown.write_text(render(True))
        print(f"(Markdown written to {args.markdown})")
    return 1 if any(text.startswith(("MISMATCH", "ERROR")) for text, _ in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
