//===- CostModel.cpp - bytes sent and FLOPs of one op ---------------------===//

#include "seqpar/Analysis/Activations.h"

#include "seqpar/Analysis/AttentionFlops.h"
#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/TripCount.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Report/Report.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The collective's kind, grid, axes and input; false for other ops.
bool describe(Operation *op, CollectiveKind &kind, FlatSymbolRefAttr &grid,
              ArrayRef<int16_t> &axes, Value &input, int64_t &offset) {
  offset = 0;
  auto set = [&](CollectiveKind k, StringRef name, ArrayRef<int16_t> a,
                 Value in) {
    kind = k;
    grid = FlatSymbolRefAttr::get(op->getContext(), name);
    axes = a;
    input = in;
    return true;
  };
  if (auto o = dyn_cast<shard::AllReduceOp>(op))
    return set(CollectiveKind::AllReduce, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<shard::AllGatherOp>(op))
    return set(CollectiveKind::AllGather, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<shard::ReduceScatterOp>(op))
    return set(CollectiveKind::ReduceScatter, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<shard::AllToAllOp>(op))
    return set(CollectiveKind::AllToAll, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<AllReduceStartOp>(op))
    return set(CollectiveKind::AllReduce, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<AllGatherStartOp>(op))
    return set(CollectiveKind::AllGather, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<ReduceScatterStartOp>(op))
    return set(CollectiveKind::ReduceScatter, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<AllToAllStartOp>(op))
    return set(CollectiveKind::AllToAll, o.getGrid(), o.getGridAxes(),
               o.getInput());
  if (auto o = dyn_cast<ShiftStartOp>(op)) {
    offset = o.getOffset();
    return set(CollectiveKind::Shift, o.getGrid(), o.getGridAxes(),
               o.getInput());
  }
  return false;
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
        isa_and_nonnull<math::MathDialect>(inner.getDialect()))
      ++n;
  return n;
}

} // namespace

std::optional<CollectiveCost> mlir::seqpar::collectiveCost(Operation *op) {
  CollectiveKind kind;
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
  std::optional<int64_t> trips = getTripCountAround(op);
  cost.calls = trips.value_or(0);
  cost.fits = trips.has_value();
  cost.kind = getCollectiveKindName(kind);
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
  // N is the all-gather's output, the others' input (the runtime's counters'
  // convention).
  std::optional<int64_t> n = checkedBytes(input.getType());
  if (n && kind == CollectiveKind::AllGather)
    n = llvm::checkedMul(*n, t);
  std::optional<int64_t> bytes =
      n ? getBytesSent(kind, *n, t, offset) : std::nullopt;
  if (bytes && trips)
    bytes = llvm::checkedMul(*bytes, *trips);
  cost.fits = trips && bytes;
  cost.bytes = bytes.value_or(0);
  return cost;
}

std::optional<OpFlops> mlir::seqpar::opFlops(Operation *op) {
  OpFlops result;
  std::optional<int64_t> trips = getTripCountAround(op);
  auto count = [&](StringRef kind,
                   ArrayRef<int64_t> factors) -> std::optional<OpFlops> {
    SmallVector<int64_t> all(factors);
    all.push_back(trips.value_or(0));
    std::optional<int64_t> flops = checkedProduct(all);
    result.kind = kind.str();
    result.fits = trips && flops;
    result.flops = flops.value_or(0);
    return result;
  };
  if (isa<AttentionOp, AttentionBlockOp, AttentionBackwardOp,
          AttentionBlockBackwardOp>(op)) {
    SmallVector<int64_t, 5> factors = getAttentionFlopFactors(op);
    if (factors.empty())
      return std::nullopt;
    return count(isa<AttentionOp, AttentionBlockOp>(op) ? "attention"
                                                        : "attention_backward",
                 factors);
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return std::nullopt;
  SmallVector<int64_t> space = linalgOp.getStaticLoopRanges();
  if (llvm::any_of(space, ShapedType::isDynamic))
    return std::nullopt;
  if (isLinearContraction(linalgOp)) {
    space.push_back(2);
    return count("matmul", space);
  }
  int64_t perPoint = bodyFlops(linalgOp);
  if (perPoint == 0)
    return std::nullopt;
  space.push_back(perPoint);
  return count(
      linalgOp.getNumReductionLoops() > 0 ? "reduction" : "elementwise", space);
}
