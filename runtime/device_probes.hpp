#pragma once
// Microbenchmarks of the device's mechanisms, for calibration (planner/calibrate.cpp).

#include "runtime/resources.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace abfs::detail {

/// Median over repetitions of the CUDA-event milliseconds of launch() on stream, after one
/// warm-up call. launch() enqueues work on stream; each repetition synchronizes on its stop
/// event. @throws CudaError if a launch fails.
template <class Launch>
double median_event_ms(Stream& stream, int repetitions, Launch launch) {
  Event start, stop;
  launch();
  ABFS_CHECK_LAUNCH(stream.get());
  std::vector<double> ms;
  for (int r = 0; r < repetitions; ++r) {
    start.record(stream.get());
    launch();
    ABFS_CHECK_LAUNCH(stream.get());
    stop.record(stream.get());
    // The host reads the timing next.
    ABFS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    ms.push_back(elapsed_ms(start, stop));
  }
  return median_of_values(ms);
}

/// Measures the current device, on its own stream, and returns measurements by name with unit
/// suffix: kernel_launch_us (back to back), launch_sync_us (launch + 4-byte copy-back + host
/// sync, host clock), h2d_latency_us (4-byte pinned upload + sync), block_barrier_iteration_us
/// (one 512-thread block: a dependent load and two __syncthreads()), stream_read_bytes_per_s,
/// gather_{l2,dram}_per_s and atomic_{l2,dram}_per_s (random 4-byte accesses to a 16 MiB and a
/// 1 GiB table), h2d_bytes_per_s and d2h_bytes_per_s (256 MiB pinned). Patient uses more
/// repetitions and a larger streaming buffer. step(name) is called before each probe.
/// Allocates up to ~2.3 GiB of device memory while it runs. @throws CudaError, OutOfMemory.
std::map<std::string, double> measure_device_probes(bool patient, const std::function<void(const std::string&)>& step);

}  // namespace abfs::detail
