#!/usr/bin/env bash
# Copies the HealthKit reference tables (../shared/spec/healthkit, facts with their sources)
# into spec/healthkit, where the registry generator and the registry-vs-tables tests read them.
# The copy is committed so a checkout builds and tests on its own; with --check (run by
# scripts/check-generated.sh when ../shared exists) it fails if the copy is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=../shared/spec/healthkit
if [ ! -d "$source_dir" ]; then
  echo "no $source_dir here: spec/healthkit is used as committed"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  if ! diff -r -q "$source_dir" spec/healthkit >/dev/null; then
    echo "error: spec/healthkit differs from $source_dir; run scripts/sync-spec.sh, regenerate the registry and commit." >&2
    diff -r -q "$source_dir" spec/healthkit >&2 || true
    exit 1
  fi
  echo "spec/healthkit matches $source_dir"
else
  rm -rf spec/healthkit && mkdir -p spec/healthkit && cp "$source_dir"/* spec/healthkit/
  echo "copied $(ls spec/healthkit | wc -l) tables from $source_dir"
fi
