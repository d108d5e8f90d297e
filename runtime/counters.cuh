#pragma once
// How a device level hands its counters to the host: the kernel that ends the level writes them
// into the host's mapped copy (BfsBuffers::h_counters) and then their number, and the host polls
// the number (BfsBuffers::wait_counters). A copy back and an event synchronization took 14.4-18.5
// us of host time a level where this takes 8.3-9.7 (bench/round_trip_probe.cu, H100, 2026-11-24).

#include "runtime/bfs_buffers.hpp"

namespace abfs::detail {

/// The device's global clock (%globaltimer), in ns.
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Copies *counters (device memory) into *host (BfsBuffers::h_counters, mapped host memory),
/// stamps end_ns, and then, after a system-scope fence, writes host->sequence = sequence. Called
/// by one thread once every write the host reads after the counters (counters, level log) is
/// ordered before it: by a barrier of its block (each writer of host memory fenced first) or
/// by the last-block ticket (publish_by_last_block).
__device__ inline void publish_counters(const LevelCounters* counters, LevelCounters* host, unsigned int sequence) {
  const volatile LevelCounters* from = counters;  // past L1: other blocks' atomics
  volatile LevelCounters* to = host;
  to->order_tail = from->order_tail;
  to->overflow_pushes = from->overflow_pushes;
  to->next_edges[0] = from->next_edges[0];
  to->next_edges[1] = from->next_edges[1];
  to->final_edges = from->final_edges;
  to->levels = from->levels;
  to->stop = from->stop;
  to->launch_error = from->launch_error;
  to->start_ns = from->start_ns;
  to->handback.level_us = from->handback.level_us;
  to->handback.after_us = from->handback.after_us;
  to->handback.leave_us = from->handback.leave_us;
  to->end_ns = global_ns();
  __threadfence_system();  // the counters before their number
  to->sequence = sequence;
}

/// Ends a multi-block kernel's level: the last block to finish (a ticket on blocks_done, left at
/// 0) publishes the counters. Called by every thread of every block after its block's last
/// write to counters (block 0 stamps counters->start_ns at its start).
__device__ inline void publish_by_last_block(LevelCounters* counters, LevelCounters* host, unsigned int sequence) {
  __syncthreads();  // the block's writes before its ticket
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&counters->blocks_done, 1u) != gridDim.x - 1) return;
  __threadfence();  // every other block's writes before the reads
  counters->blocks_done = 0;
  publish_counters(counters, host, sequence);
}

}  // namespace abfs::detail
