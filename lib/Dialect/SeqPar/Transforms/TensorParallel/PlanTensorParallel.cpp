//===- PlanTensorParallel.cpp - unsharded graph to per-rank TP program ----===//
//
// Groups the linears of each function into Megatron blocks (those reading one
// activation), plans each block with TensorParallelPlanner, and rewrites the
// planned values to their per-rank types in place, with an all-reduce after
// each row-parallel linear.
//
//===----------------------------------------------------------------------===//

#include "TensorParallelPlanner.h"

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/Contraction.h"
#include "seqpar/Analysis/KVCache.h"
#include "seqpar/Analysis/SavedForBackward.h"
#include "seqpar/Analysis/SymbolUses.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/RaiseAttention.h"
#include "seqpar/Dialect/SeqPar/Transforms/Cleanup/CleanUp.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/RuntimeCheck.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridContract.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/UnusedInits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir::seqpar {
#define GEN_PASS_DEF_PLANTENSORPARALLEL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// Applies the merged plans of one function.
class TensorParallelRewriter {
public:
  TensorParallelRewriter(func::FuncOp func, FlatSymbolRefAttr grid,
                         int16_t axis, int64_t numRanks)
      : func(func), grid(grid), axis(axis), numRanks(numRanks) {}

  void apply(const TPBlockPlan &plan);

private:
  RankedTensorType localType(Value v, StridedDim s) const {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[s.dim] /= numRanks;
    return type.clone(shape);
  }
  /// The per-rank `type` version of the shape-only value `global` (a
  /// tensor.empty, a fill of one, a splat constant), built once per value
  /// and type, after `global`'s own definition: the linears of a block read
  /// one init, as the graph's own CSE'd inits did, and nothing is left for
  /// a clean-up to merge (docs/benchmarks.md §1).
  Value rebuild(Value global, RankedTensorType type);
  /// Erases the shape-only values every use of which `rebuild` replaced.
  void eraseUnusedRebuiltSources();
  Value sliceLocally(OpBuilder &b, Value global, StridedDim s);
  /// This rank's index along the TP axis, created once at the entry.
  Value getRank();
  /// rank * extent: the first global index of this rank's contiguous chunk
  /// of `extent` (index) elements along a split dim.
  Value getRankOffset(OpBuilder &b, Location loc, Value extent) {
    return arith::MulIOp::create(b, loc, getRank(), extent);
  }
  Value getRankOffset(OpBuilder &b, Location loc, int64_t extent) {
    return getRankOffset(b, loc,
                         arith::ConstantIndexOp::create(b, loc, extent));
  }
  /// Rewrites a gather from a split value (already per-rank) to read this
  /// rank's rows and zero for the others'.
  void maskGather(tensor::ExtractOp extract, StridedDim s);
  /// Values read on split loops are computed whole and sliced; where every
  /// user of the producer is a slice, computes only the slices instead
  /// (the one-hot labels of the cross-entropy backward, the embedding
  /// backward's matmul), through the producers' TilingInterface.
  void computeOnlySlices();
  void updateShapeAttributes(Operation *op, const TPBlockPlan &plan);
  /// The #seqpar.sharding of a value or argument split as `s`.
  ShardingAttr getSharding(StridedDim s) const;

  func::FuncOp func;
  FlatSymbolRefAttr grid;
  int16_t axis;
  int64_t numRanks;
  Value rank;
  SmallVector<tensor::ExtractSliceOp> localSlices;
  llvm::DenseMap<std::pair<Value, Type>, Value> rebuilt;
};

} // namespace

ShardingAttr TensorParallelRewriter::getSharding(StridedDim s) const {
  MLIRContext *ctx = grid.getContext();
  auto unsplit = DimShardingAttr::get(ctx, {}, SplitKind::contiguous, 1, 1);
  SmallVector<DimShardingAttr> dims(s.dim + 1, unsplit);
  dims[s.dim] = DimShardingAttr::get(
      ctx, {axis}, s.outer > 1 ? SplitKind::grouped : SplitKind::contiguous,
      s.outer, 1);
  return ShardingAttr::get(ctx, grid, dims, {});
}

Value TensorParallelRewriter::rebuild(Value global, RankedTensorType type) {
  // Looked up, then stored once built: a fill's init is rebuilt first, and
  // that insertion may move the map's entries.
  if (Value local = rebuilt.lookup({global, type}))
    return local;
  Value local;
  Operation *def = global.getDefiningOp();
  Location loc = def->getLoc();
  // After the global definition, which dominates every op reading it.
  OpBuilder b(def->getContext());
  b.setInsertionPointAfter(def);
  if (isa<tensor::EmptyOp>(def)) {
    local =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  } else if (auto fill = dyn_cast<linalg::FillOp>(def)) {
    Value init = rebuild(fill.getOutputs()[0], type);
    local =
        linalg::FillOp::create(b, loc, fill.getInputs()[0], init).getResult(0);
  } else {
    DenseElementsAttr dense;
    matchPattern(def, m_Constant(&dense));
    local = arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  }
  rebuilt[{global, type}] = local;
  return local;
}

void TensorParallelRewriter::eraseUnusedRebuiltSources() {
  llvm::SetVector<Operation *> sources;
  for (auto &[key, local] : rebuilt)
    sources.insert(key.first.getDefiningOp());
  eraseUnusedInits(sources.getArrayRef());
}

Value TensorParallelRewriter::getRank() {
  if (!rank) {
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    rank = shard::ProcessMultiIndexOp::create(
               b, func.getLoc(), TypeRange{b.getIndexType()}, grid.getValue(),
               ArrayRef<int16_t>{axis})
               .getResult()[0];
  }
  return rank;
}

