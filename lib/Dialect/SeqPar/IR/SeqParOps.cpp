//===- SeqParOps.cpp - seqpar operations ----------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::seqpar;

LogicalResult DropoutOp::verify() {
  double rate = getRate().convertToDouble();
  if (!(rate >= 0.0 && rate < 1.0))
    return emitOpError() << "rate must be in [0, 1), got " << rate;
  auto type = cast<RankedTensorType>(getInput().getType());
  if (!type.hasStaticShape())
    return emitOpError() << "requires a static shape, got " << type;
  if (!isa<FloatType>(type.getElementType()))
    return emitOpError() << "requires a floating-point element type, got "
                         << type.getElementType();
  if (!getOffsets().empty() &&
      static_cast<int64_t>(getOffsets().size()) != type.getRank())
    return emitOpError() << "expects " << type.getRank()
                         << " offsets (one per dim), got "
                         << getOffsets().size();
  if (std::optional<ArrayRef<int64_t>> global = getGlobalShape()) {
    if (getOffsets().empty())
      return emitOpError() << "global_shape requires offsets";
    if (static_cast<int64_t>(global->size()) != type.getRank())
      return emitOpError() << "global_shape has " << global->size()
                           << " dims, expected " << type.getRank();
    for (auto [dim, size] : llvm::enumerate(*global))
      if (size < type.getDimSize(dim))
        return emitOpError() << "global_shape dim " << dim << " (" << size
                             << ") is smaller than the local size "
                             << type.getDimSize(dim);
  }
  return success();
}

#define GET_OP_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOps.cpp.inc"
