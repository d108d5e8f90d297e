#!/usr/bin/env python3
"""Where the adaptive plan loses to the Exhaustive oracle, and which levels its models misprice.

Input: the level logs `bench/planner_suite.sh ... compare` leaves in its logs.tar.gz, one pair per
graph: levels_G.json (the adaptive plan's BFSs) and levels_G.oracle.json (the oracle's chain for
the same sources), as `abfs compare GRAPH --log levels_G.json` writes them.

Per graph, over the adaptive BFSs (each against the oracle's chain from the same source, its first
one where a source repeats), the mean BFS time of both and the gap between them split into:
  levels 0-1  the first two levels (the decision on cold caches, the first upload or launch);
  same        later levels where both ran the same strategy (warmth, pricing overhead, noise);
  different   later levels where the strategies differ (the decisions);
  outside     the adaptive BFS's time not in any level record (timers, the end of the BFS).
Then the plan's level against the oracle's of the same source, level and strategy, by where it
stands (carried by a run, level 0, the first after host or after device levels; in the
thirty-fifth session's runs the carried levels matched within 1 us, level 0 and the starts after
host levels did not). Then the per-level prediction error |predicted - measured| / measured
(predictions and times with their conversions, as `abfs compare` computes it): median, 90th
percentile, and the kinds of level most often over 40% (strategy; decided, decided ahead,
continued in a run, or with a conversion; the measured time's range).

With --by-bfs STRATEGY, per adaptive BFS the median measured / predicted ratio of the levels
STRATEGY's runs carried, by size class of the frontier's arcs (powers of 4, as the online
correction's classes): a drift shared by every class of a BFS is the host's (or device's) speed
that BFS, one class's alone its price (the forty-fifth session's rome99 rounds: 0.96-1.06x, then
0.71-0.87x in every class).

With --changes, where a route that changes strategy is priced: the levels that start a
strategy (level 0 by its strategy; a later level whose strategy differs from the level before
it, by the pair), each kind's count and its summed measured / priced (conversions included),
and the BFSs' measured / priced totals (the levels they ran) by their number of changes (the
fifty-fourth session's small graphs: 0.97-1.01 with none, 1.03-1.31 with one to three; a
change's first level 1.36-1.97x its price).

With --runs, the device-driven runs (one_block, dynamic_parallel) against the oracle's trial of
the same strategy at the same level from the same source, which runs to the BFS's end: the run's
first record (its launch, first level, the gaps between its levels and its synchronization; the
plan's with its decision's executor time) by strategy, level 0 or later, and whether the run
handed back or carried the BFS to its end; then each carried level against the oracle's carried
level of the same source and level (plan - oracle, medians). In the fifty-fifth session's logs the
plan's first records of runs to the end took +2 to +3 us over the trials' on ca-AstroPh-lcc,
email-Enron, soc-Slashdot0902 and uk-2007-05@100000 (its decision's time), +7 to +14 us for
starts after host levels, and cnr-2000's carried one-block levels +1.2 us each.

With --entry, per source whose BFSs reach the device, the plan's BFS against the oracle's chain
from that source split where the later of their first device levels ends (the way onto the
device: host levels, conversion, decision, the run's first record) and after it, with both
routes and where they leave the host. In the sixty-ninth session's compares (H200) cnr-2000's
BFSs from 44408 and 6844 lost 7-23 us to the oracle up to the first device level in all 16
(one_block's start after host levels 33-34 us plus a 11-14 us upload in the plan, 21-24 plus
12-17 in the oracle's trials, warmed by the trials before them), and 44408's first BFS of a
process 11-17 us after it (dynamic_parallel's carried levels, ~10 us each, where the oracle's
one_block took ~8: its lookahead outgrew the 10-vertex profile into the 18,997-vertex one).

With --lookahead, where the plan decided a level at which the oracle's chain starts a
device-driven run: that run's price in the decision (its first level, and the levels and time
the lookahead has it carry) against the oracle's run (first level with its conversion, the
levels it carried and their times), medians by strategy. In the sixty-ninth session's compares
(H200) soc-Slashdot0902's dynamic_parallel runs' carried levels were priced 112-126 us where
the oracle's carried 6-7 levels in 87-107 (one sampled BFS's shape prices every source's),
ca-AstroPh-lcc's 82-112 against 7-8 levels in 88-95. The reason's level count takes in the
profile's levels past its reach stop, priced 0.

With --best, the plan's BFSs against the best single strategy's (levels_G.best.json, which
`abfs compare --log` writes since 2026-11-28), paired by source and round (both logs hold the
same sources in the same order): the BFSs where both ran the same route (the sequence of
strategies; the commonest routes of each where some differ), and over those the plan's extra time (medians of the paired differences): the
whole BFS, level 0 (with its conversion), the later levels by kind (the one-block loop's, grid
levels, host levels, levels the plan decided), and outside the levels. In the sixty-fourth
session's compares (H200) wave's grid levels ran ~0.2 us each slower in the plan than forced
dynamic_parallel's on the same route (+5-6 us a BFS), whatever the hand-back table, the wait's
work or the order the plans were built in; in separate processes (abfs run) ~0.05.

Usage: bench/level_gap.py LOGDIR [--worst K] [--by-bfs STRATEGY] [--changes] [--runs] [--best] [--entry]
  [--lookahead]
  (K: kinds of level listed per graph, default 3)
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import statistics


def level_us(level):
    return level["time_us"] + level["conversion_us"]


def priced_us(level):
    return level["predicted_us"] + level["predicted_conversion_us"]


def first_chains(oracle):
    """The oracle's chain for each source: its first BFS from it, where a source repeats."""
    chains = {}
    for run in oracle["runs"]:
        chains.setdefault(run["source"], run)
    return chains


