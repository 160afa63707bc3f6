//===- AttentionPartial.h - attention over part of the keys ----*- C++ -*-===//
//
// Ring attention (seqpar-context-parallel) and key tiling
// (seqpar-tile-attention) both compute an attention as partials over parts
// of the keys, merged with seqpar.attention_merge and finished once; this is
// the one home of that sequence (docs/context-parallelism.md, "Merging").
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_ATTENTIONPARTIAL_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_ATTENTIONPARTIAL_H

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

namespace mlir::seqpar {

/// The attention of query rows over some of the keys, as
/// seqpar.attention_block gives it: `out` f32 [b, a, s, d] normalised over
/// those keys, and the rows' LSE in two parts, `rowMax` and `rowSum`
/// (f32 [b, a, s]; LSE = rowMax + log(rowSum)).
struct AttentionPartial {
  Value out, rowMax, rowSum;

  static AttentionPartial of(AttentionBlockOp op) {
    return {op.getOut(), op.getRowMax(), op.getRowSum()};
  }
  static AttentionPartial of(ValueRange values) {
    return {values[0], values[1], values[2]};
  }
  SmallVector<Value, 3> values() const { return {out, rowMax, rowSum}; }
};

/// The partial over no keys, which a merge ignores: out = 0,
/// rowMax = -inf, rowSum = 0, for an f32 `outType` [b, a, s, d].
AttentionPartial buildEmptyAttentionPartial(OpBuilder &b, Location loc,
                                            RankedTensorType outType);

/// seqpar.attention_merge of `x` and `y`.
AttentionPartial buildAttentionMerge(OpBuilder &b, Location loc,
                                     AttentionPartial x, AttentionPartial y);

/// The attention result from the partial over all keys: out in `elem`
/// (f32 arithmetic rounded once), NaN on rows with rowSum = 0 (every key
/// masked by -inf), where the single-device softmax computes 0/0.
Value buildAttentionResult(OpBuilder &b, Location loc, AttentionPartial partial,
                           Type elem);

/// Replaces `op` by one seqpar.attention_block over positions 0.. (the
/// mask and the dropout as they are) and its result in `op`'s element type (the block computes
/// in f32), and returns the block, which tiling or the decomposition
/// takes from there.
AttentionBlockOp buildAttentionAsBlock(AttentionOp op);

/// Replaces the whole backward `op` by the rows' LSE and one
/// seqpar.attention_block_backward over positions 0.. (docs/semantics.md
/// §4.7), the f32 gradients rounded once to `op`'s types; returns the block
/// backward, which tiling or the decomposition takes from there. The LSE is
/// `forward`'s row statistics when given (the block of the attention whose
/// result `op` differentiates: AttentionBackwardOp::getForwardAttention),
/// else that of one more seqpar.attention_block over all keys, which
/// recomputes them.
AttentionBlockBackwardOp
buildAttentionBackwardAsBlocks(AttentionBackwardOp op,
                               AttentionBlockOp forward = {});

/// The blocks of buildAttentionAsBlock and buildAttentionBackwardAsBlocks.
struct AttentionBlocks {
  SmallVector<AttentionBlockOp> forwards;
  SmallVector<AttentionBlockBackwardOp> backwards;
};

/// Replaces each of `forwards` by its block and each of `backwards` by its
/// block backward (results in the same order). A backward of an attention
/// (AttentionBackwardOp::getForwardAttention) reads that attention's block's
/// row statistics instead of recomputing them: a training step's attention then
/// computes its scores twice (forward, backward), not three times. Such an
/// attention becomes a block too when it is not in `forwards`.
AttentionBlocks
buildAttentionsAsBlocks(ArrayRef<AttentionOp> forwards,
                        ArrayRef<AttentionBackwardOp> backwards);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_ATTENTION_ATTENTIONPARTIAL_H
