// Allocation of the BFS state and the host <-> device conversions of the visited state.

#include "runtime/bfs_buffers.hpp"

#include "graph/host_pages.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace abfs::detail {
namespace {

constexpr int kThreads = 256;
// Below this many visits a host loop is faster serial than on an OpenMP team that is awake.
constexpr std::int64_t kParallelVisits = 1 << 15;
// Serial visits per us of a host loop over visits (for parallel_visits_).
constexpr double kSerialVisitsPerUs = 50.0;

/// Gathers id, distance and parent of order[0, count) into stage_order, stage_dist and
/// stage_parent (count each).
__global__ void gather_visits(const VertexId* __restrict__ order, VertexId count, const std::int32_t* __restrict__ dist,
                              const VertexId* __restrict__ parent, VertexId* __restrict__ stage_order,
                              std::int32_t* __restrict__ stage_dist, VertexId* __restrict__ stage_parent) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const VertexId v = order[i];
  stage_order[i] = v;
  stage_dist[i] = dist[v];
  stage_parent[i] = parent[v];
}

/// Resets the level counters to an order tail of order_tail (one thread). Field by field: nvcc
/// 13.0 compiled `*counters = LevelCounters{...}` in first_upload<1024>, once the struct had
/// grown to 72 bytes, into a copy of the kernel's first parameter (the visits), which left
/// garbage in blocks_done.
__device__ void reset_counters(LevelCounters* counters, VertexId order_tail) {
  counters->order_tail = order_tail;
  counters->overflow_pushes = 0u;
  counters->next_edges[0] = 0ull;
  counters->next_edges[1] = 0ull;
  counters->final_edges = 0ull;
  counters->levels = 0u;
  counters->stop = 0u;
  counters->blocks_done = 0u;
  counters->launch_error = 0u;
  counters->sequence = 0u;
  counters->start_ns = 0ull;
  counters->end_ns = 0ull;
}

/// Applies count host visits, their ids in ids: appends them to order_slice, sets their visited
/// bits, and resets the level counters to order_tail (one thread), so the next device level
/// appends after them. Their distances and parents stay on the host: no device kernel reads a
/// distance or a parent, and collect() takes the host's visits from the host.
__global__ void scatter_visits(const VertexId* __restrict__ ids, VertexId count, VertexId* __restrict__ order_slice,
                               std::uint32_t* visited, LevelCounters* counters, VertexId order_tail) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i == 0) reset_counters(counters, order_tail);
  if (i >= count) return;
  const VertexId v = ids[i];
  order_slice[i] = v;
  atomicOr(&visited[v >> 5], 1u << (v & 31));
}

/// A BFS's first upload of at most kCapacity visits' ids, in the kernel's parameters (4 bytes a
/// visit: up to 32 KiB of parameters since CUDA 12.1 on Volta and later).
template <VertexId kCapacity>
struct FusedVisits {
  VertexId count;
  VertexId order[kCapacity];
};
constexpr VertexId kFusedVisitsSmall = 32;
constexpr VertexId kFusedVisitsLarge = 1024;

/// The first upload in one launch: a thread per word of the visited bitmap clears it; the last
/// block to finish (a ticket on counters->blocks_done, which is 0 between kernels) then sets the
/// visits' bits, appends them to the order and resets the level counters (to order_tail =
/// visits.count). Replaces a memset, a copy and scatter_visits: after a pause each CUDA call
/// costs 10-60 us more of host time (bench/idle_probe.cu, H100, 2026-11-22).
template <VertexId kCapacity>
__global__ void first_upload(const FusedVisits<kCapacity> visits, std::uint32_t* visited, std::size_t words,
                             VertexId* order, LevelCounters* counters) {
  __shared__ bool last_block;
  const std::uint64_t w = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (w < words) visited[w] = 0;
  __threadfence();  // every clear before this block's ticket
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(&counters->blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (VertexId k = threadIdx.x; k < visits.count; k += blockDim.x) {
    const VertexId v = visits.order[k];
    order[k] = v;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
  }
  if (threadIdx.x == 0) reset_counters(counters, visits.count);
}

/// Does nothing: BfsBuffers::warm_launch_path's launch.
__global__ void no_work() {}

/// Sets bit v of bits for every v in frontier[0, count).
__global__ void scatter_frontier(const VertexId* __restrict__ frontier, VertexId count, std::uint32_t* bits) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const VertexId v = frontier[i];
  atomicOr(&bits[v >> 5], 1u << (v & 31));
}

