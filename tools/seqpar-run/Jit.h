//===- Jit.h - compile and call a program in process ------------*- C++ -*-===//
//
// A program's entry, compiled with the seqpar-lower-to-llvm pipeline and
// the MLIR ExecutionEngine (docs/runtime-and-run.md §4-5): collectives call
// the seqpar runtime, matmuls OpenBLAS, and the call takes and fills host
// buffers.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_JIT_H
#define SEQPAR_TOOLS_SEQPAR_RUN_JIT_H

#include "Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace seqpar::run {

struct JitOptions {
  /// LLVM's optimisation level, 0-3.
  unsigned optLevel = 0;
  /// Matmuls as OpenBLAS calls (else as loops).
  bool blas = true;
  /// Bounds checked at run time (seqpar-lower-to-llvm's runtime-checks).
  bool runtimeChecks = true;
  /// Where to write the optimised LLVM IR (empty: nowhere).
  std::string llvmIrFile;
  /// Queries and keys per attention tile (seqpar-lower-to-llvm's
  /// attention-q-tile, attention-kv-tile and attention-backward-tile; -1:
  /// the pipeline's default).
  int64_t attentionQTile = -1, attentionKvTile = -1, attentionBackwardTile = -1;
  /// Widest vectors, in bits, the vectorisers use ("prefer-vector-width");
  /// 0: LLVM's tuning for the host CPU, which keeps AVX-512 hosts at 256.
  unsigned preferVectorWidth = 0;
  /// Describe the generated functions to perf (jitdump records, for
  /// `perf inject --jit`).
  bool perfJitDump = false;
};

/// The widest vector registers of the host CPU, in bits: 512 with
/// AVX-512F, 256 with AVX, else 128.
unsigned getHostVectorWidth();

/// Loads OpenBLAS with the kernels for the host's instruction sets (unless
/// OPENBLAS_CORETYPE says otherwise) and gives it `blasThreads` threads,
/// prepares the native target and loads libmvec (glibc's vector math; a
/// warning where it is missing). With `libxsmm`, the program's small GEMMs
/// run on libxsmm, with `onednn` the others on oneDNN with `blasThreads`
/// threads (GemmDispatch.h); call it on the thread that runs the program.
/// Returns which GEMM libraries and kernels run, for the report.
std::string initializeJit(int blasThreads, bool libxsmm, bool onednn);

/// Compiles `module`, with `entry` and an added C-interface wrapper
/// @__seqpar_main(inputs..., outputs...) that writes the results into the
/// caller's buffers, to a JIT engine. `module` is lowered in place. Fails
/// the job when the lowering or the JIT fails.
std::unique_ptr<mlir::ExecutionEngine> compile(mlir::ModuleOp module,
                                               mlir::func::FuncOp entry,
                                               const JitOptions &options);

/// Runs @__seqpar_main on `inputs` (the program may write into them),
/// writing `outputs` (already sized). Fails the job when the call fails.
void invoke(mlir::ExecutionEngine &engine, std::vector<npy::Array> &inputs,
            std::vector<npy::Array> &outputs);

/// FLOPs of the contractions in `module`: seqpar-report's "matmul" FLOPs
/// (opFlops: 2 * product of the loop ranges, once per iteration of the
/// scf.for loops around), for the compute-region counter.
int64_t countFlops(mlir::ModuleOp module);

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_JIT_H
