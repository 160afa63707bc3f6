//===- AttentionBackwardMatch.cpp - the backward exporters write ----------===//

#include "seqpar/Analysis/AttentionBackwardMatch.h"

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/DropoutMatch.h"
#include "seqpar/Analysis/ElementTrace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The index space (b, h, i, j, e) and its extents.
struct Space {
  MLIRContext *ctx;
  SmallVector<int64_t> sizes;
  /// Query heads per K/V head.
  int64_t groups = 1;

  AffineExpr dim(unsigned d) const { return getAffineDimExpr(d, ctx); }
  AffineExpr b() const { return dim(0); }
  AffineExpr h() const { return dim(1); }
  AffineExpr i() const { return dim(2); }
  AffineExpr j() const { return dim(3); }
  AffineExpr e() const { return dim(4); }
  int64_t size(AffineExpr d) const {
    return sizes[cast<AffineDimExpr>(d).getPosition()];
  }
  bool same(ArrayRef<AffineExpr> x, ArrayRef<AffineExpr> y) const {
    if (x.size() != y.size())
      return false;
    for (auto [a, c] : llvm::zip(x, y))
      if (!sameExpr(a, c, sizes))
        return false;
    return true;
  }
};

/// Where element (b, head, token, d) of `h`'s [b, heads, tokens, d] is.
SmallVector<AffineExpr> headsCoords(const HeadsOperand &h, AffineExpr b,
                                    AffineExpr head, AffineExpr token,
                                    AffineExpr d) {
  SmallVector<AffineExpr> c(4);
  c[h.perm[0]] = b;
  c[h.perm[1]] = head;
  c[h.perm[2]] = token;
  c[h.perm[3]] = d;
  return c;
}

bool reaches(ArrayRef<TracedElement> chain, Value target,
             ArrayRef<AffineExpr> coords, const Space &space) {
  return llvm::any_of(chain, [&](const TracedElement &te) {
    return te.value == target && space.same(te.coords, coords);
  });
}

