// Graph (shared immutable CSR with a lazily built reverse), load_graph's format dispatch and
// cache policy, open_graph's spec parsing, and whole-graph statistics.

#include <abfs/error.hpp>
#include <abfs/graph.hpp>

#include "graph/build.hpp"
#include "graph/loaders.hpp"
#include "graph/pull_profile.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <sstream>

namespace abfs {

struct Graph::ReverseCache {
  std::once_flag once;
  std::shared_ptr<const Csr> csr;
};

Graph::Graph() : Graph(Csr{{0}, {}}, false, "empty") {}

Graph::Graph(Csr csr, bool directed, std::string name)
    : reverse_(std::make_shared<ReverseCache>()), directed_(directed), name_(std::move(name)) {
  if (csr.row_offsets.empty()) throw InvalidArgument("CSR row_offsets must have |V|+1 entries");
  if (csr.row_offsets.size() - 1 > detail::kMaxVertices) throw InvalidArgument("too many vertices for 32-bit ids");
  if (csr.row_offsets.front() != 0 || csr.row_offsets.back() != csr.column_indices.size()) {
    throw InvalidArgument("CSR row_offsets must start at 0 and end at the column count");
  }
  const auto n = static_cast<std::int64_t>(csr.row_offsets.size() - 1);
  bool ok = true;
#pragma omp parallel for reduction(&& : ok) schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    ok = ok && csr.row_offsets[v] <= csr.row_offsets[v + 1];
  }
  if (!ok) throw InvalidArgument("CSR row_offsets are not monotone");
  const auto m = static_cast<std::int64_t>(csr.column_indices.size());
#pragma omp parallel for reduction(&& : ok) schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    ok = ok && csr.column_indices[e] < static_cast<VertexId>(n);
  }
  if (!ok) throw InvalidArgument("CSR column index out of range");
  forward_ = std::make_shared<const Csr>(std::move(csr));
}

VertexId Graph::num_vertices() const noexcept {
  return static_cast<VertexId>(forward_->row_offsets.size() - 1);
}

EdgeOffset Graph::num_edges() const noexcept { return forward_->column_indices.size(); }

const Csr& Graph::reverse_csr() const {
  if (!directed_) return *forward_;
  // In parallel (detail::transpose_csr): serially, uniform:100000000:4's 400 M arcs took 19.4 s
  // on the development host, 13.0 s on its two cores; on the H100 host the plan's buffers, which
  // build it, took 21 s (2026-11-27).
  std::call_once(reverse_->once, [this] {
    reverse_->csr = std::make_shared<const Csr>(detail::transpose_csr(*forward_, num_vertices()));
  });
  return *reverse_->csr;
}

namespace {

std::string lower_extension_without_gz(const std::string& path) {
  std::filesystem::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".gz") {
    ext = p.stem().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  }
  return ext;
}

std::string default_cache_dir() {
  if (const char* dir = std::getenv("ABFS_CACHE_DIR"); dir != nullptr && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg) {
    return std::string(xdg) + "/abfs/graphs";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home) {
    return std::string(home) + "/.cache/abfs/graphs";
  }
  return {};
}

std::uint32_t option_bits(const LoadOptions& options) {
  return (options.symmetrize ? 1u : 0u) | (options.drop_self_loops ? 2u : 0u) |
         (options.drop_duplicate_edges ? 4u : 0u);
}

// FNV-1a of the absolute path, so two inputs with the same file name get different caches.
std::string path_hash(const std::string& path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : absolute) h = (h ^ c) * 1099511628211ull;
  std::ostringstream out;
  out << std::hex << h;
  return out.str();
}

}  // namespace

