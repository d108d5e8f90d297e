#pragma once
// The level-by-level executor: per level, pick a strategy (by cost models, forced, scheduled,
// or the built-in SwitchRule when no wisdom applies), move the visit state to where that
// strategy runs and convert the frontier to the representation it consumes, run it, and log the
// levels it advanced with the predictions behind the choice. Under PlanFlags::Exhaustive it
// times every applicable strategy at every level from a checkpoint and solves for the oracle.

#include <abfs/plan.hpp>

#include "planner/cost_model.hpp"
#include "planner/in_list_scans.hpp"
#include "strategies/dp_grid_lanes.hpp"
#include "strategies/strategy.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace abfs::detail {

/// The cost models a plan decides with: fitted models by strategy or conversion name, and the
/// per-graph corrections of a Measure plan (factor 1 when absent).
struct ModelSet {
  std::map<std::string, CostModelFit> models;
  std::map<std::string, double> scale;
  /// The executor's own cost per host-driven level (decision, bookkeeping), added to every
  /// level that is not carried by a device-driven run (wisdom measurement executor_level_us),
  /// until the executor has measured its own decided levels (Executor::level_overhead_us).
  double level_overhead_us = 0.0;
};

/// A bottom-up level's in-arc scans: all of them, and its critical path in a warp's dependent
/// steps (gather_pull's features).
struct PullScans {
  double scanned_edges = 0.0;
  double warp_steps = 0.0;
};

/// A sampled level's bottom-up scans (LevelShape::pull_scanned_edges, pull_warp_steps) for a
/// frontier of frontier_edges arcs matched to it, which may be another source's. With in_lists,
/// the scanned arcs scaled by S(p) at the frontier's share of the arcs over S at the sampled
/// level's (a scan stops at its first in-arc from the frontier), each over the shortest lists
/// holding the unexplored arcs (unexplored_edges, sampled_unexplored_edges: the unvisited
/// vertices' lists, InListScans::shortest), or over every list where the sampled level's are
/// not given; without in_lists, by min(1, |V| / arcs) of the frontier over that of the sampled
/// level's (every list of the mean length). Where that scales them up, at most
/// unexplored_edges and never less than sampled. The warp steps scaled by the latter where it
/// is above 1, at most the level's steps with every scan to its list's end
/// (pull_warp_steps_full); unchanged where the frontier has more arcs (an unreached in-list is
/// walked whole whatever the frontier). Unchanged at the sampled level's own frontier.
PullScans profile_pull_scans(const LevelShape& shape, EdgeOffset frontier_edges, EdgeOffset unexplored_edges,
                             const GraphStats& stats, const InListScans* in_lists = nullptr,
                             EdgeOffset sampled_unexplored_edges = 0);

/// A sampled BFS's levels as a profile holds them (Executor::make_profile): the levels with an
/// assumed one past the last (one vertex, the mean out-degree's arcs; none where there are no
/// levels), and by level the vertices discovered through it and the arcs out of the vertices
/// not visited through it.
struct ProfileLevels {
  std::vector<LevelShape> levels;
  std::vector<VertexId> visited;
  std::vector<EdgeOffset> unexplored;
};
ProfileLevels profile_levels(std::vector<LevelShape> levels, const GraphStats& stats);

/// The sampled level a BFS whose visit order ends at `visited` is matched to: the first that
/// had discovered as many vertices (profile_visited: through each level), or the one before
/// where that is nearer in ratio (nearer_below); 0 for no levels. The executor's
/// matching_profile_level(visited, frontier) adds the tail rule.
std::size_t matched_profile_level(const std::vector<VertexId>& profile_visited, VertexId visited);

/// The sampled level from `from` up to `widest` (the profile's widest level) whose frontier is
/// nearest `frontier` vertices in ratio (nearer_below; `widest` where none up to it is as large,
/// `from` where it is past `widest`): the level a BFS goes on from after a level that
/// discovers `frontier` vertices. Executor::level_one places the level after a source's level 1
/// so. Matched by its visits alone, soc-Slashdot0902's source 11208 (a level 1 of 102 vertices
/// and 16,058 arcs, which discovers 9,700) went on from the sample's level 3 (1,372 vertices), a
/// growing level more than its BFS has, and its run was priced at 9-10 levels and 128-145 us
/// past level 0 where it took 7 and ~113 (H200, 2026-11-29).
std::size_t frontier_matched_level(const std::vector<LevelShape>& levels, std::size_t widest, VertexId frontier,
                                   std::size_t from);

/// Discoveries per frontier arc of sampled level `level`: the next level's frontier over this
/// one's arcs (0 past the sample or where the level had no arcs).
double profile_discovered_per_arc(const std::vector<LevelShape>& levels, std::size_t level);

/// Vertices a level is expected to discover, from a sampled BFS's level shapes: the discoveries
/// per frontier arc at the frontier's progress times frontier_edges, at most unvisited_vertices.
/// `level` is the sampled level matched to a visit order ending at `visited` (the first that had
/// discovered as many vertices; profile_visited: vertices discovered through each sampled
/// level); between it and the level before, the rate is interpolated (interpolate_per_arc).
/// At the sampled source's own levels (visited = profile_visited[level]) it is the next level's
/// size exactly; 0 past the sample.
double profile_discovered(const std::vector<LevelShape>& levels, const std::vector<VertexId>& profile_visited,
                          std::size_t level, VertexId visited, EdgeOffset frontier_edges,
                          VertexId unvisited_vertices);

/// This BFS's next frontier where the sampled BFS's level `next` is matched to it: the vertices
/// the level is expected to discover (profile_discovered; at level 0 the source's out-degree),
/// at most num_vertices, with that level's arcs per vertex. {0, 0} where the level is empty.
LevelShape estimated_next_frontier(const LevelShape& next, double discovered_vertices, VertexId num_vertices);

/// The frontier after level 0 of a BFS from `source`: the source's out-neighbours other than
/// itself and their out-arcs, read from the CSR (one degree read per neighbour). Exact where
/// duplicate arcs were dropped (the loaders' default), an upper bound where they were kept.
/// {0, 0} where the source has more than max_arcs arcs (the caller estimates instead).
LevelShape source_next_frontier(const Graph& graph, VertexId source, EdgeOffset max_arcs);

/// The vertices a sampled BFS discovered: its frontiers' sizes summed.
inline VertexId profile_reach(const std::vector<LevelShape>& levels) {
  VertexId reach = 0;
  for (const LevelShape& l : levels) reach += l.frontier_vertices;
  return reach;
}

/// Whether two sampled BFSs discovered as many vertices, within 10% of the larger count.
inline bool similar_reach(VertexId a, VertexId b) {
  const VertexId larger = a > b ? a : b;
  return static_cast<double>(larger - (a > b ? b : a)) <= 0.1 * static_cast<double>(larger);
}

/// Of sampled BFSs with these reaches (vertices discovered), in the order sampled: the indices
/// of those to keep, smallest reach first. One is dropped where one kept before it has a
/// similar_reach (the same component, as a rule): a connected graph keeps its first.
std::vector<std::size_t> distinct_profiles(const std::vector<VertexId>& reaches);

/// The profile a BFS that has discovered `visited` vertices looks ahead with: the first of
/// `reaches` (ascending) that reached at least as many, else the last. A BFS in a small
/// component so is not priced as the giant component's, and one that outgrows a profile moves
/// on to a larger one: cnr-2000's sampled source reached 14 vertices, and BFSs from sources
/// reaching 2,531 and 325,557 ran past it with no levels to look ahead over (host levels of
/// 5,000 arcs at 20 us against one_block's 10; privatized_queue at 20-35 us a level where a
/// one_block run takes 3-7; H100, 2026-11-24).
std::size_t profile_for(const std::vector<VertexId>& reaches, VertexId visited);

/// The log factor an online-correction class moves towards when a BFS's levels of it took
/// exp(observed) times their uncorrected price: the median of its factor now (current), that
/// ratio and the ratio of its previous fold (folded: it had one), so that a move needs two
/// BFSs to agree; at its first fold, the ratio itself (a model's error shows from its first
/// BFS: luxembourg_osm's host-run levels took 2.5x their price). One slow BFS otherwise priced a
/// strategy out for good, since a class that is not run again does not unlearn it: in `abfs
/// compare`, which runs the other plans between the adaptive plan's rounds, the warm-up BFS of
/// the second round took its level-0 upload cold, and every device start at level 0 was priced
/// 9-14 us higher for the rest of the round (one_block 42.8 -> 55.0 us, dynamic_parallel 53.6 ->
/// 67.8 on uniform:1048576:8, where dynamic_parallel's start had taken 53.1; wave and
/// soc-Slashdot0902 alike), and no BFS started on the device at level 0 again (H100, 2026-11-26).
/// A first fold from fewer than kFreeFoldLevels levels (levels: the BFS's levels of the class)
/// keeps the factor and waits for a second BFS, as a later fold does: one upload, one run's
/// start, is one sample, and a cold one priced its class out for good (kron:22's first BFS of a
/// plan uploaded 85 visits after a host level 0 in 29-80 us, priced 15.5, where the per-level
/// oracle's took 18-20; the class's factor of 3.6-5x then priced every host level 0 out; H100,
/// 2026-11-26). A class of many levels (luxembourg_osm's host levels) learns from its first BFS.
/// So does a class whose first BFS lowers its factor (observed < current, levels > 0; levels 0 is
/// a group's fallback, fold_levels): a class priced too low runs again and so corrects itself,
/// one priced too high by its group's fallback is not run and not unlearned. kron:22's
/// bottom-up level of 762,957 vertices and 1.6 M arcs (one source's level 4, its size class run
/// by no other) took 51-54 us, ~1.1x its model, and was priced 72-76 us in both rounds by the
/// fallback's ~1.6x of the larger bottom-up levels; taken at its first fall, 53.5 in round 2
/// (H100, 2026-11-28).
double correction_target(double current, double observed, double previous, bool folded, std::size_t levels);
inline constexpr std::size_t kFreeFoldLevels = 3;
/// Levels priced under this (us, uncorrected) teach their own class but not their group's
/// fallback (Executor::fold_observations).
inline constexpr double kFallbackMinUs = 1.0;

/// The levels a fold passes to correction_target for a class whose BFS ran `levels` levels of
/// it: level 0's group (first_level_group) learns from its first BFS (kFreeFoldLevels; a rise
/// there waits for a second BFS all the same, Executor::fold_observations); a
/// group's fallback (the factor of that group's classes not run yet) waits for a second BFS
/// whatever its levels (0). The executor's first BFS that teaches runs on cold caches, and a
/// fallback learned from it priced every class its BFSs had not run: cnr-2000's first BFS in
/// `abfs compare` (a host run of four levels of 4-5 arcs, 0.98 and 5.89 us priced 0.09 and 0.42)
/// set the carried host levels' fallback to its 8x limit, and a later BFS's host level of 339
/// arcs was priced 40.8 us where it takes 2-3 (it went to the device, and the 73-vertex BFS took
/// 0.06-0.09 ms against 0.009; H100, 2026-11-27).
inline std::size_t fold_levels(bool first_level_group, bool fallback, std::size_t levels) {
  return first_level_group ? kFreeFoldLevels : fallback ? 0 : levels;
}

/// The cost to go from the host at a profile level (us): staying with cpu_expand (keep), or the
/// cheapest way off the host (leave, which includes the profile's upload profile_upload) with
/// this BFS's own upload instead (own_upload). With no way off (leave infinite), keep.
inline double host_cost_to_go(double keep, double leave, double profile_upload, double own_upload) {
  return std::min(keep, leave - profile_upload + own_upload);
}

