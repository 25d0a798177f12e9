#!/usr/bin/env bash
# Mutation testing of the promises (DESIGN.md §4, §5, §7): each scripts/mutations/NAME.patch
# plants one realistic single-line bug. For each, in a scratch git worktree of HEAD (your
# working tree is never touched), this script applies the patch, builds, runs the tests its
# "# tests:" header names under a deadline, and reports whether they caught it.
#
#   scripts/mutate.sh                 every mutation
#   scripts/mutate.sh NAME…           only these (file names without .patch)
#
# Environment: MUTATE_DEADLINE (seconds per test run, default 900), MUTATE_BUILD_PATH (the
# scratch build directory, default /tmp/ohk-mutate-build; kept between runs, so only the
# first build is a full one), MUTATE_LOGS (a directory to keep each mutant's test output in, as
# NAME.test, so a KILLED line can be checked for the failure it claims).
#
# Output, one line per mutation: KILLED (a test failed, or the test process crashed), SURVIVED (the tests passed: a promise
# without a test that notices), TIMEOUT (counts as killed, but a test lacks a deadline),
# NOTESTS (the header's filter matched nothing), BROKEN (the patch no longer applies or the
# mutant does not build). Not part of CI: a run takes a long time on a small machine.
set -uo pipefail
repo=$(git rev-parse --show-toplevel)
deadline=${MUTATE_DEADLINE:-900}
build=${MUTATE_BUILD_PATH:-/tmp/ohk-mutate-build}
scratch=$(mktemp -d /tmp/ohk-mutate.XXXXXX)
tree="$scratch/tree"

cleanup() {
    git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1
    rm -rf "$scratch"
}
trap cleanup EXIT

git -C "$repo" worktree add --detach "$tree" HEAD >/dev/null || exit 1
cd "$tree" || exit 1

if [ $# -gt 0 ]; then
    patches=()
    for name in "$@"; do patches+=("scripts/mutations/$name.patch"); done
else
    patches=(scripts/mutations/*.patch)
fi

echo "baseline build (unmutated) in $build…" >&2
swift build --build-tests --scratch-path "$build" >"$scratch/build.log" 2>&1 || { echo "the unmutated tree does not build; see $scratch/build.log" >&2; exit 1; }

survived=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    tests=$(sed -n 's/^# tests: //p' "$patch" | head -1)
    git checkout -q -- . && git clean -qfd Sources
    if ! git apply "$patch" 2>"$scratch/$name.apply"; then
        echo "BROKEN   $name (does not apply)"
        continue
    fi
    if ! swift build --build-tests --scratch-path "$build" >"$scratch/$name.build" 2>&1; then
        echo "BROKEN   $name (does not build)"
        continue
    fi
    timeout "$deadline" swift test --skip-build --scratch-path "$build" --filter "$tests" >"$scratch/$name.test" 2>&1
    status=$?
    if [ -n "${MUTATE_LOGS:-}" ]; then mkdir -p "$MUTATE_LOGS" && cp "$scratch/$name.test" "$MUTATE_LOGS/$name.test"; fi
    if [ $status -eq 124 ]; then
        echo "TIMEOUT  $name (after ${deadline}s: $tests)"
    elif grep -q "exited with unexpected signal" "$scratch/$name.test"; then
        # The mutant crashed the test process (e.g. protobuf-c's recursion overflowing the
        # stack): no summary line is printed, which must not read as "no tests ran".
        echo "KILLED   $name (the test process crashed: $(grep -o 'unexpected signal code [0-9]*' "$scratch/$name.test" | head -1))"
    elif grep -q "Executed 0 tests" "$scratch/$name.test" && ! grep -qE "Test run with [1-9]" "$scratch/$name.test"; then
        echo "NOTESTS  $name ($tests)"
        survived=$((survived + 1))
    elif [ $status -ne 0 ]; then
        echo "KILLED   $name ($(grep -cE '^✘ Test .* recorded an issue|error:' "$scratch/$name.test") failures)"
    else
        echo "SURVIVED $name ($tests)"
        survived=$((survived + 1))
    fi
done
git checkout -q -- .
# The scratch build stays (incremental next time) but is left unmutated.
swift build --build-tests --scratch-path "$build" >/dev/null 2>&1
exit $((survived > 0))
