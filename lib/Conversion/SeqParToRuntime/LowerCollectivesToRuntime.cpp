//===- LowerCollectivesToRuntime.cpp - memref collectives -> C ABI calls --===//
//
// Dialect conversion of the memref-level seqpar collectives, their requests,
// and the shard process-index/grid-shape queries into calls of the seqpar
// runtime C ABI (runtime/include/seqpar/runtime/seqpar_runtime.h).
//
// Module-level helpers the calls share (created on first use):
// - @__seqpar_rt_ensure_init(): seqpar_rt_set_error_mode(ABORT) and
//   seqpar_rt_init() once, so compiled code never checks status codes;
// - @__seqpar_comm_<grid>_a<axes>() -> !llvm.ptr: the communicator of one
//   (grid, axes) pair, created by seqpar_rt_comm_get on first use and cached
//   in a global;
// - @__seqpar_process_index_<grid>(i32 axis) -> i64: this process's
//   coordinate on one grid axis;
// - @__seqpar_wait(!llvm.ptr): seqpar_rt_wait, skipping the null request of
//   a group of one rank.
// Grid shapes, axes and buffer shapes are private constant globals.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Conversion/LLVMCommon/LLVMCallUtils.h"
#include "seqpar/Conversion/Passes.h"
#include "seqpar/Conversion/SeqParToRuntime/SeqParToRuntime.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_LOWERCOLLECTIVESTORUNTIME
#include "seqpar/Conversion/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

//===----------------------------------------------------------------------===//
// Runtime declarations and module helpers
//===----------------------------------------------------------------------===//

/// Types used in the C ABI signatures.
struct AbiTypes {
  explicit AbiTypes(MLIRContext *ctx)
      : ptr(LLVM::LLVMPointerType::get(ctx)), i8(IntegerType::get(ctx, 8)),
        i32(IntegerType::get(ctx, 32)), i64(IntegerType::get(ctx, 64)),
        voidType(LLVM::LLVMVoidType::get(ctx)) {}
  Type ptr, i8, i32, i64, voidType;
  LLVM::LLVMFunctionType fn(Type result, ArrayRef<Type> args) const {
    return LLVM::LLVMFunctionType::get(result, args);
  }
};

/// Declares runtime function `name` returning seqpar_rt_status_t (i32).
LLVM::LLVMFuncOp declareRuntime(OpBuilder &b, ModuleOp module, StringRef name,
                                ArrayRef<Type> args) {
  AbiTypes t(b.getContext());
  return getOrDeclareFunc(b, module, name, t.fn(t.i32, args));
}

LLVM::GlobalOp getOrCreateGlobal(OpBuilder &b, ModuleOp module, StringRef name,
                                 Type type) {
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(name))
    return global;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global =
      LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                             LLVM::Linkage::Internal, name, Attribute());
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value zero = LLVM::ZeroOp::create(b, module.getLoc(), type);
  LLVM::ReturnOp::create(b, module.getLoc(), zero);
  return global;
}

/// Creates an internal llvm.func with an entry block; the builder is left at
/// the start of the entry block.
LLVM::LLVMFuncOp createInternalFunc(OpBuilder &b, ModuleOp module,
                                    StringRef name,
                                    LLVM::LLVMFunctionType type) {
  b.setInsertionPointToEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type,
                                       LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  return func;
}

