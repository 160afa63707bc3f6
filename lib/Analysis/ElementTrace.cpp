//===- ElementTrace.cpp - follow one element back through data movement ---===//

#include "seqpar/Analysis/ElementTrace.h"

#include "seqpar/Analysis/SoftmaxMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// An integer computed from loop positions, as an affine expression, with
/// whether it is known to be non-negative (floordiv and mod of arith's
/// truncating divisions agree with affine's only then).
struct IndexExpr {
  AffineExpr expr;
  bool nonNegative;
};

std::optional<IndexExpr> indexExpr(Value v, linalg::LinalgOp op,
                                   ArrayRef<AffineExpr> loops,
                                   unsigned numDims, int depth);

/// The integer element `coords` of `tensor` as an expression of the dims:
/// a generic computing it from its positions, or a constant table whose
/// entries are c, c floordiv q or c mod q of one coordinate c (an
/// index_select's index list: [0, 0, 1, 1] repeats, [0, 1, 0, 1] tiles).
std::optional<IndexExpr> integerElement(Value tensor,
                                        ArrayRef<AffineExpr> coords,
                                        unsigned numDims, int depth) {
  if (depth > 8)
    return std::nullopt;
  TracedElement source = traceElement(tensor, coords, numDims).back();
  MLIRContext *ctx = tensor.getContext();
  DenseIntElementsAttr table;
  if (matchPattern(source.value, m_Constant(&table))) {
    auto type = cast<ShapedType>(table.getType());
    if (table.isSplat())
      return IndexExpr{
          getAffineConstantExpr(table.getSplatValue<APInt>().getSExtValue(),
                                ctx),
          table.getSplatValue<APInt>().isNonNegative()};
    // One coordinate varies; the others are constants.
    std::optional<unsigned> varying;
    SmallVector<int64_t> fixed(source.coords.size(), 0);
    for (auto [d, e] : llvm::enumerate(source.coords)) {
      if (auto c = dyn_cast<AffineConstantExpr>(e)) {
        fixed[d] = c.getValue();
        if (fixed[d] < 0 || fixed[d] >= type.getDimSize(d))
          return std::nullopt;
      } else if (varying) {
        return std::nullopt;
      } else {
        varying = d;
      }
    }
    if (!varying)
      return std::nullopt;
    SmallVector<int64_t> entries;
    auto values = table.getValues<APInt>();
    int64_t n = type.getDimSize(*varying);
    for (int64_t c = 0; c < n; ++c) {
      fixed[*varying] = c;
      int64_t linear = 0;
      for (auto [d, x] : llvm::enumerate(fixed))
        linear = linear * type.getDimSize(d) + x;
      entries.push_back(values[linear].getSExtValue());
    }
    AffineExpr c = source.coords[*varying];
    auto fits = [&](auto f) {
      for (int64_t x = 0; x < n; ++x)
        if (f(x) != entries[x])
          return false;
      return true;
    };
    if (fits([](int64_t x) { return x; }))
      return IndexExpr{c, true};
    for (int64_t q = 2; q <= n; ++q) {
      if (fits([&](int64_t x) { return x / q; }))
        return IndexExpr{c.floorDiv(q), true};
      if (fits([&](int64_t x) { return x % q; }))
        return IndexExpr{c % q, true};
    }
    return std::nullopt;
  }
  auto op = source.value.getDefiningOp<linalg::LinalgOp>();
  if (!op || op->getNumResults() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isPermutation())
    return std::nullopt;
  AffineMap out = op.getIndexingMapsArray().back();
  SmallVector<AffineExpr> loops(op.getNumLoops());
  for (auto [pos, expr] : llvm::enumerate(out.getResults()))
    loops[cast<AffineDimExpr>(expr).getPosition()] = source.coords[pos];
  return indexExpr(op.getBlock()->getTerminator()->getOperand(0), op, loops,
                   numDims, depth + 1);
}

