// calibrate(): measure the device's mechanisms, then time every strategy at every level of BFSs
// over generated graphs (Exhaustive trials from checkpointed state) and fit the cost models.
//
// The sweep graphs cover the frontier shapes the strategies meet: Kronecker (skewed degrees, a
// few huge levels), uniform random out-degree (directed, even degrees, a dozen levels), and a
// 2-D grid (hundreds of tiny levels, like road networks and meshes), at two sizes each so that
// per-vertex and per-arc terms separate from fixed costs; the larger uniform graphs are several
// times the H100's L2 and the host core's caches, so that the *dram* terms have samples: the
// 2^24-vertex one (2^25 patient) has per-vertex arrays of 270 MB (540), most of whose random
// writes miss the L2 (device_vertex_miss_share 0.81, 0.90), as on graphs of 10^8 vertices.

#include <abfs/error.hpp>
#include <abfs/plan.hpp>

#include "planner/cost_model.hpp"
#include "planner/executor.hpp"
#include "runtime/device_probes.hpp"
#include "runtime/resources.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

namespace abfs {
namespace {

// Strategies that expand one level per call (the executor decides before each of them).
std::vector<std::string> single_level_strategy_names() {
  std::vector<std::string> names;
  for (const auto& entry : strategies::registry()) {
    const std::string name = entry.name;
    if (name != "one_block" && name != "dynamic_parallel") names.push_back(name);
  }
  return names;
}

std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

/// The coefficient of `feature` in fit, if the fit has that feature.
std::optional<double> coefficient_of(const CostModelFit& fit, const std::string& feature) {
  for (std::size_t i = 0; i < fit.features.size() && i < fit.coefficients.size(); ++i) {
    if (fit.features[i] == feature) return fit.coefficients[i];
  }
  return std::nullopt;
}

/// The level profile of a BFS from each source (LevelShape, with the bottom-up scans), from one
/// device BFS each by privatized_queue: every BFS of a source has the same levels. Computed once
/// per graph: an Exhaustive executor's own sampled BFS was a whole per-level oracle run (with
/// its trials); without them a quick calibration took 48 s on the H100 instead of 58-74
/// (2026-11-24).
std::vector<std::vector<LevelShape>> own_profiles(const Graph& graph, const std::vector<VertexId>& sources,
                                                  int device) {
  PlanOptions options;
  options.strategy = "privatized_queue";
  options.device = device;
  detail::Executor executor(graph, options, true);
  std::vector<std::vector<LevelShape>> profiles;
  for (VertexId source : sources) profiles.push_back(executor.sample_levels(source));
  return profiles;
}

/// One BFS from source, its levels' samples added to sink, after setting the source's own level
/// profile (own_profiles), so that the features taken from the profile (bottom-up scans,
/// discoveries) are exact. Leaves the executor collecting into sink.
void execute_with_own_profile(detail::Executor& executor, VertexId source, const std::vector<LevelShape>& profile,
                              std::vector<detail::CostSample>& sink, BfsResult& result) {
  executor.set_level_profile(profile);
  executor.collect_samples(&sink);
  executor.execute(source, result);
}

/// Writes samples as CSV (CalibrationOptions::samples_csv): a header, then per sample its graph,
/// model, measured microseconds and features as name=value, to path.part renamed to path once
/// complete. @throws Error if the file cannot be written.
void write_samples_csv(const std::string& path, const std::vector<detail::CostSample>& samples,
                       const std::vector<std::string>& graphs) {
  const std::string part = path + ".part";
  {
    std::ofstream out(part);
    out << "graph,model,measured_us,features\n";
    out.precision(9);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const detail::CostSample& s = samples[i];
      out << graphs[i] << ',' << s.model << ',' << s.measured_us << ',';
      for (int f = 0; f < s.features.size; ++f) {
        const auto k = static_cast<std::size_t>(f);
        out << (f > 0 ? ";" : "") << s.features.names[k] << '=' << s.features.values[k];
      }
      out << '\n';
    }
    out.flush();
    if (!out) {
      std::remove(part.c_str());
      throw Error("calibrate: cannot write the samples to " + part);
    }
  }
  if (std::rename(part.c_str(), path.c_str()) != 0) {
    std::remove(part.c_str());
    throw Error("calibrate: cannot rename " + part + " to " + path);
  }
}

}  // namespace

