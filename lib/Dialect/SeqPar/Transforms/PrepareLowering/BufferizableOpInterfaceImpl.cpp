//===- BufferizableOpInterfaceImpl.cpp - bufferization of collectives -----===//
//
// External BufferizableOpInterface models: upstream shard collectives and
// seqpar's asynchronous collectives become memref-level seqpar.memref_* ops
// (see BufferizableOpInterfaceImpl.h for what each op becomes).
//
//===----------------------------------------------------------------------===//

#include "seqpar/Dialect/SeqPar/Transforms/PrepareLowering/BufferizableOpInterfaceImpl.h"

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::seqpar;
using namespace mlir::bufferization;

namespace {

/// The send and receive buffers of one collective.
struct Buffers {
  Value input, output;
};

/// Identity-layout memref type of a static tensor type.
MemRefType getIdentityMemRef(ShapedType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

/// Allocates a send buffer holding `tensor`'s value when its buffer is not a
/// contiguous row-major block (or always, with `forceCopy`), else returns
/// the buffer itself; and allocates the output buffer of type `resultType`.
FailureOr<Buffers> prepareBuffers(RewriterBase &rewriter, Operation *op,
                                  Value tensor, ShapedType resultType,
                                  const BufferizationOptions &options,
                                  BufferizationState &state, bool forceCopy) {
  auto inType = cast<ShapedType>(tensor.getType());
  if (!inType.hasStaticShape() || !resultType.hasStaticShape())
    return op->emitError("cannot bufferize a collective with a dynamic "
                         "shape: ")
           << inType << " -> " << resultType;
  Location loc = op->getLoc();
  FailureOr<Value> buffer = getBuffer(rewriter, tensor, options, state);
  if (failed(buffer))
    return failure();
  Buffers buffers{*buffer, Value()};
  auto bufferType = cast<MemRefType>(buffer->getType());
  if (forceCopy || !(bufferType.getLayout().isIdentity() ||
                     memref::isStaticShapeAndContiguousRowMajor(bufferType))) {
    FailureOr<Value> copy =
        options.createAlloc(rewriter, loc, getIdentityMemRef(inType), {});
    if (failed(copy) ||
        failed(options.createMemCpy(rewriter, loc, *buffer, *copy)))
      return failure();
    buffers.input = *copy;
  }
  FailureOr<Value> out =
      options.createAlloc(rewriter, loc, getIdentityMemRef(resultType), {});
  if (failed(out))
    return failure();
  buffers.output = *out;
  return buffers;
}

/// The runtime reduces with sum, max or min only.
LogicalResult checkReduction(Operation *op, shard::ReductionKind kind) {
  if (kind == shard::ReductionKind::Sum || kind == shard::ReductionKind::Max ||
      kind == shard::ReductionKind::Min)
    return success();
  return op->emitError("reduction '")
         << shard::stringifyReductionKind(kind)
         << "' is not supported by the seqpar runtime (sum, max, min)";
}

IntegerAttr i64(RewriterBase &rewriter, const APInt &value) {
  return rewriter.getI64IntegerAttr(value.getSExtValue());
}

//===----------------------------------------------------------------------===//
// Op-specific memref ops
//===----------------------------------------------------------------------===//

/// Creates the memref-level op of a blocking shard collective (`request` is
/// null) or of an asynchronous seqpar one.
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      shard::AllGatherOp op, Buffers b,
                                      Type request) {
  return MemRefAllGatherOp::create(rewriter, op.getLoc(), request,
                                   op.getGridAttr(), op.getGridAxesAttr(),
                                   b.input, b.output,
                                   i64(rewriter, op.getGatherAxis()))
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      shard::ReduceScatterOp op, Buffers b,
                                      Type request) {
  if (failed(checkReduction(op, op.getReduction())))
    return failure();
  return MemRefReduceScatterOp::create(
             rewriter, op.getLoc(), request, op.getGridAttr(),
             op.getGridAxesAttr(), b.input, b.output, op.getReductionAttr(),
             i64(rewriter, op.getScatterAxis()))
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      shard::AllReduceOp op, Buffers b,
                                      Type request) {
  if (failed(checkReduction(op, op.getReduction())))
    return failure();
  if (getElementTypeOrSelf(op.getInput().getType()) !=
      getElementTypeOrSelf(op.getResult().getType()))
    return op.emitError("cannot bufferize an all_reduce that changes the "
                        "element type");
  return MemRefAllReduceOp::create(rewriter, op.getLoc(), request,
                                   op.getGridAttr(), op.getGridAxesAttr(),
                                   b.input, b.output, op.getReductionAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      shard::AllToAllOp op, Buffers b,
                                      Type request) {
  return MemRefAllToAllOp::create(rewriter, op.getLoc(), request,
                                  op.getGridAttr(), op.getGridAxesAttr(),
                                  b.input, b.output,
                                  i64(rewriter, op.getSplitAxis()),
                                  i64(rewriter, op.getConcatAxis()))
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      shard::ShiftOp op, Buffers b,
                                      Type request) {
  // The group of the shift is the ring along shift_axis (the other grid
  // axes only select which ring a rank belongs to).
  int16_t axis = static_cast<int16_t>(op.getShiftAxis().getSExtValue());
  return MemRefShiftOp::create(rewriter, op.getLoc(), request,
                               op.getGridAttr(),
                               rewriter.getDenseI16ArrayAttr({axis}), b.input,
                               b.output, op.getOffsetAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      AllGatherStartOp op, Buffers b,
                                      Type request) {
  return MemRefAllGatherOp::create(rewriter, op.getLoc(), request,
                                   op.getGridAttr(), op.getGridAxesAttr(),
                                   b.input, b.output, op.getGatherAxisAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      ReduceScatterStartOp op, Buffers b,
                                      Type request) {
  return MemRefReduceScatterOp::create(
             rewriter, op.getLoc(), request, op.getGridAttr(),
             op.getGridAxesAttr(), b.input, b.output, op.getReductionAttr(),
             op.getScatterAxisAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      AllReduceStartOp op, Buffers b,
                                      Type request) {
  return MemRefAllReduceOp::create(rewriter, op.getLoc(), request,
                                   op.getGridAttr(), op.getGridAxesAttr(),
                                   b.input, b.output, op.getReductionAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter,
                                      AllToAllStartOp op, Buffers b,
                                      Type request) {
  return MemRefAllToAllOp::create(rewriter, op.getLoc(), request,
                                  op.getGridAttr(), op.getGridAxesAttr(),
                                  b.input, b.output, op.getSplitAxisAttr(),
                                  op.getConcatAxisAttr())
      .getOperation();
}
FailureOr<Operation *> createMemRefOp(RewriterBase &rewriter, ShiftStartOp op,
                                      Buffers b, Type request) {
  return MemRefShiftOp::create(rewriter, op.getLoc(), request,
                               op.getGridAttr(), op.getGridAxesAttr(), b.input,
                               b.output, op.getOffsetAttr())
      .getOperation();
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

/// Shared parts: the input is read, never written, and aliases nothing.
template <typename Derived, typename OpT>
struct ReadOnlyInputModel
    : public BufferizableOpInterface::ExternalModel<Derived, OpT> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
};

/// A blocking shard collective: input buffer -> new output buffer.
template <typename OpT>
struct ShardCollectiveModel
    : public ReadOnlyInputModel<ShardCollectiveModel<OpT>, OpT> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto collective = cast<OpT>(op);
    FailureOr<Buffers> buffers = prepareBuffers(
        rewriter, op, collective.getInput(),
        cast<ShapedType>(collective.getResult().getType()), options, state,
        /*forceCopy=*/false);
    if (failed(buffers) ||
        failed(createMemRefOp(rewriter, collective, *buffers, Type())))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, buffers->output);
    return success();
  }
};

/// shard.all_slice: this rank's slice of the input, copied (no
/// communication).
struct AllSliceModel
    : public ReadOnlyInputModel<AllSliceModel, shard::AllSliceOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto slice = cast<shard::AllSliceOp>(op);
    Location loc = op->getLoc();
    auto resultType = cast<ShapedType>(slice.getResult().getType());
    if (!resultType.hasStaticShape())
      return op->emitError("cannot bufferize an all_slice with a dynamic "
                           "result shape ")
             << resultType;
    auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        op, slice.getGridAttr());
    if (!grid)
      return op->emitError("grid ") << slice.getGridAttr() << " not found";
    ArrayRef<int16_t> axes = slice.getGridAxes();
    if (getGroupSize(grid, axes) < 0)
      return op->emitError("all_slice on a grid with a dynamic extent");
    FailureOr<Value> input =
        getBuffer(rewriter, slice.getInput(), options, state);
    if (failed(input))
      return failure();
    // In-group rank: row-major linear index over the grid axes.
    int64_t axis = slice.getSliceAxis().getSExtValue();
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    if (!axes.empty()) {
      auto index = shard::ProcessMultiIndexOp::create(
          rewriter, loc, grid.getSymName(), axes);
      for (auto [i, gridAxis] : llvm::enumerate(axes)) {
        Value size = arith::ConstantIndexOp::create(
            rewriter, loc, grid.getShape()[gridAxis]);
        offset = arith::MulIOp::create(rewriter, loc, offset, size);
        offset = arith::AddIOp::create(rewriter, loc, offset,
                                       index.getResult()[i]);
      }
      Value chunk = arith::ConstantIndexOp::create(
          rewriter, loc, resultType.getDimSize(axis));
      offset = arith::MulIOp::create(rewriter, loc, offset, chunk);
    }
    SmallVector<OpFoldResult> offsets(resultType.getRank(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(resultType.getRank(),
                                             rewriter.getIndexAttr(1));
    for (int64_t size : resultType.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    offsets[axis] = offset;
    Value view =
        memref::SubViewOp::create(rewriter, loc, *input, offsets, sizes,
                                  strides);
    FailureOr<Value> out = options.createAlloc(
        rewriter, loc, getIdentityMemRef(resultType), {});
    if (failed(out) || failed(options.createMemCpy(rewriter, loc, view, *out)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, *out);
    return success();
  }
};

/// seqpar.*_start: private send buffer, output buffer, asynchronous op.
template <typename OpT>
struct StartModel : public ReadOnlyInputModel<StartModel<OpT>, OpT> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto start = cast<OpT>(op);
    auto valueType = cast<RequestType>(start.getRequest().getType())
                         .getValueType();
    FailureOr<Buffers> buffers =
        prepareBuffers(rewriter, op, start.getInput(), valueType, options,
                       state, /*forceCopy=*/true);
    if (failed(buffers))
      return failure();
    Type request = RequestType::get(
        op->getContext(), cast<ShapedType>(buffers->output.getType()));
    FailureOr<Operation *> created =
        createMemRefOp(rewriter, start, *buffers, request);
    if (failed(created))
      return failure();
    rewriter.replaceOp(op, (*created)->getResults());
    return success();
  }
};

/// seqpar.wait: memref_wait on the start's buffers; the result is the
/// output buffer.
struct WaitModel
    : public BufferizableOpInterface::ExternalModel<WaitModel, WaitOp> {
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    Value request = op->getOperand(0);
    Operation *start = request.getDefiningOp();
    if (!start ||
        !isa<MemRefAllGatherOp, MemRefReduceScatterOp, MemRefAllReduceOp,
             MemRefAllToAllOp, MemRefShiftOp>(start))
      return op->emitError("seqpar.wait: its start op was not bufferized "
                           "first (start and wait must share a block)");
    Value input = start->getOperand(0), output = start->getOperand(1);
    MemRefWaitOp::create(rewriter, op->getLoc(), request, input, output);
    replaceOpWithBufferizedValues(rewriter, op, output);
    return success();
  }
};

} // namespace

