// How well a bottom-up level's scans carry from the plan's sampled BFS to another source's
// frontier (detail::profile_pull_scans), on the host alone: for BFSs from random sources, each
// level's exact scanned in-arcs and critical-path steps (strategies::add_pull_warp_steps)
// against the estimates from the sampled profile the executor would match (as plan_bfs samples
// it: sources of seed 2 until a reach repeats), each priced by gather_pull's fitted run,
// vertices, scanned-arc (at the H100's L2 miss share) and step terms of the first wisdom entry
// that has it (the shipped profiles by default). Three estimates:
// the mean list's share (no in-lists), S over every in-list, and S over the shortest lists
// holding the unexplored arcs (InListScans). Prints the relative price error's median, 90th
// percentile and maximum per graph, and with --levels every level.
// Usage: abfs_pull_scan_estimate GRAPH [SOURCES (8)] [--levels] [--wisdom FILE]

#include <abfs/graph.hpp>
#include <abfs/wisdom.hpp>

#include "bench/profile_replay.hpp"
#include "planner/executor.hpp"
#include "planner/in_list_scans.hpp"
#include "runtime/bfs_buffers.hpp"
#include "strategies/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using abfs::EdgeOffset;
using abfs::VertexId;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: abfs_pull_scan_estimate GRAPH [SOURCES] [--levels] [--wisdom FILE]\n");
    return 2;
  }
  try {
    const std::string spec = argv[1];
    int sources = 8;
    bool each_level = false;
    std::string wisdom_path;
    for (int i = 2; i < argc; ++i) {
      if (std::strcmp(argv[i], "--levels") == 0) {
        each_level = true;
      } else if (std::strcmp(argv[i], "--wisdom") == 0 && i + 1 < argc) {
        wisdom_path = argv[++i];
      } else {
        sources = std::atoi(argv[i]);
      }
    }
    const abfs::Wisdom wisdom = wisdom_path.empty() ? abfs::Wisdom::shipped() : abfs::Wisdom::load(wisdom_path);
    std::map<std::string, double> terms;
    for (const auto& device : wisdom.devices()) {
      const auto model = device.models.find("gather_pull");
      if (model == device.models.end()) continue;
      for (std::size_t i = 0; i < model->second.features.size(); ++i) terms[model->second.features[i]] = model->second.coefficients[i];
      break;
    }
    if (terms.empty()) throw abfs::Error("no gather_pull model in the wisdom");

    const abfs::Graph graph = abfs::open_graph(spec);
    const abfs::GraphStats stats = abfs::compute_stats(graph);
    const EdgeOffset m = graph.num_edges();
    const abfs::detail::InListScans in_lists(graph.directed() ? graph.reverse_csr() : graph.csr());
    const double l2_bytes = 50.0 * 1024 * 1024;  // the H100's
    const double per_scan = terms["scanned_edges"] + terms["dram_scanned_edges"] * abfs::strategies::device_miss_share(stats, l2_bytes);
    const double fixed = terms["run"] + terms["vertices"] * static_cast<double>(stats.num_vertices);
    auto price = [&](double scanned, double steps) { return fixed + per_scan * scanned + terms["warp_scan_steps"] * steps; };

    const abfs::bench::ReplayedProfiles profiles(graph, stats);  // as plan_bfs samples and keeps them

    const char* names[3] = {"mean list", "all lists", "shortest lists"};
    std::vector<double> errors[3];
    for (VertexId source : abfs::random_sources(graph, sources, 1)) {
      const std::vector<abfs::LevelShape> levels = abfs::bench::levels_of(graph, source);
      const VertexId reach = abfs::detail::profile_reach(levels);
      VertexId visited = 0;
      EdgeOffset expanded = 0;
      for (std::size_t l = 0; l < levels.size(); ++l) {
        visited += levels[l].frontier_vertices;
        expanded += levels[l].frontier_edges;
        const EdgeOffset unexplored = m - std::min(m, expanded);
        const abfs::bench::ReplayedProfile& profile = profiles.for_bfs(reach, visited);
        const std::size_t at = profile.match(visited);
        const std::vector<abfs::LevelShape>& shapes = profile.levels;
        const double exact = price(static_cast<double>(levels[l].pull_scanned_edges), static_cast<double>(levels[l].pull_warp_steps));
        const abfs::detail::PullScans estimates[3] = {
            abfs::detail::profile_pull_scans(shapes[at], levels[l].frontier_edges, unexplored, stats),
            abfs::detail::profile_pull_scans(shapes[at], levels[l].frontier_edges, unexplored, stats, &in_lists),
            abfs::detail::profile_pull_scans(shapes[at], levels[l].frontier_edges, unexplored, stats, &in_lists,
                                             profile.unexplored[at])};
        if (each_level) std::printf("%u L%zu exact %.1f us:", source, l, exact);
        for (int e = 0; e < 3; ++e) {
          const double estimated = price(estimates[e].scanned_edges, estimates[e].warp_steps);
          errors[e].push_back(std::fabs(estimated / exact - 1.0));
          if (each_level) std::printf(" %s %.2fx", names[e], estimated / exact);
        }
        if (each_level) std::printf("\n");
      }
    }
    std::printf("%s: %zu levels; price error median / p90 / max:", spec.c_str(), errors[0].size());
    for (int e = 0; e < 3; ++e) {
      std::printf(" %s %.0f / %.0f / %.0f%%%s", names[e], 100 * abfs::bench::quantile(errors[e], 0.5), 100 * abfs::bench::quantile(errors[e], 0.9),
                  100 * abfs::bench::quantile(errors[e], 1.0), e < 2 ? ";" : "\n");
    }
    return 0;
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "abfs_pull_scan_estimate: %s\n", e.what());
    return 1;
  }
}
