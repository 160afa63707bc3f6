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
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace mlir::seqpar {
#define GEN_PASS_DEF_LOWERMATMULTOBLAS
#include "seqpar/Conversion/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// One GEMM operand: its buffer, leading dimension (in elements) and
/// whether it is transposed.
struct GemmOperand {
  Value buffer;
  int64_t ld = 0;
  bool transposed = false;
};

/// One loop around the GEMM calls: its trip count and how far each
/// operand's matrix moves per iteration (elements; 0 = the same matrix).
struct OuterLoop {
  int64_t range = 1;
  int64_t strideA = 0, strideB = 0, strideC = 0;
};

/// C += A * B, each M x N x K, row-major, once per iteration of `loops`
/// (outermost first): the batch dims, and the m dims whose rows are not
/// equally spaced with the others'.
struct GemmPlan {
  int64_t m = 1, n = 1, k = 1;
  GemmOperand a, b, c;
  SmallVector<OuterLoop> loops;
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

/// Whether `layout` ends with the loop dims `tail`, in order.
bool endsWith(const OperandLayout &layout, ArrayRef<unsigned> tail) {
  return layout.dims.size() >= tail.size() &&
         ArrayRef<unsigned>(layout.dims).take_back(tail.size()) == tail;
}

/// The GEMM over rows `rows` (m dims, major to minor), `k` and `n`, when
/// every operand ends with its GEMM dims (A may be transposed when there
/// is one m dim, B always) with a unit stride on its innermost one and
/// equally spaced rows; the operands' other dims are the caller's loops.
FailureOr<GemmPlan> planInnerGemm(linalg::LinalgOp op, ArrayRef<unsigned> rows,
                                  unsigned k, unsigned n,
                                  ArrayRef<int64_t> ranges,
                                  ArrayRef<OperandLayout> layouts) {
  GemmPlan plan;
  plan.k = ranges[k];
  plan.n = ranges[n];
  for (unsigned m : rows)
    plan.m *= ranges[m];

  // C = ... m... n.
  const OperandLayout &lc = layouts[2];
  SmallVector<unsigned> cTail(rows);
  cTail.push_back(n);
  if (!endsWith(lc, cTail) || !isUnitStride(lc, n, ranges))
    return failure();
  plan.c = {op.getDpsInitOperand(0)->get(),
            getRowStride(lc, rows, ranges, plan.n), false};

  // A = ... m... k, or ... k m (transposed).
  const OperandLayout &la = layouts[0];
  SmallVector<unsigned> aTail(rows);
  aTail.push_back(k);
  plan.a.buffer = op.getDpsInputOperand(0)->get();
  if (endsWith(la, aTail) && isUnitStride(la, k, ranges)) {
    plan.a.ld = getRowStride(la, rows, ranges, plan.k);
  } else if (rows.size() == 1 && endsWith(la, {k, rows[0]}) &&
             isUnitStride(la, rows[0], ranges)) {
    plan.a.transposed = true;
    plan.a.ld = std::max<int64_t>(plan.k == 1 ? plan.m : la.strideOf(k),
                                  plan.m);
  } else {
    return failure();
  }

  // B = ... k n, or ... n k (transposed).
  const OperandLayout &lb = layouts[1];
  plan.b.buffer = op.getDpsInputOperand(1)->get();
  if (endsWith(lb, {k, n}) && isUnitStride(lb, n, ranges)) {
    plan.b.ld = std::max<int64_t>(plan.k == 1 ? plan.n : lb.strideOf(k),
                                  plan.n);
  } else if (endsWith(lb, {n, k}) && isUnitStride(lb, k, ranges)) {
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
      dims->m.empty())
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) {
        return ShapedType::isDynamic(r) || r <= 0;
      }))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
    return failure();

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
  // Batch dims (attention's [b, a] heads) that every operand lays out as
  // one equally spaced run are merged into the inner one: fewer, longer
  // loops. The others loop separately.
  SmallVector<unsigned> batches(dims->batch.begin(), dims->batch.end());
  for (size_t i = batches.size(); i-- > 1;)
    if (succeeded(mergeLoopDims(batches[i - 1], batches[i], ranges, layouts)))
      batches.erase(batches.begin() + i - 1);
  // Several reduction dims (X^T . dY over [b, s] tokens): merged, in A's
  // order, into its innermost one when A and B lay them out as one run.
  SmallVector<unsigned> ks(dims->k.begin(), dims->k.end());
  llvm::sort(ks, [&](unsigned x, unsigned y) {
    return llvm::find(layouts[0].dims, x) < llvm::find(layouts[0].dims, y);
  });
  for (size_t i = 0; i + 1 < ks.size(); ++i)
    if (failed(mergeLoopDims(ks[i], ks[i + 1], ranges, layouts)))
      return failure();
  unsigned k = ks.back(), n = dims->n[0];
  // The m dims in C's order. The fewest outer ones that make the rest one
  // GEMM (rows equally spaced in A and C: a query tile of grouped heads,
  // docs/runtime-and-run.md "BLAS kernels") become loops.
  SmallVector<unsigned> ms(dims->m.begin(), dims->m.end());
  llvm::sort(ms, [&](unsigned x, unsigned y) {
    return llvm::find(layouts[2].dims, x) < llvm::find(layouts[2].dims, y);
  });
  for (size_t peeled = 0; peeled < ms.size(); ++peeled) {
    FailureOr<GemmPlan> plan =
        planInnerGemm(op, ArrayRef<unsigned>(ms).drop_front(peeled), k, n,
                      ranges, layouts);
    if (failed(plan))
      continue;
    auto loop = [&](unsigned dim) {
      if (ranges[dim] != 1)
        plan->loops.push_back({ranges[dim], layouts[0].strideOf(dim),
                               layouts[1].strideOf(dim),
                               layouts[2].strideOf(dim)});
    };
    for (unsigned dim : batches)
      loop(dim);
    for (unsigned dim : ArrayRef<unsigned>(ms).take_front(peeled))
      loop(dim);
    return plan;
  }
  return failure();
}

