// How well a level's discoveries carry from the plan's sampled BFS to another source's frontier
// (detail::profile_discovered, the cost models' discovered-vertices features), on the host
// alone: for BFSs from random sources (abfs compare's: seed 1), each level's real discoveries
// (the next level's frontier) against the executor's estimate from the sampled profile it would
// match (bench/profile_replay.hpp), and against candidates from the BFS's own levels before:
// the estimate times this BFS's discoveries so far over their estimates (rate), times that
// ratio's square root (half: half way in log), times the last level's ratio alone (last), the
// last level's discoveries per arc times the arcs (own), and the smaller of the profile's and
// own (min). Prints per graph the discovery-weighted error
// (sum of |estimate - real| over the sum of real), the median and 90th percentile of
// |log((estimate + 1) / (real + 1))| as a ratio, and the share of levels estimated over 2x or
// under 0.5x; with --levels every level; --source S (repeatable) instead of random sources.
// Usage: abfs_discovery_estimate GRAPH [SOURCES (8)] [--levels] [--source S]...

#include <abfs/graph.hpp>

#include "bench/profile_replay.hpp"
#include "planner/executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using abfs::EdgeOffset;
using abfs::VertexId;

struct Tally {
  explicit Tally(const char* tally_name) : name(tally_name) {}
  const char* name;
  double abs_sum = 0.0;
  std::vector<double> log_errors;
  int over = 0, under = 0;

  void add(double estimate, double real) {
    abs_sum += std::fabs(estimate - real);
    const double e = std::log((estimate + 1.0) / (real + 1.0));
    log_errors.push_back(std::fabs(e));
    over += e > std::log(2.0);
    under += e < -std::log(2.0);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: abfs_discovery_estimate GRAPH [SOURCES] [--levels] [--source S]...\n");
    return 2;
  }
  try {
    const std::string spec = argv[1];
    int count = 8;
    bool each_level = false;
    std::vector<VertexId> sources;
    for (int i = 2; i < argc; ++i) {
      if (std::strcmp(argv[i], "--levels") == 0) {
        each_level = true;
      } else if (std::strcmp(argv[i], "--source") == 0 && i + 1 < argc) {
        sources.push_back(static_cast<VertexId>(std::strtoul(argv[++i], nullptr, 10)));
      } else {
        count = std::atoi(argv[i]);
      }
    }
    const abfs::Graph graph = abfs::open_graph(spec);
    const abfs::GraphStats stats = abfs::compute_stats(graph);
    const VertexId n = graph.num_vertices();
    for (VertexId s : sources) {
      if (s >= n) {
        throw abfs::InvalidArgument("--source " + std::to_string(s) + ": the graph has " + std::to_string(n) +
                                    " vertices");
      }
    }
    if (count < 1) throw abfs::InvalidArgument("SOURCES must be a positive count");
    if (sources.empty()) sources = abfs::random_sources(graph, count, 1);
    const abfs::bench::ReplayedProfiles profiles(graph, stats);

    Tally tallies[6] = {Tally("profile"), Tally("rate"), Tally("half"), Tally("last"), Tally("own"), Tally("min")};
    double real_sum = 0.0;
    for (VertexId source : sources) {
      const std::vector<abfs::LevelShape> levels = abfs::bench::levels_of(graph, source);
      const VertexId reach = abfs::detail::profile_reach(levels);
      VertexId visited = 0;
      double real_so_far = 0.0, estimated_so_far = 0.0, last_ratio = 1.0, own_per_arc = -1.0;
      // Level 0's discoveries are the source's out-neighbours, known exactly: from level 1 on.
      for (std::size_t l = 0; l < levels.size(); ++l) {
        visited += levels[l].frontier_vertices;
        const double real = l + 1 < levels.size() ? static_cast<double>(levels[l + 1].frontier_vertices) : 0.0;
        if (l == 0) {
          own_per_arc = levels[0].frontier_edges > 0 ? real / static_cast<double>(levels[0].frontier_edges) : 0.0;
          continue;
        }
        const abfs::bench::ReplayedProfile& profile = profiles.for_bfs(reach, visited);
        const std::size_t at = profile.match(visited);
        const double estimate = abfs::detail::profile_discovered(profile.levels, profile.visited, at, visited,
                                                                 levels[l].frontier_edges, n - visited);
        const double rate = estimated_so_far > 0.0 ? (real_so_far + 1.0) / (estimated_so_far + 1.0) : 1.0;
        const double cap = std::min(static_cast<double>(n - visited), static_cast<double>(levels[l].frontier_edges));
        const double own = std::min(cap, own_per_arc * static_cast<double>(levels[l].frontier_edges));
        const double estimates[6] = {estimate,
                                     std::min(cap, estimate * rate),
                                     std::min(cap, estimate * std::sqrt(rate)),
                                     std::min(cap, estimate * last_ratio),
                                     own,
                                     std::min(estimate, own)};
        for (int e = 0; e < 6; ++e) tallies[e].add(estimates[e], real);
        real_sum += real;
        if (each_level) {
          std::printf(
              "%u L%zu F%u/%llu real %.0f: profile %.0f (its level %zu) rate %.0f half %.0f last %.0f own %.0f\n",
              source, l, levels[l].frontier_vertices, static_cast<unsigned long long>(levels[l].frontier_edges), real,
              estimate, at, estimates[1], estimates[2], estimates[3], estimates[4]);
        }
        real_so_far += real;
        estimated_so_far += estimate;
        last_ratio = (real + 1.0) / (estimate + 1.0);
        own_per_arc = levels[l].frontier_edges > 0 ? real / static_cast<double>(levels[l].frontier_edges) : 0.0;
      }
    }
    std::printf("%s: %zu levels (%zu sources);", spec.c_str(), tallies[0].log_errors.size(), sources.size());
    for (const Tally& t : tallies) {
      const auto levels = static_cast<double>(std::max<std::size_t>(1, t.log_errors.size()));
      std::printf(" %s %.0f%% weighted, ratio median %.2fx p90 %.2fx, over 2x %.0f%% under 0.5x %.0f%%;", t.name,
                  100 * t.abs_sum / std::max(1.0, real_sum), std::exp(abfs::bench::quantile(t.log_errors, 0.5)),
                  std::exp(abfs::bench::quantile(t.log_errors, 0.9)), 100 * t.over / levels, 100 * t.under / levels);
    }
    std::printf("\n");
    return 0;
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "abfs_discovery_estimate: %s\n", e.what());
    return 1;
  }
}
