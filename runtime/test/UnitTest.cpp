//===- UnitTest.cpp - process-local pieces: conversions, packing, alloc ---===//
//
// No MPI: runs as a plain ctest entry.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "Half.h"
#include "Layout.h"
#include "seqpar/runtime/seqpar_runtime_alloc.h"

#include <sys/resource.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace seqpar::rt;
using namespace seqpar::rt::detail;

namespace {

// Tests f16 conversion on normals, subnormals, rounding ties, overflow,
// infinities and NaN against test-side frexp/ldexp decoding.
TEST(Half, F16Conversions) {
  for (float v : {0.0f, 1.0f, -2.5f, 0.333251953125f, 65504.0f, 6.103515625e-05f})
    EXPECT_EQ(f16ToF32(f32ToF16(v)), v) << v;
  for (int h = 0; h < 0x7c00; ++h) // every finite positive f16 round-trips
    ASSERT_EQ(f32ToF16(f16ToF32(static_cast<uint16_t>(h))), h) << h;
  EXPECT_EQ(f16ToF32(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -25)), 0);      // tie -> even (0)
  EXPECT_EQ(f32ToF16(std::ldexp(1.5f, -25)), 1);
  EXPECT_EQ(f32ToF16(2049.0f), test::encodeF16(2048.0f)); // tie -> even
  EXPECT_EQ(f32ToF16(2051.0f), test::encodeF16(2052.0f)); // tie -> even
  EXPECT_EQ(f32ToF16(2050.5f), test::encodeF16(2050.0f));
  EXPECT_EQ(f32ToF16(65519.0f), test::encodeF16(65504.0f));
  EXPECT_EQ(f32ToF16(65520.0f), 0x7c00); // overflow -> inf
  EXPECT_EQ(f32ToF16(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_TRUE(std::isnan(f16ToF32(f32ToF16(std::nanf("")))));
}

// Tests bf16 conversion: exact widening, RNE narrowing, NaN stays NaN.
TEST(Half, BF16Conversions) {
  EXPECT_EQ(bf16ToF32(0x3f80), 1.0f);
  EXPECT_EQ(f32ToBf16(257.0f), test::encodeBF16(256.0f)); // tie -> even
  EXPECT_EQ(f32ToBf16(259.0f), test::encodeBF16(260.0f)); // tie -> even
  EXPECT_EQ(f32ToBf16(257.5f), test::encodeBF16(258.0f));
  EXPECT_TRUE(std::isnan(bf16ToF32(f32ToBf16(std::nanf("")))));
  EXPECT_EQ(f32ToBf16(3.0e38f * 10), 0x7f80); // inf stays inf
}

// Tests that splitPack/concatUnpack move chunks of a middle dim and invert
// each other (index math of the test, not of the runtime).
TEST(Layout, PackUnpackMiddleDim) {
  const int64_t outer = 2, extent = 6, inner = 3, t = 3, m = extent / t;
  std::vector<int> src(outer * extent * inner), packed(src.size()),
      back(src.size());
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<int>(i);
  splitPack(src.data(), packed.data(), outer, extent, inner, t, sizeof(int));
  for (int64_t j = 0; j < t; ++j)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < m; ++k)
        for (int64_t i = 0; i < inner; ++i)
          EXPECT_EQ(packed[((j * outer + o) * m + k) * inner + i],
                    src[(o * extent + j * m + k) * inner + i]);
  concatUnpack(packed.data(), back.data(), outer, m, inner, t, sizeof(int));
  EXPECT_EQ(back, src);
}

// Tests the local step of the MPI reduce-scatter: chunks reduced in rank
// order, NaN winning max and min (arith.maximumf / minimumf), integer sums
// wrapping, a single chunk copied, and the result written over chunk 0.
TEST(Layout, ReduceChunks) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Three chunks of four: 1e8 + 1 - 1e8 is 0 in f32 in rank order, 1 in
  // another (1 - 1e8 + 1e8).
  std::vector<float> f = {1e8f, 2, nan, -1, 1, 5, 0, -3, -1e8f, 1, 4, nan};
  std::vector<float> out(4);
  reduceChunks(DType::F32, Reduction::Sum, f.data(), 3, 4, out.data());
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 8.0f);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_TRUE(std::isnan(out[3]));
  reduceChunks(DType::F32, Reduction::Max, f.data(), 3, 4, out.data());
  EXPECT_EQ(out[0], 1e8f);
  EXPECT_EQ(out[1], 5.0f);
  EXPECT_TRUE(std::isnan(out[2])); // NaN in the first chunk
  EXPECT_TRUE(std::isnan(out[3])); // NaN in the last chunk
  reduceChunks(DType::F32, Reduction::Min, f.data(), 3, 4, out.data());
  EXPECT_EQ(out[0], -1e8f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_TRUE(std::isnan(out[3]));

  std::vector<int8_t> i8 = {100, -128, 7, 100, -1, 7};
  std::vector<int8_t> i8out(3);
  reduceChunks(DType::I8, Reduction::Sum, i8.data(), 2, 3, i8out.data());
  EXPECT_EQ(i8out, (std::vector<int8_t>{-56, 127, 14}));
  std::vector<int64_t> i64 = {INT64_MAX, 3, 1, -4};
  std::vector<int64_t> i64out(2);
  reduceChunks(DType::I64, Reduction::Sum, i64.data(), 2, 2, i64out.data());
  EXPECT_EQ(i64out, (std::vector<int64_t>{INT64_MIN, -1}));
  reduceChunks(DType::I64, Reduction::Max, i64.data(), 2, 2, i64out.data());
  EXPECT_EQ(i64out, (std::vector<int64_t>{INT64_MAX, 3}));

  std::vector<int32_t> one = {4, -2}, oneOut(2);
  reduceChunks(DType::I32, Reduction::Min, one.data(), 1, 2, oneOut.data());
  EXPECT_EQ(oneOut, one);
  // In place over the first chunk (the f16/bf16 path reduces so).
  reduceChunks(DType::F32, Reduction::Sum, f.data(), 2, 4, f.data());
  EXPECT_EQ(f[1], 7.0f);
  EXPECT_EQ(f[5], 5.0f); // the second chunk is read, not written
}

