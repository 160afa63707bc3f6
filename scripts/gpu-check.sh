#!/usr/bin/env bash
# GPU check of the runtime's NCCL backend, for the lent GPU machine (nvcc 13,
# CMake, ninja, PyTorch, NCCL only as the pip wheel nvidia-nccl-cu13; no
# LLVM/MLIR, MPI, apt or network). Builds runtime/ alone with CUDA and NCCL
# on and, where MPI is missing, without MPI (SEQPAR_RUNTIME_ENABLE_MPI=OFF:
# one process; the configuration ctest's runtime-serial-build checks on CPU
# machines), runs the NCCL backend's tests (ctest -R nccl: every collective
# and dtype at world size 1) and times each collective on device buffers at
# 64 MiB, 256 MiB and 1 GiB next to the same NCCL calls made directly
# (seqpar-runtime-bench --device: ms, algbw, busbw). Meant to finish within
# 5 minutes.
#
# Without a visible GPU it still configures and builds the CUDA parts, then
# says so and skips the runs (exit 0).
#
# Usage: scripts/gpu-check.sh            (from anywhere; builds in build-gpu/)
# Environment: BUILD_DIR (default build-gpu), NCCL_ROOT (default: the wheel's
#   directory, else /usr/local/cuda), JOBS (default nproc), PYTHON (python3),
#   SIZES_MIB (default 64,256,1024), CUDA_ARCHS (default 90: H100/H200),
#   WITH_MPI (ON/OFF; default ON if mpicc is on PATH, else OFF),
#   GTEST_SOURCE_DIR (a GoogleTest source tree built with the tests where
#   none is installed, as on the GPU machine; default: .gpu-carry/googletest
#   if present, else Debian's /usr/src/googletest).
# Exit: 0 ok (or no GPU), 1 a test or timing failed, 2 configure/build failed
#   or the NCCL backend was not enabled.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="${BUILD_DIR:-build-gpu}"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-$(nproc)}"
SIZES_MIB="${SIZES_MIB:-64,256,1024}"
if [[ -z "${WITH_MPI:-}" ]]; then
  WITH_MPI=OFF; command -v mpicc >/dev/null && WITH_MPI=ON
fi
CUDA_ARCHS="${CUDA_ARCHS:-90}"
if [[ -z "${GTEST_SOURCE_DIR:-}" ]]; then
  GTEST_SOURCE_DIR=""
  for d in "$ROOT/.gpu-carry/googletest" /usr/src/googletest; do
    [[ -f "$d/CMakeLists.txt" ]] && { GTEST_SOURCE_DIR="$d"; break; }
  done
fi
START=$(date +%s)
LOG_DIR="$BUILD_DIR/gpu-check-logs"; mkdir -p "$LOG_DIR"
step() { echo "== gpu-check [$(( $(date +%s) - START ))s] $*"; }

# nvcc may not be on PATH.
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

#--- NCCL: the pip wheel nvidia-nccl-cu13 (nvidia/nccl/{include,lib}), else CUDA.
if [[ -z "${NCCL_ROOT:-}" ]]; then
  # The wheel's layout differs between CUDA majors (nvidia/nccl/ for cu12,
  # possibly nvidia/cu13/ for cu13): take the folder above include/nccl.h
  # that also holds lib/libnccl.so*.
  NCCL_ROOT="$("$PYTHON" -c 'import glob, os, nvidia
for base in list(nvidia.__path__):
    for h in sorted(glob.glob(os.path.join(base, "**", "include", "nccl.h"), recursive=True)):
        root = os.path.dirname(os.path.dirname(h))
        if glob.glob(os.path.join(root, "lib", "libnccl.so*")):
            print(root); raise SystemExit' 2>/dev/null || true)"
  [[ -n "$NCCL_ROOT" && -d "$NCCL_ROOT" ]] || NCCL_ROOT=/usr/local/cuda
fi
step "NCCL_ROOT=$NCCL_ROOT"
ls "$NCCL_ROOT"/include/nccl.h "$NCCL_ROOT"/lib/libnccl.so* 2>/dev/null | sed 's/^/   /'
# The wheel ships only libnccl.so.2: the tests and the bench must find it.
export LD_LIBRARY_PATH="$NCCL_ROOT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

#--- configure + build runtime/ alone
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
step "configure: cmake -S runtime -B $BUILD_DIR (MPI $WITH_MPI)"
if ! cmake -S runtime -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
     -DSEQPAR_RUNTIME_ENABLE_MPI="$WITH_MPI" \
     -DSEQPAR_RUNTIME_ENABLE_NCCL=ON -DNCCL_ROOT="$NCCL_ROOT" \
     -DSEQPAR_GTEST_SOURCE_DIR="$GTEST_SOURCE_DIR" \
     -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS" >"$LOG_DIR/configure.log" 2>&1; then
  tail -30 "$LOG_DIR/configure.log"
  echo "gpu-check: FAILED: configure (log: $LOG_DIR/configure.log)"
  exit 2
fi
grep "seqpar runtime:" "$LOG_DIR/configure.log" | sed 's/^-- /   /'
if ! grep -q "NCCL backend ON" "$LOG_DIR/configure.log"; then
  echo "gpu-check: FAILED: the NCCL backend is OFF (no CUDA compiler or NCCL not found under NCCL_ROOT=$NCCL_ROOT)"
  exit 2
fi
step "build (-j$JOBS)"
if ! cmake --build "$BUILD_DIR" -j "$JOBS" >"$LOG_DIR/build.log" 2>&1; then
  tail -40 "$LOG_DIR/build.log"
  echo "gpu-check: FAILED: build (log: $LOG_DIR/build.log)"
  exit 2
fi
BENCH="$BUILD_DIR/bench/seqpar-runtime-bench"
echo "   built: $(cd "$BUILD_DIR" && ls libseqpar_runtime.so test/seqpar-runtime-nccl-tests bench/seqpar-runtime-bench 2>/dev/null | tr '\n' ' ')"

#--- GPU visible?
NGPU=0
if command -v nvidia-smi >/dev/null; then
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
if [[ "$NGPU" == 0 ]]; then
  NGPU=$("$PYTHON" -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)
fi
if [[ "$NGPU" == 0 ]]; then
  step "no GPU visible (nvidia-smi / torch.cuda): configure and build of the CUDA/NCCL parts OK; NCCL tests and device timings SKIPPED"
  exit 0
fi
step "$NGPU GPU(s) visible"
nvidia-smi -L 2>/dev/null | sed 's/^/   /'

RC=0
#--- NCCL backend tests (world size 1)
step "ctest -R nccl"
if [[ ! -f "$BUILD_DIR/CTestTestfile.cmake" ]] || \
   ! ctest --test-dir "$BUILD_DIR" -N -R nccl 2>/dev/null | grep -q "Total Tests: [1-9]"; then
  echo "   no NCCL tests were built (GoogleTest not found at configure?)"
  RC=1
elif ! ctest --test-dir "$BUILD_DIR" -R nccl --output-on-failure --timeout 120; then
  RC=1
fi

#--- device-buffer timings (world size 1), runtime vs NCCL called directly
step "device-buffer timings: $BENCH --device --sizes-mib=$SIZES_MIB"
if ! timeout 150 "$BENCH" --device --sizes-mib="$SIZES_MIB"; then
  echo "   device timing FAILED"
  RC=1
fi
step "done (exit $RC)"
exit $RC
