#include "planner/executor.hpp"

#include <abfs/error.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>

namespace abfs::detail {
namespace {

using strategies::FrontierRepresentation;
using strategies::Location;

// The smallest arc count of size class c (arcs_size_class): 0, then 4^c.
EdgeOffset smallest_arcs_of_class(int c) { return c == 0 ? 0 : EdgeOffset{1} << (2 * c); }

// A frontier of one vertex more than warp 0 expands alone (strategies' fits_warp): where a
// one-block level is the block's in every size class (HandbackModel::block_stay).
constexpr VertexId kBlockProbe = strategies::kWarpVertices + 1;

// An affine model of price(vertices, arcs) over size class c of the arcs (arcs_size_class), by
// differences at the class's smallest arc count: every strategy's features, and so its
// prediction with the class's correction, are affine within a class.
template <class Price>
AffineCost affine_in_class(int c, const Price& price, VertexId vertices = 1) {
  const EdgeOffset arcs = smallest_arcs_of_class(c);
  const double base = price(vertices, arcs);
  const double per_vertex = price(vertices + 1, arcs) - base;
  const double per_edge = price(vertices, arcs + 1) - base;
  return AffineCost{static_cast<float>(base - per_vertex * static_cast<double>(vertices) -
                                       per_edge * static_cast<double>(arcs)),
                    static_cast<float>(per_vertex), static_cast<float>(per_edge)};
}

// price(vertices, arcs, discovered)'s cost a discovery over size class c, by difference at the
// class's smallest arc count: the models are linear in their features, discoveries included.
template <class Price>
double per_discovered_in_class(int c, const Price& price) {
  constexpr double kProbe = 1e6;
  const EdgeOffset arcs = smallest_arcs_of_class(c);
  return (price(VertexId{1}, arcs, kProbe) - price(VertexId{1}, arcs, 0.0)) / kProbe;
}

// The lower median of kept[0, count) (count >= 1): of a window of the last measurements, one
// slow outlier does not set it. The executor's learned level-0 extra, level overhead and host
// test times.
template <class T, std::size_t N>
T lower_median(std::array<T, N> kept, std::size_t count) {
  const auto middle = kept.begin() + static_cast<std::ptrdiff_t>((count - 1) / 2);
  std::nth_element(kept.begin(), middle, kept.begin() + static_cast<std::ptrdiff_t>(count));
  return *middle;
}

// The prices a device-driven run handed back by, for the level log's reason.
std::string handback_prices(const HandbackPrice& p) {
  char text[128];
  std::snprintf(text, sizeof text, " (%.1f us off the run < the next level %.1f us then %.1f us)", p.leave_us,
                p.level_us, p.after_us);
  return text;
}

std::uint64_t steady_ns(std::chrono::steady_clock::time_point t) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

}  // namespace

Executor::Executor(const Graph& graph, const PlanOptions& options, bool use_device)
    : options_(options), buffers_(graph, use_device, options.flags == PlanFlags::Exhaustive) {
  using Clock = std::chrono::steady_clock;
  auto since = Clock::now();
  auto mark = [&](const char* phase) {  // construction_ms_: the members' share is the caller's
    const auto now = Clock::now();
    construction_ms_.emplace_back(phase, std::chrono::duration<double, std::milli>(now - since).count());
    since = now;
  };
  stats_ = compute_stats(graph);
  mark("statistics");
  for (const auto& entry : strategies::registry()) {
    if (entry.needs_device && !use_device) continue;
    strategies_.push_back(entry.create());
    strategies_.back()->prepare(buffers_);
  }
  mark("strategies prepared");
  host_strategy_ = find("cpu_expand");
  block_strategy_ = find("one_block");
  dp_strategy_ = find("dynamic_parallel");
  push_strategy_ = find("privatized_queue");
  pull_strategy_ = find("gather_pull");
  if (pull_strategy_ != nullptr) {
    in_lists_ = InListScans(graph.directed() ? graph.reverse_csr() : graph.csr());
    mark("in-list lengths");
  }
  auto require = [&](const std::string& name) {
    strategies::Strategy* s = find(name);
    if (s != nullptr) return s;
    for (const auto& entry : strategies::registry()) {
      if (name == entry.name) {
        throw InvalidArgument("strategy '" + name + "' needs a CUDA device, and this plan has none");
      }
    }
    std::string known;
    for (const auto& entry : strategies::registry()) known += std::string(known.empty() ? "" : ", ") + entry.name;
    throw InvalidArgument("unknown strategy '" + name + "' (known: auto, " + known + ")");
  };
  if (options.strategy != "auto") forced_ = require(options.strategy);
  for (const auto& name : options.schedule) schedule_.push_back(require(name));
  if (use_device) {
    start_ = std::make_unique<Event>();
    stop_ = std::make_unique<Event>();
  }
}

strategies::Strategy* Executor::find(const std::string& name) const {
  for (const auto& s : strategies_) {
    if (name == s->name()) return s.get();
  }
  return nullptr;
}

std::vector<std::string> Executor::strategy_names() const {
  std::vector<std::string> names;
  for (const auto& s : strategies_) names.emplace_back(s->name());
  return names;
}

void Executor::set_models(std::shared_ptr<const ModelSet> models, std::string why) {
  models_ = std::move(models);
  if (models_ != nullptr && host_strategy_ != nullptr) {
    // Waking the OpenMP team and a parallel region's fixed cost are priced at this host's, not
    // the calibrating host's: the wakes differed 60-fold on hosts of the same kind
    // (detail::team_wake_us, detail::parallel_region_us).
    const auto host = models_->models.find(host_strategy_->name());
    if (host != models_->models.end()) {
      const auto& features = host->second.features;
      auto local = std::make_shared<ModelSet>(*models_);
      auto& coefficients = local->models[host_strategy_->name()].coefficients;
      const std::pair<const char*, double (*)()> probes[] = {{"team_wake", team_wake_us},
                                                             {"parallel_level", parallel_region_us}};
      for (const auto& [feature, probe] : probes) {
        const auto at = std::find(features.begin(), features.end(), feature);
        if (at != features.end()) coefficients[static_cast<std::size_t>(at - features.begin())] = probe();
      }
      models_ = std::move(local);
    }
  }
  decision_source_ = std::move(why);
  strategy_models_.assign(strategies_.size(), Resolved{});
  to_device_model_ = to_host_model_ = to_bitmap_model_ = Resolved{};
  if (models_ != nullptr) {
    // Resolve each model once, checking its feature names against what the code computes.
    auto resolve = [&](const std::string& name, const strategies::CostFeatures& sample) {
      Resolved r;
      const auto it = models_->models.find(name);
      if (it == models_->models.end()) return r;
      (void)predict_us(name, it->second, sample);  // throws WisdomError on a feature mismatch
      r.fit = &it->second;
      const auto factor = models_->scale.find(name);
      if (factor != models_->scale.end()) r.scale = factor->second;
      return r;
    };
    strategies::FrontierState probe;
    for (std::size_t i = 0; i < strategies_.size(); ++i) {
      strategy_models_[i] = resolve(strategies_[i]->name(), strategies_[i]->cost_features(probe, stats_));
    }
    to_device_model_ = resolve(kToDevice, to_device_features(0, false));
    to_host_model_ = resolve(kToHost, to_host_features(0, 0));
    to_bitmap_model_ = resolve(kToBitmap, to_bitmap_features(0, 0));
  }
  corrections_.assign(strategies_.size() + 1, Correction{});  // + the upload (upload_slot())
  first_level_seen_ = 0;
  first_level_extra_us_ = 0.0;
  ahead_level_seen_ = 0;
  ahead_level_extra_us_ = 0.0;
  first_level_skip_ = true;
  decided_overheads_seen_ = 0;
  decided_overhead_us_ = -1.0;
  host_tests_seen_ = {};
  past_first_bfs_ = warmed_;
  first_level_idle_.assign(strategies_.size(), kExploreAfter);
  bfs_since_explored_ = kExploreAfter;
  first_choices_.clear();  // made with other models
  observations_.clear();
  learn_warm_uploads();
  learn_sampled_block_levels();
  prepare_lookaheads();
}

void Executor::learn_sampled_block_levels() {
  if (models_ == nullptr || !options_.online_correction || block_strategy_ == nullptr) return;
  for (strategies::Strategy* s : {block_strategy_, dp_strategy_}) {
    if (s == nullptr || model_of(s).fit == nullptr) continue;
    for (const SampledLevel& l : sampled_block_levels_) {
      strategies::FrontierState state;  // a one-block level the run carried, its bitmap there
      state.location = Location::Device;
      state.continues_run = true;
      state.frontier_vertices = l.frontier_vertices;
      state.frontier_edges = l.frontier_edges;
      state.discovered_vertices = l.discovered;
      observe(s, l.frontier_edges, kCarried, predict(model_of(s), s->cost_features(state, stats_)), l.us);
    }
  }
  if (!observations_.empty()) fold_observations(true);
}

int Executor::size_class(EdgeOffset size, int group) {
  static_assert(kSizeClasses == kHandbackClasses, "the device prices by the correction's classes");
  return group * kSizeClasses + arcs_size_class(size);
}

std::size_t Executor::correction_slot(const strategies::Strategy* s) const {
  for (std::size_t i = 0; i < strategies_.size(); ++i) {
    if (strategies_[i].get() == s) return i;
  }
  return corrections_.size();
}

double Executor::correction_at(std::size_t slot, EdgeOffset size, int group) const {
  if (slot >= corrections_.size()) return 1.0;
  return class_factor(slot, static_cast<std::size_t>(size_class(size, group)));
}

double Executor::class_factor(std::size_t slot, std::size_t k) const {
  const Correction& c = corrections_[slot];
  if (c.known[k]) return c.factor[k];
  if (k >= kClasses) return 1.0;  // a group's fallback, not learned yet
  const int group = static_cast<int>(k / kSizeClasses);
  // A group this slot has not run yet is priced as its plain levels (below), so that it is
  // tried once and learns its own factor. Until 2026-11-25 a strategy's first level after an
  // upload was priced by a factor pooled over the strategies that had run one: privatized_queue's
  // 2-2.6x on uniform:1048576:8 priced dynamic_parallel's start there at 3.3x (104-112 us, 55
  // in the oracle), which was never tried. Without the pool, 3 rounds x 16 sources interleaved
  // (ms, medians of the rounds; H100): uniform:1048576:8 0.327 -> 0.307, soc-Slashdot0902
  // 0.185 -> 0.143, ca-AstroPh-lcc 0.152 -> 0.135, email-Enron 0.157 -> 0.136,
  // uk-2007-05@100000 0.145 -> 0.147, kron:22 0.443 -> 0.451, cnr-2000 0.682 -> 0.705.
  const std::size_t fallback = kClasses + static_cast<std::size_t>(group);
  const double group_factor = c.known[fallback] ? c.factor[fallback] : 1.0;
  // A level after a move or a run costs at least what the same size class costs as a plain
  // level: uk-2007-05@100000's bottom-up level 4 (1.57 M arcs), priced 30 us, took 454 as a
  // plain level and, once its plain class had learned 8x, 380 again in a later BFS right after
  // a run handed back, priced by the after-run group's fallback (H100, 2026-11-24).
  if ((group == kAfterMove || group == kAfterRun) && slot < strategies_.size()) {
    const std::size_t plain = kPlain * kSizeClasses + k % kSizeClasses;
    if (c.known[plain]) return std::max(group_factor, c.factor[plain]);
  }
  // A level launched ahead costs its plain level less the launch it did not wait for: until its
  // class has learned a factor, the same size's plain one prices it (its price before the group
  // was), not the group's fallback, which levels of other sizes set.
  if (group == kFromGate) {
    const std::size_t plain = kPlain * kSizeClasses + k % kSizeClasses;
    if (c.known[plain]) return c.factor[plain];
  }
  return group_factor;
}

void Executor::observe_at(std::size_t slot, EdgeOffset size, int group, double corrected_us, double measured_us) {
  if (!options_.online_correction || slot >= corrections_.size() || corrected_us <= 0.0 || measured_us <= 0.0) return;
  const double uncorrected = corrected_us / correction_at(slot, size, group);
  observations_.push_back({static_cast<std::uint16_t>(slot), static_cast<std::uint16_t>(size_class(size, group)),
                           static_cast<float>(measured_us), static_cast<float>(uncorrected)});
}

void Executor::note_surprise(std::size_t slot, double predicted_us, double measured_us) {
  if (!options_.online_correction || slot >= surprise_.size() || !(predicted_us > 0.0)) return;
  double& factor = surprise_[slot];
  if (measured_us > kSurpriseRatio * predicted_us && measured_us - predicted_us > kSurpriseUs) {
    factor = std::min(factor * measured_us / predicted_us, kSurpriseCap);
  } else if (factor > 1.0 && measured_us < predicted_us) {
    factor = std::max(1.0, factor * measured_us / predicted_us);
  }
}

void Executor::learn_first_level(double extra_us, bool ahead) {
  if (!options_.online_correction || models_ == nullptr) return;
  if (first_level_skip_) {  // a plan's first BFS: its level 0 took 5-10x the next ones' (ca-AstroPh-lcc)
    first_level_skip_ = false;
    return;
  }
  auto& extras = ahead ? ahead_level_extras_ : first_level_extras_;
  std::size_t& seen = ahead ? ahead_level_seen_ : first_level_seen_;
  extras[seen++ % kFirstLevelWindow] = extra_us;
  // The lower median: one slow BFS does not set it.
  (ahead ? ahead_level_extra_us_ : first_level_extra_us_) = lower_median(extras, std::min(seen, kFirstLevelWindow));
}

void Executor::learn_warm_uploads() {
  // warm_strategies' BFS, run before the models were set, moved the frontier to the device at
  // its first level and after its host levels. Without these, a plan's first BFS priced its
  // uploads by the calibration's model alone: 13.5 us and more for a few vertices where they
  // took 3.5-7 (soc-Slashdot0902, uk-2007-05@100000, wave; H100, 2026-11-24).
  if (models_ == nullptr || to_device_model_.fit == nullptr || !options_.online_correction) return;
  for (const WarmUpload& u : warm_uploads_) {
    observe_at(upload_slot(), u.vertices, upload_group(u.first, u.level), predict_upload_us(u.vertices, u.first, u.level),
               u.us);
  }
  fold_observations(true);
}

void Executor::learn_corrections() {
  if (!past_first_bfs_) {
    // An executor's first BFS pays one-time costs later ones do not: pages and caches touched
    // first, and before kernels were loaded at prepare(), their loading (soc-Slashdot0902's
    // levels took 2-6x the next BFSs'); a class it priced out was never run, so never
    // corrected, again. So it teaches nothing, unless a BFS ran before the models were set
    // (set_models): a plan's sampled BFS has warmed the executor, and its first BFS with the
    // models then took 0.9-1.2x the median of the next five on nine suite graphs (other
    // sources, so loosely; H100, 2026-11-22).
    past_first_bfs_ = true;
    observations_.clear();
    return;
  }
  const bool overhead_moved = learn_level_overhead();
  if (observations_.empty()) {
    if (overhead_moved) prepare_lookaheads();
    return;
  }
  fold_observations();
  prepare_lookaheads();
}

bool Executor::learn_level_overhead() {
  if (!options_.online_correction || models_ == nullptr || forced_ != nullptr || !schedule_.empty() || warming_ ||
      level_overheads_.size() < 2) {
    return false;
  }
  for (std::size_t k = 1; k < level_overheads_.size(); ++k) {  // [0]: level 0 (learn_first_level)
    decided_overheads_[decided_overheads_seen_++ % kOverheadWindow] = std::max(0.0, level_overheads_[k]);
  }
  std::array<double, kOverheadWindow + kOverheadPrior> kept{};
  std::copy(decided_overheads_.begin(), decided_overheads_.end(), kept.begin());
  std::size_t count = std::min(decided_overheads_seen_, kOverheadWindow);
  for (; count < kOverheadPrior; ++count) kept[count] = models_->level_overhead_us;
  const double before = level_overhead_us();
  decided_overhead_us_ = lower_median(kept, count);
  return decided_overhead_us_ != before;
}

void Executor::fold_observations(bool deliberate) {
  // Ratio of sums, not a median of ratios: the decisions add levels up, and the slow levels of
  // a class weigh in a total as they do in the BFS. Observations more than 4x off the class's
  // lower median ratio (a page fault, a descheduled thread) are left out: one of them would
  // set the class's factor alone.
  // A BFS's first level may be corrected further: its extra cost is a fixed one, the executor's
  // first decision and the level's data cold in the host's caches after the previous BFS.
  // cpu_expand's level 0 of uniform:8388608:8 took 13.8-15.4 us where its model, ~1 us, had
  // reached the 8x limit at 7.7; with 32x it was priced 14.4-18.9. But its noise is one-sided
  // and a BFS has one such level: a slow first one (the first BFS after planning, or after other
  // work) priced ca-AstroPh-lcc's next level 0 at 10.4 us where it took 3.1 (H100,
  // 2026-11-24). So the first factor learned is held to 8x (a rise, from two BFSs: below), and
  // later ones move the factor up a quarter of the way and down half of it.
  constexpr double kLimit = 2.0794415416798357;            // log(8)
  constexpr double kFirstLevelLimit = 3.4657359027997265;  // log(32)
  // A class's factor moves towards the median of itself and its last two BFSs' ratios
  // (correction_target; the ratio itself at its first fold). With rises so confirmed (`abfs
  // compare`, 4 sources x 3 rounds, one build switched, means): adaptive / oracle on
  // ca-AstroPh-lcc 1.04 -> 0.99, email-Enron 1.05 -> 1.01, soc-Slashdot0902 1.18 -> 1.14,
  // uniform:1048576:8 1.13 -> 1.12, wave 1.01 -> 1.01 (H100, 2026-11-26).
  auto fold = [&](std::size_t slot, std::size_t k, double measured, double predicted, std::size_t levels) {
    if (measured <= 0.0 || predicted <= 0.0) return;
    Correction& c = corrections_[slot];
    const double observed = std::log(measured / predicted);
    const double current = std::log(class_factor(slot, k));
    const std::size_t group = k < kClasses ? k / kSizeClasses : k - kClasses;
    // Level 0 (one a BFS) has its own limits and steps below, and learns from its first BFS; a
    // group's fallback waits for a second one (fold_levels). But a first fold that would raise
    // level 0's factor waits for a second BFS as well, which the unraised price lets run: one
    // cold level 0 (the process's first BFS) had set cpu_expand's to 8x on rome99 (a host level
    // 0 of 3 arcs priced 14.8 us, which takes 1-2), one_block's run (23.6 us, then 96) was chosen
    // over the host's (then 114) at every later level 0, and the host's level 0 never ran again
    // to unlearn it: 0.128 ms a BFS, where the processes whose first host level 0 was not slow
    // kept the host's route at 0.097-0.103 (four processes of 16 sources; H100, 2026-11-27).
    // So does a class of levels priced under kFallbackMinUs a level (host levels of a few arcs),
    // whose fixed costs a cold BFS inflates the most: `abfs compare`'s warm-up BFS priced
    // rome99's carried host levels of 4-15 arcs at ~5x their model (0.71-0.94 us where they take
    // 0.15-0.29) for the next BFSs, as the median of the class's last ratios kept the cold one
    // until two warm BFSs outvoted it (H100, 2026-11-27).
    const bool small =
        k < kClasses && predicted < kFallbackMinUs * static_cast<double>(std::max<std::size_t>(levels, 1));
    const bool held = (group == kFirstLevel || small) && !c.folded[k] && observed > current;
    const double ratio =
        held ? current
             : correction_target(current, observed, c.last_log_ratio[k], c.folded[k],
                                 fold_levels(group == kFirstLevel, k >= kClasses, levels));
    c.last_log_ratio[k] = observed;
    c.folded[k] = true;
    if (ratio == current && !c.known[k]) return;  // the class goes on at its fallback
    if (group == kFirstLevel && c.known[k]) {  // the upload slot has no such group
      const double step = ratio > c.log_factor[k] ? 0.25 : 0.5;
      c.log_factor[k] = std::clamp(c.log_factor[k] + step * (ratio - c.log_factor[k]), -kFirstLevelLimit,
                                   kFirstLevelLimit);
    } else {
      c.log_factor[k] = std::clamp(c.known[k] ? 0.5 * (c.log_factor[k] + ratio) : ratio, -kLimit, kLimit);
    }
    c.factor[k] = std::exp(c.log_factor[k]);
    c.known[k] = true;
  };
  std::sort(observations_.begin(), observations_.end(), [](const Observation& a, const Observation& b) {
    if (a.slot != b.slot) return a.slot < b.slot;
    if (a.cls != b.cls) return a.cls < b.cls;
    return a.measured_us * b.predicted_us < b.measured_us * a.predicted_us;  // by ratio
  });
  for (std::size_t at = 0; at < observations_.size();) {
    const std::uint16_t slot = observations_[at].slot;
    std::array<double, kGroups> group_measured{}, group_predicted{};  // for the groups' fallbacks
    std::array<std::size_t, kGroups> group_levels{};
    while (at < observations_.size() && observations_[at].slot == slot) {
      const std::uint16_t cls = observations_[at].cls;
      std::size_t last = at;
      while (last < observations_.size() && observations_[last].slot == slot && observations_[last].cls == cls) ++last;
      // The lower median (sorted by ratio within the class): of two observations, the smaller
      // ratio, so that a slow outlier cannot be the yardstick that keeps itself in.
      const Observation& mid = observations_[at + (last - at - 1) / 2];
      const double median = mid.measured_us / mid.predicted_us;
      double measured = 0.0, predicted = 0.0;
      const std::size_t levels = deliberate ? kFreeFoldLevels : last - at;
      const std::size_t group = cls / kSizeClasses;
      for (; at < last; ++at) {
        const double ratio = observations_[at].measured_us / observations_[at].predicted_us;
        if (ratio > 4.0 * median || ratio < 0.25 * median) continue;
        measured += observations_[at].measured_us;
        predicted += observations_[at].predicted_us;
        // The fallback prices the group's larger classes too: a level priced under
        // kFallbackMinUs is mostly a level's fixed cost (a host run's stay test and clock),
        // whose error does not scale with the level. cnr-2000's host runs of levels of 3-5
        // arcs took 0.3-1.6 us priced 0.07-0.7, and their 3-13x, as the fallback, priced a
        // host level of 157 arcs at 10.6-19.1 us where it takes 2 (H100, 2026-11-27).
        if (observations_[at].predicted_us >= kFallbackMinUs) {
          group_measured[group] += observations_[at].measured_us;
          group_predicted[group] += observations_[at].predicted_us;
          ++group_levels[group];
        }
      }
      fold(slot, cls, measured, predicted, levels);
    }
    for (std::size_t g = 0; g < kGroups; ++g) {
      fold(slot, kClasses + g, group_measured[g], group_predicted[g], group_levels[g]);
    }
  }
  observations_.clear();
}

const Executor::Resolved& Executor::model_of(const strategies::Strategy* s) const {
  static const Resolved none;
  for (std::size_t i = 0; i < strategies_.size() && i < strategy_models_.size(); ++i) {
    if (strategies_[i].get() == s) return strategy_models_[i];
  }
  return none;
}

std::vector<std::size_t> distinct_profiles(const std::vector<VertexId>& reaches) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < reaches.size(); ++i) {
    const bool seen =
        std::any_of(kept.begin(), kept.end(), [&](std::size_t k) { return similar_reach(reaches[k], reaches[i]); });
    if (!seen) kept.push_back(i);
  }
  std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) { return reaches[a] < reaches[b]; });
  return kept;
}

