#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, JOBS at a time, seeded from tests/data and the
# shipped wisdom. Usage: fuzz/run.sh BUILD_DIR SECONDS OUT [JOBS] [TARGET...]
# OUT gets, per target: corpus-T/ (the grown corpus), T.log (libFuzzer's output and final
# stats) and any crash-/leak-/oom-/timeout- reproducer; OUT/summary.txt has one line per target.
set -uo pipefail
build=$1; seconds=$2; out=$3; jobs=${4:-2}; shift $(( $# >= 4 ? 4 : 3 ))
root=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(mtx snap dimacs csr wisdom)
mkdir -p "$out"
seed() {  # seed files for a target
  case $1 in
    mtx) ls "$root"/tests/data/*/*.mtx* ;;
    snap) ls "$root"/tests/data/*/*.txt* "$root"/tests/data/*/*.el "$root"/tests/data/*/*.edges ;;
    dimacs) ls "$root"/tests/data/*/*.gr* ;;
    csr) ls "$root"/tests/data/*/*.csr ;;
    wisdom) ls "$root"/profiles/shipped/*.yaml "$root"/tests/data/*/*.yaml ;;
  esac 2>/dev/null | while read -r f; do [ -f "$f" ] && echo "$f"; done
}
run_one() {
  local t=$1 corpus=$out/corpus-$1
  mkdir -p "$corpus"
  seed "$t" | while read -r f; do cp "$f" "$corpus/seed-$(basename "$f")"; done
  "$build/fuzz_$t" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$out/$t-" > "$out/$t.log" 2>&1
  local rc=$?
  local runs; runs=$(grep -m1 '^stat::number_of_executed_units' "$out/$t.log" | awk '{print $2}')
  echo "fuzz_$t rc=$rc seconds=$seconds executions=${runs:-?} corpus=$(ls "$corpus" | wc -l) findings=$(ls "$out" | grep -c "^$t-")" \
    | tee -a "$out/summary.txt"
}
export -f run_one seed; export build seconds out root
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}  # the loaders fork OpenMP teams; one thread fuzzes faster
export ABFS_HOST_MEMORY_LIMIT=${ABFS_HOST_MEMORY_LIMIT:-16M}  # huge headers must be InputErrors; a legal 5M-vertex graph takes >10 s under ASan on a busy host
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'
