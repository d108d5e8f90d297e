// GPU test runner: exits with the ctest skip code when no CUDA device exists, so a machine
// without a GPU reports these tests as skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <abfs/plan.hpp>

#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
  constexpr int kSkip = 77;
  if (abfs::cuda_device_count() == 0) {
    std::printf("skipped: no CUDA device\n");
    return kSkip;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
