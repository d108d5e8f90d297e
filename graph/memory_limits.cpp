#include "graph/memory_limits.hpp"

#include <abfs/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace abfs::detail {

std::size_t byte_limit_from_env(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return std::numeric_limits<std::size_t>::max();
  const std::string value = text;
  const auto invalid = [&] {
    return InvalidArgument(std::string(variable) + "='" + value + "': expected bytes, optionally with K, M or G");
  };
  const std::size_t digits = value.find_first_not_of("0123456789");
  if (digits == 0) throw invalid();
  const std::string suffix = digits == std::string::npos ? "" : value.substr(digits);
  int shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  if (suffix == "M" || suffix == "m") shift = 20;
  if (suffix == "G" || suffix == "g") shift = 30;
  if (!suffix.empty() && shift == 0) throw invalid();
  unsigned long long number = 0;
  try {
    number = std::stoull(value.substr(0, digits));
  } catch (const std::exception&) {
    throw invalid();
  }
  if ((number >> (63 - shift)) != 0) throw invalid();
  return static_cast<std::size_t>(number << shift);
}

std::size_t host_memory_available() {
  std::size_t available = std::numeric_limits<std::size_t>::max();
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  while (meminfo >> key) {
    unsigned long long kib = 0;
    if (key == "MemAvailable:" && meminfo >> kib) {
      available = static_cast<std::size_t>(kib) * 1024;
      break;
    }
    std::getline(meminfo, key);
  }
  return std::min(available, byte_limit_from_env("ABFS_HOST_MEMORY_LIMIT"));
}

}  // namespace abfs::detail
