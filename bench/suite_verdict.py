#!/usr/bin/env python3
"""Issue 4's targets per graph over one or more `bench/planner_suite.sh ... compare` runs, and pooled.

One call's suite moves small graphs' ratios by 5-15% (the host's speed by call, a slow round;
docs/PERFORMANCE.md, thirty-second to thirty-fourth sessions), so a verdict wants several calls.
Input: the runs' logs, each a logs.tar.gz the suite leaves or a folder it was unpacked into, with
compare_G.json (every plan's BFS times) and levels_G.json (the adaptive plan's level records).

Per graph and run: adaptive / best single strategy and adaptive / oracle (medians of the BFS
times, as `abfs compare` reports them) and the per-level prediction error's median and 90th
percentile, with the targets met marked: B (adaptive <= best single), O (adaptive <= 1.05 x
oracle), m (median error <= 15%), p (p90 <= 40%). "pooled" puts every run's BFS times of a plan
together (the best single strategy is chosen over the pooled medians) and every run's levels:
pool only runs of one build and one wisdom. Last, per run and pooled, on how many graphs both
speed targets (B and O), each error target and all four hold.

A run of a graph where any plan's result failed validation (compare_G.json's
validation_failures, or for older runs the "failed validation" lines `abfs compare` printed,
kept in compare_G.txt) is marked INVALID and meets no target: a BFS that stopped early is fast.
uk-2007-05@100000's BFS from 45121 stopped after 793 of its 55,006 vertices in 13 of 36 runs of
2026-11-28 (a dangling pointer, fixed in cfd5ec4), and the suites counted its targets met.

After each graph's pooled row, a "sums" row: per run, the adaptive plan's BFS times summed
over against the best single strategy's (by that run's sums) and the oracle's, paired by
source, and the medians of those ratios over the runs. On the small host-bound graphs the
medians of 8 BFSs swing with the host by process (rome99's a / best 0.84-1.20 within one build;
cnr-2000's median falls between a tiny component's BFS and a large one's) where these move
little: the way to read an A/B of two builds there (docs/PERFORMANCE.md, sixty-eighth session).

Usage: bench/suite_verdict.py RUN [RUN ...]   (RUN: a logs.tar.gz or a folder; named by its path)
"""
import glob
import json
import os
import statistics
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from level_gap import errors as level_errors, quantile  # noqa: E402  (abfs compare's per-level errors)

ORACLE_BOUND = 1.05
MEDIAN_BOUND = 0.15
P90_BOUND = 0.40


def verdict(times, errors, failures=()):
    """times: plan name -> BFS times (ms); errors: per-level errors; failures: the results that
    failed validation. Returns the row's numbers."""
    medians = {plan: statistics.median(ms) for plan, ms in times.items() if ms}
    singles = {plan: ms for plan, ms in medians.items() if plan not in ("auto", "oracle")}
    best = min(singles, key=singles.get)
    adaptive, oracle = medians["auto"], medians["oracle"]
    row = {
        "best": best,
        "best_ms": singles[best],
        "auto_ms": adaptive,
        "oracle_ms": oracle,
        "median_error": quantile(errors, 0.5) if errors else float("nan"),
        "p90_error": quantile(errors, 0.9) if errors else float("nan"),
    }
    row["marks"] = "".join(
        mark if ok else "-"
        for mark, ok in (
            ("B", adaptive <= singles[best]),
            ("O", adaptive <= ORACLE_BOUND * oracle),
            ("m", row["median_error"] <= MEDIAN_BOUND),
            ("p", row["p90_error"] <= P90_BOUND),
        )
    )
    row["failures"] = list(failures)
    if failures:
        row["marks"] = "----"
    return row


def sum_ratios(times):
    """(adaptive / best single, adaptive / oracle) of one run's BFS times summed, the best
    single strategy by its sum; None where a plan has no times."""
    sums = {plan: sum(ms) for plan, ms in times.items() if ms}
    singles = {plan: total for plan, total in sums.items() if plan not in ("auto", "oracle")}
    if "auto" not in sums or "oracle" not in sums or not singles:
        return None
    return sums["auto"] / min(singles.values()), sums["auto"] / sums["oracle"]


