//===- SplitFusedProjections.cpp - unequal fused linears to one per slice -===//
//
// A fused projection whose output is read only through slices of unequal
// widths along its output features (Falcon's QKV of 4 query heads and one
// K/V head: 96 = 64 + 16 + 16 features) is several linears sharing an
// input. No equal split of the fused output gives each TP rank its part of
// every piece, so TP would keep the whole projection replicated. This pass
// rewrites it into one linear per slice, each reading the matching slice of
// the weight (and of the bias), so that TP plans the pieces as separate
// linears: Q column-parallel, an MQA K/V like a GQA one that the ranks do
// not split (docs/tensor-parallel-planning.md, "Fused projections"). Equal
// slices (GPT-2's c_attn) are left to TP's split groups.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "seqpar/Analysis/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>

namespace mlir::seqpar {
#define GEN_PASS_DEF_SPLITFUSEDPROJECTIONS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

bool isStatic(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

/// The position in `map`'s results of loop `loop` as a plain dim, when it
/// appears there exactly once and as nothing else; -1 when the map does not
/// read it; std::nullopt when it reads it in another way (d0 + d1, twice).
std::optional<int64_t> getPlainDimPosition(AffineMap map, unsigned loop) {
  int64_t found = -1;
  for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(loop))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || found >= 0)
      return std::nullopt;
    found = static_cast<int64_t>(pos);
  }
  return found;
}

/// A contraction that a slice of its output features can be computed from:
/// out + a * b (or its mixed-precision form), tensors of static shapes, one
/// result, and one parallel loop (the output features) that the output and
/// the weight operand read as a plain dim and the activation does not.
struct Linear {
  linalg::LinalgOp op;
  unsigned featureLoop;
  unsigned weight;   // input operand number of the weight
  int64_t weightDim; // dim of the weight that holds the features
  int64_t outDim;    // dim of the result that holds the features
};

/// `op` as such a linear, the output features its result's last dim (the
/// rows of a matmul are read by one input and the output too, but a cut of
/// the tokens is not a fused projection).
std::optional<Linear> matchLinear(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !isLinearContraction(op) ||
      !llvm::all_of(op->getOperandTypes(), isStatic) ||
      op->getResult(0).getType() != op.getDpsInitOperand(0)->get().getType())
    return std::nullopt;
  bool usesIndex = false;
  op->walk([&](linalg::IndexOp) { usesIndex = true; });
  if (usesIndex)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3)
    return std::nullopt;
  std::optional<Linear> found;
  for (auto [loop, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind != utils::IteratorType::parallel)
      continue;
    std::optional<int64_t> in0 = getPlainDimPosition(maps[0], loop);
    std::optional<int64_t> in1 = getPlainDimPosition(maps[1], loop);
    std::optional<int64_t> out = getPlainDimPosition(maps[2], loop);
    // Read by the output and exactly one input (not a batch loop), and
    // the output's last dim: a linear's features, not its tokens (the rows
    // of a matmul are read by one input and the output too).
    if (!in0 || !in1 || !out || *out < 0 || (*in0 >= 0) == (*in1 >= 0) ||
        *out != static_cast<int64_t>(maps[2].getNumResults()) - 1)
      continue;
    unsigned weight = *in1 >= 0 ? 1 : 0;
    found = Linear{op, static_cast<unsigned>(loop), weight,
                   weight ? *in1 : *in0, *out};
  }
  return found;
}

/// An all-parallel generic (or a named linalg.add) of two inputs yielding
/// their sum (a bias add), one of them `value` read at the identity as the
/// result is, every map a projected permutation: loop d of it is dim d of
/// `value`.
bool isAddOf(Operation *candidate, Value value) {
  if (!isa_and_nonnull<linalg::GenericOp, linalg::AddOp>(candidate))
    return false;
  auto op = cast<linalg::LinalgOp>(candidate);
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !llvm::all_of(op->getOperandTypes(), isStatic) ||
      op->getResult(0).getType() != value.getType())
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isIdentity() || !llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return false;
  OpOperand *linear = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == value && maps[input->getOperandNumber()].isIdentity())
      linear = input;
  if (!linear)
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield->getNumOperands() != 1 ||
      body->getOperations().size() != 2)
    return false;
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value lhs = add.getLhs(), rhs = add.getRhs();
  Value a = body->getArgument(0), b = body->getArgument(1);
  if (!((lhs == a && rhs == b) || (lhs == b && rhs == a)))
    return false;
  return true;
}