void TensorParallelRewriter::maskGather(tensor::ExtractOp extract,
                                        StridedDim s) {
  OpBuilder b(extract);
  Location loc = extract.getLoc();
  int64_t chunk = extract.getTensor().getType().getDimSize(s.dim);
  Value rows = arith::ConstantIndexOp::create(b, loc, chunk);
  Value first = getRankOffset(b, loc, rows);
  OpOperand &index = extract.getIndicesMutable()[s.dim];
  // A row outside the whole table (a token id or label out of range) would
  // read 0 on every rank, where the single-device read is out of bounds:
  // keep it an error (docs/runtime-and-run.md, "Run-time checks").
  int64_t tableRows = chunk * numRanks;
  Value inTable = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, index.get(),
      arith::ConstantIndexOp::create(b, loc, tableRows));
  createRuntimeCheck(b, loc, inTable,
                     llvm::formatv("row index outside the {0} rows of the "
                                   "table split over TP ranks (a token id or "
                                   "label out of range)",
                                   tableRows)
                         .str());
  Value local = arith::SubIOp::create(b, loc, index.get(), first);
  // Unsigned: a row before this rank's wraps around and is out of range.
  Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, local,
                                     rows);
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  index.set(arith::SelectOp::create(b, loc, mine, local, zeroIndex));
  b.setInsertionPointAfter(extract);
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(extract.getResult().getType()));
  auto masked =
      arith::SelectOp::create(b, loc, mine, extract.getResult(), zero);
  extract.getResult().replaceAllUsesExcept(masked, masked);
}

void TensorParallelRewriter::computeOnlySlices() {
  OpBuilder b(func.getContext());
  SmallVector<tensor::ExtractSliceOp> worklist(localSlices);
  bool changed = true;
  // A producer read by several slices (an iota under two one-hots) is
  // swapped once its last non-slice user has been.
  while (changed) {
    changed = false;
    SmallVector<tensor::ExtractSliceOp> next;
    for (tensor::ExtractSliceOp slice : worklist) {
      auto producer = slice.getSource().getDefiningOp<TilingInterface>();
      auto result = dyn_cast<OpResult>(slice.getSource());
      bool onlySlices =
          producer && llvm::all_of(producer->getUsers(), [](Operation *user) {
            return isa<tensor::ExtractSliceOp>(user);
          });
      if (!onlySlices || !isa<linalg::LinalgOp>(producer.getOperation())) {
        next.push_back(slice);
        continue;
      }
      b.setInsertionPoint(slice);
      FailureOr<TilingResult> tiled =
          tensor::replaceExtractSliceWithTiledProducer(b, slice, result);
      if (failed(tiled) || tiled->tiledValues.size() != 1) {
        next.push_back(slice);
        continue;
      }
      slice.replaceAllUsesWith(tiled->tiledValues.front());
      slice.erase();
      if (producer->use_empty())
        producer->erase();
      for (Operation *generated : tiled->generatedSlices)
        if (auto s = dyn_cast<tensor::ExtractSliceOp>(generated))
          next.push_back(s);
      changed = true;
    }
    worklist = std::move(next);
  }
}

Value TensorParallelRewriter::sliceLocally(OpBuilder &b, Value global,
                                           StridedDim s) {
  // A grouped dim (outer > 1) is viewed as [outer, extent * inner] so the
  // rank's chunk of every group is one slice.
  auto globalType = cast<RankedTensorType>(global.getType());
  Location loc = global.getLoc();
  int64_t dim = s.dim;
  Value source = global;
  SmallVector<ReassociationIndices> groups;
  if (s.outer > 1) {
    SmallVector<int64_t> shape(globalType.getShape());
    shape[dim] /= s.outer;
    shape.insert(shape.begin() + dim, s.outer);
    for (int64_t d = 0; d < globalType.getRank(); ++d)
      groups.push_back(d < dim    ? ReassociationIndices{d}
                       : d == dim ? ReassociationIndices{d, d + 1}
                                  : ReassociationIndices{d + 1});
    source = tensor::ExpandShapeOp::create(b, loc, globalType.clone(shape),
                                           global, groups);
    ++dim;
  }
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> localShape(sourceType.getShape());
  localShape[dim] /= numRanks;
  SmallVector<OpFoldResult> offsets(sourceType.getRank(), b.getIndexAttr(0));
  offsets[dim] = getRankOffset(b, loc, localShape[dim]);
  SmallVector<OpFoldResult> sizes,
      strides(sourceType.getRank(), b.getIndexAttr(1));
  for (int64_t size : localShape)
    sizes.push_back(b.getIndexAttr(size));
  auto slice = tensor::ExtractSliceOp::create(
      b, loc, sourceType.clone(localShape), source, offsets, sizes, strides);
  localSlices.push_back(slice);
  Value local = slice;
  if (s.outer > 1)
    local = tensor::CollapseShapeOp::create(b, loc, localType(global, s), local,
                                            groups);
  return local;
}

