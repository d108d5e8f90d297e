// The executor with a device: cost-model decisions (the wisdom for this device), the Exhaustive
// oracle, the built-in rule, every strategy forced, and schedules that alternate every pair of
// strategies level by level, so that every ordered switch (and with it every conversion: host
// <-> device, queue -> bitmap, multi-level runs cut to one level) is taken.

#include <abfs/error.hpp>
#include <abfs/plan.hpp>

#include "planner/executor.hpp"

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <regex>
#include <set>
#include <utility>

namespace {

struct Mode {
  std::string name;
  abfs::PlanOptions options;
  bool rule = false;  // plan with no wisdom: the built-in rule decides
};

/// The wisdom for this device (shipped, system, user cache or $ABFS_WISDOM); calibrated once
/// (quick) when none matches, so that the cost-model mode always has models.
abfs::Wisdom& device_wisdom() {
  static abfs::Wisdom wisdom = [] {
    abfs::Wisdom w = abfs::Wisdom::load_or_default();
    if (w.find(abfs::current_device_fingerprint()) == nullptr) w.put(abfs::calibrate());
    return w;
  }();
  return wisdom;
}

/// The device's wisdom with each named model's coefficients multiplied by its factor.
abfs::Wisdom scaled_wisdom(std::initializer_list<std::pair<const char*, double>> factors) {
  abfs::Wisdom wisdom = device_wisdom();
  abfs::DeviceWisdom* entry = wisdom.find(abfs::current_device_fingerprint());
  REQUIRE(entry != nullptr);
  for (const auto& [name, factor] : factors) {
    for (double& c : entry->models[name].coefficients) c *= factor;
  }
  return wisdom;
}

/// What the last level record of a BFS that ended at its reach set says (Executor::execute).
constexpr const char* kAllReached = "not expanded";

abfs::Plan plan_for(const abfs::Graph& g, const Mode& mode) {
  abfs::Wisdom none;
  abfs::PlanOptions options = mode.options;
  if (mode.rule) options.missing_wisdom = abfs::MissingWisdom::Rule;
  return abfs::plan_bfs(g, mode.rule ? none : device_wisdom(), options);
}

/// Plans with the online correction off and then on, neither rehearsing nor trying profiles
/// (PlanOptions::rehearsals, profile_trial_rounds): the first BFS after planning is the one
/// priced by what the plan learned before it.
std::array<abfs::PlanOptions, 2> correction_off_then_on() {
  std::array<abfs::PlanOptions, 2> plans;
  plans[0].online_correction = false;
  plans[0].rehearsals = plans[1].rehearsals = 0;
  plans[0].profile_trial_rounds = plans[1].profile_trial_rounds = 0;
  return plans;
}

/// One BFS from vertex 0 of g by each of two plans on wisdom: the median of log(time / price)
/// over the levels `counted(levels, i)` selects (time and price positive), one per plan.
/// REQUIREs at least at_least such levels in each BFS (`missing` says which case did not arise
/// otherwise); every result is checked.
template <class Counted>
std::array<double, 2> first_bfs_log_ratios(const abfs::Graph& g, abfs::Wisdom& wisdom, std::size_t at_least,
                                           const char* missing, Counted counted,
                                           const std::array<abfs::PlanOptions, 2>& plans = correction_off_then_on()) {
  std::array<double, 2> medians{};
  for (std::size_t p = 0; p < plans.size(); ++p) {
    abfs::Plan plan = abfs::plan_bfs(g, wisdom, plans[p]);
    abfs::BfsResult r;
    plan.execute(0, r);
    abfs::test::check_bfs(g, 0, r);
    std::vector<double> ratios;
    for (std::size_t i = 0; i < r.levels.size(); ++i) {
      const abfs::LevelRecord& l = r.levels[i];
      if (counted(r.levels, i) && l.time_us > 0.0 && l.predicted_us > 0.0) {
        ratios.push_back(std::log(l.time_us / l.predicted_us));
      }
    }
    CAPTURE(p);
    REQUIRE_MESSAGE(ratios.size() >= at_least, missing);
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    medians[p] = ratios[ratios.size() / 2];
  }
  return medians;
}

/// Cost models, the Exhaustive oracle (its trials as they come, and cold), the built-in rule
/// (small levels in one_block or on the host), each strategy forced, and {a, b} alternation for
/// every unordered pair (which runs a -> b and b -> a on every BFS of three or more levels).
/// With ABFS_TEST_MODES set (not empty), only the modes whose names contain it: a sanitizer's
/// run over one mode (docs/TESTING.md).
std::vector<Mode> modes() {
  std::vector<Mode> m;
  m.push_back({"cost models", {}});
  abfs::PlanOptions exhaustive;
  exhaustive.flags = abfs::PlanFlags::Exhaustive;
  m.push_back({"exhaustive", exhaustive});
  exhaustive.cold_trials = true;  // the L2 flushed before each trial's restore
  m.push_back({"exhaustive, cold trials", exhaustive});
  m.push_back({"rule", {}, true});
  abfs::PlanOptions host_small;
  host_small.rule.block_loop_for_small = false;
  m.push_back({"rule, small frontiers on the host", host_small, true});
  const std::vector<std::string> names = abfs::strategy_names();
  for (const auto& name : names) {
    abfs::PlanOptions forced;
    forced.strategy = name;
    m.push_back({"forced " + name, forced});
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = i + 1; j < names.size(); ++j) {
      abfs::PlanOptions pair;
      pair.schedule = {names[i], names[j]};
      m.push_back({"alternate " + names[i] + ", " + names[j], pair});
    }
  }
  if (const char* only = std::getenv("ABFS_TEST_MODES"); only != nullptr && *only != '\0') {
    m.erase(std::remove_if(m.begin(), m.end(),
                           [only](const Mode& mode) { return mode.name.find(only) == std::string::npos; }),
            m.end());
    REQUIRE_MESSAGE(!m.empty(), "no mode's name contains ABFS_TEST_MODES=" << only);
  }
  return m;
}

