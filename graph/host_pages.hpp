#pragma once
// Transparent huge pages for the host arrays a BFS reads and writes at random.

#include <cstddef>
#include <vector>

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
/// On memory already written MADV_COLLAPSE copies every block: ~2 ms a block on the
/// development host (2 cores; 1 GiB in 2.0 s, 2026-11-27), ~0.3 us a block already huge. So
/// arrays are best put in huge pages before their first write (resize_in_huge_pages).
std::size_t use_huge_pages(const void* data, std::size_t bytes) noexcept;

/// madvise(MADV_HUGEPAGE) alone over the whole 2 MiB blocks of [data, data + bytes): pages
/// first touched there after it come as huge pages (THP "madvise" or "always"). Returns whether
/// the kernel took the advice.
bool advise_huge_pages(const void* data, std::size_t bytes) noexcept;

/// Sizes an empty `array` to n value-initialized elements in transparent huge pages: its
/// storage reserved and advised (advise_huge_pages) before the elements are written, so the
/// first touch of each block faults in a huge page, then use_huge_pages for any block that did
/// not (cheap where all did). Returns the bytes huge pages back.
template <class T>
std::size_t resize_in_huge_pages(std::vector<T>& array, std::size_t n) {
  array.reserve(n);
  advise_huge_pages(array.data(), n * sizeof(T));
  array.resize(n);
  return use_huge_pages(array.data(), n * sizeof(T));
}

/// The size of the blocks use_huge_pages backs: 2 MiB, x86-64's and Arm64's (4 KiB base
/// pages) PMD size.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

}  // namespace abfs::detail
