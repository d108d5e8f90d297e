#include "graph/host_pages.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace {

// AnonHugePages (kB) of the mapping of /proc/self/smaps that holds address; -1 if none does.
long anon_huge_kb(const void* address) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &begin, &end) == 2 && line.find(':') > line.find(' ')) {
      inside = a >= begin && a < end;
      continue;
    }
    if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      std::istringstream fields(line.substr(14));
      long kb = -1;
      fields >> kb;
      return kb;
    }
  }
  return -1;
}

// Where blocks were reported backed, the kernel's own account of the first whole block of data.
void check_first_block_huge(const void* data, std::size_t backed) {
  using abfs::detail::kHugePageBytes;
  if (backed == 0) {
    MESSAGE("the kernel declined huge pages here (THP disabled or no MADV_COLLAPSE): only the contents checked");
    return;
  }
  const auto first = (reinterpret_cast<std::uintptr_t>(data) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  CHECK(anon_huge_kb(reinterpret_cast<const void*>(first)) >= static_cast<long>(kHugePageBytes / 1024));
}

}  // namespace

TEST_CASE("use_huge_pages backs whole aligned 2 MiB blocks, keeps the contents, and declines the rest") {
  using abfs::detail::kHugePageBytes;
  using abfs::detail::use_huge_pages;
  std::vector<std::uint32_t> words(9 * kHugePageBytes / sizeof(std::uint32_t));
  std::iota(words.begin(), words.end(), 7u);
  const std::size_t bytes = words.size() * sizeof(std::uint32_t);
  const std::size_t backed = use_huge_pages(words.data(), bytes);
  CHECK(backed % kHugePageBytes == 0);
  CHECK(backed <= bytes - kHugePageBytes);  // the vector's start is not 2 MiB-aligned: 8 blocks at most
  bool kept = true;
  for (std::size_t i = 0; i < words.size(); ++i) kept = kept && words[i] == 7u + static_cast<std::uint32_t>(i);
  CHECK(kept);
  check_first_block_huge(words.data(), backed);
  std::vector<std::uint32_t> small(kHugePageBytes / 2 / sizeof(std::uint32_t), 1u);
  CHECK(use_huge_pages(small.data() + 1, small.size() * sizeof(std::uint32_t) - 4) == 0);  // no whole block
  CHECK(use_huge_pages(nullptr, bytes) == 0);
}

TEST_CASE("resize_in_huge_pages sizes an empty array to zeros in huge pages from its first write") {
  using abfs::detail::kHugePageBytes;
  std::vector<std::uint64_t> array;
  const std::size_t n = 5 * kHugePageBytes / sizeof(std::uint64_t) + 3;
  const std::size_t backed = abfs::detail::resize_in_huge_pages(array, n);
  REQUIRE(array.size() == n);
  CHECK(std::all_of(array.begin(), array.end(), [](std::uint64_t x) { return x == 0; }));
  CHECK(backed % kHugePageBytes == 0);
  CHECK(backed <= n * sizeof(std::uint64_t));
  check_first_block_huge(array.data(), backed);
  std::vector<std::uint32_t> tiny;
  CHECK(abfs::detail::resize_in_huge_pages(tiny, 10) == 0);  // no whole block
  CHECK(tiny == std::vector<std::uint32_t>(10, 0u));
}
