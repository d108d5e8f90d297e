#pragma once
// The one interface every BFS strategy implements, and the registry of strategies.
//
// A strategy expands one level (or, for device-driven strategies, several) of a top-down or
// bottom-up BFS over the shared state in runtime/bfs_buffers.hpp. It never reads wisdom, times
// itself for the planner, or decides what runs next: the executor does.

#include <abfs/graph.hpp>

#include "runtime/bfs_buffers.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace abfs::strategies {

/// Where a frontier (and the visited state that goes with it) lives.
enum class Location { Host, Device };
/// How a frontier is represented: a queue (slice of the visit order) or a bitmap.
enum class FrontierRepresentation { Queue, Bitmap };

/// What a strategy consumes and produces, so the executor can insert conversions. The visit
/// order (queue) is always extended: a strategy that produces Bitmap leaves the next frontier as
/// a queue slice *and* as the frontier bitmap of the next level's parity.
struct FrontierIo {
  FrontierRepresentation consumes = FrontierRepresentation::Queue;
  Location consumes_at = Location::Host;
  FrontierRepresentation produces = FrontierRepresentation::Queue;
  Location produces_at = Location::Host;
};

/// The frontier about to be expanded.
struct FrontierState {
  int level = 0;
  VertexId frontier_vertices = 0;  ///< |F|
  EdgeOffset frontier_edges = 0;   ///< arcs out of F
  VertexId unvisited_vertices = 0;
  EdgeOffset unexplored_edges = 0;  ///< arcs out of unvisited vertices (Beamer's m_u)
  FrontierRepresentation representation = FrontierRepresentation::Queue;
  Location location = Location::Host;
  /// The level continues a device-driven run (one_block, dynamic_parallel): it pays no launch or
  /// host round trip of its own.
  bool continues_run = false;
  /// dynamic_parallel only: the device expanded this level with a grid kernel (else the
  /// one-block loop). Ignored unless continues_run.
  bool grid_level = false;
  /// dynamic_parallel only: the run's previous level was a grid level, so a one-block level
  /// here starts the loop again as a device-launched link (and copies the visited bitmap into
  /// shared memory). Ignored unless continues_run.
  bool after_grid_level = false;
  /// From the plan's sampled BFS at the level matching this one (LevelShape; the executor
  /// matches by vertices visited): in-arcs a bottom-up step would scan and its critical path in
  /// a warp's dependent steps (LevelShape::pull_warp_steps). Negative when no sample exists.
  double pull_scanned_edges = -1.0;
  double pull_warp_steps = -1.0;
  /// Vertices this level is expected to discover (the next frontier's size), from the sampled
  /// BFS: its matching level's discoveries per frontier arc times this frontier's arcs, at most
  /// the unvisited vertices. Negative when no sample exists (expected_discovered estimates it).
  double discovered_vertices = -1.0;
  /// Device-driven runs (one_block, dynamic_parallel), known once the run is over: how often its
  /// one-block loop stopped before a frontier it did not expand (to hand the run over, or to
  /// pass the frontier to a grid level), and those frontiers' vertices (LoopExits). The run's
  /// first level record carries their cost. 0 before a run and for the levels a run carries.
  double loop_exits = 0.0;
  double loop_exit_vertices = 0.0;
};

/// Share (0..1) of random accesses into `bytes` of data expected to miss an L2 of l2_bytes:
/// 1 - L2 / bytes; 0 when the data fit or the L2 is unknown (0).
inline double l2_miss_share(double bytes, double l2_bytes) {
  return bytes > l2_bytes && l2_bytes > 0.0 ? 1.0 - l2_bytes / bytes : 0.0;
}

/// Bytes a BFS over the graph touches at random on either side: the CSR, distances, parents
/// and the visit order (cost features: what misses the caches).
inline double bfs_working_set_bytes(const GraphStats& stats) {
  const auto n = static_cast<double>(stats.num_vertices);
  return (n + 1) * sizeof(EdgeOffset) + static_cast<double>(stats.num_edges) * sizeof(VertexId) +
         n * (sizeof(std::int32_t) + 2 * sizeof(VertexId));
}

