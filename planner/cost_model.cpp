#include "planner/cost_model.hpp"

#include <abfs/error.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>

namespace abfs::detail {

strategies::CostFeatures to_device_features(VertexId vertices_moved, bool first_upload) {
  strategies::CostFeatures f;  // one packed copy and one scatter kernel
  f.add("run", 1.0);
  f.add("first_upload", first_upload ? 1.0 : 0.0);
  f.add("vertices", vertices_moved);
  return f;
}

strategies::CostFeatures to_host_features(std::size_t visited_words, VertexId frontier_vertices) {
  strategies::CostFeatures f;  // visited bitmap and frontier slice downloaded, then a synchronization
  f.add("run", 1.0);
  f.add("visited_words", static_cast<double>(visited_words));
  f.add("frontier_vertices", frontier_vertices);
  return f;
}

strategies::CostFeatures to_bitmap_features(std::size_t visited_words, VertexId frontier_vertices) {
  strategies::CostFeatures f;  // memset of the bitmap and one scatter kernel
  f.add("run", 1.0);
  f.add("visited_words", static_cast<double>(visited_words));
  f.add("frontier_vertices", frontier_vertices);
  return f;
}

double predict_us(const std::string& model_name, const CostModelFit& model, const strategies::CostFeatures& features) {
  if (model.features.size() != static_cast<std::size_t>(features.size)) {
    throw WisdomError("cost model '" + model_name + "' has " + std::to_string(model.features.size()) +
                      " features, the code computes " + std::to_string(features.size));
  }
  double us = 0.0;
  for (int i = 0; i < features.size; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (model.features[k] != features.names[k]) {
      throw WisdomError("cost model '" + model_name + "' feature " + std::to_string(i) + " is '" + model.features[k] +
                        "', the code computes '" + features.names[k] + "'");
    }
    us += model.coefficients[k] * features.values[k];
  }
  return us;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void rank_candidates(DecisionCandidate* begin, DecisionCandidate* end) {
  // Insertion sort: a handful of candidates at every level, and std::stable_sort allocates.
  for (DecisionCandidate* i = begin; i != end; ++i) {
    const DecisionCandidate c = *i;
    const double score = c.score();
    DecisionCandidate* j = i;
    for (; j != begin && score < (j - 1)->score(); --j) *j = *(j - 1);
    *j = c;
  }
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

CostModelFit fit_cost_model(const std::vector<CostSample>& samples, const std::map<std::string, double>& fixed) {
  std::vector<const CostSample*> usable;
  for (const auto& s : samples) {
    if (s.measured_us > 0.0 && std::isfinite(s.measured_us)) usable.push_back(&s);
  }
  if (usable.empty()) throw InvalidArgument("fit_cost_model: no sample with a positive measured time");
  const strategies::CostFeatures& first = usable.front()->features;
  const int p = first.size;
  for (const CostSample* s : usable) {
    bool same = s->features.size == p;
    for (int i = 0; same && i < p; ++i) same = std::strcmp(s->features.names[static_cast<std::size_t>(i)], first.names[static_cast<std::size_t>(i)]) == 0;
    if (!same) throw InvalidArgument("fit_cost_model: samples of model '" + s->model + "' disagree on feature names");
  }
  const auto rows = static_cast<Eigen::Index>(usable.size());
  Eigen::MatrixXd x(rows, p);
  Eigen::VectorXd y(rows);
  for (Eigen::Index r = 0; r < rows; ++r) {
    const CostSample& s = *usable[static_cast<std::size_t>(r)];
    for (int c = 0; c < p; ++c) x(r, c) = s.features.values[static_cast<std::size_t>(c)] / s.measured_us;
    y(r) = 1.0;  // measured / measured: the weighted system is x c ~ 1
  }
  Eigen::VectorXd given = Eigen::VectorXd::Constant(p, -1.0);  // the fixed coefficients, -1 for free
  for (const auto& [name, value] : fixed) {
    if (!(value >= 0.0) || !std::isfinite(value)) {
      throw InvalidArgument("fit_cost_model: fixed coefficient of '" + name + "' must be finite and >= 0");
    }
    for (int c = 0; c < p; ++c) {
      if (name == first.names[static_cast<std::size_t>(c)]) {
        given(c) = value;
        y -= value * x.col(c);  // the rest of each sample is what the free features explain
      }
    }
  }
  std::vector<int> active;
  for (int c = 0; c < p; ++c) {
    if (given(c) < 0.0 && x.col(c).cwiseAbs().maxCoeff() > 0.0) active.push_back(c);
  }
  Eigen::VectorXd coefficients = Eigen::VectorXd::Zero(p);
  while (!active.empty()) {
    Eigen::MatrixXd a(rows, static_cast<Eigen::Index>(active.size()));
    for (std::size_t k = 0; k < active.size(); ++k) a.col(static_cast<Eigen::Index>(k)) = x.col(active[k]);
    const Eigen::VectorXd solution = a.colPivHouseholderQr().solve(y);
    std::size_t worst = active.size();
    for (std::size_t k = 0; k < active.size(); ++k) {
      if (solution(static_cast<Eigen::Index>(k)) < 0.0 &&
          (worst == active.size() || solution(static_cast<Eigen::Index>(k)) < solution(static_cast<Eigen::Index>(worst)))) {
        worst = k;
      }
    }
    if (worst == active.size()) {
      coefficients.setZero();
      for (std::size_t k = 0; k < active.size(); ++k) coefficients(active[k]) = solution(static_cast<Eigen::Index>(k));
      break;
    }
    active.erase(active.begin() + static_cast<std::ptrdiff_t>(worst));
  }
  for (int c = 0; c < p; ++c) {
    if (given(c) >= 0.0) coefficients(c) = given(c);
  }

  CostModelFit fit;
  for (int c = 0; c < p; ++c) {
    fit.features.emplace_back(first.names[static_cast<std::size_t>(c)]);
    fit.coefficients.push_back(coefficients(c));
  }
  std::vector<double> errors;
  for (const CostSample* s : usable) errors.push_back(relative_error(predict_us(s->model, fit, s->features), s->measured_us));
  fit.median_error = quantile(errors, 0.5);
  fit.p90_error = quantile(errors, 0.9);
  fit.samples = static_cast<int>(usable.size());
  return fit;
}

}  // namespace abfs::detail
