// Does a graph's CSR stay in the L2 between BFSs (docs/DESIGN-NOTES.md, issue 4, seventieth
// session)? A plan's device start after host levels finds its component's lines cold where the
// oracle's trial finds them warm. This probe warms a 16 MiB table (a CSR's size class: cnr-2000's
// is 15 MB) one of four ways, streams other data through the L2, then times a chain of dependent
// loads over the table's lines (one thread: the latency a line costs, an L2 hit ~0.2-0.3 us, a
// miss more). Ways: none (flushed), a sweep of plain loads, a sweep of
// `prefetch.global.L2::evict_last` (runtime/l2_prefetch.cuh), a sweep of plain loads on a stream
// whose access policy window marks the table persisting. Each with the L2 set-aside for
// persisting lines at 0 and at the device's maximum (cudaLimitPersistingL2CacheSize).
// Prints ns a load, medians of 5; needs a device.

#include "probe_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr const char* kProgram = "abfs_l2_persist_probe";
constexpr std::size_t kLineWords = 32;  // 128 bytes
constexpr std::size_t kTableBytes = std::size_t{16} << 20;
constexpr std::size_t kStreamBytes = std::size_t{512} << 20;
constexpr int kChainSteps = 4096;

void check(cudaError_t e, const char* what) { abfs::probe::check(e, kProgram, what); }

__global__ void sweep_loads(const unsigned int* p, std::size_t words, unsigned int* sink) {
  unsigned int sum = 0;
  for (std::size_t i = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) * 8; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x * 8) {
    sum += p[i];
  }
  if (sum == 0xffffffffu) *sink = sum;
}

__global__ void sweep_prefetch(const unsigned int* p, std::size_t words) {
  const auto* base = reinterpret_cast<const char*>(p);
  const std::size_t bytes = words * sizeof(unsigned int);
  for (std::size_t at = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) * 32; at < bytes;
       at += static_cast<std::size_t>(gridDim.x) * blockDim.x * 32) {
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(base + at));
  }
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread: kChainSteps dependent loads from `start`; the nanoseconds they took.
__global__ void chain(const unsigned int* table, unsigned int start, unsigned long long* ns, unsigned int* sink) {
  unsigned int at = start;
  const unsigned long long t0 = global_ns();
  for (int k = 0; k < kChainSteps; ++k) at = __ldcg(table + at);
  const unsigned long long t1 = global_ns();
  *ns = t1 - t0;
  *sink = at;
}

}  // namespace

int main() {
  if (!abfs::probe::device_or_skip(kProgram)) return 0;
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  std::printf("%s: %s, L2 %d bytes, persisting max %d, window max %d\n", kProgram, prop.name, prop.l2CacheSize,
              prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize);

  // The table: a random cycle over its lines (each line's first word holds the next line's).
  const std::size_t words = kTableBytes / sizeof(unsigned int);
  const std::size_t lines = words / kLineWords;
  std::vector<unsigned int> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(7));
  std::vector<unsigned int> host(words, 0u);
  for (std::size_t i = 0; i < lines; ++i) {
    host[order[i] * kLineWords] = static_cast<unsigned int>(order[(i + 1) % lines] * kLineWords);
  }
  unsigned int *table = nullptr, *other = nullptr, *sink = nullptr;
  unsigned long long* chain_ns = nullptr;
  check(cudaMalloc(&table, kTableBytes), "cudaMalloc table");
  check(cudaMalloc(&other, kStreamBytes), "cudaMalloc other");
  check(cudaMalloc(&sink, sizeof(unsigned int)), "cudaMalloc sink");
  check(cudaMalloc(&chain_ns, sizeof(unsigned long long)), "cudaMalloc chain_ns");
  check(cudaMemcpy(table, host.data(), kTableBytes, cudaMemcpyHostToDevice), "upload table");
  check(cudaMemset(other, 1, kStreamBytes), "memset other");
  cudaStream_t plain = nullptr, windowed = nullptr;
  check(cudaStreamCreate(&plain), "stream");
  check(cudaStreamCreate(&windowed), "stream");

  const int blocks = 2 * prop.multiProcessorCount;
  const char* ways[] = {"none", "loads", "prefetch evict_last", "loads, window persisting"};
  const std::size_t streamed_mb[] = {0, 16, 48, 128, 512};
  for (const bool set_aside : {false, true}) {
    const std::size_t limit = set_aside ? static_cast<std::size_t>(prop.persistingL2CacheMaxSize) : 0;
    check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, limit), "set persisting limit");
    cudaStreamAttrValue attr{};
    attr.accessPolicyWindow.base_ptr = table;
    attr.accessPolicyWindow.num_bytes = kTableBytes;
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    check(cudaStreamSetAttribute(windowed, cudaStreamAttributeAccessPolicyWindow, &attr), "window");
    std::printf("\nset-aside %zu bytes; ns a dependent load after streaming N MiB of other data\n", limit);
    std::printf("| warmed by | %s |\n", "0 | 16 | 48 | 128 | 512 MiB");
    std::printf("|---|---|---|---|---|---|\n");
    for (int way = 0; way < 4; ++way) {
      std::printf("| %s |", ways[way]);
      for (const std::size_t mb : streamed_mb) {
        std::vector<double> ns;
        for (int rep = 0; rep < 5; ++rep) {
          check(cudaCtxResetPersistingL2Cache(), "reset persisting");
          // Flush: stream the whole other buffer (plain loads), then reset persisting lines.
          sweep_loads<<<blocks, 256, 0, plain>>>(other, kStreamBytes / sizeof(unsigned int), sink);
          if (way == 1) sweep_loads<<<blocks, 256, 0, plain>>>(table, words, sink);
          if (way == 2) sweep_prefetch<<<blocks, 256, 0, plain>>>(table, words);
          check(cudaStreamSynchronize(plain), "warm");
          if (way == 3) {
            sweep_loads<<<blocks, 256, 0, windowed>>>(table, words, sink);
            check(cudaStreamSynchronize(windowed), "warm windowed");
          }
          if (mb > 0) {
            sweep_loads<<<blocks, 256, 0, plain>>>(other + (kStreamBytes - (mb << 20)) / sizeof(unsigned int),
                                                   (mb << 20) / sizeof(unsigned int), sink);
          }
          chain<<<1, 1, 0, plain>>>(table, order[static_cast<std::size_t>(rep) * 977 % lines] * kLineWords, chain_ns,
                                    sink);
          check(cudaGetLastError(), "launch");
          unsigned long long c = 0;
          check(cudaMemcpyAsync(&c, chain_ns, sizeof c, cudaMemcpyDeviceToHost, plain), "read chain_ns");
          check(cudaStreamSynchronize(plain), "chain");
          ns.push_back(static_cast<double>(c) / kChainSteps);
        }
        std::printf(" %.0f |", abfs::probe::median(ns));
      }
      std::printf("\n");
    }
  }
  check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0), "reset limit");
  return 0;
}
