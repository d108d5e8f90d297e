#pragma once
// The level-by-level executor: per level, pick a strategy (forced, scheduled, or the built-in
// SwitchRule until calibrated cost models exist), move the visit state to where that strategy
// runs and convert the frontier to the representation it consumes, run it, and log the levels
// it advanced.

#include <abfs/plan.hpp>

#include "strategies/strategy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace abfs::detail {

class Executor {
 public:
  /// Allocates everything (host, device when use_device) and prepares every usable strategy.
  Executor(const Graph& graph, const PlanOptions& options, bool use_device);

  void execute(VertexId source, BfsResult& result);
  std::vector<std::string> strategy_names() const;

 private:
  struct Choice {
    strategies::Strategy* strategy;
    std::string reason;
  };
  Choice choose(const strategies::FrontierState& state) const;
  Choice choose_by_rule(const strategies::FrontierState& state) const;
  strategies::Strategy* find(const std::string& name) const;

  PlanOptions options_;
  BfsBuffers buffers_;
  std::vector<std::unique_ptr<strategies::Strategy>> strategies_;
  strategies::Strategy* host_strategy_ = nullptr;
  strategies::Strategy* block_strategy_ = nullptr;
  strategies::Strategy* push_strategy_ = nullptr;
  strategies::Strategy* pull_strategy_ = nullptr;
  std::vector<strategies::Strategy*> schedule_;
  strategies::Strategy* forced_ = nullptr;
  std::unique_ptr<Event> start_;
  std::unique_ptr<Event> stop_;
};

}  // namespace abfs::detail
