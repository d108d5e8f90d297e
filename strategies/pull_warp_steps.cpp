// add_pull_warp_steps: gather_pull's critical path at each level of a sampled BFS, replayed on the
// host as its kernel walks the in-lists (strategies/gather_pull_walk.hpp).

#include <abfs/error.hpp>

#include "graph/pull_profile.hpp"
#include "strategies/gather_pull_walk.hpp"
#include "strategies/strategy.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace abfs::strategies {
namespace {

using pull_walk::kHubDegree;
using pull_walk::kWarpKeepArcs;
using pull_walk::kWarpScanDegree;
using pull_walk::long_list_steps;

/// One vertex of a word: its in-list's length, its distance (-1: unreached), its scan at the
/// level before its own (to its first in-neighbour one level closer to the source), and a long
/// list's steps (long_list_steps) to its end and to that hit, whole [0] and where the warp stops
/// at kHubDegree [1].
struct Lane {
  EdgeOffset length;
  EdgeOffset hit;
  std::int32_t distance;
  std::array<double, 2> full_steps, hit_steps;
};

/// A word's values over levels [begin, end): its steps with the frontier's in-neighbours
/// stopping scans, and with every scan to its list's end.
struct StepPiece {
  std::size_t begin, end;
  double steps, full;
};

/// The word's two values at `level`: its lanes' short scans side by side, then its long lists
/// one after another, as expand_bottom_up walks them.
std::array<double, 2> word_steps(const Lane* lanes, int count, std::int32_t level) {
  auto unvisited = [level](const Lane& l) { return l.distance < 0 || l.distance > level; };
  unsigned int warp_rest = 0;
  for (int i = 0; i < count; ++i) {
    if (unvisited(lanes[i]) && lanes[i].length > kHubDegree) {
      warp_rest += static_cast<unsigned int>(std::min<EdgeOffset>(lanes[i].length - kHubDegree, kWarpKeepArcs + 1));
    }
  }
  EdgeOffset short_scan = 0, short_full = 0;
  double long_steps = 0.0, long_full = 0.0;
  for (int i = 0; i < count; ++i) {
    const Lane& l = lanes[i];
    if (!unvisited(l)) continue;
    const bool capped = warp_rest > kWarpKeepArcs && l.length > kHubDegree;
    const EdgeOffset stop = capped ? kHubDegree : l.length;
    const EdgeOffset scan = std::min(stop, l.distance == level + 1 ? l.hit : l.length);
    if (stop > kWarpScanDegree) {
      long_steps += l.distance == level + 1 ? l.hit_steps[capped] : l.full_steps[capped];
      long_full += l.full_steps[capped];
    } else {
      short_scan = std::max(short_scan, scan);
      short_full = std::max(short_full, stop);
    }
  }
  return {static_cast<double>(short_scan) + long_steps, static_cast<double>(short_full) + long_full};
}

/// out[level] = the largest value (steps or full) of the pieces covering it; pieces reordered.
void fill_max(std::vector<StepPiece>& pieces, bool full, std::vector<EdgeOffset>& out) {
  auto value = [full](const StepPiece& p) { return full ? p.full : p.steps; };
  std::sort(pieces.begin(), pieces.end(), [&](const StepPiece& a, const StepPiece& b) { return value(a) > value(b); });
  std::vector<std::size_t> next(out.size() + 1);  // the first level at or after k not yet set
  std::iota(next.begin(), next.end(), std::size_t{0});
  auto find = [&](std::size_t k) {
    while (next[k] != k) k = next[k] = next[next[k]];
    return k;
  };
  for (const StepPiece& p : pieces) {
    for (std::size_t k = find(p.begin); k < p.end; k = find(k)) {
      out[k] = std::max(out[k], static_cast<EdgeOffset>(std::llround(value(p))));
      next[k] = k + 1;
    }
  }
}

}  // namespace

