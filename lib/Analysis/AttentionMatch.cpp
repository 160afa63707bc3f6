//===- AttentionMatch.cpp - written-out attention, whatever its layout ----===//

#include "seqpar/Analysis/AttentionMatch.h"

#include "seqpar/Analysis/CausalMask.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Analysis/SoftmaxMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The index space every element is traced in: the P.V product's batch
/// loops (b*a, or b and a), then query i, key j and head-dim e.
struct Space {
  MLIRContext *ctx;
  unsigned numBatch;
  SmallVector<int64_t> sizes;

  AffineExpr dim(unsigned d) const { return getAffineDimExpr(d, ctx); }
  AffineExpr i() const { return dim(numBatch); }
  AffineExpr j() const { return dim(numBatch + 1); }
  AffineExpr e() const { return dim(numBatch + 2); }
  unsigned numDims() const { return sizes.size(); }
  bool same(AffineExpr a, AffineExpr b) const { return sameExpr(a, b, sizes); }
  /// Number of (batch, head) pairs: the product of the batch loops.
  int64_t batchCount() const {
    int64_t n = 1;
    for (unsigned d = 0; d < numBatch; ++d)
      n *= sizes[d];
    return n;
  }
  /// The batch coordinate, linearised head-major.
  AffineExpr batchLinear() const {
    return numBatch == 1 ? dim(0) : dim(0) * sizes[1] + dim(1);
  }
};

/// A plain contraction into zeros with one m, n, k loop and one or two batch
/// loops, its result laid out [batch..., m, n].
struct Contraction {
  linalg::LinalgOp op;
  linalg::ContractionDimensions dims;
};

std::optional<Contraction> asContraction(Operation *def) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(def);
  linalg::ContractionDimensions dims;
  if (!op || !isBatchedContraction(op, dims))
    return std::nullopt;
  return Contraction{op, dims};
}

/// Coordinates input `operand` of `op` reads when its loops are at `loops`.
SmallVector<AffineExpr> operandCoords(linalg::LinalgOp op, unsigned operand,
                                      ArrayRef<AffineExpr> loops) {
  SmallVector<AffineExpr> coords;
  for (AffineExpr e : op.getIndexingMapsArray()[operand].getResults())
    coords.push_back(e.replaceDims(loops));
  return coords;
}

/// Input of `c` whose map reads loop `loop`.
unsigned inputReading(Contraction c, unsigned loop) {
  return c.op.getIndexingMapsArray()[0].isFunctionOfDim(loop) ? 0 : 1;
}

/// A tensor found by findHeads, with the element's batch coordinates.
struct FoundHeads {
  HeadsOperand operand;
  AffineExpr batch, head;
  int64_t score;
};

/// A rank-4 tensor on `chain` holding the element at (b, h, x, y) in some
/// order of its dims, with `score(b, h, bSize, hSize)` accepting the batch
/// coordinates (a positive score; 0 refuses). All of them, in chain order.
template <typename Score>
SmallVector<FoundHeads> findHeads(ArrayRef<TracedElement> chain, AffineExpr x,
                                  AffineExpr y, const Space &space,
                                  Score score) {
  SmallVector<FoundHeads> found;
  // x and y are dims of the space: the tensor must hold exactly their range
  // (not a longer tensor a slice was taken from).
  auto extent = [&](AffineExpr dim) {
    return space.sizes[cast<AffineDimExpr>(dim).getPosition()];
  };
  for (const TracedElement &te : chain) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    if (!type || type.getRank() != 4 || !type.hasStaticShape())
      continue;
    ArrayRef<AffineExpr> c = te.coords;
    for (int64_t px = 0; px < 4; ++px) {
      if (!space.same(c[px], x) || type.getDimSize(px) != extent(x))
        continue;
      for (int64_t py = 0; py < 4; ++py) {
        if (py == px || !space.same(c[py], y) ||
            type.getDimSize(py) != extent(y))
          continue;
        SmallVector<int64_t, 2> rest;
        for (int64_t d = 0; d < 4; ++d)
          if (d != px && d != py)
            rest.push_back(d);
        for (auto [pb, ph] :
             {std::pair(rest[0], rest[1]), std::pair(rest[1], rest[0])}) {
          if (int64_t s =
                  score(c[pb], c[ph], type.getDimSize(pb), type.getDimSize(ph)))
            found.push_back(
                {HeadsOperand{te.value, {pb, ph, px, py}}, c[pb], c[ph], s});
        }
      }
    }
  }
  return found;
}

