#!/usr/bin/env bash
# Runs COPIES copies of a CPU test binary at once, ROUNDS times, on a loaded host, and names the
# test cases that failed: the CPU tests measure host levels' times, and a check that holds on
# an idle host may break where CI's host is busy or sanitized (docs/TESTING.md, "Timing under
# load"). Usage: scripts/stress_cpu_tests.sh [BINARY [COPIES [ROUNDS]]]
#   BINARY  build/tests/abfs_tests (default), or build-asan/tests/abfs_tests after
#           scripts/sanitize_tests.sh (ASAN_OPTIONS as there)
#   COPIES  processes at once (default 12); ROUNDS (default 2)
# Exit status: 0 when every run passed, 1 otherwise. The real graphs are left out (ABFS_DATA_DIR).
set -euo pipefail
binary=${1:-build/tests/abfs_tests}
copies=${2:-12}
rounds=${3:-2}
[[ -x $binary ]] || { echo "stress_cpu_tests: $binary: no such executable (build it first)" >&2; exit 2; }
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:abort_on_error=1}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=0
for ((round = 1; round <= rounds; ++round)); do
  pids=()
  for ((copy = 1; copy <= copies; ++copy)); do
    ABFS_DATA_DIR=/nonexistent "$binary" > "$logs/$round.$copy.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
done
echo "stress_cpu_tests: $binary, $copies at once x $rounds: $failed of $((copies * rounds)) runs failed"
if ((failed > 0)); then
  # The failed cases, each counted once a run (a passing run prints skips and messages only).
  for log in "$logs"/*.log; do
    awk '/TEST CASE:/ { name = $0 } /ERROR:|FATAL ERROR|SIGABRT|AddressSanitizer|runtime error/ { print name }' "$log" | sort -u
  done | sort | uniq -c
  exit 1
fi
