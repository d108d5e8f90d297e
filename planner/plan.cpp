// plan_bfs and Plan: the public face of the executor.

#include <abfs/error.hpp>
#include <abfs/plan.hpp>

#include "planner/executor.hpp"
#include "runtime/resources.hpp"

namespace abfs {

struct Plan::Impl {
  Impl(const Graph& graph, const PlanOptions& options) {
    const bool use_device = options.use_gpu && cuda_device_count() > options.device;
    if (use_device) {
      device_name = detail::select_device(options.device).name;
    } else {
      device_name = "host only";
      warnings.push_back(options.use_gpu ? "no CUDA device found: every level runs on the host (cpu_expand)"
                                         : "GPU disabled: every level runs on the host (cpu_expand)");
    }
    executor = std::make_unique<detail::Executor>(graph, options, use_device);
  }
  std::unique_ptr<detail::Executor> executor;
  std::vector<std::string> warnings;
  std::string device_name;
};

Plan::Plan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

BfsResult Plan::execute(VertexId source) {
  BfsResult result;
  execute(source, result);
  return result;
}

void Plan::execute(VertexId source, BfsResult& result) { impl_->executor->execute(source, result); }

std::vector<std::string> Plan::strategies() const { return impl_->executor->strategy_names(); }
const std::vector<std::string>& Plan::warnings() const { return impl_->warnings; }
std::string Plan::device_name() const { return impl_->device_name; }

Plan plan_bfs(const Graph& graph, const PlanOptions& options) {
  ABFS_EXPECTS(options.device >= 0, "device ordinal must be non-negative");
  return Plan(std::make_unique<Plan::Impl>(graph, options));
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const auto& entry : strategies::registry()) names.emplace_back(entry.name);
  return names;
}

}  // namespace abfs
