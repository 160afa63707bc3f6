//===- TensorParallelPlanner.cpp - Megatron blocks in unsharded IR --------===//

#include "TensorParallelPlanner.h"

#include "seqpar/Analysis/Activations.h"
#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/ElementTrace.h"
#include "seqpar/Analysis/KVCache.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::seqpar;

/// True for values whose content does not depend on anything a rank holds:
/// they can be rebuilt with a per-rank shape.
static bool isShapeOnly(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::EmptyOp>(def))
    return true;
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return isShapeOnly(fill.getOutputs()[0]) &&
           !isa<ShapedType>(fill.getInputs()[0].getType());
  DenseElementsAttr dense;
  return matchPattern(def, m_Constant(&dense)) && dense.isSplat();
}

Value TensorParallelPlanner::getActivationRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

BlockArgument TensorParallelPlanner::getWeightArgument(Value value,
                                                       Value *piece) {
  if (piece)
    *piece = nullptr;
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return isa<func::FuncOp>(arg.getOwner()->getParentOp()) ? arg : nullptr;
    Operation *def = value.getDefiningOp();
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
      // A static piece of a weight (seqpar-split-fused-projections cuts a
      // fused weight into the pieces its output's readers read).
      if (!slice.getOffsets().empty() || !slice.getSizes().empty() ||
          !slice.getStrides().empty() || !slice.hasUnitStride() ||
          slice.getSourceType().getRank() != slice.getType().getRank())
        return nullptr;
      if (piece)
        *piece = value;
      value = slice.getSource();
    } else if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(def))
      value = transpose.getInput();
    else if (auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(def))
      value = broadcast.getInput();
    else if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
                 def))
      value = def->getOperand(0);
    else if (auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
             generic && (linalg::isaBroadcastOpInterface(generic) ||
                         linalg::isaTransposeOpInterface(generic)))
      value = generic.getDpsInputOperand(0)->get(); // as exporters write them
    else
      return nullptr;
  }
}

OpOperand *TensorParallelPlanner::getLinearWeight(linalg::LinalgOp op,
                                                  unsigned &featureLoop) {
  // A linear on buffers has no result to split.
  if (!op.hasPureTensorSemantics() || !isLinearContraction(op))
    return nullptr;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto uses = [](AffineMap map, unsigned loop) {
    return map.isFunctionOfDim(loop);
  };
  for (unsigned w : {1u, 0u}) {
    OpOperand *weight = op.getDpsInputOperand(w);
    BlockArgument arg = getWeightArgument(weight->get());
    auto argType = arg ? dyn_cast<RankedTensorType>(arg.getType()) : nullptr;
    if (!argType || argType.getRank() != 2)
      continue;
    SmallVector<unsigned> candidates;
    for (auto [loop, kind] : llvm::enumerate(op.getIteratorTypesArray()))
      if (kind == utils::IteratorType::parallel && uses(maps[w], loop) &&
          uses(maps[2], loop) && !uses(maps[1 - w], loop))
        candidates.push_back(loop);
    if (candidates.size() != 1)
      continue;
    featureLoop = candidates.front();
    return weight;
  }
  return nullptr;
}

LogicalResult TensorParallelPlanner::fail(Operation *op,
                                          const llvm::Twine &reason,
                                          bool divisibility) {
  if (!why->op) { // The first reason is the one to report.
    why->op = op;
    why->reason = reason.str();
    why->divisibility = divisibility;
  }
  return failure();
}

LogicalResult TensorParallelPlanner::checkTiles(Value value, StridedDim s,
                                                Operation *at) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return fail(at, "would split a value that is not a ranked tensor");
  int64_t size = type.getDimSize(s.dim);
  if (ShapedType::isDynamic(size))
    return fail(at, "the split dim is dynamic");
  // Every later division (reshapes, slices, local shapes) is by a part of a
  // split dim: none may be empty.
  if (size == 0)
    return fail(at, "the split dim " + llvm::Twine(s.dim) + " is empty");
  if (s.outer < 1 || s.inner < 1 || size % (s.outer * s.inner) != 0)
    return fail(at, "the split does not tile dim " + llvm::Twine(s.dim));
  int64_t extent = size / (s.outer * s.inner);
  if (extent % numRanks != 0)
    return fail(at,
                "dim " + llvm::Twine(s.dim) + " holds " + llvm::Twine(extent) +
                    (s.outer > 1 ? " features per group" : " features") +
                    ", which tp=" + llvm::Twine(numRanks) + " does not divide",
                /*divisibility=*/true);
  return success();
}

LogicalResult TensorParallelPlanner::split(Value value, StridedDim s,
                                           Operation *at) {
  if (claimed.contains(value))
    return fail(at, "reaches a value already split by another block");
  if (splitReductions && wholeInputs.contains(value)) {
    if (!why->op)
      why->splitsWholeInput = true;
    return fail(at, "would split an activation that linears read whole (the "
                    "input of another block's column-parallel linears)");
  }
  auto it = result.values.find(value);
  if (it != result.values.end()) {
    if (it->second.samePieces(s))
      return success();
    return fail(at, "would need a value split in two different ways");
  }
  if (failed(checkTiles(value, s, at)))
    return failure();
  result.values.insert({value, s});
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != &func.getBody().front()) {
      if (failed(visitCapture(use, s)))
        return failure();
      continue;
    }
    worklist.push_back(user);
  }
  return success();
}

