// The sequential reference BFS and the Graph500-style validator: the yardsticks every strategy
// is tested against.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include <string>

namespace abfs {

BfsTree reference_bfs(const Graph& graph, VertexId source) {
  const VertexId n = graph.num_vertices();
  if (source >= n) {
    throw InvalidArgument("source " + std::to_string(source) + " out of range: the graph has " +
                          std::to_string(n) + " vertices");
  }
  BfsTree tree;
  tree.distances.assign(n, -1);
  tree.parents.assign(n, kNoVertex);
  std::vector<VertexId> queue;
  queue.reserve(n);
  queue.push_back(source);
  tree.distances[source] = 0;
  tree.parents[source] = source;
  const Csr& csr = graph.csr();
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId u = queue[head];
    for (EdgeOffset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const VertexId v = csr.column_indices[e];
      if (tree.distances[v] < 0) {
        tree.distances[v] = tree.distances[u] + 1;
        tree.parents[v] = u;
        queue.push_back(v);
      }
    }
  }
  return tree;
}

ValidationResult validate_bfs(const Graph& graph, VertexId source, const std::vector<std::int32_t>& distances,
                              const std::vector<VertexId>& parents) {
  ValidationResult result;
  auto fail = [&result](std::string problem) {
    result.ok = false;
    result.problem = std::move(problem);
    return result;
  };
  const VertexId n = graph.num_vertices();
  if (source >= n) return fail("source " + std::to_string(source) + " out of range");
  if (distances.size() != n) return fail("distances has " + std::to_string(distances.size()) + " entries, |V| = " + std::to_string(n));
  const bool check_parents = !parents.empty();
  if (check_parents && parents.size() != n) return fail("parents has " + std::to_string(parents.size()) + " entries, |V| = " + std::to_string(n));
  if (distances[source] != 0) return fail("source " + std::to_string(source) + " has level " + std::to_string(distances[source]));
  if (check_parents && parents[source] != source) return fail("source is not its own parent");

  for (VertexId v = 0; v < n; ++v) {
    const std::int32_t d = distances[v];
    if (d < -1) return fail("vertex " + std::to_string(v) + " has invalid level " + std::to_string(d));
    if (d >= 0) ++result.num_reached;
    if (!check_parents || v == source) continue;
    const VertexId p = parents[v];
    if (d < 0) {
      if (p != kNoVertex) return fail("unreached vertex " + std::to_string(v) + " has parent " + std::to_string(p));
      continue;
    }
    if (p >= n) return fail("reached vertex " + std::to_string(v) + " has no valid parent");
    if (distances[p] != d - 1) {
      return fail("vertex " + std::to_string(v) + " at level " + std::to_string(d) + " has parent " +
                  std::to_string(p) + " at level " + std::to_string(distances[p]));
    }
  }

  // One pass over all arcs: mark parent arcs that exist, and check no arc skips a level.
  const Csr& csr = graph.csr();
  std::vector<std::uint8_t> parent_arc_seen(check_parents ? n : 0, 0);
  for (VertexId u = 0; u < n; ++u) {
    const std::int32_t du = distances[u];
    if (du < 0) continue;
    for (EdgeOffset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const VertexId v = csr.column_indices[e];
      const std::int32_t dv = distances[v];
      if (dv < 0) {
        return fail("arc " + std::to_string(u) + " -> " + std::to_string(v) + " leaves reached vertex " +
                    std::to_string(u) + " (level " + std::to_string(du) + ") for unreached " + std::to_string(v));
      }
      if (dv > du + 1) {
        return fail("arc " + std::to_string(u) + " -> " + std::to_string(v) + " spans levels " +
                    std::to_string(du) + " -> " + std::to_string(dv));
      }
      if (check_parents && parents[v] == u) parent_arc_seen[v] = 1;
    }
  }
  if (check_parents) {
    for (VertexId v = 0; v < n; ++v) {
      if (v != source && distances[v] >= 0 && !parent_arc_seen[v]) {
        return fail("parent arc " + std::to_string(parents[v]) + " -> " + std::to_string(v) + " is not in the graph");
      }
    }
  }
  return result;
}

EdgeOffset traversed_edges(const Graph& graph, const std::vector<std::int32_t>& distances) {
  EdgeOffset arcs = 0;
  const VertexId n = graph.num_vertices();
  for (VertexId v = 0; v < n && v < distances.size(); ++v) {
    if (distances[v] >= 0) arcs += graph.out_degree(v);
  }
  return graph.directed() ? arcs : arcs / 2;
}

}  // namespace abfs
