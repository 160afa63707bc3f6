//===- AttentionMatch.cpp - written-out attention, whatever its layout ----===//

#include "seqpar/Analysis/AttentionMatch.h"

#include "seqpar/Analysis/CausalMask.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/DropoutMatch.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Analysis/SoftmaxMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The index space every element is traced in: the P.V product's batch
/// loops (b*a, a*b, or b and a either way round), then query i, key j and
/// head-dim e.
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
};

/// A plain contraction into zeros with one m, n, k loop and one or two batch
/// loops, its result dims its batch, m and n loops in any order (P.V
/// written token-major, [b, s, a, d], among them).
struct Contraction {
  linalg::LinalgOp op;
  linalg::ContractionDimensions dims;
  AffineMap out;

  /// The loops' expressions when the result is at `coords` (k: `k`).
  SmallVector<AffineExpr> loopsAt(ArrayRef<AffineExpr> coords,
                                  AffineExpr k) const {
    SmallVector<AffineExpr> loops(linalg::LinalgOp(op).getNumLoops(), k);
    for (auto [r, c] : llvm::enumerate(coords))
      loops[out.getDimPosition(r)] = c;
    return loops;
  }
};

/// Whether some parallel loop of `op` indexes both inputs and the output:
/// a batch loop (a head, a batch element), which every product attention
/// is made of has and a linear's (its weight is indexed by no token loop)
/// has not. Necessary for `inferContractionDims` to find one, and much
/// cheaper: most 2-input ops the matchers ask about are linears.
bool hasBatchLoop(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return llvm::any_of(llvm::seq(op.getNumLoops()), [&](unsigned loop) {
    return iterators[loop] == utils::IteratorType::parallel &&
           llvm::all_of(
               maps, [&](AffineMap map) { return map.isFunctionOfDim(loop); });
  });
}

std::optional<Contraction> asContraction(Operation *def) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(def);
  if (!op || !isPlainContraction(op) || !hasBatchLoop(op))
    return std::nullopt;
  std::optional<double> init = splatValue(op.getDpsInitOperand(0)->get());
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (!init || *init != 0.0 || failed(dims) || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 || dims->batch.empty() ||
      dims->batch.size() > 2)
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isProjectedPermutation() ||
      out.getNumResults() != dims->batch.size() + 2 ||
      out.isFunctionOfDim(dims->k[0]))
    return std::nullopt;
  return Contraction{op, *dims, out};
}

/// Coordinates input `operand` of `op` reads when its loops are at `loops`.
SmallVector<AffineExpr> operandCoords(linalg::LinalgOp op, unsigned operand,
                                      ArrayRef<AffineExpr> loops) {
  SmallVector<AffineExpr> coords;
  for (AffineExpr e : op.getIndexingMapsArray()[operand].getResults())
    coords.push_back(e.replaceDims(loops));
  return coords;
}

/// The shape `h` is read as.
SmallVector<int64_t> headsTypeShape(const HeadsOperand &h) {
  if (!h.shape.empty())
    return SmallVector<int64_t>(h.shape.begin(), h.shape.end());
  auto type = cast<RankedTensorType>(h.value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : h.perm)
    shape.push_back(type.getDimSize(d));
  return shape;
}

/// The batch loops' form for a query view with batch coordinate `b` of
/// `batch` and head `h` of `heads`: for each batch loop, what it counts.
/// (b, h) or (h, b) for two loops, b * heads + h or h * batch + b for one.
std::optional<SmallVector<ResultDim, 2>>
batchForm(const Space &space, AffineExpr b, AffineExpr h, int64_t batch,
          int64_t heads) {
  if (batch * heads != space.batchCount())
    return std::nullopt;
  if (space.numBatch == 2) {
    if (space.sizes[0] == batch && space.same(b, space.dim(0)) &&
        space.same(h, space.dim(1)))
      return SmallVector<ResultDim, 2>{ResultDim::Batch, ResultDim::Head};
    if (space.sizes[0] == heads && space.same(h, space.dim(0)) &&
        space.same(b, space.dim(1)))
      return SmallVector<ResultDim, 2>{ResultDim::Head, ResultDim::Batch};
    return std::nullopt;
  }
  if (space.same(b * heads + h, space.dim(0)))
    return SmallVector<ResultDim, 2>{ResultDim::BatchHead};
  if (space.same(h * batch + b, space.dim(0)))
    return SmallVector<ResultDim, 2>{ResultDim::HeadBatch};
  return std::nullopt;
}

/// Calls `visit(te, perm)` for each static rank-3 or rank-4 tensor on
/// `chain` whose coordinates hold nothing unknown and each way its dims may
/// hold [batch, heads, tokens, d]: perm[2] holds `tokens` (of `numTokens`),
/// perm[3] the head dim, perm[0] and perm[1] the other two dims either way
/// round (rank 4) or both the remaining dim (rank 3, [b*heads, tokens, d]).
template <typename Visit>
void forEachHeadsLayout(ArrayRef<TracedElement> chain, const Space &space,
                        AffineExpr tokens, int64_t numTokens, Visit visit) {
  int64_t d = space.sizes[space.numBatch + 2];
  for (const TracedElement &te : chain) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    if (!type || !type.hasStaticShape() ||
        (type.getRank() != 4 && type.getRank() != 3) ||
        llvm::any_of(te.coords, hasUnknown))
      continue;
    int64_t rank = type.getRank();
    for (int64_t px = 0; px < rank; ++px) {
      if (!space.same(te.coords[px], tokens) ||
          type.getDimSize(px) != numTokens)
        continue;
      for (int64_t py = 0; py < rank; ++py) {
        if (py == px || !space.same(te.coords[py], space.e()) ||
            type.getDimSize(py) != d)
          continue;
        SmallVector<int64_t, 2> rest;
        for (int64_t k = 0; k < rank; ++k)
          if (k != px && k != py)
            rest.push_back(k);
        if (rank == 3) {
          visit(te, type, SmallVector<int64_t, 4>{rest[0], rest[0], px, py});
          continue;
        }
        visit(te, type, SmallVector<int64_t, 4>{rest[0], rest[1], px, py});
        visit(te, type, SmallVector<int64_t, 4>{rest[1], rest[0], px, py});
      }
    }
  }
}

/// A query view: Q as [b, a, s, d] with its batch coordinates.
struct QueryView {
  HeadsOperand operand;
  AffineExpr batch, head;
  int64_t batchSize, heads;
  SmallVector<ResultDim, 2> form;
};

