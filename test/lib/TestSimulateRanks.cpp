//===- TestSimulateRanks.cpp - run t ranks of a per-rank program in one ---===//
//
// Builds `<func>_simulated`, a single-device function with the global
// signature of the per-rank entry function `<func>`: it cuts every rank's
// arguments from the global ones (per their `seqpar.sharding`), runs t copies
// of the per-rank body in lockstep with the collectives replaced by the
// arithmetic they perform across ranks, and assembles the global results.
// Used to prove by execution that a per-rank program equals the
// single-device one, without any communication runtime.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/IR/ShardingLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::seqpar::test {
#define GEN_PASS_DEF_TESTSIMULATERANKS
#include "TestPasses.h.inc"
} // namespace mlir::seqpar::test

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Returns `v[offset : offset + size]` along `dim` (static sizes only).
Value sliceDim(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t offset,
               int64_t size) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  offsets[dim] = b.getIndexAttr(offset);
  sizes[dim] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
}

/// Concatenates `pieces` along `dim`; a single piece is returned as is.
Value concatDim(OpBuilder &b, Location loc, ArrayRef<Value> pieces,
                int64_t dim) {
  if (pieces.size() == 1)
    return pieces.front();
  return tensor::ConcatOp::create(b, loc, dim, pieces);
}

/// Simulates the ranks of one per-rank function on one 1-D grid.
class RankSimulator {
public:
  RankSimulator(func::FuncOp src, shard::GridOp grid)
      : src(src), grid(grid), t(grid.getShape()[0]), maps(t) {}

  /// Creates `<src>_simulated` right after `src`. Emits errors and fails on
  /// anything it cannot simulate (the partial function is then erased).
  LogicalResult run(StringRef newName);

private:
  /// The global type of a per-rank value of type `local` sharded by `s`.
  FailureOr<Type> getGlobalType(Type local, ShardingAttr s,
                                function_ref<InFlightDiagnostic()> emitErr);
  /// Rank `r`'s piece of the global value `global` sharded by `s`.
  Value cutPiece(OpBuilder &b, Location loc, Value global, ShardingAttr s,
                 int64_t r);
  /// The global value assembled from the per-rank `pieces` sharded by `s`.
  Value assemble(OpBuilder &b, Location loc, ArrayRef<Value> pieces,
                 ShardingAttr s);
  /// Elementwise `kind`-reduction of `inputs` (same tensor type).
  FailureOr<Value> combine(OpBuilder &b, Operation *op,
                           shard::ReductionKind kind, ArrayRef<Value> inputs);
  /// Replaces one shard op by its across-rank meaning in every rank's map.
  LogicalResult simulateShardOp(OpBuilder &b, Operation *op);

  /// Rank `r`'s ranges of the global indices of dim `dim` (global extent
  /// `size`) of a value sharded by `s`.
  FailureOr<SmallVector<IndexRange>> rangesOf(ShardingAttr s, int64_t dim,
                                              int64_t size, int64_t r) {
    return getGlobalRanges(s, dim, size, grid.getShape(), ArrayRef<int64_t>{r});
  }

  /// The split dim of `s` (at most one on a 1-D grid), or -1.
  static int64_t getSplitDim(ShardingAttr s) {
    for (auto [d, ds] : llvm::enumerate(s.getDims()))
      if (ds && ds.isSplit())
        return d;
    return -1;
  }

  func::FuncOp src;
  shard::GridOp grid;
  int64_t t;
  /// Per-rank map from the per-rank body's values to the simulated ones.
  SmallVector<IRMapping> maps;
};

FailureOr<Type>
RankSimulator::getGlobalType(Type local, ShardingAttr s,
                             function_ref<InFlightDiagnostic()> emitErr) {
  if (s.getGrid().getValue() != grid.getSymName())
    return emitErr() << "sharding is on grid " << s.getGrid() << ", expected @"
                     << grid.getSymName();
  if (!s.getPartialAxes().empty())
    return emitErr() << "partial sharding " << s
                     << " cannot be simulated (no global value to cut)";
  int64_t dim = getSplitDim(s);
  if (dim < 0)
    return local;
  auto type = dyn_cast<RankedTensorType>(local);
  if (!type || dim >= type.getRank())
    return emitErr() << "sharding " << s << " splits dim " << dim
                     << " of non-tensor or lower-rank type " << local;
  DimShardingAttr ds = s.getDims()[dim];
  if (ds.getAxes().size() != 1 || ds.getAxes()[0] != 0)
    return emitErr() << "sharding " << s << " must split over grid axis 0 only";
  int64_t size = type.getDimSize(dim);
  if (ShapedType::isDynamic(size))
    return emitErr() << "split dim " << dim << " of " << local
                     << " must be static";
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size * t;
  if (failed(rangesOf(s, dim, shape[dim], /*r=*/0)))
    return emitErr() << "per-rank dim " << dim << " of " << local
                     << " is not divisible into the pieces of " << s;
  return RankedTensorType::get(shape, type.getElementType(),
                               type.getEncoding());
}