unsigned int blocks_for(VertexId count) {
  return static_cast<unsigned int>(std::max<VertexId>(1, (count + kThreads - 1) / kThreads));
}

/// Bytes of one CSR of graph (row offsets and arcs), as uploaded.
std::size_t csr_bytes(const Graph& graph) {
  return (std::size_t{graph.num_vertices()} + 1) * sizeof(EdgeOffset) + graph.num_edges() * sizeof(VertexId);
}

}  // namespace

std::size_t device_bytes_needed(const Graph& graph) {
  const std::size_t n = graph.num_vertices();
  const std::size_t words = (n + 31) / 32;
  return csr_bytes(graph)                                                      // CSR
         + words * sizeof(std::uint32_t) + 3 * n * sizeof(std::uint32_t)     // visited, dist, parent, order
         + 3 * n * sizeof(std::uint32_t)                                       // staging
         + n * sizeof(EdgeOffset)                                              // privatized_queue degree scan
         + 2 * words * sizeof(std::uint32_t)                                   // frontier bitmaps
         + kLevelLogCapacity * sizeof(DeviceLevelRecord)                        // level log
         + (graph.directed() ? csr_bytes(graph) : 0);                         // reverse CSR
}

BfsBuffers::BfsBuffers(const Graph& graph, bool use_device, bool checkpoints)
    : graph_(graph), has_device_(use_device), has_checkpoints_(checkpoints) {
  const std::size_t n = graph.num_vertices();
  const std::size_t words = (n + 31) / 32;
  visited_words = words;
  // A BFS's host levels read the CSR and write these arrays at random: in huge pages. The
  // graph's loaders and generators put the CSR there as they write it (resize_in_huge_pages);
  // use_huge_pages finds those blocks huge at ~0.3 us each and collapses those of a CSR built
  // elsewhere (~2 ms a block on the development host, once).
  const Csr& csr = graph.csr();
  huge_page_bytes_ += use_huge_pages(csr.row_offsets.data(), csr.row_offsets.size() * sizeof(EdgeOffset));
  huge_page_bytes_ += use_huge_pages(csr.column_indices.data(), csr.column_indices.size() * sizeof(VertexId));
  huge_page_bytes_ += resize_in_huge_pages(h_dist, n);
  huge_page_bytes_ += resize_in_huge_pages(h_parent, n);
  huge_page_bytes_ += resize_in_huge_pages(h_order, n);
  if (checkpoints) h_visited_saved_.assign(words, 0);
  // The OpenMP team that cpu_expand's large levels and large uploads run on. libgomp starts its
  // threads at a thread's first parallel region: in a BFS that was one level's 7.2 ms (an upload
  // of ~50,000 visits before luxembourg_osm's first one_block run, H100 host, 2026-11-22).
  run_openmp_team();
  // A parallel loop over visits (uploads, collect) pays the team's wake, which is 60-4,000 us
  // depending on the host (team_wake_us): wake it only for loops it pays back, at ~20 ns a
  // serial visit (two random reads).
  parallel_visits_ = std::max<std::int64_t>(kParallelVisits,
                                            static_cast<std::int64_t>(team_wake_us() * kSerialVisitsPerUs));
  if (!use_device) {
    huge_page_bytes_ += resize_in_huge_pages(h_visited_pageable_, words);
    h_visited = h_visited_pageable_.data();
    return;
  }

  const DeviceMemory mem = device_memory();
  const std::size_t needed = device_bytes_needed(graph);
  if (needed > mem.free_bytes) {
    throw OutOfMemory("graph " + graph.name() + " needs " + std::to_string(needed) + " bytes of device memory, " +
                          std::to_string(mem.free_bytes) + " are free",
                      needed);
  }
  stream_ = std::make_unique<Stream>();
  int device = 0;
  ABFS_CUDA_CHECK(cudaGetDevice(&device));
  ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&l2_cache_bytes, cudaDevAttrL2CacheSize, device));
  csr_fits_l2_ = csr_bytes(graph) <= static_cast<std::size_t>(l2_cache_bytes) / 2;

  auto upload = [&](const Csr& csr, DeviceGraph& to) {
    to.row_offsets = DeviceBuffer<EdgeOffset>(n + 1);
    to.column_indices = DeviceBuffer<VertexId>(csr.column_indices.size());
    ABFS_CUDA_CHECK(cudaMemcpyAsync(to.row_offsets.data(), csr.row_offsets.data(), to.row_offsets.bytes(),
                                    cudaMemcpyHostToDevice, stream()));
    ABFS_CUDA_CHECK(cudaMemcpyAsync(to.column_indices.data(), csr.column_indices.data(), to.column_indices.bytes(),
                                    cudaMemcpyHostToDevice, stream()));
  };
  upload(graph.csr(), d_graph);
  if (graph.directed()) upload(graph.reverse_csr(), d_reverse);  // bottom-up levels scan in-neighbours
  d_visited = DeviceBuffer<std::uint32_t>(words);
  d_dist = DeviceBuffer<std::int32_t>(n);
  d_parent = DeviceBuffer<VertexId>(n);
  d_order = DeviceBuffer<VertexId>(n);
  d_counters = DeviceBuffer<LevelCounters>(1);
  // blocks_done is a ticket counter that every kernel using it leaves at 0.
  ABFS_CUDA_CHECK(cudaMemsetAsync(d_counters.data(), 0, sizeof(LevelCounters), stream()));
  h_counters = PinnedBuffer<LevelCounters>(1, cudaHostAllocMapped);
  work_done_ = std::make_unique<Event>(cudaEventDisableTiming);
  *h_counters.data() = LevelCounters{};
  h_gate_ = PinnedBuffer<unsigned int>(1, cudaHostAllocMapped);  // zero: no level's value
  d_gate_ = DeviceBuffer<unsigned int>(1);
  ABFS_CUDA_CHECK(cudaMemsetAsync(d_gate_.data(), 0, sizeof(unsigned int), stream()));
  // A bitmap of 64 pages or more in a huge page of its own (kron:22's: 128); a smaller one is
  // not worth a pinned 2 MiB.
  h_visited_pinned_ = words * sizeof(std::uint32_t) >= kHugePageBytes / 8
                          ? PinnedBuffer<std::uint32_t>(words, InHugePages{})
                          : PinnedBuffer<std::uint32_t>(words);
  h_visited = h_visited_pinned_.data();
  huge_page_bytes_ += h_visited_pinned_.huge_page_bytes();
  d_stage_ = DeviceBuffer<std::uint32_t>(3 * n);
  h_stage_ = PinnedBuffer<std::uint32_t>(3 * n);
  d_frontier_bits_ = DeviceBuffer<std::uint32_t>(2 * words);
  d_level_log = DeviceBuffer<DeviceLevelRecord>(kLevelLogCapacity);
  h_level_log = PinnedBuffer<DeviceLevelRecord>(kLevelLogCapacity, cudaHostAllocMapped);
  if (checkpoints) {
    d_visited_saved_ = DeviceBuffer<std::uint32_t>(words);
    d_counters_saved_ = DeviceBuffer<LevelCounters>(1);
  }
  for (const void* kernel : {reinterpret_cast<const void*>(gather_visits), reinterpret_cast<const void*>(scatter_visits),
                             reinterpret_cast<const void*>(first_upload<kFusedVisitsSmall>),
                             reinterpret_cast<const void*>(first_upload<kFusedVisitsLarge>),
                             reinterpret_cast<const void*>(scatter_frontier),
                             reinterpret_cast<const void*>(no_work)}) {
    preload_kernel(kernel);
  }
  // The graph upload reads pageable host memory; finish it before the plan is used.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