/// The size an online-correction class of a level is keyed by (Executor::size_class): the
/// frontier's arcs, or for a bottom-up level the vertices left unvisited, whose in-lists its
/// scans cover. Keyed by arcs, a bottom-up level of the wide middle and one of the tail with as
/// many arcs shared a class: uniform:8388608:8's levels launched ahead at levels 8 and 9 (arcs'
/// class 11 both; 1-4 M and ~6,000 unvisited vertices) took 1.07x and 0.89x their prices,
/// uniform:1048576:8's at level 6 (~300,000 unvisited) 1.21-1.44x where level 8's of the same
/// arcs' class (~1,500 unvisited) took 0.93-1.00x (medians over each level's BFSs; H200,
/// 2026-11-28).
inline EdgeOffset correction_size(bool bottom_up, const strategies::FrontierState& state) {
  return bottom_up ? static_cast<EdgeOffset>(state.unvisited_vertices) : state.frontier_edges;
}

/// A sampled BFS's tail, from the level after its widest: by level, the smallest frontier so
/// far (not increasing). Returns the first level of the tail whose frontier had shrunk to at
/// most `frontier` vertices (the tail's last if none had; 0 for an empty tail).
std::vector<VertexId> tail_minima(const std::vector<LevelShape>& levels, std::size_t from);
std::size_t shrunk_to(const std::vector<VertexId>& tail_min, VertexId frontier);

/// A device-driven strategy's runs over a sampled profile of `levels` levels (the executor's
/// lookahead): vectors of levels + 1 entries, by profile level. us throughout.
struct RunLookahead {
  std::vector<double> prefix;    ///< the carried levels' time before the level
  std::vector<std::size_t> end;  ///< where a run reaching the level stops (levels: it does not)
  std::vector<double> leave;     ///< the cost to go from the level (device queue) without the run
  std::vector<double> leave_host;  ///< its host levels' part
  std::size_t first_handback = 0;  ///< the first level a run reaching it hands back before (levels: none)
  /// What the run's one-block loop pays to stop before the level (strategies::LoopExits; 0
  /// where the run's previous level was a grid level). A dynamic_parallel run's grid level
  /// after a one-block level pays it in prefix.
  std::vector<double> exit;
  /// A run that stops before the level: its loop's exit, then the cost to go without it.
  double stop_us(std::size_t level) const { return leave[level] + exit[level]; }
  /// The run carrying on from level at its best: its carried levels, then stop_us where it
  /// stops before the profile's end (nothing past the end).
  double to_go(std::size_t level) const;
  /// The host levels' part of to_go: leave_host where the run stops before the end.
  double to_go_host(std::size_t level) const {
    if (level >= end.size()) return 0.0;
    const std::size_t stop = end[level];
    return stop + 1 < end.size() ? leave_host[stop] : 0.0;
  }
};

class Executor {
 public:
  /// Allocates everything (host, device when use_device, a checkpoint under Exhaustive) and
  /// prepares every usable strategy.
  Executor(const Graph& graph, const PlanOptions& options, bool use_device);

  /// Decide by these models from now on (nullptr: the SwitchRule); why names their source.
  void set_models(std::shared_ptr<const ModelSet> models, std::string why);
  /// The sampled level structure the decisions look ahead with (device-driven runs).
  void set_level_profile(const std::vector<LevelShape>& levels) { set_level_profiles({levels}); }
  /// Several sampled BFSs (plan_bfs samples a few sources), those of distinct reach
  /// (distinct_profiles). A BFS looks ahead with the smallest of them and moves on to the next
  /// larger one when it has discovered more vertices than the one it uses (profile_for). Each
  /// gets one more level of one vertex (and the mean out-degree's arcs) after its last.
  /// sources (optional, parallel to profiles): the sampled BFSs' sources, so that once the
  /// executor knows the graph's components (learn_profile) a BFS in a sampled source's
  /// component looks ahead with that source's profile from its level 0.
  void set_level_profiles(const std::vector<std::vector<LevelShape>>& profiles,
                          const std::vector<VertexId>& sources = {});
  /// With PlanOptions::online_correction, a BFS the cost models decided whose reach no sampled
  /// profile has (similar_reach), of kMinLearnedReach vertices or more, adds its levels as the
  /// profile of its source's strongly connected component (strongly_connected_components,
  /// computed at the first such BFS where the graph has at most kMaxComponentArcs arcs; every
  /// source of a component reaches the same vertices), up to kMaxLearnedProfiles. A later BFS
  /// from that component looks ahead with it from level 0 and never moves to another; BFSs from
  /// other components go on as before, by reach (profile_for). A BFS that outgrew the profile it
  /// started with and whose reach a sampled profile has keys its component to that profile.
  static constexpr std::size_t kMaxLearnedProfiles = 8;
  static constexpr VertexId kMinLearnedReach = 256;
  static constexpr EdgeOffset kMaxComponentArcs = EdgeOffset{1} << 24;
  /// A one_block run the models price at this many us or more (its first level and those it
  /// carries) prefetches the CSR into the L2 (LevelContext::prefetch_l2): several times the
  /// ~6-9 us a 15 MB CSR's prefetch takes, which a run that ends first waits for.
  static constexpr double kPrefetchRunUs = 50.0;
  /// Computes the graph's strongly connected components and their reach bounds
  /// (component_reach_bounds) now, where it has at most kMaxComponentArcs arcs (else nothing):
  /// from then on every BFS execute runs ends once it has visited its source's bound (the
  /// frontier it holds then is not expanded: it would discover nothing), and starts with the
  /// profile of its component or its bound (start_profile). Plan construction calls it: 48 ms
  /// on cnr-2000 (3.1 million arcs: the components 39, the bounds 10), 31 on
  /// uk-2007-05@100000, 48 on wave (development host, 2026-11-29).
  void find_components() { know_components(); }
  /// The most vertices a BFS from source can reach (component_reach_bounds of its strongly
  /// connected component), or the largest VertexId where the components are not known.
  VertexId reach_bound(VertexId source) const noexcept {
    return component_bounds_.vertices.empty() ? std::numeric_limits<VertexId>::max()
                                              : component_bounds_.vertices[components_[source]];
  }
  /// The profiles kept: sampled (distinct reaches) and learned.
  std::size_t profile_count() const noexcept { return profiles_.size(); }
  /// The profile levels a BFS looking ahead with profile k (sampled by reach, smallest first,
  /// then learned) is priced to run: all of them (its sampled BFS's and one assumed past them),
  /// or where a reach set has its sampled BFS's reach, all before that BFS's last frontier (a
  /// BFS from the set ends without expanding it: execute). 0 for an empty profile.
  std::size_t profile_levels_run(std::size_t k) const;
  /// Every level run from now on (and every Exhaustive trial) adds its samples to sink
  /// (nullptr: stop collecting). Exhaustive trials also add synchronized conversion samples.
  void collect_samples(std::vector<CostSample>* sink) { samples_ = sink; }
  /// Whether cpu_expand may go on over several levels in a host run (run_on_host; default
  /// true). Calibration turns them off to time the executor's work per decided level.
  void set_host_runs(bool allowed) { host_runs_ = allowed; }
  /// With a device, a BFS whose learning after it (reach set, profile, corrections) took longer
  /// than `us` (default 1,000) and than `bfs_share` times the BFS itself (default 1)
  /// runs one untimed BFS from its source again, which warms the next BFS as any BFS does; its
  /// last level record says so. rewarms(): how many ran.
  void set_rewarm_after(double us, double bfs_share) {
    rewarm_after_us_ = us;
    rewarm_bfs_share_ = bfs_share;
  }
  std::size_t rewarms() const noexcept { return rewarms_; }

  /// One BFS from source into result. Where a reach set holds the source (reach_sets: what an
  /// earlier BFS reached), the BFS ends as soon as it has visited as many vertices as the
  /// smallest such set: it then has every vertex it can reach, and its last frontier, whose
  /// expansion would discover nothing, is not expanded (BfsBuffers::reach_limit; the last level
  /// record says so). Level 0 always runs. Then keeps the BFS's reach as a set where none of
  /// its size held the source (learn_reach_set).
  /// @throws InvalidArgument if source is not a vertex.
  void execute(VertexId source, BfsResult& result);
  /// Frontier sizes per level of one BFS from source, run level by level whatever the flags,
  /// with what a bottom-up step would scan at each level and its critical path
  /// (strategies::add_pull_warp_steps). Keeps the vertices it reached as a reach set.
  std::vector<LevelShape> sample_levels(VertexId source);
  /// What a BFS reached: a BFS from any of its vertices reaches only vertices of it (it is
  /// closed under arcs), so one that has visited as many has them all.
  struct ReachSet {
    std::vector<std::uint64_t> members;  ///< a bit a vertex
    VertexId vertices = 0;
    EdgeOffset arcs = 0;  ///< out of its vertices: all that a BFS ending there examined
    bool contains(VertexId v) const { return (members[v >> 6] >> (v & 63)) & 1u; }
  };
  /// The reach sets: the sampled BFSs' (sample_levels), distinct, then those of up to
  /// kMaxLearnedReachSets BFSs run by execute, of kMinLearnedReach vertices or more, that no set
  /// of their size held: uk-2007-05@100000's sampled BFSs reached 100,000 vertices, and 11 of 16
  /// random sources 55,006, each of their BFSs expanding a last frontier of ~40,000 vertices
  /// (50 of its 130 us) that discovered nothing (H100, 2026-11-27).
  const std::vector<ReachSet>& reach_sets() const noexcept { return reach_sets_; }
  static constexpr std::size_t kMaxLearnedReachSets = 8;
  /// The reach set holding source with the fewest vertices; nullptr where none holds it.
  const ReachSet* reach_set_for(VertexId source) const;
  /// One BFS from source, run level by level whatever the flags, its result dropped: the
  /// executor's first BFS runs with the device's caches cold, and sample_levels learns from the
  /// BFSs after it (learn_sampled_block_levels).
  void warm_up(VertexId source);
  /// One BFS from source as execute runs it (after set_models: the online corrections learn from
  /// it) into scratch, for PlanOptions::rehearsals. explore: its level 0 may explore whatever
  /// BFS explored last (kExploreAfter).
  void rehearse(VertexId source, bool explore, BfsResult& scratch);
  /// Level 0 decided ahead (first_choice_for) for the sources a BFS may start from: the keys
  /// (FirstChoiceKey, with the profile a BFS from there starts with) of up to
  /// kAheadSampleVertices vertices with out-arcs spread evenly over the graph, the
  /// kAheadKeys most frequent, each decided once for one of its vertices (within
  /// kAheadBudget). For a plan's end (plan_bfs, after the rehearsals); nothing without models,
  /// forced, scheduled or Exhaustive. Without it a BFS from a source no BFS had the key of
  /// decided its level 0 in full: 2.6-3.6 us of executor time there against 0.3-0.5 decided
  /// ahead, its level 0 1.5-5.1 us over forced dynamic_parallel's on the same route where the
  /// same sources' second BFSs, decided ahead, were within 1.2 us of it (medians of ten
  /// processes; ca-AstroPh-lcc, uk-2007-05@100000 and wave; H200, 2026-11-29).
  void decide_first_levels_ahead();
  static constexpr VertexId kAheadSampleVertices = VertexId{1} << 16;
  static constexpr std::size_t kAheadKeys = 512;
  // The decisions stop once they took this long (the most frequent keys first): email-Enron's
  // 374 keys took 3.8 ms (H200 host, 2026-11-29).
  static constexpr std::chrono::milliseconds kAheadBudget{20};
  /// One untimed BFS from source that runs the strategies in turn, level by level (the device's
  /// first), so that each pays its first launch in this process here and not in a caller's BFS:
  /// in a fresh process the main job's first privatized_queue level took 2.8 ms of host time
  /// (14 us on the device) where later ones take ~25 us (email-Enron, H100, 2026-11-24). Skipped
  /// for forced and scheduled plans, and for one strategy. Teaches the online correction nothing
  /// (run it before set_models).
  void warm_strategies(VertexId source);
  std::vector<std::string> strategy_names() const;
  const GraphStats& stats() const noexcept { return stats_; }
  /// BfsBuffers::huge_page_bytes of the executor's buffers.
  std::size_t huge_page_bytes() const noexcept { return buffers_.huge_page_bytes(); }
  /// The constructor's phases after the buffers, in milliseconds: "statistics"
  /// (compute_stats), "strategies prepared" (each strategy's prepare), and where gather_pull can
  /// run "in-list lengths" (InListScans). Plan::construction_ms.
  const std::vector<std::pair<std::string, double>>& construction_ms() const noexcept { return construction_ms_; }
  GraphStats& stats() noexcept { return stats_; }
  const std::string& decision_source() const noexcept { return decision_source_; }
  bool has_models() const noexcept { return models_ != nullptr; }
  /// The cost models' choice at every level of the largest sampled profile (no measurement).
  /// Not const: between BFSs the executor holds the smallest (use_profile), and this moves to
  /// the largest and back.
  std::vector<LevelRecord> predict_profile();
  /// Median over the last execute's host-driven levels of the executor's own time per level
  /// (level wall time minus the strategy's run and the conversion).
  double last_level_overhead_us() const;
  /// The executor's own time a decided level after level 0 is priced with: the lower median of
  /// the last 32 such levels of the BFSs that teach, calibration's executor_level_us standing in
  /// for the missing ones until three are seen (ModelSet::level_overhead_us before any).
  double decided_overhead_us() const { return level_overhead_us(); }

