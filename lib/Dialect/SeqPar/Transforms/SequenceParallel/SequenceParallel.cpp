//===- SequenceParallel.cpp - TP program -> Megatron TP+SP program --------===//
//
// Plan: every sum all-reduce over the TP axis whose result carries the
// sequence is a root. The token-wise ops that consume roots (transitively)
// and have no TP-sharded operand form sequence-sharded regions; regions that
// share an op are one component. A component is kept (its all-reduces stay)
// when it reaches an op without a token-wise rule, or when it has no token-
// wise op at all. Rewrite: root -> reduce_scatter; region ops on s/t tokens
// (replicated sequence-indexed operands sliced locally, positions offset);
// all_gather before each use outside the region.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Analysis/BufferForm.h"
#include "seqpar/Analysis/SeqDimChoice.h"
#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/GridAxis.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::seqpar {
#define GEN_PASS_DEF_SEQUENCEPARALLEL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"
} // namespace mlir::seqpar

using namespace mlir;
using namespace mlir::seqpar;

namespace {

/// What the planner decided for one op that consumes a sharded value.
enum class Placement {
  /// Token-wise: runs on the shard.
  Region,
  /// Reduces over the sequence with a sum/max/min combiner: reduces the
  /// shard, then an all-reduce over the TP axis combines the partial results.
  PartialReduction,
  /// Mixes tokens or has a TP-sharded operand: gets an all-gather first.
  NeedsAllTokens,
  /// Nothing can be proven: the component keeps its all-reduces.
  Unprovable
};

/// A linalg reduction over the sequence computed on shards.
struct PartialReduction {
  unsigned component;
  shard::ReductionKind kind;
  /// The sequence loop's layout in the operands (inner stride, outer extent).
  SeqDim seq;
  int64_t outer;
};

/// One connected set of sequence-sharded ops.
struct Component {
  SmallVector<shard::AllReduceOp> roots;
  SmallVector<BlockArgument> args;
  unsigned numRegionOps = 0;
  Operation *blocker = nullptr;
  std::string blockerReason;
  Operation *firstBoundary = nullptr;
  std::string firstBoundaryReason;
};

class SequenceParallelPlan {
public:
  SequenceParallelPlan(func::FuncOp func, TokenWiseAnalysis &analysis,
                       FlatSymbolRefAttr grid, int16_t axis, bool inputSharded)
      : func(func), analysis(analysis), grid(grid), axis(axis),
        inputSharded(inputSharded) {}

  void build();

  func::FuncOp func;
  TokenWiseAnalysis &analysis;
  FlatSymbolRefAttr grid;
  int16_t axis;
  bool inputSharded;
  /// Off when the sequence is padded: padding tokens must not be reduced.
  bool allowPartialReductions = true;

  /// Values whose per-rank form depends on the TP rank.
  DenseSet<Value> tpLocal;
  /// Roots and sharded arguments, by component id before merging.
  SmallVector<Component> components;
  llvm::EquivalenceClasses<unsigned> merged;
  /// Sharded value -> component id.
  llvm::MapVector<Value, unsigned> shardedValues;
  /// Region op -> component id.
  llvm::MapVector<Operation *, unsigned> regionOps;
  /// Reductions over the sequence computed on shards.
  llvm::MapVector<Operation *, PartialReduction> reductionOps;
  /// All candidate roots, including those without a sequence dim.
  SmallVector<shard::AllReduceOp> allRoots;

