//===- RaiseAttention.cpp - written-out attention -> seqpar.attention -----===//
//
// Replaces each attention that AttentionMatch.h recognises with
// seqpar.attention on the tensors holding Q, K (before any GQA repeat) and V,
// transposed to [b, heads, tokens, d] where the program holds them in another
// order. Only the P.V product is replaced; what fed it becomes dead unless
// used elsewhere (canonicalize removes it). A causal mask (additive or a
// select, proven by CausalMask.h, hiding logits at or below -1e8) becomes the
// causal flag; any other additive mask stays an operand. Attention that does
// not match is left as it was, with a remark at the P.V product saying which
// step failed, and every softmax left unraised (linalg.softmax, or the
// written-out forms SoftmaxMatch.h knows) gets a remark. With `backward`,
// the exporter's backward of each raised attention becomes one
// seqpar.attention_backward (AttentionBackwardMatch.h).
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/AttentionBackwardMatch.h"
#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_RAISEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The shape of `h` once transposed to [b, heads, tokens, d].
RankedTensorType headsType(const HeadsOperand &h) {
  auto type = cast<RankedTensorType>(h.value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : h.perm)
    shape.push_back(type.getDimSize(d));
  return type.clone(shape);
}

/// `h` transposed to [b, heads, tokens, d] (itself when already so).
Value materialize(OpBuilder &b, Location loc, const HeadsOperand &h) {
  if (llvm::equal(h.perm, llvm::seq<int64_t>(0, 4)))
    return h.value;
  RankedTensorType type = headsType(h);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::TransposeOp::create(b, loc, h.value, init, h.perm)
      .getResult()[0];
}

/// The [1, 1, s, t] type of an [s, t] or [1, s, t] mask.
RankedTensorType expandedMaskType(Value small) {
  auto type = cast<RankedTensorType>(small.getType());
  ArrayRef<int64_t> shape = type.getShape().take_back(2);
  return type.clone({1, 1, shape[0], shape[1]});
}

/// What seqpar.attention's verifier would refuse, checked before the op is
/// built (Debian's MLIR has no assertions); empty when fine.
std::string checkOperands(RankedTensorType q, RankedTensorType k,
                          RankedTensorType v, RankedTensorType mask) {
  if (k != v || k.getElementType() != q.getElementType() ||
      k.getDimSize(0) != q.getDimSize(0) ||
      k.getDimSize(3) != q.getDimSize(3) ||
      q.getDimSize(1) % k.getDimSize(1) != 0)
    return "Q, K and V do not have attention's shapes";
  if (!mask)
    return "";
  int64_t full[] = {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2),
                    k.getDimSize(2)};
  bool ok = mask.getElementType() == q.getElementType();
  for (int64_t d = 0; ok && d < 4; ++d)
    ok = mask.getDimSize(d) == 1 || mask.getDimSize(d) == full[d];
  return ok ? "" : "the mask does not broadcast to [b, a, s, t]";
}

/// The P.V product's type from the op's [b, a, s, d] result: the same, or
/// with b and a collapsed; empty when it is neither.
std::string checkResult(RankedTensorType q, Type pvType,
                        unsigned numBatchLoops) {
  auto pv = cast<RankedTensorType>(pvType);
  if (numBatchLoops == 2)
    return pv == q ? "" : "P.V's result is not [b, a, s, d]";
  bool ok = pv.getRank() == 3 && pv.getElementType() == q.getElementType() &&
            pv.getDimSize(0) == q.getDimSize(0) * q.getDimSize(1) &&
            pv.getDimSize(1) == q.getDimSize(2) &&
            pv.getDimSize(2) == q.getDimSize(3);
  return ok ? "" : "P.V's result is not [b*a, s, d]";
}

