//===- RaiseAttention.cpp - written-out attention -> seqpar.attention -----===//
//
// Recognises attention as exporters write it, anchored on the P.V batch
// matmul over [b*a, s, t] x [b*a, t, d]:
//   P  = softmax over the keys of the logits, as linalg.softmax or as
//        max-reduce / sub / exp / sum-reduce / div generics (keepdim or not);
//   logits = scores, optionally times a constant scale (mulf/divf), plus an
//        optional additive mask read through a broadcasting map;
//   scores = batch_matmul(Q, K^T) with Q [b*a, s, d] and K^T [b*a, d, t]
//        (a transpose of K) or a transposed-B batch_matmul with K [b*a, t, d];
//   K/V heads repeated for GQA (broadcast of [b, a_kv, t, d] + collapse) are
//        taken before the repeat.
// Only the P.V product is replaced; what fed it becomes dead unless used
// elsewhere (canonicalize removes it). Anything else is left as it was, with
// a remark at the P.V matmul saying which step failed. A mask proven causal
// (CausalMask.h) becomes the causal flag; any other stays an operand.
//
//===----------------------------------------------------------------------===//

#include "CausalMask.h"

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_RAISEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// What the matcher found, before anything is rewritten.
struct AttentionMatch {
  Value query, key, value; // [b, a, s, d], [b, kv, t, d], [b, kv, t, d]
  Value mask;              // additive, rank 4, or null
  double scale = 1.0;
};

/// The rank-4 [b, a, x, y] value a [b*a, x, y] operand was collapsed from.
Value uncollapseHeads(Value v) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getSrcType().getRank() != 4 ||
      collapse.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}})
    return nullptr;
  return collapse.getSrc();
}

/// The [b, a_kv, t, d] tensor that `repeated` ([b, a_kv, r, t, d]) repeats
/// along dim 2 (linalg.broadcast or its generic form), or null.
Value repeatSource(Value repeated) {
  Operation *def = repeated.getDefiningOp();
  if (auto bcast = dyn_cast_or_null<linalg::BroadcastOp>(def))
    return bcast.getDimensions() == ArrayRef<int64_t>{2} ? bcast.getInput()
                                                         : nullptr;
  auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
  std::optional<SmallVector<int64_t>> dims =
      generic ? linalg::isaBroadcastOpInterface(generic) : std::nullopt;
  return dims && *dims == SmallVector<int64_t>{2}
             ? generic.getDpsInputOperand(0)->get()
             : nullptr;
}

/// The [b, a*, x, y] value behind `v` ([b, a, x, y]) before a GQA repeat
/// (broadcast to [b, kv, r, x, y] + collapse of dims 1-2), or `v`.
Value beforeRepeat(Value v) {
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}})
    return v;
  Value source = repeatSource(collapse.getSrc());
  return source ? source : v;
}

/// The [b, a_kv, t, d] K or V behind a [b*a, t, d] batch-matmul operand:
/// heads collapsed with the batch, after a GQA repeat or not (the repeat may
/// be collapsed straight into the batch: [b, kv, r, t, d] -> [b*kv*r, t, d]).
Value uncollapseKV(Value v) {
  if (Value heads = uncollapseHeads(v))
    return beforeRepeat(heads);
  auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>{{0, 1, 2}, {3}, {4}})
    return nullptr;
  return repeatSource(collapse.getSrc());
}

/// Single-result elementwise generic over `rank` parallel loops.
linalg::GenericOp elementwise(Value v, unsigned rank) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumResults() != 1 || g.getNumLoops() != rank ||
      g.getNumReductionLoops() != 0)
    return nullptr;
  return g;
}

/// The yielded value of a one-result generic's body.
Value yielded(linalg::GenericOp g) {
  return g.getBody()->getTerminator()->getOperand(0);
}

/// When `reduced` is a reduction over the last dim (a generic or
/// linalg.reduce, keepdim or not) combining with one of `Combiners`, the
/// tensor it reduces; else null.
template <typename... Combiners> Value reducedInput(Value reduced) {
  if (auto expand = reduced.getDefiningOp<tensor::ExpandShapeOp>())
    reduced = expand.getSrc(); // keepdim written as an expand of [.., 1]
  Operation *def = reduced.getDefiningOp();
  if (auto reduce = dyn_cast_or_null<linalg::ReduceOp>(def)) {
    auto in = cast<RankedTensorType>(reduce.getInputs()[0].getType());
    if (reduce.getInputs().size() != 1 ||
        reduce.getDimensions() != ArrayRef<int64_t>{in.getRank() - 1})
      return nullptr;
    Operation *combine = &reduce.getCombiner().front().front();
    return isa<Combiners...>(combine) ? reduce.getInputs()[0] : nullptr;
  }
  auto g = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!g || g.getNumDpsInputs() != 1 || g.getNumResults() != 1 ||
      g.getNumReductionLoops() != 1 ||
      g.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      !g.getIndexingMapsArray()[0].isIdentity())
    return nullptr;
  Operation *combine = yielded(g).getDefiningOp();
  if (!combine || !isa<Combiners...>(combine))
    return nullptr;
  Block *body = g.getBody();
  Value a = combine->getOperand(0), b = combine->getOperand(1);
  bool operands = (a == body->getArgument(0) && b == body->getArgument(1)) ||
                  (b == body->getArgument(0) && a == body->getArgument(1));
  return operands ? g.getDpsInputOperand(0)->get() : nullptr;
}

