#!/usr/bin/env python3
"""chart: the README's picture of the speed, and its short table, from one run of Scripts/bench.

    python3 Benchmarks/Harness/chart.py RESULTS [--svg FILE] [--table FILE] [--readme FILE]
    python3 Benchmarks/Harness/chart.py RESULTS --check      (exit 1 unless the committed files are these)

RESULTS is a results file of Scripts/bench (Docs/benchmarks/results.tsv keeps the one the README shows).
For each headline operation (HEADLINE below) and each of its peers, the ratio is the median over rounds
of the per-round ratio peer time ÷ IMWire time (above 1: IMWire is faster), as Benchmarks/Harness/report.py
computes it. The strongest peer of an operation is the one with the lowest median ratio over the corpora;
the table gives IMWire's range across the corpora against it. The chart puts every peer's ratio on every
corpus on one log scale, 1× marked. Code size, where the results hold it (`size` lines of Scripts/size),
is a row of the table.

Nothing here measures: the same RESULTS give the same bytes, which `--check` (run by the documentation
tests) compares with the committed chart, table and README section.
"""

import argparse
import importlib.util
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location("report", Path(__file__).with_name("report.py"))
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)

DOCS = ROOT / "Docs" / "benchmarks"
SVG = DOCS / "chart.svg"
TABLE = DOCS / "summary.md"
README = ROOT / "README.md"
BEGIN, END = "<!-- bench summary: Benchmarks/Harness/chart.py writes this table -->", "<!-- end of bench summary -->"

# (label, IMWire's operation, the implementations it is compared with). A peer runs its own twin of
# the operation, or the one report.PEER_OPS names for it. Not peers: IMWire's own earlier designs, and
# memcpy, which is a floor, not a codec.
HEADLINE = (
    ("binary decode + read", "binary-decode-read", ("protobuf-c", "C++ arena", "C++", "upb", "swift-protobuf")),
    ("view + read, in place", "binary-view-read", ("upb", "C++ arena", "C++", "protobuf-c", "swift-protobuf")),
    ("encode of values built in code", "binary-encode-built", ("protobuf-c", "C++", "upb", "swift-protobuf")),
    ("proto3 JSON decode + read", "json-decode-read", ("C++", "swift-protobuf")),
    ("tim-rest decode + read", "tim-rest-decode-read", ("IMWire proto3 JSON", "Foundation Codable", "simdjson DOM")),
)
CORPORA = ("chat", "random", "merger300", "text12k", "fixtures")
# A peer that is not an implementation's name in the results: IMWire's own proto3 JSON of the same
# messages, against which tim-rest is held.
PEER_IMPLS = {("IMWire proto3 JSON", "tim-rest-decode-read"): ("IMWire", "json-decode-read")}
PEER_COLORS = {
    "protobuf-c": "#1f77b4", "C++ arena": "#d62728", "C++": "#ff7f0e", "upb": "#2ca02c", "swift-protobuf": "#9467bd",
    "IMWire proto3 JSON": "#17becf", "Foundation Codable": "#8c564b", "simdjson DOM": "#e377c2",
}
CORPUS_SHAPES = {"chat": "circle", "random": "square", "merger300": "diamond", "text12k": "triangle", "fixtures": "cross"}


def load(path):
    res, sizes = report.Results(), []
    for line in Path(path).read_text().splitlines():
        f = line.split("\t")
        if f[0] == "result" and len(f) >= 9:
            res.add(f[1], f[2], f[3], int(f[4]), int(f[5]), float(f[6]), int(f[9]) if len(f) >= 10 else 1)
        elif f[0] == "size" and len(f) >= 6:
            sizes.append((f[1], f[2], int(f[3]), int(f[4]), f[5]))
    return res, sizes


def corpus_of(res, op, corpus):
    """The corpus name an operation's lines carry: tim-rest on its own corpora (timrest-chat: the
    messages tim-rest carries, beside IMWire's proto3 JSON of the same messages)."""
    for name in ((f"timrest-{corpus}",) if op.startswith("tim-rest") else (corpus,)):
        if res.has("IMWire", name, op):
            return name
    return None


def ratios(res):
    """{label: {peer: {corpus: (median, min, max, rounds)}}} for the headline operations measured."""
    out = {}
    for label, op, peers in HEADLINE:
        by_peer = {}
        for peer in peers:
            by_corpus = {}
            for corpus in CORPORA:
                name = corpus_of(res, op, corpus)
                if name is None:
                    continue
                impl, peer_op = PEER_IMPLS.get((peer, op), (peer, report.peer_op(peer, op)))
                stats = res.ratio(("IMWire", name, op), (impl, name, peer_op))
                if stats is not None:
                    by_corpus[corpus] = stats
            if by_corpus:
                by_peer[peer] = by_corpus
        if by_peer:
            out[label] = by_peer
    return out


