// The abfs command-line tool: the only code in abfs that prints to stdout or exits.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>
#include <abfs/plan.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct RunArgs {
  std::string graph;
  std::int64_t source = -1;
  int random_sources = 0;
  std::uint64_t seed = 1;
  std::string strategy = "auto";
  bool validate = false;
  std::string log;
  bool cpu_only = false;
  std::uint64_t threshold = abfs::SwitchRule{}.cpu_max_frontier_edges;
  bool small_on_host = false;
  bool symmetrize = false;
  bool keep_self_loops = false;
  bool keep_duplicates = false;
  bool no_cache = false;
  std::string cache_dir;
  std::string mode = "estimate";
  std::string wisdom_file;
  bool no_calibrate = false;
  bool no_online_correction = false;
  int rehearsals = abfs::PlanOptions{}.rehearsals;
  int profile_trial_rounds = abfs::PlanOptions{}.profile_trial_rounds;
  bool cold_trials = false;
};

// The plan options every subcommand takes from the shared flags.
void apply_plan_flags(const RunArgs& args, abfs::PlanOptions& options) {
  options.missing_wisdom = args.no_calibrate ? abfs::MissingWisdom::Rule : abfs::MissingWisdom::Calibrate;
  options.online_correction = !args.no_online_correction;
  options.rehearsals = args.rehearsals;
  options.profile_trial_rounds = args.profile_trial_rounds;
  options.cold_trials = args.cold_trials;
}

std::string executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

// " (buffers 12.3 ms, warm-up 4.5 ms, ...)": Plan::construction_ms, for the plan line.
std::string construction_phases(const abfs::Plan& plan) {
  std::string out;
  char part[96];
  for (const auto& [phase, ms] : plan.construction_ms()) {
    std::snprintf(part, sizeof part, "%s%s %.1f ms", out.empty() ? " (" : ", ", phase.c_str(), ms);
    out += part;
  }
  return out.empty() ? out : out + ")";
}

// The bundled graph: $ABFS_DEFAULT_GRAPH, the source tree's data/, or data/ beside bin/ (as
// shipped by device-bundle).
std::string default_graph() {
  if (const char* env = std::getenv("ABFS_DEFAULT_GRAPH"); env != nullptr && *env) return env;
  const std::string built_in = ABFS_DEFAULT_GRAPH_PATH;
  const std::string name = std::filesystem::path(built_in).filename().string();
  for (const std::string& candidate : {built_in, executable_dir() + "/../data/" + name}) {
    if (std::filesystem::exists(candidate)) return candidate;
  }
  throw abfs::InvalidArgument("no GRAPH given and the bundled graph " + built_in + " is missing");
}

const char* cache_text(const abfs::LoadInfo& info) {
  switch (info.cache) {
    case abfs::LoadInfo::Cache::Hit: return "cache hit";
    case abfs::LoadInfo::Cache::Written: return "cache written";
    case abfs::LoadInfo::Cache::WriteFailed: return "cache not written";
    case abfs::LoadInfo::Cache::NotUsed: break;
  }
  return "no cache";
}

void print_levels(const abfs::BfsResult& r) {
  std::printf("%5s %12s %14s  %-17s %10s %10s %9s %10s  %-17s %10s  %s\n", "level", "frontier", "frontier_edges",
              "strategy", "time_us", "device_us", "convert", "predicted", "runner_up", "its_pred", "reason");
  for (const auto& l : r.levels) {
    std::printf("%5d %12u %14llu  %-17s %10.1f %10.1f %9.1f %10.1f  %-17s %10.1f  %s\n", l.level, l.frontier_vertices,
                static_cast<unsigned long long>(l.frontier_edges), l.strategy.c_str(), l.time_us, l.device_us,
                l.conversion_us, l.predicted_us + l.predicted_conversion_us, l.runner_up.empty() ? "-" : l.runner_up.c_str(),
                l.runner_up_predicted_us, l.reason.c_str());
  }
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

double mean(std::vector<double> values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Writes the per-level records of every run as CSV or JSON (by extension), atomically.
void write_log(const std::string& path, const abfs::Graph& g, const std::string& device, const std::string& decisions,
               const std::vector<abfs::BfsResult>& runs) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".csv" && ext != ".json") throw abfs::InvalidArgument("--log " + path + ": use a .csv or .json file");
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw abfs::InvalidArgument("--log: cannot write " + temporary);
    if (ext == ".csv") {
      out << "source,level,frontier_vertices,frontier_edges,strategy,time_us,device_us,conversion_us,executor_us,"
             "predicted_us,"
             "predicted_conversion_us,runner_up,runner_up_predicted_us,reason\n";
      for (const auto& r : runs) {
        for (const auto& l : r.levels) {
          out << r.source << ',' << l.level << ',' << l.frontier_vertices << ',' << l.frontier_edges << ','
              << l.strategy << ',' << l.time_us << ',' << l.device_us << ',' << l.conversion_us << ','
              << l.executor_us << ',' << l.predicted_us << ',' << l.predicted_conversion_us << ',' << l.runner_up << ','
              << l.runner_up_predicted_us << ",\"" << l.reason << "\"\n";
        }
      }
    } else {
      nlohmann::json doc;
      doc["graph"] = g.name();
      doc["vertices"] = g.num_vertices();
      doc["arcs"] = g.num_edges();
      doc["directed"] = g.directed();
      doc["device"] = device;
      doc["decisions"] = decisions;
      for (const auto& r : runs) {
        nlohmann::json run{{"source", r.source},
                           {"total_ms", r.total_ms},
                           {"oracle_ms", r.oracle_ms},
                           {"gteps", r.gteps()},
                           {"vertices_reached", r.vertices_reached},
                           {"edges_traversed", r.edges_traversed}};
        for (const auto& l : r.levels) {
          run["levels"].push_back({{"level", l.level},
                                   {"frontier_vertices", l.frontier_vertices},
                                   {"frontier_edges", l.frontier_edges},
                                   {"strategy", l.strategy},
                                   {"time_us", l.time_us},
                                   {"device_us", l.device_us},
                                   {"conversion_us", l.conversion_us},
                                   {"executor_us", l.executor_us},
                                   {"predicted_us", l.predicted_us},
                                   {"predicted_conversion_us", l.predicted_conversion_us},
                                   {"runner_up", l.runner_up},
                                   {"runner_up_predicted_us", l.runner_up_predicted_us},
                                   {"reason", l.reason}});
          if (!l.trials.empty()) {
            nlohmann::json& trials = run["levels"].back()["trials"];
            for (const auto& t : l.trials) {
              trials.push_back({{"strategy", t.strategy},
                                {"predicted_us", t.predicted_us},
                                {"measured_us", t.measured_us},
                                {"conversion_us", t.conversion_us},
                                {"levels", t.levels}});
            }
          }
        }
        doc["runs"].push_back(std::move(run));
      }
      out << doc.dump(1) << '\n';
    }
    if (!out.flush()) throw abfs::InvalidArgument("--log: write to " + temporary + " failed");
  }
  std::filesystem::rename(temporary, path);
}