double correction_target(double current, double observed, double previous, bool folded, std::size_t levels) {
  if (!folded) return levels >= kFreeFoldLevels || (levels > 0 && observed < current) ? observed : current;
  return std::max(std::min(current, observed), std::min(std::max(current, observed), previous));
}

std::size_t profile_for(const std::vector<VertexId>& reaches, VertexId visited) {
  const auto at = std::lower_bound(reaches.begin(), reaches.end(), visited);
  return reaches.empty() ? 0 : std::min(static_cast<std::size_t>(at - reaches.begin()), reaches.size() - 1);
}

ProfileLevels profile_levels(std::vector<LevelShape> levels, const GraphStats& stats) {
  ProfileLevels p;
  p.levels = std::move(levels);
  if (!p.levels.empty()) {
    // One level of one vertex past the sampled BFS's last: a BFS from another source that
    // reaches the profile's end has a non-empty frontier, whose next level is unknown but
    // most often not empty. Priced as the BFS's last, the end of kron:22's BFSs ran two
    // privatized_queue levels (32 and 19 us) where one_block's run took 21 and 2 (H100,
    // 2026-11-24); if no level follows, the run's start costs ~2 us more than the cheapest.
    LevelShape next = p.levels.back();
    next.frontier_vertices = 1;
    next.frontier_edges = std::max<EdgeOffset>(1, static_cast<EdgeOffset>(std::lround(stats.mean_out_degree)));
    p.levels.push_back(next);
  }
  VertexId visited = 0;
  EdgeOffset expanded = 0;
  for (const LevelShape& l : p.levels) {
    p.visited.push_back(visited += l.frontier_vertices);
    expanded += l.frontier_edges;
    p.unexplored.push_back(stats.num_edges - std::min(stats.num_edges, expanded));
  }
  return p;
}

Executor::Profile Executor::make_profile(std::vector<LevelShape> levels) const {
  Profile p;
  p.reach = profile_reach(levels);
  ProfileLevels shaped = profile_levels(std::move(levels), stats_);
  p.levels = std::move(shaped.levels);
  p.visited = std::move(shaped.visited);
  p.unexplored = std::move(shaped.unexplored);
  auto narrower = [](const LevelShape& a, const LevelShape& b) { return a.frontier_vertices < b.frontier_vertices; };
  const auto widest = std::max_element(p.levels.begin(), p.levels.end(), narrower);
  p.tail_from = static_cast<std::size_t>(widest - p.levels.begin()) + 1;
  p.tail_min = tail_minima(p.levels, p.tail_from);
  p.stop_level = reach_stop_level(p.reach, p.levels.size());
  return p;
}

std::size_t Executor::reach_stop_level(VertexId reach, std::size_t levels) const {
  const bool stops = levels >= 2 && std::any_of(reach_sets_.begin(), reach_sets_.end(),
                                                [&](const ReachSet& r) { return r.vertices == reach; });
  // The sampled BFS's last level (levels - 2, before the assumed one) is its last frontier;
  // level 0 always runs.
  return stops ? std::max<std::size_t>(1, levels - 2) : levels;
}

void Executor::stop_profiles_at_reach_sets() {
  const ProfileScope scope(*this);
  for (std::size_t k = 0; k < profiles_.size(); ++k) {
    const Profile& p = k == active_profile_ ? profile_ : profiles_[k];
    const std::size_t stop = reach_stop_level(p.reach, p.levels.size());
    if (stop == p.stop_level) continue;
    use_profile(k);
    profile_.stop_level = stop;
    prepare_lookahead();
  }
}

std::size_t Executor::profile_levels_run(std::size_t k) const {
  const Profile& p = k == active_profile_ ? profile_ : profiles_.at(k);
  return std::min(p.stop_level, p.levels.size());
}

void Executor::set_level_profiles(const std::vector<std::vector<LevelShape>>& profiles,
                                  const std::vector<VertexId>& sources) {
  std::vector<VertexId> reaches;
  for (const auto& levels : profiles) reaches.push_back(profile_reach(levels));
  profile_ = Profile{};
  profiles_.clear();
  profile_reaches_.clear();
  sampled_sources_.clear();
  component_profiles_.clear();
  first_choices_.clear();  // decided with the profiles these replace (first_choice_slot)
  for (std::size_t k : distinct_profiles(reaches)) {
    profiles_.push_back(make_profile(profiles[k]));
    profile_reaches_.push_back(reaches[k]);
    sampled_sources_.push_back(k < sources.size() ? sources[k] : kNoVertex);
  }
  if (profiles_.empty()) {  // no profile: an empty one
    profiles_.emplace_back();
    profile_reaches_.push_back(0);
    sampled_sources_.push_back(kNoVertex);
  }
  if (!components_.empty()) key_sampled_profiles();
  stats_.sampled_levels = profiles_.back().levels;  // shown: the largest
  active_profile_ = 0;
  std::swap(profile_, profiles_[0]);
  matched_ = {};
  prepare_lookaheads();
}

void Executor::key_sampled_profiles() {
  for (std::size_t k = 0; k < sampled_sources_.size(); ++k) {
    if (sampled_sources_[k] != kNoVertex) component_profiles_.emplace_back(components_[sampled_sources_[k]], k);
  }
}

std::size_t Executor::component_profile(VertexId source) const {
  if (components_.empty()) return profiles_.size();
  const VertexId c = components_[source];
  for (const auto& [component, k] : component_profiles_) {
    if (component == c) return k;
  }
  return profiles_.size();
}

void Executor::learn_profile(VertexId source, const BfsResult& result) {
  if (!options_.online_correction || models_ == nullptr || forced_ != nullptr || !schedule_.empty() || warming_) return;
  const VertexId reach = result.vertices_reached;
  if (reach < kMinLearnedReach || components_unavailable_ || result.levels.empty()) return;
  if (component_profile(source) < profiles_.size()) return;  // known (components_ is set)
  const auto sampled = std::find_if(profile_reaches_.begin(), profile_reaches_.end(),
                                    [&](VertexId r) { return similar_reach(r, reach); });
  if (sampled != profile_reaches_.end()) {
    // The sampled profile of that reach goes on pricing it. Where the BFS started with a smaller
    // one and outgrew it, its component is keyed to that profile, so that its later BFSs look
    // ahead with it from level 0: every BFS of email-Enron's giant component (33,696 of 36,692
    // vertices) decided its level 0 by the BFS of a 2-level component (the smallest sampled:
    // "then 0.1 us" to go after it), kept cpu_expand there and moved to the giant's profile at
    // level 1 or 2 (H100, 2026-11-27).
    const bool outgrew = std::any_of(profile_switches_.begin(), profile_switches_.end(),
                                     [](const ProfileSwitch& p) { return p.from != kNoVertex; });
    if (!outgrew || !know_components() || component_profile(source) < profiles_.size()) return;
    component_profiles_.emplace_back(components_[source], static_cast<std::size_t>(sampled - profile_reaches_.begin()));
    return;
  }
  if (profiles_.size() >= profile_reaches_.size() + kMaxLearnedProfiles) return;
  if (!know_components() || component_profile(source) < profiles_.size()) return;  // a sampled source's component
  const Graph& graph = buffers_.graph();
  std::vector<LevelShape> shape;
  shape.reserve(result.levels.size());
  for (const LevelRecord& l : result.levels) shape.push_back({l.frontier_vertices, l.frontier_edges});
  strategies::add_pull_warp_steps(graph, result.distances, shape);  // and pull_scanned_edges
  const std::size_t k = profiles_.size();
  profiles_.push_back(make_profile(std::move(shape)));
  component_profiles_.emplace_back(components_[source], k);
  const ProfileScope scope(*this);
  use_profile(k);
  prepare_lookahead();
}

bool Executor::know_components() {
  if (!components_.empty()) return true;
  if (components_unavailable_ || buffers_.graph().num_edges() > kMaxComponentArcs) {
    components_unavailable_ = true;
    return false;
  }
  components_ = strongly_connected_components(buffers_.graph());
  component_bounds_ = component_reach_bounds(buffers_.graph(), components_);
  key_sampled_profiles();
  return true;
}

std::size_t Executor::start_profile(VertexId source) const {
  const std::size_t own = component_profile(source);
  if (own < profiles_.size()) return own;
  if (component_bounds_.vertices.empty()) return 0;
  const VertexId bound = reach_bound(source);
  for (std::size_t k = profile_reaches_.size(); k-- > 0;) {
    if (k < profiles_.size() && similar_reach(profile_reaches_[k], bound)) return k;
  }
  return 0;
}

void Executor::use_profile(std::size_t k) noexcept {
  if (k == active_profile_ || k >= profiles_.size()) return;
  std::swap(profile_, profiles_[active_profile_]);  // back to its slot
  std::swap(profile_, profiles_[k]);
  active_profile_ = k;
  matched_ = {};
}

void Executor::prepare_lookaheads() {
  if (profiles_.size() <= 1) {
    prepare_lookahead();
    return;
  }
  for (std::size_t k = 0; k < profiles_.size(); ++k) {
    use_profile(k);
    prepare_lookahead();
  }
  use_profile(0);  // as between BFSs (execute_levels)
}

void Executor::add_profile_features(strategies::FrontierState& state, std::size_t profile_level,
                                    VertexId visited) const {
  if (profile_level >= profile_.levels.size()) return;
  const LevelShape& shape = profile_.levels[profile_level];
  const PullScans scans = profile_pull_scans(shape, state.frontier_edges, state.unexplored_edges, stats_,
                                             in_lists_.empty() ? nullptr : &in_lists_,
                                             profile_.unexplored[profile_level]);
  state.pull_scanned_edges = scans.scanned_edges;
  state.pull_warp_steps = scans.warp_steps;
  state.discovered_vertices = profile_discovered(profile_.levels, profile_.visited, profile_level, visited,
                                                 state.frontier_edges, state.unvisited_vertices);
}

PullScans profile_pull_scans(const LevelShape& shape, EdgeOffset frontier_edges, EdgeOffset unexplored_edges,
                             const GraphStats& stats, const InListScans* in_lists,
                             EdgeOffset sampled_unexplored_edges) {
  // A scan stops at the first in-arc from the frontier, so it runs ~min(1, |V| / frontier arcs)
  // of an in-list of the mean length (gather_pull's estimate without a profile). kron:22 from a
  // source whose level 2 had 101 vertices and 367,791 arcs (the profile's: 190,989 and 89
  // million) took 573 us bottom-up, 114 predicted from the profile's scans unscaled (H100,
  // 2026-11-24).
  const auto n = static_cast<double>(stats.num_vertices);
  auto run_share = [n](double arcs) { return arcs > 0.0 ? std::min(1.0, n / arcs) : 1.0; };
  const double longer =
      run_share(static_cast<double>(frontier_edges)) / run_share(static_cast<double>(shape.frontier_edges));
  // By the in-lists' lengths instead: on kron:22 most in-lists are far shorter than the mean
  // (30.6 arcs) and a few far longer. A frontier of 1,008 vertices and 3.8 million arcs matched
  // to the profile's level of 32 vertices and 97,225 arcs (every list scanned whole, 92.9
  // million arcs) scans 19.6 million, where the mean list's share (1 for both) kept 92.9 million.
  // And over the unvisited vertices' lists, the shortest: a frontier of 495,366 vertices and
  // 110 million arcs matched to the profile's level of 2 million (63.5 million arcs, 0.44
  // million left unexplored, 0.32 million scanned) scans 2.07 million of its 16.8 million
  // unexplored arcs; by all lists, 0.23. Over 8 sources' levels (exact scans replayed on the
  // host, gather_pull's fitted terms), the price of the scans and steps was off by 59% at the
  // 90th percentile and 289% at most on kron:22, 20 and 29% by every list's lengths, 10 and 25%
  // by the shortest; kron:24 9 / 144% -> 5 / 27% -> 3 / 11%; kron:20 21 / 90% -> 13 / 26% ->
  // 13 / 22%; the nine graphs of ../shared/data, uniform:1048576:8 and uniform:8388608:8 within
  // a point (2026-11-28).
  double scale = longer;
  if (in_lists != nullptr && stats.num_edges > 0) {
    const auto m = static_cast<double>(stats.num_edges);
    const double p_sampled = static_cast<double>(shape.frontier_edges) / m;
    const double p = static_cast<double>(frontier_edges) / m;
    double sampled = in_lists->shortest(static_cast<double>(sampled_unexplored_edges), p_sampled);
    double now = in_lists->shortest(static_cast<double>(unexplored_edges), p);
    if (!(sampled > 0.0)) {  // nothing left unexplored at the sampled level: every list
      sampled = in_lists->scans(p_sampled);
      now = in_lists->scans(p);
    }
    if (sampled > 0.0) scale = now / sampled;
  }
  const auto scanned = static_cast<double>(shape.pull_scanned_edges);
  const auto steps = static_cast<double>(shape.pull_warp_steps);
  PullScans scans{scanned * scale, steps};
  if (scale > 1.0) {  // at most every unexplored arc
    scans.scanned_edges = std::max(scanned, std::min(scans.scanned_edges, static_cast<double>(unexplored_edges)));
  }
  if (longer > 1.0) {  // every list walked to its end at most
    scans.warp_steps = std::max(steps, std::min(steps * longer, static_cast<double>(shape.pull_warp_steps_full)));
  }
  return scans;
}