/// Every view of Q on `chain`, preferred first: rank-4 tensors holding
/// (b, h, i, e) in some order (untransposed first), then rank-3 tensors
/// [b*a, s, d] (in some order) split into b and a every way the batch
/// loops allow (no 4-D origin: a function argument, a value computed 3-D).
SmallVector<QueryView> findQueries(ArrayRef<TracedElement> chain,
                                   const Space &space) {
  SmallVector<QueryView> plain, transposed, flat;
  int64_t s = space.sizes[space.numBatch], d = space.sizes[space.numBatch + 2];
  forEachHeadsLayout(
      chain, space, space.i(), s,
      [&](const TracedElement &te, RankedTensorType type,
          SmallVector<int64_t, 4> perm) {
        ArrayRef<AffineExpr> c = te.coords;
        int64_t pb = perm[0], ph = perm[1];
        if (pb != ph) {
          int64_t bSize = type.getDimSize(pb), hSize = type.getDimSize(ph);
          if (auto form = batchForm(space, c[pb], c[ph], bSize, hSize))
            (llvm::equal(perm, llvm::seq<int64_t>(0, 4)) ? plain : transposed)
                .push_back({HeadsOperand{te.value, perm, {}}, c[pb], c[ph],
                            bSize, hSize, *form});
          return;
        }
        // [b*a, s, d]: split the combined dim, b outer, every way.
        int64_t combined = type.getDimSize(pb);
        if (combined != space.batchCount())
          return;
        for (int64_t batch = 1; batch <= combined; ++batch) {
          if (combined % batch != 0)
            continue;
          int64_t heads = combined / batch;
          AffineExpr b = c[pb].floorDiv(heads), h = c[pb] % heads;
          if (auto form = batchForm(space, b, h, batch, heads))
            flat.push_back({HeadsOperand{te.value, perm, {batch, heads, s, d}},
                            b, h, batch, heads, *form});
        }
      });
  plain.append(transposed.begin(), transposed.end());
  plain.append(flat.begin(), flat.end());
  return plain;
}

/// A K or V view with the GQA repeat it implies: query head h reads K/V
/// head h floordiv (a / a_kv), or h mod a_kv when `tiled`.
struct KVView {
  HeadsOperand operand;
  int64_t groups;
  bool tiled;
  /// 0: [b, a_kv, t, d] as it is; 1: transposed; 2: a view needing more
  /// (a [b*a_kv, t, d] split, a rank's heads).
  int cost;
  RankHeads rankHeads = {};
};

/// Whether head coordinate `kvHead` of a K/V with `kvHeads` heads is the
/// query head `q.head` repeated (floordiv) or tiled (mod): the group size,
/// negative when tiled; 0 when neither.
int64_t headMapping(const Space &space, const QueryView &q, AffineExpr kvHead,
                    int64_t kvHeads) {
  if (kvHeads <= 0 || q.heads % kvHeads != 0)
    return 0;
  int64_t r = q.heads / kvHeads;
  if (space.same(kvHead, q.head.floorDiv(r)))
    return r;
  if (space.same(kvHead, q.head % kvHeads))
    return -r;
  return 0;
}

/// Every view of K or V (tokens j) on `chain` for query view `q`: rank-4
/// [b, a_kv, t, d] in some order and rank-3 [b*a_kv, t, d].
SmallVector<KVView> findKeysOrValues(ArrayRef<TracedElement> chain,
                                     const Space &space, const QueryView &q) {
  SmallVector<KVView> found;
  int64_t t = space.sizes[space.numBatch + 1],
          d = space.sizes[space.numBatch + 2];
  forEachHeadsLayout(
      chain, space, space.j(), t,
      [&](const TracedElement &te, RankedTensorType type,
          SmallVector<int64_t, 4> perm) {
        ArrayRef<AffineExpr> c = te.coords;
        int64_t pb = perm[0], ph = perm[1];
        // The batch coordinate and the K/V head, of hk heads.
        AffineExpr batch = c[pb], head = c[ph];
        int64_t hk = type.getDimSize(ph);
        SmallVector<int64_t, 0> shape;
        if (pb == ph) {
          // [b*a_kv, t, d].
          if (hk % q.batchSize != 0)
            return;
          hk /= q.batchSize;
          batch = c[pb].floorDiv(hk);
          head = c[pb] % hk;
          shape = {q.batchSize, hk, t, d};
        } else if (type.getDimSize(pb) != q.batchSize) {
          return;
        }
        if (!space.same(batch, q.batch))
          return;
        if (int64_t g = headMapping(space, q, head, hk))
          found.push_back({HeadsOperand{te.value, perm, shape}, std::abs(g),
                           g < 0,
                           pb == ph ? 2
                           : llvm::equal(perm, llvm::seq<int64_t>(0, 4))
                               ? 0
                               : 1});
      });
  return found;
}

/// K or V behind a slice of heads whose offset depends on the rank: TP
/// with t not dividing a_kv repeats K/V to a heads and keeps this rank's
/// a/t, so the tensor before the repeat is read at heads (offset + h)
/// floordiv r. When every rank's heads read `groups` consecutive query
/// heads per K/V head, the view is that compact tensor's heads [start,
/// start + a'/groups), start an expression of the offset. Views with
/// groups larger than `atLeast` only.
SmallVector<KVView> findRankSliced(ArrayRef<TracedElement> chain,
                                   const Space &space, const QueryView &q,
                                   int64_t atLeast) {
  SmallVector<KVView> found;
  // The slice with the dynamic offset: the entry before the first whose
  // coordinates hold the unknown symbol.
  size_t first = 0;
  while (first < chain.size() &&
         llvm::none_of(chain[first].coords, hasUnknown))
    ++first;
  if (first == 0 || first == chain.size())
    return found;
  auto slice = chain[first - 1].value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getOffsets().size() != 1)
    return found;
  Value offset = slice.getOffsets()[0];
  SmallVector<int64_t> offsets = valuesOverRanks(offset);
  if (offsets.empty())
    return found;
  int64_t t = space.sizes[space.numBatch + 1],
          d = space.sizes[space.numBatch + 2];
  MLIRContext *ctx = space.ctx;
  SmallVector<AffineExpr> zeros(space.numDims(),
                                getAffineConstantExpr(0, ctx));
  if (evaluateAt(q.head, zeros) != 0)
    return found;
  // Each entry's coordinates on every rank (the symbol replaced by the
  // rank's offset: the simplifier cannot tell b * a + offset + h apart
  // without it).
  auto onRank = [&](AffineExpr e, int64_t o) {
    return simplifyAffineExpr(
        e.replaceSymbols({getAffineConstantExpr(o, ctx)}), space.numDims(),
        0);
  };
  for (const TracedElement &te : chain.drop_front(first)) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    if (!type || !type.hasStaticShape() || type.getRank() != 4)
      continue;
    // A dim holds `want` of `size` on every rank.
    auto holds = [&](int64_t dim, AffineExpr want, int64_t size) {
      return type.getDimSize(dim) == size &&
             llvm::all_of(offsets, [&](int64_t o) {
               return space.same(onRank(te.coords[dim], o), want);
             });
    };
    for (int64_t px = 0; px < 4; ++px) {
      if (!holds(px, space.j(), t))
        continue;
      for (int64_t py = 0; py < 4; ++py) {
        if (py == px || !holds(py, space.e(), d))
          continue;
        for (int64_t pb = 0; pb < 4; ++pb) {
          if (pb == px || pb == py || !holds(pb, q.batch, q.batchSize))
            continue;
          int64_t ph = 6 - px - py - pb;
          AffineExpr head = te.coords[ph];
          int64_t hk = type.getDimSize(ph);
          for (int64_t g = q.heads; g > atLeast; --g) {
            if (q.heads % g != 0)
              continue;
            int64_t n = q.heads / g;
            bool ok = true;
            for (int64_t o : offsets) {
              AffineExpr at = onRank(head, o);
              std::optional<int64_t> start = evaluateAt(at, zeros);
              ok = start && *start >= 0 && *start + n <= hk &&
                   space.same(at, q.head.floorDiv(g) + *start);
              if (!ok)
                break;
            }
            if (!ok)
              continue;
            AffineExpr start = simplifyAffineExpr(head.replaceDims(zeros),
                                                  space.numDims(), 1);
            found.push_back({HeadsOperand{te.value,
                                          {pb, ph, px, py},
                                          {q.batchSize, n, t, d}},
                             g, false, 2, RankHeads{offset, start}});
            break;
          }
        }
      }
    }
  }
  return found;
}