/// Among `found` with `score`, one already in [b, heads, tokens, d] order
/// (no transpose to build), else the first. `found` holds one at least.
const FoundHeads &preferUntransposed(ArrayRef<FoundHeads> found,
                                     int64_t score) {
  const FoundHeads *first = nullptr;
  for (const FoundHeads &f : found) {
    if (f.score != score)
      continue;
    if (llvm::equal(f.operand.perm, llvm::seq<int64_t>(0, 4)))
      return f;
    if (!first)
      first = &f;
  }
  return *first;
}

/// Scale and masks peeled off the logits.
struct LogitTerms {
  double scale = 1.0;
  /// Product of the scales applied after the mask (they scale it too).
  double maskScale = 1.0;
  bool hasMask = false;
  /// Additive mask: the tensor and the coordinates the logits read.
  Value mask;
  SmallVector<AffineExpr> maskCoords;
  /// A select hiding key > query logits behind this value.
  std::optional<double> selectHidden;

  void applyScale(double c) {
    scale *= c;
    if (!hasMask)
      maskScale *= c;
  }
};


/// True when `v` comes from a contraction through at most `depth`
/// elementwise ops and data movement.
bool reachesContraction(Value v, const Space &space,
                        ArrayRef<AffineExpr> coords, int depth) {
  for (const TracedElement &te : traceElement(v, coords, space.numDims())) {
    if (asContraction(te.value.getDefiningOp()))
      return true;
    linalg::LinalgOp op = elementwiseProducer(te.value);
    if (!op || depth == 0)
      continue;
    for (OpOperand *in : op.getDpsInputOperands())
      if (op.getMatchingIndexingMap(in).isIdentity() &&
          reachesContraction(in->get(), space, te.coords, depth - 1))
        return true;
  }
  return false;
}

/// Walks `op`'s body from its yield back to the data input `dataArg`,
/// collecting into `t`: x * c, x / c, x + mask, select(cond, x, hidden).
/// False when the body computes anything else; `why` set when it is a mask
/// the op cannot express.
bool peelBody(linalg::LinalgOp op, BlockArgument dataArg,
              ArrayRef<AffineExpr> loops, const Space &space, LogitTerms &t,
              std::string &why) {
  Block *body = op.getBlock();
  Value x = body->getTerminator()->getOperand(0);
  while (x != dataArg) {
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body)
      return false;
    if (auto mul = dyn_cast<arith::MulFOp>(def)) {
      std::optional<double> c = scalarOperand(mul.getRhs(), op);
      x = mul.getLhs();
      if (!c) {
        c = scalarOperand(mul.getLhs(), op);
        x = mul.getRhs();
      }
      if (!c)
        return false;
      t.applyScale(*c);
    } else if (auto div = dyn_cast<arith::DivFOp>(def)) {
      std::optional<double> c = scalarOperand(div.getRhs(), op);
      if (!c || *c == 0.0)
        return false;
      t.applyScale(1.0 / *c);
      x = div.getLhs();
    } else if (auto add = dyn_cast<arith::AddFOp>(def)) {
      if (t.hasMask)
        return false;
      auto isInput = [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        return arg && arg.getOwner() == body && arg != dataArg &&
               arg.getArgNumber() < unsigned(op.getNumDpsInputs());
      };
      Value maskArg = isInput(add.getRhs())   ? add.getRhs()
                      : isInput(add.getLhs()) ? add.getLhs()
                                              : Value();
      if (!maskArg)
        return false;
      OpOperand *mask =
          op.getDpsInputOperand(cast<BlockArgument>(maskArg).getArgNumber());
      t.hasMask = true;
      t.mask = mask->get();
      t.maskCoords = operandCoords(op, mask->getOperandNumber(), loops);
      x = maskArg == add.getRhs() ? add.getLhs() : add.getRhs();
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
      if (t.hasMask)
        return false;
      std::optional<double> hiddenFalse =
          scalarOperand(select.getFalseValue(), op);
      std::optional<double> hiddenTrue =
          scalarOperand(select.getTrueValue(), op);
      bool keepTrue = hiddenFalse && !hiddenTrue;
      if (!keepTrue && !(hiddenTrue && !hiddenFalse))
        return false;
      std::optional<bool> visible = causalCondition(
          select.getCondition(), op, loops, space.i(), space.j(), space.sizes);
      if (!visible || *visible != keepTrue) {
        why = "the logits are masked by a select whose condition is not "
              "key <= query";
        return false;
      }
      t.hasMask = true;
      t.selectHidden = keepTrue ? *hiddenFalse : *hiddenTrue;
      x = keepTrue ? select.getTrueValue() : select.getFalseValue();
    } else {
      return false;
    }
  }
  return true;
}