abfs::PlanFlags parse_mode(const std::string& mode) {
  if (mode == "estimate") return abfs::PlanFlags::Estimate;
  if (mode == "measure") return abfs::PlanFlags::Measure;
  if (mode == "exhaustive") return abfs::PlanFlags::Exhaustive;
  if (mode == "wisdom-only") return abfs::PlanFlags::WisdomOnly;
  throw abfs::InvalidArgument("--mode " + mode + ": use estimate, measure, exhaustive or wisdom-only");
}

// The wisdom a command plans with: the shipped profiles plus --wisdom FILE, or the default
// set (shipped, system, user cache). What planning adds (a calibration, a Measure plan) is
// merged into FILE or the user cache, atomically.
struct WisdomStore {
  abfs::Wisdom wisdom;
  std::string path;
  std::string before;

  explicit WisdomStore(const std::string& file) {
    if (file.empty()) {
      wisdom = abfs::Wisdom::load_or_default();
      path = abfs::Wisdom::user_path();
    } else {
      wisdom = abfs::Wisdom::shipped();
      if (std::filesystem::exists(file)) wisdom.merge(abfs::Wisdom::load(file));
      path = file;
    }
    before = wisdom.to_yaml();
  }
  // Saves this device's entry if planning changed the wisdom; returns the path or "".
  std::string save_if_changed(int device) {
    if (wisdom.to_yaml() == before || abfs::cuda_device_count() <= device) return "";
    const abfs::DeviceWisdom* entry = wisdom.find(abfs::current_device_fingerprint(device));
    if (entry == nullptr) return "";
    abfs::Wisdom on_disk = std::filesystem::exists(path) ? abfs::Wisdom::load(path) : abfs::Wisdom();
    abfs::Wisdom update;
    update.put(*entry);
    on_disk.merge(update);
    on_disk.save(path);
    before = wisdom.to_yaml();
    return path;
  }
};

// Loads GRAPH (or the bundled graph) as the options say and prints its summary line.
abfs::Graph load_for(const RunArgs& args) {
  abfs::LoadOptions load;
  load.symmetrize = args.symmetrize;
  load.drop_self_loops = !args.keep_self_loops;
  load.drop_duplicate_edges = !args.keep_duplicates;
  load.use_cache = !args.no_cache;
  load.cache_dir = args.cache_dir;
  const std::string spec = args.graph.empty() ? default_graph() : args.graph;
  abfs::LoadInfo info;
  abfs::Graph g = abfs::open_graph(spec, load, &info);
  const abfs::GraphStats stats = abfs::compute_stats(g);
  std::printf("graph   %s: %u vertices, %llu arcs (%s), out-degree min/median/p90/p99/max %llu/%llu/%llu/%llu/%llu "
              "(mean %.2f), loaded in %.3f s (%s)\n",
              g.name().c_str(), stats.num_vertices, static_cast<unsigned long long>(stats.num_edges),
              stats.directed ? "directed" : "undirected", static_cast<unsigned long long>(stats.min_out_degree),
              static_cast<unsigned long long>(stats.median_out_degree),
              static_cast<unsigned long long>(stats.p90_out_degree), static_cast<unsigned long long>(stats.p99_out_degree),
              static_cast<unsigned long long>(stats.max_out_degree), stats.mean_out_degree, info.seconds,
              cache_text(info));
  if (info.cache == abfs::LoadInfo::Cache::WriteFailed) std::fprintf(stderr, "abfs: warning: %s\n", info.cache_problem.c_str());
  if (g.num_vertices() == 0) throw abfs::InvalidArgument("graph " + g.name() + " has no vertices");
  return g;
}

// K random sources with an out-arc (Graph500), fixed by seed.
std::vector<abfs::VertexId> sources_with_out_arcs(const abfs::Graph& g, int count, std::uint64_t seed) {
  std::vector<abfs::VertexId> sources = abfs::random_sources(g, count, seed);
  if (sources.empty()) throw abfs::InvalidArgument("graph " + g.name() + " has no vertex with an out-arc");
  return sources;
}

