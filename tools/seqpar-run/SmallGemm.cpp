//===- SmallGemm.cpp - libxsmm kernels for the JIT's GEMMs
//-----------------===//
//
// OpenBLAS packs both operands of every call into its own layout. For the
// GEMMs of an attention tile (M = 128 queries, a head dim of 64 on one side)
// packing costs about a third of the multiply, and each call packs afresh;
// libxsmm generates a kernel per shape that reads the operands where they
// are: 190-207 GFLOP/s on these shapes against OpenBLAS's 120-140, while
// B stays within L2 (docs/runtime-and-run.md, "Small GEMMs").
//
//===----------------------------------------------------------------------===//

#include "SmallGemm.h"

#include <libxsmm.h>

#include <atomic>

namespace seqpar::run {

namespace {
// CBLAS's enum values.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
// B's bounds for one libxsmm kernel over the caller's B (SmallGemm.h).
constexpr int kMaxN = 512;
constexpr int64_t kMaxBElements = int64_t(1) << 18;

SgemmFunction fallbackSgemm = nullptr;
bool libxsmmEnabled = false;
std::atomic<int64_t> libxsmmCalls{0}, fallbackCalls{0};

/// libxsmm's kernel for row-major C[m x n] (ldc) = op(A) B (+ C when
/// beta = 1), B k x n (ldb): column-major C^T = B^T op(A)^T, so libxsmm's
/// (m, n, k) are (n, m, k), its first operand B and its second A,
/// transposed again when op(A) = A^T. libxsmm caches kernels per
/// descriptor: dispatching one again is a hash look-up. Null where libxsmm
/// has none.
libxsmm_smmfunction getKernel(bool transA, int m, int n, int k, int lda,
                              int ldb, int ldc, float beta) {
  int flags = transA ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  float alpha = 1.0f;
  libxsmm_blasint xm = n, xn = m, xk = k, xlda = ldb, xldb = lda, xldc = ldc;
  return libxsmm_smmdispatch(xm, xn, xk, &xlda, &xldb, &xldc, &alpha, &beta,
                             &flags, /*prefetch=*/nullptr);
}

} // namespace

bool isSmallGemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, float beta) {
  return order == kRowMajor && (transA == kNoTrans || transA == kTrans) &&
         transB == kNoTrans && alpha == 1.0f &&
         (beta == 0.0f || beta == 1.0f) && m > 0 && n > 0 && k > 0 &&
         n <= kMaxN && int64_t(n) * k <= kMaxBElements;
}

bool initializeSmallGemms(SgemmFunction fallback, bool useLibxsmm) {
  fallbackSgemm = fallback;
  libxsmmEnabled = false;
  if (!useLibxsmm)
    return false;
  libxsmm_init();
  // libxsmm's target is the best instruction set it found on the host;
  // below AVX2 it generates no GEMM kernels worth calling.
  libxsmmEnabled = libxsmm_get_target_archid() >= LIBXSMM_X86_AVX2;
  return libxsmmEnabled;
}

void smallGemmOrBlas(int order, int transA, int transB, int m, int n, int k,
                     float alpha, const float *a, int lda, const float *b,
                     int ldb, float beta, float *c, int ldc) {
  if (libxsmmEnabled &&
      isSmallGemm(order, transA, transB, m, n, k, alpha, beta)) {
    if (libxsmm_smmfunction kernel =
            getKernel(transA == kTrans, m, n, k, lda, ldb, ldc, beta)) {
      kernel(b, a, c);
      libxsmmCalls.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  fallbackCalls.fetch_add(1, std::memory_order_relaxed);
  fallbackSgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c,
                ldc);
}

GemmCalls getGemmCalls() {
  return {libxsmmCalls.load(std::memory_order_relaxed),
          fallbackCalls.load(std::memory_order_relaxed)};
}

void resetGemmCalls() {
  libxsmmCalls.store(0, std::memory_order_relaxed);
  fallbackCalls.store(0, std::memory_order_relaxed);
}

} // namespace seqpar::run
