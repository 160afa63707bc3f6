//===- DistributedAttention.cpp - ring, all-gather-KV, Ulysses, hybrid ----===//
//
// All four build on seqpar.attention_block, which takes the tokens' global
// positions: the causal mask is exact for contiguous and zigzag shards and
// for K/V gathered in rank order, without un-permuting anything; an additive
// mask is read at the same positions from the whole (replicated) mask.
//
//===----------------------------------------------------------------------===//

#include "DistributedAttention.h"

#include "seqpar/Analysis/ByteCounts.h"
#include "seqpar/Dialect/SeqPar/Transforms/Attention/AttentionPartial.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

StringRef mlir::seqpar::stringifyAttentionStrategy(AttentionStrategy strategy) {
  switch (strategy) {
  case AttentionStrategy::Ring:
    return "ring";
  case AttentionStrategy::AllGather:
    return "all-gather";
  case AttentionStrategy::Ulysses:
    return "ulysses";
  case AttentionStrategy::Hybrid:
    return "hybrid";
  }
  return "";
}

std::string mlir::seqpar::whyNotDistributable(AttentionOp op,
                                              const TokenWiseAnalysis &analysis,
                                              const DenseSet<Value> &sharded) {
  for (Value operand : {op.getQuery(), op.getKey(), op.getValue()}) {
    std::optional<StridedDim> seq = analysis.getSeqDim(operand);
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

LogicalResult mlir::seqpar::checkUlyssesHeads(AttentionOp op, int64_t numRanks,
                                              StringRef fallback) {
  int64_t heads = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(1);
  int64_t kvHeads = cast<RankedTensorType>(op.getKey().getType()).getDimSize(1);
  if (heads % numRanks == 0 && kvHeads % numRanks == 0)
    return success();
  // Heads are this rank's: a TP program has already split them over t.
  return op.emitError() << "ulysses needs this rank's query heads (" << heads
                        << ") and key/value heads (" << kvHeads
                        << ") divisible by the " << numRanks
                        << " Ulysses ranks; " << fallback;
}

namespace {

/// Emits the IR of one distributed attention. Ring, Ulysses and hybrid are
/// one scheme: an all-to-all over the Ulysses axis (u ranks; u = 1 for ring)
/// trades a/u of the heads for u times the tokens, then a ring over the
/// ring axis (r ranks; r = 1 for Ulysses) passes K/V blocks of those tokens,
/// then the all-to-all back (USP, Fang and Zhao 2024, section 3).
class AttentionBuilder {
public:
  AttentionBuilder(AttentionOp op, SequenceShardBuilder &shards,
                   DistributedAttentionStats &stats)
      : op(op), shards(shards), stats(stats), b(op), loc(op.getLoc()),
        numRanks(shards.getNumRanks()),
        localLen(
            cast<RankedTensorType>(op.getQuery().getType()).getDimSize(2)) {}

  /// K and V of this rank's tokens, with padding tokens zeroed (below).
  void prepareKeysAndValues();
  Value allGatherKV();
  /// Ring over grid axis `ringAxis` of the builder's axes (r ranks) after
  /// Ulysses over `ulyssesAxis` (u ranks); a missing axis has one rank.
  Value ulyssesThenRing(std::optional<unsigned> ringAxis,
                        std::optional<unsigned> ulyssesAxis);

private:
  using Partial = AttentionPartial;
  /// Counts one transfer: a collective of `kind` over `ranks` ranks whose N
  /// (getBytesSent) is the bytes of `type`.
  void count(CollectiveKind kind, Type type, int64_t ranks) {
    stats.bytesSent += getBytesSent(kind, type, ranks);
    ++stats.transfers;
  }
  /// attention_block of `q` against `k`/`v` with the given positions.
  Partial block(OpBuilder &ob, Value q, Value k, Value v, Value qPos,
                Value kvPos);
  /// The block's own mask [b|1, a|1, sq|1, skv|1], read from the whole
  /// (replicated) mask at the block's query and key positions, and for
  /// `heads` heads from `maskHeadOffset` on (Ulysses).
  Value maskFor(OpBuilder &ob, Value qPos, Value kvPos, int64_t heads);
  Value maskHeadOffset;
  /// `x` [b, heads, s/c, d] with the rows of padding tokens (global
  /// position >= s) set to 0: they are zeros pushed through token-wise ops,
  /// which may make them inf or NaN (1/x, an RMSNorm without epsilon), and
  /// a masked key's score (-inf) or probability (0) would still meet them
  /// (NaN + -inf, 0 * inf).
  Value zeroPaddingTokens(Value x);
  Value key, value;
  /// The attention output from the partial over all keys, in the query's
  /// element type (f16/bf16 attention accumulates and merges in f32).
  Value result(Partial partial);
  /// Positions of the c * s/c tokens of all ranks, in rank order.
  Value positionsInRankOrder();
  /// [b, heads, s/c, d] -> [b, heads/u, u*s/c, d] over the Ulysses axis:
  /// head chunk j goes to rank j, token blocks arrive in rank order.
  Value toHeads(Value input);
  /// Along the tokens of [b, a, n, d], viewed as [outer, inner, n/(outer*
  /// inner)] chunks: the chunks transposed to [inner, outer, ...].
  Value swapChunks(Value input, int64_t outer, int64_t inner);
  /// Global position of token `i` of the u*s/c tokens that ring rank `source`
  /// holds after the all-to-all (in the zigzag-halves order when
  /// `halvesFirst`).
  Value groupPosition(OpBuilder &ob, Location l, Value source, Value i);
  Value groupPositions(Value source) {
    return SequenceShardBuilder::positionTensor(
        b, loc, ulyssesRanks * localLen,
        [&](OpBuilder &nb, Location nl, Value i) {
          return groupPosition(nb, nl, source, i);
        });
  }
  /// Ring step `step` >= 1: the local queries (positions `qPos`) against
  /// the K/V block of ring rank (r - step) mod r, merged into `acc`.
  Partial ringStep(int64_t step, Value q, Value qPos, Value k, Value v,
                   Partial acc);
  /// The ring over q, k, v (the tokens of one ring rank).
  Partial ring(Value q, Value k, Value v);
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  DenseI16ArrayAttr axisAttr(std::optional<unsigned> i) {
    return b.getDenseI16ArrayAttr({shards.getGridAxes()[*i]});
  }

  AttentionOp op;
  SequenceShardBuilder &shards;
  DistributedAttentionStats &stats;
  OpBuilder b;
  Location loc;
  int64_t numRanks;
  int64_t localLen;
  std::optional<unsigned> ringAxis, ulyssesAxis;
  int64_t ringRanks = 1, ulyssesRanks = 1;
  Value ringRank;
  bool halvesFirst = false;
};

} // namespace

AttentionBuilder::Partial AttentionBuilder::block(OpBuilder &ob, Value q,
                                                  Value k, Value v, Value qPos,
                                                  Value kvPos) {
  auto qType = cast<RankedTensorType>(q.getType());
  auto rowType =
      RankedTensorType::get(qType.getShape().drop_back(), ob.getF32Type());
  // Padding keys (positions >= s) are masked unless causality does it.
  bool maskPadding = shards.isPadded() && !op.getCausal();
  Value mask = op.getMask() || maskPadding
                   ? maskFor(ob, qPos, kvPos, qType.getDimSize(1))
                   : Value();
  return Partial::of(AttentionBlockOp::create(
      ob, loc, qType.clone(ob.getF32Type()), rowType, rowType, q, k, v, qPos,
      kvPos, mask, op.getScaleAttr(),
      op.getCausal() ? ob.getUnitAttr() : UnitAttr()));
}

Value AttentionBuilder::maskFor(OpBuilder &ob, Value qPos, Value kvPos,
                                int64_t heads) {
  Value mask = op.getMask();
  Type elem = cast<RankedTensorType>(op.getQuery().getType()).getElementType();
  bool padded = shards.isPadded();
  // Without a mask of its own the block only masks padding keys.
  SmallVector<int64_t> maskShape{1, 1, 1, 1};
  if (mask)
    maskShape.assign(cast<RankedTensorType>(mask.getType()).getShape().begin(),
                     cast<RankedTensorType>(mask.getType()).getShape().end());
  auto length = [](Value positions) {
    return cast<RankedTensorType>(positions.getType()).getDimSize(0);
  };
  // Unit dims stay broadcast (but for the keys when padding is masked);
  // others follow the block's heads and tokens.
  SmallVector<int64_t> shape(maskShape);
  if (shape[1] != 1)
    shape[1] = heads;
  if (shape[2] != 1)
    shape[2] = length(qPos);
  if (shape[3] != 1 || padded)
    shape[3] = length(kvPos);
  int64_t seqLen = shards.getSeqLen();
  Value init = tensor::EmptyOp::create(ob, loc, shape, elem);
  return linalg::GenericOp::create(
             ob, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{ob.getMultiDimIdentityMap(4)},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange) {
               auto constant = [&](int64_t value) -> Value {
                 return arith::ConstantIndexOp::create(nb, nl, value);
               };
               auto at = [&](int64_t dim) -> Value {
                 return linalg::IndexOp::create(nb, nl, dim);
               };
               // A padding position reads the last row/column of the mask.
               auto clamped = [&](Value position) -> Value {
                 return padded ? arith::MinUIOp::create(nb, nl, position,
                                                        constant(seqLen - 1))
                                     .getResult()
                               : position;
               };
               // Positions are read whenever the mask (or padding) depends
               // on them, also for a block of one query or key.
               Value qPosition, kvPosition;
               if (maskShape[2] != 1)
                 qPosition = tensor::ExtractOp::create(nb, nl, qPos, at(2));
               if (maskShape[3] != 1 || padded)
                 kvPosition = tensor::ExtractOp::create(nb, nl, kvPos, at(3));
               Value value;
               if (mask) {
                 SmallVector<Value> index(4, constant(0));
                 if (maskShape[0] != 1)
                   index[0] = at(0);
                 if (maskShape[1] != 1)
                   index[1] = maskHeadOffset
                                  ? arith::AddIOp::create(nb, nl, at(1),
                                                          maskHeadOffset)
                                        .getResult()
                                  : at(1);
                 if (maskShape[2] != 1)
                   index[2] = clamped(qPosition);
                 if (maskShape[3] != 1)
                   index[3] = clamped(kvPosition);
                 value = tensor::ExtractOp::create(nb, nl, mask, index);
                 // A padding query sees every real key, so that a mask row
                 // masked entirely by -inf does not make padding tokens NaN
                 // (their K/V meet real queries' scores in the next layer).
                 if (padded && qPosition)
                   value = arith::SelectOp::create(
                       nb, nl,
                       arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ult,
                                             qPosition, constant(seqLen)),
                       value,
                       arith::ConstantOp::create(nb, nl, nb.getZeroAttr(elem)));
               } else {
                 value =
                     arith::ConstantOp::create(nb, nl, nb.getZeroAttr(elem));
               }
               if (padded) {
                 Value real =
                     arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ult,
                                           kvPosition, constant(seqLen));
                 Value minusInf = arith::ConstantOp::create(
                     nb, nl,
                     nb.getFloatAttr(elem,
                                     -std::numeric_limits<double>::infinity()));
                 value = arith::SelectOp::create(nb, nl, real, value, minusInf);
               }
               linalg::YieldOp::create(nb, nl, value);
             })
      .getResult(0);
}