double profile_discovered_per_arc(const std::vector<LevelShape>& levels, std::size_t level) {
  if (level >= levels.size() || levels[level].frontier_edges == 0) return 0.0;
  const double next = level + 1 < levels.size() ? static_cast<double>(levels[level + 1].frontier_vertices) : 0.0;
  return next / static_cast<double>(levels[level].frontier_edges);
}

double profile_discovered(const std::vector<LevelShape>& levels, const std::vector<VertexId>& profile_visited,
                          std::size_t level, VertexId visited, EdgeOffset frontier_edges,
                          VertexId unvisited_vertices) {
  if (level >= levels.size()) return 0.0;
  const double at = profile_discovered_per_arc(levels, level);
  const double per_arc =
      level == 0 || level >= profile_visited.size()
          ? at
          : interpolate_per_arc(static_cast<double>(visited), static_cast<double>(profile_visited[level - 1]),
                                profile_discovered_per_arc(levels, level - 1),
                                static_cast<double>(profile_visited[level]), at);
  return std::min(static_cast<double>(unvisited_vertices), per_arc * static_cast<double>(frontier_edges));
}

std::size_t matched_profile_level(const std::vector<VertexId>& profile_visited, VertexId visited) {
  // The sampled level that had discovered as many vertices: levels of BFSs from different
  // sources line up by progress, not by number.
  const auto at = std::lower_bound(profile_visited.begin(), profile_visited.end(), visited);
  std::size_t level = profile_visited.empty() ? 0
                                              : std::min(static_cast<std::size_t>(at - profile_visited.begin()),
                                                         profile_visited.size() - 1);
  if (level > 0 && nearer_below(visited, profile_visited[level - 1], profile_visited[level])) --level;
  return level;
}

std::size_t frontier_matched_level(const std::vector<LevelShape>& levels, std::size_t widest, VertexId frontier,
                                   std::size_t from) {
  if (levels.empty()) return from;
  widest = std::min(widest, levels.size() - 1);
  std::size_t level = from;
  while (level < widest && levels[level].frontier_vertices < frontier) ++level;
  if (level > from && nearer_below(frontier, levels[level - 1].frontier_vertices, levels[level].frontier_vertices)) {
    --level;
  }
  return level;
}

std::size_t Executor::matching_profile_level(VertexId visited) const {
  // A level asks twice (its state, its decision).
  if (visited == matched_.visited) return matched_.level;
  const std::size_t level = matched_profile_level(profile_.visited, visited);
  matched_ = {visited, level};
  return level;
}

std::size_t Executor::matching_profile_level(VertexId visited, VertexId frontier) const {
  const std::size_t level = matching_profile_level(visited);
  if (level + 1 < profile_.visited.size() || profile_.tail_min.empty() || frontier == 0) return level;
  return std::min(level, profile_.tail_from + shrunk_to(profile_.tail_min, frontier));
}

std::vector<VertexId> tail_minima(const std::vector<LevelShape>& levels, std::size_t from) {
  std::vector<VertexId> minima;
  for (std::size_t l = from; l < levels.size(); ++l) {
    minima.push_back(std::min(levels[l].frontier_vertices, minima.empty() ? ~VertexId{0} : minima.back()));
  }
  return minima;
}

std::size_t shrunk_to(const std::vector<VertexId>& tail_min, VertexId frontier) {
  if (tail_min.empty()) return 0;
  const auto at = std::lower_bound(tail_min.begin(), tail_min.end(), frontier, std::greater<VertexId>());
  return std::min(static_cast<std::size_t>(at - tail_min.begin()), tail_min.size() - 1);
}

std::vector<strategies::FrontierState> Executor::profile_states() const {
  std::vector<strategies::FrontierState> states;
  VertexId visited = 0;
  EdgeOffset expanded = 0;
  for (std::size_t level = 0; level < profile_.levels.size(); ++level) {
    strategies::FrontierState state;
    state.level = static_cast<int>(level);
    state.frontier_vertices = profile_.levels[level].frontier_vertices;
    state.frontier_edges = profile_.levels[level].frontier_edges;
    visited += state.frontier_vertices;
    state.unvisited_vertices = stats_.num_vertices - std::min(visited, stats_.num_vertices);
    state.unexplored_edges = stats_.num_edges - std::min(stats_.num_edges, expanded + state.frontier_edges);
    expanded += state.frontier_edges;
    state.location = Location::Device;
    add_profile_features(state, level, visited);
    states.push_back(state);
  }
  return states;
}

strategies::FrontierState Executor::continued_state(int level, const DeviceLevelRecord& d,
                                                    const DeviceLevelRecord& previous, VertexId visited,
                                                    EdgeOffset expanded, Location location) const {
  const VertexId n = buffers_.num_vertices();
  const EdgeOffset m = buffers_.graph().num_edges();
  strategies::FrontierState state;
  state.level = level;
  state.frontier_vertices = d.frontier_vertices;
  state.frontier_edges = d.frontier_edges;
  state.unvisited_vertices = n - std::min(n, visited);
  state.unexplored_edges = m - std::min(m, expanded + static_cast<EdgeOffset>(d.frontier_edges));
  state.location = location;
  state.continues_run = true;
  state.grid_level = location == Location::Device && d.kernel != 0;
  state.after_grid_level = location == Location::Device && previous.kernel != 0;
  add_profile_features(state, matching_profile_level(visited), visited);
  return state;
}

Executor::Place Executor::place_of(const Placement& placement, int level) {
  if (placement.location == Location::Host) return placement.synced_end[1] == 0 ? Place::HostFresh : Place::Host;
  return placement.bitmap_level == level ? Place::DeviceBitmap : Place::DeviceQueue;
}

Executor::Place Executor::place_after(const strategies::Strategy& s, Place from) {
  const strategies::FrontierIo io = s.frontier_io();
  if (io.produces_at == Location::Host) return from == Place::HostFresh ? Place::HostFresh : Place::Host;
  return io.produces == FrontierRepresentation::Bitmap ? Place::DeviceBitmap : Place::DeviceQueue;
}

Executor::Conversions Executor::conversions(Place from, const strategies::FrontierState& state,
                                            VertexId upload_vertices) const {
  Conversions c;
  if (location_of(from) == Location::Host) {
    c.upload_us = predict_upload_us(upload_vertices, from == Place::HostFresh, state.level);
  } else {
    c.to_host_us = predict(to_host_model_, to_host_features(buffers_.visited_words, state.frontier_vertices));
  }
  if (from != Place::DeviceBitmap) {
    c.to_bitmap_us = predict(to_bitmap_model_, to_bitmap_features(buffers_.visited_words, state.frontier_vertices));
  }
  return c;
}

double Executor::conversion_us(const strategies::Strategy& s, Place from, const Conversions& c) {
  const strategies::FrontierIo io = s.frontier_io();
  double us = 0.0;
  if (io.consumes_at != location_of(from)) us += io.consumes_at == Location::Device ? c.upload_us : c.to_host_us;
  if (io.consumes == FrontierRepresentation::Bitmap && from != Place::DeviceBitmap) us += c.to_bitmap_us;
  return us;
}

double Executor::predict_level_us(std::size_t slot, const strategies::CostFeatures& f, EdgeOffset frontier_edges,
                                  int group) const {
  return std::max(0.0, (strategy_models_[slot].predict(f) + models_->level_overhead_us) *
                               correction_at(slot, frontier_edges, group) +
                           level_overhead_excess_us());
}

double RunLookahead::to_go(std::size_t level) const {
  if (level >= end.size()) return 0.0;
  const std::size_t stop = end[level];
  return prefix[stop] - prefix[level] + (stop + 1 < end.size() ? stop_us(stop) : 0.0);
}

double Executor::loop_exit_us(const strategies::Strategy& s, double exits, double vertices) const {
  const Resolved& model = model_of(&s);
  if (model.fit == nullptr || !(exits > 0.0)) return 0.0;
  strategies::FrontierState state;
  state.location = Location::Device;
  const double without = model.predict(s.cost_features(state, stats_));
  state.loop_exits = exits;
  state.loop_exit_vertices = vertices;
  return model.predict(s.cost_features(state, stats_)) - without;
}

void Executor::prepare_lookahead() {
  profile_.value.clear();
  profile_.value_host.clear();
  profile_.host_leave.clear();
  profile_.host_upload.clear();
  profile_.host_keep.clear();
  profile_.host_leave_host.clear();
  profile_.host_keep_host.clear();
  profile_.fits_block.clear();
  profile_.grid_from.clear();
  for (RunLookahead* run : {&profile_.block_run, &profile_.dp_run}) *run = RunLookahead{};
  const bool host_model = model_of(host_strategy_).fit != nullptr;
  for (int c = 0; c < kHandbackClasses; ++c) {
    // Affine in the frontier without its discoveries (none: no unvisited vertex), which are
    // priced apart, by difference at the class's smallest arc count.
    auto carried_us = [&](VertexId v, EdgeOffset e, double discovered = 0.0) {
      strategies::FrontierState state;
      state.frontier_vertices = v;
      state.frontier_edges = e;
      state.discovered_vertices = discovered;
      state.continues_run = true;
      return predict_carried_us(*host_strategy_, host_strategy_->cost_features(state, stats_), e);
    };
    host_carried_[static_cast<std::size_t>(c)] =
        !host_model ? AffineCost{std::numeric_limits<float>::infinity(), 0.0f, 0.0f}
                    : affine_in_class(c, [&](VertexId v, EdgeOffset e) { return carried_us(v, e); });
    host_carried_per_discovered_[static_cast<std::size_t>(c)] =
        !host_model ? 0.0 : per_discovered_in_class(c, carried_us);
  }
  if (models_ == nullptr || profile_.levels.empty()) {
    upload_handback();
    return;
  }
  const std::vector<strategies::FrontierState> states = profile_states();
  const std::size_t levels = states.size();
  for (RunLookahead* run : {&profile_.block_run, &profile_.dp_run}) {
    run->first_handback = levels;
    run->prefix.assign(levels + 1, 0.0);
    run->end.assign(levels + 1, levels);
    run->leave.assign(levels + 1, 0.0);
    run->leave_host.assign(levels + 1, 0.0);
    run->exit.assign(levels + 1, 0.0);
  }
  // The loop's exit, affine in the frontier it stops before (the models are linear).
  double block_exit[2] = {0.0, 0.0}, dp_exit[2] = {0.0, 0.0};  // {fixed, per vertex}
  if (block_strategy_ != nullptr) {
    block_exit[0] = loop_exit_us(*block_strategy_, 1.0, 0.0);
    block_exit[1] = loop_exit_us(*block_strategy_, 1.0, 1.0) - block_exit[0];
  }
  if (dp_strategy_ != nullptr) {
    dp_exit[0] = loop_exit_us(*dp_strategy_, 1.0, 0.0);
    dp_exit[1] = loop_exit_us(*dp_strategy_, 1.0, 1.0) - dp_exit[0];
  }
  std::vector<bool>& fits_block = profile_.fits_block;
  fits_block.assign(levels, false);
  for (std::size_t i = 0; i < levels; ++i) {
    const strategies::FrontierState& state = states[i];
    strategies::FrontierState continued = state;
    continued.continues_run = true;
    fits_block[i] = block_strategy_ != nullptr && block_strategy_->applicable(state);
    // A run that reaches a level past the reach stop has ended there (DeviceStop::AllReached):
    // the level costs it nothing, nor its loop's exit.
    if (i >= profile_.stop_level) {
      profile_.block_run.prefix[i + 1] = profile_.block_run.prefix[i];
      profile_.dp_run.prefix[i + 1] = profile_.dp_run.prefix[i];
      continue;
    }
    double block_us = 0.0, dp_us = 0.0;
    if (fits_block[i]) {
      block_us = predict_carried_us(*block_strategy_, block_strategy_->cost_features(continued, stats_),
                                    state.frontier_edges);
    }
    if (dp_strategy_ != nullptr) {
      continued.grid_level = !fits_block[i];
      continued.after_grid_level = i > 0 && !fits_block[i - 1];  // a run's level before this one
      dp_us = predict_carried_us(*dp_strategy_, dp_strategy_->cost_features(continued, stats_), state.frontier_edges,
                                 carried_group(continued.grid_level, state.frontier_vertices, state.frontier_edges));
      // dynamic_parallel's one-block levels are one_block's loop in a graph node, and cost no
      // less: forced on luxembourg_osm, 2.90 ms a BFS against one_block's 2.70. Corrected apart,
      // their prices came within 1-2% of each other over luxembourg_osm's middle levels, and the
      // plan ran them in dynamic_parallel at 2.85 / 3.36 us a level where one_block takes
      // 2.40 / 3.01 (H100, 2026-11-24).
      if (fits_block[i]) dp_us = std::max(dp_us, block_us);
    }
    if (state.frontier_vertices > 0) {
      const auto vertices = static_cast<double>(state.frontier_vertices);
      profile_.block_run.exit[i] = block_exit[0] + block_exit[1] * vertices;
      if (i > 0 && fits_block[i - 1]) {
        profile_.dp_run.exit[i] = dp_exit[0] + dp_exit[1] * vertices;
        if (!fits_block[i]) dp_us += profile_.dp_run.exit[i];  // the loop passes this frontier to a grid level
      }
    }
    profile_.block_run.prefix[i + 1] = profile_.block_run.prefix[i] + block_us;
    profile_.dp_run.prefix[i + 1] = profile_.dp_run.prefix[i] + dp_us;
  }
  // The cost to go, backwards over the profile (Bellman): the cheapest way to finish from each
  // level and place, every applicable strategy with its conversion from there. A run of
  // one_block or dynamic_parallel reaching a level carries it only if that, and going on at its
  // best, is cheaper than the planner's other choices there (leave); else it hands back, as the
  // device decides from the same numbers (upload_handback).
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  profile_.value.assign(levels + 1, PlaceCosts{});
  profile_.value_host.assign(levels + 1, PlaceCosts{});
  profile_.host_leave.assign(levels, {kInfinity, kInfinity});
  profile_.host_upload.assign(levels, {0.0, 0.0});
  profile_.host_keep.assign(levels, {kInfinity, kInfinity});
  profile_.host_leave_host.assign(levels, {0.0, 0.0});
  profile_.host_keep_host.assign(levels, {0.0, 0.0});
  // The cheaper way and its host levels' part (host_pace_excess).
  auto take = [](double& best, double& best_host, double us, double us_host) {
    if (us < best) {
      best = us;
      best_host = us_host;
    }
  };
  for (std::size_t i = levels; i-- > 0;) {
    const strategies::FrontierState& state = states[i];
    PlaceCosts& here = profile_.value[i];
    PlaceCosts& here_host = profile_.value_host[i];  // the host levels' part of the cheapest way
    here.fill(kInfinity);
    here_host.fill(0.0);
    double leave_block = kInfinity, leave_dp = kInfinity;
    double leave_block_host = 0.0, leave_dp_host = 0.0;
    std::array<double, 2> leave_host{kInfinity, kInfinity};  // from HostFresh, Host
    std::array<double, 2> leave_host_host{0.0, 0.0};
    std::array<Conversions, kPlaces> converted;
    for (std::size_t p = 0; p < kPlaces; ++p) {
      // An upload moves every visit the device has not seen (the executor's end - synced).
      // Before the BFS used the device that is every vertex visited so far; after a download it
      // is those visited since, which the profile does not know: all visited bounds it. Pricing
      // only the frontier made a detour over the device cheap: luxembourg_osm's plan ran
      // gather_pull at level 0 and went back to the host for 1,000 levels (~75 us lost a BFS,
      // H100, 2026-11-22), because a later upload from there looked cheaper than the first.
      const auto from = static_cast<Place>(p);
      converted[p] = conversions(from, state, stats_.num_vertices - state.unvisited_vertices);
    }
    for (std::size_t k = 0; k < strategies_.size(); ++k) {
      const strategies::Strategy& s = *strategies_[k];
      const Resolved& model = strategy_models_[k];
      if (model.fit == nullptr || !s.applicable(state)) continue;
      // The profile's states are on the device; cpu_expand prices a level from the host apart
      // (its caches are cold after a download: cost_features).
      const strategies::CostFeatures features = s.cost_features(state, stats_);
      strategies::FrontierState on_host = state;
      on_host.location = Location::Host;
      const strategies::CostFeatures host_features = &s == host_strategy_ ? s.cost_features(on_host, stats_) : features;
      for (std::size_t p = 0; p < kPlaces; ++p) {
        const auto from = static_cast<Place>(p);
        const strategies::CostFeatures& f = location_of(from) == Location::Host ? host_features : features;
        // cpu_expand after a host level goes on in a host run (run_on_host): no executor overhead.
        const bool host_run = &s == host_strategy_ && location_of(from) == Location::Host && state.level > 0;
        // A bottom-up level after a bottom-up one runs from the gate that level armed (launch_ahead).
        const bool gated = &s == pull_strategy_ && from == Place::DeviceBitmap && state.level > 0 && schedule_.empty();
        const int group = gated ? kFromGate : level_group(s, location_of(from), state.level);
        const double level_us = host_run ? predict_carried_us(s, f, state.frontier_edges)
                                         : predict_level_us(k, f, correction_size(s, state), group);
        const double after = future_us(s, from, i + 1, nullptr, nullptr);
        const double total = level_us + conversion_us(s, from, converted[p]) + after;
        const double after_host = future_host_us(s, from, i + 1, false);
        const bool on_host = &s == host_strategy_;
        const double host_us = (on_host ? level_us : 0.0) + after_host;
        take(here[p], here_host[p], total, host_us);
        if (from == Place::DeviceQueue) {
          // Where a run stops, the next device level is priced as one after a run (kAfterRun).
          const int stop_group = level_group(s, Location::Device, state.level, true);
          const double stop_level_us =
              stop_group == group ? level_us : predict_level_us(k, features, correction_size(s, state), stop_group);
          const double leave = stop_group == group ? total : total - level_us + stop_level_us;
          const double leave_host_us = (on_host ? stop_level_us : 0.0) + after_host;
          if (&s != block_strategy_) take(leave_block, leave_block_host, leave, leave_host_us);
          if (&s != dp_strategy_) take(leave_dp, leave_dp_host, leave, leave_host_us);
        }
        if (location_of(from) == Location::Host) {
          const std::size_t h = from == Place::HostFresh ? 0 : 1;
          if (on_host) {
            take(profile_.host_keep[i][h], profile_.host_keep_host[i][h], total, host_us);
          } else {
            take(leave_host[h], leave_host_host[h], total, host_us);
          }
        }
      }
    }
    for (std::size_t p = 0; p < kPlaces; ++p) {
      if (!std::isfinite(here[p])) here[p] = here_host[p] = 0.0;
    }
    if (i >= profile_.stop_level) {
      // Past the reach stop a BFS from the reach set has ended: nothing to go for the level
      // before. A BFS that runs it all the same (from outside the set) is priced as at the
      // profile's end: its host and device ways on from there (host_leave, a run's leave, the
      // hand-back table's) are those of a last level.
      here.fill(0.0);
      here_host.fill(0.0);
    }
    // Where a run reaching level i stops. A level one_block cannot take ends its run.
    auto run_end = [&](RunLookahead& run, double leave, double leave_host_us, bool can_carry) {
      run.leave[i] = std::isfinite(leave) ? leave : (can_carry ? kInfinity : 0.0);
      run.leave_host[i] = std::isfinite(leave) ? leave_host_us : 0.0;
      const double stay = run.prefix[i + 1] - run.prefix[i] + run.to_go(i + 1);
      run.end[i] = can_carry && !(run.stop_us(i) < stay) ? run.end[i + 1] : i;
      if (can_carry && run.end[i] == i) run.first_handback = i;  // the loop runs backwards
    };
    // Past the reach stop a run has ended, whatever would fit its loop there.
    run_end(profile_.block_run, leave_block, leave_block_host, fits_block[i] || i >= profile_.stop_level);
    run_end(profile_.dp_run, leave_dp, leave_dp_host, dp_strategy_ != nullptr);
    profile_.host_leave[i] = leave_host;
    profile_.host_leave_host[i] = leave_host_host;
    profile_.host_upload[i] = {converted[static_cast<std::size_t>(Place::HostFresh)].upload_us,
                               converted[static_cast<std::size_t>(Place::Host)].upload_us};
  }
  profile_.grid_from.assign(levels + 1, levels);
  for (std::size_t i = levels; i-- > 0;) profile_.grid_from[i] = fits_block[i] ? profile_.grid_from[i + 1] : i;
  upload_handback();
}

