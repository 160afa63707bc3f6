//===- GridContract.cpp - the axes of seqpar's TP x CP grid ---------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
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

FailureOr<shard::GridOp> GridContract::lookupOrCreate(ModuleOp module,
                                                      bool &created,
                                                      StringRef name) const {
  // The errors read as they did when the TP planner made this grid
  // ("tensor parallelism: cp=0 ...").
  constexpr llvm::StringLiteral prefix =
      "grid for context and tensor parallelism: ";
  created = false;
  if (std::string why = whyInvalid(); !why.empty())
    return emitError(module.getLoc()) << prefix << why;
  Operation *existing = SymbolTable::lookupSymbolIn(module, name);
  if (!existing) {
    created = true;
    return create(module, name);
  }
  SmallVector<int64_t> shape = getShape();
  auto grid = dyn_cast<shard::GridOp>(existing);
  if (grid && grid.getShape() == ArrayRef<int64_t>(shape))
    return grid;
  InFlightDiagnostic diag = emitError(existing->getLoc())
                            << prefix << "the module's @" << name;
  if (grid)
    diag << " has shape " << formatShape(grid.getShape());
  else
    diag << " is a '" << existing->getName() << "'";
  diag << ", but tp=" << tp << " cp=" << cp << " cp-ulysses=" << ulysses
       << " make the grid " << formatShape(shape);
  return diag;
}
