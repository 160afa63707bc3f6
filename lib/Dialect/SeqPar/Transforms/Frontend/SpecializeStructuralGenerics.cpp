//===- SpecializeStructuralGenerics.cpp - generics as fill/transpose/... --===//
//
// A frontend that generalizes every named op (IREE-style flows, or
// `linalg-generalize-named-ops` before fusion) writes a zero fill, a
// transpose and a broadcast as `linalg.generic`s. The analyses read those
// three in their named form (the zero init of a contraction, the head
// transposes, GQA's repeat of K/V heads), so on such a graph TP planning
// left every linear replicated. This pass writes each generic that is
// exactly one of them as the named op (docs/import.md, "Other frontends").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SPECIALIZESTRUCTURALGENERICS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// Whether `op`'s body only yields its first block argument (the input's
/// element): upstream's transpose and broadcast predicates check that the
/// body is a single yield, not what it yields.
bool yieldsInput(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == op.getBody()->getArgument(0);
}

/// The value `op` fills its init with, or null: a scalar input that the
/// body yields (upstream's `isaFillOpInterface`), or, with no input, a value
/// defined outside the body that it yields (`outs(%e) { linalg.yield %zero }`).
/// Either way every element of the init is written: its map is a
/// permutation of the loops (upstream does not check it).
Value filledValue(linalg::GenericOp op) {
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
    return nullptr;
  if (op.getNumDpsInputs() == 1) {
    std::optional<Value> value = linalg::isaFillOpInterface(op);
    return value ? *value : Value();
  }
  // (Upstream's isSingleYieldOp also asks for a yielded block argument.)
  if (op.getNumDpsInputs() != 0 || !op.isAllParallelLoops() ||
      !llvm::hasSingleElement(*op.getBody()))
    return nullptr;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  Value value = yield.getOperand(0);
  if (op.getRegion().isAncestor(value.getParentRegion()))
    return nullptr;
  return value;
}

/// The permutation of a transpose: all-parallel, one input and one init,
/// both read at permutations of the loops (upstream's
/// `isaTransposeOpInterface` asks for the identity on the init; a frontend
/// may permute the init instead). Result dim j is input dim perm[j], the
/// input's position of the loop the init's dim j reads.
std::optional<SmallVector<int64_t>> transposePermutation(linalg::GenericOp op) {
  if (!op.isAllParallelLoops() || op.getNumDpsInputs() != 1)
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!in.isPermutation() || !out.isPermutation())
    return std::nullopt;
  SmallVector<int64_t> permutation;
  for (AffineExpr loop : out.getResults())
    permutation.push_back(*in.getResultPosition(loop));
  return permutation;
}

/// `op` as a named fill, transpose or broadcast, or null when it is none of
/// them. The named op writes the same init.
Operation *specialize(OpBuilder &b, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1)
    return nullptr;
  Location loc = op.getLoc();
  Value init = op.getDpsInitOperand(0)->get();
  if (Value value = filledValue(op))
    return linalg::FillOp::create(b, loc, value, init);
  if (op.getNumDpsInputs() != 1 || !yieldsInput(op))
    return nullptr;
  Value input = op.getDpsInputOperand(0)->get();
  if (!isa<RankedTensorType>(input.getType()))
    return nullptr;
  // Only a permutation that moves dims: the identity is a copy (and
  // upstream's linalg.transpose of rank 0 crashes its own verifier).
  if (std::optional<SmallVector<int64_t>> permutation =
          transposePermutation(op);
      permutation && !isIdentityPermutation(*permutation))
    return linalg::TransposeOp::create(b, loc, input, init, *permutation);
  if (std::optional<SmallVector<int64_t>> dims =
          linalg::isaBroadcastOpInterface(op))
    return linalg::BroadcastOp::create(b, loc, input, init, *dims);
  return nullptr;
}

struct SpecializeStructuralGenericsPass
    : public mlir::seqpar::impl::SpecializeStructuralGenericsBase<
          SpecializeStructuralGenericsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (linalg::GenericOp op : generics) {
      rewriter.setInsertionPoint(op);
      Operation *named = specialize(rewriter, op);
      if (!named)
        continue;
      // Attributes a frontend or user put on the generic stay on the op.
      for (NamedAttribute attr : op->getDiscardableAttrs())
        named->setAttr(attr.getName(), attr.getValue());
      rewriter.replaceOp(op, named->getResults());
      changed = true;
    }
    // Nothing changed: the pass manager need not verify the function again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
