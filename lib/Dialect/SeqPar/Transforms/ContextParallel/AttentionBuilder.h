//===- AttentionBuilder.h - IR of one distributed attention -----*- C++ -*-===//
//
// The builder behind DistributedAttention.h: the layout both directions
// share (Ulysses' all-to-all over u ranks trades a/u of the heads for u times
// the tokens, then a ring over r ranks passes blocks of those tokens; USP,
// Fang and Zhao 2024, section 3), the blocks' positions and masks, and the
// forward (DistributedAttention.cpp) and backward
// (DistributedAttentionBackward.cpp) schemes built on them.
//
//===----------------------------------------------------------------------===//

#ifndef SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_ATTENTIONBUILDER_H
#define SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_ATTENTIONBUILDER_H

#include "DistributedAttention.h"

#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::seqpar {

/// Emits the IR of one distributed attention or attention backward (`op`,
/// the insertion point; query, key, value, mask, scale and causal flag are
/// the attention's).
class AttentionBuilder {
public:
  /// `shards` is the queries' sequence and `kvShards` the keys' and
  /// values' (the same builder but for an encoder-decoder's cross-attention,
  /// whose two sequences may differ in length).
  AttentionBuilder(Operation *op, Value query, Value key, Value value,
                   Value mask, FloatAttr scale, bool causal, Region &dropout,
                   Value headOffset, SequenceShardBuilder &shards,
                   SequenceShardBuilder &kvShards,
                   DistributedAttentionStats &stats);
  AttentionBuilder(AttentionOp op, SequenceShardBuilder &shards,
                   SequenceShardBuilder &kvShards,
                   DistributedAttentionStats &stats)
      : AttentionBuilder(op, op.getQuery(), op.getKey(), op.getValue(),
                         op.getMask(), op.getScaleAttr(), op.getCausal(),
                         op.getDropout(), op.getHeadOffset(), shards, kvShards,
                         stats) {}

  /// The layout of `strategy` (none for all-gather-KV): ring over the
  /// builder's axes, Ulysses over them, or hybrid over [ring, Ulysses].
  void setLayout(AttentionStrategy strategy);

  // Forward (DistributedAttention.cpp).
  /// K and V of this rank's tokens, with padding tokens zeroed (below);
  /// with `zeroPaddingQueries` the queries too.
  void prepareInputs(bool zeroPaddingQueries);
  /// All-gather-KV attention of the prepared inputs.
  DistributedAttention allGatherKV();
  /// Ulysses' all-to-all, the ring, the all-to-all back (setLayout).
  /// Without Ulysses, on one grid axis and unpadded, the ring also copies
  /// this rank's block-cyclic slots of the key and value `keep` names out of
  /// every block it holds (DistributedAttention::keptKV).
  DistributedAttention ulyssesThenRing(KeepCyclicKV keep = {});

  // Backward (DistributedAttentionBackward.cpp): dQ [b, a, s/c, d], dK and
  // dV [b, a_kv, s/c, d] of this rank's tokens in `types`, from the
  // forward's `state` and this rank's dO.
  SmallVector<Value, 3> allGatherKVBackward(const AttentionForwardState &state,
                                            Value outGrad, TypeRange types);
  SmallVector<Value, 3>
  ulyssesThenRingBackward(const AttentionForwardState &state, Value outGrad,
                          bool keepKV, TypeRange types);

private:
  using Partial = AttentionPartial;
  /// Ring over the `ringAxis`-th of the builder's grid axes (r ranks) after
  /// Ulysses over the `ulyssesAxis`-th (u ranks); a missing axis has one
  /// rank.
  void setAxes(std::optional<unsigned> ringAxis,
               std::optional<unsigned> ulyssesAxis);
  /// The f32 gradients of one block (or a sum of blocks): dQ [b, a', n, d],
  /// dK and dV [b, a_kv', m, d].
  struct Grads {
    Value query, key, value;
  };
  /// What the backward reads of some query rows besides Q: dO and the
  /// forward's output [b, a', n, d] and two-part LSE [b, a', n].
  struct Rows {
    Value outGrad, out, rowMax, rowSum;
    /// Rows [offset, offset + size) of each.
    Rows slice(OpBuilder &ob, Location l, int64_t offset, int64_t size) const;
  };

