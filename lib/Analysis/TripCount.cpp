//===- TripCount.cpp - how often an op runs in its loops ------------------===//

#include "seqpar/Analysis/TripCount.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

std::optional<int64_t> mlir::seqpar::getTripCountAround(Operation *op) {
  std::optional<int64_t> count = 1;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop && count;
       loop = loop->getParentOfType<scf::ForOp>()) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
      continue;
    std::optional<int64_t> extent = llvm::checkedSub(*ub, *lb);
    count = extent ? llvm::checkedMul(*count,
                                      *extent / *step + (*extent % *step != 0))
                   : std::nullopt;
  }
  return count;
}
