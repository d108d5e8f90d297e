#pragma once
// The one-block level loop shared by one_block and dynamic_parallel: a single thread block runs
// level after level of top-down BFS with __syncthreads() between levels, holding the frontier in
// shared memory (the lecture's "Kernel 1: small-sized frontiers"; Luo, Wong, Hwu, DAC 2010).
//
// Per level:
//  1. Each thread expands frontier vertices from the b-queue (shared memory), claims unvisited
//     neighbours with atomicOr on the global visited bitmap, and pushes them into the w-queue of
//     its lane: 32 w-queues, slot j of w-queue q at j * 32 + q, so a warp's pushes hit 32 banks.
//     A push into a full w-queue spills to a global scratch list (the frontier no longer fits).
//  2. Warp 0 scans the w-queue sizes (and resets them for the next level).
//  3. The w-queues are concatenated into the b-queue, the next frontier, and written (with the
//     spills) to the visit order. The block owns the order's tail, so no global atomic is needed.
// Three barriers per level; no launch and no host round trip. A frontier of at most
// kWarpVertices vertices and fewer than kWarpArcs arcs is expanded by warp 0 alone, with no
// barrier, for as many levels as stay that small (run_warp_levels). The run stops when the frontier is
// empty, when it spilled or has more arcs than the config allows (the level is complete in the
// visit order, so nothing is lost: the caller hands it over), or when max_levels are done.

#include "runtime/bfs_buffers.hpp"
#include "runtime/counters.cuh"
#include "strategies/strategy.hpp"

#include <cub/warp/warp_scan.cuh>

#include <cstdint>

