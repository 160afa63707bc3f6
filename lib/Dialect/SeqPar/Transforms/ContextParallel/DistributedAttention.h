//===- DistributedAttention.h - attention over CP axes ----------*- C++ -*-===//
//
// The attention part of context parallelism (docs/semantics.md §4): ring (pass-
// KV), all-gather-KV, Ulysses and hybrid (Ulysses then ring) attention of
// a seqpar.attention whose query, key and value hold this rank's tokens, and
// of its seqpar.attention_backward (docs/context-parallelism.md, "Training:
// the attention backward").
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
  /// Bytes of received K/V blocks a ring backward with `keepKV` reads from
  /// its forward (held per rank from forward to backward).
  int64_t keptBytes = 0;
};

/// What a distributed forward attention leaves for its backward, in the
/// layout its blocks ran in: this rank's n = s/c tokens (ring, all-gather-KV)
/// or, after Ulysses' all-to-all over u ranks, a/u heads of u*s/c tokens
/// (zigzag hybrid: first halves first). Saving them spares the backward the
/// forward's all-to-alls of Q, K, V and O (Ulysses sends only dO and the
/// gradients).
struct AttentionForwardState {
  /// Query [b, a', n, d], key and value [b, a_kv', n, d] as the blocks read
  /// them (this rank's tokens, not gathered; padding tokens zeroed).
  Value query, key, value;
  /// The attention output [b, a', n, d] in the data's element type.
  Value out;
  /// The rows' LSE over all keys in two parts (seqpar.attention_block),
  /// f32 [b, a', n].
  Value rowMax, rowSum;
  /// Ring: the K and V blocks the rank held at each step (step 0: its own),
  /// which a backward with `keepKV` reads instead of receiving them again.
  SmallVector<std::pair<Value, Value>> ringBlocks;
};

/// A distributed forward attention: its local output [b, a, s/c, d] and what
/// its backward reads.
struct DistributedAttention {
  Value result;
  AttentionForwardState state;
  /// All-gather-KV: the key and value this rank read, each with its
  /// all-gathered form [b, a_kv', c*n, d] (ranks' tokens in rank order), so
  /// that a K/V result can be relaid out of it without communication.
  SmallVector<std::pair<Value, Value>, 2> gatheredKV;
  /// Ring: the key or value this rank read, each with this rank's slots of
  /// it block-cyclic (interleave `KeepCyclicKV::interleave`), copied out of
  /// the K/V blocks the ring held (docs/decode.md, "From prefill to
  /// decode"); only those asked for, and only where the ring's chunks are
  /// whole rounds of c I tokens.
  SmallVector<std::pair<Value, Value>, 2> keptKV;
};

/// Which of an attention's key and value a ring keeps block-cyclic as its
/// blocks go by (a prefill's K/V results): interleave 0 keeps none.
struct KeepCyclicKV {
  int64_t interleave = 0;
  bool key = false, value = false;
};

/// Why `op` cannot be distributed (empty when it can): query, key and value
/// must all be in `sharded` with the sequence at dim 2 of [b, a, s, d]
/// (`analysis`), the data f32, f16 or bf16, and a mask (if any) not split
/// along the sequence.
std::string whyNotDistributable(AttentionOp op,
                                const TokenWiseAnalysis &analysis,
                                const DenseSet<Value> &sharded);

/// Why the backward `op` cannot be distributed with its forward `forward`
/// (null: none was distributed); empty when it can. The forward must be the
/// attention `op` differentiates (its result is `op`'s out; same query, key,
/// value, mask, scale and causal flag) and dO must be sharded like the
/// queries.
std::string whyNotDistributable(AttentionBackwardOp op, AttentionOp forward,
                                const TokenWiseAnalysis &analysis,
                                const DenseSet<Value> &sharded);

/// Ulysses splits heads over its axis: a and a_kv must be divisible by
/// its `numRanks`; otherwise a located error that suggests `fallback`.
LogicalResult checkUlyssesHeads(AttentionOp op, int64_t numRanks,
                                StringRef fallback);

/// Builds the distributed form of `op`, whose operands already hold this
/// rank's tokens (s/c, contiguous or zigzag as `builder` says for the
/// queries and `kvBuilder` for the keys and values: the same builder but for
/// a cross-attention between sequences of different lengths), and returns
/// the local attention output [b, a, s/c, d] with what a backward reads (with
/// `forBackward`, padding query rows are zeroed too, so that their LSE stays
/// finite). `op` itself is left for the caller to replace. Hybrid needs the
/// builder's axes to be [ring, Ulysses]; the other strategies use all of its
/// axes as one group.
/// Under the ring strategy on one grid axis (not padded), the key and value
/// `keep` names are also returned block-cyclic (DistributedAttention::keptKV).
DistributedAttention
distributeAttention(AttentionOp op, AttentionStrategy strategy,
                    SequenceShardBuilder &builder,
                    SequenceShardBuilder &kvBuilder, bool forBackward,
                    DistributedAttentionStats &stats, KeepCyclicKV keep = {});

/// Builds the distributed backward of `op` (whyNotDistributable above is
/// empty) from its forward's `state`, with the strategy the forward used:
/// ring backward (dQ accumulated locally in f32, K/V circulating again, dK
/// and dV on a second ring back to their owner), all-gather-KV (dK, dV
/// reduce-scattered) or Ulysses/hybrid (the conjugate all-to-alls). With
/// `keepKV` the ring reads the forward's K/V blocks (state.ringBlocks)
/// instead of circulating K/V again. `op`'s out_grad holds this rank's
/// tokens (`builder` and `kvBuilder` as for distributeAttention). Returns
/// the local dQ [b, a, s/c, d], dK and dV [b, a_kv, s/c, d] in `op`'s
/// result types; `op` is left for the caller to replace.
SmallVector<Value, 3>
distributeAttentionBackward(AttentionBackwardOp op, AttentionStrategy strategy,
                            SequenceShardBuilder &builder,
                            SequenceShardBuilder &kvBuilder,
                            const AttentionForwardState &state, bool keepKV,
                            DistributedAttentionStats &stats);

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_DISTRIBUTEDATTENTION_H