  bool isRoot(shard::AllReduceOp op) const;
  unsigned leader(unsigned id) const { return merged.getLeaderValue(id); }

private:
  void computeTpLocal();
  bool usesTpLocal(Operation *op) const;
  Placement place(Operation *op, std::string &reason) const;
  void finalize();
};

/// Whether `sharding` can describe dim `dim` split further over one more
/// grid axis (only contiguous splits compose).
static bool canSplitFurther(ShardingAttr sharding, int64_t dim) {
  DimShardingAttr split = sharding.getDimSharding(dim);
  return !split || split.getKind() == SplitKind::contiguous;
}

bool SequenceParallelPlan::isRoot(shard::AllReduceOp op) const {
  return op.getGrid() == grid.getValue() &&
         op.getGridAxes() == ArrayRef<int16_t>{axis} &&
         op.getReduction() == shard::ReductionKind::Sum &&
         isa<RankedTensorType>(op.getInput().getType()) &&
         op.getInput().getType() == op.getResult().getType();
}

void SequenceParallelPlan::computeTpLocal() {
  for (BlockArgument arg : func.getArguments()) {
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    if (sharding && sharding.usesAxis(axis))
      tpLocal.insert(arg);
  }
  for (Operation &op : func.getBody().front()) {
    // A rank index is TP-local unless it only reads other axes (the CP
    // rank of a TP x CP program is the same on every TP rank).
    bool local = isa<shard::ProcessLinearIndexOp>(op);
    if (auto index = dyn_cast<shard::ProcessMultiIndexOp>(op))
      local = index.getAxes().empty() ||
              llvm::is_contained(index.getAxes(), axis);
    for (Value operand : op.getOperands())
      local |= tpLocal.contains(operand);
    visitUsedValuesDefinedAbove(op.getRegions(), [&](OpOperand *use) {
      local |= tpLocal.contains(use->get());
    });
    // Collectives over the TP axis make their result the same on every rank.
    if (auto reduce = dyn_cast<shard::AllReduceOp>(op))
      local &= !llvm::is_contained(reduce.getGridAxes(), axis);
    if (auto gather = dyn_cast<shard::AllGatherOp>(op))
      local &= !llvm::is_contained(gather.getGridAxes(), axis);
    if (local)
      for (Value result : op.getResults())
        tpLocal.insert(result);
  }
}

bool SequenceParallelPlan::usesTpLocal(Operation *op) const {
  bool local = llvm::any_of(op->getOperands(), [&](Value operand) {
    return tpLocal.contains(operand);
  });
  visitUsedValuesDefinedAbove(op->getRegions(), [&](OpOperand *use) {
    local |= tpLocal.contains(use->get());
  });
  return local;
}

/// The cross-rank combiner of a single-result linalg reduction whose body
/// yields `combine(out, f(ins))`, with `out` used only there.
static std::optional<shard::ReductionKind> getCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op->getNumRegions() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument out = body->getArgument(op.getNumDpsInputs());
  if (!yield || yield->getNumOperands() != 1 || !out.hasOneUse())
    return std::nullopt;
  Operation *combine = yield->getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != body ||
      combine->getNumOperands() != 2 ||
      (combine->getOperand(0) == out) == (combine->getOperand(1) == out))
    return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(combine))
    return shard::ReductionKind::Sum;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(combine))
    return shard::ReductionKind::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(combine))
    return shard::ReductionKind::Min;
  return std::nullopt;
}

/// Decides whether `op`, which uses a sharded value, runs on the shard.
Placement SequenceParallelPlan::place(Operation *op,
                                      std::string &reason) const {
  if (isa<func::ReturnOp>(op)) {
    reason = "returns it";
    return Placement::NeedsAllTokens;
  }
  if (isa<shard::ShardDialect>(op->getDialect())) {
    reason = "is a collective";
    return Placement::NeedsAllTokens;
  }
  const TokenWiseInfo &info = analysis.getInfo(op);
  if (info.kind == TokenWiseInfo::Kind::Unknown) {
    reason = info.reason;
    return Placement::Unprovable;
  }
  if (!isMemoryEffectFree(op)) {
    reason = "has memory effects";
    return Placement::Unprovable;
  }
  bool reduces = allowPartialReductions && info.reducesSequence &&
                 isa<linalg::LinalgOp>(op) &&
                 getCombiner(cast<linalg::LinalgOp>(op));
  if (!info.isTokenWise() && !reduces) {
    reason = "mixes tokens: " + info.reason;
    return Placement::NeedsAllTokens;
  }
  if (usesTpLocal(op)) {
    reason = "has an operand sharded or partial over the TP axis";
    return Placement::NeedsAllTokens;
  }
  // Every result must have a static, non-empty shape and (unless reduced)
  // keep the sequence.
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0 ||
        (!reduces && !analysis.getSeqDim(result))) {
      reason = "has a result of dynamic, empty or unsupported shape";
      return Placement::NeedsAllTokens;
    }
  }
  // Sequence-indexed operands that are not sharded are sliced locally.
  for (auto [index, dim] : llvm::enumerate(info.operandDims)) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(index).getType());
    if (dim >= 0 && (!type || type.isDynamicDim(dim))) {
      reason = "has a dynamic sequence-indexed operand";
      return Placement::NeedsAllTokens;
    }
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (!expand.getOutputShape().empty()) {
      reason = "has a dynamic output shape";
      return Placement::NeedsAllTokens;
    }
  }
  if (isa<tosa::ReshapeOp>(op)) {
    reason = "is a tosa.reshape, whose shape operand is not rewritten (the "
             "seqpar-sp-pipeline lowers tosa first)";
    return Placement::NeedsAllTokens;
  }
  if (auto dropout = dyn_cast<DropoutOp>(op)) {
    SeqDim seq = *analysis.getSeqDim(dropout.getInput());
    if (analysis.getOuter(dropout.getInput(), seq) != 1) {
      reason = "a dropout whose sequence is flattened into a larger dim: "
               "a shard is not a box of the global tensor, so the mask "
               "cannot be keyed by position";
      return Placement::Unprovable;
    }
  }
  return reduces ? Placement::PartialReduction : Placement::Region;
}