/// Share (0..1) of a device level's memory traffic expected to miss the GPU's L2: 1 - L2 / the
/// bytes the graph and the BFS state take on the device (bfs_working_set_bytes, plus the
/// reverse CSR of a directed graph); 0 when they fit. On the H100 (50 MB L2) levels of
/// uniform:8388608:8 took 2.5-4x what the fits from L2-resident sweep graphs predicted
/// (2026-11-22).
inline double device_miss_share(const GraphStats& stats, double l2_bytes) {
  const double reverse_csr =
      stats.directed ? (static_cast<double>(stats.num_vertices) + 1) * sizeof(EdgeOffset) +
                           static_cast<double>(stats.num_edges) * sizeof(VertexId)
                     : 0.0;
  return l2_miss_share(bfs_working_set_bytes(stats) + reverse_csr, l2_bytes);
}

/// Share (0..1) of a device level's random accesses to per-vertex arrays expected to miss the
/// GPU's L2: 1 - L2 / the bytes of the arrays a top-down or bottom-up step touches once per
/// vertex it expands or discovers, at a random place (row offsets, distances, parents, the
/// visited bitmap: 16.125 bytes a vertex); 0 when they fit. Unlike device_miss_share it leaves
/// out the arcs, which a level reads in runs: on the H100 (50 MB L2) a privatized_queue level
/// costs ~0.2 ns more per vertex it discovers on uniform graphs of 2^25-10^8 vertices, and
/// kron:24's arc-heavy levels ran below the whole-graph share's price (exhaustive trials,
/// bench/large_graphs.sh, 2026-11-24).
inline double device_vertex_miss_share(const GraphStats& stats, double l2_bytes) {
  return l2_miss_share(static_cast<double>(stats.num_vertices) *
                           (sizeof(EdgeOffset) + sizeof(std::int32_t) + sizeof(VertexId) + 1.0 / 8.0),
                       l2_bytes);
}

/// Vertices a level discovers: state.discovered_vertices where the sampled BFS gave it, else
/// as when the frontier's arcs hit vertices at random, U * (1 - exp(-|E_F| / |V|)) (exact in
/// expectation for uniform random graphs; an upper bound where arcs stay among visited
/// vertices, as in road networks).
inline double expected_discovered(const FrontierState& state, const GraphStats& stats) {
  if (state.discovered_vertices >= 0.0) return state.discovered_vertices;
  const auto n = static_cast<double>(stats.num_vertices);
  return n > 0.0 ? static_cast<double>(state.unvisited_vertices) *
                       -std::expm1(-static_cast<double>(state.frontier_edges) / n)
                 : 0.0;
}

/// The counts a strategy's cost model needs for one level, by name (the names are the model's
/// features in wisdom). The planner turns them into microseconds with fitted coefficients:
/// predicted us = sum of coefficient[name] * value. Conversions of the frontier between host and
/// device or queue and bitmap are the executor's and priced separately.
struct CostFeatures {
  static constexpr int kMaxFeatures = 20;
  int size = 0;
  std::array<const char*, kMaxFeatures> names{};
  std::array<double, kMaxFeatures> values{};
  /// @throws std::logic_error past kMaxFeatures (an eleventh feature of dynamic_parallel once
  /// overwrote the array's neighbour unchecked: its calibration fitted every level at 0 us).
  void add(const char* name, double value) {
    if (size >= kMaxFeatures) {
      throw std::logic_error("CostFeatures: more than " + std::to_string(kMaxFeatures) + " features, at " + name);
    }
    names[static_cast<std::size_t>(size)] = name;
    values[static_cast<std::size_t>(size)] = value;
    ++size;
  }
};

