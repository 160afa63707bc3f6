//===- LowerMatmulToBlas.cpp - f32 contractions on buffers -> cblas_sgemm -===//
//
// Each f32 linalg contraction on buffers that maps onto row-major GEMMs
// (one per batch) becomes cblas_sgemm calls. See the pass description in
// Passes.td for the conditions.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Conversion/LLVMCommon/LLVMCallUtils.h"
#include "seqpar/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "seqpar/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_LOWERMATMULTOBLAS
#include "seqpar/Conversion/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// One GEMM operand: its buffer, leading dimension and batch stride (in
/// elements; 0 = the same matrix for every batch), and whether it is
/// transposed.
struct GemmOperand {
  Value buffer;
  int64_t ld = 0;
  int64_t batchStride = 0;
  bool transposed = false;
};

/// C[b] += A[b] * B[b] for b < batch, each M x N x K, row-major.
struct GemmPlan {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  GemmOperand a, b, c;
};

/// Loop dims read by `map` (a projected permutation), in result order.
SmallVector<unsigned> getDims(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr expr : map.getResults())
    dims.push_back(cast<AffineDimExpr>(expr).getPosition());
  return dims;
}

/// Strides and loop-dim positions of one operand.
struct OperandLayout {
  SmallVector<int64_t> strides;
  SmallVector<unsigned> dims;
  int64_t strideOf(unsigned dim) const {
    for (auto [i, d] : llvm::enumerate(dims))
      if (d == dim)
        return strides[i];
    return 0;
  }
  bool has(unsigned dim) const { return llvm::is_contained(dims, dim); }
};

/// Leading dimension of rows indexed by loop dims `rows` (major to minor)
/// with `cols` columns, or -1 when the rows are not equally spaced.
int64_t getRowStride(const OperandLayout &layout, ArrayRef<unsigned> rows,
                     ArrayRef<int64_t> ranges, int64_t cols) {
  int64_t ld = -1, inner = 1;
  for (unsigned dim : llvm::reverse(rows)) {
    if (ranges[dim] == 1)
      continue;
    int64_t stride = layout.strideOf(dim);
    if (ld < 0) {
      ld = stride;
    } else if (stride != ld * inner) {
      return -1;
    }
    inner *= ranges[dim];
  }
  return ld < 0 ? cols : std::max(ld, cols);
}

/// Folds loop `outer` into `inner` (ranges and layouts) when every operand
/// that holds either holds both, outer immediately before inner, with
/// stride(outer) = stride(inner) * range(inner): the two loops walk one
/// equally spaced run of range(outer) * range(inner) rows (two batch dims,
/// attention's [b, a] heads; or two reduction dims, a weight gradient's
/// [b, s] tokens).
LogicalResult mergeLoopDims(unsigned outer, unsigned inner,
                            SmallVector<int64_t> &ranges,
                            SmallVector<OperandLayout> &layouts) {
  for (OperandLayout &layout : layouts) {
    if (!layout.has(outer) && !layout.has(inner))
      continue;
    auto pos = llvm::find(layout.dims, outer);
    if (pos == layout.dims.end() || std::next(pos) == layout.dims.end() ||
        *std::next(pos) != inner ||
        (ranges[outer] != 1 &&
         layout.strideOf(outer) != layout.strideOf(inner) * ranges[inner]))
      return failure();
  }
  for (OperandLayout &layout : layouts) {
    if (!layout.has(outer))
      continue;
    size_t at = llvm::find(layout.dims, outer) - layout.dims.begin();
    layout.dims.erase(layout.dims.begin() + at);
    layout.strides.erase(layout.strides.begin() + at);
  }
  ranges[inner] *= ranges[outer];
  ranges[outer] = 1;
  return success();
}

/// A unit stride on `dim`, or a dim of extent 1.
bool isUnitStride(const OperandLayout &layout, unsigned dim,
                  ArrayRef<int64_t> ranges) {
  return ranges[dim] == 1 || layout.strideOf(dim) == 1;
}

