// privatized_queue: multi-block top-down expansion with the three-level queue hierarchy.
//
// One cooperative launch per level (host-driven: one launch and one host round trip a level):
//  1. Each block takes a slice of the frontier (a power of two of vertices, the same for all)
//     and scans its vertices' out-degrees (cub::BlockScan); the slice's total goes to global
//     memory. After a grid barrier (cooperative_groups::this_grid().sync()) every block scans
//     the slices' totals in shared memory: slice-local sums plus their slice's base are the
//     frontier's exclusive degree scan, so its arcs form one index space [0, |E_F|) that is
//     cut into equal tiles of kTileEdges arcs: every block gets the same work whatever the
//     degree skew (Merrill, Garland, Grimshaw, PPoPP 2012). Until version 5 a separate
//     cub::DeviceScan did this: its host call (dispatch and two launches) cost 10-15 us a
//     level (H100, 2026-11-24).
//  2. The blocks grid-stride over tiles. A tile's first and last frontier vertices are found
//     by two warps at once, 32 probes a round; each thread maps its arcs back to frontier
//     vertices by binary search in the scan, reads the neighbours, and claims them with one
//     atomicOr each on the visited bitmap (so each vertex enters the next frontier once), its
//     arcs going through each of these steps together (version 7: their loads in flight at
//     once; one arc after another, forced on kron:22, 2.17 -> 1.66 ms a BFS, cnr-2000 0.88 ->
//     0.76; H100, 2026-11-24). Claimed vertices go to the
//     queue hierarchy of Luo, Wong, Hwu (DAC 2010):
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
// Cost features: 1 launch + 1 host round trip, a step where the grid has more than one block,
// |F| vertices (degree scan, binary search), |E_F| arcs (gathers, one visited claim each) plus
// one atomic per block and tile, the vertices it discovers (each a random write of distance and
// parent and a read of its degree).
// @see Luo, Wong, Hwu, "An effective GPU implementation of breadth-first search", DAC 2010.

#include "runtime/counters.cuh"
#include "strategies/strategy.hpp"

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>

#include <algorithm>

