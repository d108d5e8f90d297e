#pragma once
// Shared by the benchmarks: the graph list, provenance for the benchmark context, and putting
// a BFS at the start of a chosen level (the controlled frontier shapes of bench_strategies).

#include <abfs/graph.hpp>
#include <abfs/plan.hpp>

#include "runtime/bfs_buffers.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace abfs::bench {

/// Comma-separated graph specs or files from the environment variable name, else fallback.
inline std::vector<std::string> graph_specs(const char* name, const std::string& fallback) {
  const char* env = std::getenv(name);
  std::stringstream in(env != nullptr && *env ? env : fallback);
  std::vector<std::string> specs;
  for (std::string spec; std::getline(in, spec, ',');) {
    if (!spec.empty()) specs.push_back(spec);
  }
  return specs;
}

/// Device and commit in the benchmark context (STYLE: provenance of every number).
inline void add_context(const std::string& device) {
  benchmark::AddCustomContext("abfs_device", device);
  benchmark::AddCustomContext("abfs_commit", ABFS_GIT_COMMIT);
}

/// The visit order of a reference BFS grouped by level: order (reached vertices, level by
/// level) and level_begin (|levels|+1 offsets into it).
struct LevelIndex {
  std::vector<VertexId> order;
  std::vector<VertexId> level_begin;
};

inline LevelIndex index_levels(const BfsTree& tree) {
  LevelIndex index;
  std::int32_t depth = -1;
  for (auto d : tree.distances) depth = std::max(depth, d);
  std::vector<VertexId> count(static_cast<std::size_t>(depth) + 2, 0);
  for (auto d : tree.distances) {
    if (d >= 0) ++count[static_cast<std::size_t>(d) + 1];
  }
  for (std::size_t l = 1; l < count.size(); ++l) count[l] += count[l - 1];
  index.level_begin = count;
  index.order.resize(count.back());
  for (VertexId v = 0; v < tree.distances.size(); ++v) {
    if (tree.distances[v] >= 0) index.order[count[static_cast<std::size_t>(tree.distances[v])]++] = v;
  }
  return index;
}

/// Puts buffers at the start of level L of the BFS described by tree/index: every vertex of
/// levels <= L visited (host and, if it has one, device), frontier = order[begin, end) of L.
inline void set_level(detail::BfsBuffers& b, VertexId source, const BfsTree& tree, const LevelIndex& index, int level) {
  b.start(source);
  const VertexId end = index.level_begin[static_cast<std::size_t>(level) + 1];
  for (VertexId i = 0; i < end; ++i) {
    const VertexId v = index.order[i];
    b.h_order[i] = v;
    b.h_dist[v] = tree.distances[v];
    b.h_parent[v] = tree.parents[v];
    b.h_visited[v >> 5] |= 1u << (v & 31);
  }
  if (b.has_device()) {
    b.move_to_device(0, end);
    ABFS_CUDA_CHECK(cudaStreamSynchronize(b.stream()));  // the state is ready before timing starts
  }
}

}  // namespace abfs::bench
