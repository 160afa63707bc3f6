//===- ContextParallelBuilder.h - one function over the CP axes -*- C++ -*-===//
//
// The rewrite of seqpar-context-parallel for one function
// (docs/context-parallelism.md): the sequence-carrying arguments hold this
// rank's tokens, token-wise ops run on them, each seqpar.attention is
// distributed, and values that need all tokens are all-gathered.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_CONTEXTPARALLELBUILDER_H
#define SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_CONTEXTPARALLELBUILDER_H

#include "seqpar/Analysis/SeqDimChoice.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::seqpar {

/// Where a function's sequence is split and how its attention is
/// distributed.
struct ContextParallelTarget {
  FlatSymbolRefAttr grid;
  /// The grid axes the sequence is split over as one group, major to minor
  /// (hybrid: [ring, Ulysses]), and their static sizes.
  SmallVector<int16_t> axes;
  SmallVector<int64_t> axisSizes;
  /// c, the product of `axisSizes`.
  int64_t numRanks = 1;
  AttentionStrategy strategy = AttentionStrategy::Ring;
  /// Chunks r and 2c-1-r of 2c per rank, else s/c contiguous tokens.
  bool zigzag = true;
  /// Pad a sequence not divisible by c (2c with zigzag) and mask the padding.
  bool pad = false;
  /// Ring backward: the forward's received K/V blocks are kept for it.
  bool keepKV = false;
  /// > 0: sequence-sharded [b, a_kv, s, d] results (a prefill's K/V) are
  /// returned block-cyclic with this interleave, the decode layout
  /// (relayoutToCyclic); 0: in the prefill's split.
  int64_t kvCacheInterleave = 0;
};

/// `local`, this rank's tokens [b, a_kv, s/c, d] of a result in `target`'s
/// split (contiguous or zigzag, one grid axis), moved to the block-cyclic
/// layout of interleave I by one all-to-all over the axis, whose bytes per
/// rank are added to `bytesSent` (docs/decode.md, "From prefill to
/// decode"). Fails, building nothing, with `why` set, when the chunks are
/// not whole rounds of c I tokens or the split is not on one axis.
FailureOr<Value> relayoutToCyclic(OpBuilder &b, Location loc, Value local,
                                  const ContextParallelTarget &target,
                                  int64_t interleave, int64_t &bytesSent,
                                  std::string &why);

/// The block-cyclic form (interleave I) of a K/V result taken out of
/// `gathered` [b, a_kv, s, d], its all-gathered form with the ranks' tokens
/// in rank order (`target`'s split), by `rank` (this rank on the one grid
/// axis): a local strided slice, no communication. Fails, building nothing,
/// with `why` set, when s is not whole rounds of c I tokens.
FailureOr<Value> cyclicFromGathered(OpBuilder &b, Location loc, Value gathered,
                                    Value rank,
                                    const ContextParallelTarget &target,
                                    int64_t interleave, std::string &why);

/// What the rewrite of one function did (the pass's statistics).
struct ContextParallelCounts {
  int64_t attentionRewritten = 0;
  int64_t valuesGathered = 0;
};

/// Shards the sequence of the single-block, uncalled `func` (argument
/// sequence dims and their token digits `argSeqDims`) over `target`, with
/// a remark for
/// the function (attention strategy, transfers and bytes) and one per
/// gathered value. Leaves `func` as it was, with a remark, when an argument
/// is already split along its sequence or over the target's axes. Fails,
/// with a located error and before any IR changes, when c exceeds the
/// sequence, the sequence is not divisible without `pad`, or an attention's
/// heads do not divide over the Ulysses ranks.
LogicalResult buildContextParallelFunction(func::FuncOp func,
                                           const ArgSeqDims &argSeqDims,
                                           const ContextParallelTarget &target,
                                           ContextParallelCounts &counts);

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_CONTEXTPARALLELBUILDER_H