// Returns how many levels ran from a gate (launched ahead by the level before).
int check_modes(const abfs::Graph& g, const std::vector<abfs::VertexId>& sources) {
  int gated = 0;
  std::vector<abfs::BfsTree> references;
  for (abfs::VertexId s : sources) references.push_back(abfs::reference_bfs(g, s));
  for (const auto& mode : modes()) {
    CAPTURE(mode.name);
    abfs::Plan plan = plan_for(g, mode);
    if (!mode.rule) CHECK(plan.warnings().empty());
    const bool models = mode.name == "cost models";
    if (models) CHECK(plan.decision_source().find("wisdom for") == 0);
    abfs::BfsResult r;
    for (std::size_t k = 0; k < sources.size(); ++k) {
      plan.execute(sources[k], r);  // one plan and result reused across sources
      abfs::test::check_bfs(g, sources[k], r, references[k]);
      if (mode.options.flags == abfs::PlanFlags::Exhaustive) {
        CHECK(r.oracle_ms > 0.0);
      } else {
        // The BFS's time holds its levels' device time: a BFS that ends on the device is timed
        // to its last level's end in stream order (BfsBuffers::set_level_end_event), which for a
        // dynamic_parallel run is its last tail-launched link's. Clocks apart (the levels' are
        // the device's %globaltimer), 1% and 2 us.
        double device_us = 0.0;
        for (const auto& level : r.levels) device_us += level.device_us;
        CHECK(device_us <= r.total_ms * 1000.0 * 1.01 + 2.0);
      }
      // Each record's frontier, in order, multi-level runs' carried levels included; a BFS that
      // visited all of a sampled BFS's reach (Executor::reach_sets) does not expand its last.
      const std::vector<abfs::VertexId> frontier = abfs::test::frontier_sizes(references[k]);
      const bool all_reached = !r.levels.empty() && r.levels.back().reason.find(kAllReached) != std::string::npos;
      REQUIRE(r.levels.size() + (all_reached ? 1 : 0) == frontier.size());
      int expected_level = 0;
      const abfs::LevelRecord* before = nullptr;
      for (const auto& level : r.levels) {
        CHECK(level.frontier_vertices == frontier[static_cast<std::size_t>(expected_level)]);
        CHECK(level.level == expected_level++);  // one record per level, multi-level runs included
        if (models) CHECK(level.predicted_us > 0.0);
        const bool handed_back =
            before != nullptr && before->reason.find("finishing off the run cheaper") != std::string::npos;
        if (models && handed_back) {
          // A run the device's models ended is not started again at the level it left.
          CHECK(level.strategy != before->strategy);
          // The log gives the prices the device compared, and they favour leaving.
          const std::size_t at = before->reason.find(" us off the run < the next level ");
          REQUIRE(at != std::string::npos);
          double leave = 0.0, next = 0.0, after = 0.0;
          REQUIRE(std::sscanf(before->reason.c_str() + before->reason.rfind('(', at),
                              "(%lf us off the run < the next level %lf us then %lf us)", &leave, &next, &after) == 3);
          CHECK(leave >= 0.0);
          // Each printed to 0.1 us: three roundings of up to 0.05 (158.8 against 158.8 failed
          // with a tolerance of 0.1, H200, 2026-11-29).
          CHECK(leave <= next + after + 0.151);
        }
        // A bottom-up level after a bottom-up level runs the kernel the level before queued
        // behind itself (launched ahead, held at a gate): wherever no schedule decides each
        // level, and nowhere else (the oracle's trials run one level at a time).
        const bool from_gate = level.reason.find("launched ahead by the level before") != std::string::npos;
        CHECK(from_gate == (mode.options.schedule.empty() && mode.options.flags != abfs::PlanFlags::Exhaustive &&
                            before != nullptr && before->strategy == "gather_pull" && level.strategy == "gather_pull"));
        gated += from_gate ? 1 : 0;
        before = &level;
        if (mode.options.flags == abfs::PlanFlags::Exhaustive) {
          // The oracle's chain is made of measured options: the chosen one was a trial here
          // or carries this level from a run started above.
          bool timed = level.reason.find("carried") != std::string::npos;
          for (const auto& t : level.trials) timed = timed || (t.strategy == level.strategy && t.measured_us > 0.0);
          CHECK(timed);
        }
        if (!mode.options.schedule.empty()) {
          const auto& schedule = mode.options.schedule;
          const std::string& planned = schedule[static_cast<std::size_t>(level.level) % schedule.size()];
          CHECK((level.strategy == planned || level.reason.find(planned + " not applicable") == 0));
        }
      }
    }
  }
  return gated;
}

}  // namespace

TEST_CASE("executor with a device is correct on every edge case under every mode") {
  for (const auto& c : abfs::test::edge_case_graphs()) {
    CAPTURE(c.name);
    check_modes(c.graph, {c.source, c.source});
  }
}

TEST_CASE("executor with a device is correct on generated graphs") {
  const abfs::Graph kron = abfs::generate_kronecker(16, 16, 2);
  int gated = check_modes(kron, abfs::test::sample_sources(kron, 3));
  const abfs::Graph uniform = abfs::generate_uniform(100000, 8, 3);
  gated += check_modes(uniform, abfs::test::sample_sources(uniform, 3));
  gated += check_modes(abfs::generate_grid(200, 300), {0, 30150});
  CHECK(gated > 0);  // forced gather_pull at least: every level after its first
}