/// The linalg op of the function's top level `top` that gathers through
/// `user` (a tensor.extract directly in its body), or null.
static linalg::LinalgOp getGatheringOp(Operation *user, Block *top) {
  auto extract = dyn_cast<tensor::ExtractOp>(user);
  auto op = extract ? dyn_cast<linalg::LinalgOp>(extract->getParentOp())
                    : linalg::LinalgOp();
  return op && op->getBlock() == top ? op : linalg::LinalgOp();
}

LogicalResult TensorParallelPlanner::visitCapture(OpOperand &use,
                                                  StridedDim s) {
  Operation *top = func.getBody().front().findAncestorOpInBlock(
      *use.getOwner());
  if (!splitReductions)
    return fail(use.getOwner(),
                "a split value is read inside the body of '" +
                    top->getName().getStringRef() +
                    "' (a nested region), which may read any rank's part "
                    "of it");
  auto extract = dyn_cast<tensor::ExtractOp>(use.getOwner());
  linalg::LinalgOp op = getGatheringOp(use.getOwner(), &func.getBody().front());
  if (!op)
    return fail(use.getOwner(),
                "a split value is used inside a nested region (only a gather, "
                "tensor.extract in a linalg body, can be cut)");
  // Masking another rank's rows to zero is exact only if the element is the
  // op's whole output: yielded as it is, nothing else computed from it.
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!extract->hasOneUse() || !yield || *extract->user_begin() != yield ||
      yield->getNumOperands() != 1 || op->getNumResults() != 1 ||
      op.getNumReductionLoops() != 0 ||
      !body->getArgument(op.getNumDpsInputs()).use_empty())
    return fail(extract, "gathers from a split value in an op that does "
                         "more than yield the element (computes with it, or "
                         "has other results or reductions): only a gather "
                         "that yields it as it is can be summed over the "
                         "ranks");
  if (s.outer != 1 || s.inner != 1)
    return fail(extract, "gathers along a grouped or strided split");
  if (failed(checkCombinable(op, op->getResult(0).getType())))
    return failure();
  result.gathers.push_back({extract, s});
  result.partial.insert({op, shard::ReductionKind::Sum});
  if (!splitOneHots)
    return success();
  // The backward of a gather compares the ids with every row (a one-hot,
  // contracted with the output gradient for the table's gradient, or the
  // cross-entropy's d/dlogits): its row loop follows the split, so the
  // gradient stays split as the table and the one-hot is never whole.
  int64_t rows = cast<RankedTensorType>(use.get().getType()).getDimSize(s.dim);
  for (auto candidate : func.getBody().front().getOps<linalg::GenericOp>()) {
    std::optional<unsigned> loop = getOneHotLoop(candidate, rows);
    if (!loop || result.values.count(candidate->getResult(0)))
      continue;
    std::optional<unsigned> pos =
        candidate.getIndexingMapsArray().back().getResultPosition(
            getAffineDimExpr(*loop, candidate.getContext()));
    if (!pos)
      continue;
    if (failed(split(candidate->getResult(0),
                     {static_cast<int64_t>(*pos), /*inner=*/1, /*outer=*/1},
                     candidate)))
      return failure();
    worklist.push_back(candidate);
  }
  return success();
}

std::optional<int64_t>
TensorParallelPlanner::getGatheredDim(BlockArgument table, Operation *&gather,
                                      std::string &whyNot) {
  auto type = dyn_cast<RankedTensorType>(table.getType());
  if (!type || type.getRank() < 1)
    return std::nullopt;
  std::optional<int64_t> dim;
  Operation *other = nullptr;
  bool severalDims = false;
  for (Operation *user : table.getUsers()) {
    linalg::LinalgOp op = getGatheringOp(user, table.getOwner());
    std::optional<int64_t> found;
    if (op) {
      auto extract = cast<tensor::ExtractOp>(user);
      for (auto [pos, index] : llvm::enumerate(extract.getIndices())) {
        auto arg = dyn_cast<BlockArgument>(skipWideIntegerCasts(index));
        if (!arg || arg.getOwner() != op.getBlock() ||
            arg.getArgNumber() >= op.getNumDpsInputs() ||
            !isa<BlockArgument>(getActivationRoot(
                op.getDpsInputOperand(arg.getArgNumber())->get())))
          continue;
        severalDims |= found.has_value();
        found = pos;
      }
    }
    if (!found) {
      other = other ? other : user;
      continue;
    }
    severalDims |= dim && *dim != *found;
    dim = dim ? dim : found;
    gather = gather ? gather : op.getOperation();
  }
  if (!dim)
    return std::nullopt; // Not an embedding table.
  llvm::raw_string_ostream os(whyNot);
  if (severalDims) {
    os << "it is gathered at the ids along more than one dim";
    return std::nullopt;
  }
  if (other) {
    os << "it is also read by '" << other->getName() << "' at "
       << other->getLoc() << ", not only by gathers at the ids";
    return std::nullopt;
  }
  return dim;
}

