#pragma once
/// @file graph.hpp
/// Host graphs in CSR form, loaders, generators, the reference BFS and the Graph500-style
/// validator.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace abfs {

/// Vertex ids are 32-bit: graphs hold at most 2^32 - 2 vertices.
using VertexId = std::uint32_t;
/// Edge offsets are 64-bit: graphs may hold more than 2^32 arcs.
using EdgeOffset = std::uint64_t;
/// "No vertex": the parent of an unreached vertex.
inline constexpr VertexId kNoVertex = 0xFFFFFFFFu;

/// Compressed sparse rows: row_offsets has |V|+1 entries, column_indices |E| (arcs).
/// The neighbours of v are column_indices[row_offsets[v] .. row_offsets[v+1]), sorted ascending.
struct Csr {
  std::vector<EdgeOffset> row_offsets;
  std::vector<VertexId> column_indices;
};

/// An immutable graph in CSR form. Undirected graphs store every edge in both directions (so
/// num_edges() counts arcs, twice the undirected edge count). Copying shares the data.
class Graph {
 public:
  /// Empty graph (no vertices).
  Graph();
  /// Takes ownership of a CSR. @throws InvalidArgument if the CSR is inconsistent (offsets not
  /// monotone, last offset != column count, column out of range).
  Graph(Csr csr, bool directed, std::string name);

  VertexId num_vertices() const noexcept;
  /// Arcs stored (|E| of the CSR).
  EdgeOffset num_edges() const noexcept;
  bool directed() const noexcept { return directed_; }
  /// Where the graph came from (file path or generator spec).
  const std::string& name() const noexcept { return name_; }

  /// Forward CSR (out-neighbours).
  const Csr& csr() const noexcept { return *forward_; }
  /// Reverse CSR (in-neighbours). The forward CSR itself when undirected; built on first call
  /// for directed graphs (thread-safe; O(|V| + |E|) once).
  const Csr& reverse_csr() const;

  EdgeOffset out_degree(VertexId v) const noexcept {
    return forward_->row_offsets[v + 1] - forward_->row_offsets[v];
  }

 private:
  struct ReverseCache;
  std::shared_ptr<const Csr> forward_;
  std::shared_ptr<ReverseCache> reverse_;
  bool directed_ = false;
  std::string name_;
};

/// How a text graph is turned into a Graph. Defaults (also shown by `abfs run --help`):
/// keep the file's directedness, drop self-loops, drop duplicate edges, use the binary cache.
struct LoadOptions {
  /// Add the reverse of every arc, making the graph undirected.
  bool symmetrize = false;
  bool drop_self_loops = true;
  bool drop_duplicate_edges = true;
  /// Read and write the binary CSR cache (see cache_dir).
  bool use_cache = true;
  /// Cache folder; empty means $ABFS_CACHE_DIR, else $XDG_CACHE_HOME/abfs/graphs, else
  /// $HOME/.cache/abfs/graphs.
  std::string cache_dir;
};

/// What load_graph did with the cache, for the CLI's summary.
struct LoadInfo {
  enum class Cache { NotUsed, Hit, Written, WriteFailed };
  Cache cache = Cache::NotUsed;
  std::string cache_path;
  /// Why the cache could not be written (WriteFailed only).
  std::string cache_problem;
  double seconds = 0.0;
};

/// Loads a graph file, choosing the format by extension (an optional trailing .gz is
/// decompressed with zlib): .mtx Matrix Market coordinate (pattern/integer/real,
/// general/symmetric, 1-based); .txt/.el/.edges/.snap SNAP edge list ('#' comments, 0-based,
/// "Undirected" in a comment marks the graph undirected, "# Nodes: N Edges: M" is checked);
/// .gr DIMACS shortest-path ("p sp N M", "a u v w", 1-based); .csr abfs binary cache.
/// @throws InputError naming file, line and problem for anything malformed or unreadable.
Graph load_graph(const std::string& path, const LoadOptions& options = {},
                 LoadInfo* info = nullptr);

/// Graph500 Kronecker graph: 2^scale vertices, edge_factor * 2^scale generated edges with
/// initiator A=0.57, B=C=0.19, D=0.05, vertex ids randomly permuted, made undirected.
/// Deterministic for (scale, edge_factor, seed) regardless of thread count.
/// @throws InvalidArgument if scale is outside [1, 31]. @see Graph500 specification 3.0, §3.
Graph generate_kronecker(int scale, int edge_factor = 16, std::uint64_t seed = 1,
                         const LoadOptions& options = {});