TEST_CASE("a BFS whose learning ran long runs one untimed BFS after it, and the BFSs after it are right") {
  // The executor's limits at 0 (us, and share of the BFS's time): every BFS's learning runs
  // past them, so each is followed by one untimed BFS from its source (not by one after that
  // one's own learning), and its last level record says so. At the default limits (1 ms, and
  // the BFS's time), the learning of this small graph with the built-in rule takes
  // microseconds: nothing more runs.
  const abfs::Graph g = abfs::generate_kronecker(12, 8, 5);
  const std::vector<abfs::VertexId> sources = abfs::test::sample_sources(g, 3);
  for (const bool every : {true, false}) {
    CAPTURE(every);
    abfs::detail::Executor executor(g, abfs::PlanOptions{}, true);
    executor.set_level_profile(executor.sample_levels(sources[0]));
    if (every) executor.set_rewarm_after(0.0, 0.0);
    std::size_t bfs = 0;
    for (const abfs::VertexId source : sources) {
      CAPTURE(source);
      abfs::BfsResult result;
      executor.execute(source, result);
      ++bfs;
      abfs::test::check_bfs(g, source, result);
      REQUIRE_FALSE(result.levels.empty());
      const bool noted = result.levels.back().reason.find("one untimed BFS from its source warmed the next") !=
                         std::string::npos;
      CHECK(noted == every);
      CHECK(executor.rewarms() == (every ? bfs : 0));
    }
  }
}

TEST_CASE("the untimed BFS after a long learning that learned a reach set stops at that set "
          "(uk-2007-05@100000; skipped without ../shared/data)") {
  // `abfs compare uk-2007-05-100000.txt.gz --random-sources 4 --rounds 2`'s sequence: the first
  // BFS from 45121 (55,006 vertices of 100,000) learns its reach set and its component's
  // profile (13-24 ms), and one untimed BFS from it follows (Executor::warm_up), which read its
  // reach limit through a pointer into the reach sets the learning had just grown. It stopped
  // at a freed set's count (793 vertices, three levels), learned those as the source's reach
  // set, and the next BFS from 45121 stopped there: a validation failure in 12 of 35 runs of
  // 2026-11-28 (where the freed memory had been reused; H100).
  const std::string path = abfs::test::data_dir() + "/uk-2007-05-100000.txt.gz";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    MESSAGE("skipped: " << path << " is absent (set ABFS_DATA_DIR)");
    return;
  }
  abfs::LoadOptions load;
  load.use_cache = false;
  const abfs::Graph g = abfs::load_graph(path, load);
  const std::vector<abfs::VertexId> sources = abfs::random_sources(g, 4, 1);
  std::vector<abfs::BfsTree> references;
  for (const abfs::VertexId s : sources) references.push_back(abfs::reference_bfs(g, s));
  abfs::Plan plan = plan_for(g, {"cost models", {}});
  abfs::BfsResult r;
  bool rewarmed = false;
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    plan.execute(sources.front(), r);  // compare's warm-up
    abfs::test::check_bfs(g, sources.front(), r, references.front());
    for (std::size_t k = 0; k < sources.size(); ++k) {
      CAPTURE(sources[k]);
      plan.execute(sources[k], r);
      abfs::test::check_bfs(g, sources[k], r, references[k]);
      rewarmed = rewarmed || (!r.levels.empty() && r.levels.back().reason.find("one untimed BFS from its source "
                                                                                 "warmed the next") != std::string::npos);
    }
  }
  CHECK_MESSAGE(rewarmed, "no BFS's learning ran long enough for an untimed BFS: the case did not arise");
}

TEST_CASE("a BFS's first upload after host levels is correct through each of its paths") {
  // Two host levels, then privatized_queue: the first upload moves every vertex at distance <= 2,
  // 1 + d + ~d^2 of them on a uniform graph of out-degree d. d = 4: at most 32 (one kernel, the
  // small parameter block); d = 12: 33-1,024 (one kernel, the large block); d = 40: over 1,024
  // (a memset, a copy and a scatter kernel).
  abfs::PlanOptions options;
  options.schedule = {"cpu_expand", "cpu_expand", "privatized_queue"};
  std::set<int> paths;
  for (const int degree : {4, 12, 40}) {
    CAPTURE(degree);
    const abfs::Graph g = abfs::generate_uniform(20000, degree, 5);
    abfs::Plan plan = plan_for(g, {"cpu, cpu, privatized_queue", options});
    abfs::BfsResult r;
    for (const abfs::VertexId source : abfs::test::sample_sources(g, 3)) {
      plan.execute(source, r);
      abfs::test::check_bfs(g, source, r);
      REQUIRE(r.levels.size() > 2);
      REQUIRE(r.levels[2].strategy == "privatized_queue");
      const abfs::VertexId uploaded = 1 + r.levels[1].frontier_vertices + r.levels[2].frontier_vertices;
      paths.insert(uploaded <= 32 ? 0 : uploaded <= 1024 ? 1 : 2);
    }
  }
  CHECK(paths == std::set<int>{0, 1, 2});
}

TEST_CASE("the built-in rule goes bottom-up on the middle levels of a Kronecker graph") {
  const abfs::Graph g = abfs::generate_kronecker(16, 16, 2);
  abfs::Plan plan = plan_for(g, {"rule", {}, true});
  const abfs::BfsResult r = plan.execute(abfs::test::sample_sources(g, 1).front());
  std::set<std::string> used;
  for (const auto& level : r.levels) {
    used.insert(level.strategy);
    if (level.frontier_edges < abfs::SwitchRule{}.cpu_max_frontier_edges && level.strategy != "gather_pull") {
      CHECK(level.strategy == "one_block");
    }
  }
  CHECK(used.count("gather_pull") == 1);
}

