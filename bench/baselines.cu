// The two baseline BFS formulations of baselines.cuh.

#include "bench/baselines.cuh"

#include <algorithm>

namespace abfs::bench {
namespace {

constexpr int kThreads = 256;

unsigned int blocks_for(std::size_t count) {
  return static_cast<unsigned int>(std::max<std::size_t>(1, (count + kThreads - 1) / kThreads));
}

__global__ void global_queue_expand(const EdgeOffset* __restrict__ row_offsets,
                                    const VertexId* __restrict__ column_indices, std::uint32_t* visited,
                                    std::int32_t* __restrict__ dist, VertexId* __restrict__ parent,
                                    VertexId* __restrict__ order, VertexId frontier_begin, VertexId frontier_end,
                                    detail::LevelCounters* counters, std::int32_t next_level) {
  const std::uint64_t i = frontier_begin + blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= frontier_end) return;
  const VertexId u = order[i];
  unsigned long long found_edges = 0;
  for (EdgeOffset e = row_offsets[u]; e < row_offsets[u + 1]; ++e) {
    const VertexId v = column_indices[e];
    const std::uint32_t bit = 1u << (v & 31);
    if ((atomicOr(visited + (v >> 5), bit) & bit) != 0) continue;
    dist[v] = next_level;
    parent[v] = u;
    order[atomicAdd(&counters->order_tail, 1u)] = v;  // one global atomic per discovered vertex
    found_edges += row_offsets[v + 1] - row_offsets[v];
  }
  if (found_edges > 0) atomicAdd(&counters->final_edges, found_edges);
}

__global__ void rodinia_init(VertexId n, VertexId source, unsigned char* mask, unsigned char* updating,
                             unsigned char* visited, std::int32_t* cost) {
  const std::uint64_t v = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (v >= n) return;
  mask[v] = v == source;
  updating[v] = 0;
  visited[v] = v == source;
  cost[v] = v == source ? 0 : -1;
}

/// Rodinia kernel 1: expand every vertex whose mask is set.
__global__ void rodinia_expand(VertexId n, const EdgeOffset* __restrict__ row_offsets,
                               const VertexId* __restrict__ column_indices, unsigned char* mask,
                               unsigned char* updating, const unsigned char* visited, std::int32_t* cost) {
  const std::uint64_t v = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
  for (EdgeOffset e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
    const VertexId w = column_indices[e];
    if (!visited[w]) {
      cost[w] = cost[v] + 1;  // racy writes all store the same value
      updating[w] = 1;
    }
  }
}

/// Rodinia kernel 2: the updating mask becomes the next mask.
__global__ void rodinia_update(VertexId n, unsigned char* mask, unsigned char* updating, unsigned char* visited,
                               int* changed) {
  const std::uint64_t v = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (v >= n || !updating[v]) return;
  mask[v] = 1;
  visited[v] = 1;
  *changed = 1;
  updating[v] = 0;
}

}  // namespace

strategies::LevelOutcome global_queue_level(detail::BfsBuffers& b, const strategies::LevelContext& c) {
  const cudaStream_t s = b.stream();
  detail::Event start, stop;
  start.record(s);
  // final_edges is free outside device-driven runs; it collects this level's next-frontier arcs.
  ABFS_CUDA_CHECK(cudaMemsetAsync(&b.d_counters.data()->final_edges, 0, sizeof(unsigned long long), s));
  const VertexId size = c.frontier_end - c.frontier_begin;
  global_queue_expand<<<blocks_for(size), kThreads, 0, s>>>(
      b.d_graph.row_offsets.data(), b.d_graph.column_indices.data(), b.d_visited.data(), b.d_dist.data(),
      b.d_parent.data(), b.d_order.data(), c.frontier_begin, c.frontier_end, b.d_counters.data(), c.level + 1);
  ABFS_CHECK_LAUNCH(s);
  // The host reads the new frontier's size, as a host-driven level must.
  const double device_us = b.download_counters(start, stop);
  strategies::LevelOutcome out;
  out.next_frontier_vertices = b.h_counters.data()->order_tail - c.frontier_end;
  out.next_frontier_edges = b.h_counters.data()->final_edges;
  out.edges_examined = c.frontier_edges;
  out.device_us = device_us;
  return out;
}

RodiniaBfs::RodiniaBfs(detail::BfsBuffers& buffers)
    : buffers_(buffers),
      d_mask_(buffers.num_vertices()),
      d_updating_(buffers.num_vertices()),
      d_visited_(buffers.num_vertices()),
      d_changed_(1),
      h_changed_(1) {}

double RodiniaBfs::run(VertexId source, std::vector<std::int32_t>& distances) {
  auto& b = buffers_;
  const cudaStream_t s = b.stream();
  const VertexId n = b.num_vertices();
  const unsigned int blocks = blocks_for(n);
  start_.record(s);
  rodinia_init<<<blocks, kThreads, 0, s>>>(n, source, d_mask_.data(), d_updating_.data(), d_visited_.data(),
                                           b.d_dist.data());
  ABFS_CHECK_LAUNCH(s);
  do {
    ABFS_CUDA_CHECK(cudaMemsetAsync(d_changed_.data(), 0, sizeof(int), s));
    rodinia_expand<<<blocks, kThreads, 0, s>>>(n, b.d_graph.row_offsets.data(), b.d_graph.column_indices.data(),
                                               d_mask_.data(), d_updating_.data(), d_visited_.data(),
                                               b.d_dist.data());
    ABFS_CHECK_LAUNCH(s);
    rodinia_update<<<blocks, kThreads, 0, s>>>(n, d_mask_.data(), d_updating_.data(), d_visited_.data(),
                                               d_changed_.data());
    ABFS_CHECK_LAUNCH(s);
    ABFS_CUDA_CHECK(cudaMemcpyAsync(h_changed_.data(), d_changed_.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
    // The host decides whether another level runs.
    ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
  } while (*h_changed_.data() != 0);
  stop_.record(s);
  ABFS_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  distances.resize(n);
  ABFS_CUDA_CHECK(cudaMemcpy(distances.data(), b.d_dist.data(), n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  return detail::elapsed_ms(start_, stop_);
}

}  // namespace abfs::bench
