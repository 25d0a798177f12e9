#!/usr/bin/env bash
# The OpenHealthKit demo: a broker on a temporary store, two example apps under the sandbox
# launcher, their permission prompts answered in the manager, data flowing. Safe to re-run:
# everything lives in a temporary directory that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

say "Installing Debian packages (if missing) and building"
./scripts/install-deps.sh
swift build 2>&1 | tail -n 1
bin=$(swift build --show-bin-path)

demo=$(mktemp -d /tmp/openhealthkit-demo.XXXXXX)
export OPENHEALTH_ADMIN_SOCKET="$demo/run/admin.sock"
cleanup() {
  [ -n "${healthd_pid:-}" ] && kill "$healthd_pid" 2>/dev/null && wait "$healthd_pid" 2>/dev/null || true
  rm -rf "$demo"
}
trap cleanup EXIT

say "Starting healthd on a fresh encrypted store in $demo/store"
"$bin/healthd" --store "$demo/store" --socket-dir "$demo/run" --log-level notice 2>"$demo/healthd.log" &
healthd_pid=$!
for _ in $(seq 100); do [ -S "$demo/run/admin.sock" ] && break; sleep 0.1; done
[ -S "$demo/run/admin.sock" ] || { cat "$demo/healthd.log"; echo "healthd did not start" >&2; exit 1; }
run "$bin/healthctl" status

say "Installing the example apps' manifests"
cat > "$demo/heartrate.json" <<JSON
{ "id": "org.openhealthkit.example.heartrate", "displayName": "Heart Rate Demo",
  "executable": "$bin/heart-rate-app", "version": "1.0",
  "NSHealthShareUsageDescription": "Shows the heart rate readings you recorded.",
  "NSHealthUpdateUsageDescription": "Records heart rate readings." }
JSON
cat > "$demo/steps.json" <<JSON
{ "id": "org.openhealthkit.example.steps", "displayName": "Step Reader",
  "executable": "$bin/step-reader-app", "version": "1.0",
  "NSHealthShareUsageDescription": "Shows your daily step totals.",
  "NSHealthUpdateUsageDescription": "Records walks." }
JSON
run "$bin/healthctl" apps install "$demo/heartrate.json"
run "$bin/healthctl" apps install "$demo/steps.json"
run "$bin/healthctl" apps list

say "Starting heart-rate-app, confined by health-sandbox; it asks for access and waits"
"$bin/health-sandbox" run org.openhealthkit.example.heartrate -- "$bin/heart-rate-app" &
app_pid=$!
run "$bin/healthctl" requests --wait --timeout 30

say "Answering the prompt as the user would: yes to reading, yes to writing Heart Rate"
printf 'y\ny\n' | "$bin/healthctl" requests --answer
wait "$app_pid"

say "Starting step-reader-app; this time the user lets it write steps but NOT read them"
"$bin/health-sandbox" run org.openhealthkit.example.steps -- "$bin/step-reader-app" --record 1200 &
app_pid=$!
"$bin/healthctl" requests --wait --timeout 30 >/dev/null
request=$("$bin/healthctl" requests | awk '/org.openhealthkit.example.steps/ {print $1; exit}')
run "$bin/healthctl" requests --id "${request:-1}" --allow-share stepCount
wait "$app_pid"
echo "(It sees only the walk it saved itself: it cannot tell that read access was denied.)"

say "The user's own view, in the manager"
run "$bin/healthctl" samples heartRate --unit count/min
run "$bin/healthctl" samples stepCount
run "$bin/healthctl" grants org.openhealthkit.example.steps
run "$bin/healthctl" status
run "$bin/healthctl" log
run "$bin/healthctl" log verify
say "Done. healthd's log (no health values in it):"
cat "$demo/healthd.log"