Graph load_graph(const std::string& path, const LoadOptions& options, LoadInfo* info) {
  const auto start = std::chrono::steady_clock::now();
  LoadInfo local;
  LoadInfo& out = info != nullptr ? *info : local;
  out = LoadInfo{};
  auto finish = [&](Graph g) {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return g;
  };

  const std::string ext = lower_extension_without_gz(path);
  if (ext == ".csr") return finish(detail::read_csr_cache(path, path));
  Graph (*parse)(const std::string&, const LoadOptions&) = nullptr;
  if (ext == ".mtx") {
    parse = detail::load_matrix_market;
  } else if (ext == ".txt" || ext == ".el" || ext == ".edges" || ext == ".snap") {
    parse = detail::load_snap;
  } else if (ext == ".gr") {
    parse = detail::load_dimacs;
  } else {
    throw InputError(path, 0, "unknown graph format '" + ext +
                                  "': expected .mtx, .txt/.el/.edges/.snap, .gr or .csr (optionally .gz)");
  }

  struct stat source {};
  const std::string dir = options.use_cache ? (options.cache_dir.empty() ? default_cache_dir() : options.cache_dir)
                                            : std::string();
  if (dir.empty() || ::stat(path.c_str(), &source) != 0 || !S_ISREG(source.st_mode)) {
    return finish(parse(path, options));  // no cache possible; the parser reports a bad path
  }
  const std::int64_t mtime_ns = static_cast<std::int64_t>(source.st_mtim.tv_sec) * 1000000000 + source.st_mtim.tv_nsec;
  const auto bits = option_bits(options);
  out.cache_path = dir + "/" + std::filesystem::path(path).filename().string() + "-" + path_hash(path) + "-o" +
                   std::to_string(bits) + ".csr";
  if (detail::csr_cache_matches(out.cache_path, static_cast<std::uint64_t>(source.st_size), mtime_ns, bits)) {
    out.cache = LoadInfo::Cache::Hit;
    return finish(detail::read_csr_cache(out.cache_path, path));
  }
  Graph graph = parse(path, options);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  out.cache_problem = ec ? "cannot create " + dir + ": " + ec.message()
                         : detail::write_csr_cache(graph, out.cache_path, static_cast<std::uint64_t>(source.st_size),
                                                   mtime_ns, bits);
  out.cache = out.cache_problem.empty() ? LoadInfo::Cache::Written : LoadInfo::Cache::WriteFailed;
  return finish(std::move(graph));
}

namespace {

std::vector<std::string> split_spec(const std::string& spec) {
  std::vector<std::string> parts;
  std::stringstream in(spec);
  std::string part;
  while (std::getline(in, part, ':')) parts.push_back(part);
  return parts;
}

std::uint64_t spec_number(const std::string& spec, const std::string& text, const char* what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19) {
    throw InvalidArgument("graph spec '" + spec + "': " + what + " must be a non-negative integer, got '" + text + "'");
  }
  return std::stoull(text);
}

}  // namespace