void BfsBuffers::clear_host_visited() {
  // A BFS run on the device sets few host bits. Clearing the whole bitmap took 60 us a BFS on
  // kron:22 (512 KiB), 110 on uniform:8388608:8 and 200-250 on kron:24, ~10% of their BFS
  // (H100 host, 2026-11-24). A random word write costs what ~16 words of the fill do.
  constexpr std::size_t kWordsPerVisit = 16;
  std::size_t visits = 0;
  for (const auto& [begin, end] : host_visits_) visits += end - begin;
  if (!host_visited_sparse_ || visits * kWordsPerVisit > visited_words) {
    std::fill(h_visited, h_visited + visited_words, 0u);
  } else {
    h_visited[last_source_ >> 5] = 0u;
    for (const auto& [begin, end] : host_visits_) {
      for (VertexId i = begin; i < end; ++i) h_visited[h_order[i] >> 5] = 0u;
    }
  }
  host_visits_.clear();
  host_visited_sparse_ = false;
  host_visited_overwritten_ = false;
}

void BfsBuffers::start(VertexId source) {
  clear_host_visited();
  last_source_ = source;
  reach_limit_ = std::numeric_limits<VertexId>::max();
  h_visited[source >> 5] |= 1u << (source & 31);
  h_dist[source] = 0;
  h_parent[source] = source;
  h_order[0] = source;
  device_cleared_ = false;
  device_visits_.clear();
  l2_prefetch_armed_ = true;
}

