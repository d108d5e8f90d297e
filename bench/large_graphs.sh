#!/usr/bin/env bash
# Issue 4 on the GPU machine: the per-level oracle's trials (every strategy timed at every level,
# with the cost models' predictions beside them) on uniform graphs from L2-resident to 100
# million vertices, and kron:24, for the models' terms for memory traffic that misses the L2.
# Runs from the repository root over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs
# Usage: bench/large_graphs.sh BUNDLE OUT [GRAPH...]   (default: the sweep below)
# OUT gets large_graphs.txt (each run's last lines) and large_graphs.tar.gz (the JSON logs:
# exhaustive_NAME.json, and adaptive_NAME.json from 2 random sources).
set -uo pipefail
bundle=$1; final=$2; shift 2
graphs=("$@")
[ ${#graphs[@]} -gt 0 ] || graphs=(uniform:2097152:8 uniform:4194304:8 uniform:8388608:8 uniform:16777216:8
                                   uniform:33554432:4 kron:24 uniform:100000000:4)
work=$(mktemp -d)
export ABFS_CACHE_DIR=/tmp/abfs-cache
for g in "${graphs[@]}"; do
  name=$(echo "$g" | tr ':' '_')
  t0=$SECONDS
  timeout "${ABFS_LARGE_TIMEOUT:-200}" "$bundle/run.sh" abfs run "$g" --mode exhaustive \
    --log "$work/exhaustive_$name.json" > "$work/exhaustive_$name.txt" 2>&1
  echo "$g exhaustive rc=$? $((SECONDS - t0)) s: $(grep -E '^(total|oracle)' "$work/exhaustive_$name.txt" | tr '\n' ' ')" \
    | tee -a "$final/large_graphs.txt"
  t0=$SECONDS
  timeout "${ABFS_LARGE_TIMEOUT:-200}" "$bundle/run.sh" abfs run "$g" --random-sources 2 \
    --log "$work/adaptive_$name.json" > "$work/adaptive_$name.txt" 2>&1
  echo "$g adaptive rc=$? $((SECONDS - t0)) s: $(grep -E '^(total|median)' "$work/adaptive_$name.txt" | tr '\n' ' ')" \
    | tee -a "$final/large_graphs.txt"
  tar -czf "$final/large_graphs.tar.gz" -C "$work" .  # after each graph: a run cut short keeps the rest
done
