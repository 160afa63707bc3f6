//===- DistributedAttentionBackward.cpp - the backward over CP axes -------===//
//
// The backward of a distributed seqpar.attention (docs/context-parallelism.md,
// "Training: the attention backward"). Every block is a
// seqpar.attention_block_backward that reads the forward's LSE of its rows,
// so its probabilities are the single-device ones and the gradients are sums
// over blocks (docs/semantics.md §4.7): dQ over the K/V blocks a rank sees,
// a K/V block's dK and dV over the query blocks that see it. The blocks run
// in the layout the forward ran in (its saved Q, K, V, out and LSE), with the
// same causal skipping: zigzag computes exactly the half blocks the forward
// computed, contiguous blocks in the future are not computed.
//
//===----------------------------------------------------------------------===//

#include "AttentionBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::seqpar;

AttentionBuilder::Rows AttentionBuilder::Rows::slice(OpBuilder &ob, Location l,
                                                     int64_t offset,
                                                     int64_t size) const {
  auto rows = [&](Value x) {
    return SequenceShardBuilder::sliceAlong(ob, l, x, 2,
                                            ob.getIndexAttr(offset), size);
  };
  return {rows(outGrad), rows(out), rows(rowMax), rows(rowSum)};
}

AttentionBuilder::Grads AttentionBuilder::blockBackward(OpBuilder &ob, Value q,
                                                        const Rows &rows,
                                                        Value k, Value v,
                                                        Value qPos,
                                                        Value kvPos) {
  auto qType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(k.getType());
  Type f32 = ob.getF32Type();
  auto grads = AttentionBlockBackwardOp::create(
      ob, loc, qType.clone(f32), kType.clone(f32), kType.clone(f32), q, k, v,
      rows.outGrad, rows.out, rows.rowMax, rows.rowSum, qPos, kvPos,
      blockMask(ob, qPos, kvPos, qType.getDimSize(1)), blockHeadOffset, scale,
      causal ? ob.getUnitAttr() : UnitAttr());
  // The forward's dropout, regenerated at this block's global coordinates.
  cloneAttentionDropout(*dropout, grads.getDropout());
  return {grads.getQueryGrad(), grads.getKeyGrad(), grads.getValueGrad()};
}

Value AttentionBuilder::zeros(OpBuilder &ob, Type type) {
  auto shaped = cast<RankedTensorType>(type);
  Type f32 = ob.getF32Type();
  Value init = tensor::EmptyOp::create(ob, loc, shaped.getShape(), f32);
  Value zero = arith::ConstantOp::create(ob, loc, ob.getZeroAttr(f32));
  return linalg::FillOp::create(ob, loc, zero, init).getResult(0);
}