void SequenceParallelPlan::build() {
  computeTpLocal();
  auto newComponent = [&](Value value) {
    unsigned id = components.size();
    components.emplace_back();
    merged.insert(id);
    shardedValues[value] = id;
    return id;
  };
  if (inputSharded) {
    for (BlockArgument arg : func.getArguments()) {
      std::optional<SeqDim> seq = analysis.getSeqDim(arg);
      ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
      if (seq && seq->inner == 1 && !tpLocal.contains(arg) &&
          (!sharding || canSplitFurther(sharding, seq->dim)))
        components[newComponent(arg)].args.push_back(arg);
    }
  }
  for (Operation &op : func.getBody().front()) {
    if (auto reduce = dyn_cast<shard::AllReduceOp>(op); reduce && isRoot(reduce)) {
      allRoots.push_back(reduce);
      auto type = cast<RankedTensorType>(reduce.getType());
      if (analysis.getSeqDim(reduce.getResult()) && type.hasStaticShape() &&
          type.getNumElements() > 0)
        components[newComponent(reduce.getResult())].roots.push_back(reduce);
      continue;
    }
    SmallVector<unsigned> ids;
    for (Value operand : op.getOperands()) {
      auto it = shardedValues.find(operand);
      if (it != shardedValues.end())
        ids.push_back(it->second);
    }
    std::string reason;
    if (ids.empty())
      continue;
    Placement placement = place(&op, reason);
    if (placement != Placement::Region &&
        placement != Placement::PartialReduction)
      continue;
    for (unsigned id : ids)
      merged.unionSets(ids.front(), id);
    if (placement == Placement::PartialReduction) {
      const TokenWiseInfo &info = analysis.getInfo(&op);
      auto linalgOp = cast<linalg::LinalgOp>(op);
      for (auto [index, dim] : llvm::enumerate(info.operandDims)) {
        std::optional<SeqDim> seq = analysis.getSeqDim(op.getOperand(index));
        if (dim < 0 || !seq)
          continue;
        reductionOps[&op] = PartialReduction{
            ids.front(), *getCombiner(linalgOp), *seq,
            analysis.getOuter(op.getOperand(index), *seq)};
        break;
      }
      continue;
    }
    regionOps[&op] = ids.front();
    for (Value result : op.getResults())
      shardedValues[result] = ids.front();
  }
  finalize();
}

