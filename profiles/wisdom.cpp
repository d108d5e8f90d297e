// Wisdom as YAML (yaml-cpp): schema, parsing with line numbers, atomic save, merge, lookup.
//
// Schema (version 1):
//   abfs_wisdom: 1
//   devices:
//     - fingerprint: {name, compute_capability, multiprocessors, memory_bytes, driver_version,
//                     runtime_version, strategies: {name: version, ...}}
//       host_cpu, host_threads, calibrated, calibration
//       measurements: {name: value, ...}
//       models: {name: {features: [..], coefficients: [..], median_error, p90_error, samples}}
//       plans: {graph fingerprint: {graph_name, vertices, arcs, directed, flags, trial_sources,
//                                   scale: {name: factor}, created}}

#include <abfs/error.hpp>
#include <abfs/wisdom.hpp>

#include <yaml-cpp/yaml.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string_view>
#include <type_traits>

namespace abfs {
namespace detail {
// Defined in the generated shipped_profiles.cpp: the YAML of profiles/shipped/*.yaml.
extern const char* const kShippedProfiles[];
extern const char* const kShippedProfileNames[];
extern const int kNumShippedProfiles;
}  // namespace detail

namespace {

// Whether text is well-formed UTF-8 with no control characters (tab allowed).
bool printable_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
      ++i;
      continue;
    }
    const int length = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (length == 0 || (length == 3 && c > 0xEF) || i + static_cast<std::size_t>(length) > text.size()) return false;
    std::uint32_t code = c & (0xFFu >> (length + 1));
    for (int k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3Fu);
    }
    // Overlong forms, surrogates, beyond U+10FFFF, and C1 controls.
    if ((length == 3 && code < 0x800) || (length == 4 && (code < 0x10000 || code > 0x10FFFF)) ||
        (code >= 0xD800 && code <= 0xDFFF) || (code >= 0x80 && code < 0xA0)) {
      return false;
    }
    i += static_cast<std::size_t>(length);
  }
  return true;
}