def gap(adaptive, oracle):
    chains = first_chains(oracle)
    parts = collections.Counter()
    count = 0
    for run in adaptive["runs"]:
        chain = chains.get(run["source"])
        if chain is None:
            continue
        count += 1
        by_level = {level["level"]: level for level in chain["levels"]}
        parts["adaptive"] += run["total_ms"] * 1000.0
        parts["oracle"] += sum(level_us(level) for level in chain["levels"])
        parts["outside"] += run["total_ms"] * 1000.0 - sum(level_us(level) for level in run["levels"])
        for level in run["levels"]:
            other = by_level.get(level["level"])
            if other is None:
                continue
            d = level_us(level) - level_us(other)
            if level["level"] <= 1:
                parts["levels 0-1"] += d
            elif level["strategy"] == other["strategy"]:
                parts["same"] += d
            else:
                parts["different"] += d
    return {k: v / count for k, v in parts.items()} if count else None


def where(levels, i, carried_prefix):
    """Where a level of a log stands: carried by a run, level 0, or the first after host or device levels."""
    level = levels[i]
    if level["reason"].startswith(carried_prefix):
        return "carried"
    if i == 0:
        return "level 0"
    before = "host" if levels[i - 1]["strategy"] == "cpu_expand" else "device"
    return f"after {before} levels"


def starts(adaptive, oracle):
    """The plan's level minus the oracle's for the same source, level and strategy, by where the
    level stands (median by kind of the per-(source, level) median differences, with counts):
    separates the runs' carried levels from their starts and level 0."""
    def times(log, carried_prefix):
        out = collections.defaultdict(list)
        for run in log["runs"]:
            levels = run["levels"]
            for i, level in enumerate(levels):
                key = (run["source"], level["level"], level["strategy"], where(levels, i, carried_prefix))
                out[key].append(level_us(level))
        return out
    plan = times(adaptive, "continued")
    trials = times(oracle, "oracle: carried")
    by_where = collections.defaultdict(list)
    for key, us in plan.items():
        if key in trials:
            by_where[key[3]].append(statistics.median(us) - statistics.median(trials[key]))
    return {w: (statistics.median(d), len(d)) for w, d in by_where.items()}


