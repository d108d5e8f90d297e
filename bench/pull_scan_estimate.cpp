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
using abfs::LevelShape;
using abfs::VertexId;

std::vector<LevelShape> levels_of(const abfs::Graph& graph, VertexId source) {
  const abfs::BfsTree tree = abfs::reference_bfs(graph, source);
  std::vector<LevelShape> levels;
  for (VertexId v = 0; v < graph.num_vertices(); ++v) {
    const std::int32_t d = tree.distances[v];
    if (d < 0) continue;
    if (static_cast<std::size_t>(d) >= levels.size()) levels.resize(static_cast<std::size_t>(d) + 1);
    ++levels[static_cast<std::size_t>(d)].frontier_vertices;
    levels[static_cast<std::size_t>(d)].frontier_edges += graph.out_degree(v);
  }
  abfs::strategies::add_pull_warp_steps(graph, tree.distances, levels);
  return levels;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

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

    // The sampled profiles, as plan_bfs samples and keeps them.
    std::vector<std::vector<LevelShape>> sampled;
    std::vector<VertexId> reaches;
    for (VertexId s : abfs::random_sources(graph, 4, 2)) {
      sampled.push_back(levels_of(graph, s));
      const VertexId reach = abfs::detail::profile_reach(sampled.back());
      const bool repeated = std::any_of(reaches.begin(), reaches.end(), [&](VertexId r) { return abfs::detail::similar_reach(r, reach); });
      reaches.push_back(reach);
      if (repeated) break;
    }
    const std::vector<std::size_t> kept = abfs::detail::distinct_profiles(reaches);

    // Its component's profile (a sampled BFS of as large a reach), else the first that reached
    // as far as this BFS has, else the largest.
    auto profile_for = [&](VertexId reach, VertexId visited) {
      for (std::size_t i : kept) {
        if (abfs::detail::similar_reach(reaches[i], reach)) return i;
      }
      for (std::size_t i : kept) {
        if (reaches[i] >= visited) return i;
      }
      return kept.back();
    };

    const char* names[3] = {"mean list", "all lists", "shortest lists"};
    std::vector<double> errors[3];
    for (VertexId source : abfs::random_sources(graph, sources, 1)) {
      const std::vector<LevelShape> levels = levels_of(graph, source);
      const VertexId reach = abfs::detail::profile_reach(levels);
      VertexId visited = 0;
      EdgeOffset expanded = 0;
      for (std::size_t l = 0; l < levels.size(); ++l) {
        visited += levels[l].frontier_vertices;
        expanded += levels[l].frontier_edges;
        const EdgeOffset unexplored = m - std::min(m, expanded);
        std::vector<LevelShape> profile = sampled[profile_for(reach, visited)];
        LevelShape past = profile.back();  // Executor::make_profile's assumed level
        past.frontier_vertices = 1;
        past.frontier_edges = std::max<EdgeOffset>(1, static_cast<EdgeOffset>(std::lround(stats.mean_out_degree)));
        profile.push_back(past);
        std::vector<VertexId> through;
        std::vector<EdgeOffset> left;
        VertexId seen = 0;
        EdgeOffset out = 0;
        for (const LevelShape& p : profile) {
          through.push_back(seen += p.frontier_vertices);
          out += p.frontier_edges;
          left.push_back(m - std::min(m, out));
        }
        // Executor::matching_profile_level (without the tail rule).
        std::size_t at = std::min<std::size_t>(std::lower_bound(through.begin(), through.end(), visited) - through.begin(),
                                               through.size() - 1);
        if (at > 0 && abfs::detail::nearer_below(visited, through[at - 1], through[at])) --at;
        const double exact = price(static_cast<double>(levels[l].pull_scanned_edges), static_cast<double>(levels[l].pull_warp_steps));
        const abfs::detail::PullScans estimates[3] = {
            abfs::detail::profile_pull_scans(profile[at], levels[l].frontier_edges, unexplored, stats),
            abfs::detail::profile_pull_scans(profile[at], levels[l].frontier_edges, unexplored, stats, &in_lists),
            abfs::detail::profile_pull_scans(profile[at], levels[l].frontier_edges, unexplored, stats, &in_lists, left[at])};
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
      std::printf(" %s %.0f / %.0f / %.0f%%%s", names[e], 100 * quantile(errors[e], 0.5), 100 * quantile(errors[e], 0.9),
                  100 * quantile(errors[e], 1.0), e < 2 ? ";" : "\n");
    }
    return 0;
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "abfs_pull_scan_estimate: %s\n", e.what());
    return 1;
  }
}
