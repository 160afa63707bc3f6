//===- DistributedAttention.cpp - ring, all-gather-KV and Ulysses ---------===//
//
// All three build on seqpar.attention_block, which takes the tokens' global
// positions: the causal mask is exact for contiguous and zigzag shards and
// for K/V gathered in rank order, without un-permuting anything; an additive
// mask is read at the same positions from the whole (replicated) mask.
//
//===----------------------------------------------------------------------===//

#include "ContextParallel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

std::optional<AttentionStrategy>
mlir::seqpar::parseAttentionStrategy(StringRef name) {
  if (name == "ring")
    return AttentionStrategy::Ring;
  if (name == "all-gather")
    return AttentionStrategy::AllGather;
  if (name == "ulysses")
    return AttentionStrategy::Ulysses;
  return std::nullopt;
}

StringRef mlir::seqpar::stringifyAttentionStrategy(AttentionStrategy strategy) {
  switch (strategy) {
  case AttentionStrategy::Ring:
    return "ring";
  case AttentionStrategy::AllGather:
    return "all-gather";
  case AttentionStrategy::Ulysses:
    return "ulysses";
  }
  return "";
}

std::string mlir::seqpar::whyNotDistributable(AttentionOp op,
                                              const TokenWiseAnalysis &analysis,
                                              const DenseSet<Value> &sharded) {
  for (Value operand : {op.getQuery(), op.getKey(), op.getValue()}) {
    std::optional<SeqDim> seq = analysis.getSeqDim(operand);
    if (!sharded.contains(operand) || !seq || seq->dim != 2 || seq->inner != 1)
      return "is an attention whose query, key and value do not all carry "
             "the sharded sequence at dim 2 of [b, a, s, d]";
  }
  if (Value mask = op.getMask();
      mask && (sharded.contains(mask) || analysis.getSeqDim(mask)))
    return "is an attention whose mask is sharded along the sequence (each "
           "block reads its rows and columns from the whole mask)";
  Type elem = cast<RankedTensorType>(op.getQuery().getType()).getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "is an attention on data other than f32, f16 or bf16";
  return "";
}

LogicalResult mlir::seqpar::checkUlyssesHeads(AttentionOp op,
                                              int64_t numRanks) {
  int64_t heads = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(1);
  int64_t kvHeads = cast<RankedTensorType>(op.getKey().getType()).getDimSize(1);
  if (heads % numRanks == 0 && kvHeads % numRanks == 0)
    return success();
  return op.emitError() << "ulysses needs the query heads (" << heads
                        << ") and key/value heads (" << kvHeads
                        << ") divisible by the " << numRanks
                        << " CP ranks; use strategy=ring or all-gather";
}

static int64_t bytesOf(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getNumElements() * (type.getElementTypeBitWidth() / 8);
}

namespace {

/// Emits the IR of one distributed attention.
class AttentionBuilder {
public:
  AttentionBuilder(AttentionOp op, SequenceShardBuilder &shards,
                   DistributedAttentionStats &stats)
      : op(op), shards(shards), stats(stats), b(op), loc(op.getLoc()),
        numRanks(shards.getNumRanks()),
        localLen(
            cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2)) {}

  Value ring();
  Value allGatherKV();
  Value ulysses();

private:
  struct Partial {
    Value out, lse;
  };
  /// attention_block of `q` against `k`/`v` with the given positions.
  Partial block(OpBuilder &ob, Value q, Value k, Value v, Value qPos,
                Value kvPos);
  Partial merge(OpBuilder &ob, Partial a, Partial c);
  /// A partial of `like`'s types that the merge ignores: out = 0,
  /// lse = -inf.
  Partial emptyPartial(OpBuilder &ob, Partial like);
  /// The block's own mask [b|1, a|1, sq|1, skv|1], read from the whole
  /// (replicated) mask at the block's query and key positions, and for
  /// `heads` heads from `maskHeadOffset` on (Ulysses).
  Value maskFor(OpBuilder &ob, Value qPos, Value kvPos, int64_t heads);
  Value maskHeadOffset;
  /// The f32 attention output `out` rounded to the query's element type
  /// (f16/bf16 attention accumulates and merges in f32).
  Value inQueryType(Value out);
  /// Positions of the local tokens of axis rank `rank`.
  Value positionsOf(Value rank);
  /// Positions of the c * s/c tokens of all ranks, in rank order.
  Value positionsInRankOrder();
  /// Ring step `step` >= 1: the local queries (positions `qPos`) against
  /// the K/V block of axis rank (r - step) mod c, merged into `acc`.
  Partial ringStep(int64_t step, Value qPos, Value k, Value v, Partial acc);
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  DenseI16ArrayAttr axes() {
    return b.getDenseI16ArrayAttr({shards.getGridAxis()});
  }