def runs(adaptive, oracle):
    """The plan's device-driven runs against the oracle's trials (--runs). Returns
    {(strategy, "level 0" or "later", "handed back" or "to the end"): [(plan first record,
    trial's first record, executor us)]} and {level offset in the run: [plan - oracle carried us]}."""
    chains = first_chains(oracle)
    firsts = collections.defaultdict(list)
    carried = collections.defaultdict(list)
    for run in adaptive["runs"]:
        chain = chains.get(run["source"])
        if chain is None:
            continue
        by_level = {level["level"]: level for level in chain["levels"]}
        levels = run["levels"]
        for i, level in enumerate(levels):
            if level["strategy"] not in ("one_block", "dynamic_parallel") or level["reason"].startswith("continued"):
                continue
            end = i + 1
            while end < len(levels) and levels[end]["reason"].startswith("continued on the device"):
                other = by_level.get(levels[end]["level"])
                if other is not None and other["reason"].startswith("oracle: carried"):
                    carried[end - i].append(levels[end]["time_us"] - other["time_us"])
                end += 1
            there = by_level.get(level["level"])
            trial = [t for t in (there or {}).get("trials", []) if t["strategy"] == level["strategy"]]
            if not trial:
                continue
            key = (level["strategy"], "level 0" if level["level"] == 0 else "later",
                   "handed back" if end < len(levels) else "to the end")
            firsts[key].append((level["time_us"], trial[0]["measured_us"], level.get("executor_us", 0.0)))
    return firsts, carried


def kind(level):
    if level["reason"].startswith("continued"):
        how = "continued"
    elif level["conversion_us"] > 0.0:
        how = "converted"
    elif "decided ahead" in level["reason"]:
        how = "decided ahead"  # level 0 taking the choice made after an earlier BFS
    else:
        how = "decided"
    us = level_us(level)
    size = "<5 us" if us < 5 else "<20 us" if us < 20 else "<100 us" if us < 100 else ">=100 us"
    return f"{level['strategy']} {how} {size}"


def errors(adaptive):
    all_errors = []
    by_kind = collections.defaultdict(list)
    for run in adaptive["runs"]:
        for level in run["levels"]:
            measured = level_us(level)
            predicted = priced_us(level)
            if predicted > 0.0 and measured > 0.0:
                e = abs(predicted - measured) / measured
                all_errors.append(e)
                by_kind[kind(level)].append(e)
    return all_errors, by_kind


