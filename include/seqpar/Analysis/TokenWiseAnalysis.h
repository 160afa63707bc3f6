//===- TokenWiseAnalysis.h - which ops can run on a sequence shard -*- C++ -*-===//
//
// Token-wise detection (docs/semantics.md §3.1): an op is token-wise along the
// sequence if computing it on a subset of tokens gives exactly that subset of
// its result. Derived from the IR (indexing maps, reassociations, slice
// bounds, elementwise traits), never from op names.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_ANALYSIS_TOKENWISEANALYSIS_H
#define SEQPAR_ANALYSIS_TOKENWISEANALYSIS_H

#include "seqpar/Analysis/StridedDim.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace mlir::seqpar {

/// Classification of one op.
struct TokenWiseInfo {
  enum class Kind {
    /// No operand carries the sequence: nothing to decide.
    NoSequence,
    /// Runs unchanged on any subset of tokens (see `seqLoop`, `operandDims`).
    TokenWise,
    /// Known semantics that mix tokens (reduces or reorders along s, reads
    /// other tokens, slices the sequence).
    NotTokenWise,
    /// No rule for this op: nothing can be proven.
    Unknown,
  };
  Kind kind = Kind::NoSequence;
  /// Why the op is not token-wise (NotTokenWise, Unknown).
  std::string reason;
  /// For linalg ops: the loop that iterates over the sequence, else -1.
  int64_t seqLoop = -1;
  /// True when the op reads an element's position along the sequence
  /// (`linalg.index` of the sequence loop, position-keyed dropout): it is
  /// token-wise only once the rank's global token offset is added.
  bool positionDependent = false;
  /// True for a linalg op whose sequence loop is a reduction that every
  /// sequence-carrying operand reads consistently (`seqLoop`, `operandDims`
  /// and `positionDependent` are then filled): reducing each shard and
  /// combining the partial results across ranks gives the result.
  bool reducesSequence = false;
  /// For a linalg op that mixes tokens only because some inputs carry the
  /// sequence along another loop than `seqLoop` (Q.K^T's keys, P.V's
  /// values): those inputs. None of them indexes `seqLoop`, which is
  /// parallel and kept by every result, so with them whole (every token,
  /// in order) the op computes each token of `seqLoop` from that token
  /// alone (`seqLoop`, `operandDims` and `positionDependent` are filled).
  /// Context parallelism then gathers only them (docs/context-parallelism.md,
  /// "Attention left unraised").
  SmallVector<unsigned> wholeOperands;
  /// Per operand: the operand dim indexed by the sequence (-1 when the
  /// operand does not follow the sequence, e.g. a weight or a broadcast).
  SmallVector<int64_t> operandDims;
  /// For linalg ops: sequence-carrying values defined above the op that its
  /// body reads with `tensor.extract` at `linalg.index` of the sequence loop
  /// along their sequence dim (a cross-entropy reading each token's label
  /// logit): the extract's tensor operand and that dim. They are read like
  /// operands, on the shard, and those index uses stay local positions.
  SmallVector<std::pair<OpOperand *, int64_t>> capturedDims;

  /// The index operands at which `capturedDims` are read along their
  /// sequence dim: positions that stay local on the shard.
  llvm::DenseSet<OpOperand *> capturedIndexOperands() const {
    llvm::DenseSet<OpOperand *> operands;
    for (auto [tensor, dim] : capturedDims)
      operands.insert(&tensor->getOwner()->getOpOperand(1 + dim));
    return operands;
  }

  bool isTokenWise() const { return kind == Kind::TokenWise; }
};

/// A value the function marks as this rank's block of the sequence
/// (`seqpar.sequence_block` on its defining op), where the sequence cannot
/// be followed to it: a padded context-parallel program keeps its arguments
/// whole and takes each rank's tokens inside; Ulysses attention's output
/// comes back from an all-to-all.
struct SequenceBlock {
  Value value;
  /// Its layout; `extent` is the tokens in the block.
  StridedDim seq;
};

/// The sequence blocks marked at the top level of `func`'s body.
SmallVector<SequenceBlock> findSequenceBlocks(func::FuncOp func);

/// Propagates the sequence dim forward from the entry function's arguments
/// and from the sequence blocks it marks (an argument longer than the blocks
/// holds the whole sequence they are taken from, and is not followed),
/// through the top-level ops of its body and classifies each op.
///
/// Ops nested in other ops' regions (linalg bodies included) are not
/// classified on their own; an op with regions other than a linalg body is
/// Unknown when it consumes a sequence-carrying value.
class TokenWiseAnalysis {
public:
  /// `argSeqDims[i]` is the sequence dim of argument i, or -1. Its (static)
  /// size is that sequence's length; arguments of different lengths are
  /// different sequences (docs/context-parallelism.md, "Encoder-decoder: two
  /// sequences"), of which each value carries at most one.
  /// `argDigits` (empty, or one per argument) gives the token digit of an
  /// argument whose sequence dim holds its tokens flattened with other dims
  /// ([b*s, h]: outer b), where extent > 0: its length is then that extent.
  TokenWiseAnalysis(func::FuncOp func, ArrayRef<int64_t> argSeqDims,
                    ArrayRef<StridedDim> argDigits = {});

