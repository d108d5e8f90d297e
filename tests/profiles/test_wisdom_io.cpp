// Wisdom: YAML round trip, fingerprint and version mismatch, corrupt files reported by line,
// atomic writes, merge.

#include <abfs/error.hpp>
#include <abfs/wisdom.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

abfs::DeviceWisdom sample_entry(const std::string& calibrated = "2026-11-22T10:00:00Z") {
  abfs::DeviceWisdom d;
  d.fingerprint.name = "NVIDIA H100 80GB HBM3";
  d.fingerprint.compute_capability = 90;
  d.fingerprint.multiprocessors = 132;
  d.fingerprint.memory_bytes = 85017493504ull;
  d.fingerprint.driver_version = 13000;
  d.fingerprint.runtime_version = 13000;
  d.fingerprint.strategies = {{"cpu_expand", 2}, {"gather_pull", 2}};
  d.host_cpu = "Test CPU";
  d.host_threads = 16;
  d.calibrated = calibrated;
  d.calibration = "quick";
  d.measurements = {{"kernel_launch_us", 4.25}, {"stream_read_bytes_per_s", 3.05e12}};
  d.models["gather_pull"] = {{"run", "vertices"}, {23.75, 8.125e-06}, 0.0625, 0.125, 4374};
  abfs::TunedPlan plan;
  plan.graph_name = "kron:16";
  plan.vertices = 65536;
  plan.arcs = 1900000;
  plan.directed = false;
  plan.flags = "measure";
  plan.trial_sources = 4;
  plan.scale = {{"gather_pull", 1.25}};
  plan.created = calibrated;
  d.plans["00000000deadbeef"] = plan;
  return d;
}

std::string temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("abfs_wisdom_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("wisdom survives a YAML round trip field by field") {
  abfs::Wisdom w;
  w.put(sample_entry());
  const std::string yaml = w.to_yaml();
  const abfs::Wisdom back = abfs::Wisdom::from_yaml(yaml);
  REQUIRE(back.devices().size() == 1);
  const abfs::DeviceWisdom& d = back.devices().front();
  const abfs::DeviceWisdom expected = sample_entry();
  CHECK(d.fingerprint.differences(expected.fingerprint).empty());
  CHECK(d.host_cpu == expected.host_cpu);
  CHECK(d.measurements == expected.measurements);
  REQUIRE(d.models.count("gather_pull") == 1);
  CHECK(d.models.at("gather_pull").features == expected.models.at("gather_pull").features);
  CHECK(d.models.at("gather_pull").coefficients == expected.models.at("gather_pull").coefficients);
  CHECK(d.models.at("gather_pull").samples == 4374);
  REQUIRE(d.plans.count("00000000deadbeef") == 1);
  CHECK(d.plans.at("00000000deadbeef").scale.at("gather_pull") == 1.25);
  CHECK(back.to_yaml() == yaml);  // deterministic
}

TEST_CASE("a fingerprint or strategy-version mismatch is reported with the fields that differ") {
  abfs::Wisdom w;
  w.put(sample_entry());
  abfs::DeviceFingerprint current = sample_entry().fingerprint;
  CHECK(w.find(current) != nullptr);
  current.driver_version = 13010;
  current.strategies["gather_pull"] = 3;
  std::vector<std::string> why;
  CHECK(w.find(current, &why) == nullptr);
  REQUIRE(why.size() == 2);
  CHECK(why[0] == "driver_version: wisdom 13000 vs device 13010");
  CHECK(why[1] == "strategy gather_pull: wisdom version 2 vs this build 3");
  current = sample_entry().fingerprint;
  current.name = "NVIDIA A100";
  CHECK(w.find(current, &why) == nullptr);
  REQUIRE(why.size() == 1);
  CHECK(why[0].find("no wisdom entry for device 'NVIDIA A100'") == 0);
}

