// cpu_expand: top-down expansion of the frontier on the host, with OpenMP.
//
// Phases: each thread takes chunks of the frontier (dynamic schedule), claims unvisited
// neighbours with an atomic OR on the visited bitmap, and buffers them in a private queue that
// it appends to the visit order with one atomic per flush (the host analogue of the hierarchical
// queue). Frontiers with few arcs run serially: an OpenMP fork/join costs more than they do;
// the serial path claims neighbours in one pass (without a branch where many arcs discover)
// and writes distances, parents and the visit order in a second (expand_serial).
//
// Wins on the first and last levels, tiny frontiers and small graphs, where a GPU level's launch
// and host round trip (~15-30 us) dominate. Cost features: vertices and edges scanned, with the
// share of those edges expected to miss the host's caches.
// @see Harish & Narayanan, HiPC 2007 (the level-synchronous formulation); Beamer et al., SC 2012.

#include "strategies/strategy.hpp"

#include <abfs/error.hpp>

#include <omp.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <random>
#include <utility>
#include <vector>

namespace abfs::strategies {
namespace {

struct CpuExpandConfig {
  /// Frontiers with fewer arcs run serially. Serial expansion costs ~6 ns per arc (H100 host,
  /// 16 cores, 2026-11-22, email-Enron), while waking the OpenMP team after a pause cost up to
  /// 867 us (cnr-2000, level 11, 8,060 arcs): below 65,536 arcs (~0.4 ms serial) the team is
  /// not worth waking.
  EdgeOffset serial_max_edges = 1 << 16;
  /// Private queue entries per thread before a flush.
  std::size_t private_queue_capacity = 4096;
  /// Frontier vertices per dynamic-schedule chunk.
  int chunk = 64;
};

/// One core's L2 cache in bytes (glibc's sysconf, else sysfs), 2 MiB when neither says.
double host_core_cache_bytes() {
  const long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (bytes > 0) return static_cast<double>(bytes);
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index2/size");
  long kib = 0;
  if (in >> kib && kib > 0) return static_cast<double>(kib) * 1024.0;  // "2048K"
  return 2.0 * 1024 * 1024;
}

/// The next frontier's end in the visit order and its arcs (expand_serial).
struct SerialLevel {
  VertexId tail = 0;
  EdgeOffset next_edges = 0;
};

/// Serial top-down expansion of the frontier order[begin, end): appends each unvisited
/// neighbour to order from end on, marking it in the visited bitmap and writing its distance
/// (next_level) and parent. cpu_expand's serial path and its calibration probes
/// (measure_serial_arc_us, measure_serial_discovery_us) run this one loop.
///
/// Two passes. The first marks the bitmap and lists each discovery with its parent in `found`
/// (capacity: the level's discoveries + 1, the extra slot for the branch-free loop's store
/// past the last one); the second writes the visit order, distances and parents and sums the
/// next frontier's arcs. The first pass tests an arc's vertex with a branch (a predictable one)
/// on the rows that start after fewer than 1 in 8 of the level's arcs so far discovered, and
/// without one on the others (the first row too): there a branch mispredicts on about every
/// discovery. Whole serial BFSs from 16 random sources, medians, the one branchy loop before
/// against this (H100 host, 2026-11-27): rome99 117.5 -> 70.3 us, ca-AstroPh-lcc 1.32 -> 0.95
/// ms (all branch-free: 1.58), luxembourg_osm 3.03 -> 2.87 ms (all branch-free: 2.36);
/// email-Enron 0.641 -> 0.657 ms on the 2-core development host. In the plans (recalibrated),
/// rome99's all-host BFSs took 0.083-0.126 ms, then 0.041-0.072.
SerialLevel expand_serial(const Csr& csr, VertexId* order, VertexId begin, VertexId end, std::uint32_t* visited,
                          std::int32_t* dist, VertexId* parent, std::int32_t next_level, std::uint64_t* found) {
  VertexId count = 0;
  EdgeOffset arcs = 0;  // scanned so far
  for (VertexId i = begin; i < end; ++i) {
    const VertexId u = order[i];
    const std::uint64_t from = static_cast<std::uint64_t>(u) << 32;
    const EdgeOffset row_begin = csr.row_offsets[u];
    const EdgeOffset row_end = csr.row_offsets[u + 1];
    if (8 * static_cast<EdgeOffset>(count) >= arcs) {
      for (EdgeOffset e = row_begin; e < row_end; ++e) {
        const VertexId v = csr.column_indices[e];
        const std::uint32_t bit = 1u << (v & 31);
        const std::uint32_t word = visited[v >> 5];
        visited[v >> 5] = word | bit;
        found[count] = from | v;
        count += (word & bit) == 0 ? 1 : 0;
      }
    } else {
      for (EdgeOffset e = row_begin; e < row_end; ++e) {
        const VertexId v = csr.column_indices[e];
        const std::uint32_t bit = 1u << (v & 31);
        if (visited[v >> 5] & bit) continue;
        visited[v >> 5] |= bit;
        found[count++] = from | v;
      }
    }
    arcs += row_end - row_begin;
  }
  SerialLevel out;
  VertexId* next = order + end;
  for (VertexId k = 0; k < count; ++k) {
    const auto v = static_cast<VertexId>(found[k]);
    next[k] = v;
    dist[v] = next_level;
    parent[v] = static_cast<VertexId>(found[k] >> 32);
    out.next_edges += csr.row_offsets[v + 1] - csr.row_offsets[v];
  }
  out.tail = end + count;
  return out;
}

class CpuExpand final : public Strategy {
 public:
  const char* name() const override { return "cpu_expand"; }
  bool applicable(const FrontierState&) const override { return true; }
  FrontierIo frontier_io() const override {
    return {FrontierRepresentation::Queue, Location::Host, FrontierRepresentation::Queue, Location::Host};
  }
  CostFeatures cost_features(const FrontierState& state, const GraphStats& stats) const override {
    // Two paths with different fixed costs (serial, or an OpenMP team) and per-arc rates. An
    // arc costs a few ns while the graph and the visit state stay in the core's caches and ~40 ns
    // (a DRAM miss, barely overlapped) when they are far larger: uniform:1048576:8 (55 MB) and
    // uniform:2097152:8 took 42-45 ns per serial arc even in all-host BFSs, warm, although the
    // host reports a 300 MB L3 (H100 host, a 16-core VM slice, 2026-11-22). The *_dram_edges
    // features carry the share of arcs expected to miss (miss_share). A frontier on the device
    // comes down with the visited bitmap (the executor's download) into lines no host cache
    // holds, after device levels that left the rest cold: there every access misses. cpu_expand's
    // first level after device levels took 3.6-6x its price at the graph's share on
    // ca-AstroPh-lcc, email-Enron and soc-Slashdot0902 (10-23 ns an arc, 393-1,748 arcs); at
    // a share of 1 (the same levels, medians): ca-AstroPh-lcc 1.08x (18 levels),
    // soc-Slashdot0902 1.14x (19), email-Enron 0.72x (13), cnr-2000 0.38x (2; its near arcs
    // still share lines) (H100 host, 2026-11-26).
    // Calibration samples are all on the host (forced runs): the fit is the same either way.
    const bool serial = state.frontier_edges < config_.serial_max_edges;
    const auto edges = static_cast<double>(state.frontier_edges);
    const double miss = state.location == Location::Device ? 1.0 : miss_share(stats);
    CostFeatures f;
    f.add("serial_level", serial ? 1.0 : 0.0);
    f.add("parallel_level", serial ? 0.0 : 1.0);
    f.add("frontier_vertices", state.frontier_vertices);
    // Waking the team: libgomp's threads sleep once they have spun for a while without work,
    // which they always have when a level is decided after device levels or serial host
    // levels; a level a host run carries follows a level of the run. Its coefficient is
    // calibration's cpu_team_wake_us probe, not a fit (no calibration sample has a cold team):
    // email-Enron's parallel level of 92,473 arcs after device work took 272 us, 51 predicted
    // without it (H100 host, 2026-11-22).
    f.add("team_wake", serial || state.continues_run ? 0.0 : 1.0);
    f.add("serial_edges", serial ? edges : 0.0);
    f.add("parallel_edges", serial ? 0.0 : edges);
    f.add("serial_dram_edges", serial ? edges * miss : 0.0);
    f.add("parallel_dram_edges", serial ? 0.0 : edges * miss);
    // A serial arc to a visited vertex costs a bitmap read; one that discovers its vertex also
    // writes the distance, the parent and the visit order at random and reads its row offsets.
    // Priced by arcs alone, an early level (nearly every arc discovers) and a late one (nearly
    // none does) of one size cost several times apart: in an all-host BFS of
    // uniform:1048576:8, level 3's 4,096 arcs took 150 us and level 9's 6,312 took 37 (the
    // 2-core development host, 2026-11-25), and the arc-only fit priced the first serial levels
    // of the large graphs at 3-5 ns an arc where they took 80-180 (uniform:1048576:8,
    // uniform:8388608:8, kron:22, uniform:100000000:4; H100 host, 2026-11-25). serial_edges is
    // then calibration's probe (measure_serial_arc_us), not a fit: fitted beside these terms it
    // went to 0 (early levels' arcs and discoveries are collinear), and ca-AstroPh-lcc's late
    // host levels, priced by their discoveries alone, ran 1.32x the best single strategy. So is
    // serial_discovered (measure_serial_discovery_us, whole BFSs over a graph with ids in no
    // order): fitted on the sweep's grids and Kronecker graphs it came to ~1 ns, where the real
    // graphs' host levels took 14-36 ns a discovery more (planner/calibrate.cpp). The serial
    // path only: the parallel one has too few calibration samples for two more terms.
    const double discovered = serial ? expected_discovered(state, stats) : 0.0;
    f.add("serial_discovered", discovered);
    f.add("serial_dram_discovered", discovered * miss);
    return f;
  }