/// @__seqpar_rt_ensure_init: abort-on-error mode, then seqpar_rt_init, once.
LLVM::LLVMFuncOp getEnsureInit(OpBuilder &b, ModuleOp module) {
  StringLiteral name = "__seqpar_rt_ensure_init";
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  AbiTypes t(b.getContext());
  Location loc = module.getLoc();
  LLVM::GlobalOp flag =
      getOrCreateGlobal(b, module, "__seqpar_rt_initialized", t.i8);
  auto setMode = declareRuntime(b, module, "seqpar_rt_set_error_mode", {t.i32});
  auto init = declareRuntime(b, module, "seqpar_rt_init", {});
  auto func = createInternalFunc(b, module, name, t.fn(t.voidType, {}));
  Block *entry = b.getInsertionBlock();
  Block *initBlock = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody());
  b.setInsertionPointToEnd(entry);
  Value addr = LLVM::AddressOfOp::create(b, loc, flag);
  Value value = LLVM::LoadOp::create(b, loc, t.i8, addr);
  Value notYet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, value,
                                      constantInt(b, loc, t.i8, 0));
  LLVM::CondBrOp::create(b, loc, notYet, initBlock, done);
  b.setInsertionPointToEnd(initBlock);
  // SEQPAR_RT_ERRORS_ABORT = 1: any runtime error aborts every rank.
  LLVM::CallOp::create(b, loc, setMode,
                       ValueRange{constantInt(b, loc, t.i32, 1)});
  LLVM::CallOp::create(b, loc, init, ValueRange{});
  LLVM::StoreOp::create(b, loc, constantInt(b, loc, t.i8, 1), addr);
  LLVM::BrOp::create(b, loc, ValueRange{}, done);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return func;
}

/// Static grid shape, or failure when an extent is dynamic.
FailureOr<SmallVector<int64_t>> getStaticGridShape(shard::GridOp grid) {
  SmallVector<int64_t> shape(grid.getShape());
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return failure();
  return shape;
}

/// @__seqpar_comm_<grid>_a<axes>() -> !llvm.ptr, cached in a global.
LLVM::LLVMFuncOp getCommGetter(OpBuilder &b, ModuleOp module,
                               shard::GridOp grid, ArrayRef<int16_t> axes) {
  std::string name = ("__seqpar_comm_" + grid.getSymName() + "_a").str();
  for (int16_t axis : axes)
    name += std::to_string(axis);
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  AbiTypes t(b.getContext());
  Location loc = module.getLoc();
  LLVM::GlobalOp handle = getOrCreateGlobal(b, module, name + "_handle", t.ptr);
  auto ensureInit = getEnsureInit(b, module);
  auto commGet = declareRuntime(b, module, "seqpar_rt_comm_get",
                                {t.ptr, t.i32, t.ptr, t.i32, t.ptr});
  auto func = createInternalFunc(b, module, name, t.fn(t.ptr, {}));
  Block *entry = b.getInsertionBlock();
  Block *create = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody(), func.getBody().end(), {t.ptr},
                              {loc});
  b.setInsertionPointToEnd(entry);
  Value addr = LLVM::AddressOfOp::create(b, loc, handle);
  Value comm = LLVM::LoadOp::create(b, loc, t.ptr, addr);
  Value null = LLVM::ZeroOp::create(b, loc, t.ptr);
  Value missing =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, comm, null);
  LLVM::CondBrOp::create(b, loc, missing, create, ValueRange{}, done,
                         ValueRange{comm});
  b.setInsertionPointToEnd(create);
  LLVM::CallOp::create(b, loc, ensureInit, ValueRange{});
  SmallVector<int64_t> gridShape(grid.getShape());
  SmallVector<int64_t> axes64(axes.begin(), axes.end());
  Value shape = getConstantArray(b, loc, module, gridShape, 64);
  Value axesArray = getConstantArray(b, loc, module, axes64, 32);
  LLVM::CallOp::create(
      b, loc, commGet,
      ValueRange{shape, constantInt(b, loc, t.i32, gridShape.size()),
                 axesArray, constantInt(b, loc, t.i32, axes.size()), addr});
  Value created = LLVM::LoadOp::create(b, loc, t.ptr, addr);
  LLVM::BrOp::create(b, loc, ValueRange{created}, done);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, done->getArgument(0));
  return func;
}

