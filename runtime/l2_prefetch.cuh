#pragma once
// A prefetch of the CSR into the L2 by blocks that have nothing else to do. one_block's loop is
// one SM's chain of dependent loads (a frontier vertex's row offsets, then its arcs), and where
// the graph's lines are not in the L2 each of them waits on DRAM while the other SMs idle; its
// run's extra blocks stream the CSR into the L2 as block 0 runs its levels.

#include <abfs/graph.hpp>

#include <cstddef>

namespace abfs::detail {

/// Bytes of an L2 sector: what one prefetch asks for.
constexpr std::size_t kL2SectorBytes = 32;

/// Asks the L2 for bytes from p, one sector a thread at a time: part `part` of `parts` (a part
/// of blockDim.x threads). prefetch.global.L2::evict_last holds no register for the data, so a
/// thread issues its sectors back to back, and keeps the lines over streamed ones.
__device__ __forceinline__ void prefetch_l2(const void* p, std::size_t bytes, unsigned int part, unsigned int parts) {
  const auto* base = static_cast<const char*>(p);
  const std::size_t stride = static_cast<std::size_t>(parts) * blockDim.x * kL2SectorBytes;
  for (std::size_t at = (static_cast<std::size_t>(part) * blockDim.x + threadIdx.x) * kL2SectorBytes; at < bytes;
       at += stride) {
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(base + at));
  }
}

/// The CSR of `vertices` vertices and `arcs` arcs (row_offsets: vertices + 1; column_indices:
/// arcs) into the L2, part `part` of `parts`: the row offsets first.
__device__ __forceinline__ void prefetch_csr_l2(const EdgeOffset* row_offsets, const VertexId* column_indices,
                                                VertexId vertices, EdgeOffset arcs, unsigned int part,
                                                unsigned int parts) {
  prefetch_l2(row_offsets, (static_cast<std::size_t>(vertices) + 1) * sizeof(EdgeOffset), part, parts);
  prefetch_l2(column_indices, static_cast<std::size_t>(arcs) * sizeof(VertexId), part, parts);
}

}  // namespace abfs::detail
