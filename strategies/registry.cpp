#include "strategies/strategy.hpp"

namespace abfs::strategies {

const std::vector<RegistryEntry>& registry() {
  static const std::vector<RegistryEntry> entries = {
      {"cpu_expand", 1, false, &make_cpu_expand},
      {"privatized_queue", 1, true, [] { return make_privatized_queue(); }},
  };
  return entries;
}

}  // namespace abfs::strategies