/// The mask's view on `chain` (its element at (b, h, i, j) of the logits):
/// each dim of a tensor holds b, h, b * a + h, i or j, or is a unit dim;
/// the view has unit dims for the rest ([b, 1, 1, t] key padding, [1, 1,
/// s, t], [s, t], [b*a, s, t] all qualify). The smallest one, nearest on
/// ties.
std::optional<HeadsOperand> findMaskView(ArrayRef<TracedElement> chain,
                                         const Space &space,
                                         const QueryView &q,
                                         RankedTensorType unbuilt = {}) {
  int64_t s = space.sizes[space.numBatch], t = space.sizes[space.numBatch + 1];
  AffineExpr zero = getAffineConstantExpr(0, space.ctx);
  std::optional<HeadsOperand> best;
  int64_t bestSize = 0;
  for (const TracedElement &te : chain) {
    auto type = te.value ? dyn_cast<RankedTensorType>(te.value.getType())
                         : unbuilt;
    if (!type || !type.hasStaticShape() || type.getRank() > 4 ||
        type.getRank() == 0)
      continue;
    SmallVector<int64_t, 4> perm(4, -1);
    struct RoleOf {
      unsigned role;
      AffineExpr expr;
      int64_t size;
    };
    RoleOf roles[] = {{2, space.i(), s},
                      {3, space.j(), t},
                      {0, q.batch, q.batchSize},
                      {1, q.head, q.heads}};
    bool ok = true;
    for (int64_t d = 0; ok && d < type.getRank(); ++d) {
      AffineExpr c = te.coords[d];
      int64_t size = type.getDimSize(d);
      if (size == 1 && space.same(c, zero))
        continue;
      ok = false;
      for (const RoleOf &r : roles)
        if (perm[r.role] < 0 && size == r.size && space.same(c, r.expr)) {
          perm[r.role] = d;
          ok = true;
          break;
        }
      if (!ok && perm[0] < 0 && perm[1] < 0 &&
          size == q.batchSize * q.heads &&
          space.same(c, q.batch * q.heads + q.head)) {
        perm[0] = perm[1] = d;
        ok = true;
      }
    }
    if (!ok || llvm::all_of(perm, [](int64_t p) { return p < 0; }))
      continue;
    SmallVector<int64_t, 0> shape{perm[0] >= 0 ? q.batchSize : 1,
                                  perm[1] >= 0 ? q.heads : 1,
                                  perm[2] >= 0 ? s : 1, perm[3] >= 0 ? t : 1};
    HeadsOperand view{te.value, perm, shape};
    if (type.getRank() == 4 && !(perm[0] >= 0 && perm[0] == perm[1])) {
      // A rank-4 tensor: its unit dims serve as the view's, in order, so
      // that it is read by a transpose at most.
      SmallVector<int64_t> units;
      for (int64_t d = 0; d < 4; ++d)
        if (!llvm::is_contained(perm, d))
          units.push_back(d);
      for (int64_t &p : view.perm)
        if (p < 0)
          p = units.front(), units.erase(units.begin());
      view.shape.clear();
    }
    int64_t size = type.getNumElements();
    if (!best || size < bestSize) {
      best = view;
      bestSize = size;
    }
  }
  return best;
}

/// A dropout between P and P.V, found before Q's view (which places the
/// batch and head in P.V's batch loops) is known: P.V's operand and the
/// coordinates it reads, and the factors between it and P.
struct PendingDropout {
  PeeledDropout peel;
  Value value;
  SmallVector<AffineExpr> coords;
};

/// Scale and masks peeled off the logits: at most one additive mask (a
/// tensor, a term computed in the body, or a -inf select under another
/// condition) and at most one causal select, in either order.
struct LogitTerms {
  /// Product of the scales peeled so far (applied after what is peeled
  /// next).
  double scale = 1.0;
  /// Additive mask: the tensor and the coordinates the logits read.
  Value mask;
  SmallVector<AffineExpr> maskCoords;
  /// A mask computed in the body of the op that applies it, with the
  /// coordinates of that op's result; for an additive term that is
  /// select(key <= query, 0, c), c.
  BodyMask bodyMask;
  SmallVector<AffineExpr> bodyMaskCoords;
  std::optional<double> bodyCausalHidden;
  /// The scales applied after the additive mask (they scale it too).
  double additiveScale = 1.0;
  /// A select hiding key > query logits behind this value, and the scales
  /// applied after it.
  std::optional<double> selectHidden;
  double selectScale = 1.0;
  /// With both: the program selects first and adds the mask to the
  /// select's result (Hugging Face GPT-2's eager attention), rather than
  /// selecting among the masked logits.
  bool selectThenAdd = false;