TEST_CASE("a host run's level that takes far longer than priced raises the host's price for the rest of that BFS") {
  // cpu_expand's per-arc, per-vertex and per-discovery terms at a fiftieth of the device's
  // wisdom: the first decisions start host runs, whose levels of the Kronecker graph then take
  // many times their price (at a tenth, once the stay test priced a level's discoveries at the
  // measured serial_discovered, the runs handed over after one level of ~50 us priced 11: the
  // case did not arise; H100, 2026-11-27). A carried level that takes kSurpriseRatio (3) times its price and 60 us more
  // raises the host's surprise factor at once, so the decision after the run prices cpu_expand
  // by it (the log notes "slower than priced earlier in this BFS"); before, the factor was
  // raised only by decided levels, and the run went on by the disproved prices.
  abfs::Wisdom wisdom = device_wisdom();
  abfs::DeviceWisdom* entry = wisdom.find(abfs::current_device_fingerprint());
  REQUIRE(entry != nullptr);
  abfs::CostModelFit& cpu = entry->models["cpu_expand"];
  for (std::size_t i = 0; i < cpu.features.size(); ++i) {
    if (cpu.features[i] != "serial_level" && cpu.features[i] != "parallel_level" && cpu.features[i] != "team_wake") {
      cpu.coefficients[i] *= 0.02;
    }
  }
  // Scale 20, its levels several times scale 18's: there level 1, the one level the host runs
  // carried, took 57-59 us priced 7.5 in the failing runs, and whether it was 60 us over its
  // price went by the host's speed (3 of 6 runs failed on the H100's host; at scale 20, 0 of 5;
  // 2026-11-26).
  const abfs::Graph g = abfs::generate_kronecker(20, 16, 3);
  int surprised_runs = 0;  // host runs with a carried level 3x and 60 us over its price
  int surprising_runs = 0;  // decisions after such a level
  std::string logs;  // every BFS's levels, for the message of the last check
  abfs::PlanOptions options;
  options.rehearsals = 0;  // the case is the first BFS after planning, priced by the models alone
  options.profile_trial_rounds = 0;
  for (const abfs::VertexId source : abfs::test::sample_sources(g, 6)) {
    abfs::Plan plan = abfs::plan_bfs(g, wisdom, options);
    abfs::BfsResult r;
    plan.execute(source, r);
    abfs::test::check_bfs(g, source, r);
    std::string table;
    for (const auto& l : r.levels) {
      table += std::to_string(l.level) + " " + l.strategy + " " + std::to_string(l.time_us) + " / " +
               std::to_string(l.predicted_us) + " " + l.reason.substr(0, 160) + "\n";
    }
    CAPTURE(source);
    CAPTURE(table);
    logs += "source " + std::to_string(source) + ":\n" + table;
    bool surprised = false;  // a carried host level so far in this host run took 3x and 60 us over its price
    for (const auto& l : r.levels) {
      const bool carried = l.reason.find("continued on the host (host run)") == 0;
      if (carried) {
        surprised = surprised || (l.time_us > 3.0 * l.predicted_us && l.time_us > l.predicted_us + 60.0);
        continue;
      }
      surprised_runs += surprised ? 1 : 0;
      if (surprised && l.reason.find("cpu_expand") != std::string::npos) {
        ++surprising_runs;
        CHECK(l.reason.find("slower than priced earlier in this BFS") != std::string::npos);
      }
      surprised = false;
    }
  }
  INFO(logs);
  REQUIRE_MESSAGE(surprised_runs > 0,
                  "no host run carried a level 3x and 60 us over its price: the case did not arise");
  CHECK(surprising_runs > 0);
}

TEST_CASE("a host run prices its later levels at the pace its earlier levels of this BFS ran") {
  // cpu_expand's model at a tenth of the device's wisdom: the host's route wins and its levels
  // take several times their price (3.1x at a quarter with the wisdom of 2026-11-27T10:42; with
  // that of 16:56, 2.5-4.6x at a fifth, under 2.5x in one run of four; H100 host). The first BFS
  // after planning is priced before any online correction (learned between BFSs); with it on,
  // the host pace (Executor::HostPace, up to 2x) prices a host run's later levels by how this
  // BFS's earlier ones ran, in the stay test and in the log.
  abfs::Wisdom wisdom = scaled_wisdom({{"cpu_expand", 0.1}});
  const abfs::Graph g = abfs::generate_grid(200, 200);
  // Carried host levels past a run's tenth.
  auto carried = [](const std::vector<abfs::LevelRecord>& levels, std::size_t i) {
    if (i < 10) return false;
    for (std::size_t k = i - 10; k <= i; ++k) {
      if (levels[k].reason.find("continued on the host (host run)") != 0) return false;
    }
    return true;
  };
  // Three rounds of the two plans, back to back, and the median of the rounds' differences: the
  // host's speed moves between BFSs, now and then by more than the pace's 2x (one run of this
  // case measured 2.63 unpaced and 3.59 paced, the paced BFS's levels at least 2.6x slower than
  // the unpaced one's; three more, and `abfs run` on the same grid and wisdom, 2.41-2.62 ->
  // 1.99-2.00 on the same all-host route; H100 host, 2026-11-27). Each plan's lesser median over
  // two rounds, compared before, paired one round's unpaced BFS with another's paced one: 1.62 /
  // 1.32 and 1.81 / 1.37 by round, differences 0.30 and 0.43, compared as 1.62 against 1.32
  // (H200 host, 2026-11-28).
  const char* missing = "the host's route did not carry 60 levels: the case did not arise";
  std::vector<std::array<double, 2>> rounds;
  for (int round = 0; round < 3; ++round) rounds.push_back(first_bfs_log_ratios(g, wisdom, 50, missing, carried));
  std::vector<double> unpaced, paced, difference;
  std::string by_round;
  for (const auto& m : rounds) {
    unpaced.push_back(m[0]);
    paced.push_back(m[1]);
    difference.push_back(m[0] - m[1]);
    by_round += std::to_string(m[0]) + " / " + std::to_string(m[1]) + "; ";
  }
  INFO("median log(time / price), unpaced / paced, by round: " << by_round);
  auto median_of_3 = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[1];
  };
  REQUIRE_MESSAGE(median_of_3(unpaced) > std::log(2.5),
                  "host levels took under 2.5x their price: the case did not arise");
  // log 2 = 0.69 at the pace's limit; its prior (2 us of both) holds it lower over short levels,
  // and the two plans' routes differ: 1.68 -> 1.25 under compute-sanitizer (H100, 2026-11-27).
  // With the pace off, the two medians differ by the host's noise.
  CHECK(median_of_3(difference) > 0.3);
  CHECK(median_of_3(paced) > -0.5);  // not priced past the time
}

