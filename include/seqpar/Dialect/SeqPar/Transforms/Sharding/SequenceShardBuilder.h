//===- SequenceShardBuilder.h - IR for values sharded along s ---*- C++ -*-===//
//
// Builds the IR that moves values between their global form and their
// sequence-sharded per-rank form over one grid axis (or several, major to
// minor, as one group): local slices (no communication), reduce-scatter,
// all-gather, and the rank's global token offset. Handles sequences flattened
// into a larger dim ([b*s, h]) by viewing that dim as [outer, s*inner].
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDBUILDER_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDBUILDER_H

#include "seqpar/Analysis/TokenWiseAnalysis.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>

namespace mlir::seqpar {

class SequenceShardBuilder {
public:
  /// `numRanks` (t) ranks along `gridAxis` of `grid`; `seqLen` (s, global
  /// elements). When s is not divisible by t, values are padded with zeros to
  /// s' = t*ceil(s/t) tokens before they are split, and gathered values are
  /// cut back to s: each rank holds ceil(s/t) tokens, the last ones padding.
  /// Rank queries are created at the start of `func`'s body.
  ///
  /// With `zigzag` (context parallelism's causal load balance,
  /// docs/semantics.md §4.2) the sequence is cut into 2t chunks of s'/(2t)
  /// tokens and rank r holds chunks r and 2t-1-r, in that order (s' =
  /// 2t*ceil(s/(2t)); the padding tokens are the last ones of the sequence, in
  /// rank 0's second chunk and on).
  SequenceShardBuilder(func::FuncOp func, FlatSymbolRefAttr grid,
                       int16_t gridAxis, int64_t numRanks, int64_t seqLen,
                       bool zigzag = false);
  /// The sequence split over the group of `gridAxes` (sizes `axisSizes`,
  /// major to minor): t is their product and the rank in the group the
  /// row-major linear index of the axis coordinates (the runtime's order).
  SequenceShardBuilder(func::FuncOp func, FlatSymbolRefAttr grid,
                       ArrayRef<int16_t> gridAxes, ArrayRef<int64_t> axisSizes,
                       int64_t seqLen, bool zigzag = false);

  /// The builder over the same grid axes for another sequence of `tokens`
  /// tokens (an encoder-decoder's second input; docs/context-parallelism.md,
  /// "Encoder-decoder: two sequences"): this one when `tokens` is s, else
  /// one made on first use, sharing this one's rank values. Unpadded
  /// lengths only. The methods below that take a StridedDim (shardTokenWiseOp:
  /// the op's result's, from the analysis) hand a value of another
  /// sequence's length (StridedDim::extent) to that length's builder.
  SequenceShardBuilder &forLength(int64_t tokens);

  /// Per-rank type of `global`, whose dim `dim` holds outer * s * inner
  /// elements: the s tokens become ceil(s/t).
  RankedTensorType localType(RankedTensorType global, int64_t dim) const;

  /// Global token offset times `inner`, as an index:
  /// rank * ceil(s/t) * inner. Contiguous shards only (a zigzag shard is two
  /// boxes: see `globalToken`).
  Value tokenOffset(OpBuilder &b, int64_t inner);

  /// Global position of token `localToken` (index in [0, ceil(s/t))) of the
  /// shard held by axis rank `rank`: rank * ceil(s/t) + localToken, or with
  /// zigzag, for h = s/(2t), chunk * h + localToken % h where chunk is `rank`
  /// for the first h tokens and 2t-1-rank for the others.
  Value globalToken(OpBuilder &b, Location loc, Value rank, Value localToken);

  /// A tensor<n x index> whose element i is `position(b, i)`, built by a
  /// linalg.generic (the position function is emitted in its body).
  static Value
  positionTensor(OpBuilder &b, Location loc, int64_t n,
                 function_ref<Value(OpBuilder &, Location, Value)> position);

  /// Global position along a flattened dim of local index `local`, with
  /// l = ceil(s/t)*inner: (local / l) * (s*inner) + rank*l + local % l (the
  /// outer part disappears when `outer` is 1). Padding tokens map past the
  /// end of their row; their values are discarded by the all-gather. With
  /// zigzag the token digit goes through `globalToken`.
  Value globalIndex(OpBuilder &b, Location loc, Value local, int64_t outer,
                    int64_t inner);

  /// This rank's tokens of the replicated value `global` (no communication):
  /// a fresh `tensor.empty`/`linalg.fill` for shape-only values, else an
  /// extract_slice at the rank's offset along `dim`.
  Value localize(OpBuilder &b, Location loc, Value global, int64_t dim,
                 int64_t inner);

  /// Erases the global tensor.empty and linalg.fill ops `localize` rebuilt
  /// that nothing reads any more, as the clean-up after the rewrite would
  /// (docs/benchmarks.md §1), and empties the cache.
  void eraseUnusedShapeOnlyGlobals();

  /// Marks what `localize` made of each of `globals` as this rank's block of
  /// the sequence (SeqParDialect::kSequenceBlockAttrName), so that a later
  /// rewrite shards from there: a padded sequence cannot be stated by a
  /// #seqpar.sharding, so its arguments stay whole.
  void markSequenceBlocks(const DenseSet<Value> &globals);
  /// Marks `local`, this rank's tokens laid out as `seq`, as a block of the
  /// sequence (when its defining op has that one result).
  void markSequenceBlock(Value local, StridedDim seq);

  /// reduce_scatter(sum) of the partial sums `partial` along the sequence.
  Value reduceScatter(OpBuilder &b, Location loc, Value partial,
                      StridedDim seq);

  /// all_gather of the sequence shards `local` back to the global tensor
  /// (zigzag chunks put back in sequence order).
  Value allGather(OpBuilder &b, Location loc, Value local, StridedDim seq);

