#pragma once
/// @file plan.hpp
/// Plan, then execute — like FFTW. A Plan owns every buffer a BFS needs (host and device), so
/// execute() allocates nothing but the caller's result; one plan serves many sources. Per level,
/// the plan runs the strategy its calibrated cost models predict to be fastest (wisdom.hpp).
///
/// @code
///   abfs::Graph g = abfs::open_graph("kron:16");
///   abfs::Wisdom wisdom = abfs::Wisdom::load_or_default();
///   abfs::Plan plan = abfs::plan_bfs(g, wisdom);
///   abfs::BfsResult r = plan.execute(0);
///   // r.distances, r.parents, r.levels (one LevelRecord per level)
/// @endcode

#include <abfs/graph.hpp>
#include <abfs/result.hpp>
#include <abfs/wisdom.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace abfs {

/// The built-in per-level rule, used when no wisdom matches the device (MissingWisdom::Rule) and
/// to sample a graph's level structure. Top-down levels with a
/// small frontier run in the one-block loop (or on the host), large ones in privatized_queue;
/// the direction switches to bottom-up (gather_pull) and back by Beamer's rule.
/// @see Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
struct SwitchRule {
  /// Levels whose frontier has fewer arcs than this run on the host (cpu_expand).
  /// 8192: on the H100 with its 16-core host (2026-11-22, email-Enron and kron:22 logs in
  /// docs/PERFORMANCE.md), a host-driven GPU level costs ~35-45 us (CUB scan, expand, copy-back,
  /// sync) and serial host expansion ~6 ns per arc, so they break even near 7,000 arcs.
  EdgeOffset cpu_max_frontier_edges = 8192;
  /// Small frontiers run in one_block (many levels per launch) instead of on the host when the
  /// plan has a device.
  bool block_loop_for_small = true;
  /// Go bottom-up when the frontier's arcs exceed the unexplored arcs / pull_alpha
  /// (Beamer's alpha; 14 in the paper).
  double pull_alpha = 14.0;
  /// Go back top-down when the frontier has fewer than |V| / push_beta vertices (Beamer's beta;
  /// 24 in the paper).
  double push_beta = 24.0;
};

/// How hard plan_bfs works, after FFTW's planner rigor levels.
enum class PlanFlags {
  /// Cost models only (the wisdom for this device), no trial runs.
  Estimate,
  /// Trial runs from a few sources correct each strategy's predictions for this graph; the
  /// corrections are stored in the wisdom under the graph's fingerprint and reused next time.
  Measure,
  /// The per-level oracle: at every level every applicable strategy is timed from the same
  /// checkpointed state, and the result's oracle_ms is the cheapest chain through the measured
  /// options. The yardstick for the planner; slow (every level runs every strategy).
  Exhaustive,
  /// Fail with WisdomError unless the wisdom covers this device (and, if it holds a Measure plan
  /// for this graph, use it).
  WisdomOnly,
};

/// What to do when the wisdom holds no entry matching this device (plans under Estimate and
/// Measure; WisdomOnly always fails).
enum class MissingWisdom {
  /// Run a quick calibration (about a minute) and add it to the caller's Wisdom.
  Calibrate,
  /// Use the built-in SwitchRule; Plan::warnings() and every level's reason say so.
  Rule,
};

