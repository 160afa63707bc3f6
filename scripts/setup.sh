#!/usr/bin/env bash
# Installs the Debian packages seqpar needs (LLVM/MLIR 22, lit, FileCheck,
# ninja, CMake, OpenMPI, GoogleTest, OpenBLAS, libxsmm, oneDNN) and builds the
# project into ./build.
# Usage: scripts/setup.sh            (idempotent; re-run after pulling)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ python3 libmlir-22-dev mlir-22-tools llvm-22-dev
          llvm-22-tools openmpi-bin libopenmpi-dev libgtest-dev libopenblas-dev
          libxsmm-dev libdnnl-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

cmake -G Ninja -S . -B build \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built build/bin/seqpar-opt"
