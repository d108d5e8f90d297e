// plan_bfs and Plan: device and wisdom lookup, the sampled level structure, Measure trials, and
// the public face of the executor.

#include <abfs/error.hpp>
#include <abfs/plan.hpp>

#include "planner/executor.hpp"
#include "runtime/resources.hpp"

#include <algorithm>
#include <chrono>

namespace abfs {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// Deterministic sources with at least one out-arc (vertex 0 if there is none).
std::vector<VertexId> pick_sources(const Graph& graph, int count, std::uint64_t seed) {
  std::vector<VertexId> sources = random_sources(graph, count, seed);
  if (sources.empty()) sources.push_back(0);
  return sources;
}

// Measure: the median of measured / predicted per strategy over the trial levels, clamped to
// [1/4, 4] so that one odd level cannot flip every decision.
std::map<std::string, double> measure_corrections(detail::Executor& executor, const Graph& graph,
                                                  const PlanOptions& options) {
  std::map<std::string, std::vector<double>> ratios;
  BfsResult result;
  auto add = [&](const BfsResult& r) {
    for (const auto& l : r.levels) {
      if (l.predicted_us > 0.0 && l.time_us > 0.0) ratios[l.strategy].push_back(l.time_us / l.predicted_us);
    }
  };
  for (VertexId s : pick_sources(graph, std::max(1, options.trial_sources), 7)) {
    executor.execute(s, result);
    add(result);
  }
  std::map<std::string, double> scale;
  for (auto& [name, values] : ratios) scale[name] = std::clamp(detail::quantile(values, 0.5), 0.25, 4.0);
  return scale;
}

}  // namespace

DeviceFingerprint current_device_fingerprint(int device) {
  const detail::DeviceInfo info = detail::select_device(device);
  DeviceFingerprint fp;
  fp.name = info.name;
  fp.compute_capability = info.compute_major * 10 + info.compute_minor;
  fp.multiprocessors = info.multiprocessors;
  fp.memory_bytes = info.memory_bytes;
  ABFS_CUDA_CHECK(cudaDriverGetVersion(&fp.driver_version));
  ABFS_CUDA_CHECK(cudaRuntimeGetVersion(&fp.runtime_version));
  for (const auto& entry : strategies::registry()) fp.strategies[entry.name] = entry.version;
  return fp;
}