Value AttentionBuilder::add(Value x, Value y) {
  auto type = cast<RankedTensorType>(x.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::AddOp::create(b, loc, TypeRange{type}, ValueRange{x, y},
                               ValueRange{init})
      .getResult(0);
}

Value AttentionBuilder::toElementType(Value grad, Type type) {
  auto target = cast<RankedTensorType>(type);
  auto source = cast<RankedTensorType>(grad.getType());
  if (source.getElementType() == target.getElementType())
    return grad;
  return arith::TruncFOp::create(b, loc, source.clone(target.getElementType()),
                                 grad);
}

AttentionBuilder::Grads AttentionBuilder::ringBackwardStep(int64_t step,
                                                           Value q,
                                                           const Rows &rows,
                                                           Value qPos, Value k,
                                                           Value v) {
  Value kvPos = groupPositions(keys, ringSource(step));
  if (!causal)
    return blockBackward(b, q, rows, k, v, qPos, kvPos);
  // As in forward (ringStep): the branch yields the step's gradients at full
  // size, zeros where no block is computed.
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                        index(step), ringRank);
  auto yield = [&](OpBuilder &ob, Grads grads) {
    scf::YieldOp::create(ob, loc,
                         ValueRange{grads.query, grads.key, grads.value});
  };
  Type qType = q.getType(), kType = k.getType();
  scf::IfOp branch;
  if (!shards.isZigzag()) {
    // Contiguous: an earlier block is dense, a later one fully masked.
    branch = scf::IfOp::create(
        b, loc, earlier,
        [&](OpBuilder &ob, Location) {
          yield(ob, blockBackward(ob, q, rows, k, v, qPos, kvPos));
        },
        [&](OpBuilder &ob, Location) {
          yield(ob, {zeros(ob, qType), zeros(ob, kType), zeros(ob, kType)});
        });
  } else {
    // Zigzag: an earlier rank's first K/V half against every local query
    // (the second half gets no gradient), or a later rank's whole block
    // against the second local half (the first half's dQ gets none).
    int64_t half = cast<RankedTensorType>(q.getType()).getDimSize(2) / 2;
    branch = scf::IfOp::create(
        b, loc, earlier,
        [&](OpBuilder &ob, Location) {
          OpFoldResult at = ob.getIndexAttr(0);
          Value k0 = shards.sliceAlong(ob, loc, k, 2, at, half);
          Value v0 = shards.sliceAlong(ob, loc, v, 2, at, half);
          Value pos0 = shards.sliceAlong(ob, loc, kvPos, 0, at, half);
          Grads first = blockBackward(ob, q, rows, k0, v0, qPos, pos0);
          yield(ob, {first.query,
                     insertTokens(ob, first.key, zeros(ob, kType), 0),
                     insertTokens(ob, first.value, zeros(ob, kType), 0)});
        },
        [&](OpBuilder &ob, Location) {
          OpFoldResult at = ob.getIndexAttr(half);
          Value q1 = shards.sliceAlong(ob, loc, q, 2, at, half);
          Value qPos1 = shards.sliceAlong(ob, loc, qPos, 0, at, half);
          Grads second = blockBackward(ob, q1, rows.slice(ob, loc, half, half),
                                       k, v, qPos1, kvPos);
          yield(ob,
                {insertTokens(ob, second.query, zeros(ob, qType), half),
                 second.key, second.value});
        });
  }
  return {branch.getResult(0), branch.getResult(1), branch.getResult(2)};
}

AttentionBuilder::Grads
AttentionBuilder::ringBackward(const AttentionForwardState &state,
                               Value outGrad, bool keepKV) {
  Value q = state.query, k = state.key, v = state.value;
  Rows rows{outGrad, state.out, state.rowMax, state.rowSum};
  Value qPos = groupPositions(queries, ringRank);
  Value ownKVPos = ownKeyPositions(qPos);
  // acc.key/value: the dK, dV accumulators of the K/V block this rank holds,
  // which travel the ring with it (ring-flash-attention's scheme).
  Grads acc;
  Value dkRequest, dvRequest;
  auto wait = [&](Value request, Type type) { return waitFor(request, type); };
  // Kept blocks are read where the forward held them; else K/V for the next
  // step move while this step computes (as in forward).
  bool receive = !keepKV;
  for (int64_t step = 0; step < ringRanks; ++step) {
    if (keepKV)
      std::tie(k, v) = state.ringBlocks[step];
    bool shared = v == k;
    if (keepKV && step > 0) {
      stats.keptBytes += checkedBytes(k.getType()).value_or(0);
      if (!shared)
        stats.keptBytes += checkedBytes(v.getType()).value_or(0);
    }
    Value kRequest, vRequest;
    if (receive && step + 1 < ringRanks) {
      kRequest = startShift(k);
      vRequest = shared ? kRequest : startShift(v);
    }
    if (step == 0) {
      acc = blockBackward(b, q, rows, k, v, qPos, ownKVPos);
    } else {
      Grads grads = ringBackwardStep(step, q, rows, qPos, k, v);
      acc.query = add(acc.query, grads.query);
      // The block owner's dK, dV so far arrived from the previous rank
      // during this step's compute.
      acc.key = add(wait(dkRequest, grads.key.getType()), grads.key);
      acc.value = add(wait(dvRequest, grads.value.getType()), grads.value);
    }
    // On to the next rank, which holds this K/V block next step; after the
    // last step that is the block's owner (c hops in all).
    if (ringRanks > 1) {
      dkRequest = startShift(acc.key);
      dvRequest = startShift(acc.value);
    }
    if (receive && step + 1 < ringRanks) {
      k = wait(kRequest, k.getType());
      v = shared ? k : wait(vRequest, v.getType());
    }
  }
  if (ringRanks > 1) {
    acc.key = wait(dkRequest, acc.key.getType());
    acc.value = wait(dvRequest, acc.value.getType());
  }
  markRing("attention_backward");
  return acc;
}