/// Directed graph of num_vertices vertices, each with out_degree arcs to uniformly random
/// other vertices (no self-loops; duplicates dropped if options say so), like Rodinia's
/// graph generator. Deterministic for a seed. @throws InvalidArgument on zero sizes.
Graph generate_uniform(VertexId num_vertices, int out_degree, std::uint64_t seed = 1,
                       const LoadOptions& options = {});

/// Undirected rows x cols 4-neighbour grid; vertex (r, c) has id r * cols + c.
/// @throws InvalidArgument on zero sizes or more than 2^32 - 2 vertices.
Graph generate_grid(VertexId rows, VertexId cols);

/// Opens a graph from a spec: "kron:SCALE[:EDGE_FACTOR[:SEED]]", "uniform:N:DEGREE[:SEED]",
/// "grid:ROWS:COLS", or a file path (see load_graph).
/// @throws InvalidArgument for a malformed generator spec; InputError for a bad file.
Graph open_graph(const std::string& spec, const LoadOptions& options = {},
                 LoadInfo* info = nullptr);

/// One level of a sampled BFS.
struct LevelShape {
  VertexId frontier_vertices = 0;
  EdgeOffset frontier_edges = 0;  ///< arcs out of the frontier
  /// What a bottom-up (pull) step at this level would scan (add_pull_profile): in-arcs over all
  /// unvisited vertices, each up to its first in-neighbour in the frontier or in full.
  EdgeOffset pull_scanned_edges = 0;
  /// The bottom-up step's critical path on the GPU (strategies::add_pull_warp_steps): the
  /// dependent steps of the warp with the longest walk over its 32 vertices' scans, as above
  /// and, for _full, with every scan to the end of its in-list.
  EdgeOffset pull_warp_steps = 0;
  EdgeOffset pull_warp_steps_full = 0;
};

/// Fills pull_scanned_edges of levels[0, levels.size()) from a BFS's distances (|V| entries,
/// -1 = unreached), exactly and in O(|V| + |E|): an in-neighbour u of v has distance
/// >= dist(v) - 1, so at level L an unvisited v scans its whole in-list unless dist(v) = L + 1,
/// when it stops at its first in-neighbour at distance L.
/// @throws InvalidArgument if distances has the wrong size.
void add_pull_profile(const Graph& graph, const std::vector<std::int32_t>& distances,
                      std::vector<LevelShape>& levels);

/// Cheap whole-graph statistics, and (filled by plan_bfs) the level structure of one BFS.
struct GraphStats {
  VertexId num_vertices = 0;
  EdgeOffset num_edges = 0;  ///< arcs
  bool directed = false;
  EdgeOffset min_out_degree = 0;
  EdgeOffset max_out_degree = 0;
  double mean_out_degree = 0.0;
  VertexId num_isolated = 0;  ///< vertices with no out- and (directed) no in-arcs
  EdgeOffset num_self_loops = 0;
  /// Out-degree distribution: median, 90th and 99th percentiles (nearest rank).
  EdgeOffset median_out_degree = 0;
  EdgeOffset p90_out_degree = 0;
  EdgeOffset p99_out_degree = 0;
  /// Share (0..1) of arcs whose endpoints' ids differ by less than kNearArcWindow: how much of
  /// a level's random access stays near the vertex it expands. Crawl-ordered web graphs and
  /// meshes: cnr-2000 0.99, uk-2007-05@100000 0.92, wave 0.93; a random graph of n vertices
  /// ~2 * kNearArcWindow / n (uniform:1048576:8 0.03). 0 for a graph with no arcs.
  double near_arc_share = 0.0;
  /// 16,384 vertices: their per-vertex BFS state (distance, parent, row offsets: 16 bytes a
  /// vertex) is 256 KiB, an eighth of a host core's L2 cache.
  static constexpr VertexId kNearArcWindow = 16384;
  /// Mean out-degree of an arc's head: the sum over the vertices of in-degree x out-degree, over
  /// the arcs (for an undirected graph the sum of the squared degrees over the arcs). A BFS from
  /// a source of out-degree d has a level 1 of d vertices and about d times this many arcs:
  /// 132.5 on soc-Slashdot0902, whose sources of out-degree 10-102 have 134-157 arcs a level-1
  /// vertex (head_out_degree_by_class refines it by the source's out-degree; the planner's
  /// level-1 estimate falls back on this where a class has no vertex read). Over every arc up
  /// to kHeadSampleArcs arcs, else over that many spread evenly; 0 for a graph with no arcs.
  double mean_head_out_degree = 0.0;
  static constexpr EdgeOffset kHeadSampleArcs = EdgeOffset{1} << 22;
  /// The same mean by the source's out-degree class (degree_class: out-degrees 2^c to
  /// 2^(c+1) - 1), over the arcs of those sources: a source of out-degree d in class c has a
  /// level 1 of about d x head_out_degree_by_class[c] arcs. Over every vertex up to
  /// kHeadSampleVertices vertices, else over that many spread evenly; 0 for a class none of the
  /// vertices read has.
  static constexpr std::size_t kDegreeClasses = 48;
  static constexpr VertexId kHeadSampleVertices = VertexId{1} << 20;
  static std::size_t degree_class(EdgeOffset out_degree) noexcept {
    std::size_t c = 0;
    while (out_degree > 1 && c + 1 < kDegreeClasses) {
      out_degree /= 2;
      ++c;
    }
    return c;
  }
  std::array<double, kDegreeClasses> head_out_degree_by_class{};
  /// Level structure sampled by plan_bfs: the largest of its sampled BFSs (up to four sources,
  /// one per component size), from sampled_source, one entry per level and one assumed level
  /// of one vertex past its end (empty from compute_stats).
  VertexId sampled_source = 0;
  std::vector<LevelShape> sampled_levels;
};
/// O(|V| + |E|) (the percentiles by selection).
GraphStats compute_stats(const Graph& graph);