  void prepare(detail::BfsBuffers& b) override {
    threads_ = std::max(1, omp_get_max_threads());
    cache_bytes_ = host_core_cache_bytes();
    private_queues_.assign(static_cast<std::size_t>(threads_) * config_.private_queue_capacity, 0);
    // A serial level has fewer arcs than serial_max_edges, so at most as many discoveries.
    serial_found_.assign(std::min<std::size_t>(b.num_vertices(), config_.serial_max_edges) + 1, 0);
  }
  LevelOutcome run(LevelContext& context) override {
    // Two loops on purpose: folding the serial one into the parallel one with `omp parallel if`
    // cost ~1.7 us per level (luxembourg_osm, 1,068 levels: 6.3 ms against 4.5 ms on the 2-core
    // development host, 2026-11-22), since even a disabled region builds a team descriptor.
    return context.frontier_edges < config_.serial_max_edges ? run_serial(context) : run_parallel(context);
  }

 private:
  LevelOutcome run_serial(LevelContext& c) {
    auto& b = c.buffers;
    const SerialLevel level = expand_serial(b.graph().csr(), b.h_order.data(), c.frontier_begin, c.frontier_end,
                                            b.h_visited, b.h_dist.data(), b.h_parent.data(), c.level + 1,
                                            serial_found_.data());
    LevelOutcome out;
    out.next_frontier_vertices = level.tail - c.frontier_end;
    out.next_frontier_edges = level.next_edges;
    out.edges_examined = c.frontier_edges;
    return out;
  }

