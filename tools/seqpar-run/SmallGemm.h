//===- SmallGemm.h - libxsmm kernels for the JIT's GEMMs --------*- C++ -*-===//
//
// The JIT's cblas_sgemm: row-major f32 GEMMs whose right-hand operand is
// small run on libxsmm's generated kernels, every other one on OpenBLAS
// (docs/runtime-and-run.md, "Small GEMMs").
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_TOOLS_SEQPAR_RUN_SMALLGEMM_H
#define SEQPAR_TOOLS_SEQPAR_RUN_SMALLGEMM_H

#include <cstdint>

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
/// docs/runtime-and-run.md, "Small GEMMs"): attention's tiles (128 x 64 x
/// 512: 207 against 132 GFLOP/s).
bool isSmallGemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, float beta);

/// Makes `smallGemmOrBlas` call `fallback`, and with `useLibxsmm` send the
/// small GEMMs to libxsmm instead. Returns whether libxsmm is used: false
/// without `useLibxsmm` or where libxsmm generates no kernels for the host
/// (no AVX2 or AVX-512).
bool initializeSmallGemms(SgemmFunction fallback, bool useLibxsmm);

/// cblas_sgemm for the JIT: libxsmm when it is used, `isSmallGemm` holds
/// and libxsmm dispatches a kernel, else the fallback given to
/// `initializeSmallGemms`. Same arguments and results as cblas_sgemm;
/// libxsmm adds the products in its own order (the results move in the last
/// bits).
void smallGemmOrBlas(int order, int transA, int transB, int m, int n, int k,
                     float alpha, const float *a, int lda, const float *b,
                     int ldb, float beta, float *c, int ldc);

/// Calls of `smallGemmOrBlas` since the last reset, by the library that ran
/// them.
struct GemmCalls {
  int64_t libxsmm = 0;
  int64_t fallback = 0;
};
GemmCalls getGemmCalls();
void resetGemmCalls();

} // namespace seqpar::run

#endif // SEQPAR_TOOLS_SEQPAR_RUN_SMALLGEMM_H
