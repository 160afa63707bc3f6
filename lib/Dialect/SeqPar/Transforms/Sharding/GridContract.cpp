//===- GridContract.cpp - the axes of seqpar's TP x CP grid ---------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::seqpar;

std::string GridContract::whyInvalid() const {
  std::string why;
  llvm::raw_string_ostream os(why);
  if (tp < 1)
    os << "tp=" << tp << " is not a TP size: expected tp >= 1";
  else if (cp < 1)
    os << "cp=" << cp
       << " is not a context-parallel size: expected cp >= 1 (1: no CP axis)";
  else if (ulysses < 1 || cp % ulysses != 0)
    os << "cp-ulysses=" << ulysses << " must be positive and divide cp=" << cp;
  else if (!llvm::checkedMul(tp, cp))
    os << "tp=" << tp << " x cp=" << cp << " ranks overflow a 64-bit count";
  return why;
}

SmallVector<int64_t> GridContract::getShape() const {
  SmallVector<int64_t> shape{tp};
  if (hasUlyssesAxis())
    shape.append({cp / ulysses, ulysses});
  else if (hasRingAxis())
    shape.push_back(cp);
  return shape;
}

shard::GridOp GridContract::create(ModuleOp module, StringRef name) const {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto grid = shard::GridOp::create(b, module.getLoc(), name, getShape());
  grid.setPrivate();
  return grid;
}