namespace abfs::strategies::detail_block {

/// Threads of the loop's block. 512: a road network's frontier rarely exceeds a few hundred
/// vertices, and fewer warps make each barrier cheaper.
constexpr int kBlockThreads = 512;
constexpr int kWQueues = 32;
/// Frontier vertices with more arcs than this are expanded by the whole block, not one thread
/// (32: at 64, a thread's list of 33-64 arcs, eight batches of loads, set the level's pace on
/// uk-2007-05@100000 and ca-AstroPh-lcc; at 16, rgg_n_2_16_s0's and wave's lists of 17-32 arcs
/// paid the gathering's scan and barrier. H100, 2026-11-24).
constexpr EdgeOffset kBigDegree = 32;
/// At most this many such vertices per level go to the block (the rest stay with their thread):
/// kBigPerLane per lane of the warp that scans their lengths.
constexpr int kBigPerLane = 8;
constexpr unsigned int kBigListCapacity = 32 * kBigPerLane;
/// A thread walking a list loads this many of its arcs at once (a round trip per batch).
constexpr int kArcBatch = 8;
/// Frontiers of at most kWarpVertices vertices and fewer than kWarpArcs arcs (strategy.hpp) are
/// expanded by warp 0 alone, level after level, while the other warps wait at one barrier
/// (run_warp_levels): such a level needs no block barrier. One vertex a lane: at 32-63 vertices
/// (two a lane) a level took 2.1-2.4 us, the block's 2.2 (luxembourg_osm, H100, 2026-11-27).
static_assert(kWarpVertices == 32, "run_warp_levels takes one frontier vertex a lane");
static_assert(kWarpVertices <= kBigListCapacity, "run_warp_levels lists a frontier in the big-list arrays");
/// Words a thread loads at once when the run copies its first frontier and the visited bitmap
/// into shared memory, and the bitmap back (copy_words).
constexpr unsigned int kCopyBatch = 16;
/// Frontier vertices a thread counts the arcs of at a time where the loop hands its frontier
/// over (run_block_levels).
constexpr unsigned int kHandOverBatch = 4;

/// What the loop reads and writes. Shapes as in runtime/bfs_buffers.hpp; spill: |V| scratch ids.
struct BlockLoopArgs {
  const EdgeOffset* row_offsets;
  const VertexId* column_indices;
  std::uint32_t* visited;
  std::int32_t* dist;
  VertexId* parent;
  VertexId* order;
  VertexId* spill;
  detail::LevelCounters* counters;
  detail::LevelCounters* host_counters;       ///< mapped: where the run publishes its counters
  unsigned int sequence;                      ///< the number it publishes them under
  detail::DeviceLevelRecord* level_log;       ///< device memory, kLevelLogCapacity records
  detail::DeviceLevelRecord* host_level_log;  ///< mapped host memory, the same shape
  unsigned int wqueue_capacity;          ///< slots per w-queue; the b-queue holds 32 times that
  EdgeOffset max_frontier_edges;
  /// ceil(|V|/32) when the visited bitmap is copied into shared memory for the run (the claims
  /// are then shared-memory atomics, and the bitmap is written back at the end); 0 otherwise.
  unsigned int shared_visited_words;
  /// The cost models the run stops by (no model: it never hands back), and the profile level
  /// it last matched (levels only grow, so the match moves forward from there).
  detail::HandbackTable handback;
  unsigned int profile_cursor;
  /// BfsBuffers::reach_limit: once the visit order ends here, the run stops (AllReached).
  VertexId reach_limit;
};

/// Copies words 32-bit words from src to dst with the whole block, kCopyBatch loads a thread in
/// flight before any of their stores. One word a thread at a time, each load waited for the
/// previous store (the compiler cannot prove a generic pointer apart from shared memory): the
/// visited bitmap of a graph of 2^20 vertices, 64 rounds of a load's latency, at the start of
/// every one_block and dynamic_parallel run. Batched, forced runs started 3-11 us sooner
/// (uniform:1048576:8's dynamic_parallel 64 -> 52 us, wave's one_block 42 -> 36; medians of 16
/// sources, H100, 2026-11-25).
__device__ __forceinline__ void copy_words(std::uint32_t* dst, const std::uint32_t* src, unsigned int words) {
  for (unsigned int base = threadIdx.x; base < words; base += kBlockThreads * kCopyBatch) {
    std::uint32_t w[kCopyBatch];
#pragma unroll
    for (unsigned int j = 0; j < kCopyBatch; ++j) {
      const unsigned int at = base + j * kBlockThreads;
      w[j] = at < words ? src[at] : 0u;
    }
#pragma unroll
    for (unsigned int j = 0; j < kCopyBatch; ++j) {
      const unsigned int at = base + j * kBlockThreads;
      if (at < words) dst[at] = w[j];
    }
  }
}

/// Where the loop stopped: the frontier order[frontier_begin, frontier_end) of level, with
/// frontier_edges arcs; log_index records were written.
struct BlockLoopEnd {
  VertexId frontier_begin;
  VertexId frontier_end;
  EdgeOffset frontier_edges;
  int level;
  unsigned int log_index;
  detail::DeviceStop stop;
  unsigned int profile_cursor;  ///< BlockLoopArgs::profile_cursor where the loop stopped
  detail::HandbackPrice handback;  ///< stop == Handback: the prices that stopped it
};

/// Whether a frontier of frontier_size vertices and frontier_edges arcs stays in the loop.
__host__ __device__ inline bool fits_block_queue(VertexId frontier_size, EdgeOffset frontier_edges,
                                                 unsigned int wqueue_capacity, EdgeOffset max_frontier_edges) {
  return frontier_size <= kWQueues * wqueue_capacity && frontier_edges <= max_frontier_edges;
}

using detail::global_ns;

/// The profile level of t matching a visit order that ends at `visited`: the first from cursor
/// on that had discovered as many vertices (the last one if none had), or the one before it
/// (not before cursor) where that is nearer in ratio (nearer_below), as the executor's
/// matching_profile_level. A binary search (the
/// profile's visited counts do not decrease): a run starts pricing at price_from, often 100+
/// profile levels after its cursor, and the forward scan this replaces made one dependent load
/// per level, ~27 us in the one-block level where rgg_n_2_16_s0's runs started pricing (H100,
/// 2026-11-22).
__device__ __forceinline__ unsigned int match_profile_level(const detail::HandbackTable& t, unsigned int cursor,
                                                            VertexId visited) {
  if (cursor + 1 >= t.level_count) return cursor;
  const unsigned int first = cursor;
  unsigned int last = t.level_count - 1;  // the answer is in [cursor, last]
  while (cursor < last) {
    const unsigned int mid = cursor + (last - cursor) / 2;
    if (t.levels[mid].visited < visited) {
      cursor = mid + 1;
    } else {
      last = mid;
    }
  }
  if (cursor > first && detail::nearer_below(visited, t.levels[cursor - 1].visited, t.levels[cursor].visited)) {
    --cursor;
  }
  return cursor;
}

__device__ __forceinline__ float affine_us(const detail::AffineCost& c, VertexId vertices, EdgeOffset arcs) {
  return c.fixed + c.per_vertex * static_cast<float>(vertices) + c.per_edge * static_cast<float>(arcs);
}

/// The hand-back decision's prices before a run expands a frontier of `vertices` and `arcs`
/// matched to profile level `at`: finishing the BFS off the run (leave_us: the host expanding
/// this frontier, or the planner's other choices) against the run carrying this level
/// (level_us: its kernel's costs by size class, plus its `discoveries` (expected_discoveries)
/// at the kernel's price a discovery, stay_per_discovered, a row of
/// HandbackModel::per_discovered) and then going on at its best (after_us); leaves() decides.
/// The executor's lookahead makes the same comparison over the profile
/// (Executor::prepare_lookahead). The host's level adds its discoveries too, at
/// HandbackModel::host_per_discovered.
__device__ __forceinline__ detail::HandbackPrice handback_price(const detail::AffineCost* stay,
                                                                const float* stay_per_discovered,
                                                                const detail::AffineCost* host,
                                                                const float* host_per_discovered,
                                                                const detail::HandbackLevel& at, VertexId vertices,
                                                                EdgeOffset arcs, float discoveries) {
  const int c = detail::arcs_size_class(arcs);
  const float to_host = affine_us(host[c], vertices, arcs) + host_per_discovered[c] * discoveries + at.host_after;
  return {affine_us(stay[c], vertices, arcs) + stay_per_discovered[c] * discoveries, at.stay_after,
          fminf(to_host, at.leave)};
}

/// Whether a run priced `p` hands back: leaving is cheaper than carrying the level and going on.
__host__ __device__ inline bool leaves(const detail::HandbackPrice& p) { return p.leave_us < p.level_us + p.after_us; }

/// handback_price for the one-block loop, from the model's one-block and host costs by size
/// class as {fixed, per_vertex, per_edge, per_discovered} (costs[0]: stay, with its
/// per_discovered; costs[1]: host, with HandbackModel::host_per_discovered) in shared memory:
/// two vector loads, a 32-bit class and conversions. The stay adds its discoveries at the profile level's own discoveries per arc
/// (not interpolated towards the level before, as a grid level's are: a log each, in every
/// thread). Every thread of the block evaluates it, so its instructions count sixteen times over
/// (the 64-bit version cost a priced level ~300 cycles, luxembourg_osm, H100, 2026-11-24).
/// arcs: at most the loop's max_frontier_edges. block: the level does not fit warp 0
/// (fits_warp), and is priced by costs[2] (HandbackModel::block_stay) instead of costs[0].
__device__ __forceinline__ detail::HandbackPrice block_handback_price(const float4 (*costs)[detail::kHandbackClasses],
                                                                      const detail::HandbackLevel& at,
                                                                      VertexId vertices, EdgeOffset arcs, bool block) {
  const unsigned int arcs32 = arcs > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<unsigned int>(arcs);
  const int bits_class = arcs32 < 4 ? 0 : (31 - __clz(static_cast<int>(arcs32))) / 2;
  const int c = bits_class < detail::kHandbackClasses - 1 ? bits_class : detail::kHandbackClasses - 1;
  const float v = __uint2float_rn(vertices);
  const float e = __uint2float_rn(arcs32);
  const float4 stay = costs[block ? 2 : 0][c];
  const float4 host = costs[1][c];
  const float to_host = host.x + host.y * v + (host.z + host.w * at.discovered_per_arc) * e + at.host_after;
  return {stay.x + stay.y * v + (stay.z + stay.w * at.discovered_per_arc) * e, at.stay_after, fminf(to_host, at.leave)};
}

/// The vertices a level of `arcs` arcs out of a frontier whose visit order ends at `visited`,
/// matched to profile level k, is predicted to discover: the profile's discoveries per arc
/// there (interpolated as the executor's profile_discovered does, without its cap at the
/// unvisited vertices) times its arcs. handback_price prices them for the run and the host.
__device__ __forceinline__ float expected_discoveries(const detail::HandbackTable& t, unsigned int k,
                                                      VertexId visited, EdgeOffset arcs) {
  const detail::HandbackLevel& at = t.levels[k];
  const double per_arc =
      k == 0 ? at.discovered_per_arc
             : detail::interpolate_per_arc(static_cast<double>(visited), static_cast<double>(t.levels[k - 1].visited),
                                           t.levels[k - 1].discovered_per_arc, static_cast<double>(at.visited),
                                           at.discovered_per_arc);
  return static_cast<float>(per_arc * static_cast<double>(arcs));
}

/// Claims v for the next level (level + 1) with parent u and pushes it into the w-queue of lane
/// (or the spill list when that w-queue is full). visited: the shared-memory copy of the
/// bitmap when it fits, else the global one.
__device__ __forceinline__ void claim_and_push(const BlockLoopArgs& a, std::uint32_t* visited, VertexId u, VertexId v,
                                               int level, VertexId* wqueues, unsigned int* wqueue_size,
                                               unsigned int* spill_size, unsigned int lane) {
  // No plain-read filter before the atomic: in the small frontiers of this loop latency, not
  // atomic throughput, is the cost, and the atomic is one round trip either way.
  const std::uint32_t bit = 1u << (v & 31);
  if ((atomicOr(visited + (v >> 5), bit) & bit) != 0) return;
  a.dist[v] = level + 1;
  a.parent[v] = u;
  const unsigned int slot = atomicAdd(&wqueue_size[lane], 1u);
  if (slot < a.wqueue_capacity) {
    wqueues[slot * kWQueues + lane] = v;
  } else {
    a.spill[atomicAdd(spill_size, 1u)] = v;
  }
}

/// The visited count of profile level cursor + 1 + lane (~0u past the last level), which
/// follow_profile reads once the level is written: each level's head loads it.
__device__ __forceinline__ unsigned int profile_ahead(const detail::HandbackTable& t, bool tracking,
                                                      unsigned int cursor, unsigned int lane) {
  return tracking && cursor + 1 + lane < t.level_count ? t.levels[cursor + 1 + lane].visited : ~0u;
}

/// Moves the hand-back's profile level to the one matching a visit order that now ends at tail
/// (after a level was written): the first of the 32 levels ahead that had discovered as many
/// vertices (a ballot over profile_ahead's counts; lanes past the last level count as such), or
/// the one before it where that is nearer in ratio; a binary search where the BFS outran the
/// profile by more than 32 levels. Starts tracking once tail passes HandbackTable::price_from.
/// Called by all 32 lanes of a warp, with the same arguments in each.
__device__ __forceinline__ void follow_profile(const detail::HandbackTable& t, bool handback, bool& tracking,
                                               unsigned int& cursor, detail::HandbackLevel& at,
                                               unsigned int ahead_visited, VertexId tail) {
  if (tracking && at.visited < tail && cursor + 1 < t.level_count) {
    const unsigned int found = __ballot_sync(0xFFFFFFFFu, ahead_visited >= tail);
    if (found != 0) {
      const int f = __ffs(found) - 1;  // the same in every lane
      const unsigned int at_visited = __shfl_sync(0xFFFFFFFFu, ahead_visited, f);
      const unsigned int below_visited = __shfl_sync(0xFFFFFFFFu, ahead_visited, f > 0 ? f - 1 : 0);
      const unsigned int k = cursor + 1 + static_cast<unsigned int>(f);
      if (k >= t.level_count) {
        cursor = t.level_count - 1;
      } else {
        cursor = detail::nearer_below(tail, f > 0 ? below_visited : at.visited, at_visited) ? k - 1 : k;
      }
    } else {  // the BFS outran the profile by more than 32 levels
      cursor = match_profile_level(t, cursor + 32, tail);
    }
    at = t.levels[cursor];
  } else if (handback && !tracking && tail > t.price_from) {
    tracking = true;
    cursor = match_profile_level(t, cursor, tail);
    at = t.levels[cursor];
  }
}

/// Whether warp 0 alone expands a frontier of frontier_size vertices and frontier_arcs arcs
/// (run_warp_levels): at most kWarpVertices vertices and fewer than kWarpArcs arcs, so that the
/// hand-back's size classes of arcs (powers of 4: arcs_size_class) hold the warp's levels in
/// classes 0-3 and the block's alone from class 4 on (HandbackModel::block_stay); its next
/// frontier, at most its arcs, must fit the b-queue. The cost models' block_step and
/// warp_edges features.
__host__ __device__ inline bool fits_warp(VertexId frontier_size, EdgeOffset frontier_arcs,
                                          unsigned int wqueue_capacity) {
  const EdgeOffset slots = static_cast<EdgeOffset>(kWQueues) * wqueue_capacity;
  return frontier_size <= kWarpVertices && frontier_arcs < kWarpArcs && frontier_arcs <= slots;
}

/// The exclusive prefix sum over warp 0's lanes of x, and the total in every lane.
__device__ __forceinline__ unsigned int warp_exclusive_sum(unsigned int x, unsigned int lane, unsigned int& total) {
  unsigned int inclusive = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned int y = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
    if (lane >= static_cast<unsigned int>(d)) inclusive += y;
  }
  total = __shfl_sync(0xFFFFFFFFu, inclusive, 31);
  return inclusive - x;
}