void mlir::seqpar::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, shard::ShardDialect *) {
    shard::AllGatherOp::attachInterface<
        ShardCollectiveModel<shard::AllGatherOp>>(*ctx);
    shard::ReduceScatterOp::attachInterface<
        ShardCollectiveModel<shard::ReduceScatterOp>>(*ctx);
    shard::AllReduceOp::attachInterface<
        ShardCollectiveModel<shard::AllReduceOp>>(*ctx);
    shard::AllToAllOp::attachInterface<
        ShardCollectiveModel<shard::AllToAllOp>>(*ctx);
    shard::ShiftOp::attachInterface<ShardCollectiveModel<shard::ShiftOp>>(
        *ctx);
    shard::AllSliceOp::attachInterface<AllSliceModel>(*ctx);
    ctx->loadDialect<arith::ArithDialect, memref::MemRefDialect, SeqParDialect>();
  });
  registry.addExtension(+[](MLIRContext *ctx, SeqParDialect *) {
    AllGatherStartOp::attachInterface<StartModel<AllGatherStartOp>>(*ctx);
    ReduceScatterStartOp::attachInterface<StartModel<ReduceScatterStartOp>>(
        *ctx);
    AllReduceStartOp::attachInterface<StartModel<AllReduceStartOp>>(*ctx);
    AllToAllStartOp::attachInterface<StartModel<AllToAllStartOp>>(*ctx);
    ShiftStartOp::attachInterface<StartModel<ShiftStartOp>>(*ctx);
    WaitOp::attachInterface<WaitModel>(*ctx);
    ctx->loadDialect<memref::MemRefDialect>();
  });
}
