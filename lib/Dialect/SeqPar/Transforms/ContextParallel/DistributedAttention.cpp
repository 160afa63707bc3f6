//===- DistributedAttention.cpp - ring, all-gather-KV, Ulysses, hybrid ----===//
//
// All four build on seqpar.attention_block, which takes the tokens' global
// positions: the causal mask is exact for contiguous and zigzag shards and
// for K/V gathered in rank order, without un-permuting anything; an additive
// mask is read at the same positions from the whole (replicated) mask.
//
//===----------------------------------------------------------------------===//

#include "AttentionBuilder.h"

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

/// Whether `seq` is one sequence's tokens along dim 2 of [b, a, s, d], as
/// the distributed blocks read them.
static bool isAttentionTokens(std::optional<StridedDim> seq) {
  return seq && seq->dim == 2 && seq->inner == 1 && seq->outer == 1;
}

std::string mlir::seqpar::whyNotDistributable(AttentionOp op,
                                              const TokenWiseAnalysis &analysis,
                                              const DenseSet<Value> &sharded) {
  // Each of Q, K, V holds one sequence's tokens at dim 2, not several
  // sequences packed there ([b*s] attended as one): the blocks' positions
  // are tokens of one sequence. A cross-attention may read two sequences
  // of different lengths, one for the queries and one for the keys and
  // values (the verifier gives K and V one size).
  for (Value operand : {op.getQuery(), op.getKey(), op.getValue()})
    if (!sharded.contains(operand) ||
        !isAttentionTokens(analysis.getSeqDim(operand)))
      return "is an attention whose query, key and value do not all carry "
             "the sharded sequence at dim 2 of [b, a, s, d]";
  if (Value mask = op.getMask();
      mask && (sharded.contains(mask) || analysis.getSeqDim(mask)))
    return "is an attention whose mask is sharded along the sequence (each "
           "block reads its rows and columns from the whole mask)";
  Type elem = cast<RankedTensorType>(op.getQuery().getType()).getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "is an attention on data other than f32, f16 or bf16";
  return "";
}

std::string mlir::seqpar::whyNotDistributable(AttentionBackwardOp op,
                                              AttentionOp forward,
                                              const TokenWiseAnalysis &analysis,
                                              const DenseSet<Value> &sharded) {
  if (!forward)
    return "is an attention backward whose out is not the result of an "
           "attention this pass distributes (the backward reads the "
           "forward's LSE)";
  if (forward.getQuery() != op.getQuery() || forward.getKey() != op.getKey() ||
      forward.getValue() != op.getValue() ||
      forward.getMask() != op.getMask() ||
      forward.getScaleAttr() != op.getScaleAttr() ||
      forward.getCausal() != op.getCausal() ||
      forward.getHeadOffset() != op.getHeadOffset() ||
      !sameAttentionDropout(forward.getDropout(), op.getDropout()))
    return "is an attention backward whose query, key, value, mask, scale, "
           "causal flag or dropout differ from the attention whose out it "
           "reads";
  if (!sharded.contains(op.getOutGrad()) ||
      !isAttentionTokens(analysis.getSeqDim(op.getOutGrad())))
    return "is an attention backward whose dO does not carry the sharded "
           "sequence at dim 2 of [b, a, s, d]";
  return "";
}

LogicalResult mlir::seqpar::checkUlyssesHeads(AttentionOp op, int64_t numRanks,
                                              StringRef fallback) {
  int64_t heads = cast<RankedTensorType>(op.getQuery().getType()).getDimSize(1);
  int64_t kvHeads = cast<RankedTensorType>(op.getKey().getType()).getDimSize(1);
  if (heads % numRanks == 0 && kvHeads % numRanks == 0)
    return success();
  // Heads are this rank's: a TP program has already split them over t.
  return emitError(op.getLoc())
         << "ulysses needs this rank's query heads (" << heads
                        << ") and key/value heads (" << kvHeads
                        << ") divisible by the " << numRanks
                        << " Ulysses ranks; " << fallback;
}

