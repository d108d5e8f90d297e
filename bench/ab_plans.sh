#!/usr/bin/env bash
# Interleaved A/B of abfs builds (or wisdom files, or forced strategies) on the GPU machine: every
# configuration runs each graph in turn, round after round, so that drift between the runs falls
# on all of them alike (the small graphs move ~10% between calls; see docs/PERFORMANCE.md).
# Runs from the repository root over a bundle made by
#   ../shared/tools/device-bundle .device build/abfs OTHER_ABFS_BUILDS... ../shared/data/*.gz
# (a second build bundled under another file name, e.g. cp build/abfs /tmp/abfs_old first).
# Usage: bench/ab_plans.sh BUNDLE OUT ROUNDS "CONFIG..." GRAPH...
#   CONFIG: PROGRAM[:WISDOM[:STRATEGY]]: a program in BUNDLE/bin, a wisdom file in BUNDLE (or
#   "-" for the default: the shipped profiles), a strategy for --strategy (default auto).
#   A --wisdom file older than the program's shipped profile for the same fingerprint is not
#   used (Wisdom::merge keeps the newer calibration), so compare builds of different registry
#   versions each with its own wisdom, or rebuild with the wisdom to test shipped.
#   GRAPH: a file in BUNDLE/data by name, or a generator spec (kron:22, uniform:1048576:8).
#   ABFS_AB_SOURCES: sources per run (16).
# OUT gets ab.txt (round, graph, config, median ms over the sources) and the JSON level log of
# every run in OUT/logs (for bench/level_gap.py-style analysis by level).
set -uo pipefail
bundle=$1; out=$2; rounds=$3; configs=$4; shift 4
mkdir -p "$out/logs"
export ABFS_DATA_DIR=$bundle/data ABFS_CACHE_DIR=${ABFS_CACHE_DIR:-/tmp/abfs-cache}
path_of() { case $1 in *:*) echo "$1" ;; *) echo "$bundle/data/$1" ;; esac; }
# Each graph's CSR cache is written once before the timed rounds.
for g in "$@"; do "$bundle/run.sh" abfs run "$(path_of "$g")" --random-sources 1 --cpu-only > /dev/null 2>&1; done
for round in $(seq 1 "$rounds"); do
  for g in "$@"; do
    name=$(basename "$g" | cut -d. -f1 | tr ':' '_')
    for config in $configs; do
      IFS=: read -r program wisdom strategy <<< "$config"
      args=(run "$(path_of "$g")" --random-sources "${ABFS_AB_SOURCES:-16}" --strategy "${strategy:-auto}")
      [ -n "${wisdom:-}" ] && [ "$wisdom" != "-" ] && args+=(--wisdom "$bundle/$wisdom")
      tag=$(echo "$config" | tr ':/' '__')
      ms=$("$bundle/run.sh" "$program" "${args[@]}" --log "$out/logs/${name}_${tag}_$round.json" 2>&1 |
           awk '/^median/ {print $4}')
      echo "$round $name $config ${ms:-failed}" | tee -a "$out/ab.txt"
    done
  done
done
