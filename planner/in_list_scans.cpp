// InListScans: the in-list lengths' histogram and the table of S(p) over its shortest lists.

#include "planner/in_list_scans.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace abfs::detail {
namespace {

/// The histogram bin of an in-list of d > 0 arcs: d itself up to kExactLengths, then a quarter
/// octave.
std::size_t bin_of(EdgeOffset d) {
  if (d <= InListScans::kExactLengths) return static_cast<std::size_t>(d);
  const double octaves = std::log2(static_cast<double>(d) / static_cast<double>(InListScans::kExactLengths));
  return static_cast<std::size_t>(InListScans::kExactLengths) + 1 +
         static_cast<std::size_t>(std::floor(octaves * InListScans::kStepsPerOctave));
}

/// p at table step j.
double step_p(int j) { return std::exp2(-static_cast<double>(j) / InListScans::kStepsPerOctave); }

}  // namespace

InListScans::InListScans(const Csr& in) {
  const auto n = static_cast<std::int64_t>(in.row_offsets.empty() ? 0 : in.row_offsets.size() - 1);
  // Lists of up to 2^64 arcs: the exact lengths, then a quarter octave's bins past 2^4.
  const std::size_t slots = static_cast<std::size_t>(kExactLengths) + 1 + 60 * kStepsPerOctave + 1;
  std::vector<double> count(slots, 0.0), arcs(slots, 0.0);
#pragma omp parallel
  {
    std::vector<double> my_count(slots, 0.0), my_arcs(slots, 0.0);
#pragma omp for schedule(static) nowait
    for (std::int64_t v = 0; v < n; ++v) {
      const auto at = static_cast<std::size_t>(v);
      const EdgeOffset d = in.row_offsets[at + 1] - in.row_offsets[at];
      if (d == 0) continue;
      const std::size_t b = bin_of(d);
      my_count[b] += 1.0;
      my_arcs[b] += static_cast<double>(d);
    }
#pragma omp critical
    for (std::size_t b = 0; b < slots; ++b) {
      count[b] += my_count[b];
      arcs[b] += my_arcs[b];
    }
  }
  std::vector<double> lists, lengths;  // the non-empty bins: their lists, their mean length
  arcs_before_.push_back(0.0);
  for (std::size_t b = 0; b < slots; ++b) {
    if (count[b] == 0.0) continue;
    lists.push_back(count[b]);
    lengths.push_back(arcs[b] / count[b]);
    arcs_before_.push_back(arcs_before_.back() + arcs[b]);
  }
  bins_ = lists.size();
  arcs_ = arcs_before_.back();
  if (bins_ == 0) return;
  scans_before_.assign(static_cast<std::size_t>(kSteps + 1) * (bins_ + 1), 0.0);
  for (int j = 0; j <= kSteps; ++j) {
    const double p = step_p(j);
    const double log_miss = std::log1p(-std::min(p, 1.0 - 1e-16));  // at p = 1 each list scans 1
    double* row = &scans_before_[static_cast<std::size_t>(j) * (bins_ + 1)];
    for (std::size_t b = 0; b < bins_; ++b) {
      row[b + 1] = row[b] + (j == 0 ? lists[b] : lists[b] * -std::expm1(lengths[b] * log_miss) / p);
    }
  }
}

double InListScans::shortest(double arcs, double p) const {
  if (bins_ == 0 || !(arcs > 0.0)) return 0.0;
  // The bins taken whole, and the share of the next.
  const auto after = std::upper_bound(arcs_before_.begin(), arcs_before_.end(), arcs);
  const auto b = static_cast<std::size_t>(after - arcs_before_.begin()) - 1;  // arcs_before_[b] <= arcs
  const double share = b < bins_ ? (arcs - arcs_before_[b]) / (arcs_before_[b + 1] - arcs_before_[b]) : 0.0;
  auto at_step = [&](std::size_t j) {
    const double* row = &scans_before_[j * (bins_ + 1)];
    return b < bins_ ? row[b] + share * (row[b + 1] - row[b]) : row[bins_];
  };
  if (!(p > 0.0)) return std::min(arcs, arcs_);  // every list scanned whole
  if (p >= 1.0) return at_step(0);
  const double x = -std::log2(p) * kStepsPerOctave;
  if (x >= kSteps) return std::min(arcs, arcs_);
  const auto j = static_cast<std::size_t>(x);
  const double lo = at_step(j), hi = at_step(j + 1);
  if (!(lo > 0.0) || !(hi > 0.0)) return lo + (x - static_cast<double>(j)) * (hi - lo);
  return std::exp(std::log(lo) + (x - static_cast<double>(j)) * (std::log(hi) - std::log(lo)));
}

}  // namespace abfs::detail