template <VertexId kCapacity>
void BfsBuffers::upload_fused(VertexId count) {
  FusedVisits<kCapacity> visits{};
  visits.count = count;
  std::copy(h_order.begin(), h_order.begin() + count, visits.order);
  const cudaStream_t s = stream();
  first_upload<kCapacity><<<blocks_for(static_cast<VertexId>(visited_words)), kThreads, 0, s>>>(
      visits, d_visited.data(), visited_words, d_order.data(), d_counters.data());
  ABFS_CHECK_LAUNCH(s);
}

void BfsBuffers::move_to_device(VertexId begin, VertexId end) {
  const cudaStream_t s = stream();
  if (!device_cleared_ && begin == 0 && end <= kFusedVisitsLarge) {
    if (end <= kFusedVisitsSmall) {
      upload_fused<kFusedVisitsSmall>(end);
    } else {
      upload_fused<kFusedVisitsLarge>(end);
    }
    device_cleared_ = true;
    return;
  }
  if (!device_cleared_) {
    ABFS_CUDA_CHECK(cudaMemsetAsync(d_visited.data(), 0, d_visited.bytes(), s));
    device_cleared_ = true;
  }
  // The staging buffer is free: the last upload from it was followed by a device level, which
  // synchronizes before returning, or ended the BFS, and collect() synchronizes before reuse.
  // The ids alone, a copy of an order slice: staging each visit's distance and parent as well
  // read h_dist and h_parent at random, 4-7 us a thousand visits (luxembourg_osm's moves of
  // 16,000-28,000 host visits to one_block took 65-160 us of host time, H100 host, 2026-11-28),
  // and no device kernel reads them (scatter_visits).
  const VertexId count = end - begin;
  std::uint32_t* stage = h_stage_.data();
  std::copy(h_order.begin() + begin, h_order.begin() + end, stage);
  if (count > 0) {
    ABFS_CUDA_CHECK(
        cudaMemcpyAsync(d_stage_.data(), stage, std::size_t{count} * sizeof(VertexId), cudaMemcpyHostToDevice, s));
  }
  scatter_visits<<<blocks_for(count), kThreads, 0, s>>>(d_stage_.data(), count, d_order.data() + begin,
                                                        d_visited.data(), d_counters.data(), end);
  ABFS_CHECK_LAUNCH(s);
}

void BfsBuffers::move_to_host(VertexId begin, VertexId frontier_begin, VertexId end) {
  cancel_gate();  // it synchronizes
  const cudaStream_t s = stream();
  ABFS_CUDA_CHECK(cudaMemcpyAsync(h_visited, d_visited.data(), d_visited.bytes(), cudaMemcpyDeviceToHost, s));
  host_visited_overwritten_ = true;
  if (end > frontier_begin) {
    ABFS_CUDA_CHECK(cudaMemcpyAsync(h_order.data() + frontier_begin, d_order.data() + frontier_begin,
                                    (end - frontier_begin) * sizeof(VertexId), cudaMemcpyDeviceToHost, s));
  }
  if (end > begin) device_visits_.emplace_back(begin, end);
  // The host expands from this state next.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
}

double BfsBuffers::download_counters(const Event& start, Event& stop) {
  const cudaStream_t s = stream();
  ABFS_CUDA_CHECK(
      cudaMemcpyAsync(h_counters.data(), d_counters.data(), sizeof(LevelCounters), cudaMemcpyDeviceToHost, s));
  stop.record(s);
  // Synchronizes: the caller decides what runs next from the counters.
  ABFS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  return elapsed_ms(start, stop) * 1000.0;
}

void BfsBuffers::mark_level_end() {
  if (level_end_event_ != nullptr) {
    level_end_event_->record(stream());
    ++level_end_records_;
  }
  level_end_marked_ = true;
}

