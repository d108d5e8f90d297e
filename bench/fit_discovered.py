#!/usr/bin/env python3
"""Fits the coefficient of the discovered-vertices term (privatized_queue and gather_pull
`dram_discovered`, dynamic_parallel `grid_dram_discovered`) from the per-level oracle's trials.

Input: JSON level logs of `abfs run GRAPH --mode exhaustive --log FILE.json` (bench/large_graphs.sh
writes them for uniform graphs of 2^21-10^8 vertices and Kronecker graphs). Each level's trials
hold every strategy's measured time and the cost model's prediction. The fit takes the residual
(measured - predicted) of the strategy's levels of more than 150 us and 1,000 frontier vertices
and regresses it on discovered * device_vertex_miss_share (strategies/strategy.hpp), where
discovered is the next level's frontier size, minimizing the squared relative error as
fit_cost_model does. It prints the coefficient to add to the one the logs were predicted with
(none where the wisdom predates the term), its range when each graph is left out in turn, and the
median / 90th-percentile relative error of the levels before and after. Last, a rough replay per
log: at each level the strategy with the cheapest prediction, without and with the term, and the
sum of the trials' measured times of those picks against the cheapest measured per level (no
conversions, no device-driven runs: a level is one trial's first level).

Usage: bench/fit_discovered.py [--l2-bytes N] LOG.json...   (N: the GPU's L2, default the H100's)
"""
import argparse
import json
import statistics

MODELS = {"privatized_queue": "dram_discovered", "gather_pull": "dram_discovered",
          "dynamic_parallel": "grid_dram_discovered"}
VERTEX_BYTES = 8 + 4 + 4 + 1 / 8  # row offset, distance, parent, visited bit


def vertex_miss_share(vertices, l2_bytes):
    size = vertices * VERTEX_BYTES
    return 1 - l2_bytes / size if size > l2_bytes else 0.0


def trial_levels(path, l2_bytes):
    """(graph, [(frontier vertices, [(strategy, measured us, predicted us, discovered * miss share)])])"""
    with open(path) as f:
        log = json.load(f)
    miss = vertex_miss_share(log["vertices"], l2_bytes)
    levels = []
    for run in log["runs"]:
        for i, level in enumerate(run["levels"]):
            discovered = run["levels"][i + 1]["frontier_vertices"] if i + 1 < len(run["levels"]) else 0
            levels.append((level["frontier_vertices"],
                           [(t["strategy"], t["measured_us"], t["predicted_us"], discovered * miss)
                            for t in level.get("trials", [])]))
    return log["graph"], levels


def level_rows(path, l2_bytes):
    graph, levels = trial_levels(path, l2_bytes)
    for frontier, trials in levels:
        for strategy, measured, predicted, x in trials:
            if strategy in MODELS and measured > 150 and frontier > 1000:
                yield graph, strategy, measured, predicted, x


def fit(rows):
    # min sum ((p + c x - y) / y)^2 over c >= 0
    num = sum(x / y * (y - p) / y for _, _, y, p, x in rows)
    den = sum((x / y) ** 2 for _, _, y, p, x in rows)
    return max(0.0, num / den) if den > 0 else 0.0


def errors(rows, c):
    e = sorted(abs(p + c * x - y) / y for _, _, y, p, x in rows)
    return statistics.median(e), e[min(len(e) - 1, int(0.9 * len(e)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--l2-bytes", type=float, default=52428800.0)
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    rows = [r for path in args.logs for r in level_rows(path, args.l2_bytes)]
    fitted = {}
    for model, feature in MODELS.items():
        mine = [r for r in rows if r[1] == model]
        if not mine:
            continue
        c = fitted[model] = fit(mine)
        graphs = sorted({r[0] for r in mine})
        loo = [fit([r for r in mine if r[0] != g]) for g in graphs if len(graphs) > 1]
        before, after = errors(mine, 0.0), errors(mine, c)
        print(f"{model} {feature}: {c:.4g} us per vertex"
              + (f" (leaving out one graph: {min(loo):.4g}-{max(loo):.4g})" if loo else "")
              + f"; {len(mine)} levels of {len(graphs)} graphs, error median {before[0]:.0%} p90 {before[1]:.0%}"
              + f" -> {after[0]:.0%} {after[1]:.0%}")
    print("replay (ms): cheapest prediction without the term, with it, cheapest measured; changed picks")
    for path in args.logs:
        graph, levels = trial_levels(path, args.l2_bytes)
        totals = [0.0, 0.0, 0.0]
        changed = []
        for number, (_, trials) in enumerate(levels):
            if not trials:
                continue
            old = min(trials, key=lambda t: t[2])
            new = min(trials, key=lambda t: t[2] + fitted.get(t[0], 0.0) * t[3])
            totals[0] += old[1]
            totals[1] += new[1]
            totals[2] += min(t[1] for t in trials)
            if old[0] != new[0]:
                changed.append(f"level {number} {old[0]} -> {new[0]}")
        print(f"  {graph}: {totals[0] / 1000:.2f} {totals[1] / 1000:.2f} {totals[2] / 1000:.2f}; "
              + ("; ".join(changed) if changed else "no pick changes"))


if __name__ == "__main__":
    main()