/// What plan_bfs may do.
struct PlanOptions {
  PlanFlags flags = PlanFlags::Estimate;
  MissingWisdom missing_wisdom = MissingWisdom::Calibrate;
  /// Measure: BFS sources per trial (random vertices with out-arcs, fixed seed).
  int trial_sources = 4;
  /// "auto" lets the cost models choose per level; a strategy name forces that strategy on every
  /// level where it is applicable (see strategy_names()); elsewhere the SwitchRule decides and
  /// the level log says why.
  std::string strategy = "auto";
  /// If non-empty, level L runs schedule[L % size] (testing every switch and conversion).
  std::vector<std::string> schedule;
  SwitchRule rule;
  /// Use a CUDA device if one exists. With none (or false), only host strategies run and
  /// Plan::warnings() says so.
  bool use_gpu = true;
  /// CUDA device ordinal.
  int device = 0;
  /// Cost-model decisions correct each prediction by what this plan measured so far: after
  /// every BFS, per strategy and frontier size class (arcs by powers of 4; levels a
  /// device-driven run carried, device levels right after an upload, and host levels 0 apart;
  /// the upload, with the BFS's first apart), the ratio of measured to predicted time (sums
  /// over the BFS's levels of that class, levels more than 4x off the class's lower median
  /// ratio left out) is folded into a factor (halfway each BFS, within 1/8..8). Systematic
  /// errors of the calibrated models on this graph (branchy host levels, DRAM-bound device
  /// levels, the first work of a BFS on cold host caches, the first device work after an idle
  /// GPU) fade after a BFS or two. The plan's first BFS teaches too: kernels load and the host's
  /// OpenMP team starts when the plan is made, and the plan's sampled BFS has run before it. A
  /// device level right after an upload whose strategy has not run one yet takes the factor of
  /// all strategies' such levels. false: the calibrated models alone.
  bool online_correction = true;
  /// Cost-model plans (Estimate, Measure, WisdomOnly; not Exhaustive): BFSs the plan runs from
  /// its sampled sources once its models are set, their results dropped, so that the online
  /// corrections learn before the caller's first BFS instead of during it. Without them a
  /// plan's first one or two BFSs ran other routes while learning (ca-AstroPh-lcc 144-155 us
  /// against 127-133 after; H100, 2026-11-27). The first and the last take the cheapest
  /// routes; those between start with a candidate priced within 10% of the cheapest, where one
  /// is, so that its levels are corrected too (a BFS explores so at most once in 16 after
  /// them). Each costs one BFS of plan construction; they stop once they took 0.1 s or a tenth
  /// of the construction before them, whichever is more (uniform:100000000:4: 2.7 s of 42).
  /// 0: none.
  int rehearsals = 4;
  /// Cost-model plans (not Exhaustive), on graphs of at most 2^24 arcs: where several sampled
  /// sources reach the same vertices (one component, as a rule the giant), each of their BFSs'
  /// level profiles is tried in turn as the one every BFS of that reach looks ahead with, by
  /// BFSs from all of those sources (this many rounds, the order rotating), and the profile
  /// whose BFSs took the least in all is kept; the first sampled one is kept otherwise. Another
  /// source's levels price a BFS's way on by its own shape, a level ahead or behind: on
  /// soc-Slashdot0902 the plan's BFSs took 0.97-1.02x the per-level oracle with two sources'
  /// profiles, 1.03-1.07x with two others', and with the trials 0.94x main's (18 process
  /// pairs; five other graphs within 0.97-1.01; H200, 2026-11-29). Measured, so the profile
  /// kept may differ between processes. Each round costs a BFS per such source for each.
  /// 0: none (the first sampled profile).
  int profile_trial_rounds = 2;
  /// Exhaustive only: before each trial the device's L2 is flushed (a write of twice its size),
  /// ahead of the checkpoint's restore, so that no trial finds there what the level's earlier
  /// trials touched: they run one after another, and a device-driven run's trial goes on to the
  /// BFS's end, so the default trials are warmer than any BFS's levels, and these colder (a BFS's
  /// level finds its own earlier levels' lines). The two oracles bound a route from both sides:
  /// on seven graphs the adaptive plan's median BFS took 1.01-1.27x the default oracle's and
  /// 0.88-1.12x the cold one's (H100, 2026-11-28; docs/PERFORMANCE.md, fifty-fifth session).
  /// Costs a device buffer of twice the L2 and one memset a trial. No effect without a device.
  bool cold_trials = false;
};

/// A reusable BFS plan for one graph. Move-only. Not thread-safe: one execute at a time.
class Plan {
 public:
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  /// BFS from source. @throws InvalidArgument if source >= |V|; CudaError on device failure.
  /// After the BFS (outside its timed total_ms) the plan learns from it (what it reached; a
  /// cost-model plan's corrections and profiles); where that took over 1 ms and longer than
  /// the BFS (a new component's profile: 13-24 ms on uk-2007-05@100000), it runs one more BFS
  /// from the same source on the device, its result dropped, so that the next BFS does not
  /// start cold (the last level record says so).
  BfsResult execute(VertexId source);
  /// Same, reusing result's vectors (no allocation after the first call with the same graph).
  void execute(VertexId source, BfsResult& result);

