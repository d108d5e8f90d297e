#pragma once
// Yardsticks, not strategies: the two plain GPU BFS formulations abfs must beat.
//  - global_queue_level: one top-down level, one thread per frontier vertex, every discovered
//    vertex pushed with its own atomicAdd on one global queue tail (the lecture's "global queue
//    is too slow" kernel).
//  - RodiniaBfs: the two-kernel mask BFS of Rodinia (Harish & Narayanan, HiPC 2007): per level,
//    kernel 1 expands every vertex whose mask is set, kernel 2 turns the updating mask into the
//    next mask, and the host reads a "changed" flag back.

#include "runtime/bfs_buffers.hpp"
#include "strategies/strategy.hpp"

#include <vector>

namespace abfs::bench {

/// One top-down level over order[frontier_begin, frontier_end) with a global-atomic queue; same
/// state and outcome as a strategy's run(). Synchronizes.
strategies::LevelOutcome global_queue_level(detail::BfsBuffers& buffers, const strategies::LevelContext& context);

/// The Rodinia two-kernel BFS over buffers' device CSR (distances only, no parents).
class RodiniaBfs {
 public:
  explicit RodiniaBfs(detail::BfsBuffers& buffers);
  /// BFS from source; returns the CUDA-event time in ms and fills distances (|V|, -1 unreached).
  double run(VertexId source, std::vector<std::int32_t>& distances);

 private:
  detail::BfsBuffers& buffers_;
  detail::DeviceBuffer<unsigned char> d_mask_;      // |V|: frontier
  detail::DeviceBuffer<unsigned char> d_updating_;  // |V|: next frontier
  detail::DeviceBuffer<unsigned char> d_visited_;   // |V|
  detail::DeviceBuffer<int> d_changed_;
  detail::PinnedBuffer<int> h_changed_;
  detail::Event start_;
  detail::Event stop_;
};

}  // namespace abfs::bench
