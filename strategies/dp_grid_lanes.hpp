#pragma once
// How many lanes of dynamic_parallel's grid level (dp_grid_level) scan one frontier vertex's
// arcs: shared by the kernel and by the planner, which corrects the prices of the grid levels of
// a lane a vertex apart from the others (Executor::carried_group), on the host and in the
// device's hand-back decision.

#include <abfs/graph.hpp>

#include <cuda_runtime.h>

namespace abfs::strategies {

/// Lanes that scan one frontier vertex's arcs, from the frontier's mean degree: 1 below 8 arcs
/// (the block's arcs are then dealt to its threads evenly, visit_gathered), 8 below 16, 16
/// below 32, else the warp.
__host__ __device__ inline unsigned int grid_group_lanes(VertexId frontier_size, EdgeOffset frontier_edges) {
  const EdgeOffset size = frontier_size > 0 ? frontier_size : 1;
  if (frontier_edges < 8 * size) return 1;
  if (frontier_edges < 16 * size) return 8;
  if (frontier_edges < 32 * size) return 16;
  return 32;
}

}  // namespace abfs::strategies
