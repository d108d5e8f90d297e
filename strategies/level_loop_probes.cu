// Calibration probes of the mechanisms a device-driven level loop can be built on (the brief: measure
// the tail-launch chain, device graph launch and graph conditional nodes, and build on the fastest).
// Each mechanism links `links` levels that do nothing but the link itself, once with a one-block
// level (256 threads) and once with a grid-sized level (8 blocks per SM of 256 threads whose last
// block, by a ticket counter, decides whether to go on: the shape of dynamic_parallel's grid level):
//  - tail launch: each level tail-launches the next from the device (CDP2, cudaStreamTailLaunch),
//    as dynamic_parallel linked its levels before these probes;
//  - device graph launch: a one-kernel graph instantiated for device launch relaunches itself
//    (cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch)), as
//    dynamic_parallel links its levels now;
//  - graph WHILE node: a conditional node whose body is the level kernel, which clears the
//    condition (cudaGraphSetConditional) on the last level;
//  - graph kernel nodes: a graph of `links` kernel nodes in a chain, replayed (a fixed count of
//    levels, for reference: what a graph costs per kernel when nothing decides on the device).
// Times are CUDA-event medians of 5 launches after a warm-up, divided by links.
// @see NVIDIA, CUDA Programming Guide, "CUDA Graphs" (conditional nodes, device graph launch) and
//      "CUDA Dynamic Parallelism" (CDP2 tail launch).

#include "runtime/device_probes.hpp"
#include "strategies/strategy.hpp"

namespace abfs::strategies {
namespace {

constexpr unsigned int kLevelThreads = 256;

/// The state the probe levels count down; device memory, reset before each timed launch.
struct LinkState {
  unsigned int remaining;  ///< levels still to run, this one included
  unsigned int ticket;     ///< blocks of the current level that finished
};

/// What the thread that ends a level decides (every other thread gets NotLast).
enum class LevelEnd { NotLast, Stop, Next };

/// The last block of the level to finish (the only block of a one-block level) takes a level off
/// state->remaining; its thread 0 learns whether another level follows.
__device__ LevelEnd finish_level(LinkState* state) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&state->ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last || threadIdx.x != 0) return LevelEnd::NotLast;
  state->ticket = 0;
  return --state->remaining > 0 ? LevelEnd::Next : LevelEnd::Stop;
}

__global__ void tail_level(LinkState* state) {
  if (finish_level(state) == LevelEnd::Next) tail_level<<<gridDim.x, blockDim.x, 0, cudaStreamTailLaunch>>>(state);
}

__global__ void graph_level(LinkState* state) {
  if (finish_level(state) == LevelEnd::Next) cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
}

__global__ void while_level(LinkState* state, cudaGraphConditionalHandle handle) {
  if (finish_level(state) == LevelEnd::Stop) cudaGraphSetConditional(handle, 0);
}

__global__ void plain_level() {}

/// Microseconds per level of `links` levels of blocks blocks linked by each mechanism.
void probe_shape(unsigned int links, unsigned int blocks, const std::string& suffix,
                 std::map<std::string, double>& out) {
  detail::Stream stream;
  const cudaStream_t s = stream.get();
  detail::DeviceBuffer<LinkState> state(1);
  const LinkState start{links, 0};
  const auto reset = [&] {
    ABFS_CUDA_CHECK(cudaMemcpyAsync(state.data(), &start, sizeof(start), cudaMemcpyHostToDevice, s));
  };
  // The reset copy is inside the timed window of each mechanism alike (~2 us of links levels).
  // A chain that stopped early would time nothing, so the count is checked after each.
  const auto per_level = [&](const char* name, auto launch) {
    const double us = detail::median_event_ms(stream, 5, [&] {
                        reset();
                        launch();
                      }) *
                      1000.0 / links;
    LinkState end{};
    ABFS_CUDA_CHECK(cudaMemcpy(&end, state.data(), sizeof(end), cudaMemcpyDeviceToHost));
    if (end.remaining != 0) {
      throw CudaError(std::string("level-loop probe ") + name + ": the chain stopped with " +
                          std::to_string(end.remaining) + " of " + std::to_string(links) + " levels left",
                      static_cast<int>(cudaErrorUnknown));
    }
    return us;
  };

  out["tail_launch" + suffix + "_us"] =
      per_level("tail launch", [&] { tail_level<<<blocks, kLevelThreads, 0, s>>>(state.data()); });

  {
    detail::CudaGraph graph;
    detail::add_kernel_node(graph.get(), nullptr, graph_level, dim3(blocks), dim3(kLevelThreads), 0, state.data());
    const cudaGraphExec_t exec = graph.instantiate(cudaGraphInstantiateFlagDeviceLaunch, s);
    out["device_graph_launch" + suffix + "_us"] =
        per_level("device graph launch", [&] { ABFS_CUDA_CHECK(cudaGraphLaunch(exec, s)); });
  }
  {
    detail::CudaGraph graph;
    cudaGraphConditionalHandle handle{};
    ABFS_CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph.get(), 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = handle;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
    ABFS_CUDA_CHECK(cudaGraphAddNode(&node, graph.get(), nullptr, nullptr, 0, &params));
    detail::add_kernel_node(params.conditional.phGraph_out[0], nullptr, while_level, dim3(blocks),
                            dim3(kLevelThreads), 0, state.data(), handle);
    const cudaGraphExec_t exec = graph.instantiate(0, s);
    out["graph_while" + suffix + "_us"] =
        per_level("graph WHILE node", [&] { ABFS_CUDA_CHECK(cudaGraphLaunch(exec, s)); });
  }
  {
    detail::CudaGraph graph;
    cudaGraphNode_t last = nullptr;
    for (unsigned int i = 0; i < links; ++i) {
      last = detail::add_kernel_node(graph.get(), last, plain_level, dim3(blocks), dim3(kLevelThreads), 0);
    }
    const cudaGraphExec_t exec = graph.instantiate(0, s);
    out["graph_kernel_node" + suffix + "_us"] =
        detail::median_event_ms(stream, 5, [&] { ABFS_CUDA_CHECK(cudaGraphLaunch(exec, s)); }) * 1000.0 / links;
  }
}

}  // namespace

std::map<std::string, double> probe_level_loop_mechanisms(bool patient) {
  const unsigned int links = patient ? 2000 : 500;
  int device = 0, sms = 0;
  ABFS_CUDA_CHECK(cudaGetDevice(&device));
  ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::map<std::string, double> out;
  probe_shape(links, 1, "", out);
  probe_shape(links, static_cast<unsigned int>(sms) * 8, "_grid", out);
  return out;
}

}  // namespace abfs::strategies
