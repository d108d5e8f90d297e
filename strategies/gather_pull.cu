// gather_pull: one bottom-up (pull) level, the SpMV-style gather of BFS.
//
// Phases of one level (host-driven: one launch and one host round trip):
//  1. Every unvisited vertex v scans its in-neighbours (reverse CSR; the forward CSR when the
//     graph is undirected) and stops at the first one in the frontier bitmap, which becomes its
//     parent: a lane per vertex for short in-lists, the whole warp for long ones (32 in-arcs a
//     run, steps of 1, 2 and then 4 runs whose loads are in flight together). The frontier
//     bitmap is read-only here, so there are no atomics on the hot path. An in-hub (over 256
//     in-arcs) with no frontier in-neighbour among its first 256 is listed for the whole grid
//     (unless its warp's such lists hold 2,048 in-arcs or fewer past their first 256 in all:
//     the warp scans those whole):
//     once its own words are done, every warp picks an open entry of the list (a bitmap of
//     them) and claims 1,024 in-arcs of it at a time, and the first to find a frontier
//     in-neighbour discovers the hub (a flag; its bits ORed into the words its owner stored).
//  2. A warp owns 32 consecutive vertices, which are one word of every bitmap: __ballot_sync
//     gives the word of the next frontier, which the warp stores whole (no memset, no atomics)
//     and ORs into its visited word.
//  3. The found vertices are appended to the visit order (next frontier as a queue, too): the
//     warps' counts are scanned in the block and one thread reserves the block's slots with a
//     single atomicAdd per 256 vertices. The last block to finish publishes the counters into
//     mapped host memory, which the host polls (publish_by_last_block).
//
// Wins on the huge middle levels of low-diameter graphs, where a top-down level would check most
// arcs against already visited vertices. Consumes the frontier as a device bitmap (the executor
// converts a queue with BfsBuffers::queue_to_bitmap) and produces both bitmap and queue.
// Cost features: 1 launch + 1 host round trip, |V| bitmap words read, the unvisited vertices, the
// in-arcs they scan and the dependent steps of the warp with the longest walk (both from the
// plan's sampled BFS), the vertices it discovers and the unvisited vertices scattered among
// visited ones (where the graph outgrows the L2).
// @see Deng, Wang, Mu, "Taming irregular EDA applications on GPUs", ICCAD 2009 (BFS as SpMV);
//      Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.

#include "runtime/counters.cuh"
#include "runtime/launch_gate.cuh"
#include "strategies/gather_pull_walk.hpp"
#include "strategies/strategy.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

#include <algorithm>
#include <cmath>

namespace abfs::strategies {
namespace {

using pull_walk::kHubDegree;
using pull_walk::kMaxStrides;
using pull_walk::kWarpKeepArcs;
using pull_walk::kWarpScanDegree;

/// Launch parameters of gather_pull.
struct GatherPullConfig {
  /// Resident blocks per SM the grid is sized for (grid-stride over bitmap words beyond that).
  unsigned int blocks_per_sm = 8;
};

constexpr int kThreads = 256;  // threads per block (compile-time: launch bounds, block scan)
constexpr int kWarps = kThreads / 32;
/// Blocks an SM the registers are capped for (launch bounds): GatherPullConfig's default.
constexpr int kResidentBlocks = 8;
/// In-arcs of a listed in-hub a warp claims at a time (eight steps of kMaxStrides runs).
constexpr unsigned long long kHubChunk = 1024;

/// A listed in-hub: the rest of its in-list, the in-arcs claimed so far and whether a parent was
/// found. Open (its bit in the list's open bitmap) once written, closed when it has no in-arcs
/// left to claim or its parent is found.
struct PullHub {
  unsigned long long first;
  unsigned long long length;
  unsigned long long next;
  VertexId vertex;
  unsigned int found;
};

/// No entry of the hub list.
constexpr unsigned int kNoHub = 0xFFFFFFFFu;

/// The level's hub list: entries [0, count); count and blocks_done go back to 0 at the end of
/// each launch (its last block), and every open bit is cleared before a warp leaves its hub
/// phase (a warp leaves when it sees none open).
struct PullHubState {
  unsigned int count;
  unsigned int blocks_done;
};

/// One bottom-up level. in_offsets: |V|+1 and in_indices: |E| (reverse CSR); out_offsets: |V|+1
/// (forward CSR, for the next frontier's arc count); frontier, next_frontier, visited:
/// ceil(|V|/32) words; dist, parent: |V|; order: |V| (found vertices appended at
/// counters->order_tail).
__global__ void __launch_bounds__(kThreads, kResidentBlocks) expand_bottom_up(
    VertexId num_vertices, const EdgeOffset* __restrict__ in_offsets, const VertexId* __restrict__ in_indices,
    const EdgeOffset* __restrict__ out_offsets, const std::uint32_t* __restrict__ frontier,
    std::uint32_t* __restrict__ next_frontier, std::uint32_t* __restrict__ visited, std::int32_t* __restrict__ dist,
    VertexId* __restrict__ parent, VertexId* __restrict__ order, detail::LevelCounters* counters,
    std::int32_t next_level, unsigned int parity, detail::LevelCounters* host_counters, unsigned int sequence,
    PullHub* hubs, std::uint32_t* hub_open, PullHubState* hub_state, const unsigned int* host_gate,
    unsigned int* device_gate) {
  using BlockReduce = cub::BlockReduce<unsigned long long, kThreads>;
  using WarpScan = cub::WarpScan<unsigned int>;
  __shared__ typename WarpScan::TempStorage warp_scan_storage;
  __shared__ unsigned int warp_found[kWarps];
  __shared__ unsigned int warp_offset[kWarps];
  __shared__ unsigned int block_base;
  __shared__ typename BlockReduce::TempStorage reduce_storage;

  // Launched ahead (host_gate): the host decides on this level while the one before it ends.
  if (!detail::pass_gate(host_gate, device_gate, sequence)) return;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counters->next_edges[parity ^ 1u] = 0;  // for the level after
    counters->start_ns = detail::global_ns();
  }
  unsigned long long discovered_edges = 0;
  PullHub* listed_hub = nullptr;

