//===- SeqParCollectives.cpp - async and memref-level collectives ---------===//
//
// Verifiers of the asynchronous tensor collectives (`seqpar.*_start`,
// `seqpar.wait`), the memref-level collectives and `!seqpar.request`.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::seqpar;

#define GET_TYPEDEF_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOpsTypes.cpp.inc"

void SeqParDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "seqpar/Dialect/SeqPar/IR/SeqParOpsTypes.cpp.inc"
      >();
}

LogicalResult RequestType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ShapedType valueType) {
  if (!isa<RankedTensorType, MemRefType>(valueType))
    return emitError() << "a request holds a ranked tensor or a memref, got "
                       << valueType;
  return success();
}

int64_t mlir::seqpar::getGroupSize(shard::GridOp grid,
                                   ArrayRef<int16_t> gridAxes) {
  ArrayRef<int64_t> shape = grid.getShape();
  int64_t size = 1;
  for (int16_t axis : gridAxes) {
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()) ||
        ShapedType::isDynamic(shape[axis]))
      return -1;
    size *= shape[axis];
  }
  return size;
}

int32_t mlir::seqpar::getRuntimeDType(Type type) {
  if (type.isF32())
    return 0;
  if (type.isF16())
    return 1;
  if (type.isBF16())
    return 2;
  if (type.isSignlessInteger(32))
    return 3;
  if (type.isSignlessInteger(64))
    return 4;
  // i1 is stored one byte per element, as i8.
  if (type.isSignlessInteger(8) || type.isSignlessInteger(1))
    return 5;
  return -1;
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// The shape relation a collective imposes between its input and output.
enum class Relation { Gather, Scatter, Same, AllToAll };
} // namespace

/// Checks what needs no symbol: element types, ranks, axes within the rank,
/// distinct grid axes, and the reduction kind. Dynamic dims are allowed here
/// (the lowering to the runtime refuses them with a located error).
static LogicalResult verifyLocal(Operation *op, ShapedType in, ShapedType out,
                                 ArrayRef<int16_t> gridAxes,
                                 ArrayRef<int64_t> tensorAxes,
                                 std::optional<shard::ReductionKind> reduction) {
  if (in.getElementType() != out.getElementType())
    return op->emitOpError("input element type ")
           << in.getElementType() << " differs from the result's "
           << out.getElementType();
  if (in.getRank() != out.getRank())
    return op->emitOpError("input rank ")
           << in.getRank() << " differs from the result's " << out.getRank();
  for (int64_t axis : tensorAxes)
    if (axis < 0 || axis >= in.getRank())
      return op->emitOpError("tensor axis ")
             << axis << " is out of range for rank " << in.getRank();
  llvm::SmallSet<int16_t, 4> seen;
  for (int16_t axis : gridAxes) {
    if (axis < 0)
      return op->emitOpError("grid axis ") << axis << " is negative";
    if (!seen.insert(axis).second)
      return op->emitOpError("grid axis ") << axis << " appears twice";
  }
  if (reduction && *reduction != shard::ReductionKind::Sum &&
      *reduction != shard::ReductionKind::Max &&
      *reduction != shard::ReductionKind::Min)
    return op->emitOpError("reduction must be sum, max or min, got ")
           << shard::stringifyReductionKind(*reduction);
  return success();
}