 private:
  // Why the cost models chose: formatted into the level's reason only after the BFS is timed.
  // Every candidate of a decision, cheapest first, so that the log shows what each was priced.
  static constexpr int kReasonCandidates = 5;
  struct ModelReason {
    const char* name[kReasonCandidates] = {};  // cheapest, runner-up, ... (nullptr: none)
    double us[kReasonCandidates] = {};
    std::size_t carried_levels[kReasonCandidates] = {};
    double carried_us[kReasonCandidates] = {};
    double future_us[kReasonCandidates] = {};
    double surprise[kReasonCandidates] = {};  // the candidate's in-BFS factor (surprise_), 1: none
    bool host_run = false;  // continue_on_host: us[1] is the profile's best way off the host
    // Priced by persistence (persistence_levels): this many more levels like this one, the
    // frontiers that make it so (two levels back, one back, this one) and the profile's next.
    int persist_levels = 0;
    VertexId persist_frontiers[3] = {};
    VertexId profile_next = 0;
    const char* left_out = nullptr;  // a strategy not priced: its run handed back at this level
    const char* explored_over = nullptr;  // the cheapest, where name[0] was explored instead
  };
  static std::string format_reason(const ModelReason& why);
  struct Choice {
    Choice() = default;
    Choice(strategies::Strategy* s, std::string why) : strategy(s), reason(std::move(why)) {}
    strategies::Strategy* strategy = nullptr;
    std::string reason;
    double predicted_us = 0.0;
    double predicted_conversion_us = 0.0;
    const char* runner_up = nullptr;  // a strategy's name()
    double runner_up_predicted_us = 0.0;
    // With cpu_expand chosen by the full decision: how much cheaper it is than the best other
    // candidate (scores: the level, its conversion, what it carries, the cost to go), for
    // host_leave_shift_.
    double stay_margin_us = std::numeric_limits<double>::quiet_NaN();
    // Explored instead of the cheapest (explore_first_level_): the allowance it was given, us.
    double explore_bonus_us = 0.0;
    // The full decision: a candidate other than the cheapest was priced within kExploreWithin
    // of it (one explore_first_level_ could have run instead).
    bool explorable = false;
    bool priced = false;           // predicted_us and predicted_conversion_us are the models'
    bool persistence = false;      // priced by persistence: a run goes without a hand-back table
    bool deferred_reason = false;  // reason is empty; model_reason holds it
    ModelReason model_reason;
  };
  // Where the visit state is, besides the frontier: what a conversion must move.
  struct Placement {
    strategies::Location location = strategies::Location::Host;
    VertexId synced_end[2] = {1, 0};  // prefix of the visit order valid on [host, device]
    int bitmap_level = -1;             // level whose frontier bitmap is valid on the device
    VertexId& synced(strategies::Location l) { return synced_end[l == strategies::Location::Host ? 0 : 1]; }
    VertexId synced(strategies::Location l) const {
      return synced_end[l == strategies::Location::Host ? 0 : 1];
    }
  };

  // Where the frontier is, as the lookahead's cost to go distinguishes it: on the host before
  // the BFS used the device (its first upload is dearer), on the host, on the device as a queue,
  // on the device with the level's bitmap.
  enum class Place { HostFresh, Host, DeviceQueue, DeviceBitmap };
  static constexpr std::size_t kPlaces = 4;
  using PlaceCosts = std::array<double, kPlaces>;
  static Place place_of(const Placement& placement, int level);
  static Place place_after(const strategies::Strategy& s, Place from);
  static strategies::Location location_of(Place p) {
    return p == Place::HostFresh || p == Place::Host ? strategies::Location::Host : strategies::Location::Device;
  }
  // A level's predicted conversions from `from`, whichever strategy runs it: the upload of
  // upload_vertices visits (from the host), the download (from the device) and the
  // queue-to-bitmap step (unless the bitmap is there); 0 where no model exists.
  struct Conversions {
    double upload_us = 0.0;
    double to_host_us = 0.0;
    double to_bitmap_us = 0.0;
  };
  Conversions conversions(Place from, const strategies::FrontierState& state, VertexId upload_vertices) const;
  // What s pays of them before it runs.
  static double conversion_us(const strategies::Strategy& s, Place from, const Conversions& c);
  // What finishing the BFS costs after s ran from `from` with profile level `next` still to
  // come: the levels a device-driven s carries (count and time, when asked for), then the cost
  // to go from where it stops. stop_at_next: a run of s carries none (this BFS's next frontier
  // outgrows the one-block loop where the sample's did not: next_outgrows_block).
  double future_us(const strategies::Strategy& s, Place from, std::size_t next, std::size_t* carried_levels,
                   double* carried_us, bool stop_at_next = false) const;
  // The cost to go from the host (`at`: HostFresh or Host) at profile level `next`, with the
  // way off the host priced with this BFS's upload of upload_vertices visits for its level
  // `level` instead of the profile's (Profile::host_upload): the profile's visits are another
  // source's. kron:22's level 0 priced cpu_expand's cost to go 43 us above privatized_queue's
  // (412 against 369 us), the upload of its sample's visits, where this BFS's 6 took 11-15 in
  // the per-level oracle's trials (H100, 2026-11-26).
  // pace_excess: this BFS's factor on the host's levels less 1 (host_pace_excess): the host
  // levels' part of each way on (Profile::value_host) priced at the BFS's pace.
  double host_future_us(std::size_t next, Place at, VertexId upload_vertices, int level, double pace_excess) const;
  // The profile's lookahead of s's device-driven runs; nullptr for a strategy that runs one level.
  const RunLookahead* run_lookahead(const strategies::Strategy& s) const {
    return &s == block_strategy_ ? &profile_.block_run : &s == dp_strategy_ ? &profile_.dp_run : nullptr;
  }
  // The host levels' part of future_us's cost to go (us at the lookahead's prices).
  double future_host_us(const strategies::Strategy& s, Place from, std::size_t next, bool stop_at_next) const;
  // This BFS's factor on the host's later levels less 1: its surprise times its pace so far
  // (HostPace::future_factor); 0 within kPaceIgnored. The lookahead's ways on are priced with
  // their host levels (Profile::value_host) at it, every way alike: the stay test had priced
  // this BFS's level at its pace and the levels after it at none. cnr-2000's source 44408 ran
  // 12 host levels at 1.7-1.9x the lookahead's prices (201.9 us measured, 213.0 priced with the
  // pace, 118.7 without, which the tests compared against one_block's run off the host, ~113
  // for 14 levels): 0.207 ms where the oracle's route (one level on the host, then one_block)
  // took 0.132. Pacing only the host's own cost to go made a detour over the device look
  // cheaper (its way back to the host unpaced): luxembourg_osm's source 51708 ran 500 levels
  // of privatized_queue at ~19 us. Each way's host levels are those of the way cheapest at the
  // lookahead's prices (a first-order price: the pace may make another way cheaper). 8
  // interleaved rounds of `abfs run` processes, 16 sources (H100, 2026-11-27): luxembourg_osm's
  // median BFS 2.343 -> 2.253 ms (median of the processes'), cnr-2000 0.4925 -> 0.4945,
  // rome99 within its processes' host speed (per carried level 1.20-1.78 us by process).
  double host_pace_excess() const;
  static constexpr double kPaceIgnored = 0.02;
  // The profile's cost to go from `place` at `level` with its host levels at 1 + pace_excess.
  double paced_value_us(std::size_t level, std::size_t place, double pace_excess) const {
    return profile_.value[level][place] + pace_excess * profile_.value_host[level][place];
  }
  // A hand-back table's HandbackTable::price_from for a run the lookahead stops at profile
  // level `stop`: the vertices visited two levels before it (0 that early; never at the end).
  unsigned int price_from_before(std::size_t stop) const;
  // Where runs of one_block and dynamic_parallel reaching profile level `level` stop, and at
  // what prices, for predict_profile's reasons.
  std::string lookahead_reason(std::size_t level) const;
  // Whether the frontier after this level outgrows the one-block loop where the profile's own
  // level `next` fits it: at level 0 the exact one (source_next_frontier), else
  // estimated_next_frontier (the sample's source may have had a tenth of this one's discoveries).
  bool next_outgrows_block(const strategies::FrontierState& state, std::size_t next) const;