/// The end of a level, in the warp's loop and the block's alike: the visit order grows by the
/// next frontier's next_count vertices (tail, frontier_size), level and log_index advance, and
/// the profile's match follows (follow_profile). Returns whether the run stops before the next
/// frontier, with where it stops in `end`: the frontier is empty (FrontierEmpty: the BFS is
/// over), the BFS visited every vertex it can reach (AllReached: the frontier's expansion would
/// discover nothing, so it is not expanded), the frontier outgrew the block (too_large:
/// FrontierTooLarge) or the level log's budget is used up (LevelCap).
__device__ __forceinline__ bool end_level(const BlockLoopArgs& a, bool handback, VertexId next_count,
                                          bool too_large, unsigned int log_limit, unsigned int ahead_visited,
                                          int& level, unsigned int& log_index, VertexId& tail,
                                          VertexId& frontier_size, bool& tracking, unsigned int& profile_cursor,
                                          detail::HandbackLevel& at, BlockLoopEnd& end) {
  ++log_index;
  ++level;
  const VertexId next_begin = tail;
  tail += next_count;
  frontier_size = next_count;
  follow_profile(a.handback, handback, tracking, profile_cursor, at, ahead_visited, tail);
  end = BlockLoopEnd{next_begin, tail, 0, level, log_index, detail::DeviceStop::FrontierEmpty, profile_cursor};
  if (next_count == 0) return true;
  if (tail >= a.reach_limit) {
    end.stop = detail::DeviceStop::AllReached;
    return true;
  }
  if (too_large) {
    end.stop = detail::DeviceStop::FrontierTooLarge;
    return true;
  }
  if (log_index >= log_limit) {
    end.stop = detail::DeviceStop::LevelCap;
    return true;
  }
  return false;
}