/// Distances and parents of a BFS from one source. distances: |V| levels, -1 = unreached;
/// parents: |V| ids, kNoVertex = unreached, parents[source] = source.
struct BfsTree {
  std::vector<std::int32_t> distances;
  std::vector<VertexId> parents;
};

/// Sequential queue-based BFS over out-arcs: the correctness reference.
/// @throws InvalidArgument if source >= num_vertices.
BfsTree reference_bfs(const Graph& graph, VertexId source);

/// Result of validate_bfs: ok, or the first problem found.
struct ValidationResult {
  bool ok = true;
  std::string problem;
  VertexId num_reached = 0;
};

/// Graph500-style validation of a BFS result (any valid BFS tree passes): the source has level
/// 0 and is its own parent; every reached vertex's parent is reached, one level lower, and the
/// parent arc exists; no arc from a reached vertex u reaches a vertex deeper than level(u) + 1
/// (so unreached vertices have no reached in-neighbour); unreached vertices have no parent.
/// parents may be empty (only distances are checked then). O(|V| + |E|).
/// @see Graph500 specification 3.0, §6 (validation).
ValidationResult validate_bfs(const Graph& graph, VertexId source,
                              const std::vector<std::int32_t>& distances,
                              const std::vector<VertexId>& parents);

/// Up to count BFS sources, Graph500 style: uniformly random vertices with at least one out-arc,
/// in the order a std::mt19937_64 seeded with seed draws them (repeats possible). Gives up after
/// a million draws, so a graph with no out-arcs gives none.
std::vector<VertexId> random_sources(const Graph& graph, int count, std::uint64_t seed);

/// The strongly connected component of every vertex (|V| ids in [0, number of components),
/// numbered in the order Tarjan's algorithm completes them): u and v share an id exactly when
/// each reaches the other over out-arcs, so every source of one component reaches the same
/// vertices. For an undirected graph (both arcs of every edge) these are its connected
/// components. Iterative (no recursion depth limit); O(|V| + |E|) time, 3 |V| ids of memory.
/// @see R. Tarjan, "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2), 1972.
std::vector<VertexId> strongly_connected_components(const Graph& graph);

/// Upper bounds, by component id, on what a BFS from any vertex of that component reaches:
/// vertices, and the arcs out of them (Graph500's traversed arcs). Both are exact where a BFS
/// reaches the vertex bound (its reach is then the component and every one after it, each once).
struct ReachBounds {
  std::vector<VertexId> vertices;  ///< at most |V|
  std::vector<EdgeOffset> arcs;    ///< at most |E|
};
/// Reach bounds of the components strongly_connected_components numbers (|V| ids; every arc
/// leads to the same id or a smaller one): a component's vertices (arcs) plus its successor
/// components' bounds, each successor counted once. Exact where the components a component
/// reaches form a tree (none reached by two paths), so always on an undirected graph (its
/// connected components); a BFS that has visited its source component's vertex bound has visited
/// every vertex it can reach. On cnr-2000 exact for 226 of 300 random sources, within 2x for the
/// rest. O(|V| + |E|) time.
/// @throws InvalidArgument if components is not |V| ids in that order.
ReachBounds component_reach_bounds(const Graph& graph, const std::vector<VertexId>& components);

/// Edges in the traversed component under the Graph500 rule: arcs out of reached vertices,
/// halved for undirected graphs. Used for GTEPS.
EdgeOffset traversed_edges(const Graph& graph, const std::vector<std::int32_t>& distances);

}  // namespace abfs