std::optional<IndexExpr> indexExpr(Value v, linalg::LinalgOp op,
                                   ArrayRef<AffineExpr> loops,
                                   unsigned numDims, int depth) {
  MLIRContext *ctx = v.getContext();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
      return std::nullopt;
    OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(input->get().getType()))
      return std::nullopt;
    SmallVector<AffineExpr> coords;
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
      coords.push_back(e.replaceDims(loops));
    return integerElement(input->get(), coords, numDims, depth);
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  IntegerAttr c;
  if (matchPattern(v, m_Constant(&c)))
    return IndexExpr{getAffineConstantExpr(c.getInt(), ctx), c.getInt() >= 0};
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return index.getDim() < loops.size()
               ? std::optional(IndexExpr{loops[index.getDim()], true})
               : std::nullopt;
  // Casts between index and integers of at least 32 bits keep the small
  // values positions and head numbers are.
  auto wide = [](Type t) {
    return t.isIndex() || (t.isInteger() && t.getIntOrFloatBitWidth() >= 32);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return wide(def->getOperand(0).getType()) &&
                   wide(def->getResult(0).getType())
               ? indexExpr(def->getOperand(0), op, loops, numDims, depth)
               : std::nullopt;
  if (def->getNumOperands() != 2 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
           arith::DivSIOp, arith::FloorDivSIOp, arith::RemUIOp, arith::RemSIOp>(
          def))
    return std::nullopt;
  std::optional<IndexExpr> a =
      indexExpr(def->getOperand(0), op, loops, numDims, depth);
  std::optional<IndexExpr> b =
      indexExpr(def->getOperand(1), op, loops, numDims, depth);
  if (!a || !b)
    return std::nullopt;
  auto positive = [](AffineExpr e) {
    auto k = dyn_cast<AffineConstantExpr>(e);
    return k && k.getValue() > 0;
  };
  if (isa<arith::AddIOp>(def))
    return IndexExpr{a->expr + b->expr, a->nonNegative && b->nonNegative};
  if (isa<arith::SubIOp>(def))
    return IndexExpr{a->expr - b->expr, false};
  if (isa<arith::MulIOp>(def)) {
    if (!isa<AffineConstantExpr>(a->expr) && !isa<AffineConstantExpr>(b->expr))
      return std::nullopt;
    return IndexExpr{a->expr * b->expr, a->nonNegative && b->nonNegative};
  }
  // Divisions by a positive constant of a non-negative value.
  if (!positive(b->expr) || !a->nonNegative)
    return std::nullopt;
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    return IndexExpr{a->expr % b->expr, true};
  return IndexExpr{a->expr.floorDiv(b->expr), true};
}

/// The scalar `v` holds in `op`'s body when it is the same everywhere: a
/// constant, or an input holding one value.
std::optional<double> bodyScalar(Value v, linalg::LinalgOp op) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return f.getValueAsDouble();
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBlock() ||
      arg.getArgNumber() >= unsigned(op.getNumDpsInputs()))
    return std::nullopt;
  return splatValue(op.getDpsInputOperand(arg.getArgNumber())->get());
}

/// `y` without additions of 0 and multiplications by 1 (x + zeros is how
/// some exporters broadcast, a GQA repeat among them): the value is moved,
/// only the sign of a zero may change.
Value peelIdentityArith(Value y, linalg::LinalgOp op) {
  while (Operation *def = y.getDefiningOp()) {
    if (def->getBlock() != op.getBlock() || def->getNumOperands() != 2)
      break;
    auto is = [&](Value v, double c) { return bodyScalar(v, op) == c; };
    Value l = def->getOperand(0), r = def->getOperand(1);
    if (isa<arith::AddFOp>(def) && is(r, 0.0))
      y = l;
    else if (isa<arith::AddFOp>(def) && is(l, 0.0))
      y = r;
    else if (isa<arith::SubFOp>(def) && is(r, 0.0))
      y = l;
    else if (isa<arith::MulFOp>(def) && is(r, 1.0))
      y = l;
    else if (isa<arith::MulFOp>(def) && is(l, 1.0))
      y = r;
    else if (isa<arith::DivFOp>(def) && is(r, 1.0))
      y = l;
    else
      break;
  }
  return y;
}

