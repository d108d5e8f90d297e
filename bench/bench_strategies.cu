// BM_Level/<graph>/L<level>/<strategy>: one level of each strategy (and of the global-atomic
// queue baseline) on controlled frontier shapes: the BFS from a fixed source is put at the start
// of every level of a Kronecker and a uniform graph in turn, so the sweep covers frontiers from
// one vertex to most of the graph, top-down and bottom-up. These are the points calibration
// fits cost models to: each carries frontier vertices, frontier arcs, unvisited vertices and
// the host round trips of the level.
//
// Time: the host's wall time of one run() (launch, device work, copy-back and synchronization:
// what the executor pays per level), as manual time; device_us (CUDA events) as a counter.
// Median of 5 repetitions. Graphs: $ABFS_BENCH_LEVEL_GRAPHS (default kron:22,uniform:8388608:8).

#include "bench/baselines.cuh"
#include "bench/bench_support.hpp"
#include "runtime/bfs_buffers.hpp"
#include "strategies/strategy.hpp"

#include <chrono>
#include <memory>

namespace {

using namespace abfs;

struct Setup {
  Graph graph;
  VertexId source;
  BfsTree tree;
  bench::LevelIndex index;
  std::unique_ptr<detail::BfsBuffers> buffers;
  std::vector<std::unique_ptr<strategies::Strategy>> strategies;
};

void run_level(benchmark::State& state, Setup& s, int level, strategies::Strategy* strategy) {
  auto& b = *s.buffers;
  const VertexId begin = s.index.level_begin[static_cast<std::size_t>(level)];
  const VertexId end = s.index.level_begin[static_cast<std::size_t>(level) + 1];
  EdgeOffset edges = 0;
  for (VertexId i = begin; i < end; ++i) edges += s.graph.out_degree(s.index.order[i]);
  const bool on_device = strategy == nullptr || strategy->frontier_io().consumes_at == strategies::Location::Device;
  double device_us = 0;
  for (auto _ : state) {
    bench::set_level(b, s.source, s.tree, s.index, level);
    if (strategy != nullptr && strategy->frontier_io().consumes == strategies::FrontierRepresentation::Bitmap) {
      b.queue_to_bitmap(begin, end, static_cast<unsigned int>(level) & 1u);
      ABFS_CUDA_CHECK(cudaStreamSynchronize(b.stream()));
    }
    strategies::LevelContext context{b, level, begin, end, edges};
    context.max_levels = 1;
    const auto t0 = std::chrono::steady_clock::now();
    const strategies::LevelOutcome out =
        strategy != nullptr ? strategy->run(context) : bench::global_queue_level(b, context);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(seconds);
    device_us = out.device_us;
    const VertexId expected = s.index.level_begin[static_cast<std::size_t>(level) + 2 < s.index.level_begin.size()
                                                      ? static_cast<std::size_t>(level) + 2
                                                      : static_cast<std::size_t>(level) + 1] -
                              end;
    if (out.next_frontier_vertices != expected) {
      state.SkipWithError("next frontier size differs from the reference BFS");
      break;
    }
  }
  state.counters["frontier_vertices"] = end - begin;
  state.counters["frontier_edges"] = static_cast<double>(edges);
  state.counters["unvisited_vertices"] = s.graph.num_vertices() - end;
  state.counters["host_round_trips"] = on_device ? 1 : 0;
  state.counters["device_us"] = device_us;
  state.counters["edges_per_s"] =
      benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (cuda_device_count() == 0) {
    std::fprintf(stderr, "bench_strategies: skipped: no CUDA device\n");
    return 0;
  }
  bench::add_context(detail::select_device(0).name);
  std::vector<std::unique_ptr<Setup>> setups;
  for (const auto& spec : bench::graph_specs("ABFS_BENCH_LEVEL_GRAPHS", "kron:22,uniform:8388608:8")) {
    auto s = std::make_unique<Setup>();
    s->graph = open_graph(spec);
    s->source = 0;
    while (s->graph.out_degree(s->source) == 0) ++s->source;
    s->tree = reference_bfs(s->graph, s->source);
    s->index = bench::index_levels(s->tree);
    s->buffers = std::make_unique<detail::BfsBuffers>(s->graph, true);
    for (const auto& entry : strategies::registry()) {
      s->strategies.push_back(entry.create());
      s->strategies.back()->prepare(*s->buffers);
    }
    Setup* raw = s.get();
    const int levels = static_cast<int>(s->index.level_begin.size()) - 1;
    for (int level = 0; level < levels; ++level) {
      strategies::FrontierState shape;
      shape.frontier_vertices = s->index.level_begin[level + 1] - s->index.level_begin[level];
      for (std::size_t k = 0; k <= s->strategies.size(); ++k) {
        strategies::Strategy* strategy = k < s->strategies.size() ? s->strategies[k].get() : nullptr;
        shape.frontier_edges = 0;
        for (VertexId i = s->index.level_begin[level]; i < s->index.level_begin[level + 1]; ++i) {
          shape.frontier_edges += s->graph.out_degree(s->index.order[i]);
        }
        if (strategy != nullptr && !strategy->applicable(shape)) continue;
        const std::string name = "BM_Level/" + spec + "/L" + std::to_string(level) + "/" +
                                 (strategy != nullptr ? strategy->name() : "global_queue_baseline");
        benchmark::RegisterBenchmark(name.c_str(), [raw, level, strategy](benchmark::State& state) {
          run_level(state, *raw, level, strategy);
        })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond)
            ->Iterations(3)
            ->Repetitions(5)
            ->ReportAggregatesOnly(true);
      }
    }
    setups.push_back(std::move(s));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