/// `grad` [b, heads, tokens, d] in the layout of `product`'s result:
/// [batch..., m, n] with batch b * heads + h or (b, h), and (m, n) =
/// (tokens, d) or (d, tokens) when transposed. Null when the types differ.
Value inProductLayout(OpBuilder &b, Location loc, Value grad,
                      const AttentionGradProduct &product) {
  if (product.transposed) {
    auto type = cast<RankedTensorType>(grad.getType());
    ArrayRef<int64_t> s = type.getShape();
    Value init = tensor::EmptyOp::create(b, loc, {s[0], s[1], s[3], s[2]},
                                         type.getElementType());
    grad = linalg::TransposeOp::create(b, loc, grad, init,
                                       ArrayRef<int64_t>{0, 1, 3, 2})
               .getResult()[0];
  }
  auto want = cast<RankedTensorType>(product.op->getResult(0).getType());
  auto type = cast<RankedTensorType>(grad.getType());
  if (want.getRank() == 3 && want.getElementType() == type.getElementType() &&
      want.getDimSize(0) == type.getDimSize(0) * type.getDimSize(1) &&
      want.getShape().take_back(2) == type.getShape().take_back(2))
    return tensor::CollapseShapeOp::create(
        b, loc, want, grad,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
  return want == type ? grad : Value();
}

/// The compact `grad` [b, a_kv, tokens, d] in the layout of `product`'s
/// group sum: its dims reordered, unit dims inserted. Null when the types
/// differ.
Value inGroupSumLayout(OpBuilder &b, Location loc, Value grad,
                       const AttentionGradProduct &product) {
  SmallVector<int64_t> perm;
  for (int64_t d : product.groupSumDims)
    if (d >= 0)
      perm.push_back(d);
  auto type = cast<RankedTensorType>(grad.getType());
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, 4))) {
    SmallVector<int64_t> shape;
    for (int64_t d : perm)
      shape.push_back(type.getDimSize(d));
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    grad = linalg::TransposeOp::create(b, loc, grad, init, perm).getResult()[0];
  }
  auto want = cast<RankedTensorType>(product.groupSum->getResult(0).getType());
  if (want.getRank() == 4)
    return want == grad.getType() ? grad : Value();
  // Unit dims join the dim after them (or the last one).
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [r, d] : llvm::enumerate(product.groupSumDims)) {
    pending.push_back(r);
    if (d >= 0) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty())
    groups.back().append(pending.begin(), pending.end());
  if (want.getElementType() != type.getElementType() ||
      tensor::CollapseShapeOp::inferCollapsedType(want, groups) !=
          grad.getType())
    return Value();
  return tensor::ExpandShapeOp::create(b, loc, want, grad, groups);
}

/// The earliest of `ops` in their block; null unless all are in `block`.
Operation *earliestIn(Block *block, ArrayRef<AttentionGradProduct> products) {
  Operation *first = nullptr;
  for (const AttentionGradProduct &p : products) {
    if (p.op->getBlock() != block)
      return nullptr;
    if (!first || p.op->isBeforeInBlock(first))
      first = p.op;
  }
  return first;
}

struct RaiseAttentionPass
    : public mlir::seqpar::impl::RaiseAttentionBase<RaiseAttentionPass> {
  using RaiseAttentionBase::RaiseAttentionBase;
  void runOnOperation() override;
  /// Replaces the products of `backward` by one seqpar.attention_backward
  /// of `attention` (whose result, before any collapse, is `out`).
  void raiseBackward(OpBuilder &b, AttentionOp attention,
                     const AttentionBackwardMatch &backward);
};

} // namespace

void RaiseAttentionPass::raiseBackward(OpBuilder &b, AttentionOp attention,
                                       const AttentionBackwardMatch &backward) {
  Operation *first = earliestIn(attention->getBlock(), backward.products);
  Operation *outGradDef = backward.outGrad.value.getDefiningOp();
  if (!first || (outGradDef && (outGradDef->getBlock() != first->getBlock() ||
                                !outGradDef->isBeforeInBlock(first)))) {
    emitRemark(attention.getLoc())
        << "attention backward not raised: its products and dO are not in "
           "the attention's block, in order";
    return;
  }
  Location loc = first->getLoc();
  b.setInsertionPoint(first);
  Value outGrad = materialize(b, loc, backward.outGrad);
  auto op = AttentionBackwardOp::create(
      b, loc, attention.getQuery().getType(), attention.getKey().getType(),
      attention.getKey().getType(), attention.getQuery(), attention.getKey(),
      attention.getValue(), attention.getResult(), outGrad,
      attention.getMask(), attention.getScaleAttr(), attention.getCausalAttr());
  for (const AttentionGradProduct &product : backward.products) {
    Value grad = product.grad == AttentionGradProduct::Grad::Query ? op.getQueryGrad()
                 : product.grad == AttentionGradProduct::Grad::Key ? op.getKeyGrad()
                                                                   : op.getValueGrad();
    Value replacement = product.groupSum
                            ? inGroupSumLayout(b, loc, grad, product)
                            : inProductLayout(b, loc, grad, product);
    if (!replacement) {
      emitRemark(product.op->getLoc())
          << "attention backward product not replaced: its result is not "
             "the gradient's [b, heads, tokens, d] in another layout";
      continue;
    }
    (product.groupSum ? product.groupSum : product.op)
        ->getResult(0)
        .replaceAllUsesWith(replacement);
  }
  if (op->use_empty())
    op->erase();
  else
    ++numBackwardRaised;
}