/// @__seqpar_process_index_<grid>(i32 axis) -> i64.
LLVM::LLVMFuncOp getProcessIndexFunc(OpBuilder &b, ModuleOp module,
                                     shard::GridOp grid) {
  std::string name = ("__seqpar_process_index_" + grid.getSymName()).str();
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  AbiTypes t(b.getContext());
  Location loc = module.getLoc();
  auto ensureInit = getEnsureInit(b, module);
  auto multiIndex = declareRuntime(b, module, "seqpar_rt_process_multi_index",
                                   {t.ptr, t.i32, t.ptr});
  auto func = createInternalFunc(b, module, name, t.fn(t.i64, {t.i32}));
  SmallVector<int64_t> gridShape(grid.getShape());
  auto arrayType = LLVM::LLVMArrayType::get(t.i64, gridShape.size());
  LLVM::CallOp::create(b, loc, ensureInit, ValueRange{});
  Value buffer = LLVM::AllocaOp::create(b, loc, t.ptr, arrayType,
                                        constantInt(b, loc, t.i64, 1));
  Value shape = getConstantArray(b, loc, module, gridShape, 64);
  LLVM::CallOp::create(
      b, loc, multiIndex,
      ValueRange{shape, constantInt(b, loc, t.i32, gridShape.size()), buffer});
  Value element = LLVM::GEPOp::create(
      b, loc, t.ptr, arrayType, buffer,
      ArrayRef<LLVM::GEPArg>{0, func.getArgument(0)});
  Value value = LLVM::LoadOp::create(b, loc, t.i64, element);
  LLVM::ReturnOp::create(b, loc, value);
  return func;
}

/// @__seqpar_wait(!llvm.ptr): waits unless the request is null.
LLVM::LLVMFuncOp getWaitFunc(OpBuilder &b, ModuleOp module) {
  StringLiteral name = "__seqpar_wait";
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  AbiTypes t(b.getContext());
  Location loc = module.getLoc();
  auto wait = declareRuntime(b, module, "seqpar_rt_wait", {t.ptr});
  auto func = createInternalFunc(b, module, name, t.fn(t.voidType, {t.ptr}));
  Block *entry = b.getInsertionBlock();
  Block *call = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody());
  b.setInsertionPointToEnd(entry);
  Value null = LLVM::ZeroOp::create(b, loc, t.ptr);
  Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                      func.getArgument(0), null);
  LLVM::CondBrOp::create(b, loc, isNull, done, call);
  b.setInsertionPointToEnd(call);
  LLVM::CallOp::create(b, loc, wait, ValueRange{func.getArgument(0)});
  LLVM::BrOp::create(b, loc, ValueRange{}, done);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return func;
}

//===----------------------------------------------------------------------===//
// Checks (shared by the pass's diagnostics and the patterns)
//===----------------------------------------------------------------------===//

/// Why a memref-level collective cannot be lowered, or "" when it can.
std::string whyNotLowerable(Operation *op, Value input, Value output,
                            FlatSymbolRefAttr gridName) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(op, gridName);
  if (!grid) {
    os << "grid " << gridName << " not found";
    return reason;
  }
  if (failed(getStaticGridShape(grid))) {
    os << "grid " << gridName
       << " has a dynamic extent; the runtime needs a static grid";
    return reason;
  }
  for (Value buffer : {input, output}) {
    auto type = cast<MemRefType>(buffer.getType());
    if (getRuntimeDType(type.getElementType()) < 0) {
      os << "unsupported element type '" << type.getElementType()
         << "': the seqpar runtime handles f32, f16, bf16, i32, i64, i8 and "
            "i1";
      return reason;
    }
    // A sum of i1 would wrap (i1 addition is xor): booleans only move.
    if (type.getElementType().isInteger(1) &&
        isa<MemRefAllReduceOp, MemRefReduceScatterOp>(op)) {
      os << "'" << op->getName()
         << "' reduces i1 values: the runtime moves i1 (all-gather, "
            "all-to-all, shift) but does not reduce it";
      return reason;
    }
    if (!type.hasStaticShape()) {
      os << "dynamic shape '" << type
         << "' is not supported: the runtime needs static extents";
      return reason;
    }
    if (!isContiguousRowMajor(type)) {
      os << "buffer '" << type << "' is not a contiguous row-major block";
      return reason;
    }
  }
  return reason;
}

std::string whyNotLowerableGrid(Operation *op, FlatSymbolRefAttr gridName) {
  auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(op, gridName);
  if (!grid)
    return ("grid " + gridName.getValue() + " not found").str();
  if (failed(getStaticGridShape(grid)))
    return ("grid @" + gridName.getValue() +
            " has a dynamic extent; the runtime needs a static grid")
        .str();
  return "";
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Runtime reduction code (SEQPAR_RT_SUM/MAX/MIN).
int32_t getReductionCode(shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Max:
    return 1;
  case shard::ReductionKind::Min:
    return 2;
  default:
    return 0;
  }
}

