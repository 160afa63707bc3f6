//===- TokenWiseAnalysisTest.cpp - arguments seeded with a token digit ----===//
//
// TokenWiseAnalysis takes, besides each argument's sequence dim, the token
// digit of a dim that holds the tokens flattened with other dims
// (docs/semantics.md §3.1): embedders may pass one the inference did not
// compute, so a digit that does not tile the dim is refused with a located
// error, and one that does gives the argument that sequence's length.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/TokenWiseAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

constexpr const char *kFlattened = R"mlir(
func.func @f(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %y = arith.negf %x : tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
)mlir";

struct Parsed {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;
  func::FuncOp func;

  Parsed() {
    context.loadDialect<func::FuncDialect, arith::ArithDialect>();
    context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      diagnostics += diag.str();
      return success();
    });
    module = parseSourceString<ModuleOp>(kFlattened, &context);
    func = cast<func::FuncOp>(module->getBody()->front());
  }
};

TEST(TokenWiseAnalysis, FlattenedDigitGivesTheSequenceLength) {
  Parsed parsed;
  // [b*s, h] with b = 2: 2 blocks of 8 tokens.
  TokenWiseAnalysis analysis(parsed.func, {0}, {StridedDim{0, 1, 2, 8}});
  ASSERT_TRUE(succeeded(analysis.run())) << parsed.diagnostics;
  EXPECT_EQ(analysis.getSeqLen(), 8);
  std::optional<StridedDim> seq =
      analysis.getSeqDim(parsed.func.getArgument(0));
  ASSERT_TRUE(seq.has_value());
  EXPECT_EQ(seq->outer, 2);
  EXPECT_EQ(seq->extent, 8);
}

TEST(TokenWiseAnalysis, DigitThatDoesNotTileIsRefused) {
  Parsed parsed;
  TokenWiseAnalysis analysis(parsed.func, {0}, {StridedDim{0, 1, 1, 5}});
  EXPECT_TRUE(failed(analysis.run()));
  EXPECT_NE(parsed.diagnostics.find("argument #0: 5 tokens at stride 1 do not "
                                    "tile dim 0 of 'tensor<16x4xf32>'"),
            std::string::npos)
      << parsed.diagnostics;
}

} // namespace