  Choice choose(const strategies::FrontierState& state, const Placement& placement) const;
  Choice choose_by_rule(const strategies::FrontierState& state) const;
  // Whether cpu_expand keeps a frontier already on the host (choice set when it does). Asked
  // only where host runs are off (set_host_runs): a host run makes the same test each level.
  bool continue_on_host(const strategies::FrontierState& state, const Placement& placement, Choice& choice) const;
  // The stay-or-leave test on the host at profile level `at` (continue_on_host, run_on_host):
  // cpu_expand's level as a host run carries it (host_carried_), then the cost to go from the
  // host, against the profile's best way off the host (Profile::host_leave) moved by this BFS's
  // host_leave_shift_. fresh: the BFS has not used the device. discovered: the vertices the
  // level is expected to discover (FrontierState::discovered_vertices; the profile's).
  struct HostStay {
    double level_us = 0.0;
    double after_us = 0.0;
    double leave_us = 0.0;
    bool stay() const { return level_us + after_us <= leave_us; }
  };
  HostStay price_host_stay(VertexId frontier_vertices, EdgeOffset frontier_edges, double discovered, std::size_t at,
                           bool fresh) const;
  // cpu_expand from context's level on, in one loop: a host run, the host's analogue of the
  // device-driven runs. It goes on while the frontier is not empty and, if decide, while
  // price_host_stay says stay; else it stops after the first level. The executor's work per
  // level in the loop is one clock read (two where a stay test ran: HostTestTime), one stay
  // test and a 32-byte record: luxembourg_osm's levels of 4-15 arcs took 0.19-0.23 us in all,
  // against 0.37-0.50 through the decision loop, and forced cpu_expand 2.96-3.18 ms against
  // 3.68-3.83 (H100 host, 2026-11-22).
  // Returns a plain outcome for one level, else one with its level records (host_run_levels_).
  strategies::LevelOutcome run_on_host(strategies::LevelContext& context, bool decide, bool fresh,
                                       std::chrono::steady_clock::time_point level_start);
  Choice choose_by_model(const strategies::FrontierState& state, const Placement& placement, VertexId end) const;
  // A run of one_block or dynamic_parallel started at level 0 carries the source's own level 1
  // (its out-neighbours and their arcs; level_one_shape) before the levels the profile's
  // lookahead prices from the one that level's discoveries match (frontier_matched_level). The
  // sampled BFS's first levels need not resemble it:
  // ca-AstroPh-lcc's runs from level 0 were priced 111-112 us past level 0, where forced
  // dynamic_parallel's took 96-104, the sampled BFS's 12 levels against the BFSs' 9-11, and
  // soc-Slashdot0902's sampled BFS starts with levels of 2 and 23 vertices where sources of
  // out-degree 10-102 have one level of 10-102 vertices and 1,490-16,058 arcs before the levels
  // that match the sample's third on (H200, 2026-11-29).
  struct LevelOne {
    VertexId vertices = 0;
    EdgeOffset edges = 0;
    EdgeOffset source_edges = 0;  // level 0's arcs
    double discovered = 0.0;      // its expected discoveries (profile_discovered)
    std::size_t next = 0;         // the profile level after it (frontier_matched_level)
    bool fits_block = false;      // in one_block's loop (a dynamic_parallel run's one-block level)
  };
  // A source's level 1: counted from the CSR (source_next_frontier) for out-degrees of at most
  // kCountedLevelOneDegree, else by the out-degree alone, out-degree vertices of
  // GraphStats::head_out_degree_by_class arcs each (mean_head_out_degree where the class had no
  // vertex read). A level 0 decided ahead is kept by what this reads (FirstChoiceKey). Below
  // that out-degree one neighbour decides level 1: soc-Slashdot0902's sources of out-degree 1
  // have level 1s of 48 and 2,208 arcs where their class's mean is 134, ca-AstroPh-lcc's 2442
  // one of 15 where its class's is 35 (H200, 2026-11-29).
  static constexpr EdgeOffset kCountedLevelOneDegree = 4;
  LevelShape level_one_shape(VertexId source, EdgeOffset out_degree) const;
  // Level 0's LevelOne (false: none to price, no profile or a level 0 without arcs).
  bool level_one(const strategies::FrontierState& state, LevelOne& one) const;
  // A run of s started at level 0 carrying level 1 at one's shape (one_block only where its
  // loop takes it), then the run's lookahead from one.next: its cost to go, the carried levels
  // and their time.
  double run_after_level_one(const strategies::Strategy& s, const LevelOne& one, std::size_t& carried_levels,
                             double& carried_us) const;
  // dynamic_parallel's one-block levels are one_block's loop in a graph node (block_loop.cuh)
  // and no faster: a dynamic_parallel run that would carry only such levels (profile levels
  // from `next`, Profile::fits_block), as many as one_block's run, is priced no cheaper than
  // one_block's (kOneBlockTieUs more where it was), so that a tie of their start prices goes to
  // one_block. rgg_n_2_16_s0's source 8939 started dynamic_parallel at level 0, priced 0.1 us
  // under one_block, and its 204 one-block levels took 1.128 ms where one_block's take 1.066
  // (H100, 2026-11-27).
  static constexpr double kOneBlockTieUs = 0.01;
  // first: the levels the runs carry before profile level `next` (1 where level 0 is priced
  // through its level 1, LevelOne, which must fit the loop).
  void no_cheaper_than_one_block(DecisionCandidate* begin, DecisionCandidate* end, std::size_t next,
                                 std::size_t first = 0) const;
  strategies::Strategy* find(const std::string& name) const;
  // Predicted conversion before s runs at state, from where placement has the visit state.
  double predict_conversion_us(const strategies::Strategy& s, const strategies::FrontierState& state,
                               const Placement& placement, VertexId end) const;
  // Predicted upload of `vertices` visits to the device (first: the BFS's first upload; level:
  // the level it is for, see upload_group).
  double predict_upload_us(VertexId vertices, bool first, int level) const;
  // The upload's correction group: kUploadLater (the device has visits of this BFS), kUploadFirst
  // (the BFS's first upload, after host levels) and kUploadAtStart (its first at level 0).
  // Corrected as one, level 0's fused upload after the previous BFS's warm_launch_path took
  // 3.7-7.5 us and was priced 11-21, while the first after the host's levels of
  // uniform:1048576:8 (DRAM-bound: they leave the driver's launch path cold) took 13.9-15.1:
  // the first BFSs priced every device start at level 0 ~10 us high and ran three host levels
  // instead. Apart (4 x 8 sources interleaved, H100, 2026-11-26): level 0's uploads priced
  // within 16% (median; 39% pooled), uniform:1048576:8 started on the device from its first
  // BFSs in 3 of 4 runs and took 0.309 ms (median of the runs) against 0.324.
  static constexpr int kUploadLater = 0, kUploadFirst = 1, kUploadAtStart = 2;
  static int upload_group(bool first, int level) {
    return !first ? kUploadLater : level == 0 ? kUploadAtStart : kUploadFirst;
  }
  // Moves the state to where s consumes it and builds the bitmap it needs: both steps, which
  // return whether they had anything to do (async on the stream; move_to_host synchronizes).
  void convert(const strategies::Strategy& s, Placement& placement, int level, VertexId begin, VertexId end);
  bool move_for(const strategies::Strategy& s, Placement& placement, VertexId begin, VertexId end);
  bool bitmap_for(const strategies::Strategy& s, Placement& placement, int level, VertexId begin, VertexId end);
  // Where s leaves the state after a run that ended at next_level with the visit order [0, end).
  static void after_run(const strategies::Strategy& s, Placement& placement, int next_level, VertexId end);
  // A level a device-driven run or a host run carried (record d, after the run's record
  // previous), for its cost features: visited = vertices discovered through it, expanded = arcs
  // out of the frontiers before it.
  strategies::FrontierState continued_state(int level, const DeviceLevelRecord& d, const DeviceLevelRecord& previous,
                                            VertexId visited, EdgeOffset expanded,
                                            strategies::Location location) const;
  // The frontier about to be expanded: visited = vertices discovered so far (end of the visit
  // order), edges_out_of_reached = arcs out of the frontiers already expanded.
  // profile: with the sampled profile's features (the decision's; without, what a level's
  // record and the corrections read).
  strategies::FrontierState frontier_state(int level, VertexId frontier_vertices, VertexId visited,
                                           EdgeOffset frontier_edges, EdgeOffset edges_out_of_reached,
                                           const Placement& placement, bool profile = true) const;
  // The sampled profile's levels as frontier states (unvisited counts from the profile's prefix).
  std::vector<strategies::FrontierState> profile_states() const;
  // Features from the sampled BFS's level profile_level (bottom-up scans, discoveries), for a
  // frontier whose visit order ends at `visited`; past the profile they stay unknown (-1).
  void add_profile_features(strategies::FrontierState& state, std::size_t profile_level, VertexId visited) const;
  // The sampled level a frontier whose visit order ends at `visited` stands for: the first
  // that had discovered as many vertices (the last one if none had), or the one before it
  // where that is nearer in ratio (nearer_below).
  std::size_t matching_profile_level(VertexId visited) const;
  // The same for a frontier of `frontier` vertices: past the profile's last level by count,
  // where every level has discovered nearly all the vertices it will, the first level after
  // the profile's widest whose frontier had shrunk to this size, if that is earlier. A tail
  // matched by count alone had nothing ahead of it: soc-Slashdot0902's last three levels (55,
  // 1, 1 vertices) each ran gather_pull (13-18 us) priced as the BFS's last, where a one_block
  // run carries them in ~2 us each (H100, 2026-11-24).
  std::size_t matching_profile_level(VertexId visited, VertexId frontier) const;
  // A persistence forecast where the profile is of another shape: from level 2 on, when this
  // frontier and the two before it are within kPersistSpread of each other and the profile's
  // next level (`next`) is more than kPersistMismatch times larger or smaller, the decision
  // prices every candidate as if this frontier came back min(level, kPersistLevels) more times
  // (device-driven runs carrying them, the others repeating), and a run so chosen goes without
  // the profile's hand-back table. Returns that count, 0 where the profile stands. cnr-2000's
  // source 44408 reaches a component of 2,531 vertices (14 levels of ~200-280 vertices and
  // ~5,000 arcs) that no sampled BFS resembles: it looked ahead with the 18,997-vertex one,
  // whose next levels do not fit one_block, so one_block's run was priced as carrying nothing
  // and privatized_queue ran 11 levels at 23-27 us where one_block's run takes 9-11 (0.336 ms
  // against 0.16; H100, 2026-11-24).
  static constexpr double kPersistSpread = 2.0, kPersistMismatch = 4.0;
  static constexpr int kPersistLevels = 16;
  int persistence_levels(const strategies::FrontierState& state, std::size_t next) const;
  // The frontiers of the two levels before the one being decided ([0]: the one before), 0 where
  // none (set by execute_levels, levels carried by runs included).
  std::array<VertexId, 2> previous_frontiers_{};
  // The frontier after level 0 is read exactly (source_next_frontier) from sources of at most
  // kSourceNextMaxArcs arcs (a degree read each, ~1 us per hundred from cold host memory; past
  // a thousand, the estimate puts the next frontier past the loop's 8,192 arcs anyway at 8
  // arcs per vertex).
  static constexpr EdgeOffset kSourceNextMaxArcs = 1024;
  struct ProfileMatch {
    VertexId visited = ~VertexId{0};
    std::size_t level = 0;
  };
  mutable ProfileMatch matched_;  // the last match (a cache: the executor is not shared by threads)
  void prepare_lookahead();
  // The next decision, warmed while the device runs a level (BfsBuffers::set_wait_work): the
  // decision for a guess of the next level (the matching profile level's shape after this
  // one), its result dropped. Measured with the warming on and off in alternate processes (3
  // pairs x 32 sources; H100 host, 2026-11-26): the executor's time at a decided level, median,
  // email-Enron 2.42 / 2.22 / 2.01 -> 1.33 / 1.83 / 1.58 us, soc-Slashdot0902 1.87 / 1.31 /
  // 2.02 -> 1.46 / 1.81 / 1.52; alternated BFS by BFS over seven graphs, 0.1-0.4 us less a
  // level. The warming itself takes 0.7-1.3 us of a wait of 6 us or more: 1 of 3,135 levels
  // was over before it ended. The BFSs' times moved within their noise.
  struct WarmFrom {
    const strategies::Strategy* strategy = nullptr;  // the level's
    int level = 0;
    VertexId frontier_vertices = 0;
    VertexId end = 0;  // vertices visited before the level's discoveries
    EdgeOffset frontier_edges = 0;
    EdgeOffset edges_out_of_reached = 0;
    Placement placement;
  };
  WarmFrom warm_from_;
  const strategies::Strategy* warm_choice_ = nullptr;  // the warmed decision's, kept so it is made
  void warm_next_decision();
  static void warm_next_decision_of(void* executor) { static_cast<Executor*>(executor)->warm_next_decision(); }
  // After a BFS: the level-0 decision for its source made once more, with what the BFS taught
  // and from the profile a BFS from it starts with, so that its code and data are in the host's
  // caches again after the results were gathered, and kept for later BFSs from sources of that
  // out-degree (keep_first_choice, below). The first decision took 1.7-5.2 us where the
  // previous BFS's end had not done this, 0.6-1.4 us where it had (medians per graph, five
  // graphs, alternate BFSs of one process; H100 host, 2026-11-26).
  void warm_first_decision(VertexId source);
  // What a BFS's prices carry from its own levels (surprise_, host_pace_, host_leave_shift_,
  // the run handed back, the last frontiers), cleared for a BFS's start.
  void reset_bfs_pricing();
  // Level 0's decision made ahead. That decision after a BFS (warm_first_decision, which made
  // it only to warm the host's caches until 2026-11-28) is kept, with the profile the BFS
  // started with and its source's key (out-degree, and level 1's class for small ones:
  // FirstChoiceKey), and a later BFS whose source has that key and starts with that profile
  // takes it instead of deciding on its own level 0
  // (executor time there 1.9-3.2 us, the decision 1.2-2.1 of it, medians by graph; H100
  // host, 2026-11-28): the choice of the last BFS from such a source, made with every
  // correction learned up to it. Not where this BFS may explore a candidate that decision
  // priced within kExploreWithin of its cheapest, and not once the decisions for one key
  // disagreed (two sources of one out-degree whose neighbourhoods differ, or corrections that
  // moved) until two in a row agree again (settled). The level's price is that decision's.
  // The source's out-degree, and for out-degrees of at most kCountedLevelOneDegree the class
  // (GraphStats::degree_class, plus 1) of its level 1's arcs, which level 0's prices then read
  // (level_one_shape); 0 above.
  struct FirstChoiceKey {
    EdgeOffset out_degree = 0;
    std::size_t level_one_class = 0;
  };
  FirstChoiceKey first_choice_key(VertexId source) const;
  struct FirstChoice {
    Choice choice;
    double extra_us = 0.0;  // the decision's level-0 extra in choice.predicted_us (first_level_extra_us_)
    bool settled = true;    // the last two decisions for this key agreed (or there was one)
    bool planned = false;   // made by decide_first_levels_ahead, not after a BFS from the key
    std::uint64_t decided = 0;  // first_choice_sequence_ at the decision (the oldest is dropped)
  };
  // Keys kept (kAheadKeys from the plan, the rest from BFSs), the least recently decided dropped.
  static constexpr std::size_t kFirstChoices = 1024;
  // By the key packed with the profile (first_choice_slot).
  std::unordered_map<std::uint64_t, FirstChoice> first_choices_;
  std::uint64_t first_choice_sequence_ = 0;
  std::uint64_t first_choice_slot(const FirstChoiceKey& key) const noexcept;
  // Models decide, and no samples are being taken: a level 0 may be decided ahead.
  bool decides_ahead() const noexcept;
  // The settled choice for a BFS starting now from a source of that key (nullptr: decide).
  const FirstChoice* first_choice_for(const FirstChoiceKey& key) const;
  void keep_first_choice(const FirstChoiceKey& key, const Choice& choice, bool planned = false);
  // Level 0's decision for a BFS from source, as one starting now would make it (its
  // component's profile, else the smallest), kept (keep_first_choice).
  void decide_first_level(VertexId source, bool planned);
  // The source whose level 0 is being priced (its neighbourhood: level_one_shape,
  // next_outgrows_block): the BFS's, or the one a decision ahead is made for.
  VertexId level_zero_source_ = 0;
  // A BFS whose learning (learn_reach_set, learn_profile, learn_corrections) took longer than
  // rewarm_after_us_ and than the BFS (set_rewarm_after) runs one untimed BFS from its source
  // after it: the next BFS then starts warm, as after any BFS. The first learning of a component
  // (its strongly connected components and profile) took 13-24 ms on uk-2007-05@100000, and the
  // BFS after it spent 30-38 us at level 0 where forced dynamic_parallel took 22-29 (the same run,
  // its other levels within 1 us), in every process. A pause of 22 ms after every BFS did the same
  // to every BFS: slept, forced dynamic_parallel's level 0 took 40-55 us; busy, the plan's device
  // starts 38-46. Recording an event, a launch and a synchronization after the learning did not
  // restore it (32-37 us). With the untimed BFS: 20-26 us in 4 of 5 processes (`abfs run`, `abfs
  // compare`) and in three suites' compares (the BFS 269-282 us, 306-326 before; H100,
  // 2026-11-28). Not where the learning takes less than the BFS: luxembourg_osm's took 1.2-1.4 ms
  // after every BFS of ~2 ms, and an untimed BFS after each doubled the executor's work between a
  // caller's BFSs.
  static constexpr double kRewarmAfterUs = 1000.0;
  double rewarm_after_us_ = kRewarmAfterUs;
  double rewarm_bfs_share_ = 1.0;
  bool rewarming_ = false;
  std::size_t rewarms_ = 0;
  void execute_levels(VertexId source, BfsResult& result);
  void execute_exhaustive(VertexId source, BfsResult& result);