/// Checks the grid and the shape relation for a group of the grid's size.
static LogicalResult verifyWithGrid(Operation *op, FlatSymbolRefAttr gridName,
                                    ArrayRef<int16_t> gridAxes, ShapedType in,
                                    ShapedType out, Relation relation,
                                    int64_t axis, int64_t axis2,
                                    SymbolTableCollection &symbolTable) {
  shard::GridOp grid = shard::getGridOrNull(op, gridName, symbolTable);
  if (!grid)
    return op->emitOpError("grid ")
           << gridName << " is not a shard.grid visible here";
  for (int16_t axis : gridAxes)
    if (axis >= grid.getRank())
      return op->emitOpError("grid axis ")
             << axis << " is out of range for " << gridName << " of rank "
             << grid.getRank();
  int64_t t = getGroupSize(grid, gridAxes);
  if (t < 0)
    return op->emitOpError("grid ")
           << gridName << " has a dynamic extent on the grid axes";
  SmallVector<int64_t> expected(in.getShape());
  auto scale = [&](int64_t dim, bool divide) {
    if (ShapedType::isDynamic(expected[dim]))
      return;
    expected[dim] = divide ? expected[dim] / t : expected[dim] * t;
  };
  auto divisible = [&](int64_t dim) {
    return ShapedType::isDynamic(expected[dim]) || expected[dim] % t == 0;
  };
  switch (relation) {
  case Relation::Same:
    break;
  case Relation::Gather:
    scale(axis, false);
    break;
  case Relation::Scatter:
    if (!divisible(axis))
      return op->emitOpError("input dim ")
             << axis << " of size " << expected[axis]
             << " is not divisible by the group size " << t;
    scale(axis, true);
    break;
  case Relation::AllToAll:
    if (!divisible(axis))
      return op->emitOpError("input dim ")
             << axis << " of size " << expected[axis]
             << " is not divisible by the group size " << t;
    scale(axis, true);
    scale(axis2, false);
    break;
  }
  bool matches = true;
  for (auto [want, got] : llvm::zip_equal(expected, out.getShape()))
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(got) &&
        want != got)
      matches = false;
  if (!matches)
    return op->emitOpError("result shape [")
           << out.getShape() << "] does not match the input shape ["
           << in.getShape() << "] for a group of " << t << " ranks: expected ["
           << ArrayRef<int64_t>(expected) << "]";
  return success();
}

/// The per-op facts both verifiers need.
struct CollectiveInfo {
  ShapedType in, out;
  Relation relation;
  int64_t axis = 0, axis2 = 0;
  std::optional<shard::ReductionKind> reduction;
};

template <typename OpT>
static CollectiveInfo getInfo(OpT op, ShapedType in, ShapedType out) {
  CollectiveInfo info{in, out, Relation::Same, 0, 0, std::nullopt};
  Operation *raw = op.getOperation();
  if (auto a = raw->getAttrOfType<IntegerAttr>("gather_axis")) {
    info.relation = Relation::Gather;
    info.axis = a.getInt();
  } else if (auto a = raw->getAttrOfType<IntegerAttr>("scatter_axis")) {
    info.relation = Relation::Scatter;
    info.axis = a.getInt();
  } else if (auto a = raw->getAttrOfType<IntegerAttr>("split_axis")) {
    info.relation = Relation::AllToAll;
    info.axis = a.getInt();
    info.axis2 = raw->getAttrOfType<IntegerAttr>("concat_axis").getInt();
  }
  if (auto r = raw->getAttrOfType<shard::ReductionKindAttr>("reduction"))
    info.reduction = r.getValue();
  return info;
}

template <typename OpT>
static LogicalResult verifyCollective(OpT op, ShapedType in, ShapedType out) {
  CollectiveInfo info = getInfo(op, in, out);
  SmallVector<int64_t, 2> axes;
  if (info.relation != Relation::Same)
    axes.push_back(info.axis);
  if (info.relation == Relation::AllToAll)
    axes.push_back(info.axis2);
  return verifyLocal(op, in, out, op.getGridAxes(), axes, info.reduction);
}

template <typename OpT>
static LogicalResult verifyCollectiveSymbols(OpT op, ShapedType in,
                                             ShapedType out,
                                             SymbolTableCollection &table) {
  CollectiveInfo info = getInfo(op, in, out);
  return verifyWithGrid(op, op.getGridAttr(), op.getGridAxes(), in, out,
                        info.relation, info.axis, info.axis2, table);
}

