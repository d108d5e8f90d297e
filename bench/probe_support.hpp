#pragma once
// Shared by the standalone device probes (idle_probe, clock_probe): checked CUDA calls, host
// clocks, medians, and the host busy on its own data between device work.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace abfs::probe {

/// Whether a CUDA device exists; where none does, says "PROGRAM: no CUDA device, skipped".
inline bool device_or_skip(const char* program) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return true;
  std::printf("%s: no CUDA device, skipped\n", program);
  return false;
}

/// Exits with "PROGRAM: WHAT: the CUDA error" where e is not cudaSuccess.
inline void check(cudaError_t e, const char* program, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s: %s\n", program, what, cudaGetErrorString(e));
    std::exit(1);
  }
}

using Clock = std::chrono::steady_clock;
inline double us_since(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

/// The upper median of v (v not empty).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The host busy on its own data for `us` (as validation or the executor's learning is between
/// BFSs), random reads and writes over scratch (256 MB: beyond the host's caches), so that the
/// driver's code and data leave the host's caches.
inline volatile unsigned long long busy_sink = 0;
inline void host_busy(double us, std::vector<unsigned int>& scratch) {
  const auto t = Clock::now();
  unsigned long long x = 0;
  std::size_t i = 0;
  while (us_since(t) < us) {
    for (int k = 0; k < 4096; ++k, i = (i * 2654435761u + 1) % scratch.size()) x += scratch[i]++;
  }
  busy_sink = x;
}

/// What the host does before a probe's measured calls: nothing (idle_us 0), sleeps, or is busy
/// (host_busy) for idle_us microseconds. name: the row's label.
struct IdleCase {
  const char* name;
  double idle_us;
  bool busy;
};
inline void idle_host(const IdleCase& c, std::vector<unsigned int>& scratch) {
  if (c.busy) {
    host_busy(c.idle_us, scratch);
  } else if (c.idle_us > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(c.idle_us));
  }
}

}  // namespace abfs::probe
