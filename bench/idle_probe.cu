// Why does the first upload of a BFS cost 34-85 us of host time (docs/DESIGN-NOTES.md)? This
// probe times, on the host clock, each call of that upload (cudaMemsetAsync, a 12-byte pinned
// cudaMemcpyAsync, a kernel launch, then cudaStreamSynchronize) after the GPU and the host were
// idle or busy for a while: back to back, after the host slept, and after the host computed
// (as validation does between BFSs). Medians of 21 repetitions. Prints a table; needs a device.

#include "probe_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace abfs::probe;  // NOLINT(google-build-using-namespace): a probe's own helpers

namespace {

void check(cudaError_t e, const char* what) { abfs::probe::check(e, "idle_probe", what); }

__global__ void touch(unsigned int* data, unsigned int n) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1u;
}

}  // namespace

int main() {
  if (!abfs::probe::device_or_skip("idle_probe")) return 0;
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  constexpr unsigned int kWords = 1u << 15;
  unsigned int *d_bits = nullptr, *d_stage = nullptr, *h_stage = nullptr;
  check(cudaMalloc(&d_bits, kWords * sizeof(unsigned int)), "malloc");
  check(cudaMalloc(&d_stage, 64), "malloc");
  check(cudaHostAlloc(&h_stage, 64, cudaHostAllocDefault), "hostalloc");
  std::vector<unsigned int> scratch(std::size_t{64} << 20);  // 256 MB: beyond the host's caches

  const IdleCase cases[] = {{"back to back", 0, false},      {"host slept 100 us", 100, false},
                        {"host slept 1 ms", 1000, false}, {"host slept 10 ms", 10000, false},
                        {"host slept 100 ms", 1e5, false}, {"host busy 1 ms", 1000, true},
                        {"host busy 10 ms", 10000, true}, {"host busy 100 ms", 1e5, true}};
  std::printf("%-20s %10s %10s %10s %10s %10s\n", "before the upload", "memset_us", "copy_us", "launch_us", "sync_us",
              "total_us");
  for (const IdleCase& c : cases) {
    std::vector<double> memset_us, copy_us, launch_us, sync_us, total_us;
    for (int rep = 0; rep < 21; ++rep) {
      idle_host(c, scratch);
      const auto t0 = Clock::now();
      check(cudaMemsetAsync(d_bits, 0, kWords * sizeof(unsigned int), s), "memset");
      const auto t1 = Clock::now();
      check(cudaMemcpyAsync(d_stage, h_stage, 12, cudaMemcpyHostToDevice, s), "copy");
      const auto t2 = Clock::now();
      touch<<<1, 32, 0, s>>>(d_bits, 32);
      check(cudaGetLastError(), "launch");
      const auto t3 = Clock::now();
      check(cudaStreamSynchronize(s), "sync");
      const auto t4 = Clock::now();
      auto us = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::micro>(b - a).count();
      };
      memset_us.push_back(us(t0, t1));
      copy_us.push_back(us(t1, t2));
      launch_us.push_back(us(t2, t3));
      sync_us.push_back(us(t3, t4));
      total_us.push_back(us(t0, t4));
    }
    std::printf("%-20s %10.1f %10.1f %10.1f %10.1f %10.1f\n", c.name, median(memset_us), median(copy_us),
                median(launch_us), median(sync_us), median(total_us));
  }
  check(cudaFree(d_bits), "free");
  check(cudaFree(d_stage), "free");
  check(cudaFreeHost(h_stage), "freehost");
  check(cudaStreamDestroy(s), "stream");
  return 0;
}