/// Where run_warp_levels left the BFS, for the whole block (shared memory): the frontier is in
/// the b-queue; stopped: the run ends at `end`.
struct WarpLoopState {
  VertexId frontier_size;
  VertexId tail;
  int level;
  unsigned int log_index;
  unsigned int profile_cursor;
  bool tracking;
  bool stopped;
  BlockLoopEnd end;
};

/// Warp 0 of the one-block loop expands levels alone, from the frontier bqueue[0,
/// frontier_size) of level (its arcs frontier_arcs, checked by the block: fits_warp and the
/// stop conditions), while the frontiers fit fits_warp, then writes where it stopped to *out;
/// the other warps wait at one barrier. In the block a level of under 32 vertices took 2.0-2.1
/// us: four barriers and every warp's share of the level's code (thread 0's cycles by phase:
/// the arcs' sum 1,350, the expansion 1,800, the scan 500, the copy and record 600). Per level
/// here: each lane loads its vertex's row offsets; a warp scan of their lengths lists them in
/// shared memory (parents in list_vertex, first arcs in list_first, inclusive ends in list_end);
/// each lane then takes arcs lane, lane + 32, ... (at most kWarpArcs / 32), finds its list by a
/// binary search over the ends and loads the arc; the claims are shared-memory atomics, and a
/// warp scan of the claims places the next frontier in the b-queue and the visit order (no
/// queue atomics): two round trips to L2 and no block barrier, 1.3 us a level under 16
/// vertices, 1.5 at 16-31 (one warp's instructions, one after another, are most of it). Other
/// forms, two vertices a lane: the rounds of arcs issued together, without a branch a round,
/// 1.2 and 1.5 us; each lane walking its vertices' lists itself (16 arcs a list loaded at
/// once), 2.3-2.4 at every size (luxembourg_osm's forced one_block, H100, 2026-11-27). The
/// stop conditions and records are the block loop's. Called by all 32 lanes of warp 0 only.
__device__ __forceinline__ void run_warp_levels(const BlockLoopArgs& a, std::uint32_t* visited, VertexId* bqueue,
                                                VertexId* list_vertex, EdgeOffset* list_first, EdgeOffset* list_end,
                                                const float4 (*handback_costs)[detail::kHandbackClasses],
                                                VertexId frontier_size, EdgeOffset frontier_arcs, int level,
                                                VertexId tail, unsigned int log_index, unsigned int first_log_index,
                                                unsigned int log_limit, unsigned int profile_cursor, bool tracking,
                                                detail::HandbackLevel at, unsigned long long& level_start,
                                                WarpLoopState* out) {
  constexpr int kArcsPerLane = static_cast<int>(kWarpArcs / 32);
  const unsigned int lane = threadIdx.x % 32;
  const bool handback = a.handback.model != nullptr;
  bool checked = true;  // the block checked the first level
  BlockLoopEnd end{};
  bool stopped = false;
  for (;;) {
    const unsigned int ahead_visited = profile_ahead(a.handback, tracking, profile_cursor, lane);
    // Lane l takes frontier vertex l.
    const VertexId u = lane < frontier_size ? bqueue[lane] : kNoVertex;
    const EdgeOffset first = u != kNoVertex ? a.row_offsets[u] : 0;
    const EdgeOffset stop = u != kNoVertex ? a.row_offsets[u + 1] : 0;
    // Capped so that the sum fits 32 bits: a frontier that large leaves the warp anyway.
    const unsigned int mine = stop - first < (1u << 20) ? static_cast<unsigned int>(stop - first) : (1u << 20);
    unsigned int total = 0;
    const unsigned int before = warp_exclusive_sum(mine, lane, total);
    if (!checked) {
      frontier_arcs = total;
      if (!fits_warp(frontier_size, frontier_arcs, a.wqueue_capacity)) break;  // uniform: on with the block
      if (frontier_arcs > a.max_frontier_edges) {
        end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                           detail::DeviceStop::FrontierTooLarge, profile_cursor};
        stopped = true;
        break;
      }
      if (tail > a.handback.outgrown_at) {
        end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                           detail::DeviceStop::ProfileOutgrown, profile_cursor};
        stopped = true;
        break;
      }
      if (tracking && log_index > first_log_index) {
        const detail::HandbackPrice price = block_handback_price(handback_costs, at, frontier_size, frontier_arcs, false);
        if (leaves(price)) {
          end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                             detail::DeviceStop::Handback, profile_cursor, price};
          stopped = true;
          break;
        }
      }
    }
    checked = false;
    list_vertex[lane] = u;
    list_first[lane] = first;
    list_end[lane] = before + mine;
    __syncwarp();  // the lists written; the frontier read (the b-queue takes the next one)

    // The arcs: lane's j-th is arc lane + 32 j of the lists' concatenation.
    VertexId v[kArcsPerLane];
    VertexId parent[kArcsPerLane];
