#!/usr/bin/env bash
# Builds the benchmark harness over IMWire's eager model of commit 02d391d (stored properties, a
# `decodeField` per field, before the arena decoder), the bar issue 33's redesign is held to ("decode +
# read >= 1.3x the eager model"): EagerBench (imwire-bench's commands) and EagerAllocs (imwire-allocs').
# Prints the directory they are in.
#
#   Benchmarks/Harness/eager.sh OUT_DIR              02d391d, in OUT_DIR/eager (what Scripts/bench runs)
#   Benchmarks/Harness/eager.sh OUT_DIR COMMIT       another commit, in OUT_DIR/imwire-COMMIT: the same
#                                                    harness over any earlier model (Docs/benchmarks.md
#                                                    compares the arena model of 660b0b4 this way)
#
# The package is made in OUT_DIR/eager (never committed): the library's sources at the commit, taken from
# this repository's history with `git archive`, as a module named IMWireEager, and the harness from the
# current Benchmarks/Sources files that work on any IMWire model (Harness.swift, Corpus.swift, the walk,
# the values built in code and the IMWire workloads; the heap and allocation counters), their `import
# IMWire` renamed. The same code times both models. Made again only when those files change.
set -euo pipefail

out="${1:?usage: eager.sh OUT_DIR [COMMIT]}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
commit="${2:-02d391d}"
if [[ "$commit" == 02d391d ]]; then package="$out/eager"; else package="$out/imwire-$commit"; fi
sources="$repo_root/Benchmarks/Sources"
shared=(Harness.swift Corpus.swift Walk+IMWire.swift Build+IMWire.swift Workload+IMWire.swift)

stamp="$(cd "$repo_root" && git rev-parse "$commit")"
for file in "${shared[@]/#/BenchSupport/}" CHeapInUse/heap_in_use.c CHeapInUse/include/heap_in_use.h \
    CMallocCount/malloc_count.c CMallocCount/include/malloc_count.h ../Harness/eager.sh; do
    stamp+=" $(cksum <"$sources/$file")"
done

if [[ ! -f "$package/stamp" || "$(cat "$package/stamp")" != "$stamp" ]]; then
    rm -rf "$package"
    for target in IMWireEager EagerSupport EagerBench EagerAllocs CHeapInUse CMallocCount; do
        mkdir -p "$package/Sources/$target"
    done
    (cd "$repo_root" && git archive "$commit" Sources/IMWire) | tar -x -C "$package/Sources/IMWireEager" --strip-components=2
    rm -rf "$package/Sources/IMWireEager/IMWire.docc"
    # Later commits check UTF-8 in a C target of their own: taken along when the commit has it.
    library_dependencies=""
    c_target=""
    if (cd "$repo_root" && git cat-file -e "$commit:Sources/CIMWireUTF8" 2>/dev/null); then
        mkdir -p "$package/Sources/CIMWireUTF8"
        (cd "$repo_root" && git archive "$commit" Sources/CIMWireUTF8) | tar -x -C "$package/Sources/CIMWireUTF8" --strip-components=2
        library_dependencies=', dependencies: ["CIMWireUTF8"]'
        c_target='        .target(name: "CIMWireUTF8"),'
    fi
    for file in "${shared[@]}"; do
        sed -e 's/^import IMWire$/import IMWireEager/' -e 's/^@_spi(Benchmarks) import IMWire$/import IMWireEager/' \
            "$sources/BenchSupport/$file" >"$package/Sources/EagerSupport/$file"
    done
    cp -R "$sources/CHeapInUse/." "$package/Sources/CHeapInUse/"
    cp -R "$sources/CMallocCount/." "$package/Sources/CMallocCount/"
    # Of IMWire's own operations, an earlier model has decode + validate (validate(profile:) is older than
    # both models): the baseline of issue 34's target for validate through the view.
    printf '%s\n' \
        "// The message view, the routing view and the string builder came after this model: of IMWire's own" \
        "// operations only decode + validate, the baseline of validate through the view." \
        "import IMWireEager" \
        "enum IMWireExtras {" \
        "    static func workload(_ operation: Operation, _ corpus: Corpus) throws -> (pass: () throws -> Void, size: (messages: Int, bytes: Int)?)? {" \
        "        guard operation == .binaryDecodeValidate else { return nil }" \
        "        let inputs = corpus.binaryRaw" \
        "        return ({ for input in inputs { blackHole(try Message(serializedBytes: input).validate(profile: .tencent)) } }, nil)" \
        "    }" \
        "    static func digests(_ corpus: Corpus) throws -> [(format: String, sum: UInt64)] { [] }" \
        "}" >"$package/Sources/EagerSupport/Extras.swift"
    printf '%s\n' \
        "// The harness of imwire-bench over IMWire's eager model of commit $commit." \
        "import EagerSupport" \
        "runHarness(\"imwire-bench-$commit\", [IMWireWorkloads.implementation(named: \"IMWire $commit\")]," \
        "           arguments: Array(CommandLine.arguments.dropFirst()))" >"$package/Sources/EagerBench/main.swift"
    printf '%s\n' \
        "// imwire-allocs over IMWire's eager model of commit $commit (its allocs command)." \
        "import CMallocCount" \
        "import EagerSupport" \
        "runHarness(\"imwire-allocs-$commit\", [IMWireWorkloads.implementation(named: \"IMWire $commit\")]," \
        "           arguments: Array(CommandLine.arguments.dropFirst())," \
        "           countAllocations: { body in" \
        "               malloc_count_start()" \
        "               do { try body() } catch { _ = malloc_count_stop(); throw error }" \
        "               return Int(malloc_count_stop())" \
        "           })" >"$package/Sources/EagerAllocs/main.swift"
    printf '%s\n' \
        "// swift-tools-version: 6.1" \
        "// Made by Benchmarks/Harness/eager.sh: IMWire at $commit (module IMWireEager) and its benchmark harness." \
        "import PackageDescription" \
        "" \
        "let package = Package(" \
        "    name: \"IMWireEagerBench\"," \
        "    platforms: [.macOS(.v15)]," \
        "    targets: [" \
        "        .target(name: \"IMWireEager\"$library_dependencies)," \
        "$c_target" \
        "        .target(name: \"CHeapInUse\")," \
        "        .target(name: \"CMallocCount\")," \
        "        .target(name: \"EagerSupport\", dependencies: [\"IMWireEager\", \"CHeapInUse\"])," \
        "        .executableTarget(name: \"EagerBench\", dependencies: [\"EagerSupport\"])," \
        "        .executableTarget(name: \"EagerAllocs\", dependencies: [\"EagerSupport\", \"CMallocCount\"])," \
        "    ]," \
        "    swiftLanguageModes: [.v6]" \
        ")" >"$package/Package.swift"
    printf '%s\n' "$stamp" >"$package/stamp"
fi
swift build -c release --package-path "$package" -Xcc -gdwarf-4 2>&1 | grep -v '^\[' >&2 \
    || { echo "eager.sh: swift build failed" >&2; exit 1; }
swift build -c release --package-path "$package" -Xcc -gdwarf-4 --show-bin-path