  AttentionOp op;
  SequenceShardBuilder &shards;
  DistributedAttentionStats &stats;
  OpBuilder b;
  Location loc;
  int64_t numRanks;
  int64_t localLen;
};

} // namespace

AttentionBuilder::Partial AttentionBuilder::block(OpBuilder &ob, Value q,
                                                  Value k, Value v, Value qPos,
                                                  Value kvPos) {
  auto qType = cast<RankedTensorType>(q.getType());
  auto lseType =
      RankedTensorType::get(qType.getShape().drop_back(), ob.getF32Type());
  Value mask =
      op.getMask() ? maskFor(ob, qPos, kvPos, qType.getDimSize(1)) : Value();
  auto result = AttentionBlockOp::create(
      ob, loc, qType.clone(ob.getF32Type()), lseType, q, k, v, qPos, kvPos,
      mask, op.getScaleAttr(), op.getCausal() ? ob.getUnitAttr() : UnitAttr());
  return {result.getOut(), result.getLse()};
}

AttentionBuilder::Partial AttentionBuilder::merge(OpBuilder &ob, Partial a,
                                                  Partial c) {
  auto merged = AttentionMergeOp::create(
      ob, loc, a.out.getType(), a.lse.getType(), a.out, a.lse, c.out, c.lse);
  return {merged.getOut(), merged.getLse()};
}

Value AttentionBuilder::maskFor(OpBuilder &ob, Value qPos, Value kvPos,
                                int64_t heads) {
  Value mask = op.getMask();
  auto type = cast<RankedTensorType>(mask.getType());
  auto length = [](Value positions) {
    return cast<RankedTensorType>(positions.getType()).getDimSize(0);
  };
  // Unit dims stay broadcast; others follow the block's heads and tokens.
  SmallVector<int64_t> shape(type.getShape());
  if (shape[1] != 1)
    shape[1] = heads;
  if (shape[2] != 1)
    shape[2] = length(qPos);
  if (shape[3] != 1)
    shape[3] = length(kvPos);
  Value init = tensor::EmptyOp::create(ob, loc, shape, type.getElementType());
  return linalg::GenericOp::create(
             ob, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{ob.getMultiDimIdentityMap(4)},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange) {
               Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
               auto at = [&](int64_t dim) -> Value {
                 return linalg::IndexOp::create(nb, nl, dim);
               };
               SmallVector<Value> index(4, zero);
               if (shape[0] != 1)
                 index[0] = at(0);
               if (shape[1] != 1)
                 index[1] =
                     maskHeadOffset
                         ? arith::AddIOp::create(nb, nl, at(1), maskHeadOffset)
                               .getResult()
                         : at(1);
               if (shape[2] != 1)
                 index[2] = tensor::ExtractOp::create(nb, nl, qPos, at(2));
               if (shape[3] != 1)
                 index[3] = tensor::ExtractOp::create(nb, nl, kvPos, at(3));
               linalg::YieldOp::create(
                   nb, nl,
                   tensor::ExtractOp::create(nb, nl, mask, index).getResult());
             })
      .getResult(0);
}

Value AttentionBuilder::inQueryType(Value out) {
  Type elem = cast<RankedTensorType>(op.getQuery().getType()).getElementType();
  auto type = cast<RankedTensorType>(out.getType());
  return type.getElementType() == elem
             ? out
             : arith::TruncFOp::create(b, loc, type.clone(elem), out)
                   .getResult();
}

Value AttentionBuilder::positionsOf(Value rank) {
  return shards.positionTensor(b, loc, localLen,
                               [&](OpBuilder &nb, Location nloc, Value i) {
                                 return shards.globalToken(nb, nloc, rank, i);
                               });
}