void TensorParallelRewriter::updateShapeAttributes(Operation *op,
                                                   const TPBlockPlan &plan) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    expand.setStaticOutputShape(DenseI64ArrayAttr::get(
        op->getContext(), expand.getResultType().getShape()));
    return;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    // Whole split blocks are inserted: sizes follow the source, an offset
    // along the split dim counts blocks (types are already per-rank).
    StridedDim s = plan.values.lookup(insert.getResult());
    int64_t localBlock = insert.getDestType().getDimSize(s.dim) / s.outer;
    SmallVector<int64_t> offsets(insert.getStaticOffsets());
    offsets[s.dim] = offsets[s.dim] / (localBlock * numRanks) * localBlock;
    insert.setStaticOffsets(offsets);
    insert.setStaticSizes(insert.getSourceType().getShape());
    return;
  }
  auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
  if (!slice)
    return;
  StridedDim s = plan.values.lookup(slice.getSource());
  auto globalSize = [&]() {
    // The source already has its per-rank type: one group is block/t.
    return slice.getSourceType().getDimSize(s.dim) * numRanks / s.outer;
  };
  int64_t block = globalSize();
  int64_t localBlock = block / numRanks;
  SmallVector<int64_t> offsets(slice.getStaticOffsets());
  SmallVector<int64_t> sizes(slice.getStaticSizes());
  offsets[s.dim] = offsets[s.dim] / block * localBlock;
  sizes[s.dim] = sizes[s.dim] / block * localBlock;
  slice.setStaticOffsets(offsets);
  slice.setStaticSizes(sizes);
}

void TensorParallelRewriter::apply(const TPBlockPlan &plan) {
  OpBuilder b(func.getContext());
  llvm::DenseMap<OpOperand *, StridedDim> rebuilt, sliced;
  for (auto [operand, s] : plan.rebuild)
    rebuilt[operand] = s;
  for (auto [operand, s] : plan.slice)
    sliced[operand] = s;

  // Arguments first: ops read them.
  llvm::DenseMap<unsigned, Attribute> argShardings;
  for (auto [value, s] : plan.values) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      continue;
    arg.setType(localType(arg, s));
    argShardings[arg.getArgNumber()] = getSharding(s);
  }
  editArgAttrs(func, [&](unsigned i, NamedAttrList &attrs) {
    if (Attribute sharding = argShardings.lookup(i))
      attrs.set(SeqParDialect::kShardingAttrName, sharding);
  });
  // Split values returned stay split, as Megatron keeps the gradients of
  // split weights (docs/semantics.md §10).
  Operation *returnOp = func.getBody().front().getTerminator();
  editResultAttrs(func, [&](unsigned i, NamedAttrList &attrs) {
    if (auto it = plan.values.find(returnOp->getOperand(i));
        it != plan.values.end())
      attrs.set(SeqParDialect::kShardingAttrName, getSharding(it->second));
  });
  for (Operation &op :
       llvm::make_early_inc_range(func.getBody().front().getOperations())) {
    if (plan.ops.contains(&op)) {
      b.setInsertionPoint(&op);
      for (OpOperand &operand : op.getOpOperands()) {
        if (auto it = rebuilt.find(&operand); it != rebuilt.end())
          operand.set(
              rebuild(operand.get(), localType(operand.get(), it->second)));
        else if (auto it = sliced.find(&operand); it != sliced.end())
          operand.set(sliceLocally(b, operand.get(), it->second));
      }
      // Ops are rewritten in program order, so each source is already local
      // when its users are updated (slices read their source's new type).
      for (OpResult res : op.getResults())
        if (auto it = plan.values.find(res); it != plan.values.end())
          res.setType(localType(res, it->second));
      updateShapeAttributes(&op, plan);
    }
    if (auto it = plan.partial.find(&op); it != plan.partial.end()) {
      b.setInsertionPointAfter(&op);
      Value partial = op.getResult(0);
      auto reduce = shard::AllReduceOp::create(
          b, op.getLoc(), partial.getType(), grid.getValue(),
          ArrayRef<int16_t>{axis}, partial, it->second);
      partial.replaceAllUsesExcept(reduce.getResult(), reduce);
    }
  }
  // The gathered values have their per-rank types by now.
  for (auto [extract, s] : plan.gathers)
    maskGather(extract, s);
  for (auto [op, loopAndExtent] : plan.offsetPositions) {
    auto [loop, extent] = loopAndExtent;
    op->walk([&](linalg::IndexOp index) {
      if (index.getDim() != loop)
        return;
      b.setInsertionPointAfter(index);
      Location loc = index.getLoc();
      auto global =
          arith::AddIOp::create(b, loc, index, getRankOffset(b, loc, extent));
      index.getResult().replaceAllUsesExcept(global, global);
    });
  }
  computeOnlySlices();
  eraseUnusedRebuiltSources();
}

/// What shows `func` already partitioned, or "": an argument its
/// #seqpar.sharding splits (or declares partial), or an op of the shard
/// dialect that only a per-rank program holds (a collective, a rank query;
/// not upstream's shard.sharding / shard.shard annotations, which describe
/// the unsharded graph). Planning such a function again would split what is
/// split and reduce what is reduced: a second all_reduce after each
/// row-parallel linear.
static std::string describePartitioned(func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (ShardingAttr sharding = getArgSharding(func, i);
        sharding && !sharding.isReplicated()) {
      os << "argument #" << i << " is " << sharding;
      return text;
    }
  func.walk([&](Operation *op) {
    // An unregistered op has no dialect.
    if (!isa_and_nonnull<shard::ShardDialect>(op->getDialect()) ||
        isa<shard::ShardingOp, shard::ShardOp>(op))
      return WalkResult::advance();
    os << "it holds '" << op->getName() << "'";
    return WalkResult::interrupt();
  });
  return text;
}

/// Output features of a linear (the size of its feature loop).
static int64_t outputFeatures(linalg::LinalgOp op) {
  unsigned loop;
  TensorParallelPlanner::getLinearWeight(op, loop);
  return op.getStaticLoopRanges()[loop];
}

