#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs build/tests/abfs_gpu_tests build/tests/abfs_tests ../shared/data/*.gz
# Usage: bench/device_suite.sh BUNDLE OUT [tests|sanitize|perf|single|sweep]...
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
      # Every kernel (expand, scatter, gather) runs in the privatized_queue tests; the executor
      # test adds the switches between host and device.
      for tool in memcheck racecheck synccheck; do
        for tc in '*privatized_queue*edge case*,*one-slot*' '*executor*edge case*'; do
          "$san" --tool $tool --error-exitcode 9 "$bundle/bin/abfs_gpu_tests" \
            -tc="$tc" > "$out/sanitize_$tool.log" 2>&1
          echo "compute-sanitizer $tool [$tc] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize_$tool.log" | tail -1) $(grep -E '^\[doctest\] test cases' "$out/sanitize_$tool.log")" | tee -a "$out/summary.txt"
          cp "$out/sanitize_$tool.log" "$out/sanitize_${tool}_$(echo "$tc" | tr -dc 'a-z').log"
        done
      done ;;
    perf)
      : > "$out/perf.txt"
      for g in "$bundle"/data/*.gz kron:22 uniform:1048576:8; do
        run abfs run "$g" --random-sources 16 --validate --log "$out/log_$(basename "$g" | tr ':' '_').json" > "$out/run.tmp" 2>&1
        rc=$?
        { echo "== $g rc=$rc"; head -2 "$out/run.tmp"; grep -E '^median|^total|^validation' "$out/run.tmp"; } >> "$out/perf.txt"
        cat "$out/run.tmp" >> "$out/perf_full.txt"
      done
      grep -E '^==|^median|^validation' "$out/perf.txt" ;;
    single)
      # Each strategy forced on every level (cpu_expand alone; privatized_queue from level 0).
      for g in "$bundle"/data/*.gz kron:22 uniform:1048576:8; do
        for st in cpu_expand privatized_queue; do
          echo "single $(basename "$g") $st $(run abfs run "$g" --random-sources 16 --strategy $st | grep '^median' | cut -d, -f1,2)"
        done
      done | tee "$out/single.txt" ;;
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

