//===- CreateGrid.cpp - create seqpar-pipeline's TP x CP grid -------------===//
//
// The seqpar-create-grid pass: the grid of GridContract.h, made from the TP,
// CP and Ulysses sizes.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_CREATEGRID
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

struct CreateGridPass
    : public mlir::seqpar::impl::CreateGridBase<CreateGridPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

/// "[2, 4]".
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "]";
  return text;
}

void CreateGridPass::runOnOperation() {
  ModuleOp module = getOperation();
  // The grid of TP (axis 0) and CP (the other axes). The size errors read
  // as they did when the TP planner made this grid ("tensor parallelism:
  // cp=0 ...").
  constexpr llvm::StringLiteral prefix =
      "grid for context and tensor parallelism: ";
  GridContract contract{tp, cp, cpUlysses};
  if (std::string why = contract.whyInvalid(); !why.empty()) {
    emitError(module.getLoc()) << prefix << why;
    return signalPassFailure();
  }
  Operation *existing =
      SymbolTable::lookupSymbolIn(module, GridContract::kName);
  if (!existing) {
    contract.create(module);
    return;
  }
  SmallVector<int64_t> shape = contract.getShape();
  auto grid = dyn_cast<shard::GridOp>(existing);
  if (grid && grid.getShape() == ArrayRef<int64_t>(shape)) {
    // Nothing added: the pass manager need not verify the module again.
    markAllAnalysesPreserved();
    return;
  }
  InFlightDiagnostic diag = emitError(existing->getLoc())
                            << prefix << "the module's @"
                            << GridContract::kName;
  if (grid)
    diag << " has shape " << formatShape(grid.getShape());
  else
    diag << " is a '" << existing->getName() << "'";
  diag << ", but tp=" << tp.getValue() << " cp=" << cp.getValue()
       << " cp-ulysses=" << cpUlysses.getValue() << " make the grid "
       << formatShape(shape);
  signalPassFailure();
}
