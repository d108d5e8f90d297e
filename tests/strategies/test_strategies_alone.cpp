// Each device strategy alone (no executor): every level it can take, on the edge cases, generated
// graphs and the real graphs, with the queue overflow and hand-over paths forced by tiny queues.

#include "strategies/run_alone.hpp"

#include <doctest/doctest.h>

namespace {

namespace s = abfs::strategies;
using abfs::test::AloneRun;
using abfs::test::run_alone;

std::vector<abfs::test::Case> generated_graphs() {
  std::vector<abfs::test::Case> cases;
  const abfs::Graph kron = abfs::generate_kronecker(15, 16, 4);
  for (abfs::VertexId v : abfs::test::sample_sources(kron, 2)) cases.push_back({"kronecker 15", kron, v});
  const abfs::Graph uniform = abfs::generate_uniform(50000, 6, 9);
  for (abfs::VertexId v : abfs::test::sample_sources(uniform, 2)) cases.push_back({"uniform 50000 x 6", uniform, v});
  cases.push_back({"grid 300 x 200", abfs::generate_grid(300, 200), 31000});
  return cases;
}

std::vector<abfs::test::Case> all_small_graphs() {
  auto cases = abfs::test::edge_case_graphs();
  for (auto& c : generated_graphs()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace

TEST_CASE("privatized_queue alone is correct on every edge case and generated graph") {
  auto pq = s::make_privatized_queue();
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    abfs::test::check_bfs(c.graph, c.source, run_alone(c.graph, c.source, *pq).result);
  }
}

TEST_CASE("privatized_queue with one-slot w-queues overflows to the global queue and stays correct") {
  s::PrivatizedQueueConfig tiny;
  tiny.wqueue_capacity = 1;
  tiny.blocks_per_sm = 1;
  auto pq = s::make_privatized_queue(tiny);
  unsigned int overflow = 0;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *pq);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    overflow += run.overflow_pushes;
  }
  CHECK(overflow > 0);  // the test really exercised the overflow path
}

TEST_CASE("gather_pull alone (bottom-up on every level) is correct on every edge case and generated graph") {
  auto pull = s::make_gather_pull();
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *pull);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    CHECK(run.fallback_levels == 0);
  }
}

TEST_CASE("one_block runs many levels per launch and hands over a frontier that outgrows its queue") {
  auto block = s::make_one_block();
  auto pq = s::make_privatized_queue();
  bool handed_over = false;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *block, pq.get());
    abfs::test::check_bfs(c.graph, c.source, run.result);
    handed_over |= run.stop_reasons.count("frontier outgrew the block queue") > 0;
    if (c.name == "path") {
      CHECK(run.runs == 1);  // 2,000 levels in one launch
      CHECK(run.levels == 2000);
    }
  }
  CHECK(handed_over);  // the star's second level does not fit 4,096 slots
}

TEST_CASE("one_block with one-slot w-queues spills, hands over the complete level and stays correct") {
  s::BlockLoopConfig tiny;
  tiny.wqueue_capacity = 1;  // a 32-vertex b-queue; skewed lanes spill
  auto block = s::make_one_block(tiny);
  auto pq = s::make_privatized_queue();
  int handovers = 0;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *block, pq.get());
    abfs::test::check_bfs(c.graph, c.source, run.result);
    handovers += static_cast<int>(run.stop_reasons.size());
  }
  CHECK(handovers > 0);
}

TEST_CASE("dynamic_parallel runs the whole BFS in one host launch, mixing block and grid levels on the device") {
  auto dp = s::make_dynamic_parallel();
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *dp);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    CHECK(run.runs == 1);
    CHECK(run.stop_reasons.empty());
  }
  s::DynamicParallelConfig tiny;
  tiny.block_loop.wqueue_capacity = 1;  // frontiers above 32 vertices go to grid levels
  auto dp_tiny = s::make_dynamic_parallel(tiny);
  std::set<unsigned int> kernels;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *dp_tiny);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    CHECK(run.runs == 1);
    kernels.insert(run.device_kernels.begin(), run.device_kernels.end());
  }
  CHECK(kernels.count(0) == 1);  // one-block loop levels
  CHECK(kernels.count(1) == 1);  // tail-launched grid levels
}

TEST_CASE("every device strategy alone is correct on every real graph (skipped without ../shared/data)") {
  abfs::LoadOptions load;
  load.use_cache = false;
  auto pq = s::make_privatized_queue();
  std::vector<std::unique_ptr<s::Strategy>> tested;
  tested.push_back(s::make_privatized_queue());
  tested.push_back(s::make_gather_pull());
  tested.push_back(s::make_one_block());
  tested.push_back(s::make_dynamic_parallel());
  for (const auto& path : abfs::test::real_graph_paths()) {
    CAPTURE(path);
    const abfs::Graph g = abfs::load_graph(path, load);
    for (abfs::VertexId source : abfs::test::sample_sources(g, 2)) {
      const abfs::BfsTree reference = abfs::reference_bfs(g, source);
      for (auto& strategy : tested) {
        CAPTURE(strategy->name());
        abfs::test::check_bfs(g, source, run_alone(g, source, *strategy, pq.get()).result, reference);
      }
    }
  }
}
