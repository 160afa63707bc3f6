//===- Passes.h - seqpar transform passes -----------------------*- C++ -*-===//
//
// The transforms of seqpar/Dialect/SeqPar/Transforms/Passes.td (one library
// per stage) and the patterns they expose. The named pipelines built from
// them are in seqpar/Pipelines/Pipelines.h.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H
#define SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::seqpar {

/// How attention is distributed: ring (pass-KV), all-gather-KV, Ulysses
/// (all-to-all to heads), or hybrid (Ulysses on one axis, ring on another).
enum class AttentionStrategy { Ring, AllGather, Ulysses, Hybrid };

/// How context parallelism assigns tokens to ranks: zigzag (chunks r and
/// 2c-1-r of 2c, which balances causal attention) or contiguous (s/c).
enum class LoadBalance { Zigzag, None };

/// How seqpar-decode-context-parallel merges the ranks' partial attentions
/// over their KV-cache slots: all-gather of the partials, or an all-to-all
/// over heads then an all-gather of the merged heads (docs/decode.md).
enum class DecodeMerge { AllGather, AllToAll };

/// The option spellings of the two enums: seqpar-context-parallel's
/// `strategy` and `load-balance` (Passes.td), seqpar-pipeline's
/// `cp-strategy` and `load-balance` (seqpar/Pipelines/Pipelines.h).
inline llvm::cl::ValuesClass attentionStrategyValues() {
  return llvm::cl::values(
      clEnumValN(AttentionStrategy::Ring, "ring",
                 "K/V blocks passed around the ring (pass-KV)"),
      clEnumValN(AttentionStrategy::AllGather, "all-gather",
                 "K/V all-gathered once"),
      clEnumValN(AttentionStrategy::Ulysses, "ulysses",
                 "all-to-all from sequence to heads and back"),
      clEnumValN(AttentionStrategy::Hybrid, "hybrid",
                 "Ulysses on one axis, ring on another"));
}
inline llvm::cl::ValuesClass loadBalanceValues() {
  return llvm::cl::values(
      clEnumValN(LoadBalance::Zigzag, "zigzag", "chunks r and 2c-1-r of 2c"),
      clEnumValN(LoadBalance::None, "none", "contiguous s/c tokens"));
}

inline llvm::cl::ValuesClass decodeMergeValues() {
  return llvm::cl::values(
      clEnumValN(DecodeMerge::AllGather, "all-gather",
                 "(out, row max, row sum) all-gathered, merged on every rank"),
      clEnumValN(DecodeMerge::AllToAll, "all-to-all",
                 "partials exchanged by heads, merged heads all-gathered"));
}

/// The KV-cache layouts of seqpar-decode-context-parallel's `layout`: how a
/// cache's slots are dealt over the ranks (`#seqpar.sharding` split kinds).
inline llvm::cl::ValuesClass cacheLayoutValues() {
  return llvm::cl::values(
      clEnumValN(SplitKind::cyclic, "cyclic",
                 "blocks of `interleave` tokens dealt round-robin"),
      clEnumValN(SplitKind::contiguous, "contiguous",
                 "rank r holds slots [r L_max/n, (r+1) L_max/n)"),
      clEnumValN(SplitKind::zigzag, "zigzag",
                 "chunks r and 2n-1-r of 2n"));
}

/// The option spelling of `strategy` (for remarks).
StringRef stringifyAttentionStrategy(AttentionStrategy strategy);

/// True for the strategies whose attention passes K/V around a ring (ring,
/// hybrid): the ones whose backward can keep the forward's blocks
/// (seqpar-context-parallel keep-kv).
inline bool keepsRingBlocks(AttentionStrategy strategy) {
  return strategy == AttentionStrategy::Ring ||
         strategy == AttentionStrategy::Hybrid;
}

#define GEN_PASS_DECL
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"

/// Adds the pattern folding `all_reduce(sum)` + `all_slice` over the same
/// grid axes into one `reduce_scatter`.
void populateFoldReduceScatterPatterns(RewritePatternSet &patterns);

/// Adds the pattern lowering `seqpar.dropout` to a Philox-4x32-10
/// `linalg.generic` (see the seqpar-expand-dropout pass).
void populateExpandDropoutPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h.inc"

} // namespace mlir::seqpar

#endif // SEQPAR_DIALECT_SEQPAR_TRANSFORMS_PASSES_H