// plan_bfs, except that a graph too large for the device's free memory is planned on the host
// (cpu_expand) with a warning, unless a device strategy was asked for by name.
abfs::Plan plan_or_host(const abfs::Graph& g, abfs::Wisdom& wisdom, abfs::PlanOptions& options) {
  try {
    return abfs::plan_bfs(g, wisdom, options);
  } catch (const abfs::OutOfMemory& e) {
    if (!options.use_gpu || (options.strategy != "auto" && options.strategy != "cpu_expand")) throw;
    std::fprintf(stderr, "abfs: warning: %s; running on the CPU (cpu_expand) instead\n", e.what());
    options.use_gpu = false;
    return abfs::plan_bfs(g, wisdom, options);
  }
}

int run_command(const RunArgs& args) {
  const abfs::Graph g = load_for(args);

  abfs::PlanOptions options;
  options.flags = parse_mode(args.mode);
  apply_plan_flags(args, options);
  options.strategy = args.strategy;
  options.use_gpu = !args.cpu_only;
  options.rule.cpu_max_frontier_edges = args.threshold;
  options.rule.block_loop_for_small = !args.small_on_host;
  WisdomStore store(args.wisdom_file);
  const auto planning = std::chrono::steady_clock::now();
  abfs::Plan plan = plan_or_host(g, store.wisdom, options);
  const double plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - planning).count();
  for (const auto& w : plan.warnings()) std::fprintf(stderr, "abfs: warning: %s\n", w.c_str());
  if (const std::string saved = store.save_if_changed(options.device); !saved.empty()) {
    std::fprintf(stderr, "abfs: wisdom saved to %s\n", saved.c_str());
  }
  std::string names;
  for (const auto& s : plan.strategies()) names += (names.empty() ? "" : ", ") + s;
  std::printf("device  %s (strategies: %s)\nplan    %s, %s; built in %.1f ms%s\n"
              "host    %.0f MiB of the graph and BFS arrays in 2 MiB pages\n",
              plan.device_name().c_str(), names.c_str(), args.mode.c_str(), plan.decision_source().c_str(), plan_ms,
              construction_phases(plan).c_str(), static_cast<double>(plan.huge_page_bytes()) / (1 << 20));

  // Sources: one given (default 0), or K random vertices with at least one out-arc (Graph500).
  std::vector<abfs::VertexId> sources;
  if (args.random_sources > 0) {
    sources = sources_with_out_arcs(g, args.random_sources, args.seed);
  } else {
    const std::int64_t s = args.source < 0 ? 0 : args.source;
    if (s >= g.num_vertices()) {
      throw abfs::InvalidArgument("--source " + std::to_string(s) + " out of range: the graph has " +
                                  std::to_string(g.num_vertices()) + " vertices");
    }
    sources.push_back(static_cast<abfs::VertexId>(s));
  }

  abfs::BfsResult warmup;
  plan.execute(sources.front(), warmup);  // module load, first-touch and caches stay out of the numbers
  std::vector<abfs::BfsResult> runs(sources.size());
  bool all_valid = true;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    plan.execute(sources[i], runs[i]);
    if (args.validate) {
      const abfs::ValidationResult v = abfs::validate_bfs(g, sources[i], runs[i].distances, runs[i].parents);
      const abfs::BfsTree reference = abfs::reference_bfs(g, sources[i]);
      if (!v.ok) {
        std::fprintf(stderr, "abfs: validation failed for source %u: %s\n", sources[i], v.problem.c_str());
        all_valid = false;
      } else if (reference.distances != runs[i].distances) {
        std::fprintf(stderr, "abfs: validation failed for source %u: distances differ from the reference BFS\n",
                     sources[i]);
        all_valid = false;
      }
    }
  }

  std::printf("source  %u\n", sources.front());
  print_levels(runs.front());
  std::vector<double> ms, gteps;
  if (sources.size() > 1) {
    std::printf("\n%10s %10s %8s %12s %7s\n", "source", "ms", "GTEPS", "reached", "levels");
  }
  for (const auto& r : runs) {
    ms.push_back(r.total_ms);
    gteps.push_back(r.gteps());
    if (sources.size() > 1) {
      std::printf("%10u %10.3f %8.3f %12u %7zu\n", r.source, r.total_ms, r.gteps(), r.vertices_reached, r.levels.size());
    }
  }
  const auto& first = runs.front();
  if (options.flags == abfs::PlanFlags::Exhaustive) {
    std::vector<double> oracle;
    for (const auto& r : runs) oracle.push_back(r.oracle_ms);
    std::printf("oracle  %.3f ms (median over sources; the levels above are the oracle's chain, and total_ms below "
                "includes every trial)\n", median(oracle));
  }
  std::printf("%s %.3f ms, %.3f GTEPS, %u vertices reached (%.1f%%), %llu edges traversed, %zu levels%s\n",
              sources.size() > 1 ? "median over sources:" : "total", median(ms), median(gteps), first.vertices_reached,
              100.0 * first.vertices_reached / g.num_vertices(), static_cast<unsigned long long>(first.edges_traversed),
              first.levels.size(), sources.size() > 1 ? " (first source)" : "");
  if (args.validate) {
    std::printf("validation: %s (%zu source%s: Graph500 rules and reference BFS)\n", all_valid ? "ok" : "FAILED",
                sources.size(), sources.size() == 1 ? "" : "s");
  }
  if (!args.log.empty()) write_log(args.log, g, plan.device_name(), plan.decision_source(), runs);
  return all_valid ? 0 : 1;
}