  bool hasAdditive() const { return mask || bodyMask.op; }
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

/// The loops of `op` that `v`, computed in its body, varies along: those
/// its inputs' maps and its linalg.index ops use, in order (all of them
/// when none).
SmallVector<unsigned, 4> maskLoops(linalg::GenericOp op, Value v) {
  Block *body = op.getBody();
  llvm::SmallBitVector used(op.getNumLoops());
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (arg.getOwner() == body &&
          arg.getArgNumber() < unsigned(op.getNumDpsInputs()))
        for (AffineExpr e :
             op.getMatchingIndexingMap(op.getDpsInputOperand(arg.getArgNumber()))
                 .getResults())
          e.walk([&](AffineExpr d) {
            if (auto dim = dyn_cast<AffineDimExpr>(d))
              used.set(dim.getPosition());
          });
      continue;
    }
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(def))
      if (index.getDim() < op.getNumLoops())
        used.set(index.getDim());
    work.append(def->operand_begin(), def->operand_end());
  }
  if (used.none())
    used.set();
  SmallVector<unsigned, 4> loops;
  for (unsigned l : used.set_bits())
    loops.push_back(l);
  return loops;
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
      t.scale *= *c;
    } else if (auto div = dyn_cast<arith::DivFOp>(def)) {
      std::optional<double> c = scalarOperand(div.getRhs(), op);
      if (!c || *c == 0.0)
        return false;
      t.scale *= 1.0 / *c;
      x = div.getLhs();
    } else if (auto add = dyn_cast<arith::AddFOp>(def)) {
      if (t.hasAdditive())
        return false;
      t.additiveScale = t.scale;
      auto isInput = [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        return arg && arg.getOwner() == body && arg != dataArg &&
               arg.getArgNumber() < unsigned(op.getNumDpsInputs());
      };
      Value maskArg = isInput(add.getRhs())   ? add.getRhs()
                      : isInput(add.getLhs()) ? add.getLhs()
                                              : Value();
      if (!maskArg) {
        // A term computed in the body from the other inputs (an attention
        // mask input turned into -1e4 or finfo.min, positions compared):
        // built as a tensor by the raiser.
        bool lhsData = readsArgument(add.getLhs(), dataArg, body);
        bool rhsData = readsArgument(add.getRhs(), dataArg, body);
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (lhsData == rhsData || !generic)
          return false;
        Value term = lhsData ? add.getRhs() : add.getLhs();
        t.bodyMask = {generic, term, false, true, maskLoops(generic, term)};
        t.bodyMaskCoords.assign(loops.begin(), loops.end());
        // select(key <= query, 0, c): causal when c is low enough.
        if (auto sel = term.getDefiningOp<arith::SelectOp>();
            sel && sel->getBlock() == body) {
          std::optional<double> tv = scalarOperand(sel.getTrueValue(), op),
                                fv = scalarOperand(sel.getFalseValue(), op);
          std::optional<bool> visible =
              causalCondition(sel.getCondition(), op, loops, space.i(),
                              space.j(), space.sizes);
          if (visible && tv && fv) {
            double shown = *visible ? *tv : *fv, hidden = *visible ? *fv : *tv;
            if (shown == 0.0 && hidden < 0.0)
              t.bodyCausalHidden = hidden;
          }
        }
        x = lhsData ? add.getLhs() : add.getRhs();
        continue;
      }
      OpOperand *mask =
          op.getDpsInputOperand(cast<BlockArgument>(maskArg).getArgNumber());
      t.mask = mask->get();
      t.maskCoords = operandCoords(op, mask->getOperandNumber(), loops);
      x = maskArg == add.getRhs() ? add.getLhs() : add.getRhs();
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
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
        // Any other condition hiding with -inf is the additive mask 0 /
        // -inf exactly (x + -inf = -inf for finite x); a finite hidden
        // value is not: a row that hides every key would weigh its keys
        // by x + c rather than uniformly.
        if (t.hasAdditive())
          return false;
        double hidden = keepTrue ? *hiddenFalse : *hiddenTrue;
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (!std::isinf(hidden) || hidden > 0 || !generic ||
            readsArgument(select.getCondition(), dataArg, body)) {
          why = "the logits are masked by a select whose condition is not "
                "key <= query and whose hidden value is not -inf (as an "
                "additive mask it would differ on rows that hide every key)";
          return false;
        }
        t.additiveScale = t.scale;
        t.bodyMask = {generic, select.getCondition(), true, keepTrue,
                      maskLoops(generic, select.getCondition())};
        t.bodyMaskCoords.assign(loops.begin(), loops.end());
        x = keepTrue ? select.getTrueValue() : select.getFalseValue();
        continue;
      }
      if (t.selectHidden)
        return false;
      // Peeled from the result back: an additive mask peeled already is
      // added after this select.
      t.selectThenAdd = t.hasAdditive();
      t.selectScale = t.scale;
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
Value peelLogits(Value logits, SmallVectorImpl<AffineExpr> &coords,
                 const Space &space, LogitTerms &t, std::string &why) {
  Value v = logits;
  while (true) {
    linalg::LinalgOp op = elementwiseProducer(v);
    SmallVector<OpOperand *> data;
    if (op)
      for (OpOperand *in : op.getDpsInputOperands())
        if (op.getMatchingIndexingMap(in).isIdentity() &&
            !splatValue(in->get()))
          data.push_back(in);
    if (!op || data.empty()) {
      // Reshapes and transposes between the terms (the scale applied to
      // [b*a, s, t], the mask to [b, a, s, t], logits [.., t, s] transposed
      // for a softmax over the last dim): continue at the next elementwise
      // op behind them, at the element's coordinates there.
      SmallVector<TracedElement> chain =
          traceElement(v, coords, space.numDims());
      auto next = llvm::find_if(ArrayRef(chain).drop_front(),
                                [](const TracedElement &te) {
                                  return elementwiseProducer(te.value) &&
                                         !asContraction(
                                             te.value.getDefiningOp());
                                });
      if (next == chain.end())
        break;
      v = next->value;
      coords.assign(next->coords.begin(), next->coords.end());
      continue;
    }
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

/// Whether a causal select hiding logits behind `hidden` (scaled as the
/// softmax sees it, at or below `limit`) together with the additive mask of
/// `t` is the causal flag plus that mask (docs/semantics.md §4.5). It is
/// when every future key stays hidden in every row: its logit (hidden, plus
/// the mask when the select comes first) lies `limit` below the row's
/// largest visible logit, which is at least the mask's least value; or,
/// when hidden is -inf, when the select comes last or the mask cannot add
/// +inf to it. A row whose
/// visible keys the mask hides as low as the select hides future ones
/// (finfo.min padding behind finfo.min or -1e9, a row with no visible key)
/// would otherwise weigh the future keys, which the causal flag never does.
/// False with `why` set when that cannot be proven from the mask's bounds.
bool causalSelectWithMask(const LogitTerms &t, double hidden, double limit,
                          std::string &why) {
  // A select to -inf after the mask leaves every future key at exactly
  // -inf, whatever the mask holds.
  if (std::isinf(hidden) && hidden < 0 && !t.selectThenAdd)
    return true;
  std::optional<MaskBounds> bounds;
  if (t.bodyMask.isSelect)
    bounds = MaskBounds{-std::numeric_limits<double>::infinity(), 0.0};
  else if (t.bodyMask.op)
    bounds = maskBounds(t.bodyMask.value, t.bodyMask.op);
  else
    bounds = maskBounds(t.mask);
  if (bounds && t.additiveScale > 0)
    bounds = MaskBounds{bounds->lo * t.additiveScale,
                        bounds->hi * t.additiveScale};
  else
    bounds.reset();
  std::string order = t.selectThenAdd ? "a causal select followed by an "
                                        "additive mask"
                                      : "an additive mask followed by a "
                                        "causal select";
  if (!bounds) {
    why = "the logits are masked by " + order +
          " whose values are not bounded (an argument, or ops the bounds "
          "are not followed through), so future keys may not stay hidden "
          "in rows the mask hides";
    return false;
  }
  // -inf stays -inf after adding anything but +inf.
  if (std::isinf(hidden) &&
      bounds->hi < std::numeric_limits<double>::infinity())
    return true;
  double future = t.selectThenAdd ? hidden + bounds->hi : hidden;
  if (!std::isinf(bounds->lo) && future - bounds->lo <= limit)
    return true;
  why = llvm::formatv("the logits are masked by {0} hiding future keys at "
                      "{1:e} and the mask's values lie in [{2:e}, {3:e}]: a "
                      "row whose visible keys the mask hides could weigh "
                      "future keys, which the causal flag never does",
                      order, hidden, bounds->lo, bounds->hi)
            .str();
  return false;
}

/// The rest of the match once P, the logits' terms and Q.K^T are known, for
/// one view of Q; fails with `why` set.
LogicalResult matchWithQuery(const QueryView &q, const Space &space,
                             Contraction pv, Contraction qk,
                             unsigned pIndex, unsigned qIndex,
                             ArrayRef<AffineExpr> loops,
                             ArrayRef<AffineExpr> qkLoops,
                             ArrayRef<AffineExpr> pCoords,
                             const LogitTerms &terms,
                             const std::optional<PendingDropout> &dropout,
                             AttentionMatch &m, std::string &why) {
  m.query = q.operand;
  // K and V, before any GQA repeat: the largest group both allow.
  unsigned kIndex = 1 - qIndex, vIndex = 1 - pIndex;
  SmallVector<TracedElement> kChain = traceElement(
      qk.op.getDpsInputOperand(kIndex)->get(),
      operandCoords(qk.op, kIndex, qkLoops), space.numDims());
  SmallVector<TracedElement> vChain = traceElement(
      pv.op.getDpsInputOperand(vIndex)->get(),
      operandCoords(pv.op, vIndex, loops), space.numDims());
  SmallVector<KVView> kFound = findKeysOrValues(kChain, space, q);
  SmallVector<KVView> vFound = findKeysOrValues(vChain, space, q);
  // The best pair: the largest group, repeated before tiled, untransposed
  // first.
  auto better = [](const KVView &a, const KVView *b) {
    if (!b)
      return true;
    if (a.groups != b->groups)
      return a.groups > b->groups;
    if (a.tiled != b->tiled)
      return !a.tiled;
    return a.cost < b->cost;
  };
  const KVView *bestK = nullptr, *bestV = nullptr;
  auto choose = [&](ArrayRef<KVView> ks, ArrayRef<KVView> vs) {
    for (const KVView &k : ks)
      for (const KVView &v : vs)
        if (k.groups == v.groups && k.tiled == v.tiled &&
            (better(k, bestK) || (k.groups == bestK->groups &&
                                  k.tiled == bestK->tiled && better(v, bestV))))
          bestK = &k, bestV = &v;
  };
  choose(kFound, vFound);
  // TP's rank slice of a repeated K/V (t not dividing a_kv).
  SmallVector<KVView> kSliced = findRankSliced(
      kChain, space, q, bestK ? bestK->groups : 0);
  SmallVector<KVView> vSliced = findRankSliced(
      vChain, space, q, bestK ? bestK->groups : 0);
  choose(kSliced, vSliced);
  if (!bestK) {
    why = "no tensors behind Q.K^T and P.V hold K and V as [b, a_kv, t, d] "
          "or [b*a_kv, t, d] (up to a transpose) with the same number of "
          "heads, each query head reading head h floordiv (a / a_kv) or h "
          "mod a_kv";
    return failure();
  }
  m.key = bestK->operand;
  m.value = bestV->operand;
  m.keyHeads = bestK->rankHeads;
  m.valueHeads = bestV->rankHeads;
  m.kvTiled = bestK->tiled;

  // P's coordinates in the (b, h, i, j, e) dims the backward is matched in:
  // P.V's batch loops are b * heads + h, or b and h.
  MLIRContext *ctx = space.ctx;
  {
    AffineExpr cb = getAffineDimExpr(0, ctx), ch = getAffineDimExpr(1, ctx);
    SmallVector<AffineExpr> batchDims;
    if (q.form == ArrayRef<ResultDim>{ResultDim::BatchHead})
      batchDims.push_back(cb * q.heads + ch);
    else if (q.form == ArrayRef<ResultDim>{ResultDim::Batch, ResultDim::Head})
      batchDims.append({cb, ch});
    m.probabilityCoords.clear();
    if (!batchDims.empty()) {
      batchDims.append({getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx),
                        getAffineDimExpr(4, ctx)});
      for (AffineExpr e : pCoords)
        m.probabilityCoords.push_back(
            simplifyAffineExpr(e.replaceDims(batchDims), 5, 1));
    }
    // The dropout's multiplier as a function of (batch, head, query, key):
    // each of P.V's batch loops is b, h, b * a + h or h * b + b in the
    // region's dims (B, Hl, I, J, head dim).
    m.dropout.reset();
    if (dropout) {
      AffineExpr rb = getAffineDimExpr(0, ctx), rh = getAffineDimExpr(1, ctx);
      SmallVector<AffineExpr> toRegion;
      for (ResultDim d : q.form)
        toRegion.push_back(d == ResultDim::Batch       ? rb
                           : d == ResultDim::Head      ? rh
                           : d == ResultDim::BatchHead ? rb * q.heads + rh
                                                       : rh * q.batchSize + rb);
      toRegion.append({getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx),
                       getAffineDimExpr(4, ctx)});
      SmallVector<int64_t> regionSizes{q.batchSize, q.heads,
                                       space.sizes[space.numBatch],
                                       space.sizes[space.numBatch + 1],
                                       space.sizes[space.numBatch + 2]};
      std::string dropoutWhy;
      IndexFunction f = buildDropoutFunction(
          dropout->peel, getElementTypeOrSelf(m.probabilities.getType()),
          toRegion, space.sizes, regionSizes, pv.op.getLoc(), dropoutWhy);
      if (!f) {
        why = "the probabilities' dropout is not a function of the "
              "element's (batch, head, query, key) only: " +
              dropoutWhy;
        return failure();
      }
      AttentionDropout d{dropout->value, {}, std::move(f), dropout->peel.ops};
      if (!batchDims.empty())
        for (AffineExpr e : dropout->coords)
          d.coords.push_back(
              simplifyAffineExpr(e.replaceDims(batchDims), 5, 1));
      m.dropout = std::move(d);
    }
  }

  // P.V's result dims.
  m.resultDims.clear();
  for (unsigned r = 0; r < pv.out.getNumResults(); ++r) {
    unsigned loop = pv.out.getDimPosition(r);
    auto batch = llvm::find(pv.dims.batch, loop);
    if (batch != pv.dims.batch.end())
      m.resultDims.push_back(q.form[batch - pv.dims.batch.begin()]);
    else if (loops[loop] == space.i())
      m.resultDims.push_back(ResultDim::Query);
    else
      m.resultDims.push_back(ResultDim::HeadDim);
  }

  // Scale and mask.
  m.scale = terms.scale;
  int64_t s = space.sizes[space.numBatch], t = space.sizes[space.numBatch + 1];
  Type logitType =
      cast<ShapedType>(m.probabilities.getType()).getElementType();
  double limit = maskedLogitLimit(logitType);
  m.causal = false;
  m.mask = HeadsOperand();
  m.bodyMask = BodyMask();
  if (terms.selectHidden) {
    double hidden = *terms.selectHidden * terms.selectScale;
    if (!(terms.selectScale > 0 && hidden <= limit) || s != t) {
      why = "the select hides logits with a value above -1e8 (-32752 in "
            "f16; not -inf for every row), or s != t";
      return failure();
    }
    if (terms.hasAdditive() &&
        !causalSelectWithMask(terms, hidden, limit, why))
      return failure();
    m.causal = true;
    if (!terms.hasAdditive())
      return success();
  } else {
    std::optional<double> hidden;
    if (terms.mask)
      hidden = causalMaskValue(terms.mask, terms.maskCoords, space.i(),
                               space.j(), space.sizes);
    if (terms.bodyMask.op)
      hidden = terms.bodyCausalHidden;
    if (hidden && terms.additiveScale > 0 &&
        *hidden * terms.additiveScale <= limit && s == t) {
      m.causal = true;
      return success();
    }
    if (!terms.hasAdditive())
      return success();
  }
  // A select's -inf stays -inf under a positive scale; an added term is
  // scaled.
  bool scaledOk = terms.additiveScale == 1.0 ||
                  (terms.bodyMask.isSelect && terms.additiveScale > 0);
  if (!scaledOk) {
    why = "the mask is added before the scale";
    return failure();
  }
  SmallVector<TracedElement> maskChain;
  RankedTensorType unbuilt;
  if (terms.bodyMask.op) {
    // The tensor the raiser builds: the op's loops the mask varies along.
    m.bodyMask = terms.bodyMask;
    linalg::GenericOp op = m.bodyMask.op;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> coords;
    for (unsigned l : m.bodyMask.loops) {
      shape.push_back(ranges[l]);
      coords.push_back(terms.bodyMaskCoords[l]);
    }
    unbuilt = RankedTensorType::get(
        shape, getElementTypeOrSelf(op->getResult(0).getType()));
    maskChain.push_back({Value(), coords});
  } else {
    maskChain = traceElement(terms.mask, terms.maskCoords, space.numDims());
  }
  std::optional<HeadsOperand> mask =
      findMaskView(maskChain, space, q, unbuilt);
  if (!mask) {
    why = "the mask is not held with dims [b|1, a|1, s|1, t|1] in some "
          "order ([b, 1, 1, t] key padding, [s, t], [b*a, s, t], ...)";
    return failure();
  }
  m.mask = *mask;
  return success();
}

} // namespace