/// Finds, for each component, the first use outside the region and any use
/// by an op nothing can be proven about; blocked and empty components are
/// dropped from the plan.
void SequenceParallelPlan::finalize() {
  Block &body = func.getBody().front();
  for (auto &[value, id] : shardedValues) {
    Component &component = components[leader(id)];
    for (OpOperand &use : value.getUses()) {
      Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      if (user == use.getOwner() &&
          (regionOps.count(user) || reductionOps.count(user)))
        continue;
      std::string reason;
      if (user != use.getOwner()) {
        reason = "uses the value inside a nested region";
      } else if (place(user, reason) != Placement::Unprovable) {
        if (!component.firstBoundary ||
            user->isBeforeInBlock(component.firstBoundary)) {
          component.firstBoundary = user;
          component.firstBoundaryReason = reason;
        }
        continue;
      }
      if (!component.blocker) {
        component.blocker = user;
        component.blockerReason = reason;
      }
    }
  }
  // A root's partial-sum input computed on sequence shards means an op the
  // analysis took as TP-replicated is TP-local (typically a TP-split weight
  // without #seqpar.sharding): nothing about that region can be trusted.
  for (const Component &component : components)
    for (shard::AllReduceOp root : component.roots) {
      auto input = shardedValues.find(root.getInput());
      if (input == shardedValues.end() ||
          isa<BlockArgument>(root.getInput()))
        continue;
      Component &culprit = components[leader(input->second)];
      if (!culprit.blocker) {
        culprit.blocker = root;
        culprit.blockerReason =
            "its partial-sum input would be computed on sequence shards; an "
            "operand on its path is probably TP-sharded without a "
            "#seqpar.sharding attribute";
      }
    }
  for (auto &[op, id] : regionOps)
    ++components[leader(id)].numRegionOps;
  for (auto &[op, reduction] : reductionOps)
    ++components[leader(reduction.component)].numRegionOps;
  for (unsigned id = 0; id < components.size(); ++id) {
    if (leader(id) == id)
      continue;
    Component &into = components[leader(id)];
    llvm::append_range(into.roots, components[id].roots);
    llvm::append_range(into.args, components[id].args);
  }
  auto dropped = [&](unsigned id) {
    const Component &component = components[leader(id)];
    return component.blocker ||
           (component.numRegionOps == 0 && component.args.empty());
  };
  regionOps.remove_if([&](auto &entry) { return dropped(entry.second); });
  reductionOps.remove_if(
      [&](auto &entry) { return dropped(entry.second.component); });
  shardedValues.remove_if(
      [&](auto &entry) { return dropped(entry.second); });
}

struct SequenceParallelPass
    : public mlir::seqpar::impl::SequenceParallelBase<SequenceParallelPass> {
  using SequenceParallelBase::SequenceParallelBase;
  void runOnOperation() override;

private:
  LogicalResult runOnFunction(func::FuncOp func);

  /// Functions with TP all-reduces but no sequence dim, and why (see
  /// runOnOperation).
  SmallVector<std::pair<func::FuncOp, std::string>> functionsWithoutSeqDim;
  bool anyFunctionWithSeqDim = false;
  void rewrite(func::FuncOp func, SequenceParallelPlan &plan,
               SequenceShardBuilder &builder, int64_t numRanks,
               bool keepSignature);
  void rewritePartialReduction(Operation *op,
                               const PartialReduction &reduction,
                               SequenceParallelPlan &plan,
                               SequenceShardBuilder &builder,
                               DenseSet<Value> &localValues);
};

void SequenceParallelPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Options first, before any IR is read.
  for (const std::string &why : {whyInvalidAxisOption("grid-axis", gridAxis),
                                 whyInvalidSeqDimOption(seqDim)}) {
    if (why.empty())
      continue;
    emitError(module.getLoc()) << "sequence-parallel: " << why;
    return signalPassFailure();
  }
  bool anyBody = false, anyAllReduce = false, anyBufferForm = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    anyBody |= !func.getBody().empty();
    anyBufferForm |= findBufferFormOp(func) != nullptr;
    func.walk([&](shard::AllReduceOp) { anyAllReduce = true; });
  }
  if (!anyBody) {
    emitError(module.getLoc())
        << "sequence-parallel: the module has no function with a body";
    return signalPassFailure();
  }
  // Nothing to rewrite: a TP per-rank program has all-reduces on a grid
  // (buffer-form functions are reported below, one by one).
  if (!anyAllReduce && !inputSharded && !anyBufferForm) {
    if (module.getOps<shard::GridOp>().empty()) {
      emitError(module.getLoc())
          << "sequence-parallel: the module has no shard.grid and no "
             "all_reduce: it is not a tensor-parallel per-rank program "
             "(seqpar-pipeline partitions an unsharded graph)";
      return signalPassFailure();
    }
    emitRemark(module.getLoc())
        << "sequence-parallel: no function has an all_reduce to rewrite";
    return;
  }
  functionsWithoutSeqDim.clear();
  anyFunctionWithSeqDim = false;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (failed(runOnFunction(func)))
      return signalPassFailure();
  // TP all-reduces in functions without a sequence dim.
  if (failed(reportFunctionsWithoutSeqDim(
          "sequence-parallel", functionsWithoutSeqDim, anyFunctionWithSeqDim)))
    signalPassFailure();
}

