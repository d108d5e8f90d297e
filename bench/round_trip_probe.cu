// What does a host-driven device level pay besides its kernel (docs/DESIGN-NOTES.md, twelfth
// session)? A one_block run's first level took 35 us of host time for 7 us on the device, a
// dynamic_parallel run's 59 for 8 (H100, 2026-11-24). This probe times, on the host clock, the
// ways a level can be launched and its counters read back: a stream or event synchronization,
// the counters copied back or written by the kernel through mapped host memory, a flag the host
// polls instead of a synchronization, a large dynamic shared-memory request, and a
// device-launchable graph with its arguments copied in first (dynamic_parallel's entry).
// Medians of 301 repetitions after 30 warm-ups, each after ~2 us of host work. Needs a device;
// prints a table.

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "round_trip_probe: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Counters {
  unsigned int values[15];
  unsigned int sequence;  // written last: the host polls it
};

/// One block's stand-in for a level: reads the entry, bumps the counters.
__global__ void level_kernel(const Counters* entry, Counters* counters) {
  extern __shared__ unsigned int shared[];
  if (threadIdx.x < 15) {
    shared[threadIdx.x] = entry->values[threadIdx.x] + 1;
    counters->values[threadIdx.x] = shared[threadIdx.x];
  }
}

/// The same, then the counters written to mapped host memory, the sequence number last.
__global__ void level_kernel_mapped(const Counters* entry, Counters* counters, volatile Counters* host,
                                    unsigned int sequence) {
  extern __shared__ unsigned int shared[];
  if (threadIdx.x < 15) {
    shared[threadIdx.x] = entry->values[threadIdx.x] + 1;
    counters->values[threadIdx.x] = shared[threadIdx.x];
    host->values[threadIdx.x] = shared[threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    host->sequence = sequence;
  }
}

/// A multi-block level: the last block (a ticket) publishes the sequence number.
__global__ void grid_level_kernel(unsigned int* ticket, volatile Counters* host, unsigned int sequence) {
  __syncthreads();
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(ticket, 1u) != gridDim.x - 1) return;
  *ticket = 0;
  __threadfence_system();
  host->sequence = sequence;
}

/// A tiny kernel, as a scan's.
__global__ void small_kernel(Counters* counters) {
  if (threadIdx.x == 0) counters->values[0] += 1;
}

/// A device-launchable graph's kernel: its arguments are in device memory.
struct GraphArgs {
  const Counters* entry;
  Counters* counters;
};
__global__ void graph_kernel(const GraphArgs* args) {
  if (threadIdx.x < 15) args->counters->values[threadIdx.x] = args->entry->values[threadIdx.x] + 1;
}

using Clock = std::chrono::steady_clock;
double us_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