/// One level's inputs: the frontier is order[frontier_begin, frontier_end) at the strategy's
/// consumed location (and, for Bitmap consumers, frontier_bits(level & 1)); the next frontier is
/// appended at frontier_end.
struct LevelContext {
  detail::BfsBuffers& buffers;
  int level = 0;
  VertexId frontier_begin = 0;
  VertexId frontier_end = 0;
  EdgeOffset frontier_edges = 0;
  /// Device-driven strategies advance at most this many levels (>= 1) before returning.
  int max_levels = 1 << 30;
  /// Device-driven strategies: the cost models they stop by when finishing off the run is
  /// cheaper (no model: they run until the frontier empties or no longer fits).
  detail::HandbackTable handback{};
  /// one_block: the planner prices this run long enough that its idle SMs should prefetch the
  /// CSR into the L2 meanwhile (at most once a BFS: BfsBuffers::take_l2_prefetch).
  bool prefetch_l2 = false;
  /// A strategy that can (gather_pull) queues its next level behind this one, held at a gate
  /// until the host decides (BfsBuffers::arm_gate): the planner's levels one at a time, where
  /// the next decision follows this level's counters.
  bool launch_ahead = false;
};

/// What a strategy did. A device-driven run advances several levels: the frontier it stops at
/// is the last next_frontier_vertices entries of the visit order.
struct LevelOutcome {
  int levels_advanced = 1;
  VertexId next_frontier_vertices = 0;
  EdgeOffset next_frontier_edges = 0;  ///< arcs out of the new frontier
  EdgeOffset edges_examined = 0;      ///< arcs out of the frontiers expanded (all levels advanced)
  double device_us = 0.0;             ///< CUDA-event time of the run's GPU work
  unsigned int overflow_pushes = 0;   ///< queue overflows taken by the slow path
  /// Device-driven runs: levels_advanced records (host memory of the buffers, valid until the
  /// next run), one per level advanced; nullptr for single-level strategies.
  const detail::DeviceLevelRecord* level_records = nullptr;
  /// Device-driven runs: why the run stopped before the BFS ended (nullptr if it ended).
  const char* stop_reason = nullptr;
  /// Device-driven runs: stopped because the planner's models, evaluated on the device, priced
  /// leaving the run cheaper than carrying the next level (DeviceStop::Handback).
  bool handed_back = false;
  /// handed_back: the prices the device compared (us).
  detail::HandbackPrice handback{};
};

/// A device-driven run's one-block loop exits before a frontier it did not expand
/// (FrontierState::loop_exits): each one-block level (kernel 0) that a level of another kernel
/// followed, and the last level when it was a one-block level and the run stopped with a
/// frontier left (handed over, outgrown, or out of levels). At an exit the loop pays the start
/// of the level it refuses: on the H100 a one_block run that outgrew its queue after several levels
/// spent 7.2 us (median, 14 runs) from its last level's record to the loop's exit, 0.1-0.2 where
/// the BFS ended (uniform:1048576:8's frontiers of 4,089 vertices ~8 us, uniform:8388608:8's
/// 4.6-5.0, kron:22's 1.3-1.6; trace builds, 2026-11-27). Nothing for a single-level strategy
/// (no level records).
struct LoopExits {
  int count = 0;
  VertexId vertices = 0;  ///< the frontiers' vertices, summed
};
inline LoopExits loop_exits(const LevelOutcome& outcome) {
  LoopExits exits;
  if (outcome.level_records == nullptr) return exits;
  for (int k = 0; k + 1 < outcome.levels_advanced; ++k) {
    if (outcome.level_records[k].kernel == 0 && outcome.level_records[k + 1].kernel != 0) {
      ++exits.count;
      exits.vertices += outcome.level_records[k + 1].frontier_vertices;
    }
  }
  const bool stopped = outcome.stop_reason != nullptr && outcome.next_frontier_vertices > 0;
  if (stopped && outcome.levels_advanced > 0 && outcome.level_records[outcome.levels_advanced - 1].kernel == 0) {
    ++exits.count;
    exits.vertices += outcome.next_frontier_vertices;
  }
  return exits;
}