  /// Rewrites the token-wise `op` (TokenWiseInfo::isTokenWise, results with
  /// a sequence dim) to run on this rank's tokens: replicated sequence-indexed
  /// operands not in `localValues` are localized, results get their local
  /// types (and join `localValues`), shapes spelled in attributes follow,
  /// `linalg.index` of the sequence loop reads global positions, and dropout
  /// is keyed by global positions (split in two with zigzag).
  void shardTokenWiseOp(Operation *op, const TokenWiseAnalysis &analysis,
                        DenseSet<Value> &localValues);
  /// Replaces the replicated, sequence-indexed operands of `op` with this
  /// rank's tokens (sliced locally, no communication). Each operand is cut
  /// by its own sequence stride from `analysis` (`inner` for operands the
  /// analysis gives none, which follow the op's sequence loop).
  void localizeOperands(Operation *op, const TokenWiseInfo &info,
                        const TokenWiseAnalysis &analysis, int64_t inner,
                        const DenseSet<Value> &localValues);
  /// Makes `linalg.index` of the sequence loop read the global position.
  void offsetPositions(Operation *op, const TokenWiseInfo &info, int64_t outer,
                       int64_t inner);
  /// Runs the linalg reduction `op`, whose sequence loop is a reduction
  /// (TokenWiseInfo::reducesSequence) combined by `kind`, on this rank's
  /// tokens (operands localized as above, `seq` their sequence layout) and
  /// all-reduces the partial result over the grid axes. A sum reduces the
  /// shard from zero and adds a non-zero init once, after the all-reduce;
  /// max and min keep their init. Unpadded sequences only: padding tokens
  /// would join the reduction.
  void reduceOnShards(Operation *op, const TokenWiseAnalysis &analysis,
                      shard::ReductionKind kind, StridedDim seq,
                      const DenseSet<Value> &localValues);

  /// The rank of this process in the group of the grid axes (created once,
  /// at the function start).
  Value rank(OpBuilder &b);
  /// This process's coordinate on the `i`-th of the grid axes.
  Value axisRank(OpBuilder &b, unsigned i);
  bool isZigzag() const { return zigzag; }
  FlatSymbolRefAttr getGrid() const { return grid; }
  ArrayRef<int16_t> getGridAxes() const { return gridAxes; }
  ArrayRef<int64_t> getAxisSizes() const { return axisSizes; }
  int64_t getNumRanks() const { return numRanks; }
  /// Global sequence length s (without padding).
  int64_t getSeqLen() const { return seqLen; }

  /// `value[.., offset : offset + size, ..]` along `axis`, whole elsewhere.
  static Value sliceAlong(OpBuilder &b, Location loc, Value value,
                          int64_t axis, OpFoldResult offset, int64_t size);

  /// Bytes each rank sends (getBytesSent, docs/semantics.md §5) for an
  /// all-reduce of `global`, and for a reduce-scatter or all-gather of it,
  /// which move the padded tensor when s is padded. `global` holds the
  /// whole (unpadded) sequence.
  int64_t allReduceBytes(RankedTensorType global) const;
  int64_t gatherOrScatterBytes(RankedTensorType global) const;

  /// True when the sequence is padded (s not divisible by t, or 2t with
  /// zigzag).
  bool isPadded() const { return paddedSeqLen != seqLen; }
  /// Tokens per rank, ceil(s/t) (2*ceil(s/(2t)) with zigzag).
  int64_t getLocalSeqLen() const { return localSeqLen; }

private:
  /// The builder of `seq`'s sequence (forLength of its extent; this one
  /// where the extent is not tracked).
  SequenceShardBuilder &of(StridedDim seq) {
    return seq.extent > 0 ? forLength(seq.extent) : *this;
  }
  /// `localize` without its cache.
  Value buildLocal(OpBuilder &b, Location loc, Value global, int64_t dim,
                   int64_t inner);
  /// Pads the view axis `axis` (holding s*inner elements) of `value` with
  /// zeros to s'*inner; no-op without padding.
  Value padSequence(OpBuilder &b, Location loc, Value value, int64_t axis,
                    int64_t inner);
  /// Outer extent of dim `dim` of `type` given the sequence's inner stride.
  int64_t outerOf(RankedTensorType type, int64_t dim, int64_t inner) const;
  /// Views dim `dim` of `value` as [outer, rest] when outer > 1.
  Value splitOuter(OpBuilder &b, Location loc, Value value, int64_t dim,
                   int64_t outer);
  /// Undoes splitOuter.
  Value mergeOuter(OpBuilder &b, Location loc, Value value, int64_t dim);
  /// `value`'s chunks of `size` elements along `axis` at `offsets`, in order,
  /// concatenated.
  Value gatherChunks(OpBuilder &b, Location loc, Value value, int64_t axis,
                     ArrayRef<OpFoldResult> offsets, int64_t size);

  /// Creates the axis coordinates and the group rank.
  void createRanks(OpBuilder &b);

  func::FuncOp func;
  FlatSymbolRefAttr grid;
  SmallVector<int16_t> gridAxes;
  SmallVector<int64_t> axisSizes;
  int64_t numRanks;
  int64_t seqLen;
  int64_t localSeqLen;
  int64_t paddedSeqLen;
  bool zigzag;
  Value rankValue;
  SmallVector<Value> axisRanks;
  llvm::DenseMap<int64_t, Value> offsets;
  /// (global, dim) -> this rank's tokens, and their sequence's inner stride.
  llvm::DenseMap<std::pair<Value, int64_t>, std::pair<Value, int64_t>>
      localized;
  /// forLength's builders, by length.
  std::map<int64_t, std::unique_ptr<SequenceShardBuilder>> otherLengths;
};

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDBUILDER_H
