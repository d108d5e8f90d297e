// privatized_queue: multi-block top-down expansion with the three-level queue hierarchy.
//
// Phases of one level (host-driven: one launch sequence and one host round trip per level):
//  1. CUB exclusive scan of the frontier's out-degrees, so the frontier's arcs form one index
//     space [0, |E_F|) that is cut into equal tiles of kTileEdges arcs: every block gets the same
//     work whatever the degree skew (Merrill, Garland, Grimshaw, PPoPP 2012).
//  2. expand_top_down: blocks grid-stride over tiles. Each thread maps its arcs back to frontier
//     vertices by binary search in the scan, reads the neighbour, and claims it with one atomicOr
//     on the visited bitmap (so each vertex enters the next frontier once). Claimed vertices go
//     to the queue hierarchy of Luo, Wong, Hwu (DAC 2010):
//       w-queues: 32 per block in shared memory, one per lane index; slot j of w-queue q is at
//         j * 32 + q, so the 32 lanes of a warp pushing at once hit 32 different banks;
//       b-queue: after a barrier, warp 0 scans the 32 w-queue sizes, one thread reserves space
//         for the whole block in the global queue with a single atomicAdd, the w-queues are
//         concatenated into the b-queue in shared memory;
//       g-queue: the b-queue is copied out coalesced to the visit order (next frontier).
//     A push into a full w-queue goes straight to the g-queue with its own atomic (the overflow
//     path; with the default capacity a tile cannot overflow, and tests force it with capacity 1).
//  3. The last block to finish publishes the new order tail and the new frontier's arc count
//     into mapped host memory, which the host polls (publish_by_last_block).
//
// Wins on large top-down frontiers. Hands over nothing: one level per call.
// Cost features: 3 launches + 1 host round trip, |E_F| arcs scanned, |F| vertices, one atomic
// per arc (visited claim) plus one per block and tile, the vertices it discovers (each a random
// write of distance and parent and a read of its degree).
// @see Luo, Wong, Hwu, "An effective GPU implementation of breadth-first search", DAC 2010.

#include "runtime/counters.cuh"
#include "strategies/strategy.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>

