#pragma once
// A kernel launched ahead of the host's decision waits at its start for the host to open its
// gate or cancel it (BfsBuffers::arm_gate). Block 0 polls the host's word (mapped memory, a
// read across the bus) and relays what it reads into a device word, which the other blocks
// poll in the L2: one block's reads cross the bus, not every block's.

#include "runtime/bfs_buffers.hpp"
#include "runtime/counters.cuh"

namespace abfs::detail {

/// How long a gate may stay shut before the kernel gives up and returns as if cancelled (ns):
/// a host that never decides (a bug) then ends in the level's missing counters (an error)
/// rather than a device that spins for ever.
constexpr unsigned long long kGateTimeoutNs = 2'000'000'000ull;

/// Called by every thread of every block at the kernel's start; false: the host cancelled the
/// level, and the kernel must return at once without a write. host_gate nullptr: no gate (the
/// kernel was launched after the decision), true at once. Every block of the kernel must be
/// resident together (the others wait on block 0's relay).
__device__ inline bool pass_gate(const unsigned int* host_gate, unsigned int* device_gate, unsigned int sequence) {
  if (host_gate == nullptr) return true;
  __shared__ bool open;
  if (threadIdx.x == 0) {
    const volatile unsigned int* host = host_gate;
    volatile unsigned int* device = device_gate;
    const unsigned int cancelled = sequence | kGateCancelled;
    const unsigned long long start = global_ns();
    unsigned int seen = 0;
    for (;;) {
      seen = blockIdx.x == 0 ? *host : *device;
      if (seen == sequence || seen == cancelled) break;
      if (global_ns() - start > kGateTimeoutNs) {
        seen = cancelled;
        break;
      }
      __nanosleep(blockIdx.x == 0 ? 64 : 256);
    }
    if (blockIdx.x == 0) {
      *device = seen;
      __threadfence();
    }
    open = seen == sequence;
  }
  __syncthreads();
  // `open` is this function's own shared variable, written once a launch: no second barrier.
  return open;
}

}  // namespace abfs::detail
