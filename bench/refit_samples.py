#!/usr/bin/env python3
"""Refits one cost model from the samples a calibration wrote (`abfs calibrate --samples FILE`) and
prices the one-block loop's carried levels of plans' level logs with it, uncorrected.

The fit is planner/cost_model.cpp's: non-negative least squares of the relative error (each
sample's features over its time against 1), dropping the most negative coefficient until none
is; optionally with every sweep graph weighing the same (--by-graph: each sample weighted by 1 /
its graph's samples), and with the `discovered` term fitted after the others (--arcs-first:
calibrate.cpp's way for one_block); calibrate.cpp's other fixed terms (cpu_expand's probes,
dynamic_parallel's one-block terms taken from one_block's fit) are left free here. It prints the
coefficients, the relative error's median / p90 by sweep graph, and for each level log (`abfs
run|compare --log X.json`, the plan's, not the oracle's; one_block only) the carried one-block
levels' time over the refitted price (median) and the error's median / p90: a level's
discoveries are the next level's frontier; a dynamic_parallel one-block level right after a grid
level (the loop's relaunch) is left out.

Usage: bench/refit_samples.py SAMPLES.csv[.gz] [--model one_block] [--by-graph] [--arcs-first]
       [LOG.json...]
"""
import argparse
import collections
import csv
import gzip
import json
import statistics


def load_samples(path, model):
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt") as f:
        rows = csv.reader(f)
        next(rows)
        for graph, name, us, features in rows:
            if name != model:
                continue
            values = {}
            for term in features.split(";"):
                key, value = term.split("=")
                values[key] = float(value)
            out.append((graph, float(us), values))
    return out


def solve(a, b):
    """Solves the square system a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for c in reversed(range(n)):
        x[c] = (m[c][n] - sum(m[c][k] * x[k] for k in range(c + 1, n))) / m[c][c]
    return x


def fit(samples, names, fixed=None, weights=None):
    """cost_model.cpp's fit: minimizes sum w ((x . c - t) / t)^2 over c >= 0, fixed terms given."""
    fixed = fixed or {}
    weights = weights or [1.0] * len(samples)
    rows = [[f[n] / us for n in names] for _, us, f in samples]
    target = [1.0 - sum(v * row[names.index(n)] for n, v in fixed.items()) for row in rows]
    active = [i for i, n in enumerate(names) if n not in fixed and any(row[i] != 0.0 for row in rows)]
    coef = {n: fixed.get(n, 0.0) for n in names}
    while active:
        a = [[sum(w * r[i] * r[j] for r, w in zip(rows, weights)) for j in active] for i in active]
        b = [sum(w * r[i] * t for r, t, w in zip(rows, target, weights)) for i in active]
        x = solve(a, b)
        if x is None:
            active.pop()
            continue
        worst = min(range(len(x)), key=lambda k: x[k])
        if x[worst] >= 0.0:
            for k, i in enumerate(active):
                coef[names[i]] = x[k]
            break
        active.pop(worst)
    return coef


def price(coef, features):
    return sum(coef.get(k, 0.0) * v for k, v in features.items())


def quantiles(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def carried_block_levels(path):
    """(features as one_block computes them for a carried level, measured us) of a plan's log."""
    with open(path) as f:
        log = json.load(f)
    out = []
    for run in log["runs"]:
        levels = run["levels"]
        for i, level in enumerate(levels[:-1]):
            if not level["reason"].startswith("continued on the device (one-block loop)"):
                continue
            if i > 0 and "grid level" in levels[i - 1]["reason"]:
                continue  # the loop's relaunch after a grid level (dynamic_parallel's block_relaunch)
            features = {"level": 1.0, "frontier_vertices": level["frontier_vertices"],
                        "frontier_edges": level["frontier_edges"],
                        "discovered": levels[i + 1]["frontier_vertices"]}
            out.append((features, level["time_us"]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples")
    parser.add_argument("logs", nargs="*")
    parser.add_argument("--model", default="one_block")
    parser.add_argument("--by-graph", action="store_true")
    parser.add_argument("--arcs-first", action="store_true")
    args = parser.parse_intermixed_args()
    if args.logs and args.model != "one_block":
        raise SystemExit("level logs are priced by one_block's features: leave them out for --model " + args.model)
    samples = load_samples(args.samples, args.model)
    if not samples:
        raise SystemExit(f"{args.samples}: no samples of model {args.model}")
    names = list(samples[0][2].keys())
    weights = None
    if args.by_graph:
        count = collections.Counter(graph for graph, _, _ in samples)
        weights = [1.0 / count[graph] for graph, _, _ in samples]
    if args.arcs_first and "discovered" in names and "frontier_edges" in names:
        arcs = fit(samples, names, {"discovered": 0.0}, weights)["frontier_edges"]
        coef = fit(samples, names, {"frontier_edges": arcs}, weights)
    else:
        coef = fit(samples, names, None, weights)
    print(args.model, " ".join(f"{n}={coef[n]:.4g}" for n in names))
    by_graph = collections.defaultdict(list)
    for graph, us, features in samples:
        by_graph[graph].append(abs(price(coef, features) - us) / us)
    for graph, errors in sorted(by_graph.items()):
        median, p90 = quantiles(errors)
        print(f"  sweep {graph:24s} {len(errors):5d} samples  error {100 * median:3.0f} / {100 * p90:3.0f}%")
    for path in args.logs:
        levels = carried_block_levels(path)
        if not levels:
            continue
        ratios = [us / price(coef, f) for f, us in levels]
        median, p90 = quantiles([abs(price(coef, f) - us) / us for f, us in levels])
        print(f"  log {path}: {len(levels)} carried one-block levels, time / price {statistics.median(ratios):.2f}, "
              f"error {100 * median:.0f} / {100 * p90:.0f}%")


if __name__ == "__main__":
    main()