class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Stable snake_case id used in wisdom, logs and the CLI.
  virtual const char* name() const = 0;
  /// Cheap host-side predicate.
  virtual bool applicable(const FrontierState& state) const = 0;
  virtual FrontierIo frontier_io() const = 0;
  /// The counts this strategy's cost model prices for expanding state's frontier (the level's
  /// own work; conversions are priced by the executor). Same feature names in the same order
  /// for every state.
  virtual CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const = 0;
  /// All allocation happens here, at plan time.
  virtual void prepare(detail::BfsBuffers& buffers) = 0;
  /// Expands the frontier on buffers' stream; returns when the outcome is known on the host.
  virtual LevelOutcome run(LevelContext& context) = 0;
};

/// One registry row. Name and version are part of the wisdom fingerprint: changing a strategy's
/// cost features bumps its version.
struct RegistryEntry {
  const char* name;
  int version;
  bool needs_device;
  std::unique_ptr<Strategy> (*create)();
};

/// All strategies, in a fixed order.
const std::vector<RegistryEntry>& registry();

std::unique_ptr<Strategy> make_cpu_expand();
std::unique_ptr<Strategy> make_one_block();
std::unique_ptr<Strategy> make_dynamic_parallel();
std::unique_ptr<Strategy> make_privatized_queue();
std::unique_ptr<Strategy> make_gather_pull();

/// Fills pull_warp_steps and pull_warp_steps_full of levels[0, levels.size()) from a BFS's
/// distances (|V| entries, -1 = unreached), as gather_pull's kernel would walk each level: a warp
/// owns 32 consecutive vertices; its lanes scan their short in-lists (32 in-arcs or fewer) side
/// by side, an arc a step, then the warp walks its long ones one after another
/// (1, 2, then 4 runs of 32 in-arcs a step, to the first frontier in-neighbour or the end), at
/// most the first 256 in-arcs of a list over 256 when the warp's such lists hold more than 2,048
/// in-arcs past their first 256 (the rests are the grid's). A level's value is its worst warp's
/// short scans' longest plus its long lists' steps. Exact, in O(|V| + |E|) time plus 32
/// vertices' work per word of long lists and distinct distance, parallel over words (OpenMP).
/// uk-2007-05@100000's level 4 from 13387: 128 steps (words of 32 unreached 3,003-arc
/// in-lists), where the longest single scan gave 32. Fills pull_scanned_edges too, as
/// add_pull_profile does, from the same scans (one pass over the in-lists for both).
/// @throws InvalidArgument if distances has the wrong size.
void add_pull_warp_steps(const Graph& graph, const std::vector<std::int32_t>& distances,
                         std::vector<LevelShape>& levels);

/// Launch parameters of privatized_queue, printable and runtime-settable.
struct PrivatizedQueueConfig {
  /// Slots per w-queue (32 w-queues per block). 32 slots hold the worst case of one tile
  /// (8 warps x 4 edges per lane), so the overflow path is taken only with smaller values.
  unsigned int wqueue_capacity = 32;
  /// Resident blocks per SM the grid is sized for (grid-stride over edge tiles beyond that).
  unsigned int blocks_per_sm = 8;
};
/// privatized_queue with a non-default config (tests use a tiny w-queue to force overflow).
std::unique_ptr<Strategy> make_privatized_queue(const PrivatizedQueueConfig& config);

