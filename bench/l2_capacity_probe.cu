// How much of the GPU's L2 serves random accesses from all SMs (docs/DESIGN-NOTES.md, issue 4)?
// The cost models' miss shares (strategies::l2_miss_share) take the whole L2 (50 MB on the
// H100), but uniform:1048576:8's grid levels (16.9 MB of per-vertex arrays) cost as if a third
// to a half of their discoveries missed it. This probe times random 4-byte gathers, scattered
// 4-byte stores, and scattered stores each beside a 16-byte streaming read of another buffer
// (a level's arcs passing through the L2), over tables of 2 MiB to 256 MiB, warm (each timed
// launch follows an identical one). Rates in G accesses/s, medians of 7 launches timed with
// CUDA events. Prints a table; needs a device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "l2_capacity_probe: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

__device__ __forceinline__ unsigned int hash_index(std::size_t i) {
  unsigned int x = static_cast<unsigned int>(i) * 0x9e3779b1u;
  x ^= x >> 15;
  x *= 0x85ebca77u;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

// An index in [0, words) from the hash (multiply-high: no modulo, no power-of-two tables).
__device__ __forceinline__ std::size_t slot(std::size_t i, std::size_t words) {
  return static_cast<std::size_t>((static_cast<unsigned long long>(hash_index(i)) * words) >> 32);
}

// mode 0: gathers; 1: scattered stores; 2: scattered stores, each beside a 16-byte streaming read.
__global__ void probe(unsigned int* table, std::size_t words, const uint4* stream, std::size_t stream_items,
                      std::size_t count, int mode, unsigned int* out) {
  unsigned int sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t at = slot(i, words);
    if (mode == 0) {
      sum += __ldg(table + at);
    } else {
      if (mode == 2) {
        const uint4 v = __ldcs(stream + i % stream_items);
        sum += v.x ^ v.w;
      }
      table[at] = static_cast<unsigned int>(i);
    }
  }
  if (sum == 0x9e3779b9u) *out = sum;
}

}  // namespace

int main() {
  int device = 0, sms = 0, l2 = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  std::printf("# %s, %d SMs, L2 %.1f MiB\n", prop.name, sms, l2 / 1048576.0);
  const std::size_t max_bytes = std::size_t{256} << 20;
  const std::size_t stream_bytes = std::size_t{512} << 20;
  unsigned int* table = nullptr;
  uint4* stream = nullptr;
  unsigned int* out = nullptr;
  check(cudaMalloc(&table, max_bytes), "cudaMalloc table");
  check(cudaMalloc(&stream, stream_bytes), "cudaMalloc stream");
  check(cudaMalloc(&out, sizeof(unsigned int)), "cudaMalloc out");
  check(cudaMemset(table, 0, max_bytes), "memset");
  check(cudaMemset(stream, 1, stream_bytes), "memset");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  const unsigned int grid = static_cast<unsigned int>(sms) * 8;
  const std::size_t count = std::size_t{1} << 25;
  const char* names[] = {"gather", "store", "store+stream16B"};
  std::printf("%10s %12s %12s %16s  (G accesses/s)\n", "table_MiB", names[0], names[1], names[2]);
  for (std::size_t mib : {2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256}) {
    const std::size_t words = (mib << 20) / sizeof(unsigned int);
    std::printf("%10zu", mib);
    for (int mode = 0; mode < 3; ++mode) {
      std::vector<float> ms;
      for (int r = 0; r < 8; ++r) {
        check(cudaEventRecord(start), "record");
        probe<<<grid, 512>>>(table, words, stream, stream_bytes / sizeof(uint4), count, mode, out);
        check(cudaGetLastError(), "launch");
        check(cudaEventRecord(stop), "record");
        check(cudaEventSynchronize(stop), "sync");
        float t = 0.0f;
        check(cudaEventElapsedTime(&t, start, stop), "elapsed");
        if (r > 0) ms.push_back(t);  // the first launch warms the table
      }
      std::sort(ms.begin(), ms.end());
      const double rate = static_cast<double>(count) / (ms[ms.size() / 2] * 1e-3) / 1e9;
      std::printf(" %*.1f", mode == 2 ? 16 : 12, rate);
    }
    std::printf("\n");
  }
  return 0;
}
