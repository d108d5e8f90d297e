#include "planner/executor.hpp"

#include <abfs/error.hpp>

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
  device_strategy_ = find("privatized_queue");
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
  if (!schedule_.empty()) {
    const std::size_t k = static_cast<std::size_t>(state.level) % schedule_.size();
    return {schedule_[k], "schedule[" + std::to_string(k) + "]"};
  }
  if (forced_ != nullptr) return {forced_, "forced"};
  if (device_strategy_ == nullptr) return {host_strategy_, "no device"};
  const EdgeOffset threshold = options_.rule.cpu_max_frontier_edges;
  if (state.frontier_edges < threshold) {
    return {host_strategy_, "edges " + std::to_string(state.frontier_edges) + " < " + std::to_string(threshold)};
  }
  return {device_strategy_, "edges " + std::to_string(state.frontier_edges) + " >= " + std::to_string(threshold)};
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
  VertexId begin = 0;
  VertexId end = 1;
  EdgeOffset frontier_edges = graph.out_degree(source);
  EdgeOffset edges_out_of_reached = 0;
  int level = 0;
  while (end > begin) {
    strategies::FrontierState state;
    state.level = level;
    state.frontier_vertices = end - begin;
    state.frontier_edges = frontier_edges;
    state.unvisited_vertices = n - end;
    state.location = location;
    const Choice choice = choose(state);
    const Location wanted = choice.strategy->frontier_io().consumes_at;

    LevelRecord record;
    record.level = level;
    record.frontier_vertices = state.frontier_vertices;
    record.frontier_edges = frontier_edges;
    record.strategy = choice.strategy->name();
    record.reason = choice.reason;
    if (wanted != location) {
      const auto convert_start = std::chrono::steady_clock::now();
      if (wanted == Location::Device) {
        buffers_.move_to_device(synced_end[1], end);
      } else {
        buffers_.move_to_host(synced_end[0], begin, end);
      }
      synced_end[side(wanted)] = end;
      location = wanted;
      record.conversion_us = microseconds_since(convert_start);
    }

    const auto level_start = std::chrono::steady_clock::now();
    strategies::LevelContext context{buffers_, level, begin, end, frontier_edges};
    const strategies::LevelOutcome outcome = choice.strategy->run(context);
    record.time_us = microseconds_since(level_start);
    record.device_us = outcome.device_us;
    result.levels.push_back(std::move(record));

    edges_out_of_reached += frontier_edges;
    location = choice.strategy->frontier_io().produces_at;
    begin = end;
    end += outcome.next_frontier_vertices;
    synced_end[side(location)] = end;
    frontier_edges = outcome.next_frontier_edges;
    level += outcome.levels_advanced;
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
