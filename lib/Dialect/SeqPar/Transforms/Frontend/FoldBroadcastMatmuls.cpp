//===- FoldBroadcastMatmuls.cpp - weight-broadcast batch matmuls to matmul ===//
//
// torch-mlir's ONNX route writes a linear on [b, s, h] (ONNX MatMul) as a
// linalg.batch_matmul whose weight is first copied to every batch element:
// a linalg.broadcast, or a linalg.generic yielding its input, of the [h, n]
// weight to [b, h, n]. The copy is b weights per linear per rank. Where the
// copy provably repeats one matrix along the batch dim only, the
// batch_matmul is rewritten to a linalg.matmul on the collapsed [b*s, h]
// activation and the matrix itself, and the [b*s, n] product expanded back:
// the form the FX linalg export writes (docs/import.md, "Other frontends").
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <optional>

namespace mlir::seqpar {
#define GEN_PASS_DEF_FOLDBROADCASTMATMULS
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// The matrix that a broadcast copies to every element of dim 0 of its
/// rank-3 result, and whether the copy reads it transposed
/// (result[i, j, k] = matrix[k, j]).
struct BatchBroadcast {
  Value matrix;
  bool transposed = false;
};

bool isStaticRank(Type type, int64_t rank) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.getRank() == rank && ranked.hasStaticShape();
}

/// `value` as a broadcast along dim 0 only of a rank-2 matrix: a
/// linalg.broadcast with dimensions = [0], or a linalg.generic of one input
/// and one init, all loops parallel, the init read at the identity, the
/// input at a projected permutation of loops 1 and 2 (not loop 0: a matrix
/// that differs per batch element is not one), the body yielding the input
/// element unchanged.
std::optional<BatchBroadcast> getBatchBroadcast(Value value) {
  if (!isStaticRank(value.getType(), 3))
    return std::nullopt;
  Operation *def = value.getDefiningOp();
  if (auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(def)) {
    if (!broadcast.hasPureTensorSemantics() ||
        broadcast.getDimensions() != ArrayRef<int64_t>{0} ||
        !isStaticRank(broadcast.getInput().getType(), 2))
      return std::nullopt;
    return BatchBroadcast{broadcast.getInput(), false};
  }
  auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic->getNumResults() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      generic.getNumLoops() != 3)
    return std::nullopt;
  Value input = generic.getDpsInputOperand(0)->get();
  if (!isStaticRank(input.getType(), 2))
    return std::nullopt;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (maps.size() != 2 || !maps[1].isIdentity() ||
      !maps[0].isProjectedPermutation() || maps[0].getNumResults() != 2 ||
      maps[0].isFunctionOfDim(0))
    return std::nullopt;
  Block *body = generic.getBody();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield->getNumOperands() != 1 ||
      yield->getOperand(0) != body->getArgument(0) ||
      !llvm::hasSingleElement(*body))
    return std::nullopt;
  // Loops 1 and 2 in some order: (d1, d2) reads the matrix as it is,
  // (d2, d1) transposed.
  bool transposed = maps[0].getDimPosition(0) == 2;
  return BatchBroadcast{input, transposed};
}

