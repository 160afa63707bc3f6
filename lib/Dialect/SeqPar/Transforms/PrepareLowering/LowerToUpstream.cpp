//===- LowerToUpstream.cpp - seqpar ops and attributes -> upstream --------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_LOWERTOUPSTREAM
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

/// Rewrites the `seqpar.*` entries of one argument/result dictionary into
/// `seqpar_lowered.<name>` string attributes holding the printed value.
static DictionaryAttr lowerAttrs(DictionaryAttr attrs) {
  if (!attrs)
    return attrs;
  MLIRContext *ctx = attrs.getContext();
  SmallVector<NamedAttribute> lowered;
  bool changed = false;
  for (NamedAttribute attr : attrs) {
    StringRef name = attr.getName().getValue();
    if (!name.consume_front("seqpar.")) {
      lowered.push_back(attr);
      continue;
    }
    std::string printed;
    llvm::raw_string_ostream os(printed);
    attr.getValue().print(os);
    lowered.emplace_back(StringAttr::get(ctx, "seqpar_lowered." + name.str()),
                         StringAttr::get(ctx, printed));
    changed = true;
  }
  return changed ? DictionaryAttr::get(ctx, lowered) : attrs;
}

namespace {
struct LowerToUpstreamPass
    : public mlir::seqpar::impl::LowerToUpstreamBase<LowerToUpstreamPass> {
  using LowerToUpstreamBase::LowerToUpstreamBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    populateExpandDropoutPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    // Sequence blocks describe tensor results, which bufferization removes.
    module.walk([](Operation *op) {
      op->removeAttr(SeqParDialect::kSequenceBlockAttrName);
    });
    module.walk([&](FunctionOpInterface func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.setArgAttrs(i, lowerAttrs(func.getArgAttrDict(i)));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        func.setResultAttrs(i, lowerAttrs(func.getResultAttrDict(i)));
    });
    if (keepCollectives)
      return;
    WalkResult left = module.walk([&](Operation *op) {
      if (isa_and_nonnull<SeqParDialect>(op->getDialect())) {
        op->emitError() << "cannot be lowered to upstream dialects";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