AttentionBuilder::AttentionBuilder(Operation *op, Value query, Value key,
                                   Value value, Value mask, FloatAttr scale,
                                   bool causal, Region &dropout,
                                   Value headOffset,
                                   SequenceShardBuilder &shards,
                                   SequenceShardBuilder &kvShards,
                                   DistributedAttentionStats &stats)
    : op(op), query(query), key(key), value(value), mask(mask), scale(scale),
      causal(causal), dropout(&dropout), headOffset(headOffset), shards(shards),
      stats(stats), b(op), loc(op->getLoc()), numRanks(shards.getNumRanks()),
      queries{&shards, cast<RankedTensorType>(query.getType()).getDimSize(2)},
      keys{&kvShards, cast<RankedTensorType>(key.getType()).getDimSize(2)},
      blockHeadOffset(headOffset) {}

void AttentionBuilder::setLayout(AttentionStrategy strategy) {
  switch (strategy) {
  case AttentionStrategy::Ring:
    return setAxes(0u, std::nullopt);
  case AttentionStrategy::AllGather:
    return;
  case AttentionStrategy::Ulysses:
    return setAxes(std::nullopt, 0u);
  case AttentionStrategy::Hybrid:
    // The builder's axes are [ring, Ulysses].
    return setAxes(0u, 1u);
  }
}

void AttentionBuilder::setAxes(std::optional<unsigned> ringAxisIndex,
                               std::optional<unsigned> ulyssesAxisIndex) {
  ringAxis = ringAxisIndex;
  ulyssesAxis = ulyssesAxisIndex;
  if (ringAxis) {
    ringRanks = shards.getAxisSizes()[*ringAxis];
    ringRank = shards.axisRank(b, *ringAxis);
  } else {
    ringRank = index(0);
  }
  if (ulyssesAxis) {
    ulyssesRanks = shards.getAxisSizes()[*ulyssesAxis];
    // This rank's heads: chunk j of a/u (a mask with a head dim follows).
    int64_t localHeads =
        cast<RankedTensorType>(query.getType()).getDimSize(1) / ulyssesRanks;
    maskHeadOffset = arith::MulIOp::create(
        b, loc, shards.axisRank(b, *ulyssesAxis), index(localHeads));
    // The dropout of a block's head h is the op's at head h + that chunk's
    // first: global heads, as the single device numbers them.
    if (!dropout->empty())
      blockHeadOffset =
          headOffset ? arith::AddIOp::create(b, loc, headOffset, maskHeadOffset)
                           .getResult()
                     : maskHeadOffset;
  }
  // The causal zigzag ring splits its tokens in halves (chunks r and 2r-1-r
  // of the ring's 2r chunks): after the all-to-all the tokens are u pairs
  // of halves, so the first halves are brought together first.
  halvesFirst =
      shards.isZigzag() && causal && ringRanks > 1 && ulyssesRanks > 1;
}

AttentionBuilder::Partial AttentionBuilder::block(OpBuilder &ob, Value q,
                                                  Value k, Value v, Value qPos,
                                                  Value kvPos) {
  auto qType = cast<RankedTensorType>(q.getType());
  auto rowType =
      RankedTensorType::get(qType.getShape().drop_back(), ob.getF32Type());
  auto block = AttentionBlockOp::create(
      ob, loc, qType.clone(ob.getF32Type()), rowType, rowType, q, k, v, qPos,
      kvPos, blockMask(ob, qPos, kvPos, qType.getDimSize(1)), blockHeadOffset,
      scale, causal ? ob.getUnitAttr() : UnitAttr());
  cloneAttentionDropout(*dropout, block.getDropout());
  return Partial::of(block);
}

Value AttentionBuilder::blockMask(OpBuilder &ob, Value qPos, Value kvPos,
                                  int64_t heads) {
  bool padded = shards.isPadded();
  // Padding keys (positions >= s) are masked unless causality does it.
  if (!mask && !(padded && !causal))
    return Value();
  Type elem = cast<RankedTensorType>(query.getType()).getElementType();
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
      cast<RankedTensorType>(query.getType()).getElementType());
}

Value AttentionBuilder::positionsInRankOrder() {
  return SequenceShardBuilder::positionTensor(
      b, loc, numRanks * keys.localLen,
      [&](OpBuilder &nb, Location nloc, Value i) {
        Value len = arith::ConstantIndexOp::create(nb, nloc, keys.localLen);
        Value rank = arith::DivUIOp::create(nb, nloc, i, len);
        Value local = arith::RemUIOp::create(nb, nloc, i, len);
        return keys.shards->globalToken(nb, nloc, rank, local);
      });
}

