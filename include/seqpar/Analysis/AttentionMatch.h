//===- AttentionMatch.h - written-out attention, any layout -----*- C++ -*-===//
//
// Attention as exporters write it: P = softmax over the keys of
// logits = scale * Q.K^T (+ mask, or masked by a select), out = P.V, with the
// two products as any plain contractions (batch_matmul on heads collapsed
// with the batch, rank-4 generics over [b, a] batch loops, transposed maps,
// K.Q^T, V^T.P^T, results in any order of their dims: P.V token-major
// [b, s, a, d], [s, b, a, d]) and Q, K, V, P, the mask in whatever layout
// the exporter chose. Elements are followed back through data movement
// (ElementTrace.h) in one index space, (batch..., i, j, e): the matcher
// finds the tensors that hold Q, K and V as [b, heads, tokens, d] up to a
// permutation, or as [b*heads, tokens, d] (3-D operands with no 4-D
// origin), K and V before any GQA repeat (repeated h floordiv r, or tiled
// h mod a_kv), and for TP's per-rank heads of a K/V that t does not divide,
// the rank's heads of the tensor before the repeat. Masks are views of a
// tensor with dims [b|1, a|1, s|1, t|1] in any order, or terms computed in
// the body of the op that applies them. Dropout between the softmax and P.V
// (P' = P * m, m a function of positions only; DropoutMatch.h) is peeled
// off and kept as the attention's dropout. docs/context-parallelism.md,
// "Raising attention from other exporters".
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_ATTENTIONMATCH_H
#define SEQPAR_ANALYSIS_ATTENTIONMATCH_H

#include "seqpar/Analysis/IndexFunction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::seqpar {

/// A tensor read as [b, heads, tokens, d] (a mask: [b|1, a|1, s|1, t|1]).
/// Plain: a rank-4 tensor whose dims perm[0..3] are those, shape empty.
/// Otherwise perm[k] is the dim holding dim k of the view, -1 where the
/// view has a unit dim the tensor lacks, perm[0] == perm[1] where one dim
/// holds b * heads + h ([b*a, s, d]); dims of the tensor in no entry have
/// size 1; `shape` is the view's shape.
struct HeadsOperand {
  Value value;
  SmallVector<int64_t, 4> perm;
  SmallVector<int64_t, 0> shape;

  /// A rank-4 transpose (or the tensor itself), nothing else.
  bool isPermutation() const { return shape.empty(); }
};

/// K or V of this TP rank's query heads when t does not divide a_kv: the
/// operand's view is heads [start, start + n) of the [b, a_kv, t, d] view
/// of the tensor, start = `start` (an affine expression of symbol s0) of
/// the index value `offset` (the rank's slice offset). Null otherwise.
struct RankHeads {
  Value offset;
  AffineExpr start;
};

/// A mask computed inside the body of the op that applies it to the logits
/// (`op`, a generic with an identity output map): an additive term
/// (`value`) or, for a select that hides logits with -inf, its condition
/// (`value`, true where the logit is kept when `keepWhenTrue`).
/// The raiser builds it over `loops`, the loops of `op` it varies along
/// (the loops its inputs' maps and its linalg.index ops use), in order.
struct BodyMask {
  linalg::GenericOp op;
  Value value;
  bool isSelect = false;
  bool keepWhenTrue = true;
  SmallVector<unsigned, 4> loops;
};

/// Dropout of the probabilities: P.V reads P' = P * m (DropoutMatch.h), m
/// a function of the element's (batch, head, query, key) only.
struct AttentionDropout {
  /// P' as the program holds it (P.V's operand, or a tensor behind it) and
  /// where P'[b, h, i, j] is in it, as `probabilityCoords` says P's.
  Value value;
  SmallVector<AffineExpr> coords;
  /// m as a seqpar.attention dropout region, with the head offset it reads
  /// (a TP rank's heads).
  IndexFunction function;
  /// The elementwise ops from P to P'.
  SmallVector<Operation *> ops;
};

/// Where each dim of P.V's result comes from in attention's [b, a, s, d]
/// result.
enum class ResultDim { Batch, Head, Query, HeadDim, BatchHead, HeadBatch };