  /// Counts one transfer: a collective of `kind` over `ranks` ranks whose N
  /// (getBytesSent) is the bytes of `type`.
  void count(CollectiveKind kind, Type type, int64_t ranks) {
    stats.bytesSent += getBytesSent(kind, type, ranks);
    ++stats.transfers;
  }
  /// attention_block of `q` against `k`/`v` with the given positions.
  Partial block(OpBuilder &ob, Value q, Value k, Value v, Value qPos,
                Value kvPos);
  /// attention_block_backward of the query rows `q` (the rest of them in
  /// `rows`) against `k`/`v`.
  Grads blockBackward(OpBuilder &ob, Value q, const Rows &rows, Value k,
                      Value v, Value qPos, Value kvPos);
  /// An f32 zero tensor of `type`'s shape.
  Value zeros(OpBuilder &ob, Type type);
  /// x + y, elementwise.
  Value add(Value x, Value y);
  /// The f32 gradient `grad` rounded once to `type`'s element type.
  Value toElementType(Value grad, Type type);
  /// All-gathers `k` and `v` over every grid axis, in rank order (V that is
  /// K, MQA written with k = v, once). `again` (the backward's gather) uses
  /// seqpar.all_gather_start + wait, which CSE does not merge with the
  /// forward's shard.all_gather of the same value.
  std::pair<Value, Value> allGatherKeysAndValues(Value k, Value v, bool again);
  /// The block's own mask [b|1, a|1, sq|1, skv|1], read from the whole
  /// (replicated) mask at the block's query and key positions, and for
  /// `heads` heads from `maskHeadOffset` on (Ulysses); null when the block
  /// needs none (no mask, no padding keys to hide).
  Value blockMask(OpBuilder &ob, Value qPos, Value kvPos, int64_t heads);
  /// `x` [b, heads, s/c, d] with the rows of padding tokens (global
  /// position >= s) set to 0: they are zeros pushed through token-wise ops,
  /// which may make them inf or NaN (1/x, an RMSNorm without epsilon), and
  /// a masked key's score (-inf) or probability (0) would still meet them
  /// (NaN + -inf, 0 * inf).
  Value zeroPaddingTokens(Value x);
  /// The attention output from the partial over all keys, in the query's
  /// element type (f16/bf16 attention accumulates and merges in f32).
  Value result(Partial partial);
  /// Positions of the c * s/c tokens of all ranks, in rank order.
  Value positionsInRankOrder();
  /// Positions of this rank's s/c tokens.
  Value localPositions();
  /// [b, heads, s/c, d] -> [b, heads/u, u*s/c, d] over the Ulysses axis:
  /// head chunk j goes to rank j, token blocks arrive in rank order (no-op
  /// without Ulysses).
  Value toHeads(Value input);
  /// With `halvesFirst`, the zigzag halves of the u ranks' tokens brought
  /// together (first halves first); else `input`.
  Value swapHalves(Value input);
  /// The inverse of toHeads, to a value of `type` [b, heads, s/c, d].
  Value fromHeads(Value input, Type type);
  /// toHeads, then the zigzag halves brought together (halvesFirst):
  /// this rank's tokens in the ring's layout.
  Value toRingLayout(Value input);
  /// The inverse of toRingLayout, to a value of `type`.
  Value fromRingLayout(Value input, Type type);
  /// `part` inserted into `into` at token `offset` (dim 2; [b, a, n, d] or
  /// the rows' [b, a, n]).
  Value insertTokens(OpBuilder &ob, Value part, Value into, int64_t offset);
  /// Along the tokens of [b, a, n, d], viewed as [outer, inner, n/(outer*
  /// inner)] chunks: the chunks transposed to [inner, outer, ...].
  Value swapChunks(Value input, int64_t outer, int64_t inner);
  /// The sequence the queries or the keys and values carry: its shard
  /// builder and the tokens of it one rank holds.
  struct Tokens {
    SequenceShardBuilder *shards;
    int64_t localLen;
  };
  /// Global position of token `i` of the u*s/c tokens of `tokens` that ring
  /// rank `source` holds after the all-to-all (in the zigzag-halves order
  /// when `halvesFirst`).
  Value groupPosition(OpBuilder &ob, Location l, const Tokens &tokens,
                      Value source, Value i);
  Value groupPositions(const Tokens &tokens, Value source);
  /// The positions of this ring rank's own K/V block: `qPos`, its queries',
  /// unless the keys are another sequence (a cross-attention).
  Value ownKeyPositions(Value qPos);
  /// Ring rank (r - step) mod r: whose K/V block this rank holds after
  /// `step` shifts.
  Value ringSource(int64_t step);
  /// Starts shifting `input` one ring rank on (send to r + 1, receive from
  /// r - 1).
  Value startShift(Value input);
  /// Waits for a transfer of the ring being built.
  Value waitFor(Value request, Type type);
  /// Marks the ring just built (its first transfer, its last wait) with its
  /// kind, for seqpar-instrument-attention's ring regions.
  void markRing(StringRef kind);
  Operation *ringFirstShift = nullptr, *ringLastWait = nullptr;
  /// Ring step `step` >= 1: the local queries (positions `qPos`) against
  /// the K/V block of ring rank (r - step) mod r, merged into `acc`.
  Partial ringStep(int64_t step, Value q, Value qPos, Value k, Value v,
                   Partial acc);
  /// The ring over q, k, v (the tokens of one ring rank); the blocks it
  /// held go to `heldBlocks`.
  Partial ring(Value q, Value k, Value v);
  SmallVector<std::pair<Value, Value>> heldBlocks;
  /// What the ring keeps block-cyclic (ulyssesThenRing), and the slots kept
  /// so far of the key and value (null: not kept).
  KeepCyclicKV keepCyclic;
  Value keptKey, keptValue;
  /// Whether the ring can keep `tokens` (the key or value) block-cyclic:
  /// no Ulysses, one grid axis, no padding, a static [b, a_kv, s/c, d]
  /// whose chunks (s/c tokens, or zigzag's halves) are whole rounds of c I
  /// tokens.
  bool canKeepCyclic(Value tokens) const;
  /// `kept` (null: a new tensor of `block`'s type) with this rank's slots
  /// of `block`, the K or V of ring rank `source`, written in: each chunk of
  /// the block, viewed as [round, owner, within], gives its owner = this
  /// rank tokens to the slots from its first position / c on.
  Value keepOwnedTokens(Value block, Value source, Value kept);
  /// The gradients of ring step `step` >= 1 (the block of ring rank
  /// (r - step) mod r), at full size: blocks causality hides contribute
  /// zeros, zigzag halves are computed as half blocks.
  Grads ringBackwardStep(int64_t step, Value q, const Rows &rows, Value qPos,
                         Value k, Value v);
  /// Ring backward over the state's tokens (`outGrad` in the same layout):
  /// dQ accumulated here, K/V circulating again, the dK/dV of each block
  /// travelling with it and home after the last step
  /// (docs/context-parallelism.md).
  Grads ringBackward(const AttentionForwardState &state, Value outGrad,
                     bool keepKV);
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  DenseI16ArrayAttr axisAttr(std::optional<unsigned> i) {
    return b.getDenseI16ArrayAttr({shards.getGridAxes()[*i]});
  }

  Operation *op;
  Value query, key, value, mask;
  FloatAttr scale;
  bool causal;
  /// The attention's dropout region (maybe empty), which every block
  /// clones, and the global index of the attention's first head.
  Region *dropout;
  Value headOffset;
  /// The queries' builder, whose grid axes and ranks the keys' shares.
  SequenceShardBuilder &shards;
  DistributedAttentionStats &stats;
  OpBuilder b;
  Location loc;
  int64_t numRanks;
  Tokens queries, keys;
  Value maskHeadOffset;
  /// The blocks' head_offset: the attention's, plus the first head of the
  /// rank's Ulysses chunk.
  Value blockHeadOffset;
  std::optional<unsigned> ringAxis, ulyssesAxis;
  int64_t ringRanks = 1, ulyssesRanks = 1;
  Value ringRank;
  bool halvesFirst = false;
};

} // namespace mlir::seqpar

#endif // SEQPAR_LIB_TRANSFORMS_CONTEXTPARALLEL_ATTENTIONBUILDER_H
