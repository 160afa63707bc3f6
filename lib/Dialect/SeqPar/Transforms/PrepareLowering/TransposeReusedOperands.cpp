//===- TransposeReusedOperands.cpp - B^T once, before the loop reusing it
//--===//
//
// A contraction that reads its right-hand operand with the contracted dim
// innermost is a GEMM with B transposed: OpenBLAS repacks B on every call
// and libxsmm takes no transposed B. When B is a slice of a tensor that a
// loop around the contraction reads again in every iteration (a K/V head
// under the query-tile loop), the whole tensor is transposed once before
// that loop (docs/runtime-and-run.md, "GEMM libraries").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
/// slice B is taken from when it is a static, unit-stride, rank-preserving
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
      !slice.getType().hasStaticShape() ||
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

/// A transposed copy of the part of `source` that the slices inside `loop`
/// read: along each dim either the one range every iteration reads (an
/// offset defined outside the loop: a head) or, where the offset varies
/// inside it, the whole dim (the keys).
struct TransposedCopy {
  Value source;
  scf::ForOp loop;
  SmallVector<OpFoldResult> offsets, sizes; // of the part, in source dims
  SmallVector<bool> fixed;                  // dims whose range is one
  Value value;                              // the part, last two dims swapped

  /// Where the copy holds what `slice` reads, the offsets to read it at
  /// (in source dims); else std::nullopt.
  std::optional<SmallVector<OpFoldResult>>
  offsetsFor(tensor::ExtractSliceOp slice) const {
    if (slice.getSource() != source ||
        !loop->isProperAncestor(slice.getOperation()))
      return std::nullopt;
    SmallVector<OpFoldResult> at = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sliceSizes = slice.getMixedSizes();
    for (size_t d = 0; d < at.size(); ++d) {
      if (!fixed[d])
        continue;
      if (!isEqualConstantIntOrValue(at[d], offsets[d]) ||
          !isEqualConstantIntOrValue(sliceSizes[d], sizes[d]))
        return std::nullopt;
      at[d] = Builder(slice.getContext()).getIndexAttr(0);
    }
    return at;
  }
};

/// The part of `slice`'s source that `loop` reads, transposed, built just
/// before `loop`.
TransposedCopy buildTransposedCopy(tensor::ExtractSliceOp slice,
                                   scf::ForOp loop) {
  TransposedCopy copy{slice.getSource(), loop, {}, {}, {}, {}};
  OpBuilder b(loop);
  Location loc = slice.getLoc();
  RankedTensorType type = slice.getSourceType();
  SmallVector<int64_t> shape;
  for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
    auto value = dyn_cast<Value>(offset);
    bool fixed = !value || loop.isDefinedOutsideOfLoop(value);
    copy.fixed.push_back(fixed);
    copy.offsets.push_back(fixed ? offset : b.getIndexAttr(0));
    copy.sizes.push_back(fixed ? slice.getMixedSizes()[d]
                               : b.getIndexAttr(type.getDimSize(d)));
    shape.push_back(fixed ? slice.getStaticSizes()[d] : type.getDimSize(d));
  }
  Value part = copy.source;
  if (shape != type.getShape())
    part = tensor::ExtractSliceOp::create(
        b, loc, copy.source, copy.offsets, copy.sizes,
        SmallVector<OpFoldResult>(shape.size(), b.getIndexAttr(1)));
  SmallVector<int64_t> perm = swapLastTwo<int64_t>(
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
  Value empty = tensor::EmptyOp::create(b, loc, swapLastTwo<int64_t>(shape),
                                        type.getElementType());
  copy.value =
      linalg::TransposeOp::create(b, loc, part, empty, perm).getResult()[0];
  return copy;
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
    // One transposed copy per part of a source a reuse loop reads; the
    // contractions inside that loop that read the part once use it too.
    SmallVector<TransposedCopy> copies;
    for (auto [op, slice] : gemms) {
      scf::ForOp loop = getOutermostReuseLoop(op, slice.getSource(), slice);
      if (!loop || llvm::any_of(copies, [&](const TransposedCopy &copy) {
            return copy.loop == loop && copy.offsetsFor(slice);
          }))
        continue;
      copies.push_back(buildTransposedCopy(slice, loop));
    }
    for (auto [op, slice] : gemms) {
      for (const TransposedCopy &copy : copies) {
        std::optional<SmallVector<OpFoldResult>> at = copy.offsetsFor(slice);
        if (!at)
          continue;
        OpBuilder b(op);
        Value operand = tensor::ExtractSliceOp::create(
            b, slice.getLoc(), copy.value, swapLastTwo<OpFoldResult>(*at),
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
        break;
      }
    }
  }
};

} // namespace