// abfs calibrate: measure this device and fit the cost models; merge into the wisdom file.
int calibrate_command(bool patient, const std::string& out_path, int device, const std::string& samples_csv) {
  const std::string path = out_path.empty() ? abfs::Wisdom::user_path() : out_path;
  // Read the target first: a corrupt file stops us before a minute of measuring.
  abfs::Wisdom on_disk = std::filesystem::exists(path) ? abfs::Wisdom::load(path) : abfs::Wisdom();
  abfs::CalibrationOptions options;
  options.level = patient ? abfs::CalibrationLevel::Patient : abfs::CalibrationLevel::Quick;
  options.device = device;
  options.samples_csv = samples_csv;
  const bool tty = isatty(STDERR_FILENO) != 0;
  options.progress = [tty](double fraction, const std::string& what) {
    const int width = 30;
    const int filled = static_cast<int>(fraction * width + 0.5);
    std::fprintf(stderr, "%s[%.*s%*s] %3.0f%% %-48s%s", tty ? "\r" : "", filled, "##############################",
                 width - filled, "", 100.0 * fraction, what.c_str(), tty ? "" : "\n");
    std::fflush(stderr);
  };
  const auto start = std::chrono::steady_clock::now();
  abfs::DeviceWisdom entry = abfs::calibrate(options);
  if (tty) std::fprintf(stderr, "\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("calibrated %s (%s, %.1f s)\n", entry.fingerprint.name.c_str(), entry.calibration.c_str(), seconds);
  for (const auto& [name, value] : entry.measurements) std::printf("  %-28s %14.6g\n", name.c_str(), value);
  std::printf("  %-18s %8s %8s %8s  %s\n", "model", "samples", "median", "p90", "coefficients (us per unit)");
  for (const auto& [name, m] : entry.models) {
    std::string terms;
    for (std::size_t i = 0; i < m.features.size(); ++i) {
      char text[96];
      std::snprintf(text, sizeof text, "%s%s=%.4g", terms.empty() ? "" : " ", m.features[i].c_str(), m.coefficients[i]);
      terms += text;
    }
    std::printf("  %-18s %8d %7.1f%% %7.1f%%  %s\n", name.c_str(), m.samples, 100 * m.median_error, 100 * m.p90_error,
                terms.c_str());
  }
  abfs::Wisdom update;
  update.put(std::move(entry));
  on_disk.merge(update);
  on_disk.save(path);
  std::printf("wisdom written to %s\n", path.c_str());
  return 0;
}

// abfs plan: graph statistics, sampled level structure and the predicted schedule.
int plan_command(const RunArgs& args, bool reasons) {
  const abfs::Graph g = load_for(args);
  abfs::PlanOptions options;
  options.flags = parse_mode(args.mode);
  if (options.flags == abfs::PlanFlags::Exhaustive) throw abfs::InvalidArgument("abfs plan: --mode exhaustive runs BFS; use abfs run");
  apply_plan_flags(args, options);
  WisdomStore store(args.wisdom_file);
  const auto planning = std::chrono::steady_clock::now();
  abfs::Plan plan = plan_or_host(g, store.wisdom, options);
  const double plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - planning).count();
  for (const auto& w : plan.warnings()) std::fprintf(stderr, "abfs: warning: %s\n", w.c_str());
  if (const std::string saved = store.save_if_changed(options.device); !saved.empty()) {
    std::fprintf(stderr, "abfs: wisdom saved to %s\n", saved.c_str());
  }
  const abfs::GraphStats& stats = plan.graph_stats();
  std::printf("device  %s\nplan    %s, %s; built in %.1f ms%s\n", plan.device_name().c_str(), args.mode.c_str(),
              plan.decision_source().c_str(), plan_ms, construction_phases(plan).c_str());
  // The executor's profile holds one assumed level past the sampled BFS's end.
  std::printf("sample  BFS from %u: %zu levels, widest frontier %u vertices\n", stats.sampled_source,
              stats.sampled_levels.empty() ? std::size_t{0} : stats.sampled_levels.size() - 1,
              stats.sampled_levels.empty() ? 0u
                                           : std::max_element(stats.sampled_levels.begin(), stats.sampled_levels.end(),
                                                              [](const auto& a, const auto& b) {
                                                                return a.frontier_vertices < b.frontier_vertices;
                                                              })->frontier_vertices);
  const std::vector<abfs::LevelRecord> schedule = plan.predicted_schedule();
  if (schedule.empty()) {
    std::printf("no cost models: levels are decided by the built-in rule\n");
    return 0;
  }
  double total = 0.0;
  std::printf("%5s %12s %14s  %-17s %10s %9s  %-17s %10s\n", "level", "frontier", "frontier_edges", "strategy",
              "predicted", "convert", "runner_up", "its_pred");
  for (const auto& l : schedule) {
    total += l.predicted_us + l.predicted_conversion_us;
    std::printf("%5d %12u %14llu  %-17s %10.1f %9.1f  %-17s %10.1f\n", l.level, l.frontier_vertices,
                static_cast<unsigned long long>(l.frontier_edges), l.strategy.c_str(), l.predicted_us,
                l.predicted_conversion_us, l.runner_up.empty() ? "-" : l.runner_up.c_str(), l.runner_up_predicted_us);
    if (reasons) std::printf("      %s\n", l.reason.c_str());
  }
  std::printf("predicted total %.3f ms if every level were decided alone (a device-driven run carries the levels "
              "after it for less)\n", total / 1000.0);
  return 0;
}

// One plan's timings over the sources, for abfs compare.
struct PlanTiming {
  std::string name;
  std::vector<double> ms;
  std::vector<double> errors;  // per-level |predicted - measured| / measured
};