/// True for a 1-D generic that yields its position: an iota.
static bool isIota(Value v) {
  auto iota = v.getDefiningOp<linalg::GenericOp>();
  if (!iota || iota.getNumDpsInputs() != 0 || iota.getNumLoops() != 1 ||
      iota->getNumResults() != 1)
    return false;
  auto yield = cast<linalg::YieldOp>(iota.getBlock()->getTerminator());
  auto index = skipWideIntegerCasts(yield->getOperand(0))
                   .getDefiningOp<linalg::IndexOp>();
  return index && index.getDim() == 0;
}

std::optional<unsigned>
TensorParallelPlanner::getOneHotLoop(linalg::GenericOp op, int64_t rows) {
  if (op->getNumResults() != 1 || op.getNumReductionLoops() != 0)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Block *body = op.getBlock();
  // The input an element of the body reads, with its map.
  auto inputOf = [&](Value v) -> OpOperand * {
    auto arg = dyn_cast<BlockArgument>(skipWideIntegerCasts(v));
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return nullptr;
    return op.getDpsInputOperand(arg.getArgNumber());
  };
  // The loop whose position `row` is: an iota input read along it, or the
  // loop's linalg.index.
  auto rowLoop = [&](Value row) -> std::optional<unsigned> {
    if (auto index =
            skipWideIntegerCasts(row).getDefiningOp<linalg::IndexOp>())
      return index.getDim();
    OpOperand *rowInput = inputOf(row);
    if (!rowInput || !isIota(rowInput->get()))
      return std::nullopt;
    AffineMap rowMap = maps[rowInput->getOperandNumber()];
    if (rowMap.getNumResults() != 1)
      return std::nullopt;
    auto d = dyn_cast<AffineDimExpr>(rowMap.getResult(0));
    if (!d)
      return std::nullopt;
    return d.getPosition();
  };
  for (auto cmp : body->getOps<arith::CmpIOp>()) {
    if (cmp.getPredicate() != arith::CmpIPredicate::eq)
      continue;
    for (auto [ids, row] : {std::pair(cmp.getLhs(), cmp.getRhs()),
                            std::pair(cmp.getRhs(), cmp.getLhs())}) {
      OpOperand *idsInput = inputOf(ids);
      std::optional<unsigned> d = rowLoop(row);
      if (!idsInput || !d || ranges[*d] != rows ||
          maps[idsInput->getOperandNumber()].isFunctionOfDim(*d))
        continue;
      return d;
    }
  }
  return std::nullopt;
}

LogicalResult TensorParallelPlanner::checkCombinable(Operation *op,
                                                     Type partial) {
  // Floating-point partial sums only: the runtime also all-reduces i32/i64
  // exactly, but no executed test proves integer partials under TP yet.
  Type element = getElementTypeOrSelf(partial);
  if (element.isF32() || element.isF16() || element.isBF16())
    return success();
  std::string type;
  llvm::raw_string_ostream os(type);
  os << element;
  return fail(op, "would all-reduce " + llvm::Twine(type) +
                      " partial results: TP planning combines f32, f16 and "
                      "bf16 partial sums only");
}

LogicalResult TensorParallelPlanner::checkGathers() {
  for (auto [extract, s] : result.gathers) {
    Operation *op = extract->getParentOp();
    auto isSplit = [&](Value v) { return result.values.count(v) != 0; };
    if (llvm::any_of(op->getOperands(), isSplit) ||
        llvm::any_of(op->getResults(), isSplit))
      return fail(op, "gathers from a split value and is split along a loop "
                      "as well");
  }
  return success();
}

LogicalResult TensorParallelPlanner::readSplit(OpOperand &operand,
                                               StridedDim s) {
  Value v = operand.get();
  auto it = result.values.find(v);
  if (it != result.values.end()) {
    if (it->second.samePieces(s))
      return success();
    return fail(operand.getOwner(),
                "reads operand " + llvm::Twine(operand.getOperandNumber()) +
                    " split in a different way");
  }
  // Weights (through their transposes/broadcasts) are split at the source,
  // so each rank stores only its part. A piece of a fused weight is not a
  // split of its argument: the argument stays whole and each rank slices its
  // part of the piece locally (below).
  Value piece;
  if (getWeightArgument(v, &piece) && !piece && !claimed.contains(v)) {
    if (failed(split(v, s, operand.getOwner())))
      return failure();
    if (Operation *def = v.getDefiningOp())
      worklist.push_back(def);
    return success();
  }
  pendingReads[&operand] = s;
  return success();
}

