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
// Frontier bitmaps (device only): two ping-pong bitmaps of ceil(|V|/32) words, bit v set when v
// is in the frontier of a level of that parity. Bottom-up levels read one and write the other;
// queue_to_bitmap() builds one from a queue slice when a bottom-up level follows a top-down one.
//
// Moving the BFS to the device uploads the visits the host made since the device last saw the
// order (order ids, distances, parents: one packed copy and one scatter kernel; a BFS's first
// upload of at most 1,024 visits is one kernel, which also clears the bitmap). Moving it to the
// host downloads only what a host expansion reads: the visited bitmap and the current frontier's
// slice of the order. The ids, distances and parents of the other device-made visits stay on
// the device and are gathered once, by collect(), after the BFS.

#include <abfs/graph.hpp>

#include "runtime/resources.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace abfs::detail {

/// Why a device-driven run of levels (one_block, dynamic_parallel) stopped.
enum class DeviceStop : unsigned int {
  FrontierEmpty = 0,     ///< the BFS is over
  FrontierTooLarge = 1,  ///< the next frontier outgrew the block queue (handed over, nothing lost)
  LevelCap = 2,          ///< the caller's level budget (or the level log) is used up
  LaunchFailed = 3,      ///< a device-side launch failed (the host throws CudaError)
  Handback = 4,          ///< the cost models price finishing off the run below carrying on (HandbackTable)
  ProfileOutgrown = 5,   ///< the BFS discovered more vertices than the run's profile (HandbackTable::outgrown_at)
  AllReached = 6,        ///< the BFS visited every vertex it can reach (BfsBuffers::reach_limit): it is over
};

/// A level's predicted microseconds as fixed + per_vertex * frontier vertices + per_edge *
/// frontier arcs.
struct AffineCost {
  float fixed;
  float per_vertex;
  float per_edge;
};

/// Size classes of a frontier's arcs for the hand-back decision: [0, 4), [4, 16), ... by powers
/// of 4, the last open-ended (the executor's online-correction classes).
constexpr int kHandbackClasses = 12;

/// The size class (0 .. kHandbackClasses - 1) of a frontier with `arcs` arcs: floor(log4(arcs)),
/// capped. From the bit length, not a loop of shifts: on the device the class sits on the
/// hand-back check of every priced level (a loop of 64-bit shifts there cost ~100 cycles).
__host__ __device__ inline int arcs_size_class(EdgeOffset arcs) {
  if (arcs < 4) return 0;
#ifdef __CUDA_ARCH__
  const int bits = 64 - __clzll(static_cast<long long>(arcs));
#else
  const int bits = 64 - __builtin_clzll(arcs);
#endif
  const int c = (bits - 1) / 2;
  return c < kHandbackClasses - 1 ? c : kHandbackClasses - 1;
}

/// The planner's fitted cost models as a device-driven run evaluates them at each level it could
/// stop before (Executor::prepare_lookahead builds it, one per run-carrying strategy). Every
/// model is affine in the frontier's vertices and arcs within a size class, its online
/// correction included, so the device evaluates exactly what the host would.
struct HandbackModel {
  /// A level the run carries: [0] one-block loop, [1] grid level, [2] grid level of a lane a
  /// frontier vertex (strategies::grid_group_lanes 1: corrected apart, Executor::carried_group).
  AffineCost stay[3][kHandbackClasses];
  /// us per vertex such a level discovers (its model's discovered-vertices term, corrected as
  /// stay's); stay leaves it out, since a level's discoveries are not affine in its frontier:
  /// the decision adds it times the profile's discoveries per arc times the arcs.
  float per_discovered[3][kHandbackClasses];
  /// us a one-block level costs more right after a grid level (the loop's relaunch as a
  /// device-launched link, with its copy of the visited bitmap); stay[0] leaves it out.
  float block_relaunch[kHandbackClasses];
  /// A one-block level the whole block expands, not warp 0 alone (strategies' fits_warp; the
  /// cost models' block_step and warp_edges): stay[0] prices classes 0-3 (under 256 arcs) as
  /// the warp's levels, this as the block's (the same as stay[0] from class 4 on). Its
  /// discoveries cost per_discovered[0].
  AffineCost block_stay[kHandbackClasses];
  /// The host's level after a hand-back (cpu_expand with the frontier's download); fixed is
  /// +inf where the host does not apply.
  AffineCost host[kHandbackClasses];
  /// us per vertex that host level discovers (cpu_expand's discovery terms, corrected as host),
  /// added as per_discovered is: the decision's `leave` (the profile's way off the run at its
  /// own frontier) has them, and a host price without them was the cheaper of the two wherever
  /// a level discovers, by ~20 ns a discovery on the H100's host once cpu_expand's
  /// serial_discovered was measured (~1 ns while it was fitted).
  float host_per_discovered[kHandbackClasses];
};