  const std::size_t num_words = (static_cast<std::size_t>(num_vertices) + 31) / 32;
  // Whole blocks iterate together (the block scan needs every warp); words past the end are empty.
  for (std::size_t first = static_cast<std::size_t>(blockIdx.x) * kWarps; first < num_words;
       first += static_cast<std::size_t>(gridDim.x) * kWarps) {
    const std::size_t word = first + warp;
    const VertexId v = static_cast<VertexId>(word * 32 + lane);
    bool found = false;
    std::uint32_t mask = 0;
    if (word < num_words) {  // uniform across the warp
      const std::uint32_t seen = visited[word];
      VertexId from = kNoVertex;
      EdgeOffset e = 0, stop = 0;
      if (v < num_vertices && ((seen >> lane) & 1u) == 0) {
        e = in_offsets[v];
        stop = in_offsets[v + 1];
      }
      // An in-hub's first kHubDegree in-arcs are the warp's, as any long list's; the rest, where
      // they hold no parent, go to the grid's list below, unless the warp's lists hold
      // kWarpKeepArcs in-arcs or fewer past their first kHubDegree in all: it scans those whole,
      // as a listed rest costs a fence, an entry and the grid's picks.
      const EdgeOffset hub_stop = stop;
      const EdgeOffset rest = stop - e > kHubDegree ? stop - e - kHubDegree : 0;
      const unsigned int warp_rest =
          __reduce_add_sync(0xFFFFFFFFu, static_cast<unsigned int>(min(rest, static_cast<EdgeOffset>(kWarpKeepArcs + 1))));
      if (warp_rest > kWarpKeepArcs && rest > 0) stop = e + kHubDegree;
      // Short in-lists: each lane scans its own. Long ones (hubs of web and social graphs, which
      // stay unvisited when unreachable and would hold the warp for their whole list): the warp
      // scans them together, 32 in-arcs per step, and stops at the first step with a hit.
      const bool long_list = stop - e > kWarpScanDegree;
      if (!long_list) {
        for (; e < stop; ++e) {
          const VertexId u = in_indices[e];
          if ((__ldg(frontier + (u >> 5)) >> (u & 31)) & 1u) {
            from = u;
            found = true;
            break;
          }
        }
      }
      for (std::uint32_t pending = __ballot_sync(0xFFFFFFFFu, long_list); pending != 0; pending &= pending - 1) {
        const int owner = __ffs(pending) - 1;
        const EdgeOffset owner_stop = __shfl_sync(0xFFFFFFFFu, stop, owner);
        // A step covers `strides` runs of 32 in-arcs, their loads in flight together, and the
        // runs double each step up to kMaxStrides: a list hit early costs what it did, one
        // scanned to its end (an unreached in-hub) a step per 128 arcs instead of per 32.
        int strides = 1;
        for (EdgeOffset base = __shfl_sync(0xFFFFFFFFu, e, owner); base < owner_stop;
             base += static_cast<EdgeOffset>(strides) * 32, strides = min(2 * strides, kMaxStrides)) {
          VertexId u[kMaxStrides];
          bool hit[kMaxStrides];
          bool any_hit = false;
#pragma unroll
          for (int k = 0; k < kMaxStrides; ++k) {
            const EdgeOffset arc = base + static_cast<EdgeOffset>(k) * 32 + lane;
            u[k] = k < strides && arc < owner_stop ? in_indices[arc] : kNoVertex;
          }
#pragma unroll
          for (int k = 0; k < kMaxStrides; ++k) {
            hit[k] = u[k] != kNoVertex && ((__ldg(frontier + (u[k] >> 5)) >> (u[k] & 31)) & 1u);
            any_hit = any_hit || hit[k];
          }
          if (!__any_sync(0xFFFFFFFFu, any_hit)) continue;  // one vote a step while nothing hits
#pragma unroll
          for (int k = 0; k < kMaxStrides; ++k) {
            const std::uint32_t hits = __ballot_sync(0xFFFFFFFFu, hit[k]);
            if (hits != 0) {  // the first hit in arc order
              const VertexId parent_found = __shfl_sync(0xFFFFFFFFu, u[k], __ffs(hits) - 1);
              if (lane == static_cast<unsigned int>(owner)) {
                from = parent_found;
                found = true;
              }
              break;
            }
          }
          break;
        }
      }
      // The rest of an in-hub with no parent in its first kHubDegree in-arcs goes to the grid's
      // list (its entry opened after this word's store), which has a slot for every in-hub.
      const bool listed = !found && hub_stop > stop;  // never where hubs is null: no in-hub
      if (listed) {
        listed_hub = hubs + atomicAdd(&hub_state->count, 1u);
        listed_hub->first = stop;
        listed_hub->length = hub_stop - stop;
        listed_hub->next = 0;
        listed_hub->vertex = v;
        listed_hub->found = 0;
      }
      mask = __ballot_sync(0xFFFFFFFFu, found);
      if (lane == 0) {
        next_frontier[word] = mask;
        if (mask != 0) visited[word] = seen | mask;  // this warp owns the word, but for its listed hubs
      }
      if (__any_sync(0xFFFFFFFFu, listed)) {
        // The word's stores and the entries before their open bits: a warp that finds a listed
        // hub's parent ORs its bit into the word.
        __threadfence();
        __syncwarp();
        if (listed) {
          const auto entry = static_cast<unsigned int>(listed_hub - hubs);
          atomicOr(hub_open + entry / 32, 1u << (entry % 32));
        }
      }
      if (found) {
        dist[v] = next_level;
        parent[v] = from;
        discovered_edges += out_offsets[v + 1] - out_offsets[v];
      }
    }
    if (lane == 0) warp_found[warp] = __popc(mask);
    __syncthreads();
    if (warp == 0) {  // exclusive scan of the warps' counts, one atomic for the block
      const unsigned int count = lane < kWarps ? warp_found[lane] : 0u;
      unsigned int inclusive = 0;
      WarpScan(warp_scan_storage).InclusiveSum(count, inclusive);
      if (lane < kWarps) warp_offset[lane] = inclusive - count;
      if (lane == 31) block_base = inclusive > 0 ? atomicAdd(&counters->order_tail, inclusive) : 0u;
    }
    __syncthreads();
    // The next iteration writes warp_found only after every warp passed this point's barrier,
    // and warp 0 rewrites warp_offset only after the next iteration's first barrier.
    if (found) order[block_base + warp_offset[warp] + __popc(mask & ((1u << lane) - 1u))] = v;
  }

