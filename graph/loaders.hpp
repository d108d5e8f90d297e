#pragma once
// Internal: the text-format parsers and the binary CSR cache.

#include <abfs/graph.hpp>

#include <string>

namespace abfs::detail {

Graph load_matrix_market(const std::string& path, const LoadOptions& options);
Graph load_snap(const std::string& path, const LoadOptions& options);
Graph load_dimacs(const std::string& path, const LoadOptions& options);

/// Reads a binary CSR cache file. @throws InputError (wrong magic, version, sizes, checksum).
Graph read_csr_cache(const std::string& path, const std::string& name);
/// Writes graph to path atomically (temporary file + rename), tagging it with the source file's
/// size and modification time. Returns an empty string, or the problem that stopped the write.
std::string write_csr_cache(const Graph& graph, const std::string& path,
                            std::uint64_t source_bytes, std::int64_t source_mtime_ns,
                            std::uint32_t option_bits);
/// True if path is a cache written for this source size, mtime and options (header only).
bool csr_cache_matches(const std::string& path, std::uint64_t source_bytes,
                       std::int64_t source_mtime_ns, std::uint32_t option_bits);

}  // namespace abfs::detail
