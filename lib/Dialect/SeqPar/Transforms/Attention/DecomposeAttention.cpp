//===- DecomposeAttention.cpp - seqpar.attention -> linalg reference ------===//

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/PrepareLowering/SplitReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <limits>

namespace mlir::seqpar {
#define GEN_PASS_DEF_DECOMPOSEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// A zero-filled tensor of `shape`.
Value zeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type elem) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elem);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// `x` in `type`, extended when narrower (f16/bf16 data, f32 arithmetic).
Value widen(OpBuilder &b, Location loc, Value x, Type type) {
  return x.getType() == type ? x : arith::ExtFOp::create(b, loc, type, x);
}

/// out += lhs * rhs with the given operand maps; `outMap` reads the first
/// loops in order (d0, d1, ...) and the remaining ones are the reductions.
/// The products are taken in the output's (accumulator's) element type.
Value contract(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
               AffineMap lhsMap, AffineMap rhsMap, AffineMap outMap) {
  SmallVector<utils::IteratorType> iterators(outMap.getNumResults(),
                                             utils::IteratorType::parallel);
  iterators.append(outMap.getNumDims() - outMap.getNumResults(),
                   utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{lhs, rhs}, ValueRange{init},
             ArrayRef<AffineMap>{lhsMap, rhsMap, outMap}, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               Type acc = args[2].getType();
               Value mul = arith::MulFOp::create(nb, nloc,
                                                 widen(nb, nloc, args[0], acc),
                                                 widen(nb, nloc, args[1], acc));
               Value add = arith::AddFOp::create(nb, nloc, args[2], mul);
               linalg::YieldOp::create(nb, nloc, add);
             })
      .getResult(0);
}

/// `x` [b, a, ...] with its heads viewed as [b, a_kv, r, ...]: K/V head g's
/// r = a / a_kv query heads side by side.
Value groupHeads(OpBuilder &b, Location loc, Value x, int64_t kvHeads) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape{type.getDimSize(0), kvHeads,
                             type.getDimSize(1) / kvHeads, type.getDimSize(2),
                             type.getDimSize(3)};
  return tensor::ExpandShapeOp::create(
      b, loc, type.clone(shape), x,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

/// A contraction of per-head `lhs` [b, a, s, x] with K or V `kv`
/// [b, a_kv, t, d], reading KV head h / r (r = a / a_kv, never repeated):
/// with `keys`, scores[b, h, i, j] = sum_e lhs[b, h, i, e] * kv[b, h/r, j, e];
/// else out[b, h, i, e] = sum_j lhs[b, h, i, j] * kv[b, h/r, j, e].
/// Accumulates in f32 (f16/bf16 operands are extended). Under GQA the
/// query heads are viewed as [a_kv, r] (loops b, g, r, i, last,
/// contracted), so every operand is read through a projected permutation
/// and each K/V head's r query heads are one GEMM (docs/runtime-and-run.md,
/// "BLAS kernels").
Value headContraction(OpBuilder &b, Location loc, Value lhs, Value kv,
                      bool keys) {
  auto l = cast<RankedTensorType>(lhs.getType());
  auto k = cast<RankedTensorType>(kv.getType());
  MLIRContext *ctx = b.getContext();
  int64_t kvHeads = k.getDimSize(1), group = l.getDimSize(1) / kvHeads;
  int64_t last = keys ? k.getDimSize(2) : k.getDimSize(3);
  if (group == 1) {
    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    // Loop d3 is the output's last dim, d4 the contracted one.
    AffineMap kvMap = keys ? AffineMap::get(5, 0, {d0, d1, d3, d4}, ctx)
                           : AffineMap::get(5, 0, {d0, d1, d4, d3}, ctx);
    return contract(
        b, loc, lhs, kv,
        zeros(b, loc,
              {l.getDimSize(0), l.getDimSize(1), l.getDimSize(2), last},
              b.getF32Type()),
        AffineMap::get(5, 0, {d0, d1, d2, d4}, ctx), kvMap,
        AffineMap::get(5, 0, {d0, d1, d2, d3}, ctx));
  }
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap kvMap = keys ? AffineMap::get(6, 0, {d0, d1, d4, d5}, ctx)
                         : AffineMap::get(6, 0, {d0, d1, d5, d4}, ctx);
  // Separate statements: argument evaluation order would order the ops.
  Value lhsGroups = groupHeads(b, loc, lhs, kvHeads);
  Value init = zeros(
      b, loc, {l.getDimSize(0), kvHeads, group, l.getDimSize(2), last},
      b.getF32Type());
  Value grouped = contract(
      b, loc, lhsGroups, kv, init,
      AffineMap::get(6, 0, {d0, d1, d2, d3, d5}, ctx), kvMap,
      AffineMap::get(6, 0, {d0, d1, d2, d3, d4}, ctx));
  return tensor::CollapseShapeOp::create(
      b, loc, grouped,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

/// The map reading a rank-4 mask over loops of extents `full`: its unit
/// dims broadcast.
AffineMap broadcastMap(Value mask, ArrayRef<int64_t> full) {
  auto type = cast<RankedTensorType>(mask.getType());
  MLIRContext *ctx = mask.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t dim = 0; dim < 4; ++dim)
    exprs.push_back(type.getDimSize(dim) == 1 && full[dim] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(dim, ctx));
  return AffineMap::get(4, 0, exprs, ctx);
}

/// A generic over `init`'s shape (all parallel, or with the last loop a
/// reduction when `reduceLast`) reading `inputs` through `maps`.
Value generic(OpBuilder &b, Location loc, ValueRange inputs,
              ArrayRef<AffineMap> maps, Value init, unsigned loops,
              bool reduceLast,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  if (reduceLast)
    iterators.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
             })
      .getResult(0);
}

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

