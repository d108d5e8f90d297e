// Binary CSR cache: a versioned header, the two CSR arrays, and a CRC-32 over both. Loading it
// skips text parsing (>10x faster); writing it is atomic (temporary file, then rename), so a
// crash leaves either the old cache or none, never a partial one.

#include "graph/loaders.hpp"

#include "graph/build.hpp"
#include "graph/host_pages.hpp"

#include <abfs/error.hpp>

#include <zlib.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace abfs::detail {
namespace {

constexpr char kMagic[8] = {'A', 'B', 'F', 'S', 'C', 'S', 'R', '\0'};
// Bump when the layout or meaning of the file changes; older caches are then rejected.
constexpr std::uint32_t kCacheVersion = 1;

struct CacheHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t option_bits;
  std::uint64_t num_vertices;
  std::uint64_t num_edges;
  std::uint64_t source_bytes;
  std::int64_t source_mtime_ns;
  std::uint32_t directed;
  std::uint32_t reserved;
  std::uint64_t checksum;
};
static_assert(sizeof(CacheHeader) == 64, "cache header layout is part of the file format");

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

std::uint64_t checksum(const Csr& csr) {
  uLong crc = crc32_z(0L, Z_NULL, 0);
  crc = crc32_z(crc, reinterpret_cast<const Bytef*>(csr.row_offsets.data()),
                csr.row_offsets.size() * sizeof(EdgeOffset));
  crc = crc32_z(crc, reinterpret_cast<const Bytef*>(csr.column_indices.data()),
                csr.column_indices.size() * sizeof(VertexId));
  return crc;
}

bool read_header(std::FILE* f, CacheHeader& header) {
  return std::fread(&header, sizeof header, 1, f) == 1 &&
         std::memcmp(header.magic, kMagic, sizeof kMagic) == 0;
}

}  // namespace

bool csr_cache_matches(const std::string& path, std::uint64_t source_bytes,
                       std::int64_t source_mtime_ns, std::uint32_t option_bits) {
  File f(std::fopen(path.c_str(), "rb"));
  CacheHeader header{};
  return f && read_header(f.get(), header) && header.version == kCacheVersion &&
         header.source_bytes == source_bytes && header.source_mtime_ns == source_mtime_ns &&
         header.option_bits == option_bits;
}

Graph read_csr_cache(const std::string& path, const std::string& name) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) throw InputError(path, 0, std::string("cannot open cache: ") + std::strerror(errno));
  CacheHeader header{};
  if (std::fread(&header, sizeof header, 1, f.get()) != 1) {
    throw InputError(path, 0, "truncated cache: shorter than its 64-byte header");
  }
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) {
    throw InputError(path, 0, "not an abfs CSR cache (bad magic)");
  }
  if (header.version != kCacheVersion) {
    throw InputError(path, 0, "cache version " + std::to_string(header.version) + ", this abfs reads version " +
                                  std::to_string(kCacheVersion) + " (delete the file to rebuild it)");
  }
  if (header.num_vertices > kMaxVertices) {
    throw InputError(path, 0, "cache declares " + std::to_string(header.num_vertices) + " vertices, over the 32-bit limit");
  }
  std::fseek(f.get(), 0, SEEK_END);
  const long file_bytes = std::ftell(f.get());
  const unsigned __int128 expected = sizeof(CacheHeader) +
                                     (static_cast<unsigned __int128>(header.num_vertices) + 1) * sizeof(EdgeOffset) +
                                     static_cast<unsigned __int128>(header.num_edges) * sizeof(VertexId);
  if (file_bytes < 0 || expected != static_cast<unsigned __int128>(file_bytes)) {
    throw InputError(path, 0, "cache size " + std::to_string(file_bytes) +
                                  " bytes disagrees with its header (truncated or corrupt)");
  }
  std::fseek(f.get(), sizeof(CacheHeader), SEEK_SET);
  Csr csr;
  // In huge pages from their first write (resize_in_huge_pages): BFS host levels read them at random.
  resize_in_huge_pages(csr.row_offsets, header.num_vertices + 1);
  resize_in_huge_pages(csr.column_indices, header.num_edges);
  if (std::fread(csr.row_offsets.data(), sizeof(EdgeOffset), csr.row_offsets.size(), f.get()) !=
          csr.row_offsets.size() ||
      std::fread(csr.column_indices.data(), sizeof(VertexId), csr.column_indices.size(), f.get()) !=
          csr.column_indices.size()) {
    throw InputError(path, 0, "read error in cache body");
  }
  if (checksum(csr) != header.checksum) {
    throw InputError(path, 0, "cache checksum mismatch (corrupt file; delete it to rebuild)");
  }
  try {
    return Graph(std::move(csr), header.directed != 0, name);
  } catch (const InvalidArgument& e) {
    throw InputError(path, 0, std::string("inconsistent CSR in cache: ") + e.what());
  }
}

std::string write_csr_cache(const Graph& graph, const std::string& path,
                            std::uint64_t source_bytes, std::int64_t source_mtime_ns,
                            std::uint32_t option_bits) {
  CacheHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kCacheVersion;
  header.option_bits = option_bits;
  header.num_vertices = graph.num_vertices();
  header.num_edges = graph.num_edges();
  header.source_bytes = source_bytes;
  header.source_mtime_ns = source_mtime_ns;
  header.directed = graph.directed() ? 1 : 0;
  header.checksum = checksum(graph.csr());

  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  File f(std::fopen(temporary.c_str(), "wb"));
  if (!f) return "cannot create " + temporary + ": " + std::strerror(errno);
  const auto& csr = graph.csr();
  bool ok = std::fwrite(&header, sizeof header, 1, f.get()) == 1 &&
            std::fwrite(csr.row_offsets.data(), sizeof(EdgeOffset), csr.row_offsets.size(), f.get()) ==
                csr.row_offsets.size() &&
            std::fwrite(csr.column_indices.data(), sizeof(VertexId), csr.column_indices.size(), f.get()) ==
                csr.column_indices.size() &&
            std::fflush(f.get()) == 0 && ::fsync(::fileno(f.get())) == 0;
  const int write_errno = errno;
  ok = (std::fclose(f.release()) == 0) && ok;
  if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string problem = std::string("cannot write ") + path + ": " + std::strerror(ok ? errno : write_errno);
    std::remove(temporary.c_str());
    return problem;
  }
  return {};
}

}  // namespace abfs::detail
