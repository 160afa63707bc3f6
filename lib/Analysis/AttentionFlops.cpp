//===- AttentionFlops.cpp - FLOPs of the seqpar attention ops -------------===//

#include "seqpar/Analysis/AttentionFlops.h"

#include "seqpar/Analysis/ByteCounts.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// What the FLOP count reads off an attention op.
struct AttentionShape {
  /// Contractions' FLOPs per (query, key, feature) point.
  int64_t perPoint = 0;
  int64_t b = 0, a = 0, s = 0, t = 0, d = 0;
  bool causal = false;
  /// Global positions of a block's queries and keys; null for whole ops.
  Value qPositions, kvPositions;
};

std::optional<AttentionShape> readShape(Operation *op) {
  auto shape =
      llvm::TypeSwitch<Operation *, std::optional<AttentionShape>>(op)
          .Case([](AttentionOp o) {
            return AttentionShape{4, 0, 0, 0, 0, 0, o.getCausal(), {}, {}};
          })
          .Case([](AttentionBackwardOp o) {
            // The LSE recomputed (Q.K^T) unless the forward's is read.
            int64_t perPoint = o.getForwardAttention() ? 10 : 12;
            return AttentionShape{perPoint,      0,  0, 0, 0, 0,
                                  o.getCausal(), {}, {}};
          })
          .Case([](AttentionBlockOp o) {
            return AttentionShape{4,           0, 0, 0, 0, 0, o.getCausal(),
                                  o.getQPositions(), o.getKvPositions()};
          })
          .Case([](AttentionBlockBackwardOp o) {
            return AttentionShape{10,          0, 0, 0, 0, 0, o.getCausal(),
                                  o.getQPositions(), o.getKvPositions()};
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!shape)
    return std::nullopt;
  // The query and key are the first two operands of every attention op.
  auto q = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto k = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!q || !k || !q.hasStaticShape() || !k.hasStaticShape() ||
      q.getRank() != 4 || k.getRank() != 4)
    return std::nullopt;
  shape->b = q.getDimSize(0);
  shape->a = q.getDimSize(1);
  shape->s = q.getDimSize(2);
  shape->t = k.getDimSize(2);
  shape->d = q.getDimSize(3);
  return shape;
}

/// Pairs with kv <= q (unsigned, as the causal rule compares) of two
/// constant position vectors; none when either is not a constant.
std::optional<int64_t> countConstantPairs(Value qPositions,
                                          Value kvPositions) {
  DenseIntElementsAttr q, kv;
  if (!matchPattern(qPositions, m_Constant(&q)) ||
      !matchPattern(kvPositions, m_Constant(&kv)))
    return std::nullopt;
  SmallVector<uint64_t> keys;
  for (const APInt &key : kv)
    keys.push_back(key.getZExtValue());
  llvm::sort(keys);
  int64_t pairs = 0;
  for (const APInt &query : q)
    pairs += std::upper_bound(keys.begin(), keys.end(), query.getZExtValue()) -
             keys.begin();
  return pairs;
}

std::optional<int64_t> keptPairs(const AttentionShape &shape) {
  if (!shape.causal)
    return llvm::checkedMul(shape.s, shape.t);
  // Distinct positions, the same on both sides: the i-th smallest query
  // keeps the i smallest keys.
  if (!shape.qPositions || shape.qPositions == shape.kvPositions) {
    std::optional<int64_t> twice = llvm::checkedMul(shape.s, shape.s + 1);
    return twice ? std::optional<int64_t>(*twice / 2) : std::nullopt;
  }
  return countConstantPairs(shape.qPositions, shape.kvPositions);
}

} // namespace

std::optional<int64_t> mlir::seqpar::getKeptPairs(Operation *op) {
  std::optional<AttentionShape> shape = readShape(op);
  return shape ? keptPairs(*shape) : std::nullopt;
}

SmallVector<int64_t, 5> mlir::seqpar::getAttentionFlopFactors(Operation *op) {
  std::optional<AttentionShape> shape = readShape(op);
  if (!shape)
    return {};
  // Where only the run time knows the kept pairs, every pair: a bound.
  std::optional<int64_t> pairs = keptPairs(*shape);
  if (!pairs)
    pairs = llvm::checkedMul(shape->s, shape->t);
  if (!pairs)
    return {};
  return {shape->perPoint, shape->b, shape->a, shape->d, *pairs};
}

std::optional<int64_t> mlir::seqpar::getAttentionFlops(Operation *op) {
  SmallVector<int64_t, 5> factors = getAttentionFlopFactors(op);
  if (factors.empty())
    return std::nullopt;
  return checkedProduct(factors);
}

std::optional<int64_t> mlir::seqpar::getAttentionFlopsPerPair(Operation *op) {
  std::optional<AttentionShape> shape = readShape(op);
  if (!shape)
    return std::nullopt;
  return checkedProduct({shape->perPoint, shape->b, shape->a, shape->d});
}
