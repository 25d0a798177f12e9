#!/bin/bash
# Runs one coverage-guided libFuzzer target for N minutes (Fuzz/README.md).
#
#   scripts/fuzz.sh TARGET MINUTES      TARGET: frame | message | predicate | unit | manifest | health-card | query-spec
#
# Builds with -sanitize=fuzzer in release into .build/fuzz (apart from the normal build; the
# targets exist only when OHK_FUZZ=1, see Package.swift). The committed seeds in
# Fuzz/TARGET/corpus are read; new inputs go to .build/fuzz/corpus/TARGET; a crashing input is
# written to .build/fuzz/artifacts/TARGET/ and the script exits non-zero.
set -euo pipefail
# Let libFuzzer, not the Swift runtime's backtracer, handle a trap, so the input is saved.
export SWIFT_BACKTRACE=enable=no
target=${1:?usage: scripts/fuzz.sh TARGET MINUTES}
minutes=${2:-3}
seconds=$(awk "BEGIN { printf \"%d\", $minutes * 60 }")
cd "$(dirname "$0")/.."
[ -d "Fuzz/$target" ] || { echo "no fuzz target Fuzz/$target" >&2; exit 2; }

OHK_FUZZ=1 swift build -c release --scratch-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library \
  -Xcc -fsanitize=fuzzer-no-link \
  --product "fuzz-$target"

corpus=.build/fuzz/corpus/$target
artifacts=.build/fuzz/artifacts/$target/
mkdir -p "$corpus" "$artifacts"
# One process, one job: the machine is shared. 64 KiB inputs cover every message shape.
TIMEFORMAT="fuzz-$target: %U s user CPU, %S s system CPU, %R s wall"
time ".build/fuzz/release/fuzz-$target" "$corpus" "Fuzz/$target/corpus" \
  -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$artifacts" -print_final_stats=1