Value RankSimulator::cutPiece(OpBuilder &b, Location loc, Value global,
                              ShardingAttr s, int64_t r) {
  int64_t dim = getSplitDim(s);
  if (dim < 0)
    return global;
  int64_t size = cast<RankedTensorType>(global.getType()).getDimSize(dim);
  // getGlobalType checked that the extent divides.
  SmallVector<IndexRange> ranges = *rangesOf(s, dim, size, r);
  SmallVector<Value> pieces;
  for (IndexRange range : ranges)
    pieces.push_back(sliceDim(b, loc, global, dim, range.start, range.size));
  return concatDim(b, loc, pieces, dim);
}

Value RankSimulator::assemble(OpBuilder &b, Location loc,
                              ArrayRef<Value> pieces, ShardingAttr s) {
  int64_t dim = getSplitDim(s);
  if (dim < 0)
    return pieces.front(); // Replicated: every rank holds the global value.
  int64_t local = cast<RankedTensorType>(pieces[0].getType()).getDimSize(dim);
  // Every rank's ranges, each from its place in the rank's piece, put in
  // global order.
  struct Part {
    IndexRange global;
    Value piece;
    int64_t localStart;
  };
  SmallVector<Part> parts;
  for (auto [r, piece] : llvm::enumerate(pieces)) {
    int64_t at = 0;
    SmallVector<IndexRange> ranges = *rangesOf(s, dim, local * t, r);
    for (IndexRange range : ranges) {
      parts.push_back({range, piece, at});
      at += range.size;
    }
  }
  llvm::sort(parts, [](const Part &x, const Part &y) {
    return x.global.start < y.global.start;
  });
  SmallVector<Value> blocks;
  for (const Part &part : parts)
    blocks.push_back(part.global.size == local
                         ? part.piece
                         : sliceDim(b, loc, part.piece, dim, part.localStart,
                                    part.global.size));
  return concatDim(b, loc, blocks, dim);
}

FailureOr<Value> RankSimulator::combine(OpBuilder &b, Operation *op,
                                        shard::ReductionKind kind,
                                        ArrayRef<Value> inputs) {
  Location loc = op->getLoc();
  Type elem = getElementTypeOrSelf(inputs.front().getType());
  bool isFloat = isa<FloatType>(elem);
  if (!isFloat && !isa<IntegerType>(elem))
    return op->emitError("cannot simulate a reduction over element type ")
           << elem;
  Value acc = inputs.front();
  for (Value in : inputs.drop_front()) {
    switch (kind) {
    case shard::ReductionKind::Sum:
      acc = isFloat ? arith::AddFOp::create(b, loc, acc, in).getResult()
                    : arith::AddIOp::create(b, loc, acc, in).getResult();
      break;
    case shard::ReductionKind::Product:
      acc = isFloat ? arith::MulFOp::create(b, loc, acc, in).getResult()
                    : arith::MulIOp::create(b, loc, acc, in).getResult();
      break;
    case shard::ReductionKind::Max:
      acc = isFloat ? arith::MaximumFOp::create(b, loc, acc, in).getResult()
                    : arith::MaxSIOp::create(b, loc, acc, in).getResult();
      break;
    case shard::ReductionKind::Min:
      acc = isFloat ? arith::MinimumFOp::create(b, loc, acc, in).getResult()
                    : arith::MinSIOp::create(b, loc, acc, in).getResult();
      break;
    default:
      return op->emitError("cannot simulate reduction kind '")
             << shard::stringifyReductionKind(kind) << "'";
    }
  }
  return acc;
}