void Executor::upload_handback() {
  const bool use = buffers_.has_device() && models_ != nullptr && !profile_.value.empty();
  constexpr float kNever = std::numeric_limits<float>::infinity();
  const std::size_t levels = use ? profile_.value.size() - 1 : 0;
  auto state_of = [&](VertexId vertices, EdgeOffset arcs, bool grid, double discovered = 0.0) {
    // Affine in the frontier without its discoveries, which the decision adds from the profile
    // (HandbackModel::per_discovered, HandbackLevel::discovered_per_arc).
    strategies::FrontierState state;
    state.frontier_vertices = vertices;
    state.frontier_edges = arcs;
    state.discovered_vertices = discovered;
    state.location = Location::Device;
    state.continues_run = true;
    state.grid_level = grid;
    return state;
  };
  // The host's level after a hand-back, the same for both runs, and its price a discovery (by
  // difference, as the runs' per_discovered below).
  std::array<AffineCost, kHandbackClasses> host_costs{};
  std::array<float, kHandbackClasses> host_per_discovered{};
  const std::size_t host_slot = correction_slot(host_strategy_);
  const bool host_model = model_of(host_strategy_).fit != nullptr;
  for (int c = 0; use && c < kHandbackClasses; ++c) {
    auto host_us = [&](VertexId v, EdgeOffset e, double discovered = 0.0) {
      const strategies::FrontierState state = state_of(v, e, false, discovered);
      return predict_level_us(host_slot, host_strategy_->cost_features(state, stats_), e, kPlain) +
             conversion_us(*host_strategy_, Place::DeviceQueue, conversions(Place::DeviceQueue, state, 0));
    };
    host_costs[static_cast<std::size_t>(c)] =
        !host_model ? AffineCost{kNever, 0.0f, 0.0f}
                    : affine_in_class(c, [&](VertexId v, EdgeOffset e) { return host_us(v, e); });
    host_per_discovered[static_cast<std::size_t>(c)] =
        !host_model ? 0.0f : static_cast<float>(per_discovered_in_class(c, host_us));
  }
  for (HandbackBuffers* h : {&profile_.block_handback, &profile_.dp_handback}) {
    const bool dp = h == &profile_.dp_handback;
    strategies::Strategy* s = dp ? dp_strategy_ : block_strategy_;
    const RunLookahead& run = dp ? profile_.dp_run : profile_.block_run;
    h->table = HandbackTable{};
    if (!use || s == nullptr || model_of(s).fit == nullptr) continue;
    HandbackModel& m = h->model_host;
    // By HandbackModel::stay's kernels: the one-block loop, a grid level, one of a lane a vertex.
    constexpr std::array<int, 3> kStayGroups{kCarried, kCarriedGrid, kCarriedGridGathered};
    for (int c = 0; c < kHandbackClasses; ++c) {
      // A level's price of its discoveries, and a one-block level's of the loop's relaunch after
      // a grid level (block_relaunch), by differences at the class's smallest arc count (every
      // model is linear in its features, the correction a factor per class).
      const EdgeOffset arcs = smallest_arcs_of_class(c);
      for (std::size_t kernel = 0; kernel < kStayGroups.size(); ++kernel) {
        const bool grid = kernel != 0;
        auto carried_us = [&](VertexId v, EdgeOffset e, double discovered = 0.0) {
          return predict_carried_us(*s, s->cost_features(state_of(v, e, grid, discovered), stats_), e,
                                    kStayGroups[kernel]);
        };
        const bool never = !dp && grid;
        m.stay[kernel][c] = never ? AffineCost{kNever, 0.0f, 0.0f} : affine_in_class(c, carried_us);
        m.per_discovered[kernel][c] = never ? 0.0f : static_cast<float>(per_discovered_in_class(c, carried_us));
      }
      m.host[c] = host_costs[static_cast<std::size_t>(c)];
      m.host_per_discovered[c] = host_per_discovered[static_cast<std::size_t>(c)];
      auto block_us = [&](const strategies::FrontierState& state) {
        return predict_carried_us(*s, s->cost_features(state, stats_), arcs, kCarried);
      };
      strategies::FrontierState relaunched = state_of(1, arcs, false);
      relaunched.after_grid_level = true;
      m.block_relaunch[c] = dp ? static_cast<float>(block_us(relaunched) - block_us(state_of(1, arcs, false))) : 0.0f;
      // stay[0] prices classes 0-3 at levels warp 0 expands alone (from one vertex); the
      // block's, from one vertex more than the warp takes.
      m.block_stay[c] = affine_in_class(
          c, [&](VertexId v, EdgeOffset e) { return block_us(state_of(v, e, false)); }, kBlockProbe);
    }
    h->levels_host.resize(levels);
    for (std::size_t k = 0; k < levels; ++k) {
      // Leaving before a level the one-block loop decides on (one that fits it) pays the loop's
      // exit either way; a grid level's decision comes after the loop's exit, or with none.
      const double exit = !dp || profile_.fits_block[k] ? run.exit[k] : 0.0;
      h->levels_host[k] = HandbackLevel{
          profile_.visited[k], static_cast<float>(run.to_go(k + 1)), static_cast<float>(run.leave[k] + exit),
          static_cast<float>(profile_.value[k + 1][static_cast<std::size_t>(Place::Host)] + exit),
          static_cast<float>(profile_discovered_per_arc(profile_.levels, k))};
    }
    if (h->model.size() != 1) h->model = DeviceBuffer<HandbackModel>(1);
    if (h->levels.size() != levels) h->levels = DeviceBuffer<HandbackLevel>(levels);
    // From pageable memory: each call returns once its source is staged, so the host copies may
    // change after it; stream order puts the tables before the next run.
    const cudaStream_t stream = buffers_.stream();
    ABFS_CUDA_CHECK(cudaMemcpyAsync(h->model.data(), &m, sizeof m, cudaMemcpyHostToDevice, stream));
    ABFS_CUDA_CHECK(cudaMemcpyAsync(h->levels.data(), h->levels_host.data(), levels * sizeof(HandbackLevel),
                                    cudaMemcpyHostToDevice, stream));
    // Priced from two profile levels before the lookahead's first hand-back on (a run the
    // executor starts: before its own stop, execute_levels).
    const unsigned int price_from = price_from_before(run.first_handback);
    // A larger profile waiting: a run that outgrows this one stops for the planner to use it.
    const unsigned int outgrown_at =
        by_reach() && active_profile_ + 1 < profile_reaches_.size() && levels > 0 ? profile_.visited.back() : ~0u;
    h->table = HandbackTable{h->model.data(), h->levels.data(), static_cast<unsigned int>(levels), price_from,
                             outgrown_at};
  }
}

unsigned int Executor::price_from_before(std::size_t stop) const {
  const std::size_t levels = profile_.value.empty() ? 0 : profile_.value.size() - 1;
  return stop >= levels ? std::numeric_limits<unsigned int>::max() : stop < 2 ? 0u : profile_.visited[stop - 2];
}

double Executor::future_us(const strategies::Strategy& s, Place from, std::size_t next, std::size_t* carried_levels,
                           double* carried_us, bool stop_at_next) const {
  const std::size_t levels = profile_.value.empty() ? 0 : profile_.value.size() - 1;
  if (next >= levels) return 0.0;
  const RunLookahead* run = run_lookahead(s);
  if (run == nullptr) {
    if (carried_levels != nullptr) *carried_levels = 0;
    if (carried_us != nullptr) *carried_us = 0.0;
    return profile_.value[next][static_cast<std::size_t>(place_after(s, from))];
  }
  if (stop_at_next) {
    if (carried_levels != nullptr) *carried_levels = 0;
    if (carried_us != nullptr) *carried_us = 0.0;
    return run->stop_us(next);
  }
  const std::size_t stop = run->end[next];
  if (carried_levels != nullptr) *carried_levels = stop - next;
  if (carried_us != nullptr) *carried_us = run->prefix[stop] - run->prefix[next];
  return run->to_go(next);
}

double Executor::future_host_us(const strategies::Strategy& s, Place from, std::size_t next, bool stop_at_next) const {
  const std::size_t levels = profile_.value.empty() ? 0 : profile_.value.size() - 1;
  if (next >= levels) return 0.0;
  const RunLookahead* run = run_lookahead(s);
  if (run == nullptr) return profile_.value_host[next][static_cast<std::size_t>(place_after(s, from))];
  return stop_at_next ? run->leave_host[next] : run->to_go_host(next);
}

double Executor::host_future_us(std::size_t next, Place at, VertexId upload_vertices, int level,
                                double pace_excess) const {
  const std::size_t levels = profile_.value.empty() ? 0 : profile_.value.size() - 1;
  if (next >= levels || next >= profile_.stop_level) return 0.0;
  const std::size_t h = at == Place::HostFresh ? 0 : 1;
  const double best = host_cost_to_go(profile_.host_keep[next][h] + pace_excess * profile_.host_keep_host[next][h],
                                      profile_.host_leave[next][h] + pace_excess * profile_.host_leave_host[next][h],
                                      profile_.host_upload[next][h],
                                      predict_upload_us(upload_vertices, at == Place::HostFresh, level));
  return std::isfinite(best) ? best : paced_value_us(next, static_cast<std::size_t>(at), pace_excess);
}

double Executor::host_pace_excess() const {
  if (host_strategy_ == nullptr) return 0.0;
  const double excess = surprise_at(correction_slot(host_strategy_)) * host_pace_.future_factor() - 1.0;
  return std::abs(excess) > kPaceIgnored ? excess : 0.0;
}

bool Executor::next_outgrows_block(const strategies::FrontierState& state, std::size_t next) const {
  // uk-2007-05@100000 and soc-Slashdot0902 started one-block runs at level 0 priced to carry
  // levels 1-2 as their samples' had, and the runs handed over after one level (a level 1 of
  // 102 vertices and 16,058 arcs, where another source's had 10 and 1,490): 6 BFSs of 8 on
  // each graph, 10 and 24 us a BFS over the oracle's host level 0. With this test, interleaved
  // A/B of 3 x 16 sources: soc-Slashdot0902's levels 0-1 32.0 -> 21.3 us and BFS mean 166 ->
  // 157 us, ca-AstroPh-lcc 196 -> 179, uk-2007-05@100000 235 -> 204; kron:22, email-Enron,
  // luxembourg_osm within 2%, cnr-2000 and uniform:1048576:8 +3-11% on the same decisions as
  // before (run-to-run drift; H100, 2026-11-24).
  if (block_strategy_ == nullptr || next >= profile_.levels.size() || next >= profile_.stop_level ||
      state.discovered_vertices < 0.0) {
    return false;  // (past the reach stop: no next level to outgrow the loop)
  }
  const LevelShape& shape = profile_.levels[next];
  if (shape.frontier_vertices == 0) return false;
  strategies::FrontierState sample;
  sample.level = state.level + 1;
  sample.frontier_vertices = shape.frontier_vertices;
  sample.frontier_edges = shape.frontier_edges;
  sample.location = Location::Device;
  if (!block_strategy_->applicable(sample)) return false;  // the lookahead stops the run there already
  // At level 0 the next frontier is known exactly (the source's neighbours): uk-2007-05@100000's
  // level 1 of 80 vertices and 8,289 arcs, estimated at the sample's arcs per vertex to fit the
  // loop's 8,192, made one_block's run at level 0 look able to carry it in 6 BFSs of 8, ~20 us
  // a BFS over the oracle's host level (H100, 2026-11-24).
  LevelShape estimate;
  if (state.level == 0) estimate = source_next_frontier(buffers_.graph(), level_zero_source_, kSourceNextMaxArcs);
  if (estimate.frontier_vertices == 0) {
    estimate = estimated_next_frontier(shape, state.discovered_vertices, stats_.num_vertices);
  }
  strategies::FrontierState guess = sample;
  guess.frontier_vertices = estimate.frontier_vertices;
  guess.frontier_edges = estimate.frontier_edges;
  return !block_strategy_->applicable(guess);
}

LevelShape source_next_frontier(const Graph& graph, VertexId source, EdgeOffset max_arcs) {
  LevelShape next;
  const Csr& csr = graph.csr();
  const EdgeOffset first = csr.row_offsets[source];
  const EdgeOffset stop = csr.row_offsets[source + 1];
  if (stop - first > max_arcs) return next;
  for (EdgeOffset e = first; e < stop; ++e) {
    const VertexId v = csr.column_indices[e];
    if (v == source) continue;
    ++next.frontier_vertices;
    next.frontier_edges += graph.out_degree(v);
  }
  return next;
}

LevelShape estimated_next_frontier(const LevelShape& next, double discovered_vertices, VertexId num_vertices) {
  LevelShape estimate;
  if (next.frontier_vertices == 0 || !(discovered_vertices > 0.0)) return estimate;
  const double vertices = std::min(std::ceil(discovered_vertices), static_cast<double>(num_vertices));
  estimate.frontier_vertices = static_cast<VertexId>(vertices);
  estimate.frontier_edges = static_cast<EdgeOffset>(
      std::ceil(vertices * static_cast<double>(next.frontier_edges) / static_cast<double>(next.frontier_vertices)));
  return estimate;
}

strategies::FrontierState Executor::frontier_state(int level, VertexId frontier_vertices, VertexId visited,
                                                   EdgeOffset frontier_edges, EdgeOffset edges_out_of_reached,
                                                   const Placement& placement, bool profile) const {
  strategies::FrontierState state;
  state.level = level;
  state.frontier_vertices = frontier_vertices;
  state.frontier_edges = frontier_edges;
  state.unvisited_vertices = buffers_.num_vertices() - visited;
  state.unexplored_edges = buffers_.graph().num_edges() - edges_out_of_reached - frontier_edges;
  state.representation =
      placement.bitmap_level == level ? FrontierRepresentation::Bitmap : FrontierRepresentation::Queue;
  state.location = placement.location;
  if (profile) add_profile_features(state, matching_profile_level(visited, frontier_vertices), visited);
  return state;
}

double Executor::predict_conversion_us(const strategies::Strategy& s, const strategies::FrontierState& state,
                                       const Placement& placement, VertexId end) const {
  const Place from = place_of(placement, state.level);
  return conversion_us(s, from, conversions(from, state, end - placement.synced_end[1]));
}

double Executor::predict_upload_us(VertexId vertices, bool first, int level) const {
  return predict(to_device_model_, to_device_features(vertices, first)) *
         correction_at(upload_slot(), vertices, upload_group(first, level));
}

Executor::Choice Executor::choose(const strategies::FrontierState& state, const Placement& placement) const {
  strategies::Strategy* wanted = forced_;
  std::string why = "forced";
  if (!schedule_.empty()) {
    const std::size_t k = static_cast<std::size_t>(state.level) % schedule_.size();
    wanted = schedule_[k];
    why = "schedule[" + std::to_string(k) + "]";
  }
  const VertexId end = placement.synced(placement.location);
  if (wanted != nullptr && wanted->applicable(state)) {
    Choice choice{wanted, why};
    return choice;
  }
  if (wanted == nullptr && models_ != nullptr && !host_runs_) {
    // With host runs on, a host level after a host level comes here only when the run before it
    // failed this very test, so it would only be repeated.
    Choice choice;
    if (continue_on_host(state, placement, choice)) return choice;
  }
  Choice choice = models_ != nullptr ? choose_by_model(state, placement, end) : choose_by_rule(state);
  if (wanted != nullptr) {
    if (choice.deferred_reason) choice.reason = format_reason(choice.model_reason);
    choice.deferred_reason = false;
    choice.reason = std::string(wanted->name()) + " not applicable (frontier " +
                    std::to_string(state.frontier_vertices) + " vertices, " + std::to_string(state.frontier_edges) +
                    " arcs); " + choice.reason;
  }
  return choice;
}

bool Executor::continue_on_host(const strategies::FrontierState& state, const Placement& placement,
                                Choice& choice) const {
  // A host level after a host level: the frontier stays with cpu_expand while its predicted
  // level and the cost to go after it do not exceed the sampled profile's best way off the host
  // at the matching level (profile_.host_leave), as a device-driven run decides whether to hand back.
  // The lookahead's recursion for the host place is the same comparison, so this is the full
  // decision with the other strategies priced at the profile's frontier instead of this one:
  // one strategy priced instead of five (~1 us a level on the H100's host, 2026-11-22).
  if (placement.location != Location::Host || state.level == 0 || profile_.host_leave.empty()) return false;
  if (model_of(host_strategy_).fit == nullptr) return false;
  const std::size_t at = matching_profile_level(stats_.num_vertices - state.unvisited_vertices);
  // Where the profile is of another shape, the full decision prices by persistence.
  if (persistence_levels(state, matching_profile_level(stats_.num_vertices - state.unvisited_vertices,
                                                       state.frontier_vertices) + 1) > 0) {
    return false;
  }
  const HostStay price = price_host_stay(state.frontier_vertices, state.frontier_edges,
                                         strategies::expected_discovered(state, stats_), at,
                                         place_of(placement, state.level) == Place::HostFresh);
  if (!price.stay()) return false;
  choice.strategy = host_strategy_;
  choice.predicted_us = price.level_us;
  choice.priced = true;
  choice.deferred_reason = true;
  choice.model_reason.name[0] = host_strategy_->name();
  choice.model_reason.us[0] = price.level_us;
  choice.model_reason.future_us[0] = price.after_us;
  choice.model_reason.us[1] = price.leave_us;
  choice.model_reason.host_run = true;
  return true;
}

