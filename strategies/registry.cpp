#include "strategies/strategy.hpp"

namespace abfs::strategies {

const std::vector<RegistryEntry>& registry() {
  static const std::vector<RegistryEntry> entries = {
      {"cpu_expand", 11, false, &make_cpu_expand},
      {"one_block", 11, true, [] { return make_one_block(); }},
      {"dynamic_parallel", 30, true, [] { return make_dynamic_parallel(); }},
      {"privatized_queue", 8, true, [] { return make_privatized_queue(); }},
      {"gather_pull", 11, true, &make_gather_pull},
  };
  return entries;
}

}  // namespace abfs::strategies
