#!/usr/bin/env bash
# Interleaved A/B of two abfs builds over `abfs compare` (issue 4's targets), on the GPU machine.
# Each round runs one compare process per build over the graphs, the builds' order alternating
# by round (A first in odd rounds), so that drift between processes (the host's speed moved
# forced cpu_expand on luxembourg_osm 1.87-3.04 ms by process, 2026-11-28) falls on both alike.
# Bundles: A as made by
#   ../shared/tools/device-bundle .device build/abfs ../shared/data/*.gz
# B a folder inside it with its own bin/abfs and run.sh, sharing A's lib and data:
#   mkdir -p .device/old/bin && cp OLD_ABFS .device/old/bin/abfs && cp .device/run.sh .device/old/
# Usage: bench/ab_suite.sh BUNDLE_A BUNDLE_B OUT ROUNDS [GRAPH...]
#   GRAPH: a file in BUNDLE_A/data by name or a generator spec; default the nine bundled graphs.
#   ABFS_SOURCES / ABFS_ROUNDS: per compare (4 x 2, as bench/planner_suite.sh).
#   ABFS_AB_LEVEL_ROUNDS: the rounds whose level logs are kept (1); the compare JSONs (every
#   plan's BFS times) are kept for all. Fifteen processes' level logs of three graphs made an
#   18 MB archive, which the device tool did not bring back (2026-11-28).
# OUT gets ab.tar.gz: A1/, B1/, A2/, ... each a bench/planner_suite.sh run (compare_G.json,
# compare_G.txt and, for the kept rounds, the level logs), for bench/suite_verdict.py by build:
#   tar -xzf ab.tar.gz; bench/suite_verdict.py A? ; bench/suite_verdict.py B?
# and for the two builds paired by round (A's BFS-time sums over B's): bench/ab_pairs.py FOLDER.
set -uo pipefail
a=$1; b=$2; out=$3; rounds=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)
for d in lib data; do [ -e "$b/$d" ] || ln -sfn "$(cd "$a" && pwd)/$d" "$b/$d"; done
if [ $# -gt 0 ]; then graphs="$*"; else graphs=$(cd "$a/data" && ls); fi
work=$(mktemp -d)
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  order="A B"; [ $((round % 2)) -eq 0 ] && order="B A"
  for build in $order; do
    bundle=$a; [ "$build" = B ] && bundle=$b
    run_out=$work/$build$round
    t0=$SECONDS
    ABFS_WISDOM=${ABFS_WISDOM:-/tmp/no-such.yaml} ABFS_GRAPHS="$graphs" ABFS_COMPARE_TIMEOUT=${ABFS_COMPARE_TIMEOUT:-120} \
      bash "$here/planner_suite.sh" "$bundle" "$run_out" compare > "$run_out.log" 2>&1
    mkdir -p "$run_out/logs" && tar -xzf "$run_out/logs.tar.gz" -C "$run_out/logs" && rm "$run_out/logs.tar.gz"
    if [ "$round" -gt "${ABFS_AB_LEVEL_ROUNDS:-1}" ]; then rm -f "$run_out"/logs/levels_*.json; fi
    mv "$run_out"/logs/* "$run_out"/ && rmdir "$run_out/logs"
    echo "round $round $build $((SECONDS - t0)) s" | tee -a "$work/ab.txt"
  done
done
tar -czf "$out/ab.tar.gz" -C "$work" .
ls -l "$out/ab.tar.gz"