// Reads one document, turning every yaml-cpp and schema problem into "origin:line: problem".
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& problem) const {
    const YAML::Mark mark = at.Mark();
    fail_line(mark.is_null() ? 0 : mark.line + 1, problem);
  }
  [[noreturn]] void fail_line(int line, const std::string& problem) const {
    throw WisdomError(line > 0 ? origin_ + ":" + std::to_string(line) + ": " + problem : origin_ + ": " + problem);
  }

  YAML::Node child(const YAML::Node& map, const char* key, YAML::NodeType::value type) const {
    if (!map.IsMap()) fail(map, "expected a mapping");
    const YAML::Node node = map[key];
    if (!node) fail(map, std::string("missing field '") + key + "'");
    if (node.Type() != type) fail(node, std::string("field '") + key + "' has the wrong type");
    return node;
  }
  template <class T>
  T scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + ": expected a scalar");
    // Text must be printable UTF-8: yaml-cpp's emitter replaces invalid bytes, so such a name
    // or key would change on the next save (found by fuzz_wisdom).
    if constexpr (std::is_same_v<T, std::string>) {
      if (!printable_utf8(node.Scalar())) fail(node, what + ": not printable UTF-8 text");
    }
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      std::string shown = node.Scalar().substr(0, 80);  // one line, whatever the scalar holds
      for (char& c : shown) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
      }
      fail(node, what + ": '" + shown + "' is not a valid value");
    }
  }
  template <class T>
  T field(const YAML::Node& map, const char* key) const {
    return scalar<T>(child(map, key, YAML::NodeType::Scalar), std::string("field '") + key + "'");
  }
  template <class T>
  std::map<std::string, T> scalar_map(const YAML::Node& map, const char* key) const {
    std::map<std::string, T> out;
    const YAML::Node node = child(map, key, YAML::NodeType::Map);
    for (const auto& kv : node) out[scalar<std::string>(kv.first, key)] = scalar<T>(kv.second, kv.first.Scalar());
    return out;
  }
  template <class T>
  std::vector<T> scalar_list(const YAML::Node& map, const char* key) const {
    std::vector<T> out;
    for (const auto& item : child(map, key, YAML::NodeType::Sequence)) out.push_back(scalar<T>(item, key));
    return out;
  }

  DeviceFingerprint fingerprint(const YAML::Node& node) const {
    DeviceFingerprint fp;
    fp.name = field<std::string>(node, "name");
    fp.compute_capability = field<int>(node, "compute_capability");
    fp.multiprocessors = field<int>(node, "multiprocessors");
    fp.memory_bytes = field<std::uint64_t>(node, "memory_bytes");
    fp.driver_version = field<int>(node, "driver_version");
    fp.runtime_version = field<int>(node, "runtime_version");
    fp.strategies = scalar_map<int>(node, "strategies");
    return fp;
  }

  CostModelFit model(const YAML::Node& node) const {
    CostModelFit m;
    m.features = scalar_list<std::string>(node, "features");
    m.coefficients = scalar_list<double>(node, "coefficients");
    if (m.features.size() != m.coefficients.size()) {
      fail(node, "model has " + std::to_string(m.features.size()) + " features but " +
                     std::to_string(m.coefficients.size()) + " coefficients");
    }
    for (double c : m.coefficients) {
      if (!(c >= 0.0)) fail(node, "model coefficients must be non-negative numbers");
    }
    m.median_error = field<double>(node, "median_error");
    m.p90_error = field<double>(node, "p90_error");
    m.samples = field<int>(node, "samples");
    return m;
  }

  TunedPlan plan(const YAML::Node& node) const {
    TunedPlan p;
    p.graph_name = field<std::string>(node, "graph_name");
    p.vertices = field<std::uint64_t>(node, "vertices");
    p.arcs = field<std::uint64_t>(node, "arcs");
    p.directed = field<bool>(node, "directed");
    p.flags = field<std::string>(node, "flags");
    p.trial_sources = field<int>(node, "trial_sources");
    p.scale = scalar_map<double>(node, "scale");
    for (const auto& [name, factor] : p.scale) {
      if (!(factor > 0.0)) fail(node, "plan scale for '" + name + "' must be positive");
    }
    p.created = field<std::string>(node, "created");
    return p;
  }

  DeviceWisdom device(const YAML::Node& node) const {
    DeviceWisdom d;
    d.fingerprint = fingerprint(child(node, "fingerprint", YAML::NodeType::Map));
    d.host_cpu = field<std::string>(node, "host_cpu");
    d.host_threads = field<int>(node, "host_threads");
    d.calibrated = field<std::string>(node, "calibrated");
    d.calibration = field<std::string>(node, "calibration");
    d.measurements = scalar_map<double>(node, "measurements");
    for (const auto& kv : child(node, "models", YAML::NodeType::Map)) {
      d.models[scalar<std::string>(kv.first, "model name")] = model(kv.second);
    }
    for (const auto& kv : child(node, "plans", YAML::NodeType::Map)) {
      d.plans[scalar<std::string>(kv.first, "graph fingerprint")] = plan(kv.second);
    }
    return d;
  }

 private:
  std::string origin_;
};

YAML::Node to_node(const DeviceWisdom& d) {
  YAML::Node node;
  YAML::Node fp;
  fp["name"] = d.fingerprint.name;
  fp["compute_capability"] = d.fingerprint.compute_capability;
  fp["multiprocessors"] = d.fingerprint.multiprocessors;
  fp["memory_bytes"] = d.fingerprint.memory_bytes;
  fp["driver_version"] = d.fingerprint.driver_version;
  fp["runtime_version"] = d.fingerprint.runtime_version;
  fp["strategies"] = YAML::Node(YAML::NodeType::Map);
  for (const auto& [name, version] : d.fingerprint.strategies) fp["strategies"][name] = version;
  node["fingerprint"] = fp;
  node["host_cpu"] = d.host_cpu;
  node["host_threads"] = d.host_threads;
  node["calibrated"] = d.calibrated;
  node["calibration"] = d.calibration;
  node["measurements"] = YAML::Node(YAML::NodeType::Map);
  for (const auto& [name, value] : d.measurements) node["measurements"][name] = value;
  node["models"] = YAML::Node(YAML::NodeType::Map);
  for (const auto& [name, m] : d.models) {
    YAML::Node model;
    model["features"] = m.features;
    model["features"].SetStyle(YAML::EmitterStyle::Flow);
    model["coefficients"] = m.coefficients;
    model["coefficients"].SetStyle(YAML::EmitterStyle::Flow);
    model["median_error"] = m.median_error;
    model["p90_error"] = m.p90_error;
    model["samples"] = m.samples;
    node["models"][name] = model;
  }
  node["plans"] = YAML::Node(YAML::NodeType::Map);
  for (const auto& [key, p] : d.plans) {
    YAML::Node plan;
    plan["graph_name"] = p.graph_name;
    plan["vertices"] = p.vertices;
    plan["arcs"] = p.arcs;
    plan["directed"] = p.directed;
    plan["flags"] = p.flags;
    plan["trial_sources"] = p.trial_sources;
    plan["scale"] = YAML::Node(YAML::NodeType::Map);
    for (const auto& [name, factor] : p.scale) plan["scale"][name] = factor;
    plan["created"] = p.created;
    node["plans"][key] = plan;
  }
  return node;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value ? std::string(value) : fallback;
}

}  // namespace