Executor::HostStay Executor::price_host_stay(VertexId frontier_vertices, EdgeOffset frontier_edges, double discovered,
                                             std::size_t at, bool fresh) const {
  HostStay price;
  price.level_us = host_carried_us(frontier_vertices, frontier_edges, discovered) *
                   surprise_at(correction_slot(host_strategy_)) * host_pace();
  const std::size_t levels = profile_.value.size() - 1;
  const std::size_t k = fresh ? 0 : 1;  // Place::HostFresh, Place::Host
  const double excess = host_pace_excess();
  price.after_us = at + 1 < levels ? paced_value_us(at + 1, k, excess) : 0.0;
  price.leave_us = profile_.host_leave[at][k] + excess * profile_.host_leave_host[at][k] +
                   host_leave_shift_[k][static_cast<std::size_t>(arcs_size_class(frontier_edges))];
  return price;
}

void Executor::shift_host_leave(const Choice& choice, VertexId frontier_vertices, EdgeOffset frontier_edges,
                                double discovered, std::size_t at, bool fresh) {
  if (!std::isfinite(choice.stay_margin_us) || at >= profile_.host_leave.size()) return;
  double& shift = host_leave_shift_[fresh ? 0 : 1][static_cast<std::size_t>(arcs_size_class(frontier_edges))];
  shift = 0.0;
  const HostStay unshifted = price_host_stay(frontier_vertices, frontier_edges, discovered, at, fresh);
  const double margin = unshifted.leave_us - unshifted.level_us - unshifted.after_us;
  shift = std::isfinite(margin) ? choice.stay_margin_us - margin : 0.0;
}

strategies::LevelOutcome Executor::run_on_host(strategies::LevelContext& context, bool decide, bool fresh,
                                               std::chrono::steady_clock::time_point level_start) {
  strategies::Strategy& host = *host_strategy_;
  const strategies::LevelOutcome first = host.run(context);
  const VertexId reach_limit = buffers_.reach_limit();
  if (first.next_frontier_vertices == 0 || context.frontier_end + first.next_frontier_vertices >= reach_limit) {
    return first;
  }
  std::uint64_t last_ns = steady_ns(std::chrono::steady_clock::now());
  host_run_levels_.clear();
  host_run_levels_.push_back({context.frontier_end - context.frontier_begin, 0u, context.frontier_edges,
                              steady_ns(level_start), last_ns});
  host_run_tests_.clear();
  VertexId begin = context.frontier_end;
  VertexId end = begin + first.next_frontier_vertices;
  EdgeOffset edges = first.next_frontier_edges;
  EdgeOffset examined = first.edges_examined;
  int level = context.level + 1;
  std::size_t at = decide ? matching_profile_level(end) : 0;
  std::size_t last_profile_level = profile_.visited.empty() ? 0 : profile_.visited.size() - 1;
  const char* stop = nullptr;
  double discovered = 0.0;  // the level's expected discoveries (the profile's), for its stay test
  double discovered_per_arc = 0.0;  // at the last match: the level's discoveries for its pace
  const std::size_t slot = correction_slot(&host);
  auto match_profile = [&] {  // at and discovered for the frontier [begin, end)
    while (at < last_profile_level && profile_.visited[at] < end) ++at;  // matching_profile_level
    if (at > 0 && nearer_below(end, profile_.visited[at - 1], profile_.visited[at])) --at;
    discovered = profile_discovered(profile_.levels, profile_.visited, at, end, edges, stats_.num_vertices - end);
    discovered_per_arc = edges > 0 ? discovered / static_cast<double>(edges) : 0.0;
  };
  // A stay test passed by a wide margin (kStaySkipMargin times the level's price) is not repeated
  // for the next kStaySkipLevels levels while their frontiers have at most twice its arcs (the
  // price is affine in them) and no level surprised. rome99's host levels of 2-11 arcs took
  // 0.16-0.35 us where cpu_expand's level costs ~0.03 (cpu_serial_level_us): the test and its
  // surprise check were ~0.13 us a level, 6 us of a 50 us BFS that forced cpu_expand ran in 42
  // (H100 host, 2026-11-27). Where the skip ran out and the test passed by as much again, the
  // next skip is twice as long (up to kStaySkipMaxLevels): with skips of 3, a test (the profile
  // match's interpolation, the price, the surprise note; ~0.1 us by the difference below) still
  // ran on 28% of rome99's carried levels and 38-44% of luxembourg_osm's, and the tests and
  // notes took 0.04-0.09 us a carried level over the same host runs without them (one build
  // with a switch). With the doubling: 17% and 13-19%, and rome99's BFSs took 1.021x forced
  // cpu_expand's in the same processes where they had taken 1.057x (1.017x without tests;
  // paired medians, 8 processes x 48 BFSs; H100 host, 2026-11-27). A frontier past twice the
  // tested one's arcs, a surprise or a profile switch tests at once and starts the skips again
  // from kStaySkipLevels.
  int untested = 0;
  int skip = kStaySkipLevels;  // the levels the next wide pass skips
  auto test_next = [&] {       // the next level is tested; skips start again from kStaySkipLevels
    untested = 0;
    skip = kStaySkipLevels;
  };
  EdgeOffset tested_edges = 0;
  for (;;) {
    bool tested = false;
    bool switched = false;
    if (decide) {
      if (outgrow_profile(end, level)) {
        at = 0;
        last_profile_level = profile_.visited.empty() ? 0 : profile_.visited.size() - 1;
        test_next();
        switched = true;
      }
      if (untested > 0 && edges <= 2 * tested_edges && surprise_at(slot) <= 1.0) {
        --untested;
      } else {
        if (untested > 0) test_next();  // cut short
        match_profile();
        const HostStay price = price_host_stay(end - begin, edges, discovered, at, fresh);
        if (!price.stay()) {
          stop = "the cost models price leaving the host cheaper";
          break;
        }
        tested = true;
        tested_edges = edges;
        if (price.leave_us - price.level_us - price.after_us >= kStaySkipMargin * price.level_us) {
          untested = skip;
          skip = std::min(2 * skip, kStaySkipMaxLevels);
        } else {
          test_next();
        }
      }
    }
    // The level's expansion starts after its test (HostTestTime): one clock read more where a
    // test ran (a switch is always followed by one).
    std::uint64_t work_ns = last_ns;
    if (tested) {
      work_ns = steady_ns(std::chrono::steady_clock::now());
      const HostTest test = switched                     ? HostTest::Switch
                            : level == context.level + 1 ? HostTest::First
                                                         : HostTest::Stay;
      host_run_tests_.push_back({test, static_cast<float>(work_ns - last_ns) / 1000.0f,
                                 static_cast<std::uint32_t>(host_run_levels_.size())});
    }
    strategies::LevelContext next{context.buffers, level, begin, end, edges};
    const strategies::LevelOutcome out = host.run(next);
    const std::uint64_t now_ns = steady_ns(std::chrono::steady_clock::now());
    host_run_levels_.push_back({end - begin, 0u, edges, last_ns, now_ns});
    // A carried level far slower than priced raises the host's surprise factor for the stay
    // tests after it, as a decided level's does for the decisions (note_surprise): the run
    // otherwise went on by prices that this BFS had disproved. soc-Slashdot0902's source 28832
    // carried levels of 383,286, 431,554 and 37,854 arcs on the host at 539, 439 and 389 us,
    // priced 50, 99 and 73, and took 1.52 ms where the next round's BFS from it took 0.136
    // (H100, 2026-11-26). The run's first level is noted once the run is over (learn_level).
    // An untested level is priced only where it could surprise (kSurpriseUs), and the next is
    // tested.
    const double measured_us = static_cast<double>(now_ns - work_ns) / 1000.0;  // the expansion's
    if (decide && (tested || measured_us > kSurpriseUs)) {
      if (!tested) {
        match_profile();
        test_next();
      }
      note_surprise(slot, host_carried_us(end - begin, edges, discovered) * surprise_at(slot), measured_us);
    }
    if (decide && options_.online_correction) {  // a tested level's rate is its own (match_profile)
      host_pace_.note(host_carried_us(end - begin, edges, discovered_per_arc * static_cast<double>(edges)),
                      measured_us);
    }
    last_ns = now_ns;
    examined += out.edges_examined;
    begin = end;
    end += out.next_frontier_vertices;
    edges = out.next_frontier_edges;
    ++level;
    if (out.next_frontier_vertices == 0 || end >= reach_limit) break;
  }
  if (host_run_levels_.size() == 1) return first;  // left at once: an ordinary level
  strategies::LevelOutcome outcome;
  outcome.levels_advanced = static_cast<int>(host_run_levels_.size());
  outcome.next_frontier_vertices = end - begin;
  outcome.next_frontier_edges = edges;
  outcome.edges_examined = examined;
  outcome.level_records = host_run_levels_.data();
  outcome.stop_reason = stop;
  return outcome;
}

Executor::Choice Executor::choose_by_rule(const strategies::FrontierState& state) const {
  if (push_strategy_ == nullptr) return {host_strategy_, "no device"};
  const SwitchRule& rule = options_.rule;
  const auto n = static_cast<double>(buffers_.num_vertices());
  const auto edges = static_cast<double>(state.frontier_edges);
  const auto unexplored = static_cast<double>(state.unexplored_edges);
  const EdgeOffset threshold = rule.cpu_max_frontier_edges;
  // Direction (Beamer): stay bottom-up while the frontier is a large share of |V|; go bottom-up
  // when the frontier's arcs outweigh the arcs left to explore.
  if (state.representation == FrontierRepresentation::Bitmap) {
    if (state.frontier_vertices >= n / rule.push_beta) {
      return {pull_strategy_, "rule: bottom-up: |F| " + std::to_string(state.frontier_vertices) + " >= |V|/beta"};
    }
  } else if (state.frontier_edges >= threshold && edges > unexplored / rule.pull_alpha) {
    return {pull_strategy_, "rule: bottom-up: arcs " + std::to_string(state.frontier_edges) + " > unexplored/alpha"};
  }
  if (state.frontier_edges < threshold) {
    const std::string why = "rule: arcs " + std::to_string(state.frontier_edges) + " < " + std::to_string(threshold);
    if (rule.block_loop_for_small && block_strategy_ != nullptr && block_strategy_->applicable(state)) {
      return {block_strategy_, why};
    }
    return {host_strategy_, why};
  }
  return {push_strategy_, "rule: arcs " + std::to_string(state.frontier_edges) + " >= " + std::to_string(threshold)};
}

int Executor::persistence_levels(const strategies::FrontierState& state, std::size_t next) const {
  if (state.level < 2 || next >= profile_.levels.size() || previous_frontiers_[1] == 0) return 0;
  const VertexId here = state.frontier_vertices;
  const VertexId low = std::min({here, previous_frontiers_[0], previous_frontiers_[1]});
  const VertexId high = std::max({here, previous_frontiers_[0], previous_frontiers_[1]});
  if (low == 0 || static_cast<double>(high) > kPersistSpread * static_cast<double>(low)) return 0;
  const auto ahead = static_cast<double>(profile_.levels[next].frontier_vertices);
  const auto now = static_cast<double>(here);
  if (ahead <= kPersistMismatch * now && now <= kPersistMismatch * ahead) return 0;
  return std::min(state.level, kPersistLevels);
}

Executor::Choice Executor::choose_by_model(const strategies::FrontierState& state, const Placement& placement,
                                           VertexId end) const {
  // Runs at every level, so it allocates nothing (the reason is formatted after the BFS).
  using Candidate = DecisionCandidate;
  std::array<Candidate, 8> candidates{};
  std::size_t count = 0;
  // The matching level of the sampled profile: what follows this level is priced from there.
  const std::size_t next =
      matching_profile_level(stats_.num_vertices - state.unvisited_vertices, state.frontier_vertices) + 1;
  const Place from = place_of(placement, state.level);
  const Conversions converted = conversions(from, state, end - placement.synced_end[1]);  // whoever runs
  const int persist = persistence_levels(state, next);
  // A run from level 0 carries the source's own level 1 (LevelOne); the other candidates, and
  // the runs at other levels, go on from the profile level after the one this level matches.
  LevelOne one;
  const bool through_one = level_one(state, one);
  const bool outgrows = next_outgrows_block(state, next);
  const double pace_excess = host_pace_excess();  // on every way on's host levels
  for (std::size_t i = 0; i < strategies_.size() && count < candidates.size(); ++i) {
    strategies::Strategy* s = strategies_[i].get();
    if (strategy_models_[i].fit == nullptr || !s->applicable(state)) continue;
    if (s == handed_back_) continue;
    Candidate c{};
    c.strategy = s;
    c.level_us = predict_decided_us(i, *s, s->cost_features(state, stats_), state);
    c.surprise = surprise_at(i);
    // Level 0's extra may be negative (execute_levels): the price is held at 0.
    c.level_us = std::max(0.0, c.level_us * c.surprise + first_level_extra(state.level));
    c.conversion_us = conversion_us(*s, from, converted);
    // A device-driven run carries the following levels too; every candidate is charged what
    // finishing the BFS from where it leaves the frontier costs (the profile's cost to go).
    const bool device_run = s == block_strategy_ || s == dp_strategy_;
    // A next frontier that outgrows the one-block loop ends a one_block run there; a
    // dynamic_parallel run carries it on a grid level. Both were priced as ending there until
    // 2026-11-26: uk-2007-05@100000's sources 13387 and 13640 priced dynamic_parallel at level 1
    // as leaving at level 2 (35.1 us then 217.1 off the run, where its run carries the BFS to
    // the end for 186.0) and started it a level later, after privatized_queue's, 30-50 us a BFS
    // over the oracle's run from level 1; now they run it from level 1 as the oracle does,
    // 336 -> 327 and 417 -> 318 us. Paired over 3 x 16 sources (H100, one binary with a switch):
    // soc-Slashdot0902 1.039, uniform:1048576:8 1.015, cnr-2000 1.012, kron:20 1.009 faster,
    // ca-AstroPh-lcc 0.996, email-Enron 0.977 (the same routes: its processes' speed),
    // uk-2007-05@100000 0.968 (sources whose run from level 0 now starts after a host level).
    const bool ends_at_next = outgrows && s == block_strategy_;
    const Place to = place_after(*s, from);
    double after = 0.0;
    if (through_one && device_run && (s != block_strategy_ || one.fits_block)) {
      after = run_after_level_one(*s, one, c.carried_levels, c.carried_us);
      if (pace_excess != 0.0) after += pace_excess * future_host_us(*s, from, one.next, false);
    } else if (location_of(to) == Location::Host) {
      // The next upload moves what the device has not seen and this level's discoveries (at
      // level 0 the source's arcs bound them).
      const double discovered = state.level == 0 ? static_cast<double>(state.frontier_edges)
                                                 : strategies::expected_discovered(state, stats_);
      const auto moved = static_cast<VertexId>(std::min<double>(
          static_cast<double>(end - placement.synced_end[1]) + std::ceil(discovered), stats_.num_vertices));
      after = host_future_us(next, to, moved, state.level + 1, pace_excess);
    } else {
      after = future_us(*s, from, next, &c.carried_levels, &c.carried_us, ends_at_next);
      if (pace_excess != 0.0) after += pace_excess * future_host_us(*s, from, next, ends_at_next);
    }
    c.future_us = after - c.carried_us;
    if (persist > 0) {
      // This frontier `persist` more times: a run carries them, the others repeat themselves.
      strategies::FrontierState again = state;
      again.continues_run = true;
      const bool host_run = s == host_strategy_ && host_runs_;
      if (s == dp_strategy_) again.grid_level = block_strategy_ == nullptr || !block_strategy_->applicable(state);
      const double each = device_run || host_run
                               ? predict_carried_us(*s, s->cost_features(again, stats_), state.frontier_edges,
                                                    carried_group(again.grid_level, state.frontier_vertices,
                                                                  state.frontier_edges))
                               : c.level_us;
      c.carried_levels = device_run ? static_cast<std::size_t>(persist) : 0;
      c.carried_us = device_run ? persist * each : 0.0;
      c.future_us = device_run ? 0.0 : persist * each;
    }
    candidates[count++] = c;
  }
  if (count == 0) {
    Choice choice = choose_by_rule(state);
    choice.reason = "no cost model applies; " + choice.reason;
    return choice;
  }
  if (through_one && one.fits_block) {
    no_cheaper_than_one_block(candidates.data(), candidates.data() + count, one.next, 1);
  } else if (persist == 0) {
    no_cheaper_than_one_block(candidates.data(), candidates.data() + count, next);
  }
  rank_candidates(candidates.data(), candidates.data() + count);
  Choice choice;
  choice.explorable = count > 1 && candidates[1].score() <= (1.0 + kExploreWithin) * candidates[0].score();
  if (explore_first_level_ && state.level == 0) {
    const double within = (1.0 + kExploreWithin) * candidates[0].score();
    for (std::size_t k = 1; k < count && candidates[k].score() <= within; ++k) {
      if (first_level_idle_[correction_slot(candidates[k].strategy)] < kExploreAfter) continue;
      choice.explore_bonus_us = within - candidates[k].score();
      choice.model_reason.explored_over = candidates[0].strategy->name();
      std::rotate(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k),
                  candidates.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      break;
    }
  }
  const Candidate& best = candidates[0];
  choice.strategy = best.strategy;
  choice.predicted_us = best.level_us;
  choice.predicted_conversion_us = best.conversion_us;
  choice.priced = true;
  choice.persistence = persist > 0;
  choice.deferred_reason = true;
  if (persist > 0) {
    choice.model_reason.persist_levels = persist;
    choice.model_reason.persist_frontiers[0] = previous_frontiers_[1];
    choice.model_reason.persist_frontiers[1] = previous_frontiers_[0];
    choice.model_reason.persist_frontiers[2] = state.frontier_vertices;
    choice.model_reason.profile_next = profile_.levels[next].frontier_vertices;
  }
  if (handed_back_ != nullptr) choice.model_reason.left_out = handed_back_->name();
  for (std::size_t k = 0; k < std::min<std::size_t>(count, kReasonCandidates); ++k) {
    const Candidate& c = candidates[k];
    choice.model_reason.name[k] = c.strategy->name();
    choice.model_reason.us[k] = c.level_us + c.conversion_us;
    choice.model_reason.carried_levels[k] = c.carried_levels;
    choice.model_reason.carried_us[k] = c.carried_us;
    choice.model_reason.future_us[k] = c.future_us;
    choice.model_reason.surprise[k] = c.surprise;
  }
  if (count > 1) {
    choice.runner_up = candidates[1].strategy->name();  // static storage
    choice.runner_up_predicted_us = candidates[1].level_us + candidates[1].conversion_us;
    if (best.strategy == host_strategy_) choice.stay_margin_us = candidates[1].score() - best.score();
  }
  return choice;
}