/// One level of the planner's sampled BFS profile, as the hand-back decision reads it. A run at a
/// frontier whose visit order ends at `visited` is matched to the first profile level that had
/// discovered at least as many vertices (the executor's matching_profile_level).
struct HandbackLevel {
  unsigned int visited;  ///< vertices discovered through this profile level
  float stay_after;      ///< us: the run carrying on from the next profile level, at best
  float leave;           ///< us: finishing from this level without the run (the planner's other choices)
  float host_after;      ///< us: finishing from the next profile level with the frontier on the host
  float discovered_per_arc;  ///< vertices the profile's next level discovered per arc of this one
};

/// Whether a frontier whose visit order ends at `visited` stands for the profile level before
/// the first one that had discovered as many vertices (`at` of them, the one before `below`;
/// below < visited < at): whether it is nearer to it in ratio (visited^2 < below * at). The
/// first such level alone is one level late wherever the BFS is a few vertices ahead of the
/// profile: uniform:8388608:8's frontier of 256,000 vertices, 100-odd visits past the profile's,
/// was priced with the next level's (1.75 M vertices) pull scans and cost to go, and its run
/// handed back to a bottom-up level of 605 us where the run's grid level took 343 (H100,
/// 2026-11-24).
__host__ __device__ inline bool nearer_below(VertexId visited, VertexId below, VertexId at) {
  return visited < at &&
         static_cast<std::uint64_t>(visited) * visited < static_cast<std::uint64_t>(below) * at;
}

/// Discoveries per frontier arc of a frontier whose visit order ends at `visited`, between the
/// profile level it is matched to (the first that had discovered at least as many vertices:
/// at_visited, at_per_arc) and the one before (below_visited < visited, below_per_arc):
/// linear in log(visited) from one to the other. A run a few vertices past a profile level is
/// priced at that level's discoveries, not the next one's: matching alone made
/// uniform:16777216:8's level 7 discover 0.08 or 0.57 vertices per arc by source (H100,
/// 2026-11-24). Without a level before (below_visited 0) or at or past at_visited: at_per_arc.
__host__ __device__ inline double interpolate_per_arc(double visited, double below_visited, double below_per_arc,
                                                      double at_visited, double at_per_arc) {
  if (!(below_visited > 0.0) || !(at_visited > below_visited) || visited >= at_visited) return at_per_arc;
  if (visited <= below_visited) return below_per_arc;
  const double t = log(visited / below_visited) / log(at_visited / below_visited);
  return below_per_arc + t * (at_per_arc - below_per_arc);
}

/// Device pointers to a hand-back table (nullptr model: the run never hands back).
struct HandbackTable {
  const HandbackModel* model = nullptr;
  const HandbackLevel* levels = nullptr;
  unsigned int level_count = 0;
  /// Only levels whose visit order ends beyond this many vertices are priced: the lookahead
  /// found no hand-back before (its first one, two profile levels early). Pricing every level
  /// of a long run cost ~0.25 us of ~3 (luxembourg_osm, H100, 2026-11-22).
  unsigned int price_from = 0;
  /// A run stops before a level whose visit order ends beyond this many vertices: the BFS has
  /// outgrown the sampled profile the table was built from, and the planner has a larger one
  /// (Executor::outgrow_profile) to decide the next level with. ~0u: never (the largest).
  unsigned int outgrown_at = ~0u;
};

/// The prices that stopped a device-driven run with DeviceStop::Handback, in us, as the device
/// evaluated the planner's models (handback_price and block_handback_price in
/// strategies/block_loop.cuh): carrying the next level (level_us, its discoveries included) and
/// then going on at the run's best (after_us), against finishing the BFS without the run
/// (leave_us: the host's level or the planner's other choices, with their cost to go).
struct HandbackPrice {
  float level_us;
  float after_us;
  float leave_us;
};

