//===- RaiseAttention.cpp - written-out attention -> seqpar.attention -----===//
//
// Replaces each attention that AttentionMatch.h recognises with
// seqpar.attention on the tensors holding Q, K (before any GQA repeat) and V,
// brought to [b, heads, tokens, d] where the program holds them otherwise
// (transposed; [b*heads, tokens, d] expanded; for TP's per-rank heads of a
// K/V that t does not divide, the rank's heads sliced from the tensor
// before the repeat). A tiled K/V (query head h reading K/V head h mod
// a_kv) is served by renumbering Q's heads, and the result's back. Only the
// P.V product is replaced, by the result in P.V's layout; what fed it
// becomes dead unless used elsewhere and is erased. The views built are in
// the form a clean-up would leave (no transpose of a transpose, no
// expand_shape undoing a collapse_shape, one tensor.empty per type), so the
// pipeline's clean-up after raising has nothing to do, and the module is
// not verified once more for it (docs/benchmarks.md §1). A causal
// mask (additive or a select, proven by CausalMask.h, hiding logits at or
// below -1e8) becomes the causal flag; any other mask stays an operand,
// built as a tensor when the logits' op computes it in its body.
// Attention that does not match is left as it was, with a remark at the
// P.V product saying which step failed, and every softmax left unraised
// (linalg.softmax, or the written-out forms SoftmaxMatch.h knows) gets a
// remark naming the step (docs/context-parallelism.md, "Raising attention
// from other exporters"). With `backward`, the exporter's backward of each
// raised attention becomes one seqpar.attention_backward
// (AttentionBackwardMatch.h).
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Attention/RaiseAttention.h"

#include "seqpar/Analysis/AttentionBackwardMatch.h"
#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir::seqpar {
#define GEN_PASS_DEF_RAISEATTENTION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The shape of `h` read as [b, heads, tokens, d].
RankedTensorType headsType(const HeadsOperand &h) {
  auto type = cast<RankedTensorType>(h.value.getType());
  if (!h.shape.empty())
    return type.clone(h.shape);
  SmallVector<int64_t> shape;
  for (int64_t d : h.perm)
    shape.push_back(type.getDimSize(d));
  return type.clone(shape);
}

/// `e`, an affine expression of symbol s0, computed on index `s0`;
/// floordiv and mod as affine defines them for any sign.
Value emitIndexExpr(OpBuilder &b, Location loc, AffineExpr e, Value s0) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return arith::ConstantIndexOp::create(b, loc, c.getValue());
  if (isa<AffineSymbolExpr>(e))
    return s0;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return nullptr;
  Value l = emitIndexExpr(b, loc, bin.getLHS(), s0);
  Value r = emitIndexExpr(b, loc, bin.getRHS(), s0);
  if (!l || !r)
    return nullptr;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(b, loc, l, r);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(b, loc, l, r);
  case AffineExprKind::FloorDiv:
    return arith::FloorDivSIOp::create(b, loc, l, r);
  case AffineExprKind::Mod: {
    // r > 0 (affine mod): remsi, plus r where it is negative.
    Value rem = arith::RemSIOp::create(b, loc, l, r);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    Value up = arith::AddIOp::create(b, loc, rem, r);
    return arith::SelectOp::create(b, loc, negative, up, rem);
  }
  default:
    return nullptr;
  }
}

/// Whether emitIndexExpr can compute `e`.
bool emittable(AffineExpr e) {
  bool ok = true;
  e.walk([&](AffineExpr x) {
    ok &= !isa<AffineDimExpr>(x) && x.getKind() != AffineExprKind::CeilDiv;
  });
  return ok;
}

