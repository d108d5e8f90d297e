#pragma once
// Internal: building CSRs from edge lists, shared by the loaders and the generators.

#include <abfs/graph.hpp>

#include <cstdint>
#include <vector>

namespace abfs::detail {

/// Arcs as two parallel arrays (src[i] -> dst[i]).
struct EdgeList {
  std::vector<VertexId> src;
  std::vector<VertexId> dst;
};

struct BuildOptions {
  bool add_reverse = false;  ///< also insert dst -> src (undirected graphs)
  bool drop_self_loops = true;
  bool drop_duplicate_edges = true;
};

/// Builds a CSR over num_vertices vertices with sorted adjacency lists. Deterministic for a given
/// edge list whatever the thread count. Every id must be < num_vertices (callers check).
Csr build_csr(VertexId num_vertices, const EdgeList& edges, const BuildOptions& options);

/// The transpose of a CSR over num_vertices vertices (the in-arcs of a directed graph), each
/// list sorted: a counting sort by destination with atomic cursors, parallel over sources, then
/// finalize_adjacency. Deterministic whatever the thread count; arrays in huge pages.
Csr transpose_csr(const Csr& forward, VertexId num_vertices);

/// Sorts every adjacency list and, as the options say, removes duplicates and self-loops,
/// compacting the CSR. Parallel over vertices.
void finalize_adjacency(Csr& csr, bool drop_self_loops, bool drop_duplicate_edges);

/// Largest vertex count a Graph may have (ids up to 2^32 - 2; kNoVertex is reserved).
inline constexpr std::uint64_t kMaxVertices = 0xFFFFFFFEull;

}  // namespace abfs::detail