LogicalResult RankSimulator::simulateShardOp(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  // Every shard op that names a grid must name the simulated one.
  if (auto gridAttr = op->getAttrOfType<FlatSymbolRefAttr>("grid"))
    if (gridAttr.getValue() != grid.getSymName())
      return op->emitError("collective on grid ")
             << gridAttr << " cannot be simulated: only @" << grid.getSymName()
             << " is";

  auto rankInputs = [&](Value in) {
    SmallVector<Value> ins;
    for (IRMapping &m : maps)
      ins.push_back(m.lookup(in));
    return ins;
  };
  auto mapAll = [&](Value from, Value to) {
    for (IRMapping &m : maps)
      m.map(from, to);
  };
  // A collective over no grid axis is the identity on every rank.
  auto identityIfNoAxes = [&](ArrayRef<int16_t> axes) {
    if (!axes.empty())
      return false;
    for (IRMapping &m : maps)
      m.map(op->getResult(0), m.lookup(op->getOperand(0)));
    return true;
  };
  auto checkStatic = [&](Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return op->emitError("cannot simulate a collective on ")
             << type << " (static ranked tensors only)";
    return success();
  };

  if (auto idx = dyn_cast<shard::ProcessMultiIndexOp>(op)) {
    for (auto [r, m] : llvm::enumerate(maps)) {
      Value c = arith::ConstantIndexOp::create(b, loc, r);
      for (Value res : idx.getResults())
        m.map(res, c);
    }
    return success();
  }
  if (auto idx = dyn_cast<shard::ProcessLinearIndexOp>(op)) {
    for (auto [r, m] : llvm::enumerate(maps))
      m.map(idx.getResult(), arith::ConstantIndexOp::create(b, loc, r));
    return success();
  }
  if (auto shape = dyn_cast<shard::GridShapeOp>(op)) {
    Value c = arith::ConstantIndexOp::create(b, loc, t);
    for (Value res : shape.getResults())
      mapAll(res, c);
    return success();
  }
  if (auto ar = dyn_cast<shard::AllReduceOp>(op)) {
    if (identityIfNoAxes(ar.getGridAxes()))
      return success();
    if (failed(checkStatic(ar.getInput().getType())))
      return failure();
    if (ar.getInput().getType() != ar.getResult().getType())
      return op->emitError("cannot simulate an all_reduce that changes the "
                           "element type");
    FailureOr<Value> sum =
        combine(b, op, ar.getReduction(), rankInputs(ar.getInput()));
    if (failed(sum))
      return failure();
    mapAll(ar.getResult(), *sum);
    return success();
  }
  if (auto rs = dyn_cast<shard::ReduceScatterOp>(op)) {
    if (identityIfNoAxes(rs.getGridAxes()))
      return success();
    if (failed(checkStatic(rs.getInput().getType())))
      return failure();
    if (getElementTypeOrSelf(rs.getInput().getType()) !=
        getElementTypeOrSelf(rs.getResult().getType()))
      return op->emitError("cannot simulate a reduce_scatter that changes "
                           "the element type");
    FailureOr<Value> sum =
        combine(b, op, rs.getReduction(), rankInputs(rs.getInput()));
    if (failed(sum))
      return failure();
    int64_t axis = rs.getScatterAxis().getSExtValue();
    int64_t size = rs.getResult().getType().getDimSize(axis);
    for (auto [r, m] : llvm::enumerate(maps))
      m.map(rs.getResult(), sliceDim(b, loc, *sum, axis, r * size, size));
    return success();
  }
  if (auto ag = dyn_cast<shard::AllGatherOp>(op)) {
    if (identityIfNoAxes(ag.getGridAxes()))
      return success();
    if (failed(checkStatic(ag.getInput().getType())))
      return failure();
    int64_t axis = ag.getGatherAxis().getSExtValue();
    mapAll(ag.getResult(), concatDim(b, loc, rankInputs(ag.getInput()), axis));
    return success();
  }
  if (auto as = dyn_cast<shard::AllSliceOp>(op)) {
    if (identityIfNoAxes(as.getGridAxes()))
      return success();
    if (failed(checkStatic(as.getInput().getType())))
      return failure();
    int64_t axis = as.getSliceAxis().getSExtValue();
    int64_t size = as.getResult().getType().getDimSize(axis);
    for (auto [r, m] : llvm::enumerate(maps))
      m.map(as.getResult(),
            sliceDim(b, loc, m.lookup(as.getInput()), axis, r * size, size));
    return success();
  }
  return op->emitError("cannot simulate '")
         << op->getName() << "': unsupported shard op";
}