  // The listed in-hubs, by every warp once its words are done: it picks the first open entry
  // from a place in the list drawn anew for each pick (32 bitmap words, 1,024 entries, a load),
  // claims kHubChunk in-arcs of it at a time until none are left or a parent is found, closes
  // it, and picks again, until it sees none open. Warps that picked from a fixed place, or from
  // the entry after their last, met on the same entries and stayed together, every warp's
  // claim an atomic on one counter: forced gather_pull took 717 and 2,335 ms on kron:22 against
  // 3.0 (H100, 2026-11-25), whose first levels list most of its ~40,000 vertices of over 256
  // in-arcs (p99 in-degree 340). The warp that finds a hub's parent first (a flag) discovers
  // it. An entry still being written is not open yet: its lister's warp takes it here too.
  unsigned int place = blockIdx.x * kWarps + warp;  // a linear congruential sequence a warp
  while (hubs != nullptr) {  // none: the graph has no in-hub
    unsigned int listed_hubs = 0;
    if (lane == 0) listed_hubs = __ldcg(&hub_state->count);
    listed_hubs = __shfl_sync(0xFFFFFFFFu, listed_hubs, 0);
    if (listed_hubs == 0) break;
    // The start's word is read twice: its bits from the start on first, those below it last.
    const unsigned int words = (listed_hubs + 31) / 32;
    place = place * 1664525u + 1013904223u;
    const auto start = static_cast<unsigned int>((static_cast<unsigned long long>(place) * listed_hubs) >> 32);
    unsigned int pick = kNoHub;
    for (unsigned int base = 0; base <= words && pick == kNoHub; base += 32) {
      const unsigned int k = base + lane;
      const unsigned int w = (start / 32 + k) % words;
      std::uint32_t bits = k <= words ? __ldcg(hub_open + w) : 0u;
      if (k == 0) bits &= ~0u << (start % 32);
      if (k == words) bits &= (1u << (start % 32)) - 1u;
      const std::uint32_t open = __ballot_sync(0xFFFFFFFFu, bits != 0);
      if (open != 0) {
        const int first_lane = __ffs(open) - 1;
        pick = __shfl_sync(0xFFFFFFFFu, w, first_lane) * 32 + __ffs(__shfl_sync(0xFFFFFFFFu, bits, first_lane)) - 1;
      }
    }
    if (pick == kNoHub) break;
    __threadfence();  // the entry after its open bit; past L1: another SM wrote it
    PullHub* hub = hubs + pick;
    const unsigned long long first = __ldcg(&hub->first);
    const unsigned long long length = __ldcg(&hub->length);
    for (bool hit_found = false; !hit_found;) {
      unsigned long long at = 0;
      // Read before the atomic: where few entries are open, every warp of the grid meets on them,
      // and their claims on one counter, after the last chunk went, would queue up for nothing.
      if (lane == 0) {
        const bool done = __ldcg(&hub->found) != 0 || __ldcg(&hub->next) >= length;
        at = done ? length : atomicAdd(&hub->next, kHubChunk);
      }
      at = __shfl_sync(0xFFFFFFFFu, at, 0);
      if (at >= length) break;
      const unsigned long long end = min(at + kHubChunk, length);
      for (unsigned long long arc_base = at; arc_base < end && !hit_found; arc_base += kMaxStrides * 32) {
        VertexId hit = kNoVertex;
#pragma unroll
        for (int j = 0; j < kMaxStrides; ++j) {
          const unsigned long long arc = arc_base + static_cast<unsigned long long>(j) * 32 + lane;
          const VertexId u = arc < end ? in_indices[first + arc] : kNoVertex;
          if (hit == kNoVertex && u != kNoVertex && ((__ldg(frontier + (u >> 5)) >> (u & 31)) & 1u)) hit = u;
        }
        const std::uint32_t hits = __ballot_sync(0xFFFFFFFFu, hit != kNoVertex);
        if (hits == 0) continue;
        hit_found = true;
        if (lane == static_cast<unsigned int>(__ffs(hits) - 1) && atomicCAS(&hub->found, 0u, 1u) == 0u) {
          const VertexId v = __ldcg(&hub->vertex);
          dist[v] = next_level;
          parent[v] = hit;
          atomicOr(next_frontier + (v >> 5), 1u << (v & 31));
          atomicOr(visited + (v >> 5), 1u << (v & 31));
          order[atomicAdd(&counters->order_tail, 1u)] = v;
          discovered_edges += out_offsets[v + 1] - out_offsets[v];
        }
      }
    }
    if (lane == 0 && ((__ldcg(hub_open + pick / 32) >> (pick % 32)) & 1u)) {  // not closed by another warp yet
      atomicAnd(hub_open + pick / 32, ~(1u << (pick % 32)));  // nothing left, or found
    }
  }

