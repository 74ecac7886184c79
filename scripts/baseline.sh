#!/usr/bin/env bash
# The behaviour a refactoring commit must keep (CONTRIBUTING: "refactors keep behaviour").
#
#   scripts/baseline.sh OUT [SEEDS]
#
# Builds sync-sim in release (its own scratch path, .build/baseline, so a `swift test` holding
# .build is not waited on) and writes OUT: every scenario's sim-mode trace hash, then the
# outcome of each of SEEDS (default 6) sweep seeds of every scenario, the timing lines left
# out. Run it before and after a change; `diff` of the two files is empty when the change kept
# every trace and every sweep outcome.
set -euo pipefail
if [ $# -lt 1 ]; then sed -n '2,/^[^#]/{/^#/p}' "$0" >&2; exit 2; fi
out=$(realpath -m "$1") seeds=${2:-6}
cd "$(dirname "$0")/.."
swift build -c release --product sync-sim --scratch-path .build/baseline >&2
bin=.build/baseline/release/sync-sim
: > "$out"
for f in scenarios/*.scenario; do
  echo "$f $("$bin" --mode sim --json "$f" | grep -o '"traceHash":"[^"]*"')" >> "$out"
done
for f in scenarios/*.scenario; do
  echo "== $f" >> "$out"
  "$bin" sweep "$f" --seeds "$seeds" --jobs 2 2>&1 | grep -v "seeds in\|^sweep " >> "$out"
done
echo "$(grep -c traceHash "$out") scenarios, $seeds seeds each: $out" >&2