/// `h` as [b, heads, tokens, d] (itself when already so): unit dims the
/// view does not use dropped, the rest transposed into the view's order,
/// then expanded (unit dims inserted, [b*a] split into [b, a]); for a
/// rank's heads, the slice of them.
Value materialize(OpBuilder &b, Location loc, const HeadsOperand &h,
                  const RankHeads &rank = {}) {
  auto type = cast<RankedTensorType>(h.value.getType());
  Value x = h.value;
  // Source dims in the view's order.
  SmallVector<int64_t> order;
  for (int64_t d : h.perm)
    if (d >= 0 && !llvm::is_contained(order, d))
      order.push_back(d);
  // 1. Drop the unit dims the view does not use.
  if (int64_t(order.size()) < type.getRank()) {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    SmallVector<int64_t> newIndex(type.getRank(), -1);
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      pending.push_back(d);
      if (llvm::is_contained(order, d)) {
        newIndex[d] = groups.size();
        shape.push_back(type.getDimSize(d));
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty())
      groups.back().append(pending.begin(), pending.end());
    x = tensor::CollapseShapeOp::create(b, loc, type.clone(shape), x, groups);
    for (int64_t &d : order)
      d = newIndex[d];
    type = cast<RankedTensorType>(x.getType());
  }
  // 2. Transpose into the view's order; a transpose of a transpose is one
  // (the view of a K^T the program computed is a transpose of K).
  if (auto inner = x.getDefiningOp<linalg::TransposeOp>();
      inner && !llvm::equal(order, llvm::seq<int64_t>(0, order.size()))) {
    ArrayRef<int64_t> innerOrder = inner.getPermutation();
    for (int64_t &d : order)
      d = innerOrder[d];
    x = inner.getInput();
    type = cast<RankedTensorType>(x.getType());
  }
  if (!llvm::equal(order, llvm::seq<int64_t>(0, order.size()))) {
    SmallVector<int64_t> shape;
    for (int64_t d : order)
      shape.push_back(type.getDimSize(d));
    Value init =
        tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    x = linalg::TransposeOp::create(b, loc, x, init, order).getResult()[0];
    type = cast<RankedTensorType>(x.getType());
  }
  // 3. Expand to rank 4: each view dim joins the group of the source dim
  // holding it; unit dims join the next group (the last at the end).
  if (type.getRank() < 4) {
    SmallVector<ReassociationIndices> groups(type.getRank());
    SmallVector<int64_t> shape;
    ReassociationIndices pending;
    int64_t next = 0;
    for (int64_t k = 0; k < 4; ++k) {
      if (h.perm[k] < 0) {
        pending.push_back(k);
        shape.push_back(1);
        continue;
      }
      int64_t group = llvm::find(h.perm, h.perm[k]) - h.perm.begin() == k
                          ? next++
                          : next - 1;
      groups[group].append(pending.begin(), pending.end());
      pending.clear();
      groups[group].push_back(k);
      shape.push_back(h.shape.empty() ? type.getDimSize(group) : h.shape[k]);
    }
    if (!pending.empty())
      groups.back().append(pending.begin(), pending.end());
    x = tensor::ExpandShapeOp::create(b, loc, type.clone(shape), x, groups);
    type = cast<RankedTensorType>(x.getType());
  }
  // 4. This rank's heads.
  if (rank.offset) {
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0)),
        sizes, strides(4, b.getIndexAttr(1));
    offsets[1] = emitIndexExpr(b, loc, rank.start, rank.offset);
    for (int64_t size : h.shape)
      sizes.push_back(b.getIndexAttr(size));
    x = tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
  }
  return x;
}

/// `x` [b, a, ...] with its heads h = g * a_kv + k (k the K/V head a tiled
/// K/V gives it) renumbered k * (a / a_kv) + g, so that query head h reads
/// K/V head h floordiv (a / a_kv) as seqpar.attention does; `inverse`
/// renumbers back.
Value regroupHeads(OpBuilder &b, Location loc, Value x, int64_t kvHeads,
                   bool inverse) {
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> s = type.getShape();
  int64_t groups = s[1] / kvHeads;
  if (s[1] == 1 || groups == 1)
    return x;
  int64_t outer = inverse ? kvHeads : groups, inner = inverse ? groups : kvHeads;
  SmallVector<ReassociationIndices> split{{0}, {1, 2}, {3}, {4}};
  auto expanded = tensor::ExpandShapeOp::create(
      b, loc, type.clone({s[0], outer, inner, s[2], s[3]}), x, split);
  Value init = tensor::EmptyOp::create(b, loc, {s[0], inner, outer, s[2], s[3]},
                                       type.getElementType());
  Value swapped = linalg::TransposeOp::create(b, loc, expanded, init,
                                              ArrayRef<int64_t>{0, 2, 1, 3, 4})
                      .getResult()[0];
  return tensor::CollapseShapeOp::create(b, loc, type, swapped, split);
}

