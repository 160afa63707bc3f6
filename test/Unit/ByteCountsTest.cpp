//===- ByteCountsTest.cpp - the compiler counts bytes as the runtime does -===//
//
// docs/semantics.md §5 promises that predicted and measured communication
// agree. The compiler counts with seqpar/Analysis/ByteCounts.h, the runtime,
// which builds without MLIR, with its own ringBytesSent and dtypeSize: this
// test pins the two to the same numbers for every collective kind, so a
// change to either side alone fails it.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/runtime/Runtime.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::seqpar;
namespace rt = ::seqpar::rt;

namespace {

struct KindPair {
  CollectiveKind compiler;
  rt::OpKind runtime;
};

constexpr KindPair kKinds[] = {
    {CollectiveKind::AllReduce, rt::OpKind::AllReduce},
    {CollectiveKind::AllGather, rt::OpKind::AllGather},
    {CollectiveKind::ReduceScatter, rt::OpKind::ReduceScatter},
    {CollectiveKind::AllToAll, rt::OpKind::AllToAll},
    {CollectiveKind::Shift, rt::OpKind::Shift},
};

// Sizes that divide by every group size and sizes that round down; a size
// whose 2N(t-1) exceeds int64.
constexpr int64_t kSizes[] = {0,
                              1,
                              2,
                              3,
                              7,
                              1000,
                              1024,
                              4097,
                              1 << 20,
                              123456789,
                              (int64_t(1) << 40) + 3,
                              (int64_t(1) << 61) + 5};
constexpr int64_t kGroupSizes[] = {1, 2, 3, 4, 7, 8, 64};
// Shifts that move data and shifts by a multiple of the group.
constexpr int64_t kShiftOffsets[] = {1, -1, 2, 3, 0, 4, 8};

TEST(ByteCounts, BytesSentAreTheRuntimes) {
  for (const KindPair &kind : kKinds)
    for (int64_t n : kSizes)
      for (int64_t t : kGroupSizes)
        for (int64_t offset : kShiftOffsets) {
          SCOPED_TRACE(testing::Message()
                       << rt::opKindName(kind.runtime) << " N=" << n
                       << " t=" << t << " offset=" << offset);
          std::optional<int64_t> compiler =
              getBytesSent(kind.compiler, n, t, offset);
          uint64_t runtime = rt::ringBytesSent(kind.runtime, n, t, offset);
          ASSERT_TRUE(compiler.has_value());
          EXPECT_EQ(static_cast<uint64_t>(*compiler), runtime);
        }
}

// The planner's real-valued estimate rounds down to the same figure.
TEST(ByteCounts, EstimatesRoundToTheRuntimes) {
  for (const KindPair &kind : kKinds)
    for (int64_t n : kSizes)
      for (int64_t t : kGroupSizes) {
        if (n > (int64_t(1) << 40))
          continue; // beyond the doubles' exact integers
        SCOPED_TRACE(testing::Message() << rt::opKindName(kind.runtime)
                                        << " N=" << n << " t=" << t);
        double estimate = estimateBytesSent(kind.compiler, n, t);
        EXPECT_EQ(static_cast<uint64_t>(std::floor(estimate)),
                  rt::ringBytesSent(kind.runtime, n, t));
      }
}

TEST(ByteCounts, ElementBytesAreTheRuntimes) {
  MLIRContext context;
  Builder b(&context);
  Type types[] = {b.getF32Type(),     b.getF16Type(),     b.getBF16Type(),
                  b.getIntegerType(32), b.getIntegerType(64), b.getIntegerType(8),
                  b.getI1Type()};
  for (Type type : types) {
    int32_t code = getRuntimeDType(type);
    ASSERT_GE(code, 0);
    EXPECT_EQ(static_cast<size_t>(getElementBytes(type)),
              rt::dtypeSize(static_cast<rt::DType>(code)));
  }
}

} // namespace