Value AttentionBuilder::result(Partial partial) {
  return buildAttentionResult(
      b, loc, partial,
      cast<RankedTensorType>(op.getQuery().getType()).getElementType());
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

Value AttentionBuilder::groupPosition(OpBuilder &ob, Location l, Value source,
                                      Value i) {
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(ob, l, value);
  };
  if (ulyssesRanks == 1)
    return shards.globalToken(ob, l, source, i);
  // Token i came from Ulysses rank j, local token t: group rank
  // source * u + j.
  Value j, t;
  if (halvesFirst) {
    // [2 halves, u ranks, L/2]: i = (h * u + j) * L/2 + within.
    Value half = constant(localLen / 2);
    Value chunk = arith::DivUIOp::create(ob, l, i, half);
    Value within = arith::RemUIOp::create(ob, l, i, half);
    Value h = arith::DivUIOp::create(ob, l, chunk, constant(ulyssesRanks));
    j = arith::RemUIOp::create(ob, l, chunk, constant(ulyssesRanks));
    t = arith::AddIOp::create(ob, l, arith::MulIOp::create(ob, l, h, half),
                              within);
  } else {
    j = arith::DivUIOp::create(ob, l, i, constant(localLen));
    t = arith::RemUIOp::create(ob, l, i, constant(localLen));
  }
  Value rank = arith::AddIOp::create(
      ob, l, arith::MulIOp::create(ob, l, source, constant(ulyssesRanks)), j);
  return shards.globalToken(ob, l, rank, t);
}