TEST_CASE("a host run's stay tests are the executor's part of their levels' times") {
  // As above, the host's route wins on the grid. A carried level whose stay test ran records
  // the test's time as its executor_us (part of its time_us); a level the test skipped (a wide
  // pass skips the next ones) records none. Counted in the level, a test's time made the level
  // look slower than its expansion, and the host pace priced the levels after it so
  // (Executor::HostTestTime).
  abfs::Wisdom wisdom = scaled_wisdom({{"cpu_expand", 0.1}});
  const abfs::Graph g = abfs::generate_grid(200, 200);
  abfs::Plan plan = abfs::plan_bfs(g, wisdom);
  abfs::BfsResult r;
  for (int bfs = 0; bfs < 2; ++bfs) {  // the second prices its tests by the first's
    plan.execute(0, r);
    abfs::test::check_bfs(g, 0, r);
    CAPTURE(bfs);
    int tested = 0, skipped = 0;
    for (const abfs::LevelRecord& l : r.levels) {
      if (l.reason.find("continued on the host (host run)") != 0) continue;
      CAPTURE(l.level);
      CHECK(l.executor_us >= 0.0);
      CHECK(l.executor_us <= l.time_us);
      CHECK(l.predicted_us > 0.0);
      (l.executor_us > 0.0 ? tested : skipped) += 1;
    }
    REQUIRE_MESSAGE(tested + skipped >= 50, "the host's route did not carry 50 levels: the case did not arise");
    CHECK(tested > 0);
    CHECK(skipped > 0);
  }
}

TEST_CASE("a plan tries its sampled profiles where its sampled sources reach the same vertices") {
  // PlanOptions::profile_trial_rounds: on a connected grid every sampled source reaches every
  // vertex, so each one's profile is tried by BFSs from all of them and one is kept; the phase
  // is reported (its BFSs take time), the source shown is a vertex of the grid, and the plan's
  // BFSs are correct. With no rounds the phase is absent.
  const abfs::Graph g = abfs::generate_grid(100, 100);
  for (const int rounds : {0, 1}) {
    CAPTURE(rounds);
    abfs::PlanOptions options;
    options.profile_trial_rounds = rounds;
    abfs::Plan plan = abfs::plan_bfs(g, device_wisdom(), options);
    double tried_ms = -1.0;
    for (const auto& [phase, ms] : plan.construction_ms()) {
      if (phase == "sampled profiles tried") tried_ms = ms;
    }
    if (rounds > 0) {
      CHECK(tried_ms > 0.0);
    } else {
      CHECK(tried_ms < 0.0);
    }
    CHECK(plan.graph_stats().sampled_source < g.num_vertices());
    abfs::BfsResult r;
    for (const abfs::VertexId source : abfs::test::sample_sources(g, 4)) {
      plan.execute(source, r);
      abfs::test::check_bfs(g, source, r);
    }
  }
}

TEST_CASE("a plan reports its construction phase by phase, in order, within its whole time") {
  const abfs::Graph g = abfs::generate_kronecker(14, 16, 2);
  abfs::Wisdom& wisdom = device_wisdom();  // loaded (or calibrated) before the clock starts
  for (const int rehearsals : {0, 4}) {
    CAPTURE(rehearsals);
    abfs::PlanOptions options;
    options.rehearsals = rehearsals;
    const auto start = std::chrono::steady_clock::now();
    abfs::Plan plan = abfs::plan_bfs(g, wisdom, options);
    const double whole_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<std::string> names;
    double sum_ms = 0.0;
    for (const auto& [phase, ms] : plan.construction_ms()) {
      names.push_back(phase);
      CHECK(ms >= 0.0);
      sum_ms += ms;
    }
    std::vector<std::string> expected = {"buffers",      "statistics",   "strategies prepared", "in-list lengths",
                                         "components",   "warm-up",      "sampled BFSs",        "strategies",
                                         "models",       "sampled profiles tried"};
    if (rehearsals > 0) expected.emplace_back("rehearsals");
    expected.emplace_back("level 0 decided ahead");
    CHECK(names == expected);
    CHECK(sum_ms <= whole_ms);
    CHECK(sum_ms > 0.5 * whole_ms);
  }
}

TEST_CASE("the plan's sampled BFSs price the one-block loop's carried levels of its first BFS") {
  // one_block's and dynamic_parallel's models at a fifth of the device's wisdom (and the
  // host's at five times, so that a device run carries the grid's levels): their carried
  // one-block levels take ~5x what the models alone price. The plan's sampled BFSs, which the
  // built-in rule runs in one_block, teach the online correction of those levels before the
  // plan's first BFS (Executor::learn_sampled_block_levels); with it off, the models alone
  // price them.
  abfs::Wisdom wisdom = scaled_wisdom({{"one_block", 0.2}, {"dynamic_parallel", 0.2}, {"cpu_expand", 5.0}});
  const abfs::Graph g = abfs::generate_grid(200, 200);
  const std::array<double, 2> median_log_ratio = first_bfs_log_ratios(
      g, wisdom, 100, "no device run carried 100 levels: the case did not arise",
      [](const std::vector<abfs::LevelRecord>& levels, std::size_t i) {
        return levels[i].reason.find("continued on the device (one-block loop)") == 0;
      });
  INFO("median log(time / price), models alone then taught: " << median_log_ratio[0] << ", " << median_log_ratio[1]);
  REQUIRE_MESSAGE(median_log_ratio[0] > std::log(3.0), "levels took under 3x their price: the case did not arise");
  // Taught, ~0 (the correction's 8x limit binds under compute-sanitizer: 4.8 -> 2.7; H100,
  // 2026-11-27).
  CHECK(median_log_ratio[1] < median_log_ratio[0] - 1.0);
  CHECK(median_log_ratio[1] > -0.5);  // not priced past the time
}

