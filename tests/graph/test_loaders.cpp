#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

using abfs::Graph;
using abfs::InputError;
using abfs::LoadOptions;

std::string good(const std::string& name) { return std::string(ABFS_TEST_DATA) + "/good/" + name; }
std::string bad(const std::string& name) { return std::string(ABFS_TEST_DATA) + "/bad/" + name; }

LoadOptions no_cache() {
  LoadOptions o;
  o.use_cache = false;
  return o;
}

std::vector<abfs::VertexId> neighbours(const Graph& g, abfs::VertexId v) {
  const auto& csr = g.csr();
  return {csr.column_indices.begin() + static_cast<std::ptrdiff_t>(csr.row_offsets[v]),
          csr.column_indices.begin() + static_cast<std::ptrdiff_t>(csr.row_offsets[v + 1])};
}

// A fresh, empty folder under /tmp for cache tests.
std::string temporary_dir(const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() / ("abfs-test-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace

TEST_CASE("Matrix Market symmetric pattern becomes an undirected CSR with both arc directions") {
  const Graph g = abfs::load_graph(good("small_symmetric.mtx"), no_cache());
  CHECK(g.num_vertices() == 5);
  CHECK(g.num_edges() == 10);
  CHECK_FALSE(g.directed());
  CHECK(neighbours(g, 0) == std::vector<abfs::VertexId>{1, 3});
  CHECK(neighbours(g, 3) == std::vector<abfs::VertexId>{0, 2, 4});
}

TEST_CASE("Matrix Market general real keeps direction and drops self-loops unless asked") {
  const Graph g = abfs::load_graph(good("small_general_real.mtx"), no_cache());
  CHECK(g.directed());
  CHECK(g.num_edges() == 2);
  LoadOptions keep = no_cache();
  keep.drop_self_loops = false;
  CHECK(abfs::load_graph(good("small_general_real.mtx"), keep).num_edges() == 3);
}

TEST_CASE("duplicate edges are dropped by default and kept on request") {
  CHECK(abfs::load_graph(good("duplicates_integer.mtx"), no_cache()).num_edges() == 1);
  LoadOptions keep = no_cache();
  keep.drop_duplicate_edges = false;
  CHECK(abfs::load_graph(good("duplicates_integer.mtx"), keep).num_edges() == 2);
}

TEST_CASE("SNAP edge lists: mixed whitespace, weight column, header counts, Undirected comment") {
  const Graph directed = abfs::load_graph(good("tiny_directed.txt"), no_cache());
  CHECK(directed.directed());
  CHECK(directed.num_vertices() == 4);
  CHECK(directed.num_edges() == 4);
  CHECK(neighbours(directed, 3) == std::vector<abfs::VertexId>{0});
  const Graph undirected = abfs::load_graph(good("undirected_no_header.txt"), no_cache());
  CHECK_FALSE(undirected.directed());
  CHECK(undirected.num_vertices() == 3);
  CHECK(undirected.num_edges() == 4);
}

TEST_CASE("DIMACS .gr arcs are directed; symmetrize adds the reverse arcs") {
  const Graph g = abfs::load_graph(good("tiny.gr"), no_cache());
  CHECK(g.directed());
  CHECK(g.num_vertices() == 3);
  CHECK(neighbours(g, 0) == std::vector<abfs::VertexId>{1});
  LoadOptions sym = no_cache();
  sym.symmetrize = true;
  const Graph s = abfs::load_graph(good("tiny.gr"), sym);
  CHECK_FALSE(s.directed());
  CHECK(s.num_edges() == 6);
}

TEST_CASE("gzip input is decompressed") {
  const Graph g = abfs::load_graph(good("gzipped.mtx.gz"), no_cache());
  CHECK(g.num_vertices() == 3);
  CHECK(g.num_edges() == 2);
}

TEST_CASE("every malformed file gives an InputError naming the file, the line and the problem") {
  struct Expect {
    const char* file;
    std::uint64_t line;
    const char* problem;
  };
  const Expect expectations[] = {
      {"empty.mtx", 0, "empty file"},
      {"empty.txt", 0, "empty file"},
      {"empty.gr", 0, "empty file"},
      {"missing_header.mtx", 1, "missing '%%MatrixMarket"},
      {"array_format.mtx", 1, "unsupported format"},
      {"complex_field.mtx", 1, "unsupported field"},
      {"not_square.mtx", 2, "square"},
      {"truncated.mtx", 4, "truncated"},
      {"too_many_entries.mtx", 4, "more entries"},
      {"non_numeric.mtx", 4, "expected a non-negative integer"},
      {"negative_id.mtx", 4, "negative"},
      {"id_out_of_range.mtx", 4, "out of range"},
      {"zero_id.mtx", 4, "out of range"},
      {"short_size_line.mtx", 2, "size line"},
      {"huge_vertex_count.mtx", 2, "32-bit"},
      {"missing_value.mtx", 3, "expected 3 fields"},
      {"snap_id_out_of_range.txt", 3, "out of range"},
      {"snap_edge_count.txt", 3, "declares 3 edges"},
      {"snap_non_numeric.txt", 2, "expected a non-negative integer"},
      {"snap_negative.txt", 2, "negative"},
      {"snap_too_many_fields.txt", 1, "more than 3 fields"},
      {"snap_one_field.txt", 1, "found 1 field"},
      {"snap_no_edges.txt", 1, "no edges"},
      {"gr_arc_before_problem.gr", 2, "before"},
      {"gr_truncated.gr", 2, "truncated"},
      {"gr_id_out_of_range.gr", 2, "out of range"},
      {"gr_unknown_line.gr", 2, "unknown line type"},
      {"gr_missing_weight.gr", 2, "arc line must be"},
      {"gr_wrong_problem.gr", 1, "problem line"},
      {"truncated_gzip.txt.gz", 0, "gzip"},
      {"bad_gzip_stream.txt.gz", 0, "gzip"},
      {"binary_garbage.txt", 2, "NUL byte"},
      {"truncated_header.csr", 0, "truncated"},
      {"bad_magic.csr", 0, "magic"},
      {"directory.mtx", 0, "directory"},
      {"unknown_extension.xyz", 0, "unknown graph format"},
      {"no_such_file.mtx", 0, "cannot open"},
      {"mtx_huge_entry_count.mtx", 3, "99999999999999 entries declared"},
      {"gr_huge_problem.gr", 2, "exceeds the 32-bit id limit"},
      {"cache_wrong_version.csr", 0, "cache version 99"},
      {"cache_bad_checksum.csr", 0, "checksum mismatch"},
      {"cache_size_mismatch.csr", 0, "disagrees with its header"},
      {"cache_inconsistent.csr", 0, "column index out of range"},
      {"cache_huge_vertex_count.csr", 0, "over the 32-bit limit"},
      {"snap_huge_nodes_header.txt", 2, "needs 17128835592 bytes of host memory, 268435456 are available"},
      {"gr_huge_vertex_count.gr", 2, "needs 800001624 bytes of host memory, 268435456 are available"},
      {"snap_nodes_header_after_edges.txt", 4, "'# Nodes: 2' after edge lines with vertex id 3"},
      {"snap_fuzz_nodes_after_edges.txt", 5, "'# Nodes: 2' after edge lines with vertex id 3"},
  };
  // The host may give abfs 256 MiB: a header declaring more is an InputError on its line.
  REQUIRE(setenv("ABFS_HOST_MEMORY_LIMIT", "256M", 1) == 0);
  std::size_t corpus_files = 0;  // graph files; the wisdom files (*.yaml) are test_wisdom_io's
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ABFS_TEST_DATA) + "/bad")) {
    if (entry.path().extension() != ".yaml") ++corpus_files;
  }
  CHECK(corpus_files + 1 == std::size(expectations));  // every corpus file has an expectation
  for (const auto& e : expectations) {
    const std::string name = e.file;
    CAPTURE(name);
    const std::string path = bad(e.file);
    try {
      (void)abfs::load_graph(path, no_cache());
      FAIL("no error for " << name);
    } catch (const InputError& error) {
      CHECK(error.file() == path);
      CHECK(error.line() == e.line);
      CHECK_MESSAGE(error.problem().find(e.problem) != std::string::npos, error.what());
      CHECK(std::string(error.what()).find(path) == 0);
    }
  }
  REQUIRE(unsetenv("ABFS_HOST_MEMORY_LIMIT") == 0);
}

