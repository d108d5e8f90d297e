// libFuzzer target: one graph file format (chosen at compile time) through load_graph. Every
// input must either load into a well-formed CSR or raise an InputError that names the file;
// anything else (a crash, a sanitizer report, another exception, a malformed CSR) is a finding.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

#if defined(ABFS_FUZZ_FORMAT_mtx)
constexpr const char* kExtension = ".mtx";
#elif defined(ABFS_FUZZ_FORMAT_snap)
constexpr const char* kExtension = ".txt";
#elif defined(ABFS_FUZZ_FORMAT_dimacs)
constexpr const char* kExtension = ".gr";
#elif defined(ABFS_FUZZ_FORMAT_csr)
constexpr const char* kExtension = ".csr";
#else
#error "define ABFS_FUZZ_FORMAT_<mtx|snap|dimacs|csr>"
#endif

const std::string& input_path() {
  static const std::string path = [] {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/abfs_fuzz_" + std::to_string(getpid()) + kExtension;
  }();
  return path;
}

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "abfs fuzz finding: %s\n", what.c_str());
  std::abort();
}

void check_csr(const abfs::Graph& g) {
  const abfs::Csr& csr = g.csr();
  const std::size_t n = g.num_vertices();
  if (csr.row_offsets.size() != n + 1 || csr.row_offsets.front() != 0) finding("row_offsets has the wrong shape");
  for (std::size_t v = 0; v < n; ++v) {
    if (csr.row_offsets[v] > csr.row_offsets[v + 1]) finding("row_offsets decrease");
  }
  if (csr.row_offsets.back() != csr.column_indices.size()) finding("row_offsets do not end at |E|");
  for (const abfs::VertexId v : csr.column_indices) {
    if (v >= n) finding("column index out of range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = input_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) finding("cannot write " + path);
  }
  abfs::LoadOptions options;
  options.use_cache = false;
  options.symmetrize = size > 0 && (data[0] & 1) != 0;
  try {
    const abfs::Graph g = abfs::load_graph(path, options);
    check_csr(g);
    if (g.num_vertices() > 0 && g.num_vertices() < (1u << 16)) {
      const abfs::BfsTree tree = abfs::reference_bfs(g, 0);
      if (tree.distances.size() != g.num_vertices() || tree.distances[0] != 0) finding("reference BFS shape");
    }
  } catch (const abfs::InputError& e) {
    if (e.file() != path) finding("InputError names '" + e.file() + "', not the input " + path);
    if (e.problem().empty()) finding("InputError without a problem");
  }
  return 0;
}