TEST_CASE("a BFS from a source of an out-degree a BFS before had takes the level-0 choice made after that BFS") {
  // Executor::first_choice_for: the decision made after a BFS for its own source, kept by the
  // profile the BFS started with and the source's out-degree, decides a later BFS's level 0
  // from a source of that out-degree (the log says so) where the last two such decisions
  // agreed. A uniform graph's sources have out-degree 7 or 8 (few keys); each result is checked.
  // The online correction is off, so that each key's decisions are the models' and agree: with
  // it on, level 0's candidates there are near ties that the corrections tip one way and the
  // other, and 6-14 of the 18 BFSs took the decision made ahead (twelve runs of the case alone
  // and two in the suite, two builds, H200, 2026-11-29), so that a bound on them failed now and
  // then.
  const abfs::Graph g = abfs::generate_uniform(50000, 8, 5);
  abfs::PlanOptions options;
  options.online_correction = false;
  abfs::Plan plan = plan_for(g, {"cost models", options});
  const std::vector<abfs::VertexId> sources = abfs::test::sample_sources(g, 6);
  abfs::BfsResult r;
  int ahead = 0, runs = 0;
  for (int round = 0; round < 3; ++round) {
    for (abfs::VertexId s : sources) {
      plan.execute(s, r);
      abfs::test::check_bfs(g, s, r);
      REQUIRE(!r.levels.empty());
      const bool decided_ahead = r.levels.front().reason.find("decided ahead") != std::string::npos;
      ahead += decided_ahead ? 1 : 0;
      ++runs;
      CHECK(r.levels.front().predicted_us > 0.0);  // that decision's price
      for (std::size_t k = 1; k < r.levels.size(); ++k) CHECK(r.levels[k].reason.find("decided ahead") == std::string::npos);
    }
  }
  INFO(ahead << " of " << runs << " BFSs took their level 0's choice made ahead");
  // The plan decides the frequent keys ahead as it is built, and each BFS decides its own key
  // again: from a key's second BFS on, two decisions of the models agree.
  CHECK(ahead >= runs - static_cast<int>(sources.size()));
}

TEST_CASE("a plan's rehearsals teach its corrections before its first BFS") {
  // cpu_expand's model at a tenth of the device's wisdom, as in the host pace's case: a plan's
  // first BFS with no rehearsal runs the host's route at 1.7x its price (at a fifth with the
  // wisdom of 2026-11-27T10:42; with that of 16:56, 1.2-1.4x at a fifth). The rehearsals
  // (PlanOptions::rehearsals, the default) from the sampled sources teach the online
  // correction first: the first BFS is priced near its time, on whichever route that price
  // then picks.
  abfs::Wisdom wisdom = scaled_wisdom({{"cpu_expand", 0.1}});
  const abfs::Graph g = abfs::generate_grid(200, 200);
  std::array<abfs::PlanOptions, 2> plans;
  plans[0].rehearsals = 0;
  plans[0].profile_trial_rounds = plans[1].profile_trial_rounds = 0;  // their BFSs teach too
  REQUIRE(plans[1].rehearsals >= 2);  // the default: the cheapest routes first and last
  const std::array<double, 2> median_log_ratio = first_bfs_log_ratios(
      g, wisdom, 300, "the BFS from a corner ran under 300 levels",
      [](const std::vector<abfs::LevelRecord>&, std::size_t) { return true; }, plans);
  INFO("median log(time / price) of every level, not rehearsed then rehearsed: " << median_log_ratio[0] << ", "
                                                                                  << median_log_ratio[1]);
  // Not rehearsed 0.54, rehearsed -0.02 (H100, 2026-11-27).
  REQUIRE_MESSAGE(median_log_ratio[0] > std::log(1.5), "levels took under 1.5x their price: the case did not arise");
  CHECK(median_log_ratio[1] < median_log_ratio[0] - 0.3);
  CHECK(median_log_ratio[1] > -0.5);  // not priced past the time
}