  const unsigned long long block_edges = BlockReduce(reduce_storage).Sum(discovered_edges);
  if (threadIdx.x == 0 && block_edges > 0) atomicAdd(&counters->next_edges[parity], block_edges);
  __syncthreads();  // the block's hub work before its ticket
  if (hubs != nullptr && threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&hub_state->blocks_done, 1u) == gridDim.x - 1) {
      hub_state->count = 0;  // every block is past its hub phase: the list is the next launch's
      hub_state->blocks_done = 0;
    }
  }
  detail::publish_by_last_block(counters, host_counters, sequence);
}

class GatherPull final : public Strategy {
 public:
  const char* name() const override { return "gather_pull"; }
  bool applicable(const FrontierState&) const override { return true; }
  FrontierIo frontier_io() const override {
    return {FrontierRepresentation::Bitmap, Location::Device, FrontierRepresentation::Bitmap, Location::Device};
  }
  CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const override {
    // One launch and the host's wait for the counters; a pass over every vertex's visited bit;
    // the in-arcs the unvisited vertices scan, each up to its first in-neighbour in the
    // frontier; and the critical path, the dependent steps of the warp with the longest walk
    // (add_pull_warp_steps: its lanes' short scans side by side, then its long lists one after
    // another in steps of 32, 64, then 128 arcs: pull_walk::long_list_steps). Unreachable
    // in-hubs are scanned in full at every level (uk-2007-05@100000 level 4: 645 us against 45
    // predicted by expected early exits, H100, 2026-11-22). Until version 11 the critical path
    // was the longest single scan's steps, at most 32 once long lists were shared from 256
    // in-arcs (version 9): uk-2007-05@100000's bottom-up levels, whose worst warps walk 32
    // unreached in-lists of 3,003 arcs (128 steps), took 80-165 us against 25-30 predicted at
    // every level of the per-level oracle's trials, and the plan's run handed level 4 to
    // gather_pull at 92-143 us where dynamic_parallel's took 36 (H100, 2026-11-26). Both counts
    // come from the plan's sampled BFS (scaled to this frontier by profile_pull_scans); without
    // one, the scan is estimated as when the frontier's arcs hit each in-list at random,
    // ~ m_u * min(1, |V| / frontier arcs), and the critical path as 0.
    // Last, the vertices the level discovers at the share of their writes (distance, parent,
    // the next frontier) expected to miss the L2: uniform:8388608:8's level of 5.2 million
    // discoveries took 712 us against 204 predicted without it (H100, 2026-11-24). And on the
    // last levels of such graphs, the unvisited vertices left are scattered: each one's
    // in-offsets and in-list are a DRAM sector of their own instead of a share of a streamed
    // run, and a warp's chain of dependent loads waits for them. Priced by the unvisited
    // vertices whose sector of in-offsets (four vertices) holds no other unvisited vertex,
    // U (1 - U/|V|)^4, at the vertex miss share: uniform:100000000:4's levels 14-15 took 2,732
    // and 1,826 us against 1,622 and 883 predicted without it; with it the late levels' median
    // error fell from 32% to 7% in an offline fit to the per-level oracle's trials of
    // 2^21-10^8-vertex graphs, and gather_pull's levels of uniform:100000000:4's adaptive plan
    // from 31-36% to 13% (H100, 2026-11-24).
    const auto edges = static_cast<double>(state.frontier_edges);
    const auto unexplored = static_cast<double>(state.unexplored_edges);
    const auto n = static_cast<double>(stats.num_vertices);
    const double expected = edges > 0.0 ? unexplored * std::min(1.0, n / edges) : unexplored;
    const double scanned = state.pull_scanned_edges >= 0.0 ? state.pull_scanned_edges : expected;
    CostFeatures f;
    f.add("run", 1.0);
    f.add("vertices", n);
    f.add("unvisited_vertices", state.unvisited_vertices);
    f.add("scanned_edges", scanned);
    f.add("dram_scanned_edges", scanned * device_miss_share(stats, l2_bytes_));
    f.add("warp_scan_steps", std::max(0.0, state.pull_warp_steps));
    const double vertex_miss = device_vertex_miss_share(stats, l2_bytes_);
    f.add("dram_discovered", expected_discovered(state, stats) * vertex_miss);
    const double unvisited = static_cast<double>(state.unvisited_vertices);
    const double visited_share = n > 0.0 ? std::max(0.0, 1.0 - unvisited / n) : 0.0;
    f.add("dram_scattered_unvisited", unvisited * std::pow(visited_share, 4) * vertex_miss);
    return f;
  }