struct Plan::Impl {
  Impl(const Graph& graph, Wisdom& wisdom, const PlanOptions& options) {
    const auto planning = std::chrono::steady_clock::now();
    phase_start = planning;
    const bool use_device = options.use_gpu && cuda_device_count() > options.device;
    if (use_device) {
      device_name = detail::select_device(options.device).name;
    } else {
      device_name = "host only";
      warnings.push_back(options.use_gpu ? "no CUDA device found: every level runs on the host (cpu_expand)"
                                         : "GPU disabled: every level runs on the host (cpu_expand)");
    }
    executor = std::make_unique<detail::Executor>(graph, options, use_device);
    mark("buffers");  // the executor's own phases after it
    for (const auto& phase : executor->construction_ms()) {
      phases.front().second -= phase.second;
      phases.push_back(phase);
    }
    if (!use_device) {
      if (options.flags == PlanFlags::WisdomOnly) throw WisdomError("WisdomOnly plan: no CUDA device, so no wisdom applies");
      executor->set_models(nullptr, "host only");
      return;
    }
    const bool model_decisions = options.strategy == "auto" && options.schedule.empty();
    const DeviceFingerprint fp = current_device_fingerprint(options.device);
    std::vector<std::string> why;
    DeviceWisdom* entry = wisdom.find(fp);
    if (entry == nullptr) {
      (void)static_cast<const Wisdom&>(wisdom).find(fp, &why);
      const std::string mismatch = "wisdom does not match this device: " + join(why, "; ");
      if (options.flags == PlanFlags::WisdomOnly) throw WisdomError("WisdomOnly plan: " + mismatch);
      if (model_decisions && options.missing_wisdom == MissingWisdom::Calibrate) {
        warnings.push_back(mismatch + "; ran a quick calibration");
        CalibrationOptions calibration;
        calibration.device = options.device;
        wisdom.put(calibrate(calibration));
        entry = wisdom.find(fp);
        mark("calibration");
      } else if (model_decisions) {
        warnings.push_back(mismatch + "; deciding by the built-in rule");
      }
    }
    // The sampled level structure: BFSs from random sources (levels' frontier sizes do not
    // depend on the strategies, so the built-in rule runs them), until two reach as many
    // vertices (within 10%: the same component, as a rule) or kProfileSources have run. A
    // connected graph samples two and keeps one; cnr-2000 keeps four (10 to 325,557 vertices).
    // Seed 2: not the sources of a run's --random-sources (seed 1 by default), which the
    // profile would match exactly. With their sources, a BFS in a sampled source's component
    // uses that one's profile once the executor has the components (Executor::learn_profile).
    constexpr int kProfileSources = 4;
    std::vector<std::vector<LevelShape>> profiles;
    std::vector<VertexId> sources, reaches;
    const std::vector<VertexId> picked = pick_sources(graph, kProfileSources, 2);
    // Every BFS a caller runs ends at its source's reach bound and starts with the profile of
    // its component or bound (Executor::find_components). Before the warm-up, which warms what
    // this host work left cold: found after the strategies' warming, the first BFS after it
    // (a profile trial's) taught level 0's price on the device 16 us more than before on
    // cnr-2000 (~48 ms of host work; H200, 2026-11-29).
    executor->find_components();
    mark("components");
    // The executor's first BFS runs on a device whose caches hold none of the graph yet: a
    // warm-up from the first source, whose levels do not teach the online correction
    // (Executor::learn_sampled_block_levels) as the sampled BFSs' then do.
    executor->warm_up(picked.front());
    mark("warm-up");
    // Where the plan will try its profiles (profile_trial_rounds), every picked source is
    // sampled: its candidates are the sources of the largest reach.
    const bool try_profiles = model_decisions && options.profile_trial_rounds > 0 &&
                              options.flags != PlanFlags::Exhaustive &&
                              graph.num_edges() <= detail::Executor::kMaxComponentArcs;
    for (VertexId source : picked) {
      profiles.push_back(executor->sample_levels(source));
      const VertexId reach = detail::profile_reach(profiles.back());
      const bool repeated =
          std::any_of(reaches.begin(), reaches.end(), [&](VertexId r) { return detail::similar_reach(r, reach); });
      sources.push_back(source);
      reaches.push_back(reach);
      if (repeated && !try_profiles) break;
    }
    executor->stats().sampled_source = sources[detail::distinct_profiles(reaches).back()];  // the one shown
    mark("sampled BFSs");
    executor->warm_strategies(executor->stats().sampled_source);
    executor->set_level_profiles(profiles, sources);
    mark("strategies");
    if (entry == nullptr) {
      executor->set_models(nullptr, "built-in rule (" + join(why, "; ") + ")");
      mark("models");
      return;
    }
    auto models = std::make_shared<detail::ModelSet>();
    models->models = entry->models;
    if (const auto it = entry->measurements.find("executor_level_us"); it != entry->measurements.end()) {
      models->level_overhead_us = it->second;
    }
    std::string source = "wisdom for " + fp.name + " (" + entry->calibration + " calibration " + entry->calibrated + ")";
    if (!entry->plans.empty() || options.flags == PlanFlags::Measure) {
      const std::string key = graph_fingerprint(graph);
      const auto tuned = entry->plans.find(key);
      if (tuned != entry->plans.end()) {
        models->scale = tuned->second.scale;
        source += ", measured plan for this graph (" + tuned->second.created + ")";
      } else if (options.flags == PlanFlags::Measure && model_decisions) {
        executor->set_models(models, source);
        TunedPlan plan;
        plan.graph_name = graph.name();
        plan.vertices = graph.num_vertices();
        plan.arcs = graph.num_edges();
        plan.directed = graph.directed();
        plan.flags = "measure";
        plan.trial_sources = std::max(1, options.trial_sources);
        plan.scale = measure_corrections(*executor, graph, options);
        plan.created = detail::utc_now();
        models->scale = plan.scale;
        entry->plans[key] = plan;
        source += ", measured now (" + std::to_string(plan.trial_sources) + " trial sources)";
      }
    }
    executor->set_models(models, model_decisions ? source : (options.strategy != "auto" ? "forced; predictions from " + source
                                                                                        : "schedule; predictions from " + source));
    mark("models");
    if (try_profiles) {
      try_sampled_profiles(profiles, sources, reaches, options.profile_trial_rounds);
      mark("sampled profiles tried");
    }
    // Rehearsals (PlanOptions::rehearsals): the corrections learn here, not in the caller's
    // first BFSs; the first and the last run the cheapest routes, those between explore. They
    // stop once they took 0.1 s or a tenth of the plan's construction before them, whichever
    // is more: each took 1.8 s on uniform:100000000:4 with a result of its own (the plan before
    // them 33 s), ~15 ms on kron:22 (H100 host, 2026-11-27). A tenth alone cut a 200 x 200
    // grid's to one, which teaches its host levels nothing (a class priced under a microsecond
    // holds its first rise). Not for the oracle, whose BFSs time every strategy at every level.
    if (model_decisions && options.flags != PlanFlags::Exhaustive && options.rehearsals > 0) {
      const auto rehearsing = std::chrono::steady_clock::now();
      const auto budget =
          std::max<std::chrono::steady_clock::duration>((rehearsing - planning) / 10, std::chrono::milliseconds(100));
      BfsResult scratch;
      for (int k = 0; k < options.rehearsals && std::chrono::steady_clock::now() - rehearsing <= budget; ++k) {
        executor->rehearse(sources[static_cast<std::size_t>(k) % sources.size()], k > 0 && k + 1 < options.rehearsals,
                           scratch);
      }
      mark("rehearsals");
    }
    if (model_decisions) {
      executor->decide_first_levels_ahead();
      mark("level 0 decided ahead");
    }
  }
  // PlanOptions::profile_trial_rounds: the candidates are the sampled sources whose reach is
  // the largest's; each candidate's profile, in place of the others of that reach, prices BFSs
  // from all of them, `rounds` times (the candidates' order rotating by round, so that the
  // corrections these BFSs teach favour none), and the one whose BFSs took the least is set.
  void try_sampled_profiles(const std::vector<std::vector<LevelShape>>& profiles, const std::vector<VertexId>& sources,
                            const std::vector<VertexId>& reaches, int rounds) {
    const VertexId largest = *std::max_element(reaches.begin(), reaches.end());
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < reaches.size(); ++k) {
      if (detail::similar_reach(reaches[k], largest)) candidates.push_back(k);
    }
    if (candidates.size() < 2) return;
    // The profiles with candidate c alone of the largest reach (set_level_profiles keeps the
    // first of a reach).
    auto set_candidate = [&](std::size_t c) {
      std::vector<std::vector<LevelShape>> kept;
      std::vector<VertexId> kept_sources;
      for (std::size_t k = 0; k < profiles.size(); ++k) {
        if (k != c && std::find(candidates.begin(), candidates.end(), k) != candidates.end()) continue;
        kept.push_back(profiles[k]);
        kept_sources.push_back(sources[k]);
      }
      executor->set_level_profiles(kept, kept_sources);
    };
    std::vector<double> total_ms(candidates.size(), 0.0);
    BfsResult scratch;
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t turn = 0; turn < candidates.size(); ++turn) {
        const std::size_t i = (turn + static_cast<std::size_t>(round)) % candidates.size();
        set_candidate(candidates[i]);
        for (const std::size_t k : candidates) {
          executor->execute(sources[k], scratch);
          total_ms[i] += scratch.total_ms;
        }
      }
    }
    const auto best = static_cast<std::size_t>(std::min_element(total_ms.begin(), total_ms.end()) - total_ms.begin());
    set_candidate(candidates[best]);
    executor->stats().sampled_source = sources[candidates[best]];  // (set_candidate: its levels shown)
  }
  // Adds the phase that ended now (construction_ms).
  void mark(const char* phase) {
    const auto now = std::chrono::steady_clock::now();
    phases.emplace_back(phase, std::chrono::duration<double, std::milli>(now - phase_start).count());
    phase_start = now;
  }
  std::unique_ptr<detail::Executor> executor;
  std::vector<std::string> warnings;
  std::string device_name;
  std::vector<std::pair<std::string, double>> phases;
  std::chrono::steady_clock::time_point phase_start;
};

