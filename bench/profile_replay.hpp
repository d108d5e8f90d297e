// The executor's sampled BFS profiles and their matching to another source's levels, replayed on
// the host alone (reference BFSs, no device): what abfs_pull_scan_estimate and
// abfs_discovery_estimate carry from the profile to each level. As plan_bfs samples: sources of
// seed 2 until a reach repeats, the distinct reaches kept (Executor::set_profiles); each profile
// gets Executor::make_profile's assumed level of one vertex past its end. Not replayed: the
// profiles the executor learns from the BFSs it runs (Executor::learn_profile) and the tail rule
// of matching_profile_level.
#pragma once

#include <abfs/graph.hpp>

#include "planner/executor.hpp"
#include "strategies/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace abfs::bench {

/// Level shapes of the reference BFS from source, with the bottom-up scans and warp steps.
inline std::vector<LevelShape> levels_of(const Graph& graph, VertexId source) {
  const BfsTree tree = reference_bfs(graph, source);
  std::vector<LevelShape> levels;
  for (VertexId v = 0; v < graph.num_vertices(); ++v) {
    const std::int32_t d = tree.distances[v];
    if (d < 0) continue;
    if (static_cast<std::size_t>(d) >= levels.size()) levels.resize(static_cast<std::size_t>(d) + 1);
    ++levels[static_cast<std::size_t>(d)].frontier_vertices;
    levels[static_cast<std::size_t>(d)].frontier_edges += graph.out_degree(v);
  }
  strategies::add_pull_warp_steps(graph, tree.distances, levels);
  return levels;
}

/// One sampled profile as the executor holds it (detail::profile_levels) and its reach.
struct ReplayedProfile : detail::ProfileLevels {
  VertexId reach = 0;

  /// Executor::matching_profile_level without the tail rule (detail::matched_profile_level).
  std::size_t match(VertexId visited_now) const { return detail::matched_profile_level(visited, visited_now); }
};

/// The sampled profiles plan_bfs keeps for graph, smallest reach first.
class ReplayedProfiles {
 public:
  ReplayedProfiles(const Graph& graph, const GraphStats& stats) {
    std::vector<std::vector<LevelShape>> sampled;
    std::vector<VertexId> reaches;
    for (VertexId s : random_sources(graph, 4, 2)) {
      sampled.push_back(levels_of(graph, s));
      const VertexId reach = detail::profile_reach(sampled.back());
      const bool repeated =
          std::any_of(reaches.begin(), reaches.end(), [&](VertexId r) { return detail::similar_reach(r, reach); });
      reaches.push_back(reach);
      if (repeated) break;
    }
    for (std::size_t i : detail::distinct_profiles(reaches)) {
      ReplayedProfile p;
      static_cast<detail::ProfileLevels&>(p) = detail::profile_levels(sampled[i], stats);
      p.reach = reaches[i];
      profiles_.push_back(std::move(p));
    }
  }

  /// The profile a BFS of `reach` vertices that has visited `visited` uses: its component's (a
  /// sampled BFS of a similar reach), else the first that reached as far, else the largest.
  const ReplayedProfile& for_bfs(VertexId reach, VertexId visited) const {
    for (const ReplayedProfile& p : profiles_) {
      if (detail::similar_reach(p.reach, reach)) return p;
    }
    for (const ReplayedProfile& p : profiles_) {
      if (p.reach >= visited) return p;
    }
    return profiles_.back();
  }

 private:
  std::vector<ReplayedProfile> profiles_;
};

inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

}  // namespace abfs::bench
