// dynamic_parallel: a device-driven level loop, its levels linked by device graph launches.
//
// The host launches once and waits once (for the counters the run's last link publishes into
// mapped host memory: publish_counters); the device chains the levels. Each level is one
// of two kernels, each the one node of a graph instantiated for device launch, and the level that
// finishes chooses and tail-launches (cudaGraphLaunch into cudaStreamGraphTailLaunch: starts when
// the launching graph has completed, so no device-side synchronization is needed) the next one,
// sized from the frontier it just produced. A link's kernel parameters are fixed in its graph, so
// the launching link writes where the next one starts into device memory (DpState):
//  - dp_block_levels: the one-block level loop of block_loop.cuh, for frontiers that fit its
//    b-queue; it runs many levels in one launch. When the frontier outgrows the b-queue it
//    launches dp_grid_level: the lecture's "launch Kernel 2 from Kernel 1 when the frontier
//    size threshold is exceeded".
//  - dp_grid_level: one multi-block top-down level. A group of 1, 8, 16 or 32 lanes per frontier
//    vertex, sized to the frontier's mean degree; lists longer than 32 arcs go to the warp, and
//    those over 256 arcs to the block (where the mean degree is under 8, a block deals all its
//    vertices' arcs to its threads evenly instead, after a block scan of their lengths), or, on
//    hub levels (more blocks by arcs than by vertices), hubs over 1,024 arcs to the whole grid:
//    they are listed in device memory and every warp claims 256 arcs of them at a time, so that
//    a level of a few hubs is spread over blocks sized to its arcs (a block per 4,096 arcs, or
//    per 1,024 up to 128 blocks), not held by the few blocks that own the hubs. A b-queue per
//    block in shared memory (one shared atomic per group of lanes that find vertices together)
//    and one global atomic per block. The last block to finish (a ticket counter) reads the new
//    frontier's size and arcs and launches either another dp_grid_level (the graph of the
//    smallest power-of-two grid that covers the new frontier) or, when the frontier fits,
//    dp_block_levels.
// The run ends when the frontier is empty or the level budget (or level log) is used up, or,
// with the planner's hand-back table, before a level that its fitted models price cheaper off
// the run (the host, or a bottom-up step): the models are evaluated on the device, in the
// one-block loop and in the last block of a grid level, before each level after the first from
// HandbackTable::price_from on.
//
// Wins for mid-size frontiers over many levels, where host round trips would dominate. The link
// is the fastest of the mechanisms calibration measures (probe_level_loop_mechanisms; H100,
// three calibrations of 2026-11-22, us per link of a grid-sized level): a device graph launch
// 5.9-6.4, a graph WHILE node 5.7-6.0, a CDP2 tail launch (cudaStreamTailLaunch, what this
// strategy used before) 12.9-13.7, the host's launch and round trip 11.8-12.8. The first two
// tie; a device graph launch lets each link choose its grid (a WHILE body's grid is fixed), so
// the chain is built on it. The one-block loop carries the small levels at ~0.1 us of barriers.
// The kernel for a level is chosen by thresholds; there is no bottom-up step (it hands over to
// one), and arcs are balanced without a scan of the frontier's degrees (vertices dealt to the
// blocks round-robin, lanes per vertex by the mean degree, the warp for long lists, the grid for
// hubs), unlike privatized_queue's tiles.
// Cost features: one host launch and round trip per run (the first link reads where it starts
// from mapped host memory; a run that starts with a grid of over 256 blocks copies it to device
// memory first); per grid level one device launch, the frontier's arcs scanned, one atomic per
// arc and per block, the vertices it discovers (random writes that miss the L2 on graphs of
// millions of vertices); on a run's first level, the arcs per block of its grid (hubs).
// @see Luo, Wong, Hwu, DAC 2010 (hierarchical kernel arrangement); NVIDIA, CUDA Programming
//      Guide, "CUDA Graphs: Device Graph Launch" (tail launch of device graphs).

