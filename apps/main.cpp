// The abfs command-line tool: the only code in abfs that prints to stdout or exits.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>
#include <abfs/plan.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
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
};

std::string executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
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
  std::printf("%5s %12s %14s  %-17s %10s %10s %9s  %s\n", "level", "frontier", "frontier_edges", "strategy", "time_us",
              "device_us", "convert", "reason");
  for (const auto& l : r.levels) {
    std::printf("%5d %12u %14llu  %-17s %10.1f %10.1f %9.1f  %s\n", l.level, l.frontier_vertices,
                static_cast<unsigned long long>(l.frontier_edges), l.strategy.c_str(), l.time_us, l.device_us,
                l.conversion_us, l.reason.c_str());
  }
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Writes the per-level records of every run as CSV or JSON (by extension), atomically.
void write_log(const std::string& path, const abfs::Graph& g, const std::string& device,
               const std::vector<abfs::BfsResult>& runs) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".csv" && ext != ".json") throw abfs::InvalidArgument("--log " + path + ": use a .csv or .json file");
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw abfs::InvalidArgument("--log: cannot write " + temporary);
    if (ext == ".csv") {
      out << "source,level,frontier_vertices,frontier_edges,strategy,time_us,device_us,conversion_us,reason\n";
      for (const auto& r : runs) {
        for (const auto& l : r.levels) {
          out << r.source << ',' << l.level << ',' << l.frontier_vertices << ',' << l.frontier_edges << ','
              << l.strategy << ',' << l.time_us << ',' << l.device_us << ',' << l.conversion_us << ",\"" << l.reason
              << "\"\n";
        }
      }
    } else {
      nlohmann::json doc;
      doc["graph"] = g.name();
      doc["vertices"] = g.num_vertices();
      doc["arcs"] = g.num_edges();
      doc["directed"] = g.directed();
      doc["device"] = device;
      for (const auto& r : runs) {
        nlohmann::json run{{"source", r.source},
                           {"total_ms", r.total_ms},
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
                                   {"reason", l.reason}});
        }
        doc["runs"].push_back(std::move(run));
      }
      out << doc.dump(1) << '\n';
    }
    if (!out.flush()) throw abfs::InvalidArgument("--log: write to " + temporary + " failed");
  }
  std::filesystem::rename(temporary, path);
}