  void prepare(detail::BfsBuffers& buffers) override {
    l2_bytes_ = buffers.l2_cache_bytes;
    detail::preload_kernel(reinterpret_cast<const void*>(expand_bottom_up));
    const auto words = static_cast<unsigned int>(std::max<std::size_t>(1, buffers.visited_words));
    const unsigned int needed = (words + kWarps - 1) / kWarps;
    blocks_ = std::max(1u, std::min(needed, config_.blocks_per_sm * static_cast<unsigned int>(buffers.multiprocessors)));
    // A slot for every in-hub of this graph, so that a level can list them all.
    const Csr& in = buffers.graph().directed() ? buffers.graph().reverse_csr() : buffers.graph().csr();
    std::size_t in_hubs = 0;
    for (std::size_t v = 0; v + 1 < in.row_offsets.size(); ++v) {
      in_hubs += in.row_offsets[v + 1] - in.row_offsets[v] > kHubDegree ? 1 : 0;
    }
    has_hubs_ = in_hubs > 0;
    if (hubs_.size() < std::max<std::size_t>(1, in_hubs)) {
      hubs_ = detail::DeviceBuffer<PullHub>(std::max<std::size_t>(1, in_hubs));
      hub_open_ = detail::DeviceBuffer<std::uint32_t>((hubs_.size() + 31) / 32);
      ABFS_CUDA_CHECK(cudaMemset(hub_open_.data(), 0, hub_open_.size() * sizeof(std::uint32_t)));  // none open
    }
    if (hub_state_.data() == nullptr) {
      hub_state_ = detail::DeviceBuffer<PullHubState>(1);
      ABFS_CUDA_CHECK(cudaMemset(hub_state_.data(), 0, sizeof(PullHubState)));
    }
  }