/// Whether `type` is a one-element float: a loss.
static bool isOneElementFloat(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return isa<FloatType>(type) ||
         (tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
          isa<FloatType>(tensor.getElementType()));
}

/// How the results of a training graph pair with its parameters
/// (docs/training-graphs.md, "Bad input"): exporters and the generator
/// return the loss, then the gradients of the last arguments in order, and
/// maybe more after them (a gradient norm). Fills `gradientArgs` (per
/// result, the argument it is the gradient of, or -1) when results #1-#m
/// have the types of the last m >= 2 arguments, m the number of results
/// after #0 or, results following them, more than half of it. A training graph
/// (SavedForBackward) whose results after #0 would pair so but for some of
/// another type than their parameters' is malformed: a located error. A
/// remark says when the gradients follow a result #0 that is not a
/// one-element float (not read as a loss).
static LogicalResult pairGradients(func::FuncOp func,
                                   SmallVector<int64_t> &gradientArgs) {
  gradientArgs.clear();
  Operation *returnOp = func.getBody().front().getTerminator();
  int64_t numResults = returnOp->getNumOperands();
  int64_t numArgs = func.getNumArguments();
  // Results after the loss; a graph of one parameter is not told apart
  // from a forward graph's two outputs.
  int64_t k = numResults - 1;
  if (k < 2)
    return success();
  TypeRange results = returnOp->getOperandTypes();
  TypeRange args = func.getArgumentTypes();
  // How many of results #1-#m have the types of the last m arguments.
  auto matches = [&](int64_t m) {
    int64_t count = 0;
    for (int64_t i = 1; i <= m; ++i)
      count += results[i] == args[numArgs - m + i - 1];
    return count;
  };
  int64_t paired = 0;
  for (int64_t m = std::min(k, numArgs); 2 * m > k && m >= 2 && !paired; --m)
    if (matches(m) == m)
      paired = m;
  if (!paired) {
    std::string why;
    if (k > numArgs || 2 * matches(k) <= k ||
        failed(analyzeSavedForBackward(func, why)))
      return success();
    for (int64_t i = 1; i <= k; ++i) {
      int64_t arg = numArgs - k + i - 1;
      if (results[i] == args[arg])
        continue;
      return emitError(returnOp->getOperand(i).getLoc())
             << "training graph @" << func.getSymName() << ": result #" << i
             << " (" << results[i]
             << ") is in the place of the gradient of argument #" << arg
             << ", of type " << args[arg] << " (results #1-#" << k
             << " are the gradients of the last " << k
             << " arguments, in order): a gradient has its parameter's type";
    }
    return success();
  }
  if (!isOneElementFloat(results[0]) &&
      isa<FloatType>(getElementTypeOrSelf(results[0])))
    emitRemark(returnOp->getOperand(0).getLoc())
        << "@" << func.getSymName() << " returns the gradients of its last "
        << paired << " arguments after result #0 of type " << results[0]
        << ", which is not a one-element float: it is not read as a "
           "training graph's loss (nothing is saved sharded for its "
           "backward); every result is computed as written";
  gradientArgs.assign(numResults, -1);
  for (int64_t i = 1; i <= paired; ++i)
    gradientArgs[i] = numArgs - paired + i - 1;
  return success();
}

/// The argument of `func` that `value` reads through views and copies
/// (transposes, broadcasts, reshapes, casts, slices: `sliced` says whether
/// a slice was among them), or null. Finds the weights of products the
/// planner does not take, to say why: unlike
/// TensorParallelPlanner::getWeightArgument, which follows only what the
/// planner can split (static unit-stride pieces), it follows any slice.
static BlockArgument readArgument(Value value, func::FuncOp func,
                                  bool &sliced) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == &func.getBody().front() ? arg : nullptr;
    Operation *def = value.getDefiningOp();
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
      sliced = true;
      value = slice.getSource();
    } else if (isa_and_nonnull<linalg::TransposeOp, linalg::BroadcastOp,
                               tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                               tensor::CastOp>(def)) {
      value = def->getOperand(0);
    } else if (auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
               generic && generic.getNumDpsInputs() == 1 &&
               (linalg::isaBroadcastOpInterface(generic) ||
                linalg::isaTransposeOpInterface(generic))) {
      value = generic.getDpsInputOperand(0)->get();
    } else {
      return nullptr;
    }
  }
}