  PlanOptions options_;
  BfsBuffers buffers_;
  GraphStats stats_;
  // The in-lists' scans by the frontier's share of the arcs (profile_pull_scans), where
  // gather_pull can run.
  InListScans in_lists_;
  std::vector<std::pair<std::string, double>> construction_ms_;
  std::vector<std::unique_ptr<strategies::Strategy>> strategies_;
  strategies::Strategy* host_strategy_ = nullptr;
  strategies::Strategy* block_strategy_ = nullptr;
  strategies::Strategy* dp_strategy_ = nullptr;
  strategies::Strategy* push_strategy_ = nullptr;
  strategies::Strategy* pull_strategy_ = nullptr;
  std::vector<strategies::Strategy*> schedule_;
  strategies::Strategy* forced_ = nullptr;
  std::unique_ptr<Event> start_;
  std::unique_ptr<Event> stop_;

  // A model resolved for the hot path: its coefficients and correction, names checked once.
  struct Resolved {
    const CostModelFit* fit = nullptr;
    double scale = 1.0;
    double predict(const strategies::CostFeatures& f) const {
      double us = 0.0;
      for (int i = 0; i < f.size; ++i) us += fit->coefficients[static_cast<std::size_t>(i)] * f.values[static_cast<std::size_t>(i)];
      return us * scale;
    }
  };
  double predict(const Resolved& model, const strategies::CostFeatures& f) const {
    return model.fit != nullptr ? model.predict(f) : 0.0;
  }
  const Resolved& model_of(const strategies::Strategy* s) const;
  // A level's predicted time by s (executor overhead and the online correction of its group
  // included): (model + calibration's overhead) x correction + level_overhead_excess_us().
  // slot: the strategy's index in strategies_.
  double predict_level_us(std::size_t slot, const strategies::CostFeatures& f, EdgeOffset frontier_edges,
                          int group) const;
  // A level's predicted time inside a device-driven run of s (no launch or executor overhead),
  // with the online correction of carried levels of `group` (carried_group: a dynamic_parallel
  // grid level's apart).
  double predict_carried_us(const strategies::Strategy& s, const strategies::CostFeatures& f,
                            EdgeOffset frontier_edges, int group = kCarried) const {
    return predict(model_of(&s), f) * correction(&s, frontier_edges, group);
  }
  // What a device-driven run of s pays for `exits` exits of its one-block loop before frontiers
  // of `vertices` vertices in all (LoopExits): the model's loop_exits and loop_exit_vertices
  // terms, uncorrected; 0 without a model or exits.
  double loop_exit_us(const strategies::Strategy& s, double exits, double vertices) const;
  // The state of a device-driven run's first level once the run is over: with its loop's exits.
  static strategies::FrontierState with_loop_exits(strategies::FrontierState state,
                                                   const strategies::LoopExits& exits) {
    state.loop_exits = exits.count;
    state.loop_exit_vertices = exits.vertices;
    return state;
  }