volatile unsigned long long sink = 0;
void host_work() {  // ~2 us: a decision between levels
  const auto t = Clock::now();
  unsigned long long x = 0;
  while (us_between(t, Clock::now()) < 2.0) x += x * 3 + 1;
  sink = x;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("round_trip_probe: no CUDA device, skipped\n");
    return 0;
  }
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  Counters *d_entry = nullptr, *d_counters = nullptr, *h_counters = nullptr, *h_mapped = nullptr, *h_entry = nullptr;
  check(cudaMalloc(&d_entry, sizeof(Counters)), "malloc");
  check(cudaMalloc(&d_counters, sizeof(Counters)), "malloc");
  check(cudaMemset(d_entry, 0, sizeof(Counters)), "memset");
  check(cudaHostAlloc(&h_counters, sizeof(Counters), cudaHostAllocDefault), "hostalloc");
  check(cudaHostAlloc(&h_entry, sizeof(Counters), cudaHostAllocDefault), "hostalloc");
  check(cudaHostAlloc(&h_mapped, sizeof(Counters), cudaHostAllocMapped), "hostalloc");
  *h_entry = Counters{};
  *h_mapped = Counters{};
  Counters* d_mapped = nullptr;
  check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_mapped), h_mapped, 0), "mapped");
  cudaEvent_t start, stop, start_untimed, stop_untimed;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  check(cudaEventCreateWithFlags(&start_untimed, cudaEventDisableTiming), "event");
  check(cudaEventCreateWithFlags(&stop_untimed, cudaEventDisableTiming), "event");
  int big_shared = 0;
  check(cudaDeviceGetAttribute(&big_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), "attribute");
  big_shared -= 1024;
  check(cudaFuncSetAttribute(level_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, big_shared), "attribute");
  check(cudaFuncSetAttribute(level_kernel_mapped, cudaFuncAttributeMaxDynamicSharedMemorySize, big_shared),
        "attribute");

  // dynamic_parallel's entry: a device-launchable graph whose kernel reads its arguments from
  // device memory; the host copies the entry in before each launch.
  GraphArgs* d_args = nullptr;
  check(cudaMalloc(&d_args, sizeof(GraphArgs)), "malloc");
  const GraphArgs args{d_entry, d_counters};
  check(cudaMemcpy(d_args, &args, sizeof args, cudaMemcpyHostToDevice), "copy");
  cudaGraph_t graph;
  check(cudaGraphCreate(&graph, 0), "graph");
  cudaKernelNodeParams node{};
  void* params[] = {&d_args};
  node.func = reinterpret_cast<void*>(graph_kernel);
  node.gridDim = dim3(1);
  node.blockDim = dim3(512);
  node.kernelParams = params;
  cudaGraphNode_t kernel_node;
  check(cudaGraphAddKernelNode(&kernel_node, graph, nullptr, 0, &node), "node");
  cudaGraphExec_t device_exec, host_exec;
  check(cudaGraphInstantiateWithFlags(&device_exec, graph, cudaGraphInstantiateFlagDeviceLaunch), "instantiate");
  check(cudaGraphUpload(device_exec, s), "upload");
  check(cudaGraphInstantiateWithFlags(&host_exec, graph, 0), "instantiate");
  check(cudaGraphUpload(host_exec, s), "upload");
  check(cudaStreamSynchronize(s), "sync");

  unsigned int sequence = 0;
  unsigned int* d_ticket = nullptr;
  check(cudaMalloc(&d_ticket, sizeof(unsigned int)), "malloc");
  check(cudaMemset(d_ticket, 0, sizeof(unsigned int)), "memset");
  auto wait_flag = [&] {
    const volatile unsigned int* flag = &h_mapped->sequence;
    while (*flag != sequence) {
    }
    std::atomic_thread_fence(std::memory_order_acquire);
  };
  // The shapes the cases share: a launch between timing events with the counters copied back
  // and an event synchronization (the levels before the change), privatized_queue's level as
  // it was until version 5 (CUB's two scan kernels, then the expansion), a one-block kernel
  // that publishes its counters, and one writing mapped memory between two events (timed or
  // not) and an event synchronization.
  auto copy_back_and_sync = [&](const std::function<void()>& launch) {
    check(cudaEventRecord(start, s), "record");
    launch();
    check(cudaMemcpyAsync(h_counters, d_counters, sizeof(Counters), cudaMemcpyDeviceToHost, s), "copy");
    check(cudaEventRecord(stop, s), "record");
    check(cudaEventSynchronize(stop), "sync");
  };
  auto privatized_level = [&] {
    small_kernel<<<1, 32, 0, s>>>(d_counters);
    small_kernel<<<1, 32, 0, s>>>(d_counters);
    ++sequence;
    grid_level_kernel<<<264, 256, 0, s>>>(d_ticket, d_mapped, sequence);
    wait_flag();
  };
  auto one_block_publishing = [&](int shared_bytes) {
    ++sequence;
    level_kernel_mapped<<<1, 512, shared_bytes, s>>>(d_entry, d_counters, d_mapped, sequence);
    wait_flag();
  };
  auto mapped_and_event_sync = [&](cudaEvent_t first, cudaEvent_t last) {
    ++sequence;
    check(cudaEventRecord(first, s), "record");
    level_kernel_mapped<<<1, 512, 64, s>>>(d_entry, d_counters, d_mapped, sequence);
    check(cudaEventRecord(last, s), "record");
    check(cudaEventSynchronize(last), "sync");
  };
  auto copy_entry = [&] {
    check(cudaMemcpyAsync(d_entry, h_entry, sizeof(Counters), cudaMemcpyHostToDevice, s), "copy");
  };
  struct Case {
    const char* name;
    std::function<void()> level;
    bool timed = true;  // records start and stop
  };
  const Case cases[] = {
      {"launch, stream sync", [&] {
         level_kernel<<<1, 512, 64, s>>>(d_entry, d_counters);
         check(cudaStreamSynchronize(s), "sync");
       },
       false},
      {"events, launch, event sync", [&] {
         check(cudaEventRecord(start, s), "record");
         level_kernel<<<1, 512, 64, s>>>(d_entry, d_counters);
         check(cudaEventRecord(stop, s), "record");
         check(cudaEventSynchronize(stop), "sync");
       }},
      {"events, launch, copy back, event sync (one_block)",
       [&] { copy_back_and_sync([&] { level_kernel<<<1, 512, 64, s>>>(d_entry, d_counters); }); }},
      {"same, 226 KiB dynamic shared memory",
       [&] { copy_back_and_sync([&] { level_kernel<<<1, 512, big_shared, s>>>(d_entry, d_counters); }); }},
      {"events, launch writing mapped memory, event sync", [&] { mapped_and_event_sync(start, stop); }},
      {"untimed events, launch writing mapped memory, event sync",
       [&] { mapped_and_event_sync(start_untimed, stop_untimed); }, false},
      {"launch writing mapped memory, poll its flag", [&] { one_block_publishing(64); }, false},
      {"events, launch writing mapped memory, poll its flag", [&] {
         check(cudaEventRecord(start, s), "record");
         ++sequence;
         level_kernel_mapped<<<1, 512, 64, s>>>(d_entry, d_counters, d_mapped, sequence);
         check(cudaEventRecord(stop, s), "record");
         wait_flag();
       }},
      {"same, 226 KiB dynamic shared memory", [&] {
         check(cudaEventRecord(start, s), "record");
         ++sequence;
         level_kernel_mapped<<<1, 512, big_shared, s>>>(d_entry, d_counters, d_mapped, sequence);
         check(cudaEventRecord(stop, s), "record");
         wait_flag();
       }},
      {"two small launches, a 264-block kernel publishing, poll (privatized_queue)", [&] { privatized_level(); },
       false},
      {"a 226 KiB one-block kernel publishing, then at once the privatized_queue level", [&] {
         one_block_publishing(big_shared);
         privatized_level();
       },
       false},
      {"the same with a 64 B one-block kernel", [&] {
         one_block_publishing(64);
         privatized_level();
       },
       false},
      {"the 226 KiB one, a stream synchronization, then the level", [&] {
         one_block_publishing(big_shared);
         check(cudaStreamSynchronize(s), "sync");
         privatized_level();
       },
       false},
      {"entry copy, device-launchable graph, copy back, event sync (dynamic_parallel)", [&] {
         copy_back_and_sync([&] {
           copy_entry();
           check(cudaGraphLaunch(device_exec, s), "graph launch");
         });
       }},
      {"device-launchable graph, copy back, event sync",
       [&] { copy_back_and_sync([&] { check(cudaGraphLaunch(device_exec, s), "graph launch"); }); }},
      {"host graph, copy back, event sync",
       [&] { copy_back_and_sync([&] { check(cudaGraphLaunch(host_exec, s), "graph launch"); }); }},
      {"entry copy, launch, copy back, event sync", [&] {
         copy_back_and_sync([&] {
           copy_entry();
           level_kernel<<<1, 512, 64, s>>>(d_entry, d_counters);
         });
       }},
  };
  std::printf("%-80s %9s %9s %9s %11s\n", "a level's launch and read-back", "p10_us", "median_us", "p90_us",
              "events_us");
  for (const Case& c : cases) {
    std::vector<double> us;
    std::vector<double> event_us;
    for (int rep = 0; rep < 331; ++rep) {
      host_work();
      const auto t = Clock::now();
      c.level();
      const auto done = Clock::now();
      check(cudaStreamSynchronize(s), "sync");
      if (rep < 30) continue;
      us.push_back(us_between(t, done));
      float ms = 0.0f;
      if (c.timed && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess) event_us.push_back(1000.0 * ms);
    }
    std::printf("%-80s %9.1f %9.1f %9.1f %11.1f\n", c.name, quantile(us, 0.1), quantile(us, 0.5), quantile(us, 0.9),
                event_us.empty() ? 0.0 : quantile(event_us, 0.5));
  }
  check(cudaGetLastError(), "last error");
  return 0;
}
