// privatized_queue alone (no executor): every level on the device, with the default w-queue
// capacity and with capacity 1, which forces the overflow path.

#include "runtime/bfs_buffers.hpp"
#include "strategies/strategy.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

namespace {

using abfs::strategies::LevelContext;

struct AloneRun {
  abfs::BfsResult result;
  unsigned int overflow_pushes = 0;
};

AloneRun run_alone(const abfs::Graph& g, abfs::VertexId source, const abfs::strategies::PrivatizedQueueConfig& config) {
  abfs::detail::BfsBuffers buffers(g, true);
  auto strategy = abfs::strategies::make_privatized_queue(config);
  strategy->prepare(buffers);
  AloneRun run;
  buffers.start(source);
  buffers.move_to_device(0, 1);
  abfs::VertexId begin = 0, end = 1;
  abfs::EdgeOffset edges = g.out_degree(source);
  int level = 0;
  while (end > begin) {
    LevelContext context{buffers, level, begin, end, edges};
    const auto outcome = strategy->run(context);
    run.overflow_pushes += outcome.overflow_pushes;
    begin = end;
    end += outcome.next_frontier_vertices;
    edges = outcome.next_frontier_edges;
    ++level;
  }
  auto& r = run.result;
  buffers.collect(end, 1, r.distances, r.parents);  // order[0] (the source) was placed on the host
  r.vertices_reached = end;
  r.edges_traversed = abfs::traversed_edges(g, r.distances);
  return run;
}

}  // namespace

TEST_CASE("privatized_queue alone is correct on every edge case") {
  for (const auto& c : abfs::test::edge_case_graphs()) {
    CAPTURE(c.name);
    abfs::test::check_bfs(c.graph, c.source, run_alone(c.graph, c.source, {}).result);
  }
}

TEST_CASE("privatized_queue with one-slot w-queues overflows to the global queue and stays correct") {
  abfs::strategies::PrivatizedQueueConfig tiny;
  tiny.wqueue_capacity = 1;
  tiny.blocks_per_sm = 1;
  unsigned int overflow = 0;
  for (const auto& c : abfs::test::edge_case_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, tiny);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    overflow += run.overflow_pushes;
  }
  CHECK(overflow > 0);  // the test really exercised the overflow path
}

TEST_CASE("privatized_queue alone is correct on every real graph (skipped without ../shared/data)") {
  abfs::LoadOptions load;
  load.use_cache = false;
  for (const auto& path : abfs::test::real_graph_paths()) {
    const abfs::Graph g = abfs::load_graph(path, load);
    for (abfs::VertexId s : abfs::test::sample_sources(g, 2)) abfs::test::check_bfs(g, s, run_alone(g, s, {}).result);
  }
}
