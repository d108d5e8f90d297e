// cpu_expand: top-down expansion of the frontier on the host, with OpenMP.
//
// Phases: each thread takes chunks of the frontier (dynamic schedule), claims unvisited
// neighbours with an atomic OR on the visited bitmap, and buffers them in a private queue that
// it appends to the visit order with one atomic per flush (the host analogue of the hierarchical
// queue). Frontiers with few arcs run serially: an OpenMP fork/join costs more than they do.
//
// Wins on the first and last levels, tiny frontiers and small graphs, where a GPU level's launch
// and host round trip (~15-30 us) dominate. Cost features: vertices and edges scanned, with the
// share of those edges expected to miss the host's caches.
// @see Harish & Narayanan, HiPC 2007 (the level-synchronous formulation); Beamer et al., SC 2012.

#include "strategies/strategy.hpp"

#include <omp.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>

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
    // features carry the share of arcs expected to miss (miss_share).
    const bool serial = state.frontier_edges < config_.serial_max_edges;
    const auto edges = static_cast<double>(state.frontier_edges);
    const double miss = miss_share(stats);
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
    return f;
  }

  void prepare(detail::BfsBuffers&) override {
    threads_ = std::max(1, omp_get_max_threads());
    cache_bytes_ = host_core_cache_bytes();
    private_queues_.assign(static_cast<std::size_t>(threads_) * config_.private_queue_capacity, 0);
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
    const Csr& csr = b.graph().csr();
    const std::int32_t next_level = c.level + 1;
    VertexId tail = c.frontier_end;
    EdgeOffset next_edges = 0;
    for (VertexId i = c.frontier_begin; i < c.frontier_end; ++i) {
      const VertexId u = b.h_order[i];
      for (EdgeOffset e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
        const VertexId v = csr.column_indices[e];
        const std::uint32_t bit = 1u << (v & 31);
        if (b.h_visited[v >> 5] & bit) continue;
        b.h_visited[v >> 5] |= bit;
        b.h_dist[v] = next_level;
        b.h_parent[v] = u;
        b.h_order[tail++] = v;
        next_edges += csr.row_offsets[v + 1] - csr.row_offsets[v];
      }
    }
    LevelOutcome out;
    out.next_frontier_vertices = tail - c.frontier_end;
    out.next_frontier_edges = next_edges;
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
  // reported last-level cache is no guide on a shared host (see cost_features).
  double miss_share(const GraphStats& stats) const {
    const double bytes = bfs_working_set_bytes(stats) + static_cast<double>(stats.num_vertices) / 8;
    if (bytes <= cache_bytes_) return 0.0;
    return std::min(1.0, std::log2(bytes / cache_bytes_) / 7.0);
  }

  CpuExpandConfig config_;
  double cache_bytes_ = 2.0 * 1024 * 1024;
  int threads_ = 1;
  std::vector<VertexId> private_queues_;
};

}  // namespace

std::unique_ptr<Strategy> make_cpu_expand() { return std::make_unique<CpuExpand>(); }

}  // namespace abfs::strategies