Value filled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
             double value) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
  return linalg::FillOp::create(b, loc, f32Constant(b, loc, value), empty)
      .getResult(0);
}

/// The logits of an attention block [b, a, s, t] (f32): scale * Q.K^T
/// (+ mask), -inf where a key's global position is after the query's when
/// `causal` (seqpar.attention_block and its backward). Only the scores
/// Q.K^T are materialised (a GEMM's output); each generic that needs the
/// logits reads `inputs` through `maps` and recomputes them with `emit`
/// from its first block arguments, so the logits never make a pass over
/// memory of their own (docs/runtime-and-run.md, "Attention blocks").
struct BlockLogits {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  float scale = 1.0f;
  bool causal = false, masked = false;

  Value emit(OpBuilder &b, Location loc, ValueRange args) const;
};

Value BlockLogits::emit(OpBuilder &b, Location loc, ValueRange x) const {
  Value l = arith::MulFOp::create(b, loc, x[0], f32Constant(b, loc, scale));
  if (masked)
    l = arith::AddFOp::create(b, loc, l, widen(b, loc, x[3], b.getF32Type()));
  if (!causal)
    return l;
  Value visible =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, x[2], x[1]);
  return arith::SelectOp::create(
      b, loc, visible, l,
      f32Constant(b, loc, -std::numeric_limits<double>::infinity()));
}

BlockLogits blockLogits(OpBuilder &b, Location loc, Value query, Value key,
                        Value qPositions, Value kvPositions, Value mask,
                        float scale, bool causal) {
  MLIRContext *ctx = b.getContext();
  auto q = cast<RankedTensorType>(query.getType());
  auto k = cast<RankedTensorType>(key.getType());
  int64_t bs = q.getDimSize(0), a = q.getDimSize(1), s = q.getDimSize(2),
          t = k.getDimSize(2);
  AffineExpr d2 = getAffineDimExpr(2, ctx), d3 = getAffineDimExpr(3, ctx);
  BlockLogits logits;
  logits.scale = scale;
  logits.causal = causal;
  logits.masked = static_cast<bool>(mask);
  logits.inputs = {headContraction(b, loc, query, key, /*keys=*/true),
                   qPositions, kvPositions};
  logits.maps = {AffineMap::getMultiDimIdentityMap(4, ctx),
                 AffineMap::get(4, 0, {d2}, ctx),
                 AffineMap::get(4, 0, {d3}, ctx)};
  if (mask) {
    logits.inputs.push_back(mask);
    logits.maps.push_back(broadcastMap(mask, {bs, a, s, t}));
  }
  return logits;
}

/// Inside a generic over a block's [b, a, s, t] (loops d0..d3): the dropout
/// multiplier of the element, in f32: the op's dropout region inlined at
/// (d0, headOffset + d1, qPosition, kvPosition), the positions the block's
/// (docs/semantics.md §4.8).
Value emitDropoutMultiplier(OpBuilder &b, Location loc, Region &dropout,
                            Value headOffset, Value qPosition,
                            Value kvPosition) {
  Block &body = dropout.front();
  Value head = linalg::IndexOp::create(b, loc, 1);
  if (headOffset)
    head = arith::AddIOp::create(b, loc, head, headOffset);
  IRMapping mapping;
  mapping.map(body.getArguments(),
              ValueRange{linalg::IndexOp::create(b, loc, 0).getResult(), head,
                         qPosition, kvPosition});
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  Value m = mapping.lookupOrDefault(
      cast<YieldOp>(body.getTerminator()).getValue());
  return widen(b, loc, m, b.getF32Type());
}

