//===- SequenceShardBuilder.h - IR for values sharded along s ---*- C++ -*-===//
//
// Builds the IR that moves values between their global form and their
// sequence-sharded per-rank form over one grid axis: local slices (no
// communication), reduce-scatter, all-gather, and the rank's global token
// offset. Handles sequences flattened into a larger dim ([b*s, h]) by
// viewing that dim as [outer, s*inner].
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_SEQUENCESHARDBUILDER_H
#define SEQPAR_LIB_TRANSFORMS_SEQUENCESHARDBUILDER_H

#include "seqpar/Analysis/TokenWiseAnalysis.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::seqpar {

class SequenceShardBuilder {
public:
  /// `numRanks` (t) ranks along `gridAxis` of `grid`; `seqLen` (s, global
  /// elements). When s is not divisible by t, values are padded with zeros to
  /// s' = t*ceil(s/t) tokens before they are split, and gathered values are
  /// cut back to s: each rank holds ceil(s/t) tokens, the last ones padding.
  /// Rank queries are created at the start of `func`'s body.
  SequenceShardBuilder(func::FuncOp func, FlatSymbolRefAttr grid,
                       int16_t gridAxis, int64_t numRanks, int64_t seqLen);

  /// Per-rank type of `global`, whose dim `dim` holds outer * s * inner
  /// elements: the s tokens become ceil(s/t).
  RankedTensorType localType(RankedTensorType global, int64_t dim) const;

  /// Global token offset times `inner`, as an index:
  /// rank * ceil(s/t) * inner.
  Value tokenOffset(OpBuilder &b, int64_t inner);

  /// Global position along a flattened dim of local index `local`, with
  /// l = ceil(s/t)*inner: (local / l) * (s*inner) + rank*l + local % l (the
  /// outer part disappears when `outer` is 1). Padding tokens map past the
  /// end of their row; their values are discarded by the all-gather.
  Value globalIndex(OpBuilder &b, Location loc, Value local, int64_t outer,
                    int64_t inner);

  /// This rank's tokens of the replicated value `global` (no communication):
  /// a fresh `tensor.empty`/`linalg.fill` for shape-only values, else an
  /// extract_slice at the rank's offset along `dim`.
  Value localize(OpBuilder &b, Location loc, Value global, int64_t dim,
                 int64_t inner);

  /// reduce_scatter(sum) of the partial sums `partial` along the sequence.
  Value reduceScatter(OpBuilder &b, Location loc, Value partial, SeqDim seq);

  /// all_gather of the sequence shards `local` back to the global tensor.
  Value allGather(OpBuilder &b, Location loc, Value local, SeqDim seq);

  /// Bytes each rank sends for a collective on a global tensor of `type`
  /// (SPEC section 5, ring algorithms): all-reduce 2N(t-1)/t, all-gather and
  /// reduce-scatter N(t-1)/t, with N the global tensor's bytes (of the
  /// padded tensor for reduce-scatter and all-gather when s is padded).
  /// `global` holds the whole (unpadded) sequence.
  int64_t allReduceBytes(RankedTensorType global) const;
  int64_t gatherOrScatterBytes(RankedTensorType global) const;

  /// True when the sequence is padded (s not divisible by t).
  bool isPadded() const { return paddedSeqLen != seqLen; }
  /// Tokens per rank, ceil(s/t).
  int64_t getLocalSeqLen() const { return localSeqLen; }

private:
  /// Pads the view axis `axis` (holding s*inner elements) of `value` with
  /// zeros to s'*inner; no-op without padding.
  Value padSequence(OpBuilder &b, Location loc, Value value, int64_t axis,
                    int64_t inner);
  /// `value[.., offset : offset + size, ..]` along `axis`, whole elsewhere.
  Value sliceAlong(OpBuilder &b, Location loc, Value value, int64_t axis,
                   OpFoldResult offset, int64_t size);
  /// Outer extent of dim `dim` of `type` given the sequence's inner stride.
  int64_t outerOf(RankedTensorType type, int64_t dim, int64_t inner) const;
  /// Views dim `dim` of `value` as [outer, rest] when outer > 1.
  Value splitOuter(OpBuilder &b, Location loc, Value value, int64_t dim,
                   int64_t outer);
  /// Undoes splitOuter.
  Value mergeOuter(OpBuilder &b, Location loc, Value value, int64_t dim);
  Value rank(OpBuilder &b);

  func::FuncOp func;
  FlatSymbolRefAttr grid;
  int16_t gridAxis;
  int64_t numRanks;
  int64_t seqLen;
  int64_t localSeqLen;
  int64_t paddedSeqLen;
  Value rankValue;
  llvm::DenseMap<int64_t, Value> offsets;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> localized;
};

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_SEQUENCESHARDBUILDER_H