/// Source of a chain of tensor.insert_slice ops into a tensor.empty that
/// writes copies of one value side by side along one dim, covering it (a
/// tosa.concat of one tensor with itself after tosa-to-tensor): the
/// coordinate along that dim modulo the copy's size.
std::optional<SmallVector<AffineExpr>>
stepBackCopies(tensor::InsertSliceOp last, ArrayRef<AffineExpr> coords,
               Value &source) {
  RankedTensorType type = last.getResultType();
  if (!type.hasStaticShape())
    return std::nullopt;
  Value copy = last.getSource();
  auto copyType = dyn_cast<RankedTensorType>(copy.getType());
  if (!copyType || copyType.getRank() != type.getRank())
    return std::nullopt;
  std::optional<int64_t> dim;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (copyType.getDimSize(d) != type.getDimSize(d)) {
      if (dim)
        return std::nullopt;
      dim = d;
    }
  if (!dim || copyType.getDimSize(*dim) <= 0)
    return std::nullopt;
  int64_t n = copyType.getDimSize(*dim);
  if (type.getDimSize(*dim) % n != 0)
    return std::nullopt;
  llvm::SmallBitVector written(type.getDimSize(*dim) / n);
  Value dest = last.getResult();
  while (auto insert = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    if (insert.getSource() != copy ||
        !llvm::all_of(insert.getMixedStrides(), isOneInteger))
      return std::nullopt;
    SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      std::optional<int64_t> o = getConstantIntValue(offsets[d]);
      if (!o || (d != *dim && *o != 0) ||
          (d == *dim && (*o % n != 0 || *o < 0 ||
                         *o >= type.getDimSize(*dim))))
        return std::nullopt;
      if (d == *dim)
        written.set(*o / n);
    }
    dest = insert.getDest();
  }
  if (!dest.getDefiningOp<tensor::EmptyOp>() || !written.all())
    return std::nullopt;
  SmallVector<AffineExpr> src(coords);
  src[*dim] = src[*dim] % n;
  source = copy;
  return src;
}

/// Coordinates of the same element in the operand of `op`, or nothing when
/// `op` does more than move elements.
std::optional<SmallVector<AffineExpr>>
stepBack(Operation *op, ArrayRef<AffineExpr> coords, Value &source,
         unsigned numDims) {
  MLIRContext *ctx = op->getContext();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // Source dim of a group = row-major linearisation of its coordinates.
    RankedTensorType type = expand.getResultType();
    if (!type.hasStaticShape())
      return std::nullopt;
    SmallVector<AffineExpr> src;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      AffineExpr e = getAffineConstantExpr(0, ctx);
      for (int64_t d : group)
        e = e * type.getDimSize(d) + coords[d];
      src.push_back(e);
    }
    source = expand.getSrc();
    return src;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    RankedTensorType srcType = collapse.getSrcType();
    if (!srcType.hasStaticShape())
      return std::nullopt;
    SmallVector<AffineExpr> src(srcType.getRank());
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      AffineExpr rest = coords[g];
      for (int64_t k = group.size() - 1; k >= 0; --k) {
        int64_t size = srcType.getDimSize(group[k]);
        src[group[k]] = k == 0 ? rest : rest % size;
        rest = rest.floorDiv(size);
      }
    }
    source = collapse.getSrc();
    return src;
  }
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    SmallVector<AffineExpr> src;
    for (auto [d, e] : llvm::enumerate(coords))
      if (!llvm::is_contained(broadcast.getDimensions(), int64_t(d)))
        src.push_back(e);
    source = broadcast.getInput();
    return src;
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    // result[d] = input[perm[d]].
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<AffineExpr> src(perm.size());
    for (auto [d, p] : llvm::enumerate(perm))
      src[p] = coords[d];
    source = transpose.getInput();
    return src;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // source[d] = offset[d] + result coordinate (unit strides); a dynamic
    // offset is the unknown symbol, so nothing built on it compares equal.
    if (!llvm::all_of(slice.getMixedStrides(), isOneInteger))
      return std::nullopt;
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<AffineExpr> src;
    unsigned next = 0;
    for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
      std::optional<int64_t> known = getConstantIntValue(offset);
      AffineExpr o = known ? getAffineConstantExpr(*known, ctx)
                           : getAffineSymbolExpr(0, ctx);
      src.push_back(dropped.test(d) ? o : o + coords[next++]);
    }
    source = slice.getSource();
    return src;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    // Copies of one tensor side by side (a GQA tile): coordinate modulo
    // the copy's size.
    if (concat.getInputs().empty() ||
        !llvm::all_equal(concat.getInputs()))
      return std::nullopt;
    auto in = dyn_cast<RankedTensorType>(concat.getInputs()[0].getType());
    int64_t dim = concat.getDim();
    if (!in || !in.hasStaticShape() || in.getDimSize(dim) <= 0)
      return std::nullopt;
    SmallVector<AffineExpr> src(coords);
    src[dim] = src[dim] % in.getDimSize(dim);
    source = concat.getInputs()[0];
    return src;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return stepBackCopies(insert, coords, source);
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumReductionLoops() != 0)
    return std::nullopt;
  Block *body = generic.getBody();
  AffineMap out = generic.getIndexingMapsArray().back();
  if (!out.isPermutation())
    return std::nullopt;
  SmallVector<AffineExpr> loops(generic.getNumLoops());
  for (auto [pos, expr] : llvm::enumerate(out.getResults()))
    loops[cast<AffineDimExpr>(expr).getPosition()] = coords[pos];
  Value y = peelIdentityArith(body->getTerminator()->getOperand(0), generic);
  // A gather: the element of a captured tensor at indices computed from
  // the loops (an index_select of heads).
  if (auto extract = y.getDefiningOp<tensor::ExtractOp>()) {
    auto type = dyn_cast<RankedTensorType>(extract.getTensor().getType());
    if (extract->getBlock() != body || !type || !type.hasStaticShape() ||
        extract.getTensor().getParentBlock() == body)
      return std::nullopt;
    SmallVector<AffineExpr> src;
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      std::optional<IndexExpr> e =
          indexExpr(index, generic, loops, numDims, 0);
      if (!e)
        return std::nullopt;
      src.push_back(e->expr);
    }
    source = extract.getTensor();
    return src;
  }
  auto arg = dyn_cast<BlockArgument>(y);
  if (!arg || arg.getOwner() != body ||
      arg.getArgNumber() >= unsigned(generic.getNumDpsInputs()))
    return std::nullopt;
  OpOperand *input = generic.getDpsInputOperand(arg.getArgNumber());
  if (!isa<RankedTensorType>(input->get().getType()))
    return std::nullopt;
  SmallVector<AffineExpr> src;
  for (AffineExpr e : generic.getMatchingIndexingMap(input).getResults())
    src.push_back(e.replaceDims(loops));
  source = input->get();
  return src;
}

} // namespace

