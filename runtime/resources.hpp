#pragma once
// RAII owners of CUDA resources: device buffers, pinned host buffers, streams and events.
// The only code in abfs that allocates or frees device memory or creates streams.

#include "graph/host_pages.hpp"
#include "runtime/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace abfs::detail {

/// Median of values (the upper middle for an even count); 0 for none. The probes' statistic.
inline double median_of_values(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

/// Free and total memory of the current device, in bytes. When $ABFS_DEVICE_MEMORY_LIMIT is set
/// (graph/memory_limits.hpp), free_bytes is at most that: abfs then plans as if the device had
/// only that much free (for tests and shared GPUs).
/// @throws InvalidArgument if the variable is not such a number.
struct DeviceMemory {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};
DeviceMemory device_memory();

/// Typed, uninitialized, move-only device array of `size()` elements (cudaMalloc).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// @throws OutOfMemory with the bytes requested and free.
  explicit DeviceBuffer(std::size_t count) : size_(count) {
    if (count == 0) return;
    const cudaError_t status = cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // clear the sticky-free allocation error
      const DeviceMemory mem = device_memory();
      throw OutOfMemory("device allocation of " + std::to_string(count * sizeof(T)) + " bytes failed (" +
                            std::to_string(mem.free_bytes) + " bytes free)",
                        count * sizeof(T));
    }
    ABFS_CUDA_CHECK(status);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

 private:
  void release() noexcept {
    if (data_ != nullptr) ABFS_CUDA_CHECK_NOTHROW(cudaFree(data_));
    data_ = nullptr;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// PinnedBuffer's constructor for an array the host reads at random: in transparent huge pages.
struct InHugePages {};

/// Typed, move-only page-locked host array (cudaHostAlloc), for asynchronous transfers; with
/// flags = cudaHostAllocMapped, kernels also write it directly (same pointer, unified addressing).
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// Zero-filled, in 2 MiB-aligned memory that use_huge_pages backs with transparent huge pages
  /// where the kernel gives them, pinned with cudaHostRegister. huge_page_bytes() says how much
  /// of it huge pages back. @throws OutOfMemory with the bytes requested.
  PinnedBuffer(std::size_t count, InHugePages) : size_(count) {
    if (count == 0) return;
    const std::size_t bytes = (count * sizeof(T) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* memory = std::aligned_alloc(kHugePageBytes, bytes);
    if (memory == nullptr) {
      throw OutOfMemory("host allocation of " + std::to_string(bytes) + " bytes failed", bytes);
    }
    advise_huge_pages(memory, bytes);  // before the first write, which faults in huge pages
    std::memset(memory, 0, bytes);
    huge_page_bytes_ = use_huge_pages(memory, bytes);
    const cudaError_t status = cudaHostRegister(memory, bytes, cudaHostRegisterDefault);
    if (status != cudaSuccess) {
      std::free(memory);
      (void)cudaGetLastError();
      if (status == cudaErrorMemoryAllocation) {
        throw OutOfMemory("pinning " + std::to_string(bytes) + " bytes of host memory failed", bytes);
      }
      ABFS_CUDA_CHECK(status);
    }
    data_ = static_cast<T*>(memory);
    registered_ = true;
  }
  /// @throws OutOfMemory with the bytes requested.
  explicit PinnedBuffer(std::size_t count, unsigned int flags = cudaHostAllocDefault) : size_(count) {
    if (count == 0) return;
    const cudaError_t status = cudaHostAlloc(reinterpret_cast<void**>(&data_), count * sizeof(T), flags);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw OutOfMemory("pinned host allocation of " + std::to_string(count * sizeof(T)) + " bytes failed",
                        count * sizeof(T));
    }
    ABFS_CUDA_CHECK(status);
  }
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        huge_page_bytes_(std::exchange(other.huge_page_bytes_, 0)),
        registered_(std::exchange(other.registered_, false)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      huge_page_bytes_ = std::exchange(other.huge_page_bytes_, 0);
      registered_ = std::exchange(other.registered_, false);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t huge_page_bytes() const noexcept { return huge_page_bytes_; }

 private:
  void release() noexcept {
    if (data_ != nullptr && registered_) {
      ABFS_CUDA_CHECK_NOTHROW(cudaHostUnregister(data_));
      std::free(data_);
    } else if (data_ != nullptr) {
      ABFS_CUDA_CHECK_NOTHROW(cudaFreeHost(data_));
    }
    data_ = nullptr;
    registered_ = false;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t huge_page_bytes_ = 0;
  bool registered_ = false;  // InHugePages: aligned_alloc'd and cudaHostRegister'ed
};

/// Owns a non-blocking CUDA stream.
class Stream {
 public:
  Stream() { ABFS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  ~Stream() {
    if (stream_ != nullptr) ABFS_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
  }
  cudaStream_t get() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Owns a CUDA event (a timing one unless flags say otherwise).
class Event {
 public:
  explicit Event(unsigned int flags = cudaEventDefault) { ABFS_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  ~Event() {
    if (event_ != nullptr) ABFS_CUDA_CHECK_NOTHROW(cudaEventDestroy(event_));
  }
  cudaEvent_t get() const noexcept { return event_; }
  void record(cudaStream_t stream) { ABFS_CUDA_CHECK(cudaEventRecord(event_, stream)); }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Owns a CUDA graph and, once instantiated, its executable graph.
class CudaGraph {
 public:
  CudaGraph() { ABFS_CUDA_CHECK(cudaGraphCreate(&graph_, 0)); }
  CudaGraph(CudaGraph&& other) noexcept
      : graph_(std::exchange(other.graph_, nullptr)), exec_(std::exchange(other.exec_, nullptr)) {}
  CudaGraph& operator=(CudaGraph&&) = delete;
  CudaGraph(const CudaGraph&) = delete;
  ~CudaGraph() {
    if (exec_ != nullptr) ABFS_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(exec_));
    if (graph_ != nullptr) ABFS_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph_));
  }
  cudaGraph_t get() const noexcept { return graph_; }
  /// The executable graph, or null before instantiate().
  cudaGraphExec_t exec() const noexcept { return exec_; }
  /// Instantiates the graph (flags as cudaGraphInstantiateWithFlags: cudaGraphInstantiateFlagDeviceLaunch for a
  /// graph the device launches) and uploads it to stream. @throws CudaError.
  cudaGraphExec_t instantiate(unsigned long long flags, cudaStream_t stream) {
    ABFS_CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec_, graph_, flags));
    ABFS_CUDA_CHECK(cudaGraphUpload(exec_, stream));
    return exec_;
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

/// Adds to graph, after dependency (none if null), a kernel node that runs
/// kernel<<<blocks, threads, shared_bytes>>>(args...); returns the node. @throws CudaError.
template <class... Args>
cudaGraphNode_t add_kernel_node(cudaGraph_t graph, cudaGraphNode_t dependency, void (*kernel)(Args...), dim3 blocks,
                                dim3 threads, unsigned int shared_bytes, Args... args) {
  void* params[] = {&args..., nullptr};
  cudaKernelNodeParams p{};
  p.func = reinterpret_cast<void*>(kernel);
  p.gridDim = blocks;
  p.blockDim = threads;
  p.sharedMemBytes = shared_bytes;
  p.kernelParams = params;
  cudaGraphNode_t node = nullptr;
  ABFS_CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, dependency != nullptr ? &dependency : nullptr,
                                         dependency != nullptr ? 1 : 0, &p));
  return node;
}

/// Loads kernel (a __global__ function) onto the current device now. CUDA 12.2+ loads each
/// kernel lazily, at its first launch or reference, and that first launch then costs the BFS
/// level that makes it tens to hundreds of microseconds (a privatized_queue level of 16,058 arcs
/// took 157 us of device time, 35 predicted, on its plan's second BFS; H100, 2026-11-22).
/// Plans load every kernel at prepare(), as they do all their other setup: here, or through
/// another reference (allow_max_dynamic_shared_memory, a graph's instantiation, a CUB call).
/// @throws CudaError.
inline void preload_kernel(const void* kernel) {
  cudaFuncAttributes attributes{};
  ABFS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
}

/// Milliseconds between two recorded events; both must have completed.
double elapsed_ms(const Event& start, const Event& stop);

/// Runs one parallel region on the host's OpenMP team (omp_get_max_threads() threads), each
/// thread counting itself, and returns the count: it starts the team where this thread has
/// none yet (libgomp starts its threads at a thread's first region) and wakes it where its
/// threads sleep. An empty region is no substitute: the compiler may drop it.
int run_openmp_team();

/// The host's OpenMP team woken after a pause, in us: a parallel region of every thread
/// (run_openmp_team) pause_ms after the last one (libgomp's threads have stopped spinning and
/// sleep by then), median of `regions`. Takes regions * (pause_ms + the wake).
double measure_team_wake_us(int regions, int pause_ms);

/// This process's team wake (measure_team_wake_us(3, 5)), measured at the first call (~15-30
/// ms) and kept. It differs between hosts of the same kind: calibration measured 67-3,969 us on
/// H100 hosts (16-core VM slices, 2026-11-22..24), and a parallel host loop after a pause pays
/// it whole: an upload of ~50,000 visits took 13,212 us on a host that woke its team in ~3.4 ms.
double team_wake_us();

/// A parallel host level's fixed cost on this host, in us: regions back to back, each as
/// cpu_expand's parallel loop runs one (every thread, a dynamic schedule of 64-iteration chunks,
/// a reduction) over one chunk a thread, median of `regions` after an untimed first. With
/// libgomp's default wait policy the team spins between them (8.0-9.1 us on the H100's 16-core
/// host); with OMP_WAIT_POLICY=passive every region wakes a sleeping team (37.7 us there), and
/// calibration had fitted cpu_expand's parallel level at 120-129 us against 0-10 with the
/// default policy (2026-11-24).
/// @throws InvalidArgument if regions < 1; Error if the loop's sum comes out wrong (it is
/// checked so that the compiler keeps the loop).
double measure_parallel_region_us(int regions);

/// This process's parallel region cost (measure_parallel_region_us(9)), measured at the first
/// call (~0.1-2 ms) and kept: cpu_expand's parallel_level coefficient, as team_wake_us() is its
/// team_wake one.
double parallel_region_us();

/// Lets kernel (a __global__ function) use all the dynamic shared memory the current device
/// allows per block, its opt-in limit less the kernel's static shared memory, and returns that
/// many bytes. The attribute belongs to the kernel, not to a plan: every plan sets the maximum,
/// so that a later plan cannot shrink it under another's launch. @throws CudaError.
std::size_t allow_max_dynamic_shared_memory(const void* kernel);

/// Host-clock microseconds from start to stop (steady clock).
inline double microseconds_between(std::chrono::steady_clock::time_point start,
                                   std::chrono::steady_clock::time_point stop) {
  return std::chrono::duration<double, std::micro>(stop - start).count();
}

/// Host-clock microseconds since start (steady clock).
inline double microseconds_since(std::chrono::steady_clock::time_point start) {
  return microseconds_between(start, std::chrono::steady_clock::now());
}

/// What the executor reports about the device in use.
struct DeviceInfo {
  std::string name;
  int multiprocessors = 0;
  int compute_major = 0;
  int compute_minor = 0;
  std::size_t memory_bytes = 0;
};
/// Makes `device` current and describes it. @throws CudaError if it does not exist.
DeviceInfo select_device(int device);

}  // namespace abfs::detail
