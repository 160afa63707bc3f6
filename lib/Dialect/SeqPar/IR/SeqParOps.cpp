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

LogicalResult AttentionOp::verify() {
  auto q = cast<RankedTensorType>(getQuery().getType());
  auto k = cast<RankedTensorType>(getKey().getType());
  auto v = cast<RankedTensorType>(getValue().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{"query", q},
                            {"key", k}, {"value", v}, {"result", out}}) {
    if (type.getRank() != 4 || !type.hasStaticShape())
      return emitOpError() << name << " must be a static rank-4 tensor "
                           << "[b, heads, seq, head_dim], got " << type;
    if (type.getElementType() != q.getElementType() ||
        !isa<FloatType>(type.getElementType()))
      return emitOpError() << name << " must have query's floating-point "
                           << "element type, got " << type;
  }
  if (k.getShape() != v.getShape())
    return emitOpError() << "key " << k << " and value " << v
                         << " must have the same shape";
  if (out != q)
    return emitOpError() << "result " << out << " must have query's type " << q;
  int64_t heads = q.getDimSize(1), kvHeads = k.getDimSize(1);
  if (q.getDimSize(0) != k.getDimSize(0) || q.getDimSize(3) != k.getDimSize(3))
    return emitOpError() << "query " << q << " and key " << k
                         << " differ in batch or head dim";
  if (kvHeads < 1 || heads % kvHeads != 0)
    return emitOpError() << "key/value heads (" << kvHeads
                         << ") must divide query heads (" << heads << ")";
  if (getCausal() && q.getDimSize(2) != k.getDimSize(2))
    return emitOpError() << "causal attention needs as many keys ("
                         << k.getDimSize(2) << ") as queries ("
                         << q.getDimSize(2) << ")";
  if (Value mask = getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    int64_t full[] = {q.getDimSize(0), heads, q.getDimSize(2), k.getDimSize(2)};
    bool ok = m.getRank() == 4 && m.getElementType() == q.getElementType();
    for (int64_t d = 0; ok && d < 4; ++d)
      ok = m.getDimSize(d) == 1 || m.getDimSize(d) == full[d];
    if (!ok)
      return emitOpError() << "mask " << m << " must broadcast to ["
                           << full[0] << ", " << full[1] << ", " << full[2]
                           << ", " << full[3] << "] of " << q.getElementType();
  }
  return success();
}

#define GET_OP_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOps.cpp.inc"
