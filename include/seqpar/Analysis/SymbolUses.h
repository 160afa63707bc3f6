//===- SymbolUses.h - whether a function is referenced ----------*- C++ -*-===//
//
// The rewrites that change a function's signature (TP planning, SP's
// sharded inputs and outputs, CP, decode CP) leave a function that is
// referenced (called) alone. Upstream's SymbolTable::symbolKnownUseEmpty
// reads every op's attributes as one dictionary, which for an op with
// properties (every linalg op) builds and uniques that dictionary: on the
// 80-layer GPT of docs/benchmarks.md §1 one query cost 42M instructions, a
// third of the TP planner's own work.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_SYMBOLUSES_H
#define SEQPAR_ANALYSIS_SYMBOLUSES_H

#include "mlir/IR/SymbolTable.h"

namespace mlir::seqpar {

/// Whether an op nested in `within` refers to `symbol` (a symbol reference
/// whose root is `symbol`'s name). Reads every attribute of the ops that
/// can name a symbol in their own attributes, those implementing
/// SymbolUserOpInterface or CallOpInterface (every upstream op that refers
/// to a symbol: func.call, func.constant, llvm.call, shard ops, ...),
/// functions (their argument and result attributes) and unregistered ops,
/// and the discardable attributes of all others.
bool isSymbolReferenced(SymbolOpInterface symbol, Operation *within);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_SYMBOLUSES_H
