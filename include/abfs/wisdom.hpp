#pragma once
/// @file wisdom.hpp
/// Wisdom: what calibration learned about a device, kept as a versioned YAML document, like
/// FFTW's wisdom. Each entry is keyed by a device fingerprint and holds the measured device
/// parameters, every cost model's fitted coefficients with their fit errors, and plans tuned
/// for particular graphs (keyed by a graph fingerprint).
///
/// Stale or mismatched wisdom is never used silently: find() reports which fingerprint fields
/// differ, and plan_bfs() turns that into a warning (or, under PlanFlags::WisdomOnly, an error).
/// @see Frigo, Johnson, "The design and implementation of FFTW3", Proc. IEEE 93(2), 2005.
///
/// @code
///   abfs::Wisdom w = abfs::Wisdom::load_or_default();  // user cache, system file, shipped profiles
///   abfs::Plan plan = abfs::plan_bfs(g, w, {});         // Estimate with the matching entry
/// @endcode

#include <abfs/graph.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace abfs {

/// Identifies a device and the strategy code whose costs were measured on it. Two fingerprints
/// must be equal field by field for wisdom to apply.
struct DeviceFingerprint {
  std::string name;                 ///< e.g. "NVIDIA H100 80GB HBM3"
  int compute_capability = 0;       ///< major * 10 + minor (90 for sm_90)
  int multiprocessors = 0;
  std::uint64_t memory_bytes = 0;   ///< total global memory
  int driver_version = 0;           ///< cudaDriverGetVersion (13000 = CUDA 13.0 driver API)
  int runtime_version = 0;          ///< cudaRuntimeGetVersion
  /// Strategy registry: name -> version (changing a strategy's cost features bumps it).
  std::map<std::string, int> strategies;

  /// "field: wisdom value vs this device value" for every field that differs; empty if equal.
  std::vector<std::string> differences(const DeviceFingerprint& current) const;
};

/// Fingerprint of CUDA device `device` and this build's strategy registry.
/// @throws CudaError if the device cannot be queried.
DeviceFingerprint current_device_fingerprint(int device = 0);

/// A linear cost model: predicted microseconds = sum of coefficient[i] * feature[i], with
/// non-negative coefficients fitted by least squares over calibration samples.
struct CostModelFit {
  std::vector<std::string> features;   ///< feature names, as the strategy reports them
  std::vector<double> coefficients;    ///< microseconds per unit of each feature
  double median_error = 0.0;           ///< median |predicted - measured| / measured over the samples
  double p90_error = 0.0;              ///< 90th percentile of the same
  int samples = 0;
};

/// A plan tuned for one graph on one device (PlanFlags::Measure): per-strategy corrections of
/// the model's predictions, from trial runs.
struct TunedPlan {
  std::string graph_name;              ///< informational (file or generator spec)
  std::uint64_t vertices = 0;
  std::uint64_t arcs = 0;
  bool directed = false;
  std::string flags;                   ///< "measure"
  int trial_sources = 0;
  /// Strategy (or conversion) name -> factor multiplying its predicted time (median of
  /// measured / predicted over the trial levels).
  std::map<std::string, double> scale;
  std::string created;                 ///< ISO 8601 UTC
};

/// Everything known about one device.
struct DeviceWisdom {
  DeviceFingerprint fingerprint;
  std::string host_cpu;                ///< informational: the host that ran cpu_expand
  int host_threads = 0;
  std::string calibrated;              ///< ISO 8601 UTC time of the calibration
  std::string calibration;             ///< "quick" or "patient"
  /// Measured device parameters, by name with unit suffix ("kernel_launch_us",
  /// "stream_read_bytes_per_s", ...).
  std::map<std::string, double> measurements;
  /// Cost models by strategy or conversion name ("privatized_queue", "to_device", ...).
  std::map<std::string, CostModelFit> models;
  /// Tuned plans by graph fingerprint (hex).
  std::map<std::string, TunedPlan> plans;
};

/// A wisdom document: entries for any number of devices.
class Wisdom {
 public:
  /// Version of the YAML schema written by to_yaml(); documents of another version are rejected.
  static constexpr int kSchemaVersion = 1;

  Wisdom() = default;

  /// Parses a YAML document. origin names it in errors. All or nothing: on error nothing is
  /// kept. @throws WisdomError "<origin>:<line>: <problem>" for malformed YAML, a wrong schema
  /// version, or a missing or mistyped field.
  static Wisdom from_yaml(const std::string& text, const std::string& origin = "<string>");
  /// Reads a file (see from_yaml). @throws WisdomError if it cannot be read or parsed.
  static Wisdom load(const std::string& path);
  /// The shipped profiles, merged with the system-wide file and then the per-user cache (later
  /// ones win for the same device). A missing file is skipped; an unreadable or corrupt one
  /// throws WisdomError naming it, so nothing is silently ignored.
  static Wisdom load_or_default();

  /// The document as YAML (deterministic order).
  std::string to_yaml() const;
  /// Writes atomically: a temporary file in the same folder, flushed, then renamed over path,
  /// so an interrupted write leaves the previous file intact. Creates missing folders.
  /// @throws WisdomError if the file cannot be written.
  void save(const std::string& path) const;

  /// Adds other's entries: a device entry replaces ours when its calibration is newer (models
  /// and measurements), and tuned plans are merged per graph (newer wins).
  void merge(const Wisdom& other);

  /// The entry whose fingerprint equals fp, or nullptr. When none matches and `why` is given,
  /// it receives the differences from the closest entry with the same device name (or says
  /// that no entry has this device's name).
  const DeviceWisdom* find(const DeviceFingerprint& fp, std::vector<std::string>* why = nullptr) const;
  DeviceWisdom* find(const DeviceFingerprint& fp);
  /// Adds or replaces the entry with entry's fingerprint.
  void put(DeviceWisdom entry);

  const std::vector<DeviceWisdom>& devices() const noexcept { return devices_; }

  /// Shipped profiles (compiled in from profiles/shipped/*.yaml).
  static Wisdom shipped();
  /// $ABFS_WISDOM_SYSTEM, else /etc/abfs/wisdom.yaml.
  static std::string system_path();
  /// $ABFS_WISDOM, else $XDG_CACHE_HOME/abfs/wisdom.yaml, else $HOME/.cache/abfs/wisdom.yaml.
  static std::string user_path();

 private:
  std::vector<DeviceWisdom> devices_;
};

/// A graph's fingerprint for tuned plans: a 64-bit hash (hex) of |V|, |E|, directedness and the
/// whole CSR. O(|V| + |E|).
std::string graph_fingerprint(const Graph& graph);

}  // namespace abfs