  std::shared_ptr<const ModelSet> models_;
  std::vector<Resolved> strategy_models_;  // parallel to strategies_
  Resolved to_device_model_, to_host_model_, to_bitmap_model_;
  std::string decision_source_ = "built-in rule";
  std::vector<CostSample>* samples_ = nullptr;
  std::vector<std::pair<std::size_t, ModelReason>> pending_reasons_;  // (level record, reason)
  std::vector<double> level_overheads_;  // last execute: per host-driven level
  // The device-driven strategy whose run just handed back (its device-side models priced
  // leaving cheaper than carrying this level): the next decision leaves it out, since a new run
  // of it costs what carrying would have plus a run's start. Without this, ca-AstroPh's BFSs
  // started a new dynamic_parallel run at the level its last run had just handed back (~40 us
  // of round trip and run start; H100, 2026-11-24).
  const strategies::Strategy* handed_back_ = nullptr;
  // Whether this level is where a device-driven run stopped before the BFS ended (kAfterRun).
  bool after_run_ = false;
  // This BFS's surprise factors by strategy slot (1: none). The online correction learns
  // between BFSs, so a strategy the models misprice on this BFS's part of the graph kept its
  // price for the whole BFS: uk-2007-05@100000's source 13387 ran gather_pull for 13 levels at
  // 135-280 us, each priced 28, where privatized_queue took ~25 (2.12 ms against the next
  // round's 0.53; H100, 2026-11-24). A level that takes kSurpriseRatio times its price and
  // kSurpriseUs more multiplies the strategy's later prices in this BFS by that ratio
  // (note_surprise); one that takes less than its price brings the factor back towards 1.
  // Spikes (40-60 us on levels of 20-100) stay below both bounds.
  static constexpr double kSurpriseRatio = 3.0, kSurpriseUs = 60.0, kSurpriseCap = 16.0;
  // A host run's stay test is skipped for up to kStaySkipLevels levels after one whose margin
  // was kStaySkipMargin times its level's price, twice as many after each such test that
  // followed a full skip, up to kStaySkipMaxLevels (run_on_host).
  static constexpr int kStaySkipLevels = 3, kStaySkipMaxLevels = 24;
  static constexpr double kStaySkipMargin = 4.0;
  // Exploration at level 0, where a BFS's route is set. A class of levels is corrected only by
  // the levels a plan runs, so a route priced a little over the best after one slow BFS was
  // never run again: rome99's host route, priced 126.8 us after the plan's first BFSs against
  // one_block's 117.5, where it then took 60-90 (all 16 BFSs of a process ran one_block at
  // 0.12-0.15 ms, the host's 0.05-0.09; H100, 2026-11-27). So where no BFS of the last
  // kExploreAfter explored, a candidate none of them started with, priced within
  // kExploreWithin of the cheapest, runs instead (the cheapest of such), and a host run so
  // started stays while it is within that allowance of the profile's way off the host
  // (host_leave_shift_). Its cost is at most the allowance, where the prices are right, once
  // in kExploreAfter BFSs. The plan's middle rehearsals (PlanOptions::rehearsals) explore
  // whatever the last BFS explored, so that the caller's BFSs start with the alternatives seen.
  // Exploring each candidate every 8 BFSs, 2-6 of 17 explored on 11 of 12 graphs (H100,
  // 2026-11-27). Not for forced, scheduled or warming BFSs, nor without the online correction
  // (nothing would learn from it).
  static constexpr int kExploreAfter = 16;
  static constexpr double kExploreWithin = 0.10;
  std::vector<int> first_level_idle_;  // per strategy: BFSs since one started with it
  int bfs_since_explored_ = kExploreAfter;
  bool rehearsal_explores_ = false;    // rehearse(source, true) is running
  bool explore_first_level_ = false;   // this decision may explore (execute_levels, level 0)
  void note_first_level(const Choice& choice);
  std::vector<double> surprise_;
  void note_surprise(std::size_t slot, double predicted_us, double measured_us);  // slot: correction_slot
  double surprise_at(std::size_t slot) const { return slot < surprise_.size() ? surprise_[slot] : 1.0; }
  // This BFS's host pace: the levels its host runs carried so far, measured over their prices
  // (sums decayed by kDecay a level, with kPriorUs of both on top, held to [kMin, kMax]);
  // it multiplies the next carried levels' prices, in the stay test (host_pace_,
  // against the stay test's prices) and in the level log (against the log's, which the online
  // correction learns from unpaced: expand_device_runs). The host's speed moves between BFSs
  // of one process where the device's does not: rome99's carried levels ran at 0.96-1.06x
  // their prices in one `abfs compare` round and 0.71-0.87x in the next, luxembourg_osm's at
  // 1.36x in a process's first BFS and 0.95-1.08x later (medians by BFS; H100 host,
  // 2026-11-27). Replayed over those logs, the pace took the per-level error's median and p90
  // from 18% and 57% to 11% and 42% on rome99 and from 9.8% and 34% to 9.3% and 32% on
  // luxembourg_osm; measured with it (and the small classes' held rises, fold_observations) in
  // two suite runs: rome99 10 / 36% and 9 / 42%, luxembourg_osm 9 / 31% and 9 / 29%.
  // The cost to go's later host levels are priced at the BFS's pace so far, undecayed
  // (future_factor): the decayed one follows the last ~10 levels, and a cost to go may weigh
  // hundreds (host_pace_excess).
  struct HostPace {
    static constexpr double kPriorUs = 2.0, kDecay = 0.9, kMin = 0.5, kMax = 2.0;
    double measured_us = 0.0, priced_us = 0.0;
    double all_measured_us = 0.0, all_priced_us = 0.0;
    double factor() const { return std::clamp((kPriorUs + measured_us) / (kPriorUs + priced_us), kMin, kMax); }
    double future_factor() const {
      return std::clamp((kPriorUs + all_measured_us) / (kPriorUs + all_priced_us), kMin, kMax);
    }
    void note(double priced, double measured) {
      measured_us = kDecay * measured_us + measured;
      priced_us = kDecay * priced_us + priced;
      all_measured_us += measured;
      all_priced_us += priced;
    }
  };
  HostPace host_pace_;
  double host_pace() const { return host_pace_.factor(); }
  // The device-driven runs and host runs of the BFS being executed: the record of the level
  // each started (an index into the result's levels, before expansion), the visit order's end
  // and the arcs expanded before its second level, and its carried levels (copies of the level
  // log, which the next run overwrites) at carried_levels_[carried_at, + carried).
  struct DeviceRun {
    strategies::Strategy* strategy;
    std::size_t record;
    VertexId visited;
    EdgeOffset expanded;
    std::size_t carried_at;
    int carried;
    const char* stop_reason;
    DeviceLevelRecord first;  // the run's own level (carried_levels_ holds the ones after it)
    bool handed_back;        // stopped by the hand-back decision,
    HandbackPrice handback;  // at these prices
    bool paced;              // a host run with stay tests, priced at the host pace (HostPace)
    std::size_t tests_at;    // its tested levels at carried_tests_[tests_at, + tests)
    std::size_t tests;
  };
  std::vector<DeviceRun> device_runs_;
  std::vector<DeviceLevelRecord> carried_levels_;
  std::vector<LevelRecord> levels_scratch_;
  // A level's record while the BFS runs: numbers and static names only, in storage the executor
  // keeps between BFSs. The result's records (strings, and a caller's fresh BfsResult: heap
  // memory the level would touch first) are written from these after the BFS is timed
  // (write_records). At level 0 the record took 0.3-3.4 us (kron:22 2.8-3.4, uniform:1048576:8
  // 1.5-2.8, email-Enron 0.3-1.0; medians per process, `abfs run` with 16 sources), the host's
  // caches cold after the previous BFS's results were gathered. With warm_first_decision, the
  // executor's time at level 0 fell from 2.0-8.3 to 1.1-2.4 us, at later decided levels from
  // 1.1-2.4 to 1.1-1.5, a BFS's from 4.5-19.7 to 2.8-10.8 (kron:22 19.7 -> 9.3; medians, seven
  // graphs, 3 x 16 sources interleaved with the build before; H100 host, 2026-11-26).
  struct LevelDraft {
    int level = 0;
    VertexId frontier_vertices = 0;
    EdgeOffset frontier_edges = 0;
    const char* strategy = nullptr;   // a strategy's name()
    const char* runner_up = nullptr;  // likewise; nullptr: none
    double runner_up_predicted_us = 0.0;
    double predicted_us = 0.0, predicted_conversion_us = 0.0;
    double time_us = 0.0, device_us = 0.0, conversion_us = 0.0, executor_us = 0.0;
    std::string reason;  // a choice's own reason (empty where pending_reasons_ holds it)
    bool from_gate = false;  // its kernel was queued by the level before (LevelContext::launch_ahead)
    bool decided_ahead = false;  // level 0's choice was first_choice_for's
    bool ahead_planned = false;  // and decide_first_levels_ahead's
  };
  std::vector<LevelDraft> drafts_;
  LevelDraft& draft(std::size_t index);  // drafts_[index] reset (appended at the end)
  void write_records(std::size_t used, BfsResult& result);  // drafts_[0, used) into result.levels
  // Inserts the records of the levels the device-driven and host runs carried after each run's
  // first record (predictions, online-correction observations and samples with them), after the
  // BFS was timed.
  void expand_device_runs(BfsResult& result);
  // levels[index] reset to a default record (appended when index == levels.size()).
  static LevelRecord& reuse_record(std::vector<LevelRecord>& levels, std::size_t index);
  // cpu_expand's level inside a host run (no executor overhead, the correction of carried
  // levels), affine by size class of the frontier's arcs, plus its price a discovery
  // (host_carried_per_discovered_) times the level's discoveries (prepare_lookahead). Without
  // the discoveries, priced at ~1 ns each while cpu_expand's serial_discovered was fitted, the
  // stay test underpriced the host's levels by 20 ns a discovery once it was measured:
  // luxembourg_osm's host runs went on to level 700-900 where they had handed over to one_block
  // at 100-400, and its BFSs took 2.4-2.6 ms against 2.2-2.4 (H100, 2026-11-27).
  std::array<AffineCost, kHandbackClasses> host_carried_{};
  std::array<double, kHandbackClasses> host_carried_per_discovered_{};
  double host_carried_us(VertexId frontier_vertices, EdgeOffset frontier_edges, double discovered) const {
    const auto c = static_cast<std::size_t>(arcs_size_class(frontier_edges));
    const AffineCost& a = host_carried_[c];
    return static_cast<double>(a.fixed) + static_cast<double>(a.per_vertex) * static_cast<double>(frontier_vertices) +
           static_cast<double>(a.per_edge) * static_cast<double>(frontier_edges) +
           host_carried_per_discovered_[c] * std::max(0.0, discovered);
  }
  std::vector<DeviceLevelRecord> host_run_levels_;  // the last host run's levels (run_on_host)
  // A host run's executor work before one of its levels (run_on_host): the stay test (the
  // profile match and the price), after a profile switch or not, timed apart from the level's
  // expansion by one clock read where a test ran. A level's record holds both (its time_us),
  // the test's part as its executor_us; the corrections, the surprise and the host pace learn
  // the expansion alone, which the carried price is of, and the log prices the test by the
  // tests this executor has timed (host_test_us). Counted in the level, a test made its level
  // look slow and the levels after it were priced at that pace: cnr-2000's source 43584 had
  // its first carried level (4 vertices) take 0.89 us priced 0.57, its next levels of 2
  // vertices priced 0.30-0.35 where they took 0.14-0.17, and a profile switch's level 1.2-1.45
  // priced 0.27 (H200, 2026-11-28). The tests took 0.17-0.25 us (medians by graph), a run's
  // first 0.24-0.65, a switch and its test 1.37 (cnr-2000). Timed apart, the graphs' p90
  // level error fell from 32-56% to 27-37% on rome99 and from 36-67% to 35-47% on cnr-2000
  // over six interleaved process pairs, luxembourg_osm's unchanged, the BFS times
  // unchanged within the host's noise (H200, 2026-11-28; docs/DESIGN-NOTES.md, sixty-eighth
  // session). A failed test (the one that ends a run) stays in the run's first record: moved
  // to the next level's executor time (47d32ea, reverted) it raised the learned level overhead.
  enum class HostTest : unsigned char { None, First, Stay, Switch };  // First: the run's first test
  static constexpr std::size_t kHostTests = 3;                          // First, Stay, Switch
  // Kept for the tested levels only: an untested level's loop adds nothing.
  struct HostTestTime {
    HostTest test = HostTest::None;
    float us = 0.0f;          // the executor's part of the level's time
    std::uint32_t level = 0;  // its record in the host run (host_run_levels_'s index)
  };
  std::vector<HostTestTime> host_run_tests_;  // the last host run's tested levels, in order
  std::vector<HostTestTime> carried_tests_;  // the host runs' tests, by run (DeviceRun::tests_at)
  // The last kHostTestWindow tests timed by kind (learned in expand_device_runs, reset with the
  // models) and their price: the lower median; a kind not seen yet is priced as Stay's, Stay
  // before any at 0.
  static constexpr std::size_t kHostTestWindow = 32;
  std::array<std::array<float, kHostTestWindow>, kHostTests> host_tests_{};
  std::array<std::size_t, kHostTests> host_tests_seen_{};
  double host_test_us(HostTest test) const;
  void learn_host_test(HostTestTime time);
  bool host_runs_ = true;
  // The stay test's correction to this BFS, by [fresh?0:1][size class of the frontier's arcs]:
  // where the full decision kept cpu_expand after the stay test had priced leaving cheaper, the
  // amount that makes the stay test's margin at that level the full decision's. The two price
  // differently (the way off the host at this frontier or at the profile's; the host's level
  // with the executor's overhead and the plain levels' correction, or as a host run carries
  // it), and without it they disagreed level after level: luxembourg_osm's plan made the full
  // decision (~1 us) at 150-520 host levels a BFS, each keeping cpu_expand (H100, 2026-11-22).
  // Zero at the start of each BFS; a class keeps its latest value.
  std::array<std::array<double, kHandbackClasses>, 2> host_leave_shift_{};
  // Sets host_leave_shift_ after the full decision kept cpu_expand on the host at profile level
  // `at` with this frontier.
  void shift_host_leave(const Choice& choice, VertexId frontier_vertices, EdgeOffset frontier_edges, double discovered,
                        std::size_t at, bool fresh);
  // The runs' hand-back tables (HandbackTable): built from the lookahead, on the device, and
  // the host copies they were uploaded from. Empty without models, a profile or a device.
  struct HandbackBuffers {
    HandbackModel model_host{};
    std::vector<HandbackLevel> levels_host;
    DeviceBuffer<HandbackModel> model;
    DeviceBuffer<HandbackLevel> levels;
    HandbackTable table;
  };
  void upload_handback();

  // One sampled BFS (its levels, then one assumed level past its end) and the lookahead over
  // it (prepare_lookahead).
  struct Profile {
    std::vector<LevelShape> levels;
    std::vector<VertexId> visited;  // by level: vertices discovered through it
    std::vector<EdgeOffset> unexplored;  // by level: arcs out of the vertices not visited through it
    // The tail: the level after the widest (tail_from), and by level from there the smallest
    // frontier so far (not increasing, for a binary search).
    std::size_t tail_from = 0;
    std::vector<VertexId> tail_min;
    std::vector<PlaceCosts> value;  // by level and place: the cost to go
    std::vector<PlaceCosts> value_host;  // its host levels' part (host_pace_excess)
    RunLookahead block_run, dp_run;
    // By level: the cost to go without cpu_expand from the host, [0] before the BFS used the
    // device, [1] after (continue_on_host); the upload it includes, for the profile's visits
    // (host_upload); and the cost to go with cpu_expand there (host_keep).
    std::vector<std::array<double, 2>> host_leave, host_upload, host_keep;
    std::vector<std::array<double, 2>> host_leave_host, host_keep_host;  // their host levels' part
    // By level: whether its frontier fits the one-block loop (one_block applies), as the
    // lookahead found; upload_handback places the loop's exit by it. grid_from: by level k (and
    // levels.size()), the first level at or after k that does not fit (levels.size(): none), so
    // that whether a run's levels all fit is one lookup (no_cheaper_than_one_block).
    std::vector<bool> fits_block;
    std::vector<std::size_t> grid_from;
    HandbackBuffers block_handback, dp_handback;
    // Its BFS's reach (vertices), and the first level a BFS from its reach set does not run
    // (levels.size(): every level runs). Where a reach set has as many vertices, a BFS that
    // starts in it ends once it has visited them all, and the sampled BFS's last frontier and
    // the assumed level past it are not expanded (execute): the lookahead prices them at 0 for
    // what goes before them. uk-2007-05@100000's learned profile of 55,006 vertices priced a
    // last level of ~40,000 vertices (~50 us) that its later BFSs never ran (H100, 2026-11-27).
    VertexId reach = 0;
    std::size_t stop_level = 0;
  };
  // The profile in use; profiles_[active_profile_] is its empty slot. Swapping moves vectors
  // and device buffers, copies the hand-back models (~1 KB each), and keeps the hand-back
  // tables' device pointers valid. Between BFSs it is the smallest (execute_levels).
  Profile profile_;
  // The sampled ones by reach, smallest first (the first profile_reaches_.size()), then the
  // learned ones (learn_profile).
  std::vector<Profile> profiles_;
  std::vector<VertexId> profile_reaches_;  // the sampled ones'
  std::size_t active_profile_ = 0;
  void use_profile(std::size_t k) noexcept;
  // While it lives, other profiles may be put in use (use_profile) to price or prepare them; at
  // its end, an exception's too, the one in use at its start is in use again.
  class ProfileScope {
   public:
    explicit ProfileScope(Executor& executor) noexcept : executor_(executor), in_use_(executor.active_profile_) {}
    ~ProfileScope() { executor_.use_profile(in_use_); }
    ProfileScope(const ProfileScope&) = delete;
    ProfileScope& operator=(const ProfileScope&) = delete;

