// The executor with a device: forced strategies, schedules that switch at every level (covering
// host -> device and device -> host conversions in both orders), and the built-in rule.

#include <abfs/plan.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

namespace {

struct Mode {
  const char* name;
  abfs::PlanOptions options;
};

std::vector<Mode> modes() {
  std::vector<Mode> m;
  m.push_back({"auto", {}});
  abfs::PlanOptions forced;
  forced.strategy = "privatized_queue";
  m.push_back({"forced privatized_queue", forced});
  abfs::PlanOptions host_first;
  host_first.schedule = {"cpu_expand", "privatized_queue"};
  m.push_back({"alternate, host first", host_first});
  abfs::PlanOptions device_first;
  device_first.schedule = {"privatized_queue", "cpu_expand"};
  m.push_back({"alternate, device first", device_first});
  abfs::PlanOptions runs;
  runs.schedule = {"privatized_queue", "privatized_queue", "cpu_expand", "cpu_expand", "privatized_queue"};
  m.push_back({"runs of two", runs});
  abfs::PlanOptions zero;
  zero.rule.cpu_max_frontier_edges = 0;
  m.push_back({"rule: device always", zero});
  return m;
}

void check_modes(const abfs::Graph& g, const std::vector<abfs::VertexId>& sources) {
  for (const auto& mode : modes()) {
    CAPTURE(mode.name);
    abfs::Plan plan = abfs::plan_bfs(g, mode.options);
    CHECK(plan.warnings().empty());
    abfs::BfsResult r;
    for (abfs::VertexId s : sources) {
      plan.execute(s, r);  // one plan and result reused across sources
      abfs::test::check_bfs(g, s, r);
      if (!mode.options.schedule.empty()) {
        for (const auto& level : r.levels) {
          CHECK(level.strategy == mode.options.schedule[static_cast<std::size_t>(level.level) % mode.options.schedule.size()]);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("executor with a device is correct on every edge case under every schedule") {
  for (const auto& c : abfs::test::edge_case_graphs()) {
    CAPTURE(c.name);
    check_modes(c.graph, {c.source, c.source});
  }
}

TEST_CASE("executor with a device is correct on generated graphs") {
  const abfs::Graph kron = abfs::generate_kronecker(16, 16, 2);
  check_modes(kron, abfs::test::sample_sources(kron, 3));
  const abfs::Graph uniform = abfs::generate_uniform(100000, 8, 3);
  check_modes(uniform, abfs::test::sample_sources(uniform, 3));
}

TEST_CASE("the built-in rule puts small frontiers on the host and large ones on the device") {
  const abfs::Graph g = abfs::generate_kronecker(16, 16, 2);
  abfs::Plan plan = abfs::plan_bfs(g);
  const abfs::BfsResult r = plan.execute(abfs::test::sample_sources(g, 1).front());
  bool host = false, device = false;
  for (const auto& level : r.levels) {
    const bool small = level.frontier_edges < abfs::SwitchRule{}.cpu_max_frontier_edges;
    CHECK(level.strategy == (small ? "cpu_expand" : "privatized_queue"));
    host |= small;
    device |= !small;
  }
  CHECK(host);
  CHECK(device);
}

TEST_CASE("executor with a device is correct on every real graph (skipped without ../shared/data)") {
  abfs::LoadOptions load;
  load.use_cache = false;
  for (const auto& path : abfs::test::real_graph_paths()) {
    CAPTURE(path);
    const abfs::Graph g = abfs::load_graph(path, load);
    check_modes(g, abfs::test::sample_sources(g, 2));
  }
}