AttentionBuilder::Partial AttentionBuilder::ringStep(int64_t step, Value q,
                                                     Value qPos, Value k,
                                                     Value v, Partial acc) {
  int64_t tokens = cast<RankedTensorType>(q.getType()).getDimSize(2);
  // After `step` shifts this rank holds the block of rank (r - step) mod r.
  Value source = arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, ringRank, index(ringRanks - step)),
      index(ringRanks));
  Value kvPos = groupPositions(source);
  if (!op.getCausal())
    return buildAttentionMerge(b, loc, acc, block(b, q, k, v, qPos, kvPos));
  // The branch yields the step's partial for all local queries (rows it does
  // not compute: the empty partial, which the merge ignores), so the merge
  // stays outside and the result keeps the queries' tokens.
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                        index(step), ringRank);
  auto yield = [&](OpBuilder &ob, Partial p) {
    scf::YieldOp::create(ob, loc, p.values());
  };
  auto outType = cast<RankedTensorType>(acc.out.getType());
  scf::IfOp branch;
  if (!shards.isZigzag()) {
    // Contiguous: an earlier block is dense, a later one fully masked (not
    // computed).
    branch = scf::IfOp::create(
        b, loc, earlier,
        [&](OpBuilder &ob, Location) {
          yield(ob, block(ob, q, k, v, qPos, kvPos));
        },
        [&](OpBuilder &ob, Location) {
          yield(ob, buildEmptyAttentionPartial(ob, loc, outType));
        });
  } else {
    // Zigzag: from an earlier rank only the block's first half is visible
    // (to all local queries); from a later rank all of the block is visible
    // to the second local half only. Half a dense block either way.
    int64_t half = tokens / 2;
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
          Partial whole = buildEmptyAttentionPartial(ob, loc, outType);
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
          yield(ob, {insert(second.out, whole.out),
                     insert(second.rowMax, whole.rowMax),
                     insert(second.rowSum, whole.rowSum)});
        });
  }
  return buildAttentionMerge(b, loc, acc, Partial::of(branch.getResults()));
}