/// Products of an activation and a weight read from an argument that the
/// planner does not take as linears (a weight of rank 3, one sliced with a
/// stride before its product, a product inside a loop), and that no block
/// planned: each gets a remark saying why it stays replicated. Returns their number.
/// `seenWeights`: the weights of the linears the planner took, whose other
/// products (a backward's) it accounts for itself.
static int64_t remarkUntakenLinears(func::FuncOp func,
                                    const TPBlockPlan &merged,
                                    const llvm::DenseSet<Value> &seenWeights) {
  int64_t count = 0;
  func.walk([&](linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op->getNumResults() != 1 || !isLinearContraction(op) ||
        merged.ops.contains(op) || merged.partial.count(op))
      return;
    unsigned featureLoop;
    bool topLevel = op->getParentOp() == func.getOperation();
    if (topLevel && TensorParallelPlanner::getLinearWeight(op, featureLoop))
      return;
    // The weight: the one input read from an argument, the other computed.
    bool sliced[2] = {false, false};
    BlockArgument args[2] = {
        readArgument(op.getDpsInputOperand(0)->get(), func, sliced[0]),
        readArgument(op.getDpsInputOperand(1)->get(), func, sliced[1])};
    if (!args[0] == !args[1])
      return;
    unsigned w = args[0] ? 0 : 1;
    if (seenWeights.contains(args[w]))
      return;
    // A weight shares no parallel loop with the activation (Q.K^T's K does:
    // batch and heads).
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (auto [loop, kind] : llvm::enumerate(op.getIteratorTypesArray()))
      if (kind == utils::IteratorType::parallel &&
          maps[w].isFunctionOfDim(loop) && maps[1 - w].isFunctionOfDim(loop))
        return;
    auto type = cast<RankedTensorType>(args[w].getType());
    // A whole rank-2 weight at the top level is one the planner reads; a
    // product of it that is no linear (no single output-feature loop) is
    // not counted as one.
    if (topLevel && !sliced[w] && type.getRank() == 2)
      return;
    InFlightDiagnostic remark = emitRemark(op.getLoc());
    remark << "linear left replicated: ";
    if (!topLevel)
      remark << "it is inside '" << op->getParentOp()->getName()
             << "' (the planner plans the linears of the function's top "
                "level)";
    else if (sliced[w])
      remark << "its weight is a slice of argument #" << args[w].getArgNumber()
             << " (" << type
             << ") that is not a static, unit-stride piece of the same rank: "
                "the planner splits whole weight arguments and such pieces of "
                "them";
    else
      remark << "its weight (argument #" << args[w].getArgNumber() << ", "
             << type << ") has rank " << type.getRank()
             << ": the planner splits the output features of rank-2 [in, "
                "out] or [out, in] weights";
    ++count;
  });
  return count;
}

/// Plans one block, trying the fused-projection groupings (QKV: 3, gate/up:
/// 2) when a single linear does not close as a plain split. Reports the
/// most telling failure: a divisibility one when there is one.
static std::optional<TPBlockPlan>
planBlock(func::FuncOp func, int64_t numRanks,
          const llvm::DenseSet<Value> &claimed,
          const llvm::DenseSet<Value> &wholeInputs, bool splitReductions,
          bool splitOneHots, ArrayRef<int64_t> gradientArgs,
          const llvm::DenseMap<Value, int64_t> &kvTensors,
          ArrayRef<linalg::LinalgOp> seeds, TPPlanFailure &reported) {
  SmallVector<int64_t> tries = seeds.size() == 1 ? SmallVector<int64_t>{1, 3, 2}
                                                 : SmallVector<int64_t>{1};
  for (int64_t groups : tries) {
    TPPlanFailure why;
    TensorParallelPlanner planner(func, numRanks, claimed, wholeInputs,
                                  splitReductions, splitOneHots,
                                  gradientArgs);
    planner.setKVTensors(&kvTensors);
    FailureOr<TPBlockPlan> attempt = planner.plan(seeds, groups, why);
    if (succeeded(attempt))
      return std::move(*attempt);
    // t not dividing the seeds' features is an error only for a structure
    // the planner recognises (it closes when nothing is divided, as a 6-wide
    // MLP at tp=4); an LM head over a vocabulary t does not divide, or a
    // fused grouping guessed wrong, stays replicated with a remark.
    if (why.divisibility && why.atSeed) {
      TPPlanFailure ignored;
      TensorParallelPlanner structure(func, /*numRanks=*/1, claimed,
                                      wholeInputs, splitReductions,
                                      splitOneHots, gradientArgs);
      structure.setKVTensors(&kvTensors);
      why.divisibility = succeeded(structure.plan(seeds, groups, ignored));
    }
    if (!reported.op || (why.divisibility && !reported.divisibility))
      reported = why;
  }
  return std::nullopt;
}

namespace {

struct PlanTensorParallelPass
    : public seqpar::impl::PlanTensorParallelBase<PlanTensorParallelPass> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (canonicalizeFirst)
      cleanUpPatterns = buildCanonicalizationPatterns(context);
    return success();
  }
  void runOnOperation() override;
  /// Range checks of the options, before any IR is read or created.
  LogicalResult checkOptions();
  LogicalResult getGrid(FlatSymbolRefAttr &grid, int64_t &numRanks);
  LogicalResult planFunction(func::FuncOp func, FlatSymbolRefAttr grid,
                             int64_t numRanks);

  /// With `canonicalize-first`: the clean-up's patterns.
  std::shared_ptr<const FrozenRewritePatternSet> cleanUpPatterns;
};

} // namespace

LogicalResult PlanTensorParallelPass::checkOptions() {
  Location loc = getOperation().getLoc();
  if (tp < 0)
    return emitError(loc) << "tensor parallelism: tp=" << tp.getValue()
                          << " is not a TP size: expected tp >= 1, or 0 (the "
                             "default) for the size of the grid axis";
  if (gridAxis < 0)
    return emitError(loc) << "tensor parallelism: grid-axis="
                          << gridAxis.getValue()
                          << " is not a grid axis: expected an axis >= 0";
  if (cp < 0)
    return emitError(loc) << "tensor parallelism: cp=" << cp.getValue()
                          << " is not a context-parallel size: expected cp "
                             ">= 1 for the TP x CP grid, or 0 (the default)";
  if (cp == 0 && cpUlysses != 1)
    return emitError(loc) << "tensor parallelism: cp-ulysses="
                          << cpUlysses.getValue()
                          << " without cp: the Ulysses size is one of the "
                             "TP x CP grid's (give cp >= 1)";
  if (cp > 0 && gridAxis != GridContract::kTensorAxis)
    return emitError(loc) << "tensor parallelism: grid-axis="
                          << gridAxis.getValue() << " with cp=" << cp.getValue()
                          << ": the TP x CP grid has TP on axis "
                          << GridContract::kTensorAxis;
  if (raiseBackward && !raiseAttention)
    return emitError(loc) << "tensor parallelism: raise-backward=true without "
                             "raise-attention=true: a backward is raised with "
                             "its attention";
  return success();
}

