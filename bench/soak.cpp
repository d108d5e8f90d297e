// Soak test (issue 5): many BFSs from random sources on one plan, with device and host memory
// sampled before and after and every K-th result validated (Graph500 validator and the
// reference BFS's distances). Exit 0 when every validated result is correct and memory stayed
// flat (device free bytes equal, host resident set within 1 MiB plus the result vectors' slack).
// Usage: abfs_soak GRAPH [RUNS=10000] [VALIDATE_EVERY=100]; prints one summary line. Needs a
// CUDA device (exit 77, skipped, without one).

#include <abfs/error.hpp>
#include <abfs/plan.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

long resident_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    long value = 0;
    if (key == "VmRSS:" && in >> value) return value;
    std::getline(in, key);
  }
  return -1;
}

std::size_t device_free_bytes() {
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) throw abfs::CudaError("cudaMemGetInfo failed", 0);
  return free_bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [RUNS=10000] [VALIDATE_EVERY=100]\n", argv[0]);
    return 2;
  }
  try {
    if (abfs::cuda_device_count() == 0) {
      std::printf("soak: skipped (no CUDA device)\n");
      return 77;
    }
    const abfs::Graph g = abfs::open_graph(argv[1]);
    const int runs = argc > 2 ? std::stoi(argv[2]) : 10000;
    const int every = argc > 3 ? std::stoi(argv[3]) : 100;
    abfs::Plan plan = abfs::plan_bfs(g);
    const std::vector<abfs::VertexId> sources = abfs::random_sources(g, runs, 2026);
    abfs::BfsResult result;
    // Warm-up: the plan's first touches, and one validation, whose freed buffers the allocator
    // keeps for the next ones (measured before this: kron:18 RSS +2.7 MiB at the first).
    plan.execute(sources.front(), result);
    if (!abfs::validate_bfs(g, sources.front(), result.distances, result.parents).ok ||
        abfs::reference_bfs(g, sources.front()).distances != result.distances) {
      std::fprintf(stderr, "soak: the warm-up BFS from %u failed validation\n", sources.front());
      return 1;
    }
    const std::size_t device_before = device_free_bytes();
    const long host_before = resident_kib();
    int validated = 0, failed = 0;
    double total_ms = 0.0;
    for (int i = 0; i < runs; ++i) {
      plan.execute(sources[static_cast<std::size_t>(i)], result);
      total_ms += result.total_ms;
      if (i % every == 0) {
        ++validated;
        const abfs::VertexId s = sources[static_cast<std::size_t>(i)];
        const abfs::ValidationResult v = abfs::validate_bfs(g, s, result.distances, result.parents);
        if (!v.ok || abfs::reference_bfs(g, s).distances != result.distances) {
          ++failed;
          std::fprintf(stderr, "soak: run %d from %u failed: %s\n", i, s, v.ok ? "distances differ" : v.problem.c_str());
        }
      }
    }
    const std::size_t device_after = device_free_bytes();
    const long host_after = resident_kib();
    const bool device_flat = device_after == device_before;
    const bool host_flat = host_after - host_before <= 1024;
    std::printf("soak %s: %d BFS, %d validated, %d failed, mean %.3f ms; device free %zu -> %zu bytes (%s); "
                "host RSS %ld -> %ld KiB (%s)\n",
                g.name().c_str(), runs, validated, failed, total_ms / runs, device_before, device_after,
                device_flat ? "flat" : "CHANGED", host_before, host_after, host_flat ? "flat" : "GREW");
    return failed == 0 && device_flat && host_flat ? 0 : 1;
  } catch (const abfs::Error& e) {
    std::fprintf(stderr, "soak: error: %s\n", e.what());
    return 1;
  }
}