namespace abfs::strategies {
namespace {

constexpr int kThreads = 256;            // threads per block (compile-time: launch bounds, reductions)
constexpr int kEdgesPerThread = 4;       // arcs per thread per tile
constexpr int kTileEdges = kThreads * kEdgesPerThread;
constexpr int kWQueues = 32;             // one per lane: a warp's pushes hit 32 distinct banks
constexpr int kResidentBlocks = 8;       // per SM (registers capped to fit: the grid barrier needs them resident)
constexpr int kScanItems = 4;            // vertices per thread per round of the degree scan
static_assert(kThreads % 32 == 0, "whole warps only");
static_assert((kThreads / 32) * kEdgesPerThread <= 32,
              "the default w-queue capacity (32) must hold one tile's worst case per w-queue");

/// The frontier's exclusive degree scan as phase 1 leaves it: slice-local sums in global
/// memory (written by other blocks of this launch before the grid barrier: plain loads, not the
/// read-only path) plus their slice's base, which every block keeps in shared memory.
struct SlicedScan {
  const EdgeOffset* local;   ///< |F| slice-local exclusive sums
  const EdgeOffset* base;    ///< per slice: the arcs of the slices before it (shared memory)
  unsigned int slice_shift;  ///< log2 of the vertices per slice (the last may hold fewer)
  __device__ __forceinline__ EdgeOffset operator[](VertexId i) const {
    return local[i] + base[static_cast<unsigned long long>(i) >> slice_shift];
  }
};

/// Largest i in [lo, hi] with scan[i] <= e (requires scan[lo] <= e): the frontier vertex that
/// owns arc index e. Zero-degree vertices share their successor's scan value and are skipped.
__device__ __forceinline__ VertexId owner_of(const SlicedScan& scan, VertexId lo, VertexId hi, EdgeOffset e) {
  while (lo < hi) {
    const VertexId mid = lo + (hi - lo + 1) / 2;
    if (scan[mid] <= e) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/// owner_of by the 32 lanes of a warp (all must call it with the same arguments; the result is
/// the same in every lane): each round probes 32 evenly spaced scan values, a lane each, and
/// keeps the stride where the scan crosses e, so the search takes log32 rounds of one load per
/// lane instead of log2 dependent loads (a tile's first and last owners in a frontier of 50,000
/// vertices: 4 round trips, not 16).
__device__ __forceinline__ VertexId warp_owner_of(const SlicedScan& scan, VertexId lo, VertexId hi, EdgeOffset e,
                                                  unsigned int lane) {
  while (hi - lo >= 32) {
    const unsigned long long span = static_cast<unsigned long long>(hi - lo) + 1ull;
    const auto probe = static_cast<VertexId>(lo + ((span * lane) >> 5));
    // scan does not decrease and scan[lo] <= e, so the lanes whose probe passes are a prefix.
    const unsigned int passed = __ballot_sync(0xFFFFFFFFu, scan[probe] <= e);
    const auto k = static_cast<unsigned int>(31 - __clz(static_cast<int>(passed)));
    const auto next_lo = static_cast<VertexId>(lo + ((span * k) >> 5));
    if (k < 31) hi = static_cast<VertexId>(lo + ((span * (k + 1)) >> 5) - 1);
    lo = next_lo;
  }
  const VertexId probe = lo + lane;
  const unsigned int passed = __ballot_sync(0xFFFFFFFFu, probe <= hi && scan[probe] <= e);
  return lo + static_cast<VertexId>(31 - __clz(static_cast<int>(passed)));
}

/// log2 of the vertices per slice of phase 1: the smallest power of two that cuts the frontier
/// into at most `blocks` slices.
__device__ __forceinline__ unsigned int slice_shift_for(VertexId frontier_size, unsigned int blocks) {
  const VertexId per_block = frontier_size / blocks + (frontier_size % blocks != 0 ? 1u : 0u);
  return per_block <= 1 ? 0u : 32u - static_cast<unsigned int>(__clz(per_block - 1));
}

/// One top-down level over the frontier's arcs [0, total_edges); launched cooperatively (a grid
/// barrier between the degree scan and the expansion).
/// frontier: |F| ids (a slice of order); local_scan: |F| slice-local exclusive degree sums
/// (scratch); slice_totals: gridDim.x (scratch); row_offsets: |V|+1; column_indices: |E|;
/// visited: ceil(|V|/32) words; dist, parent: |V|; order: |V| (the next frontier is appended at
/// counters->order_tail). Dynamic shared memory: 2 * 32 * capacity ids, then gridDim.x arc counts.
__global__ void __launch_bounds__(kThreads, kResidentBlocks) expand_top_down(
    const VertexId* __restrict__ frontier, VertexId frontier_size, EdgeOffset* local_scan,
    EdgeOffset* slice_totals, EdgeOffset total_edges, const EdgeOffset* __restrict__ row_offsets,
    const VertexId* __restrict__ column_indices, std::uint32_t* visited, std::int32_t* __restrict__ dist,
    VertexId* __restrict__ parent, VertexId* __restrict__ order, detail::LevelCounters* counters,
    std::int32_t next_level, unsigned int parity, unsigned int capacity, detail::LevelCounters* host_counters,
    unsigned int sequence) {
  extern __shared__ VertexId shared_queues[];
  VertexId* wqueues = shared_queues;                      // [capacity][32], interleaved
  VertexId* bqueue = shared_queues + capacity * kWQueues;  // [32 * capacity], concatenated
  auto* slice_base = reinterpret_cast<EdgeOffset*>(shared_queues + 2 * capacity * kWQueues);  // [gridDim.x]
  __shared__ unsigned int wqueue_size[kWQueues];
  __shared__ unsigned int wqueue_offset[kWQueues];
  __shared__ unsigned int bqueue_size;
  __shared__ unsigned int gqueue_base;
  __shared__ VertexId tile_first;
  __shared__ VertexId tile_last;
  using BlockScan = cub::BlockScan<EdgeOffset, kThreads>;
  using BlockReduce = cub::BlockReduce<unsigned long long, kThreads>;
  using WarpScan = cub::WarpScan<unsigned int>;
  __shared__ union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } block_storage;
  __shared__ typename WarpScan::TempStorage warp_scan_storage;

  const unsigned int lane = threadIdx.x % 32;
  unsigned long long discovered_edges = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counters->next_edges[parity ^ 1u] = 0;  // for the level after
    counters->start_ns = detail::global_ns();
  }

  // Phase 1: this block's slice of the frontier, scanned in rounds of kThreads x kScanItems
  // vertices (each thread kScanItems consecutive ones: their loads in flight together).
  const unsigned int slice_shift = slice_shift_for(frontier_size, gridDim.x);
  const unsigned long long slice_length = 1ull << slice_shift;  // up to 2^32: 64 bits
  const auto slices = static_cast<unsigned int>((frontier_size - 1ull) / slice_length + 1ull);
  const auto slice_begin = static_cast<VertexId>(min(static_cast<unsigned long long>(frontier_size),
                                                     blockIdx.x * slice_length));
  const auto slice_end = static_cast<VertexId>(
      min(static_cast<unsigned long long>(frontier_size), (blockIdx.x + 1ull) * slice_length));
  EdgeOffset running = 0;
  for (VertexId round = slice_begin; round < slice_end; round += kThreads * kScanItems) {
    const VertexId first = round + threadIdx.x * kScanItems;
    EdgeOffset degrees[kScanItems];
#pragma unroll
    for (int k = 0; k < kScanItems; ++k) {
      const VertexId i = first + k;
      VertexId u = 0;
      if (i < slice_end) u = frontier[i];
      degrees[k] = i < slice_end ? row_offsets[u + 1] - row_offsets[u] : 0;
    }
    EdgeOffset round_total = 0;
    BlockScan(block_storage.scan).ExclusiveSum(degrees, degrees, round_total);
#pragma unroll
    for (int k = 0; k < kScanItems; ++k) {
      if (first + k < slice_end) local_scan[first + k] = running + degrees[k];
    }
    running += round_total;
    __syncthreads();  // the scan's storage is reused
  }
  if (threadIdx.x == 0 && blockIdx.x < slices) slice_totals[blockIdx.x] = running;
  cooperative_groups::this_grid().sync();
  // Every block scans the slices' totals into its own slice bases.
  EdgeOffset carried = 0;
  for (unsigned int first = 0; first < slices; first += kThreads) {
    const unsigned int k = first + threadIdx.x;
    const EdgeOffset total = k < slices ? slice_totals[k] : 0;
    EdgeOffset before = 0, round_total = 0;
    BlockScan(block_storage.scan).ExclusiveSum(total, before, round_total);
    if (k < slices) slice_base[k] = carried + before;
    carried += round_total;
    __syncthreads();
  }
  const SlicedScan scan{local_scan, slice_base, slice_shift};

  const EdgeOffset num_tiles = (total_edges + kTileEdges - 1) / kTileEdges;
  for (EdgeOffset tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const EdgeOffset tile_begin = tile * kTileEdges;
    const EdgeOffset tile_end = min(total_edges, tile_begin + kTileEdges);
    if (threadIdx.x < kWQueues) wqueue_size[threadIdx.x] = 0;
    // The tile's first and last owners: warp 0 and warp 1 search at once.
    if (threadIdx.x < 32) {
      const VertexId first = warp_owner_of(scan, 0, frontier_size - 1, tile_begin, lane);
      if (lane == 0) tile_first = first;
    } else if (threadIdx.x < 64) {
      const VertexId last = warp_owner_of(scan, 0, frontier_size - 1, tile_end - 1, lane);
      if (lane == 0) tile_last = last;
    }
    __syncthreads();

    // The thread's kEdgesPerThread arcs go through each step together: their loads are
    // independent, so a step is one round trip for all of them (one arc after another, every
    // arc's loads waited for the previous arc's claim: the compiler may not move a load above
    // an atomic on memory it cannot prove apart).
    const VertexId tile_owner = tile_first;
    const VertexId last = tile_last;
    VertexId owner[kEdgesPerThread];
    VertexId u[kEdgesPerThread];
    VertexId v[kEdgesPerThread];
    bool claimed[kEdgesPerThread];
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      const EdgeOffset e = tile_begin + static_cast<EdgeOffset>(k) * kThreads + threadIdx.x;
      owner[k] = e < tile_end ? owner_of(scan, tile_owner, last, e) : kNoVertex;
    }
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      const EdgeOffset e = tile_begin + static_cast<EdgeOffset>(k) * kThreads + threadIdx.x;
      u[k] = owner[k] != kNoVertex ? frontier[owner[k]] : kNoVertex;
      v[k] = u[k] != kNoVertex ? column_indices[row_offsets[u[k]] + (e - scan[owner[k]])] : kNoVertex;
    }
    // A plain read filters most visited neighbours; the atomic decides who claims v.
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      claimed[k] = v[k] != kNoVertex && (visited[v[k] >> 5] & (1u << (v[k] & 31))) == 0;
    }
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      const std::uint32_t bit = 1u << (v[k] & 31);
      if (claimed[k]) claimed[k] = (atomicOr(visited + (v[k] >> 5), bit) & bit) == 0;
    }