/// Binary elementwise generic computing `x op other` where `other` is read
/// through a map that broadcasts the last dim: returns (x, other).
template <typename OpTy>
std::optional<std::pair<Value, Value>> rowBroadcastBinary(Value v) {
  linalg::GenericOp g = elementwise(v, 4);
  if (!g || g.getNumDpsInputs() != 2)
    return std::nullopt;
  auto op = yielded(g).getDefiningOp<OpTy>();
  Block *body = g.getBody();
  if (!op || op.getLhs() != body->getArgument(0) ||
      op.getRhs() != body->getArgument(1) ||
      !g.getIndexingMapsArray()[0].isIdentity())
    return std::nullopt;
  AffineExpr last = g.getIndexingMapsArray()[1].getResults().back();
  auto constant = dyn_cast<AffineConstantExpr>(last);
  if (!constant || constant.getValue() != 0)
    return std::nullopt;
  return std::make_pair(g.getDpsInputOperand(0)->get(),
                        g.getDpsInputOperand(1)->get());
}

/// The logits of softmax(logits) over the last dim producing `p`, or null.
Value softmaxInput(Value p) {
  if (auto softmax = p.getDefiningOp<linalg::SoftmaxOp>())
    return softmax.getDimension() == 3 ? softmax.getInput() : nullptr;
  auto div = rowBroadcastBinary<arith::DivFOp>(p);
  if (!div)
    return nullptr;
  auto [e, sum] = *div;
  if (reducedInput<arith::AddFOp>(sum) != e)
    return nullptr;
  // e = exp(logits - max), in one generic or as sub then exp.
  linalg::GenericOp expOp = elementwise(e, 4);
  if (!expOp)
    return nullptr;
  auto exp = yielded(expOp).getDefiningOp<math::ExpOp>();
  if (!exp)
    return nullptr;
  Value centered;
  if (expOp.getNumDpsInputs() == 1 &&
      exp.getOperand() == expOp.getBody()->getArgument(0))
    centered = expOp.getDpsInputOperand(0)->get();
  else if (expOp.getNumDpsInputs() == 2 &&
           exp.getOperand().getDefiningOp<arith::SubFOp>())
    centered = e; // fused: exp(sub(x, max)) in the same generic
  else
    return nullptr;
  auto sub = rowBroadcastBinary<arith::SubFOp>(centered);
  if (!sub && centered == e) {
    // Fused form: check the sub inside the exp generic.
    auto subOp = exp.getOperand().getDefiningOp<arith::SubFOp>();
    Block *body = expOp.getBody();
    if (subOp.getLhs() != body->getArgument(0) ||
        subOp.getRhs() != body->getArgument(1))
      return nullptr;
    sub = std::make_pair(expOp.getDpsInputOperand(0)->get(),
                         expOp.getDpsInputOperand(1)->get());
  }
  if (!sub)
    return nullptr;
  auto [logits, max] = *sub;
  Value maxInput = reducedInput<arith::MaximumFOp, arith::MaxNumFOp>(max);
  return maxInput == logits ? logits : nullptr;
}

/// A float constant, also through truncf/extf (exporters keep 1/sqrt(d) in
/// f64 and truncate it in the body).
std::optional<double> constantFloat(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::TruncFOp, arith::ExtFOp>(def))
      break;
    v = def->getOperand(0);
  }
  FloatAttr c;
  if (!matchPattern(v, m_Constant(&c)))
    return std::nullopt;
  return c.getValueAsDouble();
}

