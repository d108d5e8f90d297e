// Each device strategy alone (no executor): every level it can take, on the edge cases, generated
// graphs and the real graphs, with the queue overflow and hand-over paths forced by tiny queues.

#include "strategies/run_alone.hpp"

#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace s = abfs::strategies;
using abfs::test::AloneRun;
using abfs::test::run_alone;
using abfs::VertexId;

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

namespace {

// gather_pull where the level is not a multiple of `every` (a fallback takes the others): its
// levels before another strategy's queue a level that the other's wait has to cancel.
class PullExceptEvery final : public s::Strategy {
 public:
  PullExceptEvery(s::Strategy& pull, int every) : pull_(pull), every_(every) {}
  const char* name() const override { return "gather_pull except every k-th level"; }
  bool applicable(const s::FrontierState& state) const override { return state.level % every_ != every_ - 1; }
  s::FrontierIo frontier_io() const override { return pull_.frontier_io(); }
  s::CostFeatures cost_features(const s::FrontierState& state, const abfs::GraphStats& stats) const override {
    return pull_.cost_features(state, stats);
  }
  void prepare(abfs::detail::BfsBuffers& buffers) override { pull_.prepare(buffers); }
  s::LevelOutcome run(s::LevelContext& context) override { return pull_.run(context); }

 private:
  s::Strategy& pull_;
  int every_;
};

}  // namespace

TEST_CASE("gather_pull launched ahead runs each next level from its gate, and a cancelled one writes nothing") {
  // The executor lets each bottom-up level queue the next behind it (LevelContext::launch_ahead)
  // and opens its gate where the next decision chose gather_pull again. Every level here is
  // gather_pull's: each after the first runs from the gate, and the BFS's last queued level is
  // cancelled (by collect()). Then privatized_queue takes every third level: the level queued
  // before it is cancelled by its wait (a stale gate would hold its kernel back for ever), and
  // the result must be the same BFS.
  auto pull = s::make_gather_pull();
  auto pq = s::make_privatized_queue();
  int opened = 0, levels = 0;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *pull, nullptr, {}, false, true);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    CHECK(run.gates_opened == run.levels - 1);
    opened += run.gates_opened;
    levels += run.levels;
    PullExceptEvery mixed(*pull, 3);
    const AloneRun mixed_run = run_alone(c.graph, c.source, mixed, pq.get(), {}, false, true);
    abfs::test::check_bfs(c.graph, c.source, mixed_run.result);
    // Each gather_pull level but the first of a stretch ran from its gate.
    int stretches = 0;
    for (std::size_t k = 0; k < mixed_run.calls.size(); ++k) {
      stretches += k == 0 || mixed_run.calls[k - 1].level + 1 != mixed_run.calls[k].level ? 1 : 0;
    }
    CHECK(mixed_run.gates_opened == mixed_run.levels - stretches);
  }
  CHECK(opened > 100);  // the gates really opened
  CHECK(levels > opened);
}

TEST_CASE("gather_pull shares the rest of an in-hub over the grid: found by any warp, scanned in full when "
          "unreached") {
  // Directed: `dead` vertices (no in-arcs: never reached) point at every hub; the source
  // reaches the one feeder, which points at every hub but the last. So each hub's in-list has
  // dead + 1 arcs, the feeder's last (lists are sorted by id): past the warp's first 256, in the
  // part the grid shares, is the level-1 frontier's one in-arc; and the last hub is never
  // reached: its list is shared and scanned in full at every level. 40 hubs are a few words of
  // consecutive vertices and of the list's open bitmap; 1,030 more than the 1,024 entries one
  // load of it covers. A warp keeps lists whose rests past 256 sum to 2,048 in-arcs or fewer:
  // with 300 dead both words' rests (18 and 22 of 45) are kept; with 400, one word's 14 rests
  // of 145 (2,030) are kept and the next word's 26 (3,770) listed. One gather_pull for all: its
  // list grows with the graph's in-hubs.
  auto pull = s::make_gather_pull();
  for (const auto& [dead, hubs] :
       {std::pair<abfs::VertexId, abfs::VertexId>{300, 40}, {400, 40}, {5000, 40}, {5000, 1030}}) {
    const abfs::VertexId source = dead, feeder = dead + 1, first_hub = dead + 2;
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> arcs{{source, feeder}};
    for (abfs::VertexId h = first_hub; h < first_hub + hubs; ++h) {
      for (abfs::VertexId d = 0; d < dead; ++d) arcs.emplace_back(d, h);
      if (h + 1 < first_hub + hubs) arcs.emplace_back(feeder, h);
    }
    const abfs::Graph g = abfs::test::make_graph(first_hub + hubs, arcs, true);
    CAPTURE(dead);
    CAPTURE(hubs);
    const AloneRun run = run_alone(g, source, *pull);
    abfs::test::check_bfs(g, source, run.result);
    CHECK(run.fallback_levels == 0);
    CHECK(run.result.vertices_reached == hubs + 1);  // the source, the feeder, all hubs but the last
  }
}

