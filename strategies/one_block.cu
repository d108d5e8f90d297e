// one_block: a single thread block runs level after level inside one launch (block_loop.cuh),
// with __syncthreads() between levels and the w-queues and b-queue in shared memory.
//
// Phases of one run: one launch, then the levels on the device with no host involvement (where
// the planner prices the run long, every other SM prefetches the CSR into the L2 meanwhile,
// once a BFS: runtime/l2_prefetch.cuh); the block then writes its counters into mapped
// host memory, which the host polls (no copy back, no stream synchronization). The per-level
// records (frontier size and arcs, %globaltimer stamps) are written by the device into mapped
// host memory too.
//
// Wins when the frontier stays small for many levels (road networks, meshes, the first and last
// levels of any graph): a level costs a few dependent loads and three barriers, not a launch and
// a host round trip; frontiers of up to 32 vertices and 256 arcs are expanded by one warp with
// no barrier (run_warp_levels). Hands over (with the level complete in the visit order) when
// the frontier outgrows the b-queue or has more arcs than BlockLoopConfig::max_frontier_edges, or when the
// planner's fitted models, evaluated on the device before each level (from
// HandbackTable::price_from on), price leaving cheaper.
// Cost features: 1 launch + 1 host round trip per run; per level, 3 barriers and the frontier's
// arcs scanned by one SM.
// @see Luo, Wong, Hwu, "An effective GPU implementation of breadth-first search", DAC 2010
//      (hierarchical kernel arrangement, the one-block kernel for small frontiers).

#include "runtime/l2_prefetch.cuh"
#include "strategies/block_loop.cuh"
#include "strategies/strategy.hpp"

#include <algorithm>

namespace abfs::strategies {
namespace {

using detail_block::BlockLoopArgs;
using detail_block::kBlockThreads;

/// The one-block run: levels from order[frontier_begin, frontier_end) of level until a stop
/// condition or log_limit levels; writes counters (order_tail, final_edges, levels, stop).
/// Block 0 runs it; blocks after it (launched where the run prefetches) prefetch the CSR, of
/// `vertices` vertices and `arcs` arcs, into the L2.
__global__ void __launch_bounds__(kBlockThreads)
    one_block_levels(BlockLoopArgs args, VertexId frontier_begin, VertexId frontier_end, int level,
                     unsigned int log_limit, VertexId vertices, EdgeOffset arcs) {
  if (blockIdx.x != 0) {
    detail::prefetch_csr_l2(args.row_offsets, args.column_indices, vertices, arcs, blockIdx.x - 1, gridDim.x - 1);
    return;
  }
  const unsigned long long start = detail::global_ns();
  const detail_block::BlockLoopEnd end =
      detail_block::run_block_levels(args, frontier_begin, frontier_end, level, 0, log_limit, start);
  if (threadIdx.x == 0) {
    detail::LevelCounters* c = args.counters;
    c->order_tail = end.frontier_end;
    c->final_edges = end.frontier_edges;
    c->levels = end.log_index;
    c->stop = static_cast<unsigned int>(end.stop);
    c->handback = end.handback;
    c->next_edges[static_cast<unsigned int>(end.level) & 1u] = 0;  // the protocol in bfs_buffers.hpp
    c->start_ns = start;
    detail::publish_counters(c, args.host_counters, args.sequence);
  }
}

class OneBlock final : public Strategy {
 public:
  explicit OneBlock(const BlockLoopConfig& config) : config_(config) {}

  const char* name() const override { return "one_block"; }
  bool applicable(const FrontierState& state) const override {
    return detail_block::fits_block_queue(state.frontier_vertices, state.frontier_edges, config_.wqueue_capacity,
                                          config_.max_frontier_edges);
  }
  FrontierIo frontier_io() const override {
    return {FrontierRepresentation::Queue, Location::Device, FrontierRepresentation::Queue, Location::Device};
  }
  CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const override {
    // A run pays one launch and the host's wait for its counters; each level it carries pays
    // its barriers and its vertices and arcs, on one SM.
    CostFeatures f;
    f.add("run", state.continues_run ? 0.0 : 1.0);
    f.add("level", 1.0);
    // A level the whole block expands has a larger fixed cost than one warp 0 expands alone
    // (fits_warp: run_warp_levels), whose lanes take its arcs 32 at a time: the quick
    // calibration's grid levels took 1.34-1.41 us (medians) in the warp under 64 arcs, 1.79-2.08
    // at 64-255, and 2.08-2.50 in the block at 33-300 vertices. Fitted by one line over both,
    // one_block's calibration error went 3.5 / 6.5% -> 7.9 / 13.9%, and luxembourg_osm's block
    // levels (50-200 vertices) took 2.5-2.7 us priced 2.5: the plan left the host's levels (~2.1
    // us there) for a run priced within 0.2% of staying, and its BFSs took 1.12x forced
    // cpu_expand's (H100, 2026-11-27). Registry version 11.
    const bool warp = detail_block::fits_warp(state.frontier_vertices, state.frontier_edges, config_.wqueue_capacity);
    f.add("block_step", warp ? 0.0 : 1.0);
    f.add("warp_edges", warp ? static_cast<double>(state.frontier_edges) : 0.0);
    f.add("frontier_vertices", state.frontier_vertices);
    f.add("frontier_edges", static_cast<double>(state.frontier_edges));
    // Each vertex a level discovers costs its claim, its distance and parent and a queue slot,
    // on one SM. Priced by arcs alone, uniform:1048576:8's carried level 3 (512 vertices, 4,096
    // arcs, 4,088 discovered) took 15.5 us against 4.9, and cnr-2000's level 4 from source 6844
    // (304 vertices, 7,852 arcs, 3,944 discovered) 19.2 against 7.6: 2.6-2.9 ns a discovery.
    // The online correction, by size class of arcs, then learned those levels' factor (3.2x)
    // for the class, and priced its levels that discover a few hundred vertices by it (per-level
    // oracle's carried levels, H100, 2026-11-26). Registry version 8; calibrated beside the
    // arcs' 0.72 ns at 0.71 ns a discovery (calibrate(): the arcs are fitted first), it priced
    // the per-level oracle's carried one-block levels of eleven suite graphs, uncorrected, with
    // a p90 error of 52% (mean over the graphs) against 56%: uniform:1048576:8 49% against 68%,
    // uniform:8388608:8 57% against 73%, cnr-2000 51% against 55%, luxembourg_osm 7% against
    // 11%, soc-Slashdot0902 27% against 26%, the rest 0-2 points lower.
    f.add("discovered", expected_discovered(state, stats));
    // A run copies the visited bitmap into shared memory and back (where it fits), one SM's
    // loads: 32,768 words each way on uniform:1048576:8, whose starts took 28-32 us where the
    // model, fitted on sweep graphs of 1,024-16,384 words, priced 19 (per-level oracle's
    // trials, H100, 2026-11-26).
    f.add("bitmap_words", state.continues_run ? 0.0 : static_cast<double>(shared_visited_words_));
    // A run that stops before a frontier it does not expand pays the loop's start of that level
    // after its last record (LoopExits), in the run's first record. Priced as if the run went
    // on to the BFS's end until version 9, such runs took their price +11.3 us (median, 18 runs:
    // cnr-2000 +9.3, kron:22 +11.0, soc-Slashdot0902 +16.1, uniform:1048576:8 +14.8) where runs
    // to the end took +0.4 to +1.1 (159 runs; suite runs H-J and N1, H100, 2026-11-27).
    f.add("loop_exits", state.continues_run ? 0.0 : state.loop_exits);
    f.add("loop_exit_vertices", state.continues_run ? 0.0 : state.loop_exit_vertices);
    return f;
  }

