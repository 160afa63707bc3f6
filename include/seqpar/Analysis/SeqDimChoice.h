//===- SeqDimChoice.h - which argument dim is the sequence ------*- C++ -*-===//
//
// The one place the sequence-sharding rewrites (sequence parallelism,
// context parallelism) decide the sequence dim of a function's arguments
// (docs/semantics.md §3.1, docs/sequence-parallel.md): a `seqpar.seq_dim`
// argument attribute wins, then the `seq-dim` option, then the dim the
// function's attention reads as its tokens (SeqDimInference.h).
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_SEQDIMCHOICE_H
#define SEQPAR_ANALYSIS_SEQDIMCHOICE_H

#include "seqpar/Analysis/SeqDimInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::seqpar {

/// The token dims of every attention in `func`: `seqpar.attention` and
/// `seqpar.attention_block` operands, and the Q, K, V tensors of written-out
/// attention that seqpar-raise-attention recognises (AttentionMatch.h).
SmallVector<AttentionTokens> findAttentionTokens(func::FuncOp func);

/// The sequence dim of each argument of a function, and how it was chosen.
struct ArgSeqDims {
  /// Per argument: its sequence dim, or -1.
  SmallVector<int64_t> dims;
  /// Per argument: the token digit of a sequence dim that holds the tokens
  /// flattened with other dims ([b*s, h]: outer b; [s*b, h]: inner b), as
  /// the attention's tokens were followed back to it (for an inferred dim,
  /// and for a given one they reach); extent 0 where the dim holds the
  /// tokens alone or no attention reaches it: its size is then its length.
  SmallVector<StridedDim> digits;
  /// When every entry of `dims` is -1: why, as a sentence fragment that
  /// completes "no sequence dim for @f: ".
  std::string whyNone;

  bool any() const {
    return llvm::any_of(dims, [](int64_t dim) { return dim >= 0; });
  }
};

/// Chooses the sequence dims of `func`'s arguments: the `seqpar.seq_dim`
/// attributes; else `optionSeqDim` (>= 0) on the first tensor argument of
/// larger rank; else the inferred dim, with a remark saying so. An explicit
/// choice the attention contradicts is kept, with a remark naming both.
ArgSeqDims chooseArgSeqDims(func::FuncOp func, int64_t optionSeqDim);

/// `dims` (of `func`'s arguments) without the sequences that cannot be
/// sharded beside the others into `pieces` pieces, when the arguments hold
/// sequences of several lengths (an encoder-decoder's): padding shards one
/// length (padded arguments stay whole, and the blocks cut from them carry
/// one length), so the lengths that divide into the pieces are kept, or,
/// when none does, the first argument's alone. A remark on each argument
/// left out, prefixed "`rewrite`: ", says that it stays whole and why
/// (`piecesText` names the pieces: "4 pieces over grid axes [1]").
ArgSeqDims keepShardableLengths(func::FuncOp func, const ArgSeqDims &dims,
                                int64_t pieces, StringRef rewrite,
                                StringRef piecesText);

/// Why a `seq-dim` option value names no dim whatever the function (-1, the
/// default, infers it); empty when it may.
std::string whyInvalidSeqDimOption(int64_t seqDim);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_SEQDIMCHOICE_H
