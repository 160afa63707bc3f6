//===- TestSeqDim.cpp - print each function's sequence dims ---------------===//

#include "TestPasses.h"

#include "seqpar/Analysis/SeqDimChoice.h"


namespace mlir::seqpar::test {
#define GEN_PASS_DEF_TESTSEQDIM
#include "TestPasses.h.inc"
} // namespace mlir::seqpar::test

using namespace mlir;
using namespace mlir::seqpar;

namespace {
struct TestSeqDimPass
    : public mlir::seqpar::test::impl::TestSeqDimBase<TestSeqDimPass> {
  using TestSeqDimBase::TestSeqDimBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (std::string why = whyInvalidSeqDimOption(seqDim); !why.empty()) {
      func.emitError() << why;
      return signalPassFailure();
    }
    ArgSeqDims choice = chooseArgSeqDims(func, seqDim);
    InFlightDiagnostic remark = emitRemark(func.getLoc());
    if (!choice.any()) {
      remark << "no sequence dim: " << choice.whyNone;
      return;
    }
    remark << "argument sequence dims: [";
    llvm::interleaveComma(choice.dims, remark);
    remark << "]";
  }
};
} // namespace
