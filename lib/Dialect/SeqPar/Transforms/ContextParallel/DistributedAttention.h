//===- DistributedAttention.h - attention over CP axes ----------*- C++ -*-===//
//
// The attention part of context parallelism (docs/semantics.md §4): ring (pass-
// KV), all-gather-KV, Ulysses and hybrid (Ulysses then ring) attention of
// a seqpar.attention whose query, key and value hold this rank's tokens.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_DISTRIBUTEDATTENTION_H
#define SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_DISTRIBUTEDATTENTION_H

#include "seqpar/Dialect/SeqPar/IR/SeqPar.h"
#include "seqpar/Dialect/SeqPar/Transforms/Passes.h"
#include "seqpar/Dialect/SeqPar/Transforms/Sharding/SequenceShardBuilder.h"

#include <optional>
#include <string>

namespace mlir::seqpar {

/// Communication of the rewritten attention ops, per rank (docs/semantics.md §5).
struct DistributedAttentionStats {
  /// Collective or send/recv calls.
  int64_t transfers = 0;
  /// Bytes each rank sends.
  int64_t bytesSent = 0;
};

/// Why `op` cannot be distributed (empty when it can): query, key and value
/// must all be in `sharded` with the sequence at dim 2 of [b, a, s, d]
/// (`analysis`), the data f32, f16 or bf16, and a mask (if any) not split
/// along the sequence.
std::string whyNotDistributable(AttentionOp op,
                                const TokenWiseAnalysis &analysis,
                                const DenseSet<Value> &sharded);

/// Ulysses splits heads over its axis: a and a_kv must be divisible by
/// its `numRanks`; otherwise a located error that suggests `fallback`.
LogicalResult checkUlyssesHeads(AttentionOp op, int64_t numRanks,
                                StringRef fallback);

/// Builds the distributed form of `op`, whose operands already hold this
/// rank's tokens (s/c, contiguous or zigzag as `builder` says), and returns
/// the local attention output [b, a, s/c, d]. `op` itself is left for the
/// caller to replace. Hybrid needs the builder's axes to be [ring, Ulysses];
/// the other strategies use all of its axes as one group.
Value distributeAttention(AttentionOp op, AttentionStrategy strategy,
                          SequenceShardBuilder &builder,
                          DistributedAttentionStats &stats);

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_DISTRIBUTEDATTENTION_H