Graph open_graph(const std::string& spec, const LoadOptions& options, LoadInfo* info) {
  const auto parts = split_spec(spec);
  const std::string kind = parts.empty() ? std::string() : parts[0];
  if (kind == "kron" || kind == "uniform" || kind == "grid") {
    if (info != nullptr) *info = LoadInfo{};
    const auto start = std::chrono::steady_clock::now();
    auto arg = [&](std::size_t i, const char* what, std::uint64_t fallback, bool required) {
      if (i < parts.size()) return spec_number(spec, parts[i], what);
      if (required) throw InvalidArgument("graph spec '" + spec + "' is missing " + what);
      return fallback;
    };
    Graph g;
    if (kind == "kron") {
      if (parts.size() > 4) throw InvalidArgument("graph spec '" + spec + "': expected kron:SCALE[:EDGE_FACTOR[:SEED]]");
      g = generate_kronecker(static_cast<int>(std::min<std::uint64_t>(arg(1, "SCALE", 0, true), 1000)),
                             static_cast<int>(std::min<std::uint64_t>(arg(2, "EDGE_FACTOR", 16, false), 1u << 20)),
                             arg(3, "SEED", 1, false), options);
    } else if (kind == "uniform") {
      if (parts.size() > 4) throw InvalidArgument("graph spec '" + spec + "': expected uniform:N:DEGREE[:SEED]");
      const auto n = arg(1, "N", 0, true);
      if (n > detail::kMaxVertices) throw InvalidArgument("graph spec '" + spec + "': N over the 32-bit limit");
      g = generate_uniform(static_cast<VertexId>(n),
                           static_cast<int>(std::min<std::uint64_t>(arg(2, "DEGREE", 0, true), 1u << 20)),
                           arg(3, "SEED", 1, false), options);
    } else {
      if (parts.size() != 3) throw InvalidArgument("graph spec '" + spec + "': expected grid:ROWS:COLS");
      const auto rows = arg(1, "ROWS", 0, true);
      const auto cols = arg(2, "COLS", 0, true);
      if (rows > detail::kMaxVertices || cols > detail::kMaxVertices) {
        throw InvalidArgument("graph spec '" + spec + "': grid too large");
      }
      g = generate_grid(static_cast<VertexId>(rows), static_cast<VertexId>(cols));
    }
    if (info != nullptr) {
      info->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return g;
  }
  return load_graph(spec, options, info);
}

std::vector<VertexId> random_sources(const Graph& graph, int count, std::uint64_t seed) {
  std::vector<VertexId> sources;
  if (graph.num_vertices() == 0) return sources;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<VertexId> pick(0, graph.num_vertices() - 1);
  for (int attempts = 0; static_cast<int>(sources.size()) < count && attempts < 1000000; ++attempts) {
    const VertexId v = pick(rng);
    if (graph.out_degree(v) > 0) sources.push_back(v);
  }
  return sources;
}

std::vector<VertexId> strongly_connected_components(const Graph& graph) {
  constexpr VertexId kNone = ~VertexId{0};
  const VertexId n = graph.num_vertices();
  const Csr& csr = graph.csr();
  // Tarjan's algorithm with an explicit call stack: each frame is a vertex and its next arc.
  // A vertex visited but not yet in a component (component == kNone) is on `open`.
  std::vector<VertexId> index(n, kNone), low(n, 0), component(n, kNone), open;
  struct Frame {
    VertexId v;
    EdgeOffset next;
  };
  std::vector<Frame> calls;
  VertexId visited = 0, components = 0;
  auto enter = [&](VertexId v) {
    index[v] = low[v] = visited++;
    open.push_back(v);
    calls.push_back({v, csr.row_offsets[v]});
  };
  for (VertexId root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    enter(root);
    while (!calls.empty()) {
      Frame& f = calls.back();
      const VertexId v = f.v;
      if (f.next < csr.row_offsets[v + 1]) {
        const VertexId w = csr.column_indices[f.next++];
        if (index[w] == kNone) {
          enter(w);  // f may dangle from here
        } else if (component[w] == kNone) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().v] = std::min(low[calls.back().v], low[v]);
      if (low[v] != index[v]) continue;
      VertexId w = kNone;
      do {
        w = open.back();
        open.pop_back();
        component[w] = components;
      } while (w != v);
      ++components;
    }
  }
  return component;
}

ReachBounds component_reach_bounds(const Graph& graph, const std::vector<VertexId>& components) {
  const VertexId n = graph.num_vertices();
  const EdgeOffset m = graph.num_edges();
  if (components.size() != n) {
    throw InvalidArgument("component_reach_bounds: " + std::to_string(components.size()) + " component ids for " +
                          std::to_string(n) + " vertices");
  }
  const VertexId count = n == 0 ? 0 : *std::max_element(components.begin(), components.end()) + 1;
  if (count > n) throw InvalidArgument("component_reach_bounds: a component id of " + std::to_string(count - 1));
  const Csr& csr = graph.csr();
  // The members of each component together (a counting sort by id), then the components in
  // id order: Tarjan completes a component after every one it reaches, so its successors'
  // bounds are final when it is summed. last_added marks a successor already counted for it.
  std::vector<VertexId> first(static_cast<std::size_t>(count) + 1, 0), members(n);
  for (VertexId v = 0; v < n; ++v) ++first[components[v] + 1];
  for (VertexId c = 0; c < count; ++c) first[c + 1] += first[c];
  {
    std::vector<VertexId> at(first.begin(), first.end() - 1);
    for (VertexId v = 0; v < n; ++v) members[at[components[v]]++] = v;
  }
  constexpr VertexId kNone = ~VertexId{0};
  ReachBounds b;
  b.vertices.assign(count, 0);
  b.arcs.assign(count, 0);
  std::vector<VertexId> last_added(count, kNone);
  for (VertexId c = 0; c < count; ++c) {
    std::uint64_t vertices = first[c + 1] - first[c];
    std::uint64_t arcs = 0;
    for (VertexId k = first[c]; k < first[c + 1]; ++k) {
      const VertexId v = members[k];
      arcs += csr.row_offsets[v + 1] - csr.row_offsets[v];
      for (EdgeOffset e = csr.row_offsets[v]; e < csr.row_offsets[v + 1]; ++e) {
        const VertexId d = components[csr.column_indices[e]];
        if (d == c || last_added[d] == c) continue;
        if (d > c) {
          throw InvalidArgument("component_reach_bounds: an arc from component " + std::to_string(c) + " to " +
                                std::to_string(d) + " (ids not in Tarjan's completion order)");
        }
        last_added[d] = c;
        vertices += b.vertices[d];
        arcs += b.arcs[d];
      }
    }
    b.vertices[c] = static_cast<VertexId>(std::min<std::uint64_t>(vertices, n));
    b.arcs[c] = static_cast<EdgeOffset>(std::min<std::uint64_t>(arcs, m));
  }
  return b;
}

GraphStats compute_stats(const Graph& graph) {
  GraphStats s;
  s.num_vertices = graph.num_vertices();
  s.num_edges = graph.num_edges();
  s.directed = graph.directed();
  if (s.num_vertices == 0) return s;
  const Csr& csr = graph.csr();
  // In parallel: serially these passes and the percentiles took 4.3 s of uniform:100000000:4's
  // plan on the H100 host, 4.2-4.8 s on the development host, 2.6 s on its two cores
  // (2026-11-27).
  const std::int64_t n = s.num_vertices;
  std::vector<std::uint8_t> has_in;
  if (graph.directed()) {
    has_in.assign(s.num_vertices, 0);
    std::uint8_t* mark = has_in.data();
    const VertexId* col = csr.column_indices.data();
    const std::int64_t m = static_cast<std::int64_t>(csr.column_indices.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < m; ++e) __atomic_store_n(&mark[col[e]], std::uint8_t{1}, __ATOMIC_RELAXED);
  }
  EdgeOffset min_degree = ~EdgeOffset{0};
  EdgeOffset max_degree = 0;
  VertexId isolated = 0;
  EdgeOffset loops = 0;
  EdgeOffset near = 0;
#pragma omp parallel for schedule(dynamic, 16384) reduction(min : min_degree) reduction(max : max_degree) \
    reduction(+ : isolated, loops, near)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto v = static_cast<VertexId>(i);
    const EdgeOffset d = graph.out_degree(v);
    min_degree = std::min(min_degree, d);
    max_degree = std::max(max_degree, d);
    if (d == 0 && (has_in.empty() || !has_in[v])) ++isolated;
    for (EdgeOffset e = csr.row_offsets[v]; e < csr.row_offsets[v + 1]; ++e) {
      const VertexId w = csr.column_indices[e];
      loops += w == v;
      near += (w > v ? w - v : v - w) < GraphStats::kNearArcWindow;
    }
  }
  s.min_out_degree = min_degree;
  s.max_out_degree = max_degree;
  s.mean_out_degree = static_cast<double>(s.num_edges) / s.num_vertices;
  s.num_isolated = isolated;
  s.num_self_loops = loops;
  s.near_arc_share = s.num_edges > 0 ? static_cast<double>(near) / static_cast<double>(s.num_edges) : 0.0;
  if (s.num_edges > 0) {
    // Every stride-th arc, the stride a power of two (one random degree read each).
    EdgeOffset stride = 1;
    while (s.num_edges / stride > GraphStats::kHeadSampleArcs) stride *= 2;
    const auto sampled = static_cast<std::int64_t>((s.num_edges + stride - 1) / stride);
    double heads = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : heads)
    for (std::int64_t k = 0; k < sampled; ++k) {
      heads += static_cast<double>(graph.out_degree(csr.column_indices[static_cast<EdgeOffset>(k) * stride]));
    }
    s.mean_head_out_degree = heads / static_cast<double>(sampled);
    // By the source's out-degree class: every vstride-th vertex, its arcs' heads' out-degrees.
    std::int64_t vstride = 1;
    while (n / vstride > static_cast<std::int64_t>(GraphStats::kHeadSampleVertices)) vstride *= 2;
    constexpr std::size_t kClasses = GraphStats::kDegreeClasses;
    double head_sums[kClasses] = {};
    double degree_sums[kClasses] = {};
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : head_sums[:kClasses], degree_sums[:kClasses])
    for (std::int64_t k = 0; k < (n + vstride - 1) / vstride; ++k) {
      const auto v = static_cast<VertexId>(k * vstride);
      const EdgeOffset d = graph.out_degree(v);
      if (d == 0) continue;
      double heads_v = 0.0;
      for (EdgeOffset e = csr.row_offsets[v]; e < csr.row_offsets[v + 1]; ++e) {
        heads_v += static_cast<double>(graph.out_degree(csr.column_indices[e]));
      }
      const std::size_t c = GraphStats::degree_class(d);
      head_sums[c] += heads_v;
      degree_sums[c] += static_cast<double>(d);
    }
    for (std::size_t c = 0; c < kClasses; ++c) {
      s.head_out_degree_by_class[c] = degree_sums[c] > 0.0 ? head_sums[c] / degree_sums[c] : 0.0;
    }
  }
  std::vector<EdgeOffset> degrees(s.num_vertices);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) degrees[i] = graph.out_degree(static_cast<VertexId>(i));
  auto percentile = [&](double q) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(degrees.size())));
    const auto at = degrees.begin() + static_cast<std::ptrdiff_t>(std::min(degrees.size() - 1, rank == 0 ? 0 : rank - 1));
    std::nth_element(degrees.begin(), at, degrees.end());
    return *at;
  };
  s.median_out_degree = percentile(0.5);
  s.p90_out_degree = percentile(0.9);
  s.p99_out_degree = percentile(0.99);
  return s;
}

