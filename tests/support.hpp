#pragma once
// Shared test helpers: small graphs built from edge lists, the real-graph folder, and the one
// BFS check every test uses (Graph500 validator + exact distances of the reference BFS).

#include <abfs/graph.hpp>
#include <abfs/result.hpp>

#include "graph/build.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace abfs::test {

/// Graph of n vertices from (src, dst) pairs; undirected adds reverse arcs. Self-loops and
/// duplicates are dropped unless keep is true.
inline Graph make_graph(VertexId n, const std::vector<std::pair<VertexId, VertexId>>& arcs, bool directed,
                        bool keep = false) {
  detail::EdgeList edges;
  for (const auto& [s, d] : arcs) {
    edges.src.push_back(s);
    edges.dst.push_back(d);
  }
  detail::BuildOptions options;
  options.add_reverse = !directed;
  options.drop_self_loops = !keep;
  options.drop_duplicate_edges = !keep;
  return Graph(detail::build_csr(n, edges, options), directed, "test");
}

/// The 9-vertex directed example graph of the seed lecture (PMPP, "graph search" chapter):
/// row_offsets {0,2,4,7,9,11,12,13,15,15}, column_indices {1,2,3,4,5,6,7,4,8,5,8,6,8,0,6}.
inline Graph lecture_graph() {
  Csr csr;
  csr.row_offsets = {0, 2, 4, 7, 9, 11, 12, 13, 15, 15};
  csr.column_indices = {1, 2, 3, 4, 5, 6, 7, 4, 8, 5, 8, 6, 8, 0, 6};
  return Graph(std::move(csr), true, "lecture9");
}

/// Folder of the real graphs: $ABFS_DATA_DIR, else ../shared/data beside the source tree.
inline std::string data_dir() {
  if (const char* env = std::getenv("ABFS_DATA_DIR"); env != nullptr && *env) return env;
  return ABFS_TEST_SHARED_DATA;
}

/// Paths of every graph file in data_dir(), sorted; empty (with a doctest message) if absent.
inline std::vector<std::string> real_graph_paths() {
  std::vector<std::string> paths;
  std::error_code ec;
  if (!std::filesystem::is_directory(data_dir(), ec)) {
    MESSAGE("skipped: real graphs folder " << data_dir() << " is absent (set ABFS_DATA_DIR)");
    return paths;
  }
  for (const auto& entry : std::filesystem::directory_iterator(data_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 3 && name.substr(name.size() - 3) == ".gz") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// Small graphs covering the edge cases every strategy must handle, each with a source.
struct Case {
  std::string name;
  Graph graph;
  VertexId source;
};
inline std::vector<Case> edge_case_graphs() {
  std::vector<Case> cases;
  cases.push_back({"one vertex", make_graph(1, {}, false), 0});
  cases.push_back({"isolated source", make_graph(4, {{1, 2}, {2, 3}}, false), 0});
  cases.push_back({"self-loops kept", make_graph(3, {{0, 0}, {0, 1}, {1, 1}, {1, 2}}, true, true), 0});
  cases.push_back({"duplicate edges kept", make_graph(3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}}, true, true), 0});
  cases.push_back({"disconnected", make_graph(6, {{0, 1}, {1, 2}, {3, 4}, {4, 5}}, false), 4});
  std::vector<std::pair<VertexId, VertexId>> path, star;
  for (VertexId v = 0; v + 1 < 2000; ++v) path.push_back({v, v + 1});
  for (VertexId v = 1; v < 70000; ++v) star.push_back({0, v});
  cases.push_back({"path", make_graph(2000, path, false), 0});
  cases.push_back({"path from the middle", make_graph(2000, path, false), 1000});
  cases.push_back({"star from the hub", make_graph(70000, star, false), 0});
  cases.push_back({"star from a leaf", make_graph(70000, star, false), 777});
  cases.push_back({"directed star, leaf source", make_graph(70000, star, true), 5});
  cases.push_back({"grid", generate_grid(60, 70), 0});
  cases.push_back({"lecture graph from 0", lecture_graph(), 0});
  cases.push_back({"lecture graph from 2", lecture_graph(), 2});
  cases.push_back({"kronecker 12", generate_kronecker(12, 16, 3), 0});
  cases.push_back({"uniform 20000 x 8", generate_uniform(20000, 8, 5), 17});
  return cases;
}

/// The check every BFS result gets: Graph500 validation and the reference BFS's distances
/// (reference = reference_bfs(graph, source), computed once per source by callers that check
/// several results).
inline void check_bfs(const Graph& graph, VertexId source, const BfsResult& result, const BfsTree& reference) {
  const ValidationResult v = validate_bfs(graph, source, result.distances, result.parents);
  INFO("graph " << graph.name() << ", source " << source << ": " << v.problem);
  REQUIRE(v.ok);
  REQUIRE(result.distances == reference.distances);
  VertexId reached = 0;
  for (auto d : reference.distances) reached += d >= 0;
  CHECK(result.vertices_reached == reached);
  CHECK(result.edges_traversed == traversed_edges(graph, reference.distances));
}

inline void check_bfs(const Graph& graph, VertexId source, const BfsResult& result) {
  check_bfs(graph, source, result, reference_bfs(graph, source));
}

/// The reference BFS's vertices per distance: what each level record's frontier must be.
inline std::vector<VertexId> frontier_sizes(const BfsTree& reference) {
  std::vector<VertexId> frontier;
  for (const std::int32_t d : reference.distances) {
    if (d < 0) continue;
    if (frontier.size() <= static_cast<std::size_t>(d)) frontier.resize(static_cast<std::size_t>(d) + 1, 0);
    ++frontier[static_cast<std::size_t>(d)];
  }
  return frontier;
}

/// k deterministic sources with out-degree > 0 (or vertex 0 if none has).
inline std::vector<VertexId> sample_sources(const Graph& graph, int k, std::uint64_t seed = 7) {
  std::vector<VertexId> sources;
  std::uint64_t x = seed;
  for (int attempts = 0; static_cast<int>(sources.size()) < k && attempts < 100000; ++attempts) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const auto v = static_cast<VertexId>((x >> 33) % graph.num_vertices());
    if (graph.out_degree(v) > 0) sources.push_back(v);
  }
  if (sources.empty()) sources.push_back(0);
  return sources;
}

}  // namespace abfs::test
