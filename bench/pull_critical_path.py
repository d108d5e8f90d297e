#!/usr/bin/env python3
"""Replays one bottom-up (gather_pull) level on the host and lists its critical path: for every
unvisited vertex, the in-arcs a scan walks to its first frontier in-neighbour (or to the end of
its in-list), and per word of 32 vertices (one warp of expand_bottom_up) the dependent steps of
its long in-lists (over 32 in-arcs: runs of 32 in steps of 1, 2, then 4 runs; walked one after
another by the warp; in-lists over --hub in-arcs are shared by the grid past their first --hub,
as gather_pull 8 does past 4,096 and 9 past 256). The worst warps bound the level's time (~0.5 us a step on the H100).

Input: a SNAP-style edge list (SRC DST per line, '#'/'%' comments, optionally .gz), directed,
vertex ids 0-based as abfs loads them. Example (uk-2007-05@100000's slow level, 2026-11-25):
  bench/pull_critical_path.py ../shared/data/uk-2007-05-100000.txt.gz 13387 4
"""
import argparse
import collections
import gzip
import math


def long_list_steps(arcs):
    runs, steps, covered, strides = math.ceil(arcs / 32), 0, 0, 1
    while covered < runs:
        covered += strides
        steps += 1
        strides = min(2 * strides, 4)
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graph")
    parser.add_argument("source", type=int)
    parser.add_argument("level", type=int, help="the level whose frontier the bottom-up step expands")
    parser.add_argument("--hub", type=int, default=256, help="in-arcs a warp walks of one list (gather_pull 9; 4,096 in version 8)")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    opener = gzip.open if args.graph.endswith(".gz") else open
    arcs = set()
    with opener(args.graph, "rt") as f:
        for line in f:
            if line[:1] in "#%" or not line.strip():
                continue
            a, b = map(int, line.split()[:2])
            if a != b:
                arcs.add((a, b))
    out, into = collections.defaultdict(list), collections.defaultdict(list)
    n = 0
    for a, b in sorted(arcs):
        out[a].append(b)
        into[b].append(a)
        n = max(n, a + 1, b + 1)
    levels, seen, frontier = [], {args.source}, [args.source]
    while frontier:
        levels.append(frontier)
        frontier = [v for u in frontier for v in out[u] if not (v in seen or seen.add(v))]
    print("levels:", [len(level) for level in levels])
    if args.level >= len(levels):
        raise SystemExit(f"the BFS from {args.source} has {len(levels)} levels")
    current = set(levels[args.level])
    visited = {v for level in levels[: args.level + 1] for v in level}
    warp_steps, scans, listed = collections.Counter(), [], []
    for v in range(n):
        if v in visited or len(into[v]) <= 32:
            continue
        hit = next((i for i, u in enumerate(into[v]) if u in current), None)
        scanned = len(into[v]) if hit is None else hit + 1
        warp_steps[v // 32] += long_list_steps(min(scanned, args.hub))
        scans.append((scanned, len(into[v]), v, hit is not None))
        if scanned > args.hub:
            listed.append(scanned - args.hub)
    print("worst warps (word, dependent steps):", warp_steps.most_common(args.top))
    print(f"listed for the grid: {len(listed)} in-lists, {sum(listed)} in-arcs past their first {args.hub}")
    print("longest scans (in-arcs scanned, in-list, vertex, parent found):", sorted(scans, reverse=True)[: args.top])


if __name__ == "__main__":
    main()