/// The rank-4 tensors on `chain` holding (b, h, i, e) in some order of
/// their dims, with matching extents: candidates for dO.
SmallVector<HeadsOperand> findOutGrads(ArrayRef<TracedElement> chain,
                                       const Space &space) {
  SmallVector<HeadsOperand> found;
  AffineExpr want[4] = {space.b(), space.h(), space.i(), space.e()};
  for (const TracedElement &te : chain) {
    auto type = dyn_cast<RankedTensorType>(te.value.getType());
    if (!type || type.getRank() != 4 || !type.hasStaticShape())
      continue;
    SmallVector<int64_t, 4> perm{0, 1, 2, 3};
    do {
      bool ok = true;
      for (int k = 0; ok && k < 4; ++k)
        ok = sameExpr(te.coords[perm[k]], want[k], space.sizes) &&
             type.getDimSize(perm[k]) == space.size(want[k]);
      if (ok)
        found.push_back({te.value, perm});
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  return found;
}

/// A polynomial in P, dP and R = rowsum(P * dP), each at the element being
/// evaluated: monomial (powers of P, dP, R) -> coefficient.
using Monomial = std::array<int, 3>;
using Poly = std::map<Monomial, double>;
enum Atom { AtomP, AtomProbGrad, AtomRowSum };

Poly atom(Atom a, double coefficient = 1.0) {
  Monomial m{0, 0, 0};
  m[a] = 1;
  return {{m, coefficient}};
}
Poly scaled(Poly p, double c) {
  for (auto &term : p)
    term.second *= c;
  return p;
}
Poly sum(Poly a, const Poly &b) {
  for (const auto &[m, c] : b)
    a[m] += c;
  return a;
}
Poly product(const Poly &a, const Poly &b) {
  Poly r;
  for (const auto &[ma, ca] : a)
    for (const auto &[mb, cb] : b)
      r[{ma[0] + mb[0], ma[1] + mb[1], ma[2] + mb[2]}] += ca * cb;
  return r;
}
/// The coefficient of `p` when it is c * P^x dP^y R^z for (x, y, z) = m.
std::optional<double> single(const Poly &p, Monomial m) {
  double c = 0;
  for (const auto &[pm, pc] : p) {
    if (pc == 0.0)
      continue;
    if (pm != m)
      return std::nullopt;
    c = pc;
  }
  return c;
}

/// Evaluates the softmax backward's elements as polynomials (above). With
/// the forward's `dropout`, dP is the gradient of P' = P * m scaled by the
/// same m (the products give that of P'): m * (dO . V^T) is the atom, and
/// dO . V^T alone is not.
struct SoftmaxBackwardChecker {
  const Space &space;
  Value probs;
  SmallVector<AffineExpr> probCoords;
  Value probGrad;
  SmallVector<AffineExpr> probGradCoords;
  const AttentionDropout *dropout = nullptr;
  /// Set when a dP was scaled by another function than the forward's.
  bool otherMask = false;

  std::optional<Poly> value(Value v, ArrayRef<AffineExpr> coords, int depth);
  std::optional<Poly> body(linalg::GenericOp op, Value x,
                           ArrayRef<AffineExpr> loops, int depth);
};

std::optional<Poly> SoftmaxBackwardChecker::value(Value v,
                                                  ArrayRef<AffineExpr> coords,
                                                  int depth) {
  if (depth == 0)
    return std::nullopt;
  SmallVector<TracedElement> chain = traceElement(v, coords, 5);
  if (reaches(chain, probs, probCoords, space))
    return atom(AtomP);
  if (dropout) {
    // m * dP regenerated or read from the saved mask: its factors must be
    // the forward's function, in the same (batch, head, query, key).
    FailureOr<PeeledDropout> peeled = peelDropout(
        v, coords, space.sizes,
        [&](Value x, ArrayRef<AffineExpr> c) {
          return x == probGrad && space.same(c, probGradCoords);
        });
    if (succeeded(peeled) && !peeled->isIdentity()) {
      SmallVector<AffineExpr> toRegion;
      for (unsigned d = 0; d < 5; ++d)
        toRegion.push_back(space.dim(d));
      std::string why;
      IndexFunction mask = buildDropoutFunction(
          *peeled, getElementTypeOrSelf(probGrad.getType()), toRegion,
          space.sizes, space.sizes, probGrad.getLoc(), why);
      if (mask && mask.sameAs(dropout->function))
        return atom(AtomProbGrad);
      if (mask) {
        otherMask = true;
        return std::nullopt;
      }
      // A factor that is not positions (P, in dP * m * P): the polynomial
      // below takes the product apart.
    }
    if (reaches(chain, probGrad, probGradCoords, space)) {
      otherMask = true;
      return std::nullopt;
    }
  }
  if (reaches(chain, probGrad, probGradCoords, space))
    return atom(AtomProbGrad);
  const TracedElement &last = chain.back();
  auto op = last.value.getDefiningOp<linalg::GenericOp>();
  if (!op || op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap out = op.getIndexingMapsArray().back();
  SmallVector<AffineExpr> loops(op.getNumLoops());
  for (auto [r, e] : llvm::enumerate(out.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      loops[d.getPosition()] = last.coords[r];
    else if (!isa<AffineConstantExpr>(e))
      return std::nullopt;
  }
  // One loop left: a row sum over the keys, read where j is free.
  std::optional<unsigned> reduction;
  for (auto [l, expr] : llvm::enumerate(loops)) {
    if (expr)
      continue;
    if (reduction || op.getIteratorTypesArray()[l] !=
                         utils::IteratorType::reduction)
      return std::nullopt;
    reduction = l;
  }
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  if (!reduction)
    return body(op, yielded, loops, depth);
  if (llvm::any_of(last.coords,
                   [&](AffineExpr e) { return e.isFunctionOfDim(3); }) ||
      !isZeroInit(op.getDpsInitOperand(0)->get()))
    return std::nullopt;
  loops[*reduction] = space.j();
  auto add = yielded.getDefiningOp<arith::AddFOp>();
  BlockArgument acc = op.getBlock()->getArguments().back();
  if (!add || (add.getLhs() != acc && add.getRhs() != acc) ||
      !acc.hasOneUse())
    return std::nullopt;
  std::optional<Poly> summand = body(
      op, add.getLhs() == acc ? add.getRhs() : add.getLhs(), loops, depth);
  if (!summand)
    return std::nullopt;
  std::optional<double> k = single(*summand, {1, 1, 0});
  if (!k)
    return std::nullopt;
  return atom(AtomRowSum, *k);
}

std::optional<Poly> SoftmaxBackwardChecker::body(linalg::GenericOp op, Value x,
                                                 ArrayRef<AffineExpr> loops,
                                                 int depth) {
  if (auto arg = dyn_cast<BlockArgument>(x)) {
    if (arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return std::nullopt;
    if (std::optional<double> c = scalarOperand(x, op))
      return Poly{{{0, 0, 0}, *c}};
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    SmallVector<AffineExpr> coords;
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
      coords.push_back(simplifyAffineExpr(e.replaceDims(loops), 5, 1));
    return value(input->get(), coords, depth - 1);
  }
  if (std::optional<double> c = scalarOperand(x, op))
    return Poly{{{0, 0, 0}, *c}};
  Operation *def = x.getDefiningOp();
  if (!def || def->getBlock() != op.getBlock())
    return std::nullopt;
  // Rounding of the data (bf16 programs) is not part of the math matched.
  if (isa<arith::ExtFOp, arith::TruncFOp>(def))
    return body(op, def->getOperand(0), loops, depth);
  if (isa<arith::NegFOp>(def)) {
    std::optional<Poly> a = body(op, def->getOperand(0), loops, depth);
    return a ? std::optional<Poly>(scaled(*a, -1.0)) : std::nullopt;
  }
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    std::optional<double> c = scalarOperand(div.getRhs(), op);
    std::optional<Poly> a = body(op, div.getLhs(), loops, depth);
    if (!c || *c == 0.0 || !a)
      return std::nullopt;
    return scaled(*a, 1.0 / *c);
  }
  if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(def))
    return std::nullopt;
  std::optional<Poly> a = body(op, def->getOperand(0), loops, depth);
  std::optional<Poly> c = a ? body(op, def->getOperand(1), loops, depth)
                            : std::nullopt;
  if (!c)
    return std::nullopt;
  if (isa<arith::MulFOp>(def))
    return product(*a, *c);
  return sum(*a, isa<arith::SubFOp>(def) ? scaled(*c, -1.0) : *c);
}

/// What the backward's products are: the contracted dim k and the two
/// result dims, in the order (tokens, d) or (i, j).
enum class Role { ValueGrad, ProbGrad, QueryGrad, KeyGrad };

/// A contraction found in one role.
struct Hit {
  linalg::LinalgOp op;
  Role role;
  bool transposed;
  /// ValueGrad, ProbGrad: where dO may be.
  SmallVector<HeadsOperand> outGrads;
  /// QueryGrad, KeyGrad: the operand holding dS, and its coordinates.
  Value scoreGrad;
  SmallVector<AffineExpr> scoreGradCoords;
  /// ProbGrad: where dP[b, h, i, j] is in the result.
  SmallVector<AffineExpr> resultCoords;
};

/// `op` in `role`, its result dims (m, n) = (x, y), or (y, x) when
/// `transposed`; std::nullopt when the operands are not the role's.
std::optional<Hit> tryRole(linalg::LinalgOp op,
                           const linalg::ContractionDimensions &dims,
                           ArrayRef<AffineExpr> batch, Role role,
                           bool transposed, const AttentionMatch &fwd,
                           const Space &space) {
  AffineExpr k, x, y;
  switch (role) {
  case Role::ValueGrad:
  case Role::KeyGrad:
    k = space.i(), x = space.j(), y = space.e();
    break;
  case Role::ProbGrad:
    k = space.e(), x = space.i(), y = space.j();
    break;
  case Role::QueryGrad:
    k = space.j(), x = space.i(), y = space.e();
    break;
  }
  if (transposed)
    std::swap(x, y);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[dims.m[0]] != space.size(x) ||
      ranges[dims.n[0]] != space.size(y) || ranges[dims.k[0]] != space.size(k))
    return std::nullopt;
  SmallVector<AffineExpr> loops(op.getNumLoops());
  for (auto [l, e] : llvm::zip(dims.batch, batch))
    loops[l] = e;
  loops[dims.m[0]] = x;
  loops[dims.n[0]] = y;
  loops[dims.k[0]] = k;
  SmallVector<SmallVector<TracedElement>> chains;
  SmallVector<SmallVector<AffineExpr>> coords;
  for (unsigned in = 0; in < 2; ++in) {
    SmallVector<AffineExpr> c;
    for (AffineExpr e : op.getIndexingMapsArray()[in].getResults())
      c.push_back(simplifyAffineExpr(e.replaceDims(loops), 5, 1));
    chains.push_back(traceElement(op.getDpsInputOperand(in)->get(), c, 5));
    coords.push_back(c);
  }
  AffineExpr kvHead =
      space.groups == 1 ? space.h() : space.h().floorDiv(space.groups);
  Value known;
  SmallVector<AffineExpr> knownCoords;
  switch (role) {
  case Role::ValueGrad:
    // dV reads what P.V read: the dropped probabilities, if any.
    known = fwd.dropout ? fwd.dropout->value : fwd.probabilities;
    knownCoords =
        fwd.dropout ? fwd.dropout->coords : fwd.probabilityCoords;
    break;
  case Role::ProbGrad:
    known = fwd.value.value;
    knownCoords =
        headsCoords(fwd.value, space.b(), kvHead, space.j(), space.e());
    break;
  case Role::QueryGrad:
    known = fwd.key.value;
    knownCoords = headsCoords(fwd.key, space.b(), kvHead, space.j(), space.e());
    break;
  case Role::KeyGrad:
    known = fwd.query.value;
    knownCoords =
        headsCoords(fwd.query, space.b(), space.h(), space.i(), space.e());
    break;
  }
  for (unsigned in = 0; in < 2; ++in) {
    if (!reaches(chains[in], known, knownCoords, space))
      continue;
    Hit hit{op, role, transposed, {}, {}, {}, {}};
    unsigned other = 1 - in;
    if (role == Role::ValueGrad || role == Role::ProbGrad) {
      hit.outGrads = findOutGrads(chains[other], space);
      if (hit.outGrads.empty())
        continue;
      if (role == Role::ProbGrad)
        hit.resultCoords = SmallVector<AffineExpr>(batch);
      hit.resultCoords.append({x, y});
    } else {
      hit.scoreGrad = op.getDpsInputOperand(other)->get();
      hit.scoreGradCoords = coords[other];
    }
    return hit;
  }
  return std::nullopt;
}

/// Under GQA: the generic summing `product`'s per-query-head result over
/// each K/V head's r query heads (found through reshapes and transposes of
/// it), with its result's dims as dims of [b, a_kv, tokens, d] (-1: unit).
bool findGroupSum(AttentionGradProduct &product, const Space &space) {
  int64_t numBatch =
      cast<RankedTensorType>(product.op->getResult(0).getType()).getRank() - 2;
  SmallVector<Value> frontier{product.op->getResult(0)};
  SmallVector<linalg::GenericOp> sums;
  for (unsigned n = 0; n < frontier.size() && n < 16; ++n)
    for (Operation *user : frontier[n].getUsers()) {
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
              linalg::TransposeOp>(user) &&
          user->getNumResults() == 1)
        frontier.push_back(user->getResult(0));
      else if (auto g = dyn_cast<linalg::GenericOp>(user))
        sums.push_back(g);
    }
  int64_t r = space.groups;
  for (linalg::GenericOp g : sums) {
    if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
        g.getNumReductionLoops() != 1 || g.getNumParallelLoops() != 4 ||
        !isZeroInit(g.getDpsInitOperand(0)->get()) ||
        getReductionCombiner(g) != shard::ReductionKind::Sum)
      continue;
    // The summand must be the input itself (out + in).
    Block *body = g.getBlock();
    auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
    if (!add || !((add.getLhs() == body->getArgument(0) &&
                   add.getRhs() == body->getArgument(1)) ||
                  (add.getRhs() == body->getArgument(0) &&
                   add.getLhs() == body->getArgument(1))))
      continue;
    unsigned numLoops = g.getNumLoops();
    SmallVector<int64_t> sizes = g.getStaticLoopRanges();
    SmallVector<AffineExpr> loops;
    for (unsigned l = 0; l < numLoops; ++l)
      loops.push_back(getAffineDimExpr(l, space.ctx));
    SmallVector<AffineExpr> inCoords;
    for (AffineExpr e : g.getIndexingMapsArray()[0].getResults())
      inCoords.push_back(e.replaceDims(loops));
    SmallVector<TracedElement> chain =
        traceElement(g.getDpsInputOperand(0)->get(), inCoords, numLoops);
    const TracedElement *at = nullptr;
    for (const TracedElement &te : chain)
      if (te.value == product.op->getResult(0))
        at = &te;
    if (!at)
      continue;
    unsigned reduction = 0;
    SmallVector<unsigned> parallel;
    for (auto [l, it] : llvm::enumerate(g.getIteratorTypesArray()))
      if (it == utils::IteratorType::reduction)
        reduction = l;
      else
        parallel.push_back(l);
    int64_t want[4] = {space.sizes[0], space.sizes[1] / r, space.sizes[3],
                       space.sizes[4]};
    if (sizes[reduction] != r)
      continue;
    // Which of the sum's parallel loops are b, g, tokens and d.
    SmallVector<unsigned> order(parallel);
    llvm::sort(order);
    do {
      bool sized = true;
      for (int d = 0; d < 4; ++d)
        sized &= sizes[order[d]] == want[d];
      if (!sized)
        continue;
      AffineExpr b = loops[order[0]], head = loops[order[1]] * r +
                                             loops[reduction],
                 tok = loops[order[2]], d = loops[order[3]];
      SmallVector<AffineExpr> expected;
      if (numBatch == 1)
        expected.push_back(b * space.sizes[1] + head);
      else
        expected.append({b, head});
      if (product.transposed)
        expected.append({d, tok});
      else
        expected.append({tok, d});
      bool same = at->coords.size() == expected.size();
      for (unsigned c = 0; same && c < expected.size(); ++c)
        same = sameExpr(at->coords[c], expected[c], sizes);
      if (!same)
        continue;
      SmallVector<int64_t, 5> dims;
      auto outType = cast<RankedTensorType>(g->getResult(0).getType());
      for (auto [res, e] :
           llvm::enumerate(g.getIndexingMapsArray()[1].getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        if (!dim) {
          if (outType.getDimSize(res) != 1)
            break;
          dims.push_back(-1);
          continue;
        }
        dims.push_back(llvm::find(order, dim.getPosition()) - order.begin());
      }
      if (dims.size() != size_t(outType.getRank()) ||
          llvm::count_if(dims, [](int64_t d) { return d >= 0; }) != 4)
        continue;
      product.groupSum = g;
      product.groupSumDims = dims;
      return true;
    } while (std::next_permutation(order.begin(), order.end()));
  }
  return false;
}

/// True when `v` is used by something other than `pv` (or `forward`'s ops,
/// its dropout), also through views.
bool usedBeyond(Value v, Operation *pv, ArrayRef<Operation *> forward = {}) {
  for (Operation *user : v.getUsers()) {
    if (user == pv)
      continue;
    if (llvm::is_contained(forward, user)) {
      if (usedBeyond(user->getResult(0), pv, forward))
        return true;
      continue;
    }
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, linalg::TransposeOp>(
            user) &&
        user->getNumResults() == 1 &&
        !usedBeyond(user->getResult(0), pv, forward))
      continue;
    return true;
  }
  return false;
}

} // namespace

