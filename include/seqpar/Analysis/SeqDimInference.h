//===- SeqDimInference.h - the sequence dim attention implies ---*- C++ -*-===//
//
// docs/semantics.md §3.1: the sequence dim cannot be assumed ([s, b, h], [b, s,
// h], [b*s, h]). When neither a `seqpar.seq_dim` attribute nor the `seq-dim`
// option names it, it is the dim attention reads as its query/key tokens,
// followed back through the graph (indexing maps, reshapes, slices,
// transposes, collectives) to the function's arguments.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_SEQDIMINFERENCE_H
#define SEQPAR_ANALYSIS_SEQDIMINFERENCE_H

#include "seqpar/Analysis/StridedDim.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <string>

namespace mlir::seqpar {

/// A dim of a ranked tensor that an attention reads as its query or key
/// tokens (the whole dim: one token per index).
struct AttentionTokens {
  Value value;
  int64_t dim;
  /// The attention whose query, key or value this is (the `seqpar.attention`
  /// op, or the P.V product of a written-out one); its three operands are
  /// appended one after another.
  Operation *attention = nullptr;
};

/// Appends dim 2 of the query, key and value of every `seqpar.attention` and
/// `seqpar.attention_block` in `func` (their [b, heads, tokens, d] layout).
void collectSeqParAttentionTokens(func::FuncOp func,
                                  SmallVectorImpl<AttentionTokens> &tokens);

/// What the attention of a function implies about its sequence dim.
struct SeqDimInference {
  /// The argument whose dim `dim` holds the tokens; -1 when nothing could be
  /// inferred (then `why` says why).
  int64_t argNumber = -1;
  int64_t dim = -1;
  std::string why;
  /// Every argument dim some attention's tokens were followed back to
  /// (argument number -> dims), e.g. a RoPE table [s, d] besides the input.
  llvm::MapVector<unsigned, SmallVector<int64_t, 2>> reached;
  /// The token digit each of `reached` holds: extent its size, or fewer
  /// tokens where they are flattened with other dims ([b*s, h]: outer b;
  /// [s*b, h]: inner b).
  llvm::DenseMap<std::pair<unsigned, int64_t>, StridedDim> tokens;
  /// Other token sequences (an encoder-decoder's decoder input beside its
  /// encoder input): argument dims that the query, key and value of an
  /// attention all reach when none of the three reaches `argNumber`, each
  /// reached at that one dim only (argument number, dim). Their lengths are
  /// not compared here (`tokens` has them).
  SmallVector<std::pair<unsigned, int64_t>> otherSequences;
  /// Arguments that as many attention operands reach as `argNumber`, with
  /// fewer elements (a position table added to the input): the larger one
  /// was taken.
  SmallVector<unsigned> smallerTie;

  bool succeeded() const { return argNumber >= 0; }
};

/// Follows each of `tokens` back to the arguments of `func` (top-level ops
/// and the ops defining their operands; an op without a rule ends the path).
/// A dim holding the tokens flattened with other dims ([b*s, h] or [s*b, h])
/// counts as that dim, as the `seq-dim` option would name it. The argument
/// chosen is the one the most token dims reach (the input reaches Q, K and
/// V; a position table only Q and K); it must be reached at a single dim.
/// Fails, with `why`, without attention, when no token dim reaches an
/// argument, when two arguments tie (unless one has more elements: it is
/// taken, the others named in `smallerTie`), or when the chosen one is
/// reached at two dims (both dims of an [s, s] mask). Once an argument is
/// chosen, the self-attentions that read none of its tokens name
/// `otherSequences`.
SeqDimInference inferSeqDim(func::FuncOp func,
                            ArrayRef<AttentionTokens> tokens);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_SEQDIMINFERENCE_H