#pragma unroll
    for (int j = 0; j < kArcsPerLane; ++j) {
      const unsigned int i = lane + 32u * static_cast<unsigned int>(j);
      v[j] = kNoVertex;
      if (i < total) {
        unsigned int list = 0;  // lists whose end is at most i
#pragma unroll
        for (unsigned int step = kWarpVertices / 2; step > 0; step >>= 1) {
          if (list_end[list + step - 1] <= i) list += step;
        }
        const EdgeOffset start = list > 0 ? list_end[list - 1] : 0;
        parent[j] = list_vertex[list];
        v[j] = __ldg(a.column_indices + list_first[list] + (i - start));
      }
    }
    unsigned int claimed = 0;  // bit j: v[j] is this lane's discovery
#pragma unroll
    for (int j = 0; j < kArcsPerLane; ++j) {
      if (v[j] != kNoVertex) {
        const std::uint32_t bit = 1u << (v[j] & 31);
        if ((atomicOr(visited + (v[j] >> 5), bit) & bit) == 0) claimed |= 1u << j;
      }
    }
    unsigned int next_count = 0;
    unsigned int slot = warp_exclusive_sum(static_cast<unsigned int>(__popc(claimed)), lane, next_count);
#pragma unroll
    for (int j = 0; j < kArcsPerLane; ++j) {
      if ((claimed >> j) & 1u) {
        bqueue[slot] = v[j];
        a.order[tail + slot] = v[j];
        a.dist[v[j]] = level + 1;
        a.parent[v[j]] = parent[j];
        ++slot;
      }
    }
    __syncwarp();  // the next frontier in the b-queue; the lists read
    if (lane == 0) {
      const unsigned long long now = global_ns();
      a.level_log[log_index] = detail::DeviceLevelRecord{frontier_size, 0u, frontier_arcs, level_start, now};
      level_start = now;
    }

    if (end_level(a, handback, next_count, false, log_limit, ahead_visited, level, log_index, tail, frontier_size,
                  tracking, profile_cursor, at, end)) {
      stopped = true;
      break;
    }
  }
  if (lane == 0) {
    *out = WarpLoopState{frontier_size, tail, level, log_index, profile_cursor, tracking, stopped, end};
  }
}