const unsigned int* BfsBuffers::arm_gate(const void* owner, int level, unsigned int sequence) {
  ABFS_EXPECTS(gate_owner_ == nullptr && owner != nullptr, "arm_gate: a kernel already waits at the gate");
  // The word tells a cancelled kernel by its top bit: numbers with it (every 2^31 levels) and 0
  // (the word's first value) launch without the gate.
  if ((sequence & kGateCancelled) != 0 || sequence == 0) return nullptr;
  gate_owner_ = owner;
  gate_level_ = level;
  gate_sequence_ = sequence;
  return h_gate_.data();
}

void BfsBuffers::write_gate(unsigned int value) noexcept {
  std::atomic_thread_fence(std::memory_order_release);  // what the host wrote before, first
  *static_cast<volatile unsigned int*>(h_gate_.data()) = value;
  gate_owner_ = nullptr;
}

unsigned int BfsBuffers::open_gate() noexcept {
  const unsigned int sequence = gate_sequence_;
  write_gate(sequence);
  return sequence;
}

void BfsBuffers::cancel_gate() noexcept {
  if (gate_owner_ != nullptr) write_gate(gate_sequence_ | kGateCancelled);
}

double BfsBuffers::wait_counters(unsigned int sequence) {
  // A kernel queued ahead of the level waited for would hold it back for ever.
  if (gate_owner_ != nullptr && static_cast<int>(sequence - gate_sequence_) > 0) cancel_gate();
  if (!level_end_marked_) mark_level_end();  // while the device runs the level
  level_end_marked_ = false;
  if (wait_work_ != nullptr) {
    void (*work)(void*) = wait_work_;
    wait_work_ = nullptr;
    work(wait_work_context_);
  }
  const volatile LevelCounters* published = h_counters.data();
  bool marked = false;
  for (unsigned int spins = 1; published->sequence != sequence; ++spins) {
    if ((spins & 4095u) == 0) {  // every 4,096 polls (~0.1-0.2 ms): work that failed or ended ends the wait
      // An event recorded after the work says when it is over; only where a wait lasts, since
      // a record costs ~1 us of host time.
      if (!marked) {
        work_done_->record(stream());
        marked = true;
      }
      const cudaError_t status = cudaEventQuery(work_done_->get());
      if (status == cudaSuccess && published->sequence != sequence) {
        LevelCounters device{};
        ABFS_CUDA_CHECK(cudaMemcpy(&device, d_counters.data(), sizeof device, cudaMemcpyDeviceToHost));
        throw Error(std::string("a device level of ") + sequence_kernel_ +
                    " ended without publishing its counters (number " + std::to_string(sequence) +
                    ", last published " + std::to_string(published->sequence) +
                    "; on the device: order tail " + std::to_string(device.order_tail) + ", blocks done " +
                    std::to_string(device.blocks_done) + ")");
      }
      if (status != cudaErrorNotReady) ABFS_CUDA_CHECK(status);
    }
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  std::atomic_thread_fence(std::memory_order_acquire);  // the counters after their number
  const LevelCounters& c = *h_counters.data();
  return c.end_ns > c.start_ns ? static_cast<double>(c.end_ns - c.start_ns) / 1000.0 : 0.0;
}

void BfsBuffers::save_checkpoint() {
  cancel_gate();
  ABFS_EXPECTS(has_checkpoints_, "save_checkpoint needs a BfsBuffers built with checkpoints");
  std::copy(h_visited, h_visited + visited_words, h_visited_saved_.begin());
  device_visits_saved_ = device_visits_.size();
  device_cleared_saved_ = device_cleared_;
  if (!has_device_) return;
  const cudaStream_t s = stream();
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_visited_saved_.data(), d_visited.data(), d_visited.bytes(),
                                  cudaMemcpyDeviceToDevice, s));
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_counters_saved_.data(), d_counters.data(), sizeof(LevelCounters),
                                  cudaMemcpyDeviceToDevice, s));
}

void BfsBuffers::flush_l2() {
  cancel_gate();
  if (!has_device_) return;
  if (d_l2_flush_.size() == 0) {
    d_l2_flush_ = DeviceBuffer<std::uint8_t>(2 * std::max<std::size_t>(static_cast<std::size_t>(l2_cache_bytes), 1u << 20));
  }
  ABFS_CUDA_CHECK(cudaMemsetAsync(d_l2_flush_.data(), 0, d_l2_flush_.size(), stream()));
}