DeviceWisdom calibrate(const CalibrationOptions& options) {
  if (cuda_device_count() <= options.device) throw InvalidArgument("calibrate: no CUDA device " + std::to_string(options.device));
  const bool patient = options.level == CalibrationLevel::Patient;
  // Sweep graphs and BFS sources per graph. Quick: 37 s on the H100 without the 2^24-vertex
  // graph (2026-11-22); with it 58 and 74 s when each source's profile came from the
  // executor's own BFS, 48 s (three calibrations) with own_profiles (2026-11-24).
  const std::vector<std::string> graphs =
      patient ? std::vector<std::string>{"kron:16", "kron:20", "kron:22", "uniform:262144:8", "uniform:4194304:8",
                                         "uniform:1048576:16", "uniform:33554432:4", "grid:256:256", "grid:64:8192",
                                         "grid:1024:1024"}
              : std::vector<std::string>{"kron:15", "kron:19", "uniform:262144:8", "uniform:4194304:8",
                                         "uniform:16777216:4", "grid:128:256", "grid:32:2048"};
  const int sources = patient ? 4 : 2;
  const double probe_share = 0.15;
  auto progress = [&](double fraction, const std::string& what) {
    if (options.progress) options.progress(fraction, what);
  };

  DeviceWisdom entry;
  entry.fingerprint = current_device_fingerprint(options.device);
  entry.host_cpu = host_cpu_name();
  entry.host_threads = omp_get_max_threads();
  entry.calibration = patient ? "patient" : "quick";
  entry.measurements = detail::measure_device_probes(patient, [&](const std::string& step) { progress(0.0, step); });
  progress(probe_share * 0.9, "level-loop mechanisms: tail launch, device graph launch, graph WHILE node");
  for (const auto& [name, us] : strategies::probe_level_loop_mechanisms(patient)) entry.measurements[name] = us;
  progress(probe_share * 0.95, "host serial expansion; OpenMP team wake after a pause");
  // The serial probes first, on a quiet host: after the OpenMP probes the team's threads spin
  // for a while on the cores beside this one.
  entry.measurements["cpu_serial_edge_us"] = strategies::measure_serial_arc_us(patient ? 21 : 9);
  entry.measurements["cpu_serial_level_us"] = strategies::measure_serial_level_us(patient ? 21 : 9);
  entry.measurements["cpu_serial_discovery_us"] = strategies::measure_serial_discovery_us(
      patient ? 21 : 9, entry.measurements["cpu_serial_edge_us"], entry.measurements["cpu_serial_level_us"]);
  // 10 ms pauses: libgomp's threads have long stopped spinning.
  entry.measurements["cpu_team_wake_us"] = detail::measure_team_wake_us(patient ? 21 : 9, 10);
  entry.measurements["cpu_parallel_region_us"] = detail::measure_parallel_region_us(patient ? 21 : 9);

  std::vector<detail::CostSample> samples;
  std::vector<std::string> sample_graphs;  // the sweep graph of each sample
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    progress(probe_share + (1.0 - probe_share) * static_cast<double>(g) / static_cast<double>(graphs.size()),
             "strategies on " + graphs[g]);
    const Graph graph = open_graph(graphs[g]);
    PlanOptions plan_options;
    plan_options.flags = PlanFlags::Exhaustive;
    plan_options.device = options.device;
    std::vector<detail::CostSample> graph_samples;
    const std::vector<VertexId> bfs_sources = random_sources(graph, sources, g + 1);
    const std::vector<std::vector<LevelShape>> profiles = own_profiles(graph, bfs_sources, options.device);
    BfsResult result;
    {
      // Every strategy at every level, from checkpoints (and the conversions, synchronized).
      // Single-level strategies are fitted from the forced runs below instead: a trial from a
      // checkpoint runs warm and alone, and a host level measured so took 0.5-1 us where the
      // same level inside a plan took 2-5 us (luxembourg_osm, rome99; H100 host, 2026-11-22).
      // Device-driven runs keep their trials, which start them at every level.
      detail::Executor executor(graph, plan_options, true);
      std::vector<detail::CostSample> trial_samples;
      for (std::size_t i = 0; i < bfs_sources.size(); ++i) {
        execute_with_own_profile(executor, bfs_sources[i], profiles[i], trial_samples, result);
      }
      const std::vector<std::string> single = single_level_strategy_names();
      for (auto& sample : trial_samples) {
        if (std::find(single.begin(), single.end(), sample.model) == single.end()) {
          graph_samples.push_back(std::move(sample));
        }
      }
    }
    // Each strategy forced through whole BFSs: levels as a plan runs them (caches, the
    // executor's own work between levels).
    for (const auto& name : strategy_names()) {
      PlanOptions forced;
      forced.strategy = name;
      forced.device = options.device;
      detail::Executor executor(graph, forced, true);
      std::vector<detail::CostSample> forced_samples;
      executor.execute(bfs_sources.front(), result);  // warm-up
      for (std::size_t i = 0; i < bfs_sources.size(); ++i) {
        execute_with_own_profile(executor, bfs_sources[i], profiles[i], forced_samples, result);
      }
      executor.collect_samples(nullptr);
      for (auto& sample : forced_samples) {
        // Uploads too: a forced device strategy's first one is the plan's first upload.
        if (sample.model == name || sample.model == detail::kToDevice) graph_samples.push_back(std::move(sample));
      }
    }
    // Every graph weighs about the same in the fits: a grid's trials carry hundreds of
    // thousands of continued one-block levels, a Kronecker graph's a few dozen levels. Keep an
    // evenly strided subset of at most kMaxSamples per model and graph.
    constexpr std::size_t kMaxSamples = 4000;
    std::map<std::string, std::vector<detail::CostSample*>> per_model;
    for (auto& sample : graph_samples) per_model[sample.model].push_back(&sample);
    for (auto& [name, list] : per_model) {
      const double stride = std::max(1.0, static_cast<double>(list.size()) / kMaxSamples);
      for (double at = 0; at < static_cast<double>(list.size()); at += stride) {
        samples.push_back(std::move(*list[static_cast<std::size_t>(at)]));
        sample_graphs.push_back(graphs[g]);
      }
    }
  }
  if (!options.samples_csv.empty()) write_samples_csv(options.samples_csv, samples, sample_graphs);
  progress(0.98, "fitting cost models");
  std::map<std::string, std::vector<detail::CostSample>> by_model;
  for (auto& s : samples) by_model[s.model].push_back(std::move(s));
  // one_block first: dynamic_parallel's one-block levels are priced by its fit (below).
  std::vector<std::string> fit_order;
  for (const auto& model_samples : by_model) fit_order.push_back(model_samples.first);
  std::stable_partition(fit_order.begin(), fit_order.end(), [](const std::string& name) { return name == "one_block"; });
  for (const std::string& name : fit_order) {
    const std::vector<detail::CostSample>& model_samples = by_model[name];
    // cpu_expand's host terms are the probes': no sample has a cold team (cost_features), and
    // a parallel level's fixed cost, fitted, moved 0-10 us between quick calibrations of one
    // host (42 parallel samples, collinear arc terms) and absorbed a sleeping team's ~120 us a
    // region where the wait policy was passive (H100 host, 2026-11-24). Each process replaces
    // both by its own (Executor::set_models). A serial arc is the probe's too
    // (measure_serial_arc_us): fitted beside the discovery terms it went to 0. So is a serial
    // level's fixed cost (measure_serial_level_us): a quick calibration on a busy host fitted
    // it to 0 with three more terms, which priced a carried host level with no arcs at 0 us
    // (H100 host, 2026-11-25).
    std::map<std::string, double> fixed;
    if (name == "cpu_expand") {
      fixed = {{"team_wake", entry.measurements["cpu_team_wake_us"]},
               {"parallel_level", entry.measurements["cpu_parallel_region_us"]},
               {"serial_edges", entry.measurements["cpu_serial_edge_us"]},
               {"serial_level", entry.measurements["cpu_serial_level_us"]}};
      // A serial discovery is the probe's too (measure_serial_discovery_us), less the fit's
      // frontier_vertices term (the probe's vertices are each discovered and then expanded).
      // Fitted, it came to ~1 ns: the sweep's small graphs are a grid, whose row-major ids and
      // regular visited / unvisited pattern make its levels cheap, and Kronecker graphs, whose
      // levels discover nearly every arc or nearly none. The real graphs' serial host levels
      // took 2.1-4.2x their price before the online correction (medians by graph over the
      // levels a host run carried, 100 arcs or more: ca-AstroPh-lcc, cnr-2000, email-Enron,
      // luxembourg_osm, rgg_n_2_16_s0, rome99, soc-Slashdot0902, uk-2007-05@100000, wave),
      // 14-36 ns a discovery beyond it; the probe measured 23.7 ns (H100 host, 2026-11-27;
      // since cpu_expand 11 the probe's graph is smaller and its degrees vary: see
      // measure_serial_discovery_us).
      // The sweep's own levels are then priced high (the fit's median error 117%, was 12%):
      // the model is for the real graphs the plans run, not for the sweep.
      if (const auto fv = coefficient_of(detail::fit_cost_model(model_samples, fixed), "frontier_vertices")) {
        fixed["frontier_vertices"] = *fv;
        fixed["serial_discovered"] = std::max(0.0, entry.measurements["cpu_serial_discovery_us"] - *fv);
      }
    }
    // one_block's arcs take the fit without its discoveries, and the discoveries are fitted on
    // what is left: in the sweep's one-block levels (the first levels of the uniform and
    // Kronecker graphs, a grid's) nearly every arc discovers a vertex, and fitted together the
    // arcs went to 0 (a discovery 2.9 ns). Levels of real graphs with many arcs and few
    // discoveries then cost several times that price (cnr-2000's ~5,000 arcs discovering ~250:
    // 8-10 us, priced 2.7), and the per-level oracle's carried one-block levels of eleven graphs
    // had a p90 error of 57% (mean over the graphs) against 56% by arcs alone; fitted so (0.72 ns
    // an arc, 0.71 a discovery), 52% (H100, 2026-11-26).
    if (name == "one_block") {
      fixed = {{"discovered", 0.0}};
      if (const auto us = coefficient_of(detail::fit_cost_model(model_samples, fixed), "frontier_edges")) {
        fixed = {{"frontier_edges", *us}};
      }
    }
    // dynamic_parallel's one-block levels run one_block's loop (block_loop.cuh) and are priced
    // by one_block's fit of it. Fitted on their own, from the sweep's carried levels (a grid's
    // hundreds of tiny frontiers), their arcs went to 2.3e-5 us each and then to 0, where
    // one_block's fit has 7.2e-4: cnr-2000's carried levels of 2,500-6,800 arcs took 8.5-12 us
    // priced 2.2-3.0, and the plan left the host for a run that cost 1.4x the host's levels
    // (H100, 2026-11-26). So is a run's copy of the visited bitmap into shared memory and back
    // (the same code): fitted beside the run's fixed cost on the sweep's three graph sizes that
    // keep it there, it came to 5.8e-4 us a word against one_block's 1.8e-4, and a run from
    // uniform:1048576:8's level 0 (32,768 words) was priced 63.5 us against one_block's 47.2
    // where both took 38-51 (the per-level oracle's, dynamic_parallel's, 45-48): the plan
    // started one_block runs there and finished 1.16x the oracle (H100, 2026-11-26).
    if (name == "dynamic_parallel" && entry.models.count("one_block") != 0) {
      const CostModelFit& block = entry.models["one_block"];
      const std::pair<const char*, const char*> shared[] = {
          {"block_level", "level"},
          {"block_step", "block_step"},
          {"block_warp_edges", "warp_edges"},
          {"block_vertices", "frontier_vertices"},
          {"block_edges", "frontier_edges"},
          {"block_discovered", "discovered"},
          {"bitmap_words", "bitmap_words"}};
      for (const auto& [dp_feature, block_feature] : shared) {
        if (const auto us = coefficient_of(block, block_feature)) fixed[dp_feature] = *us;
      }
    }
    entry.models[name] = detail::fit_cost_model(model_samples, fixed);
  }
  progress(0.99, "executor overhead per level");
  {
    // The executor's own time per host-driven level (the decision by these models, the
    // bookkeeping), from a BFS of many small levels, each decided (no host runs).
    const Graph grid = open_graph("grid:16:4096");
    PlanOptions plain;
    plain.device = options.device;
    detail::Executor executor(grid, plain, true);
    executor.set_host_runs(false);
    auto models = std::make_shared<detail::ModelSet>();
    models->models = entry.models;
    executor.set_models(models, "calibration");
    executor.set_level_profile(executor.sample_levels(0));
    BfsResult result;
    std::vector<double> overheads;
    for (int r = 0; r < 3; ++r) {
      executor.execute(0, result);
      overheads.push_back(executor.last_level_overhead_us());
    }
    entry.measurements["executor_level_us"] = detail::quantile(overheads, 0.5);
  }
  if (entry.models.count("cpu_expand") != 0) {
    if (const auto us = coefficient_of(entry.models["cpu_expand"], "parallel_edges")) {
      entry.measurements["cpu_parallel_edge_us"] = *us;
    }
  }
  entry.calibrated = detail::utc_now();
  progress(1.0, "done");
  return entry;
}

}  // namespace abfs