  LevelOutcome run_parallel(LevelContext& c) {
    auto& b = c.buffers;
    const Csr& csr = b.graph().csr();
    const std::int32_t next_level = c.level + 1;
    VertexId tail = c.frontier_end;
    EdgeOffset next_edges = 0;
    const auto begin = static_cast<std::int64_t>(c.frontier_begin);
    const auto end = static_cast<std::int64_t>(c.frontier_end);
    const std::size_t capacity = config_.private_queue_capacity;
    const int chunk = config_.chunk;
#pragma omp parallel num_threads(threads_) reduction(+ : next_edges)
    {
      VertexId* queue = private_queues_.data() + static_cast<std::size_t>(omp_get_thread_num()) * capacity;
      std::size_t count = 0;
      auto flush = [&] {
        const VertexId at = __atomic_fetch_add(&tail, static_cast<VertexId>(count), __ATOMIC_RELAXED);
        std::copy(queue, queue + count, b.h_order.data() + at);
        count = 0;
      };
#pragma omp for schedule(dynamic, chunk) nowait
      for (std::int64_t i = begin; i < end; ++i) {
        const VertexId u = b.h_order[static_cast<std::size_t>(i)];
        for (EdgeOffset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
          const VertexId v = csr.column_indices[e];
          const std::uint32_t bit = 1u << (v & 31);
          std::uint32_t* word = &b.h_visited[v >> 5];
          if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) != 0) continue;
          if ((__atomic_fetch_or(word, bit, __ATOMIC_RELAXED) & bit) != 0) continue;
          b.h_dist[v] = next_level;
          b.h_parent[v] = u;
          next_edges += csr.row_offsets[v + 1] - csr.row_offsets[v];
          queue[count++] = v;
          if (count == capacity) flush();
        }
      }
      if (count > 0) flush();
    }
    LevelOutcome out;
    out.next_frontier_vertices = tail - c.frontier_end;
    out.next_frontier_edges = next_edges;
    out.edges_examined = c.frontier_edges;
    return out;
  }