std::vector<std::string> DeviceFingerprint::differences(const DeviceFingerprint& current) const {
  std::vector<std::string> out;
  auto differ = [&](const char* field, const auto& ours, const auto& theirs) {
    std::ostringstream text;
    if (ours != theirs) {
      text << field << ": wisdom " << ours << " vs device " << theirs;
      out.push_back(text.str());
    }
  };
  differ("name", name, current.name);
  differ("compute_capability", compute_capability, current.compute_capability);
  differ("multiprocessors", multiprocessors, current.multiprocessors);
  differ("memory_bytes", memory_bytes, current.memory_bytes);
  differ("driver_version", driver_version, current.driver_version);
  differ("runtime_version", runtime_version, current.runtime_version);
  for (const auto& [strategy, version] : current.strategies) {
    const auto it = strategies.find(strategy);
    if (it == strategies.end()) {
      out.push_back("strategy " + strategy + ": missing from wisdom (this build has version " +
                    std::to_string(version) + ")");
    } else if (it->second != version) {
      out.push_back("strategy " + strategy + ": wisdom version " + std::to_string(it->second) + " vs this build " +
                    std::to_string(version));
    }
  }
  for (const auto& [strategy, version] : strategies) {
    if (current.strategies.count(strategy) == 0) out.push_back("strategy " + strategy + ": not in this build");
  }
  return out;
}

Wisdom Wisdom::from_yaml(const std::string& text, const std::string& origin) {
  const Reader reader(origin);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    reader.fail_line(e.mark.is_null() ? 0 : e.mark.line + 1, "malformed YAML: " + e.msg);
  }
  if (!root.IsMap()) reader.fail_line(1, "not a wisdom document (expected a mapping with 'abfs_wisdom')");
  const int version = reader.field<int>(root, "abfs_wisdom");
  if (version != kSchemaVersion) {
    reader.fail(root["abfs_wisdom"], "wisdom schema version " + std::to_string(version) + ", this build reads " +
                                         std::to_string(kSchemaVersion));
  }
  Wisdom w;
  for (const auto& item : reader.child(root, "devices", YAML::NodeType::Sequence)) {
    DeviceWisdom d = reader.device(item);
    for (const auto& existing : w.devices_) {
      if (existing.fingerprint.differences(d.fingerprint).empty()) {
        reader.fail(item, "two entries for the same device fingerprint");
      }
    }
    w.devices_.push_back(std::move(d));
  }
  return w;
}

Wisdom Wisdom::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WisdomError(path + ": cannot open wisdom file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw WisdomError(path + ": read failed");
  return from_yaml(text.str(), path);
}

std::string Wisdom::to_yaml() const {
  YAML::Node root;
  root["abfs_wisdom"] = kSchemaVersion;
  root["devices"] = YAML::Node(YAML::NodeType::Sequence);
  for (const auto& d : devices_) root["devices"].push_back(to_node(d));
  YAML::Emitter out;
  out.SetDoublePrecision(9);
  out << root;
  return std::string("# abfs wisdom: device measurements and fitted cost models (see include/abfs/wisdom.hpp)\n") +
         out.c_str() + "\n";
}