LogicalResult PlanTensorParallelPass::getGrid(FlatSymbolRefAttr &grid,
                                              int64_t &numRanks) {
  ModuleOp module = getOperation();
  shard::GridOp gridOp;
  if (cp > 0) {
    bool created = false;
    FailureOr<shard::GridOp> contract =
        GridContract{tp, cp, cpUlysses}.lookupOrCreate(module, created,
                                                       gridName);
    if (failed(contract))
      return failure();
    gridOp = *contract;
  } else if (Operation *symbol =
                 SymbolTable::lookupSymbolIn(module, gridName)) {
    // Another symbol of that name: a grid made beside it would be a
    // redefinition the verifier reports only after planning.
    gridOp = dyn_cast<shard::GridOp>(symbol);
    if (!gridOp)
      return emitError(symbol->getLoc())
             << "tensor parallelism: @" << gridName << " is a '"
             << symbol->getName() << "', not a shard.grid";
  }
  if (!gridOp) {
    if (tp < 1)
      return emitError(module.getLoc())
             << "no shard.grid @" << gridName << ": give the TP size (tp=N)";
    // A TP-only grid; seqpar-create-grid makes the TP x CP one.
    gridOp = GridContract{tp}.create(module, gridName);
  }
  if (gridAxis >= gridOp.getRank())
    return emitError(gridOp.getLoc()) << "grid axis " << gridAxis.getValue()
                                      << " is out of range for @" << gridName;
  numRanks = gridOp.getShape()[gridAxis];
  if (ShapedType::isDynamic(numRanks) || numRanks < 1)
    return emitError(gridOp.getLoc())
           << "axis " << gridAxis.getValue() << " of @" << gridName
           << " has a dynamic size: the TP axis needs a static size";
  if (tp > 0 && numRanks != tp)
    return emitError(gridOp.getLoc())
           << "tp=" << tp.getValue() << " but axis " << gridAxis.getValue()
           << " of @" << gridName << " has " << numRanks << " ranks";
  grid = FlatSymbolRefAttr::get(gridOp.getSymNameAttr());
  return success();
}