// abfs compare: the adaptive plan against every single strategy and the Exhaustive oracle.
// Every plan is built first. Then, in each of `rounds` rounds, every plan in turn runs one
// untimed BFS and then every source back to back, its results validated after its last source:
// each timed BFS follows a BFS of the same plan, as in a batch of sources, rather than a pause
// spent validating (after one, the host's first CUDA calls cost 30-100 us more:
// bench/idle_probe.cu) or another plan's BFS (which leaves the GPU's L2 holding its own copy
// of the graph). Rounds spread drift in the host's or the GPU's speed over all plans alike,
// and each round starts one plan later than the one before: a plan's place in the order weighs
// too (auto, always first, ran luxembourg_osm's first round right after the plans were built,
// 2.9-3.4 ms against 2.2-2.9 in the second; H100 host, 2026-11-22).
int compare_command(const RunArgs& args, int rounds, const std::string& json_path) {
  const abfs::Graph g = load_for(args);
  const std::vector<abfs::VertexId> sources = sources_with_out_arcs(g, std::max(1, args.random_sources), args.seed);
  WisdomStore store(args.wisdom_file);
  std::vector<std::string> names{"auto"};
  const bool device = abfs::cuda_device_count() > 0;
  for (const auto& name : abfs::strategy_names()) {
    if (device || name == "cpu_expand") names.push_back(name);
  }
  names.push_back("oracle");
  std::vector<abfs::Plan> plans;
  std::vector<PlanTiming> timings;
  std::string decisions;
  for (const auto& name : names) {
    abfs::PlanOptions options;
    options.flags = name == "oracle" ? abfs::PlanFlags::Exhaustive : parse_mode(args.mode);
    apply_plan_flags(args, options);
    options.strategy = name == "oracle" ? "auto" : name;
    plans.push_back(abfs::plan_bfs(g, store.wisdom, options));
    if (name == "auto") {
      decisions = plans.back().decision_source();
      for (const auto& w : plans.back().warnings()) std::fprintf(stderr, "abfs: warning: %s\n", w.c_str());
    }
    timings.push_back({name, {}, {}});
  }
  bool all_valid = true;
  nlohmann::json failures = nlohmann::json::array();  // every result that failed validation
  // With --log, every plan's runs without their distances and parents: the adaptive plan's,
  // the oracle's and the best single strategy's are written.
  std::vector<std::vector<abfs::BfsResult>> logged(plans.size());
  std::vector<abfs::BfsResult> results(sources.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t turn = 0; turn < plans.size(); ++turn) {
      const std::size_t p = (turn + static_cast<std::size_t>(round)) % plans.size();
      const std::string& name = names[p];
      plans[p].execute(sources.front(), results.front());  // warm-up
      for (std::size_t k = 0; k < sources.size(); ++k) plans[p].execute(sources[k], results[k]);
      for (std::size_t k = 0; k < sources.size(); ++k) {
        const abfs::BfsResult& run = results[k];
        const abfs::ValidationResult v = abfs::validate_bfs(g, sources[k], run.distances, run.parents);
        if (!v.ok) {
          std::fprintf(stderr, "abfs: %s from %u failed validation: %s\n", name.c_str(), sources[k],
                       v.problem.c_str());
          all_valid = false;
          failures.push_back({{"plan", name}, {"source", sources[k]}, {"round", round}, {"problem", v.problem}});
        }
        PlanTiming& t = timings[p];
        t.ms.push_back(name == "oracle" ? run.oracle_ms : run.total_ms);
        if (name == "auto") {
          for (const auto& l : run.levels) {
            const double measured = l.time_us + l.conversion_us;
            const double predicted = l.predicted_us + l.predicted_conversion_us;
            if (predicted > 0.0 && measured > 0.0) t.errors.push_back(std::abs(predicted - measured) / measured);
          }
        }
        if (!args.log.empty()) {
          abfs::BfsResult& kept = logged[p].emplace_back();
          kept.source = run.source;
          kept.total_ms = run.total_ms;
          kept.oracle_ms = run.oracle_ms;
          kept.vertices_reached = run.vertices_reached;
          kept.edges_traversed = run.edges_traversed;
          kept.levels = run.levels;
        }
      }
    }
  }
  if (const std::string saved = store.save_if_changed(0); !saved.empty()) {
    std::fprintf(stderr, "abfs: wisdom saved to %s\n", saved.c_str());
  }
  auto quantile = [](std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
  };
  std::printf("plan    %s, %s; %zu sources (seed %llu) x %d rounds, medians%s\n", args.mode.c_str(), decisions.c_str(),
              sources.size(), static_cast<unsigned long long>(args.seed), rounds,
              args.cold_trials ? "; the oracle's trials cold (L2 flushed before each)" : "");
  // Medians of the BFSs (the table), and means: where sources fall in groups of very different
  // BFS times (cnr-2000: 4 of 8 reach ~10 vertices), the median of an even count is half way
  // between the groups and the mean says more.
  struct Summary {
    double adaptive = 0.0, oracle = 0.0, best = 0.0;
    std::string best_name;
  };
  auto summarize = [&](double (*statistic)(std::vector<double>)) {
    Summary sum;
    sum.adaptive = statistic(timings.front().ms);
    sum.oracle = statistic(timings.back().ms);
    for (const auto& t : timings) {
      const double m = statistic(t.ms);
      if (t.name != "auto" && t.name != "oracle" && (sum.best_name.empty() || m < sum.best)) {
        sum.best = m;
        sum.best_name = t.name;
      }
    }
    return sum;
  };
  const Summary medians = summarize(median);
  const Summary means = summarize(mean);
  if (!args.log.empty()) {
    // FILE: the adaptive plan's levels; FILE's stem + .oracle: the oracle's; + .best: the best
    // single strategy's (by the median), forced, to set its levels beside the plan's.
    write_log(args.log, g, plans.front().device_name(), decisions, logged.front());
    const std::filesystem::path log(args.log);
    auto beside = [&](const std::string& tag) {
      return (log.parent_path() / (log.stem().string() + "." + tag + log.extension().string())).string();
    };
    write_log(beside("oracle"), g, plans.front().device_name(), "oracle", logged.back());
    const auto best = std::find(names.begin(), names.end(), medians.best_name);
    if (best != names.end()) {
      write_log(beside("best"), g, plans.front().device_name(), "forced " + medians.best_name,
                logged[static_cast<std::size_t>(best - names.begin())]);
    }
  }
  for (const auto& t : timings) std::printf("  %-18s %10.3f ms (mean %.3f)\n", t.name.c_str(), median(t.ms), mean(t.ms));
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  const auto& errors = timings.front().errors;
  std::printf("| %s | %s %.3f | %.3f | %.3f | %.2f | %.2f | %.0f%% | %.0f%% |\n", g.name().c_str(),
              medians.best_name.c_str(), medians.best, medians.adaptive, medians.oracle,
              ratio(medians.adaptive, medians.best), ratio(medians.adaptive, medians.oracle), 100 * quantile(errors, 0.5),
              100 * quantile(errors, 0.9));
  std::printf("mean    best single %s %.3f ms, adaptive %.3f, oracle %.3f: adaptive / best %.2f, adaptive / oracle %.2f\n",
              means.best_name.c_str(), means.best, means.adaptive, means.oracle, ratio(means.adaptive, means.best),
              ratio(means.adaptive, means.oracle));
  // Last, where a summary is read: a failed result voids the timings above (one that stopped
  // early is fast).
  std::printf("validation: %s (every plan's %zu BFSs: Graph500 rules)\n",
              all_valid ? "ok" : ("FAILED, " + std::to_string(failures.size()) + " results").c_str(),
              sources.size() * static_cast<std::size_t>(rounds));
  if (!json_path.empty()) {
    nlohmann::json doc{{"graph", g.name()}, {"sources", sources}, {"rounds", rounds}, {"decisions", decisions}};
    for (const auto& t : timings) {
      doc["plans"][t.name] = {{"median_ms", median(t.ms)}, {"mean_ms", mean(t.ms)}, {"ms", t.ms}};
    }
    doc["best_single"] = medians.best_name;
    doc["best_single_by_mean"] = means.best_name;
    doc["prediction_error_median"] = quantile(errors, 0.5);
    doc["prediction_error_p90"] = quantile(errors, 0.9);
    doc["levels_predicted"] = errors.size();
    doc["validation_failures"] = failures;
    std::ofstream out(json_path);
    out << doc.dump(1) << '\n';
    if (!out) throw abfs::InvalidArgument("--json: cannot write " + json_path);
  }
  return all_valid ? 0 : 1;
}


