#!/usr/bin/env bash
# The whole test suite, as CI runs it: dependencies, generated-code check, build, every test.
#
# Each test target runs in its own `swift test` process, one after the other. Run all at once,
# Swift Testing starts every suite of every target together in one process: on a 2-core machine
# that was hundreds of suites and dozens of healthd processes at once, and the run stalled (no
# progress for over 15 minutes) where the same targets one by one finish in minutes. Every
# target runs even when an earlier one failed; the script fails if any did.
#
# --with-release-build (CI's .ci/run): also builds release mode, beside the debug build and the
# tests, on the CPU time they leave idle. It runs under SCHED_IDLE, so the kernel gives it a core
# only when no build or test process wants one (and takes it back at once when one wakes): they
# run as they do alone. It starts with the debug build, not after it: a 2-core debug build leaves
# idle moments too (planning, module dependencies, the serial links at its end), and a quiet
# full run (28 Nov 2026) ended with the release build finishing 6 s before the last test target.
# It has its own scratch path (.build-release), since SwiftPM lets one command at a time use a
# scratch path and `swift test` holds .build. A failed release build counts as a failed target.
set -uo pipefail
release_build=no
if [ "${1:-}" = "--with-release-build" ]; then release_build=yes; fi
cd "$(dirname "$0")/.."
set -e
./scripts/install-deps.sh
./scripts/check-generated.sh
# A suite's time limit is a hang guard, not a speed check: a loaded 2-core machine running a
# whole target at once once took 85 s for a 0.2 s suite. Shorter limits failed CI.
if grep -rnE 'timeLimit\(\.minutes\([0-9]\)\)' Tests; then
  echo "test suites above use a time limit under 10 minutes: use .timeLimit(.minutes(10))" >&2
  exit 1
fi
started=$(date +%s)
# Each phase's start, in seconds since the build began: CI keeps only a failed run's output, and
# then shows where the time went.
phase() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }
if [ "$release_build" = yes ]; then
  release_log=$(mktemp)
  # Idle I/O class too: its object files must not slow the tests' fsyncs.
  chrt --idle 0 ionice -c 3 swift build -c release --scratch-path .build-release >"$release_log" 2>&1 &
  release_pid=$!
fi
phase "debug build"
if ! swift build --build-tests; then
  if [ "$release_build" = yes ]; then kill "$release_pid" 2>/dev/null; wait "$release_pid" 2>/dev/null; fi
  exit 1
fi
set +e

targets=(HealthModelTests HealthWireTests HealthIPCTests HealthStoreTests HealthBrokerTests HealthKitTests
         HealthManagerCLITests AppleHealthExportTests HealthReportTests SandboxTests EndToEndTests LeakProbeTests)
failed_targets=()
passed=0
failed=0
logs=$(mktemp -d)
for target in "${targets[@]}"; do
  phase "$target"
  # A deadline per target, so a hang fails the run instead of using up CI's time.
  timeout 1200 swift test --skip-build --parallel --filter "^$target\." 2>&1 | tee "$logs/$target.log"
  status=${PIPESTATUS[0]}
  tests=$(grep -Eo 'Test run with [0-9]+ tests?' "$logs/$target.log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
  if [ "$status" -eq 0 ]; then
    passed=$((passed + tests))
  else
    failed=$((failed + 1))
    failed_targets+=("$target (exit $status)")
  fi
done
if [ "$release_build" = yes ]; then
  phase "release build (started beside the debug build)"
  wait "$release_pid"
  status=$?
  if [ "$status" -eq 0 ]; then
    tail -n 1 "$release_log"
  else
    grep -E 'error:' "$release_log" | head -40 || tail -n 20 "$release_log"
    failed=$((failed + 1))
    failed_targets+=("release build (exit $status)")
  fi
fi
echo
if [ ${#failed_targets[@]} -gt 0 ]; then
  # CI shows only the end of the output: repeat what failed, and where, right above the total.
  for target in "${targets[@]}"; do
    grep -E '✘|recorded an issue|error:|Fatal error|Crash|signal [0-9]+|timed out|exceeded' "$logs/$target.log" \
      | grep -v ' passed ' | head -40 | sed "s/^/[$target] /"
  done
  echo "failed targets: ${failed_targets[*]}"
fi
# The closing line CI reads: tests passed in passing targets, targets that failed.
echo "$passed passed, $failed failed"
[ ${#failed_targets[@]} -eq 0 ]