/// Device-written counters. A level's last kernel publishes them to the host's mapped copy
/// (publish_counters in runtime/counters.cuh; BfsBuffers::wait_counters).
///
/// Protocol for next_edges: a kernel expanding level L accumulates the arcs out of frontier L+1
/// into next_edges[L & 1] and zeroes next_edges[(L + 1) & 1] (block 0, at its start) for level
/// L+1; a device-driven run that stops before level L zeroes next_edges[L & 1]. So slot L & 1 is
/// zero whenever level L starts. move_to_device() zeroes everything.
struct LevelCounters {
  unsigned int order_tail;            ///< next free slot of d_order (= end of the new frontier)
  unsigned int overflow_pushes;       ///< pushes that bypassed a full w-queue
  unsigned long long next_edges[2];   ///< arcs out of the new frontier, by level parity
  unsigned long long final_edges;     ///< device-driven runs: arcs out of the frontier they stop at
  unsigned int levels;                ///< device-driven runs: levels advanced
  unsigned int stop;                  ///< device-driven runs: a DeviceStop
  /// A ticket: blocks done of a dynamic_parallel grid level or of a first upload (0 between kernels).
  unsigned int blocks_done;
  unsigned int launch_error;          ///< dynamic_parallel: the cudaError_t of a failed device launch
  /// The host's copy only: the number the counters were last published under.
  unsigned int sequence;
  unsigned long long start_ns;        ///< %globaltimer when the level (or run) started on the device
  unsigned long long end_ns;          ///< %globaltimer when its counters were published
  HandbackPrice handback;             ///< device-driven runs that stop with DeviceStop::Handback
};

/// One level of a device-driven run, written by the device into the (mapped, pinned) level log.
struct DeviceLevelRecord {
  unsigned int frontier_vertices;
  unsigned int kernel;               ///< which kernel expanded it (strategy-defined; 0 = one block)
  unsigned long long frontier_edges;
  unsigned long long start_ns;       ///< %globaltimer when the level started (launch included)
  unsigned long long end_ns;         ///< %globaltimer when its next frontier was complete
};

/// The bit a gate's word carries when its queued kernel is cancelled (BfsBuffers::arm_gate):
/// the word holds the kernel's sequence number, with this bit where it must return.
constexpr unsigned int kGateCancelled = 1u << 31;

/// Capacity of the level log: a device-driven run stops (DeviceStop::LevelCap) after this many.
constexpr unsigned int kLevelLogCapacity = 1u << 16;

/// CSR on the device. row_offsets: |V|+1; column_indices: |E|.
struct DeviceGraph {
  DeviceBuffer<EdgeOffset> row_offsets;
  DeviceBuffer<VertexId> column_indices;
};

class BfsBuffers {
 public:
  /// Allocates host state for graph and, if use_device, uploads the graph and allocates the
  /// device state on the current device; with checkpoints, also room for one checkpoint. @throws OutOfMemory (with bytes needed and free) if the
  /// device cannot hold it; CudaError otherwise.
  BfsBuffers(const Graph& graph, bool use_device, bool checkpoints = false);

  const Graph& graph() const noexcept { return graph_; }
  /// Bytes of the graph's CSR and the host's per-vertex arrays that transparent huge pages back
  /// (use_huge_pages; 0 where the kernel declined).
  std::size_t huge_page_bytes() const noexcept { return huge_page_bytes_; }
  bool has_device() const noexcept { return has_device_; }
  VertexId num_vertices() const noexcept { return graph_.num_vertices(); }
  cudaStream_t stream() const noexcept { return stream_ ? stream_->get() : nullptr; }