def strongest(by_peer):
    """The peer with the lowest median ratio over the corpora, and that median."""
    return min(((statistics.median(s[0] for s in c.values()), p) for p, c in by_peer.items()))[::-1]


def x(value):
    return report.fmt_x(value) + "×"


def summary_table(data, sizes):
    lines = ["| operation | IMWire ÷ the strongest peer, across the corpora | strongest peer |", "|---|---|---|"]
    for label, _, _ in HEADLINE:
        if label not in data:
            continue
        peer, _ = strongest(data[label])
        medians = [s[0] for s in data[label][peer].values()]
        span = x(min(medians)) if len(medians) == 1 else f"{x(min(medians))} – {x(max(medians))}"
        lines.append(f"| {label} | {span} as fast | {peer} |")
    for client, mode, imwire, peer_bytes, peer in sizes:
        if mode == "-O":
            lines.append(f"| code a {client} client links | {imwire / 1024:,.0f} KB: {imwire / peer_bytes:.2f}× the size | "
                         f"{peer}, the same program ({peer_bytes / 1024:,.0f} KB) |")
    return "\n".join(lines) + "\n"


def svg(data):
    """Rows of operations; in each, a marker per peer and corpus on a log axis from 1/16× to 64×."""
    labels = [label for label, _, _ in HEADLINE if label in data]
    width, left, right, top, row = 860, 250, 30, 56, 54
    peers = [p for p in PEER_COLORS if any(p in data[label] for label in labels)]
    legend_rows = 3
    height = top + row * len(labels) + 30 + 20 * legend_rows
    lo, hi = math.log2(1 / 16), math.log2(64)

    def px(value):
        v = min(max(math.log2(value), lo), hi)
        return left + (v - lo) / (hi - lo) * (width - left - right)

    alt = "IMWire's speed against other protobuf and JSON libraries: " + "; ".join(
        f"{label}: {x(min(s[0] for c in data[label].values() for s in c.values()))} to "
        f"{x(max(s[0] for c in data[label].values() for s in c.values()))} of its peers" for label in labels) + "."
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-labelledby="title desc">',
           f"<title id=\"title\">IMWire ÷ peers, time per message (above 1×: IMWire is faster)</title>",
           f"<desc id=\"desc\">{alt}</desc>",
           "<style>text{font:13px -apple-system,Segoe UI,Helvetica,Arial,sans-serif;fill:#24292f}"
           ".axis{stroke:#8c959f;stroke-width:1}.one{stroke:#24292f;stroke-width:1.5}.grid{stroke:#d0d7de;stroke-width:1}"
           ".mark{stroke:#ffffff;stroke-width:0.8}"
           "@media (prefers-color-scheme:dark){text{fill:#e6edf3}.one{stroke:#e6edf3}.grid{stroke:#30363d}"
           ".mark{stroke:#0d1117}}</style>",
           f'<text x="{left}" y="22" font-weight="bold">IMWire ÷ peer, time per message (log scale; right of 1×: IMWire is faster)</text>']
    for tick in (1 / 16, 1 / 4, 1 / 2, 1, 2, 4, 16, 64):
        tx = px(tick)
        out.append(f'<line class="{"one" if tick == 1 else "grid"}" x1="{tx:.1f}" y1="{top - 8}" x2="{tx:.1f}" '
                   f'y2="{top + row * len(labels)}"/>')
        text = f"{tick:g}×" if tick >= 1 else f"1/{round(1 / tick)}×"
        out.append(f'<text x="{tx:.1f}" y="{top - 14}" text-anchor="middle">{text}</text>')
    for index, label in enumerate(labels):
        y = top + row * index + row / 2
        out.append(f'<text x="{left - 12}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        out.append(f'<line class="axis" x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}"/>')
        present = [p for p in peers if p in data[label]]
        for slot, peer in enumerate(present):
            dy = (slot - (len(present) - 1) / 2) * 7
            for corpus, stats in data[label][peer].items():
                out.append(marker(CORPUS_SHAPES[corpus], px(stats[0]), y + dy, PEER_COLORS[peer]))
    # The legend: the peers, then the corpora's shapes, wrapped to the width.
    corpora = [c for c in CORPUS_SHAPES if any(c in data[label][p] for label in labels for p in data[label])]
    entries = [("circle", PEER_COLORS[p], p) for p in peers] + [(CORPUS_SHAPES[c], "#8c959f", c) for c in corpora]
    legend, cursor, line = [], 20, 0
    for shape, color, text in entries:
        advance = 20 + 7.5 * len(text)
        if cursor + advance > width - right:
            cursor, line = 20, line + 1
        legend.append((shape, color, text, cursor, line))
        cursor += advance + 12
    legend_y = top + row * len(labels) + 30
    for shape, color, text, lx, line in legend:
        out.append(marker(shape, lx, legend_y + 20 * line - 4, color))
        out.append(f'<text x="{lx + 9}" y="{legend_y + 20 * line}">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def marker(shape, cx, cy, color):
    r = 4.5
    if shape == "circle":
        return f'<circle class="mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{color}"/>'
    if shape == "square":
        return f'<rect class="mark" x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{color}"/>'
    if shape == "diamond":
        return (f'<polygon class="mark" points="{cx:.1f},{cy - r - 1:.1f} {cx + r + 1:.1f},{cy:.1f} {cx:.1f},{cy + r + 1:.1f} '
                f'{cx - r - 1:.1f},{cy:.1f}" fill="{color}"/>')
    if shape == "triangle":
        return (f'<polygon class="mark" points="{cx:.1f},{cy - r - 1:.1f} {cx + r + 1:.1f},{cy + r:.1f} '
                f'{cx - r - 1:.1f},{cy + r:.1f}" fill="{color}"/>')
    return (f'<path class="mark" d="M{cx - r:.1f},{cy - 1.5:.1f}h{r - 1.5:.1f}v-{r - 1.5:.1f}h3v{r - 1.5:.1f}h{r - 1.5:.1f}v3'
            f'h-{r - 1.5:.1f}v{r - 1.5:.1f}h-3v-{r - 1.5:.1f}h-{r - 1.5:.1f}z" fill="{color}"/>')


def render_check(path, picture, png):
    """Renders the SVG (the file at `path`, or `picture`) with a real renderer and checks the image: the
    size the SVG declares, and not blank (enough drawn pixels, of enough colours). A problem, or None."""
    import re
    import struct
    import subprocess
    import tempfile
    import zlib
    text = path.read_text() if path else picture
    with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as f:
        f.write(text)
    run = subprocess.run(["rsvg-convert", "-o", str(png), f.name], capture_output=True, text=True)
    if run.returncode != 0:
        return f"rsvg-convert failed: {run.stderr.strip()}"
    data = png.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "rsvg-convert wrote no PNG"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    declared = re.search(r'width="(\d+)" height="(\d+)"', text)
    if not declared or (width, height) != (int(declared[1]), int(declared[2])):
        return f"the image is {width}x{height}, the SVG declares {declared and declared.groups()}"
    if depth != 8 or colour != 6:
        return f"unexpected PNG format (depth {depth}, colour type {colour})"
    chunks, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks += data[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride, previous, pixels = zlib.decompress(chunks), width * 4, bytearray(width * 4), []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up, corner = previous[i], previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        pixels.extend(bytes(line[i:i + 4]) for i in range(0, stride, 4) if line[i + 3] > 0)
        previous = line
    drawn, colours = len(pixels), len(set(pixels))
    if drawn < width * height // 100 or colours < 6:
        return f"the image is nearly blank: {drawn} drawn pixels of {width * height}, {colours} colours"
    return None


def readme_with(readme_text, table):
    """The README with its bench summary section replaced by `table`."""
    start, end = readme_text.index(BEGIN) + len(BEGIN), readme_text.index(END)
    return readme_text[:start] + "\n" + table + readme_text[end:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", type=Path)
    ap.add_argument("--svg", type=Path, default=SVG)
    ap.add_argument("--table", type=Path, default=TABLE)
    ap.add_argument("--readme", type=Path, default=README)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--render", type=Path, help="render the SVG with rsvg-convert (librsvg2-bin) to this PNG and check it")
    args = ap.parse_args()
    res, sizes = load(args.results)
    data = ratios(res)
    if not data:
        print(f"chart: no headline operation in {args.results}", file=sys.stderr)
        return 2
    table, picture = summary_table(data, sizes), svg(data)
    readme = readme_with(args.readme.read_text(), table)
    outputs = ((args.svg, picture), (args.table, table), (args.readme, readme))
    if args.render:
        problem = render_check(args.svg if args.check else None, picture, args.render)
        if problem:
            print(f"chart: {problem}", file=sys.stderr)
            return 1
    if args.check:
        stale = [str(path.relative_to(ROOT)) for path, text in outputs if not path.exists() or path.read_text() != text]
        if stale:
            print("chart: not what Benchmarks/Harness/chart.py makes from " f"{args.results}: {', '.join(stale)}", file=sys.stderr)
            return 1
        return 0
    for path, text in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
