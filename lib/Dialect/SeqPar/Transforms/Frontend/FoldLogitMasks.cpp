//===- FoldLogitMasks.cpp - two masks added to the logits as one ---------===//
//
// Some exporters add two mask tensors to the attention logits, one after
// the other: Hugging Face's T5 adds its relative position bias (a per-head
// [1, a, s, t] table read at bucketed distances) and then the attention
// mask ([b, 1, s, t]: causal in the decoder, zeros in the encoder). The
// attention matcher reads at most one additive mask
// (docs/context-parallelism.md, "Masks"), so such an attention stayed
// unraised ("the logits are not a contraction Q.K^T times a constant, plus
// a mask"). Where the logits of a softmax are (x + A) + B, x the result of
// a contraction (through reshapes and transposes) and neither A nor B
// computed from a contraction, this pass writes them as x + (A + B): one
// mask tensor over the logits' shape. Reassociating moves one rounding of
// the f32 sum (docs/semantics.md §1's tolerance; exact when A or B is 0),
// and a -inf (or finfo.min) in either mask hides the logit as before.
// docs/import.md, "Architectures".
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "seqpar/Analysis/SoftmaxMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDLOGITMASKS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumDpsInputs() == 2 &&
         linalg::isaContractionOpInterface(linalgOp);
}

/// Whether `v` is a contraction's result seen through reshapes and
/// transposes (the Q.K^T scores, expanded to [b, a, s, t]).
bool isScores(Value v) {
  for (int steps = 0; steps < 8; ++steps) {
    Operation *def = v.getDefiningOp();
    if (isContraction(def))
      return true;
    if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                         linalg::TransposeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// Whether any contraction is among the ops `v` is computed from (a mask
/// is computed from positions, ids and tables, never from activations).
bool readsContraction(Value v) {
  SmallVector<Value> work{v};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (isContraction(def))
      return true;
    work.append(def->operand_begin(), def->operand_end());
    // Values a region reads from above (a gather's tensor.extract).
    def->walk([&](Operation *nested) {
      if (nested != def)
        for (Value operand : nested->getOperands())
          if (!def->isAncestor(operand.getParentBlock()->getParentOp()))
            work.push_back(operand);
    });
  }
  return false;
}

/// `op` as out = in0 + in1 of floats, all loops parallel, the output read
/// nowhere and written at the identity: the input operands in the order the
/// addition reads them, or none.
std::optional<std::pair<OpOperand *, OpOperand *>>
asElementwiseAdd(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return std::nullopt;
  Block *body = op.getBody();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  auto add = dyn_cast<arith::AddFOp>(body->front());
  if (!add || body->getTerminator()->getOperand(0) != add.getResult())
    return std::nullopt;
  auto lhs = dyn_cast<BlockArgument>(add.getLhs());
  auto rhs = dyn_cast<BlockArgument>(add.getRhs());
  if (!lhs || !rhs || lhs.getOwner() != body || rhs.getOwner() != body ||
      lhs == rhs || lhs.getArgNumber() > 1 || rhs.getArgNumber() > 1)
    return std::nullopt;
  return std::make_pair(op.getDpsInputOperand(lhs.getArgNumber()),
                        op.getDpsInputOperand(rhs.getArgNumber()));
}

/// A generic over `loops` (all parallel) writing `init`: out = a + b, a and
/// b read at `aMap` and `bMap`.
Value createAdd(OpBuilder &b, Location loc, Value lhs, AffineMap lhsMap,
                Value rhs, AffineMap rhsMap, Value init) {
  unsigned loops = lhsMap.getNumDims();
  SmallVector<AffineMap> maps{lhsMap, rhsMap,
                              b.getMultiDimIdentityMap(loops)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{lhs, rhs}, ValueRange{init}, maps,
      iterators, [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[0], args[1]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return op->getResult(0);
}

/// Rewrites logits = (x + A) + B to x + (A + B); false when `logits` is not
/// that.
bool foldMasks(OpBuilder &b, Value logits) {
  auto outer = logits.getDefiningOp<linalg::GenericOp>();
  auto type = dyn_cast<RankedTensorType>(logits.getType());
  // The mask tensor is built with the logits' shape: static only.
  if (!outer || !type || !type.hasStaticShape())
    return false;
  auto outerAdd = asElementwiseAdd(outer);
  if (!outerAdd)
    return false;
  // One operand of the outer add is the inner add's result, read at the
  // identity and by nothing else.
  for (bool innerFirst : {true, false}) {
    OpOperand *innerUse = innerFirst ? outerAdd->first : outerAdd->second;
    OpOperand *maskB = innerFirst ? outerAdd->second : outerAdd->first;
    auto inner = innerUse->get().getDefiningOp<linalg::GenericOp>();
    if (!inner || !innerUse->get().hasOneUse() ||
        !outer.getMatchingIndexingMap(innerUse).isIdentity() ||
        inner.getNumLoops() != outer.getNumLoops())
      continue;
    auto innerAdd = asElementwiseAdd(inner);
    if (!innerAdd)
      continue;
    for (bool scoresFirst : {true, false}) {
      OpOperand *scores = scoresFirst ? innerAdd->first : innerAdd->second;
      OpOperand *maskA = scoresFirst ? innerAdd->second : innerAdd->first;
      if (!isScores(scores->get()) || readsContraction(maskA->get()) ||
          readsContraction(maskB->get()))
        continue;
      Location loc = outer.getLoc();
      b.setInsertionPoint(outer);
      Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType());
      // The inner op's loops are the outer op's (it writes at the
      // identity and the outer op reads it there).
      Value mask = createAdd(b, loc, maskA->get(),
                             inner.getMatchingIndexingMap(maskA),
                             maskB->get(), outer.getMatchingIndexingMap(maskB),
                             empty);
      Value sum = createAdd(
          b, loc, scores->get(), inner.getMatchingIndexingMap(scores), mask,
          b.getMultiDimIdentityMap(type.getRank()),
          outer.getDpsInitOperand(0)->get());
      logits.replaceAllUsesWith(sum);
      outer->erase();
      inner->erase();
      return true;
    }
  }
  return false;
}

struct FoldLogitMasksPass
    : public mlir::seqpar::impl::FoldLogitMasksBase<FoldLogitMasksPass> {
  void runOnOperation() override {
    // The logits of every softmax, found before anything changes.
    llvm::SetVector<Value> logits;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() == 1 &&
          isa<RankedTensorType>(op->getResult(0).getType()))
        if (Value x = softmaxInput(op->getResult(0)))
          logits.insert(x);
    });
    OpBuilder b(&getContext());
    bool changed = false;
    for (Value x : logits)
      changed |= foldMasks(b, x);
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
