#pragma once
/// @file plan.hpp
/// Plan, then execute — like FFTW. A Plan owns every buffer a BFS needs (host and device), so
/// execute() allocates nothing but the caller's result; one plan serves many sources.
///
/// @code
///   abfs::Graph g = abfs::open_graph("kron:16");
///   abfs::Plan plan = abfs::plan_bfs(g);
///   abfs::BfsResult r = plan.execute(0);
///   // r.distances, r.parents, r.levels (one LevelRecord per level)
/// @endcode

#include <abfs/graph.hpp>
#include <abfs/result.hpp>

#include <memory>
#include <string>
#include <vector>

namespace abfs {

/// The built-in per-level rule used until calibrated cost models exist. Top-down levels with a
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

/// What plan_bfs may do.
struct PlanOptions {
  /// "auto" applies the SwitchRule per level; a strategy name forces that strategy on every
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
};

/// A reusable BFS plan for one graph. Move-only. Not thread-safe: one execute at a time.
class Plan {
 public:
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  /// BFS from source. @throws InvalidArgument if source >= |V|; CudaError on device failure.
  BfsResult execute(VertexId source);
  /// Same, reusing result's vectors (no allocation after the first call with the same graph).
  void execute(VertexId source, BfsResult& result);

  /// Strategies this plan can run, in registry order.
  std::vector<std::string> strategies() const;
  /// Things the caller should know (no GPU found, so host only; ...).
  const std::vector<std::string>& warnings() const;
  /// Name of the device in use, or "host only".
  std::string device_name() const;

  struct Impl;

 private:
  explicit Plan(std::unique_ptr<Impl> impl);
  friend Plan plan_bfs(const Graph&, const PlanOptions&);
  std::unique_ptr<Impl> impl_;
};

/// Allocates everything a BFS on graph needs and uploads the graph to the device.
/// The plan keeps a (shared) copy of the graph.
/// @throws InvalidArgument for an unknown strategy name; OutOfMemory if the graph does not fit
/// on the device; CudaError on other device failures.
Plan plan_bfs(const Graph& graph, const PlanOptions& options = {});

/// Names of all strategies in registry order ("cpu_expand", "privatized_queue", ...).
std::vector<std::string> strategy_names();

/// Number of usable CUDA devices (0 when there is no driver or no device).
int cuda_device_count();

}  // namespace abfs