/// The mask `mask` computes in the body of the op that applies it, as a
/// tensor over the loops it varies along: a generic over those loops reading
/// the inputs the mask reads, with the ops that compute it cloned (a select
/// condition becomes 0 / -inf). Null when it reads the op's outputs or
/// needs an op with regions.
Value buildBodyMask(OpBuilder &b, Location loc, const BodyMask &mask) {
  linalg::GenericOp op = mask.op;
  Block *body = op.getBody();
  // The body ops the mask reads and the inputs they read.
  llvm::SetVector<Operation *> slice;
  llvm::SetVector<unsigned> inputs;
  SmallVector<Value> work{mask.value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body)
        continue;
      if (arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
        return nullptr;
      inputs.insert(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def))
      continue;
    if (def->getNumRegions() != 0)
      return nullptr;
    slice.insert(def);
    work.append(def->operand_begin(), def->operand_end());
  }
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!mask.isSelect && mask.value.getType() != element)
    return nullptr;
  // Loop mask.loops[k] of the op becomes loop k.
  MLIRContext *ctx = b.getContext();
  unsigned numLoops = mask.loops.size();
  SmallVector<AffineExpr> renumber(op.getNumLoops(),
                                   getAffineConstantExpr(0, ctx));
  for (auto [k, l] : llvm::enumerate(mask.loops))
    renumber[l] = getAffineDimExpr(k, ctx);
  SmallVector<unsigned> used(inputs.begin(), inputs.end());
  llvm::sort(used);
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (unsigned i : used) {
    OpOperand *input = op.getDpsInputOperand(i);
    ins.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input).replaceDimsAndSymbols(
        renumber, {}, numLoops, 0));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(numLoops, ctx));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges(), shape;
  for (unsigned l : mask.loops)
    shape.push_back(ranges[l]);
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *x, Operation *y) {
    return x->isBeforeInBlock(y);
  });
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  auto built = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
      iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        IRMapping mapping;
        for (auto [k, i] : llvm::enumerate(used))
          mapping.map(body->getArgument(i), args[k]);
        for (Operation *o : ordered) {
          Operation *clone = nested.clone(*o, mapping);
          if (auto index = dyn_cast<linalg::IndexOp>(clone))
            index.setDim(cast<AffineDimExpr>(renumber[index.getDim()])
                             .getPosition());
        }
        Value v = mapping.lookupOrDefault(mask.value);
        if (mask.isSelect) {
          Value zero = arith::ConstantOp::create(
              nested, nestedLoc, element, nested.getFloatAttr(element, 0.0));
          Value hidden = arith::ConstantOp::create(
              nested, nestedLoc, element,
              nested.getFloatAttr(
                  element, -std::numeric_limits<double>::infinity()));
          v = arith::SelectOp::create(nested, nestedLoc, v,
                                      mask.keepWhenTrue ? zero : hidden,
                                      mask.keepWhenTrue ? hidden : zero);
        }
        linalg::YieldOp::create(nested, nestedLoc, v);
      });
  return built.getResult(0);
}

