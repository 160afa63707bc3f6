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