/// Peels scale and masks off the logits (coordinates `coords`); returns the
/// scores, or null with `why` set.
Value peelLogits(Value logits, ArrayRef<AffineExpr> coords, const Space &space,
                 LogitTerms &t, std::string &why) {
  Value v = logits;
  while (linalg::LinalgOp op = elementwiseProducer(v)) {
    SmallVector<OpOperand *> data;
    for (OpOperand *in : op.getDpsInputOperands())
      if (op.getMatchingIndexingMap(in).isIdentity() && !splatValue(in->get()))
        data.push_back(in);
    if (data.size() > 1)
      llvm::erase_if(data, [&](OpOperand *in) {
        return !reachesContraction(in->get(), space, coords, 4);
      });
    if (data.size() != 1)
      break;
    LogitTerms next = t;
    auto dataArg = op.getBlock()->getArgument(data[0]->getOperandNumber());
    if (!peelBody(op, dataArg, coords, space, next, why)) {
      if (!why.empty())
        return nullptr;
      break;
    }
    t = next;
    v = data[0]->get();
  }
  return v;
}

} // namespace

bool seqpar::isBatchedContraction(linalg::LinalgOp op,
                                  linalg::ContractionDimensions &result) {
  if (!isPlainContraction(op))
    return false;
  std::optional<double> init = splatValue(op.getDpsInitOperand(0)->get());
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (!init || *init != 0.0 || failed(dims) || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 || dims->batch.empty() ||
      dims->batch.size() > 2)
    return false;
  SmallVector<unsigned> want(dims->batch.begin(), dims->batch.end());
  want.append({dims->m[0], dims->n[0]});
  AffineMap out = op.getIndexingMapsArray()[2];
  if (out.getNumResults() != want.size())
    return false;
  for (auto [r, loop] : llvm::enumerate(want)) {
    auto d = dyn_cast<AffineDimExpr>(out.getResult(r));
    if (!d || d.getPosition() != loop)
      return false;
  }
  result = *dims;
  return true;
}

std::optional<double> seqpar::scalarOperand(Value v, linalg::LinalgOp op) {
  // Float casts between the constant and its use round it: apply them.
  SmallVector<FloatType> casts;
  while (Operation *def = v.getDefiningOp()) {
    auto type = dyn_cast<FloatType>(def->getResult(0).getType());
    if (!type || !isa<arith::TruncFOp, arith::ExtFOp>(def))
      break;
    casts.push_back(type);
    v = def->getOperand(0);
  }
  FloatAttr c;
  if (matchPattern(v, m_Constant(&c))) {
    APFloat value = c.getValue();
    for (FloatType type : llvm::reverse(casts)) {
      bool lost;
      value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
    }
    return value.convertToDouble();
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBlock() ||
      arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
    return std::nullopt;
  return splatValue(op.getDpsInputOperand(arg.getArgNumber())->get());
}

double seqpar::maskedLogitLimit(Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType)
    return -1e8;
  double halfRange =
      APFloat::getLargest(floatType.getFloatSemantics()).convertToDouble() / 2;
  return std::max(-1e8, -halfRange);
}