// abfs report: an SVG of a JSON level log's first run: frontier size per level (log scale),
// coloured by strategy, and predicted against measured time per level.
int report_command(const std::string& log_path, const std::string& svg_path, std::size_t run_index) {
  std::ifstream in(log_path);
  if (!in) throw abfs::InvalidArgument(log_path + ": cannot open the level log");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw abfs::InvalidArgument(log_path + ": not a JSON level log (" + std::string(e.what()) + ")");
  }
  if (!doc.contains("runs") || !doc["runs"].is_array() || doc["runs"].size() <= run_index) {
    throw abfs::InvalidArgument(log_path + ": no run " + std::to_string(run_index) + " in the log (write it with abfs run --log FILE.json)");
  }
  const nlohmann::json& run = doc["runs"][run_index];
  struct Level {
    double frontier, measured, predicted;
    std::string strategy;
  };
  std::vector<Level> levels;
  try {
    for (const auto& l : run.at("levels")) {
      levels.push_back({l.at("frontier_vertices").get<double>(),
                        l.at("time_us").get<double>() + l.at("conversion_us").get<double>(),
                        l.at("predicted_us").get<double>() + l.at("predicted_conversion_us").get<double>(),
                        l.at("strategy").get<std::string>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw abfs::InvalidArgument(log_path + ": level record without a needed field (" + std::string(e.what()) + ")");
  }
  if (levels.empty()) throw abfs::InvalidArgument(log_path + ": the run has no levels");
  const std::vector<std::pair<std::string, std::string>> palette{{"cpu_expand", "#7f7f7f"},
                                                                 {"one_block", "#1f77b4"},
                                                                 {"dynamic_parallel", "#9467bd"},
                                                                 {"privatized_queue", "#d62728"},
                                                                 {"gather_pull", "#2ca02c"}};
  auto colour = [&](const std::string& name) {
    for (const auto& [n, c] : palette) {
      if (n == name) return c;
    }
    return std::string("#000000");
  };
  const double width = 960, left = 70, right = 20, panel = 200, top = 50, gap = 60;
  const double plot = width - left - right;
  const double step = plot / static_cast<double>(levels.size());
  double max_frontier = 1, min_time = 1e30, max_time = 1e-3;
  for (const auto& l : levels) {
    max_frontier = std::max(max_frontier, l.frontier);
    for (double t : {l.measured, l.predicted}) {
      if (t > 0) {
        min_time = std::min(min_time, t);
        max_time = std::max(max_time, t);
      }
    }
  }
  min_time = std::pow(10.0, std::floor(std::log10(std::max(min_time, 1e-3))));
  max_time = std::pow(10.0, std::ceil(std::log10(max_time)));
  const double frontier_decades = std::max(1.0, std::ceil(std::log10(max_frontier)));
  auto y_frontier = [&](double f) { return top + panel - panel * std::log10(std::max(1.0, f)) / frontier_decades; };
  const double time_top = top + panel + gap;
  auto y_time = [&](double t) {
    const double span = std::log10(max_time) - std::log10(min_time);
    return time_top + panel - panel * (std::log10(std::max(t, min_time)) - std::log10(min_time)) / span;
  };
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << time_top + panel + 60
      << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  svg << "<text x='" << left << "' y='20' font-size='14'>" << doc.value("graph", std::string("graph")) << " from source "
      << run.value("source", 0) << ": " << levels.size() << " levels, " << run.value("total_ms", 0.0) << " ms on "
      << doc.value("device", std::string("?")) << "</text>\n";
  svg << "<text x='" << left << "' y='" << top - 8 << "'>frontier vertices per level (log scale), coloured by strategy</text>\n";
  for (int d = 0; d <= static_cast<int>(frontier_decades); ++d) {
    const double y = y_frontier(std::pow(10.0, d));
    svg << "<line x1='" << left << "' x2='" << left + plot << "' y1='" << y << "' y2='" << y << "' stroke='#ddd'/>"
        << "<text x='" << left - 6 << "' y='" << y + 4 << "' text-anchor='end'>1e" << d << "</text>\n";
  }
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const double y = y_frontier(levels[i].frontier);
    svg << "<rect x='" << left + step * static_cast<double>(i) << "' y='" << y << "' width='" << std::max(step * 0.9, 0.5)
        << "' height='" << top + panel - y << "' fill='" << colour(levels[i].strategy) << "'/>\n";
  }
  svg << "<text x='" << left << "' y='" << time_top - 8
      << "'>time per level in us (log scale): measured (dots) and predicted (line), conversions included</text>\n";
  for (double t = min_time; t <= max_time * 1.0001; t *= 10) {
    const double y = y_time(t);
    svg << "<line x1='" << left << "' x2='" << left + plot << "' y1='" << y << "' y2='" << y << "' stroke='#ddd'/>"
        << "<text x='" << left - 6 << "' y='" << y + 4 << "' text-anchor='end'>" << t << "</text>\n";
  }
  svg << "<polyline fill='none' stroke='black' stroke-width='1' points='";
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (levels[i].predicted > 0) svg << left + step * (static_cast<double>(i) + 0.5) << ',' << y_time(levels[i].predicted) << ' ';
  }
  svg << "'/>\n";
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (levels[i].measured <= 0) continue;
    svg << "<circle cx='" << left + step * (static_cast<double>(i) + 0.5) << "' cy='" << y_time(levels[i].measured)
        << "' r='" << std::clamp(step * 0.35, 1.0, 4.0) << "' fill='" << colour(levels[i].strategy) << "'/>\n";
  }
  svg << "<text x='" << left + plot / 2 << "' y='" << time_top + panel + 24 << "' text-anchor='middle'>level</text>\n";
  double x = left;
  for (const auto& [name, c] : palette) {
    svg << "<rect x='" << x << "' y='" << time_top + panel + 36 << "' width='12' height='12' fill='" << c << "'/>"
        << "<text x='" << x + 16 << "' y='" << time_top + panel + 46 << "'>" << name << "</text>\n";
    x += 150;
  }
  svg << "</svg>\n";
  const std::string temporary = svg_path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << svg.str();
    if (!out.flush()) throw abfs::InvalidArgument(svg_path + ": write failed");
  }
  std::filesystem::rename(temporary, svg_path);
  std::printf("wrote %s (%zu levels)\n", svg_path.c_str(), levels.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"abfs: adaptive breadth-first search on NVIDIA GPUs"};
  app.require_subcommand(1);
  // Options shared by run, plan and compare.
  auto add_graph_options = [](CLI::App* cmd, RunArgs& a) {
    cmd->add_option("GRAPH", a.graph,
                    "graph file (.mtx, .txt/.el/.edges/.snap, .gr, .csr; optionally .gz) or generator spec "
                    "kron:SCALE[:EF[:SEED]], uniform:N:DEGREE[:SEED], grid:ROWS:COLS; default: the bundled graph");
    cmd->add_option("--mode", a.mode, "planning: estimate, measure, exhaustive (per-level oracle) or wisdom-only")
        ->capture_default_str();
    cmd->add_option("--wisdom", a.wisdom_file,
                    "wisdom file to plan with (plus the shipped profiles) and to save calibrations and measured plans "
                    "to (default: shipped, $ABFS_WISDOM_SYSTEM or /etc/abfs/wisdom.yaml, then the user cache "
                    "$XDG_CACHE_HOME/abfs/wisdom.yaml)");
    cmd->add_flag("--no-calibrate", a.no_calibrate,
                  "when no wisdom matches this device, decide by the built-in rule instead of calibrating");
    cmd->add_flag("--no-online-correction", a.no_online_correction,
                  "decide by the calibrated models alone (default: correct them by what this run measured)");
    cmd->add_option("--rehearsals", a.rehearsals,
                    "BFSs the plan runs from its sampled sources before the first of yours, so that its corrections "
                    "learn first (cost-model plans)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--profile-trials", a.profile_trial_rounds,
                    "rounds of BFSs that try each sampled source's level profile where several reach the same "
                    "vertices, the fastest kept (cost-model plans; 0: the first sampled)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_flag("--cold-trials", a.cold_trials,
                  "exhaustive (the oracle): flush the device's L2 before every trial, for the bound from the cold side "
                  "(default: trials one after another, each finding what the earlier ones touched)");
    cmd->add_flag("--symmetrize", a.symmetrize, "add reverse arcs (default: keep the file's directedness)");
    cmd->add_flag("--keep-self-loops", a.keep_self_loops, "keep self-loops (default: dropped)");
    cmd->add_flag("--keep-duplicates", a.keep_duplicates, "keep duplicate edges (default: dropped)");
    cmd->add_flag("--no-cache", a.no_cache, "neither read nor write the binary CSR cache (default: use it)");
    cmd->add_option("--cache-dir", a.cache_dir,
                    "binary CSR cache folder (default: $ABFS_CACHE_DIR, $XDG_CACHE_HOME/abfs/graphs or ~/.cache/abfs/graphs)");
  };
  RunArgs args;
  CLI::App* run = app.add_subcommand("run", "BFS on a graph with the per-level strategy log");
  add_graph_options(run, args);
  auto* source = run->add_option("--source", args.source, "source vertex (0-based; default 0)")->check(CLI::NonNegativeNumber);
  run->add_option("--random-sources", args.random_sources, "run from K random sources with out-degree > 0, report the median")
      ->check(CLI::PositiveNumber)
      ->excludes(source);
  run->add_option("--seed", args.seed, "seed for --random-sources")->capture_default_str();
  std::string names;
  for (const auto& name : abfs::strategy_names()) names += (names.empty() ? "" : ", ") + name;
  run->add_option("--strategy", args.strategy,
                  "auto (cost models) or a strategy forced on every level where it is applicable (the log says "
                  "what ran elsewhere and why): " + names)
      ->capture_default_str();
  run->add_flag("--validate", args.validate, "check every result (Graph500 validator and the reference BFS)");
  run->add_option("--log", args.log, "write the per-level records to FILE (.csv or .json; abfs report reads .json)");
  run->add_flag("--cpu-only", args.cpu_only, "do not use the GPU");
  run->add_option("--threshold", args.threshold,
                  "built-in rule only: top-down levels with fewer frontier arcs run in one_block (or on the host "
                  "with --small-on-host)")
      ->capture_default_str();
  run->add_flag("--small-on-host", args.small_on_host, "built-in rule only: run small top-down levels on the host");

  bool patient = false;
  std::string calibrate_out;
  int calibrate_device = 0;
  CLI::App* calibrate = app.add_subcommand("calibrate", "measure this GPU and fit the cost models into the wisdom");
  auto* quick_flag = calibrate->add_flag_function("--quick", [](std::int64_t) {}, "about a minute (the default)");
  calibrate->add_flag("--patient", patient, "several minutes: larger sweep graphs, more sources")->excludes(quick_flag);
  calibrate->add_option("--out", calibrate_out, "wisdom file to merge into (default: the user cache)");
  calibrate->add_option("--device", calibrate_device, "CUDA device ordinal")->capture_default_str();
  std::string calibrate_samples;
  calibrate->add_option("--samples", calibrate_samples,
                        "also write every sample the fits use to FILE (CSV: graph, model, measured_us, features)");

  RunArgs plan_args;
  CLI::App* plan = app.add_subcommand("plan", "graph statistics and the predicted per-level schedule");
  add_graph_options(plan, plan_args);
  bool plan_reasons = false;
  plan->add_flag("--reasons", plan_reasons,
                 "print each level's reason under it: the candidates' prices and where runs of one_block and "
                 "dynamic_parallel reaching it stop");

  std::string report_log, report_svg;
  std::size_t report_run = 0;
  CLI::App* report = app.add_subcommand("report", "render a JSON level log (abfs run --log X.json) as SVG");
  report->add_option("LOG", report_log, "JSON level log")->required();
  report->add_option("--out", report_svg, "SVG file (default: LOG with .svg)");
  report->add_option("--run", report_run, "which run of the log (0 = first source)")->capture_default_str();

  RunArgs compare_args;
  compare_args.random_sources = 8;
  std::string compare_json;
  int compare_rounds = 1;
  CLI::App* compare =
      app.add_subcommand("compare", "adaptive plan against every single strategy and the Exhaustive oracle");
  add_graph_options(compare, compare_args);
  compare->add_option("--random-sources", compare_args.random_sources, "sources (random, out-degree > 0)")
      ->capture_default_str();
  compare->add_option("--seed", compare_args.seed, "seed for the sources")->capture_default_str();
  compare->add_option("--rounds", compare_rounds, "times every plan runs every source (in turn with the other plans)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  compare->add_option("--json", compare_json, "also write the timings to FILE");
  compare->add_option("--log", compare_args.log,
                      "write the adaptive plan's level records to FILE (.csv or .json), the oracle's to "
                      "FILE with .oracle before the extension and the best single strategy's with .best");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (run->parsed()) return run_command(args);
    if (calibrate->parsed()) return calibrate_command(patient, calibrate_out, calibrate_device, calibrate_samples);
    if (plan->parsed()) return plan_command(plan_args, plan_reasons);
    if (report->parsed()) {
      const std::string svg = report_svg.empty() ? std::filesystem::path(report_log).replace_extension(".svg").string() : report_svg;
      return report_command(report_log, svg, report_run);
    }
    if (compare->parsed()) return compare_command(compare_args, compare_rounds, compare_json);
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "abfs: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "abfs: internal error: %s\n", e.what());
    return 2;
  }
  return 0;
}