void add_pull_warp_steps(const Graph& graph, const std::vector<std::int32_t>& distances,
                         std::vector<LevelShape>& levels) {
  const VertexId n = graph.num_vertices();
  if (distances.size() != n) {
    throw InvalidArgument("add_pull_warp_steps: " + std::to_string(distances.size()) + " distances for a graph of " +
                          std::to_string(n) + " vertices");
  }
  const std::size_t depth = levels.size();
  if (depth == 0) return;
  const Csr& in = graph.reverse_csr();
  const std::size_t words = (static_cast<std::size_t>(n) + 31) / 32;
  // A word's steps change only at the levels just before and at its vertices' distances: each
  // word of long lists is evaluated once for each run of levels between those, and each level
  // takes the largest run covering it. A word of short lists only is worth its largest scan,
  // which is found by distance as add_pull_profile sums the scans: by the distance k of v
  // (k < depth + 2; unreached and farther vertices are never found by the levels profiled), the
  // longest full list and the longest scan that stops at k - 1.
  const int threads = omp_get_max_threads();
  std::vector<std::vector<StepPiece>> thread_pieces(static_cast<std::size_t>(threads));
  std::vector<std::vector<EdgeOffset>> thread_short(static_cast<std::size_t>(threads),
                                                    std::vector<EdgeOffset>(2 * (depth + 3), 0));
  // pull_scanned_edges' sums by distance class (detail::set_pull_scanned_edges), from the same
  // scans: add_pull_profile's pass, not repeated.
  std::vector<std::vector<EdgeOffset>> thread_sums(static_cast<std::size_t>(threads),
                                                   std::vector<EdgeOffset>(2 * (depth + 3), 0));
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    std::vector<StepPiece>& pieces = thread_pieces[t];
    EdgeOffset* short_full = thread_short[t].data();
    EdgeOffset* short_hit = short_full + depth + 3;
    EdgeOffset* scan_full = thread_sums[t].data();
    EdgeOffset* scan_hit = scan_full + depth + 3;
    std::array<Lane, 32> lanes{};
    std::array<std::size_t, 65> breaks{};
#pragma omp for schedule(dynamic, 256)
    for (std::size_t w = 0; w < words; ++w) {
      const auto first = static_cast<VertexId>(w * 32);
      const int count = static_cast<int>(std::min<std::size_t>(32, n - first));
      bool long_list = false;
      for (int i = 0; i < count; ++i) {
        const VertexId v = first + static_cast<VertexId>(i);
        Lane& l = lanes[static_cast<std::size_t>(i)];
        l.length = in.row_offsets[v + 1] - in.row_offsets[v];
        l.distance = distances[v];
        l.hit = l.length;
        const std::size_t k = detail::pull_distance_class(l.distance, depth);
        scan_full[k] += l.length;
        if (l.distance > 0) {
          const EdgeOffset begin = in.row_offsets[v];
          for (EdgeOffset e = 0; e < l.length; ++e) {
            if (distances[in.column_indices[begin + e]] == l.distance - 1) {
              l.hit = e + 1;
              break;
            }
          }
          if (k != depth + 2) scan_hit[k] += l.hit;
        }
        if (l.length > kWarpScanDegree) {
          long_list = true;
          for (int capped = 0; capped < 2; ++capped) {
            const EdgeOffset stop = capped == 1 ? std::min(l.length, kHubDegree) : l.length;
            l.full_steps[static_cast<std::size_t>(capped)] = long_list_steps(static_cast<double>(stop));
            l.hit_steps[static_cast<std::size_t>(capped)] = long_list_steps(static_cast<double>(std::min(stop, l.hit)));
          }
        }
      }
      if (!long_list) {
        for (int i = 0; i < count; ++i) {
          const Lane& l = lanes[static_cast<std::size_t>(i)];
          const std::size_t k = detail::pull_distance_class(l.distance, depth);
          short_full[k] = std::max(short_full[k], l.length);
          if (l.distance > 0 && k != depth + 2) short_hit[k] = std::max(short_hit[k], l.hit);
        }
        continue;
      }
      std::size_t b = 0;
      breaks[b++] = 0;
      for (int i = 0; i < count; ++i) {
        const std::int32_t d = lanes[static_cast<std::size_t>(i)].distance;
        if (d >= 1 && static_cast<std::size_t>(d - 1) < depth) breaks[b++] = static_cast<std::size_t>(d - 1);
        if (d >= 0 && static_cast<std::size_t>(d) < depth) breaks[b++] = static_cast<std::size_t>(d);
      }
      std::sort(breaks.begin(), breaks.begin() + static_cast<std::ptrdiff_t>(b));
      b = static_cast<std::size_t>(std::unique(breaks.begin(), breaks.begin() + static_cast<std::ptrdiff_t>(b)) -
                                   breaks.begin());
      for (std::size_t i = 0; i < b; ++i) {
        const std::array<double, 2> steps = word_steps(lanes.data(), count, static_cast<std::int32_t>(breaks[i]));
        pieces.push_back({breaks[i], i + 1 < b ? breaks[i + 1] : depth, steps[0], steps[1]});
      }
    }
  }
  std::vector<StepPiece> pieces;
  for (const auto& p : thread_pieces) pieces.insert(pieces.end(), p.begin(), p.end());
  std::vector<EdgeOffset> steps(depth, 0), full(depth, 0), short_full(depth + 3, 0), short_hit(depth + 3, 0);
  for (const auto& s : thread_short) {
    for (std::size_t k = 0; k < depth + 3; ++k) {
      short_full[k] = std::max(short_full[k], s[k]);
      short_hit[k] = std::max(short_hit[k], s[depth + 3 + k]);
    }
  }
  std::vector<EdgeOffset> full_sum(depth + 3, 0), hit_sum(depth + 3, 0);
  for (const auto& s : thread_sums) {
    for (std::size_t k = 0; k < depth + 3; ++k) {
      full_sum[k] += s[k];
      hit_sum[k] += s[depth + 3 + k];
    }
  }
  detail::set_pull_scanned_edges(full_sum, hit_sum, levels);
  fill_max(pieces, false, steps);
  fill_max(pieces, true, full);
  // Level L: short-list vertices at distance L + 1 stop early, farther and unreached ones scan
  // in full.
  EdgeOffset suffix = 0;
  for (std::size_t k = depth + 2; k >= 2; --k) {
    suffix = std::max(suffix, short_full[k]);
    const std::size_t level = k - 2;
    if (level >= depth) continue;
    levels[level].pull_warp_steps = std::max(steps[level], std::max(suffix, short_hit[level + 1]));
    levels[level].pull_warp_steps_full = std::max(full[level], std::max(suffix, short_full[level + 1]));
  }
}

}  // namespace abfs::strategies
