#!/usr/bin/env python3
"""malloc_targets: applies issue 7's allocation target to the static malloc thresholds.

    python3 Benchmarks/Harness/malloc_targets.py --manifest Benchmarks/Corpora/out/manifest.json \\
                                                 --thresholds Benchmarks/Thresholds

Scripts/bench --update-mallocs runs it right after ordo-one/benchmark's `thresholds update` has written the
measured p90 mallocCountTotal of every IMWire benchmark into Thresholds/IMWireBenchmarks.NAME.p90.json.

Target (issue 7): decoding a chat message allocates at most its number of non-inline strings + 2, where
a string is non-inline when its UTF-8 is longer than 15 bytes (Swift's small-string limit) and a non-empty
bytes value counts like one (a [UInt8] always has a heap buffer). Summed over a corpus that is the
manifest's decode_malloc_bound. For IMWire.binary-decode.chat and .chat-{text,image,custom,tips} the
threshold becomes min(measured, bound): a count over the target fails the check until the target is met,
and a count under it is kept as the ratchet. Every other threshold stays the measured count.
"""

import argparse
import json
from pathlib import Path

TARGETED = ("chat", "chat-text", "chat-image", "chat-custom", "chat-tips")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", type=Path, required=True)
    ap.add_argument("--thresholds", type=Path, required=True)
    args = ap.parse_args()
    corpora = json.loads(args.manifest.read_text())["corpora"]
    print(f"{'benchmark':34} {'measured':>9} {'target':>9} {'threshold':>9}  per message: measured / target")
    for corpus in TARGETED:
        path = args.thresholds / f"IMWireBenchmarks.IMWire.binary-decode.{corpus}.p90.json"
        if not path.exists():
            print(f"{corpus}: no {path.name} (did the benchmark run?)")
            continue
        values = json.loads(path.read_text())
        measured = values["mallocCountTotal"]
        bound = corpora[corpus]["decode_malloc_bound"]
        values["mallocCountTotal"] = min(measured, bound)
        # The tool's own format: pretty-printed, sorted keys, no trailing newline.
        path.write_text(json.dumps(values, indent=2, sort_keys=True, separators=(",", " : ")))
        n = corpora[corpus]["messages"]
        print(f"IMWire.binary-decode.{corpus:13} {measured:9} {bound:9} {values['mallocCountTotal']:9}  "
              f"{measured / n:.2f} / {bound / n:.2f}{'   OVER TARGET' if measured > bound else ''}")


if __name__ == "__main__":
    main()