  // Share of a level's random accesses expected to miss the caches, from the bytes the BFS
  // touches at random (the CSR, distances, parents, the visit order, the visited bitmap): 0 up
  // to the core's L2, 1 from 128 times that (256 MiB for a 2 MiB L2), log-linear between. The
  // reported last-level cache is no guide on a shared host (see cost_features). Arcs that stay
  // near their vertex (GraphStats::near_arc_share) do not miss: priced by the graph's bytes
  // alone, the serial levels of the crawl-ordered and mesh graphs ran at 0.15x (cnr-2000),
  // 0.42x (uk-2007-05@100000) and 0.44x (wave) their price, medians of the per-level oracle's
  // trials, where uniform and Kronecker graphs ran at 0.6-1.2x (H100 host, 2026-11-26).
  double miss_share(const GraphStats& stats) const {
    const double bytes = bfs_working_set_bytes(stats) + static_cast<double>(stats.num_vertices) / 8;
    if (bytes <= cache_bytes_) return 0.0;
    return std::min(1.0, std::log2(bytes / cache_bytes_) / 7.0) * (1.0 - stats.near_arc_share);
  }

  CpuExpandConfig config_;
  double cache_bytes_ = 2.0 * 1024 * 1024;
  int threads_ = 1;
  std::vector<VertexId> private_queues_;
  std::vector<std::uint64_t> serial_found_;  // expand_serial's discoveries with their parents
};

}  // namespace

std::unique_ptr<Strategy> make_cpu_expand() { return std::make_unique<CpuExpand>(); }

namespace {

// The median of `samples` values of sample() (each a timed probe), after an untimed one that
// warms the caches.
template <typename Sample>
double median_after_warm_up(int samples, Sample sample) {
  std::vector<double> us;
  for (int r = 0; r <= samples; ++r) {
    const double value = sample();
    if (r > 0) us.push_back(value);
  }
  return detail::median_of_values(std::move(us));
}

}  // namespace

double measure_serial_arc_us(int levels) {
  if (levels < 1) throw InvalidArgument("measure_serial_arc_us: levels must be at least 1");
  // 2^14 vertices of out-degree 16 at random: 1.1 MB of CSR, the bitmap 2 KiB.
  constexpr VertexId kVertices = 1 << 14;
  const Graph graph = generate_uniform(kVertices, 16);
  const Csr& csr = graph.csr();
  std::vector<VertexId> order(kVertices * 2);
  for (VertexId u = 0; u < kVertices; ++u) order[u] = u;
  std::vector<std::uint32_t> visited(kVertices / 32, ~0u);  // every arc leads to a visited vertex
  std::vector<std::int32_t> dist(kVertices, 0);
  std::vector<VertexId> parent(kVertices, 0);
  std::uint64_t found = 0;  // room for the branch-free loop's store: no arc discovers
  return median_after_warm_up(levels, [&] {
    const auto start = std::chrono::steady_clock::now();
    const SerialLevel level = expand_serial(csr, order.data(), 0, kVertices, visited.data(), dist.data(),
                                            parent.data(), 1, &found);
    const double elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (level.tail != kVertices || level.next_edges != 0) {
      throw Error("measure_serial_arc_us: the probe level discovered vertices");  // and is not optimized away
    }
    return elapsed / static_cast<double>(csr.column_indices.size());
  });
}