  /// Starts a BFS from source on the host side: clears the visited bitmaps (host now, device
  /// lazily at the first move to the device) and makes order[0] = source. The host's is
  /// cleared word by word where the last BFS's set bits are known (collect() saw every visit
  /// the host made and no download or checkpoint restore wrote the bitmap), else in full.
  void start(VertexId source);
  /// Vertices the current BFS reaches at most, where the executor knows (an earlier BFS's reach
  /// holds the source: Executor::reach_set_for): once its visit order holds this many, every
  /// vertex it can reach is visited, and the frontier's expansion would discover nothing.
  /// Device-driven runs stop there (DeviceStop::AllReached). Default (and after start()): the
  /// maximum VertexId, never reached.
  VertexId reach_limit() const noexcept { return reach_limit_; }
  void set_reach_limit(VertexId vertices) noexcept { reach_limit_ = vertices; }
  /// Uploads the host's visits order[begin, end) (their ids: the order slice and the visited
  /// bits; their distances and parents stay on the host, where collect() takes them) and sets
  /// the device's order tail to end. Async on stream: one copy and one kernel (the BFS's first
  /// upload, of at most 1,024 visits: one kernel).
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
  /// Launches a kernel that does nothing on the stream (no wait). The executor calls it after a
  /// BFS's host work (result gathering, learning): the host's next CUDA calls then find the
  /// driver's launch path in its caches. Back to back, the first device level of the next BFS
  /// took ~8-23 us less host time (uniform:1048576:8, wave, kron:22, soc-Slashdot0902; H100
  /// host, 2026-11-24); a caller who pauses between BFSs pays the cold path anyway.
  void warm_launch_path();
  /// Whether the run starting now should prefetch the CSR into the L2 (one_block's idle SMs:
  /// runtime/l2_prefetch.cuh): true once a BFS (start() arms it, this disarms it), and only
  /// where the CSR (row offsets and arcs) takes at most half the L2.
  bool take_l2_prefetch() noexcept {
    const bool take = l2_prefetch_armed_ && csr_fits_l2_;
    l2_prefetch_armed_ = false;
    return take;
  }
  /// Ends a device run: copies the counters into h_counters after the work queued on stream,
  /// records stop, and synchronizes on it (the host reads the counters next). Returns the
  /// microseconds between start and stop. For kernels that do not publish their counters.
  double download_counters(const Event& start, Event& stop);
  /// The number the next device level (or run) of `kernel` (a name, for errors) publishes its
  /// counters under: pass it to the kernel that ends the level (publish_counters), then
  /// wait_counters() for it.
  unsigned int next_sequence(const char* kernel) noexcept {
    sequence_kernel_ = kernel;
    return ++sequence_;
  }
  /// Waits until the device has published the counters numbered `sequence` into h_counters
  /// (mapped host memory), polling them, and returns the level's device time (end_ns -
  /// start_ns) in microseconds. The host reads h_counters and h_level_log next; the kernel
  /// may still be finishing, and later work on stream is ordered after it. A level read back
  /// this way took 8.3-9.7 us of host time where a copy and an event synchronization took
  /// 14.4-18.5 (bench/round_trip_probe.cu, H100, 2026-11-24).
  /// @throws CudaError if the work failed; Error if it ended without publishing.
  double wait_counters(unsigned int sequence);
  /// Host work for the next wait_counters() to do once, before it polls, while the device runs
  /// the level (nullptr: none). The executor warms its next decision there (a decision between
  /// two device levels took 0.6-1.0 us, its code and data cold after the driver's launch path;
  /// ~0.2 back to back; H100 host, 2026-11-26). work must not use the device's buffers. The
  /// wait clears it before calling it; set_wait_work(nullptr, nullptr) clears it unused.
  void set_wait_work(void (*work)(void*), void* context) noexcept {
    wait_work_ = work;
    wait_work_context_ = context;
  }
  /// An event every wait_counters() records on stream before it polls (nullptr: none), so
  /// that it marks the end of the device level (or run) just waited for in stream order: its
  /// last kernel's completion (a run's device-launched links included: tail launches complete
  /// with the graph that launched them). The executor times a BFS whose last level ran on the
  /// device to it, as GPU BFS codes time their kernels with events, rather than to an event
  /// recorded after the host has read the level's counters and found the BFS over.
  void set_level_end_event(Event* event) noexcept {
    level_end_event_ = event;
    level_end_marked_ = false;
  }
  /// How many times wait_counters() has recorded that event: a level that launched nothing (a
  /// frontier without arcs) did not record it.
  unsigned long long level_end_records() const noexcept { return level_end_records_; }
  /// Records the level-end event now (as the next wait_counters() would before it polls): a
  /// strategy that launches more work before waiting (a level launched ahead, below) marks
  /// where the level just launched ends first. That wait then records nothing.
  void mark_level_end();

