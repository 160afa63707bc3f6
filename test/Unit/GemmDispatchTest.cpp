//===- GemmDispatchTest.cpp - seqpar-run's cblas_sgemm against a reference ===//
//
// dispatchSgemm (tools/seqpar-run/GemmDispatch.h) sends small GEMMs to
// libxsmm, the others to oneDNN, and what neither takes to its fallback;
// here the fallback is a plain loop that counts its calls, so each test
// checks both the values and which library ran them.
//
//===----------------------------------------------------------------------===//

#include "GemmDispatch.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

using namespace seqpar::run;

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112,
              kConjTrans = 113;

/// C = alpha * op(A) op(B) + beta * C, in double.
void referenceSgemm(int order, int transA, int transB, int m, int n, int k,
                    float alpha, const float *a, int lda, const float *b,
                    int ldb, float beta, float *c, int ldc) {
  if (order == kColMajor) // C^T = op(B)^T op(A)^T, row-major
    return referenceSgemm(kRowMajor, transB, transA, n, m, k, alpha, b, ldb, a,
                          lda, beta, c, ldc);
  ASSERT_EQ(order, kRowMajor);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p) {
        float x = transA != kNoTrans ? a[p * lda + i] : a[i * lda + p];
        float y = transB != kNoTrans ? b[j * ldb + p] : b[p * ldb + j];
        sum += double(x) * y;
      }
      double previous = beta == 0.0f ? 0.0 : beta * double(c[i * ldc + j]);
      c[i * ldc + j] = static_cast<float>(alpha * sum + previous);
    }
}

int fallbackCallsSeen = 0;
void countingReference(int order, int transA, int transB, int m, int n, int k,
                       float alpha, const float *a, int lda, const float *b,
                       int ldb, float beta, float *c, int ldc) {
  ++fallbackCallsSeen;
  referenceSgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c,
                 ldc);
}

struct Case {
  int transA, transB, m, n, k;
  int pad; // extra elements per row of A and B (ld > its width; < 0: less)
  float alpha, beta;
  int order = kRowMajor;
};

enum class Route { Libxsmm, Onednn, Fallback };

const char *name(Route route) {
  return route == Route::Libxsmm  ? "libxsmm"
         : route == Route::Onednn ? "oneDNN"
                                  : "the fallback";
}

/// Runs `c` through dispatchSgemm and the reference; returns the largest
/// difference relative to the largest |C| and the route taken.
double run(const Case &c, Route &route) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  int aRows = c.transA != kNoTrans ? c.k : c.m,
      aCols = c.transA != kNoTrans ? c.m : c.k;
  int bRows = c.transB != kNoTrans ? c.n : c.k,
      bCols = c.transB != kNoTrans ? c.k : c.n;
  int lda = aCols + c.pad, ldb = bCols + c.pad, ldc = c.n + 3;
  // Room for every row at its full width, however short the stride.
  std::vector<float> a(size_t(aRows) * (aCols + std::max(c.pad, 0))),
      b(size_t(bRows) * (bCols + std::max(c.pad, 0))), out(size_t(c.m) * ldc);
  for (float &x : a)
    x = uniform(rng);
  for (float &x : b)
    x = uniform(rng);
  for (float &x : out)
    x = uniform(rng); // beta = 0 must ignore it, beta != 0 scale it
  std::vector<float> expected = out;
  referenceSgemm(c.order, c.transA, c.transB, c.m, c.n, c.k, c.alpha, a.data(),
                 lda, b.data(), ldb, c.beta, expected.data(), ldc);
  resetGemmCalls();
  fallbackCallsSeen = 0;
  dispatchSgemm(c.order, c.transA, c.transB, c.m, c.n, c.k, c.alpha, a.data(),
                lda, b.data(), ldb, c.beta, out.data(), ldc);
  GemmCalls calls = getGemmCalls();
  EXPECT_EQ(calls.libxsmm + calls.onednn + calls.fallback, 1);
  EXPECT_EQ(calls.fallback, fallbackCallsSeen);
  route = calls.libxsmm  ? Route::Libxsmm
          : calls.onednn ? Route::Onednn
                         : Route::Fallback;
  double largest = 0, error = 0;
  for (int i = 0; i < c.m; ++i)
    for (int j = 0; j < ldc; ++j) {
      size_t at = size_t(i) * ldc + j;
      if (j >= c.n) { // padding is never written
        EXPECT_EQ(out[at], expected[at]);
        continue;
      }
      largest = std::max(largest, std::fabs(double(expected[at])));
      error = std::max(error, std::fabs(double(out[at]) - expected[at]));
    }
  return error / std::max(largest, 1.0);
}

/// Runs every case and expects it on `expected` with its largest error,
/// relative to the largest |C|, below `bound`.
void expectRoute(const std::vector<Case> &cases, Route expected, double bound) {
  for (const Case &c : cases) {
    Route route = Route::Fallback;
    double error = run(c, route);
    EXPECT_EQ(route, expected) << c.m << "x" << c.n << "x" << c.k << " ran on "
                               << name(route) << ", not " << name(expected);
    EXPECT_LT(error, bound) << c.m << "x" << c.n << "x" << c.k;
  }
}

