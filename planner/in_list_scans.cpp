// InListScans: the in-list lengths' histogram and the table of S(p).

#include "planner/in_list_scans.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace abfs::detail {
namespace {

constexpr int kBinsPerOctave = 8;

/// The histogram bin of an in-list of d > 0 arcs: d itself up to kExactLengths, then 1/8 octave.
std::size_t bin_of(EdgeOffset d) {
  if (d <= InListScans::kExactLengths) return static_cast<std::size_t>(d);
  const double octaves = std::log2(static_cast<double>(d) / static_cast<double>(InListScans::kExactLengths));
  return static_cast<std::size_t>(InListScans::kExactLengths) + 1 +
         static_cast<std::size_t>(std::floor(octaves * kBinsPerOctave));
}

}  // namespace

InListScans::InListScans(const Csr& in) {
  const auto n = static_cast<std::int64_t>(in.row_offsets.empty() ? 0 : in.row_offsets.size() - 1);
  // Lists of up to 2^64 arcs: kExactLengths + 1 + 8 octaves' bins for each of the 56 past 2^8.
  const std::size_t bins = static_cast<std::size_t>(kExactLengths) + 1 + 56 * kBinsPerOctave + 1;
  std::vector<double> count(bins, 0.0), arcs(bins, 0.0);
#pragma omp parallel
  {
    std::vector<double> my_count(bins, 0.0), my_arcs(bins, 0.0);
#pragma omp for schedule(static) nowait
    for (std::int64_t v = 0; v < n; ++v) {
      const EdgeOffset d = in.row_offsets[static_cast<std::size_t>(v) + 1] - in.row_offsets[static_cast<std::size_t>(v)];
      if (d == 0) continue;
      const std::size_t b = bin_of(d);
      my_count[b] += 1.0;
      my_arcs[b] += static_cast<double>(d);
    }
#pragma omp critical
    for (std::size_t b = 0; b < bins; ++b) {
      count[b] += my_count[b];
      arcs[b] += my_arcs[b];
    }
  }
  // (count, mean length) of the bins in use.
  std::vector<std::pair<double, double>> lists;
  for (std::size_t b = 0; b < bins; ++b) {
    if (count[b] > 0.0) lists.emplace_back(count[b], arcs[b] / count[b]);
    arcs_ += arcs[b];
  }
  if (arcs_ == 0.0) return;
  table_.resize(kSteps + 1);
  log_table_.resize(kSteps + 1);
  for (int j = 0; j <= kSteps; ++j) {
    const double p = std::exp2(-static_cast<double>(j) / kBinsPerOctave);
    const double log_miss = std::log1p(-std::min(p, 1.0 - 1e-16));  // p = 1: each list scans 1
    double s = 0.0;
    for (const auto& [lists_of, length] : lists) {
      s += j == 0 ? lists_of : lists_of * -std::expm1(length * log_miss) / p;
    }
    table_[static_cast<std::size_t>(j)] = s;
    log_table_[static_cast<std::size_t>(j)] = std::log(s);
  }
}

double InListScans::scans(double p) const {
  if (table_.empty()) return 0.0;
  if (!(p > 0.0)) return arcs_;
  if (p >= 1.0) return table_.front();
  const double at = -std::log2(p) * kBinsPerOctave;
  if (at >= kSteps) return arcs_;
  const auto j = static_cast<std::size_t>(at);
  const double t = at - static_cast<double>(j);
  return std::min(arcs_, std::exp(log_table_[j] + t * (log_table_[j + 1] - log_table_[j])));
}

}  // namespace abfs::detail