Value AttentionBuilder::groupPosition(OpBuilder &ob, Location l,
                                      const Tokens &tokens, Value source,
                                      Value i) {
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(ob, l, value);
  };
  int64_t localLen = tokens.localLen;
  if (ulyssesRanks == 1)
    return tokens.shards->globalToken(ob, l, source, i);
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
  return tokens.shards->globalToken(ob, l, rank, t);
}

Value AttentionBuilder::insertTokens(OpBuilder &ob, Value part, Value into,
                                     int64_t offset) {
  auto type = cast<RankedTensorType>(into.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), ob.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), ob.getIndexAttr(1));
  for (int64_t extent : cast<RankedTensorType>(part.getType()).getShape())
    sizes.push_back(ob.getIndexAttr(extent));
  offsets[2] = ob.getIndexAttr(offset);
  return tensor::InsertSliceOp::create(ob, loc, part, into, offsets, sizes,
                                       strides)
      .getResult();
}

Value AttentionBuilder::groupPositions(const Tokens &tokens, Value source) {
  return SequenceShardBuilder::positionTensor(
      b, loc, ulyssesRanks * tokens.localLen,
      [&](OpBuilder &nb, Location nl, Value i) {
        return groupPosition(nb, nl, tokens, source, i);
      });
}

AttentionBuilder::Partial AttentionBuilder::ringStep(int64_t step, Value q,
                                                     Value qPos, Value k,
                                                     Value v, Partial acc) {
  int64_t tokens = cast<RankedTensorType>(q.getType()).getDimSize(2);
  Value kvPos = groupPositions(keys, ringSource(step));
  if (!causal)
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
          yield(ob, {insertTokens(ob, second.out, whole.out, half),
                     insertTokens(ob, second.rowMax, whole.rowMax, half),
                     insertTokens(ob, second.rowSum, whole.rowSum, half)});
        });
  }
  return buildAttentionMerge(b, loc, acc, Partial::of(branch.getResults()));
}

Value AttentionBuilder::ownKeyPositions(Value qPos) {
  return keys.shards == queries.shards ? qPos : groupPositions(keys, ringRank);
}

Value AttentionBuilder::ringSource(int64_t step) {
  return arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, ringRank, index(ringRanks - step)),
      index(ringRanks));
}

Value AttentionBuilder::startShift(Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  count(CollectiveKind::Shift, type, ringRanks);
  auto shift = ShiftStartOp::create(
      b, loc, RequestType::get(b.getContext(), type), shards.getGrid(),
      axisAttr(ringAxis), input, b.getI64IntegerAttr(1));
  if (!ringFirstShift)
    ringFirstShift = shift;
  return shift;
}

Value AttentionBuilder::waitFor(Value request, Type type) {
  auto wait = WaitOp::create(b, loc, type, request);
  ringLastWait = wait;
  return wait;
}

void AttentionBuilder::markRing(StringRef kind) {
  if (ringFirstShift && ringLastWait) {
    ringFirstShift->setAttr(SeqParDialect::kRingBeginAttrName,
                            b.getStringAttr(kind));
    ringLastWait->setAttr(SeqParDialect::kRingEndAttrName,
                          b.getStringAttr(kind));
  }
  ringFirstShift = ringLastWait = nullptr;
}

AttentionBuilder::Partial AttentionBuilder::ring(Value q, Value k, Value v) {
  Value qPos = groupPositions(queries, ringRank);
  Value ownKVPos = ownKeyPositions(qPos);
  Partial acc;
  for (int64_t step = 0; step < ringRanks; ++step) {
    // Start the next transfer before this step's compute; wait after it.
    // K and V that are one value (MQA written with k = v) travel once.
    bool shared = v == k;
    Value kRequest, vRequest;
    if (step + 1 < ringRanks) {
      kRequest = startShift(k);
      vRequest = shared ? kRequest : startShift(v);
    }
    heldBlocks.push_back({k, v});
    // The diagonal block: the rank's own K/V.
    acc = step == 0 ? block(b, q, k, v, qPos, ownKVPos)
                    : ringStep(step, q, qPos, k, v, acc);
    // This rank's tokens of the block, while the next one is in flight.
    if (keepCyclic.interleave > 0) {
      Value source = step == 0 ? ringRank : ringSource(step);
      if (keepCyclic.key)
        keptKey = keepOwnedTokens(k, source, keptKey);
      if (keepCyclic.value)
        keptValue = shared && keepCyclic.key
                        ? keptKey
                        : keepOwnedTokens(v, source, keptValue);
    }
    if (step + 1 < ringRanks) {
      k = waitFor(kRequest, k.getType());
      v = shared ? k : waitFor(vRequest, v.getType());
    }
  }
  markRing("attention");
  return acc;
}