Value seqpar::skipWideIntegerCasts(Value v) {
  auto wide = [](Type t) {
    return t.isIndex() || (t.isInteger() && t.getIntOrFloatBitWidth() >= 32);
  };
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, arith::TruncIOp>(def) ||
        !wide(def->getOperand(0).getType()) ||
        !wide(def->getResult(0).getType()))
      break;
    v = def->getOperand(0);
  }
  return v;
}

bool seqpar::hasUnknown(AffineExpr e) {
  bool found = false;
  e.walk([&](AffineExpr x) { found |= isa<AffineSymbolExpr>(x); });
  return found;
}

SmallVector<seqpar::TracedElement>
seqpar::traceElement(Value v, ArrayRef<AffineExpr> coords, unsigned numDims) {
  // Simplifying flattens the expression, the costly step of a trace: a
  // dim, symbol or constant is simple already, and so is a coordinate
  // carried unchanged from the step before (a transpose's, a broadcast's).
  auto simplified = [&](MutableArrayRef<AffineExpr> exprs,
                        ArrayRef<AffineExpr> before) {
    for (AffineExpr &e : exprs)
      if (!isa<AffineDimExpr, AffineSymbolExpr, AffineConstantExpr>(e) &&
          !llvm::is_contained(before, e))
        e = simplifyAffineExpr(e, numDims, 1);
  };
  SmallVector<TracedElement> chain;
  SmallVector<AffineExpr> current(coords);
  simplified(current, {});
  chain.push_back({v, current});
  while (Operation *def = v.getDefiningOp()) {
    Value source;
    std::optional<SmallVector<AffineExpr>> back =
        stepBack(def, chain.back().coords, source, numDims);
    if (!back || chain.size() > 64)
      break;
    simplified(*back, chain.back().coords);
    chain.push_back({source, std::move(*back)});
    v = source;
  }
  return chain;
}

bool seqpar::forEachPoint(ArrayRef<AffineExpr> exprs,
                          ArrayRef<int64_t> dimSizes, int64_t limit,
                          function_ref<bool(ArrayRef<AffineExpr> at)> visit) {
  if (exprs.empty())
    return visit({});
  MLIRContext *ctx = exprs.front().getContext();
  SmallVector<unsigned> used;
  int64_t points = 1;
  for (unsigned d = 0; d < dimSizes.size(); ++d) {
    if (llvm::none_of(exprs,
                      [&](AffineExpr e) { return e.isFunctionOfDim(d); }))
      continue;
    used.push_back(d);
    if (dimSizes[d] <= 0 || (points *= dimSizes[d]) > limit)
      return false;
  }
  SmallVector<AffineExpr> at(dimSizes.size(), getAffineConstantExpr(0, ctx));
  for (int64_t p = 0; p < points; ++p) {
    int64_t rest = p;
    for (unsigned d : used) {
      at[d] = getAffineConstantExpr(rest % dimSizes[d], ctx);
      rest /= dimSizes[d];
    }
    if (!visit(at))
      return false;
  }
  return true;
}