/// Runs levels from the frontier order[frontier_begin, frontier_end) (at most 32 *
/// wqueue_capacity vertices) of level, writing level records from log_index on, until a stop
/// condition or until log_limit records exist. Must be called by all kBlockThreads threads of a
/// one-block grid with block_loop_shared_bytes(a) bytes of dynamic shared memory. start_ns: when
/// the first level started (its launch included). The result is the same in every thread.
/// With a hand-back table, every level after the first whose visit order ends beyond
/// HandbackTable::price_from is first priced (block_handback_price, the one-block costs
/// stay[0]); the run stops before it with DeviceStop::Handback when leaving wins, and before any
/// level after the first whose visit order ends beyond HandbackTable::outgrown_at with
/// ProfileOutgrown. It stops with AllReached once the visit order reaches
/// BlockLoopArgs::reach_limit (end_level).
///
/// A level's arcs are summed before it is expanded, from the row offsets the expansion loads
/// anyway, so no lookup of the new vertices' degrees sits on the critical path of the level that
/// finds them; a frontier with more than max_frontier_edges arcs ends the run unexpanded.
__device__ __forceinline__ BlockLoopEnd run_block_levels(const BlockLoopArgs& a, VertexId frontier_begin,
                                                          VertexId frontier_end, int level, unsigned int log_index,
                                                          unsigned int log_limit, unsigned long long start_ns) {
  extern __shared__ std::uint32_t block_shared[];
  const unsigned int capacity = a.wqueue_capacity;
  VertexId* wqueues = block_shared;                      // [capacity][32], interleaved
  VertexId* bqueue = block_shared + capacity * kWQueues;  // [32 * capacity]: the frontier
  std::uint32_t* shared_visited = block_shared + 2 * capacity * kWQueues;  // shared_visited_words
  __shared__ unsigned int wqueue_size[kWQueues];
  __shared__ unsigned int wqueue_count[kWQueues];
  __shared__ unsigned int wqueue_offset[kWQueues];
  __shared__ unsigned int longest_wqueue;
  __shared__ unsigned int spill_size;
  __shared__ unsigned int spilled;
  __shared__ unsigned int queued;
  __shared__ unsigned int big_count;
  __shared__ VertexId big[kBigListCapacity];      // frontier vertices expanded by the whole block
  __shared__ EdgeOffset big_first[kBigListCapacity];  // their first arcs
  __shared__ EdgeOffset big_arcs[kBigListCapacity];   // their arcs; after the scan, the inclusive sums
  __shared__ unsigned long long level_edges[2];  // arcs out of the frontier being expanded, by parity
  __shared__ WarpLoopState warp_state;            // where run_warp_levels left the BFS
  using WarpScan = cub::WarpScan<unsigned int>;
  __shared__ typename WarpScan::TempStorage warp_scan_storage;
  using ArcScan = cub::WarpScan<EdgeOffset>;
  __shared__ typename ArcScan::TempStorage arc_scan_storage;
  // The model's one-block costs (warp 0's levels, then the block's) and the host's, read once
  // (block_handback_price).
  __shared__ float4 handback_costs[3][detail::kHandbackClasses];
  const bool handback = a.handback.model != nullptr;
  unsigned int profile_cursor = a.profile_cursor;
  if (handback && threadIdx.x < 3 * detail::kHandbackClasses) {
    const int k = static_cast<int>(threadIdx.x) / detail::kHandbackClasses;
    const int c = static_cast<int>(threadIdx.x) % detail::kHandbackClasses;
    const detail::HandbackModel& m = *a.handback.model;
    const detail::AffineCost cost = k == 0 ? m.stay[0][c] : k == 1 ? m.host[c] : m.block_stay[c];
    const float per_discovered = k == 1 ? m.host_per_discovered[c] : m.per_discovered[0][c];
    handback_costs[k][c] = make_float4(cost.fixed, cost.per_vertex, cost.per_edge, per_discovered);
  }

  const unsigned int lane = threadIdx.x % 32;
  const unsigned int first_log_index = log_index;
  std::uint32_t* visited = a.visited;
  if (a.shared_visited_words > 0) {
    copy_words(shared_visited, a.visited, a.shared_visited_words);
    visited = shared_visited;
  }
  VertexId frontier_size = frontier_end - frontier_begin;
  copy_words(bqueue, a.order + frontier_begin, frontier_size);
  if (threadIdx.x < kWQueues) wqueue_size[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    spill_size = 0;
    big_count = 0;
    level_edges[0] = level_edges[1] = 0;
  }
  __syncthreads();

  VertexId tail = frontier_end;
  unsigned long long level_start = start_ns;
  BlockLoopEnd end{};
  // The hand-back's profile level for the frontier being expanded, in every thread's registers.
  // No load on the way from one level to the next waits: each level's head loads the visited
  // counts of the 32 profile levels after its match (a lane each), which the match of the next
  // frontier reads once the level is written (a ballot); the matched level's record is loaded
  // then and first read by the next level's hand-back check, after its arcs are summed. With
  // the record prefetched a level ahead and a binary search wherever the BFS had outrun it, a
  // priced level cost ~300-900 cycles more than one without a table (luxembourg_osm, cycles
  // by phase, H100, 2026-11-24).
  // Levels before price_from are not priced (the lookahead found no hand-back there), so the
  // profile is followed only from there on: tracking.
  detail::HandbackLevel at{};
  bool tracking = handback && tail > a.handback.price_from;
  if (tracking) {
    profile_cursor = match_profile_level(a.handback, profile_cursor, tail);
    at = a.handback.levels[profile_cursor];
  }
  for (;;) {
    const unsigned int parity = static_cast<unsigned int>(level) & 1u;
    const bool priced = tracking && log_index > first_log_index;
    const unsigned int ahead_visited = profile_ahead(a.handback, tracking, profile_cursor, lane);
    // 1a. The frontier's arcs, from the row offsets its expansion reads anyway (they stay in L1):
    //     a frontier with more arcs than one SM should take ends the run before it is expanded.
    unsigned long long arcs = 0;
    for (VertexId i = threadIdx.x; i < frontier_size; i += kBlockThreads) {
      const VertexId u = bqueue[i];
      arcs += a.row_offsets[u + 1] - a.row_offsets[u];
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) arcs += __shfl_down_sync(0xFFFFFFFFu, arcs, d);
    if (lane == 0 && arcs > 0) atomicAdd(&level_edges[parity], arcs);
    __syncthreads();
    const EdgeOffset frontier_arcs = level_edges[parity];
    if (log_index > first_log_index && frontier_arcs > a.max_frontier_edges) {  // uniform
      end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                         detail::DeviceStop::FrontierTooLarge, profile_cursor};
      break;
    }
    if (log_index > first_log_index && tail > a.handback.outgrown_at) {  // uniform
      end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                         detail::DeviceStop::ProfileOutgrown, profile_cursor};
      break;
    }
    const bool warp = fits_warp(frontier_size, frontier_arcs, capacity);
    if (priced) {
      const detail::HandbackPrice price = block_handback_price(handback_costs, at, frontier_size, frontier_arcs, !warp);
      if (leaves(price)) {  // uniform
        end = BlockLoopEnd{tail - frontier_size, tail, frontier_arcs, level, log_index,
                           detail::DeviceStop::Handback, profile_cursor, price};
        break;
      }
    }

    // 1w. A small frontier goes to warp 0 (run_warp_levels), for as many levels as stay small.
    if (warp) {  // uniform
      // The warp's levels leave no arcs in level_edges (the block's next level adds into its
      // parity's, the hand-over after the loop too): zeroed once every thread read this level's.
      __syncthreads();
      if (threadIdx.x == 0) level_edges[0] = level_edges[1] = 0;
      if (threadIdx.x < 32) {
        run_warp_levels(a, visited, bqueue, big, big_first, big_arcs, handback_costs, frontier_size, frontier_arcs,
                        level, tail, log_index, first_log_index, log_limit, profile_cursor, tracking, at,
                        level_start, &warp_state);
      }
      __syncthreads();
      frontier_size = warp_state.frontier_size;
      tail = warp_state.tail;
      level = warp_state.level;
      log_index = warp_state.log_index;  // the records to hand to the host end there
      profile_cursor = warp_state.profile_cursor;
      tracking = warp_state.tracking;
      if (warp_state.stopped) {  // uniform
        end = warp_state.end;
        break;
      }
      if (tracking) at = a.handback.levels[profile_cursor];
      continue;
    }

    // 1b. Expand the b-queue into the w-queues: a thread per frontier vertex, except that
    //     vertices with many arcs are listed for the whole block (a serial scan of a hub's arcs
    //     would stall the level; Merrill, Garland, Grimshaw, PPoPP 2012, CTA-wide gathering).
    for (VertexId i = threadIdx.x; i < frontier_size; i += kBlockThreads) {
      const VertexId u = bqueue[i];
      const EdgeOffset first = a.row_offsets[u];
      const EdgeOffset stop = a.row_offsets[u + 1];
      if (stop - first > kBigDegree) {
        const unsigned int slot = atomicAdd(&big_count, 1u);
        if (slot < kBigListCapacity) {
          big[slot] = u;
          big_first[slot] = first;
          big_arcs[slot] = stop - first;
          continue;
        }
      }
      // kArcBatch column indices are loaded before any is claimed: the claims' stores (dist,
      // parent, w-queue) might alias the column array for the compiler, which would otherwise
      // issue each arc's load after the previous arc's stores, a round trip per arc.
      for (EdgeOffset e = first; e < stop; e += kArcBatch) {
        VertexId v[kArcBatch];
#pragma unroll
        for (int j = 0; j < kArcBatch; ++j) v[j] = e + j < stop ? __ldg(a.column_indices + e + j) : kNoVertex;
#pragma unroll
        for (int j = 0; j < kArcBatch; ++j) {
          if (v[j] != kNoVertex) claim_and_push(a, visited, u, v[j], level, wqueues, wqueue_size, &spill_size, lane);
        }
      }
    }
    __syncthreads();
    const unsigned int bigs = min(big_count, kBigListCapacity);
    if (bigs > 0) {  // uniform: read after the barrier
      // The listed vertices' arcs are dealt to the block evenly (scan-based gathering; Merrill,
      // Garland, Grimshaw, PPoPP 2012): warp 0 turns their lengths into inclusive sums, and the
      // block's threads take arcs threadIdx.x, + kBlockThreads, ... of their concatenation,
      // kArcBatch loads at once, each finding its vertex by a binary search over the sums.
      if (threadIdx.x < 32) {
        EdgeOffset sums[kBigPerLane];
        EdgeOffset sum = 0;
#pragma unroll
        for (int j = 0; j < kBigPerLane; ++j) {
          const unsigned int k = lane * kBigPerLane + j;
          sum += k < bigs ? big_arcs[k] : 0;
          sums[j] = sum;
        }
        EdgeOffset before = 0;
        ArcScan(arc_scan_storage).ExclusiveSum(sum, before);
#pragma unroll
        for (int j = 0; j < kBigPerLane; ++j) {
          const unsigned int k = lane * kBigPerLane + j;
          if (k < bigs) big_arcs[k] = before + sums[j];
        }
      }
      __syncthreads();
      const EdgeOffset total = big_arcs[bigs - 1];
      for (EdgeOffset base = threadIdx.x; base < total; base += kBlockThreads * kArcBatch) {
        VertexId v[kArcBatch];
        VertexId u[kArcBatch];
#pragma unroll
        for (int j = 0; j < kArcBatch; ++j) {
          const EdgeOffset i = base + static_cast<EdgeOffset>(j) * kBlockThreads;
          v[j] = kNoVertex;
          if (i < total) {
            unsigned int lo = 0;
            unsigned int hi = bigs - 1;  // the first k with big_arcs[k] > i is in [lo, hi]
            while (lo < hi) {
              const unsigned int mid = (lo + hi) / 2;
              if (big_arcs[mid] > i) {
                hi = mid;
              } else {
                lo = mid + 1;
              }
            }
            const EdgeOffset before = lo > 0 ? big_arcs[lo - 1] : 0;
            u[j] = big[lo];
            v[j] = __ldg(a.column_indices + big_first[lo] + (i - before));
          }
        }
#pragma unroll
        for (int j = 0; j < kArcBatch; ++j) {
          if (v[j] != kNoVertex) claim_and_push(a, visited, u[j], v[j], level, wqueues, wqueue_size, &spill_size, lane);
        }
      }
      __syncthreads();
    }

    // 2. Warp 0 scans the w-queue sizes and resets the counters for the next level.
    if (threadIdx.x < 32) {
      const unsigned int size = min(wqueue_size[lane], capacity);
      unsigned int inclusive = 0;
      WarpScan(warp_scan_storage).InclusiveSum(size, inclusive);
      const unsigned int longest = __reduce_max_sync(0xFFFFFFFFu, size);
      wqueue_count[lane] = size;
      wqueue_offset[lane] = inclusive - size;
      wqueue_size[lane] = 0;
      if (lane == 31) {
        queued = inclusive;
        longest_wqueue = longest;
        spilled = spill_size;
        spill_size = 0;
        level_edges[parity ^ 1u] = 0;
      }
    }
    __syncthreads();

    // 3. w-queues -> b-queue (row-major reads: consecutive threads, consecutive banks) and the
    //    visit order; spills after them.
    const VertexId next_size = queued + spilled;
    for (unsigned int idx = threadIdx.x; idx < longest_wqueue * kWQueues; idx += kBlockThreads) {
      const unsigned int q = idx % kWQueues;
      const unsigned int j = idx / kWQueues;
      if (j < wqueue_count[q]) {
        const VertexId v = wqueues[idx];
        bqueue[wqueue_offset[q] + j] = v;
        a.order[tail + wqueue_offset[q] + j] = v;
      }
    }
    copy_words(a.order + tail + queued, a.spill, spilled);
    const bool spilled_any = spilled > 0;
    if (threadIdx.x == 0) {
      big_count = 0;  // every thread read it before the barrier above
      const unsigned long long now = global_ns();
      a.level_log[log_index] = detail::DeviceLevelRecord{frontier_size, 0u, frontier_arcs, level_start, now};
      level_start = now;
    }
    __syncthreads();  // the b-queue holds the next frontier; queued and spilled read

    if (end_level(a, handback, next_size, spilled_any || next_size > kWQueues * capacity, log_limit, ahead_visited,
                  level, log_index, tail, frontier_size, tracking, profile_cursor, at, end)) {
      break;
    }
  }
  // Hand-over after a level (not where the BFS is over: FrontierEmpty, or AllReached: nothing to
  // hand over): the arcs out of the frontier the loop stops at, from its vertices in the order.
  // That count's loads, the bitmap's copy back and the records' copy to the host (written to
  // device memory, one L2 store a level; one coalesced pass through the mapped log) are issued
  // together, with one barrier after them: one after another, a barrier each and the records
  // fenced, they took 2.5-3.5 us from the last level's record to a dynamic_parallel grid
  // level's hand-over (medians by graph: arcs 1.5-2.1, bitmap 0.3-0.9, records 0.6-0.9), issued
  // together 2.1-3.0, ~0.5 us less on each of six suite graphs (before the b-queue's ids were
  // read here; H200, 2026-11-29).
  const bool hand_over = end.stop != detail::DeviceStop::FrontierEmpty &&
                         end.stop != detail::DeviceStop::AllReached && end.frontier_edges == 0;
  const unsigned int first_record = first_log_index + threadIdx.x;
  detail::DeviceLevelRecord record{};
  if (first_record < log_index) record = a.level_log[first_record];  // stored after the arcs' loads
  if (a.shared_visited_words > 0) {
    copy_words(a.visited, shared_visited, a.shared_visited_words);
  }
  unsigned long long arcs = 0;
  if (hand_over) {
    // kHandOverBatch vertices a thread at a time: their ids, then their row offsets, each
    // batch's loads in flight together. A frontier too large for the loop (phase 3's, never the
    // warp's) has its first `queued` vertices in the b-queue too, in the order's order.
    const VertexId in_bqueue = end.stop == detail::DeviceStop::FrontierTooLarge ? queued : 0;
    const VertexId size = end.frontier_end - end.frontier_begin;
    for (VertexId base = threadIdx.x; base < size; base += kHandOverBatch * kBlockThreads) {
      VertexId v[kHandOverBatch];
#pragma unroll
      for (unsigned int j = 0; j < kHandOverBatch; ++j) {
        const VertexId i = base + j * kBlockThreads;
        v[j] = i < in_bqueue ? bqueue[i] : i < size ? a.order[end.frontier_begin + i] : kNoVertex;
      }
      EdgeOffset first[kHandOverBatch];
      EdgeOffset last[kHandOverBatch];
#pragma unroll
      for (unsigned int j = 0; j < kHandOverBatch; ++j) {
        first[j] = v[j] != kNoVertex ? a.row_offsets[v[j]] : 0;
        last[j] = v[j] != kNoVertex ? a.row_offsets[v[j] + 1] : 0;
      }
#pragma unroll
      for (unsigned int j = 0; j < kHandOverBatch; ++j) arcs += last[j] - first[j];
    }
  }
  if (first_record < log_index) a.host_level_log[first_record] = record;
  for (unsigned int k = first_record + kBlockThreads; k < log_index; k += kBlockThreads) {
    a.host_level_log[k] = a.level_log[k];
  }
  unsigned long long* total = &level_edges[static_cast<unsigned int>(level) & 1u];  // zeroed in phase 2
  if (hand_over) {
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) arcs += __shfl_down_sync(0xFFFFFFFFu, arcs, d);
    if (lane == 0 && arcs > 0) atomicAdd(total, arcs);
  }
  // The records before the counters that announce them: a run that ends here publishes them
  // after the barrier (publish_counters' system fence, by thread 0, orders what the block wrote
  // before the barrier); a frontier too large for the loop goes on without waiting for the
  // fence (dynamic_parallel's grid level), the run's last link publishing.
  if (first_record < log_index && end.stop != detail::DeviceStop::FrontierTooLarge) __threadfence_system();
  __syncthreads();
  if (hand_over) end.frontier_edges = *total;
  return end;
}