LevelShape Executor::level_one_shape(VertexId source, EdgeOffset out_degree) const {
  if (out_degree <= kCountedLevelOneDegree) {
    const LevelShape counted = source_next_frontier(buffers_.graph(), source, kCountedLevelOneDegree);
    if (counted.frontier_vertices > 0) return counted;
  }
  LevelShape one;
  one.frontier_vertices = static_cast<VertexId>(std::min<EdgeOffset>(out_degree, stats_.num_vertices - 1));
  const double by_class = stats_.head_out_degree_by_class[GraphStats::degree_class(out_degree)];
  const double heads = by_class > 0.0 ? by_class : stats_.mean_head_out_degree;
  one.frontier_edges = std::min(
      stats_.num_edges, static_cast<EdgeOffset>(std::ceil(static_cast<double>(one.frontier_vertices) * heads)));
  return one;
}

bool Executor::level_one(const strategies::FrontierState& state, LevelOne& one) const {
  if (state.level != 0 || profile_.value.empty() || state.frontier_edges == 0) return false;
  const LevelShape shape = level_one_shape(level_zero_source_, state.frontier_edges);
  if (shape.frontier_vertices == 0) return false;
  one.vertices = shape.frontier_vertices;
  one.edges = shape.frontier_edges;
  one.source_edges = state.frontier_edges;
  // Level 1's discoveries, as the profile prices a frontier at its visits, place the level after
  // it: the profile level with as large a frontier (at least the one after the visits' match).
  const VertexId visited = 1 + one.vertices;
  const std::size_t matched = matching_profile_level(visited, one.vertices);
  one.discovered = profile_discovered(profile_.levels, profile_.visited, matched, visited, one.edges,
                                      stats_.num_vertices - std::min(stats_.num_vertices, visited));
  one.next = profile_.tail_from == 0 ? matched + 1
                                     : frontier_matched_level(profile_.levels, profile_.tail_from - 1,
                                                              static_cast<VertexId>(std::ceil(one.discovered)),
                                                              matched + 1);
  strategies::FrontierState device;
  device.level = 1;
  device.frontier_vertices = one.vertices;
  device.frontier_edges = one.edges;
  device.location = Location::Device;
  one.fits_block = block_strategy_ != nullptr && block_strategy_->applicable(device);
  return true;
}

double Executor::run_after_level_one(const strategies::Strategy& s, const LevelOne& one, std::size_t& carried_levels,
                                     double& carried_us) const {
  const RunLookahead& run = *run_lookahead(s);
  const auto vertices = static_cast<double>(one.vertices);
  strategies::FrontierState continued;
  continued.level = 1;
  continued.frontier_vertices = one.vertices;
  continued.frontier_edges = one.edges;
  continued.unvisited_vertices = stats_.num_vertices - std::min(stats_.num_vertices, 1 + one.vertices);
  continued.unexplored_edges = stats_.num_edges - std::min(stats_.num_edges, one.source_edges + one.edges);
  continued.location = Location::Device;
  continued.continues_run = true;
  continued.grid_level = !one.fits_block;  // dynamic_parallel's (one_block's loop takes level 1)
  continued.discovered_vertices = one.discovered;
  double level_us = predict_carried_us(s, s.cost_features(continued, stats_), one.edges,
                                       carried_group(continued.grid_level, one.vertices, one.edges));
  if (&s == dp_strategy_) {
    // As prepare_lookahead prices a run's levels: a one-block level no cheaper than one_block's,
    // a grid level after the loop's level 0 with the loop's exit.
    if (one.fits_block && block_strategy_ != nullptr) {
      strategies::FrontierState block = continued;
      block.grid_level = false;
      level_us = std::max(level_us, predict_carried_us(*block_strategy_, block_strategy_->cost_features(block, stats_),
                                                       one.edges));
    }
    if (!one.fits_block) level_us += loop_exit_us(s, 1.0, vertices);
  }
  const std::size_t levels = profile_.value.size() - 1;
  const std::size_t stop = one.next < levels ? run.end[one.next] : one.next;
  carried_levels = 1 + (stop - std::min(stop, one.next));
  carried_us = level_us + (one.next < levels ? run.prefix[stop] - run.prefix[one.next] : 0.0);
  return level_us + (one.next < levels ? run.to_go(one.next) : 0.0);
}

void Executor::no_cheaper_than_one_block(DecisionCandidate* begin, DecisionCandidate* end, std::size_t next,
                                         std::size_t first) const {
  DecisionCandidate* block = nullptr;
  DecisionCandidate* dp = nullptr;
  for (DecisionCandidate* c = begin; c != end; ++c) {
    if (c->strategy == block_strategy_) block = c;
    if (c->strategy == dp_strategy_) dp = c;
  }
  if (block == nullptr || dp == nullptr || dp->carried_levels != block->carried_levels) return;
  // A grid level among them (or a level past the profile) is dp's own.
  if (dp->carried_levels > first &&
      (next >= profile_.grid_from.size() || profile_.grid_from[next] < next + dp->carried_levels - first)) {
    return;
  }
  const double short_by = block->score() - dp->score();
  if (short_by >= 0.0) dp->future_us += short_by + kOneBlockTieUs;
}

std::string Executor::format_reason(const ModelReason& why) {
  std::string reason;
  char text[160];
  if (why.host_run) {
    std::snprintf(text, sizeof text, "continued on the host: %s %.1f us then %.1f us <= %.1f us off the host (profile)",
                  why.name[0], why.us[0], why.future_us[0], why.us[1]);
    return text;
  }
  for (int k = 0; k < kReasonCandidates && why.name[k] != nullptr; ++k) {
    const bool explored = why.explored_over != nullptr;
    std::snprintf(text, sizeof text, "%s%s %.1f us",
                  k == 0 ? (explored ? "explored: " : "cheapest: ") : (k == 1 && explored ? "; the cheapest " : " < "),
                  why.name[k], why.us[k]);
    reason += text;
    if (why.surprise[k] > 1.0) {
      std::snprintf(text, sizeof text, " (x%.1f: slower than priced earlier in this BFS)", why.surprise[k]);
      reason += text;
    }
    if (why.carried_levels[k] > 0) {
      std::snprintf(text, sizeof text, " (+%zu levels on the device %.1f us)", why.carried_levels[k],
                    why.carried_us[k]);
      reason += text;
    }
    if (why.future_us[k] > 0.0) {
      std::snprintf(text, sizeof text, " then %.1f us", why.future_us[k]);
      reason += text;
    }
  }
  if (why.explored_over != nullptr) {
    std::snprintf(text, sizeof text, "; no BFS of the last %d started with %s, priced within %.0f%% of the cheapest",
                  kExploreAfter, why.name[0], 100.0 * kExploreWithin);
    reason += text;
  }
  if (why.left_out != nullptr) {
    std::snprintf(text, sizeof text, "; %s left out: its run handed back here", why.left_out);
    reason += text;
  }
  if (why.persist_levels > 0) {
    std::snprintf(text, sizeof text,
                  "; priced as %d more levels like this one (frontiers %u, %u, %u; the sampled BFS's next %u)",
                  why.persist_levels, why.persist_frontiers[0], why.persist_frontiers[1], why.persist_frontiers[2],
                  why.profile_next);
    reason += text;
  }
  return reason;
}

bool Executor::move_for(const strategies::Strategy& s, Placement& placement, VertexId begin, VertexId end) {
  const Location to = s.frontier_io().consumes_at;
  if (to == placement.location) return false;
  if (to == Location::Device) {
    buffers_.move_to_device(placement.synced(Location::Device), end);
  } else {
    buffers_.move_to_host(placement.synced(Location::Host), begin, end);
  }
  placement.synced(to) = end;
  placement.location = to;
  return true;
}

bool Executor::bitmap_for(const strategies::Strategy& s, Placement& placement, int level, VertexId begin,
                          VertexId end) {
  if (s.frontier_io().consumes != FrontierRepresentation::Bitmap || placement.bitmap_level == level) return false;
  buffers_.queue_to_bitmap(begin, end, static_cast<unsigned int>(level) & 1u);
  placement.bitmap_level = level;
  return true;
}

void Executor::convert(const strategies::Strategy& s, Placement& placement, int level, VertexId begin,
                       VertexId end) {
  move_for(s, placement, begin, end);
  bitmap_for(s, placement, level, begin, end);
}

void Executor::after_run(const strategies::Strategy& s, Placement& placement, int next_level, VertexId end) {
  const strategies::FrontierIo io = s.frontier_io();
  placement.location = io.produces_at;
  placement.bitmap_level = io.produces == FrontierRepresentation::Bitmap ? next_level : -1;
  placement.synced(placement.location) = end;
}

void Executor::execute(VertexId source, BfsResult& result) {
  const VertexId n = buffers_.num_vertices();
  if (source >= n) {
    throw InvalidArgument("source " + std::to_string(source) + " out of range: the graph has " + std::to_string(n) +
                          " vertices");
  }
  struct ReachScope {  // the sampled, warm-up and warming BFSs run to their ends and learn no set
    const ReachSet*& reach;
    bool& learn;
    ~ReachScope() {
      reach = nullptr;
      learn = false;
    }
  } scope{reach_, learn_reach_};
  reach_ = reach_set_for(source);
  learn_reach_ = true;
  if (options_.flags == PlanFlags::Exhaustive) {
    execute_exhaustive(source, result);
    learn_reach_set(source, result);
  } else {
    execute_levels(source, result);  // learns it before warming the next BFS
  }
}

void Executor::learn_reach_set(VertexId source, const BfsResult& result) {
  if (result.vertices_reached < kMinLearnedReach || reach_sets_.size() >= sampled_reach_sets_ + kMaxLearnedReachSets) {
    return;
  }
  // Where the smallest set holding the source is as large, the BFS stopped there (or is of that
  // set): nothing new.
  if (reach_ != nullptr && reach_->vertices == result.vertices_reached) return;
  const std::size_t sets = reach_sets_.size();
  add_reach_set(source, result);
  if (reach_sets_.size() > sets) {
    // reach_ pointed into reach_sets_, which may have moved: the untimed BFS that follows a long
    // learning (warm_up, from this source) read its reach limit through it. On
    // uk-2007-05@100000 one read a freed set's 793 for its source's 55,006 vertices, stopped
    // after three levels, learned those 793 as its reach set, and the next BFS from the source
    // stopped there: `abfs compare` failed its validation in 12 of the 35 runs on it kept from
    // four sessions (where the freed memory had been reused; H100, 2026-11-28).
    // The smallest set holding the source now: the one just learned.
    reach_ = reach_set_for(source);
    stop_profiles_at_reach_sets();  // as learn_profile's, just made
  }
}

const Executor::ReachSet* Executor::reach_set_for(VertexId source) const {
  const ReachSet* best = nullptr;
  for (const ReachSet& r : reach_sets_) {
    if (r.contains(source) && (best == nullptr || r.vertices < best->vertices)) best = &r;
  }
  return best;
}

void Executor::add_reach_set(VertexId source, const BfsResult& bfs) {
  for (const ReachSet& kept : reach_sets_) {
    // A set as large holding the source: the source reaches only its vertices, so all of them.
    if (kept.vertices == bfs.vertices_reached && kept.contains(source)) return;
  }
  const std::vector<std::int32_t>& distances = bfs.distances;
  const Graph& graph = buffers_.graph();
  const VertexId n = graph.num_vertices();
  ReachSet r;
  r.members.assign((static_cast<std::size_t>(n) + 63) / 64, 0);
  VertexId vertices = 0;
  EdgeOffset arcs = 0;
  const auto words = static_cast<std::int64_t>(r.members.size());
  // In parallel only on graphs of kParallelReachVertices vertices or more: after an OpenMP
  // region the team's threads spin on, and the next BFS paid it in level 0's host work. On
  // uk-2007-05@100000 (16 BFSs a process), with the region before the warming (execute_levels):
  // uploads of 53-59 us and decisions of 24-25 (6 and 2 otherwise) in 2 of 4 processes; after it,
  // as until now: 30-41 and 21-29 in 2 of 3. Serially, in 5 processes: uploads of at most 16 us,
  // one decision of 16 (H100 host, 2026-11-27). The pass reads each vertex's distance and degree.
#pragma omp parallel for schedule(static) reduction(+ : vertices, arcs) if (n >= kParallelReachVertices)
  for (std::int64_t w = 0; w < words; ++w) {
    std::uint64_t bits = 0;
    const VertexId first = static_cast<VertexId>(w) * 64;
    const VertexId last = std::min<VertexId>(n, first + 64);
    for (VertexId v = first; v < last; ++v) {
      if (distances[v] < 0) continue;
      bits |= std::uint64_t{1} << (v - first);
      ++vertices;
      arcs += graph.out_degree(v);
    }
    r.members[static_cast<std::size_t>(w)] = bits;
  }
  r.vertices = vertices;
  r.arcs = arcs;
  reach_sets_.push_back(std::move(r));
}

VertexId Executor::start_buffers(VertexId source) {
  buffers_.start(source);
  VertexId reach_limit = reach_ != nullptr ? reach_->vertices : std::numeric_limits<VertexId>::max();
  if (learn_reach_) reach_limit = std::min(reach_limit, reach_bound(source));  // execute's BFSs
  buffers_.set_reach_limit(reach_limit);
  return reach_limit;
}

void Executor::note_all_reached(VertexId frontier_vertices, VertexId limit, BfsResult& result) const {
  if (result.levels.empty()) return;
  char text[220];
  if (reach_ != nullptr && reach_->vertices == limit) {
    std::snprintf(text, sizeof text,
                  "; the BFS has visited all %u vertices of a reach set holding its source (an earlier BFS's): it is "
                  "over, its last frontier (%u vertices) not expanded",
                  limit, frontier_vertices);
  } else {
    std::snprintf(text, sizeof text,
                  "; the BFS has visited its source's reach bound, %u vertices (its strongly connected component's "
                  "and those after it): it is over, its last frontier (%u vertices) not expanded",
                  limit, frontier_vertices);
  }
  result.levels.back().reason += text;
}

void Executor::note_first_level(const Choice& choice) {
  for (int& idle : first_level_idle_) ++idle;
  bfs_since_explored_ = choice.explore_bonus_us > 0.0 ? 0 : bfs_since_explored_ + 1;
  const std::size_t slot = correction_slot(choice.strategy);
  if (slot < first_level_idle_.size()) first_level_idle_[slot] = 0;
  // An explored host run stays while its prices are within the allowance of leaving.
  if (choice.explore_bonus_us > 0.0 && choice.strategy == host_strategy_) {
    for (auto& shifts : host_leave_shift_) shifts.fill(choice.explore_bonus_us);
  }
}

void Executor::warm_up(VertexId source) {
  BfsResult scratch;
  execute_levels(source, scratch);
}

void Executor::rehearse(VertexId source, bool explore, BfsResult& scratch) {
  rehearsal_explores_ = explore;
  try {
    execute(source, scratch);
  } catch (...) {
    rehearsal_explores_ = false;
    throw;
  }
  rehearsal_explores_ = false;
}

std::vector<LevelShape> Executor::sample_levels(VertexId source) {
  BfsResult sample;
  const bool warm = warmed_;  // not the executor's first BFS
  execute_levels(source, sample);
  add_reach_set(source, sample);
  sampled_reach_sets_ = reach_sets_.size();
  if (models_ == nullptr && warm) {  // learn_sampled_block_levels
    for (const std::size_t i : carried_block_records_) {
      const LevelRecord& l = sample.levels[i];
      const VertexId discovered = i + 1 < sample.levels.size() ? sample.levels[i + 1].frontier_vertices : 0;
      sampled_block_levels_.push_back({l.frontier_vertices, l.frontier_edges, discovered, l.time_us});
    }
  }
  std::vector<LevelShape> shape;
  for (const auto& l : sample.levels) shape.push_back({l.frontier_vertices, l.frontier_edges});
  strategies::add_pull_warp_steps(buffers_.graph(), sample.distances, shape);  // and pull_scanned_edges
  return shape;
}

void Executor::warm_strategies(VertexId source) {
  if (forced_ != nullptr || !schedule_.empty() || strategies_.size() < 2) return;
  for (auto it = strategies_.rbegin(); it != strategies_.rend(); ++it) schedule_.push_back(it->get());
  warm_uploads_.clear();
  warming_ = true;
  // Its level 0 upload teaches the plan's (kUploadAtStart), which follow the last BFS's
  // warm_launch_path: so does this one, not the profile's host work over the graph
  // (add_pull_warp_steps). After that work it priced the first BFSs' uploads at level 0 1.9x
  // (29.6 us, 8.4 measured) on uniform:1048576:8: they started on the host, whose levels cost
  // ~20 us more, and in 2 of 4 runs of 8 BFSs never learned otherwise. With this, every run
  // starts on the device from its third BFS (H100, 2026-11-26).
  buffers_.warm_launch_path();
  BfsResult scratch;
  try {
    execute_levels(source, scratch);
  } catch (...) {
    schedule_.clear();
    warming_ = false;
    throw;
  }
  schedule_.clear();
  warming_ = false;
}

