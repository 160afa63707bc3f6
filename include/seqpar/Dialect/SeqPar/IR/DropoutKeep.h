//===- DropoutKeep.h - seqpar.dropout's keep bit ------------------*- C++ -*-===//
//
// The one home of seqpar.dropout's draw (its op doc; docs/semantics.md
// §3.2): a Philox-4x32-10 word keyed by (seed, site, global linear index),
// kept when its top 24 bits scaled to [0, 1) are >= rate. Expanding the op
// (seqpar-expand-dropout) and raising a dropout of attention probabilities
// into the attention's dropout region (docs/semantics.md §4.8) both emit it.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_IR_DROPOUTKEEP_H
#define SEQPAR_DIALECT_SEQPAR_IR_DROPOUTKEEP_H

#include "mlir/IR/Builders.h"

namespace mlir::seqpar {

/// The i1 keep bit of the element whose row-major index in the global
/// tensor is `linear` (i64), for seed `seed` (i64), `site` and `rate`.
Value buildDropoutKeep(OpBuilder &b, Location loc, Value linear, Value seed,
                       int64_t site, double rate);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_IR_DROPOUTKEEP_H