/// The attention found for one P.V contraction.
struct AttentionMatch {
  HeadsOperand query, key, value;
  /// Set when K and V are views of this TP rank's heads (the operands'
  /// shapes then give the rank's n heads; their tensors hold all a_kv).
  RankHeads keyHeads, valueHeads;
  /// An additive mask that is not causal, as a view of `mask.value`; when
  /// `bodyMask.op` is set, `mask.value` is that op's result (the mask is
  /// built with its type) until the raiser builds it.
  HeadsOperand mask;
  BodyMask bodyMask;
  double scale = 1.0;
  bool causal = false;
  /// Query head h reads K/V head h mod a_kv (K/V tiled, concatenated or
  /// gathered that way), not h floordiv (a / a_kv).
  bool kvTiled = false;
  /// The P.V product's batch loops: one (b*a, head-major) or two (b, a).
  unsigned numBatchLoops = 1;
  /// P.V's result dims.
  SmallVector<ResultDim, 4> resultDims;
  /// The softmax probabilities P, as the program holds them.
  Value probabilities;
  /// Where P[b, h, i, j] is in `probabilities`: affine expressions of the
  /// five dims (b, h, i, j, e) (e unused), h a query head; empty unless P.V's
  /// batch loops are b * a + h or (b, h).
  SmallVector<AffineExpr> probabilityCoords;
  /// Set when P.V reads the probabilities through a dropout.
  std::optional<AttentionDropout> dropout;
};

/// The values `v` takes on the ranks of its grid: `v` an index computed
/// from shard.process_multi_index / process_linear_index of a static grid
/// by constants and integer arithmetic (TP's slice offset of a rank's
/// heads), one value per world rank in row-major order. Empty when it is
/// anything else or the grid has more than 4096 ranks.
SmallVector<int64_t> valuesOverRanks(Value v);

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
/// `why` naming the step when it does but the rest does not match; then
/// `probabilities` (if given) receives P.
FailureOr<AttentionMatch> matchAttention(linalg::LinalgOp pv, std::string &why,
                                         Value *probabilities = nullptr);

/// A contraction (upstream's interface, two inputs) reading `p` through
/// reshapes, transposes, broadcasts and slices, or null. Also a
/// multiply-accumulate generic with a grouped operand (groupedOperand).
Operation *contractionReading(Value p);

/// For a generic whose body is out + a * b (two inputs, reduction loops)
/// and that reads one input through a map whose results are distinct loop
/// dims or `dim floordiv c` (c > 0, at least one floordiv, each dim's
/// static range exactly c times the tensor's size), the other input's map a
/// projected permutation: that input's number. An einsum reading K/V head
/// h floordiv r (GQA with no repeat op) is one; seqpar-raise-attention
/// materialises the repeat (materializeGroupedOperand) so that the
/// attention matcher sees a plain contraction behind a repeat.
std::optional<unsigned> groupedOperand(linalg::LinalgOp op);

/// For a generic whose body is out + a * b (two inputs, static loops,
/// plain-dim maps, an output of rank 5 or more) with two parallel loops
/// (k, g) that the output reads side by side, one input reads k without g
/// and every operand reading g reads k just before it: those loops, k
/// first. (At rank 4, [b, a, s, t] logits, heads and keys would pass.) An einsum of GQA written
/// with a KV-head dim and a group dim ('btkgh,bskh->bkgts', MaxText) is
/// one: its query heads are k * G + g, its K/V heads k.
std::optional<std::pair<unsigned, unsigned>>
groupLoopPair(linalg::LinalgOp op);

/// Rewrites `op` (groupLoopPair(op) = (k, g)) as one loop over the K * G
/// heads: operands reading k and g read them collapsed (tensor.
/// collapse_shape), the one reading k alone reads head floordiv G (the
/// form of groupedOperand), and the result is expanded back. Returns the
/// new op, or null when `op` does not qualify (nothing changed).
Operation *collapseGroupLoops(OpBuilder &b, linalg::LinalgOp op);

/// Rewrites `op` (groupedOperand(op) = n) to read input n, repeated by a
/// new generic over the dims its map reads, through a projected
/// permutation. Returns the repeating op, or null when `op` does not
/// qualify (nothing changed).
Operation *materializeGroupedOperand(OpBuilder &b, linalg::LinalgOp op);

/// For softmax probabilities `p` (linalg.softmax or a form SoftmaxMatch.h
/// knows) that no seqpar.attention replaced: why they are not an
/// attention's, naming the step that failed. Empty when `p` does not look
/// like attention at all: rank 2 and no contraction reads it (a loss's or a
/// classifier's softmax over its classes).
std::string whySoftmaxNotAttention(Value p);

/// True when `v`, computed by ops of `body`, reads the block argument `arg`
/// (the data input of a generic, as opposed to a mask or a factor).
bool readsArgument(Value v, BlockArgument arg, Block *body);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_ATTENTIONMATCH_H