AttentionBuilder::Partial AttentionBuilder::ring(Value q, Value k, Value v) {
  Value qPos = groupPositions(ringRank);
  Partial acc;
  for (int64_t step = 0; step < ringRanks; ++step) {
    // Start the next transfer before this step's compute; wait after it.
    Value kRequest, vRequest;
    if (step + 1 < ringRanks) {
      auto shift = [&](Value input) -> Value {
        auto type = cast<RankedTensorType>(input.getType());
        count(CollectiveKind::Shift, type, ringRanks);
        return ShiftStartOp::create(
            b, loc, RequestType::get(b.getContext(), type), shards.getGrid(),
            axisAttr(ringAxis), input, b.getI64IntegerAttr(1));
      };
      // K and V that are one value (MQA written with k = v) travel once.
      kRequest = shift(k);
      vRequest = v == k ? kRequest : shift(v);
    }
    // The diagonal block: the rank's own K/V.
    acc = step == 0 ? block(b, q, k, v, qPos, qPos)
                    : ringStep(step, q, qPos, k, v, acc);
    if (step + 1 < ringRanks) {
      bool shared = v == k;
      k = WaitOp::create(b, loc, k.getType(), kRequest);
      v = shared ? k
                 : WaitOp::create(b, loc, v.getType(), vRequest).getResult();
    }
  }
  return acc;
}

Value AttentionBuilder::allGatherKV() {
  SmallVector<Value> gathered;
  for (Value input : {key, value}) {
    // V that is K (MQA written with k = v) is gathered once.
    if (!gathered.empty() && input == key) {
      gathered.push_back(gathered.front());
      continue;
    }
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[2] *= numRanks;
    // Rank order, not sequence order: the positions say which is which.
    gathered.push_back(
        shard::AllGatherOp::create(b, loc, type.clone(shape), shards.getGrid(),
                                   b.getDenseI16ArrayAttr(shards.getGridAxes()),
                                   input, b.getIndexAttr(2)));
    count(CollectiveKind::AllGather, type.clone(shape), numRanks);
  }
  Value qPos = SequenceShardBuilder::positionTensor(
      b, loc, localLen, [&](OpBuilder &nb, Location nl, Value i) {
        return shards.globalToken(nb, nl, shards.rank(b), i);
      });
  return result(block(b, op.getQuery(), gathered[0], gathered[1], qPos,
                      positionsInRankOrder()));
}

Value AttentionBuilder::toHeads(Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[1] /= ulyssesRanks;
  shape[2] *= ulyssesRanks;
  count(CollectiveKind::AllToAll, type, ulyssesRanks);
  return shard::AllToAllOp::create(b, loc, type.clone(shape), shards.getGrid(),
                                   axisAttr(ulyssesAxis), input,
                                   b.getIndexAttr(1), b.getIndexAttr(2))
      .getResult();
}

Value AttentionBuilder::swapChunks(Value input, int64_t outer, int64_t inner) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t chunk = shape[2] / (outer * inner);
  auto expandedType =
      type.clone({shape[0], shape[1], outer, inner, chunk, shape[3]});
  SmallVector<ReassociationIndices> groups{{0}, {1}, {2, 3, 4}, {5}};
  Value expanded =
      tensor::ExpandShapeOp::create(b, loc, expandedType, input, groups);
  Value init = tensor::EmptyOp::create(
      b, loc, {shape[0], shape[1], inner, outer, chunk, shape[3]},
      type.getElementType());
  Value swapped =
      linalg::TransposeOp::create(b, loc, expanded, init, {0, 1, 3, 2, 4, 5})
          .getResult()[0];
  return tensor::CollapseShapeOp::create(b, loc, type, swapped, groups);
}