/// Launch parameters of the one-block level loop (one_block, and dynamic_parallel's small
/// levels). The block queue holds 32 * wqueue_capacity vertices: the largest frontier the loop
/// keeps; a larger one ends the run and is handed over.
struct BlockLoopConfig {
  /// Slots per w-queue (32 per-lane w-queues). 128: 4,096 b-queue slots, 32 KiB of shared memory
  /// (w-queues + b-queue), under the 48 KiB a device-side launch gets without an opt-in.
  unsigned int wqueue_capacity = 128;
  /// A frontier with more arcs than this is handed over even if it fits: one SM's bandwidth.
  /// 8192, the rule's small-frontier bound (H100, 2026-11-22: a kron:22 level of 4 vertices and
  /// 31,588 arcs took 21.7 ms when one thread scanned each vertex; the loop now spreads hubs over
  /// the block, but one SM still loses to a grid well before 64 Ki arcs).
  EdgeOffset max_frontier_edges = 8192;
};
std::unique_ptr<Strategy> make_one_block(const BlockLoopConfig& config);
/// The loop's warp levels (block_loop.cuh: fits_warp, run_warp_levels): frontiers of at most
/// kWarpVertices vertices and fewer than kWarpArcs arcs are expanded by warp 0 alone. Here for
/// the planner's prices of the warp's levels and the block's (Executor::upload_handback).
constexpr VertexId kWarpVertices = 32;
constexpr EdgeOffset kWarpArcs = 256;

/// Launch parameters of dynamic_parallel.
struct DynamicParallelConfig {
  /// The one-block loop that carries the levels whose frontier fits it.
  BlockLoopConfig block_loop;
};
std::unique_ptr<Strategy> make_dynamic_parallel(const DynamicParallelConfig& config);

/// Calibration probe of cpu_expand's serial path: microseconds an arc of a serial level whose
/// arcs all lead to visited vertices (nothing discovered), over a cache-resident random graph
/// (2^14 vertices of out-degree 16, 1.1 MB); the median of `levels` timed levels after an
/// untimed one. Calibration fixes cpu_expand's serial_edges coefficient to it, so that the fit's
/// discovery terms (serial_discovered, serial_dram_discovered) price only what discovering
/// adds. @throws InvalidArgument if levels < 1; Error if the probe level discovers a vertex.
double measure_serial_arc_us(int levels);

/// Calibration probe of cpu_expand's serial path: microseconds a vertex costs that serial levels
/// discover (its claim, distance, parent and place in the visit order, and its own expansion
/// as a frontier vertex of the next level), from whole host BFSs (8 sources a sample, a clock
/// read a level, as a host run) over a graph of 2^14 vertices of out-degree 1-5 at random (~0.6
/// MB, ids in no order): their time less arc_us an arc and level_us a level (the two probes above),
/// over the vertices reached; the median of `samples` samples after an untimed one.
/// Calibration fixes cpu_expand's serial_discovered coefficient to it (less the fitted
/// frontier_vertices term). @throws InvalidArgument if samples < 1; Error if the BFSs reach
/// fewer than half the vertices.
double measure_serial_discovery_us(int samples, double arc_us, double level_us);

/// Calibration probe of cpu_expand's serial path: microseconds a serial level over a frontier of
/// one vertex with no arcs takes (the expansion's call and the clock read a host run stamps each
/// level with), the median of `levels` samples of 1,000 levels after an untimed one.
/// Calibration fixes cpu_expand's serial_level coefficient to it: fitted, it went to 0 on a busy
/// host with three more terms, and a carried host level with no arcs was priced at 0 us.
/// @throws InvalidArgument if levels < 1; Error if the probe level discovers a vertex.
double measure_serial_level_us(int levels);

/// Calibration probes of the mechanisms a device-driven level loop can link levels with, in
/// microseconds per level (CUDA-event medians of 5 chains of 500 levels, 2,000 if patient), for a
/// one-block level and, with suffix "_grid", a level of 8 blocks per SM: tail_launch_us (a
/// device-side cudaStreamTailLaunch chain), device_graph_launch_us (a graph relaunching itself
/// from the device: what dynamic_parallel links its levels by), graph_while_us (a graph WHILE
/// conditional node over the level kernel), graph_kernel_node_us (a replayed chain of kernel
/// nodes, nothing decided on the device). @throws CudaError, also when a chain stops early.
std::map<std::string, double> probe_level_loop_mechanisms(bool patient);

}  // namespace abfs::strategies