/// batch_matmul(A, broadcast(W)) -> expand(matmul(collapse(A), W')), W' the
/// [k, n] matrix (W, or a transpose of it when exactly one of the broadcast
/// and the batch_matmul's indexing maps transposes it). Null when `op` is
/// not such a batch_matmul.
Value foldBroadcastRhs(OpBuilder &b, linalg::BatchMatmulOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return nullptr;
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  if (!isStaticRank(lhs.getType(), 3) || !isStaticRank(rhs.getType(), 3) ||
      !isStaticRank(init.getType(), 3) ||
      init.getType() != op->getResult(0).getType())
    return nullptr;
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  // Element types may differ (bf16 operands accumulated in f32): both ops
  // compute out += cast(a) * cast(b) per element with the op's cast
  // function, which the matmul inherits below.
  Type lhsElement = lhsType.getElementType();
  Type rhsElement = rhsType.getElementType();
  Type outElement = outType.getElementType();

  // (batch, m, n, k): A at (b, m, k), the result at (b, m, n), B at
  // (b, k, n), or (b, n, k) for the transposed-B maps.
  MLIRContext *ctx = op.getContext();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[0] != AffineMap::get(4, 0, {d0, d1, d3}, ctx) ||
      maps[2] != AffineMap::get(4, 0, {d0, d1, d2}, ctx))
    return nullptr;
  bool rhsTransposed;
  if (maps[1] == AffineMap::get(4, 0, {d0, d3, d2}, ctx))
    rhsTransposed = false;
  else if (maps[1] == AffineMap::get(4, 0, {d0, d2, d3}, ctx))
    rhsTransposed = true;
  else
    return nullptr;

  std::optional<BatchBroadcast> broadcast = getBatchBroadcast(rhs);
  if (!broadcast)
    return nullptr;

  int64_t batch = outType.getDimSize(0), m = outType.getDimSize(1),
          n = outType.getDimSize(2), k = lhsType.getDimSize(2);
  std::optional<int64_t> rows = llvm::checkedMul(batch, m);
  if (!rows || lhsType.getDimSize(0) != batch || lhsType.getDimSize(1) != m)
    return nullptr;
  bool transpose = broadcast->transposed != rhsTransposed;
  auto matrixType = cast<RankedTensorType>(broadcast->matrix.getType());
  SmallVector<int64_t> expected =
      transpose ? SmallVector<int64_t>{n, k} : SmallVector<int64_t>{k, n};
  if (matrixType.getShape() != ArrayRef<int64_t>(expected) ||
      matrixType.getElementType() != rhsElement)
    return nullptr;

  Location loc = op.getLoc();
  Value weight = broadcast->matrix;
  if (transpose) {
    Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{k, n},
                                          rhsElement);
    weight = linalg::TransposeOp::create(b, loc, weight, empty,
                                         ArrayRef<int64_t>{1, 0})
                 ->getResult(0);
  }
  // [b, m, x] <-> [b*m, x]: dims 0 and 1 are static, so the groups are
  // valid for both reshapes.
  SmallVector<ReassociationIndices> groups = {{0, 1}, {2}};
  auto lhs2d = RankedTensorType::get({*rows, k}, lhsElement);
  auto out2d = RankedTensorType::get({*rows, n}, outElement);
  Value collapsedLhs =
      tensor::CollapseShapeOp::create(b, loc, lhs2d, lhs, groups);
  Value collapsedInit =
      tensor::CollapseShapeOp::create(b, loc, out2d, init, groups);
  auto matmul = linalg::MatmulOp::create(b, loc, TypeRange{out2d},
                                         ValueRange{collapsedLhs, weight},
                                         ValueRange{collapsedInit});
  matmul.setCastAttr(op.getCastAttr());
  Value product = matmul->getResult(0);
  SmallVector<OpFoldResult> shape =
      getAsIndexOpFoldResult(ctx, outType.getShape());
  return tensor::ExpandShapeOp::create(b, loc, outType, product, groups,
                                       shape);
}

struct FoldBroadcastMatmulsPass
    : public mlir::seqpar::impl::FoldBroadcastMatmulsBase<
          FoldBroadcastMatmulsPass> {
  void runOnOperation() override {
    SmallVector<linalg::BatchMatmulOp> matmuls;
    getOperation().walk(
        [&](linalg::BatchMatmulOp op) { matmuls.push_back(op); });
    OpBuilder b(&getContext());
    // Each broadcast once, though several batch_matmuls may read it.
    llvm::SetVector<Operation *> broadcasts;
    bool changed = false;
    for (linalg::BatchMatmulOp op : matmuls) {
      b.setInsertionPoint(op);
      Operation *broadcast = op.getDpsInputOperand(1)->get().getDefiningOp();
      Value folded = foldBroadcastRhs(b, op);
      if (!folded)
        continue;
      op->getResult(0).replaceAllUsesWith(folded);
      op->erase();
      broadcasts.insert(broadcast);
      changed = true;
    }
    // A copy no other op reads is gone now, not at the next clean-up.
    for (Operation *broadcast : broadcasts)
      if (broadcast->use_empty())
        broadcast->erase();
    // Nothing changed: the pass manager need not verify the function again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
