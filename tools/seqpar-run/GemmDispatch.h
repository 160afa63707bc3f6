//===- GemmDispatch.h - the library each JIT GEMM runs on -------*- C++ -*-===//
//
// The JIT's cblas_sgemm: row-major f32 GEMMs whose right-hand operand is
// small run on libxsmm's generated kernels, the others on oneDNN's sgemm,
// and what neither takes on OpenBLAS (docs/runtime-and-run.md, "GEMM
// libraries").
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_GEMMDISPATCH_H
#define SEQPAR_TOOLS_SEQPAR_RUN_GEMMDISPATCH_H

#include <cstdint>
#include <string>

namespace seqpar::run {

/// cblas_sgemm's C signature (CBLAS enums as int, 32-bit OpenBLAS
/// integers): C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B)
/// k x n, C m x n, leading dimensions in elements.
using SgemmFunction = void (*)(int order, int transA, int transB, int m, int n,
                               int k, float alpha, const float *a, int lda,
                               const float *b, int ldb, float beta, float *c,
                               int ldc);

/// Whether a GEMM of this form runs as one libxsmm kernel over the
/// caller's operands: row-major, A as is or transposed, B as is (libxsmm
/// 1.17 generates no kernel that reads the column-major A transposed, which
/// row-major B^T would need), alpha = 1, beta = 0 or 1, and B [k x n]
/// small enough to stay in L2 while libxsmm streams A without packing:
/// n <= 512 and k * n <= 262144 elements (1 MiB of f32). The bounds are
/// where libxsmm beat OpenBLAS on this machine's AVX-512 core (the table in
/// docs/runtime-and-run.md, "GEMM libraries"): attention's tiles (128 x 64
/// x 512: 207 against 132 GFLOP/s).
bool isSmallGemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, float beta);

/// Whether oneDNN's sgemm takes a GEMM of this form: row-major (oneDNN's
/// only order), each operand as is or transposed, m, n and k positive.
bool isOnednnGemm(int order, int transA, int transB, int m, int n, int k);

/// The libraries `dispatchSgemm` uses besides the fallback.
struct GemmLibraries {
  bool libxsmm = false;
  bool onednn = false;
};

/// Makes `dispatchSgemm` call `fallback` (OpenBLAS's cblas_sgemm in
/// seqpar-run), with `useLibxsmm` send the small GEMMs to libxsmm, and with
/// `useOnednn` send the others to oneDNN, which then runs each call on
/// `threads` OpenMP threads (>= 1) of the calling thread: call this on
/// the thread that will call `dispatchSgemm`. Returns the libraries used:
/// libxsmm not where it generates no kernels for the host (no AVX2 or
/// AVX-512).
GemmLibraries initializeGemms(SgemmFunction fallback, bool useLibxsmm,
                              bool useOnednn, int threads);

/// "oneDNN 2.6.3": the oneDNN library loaded.
std::string getOnednnVersion();

/// cblas_sgemm for the JIT: libxsmm when it is used, `isSmallGemm` holds
/// and libxsmm dispatches a kernel; else oneDNN when it is used,
/// `isOnednnGemm` holds and its sgemm succeeds (it checks its arguments
/// before it writes C); else the fallback given to `initializeGemms`. Same
/// arguments and results as cblas_sgemm; libxsmm and oneDNN add the
/// products in their own order (the results move in the last bits).
void dispatchSgemm(int order, int transA, int transB, int m, int n, int k,
                   float alpha, const float *a, int lda, const float *b,
                   int ldb, float beta, float *c, int ldc);

/// Calls of `dispatchSgemm` since the last reset, by the library that ran
/// them.
struct GemmCalls {
  int64_t libxsmm = 0;
  int64_t onednn = 0;
  int64_t fallback = 0;
};
GemmCalls getGemmCalls();
void resetGemmCalls();

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_GEMMDISPATCH_H