TEST_CASE("a BFS explores at level 0 a candidate no recent BFS started with, priced within 10% of the cheapest") {
  // Kronecker and uniform graphs' routes from level 0 (one_block's, dynamic_parallel's,
  // privatized_queue's, the host's) were priced within 10% of the cheapest on most graphs
  // (H100, 2026-11-27). A BFS explores where none of the last 16 did (Executor::kExploreAfter),
  // a candidate none of them started with, priced within 10% of the cheapest
  // (kExploreWithin); its log names the cheapest it passed over.
  const std::regex candidate(R"(([a-z_]+) ([0-9.]+) us(?: \(x[0-9.]+: [^)]*\))?(?: \(\+[0-9]+ levels on the device ([0-9.]+) us\))?(?: then ([0-9.]+) us)?)");
  auto total = [](const std::smatch& m) {  // the candidate's level, its carried levels, the cost to go
    double us = std::stod(m[2].str());
    if (m[3].matched) us += std::stod(m[3].str());
    if (m[4].matched) us += std::stod(m[4].str());
    return us;
  };
  int explored = 0;
  for (const abfs::Graph& g : {abfs::generate_kronecker(17, 16, 2), abfs::generate_uniform(1 << 18, 8, 2)}) {
    CAPTURE(g.name());
    abfs::PlanOptions options;
    options.rehearsals = 0;  // every BFS of the plan is seen here
    options.profile_trial_rounds = 0;
    abfs::Plan plan = abfs::plan_bfs(g, device_wisdom(), options);
    const std::vector<abfs::VertexId> sources = abfs::test::sample_sources(g, 4);
    std::map<std::string, int> last_start;  // strategy -> the last BFS that started with it
    int last_explored = -1;
    abfs::BfsResult r;
    for (int bfs = 0; bfs < 36; ++bfs) {
      const abfs::VertexId source = sources[static_cast<std::size_t>(bfs) % sources.size()];
      plan.execute(source, r);
      abfs::test::check_bfs(g, source, r);
      REQUIRE(!r.levels.empty());
      const abfs::LevelRecord& first = r.levels.front();
      CAPTURE(bfs);
      CAPTURE(first.reason);
      if (first.reason.rfind("explored: ", 0) == 0) {
        ++explored;
        if (last_explored >= 0) CHECK(bfs - last_explored >= 16);
        last_explored = bfs;
        const auto at = last_start.find(first.strategy);
        if (at != last_start.end()) CHECK(bfs - at->second > 16);
        // "explored: MINE; the cheapest CHEAPEST < ...; no BFS of the last 16 started with ..."
        const std::string passed = "; the cheapest ";
        const std::size_t split = first.reason.find(passed);
        REQUIRE(split != std::string::npos);
        const std::string mine = first.reason.substr(10, split - 10);
        const std::string cheapest = first.reason.substr(split + passed.size());
        std::smatch a, b;
        REQUIRE(std::regex_search(mine, a, candidate));
        REQUIRE(std::regex_search(cheapest, b, candidate));
        CHECK(a[1].str() == first.strategy);
        CHECK(b[1].str() == first.runner_up);
        CHECK(b[1].str() != first.strategy);
        CHECK(total(a) <= 1.10 * total(b) + 0.2);  // printed to 0.1 us
        CHECK(first.reason.find("no BFS of the last 16 started with " + first.strategy) != std::string::npos);
      }
      last_start[first.strategy] = bfs;
    }
  }
  REQUIRE_MESSAGE(explored > 0, "no BFS explored: no candidate was priced within 10% of the cheapest");
}

TEST_CASE("a dynamic_parallel run that would carry only one-block levels is priced no cheaper than one_block's run") {
  // A path of 3,000 vertices: every frontier has one or two vertices, every level is the
  // one-block loop's, in a dynamic_parallel run as in one_block's (block_loop.cuh). With
  // dynamic_parallel's model at half the device's wisdom its run's start is priced several us
  // under one_block's (its carried one-block levels are priced as one_block's either way), and
  // with cpu_expand's at 100x the host's level is dear. Level 0 then prices dynamic_parallel's
  // run no cheaper than one_block's, and ranks it after one_block (Executor::
  // no_cheaper_than_one_block); unless a BFS explores it, which its log says first. (The host's
  // route may still be the cheapest: the online correction moves each start's price; in the
  // fourth BFS the host's level 0 and one_block's run from level 1 came to 3,408.9 us against
  // one_block's run from level 0 at 3,423.6; H100, 2026-11-27.)
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> path;
  for (abfs::VertexId v = 0; v + 1 < 3000; ++v) path.push_back({v, v + 1});
  const abfs::Graph g = abfs::test::make_graph(3000, path, false);
  abfs::PlanOptions options;
  options.rehearsals = 0;
  options.profile_trial_rounds = 0;
  abfs::Wisdom wisdom = scaled_wisdom({{"dynamic_parallel", 0.5}, {"cpu_expand", 100.0}});
  abfs::Plan plan = abfs::plan_bfs(g, wisdom, options);
  const std::regex candidate(R"(([a-z_]+) ([0-9.]+) us(?: \(x[0-9.]+: [^)]*\))?(?: \(\+([0-9]+) levels on the device ([0-9.]+) us\))?(?: then ([0-9.]+) us)?)");
  for (const abfs::VertexId source : {0u, 1500u, 2999u, 700u}) {
    CAPTURE(source);
    abfs::BfsResult r;
    plan.execute(source, r);
    abfs::test::check_bfs(g, source, r);
    REQUIRE(!r.levels.empty());
    const std::string& why = r.levels.front().reason;
    CAPTURE(why);
    // Every candidate's level price, total (its level, carried levels, cost to go) and carried
    // levels, by name.
    struct Priced {
      double level_us, total_us;
      std::string carried;
    };
    std::map<std::string, Priced> priced;
    for (auto it = std::sregex_iterator(why.begin(), why.end(), candidate); it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      const double level_us = std::stod(m[2].str());
      const double total_us = level_us + (m[4].matched ? std::stod(m[4].str()) : 0.0) +
                              (m[5].matched ? std::stod(m[5].str()) : 0.0);
      priced.emplace(m[1].str(), Priced{level_us, total_us, m[3].str()});
    }
    if (why.rfind("explored: dynamic_parallel ", 0) != 0) {
      CHECK(why.find("one_block ") < why.find("dynamic_parallel "));  // ranked cheapest first
    }
    REQUIRE(priced.count("one_block") == 1);
    REQUIRE(priced.count("dynamic_parallel") == 1);
    const Priced& block = priced["one_block"];
    const Priced& dp = priced["dynamic_parallel"];
    CHECK(dp.level_us < block.level_us);  // the case: dynamic_parallel's start priced under one_block's
    CHECK(dp.carried == block.carried);  // as many carried levels
    CHECK(dp.total_us >= block.total_us - 0.2);  // printed to 0.1 us
  }
}