/// The linalg.fill of zeros that last wrote `op`'s output buffer, when
/// only ops free of memory effects (constants, views) stand between them:
/// then the GEMM can overwrite the buffer (beta = 0) and the fill, a pass
/// over memory, is not needed.
linalg::FillOp findZeroFill(Operation *op, Value out) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (fill.getOutputs()[0] != out || !fill.hasPureBufferSemantics())
        return nullptr;
      return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ? fill
                                                                  : nullptr;
    }
    if (!isMemoryEffectFree(prev))
      return nullptr;
  }
  return nullptr;
}

/// Emits the cblas_sgemm call(s) of `plan` before `op` and erases `op`
/// (and the zero fill of its output that the calls make unnecessary).
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
  // C += A * B, or C = A * B over a buffer just filled with zeros.
  Value beta = one;
  if (linalg::FillOp fill = findZeroFill(op, plan.c.buffer)) {
    rewriter.eraseOp(fill);
    beta = LLVM::ConstantOp::create(rewriter, loc, f32,
                                    rewriter.getF32FloatAttr(0.0f));
  }
  // CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112.
  auto call = [&](OpBuilder &b, Value pa, Value pb, Value pc) {
    LLVM::CallOp::create(
        b, loc, sgemm,
        ValueRange{c32(101), c32(plan.a.transposed ? 112 : 111),
                   c32(plan.b.transposed ? 112 : 111), c32(plan.m), c32(plan.n),
                   c32(plan.k), one, pa, c32(plan.a.ld), pb, c32(plan.b.ld),
                   beta, pc, c32(plan.c.ld)});
  };
  // Nested loops; each operand's offset (i64 elements, null = 0) grows by
  // its stride per iteration.
  Type i64 = rewriter.getI64Type();
  std::function<void(OpBuilder &, size_t, Value, Value, Value)> build =
      [&](OpBuilder &b, size_t level, Value offA, Value offB, Value offC) {
        auto at = [&](Value base, Value offset) -> Value {
          if (!offset)
            return base;
          return LLVM::GEPOp::create(b, loc, ptr, f32, base,
                                     ArrayRef<LLVM::GEPArg>{offset});
        };
        if (level == plan.loops.size()) {
          call(b, at(baseA, offA), at(baseB, offB), at(baseC, offC));
          return;
        }
        const OuterLoop &outer = plan.loops[level];
        Value lb = arith::ConstantIndexOp::create(b, loc, 0);
        Value ub = arith::ConstantIndexOp::create(b, loc, outer.range);
        Value step = arith::ConstantIndexOp::create(b, loc, 1);
        scf::ForOp::create(
            b, loc, lb, ub, step, ValueRange{},
            [&](OpBuilder &nb, Location, Value iv, ValueRange) {
              Value i = arith::IndexCastOp::create(nb, loc, i64, iv);
              auto advance = [&](Value offset, int64_t stride) -> Value {
                if (stride == 0)
                  return offset;
                Value step = arith::MulIOp::create(
                    nb, loc, i, arith::ConstantIntOp::create(nb, loc, i64, stride));
                return offset ? arith::AddIOp::create(nb, loc, offset, step)
                                    .getResult()
                              : step;
              };
              // Separate statements: argument evaluation order would
              // order the ops.
              Value nextA = advance(offA, outer.strideA);
              Value nextB = advance(offB, outer.strideB);
              Value nextC = advance(offC, outer.strideC);
              build(nb, level + 1, nextA, nextB, nextC);
              scf::YieldOp::create(nb, loc);
            });
      };
  build(rewriter, 0, Value(), Value(), Value());
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
