// Allocation of the BFS state and the host <-> device conversions of the visited state.

#include "runtime/bfs_buffers.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace abfs::detail {
namespace {

constexpr int kThreads = 256;
// Below this many visits a host loop is faster serial than with an OpenMP fork/join.
[[maybe_unused]] constexpr std::int64_t kParallelVisits = 1 << 15;

/// Gathers distance and parent of order[0, count) into stage arrays (device -> host staging).
/// order: count ids; dist, parent: |V|; stage_dist, stage_parent: count. Async on stream.
__global__ void gather_visits(const VertexId* __restrict__ order, VertexId count, const std::int32_t* __restrict__ dist,
                              const VertexId* __restrict__ parent, std::int32_t* __restrict__ stage_dist,
                              VertexId* __restrict__ stage_parent) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const VertexId v = order[i];
  stage_dist[i] = dist[v];
  stage_parent[i] = parent[v];
}

/// Scatters staged visits of order[0, count) into the device state, setting visited bits.
__global__ void scatter_visits(const VertexId* __restrict__ order, VertexId count,
                               const std::int32_t* __restrict__ stage_dist, const VertexId* __restrict__ stage_parent,
                               std::uint32_t* visited, std::int32_t* __restrict__ dist, VertexId* __restrict__ parent) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const VertexId v = order[i];
  atomicOr(&visited[v >> 5], 1u << (v & 31));
  dist[v] = stage_dist[i];
  parent[v] = stage_parent[i];
}

unsigned int blocks_for(VertexId count) { return static_cast<unsigned int>((count + kThreads - 1) / kThreads); }

}  // namespace

std::size_t device_bytes_needed(const Graph& graph) {
  const std::size_t n = graph.num_vertices();
  const std::size_t words = (n + 31) / 32;
  return (n + 1) * sizeof(EdgeOffset) + graph.num_edges() * sizeof(VertexId)  // CSR
         + words * sizeof(std::uint32_t) + n * (sizeof(std::int32_t) + 2 * sizeof(VertexId))  // visited, dist, parent, order
         + n * (sizeof(std::int32_t) + sizeof(VertexId))  // staging
         + n * sizeof(EdgeOffset);  // privatized_queue degree scan
}

BfsBuffers::BfsBuffers(const Graph& graph, bool use_device) : graph_(graph), has_device_(use_device) {
  const std::size_t n = graph.num_vertices();
  const std::size_t words = (n + 31) / 32;
  h_visited.assign(words, 0);
  h_dist.resize(n);
  h_parent.resize(n);
  h_order.resize(n);
  if (!use_device) return;

  const DeviceMemory mem = device_memory();
  const std::size_t needed = device_bytes_needed(graph);
  if (needed > mem.free_bytes) {
    throw OutOfMemory("graph " + graph.name() + " needs " + std::to_string(needed) + " bytes of device memory, " +
                          std::to_string(mem.free_bytes) + " are free",
                      needed);
  }
  stream_ = std::make_unique<Stream>();
  cudaDeviceProp prop{};
  int device = 0;
  ABFS_CUDA_CHECK(cudaGetDevice(&device));
  ABFS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  multiprocessors = prop.multiProcessorCount;

  const Csr& csr = graph.csr();
  d_graph.row_offsets = DeviceBuffer<EdgeOffset>(n + 1);
  d_graph.column_indices = DeviceBuffer<VertexId>(csr.column_indices.size());
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_graph.row_offsets.data(), csr.row_offsets.data(), d_graph.row_offsets.bytes(),
                                  cudaMemcpyHostToDevice, stream()));
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_graph.column_indices.data(), csr.column_indices.data(),
                                  d_graph.column_indices.bytes(), cudaMemcpyHostToDevice, stream()));
  d_visited = DeviceBuffer<std::uint32_t>(words);
  d_dist = DeviceBuffer<std::int32_t>(n);
  d_parent = DeviceBuffer<VertexId>(n);
  d_order = DeviceBuffer<VertexId>(n);
  d_counters = DeviceBuffer<LevelCounters>(1);
  h_counters = PinnedBuffer<LevelCounters>(1);
  d_stage_dist_ = DeviceBuffer<std::int32_t>(n);
  d_stage_parent_ = DeviceBuffer<VertexId>(n);
  h_stage_order_ = PinnedBuffer<VertexId>(n);
  h_stage_dist_ = PinnedBuffer<std::int32_t>(n);
  h_stage_parent_ = PinnedBuffer<VertexId>(n);
  // The graph upload reads pageable host memory; finish it before the plan is used.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