SmallVector<int64_t> seqpar::valuesOverRanks(Value v) {
  // The process-index ops `v` reads; each is enumerated over its grid.
  SmallVector<Operation *> leaves;
  SmallVector<int64_t> leafSizes;
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  SymbolTableCollection symbols;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    Operation *def = x.getDefiningOp();
    if (!def)
      return {};
    if (isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp>(def)) {
      if (llvm::is_contained(leaves, def))
        continue;
      FlatSymbolRefAttr gridName =
          def->getAttrOfType<FlatSymbolRefAttr>("grid");
      shard::GridOp grid = shard::getGridOrNull(def, gridName, symbols);
      if (!grid || grid.getShape().empty() ||
          llvm::any_of(grid.getShape(), [](int64_t n) { return n <= 0; }))
        return {};
      leaves.push_back(def);
      int64_t points = 1;
      for (int64_t n : grid.getShape())
        if (n > 4096 || (points *= n) > 4096)
          return {};
      leafSizes.push_back(points);
      continue;
    }
    if (matchPattern(x, m_Constant()))
      continue;
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
             arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
             arith::IndexCastOp>(def))
      return {};
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  if (leaves.size() != 1)
    return {};
  Operation *leaf = leaves[0];
  shard::GridOp grid = shard::getGridOrNull(
      leaf, leaf->getAttrOfType<FlatSymbolRefAttr>("grid"), symbols);
  ArrayRef<int64_t> shape = grid.getShape();
  SmallVector<int64_t> values;
  for (int64_t linear = 0; linear < leafSizes[0]; ++linear) {
    // Coordinates of world rank `linear`, row-major (docs/semantics.md §2).
    SmallVector<int64_t> coords(shape.size());
    int64_t rest = linear;
    for (int64_t a = shape.size() - 1; a >= 0; --a) {
      coords[a] = rest % shape[a];
      rest /= shape[a];
    }
    llvm::DenseMap<Value, int64_t> known;
    if (auto multi = dyn_cast<shard::ProcessMultiIndexOp>(leaf)) {
      ArrayRef<int16_t> axes = multi.getAxes();
      for (auto [k, result] : llvm::enumerate(multi.getResults()))
        known[result] = coords[axes.empty() ? k : axes[k]];
    } else {
      known[leaf->getResult(0)] = linear;
    }
    std::function<std::optional<int64_t>(Value)> eval =
        [&](Value x) -> std::optional<int64_t> {
      if (auto it = known.find(x); it != known.end())
        return it->second;
      IntegerAttr c;
      if (matchPattern(x, m_Constant(&c)))
        return c.getInt();
      Operation *def = x.getDefiningOp();
      if (isa<arith::IndexCastOp>(def))
        return eval(def->getOperand(0));
      std::optional<int64_t> a = eval(def->getOperand(0)),
                             b = eval(def->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      if (isa<arith::AddIOp>(def))
        return *a + *b;
      if (isa<arith::SubIOp>(def))
        return *a - *b;
      if (isa<arith::MulIOp>(def))
        return *a * *b;
      if (*b == 0 || *a < 0 || *b < 0)
        return std::nullopt;
      return isa<arith::RemUIOp, arith::RemSIOp>(def) ? *a % *b : *a / *b;
    };
    std::optional<int64_t> value = eval(v);
    if (!value)
      return {};
    values.push_back(*value);
  }
  return values;
}

