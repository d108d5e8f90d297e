#pragma once
/// @file result.hpp
/// What a BFS returns: distances, parents and the per-level log.

#include <abfs/graph.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace abfs {

/// One strategy timed at one level by an Exhaustive plan (from the same checkpointed state).
struct StrategyTrial {
  std::string strategy;
  double predicted_us = 0.0;   ///< the cost model's prediction for the level (0 without models)
  double measured_us = 0.0;    ///< wall time of the level (launch, copy-back and sync included)
  double conversion_us = 0.0;  ///< converting the frontier to what the strategy consumes (synchronized)
  int levels = 1;              ///< levels the run advanced (device-driven runs may carry several)
};

/// One BFS level as the executor ran it. Level L expands the frontier of vertices at distance L.
struct LevelRecord {
  int level = 0;
  VertexId frontier_vertices = 0;  ///< |F|: vertices at distance `level`
  EdgeOffset frontier_edges = 0;   ///< arcs out of F
  std::string strategy;            ///< registry name of the strategy that expanded it
  double time_us = 0.0;            ///< wall time of the level (host clock, launch and sync included)
  double device_us = 0.0;          ///< GPU time of the level (CUDA events); 0 for host strategies
  double conversion_us = 0.0;      ///< moving the frontier/visited state before this level
  /// The executor's own share of time_us: from the end of the previous level to this level's
  /// start (the decision, the bookkeeping), conversion excluded.
  double executor_us = 0.0;
  std::string reason;              ///< why this strategy was chosen
  /// The cost model's prediction for the level's own time (comparable with time_us), and for
  /// the conversion before it; 0 when the level was not chosen by cost models.
  double predicted_us = 0.0;
  double predicted_conversion_us = 0.0;
  /// The second-cheapest applicable strategy and its predicted time, conversion included
  /// (empty when there was no model decision or no other candidate).
  std::string runner_up;
  double runner_up_predicted_us = 0.0;
  /// Exhaustive plans: every applicable strategy timed at this level.
  std::vector<StrategyTrial> trials;
};

/// The output of Plan::execute.
struct BfsResult {
  VertexId source = 0;
  /// |V| levels, -1 = unreached.
  std::vector<std::int32_t> distances;
  /// |V| parent ids, kNoVertex = unreached, parents[source] = source.
  std::vector<VertexId> parents;
  /// One record per level, in order.
  std::vector<LevelRecord> levels;
  /// The BFS itself, in ms: from the start of the first level until the last level is done,
  /// wherever it ran, conversions between host and device included. Measured with CUDA events
  /// when the BFS used the device (host clock otherwise, to the end of its last level's run);
  /// where its last level ran on the device, to that level's end on the device (the stop event
  /// recorded after its work in stream order, not after the host has read it). Like Graph500
  /// and the GPU BFS codes we compare with, it excludes gathering distances and parents for the
  /// caller (result_ms).
  double total_ms = 0.0;
  /// Exhaustive plans: the per-level oracle's total in ms, the cheapest chain of measured
  /// options through the levels (conversions included); 0 otherwise. total_ms then includes
  /// every trial and is not a BFS time.
  double oracle_ms = 0.0;
  /// Gathering `distances` and `parents` onto the host after the BFS, in ms (host clock).
  double result_ms = 0.0;
  VertexId vertices_reached = 0;
  /// Graph500 rule: arcs out of reached vertices, halved when undirected.
  EdgeOffset edges_traversed = 0;
  /// Billions of traversed edges per second.
  double gteps() const noexcept {
    return total_ms > 0.0 ? static_cast<double>(edges_traversed) / (total_ms * 1e6) : 0.0;
  }
};

}  // namespace abfs
