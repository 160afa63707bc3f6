//===- AttentionMatch.h - written-out attention, any layout -----*- C++ -*-===//
//
// Attention as exporters write it: P = softmax over the keys of
// logits = scale * Q.K^T (+ mask, or masked by a select), out = P.V, with the
// two products as any plain contractions (batch_matmul on heads collapsed
// with the batch, rank-4 generics over [b, a] batch loops, transposed maps)
// and Q, K, V, P, the mask in whatever layout the exporter chose. Elements
// are followed back through data movement (ElementTrace.h) in one index
// space, (batch..., i, j, e): the matcher finds the rank-4 tensors that hold
// Q, K and V as [b, heads, tokens, d] up to a permutation, K and V before any
// GQA repeat.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ATTENTIONMATCH_H
#define SEQPAR_ANALYSIS_ATTENTIONMATCH_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::seqpar {

/// A rank-4 tensor whose dims perm[0..3] are [b, heads, tokens, d] (or, for
/// a mask, [b|1, a|1, s, t]).
struct HeadsOperand {
  Value value;
  SmallVector<int64_t, 4> perm;
};

/// The attention found for one P.V contraction.
struct AttentionMatch {
  HeadsOperand query, key, value;
  /// An additive mask that is not causal: a rank-4 operand, or a rank-2
  /// [s, t] / rank-3 [1, s, t] tensor to expand to [1, 1, s, t].
  HeadsOperand mask;
  Value smallMask;
  double scale = 1.0;
  bool causal = false;
  /// The P.V product's batch loops: one (b*a, head-major) or two (b, a).
  unsigned numBatchLoops = 1;
  /// The softmax probabilities P, as the program holds them.
  Value probabilities;
  /// Where P[b, h, i, j] is in `probabilities`: affine expressions of the
  /// five dims (b, h, i, j, e) (e unused), h a query head.
  SmallVector<AffineExpr> probabilityCoords;
};

/// A constant float, also through truncf/extf (exporters keep 1/sqrt(d) in
/// f64 and truncate it in the body: the casts are applied), or an input of
/// `op` holding one value.
std::optional<double> scalarOperand(Value v, linalg::LinalgOp op);

/// True when `op` is a plain contraction (Contraction.h) into zeros with
/// one m, n and k loop and one or two batch loops, its result laid out
/// [batch..., m, n]; `dims` says which loops are which.
bool isBatchedContraction(linalg::LinalgOp op,
                          linalg::ContractionDimensions &dims);

/// The largest hidden value F of a causal mask on logits of `elementType`
/// that acts as -inf: exp(x + F - max) underflows to exactly 0 once
/// max - x - F exceeds ~104 (f32), and a causal row holds its diagonal
/// logit, so hidden keys vanish unless a row's logits span more than
/// |F| - 104. -1e8 (exporters' -1e9 also after rounding to bf16, -1e30,
/// finfo.min), or half the type's most negative value where that is
/// larger (f16: -32752, so finfo(f16).min qualifies). Megatron's -10000 is
/// not causality (logits that span thousands occur: attention-logit
/// growth) and stays an additive mask (docs/context-parallelism.md,
/// "Raising attention").
double maskedLogitLimit(Type elementType);

/// The attention whose P.V product is `pv`. Fails with `why` empty when `pv`
/// does not multiply softmax probabilities (not attention at all), and with
/// `why` naming the step when it does but the rest does not match.
FailureOr<AttentionMatch> matchAttention(linalg::LinalgOp pv, std::string &why);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ATTENTIONMATCH_H