/// The runtime call of one collective: name (without `_start`) and the
/// op-specific trailing arguments.
struct CallSpec {
  StringRef name;
  bool hasReduction = false;
  int32_t reduction = 0;
  /// Extra arguments after (shape, ndims), as (type, value).
  SmallVector<std::pair<Type, int64_t>> extra;
};

CallSpec getCallSpec(MemRefAllGatherOp op) {
  CallSpec spec{"seqpar_rt_all_gather"};
  spec.extra.push_back({IntegerType::get(op.getContext(), 32),
                        static_cast<int64_t>(op.getGatherAxis())});
  return spec;
}
CallSpec getCallSpec(MemRefReduceScatterOp op) {
  CallSpec spec{"seqpar_rt_reduce_scatter", true,
                getReductionCode(op.getReduction())};
  spec.extra.push_back({IntegerType::get(op.getContext(), 32),
                        static_cast<int64_t>(op.getScatterAxis())});
  return spec;
}
CallSpec getCallSpec(MemRefAllReduceOp op) {
  return CallSpec{"seqpar_rt_all_reduce", true,
                  getReductionCode(op.getReduction())};
}
CallSpec getCallSpec(MemRefAllToAllOp op) {
  CallSpec spec{"seqpar_rt_all_to_all"};
  Type i32 = IntegerType::get(op.getContext(), 32);
  spec.extra.push_back({i32, static_cast<int64_t>(op.getSplitAxis())});
  spec.extra.push_back({i32, static_cast<int64_t>(op.getConcatAxis())});
  return spec;
}
CallSpec getCallSpec(MemRefShiftOp op) {
  CallSpec spec{"seqpar_rt_shift"};
  spec.extra.push_back({IntegerType::get(op.getContext(), 64),
                        static_cast<int64_t>(op.getOffset())});
  return spec;
}

/// seqpar.memref_* -> seqpar_rt_<op>[_start](comm, dtype, [reduction,] in,
/// out, shape, ndims, extra..., [&request]).
template <typename OpT>
struct CollectiveLowering : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason = whyNotLowerable(op, op.getInput(), op.getOutput(),
                                         op.getGridAttr());
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    auto module = op->template getParentOfType<ModuleOp>();
    auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        op, op.getGridAttr());
    AbiTypes t(rewriter.getContext());
    Value input = adaptor.getInput(), output = adaptor.getOutput();
    bool async = static_cast<bool>(op.getRequest());

    // A group of one rank: the collective is a copy.
    if (getGroupSize(grid, op.getGridAxes()) == 1) {
      if (input != output)
        memref::CopyOp::create(rewriter, loc, input, output);
      if (async)
        rewriter.replaceOp(op, LLVM::ZeroOp::create(rewriter, loc, t.ptr));
      else
        rewriter.eraseOp(op);
      return success();
    }

    CallSpec spec = getCallSpec(op);
    auto inType = cast<MemRefType>(input.getType());
    SmallVector<int64_t> shape(inType.getShape());
    if (shape.empty())
      shape.push_back(1);

    SmallVector<Type> argTypes = {t.ptr, t.i32};
    SmallVector<Value> args;
    args.push_back(LLVM::CallOp::create(
                       rewriter, loc,
                       getCommGetter(rewriter, module, grid, op.getGridAxes()),
                       ValueRange{})
                       .getResult());
    args.push_back(constantInt(rewriter, loc, t.i32,
                               getRuntimeDType(inType.getElementType())));
    if (spec.hasReduction) {
      argTypes.push_back(t.i32);
      args.push_back(constantInt(rewriter, loc, t.i32, spec.reduction));
    }
    argTypes.append({t.ptr, t.ptr, t.ptr, t.i32});
    args.push_back(getBufferAddress(rewriter, loc, input));
    args.push_back(getBufferAddress(rewriter, loc, output));
    args.push_back(getConstantArray(rewriter, loc, module, shape, 64));
    args.push_back(constantInt(rewriter, loc, t.i32, shape.size()));
    for (auto [type, value] : spec.extra) {
      argTypes.push_back(type);
      args.push_back(constantInt(rewriter, loc, type, value));
    }
    if (!async) {
      LLVM::CallOp::create(rewriter, loc,
                           declareRuntime(rewriter, module, spec.name, argTypes),
                           args);
      rewriter.eraseOp(op);
      return success();
    }
    // The request comes back through an out-parameter: a module-level slot
    // (compiled code is single-threaded per rank), read right after.
    LLVM::GlobalOp slot =
        getOrCreateGlobal(rewriter, module, "__seqpar_request_slot", t.ptr);
    Value slotAddr = LLVM::AddressOfOp::create(rewriter, loc, slot);
    argTypes.push_back(t.ptr);
    args.push_back(slotAddr);
    LLVM::CallOp::create(
        rewriter, loc,
        declareRuntime(rewriter, module, (spec.name + "_start").str(),
                       argTypes),
        args);
    Value request = LLVM::LoadOp::create(rewriter, loc, t.ptr, slotAddr);
    rewriter.replaceOp(op, request);
    return success();
  }
};

