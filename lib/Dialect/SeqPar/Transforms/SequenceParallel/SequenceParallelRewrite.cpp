//===- SequenceParallelRewrite.cpp - apply the SP plan to a function ------===//
//
// The rewriting half of seqpar-sequence-parallel (SequenceParallelPlan.h):
// roots become reduce_scatters, region ops run on s/t tokens, reductions
// over the sequence combine their shards, and all_gathers go before the
// first use that needs all tokens.
//
//===----------------------------------------------------------------------===//

#include "SequenceParallelPlan.h"

#include "seqpar/Analysis/TripCount.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

/// Adds `bytes` (nullopt: too many to count) to `total`, saturating at
/// INT64_MAX as the byte figures themselves do (ByteCounts.h).
static void addBytes(int64_t &total, std::optional<int64_t> bytes) {
  constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();
  total =
      bytes ? llvm::checkedAdd(total, *bytes).value_or(kSaturated) : kSaturated;
}

SequenceParallelCounts mlir::seqpar::applySequenceParallelPlan(
    SequenceParallelPlan &plan, SequenceShardBuilder &builder, int64_t numRanks,
    bool outputSharded, bool keepSignature) {
  func::FuncOp func = plan.func;
  MLIRContext *context = func.getContext();
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
    bool dropped = component.isDropped();
    for (shard::AllReduceOp root : component.roots) {
      if (!dropped) {
        rewrittenRoots.insert(root);
        continue;
      }
      // Location-based remarks: the op itself would be printed with each one.
      InFlightDiagnostic remark = emitRemark(root.getLoc())
                                  << "all_reduce kept: ";
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
    addBytes(bytesBeforeTotal, bytes);
    if (rewrittenRoots.contains(root))
      continue;
    ++kept;
    addBytes(keptBytes, bytes);
    if (!type.hasStaticShape() || type.getNumElements() == 0)
      emitRemark(root.getLoc())
          << "all_reduce kept: its shape is dynamic or empty";
    else if (!analysis.getSeqDim(root.getResult()))
      emitRemark(root.getLoc())
          << "all_reduce kept: its result does not carry the sequence dim";
  }
  // In a loop or branch (remarked by the pass): kept, counted as if their
  // region runs, an scf.for of constant bounds once per iteration
  // (docs/sequence-parallel.md).
  for (shard::AllReduceOp root : plan.nestedRoots) {
    auto type = cast<RankedTensorType>(root.getType());
    std::optional<int64_t> trips = getTripCountAround(root);
    std::optional<int64_t> bytes =
        trips ? llvm::checkedMul(
                    type.hasStaticShape() ? builder.allReduceBytes(type) : 0,
                    *trips)
              : std::nullopt;
    addBytes(bytesBeforeTotal, bytes);
    addBytes(keptBytes, bytes);
    ++kept;
  }

  // Uses outside the region, recorded before any rewrite (OpOperands stay
  // valid across replaceAllUsesWith).
  Block &body = func.getBody().front();
  struct Boundary {
    Value value;
    StridedDim seq;
    SmallVector<OpOperand *> uses;
  };
  SmallVector<Boundary> boundaries;
  DenseMap<Value, unsigned> boundaryIndex;
  for (auto &[value, id] : plan.shardedValues) {
    Boundary boundary{value, *analysis.getSeqDim(value), {}};
    for (OpOperand &use : value.getUses())
      if (!plan.readsOnShard(use))
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
    StridedDim seq = *analysis.getSeqDim(arg);
    arg.setType(builder.forLength(seq.extent)
                    .localType(cast<RankedTensorType>(arg.getType()), seq.dim));
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    if (!sharding)
      sharding = ShardingAttr::getReplicated(context, plan.grid);
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
      StridedDim seq = *analysis.getSeqDim(root.getResult());
      Value input = root.getInput();
      // A root whose input is itself sharded (an input-sharded argument):
      // gather it here; its boundary use dies with the root.
      if (localValues.contains(input)) {
        input = builder.allGather(b, root.getLoc(), input,
                                  *analysis.getSeqDim(root.getInput()));
        addBytes(gatherBytes, builder.gatherOrScatterBytes(
                                  cast<RankedTensorType>(root.getType())));
        ++gathers;
        for (Boundary &boundary : boundaries)
          llvm::erase_if(boundary.uses, [&](OpOperand *use) {
            return use->getOwner() == root.getOperation();
          });
      }
      Value local = builder.reduceScatter(b, root.getLoc(), input, seq);
      addBytes(scatterBytes, builder.gatherOrScatterBytes(
                                 cast<RankedTensorType>(root.getType())));
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
      builder.reduceOnShards(op, analysis, reduction->second.kind,
                             reduction->second.seq, localValues);
      addBytes(reductionBytes, builder.allReduceBytes(cast<RankedTensorType>(
                                   op->getResult(0).getType())));
      ++reductions;
    }
  }

  // all_gather just before the first consumer that needs all tokens.
  SmallVector<Attribute> resultShardings;
  bool resultsChanged = false;
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  for (Boundary &boundary : boundaries) {
    Value value = boundary.value;
    StridedDim seq = boundary.seq;
    ArrayRef<OpOperand *> uses = boundary.uses;
    SmallVector<OpOperand *> toGather;
    // A result stays sharded only when its sharding attribute can say so:
    // a whole (not flattened) sequence dim, no padding, a free signature.
    int64_t outer =
        cast<RankedTensorType>(value.getType()).getDimSize(seq.dim) /
        (builder.forLength(seq.extent).getLocalSeqLen() * seq.inner);
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
        sharding = ShardingAttr::getReplicated(context, plan.grid);
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
    Operation *first =
        body.findAncestorOpInBlock(*toGather.front()->getOwner());
    for (OpOperand *use : toGather) {
      Operation *user = body.findAncestorOpInBlock(*use->getOwner());
      if (user->isBeforeInBlock(first))
        first = user;
    }
    OpBuilder b(first);
    Value gathered = builder.allGather(b, value.getLoc(), value, seq);
    addBytes(gatherBytes, builder.gatherOrScatterBytes(
                              cast<RankedTensorType>(gathered.getType())));
    ++gathers;
    for (OpOperand *use : toGather)
      use->set(gathered);
  }
  if (resultsChanged || plan.inputSharded)
    func.setType(FunctionType::get(context, body.getArgumentTypes(),
                                   returnOp.getOperandTypes()));
  builder.eraseUnusedShapeOnlyGlobals();

  for (int64_t bytes : {scatterBytes, gatherBytes, keptBytes, reductionBytes})
    addBytes(bytesAfterTotal, bytes);
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "sequence-parallel over " << plan.grid << " axis " << plan.axis
         << " (t=" << numRanks << ", s=";
  llvm::interleave(analysis.getSeqLens(), remark, " and ");
  remark << "): " << plan.allRoots.size() + plan.nestedRoots.size()
         << " all_reduce (" << bytesBeforeTotal << " bytes sent per rank) -> "
         << scatters << " reduce_scatter (" << scatterBytes << " bytes) + "
         << gathers << " all_gather (" << gatherBytes << " bytes) + " << kept
         << " all_reduce kept (" << keptBytes << " bytes)";
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
  return {scatters, gathers, kept, bytesBeforeTotal, bytesAfterTotal};
}
