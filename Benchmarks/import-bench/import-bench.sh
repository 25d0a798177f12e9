#!/bin/bash
# Usage: import-bench.sh BINDIR LABEL FILE
# Issue 16's import figure: a fresh store, healthd from BINDIR (a release build), then
# `healthctl import FILE --characteristics no` twice (an import, then a re-import that adds
# nothing). Prints per pass: wall time, healthd CPU (utime+stime from /proc), bytes healthd wrote
# (/proc/PID/io), healthctl CPU and peak RSS, the load average, and healthctl's summary counts.
# FILE: an export.xml or export.zip; generate-export.py makes the 134,000-record benchmark file.
set -u
BIN=$1; LABEL=$2; FILE=$3
D=$(mktemp -d /tmp/import-bench.XXXX)
TCK=$(getconf CLK_TCK)
"$BIN/healthd" --store "$D/store" --socket-dir "$D/sock" --log-level error > "$D/healthd.log" 2>&1 &
HP=$!
for _ in $(seq 100); do [ -S "$D/sock/admin.sock" ] && break; sleep 0.1; done
cpu() { awk -v t="$TCK" '{print ($14+$15)/t}' "/proc/$HP/stat"; }
written() { awk '/^write_bytes/{print $2}' "/proc/$HP/io"; }
for pass in import reimport; do
  c0=$(cpu); w0=$(written); load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$D/time.$pass" "$BIN/healthctl" import "$FILE" --characteristics no \
    --socket "$D/sock/admin.sock" > "$D/out.$pass" 2>&1
  rc=$?
  c1=$(cpu); w1=$(written)
  read -r wall u s rss < "$D/time.$pass"
  summary=$(grep -i -E "imported|already|refused" "$D/out.$pass" | tr -s ' ' | tr '\n' ';' | cut -c1-160)
  printf "%s %s load=%s rc=%s wall=%.2fs healthd_cpu=%.2fs healthd_written=%.0fMB healthctl_cpu=%.2fs healthctl_rss=%dMB | %s\n" \
    "$LABEL" "$pass" "$load" "$rc" "$wall" "$(echo "$c1 - $c0" | bc -l)" "$(echo "($w1 - $w0)/1000000" | bc -l)" \
    "$(echo "$u + $s" | bc -l)" $((rss / 1024)) "$summary"
done
grep VmHWM "/proc/$HP/status" | tr -s ' ' | sed 's/^/healthd peak /'
kill "$HP"; wait "$HP" 2>/dev/null
du -sm "$D/store" | cut -f1 | sed 's/^/store MB: /'
rm -rf "$D"
