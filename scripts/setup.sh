#!/usr/bin/env bash
# Installs abfs's build dependencies from Debian's packages and builds it into build/.
# For a fresh Debian 12 machine with the CUDA toolkit in /usr/local/cuda; run as root (or with
# sudo available). Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build g++ libyaml-cpp-dev doctest-dev libbenchmark-dev libcli11-dev zlib1g-dev nlohmann-json3-dev libeigen3-dev)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || { echo "setup: nvcc not found: install the CUDA toolkit (/usr/local/cuda)" >&2; exit 1; }
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CMAKE_CUDA_ARCHITECTURES}
cmake --build build