/// "dim 0 of 'tensor<30x64xf32>', which flattens 2 sequences of 15 tokens":
/// where `value` holds the sequence, saying so when the dim holds more than
/// the sequence (an [b*s, h] or [s*b, h] view).
static std::string describeSeqDim(Value value, SeqDim seq,
                                  const TokenWiseAnalysis &analysis) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "dim " << seq.dim << " of '" << value.getType() << "'";
  int64_t outer = analysis.getOuter(value, seq);
  if (outer == 1 && seq.inner == 1)
    return text;
  os << ", which flattens ";
  if (outer > 1)
    os << outer << " sequences of ";
  os << analysis.getSeqLen() << " tokens";
  if (seq.inner > 1)
    os << " of " << seq.inner << " rows each";
  return text;
}

/// Reports TP all-reduces the rewrite does not see: only the top level of a
/// single-block function is rewritten.
static void remarkOnNestedAllReduces(func::FuncOp func, bool wholeFunction) {
  func.walk([&](shard::AllReduceOp reduce) {
    if (!wholeFunction && reduce->getParentOp() == func.getOperation() &&
        reduce->getBlock() == &func.getBody().front())
      return;
    emitRemark(reduce.getLoc())
        << "all_reduce kept: sequence parallelism rewrites the top level of "
           "a single-block function only";
  });
}

LogicalResult SequenceParallelPass::runOnFunction(func::FuncOp func) {
  if (func.getBody().empty() || diagnoseBufferForm(func, getArgument()))
    return success();
  bool anyAllReduce = false;
  func.walk([&](shard::AllReduceOp) { anyAllReduce = true; });
  // Nothing to do (and no grid needed) without all-reduces or sharded input.
  if (!anyAllReduce && !inputSharded)
    return success();
  if (!func.getBody().hasOneBlock()) {
    remarkOnNestedAllReduces(func, /*wholeFunction=*/true);
    return success();
  }
  remarkOnNestedAllReduces(func, /*wholeFunction=*/false);
  FlatSymbolRefAttr grid;
  int16_t axis = 0;
  int64_t numRanks = 1;
  if (failed(resolveGridAxis(func, gridName, gridAxis, "TP", grid, axis,
                             numRanks)))
    return failure();

  ArgSeqDims argSeqDims = chooseArgSeqDims(func, seqDim);
  TokenWiseAnalysis analysis(func, argSeqDims.dims);
  if (failed(analysis.run()))
    return failure();
  // The signature may only change where no call site depends on it.
  bool keepSignature =
      (inputSharded || outputSharded) &&
      !SymbolTable::symbolKnownUseEmpty(func, getOperation());
  if (keepSignature)
    emitRemark(func.getLoc())
        << "sequence-parallel: the function is called, so its signature is "
           "kept (input-sharded and output-sharded are ignored for it)";
  SequenceParallelPlan plan(func, analysis, grid, axis,
                            inputSharded && !keepSignature);
  plan.allowPartialReductions =
      analysis.getSeqLen() < 0 || analysis.getSeqLen() % numRanks == 0;
  plan.build();
  numAllReducesBefore += plan.allRoots.size();

  if (analysis.getSeqLen() < 0) {
    // Decided for the whole module once every function has been seen.
    if (!plan.allRoots.empty())
      functionsWithoutSeqDim.push_back({func, argSeqDims.whyNone});
    return success();
  }
  anyFunctionWithSeqDim = true;
  // Refuse uneven shards before touching the IR, unless asked to pad
  // (SPEC section 3.2); more ranks than tokens are refused even then (the
  // padding would be larger than the sequence).
  int64_t seqLen = analysis.getSeqLen();
  if ((seqLen % numRanks != 0 || numRanks > seqLen) &&
      !plan.shardedValues.empty()) {
    Value culprit = plan.shardedValues.front().first;
    SeqDim seq = *analysis.getSeqDim(culprit);
    Location at = culprit.getLoc();
    std::string where = describeSeqDim(culprit, seq, analysis);
    if (numRanks > seqLen)
      return emitError(at) << "the " << numRanks << " ranks of grid axis "
                           << axis << " of " << grid
                           << " exceed the sequence length " << seqLen << " ("
                           << where << ")";
    if (!padUneven || plan.inputSharded) {
      InFlightDiagnostic diag =
          emitError(at) << "sequence length " << seqLen << " (" << where
                        << ") is not divisible by the " << numRanks
                        << " ranks of grid axis " << axis << " of " << grid;
      if (plan.inputSharded)
        diag << "; an input taken sequence-sharded cannot be padded";
      else
        diag << "; pass pad=true to pad it";
      return failure();
    }
  }
  SequenceShardBuilder builder(func, grid, axis, numRanks, seqLen);
  rewrite(func, plan, builder, numRanks, keepSignature);
  return success();
}