  /// A level launched ahead: its kernel is queued behind the level that runs now and waits at
  /// its start, on a gate, for the host's decision on that next level: open_gate() lets it run
  /// (the decision chose it), cancel_gate() makes it return at once, touching nothing. The
  /// level after a bottom-up level so starts when the host has decided, without the launch's
  /// host call and its way to the device (gather_pull). arm_gate() takes the sequence number
  /// the queued kernel publishes under (next_sequence) and returns the host gate's device
  /// pointer (nullptr: launch it without a gate, as for a number with the top bit set, every
  /// 2^31 levels); the kernel also uses device_gate() (runtime/launch_gate.cuh). One gate at a
  /// time: a queued kernel must be opened or cancelled before the stream is synchronized or
  /// waited for, or both wait for ever; wait_counters() cancels a gate armed before the level
  /// it waits for, move_to_host(), collect(), flush_l2() and the checkpoints cancel any, and
  /// the executor cancels it where its decision chose another strategy and when a BFS ends. A
  /// gate left shut for 2 s cancels itself on the device (the level then never publishes: an
  /// error).
  const unsigned int* arm_gate(const void* owner, int level, unsigned int sequence);
  /// Whether a kernel `owner` queued for `level` waits at the gate.
  bool gate_armed_for(const void* owner, int level) const noexcept {
    return gate_owner_ != nullptr && gate_owner_ == owner && gate_level_ == level;
  }
  bool gate_armed() const noexcept { return gate_owner_ != nullptr; }
  /// Lets the queued kernel run; returns the sequence number it publishes under.
  unsigned int open_gate() noexcept;
  /// Makes the queued kernel return (no-op without one).
  void cancel_gate() noexcept;
  unsigned int* device_gate() const noexcept { return d_gate_.data(); }
  /// Sets frontier_bits(parity) to the vertices order[begin, end) (device order). Async on
  /// stream: a memset and one kernel.
  void queue_to_bitmap(VertexId begin, VertexId end, unsigned int parity);

  /// Saves the visit state at a level boundary (visited bitmaps on both sides, the level
  /// counters, which visits live only on the device) so that restore_checkpoint() can undo the
  /// levels run since: distances, parents and order slots beyond the checkpoint are meaningful
  /// only where the visited bit is set, so they need no saving. The device copy is async on
  /// stream. Needs a BfsBuffers built with checkpoints.
  void save_checkpoint();
  /// Returns to the last saved checkpoint (async on stream for the device side).
  void restore_checkpoint();
  /// Evicts what the device's L2 holds: a memset, async on stream, of a buffer of twice its
  /// size (allocated at the first call). PlanOptions::cold_trials. No-op without a device.
  void flush_l2();

  /// Frontier bitmap of level parity (0 or 1): visited_words words.
  std::uint32_t* frontier_bits(unsigned int parity) const noexcept {
    return d_frontier_bits_.data() + (parity & 1u) * visited_words;
  }
  /// In-neighbours on the device (reverse CSR; the forward CSR when the graph is undirected).
  const EdgeOffset* d_in_offsets() const noexcept {
    return graph_.directed() ? d_reverse.row_offsets.data() : d_graph.row_offsets.data();
  }
  const VertexId* d_in_indices() const noexcept {
    return graph_.directed() ? d_reverse.column_indices.data() : d_graph.column_indices.data();
  }
  /// Stream-ordered scratch of 3 * |V| words for kernels on stream(): free between the
  /// conversions, which use it, and collect().
  std::uint32_t* d_scratch() const noexcept { return d_stage_.data(); }

  // Host state. h_visited: visited_words = ceil(|V|/32) words (pinned when a device is used);
  // h_dist, h_parent, h_order: |V|.
  std::uint32_t* h_visited = nullptr;
  std::size_t visited_words = 0;
  std::vector<std::int32_t> h_dist;
  std::vector<VertexId> h_parent;
  std::vector<VertexId> h_order;