namespace abfs::strategies {
namespace {

constexpr int kThreads = 256;            // threads per block (compile-time: launch bounds, reductions)
constexpr int kEdgesPerThread = 4;       // arcs per thread per tile
constexpr int kTileEdges = kThreads * kEdgesPerThread;
constexpr int kWQueues = 32;             // one per lane: a warp's pushes hit 32 distinct banks
static_assert(kThreads % 32 == 0, "whole warps only");
static_assert((kThreads / 32) * kEdgesPerThread <= 32,
              "the default w-queue capacity (32) must hold one tile's worst case per w-queue");

/// Out-degree of frontier[i]; the scan's input iterator.
struct FrontierDegree {
  const VertexId* frontier;
  const EdgeOffset* row_offsets;
  __host__ __device__ EdgeOffset operator()(VertexId i) const {
    const VertexId u = frontier[i];
    return row_offsets[u + 1] - row_offsets[u];
  }
};

/// Largest i in [lo, hi] with scan[i] <= e (requires scan[lo] <= e): the frontier vertex that
/// owns arc index e. Zero-degree vertices share their successor's scan value and are skipped.
__device__ __forceinline__ VertexId owner_of(const EdgeOffset* __restrict__ scan, VertexId lo, VertexId hi,
                                             EdgeOffset e) {
  while (lo < hi) {
    const VertexId mid = lo + (hi - lo + 1) / 2;
    if (__ldg(scan + mid) <= e) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/// One top-down level over the frontier's arcs [0, total_edges).
/// frontier: |F| ids (a slice of order); scan: |F| exclusive degree sums; row_offsets: |V|+1;
/// column_indices: |E|; visited: ceil(|V|/32) words; dist, parent: |V|; order: |V| (the next
/// frontier is appended at counters->order_tail). Dynamic shared memory: 2 * 32 * capacity ids.
__global__ void __launch_bounds__(kThreads) expand_top_down(
    const VertexId* __restrict__ frontier, VertexId frontier_size, const EdgeOffset* __restrict__ scan,
    EdgeOffset total_edges, const EdgeOffset* __restrict__ row_offsets, const VertexId* __restrict__ column_indices,
    std::uint32_t* visited, std::int32_t* __restrict__ dist, VertexId* __restrict__ parent,
    VertexId* __restrict__ order, detail::LevelCounters* counters, std::int32_t next_level, unsigned int parity,
    unsigned int capacity, detail::LevelCounters* host_counters, unsigned int sequence) {
  extern __shared__ VertexId shared_queues[];
  VertexId* wqueues = shared_queues;                      // [capacity][32], interleaved
  VertexId* bqueue = shared_queues + capacity * kWQueues;  // [32 * capacity], concatenated
  __shared__ unsigned int wqueue_size[kWQueues];
  __shared__ unsigned int wqueue_offset[kWQueues];
  __shared__ unsigned int bqueue_size;
  __shared__ unsigned int gqueue_base;
  __shared__ VertexId tile_first;
  __shared__ VertexId tile_last;
  using BlockReduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename BlockReduce::TempStorage reduce_storage;
  using WarpScan = cub::WarpScan<unsigned int>;
  __shared__ typename WarpScan::TempStorage warp_scan_storage;

  const unsigned int lane = threadIdx.x % 32;
  unsigned long long discovered_edges = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counters->next_edges[parity ^ 1u] = 0;  // for the level after
    counters->start_ns = detail::global_ns();
  }

  const EdgeOffset num_tiles = (total_edges + kTileEdges - 1) / kTileEdges;
  for (EdgeOffset tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const EdgeOffset tile_begin = tile * kTileEdges;
    const EdgeOffset tile_end = min(total_edges, tile_begin + kTileEdges);
    if (threadIdx.x < kWQueues) wqueue_size[threadIdx.x] = 0;
    if (threadIdx.x == 0) {
      tile_first = owner_of(scan, 0, frontier_size - 1, tile_begin);
      tile_last = owner_of(scan, tile_first, frontier_size - 1, tile_end - 1);
    }
    __syncthreads();

    VertexId i = tile_first;  // this thread's arcs increase, so its owner only moves forward
    const VertexId last = tile_last;
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      const EdgeOffset e = tile_begin + static_cast<EdgeOffset>(k) * kThreads + threadIdx.x;
      if (e >= tile_end) break;
      i = owner_of(scan, i, last, e);
      const VertexId u = frontier[i];
      const VertexId v = column_indices[row_offsets[u] + (e - scan[i])];
      const std::uint32_t bit = 1u << (v & 31);
      std::uint32_t* word = visited + (v >> 5);
      // A plain read filters most visited neighbours; the atomic decides who claims v.
      if ((*word & bit) != 0 || (atomicOr(word, bit) & bit) != 0) continue;
      dist[v] = next_level;
      parent[v] = u;
      discovered_edges += row_offsets[v + 1] - row_offsets[v];
      const unsigned int slot = atomicAdd(&wqueue_size[lane], 1u);
      if (slot < capacity) {
        wqueues[slot * kWQueues + lane] = v;
      } else {
        order[atomicAdd(&counters->order_tail, 1u)] = v;
        atomicAdd(&counters->overflow_pushes, 1u);
      }
    }
    __syncthreads();

    if (threadIdx.x < 32) {
      const unsigned int size = min(wqueue_size[lane], capacity);
      unsigned int inclusive = 0;
      WarpScan(warp_scan_storage).InclusiveSum(size, inclusive);
      wqueue_offset[lane] = inclusive - size;
      if (lane == 31) {
        bqueue_size = inclusive;
        gqueue_base = inclusive > 0 ? atomicAdd(&counters->order_tail, inclusive) : 0u;
      }
    }
    __syncthreads();

    // w-queues -> b-queue: row-major reads (consecutive threads, consecutive banks).
    for (unsigned int idx = threadIdx.x; idx < capacity * kWQueues; idx += kThreads) {
      const unsigned int q = idx % kWQueues;
      const unsigned int j = idx / kWQueues;
      if (j < min(wqueue_size[q], capacity)) bqueue[wqueue_offset[q] + j] = wqueues[idx];
    }
    __syncthreads();
    // b-queue -> g-queue, coalesced.
    for (unsigned int idx = threadIdx.x; idx < bqueue_size; idx += kThreads) order[gqueue_base + idx] = bqueue[idx];
    __syncthreads();  // the queues are reused by the next tile
  }

  const unsigned long long block_edges = BlockReduce(reduce_storage).Sum(discovered_edges);
  if (threadIdx.x == 0 && block_edges > 0) atomicAdd(&counters->next_edges[parity], block_edges);
  detail::publish_by_last_block(counters, host_counters, sequence);
}

class PrivatizedQueue final : public Strategy {
 public:
  explicit PrivatizedQueue(const PrivatizedQueueConfig& config) : config_(config) {}

  const char* name() const override { return "privatized_queue"; }
  bool applicable(const FrontierState&) const override { return true; }
  FrontierIo frontier_io() const override {
    return {FrontierRepresentation::Queue, Location::Device, FrontierRepresentation::Queue, Location::Device};
  }
  CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const override {
    // Three launches (degree scan, expansion) and the host's wait for the counters, then the
    // frontier's vertices (scan, binary search) and arcs (gathers, visited claims), the arcs
    // again at the share expected to miss the L2, and the vertices the level discovers at the
    // share of their random writes (distance, parent) and degree reads expected to miss it.
    // Without the last term, levels of 10^6-10^7 discoveries on uniform:100000000:4 took
    // 3-4x their prediction (3,594 us against 848; H100, 2026-11-24).
    const auto edges = static_cast<double>(state.frontier_edges);
    CostFeatures f;
    f.add("run", 1.0);
    f.add("frontier_vertices", state.frontier_vertices);
    f.add("frontier_edges", edges);
    f.add("dram_edges", edges * device_miss_share(stats, l2_bytes_));
    f.add("dram_discovered", expected_discovered(state, stats) * device_vertex_miss_share(stats, l2_bytes_));
    return f;
  }


