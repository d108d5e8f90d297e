#pragma once
// What a bottom-up (pull) step scans over a graph's in-lists when the frontier's arcs hit them
// at random: the planner scales a sampled level's scans (LevelShape::pull_scanned_edges) to
// another source's frontier by it (profile_pull_scans).

#include <abfs/graph.hpp>

#include <vector>

namespace abfs::detail {

/// The in-arcs a bottom-up step scans over in-lists of a graph, each to its first in-arc from
/// the frontier or to its end, when each in-arc comes from the frontier with probability p
/// (the frontier's share of the arcs): S(p) = sum over the lists, of lengths d, of
/// (1 - (1 - p)^d) / p, from the lists' arcs at p = 0 to their count at p = 1. shortest(a, p)
/// sums over the shortest lists that hold a arcs, the unvisited vertices' as a BFS leaves them
/// on skewed graphs (it reaches the long lists' vertices first), and scans(p) over all.
/// Beamer et al., "Direction-optimizing breadth-first search" (SC 2012), price a bottom-up step
/// by the in-arcs it checks; a list's expected scan is the geometric distribution's truncated
/// at its length. From the lengths' histogram (exact up to kExactLengths arcs, then bins of a
/// quarter octave, each at its mean), tabulated at p = 2^(-j/4), j = 0..kSteps, and
/// interpolated in log S.
class InListScans {
 public:
  InListScans() = default;
  /// From the in-lists of `in` (a graph's reverse CSR, or its CSR where the graph is
  /// undirected). O(|V|) time for the histogram, O(kSteps x bins) for the table.
  explicit InListScans(const Csr& in);

  /// S(p) in arcs over every list (p clamped to [0, 1]); 0 where no list has an arc.
  double scans(double p) const { return shortest(arcs_, p); }
  /// S(p) over the shortest lists holding `arcs` arcs (all of them past their total): the
  /// last bin taken in part, as a share of its lists.
  double shortest(double arcs, double p) const;
  /// Whether it was built from a graph with arcs.
  bool empty() const noexcept { return bins_ == 0; }

  static constexpr EdgeOffset kExactLengths = 16;
  static constexpr int kStepsPerOctave = 4;
  static constexpr int kSteps = kStepsPerOctave * 48;  // p down to 2^-48

 private:
  std::size_t bins_ = 0;                // non-empty bins, by length
  std::vector<double> arcs_before_;     // by bin: the arcs of the shorter bins (bins_ + 1)
  std::vector<double> scans_before_;    // by step j and bin: S(p_j) of the shorter bins
  double arcs_ = 0.0;
};

}  // namespace abfs::detail
