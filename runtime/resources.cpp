#include "runtime/resources.hpp"

#include "graph/memory_limits.hpp"

#include <abfs/plan.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <thread>
#include <vector>

namespace abfs::detail {

void throw_cuda_error(cudaError_t error, const char* call, const char* file, int line) {
  const std::string message = std::string(call) + ": " + cudaGetErrorName(error) + " (" +
                              cudaGetErrorString(error) + ") at " + file + ":" + std::to_string(line);
  if (error == cudaErrorMemoryAllocation) throw OutOfMemory(message, 0);
  throw CudaError(message, static_cast<int>(error));
}

void report_cuda_error_nothrow(cudaError_t error, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "abfs: %s: %s at %s:%d (in a destructor; continuing)\n", call, cudaGetErrorName(error),
               file, line);
}

DeviceMemory device_memory() {
  DeviceMemory mem;
  ABFS_CUDA_CHECK(cudaMemGetInfo(&mem.free_bytes, &mem.total_bytes));
  mem.free_bytes = std::min(mem.free_bytes, byte_limit_from_env("ABFS_DEVICE_MEMORY_LIMIT"));
  return mem;
}

double elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0.0f;
  ABFS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

std::size_t allow_max_dynamic_shared_memory(const void* kernel) {
  int device = 0;
  int optin_bytes = 0;
  ABFS_CUDA_CHECK(cudaGetDevice(&device));
  ABFS_CUDA_CHECK(cudaDeviceGetAttribute(&optin_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  ABFS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const int budget = optin_bytes - static_cast<int>(attributes.sharedSizeBytes);
  ABFS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, budget));
  return static_cast<std::size_t>(budget);
}

DeviceInfo select_device(int device) {
  ABFS_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  ABFS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceInfo info;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.memory_bytes = prop.totalGlobalMem;
  return info;
}

int run_openmp_team() {
  std::atomic<int> threads{0};
#pragma omp parallel
  threads.fetch_add(1, std::memory_order_relaxed);
  return threads.load();
}

double measure_team_wake_us(int regions, int pause_ms) {
  if (regions < 1) throw InvalidArgument("measure_team_wake_us: regions must be at least 1");
  run_openmp_team();  // started
  std::vector<double> us;
  for (int r = 0; r < regions; ++r) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    const auto start = std::chrono::steady_clock::now();
    run_openmp_team();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  return median_of_values(std::move(us));
}

double team_wake_us() {
  static const double us = measure_team_wake_us(3, 5);
  return us;
}

double measure_parallel_region_us(int regions) {
  if (regions < 1) throw InvalidArgument("measure_parallel_region_us: regions must be at least 1");
  const int threads = std::max(1, omp_get_max_threads());
  const std::int64_t iterations = static_cast<std::int64_t>(threads) * 64;
  std::vector<double> us;
  std::int64_t checksum = 0;
  for (int r = 0; r <= regions; ++r) {  // the first starts or wakes the team, untimed
    const auto start = std::chrono::steady_clock::now();
    std::int64_t sum = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
    {
#pragma omp for schedule(dynamic, 64) nowait
      for (std::int64_t i = 0; i < iterations; ++i) sum += i & 7;
    }
    const double elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) us.push_back(elapsed);
    checksum += sum;
  }
  if (checksum != static_cast<std::int64_t>(regions + 1) * (iterations / 8) * 28) {
    throw Error("measure_parallel_region_us: the parallel loop lost iterations");  // and is not optimized away
  }
  return median_of_values(std::move(us));
}

double parallel_region_us() {
  static const double us = measure_parallel_region_us(9);
  return us;
}

}  // namespace abfs::detail

namespace abfs {

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: not an error for the caller
    return 0;
  }
  return count;
}

}  // namespace abfs