void BfsBuffers::restore_checkpoint() {
  cancel_gate();
  ABFS_EXPECTS(has_checkpoints_, "restore_checkpoint needs a BfsBuffers built with checkpoints");
  std::copy(h_visited_saved_.begin(), h_visited_saved_.end(), h_visited);
  host_visited_overwritten_ = true;
  device_visits_.resize(device_visits_saved_);
  device_cleared_ = device_cleared_saved_;
  if (!has_device_) return;
  const cudaStream_t s = stream();
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_visited.data(), d_visited_saved_.data(), d_visited.bytes(),
                                  cudaMemcpyDeviceToDevice, s));
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_counters.data(), d_counters_saved_.data(), sizeof(LevelCounters),
                                  cudaMemcpyDeviceToDevice, s));
}

void BfsBuffers::queue_to_bitmap(VertexId begin, VertexId end, unsigned int parity) {
  const cudaStream_t s = stream();
  std::uint32_t* bits = frontier_bits(parity);
  ABFS_CUDA_CHECK(cudaMemsetAsync(bits, 0, visited_words * sizeof(std::uint32_t), s));
  if (end == begin) return;
  scatter_frontier<<<blocks_for(end - begin), kThreads, 0, s>>>(d_order.data() + begin, end - begin, bits);
  ABFS_CHECK_LAUNCH(s);
}

void BfsBuffers::warm_launch_path() {
  if (!has_device_) return;
  no_work<<<1, 32, 0, stream()>>>();
  ABFS_CHECK_LAUNCH(stream());
}

void BfsBuffers::collect(VertexId end, VertexId device_from, std::vector<std::int32_t>& distances,
                         std::vector<VertexId>& parents) {
  cancel_gate();  // it synchronizes
  const VertexId n = num_vertices();
  if (end > device_from) device_visits_.emplace_back(device_from, end);
  distances.assign(n, -1);
  parents.assign(n, kNoVertex);
  // Device visits: gather ids, distances and parents into one staged block [ids|dist|parent].
  VertexId staged = 0;
  for (const auto& [begin, stop] : device_visits_) staged += stop - begin;
  if (staged > 0) {
    const cudaStream_t s = stream();
    VertexId* stage_order = d_stage_.data();
    auto* stage_dist = reinterpret_cast<std::int32_t*>(d_stage_.data() + staged);
    VertexId* stage_parent = d_stage_.data() + 2 * std::size_t{staged};
    VertexId at = 0;
    for (const auto& [begin, stop] : device_visits_) {
      gather_visits<<<blocks_for(stop - begin), kThreads, 0, s>>>(d_order.data() + begin, stop - begin, d_dist.data(),
                                                                 d_parent.data(), stage_order + at, stage_dist + at,
                                                                 stage_parent + at);
      ABFS_CHECK_LAUNCH(s);
      at += stop - begin;
    }
    ABFS_CUDA_CHECK(cudaMemcpyAsync(h_stage_.data(), d_stage_.data(), 3 * std::size_t{staged} * sizeof(std::uint32_t),
                                    cudaMemcpyDeviceToHost, s));
  }
  // Host visits: the slices of [0, end) between the device slices (device_visits_ is ordered).
  VertexId host_begin = 0;
  auto copy_host_slice = [&](VertexId from, VertexId to) {
    if (to > from) host_visits_.emplace_back(from, to);  // the bits start() clears next
    const auto count = static_cast<std::int64_t>(to - from);
#pragma omp parallel for schedule(static) if (count > parallel_visits_)
    for (std::int64_t i = 0; i < count; ++i) {
      const VertexId v = h_order[from + static_cast<std::size_t>(i)];
      distances[v] = h_dist[v];
      parents[v] = h_parent[v];
    }
  };
  for (const auto& [begin, stop] : device_visits_) {
    copy_host_slice(host_begin, begin);
    host_begin = stop;
  }
  copy_host_slice(host_begin, end);
  host_visited_sparse_ = !host_visited_overwritten_;
  if (staged == 0) return;
  // The host reads the staged device visits next.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(stream()));
  const std::uint32_t* stage = h_stage_.data();
  const auto count = static_cast<std::int64_t>(staged);
#pragma omp parallel for schedule(static) if (count > parallel_visits_)
  for (std::int64_t i = 0; i < count; ++i) {
    const VertexId v = stage[i];
    distances[v] = static_cast<std::int32_t>(stage[count + i]);
    parents[v] = stage[2 * count + i];
  }
}

}  // namespace abfs::detail
