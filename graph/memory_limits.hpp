#pragma once
// Internal: how much memory abfs may use, on the host and on the device, with the environment's
// limits applied ($ABFS_HOST_MEMORY_LIMIT, $ABFS_DEVICE_MEMORY_LIMIT: bytes, or a number with a
// K, M or G suffix for KiB, MiB, GiB). For tests, fuzzing and shared machines.

#include <cstddef>

namespace abfs::detail {

/// The byte count in environment variable `variable`; SIZE_MAX when unset or empty.
/// @throws InvalidArgument naming the variable if it is not a byte count.
std::size_t byte_limit_from_env(const char* variable);

/// Host memory a new allocation may take: MemAvailable from /proc/meminfo (SIZE_MAX when it
/// cannot be read), at most $ABFS_HOST_MEMORY_LIMIT.
std::size_t host_memory_available();

}  // namespace abfs::detail