LogicalResult TensorParallelPlanner::visitLinalg(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<LoopSplit> loopSplit;
  auto note = [&](unsigned operandIndex, StridedDim s) -> LogicalResult {
    AffineExpr expr = maps[operandIndex].getResult(s.dim);
    auto dimExpr = dyn_cast<AffineDimExpr>(expr);
    if (!dimExpr)
      return fail(op, "indexes the split dim with a non-trivial map");
    LoopSplit ls{dimExpr.getPosition(), s.outer, s.inner};
    if (loopSplit &&
        (loopSplit->loop != ls.loop || loopSplit->outer != ls.outer))
      return fail(op, "has operands split along different loops");
    loopSplit = ls;
    return success();
  };
  for (OpOperand &operand : op->getOpOperands()) {
    auto it = result.values.find(operand.get());
    if (it != result.values.end() &&
        failed(note(operand.getOperandNumber(), it->second)))
      return failure();
  }
  for (OpResult res : op->getResults()) {
    auto it = result.values.find(res);
    if (it != result.values.end() &&
        failed(note(op.getNumDpsInputs() + res.getResultNumber(), it->second)))
      return failure();
  }
  if (!loopSplit)
    return success();
  unsigned loop = loopSplit->loop;
  bool usesIndex = false;
  op->walk([&](linalg::IndexOp index) { usesIndex |= index.getDim() == loop; });
  // A rank's position along a contiguous split is its local one plus the
  // rank's first; along a grouped or strided one it is not one offset.
  if (usesIndex && (loopSplit->outer != 1 || loopSplit->inner != 1))
    return fail(op, "reads the position along a grouped or strided split dim "
                    "(linalg.index)");
  if (usesIndex)
    result.offsetPositions.insert(
        {op, {loop, op.getStaticLoopRanges()[loop] / numRanks}});
  auto splitOf = [&](unsigned operandIndex) -> std::optional<StridedDim> {
    for (auto [pos, expr] : llvm::enumerate(maps[operandIndex].getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == loop)
        return StridedDim{static_cast<int64_t>(pos), loopSplit->inner,
                          loopSplit->outer};
    return std::nullopt;
  };
  bool reduction =
      op.getIteratorTypesArray()[loop] == utils::IteratorType::reduction;
  // The split must hold for every operand and result, not only the ones
  // that brought it: each reads the split loop at most once, as a plain dim,
  // and a reduction over it leaves it out of every result (each rank's
  // partial sum is of the whole output).
  for (auto [index, map] : llvm::enumerate(maps)) {
    int uses = 0;
    for (AffineExpr expr : map.getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == loop)
        ++uses;
      else if (expr.isFunctionOfDim(loop))
        return fail(op, "indexes the split loop d" + llvm::Twine(loop) +
                            " with a compound expression in operand #" +
                            llvm::Twine(index));
    }
    if (uses > 1)
      return fail(op, "indexes the split loop d" + llvm::Twine(loop) +
                          " twice in operand #" + llvm::Twine(index));
    if (reduction && uses && index >= static_cast<size_t>(op.getNumDpsInputs()))
      return fail(op, "reduces over the split loop d" + llvm::Twine(loop) +
                          " but keeps it in result #" +
                          llvm::Twine(index - op.getNumDpsInputs()));
  }
  if (reduction) {
    // Each rank reduces its part of the split dim, leaving partial results
    // of the full output: a row-parallel linear, the max and the sum of a
    // softmax over the vocabulary (Megatron's VocabParallelCrossEntropy), or
    // a reduction of every loop (the sum of squares of a split weight
    // gradient in a gradient norm, the max of an overflow check), whose
    // result has no dim the split could spread along: a Megatron block may
    // close there too.
    std::optional<shard::ReductionKind> kind = getReductionCombiner(op);
    bool reducesEveryLoop = op.getNumLoops() == op.getNumReductionLoops();
    if (!splitReductions && !isLinearContraction(op) && !reducesEveryLoop)
      return fail(op, "reduces over the split dim and is not a linear "
                      "(out + a * b) or a reduction of every loop");
    if (!kind)
      return fail(op, "reduces over the split dim with a body that is not "
                      "out = combine(out, f(ins)) for a sum, max or min");
    if (failed(checkCombinable(op, op->getResult(0).getType())))
      return failure();
    if (*kind == shard::ReductionKind::Sum &&
        !isZeroInit(op.getDpsInitOperand(0)->get()))
      return fail(op, "accumulates into an init that is not a zero fill or "
                      "constant: the partial sums would add it once per rank");
    result.partial.insert({op, *kind});
  }
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<StridedDim> s = splitOf(operand.getOperandNumber());
    if (!s)
      continue;
    if (failed(readSplit(operand, *s)))
      return failure();
  }
  if (reduction)
    return success();
  for (OpResult res : op->getResults()) {
    std::optional<StridedDim> s =
        splitOf(op.getNumDpsInputs() + res.getResultNumber());
    if (!s)
      return fail(op, "drops the split loop from its result");
    if (failed(split(res, *s, op)))
      return failure();
  }
  return success();
}