Value AttentionBuilder::positionsInRankOrder() {
  return shards.positionTensor(
      b, loc, numRanks * localLen, [&](OpBuilder &nb, Location nloc, Value i) {
        Value len = arith::ConstantIndexOp::create(nb, nloc, localLen);
        Value rank = arith::DivUIOp::create(nb, nloc, i, len);
        Value local = arith::RemUIOp::create(nb, nloc, i, len);
        return shards.globalToken(nb, nloc, rank, local);
      });
}

AttentionBuilder::Partial AttentionBuilder::emptyPartial(OpBuilder &ob,
                                                         Partial like) {
  auto fill = [&](Value shapeOf, Attribute value) {
    auto type = cast<RankedTensorType>(shapeOf.getType());
    Value init = tensor::EmptyOp::create(ob, loc, type.getShape(),
                                         type.getElementType());
    Value scalar = arith::ConstantOp::create(ob, loc, cast<TypedAttr>(value));
    return linalg::FillOp::create(ob, loc, scalar, init).getResult(0);
  };
  Type f32 = ob.getF32Type();
  return {fill(like.out, ob.getZeroAttr(f32)),
          fill(like.lse,
               ob.getFloatAttr(f32, -std::numeric_limits<float>::infinity()))};
}

AttentionBuilder::Partial AttentionBuilder::ringStep(int64_t step, Value qPos,
                                                     Value k, Value v,
                                                     Partial acc) {
  Value q = op.getQuery();
  Value rank = shards.rank(b);
  // After `step` shifts this rank holds the block of rank (r - step) mod c.
  Value source = arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, rank, index(numRanks - step)),
      index(numRanks));
  Value kvPos = positionsOf(source);
  if (!op.getCausal())
    return merge(b, acc, block(b, q, k, v, qPos, kvPos));
  // The branch yields the step's partial for all local queries (rows it does
  // not compute: out = 0, lse = -inf, which the merge ignores), so the merge
  // stays outside and the result keeps the queries' tokens.
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                        index(step), rank);
  auto yield = [&](OpBuilder &ob, Partial p) {
    scf::YieldOp::create(ob, loc, ValueRange{p.out, p.lse});
  };
  scf::IfOp branch;
  if (!shards.isZigzag()) {
    // Contiguous: an earlier block is dense, a later one fully masked (not
    // computed).
    branch = scf::IfOp::create(
        b, loc, earlier,
        [&](OpBuilder &ob, Location) {
          yield(ob, block(ob, q, k, v, qPos, kvPos));
        },
        [&](OpBuilder &ob, Location) { yield(ob, emptyPartial(ob, acc)); });
  } else {
    // Zigzag: from an earlier rank only the block's first chunk is visible
    // (to all local queries); from a later rank all of the block is visible
    // to the second local chunk only. Half a dense block either way.
    int64_t half = localLen / 2;
    branch = scf::IfOp::create(
        b, loc, earlier,
        [&](OpBuilder &ob, Location) {
          Value k0 = shards.sliceAlong(ob, loc, k, 2, ob.getIndexAttr(0), half);
          Value v0 = shards.sliceAlong(ob, loc, v, 2, ob.getIndexAttr(0), half);
          Value pos0 =
              shards.sliceAlong(ob, loc, kvPos, 0, ob.getIndexAttr(0), half);
          yield(ob, block(ob, q, k0, v0, qPos, pos0));
        },
        [&](OpBuilder &ob, Location) {
          OpFoldResult at = ob.getIndexAttr(half);
          Value q1 = shards.sliceAlong(ob, loc, q, 2, at, half);
          Value qPos1 = shards.sliceAlong(ob, loc, qPos, 0, at, half);
          Partial second = block(ob, q1, k, v, qPos1, kvPos);
          Partial whole = emptyPartial(ob, acc);
          auto insert = [&](Value part, Value into) {
            auto type = cast<RankedTensorType>(into.getType());
            SmallVector<OpFoldResult> offsets(type.getRank(),
                                              ob.getIndexAttr(0));
            SmallVector<OpFoldResult> sizes,
                strides(type.getRank(), ob.getIndexAttr(1));
            for (int64_t extent :
                 cast<RankedTensorType>(part.getType()).getShape())
              sizes.push_back(ob.getIndexAttr(extent));
            offsets[2] = at;
            return tensor::InsertSliceOp::create(ob, loc, part, into, offsets,
                                                 sizes, strides)
                .getResult();
          };
          yield(ob,
                {insert(second.out, whole.out), insert(second.lse, whole.lse)});
        });
  }
  return merge(b, acc, {branch.getResult(0), branch.getResult(1)});
}

