//===- SoftmaxMatch.h - softmax as exporters write it -----------*- C++ -*-===//

#ifndef SEQPAR_ANALYSIS_SOFTMAXMATCH_H
#define SEQPAR_ANALYSIS_SOFTMAXMATCH_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::seqpar {

/// The op defining `v` when it is elementwise over `v`'s rank: one result,
/// identity output map, no reduction loops (generic or named op).
linalg::LinalgOp elementwiseProducer(Value v);

/// The scalar every element of `tensor` holds: a linalg.fill or splat
/// constant, or a generic copying a scalar constant into every element,
/// also behind broadcasts (linalg.broadcast or a generic copying its
/// input), reshapes and transposes.
std::optional<double> splatValue(Value tensor);

/// The logits x of p = softmax(x) over p's last dim, or null. Softmax is
/// linalg.softmax, or exp(x - max) / sum written as generics or named ops:
/// max and sum as linalg.reduce or reduction generics over the last dim
/// (keepdim through an expand_shape or not; the sum starts at 0), x - max
/// and exp in one generic or two, / sum as a division or as a product with
/// 1 / sum (tosa's reciprocal). The max's initial value does not matter
/// (softmax is shift-invariant), as long as it is not above the row's max:
/// -inf, the lowest float, or NaN with maxnumf. Also the log-sum-exp form
/// exp(x - (max + log(sum))) and exp of torch's log_softmax,
/// exp((x - max) - log(sum)), sum the row sum of exp(x - max); the
/// reciprocal 1 / sum may be in the multiplying op's body. Wherever a row
/// value (max, sum, 1 / sum, log-sum-exp) is read through a row indexing
/// map it may instead be materialised over the row and read elementwise: a
/// linalg.broadcast adding the last dim, or a generic copying it through a
/// row map (stablehlo's broadcast_in_dim). exp(t) may be written
/// exp2(t * c) with c = log2(e) up to f32 rounding, the product in the
/// exp2's body or in an op of its own.
Value softmaxInput(Value p);

/// For `p` that looks like a softmax (exp(..) divided by, or multiplied by
/// the reciprocal of, a row value; exp of a difference with a row
/// log-sum-exp) but is not one softmaxInput accepts: the step that failed.
/// Empty otherwise.
std::string whyNotSoftmax(Value p);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_SOFTMAXMATCH_H
