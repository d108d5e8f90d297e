#!/usr/bin/env python3
"""Summary of a bench/ab_plans.sh run: per graph, each configuration's BFS medians by round and
its paired ratio against the first configuration, and where the runs' starts were mispriced.

Input: the OUT folder bench/ab_plans.sh wrote (ab.txt: round, graph, config, median ms over the
sources; logs/GRAPH_CONFIG_ROUND.json: the level log of each run).

Per graph: the medians by round of each configuration, and the median over rounds of
config / first config in the same round (rounds run the configurations back to back, so drift
falls on both; one process's BFSs move 3-5% between processes, so a ratio within that of 1 is
noise). Then the geometric mean of those ratios over the graphs.

With --starts: the decided levels of the device-driven runs (one_block, dynamic_parallel) by
where they start (level 0, right after host levels, right after device levels) and how the run
ended (at the BFS's end, or stopped after one level or several): how many, and
the median of measured - predicted (us, the strategy's part, conversions apart) per graph and
configuration. dynamic_parallel's starts past level 0 were priced 7-9 us low (median) in the
suite runs H-J, and 20-30 us after host levels on kron:22 and uniform:1048576:8 in the A/Bs
(docs/PERFORMANCE.md, thirty-sixth session).

With --routes: where a plan's BFS ran as one run of the strategy a forced configuration forces
(PROGRAM::STRATEGY), from level 0 to the end, against the forced run from the same source in
the same round: the plan's extra time (median, us, and how many BFSs) in all, at level 0 (its
time and conversion: the decision, the launch), over the carried levels (the device's prices of
the hand-back), and outside the levels. On the same route the plan spent 1-3 us a BFS more than
forced dynamic_parallel on ca-AstroPh-lcc, uk-2007-05@100000 and soc-Slashdot0902, 7-19 on
cnr-2000 (docs/PERFORMANCE.md, forty-second session).

Usage: bench/ab_summary.py OUT [--starts] [--routes]
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import statistics

RUN_STRATEGIES = ("one_block", "dynamic_parallel")


def read_medians(out):
    """{graph: {config: {round: ms}}} and the configurations in their order in ab.txt."""
    medians = collections.defaultdict(lambda: collections.defaultdict(dict))
    configs = []
    with open(os.path.join(out, "ab.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or parts[3] == "failed":
                continue
            round_, graph, config, ms = parts
            medians[graph][config][int(round_)] = float(ms)
            if config not in configs:
                configs.append(config)
    return medians, configs


def paired(medians, configs):
    base = configs[0]
    logs = collections.defaultdict(list)
    for graph, by_config in medians.items():
        row = [graph]
        for config in configs:
            rounds = by_config.get(config, {})
            row.append("%s %s" % (config, " ".join("%.3f" % rounds[r] for r in sorted(rounds))))
            if config != base:
                both = [r for r in rounds if r in by_config.get(base, {})]
                ratios = [rounds[r] / by_config[base][r] for r in both]
                if ratios:
                    ratio = statistics.median(ratios)
                    logs[config].append(math.log(ratio))
                    row.append("%s / %s %.3f" % (config, base, ratio))
        print("  ".join(row))
    for config, values in logs.items():
        print("geometric mean of %s / %s over %d graphs: %.3f" % (config, base, len(values),
                                                                   math.exp(statistics.mean(values))))


def where(levels, k):
    if k == 0:
        return "level 0"
    return "after host" if levels[k - 1]["strategy"] == "cpu_expand" else "after device"


def ending(levels, k):
    """How the device-driven run started at levels[k] ended: at the BFS's end, or stopped (a
    hand-over note on its last level) after one level or several. A stopped run's first record
    carries its one-block loop's exit (one_block 9, dynamic_parallel 26 price it)."""
    last = k
    while last + 1 < len(levels) and levels[last + 1]["reason"].startswith("continued on the device"):
        last += 1
    if "handed over" not in levels[last]["reason"]:
        return "to the end"
    return "stopped after one level" if last == k else "stopped after several levels"


def split_log_name(name, configs):
    """GRAPH_TAG_ROUND (bench/ab_plans.sh: TAG is the config with ':' and '/' as '_') to
    (graph, config); graph and config names may hold '_', so the longest config that fits."""
    for config in sorted(configs, key=len, reverse=True):
        tag = config.replace(":", "_").replace("/", "_")
        match = re.fullmatch(r"(.+)_" + re.escape(tag) + r"_\d+", name)
        if match:
            return match.group(1), config
    return None


def starts(out, configs):
    errors = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(out, "logs", "*.json"))):
        split = split_log_name(os.path.basename(path)[: -len(".json")], configs)
        if split is None:
            continue
        graph, config = split
        with open(path) as f:
            log = json.load(f)
        for run in log["runs"]:
            levels = run["levels"]
            for k, level in enumerate(levels):
                if level["strategy"] not in RUN_STRATEGIES or level["reason"].startswith("continued"):
                    continue
                key = (graph, config, level["strategy"], where(levels, k), ending(levels, k))
                errors[key].append(level["time_us"] - level["predicted_us"])
    for key in sorted(errors):
        values = errors[key]
        print("%s %s %s %s, %s: %d starts, measured - predicted median %+.1f us" %
              (key + (len(values), statistics.median(values))))


def read_logs(out, configs):
    """{(graph, config, round): {source: run}} from OUT/logs."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "logs", "*.json"))):
        name = os.path.basename(path)[: -len(".json")]
        split = split_log_name(name, configs)
        if split is None:
            continue
        with open(path) as f:
            log = json.load(f)
        runs[split + (int(name.rsplit("_", 1)[1]),)] = {run["source"]: run for run in log["runs"]}
    return runs


def routes(out, configs):
    runs = read_logs(out, configs)
    forced = [c for c in configs if c.count(":") >= 2 and c.rsplit(":", 1)[1] not in ("", "auto")]
    plans = [c for c in configs if c not in forced]
    rows = collections.defaultdict(list)
    for (graph, config, round_), by_source in runs.items():
        if config not in plans:
            continue
        for other in forced:
            strategy = other.rsplit(":", 1)[1]
            alone = runs.get((graph, other, round_), {})
            for source, run in by_source.items():
                levels = run["levels"]
                if source not in alone or any(l["strategy"] != strategy for l in levels):
                    continue
                if any(l["reason"].startswith("continued") == (k == 0) for k, l in enumerate(levels)):
                    continue  # not one run from level 0 to the end
                twin = alone[source]["levels"]
                if len(twin) != len(levels):
                    continue
                total = (run["total_ms"] - alone[source]["total_ms"]) * 1000.0
                first = (levels[0]["time_us"] + levels[0]["conversion_us"] -
                         twin[0]["time_us"] - twin[0]["conversion_us"])
                carried = sum(l["time_us"] for l in levels[1:]) - sum(l["time_us"] for l in twin[1:])
                rows[(graph, config, other)].append((total, first, carried, total - first - carried))
    for key in sorted(rows):
        values = rows[key]
        medians = [statistics.median(v[i] for v in values) for i in range(4)]
        print("%s %s against %s, %d BFSs on its route: %+.1f us (level 0 %+.1f, carried %+.1f, outside %+.1f)" %
              (key + (len(values),) + tuple(medians)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--starts", action="store_true")
    parser.add_argument("--routes", action="store_true")
    args = parser.parse_args()
    medians, configs = read_medians(args.out)
    paired(medians, configs)
    if args.starts:
        starts(args.out, configs)
    if args.routes:
        routes(args.out, configs)


if __name__ == "__main__":
    main()