def by_bfs(adaptive, strategy):
    """Per BFS: (source, {size class: (levels, median measured / predicted)}) of STRATEGY's
    carried levels; class c holds frontiers of [4^c, 4^(c+1)) arcs (class 0 from 0 arcs, class
    11 open-ended)."""
    rows = []
    for run in adaptive["runs"]:
        ratios = collections.defaultdict(list)
        for level in run["levels"]:
            if level["strategy"] != strategy or not level["reason"].startswith("continued"):
                continue
            measured, predicted = level_us(level), level["predicted_us"]
            if measured > 0.0 and predicted > 0.0:
                arcs = level["frontier_edges"]  # arcs_size_class (runtime/bfs_buffers.hpp)
                ratios[0 if arcs < 4 else min((arcs.bit_length() - 1) // 2, 11)].append(measured / predicted)
        rows.append((run["source"], {c: (len(r), statistics.median(r)) for c, r in sorted(ratios.items())}))
    return rows


def changes(adaptive):
    """(starts, routes): starts maps 'level 0 S' and 'A > B' (a level of B after one of A) to
    [count, priced us, measured us]; routes maps a BFS's number of changes to its BFSs'
    [count, priced us, measured us] over the levels it ran."""
    starts = collections.defaultdict(lambda: [0, 0.0, 0.0])
    routes = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for run in adaptive["runs"]:
        levels = run["levels"]
        count = 0
        for i, level in enumerate(levels):
            if i == 0:
                key = f"level 0 {level['strategy']}"
            elif level["strategy"] != levels[i - 1]["strategy"]:
                key = f"{levels[i - 1]['strategy']} > {level['strategy']}"
                count += 1
            else:
                continue
            entry = starts[key]
            entry[0] += 1
            entry[1] += priced_us(level)
            entry[2] += level_us(level)
        route = routes[count]
        route[0] += 1
        route[1] += sum(priced_us(level) for level in levels)
        route[2] += sum(level_us(level) for level in levels)
    return starts, routes


def route(run):
    out = []
    for level in run["levels"]:
        if not out or out[-1] != level["strategy"]:
            out.append(level["strategy"])
    return tuple(out)


def first_device_level(run):
    """The index of the run's first level off the host (its length where it stays on the host)."""
    for i, level in enumerate(run["levels"]):
        if level["strategy"] != "cpu_expand":
            return i
    return len(run["levels"])


def sums_apart(levels, k):
    """The levels' times (with their conversions) before index k and from it."""
    return sum(level_us(level) for level in levels[:k]), sum(level_us(level) for level in levels[k:])


def entry(adaptive, oracle):
    """Per source whose BFSs reach the device: the plan's BFS against the oracle's chain from the
    same source, split where the later of the two first device levels ends (their way onto the
    device: the host levels, the conversion, the decision and the run's first record) and after
    it; with the routes. Lists of (up to, after, plan's route, oracle's route) by source."""
    chains = first_chains(oracle)
    out = collections.defaultdict(list)
    for run in adaptive["runs"]:
        chain = chains.get(run["source"])
        if chain is None:
            continue
        a, o = first_device_level(run), first_device_level(chain)
        if a == len(run["levels"]) and o == len(chain["levels"]):
            continue  # on the host throughout
        k = max(a, o) + 1
        plan_up, plan_after = sums_apart(run["levels"], k)
        oracle_up, oracle_after = sums_apart(chain["levels"], k)
        out[run["source"]].append((plan_up - oracle_up, plan_after - oracle_after,
                                   ">".join(route(run)) + f"@{a}", ">".join(route(chain)) + f"@{o}"))
    return out


CARRIED_PRICE = re.compile(r"(dynamic_parallel|one_block) ([\d.]+) us \(\+(\d+) levels on the device ([\d.]+) us\)")


def lookahead(adaptive, oracle):
    """Where the plan decided a level at which the oracle's chain (its first from the source)
    starts a device-driven run of strategy S: S's price in the decision's reason, its first level
    and the levels the lookahead has the run carry ("S X us (+N levels on the device Y us)"),
    against the oracle's run of S from that level: its first level (with its conversion) and the
    levels it carried. Rows of (strategy, first priced, first measured, levels priced, carried
    priced, levels carried, carried measured)."""
    chains = first_chains(oracle)
    rows = []
    for run in adaptive["runs"]:
        chain = chains.get(run["source"])
        if chain is None:
            continue
        for level in run["levels"]:
            k = level["level"]
            if level["reason"].startswith("continued") or k >= len(chain["levels"]):
                continue
            start = chain["levels"][k]
            if not start["reason"].startswith("oracle: cheapest"):
                continue
            for m in CARRIED_PRICE.finditer(level["reason"]):
                if m.group(1) != start["strategy"]:
                    continue
                carried = []
                for later in chain["levels"][k + 1:]:
                    if not later["reason"].startswith("oracle: carried"):
                        break
                    carried.append(later["time_us"])
                rows.append((m.group(1), float(m.group(2)), level_us(start), int(m.group(3)), float(m.group(4)),
                             len(carried), sum(carried)))
    return rows


def later_kind(level):
    reason = level["reason"]
    if reason.startswith("continued on the device (grid"):
        return "grid"
    if reason.startswith("continued on the device"):
        return "one-block loop"
    if reason.startswith("continued on the host"):
        return "host"
    return "decided"


def against_best(adaptive, best):
    """Pairs the plan's BFSs with the best single strategy's by position (same source, same
    round); returns the pairs that ran one route, the paired count, and per part of the BFS
    the plan's extra time (medians over the same-route pairs)."""
    pairs = [(a, b) for a, b in zip(adaptive["runs"], best["runs"]) if a["source"] == b["source"]]
    same = [(a, b) for a, b in pairs if route(a) == route(b)]
    parts = collections.defaultdict(list)
    for a, b in same:
        def split(run):
            out = collections.defaultdict(float)
            levels = run["levels"]
            out["level 0"] = level_us(levels[0])
            for level in levels[1:]:
                out[later_kind(level)] += level_us(level)
            out["outside"] = 1000.0 * run["total_ms"] - sum(level_us(level) for level in levels)
            out["BFS"] = 1000.0 * run["total_ms"]
            return out
        sa, sb = split(a), split(b)
        for k in set(sa) | set(sb):
            parts[k].append(sa[k] - sb[k])
    return same, len(pairs), {k: statistics.median(v) for k, v in parts.items()}


def quantile(values, q):
    # The rule abfs compare reports by (detail::quantile, planner/cost_model.cpp): nearest rank.
    s = sorted(values)
    rank = math.ceil(q * len(s))
    return s[min(len(s) - 1, max(rank, 1) - 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logdir")
    parser.add_argument("--worst", type=int, default=3)
    parser.add_argument("--by-bfs", metavar="STRATEGY")
    parser.add_argument("--changes", action="store_true")
    parser.add_argument("--runs", action="store_true")
    parser.add_argument("--best", action="store_true")
    parser.add_argument("--entry", action="store_true")
    parser.add_argument("--lookahead", action="store_true")
    args = parser.parse_args()
    pairs = sorted(glob.glob(os.path.join(args.logdir, "levels_*.oracle.json")))
    if not pairs:
        raise SystemExit(f"level_gap: no levels_*.oracle.json in {args.logdir}")
    for oracle_path in pairs:
        graph = os.path.basename(oracle_path)[len("levels_"):-len(".oracle.json")]
        adaptive_path = oracle_path.replace(".oracle.json", ".json")
        if not os.path.exists(adaptive_path):
            print(f"{graph}: no {os.path.basename(adaptive_path)}")
            continue
        with open(adaptive_path) as f:
            adaptive = json.load(f)
        with open(oracle_path) as f:
            oracle = json.load(f)
        g = gap(adaptive, oracle)
        if g is None:
            print(f"{graph}: no source in both logs")
            continue
        print(f"{graph}: adaptive {g['adaptive']:.1f} us, oracle {g['oracle']:.1f} (means); gap "
              f"{g['adaptive'] - g['oracle']:.1f} = levels 0-1 {g.get('levels 0-1', 0.0):.1f}, same "
              f"{g.get('same', 0.0):.1f}, different {g.get('different', 0.0):.1f}, outside {g.get('outside', 0.0):.1f}")
        s = starts(adaptive, oracle)
        if s:
            print("  plan - oracle, same source, level and strategy (medians): " +
                  ", ".join(f"{w} {d:+.1f} us ({n})" for w, (d, n) in sorted(s.items())))
        all_errors, by_kind = errors(adaptive)
        if not all_errors:
            continue
        print(f"  prediction error: median {100 * quantile(all_errors, 0.5):.0f}%, "
              f"p90 {100 * quantile(all_errors, 0.9):.0f}% over {len(all_errors)} levels")
        worst = sorted(by_kind.items(), key=lambda kv: -sum(1 for e in kv[1] if e > 0.4))
        for name, es in worst[: args.worst]:
            over = sum(1 for e in es if e > 0.4)
            if over:
                print(f"    over 40%: {over} of {len(es)} {name} (median {100 * statistics.median(es):.0f}%)")
        if args.changes:
            starts_by, routes = changes(adaptive)
            print("  a strategy's first level, measured / priced (count): " +
                  ", ".join(f"{k} {m / p:.2f} ({n})" for k, (n, p, m) in sorted(starts_by.items()) if p > 0.0))
            print("  BFSs by their route's changes, measured / priced (BFSs): " +
                  ", ".join(f"{c}: {m / p:.2f} ({n})" for c, (n, p, m) in sorted(routes.items()) if p > 0.0))
        if args.runs:
            firsts, carried = runs(adaptive, oracle)
            for (strategy, at, end), rows in sorted(firsts.items()):
                print(f"  {strategy} runs from {at}, {end} ({len(rows)}): first record "
                      f"{statistics.median(r[0] for r in rows):.1f} us (executor "
                      f"{statistics.median(r[2] for r in rows):.1f}), the trial's "
                      f"{statistics.median(r[1] for r in rows):.1f}")
            if carried:
                diffs = [d for ds in carried.values() for d in ds]
                print(f"  carried levels, plan - oracle: median {statistics.median(diffs):+.2f} us over "
                      f"{len(diffs)} levels; by place in the run " +
                      " ".join(f"{k}: {statistics.median(v):+.1f}" for k, v in sorted(carried.items())[:8]))
        if args.entry:
            for source, rows in sorted(entry(adaptive, oracle).items()):
                routes = collections.Counter(f"{r[2]} / {r[3]}" for r in rows)
                print(f"  from {source} ({len(rows)} BFSs), plan - oracle (medians): to the first device level "
                      f"{statistics.median(r[0] for r in rows):+.1f} us, after it "
                      f"{statistics.median(r[1] for r in rows):+.1f}; routes plan / oracle (@ first device level): " +
                      ", ".join(f"{r} {n}" for r, n in routes.most_common(3)))
        if args.lookahead:
            by_strategy = collections.defaultdict(list)
            for row in lookahead(adaptive, oracle):
                by_strategy[row[0]].append(row)
            for strategy, rows in sorted(by_strategy.items()):
                def med(i, rows=rows):
                    return statistics.median(r[i] for r in rows)
                print(f"  {strategy} runs the oracle started where the plan decided ({len(rows)}), priced / "
                      f"measured (medians): first level {med(1):.1f} / {med(2):.1f} us, carried {med(3):.0f} "
                      f"levels {med(4):.1f} / {med(5):.0f} levels {med(6):.1f} us")
        best_path = oracle_path.replace(".oracle.json", ".best.json")
        if args.best and os.path.exists(best_path):
            with open(best_path) as f:
                best = json.load(f)
            same, paired, parts = against_best(adaptive, best)
            order = ["BFS", "level 0", "decided", "one-block loop", "grid", "host", "outside"]
            extra = ", ".join(f"{k} {parts[k]:+.1f} us" for k in order if k in parts)
            print(f"  against {best.get('decisions', 'the best single strategy')}: {len(same)} of {paired} "
                  f"BFSs on the same route" + (f"; the plan's extra (medians): {extra}" if extra else ""))
            if len(same) < paired:
                def counts(log):
                    c = collections.Counter(">".join(route(run)) for run in log["runs"])
                    return ", ".join(f"{r} {n}" for r, n in c.most_common(3))
                print(f"    routes: the plan's {counts(adaptive)}; forced {counts(best)}")
        if args.by_bfs:
            print(f"  {args.by_bfs}'s carried levels, measured / predicted by BFS (class: levels ratio):")
            for i, (source, classes) in enumerate(by_bfs(adaptive, args.by_bfs)):
                if classes:
                    print(f"    BFS {i} from {source}: " +
                          " ".join(f"c{c}: {n} {r:.2f}" for c, (n, r) in classes.items()))


if __name__ == "__main__":
    main()