/// Dynamic shared memory the loop needs: w-queues and b-queue, plus the visited bitmap when it
/// is kept in shared memory.
__host__ __device__ inline std::size_t block_loop_shared_bytes(unsigned int wqueue_capacity,
                                                               unsigned int shared_visited_words) {
  return (2u * kWQueues * wqueue_capacity + shared_visited_words) * sizeof(std::uint32_t);
}

/// The loop's arguments over b's buffers, with config's queue size and frontier bound and the
/// next number to publish the counters under (BfsBuffers::next_sequence): one call per run.
inline BlockLoopArgs block_loop_args(detail::BfsBuffers& b, const BlockLoopConfig& config,
                                     unsigned int shared_visited_words) {
  return BlockLoopArgs{b.d_graph.row_offsets.data(),
                       b.d_graph.column_indices.data(),
                       b.d_visited.data(),
                       b.d_dist.data(),
                       b.d_parent.data(),
                       b.d_order.data(),
                       b.d_scratch(),
                       b.d_counters.data(),
                       b.h_counters.data(),
                       b.next_sequence("the one-block loop"),
                       b.d_level_log.data(),
                       b.h_level_log.data(),
                       config.wqueue_capacity,
                       config.max_frontier_edges,
                       shared_visited_words,
                       detail::HandbackTable{},
                       0u,
                       b.reach_limit()};
}

