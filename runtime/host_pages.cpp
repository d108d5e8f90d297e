#include "runtime/host_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1 (uapi asm-generic/mman-common.h)
#endif

namespace abfs::detail {

std::size_t use_huge_pages(const void* data, std::size_t bytes) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (address + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const std::uintptr_t last = (address + bytes) / kHugePageBytes * kHugePageBytes;
  if (data == nullptr || last <= first) return 0;
  // madvise takes a non-const pointer; neither advice changes the contents.
  auto* begin = reinterpret_cast<void*>(first);
  if (madvise(begin, last - first, MADV_HUGEPAGE) != 0) return 0;
  std::size_t backed = 0;
  for (std::uintptr_t block = first; block < last; block += kHugePageBytes) {
    if (madvise(reinterpret_cast<void*>(block), kHugePageBytes, MADV_COLLAPSE) == 0) backed += kHugePageBytes;
  }
  return backed;
}

}  // namespace abfs::detail
