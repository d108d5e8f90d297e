#pragma once
// Cost models: a strategy's (or a conversion's) named features times coefficients fitted from
// calibration samples, plus per-graph corrections from Measure plans.

#include <abfs/wisdom.hpp>

#include "strategies/strategy.hpp"

#include <map>
#include <string>
#include <vector>

namespace abfs::detail {

/// Names of the executor's frontier conversions, priced like strategies.
inline constexpr const char* kToDevice = "to_device";  ///< host visits uploaded (move_to_device)
inline constexpr const char* kToHost = "to_host";      ///< visited bitmap + frontier downloaded
inline constexpr const char* kToBitmap = "to_bitmap";  ///< queue -> frontier bitmap (memset + scatter)

/// Features of the conversions. visited_words = ceil(|V| / 32). first_upload: the BFS has not
/// used the device yet (the upload clears the device's visited bitmap, and the first device work
/// after the GPU idled costs 20-230 us more than later uploads, H100, 2026-11-22).
strategies::CostFeatures to_device_features(VertexId vertices_moved, bool first_upload);
strategies::CostFeatures to_host_features(std::size_t visited_words, VertexId frontier_vertices);
strategies::CostFeatures to_bitmap_features(std::size_t visited_words, VertexId frontier_vertices);

/// Predicted microseconds: sum of coefficient * feature, matched by position; the names must
/// agree (the strategy versions in the wisdom fingerprint guarantee it).
/// @throws WisdomError naming the model if they do not.
double predict_us(const std::string& model_name, const CostModelFit& model, const strategies::CostFeatures& features);

/// One measurement for fitting.
struct CostSample {
  std::string model;                ///< strategy or conversion name
  strategies::CostFeatures features;
  double measured_us = 0.0;
};

/// Fits non-negative coefficients minimizing the squared *relative* error
/// sum ((x . c - y) / y)^2 (times span four orders of magnitude, and a fit in absolute terms
/// would ignore the small levels): least squares by column-pivoting QR (Eigen) over the active
/// features, dropping the most negative coefficient and refitting until none is negative (an
/// active-set heuristic after Lawson & Hanson, "Solving Least Squares Problems", 1974, ch. 23).
/// Features that are zero in every sample get coefficient 0. Samples with measured_us <= 0 are
/// skipped. Records the median and 90th-percentile relative error over the samples.
/// fixed: features whose coefficients are given (a probe's measurement: cpu_expand's team_wake
/// and parallel_level), taken out of each sample before the others are fitted; a name the
/// samples lack is ignored.
/// @throws InvalidArgument if no sample is usable, the samples' feature names disagree, or a
/// fixed coefficient is negative or not finite.
CostModelFit fit_cost_model(const std::vector<CostSample>& samples, const std::map<std::string, double>& fixed = {});

/// One applicable strategy as the per-level decision sees it.
struct DecisionCandidate {
  strategies::Strategy* strategy = nullptr;
  double level_us = 0.0;       ///< predicted time of this level (executor overhead included)
  double conversion_us = 0.0;  ///< predicted conversion of the frontier to what it consumes
  /// Device-driven runs: the levels after this one that the run is expected to carry and their
  /// predicted time in the run.
  std::size_t carried_levels = 0;
  double carried_us = 0.0;
  /// The cheapest way to finish the BFS from where this candidate leaves the frontier (the
  /// sampled profile's cost to go, conversions included).
  double future_us = 0.0;
  /// The factor level_us carries from this BFS's earlier levels of the strategy (1: none;
  /// Executor::surprise_).
  double surprise = 1.0;
  /// What the decision compares: this level's cost, conversion included, the levels it
  /// carries, and the cost to go after it (a Bellman lookahead over the sampled profile).
  double score() const { return level_us + conversion_us + carried_us + future_us; }
};

/// Orders candidates cheapest first by score() (stable: registry order breaks ties).
void rank_candidates(DecisionCandidate* begin, DecisionCandidate* end);

/// Relative error |predicted - measured| / measured.
inline double relative_error(double predicted, double measured) {
  return measured > 0.0 ? (predicted > measured ? predicted - measured : measured - predicted) / measured : 0.0;
}

/// The current time as ISO 8601 UTC ("2026-11-22T09:51:37Z"), for wisdom entries.
std::string utc_now();

/// q-quantile (0..1) of values by nearest rank on a sorted copy; 0 for none.
double quantile(std::vector<double> values, double q);

}  // namespace abfs::detail
