//===- SavedForBackward.h - what a training graph keeps for backward -*- C++
//-*-===//
//
// A training graph (docs/training-graphs.md) is one function returning the
// loss and the parameter gradients. What it saves for the backward pass is
// read from the joint program itself: the values its forward part produced
// that are still live where its backward part starts. How the two parts
// are told apart is in docs/training-graphs.md, "What is saved for
// backward".
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_SAVEDFORBACKWARD_H
#define SEQPAR_ANALYSIS_SAVEDFORBACKWARD_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::seqpar {

/// One tensor the forward part keeps for the backward part.
struct SavedForBackwardTensor {
  /// The stored tensor: the root of the views (reshapes, transposes, casts,
  /// broadcasts) the backward reads it through; a function argument or a
  /// result of a top-level op of the body.
  Value value;
  /// The top-level op that produced it; null for a function argument.
  Operation *producer = nullptr;
  /// Its element type, e.g. bf16, f32, i1 (a dropout mask).
  Type elementType;
  /// Bytes as stored: elements x the element's bytes in memory (i1: 1 byte,
  /// getElementBytes in ByteCounts.h), at the per-rank shape the program
  /// has (after TP/SP rewrites).
  int64_t bytes = 0;
  /// Bytes when saved sharded instead (docs/semantics.md §10, Korthikanti
  /// section 4.2.2): a tensor produced by a `shard.all_gather` kept as the
  /// gather's input, re-gathered in backward; `bytes` otherwise.
  int64_t shardedBytes = 0;
};

/// The saved-for-backward set of one training graph.
struct SavedForBackward {
  /// The first top-level op of the backward part.
  Operation *backwardStart = nullptr;
  /// The forward part: the top-level ops the loss depends on.
  llvm::DenseSet<Operation *> forward;
  /// Forward ops (the loss's dependencies) placed after `backwardStart`
  /// (an exporter that interleaves the two parts); their inputs count as
  /// live there.
  int64_t forwardOpsAfterStart = 0;
  /// The saved tensors in program order (arguments first), each once.
  std::vector<SavedForBackwardTensor> tensors;
  /// Sums of their bytes and shardedBytes.
  int64_t totalBytes = 0;
  int64_t totalShardedBytes = 0;
};

/// Splits `func` into forward and backward and returns the forward values
/// live where the backward starts. Activations only: values computed from
/// the sequence-carrying arguments (findActivations in Activations.h) and
/// tensors computed from no argument at all (position-keyed dropout masks);
/// parameters, values computed from parameters alone, and constant-like
/// ops (constants, tensor.empty, fills of a constant) never count.
///
/// Fails when `func` cannot be read as a training graph (no body, result #0
/// not a one-element float loss, no gradient results, no gradient computed
/// from a forward activation, or no op common to all such gradients);
/// `why` then says which, for a remark. Callers have checked with
/// checkFiguresFit (seqpar/Report/Report.h) that every tensor's bytes fit.
FailureOr<SavedForBackward> analyzeSavedForBackward(func::FuncOp func,
                                                    std::string &why);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_SAVEDFORBACKWARD_H
