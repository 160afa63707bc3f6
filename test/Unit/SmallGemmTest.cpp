//===- SmallGemmTest.cpp - seqpar-run's cblas_sgemm against a reference ---===//
//
// smallGemmOrBlas (tools/seqpar-run/SmallGemm.h) sends small GEMMs to
// libxsmm and the rest to its fallback; here the fallback is a plain loop
// that counts its calls, so each test checks both the values and which
// side ran them.
//
//===----------------------------------------------------------------------===//

#include "SmallGemm.h"

#include "gtest/gtest.h"

#include <cmath>
#include <initializer_list>
#include <random>
#include <vector>

using namespace seqpar::run;

namespace {

constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

/// C = alpha * op(A) op(B) + beta * C, row-major, in double.
void referenceSgemm(int order, int transA, int transB, int m, int n, int k,
                    float alpha, const float *a, int lda, const float *b,
                    int ldb, float beta, float *c, int ldc) {
  ASSERT_EQ(order, kRowMajor);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p) {
        float x = transA == kTrans ? a[p * lda + i] : a[i * lda + p];
        float y = transB == kTrans ? b[j * ldb + p] : b[p * ldb + j];
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
  int pad; // extra elements per row of every operand (ld > its width)
  float beta;
};

/// Runs `c` through smallGemmOrBlas and the reference; returns the largest
/// difference relative to the largest |C| and reports the route taken.
double run(const Case &c, bool &onLibxsmm) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  int aRows = c.transA == kTrans ? c.k : c.m,
      aCols = c.transA == kTrans ? c.m : c.k;
  int bRows = c.transB == kTrans ? c.n : c.k,
      bCols = c.transB == kTrans ? c.k : c.n;
  int lda = aCols + c.pad, ldb = bCols + c.pad, ldc = c.n + c.pad;
  std::vector<float> a(size_t(aRows) * lda), b(size_t(bRows) * ldb),
      out(size_t(c.m) * ldc);
  for (float &x : a)
    x = uniform(rng);
  for (float &x : b)
    x = uniform(rng);
  for (float &x : out)
    x = uniform(rng); // beta = 0 must ignore it, beta = 1 add to it
  std::vector<float> expected = out;
  referenceSgemm(kRowMajor, c.transA, c.transB, c.m, c.n, c.k, 1.0f, a.data(),
                 lda, b.data(), ldb, c.beta, expected.data(), ldc);
  resetGemmCalls();
  fallbackCallsSeen = 0;
  smallGemmOrBlas(kRowMajor, c.transA, c.transB, c.m, c.n, c.k, 1.0f, a.data(),
                  lda, b.data(), ldb, c.beta, out.data(), ldc);
  GemmCalls calls = getGemmCalls();
  EXPECT_EQ(calls.libxsmm + calls.fallback, 1);
  EXPECT_EQ(calls.fallback, fallbackCallsSeen);
  onLibxsmm = calls.libxsmm == 1;
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

class SmallGemmTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!initializeSmallGemms(&countingReference, /*useLibxsmm=*/true))
      GTEST_SKIP() << "libxsmm generates no kernels for this CPU";
  }
};

/// Runs every case and expects it on libxsmm (or on the fallback) with
/// its largest error, relative to the largest |C|, below `bound`.
void expectRoute(std::initializer_list<Case> cases, bool onLibxsmm,
                 double bound) {
  for (const Case &c : cases) {
    bool ranOnLibxsmm = !onLibxsmm;
    double error = run(c, ranOnLibxsmm);
    EXPECT_EQ(ranOnLibxsmm, onLibxsmm) << c.m << "x" << c.n << "x" << c.k;
    EXPECT_LT(error, bound) << c.m << "x" << c.n << "x" << c.k;
  }
}

TEST_F(SmallGemmTest, SmallFormsRunOnLibxsmm) {
  // Attention's tiles (scores against pre-transposed keys, P.V, a diagonal
  // tile), dK = dS^T Q (A transposed), odd sizes, padded rows, beta = 1.
  expectRoute({Case{kNoTrans, kNoTrans, 128, 512, 64, 0, 0.0f},
               Case{kNoTrans, kNoTrans, 128, 64, 512, 0, 0.0f},
               Case{kNoTrans, kNoTrans, 128, 128, 64, 0, 1.0f},
               Case{kTrans, kNoTrans, 96, 64, 128, 0, 0.0f},
               Case{kTrans, kNoTrans, 37, 19, 23, 5, 1.0f},
               Case{kNoTrans, kNoTrans, 1, 64, 4096, 3, 0.0f},
               Case{kNoTrans, kNoTrans, 7, 512, 512, 16, 1.0f}},
              /*onLibxsmm=*/true, 1e-5);
}

TEST_F(SmallGemmTest, OtherFormsRunOnTheFallback) {
  // B transposed (libxsmm 1.17 has no such kernel), B too wide, B over
  // 256 Ki elements: the fallback, with its results unchanged.
  expectRoute({Case{kNoTrans, kTrans, 128, 512, 64, 0, 0.0f},
               Case{kTrans, kTrans, 16, 16, 16, 2, 1.0f},
               Case{kNoTrans, kNoTrans, 64, 768, 64, 0, 0.0f},
               Case{kNoTrans, kNoTrans, 8, 256, 1025, 1, 1.0f}},
              /*onLibxsmm=*/false, 1e-6);
}

TEST(SmallGemm, Predicate) {
  EXPECT_TRUE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 512, 64, 1, 0));
  EXPECT_TRUE(isSmallGemm(kRowMajor, kTrans, kNoTrans, 128, 512, 512, 1, 1));
  EXPECT_FALSE(isSmallGemm(102, kNoTrans, kNoTrans, 128, 64, 64, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kTrans, 128, 64, 64, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 64, 64, 2, 0));
  EXPECT_FALSE(
      isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 64, 64, 1, 0.5f));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 513, 8, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 128, 512, 513, 1, 0));
  EXPECT_FALSE(isSmallGemm(kRowMajor, kNoTrans, kNoTrans, 0, 64, 64, 1, 0));
}

TEST(SmallGemm, WithoutLibxsmmEverythingFallsBack) {
  ASSERT_FALSE(initializeSmallGemms(&countingReference, /*useLibxsmm=*/false));
  expectRoute({Case{kNoTrans, kNoTrans, 128, 64, 512, 0, 0.0f}},
              /*onLibxsmm=*/false, 1e-6);
}

} // namespace
