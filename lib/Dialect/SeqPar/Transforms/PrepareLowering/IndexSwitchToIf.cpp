//===- IndexSwitchToIf.cpp - scf.index_switch as a chain of scf.if --------===//
//
// MLIR 22's one-shot bufferization misses that an scf.index_switch result
// aliases the buffers its cases yield: an op writing in place into such a
// buffer after the switch goes unseen, and the switch's result changes
// under its readers (silently wrong outputs). scf.if's model is sound. The
// switches come from user programs and from lift-cf-to-scf (a loop of
// blocks with several exits, cf.switch) (docs/runtime-and-run.md,
// "Control flow").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_INDEXSWITCHTOIF
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

/// Replaces `op` by `if (arg == case0) {case0} else if (arg == case1)
/// {case1} ... else {default}`, moving each region into its scf.if; a
/// switch without cases becomes an scf.execute_region of its default.
static void replaceWithIfChain(scf::IndexSwitchOp op) {
  Location loc = op.getLoc();
  TypeRange types = op.getResultTypes();
  OpBuilder builder(op);
  ArrayRef<int64_t> cases = op.getCases();
  if (cases.empty()) {
    auto region = scf::ExecuteRegionOp::create(builder, loc, types);
    region.getRegion().takeBody(op.getDefaultRegion());
    op.replaceAllUsesWith(region.getResults());
    op.erase();
    return;
  }
  scf::IfOp outermost;
  for (auto [i, value] : llvm::enumerate(cases)) {
    Value constant = arith::ConstantIndexOp::create(builder, loc, value);
    Value equal = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        op.getArg(), constant);
    auto branch = scf::IfOp::create(builder, loc, types, equal,
                                    /*addThenBlock=*/false,
                                    /*addElseBlock=*/false);
    branch.getThenRegion().takeBody(op.getCaseRegions()[i]);
    if (outermost)
      scf::YieldOp::create(builder, loc, branch.getResults());
    else
      outermost = branch;
    if (i + 1 == cases.size()) {
      branch.getElseRegion().takeBody(op.getDefaultRegion());
      break;
    }
    builder.setInsertionPointToStart(
        builder.createBlock(&branch.getElseRegion()));
  }
  op.replaceAllUsesWith(outermost.getResults());
  op.erase();
}

namespace {

struct IndexSwitchToIfPass
    : public mlir::seqpar::impl::IndexSwitchToIfBase<IndexSwitchToIfPass> {
  void runOnOperation() override {
    SmallVector<scf::IndexSwitchOp> switches;
    // Post-order: a switch nested in another's case moves with its region.
    getOperation()->walk(
        [&](scf::IndexSwitchOp op) { switches.push_back(op); });
    if (switches.empty())
      return markAllAnalysesPreserved();
    for (scf::IndexSwitchOp op : switches)
      replaceWithIfChain(op);
  }
};

} // namespace