   private:
    Executor& executor_;
    std::size_t in_use_;
  };
  // A profile of a sampled (or learned) BFS's levels; it stops where a reach set has its reach
  // (reach_stop_level).
  Profile make_profile(std::vector<LevelShape> levels) const;
  // The level a BFS of `reach` vertices from a set as large does not run, in a profile of these
  // levels (the assumed one included); levels where no reach set has as many vertices.
  std::size_t reach_stop_level(VertexId reach, std::size_t levels) const;
  // Once a reach set has a profile's reach: the lookahead of every such profile again.
  void stop_profiles_at_reach_sets();
  // Whether the profile in use is one of those ordered by reach, which a BFS may outgrow.
  bool by_reach() const noexcept { return active_profile_ < profile_reaches_.size(); }
  // Moves on to the profile for a BFS that has discovered `visited` vertices before `level`
  // where the one in use discovered fewer (profile_for); returns whether it did. The level log
  // notes it (profile_switches_).
  bool outgrow_profile(VertexId visited, int level) {
    if (visited <= (profile_.visited.empty() ? 0 : profile_.visited.back()) || !by_reach() ||
        active_profile_ + 1 >= profile_reaches_.size()) {
      return false;
    }
    const VertexId from = profile_reaches_[active_profile_];
    use_profile(profile_for(profile_reaches_, visited));
    profile_switches_.push_back({level, from, profile_reaches_[active_profile_]});
    return true;
  }
  struct ProfileSwitch {
    int level;
    VertexId from, to;  // the profiles' reaches; from kNoVertex: its component's, from level 0
    VertexId bound = 0;  // not 0: from level 0 by the source's reach bound (start_profile), from kNoVertex
  };
  std::vector<ProfileSwitch> profile_switches_;  // this BFS's, noted in its level log
  void prepare_lookaheads();  // prepare_lookahead for every profile; the largest in use after it

  // Component-keyed profiles (learn_profile). components_: by vertex, its strongly connected
  // component (empty until the first BFS that learns); component_profiles_: (component,
  // index into profiles_), the sampled sources' and the learned ones.
  std::vector<VertexId> sampled_sources_;  // by sampled profile, parallel to profile_reaches_
  std::vector<VertexId> components_;
  ReachBounds component_bounds_;  // by component: component_reach_bounds (set with components_)
  std::vector<std::pair<VertexId, std::size_t>> component_profiles_;
  bool components_unavailable_ = false;  // the graph has more than kMaxComponentArcs arcs
  std::vector<ReachSet> reach_sets_;
  std::size_t sampled_reach_sets_ = 0;  // reach_sets_'s first, from sample_levels
  // Keeps the reach set of a BFS execute ran (reach_sets).
  void learn_reach_set(VertexId source, const BfsResult& result);
  // The reach set of the BFS being run by execute, and of the untimed BFS from its source that
  // may follow it (warm_up, inside execute) (nullptr: none, or a sampled, warm-up or warming
  // BFS, which run to their ends).
  const ReachSet* reach_ = nullptr;  // into reach_sets_: set again wherever that grows (learn_reach_set)
  bool learn_reach_ = false;  // execute is running: its BFS's reach set may be learned
  // Adds the reach set of bfs, a BFS from source, unless one of as many vertices already holds
  // source (the same set): checked before its pass over the |V| distances.
  void add_reach_set(VertexId source, const BfsResult& bfs);
  static constexpr VertexId kParallelReachVertices = VertexId{1} << 20;
  // Starts the buffers on a BFS from source that ends once it has visited as many vertices as
  // its reach set (reach_) holds, or, in a BFS execute runs, its reach bound (reach_bound), the
  // smaller; returns that limit (else the largest VertexId). The bound stops a component's first
  // BFS, and those of components too small for a reach set (kMinLearnedReach), before their last
  // frontier as a set stops the later ones: cnr-2000's BFSs from 43584 and 114237 (14 and 73
  // vertices, bounds exact) expanded their last frontiers (host levels priced 0.1-0.4 us, often
  // 40% off) in every BFS, and its per-level p90 error fell from 43-44% to 34-38% without them
  // (H200, 2026-11-29).
  VertexId start_buffers(VertexId source);
  // Notes on result's last level record that the BFS ended there, having visited all the
  // vertices its reach set or reach bound holds (limit), with a frontier of frontier_vertices
  // left unexpanded.
  void note_all_reached(VertexId frontier_vertices, VertexId limit, BfsResult& result) const;
  // Keys each sampled profile by its source's component (components_ is set).
  void key_sampled_profiles();
  // Whether components_ is set: computed here (with component_bounds_, and the sampled profiles
  // keyed) the first time, on graphs of up to kMaxComponentArcs arcs; false, and
  // components_unavailable_, on larger ones.
  bool know_components();
  // The profile of `source`'s component, or profiles_.size() where none is known.
  std::size_t component_profile(VertexId source) const;
  // The profile a BFS from source starts with: its component's; else, where the components are
  // known, the sampled one whose reach is its reach bound's (similar_reach); else the smallest.
  // cnr-2000's sources that reach all 325,557 vertices from outside the largest strongly
  // connected component (112,023 vertices; ~13% of random sources) started with the sampled
  // BFS of 10 vertices and moved up through those of 17 and 18,997 as they grew, priced by each
  // in turn. Not the largest within the bound where none is its: cnr-2000's 44408 (2,531
  // vertices, bound 2,538) and 114237 (73, bound 73) started with the sampled BFS of 17 where
  // they outgrew it as they outgrew the one of 10, and paid for moving it in (H200, 2026-11-29).
  std::size_t start_profile(VertexId source) const;
  // The arcs out of the vertices a BFS from source reached where it stopped at a limit
  // (start_buffers): its reach set's, or its bound's (exact where the BFS reached its bound).
  EdgeOffset arcs_out_of_reach(VertexId source, VertexId limit) const {
    return reach_ != nullptr && reach_->vertices == limit ? reach_->arcs : component_bounds_.arcs.at(components_[source]);
  }
  // cnr-2000's sampled BFSs reached 10, 17, 18,997 and 325,557 vertices; a BFS from source
  // 44408 (2,531 vertices, 14 levels of 140-290 vertices and 2,000-7,000 arcs) was priced by
  // the 18,997-vertex profile from its level 1, whose next levels discover thousands of
  // vertices: its host levels were priced 27-31 us where they took 10, so it left the host at
  // level 2-4 for a one-block loop, 0.168 ms against the per-level oracle's 0.116-0.120 all on
  // the host (H100, 2026-11-26). Matched by reach alone, a learned profile misled the BFSs of
  // other components that pass through its size (a 73-vertex BFS started a one_block run at
  // 42 us where the host takes 6-10; docs/PERFORMANCE.md, twenty-ninth session, item 4).
  void learn_profile(VertexId source, const BfsResult& result);