void add_pull_profile(const Graph& graph, const std::vector<std::int32_t>& distances, std::vector<LevelShape>& levels) {
  const VertexId n = graph.num_vertices();
  if (distances.size() != n) {
    throw InvalidArgument("add_pull_profile: " + std::to_string(distances.size()) + " distances for a graph of " +
                          std::to_string(n) + " vertices");
  }
  const std::size_t depth = levels.size();
  if (depth == 0) return;
  const Csr& in = graph.reverse_csr();
  // By the distance class k of v (detail::pull_distance_class): the sum of full in-list lengths,
  // and the sum of scans that stop at the first in-neighbour at distance k - 1.
  std::vector<EdgeOffset> full_sum(depth + 3, 0), hit_sum(depth + 3, 0);
  for (VertexId v = 0; v < n; ++v) {
    const EdgeOffset begin = in.row_offsets[v];
    const EdgeOffset length = in.row_offsets[v + 1] - begin;
    const std::int32_t d = distances[v];
    const std::size_t k = detail::pull_distance_class(d, depth);
    full_sum[k] += length;
    if (d <= 0 || k == depth + 2) continue;
    EdgeOffset scanned = length;
    for (EdgeOffset e = 0; e < length; ++e) {
      if (distances[in.column_indices[begin + e]] == d - 1) {
        scanned = e + 1;
        break;
      }
    }
    hit_sum[k] += scanned;
  }
  detail::set_pull_scanned_edges(full_sum, hit_sum, levels);
}

namespace detail {

void set_pull_scanned_edges(const std::vector<EdgeOffset>& full_sum, const std::vector<EdgeOffset>& hit_sum,
                            std::vector<LevelShape>& levels) {
  const std::size_t depth = levels.size();
  if (depth == 0) return;
  EdgeOffset suffix_sum = 0;
  for (std::size_t k = depth + 2; k >= 2; --k) {
    suffix_sum += full_sum[k];
    const std::size_t level = k - 2;
    if (level >= depth) continue;
    levels[level].pull_scanned_edges = suffix_sum + hit_sum[level + 1];
  }
}

}  // namespace detail

}  // namespace abfs