/// One slice that reads a contiguous range [offset, offset + width) of the
/// fused output features.
struct Piece {
  tensor::ExtractSliceOp slice;
  int64_t offset;
  int64_t width;
};

/// The feature range `slice` reads of `source`, whose features are the
/// dims of `group` (one dim when no reshape splits them; [groups, width]
/// after an expand_shape), or std::nullopt when it is not one contiguous
/// range with every other dim taken whole.
std::optional<Piece> getPiece(tensor::ExtractSliceOp slice,
                              ArrayRef<int64_t> group) {
  if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
      !slice.getStrides().empty() || !slice.hasUnitStride())
    return std::nullopt;
  RankedTensorType source = slice.getSourceType();
  if (!source.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (!llvm::is_contained(group, d) &&
        (offsets[d] != 0 || sizes[d] != source.getDimSize(d)))
      return std::nullopt;
  // In the group: the dims before the one sliced have extent 1, those after
  // it are whole; the range is then contiguous in the flattened features.
  std::optional<size_t> cut;
  for (auto [i, d] : llvm::enumerate(group))
    if (offsets[d] != 0 || sizes[d] != source.getDimSize(d)) {
      if (cut)
        return std::nullopt;
      cut = i;
    }
  if (!cut)
    cut = 0; // the whole range
  int64_t inner = 1;
  for (size_t i = 0; i < group.size(); ++i) {
    if (i < *cut && source.getDimSize(group[i]) != 1)
      return std::nullopt;
    if (i > *cut)
      inner *= source.getDimSize(group[i]);
  }
  int64_t d = group[*cut];
  return Piece{slice, offsets[d] * inner, sizes[d] * inner};
}

/// `value` sliced to [offset, offset + width) along `dim`.
Value sliceAlong(OpBuilder &b, Location loc, Value value, int64_t dim,
                 int64_t offset, int64_t width) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> offsets(type.getRank(), 0), strides(type.getRank(), 1);
  SmallVector<int64_t> sizes(type.getShape());
  offsets[dim] = offset;
  sizes[dim] = width;
  return tensor::ExtractSliceOp::create(
      b, loc, value, getAsIndexOpFoldResult(b.getContext(), offsets),
      getAsIndexOpFoldResult(b.getContext(), sizes),
      getAsIndexOpFoldResult(b.getContext(), strides));
}

RankedTensorType withDim(Type type, int64_t dim, int64_t size) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape[dim] = size;
  return ranked.clone(shape);
}

/// What a fused linear's output goes through to its slices: at most one
/// bias add and at most one reshape, in either order (exporters add the
/// bias on the flattened [b*s, n] output or after restoring [b, s, n]).
struct FusedProjection {
  Linear linear;
  SmallVector<Operation *> steps; // bias add (isAddOf) or reshape
  SmallVector<int64_t> group;     // feature dims of the sliced value
  SmallVector<Piece> pieces;
};

