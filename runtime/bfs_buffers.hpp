#pragma once
// The BFS state shared by all strategies, on the host and (when a device is used) on the device,
// and the conversions that move it between the two.
//
// Visit order: every discovered vertex is appended to `order` (|V| slots), so the frontier of
// level L is the contiguous slice order[level_begin[L], level_begin[L+1]). A side (host or
// device) holds the order for the prefix order[0, synced_end) it has seen.
//
// Per vertex: a visited bit (bitmap of ceil(|V|/32) words, the only array reset per BFS), and
// distance and parent, which are meaningful only where the visited bit is set.
//
// Moving the BFS to the device uploads the visits the host made since the device last saw the
// order (order ids, distances, parents: one packed copy and one scatter kernel). Moving it to the
// host downloads only what a host expansion reads: the visited bitmap and the current frontier's
// slice of the order. The ids, distances and parents of the other device-made visits stay on
// the device and are gathered once, by collect(), after the BFS.

#include <abfs/graph.hpp>

#include "runtime/resources.hpp"

#include <cstdint>
#include <utility>
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
  /// Uploads the host's visits order[begin, end) (ids, distances, parents) and sets the
  /// device's order tail to end. Async on stream: one copy and one kernel.
  void move_to_device(VertexId begin, VertexId end);
  /// Hands the BFS back to the host after the device made the visits order[begin, end):
  /// downloads the visited bitmap and the frontier order[frontier_begin, end); the rest stays on
  /// the device until collect(). Synchronizes.
  void move_to_host(VertexId begin, VertexId frontier_begin, VertexId end);
  /// Writes the BFS's distances and parents (|V| each; -1 / kNoVertex = unreached) for the
  /// visits order[0, end). The visits order[device_from, end) were made on the device since the
  /// last move_to_host (device_from = end when the BFS ended on the host). Synchronizes.
  void collect(VertexId end, VertexId device_from, std::vector<std::int32_t>& distances,
               std::vector<VertexId>& parents);

  // Host state. h_visited: visited_words = ceil(|V|/32) words (pinned when a device is used);
  // h_dist, h_parent, h_order: |V|.
  std::uint32_t* h_visited = nullptr;
  std::size_t visited_words = 0;
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
  std::vector<std::uint32_t> h_visited_pageable_;
  PinnedBuffer<std::uint32_t> h_visited_pinned_;
  // Order slices [begin, end) whose ids, distances and parents exist only on the device.
  std::vector<std::pair<VertexId, VertexId>> device_visits_;
  // Staging for the moves and collect(): 3 * |V| words, [order | distance | parent] per slice.
  DeviceBuffer<std::uint32_t> d_stage_;
  PinnedBuffer<std::uint32_t> h_stage_;
};

/// Bytes of device memory a BfsBuffers (and the privatized_queue scan buffer) needs for graph.
std::size_t device_bytes_needed(const Graph& graph);

}  // namespace abfs::detail
