//===- GemmDispatch.cpp - the library each JIT GEMM runs on ---------------===//
//
// OpenBLAS packs both operands of every call into its own layout. For the
// GEMMs of an attention tile (M = 128 queries, a head dim of 64 on one side)
// packing costs about a third of the multiply, and each call packs afresh;
// libxsmm generates a kernel per shape that reads the operands where they
// are: 190-207 GFLOP/s on these shapes against OpenBLAS's 120-140, while
// B stays within L2. On the linears' shapes oneDNN's sgemm runs at 175-195
// GFLOP/s against OpenBLAS's 155-185 on one core (docs/runtime-and-run.md,
// "GEMM libraries").
//
//===----------------------------------------------------------------------===//

#include "GemmDispatch.h"

#include <dnnl.h>
#include <libxsmm.h>
#include <omp.h>

#include <atomic>

namespace seqpar::run {

namespace {
// CBLAS's enum values.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112, kConjTrans = 113;
// B's bounds for one libxsmm kernel over the caller's B (GemmDispatch.h).
constexpr int kMaxN = 512;
constexpr int64_t kMaxBElements = int64_t(1) << 18;

SgemmFunction fallbackSgemm = nullptr;
GemmLibraries enabled;
std::atomic<int64_t> libxsmmCalls{0}, onednnCalls{0}, fallbackCalls{0};

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

bool isOnednnGemm(int order, int transA, int transB, int m, int n, int k) {
  auto known = [](int trans) {
    return trans == kNoTrans || trans == kTrans || trans == kConjTrans;
  };
  return order == kRowMajor && known(transA) && known(transB) && m > 0 &&
         n > 0 && k > 0;
}

GemmLibraries initializeGemms(SgemmFunction fallback, bool useLibxsmm,
                              bool useOnednn, int threads) {
  fallbackSgemm = fallback;
  enabled = GemmLibraries();
  if (useLibxsmm) {
    libxsmm_init();
    // libxsmm's target is the best instruction set it found on the host;
    // below AVX2 it generates no GEMM kernels worth calling.
    enabled.libxsmm = libxsmm_get_target_archid() >= LIBXSMM_X86_AVX2;
  }
  if (useOnednn && threads >= 1) {
    // Debian's oneDNN runs on OpenMP and takes as many threads as the
    // calling thread's OpenMP setting allows (all cores by default).
    omp_set_num_threads(threads);
    enabled.onednn = true;
  }
  return enabled;
}

std::string getOnednnVersion() {
  const dnnl_version_t *version = dnnl_version();
  return "oneDNN " + std::to_string(version->major) + "." +
         std::to_string(version->minor) + "." + std::to_string(version->patch);
}

void dispatchSgemm(int order, int transA, int transB, int m, int n, int k,
                   float alpha, const float *a, int lda, const float *b,
                   int ldb, float beta, float *c, int ldc) {
  if (enabled.libxsmm &&
      isSmallGemm(order, transA, transB, m, n, k, alpha, beta)) {
    if (libxsmm_smmfunction kernel =
            getKernel(transA == kTrans, m, n, k, lda, ldb, ldc, beta)) {
      kernel(b, a, c);
      libxsmmCalls.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  if (enabled.onednn && isOnednnGemm(order, transA, transB, m, n, k) &&
      dnnl_sgemm(transA == kNoTrans ? 'N' : 'T', transB == kNoTrans ? 'N' : 'T',
                 m, n, k, alpha, a, lda, b, ldb, beta, c,
                 ldc) == dnnl_success) {
    onednnCalls.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  fallbackCalls.fetch_add(1, std::memory_order_relaxed);
  fallbackSgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c,
                ldc);
}

GemmCalls getGemmCalls() {
  return {libxsmmCalls.load(std::memory_order_relaxed),
          onednnCalls.load(std::memory_order_relaxed),
          fallbackCalls.load(std::memory_order_relaxed)};
}

void resetGemmCalls() {
  libxsmmCalls.store(0, std::memory_order_relaxed);
  onednnCalls.store(0, std::memory_order_relaxed);
  fallbackCalls.store(0, std::memory_order_relaxed);
}

} // namespace seqpar::run
