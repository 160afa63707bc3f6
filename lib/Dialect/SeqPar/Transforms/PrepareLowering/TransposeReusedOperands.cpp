//===- TransposeReusedOperands.cpp - B^T once, before the loop reusing it
//--===//
//
// A contraction that reads its right-hand operand with the contracted dim
// innermost is a GEMM with B transposed: OpenBLAS repacks B on every call
// and libxsmm takes no transposed B. When B is a slice of a tensor that a
// loop around the contraction reads again in every iteration (a K/V head
// under the query-tile loop), the whole tensor is transposed once before
// that loop (docs/runtime-and-run.md, "Small GEMMs").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_TRANSPOSEREUSEDOPERANDS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;

namespace {

/// Whether `v` can differ between iterations of `loop`: `loop`'s own block
/// arguments, values computed from them, and the induction variable of a
/// loop nested in `loop` whose lower bound or step can (its upper bound
/// only decides how far it reads: the tile at its lower bound is read in
/// every iteration of `loop` that runs it). Ops with regions and other
/// block arguments count as varying.
bool variesWith(Value v, scf::ForOp loop) {
  if (loop.isDefinedOutsideOfLoop(v))
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto inner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!inner || inner == loop || arg != inner.getInductionVar())
      return true;
    return variesWith(inner.getLowerBound(), loop) ||
           variesWith(inner.getStep(), loop);
  }
  Operation *def = v.getDefiningOp();
  if (def->getNumRegions() != 0)
    return true;
  return llvm::any_of(def->getOperands(),
                      [&](Value operand) { return variesWith(operand, loop); });
}

/// Whether `loop` runs more than once, or may.
bool mayRunTwice(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return !trips || trips->ugt(1);
}

/// The outermost `scf.for` around `op` that `source` is defined outside of
/// and whose iterations the offsets of `slice` do not depend on: the loop
/// whose every iteration reads `source` again. Null when there is none.
scf::ForOp getOutermostReuseLoop(Operation *op, Value source,
                                 tensor::ExtractSliceOp slice) {
  scf::ForOp outermost;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>()) {
    if (!loop.isDefinedOutsideOfLoop(source))
      break;
    if (mayRunTwice(loop) &&
        llvm::none_of(slice.getOffsets(),
                      [&](Value offset) { return variesWith(offset, loop); }))
      outermost = loop;
  }
  return outermost;
}

/// A contraction whose B operand (input 1) is read with its last two dims
/// (n, k): the output's last dim, then the one contracted dim. Returns the
/// slice B is taken from when it is a unit-stride, rank-preserving
/// tensor.extract_slice of a static f32 tensor.
tensor::ExtractSliceOp getTransposedSliceOperand(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !seqpar::isPlainContraction(op))
    return {};
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.size() != 1 || dims->n.size() != 1)
    return {};
  AffineMap map = op.getIndexingMapsArray()[1];
  unsigned rank = map.getNumResults();
  MLIRContext *ctx = op.getContext();
  if (!map.isProjectedPermutation() || rank < 2 ||
      map.getResult(rank - 2) != getAffineDimExpr(dims->n[0], ctx) ||
      map.getResult(rank - 1) != getAffineDimExpr(dims->k[0], ctx))
    return {};
  auto slice = op.getDpsInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSourceType().getRank() != rank ||
      !slice.getSourceType().hasStaticShape() ||
      !slice.getSourceType().getElementType().isF32() ||
      !llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
        return isConstantIntValue(stride, 1);
      }))
    return {};
  return slice;
}

/// `values` with its last two entries swapped.
template <typename T> SmallVector<T> swapLastTwo(ArrayRef<T> values) {
  SmallVector<T> swapped(values);
  std::swap(swapped[swapped.size() - 2], swapped.back());
  return swapped;
}

struct TransposeReusedOperandsPass
    : public mlir::seqpar::impl::TransposeReusedOperandsBase<
          TransposeReusedOperandsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, tensor::ExtractSliceOp>> gemms;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (tensor::ExtractSliceOp slice = getTransposedSliceOperand(op))
        gemms.push_back({op, slice});
    });
    // One transposed copy per source and loop it is made before; the
    // contractions that read the source once use it where it exists.
    DenseMap<std::pair<Value, Operation *>, Value> transposed;
    DenseMap<Value, SmallVector<Value>> copiesOf;
    for (auto [op, slice] : gemms) {
      Value source = slice.getSource();
      if (scf::ForOp loop = getOutermostReuseLoop(op, source, slice)) {
        Value &copy = transposed[{source, loop.getOperation()}];
        if (!copy) {
          OpBuilder b(loop);
          auto type = cast<RankedTensorType>(source.getType());
          SmallVector<int64_t> perm = swapLastTwo<int64_t>(
              llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
          Value empty = tensor::EmptyOp::create(b, op.getLoc(),
                                                swapLastTwo(type.getShape()),
                                                type.getElementType());
          copy =
              linalg::TransposeOp::create(b, op.getLoc(), source, empty, perm)
                  .getResult()[0];
          copiesOf[source].push_back(copy);
        }
      }
    }
    DominanceInfo dominance(getOperation());
    for (auto [op, slice] : gemms) {
      auto copies = copiesOf.find(slice.getSource());
      if (copies == copiesOf.end())
        continue;
      auto copy = llvm::find_if(copies->second, [&](Value copy) {
        return dominance.properlyDominates(copy, op);
      });
      if (copy == copies->second.end())
        continue;
      OpBuilder b(op);
      Value operand = tensor::ExtractSliceOp::create(
          b, slice.getLoc(), *copy,
          swapLastTwo<OpFoldResult>(slice.getMixedOffsets()),
          swapLastTwo<OpFoldResult>(slice.getMixedSizes()),
          slice.getMixedStrides());
      op->setOperand(1, operand);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[1] =
          AffineMap::get(maps[1].getNumDims(), 0,
                         swapLastTwo(maps[1].getResults()), op.getContext());
      op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      if (slice->use_empty())
        slice->erase();
    }
  }
};

} // namespace