//===----------------------------------------------------------------------===//
// Tensor-level start ops and wait
//===----------------------------------------------------------------------===//

/// A start op's request must have one use: a seqpar.wait in the same block.
static LogicalResult verifyStart(Operation *op, Value request) {
  if (!request.hasOneUse())
    return op->emitOpError("request must have exactly one use (a seqpar.wait "
                           "in the same block), it has ")
           << std::distance(request.use_begin(), request.use_end());
  Operation *user = *request.user_begin();
  if (!isa<WaitOp>(user) || user->getBlock() != op->getBlock())
    return op->emitOpError("request must be used by a seqpar.wait in the "
                           "same block");
  return success();
}

#define SEQPAR_START_VERIFIERS(OpT)                                            \
  LogicalResult OpT::verify() {                                                \
    auto out = cast<RequestType>(getRequest().getType()).getValueType();       \
    if (failed(verifyCollective(*this, getInput().getType(), out)))           \
      return failure();                                                        \
    return verifyStart(getOperation(), getRequest());                          \
  }                                                                            \
  LogicalResult OpT::verifySymbolUses(SymbolTableCollection &table) {          \
    auto out = cast<RequestType>(getRequest().getType()).getValueType();       \
    return verifyCollectiveSymbols(*this, getInput().getType(), out, table);   \
  }

SEQPAR_START_VERIFIERS(AllGatherStartOp)
SEQPAR_START_VERIFIERS(ReduceScatterStartOp)
SEQPAR_START_VERIFIERS(AllReduceStartOp)
SEQPAR_START_VERIFIERS(AllToAllStartOp)
SEQPAR_START_VERIFIERS(ShiftStartOp)
#undef SEQPAR_START_VERIFIERS

LogicalResult WaitOp::verify() {
  Operation *def = getRequest().getDefiningOp();
  if (!def || !isa<AllGatherStartOp, ReduceScatterStartOp, AllReduceStartOp,
                   AllToAllStartOp, ShiftStartOp>(def) ||
      def->getBlock() != getOperation()->getBlock())
    return emitOpError("request must come from a seqpar.*_start op in the "
                       "same block");
  return success();
}

//===----------------------------------------------------------------------===//
// Memref-level collectives
//===----------------------------------------------------------------------===//

/// A request result, when present, carries the output's memref type.
static LogicalResult verifyRequestMatches(Operation *op, Value request,
                                          Type output) {
  if (!request)
    return success();
  Type held = cast<RequestType>(request.getType()).getValueType();
  if (held != output)
    return op->emitOpError("request type holds ")
           << held << " but the output buffer is " << output;
  return success();
}

#define SEQPAR_MEMREF_VERIFIERS(OpT)                                           \
  LogicalResult OpT::verify() {                                                \
    if (failed(verifyCollective(*this, getInput().getType(),                  \
                                getOutput().getType())))                       \
      return failure();                                                        \
    return verifyRequestMatches(getOperation(), getRequest(),                  \
                                getOutput().getType());                        \
  }                                                                            \
  LogicalResult OpT::verifySymbolUses(SymbolTableCollection &table) {          \
    return verifyCollectiveSymbols(*this, getInput().getType(),                \
                                   getOutput().getType(), table);              \
  }

SEQPAR_MEMREF_VERIFIERS(MemRefAllGatherOp)
SEQPAR_MEMREF_VERIFIERS(MemRefReduceScatterOp)
SEQPAR_MEMREF_VERIFIERS(MemRefAllReduceOp)
SEQPAR_MEMREF_VERIFIERS(MemRefAllToAllOp)
SEQPAR_MEMREF_VERIFIERS(MemRefShiftOp)
#undef SEQPAR_MEMREF_VERIFIERS

LogicalResult MemRefWaitOp::verify() {
  return verifyRequestMatches(getOperation(), getRequest(),
                              getOutput().getType());
}
