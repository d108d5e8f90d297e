#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

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

namespace {

// What a bottom-up step at each level scans, by simulating it: every vertex not yet visited
// walks its in-list until it meets the level's frontier.
std::vector<abfs::LevelShape> simulated_pull_profile(const abfs::Graph& g, const std::vector<std::int32_t>& dist) {
  const std::int32_t depth = *std::max_element(dist.begin(), dist.end()) + 1;
  std::vector<abfs::LevelShape> levels(static_cast<std::size_t>(depth));
  const abfs::Csr& in = g.reverse_csr();
  for (std::int32_t level = 0; level < depth; ++level) {
    abfs::LevelShape& shape = levels[static_cast<std::size_t>(level)];
    for (abfs::VertexId v = 0; v < g.num_vertices(); ++v) {
      if (dist[v] >= 0 && dist[v] <= level) continue;  // visited
      abfs::EdgeOffset scanned = 0;
      for (abfs::EdgeOffset e = in.row_offsets[v]; e < in.row_offsets[v + 1]; ++e) {
        ++scanned;
        if (dist[in.column_indices[e]] == level) break;
      }
      shape.pull_scanned_edges += scanned;
    }
  }
  return levels;
}

}  // namespace

TEST_CASE("add_pull_profile counts what a bottom-up step scans at each level") {
  // 0 -> 1 -> 8 -> 3; vertex 3 is also the in-hub of 2, 4, 5 and 6, which are unreachable.
  const abfs::Graph hub = abfs::test::make_graph(9, {{0, 1}, {1, 8}, {8, 3}, {2, 3}, {4, 3}, {5, 3}, {6, 3}}, true);
  const auto tree = abfs::reference_bfs(hub, 0);
  std::vector<abfs::LevelShape> levels(4);
  abfs::add_pull_profile(hub, tree.distances, levels);
  // Level 0: 1 stops at once, 8 scans {1}, 3 scans all 5 in-arcs {2, 4, 5, 6, 8}.
  CHECK(levels[0].pull_scanned_edges == 1 + 1 + 5);
  CHECK(levels[1].pull_scanned_edges == 1 + 5);
  // Level 2: 3 is found through 8, its last in-arc (in-lists are sorted by source).
  CHECK(levels[2].pull_scanned_edges == 5);
  CHECK(levels[3].pull_scanned_edges == 0);

  for (const abfs::Graph& g : {abfs::generate_kronecker(10, 16, 3), abfs::generate_uniform(3000, 3, 5),
                               abfs::test::lecture_graph()}) {
    for (abfs::VertexId s : abfs::test::sample_sources(g, 3)) {
      const auto t = abfs::reference_bfs(g, s);
      const auto expected = simulated_pull_profile(g, t.distances);
      std::vector<abfs::LevelShape> got(expected.size());
      abfs::add_pull_profile(g, t.distances, got);
      for (std::size_t level = 0; level < expected.size(); ++level) {
        INFO(g.name() << " source " << s << " level " << level);
        CHECK(got[level].pull_scanned_edges == expected[level].pull_scanned_edges);
      }
    }
  }
  std::vector<abfs::LevelShape> wrong(1);
  CHECK_THROWS_AS(abfs::add_pull_profile(hub, std::vector<std::int32_t>(3, 0), wrong), abfs::InvalidArgument);
}

TEST_CASE("strongly connected components are the classes of mutual reachability") {
  // Against the definition: u and v share an id exactly when each reaches the other (reference
  // BFSs), on random digraphs sparse enough for many components, their symmetric versions
  // (connected components), a long path (depth past any recursion limit) and a cycle.
  auto check = [](const abfs::Graph& g) {
    const std::vector<abfs::VertexId> component = abfs::strongly_connected_components(g);
    const abfs::VertexId n = g.num_vertices();
    REQUIRE(component.size() == n);
    std::vector<std::vector<std::int32_t>> reach;
    for (abfs::VertexId v = 0; v < n; ++v) reach.push_back(abfs::reference_bfs(g, v).distances);
    for (abfs::VertexId u = 0; u < n; ++u) {
      CHECK(component[u] < n);
      for (abfs::VertexId v = 0; v < n; ++v) {
        const bool mutual = reach[u][v] >= 0 && reach[v][u] >= 0;
        if ((component[u] == component[v]) != mutual) {
          FAIL_CHECK("vertices " << u << " and " << v << ": ids " << component[u] << ", " << component[v]
                                 << ", mutually reachable " << mutual);
        }
      }
    }
  };
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const abfs::VertexId n = 1 + rng() % 40;
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> arcs;
    for (abfs::VertexId k = 0; k < n + n / 2; ++k) arcs.emplace_back(rng() % n, rng() % n);
    CAPTURE(trial);
    check(abfs::test::make_graph(n, arcs, true, true));
    check(abfs::test::make_graph(n, arcs, false, true));
  }
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> path;
  for (abfs::VertexId v = 0; v + 1 < 200000; ++v) path.emplace_back(v, v + 1);
  const std::vector<abfs::VertexId> one_way = abfs::strongly_connected_components(abfs::test::make_graph(200000, path, true));
  CHECK(std::set<abfs::VertexId>(one_way.begin(), one_way.end()).size() == 200000);
  path.emplace_back(199999, 0);
  const std::vector<abfs::VertexId> cycle = abfs::strongly_connected_components(abfs::test::make_graph(200000, path, true));
  CHECK(std::count(cycle.begin(), cycle.end(), cycle[0]) == 200000);
  CHECK(abfs::strongly_connected_components(abfs::Graph()).empty());
}