  LevelOutcome run(LevelContext& c) override {
    auto& b = c.buffers;
    LevelOutcome out;
    out.edges_examined = c.frontier_edges;
    const unsigned int parity = static_cast<unsigned int>(c.level) & 1u;
    unsigned int sequence = 0;
    if (b.gate_armed_for(static_cast<const Strategy*>(this), c.level)) {
      sequence = b.open_gate();  // launched ahead by the last level's run
    } else {
      b.cancel_gate();
      sequence = b.next_sequence("gather_pull");
      launch(b, c.level, sequence, nullptr);
    }
    if (c.launch_ahead) {
      // The next level, bottom-up as well, waits behind this one for the host's decision: its
      // launch (~4.5 us of host time) runs while this level does, and the level starts when
      // the decision opens its gate rather than a launch later.
      b.mark_level_end();  // this level's end, before the next level in stream order
      const unsigned int next = b.next_sequence("gather_pull");
      if (const unsigned int* gate = b.arm_gate(static_cast<const Strategy*>(this), c.level + 1, next);
          gate != nullptr) {
        launch(b, c.level + 1, next, gate);
      }
    }
    // The host needs the new frontier's size to choose the next level's strategy.
    const double device_us = b.wait_counters(sequence);
    const detail::LevelCounters& counters = *b.h_counters.data();
    out.next_frontier_vertices = counters.order_tail - c.frontier_end;
    out.next_frontier_edges = counters.next_edges[parity];
    out.device_us = device_us;
    return out;
  }

 private:
  // One bottom-up level, expanding frontier_bits(level & 1); gate: launched ahead (arm_gate).
  void launch(detail::BfsBuffers& b, int level, unsigned int sequence, const unsigned int* gate) {
    const cudaStream_t s = b.stream();
    const unsigned int parity = static_cast<unsigned int>(level) & 1u;
    expand_bottom_up<<<blocks_, kThreads, 0, s>>>(
        b.num_vertices(), b.d_in_offsets(), b.d_in_indices(), b.d_graph.row_offsets.data(), b.frontier_bits(parity),
        b.frontier_bits(parity ^ 1u), b.d_visited.data(), b.d_dist.data(), b.d_parent.data(), b.d_order.data(),
        b.d_counters.data(), level + 1, parity, b.h_counters.data(), sequence, has_hubs_ ? hubs_.data() : nullptr,
        hub_open_.data(), hub_state_.data(), gate, b.device_gate());
    ABFS_CHECK_LAUNCH(s);
  }

  GatherPullConfig config_;
  double l2_bytes_ = 0.0;
  unsigned int blocks_ = 1;
  detail::DeviceBuffer<PullHub> hubs_;  // a slot for every in-hub of the graph
  detail::DeviceBuffer<std::uint32_t> hub_open_;  // a bit for every slot: open entries (none between launches)
  bool has_hubs_ = false;  // else the kernel skips its hub phase (nullptr)
  detail::DeviceBuffer<PullHubState> hub_state_;  // the list's count (reset by each launch's last block)
};

}  // namespace

std::unique_ptr<Strategy> make_gather_pull() { return std::make_unique<GatherPull>(); }

}  // namespace abfs::strategies