void BfsBuffers::start(VertexId source) {
  std::fill(h_visited.begin(), h_visited.end(), 0u);
  h_visited[source >> 5] |= 1u << (source & 31);
  h_dist[source] = 0;
  h_parent[source] = source;
  h_order[0] = source;
  device_cleared_ = false;
}

void BfsBuffers::move_to_device(VertexId begin, VertexId end) {
  const cudaStream_t s = stream();
  if (!device_cleared_) {
    ABFS_CUDA_CHECK(cudaMemsetAsync(d_visited.data(), 0, d_visited.bytes(), s));
    device_cleared_ = true;
  }
  const VertexId count = end - begin;
  if (count > 0) {
    // Stage through pinned memory so that the copies are truly asynchronous.
    std::memcpy(h_stage_order_.data(), h_order.data() + begin, count * sizeof(VertexId));
    const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (total > kParallelVisits)
    for (std::int64_t i = 0; i < total; ++i) {
      const VertexId v = h_order[begin + i];
      h_stage_dist_.data()[i] = h_dist[v];
      h_stage_parent_.data()[i] = h_parent[v];
    }
    ABFS_CUDA_CHECK(cudaMemcpyAsync(d_order.data() + begin, h_stage_order_.data(), count * sizeof(VertexId),
                                    cudaMemcpyHostToDevice, s));
    ABFS_CUDA_CHECK(cudaMemcpyAsync(d_stage_dist_.data(), h_stage_dist_.data(), count * sizeof(std::int32_t),
                                    cudaMemcpyHostToDevice, s));
    ABFS_CUDA_CHECK(cudaMemcpyAsync(d_stage_parent_.data(), h_stage_parent_.data(), count * sizeof(VertexId),
                                    cudaMemcpyHostToDevice, s));
    scatter_visits<<<blocks_for(count), kThreads, 0, s>>>(d_order.data() + begin, count, d_stage_dist_.data(),
                                                          d_stage_parent_.data(), d_visited.data(), d_dist.data(),
                                                          d_parent.data());
    ABFS_CHECK_LAUNCH(s);
  }
  LevelCounters& counters = *h_counters.data();
  counters = LevelCounters{end, 0u, {0ull, 0ull}};
  ABFS_CUDA_CHECK(cudaMemcpyAsync(d_counters.data(), h_counters.data(), sizeof(LevelCounters), cudaMemcpyHostToDevice, s));
  // The staging buffers are reused by the next move; they must not be overwritten before these
  // copies have read them, and the host is about to launch the next level anyway.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
}

void BfsBuffers::move_to_host(VertexId begin, VertexId end) {
  const cudaStream_t s = stream();
  const VertexId count = end - begin;
  if (count == 0) return;
  gather_visits<<<blocks_for(count), kThreads, 0, s>>>(d_order.data() + begin, count, d_dist.data(), d_parent.data(),
                                                       d_stage_dist_.data(), d_stage_parent_.data());
  ABFS_CHECK_LAUNCH(s);
  ABFS_CUDA_CHECK(cudaMemcpyAsync(h_stage_order_.data(), d_order.data() + begin, count * sizeof(VertexId),
                                  cudaMemcpyDeviceToHost, s));
  ABFS_CUDA_CHECK(cudaMemcpyAsync(h_stage_dist_.data(), d_stage_dist_.data(), count * sizeof(std::int32_t),
                                  cudaMemcpyDeviceToHost, s));
  ABFS_CUDA_CHECK(cudaMemcpyAsync(h_stage_parent_.data(), d_stage_parent_.data(), count * sizeof(VertexId),
                                  cudaMemcpyDeviceToHost, s));
  // The host reads the staged visits next.
  ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
  const auto total = static_cast<std::int64_t>(count);
  std::memcpy(h_order.data() + begin, h_stage_order_.data(), count * sizeof(VertexId));
#pragma omp parallel for schedule(static) if (total > kParallelVisits)
  for (std::int64_t i = 0; i < total; ++i) {
    const VertexId v = h_stage_order_.data()[i];
    __atomic_fetch_or(&h_visited[v >> 5], 1u << (v & 31), __ATOMIC_RELAXED);
    h_dist[v] = h_stage_dist_.data()[i];
    h_parent[v] = h_stage_parent_.data()[i];
  }
}

}  // namespace abfs::detail