void RaiseAttentionPass::runOnOperation() {
  llvm::DenseSet<Operation *> bufferForm;
  getOperation()->walk([&](func::FuncOp func) {
    if (diagnoseBufferForm(func, getArgument()))
      bufferForm.insert(func);
  });
  SmallVector<linalg::LinalgOp> candidates;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (op.getNumDpsInputs() == 2 && op->getNumResults() == 1 &&
        !bufferForm.contains(op->getParentOfType<func::FuncOp>()))
      candidates.push_back(op);
  });
  OpBuilder b(&getContext());
  llvm::DenseSet<Value> raisedSoftmax;
  for (linalg::LinalgOp pv : candidates) {
    std::string why;
    FailureOr<AttentionMatch> m = matchAttention(pv, why);
    if (failed(m)) {
      if (!why.empty())
        emitRemark(pv.getLoc()) << "attention not raised: " << why;
      continue;
    }
    Location loc = pv.getLoc();
    RankedTensorType qType = headsType(m->query);
    RankedTensorType maskType = m->smallMask    ? expandedMaskType(m->smallMask)
                                : m->mask.value ? headsType(m->mask)
                                                : RankedTensorType();
    std::string bad =
        checkOperands(qType, headsType(m->key), headsType(m->value), maskType);
    if (bad.empty())
      bad = checkResult(qType, pv->getResult(0).getType(), m->numBatchLoops);
    if (!bad.empty()) {
      emitRemark(loc) << "attention not raised: " << bad;
      continue;
    }
    // The backward is matched while the forward's P.V still exists.
    std::optional<AttentionBackwardMatch> backwardMatch;
    if (backward) {
      std::string whyBackward;
      FailureOr<AttentionBackwardMatch> bm =
          matchAttentionBackward(*m, pv, whyBackward);
      if (succeeded(bm) && headsType(bm->outGrad) != qType)
        whyBackward = "dO is not of Q's type";
      else if (succeeded(bm))
        backwardMatch = std::move(*bm);
      if (!whyBackward.empty())
        emitRemark(loc) << "attention backward "
                        << (backwardMatch ? "raised in part" : "not raised")
                        << ": " << whyBackward;
    }
    b.setInsertionPoint(pv);
    Value mask;
    if (m->smallMask) {
      auto rank = cast<RankedTensorType>(m->smallMask.getType()).getRank();
      SmallVector<ReassociationIndices> groups =
          rank == 2 ? SmallVector<ReassociationIndices>{{0, 1, 2}, {3}}
                    : SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}};
      mask =
          tensor::ExpandShapeOp::create(b, loc, maskType, m->smallMask, groups);
    } else if (m->mask.value) {
      mask = materialize(b, loc, m->mask);
    }
    auto attention = AttentionOp::create(
        b, loc, qType, materialize(b, loc, m->query),
        materialize(b, loc, m->key), materialize(b, loc, m->value), mask,
        b.getF32FloatAttr(static_cast<float>(m->scale)),
        m->causal ? b.getUnitAttr() : nullptr);
    Value result = attention.getResult();
    if (backwardMatch)
      raiseBackward(b, attention, *backwardMatch);
    b.setInsertionPoint(pv);
    if (m->numBatchLoops == 1)
      result = tensor::CollapseShapeOp::create(
          b, loc, pv->getResult(0).getType(), result,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    pv->getResult(0).replaceAllUsesWith(result);
    pv->erase();
    ++numRaised;
    raisedSoftmax.insert(m->probabilities);
  }
  // Softmaxes that were not part of a raised attention: say so, so that
  // attention in a form the matcher does not know is visible.
  getOperation()->walk([&](Operation *op) {
    if (op->getNumResults() != 1 || op->use_empty())
      return;
    Value p = op->getResult(0);
    if (!raisedSoftmax.contains(p) &&
        (isa<linalg::SoftmaxOp>(op) || softmaxInput(p)))
      emitRemark(op->getLoc())
          << "softmax not raised to seqpar.attention: not the probabilities "
             "of an attention P.V product the matcher recognises";
  });
}