// Tests output shapes and the validation messages without communication.
TEST(Layout, ValidateShapes) {
  float buf[64], out[256];
  std::vector<int64_t> shape;
  ASSERT_TRUE(validateCollective(
                  CollectiveOp::allGather(DType::F16, buf, out, {2, 3, 4}, 1),
                  4, &shape)
                  .ok());
  EXPECT_EQ(shape, std::vector<int64_t>({2, 12, 4}));
  ASSERT_TRUE(validateCollective(
                  CollectiveOp::allToAll(DType::F32, buf, out, {2, 8, 3}, 1, 2),
                  4, &shape)
                  .ok());
  EXPECT_EQ(shape, std::vector<int64_t>({2, 2, 12}));
  Status s = validateCollective(
      CollectiveOp::reduceScatter(DType::F32, Reduction::Sum, buf, out, {6}, 0),
      4);
  EXPECT_EQ(s.code, StatusCode::InvalidArgument);
  EXPECT_NE(s.message.find("not divisible by the group size 4"),
            std::string::npos);
}

// Tests the counted allocation hooks: current and peak bytes, alignment,
// and free of both kinds of block.
TEST(Alloc, CountsCurrentAndPeakBytes) {
  int64_t base = seqpar_rt_alloc_current_bytes();
  int64_t count = seqpar_rt_alloc_count();
  seqpar_rt_alloc_reset_peak();
  void *a = _mlir_memref_to_llvm_alloc(1000);
  void *b = _mlir_memref_to_llvm_aligned_alloc(256, 3000);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 256, 0u);
  std::memset(a, 1, 1000);
  std::memset(b, 2, 3000);
  EXPECT_EQ(seqpar_rt_alloc_current_bytes(), base + 4000);
  _mlir_memref_to_llvm_free(a);
  EXPECT_EQ(seqpar_rt_alloc_current_bytes(), base + 3000);
  void *c = _mlir_memref_to_llvm_aligned_alloc(64, 500);
  EXPECT_EQ(seqpar_rt_alloc_peak_bytes(), base + 4000);
  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
  _mlir_memref_to_llvm_free(nullptr);
  EXPECT_EQ(seqpar_rt_alloc_current_bytes(), base);
  EXPECT_EQ(seqpar_rt_alloc_peak_bytes(), base + 4000);
  EXPECT_EQ(seqpar_rt_alloc_count(), count + 3);
  seqpar_rt_alloc_reset_peak();
  EXPECT_EQ(seqpar_rt_alloc_peak_bytes(), base);
}

/// Minor page faults of this process so far.
static long minorFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// Allocates, writes and frees `bytes` through the hooks; returns the
/// minor page faults that took.
static long faultsOfOneUse(size_t bytes) {
  long before = minorFaults();
  void *block = _mlir_memref_to_llvm_aligned_alloc(64, bytes);
  EXPECT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  _mlir_memref_to_llvm_free(block);
  return minorFaults() - before;
}

// Tests that, after seqpar_rt_alloc_keep_freed_memory, a large block
// allocated again after its free reuses the pages already touched (by
// default glibc maps it afresh: one fault per page, 16384 for 64 MiB),
// and that the counters still count it.
TEST(Alloc, KeepFreedMemoryReusesPages) {
  ASSERT_EQ(seqpar_rt_alloc_keep_freed_memory(), 1);
  const size_t bytes = 64 << 20;
  faultsOfOneUse(bytes); // the first use maps the pages
  int64_t base = seqpar_rt_alloc_current_bytes();
  seqpar_rt_alloc_reset_peak();
  long faults = faultsOfOneUse(bytes);
  EXPECT_LT(faults, 64) << "of " << bytes / 4096 << " pages";
  EXPECT_EQ(seqpar_rt_alloc_peak_bytes(), base + int64_t(bytes));
  EXPECT_EQ(seqpar_rt_alloc_current_bytes(), base);
}

} // namespace
