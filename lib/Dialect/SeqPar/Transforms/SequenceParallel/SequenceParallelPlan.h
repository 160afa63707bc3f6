//===- SequenceParallelPlan.h - what SP shards, and the rewrite -*- C++ -*-===//
//
// The plan of seqpar-sequence-parallel for one function, and its rewrite
// (docs/sequence-parallel.md). Plan: every sum all-reduce over the TP axis
// whose result carries the sequence is a root. The token-wise ops that
// consume roots (transitively) and have no TP-sharded operand form
// sequence-sharded regions; regions that share an op are one component. A
// component is dropped (its all-reduces stay) when it reaches an op without
// a token-wise rule, or when it has no token-wise op at all. Rewrite: root ->
// reduce_scatter; region ops on s/t tokens (replicated sequence-indexed
// operands sliced locally, positions offset); all_gather before each use
// outside the region.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_SEQUENCEPARALLEL_SEQUENCEPARALLELPLAN_H
#define SEQPAR_LIB_TRANSFORMS_SEQUENCEPARALLEL_SEQUENCEPARALLELPLAN_H

#include "seqpar/Analysis/TokenWiseAnalysis.h"
#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

#include <string>

namespace mlir::seqpar {

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
  /// The sequence loop's layout in the operands.
  StridedDim seq;
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

  /// Not rewritten: it reaches an op nothing can be proven about, or it
  /// has neither a token-wise op nor a sharded argument.
  bool isDropped() const {
    return blocker || (numRegionOps == 0 && args.empty());
  }
};

/// Whether `sharding` can describe dim `dim` split further over one more
/// grid axis (only contiguous splits compose).
bool canSplitFurther(ShardingAttr sharding, int64_t dim);

/// Which ops of one single-block function run on sequence shards of grid
/// axis `axis`. Reads the IR only; `applySequenceParallelPlan` rewrites it.
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

  /// True when `use` of a sharded value reads it on the shard: its owner
  /// runs on the shard, or it is a captured read (TokenWiseInfo::
  /// capturedDims) of a top-level op that does.
  bool readsOnShard(OpOperand &use) const;
  /// All candidate roots, including those without a sequence dim.
  SmallVector<shard::AllReduceOp> allRoots;
  /// Candidate roots below the top level (in a loop or branch): kept, as
  /// the rewrite sees the top level only, and counted in the summary.
  SmallVector<shard::AllReduceOp> nestedRoots;

  bool isRoot(shard::AllReduceOp op) const;
  unsigned leader(unsigned id) const { return merged.getLeaderValue(id); }

private:
  void computeTpLocal();
  bool usesTpLocal(Operation *op) const;
  Placement place(Operation *op, std::string &reason) const;
  /// Takes out of the region the token-wise ops whose results only reach
  /// all-gathers (directly or through other such ops) and whose sharded
  /// operands are all-gathered anyway: they run on the gathered values
  /// instead, which sends no more bytes and saves the gathers of their
  /// results. GQA K/V projections that TP keeps replicated (t > a_kv) would
  /// otherwise run on the shard and be gathered after their repeat to a
  /// heads, a/a_kv times their bytes (docs/sequence-parallel.md).
  void pullGatheredOps();
  /// Then pulls more: where a sharded value v that nothing gathers feeds
  /// candidates (`candidates`: region ops whose results reach only
  /// all-gathers or other region ops) that could all run on whole values
  /// once v is gathered, and gathering v sends fewer bytes than the gathers
  /// of their results, v is gathered and they are pulled. The case: T5's
  /// encoder output, which TP's replicated cross-attention K/V projections
  /// of every decoder layer read; run on the shard, each layer's K and V
  /// were gathered (4 gathers of the output's size at 2 layers) instead of
  /// the output once (docs/sequence-parallel.md).
  void pullForFewerBytes(const DenseSet<Operation *> &candidates,
                         DenseSet<Operation *> &pulled,
                         function_ref<bool(Value)> gatheredAnyway,
                         function_ref<bool(OpOperand &)> isBoundary);
  void finalize();
};

/// What one function's rewrite changed (the pass's statistics).
struct SequenceParallelCounts {
  int64_t reduceScatters = 0;
  int64_t allGathers = 0;
  int64_t keptAllReduces = 0;
  /// Bytes each rank sends (docs/sequence-parallel.md), before and after.
  int64_t bytesBefore = 0;
  int64_t bytesAfter = 0;
};

/// Rewrites `plan.func` as planned, on the `numRanks` shards of `builder`,
/// with a remark per kept all-reduce and one for the function (collectives
/// and bytes before and after). With `outputSharded`, sequence-carrying
/// results stay sharded where their sharding can say so; `keepSignature`
/// (a called function) keeps the argument and result types.
SequenceParallelCounts applySequenceParallelPlan(SequenceParallelPlan &plan,
                                                 SequenceShardBuilder &builder,
                                                 int64_t numRanks,
                                                 bool outputSharded,
                                                 bool keepSignature);

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_SEQUENCEPARALLEL_SEQUENCEPARALLELPLAN_H
