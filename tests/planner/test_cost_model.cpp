// Cost models: least-squares fits recover known coefficients; predictions check feature names.

#include <abfs/error.hpp>

#include "planner/cost_model.hpp"

#include <doctest/doctest.h>

#include <random>
#include <stdexcept>

namespace {

abfs::strategies::CostFeatures features(double vertices, double edges) {
  abfs::strategies::CostFeatures f;
  f.add("run", 1.0);
  f.add("frontier_vertices", vertices);
  f.add("frontier_edges", edges);
  return f;
}

}  // namespace

TEST_CASE("the fit recovers known coefficients from synthetic measurements") {
  const double run = 38.0, per_vertex = 2.5e-4, per_edge = 1.25e-5;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> log_size(0.0, 7.0);
  std::normal_distribution<double> noise(1.0, 0.01);  // 1% multiplicative noise
  std::vector<abfs::detail::CostSample> samples;
  for (int i = 0; i < 500; ++i) {
    const double v = std::pow(10.0, log_size(rng));
    const double e = v * std::pow(10.0, log_size(rng) / 4);
    samples.push_back({"privatized_queue", features(v, e), (run + per_vertex * v + per_edge * e) * noise(rng)});
  }
  const abfs::CostModelFit fit = abfs::detail::fit_cost_model(samples);
  REQUIRE(fit.coefficients.size() == 3);
  CHECK(fit.features == std::vector<std::string>{"run", "frontier_vertices", "frontier_edges"});
  CHECK(fit.coefficients[0] == doctest::Approx(run).epsilon(0.02));
  CHECK(fit.coefficients[1] == doctest::Approx(per_vertex).epsilon(0.05));
  CHECK(fit.coefficients[2] == doctest::Approx(per_edge).epsilon(0.05));
  CHECK(fit.median_error < 0.02);
  CHECK(fit.p90_error < 0.04);
  CHECK(fit.samples == 500);
}

TEST_CASE("the fit keeps coefficients non-negative and zeroes features never seen") {
  std::vector<abfs::detail::CostSample> samples;
  for (int i = 1; i <= 50; ++i) {
    // Time falls slightly with edges: an unconstrained fit would give a negative edge cost.
    samples.push_back({"m", features(i, 0.0), 10.0 + 0.5 * i});
  }
  samples.push_back({"m", features(0, 100.0), 9.0});
  const abfs::CostModelFit fit = abfs::detail::fit_cost_model(samples);
  for (double c : fit.coefficients) CHECK(c >= 0.0);
  std::vector<abfs::detail::CostSample> unseen;
  for (int i = 1; i <= 20; ++i) unseen.push_back({"m", features(i, 0.0), 3.0 + i});
  const abfs::CostModelFit zero = abfs::detail::fit_cost_model(unseen);
  CHECK(zero.coefficients[2] == 0.0);
  CHECK(zero.coefficients[0] == doctest::Approx(3.0).epsilon(0.01));
}

TEST_CASE("a fixed coefficient is kept and the others are fitted to what it leaves") {
  const double run = 38.0, per_vertex = 2.5e-4, per_edge = 1.25e-5;
  std::vector<abfs::detail::CostSample> samples;
  for (int i = 0; i < 200; ++i) {
    const double v = std::pow(10.0, (i % 20) * 0.35);
    const double e = v * std::pow(10.0, (i / 20) * 0.2);
    samples.push_back({"cpu_expand", features(v, e), run + per_vertex * v + per_edge * e});
  }
  // The true value given: the rest comes out exact.
  const abfs::CostModelFit exact = abfs::detail::fit_cost_model(samples, {{"run", run}, {"not_a_feature", 5.0}});
  CHECK(exact.coefficients[0] == run);
  CHECK(exact.coefficients[1] == doctest::Approx(per_vertex).epsilon(1e-6));
  CHECK(exact.coefficients[2] == doctest::Approx(per_edge).epsilon(1e-6));
  CHECK(exact.median_error < 1e-9);
  // A probe's value that differs: kept as given, the others stay non-negative.
  const abfs::CostModelFit probe = abfs::detail::fit_cost_model(samples, {{"run", 120.0}});
  CHECK(probe.coefficients[0] == 120.0);
  CHECK(probe.coefficients[1] >= 0.0);
  CHECK(probe.coefficients[2] >= 0.0);
  CHECK(probe.median_error > 0.1);  // the samples say 38
  CHECK_THROWS_AS(abfs::detail::fit_cost_model(samples, {{"run", -1.0}}), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::detail::fit_cost_model(samples, {{"run", std::nan("")}}), abfs::InvalidArgument);
}