std::optional<FusedProjection> matchFused(const Linear &linear) {
  linalg::LinalgOp op = linear.op;
  FusedProjection fused{linear, {}, {linear.outDim}, {}};
  Value value = op->getResult(0);
  auto soleUser = [](Value v) -> Operation * {
    return v.hasOneUse() ? *v.getUsers().begin() : nullptr;
  };
  bool biased = false, reshaped = false;
  while (Operation *user = soleUser(value)) {
    // A bias add slices with the features when they are one dim.
    if (!biased && fused.group.size() == 1 && isAddOf(user, value)) {
      biased = true;
      fused.steps.push_back(user);
      value = user->getResult(0);
      continue;
    }
    if (reshaped)
      break;
    // Before the reshape the features are the one dim linear.outDim.
    int64_t dim = fused.group.front();
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user)) {
      if (!expand.getResultType().hasStaticShape())
        return std::nullopt;
      SmallVector<ReassociationIndices> groups =
          expand.getReassociationIndices();
      fused.group.assign(groups[dim].begin(), groups[dim].end());
      value = expand.getResult();
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user)) {
      // The features stay one dim, their own group.
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      auto it = llvm::find_if(groups, [&](const ReassociationIndices &g) {
        return llvm::is_contained(g, dim);
      });
      if (it == groups.end() || it->size() != 1 ||
          !collapse.getResultType().hasStaticShape())
        return std::nullopt;
      fused.group = {static_cast<int64_t>(it - groups.begin())};
      value = collapse.getResult();
    } else {
      break;
    }
    reshaped = true;
    fused.steps.push_back(user);
  }
  // Read only through static slices of contiguous, disjoint ranges.
  for (Operation *reader : value.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(reader);
    if (!slice || slice.getSource() != value)
      return std::nullopt;
    std::optional<Piece> piece = getPiece(slice, fused.group);
    if (!piece || piece->width <= 0 || piece->offset < 0 ||
        piece->offset + piece->width >
            cast<RankedTensorType>(op->getResult(0).getType())
                .getDimSize(linear.outDim))
      return std::nullopt;
    fused.pieces.push_back(*piece);
  }
  if (fused.pieces.size() < 2)
    return std::nullopt;
  SmallVector<Piece> sorted(fused.pieces);
  llvm::sort(sorted, [](const Piece &a, const Piece &b) {
    return a.offset < b.offset;
  });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i - 1].offset + sorted[i - 1].width > sorted[i].offset)
      return std::nullopt; // overlapping (or the same range twice)
  // Equal widths: TP splits each piece by its groups (docs/
  // tensor-parallel-planning.md, "What the planner recognises").
  if (llvm::all_of(sorted, [&](const Piece &p) {
        return p.width == sorted.front().width;
      }))
    return std::nullopt;
  return fused;
}

/// `piece`'s features of `operand`, whose dim `dim` holds all of them. A
/// named broadcast of a bias vector (HF Conv1D's linalg.broadcast +
/// linalg.add) is rebuilt from the piece of the vector, as the frontend
/// would have written each piece, instead of cutting the broadcast copy.
Value slicePiece(OpBuilder &b, Location loc, Value operand, int64_t dim,
                 const Piece &piece) {
  auto broadcast = operand.getDefiningOp<linalg::BroadcastOp>();
  if (!broadcast || llvm::is_contained(broadcast.getDimensions(), dim))
    return sliceAlong(b, loc, operand, dim, piece.offset, piece.width);
  // The input's dims are the result's that are not broadcast, in order.
  int64_t inputDim = dim - llvm::count_if(broadcast.getDimensions(),
                                          [&](int64_t d) { return d < dim; });
  Value input = sliceAlong(b, loc, broadcast.getInput(), inputDim, piece.offset,
                           piece.width);
  Value init =
      sliceAlong(b, loc, broadcast.getInit(), dim, piece.offset, piece.width);
  return linalg::BroadcastOp::create(b, broadcast.getLoc(), input, init,
                                     broadcast.getDimensions())
      ->getResult(0);
}

