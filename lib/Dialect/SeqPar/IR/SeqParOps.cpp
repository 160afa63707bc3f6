//===- SeqParOps.cpp - seqpar operations ----------------------------------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
        return emitOpError()
               << "global_shape dim " << dim << " (" << size
               << ") is smaller than the local size " << type.getDimSize(dim);
  }
  return success();
}

/// Checks query/key/value/result of an attention op ([b, a, s, d],
/// [b, a_kv, s_kv, d] twice, result = query's type).
/// Shapes and types shared by the attention ops; the result has the query's
/// shape, and its type (or f32 when `f32Result`: a block's partial output).
static LogicalResult verifyAttentionOperands(Operation *op, Value query,
                                             Value key, Value value,
                                             Value result, bool f32Result) {
  auto emitOpError = [&]() { return op->emitOpError(); };
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  auto v = cast<RankedTensorType>(value.getType());
  auto out = cast<RankedTensorType>(result.getType());
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{"query", q},
                            {"key", k},
                            {"value", v},
                            {"result", out}}) {
    if (type.getRank() != 4 || !type.hasStaticShape())
      return emitOpError() << name << " must be a static rank-4 tensor "
                           << "[b, heads, seq, head_dim], got " << type;
    // The result's element type is checked against `want` below.
    if (name != "result" && (type.getElementType() != q.getElementType() ||
                             !isa<FloatType>(type.getElementType())))
      return emitOpError() << name << " must have query's floating-point "
                           << "element type, got " << type;
  }
  if (k.getShape() != v.getShape())
    return emitOpError() << "key " << k << " and value " << v
                         << " must have the same shape";
  RankedTensorType want =
      f32Result ? q.clone(Float32Type::get(op->getContext())) : q;
  if (out != want)
    return emitOpError() << "result " << out << " must be " << want;
  int64_t heads = q.getDimSize(1), kvHeads = k.getDimSize(1);
  if (q.getDimSize(0) != k.getDimSize(0) || q.getDimSize(3) != k.getDimSize(3))
    return emitOpError() << "query " << q << " and key " << k
                         << " differ in batch or head dim";
  // heads >= 1 too: the K/V head a query head reads is h / (heads / kvHeads).
  if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0)
    return emitOpError() << "key/value heads (" << kvHeads
                         << ") must divide query heads (" << heads
                         << "), both at least 1";
  return success();
}

/// An additive mask: rank 4, the query's element type, each dim 1 or `full`.
static LogicalResult verifyMask(Operation *op, Value mask, RankedTensorType q,
                                ArrayRef<int64_t> full) {
  auto m = cast<RankedTensorType>(mask.getType());
  bool ok = m.getRank() == 4 && m.getElementType() == q.getElementType();
  for (int64_t d = 0; ok && d < 4; ++d)
    ok = m.getDimSize(d) == 1 || m.getDimSize(d) == full[d];
  if (!ok)
    return op->emitOpError()
           << "mask " << m << " must broadcast to [" << full[0] << ", "
           << full[1] << ", " << full[2] << ", " << full[3] << "] of "
           << q.getElementType();
  return success();
}

/// The attention ops' dropout: an empty region, or one block of four index
/// arguments (batch, head, query, key) ending in seqpar.yield of the
/// multiplier in the query's element type, with no side effects inside;
/// `head_offset` only with a region.
static LogicalResult verifyDropout(Operation *op, Region &dropout,
                                   Value headOffset, RankedTensorType q) {
  if (dropout.empty()) {
    if (headOffset)
      return op->emitOpError() << "head_offset requires a dropout region";
    return success();
  }
  Block &body = dropout.front();
  if (body.getNumArguments() != 4 ||
      llvm::any_of(body.getArgumentTypes(),
                   [](Type t) { return !t.isIndex(); }))
    return op->emitOpError()
           << "dropout region must take four index arguments (batch, head, "
              "query, key), got "
           << body.getNumArguments();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValue().getType() != q.getElementType())
    return op->emitOpError()
           << "dropout region must end in seqpar.yield of the keep "
              "multiplier, of the query's element type "
           << q.getElementType();
  WalkResult effects = dropout.walk([&](Operation *nested) {
    if (isMemoryEffectFree(nested))
      return WalkResult::advance();
    op->emitOpError() << "dropout region must be free of side effects (a "
                         "function of the coordinates only), but holds '"
                      << nested->getName() << "'";
    return WalkResult::interrupt();
  });
  return failure(effects.wasInterrupted());
}

/// seqpar.attention's checks, shared by its backward: operands, causality
/// (s = s_kv) and the mask; `result` is the output (or query gradient).
static LogicalResult verifyWholeAttention(Operation *op, Value query,
                                          Value key, Value value, Value result,
                                          Value mask, bool causal) {
  if (failed(verifyAttentionOperands(op, query, key, value, result,
                                     /*f32Result=*/false)))
    return failure();
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  if (causal && q.getDimSize(2) != k.getDimSize(2))
    return op->emitOpError() << "causal attention needs as many keys ("
                             << k.getDimSize(2) << ") as queries ("
                             << q.getDimSize(2) << ")";
  if (mask)
    return verifyMask(
        op, mask, q,
        {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2), k.getDimSize(2)});
  return success();
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyWholeAttention(*this, getQuery(), getKey(), getValue(),
                                  getResult(), getMask(), getCausal())))
    return failure();
  return verifyDropout(*this, getDropout(), getHeadOffset(),
                       cast<RankedTensorType>(getQuery().getType()));
}