/// Attention's tiles (scores against pre-transposed keys, P.V, a diagonal
/// tile), dK = dS^T Q (A transposed), odd sizes, padded rows, beta = 1.
const std::vector<Case> kSmallForms = {
    {kNoTrans, kNoTrans, 128, 512, 64, 0, 1.0f, 0.0f},
    {kNoTrans, kNoTrans, 128, 64, 512, 0, 1.0f, 0.0f},
    {kNoTrans, kNoTrans, 128, 128, 64, 0, 1.0f, 1.0f},
    {kTrans, kNoTrans, 96, 64, 128, 0, 1.0f, 0.0f},
    {kTrans, kNoTrans, 37, 19, 23, 5, 1.0f, 1.0f},
    {kNoTrans, kNoTrans, 1, 64, 4096, 3, 1.0f, 0.0f},
    {kNoTrans, kNoTrans, 7, 512, 512, 16, 1.0f, 1.0f}};

/// What libxsmm does not take and oneDNN does: B transposed (libxsmm 1.17
/// has no such kernel), B too wide, B over 256 Ki elements, alpha != 1,
/// beta neither 0 nor 1, CBLAS's conjugate transpose (of real matrices).
const std::vector<Case> kOtherForms = {
    {kNoTrans, kTrans, 128, 512, 64, 0, 1.0f, 0.0f},
    {kTrans, kTrans, 16, 16, 16, 2, 1.0f, 1.0f},
    {kNoTrans, kNoTrans, 64, 768, 64, 0, 1.0f, 0.0f},
    {kNoTrans, kNoTrans, 8, 256, 1025, 1, 1.0f, 1.0f},
    {kNoTrans, kNoTrans, 33, 40, 50, 0, 0.5f, 0.0f},
    {kTrans, kNoTrans, 33, 40, 50, 4, 1.0f, -0.25f},
    {kConjTrans, kConjTrans, 9, 11, 13, 1, 2.0f, 0.5f}};

/// Initializes the dispatcher with the reference as the fallback; skips
/// the test where libxsmm is asked for and has no kernels.
void initialize(bool libxsmm, bool onednn) {
  GemmLibraries used =
      initializeGemms(&countingReference, libxsmm, onednn, /*threads=*/1);
  EXPECT_EQ(used.onednn, onednn);
  if (libxsmm && !used.libxsmm)
    GTEST_SKIP() << "libxsmm generates no kernels for this CPU";
}

TEST(GemmDispatch, SmallOnLibxsmmOthersOnOnednn) {
  initialize(/*libxsmm=*/true, /*onednn=*/true);
  expectRoute(kSmallForms, Route::Libxsmm, 1e-5);
  expectRoute(kOtherForms, Route::Onednn, 1e-5);
}

TEST(GemmDispatch, WithoutLibxsmmEveryFormOnOnednn) {
  initialize(/*libxsmm=*/false, /*onednn=*/true);
  expectRoute(kSmallForms, Route::Onednn, 1e-5);
}

TEST(GemmDispatch, WithoutOnednnOtherFormsFallBack) {
  initialize(/*libxsmm=*/true, /*onednn=*/false);
  expectRoute(kOtherForms, Route::Fallback, 1e-6);
}

TEST(GemmDispatch, WhatNoLibraryTakesFallsBack) {
  initialize(/*libxsmm=*/true, /*onednn=*/true);
  // Column-major (oneDNN is row-major only; square, as `run` lays the
  // operands out row-major); a stride shorter than A's rows, which oneDNN
  // refuses before writing C; k = 0.
  Case colMajor{kNoTrans, kTrans, 16, 16, 16, 0, 1.0f, 0.0f};
  colMajor.order = kColMajor;
  expectRoute({colMajor, Case{kNoTrans, kTrans, 8, 600, 32, -1, 1.0f, 0.0f},
               Case{kNoTrans, kNoTrans, 8, 8, 0, 0, 1.0f, 0.5f}},
              Route::Fallback, 1e-6);
}

TEST(GemmDispatch, WithoutLibrariesEverythingFallsBack) {
  initialize(/*libxsmm=*/false, /*onednn=*/false);
  expectRoute(kSmallForms, Route::Fallback, 1e-6);
}

TEST(GemmDispatch, Predicates) {
  EXPECT_TRUE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 512, 64, 1, 0));
  EXPECT_TRUE(isSmallGemm(kRowMajor, kTrans, kNoTrans, 128, 512, 512, 1, 1));
  EXPECT_FALSE(isSmallGemm(kColMajor, kNoTrans, kNoTrans, 128, 64, 64, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kTrans, 128, 64, 64, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 64, 64, 2, 0));
  EXPECT_FALSE(
      isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 64, 64, 1, 0.5f));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 513, 8, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 512, 513, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 0, 64, 64, 1, 0));
  EXPECT_TRUE(isOnednnGemm(kRowMajor, kConjTrans, kTrans, 1, 1, 1));
  EXPECT_FALSE(isOnednnGemm(kColMajor, kNoTrans, kNoTrans, 8, 8, 8));
  EXPECT_FALSE(isOnednnGemm(kRowMajor, 110, kNoTrans, 8, 8, 8));
  EXPECT_FALSE(isOnednnGemm(kRowMajor, kNoTrans, kNoTrans, 8, 0, 8));
}

} // namespace
