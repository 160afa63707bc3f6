#!/usr/bin/env bash
# Builds runtime/ without MPI (SEQPAR_RUNTIME_ENABLE_MPI=OFF: one process,
# NCCL when CUDA and NCCL are found) into its own build directory and runs
# its tests: the configuration scripts/gpu-check.sh builds on the GPU machine,
# which has CUDA and NCCL but no MPI. Here (no GPU) the NCCL parts are only
# compiled and linked; their tests skip. ctest runs this as
# runtime-serial-build (test/CMakeLists.txt).
#
# Usage: scripts/test-runtime-serial.sh [BUILD_DIR]   (default build/runtime-serial)
# Environment: JOBS (default 2), NCCL_ROOT (default: CMake's search).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build/runtime-serial}"
JOBS="${JOBS:-2}"
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
ARGS=(-S "$ROOT/runtime" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
      -DSEQPAR_RUNTIME_ENABLE_MPI=OFF -DSEQPAR_RUNTIME_ENABLE_NCCL=ON)
command -v ninja >/dev/null && ARGS+=(-G Ninja)
command -v ccache >/dev/null && ARGS+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                                       -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
[[ -n "${NCCL_ROOT:-}" ]] && ARGS+=(-DNCCL_ROOT="$NCCL_ROOT")
cmake "${ARGS[@]}" > "$BUILD_DIR.configure.log" 2>&1 || {
  cat "$BUILD_DIR.configure.log"; echo "test-runtime-serial: configure FAILED"; exit 1; }
grep "seqpar runtime:" "$BUILD_DIR.configure.log"
grep -q "MPI OFF" "$BUILD_DIR.configure.log" || {
  echo "test-runtime-serial: the runtime was configured with MPI"; exit 1; }
cmake --build "$BUILD_DIR" -j "$JOBS"
# Nothing of MPI may be linked in.
if ldd "$BUILD_DIR/libseqpar_runtime.so" | grep -i "libmpi"; then
  echo "test-runtime-serial: libseqpar_runtime.so links MPI"; exit 1
fi
ctest --test-dir "$BUILD_DIR" --output-on-failure