/// seqpar.memref_wait -> @__seqpar_wait(request).
struct WaitLowering : public OpConversionPattern<MemRefWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MemRefWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    LLVM::CallOp::create(rewriter, op.getLoc(), getWaitFunc(rewriter, module),
                         ValueRange{adaptor.getRequest()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Coordinate of this process on `axis` of `grid`, as an index.
Value getProcessCoordinate(ConversionPatternRewriter &rewriter, Location loc,
                           ModuleOp module, shard::GridOp grid, int64_t axis) {
  int64_t total = 1;
  for (int64_t extent : grid.getShape())
    total *= extent;
  if (total == 1 || grid.getShape()[axis] == 1)
    return arith::ConstantIndexOp::create(rewriter, loc, 0);
  AbiTypes t(rewriter.getContext());
  Value coordinate =
      LLVM::CallOp::create(
          rewriter, loc, getProcessIndexFunc(rewriter, module, grid),
          ValueRange{constantInt(rewriter, loc, t.i32, axis)})
          .getResult();
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                    coordinate);
}

/// shard.process_multi_index -> one coordinate per requested axis.
struct ProcessMultiIndexLowering
    : public OpConversionPattern<shard::ProcessMultiIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shard::ProcessMultiIndexOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason = whyNotLowerableGrid(op, op.getGridAttr());
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        op, op.getGridAttr());
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<int64_t> axes;
    if (op.getAxes().empty())
      for (int64_t axis = 0; axis < grid.getRank(); ++axis)
        axes.push_back(axis);
    else
      axes.assign(op.getAxes().begin(), op.getAxes().end());
    SmallVector<Value> results;
    for (int64_t axis : axes)
      results.push_back(
          getProcessCoordinate(rewriter, op.getLoc(), module, grid, axis));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// shard.process_linear_index -> row-major linearized coordinates.
struct ProcessLinearIndexLowering
    : public OpConversionPattern<shard::ProcessLinearIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shard::ProcessLinearIndexOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason = whyNotLowerableGrid(op, op.getGridAttr());
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        op, op.getGridAttr());
    auto module = op->getParentOfType<ModuleOp>();
    Location loc = op.getLoc();
    Value linear = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (int64_t axis = 0; axis < grid.getRank(); ++axis) {
      Value extent =
          arith::ConstantIndexOp::create(rewriter, loc, grid.getShape()[axis]);
      linear = arith::MulIOp::create(rewriter, loc, linear, extent);
      linear = arith::AddIOp::create(
          rewriter, loc, linear,
          getProcessCoordinate(rewriter, loc, module, grid, axis));
    }
    rewriter.replaceOp(op, linear);
    return success();
  }
};