TEST_CASE("fitting rejects unusable samples, and prediction rejects a model with other features") {
  CHECK_THROWS_AS(abfs::detail::fit_cost_model({}), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::detail::fit_cost_model({{"m", features(1, 1), 0.0}}), abfs::InvalidArgument);
  abfs::strategies::CostFeatures other;
  other.add("launches", 1.0);
  CHECK_THROWS_AS(abfs::detail::fit_cost_model({{"m", features(1, 1), 5.0}, {"m", other, 5.0}}), abfs::InvalidArgument);
  abfs::CostModelFit model{{"run", "frontier_vertices", "frontier_edges"}, {10.0, 1.0, 0.5}, 0, 0, 1};
  CHECK(abfs::detail::predict_us("m", model, features(4, 8)) == doctest::Approx(18.0));
  model.features[2] = "edges";
  CHECK_THROWS_WITH_AS(abfs::detail::predict_us("m", model, features(4, 8)), doctest::Contains("feature 2 is 'edges'"),
                       abfs::WisdomError);
}

TEST_CASE("the decision picks the cheaper strategy, conversion costs included") {
  using abfs::detail::DecisionCandidate;
  // gather_pull's level is cheaper, but building its frontier bitmap makes it dearer.
  std::vector<DecisionCandidate> c(2);
  c[0].level_us = 40.0;  // privatized_queue
  c[1].level_us = 30.0;  // gather_pull
  c[1].conversion_us = 15.0;
  c[0].carried_levels = 7;  // tag to recognise the winner after the sort
  abfs::detail::rank_candidates(c.data(), c.data() + c.size());
  CHECK(c[0].carried_levels == 7);
  // Without the conversion (the bitmap is already there) gather_pull wins.
  c[0].conversion_us = 0.0;
  c[1].conversion_us = 0.0;
  abfs::detail::rank_candidates(c.data(), c.data() + c.size());
  CHECK(c[0].level_us == 30.0);
  // A device-driven run that costs more now wins when the levels it carries cost less in it
  // than finishing one by one (the cost to go after cpu_expand); and loses when they do not.
  std::vector<DecisionCandidate> d(2);
  d[0].level_us = 2.0;  // cpu_expand
  d[0].future_us = 100 * 3.0;
  d[1].level_us = 26.0;  // one_block: launch and sync
  d[1].conversion_us = 10.0;
  d[1].carried_levels = 100;
  d[1].carried_us = 100 * 2.2;
  abfs::detail::rank_candidates(d.data(), d.data() + d.size());
  CHECK(d[0].carried_levels == 100);
  d[1].future_us = 100 * 2.3;  // now the carried levels save only 10 us: not worth 34 us
  abfs::detail::rank_candidates(d.data(), d.data() + d.size());
  CHECK(d[0].level_us == 2.0);
}

TEST_CASE("a strategy's features stop at their capacity with an error, not past it") {
  abfs::strategies::CostFeatures f;
  for (int i = 0; i < abfs::strategies::CostFeatures::kMaxFeatures; ++i) f.add("feature", static_cast<double>(i));
  CHECK(f.size == abfs::strategies::CostFeatures::kMaxFeatures);
  CHECK_THROWS_AS(f.add("one too many", 1.0), std::logic_error);
  CHECK(f.size == abfs::strategies::CostFeatures::kMaxFeatures);
  CHECK(f.values.back() == doctest::Approx(abfs::strategies::CostFeatures::kMaxFeatures - 1));
}