FailureOr<GemmPlan> planGemm(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !isPlainContraction(op))
    return failure();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getElementType().isF32())
      return failure();
  }
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.empty() || dims->n.size() != 1 ||
      dims->m.empty() || dims->batch.size() > 2)
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) {
        return ShapedType::isDynamic(r) || r <= 0;
      }))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
    return failure();

  unsigned n = dims->n[0];
  std::optional<unsigned> batch;
  if (!dims->batch.empty())
    batch = dims->batch[0];
  ArrayRef<unsigned> ms = dims->m;

  SmallVector<OperandLayout> layouts;
  for (auto [operand, map] : llvm::zip(op->getOpOperands(), maps)) {
    OperandLayout layout;
    int64_t offset;
    auto type = cast<MemRefType>(operand.get().getType());
    if (failed(type.getStridesAndOffset(layout.strides, offset)) ||
        llvm::any_of(layout.strides, ShapedType::isDynamic))
      return failure();
    layout.dims = getDims(map);
    layouts.push_back(layout);
  }
  // Two batch dims (attention's [b, a] heads) that every operand lays out
  // as one equally spaced batch: merged into the inner one.
  if (dims->batch.size() == 2) {
    if (failed(mergeLoopDims(dims->batch[0], dims->batch[1], ranges, layouts)))
      return failure();
    batch = dims->batch[1];
  }
  // Several reduction dims (X^T . dY over [b, s] tokens): merged, in A's
  // order, into its innermost one when A and B lay them out as one run.
  SmallVector<unsigned> ks(dims->k.begin(), dims->k.end());
  llvm::sort(ks, [&](unsigned x, unsigned y) {
    return llvm::find(layouts[0].dims, x) < llvm::find(layouts[0].dims, y);
  });
  for (size_t i = 0; i + 1 < ks.size(); ++i)
    if (failed(mergeLoopDims(ks[i], ks[i + 1], ranges, layouts)))
      return failure();
  unsigned k = ks.back();
  auto withBatch = [&](ArrayRef<unsigned> tail, bool batchRequired) {
    SmallVector<SmallVector<unsigned>> options;
    SmallVector<unsigned> full;
    if (batch)
      full.push_back(*batch);
    full.append(tail.begin(), tail.end());
    options.push_back(full);
    if (batch && !batchRequired)
      options.push_back(SmallVector<unsigned>(tail));
    return options;
  };
  auto matches = [&](const OperandLayout &layout, ArrayRef<unsigned> tail,
                     bool batchRequired) {
    return llvm::any_of(withBatch(tail, batchRequired),
                        [&](const SmallVector<unsigned> &want) {
                          return ArrayRef<unsigned>(layout.dims) ==
                                 ArrayRef<unsigned>(want);
                        });
  };

  GemmPlan plan;
  plan.k = ranges[k];
  plan.n = ranges[n];
  for (unsigned m : ms)
    plan.m *= ranges[m];
  plan.batch = batch ? ranges[*batch] : 1;

  // C = [batch] m... n.
  SmallVector<unsigned> cTail(ms.begin(), ms.end());
  cTail.push_back(n);
  const OperandLayout &lc = layouts[2];
  if (!matches(lc, cTail, /*batchRequired=*/true) ||
      !isUnitStride(lc, n, ranges))
    return failure();
  plan.c = {op.getDpsInitOperand(0)->get(),
            getRowStride(lc, ms, ranges, plan.n),
            batch ? lc.strideOf(*batch) : 0, false};

  // A = [batch] m... k, or [batch] k m (transposed).
  const OperandLayout &la = layouts[0];
  SmallVector<unsigned> aTail(ms.begin(), ms.end());
  aTail.push_back(k);
  plan.a.buffer = op.getDpsInputOperand(0)->get();
  plan.a.batchStride = batch ? la.strideOf(*batch) : 0;
  if (matches(la, aTail, false) && isUnitStride(la, k, ranges)) {
    plan.a.ld = getRowStride(la, ms, ranges, plan.k);
  } else if (ms.size() == 1 && matches(la, {k, ms[0]}, false) &&
             isUnitStride(la, ms[0], ranges)) {
    plan.a.transposed = true;
    plan.a.ld = std::max<int64_t>(plan.k == 1 ? plan.m : la.strideOf(k),
                                  plan.m);
  } else {
    return failure();
  }

  // B = [batch] k n, or [batch] n k (transposed).
  const OperandLayout &lb = layouts[1];
  plan.b.buffer = op.getDpsInputOperand(1)->get();
  plan.b.batchStride = batch ? lb.strideOf(*batch) : 0;
  if (matches(lb, {k, n}, false) && isUnitStride(lb, n, ranges)) {
    plan.b.ld = std::max<int64_t>(plan.k == 1 ? plan.n : lb.strideOf(k),
                                  plan.n);
  } else if (matches(lb, {n, k}, false) && isUnitStride(lb, k, ranges)) {
    plan.b.transposed = true;
    plan.b.ld = std::max<int64_t>(plan.n == 1 ? plan.k : lb.strideOf(n),
                                  plan.k);
  } else {
    return failure();
  }
  if (plan.a.ld < 0 || plan.c.ld < 0)
    return failure();
  // 32-bit BLAS integers.
  for (int64_t v : {plan.m, plan.n, plan.k, plan.a.ld, plan.b.ld, plan.c.ld})
    if (v > std::numeric_limits<int32_t>::max())
      return failure();
  return plan;
}