AttentionOp AttentionBackwardOp::getForwardAttention() {
  auto forward = getOut().getDefiningOp<AttentionOp>();
  if (!forward || forward.getQuery() != getQuery() ||
      forward.getKey() != getKey() || forward.getValue() != getValue() ||
      forward.getMask() != getMask() ||
      forward.getScaleAttr() != getScaleAttr() ||
      forward.getCausal() != getCausal())
    return {};
  return forward;
}

LogicalResult AttentionBackwardOp::verify() {
  // The AllTypesMatch constraints tie out, out_grad and the gradients.
  if (failed(verifyWholeAttention(*this, getQuery(), getKey(), getValue(),
                                  getQueryGrad(), getMask(), getCausal())))
    return failure();
  return verifyDropout(*this, getDropout(), getHeadOffset(),
                       cast<RankedTensorType>(getQuery().getType()));
}

/// f32 [b, a, s] for a query [b, a, s, d].
static bool isRowStatsTypeOf(Type stats, RankedTensorType out) {
  auto t = dyn_cast<RankedTensorType>(stats);
  return t && t.getElementType().isF32() && t.getRank() == 3 &&
         t.getShape() == out.getShape().drop_back();
}

/// What an attention block's query, key, positions, row statistics and
/// mask must be (`seqpar.attention_block` and its backward).
static LogicalResult verifyBlockOperands(Operation *op, Value query, Value key,
                                         Value qPositions, Value kvPositions,
                                         Value rowMax, Value mask) {
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  if (!q.getElementType().isF32() && !q.getElementType().isBF16() &&
      !q.getElementType().isF16())
    return op->emitOpError()
           << "takes f32, f16 or bf16 query, key and value, got " << q;
  auto checkPositions = [&](Value positions, int64_t size,
                            StringRef name) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(positions.getType());
    if (!t || t.getRank() != 1 || !t.getElementType().isIndex() ||
        t.getDimSize(0) != size)
      return op->emitOpError() << name << " must be tensor<" << size
                               << "xindex>, got " << positions.getType();
    return success();
  };
  if (failed(checkPositions(qPositions, q.getDimSize(2), "q_positions")) ||
      failed(checkPositions(kvPositions, k.getDimSize(2), "kv_positions")))
    return failure();
  if (!isRowStatsTypeOf(rowMax.getType(), q))
    return op->emitOpError()
           << "row_max and row_sum must be f32 [b, a, s] of the query, got "
           << rowMax.getType();
  if (mask)
    return verifyMask(
        op, mask, q,
        {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2), k.getDimSize(2)});
  return success();
}

LogicalResult AttentionBlockOp::verify() {
  if (failed(verifyAttentionOperands(*this, getQuery(), getKey(), getValue(),
                                     getOut(), /*f32Result=*/true)) ||
      failed(verifyBlockOperands(*this, getQuery(), getKey(), getQPositions(),
                                 getKvPositions(), getRowMax(), getMask())))
    return failure();
  return verifyDropout(*this, getDropout(), getHeadOffset(),
                       cast<RankedTensorType>(getQuery().getType()));
}

LogicalResult AttentionBlockBackwardOp::verify() {
  if (failed(verifyAttentionOperands(*this, getQuery(), getKey(), getValue(),
                                     getQueryGrad(), /*f32Result=*/true)) ||
      failed(verifyBlockOperands(*this, getQuery(), getKey(), getQPositions(),
                                 getKvPositions(), getRowMax(), getMask())))
    return failure();
  auto q = cast<RankedTensorType>(getQuery().getType());
  auto k = cast<RankedTensorType>(getKey().getType());
  Type f32 = Float32Type::get(getContext());
  if (getOutGrad().getType() != q)
    return emitOpError() << "out_grad must be " << q << ", got "
                         << getOutGrad().getType();
  if (getOut().getType() != q && getOut().getType() != q.clone(f32))
    return emitOpError() << "out must be " << q << " or " << q.clone(f32)
                         << ", got " << getOut().getType();
  if (getKeyGrad().getType() != k.clone(f32))
    return emitOpError() << "key_grad and value_grad must be " << k.clone(f32)
                         << ", got " << getKeyGrad().getType();
  return verifyDropout(*this, getDropout(), getHeadOffset(), q);
}

LogicalResult AttentionMergeOp::verify() {
  auto out = dyn_cast<RankedTensorType>(getOutA().getType());
  if (!out || out.getRank() != 4 || !out.getElementType().isF32())
    return emitOpError() << "out must be f32 [b, a, s, d], got "
                         << getOutA().getType();
  if (!isRowStatsTypeOf(getMaxA().getType(), out))
    return emitOpError() << "row maxima and sums must be f32 [b, a, s] of "
                            "out, got "
                         << getMaxA().getType();
  return success();
}

void mlir::seqpar::cloneAttentionDropout(Region &from, Region &to) {
  IRMapping mapping;
  from.cloneInto(&to, mapping);
}

bool mlir::seqpar::sameAttentionDropout(Region &a, Region &b) {
  if (a.empty() || b.empty())
    return a.empty() && b.empty();
  return OperationEquivalence::isRegionEquivalentTo(
      &a, &b, OperationEquivalence::IgnoreLocations);
}

#define GET_OP_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOps.cpp.inc"