LogicalResult RankSimulator::run(StringRef newName) {
  if (!src.getBody().hasOneBlock())
    return src.emitError("cannot simulate @")
           << src.getSymName() << ": body must be a single block";
  FunctionType type = src.getFunctionType();

  // Global signature from the sharding attributes.
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<ShardingAttr> argShardings, resultShardings;
  for (auto [i, arg] : llvm::enumerate(src.getArguments())) {
    auto emitErr = [&, i = i]() {
      return mlir::emitError(arg.getLoc())
             << "argument #" << i << " of @" << src.getSymName() << ": ";
    };
    ShardingAttr s = getArgSharding(src, i);
    if (!s)
      return emitErr() << "no 'seqpar.sharding' attribute: the global "
                          "argument is unknown";
    FailureOr<Type> global = getGlobalType(arg.getType(), s, emitErr);
    if (failed(global))
      return failure();
    argTypes.push_back(*global);
    argShardings.push_back(s);
  }
  for (auto [i, local] : llvm::enumerate(type.getResults())) {
    auto emitErr = [&, i = i]() {
      return src.emitError()
             << "result #" << i << " of @" << src.getSymName() << ": ";
    };
    ShardingAttr s = getResultSharding(src, i);
    if (!s)
      return emitErr() << "no 'seqpar.sharding' attribute: the global "
                          "result is unknown";
    FailureOr<Type> global = getGlobalType(local, s, emitErr);
    if (failed(global))
      return failure();
    resultTypes.push_back(*global);
    resultShardings.push_back(s);
  }

  OpBuilder b(src->getContext());
  b.setInsertionPointAfter(src);
  auto sim = func::FuncOp::create(b, src.getLoc(), newName,
                                  b.getFunctionType(argTypes, resultTypes));
  Block *entry = sim.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto fail = [&]() {
    sim.erase();
    return failure();
  };

  // Cut every rank's arguments from the global ones.
  for (auto [i, arg] : llvm::enumerate(src.getArguments()))
    for (auto [r, m] : llvm::enumerate(maps))
      m.map(arg, cutPiece(b, arg.getLoc(), entry->getArgument(i),
                          argShardings[i], r));

  // Run the t copies of the body in lockstep.
  for (Operation &op : src.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Value> results;
      for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
        SmallVector<Value> pieces;
        for (IRMapping &m : maps)
          pieces.push_back(m.lookup(operand));
        results.push_back(
            assemble(b, ret.getLoc(), pieces, resultShardings[i]));
      }
      func::ReturnOp::create(b, ret.getLoc(), results);
      continue;
    }
    if (isa_and_nonnull<shard::ShardDialect>(op.getDialect())) {
      if (failed(simulateShardOp(b, &op)))
        return fail();
      continue;
    }
    WalkResult nested = op.walk([&](Operation *inner) {
      if (inner != &op &&
          isa_and_nonnull<shard::ShardDialect>(inner->getDialect())) {
        inner->emitError("cannot simulate '")
            << inner->getName()
            << "' nested in a region: shard ops must be at function level";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return fail();
    for (IRMapping &m : maps)
      b.clone(op, m);
  }
  return success();
}

struct TestSimulateRanksPass
    : public mlir::seqpar::test::impl::TestSimulateRanksBase<TestSimulateRanksPass> {
  using TestSimulateRanksBase::TestSimulateRanksBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto src = module.lookupSymbol<func::FuncOp>(funcName);
    if (!src || src.isExternal()) {
      module.emitError("no function @") << funcName << " with a body";
      return signalPassFailure();
    }
    // Rank copies of a buffer-form body would write the same buffers.
    if (diagnoseBufferForm(src, getArgument(), DiagnosticSeverity::Error))
      return signalPassFailure();
    std::string newName = funcName + "_simulated";
    if (module.lookupSymbol(newName)) {
      src.emitError("symbol @") << newName << " already exists";
      return signalPassFailure();
    }
    // The grid: the one the arguments' shardings name, else the module's
    // only grid.
    FlatSymbolRefAttr gridName;
    for (unsigned i = 0, e = src.getNumArguments(); i < e && !gridName; ++i)
      if (ShardingAttr s = getArgSharding(src, i))
        gridName = s.getGrid();
    shard::GridOp grid;
    if (gridName) {
      grid = module.lookupSymbol<shard::GridOp>(gridName);
      if (!grid) {
        src.emitError("grid ") << gridName << " not found";
        return signalPassFailure();
      }
    } else {
      auto grids = module.getOps<shard::GridOp>();
      if (!llvm::hasSingleElement(grids)) {
        src.emitError("cannot tell which shard.grid to simulate: no "
                      "argument sharding names one and the module has ")
            << llvm::range_size(grids) << " grids";
        return signalPassFailure();
      }
      grid = *grids.begin();
    }
    if (grid.getRank() != 1) {
      grid.emitError("can only simulate a 1-D grid, @")
          << grid.getSymName() << " has rank " << grid.getRank();
      return signalPassFailure();
    }
    if (ShapedType::isDynamic(grid.getShape()[0])) {
      grid.emitError("can only simulate a grid of static size, @")
          << grid.getSymName() << " is dynamic";
      return signalPassFailure();
    }
    if (failed(RankSimulator(src, grid).run(newName)))
      return signalPassFailure();
  }
};

} // namespace
