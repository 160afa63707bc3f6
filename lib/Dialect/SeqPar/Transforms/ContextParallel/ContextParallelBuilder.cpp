//===- ContextParallelBuilder.cpp - one function over the CP axes ---------===//
//
// Plan: the sequence-carrying arguments are the roots; every op reached from
// them is token-wise (runs on the local tokens), a seqpar.attention this pass
// distributes, a reduction over the sequence (partial on the local tokens),
// a token-wise op once some inputs are whole (Q.K^T and P.V of an attention
// left unraised: only K and V are gathered), or a boundary that gets the
// all-gathered value. Rewrite:
// arguments take their local types and sharding, token-wise ops run on the
// shard (SequenceShardBuilder::shardTokenWiseOp), attention becomes ring,
// all-gather-KV, Ulysses or hybrid attention (DistributedAttention.h),
// reductions over the sequence run on the shard and are all-reduced,
// boundaries get an all_gather (zigzag chunks put back in order), results
// stay sharded.
//
//===----------------------------------------------------------------------===//

#include "ContextParallelBuilder.h"
#include "DistributedAttention.h"

#include "seqpar/Analysis/AttentionMatch.h"
#include "seqpar/Analysis/KVCache.h"
#include "seqpar/Analysis/SeqDimChoice.h"
#include "seqpar/Analysis/SoftmaxMatch.h"
#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::seqpar;

/// Why `op`, which reads a sequence-sharded value, cannot run on the local
/// tokens; empty when it can, with its TokenWiseInfo::wholeOperands
/// gathered first when it has any.
static std::string whyNotLocal(Operation *op,
                               const TokenWiseAnalysis &analysis) {
  if (isa<func::ReturnOp>(op))
    return "returns it";
  const TokenWiseInfo &info = analysis.getInfo(op);
  if (!info.isTokenWise() && info.wholeOperands.empty())
    return info.reason.empty() ? "mixes tokens" : info.reason;
  if (!isEffectFreeButChecks(op))
    return "has memory effects";
  if (op->getNumResults() == 0)
    return "has no result";
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0 ||
        !analysis.getSeqDim(result))
      return "has a result of dynamic, empty or unsupported shape";
  }
  for (auto [index, dim] : llvm::enumerate(info.operandDims)) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(index).getType());
    if (dim >= 0 && (!type || type.isDynamicDim(dim)))
      return "has a dynamic sequence-indexed operand";
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op);
      expand && !expand.getOutputShape().empty())
    return "has a dynamic output shape";
  if (isa<tosa::ReshapeOp>(op))
    return "is a tosa.reshape (lower tosa to linalg first)";
  if (auto dropout = dyn_cast<DropoutOp>(op)) {
    StridedDim seq = *analysis.getSeqDim(dropout.getInput());
    if (seq.outer != 1)
      return "is a dropout whose sequence is flattened into a larger dim";
  }
  return "";
}

/// `op` as a reduction over the sequence that can run on the local tokens
/// with its partial results all-reduced over the CP axes
/// (docs/context-parallelism.md, "Reductions over the sequence"): a weight
/// or norm-weight gradient, a loss sum, a valid-token count.
static std::optional<SequenceReduction>
getPartialReduction(Operation *op, const TokenWiseAnalysis &analysis) {
  std::optional<SequenceReduction> reduction =
      getSequenceReduction(op, analysis);
  if (!reduction || !isEffectFreeButChecks(op))
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() == 0)
    return std::nullopt;
  for (auto [index, dim] : llvm::enumerate(analysis.getInfo(op).operandDims)) {
    auto operand = dyn_cast<RankedTensorType>(op->getOperand(index).getType());
    if (dim >= 0 && (!operand || operand.isDynamicDim(dim)))
      return std::nullopt;
  }
  return reduction;
}