  // Device state (empty when has_device() is false). Same shapes as the host state.
  DeviceGraph d_graph;
  DeviceGraph d_reverse;  ///< directed graphs only (see d_in_offsets())
  DeviceBuffer<std::uint32_t> d_visited;
  DeviceBuffer<std::int32_t> d_dist;
  DeviceBuffer<VertexId> d_parent;
  DeviceBuffer<VertexId> d_order;
  DeviceBuffer<LevelCounters> d_counters;
  /// Mapped: kernels publish into it (its host pointer is valid on the device).
  PinnedBuffer<LevelCounters> h_counters;
  /// kLevelLogCapacity records each. Device-driven runs write d_level_log as they go and copy
  /// their records into the mapped h_level_log at the end; the host reads it after the run's
  /// synchronization.
  DeviceBuffer<DeviceLevelRecord> d_level_log;
  PinnedBuffer<DeviceLevelRecord> h_level_log;
  int multiprocessors = 0;
  int l2_cache_bytes = 0;  ///< the device's L2 (cost features: what misses it)

 private:
  Graph graph_;
  bool has_device_ = false;
  std::size_t huge_page_bytes_ = 0;
  // A BFS's first upload of at most kCapacity visits (count) in one kernel (first_upload).
  template <VertexId kCapacity>
  void upload_fused(VertexId count);
  bool device_cleared_ = false;
  bool csr_fits_l2_ = false;       // take_l2_prefetch
  bool l2_prefetch_armed_ = false;
  unsigned int sequence_ = 0;  // the last number next_sequence() gave
  std::int64_t parallel_visits_ = 0;  // host loops over more visits than this run on the team
  const char* sequence_kernel_ = "";
  std::unique_ptr<Event> work_done_;  // wait_counters: recorded after the work it waits for
  void (*wait_work_)(void*) = nullptr;  // set_wait_work
  void* wait_work_context_ = nullptr;
  Event* level_end_event_ = nullptr;  // set_level_end_event
  unsigned long long level_end_records_ = 0;
  bool level_end_marked_ = false;  // mark_level_end() since the last wait_counters()
  // The gate of a level launched ahead (arm_gate): the host's word (mapped), the device's copy
  // that block 0 relays it to, and what is queued behind it (owner nullptr: nothing).
  PinnedBuffer<unsigned int> h_gate_;
  DeviceBuffer<unsigned int> d_gate_;
  const void* gate_owner_ = nullptr;
  int gate_level_ = 0;
  unsigned int gate_sequence_ = 0;
  void write_gate(unsigned int value) noexcept;
  // What start() clears of h_visited: with host_visited_sparse_, the words of the host's own
  // visits of the last BFS (slices of h_order) and of its source; else all of it.
  void clear_host_visited();
  std::vector<std::pair<VertexId, VertexId>> host_visits_;
  bool host_visited_sparse_ = false;
  bool host_visited_overwritten_ = false;  // by a download or a checkpoint restore since start()
  VertexId last_source_ = 0;
  VertexId reach_limit_ = std::numeric_limits<VertexId>::max();
  std::unique_ptr<Stream> stream_;
  std::vector<std::uint32_t> h_visited_pageable_;
  PinnedBuffer<std::uint32_t> h_visited_pinned_;
  // Order slices [begin, end) whose ids, distances and parents exist only on the device.
  std::vector<std::pair<VertexId, VertexId>> device_visits_;
  // Staging for the moves (ids) and collect() (3 * |V| words, [order | distance | parent]).
  DeviceBuffer<std::uint32_t> d_stage_;
  PinnedBuffer<std::uint32_t> h_stage_;
  DeviceBuffer<std::uint32_t> d_frontier_bits_;
  // The checkpoint (save_checkpoint / restore_checkpoint).
  bool has_checkpoints_ = false;
  std::vector<std::uint32_t> h_visited_saved_;
  DeviceBuffer<std::uint32_t> d_visited_saved_;
  DeviceBuffer<LevelCounters> d_counters_saved_;
  std::size_t device_visits_saved_ = 0;
  bool device_cleared_saved_ = false;
  DeviceBuffer<std::uint8_t> d_l2_flush_;  // flush_l2
};

/// Bytes of device memory a BfsBuffers (and the privatized_queue scan buffer) needs for graph,
/// including the reverse CSR of a directed graph.
std::size_t device_bytes_needed(const Graph& graph);

}  // namespace abfs::detail