def load_run(path, scratch):
    """graph -> (plan -> BFS times, per-level errors) for one run."""
    folder = path
    if os.path.isfile(path):
        folder = tempfile.mkdtemp(dir=scratch)
        with tarfile.open(path) as tar:
            # The "data" filter where this Python has it (3.12+ warns without one).
            tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    graphs = {}
    for compare_path in sorted(glob.glob(os.path.join(folder, "compare_*.json"))):
        graph = os.path.basename(compare_path)[len("compare_"):-len(".json")]
        with open(compare_path) as f:
            compare = json.load(f)
        times = {plan: list(timing["ms"]) for plan, timing in compare["plans"].items()}
        if "validation_failures" in compare:
            failures = [f"{f['plan']} from {f['source']}: {f['problem']}" for f in compare["validation_failures"]]
        else:  # before the JSON kept them: abfs compare's own lines, where its output was kept
            failures = []
            text_path = compare_path[: -len(".json")] + ".txt"
            if os.path.exists(text_path):
                with open(text_path) as f:
                    failures = [line.strip() for line in f if "failed validation" in line]
        levels_path = os.path.join(folder, f"levels_{graph}.json")
        errors = []
        if os.path.exists(levels_path):
            with open(levels_path) as f:
                errors = level_errors(json.load(f))[0]
        graphs[graph] = (times, errors, failures)
    return graphs


TALLIES = (("both speed targets", "BO"), ("median error", "m"), ("p90 error", "p"), ("all four targets", "BOmp"))


def row_line(row, name):
    line = (f"  {row['marks']}  a / best {row['auto_ms'] / row['best_ms']:.3f} ({row['best']} {row['best_ms']:.4f} ms), "
            f"a / oracle {row['auto_ms'] / row['oracle_ms']:.3f}, error {100 * row['median_error']:.0f} / "
            f"{100 * row['p90_error']:.0f}%  {name}")
    if row["failures"]:
        line += f"\n    INVALID: {len(row['failures'])} results failed validation, first: {row['failures'][0]}"
    return line


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    with tempfile.TemporaryDirectory() as scratch:
        runs = [(path, load_run(path, scratch)) for path in argv[1:]]
    graphs = sorted({graph for _, run in runs for graph in run})
    names = [name for name, _ in runs] + ["pooled"]
    met = {name: {tally: 0 for tally, _ in TALLIES} for name in names}
    present = {name: len(run) for name, run in runs}
    present["pooled"] = len(graphs)

    def count(name, marks):
        for tally, wanted in TALLIES:
            met[name][tally] += all(mark in marks for mark in wanted)

    for graph in graphs:
        print(graph)
        pooled_times, pooled_errors, pooled_failures, sums = {}, [], [], []
        for name, run in runs:
            if graph not in run:
                continue
            times, errors, failures = run[graph]
            ratios = sum_ratios(times)
            if ratios is not None and not failures:
                sums.append(ratios)
            for plan, ms in times.items():
                pooled_times.setdefault(plan, []).extend(ms)
            pooled_errors.extend(errors)
            pooled_failures.extend(failures)
            row = verdict(times, errors, failures)
            count(name, row["marks"])
            print(row_line(row, name))
        row = verdict(pooled_times, pooled_errors, pooled_failures)
        count("pooled", row["marks"])
        print(row_line(row, "pooled"))
        if sums:
            print(f"  sums  a / best {statistics.median(r[0] for r in sums):.3f}, "
                  f"a / oracle {statistics.median(r[1] for r in sums):.3f}  (medians over {len(sums)} runs)")
    for tally, _ in TALLIES:
        print(f"{tally}: " + ", ".join(f"{name} {met[name][tally]} of {present[name]}" for name in names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
