#!/usr/bin/env python3
"""The results of Docs/conformance.md: a table of every shipped testee run against the conformance
suite without its expected-failure list, counted per level, and the report of one run with its list.
Generated, never typed.

    python3 Scripts/conformance_results.py          # rewrite the table in Docs/conformance.md
    python3 Scripts/conformance_results.py --check  # exit 1 if the table there is stale (Scripts/test)

Needs the built `imwire` (.build/release/imwire, or $IMWIRE) and builds the C++, Go, Java and
swift-protobuf testees with their own scripts. The counts are stable: the testees' outputs are deterministic.
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "Docs" / "conformance.md"
RESULTS = ("<!-- results:begin (Scripts/conformance_results.py) -->", "<!-- results:end -->")
REPORT = ("<!-- report:begin (Scripts/conformance_results.py) -->", "<!-- report:end -->")
TESTEES = ROOT / "Tests" / "Conformance" / "testees"
LISTS = ROOT / "Tests" / "Conformance" / "expected-failures"

# (name, runtime, command, expected-failure list)
SHIPPED = [
    ("IMWire (Swift)", "this package", "{imwire} testee", None),
    ("C++", "libprotobuf 3.21.12", ".build-testees/cpp/imwire-testee-cpp", "cpp.txt"),
    ("Go", "google.golang.org/protobuf 1.28.1", ".build-testees/go/imwire-testee-go", "go.txt"),
    ("Java", "protobuf-java 3.21.12 + JsonFormat", ".build-testees/java/imwire-testee-java", "java.txt"),
    ("Python", "google.protobuf 7.36.2 (upb)", "python3 Tests/Conformance/testees/python/testee.py", "python.txt"),
    ("C", "protobuf-c 1.4.1 (binary only)", "{build}/imwire-testee-c", "protobuf-c.txt"),
    ("Swift", "swift-protobuf 1.39.0", ".build-testees/swift-protobuf/imwire-testee-swift-protobuf",
     "swift-protobuf.txt"),
]
LEVEL_LINE = re.compile(r"^(Required|Recommended): (\d+) passed, (\d+) failed.*?, (\d+) expected failures, (\d+) skipped$")


def run(imwire, command, extra=()):
    result = subprocess.run([imwire, "conformance", "--testee", command, *extra], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    counts = {}
    for line in result.stdout.splitlines():
        match = LEVEL_LINE.match(line)
        if match:
            level, passed, failed, expected, skipped = match.groups()
            counts[level] = (int(passed), int(failed) + int(expected), int(skipped))
    if set(counts) != {"Required", "Recommended"}:
        sys.exit(f"conformance_results: no counts from `{command}`:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return counts, result.stdout


def entries(list_name):
    if list_name is None:
        return "—"
    lines = (LISTS / list_name).read_text(encoding="utf-8").splitlines()
    count = sum(1 for line in lines if line.strip() and not line.lstrip().startswith("#"))
    return f"[{list_name}](../Tests/Conformance/expected-failures/{list_name}), {count} entries"


def table(imwire):
    for language in ("cpp", "go", "java", "swiftprotobuf"):
        subprocess.run([str(TESTEES / language / "build")], check=True, stdout=subprocess.DEVNULL)
    build = Path(imwire).parent
    rows = ["| testee | runtime | Required passed | Required failed | Required skipped | "
            "Recommended passed | Recommended failed | Recommended skipped | expected-failure list |",
            "|---|---|--:|--:|--:|--:|--:|--:|---|"]
    for name, runtime, command, list_name in SHIPPED:
        counts, _ = run(imwire, command.format(imwire=imwire, build=build))
        required, recommended = counts["Required"], counts["Recommended"]
        rows.append(f"| {name} | {runtime} | {required[0]} | {required[1]} | {required[2]} | "
                    f"{recommended[0]} | {recommended[1]} | {recommended[2]} | {entries(list_name)} |")
    return "\n".join(rows)


def report(imwire):
    """The report of the C++ testee run with its list, the time rounded so the text is stable."""
    _, text = run(imwire, ".build-testees/cpp/imwire-testee-cpp",
                  ["--expected-failures", "Tests/Conformance/expected-failures/cpp.txt"])
    text = re.sub(r"^ran in .*$", "ran in 0.3 s", text.rstrip("\n"), flags=re.M)
    return f"```\n$ imwire conformance --testee .build-testees/cpp/imwire-testee-cpp \\\n" \
           f"      --expected-failures Tests/Conformance/expected-failures/cpp.txt\n{text}\n```"


def replace_section(text, markers, body):
    begin, end = markers
    if begin not in text or end not in text:
        sys.exit(f"conformance_results: {DOC} has no {begin} … {end} section")
    before, rest = text.split(begin, 1)
    _, after = rest.split(end, 1)
    return f"{before}{begin}\n{body}\n{end}{after}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if Docs/conformance.md is stale")
    args = parser.parse_args()
    imwire = os.environ.get("IMWIRE", str(ROOT / ".build" / "release" / "imwire"))
    if not os.access(imwire, os.X_OK):
        sys.exit(f"conformance_results: {imwire} is not built (swift build -c release)")
    text = DOC.read_text(encoding="utf-8")
    updated = replace_section(text, RESULTS, table(imwire))
    updated = replace_section(updated, REPORT, report(imwire))
    if args.check:
        if updated != text:
            sys.exit("conformance_results: the results in Docs/conformance.md are stale; "
                     "run python3 Scripts/conformance_results.py and commit the result")
        print("conformance_results: Docs/conformance.md is up to date")
        return
    DOC.write_text(updated, encoding="utf-8")


if __name__ == "__main__":
    main()