/// Why a K/V result relaid block-cyclic under `strategy` needed an
/// all-to-all (docs/decode.md, "From prefill to decode").
static StringRef whyNotKeptLocally(AttentionStrategy strategy) {
  switch (strategy) {
  case AttentionStrategy::Ring:
    return "it is not the key or value a ring attention carries (only "
           "those are kept from the ring's blocks)";
  case AttentionStrategy::AllGather:
    return "it is not the key or value an all-gather-KV attention gathers";
  case AttentionStrategy::Ulysses:
    return "under ulysses attention no rank holds all heads of another "
           "rank's tokens";
  case AttentionStrategy::Hybrid:
    break;
  }
  return "the sequence is split over more than one grid axis (hybrid)";
}

LogicalResult mlir::seqpar::buildContextParallelFunction(
    func::FuncOp func, const ArgSeqDims &argSeqDims,
    const ContextParallelTarget &target, ContextParallelCounts &counts) {
  MLIRContext *context = func.getContext();
  FlatSymbolRefAttr grid = target.grid;
  ArrayRef<int16_t> axes = target.axes;
  ArrayRef<int64_t> axisSizes = target.axisSizes;
  int64_t numRanks = target.numRanks;
  AttentionStrategy strategy = target.strategy;
  bool zigzag = target.zigzag, pad = target.pad;
  auto axesString = [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleave(axes, os, ", ");
    return text;
  };
  std::optional<int64_t> chunks =
      zigzag ? llvm::checkedMul<int64_t>(2, numRanks) : numRanks;
  ArgSeqDims shardable =
      chunks ? keepShardableLengths(
                   func, argSeqDims, *chunks, "context-parallel",
                   std::to_string(*chunks) + " pieces over grid axes [" +
                       axesString() + "]")
             : argSeqDims;
  TokenWiseAnalysis analysis(func, shardable.dims, shardable.digits);
  if (failed(analysis.run()))
    return failure();
  int64_t seqLen = analysis.getSeqLen();
  // Every rank holds at least one token; checked before any size is
  // derived from c.
  if (numRanks > seqLen)
    return emitError(func.getLoc())
           << "context-parallel: the " << numRanks << " ranks of grid axes ["
           << axesString() << "] of " << grid << " exceed the sequence length "
           << seqLen << ": a context-parallel size is at most s";
  if (!chunks)
    return emitError(func.getLoc()) << "context-parallel: 2 x " << numRanks
                                    << " zigzag chunks overflow a 64-bit count";
  int64_t pieces = *chunks;
  Block &body = func.getBody().front();

  // Arguments: unsplit along the sequence (or contiguously split, without
  // zigzag), else the function is left alone.
  SmallVector<BlockArgument> shardedArgs;
  bool needsPad = seqLen % pieces != 0;
  for (BlockArgument arg : func.getArguments()) {
    std::optional<StridedDim> seq = analysis.getSeqDim(arg);
    if (!seq)
      continue;
    // An empty argument has no tokens to shard (its slices would be empty).
    if (cast<RankedTensorType>(arg.getType()).getNumElements() == 0) {
      emitRemark(arg.getLoc())
          << "context-parallel: argument #" << arg.getArgNumber()
          << " is empty (" << arg.getType() << "): left whole";
      continue;
    }
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    DimShardingAttr split =
        sharding ? sharding.getDimSharding(seq->dim) : DimShardingAttr();
    bool usesAxes = sharding && llvm::any_of(axes, [&](int16_t a) {
                      return sharding.usesAxis(a);
                    });
    if (usesAxes || (split && (zigzag || needsPad ||
                               split.getKind() != SplitKind::contiguous))) {
      emitRemark(arg.getLoc())
          << "context-parallel: skipped, argument #" << arg.getArgNumber()
          << " is already split along its sequence dim or over grid axes ["
          << axesString() << "]";
      return success();
    }
    if (needsPad && !pad)
      return emitError(arg.getLoc())
             << "sequence length " << seqLen << " (dim " << seq->dim << " of "
             << arg.getType() << ") is not divisible by " << pieces
             << (zigzag ? " (2 x the " : " (the ") << numRanks
             << " ranks of grid axes [" << axesString() << "] of " << grid
             << (zigzag ? ", zigzag)" : ")")
             << "; pass pad=true (seqpar-pipeline: cp-pad=true) to pad it "
                "and mask the padding";
    shardedArgs.push_back(arg);
  }

  // Plan, in program order.
  DenseSet<Value> sharded(shardedArgs.begin(), shardedArgs.end());
  llvm::SetVector<Operation *> localOps;
  // Reductions over the sequence among `localOps`: run on the shard and
  // all-reduced. Not with padding, whose zero tokens would join them.
  llvm::DenseMap<Operation *, SequenceReduction> reductions;
  int64_t numAttention = 0, numBackward = 0;
  // The forward each distributed backward reads its LSE from, and the
  // forwards that have one.
  llvm::DenseMap<Operation *, AttentionOp> forwardOf;
  llvm::DenseSet<Operation *> hasBackward;
  // Each distributed attention's query and key sequence lengths (a
  // cross-attention's may differ), read before its operands are rewritten.
  llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> attentionLengths;
  llvm::MapVector<Operation *, std::string> boundaries;
  for (Operation &op : body) {
    bool readsShard = llvm::any_of(
        op.getOperands(), [&](Value v) { return sharded.contains(v); });
    bool nestedUse = false;
    op.walk([&](Operation *nested) {
      if (nested != &op)
        for (Value v : nested->getOperands())
          nestedUse |= sharded.contains(v);
    });
    if (!readsShard && !nestedUse)
      continue;
    std::string reason;
    if (nestedUse) {
      reason = "uses it inside a nested region";
    } else if (auto attention = dyn_cast<AttentionOp>(op)) {
      reason = whyNotDistributable(attention, analysis, sharded);
      if (reason.empty()) {
        // Hybrid helps only when some u > 1 divides both head counts.
        int64_t common = std::gcd(
            cast<RankedTensorType>(attention.getQuery().getType())
                .getDimSize(1),
            cast<RankedTensorType>(attention.getKey().getType()).getDimSize(1));
        if (strategy == AttentionStrategy::Ulysses &&
            failed(checkUlyssesHeads(
                attention, numRanks,
                common > 1
                    ? "use strategy=ring, all-gather or hybrid with "
                      "Ulysses ranks dividing both (seqpar-pipeline: "
                      "cp-strategy=)"
                    : "use strategy=ring or all-gather (seqpar-pipeline: "
                      "cp-strategy=)")))
          return failure();
        if (strategy == AttentionStrategy::Hybrid &&
            failed(checkUlyssesHeads(attention, axisSizes[1],
                                     "use strategy=ring, or fewer ranks on the "
                                     "Ulysses axis (seqpar-pipeline: a "
                                     "smaller cp-ulysses)")))
          return failure();
        ++numAttention;
        localOps.insert(&op);
        attentionLengths[&op] = {
            analysis.getSeqDim(attention.getQuery())->extent,
            analysis.getSeqDim(attention.getKey())->extent};
        sharded.insert(attention.getResult());
        continue;
      }
    } else if (auto backward = dyn_cast<AttentionBackwardOp>(op)) {
      auto forward = backward.getOut().getDefiningOp<AttentionOp>();
      if (forward && !localOps.contains(forward))
        forward = nullptr;
      reason = whyNotDistributable(backward, forward, analysis, sharded);
      if (reason.empty()) {
        ++numBackward;
        forwardOf[&op] = forward;
        hasBackward.insert(forward);
        localOps.insert(&op);
        for (Value result : op.getResults())
          sharded.insert(result);
        continue;
      }
    } else if (auto reduction = getPartialReduction(&op, analysis);
               reduction && !needsPad) {
      reductions[&op] = *reduction;
      localOps.insert(&op);
      continue;
    } else {
      reason = whyNotLocal(&op, analysis);
    }
    if (!reason.empty()) {
      boundaries[&op] = reason;
      continue;
    }
    localOps.insert(&op);
    for (Value result : op.getResults())
      sharded.insert(result);
  }

  // No attention to distribute while the function holds softmaxes: say
  // why they are not seqpar.attention, so that "0 attention" is explained.
  int64_t unraisedSoftmaxes = 0;
  std::string whyNoAttention;
  if (numAttention == 0)
    body.walk([&](Operation *op) {
      if (op->getNumResults() != 1 ||
          !isa<RankedTensorType>(op->getResult(0).getType()) ||
          !(isa<linalg::SoftmaxOp>(op) || softmaxInput(op->getResult(0))))
        return;
      std::string why = whySoftmaxNotAttention(op->getResult(0));
      if (why.empty())
        return;
      if (unraisedSoftmaxes++ == 0)
        whyNoAttention = why;
    });

  SequenceShardBuilder builder(func, grid, axes, axisSizes, seqLen, zigzag);
  // A padded sequence, or one flattened after a batch ([b*s, h]: rank r
  // holds a piece of every batch), cannot be stated by a #seqpar.sharding:
  // such arguments stay whole (each rank takes its tokens) and such results
  // are gathered.
  bool padded = builder.isPadded();
  DenseSet<Value> wholeArgs;
  for (BlockArgument arg : shardedArgs)
    if (padded || analysis.getSeqDim(arg)->outer > 1)
      wholeArgs.insert(arg);
  // Sequence-sharded values read by boundaries, with their uses, recorded
  // before the rewrite changes them.
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  struct GatherUses {
    StridedDim seq;
    SmallVector<OpOperand *> uses;
  };
  llvm::MapVector<Value, GatherUses> gatherUses;
  SmallVector<std::pair<unsigned, StridedDim>> shardedResults;
  // In program order, not `sharded`'s hash order: the gathers, their
  // remarks and the IR are then the same on every run.
  SmallVector<Value> shardedInOrder(shardedArgs.begin(), shardedArgs.end());
  for (Operation &op : body)
    for (Value result : op.getResults())
      if (sharded.contains(result))
        shardedInOrder.push_back(result);
  for (Value value : shardedInOrder) {
    if (wholeArgs.contains(value))
      continue; // Its other users read it whole.
    StridedDim seq = *analysis.getSeqDim(value);
    for (OpOperand &use : value.getUses()) {
      Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      if (user == use.getOwner() && localOps.contains(user) &&
          !llvm::is_contained(analysis.getInfo(user).wholeOperands,
                              use.getOperandNumber()))
        continue;
      if (user == returnOp.getOperation() && !padded && seq.inner == 1 &&
          seq.outer == 1) {
        shardedResults.push_back({use.getOperandNumber(), seq});
        continue;
      }
      GatherUses &entry = gatherUses[value];
      entry.seq = seq;
      entry.uses.push_back(&use);
    }
  }

  // K/V results asked for in the decode layout that stay whole: a padded or
  // flattened sequence has no #seqpar.sharding (docs/decode.md, "From
  // prefill to decode").
  SmallVector<std::pair<unsigned, StringRef>> wholeCacheResults;
  if (target.kvCacheInterleave > 0)
    for (OpOperand &result : returnOp->getOpOperands()) {
      if (!sharded.contains(result.get()))
        continue;
      // A candidate as the unpadded path reads one (relayoutToCyclic): a
      // static [b, a_kv, s, d] tensor with the sequence in dim 2.
      StridedDim seq = *analysis.getSeqDim(result.get());
      auto type = dyn_cast<RankedTensorType>(result.get().getType());
      if (seq.dim != kKVCacheSlotDim || !type || type.getRank() != 4 ||
          !type.hasStaticShape())
        continue;
      if (padded)
        wholeCacheResults.push_back(
            {result.getOperandNumber(), "the sequence is padded"});
      else if (seq.inner != 1 || seq.outer != 1)
        wholeCacheResults.push_back(
            {result.getOperandNumber(),
             "its sequence dim is flattened with another dim"});
    }

  // Rewrite.
  DenseSet<Value> localValues;
  SplitKind kind = zigzag ? SplitKind::zigzag : SplitKind::contiguous;
  for (BlockArgument arg : shardedArgs) {
    if (wholeArgs.contains(arg))
      continue; // Token-wise users localize them.
    StridedDim seq = *analysis.getSeqDim(arg);
    arg.setType(builder.forLength(seq.extent)
                    .localType(cast<RankedTensorType>(arg.getType()), seq.dim));
    ShardingAttr sharding = getArgSharding(func, arg.getArgNumber());
    if (!sharding)
      sharding = ShardingAttr::getReplicated(context, grid);
    func.setArgAttr(arg.getArgNumber(), SeqParDialect::kShardingAttrName,
                    sharding.withDimSplit(seq.dim, axes, kind));
    localValues.insert(arg);
  }
  DistributedAttentionStats stats, backwardStats;
  llvm::DenseMap<Operation *, AttentionForwardState> savedForBackward;
  // All-gather-KV: this rank's K/V -> their gathered form (rank order).
  llvm::DenseMap<Value, Value> gatheredKV;
  // Ring: this rank's K/V -> its block-cyclic slots of them, kept from the
  // blocks the ring held; asked for the K/V the function returns as
  // sequence-sharded [b, a_kv, s, d] results (the same values).
  llvm::DenseMap<Value, Value> keptKV;
  auto returnedAsCache = [&](Value value) {
    if (target.kvCacheInterleave <= 0 || keptKV.contains(value))
      return false;
    return llvm::any_of(shardedResults, [&](auto result) {
      return result.second.dim == kKVCacheSlotDim &&
             returnOp.getOperand(result.first) == value;
    });
  };
  int64_t numReductions = 0, reductionBytes = 0;
  // Whole (padded) arguments an attention or its backward reads directly
  // become this rank's tokens; the mask stays whole.
  auto localizeWholeArgs = [&](Operation *op, Value mask) {
    for (OpOperand &operand : op->getOpOperands())
      if (wholeArgs.contains(operand.get()) && operand.get() != mask) {
        OpBuilder b(op);
        operand.set(builder.localize(b, op->getLoc(), operand.get(),
                                     /*dim=*/2, /*inner=*/1));
      }
  };
  // Ulysses and hybrid attention's outputs are this rank's tokens, back
  // from an all-to-all no later rewrite follows the sequence through: they
  // are marked as sequence blocks.
  bool throughAllToAll = strategy == AttentionStrategy::Ulysses ||
                         strategy == AttentionStrategy::Hybrid;
  auto replaceLocal = [&](Operation *op, ValueRange locals) {
    for (auto [result, local] : llvm::zip(op->getResults(), locals)) {
      if (std::optional<StridedDim> seq = analysis.getSeqDim(result);
          seq && throughAllToAll)
        builder.markSequenceBlock(local, *seq);
      localValues.insert(local);
      result.replaceAllUsesWith(local);
      localValues.erase(result);
    }
    op->erase();
  };
  for (Operation *op : localOps.takeVector()) {
    if (auto attention = dyn_cast<AttentionOp>(op)) {
      localizeWholeArgs(attention, attention.getMask());
      KeepCyclicKV keep{target.kvCacheInterleave,
                        returnedAsCache(attention.getKey()),
                        returnedAsCache(attention.getValue())};
      auto [queryLength, keyLength] = attentionLengths.at(op);
      DistributedAttention local = distributeAttention(
          attention, strategy, builder.forLength(queryLength),
          builder.forLength(keyLength), hasBackward.contains(op), stats, keep);
      if (hasBackward.contains(op))
        savedForBackward[op] = local.state;
      for (auto [mine, all] : local.gatheredKV)
        gatheredKV.try_emplace(mine, all);
      for (auto [mine, slots] : local.keptKV)
        keptKV.try_emplace(mine, slots);
      replaceLocal(attention, local.result);
      ++counts.attentionRewritten;
      continue;
    }
    if (auto backward = dyn_cast<AttentionBackwardOp>(op)) {
      localizeWholeArgs(backward, backward.getMask());
      auto [queryLength, keyLength] = attentionLengths.at(forwardOf.at(op));
      SmallVector<Value, 3> grads = distributeAttentionBackward(
          backward, strategy, builder.forLength(queryLength),
          builder.forLength(keyLength), savedForBackward.at(forwardOf.at(op)),
          target.keepKV, backwardStats);
      replaceLocal(backward, grads);
      ++counts.attentionRewritten;
      continue;
    }
    if (auto reduction = reductions.find(op); reduction != reductions.end()) {
      builder.reduceOnShards(op, analysis, reduction->second.kind,
                             reduction->second.seq, localValues);
      ++numReductions;
      reductionBytes += builder.forLength(reduction->second.seq.extent)
                            .allReduceBytes(cast<RankedTensorType>(
                                op->getResult(0).getType()));
      continue;
    }
    builder.shardTokenWiseOp(op, analysis, localValues);
  }
  // A later rewrite (SP over the TP axis) starts from this rank's tokens.
  builder.markSequenceBlocks(wholeArgs);
  // The gather of a value goes just before its first boundary user; the
  // recorded uses followed replaced values (attention, zigzag dropout).
  int64_t gathered = 0, gatheredBytes = 0;
  for (auto &[value, entry] : gatherUses) {
    ArrayRef<OpOperand *> uses = entry.uses;
    Operation *first = nullptr;
    for (OpOperand *use : uses) {
      Operation *user = body.findAncestorOpInBlock(*use->getOwner());
      if (!first || user->isBeforeInBlock(first))
        first = user;
    }
    Value local = uses.front()->get();
    OpBuilder b(first);
    Value global = builder.allGather(b, local.getLoc(), local, entry.seq);
    for (OpOperand *use : uses)
      use->set(global);
    ++gathered;
    gatheredBytes +=
        builder.forLength(entry.seq.extent)
            .gatherOrScatterBytes(cast<RankedTensorType>(global.getType()));
    if (first != returnOp.getOperation())
      emitRemark(first->getLoc())
          << "context-parallel: all_gather before '" << first->getName()
          << "', which "
          << (boundaries.count(first)
                  ? boundaries.lookup(first)
                  // A local op reading this input whole (wholeOperands).
                  : analysis.getInfo(first).reason +
                        "; the rest of it runs on this rank's tokens");
  }
  counts.valuesGathered += gathered;
  for (auto [index, why] : wholeCacheResults)
    emitRemark(returnOp.getLoc())
        << "context-parallel: result #" << index
        << " is returned whole, not block-cyclic: " << why
        << ", which no #seqpar.sharding states";
  int64_t relaidOut = 0, relaidFromGathered = 0, relaidFromRing = 0,
          relayoutBytes = 0;
  for (auto [index, seq] : shardedResults) {
    ShardingAttr sharding = getResultSharding(func, index);
    if (!sharding)
      sharding = ShardingAttr::getReplicated(context, grid);
    // A prefill's K/V returned in the decode layout.
    if (target.kvCacheInterleave > 0 && seq.dim == kKVCacheSlotDim) {
      OpBuilder b(returnOp);
      std::string why;
      Value local = returnOp.getOperand(index);
      // The ring attention that carried it kept this rank's slots.
      if (Value kept = keptKV.lookup(local)) {
        returnOp->setOperand(index, kept);
        func.setResultAttr(index, SeqParDialect::kShardingAttrName,
                           withKVCacheSplit(sharding, grid, axes,
                                            SplitKind::cyclic,
                                            target.kvCacheInterleave));
        ++relaidOut;
        ++relaidFromRing;
        continue;
      }
      // Gathered by the attention: this rank's slots are already here.
      Value gathered = gatheredKV.lookup(local);
      FailureOr<Value> cyclic =
          gathered ? cyclicFromGathered(b, returnOp.getLoc(), gathered,
                                        builder.rank(b), target,
                                        target.kvCacheInterleave, why)
                   : relayoutToCyclic(b, returnOp.getLoc(), local, target,
                                      target.kvCacheInterleave, relayoutBytes,
                                      why);
      if (succeeded(cyclic)) {
        returnOp->setOperand(index, *cyclic);
        func.setResultAttr(index, SeqParDialect::kShardingAttrName,
                           withKVCacheSplit(sharding, grid, axes,
                                            SplitKind::cyclic,
                                            target.kvCacheInterleave));
        ++relaidOut;
        relaidFromGathered += gathered ? 1 : 0;
        if (!gathered)
          emitRemark(returnOp.getLoc())
              << "context-parallel: result #" << index
              << " relaid block-cyclic by an all_to_all: "
              << whyNotKeptLocally(strategy);
        continue;
      }
      emitRemark(returnOp.getLoc())
          << "context-parallel: result #" << index
          << " stays in the prefill's layout, not block-cyclic: " << why;
    }
    func.setResultAttr(index, SeqParDialect::kShardingAttrName,
                       sharding.withDimSplit(seq.dim, axes, kind));
  }
  func.setType(FunctionType::get(context, body.getArgumentTypes(),
                                 returnOp.getOperandTypes()));
  // A per-rank program states every argument's and result's sharding
  // (docs/semantics.md §2): the rest are replicated.
  setMissingShardings(func, ShardingAttr::getReplicated(context, grid));
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "context-parallel over " << grid << " axes [" << axesString()
         << "] (c=" << numRanks << ", s=";
  llvm::interleave(analysis.getSeqLens(), remark, " and ");
  if (padded)
    remark << " padded to " << builder.getLocalSeqLen() * numRanks;
  remark << ", " << (zigzag ? "zigzag" : "contiguous") << "): " << numAttention
         << " attention -> " << stringifyAttentionStrategy(strategy) << " ("
         << stats.transfers << " transfers, " << stats.bytesSent
         << " bytes sent per rank), ";
  if (numBackward)
    remark << numBackward << " attention backward -> "
           << stringifyAttentionStrategy(strategy) << " ("
           << backwardStats.transfers << " transfers, "
           << backwardStats.bytesSent << " bytes sent per rank"
           << (target.keepKV ? ", " + std::to_string(backwardStats.keptBytes) +
                                   " bytes of K/V kept from forward"
                             : std::string())
           << "), ";
  if (numReductions)
    remark << numReductions << " all_reduce of sequence reductions ("
           << reductionBytes << " bytes), ";
  remark << gathered << " all_gather (" << gatheredBytes
         << " bytes) for ops that need all tokens";
  if (int64_t moved = relaidOut - relaidFromGathered - relaidFromRing)
    remark << "; " << moved << " K/V results block-cyclic (interleave "
           << target.kvCacheInterleave << ", 1 all_to_all each, "
           << relayoutBytes << " bytes)";
  if (relaidFromRing)
    remark << "; " << relaidFromRing
           << " K/V results block-cyclic (interleave "
           << target.kvCacheInterleave
           << ") kept from the ring's K/V blocks (0 bytes)";
  if (relaidFromGathered)
    remark << "; " << relaidFromGathered
           << " K/V results block-cyclic (interleave "
           << target.kvCacheInterleave
           << ") sliced from the all-gathered K/V (0 bytes)";
  if (unraisedSoftmaxes)
    remark << "; no attention is distributed: " << unraisedSoftmaxes
           << " softmax not raised to seqpar.attention (the first: "
           << whyNoAttention << ")";
  return success();
}