void Executor::execute_levels(VertexId source, BfsResult& result) {
  const Graph& graph = buffers_.graph();
  result.source = source;
  std::size_t used = 0;  // drafts_ in use (write_records: as many records of result.levels, the others reused)
  result.oracle_ms = 0.0;
  pending_reasons_.clear();
  device_runs_.clear();
  carried_levels_.clear();
  carried_tests_.clear();
  carried_block_records_.clear();

  if (start_) start_->record(buffers_.stream());
  // A BFS that stays on the host is timed on the host clock from here, without a stop event to
  // record and wait for: nothing ran on the device. cnr-2000's all-host BFSs (small components,
  // 4-6 levels) took 2.6 us over their levels' 6.7 timed by events, 1.8 over 5.5 so (medians;
  // H100, 2026-11-26). It ends where its last level's run does, as a BFS ending on the device
  // does (below): the executor's learning from that level after it is not the BFS's (0.6-2.1 us
  // at the end of cnr-2000's host-only BFSs of 14 and 73 vertices; H200 host, 2026-11-29).
  const auto wall_start = std::chrono::steady_clock::now();
  auto last_level_end = wall_start;
  bool used_device = false;
  // A BFS whose last level runs on the device ends where that level's work does: each device
  // level's wait records stop_ in stream order after it (set_level_end_event), and the
  // host's bookkeeping after its last device level is not the BFS's. Until 2026-11-28 stop_ was
  // recorded after the loop, once the host had read the last level's counters: a device BFS's
  // time 3-6.6 us (medians by graph) over its levels' records, against 1.0 for rome99's
  // all-host ones (H100).
  struct LevelEndScope {  // disarmed however the BFS ends, and no level left queued at a gate
    BfsBuffers& buffers;
    ~LevelEndScope() {
      buffers.cancel_gate();
      buffers.set_level_end_event(nullptr);
    }
  } level_end{buffers_};
  if (stop_) buffers_.set_level_end_event(stop_.get());
  bool ended_on_device = false;  // the last level's wait recorded stop_
  const VertexId reach_limit = start_buffers(source);
  level_zero_source_ = source;

  Placement placement;
  VertexId begin = 0;
  VertexId end = 1;
  EdgeOffset frontier_edges = graph.out_degree(source);
  EdgeOffset edges_out_of_reached = 0;  // arcs out of the expanded frontiers
  int level = 0;
  level_overheads_.clear();
  reset_bfs_pricing();
  // Its component's profile, else one by its reach bound or the smallest (start_profile):
  // outgrown as the BFS discovers more (outgrow_profile).
  const std::size_t own_profile = component_profile(source);
  const std::size_t first_profile = start_profile(source);
  use_profile(first_profile);
  profile_switches_.clear();
  if (own_profile < profiles_.size() && !profile_.visited.empty()) {
    profile_switches_.push_back({0, kNoVertex, profile_.visited.back() - 1});  // less its assumed last level
  } else if (first_profile != 0 && by_reach()) {
    profile_switches_.push_back({0, kNoVertex, profile_reaches_[first_profile], reach_bound(source)});
  }
  // A level's time runs from the end of the previous one: the decision and the executor's
  // bookkeeping count, as they do in the total.
  auto level_clock = std::chrono::steady_clock::now();
  while (end > begin && (level == 0 || end < reach_limit)) {
    outgrow_profile(end, level);
    explore_first_level_ = level == 0 && models_ != nullptr && forced_ == nullptr && schedule_.empty() && !warming_ &&
                           options_.online_correction && options_.flags != PlanFlags::Exhaustive &&
                           (rehearsal_explores_ || bfs_since_explored_ >= kExploreAfter);
    const FirstChoice* ahead = level == 0 ? first_choice_for(first_choice_key(source)) : nullptr;
    const strategies::FrontierState state =
        frontier_state(level, end - begin, end, frontier_edges, edges_out_of_reached, placement, ahead == nullptr);
    // A level 0 decided ahead uses that decision in place (a copy of a Choice, its reason's
    // candidates and text, was ~0.1-0.3 us of a BFS's start).
    Choice decided;
    if (ahead == nullptr) decided = choose(state, placement);
    const Choice& choice = ahead != nullptr ? ahead->choice : decided;
    if (explore_first_level_) note_first_level(choice);
    explore_first_level_ = false;
    strategies::Strategy& strategy = *choice.strategy;
    // A level queued ahead by the last one (launch_ahead) runs only where this decision chose it.
    if (buffers_.gate_armed() && !buffers_.gate_armed_for(&strategy, level)) buffers_.cancel_gate();
    if (&strategy == host_strategy_ && placement.location == Location::Host && level > 0) {
      shift_host_leave(choice, state.frontier_vertices, frontier_edges, strategies::expected_discovered(state, stats_),
                       matching_profile_level(end), placement.synced(Location::Device) == 0);
    }

    const std::size_t index = used++;
    LevelDraft& record = draft(index);
    record.level = level;
    record.frontier_vertices = state.frontier_vertices;
    record.frontier_edges = frontier_edges;
    record.strategy = strategy.name();
    if (!choice.reason.empty()) record.reason = choice.reason;
    if (choice.deferred_reason) pending_reasons_.emplace_back(index, choice.model_reason);
    record.runner_up = choice.runner_up;
    record.runner_up_predicted_us = choice.runner_up_predicted_us;
    record.from_gate = buffers_.gate_armed_for(&strategy, level);
    record.decided_ahead = ahead != nullptr;
    record.ahead_planned = ahead != nullptr && ahead->planned;
    // The features again only where they are needed: samples, or a level no model priced.
    const Resolved& model = model_of(&strategy);
    const bool unpriced = !choice.priced && model.fit != nullptr;
    strategies::CostFeatures features;
    if (samples_ != nullptr || unpriced) features = strategy.cost_features(state, stats_);
    // Level 0's extra (first_level_extra_us_), or where it was decided ahead its own.
    const double extra = level != 0 ? 0.0 : ahead != nullptr ? ahead_level_extra_us_ : first_level_extra_us_;
    // What the price below was raised to where level 0's negative extra would take it under its
    // floor (0; for a level decided ahead, 1/8 of its price without the decision's extra, a
    // correction's floor); the corrections learn from the price before (learn_level).
    double floor_us = 0.0;
    if (choice.priced) {
      record.predicted_us = choice.predicted_us + (ahead != nullptr ? extra - ahead->extra_us : 0.0);
      if (ahead != nullptr) floor_us = (choice.predicted_us - ahead->extra_us) / 8.0;
      record.predicted_conversion_us = choice.predicted_conversion_us;
    } else if (unpriced) {
      record.predicted_us = predict_decided_us(correction_slot(&strategy), strategy, features, state) + extra;
      record.predicted_conversion_us = predict_conversion_us(strategy, state, placement, end);
    }
    const double price_floor_lift = std::max(0.0, floor_us - record.predicted_us);
    record.predicted_us += price_floor_lift;
    // Two clock reads a level, before the run and after it, and one before a conversion.
    const strategies::FrontierIo io = strategy.frontier_io();
    const bool converts = io.consumes_at != placement.location ||
                          (io.consumes == FrontierRepresentation::Bitmap && placement.bitmap_level != level);
    const auto convert_start = converts ? std::chrono::steady_clock::now() : level_clock;
    used_device = used_device || io.consumes_at == Location::Device;
    const unsigned long long level_ends = buffers_.level_end_records();
    const VertexId device_end = placement.synced(Location::Device);
    const int group = decided_group(strategy, placement.location, level);
    // Learned as a host run's carried level: without the executor's part, priced or measured.
    const bool host_run_priced = models_ != nullptr && host_run_level(strategy, placement.location, level);
    // The level's price includes this BFS's surprise factor where the models chose it; the
    // online correction learns from the price without it.
    const std::size_t slot = correction_slot(&strategy);
    const double surprise = choice.priced ? surprise_at(slot) : 1.0;
    if (move_for(strategy, placement, begin, end) && placement.location == Location::Device) {
      // As a plan pays it: host time, the copy and the scatter left in flight.
      const double upload_us = microseconds_since(convert_start);
      if (samples_ != nullptr) {
        samples_->push_back({kToDevice, to_device_features(end - device_end, device_end == 0), upload_us});
      }
      observe_at(upload_slot(), end - device_end, upload_group(device_end == 0, level),
                 predict_upload_us(end - device_end, device_end == 0, level), upload_us);
      if (warming_) warm_uploads_.push_back({end - device_end, device_end == 0, level, upload_us});
    }
    bitmap_for(strategy, placement, level, begin, end);
    const auto level_start = std::chrono::steady_clock::now();
    record.conversion_us = converts ? microseconds_between(convert_start, level_start) : 0.0;

    strategies::LevelContext context{buffers_, level, begin, end, frontier_edges};
    if (!schedule_.empty()) context.max_levels = 1;  // the next level runs the next scheduled strategy
    context.launch_ahead = schedule_.empty();
    if (choice.priced && !choice.persistence) {  // a run the models chose stops where they price leaving cheaper
      if (&strategy == block_strategy_) context.handback = profile_.block_handback.table;
      if (&strategy == dp_strategy_) context.handback = profile_.dp_handback.table;
      if (context.handback.model != nullptr) {
        // The table's price_from is two profile levels before the first level where any run
        // would hand back, often one long before this run starts: luxembourg_osm's runs from
        // level ~330 were priced at every level (~0.3 us each: 2.72 / 3.30 us against 2.40 /
        // 3.01 unpriced) for a hand-back the lookahead puts at ~880. So this run is priced from
        // two profile levels before where the lookahead has it stop, and not at all where it
        // carries the BFS to the end. Interleaved A/B, 3 x 16 sources: luxembourg_osm's
        // carried levels 2.59 / 3.23 -> 2.30 / 2.94 us, its BFS mean 2.68 -> 2.47 ms; seven
        // other graphs within their noise, -5% to +4% (H100, 2026-11-24).
        const RunLookahead& run = &strategy == block_strategy_ ? profile_.block_run : profile_.dp_run;
        const std::size_t next = matching_profile_level(end, state.frontier_vertices) + 1;
        if (next < run.end.size()) {
          context.handback.price_from = std::max(context.handback.price_from, price_from_before(run.end[next]));
        }
      }
    }
    // A one_block run priced long has its idle SMs prefetch the CSR into the L2 (one_block.cu);
    // one that ends before the prefetch would wait for it.
    context.prefetch_l2 = choice.priced && &strategy == block_strategy_ &&
                          choice.model_reason.us[0] + choice.model_reason.carried_us[0] >= kPrefetchRunUs;
    // cpu_expand goes on in a host run where nothing else could run (forced, or no device), or
    // while the models say stay (they chose it); a schedule decides every level itself.
    const bool host_run = host_runs_ && &strategy == host_strategy_ && schedule_.empty();
    const bool only_host = forced_ == host_strategy_ || strategies_.size() == 1;
    const bool decide = !only_host && choice.priced && !profile_.host_leave.empty();
    struct WaitWorkScope {  // no stale work for a later wait, should the level throw
      BfsBuffers& buffers;
      ~WaitWorkScope() { buffers.set_wait_work(nullptr, nullptr); }
    } wait_work{buffers_};
    if (models_ != nullptr && forced_ == nullptr && schedule_.empty() && io.produces_at == Location::Device) {
      warm_from_ = {&strategy, level, state.frontier_vertices, end, frontier_edges, edges_out_of_reached, placement};
      buffers_.set_wait_work(&Executor::warm_next_decision_of, this);
    }
    const strategies::LevelOutcome outcome =
        host_run && (only_host || decide)
            ? run_on_host(context, decide, placement.synced(Location::Device) == 0, level_start)
            : strategy.run(context);
    const auto level_stop = std::chrono::steady_clock::now();
    last_level_end = level_stop;
    ended_on_device = buffers_.level_end_records() != level_ends;  // its work marked its end
    const double run_us = microseconds_between(level_start, level_stop);
    const double wall_us = microseconds_between(level_clock, level_stop) - record.conversion_us;
    level_clock = level_stop;
    record.executor_us = wall_us - run_us;
    level_overheads_.push_back(record.executor_us);

    // The corrections learn the strategy's part of the level: at level 0 the first decision's
    // extra is left out of the price (first_level_extra_us_) and of the measured time (this
    // level's own executor time beyond the models' level overhead). A level 0 decided ahead
    // makes no decision, so its executor time is below that overhead, which its price (the
    // decision's) holds: its extra is negative, the part of the overhead it did not pay. Held
    // at 0 (until 2026-11-28), its price kept the learned overhead of a decided level: host
    // levels 0 decided ahead priced 3.1-3.9 us took 1.0-2.1 (email-Enron, cnr-2000; a decided
    // level's executor time 2.8-3.2 us, theirs 0.4-0.8), 6.5-7.9 took 1.0-2.5 (luxembourg_osm,
    // 5.5 against 0.4-1.3), and the strategy's part they taught the corrections was that much
    // short (H200 host, 2026-11-28). A decided level 0's extra may be negative too: its
    // executor time may be below the overhead learned from later decided levels, and held at 0
    // the part it did not pay came off what its strategy's correction learned:
    // cnr-2000's and ca-AstroPh-lcc's decided host levels 0 (executor time 1.4-2.6 us, under
    // the learned overhead) drove the level-0 class's factor down until their levels 0
    // decided ahead were priced 0.4-2.4 us where they took 0.9-4.1, 11 of 12 over 40% (H200,
    // 2026-11-28).
    const double measured_extra = level == 0 && models_ != nullptr ? record.executor_us - level_overhead_us() : 0.0;
    if (level == 0) learn_first_level(measured_extra, ahead != nullptr);
    // A decided level's correction learns what it scales (predict_level_us): the learned
    // overhead's excess over calibration's comes off the price and the time alike.
    const double excess = models_ != nullptr && !host_run_priced ? level_overhead_excess_us() : 0.0;
    auto learn_level = [&](double measured_us) {
      const double predicted_us =
          record.predicted_us - price_floor_lift - extra - (host_run_priced ? level_overhead_us() : 0.0);
      const double strategy_us =
          std::max(0.0, measured_us - measured_extra - (host_run_priced ? record.executor_us : 0.0));
      const double scaled_us = predicted_us / surprise - excess;
      observe(&strategy, correction_size(strategy, state), group, scaled_us,
              std::max(strategy_us - excess, scaled_us / 8.0));  // a correction's floor: 1/8
      if (choice.priced) note_surprise(slot, predicted_us, strategy_us);
    };

    VertexId next_begin = end;
    if (outcome.level_records == nullptr) {
      record.time_us = wall_us;
      record.device_us = outcome.device_us;
      if (samples_ != nullptr) samples_->push_back({strategy.name(), features, wall_us});
      learn_level(wall_us);
    } else {
      // A device-driven run (or a host run): one record per level advanced, timed by the
      // device's clock (the host's); the first also carries the launch and the host
      // synchronization. The records of the levels it carried are built after the BFS is timed
      // (expand_device_runs): their bookkeeping, ~0.4 us a level, is the log's, not the BFS's.
      const detail::DeviceLevelRecord* device_levels = outcome.level_records;
      double later_us = 0.0;
      for (int k = 1; k < outcome.levels_advanced; ++k) {
        const detail::DeviceLevelRecord& d = device_levels[k];
        later_us += static_cast<double>(d.end_ns - d.start_ns) / 1000.0;
        next_begin += d.frontier_vertices;
      }
      if (&strategy != host_strategy_) {
        record.device_us = static_cast<double>(device_levels[0].end_ns - device_levels[0].start_ns) / 1000.0;
      }
      record.time_us = std::max(0.0, wall_us - later_us);
      // The loop's exits are known now and priced with the first record, which carries them, as
      // the carried levels are priced at their own frontiers (expand_device_runs).
      const strategies::LoopExits exits =
          &strategy != host_strategy_ ? strategies::loop_exits(outcome) : strategies::LoopExits{};
      if (exits.count > 0) {
        record.predicted_us += loop_exit_us(strategy, exits.count, exits.vertices);
        if (samples_ != nullptr) features = strategy.cost_features(with_loop_exits(state, exits), stats_);
      }
      learn_level(record.time_us);
      if (samples_ != nullptr) samples_->push_back({strategy.name(), features, record.time_us});
      device_runs_.push_back({&strategy, index, end, edges_out_of_reached + frontier_edges,
                              carried_levels_.size(), outcome.levels_advanced - 1, outcome.stop_reason,
                              device_levels[0], outcome.handed_back, outcome.handback,
                              &strategy == host_strategy_ && decide && options_.online_correction,
                              carried_tests_.size(), 0});
      carried_levels_.insert(carried_levels_.end(), device_levels + 1, device_levels + outcome.levels_advanced);
      if (device_levels == host_run_levels_.data()) {
        carried_tests_.insert(carried_tests_.end(), host_run_tests_.begin(), host_run_tests_.end());
        device_runs_.back().tests = host_run_tests_.size();
      }
    }

    for (int k = 0; k < outcome.levels_advanced; ++k) {  // for persistence_levels
      const VertexId f = k == 0 ? state.frontier_vertices : outcome.level_records[k].frontier_vertices;
      previous_frontiers_ = {f, previous_frontiers_[0]};
    }
    edges_out_of_reached += outcome.edges_examined;
    level += outcome.levels_advanced;
    begin = next_begin;
    end = next_begin + outcome.next_frontier_vertices;
    after_run(strategy, placement, level, end);
    frontier_edges = outcome.next_frontier_edges;
    handed_back_ = outcome.handed_back ? &strategy : nullptr;
    after_run_ = outcome.level_records != nullptr && &strategy != host_strategy_ && outcome.stop_reason != nullptr;
  }
  // Ended with a frontier left: every vertex the source reaches is visited, and the arcs out
  // of them are those of its reach set or bound.
  const bool all_reached = end > begin;
  if (all_reached) edges_out_of_reached = arcs_out_of_reach(source, reach_limit);
  buffers_.cancel_gate();  // the BFS is over: no level follows
  if (stop_ && used_device) {
    if (!ended_on_device) stop_->record(buffers_.stream());  // after the host's last level
    // The total is read on the host.
    ABFS_CUDA_CHECK(cudaEventSynchronize(stop_->get()));
    result.total_ms = elapsed_ms(*start_, *stop_);
  } else {
    result.total_ms = microseconds_between(wall_start, last_level_end) / 1000.0;
  }
  write_records(used, result);
  result.vertices_reached = end;
  result.edges_traversed = graph.directed() ? edges_out_of_reached : edges_out_of_reached / 2;
  for (const auto& [index, why] : pending_reasons_) {
    // Prepend: a hand-over note may follow.
    result.levels[index].reason = format_reason(why) + result.levels[index].reason;
  }
  pending_reasons_.clear();
  expand_device_runs(result);
  if (all_reached) note_all_reached(end - begin, reach_limit, result);
  for (const ProfileSwitch& p : profile_switches_) {
    // One record per level now; a switch inside a host run is noted at its level.
    if (p.level < 0 || static_cast<std::size_t>(p.level) >= result.levels.size()) continue;
    char text[120];
    if (p.bound != 0) {
      std::snprintf(text, sizeof text, "; looks ahead with the sampled BFS of %u vertices: its source reaches at most %u",
                    p.to, p.bound);
    } else if (p.from == kNoVertex) {
      std::snprintf(text, sizeof text, "; looks ahead with a BFS of its source's component (%u vertices)", p.to);
    } else {
      std::snprintf(text, sizeof text, "; the BFS outgrew the sampled BFS of %u vertices: looks ahead with the one of %u",
                    p.from, p.to);
    }
    result.levels[static_cast<std::size_t>(p.level)].reason += text;
  }

  const auto collect_start = std::chrono::steady_clock::now();
  buffers_.collect(end, placement.location == Location::Device ? placement.synced_end[0] : end, result.distances,
                   result.parents);
  result.result_ms = microseconds_since(collect_start) / 1000.0;
  // Before the warming below: a reach set's pass over the distances and the lookaheads it
  // prepares again left the next BFS's level 0 cold. uk-2007-05@100000's BFS after the first of
  // the 55,006-vertex class (which learned its set) spent 30-42 us at level 0 where the others
  // took 20-29, the upload 7-13 us against 4-6 (H100, 2026-11-27). That was the learning's
  // length (a component's first: 13-24 ms there), not its order: where it runs long, the
  // warming is an untimed BFS (set_rewarm_after).
  const auto learn_start = std::chrono::steady_clock::now();
  if (learn_reach_) learn_reach_set(source, result);
  learn_profile(source, result);
  // Between BFSs the executor holds the profile a BFS starts with where its component has none
  // of its own, the smallest: the next BFS's start then moves none. Moving the largest back
  // there cost the BFS's start 0.6-1.5 us (a process's medians; up to 3.9 us; cnr-2000's
  // host-only BFSs of 14 and 73 vertices took 5-12 us; H200 host, 2026-11-29), swapping the two
  // Profile objects (their hand-back models, ~1 KB each, by value) from cold memory.
  use_profile(0);
  learn_corrections();
  const double learned_us = microseconds_since(learn_start);
  if (learned_us > rewarm_after_us_ && learned_us > rewarm_bfs_share_ * result.total_ms * 1000.0 &&
      buffers_.has_device() && !rewarming_ && !warming_ && schedule_.empty()) {
    if (!result.levels.empty()) {
      char text[120];
      std::snprintf(text, sizeof text,
                    "; learning from this BFS took %.1f ms: one untimed BFS from its source warmed the next",
                    learned_us / 1000.0);
      result.levels.back().reason += text;
    }
    ++rewarms_;
    rewarming_ = true;
    try {
      warm_up(source);  // its end warms the next BFS
    } catch (...) {
      rewarming_ = false;
      throw;
    }
    rewarming_ = false;
    return;
  }
  buffers_.warm_launch_path();  // for the next BFS's first launch, after the host work above
  warmed_ = true;
  warm_first_decision(source);
}