/// Host side of a device-driven run launched on c's stream: waits for the counters it publishes
/// under `sequence` and returns what the run did: levels advanced, the frontier it stopped at,
/// arcs examined, stop reason, device time.
/// @throws CudaError if a device-side launch failed.
inline LevelOutcome read_device_run(const LevelContext& c, unsigned int sequence) {
  LevelOutcome out;
  out.device_us = c.buffers.wait_counters(sequence);
  const detail::BfsBuffers& b = c.buffers;
  const detail::LevelCounters& counters = *b.h_counters.data();
  if (counters.stop == static_cast<unsigned int>(detail::DeviceStop::LaunchFailed)) {
    const auto code = static_cast<cudaError_t>(counters.launch_error);
    throw CudaError(std::string("a device-side launch (device graph tail launch) failed after ") +
                        std::to_string(counters.levels) + " levels: " + cudaGetErrorName(code) + ": " +
                        cudaGetErrorString(code),
                    static_cast<int>(code));
  }
  const detail::DeviceLevelRecord* log = b.h_level_log.data();
  out.levels_advanced = static_cast<int>(counters.levels);
  out.level_records = log;
  VertexId last_begin = c.frontier_end;
  EdgeOffset examined = 0;
  for (unsigned int k = 0; k < counters.levels; ++k) {
    examined += log[k].frontier_edges;
    if (k > 0) last_begin += log[k].frontier_vertices;
  }
  out.edges_examined = examined;
  out.next_frontier_vertices = counters.order_tail - last_begin;
  out.next_frontier_edges = counters.final_edges;
  switch (static_cast<detail::DeviceStop>(counters.stop)) {
    case detail::DeviceStop::FrontierTooLarge:
      out.stop_reason = "frontier outgrew the block queue";
      break;
    case detail::DeviceStop::LevelCap:
      out.stop_reason = "level budget used up";
      break;
    case detail::DeviceStop::Handback:
      out.stop_reason = "the cost models price finishing off the run cheaper";
      out.handed_back = true;
      out.handback = counters.handback;
      break;
    case detail::DeviceStop::ProfileOutgrown:
      out.stop_reason = "the BFS outgrew the sampled profile the run was priced with";
      break;
    default:
      out.stop_reason = nullptr;
  }
  return out;
}

}  // namespace abfs::strategies::detail_block