bool seqpar::isBatchedContraction(linalg::LinalgOp op,
                                  linalg::ContractionDimensions &result) {
  std::optional<Contraction> c = asContraction(op);
  if (!c)
    return false;
  SmallVector<unsigned> want(c->dims.batch.begin(), c->dims.batch.end());
  want.append({c->dims.m[0], c->dims.n[0]});
  for (auto [r, loop] : llvm::enumerate(want))
    if (c->out.getDimPosition(r) != loop)
      return false;
  result = c->dims;
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
                                                 std::string &why,
                                                 Value *probabilities) {
  why.clear();
  std::optional<Contraction> pv = asContraction(pvOp);
  auto outType = dyn_cast<RankedTensorType>(pvOp->getResult(0).getType());
  if (!pv || !outType || !outType.hasStaticShape())
    return failure();
  unsigned numBatch = pv->dims.batch.size();
  SmallVector<int64_t> ranges = pvOp.getStaticLoopRanges();

  // P: the softmax over the keys behind one input, read at (.., i, j); the
  // query is its m or n loop (P.V, or V^T.P^T written as a product with
  // the head dim first).
  AttentionMatch m;
  m.numBatchLoops = numBatch;
  Space space{pvOp->getContext(), numBatch, {}};
  SmallVector<AffineExpr> loops, pCoords;
  Value logits;
  std::optional<PendingDropout> dropout;
  unsigned pIndex = 0;
  for (; pIndex < 2 && !logits; ++pIndex) {
    unsigned queryLoop = pIndex == 0 ? pv->dims.m[0] : pv->dims.n[0];
    unsigned dLoop = pIndex == 0 ? pv->dims.n[0] : pv->dims.m[0];
    space.sizes.clear();
    for (unsigned l : pv->dims.batch)
      space.sizes.push_back(ranges[l]);
    space.sizes.append(
        {ranges[queryLoop], ranges[pv->dims.k[0]], ranges[dLoop]});
    loops.assign(pvOp.getNumLoops(), AffineExpr());
    for (auto [b, l] : llvm::enumerate(pv->dims.batch))
      loops[l] = space.dim(b);
    loops[queryLoop] = space.i();
    loops[pv->dims.k[0]] = space.j();
    loops[dLoop] = space.e();
    // P, whose rows are the keys; or P' = P * m, a dropout of it.
    auto isProbabilities = [&](Value v, ArrayRef<AffineExpr> coords) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      bool rowIsKeys =
          type && type.getRank() > 0 && !coords.empty() &&
          space.same(coords.back(), space.j()) &&
          type.getShape().back() == space.sizes[numBatch + 1] &&
          llvm::none_of(coords.drop_back(), [&](AffineExpr e) {
            return e.isFunctionOfDim(numBatch + 1);
          });
      return rowIsKeys && softmaxInput(v);
    };
    Value pvInput = pvOp.getDpsInputOperand(pIndex)->get();
    SmallVector<AffineExpr> pvInputCoords = operandCoords(pvOp, pIndex, loops);
    FailureOr<PeeledDropout> peeled = failure();
    if (isa<RankedTensorType>(pvInput.getType()))
      peeled = peelDropout(pvInput, pvInputCoords, space.sizes,
                           isProbabilities);
    // P times a reduction is the backward's dS (dS . K), not a dropout.
    if (succeeded(peeled) && !peeled->isIdentity() && readsReduction(*peeled))
      peeled = failure();
    if (succeeded(peeled)) {
      logits = softmaxInput(peeled->base);
      m.probabilities = peeled->base;
      pCoords = peeled->baseCoords;
      if (!peeled->isIdentity())
        dropout = PendingDropout{std::move(*peeled), pvInput, pvInputCoords};
      else
        dropout.reset();
    }
    if (logits)
      break;
  }
  if (!logits)
    return failure();
  if (probabilities)
    *probabilities = m.probabilities;
  // Head counts and coordinates below are divided by these sizes.
  if (llvm::any_of(ranges, [](int64_t size) { return size < 1; })) {
    why = "P.V has an empty or dynamic loop (no query, key, head or head "
          "dim to attend over)";
    return failure();
  }

  if (dropout &&
      getElementTypeOrSelf(m.probabilities.getType()) !=
          getElementTypeOrSelf(pvOp.getDpsInputOperand(pIndex)->get().getType())) {
    why = "the dropout of the probabilities changes their element type";
    return failure();
  }

  LogitTerms terms;
  SmallVector<AffineExpr> scoreCoords(pCoords.begin(), pCoords.end());
  Value scores = peelLogits(logits, scoreCoords, space, terms, why);
  if (!scores)
    return failure();

  // Q.K^T: a contraction whose rows and columns are P's queries and keys
  // (or keys and queries: K.Q^T).
  std::optional<Contraction> qk;
  SmallVector<AffineExpr> qkLoops;
  unsigned qIndex = 0;
  for (const TracedElement &te :
       traceElement(scores, scoreCoords, space.numDims())) {
    qk = asContraction(te.value.getDefiningOp());
    if (!qk)
      continue;
    qkLoops = qk->loopsAt(te.coords, space.e());
    AffineExpr mAt = qkLoops[qk->dims.m[0]], nAt = qkLoops[qk->dims.n[0]];
    if (space.same(mAt, space.i()) && space.same(nAt, space.j())) {
      qIndex = 0;
    } else if (space.same(mAt, space.j()) && space.same(nAt, space.i())) {
      qIndex = 1;
    } else {
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

  // Q as [b, a, s, d] (or [b*a, s, d]): its batch coordinates are P.V's
  // batch loops, b outer or inner.
  SmallVector<QueryView> queries = findQueries(
      traceElement(qk->op.getDpsInputOperand(qIndex)->get(),
                   operandCoords(qk->op, qIndex, qkLoops), space.numDims()),
      space);
  if (queries.empty()) {
    why = "no tensor behind Q.K^T holds Q as [b, a, s, d] or [b*a, s, d] "
          "(up to a transpose) with P.V's batch loops as its b and a";
    return failure();
  }
  // The first view that matches; among the splits of a [b*a, s, d] Q, the
  // one that reads the smallest mask ([b, 1, 1, t] rather than [1, b*a, s,
  // t]), the fewest batch first on ties.
  std::string firstWhy;
  std::optional<AttentionMatch> best;
  int64_t bestMask = 0;
  for (const QueryView &q : queries) {
    std::string qWhy;
    AttentionMatch candidate = m;
    if (failed(matchWithQuery(q, space, *pv, *qk, pIndex, qIndex, loops,
                              qkLoops, pCoords, terms, dropout, candidate,
                              qWhy))) {
      if (firstWhy.empty())
        firstWhy = qWhy;
      continue;
    }
    if (q.operand.isPermutation())
      return candidate;
    int64_t maskSize = 0;
    if (candidate.mask.value) {
      maskSize = 1;
      for (int64_t size : headsTypeShape(candidate.mask))
        maskSize *= size;
    }
    if (!best || maskSize < bestMask) {
      best = candidate;
      bestMask = maskSize;
    }
  }
  if (best)
    return *best;
  why = firstWhy;
  return failure();
}

Operation *seqpar::contractionReading(Value p) {
  SmallVector<Value> work{p};
  for (int steps = 0; !work.empty() && steps < 32; ++steps) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
              tensor::ExtractSliceOp, linalg::TransposeOp,
              linalg::BroadcastOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      auto op = dyn_cast<linalg::LinalgOp>(user);
      if (op && op.getNumDpsInputs() == 2 &&
          (linalg::isaContractionOpInterface(op) || groupedOperand(op)))
        return user;
    }
  }
  return nullptr;
}