void Executor::reset_bfs_pricing() {
  handed_back_ = nullptr;
  after_run_ = false;
  for (auto& shifts : host_leave_shift_) shifts.fill(0.0);
  surprise_.assign(strategies_.size(), 1.0);
  host_pace_ = HostPace{};
  previous_frontiers_ = {};
}

void Executor::warm_first_decision(VertexId source) {
  if (models_ == nullptr || forced_ != nullptr || !schedule_.empty() || warming_) return;
  decide_first_level(source, false);
}

void Executor::decide_first_level(VertexId source, bool planned) {
  // Priced as the next BFS's level 0 will be: without this BFS's surprises and host pace.
  reset_bfs_pricing();
  const ProfileScope scope(*this);
  // As execute_levels starts a BFS from source (start_profile).
  use_profile(start_profile(source));
  level_zero_source_ = source;
  const Placement placement;
  const FirstChoiceKey key = first_choice_key(source);
  const strategies::FrontierState state = frontier_state(0, 1, 1, key.out_degree, 0, placement);
  const Choice choice = choose(state, placement);
  if (samples_ == nullptr && choice.priced) keep_first_choice(key, choice, planned);
}

void Executor::decide_first_levels_ahead() {
  if (!decides_ahead()) return;
  const Graph& graph = buffers_.graph();
  const VertexId n = graph.num_vertices();
  const VertexId step = std::max<VertexId>(1, n / kAheadSampleVertices);
  struct Seen {
    VertexId source = 0;  // the first vertex read with the key
    std::size_t count = 0;
  };
  std::unordered_map<std::uint64_t, Seen> seen;
  {
    const ProfileScope scope(*this);
    for (VertexId v = 0; v < n; v += step) {
      if (graph.out_degree(v) == 0) continue;
      use_profile(start_profile(v));  // first_choice_slot packs it in
      Seen& s = seen.try_emplace(first_choice_slot(first_choice_key(v)), Seen{v, 0}).first->second;
      ++s.count;
    }
  }
  std::vector<Seen> keys;
  keys.reserve(seen.size());
  for (const auto& [slot, s] : seen) keys.push_back(s);
  const std::size_t decided = std::min(keys.size(), kAheadKeys);
  // The most frequent first; ties by the vertex, so that the keys decided do not depend on the
  // map's order.
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(decided), keys.end(),
                    [](const Seen& a, const Seen& b) { return a.count != b.count ? a.count > b.count : a.source < b.source; });
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < decided && std::chrono::steady_clock::now() - start < kAheadBudget; ++k) {
    decide_first_level(keys[k].source, true);
  }
}

Executor::FirstChoiceKey Executor::first_choice_key(VertexId source) const {
  FirstChoiceKey key;
  key.out_degree = buffers_.graph().out_degree(source);
  if (key.out_degree <= kCountedLevelOneDegree) {
    key.level_one_class = 1 + GraphStats::degree_class(level_one_shape(source, key.out_degree).frontier_edges);
  }
  return key;
}

std::uint64_t Executor::first_choice_slot(const FirstChoiceKey& key) const noexcept {
  // Out-degree in the low 40 bits, level 1's class (< 64) above it, the profile in the top 16.
  constexpr std::uint64_t kDegreeMask = (std::uint64_t{1} << 40) - 1;
  return std::min<std::uint64_t>(key.out_degree, kDegreeMask) | (std::uint64_t{key.level_one_class & 63} << 40) |
         (std::uint64_t{active_profile_} << 48);
}

bool Executor::decides_ahead() const noexcept {
  return models_ != nullptr && forced_ == nullptr && schedule_.empty() && !warming_ && samples_ == nullptr &&
         options_.flags != PlanFlags::Exhaustive;
}

const Executor::FirstChoice* Executor::first_choice_for(const FirstChoiceKey& key) const {
  if (!decides_ahead()) return nullptr;
  const auto found = first_choices_.find(first_choice_slot(key));
  if (found == first_choices_.end()) return nullptr;
  const FirstChoice& f = found->second;
  // Where this BFS may explore and that decision had a candidate to explore, it decides.
  return f.settled && !(explore_first_level_ && f.choice.explorable) ? &f : nullptr;
}

void Executor::keep_first_choice(const FirstChoiceKey& key, const Choice& choice, bool planned) {
  const std::uint64_t slot = first_choice_slot(key);
  auto kept = first_choices_.find(slot);
  if (kept == first_choices_.end() && first_choices_.size() >= kFirstChoices) {
    const auto oldest = std::min_element(first_choices_.begin(), first_choices_.end(), [](const auto& a, const auto& b) {
      return a.second.decided < b.second.decided;
    });
    first_choices_.erase(oldest);  // the least recently decided
  }
  FirstChoice entry;
  entry.choice = choice;
  entry.choice.explore_bonus_us = 0.0;
  entry.extra_us = first_level_extra_us_;  // in its price (choose_by_model)
  entry.planned = planned;
  entry.decided = ++first_choice_sequence_;
  if (kept != first_choices_.end()) {
    entry.settled = kept->second.choice.strategy == choice.strategy;
    kept->second = std::move(entry);
  } else {
    first_choices_.emplace(slot, std::move(entry));
  }
}

Executor::LevelDraft& Executor::draft(std::size_t index) {
  if (index == drafts_.size()) return drafts_.emplace_back();
  LevelDraft& d = drafts_[index];
  std::string reason = std::move(d.reason);  // keeps its storage
  reason.clear();
  d = LevelDraft{};
  d.reason = std::move(reason);
  return d;
}

void Executor::write_records(std::size_t used, BfsResult& result) {
  for (std::size_t k = 0; k < used; ++k) {
    const LevelDraft& d = drafts_[k];
    LevelRecord& r = reuse_record(result.levels, k);
    r.level = d.level;
    r.frontier_vertices = d.frontier_vertices;
    r.frontier_edges = d.frontier_edges;
    r.strategy = d.strategy;
    r.reason = d.reason;
    // After the choice's reason, which is prepended once the BFS is timed (pending_reasons_).
    if (d.from_gate) r.reason += "; launched ahead by the level before, its gate opened by this decision";
    if (d.decided_ahead) {
      r.reason += d.ahead_planned
                      ? "; decided ahead: the level-0 choice made for sources of this out-degree as the plan was built"
                      : "; decided ahead: the level-0 choice after the last BFS from a source of this out-degree";
    }
    if (d.runner_up != nullptr) r.runner_up = d.runner_up;
    r.runner_up_predicted_us = d.runner_up_predicted_us;
    r.predicted_us = d.predicted_us;
    r.predicted_conversion_us = d.predicted_conversion_us;
    r.time_us = d.time_us;
    r.device_us = d.device_us;
    r.conversion_us = d.conversion_us;
    r.executor_us = d.executor_us;
  }
  result.levels.resize(used);
}

void Executor::warm_next_decision() {
  const WarmFrom& w = warm_from_;
  const VertexId n = buffers_.num_vertices();
  const EdgeOffset m = buffers_.graph().num_edges();
  const std::size_t next = matching_profile_level(w.end, w.frontier_vertices) + 1;
  VertexId vertices = w.frontier_vertices;
  EdgeOffset edges = w.frontier_edges;
  if (next < profile_.levels.size() && profile_.levels[next].frontier_vertices > 0) {
    vertices = profile_.levels[next].frontier_vertices;
    edges = profile_.levels[next].frontier_edges;
  }
  const VertexId visited = w.end + std::min(vertices, n - std::min(n, w.end));
  if (visited == w.end) return;
  const EdgeOffset expanded = std::min(m, w.edges_out_of_reached + w.frontier_edges);
  edges = std::min(edges, m - expanded);
  Placement placement = w.placement;
  after_run(*w.strategy, placement, w.level + 1, visited);
  const strategies::FrontierState state =
      frontier_state(w.level + 1, visited - w.end, visited, edges, expanded, placement);
  warm_choice_ = choose_by_model(state, placement, visited).strategy;
}

LevelRecord& Executor::reuse_record(std::vector<LevelRecord>& levels, std::size_t index) {
  if (index == levels.size()) return levels.emplace_back();
  LevelRecord& record = levels[index];
  // Every field back to its default, the strings and trials keeping their storage: no
  // allocation a level once the vector has been through a BFS as long.
  std::string strategy = std::move(record.strategy);
  std::string reason = std::move(record.reason);
  std::string runner_up = std::move(record.runner_up);
  std::vector<StrategyTrial> trials = std::move(record.trials);
  record = LevelRecord{};
  strategy.clear();
  reason.clear();
  runner_up.clear();
  trials.clear();
  record.strategy = std::move(strategy);
  record.reason = std::move(reason);
  record.runner_up = std::move(runner_up);
  record.trials = std::move(trials);
  return record;
}

void Executor::expand_device_runs(BfsResult& result) {
  if (device_runs_.empty()) return;
  std::vector<LevelRecord>& levels = levels_scratch_;
  levels.clear();
  std::size_t next_run = 0;
  // The log's host pace, as run_on_host's against the stay test's prices: a host run's levels
  // are priced by this BFS's earlier carried host levels (HostPace).
  HostPace pace;
  for (std::size_t i = 0; i < result.levels.size(); ++i) {
    levels.push_back(std::move(result.levels[i]));
    if (next_run >= device_runs_.size() || device_runs_[next_run].record != i) continue;
    const DeviceRun& run = device_runs_[next_run++];
    const int first_level = levels.back().level;
    VertexId visited = run.visited;
    EdgeOffset expanded = run.expanded;
    std::size_t next_test = run.tests_at;
    for (int k = 0; k < run.carried; ++k) {
      const detail::DeviceLevelRecord& d = carried_levels_[run.carried_at + static_cast<std::size_t>(k)];
      HostTestTime test;  // the run's record k + 1 (record 0 is the run's own level)
      if (next_test < run.tests_at + run.tests && carried_tests_[next_test].level == static_cast<std::uint32_t>(k + 1)) {
        test = carried_tests_[next_test++];
      }
      const detail::DeviceLevelRecord& previous =
          k == 0 ? run.first : carried_levels_[run.carried_at + static_cast<std::size_t>(k) - 1];
      const double us = static_cast<double>(d.end_ns - d.start_ns) / 1000.0;
      const bool on_host = run.strategy == host_strategy_;
      LevelRecord next;
      next.level = first_level + 1 + k;
      next.frontier_vertices = d.frontier_vertices;
      next.frontier_edges = d.frontier_edges;
      next.strategy = run.strategy->name();
      next.time_us = us;
      next.device_us = on_host ? 0.0 : us;
      next.reason = on_host        ? "continued on the host (host run)"
                    : d.kernel == 0 ? "continued on the device (one-block loop)"
                                    : "continued on the device (grid level, device-launched)";
      visited += d.frontier_vertices;
      const strategies::CostFeatures features = run.strategy->cost_features(
          continued_state(next.level, d, previous, visited, expanded, on_host ? Location::Host : Location::Device),
          stats_);
      expanded += d.frontier_edges;
      const bool grid = !on_host && d.kernel != 0;
      const int group = carried_group(grid, d.frontier_vertices, d.frontier_edges);
      // A host run's level: its stay test's part is the executor's (HostTestTime), the rest the
      // expansion's, which the carried price is of.
      const double expansion_us = us - static_cast<double>(test.us);
      next.executor_us = test.us;
      next.predicted_us = predict_carried_us(*run.strategy, features, d.frontier_edges, group);
      observe(run.strategy, d.frontier_edges, group, next.predicted_us, expansion_us);  // unpaced: see HostPace
      if (run.paced) {
        const double unpaced = next.predicted_us;
        next.predicted_us *= pace.factor();
        pace.note(unpaced, expansion_us);
      }
      if (test.test != HostTest::None) {
        next.predicted_us += host_test_us(test.test);
        learn_host_test(test);
      }
      if (samples_ != nullptr) samples_->push_back({run.strategy->name(), features, expansion_us});
      if (models_ == nullptr && run.strategy == block_strategy_ && !on_host && d.kernel == 0) {
        carried_block_records_.push_back(levels.size());  // sample_levels
      }
      levels.push_back(std::move(next));
    }
    if (run.stop_reason != nullptr) levels.back().reason += std::string("; handed over: ") + run.stop_reason;
    if (run.handed_back) levels.back().reason += handback_prices(run.handback);
  }
  std::swap(result.levels, levels);
}

double Executor::last_level_overhead_us() const { return quantile(level_overheads_, 0.5); }

double Executor::host_test_us(HostTest test) const {
  auto kind = static_cast<std::size_t>(test) - 1;
  if (host_tests_seen_[kind] == 0) kind = static_cast<std::size_t>(HostTest::Stay) - 1;
  const std::size_t count = std::min(host_tests_seen_[kind], kHostTestWindow);
  return count == 0 ? 0.0 : lower_median(host_tests_[kind], count);
}

void Executor::learn_host_test(HostTestTime time) {
  const auto kind = static_cast<std::size_t>(time.test) - 1;
  host_tests_[kind][host_tests_seen_[kind]++ % kHostTestWindow] = time.us;
}

std::string Executor::lookahead_reason(std::size_t level) const {
  std::string reason;
  char text[160];
  for (const RunLookahead* run : {&profile_.block_run, &profile_.dp_run}) {
    if (level >= run->end.size()) continue;
    const char* name = run == &profile_.dp_run ? "dynamic_parallel" : "one_block";
    const std::size_t stop = run->end[level];
    if (stop == level) {
      const double stay = run->prefix[level + 1] - run->prefix[level] + run->to_go(level + 1);
      std::snprintf(text, sizeof text, "; a %s run reaching this level stops before it (%.1f us off it, %.1f carrying on)",
                    name, run->stop_us(level), stay);
    } else if (stop + 1 < run->end.size()) {
      std::snprintf(text, sizeof text, "; a %s run reaching this level carries it and stops before level %zu", name,
                    stop);
    } else {
      std::snprintf(text, sizeof text, "; a %s run reaching this level carries the BFS to its end", name);
    }
    reason += text;
  }
  return reason;
}

std::vector<LevelRecord> Executor::predict_profile() {
  std::vector<LevelRecord> schedule;
  if (models_ == nullptr) return schedule;
  const ProfileScope scope(*this);  // the largest while this prices it
  use_profile(profile_reaches_.empty() ? 0 : profile_reaches_.size() - 1);
  level_zero_source_ = stats_.sampled_source;  // the profile's (its level 0's neighbourhood)
  Placement placement;
  VertexId end = 1;
  const std::vector<strategies::FrontierState> states = profile_states();
  for (std::size_t i = 0; i < std::min(states.size(), profile_.stop_level); ++i) {
    strategies::FrontierState state = states[i];
    state.location = placement.location;
    state.representation =
        placement.bitmap_level == state.level ? FrontierRepresentation::Bitmap : FrontierRepresentation::Queue;
    const Choice choice = choose_by_model(state, placement, end);
    LevelRecord record;
    record.level = state.level;
    record.frontier_vertices = state.frontier_vertices;
    record.frontier_edges = state.frontier_edges;
    record.strategy = choice.strategy->name();
    record.predicted_us = choice.predicted_us;
    record.predicted_conversion_us = choice.predicted_conversion_us;
    if (choice.runner_up != nullptr) record.runner_up = choice.runner_up;
    record.runner_up_predicted_us = choice.runner_up_predicted_us;
    record.reason = choice.deferred_reason ? format_reason(choice.model_reason) : choice.reason;
    record.reason += lookahead_reason(i);
    schedule.push_back(std::move(record));
    end += i + 1 < states.size() ? states[i + 1].frontier_vertices : 0;
    after_run(*choice.strategy, placement, state.level + 1, end);
  }
  return schedule;
}

}  // namespace abfs::detail
