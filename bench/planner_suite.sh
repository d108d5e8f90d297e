#!/usr/bin/env bash
# Issue 4 on the GPU machine: calibrate, test with the fresh wisdom, then compare the adaptive
# plan with every single strategy and the Exhaustive oracle over the graph suite.
# Runs from the repository root over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs build/tests/abfs_gpu_tests ../shared/data/*.gz
# Usage: bench/planner_suite.sh BUNDLE OUT [calibrate|patient|tests|compare|big|svg]...
#   calibrate/patient: abfs calibrate --quick/--patient --out OUT/wisdom.yaml (later steps use it;
#   without either step, ABFS_WISDOM may name one). compare: the suite minus the two largest
#   graphs, which `big` adds, or the graphs ABFS_GRAPHS lists (bundled files by name, generators
#   by spec); ABFS_SOURCES sources, 4, times ABFS_ROUNDS rounds, 2 (big: 2 x 1 and 1 x 1, or
#   ABFS_BIG_SOURCES x ABFS_BIG_ROUNDS). svg: JSON logs and SVGs of
#   luxembourg_osm and kron:22.
# OUT gets summary.txt, compare.txt, calibrate.txt, wisdom.yaml and logs.tar.gz (with the adaptive
# plan's, the oracle's and the best single strategy's level logs of every compared graph, kept
# across calls into the same OUT, and written after each graph: a run cut short by an outer time
# limit keeps the graphs it finished).
# bench/suite_verdict.py LOGS... marks each graph's targets in each run's logs.tar.gz and pooled
# over runs (of one build and wisdom: one call's ratios move 5-15%).
set -uo pipefail
bundle=$1; final=$2; shift 2
mkdir -p "$final"
work=$(mktemp -d)
# A second call into the same OUT adds to its logs instead of replacing them.
[ -f "$final/logs.tar.gz" ] && tar -xzf "$final/logs.tar.gz" -C "$work"
export ABFS_DATA_DIR=$bundle/data ABFS_CACHE_DIR=/tmp/abfs-cache
export ABFS_WISDOM=${ABFS_WISDOM:-$final/wisdom.yaml}
run() { "$bundle/run.sh" "$@"; }
save_logs() { tar -czf "$final/logs.tar.gz.part" -C "$work" . && mv "$final/logs.tar.gz.part" "$final/logs.tar.gz"; }
touch "$final/summary.txt" "$final/compare.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> "$final/summary.txt" 2>&1
compare() {
  for g in "$@"; do
    name=$(basename "$g" | tr ':' '_')
    timeout "${ABFS_COMPARE_TIMEOUT:-240}" \
      "$bundle/run.sh" abfs compare "$g" --random-sources "${ABFS_SOURCES:-4}" --rounds "${ABFS_ROUNDS:-2}" \
      --json "$work/compare_$name.json" --log "$work/levels_$name.json" \
      > "$work/compare_$name.txt" 2>&1
    echo "rc=$? $(grep '^|' "$work/compare_$name.txt")" | tee -a "$final/compare.txt"
    grep '^mean' "$work/compare_$name.txt" | tee -a "$final/compare.txt"
    # Every failure line, wherever it is (the validation failures come first, the summary last).
    grep -i "error\|fail" "$work/compare_$name.txt" | grep -v '^  ' >> "$final/compare.txt" || true
    save_logs
  done
}
for step in "$@"; do
  case $step in
    calibrate|patient)
      flag=--quick; [ "$step" = patient ] && flag=--patient
      t0=$SECONDS
      run abfs calibrate $flag --out "$final/wisdom.yaml" > "$final/calibrate.txt" 2>&1
      echo "calibrate $flag rc=$? $((SECONDS - t0)) s" | tee -a "$final/summary.txt" ;;
    tests)
      timeout 400 "$bundle/run.sh" abfs_gpu_tests > "$work/gpu_tests.log" 2>&1
      rc=$?
      # The real-graph cases skip the graphs the bundle lacks: say how many it had (a bundle
      # without them passed 39/39 with 39,000 assertions fewer, 2026-11-28).
      bundled=$(ls "$bundle/data" 2>/dev/null | wc -l)
      echo "gpu_tests rc=$rc $(grep -E '^\[doctest\] (test cases|assertions)' "$work/gpu_tests.log" | tr '\n' ' ')(real graphs in the bundle: $bundled)" | tee -a "$final/summary.txt"
      grep -B2 -A8 "ERROR" "$work/gpu_tests.log" | head -60 >> "$final/summary.txt" ;;
    compare)
      if [ -n "${ABFS_GRAPHS:-}" ]; then
        graphs=(); for g in $ABFS_GRAPHS; do [ -e "$bundle/data/$g" ] && graphs+=("$bundle/data/$g") || graphs+=("$g"); done
        compare "${graphs[@]}"
      else
        compare "$bundle"/data/*.gz kron:22 uniform:1048576:8 uniform:8388608:8
      fi ;;
    big)
      # At the suite's 4 x 2 each takes over 290 s (H200, 2026-11-28): kron:24 2 x 1 (164 s),
      # uniform:100000000:4 1 x 1 (226 s on the H100), unless ABFS_BIG_SOURCES / ABFS_BIG_ROUNDS say.
      ABFS_SOURCES=${ABFS_BIG_SOURCES:-2} ABFS_ROUNDS=${ABFS_BIG_ROUNDS:-1} compare kron:24
      ABFS_SOURCES=${ABFS_BIG_SOURCES:-1} ABFS_ROUNDS=${ABFS_BIG_ROUNDS:-1} compare uniform:100000000:4 ;;
    svg)
      for g in "$bundle/data/luxembourg_osm.mtx.gz" kron:22 "$bundle/data/uk-2007-05-100000.txt.gz" "$bundle/data/cnr-2000.txt.gz"; do
        name=$(basename "$g" | tr ':' '_'); name=${name%%.*}
        run abfs run "$g" --log "$work/level_log_$name.json" > "$work/run_$name.txt" 2>&1
        run abfs report "$work/level_log_$name.json" --out "$work/level_log_$name.svg" >> "$final/summary.txt" 2>&1
        grep -E "^(plan|total)" "$work/run_$name.txt" >> "$final/summary.txt"
      done ;;
  esac
done
save_logs