FailureOr<StridedDim> TensorParallelPlanner::expandSplit(
    Operation *op, RankedTensorType collapsed, RankedTensorType expanded,
    ArrayRef<ReassociationIndices> groups, StridedDim s) {
  int64_t extent = collapsed.getDimSize(s.dim) / (s.outer * s.inner);
  ReassociationIndices group = groups[s.dim];
  int64_t before = 1;
  for (auto [i, dim] : llvm::enumerate(group)) {
    int64_t z = expanded.getDimSize(dim);
    if (before * z <= s.outer) {
      if (s.outer % (before * z) != 0)
        break;
      before *= z;
      continue;
    }
    int64_t outer = s.outer / before;
    if (z % outer != 0)
      break;
    int64_t rest = z / outer;
    int64_t after = 1;
    for (int64_t later : ArrayRef<int64_t>(group).drop_front(i + 1))
      after *= expanded.getDimSize(later);
    if (rest % extent == 0 && (rest / extent) * after == s.inner)
      return StridedDim{dim, rest / extent, outer};
    if (extent % rest == 0 && after == (extent / rest) * s.inner) {
      if (rest % numRanks != 0) {
        (void)fail(op,
                   "splits " + llvm::Twine(extent) + " features into " +
                       llvm::Twine(rest) + " heads of " +
                       llvm::Twine(extent / rest) +
                       ", and tp=" + llvm::Twine(numRanks) +
                       " does not divide " + llvm::Twine(rest) + " heads",
                   /*divisibility=*/true);
        return failure();
      }
      return StridedDim{dim, /*inner=*/1, outer};
    }
    break;
  }
  (void)fail(op, "reshapes the split dim in a way the planner cannot map");
  return failure();
}

FailureOr<StridedDim>
TensorParallelPlanner::collapseSplit(Operation *op, RankedTensorType expanded,
                                     ArrayRef<ReassociationIndices> groups,
                                     StridedDim s) {
  for (auto [newDim, group] : llvm::enumerate(groups)) {
    if (!llvm::is_contained(group, s.dim))
      continue;
    int64_t before = 1, after = 1;
    for (int64_t d : group) {
      int64_t size = expanded.getDimSize(d);
      if (d != s.dim && (ShapedType::isDynamic(size) || size == 0))
        return fail(op, "merges the split dim with an empty or dynamic dim");
      if (d < s.dim)
        before *= size;
      if (d > s.dim)
        after *= size;
    }
    return StridedDim{static_cast<int64_t>(newDim), s.inner * after,
                      s.outer * before};
  }
  return fail(op, "collapses the split dim away");
}

LogicalResult
TensorParallelPlanner::visitReshape(Operation *op, Value expanded,
                                    Value collapsed,
                                    ArrayRef<ReassociationIndices> groups) {
  auto expandedType = cast<RankedTensorType>(expanded.getType());
  auto collapsedType = cast<RankedTensorType>(collapsed.getType());
  OpOperand &source = op->getOpOperand(0);
  bool forward = result.values.count(op->getOperand(0));
  Value from = forward ? op->getOperand(0) : op->getResult(0);
  StridedDim s = result.values.lookup(from);
  StridedDim mapped;
  if (from == collapsed) {
    FailureOr<StridedDim> e =
        expandSplit(op, collapsedType, expandedType, groups, s);
    if (failed(e))
      return failure();
    mapped = *e;
  } else {
    FailureOr<StridedDim> c = collapseSplit(op, expandedType, groups, s);
    if (failed(c))
      return failure();
    mapped = *c;
  }
  if (forward)
    return split(op->getResult(0), mapped, op);
  return readSplit(source, mapped);
}

LogicalResult TensorParallelPlanner::visitSlice(tensor::ExtractSliceOp op,
                                                StridedDim s) {
  if (!op.hasUnitStride() || !op.getOffsets().empty() || !op.getSizes().empty())
    return fail(op,
                "slices with dynamic offsets or sizes, or non-unit strides");
  int64_t size = op.getSourceType().getDimSize(s.dim);
  int64_t block = size / s.outer; // one group: extent * inner elements
  int64_t offset = op.getStaticOffsets()[s.dim];
  int64_t length = op.getStaticSizes()[s.dim];
  if (offset % block != 0 || length % block != 0)
    return fail(op, "slices inside a split group (of " + llvm::Twine(block) +
                        " elements along dim " + llvm::Twine(s.dim) + ")");
  llvm::SmallBitVector dropped = op.getDroppedDims();
  if (dropped.test(s.dim))
    return fail(op, "drops the split dim");
  int64_t dim = s.dim;
  for (int64_t d = 0; d < s.dim; ++d)
    dim -= dropped.test(d);
  return split(op.getResult(), {dim, s.inner, length / block}, op);
}

