// Microbenchmarks of the device mechanisms the cost models are built from (calibration inputs):
// launch latency, the host round trip, one block's barrier cost, streaming bandwidth, random
// gathers and atomics from L2 and from DRAM, and pinned transfers. Each is timed with CUDA events
// (or the host clock where the host's view is the point) after a warm-up; medians of repetitions.
// The device-driven level-loop mechanisms (tail launch, device graph launch, graph WHILE nodes) are
// probed in strategies/level_loop_probes.cu (they need the device runtime).

#include "runtime/device_probes.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace abfs::detail {
namespace {

__global__ void empty_kernel() {}

/// One block: iterations of a dependent load and two barriers (the skeleton of a one-block level).
__global__ void barrier_loop(const unsigned int* __restrict__ table, unsigned int iterations, unsigned int* out) {
  __shared__ unsigned int next;
  unsigned int at = 0;
  for (unsigned int i = 0; i < iterations; ++i) {
    if (threadIdx.x == 0) next = table[at & 1023u];
    __syncthreads();
    at = next + i;
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = at;
}

/// Sums words (16 bytes per load), so the compiler keeps the reads.
__global__ void stream_read(const uint4* __restrict__ data, std::size_t count, unsigned int* out) {
  unsigned int sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = data[i];
    sum ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0x9e3779b9u) *out = sum;
}

__device__ __forceinline__ unsigned int hash_index(std::size_t i) {
  unsigned int x = static_cast<unsigned int>(i) * 0x9e3779b1u;
  x ^= x >> 15;
  x *= 0x85ebca77u;
  x ^= x >> 13;
  return x;
}

/// count random 4-byte gathers from table (words entries, a power of two).
__global__ void random_gather(const unsigned int* __restrict__ table, unsigned int mask, std::size_t count,
                              unsigned int* out) {
  unsigned int sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    sum += __ldg(table + (hash_index(i) & mask));
  }
  if (sum == 0x9e3779b9u) *out = sum;
}

/// count random atomicAdds into table.
__global__ void random_atomic(unsigned int* table, unsigned int mask, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    atomicAdd(table + (hash_index(i) & mask), 1u);
  }
}

}  // namespace

std::map<std::string, double> measure_device_probes(bool patient, const std::function<void(const std::string&)>& step) {
  std::map<std::string, double> m;
  Stream stream;
  const cudaStream_t s = stream.get();
  int device = 0, sms = 0;
  ABFS_CUDA_CHECK(cudaGetDevice(&device));
  ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned int grid = static_cast<unsigned int>(sms) * 8;
  const int repetitions = patient ? 15 : 5;
  DeviceBuffer<unsigned int> sink(1);

  step("kernel launch latency");
  constexpr int kLaunches = 1000;
  m["kernel_launch_us"] = median_event_ms(stream, repetitions, [&] {
                            for (int i = 0; i < kLaunches; ++i) empty_kernel<<<1, 32, 0, s>>>();
                          }) * 1000.0 / kLaunches;

  step("launch + copy-back + host sync");
  {
    PinnedBuffer<unsigned int> word(1);
    std::vector<double> us;
    for (int r = 0; r < 20 + 100; ++r) {
      const auto t = std::chrono::steady_clock::now();
      empty_kernel<<<1, 32, 0, s>>>();
      ABFS_CHECK_LAUNCH(s);
      ABFS_CUDA_CHECK(cudaMemcpyAsync(word.data(), sink.data(), sizeof(unsigned int), cudaMemcpyDeviceToHost, s));
      // The round trip is what is measured.
      ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
      if (r >= 20) us.push_back(microseconds_since(t));
    }
    m["launch_sync_us"] = median_of_values(us);
    std::vector<double> copy_us;
    for (int r = 0; r < 120; ++r) {
      const auto t = std::chrono::steady_clock::now();
      ABFS_CUDA_CHECK(cudaMemcpyAsync(sink.data(), word.data(), sizeof(unsigned int), cudaMemcpyHostToDevice, s));
      // The round trip is what is measured.
      ABFS_CUDA_CHECK(cudaStreamSynchronize(s));
      if (r >= 20) copy_us.push_back(microseconds_since(t));
    }
    m["h2d_latency_us"] = median_of_values(copy_us);
  }

  step("one-block barrier loop");
  {
    DeviceBuffer<unsigned int> table(1024);
    ABFS_CUDA_CHECK(cudaMemsetAsync(table.data(), 0, table.bytes(), s));
    constexpr unsigned int kIterations = 100000;
    m["block_barrier_iteration_us"] = median_event_ms(stream, repetitions, [&] {
                                        barrier_loop<<<1, 512, 0, s>>>(table.data(), kIterations, sink.data());
                                      }) * 1000.0 / kIterations;
  }

  step("streaming read");
  {
    const std::size_t bytes = (patient ? std::size_t{2} : std::size_t{1}) << 30;
    DeviceBuffer<uint4> data(bytes / sizeof(uint4));
    ABFS_CUDA_CHECK(cudaMemsetAsync(data.data(), 1, data.bytes(), s));
    const double ms = median_event_ms(stream, repetitions, [&] {
      stream_read<<<grid, 512, 0, s>>>(data.data(), data.size(), sink.data());
    });
    m["stream_read_bytes_per_s"] = static_cast<double>(bytes) / (ms * 1e-3);
  }

  step("random gathers and atomics");
  {
    const std::size_t l2_words = std::size_t{1} << 22;    // 16 MiB: resident in a 50 MB L2
    const std::size_t dram_words = std::size_t{1} << 28;  // 1 GiB: from DRAM
    DeviceBuffer<unsigned int> table(dram_words);
    ABFS_CUDA_CHECK(cudaMemsetAsync(table.data(), 0, table.bytes(), s));
    const std::size_t count = std::size_t{1} << 28;
    for (const auto& [name, words] : {std::pair<const char*, std::size_t>{"l2", l2_words}, {"dram", dram_words}}) {
      const auto mask = static_cast<unsigned int>(words - 1);
      const double gather_ms = median_event_ms(stream, repetitions, [&, mask] {
        random_gather<<<grid, 512, 0, s>>>(table.data(), mask, count, sink.data());
      });
      const double atomic_ms = median_event_ms(stream, repetitions, [&, mask] {
        random_atomic<<<grid, 512, 0, s>>>(table.data(), mask, count);
      });
      m[std::string("gather_") + name + "_per_s"] = static_cast<double>(count) / (gather_ms * 1e-3);
      m[std::string("atomic_") + name + "_per_s"] = static_cast<double>(count) / (atomic_ms * 1e-3);
    }
  }

  step("pinned transfers");
  {
    const std::size_t bytes = std::size_t{256} << 20;
    DeviceBuffer<unsigned char> device_side(bytes);
    PinnedBuffer<unsigned char> host_side(bytes);
    const double up_ms = median_event_ms(stream, repetitions, [&] {
      ABFS_CUDA_CHECK(cudaMemcpyAsync(device_side.data(), host_side.data(), bytes, cudaMemcpyHostToDevice, s));
    });
    const double down_ms = median_event_ms(stream, repetitions, [&] {
      ABFS_CUDA_CHECK(cudaMemcpyAsync(host_side.data(), device_side.data(), bytes, cudaMemcpyDeviceToHost, s));
    });
    m["h2d_bytes_per_s"] = static_cast<double>(bytes) / (up_ms * 1e-3);
    m["d2h_bytes_per_s"] = static_cast<double>(bytes) / (down_ms * 1e-3);
  }
  return m;
}

}  // namespace abfs::detail
