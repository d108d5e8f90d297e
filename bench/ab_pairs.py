#!/usr/bin/env python3
"""Paired A/B of two abfs builds from a bench/ab_suite.sh run: per graph and round, build A's
adaptive-plan BFS times summed over build B's, and each build's sums against its own best single
strategy and oracle.

Input: the folder ab.tar.gz was unpacked into (A1/, B1/, A2/, ... each with compare_G.json).
ab_suite.sh runs one process per build a round, their order alternating by round, so drift between
processes falls on both alike; one process's BFS sums still move 3-10% on the small graphs
(docs/PERFORMANCE.md, seventy-first session: soc-Slashdot0902 0.907-1.102 in one A/B), so read the
median over rounds against that spread.

Per graph: A / B by round and their median; then, medians over rounds, A's sums against its best
single strategy (the plan of the smallest sum in that process) and its oracle, and B's. Sums are
over every BFS of the compare (sources x rounds), as suite_verdict.py's "sums" row.

Usage: bench/ab_pairs.py FOLDER
"""
import json
import os
import statistics
import sys


def sums(compare):
    """(adaptive, best single strategy, oracle) BFS-time sums of one compare_G.json, ms."""
    plans = compare["plans"]
    best = min(sum(p["ms"]) for name, p in plans.items() if name not in ("auto", "oracle"))
    return sum(plans["auto"]["ms"]), best, sum(plans["oracle"]["ms"])


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None  # that process's compare did not finish (ab_suite.sh's timeout)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("Usage: ")[1])
    folder = sys.argv[1]
    rounds = sorted(int(d[1:]) for d in os.listdir(folder) if d[:1] == "A" and d[1:].isdigit())
    graphs = sorted({f[len("compare_"):-len(".json")] for r in rounds for f in os.listdir(os.path.join(folder, f"A{r}"))
                     if f.startswith("compare_") and f.endswith(".json")})
    for g in graphs:
        ratios, a_best, a_oracle, b_best, b_oracle = [], [], [], [], []
        for r in rounds:
            a = load(os.path.join(folder, f"A{r}", f"compare_{g}.json"))
            b = load(os.path.join(folder, f"B{r}", f"compare_{g}.json"))
            if a is None or b is None:
                continue
            (sa, ba, oa), (sb, bb, ob) = sums(a), sums(b)
            ratios.append(sa / sb)
            a_best.append(sa / ba)
            a_oracle.append(sa / oa)
            b_best.append(sb / bb)
            b_oracle.append(sb / ob)
        if not ratios:
            print(f"{g}: no round with both builds' compares")
            continue
        med = statistics.median
        print(f"{g}: A / B {' '.join(f'{x:.3f}' for x in ratios)} (median {med(ratios):.3f}); "
              f"A: a / best {med(a_best):.3f}, a / oracle {med(a_oracle):.3f}; "
              f"B: a / best {med(b_best):.3f}, a / oracle {med(b_oracle):.3f}")


if __name__ == "__main__":
    main()
