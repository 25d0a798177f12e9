#!/usr/bin/env bash
# The whole test suite, as CI runs it: dependencies, generated-code check, build, every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/check-generated.sh
swift build --build-tests
swift test --skip-build --parallel --num-workers 2