/// What seqpar.attention's verifier would refuse, checked before the op is
/// built (Debian's MLIR has no assertions); empty when fine.
std::string checkOperands(RankedTensorType q, RankedTensorType k,
                          RankedTensorType v, RankedTensorType mask) {
  if (k != v || k.getElementType() != q.getElementType() ||
      k.getDimSize(0) != q.getDimSize(0) ||
      k.getDimSize(3) != q.getDimSize(3) || k.getDimSize(1) < 1 ||
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

/// The dims of attention's [b, a, s, d] result each of P.V's result dims
/// holds (two for b * a + h and h * b + b).
SmallVector<ReassociationIndices> resultGroups(ArrayRef<ResultDim> dims) {
  SmallVector<ReassociationIndices> groups;
  for (ResultDim d : dims)
    switch (d) {
    case ResultDim::Batch:
      groups.push_back({0});
      break;
    case ResultDim::Head:
      groups.push_back({1});
      break;
    case ResultDim::Query:
      groups.push_back({2});
      break;
    case ResultDim::HeadDim:
      groups.push_back({3});
      break;
    case ResultDim::BatchHead:
      groups.push_back({0, 1});
      break;
    case ResultDim::HeadBatch:
      groups.push_back({1, 0});
      break;
    }
  return groups;
}

/// P.V's result from attention's [b, a, s, d] result `out`: transposed
/// into P.V's order, b and a collapsed where P.V has one batch loop. Empty
/// reason when the types agree.
std::string checkResult(RankedTensorType q, Type pvType,
                        ArrayRef<ResultDim> dims) {
  auto pv = cast<RankedTensorType>(pvType);
  SmallVector<ReassociationIndices> groups = resultGroups(dims);
  bool ok = pv.getRank() == int64_t(groups.size()) &&
            pv.getElementType() == q.getElementType();
  for (auto [r, group] : llvm::enumerate(groups)) {
    if (!ok)
      break;
    int64_t size = 1;
    for (int64_t d : group)
      size *= q.getDimSize(d);
    ok = pv.getDimSize(r) == size;
  }
  return ok ? "" : "P.V's result is not attention's [b, a, s, d] in another "
                   "layout";
}

Value inResultLayout(OpBuilder &b, Location loc, Value out, Type pvType,
                     ArrayRef<ResultDim> dims) {
  SmallVector<ReassociationIndices> groups = resultGroups(dims);
  SmallVector<int64_t> perm;
  for (const ReassociationIndices &g : groups)
    perm.append(g.begin(), g.end());
  auto type = cast<RankedTensorType>(out.getType());
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, 4))) {
    SmallVector<int64_t> shape;
    for (int64_t d : perm)
      shape.push_back(type.getDimSize(d));
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    out = linalg::TransposeOp::create(b, loc, out, init, perm).getResult()[0];
  }
  if (groups.size() == 4)
    return out;
  SmallVector<ReassociationIndices> collapse;
  int64_t next = 0;
  for (const ReassociationIndices &g : groups) {
    ReassociationIndices c;
    for (size_t k = 0; k < g.size(); ++k)
      c.push_back(next++);
    collapse.push_back(c);
  }
  return tensor::CollapseShapeOp::create(b, loc, cast<RankedTensorType>(pvType),
                                         out, collapse);
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

/// Replaces the expand_shapes that undo the collapse_shape defining
/// `collapsed` by the collapse's source: reshapes keep the row-major order,
/// so a collapse and an expand back to the source type are the identity.
void foldExpandsOfCollapse(Value collapsed) {
  auto collapse = collapsed.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return;
  for (Operation *user : llvm::make_early_inc_range(collapsed.getUsers()))
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
        expand && expand.getResultType() == collapse.getSrcType()) {
      expand.getResult().replaceAllUsesWith(collapse.getSrc());
      expand->erase();
    }
}

/// Erases what raising left dead in `block` (the written-out attention
/// that fed each replaced P.V), and makes its tensor.empty ops of one type
/// one: the first, which comes before every op of the block reading the
/// others. What a clean-up would have done after the pass.
void tidyBlock(Block &block) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(block.getOperations())))
    if (isOpTriviallyDead(&op))
      op.erase();
  llvm::DenseMap<Type, Value> firstEmpty;
  for (Operation &op : llvm::make_early_inc_range(block.getOperations())) {
    auto empty = dyn_cast<tensor::EmptyOp>(&op);
    if (!empty || empty->getNumOperands() != 0)
      continue;
    Value &first = firstEmpty[empty.getType()];
    if (!first) {
      first = empty.getResult();
      continue;
    }
    empty.getResult().replaceAllUsesWith(first);
    empty->erase();
  }
}

} // namespace

/// Replaces the products of `backward` by one seqpar.attention_backward of
/// `attention`; returns whether any product was replaced (remarks name
/// those that were not).
static bool raiseBackward(OpBuilder &b, AttentionOp attention,
                          const AttentionBackwardMatch &backward) {
  Operation *first = earliestIn(attention->getBlock(), backward.products);
  Operation *outGradDef = backward.outGrad.value.getDefiningOp();
  if (!first || (outGradDef && (outGradDef->getBlock() != first->getBlock() ||
                                !outGradDef->isBeforeInBlock(first)))) {
    emitRemark(attention.getLoc())
        << "attention backward not raised: its products and dO are not in "
           "the attention's block, in order";
    return false;
  }
  Location loc = first->getLoc();
  b.setInsertionPoint(first);
  Value outGrad = materialize(b, loc, backward.outGrad);
  auto op = AttentionBackwardOp::create(
      b, loc, attention.getQuery().getType(), attention.getKey().getType(),
      attention.getKey().getType(), attention.getQuery(), attention.getKey(),
      attention.getValue(), attention.getResult(), outGrad,
      attention.getMask(), attention.getHeadOffset(), attention.getScaleAttr(),
      attention.getCausalAttr());
  // The matcher proved the backward's mask the forward's function.
  cloneAttentionDropout(attention.getDropout(), op.getDropout());
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
  if (!op->use_empty())
    return true;
  op->erase();
  return false;
}