void SequenceParallelPass::rewritePartialReduction(
    Operation *op, const PartialReduction &reduction,
    SequenceParallelPlan &plan, SequenceShardBuilder &builder,
    DenseSet<Value> &localValues) {
  const TokenWiseInfo &info = plan.analysis.getInfo(op);
  auto linalgOp = cast<linalg::LinalgOp>(op);
  builder.localizeOperands(op, info, plan.analysis, reduction.seq.inner,
                           localValues);
  builder.offsetPositions(op, info, reduction.outer, reduction.seq.inner);
  // A sum must count its init once: reduce the shard from zero and add the
  // init after the all-reduce (unless it is a zero fill). Max and min are
  // idempotent and keep their init.
  OpOperand &init = linalgOp.getDpsInitsMutable()[0];
  Value originalInit = init.get();
  auto type = cast<RankedTensorType>(originalInit.getType());
  bool addInit = false;
  OpBuilder b(op);
  if (reduction.kind == shard::ReductionKind::Sum) {
    auto fill = originalInit.getDefiningOp<linalg::FillOp>();
    addInit = !fill || (!matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) &&
                        !matchPattern(fill.getInputs()[0], m_Zero()));
    if (addInit) {
      Value zero = arith::ConstantOp::create(
          b, op->getLoc(), b.getZeroAttr(type.getElementType()));
      Value empty = tensor::EmptyOp::create(b, op->getLoc(), type.getShape(),
                                            type.getElementType());
      init.set(linalg::FillOp::create(b, op->getLoc(), zero, empty)
                   .getResult(0));
    }
  }
  b.setInsertionPointAfter(op);
  Value partial = op->getResult(0);
  auto combined = shard::AllReduceOp::create(
      b, op->getLoc(), partial, plan.grid.getValue(), {plan.axis},
      reduction.kind);
  Value result = combined.getResult();
  if (addInit)
    result = isa<FloatType>(type.getElementType())
                 ? arith::AddFOp::create(b, op->getLoc(), result, originalInit)
                       .getResult()
                 : arith::AddIOp::create(b, op->getLoc(), result, originalInit)
                       .getResult();
  partial.replaceAllUsesExcept(result, combined);
}

