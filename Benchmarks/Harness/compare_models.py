#!/usr/bin/env python3
"""compare_models: IMWire's decoded-value designs side by side — the current library and the same
benchmark harness built over earlier commits (Benchmarks/Harness/eager.sh OUT COMMIT) — timed in
interleaved rounds, with their allocations and the memory decoded values hold. Docs/benchmarks.md
("The decoded-value designs compared") quotes its output.

    python3 Benchmarks/Harness/compare_models.py [--rounds 6] [--corpus NAME]... \\
        CURRENT_BIN_DIR OTHER_BIN_DIR...

Each BIN_DIR holds a bench executable and an allocs executable: imwire-bench and imwire-allocs for the
current library (swift build -c release --package-path Benchmarks --show-bin-path), EagerBench and
EagerAllocs for one that eager.sh built. Per round and corpus, each harness runs once as its own short
process timing every operation (the order reversed every other round), as Scripts/bench does. Prints,
per corpus and operation, ns per message (the median over rounds of each round's best sample) and the
median of the per-round ratios other time ÷ current time (above 1: the current library is faster), with
the lowest and highest round; then allocations per message and bytes held per decoded chat message.
"""

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CORPORA = ("chat", "random", "merger300", "text12k", "fixtures")
OPS = ("binary-decode-read", "binary-read", "built-read", "binary-encode-built", "json-decode-read",
       "json-encode-built", "binary-decode")


def executables(directory):
    d = Path(directory)
    for bench, allocs in (("imwire-bench", "imwire-allocs"), ("EagerBench", "EagerAllocs")):
        if (d / bench).exists():
            return d / bench, d / allocs
    sys.exit(f"compare_models: no imwire-bench or EagerBench in {d}")


def lines(command):
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"compare_models: {' '.join(map(str, command))} failed:\n{out.stderr}")
    return [line.split("\t") for line in out.stdout.splitlines()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--corpus", action="append")
    parser.add_argument("--corpora", default=str(ROOT / "Benchmarks/Corpora/out"))
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    corpora = args.corpus or list(CORPORA)
    models = [executables(d) for d in args.dirs]
    times = {}  # (impl, corpus, op) -> [ns per message, by round]
    names = []
    for round_number in range(1, args.rounds + 1):
        for corpus in corpora:
            order = models if round_number % 2 else models[::-1]
            for bench, _ in order:
                ops = [a for op in (OPS if round_number % 2 else OPS[::-1]) for a in ("--op", op)]
                for f in lines([bench, "run", "--corpora", args.corpora, "--corpus", corpus, *ops,
                                "--sample-time", "0.1", "--samples", "3", "--round", str(round_number)]):
                    if f[0] == "result":
                        impl, op = f[1], f[3]
                        if impl not in names:
                            names.append(impl)
                        times.setdefault((impl, corpus, op), []).append(float(f[6]) * 1e9 / float(f[4]))
        print(f"round {round_number}/{args.rounds} done", file=sys.stderr)
    current = names[0]
    print(f"ns per message, median of {args.rounds} rounds; ratio = other ÷ {current} per round "
          "(median, lowest–highest; above 1: the current library is faster)\n")
    header = ["corpus", "operation"] + [f"{n} ns" for n in names] + [f"{n} ÷ {current}" for n in names[1:]]
    print("\t".join(header))
    for corpus in corpora:
        for op in OPS:
            base = times.get((current, corpus, op))
            if not base:
                continue
            row = [corpus, op]
            for n in names:
                v = times.get((n, corpus, op))
                row.append(f"{statistics.median(v):,.1f}" if v else "–")
            for n in names[1:]:
                v = times.get((n, corpus, op))
                if not v:
                    row.append("–")
                    continue
                r = sorted(o / b for o, b in zip(v, base))
                row.append(f"{statistics.median(r):.2f}× ({r[0]:.2f}–{r[-1]:.2f})")
            print("\t".join(row))
    print("\nallocations per message (exact)")
    for _, allocs in models:
        for f in lines([allocs, "allocs", "--corpora", args.corpora, *[a for c in corpora for a in ("--corpus", c)],
                        "--op", "binary-decode-read", "--op", "binary-read", "--op", "binary-encode-built",
                        "--op", "json-decode-read"]):
            if f[0] == "allocs" and f[1].startswith("IMWire"):
                print(f"{f[1]}\t{f[2]}\t{f[3]}\t{float(f[5]):.2f}")
    print("\nbytes held per decoded chat value (100,000 kept)")
    for bench, _ in models:
        for f in lines([bench, "memory", "--corpora", args.corpora, "--corpus", "chat", "--count", "100000"]):
            if f[0] == "memory" and f[1].startswith("IMWire"):
                print(f"{f[1]}\t{f[3]}\t{float(f[5]):.0f}")


if __name__ == "__main__":
    main()