void Wisdom::save(const std::string& path) const {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw WisdomError(path + ": cannot create folder " + target.parent_path().string() + ": " + ec.message());
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const std::string text = to_yaml();
  {
    // Written whole and flushed to the disk (fsync) before the rename, so that neither a killed
    // process nor a crash of the machine can leave a partial file under the final name.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw WisdomError(path + ": cannot write temporary file " + temporary + ": " + std::strerror(errno));
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    const int error = written < text.size() || ::fsync(fd) != 0 ? errno : 0;
    ::close(fd);
    if (written < text.size() || error != 0) {
      fs::remove(temporary, ec);
      throw WisdomError(path + ": write to " + temporary + " failed: " + std::strerror(error != 0 ? error : EIO));
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw WisdomError(path + ": cannot replace the file: " + ec.message());
  }
}

void Wisdom::merge(const Wisdom& other) {
  for (const auto& theirs : other.devices_) {
    DeviceWisdom* ours = find(theirs.fingerprint);
    if (ours == nullptr) {
      devices_.push_back(theirs);
      continue;
    }
    // ISO 8601 UTC strings order chronologically.
    if (theirs.calibrated > ours->calibrated) {
      ours->host_cpu = theirs.host_cpu;
      ours->host_threads = theirs.host_threads;
      ours->calibrated = theirs.calibrated;
      ours->calibration = theirs.calibration;
      ours->measurements = theirs.measurements;
      ours->models = theirs.models;
    }
    for (const auto& [key, plan] : theirs.plans) {
      const auto it = ours->plans.find(key);
      if (it == ours->plans.end() || plan.created > it->second.created) ours->plans[key] = plan;
    }
  }
}

const DeviceWisdom* Wisdom::find(const DeviceFingerprint& fp, std::vector<std::string>* why) const {
  const DeviceWisdom* closest = nullptr;
  std::size_t closest_count = 0;
  for (const auto& d : devices_) {
    const std::vector<std::string> diff = d.fingerprint.differences(fp);
    if (diff.empty()) return &d;
    if (d.fingerprint.name == fp.name && (closest == nullptr || diff.size() < closest_count)) {
      closest = &d;
      closest_count = diff.size();
    }
  }
  if (why != nullptr) {
    why->clear();
    if (closest != nullptr) {
      *why = closest->fingerprint.differences(fp);
    } else {
      why->push_back("no wisdom entry for device '" + fp.name + "' (" + std::to_string(devices_.size()) +
                     " entries for other devices)");
    }
  }
  return nullptr;
}

DeviceWisdom* Wisdom::find(const DeviceFingerprint& fp) {
  return const_cast<DeviceWisdom*>(static_cast<const Wisdom*>(this)->find(fp, nullptr));
}

void Wisdom::put(DeviceWisdom entry) {
  if (DeviceWisdom* existing = find(entry.fingerprint)) {
    *existing = std::move(entry);
  } else {
    devices_.push_back(std::move(entry));
  }
}

Wisdom Wisdom::shipped() {
  Wisdom w;
  for (int i = 0; i < detail::kNumShippedProfiles; ++i) {
    w.merge(from_yaml(detail::kShippedProfiles[i], std::string("shipped profile ") + detail::kShippedProfileNames[i]));
  }
  return w;
}

std::string Wisdom::system_path() { return env_or("ABFS_WISDOM_SYSTEM", "/etc/abfs/wisdom.yaml"); }

std::string Wisdom::user_path() {
  if (const std::string explicit_path = env_or("ABFS_WISDOM", ""); !explicit_path.empty()) return explicit_path;
  const std::string cache = env_or("XDG_CACHE_HOME", env_or("HOME", ".") + "/.cache");
  return cache + "/abfs/wisdom.yaml";
}

Wisdom Wisdom::load_or_default() {
  Wisdom w = shipped();
  for (const std::string& path : {system_path(), user_path()}) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) continue;
    w.merge(load(path));
  }
  return w;
}

std::string graph_fingerprint(const Graph& graph) {
  const Csr& csr = graph.csr();
  const std::hash<std::string_view> hash;
  auto bytes = [](const auto& v) {
    return std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
  };
  std::uint64_t h = hash(bytes(csr.row_offsets));
  h ^= hash(bytes(csr.column_indices)) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= (static_cast<std::uint64_t>(graph.num_vertices()) << 1) ^ graph.num_edges() ^ (graph.directed() ? 1u : 0u);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace abfs