/// x[b, h, i, j] * m(b, h, i, j) over a block's [b, a, s, t] (f32), m the
/// dropout multiplier at the positions `qPositions` and `kvPositions`.
Value applyDropout(OpBuilder &b, Location loc, Value x, Region &dropout,
                   Value headOffset, Value qPositions, Value kvPositions) {
  MLIRContext *ctx = b.getContext();
  AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
  auto type = cast<RankedTensorType>(x.getType());
  return generic(
      b, loc, {x, qPositions, kvPositions},
      {id4, AffineMap::get(4, 0, {getAffineDimExpr(2, ctx)}, ctx),
       AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx), id4},
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType()),
      4, false, [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        return arith::MulFOp::create(
            nb, nl, args[0],
            emitDropoutMultiplier(nb, nl, dropout, headOffset, args[1],
                                  args[2]));
      });
}

/// `logits`' inputs and maps followed by `inputs` and `maps`.
std::pair<SmallVector<Value>, SmallVector<AffineMap>>
withLogits(const BlockLogits &logits, ArrayRef<Value> inputs,
           ArrayRef<AffineMap> maps) {
  SmallVector<Value> allInputs(logits.inputs);
  allInputs.append(inputs.begin(), inputs.end());
  SmallVector<AffineMap> allMaps(logits.maps);
  allMaps.append(maps.begin(), maps.end());
  return {allInputs, allMaps};
}

/// The reduction over the keys (the last loop) of `rows` split into
/// partial results per vector lane and a reduction of the partials
/// (splitInnermostReduction; docs/runtime-and-run.md, "Attention blocks"):
/// the partial results are a parallel loop, which LLVM's vectoriser takes
/// however the body masks the keys, where the single chain was a
/// reduction it would not take. `rows` as is when the keys do not split.
Value splitKeyReduction(RewriterBase &rewriter, Value rows) {
  Value split = splitInnermostReduction(
      rewriter, rows.getDefiningOp<linalg::GenericOp>());
  return split ? split : rows;
}

/// The `maximumf` combiners of the row max `rowMax` (the reduction of the
/// partials, then the partials, when splitKeyReduction split it) as
/// compare-and-select: acc = logit > acc ? logit : acc, which x86 does in
/// one `vmaxps` where `maximumf` (NaN and signed-zero ordering) takes six
/// instructions on the loop-carried chain (docs/runtime-and-run.md,
/// "Attention blocks"). A NaN logit leaves the max as it was, but the exp
/// pass still reads it: exp(NaN - max) makes its row's sum, out and LSE
/// NaN, as before.
void useOrderedMax(RewriterBase &rewriter, Value rowMax) {
  OpBuilder::InsertionGuard guard(rewriter);
  Value current = rowMax;
  if (auto expand = current.getDefiningOp<tensor::ExpandShapeOp>())
    current = expand.getSrc();
  while (auto generic = current.getDefiningOp<linalg::GenericOp>()) {
    if (generic.getNumDpsInits() != 1 || generic.getNumDpsInputs() < 1)
      return;
    Value acc = generic.getRegionOutputArgs()[0];
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    auto max = yield.getOperand(0).getDefiningOp<arith::MaximumFOp>();
    if (!max || (max.getLhs() == acc) == (max.getRhs() == acc))
      return;
    Value logit = max.getLhs() == acc ? max.getRhs() : max.getLhs();
    rewriter.setInsertionPoint(max);
    Value greater = arith::CmpFOp::create(
        rewriter, max.getLoc(), arith::CmpFPredicate::OGT, logit, acc);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(max, greater, logit, acc);
    current = generic.getDpsInputs()[0];
  }
}

