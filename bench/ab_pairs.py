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
over every BFS of the compare (sources x rounds), by suite_verdict.py's sum_ratios; a round where
either build's compare had a BFS fail validation is left out and named INVALID.

Usage: bench/ab_pairs.py FOLDER
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite_verdict import load_run, sum_ratios  # noqa: E402  (one run's compares, and their sums' ratios)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("Usage: ")[1])
    folder = sys.argv[1]
    rounds = sorted(int(d[1:]) for d in os.listdir(folder) if d[:1] == "A" and d[1:].isdigit())
    runs = {name: load_run(os.path.join(folder, name), None) for r in rounds for name in (f"A{r}", f"B{r}")}
    graphs = sorted({g for run in runs.values() for g in run})
    for g in graphs:
        ratios, ratios_a, ratios_b, invalid = [], [], [], []
        for r in rounds:
            a, b = runs[f"A{r}"].get(g), runs[f"B{r}"].get(g)
            if a is None or b is None:
                continue  # that process's compare did not finish (ab_suite.sh's timeout)
            if a[2] or b[2]:
                invalid.append(r)  # a BFS that failed validation: no time of that round counts
                continue
            ra, rb = sum_ratios(a[0]), sum_ratios(b[0])
            if ra is None or rb is None:
                continue
            ratios.append(sum(a[0]["auto"]) / sum(b[0]["auto"]))
            ratios_a.append(ra)
            ratios_b.append(rb)
        note = f" (rounds {invalid} INVALID)" if invalid else ""
        if not ratios:
            print(f"{g}: no round with both builds' compares{note}")
            continue
        med = statistics.median
        print(f"{g}: A / B {' '.join(f'{x:.3f}' for x in ratios)} (median {med(ratios):.3f}); "
              f"A: a / best {med(x[0] for x in ratios_a):.3f}, a / oracle {med(x[1] for x in ratios_a):.3f}; "
              f"B: a / best {med(x[0] for x in ratios_b):.3f}, a / oracle {med(x[1] for x in ratios_b):.3f}{note}")


if __name__ == "__main__":
    main()
