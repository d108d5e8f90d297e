// Wisdom: YAML round trip, fingerprint and version mismatch, corrupt files reported by line,
// atomic writes, merge.

#include <abfs/error.hpp>
#include <abfs/wisdom.hpp>

#include "planner/cost_model.hpp"
#include "strategies/strategy.hpp"

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
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

/// A wisdom document of ~250 KB: 1,000 tuned plans (yaml-cpp looks map keys up linearly, so n
/// plans cost O(n^2); this keeps a save near 0.1 s).
constexpr std::size_t kBigPlans = 1000;
abfs::Wisdom big_wisdom(const std::string& calibrated) {
  abfs::DeviceWisdom d = sample_entry(calibrated);
  const abfs::TunedPlan plan = d.plans.begin()->second;
  for (std::size_t i = 0; i < kBigPlans; ++i) d.plans["plan" + std::to_string(i)] = plan;
  abfs::Wisdom w;
  w.put(d);
  return w;
}

/// Runs body in a child process; returns its pid.
template <class Body>
pid_t spawn(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    try {
      body();
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  return pid;
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

TEST_CASE("the shipped profiles are for this build: its strategy versions and each model's features") {
  // A strategy whose features change bumps its version; a shipped profile that was not
  // re-calibrated or mended with it would be rejected on its GPU (or, mended by hand, disagree
  // with the features the strategy reports).
  std::map<std::string, std::vector<std::string>> features;
  std::map<std::string, int> versions;
  auto names = [](const abfs::strategies::CostFeatures& f) {
    return std::vector<std::string>(f.names.begin(), f.names.begin() + f.size);
  };
  for (const auto& entry : abfs::strategies::registry()) {
    versions[entry.name] = entry.version;
    features[entry.name] = names(entry.create()->cost_features(abfs::strategies::FrontierState{}, abfs::GraphStats{}));
  }
  features[abfs::detail::kToDevice] = names(abfs::detail::to_device_features(1, false));
  features[abfs::detail::kToHost] = names(abfs::detail::to_host_features(1, 1));
  features[abfs::detail::kToBitmap] = names(abfs::detail::to_bitmap_features(1, 1));
  const abfs::Wisdom shipped = abfs::Wisdom::shipped();
  REQUIRE(!shipped.devices().empty());
  for (const auto& d : shipped.devices()) {
    CHECK(d.fingerprint.strategies == versions);
    for (const auto& [name, model] : d.models) {
      INFO(d.fingerprint.name << " model " << name);
      REQUIRE(features.count(name) == 1);
      CHECK(model.features == features.at(name));
      CHECK(model.coefficients.size() == model.features.size());
    }
  }
}

TEST_CASE("graph fingerprints tell graphs apart") {
  const abfs::Graph a = abfs::generate_kronecker(8, 8, 1);
  const abfs::Graph b = abfs::generate_kronecker(8, 8, 2);
  CHECK(abfs::graph_fingerprint(a) == abfs::graph_fingerprint(abfs::generate_kronecker(8, 8, 1)));
  CHECK(abfs::graph_fingerprint(a) != abfs::graph_fingerprint(b));
  CHECK(abfs::graph_fingerprint(a).size() == 16);
}

TEST_CASE("every wisdom file of the malformed-input corpus is a WisdomError naming the file and line") {
  const std::pair<const char*, const char*> expectations[] = {
      {"wisdom_empty.yaml", ":1: not a wisdom document"},
      {"wisdom_not_yaml.yaml", ":3: malformed YAML"},
      {"wisdom_wrong_version.yaml", ":1: wisdom schema version 99"},
      {"wisdom_missing_fingerprint.yaml", ":3: missing field 'fingerprint'"},
      {"wisdom_bad_number.yaml", ":17: kernel_launch_us: 'fast' is not a valid value"},
      {"wisdom_coefficient_count.yaml", ":20: model has 2 features but 1 coefficients"},
      {"wisdom_fuzz_invalid_utf8.yaml", ":6: field 'name': not printable UTF-8 text"},
  };
  std::size_t corpus_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ABFS_TEST_DATA) + "/bad")) {
    corpus_files += entry.path().extension() == ".yaml";
  }
  CHECK(corpus_files == std::size(expectations));  // every wisdom file has an expectation
  for (const auto& [file, problem] : expectations) {
    const std::string path = std::string(ABFS_TEST_DATA) + "/bad/" + file;
    CAPTURE(path);
    try {
      (void)abfs::Wisdom::load(path);
      FAIL("no error for " << path);
    } catch (const abfs::WisdomError& e) {
      CHECK_MESSAGE(std::string(e.what()).rfind(path + problem, 0) == 0, e.what());
    }
  }
}

