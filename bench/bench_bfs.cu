// BM_Bfs/<graph>/<plan>: whole BFS per single strategy (forced where applicable, the built-in
// rule elsewhere, as `abfs run --strategy`), the adaptive rule ("auto"), and the Rodinia
// two-kernel baseline, per graph: median over 16 random sources (out-degree > 0) after one
// warm-up, timed with CUDA events (Plan::execute's total_ms). Every result is checked against
// the reference BFS's distances. Graphs: $ABFS_BENCH_GRAPHS, default every graph in
// $ABFS_DATA_DIR plus kron:22, kron:24, uniform:1048576:8, uniform:8388608:8,
// uniform:100000000:4.

#include "bench/baselines.cuh"
#include "bench/bench_support.hpp"

#include <abfs/error.hpp>

#include <filesystem>
#include <random>

namespace {

using namespace abfs;

constexpr int kSources = 16;

std::vector<VertexId> pick_sources(const Graph& g) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<VertexId> pick(0, g.num_vertices() - 1);
  std::vector<VertexId> sources;
  while (static_cast<int>(sources.size()) < kSources) {
    const VertexId v = pick(rng);
    if (g.out_degree(v) > 0) sources.push_back(v);
  }
  return sources;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Suite {
  Graph graph;
  std::vector<VertexId> sources;
  std::vector<BfsTree> references;
};

void report(benchmark::State& state, const Suite& s, const std::vector<double>& ms, const std::vector<double>& gteps) {
  state.SetIterationTime(median(ms) / 1000.0);
  state.counters["median_ms"] = median(ms);
  state.counters["median_gteps"] = median(gteps);
  state.counters["vertices"] = s.graph.num_vertices();
  state.counters["arcs"] = static_cast<double>(s.graph.num_edges());
}

void bfs_plan(benchmark::State& state, const Suite& s, const std::string& strategy) {
  PlanOptions options;
  options.strategy = strategy;
  Plan plan = plan_bfs(s.graph, options);
  BfsResult r;
  plan.execute(s.sources.front(), r);  // warm-up
  for (auto _ : state) {
    std::vector<double> ms, gteps;
    for (std::size_t k = 0; k < s.sources.size(); ++k) {
      plan.execute(s.sources[k], r);
      if (r.distances != s.references[k].distances) {
        state.SkipWithError("distances differ from the reference BFS");
        return;
      }
      ms.push_back(r.total_ms);
      gteps.push_back(r.gteps());
    }
    report(state, s, ms, gteps);
  }
}

void bfs_rodinia(benchmark::State& state, const Suite& s) {
  detail::BfsBuffers buffers(s.graph, true);
  bench::RodiniaBfs rodinia(buffers);
  std::vector<std::int32_t> distances;
  rodinia.run(s.sources.front(), distances);  // warm-up
  for (auto _ : state) {
    std::vector<double> ms, gteps;
    for (std::size_t k = 0; k < s.sources.size(); ++k) {
      const double t = rodinia.run(s.sources[k], distances);
      if (distances != s.references[k].distances) {
        state.SkipWithError("distances differ from the reference BFS");
        return;
      }
      ms.push_back(t);
      gteps.push_back(static_cast<double>(traversed_edges(s.graph, distances)) / (t * 1e6));
    }
    report(state, s, ms, gteps);
  }
}

std::string default_graphs() {
  std::string list;
  const char* dir = std::getenv("ABFS_DATA_DIR");
  std::error_code ec;
  if (dir != nullptr && std::filesystem::is_directory(dir, ec)) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() == ".gz") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) list += f + ",";
  }
  return list + "kron:22,kron:24,uniform:1048576:8,uniform:8388608:8,uniform:100000000:4";
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (cuda_device_count() == 0) {
    std::fprintf(stderr, "bench_bfs: skipped: no CUDA device\n");
    return 0;
  }
  bench::add_context(detail::select_device(0).name);
  std::vector<std::unique_ptr<Suite>> suites;
  for (const auto& spec : bench::graph_specs("ABFS_BENCH_GRAPHS", default_graphs())) {
    auto s = std::make_unique<Suite>();
    s->graph = open_graph(spec);
    s->sources = pick_sources(s->graph);
    for (VertexId v : s->sources) s->references.push_back(reference_bfs(s->graph, v));
    const std::string name = std::filesystem::path(spec).filename().string();
    const Suite* raw = s.get();
    std::vector<std::string> plans{"auto"};
    for (const auto& n : strategy_names()) plans.push_back(n);
    for (const auto& plan : plans) {
      benchmark::RegisterBenchmark(("BM_Bfs/" + name + "/" + plan).c_str(),
                                   [raw, plan](benchmark::State& state) { bfs_plan(state, *raw, plan); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
    }
    benchmark::RegisterBenchmark(("BM_Bfs/" + name + "/rodinia_baseline").c_str(),
                                 [raw](benchmark::State& state) { bfs_rodinia(state, *raw); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    suites.push_back(std::move(s));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