  /// Runs the analysis. Fails, after emitting an error on the function, when
  /// the argument sequence dims or the sequence blocks are inconsistent or
  /// dynamic.
  LogicalResult run();

  /// Where the sequence lives in `value` (StridedDim with extent s), if it
  /// carries the sequence.
  std::optional<StridedDim> getSeqDim(Value value) const;
  /// Classification of a top-level op of the function body.
  const TokenWiseInfo &getInfo(Operation *op) const;
  /// Sequence length (elements; a block's when the function marks blocks),
  /// or -1 when no argument or block carries one. With sequences of several
  /// lengths (an encoder-decoder's), the first sequence argument's; each
  /// value's own is its StridedDim's `extent`.
  int64_t getSeqLen() const { return seqLen; }
  /// The distinct sequence lengths, the first sequence argument's (or the
  /// blocks') first; empty when no argument or block carries one.
  ArrayRef<int64_t> getSeqLens() const { return seqLens; }

private:
  /// Classifies the top-level ops in order; `seeds` start the sequence at
  /// the results of the ops that define them.
  void classifyBody(const llvm::DenseMap<Value, StridedDim> &seeds);
  TokenWiseInfo classify(Operation *op);
  /// Records `seqDim` (its outer from `value`'s type) if the dim holds the
  /// whole sequence digit.
  void setSeqDim(Value value, StridedDim seqDim);

  func::FuncOp func;
  SmallVector<int64_t> argSeqDims;
  SmallVector<StridedDim> argDigits;
  int64_t seqLen = -1;
  SmallVector<int64_t> seqLens;
  llvm::DenseMap<Value, StridedDim> seqDims;
  llvm::DenseMap<Operation *, TokenWiseInfo> infos;
  TokenWiseInfo noSequence;
};

/// True when `op` (its regions included) has no memory effect other than
/// `cf.assert` checks (exporters bound-check gather indices so): a check
/// that holds for every element of a tensor holds on any shard of it.
bool isEffectFreeButChecks(Operation *op);

/// A linalg op whose sequence loop is a reduction (TokenWiseInfo::
/// reducesSequence) combined by `kind`: reduced on each sequence shard, its
/// partial results combine into the result by an all-reduce of `kind`.
/// `seq` is the sequence layout of its first sequence-carrying operand.
struct SequenceReduction {
  shard::ReductionKind kind;
  StridedDim seq;
};
/// `op` as a SequenceReduction, or none (not linalg, not reducing the
/// sequence, no sum/max/min combiner, no sequence-carrying operand). Shared
/// by Megatron SP (over the TP axis) and CP (over the CP axes).
std::optional<SequenceReduction>
getSequenceReduction(Operation *op, const TokenWiseAnalysis &analysis);

/// Reads the sequence dim of each argument of `func`: the `seqpar.seq_dim`
/// attribute wins; when no argument has one, `optionSeqDim` (if >= 0)
/// applies to the first argument whose rank exceeds it.
SmallVector<int64_t> getArgSeqDims(func::FuncOp func, int64_t optionSeqDim);

/// True when slice op `slice` (extract or insert) spans dim `dim` (of size
/// `full`) whole: offset 0, size `full`, stride 1, all static.
bool spansWholeDim(OffsetSizeAndStrideOpInterface slice, int64_t dim,
                   int64_t full);

/// ", which flattens 2 sequences of 15 tokens" (or "... of 4 rows each")
/// where `seq`'s dim holds more than the sequence (an [b*s, h] or [s*b, h]
/// view); empty where it holds the tokens alone.
std::string describeFlattening(StridedDim seq);

/// Maps the sequence digit (stride `inner`, extent `seqLen`) of one dim onto
/// the dims of sizes `sizes` (row-major) it is expanded into, or that are
/// collapsed into it. Returns the dim (an index into `sizes`) holding the
/// whole digit and the digit's inner stride there; none when the digit is
/// split across dims or a size is dynamic.
std::optional<std::pair<int64_t, int64_t>>
findSeqInExpansion(ArrayRef<int64_t> sizes, int64_t inner, int64_t seqLen);

} // namespace mlir::seqpar

#endif // SEQPAR_ANALYSIS_TOKENWISEANALYSIS_H