LogicalResult TensorParallelPlanner::sameDims(Operation *op,
                                              unsigned dimOperands) {
  std::optional<StridedDim> s;
  for (Value v : llvm::concat<Value>(op->getOperands().take_front(dimOperands),
                                     op->getResults())) {
    auto it = result.values.find(v);
    if (it == result.values.end())
      continue;
    if (s && !s->samePieces(it->second))
      return fail(op, "has operands split in different ways");
    s = it->second;
  }
  if (!s)
    return success();
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op);
      softmax && static_cast<int64_t>(softmax.getDimension()) == s->dim)
    return fail(op, "normalises over the split dim");
  for (OpOperand &operand : op->getOpOperands().take_front(dimOperands))
    if (isa<RankedTensorType>(operand.get().getType()) &&
        failed(readSplit(operand, *s)))
      return failure();
  for (Value res : op->getResults())
    if (failed(split(res, *s, op)))
      return failure();
  return success();
}

/// A concatenation or insertion along the split dim keeps the split when
/// every piece is made of whole blocks of one size `block` (the backward of
/// slicing a fused QKV output concatenates dQ, dK, dV): rank r's chunks of
/// the pieces' blocks, in order, are its chunks of the result's blocks.
LogicalResult TensorParallelPlanner::readBlocks(OpOperand &operand,
                                                int64_t dim, int64_t inner,
                                                int64_t block) {
  int64_t size =
      cast<RankedTensorType>(operand.get().getType()).getDimSize(dim);
  if (ShapedType::isDynamic(size) || size % block != 0)
    return fail(operand.getOwner(),
                "joins a piece of " + llvm::Twine(size) +
                    " elements along the split dim, not whole split blocks "
                    "of " + llvm::Twine(block));
  return readSplit(operand, {dim, inner, size / block});
}

/// The blocks (elements per split group) of the split operands of `op`
/// along `dim`: one size for all, or a failure.
FailureOr<StridedDim>
TensorParallelPlanner::joinedSplit(Operation *op, ValueRange pieces,
                                   int64_t dim, int64_t &block) {
  std::optional<StridedDim> s;
  block = 0;
  for (Value v : pieces) {
    auto it = result.values.find(v);
    if (it == result.values.end())
      continue;
    int64_t b =
        cast<RankedTensorType>(v.getType()).getDimSize(dim) / it->second.outer;
    if (s && (s->dim != it->second.dim || (s->dim == dim && b != block)))
      return fail(op, "joins pieces split in different ways");
    s = it->second;
    block = b;
  }
  if (!s)
    return StridedDim{};
  return *s;
}

LogicalResult TensorParallelPlanner::visitConcat(tensor::ConcatOp op) {
  int64_t dim = op.getDim(), block;
  FailureOr<StridedDim> s = joinedSplit(op, op.getInputs(), dim, block);
  if (failed(s))
    return failure();
  if (s->dim < 0)
    return success();
  if (s->dim != dim) {
    for (OpOperand &operand : op->getOpOperands())
      if (failed(readSplit(operand, *s)))
        return failure();
    return split(op.getResult(), *s, op);
  }
  for (OpOperand &operand : op->getOpOperands())
    if (failed(readBlocks(operand, dim, s->inner, block)))
      return failure();
  return split(op.getResult(),
               {dim, s->inner, op.getResultType().getDimSize(dim) / block}, op);
}

LogicalResult
TensorParallelPlanner::visitInsertSlice(tensor::InsertSliceOp op) {
  std::optional<StridedDim> s;
  for (Value v : {op.getSource(), op.getDest(), op.getResult()})
    if (auto it = result.values.find(v); it != result.values.end())
      s = it->second;
  if (!s)
    return success();
  int64_t dim = s->dim;
  // Offsets along other dims may be dynamic: a decode step writes its new
  // tokens' K/V, all heads, into the KV cache at the run-time length along
  // the slots, and a split of the heads passes through it.
  if (op.getSourceType().getRank() != op.getDestType().getRank() ||
      !op.getSizes().empty() || !op.hasUnitStride() ||
      op.isDynamicOffset(dim))
    return fail(op, "inserts with a rank change, dynamic sizes or strides, or "
                    "a dynamic offset along the split dim");
  int64_t offset = op.getStaticOffsets()[dim];
  int64_t destSize = op.getDestType().getDimSize(dim);
  if (offset == 0 && op.getStaticSizes()[dim] == destSize) {
    if (failed(readSplit(op.getSourceMutable(), *s)) ||
        failed(readSplit(op.getDestMutable(), *s)))
      return failure();
    return split(op.getResult(), *s, op);
  }
  // Along the split dim: the source, the destination and the offset are
  // whole blocks of the split.
  int64_t block = 0;
  for (Value v : {op.getSource(), op.getDest(), op.getResult()})
    if (auto it = result.values.find(v); it != result.values.end())
      block = cast<RankedTensorType>(v.getType()).getDimSize(dim) /
              it->second.outer;
  if (offset % block != 0)
    return fail(op, "inserts at offset " + llvm::Twine(offset) +
                        " along the split dim, inside a split block of " +
                        llvm::Twine(block));
  if (failed(readBlocks(op.getSourceMutable(), dim, s->inner, block)) ||
      failed(readBlocks(op.getDestMutable(), dim, s->inner, block)))
    return failure();
  return split(op.getResult(), {dim, s->inner, destSize / block}, op);
}