void SequenceParallelPass::rewrite(func::FuncOp func,
                                   SequenceParallelPlan &plan,
                                   SequenceShardBuilder &builder,
                                   int64_t numRanks, bool keepSignature) {
  TokenWiseAnalysis &analysis = plan.analysis;
  int64_t bytesBeforeTotal = 0, bytesAfterTotal = 0;
  int64_t scatters = 0, gathers = 0, kept = 0;
  int64_t scatterBytes = 0, gatherBytes = 0, keptBytes = 0;
  int64_t reductions = 0, reductionBytes = 0;

  // Kept roots: explain why.
  DenseSet<Operation *> rewrittenRoots;
  for (unsigned id = 0; id < plan.components.size(); ++id) {
    if (plan.leader(id) != id)
      continue;
    const Component &component = plan.components[id];
    bool dropped = component.blocker ||
                   (component.numRegionOps == 0 && component.args.empty());
    for (shard::AllReduceOp root : component.roots) {
      if (!dropped) {
        rewrittenRoots.insert(root);
        continue;
      }
      // Location-based remarks: the op itself would be printed with each one.
      InFlightDiagnostic remark = emitRemark(root.getLoc()) << "all_reduce kept: ";
      if (component.blocker)
        remark << "its sequence-sharded region would reach '"
               << component.blocker->getName() << "' ("
               << component.blockerReason << ")";
      else if (component.firstBoundary)
        remark << "nothing token-wise follows it; its first consumer '"
               << component.firstBoundary->getName() << "' "
               << component.firstBoundaryReason;
      else
        remark << "its result is unused";
      if (component.blocker)
        remark.attachNote(component.blocker->getLoc()) << "blocking op here";
    }
  }
  for (shard::AllReduceOp root : plan.allRoots) {
    auto type = cast<RankedTensorType>(root.getType());
    int64_t bytes = type.hasStaticShape() ? builder.allReduceBytes(type) : 0;
    bytesBeforeTotal += bytes;
    if (rewrittenRoots.contains(root))
      continue;
    ++kept;
    keptBytes += bytes;
    if (!type.hasStaticShape() || type.getNumElements() == 0)
      emitRemark(root.getLoc())
          << "all_reduce kept: its shape is dynamic or empty";
    else if (!analysis.getSeqDim(root.getResult()))
      emitRemark(root.getLoc())
          << "all_reduce kept: its result does not carry the sequence dim";
  }

  // Uses outside the region, recorded before any rewrite (OpOperands stay
  // valid across replaceAllUsesWith).
  Block &body = func.getBody().front();
  struct Boundary {
    Value value;
    SeqDim seq;
    SmallVector<OpOperand *> uses;
  };
  SmallVector<Boundary> boundaries;
  DenseMap<Value, unsigned> boundaryIndex;
  for (auto &[value, id] : plan.shardedValues) {
    Boundary boundary{value, *analysis.getSeqDim(value), {}};
    for (OpOperand &use : value.getUses())
      if (!plan.regionOps.count(use.getOwner()) &&
          !plan.reductionOps.count(use.getOwner()))
        boundary.uses.push_back(&use);
    if (boundary.uses.empty())
      continue;
    boundaryIndex[value] = boundaries.size();
    boundaries.push_back(std::move(boundary));
  }

  DenseSet<Value> localValues;
  // Sharded arguments (input-sharded): local type and sharding attribute.
  for (auto &[value, id] : plan.shardedValues) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg)
      continue;
    SeqDim seq = *analysis.getSeqDim(arg);
    arg.setType(builder.localType(cast<RankedTensorType>(arg.getType()),
                                  seq.dim));
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    if (!sharding)
      sharding = ShardingAttr::getReplicated(&getContext(), plan.grid);
    func.setArgAttr(arg.getArgNumber(), SeqParDialect::kShardingAttrName,
                    sharding.withDimSplit(seq.dim, {plan.axis}));
    localValues.insert(arg);
  }

  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  for (Operation *op : ops) {
    if (auto root = dyn_cast<shard::AllReduceOp>(op);
        root && rewrittenRoots.contains(root)) {
      OpBuilder b(root);
      SeqDim seq = *analysis.getSeqDim(root.getResult());
      Value input = root.getInput();
      // A root whose input is itself sharded (an input-sharded argument):
      // gather it here; its boundary use dies with the root.
      if (localValues.contains(input)) {
        input = builder.allGather(b, root.getLoc(), input,
                                  *analysis.getSeqDim(root.getInput()));
        gatherBytes +=
            builder.gatherOrScatterBytes(cast<RankedTensorType>(root.getType()));
        ++gathers;
        for (Boundary &boundary : boundaries)
          llvm::erase_if(boundary.uses, [&](OpOperand *use) {
            return use->getOwner() == root.getOperation();
          });
      }
      Value local = builder.reduceScatter(b, root.getLoc(), input, seq);
      scatterBytes +=
          builder.gatherOrScatterBytes(cast<RankedTensorType>(root.getType()));
      ++scatters;
      auto found = boundaryIndex.find(root.getResult());
      if (found != boundaryIndex.end())
        boundaries[found->second].value = local;
      root.getResult().replaceAllUsesWith(local);
      root.erase();
      localValues.insert(local);
      continue;
    }
    if (plan.regionOps.count(op))
      builder.shardTokenWiseOp(op, analysis, localValues);
    auto reduction = plan.reductionOps.find(op);
    if (reduction != plan.reductionOps.end()) {
      rewritePartialReduction(op, reduction->second, plan, builder,
                              localValues);
      reductionBytes += builder.allReduceBytes(
          cast<RankedTensorType>(op->getResult(0).getType()));
      ++reductions;
    }
  }

  // all_gather just before the first consumer that needs all tokens.
  SmallVector<Attribute> resultShardings;
  bool resultsChanged = false;
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  for (Boundary &boundary : boundaries) {
    Value value = boundary.value;
    SeqDim seq = boundary.seq;
    ArrayRef<OpOperand *> uses = boundary.uses;
    SmallVector<OpOperand *> toGather;
    // A result stays sharded only when its sharding attribute can say so:
    // a whole (not flattened) sequence dim, no padding, a free signature.
    int64_t outer =
        cast<RankedTensorType>(value.getType()).getDimSize(seq.dim) /
        (builder.getLocalSeqLen() * seq.inner);
    bool leaveSharded = outputSharded && !keepSignature &&
                        !builder.isPadded() && outer == 1 && seq.inner == 1;
    for (OpOperand *use : uses) {
      if (use->getOwner() != returnOp.getOperation()) {
        toGather.push_back(use);
        continue;
      }
      unsigned index = use->getOperandNumber();
      ShardingAttr sharding = getResultSharding(func, index);
      if (!sharding)
        sharding = ShardingAttr::getReplicated(&getContext(), plan.grid);
      if (leaveSharded && canSplitFurther(sharding, seq.dim)) {
        func.setResultAttr(index, SeqParDialect::kShardingAttrName,
                           sharding.withDimSplit(seq.dim, {plan.axis}));
        resultsChanged = true;
        continue;
      }
      if (outputSharded)
        emitRemark(returnOp.getLoc())
            << "output-sharded: result #" << index
            << " is gathered: its sharding cannot be stated (padded "
               "sequence, flattened sequence dim, non-contiguous split or a "
               "called function)";
      toGather.push_back(use);
    }
    if (toGather.empty())
      continue;
    Operation *first = body.findAncestorOpInBlock(*toGather.front()->getOwner());
    for (OpOperand *use : toGather) {
      Operation *user = body.findAncestorOpInBlock(*use->getOwner());
      if (user->isBeforeInBlock(first))
        first = user;
    }
    OpBuilder b(first);
    Value gathered = builder.allGather(b, value.getLoc(), value, seq);
    gatherBytes += builder.gatherOrScatterBytes(
        cast<RankedTensorType>(gathered.getType()));
    ++gathers;
    for (OpOperand *use : toGather)
      use->set(gathered);
  }
  if (resultsChanged || plan.inputSharded)
    func.setType(FunctionType::get(&getContext(), body.getArgumentTypes(),
                                   returnOp.getOperandTypes()));

  bytesAfterTotal = scatterBytes + gatherBytes + keptBytes + reductionBytes;
  numReduceScatters += scatters;
  numAllGathers += gathers;
  numKeptAllReduces += kept;
  bytesBefore += bytesBeforeTotal;
  bytesAfter += bytesAfterTotal;
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "sequence-parallel over " << plan.grid << " axis "
                    << plan.axis << " (t=" << numRanks << ", s="
                    << analysis.getSeqLen() << "): " << plan.allRoots.size()
                    << " all_reduce (" << bytesBeforeTotal
                    << " bytes sent per rank) -> " << scatters
                    << " reduce_scatter (" << scatterBytes << " bytes) + "
                    << gathers << " all_gather (" << gatherBytes
                    << " bytes) + " << kept << " all_reduce kept ("
                    << keptBytes << " bytes)";
  if (reductions)
    remark << " + " << reductions << " all_reduce of sequence reductions ("
           << reductionBytes << " bytes)";
  remark << "; total " << bytesAfterTotal << " bytes";
  if (builder.isPadded())
    remark << "; sequence padded from " << analysis.getSeqLen() << " to "
           << builder.getLocalSeqLen() * numRanks << " tokens";
  if (bytesAfterTotal > bytesBeforeTotal)
    remark << "; more than the TP program's bytes (padding, reductions over "
              "the sequence, or values gathered for ops outside the Megatron "
              "pattern)";
}

} // namespace
