//===- CostModel.cpp - bytes sent and FLOPs of one op ---------------------===//

#include "seqpar/Report/Activations.h"

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

enum class Kind { AllReduce, AllGather, ReduceScatter, AllToAll, Shift };

/// The collective's kind, grid, axes and input; false for other ops.
bool describe(Operation *op, Kind &kind, FlatSymbolRefAttr &grid,
              ArrayRef<int16_t> &axes, Value &input, int64_t &offset) {
  offset = 0;
  auto set = [&](Kind k, StringRef name, ArrayRef<int16_t> a, Value in) {
    kind = k;
    grid = FlatSymbolRefAttr::get(op->getContext(), name);
    axes = a;
    input = in;
    return true;
  };
  if (auto o = dyn_cast<shard::AllReduceOp>(op))
    return set(Kind::AllReduce, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<shard::AllGatherOp>(op))
    return set(Kind::AllGather, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<shard::ReduceScatterOp>(op))
    return set(Kind::ReduceScatter, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<shard::AllToAllOp>(op))
    return set(Kind::AllToAll, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<AllReduceStartOp>(op))
    return set(Kind::AllReduce, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<AllGatherStartOp>(op))
    return set(Kind::AllGather, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<ReduceScatterStartOp>(op))
    return set(Kind::ReduceScatter, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<AllToAllStartOp>(op))
    return set(Kind::AllToAll, o.getGrid(), o.getGridAxes(), o.getInput());
  if (auto o = dyn_cast<ShiftStartOp>(op)) {
    offset = o.getOffset();
    return set(Kind::Shift, o.getGrid(), o.getGridAxes(), o.getInput());
  }
  return false;
}

constexpr const char *kKindNames[] = {"all_reduce", "all_gather",
                                      "reduce_scatter", "all_to_all", "send"};

/// Iterations of the scf.for loops around `op` (static bounds), or 1.
int64_t tripCountAround(Operation *op) {
  int64_t count = 1;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>()) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lb && ub && step && *step > 0 && *ub > *lb)
      count *= (*ub - *lb + *step - 1) / *step;
  }
  return count;
}

/// Float arithmetic ops in a linalg body.
int64_t bodyFlops(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return 0;
  int64_t n = 0;
  for (Operation &inner : body->without_terminator())
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::NegFOp, arith::RemFOp>(inner) ||
        isa<math::MathDialect>(inner.getDialect()))
      ++n;
  return n;
}

} // namespace

std::optional<CollectiveCost> mlir::seqpar::collectiveCost(Operation *op) {
  Kind kind;
  FlatSymbolRefAttr gridName;
  ArrayRef<int16_t> axes;
  Value input;
  int64_t offset;
  if (!describe(op, kind, gridName, axes, input, offset))
    return std::nullopt;
  auto grid = dyn_cast_or_null<shard::GridOp>(
      SymbolTable::lookupNearestSymbolFrom(op, gridName));
  int64_t t = grid ? getGroupSize(grid, axes) : -1;
  CollectiveCost cost;
  cost.kind = kKindNames[static_cast<int>(kind)];
  std::string text = "[";
  for (auto [i, axis] : llvm::enumerate(axes))
    text += (i ? "," : "") + std::to_string(axis);
  cost.axes = text + "]";
  // A group of one rank communicates nothing (the runtime copies, and
  // counts no call).
  if (t == 1)
    return std::nullopt;
  if (t < 1)
    return cost;
  // The runtime's counting (runtime/lib/Layout.cpp ringBytesSent), with N
  // the all-gather's output or the others' input.
  __int128 n = tensorBytes(input.getType());
  switch (kind) {
  case Kind::AllReduce:
    cost.bytes = static_cast<int64_t>(2 * n * (t - 1) / t);
    break;
  case Kind::AllGather:
    cost.bytes = static_cast<int64_t>(n * t * (t - 1) / t);
    break;
  case Kind::ReduceScatter:
  case Kind::AllToAll:
    cost.bytes = static_cast<int64_t>(n * (t - 1) / t);
    break;
  case Kind::Shift:
    cost.bytes = offset % t == 0 ? 0 : static_cast<int64_t>(n);
    break;
  }
  return cost;
}

std::optional<OpFlops> mlir::seqpar::opFlops(Operation *op) {
  OpFlops result;
  int64_t trips = tripCountAround(op);
  auto attentionFlops = [&](Value q, Value k) -> std::optional<OpFlops> {
    auto qt = cast<RankedTensorType>(q.getType());
    auto kt = cast<RankedTensorType>(k.getType());
    if (!qt.hasStaticShape() || !kt.hasStaticShape())
      return std::nullopt;
    // 4 * b * a * s_q * s_kv * d: Q.K^T and P.V.
    result.kind = "attention";
    result.flops = 4 * qt.getDimSize(0) * qt.getDimSize(1) * qt.getDimSize(2) *
                   kt.getDimSize(2) * qt.getDimSize(3) * trips;
    return result;
  };
  if (auto attention = dyn_cast<AttentionOp>(op))
    return attentionFlops(attention.getQuery(), attention.getKey());
  if (auto block = dyn_cast<AttentionBlockOp>(op))
    return attentionFlops(block.getQuery(), block.getKey());
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return std::nullopt;
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  int64_t space = 1;
  for (int64_t range : ranges) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    space *= range;
  }
  if (isPlainContraction(linalgOp)) {
    result.kind = "matmul";
    result.flops = 2 * space * trips;
    return result;
  }
  int64_t perPoint = bodyFlops(linalgOp);
  if (perPoint == 0)
    return std::nullopt;
  result.kind =
      linalgOp.getNumReductionLoops() > 0 ? "reduction" : "elementwise";
  result.flops = perPoint * space * trips;
  return result;
}
