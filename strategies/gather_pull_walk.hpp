#pragma once
// How gather_pull's kernel (expand_bottom_up) walks a level's in-lists, shared by the kernel and
// by add_pull_warp_steps, which replays the walk on the host for the cost model's critical path.

#include <abfs/graph.hpp>

#include <cmath>

namespace abfs::strategies::pull_walk {

/// In-lists longer than this are scanned by the whole warp. 32: one step of the warp covers it.
constexpr EdgeOffset kWarpScanDegree = 32;
/// Most runs of 32 in-arcs a warp's step over a long list loads at once (its steps double to
/// it). 4 keeps the kernel at 32 registers (8 resident blocks an SM); 8 spilled.
constexpr int kMaxStrides = 4;
/// In-lists longer than this (in-hubs) are shared where their first kHubDegree in-arcs hold no
/// parent: the rest is listed for the whole grid, whose warps claim kHubChunk in-arcs of it at a
/// time once their own words are done (kron:22's in-hubs, found early, stay with their warp:
/// listed whole from the start, forced gather_pull took 9.6 ms against 3.4). An unreached in-hub
/// held its warp for the whole list: uk-2007-05@100000 has six of ~53,000 in-arcs, ~415
/// dependent steps of 128 each. Forced gather_pull, 2 x 16 sources interleaved with version 7
/// (H100, 2026-11-25): uk-2007-05@100000 1.83 -> 1.31 ms, cnr-2000 15.7 -> 7.1, kron:22 3.39 ->
/// 3.00, uniform:1048576:8 (no in-hub) 0.49 / 0.46 -> 0.48 / 0.51 (version 8, at 4,096 in-arcs).
/// Version 9 shares from 256: uk-2007-05@100000's level 4 from source 13387 (1.57 million
/// in-arcs) took 429-442 us with warps whose 32 vertices all have unreached 3,003-arc in-lists,
/// 800 dependent steps (bench/pull_critical_path.py); past 256 the worst warp walks 128 steps
/// and 644 lists (603,461 in-arcs) are shared.
constexpr EdgeOffset kHubDegree = 256;
/// A warp whose long in-lists hold at most this many in-arcs in all past their first kHubDegree
/// scans them whole itself instead of listing the rests (version 10). Listed, a rest of a few
/// hundred in-arcs cost its warp a fence, an entry and a pick of it back, and every other warp a
/// pick: forced gather_pull, 2 x 16 sources interleaved, 0 / 1,024 / 2,048 (ms, H200,
/// 2026-11-26): cnr-2000 2.46 / 2.07 / 1.84, kron:22 2.55 / 2.08 / 2.12, email-Enron 0.27 /
/// 0.26 / 0.24, ca-AstroPh-lcc 0.27 / 0.25 / 0.25, soc-Slashdot0902 0.30 / 0.27 / 0.28,
/// uk-2007-05@100000 0.56 / 0.58 / 0.58.
constexpr unsigned int kWarpKeepArcs = 2048;

/// Dependent steps of a warp's scan of a long in-list of `arcs` (to its end): runs of 32 arcs in
/// steps of 1, 2, then kMaxStrides runs.
inline double long_list_steps(double arcs) {
  const double runs = std::ceil(arcs / static_cast<double>(kWarpScanDegree));
  double steps = 0.0, covered = 0.0;
  for (int strides = 1; strides < kMaxStrides && covered < runs; strides *= 2) {
    covered += strides;
    steps += 1.0;
  }
  return covered >= runs ? steps : steps + std::ceil((runs - covered) / kMaxStrides);
}

}  // namespace abfs::strategies::pull_walk
