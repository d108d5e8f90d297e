// CSR construction (and transposition): counting sort with atomic cursors, then per-list sort
// and compaction. O(|V| + |E| log d) work, parallel with OpenMP.

#include "graph/build.hpp"

#include "graph/host_pages.hpp"

#include <algorithm>
#include <cstddef>

namespace abfs::detail {
namespace {

// Exclusive prefix sum in place over counts[0..n], leaving counts[n] = total.
void exclusive_scan_in_place(std::vector<EdgeOffset>& counts) {
  EdgeOffset running = 0;
  for (auto& c : counts) {
    const EdgeOffset here = c;
    c = running;
    running += here;
  }
}

}  // namespace

Csr build_csr(VertexId num_vertices, const EdgeList& edges, const BuildOptions& options) {
  const std::size_t m = edges.src.size();
  const VertexId* src = edges.src.data();
  const VertexId* dst = edges.dst.data();
  const bool drop_loops = options.drop_self_loops;
  const bool add_reverse = options.add_reverse;

  // counts[v] = out-degree of v before dedup; scanned into offsets (|V|+1 entries).
  // The CSR's arrays in huge pages from their first write (resize_in_huge_pages): BFS host
  // levels read them at random.
  std::vector<EdgeOffset> offsets;
  resize_in_huge_pages(offsets, static_cast<std::size_t>(num_vertices) + 1);
  EdgeOffset* counts = offsets.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < m; ++i) {
    if (drop_loops && src[i] == dst[i]) continue;
    __atomic_fetch_add(&counts[src[i]], 1, __ATOMIC_RELAXED);
    if (add_reverse && src[i] != dst[i]) __atomic_fetch_add(&counts[dst[i]], 1, __ATOMIC_RELAXED);
  }
  exclusive_scan_in_place(offsets);

  Csr csr;
  resize_in_huge_pages(csr.column_indices, offsets[num_vertices]);
  std::vector<EdgeOffset> cursor(offsets.begin(), offsets.end() - 1);
  VertexId* col = csr.column_indices.data();
  EdgeOffset* cur = cursor.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < m; ++i) {
    if (drop_loops && src[i] == dst[i]) continue;
    col[__atomic_fetch_add(&cur[src[i]], 1, __ATOMIC_RELAXED)] = dst[i];
    if (add_reverse && src[i] != dst[i]) {
      col[__atomic_fetch_add(&cur[dst[i]], 1, __ATOMIC_RELAXED)] = src[i];
    }
  }
  csr.row_offsets = std::move(offsets);
  // The atomic fill leaves each list in arbitrary order; sorting makes the CSR deterministic.
  finalize_adjacency(csr, drop_loops, options.drop_duplicate_edges);
  return csr;
}

Csr transpose_csr(const Csr& forward, VertexId num_vertices) {
  const std::int64_t n = num_vertices;
  const EdgeOffset* row = forward.row_offsets.data();
  const VertexId* in_col = forward.column_indices.data();
  const std::int64_t m = static_cast<std::int64_t>(forward.column_indices.size());
  std::vector<EdgeOffset> offsets;
  resize_in_huge_pages(offsets, static_cast<std::size_t>(n) + 1);
  EdgeOffset* counts = offsets.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e) __atomic_fetch_add(&counts[in_col[e]], 1, __ATOMIC_RELAXED);
  exclusive_scan_in_place(offsets);
  Csr reverse;
  resize_in_huge_pages(reverse.column_indices, offsets[static_cast<std::size_t>(n)]);
  std::vector<EdgeOffset> cursor(offsets.begin(), offsets.end() - 1);
  VertexId* col = reverse.column_indices.data();
  EdgeOffset* cur = cursor.data();
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::int64_t u = 0; u < n; ++u) {
    for (EdgeOffset e = row[u]; e < row[u + 1]; ++e) {
      col[__atomic_fetch_add(&cur[in_col[e]], 1, __ATOMIC_RELAXED)] = static_cast<VertexId>(u);
    }
  }
  reverse.row_offsets = std::move(offsets);
  finalize_adjacency(reverse, false, false);  // the atomic fill's order, sorted
  return reverse;
}

void finalize_adjacency(Csr& csr, bool drop_self_loops, bool drop_duplicate_edges) {
  const std::int64_t n = static_cast<std::int64_t>(csr.row_offsets.size()) - 1;
  if (n <= 0) return;
  std::vector<EdgeOffset> new_degree;  // the row offsets if anything is removed
  resize_in_huge_pages(new_degree, static_cast<std::size_t>(n) + 1);
  VertexId* col = csr.column_indices.data();
  const EdgeOffset* row = csr.row_offsets.data();
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < n; ++v) {
    VertexId* first = col + row[v];
    VertexId* last = col + row[v + 1];
    std::sort(first, last);
    if (drop_self_loops) {
      last = std::remove(first, last, static_cast<VertexId>(v));
    }
    if (drop_duplicate_edges) last = std::unique(first, last);
    new_degree[static_cast<std::size_t>(v)] = static_cast<EdgeOffset>(last - first);
  }
  exclusive_scan_in_place(new_degree);
  if (new_degree[static_cast<std::size_t>(n)] == csr.row_offsets[static_cast<std::size_t>(n)]) {
    return;  // nothing removed
  }
  std::vector<VertexId> compacted;
  resize_in_huge_pages(compacted, new_degree[static_cast<std::size_t>(n)]);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < n; ++v) {
    const auto count = new_degree[static_cast<std::size_t>(v) + 1] - new_degree[static_cast<std::size_t>(v)];
    std::copy(col + row[v], col + row[v] + count, compacted.data() + new_degree[static_cast<std::size_t>(v)]);
  }
  csr.column_indices = std::move(compacted);
  csr.row_offsets = std::move(new_degree);
}

}  // namespace abfs::detail