/// shard.grid_shape -> constants.
struct GridShapeLowering : public OpConversionPattern<shard::GridShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shard::GridShapeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason = whyNotLowerableGrid(op, op.getGridAttr());
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        op, op.getGridAttr());
    SmallVector<int64_t> axes;
    if (op.getAxes().empty())
      for (int64_t axis = 0; axis < grid.getRank(); ++axis)
        axes.push_back(axis);
    else
      axes.assign(op.getAxes().begin(), op.getAxes().end());
    SmallVector<Value> results;
    for (int64_t axis : axes)
      results.push_back(arith::ConstantIndexOp::create(
          rewriter, op.getLoc(), grid.getShape()[axis]));
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// Reports every op the conversion cannot handle, with its reason.
LogicalResult checkModule(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    std::string reason;
    if (auto c = dyn_cast<MemRefAllGatherOp>(op))
      reason = whyNotLowerable(op, c.getInput(), c.getOutput(), c.getGridAttr());
    else if (auto c = dyn_cast<MemRefReduceScatterOp>(op))
      reason = whyNotLowerable(op, c.getInput(), c.getOutput(), c.getGridAttr());
    else if (auto c = dyn_cast<MemRefAllReduceOp>(op))
      reason = whyNotLowerable(op, c.getInput(), c.getOutput(), c.getGridAttr());
    else if (auto c = dyn_cast<MemRefAllToAllOp>(op))
      reason = whyNotLowerable(op, c.getInput(), c.getOutput(), c.getGridAttr());
    else if (auto c = dyn_cast<MemRefShiftOp>(op))
      reason = whyNotLowerable(op, c.getInput(), c.getOutput(), c.getGridAttr());
    else if (auto c = dyn_cast<shard::ProcessMultiIndexOp>(op))
      reason = whyNotLowerableGrid(op, c.getGridAttr());
    else if (auto c = dyn_cast<shard::ProcessLinearIndexOp>(op))
      reason = whyNotLowerableGrid(op, c.getGridAttr());
    else if (auto c = dyn_cast<shard::GridShapeOp>(op))
      reason = whyNotLowerableGrid(op, c.getGridAttr());
    else if (isa<AllGatherStartOp, ReduceScatterStartOp, AllReduceStartOp,
                 AllToAllStartOp, ShiftStartOp, WaitOp>(op) ||
             (isa_and_nonnull<shard::ShardDialect>(op->getDialect()) &&
              !isa<shard::GridOp>(op) &&
              llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>)))
      reason = "operates on tensors: bufferize first (one-shot-bufferize; "
               "see the seqpar-lower-to-llvm pipeline)";
    else if (isa_and_nonnull<shard::ShardDialect>(op->getDialect()) &&
             !isa<shard::GridOp>(op))
      reason = "is not supported by the seqpar runtime lowering";
    if (!reason.empty()) {
      op->emitError() << "cannot lower to the seqpar runtime: " << reason;
      ok = false;
    }
  });
  return success(ok);
}

struct LowerCollectivesToRuntimePass
    : public mlir::seqpar::impl::LowerCollectivesToRuntimeBase<
          LowerCollectivesToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkModule(module)))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateCollectivesToRuntimeTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    populateCollectivesToRuntimePatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addIllegalOp<MemRefAllGatherOp, MemRefReduceScatterOp,
                        MemRefAllReduceOp, MemRefAllToAllOp, MemRefShiftOp,
                        MemRefWaitOp, shard::ProcessMultiIndexOp,
                        shard::ProcessLinearIndexOp, shard::GridShapeOp>();
    // Structural ops (functions, calls, returns, scf) are legal once no
    // request type is left in their signature or operands.
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Grids are only symbols for the collectives just lowered; a public one
    // would survive symbol-dce and has no LLVM translation.
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
  }
};

} // namespace

void mlir::seqpar::populateCollectivesToRuntimeTypeConversion(
    TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](RequestType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}

void mlir::seqpar::populateCollectivesToRuntimePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<CollectiveLowering<MemRefAllGatherOp>,
               CollectiveLowering<MemRefReduceScatterOp>,
               CollectiveLowering<MemRefAllReduceOp>,
               CollectiveLowering<MemRefAllToAllOp>,
               CollectiveLowering<MemRefShiftOp>, WaitLowering,
               ProcessMultiIndexLowering, ProcessLinearIndexLowering,
               GridShapeLowering>(converter, ctx);
}
