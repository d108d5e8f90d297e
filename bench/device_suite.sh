#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs build/tests/abfs_gpu_tests build/tests/abfs_tests ../shared/data/*.gz
# (add build/bench/bench_strategies build/bench/bench_bfs for the levels and bfs steps).
# Usage: bench/device_suite.sh BUNDLE OUT [tests|sanitize|perf|single|levels|bfs|sweep]...
# Writes short summaries (summary.txt, perf.txt, single.txt, sweep.txt) and logs.tar.gz to OUT.
set -uo pipefail
bundle=$1; final=$2; shift 2
# Short summaries go straight to the final folder (so a run cut short still returns them); full
# logs go to a work folder and come back as one tarball (the device tool returns at most 8 files).
out=$(mktemp -d)
for f in summary.txt perf.txt single.txt sweep.txt; do ln -sf "$final/$f" "$out/$f"; : > "$final/$f"; done
export ABFS_DATA_DIR=$bundle/data ABFS_CACHE_DIR=/tmp/abfs-cache
run() { "$bundle/run.sh" "$@"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/device.txt" 2>&1
for step in "$@"; do
  case $step in
    tests)
      run abfs_gpu_tests > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/gpu_tests.log" | tr '\n' ' ')" | tee -a "$out/summary.txt" ;;
    sanitize)
      san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
      export LD_LIBRARY_PATH=$bundle/lib
      # Every kernel runs in the strategy-alone tests on small graphs (tiny queues force the
      # overflow, spill and hand-over paths); the executor test adds every switch and conversion.
      # racecheck and synccheck do not support dynamic parallelism: dynamic_parallel's kernels
      # (their own module) get memcheck only.
      for tool in memcheck racecheck synccheck; do
        patterns=('*alone*edge case*,*one-slot*,*many levels*' '*not applicable*')
        [ $tool = memcheck ] && patterns+=('*dynamic_parallel runs*')
        for tc in "${patterns[@]}"; do
          timeout "${ABFS_SANITIZE_TIMEOUT:-170}" "$san" --tool $tool --error-exitcode 9 "$bundle/bin/abfs_gpu_tests" \
            -tc="$tc" > "$out/sanitize_$tool.log" 2>&1
          echo "compute-sanitizer $tool [$tc] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize_$tool.log" | tail -1) $(grep -E '^\[doctest\] test cases' "$out/sanitize_$tool.log") $(grep -c 'not supported' "$out/sanitize_$tool.log") unsupported-warnings" | tee -a "$out/summary.txt"
          cp "$out/sanitize_$tool.log" "$out/sanitize_${tool}_$(echo "$tc" | tr -dc 'a-z').log"
        done
      done ;;
    perf)
      : > "$out/perf.txt"
      for g in "$bundle"/data/*.gz kron:22 uniform:1048576:8 uniform:8388608:8; do
        run abfs run "$g" --random-sources 16 --validate --log "$out/log_$(basename "$g" | tr ':' '_').json" > "$out/run.tmp" 2>&1
        rc=$?
        { echo "== $g rc=$rc"; head -2 "$out/run.tmp"; grep -E '^median|^total|^validation' "$out/run.tmp"; } >> "$out/perf.txt"
        cat "$out/run.tmp" >> "$out/perf_full.txt"
      done
      grep -E '^==|^median|^validation' "$out/perf.txt" ;;
    single)
      # Each strategy forced on every level where it applies, then the rule with small levels on
      # the host: median ms and GTEPS over 16 sources.
      for g in "$bundle"/data/*.gz kron:22 uniform:1048576:8 uniform:8388608:8; do
        for st in cpu_expand one_block dynamic_parallel privatized_queue gather_pull; do
          echo "single $(basename "$g") $st $(run abfs run "$g" --random-sources 16 --strategy $st | grep '^median' | cut -d, -f1,2)"
        done
        echo "single $(basename "$g") auto-small-on-host $(run abfs run "$g" --random-sources 16 --small-on-host | grep '^median' | cut -d, -f1,2)"
      done | tee "$out/single.txt" ;;
    levels)
      # bench_strategies: every strategy on every level of kron:22 and uniform:8388608:8.
      run bench_strategies --benchmark_out="$out/bench_strategies.json" --benchmark_out_format=json \
        --benchmark_filter="${ABFS_LEVEL_FILTER:-.}" > "$out/bench_strategies.txt" 2>&1
      echo "bench_strategies rc=$?" | tee -a "$out/summary.txt"
      cp "$out/bench_strategies.json" "$final/" ;;
    bfs)
      # bench_bfs: whole BFS per plan and the Rodinia baseline (graphs: $ABFS_BENCH_GRAPHS).
      run bench_bfs --benchmark_out="$out/bench_bfs.json" --benchmark_out_format=json > "$out/bench_bfs.txt" 2>&1
      echo "bench_bfs rc=$?" | tee -a "$out/summary.txt"
      cp "$out/bench_bfs.json" "$final/" ;;
    sweep)
      # Threshold of the built-in rule: median ms over 16 sources per value.
      for g in "$bundle"/data/email-Enron.txt.gz "$bundle"/data/wave.mtx.gz "$bundle"/data/soc-Slashdot0902.txt.gz kron:20; do
        for t in 2048 4096 8192 16384 32768; do
          echo "sweep $(basename "$g") threshold=$t $(run abfs run "$g" --random-sources 16 --threshold $t | grep '^median' | cut -d, -f1)"
        done
      done | tee "$out/sweep.txt" ;;
  esac
done
tar -czhf "$final/logs.tar.gz" -C "$out" --exclude run.tmp .

