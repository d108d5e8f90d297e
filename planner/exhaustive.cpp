// PlanFlags::Exhaustive: the per-level oracle, the yardstick for the planner.
//
// At every level the visit state is checkpointed, and every applicable strategy runs from it
// (device-driven ones for as many levels as they carry), with its conversion synchronized and
// timed apart from its run. The BFS then advances by the fastest single level. When the BFS is
// over, a dynamic program over (level, where the state is, whether the frontier bitmap exists)
// finds the cheapest chain of measured options: conversions cost what was measured at that
// level when a trial needed exactly that conversion, otherwise the cost model's prediction (0
// without one). Uploads are priced for the frontier alone, a lower bound, so the oracle errs
// on the fast side.

#include "planner/executor.hpp"

#include <abfs/error.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>

namespace abfs::detail {
namespace {

using strategies::FrontierRepresentation;
using strategies::Location;

// One strategy timed at one level.
struct Option {
  strategies::Strategy* strategy = nullptr;
  double conversion_us = 0.0;
  std::vector<double> level_us;  // per level carried; the first includes launch and sync
  double predicted_us = 0.0;
};

// What the trials measured at one level.
struct LevelTrials {
  VertexId frontier_vertices = 0;
  EdgeOffset frontier_edges = 0;
  std::vector<Option> options;
  // Conversions measured alone at this level (negative: not measured).
  double to_device_us = -1.0, to_host_us = -1.0, to_bitmap_us = -1.0;
  double to_device_predicted = 0.0, to_host_predicted = 0.0, to_bitmap_predicted = 0.0;
};

constexpr int kStates = 4;  // (host, device) x (queue, bitmap)
int state_index(Location l, bool bitmap) { return (l == Location::Device ? 2 : 0) + (bitmap ? 1 : 0); }

}  // namespace

void Executor::execute_exhaustive(VertexId source, BfsResult& result) {
  const Graph& graph = buffers_.graph();
  const cudaStream_t stream = buffers_.stream();
  auto synchronize = [&] {
    // Trials are timed from an idle device.
    if (buffers_.has_device()) ABFS_CUDA_CHECK(cudaStreamSynchronize(stream));
  };
  result.source = source;
  result.levels.clear();
  const auto wall_start = std::chrono::steady_clock::now();
  const VertexId reach_limit = start_buffers(source);

  Placement placement;
  VertexId begin = 0;
  VertexId end = 1;
  EdgeOffset frontier_edges = graph.out_degree(source);
  EdgeOffset edges_out_of_reached = 0;
  int level = 0;
  std::vector<LevelTrials> trials;
  // As execute_levels: over once all the source reaches is visited.
  while (end > begin && (level == 0 || end < reach_limit)) {
    const strategies::FrontierState state =
        frontier_state(level, end - begin, end, frontier_edges, edges_out_of_reached, placement);

    LevelTrials here;
    here.frontier_vertices = state.frontier_vertices;
    here.frontier_edges = frontier_edges;
    here.to_device_predicted =
        predict_upload_us(state.frontier_vertices, placement.synced(Location::Device) == 0, level);
    here.to_host_predicted = predict(to_host_model_, to_host_features(buffers_.visited_words, state.frontier_vertices));
    here.to_bitmap_predicted = predict(to_bitmap_model_, to_bitmap_features(buffers_.visited_words, state.frontier_vertices));
    synchronize();
    buffers_.save_checkpoint();
    const Placement saved = placement;
    for (const auto& owned : strategies_) {
      strategies::Strategy& s = *owned;
      if (!s.applicable(state)) continue;
      if (options_.cold_trials) buffers_.flush_l2();  // before the restore, which brings the visit state back
      buffers_.restore_checkpoint();
      placement = saved;
      synchronize();
      Option option;
      option.strategy = &s;
      // The conversion, one step at a time, each synchronized so that it is timed alone.
      const VertexId device_end = placement.synced(Location::Device);
      auto t = std::chrono::steady_clock::now();
      if (move_for(s, placement, begin, end)) {
        synchronize();
        const double us = microseconds_since(t);
        option.conversion_us += us;
        const bool to_device = placement.location == Location::Device;
        (to_device ? here.to_device_us : here.to_host_us) = us;
        if (samples_ != nullptr) {
          samples_->push_back(to_device ? CostSample{kToDevice, to_device_features(end - device_end, device_end == 0), us}
                                        : CostSample{kToHost, to_host_features(buffers_.visited_words, end - begin), us});
        }
      }
      t = std::chrono::steady_clock::now();
      if (bitmap_for(s, placement, level, begin, end)) {
        synchronize();
        const double us = microseconds_since(t);
        option.conversion_us += us;
        here.to_bitmap_us = us;
        if (samples_ != nullptr) {
          samples_->push_back({kToBitmap, to_bitmap_features(buffers_.visited_words, end - begin), us});
        }
      }
      const strategies::CostFeatures features = s.cost_features(state, stats_);
      option.predicted_us = predict(model_of(&s), features);
      strategies::LevelContext context{buffers_, level, begin, end, frontier_edges};
      t = std::chrono::steady_clock::now();
      const strategies::LevelOutcome outcome = s.run(context);
      const double wall_us = microseconds_since(t);
      if (outcome.level_records == nullptr) {
        option.level_us.push_back(wall_us);
        if (samples_ != nullptr) samples_->push_back({s.name(), features, wall_us});
      } else {
        double later_us = 0.0;
        option.level_us.push_back(0.0);
        VertexId visited = end;
        EdgeOffset expanded = edges_out_of_reached + frontier_edges;
        for (int k = 1; k < outcome.levels_advanced; ++k) {
          const DeviceLevelRecord& d = outcome.level_records[k];
          const double us = static_cast<double>(d.end_ns - d.start_ns) / 1000.0;
          later_us += us;
          option.level_us.push_back(us);
          visited += d.frontier_vertices;
          if (samples_ != nullptr) {
            samples_->push_back(
                {s.name(), s.cost_features(continued_state(level + k, d, outcome.level_records[k - 1], visited, expanded,
                                                        Location::Device), stats_),
                 us});
          }
          expanded += d.frontier_edges;
        }
        option.level_us.front() = std::max(0.0, wall_us - later_us);
        // The first record carries the run's loop exits (LoopExits).
        const strategies::LoopExits exits = strategies::loop_exits(outcome);
        option.predicted_us += loop_exit_us(s, exits.count, exits.vertices);
        if (samples_ != nullptr) {
          samples_->push_back({s.name(),
                               exits.count > 0 ? s.cost_features(with_loop_exits(state, exits), stats_) : features,
                               option.level_us.front()});
        }
      }
      here.options.push_back(std::move(option));
    }
    if (here.options.empty()) throw Error("exhaustive plan: no strategy applies at level " + std::to_string(level));

    // Advance the real BFS by the fastest single level.
    const Option* fastest = &here.options.front();
    for (const Option& o : here.options) {
      if (o.conversion_us + o.level_us.front() < fastest->conversion_us + fastest->level_us.front()) fastest = &o;
    }
    strategies::Strategy& chosen = *fastest->strategy;
    buffers_.restore_checkpoint();
    placement = saved;
    convert(chosen, placement, level, begin, end);
    strategies::LevelContext context{buffers_, level, begin, end, frontier_edges};
    context.max_levels = 1;
    const strategies::LevelOutcome outcome = chosen.run(context);
    trials.push_back(std::move(here));

    edges_out_of_reached += outcome.edges_examined;
    level += outcome.levels_advanced;
    begin = end;
    end = end + outcome.next_frontier_vertices;
    after_run(chosen, placement, level, end);
    frontier_edges = outcome.next_frontier_edges;
  }
  synchronize();
  result.total_ms = microseconds_since(wall_start) / 1000.0;
  const bool all_reached = end > begin;
  if (all_reached) edges_out_of_reached = arcs_out_of_reach(source, reach_limit);  // of its reach set or bound
  result.vertices_reached = end;
  result.edges_traversed = graph.directed() ? edges_out_of_reached : edges_out_of_reached / 2;

  // The oracle: cheapest chain of options from (level 0, host, queue) to the end.
  const std::size_t levels = trials.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<std::array<double, kStates>> best(levels + 1);
  struct Step {
    int option = -1;
    int carried = 0;
    double conversion_us = 0.0;
  };
  std::vector<std::array<Step, kStates>> step(levels);
  best[levels].fill(0.0);
  auto conversion = [](const LevelTrials& t, const strategies::FrontierIo& io, Location at, bool bitmap) {
    double us = 0.0;
    if (io.consumes_at != at) {
      const bool to_device = io.consumes_at == Location::Device;
      const double measured = to_device ? t.to_device_us : t.to_host_us;
      us += measured >= 0.0 ? measured : (to_device ? t.to_device_predicted : t.to_host_predicted);
    }
    if (io.consumes == FrontierRepresentation::Bitmap && !bitmap) {
      us += t.to_bitmap_us >= 0.0 ? t.to_bitmap_us : t.to_bitmap_predicted;
    }
    return us;
  };
  for (std::size_t l = levels; l-- > 0;) {
    const LevelTrials& t = trials[l];
    for (int st = 0; st < kStates; ++st) {
      const Location at = st >= 2 ? Location::Device : Location::Host;
      const bool bitmap = (st & 1) != 0;
      best[l][static_cast<std::size_t>(st)] = kInf;
      for (std::size_t o = 0; o < t.options.size(); ++o) {
        const Option& option = t.options[o];
        const strategies::FrontierIo io = option.strategy->frontier_io();
        const double convert_us = conversion(t, io, at, bitmap);
        double run_us = convert_us;
        for (std::size_t j = 1; j <= option.level_us.size() && l + j <= levels; ++j) {
          run_us += option.level_us[j - 1];
          const bool next_bitmap = io.produces == FrontierRepresentation::Bitmap;
          const double total = run_us + best[l + j][static_cast<std::size_t>(state_index(io.produces_at, next_bitmap))];
          if (total < best[l][static_cast<std::size_t>(st)]) {
            best[l][static_cast<std::size_t>(st)] = total;
            step[l][static_cast<std::size_t>(st)] = {static_cast<int>(o), static_cast<int>(j), convert_us};
          }
        }
      }
    }
  }
  result.oracle_ms = best[0][static_cast<std::size_t>(state_index(Location::Host, false))] / 1000.0;

  int st = state_index(Location::Host, false);
  for (std::size_t l = 0; l < levels;) {
    const Step& s = step[l][static_cast<std::size_t>(st)];
    const Option& option = trials[l].options[static_cast<std::size_t>(s.option)];
    for (int k = 0; k < s.carried; ++k) {
      const LevelTrials& t = trials[l + static_cast<std::size_t>(k)];
      LevelRecord record;
      record.level = static_cast<int>(l) + k;
      record.frontier_vertices = t.frontier_vertices;
      record.frontier_edges = t.frontier_edges;
      record.strategy = option.strategy->name();
      record.time_us = option.level_us[static_cast<std::size_t>(k)];
      record.conversion_us = k == 0 ? s.conversion_us : 0.0;
      record.predicted_us = k == 0 ? option.predicted_us : 0.0;
      record.reason = k == 0 ? "oracle: cheapest measured chain" : "oracle: carried by the run started above";
      for (const Option& o : t.options) {
        record.trials.push_back({o.strategy->name(), o.predicted_us, o.level_us.front(), o.conversion_us,
                                 static_cast<int>(o.level_us.size())});
      }
      result.levels.push_back(std::move(record));
    }
    const strategies::FrontierIo io = option.strategy->frontier_io();
    st = state_index(io.produces_at, io.produces == FrontierRepresentation::Bitmap);
    l += static_cast<std::size_t>(s.carried);
  }
  if (all_reached) note_all_reached(end - begin, reach_limit, result);

  buffers_.collect(end, placement.location == Location::Device ? placement.synced_end[0] : end, result.distances,
                   result.parents);
}

}  // namespace abfs::detail