#include "strategies/block_loop.cuh"
#include "strategies/dp_grid_lanes.hpp"
#include "strategies/strategy.hpp"

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace abfs::strategies {
namespace {

namespace cg = cooperative_groups;
using detail_block::BlockLoopArgs;
using detail_block::kBlockThreads;

constexpr int kGridThreads = 256;  // threads per dp_grid_level block (compile-time: reductions)
constexpr int kGridQueue = 4 * kGridThreads;  // b-queue slots per block; beyond, global atomics
/// A frontier vertex is scanned by a group of lanes sized to the frontier's mean degree
/// (grid_group_lanes): 1 lane below 8 arcs, 8 below 16, 16 below 32, else the warp. Lists longer
/// than kGridWarpDegree go to the whole warp, lists longer than kGridBlockDegree to their block;
/// lists longer than kGridHubDegree are hubs, listed for the whole grid on hub levels (at most
/// kGridHubs a level), else scanned by their block too.
/// Where the mean degree is under 8 (a lane a vertex), the block's lists are instead dealt to
/// its threads evenly (visit_gathered), hubs on hub levels still going to the grid.
constexpr EdgeOffset kGridWarpDegree = 32;
/// A lane loads this many of its arcs at once (visit_arcs).
constexpr int kVisitBatch = 4;
constexpr EdgeOffset kGridHubDegree = 4 * kGridThreads;
/// A level ends with its warps that walk the longest lists that the grid does not share: a warp
/// walks 1,024 arcs in eight dependent steps of claims, the block (kGridThreads lanes, four
/// arcs each) in one. uk-2007-05@100000's level 3 (6,736 vertices, 350,000 arcs, lists of up
/// to 1,016 arcs each walked by a warp) took 34 us forced, 25 with this (H100, 2026-11-25;
/// forced dynamic_parallel, 2 x 16 sources, interleaved: cnr-2000 0.91 -> 0.75 ms, email-Enron
/// 0.17 -> 0.15, soc-Slashdot0902 0.176 -> 0.165, kron:22 2.83 -> 2.74, uk-2007-05@100000
/// 0.141 -> 0.134; uniform graphs unchanged). Hub levels kept such lists (up to kGridHubDegree)
/// with their warp until kGridBatchBlocks made levels of a few long lists hub levels:
/// soc-Slashdot0902's level 2 above, whose 870, 571, 570, ... arc lists a warp walks in up to
/// seven steps.
constexpr EdgeOffset kGridBlockDegree = kGridThreads;
constexpr unsigned int kGridHubs = 1024;
/// Hubs a block scans with all its threads where the grid does not share them (levels that are
/// not hub levels, or the grid's list is full); beyond, they stay with their warp.
constexpr unsigned int kGridBlockHubs = 64;
/// Arcs of a listed hub that a warp claims at a time.
constexpr unsigned int kGridHubChunk = 8 * 32;
/// Grid levels get a block per this many frontier arcs at least (up to kGridArcBlocksMax), so
/// that a few hubs are shared by many blocks.
constexpr EdgeOffset kGridArcsPerBlock = 4 * kGridThreads * 4;
/// And a block per kGridBatchArcsPerBlock arcs (one kVisitBatch a thread) up to kGridBatchBlocks
/// (about the H100's 132 SMs, one grid graph's size): a level of a few long lists otherwise ran
/// on a few SMs, each block walking its lists one dependent step after another.
/// soc-Slashdot0902's level 2 from source 28832 (47 vertices, 14,489 arcs, lists of 2,248,
/// 2,209, 870, 571, ... arcs: 6 blocks by vertices, 4 by kGridArcsPerBlock) took 31.4-31.6 us,
/// with 15 blocks 24.5-25.3; kron:22's levels 1 of 4-12 vertices and 12,000-174,000 arcs 43-52
/// us, 30-44 (H100, 2026-11-28, forced dynamic_parallel, three processes each). One block per
/// 1,024 arcs up to kGridArcBlocksMax instead: kron:22's levels 1 of ~300 vertices and 1.2-1.8
/// million arcs took 430-580 us against 235-330 (every warp claims from every listed hub).
constexpr EdgeOffset kGridBatchArcsPerBlock = kGridThreads * kVisitBatch;
constexpr EdgeOffset kGridBatchBlocks = 128;
constexpr unsigned int kGridArcBlocksMax = 2048;
/// dp_grid_level blocks resident on an SM (its launch bounds: 48 registers a thread, some
/// spilled). Its lanes wait on dependent loads and atomics, so resident warps are what hides
/// them: unbounded it took 92 registers and two blocks an SM. Forced dynamic_parallel, 2 x 16
/// sources (H100, 2026-11-25), two / four / five / eight blocks: kron:22 4.9 / 3.1 / 2.9 / 2.7
/// ms, uniform:8388608:8 2.92 / 2.63 / 2.63 / 2.79, uk-2007-05@100000 0.19 / 0.16 / 0.15 /
/// 0.15, cnr-2000 0.93 / 0.87 / 0.89 / 1.05, uniform:1048576:8 0.38 / 0.35 / 0.36 / 0.39.
constexpr int kGridResidentBlocks = 5;

/// Grid levels the host launches read their start from its mapped copy up to 2^(this - 1)
/// blocks (a few microseconds of bus reads at most); wider ones from a copy in device memory.
constexpr int kHostStartGraphs = 9;

/// Blocks of a dp_grid_level that own frontier vertices (the others only scan listed hubs).
__host__ __device__ inline unsigned int grid_vertex_blocks(VertexId frontier_size, EdgeOffset frontier_edges) {
  const unsigned int per_block = kGridThreads / grid_group_lanes(frontier_size, frontier_edges);
  const unsigned int blocks = (frontier_size + per_block - 1) / per_block;
  return blocks > 0 ? blocks : 1u;
}

/// Blocks of a dp_grid_level over a frontier of frontier_size vertices and frontier_edges arcs:
/// those that own vertices, or one per kGridArcsPerBlock arcs (or per kGridBatchArcsPerBlock,
/// up to kGridBatchBlocks) where that is more (hub levels).
__host__ __device__ inline unsigned int grid_blocks(VertexId frontier_size, EdgeOffset frontier_edges) {
  const unsigned int vertex_blocks = grid_vertex_blocks(frontier_size, frontier_edges);
  const EdgeOffset by_arcs = (frontier_edges + kGridArcsPerBlock - 1) / kGridArcsPerBlock;
  const EdgeOffset batches = (frontier_edges + kGridBatchArcsPerBlock - 1) / kGridBatchArcsPerBlock;
  const EdgeOffset by_batches = batches < kGridBatchBlocks ? batches : kGridBatchBlocks;
  const EdgeOffset by_both = by_arcs > by_batches ? by_arcs : by_batches;
  const unsigned int arc_blocks = by_both < kGridArcBlocksMax ? static_cast<unsigned int>(by_both) : kGridArcBlocksMax;
  return vertex_blocks > arc_blocks ? vertex_blocks : arc_blocks;
}

/// The hand-back model's row (HandbackModel::stay, per_discovered) of a grid level over a
/// frontier of frontier_size vertices and frontier_edges arcs: [2] for a lane a vertex, else [1].
__device__ __forceinline__ int grid_stay(VertexId frontier_size, EdgeOffset frontier_edges) {
  return grid_group_lanes(frontier_size, frontier_edges) == 1 ? 2 : 1;
}

/// Everything a link of the chain needs to launch the next one.
struct DpArgs {
  BlockLoopArgs loop;
  unsigned int log_limit;  ///< stop after this many levels (records)
};

/// Where a link of the chain starts: the frontier order[frontier_begin, frontier_end) of level,
/// with frontier_edges arcs; log_index records written so far; start_ns the global clock when the
/// previous link launched it (0 when the host did: the link stamps its own start).
struct DpLink {
  VertexId frontier_begin;
  VertexId frontier_end;
  EdgeOffset frontier_edges;
  int level;
  unsigned int log_index;
  unsigned long long start_ns;
};

/// What a link reads when it starts, written by the link (or the host) that launched it.
struct DpStart {
  DpArgs args;
  DpLink link;
};
static_assert(sizeof(DpStart) % sizeof(unsigned long long) == 0, "DpStart is copied in 8-byte words");

/// Blocks of the grid-level graphs: graph k runs 2^k blocks; a level takes the smallest that
/// covers grid_blocks(), its extra blocks find no frontier vertex and only take their ticket.
constexpr int kGridGraphs = 31;

/// A frontier vertex whose arcs the whole grid level shares: warps claim kGridHubChunk arcs at a
/// time from next. ready is the level's tag (DpState::epoch + 1) once the entry is written;
/// older entries hold older tags.
struct DpHub {
  unsigned long long first;
  unsigned long long length;
  unsigned long long next;
  VertexId vertex;
  unsigned int ready;
};

/// The chain's state in device memory: the next link's start, the device-launchable graphs of
/// the two link kernels (one per grid size class), instantiated by DynamicParallel::prepare, and
/// a grid level's shared work (zero between levels: the level's last block resets it).
struct DpState {
  DpStart start;
  cudaGraphExec_t block_graph;
  cudaGraphExec_t grid_graphs[kGridGraphs];
  unsigned int ticket;      ///< the next logical block index (blocks take them in the order they start)
  unsigned int classified;  ///< blocks that own vertices and have listed their hubs
  unsigned int hub_count;   ///< hubs listed (entries beyond kGridHubs were not stored)
  unsigned int epoch;       ///< grid levels run so far (their hub entries' tags)
  DpHub hubs[kGridHubs];
};

__host__ __device__ inline int grid_graph_index(unsigned int blocks) {
  int k = 0;
  while ((1u << k) < blocks) ++k;
  return k;
}

/// Copies a link's start into shared memory with the whole block (a link's kernel parameters are
/// fixed in its graph, so what changes from link to link is read from memory): from
/// DpState::start in device memory, or, for a link the host launches, from the host's mapped
/// copy.
__device__ const DpStart& load_start(const DpStart* from, unsigned long long* shared_words) {
  const auto* words = reinterpret_cast<const unsigned long long*>(from);
  for (unsigned int k = threadIdx.x; k < sizeof(DpStart) / sizeof(unsigned long long); k += blockDim.x) {
    shared_words[k] = words[k];
  }
  __syncthreads();
  return *reinterpret_cast<const DpStart*>(shared_words);
}

/// Launches the next link (one thread): the one-block loop or a grid level of blocks blocks,
/// starting from next (a device graph tail launch: it starts when this graph has completed).
__device__ cudaError_t launch_link(DpState* state, const DpArgs& args, const DpLink& next, bool block_loop,
                                   unsigned int blocks) {
  state->start.args = args;
  state->start.link = next;
  const cudaGraphExec_t graph = block_loop ? state->block_graph : state->grid_graphs[grid_graph_index(blocks)];
  return cudaGraphLaunch(graph, cudaStreamGraphTailLaunch);
}

/// Ends the run (one thread, after its block's writes to the level log): the frontier is
/// order[.., tail) of level, with edges arcs. Publishes the counters to the host.
__device__ void finish(const DpArgs& a, unsigned int levels, int level, EdgeOffset edges, detail::DeviceStop stop,
                       cudaError_t error, const detail::HandbackPrice& handback = {}) {
  detail::LevelCounters* c = a.loop.counters;
  c->handback = handback;
  c->final_edges = edges;
  c->levels = levels;
  c->stop = static_cast<unsigned int>(stop);
  c->launch_error = static_cast<unsigned int>(error);
  c->next_edges[static_cast<unsigned int>(level) & 1u] = 0;  // the protocol in bfs_buffers.hpp
  detail::publish_counters(c, a.loop.host_counters, a.loop.sequence);
}

/// The one-block loop as a link of the chain (one block of kBlockThreads threads), started from
/// `from`: &state->start where a link launched it, the host's mapped DpStart where the host did.
__global__ void __launch_bounds__(kBlockThreads) dp_block_levels(DpState* state, const DpStart* from) {
  __shared__ unsigned long long start_words[sizeof(DpStart) / sizeof(unsigned long long)];
  const DpStart& start = load_start(from, start_words);
  const DpArgs& a = start.args;
  const DpLink& l = start.link;
  const unsigned long long start_ns = l.start_ns != 0 ? l.start_ns : detail::global_ns();
  if (l.start_ns == 0 && threadIdx.x == 0) a.loop.counters->start_ns = start_ns;  // launched by the host
  // The loop's arguments in registers: read through the shared copy, every claim's atomic (on a
  // bitmap that may be in shared memory) made the compiler load them again (148 shared loads in
  // this kernel's PTX against one_block's 21 with its arguments in the parameter space): forced
  // on cnr-2000 from source 44408 its levels took 10-11.7 us, one_block's and now its own 9-10
  // (H100, 2026-11-24).
  const detail_block::BlockLoopArgs loop = a.loop;
  const detail_block::BlockLoopEnd end = detail_block::run_block_levels(
      loop, l.frontier_begin, l.frontier_end, l.level, l.log_index, a.log_limit, start_ns);
  if (threadIdx.x != 0) return;
  detail::LevelCounters* c = a.loop.counters;
  c->order_tail = end.frontier_end;
  if (end.stop != detail::DeviceStop::FrontierTooLarge || end.log_index >= a.log_limit) {
    finish(a, end.log_index, end.level, end.frontier_edges, end.stop, cudaSuccess, end.handback);
    return;
  }
  const VertexId size = end.frontier_end - end.frontier_begin;
  const detail::HandbackTable& t = a.loop.handback;
  if (end.frontier_end > t.outgrown_at) {
    finish(a, end.log_index, end.level, end.frontier_edges, detail::DeviceStop::ProfileOutgrown, cudaSuccess);
    return;
  }
  if (t.model != nullptr && end.frontier_end > t.price_from) {
    const unsigned int k = detail_block::match_profile_level(t, end.profile_cursor, end.frontier_end);
    const int kernel = grid_stay(size, end.frontier_edges);
    const detail::HandbackPrice price = detail_block::handback_price(
        t.model->stay[kernel], t.model->per_discovered[kernel], t.model->host, t.model->host_per_discovered,
        t.levels[k], size, end.frontier_edges,
        detail_block::expected_discoveries(t, k, end.frontier_end, end.frontier_edges));
    if (detail_block::leaves(price)) {
      finish(a, end.log_index, end.level, end.frontier_edges, detail::DeviceStop::Handback, cudaSuccess, price);
      return;
    }
  }
  c->next_edges[static_cast<unsigned int>(end.level) & 1u] = 0;  // the grid level accumulates here
  DpArgs next = a;
  next.loop.profile_cursor = end.profile_cursor;
  const cudaError_t error = launch_link(
      state, next,
      DpLink{end.frontier_begin, end.frontier_end, end.frontier_edges, end.level, end.log_index,
             detail::global_ns()},
      false, grid_blocks(size, end.frontier_edges));
  if (error != cudaSuccess) {
    finish(a, end.log_index, end.level, end.frontier_edges, detail::DeviceStop::LaunchFailed, error);
  }
}

/// One multi-block top-down level over order[frontier_begin, frontier_end): a group of lanes per
/// frontier vertex (grid_group_lanes), the warp for longer lists, the block or, on hub levels,
/// the whole grid for hubs; the last block to finish launches the next link. Started from `from`
/// as dp_block_levels.
__global__ void __launch_bounds__(kGridThreads, kGridResidentBlocks) dp_grid_level(DpState* state,
                                                                                    const DpStart* from) {
  __shared__ unsigned long long start_words[sizeof(DpStart) / sizeof(unsigned long long)];
  const DpStart& start = load_start(from, start_words);
  const DpArgs& a = start.args;
  const VertexId frontier_begin = start.link.frontier_begin;
  const VertexId frontier_end = start.link.frontier_end;
  const EdgeOffset frontier_edges = start.link.frontier_edges;
  const int level = start.link.level;
  const unsigned int log_index = start.link.log_index;
  unsigned long long start_ns = start.link.start_ns;
  using BlockReduce = cub::BlockReduce<unsigned long long, kGridThreads>;
  using BlockScan = cub::BlockScan<EdgeOffset, kGridThreads>;
  __shared__ union {
    typename BlockReduce::TempStorage reduce;
    typename BlockScan::TempStorage scan;
  } block_storage;
  // The block's lists as visit_gathered deals them (levels of a lane a vertex): thread t's list
  // starts at arc gather_first[t] of gather_vertex[t] and at gather_offset[t] in the block's
  // concatenation of its lists.
  __shared__ EdgeOffset gather_offset[kGridThreads];
  __shared__ EdgeOffset gather_first[kGridThreads];
  __shared__ VertexId gather_vertex[kGridThreads];
  __shared__ VertexId bqueue[kGridQueue];
  __shared__ unsigned int bqueue_size;
  __shared__ unsigned int gqueue_base;
  __shared__ unsigned int logical_block;
  __shared__ VertexId block_hubs[kGridBlockHubs];
  __shared__ unsigned int block_hub_count;
  __shared__ bool last_block;
  const BlockLoopArgs& g = a.loop;
  detail::LevelCounters* c = g.counters;
  const unsigned int parity = static_cast<unsigned int>(level) & 1u;
  const unsigned int tag = __ldcg(&state->epoch) + 1u;  // written by the last level's last block
  if (start_ns == 0) {  // launched by the host: this block's start
    start_ns = detail::global_ns();
    if (blockIdx.x == 0 && threadIdx.x == 0) c->start_ns = start_ns;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) c->next_edges[parity ^ 1u] = 0;  // for the level after
  const VertexId frontier_size = frontier_end - frontier_begin;
  const unsigned int vertex_blocks = grid_vertex_blocks(frontier_size, frontier_edges);
  const unsigned int blocks = grid_blocks(frontier_size, frontier_edges);
  // A hub level (more blocks by arcs than by vertices): hubs are listed for the whole grid and
  // helper blocks, which own no vertex, scan them. On other levels a hub goes to its block:
  // with every warp of every level reading the list, forced dynamic_parallel took 167 ms on
  // kron:22 instead of 8 (H100, 2026-11-24).
  const bool share_hubs = blocks > vertex_blocks;
  if (threadIdx.x == 0) {
    bqueue_size = 0;
    block_hub_count = 0;
    // Logical indices follow the order blocks start in, so a block that waits for lower ones
    // (a helper, below) waits only for blocks already running or done.
    logical_block = share_hubs ? atomicAdd(&state->ticket, 1u) : blockIdx.x;
  }
  __syncthreads();
  const unsigned int block = logical_block;

  // Queues v, claimed for level + 1, in the block's b-queue (one shared atomic per group of lanes
  // that found vertices together), or, once the b-queue is full, in the order directly (one
  // global atomic per such group).
  unsigned long long found_edges = 0;
  auto push = [&](VertexId v) {
    const cg::coalesced_group found = cg::coalesced_threads();
    const auto rank = static_cast<unsigned int>(found.thread_rank());
    unsigned int slot = 0;
    if (rank == 0) slot = atomicAdd(&bqueue_size, static_cast<unsigned int>(found.num_threads()));
    slot = found.shfl(slot, 0) + rank;
    if (slot < kGridQueue) {
      bqueue[slot] = v;
      return;
    }
    const cg::coalesced_group spilled = cg::coalesced_threads();
    const auto spill_rank = static_cast<unsigned int>(spilled.thread_rank());
    unsigned int at = 0;
    if (spill_rank == 0) at = atomicAdd(&c->order_tail, static_cast<unsigned int>(spilled.num_threads()));
    g.order[spilled.shfl(at, 0) + spill_rank] = v;
  };
  // A batch of kVisitBatch arcs (u[j], v[j]; v[j] = kNoVertex: none) after their neighbours are
  // loaded, each step for the whole batch before the next: their visited words (a plain read
  // filters most visited neighbours), the claims (atomicOr), the claimed vertices' degrees,
  // then the stores and pushes. Arc by arc, every arc's loads waited for the previous arc's
  // claim (the compiler may not move a load above an atomic on memory it cannot prove apart),
  // and a claim's atomic and degree were two round trips each.
  auto claim_batch = [&](const VertexId (&u)[kVisitBatch], const VertexId (&v)[kVisitBatch]) {
    bool claimed[kVisitBatch];
#pragma unroll
    for (int j = 0; j < kVisitBatch; ++j) {
      claimed[j] = v[j] != kNoVertex && (g.visited[v[j] >> 5] & (1u << (v[j] & 31))) == 0;
    }
#pragma unroll
    for (int j = 0; j < kVisitBatch; ++j) {
      const std::uint32_t bit = 1u << (v[j] & 31);
      if (claimed[j]) claimed[j] = (atomicOr(g.visited + (v[j] >> 5), bit) & bit) == 0;
    }
    EdgeOffset degree[kVisitBatch];
#pragma unroll
    for (int j = 0; j < kVisitBatch; ++j) {
      degree[j] = claimed[j] ? __ldg(g.row_offsets + v[j] + 1) - __ldg(g.row_offsets + v[j]) : 0;
    }
#pragma unroll
    for (int j = 0; j < kVisitBatch; ++j) {
      if (!claimed[j]) continue;
      g.dist[v[j]] = level + 1;
      g.parent[v[j]] = u[j];
      found_edges += degree[j];
      push(v[j]);
    }
  };
  // Visits u's arcs begin, begin + stride, ... before end, kVisitBatch at a time.
  auto visit_arcs = [&](VertexId u, EdgeOffset begin, EdgeOffset end, EdgeOffset stride) {
    for (EdgeOffset e = begin; e < end; e += stride * kVisitBatch) {
      VertexId owner[kVisitBatch];
      VertexId v[kVisitBatch];
#pragma unroll
      for (int j = 0; j < kVisitBatch; ++j) {
        const EdgeOffset at = e + static_cast<EdgeOffset>(j) * stride;
        owner[j] = u;
        v[j] = at < end ? __ldg(g.column_indices + at) : kNoVertex;
      }
      claim_batch(owner, v);
    }
  };
  // Arcs threadIdx.x, + kGridThreads, ... of the block's concatenated lists (gather_*), each
  // found by a binary search over the lists' offsets: the last list that starts at or before it
  // (a list of no arcs shares its offset with the next one, so the search passes it).
  auto visit_gathered = [&](EdgeOffset total) {
    for (EdgeOffset base = threadIdx.x; base < total; base += static_cast<EdgeOffset>(kGridThreads) * kVisitBatch) {
      VertexId owner[kVisitBatch];
      VertexId v[kVisitBatch];
#pragma unroll
      for (int j = 0; j < kVisitBatch; ++j) {
        const EdgeOffset k = base + static_cast<EdgeOffset>(j) * kGridThreads;
        owner[j] = kNoVertex;
        v[j] = kNoVertex;
        if (k < total) {
          unsigned int low = 0, high = kGridThreads;
          while (low < high) {
            const unsigned int mid = (low + high) / 2;
            if (gather_offset[mid] <= k) {
              low = mid + 1;
            } else {
              high = mid;
            }
          }
          owner[j] = gather_vertex[low - 1];
          v[j] = __ldg(g.column_indices + gather_first[low - 1] + (k - gather_offset[low - 1]));
        }
      }
      claim_batch(owner, v);
    }
  };
  // Lists u's arcs [first, first + length) for the whole grid; false when the list is full.
  auto list_hub = [&](VertexId u, EdgeOffset first, EdgeOffset length) {
    const unsigned int slot = atomicAdd(&state->hub_count, 1u);
    if (slot >= kGridHubs) return false;
    DpHub& hub = state->hubs[slot];
    hub.first = first;
    hub.length = length;
    hub.next = 0;
    hub.vertex = u;
    __threadfence();  // the entry before its ready mark
    atomicExch(&hub.ready, tag);
    return true;
  };

  const unsigned int lane = threadIdx.x % 32;
  bool scans_hubs = block >= vertex_blocks && block < blocks;  // a helper, or a warp that listed one
  if (block < vertex_blocks) {
    // A group of lanes per vertex (Merrill, Garland, Grimshaw, PPoPP 2012: scan+warp+CTA
    // gathering, with the grid added on hub levels): sized to the mean degree so that lanes
    // are not left idle; a longer list goes to its warp, a hub to its block or the grid.
    const unsigned int group = grid_group_lanes(frontier_size, frontier_edges);
    const unsigned int group_lane = lane & (group - 1u);
    const unsigned int leader = lane - group_lane;
    // The frontier's vertices are dealt to the blocks round-robin (slot j of block b: vertex
    // j * vertex_blocks + b), not in runs of kGridThreads / group: a level's order keeps the
    // children of a vertex together, and on crawled web graphs siblings have alike degrees
    // (pages of one site, hundreds of links each), so runs of 256 crowded a few blocks. cnr-2000
    // from source 6844, in the serial BFS's order: the fullest block held 4.7-15.6x the mean
    // block's arcs on the levels of a lane a vertex (levels 7, 13, 15: 34-71 us where
    // privatized_queue's edge-balanced tiles took 25-28), 1.2-2.5x dealt round-robin. Forced
    // dynamic_parallel, 3 x 16 sources paired (H100, 2026-11-26): cnr-2000 0.629 -> 0.493 ms
    // (its slowest grid levels 61-67 us -> 20-23), soc-Slashdot0902 0.158 -> 0.149, email-Enron,
    // uk-2007-05@100000, kron:20 and uniform:1048576:8 0.5-2% faster, uniform:4194304:4 0.7% slower.
    const std::uint64_t i = frontier_begin + static_cast<std::uint64_t>(threadIdx.x / group) * vertex_blocks + block;
    VertexId u = 0;
    EdgeOffset first = 0;
    EdgeOffset stop = 0;
    if (i < frontier_end) {  // uniform across the group
      u = g.order[i];
      first = g.row_offsets[u];
      stop = g.row_offsets[u + 1];
    }
    // A lane a vertex (a mean degree under 8): the block's lists are dealt to its threads evenly
    // (below), so only hubs on hub levels are set apart.
    const bool gathered = group == 1;
    bool listed = false;  // for the grid
    bool block_hub = false;  // for this block
    if (group_lane == 0 && stop - first > kGridBlockDegree) {
      if (share_hubs && stop - first > kGridHubDegree) listed = list_hub(u, first, stop - first);
      if (!listed && !gathered) {
        const unsigned int slot = atomicAdd(&block_hub_count, 1u);
        if (slot < kGridBlockHubs) {
          block_hubs[slot] = u;
          block_hub = true;
        }
      }
    }
    if (__shfl_sync(0xFFFFFFFFu, listed || block_hub, static_cast<int>(leader))) stop = first;
    scans_hubs = __any_sync(0xFFFFFFFFu, listed);
    if (share_hubs) {
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();  // the block's hub entries before its count
        atomicAdd(&state->classified, 1u);
      }
    }
    if (gathered) {
      // Scan-based gathering at the block's scale (Merrill, Garland, Grimshaw, PPoPP 2012).
      // With a lane walking its vertex's list and the warp the lists over 32 arcs one after
      // another, cnr-2000's grid levels of 50,000-160,000 arcs, whose crawl order puts pages of
      // tens to hundreds of links side by side, took 50-100 us where privatized_queue's tiles
      // took 23-30 (source 6844, levels 7, 13-15 and 18; H100, 2026-11-26). Gathered at every
      // mean degree, the levels of longer lists ran slower than their groups of lanes do (kron:22
      // forced, 2.72 -> 3.08 ms; cnr-2000's levels of 10-14 arcs a vertex +11-14 us).
      const EdgeOffset count = listed ? 0 : stop - first;
      EdgeOffset offset = 0, block_arcs = 0;
      BlockScan(block_storage.scan).ExclusiveSum(count, offset, block_arcs);
      gather_offset[threadIdx.x] = offset;
      gather_first[threadIdx.x] = first;
      gather_vertex[threadIdx.x] = u;
      __syncthreads();
      visit_gathered(block_arcs);
    } else {
      if (group < 32) {
        // Lists longer than kGridWarpDegree, one at a time, by the whole warp.
        for (unsigned int wide = __ballot_sync(0xFFFFFFFFu, group_lane == 0 && stop - first > kGridWarpDegree);
             wide != 0; wide &= wide - 1) {
          const int owner = __ffs(wide) - 1;
          const VertexId wu = __shfl_sync(0xFFFFFFFFu, u, owner);
          const EdgeOffset wstop = __shfl_sync(0xFFFFFFFFu, stop, owner);
          visit_arcs(wu, __shfl_sync(0xFFFFFFFFu, first, owner) + lane, wstop, 32);
          if (leader == static_cast<unsigned int>(owner)) stop = first;
        }
      }
      visit_arcs(u, first + group_lane, stop, group);
      // This block's hubs, each by all its threads: with a warp each, kron:22's level 2 (190,989
      // vertices, 89 million arcs) took 7,970 us, against 3,208 so (H100, 2026-11-24).
      __syncthreads();
      const unsigned int hubs_here = min(block_hub_count, kGridBlockHubs);
      for (unsigned int k = 0; k < hubs_here; ++k) {
        const VertexId hub = block_hubs[k];
        visit_arcs(hub, g.row_offsets[hub] + threadIdx.x, g.row_offsets[hub + 1], kGridThreads);
      }
    }
  } else if (block < blocks) {
    // A helper block (hub levels): every block that owns vertices has a lower logical index, so
    // it is running or done; wait until all have listed their hubs.
    if (threadIdx.x == 0) {
      while (atomicAdd(&state->classified, 0u) < vertex_blocks) __nanosleep(64);
      __threadfence();
    }
    __syncthreads();
  }
  if (scans_hubs) {
    // The listed hubs, 32 entries read at once (a lane each), then kGridHubChunk arcs a claim
    // from each with arcs left, each warp starting at its own entry. A hub still being written
    // is skipped: the warp that lists it scans it too. Reading the list an entry at a time,
    // kron:22's hub level took 176 us (84 hubs, 364,083 arcs; H100, 2026-11-24).
    unsigned int listed_hubs = 0;
    if (lane == 0) listed_hubs = min(atomicAdd(&state->hub_count, 0u), kGridHubs);
    listed_hubs = __shfl_sync(0xFFFFFFFFu, listed_hubs, 0);
    const unsigned int warp = block * (kGridThreads / 32) + threadIdx.x / 32;
    for (unsigned int base = 0; base < listed_hubs; base += 32) {
      DpHub* hub = state->hubs + base + lane;
      VertexId hub_vertex = 0;
      unsigned long long hub_first = 0, hub_length = 0;
      if (base + lane < listed_hubs && __ldcg(&hub->ready) == tag) {
        __threadfence();  // the entry after its ready mark; past L1: another SM wrote it
        if (__ldcg(&hub->next) < __ldcg(&hub->length)) {
          hub_vertex = __ldcg(&hub->vertex);
          hub_first = __ldcg(&hub->first);
          hub_length = __ldcg(&hub->length);
        }
      }
      const unsigned int open = __ballot_sync(0xFFFFFFFFu, hub_length > 0);
      for (unsigned int j = 0; j < 32; ++j) {
        const auto at = static_cast<int>((warp + j) & 31u);
        if (((open >> at) & 1u) == 0) continue;
        const VertexId u = __shfl_sync(0xFFFFFFFFu, hub_vertex, at);
        const unsigned long long first = __shfl_sync(0xFFFFFFFFu, hub_first, at);
        const unsigned long long length = __shfl_sync(0xFFFFFFFFu, hub_length, at);
        unsigned long long* next = &state->hubs[base + static_cast<unsigned int>(at)].next;
        for (;;) {
          unsigned long long claimed = 0;
          if (lane == 0) claimed = atomicAdd(next, static_cast<unsigned long long>(kGridHubChunk));
          claimed = __shfl_sync(0xFFFFFFFFu, claimed, 0);
          if (claimed >= length) break;
          const unsigned long long stop = first + min(claimed + kGridHubChunk, length);
          visit_arcs(u, first + claimed + lane, stop, 32);
        }
      }
    }
  }
  __syncthreads();
  const unsigned int queued = min(bqueue_size, static_cast<unsigned int>(kGridQueue));
  if (threadIdx.x == 0 && queued > 0) gqueue_base = atomicAdd(&c->order_tail, queued);
  __syncthreads();
  for (unsigned int k = threadIdx.x; k < queued; k += kGridThreads) g.order[gqueue_base + k] = bqueue[k];
  const unsigned long long block_edges = BlockReduce(block_storage.reduce).Sum(found_edges);
  if (threadIdx.x == 0) {
    if (block_edges > 0) atomicAdd(&c->next_edges[parity], block_edges);
    __threadfence();  // this block's writes before its ticket
    last_block = atomicAdd(&c->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block || threadIdx.x != 0) return;

  // The last block: every other block's atomics are done; read the level's totals.
  __threadfence();
  const VertexId tail = atomicAdd(&c->order_tail, 0u);
  const EdgeOffset next_edges = atomicAdd(&c->next_edges[parity], 0ull);
  c->blocks_done = 0;
  state->ticket = 0;
  state->classified = 0;
  state->hub_count = 0;
  ++state->epoch;
  const unsigned long long now = detail::global_ns();
  g.host_level_log[log_index] =
      detail::DeviceLevelRecord{frontier_end - frontier_begin, 1u, frontier_edges, start_ns, now};
  const unsigned int levels = log_index + 1;
  const VertexId next_size = tail - frontier_end;
  if (next_size == 0) {
    finish(a, levels, level + 1, next_edges, detail::DeviceStop::FrontierEmpty, cudaSuccess);
    return;
  }
  if (tail >= a.loop.reach_limit) {  // every vertex the BFS can reach is visited: it is over
    finish(a, levels, level + 1, next_edges, detail::DeviceStop::AllReached, cudaSuccess);
    return;
  }
  if (levels >= a.log_limit) {
    finish(a, levels, level + 1, next_edges, detail::DeviceStop::LevelCap, cudaSuccess);
    return;
  }
  const bool fits =
      detail_block::fits_block_queue(next_size, next_edges, a.loop.wqueue_capacity, a.loop.max_frontier_edges);
  DpArgs next = a;
  const detail::HandbackTable& t = a.loop.handback;
  if (tail > t.outgrown_at) {
    finish(a, levels, level + 1, next_edges, detail::DeviceStop::ProfileOutgrown, cudaSuccess);
    return;
  }
  if (t.model != nullptr && tail > t.price_from) {  // the hand-back decision, as the block loop makes it
    const unsigned int k = next.loop.profile_cursor =
        detail_block::match_profile_level(t, a.loop.profile_cursor, tail);
    const int kernel = fits ? 0 : grid_stay(next_size, next_edges);
    // A one-block level warp 0 does not expand alone is priced as the block's (block_stay).
    const bool block = fits && !detail_block::fits_warp(next_size, next_edges, a.loop.wqueue_capacity);
    detail::HandbackPrice price = detail_block::handback_price(
        block ? t.model->block_stay : t.model->stay[kernel], t.model->per_discovered[kernel], t.model->host,
        t.model->host_per_discovered, t.levels[k], next_size, next_edges,
        detail_block::expected_discoveries(t, k, tail, next_edges));
    // A one-block level after this grid level starts the loop again (the cost feature
    // block_relaunch), as the executor's lookahead prices it.
    if (fits) price.level_us += t.model->block_relaunch[detail::arcs_size_class(next_edges)];
    if (detail_block::leaves(price)) {
      finish(a, levels, level + 1, next_edges, detail::DeviceStop::Handback, cudaSuccess, price);
      return;
    }
  }
  const cudaError_t error =
      launch_link(state, next, DpLink{frontier_end, tail, next_edges, level + 1, levels, now}, fits,
                  grid_blocks(next_size, next_edges));
  if (error != cudaSuccess) finish(a, levels, level + 1, next_edges, detail::DeviceStop::LaunchFailed, error);
}

class DynamicParallel final : public Strategy {
 public:
  explicit DynamicParallel(const DynamicParallelConfig& config) : config_(config) {}

  const char* name() const override { return "dynamic_parallel"; }
  bool applicable(const FrontierState&) const override { return true; }
  FrontierIo frontier_io() const override {
    return {FrontierRepresentation::Queue, Location::Device, FrontierRepresentation::Queue, Location::Device};
  }
  CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const override {
    // A run pays one host launch and synchronization; each level is carried by the one-block
    // loop (barriers, one SM) or by a grid kernel the device launches, as the device decides.
    const bool grid = state.continues_run ? state.grid_level : !fits(state.frontier_vertices, state.frontier_edges);
    const auto vertices = static_cast<double>(state.frontier_vertices);
    const auto edges = static_cast<double>(state.frontier_edges);
    const double discovered = expected_discovered(state, stats);
    CostFeatures f;
    f.add("run", state.continues_run ? 0.0 : 1.0);
    f.add("block_level", grid ? 0.0 : 1.0);
    // A one-block level the whole block expands, or warp 0 alone (one_block's block_step and
    // warp_edges).
    const bool warp =
        !grid && detail_block::fits_warp(state.frontier_vertices, state.frontier_edges, config_.block_loop.wqueue_capacity);
    f.add("block_step", grid || warp ? 0.0 : 1.0);
    f.add("block_warp_edges", warp ? edges : 0.0);
    f.add("block_vertices", grid ? 0.0 : vertices);
    f.add("block_edges", grid ? 0.0 : edges);
    // A one-block level's arcs again where the visited bitmap is not in shared memory (over
    // ~1.5 M vertices; ~260,000 until version 12), its claims global atomics: cnr-2000's
    // carried levels of ~5,000 arcs took 19-24 us, 5-9 predicted, one_block's (bitmap in shared
    // memory) 9-11 (H100, 2026-11-24).
    f.add("block_global_edges", grid || shared_visited_words_ != 0 ? 0.0 : edges);
    // A one-block level's discoveries, as one_block's "discovered" (registry version 22).
    f.add("block_discovered", grid ? 0.0 : discovered);
    // A one-block level right after a grid level starts the loop again: the last grid block
    // launches its graph, and the loop copies the visited bitmap into shared memory (below).
    // Priced as any carried one-block level until version 25, such levels of ca-AstroPh-lcc,
    // cnr-2000, email-Enron and soc-Slashdot0902 took 11-23 us priced 4-11 (2,000-8,000 arcs:
    // 17.5 against 11.9, medians), and their size class's correction, shared with the grid
    // levels of 10,000-16,000 arcs, priced those at 20-44 us where they took 12-16 (the plan's
    // levels, H100, 2026-11-26). Five quick calibrations fitted it at 5.2-6.6 us; the plan's
    // p90 error fell from 62 to 31% on email-Enron and 42-58% to 32-33% on kron:20,
    // soc-Slashdot0902 and ca-AstroPh-lcc (with its correction group, kCarriedGrid).
    const bool relaunch = !grid && state.continues_run && state.after_grid_level;
    f.add("block_relaunch", relaunch ? 1.0 : 0.0);
    // A run that starts in the one-block loop copies the visited bitmap into shared memory and
    // back, as one_block's does (its bitmap_words): uniform:1048576:8's starts took 31-35 us,
    // priced 23 (per-level oracle's trials, H100, 2026-11-26). So does the loop's relaunch.
    f.add("bitmap_words",
          grid || (state.continues_run && !relaunch) ? 0.0 : static_cast<double>(shared_visited_words_));
    f.add("grid_level", grid ? 1.0 : 0.0);
    f.add("grid_vertices", grid ? vertices : 0.0);
    f.add("grid_edges", grid ? edges : 0.0);
    f.add("grid_dram_edges", grid ? edges * device_miss_share(stats, l2_bytes_) : 0.0);
    // A grid level's discoveries: each claims its vertex (an atomic), reads its degree, writes
    // its distance and parent and appends it to the next frontier (claim_batch), random L2
    // accesses beside its arc's one. Priced by arcs alone until version 27, uniform:1048576:8's
    // grid levels of 256,000 arcs (~217,000 discoveries) took 34-40 us priced 19.2 raw, those
    // of 32,700 arcs (~29,000) 15.5 priced 15.3, and the online correction the large levels
    // taught (1.9x) priced the small ones at 28 us: the plan seldom started the per-level
    // oracle's run from level 0 there. Its vertex arrays (16.9 MB) fit the L2, random stores
    // of which run at the full rate up to ~40 MiB on the H100 (bench/l2_capacity_probe.cu):
    // the discoveries' cost, not a miss. A fit over the plan's carried grid levels of seven
    // graphs (suite runs P1-P3, H100, 2026-11-27) gave 1.2e-4 us a discovery beside 1.75e-5 an
    // arc; the quick calibration fits 8.3e-5 beside 9.4e-6, and the plan's carried grid
    // levels' p90 error fell from 49 to 12% on uniform:1048576:8 and from 20 to 16% on
    // soc-Slashdot0902 (A/B, same day), the other graphs' within 3 points.
    f.add("grid_discovered", grid ? discovered : 0.0);
    // A grid level's discoveries at the share of their random writes that miss the L2, as in
    // privatized_queue.
    f.add("grid_dram_discovered",
          grid ? discovered * device_vertex_miss_share(stats, l2_bytes_) : 0.0);
    // The first level of a run, when it is a grid level: the arcs each block scans. Before hubs
    // were shared by the grid (registry version 9), a few hubs held a few blocks for hundreds of
    // serial steps: kron:22's level 1 (84 vertices, 364,083 arcs, 11 blocks) took 505 us from
    // this strategy against 65 predicted, 83 from privatized_queue's edge-balanced tiles
    // (per-level oracle, H100, 2026-11-24). Levels a run carries leave it out: the hand-back
    // tables are affine in the frontier, and this is not.
    f.add("grid_block_arcs",
          grid && !state.continues_run
              ? edges / static_cast<double>(grid_blocks(state.frontier_vertices, state.frontier_edges))
              : 0.0);
    // The one-block loop's exits (LoopExits): before each grid level it passes a frontier to,
    // and where the run stops after a one-block level, the loop starts the level it refuses
    // after its last record, outside every level's device clock (in the run's first record).
    // Priced as part of the run's fixed cost until version 26, runs that handed back took their
    // price +20.1 us (median, 75 runs: uniform:1048576:8 +26.1, uniform:8388608:8 +21.8,
    // luxembourg_osm +18.0), runs to the BFS's end +0.9 (160 runs); on uniform:1048576:8 13.5 us
    // lay between the loop's last record and the grid level's (suite runs H-J and N1, a trace
    // build; H100, 2026-11-27).
    f.add("loop_exits", state.continues_run ? 0.0 : state.loop_exits);
    f.add("loop_exit_vertices", state.continues_run ? 0.0 : state.loop_exit_vertices);
    return f;
  }

  void prepare(detail::BfsBuffers& buffers) override {
    l2_bytes_ = buffers.l2_cache_bytes;
    // The one-block kernel runs as a graph's kernel node, launched by the host or the device
    // alike, with the shared memory its node asks for: the visited bitmap goes to shared memory
    // when it fits beside the queues (graphs up to ~1.5 M vertices on the H100's 227 KiB), as in
    // one_block. Until version 12 it kept to the default 48 KiB (~260,000 vertices), and
    // cnr-2000's carried levels of ~5,000 arcs took 19-24 us against one_block's 9-11 (H100,
    // 2026-11-24).
    const std::size_t budget =
        detail::allow_max_dynamic_shared_memory(reinterpret_cast<const void*>(dp_block_levels));
    const unsigned int capacity = config_.block_loop.wqueue_capacity;
    if (detail_block::block_loop_shared_bytes(capacity, 0) > budget) {
      throw InvalidArgument("dynamic_parallel: the block loop's queues need " +
                            std::to_string(detail_block::block_loop_shared_bytes(capacity, 0)) +
                            " bytes of shared memory; the device allows " + std::to_string(budget));
    }
    const auto words = static_cast<unsigned int>(buffers.visited_words);
    shared_visited_words_ = detail_block::block_loop_shared_bytes(capacity, words) <= budget ? words : 0u;
    block_shared_bytes_ = detail_block::block_loop_shared_bytes(capacity, shared_visited_words_);
    build_graphs(buffers);
  }

  LevelOutcome run(LevelContext& c) override {
    const cudaStream_t s = c.buffers.stream();
    DpStart& entry = *entry_.data();  // the previous run has read it: its chain published after
    entry.args = DpArgs{detail_block::block_loop_args(c.buffers, config_.block_loop, shared_visited_words_),
                        static_cast<unsigned int>(std::min<long long>(c.max_levels, detail::kLevelLogCapacity))};
    entry.args.loop.handback = c.handback;
    // start_ns 0: the first link stamps its own start.
    entry.link = DpLink{c.frontier_begin, c.frontier_end, c.frontier_edges, c.level, 0, 0};
    const VertexId size = c.frontier_end - c.frontier_begin;
    const bool block_first = fits(size, c.frontier_edges);
    const int grid = block_first ? -1 : grid_graph_index(grid_blocks(size, c.frontier_edges));
    if (block_first || grid < kHostStartGraphs) {
      // The first link reads its start from entry_ (mapped host memory) as it starts: one API
      // call. The copy into device memory first cost the host 2.5-15 us more (its median 5-12
      // us on uniform:1048576:8, host API calls being slower there); runs from the one-block
      // loop started 1.5-4 us sooner in the plan (wave, uk-2007-05@100000, cnr-2000,
      // ca-AstroPh-lcc) and forced ones 5-19 us (email-Enron 32.2 -> 26.3 us,
      // uniform:1048576:8 72.1 -> 52.7; medians, H100, 2026-11-26). Grid levels of up to 256
      // blocks too: the plan's BFSs 1.1-1.9% faster on four graphs that start runs with them
      // (ca-AstroPh-lcc, cnr-2000, email-Enron, uk-2007-05@100000; soc-Slashdot0902 0.1%;
      // paired medians, 6 x 16 sources, the same day).
      ABFS_CUDA_CHECK(cudaGraphLaunch(
          block_first ? host_block_graph_->exec() : host_grid_graphs_.at(static_cast<std::size_t>(grid)).exec(), s));
    } else {
      // Wider grids read their start from device memory: each of their blocks reading the
      // host's copy would cross the bus as many times.
      ABFS_CUDA_CHECK(cudaMemcpyAsync(&state_.data()->start, &entry, sizeof(DpStart), cudaMemcpyHostToDevice, s));
      ABFS_CUDA_CHECK(cudaGraphLaunch(grid_graphs_.at(static_cast<std::size_t>(grid)).exec(), s));
    }
    // The link that ends the chain publishes the counters; the host reads where the run stopped.
    return detail_block::read_device_run(c, entry.args.loop.sequence);
  }

 private:
  bool fits(VertexId frontier_size, EdgeOffset frontier_edges) const {
    return detail_block::fits_block_queue(frontier_size, frontier_edges, config_.block_loop.wqueue_capacity,
                                          config_.block_loop.max_frontier_edges);
  }

  /// Instantiates the chain's device-launchable graphs for buffers' graph (the one-block loop,
  /// and grid levels of 2^k blocks up to the widest frontier's) and writes them to state_.
  void build_graphs(detail::BfsBuffers& buffers) {
    const cudaStream_t s = buffers.stream();
    if (state_.size() == 0) state_ = detail::DeviceBuffer<DpState>(1);
    if (entry_.size() == 0) entry_ = detail::PinnedBuffer<DpStart>(1, cudaHostAllocMapped);
    DpState* state = state_.data();
    // A link's kernel as a graph of one node reading its start from `from`, instantiated for the
    // device to launch (flags cudaGraphInstantiateFlagDeviceLaunch, from &state->start) or for
    // the host (flags 0, from entry_: a graph, not a plain launch, because only a kernel in a
    // graph may launch the next link).
    auto link_graph = [&](detail::CudaGraph& graph, void (*kernel)(DpState*, const DpStart*), unsigned int blocks,
                          int threads, std::size_t shared_bytes, const DpStart* from, unsigned long long flags) {
      detail::add_kernel_node(graph.get(), nullptr, kernel, dim3(blocks), dim3(threads),
                              static_cast<unsigned int>(shared_bytes), state, from);
      return graph.instantiate(flags, s);
    };
    const DpStart* const linked = &state->start;
    const DpStart* const hosted = entry_.data();
    grid_graphs_.clear();
    host_grid_graphs_.clear();
    block_graph_ = std::make_unique<detail::CudaGraph>();
    host_block_graph_ = std::make_unique<detail::CudaGraph>();
    DpState image{};
    image.block_graph = link_graph(*block_graph_, dp_block_levels, 1, kBlockThreads, block_shared_bytes_, linked,
                                   cudaGraphInstantiateFlagDeviceLaunch);
    link_graph(*host_block_graph_, dp_block_levels, 1, kBlockThreads, block_shared_bytes_, hosted, 0);
    const VertexId n = buffers.num_vertices();
    // The widest grid: a warp per vertex over every vertex, or the most blocks a hub level gets.
    const int widest = grid_graph_index(std::max(grid_blocks(n, 32 * EdgeOffset{n}), kGridArcBlocksMax));
    for (int k = 0; k <= widest; ++k) {
      image.grid_graphs[k] = link_graph(grid_graphs_.emplace_back(), dp_grid_level, 1u << k, kGridThreads, 0, linked,
                                        cudaGraphInstantiateFlagDeviceLaunch);
      if (k < kHostStartGraphs) {
        link_graph(host_grid_graphs_.emplace_back(), dp_grid_level, 1u << k, kGridThreads, 0, hosted, 0);
      }
    }
    constexpr std::size_t kGraphsAt = offsetof(DpState, block_graph);
    ABFS_CUDA_CHECK(cudaMemcpyAsync(reinterpret_cast<char*>(state) + kGraphsAt,
                                    reinterpret_cast<const char*>(&image) + kGraphsAt, sizeof(DpState) - kGraphsAt,
                                    cudaMemcpyHostToDevice, s));
    // image is on this stack frame.
    ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
  }

  DynamicParallelConfig config_;
  detail::DeviceBuffer<DpState> state_;
  detail::PinnedBuffer<DpStart> entry_;
  std::unique_ptr<detail::CudaGraph> block_graph_;       // launched by the links
  std::unique_ptr<detail::CudaGraph> host_block_graph_;  // launched by the host (run)
  std::vector<detail::CudaGraph> grid_graphs_;
  std::vector<detail::CudaGraph> host_grid_graphs_;  // the first kHostStartGraphs, launched by the host
  std::size_t block_shared_bytes_ = 0;
  unsigned int shared_visited_words_ = 0;
  double l2_bytes_ = 0.0;
};

}  // namespace

std::unique_ptr<Strategy> make_dynamic_parallel() { return make_dynamic_parallel(DynamicParallelConfig{}); }

std::unique_ptr<Strategy> make_dynamic_parallel(const DynamicParallelConfig& config) {
  return std::make_unique<DynamicParallel>(config);
}

}  // namespace abfs::strategies
