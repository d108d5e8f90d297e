#pragma once
// What a bottom-up (pull) step scans over a graph's in-lists when the frontier's arcs hit them
// at random: the planner scales a sampled level's scans (LevelShape::pull_scanned_edges) to
// another source's frontier by it (profile_pull_scans).

#include <abfs/graph.hpp>

#include <vector>

namespace abfs::detail {

/// The in-arcs a bottom-up step scans over every in-list of a graph, each to its first in-arc
/// from the frontier or to its end, when each in-arc comes from the frontier with probability
/// p (the frontier's share of the arcs): S(p) = sum over in-lists of length d of
/// (1 - (1 - p)^d) / p, which runs from the arcs' count at p = 0 to the non-empty lists' count
/// at p = 1. From the in-list lengths' histogram (exact up to kExactLengths arcs, then in bins
/// of 1/8 octave), tabulated at p = 2^(-j/8), j = 0..kSteps, and interpolated in log S.
/// Beamer et al., "Direction-optimizing breadth-first search" (SC 2012), price a bottom-up step
/// by the in-arcs it checks; the expected scan of a list that stops at its first hit is the
/// geometric distribution's, truncated at the list's length.
class InListScans {
 public:
  InListScans() = default;
  /// From the in-lists of `in` (a graph's reverse CSR, or its CSR where the graph is
  /// undirected). O(|V|) time for the histogram, O(kSteps x bins) for the table.
  explicit InListScans(const Csr& in);

  /// S(p) in arcs (p clamped to [0, 1]); 0 for an empty graph or one never built.
  double scans(double p) const;
  /// Whether it was built from a graph with arcs.
  bool empty() const noexcept { return table_.empty(); }

  static constexpr EdgeOffset kExactLengths = 256;
  static constexpr int kSteps = 8 * 48;  // p down to 2^-48

 private:
  std::vector<double> log_table_;  // log S(2^(-j/8)), j = 0..kSteps
  std::vector<double> table_;      // S, the same
  double arcs_ = 0.0;              // S(0)
};

}  // namespace abfs::detail