int run_command(const RunArgs& args) {
  abfs::LoadOptions load;
  load.symmetrize = args.symmetrize;
  load.drop_self_loops = !args.keep_self_loops;
  load.drop_duplicate_edges = !args.keep_duplicates;
  load.use_cache = !args.no_cache;
  load.cache_dir = args.cache_dir;
  const std::string spec = args.graph.empty() ? default_graph() : args.graph;
  abfs::LoadInfo info;
  const abfs::Graph g = abfs::open_graph(spec, load, &info);
  const abfs::GraphStats stats = abfs::compute_stats(g);
  std::printf("graph   %s: %u vertices, %llu arcs (%s), out-degree min/mean/max %llu/%.2f/%llu, loaded in %.3f s (%s)\n",
              g.name().c_str(), stats.num_vertices, static_cast<unsigned long long>(stats.num_edges),
              stats.directed ? "directed" : "undirected", static_cast<unsigned long long>(stats.min_out_degree),
              stats.mean_out_degree, static_cast<unsigned long long>(stats.max_out_degree), info.seconds,
              cache_text(info));
  if (info.cache == abfs::LoadInfo::Cache::WriteFailed) std::fprintf(stderr, "abfs: warning: %s\n", info.cache_problem.c_str());
  if (g.num_vertices() == 0) throw abfs::InvalidArgument("graph " + g.name() + " has no vertices");

  abfs::PlanOptions options;
  options.strategy = args.strategy;
  options.use_gpu = !args.cpu_only;
  options.rule.cpu_max_frontier_edges = args.threshold;
  options.rule.block_loop_for_small = !args.small_on_host;
  abfs::Plan plan = abfs::plan_bfs(g, options);
  for (const auto& w : plan.warnings()) std::fprintf(stderr, "abfs: warning: %s\n", w.c_str());
  std::string names;
  for (const auto& s : plan.strategies()) names += (names.empty() ? "" : ", ") + s;
  std::printf("device  %s (strategies: %s; rule: %s below %llu frontier arcs, bottom-up by Beamer's rule)\n",
              plan.device_name().c_str(), names.c_str(), args.small_on_host ? "host" : "one_block",
              static_cast<unsigned long long>(args.threshold));

  // Sources: one given (default 0), or K random vertices with at least one out-arc (Graph500).
  std::vector<abfs::VertexId> sources;
  if (args.random_sources > 0) {
    std::mt19937_64 rng(args.seed);
    std::uniform_int_distribution<abfs::VertexId> pick(0, g.num_vertices() - 1);
    for (int attempts = 0; static_cast<int>(sources.size()) < args.random_sources && attempts < 1000000; ++attempts) {
      const abfs::VertexId v = pick(rng);
      if (g.out_degree(v) > 0) sources.push_back(v);
    }
    if (sources.empty()) throw abfs::InvalidArgument("graph " + g.name() + " has no vertex with an out-arc");
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
  std::printf("%s %.3f ms, %.3f GTEPS, %u vertices reached (%.1f%%), %llu edges traversed, %zu levels%s\n",
              sources.size() > 1 ? "median over sources:" : "total", median(ms), median(gteps), first.vertices_reached,
              100.0 * first.vertices_reached / g.num_vertices(), static_cast<unsigned long long>(first.edges_traversed),
              first.levels.size(), sources.size() > 1 ? " (first source)" : "");
  if (args.validate) {
    std::printf("validation: %s (%zu source%s: Graph500 rules and reference BFS)\n", all_valid ? "ok" : "FAILED",
                sources.size(), sources.size() == 1 ? "" : "s");
  }
  if (!args.log.empty()) write_log(args.log, g, plan.device_name(), runs);
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"abfs: adaptive breadth-first search on NVIDIA GPUs"};
  app.require_subcommand(1);
  RunArgs args;
  CLI::App* run = app.add_subcommand("run", "BFS on a graph with the per-level strategy log");
  run->add_option("GRAPH", args.graph,
                  "graph file (.mtx, .txt/.el/.edges/.snap, .gr, .csr; optionally .gz) or generator spec "
                  "kron:SCALE[:EF[:SEED]], uniform:N:DEGREE[:SEED], grid:ROWS:COLS; default: the bundled graph");
  auto* source = run->add_option("--source", args.source, "source vertex (0-based; default 0)")->check(CLI::NonNegativeNumber);
  run->add_option("--random-sources", args.random_sources, "run from K random sources with out-degree > 0, report the median")
      ->check(CLI::PositiveNumber)
      ->excludes(source);
  run->add_option("--seed", args.seed, "seed for --random-sources")->capture_default_str();
  std::string names;
  for (const auto& name : abfs::strategy_names()) names += (names.empty() ? "" : ", ") + name;
  run->add_option("--strategy", args.strategy,
                  "auto (built-in rule) or a strategy forced on every level where it is applicable (the log says "
                  "what ran elsewhere and why): " + names)
      ->capture_default_str();
  run->add_flag("--validate", args.validate, "check every result (Graph500 validator and the reference BFS)");
  run->add_option("--log", args.log, "write the per-level records to FILE (.csv or .json)");
  run->add_flag("--cpu-only", args.cpu_only, "do not use the GPU");
  run->add_option("--threshold", args.threshold,
                  "top-down levels with fewer frontier arcs run in one_block (or on the host with --small-on-host)")
      ->capture_default_str();
  run->add_flag("--small-on-host", args.small_on_host, "run small top-down levels on the host, not in one_block");
  run->add_flag("--symmetrize", args.symmetrize, "add reverse arcs (default: keep the file's directedness)");
  run->add_flag("--keep-self-loops", args.keep_self_loops, "keep self-loops (default: dropped)");
  run->add_flag("--keep-duplicates", args.keep_duplicates, "keep duplicate edges (default: dropped)");
  run->add_flag("--no-cache", args.no_cache, "neither read nor write the binary CSR cache (default: use it)");
  run->add_option("--cache-dir", args.cache_dir,
                  "binary CSR cache folder (default: $ABFS_CACHE_DIR, $XDG_CACHE_HOME/abfs/graphs or ~/.cache/abfs/graphs)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (run->parsed()) return run_command(args);
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "abfs: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "abfs: internal error: %s\n", e.what());
    return 2;
  }
  return 0;
}
