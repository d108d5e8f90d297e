#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs build/tests/abfs_gpu_tests build/tests/abfs_tests ../shared/data/*.gz
# Usage: bench/device_suite.sh BUNDLE OUT [tests|sanitize|perf]...
# Writes logs under OUT; prints a short summary last.
set -uo pipefail
bundle=$1; out=$2; shift 2
export ABFS_DATA_DIR=$bundle/data ABFS_CACHE_DIR=/tmp/abfs-cache
run() { "$bundle/run.sh" "$@"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/device.txt" 2>&1
for step in "$@"; do
  case $step in
    tests)
      run abfs_gpu_tests > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$?" | tee -a "$out/summary.txt"
      tail -3 "$out/gpu_tests.log" ;;
    sanitize)
      san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
      export LD_LIBRARY_PATH=$bundle/lib
      for tool in memcheck racecheck synccheck; do
        "$san" --tool $tool --error-exitcode 9 "$bundle/bin/abfs_gpu_tests" \
          -tc='*edge case*,*one-slot*' > "$out/sanitize_$tool.log" 2>&1
        echo "compute-sanitizer $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize_$tool.log" | tail -1)" | tee -a "$out/summary.txt"
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
    sweep)
      # Threshold of the built-in rule: median ms over 16 sources per value.
      for g in "$bundle"/data/email-Enron.txt.gz "$bundle"/data/wave.mtx.gz "$bundle"/data/soc-Slashdot0902.txt.gz kron:20; do
        for t in 2048 4096 8192 16384 32768; do
          echo "sweep $(basename "$g") threshold=$t $(run abfs run "$g" --random-sources 16 --threshold $t | grep '^median' | cut -d, -f1)"
        done
      done | tee "$out/sweep.txt" ;;
  esac
done
tar -czf "$out/logs.tar.gz" -C "$out" --exclude logs.tar.gz --exclude run.tmp . 2>/dev/null