LogicalResult PlanTensorParallelPass::planFunction(func::FuncOp func,
                                                   FlatSymbolRefAttr grid,
                                                   int64_t numRanks) {
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor && !tensor.hasStaticShape())
      return emitError(func.getLoc())
             << "argument " << i << " of @" << func.getSymName() << " has type "
             << type
             << ": the planner needs static shapes (each split and its "
                "collectives are sized at compile time); export with a fixed "
                "batch and sequence length";
  }
  if (!func.getBody().hasOneBlock())
    return emitError(func.getLoc())
           << "@" << func.getSymName() << " has control flow; plan one block";
  // A function of tensors that returns nothing and has no effect computes
  // nothing (CSE has removed its ops before the pipeline plans it); one
  // with effects (a timer, a helper) is left as it is.
  if (func.getNumResults() == 0 &&
      llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<RankedTensorType>) &&
      llvm::all_of(func.getBody().front().without_terminator(),
                   [](Operation &op) { return isMemoryEffectFree(&op); }))
    return emitError(func.getLoc())
           << "@" << func.getSymName()
           << " returns nothing: a training graph returns its loss and the "
              "gradients of its parameters, a forward graph its outputs; "
              "there is nothing to plan";
  SmallVector<int64_t> gradientArgs;
  if (failed(pairGradients(func, gradientArgs)))
    return failure();
  // K/V results that may stay split over heads, read before any rewrite.
  llvm::DenseMap<Value, int64_t> kvTensors =
      TensorParallelPlanner::findKVTensors(func);
  SmallVector<BlockArgument> kvCaches = findKVCacheArguments(func);

  // Linears grouped by the activation they read, in program order. Only a
  // weight's first linear seeds a block: in a training graph the later ones
  // are its backward (the input gradient dY . W), planned with the forward
  // linear whose split they follow, or left as they are with it.
  llvm::MapVector<Value, SmallVector<linalg::LinalgOp>> groups;
  llvm::DenseSet<Value> seenWeights, wholeInputs;
  for (auto op : func.getBody().front().getOps<linalg::LinalgOp>()) {
    unsigned loop;
    OpOperand *weight = TensorParallelPlanner::getLinearWeight(op, loop);
    if (!weight)
      continue;
    // The pieces of a fused weight are the weights of separate linears.
    Value piece;
    Value arg = TensorParallelPlanner::getWeightArgument(weight->get(), &piece);
    if (!seenWeights.insert(piece ? piece : arg).second)
      continue;
    Value input = op.getDpsInputOperand(1 - weight->getOperandNumber())->get();
    groups[TensorParallelPlanner::getActivationRoot(input)].push_back(op);
    wholeInputs.insert(input);
    wholeInputs.insert(TensorParallelPlanner::getActivationRoot(input));
  }

  TPBlockPlan merged;
  llvm::DenseSet<Value> claimed;
  int64_t blocks = 0, columns = 0, rows = 0, replicated = 0;
  int64_t reductionsAndGathers = 0;
  auto isPlanned = [&](Value input, ArrayRef<linalg::LinalgOp> seeds) {
    return claimed.contains(input) ||
           llvm::any_of(seeds, [&](linalg::LinalgOp op) {
             return merged.ops.contains(op) || merged.partial.count(op);
           });
  };
  auto merge = [&](const TPBlockPlan &plan) {
    ++blocks;
    for (auto [op, kind] : plan.partial) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (linalgOp && isLinearContraction(linalgOp))
        ++rows;
      else
        ++reductionsAndGathers;
    }
    for (auto [value, s] : plan.values) {
      claimed.insert(value);
      merged.values.insert({value, s});
    }
    merged.ops.insert(plan.ops.begin(), plan.ops.end());
    for (auto [op, kind] : plan.partial)
      merged.partial.insert({op, kind});
    for (auto [op, position] : plan.offsetPositions)
      merged.offsetPositions.insert({op, position});
    llvm::append_range(merged.gathers, plan.gathers);
    llvm::append_range(merged.rebuild, plan.rebuild);
    llvm::append_range(merged.slice, plan.slice);
  };
  // Plans the block of `seeds`; on success merges it and may drop K/V
  // seeds from `seeds`.
  auto planGroup = [&](SmallVector<linalg::LinalgOp> &seeds,
                       bool splitReductions, bool splitOneHots,
                       TPPlanFailure &reported) {
    std::optional<TPBlockPlan> plan =
        planBlock(func, numRanks, claimed, wholeInputs, splitReductions,
                  splitOneHots, gradientArgs, kvTensors, seeds, reported);
    // GQA with fewer KV heads than ranks (a_kv < t): the KV projections stay
    // replicated and attention reads its ranks' KV heads by local slices.
    // (MQA: a K/V of one head is never split into heads, so the failure is
    // wherever its features meet Q's heads, not a divisibility one.)
    SmallVector<linalg::LinalgOp> kept(seeds), dropped;
    SmallVector<int64_t> widths;
    for (linalg::LinalgOp seed : seeds)
      widths.push_back(outputFeatures(seed));
    llvm::sort(widths);
    widths.erase(llvm::unique(widths), widths.end());
    if (!plan && seeds.size() > 1) {
      // The narrowest linears first, then the next narrowest, until one
      // width is left: Falcon's parallel block reads its LayerNorm output by
      // Q, the MQA K and V (once seqpar-split-fused-projections split its
      // fused QKV) and the MLP's first linear, and only K and V stay whole.
      TPPlanFailure retry;
      for (int64_t narrowest : ArrayRef<int64_t>(widths).drop_back()) {
        kept.clear();
        dropped.clear();
        for (linalg::LinalgOp seed : seeds)
          (outputFeatures(seed) > narrowest ? kept : dropped).push_back(seed);
        retry = TPPlanFailure();
        plan = planBlock(func, numRanks, claimed, wholeInputs,
                         splitReductions, splitOneHots, gradientArgs,
                         kvTensors, kept, retry);
        if (plan)
          break;
      }
      // The retry is the planner's answer to a K/V head count t does not
      // divide; where it fails too (the backward of GQA sums each K/V
      // head's gradient over query heads that t splits across K/V heads)
      // the block stays replicated, as a block of any other structure.
      if (!plan && !dropped.empty()) {
        reported = retry;
        reported.divisibility = false;
      }
    }
    if (!plan)
      return false;
    int64_t narrowestKept = std::numeric_limits<int64_t>::max();
    for (linalg::LinalgOp seed : kept)
      narrowestKept = std::min(narrowestKept, outputFeatures(seed));
    for (linalg::LinalgOp seed : dropped)
      emitRemark(seed.getLoc())
          << "linear left replicated (its " << outputFeatures(seed)
          << " output features are narrower than the " << narrowestKept
          << " of the linears reading the same activation, as GQA/MQA K/V "
             "projections whose heads are not split): "
          << reported.reason
          << "; the block reads this rank's part of its output by local slices";
    replicated += dropped.size();
    seeds = kept;
    columns += seeds.size();
    merge(*plan);
    return true;
  };

  // First the Megatron blocks of attention and MLPs, which close at
  // row-parallel linears; then, for the linears left, blocks that also close
  // at reductions over the split dim and gathers along it (the
  // vocab-parallel LM head and cross-entropy, with a tied embedding), which
  // may not split any linear's input: a split that reaches the residual
  // stream (an o_proj whose attention stayed replicated) would shard the
  // hidden dim of the whole network instead.
  SmallVector<std::pair<Value, TPPlanFailure>> deferred;
  for (auto &[input, seeds] : groups) {
    if (isPlanned(input, seeds))
      continue;
    TPPlanFailure reported;
    if (planGroup(seeds, /*splitReductions=*/false, /*splitOneHots=*/false,
                  reported))
      continue;
    if (reported.divisibility)
      return emitError(reported.op->getLoc())
             << "tensor parallelism: " << reported.reason;
    deferred.push_back({input, reported});
  }
  for (auto &[input, reported] : deferred) {
    SmallVector<linalg::LinalgOp> &seeds = groups[input];
    if (isPlanned(input, seeds))
      continue;
    // With the backward's one-hots split too where they close; else with
    // them computed whole and sliced.
    TPPlanFailure withOneHots, second;
    if (planGroup(seeds, /*splitReductions=*/true, /*splitOneHots=*/true,
                  withOneHots) ||
        planGroup(seeds, /*splitReductions=*/true, /*splitOneHots=*/false,
                  second))
      continue;
    // The Megatron block's reason where the split reached the residual
    // stream; otherwise why the split could not close at reductions.
    if (!second.splitsWholeInput)
      reported = second;
    emitRemark(seeds.front().getLoc())
        << (seeds.size() > 1 ? llvm::Twine(seeds.size()) +
                                   " linears reading this activation"
                             : llvm::Twine("linear"))
        << " left replicated: '" << reported.op->getName().getStringRef()
        << "' at " << reported.op->getLoc() << " " << reported.reason;
    replicated += seeds.size();
  }

  // Embedding tables no linear reads (untied from the LM head), gathered at
  // ids the caller passes: split on their rows.
  int64_t tables = 0;
  for (BlockArgument table : func.getArguments()) {
    Operation *gather = nullptr;
    std::string whyNot;
    std::optional<int64_t> dim =
        TensorParallelPlanner::getGatheredDim(table, gather, whyNot);
    if (claimed.contains(table))
      continue;
    if (!dim) {
      if (!whyNot.empty())
        emitRemark(gather->getLoc())
            << "embedding table (argument #" << table.getArgNumber()
            << ") left replicated: " << whyNot;
      continue;
    }
    std::optional<TPBlockPlan> plan;
    for (bool splitOneHots : {true, false}) {
      TPPlanFailure why;
      TensorParallelPlanner planner(func, numRanks, claimed, wholeInputs,
                                    /*splitReductions=*/true, splitOneHots,
                                    gradientArgs);
      planner.setKVTensors(&kvTensors);
      FailureOr<TPBlockPlan> attempt =
          planner.planTable(table, *dim, gather, why);
      if (succeeded(attempt)) {
        plan = std::move(*attempt);
        break;
      }
      if (!splitOneHots)
        emitRemark(gather->getLoc())
            << "embedding table (argument #" << table.getArgNumber()
            << ") left replicated: '" << why.op->getName().getStringRef()
            << "' at " << why.op->getLoc() << " " << why.reason;
    }
    if (!plan)
      continue;
    ++tables;
    merge(*plan);
  }

  // A KV cache whose update the planner did not split over heads (t does
  // not divide a_kv: its K/V projection stays replicated) stays whole on
  // every TP rank, which reads its heads by local slices (docs/decode.md).
  if (numRanks > 1)
    for (BlockArgument cache : kvCaches) {
      auto type = dyn_cast<RankedTensorType>(cache.getType());
      if (merged.values.count(cache) || !type || type.getRank() != 4)
        continue;
      Location loc = cache.use_empty()
                         ? func.getLoc()
                         : cache.getUsers().begin()->getLoc();
      emitRemark(loc) << "KV cache (argument #" << cache.getArgNumber() << ", "
                      << cache.getType() << ") kept whole over TP axis "
                      << gridAxis.getValue()
                      << ": the K/V heads written into it are not split over "
                         "the "
                      << numRanks
                      << " ranks (their projection, if any, stays "
                         "replicated), so every TP rank holds all "
                      << type.getDimSize(1) << " of its heads";
    }
  replicated += remarkUntakenLinears(func, merged, seenWeights);
  TensorParallelRewriter(func, grid, static_cast<int16_t>(gridAxis.getValue()),
                         numRanks)
      .apply(merged);
  setMissingShardings(func,
                      ShardingAttr::getReplicated(func.getContext(), grid));
  Operation *returnOp = func.getBody().front().getTerminator();
  func.setType(FunctionType::get(func.getContext(),
                                 func.getBody().getArgumentTypes(),
                                 returnOp->getOperandTypes()));
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "tensor parallelism (tp=" << numRanks << "): " << blocks << " blocks, "
      << columns << " column-parallel and " << rows << " row-parallel linears, "
      << replicated << " linears left replicated";
  if (reductionsAndGathers)
    remark << "; " << reductionsAndGathers
           << " reductions over split dims and gathers along them (the "
              "vocab-parallel cross-entropy and embedding)";
  if (tables)
    remark << "; " << tables << " embedding tables split on their rows";
  numBlocks += blocks;
  numColumnParallel += columns;
  numRowParallel += rows;
  numReplicated += replicated;
  return success();
}

