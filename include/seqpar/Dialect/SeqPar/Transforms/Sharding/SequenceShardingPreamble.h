//===- SequenceShardingPreamble.h - checks before sharding s ----*- C++ -*-===//
//
// What seqpar-sequence-parallel and seqpar-context-parallel check before
// they shard the sequence, in one place: their options, the module, each
// function's form, and the functions left without a sequence dim
// (docs/sequence-parallel.md, "Input contract"). The grid axes are resolved
// by GridAxis.h, the sequence dims chosen by SeqDimChoice.h.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDINGPREAMBLE_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDINGPREAMBLE_H

#include "seqpar/Analysis/SeqDimChoice.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>

namespace mlir::seqpar {

/// One run of a sequence-sharding pass over `module`. `role`
/// ("sequence-parallel", "context-parallel") starts its module-level
/// errors; `passArgument` names the pass in the buffer-form remark.
class SequenceShardingPreamble {
public:
  SequenceShardingPreamble(ModuleOp module, StringRef role,
                           StringRef passArgument, int64_t seqDimOption)
      : module(module), role(role), passArgument(passArgument),
        seqDimOption(seqDimOption) {}

  /// Refuses, with an error at the module and before any IR is read, the
  /// grid-axis options (spelling, value) that name no axis whatever the grid,
  /// then a `seq-dim` option that names no dim.
  LogicalResult
  checkOptions(ArrayRef<std::pair<StringRef, int64_t>> axisOptions);

  /// Refuses a module without a function body (an empty file).
  LogicalResult checkAnyFunctionBody();

  /// Whether `func` has a body in tensor form. A buffer-form function gets a
  /// remark and is left as it is (BufferForm.h).
  bool isTensorFunction(func::FuncOp func);

  /// The sequence dims of `func`'s arguments: `seqpar.seq_dim` attributes,
  /// else the `seq-dim` option, else inferred from the attention.
  ArgSeqDims chooseSeqDims(func::FuncOp func) {
    return chooseArgSeqDims(func, seqDimOption);
  }

  /// Notes that `func` has a sequence dim, or has none (and why), for
  /// `reportFunctionsWithoutSeqDim`.
  void noteSeqDim() { anyFunctionWithSeqDim = true; }
  void noteNoSeqDim(func::FuncOp func, std::string why) {
    functionsWithoutSeqDim.push_back({func, std::move(why)});
  }

  /// Reports the noted functions without a sequence dim: errors when no
  /// function had one, else remarks (SeqDimChoice.h). Fails on errors.
  LogicalResult reportFunctionsWithoutSeqDim();

private:
  ModuleOp module;
  StringRef role;
  StringRef passArgument;
  int64_t seqDimOption;
  bool anyFunctionWithSeqDim = false;
  SmallVector<std::pair<func::FuncOp, std::string>> functionsWithoutSeqDim;
};

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_SHARDING_SEQUENCESHARDINGPREAMBLE_H
