#!/usr/bin/env bash
# Fails when the committed protobuf-c code does not match what proto/ generates.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/generate-proto.sh >/dev/null
if ! git diff --quiet --exit-code -- Sources/COpenHealthProto Sources/HealthWire/Protobuf/GeneratedConformances.swift || \
   [ -n "$(git ls-files --others --exclude-standard -- Sources/COpenHealthProto Sources/HealthWire/Protobuf/GeneratedConformances.swift)" ]; then
  echo "error: Sources/COpenHealthProto is out of date with proto/; run scripts/generate-proto.sh and commit." >&2
  git status --short -- Sources/COpenHealthProto >&2
  exit 1
fi
echo "generated protobuf-c code matches proto/"
./scripts/sync-spec.sh --check