TEST_CASE("a forced strategy that is not applicable is replaced for that level, and the log says why") {
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> star;
  for (abfs::VertexId v = 1; v < 5001; ++v) star.push_back({0, v});  // 5,000 arcs: one_block takes level 0
  star.push_back({1, 5001});  // so that level 1 discovers a vertex, and runs (Executor::reach_sets)
  const abfs::Graph g = abfs::test::make_graph(5002, star, false);
  abfs::PlanOptions options;
  options.strategy = "one_block";
  abfs::Plan plan = abfs::plan_bfs(g, options);
  const abfs::BfsResult r = plan.execute(0);
  abfs::test::check_bfs(g, 0, r);
  REQUIRE(r.levels.size() == 2);
  CHECK(r.levels[0].strategy == "one_block");
  CHECK(r.levels[0].reason.find("handed over") != std::string::npos);
  CHECK(r.levels[1].strategy != "one_block");  // 5,000 vertices do not fit its 4,096 slots
  CHECK(r.levels[1].reason.find("one_block not applicable") == 0);
}

TEST_CASE("every strategy and plan ends a BFS that has visited all it can reach without expanding its last frontier") {
  // Undirected, so every sampled source reaches all n vertices: a hub 0 joined to leaves
  // 1..k, each leaf to a vertex of its own (k+1..2k). From the hub the third frontier (k
  // vertices) is found by the second level and is not expanded: for k = 4 in one_block's warp
  // levels, for 100 in its block levels, for 5,000 (beyond the block queue) by a grid level of
  // dynamic_parallel, and by the host-driven levels of every other strategy. From an outer
  // vertex the BFS's last frontier (the other outer vertices) is left so too.
  std::vector<Mode> all = modes();
  all.erase(std::remove_if(all.begin(), all.end(), [](const Mode& m) { return !m.options.schedule.empty(); }),
            all.end());
  for (const abfs::VertexId k : {4u, 100u, 5000u}) {
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> arcs;
    for (abfs::VertexId leaf = 1; leaf <= k; ++leaf) {
      arcs.emplace_back(0, leaf);
      arcs.emplace_back(leaf, leaf + k);
    }
    const abfs::Graph g = abfs::test::make_graph(2 * k + 1, arcs, false);
    for (const Mode& mode : all) {
      CAPTURE(k);
      CAPTURE(mode.name);
      abfs::Plan plan = plan_for(g, mode);
      for (const abfs::VertexId source : {0u, k + 1}) {
        CAPTURE(source);
        abfs::BfsResult r;
        plan.execute(source, r);
        const abfs::BfsTree reference = abfs::reference_bfs(g, source);
        abfs::test::check_bfs(g, source, r, reference);
        const std::vector<abfs::VertexId> frontier = abfs::test::frontier_sizes(reference);
        REQUIRE(r.levels.size() + 1 == frontier.size());
        const std::string& last = r.levels.back().reason;
        CAPTURE(last);
        CHECK(last.find("all " + std::to_string(2 * k + 1) + " vertices") != std::string::npos);
        CHECK(last.find("its last frontier (" + std::to_string(frontier.back()) + " vertices) not expanded") !=
              std::string::npos);
      }
    }
  }
}

TEST_CASE("executor with a device is correct on every real graph, directed and undirected, 20 sources "
          "(skipped without ../shared/data)") {
  for (const auto& path : abfs::test::real_graph_paths()) {
    abfs::LoadOptions load;
    load.use_cache = false;
    std::vector<abfs::Graph> variants{abfs::load_graph(path, load)};
    if (variants.front().directed()) {
      load.symmetrize = true;
      variants.push_back(abfs::load_graph(path, load));
    }
    for (const abfs::Graph& g : variants) {
      CAPTURE(path);
      CAPTURE(g.directed());
      const std::vector<abfs::VertexId> sources = abfs::test::sample_sources(g, 20);
      std::vector<abfs::BfsTree> references;
      for (abfs::VertexId s : sources) references.push_back(abfs::reference_bfs(g, s));
      const std::vector<Mode> all = modes();
      // The alternations on 4 of the sources, the oracle on 2, the rest on all 20.
      for (std::size_t m = 0; m < all.size(); ++m) {
        CAPTURE(all[m].name);
        abfs::Plan plan = plan_for(g, all[m]);
        abfs::BfsResult r;
        const bool exhaustive = all[m].options.flags == abfs::PlanFlags::Exhaustive;
        const bool everywhere = all[m].options.schedule.empty() && !exhaustive;
        for (std::size_t k = 0; k < sources.size(); ++k) {
          if (!everywhere && k % 5 != m % 5) continue;
          if (exhaustive && k >= 10) continue;  // every strategy at every level: 2 sources
          plan.execute(sources[k], r);
          abfs::test::check_bfs(g, sources[k], r, references[k]);
        }
      }
    }
  }
}

TEST_CASE("a graph larger than the device memory abfs may use is an OutOfMemory with bytes needed and free") {
  const abfs::Graph g = abfs::open_graph("kron:12");
  abfs::Wisdom none;
  abfs::PlanOptions options;
  options.missing_wisdom = abfs::MissingWisdom::Rule;
  REQUIRE(setenv("ABFS_DEVICE_MEMORY_LIMIT", "64K", 1) == 0);
  try {
    (void)abfs::plan_bfs(g, none, options);
    FAIL("planned within a 64 KiB device memory limit");
  } catch (const abfs::OutOfMemory& e) {
    const std::string message = e.what();
    CHECK(e.bytes_requested() > 64u * 1024u);
    CHECK(message.find(std::to_string(e.bytes_requested()) + " bytes of device memory") != std::string::npos);
    CHECK(message.find("65536 are free") != std::string::npos);
  }
  REQUIRE(setenv("ABFS_DEVICE_MEMORY_LIMIT", "64 apples", 1) == 0);
  CHECK_THROWS_AS((void)abfs::plan_bfs(g, none, options), abfs::InvalidArgument);
  REQUIRE(unsetenv("ABFS_DEVICE_MEMORY_LIMIT") == 0);
  // Without the limit the same plan fits, and the host plan never needed device memory.
  abfs::Plan plan = abfs::plan_bfs(g, none, options);
  abfs::BfsResult result;
  plan.execute(0, result);
  abfs::test::check_bfs(g, 0, result);
}