void PlanTensorParallelPass::runOnOperation() {
  FlatSymbolRefAttr grid;
  int64_t numRanks = 0;
  if (failed(checkOptions()) || failed(getGrid(grid, numRanks)))
    return signalPassFailure();
  // The clean-up the planner's input gets anyway, here rather than in a
  // pass before: the module is then verified once for both
  // (docs/benchmarks.md §1).
  if (cleanUpPatterns)
    (void)canonicalizeAndCSE(getOperation(), *cleanUpPatterns);
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    if (func.isExternal() || diagnoseBufferForm(func, getArgument()))
      continue;
    // Changing a callee's signature would break its callers (the pipeline
    // inlines helpers first).
    if (isSymbolReferenced(func, getOperation())) {
      emitRemark(func.getLoc())
          << "@" << func.getSymName()
          << " has call sites: left unplanned (inline it first)";
      continue;
    }
    if (std::string why = describePartitioned(func); !why.empty()) {
      emitRemark(func.getLoc())
          << "@" << func.getSymName() << " is already partitioned (" << why
          << "): left unplanned (plan the unsharded graph)";
      continue;
    }
    if (failed(planFunction(func, grid, numRanks)))
      return signalPassFailure();
  }
  // Attention raised on the per-rank program here rather than by
  // seqpar-raise-attention after: one verification for both
  // (docs/benchmarks.md §1). Function by function, as that pass runs
  // nested on func.func: the module's own functions, in order.
  if (!raiseAttention)
    return;
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    RaisedAttention raised = seqpar::raiseAttention(func, raiseBackward);
    numAttentionRaised += raised.forward;
    numAttentionBackwardRaised += raised.backward;
  }
}
