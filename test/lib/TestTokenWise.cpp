//===- TestTokenWise.cpp - print the token-wise analysis as remarks -------===//

#include "TestPasses.h"

#include "seqpar/Analysis/TokenWiseAnalysis.h"

namespace mlir::seqpar::test {
#define GEN_PASS_DEF_TESTTOKENWISE
#include "TestPasses.h.inc"
} // namespace mlir::seqpar::test

using namespace mlir;
using namespace mlir::seqpar;

namespace {
struct TestTokenWisePass
    : public mlir::seqpar::test::impl::TestTokenWiseBase<TestTokenWisePass> {
  using TestTokenWiseBase::TestTokenWiseBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (seqDim < -1) {
      func.emitError() << "seq-dim=" << seqDim.getValue()
                       << " is not a dim: expected a dim >= 0, or -1 (the "
                          "default: none)";
      return signalPassFailure();
    }
    TokenWiseAnalysis analysis(func, getArgSeqDims(func, seqDim));
    if (failed(analysis.run()))
      return signalPassFailure();
    if (func.getBody().empty())
      return;
    for (Operation &op : func.getBody().front()) {
      if (op.getNumResults() == 0)
        continue;
      const TokenWiseInfo &info = analysis.getInfo(&op);
      InFlightDiagnostic remark = emitRemark(op.getLoc());
      switch (info.kind) {
      case TokenWiseInfo::Kind::NoSequence:
        remark << "no sequence dim";
        break;
      case TokenWiseInfo::Kind::TokenWise: {
        remark << "token-wise";
        if (std::optional<StridedDim> seq =
                analysis.getSeqDim(op.getResult(0))) {
          remark << " along dim " << seq->dim;
          if (seq->inner != 1 || seq->outer != 1)
            remark << " (flattened: outer " << seq->outer << ", inner "
                   << seq->inner << ")";
        }
        if (info.seqLoop >= 0)
          remark << ", loop d" << info.seqLoop;
        if (info.positionDependent)
          remark << ", position-dependent";
        // Which sequence, when the function has several lengths.
        if (std::optional<StridedDim> seq = analysis.getSeqDim(op.getResult(0));
            seq && analysis.getSeqLens().size() > 1)
          remark << ", " << seq->extent << " tokens";
        break;
      }
      case TokenWiseInfo::Kind::NotTokenWise:
        remark << "not token-wise: " << info.reason;
        break;
      case TokenWiseInfo::Kind::Unknown:
        remark << "unknown: " << info.reason;
        break;
      }
    }
  }
};
} // namespace