FailureOr<AttentionMatch> seqpar::matchAttention(linalg::LinalgOp pvOp,
                                                 std::string &why) {
  why.clear();
  std::optional<Contraction> pv = asContraction(pvOp);
  auto outType = dyn_cast<RankedTensorType>(pvOp->getResult(0).getType());
  if (!pv || !outType || !outType.hasStaticShape())
    return failure();
  unsigned numBatch = pv->dims.batch.size();
  SmallVector<int64_t> ranges = pvOp.getStaticLoopRanges();
  Space space{pvOp->getContext(), numBatch, {}};
  for (unsigned l : pv->dims.batch)
    space.sizes.push_back(ranges[l]);
  space.sizes.append(
      {ranges[pv->dims.m[0]], ranges[pv->dims.k[0]], ranges[pv->dims.n[0]]});
  SmallVector<AffineExpr> loops(pvOp.getNumLoops());
  for (auto [b, l] : llvm::enumerate(pv->dims.batch))
    loops[l] = space.dim(b);
  loops[pv->dims.m[0]] = space.i();
  loops[pv->dims.k[0]] = space.j();
  loops[pv->dims.n[0]] = space.e();

  // P: the softmax over the keys behind the operand read at (.., i, j).
  AttentionMatch m;
  m.numBatchLoops = numBatch;
  unsigned pIndex = inputReading(*pv, pv->dims.m[0]);
  SmallVector<AffineExpr> pCoords;
  Value logits;
  for (const TracedElement &te :
       traceElement(pvOp.getDpsInputOperand(pIndex)->get(),
                    operandCoords(pvOp, pIndex, loops), space.numDims())) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    bool rowIsKeys =
        type && type.getRank() > 0 && space.same(te.coords.back(), space.j()) &&
        type.getShape().back() == space.sizes[numBatch + 1] &&
        llvm::none_of(ArrayRef(te.coords).drop_back(), [&](AffineExpr e) {
          return e.isFunctionOfDim(numBatch + 1);
        });
    if (rowIsKeys && (logits = softmaxInput(te.value))) {
      m.probabilities = te.value;
      pCoords = te.coords;
      break;
    }
  }
  if (!logits)
    return failure();
  // Head counts and coordinates below are divided by these sizes.
  if (llvm::any_of(ranges, [](int64_t size) { return size < 1; })) {
    why = "P.V has an empty or dynamic loop (no query, key, head or head "
          "dim to attend over)";
    return failure();
  }

  LogitTerms terms;
  Value scores = peelLogits(logits, pCoords, space, terms, why);
  if (!scores)
    return failure();

  // Q.K^T: a contraction whose rows and columns are P's queries and keys.
  std::optional<Contraction> qk;
  SmallVector<AffineExpr> qkLoops;
  for (const TracedElement &te :
       traceElement(scores, pCoords, space.numDims())) {
    qk = asContraction(te.value.getDefiningOp());
    if (!qk)
      continue;
    unsigned nb = qk->dims.batch.size();
    qkLoops.assign(qk->op.getNumLoops(), AffineExpr());
    for (auto [b, l] : llvm::enumerate(qk->dims.batch))
      qkLoops[l] = te.coords[b];
    qkLoops[qk->dims.m[0]] = te.coords[nb];
    qkLoops[qk->dims.n[0]] = te.coords[nb + 1];
    qkLoops[qk->dims.k[0]] = space.e();
    if (!space.same(te.coords[nb], space.i()) ||
        !space.same(te.coords[nb + 1], space.j())) {
      why = "the logits' rows and columns are not Q.K^T's queries and keys";
      return failure();
    }
    if (qk->op.getStaticLoopRanges()[qk->dims.k[0]] !=
        space.sizes[numBatch + 2]) {
      why = "Q.K^T and P.V have different head dims";
      return failure();
    }
    break;
  }
  if (!qk) {
    why = "the logits are not a contraction Q.K^T times a constant, plus a "
          "mask";
    return failure();
  }

  // Q as [b, a, s, d]: its batch coordinates linearise to P.V's.
  unsigned qIndex = inputReading(*qk, qk->dims.m[0]);
  auto qFound = findHeads(
      traceElement(qk->op.getDpsInputOperand(qIndex)->get(),
                   operandCoords(qk->op, qIndex, qkLoops), space.numDims()),
      space.i(), space.e(), space,
      [&](AffineExpr b, AffineExpr h, int64_t bSize, int64_t hSize) -> int64_t {
        return bSize * hSize == space.batchCount() &&
                       space.same(b * hSize + h, space.batchLinear())
                   ? 1
                   : 0;
      });
  if (qFound.empty()) {
    why = "no tensor behind Q.K^T holds Q as [b, a, s, d] (up to a "
          "transpose)";
    return failure();
  }
  const FoundHeads &q = preferUntransposed(qFound, 1);
  m.query = q.operand;
  AffineExpr bExpr = q.batch, hExpr = q.head;
  int64_t heads = cast<RankedTensorType>(m.query.value.getType())
                      .getDimSize(m.query.perm[1]);
  // P's coordinates in the (b, h, i, j, e) dims the backward is matched in:
  // P.V's batch loops are b * heads + h, or b and h.
  {
    MLIRContext *ctx = pvOp->getContext();
    AffineExpr cb = getAffineDimExpr(0, ctx), ch = getAffineDimExpr(1, ctx);
    SmallVector<AffineExpr> batchDims;
    if (numBatch == 1)
      batchDims.push_back(cb * heads + ch);
    else if (space.same(bExpr, space.dim(0)) && space.same(hExpr, space.dim(1)))
      batchDims.append({cb, ch});
    if (!batchDims.empty()) {
      batchDims.append({getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx),
                        getAffineDimExpr(4, ctx)});
      for (AffineExpr e : pCoords)
        m.probabilityCoords.push_back(
            simplifyAffineExpr(e.replaceDims(batchDims), 5, 1));
    }
  }

  // K and V as [b, a_kv, t, d], before any GQA repeat: head h reads KV head
  // h floordiv r; the largest r both allow.
  int64_t batch = space.batchCount() / heads;
  auto kvScore = [&](AffineExpr b, AffineExpr h, int64_t bSize,
                     int64_t hSize) -> int64_t {
    if (bSize != batch || hSize <= 0 || heads % hSize != 0)
      return 0;
    int64_t r = heads / hSize;
    return space.same(b, bExpr) && space.same(h, hExpr.floorDiv(r)) ? r : 0;
  };
  unsigned kIndex = 1 - qIndex, vIndex = 1 - pIndex;
  auto kFound = findHeads(traceElement(qk->op.getDpsInputOperand(kIndex)->get(),
                                       operandCoords(qk->op, kIndex, qkLoops),
                                       space.numDims()),
                          space.j(), space.e(), space, kvScore);
  auto vFound = findHeads(traceElement(pvOp.getDpsInputOperand(vIndex)->get(),
                                       operandCoords(pvOp, vIndex, loops),
                                       space.numDims()),
                          space.j(), space.e(), space, kvScore);
  int64_t best = 0;
  for (const FoundHeads &k : kFound)
    for (const FoundHeads &v : vFound)
      if (k.score == v.score)
        best = std::max(best, k.score);
  if (!best) {
    why = "no tensors behind Q.K^T and P.V hold K and V as [b, a_kv, t, d] "
          "(up to a transpose) with the same number of heads";
    return failure();
  }
  m.key = preferUntransposed(kFound, best).operand;
  m.value = preferUntransposed(vFound, best).operand;

  // Scale and mask.
  m.scale = terms.scale;
  int64_t s = space.sizes[numBatch], t = space.sizes[numBatch + 1];
  std::optional<double> hidden = terms.selectHidden;
  if (terms.mask)
    hidden = causalMaskValue(terms.mask, terms.maskCoords, space.i(), space.j(),
                             space.sizes);
  Type logitType =
      cast<ShapedType>(m.probabilities.getType()).getElementType();
  bool lowEnough = hidden && terms.maskScale > 0 &&
                   *hidden * terms.maskScale <= maskedLogitLimit(logitType);
  if (terms.selectHidden && (!lowEnough || s != t)) {
    why = "the select hides logits with a value above -1e8 (-32752 in "
          "f16; not -inf for every row), or s != t";
    return failure();
  }
  if (lowEnough && s == t) {
    m.causal = true;
    return m;
  }
  if (!terms.mask)
    return m;
  if (terms.maskScale != 1.0) {
    why = "the mask is added before the scale";
    return failure();
  }
  SmallVector<TracedElement> maskChain =
      traceElement(terms.mask, terms.maskCoords, space.numDims());
  auto isZero = [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 0;
  };
  auto maskFound =
      findHeads(maskChain, space.i(), space.j(), space,
                [&](AffineExpr b, AffineExpr h, int64_t bSize, int64_t hSize) {
                  bool bOk = space.same(b, bExpr) || (isZero(b) && bSize == 1);
                  bool hOk = space.same(h, hExpr) || (isZero(h) && hSize == 1);
                  return int64_t(bOk && hOk);
                });
  if (!maskFound.empty()) {
    m.mask = maskFound.front().operand;
    return m;
  }
  for (const TracedElement &te : maskChain) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    if (!type || !type.hasStaticShape())
      continue;
    ArrayRef<AffineExpr> c = te.coords;
    bool small =
        (type.getRank() == 2 && space.same(c[0], space.i()) &&
         space.same(c[1], space.j())) ||
        (type.getRank() == 3 && isZero(c[0]) && type.getDimSize(0) == 1 &&
         space.same(c[1], space.i()) && space.same(c[2], space.j()));
    if (small) {
      m.smallMask = te.value;
      return m;
    }
  }
  why = "the mask is not held as [b|1, a|1, s, t], [1, s, t] or [s, t]";
  return failure();
}