/// One ring step: out and the two-part LSE of the query block against one
/// K/V block. The unnormalised probabilities E = exp(l - rowMax) go
/// through P.V and the [b, a, s, d] result is divided by the row sums,
/// instead of dividing the [b, a, s, t] probabilities.
struct DecomposeAttentionBlockPattern : OpRewritePattern<AttentionBlockOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionBlockOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto q = cast<RankedTensorType>(op.getQuery().getType());
    auto k = cast<RankedTensorType>(op.getKey().getType());
    int64_t b = q.getDimSize(0), a = q.getDimSize(1), s = q.getDimSize(2),
            t = k.getDimSize(2);
    const double inf = std::numeric_limits<double>::infinity();
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    Type f32 = rewriter.getF32Type();
    AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
    AffineMap row4 = AffineMap::get(4, 0, {d0, d1, d2}, ctx);
    BlockLogits logits =
        blockLogits(rewriter, loc, op.getQuery(), op.getKey(),
                    op.getQPositions(), op.getKvPositions(), op.getMask(),
                    op.getScale().convertToFloat(), op.getCausal());
    size_t n = logits.inputs.size();
    // Row max; a fully masked row (max = -inf) is centred at 0, not -inf.
    auto [maxInputs, maxMaps] = withLogits(logits, {}, {row4});
    Value rowMax = generic(
        rewriter, loc, maxInputs, maxMaps,
        filled(rewriter, loc, {b, a, s}, -inf), 4, true,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          return arith::MaximumFOp::create(nb, nl, logits.emit(nb, nl, x),
                                           x[n]);
        });
    rowMax = splitKeyReduction(rewriter, rowMax);
    useOrderedMax(rewriter, rowMax);
    AffineMap id3 = AffineMap::getMultiDimIdentityMap(3, ctx);
    Value center = generic(
        rewriter, loc, {rowMax}, {id3, id3},
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{b, a, s}, f32),
        3, false, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value masked =
              arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ, x[0],
                                    f32Constant(nb, nl, -inf));
          return arith::SelectOp::create(nb, nl, masked,
                                         f32Constant(nb, nl, 0.0), x[0]);
        });
    auto [expInputs, expMaps] = withLogits(logits, {center}, {row4, id4});
    Value exps = generic(
        rewriter, loc, expInputs, expMaps,
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{b, a, s, t},
                                f32),
        4, false, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value diff =
              arith::SubFOp::create(nb, nl, logits.emit(nb, nl, x), x[n]);
          return math::ExpOp::create(nb, nl, diff);
        });
    Value sums = generic(rewriter, loc, {exps}, {id4, row4},
                         filled(rewriter, loc, {b, a, s}, 0.0), 4, true,
                         [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                           return arith::AddFOp::create(nb, nl, x[0], x[1]);
                         });
    sums = splitKeyReduction(rewriter, sums);
    // Dropout scales E, not its row sums: out = (E * m) . V / sum.
    Value kept = exps;
    if (!op.getDropout().empty())
      kept = applyDropout(rewriter, loc, exps, op.getDropout(),
                          op.getHeadOffset(), op.getQPositions(),
                          op.getKvPositions());
    // out = (E . V) / sum (0 for an empty row, whose E is 0).
    Value weighted =
        headContraction(rewriter, loc, kept, op.getValue(), /*keys=*/false);
    auto outType = cast<RankedTensorType>(weighted.getType());
    Value out = generic(
        rewriter, loc, {weighted, sums}, {id4, row4, id4},
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(), f32), 4,
        false, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value empty = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                              x[1], f32Constant(nb, nl, 0.0));
          Value o = arith::DivFOp::create(nb, nl, x[0], x[1]);
          return arith::SelectOp::create(nb, nl, empty,
                                         f32Constant(nb, nl, 0.0), o);
        });
    rewriter.replaceOp(op, {out, rowMax, sums});
    return success();
  }
};

/// The gradient of K or V from per-head `lhs` [b, a, s, t] and `rhs`
/// [b, a, s, e]: out[b, g, j, e] = sum over the r = a / a_kv heads h of
/// group g and the queries i of lhs[b, h, i, j] * rhs[b, h, i, e], f32.
/// The heads are viewed as [a_kv, r] so the loops stay invertible.
Value groupContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       int64_t kvHeads) {
  MLIRContext *ctx = b.getContext();
  auto l = cast<RankedTensorType>(lhs.getType());
  auto r = cast<RankedTensorType>(rhs.getType());
  Value init = zeros(
      b, loc, {l.getDimSize(0), kvHeads, l.getDimSize(3), r.getDimSize(3)},
      b.getF32Type());
  // Loops (b, g, j, e, head in group, i).
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  // Separate statements: argument evaluation order would order the ops.
  Value lhsGroups = groupHeads(b, loc, lhs, kvHeads);
  Value rhsGroups = groupHeads(b, loc, rhs, kvHeads);
  return contract(b, loc, lhsGroups, rhsGroups, init,
                  AffineMap::get(6, 0, {d0, d1, d4, d5, d2}, ctx),
                  AffineMap::get(6, 0, {d0, d1, d4, d5, d3}, ctx),
                  AffineMap::get(6, 0, {d0, d1, d2, d3}, ctx));
}