/// Emits the cblas_sgemm call(s) of `plan` before `op` and erases `op`.
void emitGemm(RewriterBase &rewriter, Operation *op, const GemmPlan &plan) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *ctx = rewriter.getContext();
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  auto sgemm = getOrDeclareFunc(
      rewriter, module, "cblas_sgemm",
      LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(ctx),
          {i32, i32, i32, i32, i32, i32, f32, ptr, i32, ptr, i32, f32, ptr,
           i32}));
  Value baseA = getBufferAddress(rewriter, loc, plan.a.buffer);
  Value baseB = getBufferAddress(rewriter, loc, plan.b.buffer);
  Value baseC = getBufferAddress(rewriter, loc, plan.c.buffer);
  auto c32 = [&](int64_t v) { return constantInt(rewriter, loc, i32, v); };
  Value one = LLVM::ConstantOp::create(rewriter, loc, f32,
                                       rewriter.getF32FloatAttr(1.0f));
  // CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112.
  auto call = [&](OpBuilder &b, Value pa, Value pb, Value pc) {
    LLVM::CallOp::create(
        b, loc, sgemm,
        ValueRange{c32(101), c32(plan.a.transposed ? 112 : 111),
                   c32(plan.b.transposed ? 112 : 111), c32(plan.m), c32(plan.n),
                   c32(plan.k), one, pa, c32(plan.a.ld), pb, c32(plan.b.ld),
                   one, pc, c32(plan.c.ld)});
  };
  if (plan.batch == 1) {
    call(rewriter, baseA, baseB, baseC);
    rewriter.eraseOp(op);
    return;
  }
  Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value ub = arith::ConstantIndexOp::create(rewriter, loc, plan.batch);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  scf::ForOp::create(
      rewriter, loc, lb, ub, step, ValueRange{},
      [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
        Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), iv);
        auto at = [&](Value base, int64_t stride) -> Value {
          if (stride == 0)
            return base;
          Value offset = arith::MulIOp::create(
              b, loc, i,
              arith::ConstantIntOp::create(b, loc, b.getI64Type(), stride));
          return LLVM::GEPOp::create(b, loc, ptr, f32, base,
                                     ArrayRef<LLVM::GEPArg>{offset});
        };
        call(b, at(baseA, plan.a.batchStride), at(baseB, plan.b.batchStride),
             at(baseC, plan.c.batchStride));
        scf::YieldOp::create(b, loc);
      });
  rewriter.eraseOp(op);
}

/// linalg contraction on f32 buffers -> cblas_sgemm.
struct ContractionToBlas
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<GemmPlan> plan = planGemm(op);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "not a row-major f32 GEMM");
    emitGemm(rewriter, op, *plan);
    return success();
  }
};

struct LowerMatmulToBlasPass
    : public mlir::seqpar::impl::LowerMatmulToBlasBase<LowerMatmulToBlasPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics() || !isPlainContraction(op))
        return;
      Type elem = getElementTypeOrSelf(op->getOperand(0).getType());
      if (!elem.isF32()) {
        op->emitRemark("contraction on ")
            << elem << " is not sent to BLAS (f32 only): it runs as loops";
        return;
      }
      ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      FailureOr<GemmPlan> plan = planGemm(op);
      if (failed(plan))
        continue;
      rewriter.setInsertionPoint(op);
      emitGemm(rewriter, op, *plan);
    }
  }
};

} // namespace

void mlir::seqpar::populateMatmulToBlasPatterns(RewritePatternSet &patterns) {
  patterns.add<ContractionToBlas>(patterns.getContext());
}
