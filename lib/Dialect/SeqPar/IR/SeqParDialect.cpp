//===- SeqParDialect.cpp - seqpar dialect ---------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::seqpar;

#include "seqpar/Dialect/SeqPar/IR/SeqParOpsDialect.cpp.inc"

namespace {
/// Every seqpar op may be inlined: none reads its enclosing function (the
/// grid is a module-level symbol), and the dropout regions are isolated from
/// above and only ever inlined with their op. Without it MLIR's inliner
/// leaves every call to a function holding a seqpar op in place.
struct SeqParInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void SeqParDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "seqpar/Dialect/SeqPar/IR/SeqParOps.cpp.inc"
      >();
  addInterfaces<SeqParInlinerInterface>();
}

/// Verifies a `seqpar.*` attribute attached to a function argument or result
/// of type `type`. `isArg` enables the argument-only attributes.
static LogicalResult verifyFunctionAttr(Operation *op, NamedAttribute attr,
                                        Type type, bool isArg,
                                        StringRef where) {
  auto emit = [&]() {
    return op->emitOpError() << where << " attribute '"
                             << attr.getName().getValue() << "': ";
  };
  if (attr.getName() == SeqParDialect::kShardingAttrName) {
    auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
    if (!sharding)
      return emit() << "expected a #seqpar.sharding attribute";
    return verifyShardingForValue(sharding, type, op, emit);
  }
  if (isArg && attr.getName() == SeqParDialect::kSeqDimAttrName) {
    auto dim = dyn_cast<IntegerAttr>(attr.getValue());
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!dim || !tensor)
      return emit() << "expected an integer on a ranked tensor argument";
    if (dim.getInt() < 0 || dim.getInt() >= tensor.getRank())
      return emit() << "sequence dim " << dim.getInt()
                    << " is out of range for " << type;
    return success();
  }
  if (attr.getName() == SeqParDialect::kKVCacheAttrName) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!isa<UnitAttr>(attr.getValue()) || !tensor || tensor.getRank() != 4)
      return emit() << "expected a unit attribute on a [b, a_kv, L_max, d] "
                       "tensor";
    return success();
  }
  return emit() << "unknown seqpar attribute";
}

LogicalResult SeqParDialect::verifyRegionArgAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  // Declarations have no entry block: take the type from the signature.
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op)) {
    if (argIndex < func.getArgumentTypes().size())
      type = func.getArgumentTypes()[argIndex];
  } else if (regionIndex < op->getNumRegions() &&
             !op->getRegion(regionIndex).empty() &&
             argIndex < op->getRegion(regionIndex).getNumArguments()) {
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  }
  if (!type)
    return op->emitOpError() << "seqpar attribute on a missing argument";
  return verifyFunctionAttr(op, attr, type, /*isArg=*/true,
                            ("argument #" + Twine(argIndex)).str());
}

LogicalResult SeqParDialect::verifyRegionResultAttribute(Operation *op,
                                                         unsigned regionIndex,
                                                         unsigned resultIndex,
                                                         NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || resultIndex >= func.getResultTypes().size())
    return op->emitOpError() << "seqpar attribute on a missing result";
  return verifyFunctionAttr(op, attr, func.getResultTypes()[resultIndex],
                            /*isArg=*/false,
                            ("result #" + Twine(resultIndex)).str());
}

LogicalResult SeqParDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() != kSequenceBlockAttrName)
    return success();
  auto emit = [&]() {
    return op->emitOpError() << "attribute '" << kSequenceBlockAttrName
                             << "': ";
  };
  auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  if (!values || values.size() != 3)
    return emit() << "expected array<i64: dim, tokens, inner>";
  if (op->getNumResults() != 1)
    return emit() << "expected an op with one result";
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  int64_t dim = values[0], tokens = values[1], inner = values[2];
  if (!type || dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return emit() << "dim " << dim << " is not a static dim of "
                  << op->getResult(0).getType();
  if (tokens <= 0 || inner <= 0 ||
      type.getDimSize(dim) % (tokens * inner) != 0)
    return emit() << tokens << " tokens of " << inner
                  << " rows do not tile dim " << dim << " of " << type;
  return success();
}