FailureOr<AttentionBackwardMatch>
seqpar::matchAttentionBackward(const AttentionMatch &fwd, linalg::LinalgOp pv,
                               std::string &why) {
  why.clear();
  if (!usedBeyond(fwd.probabilities, pv,
                  fwd.dropout ? ArrayRef<Operation *>(fwd.dropout->ops)
                              : ArrayRef<Operation *>()))
    return failure();
  if (fwd.dropout && fwd.dropout->coords.empty()) {
    why = "P.V's batch loops are not b * a + h or (b, h)";
    return failure();
  }
  if (fwd.probabilityCoords.empty()) {
    why = "P.V's batch loops are not b * a + h or (b, h)";
    return failure();
  }
  auto q = cast<RankedTensorType>(fwd.query.value.getType());
  auto k = cast<RankedTensorType>(fwd.key.value.getType());
  Space space{pv->getContext(),
              {q.getDimSize(fwd.query.perm[0]), q.getDimSize(fwd.query.perm[1]),
               q.getDimSize(fwd.query.perm[2]), k.getDimSize(fwd.key.perm[2]),
               q.getDimSize(fwd.query.perm[3])}};
  space.groups = space.sizes[1] / k.getDimSize(fwd.key.perm[1]);
  auto func = pv->getParentOfType<func::FuncOp>();
  if (!func)
    return failure();
  SmallVector<Hit> hits;
  func.walk([&](linalg::LinalgOp op) {
    linalg::ContractionDimensions dims;
    if (op == pv || !isBatchedContraction(op, dims))
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<AffineExpr> batch;
    if (dims.batch.size() == 1 &&
        ranges[dims.batch[0]] == space.sizes[0] * space.sizes[1])
      batch.push_back(space.b() * space.sizes[1] + space.h());
    else if (dims.batch.size() == 2 && ranges[dims.batch[0]] == space.sizes[0] &&
             ranges[dims.batch[1]] == space.sizes[1])
      batch.append({space.b(), space.h()});
    else
      return;
    for (Role role : {Role::ValueGrad, Role::ProbGrad, Role::QueryGrad,
                      Role::KeyGrad})
      for (bool transposed : {false, true})
        if (std::optional<Hit> hit =
                tryRole(op, dims, batch, role, transposed, fwd, space)) {
          hits.push_back(std::move(*hit));
          return;
        }
  });
  auto byRole = [&](Role role) {
    SmallVector<Hit *> found;
    for (Hit &h : hits)
      if (h.role == role)
        found.push_back(&h);
    return found;
  };
  SmallVector<Hit *> valueGrads = byRole(Role::ValueGrad),
                     probGrads = byRole(Role::ProbGrad);
  if (valueGrads.size() > 1 || probGrads.size() > 1) {
    why = "more than one product reads P or V as the backward does";
    return failure();
  }
  // dO: a tensor both of its products read (or the one that is found).
  AttentionBackwardMatch m;
  SmallVector<HeadsOperand> outGrads;
  if (!valueGrads.empty() && !probGrads.empty()) {
    for (const HeadsOperand &a : valueGrads[0]->outGrads)
      if (llvm::any_of(probGrads[0]->outGrads, [&](const HeadsOperand &b) {
            return a.value == b.value && a.perm == b.perm;
          }))
        outGrads.push_back(a);
  } else if (!valueGrads.empty()) {
    outGrads = valueGrads[0]->outGrads;
  } else if (!probGrads.empty()) {
    outGrads = probGrads[0]->outGrads;
  }
  if (outGrads.empty()) {
    why = "no dV = P^T . dO and dP = dO . V^T products on one dO";
    return failure();
  }
  m.outGrad = outGrads.front();
  for (const HeadsOperand &h : outGrads)
    if (llvm::equal(h.perm, llvm::seq<int64_t>(0, 4))) {
      m.outGrad = h;
      break;
    }
  // Under GQA dK and dV need their group sums.
  auto add = [&](AttentionGradProduct product) {
    if (space.groups == 1 || product.grad == AttentionGradProduct::Grad::Query)
      m.products.push_back(product);
    else if (findGroupSum(product, space))
      m.products.push_back(product);
    else
      return false;
    return true;
  };
  if (valueGrads.empty())
    why = "no dV = P^T . dO product";
  else if (!add({valueGrads[0]->op, AttentionGradProduct::Grad::Value,
                 valueGrads[0]->transposed}))
    why = "no sum of dV = P^T . dO over each K/V head's query heads";

  // dQ and dK: their dS must be scale * (P * dP - P * R).
  SmallVector<std::string> missing;
  bool otherMask = false;
  for (Role role : {Role::QueryGrad, Role::KeyGrad}) {
    bool found = false;
    for (Hit *hit : byRole(role)) {
      if (probGrads.empty())
        break;
      SoftmaxBackwardChecker checker{space,
                                     fwd.probabilities,
                                     fwd.probabilityCoords,
                                     probGrads[0]->op->getResult(0),
                                     probGrads[0]->resultCoords,
                                     fwd.dropout ? &*fwd.dropout : nullptr};
      std::optional<Poly> dS =
          checker.value(hit->scoreGrad, hit->scoreGradCoords, 16);
      otherMask |= checker.otherMask;
      if (!dS)
        continue;
      double c = (*dS)[{1, 1, 0}];
      bool ok = c != 0.0 && std::abs(c - fwd.scale) <= 1e-6 * std::abs(c) &&
                (*dS)[{1, 0, 1}] == -c;
      for (const auto &[mono, coefficient] : *dS)
        ok &= coefficient == 0.0 || mono == Monomial{1, 1, 0} ||
              mono == Monomial{1, 0, 1};
      if (!ok || found)
        continue;
      found = add({hit->op,
                   role == Role::QueryGrad ? AttentionGradProduct::Grad::Query
                                           : AttentionGradProduct::Grad::Key,
                   hit->transposed});
    }
    if (!found)
      missing.push_back(role == Role::QueryGrad
                            ? "dQ = dS . K"
                            : "dK = dS^T . Q");
  }
  if (!missing.empty()) {
    if (!why.empty())
      why += "; ";
    why += "no " + llvm::join(missing, " or ") +
           " product whose dS is the softmax backward scale * P * (dP - "
           "rowsum(dP * P)) of dP = dO . V^T";
    if (fwd.dropout)
      why += otherMask ? " times the forward's dropout mask (dP is scaled by "
                         "another function of the positions, or by none)"
                       : " times the forward's dropout mask";
  }
  if (m.products.empty())
    return failure();
  return m;
}