  /// Strategies this plan can run, in registry order.
  std::vector<std::string> strategies() const;
  /// Things the caller should know (no GPU found, so host only; ...).
  const std::vector<std::string>& warnings() const;
  /// Name of the device in use, or "host only".
  std::string device_name() const;
  /// Bytes of the graph's CSR and the plan's per-vertex host arrays backed by 2 MiB transparent
  /// huge pages (madvise MADV_HUGEPAGE before their first write, MADV_COLLAPSE for a CSR built
  /// elsewhere; Linux 6.1+): fewer TLB misses in the BFS's host levels.
  /// 0 where the kernel declined (THP disabled, or no memory to compact); the BFS runs the same.
  std::size_t huge_page_bytes() const;
  /// What building the plan took, phase by phase, in milliseconds, in order: "buffers" (host
  /// and device arrays, the graph's upload, a directed graph's in-arcs built at their first
  /// use), "statistics" (GraphStats), "strategies prepared" (each strategy's prepare), then with
  /// a device "in-list lengths" (their histogram, for the bottom-up step's scans), "calibration"
  /// (where no wisdom matched and a quick calibration ran), "components" (strongly connected
  /// components and their reach bounds, on graphs of at most 2^24 arcs: every BFS ends once it
  /// has visited its source's bound), "warm-up" (a first BFS), "sampled BFSs" (the level
  /// profile), "strategies" (each warmed once), "models"
  /// (the wisdom's, and Measure's trials where they ran), "sampled profiles tried" (where
  /// PlanOptions::profile_trial_rounds applies), "rehearsals" (where they ran), "level
  /// 0 decided ahead" (for the frequent sources' out-degrees, where the models decide).
  /// uniform:100000000:4: 13.6 s, of which buffers 7.2, statistics 1.4, sampled BFSs 2.1,
  /// rehearsals 1.3 (H100 host, 2026-11-27; 31.6 s before the in-arcs and statistics ran in
  /// parallel).
  const std::vector<std::pair<std::string, double>>& construction_ms() const;
  /// Where the per-level decisions come from: "wisdom for <device> (calibrated <date>)",
  /// "built-in rule (...why...)", "forced", ...
  const std::string& decision_source() const;
  /// Graph statistics, with the sampled level structure (the largest sampled BFS).
  const GraphStats& graph_stats() const;
  /// The predicted schedule along the sampled level structure: one record per sampled level with
  /// the strategy the cost models pick, its predicted time and the runner-up (no measured
  /// times). Empty without cost models.
  std::vector<LevelRecord> predicted_schedule() const;

  struct Impl;

 private:
  explicit Plan(std::unique_ptr<Impl> impl);
  friend Plan plan_bfs(const Graph&, Wisdom&, const PlanOptions&);
  std::unique_ptr<Impl> impl_;
};

/// Allocates everything a BFS on graph needs, uploads the graph to the device, samples the
/// graph's level structure and picks the cost models: the wisdom entry whose fingerprint matches
/// this device (Measure and a quick calibration add to wisdom; the caller saves it). The plan
/// keeps a (shared) copy of the graph and a copy of the models.
/// @throws InvalidArgument for an unknown strategy name; WisdomError under WisdomOnly when the
/// wisdom does not match the device (naming the fields that differ); OutOfMemory if the graph
/// does not fit on the device; CudaError on other device failures.
Plan plan_bfs(const Graph& graph, Wisdom& wisdom, const PlanOptions& options = {});
/// Same with Wisdom::load_or_default() (calibrations and Measure results are not kept).
Plan plan_bfs(const Graph& graph, const PlanOptions& options = {});

/// How thorough a calibration is.
enum class CalibrationLevel {
  Quick,    ///< about a minute on an H100: small sweeps, few repetitions
  Patient,  ///< several minutes: larger graphs and more sources
};

/// Options of calibrate().
struct CalibrationOptions {
  CalibrationLevel level = CalibrationLevel::Quick;
  int device = 0;
  /// Called as calibration proceeds: fraction done (0..1) and what is being measured.
  std::function<void(double fraction, const std::string& what)> progress;
  /// Where not empty, every sample the fits use is written to this CSV file, one per line:
  /// graph, model, measured_us, then the model's features as name=value (for refitting the
  /// models offline; nothing is written if calibration fails).
  std::string samples_csv;
};

/// Measures the device (launch latency, host round trip, the device-side level links: tail
/// launch, device graph launch and graph WHILE nodes; one-block barrier cost, streaming
/// bandwidth, random gathers and atomics from L2 and DRAM, pinned transfers, host expansion
/// rates), runs every strategy at every level of BFSs over generated
/// graphs of several shapes (Exhaustive trials from checkpointed state), and fits each
/// strategy's and conversion's cost model by least squares, recording the fit errors.
/// @throws InvalidArgument if there is no CUDA device; CudaError on device failures.
DeviceWisdom calibrate(const CalibrationOptions& options = {});

/// Names of all strategies in registry order ("cpu_expand", "privatized_queue", ...).
std::vector<std::string> strategy_names();

/// Number of usable CUDA devices (0 when there is no driver or no device).
int cuda_device_count();

}  // namespace abfs
