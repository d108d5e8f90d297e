// Text graph formats: Matrix Market coordinate, SNAP edge lists and DIMACS .gr, plain or gzip.
// Parsers are strict: anything unexpected is an InputError with file, line and problem.

#include "graph/loaders.hpp"

#include "graph/build.hpp"
#include "graph/memory_limits.hpp"
#include "graph/text_reader.hpp"

#include <algorithm>
#include <cctype>
#include <new>
#include <string_view>

namespace abfs::detail {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Capacity to reserve for a declared edge count, so that a huge bogus header cannot make us
// allocate gigabytes before the first edge line is read.
std::size_t reserve_hint(std::uint64_t declared) {
  return static_cast<std::size_t>(std::min<std::uint64_t>(declared, std::uint64_t{1} << 24));
}

void check_vertex_count(const TextReader& reader, std::uint64_t n) {
  if (n > kMaxVertices) {
    reader.fail("vertex count " + std::to_string(n) + " exceeds the 32-bit id limit " +
                std::to_string(kMaxVertices));
  }
}

// Builds the graph; a failed allocation becomes an InputError on the header line that declared
// the size, since it is almost always a bogus header.
Graph finish(const std::string& path, std::uint64_t header_line, std::uint64_t n,
             const EdgeList& edges, bool undirected_input, const LoadOptions& options) {
  const bool undirected = undirected_input || options.symmetrize;
  BuildOptions build;
  build.add_reverse = undirected;
  build.drop_self_loops = options.drop_self_loops;
  build.drop_duplicate_edges = options.drop_duplicate_edges;
  // The CSR (offsets and arcs), the edge list already read, and the reverse CSR of a directed
  // graph: a header declaring more than the host can hold is an error here, not an
  // out-of-memory kill later.
  const long double arcs = static_cast<long double>(edges.src.size()) * (undirected ? 2 : 1);
  const long double needed = (static_cast<long double>(n) + 1) * sizeof(EdgeOffset) * (undirected ? 1 : 2) +
                             arcs * sizeof(VertexId) * (undirected ? 1 : 2);
  const std::size_t available = host_memory_available();
  if (needed > static_cast<long double>(available)) {
    throw InputError(path, header_line,
                     "a graph of " + std::to_string(n) + " vertices and " + std::to_string(edges.src.size()) +
                         " edges needs " + std::to_string(static_cast<unsigned long long>(needed)) +
                         " bytes of host memory, " + std::to_string(available) + " are available");
  }
  try {
    return Graph(build_csr(static_cast<VertexId>(n), edges, build), !undirected, path);
  } catch (const std::bad_alloc&) {
    throw InputError(path, header_line,
                     "cannot allocate a graph of " + std::to_string(n) + " vertices and " +
                         std::to_string(edges.src.size()) + " edges");
  }
}

}  // namespace