bool AttentionBuilder::canKeepCyclic(Value tokens) const {
  int64_t interleave = keepCyclic.interleave;
  if (interleave < 1 || ulyssesRanks != 1 || ringRanks != numRanks ||
      shards.getGridAxes().size() != 1 || shards.isPadded())
    return false;
  auto type = dyn_cast<RankedTensorType>(tokens.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape())
    return false;
  int64_t n = type.getDimSize(2);
  if (shards.isZigzag() && n % 2 != 0)
    return false;
  int64_t chunk = shards.isZigzag() ? n / 2 : n;
  // A round is c I tokens; c * I is checked not to overflow first.
  return interleave <= chunk / ringRanks && chunk % (ringRanks * interleave) == 0;
}

Value AttentionBuilder::keepOwnedTokens(Value block, Value source,
                                        Value kept) {
  auto type = cast<RankedTensorType>(block.getType());
  int64_t interleave = keepCyclic.interleave;
  int64_t halves = shards.isZigzag() ? 2 : 1;
  int64_t chunk = type.getDimSize(2) / halves;
  int64_t rounds = chunk / (ringRanks * interleave);
  int64_t slots = rounds * interleave;
  if (!kept)
    kept = tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  SmallVector<int64_t> view{type.getDimSize(0), type.getDimSize(1), rounds,
                            ringRanks, interleave, type.getDimSize(3)};
  SmallVector<ReassociationIndices> groups{{0}, {1}, {2, 3, 4}, {5}};
  SmallVector<int64_t> mine(view);
  mine[3] = 1;
  SmallVector<int64_t> owned{view[0], view[1], slots, view[5]};
  for (int64_t half = 0; half < halves; ++half) {
    // Chunk `half` of the block: zigzag's chunks source and 2c-1-source of
    // 2c, else the source's s/c tokens; it starts at a multiple of c I.
    Value piece = halves == 1 ? block
                              : shards.sliceAlong(b, loc, block, 2,
                                                  b.getIndexAttr(half * chunk),
                                                  chunk);
    Value blocks = tensor::ExpandShapeOp::create(
        b, loc, type.clone(view), piece, groups);
    SmallVector<OpFoldResult> offsets(6, b.getIndexAttr(0)), sizes,
        strides(6, b.getIndexAttr(1));
    for (int64_t extent : mine)
      sizes.push_back(b.getIndexAttr(extent));
    offsets[3] = ringRank;
    Value tokens = tensor::ExtractSliceOp::create(
        b, loc, type.clone(mine), blocks, offsets, sizes, strides);
    Value compact = tensor::CollapseShapeOp::create(
        b, loc, type.clone(owned), tokens, groups);
    // Global chunk index q: its rounds are this rank's slots from q * slots.
    Value chunkIndex =
        half == 0 ? source
                  : arith::SubIOp::create(b, loc, index(2 * ringRanks - 1),
                                          source)
                        .getResult();
    Value slot = arith::MulIOp::create(b, loc, chunkIndex, index(slots));
    SmallVector<OpFoldResult> at(4, b.getIndexAttr(0)), extents,
        unit(4, b.getIndexAttr(1));
    at[2] = slot;
    for (int64_t extent : owned)
      extents.push_back(b.getIndexAttr(extent));
    kept = tensor::InsertSliceOp::create(b, loc, compact, kept, at, extents,
                                         unit)
               .getResult();
  }
  return kept;
}

Value AttentionBuilder::localPositions() {
  return SequenceShardBuilder::positionTensor(
      b, loc, queries.localLen, [&](OpBuilder &nb, Location nl, Value i) {
        return shards.globalToken(nb, nl, shards.rank(b), i);
      });
}