/// The block backward of docs/semantics.md §4.7: P from the rows' global
/// two-part LSE, D = rowsum(dO * O), dS = scale * P * (dO . V^T - D), then
/// dQ = dS . K, dK = dS^T . Q and dV = P^T . dO summed per K/V head.
struct DecomposeAttentionBlockBackwardPattern
    : OpRewritePattern<AttentionBlockBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionBlockBackwardOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto q = cast<RankedTensorType>(op.getQuery().getType());
    auto k = cast<RankedTensorType>(op.getKey().getType());
    int64_t b = q.getDimSize(0), a = q.getDimSize(1), s = q.getDimSize(2),
            t = k.getDimSize(2), kvHeads = k.getDimSize(1);
    const double inf = std::numeric_limits<double>::infinity();
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    Type f32 = rewriter.getF32Type();
    AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
    AffineMap row4 = AffineMap::get(4, 0, {d0, d1, d2}, ctx);
    auto empty4 = [&]() -> Value {
      return tensor::EmptyOp::create(rewriter, loc,
                                     ArrayRef<int64_t>{b, a, s, t}, f32);
    };
    float scale = op.getScale().convertToFloat();

    // P = exp(l - row_max) / row_sum, l as the forward block computes it.
    BlockLogits logits = blockLogits(rewriter, loc, op.getQuery(), op.getKey(),
                                     op.getQPositions(), op.getKvPositions(),
                                     op.getMask(), scale, op.getCausal());
    size_t n = logits.inputs.size();
    auto [probInputs, probMaps] = withLogits(
        logits, {op.getRowMax(), op.getRowSum()}, {row4, row4, id4});
    Value probs = generic(
        rewriter, loc, probInputs, probMaps, empty4(), 4, false,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value zero = f32Constant(nb, nl, 0.0);
          Value l = logits.emit(nb, nl, x);
          Value p = arith::DivFOp::create(
              nb, nl,
              math::ExpOp::create(nb, nl,
                                  arith::SubFOp::create(nb, nl, l, x[n])),
              x[n + 1]);
          // No probability where the key is hidden or the row is empty
          // (exp(-inf - -inf) and 0/0 would be NaN).
          Value hidden = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                               l, f32Constant(nb, nl, -inf));
          Value empty = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                              x[n + 1], zero);
          Value none = arith::OrIOp::create(nb, nl, hidden, empty);
          return arith::SelectOp::create(nb, nl, none, zero, p);
        });

    // D = rowsum(dO * O).
    Value rowDot =
        generic(rewriter, loc, {op.getOutGrad(), op.getOut()}, {id4, id4, row4},
                filled(rewriter, loc, {b, a, s}, 0.0), 4, true,
                [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                  Value prod =
                      arith::MulFOp::create(nb, nl, widen(nb, nl, x[0], f32),
                                            widen(nb, nl, x[1], f32));
                  return arith::AddFOp::create(nb, nl, x[2], prod);
                });
    // dS = scale * P * (dO . V^T - D); with dropout, dV = (P * m)^T . dO
    // and dS = scale * P * (m * dO . V^T - D), m regenerated here.
    Value probGrads = headContraction(rewriter, loc, op.getOutGrad(),
                                      op.getValue(), /*keys=*/true);
    Value keptProbs = probs;
    if (!op.getDropout().empty()) {
      keptProbs = applyDropout(rewriter, loc, probs, op.getDropout(),
                               op.getHeadOffset(), op.getQPositions(),
                               op.getKvPositions());
      probGrads = applyDropout(rewriter, loc, probGrads, op.getDropout(),
                               op.getHeadOffset(), op.getQPositions(),
                               op.getKvPositions());
    }
    Value scoreGrads = generic(
        rewriter, loc, {probs, probGrads, rowDot}, {id4, id4, row4, id4},
        empty4(), 4, false,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value centred = arith::SubFOp::create(nb, nl, x[1], x[2]);
          Value g = arith::MulFOp::create(nb, nl, x[0], centred);
          return arith::MulFOp::create(nb, nl, g, f32Constant(nb, nl, scale));
        });
    Value queryGrad = headContraction(rewriter, loc, scoreGrads, op.getKey(),
                                      /*keys=*/false);
    Value keyGrad =
        groupContraction(rewriter, loc, scoreGrads, op.getQuery(), kvHeads);
    Value valueGrad =
        groupContraction(rewriter, loc, keptProbs, op.getOutGrad(), kvHeads);
    rewriter.replaceOp(op, {queryGrad, keyGrad, valueGrad});
    return success();
  }
};

