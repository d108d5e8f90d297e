#pragma once
// What add_pull_profile and strategies::add_pull_warp_steps share: a vertex's distance class in
// a profile, and the level sums of a bottom-up step's scans by class.

#include <abfs/graph.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace abfs::detail {

/// The class of a vertex at distance d (-1: unreached) in a profile of `depth` levels: d, or
/// depth + 2 where the levels profiled never find it (unreached, or farther than depth + 1).
inline std::size_t pull_distance_class(std::int32_t d, std::size_t depth) {
  return d < 0 || static_cast<std::size_t>(d) > depth + 1 ? depth + 2 : static_cast<std::size_t>(d);
}

/// Sets pull_scanned_edges of levels[0, levels.size()) from sums by distance class k (depth + 3
/// entries each, depth = levels.size()): full_sum[k], the in-list lengths of class k's vertices;
/// hit_sum[k], their scans to the first in-neighbour at distance k - 1 (0 for classes 0 and
/// depth + 2). At level L the vertices of class L + 1 stop at that hit and those of class L + 2
/// or farther scan in full.
void set_pull_scanned_edges(const std::vector<EdgeOffset>& full_sum, const std::vector<EdgeOffset>& hit_sum,
                            std::vector<LevelShape>& levels);

}  // namespace abfs::detail
