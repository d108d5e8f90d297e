#include "graph/host_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1 (uapi asm-generic/mman-common.h)
#endif

namespace abfs::detail {

namespace {

struct Blocks {
  std::uintptr_t first = 0, last = 0;  // the whole 2 MiB blocks of a range: [first, last)
};

Blocks whole_blocks(const void* data, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  Blocks b;
  b.first = (address + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  b.last = (address + bytes) / kHugePageBytes * kHugePageBytes;
  if (data == nullptr || b.last < b.first) b.last = b.first;
  return b;
}

}  // namespace

bool advise_huge_pages(const void* data, std::size_t bytes) noexcept {
  const Blocks b = whole_blocks(data, bytes);
  // madvise takes a non-const pointer; the advice does not change the contents.
  return b.last > b.first && madvise(reinterpret_cast<void*>(b.first), b.last - b.first, MADV_HUGEPAGE) == 0;
}

std::size_t use_huge_pages(const void* data, std::size_t bytes) noexcept {
  if (!advise_huge_pages(data, bytes)) return 0;
  const auto [first, last] = whole_blocks(data, bytes);
  std::size_t backed = 0;
  for (std::uintptr_t block = first; block < last; block += kHugePageBytes) {
    if (madvise(reinterpret_cast<void*>(block), kHugePageBytes, MADV_COLLAPSE) == 0) backed += kHugePageBytes;
  }
  return backed;
}

}  // namespace abfs::detail