/// The LSE merge of docs/semantics.md §4.3 of two block results, each LSE in
/// two parts.
struct DecomposeAttentionMergePattern : OpRewritePattern<AttentionMergeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionMergeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto outType = cast<RankedTensorType>(op.getOutA().getType());
    auto rowType = cast<RankedTensorType>(op.getMaxA().getType());
    const double inf = std::numeric_limits<double>::infinity();
    AffineMap id3 = AffineMap::getMultiDimIdentityMap(3, ctx);
    AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
    AffineMap row4 =
        AffineMap::get(4, 0,
                       {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                        getAffineDimExpr(2, ctx)},
                       ctx);
    // Per row: the merged max and sum, and each block's share of the sum.
    auto rowInit = [&]() -> Value {
      return tensor::EmptyOp::create(rewriter, loc, rowType.getShape(),
                                     rowType.getElementType());
    };
    auto rows = linalg::GenericOp::create(
        rewriter, loc, TypeRange(SmallVector<Type>(4, rowType)),
        ValueRange{op.getMaxA(), op.getSumA(), op.getMaxB(), op.getSumB()},
        ValueRange{rowInit(), rowInit(), rowInit(), rowInit()},
        SmallVector<AffineMap>(8, id3),
        SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location nl, ValueRange x) {
          Value zero = f32Constant(nb, nl, 0.0);
          Value rowMax = arith::MaximumFOp::create(nb, nl, x[0], x[2]);
          // A block whose max is -inf weighs 0 (never exp(-inf + inf)).
          auto weight = [&](Value max, Value sum) -> Value {
            Value w = arith::MulFOp::create(
                nb, nl, sum,
                math::ExpOp::create(
                    nb, nl, arith::SubFOp::create(nb, nl, max, rowMax)));
            Value none =
                arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ, max,
                                      f32Constant(nb, nl, -inf));
            return arith::SelectOp::create(nb, nl, none, zero, w);
          };
          Value wa = weight(x[0], x[1]), wb = weight(x[2], x[3]);
          Value rowSum = arith::AddFOp::create(nb, nl, wa, wb);
          Value empty = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                              rowSum, zero);
          auto share = [&](Value w) -> Value {
            return arith::SelectOp::create(
                nb, nl, empty, zero, arith::DivFOp::create(nb, nl, w, rowSum));
          };
          linalg::YieldOp::create(
              nb, nl, ValueRange{rowMax, rowSum, share(wa), share(wb)});
        });
    Value out = generic(
        rewriter, loc,
        {op.getOutA(), rows.getResult(2), op.getOutB(), rows.getResult(3)},
        {id4, row4, id4, row4, id4},
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                outType.getElementType()),
        4, false, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value ya = arith::MulFOp::create(nb, nl, x[0], x[1]);
          Value yb = arith::MulFOp::create(nb, nl, x[2], x[3]);
          return arith::AddFOp::create(nb, nl, ya, yb);
        });
    rewriter.replaceOp(op, {out, rows.getResult(0), rows.getResult(1)});
    return success();
  }
};

struct DecomposeAttentionPass
    : public mlir::seqpar::impl::DecomposeAttentionBase<
          DecomposeAttentionPass> {
  void runOnOperation() override {
    // seqpar.attention is one block over all keys (the same decomposition
    // as a tile's or a ring step's), the whole backward block ops; both
    // are lowered by the second walk.
    SmallVector<AttentionOp> attentions;
    SmallVector<AttentionBackwardOp> backwards;
    getOperation()->walk([&](Operation *op) {
      if (auto attention = dyn_cast<AttentionOp>(op))
        attentions.push_back(attention);
      else if (auto backward = dyn_cast<AttentionBackwardOp>(op))
        backwards.push_back(backward);
    });
    buildAttentionsAsBlocks(attentions, backwards);
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAttentionBlockPattern,
                 DecomposeAttentionBlockBackwardPattern,
                 DecomposeAttentionMergePattern>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