LogicalResult TensorParallelPlanner::visitAttention(AttentionOp op) {
  // Megatron's attention: each rank computes a/t heads (Shoeybi et al.
  // 2019, section 3). Contiguous chunks keep GQA's pairing: query head
  // r*a/t + j reads key head r*a_kv/t + j/(a/a_kv), rank r's when t divides
  // a_kv (checkTiles checks, for split values and replicated reads alike).
  if (!op.getDropout().empty())
    return fail(op, "is a seqpar.attention with dropout, whose masks are "
                    "keyed by the global head");
  StridedDim heads{1, 1, 1};
  for (OpOperand *operand :
       {&op.getQueryMutable(), &op.getKeyMutable(), &op.getValueMutable()})
    if (failed(readSplit(*operand, heads)))
      return failure();
  // A mask [b, a, s, t] is read per head; [b, 1, s, t] by every head.
  if (Value mask = op.getMask();
      mask && cast<RankedTensorType>(mask.getType()).getDimSize(1) != 1 &&
      failed(readSplit(op.getMaskMutable()[0], heads)))
    return failure();
  return split(op.getResult(), heads, op);
}

LogicalResult TensorParallelPlanner::visit(Operation *op) {
  result.ops.insert(op);
  auto sourceSplit = [&](Value v) { return result.values.lookup(v); };
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitReshape(op, expand.getResult(), expand.getSrc(),
                        expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitReshape(op, collapse.getSrc(), collapse.getResult(),
                        collapse.getReassociationIndices());
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (!result.values.count(slice.getSource()))
      return fail(op, "slices a split value by a non-tensor operand");
    return visitSlice(slice, sourceSplit(slice.getSource()));
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return visitConcat(concat);
  if (auto attention = dyn_cast<AttentionOp>(op))
    return visitAttention(attention);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitInsertSlice(insert);
  // Checked once every split is known (returnsGradients).
  if (isa<func::ReturnOp>(op))
    return success();
  if (isa<linalg::SoftmaxOp, tensor::CastOp>(op))
    return sameDims(op, op->getNumOperands());
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      isa<RankedTensorType>(op->getResult(0).getType()))
    return sameDims(op, op->getNumOperands());
  return fail(op, "a split value reaches '" + op->getName().getStringRef() +
                      "', which the planner does not handle");
}

llvm::DenseMap<Value, int64_t>
TensorParallelPlanner::findKVTensors(func::FuncOp func) {
  llvm::DenseMap<Value, int64_t> tensors;
  if (func.isExternal())
    return tensors;
  Block &body = func.getBody().front();
  // Only what a forward graph returns can be one; most graphs return no
  // rank-4 tensor, and attention need not be matched for them.
  Operation *returnOp = body.getTerminator();
  if (llvm::none_of(returnOp->getOperandTypes(), [](Type type) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        return tensor && tensor.getRank() == 4;
      }))
    return tensors;
  for (auto insert : body.getOps<tensor::InsertSliceOp>()) {
    std::string why;
    if (succeeded(getKVCacheArgument(insert, why)))
      tensors[insert.getResult()] = 1;
  }
  for (auto pv : body.getOps<linalg::LinalgOp>()) {
    if (pv.getNumDpsInputs() != 2 || pv->getNumResults() != 1)
      continue;
    std::string why;
    FailureOr<AttentionMatch> match = matchAttention(pv, why);
    if (failed(match))
      continue;
    for (const HeadsOperand *kv : {&match->key, &match->value}) {
      if (!kv->isPermutation() || kv->perm.size() != 4 || kv->perm[1] < 0)
        continue;
      tensors.try_emplace(kv->value, kv->perm[1]);
      // Exporters may return another transpose of the tensor attention
      // reads (GPT-2's present K [b, a, s, d] beside the K^T [b, a, d, s]
      // of Q.K^T, both of the [b, s, a, d] heads): back to the tensor
      // before the transposes, then every transpose of it, each with its
      // heads where the permutation puts them.
      Value root = kv->value;
      int64_t heads = kv->perm[1];
      while (auto transpose = root.getDefiningOp<linalg::TransposeOp>()) {
        ArrayRef<int64_t> perm = transpose.getPermutation();
        if (heads >= static_cast<int64_t>(perm.size()))
          break;
        heads = perm[heads];
        root = transpose.getInput();
      }
      tensors.try_emplace(root, heads);
      for (Operation *user : root.getUsers()) {
        auto transpose = dyn_cast<linalg::TransposeOp>(user);
        if (!transpose || transpose.getInput() != root ||
            user->getBlock() != &body)
          continue;
        for (auto [dim, from] : llvm::enumerate(transpose.getPermutation()))
          if (from == heads)
            tensors.try_emplace(transpose->getResult(0),
                                static_cast<int64_t>(dim));
      }
    }
  }
  return tensors;
}

