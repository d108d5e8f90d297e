#pragma once
// Runs one strategy alone over a whole BFS (no executor, no cost model): the strategy expands
// every level where it is applicable, a fallback strategy the others, and the frontier is
// converted to the representation the running strategy consumes, as the executor would.

#include "runtime/bfs_buffers.hpp"
#include "strategies/strategy.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

namespace abfs::test {

struct AloneRun {
  BfsResult result;
  unsigned int overflow_pushes = 0;
  int runs = 0;              ///< calls of the strategy under test
  struct Call {
    int level;         ///< where it started
    int levels;        ///< levels it advanced
    std::string stop;  ///< its stop reason ("" if the BFS ended)
  };
  std::vector<Call> calls;  ///< each call of the strategy under test
  int levels = 0;            ///< levels it advanced
  int fallback_levels = 0;   ///< levels the fallback advanced
  std::set<std::string> stop_reasons;   ///< hand-overs of device-driven runs
  std::set<unsigned int> device_kernels;  ///< DeviceLevelRecord::kernel values seen
  int gates_opened = 0;                   ///< levels that ran the kernel the level before queued
};

/// BFS from source with strategy (fallback where it is not applicable; REQUIREs one then).
/// The state starts on the device. Checks that multi-level runs account for their levels.
/// handback: the table the strategy's runs stop by (none by default); prefetch_l2: runs are
/// told to prefetch the CSR into the L2 (LevelContext::prefetch_l2); launch_ahead: every level
/// is told it may queue the next behind it (LevelContext::launch_ahead), which the next call
/// opens where it is the same strategy's (else its wait cancels it, or collect() does).
inline AloneRun run_alone(const Graph& g, VertexId source, strategies::Strategy& strategy,
                          strategies::Strategy* fallback = nullptr, detail::HandbackTable handback = {},
                          bool prefetch_l2 = false, bool launch_ahead = false) {
  detail::BfsBuffers buffers(g, true);
  strategy.prepare(buffers);
  if (fallback != nullptr) fallback->prepare(buffers);
  AloneRun run;
  buffers.start(source);
  buffers.move_to_device(0, 1);
  VertexId begin = 0, end = 1;
  EdgeOffset edges = g.out_degree(source), edges_out_of_reached = 0;
  int level = 0;
  int bitmap_level = -1;
  while (end > begin) {
    strategies::FrontierState state;
    state.level = level;
    state.frontier_vertices = end - begin;
    state.frontier_edges = edges;
    state.unvisited_vertices = g.num_vertices() - end;
    state.location = strategies::Location::Device;
    const bool mine = strategy.applicable(state);
    if (!mine) REQUIRE_MESSAGE(fallback != nullptr, strategy.name() << " not applicable at level " << level);
    strategies::Strategy& s = mine ? strategy : *fallback;
    const strategies::FrontierIo io = s.frontier_io();
    REQUIRE(io.consumes_at == strategies::Location::Device);
    if (io.consumes == strategies::FrontierRepresentation::Bitmap && bitmap_level != level) {
      buffers.queue_to_bitmap(begin, end, static_cast<unsigned int>(level) & 1u);
    }
    strategies::LevelContext context{buffers, level, begin, end, edges};
    context.prefetch_l2 = prefetch_l2;
    context.launch_ahead = launch_ahead;
    if (mine && buffers.gate_armed()) ++run.gates_opened;  // queued by the level before, for this one
    if (mine) context.handback = handback;
    const strategies::LevelOutcome out = s.run(context);
    REQUIRE(out.levels_advanced >= 1);
    VertexId next_begin = end;
    if (out.level_records != nullptr) {
      CHECK(out.level_records[0].frontier_vertices == end - begin);
      CHECK(out.level_records[0].frontier_edges == edges);
      for (int k = 0; k < out.levels_advanced; ++k) {
        run.device_kernels.insert(out.level_records[k].kernel);
        CHECK(out.level_records[k].end_ns >= out.level_records[k].start_ns);
        if (k > 0) next_begin += out.level_records[k].frontier_vertices;
      }
      if (out.stop_reason != nullptr) run.stop_reasons.insert(out.stop_reason);
    } else {
      REQUIRE(out.levels_advanced == 1);
      // A level whose kernel ran published its counters with the kernel's clock stamps.
      if (out.edges_examined > 0) CHECK(out.device_us > 0.0);
    }
    if (mine) {
      ++run.runs;
      run.levels += out.levels_advanced;
      run.calls.push_back({level, out.levels_advanced, out.stop_reason != nullptr ? out.stop_reason : ""});
    } else {
      run.fallback_levels += out.levels_advanced;
    }
    run.overflow_pushes += out.overflow_pushes;
    edges_out_of_reached += out.edges_examined;
    level += out.levels_advanced;
    bitmap_level = io.produces == strategies::FrontierRepresentation::Bitmap ? level : -1;
    begin = next_begin;
    end = next_begin + out.next_frontier_vertices;
    edges = out.next_frontier_edges;
  }
  BfsResult& r = run.result;
  r.source = source;
  buffers.collect(end, 1, r.distances, r.parents);  // order[0] (the source) was placed on the host
  r.vertices_reached = end;
  r.edges_traversed = g.directed() ? edges_out_of_reached : edges_out_of_reached / 2;
  return run;
}

}  // namespace abfs::test