/// `e` at integer dim values, as the affine folder computes it: floordiv
/// and ceildiv by any divisor but 0, mod by a divisor of at least 1 (and
/// non-negative); nullopt for a symbol, a dim without a value, another
/// divisor or an overflow, which the folder leaves unfolded. Evaluated directly
/// rather than by substituting and simplifying: the matchers compare thousands
/// of coordinate pairs on a large graph.
static std::optional<int64_t> evaluateAtValues(AffineExpr e,
                                               ArrayRef<int64_t> dims) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(e).getValue();
  case AffineExprKind::DimId: {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    return d < dims.size() ? std::optional<int64_t>(dims[d]) : std::nullopt;
  }
  case AffineExprKind::SymbolId:
    return std::nullopt;
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(e);
  std::optional<int64_t> l = evaluateAtValues(binary.getLHS(), dims);
  if (!l)
    return std::nullopt;
  std::optional<int64_t> r = evaluateAtValues(binary.getRHS(), dims);
  if (!r)
    return std::nullopt;
  int64_t result;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return llvm::AddOverflow(*l, *r, result) ? std::nullopt
                                             : std::optional<int64_t>(result);
  case AffineExprKind::Mul:
    return llvm::MulOverflow(*l, *r, result) ? std::nullopt
                                             : std::optional<int64_t>(result);
  case AffineExprKind::FloorDiv:
    return *r == 0 || llvm::divideSignedWouldOverflow(*l, *r)
               ? std::nullopt
               : std::optional<int64_t>(llvm::divideFloorSigned(*l, *r));
  case AffineExprKind::CeilDiv:
    return *r == 0 || llvm::divideSignedWouldOverflow(*l, *r)
               ? std::nullopt
               : std::optional<int64_t>(llvm::divideCeilSigned(*l, *r));
  case AffineExprKind::Mod:
    return *r < 1 ? std::nullopt : std::optional<int64_t>(llvm::mod(*l, *r));
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> seqpar::evaluateAt(AffineExpr e,
                                          ArrayRef<AffineExpr> at) {
  SmallVector<int64_t, 8> values;
  for (AffineExpr x : at) {
    auto c = dyn_cast<AffineConstantExpr>(x);
    if (!c) { // not a point: substitute and simplify
      auto folded = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(e.replaceDims(at), 0, 1));
      return folded ? std::optional<int64_t>(folded.getValue()) : std::nullopt;
    }
    values.push_back(c.getValue());
  }
  return evaluateAtValues(e, values);
}

std::optional<int64_t> seqpar::constantDifference(AffineExpr a, AffineExpr b,
                                                  ArrayRef<int64_t> dimSizes) {
  if (hasUnknown(a) || hasUnknown(b))
    return std::nullopt;
  if (a == b) // uniqued: the common case needs no simplification
    return 0;
  // Most pairs the matchers compare differ: two points of the domain where
  // a - b differs refute them before the simplifier's flattening, the
  // costly step. The points: every dim at 0, then each at its last value
  // (dims without a static size stay at 0).
  {
    SmallVector<int64_t, 8> point(dimSizes.size(), 0);
    std::optional<int64_t> first;
    auto differs = [&] {
      std::optional<int64_t> x = evaluateAtValues(a, point),
                             y = evaluateAtValues(b, point);
      int64_t diff;
      if (!x || !y || llvm::SubOverflow(*x, *y, diff))
        return false;
      if (!first)
        first = diff;
      return *first != diff;
    };
    if (differs())
      return std::nullopt;
    for (unsigned d = 0; d < dimSizes.size(); ++d) {
      if (dimSizes[d] < 2)
        continue;
      point[d] = dimSizes[d] - 1;
      if (differs())
        return std::nullopt;
      point[d] = 0;
    }
  }
  AffineExpr diff = simplifyAffineExpr(a - b, dimSizes.size(), 0);
  if (auto c = dyn_cast<AffineConstantExpr>(diff))
    return c.getValue();
  std::optional<int64_t> value;
  bool constant = forEachPoint(
      diff, dimSizes, int64_t(1) << 20, [&](ArrayRef<AffineExpr> at) {
        std::optional<int64_t> x = evaluateAt(diff, at);
        if (!x || (value && *value != *x))
          return false;
        value = x;
        return true;
      });
  return constant ? value : std::nullopt;
}

bool seqpar::sameExpr(AffineExpr a, AffineExpr b, ArrayRef<int64_t> dimSizes) {
  return constantDifference(a, b, dimSizes) == 0;
}
