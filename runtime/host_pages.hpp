#pragma once
// Transparent huge pages for the host arrays a BFS reads and writes at random.

#include <cstddef>

namespace abfs::detail {

/// Asks Linux to back the 2 MiB-aligned 2 MiB blocks inside [data, data + bytes) with
/// transparent huge pages now, contents kept: madvise(MADV_HUGEPAGE), then MADV_COLLAPSE
/// (Linux 6.1+) block by block. A host level of a graph of millions of vertices touches a few
/// words on each of many 4 KiB pages (row offsets, arcs, the visited bitmap, distances,
/// parents), each a TLB miss whose page walk also misses the caches at a BFS's start; a 2 MiB
/// page covers 512 of them.
/// Returns the bytes so backed: 0 where the kernel declines (THP disabled, no memory to
/// compact, a kernel without MADV_COLLAPSE) or the range holds no whole aligned block. A hint:
/// on failure the range keeps its 4 KiB pages and nothing else changes.
std::size_t use_huge_pages(const void* data, std::size_t bytes) noexcept;

/// The size of the blocks use_huge_pages backs: 2 MiB, x86-64's and Arm64's (4 KiB base
/// pages) PMD size.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

}  // namespace abfs::detail