  void prepare(detail::BfsBuffers& buffers) override {
    // Keep the visited bitmap in shared memory when it fits beside the queues (graphs up to
    // ~1.5 M vertices on the H100's 227 KiB): claims become shared-memory atomics.
    const std::size_t budget =
        detail::allow_max_dynamic_shared_memory(reinterpret_cast<const void*>(one_block_levels));
    const auto words = static_cast<unsigned int>(buffers.visited_words);
    shared_visited_words_ =
        detail_block::block_loop_shared_bytes(config_.wqueue_capacity, words) <= budget ? words : 0u;
    shared_bytes_ = detail_block::block_loop_shared_bytes(config_.wqueue_capacity, shared_visited_words_);
  }

  LevelOutcome run(LevelContext& c) override {
    const VertexId frontier_size = c.frontier_end - c.frontier_begin;
    if (frontier_size > kWQueuesTotal * config_.wqueue_capacity) {
      throw InvalidArgument("one_block: frontier of " + std::to_string(frontier_size) + " vertices exceeds its " +
                            std::to_string(kWQueuesTotal * config_.wqueue_capacity) + "-slot block queue");
    }
    const cudaStream_t s = c.buffers.stream();
    BlockLoopArgs args = detail_block::block_loop_args(c.buffers, config_, shared_visited_words_);
    args.handback = c.handback;
    const auto log_limit =
        static_cast<unsigned int>(std::min<long long>(c.max_levels, detail::kLevelLogCapacity));
    // A run the planner prices long (prefetch_l2) brings the CSR into the L2 with every other
    // SM, once a BFS, where the CSR takes at most half the L2. Always on at a BFS's first run,
    // forced one_block on cnr-2000 (a CSR of 15 MB, not kept in the L2 between a batch's BFSs)
    // from source 44408 took 137 us where it took 148, from 6844 594 against 619, and the plan's
    // BFSs 158 / 515 against 168 / 541 (medians of 10, 5 processes each); forced one_block on
    // ca-AstroPh-lcc and soc-Slashdot0902 2.5-3.7% faster in the median, the plan's BFSs on five
    // other graphs within 1.3% (H100, 2026-11-28). But a run shorter than the prefetch (~6-9 us
    // there) waits for it at its end: cnr-2000's tiny components' forced BFSs took 42-48 us
    // against 33-39. Where dynamic_parallel's host-launched loop prefetched too, the plan's BFSs
    // on those five graphs (its runs from level 0) took 1.3-2.5% longer: it does not.
    const unsigned int prefetch_blocks = c.prefetch_l2 && c.buffers.take_l2_prefetch()
                                             ? static_cast<unsigned int>(std::max(c.buffers.multiprocessors - 1, 0))
                                             : 0u;
    const Graph& graph = c.buffers.graph();
    one_block_levels<<<1 + prefetch_blocks, kBlockThreads, shared_bytes_, s>>>(
        args, c.frontier_begin, c.frontier_end, c.level, log_limit, graph.num_vertices(), graph.num_edges());
    ABFS_CHECK_LAUNCH(s);
    // The host reads where the run stopped (and the level log) to choose what runs next.
    return detail_block::read_device_run(c, args.sequence);
  }

 private:
  static constexpr unsigned int kWQueuesTotal = detail_block::kWQueues;
  BlockLoopConfig config_;
  std::size_t shared_bytes_ = 0;
  unsigned int shared_visited_words_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_one_block() { return make_one_block(BlockLoopConfig{}); }

std::unique_ptr<Strategy> make_one_block(const BlockLoopConfig& config) { return std::make_unique<OneBlock>(config); }

}  // namespace abfs::strategies
