#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

namespace {

bool sorted_without_self_loops(const abfs::Graph& g) {
  const auto& csr = g.csr();
  for (abfs::VertexId v = 0; v < g.num_vertices(); ++v) {
    const auto first = csr.column_indices.begin() + static_cast<std::ptrdiff_t>(csr.row_offsets[v]);
    const auto last = csr.column_indices.begin() + static_cast<std::ptrdiff_t>(csr.row_offsets[v + 1]);
    if (!std::is_sorted(first, last) || std::adjacent_find(first, last) != last || std::find(first, last, v) != last) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("Kronecker graphs have 2^scale vertices, are undirected and deterministic for a seed") {
  const abfs::Graph a = abfs::generate_kronecker(10, 16, 42);
  const abfs::Graph b = abfs::generate_kronecker(10, 16, 42);
  const abfs::Graph c = abfs::generate_kronecker(10, 16, 43);
  CHECK(a.num_vertices() == 1024);
  CHECK_FALSE(a.directed());
  CHECK(a.num_edges() % 2 == 0);
  // 16K generated edges, minus self-loops and duplicates (many, given the skew), doubled.
  CHECK(a.num_edges() > 10000);
  CHECK(a.num_edges() <= 2 * 16 * 1024);
  CHECK(a.csr().column_indices == b.csr().column_indices);
  CHECK(a.csr().column_indices != c.csr().column_indices);
  CHECK(sorted_without_self_loops(a));
  // Skewed degrees: the maximum is far above the mean.
  const auto stats = abfs::compute_stats(a);
  CHECK(static_cast<double>(stats.max_out_degree) > 5 * stats.mean_out_degree);
}

TEST_CASE("uniform graphs have the requested out-degree, no self-loops, and are deterministic") {
  const abfs::Graph a = abfs::generate_uniform(5000, 8, 9);
  const abfs::Graph b = abfs::generate_uniform(5000, 8, 9);
  CHECK(a.directed());
  CHECK(a.num_vertices() == 5000);
  CHECK(a.csr().column_indices == b.csr().column_indices);
  CHECK(sorted_without_self_loops(a));
  const auto stats = abfs::compute_stats(a);
  CHECK(stats.max_out_degree == 8);
  CHECK(stats.mean_out_degree > 7.98);  // only rare duplicate draws are dropped
  abfs::LoadOptions keep;
  keep.drop_duplicate_edges = false;
  CHECK(abfs::generate_uniform(5000, 8, 9, keep).num_edges() == 40000);
}

TEST_CASE("the mean out-degree of an arc's head weighs each vertex's out-degree by its in-degree") {
  // An undirected star of k leaves: k arcs into the centre (out-degree k), k out of it (1 each).
  constexpr abfs::VertexId k = 6;
  std::vector<std::pair<abfs::VertexId, abfs::VertexId>> star;
  for (abfs::VertexId leaf = 1; leaf <= k; ++leaf) star.emplace_back(0, leaf);
  CHECK(abfs::compute_stats(abfs::test::make_graph(k + 1, star, false)).mean_head_out_degree ==
        doctest::Approx((k * k + k) / (2.0 * k)));
  // A directed path 0 -> 1 -> 2: heads of out-degree 1 and 0.
  CHECK(abfs::compute_stats(abfs::test::make_graph(3, {{0, 1}, {1, 2}}, true)).mean_head_out_degree == 0.5);
  CHECK(abfs::compute_stats(abfs::test::make_graph(3, {}, false)).mean_head_out_degree == 0.0);
  // By the source's out-degree class: the leaves (class 0) have the centre's k arcs a head, the
  // centre (class 2 for k = 6) its leaves' 1; the other classes none.
  const abfs::GraphStats by_class = abfs::compute_stats(abfs::test::make_graph(k + 1, star, false));
  CHECK(abfs::GraphStats::degree_class(k) == 2);
  CHECK(by_class.head_out_degree_by_class[0] == k);
  CHECK(by_class.head_out_degree_by_class[2] == 1.0);
  CHECK(by_class.head_out_degree_by_class[1] == 0.0);
  // Past kHeadSampleArcs arcs a strided sample: a random graph of out-degree 9 still gives ~9.
  const abfs::Graph big = abfs::generate_uniform(1 << 19, 9, 3);
  REQUIRE(big.num_edges() > abfs::GraphStats::kHeadSampleArcs);
  const abfs::GraphStats big_stats = abfs::compute_stats(big);
  CHECK(big_stats.mean_head_out_degree == doctest::Approx(9.0).epsilon(0.01));
  CHECK(big_stats.head_out_degree_by_class[abfs::GraphStats::degree_class(9)] == doctest::Approx(9.0).epsilon(0.01));
}

TEST_CASE("the near-arc share counts arcs whose endpoints' ids lie within the window") {
  // A grid of rows of 100 vertices: every arc joins ids at most 100 apart.
  CHECK(abfs::compute_stats(abfs::generate_grid(300, 100)).near_arc_share == 1.0);
  // A random graph of 2^20 vertices: an arc lands within the window at ~2 * 16,384 / 2^20.
  const double random = abfs::compute_stats(abfs::generate_uniform(1 << 20, 4, 5)).near_arc_share;
  CHECK(random == doctest::Approx(2.0 * abfs::GraphStats::kNearArcWindow / (1 << 20)).epsilon(0.1));
  // One arc in, one out of the window (and their reverses): half.
  constexpr abfs::VertexId w = abfs::GraphStats::kNearArcWindow;
  CHECK(abfs::compute_stats(abfs::test::make_graph(3 * w, {{0, w - 1}, {0, w}}, false)).near_arc_share == 0.5);
  CHECK(abfs::compute_stats(abfs::test::make_graph(3, {}, false)).near_arc_share == 0.0);
}

TEST_CASE("a directed graph's in-arcs are its arcs reversed, each list sorted, duplicates and self-loops kept") {
  // The parallel transposition (atomic cursors, then each list sorted) against the serial one:
  // sources in increasing order land in each in-list in order.
  std::vector<abfs::Graph> graphs;
  graphs.push_back(abfs::generate_uniform(30000, 5, 3));
  graphs.push_back(abfs::test::make_graph(5, {{0, 1}, {0, 1}, {2, 2}, {3, 1}, {4, 0}, {1, 4}}, true, true));
  for (const abfs::Graph& g : graphs) {
    CAPTURE(g.num_vertices());
    REQUIRE(g.directed());
    const abfs::Csr& out = g.csr();
    std::vector<std::vector<abfs::VertexId>> expected(g.num_vertices());
    for (abfs::VertexId u = 0; u < g.num_vertices(); ++u) {
      for (abfs::EdgeOffset e = out.row_offsets[u]; e < out.row_offsets[u + 1]; ++e) {
        expected[out.column_indices[e]].push_back(u);
      }
    }
    const abfs::Csr& in = g.reverse_csr();
    REQUIRE(in.row_offsets.size() == g.num_vertices() + std::size_t{1});
    REQUIRE(in.column_indices.size() == out.column_indices.size());
    for (abfs::VertexId v = 0; v < g.num_vertices(); ++v) {
      const std::vector<abfs::VertexId> got(in.column_indices.begin() + static_cast<std::ptrdiff_t>(in.row_offsets[v]),
                                            in.column_indices.begin() + static_cast<std::ptrdiff_t>(in.row_offsets[v + 1]));
      if (got != expected[v]) FAIL_CHECK("in-list of " << v << " differs");
    }
  }
}

TEST_CASE("grids have 4-neighbour structure") {
  const abfs::Graph g = abfs::generate_grid(3, 4);
  CHECK(g.num_vertices() == 12);
  CHECK(g.num_edges() == 2 * (3 * 3 + 4 * 2));
  CHECK(g.out_degree(0) == 2);
  CHECK(g.out_degree(5) == 4);
}

TEST_CASE("open_graph parses generator specs and rejects malformed ones") {
  CHECK(abfs::open_graph("kron:8").num_vertices() == 256);
  CHECK(abfs::open_graph("uniform:100:4").num_edges() <= 400);
  CHECK(abfs::open_graph("grid:3:4").num_vertices() == 12);
  CHECK(abfs::open_graph("kron:8:4:2").name() == "kron:8:4:2");
  CHECK_THROWS_AS(abfs::open_graph("kron:x"), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::open_graph("uniform:10"), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::open_graph("grid:3"), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::open_graph("kron:40"), abfs::InvalidArgument);
  CHECK_THROWS_AS(abfs::open_graph("uniform:0:4"), abfs::InvalidArgument);
}
