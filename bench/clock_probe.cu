// Does the GPU run its SMs slower after it was idle, as between two BFSs or during host levels?
// The plan's one-block levels took ~1.2 us (~14%) more than the same levels of the Exhaustive
// oracle's trial, which follows other trials back to back (cnr-2000's source 44408, H100,
// 2026-11-28; docs/DESIGN-NOTES.md, fifty-fifth session). This probe reads an SM's clock rate
// (clock64 cycles over globaltimer nanoseconds, one thread spinning ~4 us) in the first and the
// second kernel after the GPU was idle for a while (the host sleeping or busy on its own data),
// and back to back. Medians of 21 repetitions. Prints a table; needs a device.

#include "probe_support.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace abfs::probe;  // NOLINT(google-build-using-namespace): a probe's own helpers

namespace {

void check(cudaError_t e, const char* what) { abfs::probe::check(e, "clock_probe", what); }

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// One thread spins for spin_ns of the global timer and writes {ns, SM cycles} over the spin.
__global__ void clock_rate(unsigned long long* out, unsigned long long spin_ns) {
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  while (t1 - t0 < spin_ns) t1 = global_ns();
  const long long c1 = clock64();
  out[0] = t1 - t0;
  out[1] = static_cast<unsigned long long>(c1 - c0);
}

}  // namespace

int main() {
  if (!abfs::probe::device_or_skip("clock_probe")) return 0;
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  unsigned long long* h_out = nullptr;
  check(cudaHostAlloc(&h_out, 4 * sizeof(unsigned long long), cudaHostAllocMapped), "hostalloc");
  unsigned long long* d_out = nullptr;
  check(cudaHostGetDevicePointer(&d_out, h_out, 0), "device pointer");
  std::vector<unsigned int> scratch(std::size_t{64} << 20);  // 256 MB: beyond the host's caches
  constexpr unsigned long long kSpinNs = 4000;
  auto mhz = [](const unsigned long long* r) { return r[0] > 0 ? 1000.0 * static_cast<double>(r[1]) / r[0] : 0.0; };
  // Warm: kernels back to back for ~50 ms.
  for (int k = 0; k < 10000; ++k) clock_rate<<<1, 1, 0, s>>>(d_out, kSpinNs);
  check(cudaStreamSynchronize(s), "warm");

  const IdleCase cases[] = {{"back to back", 0, false},       {"host busy 20 us", 20, true},
                        {"host busy 100 us", 100, true},   {"host busy 1 ms", 1000, true},
                        {"host busy 10 ms", 10000, true},  {"host slept 100 us", 100, false},
                        {"host slept 1 ms", 1000, false},  {"host slept 10 ms", 10000, false},
                        {"host slept 100 ms", 1e5, false}};
  std::printf("%-20s %12s %12s\n", "before the kernels", "first_MHz", "second_MHz");
  for (const IdleCase& c : cases) {
    std::vector<double> first, second;
    for (int rep = 0; rep < 21; ++rep) {
      idle_host(c, scratch);
      clock_rate<<<1, 1, 0, s>>>(d_out, kSpinNs);
      clock_rate<<<1, 1, 0, s>>>(d_out + 2, kSpinNs);
      check(cudaGetLastError(), "launch");
      check(cudaStreamSynchronize(s), "sync");
      first.push_back(mhz(h_out));
      second.push_back(mhz(h_out + 2));
    }
    std::printf("%-20s %12.0f %12.0f\n", c.name, median(first), median(second));
  }
  int rate_khz = 0;
  check(cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0), "clock rate");
  std::printf("device's rated SM clock: %.0f MHz\n", rate_khz / 1000.0);
  check(cudaFreeHost(h_out), "freehost");
  check(cudaStreamDestroy(s), "stream");
  return 0;
}