TEST_CASE("the binary cache is written once, then hit, and returns the same CSR") {
  const std::string dir = temporary_dir("cache");
  LoadOptions options;
  options.cache_dir = dir;
  abfs::LoadInfo first, second;
  const Graph parsed = abfs::load_graph(good("small_symmetric.mtx"), options, &first);
  CHECK(first.cache == abfs::LoadInfo::Cache::Written);
  const Graph cached = abfs::load_graph(good("small_symmetric.mtx"), options, &second);
  CHECK(second.cache == abfs::LoadInfo::Cache::Hit);
  CHECK(second.cache_path == first.cache_path);
  CHECK(cached.csr().row_offsets == parsed.csr().row_offsets);
  CHECK(cached.csr().column_indices == parsed.csr().column_indices);
  CHECK(cached.directed() == parsed.directed());
  // Different load options get their own cache file.
  LoadOptions keep = options;
  keep.drop_self_loops = false;
  abfs::LoadInfo third;
  (void)abfs::load_graph(good("small_symmetric.mtx"), keep, &third);
  CHECK(third.cache == abfs::LoadInfo::Cache::Written);
  CHECK(third.cache_path != first.cache_path);
  // No temporary files are left behind.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().string().find(".tmp.") == std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a corrupt or wrong-version cache is an InputError naming the cache file") {
  const std::string dir = temporary_dir("corrupt");
  LoadOptions options;
  options.cache_dir = dir;
  abfs::LoadInfo info;
  (void)abfs::load_graph(good("small_symmetric.mtx"), options, &info);
  REQUIRE(info.cache == abfs::LoadInfo::Cache::Written);
  const std::string copy = dir + "/copy.csr";
  std::filesystem::copy_file(info.cache_path, copy);
  {
    std::fstream f(info.cache_path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('\x7f');  // flip the last column index
  }
  try {
    (void)abfs::load_graph(good("small_symmetric.mtx"), options);
    FAIL("corrupt cache accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == info.cache_path);
    CHECK(e.problem().find("checksum") != std::string::npos);
  }
  {
    std::fstream f(copy, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8);
    const char version[4] = {99, 0, 0, 0};
    f.write(version, 4);
  }
  try {
    (void)abfs::load_graph(copy, options);
    FAIL("wrong cache version accepted");
  } catch (const InputError& e) {
    CHECK(e.problem().find("cache version 99") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("every real graph loads with the declared sizes (skipped without ../shared/data)") {
  for (const auto& path : abfs::test::real_graph_paths()) {
    CAPTURE(path);
    const Graph g = abfs::load_graph(path, no_cache());
    CHECK(g.num_vertices() > 0);
    CHECK(g.num_edges() > 0);
    const auto stats = abfs::compute_stats(g);
    CHECK(stats.num_self_loops == 0);  // dropped by default
  }
}