Plan::Plan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

BfsResult Plan::execute(VertexId source) {
  BfsResult result;
  execute(source, result);
  return result;
}

void Plan::execute(VertexId source, BfsResult& result) { impl_->executor->execute(source, result); }

std::vector<std::string> Plan::strategies() const { return impl_->executor->strategy_names(); }
const std::vector<std::string>& Plan::warnings() const { return impl_->warnings; }
std::string Plan::device_name() const { return impl_->device_name; }
std::size_t Plan::huge_page_bytes() const { return impl_->executor->huge_page_bytes(); }
const std::vector<std::pair<std::string, double>>& Plan::construction_ms() const { return impl_->phases; }
const std::string& Plan::decision_source() const { return impl_->executor->decision_source(); }
const GraphStats& Plan::graph_stats() const { return impl_->executor->stats(); }
std::vector<LevelRecord> Plan::predicted_schedule() const { return impl_->executor->predict_profile(); }

Plan plan_bfs(const Graph& graph, Wisdom& wisdom, const PlanOptions& options) {
  ABFS_EXPECTS(options.device >= 0, "device ordinal must be non-negative");
  ABFS_EXPECTS(options.rehearsals >= 0, "rehearsals must be non-negative");
  return Plan(std::make_unique<Plan::Impl>(graph, wisdom, options));
}

Plan plan_bfs(const Graph& graph, const PlanOptions& options) {
  Wisdom wisdom = Wisdom::load_or_default();
  return plan_bfs(graph, wisdom, options);
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const auto& entry : strategies::registry()) names.emplace_back(entry.name);
  return names;
}

}  // namespace abfs