/// Peels `x * c`, `x / c` (scale) and `x + mask` generics off the logits;
/// returns the scores.
Value peelScaleAndMask(Value logits, AttentionMatch &m, std::string &why) {
  Value v = logits;
  bool scaledLater = false;
  while (linalg::GenericOp g = elementwise(v, 4)) {
    Block *body = g.getBody();
    Operation *op = yielded(g).getDefiningOp();
    if (!op || op->getNumOperands() != 2 ||
        !g.getIndexingMapsArray()[0].isIdentity())
      break;
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    std::optional<double> c = constantFloat(rhs);
    if (isa<arith::MulFOp, arith::DivFOp>(op) && g.getNumDpsInputs() == 1 &&
        lhs == body->getArgument(0) && c) {
      // Walking back from the logits: a scale seen before the mask add was
      // applied after it, which would scale the mask too.
      scaledLater |= !m.mask;
      double k = *c;
      m.scale *= isa<arith::MulFOp>(op) ? k : 1.0 / k;
    } else if (isa<arith::AddFOp>(op) && g.getNumDpsInputs() == 2 && !m.mask &&
               lhs == body->getArgument(0) && rhs == body->getArgument(1)) {
      if (scaledLater) {
        why = "the mask is added before the scale";
        return nullptr;
      }
      // The mask map may only broadcast (unit dims read at 0).
      AffineMap map = g.getIndexingMapsArray()[1];
      auto maskType =
          dyn_cast<RankedTensorType>(g.getDpsInputOperand(1)->get().getType());
      if (!maskType || maskType.getRank() != 4 || map.getNumResults() != 4)
        break;
      for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
        auto d = dyn_cast<AffineDimExpr>(expr);
        auto z = dyn_cast<AffineConstantExpr>(expr);
        if (!(d && d.getPosition() == dim) &&
            !(z && z.getValue() == 0 && maskType.getDimSize(dim) == 1)) {
          why = "the mask is read through a map that does not broadcast";
          return nullptr;
        }
      }
      m.mask = g.getDpsInputOperand(1)->get();
    } else {
      break;
    }
    v = g.getDpsInputOperand(0)->get();
  }
  return v;
}

/// True when `op` has batch_matmul's default maps, or its transposed-B maps
/// when `transposedB` (b, i, j, k: A (b, i, k), B (b, j, k), C (b, i, j)).
bool hasBatchMatmulMaps(linalg::BatchMatmulOp op, bool transposedB) {
  MLIRContext *ctx = op.getContext();
  AffineExpr b, i, j, k;
  bindDims(ctx, b, i, j, k);
  SmallVector<AffineMap> want = {AffineMap::get(4, 0, {b, i, k}, ctx),
                                 transposedB
                                     ? AffineMap::get(4, 0, {b, j, k}, ctx)
                                     : AffineMap::get(4, 0, {b, k, j}, ctx),
                                 AffineMap::get(4, 0, {b, i, j}, ctx)};
  return op.getIndexingMapsArray() == want;
}

/// Matches the attention whose P.V product is `pv`; `keyTransposed` tells
/// that `m.key` is K^T [b, a, d, t].
FailureOr<AttentionMatch> matchAttention(linalg::BatchMatmulOp pv,
                                         bool &keyTransposed,
                                         std::string &why) {
  AttentionMatch m;
  auto fail = [&](const char *reason) -> FailureOr<AttentionMatch> {
    why = reason;
    return failure();
  };
  if (!isPlainContraction(pv) || !hasBatchMatmulMaps(pv, false))
    return fail("P.V is not a plain batch matmul");
  Value p = uncollapseHeads(pv.getDpsInputOperand(0)->get());
  Value v = uncollapseKV(pv.getDpsInputOperand(1)->get());
  if (!p || !v)
    return fail("P or V is not [b*a, ...] collapsed from [b, a, ...]");
  Value logits = softmaxInput(p);
  if (!logits)
    return fail("P is not a softmax over the keys");
  Value scores = peelScaleAndMask(logits, m, why);
  if (!scores)
    return failure();
  auto expand = scores.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand || expand.getReassociationIndices() !=
                     SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}})
    return fail("the scores are not [b*a, s, t] expanded to [b, a, s, t]");
  auto qk = expand.getSrc().getDefiningOp<linalg::BatchMatmulOp>();
  if (!qk || !isPlainContraction(qk))
    return fail("the scores are not a plain batch matmul");
  bool transposedB = hasBatchMatmulMaps(qk, true);
  if (!transposedB && !hasBatchMatmulMaps(qk, false))
    return fail("Q.K^T is read through unexpected maps");
  Value q = uncollapseHeads(qk.getDpsInputOperand(0)->get());
  Value k = transposedB ? uncollapseKV(qk.getDpsInputOperand(1)->get())
                        : uncollapseHeads(qk.getDpsInputOperand(1)->get());
  if (!q || !k)
    return fail("Q or K is not [b*a, ...] collapsed from [b, a, ...]");
  keyTransposed = !transposedB;
  if (keyTransposed) {
    // K^T written as a transpose of K: use K itself.
    auto t = k.getDefiningOp<linalg::TransposeOp>();
    if (t && t.getPermutation() == ArrayRef<int64_t>{0, 1, 3, 2}) {
      k = t.getInput();
      keyTransposed = false;
    }
  }
  m.query = q;
  m.key = keyTransposed ? k : beforeRepeat(k);
  m.value = v;
  return m;
}