Graph load_matrix_market(const std::string& path, const LoadOptions& options) {
  TextReader reader(path);
  std::string_view line;
  if (!reader.next_line(line)) reader.fail("empty file (expected a '%%MatrixMarket' header)");
  std::string_view f[6];
  const std::size_t nf = split_fields(line, f, 5);
  if (nf == 0 || lower(f[0]) != "%%matrixmarket") {
    reader.fail("missing '%%MatrixMarket matrix coordinate <field> <symmetry>' header");
  }
  if (nf != 5) reader.fail("header must have 5 words: %%MatrixMarket matrix coordinate <field> <symmetry>");
  if (lower(f[1]) != "matrix") reader.fail("unsupported object '" + std::string(f[1]) + "' (expected 'matrix')");
  if (lower(f[2]) != "coordinate") {
    reader.fail("unsupported format '" + std::string(f[2]) + "' (only 'coordinate' holds a graph)");
  }
  const std::string field = lower(f[3]);
  if (field != "pattern" && field != "integer" && field != "real") {
    reader.fail("unsupported field '" + std::string(f[3]) + "' (expected pattern, integer or real)");
  }
  const std::string symmetry = lower(f[4]);
  if (symmetry != "general" && symmetry != "symmetric") {
    reader.fail("unsupported symmetry '" + std::string(f[4]) + "' (expected general or symmetric)");
  }
  const std::size_t fields_per_entry = field == "pattern" ? 2 : 3;

  // Size line: first non-comment, non-blank line.
  bool have_size = false;
  while (reader.next_line(line)) {
    if (line.empty() || line[0] == '%' || blank(line)) continue;
    have_size = true;
    break;
  }
  if (!have_size) reader.fail("missing size line 'rows cols entries'");
  const std::uint64_t size_line = reader.line_number();
  if (split_fields(line, f, 3) != 3) reader.fail("size line must be 'rows cols entries'");
  const std::uint64_t rows = reader.parse_uint(f[0], "row count");
  const std::uint64_t cols = reader.parse_uint(f[1], "column count");
  const std::uint64_t nnz = reader.parse_uint(f[2], "entry count");
  if (rows != cols) {
    reader.fail("matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                "; an adjacency matrix must be square");
  }
  check_vertex_count(reader, rows);

  EdgeList edges;
  edges.src.reserve(reserve_hint(nnz));
  edges.dst.reserve(reserve_hint(nnz));
  std::uint64_t count = 0;
  while (reader.next_line(line)) {
    if (line.empty() || line[0] == '%' || blank(line)) continue;
    const std::size_t got = split_fields(line, f, fields_per_entry);
    if (got != fields_per_entry) {
      reader.fail("expected " + std::to_string(fields_per_entry) + " fields ('row col" +
                  (fields_per_entry == 3 ? " value" : "") + "') for a " + field + " matrix, found " +
                  (got > fields_per_entry ? "more" : std::to_string(got)));
    }
    const std::uint64_t r = reader.parse_uint(f[0], "row id");
    const std::uint64_t c = reader.parse_uint(f[1], "column id");
    if (r < 1 || r > rows) reader.fail("row id " + std::to_string(r) + " out of range 1.." + std::to_string(rows));
    if (c < 1 || c > cols) reader.fail("column id " + std::to_string(c) + " out of range 1.." + std::to_string(cols));
    if (fields_per_entry == 3) reader.check_number(f[2], "value");
    if (++count > nnz) {
      reader.fail("more entries than the " + std::to_string(nnz) + " declared on line " + std::to_string(size_line));
    }
    edges.src.push_back(static_cast<VertexId>(r - 1));
    edges.dst.push_back(static_cast<VertexId>(c - 1));
  }
  if (count != nnz) {
    reader.fail("truncated: " + std::to_string(nnz) + " entries declared on line " +
                std::to_string(size_line) + ", " + std::to_string(count) + " found");
  }
  return finish(path, size_line, rows, edges, symmetry == "symmetric", options);
}

Graph load_snap(const std::string& path, const LoadOptions& options) {
  TextReader reader(path);
  std::string_view line;
  std::string_view f[4];
  bool undirected = false;
  bool have_nodes = false;
  bool have_edges = false;
  bool any_line = false;
  std::uint64_t nodes = 0;
  std::uint64_t declared_edges = 0;
  std::uint64_t header_line = 0;
  std::uint64_t max_id = 0;
  EdgeList edges;
  while (reader.next_line(line)) {
    any_line = true;
    if (blank(line)) continue;
    if (line[0] == '#' || line[0] == '%') {
      const std::string text = lower(line);
      if (edges.src.empty() && text.find("undirected") != std::string::npos) undirected = true;
      const auto at = text.find("nodes:");
      if (at != std::string::npos) {
        // "# Nodes: N Edges: M"
        const std::size_t nf = split_fields(std::string_view(text).substr(at), f, 4);
        if (nf < 2) reader.fail("'Nodes:' without a count");
        nodes = reader.parse_uint(f[1], "node count");
        check_vertex_count(reader, nodes);
        // A header after edge lines (found by fuzz_snap) must cover the ids already read.
        if (!edges.src.empty() && max_id >= nodes) {
          reader.fail("'# Nodes: " + std::to_string(nodes) + "' after edge lines with vertex id " +
                      std::to_string(max_id));
        }
        have_nodes = true;
        header_line = reader.line_number();
        if (nf >= 4 && f[2] == "edges:") {
          declared_edges = reader.parse_uint(f[3], "edge count");
          have_edges = true;
          edges.src.reserve(reserve_hint(declared_edges));
          edges.dst.reserve(reserve_hint(declared_edges));
        }
      }
      continue;
    }
    const std::size_t got = split_fields(line, f, 3);
    if (got < 2 || got > 3) {
      reader.fail("expected 'source target' (optionally a weight), found " +
                  (got > 3 ? std::string("more than 3 fields") : std::to_string(got) + " field"));
    }
    const std::uint64_t s = reader.parse_uint(f[0], "source id");
    const std::uint64_t t = reader.parse_uint(f[1], "target id");
    if (got == 3) reader.check_number(f[2], "weight");
    if (have_nodes && (s >= nodes || t >= nodes)) {
      reader.fail("vertex id " + std::to_string(std::max(s, t)) + " out of range 0.." +
                  std::to_string(nodes - 1) + " ('# Nodes: " + std::to_string(nodes) + "' on line " +
                  std::to_string(header_line) + ")");
    }
    if (!have_nodes && std::max(s, t) >= kMaxVertices) {
      reader.fail("vertex id " + std::to_string(std::max(s, t)) + " exceeds the 32-bit id limit");
    }
    max_id = std::max({max_id, s, t});
    edges.src.push_back(static_cast<VertexId>(s));
    edges.dst.push_back(static_cast<VertexId>(t));
  }
  if (!any_line) reader.fail("empty file");
  if (have_edges && edges.src.size() != declared_edges) {
    reader.fail("header on line " + std::to_string(header_line) + " declares " +
                std::to_string(declared_edges) + " edges, the file has " +
                std::to_string(edges.src.size()));
  }
  if (!have_nodes && edges.src.empty()) reader.fail("no edges and no '# Nodes: N' header");
  const std::uint64_t n = have_nodes ? nodes : max_id + 1;
  return finish(path, header_line, n, edges, undirected, options);
}

Graph load_dimacs(const std::string& path, const LoadOptions& options) {
  TextReader reader(path);
  std::string_view line;
  std::string_view f[5];
  bool have_problem = false;
  bool any_line = false;
  std::uint64_t n = 0;
  std::uint64_t declared_arcs = 0;
  std::uint64_t problem_line = 0;
  EdgeList edges;
  while (reader.next_line(line)) {
    any_line = true;
    if (blank(line)) continue;
    switch (line[0]) {
      case 'c':
        continue;
      case 'p': {
        if (have_problem) reader.fail("second 'p' line (first on line " + std::to_string(problem_line) + ")");
        if (split_fields(line, f, 4) != 4 || f[0] != "p" || f[1] != "sp") {
          reader.fail("problem line must be 'p sp <vertices> <arcs>'");
        }
        n = reader.parse_uint(f[2], "vertex count");
        check_vertex_count(reader, n);
        declared_arcs = reader.parse_uint(f[3], "arc count");
        have_problem = true;
        problem_line = reader.line_number();
        edges.src.reserve(reserve_hint(declared_arcs));
        edges.dst.reserve(reserve_hint(declared_arcs));
        continue;
      }
      case 'a': {
        if (!have_problem) reader.fail("arc before the 'p sp <vertices> <arcs>' problem line");
        if (split_fields(line, f, 4) != 4 || f[0] != "a") reader.fail("arc line must be 'a <tail> <head> <weight>'");
        const std::uint64_t u = reader.parse_uint(f[1], "tail id");
        const std::uint64_t v = reader.parse_uint(f[2], "head id");
        if (u < 1 || u > n) reader.fail("tail id " + std::to_string(u) + " out of range 1.." + std::to_string(n));
        if (v < 1 || v > n) reader.fail("head id " + std::to_string(v) + " out of range 1.." + std::to_string(n));
        reader.check_number(f[3], "arc weight");
        if (edges.src.size() == declared_arcs) {
          reader.fail("more arcs than the " + std::to_string(declared_arcs) + " declared on line " +
                      std::to_string(problem_line));
        }
        edges.src.push_back(static_cast<VertexId>(u - 1));
        edges.dst.push_back(static_cast<VertexId>(v - 1));
        continue;
      }
      default:
        reader.fail("unknown line type '" + std::string(1, std::isprint(static_cast<unsigned char>(line[0])) ? line[0] : '?') +
                    "' (expected c, p or a)");
    }
  }
  if (!any_line) reader.fail("empty file");
  if (!have_problem) reader.fail("missing 'p sp <vertices> <arcs>' problem line");
  if (edges.src.size() != declared_arcs) {
    reader.fail("truncated: " + std::to_string(declared_arcs) + " arcs declared on line " +
                std::to_string(problem_line) + ", " + std::to_string(edges.src.size()) + " found");
  }
  return finish(path, problem_line, n, edges, false, options);
}

}  // namespace abfs::detail