LogicalResult TensorParallelPlanner::returnsGradients() {
  Operation *returnOp = func.getBody().front().getTerminator();
  for (OpOperand &returned : returnOp->getOpOperands()) {
    auto it = result.values.find(returned.get());
    if (it == result.values.end())
      continue;
    unsigned index = returned.getOperandNumber();
    // A forward graph's K/V (a prefill's, or a decode step's updated
    // cache) split over its heads stays split: each rank holds the heads
    // its attention reads, as the decode step reads its caches.
    if (gradientArgs.empty() && kvTensors) {
      auto kv = kvTensors->find(returned.get());
      if (kv != kvTensors->end() && it->second.dim == kv->second &&
          it->second.inner == 1 && it->second.outer == 1)
        continue;
    }
    auto splitLike = [&](BlockArgument arg) {
      auto argSplit = result.values.find(arg);
      return argSplit != result.values.end() &&
             arg.getType() == returned.get().getType() &&
             argSplit->second.samePieces(it->second);
    };
    if (!gradientArgs.empty()) {
      // A training graph: the result must be in a parameter's gradient's
      // place (that parameter may be split by a later block: an embedding
      // table whose gradient the head's one-hots split).
      int64_t paired = index < gradientArgs.size() ? gradientArgs[index] : -1;
      std::string what;
      llvm::raw_string_ostream os(what);
      if (Operation *def = returned.get().getDefiningOp())
        os << " ('" << def->getName() << "' at " << def->getLoc() << ")";
      if (paired < 0)
        return fail(returnOp,
                    "returns result #" + llvm::Twine(index) + what +
                        " split, and it is the gradient of no parameter "
                        "(results #1-#" +
                        llvm::Twine(llvm::count_if(gradientArgs, [](int64_t a) {
                          return a >= 0;
                        })) +
                        " are the gradients of the last arguments, in "
                        "order): only a split weight's gradient stays split");
    }
    bool likeWeight = llvm::any_of(func.getArguments(), splitLike);
    // A weight's gradient is a sum over tokens of activations (x^T . dY, a
    // one-hot^T . dE): never a linear of a split weight, as logits that
    // merely have a weight's shape are.
    auto linear =
        storageRoot(returned.get()).getDefiningOp<linalg::LinalgOp>();
    unsigned loop;
    OpOperand *weight = linear ? getLinearWeight(linear, loop) : nullptr;
    if (weight && result.values.count(getWeightArgument(weight->get())))
      likeWeight = false;
    if (!likeWeight)
      return fail(returnOp, "returns result #" + llvm::Twine(index) +
                                " split, and it is not a split weight's "
                                "gradient (shaped and split as the weight, "
                                "and not a linear of a split weight), which "
                                "alone stays split");
  }
  return success();
}

FailureOr<TPBlockPlan>
TensorParallelPlanner::plan(ArrayRef<linalg::LinalgOp> seeds, int64_t groups,
                            TPPlanFailure &failureInfo) {
  why = &failureInfo;
  result = TPBlockPlan();
  worklist.clear();
  pendingReads.clear();
  for (linalg::LinalgOp seed : seeds) {
    unsigned featureLoop;
    if (!getLinearWeight(seed, featureLoop)) {
      (void)fail(seed, "is not a linear with a weight argument");
      return failure();
    }
    AffineMap outMap = seed.getIndexingMapsArray().back();
    std::optional<unsigned> pos = outMap.getResultPosition(
        getAffineDimExpr(featureLoop, seed.getContext()));
    if (!pos) {
      (void)fail(seed, "has no output-feature dim");
      return failure();
    }
    if (failed(split(seed->getResult(0),
                     {static_cast<int64_t>(*pos), /*inner=*/1, groups}, seed))) {
      why->atSeed = true;
      return failure();
    }
    worklist.push_back(seed);
  }
  return finish();
}

FailureOr<TPBlockPlan>
TensorParallelPlanner::planTable(BlockArgument table, int64_t dim,
                                 Operation *gather,
                                 TPPlanFailure &failureInfo) {
  why = &failureInfo;
  result = TPBlockPlan();
  worklist.clear();
  pendingReads.clear();
  if (failed(split(table, {dim, /*inner=*/1, /*outer=*/1}, gather))) {
    why->atSeed = true;
    return failure();
  }
  return finish();
}

FailureOr<TPBlockPlan> TensorParallelPlanner::finish() {
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (failed(visit(op)))
      return failure();
  }
  if (failed(returnsGradients()) || failed(checkGathers()))
    return failure();
  for (auto [operand, s] : pendingReads) {
    auto it = result.values.find(operand->get());
    if (it != result.values.end()) {
      if (!it->second.samePieces(s)) {
        (void)fail(operand->getOwner(),
                   "reads a value split in a different way");
        return failure();
      }
      continue;
    }
    // A replicated value read split: each rank takes its part locally.
    if (failed(checkTiles(operand->get(), s, operand->getOwner())))
      return failure();
    if (isShapeOnly(operand->get())) {
      result.rebuild.push_back({operand, s});
    } else {
      result.slice.push_back({operand, s});
    }
  }
  return result;
}