std::pair<Value, Value>
AttentionBuilder::allGatherKeysAndValues(Value k, Value v, bool again) {
  DenseI16ArrayAttr axes = b.getDenseI16ArrayAttr(shards.getGridAxes());
  SmallVector<Value, 2> inputs{k}, gathered;
  if (v != k)
    inputs.push_back(v);
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[2] *= numRanks;
    auto all = type.clone(shape);
    count(CollectiveKind::AllGather, all, numRanks);
    // Rank order, not sequence order: the positions say which is which.
    if (again)
      gathered.push_back(AllGatherStartOp::create(
          b, loc, RequestType::get(b.getContext(), all), shards.getGrid(),
          axes, input, b.getI64IntegerAttr(2)));
    else
      gathered.push_back(shard::AllGatherOp::create(
          b, loc, all, shards.getGrid(), axes, input, b.getIndexAttr(2)));
  }
  // Both transfers started, then waited for.
  if (again)
    for (Value &request : gathered)
      request = WaitOp::create(
          b, loc, cast<RequestType>(request.getType()).getValueType(), request);
  return {gathered.front(), gathered.back()};
}

DistributedAttention AttentionBuilder::allGatherKV() {
  auto [kAll, vAll] = allGatherKeysAndValues(key, value, /*again=*/false);
  Partial all =
      block(b, query, kAll, vAll, localPositions(), positionsInRankOrder());
  Value out = result(all);
  return {out,
          {query, key, value, out, all.rowMax, all.rowSum},
          {{key, kAll}, {value, vAll}}};
}

Value AttentionBuilder::toHeads(Value input) {
  if (ulyssesRanks == 1)
    return input;
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

Value AttentionBuilder::fromHeads(Value input, Type type) {
  count(CollectiveKind::AllToAll, input.getType(), ulyssesRanks);
  return shard::AllToAllOp::create(b, loc, type, shards.getGrid(),
                                   axisAttr(ulyssesAxis), input,
                                   b.getIndexAttr(2), b.getIndexAttr(1))
      .getResult();
}

Value AttentionBuilder::swapHalves(Value input) {
  return halvesFirst ? swapChunks(input, ulyssesRanks, 2) : input;
}

Value AttentionBuilder::toRingLayout(Value input) {
  return swapHalves(toHeads(input));
}

Value AttentionBuilder::fromRingLayout(Value input, Type type) {
  if (halvesFirst)
    input = swapChunks(input, 2, ulyssesRanks);
  return ulyssesRanks > 1 ? fromHeads(input, type) : input;
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

DistributedAttention AttentionBuilder::ulyssesThenRing(KeepCyclicKV keep) {
  keepCyclic = keep;
  keepCyclic.key &= canKeepCyclic(key);
  keepCyclic.value &= canKeepCyclic(value);
  if (!keepCyclic.key && !keepCyclic.value)
    keepCyclic = {};
  // The all-to-alls first, then the local reorders. K and V that are one
  // value (MQA written with k = v) move once.
  bool shared = value == key;
  Value q = toHeads(query), k = toHeads(key);
  Value v = shared ? k : toHeads(value);
  q = swapHalves(q);
  k = swapHalves(k);
  v = shared ? k : swapHalves(v);
  Partial all = ring(q, k, v);
  Value out = result(all);
  DistributedAttention distributed{
      fromRingLayout(out, query.getType()),
      {q, k, v, out, all.rowMax, all.rowSum, heldBlocks}};
  // Without Ulysses the ring's step-0 block is the key and value read.
  if (keptKey)
    distributed.keptKV.push_back({key, keptKey});
  if (keptValue && !(shared && keptKey))
    distributed.keptKV.push_back({value, keptValue});
  return distributed;
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

void AttentionBuilder::prepareInputs(bool zeroPaddingQueries) {
  if (!shards.isPadded())
    return;
  bool shared = value == key;
  key = zeroPaddingTokens(key);
  value = shared ? key : zeroPaddingTokens(value);
  // A padding query's LSE then stays finite, so that its (zero) dO gives
  // zero gradients in backward (0 * NaN would not).
  if (zeroPaddingQueries)
    query = zeroPaddingTokens(query);
}

DistributedAttention mlir::seqpar::distributeAttention(
    AttentionOp op, AttentionStrategy strategy, SequenceShardBuilder &builder,
    SequenceShardBuilder &kvBuilder, bool forBackward,
    DistributedAttentionStats &stats, KeepCyclicKV keep) {
  AttentionBuilder attention(op, builder, kvBuilder, stats);
  attention.prepareInputs(forBackward);
  attention.setLayout(strategy);
  if (strategy == AttentionStrategy::AllGather)
    return attention.allGatherKV();
  return attention.ulyssesThenRing(strategy == AttentionStrategy::Ring
                                       ? keep
                                       : KeepCyclicKV{});
}
