#include "planner/executor.hpp"

#include <abfs/error.hpp>

#include <algorithm>
#include <chrono>
#include <string>

namespace abfs::detail {
namespace {

using strategies::Location;

double microseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Executor::Executor(const Graph& graph, const PlanOptions& options, bool use_device)
    : options_(options), buffers_(graph, use_device) {
  for (const auto& entry : strategies::registry()) {
    if (entry.needs_device && !use_device) continue;
    strategies_.push_back(entry.create());
    strategies_.back()->prepare(buffers_);
  }
  host_strategy_ = find("cpu_expand");
  block_strategy_ = find("one_block");
  push_strategy_ = find("privatized_queue");
  pull_strategy_ = find("gather_pull");
  auto require = [&](const std::string& name) {
    strategies::Strategy* s = find(name);
    if (s != nullptr) return s;
    for (const auto& entry : strategies::registry()) {
      if (name == entry.name) {
        throw InvalidArgument("strategy '" + name + "' needs a CUDA device, and this plan has none");
      }
    }
    std::string known;
    for (const auto& entry : strategies::registry()) known += std::string(known.empty() ? "" : ", ") + entry.name;
    throw InvalidArgument("unknown strategy '" + name + "' (known: auto, " + known + ")");
  };
  if (options.strategy != "auto") forced_ = require(options.strategy);
  for (const auto& name : options.schedule) schedule_.push_back(require(name));
  if (use_device) {
    start_ = std::make_unique<Event>();
    stop_ = std::make_unique<Event>();
  }
}

strategies::Strategy* Executor::find(const std::string& name) const {
  for (const auto& s : strategies_) {
    if (name == s->name()) return s.get();
  }
  return nullptr;
}

std::vector<std::string> Executor::strategy_names() const {
  std::vector<std::string> names;
  for (const auto& s : strategies_) names.emplace_back(s->name());
  return names;
}

Executor::Choice Executor::choose(const strategies::FrontierState& state) const {
  strategies::Strategy* wanted = forced_;
  std::string why = "forced";
  if (!schedule_.empty()) {
    const std::size_t k = static_cast<std::size_t>(state.level) % schedule_.size();
    wanted = schedule_[k];
    why = "schedule[" + std::to_string(k) + "]";
  }
  if (wanted == nullptr) return choose_by_rule(state);
  if (wanted->applicable(state)) return {wanted, why};
  Choice choice = choose_by_rule(state);
  choice.reason = std::string(wanted->name()) + " not applicable (frontier " + std::to_string(state.frontier_vertices) +
                  " vertices, " + std::to_string(state.frontier_edges) + " arcs); " + choice.reason;
  return choice;
}

Executor::Choice Executor::choose_by_rule(const strategies::FrontierState& state) const {
  if (push_strategy_ == nullptr) return {host_strategy_, "no device"};
  const SwitchRule& rule = options_.rule;
  const auto n = static_cast<double>(buffers_.num_vertices());
  const auto edges = static_cast<double>(state.frontier_edges);
  const auto unexplored = static_cast<double>(state.unexplored_edges);
  const EdgeOffset threshold = rule.cpu_max_frontier_edges;
  // Direction (Beamer): stay bottom-up while the frontier is a large share of |V|; go bottom-up
  // when the frontier's arcs outweigh the arcs left to explore.
  if (state.representation == strategies::FrontierRepresentation::Bitmap) {
    if (state.frontier_vertices >= n / rule.push_beta) {
      return {pull_strategy_, "bottom-up: |F| " + std::to_string(state.frontier_vertices) + " >= |V|/beta"};
    }
  } else if (state.frontier_edges >= threshold && edges > unexplored / rule.pull_alpha) {
    return {pull_strategy_, "bottom-up: arcs " + std::to_string(state.frontier_edges) + " > unexplored/alpha"};
  }
  if (state.frontier_edges < threshold) {
    const std::string why = "arcs " + std::to_string(state.frontier_edges) + " < " + std::to_string(threshold);
    if (rule.block_loop_for_small && block_strategy_ != nullptr && block_strategy_->applicable(state)) {
      return {block_strategy_, why};
    }
    return {host_strategy_, why};
  }
  return {push_strategy_, "arcs " + std::to_string(state.frontier_edges) + " >= " + std::to_string(threshold)};
}

void Executor::execute(VertexId source, BfsResult& result) {
  const VertexId n = buffers_.num_vertices();
  if (source >= n) {
    throw InvalidArgument("source " + std::to_string(source) + " out of range: the graph has " + std::to_string(n) +
                          " vertices");
  }
  const Graph& graph = buffers_.graph();
  result.source = source;
  result.levels.clear();

  const auto wall_start = std::chrono::steady_clock::now();
  if (start_) start_->record(buffers_.stream());
  buffers_.start(source);

  Location location = Location::Host;
  VertexId synced_end[2] = {1, 0};  // prefix of the visit order valid on [host, device]
  auto side = [](Location l) { return l == Location::Host ? 0 : 1; };
  int bitmap_level = -1;  // level whose frontier bitmap is valid on the device
  VertexId begin = 0;
  VertexId end = 1;
  EdgeOffset frontier_edges = graph.out_degree(source);
  EdgeOffset edges_out_of_reached = 0;  // arcs out of the expanded frontiers
  int level = 0;
  while (end > begin) {
    strategies::FrontierState state;
    state.level = level;
    state.frontier_vertices = end - begin;
    state.frontier_edges = frontier_edges;
    state.unvisited_vertices = n - end;
    state.unexplored_edges = graph.num_edges() - edges_out_of_reached - frontier_edges;
    state.representation = bitmap_level == level ? strategies::FrontierRepresentation::Bitmap
                                                 : strategies::FrontierRepresentation::Queue;
    state.location = location;
    const Choice choice = choose(state);
    const strategies::FrontierIo io = choice.strategy->frontier_io();

    LevelRecord record;
    record.level = level;
    record.frontier_vertices = state.frontier_vertices;
    record.frontier_edges = frontier_edges;
    record.strategy = choice.strategy->name();
    record.reason = choice.reason;
    const auto convert_start = std::chrono::steady_clock::now();
    if (io.consumes_at != location) {
      if (io.consumes_at == Location::Device) {
        buffers_.move_to_device(synced_end[1], end);
      } else {
        buffers_.move_to_host(synced_end[0], begin, end);
      }
      synced_end[side(io.consumes_at)] = end;
      location = io.consumes_at;
    }
    if (io.consumes == strategies::FrontierRepresentation::Bitmap && bitmap_level != level) {
      buffers_.queue_to_bitmap(begin, end, static_cast<unsigned int>(level) & 1u);
    }
    record.conversion_us = microseconds_since(convert_start);

    const auto level_start = std::chrono::steady_clock::now();
    strategies::LevelContext context{buffers_, level, begin, end, frontier_edges};
    if (!schedule_.empty()) context.max_levels = 1;  // the next level runs the next scheduled strategy
    const strategies::LevelOutcome outcome = choice.strategy->run(context);
    const double wall_us = microseconds_since(level_start);

    VertexId next_begin = end;
    if (outcome.level_records == nullptr) {
      record.time_us = wall_us;
      record.device_us = outcome.device_us;
      result.levels.push_back(std::move(record));
    } else {
      // A device-driven run: one record per level advanced, timed by the device's clock; the
      // first also carries the launch and the host synchronization.
      const detail::DeviceLevelRecord* device_levels = outcome.level_records;
      double later_us = 0.0;
      for (int k = 0; k < outcome.levels_advanced; ++k) {
        const detail::DeviceLevelRecord& d = device_levels[k];
        const double us = static_cast<double>(d.end_ns - d.start_ns) / 1000.0;
        if (k == 0) {
          record.device_us = us;
          result.levels.push_back(record);
          continue;
        }
        later_us += us;
        next_begin += d.frontier_vertices;
        LevelRecord next;
        next.level = level + k;
        next.frontier_vertices = d.frontier_vertices;
        next.frontier_edges = d.frontier_edges;
        next.strategy = record.strategy;
        next.time_us = us;
        next.device_us = us;
        next.reason = d.kernel == 0 ? "continued on the device (one-block loop)"
                                    : "continued on the device (grid level, tail-launched)";
        result.levels.push_back(std::move(next));
      }
      LevelRecord& first = result.levels[result.levels.size() - static_cast<std::size_t>(outcome.levels_advanced)];
      first.time_us = std::max(0.0, wall_us - later_us);
      if (outcome.stop_reason != nullptr) result.levels.back().reason += std::string("; handed over: ") + outcome.stop_reason;
    }

    edges_out_of_reached += outcome.edges_examined;
    location = io.produces_at;
    level += outcome.levels_advanced;
    bitmap_level = io.produces == strategies::FrontierRepresentation::Bitmap ? level : -1;
    begin = next_begin;
    end = next_begin + outcome.next_frontier_vertices;
    synced_end[side(location)] = end;
    frontier_edges = outcome.next_frontier_edges;
  }
  if (stop_) {
    stop_->record(buffers_.stream());
    // The total is read on the host.
    ABFS_CUDA_CHECK(cudaEventSynchronize(stop_->get()));
    result.total_ms = elapsed_ms(*start_, *stop_);
  } else {
    result.total_ms = microseconds_since(wall_start) / 1000.0;
  }
  result.vertices_reached = end;
  result.edges_traversed = graph.directed() ? edges_out_of_reached : edges_out_of_reached / 2;

  const auto collect_start = std::chrono::steady_clock::now();
  buffers_.collect(end, location == Location::Device ? synced_end[0] : end, result.distances, result.parents);
  result.result_ms = microseconds_since(collect_start) / 1000.0;
}

}  // namespace abfs::detail