SmallVector<Value, 3>
AttentionBuilder::ulyssesThenRingBackward(const AttentionForwardState &state,
                                          Value outGrad, bool keepKV,
                                          TypeRange types) {
  // Padding tokens' dO is zero: their rows add nothing to dK and dV.
  if (shards.isPadded())
    outGrad = zeroPaddingTokens(outGrad);
  Grads grads = ringBackward(state, toRingLayout(outGrad), keepKV);
  // Rounded once, then moved back to this rank's tokens (the conjugate of
  // the forward's all-to-alls of Q, K and V).
  return {fromRingLayout(toElementType(grads.query, types[0]), types[0]),
          fromRingLayout(toElementType(grads.key, types[1]), types[1]),
          fromRingLayout(toElementType(grads.value, types[2]), types[2])};
}

SmallVector<Value, 3>
AttentionBuilder::allGatherKVBackward(const AttentionForwardState &state,
                                      Value outGrad, TypeRange types) {
  if (shards.isPadded())
    outGrad = zeroPaddingTokens(outGrad);
  // K/V are gathered again rather than kept from the forward: every rank
  // would otherwise hold all of them from forward to backward.
  auto [kAll, vAll] =
      allGatherKeysAndValues(state.key, state.value, /*again=*/true);
  Grads grads =
      blockBackward(b, state.query,
                    {outGrad, state.out, state.rowMax, state.rowSum}, kAll,
                    vAll, localPositions(), positionsInRankOrder());
  // dK, dV of all tokens, in rank order: each rank's sum over every rank's
  // queries is reduce-scattered to it, in f32 (rounded once, after).
  auto scatter = [&](Value all, Type type) -> Value {
    auto allType = cast<RankedTensorType>(all.getType());
    count(CollectiveKind::ReduceScatter, allType, numRanks);
    Value mine = shard::ReduceScatterOp::create(
        b, loc, allType.clone(cast<RankedTensorType>(type).getShape()),
        shards.getGrid(), b.getDenseI16ArrayAttr(shards.getGridAxes()), all,
        shard::ReductionKindAttr::get(b.getContext(),
                                      shard::ReductionKind::Sum),
        b.getIndexAttr(2));
    return toElementType(mine, type);
  };
  return {toElementType(grads.query, types[0]), scatter(grads.key, types[1]),
          scatter(grads.value, types[2])};
}

SmallVector<Value, 3> mlir::seqpar::distributeAttentionBackward(
    AttentionBackwardOp op, AttentionStrategy strategy,
    SequenceShardBuilder &builder, SequenceShardBuilder &kvBuilder,
    const AttentionForwardState &state, bool keepKV,
    DistributedAttentionStats &stats) {
  AttentionBuilder attention(op, op.getQuery(), op.getKey(), op.getValue(),
                             op.getMask(), op.getScaleAttr(), op.getCausal(),
                             op.getDropout(), op.getHeadOffset(), builder,
                             kvBuilder, stats);
  // The gradients' local types are their inputs' (the results still have
  // the global ones).
  SmallVector<Type, 3> types{op.getQuery().getType(), op.getKey().getType(),
                             op.getValue().getType()};
  attention.setLayout(strategy);
  return strategy == AttentionStrategy::AllGather
             ? attention.allGatherKVBackward(state, op.getOutGrad(), types)
             : attention.ulyssesThenRingBackward(state, op.getOutGrad(),
                                                 keepKV, types);
}
