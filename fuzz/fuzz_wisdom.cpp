// libFuzzer target: the wisdom reader (Wisdom::from_yaml). Every input must either parse or
// raise a WisdomError naming its origin; a parsed document must survive a round trip through
// to_yaml. Anything else (a crash, a sanitizer report, another exception) is a finding.

#include <abfs/error.hpp>
#include <abfs/wisdom.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const abfs::Wisdom wisdom = abfs::Wisdom::from_yaml(text, "fuzz.yaml");
    const abfs::Wisdom again = abfs::Wisdom::from_yaml(wisdom.to_yaml(), "round-trip.yaml");
    if (again.to_yaml() != wisdom.to_yaml()) {
      std::fprintf(stderr, "abfs fuzz finding: to_yaml does not round-trip\n");
      std::abort();
    }
  } catch (const abfs::WisdomError& e) {
    if (std::string(e.what()).find("fuzz.yaml") == std::string::npos) {
      std::fprintf(stderr, "abfs fuzz finding: WisdomError does not name the input: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