Value AttentionBuilder::ulyssesThenRing(
    std::optional<unsigned> ringAxisIndex,
    std::optional<unsigned> ulyssesAxisIndex) {
  ringAxis = ringAxisIndex;
  ulyssesAxis = ulyssesAxisIndex;
  if (ringAxis) {
    ringRanks = shards.getAxisSizes()[*ringAxis];
    ringRank = shards.axisRank(b, *ringAxis);
  } else {
    ringRank = index(0);
  }
  if (ulyssesAxis)
    ulyssesRanks = shards.getAxisSizes()[*ulyssesAxis];
  Value q = op.getQuery(), k = key, v = value;
  if (ulyssesRanks > 1) {
    q = toHeads(q);
    // This rank's heads: chunk j of a/u (a mask with a head dim follows).
    int64_t localHeads = cast<RankedTensorType>(q.getType()).getDimSize(1);
    maskHeadOffset = arith::MulIOp::create(
        b, loc, shards.axisRank(b, *ulyssesAxis), index(localHeads));
    Value kv = k;
    k = toHeads(k);
    v = v == kv ? k : toHeads(v);
  }
  // The causal zigzag ring splits its tokens in halves (chunks r and 2r-1-r
  // of the ring's 2r chunks): after the all-to-all the tokens are u pairs
  // of halves, so the first halves are brought together first.
  halvesFirst =
      shards.isZigzag() && op.getCausal() && ringRanks > 1 && ulyssesRanks > 1;
  if (halvesFirst) {
    q = swapChunks(q, ulyssesRanks, 2);
    Value kv = k;
    k = swapChunks(k, ulyssesRanks, 2);
    v = v == kv ? k : swapChunks(v, ulyssesRanks, 2);
  }
  Value out = result(ring(q, k, v));
  if (halvesFirst)
    out = swapChunks(out, 2, ulyssesRanks);
  if (ulyssesRanks == 1)
    return out;
  count(CollectiveKind::AllToAll, out.getType(), ulyssesRanks);
  return shard::AllToAllOp::create(b, loc, op.getQuery().getType(),
                                   shards.getGrid(), axisAttr(ulyssesAxis), out,
                                   b.getIndexAttr(2), b.getIndexAttr(1))
      .getResult();
}

Value AttentionBuilder::zeroPaddingTokens(Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value rank = shards.rank(b);
  AffineMap id4 = b.getMultiDimIdentityMap(4);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{x}, ValueRange{init},
             ArrayRef<AffineMap>{id4, id4},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value token = linalg::IndexOp::create(nb, nl, 2);
               Value position = shards.globalToken(nb, nl, rank, token);
               Value real = arith::CmpIOp::create(
                   nb, nl, arith::CmpIPredicate::ult, position,
                   arith::ConstantIndexOp::create(nb, nl, shards.getSeqLen()));
               Value zero = arith::ConstantOp::create(
                   nb, nl, nb.getZeroAttr(type.getElementType()));
               linalg::YieldOp::create(
                   nb, nl,
                   arith::SelectOp::create(nb, nl, real, args[0], zero)
                       .getResult());
             })
      .getResult(0);
}

void AttentionBuilder::prepareKeysAndValues() {
  key = op.getKey();
  value = op.getValue();
  if (!shards.isPadded())
    return;
  bool shared = value == key;
  key = zeroPaddingTokens(key);
  value = shared ? key : zeroPaddingTokens(value);
}

Value mlir::seqpar::distributeAttention(AttentionOp op,
                                        AttentionStrategy strategy,
                                        SequenceShardBuilder &builder,
                                        DistributedAttentionStats &stats) {
  AttentionBuilder attention(op, builder, stats);
  attention.prepareKeysAndValues();
  switch (strategy) {
  case AttentionStrategy::Ring:
    return attention.ulyssesThenRing(0u, std::nullopt);
  case AttentionStrategy::AllGather:
    return attention.allGatherKV();
  case AttentionStrategy::Ulysses:
    return attention.ulyssesThenRing(std::nullopt, 0u);
  case AttentionStrategy::Hybrid:
    // The builder's axes are [ring, Ulysses].
    return attention.ulyssesThenRing(0u, 1u);
  }
  return Value();
}