/// The fused projection computed as one linear per piece, each piece's
/// slice replaced by its own linear's output.
void split(OpBuilder &b, FusedProjection &fused) {
  linalg::LinalgOp op = fused.linear.op;
  Location loc = op.getLoc();
  int64_t outDim = fused.linear.outDim;
  for (Piece &piece : fused.pieces) {
    b.setInsertionPoint(piece.slice);
    SmallVector<Value> operands;
    Value weight = op.getDpsInputOperand(fused.linear.weight)->get();
    Value other = op.getDpsInputOperand(1 - fused.linear.weight)->get();
    Value weightPiece = sliceAlong(b, loc, weight, fused.linear.weightDim,
                                   piece.offset, piece.width);
    operands = fused.linear.weight ? SmallVector<Value>{other, weightPiece}
                                   : SmallVector<Value>{weightPiece, other};
    operands.push_back(sliceAlong(b, loc, op.getDpsInitOperand(0)->get(),
                                  outDim, piece.offset, piece.width));
    Type type = withDim(op->getResult(0).getType(), outDim, piece.width);
    Value value = mlir::clone(b, op, TypeRange{type}, operands)->getResult(0);
    // The piece's shape after a reshape: the slice's sizes before any rank
    // reduction (a bias add after it keeps that shape).
    auto pieceType = RankedTensorType::get(
        piece.slice.getStaticSizes(),
        piece.slice.getSourceType().getElementType());
    // The original value each step reads, and its feature dim.
    Value original = op->getResult(0);
    int64_t featureDim = outDim;
    for (Operation *step : fused.steps) {
      if (auto bias = dyn_cast<linalg::LinalgOp>(step)) {
        SmallVector<Value> biasOperands;
        for (OpOperand &operand : bias->getOpOperands()) {
          if (operand.get() == original) {
            biasOperands.push_back(value);
            continue;
          }
          // The bias add's loops are the dims of its result (an identity
          // map), its maps projected permutations (isAddOf).
          AffineMap map = bias.getMatchingIndexingMap(&operand);
          std::optional<int64_t> pos = getPlainDimPosition(map, featureDim);
          if (!pos || *pos < 0)
            biasOperands.push_back(operand.get());
          else
            biasOperands.push_back(
                slicePiece(b, bias.getLoc(), operand.get(), *pos, piece));
        }
        value = mlir::clone(b, bias, TypeRange{value.getType()}, biasOperands)
                    ->getResult(0);
      } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(step)) {
        value = tensor::ExpandShapeOp::create(
            b, expand.getLoc(), pieceType, value,
            expand.getReassociationIndices(),
            getAsIndexOpFoldResult(b.getContext(), pieceType.getShape()));
        featureDim = fused.group.front();
      } else {
        auto collapse = cast<tensor::CollapseShapeOp>(step);
        value = tensor::CollapseShapeOp::create(
            b, collapse.getLoc(), pieceType, value,
            collapse.getReassociationIndices());
        featureDim = fused.group.front();
      }
      original = step->getResult(0);
    }
    if (value.getType() != piece.slice.getType()) {
      // A rank-reducing slice: the whole piece, its unit dims dropped.
      SmallVector<int64_t> zeros(pieceType.getRank(), 0),
          ones(pieceType.getRank(), 1);
      value = tensor::ExtractSliceOp::create(
          b, piece.slice.getLoc(), piece.slice.getType(), value,
          getAsIndexOpFoldResult(b.getContext(), zeros),
          getAsIndexOpFoldResult(b.getContext(), pieceType.getShape()),
          getAsIndexOpFoldResult(b.getContext(), ones));
    }
    piece.slice.getResult().replaceAllUsesWith(value);
    piece.slice->erase();
  }
  for (Operation *step : llvm::reverse(fused.steps))
    step->erase();
  op->erase();
}

struct SplitFusedProjectionsPass
    : public mlir::seqpar::impl::SplitFusedProjectionsBase<
          SplitFusedProjectionsPass> {
  void runOnOperation() override {
    SmallVector<FusedProjection> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<Linear> linear = matchLinear(op))
        if (std::optional<FusedProjection> fused = matchFused(*linear))
          found.push_back(std::move(*fused));
    });
    OpBuilder b(&getContext());
    for (FusedProjection &fused : found)
      split(b, fused);
    // Nothing changed: the pass manager need not verify the function again.
    if (found.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