/// A linalg.softmax over a dim other than the last (logits laid out
/// [.., keys, queries], K.Q^T, softmax over the keys at dim -2) read by a
/// contraction becomes a softmax over the last dim between two transposes
/// swapping that dim and the last, the form the matcher reads, when the
/// attention then matches; otherwise it is left as it was.
static void moveSoftmaxDimLast(linalg::SoftmaxOp softmax) {
  if (softmax->getNumResults() != 1)
    return;
  auto type = dyn_cast<RankedTensorType>(softmax->getResult(0).getType());
  int64_t dim = softmax.getDimension();
  if (!type || type.getRank() < 2 ||
      dim == type.getRank() - 1 || !type.hasStaticShape() ||
      !contractionReading(softmax->getResult(0)))
    return;
  int64_t last = type.getRank() - 1;
  SmallVector<int64_t> order =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  std::swap(order[dim], order[last]);
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), order);
  Type element = type.getElementType();
  OpBuilder b(softmax);
  Location loc = softmax.getLoc();
  auto transpose = [&](Value x, ArrayRef<int64_t> to) {
    Value init = tensor::EmptyOp::create(b, loc, to, element);
    return linalg::TransposeOp::create(b, loc, x, init, order);
  };
  auto in = transpose(softmax.getInput(), shape);
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  auto lastSoftmax = linalg::SoftmaxOp::create(
      b, loc, TypeRange{RankedTensorType::get(shape, element)},
      in->getResult(0), init, uint64_t(last));
  auto out = transpose(lastSoftmax->getResult(0), type.getShape());
  softmax->getResult(0).replaceAllUsesWith(out->getResult(0));
  std::string why;
  Operation *pv = contractionReading(out->getResult(0));
  if (pv && succeeded(matchAttention(cast<linalg::LinalgOp>(pv), why))) {
    softmax->erase();
    return;
  }
  out->getResult(0).replaceAllUsesWith(softmax->getResult(0));
  for (Operation *op : {out.getOperation(), lastSoftmax.getOperation(),
                        in.getOperation()}) {
    SmallVector<Value> inits(cast<DestinationStyleOpInterface>(op)
                                 .getDpsInits());
    op->erase();
    for (Value v : inits)
      if (v.use_empty())
        v.getDefiningOp()->erase();
  }
}

