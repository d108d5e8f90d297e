#!/usr/bin/env bash
# Host-side AddressSanitizer + UndefinedBehaviorSanitizer build of the CPU tests (issue 5), in
# build-asan/, then runs them. Run after scripts/setup.sh (same packages). Device code is built
# as usual; the sanitizers instrument the host code (nvcc passes the flags to its host compiler).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
flags="-fsanitize=address -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DABFS_BUILD_BENCHMARKS=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CUDA_FLAGS="$(printf -- '-Xcompiler=%s ' $flags)" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  ${CMAKE_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CMAKE_CUDA_ARCHITECTURES} > /dev/null
cmake --build build-asan --target abfs_tests abfs_cli
# protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The real graphs (../shared/data) are left to the plain build: under the sanitizers their
# host-executor runs take minutes. Set ABFS_DATA_DIR to include them.
ABFS_DATA_DIR=${ABFS_DATA_DIR:-/nonexistent} build-asan/tests/abfs_tests
tests/cli_bad_input.sh build-asan/abfs tests/data/bad
