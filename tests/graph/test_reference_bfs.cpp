#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

TEST_CASE("reference BFS on the lecture's 9-vertex graph gives the lecture's levels") {
  const abfs::Graph g = abfs::test::lecture_graph();
  const auto from0 = abfs::reference_bfs(g, 0);
  CHECK(from0.distances == std::vector<std::int32_t>{0, 1, 1, 2, 2, 2, 2, 2, 3});
  const auto from2 = abfs::reference_bfs(g, 2);
  CHECK(from2.distances == std::vector<std::int32_t>{2, 3, 0, 4, 4, 1, 1, 1, 2});
  CHECK(from2.parents[2] == 2);
  CHECK(from2.parents[0] == 7);  // 0 is reached only through 7
  CHECK(abfs::validate_bfs(g, 2, from2.distances, from2.parents).ok);
  CHECK_THROWS_AS(abfs::reference_bfs(g, 9), abfs::InvalidArgument);
}

TEST_CASE("the validator accepts any valid BFS tree and rejects each kind of defect") {
  const abfs::Graph g = abfs::test::lecture_graph();
  const auto good = abfs::reference_bfs(g, 0);
  REQUIRE(abfs::validate_bfs(g, 0, good.distances, good.parents).ok);

  auto check_rejected = [&](std::vector<std::int32_t> dist, std::vector<abfs::VertexId> parent, const char* what) {
    const auto r = abfs::validate_bfs(g, 0, dist, parent);
    CHECK_FALSE(r.ok);
    CHECK_MESSAGE(r.problem.find(what) != std::string::npos, r.problem);
  };
  {  // another valid tree: 4's parent may be 1 (level 1)
    auto parent = good.parents;
    parent[4] = 1;
    CHECK(abfs::validate_bfs(g, 0, good.distances, parent).ok);
  }
  {
    auto dist = good.distances;
    dist[0] = 1;
    check_rejected(dist, good.parents, "source");
  }
  {
    auto parent = good.parents;
    parent[8] = 2;  // 2 is at level 1, 8 at level 3
    check_rejected(good.distances, parent, "has parent");
  }
  {
    auto parent = good.parents;
    parent[5] = 3;  // level 2 -> 3 ok, but no arc 3 -> 5
    auto dist = good.distances;
    check_rejected(dist, parent, "has parent");
  }
  {
    auto parent = good.parents;
    parent[8] = 5;  // 5 at level 2, arc 5 -> 8? no: 5 -> 6 only
    check_rejected(good.distances, parent, "not in the graph");
  }
  {
    auto dist = good.distances;
    auto parent = good.parents;
    dist[8] = -1;  // 8 is reachable from 3
    parent[8] = abfs::kNoVertex;
    check_rejected(dist, parent, "unreached");
  }
  {
    auto dist = good.distances;
    dist[8] = 4;  // arc 3 -> 8 would span 2 -> 4
    auto parent = good.parents;
    parent[8] = 6;
    dist[6] = 3;
    check_rejected(dist, parent, "level");
  }
  {
    auto parent = good.parents;
    parent.pop_back();
    check_rejected(good.distances, parent, "entries");
  }
}

TEST_CASE("reference BFS and the validator agree on every real graph (skipped without ../shared/data)") {
  abfs::LoadOptions options;
  options.use_cache = false;
  for (const auto& path : abfs::test::real_graph_paths()) {
    const abfs::Graph g = abfs::load_graph(path, options);
    for (abfs::VertexId s : abfs::test::sample_sources(g, 2)) {
      const auto tree = abfs::reference_bfs(g, s);
      const auto r = abfs::validate_bfs(g, s, tree.distances, tree.parents);
      INFO(path << " source " << s << ": " << r.problem);
      CHECK(r.ok);
    }
  }
}