TEST_CASE("a component's reach bounds are at least what its vertices reach, and exact without two paths") {
  // Against reference BFSs: never under any member's reach (vertices, and arcs out of them);
  // exactly it wherever the vertex bound is reached, so always on undirected graphs (the
  // connected component) and on a one-way path; over it where two paths reach one component.
  struct Reach {
    abfs::VertexId vertices = 0;
    abfs::EdgeOffset arcs = 0;
  };
  auto reaches = [](const abfs::Graph& g, abfs::VertexId v) {
    const auto d = abfs::reference_bfs(g, v).distances;
    Reach r;
    for (abfs::VertexId u = 0; u < g.num_vertices(); ++u) {
      if (d[u] < 0) continue;
      ++r.vertices;
      r.arcs += g.out_degree(u);
    }
    return r;
  };
  std::mt19937 rng(11);
  int exact = 0, over = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const abfs::VertexId n = 1 + rng() % 40;
    std::vector<std::pair<abfs::VertexId, abfs::VertexId>> arcs;
    for (abfs::VertexId k = 0; k < n + n / 2; ++k) arcs.emplace_back(rng() % n, rng() % n);
    CAPTURE(trial);
    for (const bool directed : {true, false}) {
      const abfs::Graph g = abfs::test::make_graph(n, arcs, directed, true);
      const std::vector<abfs::VertexId> component = abfs::strongly_connected_components(g);
      const abfs::ReachBounds bound = abfs::component_reach_bounds(g, component);
      REQUIRE(bound.arcs.size() == bound.vertices.size());
      for (abfs::VertexId v = 0; v < n; ++v) {
        CAPTURE(v);
        REQUIRE(component[v] < bound.vertices.size());
        const Reach reach = reaches(g, v);
        const abfs::VertexId vertices = bound.vertices[component[v]];
        const abfs::EdgeOffset arcs_out = bound.arcs[component[v]];
        CHECK(vertices >= reach.vertices);
        CHECK(vertices <= n);
        CHECK(arcs_out >= reach.arcs);
        CHECK(arcs_out <= g.num_edges());
        if (!directed) CHECK(vertices == reach.vertices);
        if (vertices == reach.vertices) {
          CHECK(arcs_out == reach.arcs);
          ++exact;
        } else {
          ++over;
        }
      }
    }
  }
  CHECK(exact > 0);
  CHECK(over > 0);  // the random digraphs have components reached by two paths
  // A one-way path: vertex v reaches the n - v vertices from it on, and n - v - 1 arcs.
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> path;
  for (abfs::VertexId v = 0; v + 1 < 1000; ++v) path.emplace_back(v, v + 1);
  const abfs::Graph one_way = abfs::test::make_graph(1000, path, true);
  const std::vector<abfs::VertexId> on_path = abfs::strongly_connected_components(one_way);
  const abfs::ReachBounds path_bound = abfs::component_reach_bounds(one_way, on_path);
  for (abfs::VertexId v : {0u, 1u, 500u, 999u}) {
    CHECK(path_bound.vertices[on_path[v]] == 1000 - v);
    CHECK(path_bound.arcs[on_path[v]] == 999 - v);
  }
  // A diamond 0 -> {1, 2} -> 3 (1 in a 2-cycle with 4; 5 isolated): 0 reaches 5 vertices, its
  // bound counts 3 twice: 1 + ({1, 4}: 2 + 1) + ({2}: 1 + 1) = 6.
  const abfs::Graph diamond = abfs::test::make_graph(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {1, 4}, {4, 1}}, true);
  const std::vector<abfs::VertexId> c = abfs::strongly_connected_components(diamond);
  const abfs::ReachBounds b = abfs::component_reach_bounds(diamond, c);
  CHECK(reaches(diamond, 0).vertices == 5);
  CHECK(b.vertices[c[0]] == 6);
  CHECK(b.arcs[c[0]] == 6);  // its 6 arcs, all (2 + (3 + 0) + (1 + 0) = 6)
  CHECK(b.vertices[c[1]] == 3);
  CHECK(b.arcs[c[1]] == 3);
  CHECK(b.vertices[c[2]] == 2);
  CHECK(b.vertices[c[3]] == 1);
  CHECK(b.vertices[c[5]] == 1);
  CHECK(b.arcs[c[5]] == 0);
  // Ids that are not Tarjan's: too few, out of range, or an arc to a later id.
  CHECK_THROWS_AS(abfs::component_reach_bounds(diamond, {0, 0}), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::component_reach_bounds(diamond, {0, 1, 2, 3, 4, 9}), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::component_reach_bounds(one_way, std::vector<abfs::VertexId>(on_path.rbegin(), on_path.rend())),
                  abfs::InvalidArgument);
  CHECK(abfs::component_reach_bounds(abfs::Graph(), {}).vertices.empty());
}