  // Online correction (PlanOptions::online_correction): log factors by slot and class (sizes
  // by powers of 4, in groups), with a per-slot fallback for each group not seen yet (after a
  // move or a run: at least the same class's plain-level factor).
  // Strategy slots' groups: a plain level, a level a device-driven run carried, a level right
  // after the frontier moved (a device level after host levels, the first device work after
  // host work; a host level after device levels), level 0
  // (the first work of a BFS, its code and data cold in the host's caches: ~12 us for one
  // vertex on the host on cnr-2000, 1-2 predicted), a device level where a device-driven run
  // stopped before the BFS ended (outgrown, handed back: privatized_queue there took 43 us
  // beyond its expansion kernel against 23 elsewhere, medians, H100, 2026-11-24), a grid level
  // a dynamic_parallel run carried, one of a lane a vertex (carried_group), and a bottom-up
  // level launched ahead by the level before (kFromGate: its launch was paid while that level
  // ran); the upload slot's: see upload_group.
  static constexpr int kSizeClasses = 12;
  static constexpr int kGroups = 8;
  static constexpr int kPlain = 0, kCarried = 1, kAfterMove = 2, kFirstLevel = 3, kAfterRun = 4, kCarriedGrid = 5,
                       kCarriedGridGathered = 6, kFromGate = 7;
  // A carried level's group, from whether it is a dynamic_parallel grid level and its frontier.
  // dynamic_parallel's grid levels are corrected apart from the one-block loop's: sharing a
  // size class, cnr-2000's one-block levels of 4,000-8,000 arcs (priced 7.4 us, took 9.6)
  // raised the factor that priced its grid levels of 8,000-16,000 at 18.6 where they took 12.8
  // (medians; 27 of 58 over 40% high; H100, 2026-11-26). Its grid levels of a lane a vertex
  // (mean degree under 8: the block's arcs dealt to its threads) are corrected apart from the
  // others: sharing size classes, the levels of more lanes a vertex (few vertices with long
  // lists) and those of a lane a vertex (tails of many short lists) took their prices times
  // 1.18-1.68 and 0.69-0.92 on soc-Slashdot0902 (medians by size class, 4,096 to 262,143
  // arcs), 1.42 and 0.92 on email-Enron (16,384 to 65,535), 0.85-0.93 and 1.11-1.19 on cnr-2000
  // (the plan's grid levels in the suite runs and A/Bs of 2026-11-27, H100): each group's levels
  // set the factor that priced the other's.
  static int carried_group(bool grid_level, VertexId frontier_vertices, EdgeOffset frontier_edges) {
    if (!grid_level) return kCarried;
    return strategies::grid_group_lanes(frontier_vertices, frontier_edges) == 1 ? kCarriedGridGathered : kCarriedGrid;
  }
  static constexpr int kClasses = kGroups * kSizeClasses;
  struct Correction {
    std::array<double, kClasses + kGroups> log_factor{};  // + one fallback per group
    std::array<double, kClasses + kGroups> factor{};
    std::array<bool, kClasses + kGroups> known{};
    // The log ratio measured / predicted the class's last fold saw (folded: one has), which the
    // next fold's move takes the median with (correction_target).
    std::array<double, kClasses + kGroups> last_log_ratio{};
    std::array<bool, kClasses + kGroups> folded{};
  };
  struct Observation {
    std::uint16_t slot;
    std::uint16_t cls;
    float measured_us;
    float predicted_us;  // uncorrected
  };
  // Slots: one per strategy (size = correction_size: the frontier's arcs, gather_pull's the
  // unvisited vertices), then the upload to the device (size = vertices moved).
  static int size_class(EdgeOffset size, int group);
  std::size_t correction_slot(const strategies::Strategy* s) const;
  std::size_t upload_slot() const { return strategies_.size(); }
  double correction_at(std::size_t slot, EdgeOffset size, int group) const;
  // The factor correction_at prices slot's class k (a size class of a group, or a group's
  // fallback) with: its own once learned, else its group's fallback (for a level after a move or
  // a run, at least the same size's plain factor).
  double class_factor(std::size_t slot, std::size_t k) const;
  double correction(const strategies::Strategy* s, EdgeOffset frontier_edges, int group) const {
    return correction_at(correction_slot(s), frontier_edges, group);
  }
  void observe_at(std::size_t slot, EdgeOffset size, int group, double corrected_us, double measured_us);
  void observe(const strategies::Strategy* s, EdgeOffset frontier_edges, int group, double corrected_us,
               double measured_us) {
    observe_at(correction_slot(s), frontier_edges, group, corrected_us, measured_us);
  }
  // Whether s's level at `level` with the frontier at `location` is cpu_expand going on from a
  // host level: a host run carries it (run_on_host), so a decision that keeps the frontier on
  // the host prices it, and the level teaches, as the run's carried levels do (kCarried; the
  // decision's overhead added and taken out). The host run's stay test priced these levels by
  // the carried group and the full decision by the plain one, and the two disagreed:
  // ca-AstroPh-lcc's level 1 (87 vertices, 5,362 arcs), a carried level of 67 us priced 14 in
  // one BFS, was kept on the host by the full decision at 14.7 in the next and took 64 again;
  // luxembourg_osm's full decisions priced host levels of 83-196 vertices at 1.1-2.0 us where
  // its host runs took 2.0-3.5, and stayed on the host 300 levels past where the per-level
  // oracle starts one_block (H100, 2026-11-26). The BFS times moved within their noise (one
  // build switched by process, 4 x 16 sources on nine graphs: paired medians -2.5% to +2.2%).
  bool host_run_level(const strategies::Strategy& s, strategies::Location location, int level) const {
    return host_runs_ && schedule_.empty() && &s == host_strategy_ && location == strategies::Location::Host &&
           level > 0;
  }
  // A decided level's group (host_run_level's, else level_group's) and predicted time by s
  // (the executor's overhead and the group's online correction included; not the surprise
  // factor or level 0's first-level extra). slot: s's index in strategies_.
  // A level s runs from the gate the level before armed for it (launch_ahead) is kFromGate.
  int decided_group(const strategies::Strategy& s, strategies::Location location, int level) const {
    if (host_run_level(s, location, level)) return kCarried;
    return buffers_.gate_armed_for(&s, level) ? kFromGate : level_group(s, location, level, after_run_);
  }
  // The size an online-correction class of s's level is keyed by (detail::correction_size).
  EdgeOffset correction_size(const strategies::Strategy& s, const strategies::FrontierState& state) const {
    return detail::correction_size(&s == pull_strategy_, state);
  }
  // A host run's carried level is priced by the frontier's arcs, a decided level's correction
  // keyed by correction_size; the frontier's level and location are the state's.
  double predict_decided_us(std::size_t slot, const strategies::Strategy& s, const strategies::CostFeatures& f,
                            const strategies::FrontierState& state) const {
    if (host_run_level(s, state.location, state.level)) {
      return predict_carried_us(s, f, state.frontier_edges) + level_overhead_us();
    }
    return predict_level_us(slot, f, correction_size(s, state), decided_group(s, state.location, state.level));
  }
  // The group of level `level` when s runs it with the frontier at `location` (a move
  // first? right after a device-driven run stopped?). A device level 0 is a BFS's first level
  // (kFirstLevel), not one after an upload: its upload follows the previous BFS's
  // warm_launch_path, where one after host levels follows host work that left the driver's
  // code and data cold (bench/idle_probe.cu). On uniform:1048576:8, starts after host levels
  // 0-2 took 2.3-2.9x their price (one_block, dynamic_parallel, privatized_queue), and that
  // factor, the after-upload group's fallback, priced dynamic_parallel's start at level 0 at
  // 2.7x: never tried there, where the per-level oracle starts it at 1.4x (H100, 2026-11-26).
  // A level right after the frontier moved to where s runs it is kAfterMove: an upload, or a
  // download to the host. cpu_expand's first level after device levels (the host's copy of the
  // visit state just downloaded, its caches cold) took 3.8-4.5x its price, median, on
  // ca-AstroPh-lcc, email-Enron and soc-Slashdot0902, where its levels at a BFS's start took
  // 0.9-2.5x; pooled, the online correction left both wrong (H100, 2026-11-26).
  static int level_group(const strategies::Strategy& s, strategies::Location location, int level,
                         bool after_run = false) {
    if (level == 0) return kFirstLevel;
    const strategies::Location consumes = s.frontier_io().consumes_at;
    if (consumes != location) return kAfterMove;
    if (consumes == strategies::Location::Device && after_run) return kAfterRun;
    return kPlain;
  }
  void learn_corrections();  // folds the last BFS's observations in, then re-prices the lookahead
  // observations_ into the corrections (learn_corrections' step). deliberate: a
  // measurement (learn_warm_uploads), whose first folds move as many levels' would.
  void fold_observations(bool deliberate = false);
  // The uploads of warm_strategies' BFS (while warming_), measured before the models were
  // set, and set_models' step that folds them into the upload's correction (learn_warm_uploads).
  bool warming_ = false;
  struct WarmUpload {
    VertexId vertices;
    bool first;
    int level;
    double us;
  };
  std::vector<WarmUpload> warm_uploads_;
  void learn_warm_uploads();
  // The one-block loop's levels in the plan's sampled BFSs (sample_levels: the built-in rule
  // runs one_block over the small frontiers, before the models are set), the executor's first
  // BFS left out (the device's caches cold: plan_bfs runs warm_up from the first sampled
  // source; cnr-2000's first sampled BFS is its only one of the giant component), and
  // set_models' step that folds them into one_block's and dynamic_parallel's corrections of
  // carried one-block levels (learn_sampled_block_levels). The calibration's sweep prices a
  // discovery at ~0.7-1 ns beside ~0.8 an arc; the real graphs' carried one-block levels took
  // their uncorrected prices times 1.01 (rgg_n_2_16_s0) to 2.1 (uniform:8388608:8), medians by
  // graph (soc-Slashdot0902 1.46, uniform:1048576:8 1.55, cnr-2000 1.64): their ids, degrees
  // and vertex arrays' size set a discovery's and an arc's cost on one SM, which no term of the
  // sweep's graphs separated (bench/refit_samples.py over `abfs calibrate --samples`). Until
  // each strategy had run two BFSs of its own, those classes were priced by the model alone:
  // soc-Slashdot0902's first dynamic_parallel run took 1.22x its price, and the rise that
  // followed priced a mixed route over it for three BFSs. Taught so, the plans' per-level p90
  // error fell from 30 to 18% on uniform:1048576:8 and moved -3 to +2 points on nine other
  // suite graphs; the BFS times moved within the processes' noise (A/B, 10 graphs x 16 sources
  // x 4 rounds: geometric mean 0.994; H100, 2026-11-27).
  struct SampledLevel {
    VertexId frontier_vertices;
    EdgeOffset frontier_edges;
    VertexId discovered;
    double us;
  };
  std::vector<SampledLevel> sampled_block_levels_;
  std::vector<std::size_t> carried_block_records_;  // expand_device_runs: records of one-block levels
  void learn_sampled_block_levels();
  std::vector<Correction> corrections_;  // parallel to strategies_
  // A BFS's first decision, on code and data cold in the host's caches after whatever ran
  // since the previous BFS, takes ~1 us on a warm host and 5-12 us after a BFS over kron:22 or
  // uniform:8388608:8 and its validation (the same steps that took 1.4 us at later levels;
  // H100 host, 2026-11-24). It is the same whichever strategy runs level 0, so it is added to
  // every candidate's price at level 0 (first_level_extra_us_: the lower median of the last
  // kFirstLevelWindow BFSs' level-0 executor time beyond level_overhead_us, negative where it
  // is below, the first BFS after set_models left out) instead of being learned by each
  // strategy's and size class's factor, and left out of their observations. Three BFSs: in
  // `abfs compare` the time fell from 17-21 us in a round's first BFSs to 10-11 in the next
  // round's (uniform:8388608:8), and a median of eight lagged a round behind (H100 host,
  // 2026-11-24).
  static constexpr std::size_t kFirstLevelWindow = 3;
  std::array<double, kFirstLevelWindow> first_level_extras_{};
  std::size_t first_level_seen_ = 0;  // BFSs observed, of which the last kFirstLevelWindow are kept
  double first_level_extra_us_ = 0.0;
  // The same for a level 0 decided ahead (first_choice_for), whose executor time holds no
  // decision: its price takes this instead of the decision's extra (0 until one is seen). With
  // the decision's, email-Enron's host levels 0 of 0.8-1.5 us were priced 2.3-4.8 (H100,
  // 2026-11-28). Negative where such a level's executor time is below level_overhead_us (the
  // decision's part of that overhead, which the decision's price holds: execute_levels).
  std::array<double, kFirstLevelWindow> ahead_level_extras_{};
  std::size_t ahead_level_seen_ = 0;
  double ahead_level_extra_us_ = 0.0;
  bool first_level_skip_ = true;  // the first BFS since set_models is left out
  double first_level_extra(int level) const { return level == 0 ? first_level_extra_us_ : 0.0; }
  // The executor's own time at a decided level after level 0 (its decision, the level's
  // bookkeeping), as this executor measures it: the lower median of the last kOverheadWindow
  // such levels (learn_level_overhead, from the BFSs that teach the corrections), and until one
  // is seen calibration's executor_level_us (ModelSet::level_overhead_us). Calibration measures
  // it over levels whose decision is trivial (0.41 us on the H100's host); the plan's decided
  // levels took 1.3-6 us of executor time (medians by graph: uniform:8388608:8 1.25, kron:22
  // 1.37, soc-Slashdot0902 1.88, cnr-2000 2.61, luxembourg_osm 5.11; H100 host, 2026-11-27),
  // and every price of a decided level, the lookahead's included, had it at 0.41: a route of
  // more decided levels looked cheaper than it ran (soc-Slashdot0902's one_block at level 0,
  // then privatized_queue, then dynamic_parallel: 0.16-0.19 ms, priced 5 us under
  // dynamic_parallel's run, which takes 0.14-0.16).
  // Until kOverheadPrior levels are seen, calibration's value stands in for the missing ones:
  // rome99's first BFS had one decided level after level 0, a hand-over at level 10 whose
  // decision took 5.5 us on cold code (1.3-2.2 at the levels of other BFSs), and that one level
  // made every later decided level's price 5.5 (H100, 2026-11-27).
  static constexpr std::size_t kOverheadWindow = 32;
  static constexpr std::size_t kOverheadPrior = 3;
  std::array<double, kOverheadWindow> decided_overheads_{};
  std::size_t decided_overheads_seen_ = 0;  // levels observed, of which the last kOverheadWindow are kept
  double decided_overhead_us_ = -1.0;       // negative: none observed yet
  double level_overhead_us() const {
    return decided_overhead_us_ >= 0.0 ? decided_overhead_us_ : models_->level_overhead_us;
  }
  // level_overhead_us beyond calibration's: a decided level's price adds it unscaled, after the
  // online correction scales the model and calibration's overhead (predict_level_us). Scaled
  // with the rest, it was counted by a class's factor learned against calibration's 0.41 us:
  // rome99's host level 0 (model ~0, a factor of ~3 learned in the first BFS) was priced
  // (0 + 5.5) x 3 + 1.9 = 18.1 us after taking 2.7 with the executor's part, and from then on
  // every BFS of that process ran one_block from level 0 (0.124-0.157 ms, forced cpu_expand
  // 0.098; H100, 2026-11-27).
  double level_overhead_excess_us() const { return level_overhead_us() - models_->level_overhead_us; }
  // Adds the last BFS's decided levels after level 0 (level_overheads_) to the window; returns
  // whether level_overhead_us() moved.
  bool learn_level_overhead();
  // extra_us: this BFS's level-0 executor time beyond level_overhead_us (negative where it is
  // below). ahead: level 0 was decided ahead (its own window).
  void learn_first_level(double extra_us, bool ahead);
  bool past_first_bfs_ = false;  // the first BFS since set_models teaches nothing, unless warmed_
  bool warmed_ = false;          // a BFS has run (the plan's sampled BFS)
  std::vector<Observation> observations_;
};

}  // namespace abfs::detail
