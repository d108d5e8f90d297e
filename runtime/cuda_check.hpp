#pragma once
// Error checking for CUDA calls. Every runtime call goes through ABFS_CUDA_CHECK; every launch
// is followed by ABFS_CHECK_LAUNCH; destructors use ABFS_CUDA_CHECK_NOTHROW.

#include <abfs/error.hpp>

#include <cuda_runtime_api.h>

namespace abfs::detail {

/// Throws CudaError (OutOfMemory for cudaErrorMemoryAllocation) with the call text, the error
/// name and description, and file:line.
[[noreturn]] void throw_cuda_error(cudaError_t error, const char* call, const char* file, int line);
/// For destructors: reports the failure on stderr instead of throwing.
void report_cuda_error_nothrow(cudaError_t error, const char* call, const char* file, int line) noexcept;

#ifdef ABFS_DEBUG_SYNC
inline constexpr bool kDebugSync = true;
#else
inline constexpr bool kDebugSync = false;
#endif

}  // namespace abfs::detail

#define ABFS_CUDA_CHECK(call)                                                       \
  do {                                                                              \
    const cudaError_t abfs_status_ = (call);                                        \
    if (abfs_status_ != cudaSuccess) {                                              \
      ::abfs::detail::throw_cuda_error(abfs_status_, #call, __FILE__, __LINE__);   \
    }                                                                               \
  } while (0)

#define ABFS_CHECK_LAUNCH(stream)                                                   \
  do {                                                                              \
    ABFS_CUDA_CHECK(cudaGetLastError());                                            \
    if (::abfs::detail::kDebugSync) ABFS_CUDA_CHECK(cudaStreamSynchronize(stream)); \
  } while (0)

#define ABFS_CUDA_CHECK_NOTHROW(call)                                                        \
  do {                                                                                       \
    const cudaError_t abfs_status_ = (call);                                                 \
    if (abfs_status_ != cudaSuccess) {                                                       \
      ::abfs::detail::report_cuda_error_nothrow(abfs_status_, #call, __FILE__, __LINE__);   \
    }                                                                                        \
  } while (0)

#define ABFS_EXPECTS(cond, message)                                 \
  do {                                                              \
    if (!(cond)) throw ::abfs::InvalidArgument(message);            \
  } while (0)