RaisedAttention seqpar::raiseAttention(Operation *root, bool backward) {
  RaisedAttention raised;
  llvm::DenseSet<Operation *> bufferForm;
  root->walk([&](func::FuncOp func) {
    if (diagnoseBufferForm(func, "seqpar-raise-attention"))
      bufferForm.insert(func);
  });
  // GQA written as einsums reading K/V head h floordiv r: the products
  // behind a softmax (its logits' through elementwise ops and reshapes, and
  // the one reading its probabilities) read the K/V repeated by an op of
  // their own, the form the matcher follows (docs/context-parallelism.md).
  // Softmaxes over another dim than the last (K.Q^T logits).
  SmallVector<linalg::SoftmaxOp> otherDim;
  root->walk([&](linalg::SoftmaxOp softmax) {
    if (!bufferForm.contains(softmax->getParentOfType<func::FuncOp>()))
      otherDim.push_back(softmax);
  });
  for (linalg::SoftmaxOp softmax : otherDim)
    moveSoftmaxDimLast(softmax);
  llvm::SetVector<Operation *> grouped;
  root->walk([&](Operation *op) {
    if (op->getNumResults() != 1 ||
        bufferForm.contains(op->getParentOfType<func::FuncOp>()))
      return;
    Value p = op->getResult(0);
    Value logits;
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
      logits = softmax.getInput();
    else if (isa<linalg::LinalgOp>(op))
      logits = softmaxInput(p);
    if (!logits)
      return;
    if (Operation *pv = contractionReading(p))
      if (groupedOperand(cast<linalg::LinalgOp>(pv)) ||
          groupLoopPair(cast<linalg::LinalgOp>(pv)))
        grouped.insert(pv);
    SmallVector<Value> work{logits};
    llvm::DenseSet<Value> seen;
    for (int steps = 0; !work.empty() && steps < 32; ++steps) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def)
        continue;
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
              linalg::TransposeOp>(def)) {
        work.push_back(def->getOperand(0));
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
      if (!linalgOp)
        continue;
      if (groupedOperand(linalgOp) || groupLoopPair(linalgOp)) {
        grouped.insert(def);
        continue;
      }
      if (elementwiseProducer(v))
        for (OpOperand *in : linalgOp.getDpsInputOperands())
          if (linalgOp.getMatchingIndexingMap(in).isIdentity())
            work.push_back(in->get());
    }
  });
  {
    OpBuilder rewriter(root->getContext());
    for (Operation *op : grouped) {
      // A KV-head loop and a group loop become one head loop reading K/V
      // at head floordiv G, then the grouped read is materialised.
      if (Operation *collapsed =
              collapseGroupLoops(rewriter, cast<linalg::LinalgOp>(op)))
        op = collapsed;
      materializeGroupedOperand(rewriter, cast<linalg::LinalgOp>(op));
    }
  }
  SmallVector<linalg::LinalgOp> candidates;
  root->walk([&](linalg::LinalgOp op) {
    if (op.getNumDpsInputs() == 2 && op->getNumResults() == 1 &&
        !bufferForm.contains(op->getParentOfType<func::FuncOp>()))
      candidates.push_back(op);
  });
  OpBuilder b(root->getContext());
  DominanceInfo dominance(root);
  llvm::DenseSet<Value> raisedSoftmax;
  llvm::SetVector<Block *> raisedIn;
  // Softmaxes whose P.V product was found but not raised, and why.
  llvm::DenseMap<Value, std::string> unraised;
  for (linalg::LinalgOp pv : candidates) {
    std::string why;
    Value probabilities;
    FailureOr<AttentionMatch> m = matchAttention(pv, why, &probabilities);
    Location loc = pv.getLoc();
    auto refuse = [&](const std::string &reason) {
      emitRemark(loc) << "attention not raised: " << reason;
      if (probabilities && !unraised.count(probabilities))
        unraised[probabilities] = reason;
    };
    if (failed(m)) {
      if (!why.empty())
        refuse(why);
      continue;
    }
    RankedTensorType qType = headsType(m->query);
    RankedTensorType maskType =
        m->mask.value ? headsType(m->mask) : RankedTensorType();
    std::string bad =
        checkOperands(qType, headsType(m->key), headsType(m->value), maskType);
    if (bad.empty())
      bad = checkResult(qType, pv->getResult(0).getType(), m->resultDims);
    for (const RankHeads *heads : {&m->keyHeads, &m->valueHeads})
      if (bad.empty() && heads->offset && !emittable(heads->start))
        bad = "the rank's first K/V head is not computable from its slice "
              "offset";
    // The dropout's head is the global one: the rank's offset must be
    // computable where the attention is built.
    if (bad.empty() && m->dropout) {
      const IndexFunction &f = m->dropout->function;
      if (m->kvTiled)
        bad = "the probabilities' dropout is keyed by heads that K/V tiling "
              "renumbers (query head h reads K/V head h mod a_kv)";
      else if (f.offsetSymbol &&
               (!emittable(f.headOffset) ||
                !dominance.properlyDominates(f.offsetSymbol, pv)))
        bad = "the rank's head offset the dropout reads is not computable "
              "where the attention is built";
    }
    if (!bad.empty()) {
      refuse(bad);
      continue;
    }
    // The backward is matched while the forward's P.V still exists, for
    // the forms its matcher knows: Q, K, V plain [b, heads, tokens, d]
    // views, heads repeated, P.V [b*a, s, d] or [b, a, s, d].
    std::optional<AttentionBackwardMatch> backwardMatch;
    bool plainForward =
        m->query.isPermutation() && m->key.isPermutation() &&
        m->value.isPermutation() && !m->keyHeads.offset && !m->kvTiled &&
        (m->resultDims == ArrayRef<ResultDim>{ResultDim::BatchHead,
                                              ResultDim::Query,
                                              ResultDim::HeadDim} ||
         m->resultDims ==
             ArrayRef<ResultDim>{ResultDim::Batch, ResultDim::Head,
                                 ResultDim::Query, ResultDim::HeadDim});
    if (backward) {
      std::string whyBackward;
      FailureOr<AttentionBackwardMatch> bm = failure();
      // A backward reads the probabilities again (dV = P^T . dO and the
      // softmax backward); where only P.V reads them there is no backward
      // to raise, and nothing to remark in a forward graph.
      bool probabilitiesReadElsewhere =
          probabilities && llvm::any_of(probabilities.getUsers(),
                                        [&](Operation *user) {
                                          return user != pv.getOperation();
                                        });
      if (plainForward)
        bm = matchAttentionBackward(*m, pv, whyBackward);
      else if (probabilitiesReadElsewhere)
        whyBackward = "the forward's Q, K, V or P.V are not plain [b, "
                      "heads, tokens, d] tensors (the backward matcher's "
                      "form)";
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
    if (m->bodyMask.op) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(m->bodyMask.op);
      Value built = buildBodyMask(b, loc, m->bodyMask);
      if (!built) {
        refuse("the mask computed in the logits' op reads its outputs");
        continue;
      }
      m->mask.value = built;
    }
    if (m->mask.value) {
      // A mask computed in the logits' op is built before that op.
      if (Operation *def = m->mask.value.getDefiningOp())
        b.setInsertionPointAfter(def);
      mask = materialize(b, loc, m->mask);
      b.setInsertionPoint(pv);
    }
    Value query = materialize(b, loc, m->query);
    Value key = materialize(b, loc, m->key, m->keyHeads);
    Value value = materialize(b, loc, m->value, m->valueHeads);
    int64_t kvHeads = cast<RankedTensorType>(key.getType()).getDimSize(1);
    if (m->kvTiled) {
      query = regroupHeads(b, loc, query, kvHeads, false);
      if (mask)
        mask = regroupHeads(b, loc, mask, kvHeads, false);
    }
    Value headOffset;
    if (m->dropout && m->dropout->function.offsetSymbol)
      headOffset = emitIndexExpr(b, loc, m->dropout->function.headOffset,
                                 m->dropout->function.offsetSymbol);
    auto attention = AttentionOp::create(
        b, loc, qType, query, key, value, mask, headOffset,
        b.getF32FloatAttr(static_cast<float>(m->scale)),
        m->causal ? b.getUnitAttr() : nullptr);
    if (m->dropout)
      attention.getDropout().takeBody(*m->dropout->function.region);
    Value result = attention.getResult();
    if (backwardMatch && raiseBackward(b, attention, *backwardMatch))
      ++raised.backward;
    b.setInsertionPoint(pv);
    if (m->kvTiled)
      result = regroupHeads(b, loc, result, kvHeads, true);
    result = inResultLayout(b, loc, result, pv->getResult(0).getType(),
                            m->resultDims);
    pv->getResult(0).replaceAllUsesWith(result);
    foldExpandsOfCollapse(result);
    raisedIn.insert(pv->getBlock());
    pv->erase();
    ++raised.forward;
    raisedSoftmax.insert(m->probabilities);
  }
  // Softmaxes that were not part of a raised attention: say which step
  // failed, so that attention in a form the matcher does not know is
  // visible (a rank-2 softmax no contraction reads, a loss's, gets none).
  root->walk([&](Operation *op) {
    if (op->getNumResults() != 1 || op->use_empty() ||
        !isa<linalg::LinalgOp, linalg::SoftmaxOp>(op) ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return;
    Value p = op->getResult(0);
    if (raisedSoftmax.contains(p))
      return;
    if (isa<linalg::SoftmaxOp>(op) || softmaxInput(p)) {
      auto it = unraised.find(p);
      std::string why =
          it != unraised.end()
              ? "its P.V product was not raised: " + it->second
              : whySoftmaxNotAttention(p);
      if (!why.empty())
        emitRemark(op->getLoc())
            << "softmax not raised to seqpar.attention: " << why;
      return;
    }
    std::string why = whyNotSoftmax(p);
    if (!why.empty() && (contractionReading(p) ||
                         cast<RankedTensorType>(p.getType()).getRank() >= 3))
      emitRemark(op->getLoc())
          << "softmax-like value not raised to seqpar.attention: " << why;
  });
  for (Block *block : raisedIn)
    tidyBlock(*block);
  return raised;
}

namespace {

struct RaiseAttentionPass
    : public mlir::seqpar::impl::RaiseAttentionBase<RaiseAttentionPass> {
  using RaiseAttentionBase::RaiseAttentionBase;
  void runOnOperation() override {
    RaisedAttention raised = raiseAttention(getOperation(), backward);
    numRaised += raised.forward;
    numBackwardRaised += raised.backward;
  }
};

} // namespace