TEST_CASE("waiting for counters that no device level publishes is an error, not a hang") {
  // Every device level publishes its counters into mapped host memory and the host polls for
  // them; the poll checks the stream now and then, so a level that ended without publishing
  // (a bug) or failed ends the wait.
  const abfs::Graph g = abfs::generate_grid(10, 10);
  abfs::detail::BfsBuffers buffers(g, true);
  const unsigned int unpublished = buffers.next_sequence("no kernel");
  CHECK_THROWS_AS(buffers.wait_counters(unpublished), abfs::Error);
}

TEST_CASE("a wait does the host work it was given once, before it polls") {
  // The executor warms its next decision there while the device runs a level.
  const abfs::Graph g = abfs::generate_grid(10, 10);
  abfs::detail::BfsBuffers buffers(g, true);
  int calls = 0;
  buffers.set_wait_work([](void* counter) { ++*static_cast<int*>(counter); }, &calls);
  CHECK_THROWS_AS(buffers.wait_counters(buffers.next_sequence("no kernel")), abfs::Error);
  CHECK(calls == 1);
  CHECK_THROWS_AS(buffers.wait_counters(buffers.next_sequence("no kernel")), abfs::Error);
  CHECK(calls == 1);  // cleared once done
}

TEST_CASE("a one-block run the planner prices long prefetches the CSR into the L2, once a BFS, where it "
          "takes at most half of it") {
  // Such a run (LevelContext::prefetch_l2) asks take_l2_prefetch() whether its other blocks
  // prefetch the CSR: once a BFS, and never on a graph whose CSR would crowd the L2.
  const abfs::Graph small = abfs::generate_grid(10, 10);
  abfs::detail::BfsBuffers buffers(small, true);
  CHECK_FALSE(buffers.take_l2_prefetch());  // no BFS yet
  buffers.start(0);
  CHECK(buffers.take_l2_prefetch());
  CHECK_FALSE(buffers.take_l2_prefetch());  // the BFS's later runs
  buffers.start(5);
  CHECK(buffers.take_l2_prefetch());

  // ~40 bytes a vertex (8 arcs of 4 bytes, a row offset of 8): ~0.62 of the L2.
  const auto vertices = static_cast<abfs::VertexId>(buffers.l2_cache_bytes / 64 + 1);
  const abfs::Graph large = abfs::generate_uniform(vertices, 8);
  REQUIRE((std::size_t{vertices} + 1) * sizeof(abfs::EdgeOffset) + large.num_edges() * sizeof(abfs::VertexId) >
          static_cast<std::size_t>(buffers.l2_cache_bytes) / 2);
  abfs::detail::BfsBuffers large_buffers(large, true);
  large_buffers.start(0);
  CHECK_FALSE(large_buffers.take_l2_prefetch());
  // Correct with the prefetch asked for: not done there, done at every small graph's first run.
  auto block = s::make_one_block();
  auto pq = s::make_privatized_queue();
  abfs::test::check_bfs(large, 0, run_alone(large, 0, *block, pq.get(), {}, true).result);
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    abfs::test::check_bfs(c.graph, c.source, run_alone(c.graph, c.source, *block, pq.get(), {}, true).result);
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

TEST_CASE("one_block's and dynamic_parallel's small levels go to one warp and back to the block within a run") {
  // A path whose every fourth vertex carries `leaves` pendant leaves: the frontier alternates
  // between one path vertex (leaves + 2 arcs: one warp deals that list over its lanes, up to
  // kWarpArcs = 256) and the leaves with the next path vertex (leaves + 1 vertices: the block
  // where that is more than kWarpVertices = 32). Every seventh leaf also reaches the path
  // vertex two on, so that claims of one vertex from several lanes of a level meet (in the
  // warp with 20 leaves). One launch carries the whole BFS.
  for (const VertexId leaves : {VertexId{20}, VertexId{100}, VertexId{250}}) {
    CAPTURE(leaves);
    constexpr VertexId kPath = 400;
    std::vector<std::pair<VertexId, VertexId>> edges;
    VertexId next_leaf = kPath;
    for (VertexId p = 0; p + 1 < kPath; ++p) {
      edges.push_back({p, p + 1});
      if (p % 4 != 0) continue;
      for (VertexId k = 0; k < leaves; ++k, ++next_leaf) {
        edges.push_back({p, next_leaf});
        if (k % 7 == 0 && p + 2 < kPath) edges.push_back({next_leaf, p + 2});
      }
    }
    const abfs::Graph g = abfs::test::make_graph(next_leaf, edges, false);
    auto block = s::make_one_block();
    auto dp = s::make_dynamic_parallel();
    for (s::Strategy* strategy : {block.get(), dp.get()}) {
      CAPTURE(strategy->name());
      for (const VertexId source : {VertexId{0}, VertexId{kPath / 2 + 1}, next_leaf - 1}) {
        CAPTURE(source);
        const AloneRun run = run_alone(g, source, *strategy);
        abfs::test::check_bfs(g, source, run.result);
        CHECK(run.runs == 1);
      }
    }
  }
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
  CHECK(kernels.count(1) == 1);  // grid levels, launched from the device
}

TEST_CASE("dynamic_parallel started by the host on a frontier wider than 256 grid blocks carries the BFS on") {
  // privatized_queue expands uniform:262144:6's first levels; dynamic_parallel applies from the
  // first frontier of 100,000 vertices or more (at out-degree 6, a lane a vertex: more than 256
  // blocks of 256 vertices), so its run starts with a grid level too wide to read its start from
  // the host's mapped copy: the host copies it to device memory and launches the device's graph.
  struct FromWide final : s::Strategy {
    std::unique_ptr<s::Strategy> dp = s::make_dynamic_parallel();
    const char* name() const override { return "dynamic_parallel from a wide frontier"; }
    bool applicable(const s::FrontierState& state) const override { return state.frontier_vertices >= 100'000; }
    s::FrontierIo frontier_io() const override { return dp->frontier_io(); }
    s::CostFeatures cost_features(const s::FrontierState& state, const abfs::GraphStats& stats) const override {
      return dp->cost_features(state, stats);
    }
    void prepare(abfs::detail::BfsBuffers& buffers) override { dp->prepare(buffers); }
    s::LevelOutcome run(s::LevelContext& context) override { return dp->run(context); }
  } wide;
  auto pq = s::make_privatized_queue();
  const abfs::Graph g = abfs::generate_uniform(262'144, 6, 3);
  for (const abfs::VertexId source : {abfs::VertexId{0}, abfs::VertexId{77'777}}) {
    CAPTURE(source);
    const AloneRun run = run_alone(g, source, wide, pq.get());
    abfs::test::check_bfs(g, source, run.result);
    REQUIRE(!run.calls.empty());
    CHECK(run.calls.front().level > 0);
    CHECK(run.fallback_levels == run.calls.front().level);  // the run went on to the BFS's end
    CHECK(run.device_kernels.count(1) == 1);
  }
}

TEST_CASE("dynamic_parallel's grid levels share hubs over the grid, size lane groups to the mean degree and, "
          "under 8 arcs a vertex, deal each block's lists to its threads") {
  // A source with 1,100 hub neighbours of 1,030 leaves each: level 1 is a grid level of 1,100
  // hubs, more than the 1,024 the grid can list, so the rest stay with their warps; helper
  // blocks (sized to the level's 1.1 million arcs) scan listed hubs only. Uniform graphs of
  // out-degree 6, 10, 20 and 40 take groups of 1, 8, 16 and 32 lanes per vertex.
  constexpr abfs::VertexId kHubs = 1100, kLeaves = 1030;
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> arcs;
  abfs::VertexId next = 1 + kHubs;
  for (abfs::VertexId h = 1; h <= kHubs; ++h) {
    arcs.emplace_back(0, h);
    for (abfs::VertexId k = 0; k < kLeaves; ++k) arcs.emplace_back(h, next++);
  }
  std::vector<abfs::test::Case> cases;
  const abfs::Graph hubs = abfs::test::make_graph(next, arcs, false);
  cases.push_back({"1,100 hubs from their common neighbour", hubs, 0});
  cases.push_back({"1,100 hubs from a leaf", hubs, next - 1});
  // A level of a few long lists (as soc-Slashdot0902's level 2 from source 28832): 42 vertices
  // and 13,600 arcs, 6 blocks by vertices, 14 by one per 1,024 arcs: a hub level whose two hubs
  // (2,300 arcs) the grid shares and whose lists of 600 arcs their blocks walk.
  {
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> few;
    abfs::VertexId n = 43;
    for (abfs::VertexId v = 1; v <= 42; ++v) {
      few.emplace_back(0, v);
      const abfs::VertexId length = v <= 2 ? 2300 : v <= 12 ? 600 : 100;
      for (abfs::VertexId k = 0; k < length; ++k) few.emplace_back(v, n++);
    }
    cases.push_back(
        {"a level of 42 vertices, 2 of 2,300 arcs and 10 of 600", abfs::test::make_graph(n, few, false), 0});
  }
  // Levels that are not hub levels (10,000 vertices, each with its arc back to the source, and
  // under 8 arcs a vertex: groups of one lane), whose blocks deal their vertices' lists to their
  // threads: spread, every 50th neighbour of the source has 300 leaves (a few a block);
  // clustered, the first 200 have 300 leaves or the first 1,500 have 40 (whole blocks of long
  // lists, where the frontier keeps the source's order, as a crawl order keeps a site's pages).
  struct Lists {
    abfs::VertexId every, first, length;
  };
  for (const Lists l : {Lists{50, 10000, 300}, Lists{1, 200, 300}, Lists{1, 1500, 40}}) {
    constexpr abfs::VertexId kNeighbours = 10000;
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> lists;
    abfs::VertexId n = 1 + kNeighbours;
    for (abfs::VertexId v = 1; v <= kNeighbours; ++v) {
      lists.emplace_back(0, v);
      const bool long_list = v <= l.first && v % l.every == 0;
      for (abfs::VertexId k = 0; k < (long_list ? l.length : 1); ++k) lists.emplace_back(v, n++);
    }
    cases.push_back({"lists of " + std::to_string(l.length) + " arcs on a level of 10,000 vertices, every " +
                         std::to_string(l.every) + (l.every == 1 ? " of the first " + std::to_string(l.first) : "th"),
                     abfs::test::make_graph(n, lists, false), 0});
  }
  for (const int degree : {6, 10, 20, 40}) {
    const abfs::Graph uniform = abfs::generate_uniform(30000, degree, 11);
    cases.push_back({"uniform 30000 x " + std::to_string(degree), uniform, 5});
  }
  auto dp = s::make_dynamic_parallel();
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const AloneRun run = run_alone(c.graph, c.source, *dp);
    abfs::test::check_bfs(c.graph, c.source, run.result);
    CHECK(run.runs == 1);
    CHECK(run.device_kernels.count(1) == 1);  // grid levels ran
  }
}

TEST_CASE("the level-loop probes run every chain to its last level and time each mechanism") {
  // Each chain counts its levels down in device memory; the probe throws if one stopped early.
  std::map<std::string, double> us;
  REQUIRE_NOTHROW(us = s::probe_level_loop_mechanisms(false));
  for (const char* mechanism : {"tail_launch", "device_graph_launch", "graph_while", "graph_kernel_node"}) {
    for (const char* shape : {"", "_grid"}) {
      const std::string key = std::string(mechanism) + shape + "_us";
      CAPTURE(key);
      REQUIRE(us.count(key) == 1);
      CHECK(us[key] > 0.0);
      CHECK(us[key] < 1000.0);  // per level: a millisecond would be a broken chain, not a slow one
    }
  }
  CHECK(us.size() == 8);
}

/// A hand-back table on the device: every size class of the run's kernels costs `stay` us a
/// level (and the given us per vertex a grid or a one-block level discovers, and block_step
/// more a one-block level warp 0 does not expand alone) and the host `host` us; profile levels
/// as given.
struct DeviceHandback {
  abfs::detail::DeviceBuffer<abfs::detail::HandbackModel> model{1};
  abfs::detail::DeviceBuffer<abfs::detail::HandbackLevel> levels;
  DeviceHandback(float stay, float host, const std::vector<abfs::detail::HandbackLevel>& profile,
                 float grid_per_discovered = 0.0f, float block_per_discovered = 0.0f, float block_step = 0.0f)
      : levels(profile.size()) {
    abfs::detail::HandbackModel m{};
    for (int c = 0; c < abfs::detail::kHandbackClasses; ++c) {
      m.stay[0][c] = m.stay[1][c] = m.stay[2][c] = {stay, 0.0f, 0.0f};
      m.block_stay[c] = {stay + block_step, 0.0f, 0.0f};
      m.host[c] = {host, 0.0f, 0.0f};
      m.per_discovered[0][c] = block_per_discovered;
      m.per_discovered[1][c] = m.per_discovered[2][c] = grid_per_discovered;
    }
    REQUIRE(cudaMemcpy(model.data(), &m, sizeof m, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(levels.data(), profile.data(), levels.bytes(), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  abfs::detail::HandbackTable table() const {
    return {model.data(), levels.data(), static_cast<unsigned int>(levels.size())};
  }
};

/// Levels a run from the source carries before a table that hands back once more than `limit`
/// vertices are discovered: it stops before the first level L >= 1 whose visit order (the
/// vertices at distance <= L) is longer.
int levels_before_limit(const abfs::BfsTree& reference, std::size_t limit) {
  std::vector<std::size_t> per_distance;
  for (const std::int32_t d : reference.distances) {
    if (d < 0) continue;
    if (per_distance.size() <= static_cast<std::size_t>(d)) per_distance.resize(static_cast<std::size_t>(d) + 1, 0);
    ++per_distance[static_cast<std::size_t>(d)];
  }
  std::size_t visited = per_distance[0];
  for (std::size_t level = 1; level < per_distance.size(); ++level) {
    visited += per_distance[level];
    if (visited > limit) return static_cast<int>(level);
  }
  return static_cast<int>(per_distance.size());
}

/// The frontiers of a BFS by level, from its reference distances: vertices, and arcs out of them.
struct LevelSizes {
  std::vector<abfs::VertexId> vertices;
  std::vector<abfs::EdgeOffset> arcs;
};
LevelSizes level_sizes(const abfs::Graph& g, const abfs::BfsTree& reference) {
  LevelSizes sizes;
  for (abfs::VertexId v = 0; v < g.num_vertices(); ++v) {
    const std::int32_t d = reference.distances[v];
    if (d < 0) continue;
    const auto level = static_cast<std::size_t>(d);
    if (sizes.vertices.size() <= level) {
      sizes.vertices.resize(level + 1, 0);
      sizes.arcs.resize(level + 1, 0);
    }
    ++sizes.vertices[level];
    sizes.arcs[level] += g.out_degree(v);
  }
  return sizes;
}

/// The device-driven strategies a hand-back table steers: one_block, dynamic_parallel, and
/// dynamic_parallel with 32-vertex block queues (its grid levels decide in their last block).
std::vector<std::pair<std::string, std::unique_ptr<s::Strategy>>> device_driven_runs() {
  s::DynamicParallelConfig tiny;
  tiny.block_loop.wqueue_capacity = 1;
  std::vector<std::pair<std::string, std::unique_ptr<s::Strategy>>> runs;
  runs.emplace_back("one_block", s::make_one_block());
  runs.emplace_back("dynamic_parallel", s::make_dynamic_parallel());
  runs.emplace_back("dynamic_parallel, 32-vertex block queue", s::make_dynamic_parallel(tiny));
  return runs;
}

TEST_CASE("one_block and dynamic_parallel hand back before the levels their hand-back table prices cheaper "
          "off the run") {
  constexpr float kNever = std::numeric_limits<float>::infinity();
  constexpr unsigned int kAll = std::numeric_limits<unsigned int>::max();
  const std::string reason = "the cost models price finishing off the run cheaper";
  auto pq = s::make_privatized_queue();
  const auto runs = device_driven_runs();
  // Leaving always wins (the planner's other choices cost 0): every run carries one level.
  const DeviceHandback always(1.0f, kNever, {{kAll, 0.0f, 0.0f, 0.0f, 0.0f}});
  // Leaving never wins: the table changes nothing.
  const DeviceHandback never(1.0f, kNever, {{kAll, 0.0f, kNever, 0.0f, 0.0f}});
  for (const auto& [name, strategy] : runs) {
    CAPTURE(name);
    for (const auto& c : all_small_graphs()) {
      CAPTURE(c.name);
      const abfs::BfsTree reference = abfs::reference_bfs(c.graph, c.source);
      s::Strategy* fallback = name == "one_block" ? pq.get() : nullptr;
      const AloneRun each = run_alone(c.graph, c.source, *strategy, fallback, always.table());
      abfs::test::check_bfs(c.graph, c.source, each.result, reference);
      for (const AloneRun::Call& call : each.calls) CHECK(call.levels == 1);
      if (each.runs > 1) CHECK(each.stop_reasons.count(reason) == 1);
      const AloneRun none = run_alone(c.graph, c.source, *strategy, fallback, never.table());
      abfs::test::check_bfs(c.graph, c.source, none.result, reference);
      CHECK(none.stop_reasons.count(reason) == 0);
      // Up to half the reachable vertices nothing beats the run; past them the host does (its
      // level 0 us and nothing after, against 1 us a level on the device). As two profile
      // levels, and as ~40 levels up to half (the run's binary search of its profile level).
      // The last level ends one vertex past half: a frontier is matched to the level before
      // the first that had discovered as many vertices where that is nearer in ratio, so a
      // last level far off (all vertices) would match every frontier past half to half's.
      const auto reached = std::count_if(reference.distances.begin(), reference.distances.end(),
                                         [](std::int32_t d) { return d >= 0; });
      const auto half = static_cast<unsigned int>(reached / 2);
      std::vector<abfs::detail::HandbackLevel> dense;
      for (unsigned int v = std::max(1u, half / 40); v < half; v += std::max(1u, half / 40)) {
        dense.push_back({v, 0.0f, kNever, kNever, 0.0f});
      }
      for (const bool many : {false, true}) {
        std::vector<abfs::detail::HandbackLevel> levels;
        if (many) levels = dense;
        CAPTURE(many);
        levels.push_back({half, 0.0f, kNever, kNever, 0.0f});
        levels.push_back({half + 1, 0.0f, kNever, 0.0f, 0.0f});
        const DeviceHandback by_host(1.0f, 0.0f, levels);
        const AloneRun host = run_alone(c.graph, c.source, *strategy, fallback, by_host.table());
        abfs::test::check_bfs(c.graph, c.source, host.result, reference);
        if (host.calls.empty() || host.calls[0].level != 0) continue;  // one_block did not fit level 0
        const AloneRun::Call& first = host.calls[0];
        const int expected = levels_before_limit(reference, half);
        CAPTURE(first.stop);
        if (first.stop == reason || first.stop.empty()) {
          CHECK(first.levels == expected);
        } else {
          CHECK(first.levels < expected);  // the frontier outgrew the queue first
        }
        for (const AloneRun::Call& call : host.calls) {
          if (call.level >= expected) CHECK(call.levels == 1);  // past the limit, no run carries a level
        }
      }
    }
  }
}

TEST_CASE("one_block and dynamic_parallel stop where the BFS outgrows the profile their table was built from") {
  // Leaving never wins by price; the table's profile ends at half the reachable vertices and a
  // larger one waits (outgrown_at): the first run stops before the first level past it.
  constexpr float kNever = std::numeric_limits<float>::infinity();
  constexpr unsigned int kAll = std::numeric_limits<unsigned int>::max();
  const std::string reason = "the BFS outgrew the sampled profile the run was priced with";
  auto pq = s::make_privatized_queue();
  const auto runs = device_driven_runs();
  const DeviceHandback never(1.0f, kNever, {{kAll, 0.0f, kNever, 0.0f, 0.0f}});
  int stopped = 0;
  for (const auto& [name, strategy] : runs) {
    CAPTURE(name);
    for (const auto& c : all_small_graphs()) {
      CAPTURE(c.name);
      const abfs::BfsTree reference = abfs::reference_bfs(c.graph, c.source);
      const auto reached = std::count_if(reference.distances.begin(), reference.distances.end(),
                                         [](std::int32_t d) { return d >= 0; });
      abfs::detail::HandbackTable table = never.table();
      table.outgrown_at = static_cast<unsigned int>(reached / 2);
      s::Strategy* fallback = name == "one_block" ? pq.get() : nullptr;
      const AloneRun run = run_alone(c.graph, c.source, *strategy, fallback, table);
      abfs::test::check_bfs(c.graph, c.source, run.result, reference);
      if (run.calls.empty() || run.calls[0].level != 0) continue;  // one_block did not fit level 0
      const AloneRun::Call& first = run.calls[0];
      const int expected = levels_before_limit(reference, table.outgrown_at);
      CAPTURE(first.stop);
      if (first.stop == reason) {
        CHECK(first.levels == expected);
        ++stopped;
      } else if (first.stop.empty()) {
        CHECK(first.levels == expected);  // the BFS ended there
      } else {
        CHECK(first.levels < expected);  // the frontier outgrew the queue first
      }
      for (const AloneRun::Call& call : run.calls) {
        if (call.level >= expected) CHECK(call.levels == 1);  // past the profile, no run carries a level
      }
    }
  }
  CHECK(stopped > 0);
}

TEST_CASE("dynamic_parallel's grid levels price the vertices they discover in the hand-back decision") {
  // Leaving costs 1,000 us, a level on the run 1 us plus, on a grid level, 1 us per vertex it
  // discovers, at the profile's one discovery per arc: the run hands back before any grid level
  // of over 999 arcs it would carry, and never without the term.
  constexpr float kNever = std::numeric_limits<float>::infinity();
  constexpr unsigned int kAll = std::numeric_limits<unsigned int>::max();
  const std::string reason = "the cost models price finishing off the run cheaper";
  s::DynamicParallelConfig tiny;
  tiny.block_loop.wqueue_capacity = 1;  // frontiers above 32 vertices go to grid levels
  auto dp = s::make_dynamic_parallel(tiny);
  const std::vector<abfs::detail::HandbackLevel> profile{{kAll, 0.0f, 1000.0f, kNever, 1.0f}};
  const DeviceHandback priced(1.0f, kNever, profile, 1.0f);
  const DeviceHandback unpriced(1.0f, kNever, profile, 0.0f);
  int graphs_with_costly_grid_levels = 0;
  for (const auto& c : all_small_graphs()) {
    CAPTURE(c.name);
    const abfs::BfsTree reference = abfs::reference_bfs(c.graph, c.source);
    const LevelSizes sizes = level_sizes(c.graph, reference);
    // Grid levels (over 32 vertices) that the term prices above leaving, after the first level.
    auto costly = [&](int level) {
      const auto l = static_cast<std::size_t>(level);
      return level >= 1 && l < sizes.vertices.size() && sizes.vertices[l] > 32 && sizes.arcs[l] > 999;
    };
    bool any = false;
    for (int level = 1; level < static_cast<int>(sizes.vertices.size()); ++level) any = any || costly(level);
    graphs_with_costly_grid_levels += any ? 1 : 0;

    const AloneRun with_term = run_alone(c.graph, c.source, *dp, nullptr, priced.table());
    abfs::test::check_bfs(c.graph, c.source, with_term.result, reference);
    CHECK(with_term.stop_reasons.count(reason) == (any ? 1u : 0u));
    for (const AloneRun::Call& call : with_term.calls) {
      for (int level = call.level + 1; level < call.level + call.levels; ++level) CHECK_FALSE(costly(level));
    }
    const AloneRun without = run_alone(c.graph, c.source, *dp, nullptr, unpriced.table());
    abfs::test::check_bfs(c.graph, c.source, without.result, reference);
    CHECK(without.stop_reasons.count(reason) == 0);
    CHECK(without.runs == 1);
  }
  CHECK(graphs_with_costly_grid_levels > 0);
}

/// Runs one_block and dynamic_parallel (not with 32-vertex block queues: there a lane's
/// one-slot w-queue spills and dynamic_parallel runs the next level as a grid level though it
/// fits the queue by count, so the counts do not say which levels are one-block levels) over
/// the small graphs with two hand-back tables: `flat` never hands back, and `priced` hands back
/// before every one-block level after a run's first that `dearer(vertices, arcs)` says its
/// term prices above leaving, and only where the run carries one without it. Returns how many
/// runs carried such a level, so that the caller can require the case to arise.
int check_one_block_term(const DeviceHandback& priced, const DeviceHandback& flat,
                         const std::function<bool(abfs::VertexId, abfs::EdgeOffset)>& dearer) {
  const std::string reason = "the cost models price finishing off the run cheaper";
  auto pq = s::make_privatized_queue();
  const auto block = s::make_one_block();  // which levels fit the one-block loop
  int runs_with_dearer_levels = 0;
  for (const auto& [name, strategy] : device_driven_runs()) {
    if (name.find("32-vertex") != std::string::npos) continue;
    CAPTURE(name);
    s::Strategy* fallback = name == "one_block" ? pq.get() : nullptr;
    for (const auto& c : all_small_graphs()) {
      CAPTURE(c.name);
      const abfs::BfsTree reference = abfs::reference_bfs(c.graph, c.source);
      const LevelSizes sizes = level_sizes(c.graph, reference);
      auto dearer_level = [&](int level) {  // a one-block level after the first that the term prices out
        const auto l = static_cast<std::size_t>(level);
        if (level < 1 || l >= sizes.vertices.size() || !dearer(sizes.vertices[l], sizes.arcs[l])) return false;
        s::FrontierState state;
        state.frontier_vertices = sizes.vertices[l];
        state.frontier_edges = sizes.arcs[l];
        return block->applicable(state);
      };
      const AloneRun without = run_alone(c.graph, c.source, *strategy, fallback, flat.table());
      abfs::test::check_bfs(c.graph, c.source, without.result, reference);
      CHECK(without.stop_reasons.count(reason) == 0);
      bool carried = false;  // what the run carries without the term
      for (const AloneRun::Call& call : without.calls) {
        for (int level = call.level + 1; level < call.level + call.levels; ++level) {
          carried = carried || dearer_level(level);
        }
      }
      runs_with_dearer_levels += carried ? 1 : 0;
      const AloneRun with_term = run_alone(c.graph, c.source, *strategy, fallback, priced.table());
      abfs::test::check_bfs(c.graph, c.source, with_term.result, reference);
      CHECK(with_term.stop_reasons.count(reason) == (carried ? 1u : 0u));
      for (const AloneRun::Call& call : with_term.calls) {
        for (int level = call.level + 1; level < call.level + call.levels; ++level) CHECK_FALSE(dearer_level(level));
      }
    }
  }
  return runs_with_dearer_levels;
}

TEST_CASE("one_block's and dynamic_parallel's one-block levels price the vertices they discover in the hand-back "
          "decision") {
  // Leaving costs 100 us, a level on the run 1 us plus, on a one-block level, 1 us per vertex
  // it discovers, at the profile's one discovery per arc: a run hands back before any one-block
  // level of over 99 arcs it would carry, and never without the term. Grid levels are not
  // priced by it (dynamic_parallel's levels over its block queue).
  constexpr float kNever = std::numeric_limits<float>::infinity();
  constexpr unsigned int kAll = std::numeric_limits<unsigned int>::max();
  const std::vector<abfs::detail::HandbackLevel> profile{{kAll, 0.0f, 100.0f, kNever, 1.0f}};
  const DeviceHandback priced(1.0f, kNever, profile, 0.0f, 1.0f);
  const DeviceHandback unpriced(1.0f, kNever, profile, 0.0f, 0.0f);
  CHECK(check_one_block_term(priced, unpriced, [](abfs::VertexId, abfs::EdgeOffset arcs) { return arcs > 99; }) > 0);
}

TEST_CASE("one_block's and dynamic_parallel's one-block levels that warp 0 does not expand alone are priced as the "
          "block's in the hand-back decision") {
  // Leaving costs 1.5 us, a level on the run 1 us where warp 0 expands it alone and 2 us where
  // the whole block does (over 32 vertices or 255 arcs: fits_warp; HandbackModel::block_stay):
  // a run hands back before any such one-block level it would carry after its first.
  constexpr float kNever = std::numeric_limits<float>::infinity();
  constexpr unsigned int kAll = std::numeric_limits<unsigned int>::max();
  const std::vector<abfs::detail::HandbackLevel> profile{{kAll, 0.0f, 1.5f, kNever, 0.0f}};
  const DeviceHandback stepped(1.0f, kNever, profile, 0.0f, 0.0f, 1.0f);
  const DeviceHandback flat(1.0f, kNever, profile);
  CHECK(check_one_block_term(stepped, flat, [](abfs::VertexId vertices, abfs::EdgeOffset arcs) {
          return vertices > 32 || arcs >= 256;
        }) > 0);
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
