// Deterministic graph generators. Every random draw comes from a counter-based generator
// (splitmix64 of seed and index), so results are identical for any thread count.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "graph/build.hpp"
#include "graph/host_pages.hpp"

#include <string>

namespace abfs {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform double in [0, 1) from 53 random bits.
double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

detail::BuildOptions build_options(const LoadOptions& options, bool add_reverse) {
  detail::BuildOptions b;
  b.add_reverse = add_reverse;
  b.drop_self_loops = options.drop_self_loops;
  b.drop_duplicate_edges = options.drop_duplicate_edges;
  return b;
}

}  // namespace

Graph generate_kronecker(int scale, int edge_factor, std::uint64_t seed, const LoadOptions& options) {
  if (scale < 1 || scale > 31) throw InvalidArgument("Kronecker scale must be in [1, 31], got " + std::to_string(scale));
  if (edge_factor < 1) throw InvalidArgument("Kronecker edge factor must be positive");
  // Graph500 initiator probabilities.
  constexpr double kA = 0.57, kB = 0.19, kC = 0.19;
  const std::uint64_t n = std::uint64_t{1} << scale;
  const std::uint64_t m = n * static_cast<std::uint64_t>(edge_factor);

  // Random vertex relabelling (Fisher-Yates), so that vertex id carries no degree information.
  std::vector<VertexId> permutation(n);
  for (std::uint64_t v = 0; v < n; ++v) permutation[v] = static_cast<VertexId>(v);
  std::uint64_t state = splitmix64(seed ^ 0x5DEECE66Dull);
  for (std::uint64_t v = n - 1; v > 0; --v) {
    state = splitmix64(state);
    std::swap(permutation[v], permutation[state % (v + 1)]);
  }

  detail::EdgeList edges;
  edges.src.resize(m);
  edges.dst.resize(m);
  const auto count = static_cast<std::int64_t>(m);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    std::uint64_t rng = splitmix64(seed * 0xD1B54A32D192ED03ull + static_cast<std::uint64_t>(i));
    std::uint64_t u = 0, v = 0;
    for (int bit = 0; bit < scale; ++bit) {
      rng = splitmix64(rng);
      const double r = unit(rng);
      const std::uint64_t ubit = r >= kA + kB ? 1 : 0;  // C or D quadrant
      const std::uint64_t vbit = (r >= kA && r < kA + kB) || r >= kA + kB + kC ? 1 : 0;  // B or D
      u |= ubit << bit;
      v |= vbit << bit;
    }
    edges.src[static_cast<std::size_t>(i)] = permutation[u];
    edges.dst[static_cast<std::size_t>(i)] = permutation[v];
  }
  return Graph(detail::build_csr(static_cast<VertexId>(n), edges, build_options(options, true)), false,
               "kron:" + std::to_string(scale) + ":" + std::to_string(edge_factor) + ":" + std::to_string(seed));
}

Graph generate_uniform(VertexId num_vertices, int out_degree, std::uint64_t seed, const LoadOptions& options) {
  if (num_vertices == 0 || out_degree <= 0) {
    throw InvalidArgument("uniform graph needs a positive vertex count and out-degree");
  }
  if (num_vertices > detail::kMaxVertices) throw InvalidArgument("uniform graph: too many vertices");
  const std::uint64_t n = num_vertices;
  const std::uint64_t d = n > 1 ? static_cast<std::uint64_t>(out_degree) : 0;  // no self-loops possible
  Csr csr;
  detail::resize_in_huge_pages(csr.row_offsets, n + 1);  // BFS host levels read the CSR at random
  detail::resize_in_huge_pages(csr.column_indices, n * d);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v <= count; ++v) csr.row_offsets[v] = static_cast<EdgeOffset>(v) * d;
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < count; ++v) {
    for (std::uint64_t k = 0; k < d; ++k) {
      const std::uint64_t slot = static_cast<std::uint64_t>(v) * d + k;
      std::uint64_t target = splitmix64(seed * 0xD1B54A32D192ED03ull + slot) % (n - 1);
      if (target >= static_cast<std::uint64_t>(v)) ++target;  // skip v itself
      csr.column_indices[slot] = static_cast<VertexId>(target);
    }
  }
  const std::string name = "uniform:" + std::to_string(n) + ":" + std::to_string(out_degree) + ":" + std::to_string(seed);
  if (options.symmetrize) {
    detail::EdgeList edges;
    edges.dst = std::move(csr.column_indices);
    edges.src.resize(edges.dst.size());
    for (std::uint64_t slot = 0; slot < edges.src.size(); ++slot) edges.src[slot] = static_cast<VertexId>(slot / d);
    return Graph(detail::build_csr(num_vertices, edges, build_options(options, true)), false, name);
  }
  detail::finalize_adjacency(csr, options.drop_self_loops, options.drop_duplicate_edges);
  return Graph(std::move(csr), true, name);
}

Graph generate_grid(VertexId rows, VertexId cols) {
  const std::uint64_t n = static_cast<std::uint64_t>(rows) * cols;
  if (n == 0) throw InvalidArgument("grid needs positive rows and columns");
  if (n > detail::kMaxVertices) throw InvalidArgument("grid has more than 2^32 - 2 vertices");
  detail::EdgeList edges;
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      const auto v = static_cast<VertexId>(r * cols + c);
      if (c + 1 < cols) {
        edges.src.push_back(v);
        edges.dst.push_back(v + 1);
      }
      if (r + 1 < rows) {
        edges.src.push_back(v);
        edges.dst.push_back(static_cast<VertexId>(v + cols));
      }
    }
  }
  return Graph(detail::build_csr(static_cast<VertexId>(n), edges, build_options(LoadOptions{}, true)), false,
               "grid:" + std::to_string(rows) + ":" + std::to_string(cols));
}

}  // namespace abfs
