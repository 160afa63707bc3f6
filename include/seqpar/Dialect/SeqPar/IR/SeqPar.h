//===- SeqPar.h - seqpar dialect, attributes and ops ------------*- C++ -*-===//
//
// The seqpar dialect: per-rank sharding attribute, sequence-dim annotation and
// position-keyed dropout. See SeqParDialect.td for the semantics.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_IR_SEQPAR_H
#define SEQPAR_DIALECT_SEQPAR_IR_SEQPAR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "seqpar/Dialect/SeqPar/IR/SeqParOpsDialect.h.inc"
#include "seqpar/Dialect/SeqPar/IR/SeqParEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParAttrs.h.inc"

#include "seqpar/Dialect/SeqPar/IR/SeqParCollectives.h"

#define GET_OP_CLASSES
#include "seqpar/Dialect/SeqPar/IR/SeqParOps.h.inc"

namespace mlir::seqpar {

/// Returns the `seqpar.sharding` attribute of argument `argIndex` of `func`,
/// or null when absent.
ShardingAttr getArgSharding(FunctionOpInterface func, unsigned argIndex);
/// Returns the `seqpar.sharding` attribute of result `resultIndex` of `func`,
/// or null when absent.
ShardingAttr getResultSharding(FunctionOpInterface func, unsigned resultIndex);

/// Calls `edit` with the attributes of each argument of `func` (index,
/// list) and stores them all with one rebuild of the argument attribute
/// array. MLIR's setArgAttr rebuilds the whole array per call: per argument
/// over the ~1000 weights of an 80-layer model, that is quadratic
/// (docs/benchmarks.md §1).
void editArgAttrs(FunctionOpInterface func,
                  function_ref<void(unsigned, NamedAttrList &)> edit);
/// editArgAttrs for the results.
void editResultAttrs(FunctionOpInterface func,
                     function_ref<void(unsigned, NamedAttrList &)> edit);
/// Gives every argument and result of `func` without a `seqpar.sharding`
/// the sharding `fallback` (a per-rank program states them all,
/// docs/semantics.md §2).
void setMissingShardings(FunctionOpInterface func, ShardingAttr fallback);

/// The attention ops' dropout (seqpar.attention, attention_backward,
/// attention_block, attention_block_backward: a region of the global
/// (batch, head, query, key) coordinates yielding the keep multiplier, and
/// the global index of the op's first head). Copies the region `from` into
/// the empty region `to`; nothing when `from` is empty.
void cloneAttentionDropout(Region &from, Region &to);
/// True when dropout regions `a` and `b` compute the same function the same
/// way (op by op, locations ignored); two empty regions are the same.
bool sameAttentionDropout(Region &a, Region &b);

/// Checks `sharding` against the grid it names (looked up from `from`) and
/// the per-rank `type`. Reports through `emitError` and fails on violation.
LogicalResult verifyShardingForValue(ShardingAttr sharding, Type type,
                                     Operation *from,
                                     function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_IR_SEQPAR_H
