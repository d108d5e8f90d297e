#pragma once
// The BFS state shared by all strategies, on the host and (when a device is used) on the device,
// and the conversions that move it between the two.
//
// Visit order: every discovered vertex is appended to `order` (|V| slots), so the frontier of
// level L is the contiguous slice order[level_begin[L], level_begin[L+1]). A side (host or
// device) holds a valid copy of the state for the prefix order[0, synced_end); moving the BFS
// to the other side copies just the slice it has not seen, not |V|-sized arrays.
//
// Per vertex: a visited bit (bitmap of ceil(|V|/32) words, the only array reset per BFS), and
// distance and parent, which are meaningful only where the visited bit is set.

#include <abfs/graph.hpp>

#include "runtime/resources.hpp"

#include <cstdint>
#include <vector>

namespace abfs::detail {

/// Device-written counters of one host-driven level, copied back in one transfer.
struct LevelCounters {
  unsigned int order_tail;            ///< next free slot of d_order (= end of the new frontier)
  unsigned int overflow_pushes;       ///< pushes that bypassed a full w-queue
  unsigned long long next_edges[2];   ///< arcs out of the new frontier, by level parity
};

/// Forward CSR on the device. row_offsets: |V|+1; column_indices: |E|.
struct DeviceGraph {
  DeviceBuffer<EdgeOffset> row_offsets;
  DeviceBuffer<VertexId> column_indices;
};

class BfsBuffers {
 public:
  /// Allocates host state for graph and, if use_device, uploads the graph and allocates the
  /// device state on the current device. @throws OutOfMemory (with bytes needed and free) if the
  /// device cannot hold it; CudaError otherwise.
  BfsBuffers(const Graph& graph, bool use_device);

  const Graph& graph() const noexcept { return graph_; }
  bool has_device() const noexcept { return has_device_; }
  VertexId num_vertices() const noexcept { return graph_.num_vertices(); }
  cudaStream_t stream() const noexcept { return stream_ ? stream_->get() : nullptr; }

  /// Starts a BFS from source on the host side: clears the visited bitmaps (host now, device
  /// lazily at the first move to the device) and makes order[0] = source.
  void start(VertexId source);
  /// Copies order[begin, end) with distances and parents from the host to the device and
  /// sets the device's order tail to end. Async on stream; returns after enqueueing.
  void move_to_device(VertexId begin, VertexId end);
  /// Copies order[begin, end) with distances and parents from the device to the host.
  /// Synchronizes the stream (the host reads the result).
  void move_to_host(VertexId begin, VertexId end);

  // Host state. h_visited: ceil(|V|/32) words; h_dist, h_parent, h_order: |V|.
  std::vector<std::uint32_t> h_visited;
  std::vector<std::int32_t> h_dist;
  std::vector<VertexId> h_parent;
  std::vector<VertexId> h_order;

  // Device state (empty when has_device() is false). Same shapes as the host state.
  DeviceGraph d_graph;
  DeviceBuffer<std::uint32_t> d_visited;
  DeviceBuffer<std::int32_t> d_dist;
  DeviceBuffer<VertexId> d_parent;
  DeviceBuffer<VertexId> d_order;
  DeviceBuffer<LevelCounters> d_counters;
  PinnedBuffer<LevelCounters> h_counters;
  int multiprocessors = 0;

 private:
  Graph graph_;
  bool has_device_ = false;
  bool device_cleared_ = false;
  std::unique_ptr<Stream> stream_;
  // Staging for move_to_*: |V| entries each, pinned on the host.
  DeviceBuffer<std::int32_t> d_stage_dist_;
  DeviceBuffer<VertexId> d_stage_parent_;
  PinnedBuffer<VertexId> h_stage_order_;
  PinnedBuffer<std::int32_t> h_stage_dist_;
  PinnedBuffer<VertexId> h_stage_parent_;
};

/// Bytes of device memory a BfsBuffers (and the privatized_queue scan buffer) needs for graph.
std::size_t device_bytes_needed(const Graph& graph);

}  // namespace abfs::detail