TEST_CASE("a writer killed during save leaves the previous wisdom file intact") {
  const std::string dir = temp_dir();
  const std::string path = dir + "/wisdom.yaml";
  const abfs::Wisdom old_wisdom = big_wisdom("2026-11-22T10:00:00Z");
  const abfs::Wisdom new_wisdom = big_wisdom("2026-11-23T10:00:00Z");
  old_wisdom.save(path);
  const std::string before = read_file(path);
  auto check_whole = [&](const std::string& expected_calibrated) {
    const abfs::Wisdom now = abfs::Wisdom::load(path);
    REQUIRE(now.devices().size() == 1);
    CHECK(now.devices().front().plans.size() == kBigPlans + 1);
    if (!expected_calibrated.empty()) CHECK(now.devices().front().calibrated == expected_calibrated);
  };

  // Killed in the middle of writing, deterministically: the file-size limit stops the child's
  // write after 4 KiB with SIGXFSZ, whose default action terminates the process.
  const pid_t pid = spawn([&] {
    const rlimit limit{4096, 4096};
    setrlimit(RLIMIT_FSIZE, &limit);
    new_wisdom.save(path);
  });
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGXFSZ);
  const std::string temporary = path + ".tmp." + std::to_string(pid);
  CHECK(std::filesystem::file_size(temporary) == 4096);  // the partial write, under its own name
  CHECK(read_file(path) == before);
  check_whole("2026-11-22T10:00:00Z");
  std::filesystem::remove(temporary);

  // SIGKILL at delays spread over one save: whenever it lands, the file is one whole document.
  const auto start = std::chrono::steady_clock::now();
  new_wisdom.save(path);
  const auto save_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  for (int attempt = 0; attempt < 8; ++attempt) {
    old_wisdom.save(path);
    const pid_t writer = spawn([&] { new_wisdom.save(path); });
    REQUIRE(writer > 0);
    usleep(static_cast<useconds_t>(save_us.count() * attempt / 6));
    kill(writer, SIGKILL);
    waitpid(writer, &status, 0);
    std::filesystem::remove(path + ".tmp." + std::to_string(writer));
    check_whole("");
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("concurrent writers and readers never see a partial wisdom file") {
  const std::string dir = temp_dir();
  const std::string path = dir + "/wisdom.yaml";
  big_wisdom("2026-11-22T00:00:00Z").save(path);
  std::vector<pid_t> writers;
  for (int w = 0; w < 4; ++w) {
    writers.push_back(spawn([&, w] {
      const abfs::Wisdom mine = big_wisdom("2026-11-22T0" + std::to_string(w + 1) + ":00:00Z");
      for (int k = 0; k < 5; ++k) mine.save(path);
    }));
  }
  int reads = 0;
  bool writers_running = true;
  while (writers_running) {
    const abfs::Wisdom now = abfs::Wisdom::load(path);  // throws on a partial document
    REQUIRE(now.devices().size() == 1);
    CHECK(now.devices().front().plans.size() == kBigPlans + 1);
    ++reads;
    writers_running = false;
    for (const pid_t pid : writers) writers_running |= waitpid(pid, nullptr, WNOHANG) == 0;
  }
  for (const pid_t pid : writers) {
    int status = 0;
    waitpid(pid, &status, 0);
  }
  CHECK(reads > 0);
  const std::string calibrated = abfs::Wisdom::load(path).devices().front().calibrated;
  CHECK(calibrated.rfind("2026-11-22T0", 0) == 0);
  std::filesystem::remove_all(dir);
}