TEST_CASE("corrupt wisdom is reported with its line, and nothing is kept") {
  const std::string good = [] {
    abfs::Wisdom w;
    w.put(sample_entry());
    return w.to_yaml();
  }();
  // Malformed YAML: an unclosed flow sequence on line 3.
  CHECK_THROWS_WITH_AS(abfs::Wisdom::from_yaml("abfs_wisdom: 1\ndevices:\n  - [1, 2\n", "bad.yaml"),
                       doctest::Contains("bad.yaml:"), abfs::WisdomError);
  // Schema: a coefficient that is not a number, on the line of that model.
  std::string bad = good;
  const auto at = bad.find("coefficients: [23.75");
  REQUIRE(at != std::string::npos);
  bad.replace(at, std::string("coefficients: [23.75").size(), "coefficients: [fast");
  const int line = 1 + static_cast<int>(std::count(bad.begin(), bad.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  CHECK_THROWS_WITH_AS(abfs::Wisdom::from_yaml(bad, "w.yaml"),
                       doctest::Contains(doctest::String(("w.yaml:" + std::to_string(line) + ": ").c_str())), abfs::WisdomError);
  // A missing field names the field.
  std::string missing = good;
  missing.replace(missing.find("host_threads"), 12, "host_thread");
  CHECK_THROWS_WITH_AS(abfs::Wisdom::from_yaml(missing, "w.yaml"), doctest::Contains("missing field 'host_threads'"),
                       abfs::WisdomError);
  // Another schema version is rejected.
  std::string version = good;
  version.replace(version.find("abfs_wisdom: 1"), 14, "abfs_wisdom: 7");
  CHECK_THROWS_WITH_AS(abfs::Wisdom::from_yaml(version, "w.yaml"), doctest::Contains("schema version 7"),
                       abfs::WisdomError);
  // Negative coefficients and mismatched lengths are not models.
  std::string negative = good;
  negative.replace(negative.find("23.75"), 5, "-23.75");
  CHECK_THROWS_AS(abfs::Wisdom::from_yaml(negative), abfs::WisdomError);
  CHECK_THROWS_WITH_AS(abfs::Wisdom::load("/nonexistent/abfs/wisdom.yaml"), doctest::Contains("cannot open"),
                       abfs::WisdomError);
}

TEST_CASE("save is atomic: a failed write leaves the previous file intact") {
  const std::string dir = temp_dir();
  const std::string path = dir + "/nested/wisdom.yaml";
  abfs::Wisdom first;
  first.put(sample_entry("2026-11-22T10:00:00Z"));
  first.save(path);  // creates the folder
  const std::string before = read_file(path);
  CHECK(abfs::Wisdom::load(path).devices().size() == 1);
  // An interrupted write: the temporary cannot be created (its name is taken by a folder), so
  // nothing replaces the file.
  std::filesystem::create_directories(path + ".tmp." + std::to_string(::getpid()));
  abfs::Wisdom second;
  second.put(sample_entry("2026-11-23T10:00:00Z"));
  CHECK_THROWS_AS(second.save(path), abfs::WisdomError);
  CHECK(read_file(path) == before);
  std::filesystem::remove_all(path + ".tmp." + std::to_string(::getpid()));
  second.save(path);
  CHECK(abfs::Wisdom::load(path).devices().front().calibrated == "2026-11-23T10:00:00Z");
  // No temporary file is left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/nested")) files += entry.is_regular_file();
  CHECK(files == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("merge keeps the newer calibration and the union of tuned plans") {
  abfs::Wisdom old_wisdom;
  old_wisdom.put(sample_entry("2026-11-01T00:00:00Z"));
  abfs::DeviceWisdom newer = sample_entry("2026-11-22T00:00:00Z");
  newer.measurements["kernel_launch_us"] = 4.5;
  newer.plans.clear();
  newer.plans["1111111111111111"] = sample_entry().plans.begin()->second;
  abfs::Wisdom update;
  update.put(newer);
  old_wisdom.merge(update);
  REQUIRE(old_wisdom.devices().size() == 1);
  const abfs::DeviceWisdom& merged = old_wisdom.devices().front();
  CHECK(merged.measurements.at("kernel_launch_us") == 4.5);
  CHECK(merged.plans.size() == 2);
  abfs::DeviceWisdom other = sample_entry();
  other.fingerprint.name = "NVIDIA H200";
  abfs::Wisdom more;
  more.put(other);
  old_wisdom.merge(more);
  CHECK(old_wisdom.devices().size() == 2);
}

TEST_CASE("the shipped profiles parse") {
  const abfs::Wisdom shipped = abfs::Wisdom::shipped();
  for (const auto& d : shipped.devices()) {
    CHECK(!d.fingerprint.name.empty());
    CHECK(!d.models.empty());
  }
}

TEST_CASE("graph fingerprints tell graphs apart") {
  const abfs::Graph a = abfs::generate_kronecker(8, 8, 1);
  const abfs::Graph b = abfs::generate_kronecker(8, 8, 2);
  CHECK(abfs::graph_fingerprint(a) == abfs::graph_fingerprint(abfs::generate_kronecker(8, 8, 1)));
  CHECK(abfs::graph_fingerprint(a) != abfs::graph_fingerprint(b));
  CHECK(abfs::graph_fingerprint(a).size() == 16);
}