std::string seqpar::whySoftmaxNotAttention(Value p) {
  auto type = dyn_cast<RankedTensorType>(p.getType());
  Operation *product = contractionReading(p);
  if (!type || (!product && type.getRank() < 3))
    return "";
  if (!product)
    return "no contraction reads it as the probabilities of an attention "
           "(through reshapes and transposes only)";
  std::string why;
  Value probabilities;
  auto pv = cast<linalg::LinalgOp>(product);
  if (groupedOperand(pv))
    return "the product reading it ('" +
           product->getName().getStringRef().str() +
           "') reads an operand through a map with floordiv (a K/V head h "
           "floordiv r); seqpar-raise-attention materialises it as a repeat "
           "before matching (it did not run on it)";
  if (succeeded(matchAttention(pv, why, &probabilities)))
    return "its P.V product ('" + product->getName().getStringRef().str() +
           "') matches but was not raised (seqpar-raise-attention did not "
           "run on it)";
  if (probabilities == p && !why.empty())
    return "its P.V product was not raised: " + why;
  return "the contraction reading it ('" +
         product->getName().getStringRef().str() +
         "') is not a P.V product: one or two batch loops, one query, key "
         "and head-dim loop, summing over the softmax's last dim into zeros";
}

bool mlir::seqpar::readsArgument(Value v, BlockArgument arg, Block *body) {
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == arg)
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(x).second)
      continue;
    work.append(def->operand_begin(), def->operand_end());
  }
  return false;
}