  void prepare(detail::BfsBuffers& buffers) override {
    l2_bytes_ = buffers.l2_cache_bytes;
    const VertexId n = buffers.num_vertices();
    d_scan_ = detail::DeviceBuffer<EdgeOffset>(std::max<VertexId>(n, 1));
    // Temporary storage for the largest possible frontier (|V|); CUB's need grows with size.
    auto degrees = thrust::make_transform_iterator(thrust::counting_iterator<VertexId>(0),
                                                   FrontierDegree{nullptr, nullptr});
    ABFS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_temp_bytes_, degrees, d_scan_.data(),
                                                  std::max<VertexId>(n, 1), buffers.stream()));
    d_scan_temp_ = detail::DeviceBuffer<unsigned char>(scan_temp_bytes_);
    if (n > 0) {
      // CUB's scan kernels load at their first launch (detail::preload_kernel): scan a frontier
      // of one vertex, vertex 0, now.
      detail::DeviceBuffer<VertexId> vertex_zero(1);
      ABFS_CUDA_CHECK(cudaMemsetAsync(vertex_zero.data(), 0, sizeof(VertexId), buffers.stream()));
      auto one = thrust::make_transform_iterator(thrust::counting_iterator<VertexId>(0),
                                                 FrontierDegree{vertex_zero.data(), buffers.d_graph.row_offsets.data()});
      std::size_t temp_bytes = scan_temp_bytes_;
      ABFS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_scan_temp_.data(), temp_bytes, one, d_scan_.data(), VertexId{1},
                                                    buffers.stream()));
      ABFS_CUDA_CHECK(cudaStreamSynchronize(buffers.stream()));  // before vertex_zero is freed
    }
    shared_bytes_ = 2u * kWQueues * config_.wqueue_capacity * sizeof(VertexId);
    if (shared_bytes_ > detail::allow_max_dynamic_shared_memory(reinterpret_cast<const void*>(expand_top_down))) {
      throw InvalidArgument("privatized_queue: w-queues of " + std::to_string(config_.wqueue_capacity) +
                            " slots need " + std::to_string(shared_bytes_) + " bytes of shared memory");
    }
    max_blocks_ = std::max(1u, config_.blocks_per_sm * static_cast<unsigned int>(buffers.multiprocessors));
  }

  LevelOutcome run(LevelContext& c) override {
    auto& b = c.buffers;
    LevelOutcome out;
    out.edges_examined = c.frontier_edges;
    if (c.frontier_edges == 0) return out;  // nothing to expand: the next frontier is empty
    const cudaStream_t s = b.stream();
    const VertexId frontier_size = c.frontier_end - c.frontier_begin;
    const VertexId* d_frontier = b.d_order.data() + c.frontier_begin;
    const unsigned int parity = static_cast<unsigned int>(c.level) & 1u;

    auto degrees = thrust::make_transform_iterator(thrust::counting_iterator<VertexId>(0),
                                                   FrontierDegree{d_frontier, b.d_graph.row_offsets.data()});
    std::size_t temp_bytes = scan_temp_bytes_;
    ABFS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_scan_temp_.data(), temp_bytes, degrees, d_scan_.data(),
                                                  frontier_size, s));
    const EdgeOffset tiles = (c.frontier_edges + kTileEdges - 1) / kTileEdges;
    const auto blocks = static_cast<unsigned int>(std::min<EdgeOffset>(tiles, max_blocks_));
    const unsigned int sequence = b.next_sequence("privatized_queue");
    expand_top_down<<<blocks, kThreads, shared_bytes_, s>>>(
        d_frontier, frontier_size, d_scan_.data(), c.frontier_edges, b.d_graph.row_offsets.data(),
        b.d_graph.column_indices.data(), b.d_visited.data(), b.d_dist.data(), b.d_parent.data(), b.d_order.data(),
        b.d_counters.data(), c.level + 1, parity, config_.wqueue_capacity, b.h_counters.data(), sequence);
    ABFS_CHECK_LAUNCH(s);
    // The host needs the new frontier's size to choose the next level's strategy.
    const double device_us = b.wait_counters(sequence);
    const detail::LevelCounters& counters = *b.h_counters.data();
    out.next_frontier_vertices = counters.order_tail - c.frontier_end;
    out.next_frontier_edges = counters.next_edges[parity];
    out.overflow_pushes = counters.overflow_pushes;
    out.device_us = device_us;
    return out;
  }

 private:
  PrivatizedQueueConfig config_;
  detail::DeviceBuffer<EdgeOffset> d_scan_;
  detail::DeviceBuffer<unsigned char> d_scan_temp_;
  std::size_t scan_temp_bytes_ = 0;
  std::size_t shared_bytes_ = 0;
  unsigned int max_blocks_ = 1;
  double l2_bytes_ = 0.0;
};

}  // namespace

std::unique_ptr<Strategy> make_privatized_queue() { return make_privatized_queue(PrivatizedQueueConfig{}); }

std::unique_ptr<Strategy> make_privatized_queue(const PrivatizedQueueConfig& config) {
  return std::make_unique<PrivatizedQueue>(config);
}

}  // namespace abfs::strategies