/// What seqpar.attention's verifier would refuse, checked before the op is
/// built (Debian's MLIR has no assertions); empty when fine.
std::string checkOperands(RankedTensorType q, RankedTensorType k, Value value,
                          Value mask) {
  if (k != value.getType() || k.getRank() != 4 || q.getRank() != 4 ||
      k.getElementType() != q.getElementType() ||
      k.getDimSize(0) != q.getDimSize(0) ||
      k.getDimSize(3) != q.getDimSize(3) ||
      q.getDimSize(1) % k.getDimSize(1) != 0)
    return "Q, K and V do not have attention's shapes";
  if (!mask)
    return "";
  auto m = cast<RankedTensorType>(mask.getType());
  int64_t full[] = {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2),
                    k.getDimSize(2)};
  bool ok = m.getRank() == 4 && m.getElementType() == q.getElementType();
  for (int64_t d = 0; ok && d < 4; ++d)
    ok = m.getDimSize(d) == 1 || m.getDimSize(d) == full[d];
  return ok ? "" : "the mask does not broadcast to [b, a, s, t]";
}

struct RaiseAttentionPass
    : public mlir::seqpar::impl::RaiseAttentionBase<RaiseAttentionPass> {
  void runOnOperation() override;
};

} // namespace

void RaiseAttentionPass::runOnOperation() {
  SmallVector<linalg::BatchMatmulOp> candidates;
  getOperation()->walk(
      [&](linalg::BatchMatmulOp op) { candidates.push_back(op); });
  OpBuilder b(&getContext());
  llvm::DenseSet<Value> raisedSoftmax;
  for (linalg::BatchMatmulOp pv : candidates) {
    // Only a product whose first operand is a softmax is a candidate.
    Value p = uncollapseHeads(pv.getDpsInputOperand(0)->get());
    if (!p || !(p.getDefiningOp<linalg::SoftmaxOp>() ||
                rowBroadcastBinary<arith::DivFOp>(p)))
      continue;
    std::string why;
    bool keyTransposed = false;
    FailureOr<AttentionMatch> m = matchAttention(pv, keyTransposed, why);
    if (failed(m)) {
      emitRemark(pv.getLoc()) << "attention not raised: " << why;
      continue;
    }
    b.setInsertionPoint(pv);
    Location loc = pv.getLoc();
    // K^T that is not a transpose of K is transposed back; check the types
    // first so a refusal leaves the IR untouched.
    auto keyType = cast<RankedTensorType>(m->key.getType());
    if (keyTransposed)
      keyType = keyType.clone({keyType.getDimSize(0), keyType.getDimSize(1),
                               keyType.getDimSize(3), keyType.getDimSize(2)});
    auto qType = cast<RankedTensorType>(m->query.getType());
    if (std::string bad = checkOperands(qType, keyType, m->value, m->mask);
        !bad.empty()) {
      emitRemark(loc) << "attention not raised: " << bad;
      continue;
    }
    Value key = m->key;
    if (keyTransposed) {
      Value init = tensor::EmptyOp::create(b, loc, keyType.getShape(),
                                           keyType.getElementType());
      key = linalg::TransposeOp::create(b, loc, key, init,
                                        ArrayRef<int64_t>{0, 1, 3, 2})
                .getResult()[0];
    }
    // A mask proven to be the causal mask becomes the causal flag, which
    // context parallelism needs for load balancing (zigzag).
    bool causal = m->mask && qType.getDimSize(2) == keyType.getDimSize(2) &&
                  isCausalMask(m->mask);
    auto attention = AttentionOp::create(
        b, loc, qType, m->query, key, m->value, causal ? Value() : m->mask,
        b.getF32FloatAttr(static_cast<float>(m->scale)),
        causal ? b.getUnitAttr() : nullptr);
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, pv.getResult(0).getType(), attention.getResult(),
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    pv.getResult(0).replaceAllUsesWith(flat);
    pv.erase();
    ++numRaised;
    raisedSoftmax.insert(p);
  }
  // Softmaxes that were not part of a raised attention: say so, so that
  // attention in a form the matcher does not know is visible.
  getOperation()->walk([&](Operation *op) {
    Value p;
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
      p = softmax.getResult()[0];
    else if (op->getNumResults() == 1 &&
             rowBroadcastBinary<arith::DivFOp>(op->getResult(0)) &&
             softmaxInput(op->getResult(0)))
      p = op->getResult(0);
    if (p && !raisedSoftmax.contains(p) && !p.use_empty())
      emitRemark(op->getLoc())
          << "softmax not raised to seqpar.attention: not the [b, a, s, t] "
             "probabilities of a P.V batch matmul on heads collapsed with "
             "the batch (the forms the matcher knows)";
  });
}