namespace {

/// The loop dim and the divisor (1 for a plain dim) of a grouped map
/// result: `d` or `d floordiv c`, c > 0.
std::optional<std::pair<unsigned, int64_t>> groupedResult(AffineExpr e) {
  if (auto dim = dyn_cast<AffineDimExpr>(e))
    return std::make_pair(dim.getPosition(), int64_t(1));
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin || bin.getKind() != AffineExprKind::FloorDiv)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(bin.getLHS());
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!dim || !c || c.getValue() <= 0)
    return std::nullopt;
  return std::make_pair(dim.getPosition(), c.getValue());
}

/// out + a * b over the block arguments, either order of a, b and of the
/// sum's operands.
bool isMulAccBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3 ||
      body->getTerminator()->getNumOperands() != 1)
    return false;
  Operation *add = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp>(add))
    return false;
  BlockArgument out = body->getArgument(2);
  Value prod = add->getOperand(0) == out   ? add->getOperand(1)
               : add->getOperand(1) == out ? add->getOperand(0)
                                           : Value();
  auto mul = prod ? prod.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || mul->getBlock() != body)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

} // namespace

std::optional<unsigned> seqpar::groupedOperand(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation()) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() == 0 ||
      !op.getIndexingMapsArray().back().isProjectedPermutation() ||
      !isMulAccBody(op))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  std::optional<unsigned> grouped;
  for (unsigned in = 0; in < 2; ++in) {
    if (maps[in].isProjectedPermutation())
      continue;
    if (grouped)
      return std::nullopt;
    auto type =
        dyn_cast<RankedTensorType>(op.getDpsInputOperand(in)->get().getType());
    if (!type || !type.hasStaticShape() ||
        type.getRank() != int64_t(maps[in].getNumResults()))
      return std::nullopt;
    llvm::SmallBitVector seen(op.getNumLoops());
    bool divided = false;
    for (auto [i, e] : llvm::enumerate(maps[in].getResults())) {
      std::optional<std::pair<unsigned, int64_t>> r = groupedResult(e);
      if (!r || r->first >= ranges.size() || seen.test(r->first) ||
          ShapedType::isDynamic(ranges[r->first]) ||
          ranges[r->first] != r->second * type.getDimSize(i))
        return std::nullopt;
      seen.set(r->first);
      divided |= r->second != 1;
    }
    if (!divided)
      return std::nullopt;
    grouped = in;
  }
  return grouped;
}

std::optional<std::pair<unsigned, unsigned>>
seqpar::groupLoopPair(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation()) ||
      !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      !isMulAccBody(op) || !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (llvm::any_of(maps, [](AffineMap m) {
        return !m.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap out = maps.back();
  // Two head dims besides the batch, the tokens and the head dim: a
  // product of four (b, a, s, t) has one head loop, and its (a, t) are
  // heads and keys, not heads and groups.
  if (out.getNumResults() < 5)
    return std::nullopt;
  for (unsigned r = 0; r + 1 < out.getNumResults(); ++r) {
    unsigned k = out.getDimPosition(r), g = out.getDimPosition(r + 1);
    if (iterators[k] != utils::IteratorType::parallel ||
        iterators[g] != utils::IteratorType::parallel || ranges[g] < 2)
      continue;
    bool pairs = true, grouped = false;
    for (unsigned in = 0; in < 2; ++in) {
      std::optional<unsigned> posK = maps[in].getResultPosition(
                                  getAffineDimExpr(k, op->getContext())),
                              posG = maps[in].getResultPosition(
                                  getAffineDimExpr(g, op->getContext()));
      if (posG)
        pairs &= posK && *posK + 1 == *posG;
      else
        grouped |= posK.has_value();
    }
    if (pairs && grouped)
      return std::make_pair(k, g);
  }
  return std::nullopt;
}

Operation *seqpar::collapseGroupLoops(OpBuilder &b, linalg::LinalgOp op) {
  std::optional<std::pair<unsigned, unsigned>> pair = groupLoopPair(op);
  if (!pair)
    return nullptr;
  auto [k, g] = *pair;
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t groups = ranges[g];
  unsigned numLoops = op.getNumLoops();
  // Old loop d -> new loop (g removed, k becomes the heads).
  auto newDim = [&](unsigned d) {
    return getAffineDimExpr(d < g ? d : d - 1, ctx);
  };
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  SmallVector<AffineMap> newMaps;
  SmallVector<Value> newOperands;
  SmallVector<ReassociationIndices> outReassociation;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results;
    SmallVector<ReassociationIndices> reassociation;
    bool collapses = false;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      unsigned d = map.getDimPosition(r);
      if (d == k && r + 1 < map.getNumResults() &&
          map.getDimPosition(r + 1) == g) {
        results.push_back(newDim(k));
        reassociation.push_back({int64_t(r), int64_t(r + 1)});
        collapses = true;
        ++r;
      } else {
        results.push_back(d == k ? newDim(k).floorDiv(groups) : newDim(d));
        reassociation.push_back({int64_t(r)});
      }
    }
    newMaps.push_back(AffineMap::get(numLoops - 1, 0, results, ctx));
    Value value = operand.get();
    if (collapses)
      value = tensor::CollapseShapeOp::create(b, loc, value, reassociation);
    newOperands.push_back(value);
    if (op.isDpsInit(&operand))
      outReassociation = reassociation;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.erase(iterators.begin() + g);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{newOperands[2].getType()},
      ValueRange{newOperands[0], newOperands[1]}, ValueRange{newOperands[2]},
      newMaps, iterators);
  generic.getRegion().takeBody(op->getRegion(0));
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, op->getResult(0).getType(), generic.getResult(0),
      outReassociation);
  op->getResult(0).replaceAllUsesWith(expanded);
  op->erase();
  return generic;
}

Operation *seqpar::materializeGroupedOperand(OpBuilder &b,
                                             linalg::LinalgOp op) {
  std::optional<unsigned> in = groupedOperand(op);
  if (!in)
    return nullptr;
  MLIRContext *ctx = op->getContext();
  AffineMap map = op.getIndexingMapsArray()[*in];
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Value operand = op.getDpsInputOperand(*in)->get();
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned rank = map.getNumResults();
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> repeatExprs, readExprs;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    auto [dim, divisor] = *groupedResult(e);
    shape.push_back(ranges[dim]);
    AffineExpr x = getAffineDimExpr(i, ctx);
    repeatExprs.push_back(divisor == 1 ? x : x.floorDiv(divisor));
    readExprs.push_back(getAffineDimExpr(dim, ctx));
  }
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  auto repeatedType = RankedTensorType::get(shape, type.getElementType());
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<AffineMap> repeatMaps{
      AffineMap::get(rank, 0, repeatExprs, ctx),
      AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto repeat = linalg::GenericOp::create(
      b, loc, TypeRange{repeatedType}, ValueRange{operand}, ValueRange{init},
      repeatMaps, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[*in] = AffineMap::get(op.getNumLoops(), 0, readExprs, ctx);
  auto generic = cast<linalg::GenericOp>(op.getOperation());
  generic.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  op->setOperand(op.getDpsInputOperand(*in)->getOperandNumber(),
                 repeat->getResult(0));
  return repeat;
}