Value AttentionBuilder::ring() {
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  Value rank = shards.rank(b);
  Value qPos = positionsOf(rank);
  Partial acc;
  for (int64_t step = 0; step < numRanks; ++step) {
    // Start the next transfer before this step's compute; wait after it.
    Value kRequest, vRequest;
    if (step + 1 < numRanks) {
      auto shift = [&](Value input) -> Value {
        auto type = cast<RankedTensorType>(input.getType());
        stats.bytesSent += bytesOf(input);
        ++stats.transfers;
        return ShiftStartOp::create(
            b, loc, RequestType::get(b.getContext(), type), shards.getGrid(),
            axes(), input, b.getI64IntegerAttr(1));
      };
      // K and V that are one value (MQA written with k = v) travel once.
      kRequest = shift(k);
      vRequest = v == k ? kRequest : shift(v);
    }
    // The diagonal block: the rank's own K/V.
    acc = step == 0 ? block(b, q, k, v, qPos, qPos)
                    : ringStep(step, qPos, k, v, acc);
    if (step + 1 < numRanks) {
      bool shared = v == k;
      k = WaitOp::create(b, loc, k.getType(), kRequest);
      v = shared ? k
                 : WaitOp::create(b, loc, v.getType(), vRequest).getResult();
    }
  }
  return inQueryType(acc.out);
}

Value AttentionBuilder::allGatherKV() {
  SmallVector<Value> gathered;
  for (Value input : {op.getKey(), op.getValue()}) {
    if (input == op.getValue() && input == op.getKey()) {
      gathered.push_back(gathered.front());
      continue;
    }
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[2] *= numRanks;
    // Rank order, not sequence order: the positions say which is which.
    gathered.push_back(shard::AllGatherOp::create(b, loc, type.clone(shape),
                                                  shards.getGrid(), axes(),
                                                  input, b.getIndexAttr(2)));
    stats.bytesSent += bytesOf(input) * (numRanks - 1);
    ++stats.transfers;
  }
  Value qPos = positionsOf(shards.rank(b));
  return inQueryType(block(b, op.getQuery(), gathered[0], gathered[1], qPos,
                           positionsInRankOrder())
                         .out);
}

Value AttentionBuilder::ulysses() {
  // [b, heads, s/c, d] -> [b, heads/c, s, d]: head chunk j goes to rank j,
  // token blocks arrive in rank order.
  auto toHeads = [&](Value input) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[1] /= numRanks;
    shape[2] *= numRanks;
    stats.bytesSent += bytesOf(input) * (numRanks - 1) / numRanks;
    ++stats.transfers;
    return shard::AllToAllOp::create(b, loc, type.clone(shape),
                                     shards.getGrid(), axes(), input,
                                     b.getIndexAttr(1), b.getIndexAttr(2))
        .getResult();
  };
  Value q = toHeads(op.getQuery());
  // This rank's heads: chunk r of a/c (a mask with a head dim follows).
  int64_t localHeads = cast<RankedTensorType>(q.getType()).getDimSize(1);
  maskHeadOffset =
      arith::MulIOp::create(b, loc, shards.rank(b), index(localHeads));
  Value k = toHeads(op.getKey());
  Value v = op.getValue() == op.getKey() ? k : toHeads(op.getValue());
  Value positions = positionsInRankOrder();
  Value out = inQueryType(block(b, q, k, v, positions, positions).out);
  stats.bytesSent += bytesOf(out) * (numRanks - 1) / numRanks;
  ++stats.transfers;
  return shard::AllToAllOp::create(b, loc, op.getQuery().getType(),
                                   shards.getGrid(), axes(), out,
                                   b.getIndexAttr(2), b.getIndexAttr(1))
      .getResult();
}

Value mlir::seqpar::distributeAttention(AttentionOp op,
                                        AttentionStrategy strategy,
                                        SequenceShardBuilder &builder,
                                        DistributedAttentionStats &stats) {
  AttentionBuilder attention(op, builder, stats);
  switch (strategy) {
  case AttentionStrategy::Ring:
    return attention.ring();
  case AttentionStrategy::AllGather:
    return attention.allGatherKV();
  case AttentionStrategy::Ulysses:
    return attention.ulysses();
  }
  return Value();
}