#pragma unroll
    for (int k = 0; k < kEdgesPerThread; ++k) {
      if (!claimed[k]) continue;
      dist[v[k]] = next_level;
      parent[v[k]] = u[k];
      discovered_edges += row_offsets[v[k] + 1] - row_offsets[v[k]];
      const unsigned int slot = atomicAdd(&wqueue_size[lane], 1u);
      if (slot < capacity) {
        wqueues[slot * kWQueues + lane] = v[k];
      } else {
        order[atomicAdd(&counters->order_tail, 1u)] = v[k];
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

  const unsigned long long block_edges = BlockReduce(block_storage.reduce).Sum(discovered_edges);
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
    // One cooperative launch (degree scan, grid barrier, expansion) and the host's wait for the
    // counters, then the frontier's vertices (scan, binary search) and arcs (gathers, visited
    // claims), the arcs again at the share expected to miss the L2, and the vertices the level
    // discovers at the share of their random writes (distance, parent) and degree reads
    // expected to miss it.
    // Without the last term, levels of 10^6-10^7 discoveries on uniform:100000000:4 took
    // 3-4x their prediction (3,594 us against 848; H100, 2026-11-24).
    // A grid of more than one block (a frontier of more than one tile of arcs) costs a step
    // more than a one-block grid, whatever its size: forced levels of six real graphs took
    // 18.8 us at one block (8.0 on the device) and 21.6-22.4 at 2-16 blocks (11-13), then rose
    // slowly with the arcs (25.9 us at 129-256 blocks). Without the step the fit, whose samples
    // are mostly one-block levels (the sweep's grids), priced those of 2-500 blocks 12-41% low,
    // and plans ran them where gather_pull or a dynamic_parallel run was cheaper (email-Enron,
    // cnr-2000; H100, 2026-11-26).
    const auto edges = static_cast<double>(state.frontier_edges);
    CostFeatures f;
    f.add("run", 1.0);
    f.add("multi_block", state.frontier_edges > static_cast<EdgeOffset>(kTileEdges) ? 1.0 : 0.0);
    f.add("frontier_vertices", state.frontier_vertices);
    f.add("frontier_edges", edges);
    f.add("dram_edges", edges * device_miss_share(stats, l2_bytes_));
    f.add("dram_discovered", expected_discovered(state, stats) * device_vertex_miss_share(stats, l2_bytes_));
    return f;
  }


  void prepare(detail::BfsBuffers& buffers) override {
    l2_bytes_ = buffers.l2_cache_bytes;
    int device = 0, cooperative = 0;
    ABFS_CUDA_CHECK(cudaGetDevice(&device));
    ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (cooperative == 0) throw CudaError("privatized_queue: the device does not support cooperative launches", 0);
    queue_bytes_ = 2u * kWQueues * config_.wqueue_capacity * sizeof(VertexId);
    const auto kernel = reinterpret_cast<const void*>(expand_top_down);
    const std::size_t allowed = detail::allow_max_dynamic_shared_memory(kernel);
    // The grid barrier needs every block resident: at most the blocks per SM the occupancy
    // calculator allows with the largest grid's shared memory (the slice bases grow with it).
    const auto sms = static_cast<unsigned int>(buffers.multiprocessors);
    max_blocks_ = std::max(1u, config_.blocks_per_sm * sms);
    if (shared_bytes(max_blocks_) > allowed) {
      throw InvalidArgument("privatized_queue: w-queues of " + std::to_string(config_.wqueue_capacity) +
                            " slots and the slice bases of " + std::to_string(max_blocks_) + " blocks need " +
                            std::to_string(shared_bytes(max_blocks_)) + " bytes of shared memory");
    }
    int resident = 0;
    ABFS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, expand_top_down, kThreads, shared_bytes(max_blocks_)));
    if (resident < 1) throw CudaError("privatized_queue: no block of the expansion kernel fits on an SM", 0);
    max_blocks_ = std::min(max_blocks_, static_cast<unsigned int>(resident) * sms);
    d_scan_ = detail::DeviceBuffer<EdgeOffset>(std::max<VertexId>(buffers.num_vertices(), 1));
    d_slice_totals_ = detail::DeviceBuffer<EdgeOffset>(max_blocks_);
  }

  LevelOutcome run(LevelContext& c) override {
    auto& b = c.buffers;
    LevelOutcome out;
    out.edges_examined = c.frontier_edges;
    if (c.frontier_edges == 0) return out;  // nothing to expand: the next frontier is empty
    const VertexId frontier_size = c.frontier_end - c.frontier_begin;
    const VertexId* d_frontier = b.d_order.data() + c.frontier_begin;
    const unsigned int parity = static_cast<unsigned int>(c.level) & 1u;
    const EdgeOffset tiles = (c.frontier_edges + kTileEdges - 1) / kTileEdges;
    const auto blocks = static_cast<unsigned int>(std::min<EdgeOffset>(tiles, max_blocks_));
    const unsigned int sequence = b.next_sequence("privatized_queue");

    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = shared_bytes(blocks);
    config.stream = b.stream();
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    ABFS_CUDA_CHECK(cudaLaunchKernelEx(&config, expand_top_down, d_frontier, frontier_size, d_scan_.data(),
                                       d_slice_totals_.data(), c.frontier_edges, b.d_graph.row_offsets.data(),
                                       b.d_graph.column_indices.data(), b.d_visited.data(), b.d_dist.data(),
                                       b.d_parent.data(), b.d_order.data(), b.d_counters.data(), c.level + 1, parity,
                                       config_.wqueue_capacity, b.h_counters.data(), sequence));
    ABFS_CHECK_LAUNCH(b.stream());
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
  /// Dynamic shared memory of a block of a grid of `blocks`: the queues, then the slice bases.
  std::size_t shared_bytes(unsigned int blocks) const { return queue_bytes_ + blocks * sizeof(EdgeOffset); }

  PrivatizedQueueConfig config_;
  detail::DeviceBuffer<EdgeOffset> d_scan_;          // |V|: the slice-local degree scan
  detail::DeviceBuffer<EdgeOffset> d_slice_totals_;  // max_blocks_: each slice's arcs
  std::size_t queue_bytes_ = 0;
  unsigned int max_blocks_ = 1;
  double l2_bytes_ = 0.0;
};

}  // namespace

std::unique_ptr<Strategy> make_privatized_queue() { return make_privatized_queue(PrivatizedQueueConfig{}); }

std::unique_ptr<Strategy> make_privatized_queue(const PrivatizedQueueConfig& config) {
  return std::make_unique<PrivatizedQueue>(config);
}

}  // namespace abfs::strategies