double measure_serial_discovery_us(int samples, double arc_us, double level_us) {
  if (samples < 1) throw InvalidArgument("measure_serial_discovery_us: samples must be at least 1");
  // 2^14 vertices of out-degree 1-5 (3 on average) to vertices at random: ~0.6 MB of CSR and
  // visit state, within the host core's L2, with ids in no order and degrees that vary, as in
  // the real graphs (cf. a grid, whose row-major ids and regular visited / unvisited pattern the
  // sweep's serial levels mostly come from). A row's end then mispredicts as a real graph's do:
  // with every out-degree 3 (and 2^16 vertices) the probe measured 23.0 ns a discovery where
  // rome99's BFSs took ~16 with the two-pass expansion (H100 host, 2026-11-27).
  constexpr VertexId kVertices = 1 << 14;
  constexpr int kSources = 8;
  Csr csr;
  csr.row_offsets.assign(kVertices + 1, 0);
  std::mt19937 random(7);
  for (VertexId u = 0; u < kVertices; ++u) csr.row_offsets[u + 1] = csr.row_offsets[u] + 1 + random() % 5;
  csr.column_indices.resize(csr.row_offsets[kVertices]);
  for (VertexId& v : csr.column_indices) v = random() % kVertices;
  std::vector<VertexId> order(kVertices);
  std::vector<std::uint32_t> visited(kVertices / 32);
  std::vector<std::int32_t> dist(kVertices);
  std::vector<VertexId> parent(kVertices);
  std::vector<std::uint64_t> found(kVertices + 1);
  VertexId next_source = 0;
  return median_after_warm_up(samples, [&] {
    double us = 0.0, arcs = 0.0, levels = 0.0, discovered = 0.0;
    for (int s = 0; s < kSources; ++s) {
      std::fill(visited.begin(), visited.end(), 0u);
      const VertexId source = next_source;
      next_source = (next_source + 7919) % kVertices;
      visited[source >> 5] |= 1u << (source & 31);
      dist[source] = 0;
      parent[source] = source;
      order[0] = source;
      VertexId begin = 0, end = 1;
      EdgeOffset frontier_edges = csr.row_offsets[source + 1] - csr.row_offsets[source];
      // A host run's levels: the serial expansion and a clock read each (run_on_host).
      const auto start = std::chrono::steady_clock::now();
      std::chrono::steady_clock::time_point stamp = start;
      for (std::int32_t level = 0; begin < end; ++level) {
        const SerialLevel next = expand_serial(csr, order.data(), begin, end, visited.data(), dist.data(),
                                               parent.data(), level + 1, found.data());
        stamp = std::chrono::steady_clock::now();
        arcs += static_cast<double>(frontier_edges);
        levels += 1.0;
        frontier_edges = next.next_edges;
        begin = end;
        end = next.tail;
      }
      us += std::chrono::duration<double, std::micro>(stamp - start).count();
      discovered += static_cast<double>(end - 1);
    }
    if (discovered < kSources * (kVertices / 2.0)) {
      throw Error("measure_serial_discovery_us: the probe BFSs reached too few vertices");
    }
    return std::max(0.0, us - arcs * arc_us - levels * level_us) / discovered;
  });
}

double measure_serial_level_us(int levels) {
  if (levels < 1) throw InvalidArgument("measure_serial_level_us: levels must be at least 1");
  // A frontier of one vertex with no out-arcs, as a host run carries its last levels: the
  // serial expansion's call and a clock read (run_on_host stamps each level), per level.
  constexpr int kLevelsPerSample = 1000;
  Csr csr;
  csr.row_offsets = {0, 0};
  std::vector<VertexId> order(2, 0);
  std::uint32_t visited = 1u;
  std::int32_t dist = 0;
  VertexId parent = 0;
  std::uint64_t found = 0;
  return median_after_warm_up(levels, [&] {
    const auto start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point stamp = start;
    VertexId tails = 0;
    for (int k = 0; k < kLevelsPerSample; ++k) {
      tails += expand_serial(csr, order.data(), 0, 1, &visited, &dist, &parent, 1, &found).tail;
      stamp = std::chrono::steady_clock::now();
      asm volatile("" ::: "memory");  // each level reads the CSR again, as a host run's do
    }
    if (tails != static_cast<VertexId>(kLevelsPerSample)) {
      throw Error("measure_serial_level_us: the probe level discovered vertices");
    }
    return std::chrono::duration<double, std::micro>(stamp - start).count() / kLevelsPerSample;
  });
}

}  // namespace abfs::strategies
